#pragma once

/// @file
/// The filter stages `retarget map` runs after a mapper when no collision avoidance is asked for,
/// over a whole motion: exponential smoothing, then a speed limit, either the joint rate limiter
/// or (with points to watch) the Cartesian speed limiter, which also keeps the joint limit. Frame
/// by frame, as a live pipeline would run them; a repeated time stamp keeps the previous output
/// (no motion in no time). For batch use (the command line, the Python bindings): allocates.

#include <vector>

#include <Eigen/Core>

#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Options of `applyFilterStages` (a validated aggregate; 0 turns a stage off).
struct FilterStagesOptions {
  /// Weight of the new sample in the exponential smoothing, in [0, 1] (0: off).
  double smoothing = 0.0;
  /// Joint speed limit (rad/s or m/s per coordinate, >= 0; 0: off).
  double max_joint_speed = 0.0;
  /// Speed limit of `points` (m/s, >= 0; 0: off). Needs points.
  double max_point_speed = 0.0;
  /// Points whose speed is limited (link frames, m).
  std::vector<LinkPoint> points{};

  /// Throws InvalidArgument naming the field and value.
  void validate() const {
    RETARGET_THROW_UNLESS(smoothing >= 0.0 && smoothing <= 1.0, InvalidArgument, "FilterStagesOptions::smoothing (got ",
                          smoothing, ", expected a value in [0, 1]; 0 = off)");
    RETARGET_THROW_UNLESS(max_joint_speed >= 0.0 && max_point_speed >= 0.0, InvalidArgument,
                          "FilterStagesOptions::max_joint_speed / max_point_speed (got ", max_joint_speed, " and ",
                          max_point_speed, ", expected values >= 0; 0 = off)");
    RETARGET_THROW_UNLESS(max_point_speed == 0.0 || !points.empty(), InvalidArgument,
                          "FilterStagesOptions::points (got none, expected the points max_point_speed limits)");
  }
};

/// Runs the stages over `q` (frames x nq, robot q order) in place; `time` (s) has one entry per
/// row. Returns each frame's status (kRateLimited where a limiter acted). Throws InvalidArgument
/// for bad options or sizes.
inline std::vector<Status> applyFilterStages(const RobotModel<double>& model, Eigen::MatrixXd& q,
                                             const std::vector<double>& time, const FilterStagesOptions& options) {
  options.validate();
  const Eigen::Index frames = q.rows();
  RETARGET_THROW_UNLESS(q.cols() == model.nq() && static_cast<Eigen::Index>(time.size()) == frames, InvalidArgument,
                        "q is ", q.rows(), " x ", q.cols(), " with ", time.size(), " times, expected frames x ",
                        model.nq(), " and one time per frame");
  std::vector<Status> statuses(static_cast<std::size_t>(frames));
  if (options.smoothing > 0.0) {
    ExponentialSmoothing<double> smoothing(model.nq(), ExponentialSmoothingOptions{options.smoothing});
    for (Eigen::Index k = 0; k < frames; ++k) {
      (void)smoothing.update(q.row(k).transpose());
      q.row(k) = smoothing.value().transpose();
    }
  }
  const auto limitEveryFrame = [&](auto& limiter) {
    for (Eigen::Index k = 0; k < frames; ++k) {
      const double dt = k == 0 ? 1.0 : time[static_cast<std::size_t>(k)] - time[static_cast<std::size_t>(k - 1)];
      statuses[static_cast<std::size_t>(k)] |= dt > 0 ? limiter.update(q.row(k).transpose(), dt) : Status();
      q.row(k) = limiter.value().transpose();
    }
  };
  if (options.max_point_speed > 0.0) {  // keeps max_joint_speed on its output
    CartesianSpeedLimiterOptions limiter_options;
    limiter_options.max_speed = options.max_point_speed;
    limiter_options.points = options.points;
    limiter_options.max_joint_speed = options.max_joint_speed;
    CartesianSpeedLimiter<double> limiter(model, limiter_options);
    limitEveryFrame(limiter);
  } else if (options.max_joint_speed > 0.0) {
    RateLimiterOptions limiter_options;
    limiter_options.max_rate = options.max_joint_speed;
    RateLimiter<double> limiter(model.nq(), limiter_options);
    limitEveryFrame(limiter);
  }
  return statuses;
}

}  // namespace retarget
