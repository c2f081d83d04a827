#pragma once

/// @file
/// A robot configuration -> the robot's own virtual skeleton as a canonical `SkeletonFrame`, by
/// forward kinematics and the points of its `VirtualSkeletonMap` (robots/virtual_skeleton_map.hpp).
/// The inverse view of GA-LVVJ: used for round trips (robot angles -> skeleton -> GA-LVVJ -> same
/// angles), by the similarity metrics (the robot's link vectors), the particle filters'
/// likelihood and `retarget synth`.
///
/// Where the robot stands (`WbfBase`, the base frame of the WBF similarity, seed 000
/// Section 6.1): with kTorso the root link (NAO: torso) is placed at `setBasePose`, so the robot's
/// torso is always upright and only the joint angles are compared; with kSupportFoot the robot
/// stands on its support foot, flat on the ground as in the model's neutral configuration, and
/// the torso tilts as the legs command it (the robot of the paper's experiments, standing on
/// its feet).

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/rigid_inverse.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/link_point.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>

namespace retarget {

/// How the robot's virtual skeleton is placed in its world frame W, which the WBF similarity
/// takes as the ground reference (z up). See the file doc.
enum class WbfBase : std::uint8_t {
  /// The root link at `setBasePose` (default): the robot torso is upright whatever the legs do.
  /// The default because GA-LVVJ commands joint angles only, not the torso's pose in the
  /// world: this base measures what the mapper controls, it exists for robots without feet
  /// (Pepper) and for seated recordings, and it is the frame every earlier number was given in.
  kTorso = 0,
  /// The support foot flat on the ground (its orientation relative to the root link at the
  /// model's neutral configuration, the same heading), the root placed above it by the legs'
  /// forward kinematics; the support foot is the one above which the other foot stands higher
  /// (ties: the left). Needs the map's FootLeft and FootRight points (their links are the feet).
  kSupportFoot = 1,
};

/// Name of a WbfBase as written on the command line and in JSON: "torso", "support-foot".
inline const char* wbfBaseName(WbfBase base) noexcept { return base == WbfBase::kSupportFoot ? "support-foot" : "torso"; }

/// Robot configuration -> virtual skeleton frame (description + workspace in one object).
///
/// Positions are metres in the robot's world frame W. With WbfBase::kTorso (default) W is the
/// model root frame placed at `setBasePose` (identity by default: for NAO, W is the torso frame,
/// x forward, y left, z up, the canonical frame). With WbfBase::kSupportFoot the support foot
/// stands flat in the frame given by `setBasePose` (see WbfBase), at the place it has relative
/// to the root in the neutral configuration, so at the neutral configuration both bases agree.
/// Points the map defines are `kTracked`; the others `kNotTracked`. Hand states are read from the
/// coupled hand joints (open when at or above the midpoint of the canonical 0..1 range). `head` is
/// filled with the coupled head yaw and pitch (canonical values, rad) when both are coupled, so a
/// round trip through GA-LVVJ uses them as a face tracker's output would be used. Not thread-safe (one workspace); copy it per thread.
template <typename Scalar = double>
class VirtualSkeleton {
 public:
  /// Resolves `map` against `model` (throws InvalidArgument as `resolveVirtualSkeleton` and
  /// `resolveJointCoupling` do). Keeps a reference to `model`: it must outlive this object.
  /// With WbfBase::kSupportFoot also throws InvalidArgument when the map has no FootLeft or
  /// FootRight point (the feet are the links those points sit on).
  VirtualSkeleton(const RobotModel<Scalar>& model, const VirtualSkeletonMap& map, WbfBase base = WbfBase::kTorso);

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  VirtualSkeleton(const RobotModel<Scalar>&&, const VirtualSkeletonMap&, WbfBase = WbfBase::kTorso) = delete;

  /// kTorso: pose of the model's root link in W; kSupportFoot: pose of the ground frame (where
  /// the support foot stands) in W (m, rad). The default is the identity.
  void setBasePose(const Isometry3<Scalar>& X_WB) { X_WG_ = X_WB; }

  /// The base placement in use.
  WbfBase base() const noexcept { return base_; }
  /// With kSupportFoot: the support foot of the last `compute` (0 left, 1 right); -1 otherwise.
  int supportFoot() const noexcept { return support_foot_; }

  /// Fills `out` (positions, states, hands, head; `time` is left unchanged) for configuration
  /// `q` (size nq, rad). Never allocates or throws. Returns kInvalidInput (and leaves `out`
  /// unchanged) when q has the wrong size or a non-finite entry.
  Status compute(const Eigen::Ref<const VectorX<Scalar>>& q, SkeletonFrame<Scalar>& out);

  /// The model this skeleton belongs to.
  const RobotModel<Scalar>& model() const { return *model_; }
  /// Workspace of the last `compute` (link poses after FK).
  const RobotData<Scalar>& data() const { return data_; }

 private:
  static Scalar canonical(const Eigen::Ref<const VectorX<Scalar>>& q, const internal::ResolvedCoupling& c);
  static HandState handState(const Eigen::Ref<const VectorX<Scalar>>& q, const internal::ResolvedCoupling& c);

  // Support-foot base: forward kinematics with the root at the identity gives each foot's pose
  // X_BF in the root frame B; with foot f flat where it stands at the neutral configuration,
  // X_GB = X_BF_neutral X_BF^-1. The support foot is the one over which the other stands higher.
  void placeOnSupportFoot(const Eigen::Ref<const VectorX<Scalar>>& q);

  const RobotModel<Scalar>* model_;
  RobotData<Scalar> data_;
  internal::ResolvedCoupling head_yaw_, head_pitch_, hand_left_, hand_right_;
  std::vector<internal::ResolvedVirtualPoint> points_;
  WbfBase base_ = WbfBase::kTorso;
  Isometry3<Scalar> X_WG_ = Isometry3<Scalar>::Identity();  // setBasePose
  std::array<int, 2> foot_link_{-1, -1};                     // left, right (kSupportFoot)
  std::array<Isometry3<Scalar>, 2> X_BF_neutral_{Isometry3<Scalar>::Identity(), Isometry3<Scalar>::Identity()};
  int support_foot_ = -1;
};

template <typename Scalar>
VirtualSkeleton<Scalar>::VirtualSkeleton(const RobotModel<Scalar>& model, const VirtualSkeletonMap& map, WbfBase base)
    : model_(&model),
      data_(model),
      head_yaw_(resolveJointCoupling(map.head_yaw, model, "VirtualSkeletonMap '" + map.robot + "'", "head_yaw")),
      head_pitch_(resolveJointCoupling(map.head_pitch, model, "VirtualSkeletonMap '" + map.robot + "'", "head_pitch")),
      hand_left_(resolveJointCoupling(map.hand_left, model, "VirtualSkeletonMap '" + map.robot + "'", "hand_left")),
      hand_right_(resolveJointCoupling(map.hand_right, model, "VirtualSkeletonMap '" + map.robot + "'", "hand_right")),
      points_(resolveVirtualSkeleton(map, model)),
      base_(base) {
  if (base_ != WbfBase::kSupportFoot) return;
  for (const auto& point : points_) {
    if (point.joint == static_cast<int>(HumanJoint::kFootLeft)) foot_link_[0] = point.link;
    if (point.joint == static_cast<int>(HumanJoint::kFootRight)) foot_link_[1] = point.link;
  }
  RETARGET_THROW_UNLESS(foot_link_[0] >= 0 && foot_link_[1] >= 0, InvalidArgument, "VirtualSkeletonMap '", map.robot,
                        "' (got no FootLeft or FootRight point, expected both for the support-foot base)");
  forwardKinematics(model, data_, model.neutralConfiguration());
  for (std::size_t f = 0; f < 2; ++f) X_BF_neutral_[f] = data_.X_WL[static_cast<std::size_t>(foot_link_[f])];
}

template <typename Scalar>
Status VirtualSkeleton<Scalar>::compute(const Eigen::Ref<const VectorX<Scalar>>& q, SkeletonFrame<Scalar>& out) {
  if (q.size() != model_->nq() || !q.allFinite()) return StatusCode::kInvalidInput;
  data_.X_WB = X_WG_;
  if (base_ == WbfBase::kSupportFoot) placeOnSupportFoot(q);
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
  out.left_hand = handState(q, hand_left_);
  out.right_hand = handState(q, hand_right_);
  if (head_yaw_.q >= 0 && head_pitch_.q >= 0) {
    out.head = HeadAngles<Scalar>{canonical(q, head_yaw_), canonical(q, head_pitch_)};
  } else {
    out.head.reset();
  }
  return Status{};
}

template <typename Scalar>
Scalar VirtualSkeleton<Scalar>::canonical(const Eigen::Ref<const VectorX<Scalar>>& q,
                                          const internal::ResolvedCoupling& c) {
  return (q[c.q] - static_cast<Scalar>(c.offset)) / static_cast<Scalar>(c.sign);
}

template <typename Scalar>
HandState VirtualSkeleton<Scalar>::handState(const Eigen::Ref<const VectorX<Scalar>>& q,
                                             const internal::ResolvedCoupling& c) {
  if (c.q < 0) return HandState::kUnknown;
  return canonical(q, c) >= Scalar(0.5) ? HandState::kOpen : HandState::kClosed;
}

template <typename Scalar>
void VirtualSkeleton<Scalar>::placeOnSupportFoot(const Eigen::Ref<const VectorX<Scalar>>& q) {
  data_.X_WB.setIdentity();
  forwardKinematics(*model_, data_, q);
  std::array<Isometry3<Scalar>, 2> X_GB;
  std::array<Scalar, 2> other_height{};
  for (std::size_t f = 0; f < 2; ++f) {
    const Isometry3<Scalar>& X_BF = data_.X_WL[static_cast<std::size_t>(foot_link_[f])];
    const Isometry3<Scalar>& X_BO = data_.X_WL[static_cast<std::size_t>(foot_link_[1 - f])];
    X_GB[f] = X_BF_neutral_[f] * X_BF.inverse(Eigen::Isometry);
    other_height[f] = (X_GB[f] * X_BO.translation() - X_GB[f] * X_BF.translation())[2];
  }
  support_foot_ = other_height[1] > other_height[0] + Scalar(1e-9) ? 1 : 0;
  data_.X_WB = X_WG_ * X_GB[static_cast<std::size_t>(support_foot_)];
}

/// The elbows, wrists and hands of `map` (those it has, left then right, elbow first) as points
/// fixed on the links they sit on (p_L, m, link frame), read at the model's neutral
/// configuration: the points a Cartesian speed limit keeps slow on any humanoid (the command
/// line's --max-hand-speed). Exact for a point rigid with its link: one fixed on it, or hung
/// from a point on the same rigid body (every point an automatic binding finds: a joint centre or
/// a tip on the link's axis); a link vector hung across a joint (NAO's wrist from its elbow) is
/// taken where it sits at the neutral configuration. Throws InvalidArgument as
/// `resolveVirtualSkeleton` for a map that does not fit the model.
template <typename Scalar>
std::vector<LinkPoint> virtualArmPoints(const RobotModel<Scalar>& model, const VirtualSkeletonMap& map) {
  VirtualSkeleton<Scalar> view(model, map);
  SkeletonFrame<Scalar> frame;
  (void)view.compute(model.neutralConfiguration(), frame);
  std::vector<LinkPoint> out;
  using H = HumanJoint;
  for (const H joint : {H::kElbowLeft, H::kWristLeft, H::kHandLeft, H::kElbowRight, H::kWristRight, H::kHandRight}) {
    for (const VirtualPointSpec& spec : map.points) {
      if (spec.joint != joint) continue;
      const Isometry3<Scalar>& X_WL = view.data().X_WL[static_cast<std::size_t>(model.linkIndex(spec.link))];
      out.push_back(LinkPoint{spec.link, (rigidInverse(X_WL) * frame.position(joint)).template cast<double>()});
    }
  }
  return out;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS class VirtualSkeleton<double>;
RETARGET_TEMPLATE_ROBOTS class VirtualSkeleton<float>;
RETARGET_TEMPLATE_ROBOTS std::vector<LinkPoint> virtualArmPoints<double>(const RobotModel<double>&,
                                                                         const VirtualSkeletonMap&);
RETARGET_TEMPLATE_ROBOTS std::vector<LinkPoint> virtualArmPoints<float>(const RobotModel<float>&,
                                                                        const VirtualSkeletonMap&);
#endif

}  // namespace retarget
