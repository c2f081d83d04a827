// The safety stages of `retarget map` (seed 001): --smooth, --max-joint-speed, --max-hand-speed
// and --avoid-collisions [--solver slsqp|cobyla] [--margin M]. With avoidance they run as one
// SafetyPipeline (safety/safety_pipeline.hpp: the avoidance program keeps the speed limits, so
// nothing after it can move the arms back into collision); without it, as filters in the order
// smoothing -> joint rate limit -> Cartesian limit (which keeps the joint limit). Then every
// figure of the summary is taken from the written angles (writtenOutputSafety), checked with the
// collision model avoidance used. Called by finishMap and compare.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/app/hand_points.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/filter_stages.hpp>
#include <retarget/json/humanoid_binding.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/safety/self_collision.hpp>
#ifdef RETARGET_CLI_WITH_AVOIDANCE
#include <retarget/safety/safety_pipeline.hpp>
#endif

#include "map_output.hpp"

namespace retarget::cli {
namespace {

double frameStep(const MappedMotion<double>& mapped, Eigen::Index k) {
  return k == 0 ? 1.0 : mapped.time[static_cast<std::size_t>(k)] - mapped.time[static_cast<std::size_t>(k - 1)];
}

// The hand and elbow points of --max-hand-speed (m, link frames; app/hand_points.hpp), the
// virtual skeleton's pinned by --robot-schema when given.
std::vector<LinkPoint> handPoints(const MapRequest& request, const RobotModel<double>& model) {
  if (request.robot_schema.empty()) return app::handPoints(model);
  const HumanoidBindingOptions pins = loadJson<HumanoidBindingOptions>(request.robot_schema);
  return app::handPoints(model, &pins);
}

#ifdef RETARGET_CLI_WITH_AVOIDANCE
std::string runSafetyPipeline(const MapRequest& request, const RobotModel<double>& model,
                              const SelfCollisionModel<double>& collision, MappedMotion<double>& mapped) {
  SafetyPipelineOptions options;
  options.smoothing = request.smooth;
  options.max_joint_speed = request.max_joint_speed;
  options.max_point_speed = request.max_hand_speed;
  if (request.max_hand_speed > 0) options.points = handPoints(request, model);
  options.avoidance.solver =
      request.solver == "cobyla" ? AvoidanceOptions::Solver::kCobyla : AvoidanceOptions::Solver::kSlsqp;
  SafetyPipeline pipeline(collision, options);
  SelfCollisionChecker<double> checker(collision);
  int before = 0, changed = 0, limited = 0;
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    checker.update(mapped.q.row(k).transpose());
    before += checker.minDistance() < 0 ? 1 : 0;
  }
  const std::vector<Status> statuses = applySafetyPipeline(pipeline, mapped.q, mapped.time);
  for (std::size_t k = 0; k < statuses.size(); ++k) {
    changed += statuses[k].has(StatusCode::kCollisionAvoided) ? 1 : 0;
    limited += statuses[k].has(StatusCode::kRateLimited) ? 1 : 0;
    mapped.status[k] |= statuses[k];
  }
  std::string line = ", safety pipeline (";
  if (request.smooth > 0) line += "smoothing alpha " + fixed(request.smooth, 3) + ", ";
  if (request.max_joint_speed > 0) line += fixed(request.max_joint_speed, 3) + " rad/s, ";
  if (request.max_hand_speed > 0) line += "hands " + fixed(request.max_hand_speed, 3) + " m/s, ";
  return line + "avoidance " + request.solver + ", margin " + fixed(request.margin, 3) + " m): mapped angles in collision in " +
         std::to_string(before) + " frames; speed limited in " + std::to_string(limited) + ", avoidance in " +
         std::to_string(changed) + " frames";
}
#endif

std::string runFilters(const MapRequest& request, const RobotModel<double>& model, MappedMotion<double>& mapped) {
  FilterStagesOptions options;
  options.smoothing = request.smooth;
  options.max_joint_speed = request.max_joint_speed;
  options.max_point_speed = request.max_hand_speed;
  if (request.max_hand_speed > 0) options.points = handPoints(request, model);
  const std::vector<Status> statuses = applyFilterStages(model, mapped.q, mapped.time, options);
  int limited = 0;
  for (const Status status : statuses) limited += status.has(StatusCode::kRateLimited) ? 1 : 0;
  std::string line;
  if (request.smooth > 0) line += ", smoothed (alpha " + fixed(request.smooth, 3) + ")";
  if (request.max_joint_speed > 0 || request.max_hand_speed > 0) {
    line += ", speed limited in " + std::to_string(limited) + " frames";
  }
  return line;
}

// What the written angles show (see WrittenSafety); `collision`: the model avoidance used, null
// without --avoid-collisions.
WrittenSafety writtenOutputSafety(const MapRequest& request, const RobotModel<double>& model,
                                  const SelfCollisionModel<double>* collision, const MappedMotion<double>& mapped) {
  WrittenSafety out;
  const Eigen::Index frames = mapped.q.rows();
  std::vector<char> unmet(static_cast<std::size_t>(frames), 0);
  // Joint and point speeds: finite differences of consecutive written rows (a relative 1e-9
  // allowance for the limiters' round-off; a repeated time stamp must not move at all).
  const auto over = [](double distance, double limit, double dt) {
    return dt > 0 ? distance > limit * dt * (1.0 + 1e-9) + 1e-12 : distance > 0;
  };
  if (request.max_joint_speed > 0) {
    out.joint_speed_checked = true;
    for (Eigen::Index k = 1; k < frames; ++k) {
      const double dt = frameStep(mapped, k);
      const double step = (mapped.q.row(k) - mapped.q.row(k - 1)).cwiseAbs().maxCoeff();
      if (dt > 0) out.max_joint_speed = std::max(out.max_joint_speed, step / dt);
      if (over(step, request.max_joint_speed, dt)) {
        ++out.joint_speed_frames;
        unmet[static_cast<std::size_t>(k)] = 1;
      }
    }
  }
  if (request.max_hand_speed > 0) {
    out.point_speed_checked = true;
    const std::vector<LinkPoint> points = handPoints(request, model);
    std::vector<std::size_t> links;
    for (const LinkPoint& point : points) links.push_back(static_cast<std::size_t>(model.linkIndex(point.link)));
    RobotData<double> data(model);
    std::vector<Eigen::Vector3d> previous(points.size());
    for (Eigen::Index k = 0; k < frames; ++k) {
      forwardKinematics(model, data, mapped.q.row(k).transpose());
      const double dt = frameStep(mapped, k);
      double step = 0;
      for (std::size_t i = 0; i < points.size(); ++i) {
        const Eigen::Vector3d p = data.X_WL[links[i]] * points[i].p_L;
        if (k > 0) step = std::max(step, (p - previous[i]).norm());
        previous[i] = p;
      }
      if (k == 0) continue;
      if (dt > 0) out.max_point_speed = std::max(out.max_point_speed, step / dt);
      if (over(step, request.max_hand_speed, dt)) {
        ++out.point_speed_frames;
        unmet[static_cast<std::size_t>(k)] = 1;
      }
    }
  }
  if (collision != nullptr) {
    out.collision_checked = true;
    {
      const TrajectoryClearance clearance = trajectoryClearance(*collision, mapped.q);
      out.collision_frames = clearance.collision_frames;
      out.min_clearance = clearance.min;
      for (Eigen::Index k = 0; k < frames; ++k) {
        if (clearance.min_distance[static_cast<std::size_t>(k)] < 0) unmet[static_cast<std::size_t>(k)] = 1;
      }
    }
  }
  out.unmet_frames = static_cast<int>(std::count(unmet.begin(), unmet.end(), 1));
  return out;
}

}  // namespace

std::string applySafetyStages(const MapRequest& request, const RobotModel<double>& model, MappedMotion<double>& mapped,
                              WrittenSafety* written) {
  if (!request.avoid_collisions) {
    std::string line = runFilters(request, model, mapped);
    if (written != nullptr) *written = writtenOutputSafety(request, model, nullptr, mapped);
    return line;
  }
#ifdef RETARGET_CLI_WITH_AVOIDANCE
  const std::optional<SelfCollisionModel<double>> collision = defaultSelfCollisionModel(model, request.margin);
  if (!collision) throw UsageError("map --avoid-collisions: robot '" + model.name() + "' has no collision shapes to check");
  std::string line = runSafetyPipeline(request, model, *collision, mapped);
  if (written != nullptr) *written = writtenOutputSafety(request, model, &*collision, mapped);
  return line;
#else
  throw missingPart("map --avoid-collisions", "avoidance", "libnlopt-dev");
#endif
}

std::string WrittenSafety::summary() const {
  if (!collision_checked && !joint_speed_checked && !point_speed_checked) return {};
  std::string line = "; written angles:";
  if (collision_checked) {
    const std::string clearance = std::isfinite(min_clearance) ? fixed(min_clearance, 4) + " m" : std::string("none: no frames");
    line += " " + std::to_string(collision_frames) + " frames in collision (min clearance " + clearance + "),";
  }
  if (joint_speed_checked) {
    line += " " + std::to_string(joint_speed_frames) + " frames over the joint speed limit (max " +
            fixed(max_joint_speed, 3) + " rad/s),";
  }
  if (point_speed_checked) {
    line += " " + std::to_string(point_speed_frames) + " frames over the hand speed limit (max " +
            fixed(max_point_speed, 3) + " m/s),";
  }
  return line + " " + std::to_string(unmet_frames) + " frames miss a limit";
}

std::string WrittenSafety::json() const {
  nlohmann::ordered_json out;
  if (collision_checked) {
    out["collision_frames"] = collision_frames;
    if (std::isfinite(min_clearance)) out["min_clearance"] = min_clearance;
    else out["min_clearance"] = nullptr;  // no frames
  }
  if (joint_speed_checked) {
    out["joint_speed_frames"] = joint_speed_frames;
    out["max_joint_speed"] = max_joint_speed;
  }
  if (point_speed_checked) {
    out["hand_speed_frames"] = point_speed_frames;
    out["max_hand_speed"] = max_point_speed;
  }
  out["unmet_frames"] = unmet_frames;
  return out.dump();
}

}  // namespace retarget::cli
