#pragma once

/// @file
/// The robot-specific data of the triangle arm mapping (seed 001, Section 2.1): which robot
/// joints form each 4-DOF arm (shoulder roll, pitch, yaw; elbow), their axes and the arm's
/// directions in a reference pose, the branch of each two-joint solution, and where the robot's
/// own shoulder, elbow and wrist sit (its virtual skeleton, for round trips). Data only: any arm
/// whose elbow position depends on the first two joints only (a spherical shoulder, or NAO's
/// pitch-roll shoulder followed by an elbow yaw about the upper arm) needs a new `TriangleMap`,
/// never new code. Built-in maps: Tangy (seed 001, the paper's robot), NAO and Pepper (the same
/// arms GA-LVVJ maps, so the two analytic methods can be compared on one robot).
///
/// Arm model (product of exponentials in the torso frame T: x forward, y left, z up; m, rad).
/// With theta_k = q_k - offset_k the joint displacement from the reference pose and R_k(theta)
/// the rotation by theta about the unit axis a_k (given in T at the reference pose):
///
///   upper arm  u_T = R_1(theta_1) R_2(theta_2) u_0
///   forearm    l_T = R_1(theta_1) R_2(theta_2) R_3(theta_3) R_4(theta_4) l_0
///
/// u_0, l_0: unit upper-arm and forearm directions in T at the reference pose. An axis carries
/// its joint's sign (a joint turning the other way has the opposite axis); `offset` is the
/// joint value in the reference pose.

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>

namespace retarget {

/// One arm of a `TriangleMap` (see the file doc for the arm model).
struct TriangleArmMap {
  /// Robot joint names (coordinates of q) of theta_1..theta_4: shoulder roll, shoulder pitch,
  /// shoulder yaw, elbow, in chain order (the seed's theta1..theta4 / theta5..theta8 on Tangy).
  std::array<std::string, 4> joints{};
  /// Joint values (rad) of the reference pose in which `axes`, `upper_arm`, `forearm` are given.
  std::array<double, 4> offset{};
  /// Unit joint axes a_1..a_4 in T at the reference pose (carry the joint signs).
  std::array<Eigen::Vector3d, 4> axes{Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitX(),
                                       Eigen::Vector3d::UnitZ()};
  /// Unit upper-arm direction u_0 (shoulder -> elbow) in T at the reference pose.
  Eigen::Vector3d upper_arm = Eigen::Vector3d::UnitX();
  /// Unit forearm direction l_0 (elbow -> wrist) in T at the reference pose.
  Eigen::Vector3d forearm = Eigen::Vector3d::UnitX();
  /// Branches. Each two-joint subproblem has two solutions; the one whose second angle
  /// (theta_2, resp. theta_4, as displacement from the offset) is closest to this value (rad,
  /// compared modulo 2 pi) is taken.
  double shoulder_branch = 0.0;
  double elbow_branch = 0.0;
  /// The robot's virtual arm (for round trips and the Cartesian speed limit): shoulder fixed on
  /// `shoulder_link` at `p_shoulder` (m, link frame); elbow = shoulder + R_W(upper_arm_link)
  /// `v_upper_arm`; wrist = elbow + R_W(forearm_link) `v_forearm` (m, link frames).
  std::string shoulder_link;
  Eigen::Vector3d p_shoulder = Eigen::Vector3d::Zero();
  std::string upper_arm_link;
  Eigen::Vector3d v_upper_arm = Eigen::Vector3d::Zero();
  std::string forearm_link;
  Eigen::Vector3d v_forearm = Eigen::Vector3d::Zero();
};

/// Triangle-mapping data of one robot: two arms, and the torso link whose frame is the
/// canonical torso frame T (x forward, y left, z up) with the robot's spine points in it.
struct TriangleMap {
  std::string robot;       ///< Informational name, e.g. "Tangy".
  std::string torso_link;  ///< Link whose frame is T.
  /// Virtual spine points fixed on `torso_link` (m): SpineMid below SpineShoulder along +z, so
  /// that the torso frame built from the robot's own skeleton is T.
  Eigen::Vector3d p_spine_mid = Eigen::Vector3d(0, 0, -0.2);
  Eigen::Vector3d p_spine_shoulder = Eigen::Vector3d::Zero();
  TriangleArmMap left;
  TriangleArmMap right;
  /// Joints a model must have for `triangleMapFor` to choose this map (besides the arm joints);
  /// tells robots with the same arm joint names apart (NAO: LHipYawPitch; Pepper: KneePitch).
  std::vector<std::string> identifying_joints{};
};

namespace internal {

/// A `TriangleArmMap` resolved against a model.
struct ResolvedTriangleArm {
  std::array<int, 4> q{};
  int shoulder_link = 0, upper_arm_link = 0, forearm_link = 0;
};

RETARGET_DECL TriangleArmMap triangleArm(std::array<std::string, 4> joints, std::array<Eigen::Vector3d, 4> axes,
                                         const Eigen::Vector3d& u0, const Eigen::Vector3d& l0, double shoulder_branch,
                                         double elbow_branch);

RETARGET_DECL void triangleArmPoints(TriangleArmMap& arm, std::string shoulder_link,
                                     const Eigen::Vector3d& p_shoulder, std::string upper_link,
                                     const Eigen::Vector3d& v_upper, std::string forearm_link,
                                     const Eigen::Vector3d& v_forearm);

/// Takes the virtual arms and spine points of `map` from the robot's virtual skeleton (its
/// shoulders, elbows, wrists, SpineShoulder and SpineMid, as robots/virtual_skeleton_map.hpp
/// places them), so that a robot's points are written once. Throws InvalidArgument naming the
/// point when `skeleton` lacks one, puts a shoulder or spine point off `map.torso_link` or does
/// not hang an elbow from its shoulder and a wrist from its elbow.
RETARGET_DECL void virtualArmsFrom(TriangleMap& map, const VirtualSkeletonMap& skeleton);

}  // namespace internal

/// Checks one arm of `map` against `model` and resolves names. Throws InvalidArgument naming
/// the field and value: unknown joint or link, a joint without a coordinate in q, a joint used
/// twice, an axis or direction that is not a finite unit vector (|norm - 1| > 1e-6), a
/// non-finite offset or branch.
template <typename Scalar>
internal::ResolvedTriangleArm resolveTriangleArm(const TriangleMap& map, const TriangleArmMap& arm, const char* side,
                                                 const RobotModel<Scalar>& model) {
  internal::ResolvedTriangleArm out;
  const auto unit = [](const Eigen::Vector3d& v) { return v.allFinite() && std::abs(v.norm() - 1.0) <= 1e-6; };
  for (int k = 0; k < 4; ++k) {
    const auto i = static_cast<std::size_t>(k);
    const int q = model.findQ(arm.joints[i]);
    RETARGET_THROW_UNLESS(q >= 0, InvalidArgument, "TriangleMap '", map.robot, "' ", side, ".joints[", k, "] (got '",
                          arm.joints[i], "', expected a joint of robot '", model.name(), "' with a coordinate in q)");
    for (int j = 0; j < k; ++j) {
      RETARGET_THROW_UNLESS(out.q[static_cast<std::size_t>(j)] != q, InvalidArgument, "TriangleMap '", map.robot, "' ",
                            side, ".joints[", k, "] (got '", arm.joints[i], "' twice, expected four distinct joints)");
    }
    out.q[i] = q;
    RETARGET_THROW_UNLESS(std::isfinite(arm.offset[i]), InvalidArgument, "TriangleMap '", map.robot, "' ", side,
                          ".offset[", k, "] (got ", arm.offset[i], ", expected a finite angle in rad)");
    RETARGET_THROW_UNLESS(unit(arm.axes[i]), InvalidArgument, "TriangleMap '", map.robot, "' ", side, ".axes[", k,
                          "] (got ", arm.axes[i].transpose(), ", expected a unit vector)");
  }
  RETARGET_THROW_UNLESS(unit(arm.upper_arm) && unit(arm.forearm), InvalidArgument, "TriangleMap '", map.robot, "' ",
                        side, ".upper_arm / forearm (got ", arm.upper_arm.transpose(), " / ", arm.forearm.transpose(),
                        ", expected unit vectors)");
  RETARGET_THROW_UNLESS(std::isfinite(arm.shoulder_branch) && std::isfinite(arm.elbow_branch), InvalidArgument,
                        "TriangleMap '", map.robot, "' ", side, ".shoulder_branch / elbow_branch (got ",
                        arm.shoulder_branch, " / ", arm.elbow_branch, ", expected finite angles in rad)");
  const auto link = [&](const std::string& name, const char* field) {
    const int l = model.findLink(name);
    RETARGET_THROW_UNLESS(l >= 0, InvalidArgument, "TriangleMap '", map.robot, "' ", side, ".", field, " (got '", name,
                          "', expected a link of robot '", model.name(), "')");
    return l;
  };
  out.shoulder_link = link(arm.shoulder_link, "shoulder_link");
  out.upper_arm_link = link(arm.upper_arm_link, "upper_arm_link");
  out.forearm_link = link(arm.forearm_link, "forearm_link");
  RETARGET_THROW_UNLESS(arm.p_shoulder.allFinite() && arm.v_upper_arm.allFinite() && arm.v_forearm.allFinite(),
                        InvalidArgument, "TriangleMap '", map.robot, "' ", side,
                        " virtual arm points (got a non-finite vector, expected finite m)");
  return out;
}

/// Triangle map of the built-in Tangy (robots/tangy.hpp; seed 001 Appendix A). T is the model's
/// `base` (x forward, y left, z up). At q = 0 (the reference pose, read off the DH chain) both
/// arms point forward with the elbow bent 90 degrees: u_0 = +x, l_0 = +y; axes: roll +x,
/// pitch +z, yaw +x (along the upper arm, through the elbow), elbow -z. Both arms have the same
/// DH rows (Tables A1/A2), so the same axes. Branches: left theta_2 in (0, pi) (upper arm on the
/// arm's own side: hanging is (roll, pitch) = (-pi/2, pi/2)), right theta_6 in (-pi, 0) (the
/// mirror image, so that the arms held out sideways sit mid-range, not at the +-pi limit); the
/// elbow in (-pi/2, pi/2) (straight arm at +pi/2, fully folded at -pi/2). Virtual arm:
/// shoulders at (0, +-t1, 0) of `base`, elbow d1 along z of `<p>link2`, wrist d2 along x of
/// `<p>link4`; spine SpineShoulder at the origin of `base`, SpineMid 0.2 m below.
RETARGET_DECL TriangleMap tangyTriangleMap();

/// Triangle map of NAO's arms (built-in NAO H25 and the NAO URDFs): T = `torso`; reference pose
/// q = 0, arms forward (u_0 = l_0 = +x); axes ShoulderPitch +y, ShoulderRoll +z, ElbowYaw +x,
/// ElbowRoll +z (the GA-LVVJ canonical model of seed 000). Branches: |ShoulderRoll| < pi/2;
/// LElbowRoll in (-pi, 0), RElbowRoll in (0, pi) (NAO's own limits). Virtual arm and spine:
/// NAO's virtual skeleton (`naoVirtualSkeletonMap()`: shoulders (0, +-0.098, 0.1) of `torso`,
/// upper arm 0.105 m along x of LBicep/RBicep, forearm 0.05595 m along x of LForeArm/RForeArm).
RETARGET_DECL TriangleMap naoTriangleMap();

/// Triangle map of Pepper's arms (built-in Pepper and pepper_1.0.urdf): as NAO, but the elbow
/// frame is pitched by R_UE = R_y(-0.157079) from the upper arm (URDF origins of
/// LElbowYaw/RElbowYaw), so ElbowYaw's axis and the straight forearm are R_UE x and ElbowRoll's
/// axis is R_UE z. Virtual arm and spine: Pepper's virtual skeleton
/// (`pepperVirtualSkeletonMap()`).
RETARGET_DECL TriangleMap pepperTriangleMap();

/// The built-in triangle map that fits `model` (every joint and link it names exists): Tangy,
/// NAO or Pepper, else nullopt. Never throws.
template <typename Scalar>
std::optional<TriangleMap> triangleMapFor(const RobotModel<Scalar>& model) {
  for (TriangleMap map : {tangyTriangleMap(), naoTriangleMap(), pepperTriangleMap()}) {
    bool fits = model.findLink(map.torso_link) >= 0;
    for (const auto& j : map.identifying_joints) fits = fits && model.findJoint(j) >= 0;
    for (const TriangleArmMap* arm : {&map.left, &map.right}) {
      for (const auto& j : arm->joints) fits = fits && model.findQ(j) >= 0;
      for (const auto* l : {&arm->shoulder_link, &arm->upper_arm_link, &arm->forearm_link}) {
        fits = fits && model.findLink(*l) >= 0;
      }
    }
    if (fits) return map;
  }
  return std::nullopt;
}

#if RETARGET_DEFINE_MAPPERS

namespace internal {

RETARGET_DECL TriangleArmMap triangleArm(std::array<std::string, 4> joints, std::array<Eigen::Vector3d, 4> axes,
                                         const Eigen::Vector3d& u0, const Eigen::Vector3d& l0, double shoulder_branch,
                                         double elbow_branch) {
  TriangleArmMap arm;
  arm.joints = std::move(joints);
  arm.axes = axes;
  arm.upper_arm = u0;
  arm.forearm = l0;
  arm.shoulder_branch = shoulder_branch;
  arm.elbow_branch = elbow_branch;
  return arm;
}

RETARGET_DECL void triangleArmPoints(TriangleArmMap& arm, std::string shoulder_link,
                                     const Eigen::Vector3d& p_shoulder, std::string upper_link,
                                     const Eigen::Vector3d& v_upper, std::string forearm_link,
                                     const Eigen::Vector3d& v_forearm) {
  arm.shoulder_link = std::move(shoulder_link);
  arm.p_shoulder = p_shoulder;
  arm.upper_arm_link = std::move(upper_link);
  arm.v_upper_arm = v_upper;
  arm.forearm_link = std::move(forearm_link);
  arm.v_forearm = v_forearm;
}

RETARGET_DECL void virtualArmsFrom(TriangleMap& map, const VirtualSkeletonMap& skeleton) {
  const auto point = [&](HumanJoint joint, const std::optional<HumanJoint>& from,
                         const std::string* link) -> const VirtualPointSpec& {
    for (const VirtualPointSpec& spec : skeleton.points) {
      if (spec.joint != joint) continue;
      if (spec.from == from && (link == nullptr || spec.link == *link)) return spec;
      throw InvalidArgument(message("virtualArmsFrom", "TriangleMap '", map.robot, "': virtual skeleton '",
                                    skeleton.robot, "' point '", name(joint), "' (got link '", spec.link, "'",
                                    spec.from ? " hung from '" : "", spec.from ? name(*spec.from) : "",
                                    spec.from ? "'" : "", ", expected ",
                                    from ? "a link vector hung from '" : "a point fixed on '",
                                    from ? name(*from) : map.torso_link.c_str(), "')"));
    }
    throw InvalidArgument(message("virtualArmsFrom", "TriangleMap '", map.robot, "': virtual skeleton '",
                                  skeleton.robot, "' (got no point '", name(joint),
                                  "', expected one for the triangle's virtual arm)"));
  };
  using H = HumanJoint;
  map.p_spine_shoulder = point(H::kSpineShoulder, std::nullopt, &map.torso_link).v_L;
  map.p_spine_mid = point(H::kSpineMid, std::nullopt, &map.torso_link).v_L;
  for (const auto& [arm, shoulder, elbow, wrist] :
       {std::tuple{&map.left, H::kShoulderLeft, H::kElbowLeft, H::kWristLeft},
        std::tuple{&map.right, H::kShoulderRight, H::kElbowRight, H::kWristRight}}) {
    const VirtualPointSpec& s = point(shoulder, std::nullopt, &map.torso_link);
    const VirtualPointSpec& e = point(elbow, shoulder, nullptr);
    const VirtualPointSpec& w = point(wrist, elbow, nullptr);
    triangleArmPoints(*arm, s.link, s.v_L, e.link, e.v_L, w.link, w.v_L);
  }
}

}  // namespace internal

RETARGET_DECL TriangleMap tangyTriangleMap() {
  using V = Eigen::Vector3d;
  TriangleMap map;
  map.robot = "Tangy";
  map.torso_link = "base";
  const std::array<V, 4> axes{V::UnitX(), V::UnitZ(), V::UnitX(), -V::UnitZ()};
  map.left = internal::triangleArm({"l_shoulder_roll", "l_shoulder_pitch", "l_shoulder_yaw", "l_elbow_roll"}, axes,
                                   V::UnitX(), V::UnitY(), kPi<double> / 2, 0.0);
  map.right = internal::triangleArm({"r_shoulder_roll", "r_shoulder_pitch", "r_shoulder_yaw", "r_elbow_roll"}, axes,
                                    V::UnitX(), V::UnitY(), -kPi<double> / 2, 0.0);
  internal::triangleArmPoints(map.left, "base", V(0, 0.170, 0), "l_link2", V(0, 0, 0.239), "l_link4", V(0.410, 0, 0));
  internal::triangleArmPoints(map.right, "base", V(0, -0.170, 0), "r_link2", V(0, 0, 0.239), "r_link4",
                              V(0.410, 0, 0));
  return map;
}

RETARGET_DECL TriangleMap naoTriangleMap() {
  using V = Eigen::Vector3d;
  TriangleMap map;
  map.robot = "NAO H25";
  map.torso_link = "torso";
  map.identifying_joints = {"LHipYawPitch"};
  const std::array<V, 4> axes{V::UnitY(), V::UnitZ(), V::UnitX(), V::UnitZ()};
  map.left = internal::triangleArm({"LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll"}, axes, V::UnitX(),
                                   V::UnitX(), 0.0, -kPi<double> / 2);
  map.right = internal::triangleArm({"RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll"}, axes, V::UnitX(),
                                    V::UnitX(), 0.0, kPi<double> / 2);
  internal::virtualArmsFrom(map, naoVirtualSkeletonMap());
  return map;
}

RETARGET_DECL TriangleMap pepperTriangleMap() {
  using V = Eigen::Vector3d;
  TriangleMap map;
  map.robot = "Pepper";
  map.torso_link = "torso";
  map.identifying_joints = {"KneePitch"};
  const Eigen::Matrix3d R_UE = Eigen::AngleAxisd(-0.157079, V::UnitY()).toRotationMatrix();
  const V yaw = R_UE * V::UnitX();
  const std::array<V, 4> axes{V::UnitY(), V::UnitZ(), yaw, R_UE * V::UnitZ()};
  map.left = internal::triangleArm({"LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll"}, axes, V::UnitX(),
                                   yaw, 0.0, -kPi<double> / 2);
  map.right = internal::triangleArm({"RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll"}, axes, V::UnitX(),
                                    yaw, 0.0, kPi<double> / 2);
  internal::virtualArmsFrom(map, pepperVirtualSkeletonMap());
  return map;
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS internal::ResolvedTriangleArm resolveTriangleArm<double>(
    const TriangleMap&, const TriangleArmMap&, const char*, const RobotModel<double>&);
RETARGET_TEMPLATE_MAPPERS internal::ResolvedTriangleArm resolveTriangleArm<float>(
    const TriangleMap&, const TriangleArmMap&, const char*, const RobotModel<float>&);
RETARGET_TEMPLATE_MAPPERS std::optional<TriangleMap> triangleMapFor<double>(const RobotModel<double>&);
RETARGET_TEMPLATE_MAPPERS std::optional<TriangleMap> triangleMapFor<float>(const RobotModel<float>&);
#endif

}  // namespace retarget
