#pragma once

/// @file
/// Placement of the human arms in a robot's workspace (seed 004, Section IV: "the filtered
/// signals ... multiplied by a transformation matrix, so the captured motion would match the
/// robot motion's position and scale"), reusable by any position-based mapper.
///
/// The transform is computed once, from a calibration pose: the first `calibration_frames`
/// frames in which the upper torso and at least one arm are usable (a T-pose or any neutral
/// start). It has
///  - a rotation R_BW taking canonical-frame vectors into the robot base frame B: the mean upper
///    torso frame T of the calibration frames (z along SpineMid -> SpineShoulder, y along
///    ShoulderRight -> ShoulderLeft, x forward) is taken as B's orientation, R_BW = R_WT^T;
///  - a scale per arm, s = robot arm length / human arm length, the human length being the mean
///    |shoulder - elbow| + |elbow - wrist| of that arm over the calibration frames (the other
///    arm's when one arm was never seen).
/// A placed arm point is p_B = p_BS + s R_BW (p_W - p_WS): the human arm relative to its own
/// shoulder, rotated and scaled, hung at the robot's shoulder point p_BS. Anchoring at the
/// current human shoulder (not the calibration one) keeps a person who steps or leans from
/// dragging the robot's targets (a deviation from a single fixed matrix; see docs/methods/pic.md).
/// Until the first calibration frame there is no transform (`calibrated()` is false); during
/// calibration the running means are used. Per-frame calls never allocate or throw.

#include <array>
#include <cmath>
#include <cstddef>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/torso_frames.hpp>

namespace retarget {

/// Arm sides, as array indices.
enum class ArmSide : int { kLeft = 0, kRight = 1 };

/// Shoulder, elbow and wrist of an arm side.
inline constexpr std::array<HumanJoint, 3> armJoints(ArmSide side) {
  return side == ArmSide::kLeft
             ? std::array<HumanJoint, 3>{HumanJoint::kShoulderLeft, HumanJoint::kElbowLeft, HumanJoint::kWristLeft}
             : std::array<HumanJoint, 3>{HumanJoint::kShoulderRight, HumanJoint::kElbowRight, HumanJoint::kWristRight};
}

/// Options of `ArmPlacement` (a validated aggregate).
struct ArmPlacementOptions {
  /// Frames averaged into the calibration (>= 1); the transform is frozen afterwards.
  int calibration_frames = 10;

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// The calibration-pose transform of the human arms into a robot's workspace (file doc).
template <typename Scalar = double>
class ArmPlacement {
 public:
  /// `robot_arm_length` (m, > 0, left and right): the robot's shoulder-to-wrist chain length.
  /// Throws InvalidArgument on bad options or lengths.
  ArmPlacement(ArmPlacementOptions options, Scalar left_arm_length, Scalar right_arm_length);

  /// Feeds one frame (canonical, m). While calibrating, a frame with a usable upper torso and
  /// at least one usable arm joins the calibration. Returns `calibrated()`.
  bool update(const SkeletonFrame<Scalar>& frame) noexcept;

  /// True once a calibration frame has been seen.
  bool calibrated() const noexcept { return frames_ > 0; }
  /// True once every calibration frame has been seen (the transform no longer changes).
  bool frozen() const noexcept { return frames_ >= options_.calibration_frames; }
  /// Rotation from the canonical frame W into the robot base frame B.
  const Matrix3<Scalar>& R_BW() const noexcept { return R_BW_; }
  /// Scale of an arm (robot length / human length, unitless).
  Scalar scale(ArmSide side) const noexcept { return scale_[static_cast<std::size_t>(side)]; }
  /// A human vector v_W (m, canonical) of arm `side` placed in B: s R_BW v_W.
  Vector3<Scalar> placeVector(ArmSide side, const Vector3<Scalar>& v_W) const noexcept {
    return scale(side) * (R_BW_ * v_W);
  }
  /// Forgets the calibration.
  void reset() noexcept;
  /// The options in use.
  const ArmPlacementOptions& options() const noexcept { return options_; }

 private:
  ArmPlacementOptions options_;
  std::array<Scalar, 2> robot_length_;
  int frames_ = 0;
  std::array<Scalar, 2> length_sum_{};
  std::array<int, 2> length_count_{};
  Vector3<Scalar> z_sum_ = Vector3<Scalar>::Zero();
  Vector3<Scalar> y_sum_ = Vector3<Scalar>::Zero();
  Matrix3<Scalar> R_BW_ = Matrix3<Scalar>::Identity();
  std::array<Scalar, 2> scale_{};
};

template <typename Scalar>
ArmPlacement<Scalar>::ArmPlacement(ArmPlacementOptions options, Scalar left_arm_length, Scalar right_arm_length)
    : options_((options.validate(), options)), robot_length_{left_arm_length, right_arm_length} {
  for (std::size_t s = 0; s < 2; ++s) {
    RETARGET_THROW_UNLESS(std::isfinite(static_cast<double>(robot_length_[s])) && robot_length_[s] > Scalar(0),
                          InvalidArgument, "robot arm length ", s == 0 ? "left" : "right", " (got ", robot_length_[s],
                          ", expected a finite value > 0 m)");
  }
  reset();
}

template <typename Scalar>
bool ArmPlacement<Scalar>::update(const SkeletonFrame<Scalar>& frame) noexcept {
  if (frames_ >= options_.calibration_frames) return true;
  const auto R_WT = torsoFrame(frame, HumanJoint::kSpineMid, HumanJoint::kSpineShoulder, HumanJoint::kShoulderRight,
                               HumanJoint::kShoulderLeft);
  if (!R_WT) return calibrated();
  std::array<Scalar, 2> length{};
  bool any = false;
  for (std::size_t s = 0; s < 2; ++s) {
    const auto j = armJoints(static_cast<ArmSide>(s));
    if (!frame.usable(j[0]) || !frame.usable(j[1]) || !frame.usable(j[2])) continue;
    length[s] = (frame.position(j[1]) - frame.position(j[0])).norm() +
                (frame.position(j[2]) - frame.position(j[1])).norm();
    if (!(length[s] > Scalar(1e-3)) || !std::isfinite(static_cast<double>(length[s]))) {
      length[s] = Scalar(0);
      continue;
    }
    any = true;
  }
  if (!any) return calibrated();
  for (std::size_t s = 0; s < 2; ++s) {
    if (length[s] > Scalar(0)) {
      length_sum_[s] += length[s];
      ++length_count_[s];
    }
  }
  z_sum_ += R_WT->col(2);
  y_sum_ += R_WT->col(1);
  ++frames_;
  const auto R = frameFromTwoVectors<Scalar>(z_sum_, Axis::kZ, y_sum_, Axis::kY);
  if (R) R_BW_ = R->transpose();
  for (std::size_t s = 0; s < 2; ++s) {
    const std::size_t o = 1 - s;
    const Scalar human = length_count_[s] > 0   ? length_sum_[s] / Scalar(length_count_[s])
                         : length_count_[o] > 0 ? length_sum_[o] / Scalar(length_count_[o])
                                                : Scalar(0);
    if (human > Scalar(0)) scale_[s] = robot_length_[s] / human;
  }
  return true;
}

template <typename Scalar>
void ArmPlacement<Scalar>::reset() noexcept {
  frames_ = 0;
  length_sum_ = {Scalar(0), Scalar(0)};
  length_count_ = {0, 0};
  z_sum_.setZero();
  y_sum_.setZero();
  R_BW_.setIdentity();
  scale_ = {Scalar(1), Scalar(1)};
}

#if RETARGET_DEFINE_HUMAN

RETARGET_DECL void ArmPlacementOptions::validate() const {
  RETARGET_THROW_UNLESS(calibration_frames >= 1 && calibration_frames <= 100000, InvalidArgument,
                        "ArmPlacementOptions::calibration_frames (got ", calibration_frames, ", expected 1..100000)");
}

#endif  // RETARGET_DEFINE_HUMAN

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_HUMAN class ArmPlacement<double>;
RETARGET_TEMPLATE_HUMAN class ArmPlacement<float>;
#endif

}  // namespace retarget
