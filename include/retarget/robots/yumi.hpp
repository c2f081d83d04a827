#pragma once

/// @file
/// Built-in model of the ABB YuMi (IRB 14000) dual-arm robot, data in this header.
///
/// Source of the numbers: links, joints (origins, axes, limits), masses and centres of mass
/// are transcribed from OrebroUniversity/yumi, file yumi_description/urdf/yumi.urdf, commit
/// fb7f57df05444e6a28df6eda26034de730b8f8fe (../shared/data/urdf/abb_yumi_irb14000.urdf) by
/// tests/robots/tools/urdf_to_table.py. Same link and joint names and frames as the URDF
/// (root `world`). Note the URDF's chain order: joint 7 sits between joints 2 and 3.
/// Position limits are the URDF's (e.g. joint 1 +-2.94 rad); the MoveIt configuration of the
/// same repository (abb_yumi_moveit_joint_limits.yaml) uses narrower ones (+-2.84 rad).
///
/// q has 16 coordinates in URDF document order: yumi_joint_{1,2,7,3,4,5,6}_r, the same for
/// _l, then gripper_r_joint and gripper_l_joint (prismatic, 0..0.025 m); the second finger of
/// each gripper (gripper_*_joint_m) is a mimic, as in the URDF.
///
/// Estimated (not from a source): the collision capsules (the URDF has meshes only); see
/// makeYumi().

#include <retarget/core/compilation.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/internal/robot_table.hpp>

namespace retarget {

namespace internal::yumi {
// Transcribed from abb_yumi_irb14000.urdf (see the file comment). Units: m, rad, kg.
inline constexpr RobotTableLink kLinks[] = {
    {"yumi_base_link", 0.0, {0.0, 0.0, 0.0}},
    {"yumi_body", 15.0, {0.0, 0.0, 0.0}},
    {"yumi_link_1_r", 2.0, {0.0, -0.03, 0.12}},
    {"yumi_link_2_r", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_3_r", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_4_r", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_5_r", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_6_r", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_7_r", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_1_l", 2.0, {0.0, -0.03, 0.12}},
    {"yumi_link_2_l", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_3_l", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_4_l", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_5_l", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_6_l", 2.0, {0.0, 0.0, 0.0}},
    {"yumi_link_7_l", 2.0, {0.0, 0.0, 0.0}},
    {"gripper_r_base", 0.2, {0.0, 0.0, 0.0}},
    {"gripper_r_finger_r", 0.01, {0.0, 0.0, 0.0}},
    {"gripper_r_finger_l", 0.01, {0.0, 0.0, 0.0}},
    {"gripper_l_base", 0.2, {0.0, 0.0, 0.0}},
    {"gripper_l_finger_r", 0.01, {0.0, 0.0, 0.0}},
    {"gripper_l_finger_l", 0.01, {0.0, 0.0, 0.0}},
    {"world", 0.0, {0.0, 0.0, 0.0}},
};
inline constexpr RobotTableJoint kJoints[] = {
    {"yumi_base_link_to_body", JointType::kFixed, "yumi_base_link", "yumi_body", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"yumi_joint_1_r", JointType::kRevolute, "yumi_body", "yumi_link_1_r", {0.05355, -0.0725, 0.41492}, {-0.9795, -0.5682, -2.3155}, {0.0, 0.0, 1.0},
     -2.94087978961, 2.94087978961, 3.14159265359, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_2_r", JointType::kRevolute, "yumi_link_1_r", "yumi_link_2_r", {0.03, 0.0, 0.1}, {1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.50454747661, 0.759218224618, 3.14159265359, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_7_r", JointType::kRevolute, "yumi_link_2_r", "yumi_link_3_r", {-0.03, 0.17283, 0.0}, {-1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.94087978961, 2.94087978961, 3.14159265359, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_3_r", JointType::kRevolute, "yumi_link_3_r", "yumi_link_4_r", {-0.04188, 0.0, 0.07873}, {1.57079632679, -1.57079632679, 0.0}, {0.0, 0.0, 1.0},
     -2.15548162621, 1.3962634016, 3.14159265359, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_4_r", JointType::kRevolute, "yumi_link_4_r", "yumi_link_5_r", {0.0405, 0.16461, 0.0}, {-1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -5.06145483078, 5.06145483078, 6.98131700798, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_5_r", JointType::kRevolute, "yumi_link_5_r", "yumi_link_6_r", {-0.027, 0.0, 0.10039}, {1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.53588974176, 2.40855436775, 6.98131700798, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_6_r", JointType::kRevolute, "yumi_link_6_r", "yumi_link_7_r", {0.027, 0.029, 0.0}, {-1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -3.99680398707, 3.99680398707, 6.98131700798, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_1_l", JointType::kRevolute, "yumi_body", "yumi_link_1_l", {0.05355, 0.0725, 0.41492}, {0.9781, -0.5716, 2.318}, {0.0, 0.0, 1.0},
     -2.94087978961, 2.94087978961, 3.14159265359, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_2_l", JointType::kRevolute, "yumi_link_1_l", "yumi_link_2_l", {0.03, 0.0, 0.1}, {1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.50454747661, 0.759218224618, 3.14159265359, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_7_l", JointType::kRevolute, "yumi_link_2_l", "yumi_link_3_l", {-0.03, 0.17283, 0.0}, {-1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.94087978961, 2.94087978961, 3.14159265359, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_3_l", JointType::kRevolute, "yumi_link_3_l", "yumi_link_4_l", {-0.04188, 0.0, 0.07873}, {1.57079632679, -1.57079632679, 0.0}, {0.0, 0.0, 1.0},
     -2.15548162621, 1.3962634016, 3.14159265359, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_4_l", JointType::kRevolute, "yumi_link_4_l", "yumi_link_5_l", {0.0405, 0.16461, 0.0}, {-1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -5.06145483078, 5.06145483078, 6.98131700798, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_5_l", JointType::kRevolute, "yumi_link_5_l", "yumi_link_6_l", {-0.027, 0.0, 0.10039}, {1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.53588974176, 2.40855436775, 6.98131700798, 300.0, nullptr, 1.0, 0.0},
    {"yumi_joint_6_l", JointType::kRevolute, "yumi_link_6_l", "yumi_link_7_l", {0.027, 0.029, 0.0}, {-1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -3.99680398707, 3.99680398707, 6.98131700798, 300.0, nullptr, 1.0, 0.0},
    {"yumi_link_7_r_joint", JointType::kFixed, "yumi_link_7_r", "gripper_r_base", {0.0, 0.0, 0.007}, {0.0, 0.0, 3.14159265359}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"gripper_r_joint", JointType::kPrismatic, "gripper_r_base", "gripper_r_finger_r", {0.0, -0.0065, 0.0837}, {0.0, 0.0, 0.0}, {-1.0, 0.0, 0.0},
     0.0, 0.025, 2.0, 20.0, nullptr, 1.0, 0.0},
    {"gripper_r_joint_m", JointType::kPrismatic, "gripper_r_base", "gripper_r_finger_l", {0.0, 0.0065, 0.0837}, {0.0, 0.0, 3.14159265359}, {-1.0, 0.0, 0.0},
     0.0, 0.025, 2.0, 20.0, "gripper_r_joint", 1.0, 0.0},
    {"yumi_link_7_l_joint", JointType::kFixed, "yumi_link_7_l", "gripper_l_base", {0.0, 0.0, 0.007}, {0.0, 0.0, 3.14159265359}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"gripper_l_joint", JointType::kPrismatic, "gripper_l_base", "gripper_l_finger_r", {0.0, -0.0065, 0.0837}, {0.0, 0.0, 0.0}, {-1.0, 0.0, 0.0},
     0.0, 0.025, 2.0, 20.0, nullptr, 1.0, 0.0},
    {"gripper_l_joint_m", JointType::kPrismatic, "gripper_l_base", "gripper_l_finger_l", {0.0, 0.0065, 0.0837}, {0.0, 0.0, 3.14159265359}, {-1.0, 0.0, 0.0},
     0.0, 0.025, 2.0, 20.0, "gripper_l_joint", 1.0, 0.0},
    {"world_joint", JointType::kFixed, "world", "yumi_base_link", {0.0, 0.0, 0.1}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
};
// The URDF has no primitive collision geometry (meshes only).
}  // namespace internal::yumi

/// Builds the YuMi model (16 coordinates: rad for the arms, m for the grippers) with an
/// estimated collision model: a body capsule on `yumi_body` from (-0.05, 0, 0.05) to
/// (-0.05, 0, 0.30), radius 0.13 m, and one capsule per arm link from its origin to the
/// origin of the next joint ("<link>_segment"), radius 0.05 m for links 1-4 and 0.04 m for
/// links 5-7 (link 7 ends at the gripper mount). Never throws for the built-in data.
template <typename Scalar = double>
RobotModel<Scalar> makeYumi() {
  using V = Vector3<Scalar>;
  const auto s = [](double v) { return static_cast<Scalar>(v); };
  RobotModelBuilder<Scalar> builder("yumi");
  internal::fillFromTables(builder, internal::yumi::kLinks, internal::yumi::kJoints, nullptr, 0);
  builder.addCollision("yumi_body", internal::capsuleShape<Scalar>("body", V(s(-0.05), 0, s(0.05)),
                                                                   V(s(-0.05), 0, s(0.30)), s(0.13)));
  // Written out so that every name is a string literal (SegmentCapsule holds const char*).
  const std::vector<internal::SegmentCapsule> segments = {
      {"yumi_link_1_r", "yumi_joint_2_r", "yumi_link_1_r_segment", 0.05},
      {"yumi_link_2_r", "yumi_joint_7_r", "yumi_link_2_r_segment", 0.05},
      {"yumi_link_3_r", "yumi_joint_3_r", "yumi_link_3_r_segment", 0.05},
      {"yumi_link_4_r", "yumi_joint_4_r", "yumi_link_4_r_segment", 0.05},
      {"yumi_link_5_r", "yumi_joint_5_r", "yumi_link_5_r_segment", 0.04},
      {"yumi_link_6_r", "yumi_joint_6_r", "yumi_link_6_r_segment", 0.04},
      {"yumi_link_7_r", "yumi_link_7_r_joint", "yumi_link_7_r_segment", 0.04},
      {"yumi_link_1_l", "yumi_joint_2_l", "yumi_link_1_l_segment", 0.05},
      {"yumi_link_2_l", "yumi_joint_7_l", "yumi_link_2_l_segment", 0.05},
      {"yumi_link_3_l", "yumi_joint_3_l", "yumi_link_3_l_segment", 0.05},
      {"yumi_link_4_l", "yumi_joint_4_l", "yumi_link_4_l_segment", 0.05},
      {"yumi_link_5_l", "yumi_joint_5_l", "yumi_link_5_l_segment", 0.04},
      {"yumi_link_6_l", "yumi_joint_6_l", "yumi_link_6_l_segment", 0.04},
      {"yumi_link_7_l", "yumi_link_7_l_joint", "yumi_link_7_l_segment", 0.04},
  };
  internal::addSegmentCapsules(builder, internal::yumi::kJoints, segments);
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makeYumi<double>();
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makeYumi<float>();
#endif

}  // namespace retarget
