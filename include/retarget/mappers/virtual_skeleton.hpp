#pragma once

/// @file
/// The inverse view of GA-LVVJ: a robot configuration -> the robot's own virtual skeleton as a
/// canonical `SkeletonFrame`, by forward kinematics and the virtual-skeleton points of a
/// `GaLvvjMap`. Used for round trips (robot angles -> skeleton -> GA-LVVJ -> same angles), for
/// the similarity metrics (the robot's link vectors) and by `retarget synth`.

#include <cmath>
#include <vector>

#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>

namespace retarget {

/// Robot configuration -> virtual skeleton frame (description + workspace in one object).
///
/// Positions are metres in the robot's world frame W, which is the model root frame placed at
/// `setBasePose` (identity by default: for NAO, W is the torso frame, x forward, y left, z up,
/// the canonical frame). Points the map defines are `kTracked`; the others `kNotTracked`. Hand
/// states are read from the bound hand joints (open when at or above the midpoint of the
/// binding's canonical 0..1 range). `head` is filled with the robot's HeadYaw / HeadPitch
/// (canonical values) when both are bound, so a round trip through GA-LVVJ uses them as a face
/// tracker's output would be used. Not thread-safe (one workspace); copy it per thread.
template <typename Scalar = double>
class VirtualSkeleton {
 public:
  /// Resolves `map` against `model` (throws InvalidArgument as `resolveVirtualSkeleton` and
  /// `resolveGaLvvjBindings` do). Keeps a reference to `model`: it must outlive this object.
  VirtualSkeleton(const RobotModel<Scalar>& model, const GaLvvjMap& map)
      : model_(&model),
        data_(model),
        bindings_(resolveGaLvvjBindings(map, model)),
        points_(resolveVirtualSkeleton(map, model)) {}

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  VirtualSkeleton(const RobotModel<Scalar>&&, const GaLvvjMap&) = delete;

  /// Pose of the model's root link in W (m, rad); the default is the identity.
  void setBasePose(const Isometry3<Scalar>& X_WB) { data_.X_WB = X_WB; }

  /// Fills `out` (positions, states, hands, head; `time` is left unchanged) for configuration
  /// `q` (size nq, rad). Never allocates or throws. Returns kInvalidInput (and leaves `out`
  /// unchanged) when q has the wrong size or a non-finite entry.
  Status compute(const Eigen::Ref<const VectorX<Scalar>>& q, SkeletonFrame<Scalar>& out) {
    if (q.size() != model_->nq() || !q.allFinite()) return StatusCode::kInvalidInput;
    forwardKinematics(*model_, data_, q);
    out.state.fill(TrackingState::kNotTracked);
    out.has_orientations = false;
    for (const auto& point : points_) {
      const Isometry3<Scalar>& X_WL = data_.X_WL[static_cast<std::size_t>(point.link)];
      const Vector3<Scalar> v_L = point.v_L.template cast<Scalar>();
      Vector3<Scalar> p_W;
      if (point.from < 0) {
        p_W = X_WL * v_L;
      } else {
        p_W = out.p_W[static_cast<std::size_t>(point.from)] + X_WL.linear() * v_L;
      }
      out.p_W[static_cast<std::size_t>(point.joint)] = p_W;
      out.state[static_cast<std::size_t>(point.joint)] = TrackingState::kTracked;
    }
    out.left_hand = handState(q, GaLvvjJoint::kLHand);
    out.right_hand = handState(q, GaLvvjJoint::kRHand);
    const auto& yaw = binding(GaLvvjJoint::kHeadYaw);
    const auto& pitch = binding(GaLvvjJoint::kHeadPitch);
    if (yaw.q >= 0 && pitch.q >= 0) {
      out.head = HeadAngles<Scalar>{canonical(q, yaw), canonical(q, pitch)};
    } else {
      out.head.reset();
    }
    return Status{};
  }

  /// The model this skeleton belongs to.
  const RobotModel<Scalar>& model() const { return *model_; }
  /// Workspace of the last `compute` (link poses after FK).
  const RobotData<Scalar>& data() const { return data_; }

 private:
  const internal::ResolvedBinding& binding(GaLvvjJoint j) const { return bindings_[static_cast<std::size_t>(j)]; }
  static Scalar canonical(const Eigen::Ref<const VectorX<Scalar>>& q, const internal::ResolvedBinding& b) {
    return (q[b.q] - static_cast<Scalar>(b.offset)) / static_cast<Scalar>(b.sign);
  }
  HandState handState(const Eigen::Ref<const VectorX<Scalar>>& q, GaLvvjJoint j) const {
    const auto& b = binding(j);
    if (b.q < 0) return HandState::kUnknown;
    return canonical(q, b) >= Scalar(0.5) ? HandState::kOpen : HandState::kClosed;
  }

  const RobotModel<Scalar>* model_;
  RobotData<Scalar> data_;
  std::array<internal::ResolvedBinding, kGaLvvjJointCount> bindings_;
  std::vector<internal::ResolvedVirtualPoint> points_;
};

}  // namespace retarget
