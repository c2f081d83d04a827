// `retarget eval <motion> <angles.csv> --robot nao [--metrics similarity] [--wbf-base torso|support-foot]
// [--json]`: WBF (seed 000 Eq. 44), LLF (Eq. 46) and cosine (seed 003 Eq. 1) similarity between
// the human motion and the robot's virtual skeleton at the given angles, and per link the best
// WBF / LLF any configuration within the robot's limits reaches (metrics/best_reachable.hpp),
// so that the embodiment gap reads apart from the mapping error. The default metric family.
// --wbf-base chooses where the robot stands for WBF (WbfBase, mappers/virtual_skeleton.hpp).
//
// `on_limit_frames` counts frames where some joint the GA-LVVJ map binds (hands excluded: they
// are binary and always sit on a limit) is within 1e-9 rad of a position limit. It is a
// property of the angles alone; whether a mapper had to clamp (and by how much) is what
// `retarget map` reports, because only the mapper knows the value it wanted.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/link_similarity.hpp>

#include "cli.hpp"
#include "eval_common.hpp"
#include "metric_families.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runSimilarity(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<GaLvvjMap> map = gaLvvjMapFor(model);
  if (!map) {
    throw UsageError("eval --metrics similarity: no virtual skeleton is defined for robot '" + model.name() +
                     "' (built-in GA-LVVJ maps: NAO, Pepper)");
  }
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const JointTrajectory angles = loadAnglesFor(request, model, motion);
  const WbfBase base = request.wbf_base == "support-foot" ? WbfBase::kSupportFoot : WbfBase::kTorso;
  if (base == WbfBase::kSupportFoot) {
    int feet = 0;
    for (const auto& point : map->virtual_skeleton) {
      feet += (point.joint == HumanJoint::kFootLeft || point.joint == HumanJoint::kFootRight) ? 1 : 0;
    }
    if (feet < 2) {
      throw UsageError("eval --wbf-base support-foot: robot '" + model.name() +
                       "' has no feet in its virtual skeleton (use --wbf-base torso)");
    }
  }
  const SimilarityEvaluation e =
      evaluateSimilarity(model, *map, motion, angles.positions, base, request.angles_path);
  const MotionSimilarity<double>& s = e.similarity;
  const MotionBestReachable<double>& best = e.best;

  if (request.json) {
    nlohmann::ordered_json out = evalJsonHead(request, "similarity", model, motion.size());
    out.update(similarityJson(e));
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "similarity of " << request.angles_path << " (" << model.name() << ") to " << request.motion_path
            << ": " << motion.size() << " frames, " << e.on_limit_frames << " with a joint on a limit\n";
  std::cout << "  WBF    mean " << s.wbf_mean << "  min " << s.wbf_min << "   (seed 000 Eq. 44)\n";
  std::cout << "  LLF    mean " << s.llf_mean << "  min " << s.llf_min << "   (seed 000 Eq. 46)\n";
  std::cout << "  cosine mean " << s.cosine_mean << "  min " << s.cosine_min << "   (seed 003 Eq. 1)\n";
  std::cout << "  per link, achieved and best reachable within the robot's limits (WBF base: " << wbfBaseName(base)
            << "),\n  over all frames and over the frames where the human pose is within the robot's reach\n"
               "  (metrics/best_reachable.hpp: there the mapper, not the robot, decides the value):\n";
  std::cout << "                    all frames                      within reach\n";
  std::cout << "    link            WBF     best    LLF     best    frames  WBF     best    frames  LLF     best\n";
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    const auto k = static_cast<std::size_t>(i);
    std::cout << "    " << std::left << std::setw(14) << kSimilarityLinkNames[k] << std::right;
    if (s.link_frames[k] > 0) {
      std::cout << "  " << best.wbf_achieved_mean[k] << "  " << best.wbf_best_mean[k] << "  "
                << best.llf_achieved_mean[k] << "  " << best.llf_best_mean[k];
      auto within = [](int frames, double achieved, double best_value) {
        std::ostringstream cell;
        cell << std::fixed << std::setprecision(4) << std::setw(6) << frames << "  ";
        if (frames > 0) {
          cell << achieved << "  " << best_value;
        } else {
          cell << "  -       -   ";
        }
        return cell.str();
      };
      std::cout << "  " << within(best.wbf_within_frames[k], best.wbf_achieved_within_mean[k], best.wbf_best_within_mean[k])
                << "  " << within(best.llf_within_frames[k], best.llf_achieved_within_mean[k], best.llf_best_within_mean[k])
                << "\n";
    } else {
      std::cout << "n/a (link missing on the robot or in the motion)\n";
    }
  }
}

const bool kEvalSimilarityRegistered = registerEvalMetrics(EvalMetrics{
    "similarity", "WBF, LLF and cosine link-vector similarity (seed 000 Eqs. 44, 46; seed 003 Eq. 1)", true,
    runSimilarity, [](const RobotModel<double>& model) { return gaLvvjMapFor(model).has_value(); }});

}  // namespace
}  // namespace retarget::cli
