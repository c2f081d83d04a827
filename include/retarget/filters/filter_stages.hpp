#pragma once

/// @file
/// The filter stages after a mapper, the one post-mapper pipeline every front end runs: per
/// frame, exponential smoothing of the mapped angles (the target), then a speed limit from the
/// previous output (the candidate): the Cartesian speed limiter when points are watched (it keeps
/// the joint limit too), else the joint rate limiter. `FilterStages` is the per-frame object
/// (real time: no allocation, no exception); `applyFilterStages` runs it over a whole motion
/// (`retarget map --smooth --max-joint-speed --max-hand-speed`, Python's `apply_filters`); the
/// safety pipeline (safety/safety_pipeline.hpp) runs the same stages and then collision
/// avoidance within the same limits, continuing the limits from its own output.
///
/// Time: a frame `dt` seconds after the previous one (> 0 and finite); the first frame after
/// construction or `reset()` passes unlimited. A frame whose time does not advance (a repeated
/// time stamp) is no motion in no time: it changes nothing (neither the smoothing nor the limit
/// state) and keeps the previous output.

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Options of the filter stages (a validated aggregate; 0 turns a stage off).
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
    RETARGET_THROW_UNLESS(std::isfinite(smoothing) && smoothing >= 0.0 && smoothing <= 1.0, InvalidArgument,
                          "FilterStagesOptions::smoothing (got ", smoothing, ", expected a value in [0, 1]; 0 = off)");
    RETARGET_THROW_UNLESS(std::isfinite(max_joint_speed) && max_joint_speed >= 0.0, InvalidArgument,
                          "FilterStagesOptions::max_joint_speed (got ", max_joint_speed, ", expected >= 0; 0 = off)");
    RETARGET_THROW_UNLESS(std::isfinite(max_point_speed) && max_point_speed >= 0.0, InvalidArgument,
                          "FilterStagesOptions::max_point_speed (got ", max_point_speed,
                          ", expected >= 0 m/s; 0 = off)");
    RETARGET_THROW_UNLESS(max_point_speed == 0.0 || !points.empty(), InvalidArgument,
                          "FilterStagesOptions::points (got none, expected the points max_point_speed limits)");
  }
};

/// The filter stages, frame by frame (see the file doc). Keeps a reference to the model, which
/// must outlive it. One per stream.
class FilterStages {
 public:
  /// Throws InvalidArgument for invalid options or a point on an unknown link.
  FilterStages(const RobotModel<double>& model, FilterStagesOptions options)
      : options_((options.validate(), std::move(options))),
        smoothing_(model.nq(), ExponentialSmoothingOptions{options_.smoothing > 0 ? options_.smoothing : 1.0}),
        target_(model.neutralConfiguration()),
        value_(target_) {
    if (options_.max_point_speed > 0) {
      CartesianSpeedLimiterOptions limiter;
      limiter.max_speed = options_.max_point_speed;
      limiter.points = options_.points;
      limiter.max_joint_speed = options_.max_joint_speed;
      cartesian_.emplace(model, std::move(limiter));
    } else if (options_.max_joint_speed > 0) {
      RateLimiterOptions limiter;
      limiter.max_rate = options_.max_joint_speed;
      joint_.emplace(model.nq(), limiter);
    }
  }
  FilterStages(const RobotModel<double>&&, FilterStagesOptions) = delete;

  /// One frame of mapped angles `q_mapped` (size nq, rad), `dt` seconds after the previous one
  /// (ignored on the first). kRateLimited when a limit moved the step; kInvalidInput (nothing
  /// changed) for a wrong size, non-finite angles, or a time that does not advance.
  [[nodiscard]] Status update(const Eigen::Ref<const Eigen::VectorXd>& q_mapped, double dt) noexcept {
    if (q_mapped.size() != target_.size() || !q_mapped.allFinite() || (started_ && !(dt > 0 && std::isfinite(dt)))) {
      return StatusCode::kInvalidInput;
    }
    if (options_.smoothing > 0) {
      (void)smoothing_.update(q_mapped);
      target_ = smoothing_.value();  // same size: no allocation
    } else {
      target_ = q_mapped;
    }
    const double step_time = started_ ? dt : 1.0;  // the first sample passes any limiter unlimited
    started_ = true;
    if (cartesian_) {
      const Status status = cartesian_->update(target_, step_time);
      value_ = cartesian_->value();
      return status;
    }
    if (joint_) {
      const Status status = joint_->update(target_, step_time);
      value_ = joint_->value();
      return status;
    }
    value_ = target_;
    return Status();
  }

  /// The smoothed angles of the last frame (rad): what the limits step towards.
  const Eigen::VectorXd& target() const noexcept { return target_; }
  /// The output of the last frame (rad): the target after the speed limit.
  const Eigen::VectorXd& value() const noexcept { return value_; }
  /// True when a speed limit is on.
  bool limited() const noexcept { return cartesian_.has_value() || joint_.has_value(); }
  const FilterStagesOptions& options() const noexcept { return options_; }

  /// Continues from `q` (size nq, rad) as if it had been the last output: the next step is
  /// limited from it (a later stage changed the output: the safety pipeline's avoidance).
  void continueFrom(const Eigen::Ref<const Eigen::VectorXd>& q) noexcept {
    if (q.size() != value_.size()) return;
    value_ = q;
    if (cartesian_) cartesian_->continueFrom(value_);
    if (joint_) joint_->continueFrom(value_);
  }

  /// Forgets the stream: the next frame passes unlimited, the smoothing starts again.
  void reset() noexcept {
    started_ = false;
    smoothing_.reset();
    if (cartesian_) cartesian_->reset();
    if (joint_) joint_->reset();
  }

 private:
  FilterStagesOptions options_;
  ExponentialSmoothing<double> smoothing_;
  std::optional<CartesianSpeedLimiter<double>> cartesian_;
  std::optional<RateLimiter<double>> joint_;
  Eigen::VectorXd target_, value_;
  bool started_ = false;
};

/// Runs the stages over `q` (frames x nq, robot q order) in place; `time` (s) has one entry per
/// row (a repeated time stamp keeps the previous row: see the file doc). Returns each frame's
/// status (kRateLimited where a limit acted). For batch use: allocates. Throws InvalidArgument
/// for bad options or sizes.
inline std::vector<Status> applyFilterStages(const RobotModel<double>& model, Eigen::MatrixXd& q,
                                             const std::vector<double>& time, const FilterStagesOptions& options) {
  const Eigen::Index frames = q.rows();
  RETARGET_THROW_UNLESS(q.cols() == model.nq() && static_cast<Eigen::Index>(time.size()) == frames, InvalidArgument,
                        "q is ", q.rows(), " x ", q.cols(), " with ", time.size(), " times, expected frames x ",
                        model.nq(), " and one time per frame");
  FilterStages stages(model, options);
  std::vector<Status> statuses(static_cast<std::size_t>(frames));
  for (Eigen::Index k = 0; k < frames; ++k) {
    const double dt = k == 0 ? 1.0 : time[static_cast<std::size_t>(k)] - time[static_cast<std::size_t>(k - 1)];
    if (dt > 0) {
      statuses[static_cast<std::size_t>(k)] = stages.update(q.row(k).transpose(), dt);
      q.row(k) = stages.value().transpose();
    } else if (k > 0) {
      q.row(k) = q.row(k - 1);
    }
  }
  return statuses;
}

}  // namespace retarget
