// The safety stages of `retarget map` (seed 001): --avoid-collisions [--solver slsqp|cobyla]
// [--margin M] (self-collision avoidance, any method, any robot with collision shapes) and
// --max-hand-speed (Cartesian speed limit on hands and elbows). Called by finishMap.
#include <string>

#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/safety/self_collision.hpp>
#ifdef RETARGET_CLI_WITH_AVOIDANCE
#include <retarget/safety/collision_avoidance.hpp>
#endif

#include "map_output.hpp"

namespace retarget::cli {

std::string applyCollisionAvoidance(const MapRequest& request, const RobotModel<double>& model,
                                    MappedMotion<double>& mapped) {
#ifdef RETARGET_CLI_WITH_AVOIDANCE
  SelfCollisionOptions options = model.name() == "tangy" ? tangySelfCollisionOptions() : SelfCollisionOptions{};
  options.margin = request.margin;
  if (model.name() != "tangy") options.excluded_pairs = alwaysCollidingPairs(model, options, 1000);
  const SelfCollisionModel<double> collision(model, options);
  if (collision.pairs().empty()) {
    throw UsageError("map --avoid-collisions: robot '" + model.name() + "' has no collision shapes to check");
  }
  AvoidanceOptions avoid;
  avoid.solver = request.solver == "cobyla" ? AvoidanceOptions::Solver::kCobyla : AvoidanceOptions::Solver::kSlsqp;
  CollisionAvoidance avoidance(collision, avoid);
  int changed = 0, failed = 0, before = 0;
  Eigen::VectorXd q(model.nq());
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    const Eigen::VectorXd q_mimic = mapped.q.row(k).transpose();
    const Status status = avoidance.apply(q_mimic, q);
    before += avoidance.stats().min_distance_in < 0 ? 1 : 0;
    changed += status.has(StatusCode::kCollisionAvoided) ? 1 : 0;
    failed += status.has(StatusCode::kNotConverged) ? 1 : 0;
    mapped.q.row(k) = q.transpose();
    mapped.status[static_cast<std::size_t>(k)] |= status;
  }
  const TrajectoryClearance after = trajectoryClearance(collision, mapped.q);
  return ", collisions: " + std::to_string(before) + " frames in collision before, " + std::to_string(after.collision_frames) +
         " after (" + request.solver + ", margin " + fixed(request.margin, 3) + " m; changed " + std::to_string(changed) +
         ", not converged " + std::to_string(failed) + "; min clearance " + fixed(after.min, 4) + " m)";
#else
  (void)model;
  (void)mapped;
  (void)request;
  throw missingPart("map --avoid-collisions", "avoidance", "libnlopt-dev");
#endif
}

std::string applyHandSpeedLimit(const MapRequest& request, const RobotModel<double>& model,
                                MappedMotion<double>& mapped) {
  const std::optional<TriangleMap> map = triangleMapFor(model);
  if (!map) {
    throw UsageError("map --max-hand-speed: no hand/elbow points known for robot '" + model.name() +
                     "' (built in: Tangy, NAO, Pepper)");
  }
  CartesianSpeedLimiterOptions options;
  options.max_speed = request.max_hand_speed;
  options.points = triangleArmPoints(model, *map);
  options.max_joint_speed = request.max_joint_speed;  // keep --max-joint-speed on the final output
  CartesianSpeedLimiter<double> limiter(model, options);
  int limited = 0;
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    const double dt = k == 0 ? 1.0 : mapped.time[static_cast<std::size_t>(k)] - mapped.time[static_cast<std::size_t>(k - 1)];
    const Status status = dt > 0 ? limiter.update(mapped.q.row(k).transpose(), dt) : Status();
    limited += status.has(StatusCode::kRateLimited) ? 1 : 0;
    mapped.q.row(k) = limiter.value().transpose();
  }
  return ", hand speed limited in " + std::to_string(limited) + " frames (" + fixed(request.max_hand_speed, 3) + " m/s)";
}

}  // namespace retarget::cli
