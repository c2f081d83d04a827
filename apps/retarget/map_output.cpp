#include "map_output.hpp"

#include <iostream>

#include <nlohmann/json.hpp>

#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>

namespace retarget::cli {

// Defined in map_safety.cpp: the self-collision avoidance and Cartesian speed stages (in place,
// frame by frame); each returns its part of the summary line.
std::string applyCollisionAvoidance(const MapRequest& request, const RobotModel<double>& model,
                                    MappedMotion<double>& mapped);
std::string applyHandSpeedLimit(const MapRequest& request, const RobotModel<double>& model,
                                MappedMotion<double>& mapped);

void finishMap(const MapRequest& request, const RobotModel<double>& model, MappedMotion<double>& mapped,
               const std::string& label) {
  const Eigen::Index frames = mapped.q.rows();
  std::string filters;
  // Self-collision avoidance first (seed 001 order: map -> avoid -> safety limits on the robot).
  if (request.avoid_collisions) filters += applyCollisionAvoidance(request, model, mapped);
  if (request.smooth > 0) {
    ExponentialSmoothing<double> smoothing(model.nq(), ExponentialSmoothingOptions{request.smooth});
    for (Eigen::Index k = 0; k < frames; ++k) {
      (void)smoothing.update(mapped.q.row(k).transpose());
      mapped.q.row(k) = smoothing.value().transpose();
    }
    filters += ", smoothed (alpha " + fixed(request.smooth, 3) + ")";
  }
  if (request.max_joint_speed > 0) {
    RateLimiterOptions options;
    options.max_rate = request.max_joint_speed;
    RateLimiter<double> limiter(model.nq(), options);
    int limited = 0;
    for (Eigen::Index k = 0; k < frames; ++k) {
      const double dt = k == 0 ? 1.0 : mapped.time[static_cast<std::size_t>(k)] - mapped.time[static_cast<std::size_t>(k - 1)];
      // A repeated time stamp (dt = 0) keeps the previous output: no motion in no time.
      const Status status = dt > 0 ? limiter.update(mapped.q.row(k).transpose(), dt) : Status();
      limited += status.has(StatusCode::kRateLimited) ? 1 : 0;
      mapped.q.row(k) = limiter.value().transpose();
    }
    filters += ", rate limited in " + std::to_string(limited) + " frames (" + fixed(request.max_joint_speed, 3) +
               " rad/s)";
  }
  if (request.max_hand_speed > 0) filters += applyHandSpeedLimit(request, model, mapped);
  JointTrajectory trajectory = makeJointTrajectory(model);
  trajectory.positions = mapped.q;
  trajectory.times = mapped.time;
  writeJointTrajectoryCsv(trajectory, request.output_path);
  std::cerr << "retarget: " << label << ": " << frames << " frames -> " << request.output_path << "; clamped in "
            << mapped.clamped_frames << ", held (degenerate input) in " << mapped.held_frames << ", invalid input in "
            << mapped.invalid_frames << ", discontinuity in " << mapped.frames(StatusCode::kDiscontinuity) << " frames"
            << filters << "\n";
  // Per joint: how often and how far the mapper could not give what the human showed.
  for (int i = 0; i < model.nq(); ++i) {
    if (mapped.clamped_count[i] == 0 && mapped.held_count[i] == 0) continue;
    std::cerr << "  " << model.qName(i) << ": clamped in " << mapped.clamped_count[i] << " frames (worst "
              << fixed(mapped.clamped_worst[i], 3) << " rad), held in " << mapped.held_count[i] << " frames\n";
  }
  if (request.json) std::cout << mapSummaryJson(model, mapped, label, request.output_path) << "\n";
}

std::string mapSummaryJson(const RobotModel<double>& model, const MappedMotion<double>& mapped,
                           const std::string& label, const std::string& output_path) {
  nlohmann::ordered_json joints = nlohmann::ordered_json::object();
  for (int i = 0; i < model.nq(); ++i) {
    joints[model.qName(i)] = {{"clamped_frames", mapped.clamped_count[i]},
                              {"clamped_worst", mapped.clamped_worst[i]},
                              {"held_frames", mapped.held_count[i]}};
  }
  nlohmann::ordered_json out;
  out["method"] = label;
  out["output"] = output_path;
  out["frames"] = mapped.size();
  out["clamped_frames"] = mapped.clamped_frames;
  out["held_frames"] = mapped.held_frames;
  out["invalid_frames"] = mapped.invalid_frames;
  out["discontinuity_frames"] = mapped.frames(StatusCode::kDiscontinuity);
  out["joints"] = joints;
  return out.dump(2);
}

}  // namespace retarget::cli
