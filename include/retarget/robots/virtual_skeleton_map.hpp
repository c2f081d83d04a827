#pragma once

/// @file
/// A robot's virtual skeleton as data: where each canonical skeleton point (human/skeleton.hpp,
/// `HumanJoint`) sits on the robot's links, and which robot joints give the head's yaw and pitch
/// and the hands' open / closed state. It is what a robot *is* for the similarity metrics (the
/// robot's link vectors, seed 000 Section 6.1), for the particle filters' likelihood and for
/// `VirtualSkeleton` (robots/virtual_skeleton.hpp), the configuration -> skeleton view.
///
/// The papers' robots have hand-written maps here (`naoVirtualSkeletonMap`,
/// `pepperVirtualSkeletonMap`); every other humanoid gets one from its automatic binding
/// (robots/robot_skeleton.hpp). Methods read it; none keeps a copy of its own (GA-LVVJ's map
/// binds joints only).

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Which robot joint carries one canonical angle: robot value = sign * canonical + offset (rad,
/// or the joint's own unit for a hand). An empty `joint` means the robot has none.
struct JointCoupling {
  std::string joint;    ///< Robot joint name (a coordinate of q), or empty.
  double sign = 1.0;    ///< +1 or -1.
  double offset = 0.0;  ///< rad (or the hand joint's unit).
};

/// One point of a robot's virtual skeleton: either a point fixed on a link, p_W = X_WL * v_L
/// (when `from` is empty), or a link vector hung from another point, p_W = p_W(from) + R_WL * v_L.
/// The second form makes each virtual link vector exactly parallel to an axis of the robot link,
/// which is what makes GA-LVVJ's round trip exact even where the robot's real joints are offset
/// (NAO's 15 mm elbow offset, say).
struct VirtualPointSpec {
  HumanJoint joint = HumanJoint::kSpineBase;
  std::optional<HumanJoint> from{};
  std::string link;
  Eigen::Vector3d v_L = Eigen::Vector3d::Zero();  ///< m, link frame L.
};

/// A robot's virtual skeleton (see the file doc). Checked against a model by
/// `resolveVirtualSkeleton` and `resolveJointCoupling`.
struct VirtualSkeletonMap {
  std::string robot;  ///< Informational name, e.g. "NAO H25".
  /// The points, at most one per human joint, in evaluation order (every `from` point before its
  /// users); joints not listed are reported as not tracked. The torso points (SpineBase,
  /// SpineMid, SpineShoulder, shoulders, hips) sit on the torso link for GA-LVVJ's round trip.
  std::vector<VirtualPointSpec> points{};
  /// Head yaw and pitch (canonical: GA-LVVJ's HeadYaw / HeadPitch, rad); read only when both
  /// are bound.
  JointCoupling head_yaw{};
  JointCoupling head_pitch{};
  /// Hands: canonical 1 open, 0 closed (a hand reads open at or above 0.5).
  JointCoupling hand_left{};
  JointCoupling hand_right{};
};

namespace internal {

/// A joint coupling resolved against a model: q index (-1: unbound), sign, offset.
struct ResolvedCoupling {
  int q = -1;
  double sign = 1.0;
  double offset = 0.0;
};

/// A virtual point resolved against a model.
struct ResolvedVirtualPoint {
  int joint = 0;
  int from = -1;  ///< Human joint index, -1 for a point fixed on the link.
  int link = 0;
  Eigen::Vector3d v_L = Eigen::Vector3d::Zero();
};

RETARGET_DECL void addPoint(VirtualSkeletonMap& map, HumanJoint joint, const char* link, double x, double y, double z,
                            std::optional<HumanJoint> from = std::nullopt);

}  // namespace internal

/// Resolves `coupling` against `model`. `owner` and `field` name it in the error (e.g.
/// "VirtualSkeletonMap 'NAO H25'", "head_yaw"). Throws InvalidArgument when the sign is not +1 or
/// -1, the offset is not finite or the joint has no coordinate in q. Unbound: q = -1.
template <typename Scalar>
internal::ResolvedCoupling resolveJointCoupling(const JointCoupling& coupling, const RobotModel<Scalar>& model,
                                                const std::string& owner, const char* field) {
  if (coupling.joint.empty()) return {};
  RETARGET_THROW_UNLESS(coupling.sign == 1.0 || coupling.sign == -1.0, InvalidArgument, owner, " ", field,
                        ".sign (got ", coupling.sign, ", expected +1 or -1)");
  RETARGET_THROW_UNLESS(std::isfinite(coupling.offset), InvalidArgument, owner, " ", field, ".offset (got ",
                        coupling.offset, ", expected a finite value)");
  const int q = model.findQ(coupling.joint);
  RETARGET_THROW_UNLESS(q >= 0, InvalidArgument, owner, " ", field, ".joint (got '", coupling.joint,
                        "', expected a joint of robot '", model.name(), "' with a coordinate in q)");
  return internal::ResolvedCoupling{q, coupling.sign, coupling.offset};
}

/// Resolves the points of `map` against `model`, in evaluation order. Throws InvalidArgument
/// naming the point when it names an unknown link, is given twice, hangs from a point not
/// defined before it, or has a non-finite vector.
template <typename Scalar>
std::vector<internal::ResolvedVirtualPoint> resolveVirtualSkeleton(const VirtualSkeletonMap& map,
                                                                   const RobotModel<Scalar>& model) {
  std::vector<internal::ResolvedVirtualPoint> out;
  std::array<bool, kHumanJointCount> defined{};
  for (const auto& spec : map.points) {
    const int j = index(spec.joint);
    RETARGET_THROW_UNLESS(!defined[static_cast<std::size_t>(j)], InvalidArgument, "VirtualSkeletonMap '", map.robot,
                          "' defines point '", name(spec.joint), "' twice");
    const int link = model.findLink(spec.link);
    RETARGET_THROW_UNLESS(link >= 0, InvalidArgument, "VirtualSkeletonMap '", map.robot, "' point '", name(spec.joint),
                          "' (got link '", spec.link, "', expected a link of robot '", model.name(), "')");
    RETARGET_THROW_UNLESS(spec.v_L.allFinite(), InvalidArgument, "VirtualSkeletonMap '", map.robot, "' point '",
                          name(spec.joint), "' has a non-finite vector");
    int from = -1;
    if (spec.from) {
      from = index(*spec.from);
      RETARGET_THROW_UNLESS(defined[static_cast<std::size_t>(from)], InvalidArgument, "VirtualSkeletonMap '", map.robot,
                            "' point '", name(spec.joint), "' (got from '", name(*spec.from),
                            "', expected a point defined earlier in the list)");
    }
    defined[static_cast<std::size_t>(j)] = true;
    out.push_back(internal::ResolvedVirtualPoint{j, from, link, spec.v_L});
  }
  return out;
}

/// True when every link and coupled joint `map` names exists in `model` (a coupled joint with a
/// coordinate in q). Never throws.
template <typename Scalar>
bool fitsModel(const VirtualSkeletonMap& map, const RobotModel<Scalar>& model) {
  for (const auto& p : map.points) {
    if (model.findLink(p.link) < 0) return false;
  }
  for (const JointCoupling* c : {&map.head_yaw, &map.head_pitch, &map.hand_left, &map.hand_right}) {
    if (!c->joint.empty() && model.findQ(c->joint) < 0) return false;
  }
  return true;
}

/// The virtual skeleton of the built-in NAO H25 (robots/nao.hpp; also the NAO URDFs), m:
/// shoulders at the shoulder joints (0, +-0.098, 0.1) of `torso`, SpineShoulder (0, 0, 0.1),
/// SpineMid at the torso origin, SpineBase and hips at z = -0.085 (hips at y = +-0.05), Neck at
/// the HeadYaw joint (z = 0.1265); then the link vectors: upper arm 0.105 m along +x of
/// LBicep/RBicep, lower arm 0.05595 m along +x of LForeArm/RForeArm, hand 0.05775 m along +x of
/// l_wrist/r_wrist, thigh 0.1 m and tibia 0.1029 m along -z of LThigh/LTibia (R*), foot
/// (0.07, 0, -0.04511) in l_ankle/r_ankle, head 0.07 m along +z of Head. Head: HeadYaw and
/// HeadPitch; hands: LHand and RHand (open at 1, closed at 0); all with sign +1 and offset 0.
RETARGET_DECL VirtualSkeletonMap naoVirtualSkeletonMap();

/// The virtual skeleton of Pepper's arms and head (link and joint names of
/// ../shared/data/urdf/pepper_1.0.urdf and of the built-in Pepper), m: shoulders at the shoulder
/// joints (-0.057, +-0.14974, 0.08682) of `torso`, upper arm 0.1812 m along +x of LBicep/RBicep,
/// lower arm 0.15 m along +x of LForeArm/RForeArm, neck at (-0.038, 0, 0.1699), head 0.1 m along
/// +z of Head (lengths rounded from the URDF's joint origins: the metrics use directions). Head
/// and hands coupled as on NAO.
RETARGET_DECL VirtualSkeletonMap pepperVirtualSkeletonMap();

#if RETARGET_DEFINE_ROBOTS

namespace internal {

RETARGET_DECL void addPoint(VirtualSkeletonMap& map, HumanJoint joint, const char* link, double x, double y, double z,
                            std::optional<HumanJoint> from) {
  map.points.push_back(VirtualPointSpec{joint, from, link, Eigen::Vector3d(x, y, z)});
}

/// The head and hand couplings NAO and Pepper share: their own joint names, sign +1, offset 0.
inline void coupleNaoHeadAndHands(VirtualSkeletonMap& map) {
  map.head_yaw = JointCoupling{"HeadYaw", 1.0, 0.0};
  map.head_pitch = JointCoupling{"HeadPitch", 1.0, 0.0};
  map.hand_left = JointCoupling{"LHand", 1.0, 0.0};
  map.hand_right = JointCoupling{"RHand", 1.0, 0.0};
}

}  // namespace internal

RETARGET_DECL VirtualSkeletonMap naoVirtualSkeletonMap() {
  VirtualSkeletonMap map;
  map.robot = "NAO H25";
  using H = HumanJoint;
  using internal::addPoint;
  addPoint(map, H::kSpineShoulder, "torso", 0, 0, 0.1);
  addPoint(map, H::kSpineMid, "torso", 0, 0, 0);
  addPoint(map, H::kSpineBase, "torso", 0, 0, -0.085);
  addPoint(map, H::kNeck, "torso", 0, 0, 0.1265);
  addPoint(map, H::kHead, "Head", 0, 0, 0.07, H::kNeck);
  addPoint(map, H::kShoulderLeft, "torso", 0, 0.098, 0.1);
  addPoint(map, H::kShoulderRight, "torso", 0, -0.098, 0.1);
  addPoint(map, H::kElbowLeft, "LBicep", 0.105, 0, 0, H::kShoulderLeft);
  addPoint(map, H::kElbowRight, "RBicep", 0.105, 0, 0, H::kShoulderRight);
  addPoint(map, H::kWristLeft, "LForeArm", 0.05595, 0, 0, H::kElbowLeft);
  addPoint(map, H::kWristRight, "RForeArm", 0.05595, 0, 0, H::kElbowRight);
  addPoint(map, H::kHandLeft, "l_wrist", 0.05775, 0, 0, H::kWristLeft);
  addPoint(map, H::kHandRight, "r_wrist", 0.05775, 0, 0, H::kWristRight);
  addPoint(map, H::kHipLeft, "torso", 0, 0.05, -0.085);
  addPoint(map, H::kHipRight, "torso", 0, -0.05, -0.085);
  addPoint(map, H::kKneeLeft, "LThigh", 0, 0, -0.1, H::kHipLeft);
  addPoint(map, H::kKneeRight, "RThigh", 0, 0, -0.1, H::kHipRight);
  addPoint(map, H::kAnkleLeft, "LTibia", 0, 0, -0.1029, H::kKneeLeft);
  addPoint(map, H::kAnkleRight, "RTibia", 0, 0, -0.1029, H::kKneeRight);
  addPoint(map, H::kFootLeft, "l_ankle", 0.07, 0, -0.04511, H::kAnkleLeft);
  addPoint(map, H::kFootRight, "r_ankle", 0.07, 0, -0.04511, H::kAnkleRight);
  internal::coupleNaoHeadAndHands(map);
  return map;
}

RETARGET_DECL VirtualSkeletonMap pepperVirtualSkeletonMap() {
  VirtualSkeletonMap map;
  map.robot = "Pepper";
  using H = HumanJoint;
  using internal::addPoint;
  addPoint(map, H::kSpineShoulder, "torso", -0.057, 0, 0.08682);
  addPoint(map, H::kSpineMid, "torso", -0.057, 0, 0);
  addPoint(map, H::kNeck, "torso", -0.038, 0, 0.1699);
  addPoint(map, H::kHead, "Head", 0, 0, 0.1, H::kNeck);
  addPoint(map, H::kShoulderLeft, "torso", -0.057, 0.14974, 0.08682);
  addPoint(map, H::kShoulderRight, "torso", -0.057, -0.14974, 0.08682);
  addPoint(map, H::kElbowLeft, "LBicep", 0.1812, 0, 0, H::kShoulderLeft);
  addPoint(map, H::kElbowRight, "RBicep", 0.1812, 0, 0, H::kShoulderRight);
  addPoint(map, H::kWristLeft, "LForeArm", 0.15, 0, 0, H::kElbowLeft);
  addPoint(map, H::kWristRight, "RForeArm", 0.15, 0, 0, H::kElbowRight);
  internal::coupleNaoHeadAndHands(map);
  return map;
}

#endif  // RETARGET_DEFINE_ROBOTS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS internal::ResolvedCoupling resolveJointCoupling<double>(const JointCoupling&,
                                                                                 const RobotModel<double>&,
                                                                                 const std::string&, const char*);
RETARGET_TEMPLATE_ROBOTS internal::ResolvedCoupling resolveJointCoupling<float>(const JointCoupling&,
                                                                                const RobotModel<float>&,
                                                                                const std::string&, const char*);
RETARGET_TEMPLATE_ROBOTS std::vector<internal::ResolvedVirtualPoint> resolveVirtualSkeleton<double>(
    const VirtualSkeletonMap&, const RobotModel<double>&);
RETARGET_TEMPLATE_ROBOTS std::vector<internal::ResolvedVirtualPoint> resolveVirtualSkeleton<float>(
    const VirtualSkeletonMap&, const RobotModel<float>&);
RETARGET_TEMPLATE_ROBOTS bool fitsModel<double>(const VirtualSkeletonMap&, const RobotModel<double>&);
RETARGET_TEMPLATE_ROBOTS bool fitsModel<float>(const VirtualSkeletonMap&, const RobotModel<float>&);
#endif

}  // namespace retarget
