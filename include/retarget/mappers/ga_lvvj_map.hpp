#pragma once

/// @file
/// The robot-specific data of GA-LVVJ (seed 000, Section 3.2): which robot joints play the
/// virtual joints of the human skeleton model, with their signs and offsets, and where the
/// robot's own virtual skeleton points sit on its links. Data only: a humanoid with the same
/// shoulder / elbow / hip / knee structure as NAO needs a new `GaLvvjMap`, never new code.
///
/// Canonical virtual joints. Each virtual joint has a canonical angle, defined on an ideal
/// humanoid whose torso frame T is x forward, y left, z up and whose limbs at all-zero angles
/// point forward (arms, along +x of T) or down (legs, along -z of T), exactly NAO's zero pose:
///
///   upper arm  u_T   = R_y(ShoulderPitch) R_z(ShoulderRoll) x
///   lower arm  l_T   = R_y(ShoulderPitch) R_z(ShoulderRoll) R_UE R_x(ElbowYaw) R_z(ElbowRoll) x
///   thigh      t_L   = R_x(HipRoll) R_y(HipPitch) (-z)                 (HipYawPitch = 0)
///   tibia      b_L   = R_x(HipRoll) R_y(HipPitch) R_y(KneePitch) (-z)
///   head       h_T   = R_z(HeadYaw) R_y(HeadPitch) z
///
/// with R_a(angle) the right-hand rotation about axis a, T the upper torso frame and L the
/// lower torso frame of the same side, R_UE a fixed elbow-frame rotation of the map (identity
/// on NAO). The same formulas hold on both sides,
/// so mirrored postures give ShoulderRoll, ElbowYaw, ElbowRoll, HipRoll and HeadYaw of opposite
/// sign (NAO's own convention). A robot joint value is `sign * canonical + offset`.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// The virtual joints of the human skeleton model that GA-LVVJ computes (seed 000, Fig. 3-4).
enum class GaLvvjJoint : int {
  kHeadYaw = 0,
  kHeadPitch,
  kLShoulderPitch,
  kLShoulderRoll,
  kLElbowYaw,
  kLElbowRoll,
  kLHand,
  kRShoulderPitch,
  kRShoulderRoll,
  kRElbowYaw,
  kRElbowRoll,
  kRHand,
  kLHipYawPitch,
  kLHipRoll,
  kLHipPitch,
  kLKneePitch,
  kRHipRoll,
  kRHipPitch,
  kRKneePitch,
};

/// Number of virtual joints (19).
inline constexpr int kGaLvvjJointCount = 19;

/// NAO-style names of the virtual joints, indexed by `GaLvvjJoint`.
inline constexpr std::array<const char*, kGaLvvjJointCount> kGaLvvjJointNames = {
    "HeadYaw",        "HeadPitch",     "LShoulderPitch", "LShoulderRoll", "LElbowYaw",
    "LElbowRoll",     "LHand",         "RShoulderPitch", "RShoulderRoll", "RElbowYaw",
    "RElbowRoll",     "RHand",         "LHipYawPitch",   "LHipRoll",      "LHipPitch",
    "LKneePitch",     "RHipRoll",      "RHipPitch",      "RKneePitch"};

/// Which robot joint plays one virtual joint: robot value = sign * canonical + offset (rad).
/// An empty `joint` means the robot has no such joint (it is then neither computed into q nor
/// read by the virtual skeleton). For the hands, canonical is 1 for open and 0 for closed.
struct GaLvvjJointBinding {
  std::string joint;    ///< Robot joint name (a coordinate of q), or empty.
  double sign = 1.0;    ///< +1 or -1.
  double offset = 0.0;  ///< rad (or the hand joint's unit).
};

/// One point of a robot's virtual skeleton (the inverse view of GA-LVVJ): either a point fixed
/// on a link, p_W = X_WL * v_L (when `from` is empty), or a link vector hung from another
/// point, p_W = p_W(from) + R_WL * v_L. The second form makes each virtual link vector exactly
/// parallel to an axis of the robot link, which is what makes the round trip exact even where
/// the robot's real joints are offset (NAO's 15 mm elbow offset, say).
struct VirtualPointSpec {
  HumanJoint joint = HumanJoint::kSpineBase;
  std::optional<HumanJoint> from{};
  std::string link;
  Eigen::Vector3d v_L = Eigen::Vector3d::Zero();  ///< m, link frame L.
};

/// One foot of a robot, for `GaLvvjOptions::trunk_lean`: the two ankle joints (the pitch
/// joint, then the roll joint on its child side, axes orthogonal) and the sole link (a frame
/// with z out of the sole, normal to both ankle axes when they are at 0). Empty names: the
/// robot has no such foot.
struct GaLvvjFoot {
  std::string ankle_pitch;
  std::string ankle_roll;
  std::string sole;

  bool empty() const { return ankle_pitch.empty() && ankle_roll.empty() && sole.empty(); }
};

/// GA-LVVJ data for one robot: joint bindings plus its virtual skeleton. Build with
/// `naoGaLvvjMap()` / `pepperGaLvvjMap()` or by hand; checked against a model by
/// `validateGaLvvjMap`.
struct GaLvvjMap {
  std::string robot;  ///< Informational name, e.g. "NAO H25".
  std::array<GaLvvjJointBinding, kGaLvvjJointCount> joints{};
  /// Virtual skeleton points (at most one per human joint); joints not listed are reported as
  /// not tracked. The torso points (SpineBase, SpineMid, SpineShoulder, shoulders, hips) must
  /// be fixed on the robot's torso link for the round trip to hold.
  std::vector<VirtualPointSpec> virtual_skeleton{};
  /// Orientation of the elbow frame E (where ElbowYaw about x and ElbowRoll about z act) in the
  /// upper-arm frame U (after ShoulderRoll), per side: the lower arm is
  /// R_TU R_UE R_x(ElbowYaw) R_z(ElbowRoll) x. Identity for NAO; Pepper's elbow frames are
  /// pitched by R_y(-0.157079) (URDF joint origins of LElbowYaw / RElbowYaw).
  Eigen::Matrix3d R_UE_left = Eigen::Matrix3d::Identity();
  Eigen::Matrix3d R_UE_right = Eigen::Matrix3d::Identity();
  /// The feet the trunk lean stands on (`GaLvvjOptions::trunk_lean`); empty for a robot
  /// without feet (Pepper). Unused otherwise.
  GaLvvjFoot foot_left{};
  GaLvvjFoot foot_right{};

  GaLvvjJointBinding& binding(GaLvvjJoint j) { return joints[static_cast<std::size_t>(j)]; }
  const GaLvvjJointBinding& binding(GaLvvjJoint j) const { return joints[static_cast<std::size_t>(j)]; }
};

namespace internal {

/// A binding resolved against a model: q index (or -1), sign, offset.
struct ResolvedBinding {
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

RETARGET_DECL void addPoint(GaLvvjMap& map, HumanJoint joint, const char* link, double x, double y, double z,
                            std::optional<HumanJoint> from = std::nullopt);

}  // namespace internal

/// Checks `map` against `model` and resolves names to indices. Throws InvalidArgument naming
/// the field and value when a bound joint is unknown or has no coordinate in q, a sign is not
/// +1 or -1, an offset is not finite, a virtual point names an unknown link, a point is given
/// twice, a `from` point is not defined before it, or a vector is not finite. (R_UE_left /
/// R_UE_right are checked by the mapper.)
template <typename Scalar>
std::array<internal::ResolvedBinding, kGaLvvjJointCount> resolveGaLvvjBindings(const GaLvvjMap& map,
                                                                              const RobotModel<Scalar>& model) {
  std::array<internal::ResolvedBinding, kGaLvvjJointCount> out{};
  for (int i = 0; i < kGaLvvjJointCount; ++i) {
    const auto& b = map.joints[static_cast<std::size_t>(i)];
    if (b.joint.empty()) continue;
    RETARGET_THROW_UNLESS(b.sign == 1.0 || b.sign == -1.0, InvalidArgument, "GaLvvjMap '", map.robot, "' joints[",
                          kGaLvvjJointNames[static_cast<std::size_t>(i)], "].sign (got ", b.sign,
                          ", expected +1 or -1)");
    RETARGET_THROW_UNLESS(std::isfinite(b.offset), InvalidArgument, "GaLvvjMap '", map.robot, "' joints[",
                          kGaLvvjJointNames[static_cast<std::size_t>(i)], "].offset (got ", b.offset,
                          ", expected a finite value)");
    const int q = model.findQ(b.joint);
    RETARGET_THROW_UNLESS(q >= 0, InvalidArgument, "GaLvvjMap '", map.robot, "' joints[",
                          kGaLvvjJointNames[static_cast<std::size_t>(i)], "].joint (got '", b.joint,
                          "', expected a joint of robot '", model.name(), "' with a coordinate in q)");
    out[static_cast<std::size_t>(i)] = internal::ResolvedBinding{q, b.sign, b.offset};
  }
  return out;
}

/// Resolves the virtual skeleton of `map` against `model` (see resolveGaLvvjBindings for what
/// throws). The result is in evaluation order (every `from` point before its users).
template <typename Scalar>
std::vector<internal::ResolvedVirtualPoint> resolveVirtualSkeleton(const GaLvvjMap& map,
                                                                   const RobotModel<Scalar>& model) {
  std::vector<internal::ResolvedVirtualPoint> out;
  std::array<bool, kHumanJointCount> defined{};
  for (const auto& spec : map.virtual_skeleton) {
    const int j = index(spec.joint);
    RETARGET_THROW_UNLESS(!defined[static_cast<std::size_t>(j)], InvalidArgument, "GaLvvjMap '", map.robot,
                          "' virtual_skeleton defines joint '", name(spec.joint), "' twice");
    const int link = model.findLink(spec.link);
    RETARGET_THROW_UNLESS(link >= 0, InvalidArgument, "GaLvvjMap '", map.robot, "' virtual_skeleton point '",
                          name(spec.joint), "' (got link '", spec.link, "', expected a link of robot '",
                          model.name(), "')");
    RETARGET_THROW_UNLESS(spec.v_L.allFinite(), InvalidArgument, "GaLvvjMap '", map.robot,
                          "' virtual_skeleton point '", name(spec.joint), "' has a non-finite vector");
    int from = -1;
    if (spec.from) {
      from = index(*spec.from);
      RETARGET_THROW_UNLESS(defined[static_cast<std::size_t>(from)], InvalidArgument, "GaLvvjMap '", map.robot,
                            "' virtual_skeleton point '", name(spec.joint), "' (got from '", name(*spec.from),
                            "', expected a point defined earlier in the list)");
    }
    defined[static_cast<std::size_t>(j)] = true;
    out.push_back(internal::ResolvedVirtualPoint{j, from, link, spec.v_L});
  }
  return out;
}

/// GA-LVVJ map of the built-in NAO H25 (robots/nao.hpp; also the NAO URDFs): every virtual
/// joint bound with sign +1 and offset 0 (NAO's zero pose is the canonical one), hands open at
/// 1 and closed at 0. Virtual skeleton (m): shoulders at the shoulder joints (0, +-0.098, 0.1)
/// of `torso`, SpineShoulder (0, 0, 0.1), SpineMid at the torso origin, SpineBase and hips at
/// z = -0.085 (hips at y = +-0.05), Neck at the HeadYaw joint (z = 0.1265); then the link
/// vectors: upper arm 0.105 m along +x of LBicep/RBicep, lower arm 0.05595 m along +x of
/// LForeArm/RForeArm, hand 0.05775 m along +x of l_wrist/r_wrist, thigh 0.1 m and tibia
/// 0.1029 m along -z of LThigh/LTibia (R*), foot (0.07, 0, -0.04511) in l_ankle/r_ankle, head
/// 0.07 m along +z of Head. Feet: LAnklePitch, LAnkleRoll, l_sole (right: R*).
RETARGET_DECL GaLvvjMap naoGaLvvjMap();

/// GA-LVVJ map of Pepper's arms and head (link and joint names of
/// ../shared/data/urdf/pepper_1.0.urdf and of the built-in Pepper): the arm and head joints are
/// NAO-like (same axes, same zero pose), so they bind with sign +1 and offset 0; Pepper's
/// HipRoll / HipPitch / KneePitch move the trunk on the wheeled base, not legs, so the leg
/// virtual joints are left unbound. Virtual skeleton: shoulders at the shoulder joints
/// (-0.057, +-0.14974, 0.08682) of `torso`, upper arm 0.1812 m along +x of LBicep/RBicep,
/// lower arm 0.15 m along +x of LForeArm/RForeArm, neck at (-0.038, 0, 0.1699), head 0.1 m
/// along +z of Head. Link lengths are rounded from the URDF joint origins (estimates for
/// display; the mapping uses directions only). Pepper's elbow frames are pitched by -0.157079
/// rad from the upper arm (`R_UE_left` / `R_UE_right`).
RETARGET_DECL GaLvvjMap pepperGaLvvjMap();

/// The built-in GA-LVVJ map that fits `model`: the NAO map when every joint and link it names
/// exists (built-in NAO or a NAO URDF), else the Pepper map, else nullopt. Never throws.
template <typename Scalar>
std::optional<GaLvvjMap> gaLvvjMapFor(const RobotModel<Scalar>& model) {
  for (GaLvvjMap map : {naoGaLvvjMap(), pepperGaLvvjMap()}) {
    bool fits = true;
    for (const auto& b : map.joints) fits = fits && (b.joint.empty() || model.findQ(b.joint) >= 0);
    for (const auto& p : map.virtual_skeleton) fits = fits && model.findLink(p.link) >= 0;
    if (fits) return map;
  }
  return std::nullopt;
}

#if RETARGET_DEFINE_MAPPERS

namespace internal {

RETARGET_DECL void addPoint(GaLvvjMap& map, HumanJoint joint, const char* link, double x, double y, double z,
                            std::optional<HumanJoint> from) {
  map.virtual_skeleton.push_back(VirtualPointSpec{joint, from, link, Eigen::Vector3d(x, y, z)});
}

}  // namespace internal

RETARGET_DECL GaLvvjMap naoGaLvvjMap() {
  GaLvvjMap map;
  map.robot = "NAO H25";
  for (int i = 0; i < kGaLvvjJointCount; ++i) {
    map.joints[static_cast<std::size_t>(i)] = GaLvvjJointBinding{kGaLvvjJointNames[static_cast<std::size_t>(i)], 1.0, 0.0};
  }
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
  map.foot_left = GaLvvjFoot{"LAnklePitch", "LAnkleRoll", "l_sole"};
  map.foot_right = GaLvvjFoot{"RAnklePitch", "RAnkleRoll", "r_sole"};
  return map;
}

RETARGET_DECL GaLvvjMap pepperGaLvvjMap() {
  GaLvvjMap map;
  map.robot = "Pepper";
  using J = GaLvvjJoint;
  for (J j : {J::kHeadYaw, J::kHeadPitch, J::kLShoulderPitch, J::kLShoulderRoll, J::kLElbowYaw, J::kLElbowRoll,
              J::kLHand, J::kRShoulderPitch, J::kRShoulderRoll, J::kRElbowYaw, J::kRElbowRoll, J::kRHand}) {
    map.binding(j) = GaLvvjJointBinding{kGaLvvjJointNames[static_cast<std::size_t>(j)], 1.0, 0.0};
  }
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
  map.R_UE_left = Eigen::AngleAxisd(-0.157079, Eigen::Vector3d::UnitY()).toRotationMatrix();
  map.R_UE_right = map.R_UE_left;
  return map;
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS std::array<internal::ResolvedBinding, kGaLvvjJointCount> resolveGaLvvjBindings<double>(
    const GaLvvjMap&, const RobotModel<double>&);
RETARGET_TEMPLATE_MAPPERS std::array<internal::ResolvedBinding, kGaLvvjJointCount> resolveGaLvvjBindings<float>(
    const GaLvvjMap&, const RobotModel<float>&);
RETARGET_TEMPLATE_MAPPERS std::vector<internal::ResolvedVirtualPoint> resolveVirtualSkeleton<double>(const GaLvvjMap&,
                                                                                     const RobotModel<double>&);
RETARGET_TEMPLATE_MAPPERS std::vector<internal::ResolvedVirtualPoint> resolveVirtualSkeleton<float>(const GaLvvjMap&,
                                                                                    const RobotModel<float>&);
RETARGET_TEMPLATE_MAPPERS std::optional<GaLvvjMap> gaLvvjMapFor<double>(const RobotModel<double>&);
RETARGET_TEMPLATE_MAPPERS std::optional<GaLvvjMap> gaLvvjMapFor<float>(const RobotModel<float>&);
#endif

}  // namespace retarget
