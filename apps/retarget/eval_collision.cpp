// `retarget eval <motion> <angles.csv> --robot tangy --metrics collision [--json]`: the seed 001
// measures of a robot trajectory: joint-space similarity W (Eq. 12) between the angles and the
// direct mapping of the motion (the triangle mapping when the robot has a triangle map, else
// GA-LVVJ), the minimum clearance over the self-collision pairs and the number of frames in
// collision (some pair closer than its radii), before (direct mapping) and in the angles.
// Robots without collision shapes are refused.
#include <iomanip>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include "batch_mapping.hpp"
#include "cli.hpp"
#include "eval_common.hpp"
#include "metric_families.hpp"
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
  const CollisionEvaluation e = evaluateCollision(model, *collision, motion, angles.positions);
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
    std::cout << "  direct " << *e.reference << " mapping: " << e.before->collision_frames << " frames in collision\n";
    std::cout << "  W (seed 001 Eq. 12) vs the direct mapping: mean " << e.w->mean << "  min " << e.w->min << "\n";
  }
}

const bool kEvalCollisionRegistered = registerEvalMetrics(EvalMetrics{
    "collision",
    "self-collision: W (seed 001 Eq. 12) vs the direct mapping, minimum clearance, frames in collision", true,
    runCollision, [](const RobotModel<double>& model) { return cliCollisionModel(model).has_value(); }});

}  // namespace
}  // namespace retarget::cli
