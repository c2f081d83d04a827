#pragma once

/// @file
/// Cartesian speed limit on robot points (seed 001, Section 3, real-robot paragraph: the
/// manipulator kept under 250 mm/s, ISO/TS 15066 as the paper uses it). A filter composed after
/// any mapper (and after collision avoidance): each joint step q_prev -> q_target is scaled,
/// q = q_prev + s (q_target - q_prev) with the largest s in [0, 1] (to 1e-9 by bisection) such
/// that every limited point moves at most max_speed * dt between the two forward-kinematics
/// positions. The joint-velocity filter of the same paragraph (1 rad/s, "sensor noise") is
/// `RateLimiter` (rate_limiter.hpp) on its own, or `max_joint_speed` here when both limits must
/// hold on one output (each joint step is first clamped to max_joint_speed * dt, then the
/// whole step scaled, which keeps the joint bound).
///
/// Real-time: `update()` never allocates or throws (about 40 forward kinematics per limited
/// frame, one per unlimited frame).

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/link_point.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Options of `CartesianSpeedLimiter` (validated aggregate).
struct CartesianSpeedLimiterOptions {
  /// Largest speed of any limited point (m/s, > 0); 0.25 = the seed's 250 mm/s.
  double max_speed = 0.25;
  /// The limited points (hands, elbows, ...), at least one.
  std::vector<LinkPoint> points{};
  /// Joint-velocity limit applied first, elementwise (rad/s, >= 0; 0 = off): the seed's 1 rad/s
  /// "sensor noise" threshold. Given here so that both limits hold on the final output (a
  /// `RateLimiter` before this filter tracks its own output, which this filter may hold back).
  double max_joint_speed = 0.0;

  RETARGET_DECL void validate() const;
};

/// Cartesian speed limiter (see the file doc). Keeps a reference to the model.
template <typename Scalar = double>
class CartesianSpeedLimiter {
 public:
  /// Throws InvalidArgument for invalid options or an unknown link.
  CartesianSpeedLimiter(const RobotModel<Scalar>& model, CartesianSpeedLimiterOptions options);
  CartesianSpeedLimiter(const RobotModel<Scalar>&&, CartesianSpeedLimiterOptions) = delete;

  /// Limits the step to `q` (size nq, rad) taken over `dt` (s, > 0). The first call after
  /// construction or `reset()` passes through. kRateLimited when the step was scaled;
  /// kInvalidInput (value kept) for a wrong size, non-finite q or dt <= 0.
  template <typename Derived>
  Status update(const Eigen::MatrixBase<Derived>& q, Scalar dt) noexcept;

  /// The last output (rad, size nq).
  const VectorX<Scalar>& value() const noexcept { return value_; }
  /// Forgets the previous frame.
  void reset() noexcept { started_ = false; }
  /// Continues from `q` (size nq, rad) as if it had been the last output: the next step is
  /// limited from it. For a later stage that changed the output (safety/safety_pipeline.hpp).
  template <typename Derived>
  void continueFrom(const Eigen::MatrixBase<Derived>& q) noexcept {
    value_ = q;
    storePoints(value_);
    started_ = true;
  }
  const CartesianSpeedLimiterOptions& options() const noexcept { return options_; }

 private:
  void storePoints(const VectorX<Scalar>& q);
  // True when the configuration previous_ + s (target_ - previous_) keeps every point within step.
  bool within(Scalar s, Scalar step);

  const RobotModel<Scalar>* model_;
  CartesianSpeedLimiterOptions options_;
  RobotData<Scalar> data_;
  std::vector<int> links_;
  std::vector<Vector3<Scalar>> p_L_, previous_points_;
  VectorX<Scalar> value_, previous_, candidate_, target_;
  bool started_ = false;
};

template <typename Scalar>
CartesianSpeedLimiter<Scalar>::CartesianSpeedLimiter(const RobotModel<Scalar>& model,
                                                     CartesianSpeedLimiterOptions options)
    : model_(&model), options_(std::move(options)), data_(model) {
  options_.validate();
  for (const auto& p : options_.points) {
    links_.push_back(model.linkIndex(p.link));
    p_L_.push_back(p.p_L.cast<Scalar>());
  }
  previous_points_.resize(links_.size());
  value_ = model.neutralConfiguration();
  candidate_ = value_;
  target_ = value_;
  previous_ = value_;
}

template <typename Scalar>
template <typename Derived>
Status CartesianSpeedLimiter<Scalar>::update(const Eigen::MatrixBase<Derived>& q, Scalar dt) noexcept {
  if (q.size() != model_->nq() || !q.allFinite() || !(dt > Scalar(0)) || !std::isfinite(dt)) {
    return StatusCode::kInvalidInput;
  }
  if (!started_) {
    value_ = q;
    storePoints(value_);
    started_ = true;
    return Status{};
  }
  target_ = q;
  Status status;
  if (options_.max_joint_speed > 0) {
    const Scalar max_step = static_cast<Scalar>(options_.max_joint_speed) * dt;
    for (Eigen::Index i = 0; i < target_.size(); ++i) {
      const Scalar d = std::min(std::max(target_[i] - previous_[i], -max_step), max_step);
      if (d != target_[i] - previous_[i]) status |= StatusCode::kRateLimited;
      target_[i] = previous_[i] + d;
    }
  }
  const Scalar step = static_cast<Scalar>(options_.max_speed) * dt;
  if (within(Scalar(1), step)) {
    value_ = target_;
    storePoints(value_);
    return status;
  }
  Scalar lo = Scalar(0), hi = Scalar(1);
  for (int i = 0; i < 40 && hi - lo > Scalar(1e-9); ++i) {
    const Scalar mid = Scalar(0.5) * (lo + hi);
    (within(mid, step) ? lo : hi) = mid;
  }
  value_ = previous_ + lo * (target_ - previous_);
  storePoints(value_);
  return StatusCode::kRateLimited;
}

template <typename Scalar>
void CartesianSpeedLimiter<Scalar>::storePoints(const VectorX<Scalar>& q) {
  forwardKinematics(*model_, data_, q);
  for (std::size_t i = 0; i < links_.size(); ++i) previous_points_[i] = data_.X_WL[static_cast<std::size_t>(links_[i])] * p_L_[i];
  previous_ = q;
}

template <typename Scalar>
bool CartesianSpeedLimiter<Scalar>::within(Scalar s, Scalar step) {
  candidate_ = previous_ + s * (target_ - previous_);
  forwardKinematics(*model_, data_, candidate_);
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const Vector3<Scalar> p = data_.X_WL[static_cast<std::size_t>(links_[i])] * p_L_[i];
    if ((p - previous_points_[i]).norm() > step) return false;
  }
  return true;
}

#if RETARGET_DEFINE_FILTERS

RETARGET_DECL void CartesianSpeedLimiterOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(max_speed) && max_speed > 0, InvalidArgument,
                        "CartesianSpeedLimiterOptions::max_speed (got ", max_speed, ", expected > 0 m/s)");
  RETARGET_THROW_UNLESS(!points.empty(), InvalidArgument,
                        "CartesianSpeedLimiterOptions::points (got none, expected at least one limited point)");
  RETARGET_THROW_UNLESS(std::isfinite(max_joint_speed) && max_joint_speed >= 0, InvalidArgument,
                        "CartesianSpeedLimiterOptions::max_joint_speed (got ", max_joint_speed,
                        ", expected >= 0 rad/s)");
  for (std::size_t i = 0; i < points.size(); ++i) {
    RETARGET_THROW_UNLESS(points[i].p_L.allFinite(), InvalidArgument, "CartesianSpeedLimiterOptions::points[", i,
                          "].p_L (got a non-finite vector)");
  }
}

#endif  // RETARGET_DEFINE_FILTERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_FILTERS class CartesianSpeedLimiter<double>;
RETARGET_TEMPLATE_FILTERS class CartesianSpeedLimiter<float>;
#endif

}  // namespace retarget
