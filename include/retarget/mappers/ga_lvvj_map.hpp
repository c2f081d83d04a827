#pragma once

/// @file
/// The robot-specific data of GA-LVVJ (seed 000, Section 3.2): which robot joints play the
/// virtual joints of the human skeleton model, with their signs and offsets, the elbow frames and
/// the feet of the trunk lean. Data only: a humanoid with the same shoulder / elbow / hip / knee
/// structure as NAO needs a new `GaLvvjMap`, never new code. Where the robot's own virtual
/// skeleton points sit (the inverse view, for round trips and metrics) is robot data, not the
/// method's: robots/virtual_skeleton_map.hpp.
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
#include <retarget/robots/virtual_skeleton_map.hpp>

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

/// Which robot joint plays one virtual joint: robot value = sign * canonical + offset (rad), a
/// `JointCoupling` (robots/virtual_skeleton_map.hpp). An empty `joint` means the robot has no such
/// joint (it is then not computed into q). For the hands, canonical is 1 for open and 0 for closed.
using GaLvvjJointBinding = JointCoupling;

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

/// GA-LVVJ data for one robot: its joint bindings, elbow frames and feet. Build with
/// `naoGaLvvjMap()` / `pepperGaLvvjMap()` or by hand; checked against a model by
/// `validateGaLvvjMap`.
struct GaLvvjMap {
  std::string robot;  ///< Informational name, e.g. "NAO H25".
  std::array<GaLvvjJointBinding, kGaLvvjJointCount> joints{};
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
using ResolvedBinding = ResolvedCoupling;

}  // namespace internal

/// Checks `map` against `model` and resolves names to indices. Throws InvalidArgument naming
/// the field and value when a bound joint is unknown or has no coordinate in q, a sign is not
/// +1 or -1 or an offset is not finite. (R_UE_left / R_UE_right are checked by the mapper.)
template <typename Scalar>
std::array<internal::ResolvedBinding, kGaLvvjJointCount> resolveGaLvvjBindings(const GaLvvjMap& map,
                                                                              const RobotModel<Scalar>& model) {
  std::array<internal::ResolvedBinding, kGaLvvjJointCount> out{};
  const std::string owner = "GaLvvjMap '" + map.robot + "'";
  for (std::size_t i = 0; i < kGaLvvjJointCount; ++i) {
    const std::string field = std::string("joints[") + kGaLvvjJointNames[i] + "]";
    out[i] = resolveJointCoupling(map.joints[i], model, owner, field.c_str());
  }
  return out;
}

/// GA-LVVJ map of the built-in NAO H25 (robots/nao.hpp; also the NAO URDFs): every virtual
/// joint bound with sign +1 and offset 0 (NAO's zero pose is the canonical one), hands open at
/// 1 and closed at 0. Feet: LAnklePitch, LAnkleRoll, l_sole (right: R*). NAO's virtual skeleton:
/// naoVirtualSkeletonMap() (robots/virtual_skeleton_map.hpp).
RETARGET_DECL GaLvvjMap naoGaLvvjMap();

/// GA-LVVJ map of Pepper's arms and head (link and joint names of
/// ../shared/data/urdf/pepper_1.0.urdf and of the built-in Pepper): the arm and head joints are
/// NAO-like (same axes, same zero pose), so they bind with sign +1 and offset 0; Pepper's
/// HipRoll / HipPitch / KneePitch move the trunk on the wheeled base, not legs, so the leg
/// virtual joints are left unbound. Pepper's elbow frames are pitched by -0.157079 rad from the
/// upper arm (`R_UE_left` / `R_UE_right`). Its virtual skeleton: pepperVirtualSkeletonMap().
RETARGET_DECL GaLvvjMap pepperGaLvvjMap();

/// The built-in GA-LVVJ map that fits `model`: the NAO map when every joint it binds has a
/// coordinate in q (built-in NAO or a NAO URDF), else the Pepper map, else nullopt. Never throws.
template <typename Scalar>
std::optional<GaLvvjMap> gaLvvjMapFor(const RobotModel<Scalar>& model) {
  for (GaLvvjMap map : {naoGaLvvjMap(), pepperGaLvvjMap()}) {
    bool fits = true;
    for (const auto& b : map.joints) fits = fits && (b.joint.empty() || model.findQ(b.joint) >= 0);
    if (fits) return map;
  }
  return std::nullopt;
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL GaLvvjMap naoGaLvvjMap() {
  GaLvvjMap map;
  map.robot = "NAO H25";
  for (int i = 0; i < kGaLvvjJointCount; ++i) {
    map.joints[static_cast<std::size_t>(i)] = GaLvvjJointBinding{kGaLvvjJointNames[static_cast<std::size_t>(i)], 1.0, 0.0};
  }
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
RETARGET_TEMPLATE_MAPPERS std::optional<GaLvvjMap> gaLvvjMapFor<double>(const RobotModel<double>&);
RETARGET_TEMPLATE_MAPPERS std::optional<GaLvvjMap> gaLvvjMapFor<float>(const RobotModel<float>&);
#endif

}  // namespace retarget
