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

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/metrics/joint_similarity.hpp>
#include <retarget/safety/self_collision.hpp>

#include "cli.hpp"
#include "eval_common.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

// Tangy's pairs as seed 001 models them; any other robot: every pair of its collision shapes
// except those found touching in every one of 1000 seeded random configurations.
SelfCollisionModel<double> collisionModelFor(const RobotModel<double>& model) {
  SelfCollisionOptions options = model.name() == "tangy" ? tangySelfCollisionOptions() : SelfCollisionOptions{};
  if (model.name() != "tangy") options.excluded_pairs = alwaysCollidingPairs(model, options, 1000);
  return SelfCollisionModel<double>(model, options);
}

void runCollision(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const SelfCollisionModel<double> collision = collisionModelFor(model);
  if (collision.pairs().empty()) {
    throw UsageError("eval --metrics collision: robot '" + model.name() + "' has no collision shapes to check");
  }
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const JointTrajectory angles = loadAnglesFor(request, model, motion);
  // The direct mapping (q_mimic of seed 001) W compares against.
  std::optional<MappedMotion<double>> direct;
  std::string reference;
  if (const auto tri = triangleMapFor(model)) {
    TriangleMapper<double> mapper(model, *tri);
    direct = mapMotion(mapper, motion);
    reference = "triangle";
  } else if (const auto ga = gaLvvjMapFor(model)) {
    GaLvvjMapper<double> mapper(model, *ga);
    direct = mapMotion(mapper, motion);
    reference = "ga-lvvj";
  }
  const TrajectoryClearance clearance = trajectoryClearance(collision, angles.positions);
  std::optional<JointSimilaritySummary> w;
  std::optional<TrajectoryClearance> before;
  if (direct) {
    w = jointSimilarity(model, direct->q, angles.positions);
    before = trajectoryClearance(collision, direct->q);
  }
  if (request.json) {
    nlohmann::ordered_json out = evalJsonHead(request, "collision", model, motion.size());
    out["pairs"] = collision.pairs().size();
    out["margin"] = collision.margin();
    out["reference"] = direct ? nlohmann::ordered_json(reference) : nullptr;
    out["w"] = w ? nlohmann::ordered_json{{"mean", w->mean}, {"min", w->min}} : nlohmann::ordered_json(nullptr);
    out["min_clearance"] = clearance.min;
    out["collision_frames"] = clearance.collision_frames;
    out["margin_frames"] = clearance.margin_frames;
    out["reference_collision_frames"] = before ? nlohmann::ordered_json(before->collision_frames) : nullptr;
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "self-collision of " << request.angles_path << " (" << model.name() << ", " << collision.pairs().size()
            << " pairs, margin " << collision.margin() << " m): " << motion.size() << " frames\n";
  std::cout << "  frames in collision " << clearance.collision_frames << ", closer than the margin "
            << clearance.margin_frames << ", minimum clearance " << clearance.min << " m\n";
  if (direct) {
    std::cout << "  direct " << reference << " mapping: " << before->collision_frames << " frames in collision\n";
    std::cout << "  W (seed 001 Eq. 12) vs the direct mapping: mean " << w->mean << "  min " << w->min << "\n";
  }
}

const bool kRegistered = registerEvalMetrics(EvalMetrics{
    "collision",
    "self-collision: W (seed 001 Eq. 12) vs the direct mapping, minimum clearance, frames in collision", true,
    runCollision, [](const RobotModel<double>& model) { return !collisionModelFor(model).pairs().empty(); }});

}  // namespace
}  // namespace retarget::cli
