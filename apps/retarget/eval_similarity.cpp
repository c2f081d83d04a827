// `retarget eval <motion> <angles.csv> --robot nao [--metrics similarity] [--wbf-base torso|support-foot]
// [--json]`: WBF (seed 000 Eq. 44), LLF (Eq. 46) and cosine (seed 003 Eq. 1) similarity between
// the human motion and the robot's virtual skeleton at the given angles, and per link the best
// WBF / LLF any configuration within the robot's limits reaches (metrics/best_reachable.hpp),
// so that the embodiment gap reads apart from the mapping error. The default metric family.
// --wbf-base chooses where the robot stands for WBF (WbfBase, robots/virtual_skeleton.hpp).
//
// `on_limit_frames` counts frames where some coordinate that moves the robot's virtual skeleton
// (hands excluded: they are binary and always sit on a limit) is within 1e-9 rad of a position
// limit. It is a
// property of the angles alone; whether a mapper had to clamp (and by how much) is what
// `retarget map` reports, because only the mapper knows the value it wanted.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include <retarget/app/metric_families.hpp>
#include "cli.hpp"
#include "eval_common.hpp"
#include "motion_loading.hpp"
#include "robot_binding.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

// The human-readable report: one row per link (achieved and best reachable WBF / LLF, frames
// within reach), the means, then one line per figure saying what it compares.
void printSimilarityTable(const EvalRequest& request, const RobotModel<double>& model, std::size_t frames,
                          const SimilarityEvaluation& e) {
  const MotionSimilarity<double>& s = e.similarity;
  const MotionBestReachable<double>& best = e.best;
  const auto cell = [](double value) { return fixed(value, 3); };
  std::ostringstream out;
  out << model.name() << " imitating " << request.motion_path << " with " << request.angles_path << ": " << frames
      << " frames\n\n";
  out << "  link            WBF    best    LLF    best    within reach (WBF/LLF)\n";
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    const auto k = static_cast<std::size_t>(i);
    out << "  " << std::left << std::setw(14) << kSimilarityLinkNames[k] << std::right;
    if (s.link_frames[k] > 0) {
      out << "  " << cell(best.wbf_achieved_mean[k]) << "  " << cell(best.wbf_best_mean[k]) << "   "
          << cell(best.llf_achieved_mean[k]) << "  " << cell(best.llf_best_mean[k]) << "   " << std::setw(4)
          << best.wbf_within_frames[k] << "/" << best.llf_within_frames[k] << " of " << best.wbf_frames[k] << "\n";
    } else {
      out << "  n/a (the link is missing on the robot or in the motion)\n";
    }
  }
  out << "  " << std::left << std::setw(14) << "all links" << std::right << "  " << cell(s.wbf_mean) << "  "
      << cell(bestReachableWbfMean(best)) << "   " << cell(s.llf_mean) << "  " << cell(bestReachableLlfMean(best))
      << "\n\n";
  out << "  1 = the robot's link (its virtual skeleton at these angles) points as the human's.\n"
      << "  WBF   whole-body focused (seed 000 Eq. 44): link directions with both bodies turned to face the same\n"
      << "        way, z up ("
      << (e.base == WbfBase::kSupportFoot ? "the robot standing on its support foot" : "the robot's torso upright")
      << "); worst frame " << cell(s.wbf_min) << "\n"
      << "  LLF   local-link focused (seed 000 Eq. 46): each link in its parent link's frame; worst frame "
      << cell(s.llf_min) << "\n"
      << "  best  the best reachable value: the highest any pose within " << model.name() << "'s joint limits reaches\n"
      << "        for that link: below 1 the robot's body is the limit; above the achieved value the mapping\n"
      << "        could do better\n"
      << "  within reach: frames where the human pose is within the robot's reach (there the mapper alone decides)\n"
      << "  cosine pose similarity (seed 003 Eq. 1): mean " << cell(s.cosine_mean) << ", worst frame "
      << cell(s.cosine_min) << "\n"
      << "  frames with a joint on a position limit: " << e.on_limit_frames << " of " << frames
      << " (`retarget map` reports whether it had to clamp)\n";
  std::cout << out.str();
}

void runSimilarity(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<VirtualSkeletonMap> map = robotSkeletonMap(model);
  if (!map) {
    throw UsageError("eval --metrics similarity: no virtual skeleton is defined for robot '" + model.name() +
                     "' (built-in GA-LVVJ maps: NAO, Pepper; the automatic humanoid binding found no arms and legs)");
  }
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const JointTrajectory angles = loadAnglesFor(request, model, motion);
  const WbfBase base = request.wbf_base == "support-foot" ? WbfBase::kSupportFoot : WbfBase::kTorso;
  if (base == WbfBase::kSupportFoot) {
    int feet = 0;
    for (const auto& point : map->points) {
      feet += (point.joint == HumanJoint::kFootLeft || point.joint == HumanJoint::kFootRight) ? 1 : 0;
    }
    if (feet < 2) {
      throw UsageError("eval --wbf-base support-foot: robot '" + model.name() +
                       "' has no feet in its virtual skeleton (use --wbf-base torso)");
    }
  }
  const SimilarityEvaluation e =
      evaluateSimilarity(model, *map, motion, angles.positions, base, request.angles_path);
  if (request.json) {
    nlohmann::ordered_json out = evalJsonHead(request, "similarity", model, motion.size());
    out.update(similarityJson(e));
    std::cout << out.dump(2) << "\n";
    return;
  }
  printSimilarityTable(request, model, motion.size(), e);
}

const bool kEvalSimilarityRegistered = registerEvalMetrics(EvalMetrics{
    "similarity", "WBF, LLF and cosine link-vector similarity (seed 000 Eqs. 44, 46; seed 003 Eq. 1)", true,
    runSimilarity, [](const RobotModel<double>& model) { return robotSkeletonMap(model).has_value(); }});

}  // namespace
}  // namespace retarget::cli
