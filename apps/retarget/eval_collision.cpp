// `retarget eval <motion> <angles.csv> --robot tangy --metrics collision [--json]`: the seed 001
// measures of a robot trajectory: the minimum clearance over the self-collision pairs, the frames
// in collision (some pair closer than its radii), and the joint-space similarity W (Eq. 11) of
// the angles to the plain mapping of the motion by the method that produced them (seed 001's
// q_mimic: the mapping before smoothing, speed limits or collision avoidance), with that
// mapping's collision frames. The method is the one the angles file names ("wave_pics.csv"), or
// the only method that applies to the robot (Tangy: triangle); otherwise W is null: comparing
// with another method's mapping would measure how two methods differ, not what post-processing
// did. Robots without collision shapes are refused.
#include <iomanip>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/app/metric_families.hpp>
#include "batch_mapping.hpp"
#include "cli.hpp"
#include "comparison.hpp"
#include "eval_common.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runCollision(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<SelfCollisionModel<double>> collision = cliCollisionModel(model);
  if (!collision) {
    throw UsageError("eval --metrics collision: robot '" + model.name() + "' has no collision shapes to check");
  }
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const JointTrajectory angles = loadAnglesFor(request, model, motion);
  std::optional<PlainMapping> plain;
  const bool bvh = detectMotionFile(request.motion_path) == MotionFileKind::kBvh;
  if (const auto setup = plainMappingSetup(methodFromFileName(request.angles_path), model, bvh, request.config_path)) {
    plain = plainMapping(*setup, model, request.motion_path);
    if (plain && plain->q.rows() != angles.positions.rows()) plain.reset();
  }
  const CollisionEvaluation e = evaluateCollision(model, *collision, angles.positions, plain ? &*plain : nullptr);
  if (request.json) {
    nlohmann::ordered_json out = evalJsonHead(request, "collision", model, motion.size());
    out.update(collisionJson(e));
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "self-collision of " << request.angles_path << " (" << model.name() << ", " << e.pairs
            << " pairs, margin " << e.margin << " m): " << motion.size() << " frames\n";
  std::cout << "  frames in collision " << e.clearance.collision_frames << ", closer than the margin "
            << e.clearance.margin_frames << ", minimum clearance " << e.clearance.min << " m\n";
  if (e.reference) {
    std::cout << "  plain " << *e.reference << " mapping (no smoothing, speed limit or avoidance): "
              << e.before->collision_frames << " frames in collision\n";
    std::cout << "  W (seed 001 Eq. 11) of the angles to that plain mapping: mean " << e.w->mean << "  min " << e.w->min
              << "   (1 = unchanged)\n";
  } else {
    std::cout << "  W (seed 001 Eq. 11): not computed; the method that produced the angles is unknown (name it in "
                 "the file name, e.g. wave_ga-lvvj.csv)\n";
  }
}

const bool kEvalCollisionRegistered = registerEvalMetrics(EvalMetrics{
    "collision",
    "self-collision: minimum clearance, frames in collision, W (seed 001 Eq. 11) vs the plain mapping of the same "
    "method",
    true, runCollision, [](const RobotModel<double>& model) { return cliCollisionModel(model).has_value(); }});

}  // namespace
}  // namespace retarget::cli
