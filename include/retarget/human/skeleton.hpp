#pragma once

/// @file
/// The canonical human skeleton: 25 core joints with the Kinect v2 SDK names and order, and
/// one skeleton frame (positions, optional orientations, tracking states, hand states, optional
/// head yaw/pitch) in the canonical frame: metres, x forward, y left, z up (REP 103).
///
/// Every source (Kinect, BVH, NTU, MediaPipe, ...) converts into this frame once, when it is
/// read; everything downstream (mappers, metrics) sees only canonical frames.

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include <retarget/core/compilation.hpp>
#include <retarget/core/types.hpp>

namespace retarget {

/// Core joints of the canonical skeleton, in Kinect v2 `JointType` order (0-based).
enum class HumanJoint : std::uint8_t {
  kSpineBase = 0,
  kSpineMid,
  kNeck,
  kHead,
  kShoulderLeft,
  kElbowLeft,
  kWristLeft,
  kHandLeft,
  kShoulderRight,
  kElbowRight,
  kWristRight,
  kHandRight,
  kHipLeft,
  kKneeLeft,
  kAnkleLeft,
  kFootLeft,
  kHipRight,
  kKneeRight,
  kAnkleRight,
  kFootRight,
  kSpineShoulder,
  kHandTipLeft,
  kThumbLeft,
  kHandTipRight,
  kThumbRight,
};

/// Number of core joints (25).
inline constexpr int kHumanJointCount = 25;

/// Kinect v2 SDK names of the core joints, indexed by `HumanJoint`.
inline constexpr std::array<std::string_view, kHumanJointCount> kHumanJointNames = {
    "SpineBase",    "SpineMid",   "Neck",       "Head",          "ShoulderLeft", "ElbowLeft",  "WristLeft",
    "HandLeft",     "ShoulderRight", "ElbowRight", "WristRight", "HandRight",    "HipLeft",    "KneeLeft",
    "AnkleLeft",    "FootLeft",   "HipRight",   "KneeRight",     "AnkleRight",   "FootRight",  "SpineShoulder",
    "HandTipLeft",  "ThumbLeft",  "HandTipRight", "ThumbRight"};

/// Index of a joint in per-joint arrays.
constexpr int index(HumanJoint joint) { return static_cast<int>(joint); }

/// SDK name of a core joint.
constexpr std::string_view name(HumanJoint joint) { return kHumanJointNames[static_cast<std::size_t>(joint)]; }

/// Core joint with the given SDK name (exact, case-sensitive), if any.
RETARGET_DECL std::optional<HumanJoint> humanJointFromName(std::string_view joint_name);

/// The mirror image of a joint (left <-> right; centre joints map to themselves).
constexpr HumanJoint mirrored(HumanJoint joint) {
  switch (joint) {
    case HumanJoint::kShoulderLeft: return HumanJoint::kShoulderRight;
    case HumanJoint::kElbowLeft: return HumanJoint::kElbowRight;
    case HumanJoint::kWristLeft: return HumanJoint::kWristRight;
    case HumanJoint::kHandLeft: return HumanJoint::kHandRight;
    case HumanJoint::kHipLeft: return HumanJoint::kHipRight;
    case HumanJoint::kKneeLeft: return HumanJoint::kKneeRight;
    case HumanJoint::kAnkleLeft: return HumanJoint::kAnkleRight;
    case HumanJoint::kFootLeft: return HumanJoint::kFootRight;
    case HumanJoint::kHandTipLeft: return HumanJoint::kHandTipRight;
    case HumanJoint::kThumbLeft: return HumanJoint::kThumbRight;
    case HumanJoint::kShoulderRight: return HumanJoint::kShoulderLeft;
    case HumanJoint::kElbowRight: return HumanJoint::kElbowLeft;
    case HumanJoint::kWristRight: return HumanJoint::kWristLeft;
    case HumanJoint::kHandRight: return HumanJoint::kHandLeft;
    case HumanJoint::kHipRight: return HumanJoint::kHipLeft;
    case HumanJoint::kKneeRight: return HumanJoint::kKneeLeft;
    case HumanJoint::kAnkleRight: return HumanJoint::kAnkleLeft;
    case HumanJoint::kFootRight: return HumanJoint::kFootLeft;
    case HumanJoint::kHandTipRight: return HumanJoint::kHandTipLeft;
    case HumanJoint::kThumbRight: return HumanJoint::kThumbLeft;
    default: return joint;
  }
}

/// How well a joint was observed in a frame (Kinect v2 semantics and numeric values).
enum class TrackingState : std::uint8_t {
  kNotTracked = 0,  ///< No measurement; the position is meaningless.
  kInferred = 1,    ///< Estimated by the source (occluded); usable with care.
  kTracked = 2,     ///< Measured.
};

/// State of a hand as reported by the source (Kinect v2 `HandState` subset).
enum class HandState : std::uint8_t { kUnknown = 0, kOpen = 1, kClosed = 2 };

/// Head orientation from an external face tracker: yaw about z (left positive) and pitch about
/// y (down positive), rad, relative to the torso (seed 000 Section 3.3).
template <typename Scalar = double>
struct HeadAngles {
  Scalar yaw = Scalar(0);
  Scalar pitch = Scalar(0);
};

/// One frame of the canonical skeleton. Fixed-size: copying and filling it never allocates.
///
/// Positions p_W are metres in the canonical world frame W (x forward, y left, z up).
/// Orientations R_WJ (when `has_orientations`) are each joint's frame in W, with the source's
/// own joint-frame convention preserved. A joint whose state is kNotTracked has an unspecified
/// position and must not be used.
template <typename Scalar = double>
struct SkeletonFrame {
  /// Seconds since the start of the motion.
  Scalar time = Scalar(0);
  std::array<Vector3<Scalar>, kHumanJointCount> p_W{};
  std::array<Quaternion<Scalar>, kHumanJointCount> R_WJ{};
  std::array<TrackingState, kHumanJointCount> state{};
  bool has_orientations = false;
  HandState left_hand = HandState::kUnknown;
  HandState right_hand = HandState::kUnknown;
  std::optional<HeadAngles<Scalar>> head{};

  SkeletonFrame() {
    for (auto& p : p_W) p.setZero();
    for (auto& R : R_WJ) R.setIdentity();
    state.fill(TrackingState::kNotTracked);
  }

  /// Position of a joint (m, frame W).
  Vector3<Scalar>& position(HumanJoint joint) { return p_W[static_cast<std::size_t>(joint)]; }
  const Vector3<Scalar>& position(HumanJoint joint) const { return p_W[static_cast<std::size_t>(joint)]; }
  /// Tracking state of a joint.
  TrackingState& trackingState(HumanJoint joint) { return state[static_cast<std::size_t>(joint)]; }
  TrackingState trackingState(HumanJoint joint) const { return state[static_cast<std::size_t>(joint)]; }
  /// True when the joint has a usable (tracked or inferred) and finite position.
  bool usable(HumanJoint joint) const {
    return trackingState(joint) != TrackingState::kNotTracked && position(joint).allFinite();
  }
};

using SkeletonFramed = SkeletonFrame<double>;

/// The mean length of the two legs of `f`, each hip to knee plus knee to ankle (m); nullopt when
/// a point of either leg is not usable. What a robot / human length ratio compares.
template <typename Scalar>
std::optional<Scalar> legLength(const SkeletonFrame<Scalar>& f) {
  using J = HumanJoint;
  for (J j : {J::kHipLeft, J::kKneeLeft, J::kAnkleLeft, J::kHipRight, J::kKneeRight, J::kAnkleRight}) {
    if (!f.usable(j)) return std::nullopt;
  }
  return Scalar(0.5) * ((f.position(J::kHipLeft) - f.position(J::kKneeLeft)).norm() +
                        (f.position(J::kKneeLeft) - f.position(J::kAnkleLeft)).norm() +
                        (f.position(J::kHipRight) - f.position(J::kKneeRight)).norm() +
                        (f.position(J::kKneeRight) - f.position(J::kAnkleRight)).norm());
}

/// What mappers and metrics do with joints the source only inferred (Kinect's
/// `TrackingState::kInferred`: occluded, estimated). Depth cameras infer occluded legs and
/// arms with errors of decimetres (in a close-range Kinect recording, knees and ankles are
/// inferred in 90-98 % of frames and give hip rolls of -166 deg), so the default is kHold.
enum class InferredJoints : std::uint8_t {
  /// Treat inferred joints as not tracked: what depends on them holds its last good value
  /// (mappers, reported as held) or is left out (metrics).
  kHold = 0,
  /// Use inferred joints like tracked ones (the paper's behaviour).
  kUse = 1,
};

/// Whether applyInferredPolicy(frame, policy) changes `frame` (kHold and a joint inferred), so
/// that a per-frame path copies the frame only then. Never allocates or throws.
template <typename Scalar>
bool changedByInferredPolicy(const SkeletonFrame<Scalar>& frame, InferredJoints policy) noexcept {
  return policy == InferredJoints::kHold &&
         std::find(frame.state.begin(), frame.state.end(), TrackingState::kInferred) != frame.state.end();
}

/// `frame` with its inferred joints marked not tracked when `policy` is kHold; unchanged for
/// kUse. Never allocates or throws.
template <typename Scalar>
void applyInferredPolicy(SkeletonFrame<Scalar>& frame, InferredJoints policy) noexcept {
  if (!changedByInferredPolicy(frame, policy)) return;
  for (auto& state : frame.state) {
    if (state == TrackingState::kInferred) state = TrackingState::kNotTracked;
  }
}

#if RETARGET_DEFINE_HUMAN

RETARGET_DECL std::optional<HumanJoint> humanJointFromName(std::string_view joint_name) {
  for (int i = 0; i < kHumanJointCount; ++i) {
    if (kHumanJointNames[static_cast<std::size_t>(i)] == joint_name) return static_cast<HumanJoint>(i);
  }
  return std::nullopt;
}

#endif  // RETARGET_DEFINE_HUMAN

}  // namespace retarget
