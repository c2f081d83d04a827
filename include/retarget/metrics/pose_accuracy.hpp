#pragma once

/// @file
/// Pose similarity and pose accuracy Pacc (seed 004, Section IV-B, Eq. 4).
///
/// Pose similarity of one arm (after Harada et al., the paper's [11]): the angle (rad, in
/// [0, pi]) between the human's shoulder->wrist direction and the robot's shoulder->wrist
/// direction, both given in one frame (for PIC: the robot base frame, the human placed there by
/// `ArmPlacement`). Per frame the pose-angle error is the mean over the arms of the squared
/// angles (rad^2); Eq. 4 counts a frame as accurate when that mean squared error is below the
/// threshold epsilon:
///   Pacc = (1/N) sum_k [ mean_arms (theta_h,k - theta_r,k)^2 < epsilon ].
/// The extracted paper text lost epsilon's value; our default is (15 deg)^2 (documented in
/// docs/methods/pic.md, an option). Frames in which no arm has both directions are not counted.
/// Never allocates or throws per frame.

#include <algorithm>
#include <cmath>
#include <optional>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>

namespace retarget {

/// Options of the pose accuracy (a validated aggregate).
struct PoseAccuracyOptions {
  /// epsilon of Eq. 4 (rad^2, > 0): a frame is accurate when its mean squared pose-angle error
  /// is below it. Default (15 deg)^2 = 0.0685 rad^2.
  double threshold = (15.0 * 3.14159265358979323846 / 180.0) * (15.0 * 3.14159265358979323846 / 180.0);

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// Angle (rad, [0, pi]) between the directions shoulder->wrist of a human arm (p_S_h, p_W_h)
/// and a robot arm (p_S_r, p_W_r), all in one frame (m). Nullopt when a direction is shorter
/// than 1e-9 m or not finite.
template <typename Scalar>
std::optional<Scalar> poseAngle(const Vector3<Scalar>& p_S_h, const Vector3<Scalar>& p_W_h, const Vector3<Scalar>& p_S_r,
                                const Vector3<Scalar>& p_W_r) noexcept {
  const Vector3<Scalar> h = p_W_h - p_S_h, r = p_W_r - p_S_r;
  const Scalar nh = h.norm(), nr = r.norm();
  if (!std::isfinite(nh) || !std::isfinite(nr) || !(nh > kDegenerateEpsilon<Scalar>) || !(nr > kDegenerateEpsilon<Scalar>)) {
    return std::nullopt;
  }
  return std::atan2(h.cross(r).norm(), h.dot(r));
}

/// Streaming Pacc (Eq. 4): feed each frame's per-arm pose angles, read `value()`.
class PoseAccuracy {
 public:
  explicit PoseAccuracy(PoseAccuracyOptions options = {}) : options_((options.validate(), options)) {}

  /// Adds a frame with up to two arm angles (rad; nullopt = arm not available). Returns the
  /// frame's mean squared error (rad^2), or nullopt when no angle was given (not counted).
  RETARGET_DECL std::optional<double> add(std::optional<double> left, std::optional<double> right) noexcept;
  /// Pacc in [0, 1] (0 before any counted frame).
  double value() const noexcept { return frames_ > 0 ? static_cast<double>(accurate_) / frames_ : 0.0; }
  /// Counted frames and accurate frames.
  int frames() const noexcept { return frames_; }
  int accurate() const noexcept { return accurate_; }
  /// Mean and largest root-mean-square pose-angle error per frame (rad).
  double meanError() const noexcept { return frames_ > 0 ? error_sum_ / frames_ : 0.0; }
  double worstError() const noexcept { return worst_; }
  const PoseAccuracyOptions& options() const noexcept { return options_; }

 private:
  PoseAccuracyOptions options_;
  int frames_ = 0;
  int accurate_ = 0;
  double error_sum_ = 0;
  double worst_ = 0;
};

#if RETARGET_DEFINE_METRICS

RETARGET_DECL void PoseAccuracyOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(threshold) && threshold > 0.0, InvalidArgument,
                        "PoseAccuracyOptions::threshold (got ", threshold, ", expected a finite value > 0 rad^2)");
}

RETARGET_DECL std::optional<double> PoseAccuracy::add(std::optional<double> left,
                                                      std::optional<double> right) noexcept {
  double sum = 0;
  int n = 0;
  for (const auto& a : {left, right}) {
    if (a && std::isfinite(*a)) {
      sum += *a * *a;
      ++n;
    }
  }
  if (n == 0) return std::nullopt;
  const double mse = sum / n;
  ++frames_;
  accurate_ += mse < options_.threshold ? 1 : 0;
  error_sum_ += std::sqrt(mse);
  worst_ = std::max(worst_, std::sqrt(mse));
  return mse;
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
