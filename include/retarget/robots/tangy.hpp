#pragma once

/// @file
/// Built-in model of Tangy, the dual-arm social robot of seed 001 (self-collision-aware
/// gesture imitation): two 4-DOF arms from the Denavit-Hartenberg tables of its Appendix A,
/// and the body collision model of its Section 3 (Figure 8: three spheres, eleven capsules).
///
/// Source of the numbers (seed 001, Appendix A): standard DH rows (Eq. A1,
/// X_{i-1,i} = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)); d1 = 239 mm (upper arm),
/// d2 = 410 mm (forearm), t1 = 170 mm (torso centre {w} to shoulder {m}). Table A1 (left arm,
/// joints theta1..theta4) and Table A2 (right arm, theta5..theta8):
///
/// | frame | theta | d | a | alpha |
/// |---|---|---|---|---|
/// | {m} | 0 | 0 | +-t1 | 0 |
/// | {0} | pi | 0 | 0 | pi/2 |
/// | {1} shoulder roll | q1 - pi | 0 | 0 | pi/2 |
/// | {2} shoulder pitch | q2 + pi | 0 | 0 | pi/2 |
/// | {3} shoulder yaw | q3 + pi | d1 | 0 | -pi/2 |
/// | {4} elbow roll | q4 - pi | 0 | d2 | pi/2 |
///
/// Reconstructed (the text extraction of the seed lost symbols, so these are our reading):
/// - Every twist is printed as "pi" or "-pi"; with alpha = +-pi all joint axes would be
///   parallel and the elbow could not move, which contradicts the seed's own elbow formulas
///   (they depend on theta1 and theta2). We read the twists as +-pi/2 with the printed signs.
/// - Both tables print a = t1 for {m}; the printed position formulas put the right arm at
///   +t1 and the left arm at -t1 along x_w, so the left arm uses a = -t1.
/// - The closed-form elbow / end-effector positions printed in Appendix A are not
///   self-consistent (y_elbow and z_elbow are printed identical, terms such as "t1d1" have
///   units of area, and the printed elbow does not stay d1 from the shoulder); the tests
///   check our chain against closed forms derived from the tables instead, and show the
///   printed elbow formula violating the fixed upper-arm length.
/// - Frame {w} axes: x towards the right shoulder (from the printed +t1 / -t1); with the
///   reconstructed twists the shoulder-roll axis is y_w, and the arm hangs down for
///   (roll, pitch) = (-pi/2, pi/2), so y_w points forward and z_w up. The root link `base` is
///   the library's canonical frame (x forward, y left, z up); `torso` is {w}, at
///   X_base_torso = Rz(-pi/2).
///
/// Estimated (the seed gives no numbers): joint limits (+-pi on every joint), masses (zero),
/// and every collision dimension below, sized for a robot of Tangy's proportions (about 1.2
/// m tall; shoulders 0.34 m apart per t1). Shapes in frame {w} = `torso` unless noted (m):
///
/// | shape | kind | segment / centre | radius |
/// |---|---|---|---|
/// | upper_torso_core | capsule | (0, 0, 0) .. (0, 0, -0.30) | 0.10 |
/// | upper_torso_shoulders | capsule | (-0.11, 0, 0) .. (0.11, 0, 0) | 0.07 |
/// | screen_top | capsule | (-0.13, 0.12, -0.04) .. (0.13, 0.12, -0.04) | 0.02 |
/// | screen_left | capsule | (-0.13, 0.12, -0.04) .. (-0.13, 0.12, -0.22) | 0.02 |
/// | screen_right | capsule | (0.13, 0.12, -0.04) .. (0.13, 0.12, -0.22) | 0.02 |
/// | screen_bottom | capsule | (-0.13, 0.12, -0.22) .. (0.13, 0.12, -0.22) | 0.03 |
/// | cable_left / cable_right | sphere | (-+0.13, 0.12, -0.25) | 0.03 |
/// | lower_torso | capsule | (0, 0, -0.36) .. (0, 0, -0.66) | 0.15 |
/// | head | sphere | (0, 0, 0.20) | 0.10 |
/// | {l,r}_upper_arm (link {2}) | capsule | (0, 0, 0) .. (0, 0, d1) | 0.05 |
/// | {l,r}_forearm (link {4}) | capsule | (-d2, 0, 0) .. (0, 0, 0) | 0.045 |
///
/// (the first five are the seed's "five capsules" of the upper torso.)

#include <array>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/kinematics/denavit_hartenberg.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/internal/robot_table.hpp>

namespace retarget {

/// Tangy's link lengths (seed 001, Appendix A), in m.
inline constexpr double kTangyUpperArm = 0.239;  ///< d1
inline constexpr double kTangyForearm = 0.410;   ///< d2
inline constexpr double kTangyShoulderOffset = 0.170;  ///< t1

/// The 8 configuration coordinates of the built-in Tangy, in q order = the seed's
/// theta1..theta4 (left arm) and theta5..theta8 (right arm).
inline const std::array<const char*, 8> kTangyJointNames = {
    "l_shoulder_roll", "l_shoulder_pitch", "l_shoulder_yaw", "l_elbow_roll",
    "r_shoulder_roll", "r_shoulder_pitch", "r_shoulder_yaw", "r_elbow_roll"};

/// The four DH rows {1}..{4} of one Tangy arm (seed 001 Tables A1/A2, twists read as +-pi/2,
/// see the file comment). `prefix` is "l_" or "r_". Limits +-pi (estimated).
template <typename Scalar = double>
std::vector<DhRow<Scalar>> tangyArmDhRows(const std::string& prefix) {
  const Scalar pi = kPi<Scalar>;
  const Scalar half = pi / 2;
  JointLimits<Scalar> limits;
  limits.lower = -pi;
  limits.upper = pi;
  const auto s = [](double v) { return static_cast<Scalar>(v); };
  return {
      DhRow<Scalar>{prefix + "shoulder_roll", 0, half, 0, -pi, JointType::kRevolute, limits},
      DhRow<Scalar>{prefix + "shoulder_pitch", 0, half, 0, pi, JointType::kRevolute, limits},
      DhRow<Scalar>{prefix + "shoulder_yaw", 0, -half, s(kTangyUpperArm), pi, JointType::kRevolute, limits},
      DhRow<Scalar>{prefix + "elbow_roll", s(kTangyForearm), half, 0, -pi, JointType::kRevolute, limits},
  };
}

/// Builds the Tangy model: root `base` (canonical x forward, y left, z up), `torso` = the
/// seed's frame {w}, per arm fixed links `<p>frame_m` and `<p>frame_0` and DH links
/// `<p>link1`..`<p>link4` (frame i = DH frame {i}: `<p>link3` is the elbow frame {3},
/// `<p>link4` the end-effector frame {4}), 8 coordinates ordered as kTangyJointNames, and the
/// 14-shape collision model of the file comment. Never throws for the built-in data.
template <typename Scalar = double>
RobotModel<Scalar> makeTangy() {
  using V = Vector3<Scalar>;
  using internal::capsuleShape;
  const auto s = [](double v) { return static_cast<Scalar>(v); };
  RobotModelBuilder<Scalar> builder("tangy");
  builder.addLink("base");
  builder.addLink("torso");
  JointSpec<Scalar> mount;
  mount.name = "base_to_torso";
  mount.type = JointType::kFixed;
  mount.parent_link = "base";
  mount.child_link = "torso";
  mount.X_PJ.linear() = Eigen::AngleAxis<Scalar>(-kPi<Scalar> / 2, V::UnitZ()).toRotationMatrix();
  builder.addJoint(mount);
  for (const char* prefix : {"l_", "r_"}) {
    const std::string p = prefix;
    const Scalar side = p == "l_" ? Scalar(-1) : Scalar(1);
    builder.addLink(p + "frame_m");
    builder.addLink(p + "frame_0");
    JointSpec<Scalar> to_m;  // Row {m}: theta 0, d 0, a +-t1, alpha 0.
    to_m.name = p + "torso_to_frame_m";
    to_m.type = JointType::kFixed;
    to_m.parent_link = "torso";
    to_m.child_link = p + "frame_m";
    to_m.X_PJ.translation() = V(side * s(kTangyShoulderOffset), 0, 0);
    builder.addJoint(to_m);
    JointSpec<Scalar> to_0;  // Row {0}: theta pi, d 0, a 0, alpha pi/2.
    to_0.name = p + "frame_m_to_frame_0";
    to_0.type = JointType::kFixed;
    to_0.parent_link = p + "frame_m";
    to_0.child_link = p + "frame_0";
    to_0.X_PJ = internal::rotZ(kPi<Scalar>) * internal::rotX(kPi<Scalar> / 2);
    builder.addJoint(to_0);
    appendDhChain(builder, p + "frame_0", tangyArmDhRows<Scalar>(p), DhConvention::kStandard, p + "link");
  }
  builder.setConfigurationOrder(std::vector<std::string>(kTangyJointNames.begin(), kTangyJointNames.end()));

  const auto add = [&](const std::string& link, const std::string& name, const V& a, const V& b, double radius) {
    builder.addCollision(link, capsuleShape<Scalar>(name, a, b, s(radius)));
  };
  add("torso", "upper_torso_core", V(0, 0, 0), V(0, 0, s(-0.30)), 0.10);
  add("torso", "upper_torso_shoulders", V(s(-0.11), 0, 0), V(s(0.11), 0, 0), 0.07);
  add("torso", "screen_top", V(s(-0.13), s(0.12), s(-0.04)), V(s(0.13), s(0.12), s(-0.04)), 0.02);
  add("torso", "screen_left", V(s(-0.13), s(0.12), s(-0.04)), V(s(-0.13), s(0.12), s(-0.22)), 0.02);
  add("torso", "screen_right", V(s(0.13), s(0.12), s(-0.04)), V(s(0.13), s(0.12), s(-0.22)), 0.02);
  add("torso", "screen_bottom", V(s(-0.13), s(0.12), s(-0.22)), V(s(0.13), s(0.12), s(-0.22)), 0.03);
  add("torso", "cable_left", V(s(-0.13), s(0.12), s(-0.25)), V(s(-0.13), s(0.12), s(-0.25)), 0.03);
  add("torso", "cable_right", V(s(0.13), s(0.12), s(-0.25)), V(s(0.13), s(0.12), s(-0.25)), 0.03);
  add("torso", "lower_torso", V(0, 0, s(-0.36)), V(0, 0, s(-0.66)), 0.15);
  add("torso", "head", V(0, 0, s(0.20)), V(0, 0, s(0.20)), 0.10);
  for (const char* prefix : {"l_", "r_"}) {
    const std::string p = prefix;
    add(p + "link2", p + "upper_arm", V(0, 0, 0), V(0, 0, s(kTangyUpperArm)), 0.05);
    add(p + "link4", p + "forearm", V(s(-kTangyForearm), 0, 0), V(0, 0, 0), 0.045);
  }
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS std::vector<DhRow<double>> tangyArmDhRows<double>(const std::string&);
RETARGET_TEMPLATE_ROBOTS std::vector<DhRow<float>> tangyArmDhRows<float>(const std::string&);
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makeTangy<double>();
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makeTangy<float>();
#endif

}  // namespace retarget
