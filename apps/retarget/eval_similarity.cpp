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
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/link_similarity.hpp>

#include "cli.hpp"
#include "eval_common.hpp"
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
  std::vector<int> limited;
  for (int i = 0; i < kGaLvvjJointCount; ++i) {
    const auto& b = map->joints[static_cast<std::size_t>(i)];
    const auto j = static_cast<GaLvvjJoint>(i);
    if (!b.joint.empty() && j != GaLvvjJoint::kLHand && j != GaLvvjJoint::kRHand) limited.push_back(model.qIndex(b.joint));
  }
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
  VirtualSkeleton<double> skeleton(model, *map, base);
  std::vector<SkeletonFrame<double>> robot(motion.size());
  int on_limit_frames = 0;
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const Eigen::VectorXd q = angles.positions.row(static_cast<Eigen::Index>(k)).transpose();
    robot[k].time = angles.times[k];
    if (!skeleton.compute(q, robot[k]).ok()) throw ParseError(request.angles_path, k + 2, "expected finite joint angles");
    bool on_limit = false;
    for (int i : limited) {
      on_limit = on_limit || std::abs(q[i] - model.lowerLimits()[i]) <= 1e-9 || std::abs(q[i] - model.upperLimits()[i]) <= 1e-9;
    }
    on_limit_frames += on_limit ? 1 : 0;
  }
  const MotionSimilarity<double> s = motionSimilarity(motion.frames, robot);
  BestReachableOptions best_options;
  best_options.wbf_base = base;
  // Best reachable is a search within the limits: angles a little outside them (rounding in a
  // CSV) are taken at the limit.
  Eigen::MatrixXd within = angles.positions;
  for (Eigen::Index k = 0; k < within.rows(); ++k) {
    within.row(k) = within.row(k).cwiseMax(model.lowerLimits().transpose()).cwiseMin(model.upperLimits().transpose());
  }
  const MotionBestReachable<double> best = motionBestReachable(model, *map, motion.frames, within, best_options);

  if (request.json) {
    nlohmann::ordered_json out = evalJsonHead(request, "similarity", model, motion.size());
    out["on_limit_frames"] = on_limit_frames;
    out["degenerate_frames"] = s.degenerate_frames;
    nlohmann::ordered_json wbf_links = nlohmann::ordered_json::object(), llf_links = nlohmann::ordered_json::object();
    for (int i = 0; i < kSimilarityLinkCount; ++i) {
      const auto k = static_cast<std::size_t>(i);
      // null: the link never exists on this robot or in this motion (e.g. Pepper's legs).
      wbf_links[kSimilarityLinkNames[k]] = s.link_frames[k] > 0 ? nlohmann::ordered_json(s.wbf_link_mean[k]) : nullptr;
      llf_links[kSimilarityLinkNames[k]] = s.link_frames[k] > 0 ? nlohmann::ordered_json(s.llf_link_mean[k]) : nullptr;
    }
    out["wbf"] = {{"mean", s.wbf_mean}, {"min", s.wbf_min}, {"links", wbf_links}};
    out["llf"] = {{"mean", s.llf_mean}, {"min", s.llf_min}, {"links", llf_links}};
    out["cosine"] = {{"mean", s.cosine_mean}, {"min", s.cosine_min}};
    out["wbf_base"] = wbfBaseName(base);
    // Per link: achieved and best reachable means (over the frames where the link is valid).
    nlohmann::ordered_json links = nlohmann::ordered_json::object();
    for (int i = 0; i < kSimilarityLinkCount; ++i) {
      const auto k = static_cast<std::size_t>(i);
      auto value = [&](double v, int frames) { return frames > 0 ? nlohmann::ordered_json(v) : nullptr; };
      links[kSimilarityLinkNames[k]] = {{"wbf", value(best.wbf_achieved_mean[k], best.wbf_frames[k])},
                                        {"wbf_best_reachable", value(best.wbf_best_mean[k], best.wbf_frames[k])},
                                        {"llf", value(best.llf_achieved_mean[k], best.llf_frames[k])},
                                        {"llf_best_reachable", value(best.llf_best_mean[k], best.llf_frames[k])}};
    }
    out["links"] = links;
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "similarity of " << request.angles_path << " (" << model.name() << ") to " << request.motion_path
            << ": " << motion.size() << " frames, " << on_limit_frames << " with a joint on a limit\n";
  std::cout << "  WBF    mean " << s.wbf_mean << "  min " << s.wbf_min << "   (seed 000 Eq. 44)\n";
  std::cout << "  LLF    mean " << s.llf_mean << "  min " << s.llf_min << "   (seed 000 Eq. 46)\n";
  std::cout << "  cosine mean " << s.cosine_mean << "  min " << s.cosine_min << "   (seed 003 Eq. 1)\n";
  std::cout << "  per link, achieved and best reachable within the robot's limits (WBF base: " << wbfBaseName(base)
            << "):\n";
  std::cout << "    link            WBF     best    LLF     best\n";
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    const auto k = static_cast<std::size_t>(i);
    std::cout << "    " << std::left << std::setw(14) << kSimilarityLinkNames[k] << std::right;
    if (s.link_frames[k] > 0) {
      std::cout << "  " << best.wbf_achieved_mean[k] << "  " << best.wbf_best_mean[k] << "  "
                << best.llf_achieved_mean[k] << "  " << best.llf_best_mean[k] << "\n";
    } else {
      std::cout << "n/a (link missing on the robot or in the motion)\n";
    }
  }
}

const bool kRegistered = registerEvalMetrics(EvalMetrics{
    "similarity", "WBF, LLF and cosine link-vector similarity (seed 000 Eqs. 44, 46; seed 003 Eq. 1)", true,
    runSimilarity, [](const RobotModel<double>& model) { return gaLvvjMapFor(model).has_value(); }});

}  // namespace
}  // namespace retarget::cli
