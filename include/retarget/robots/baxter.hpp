#pragma once

/// @file
/// Built-in model of the Baxter dual-arm robot (Rethink Robotics), data in this header.
///
/// Source of the numbers: everything (links, joints, limits, masses, centres of mass and
/// the collision primitives) is transcribed from RethinkRobotics/baxter_common, file
/// baxter_description/urdf/baxter.urdf, commit 6c4b0f375fe4e356a3b12df26ef7c0d5e58df86e
/// (../shared/data/urdf/baxter.urdf) by tests/robots/tools/urdf_to_table.py. Same link and
/// joint names and frames as the URDF (root `base`).
///
/// q has 15 coordinates in URDF document order: head_pan, then right_s0, right_s1, right_e0,
/// right_e1, right_w0, right_w1, right_w2, then the same seven for the left arm.
///
/// Collision model: the URDF's primitives converted as the URDF reader does (cylinders to
/// the capsule on their axis, spheres exact; see internal::collisionFromPrimitive), named
/// "<link>_collision<k>". They include the URDF's two 0.22 m head spheres and its 1 mm
/// placeholder spheres on head, sonar_ring and screen. Nothing here is estimated.

#include <retarget/core/compilation.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/internal/robot_table.hpp>

namespace retarget {

namespace internal::baxter {
// Transcribed from baxter.urdf (see the file comment). Units: m, rad, kg.
inline constexpr RobotTableLink kLinks[] = {
    {"base", 0.0, {0.0, 0.0, 0.0}},
    {"torso", 35.336455, {0.0, 0.0, 0.0}},
    {"left_torso_itb", 0.0001, {0.0, 0.0, 0.0}},
    {"right_torso_itb", 0.0001, {0.0, 0.0, 0.0}},
    {"pedestal", 60.86397744, {0.0, 0.0, 0.0}},
    {"head", 0.547767, {0.0, 0.0, 0.0}},
    {"sonar_ring", 0.0001, {0.0, 0.0, 0.0}},
    {"screen", 0.440171, {0.0, 0.0, 0.0}},
    {"display", 0.0001, {0.0, 0.0, 0.0}},
    {"head_camera", 0.0001, {0.0, 0.0, 0.0}},
    {"dummyhead1", 0.0001, {0.0, 0.0, 0.0}},
    {"collision_head_link_1", 0.0001, {0.0, 0.0, 0.0}},
    {"collision_head_link_2", 0.0001, {0.0, 0.0, 0.0}},
    {"right_arm_mount", 0.0001, {0.0, 0.0, 0.0}},
    {"right_upper_shoulder", 5.70044, {0.01783, 0.00086, 0.19127}},
    {"right_lower_shoulder", 3.22698, {0.06845, 0.00269, -0.00529}},
    {"right_upper_elbow", 4.31272, {-0.00276, 0.00132, 0.18086}},
    {"right_upper_elbow_visual", 0.0001, {0.0, 0.0, 0.0}},
    {"right_lower_elbow", 2.07206, {0.02611, 0.00159, -0.01117}},
    {"right_upper_forearm", 2.24665, {-0.00168, 0.0046, 0.13952}},
    {"right_upper_forearm_visual", 0.0001, {0.0, 0.0, 0.0}},
    {"right_arm_itb", 0.0001, {0.0, 0.0, 0.0}},
    {"right_lower_forearm", 1.60979, {0.06041, 0.00697, 0.006}},
    {"right_wrist", 0.35093, {0.00198, 0.00125, 0.01855}},
    {"right_hand", 0.19125, {0.01093, 0.00042, -0.01532}},
    {"right_hand_camera", 0.0001, {0.0, 0.0, 0.0}},
    {"right_hand_camera_axis", 0.0001, {0.0, 0.0, 0.0}},
    {"right_hand_range", 0.0001, {0.0, 0.0, 0.0}},
    {"right_hand_accelerometer", 0.0001, {0.0, 0.0, 0.0}},
    {"right_gripper_base", 0.0001, {0.0, 0.0, 0.0}},
    {"right_gripper", 0.0001, {0.0, 0.0, 0.0}},
    {"left_arm_mount", 0.0001, {0.0, 0.0, 0.0}},
    {"left_upper_shoulder", 5.70044, {0.01783, 0.00086, 0.19127}},
    {"left_lower_shoulder", 3.22698, {0.06845, 0.00269, -0.00529}},
    {"left_upper_elbow", 4.31272, {-0.00276, 0.00132, 0.18086}},
    {"left_upper_elbow_visual", 0.0001, {0.0, 0.0, 0.0}},
    {"left_lower_elbow", 2.07206, {0.02611, 0.00159, -0.01117}},
    {"left_upper_forearm", 2.24665, {-0.00168, 0.0046, 0.13952}},
    {"left_upper_forearm_visual", 0.0001, {0.0, 0.0, 0.0}},
    {"left_arm_itb", 0.0001, {0.0, 0.0, 0.0}},
    {"left_lower_forearm", 1.60979, {0.06041, 0.00697, 0.006}},
    {"left_wrist", 0.35093, {0.00198, 0.00125, 0.01855}},
    {"left_hand", 0.19125, {0.01093, 0.00042, -0.01532}},
    {"left_hand_camera", 0.0001, {0.0, 0.0, 0.0}},
    {"left_hand_camera_axis", 0.0001, {0.0, 0.0, 0.0}},
    {"left_hand_range", 0.0001, {0.0, 0.0, 0.0}},
    {"left_hand_accelerometer", 0.0001, {0.0, 0.0, 0.0}},
    {"left_gripper_base", 0.0001, {0.0, 0.0, 0.0}},
    {"left_gripper", 0.0001, {0.0, 0.0, 0.0}},
};
inline constexpr RobotTableJoint kJoints[] = {
    {"collision_head_1", JointType::kFixed, "base", "collision_head_link_1", {0.11, 0.0, 0.75}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"collision_head_2", JointType::kFixed, "base", "collision_head_link_2", {0.11, 0.0, 0.75}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"dummy", JointType::kFixed, "head", "dummyhead1", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"torso_t0", JointType::kFixed, "base", "torso", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, 10000.0, 50000.0, nullptr, 1.0, 0.0},
    {"left_torso_itb_fixed", JointType::kFixed, "torso", "left_torso_itb", {-0.08897, 0.15593, 0.389125}, {-1.57079632679, 3.1415, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_torso_itb_fixed", JointType::kFixed, "torso", "right_torso_itb", {-0.08897, -0.15593, 0.389125}, {1.57079632679, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"pedestal_fixed", JointType::kFixed, "torso", "pedestal", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"head_pan", JointType::kRevolute, "torso", "head", {0.06, 0.0, 0.686}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.57079632679, 1.57079632679, 10000.0, 50000.0, nullptr, 1.0, 0.0},
    {"head_nod", JointType::kFixed, "head", "screen", {0.1227, 0.0, 0.0}, {1.75057, 0.0, 1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"head_camera", JointType::kFixed, "head", "head_camera", {0.12839, 0.0, 0.06368}, {1.75057, 0.0, 1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"display_joint", JointType::kFixed, "screen", "display", {0.0, -0.016, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"sonar_s0", JointType::kFixed, "torso", "sonar_ring", {0.0947, 0.0, 0.817}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_torso_arm_mount", JointType::kFixed, "torso", "right_arm_mount", {0.024645, -0.219645, 0.118588}, {0.0, 0.0, -0.7854}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_s0", JointType::kRevolute, "right_arm_mount", "right_upper_shoulder", {0.055695, 0.0, 0.011038}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.70167993878, 1.70167993878, 1.5, 50.0, nullptr, 1.0, 0.0},
    {"right_s1", JointType::kRevolute, "right_upper_shoulder", "right_lower_shoulder", {0.069, 0.0, 0.27035}, {-1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.147, 1.047, 1.5, 100.0, nullptr, 1.0, 0.0},
    {"right_e0", JointType::kRevolute, "right_lower_shoulder", "right_upper_elbow", {0.102, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -3.05417993878, 3.05417993878, 1.5, 50.0, nullptr, 1.0, 0.0},
    {"right_e0_fixed", JointType::kFixed, "right_lower_shoulder", "right_upper_elbow_visual", {0.107, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_e1", JointType::kRevolute, "right_upper_elbow", "right_lower_elbow", {0.069, 0.0, 0.26242}, {-1.57079632679, -1.57079632679, 0.0}, {0.0, 0.0, 1.0},
     -0.05, 2.618, 1.5, 50.0, nullptr, 1.0, 0.0},
    {"right_w0", JointType::kRevolute, "right_lower_elbow", "right_upper_forearm", {0.10359, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -3.059, 3.059, 4.0, 15.0, nullptr, 1.0, 0.0},
    {"right_w0_fixed", JointType::kFixed, "right_lower_elbow", "right_upper_forearm_visual", {0.088, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_w0_to_itb_fixed", JointType::kFixed, "right_upper_forearm", "right_arm_itb", {-0.0565, 0.0, 0.12}, {-1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_w1", JointType::kRevolute, "right_upper_forearm", "right_lower_forearm", {0.01, 0.0, 0.2707}, {-1.57079632679, -1.57079632679, 0.0}, {0.0, 0.0, 1.0},
     -1.57079632679, 2.094, 4.0, 15.0, nullptr, 1.0, 0.0},
    {"right_w2", JointType::kRevolute, "right_lower_forearm", "right_wrist", {0.115975, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -3.059, 3.059, 4.0, 15.0, nullptr, 1.0, 0.0},
    {"right_hand", JointType::kFixed, "right_wrist", "right_hand", {0.0, 0.0, 0.11355}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_hand_camera", JointType::kFixed, "right_hand", "right_hand_camera", {0.03825, 0.012, 0.015355}, {0.0, 0.0, -1.57079633}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_hand_camera_axis", JointType::kFixed, "right_hand", "right_hand_camera_axis", {0.03825, 0.012, 0.015355}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_hand_range", JointType::kFixed, "right_hand", "right_hand_range", {0.032, -0.020245, 0.0288}, {0.0, -1.57079632679, -1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_hand_accelerometer", JointType::kFixed, "right_hand", "right_hand_accelerometer", {0.00198, 0.000133, -0.0146}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_gripper_base", JointType::kFixed, "right_hand", "right_gripper_base", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_endpoint", JointType::kFixed, "right_gripper_base", "right_gripper", {0.0, 0.0, 0.025}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_torso_arm_mount", JointType::kFixed, "torso", "left_arm_mount", {0.024645, 0.219645, 0.118588}, {0.0, 0.0, 0.7854}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_s0", JointType::kRevolute, "left_arm_mount", "left_upper_shoulder", {0.055695, 0.0, 0.011038}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.70167993878, 1.70167993878, 1.5, 50.0, nullptr, 1.0, 0.0},
    {"left_s1", JointType::kRevolute, "left_upper_shoulder", "left_lower_shoulder", {0.069, 0.0, 0.27035}, {-1.57079632679, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.147, 1.047, 1.5, 100.0, nullptr, 1.0, 0.0},
    {"left_e0", JointType::kRevolute, "left_lower_shoulder", "left_upper_elbow", {0.102, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -3.05417993878, 3.05417993878, 1.5, 50.0, nullptr, 1.0, 0.0},
    {"left_e0_fixed", JointType::kFixed, "left_lower_shoulder", "left_upper_elbow_visual", {0.107, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_e1", JointType::kRevolute, "left_upper_elbow", "left_lower_elbow", {0.069, 0.0, 0.26242}, {-1.57079632679, -1.57079632679, 0.0}, {0.0, 0.0, 1.0},
     -0.05, 2.618, 1.5, 50.0, nullptr, 1.0, 0.0},
    {"left_w0", JointType::kRevolute, "left_lower_elbow", "left_upper_forearm", {0.10359, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -3.059, 3.059, 4.0, 15.0, nullptr, 1.0, 0.0},
    {"left_w0_fixed", JointType::kFixed, "left_lower_elbow", "left_upper_forearm_visual", {0.088, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_w0_to_itb_fixed", JointType::kFixed, "left_upper_forearm", "left_arm_itb", {-0.0565, 0.0, 0.12}, {-1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_w1", JointType::kRevolute, "left_upper_forearm", "left_lower_forearm", {0.01, 0.0, 0.2707}, {-1.57079632679, -1.57079632679, 0.0}, {0.0, 0.0, 1.0},
     -1.57079632679, 2.094, 4.0, 15.0, nullptr, 1.0, 0.0},
    {"left_w2", JointType::kRevolute, "left_lower_forearm", "left_wrist", {0.115975, 0.0, 0.0}, {1.57079632679, 0.0, 1.57079632679}, {0.0, 0.0, 1.0},
     -3.059, 3.059, 4.0, 15.0, nullptr, 1.0, 0.0},
    {"left_hand", JointType::kFixed, "left_wrist", "left_hand", {0.0, 0.0, 0.11355}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_hand_camera", JointType::kFixed, "left_hand", "left_hand_camera", {0.03825, 0.012, 0.015355}, {0.0, 0.0, -1.57079633}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_hand_camera_axis", JointType::kFixed, "left_hand", "left_hand_camera_axis", {0.03825, 0.012, 0.015355}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_hand_range", JointType::kFixed, "left_hand", "left_hand_range", {0.032, -0.020245, 0.0288}, {0.0, -1.57079632679, -1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_hand_accelerometer", JointType::kFixed, "left_hand", "left_hand_accelerometer", {0.00198, 0.000133, -0.0146}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_gripper_base", JointType::kFixed, "left_hand", "left_gripper_base", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_endpoint", JointType::kFixed, "left_gripper_base", "left_gripper", {0.0, 0.0, 0.025}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
};
inline constexpr RobotTableShape kShapes[] = {
    {"head", "head_collision0", UrdfPrimitive::kSphere, {0.001, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"sonar_ring", "sonar_ring_collision0", UrdfPrimitive::kSphere, {0.001, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"screen", "screen_collision0", UrdfPrimitive::kSphere, {0.001, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"collision_head_link_1", "collision_head_link_1_collision0", UrdfPrimitive::kSphere, {0.22, 0.0, 0.0}, {-0.07, -0.04, 0.0}, {0.0, 0.0, 0.0}},
    {"collision_head_link_2", "collision_head_link_2_collision0", UrdfPrimitive::kSphere, {0.22, 0.0, 0.0}, {-0.07, 0.04, 0.0}, {0.0, 0.0, 0.0}},
    {"right_upper_shoulder", "right_upper_shoulder_collision0", UrdfPrimitive::kCylinder, {0.06, 0.2722, 0.0}, {0.0, 0.0, 0.1361}, {0.0, 0.0, 0.0}},
    {"right_lower_shoulder", "right_lower_shoulder_collision0", UrdfPrimitive::kCylinder, {0.06, 0.12, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"right_upper_elbow", "right_upper_elbow_collision0", UrdfPrimitive::kCylinder, {0.06, 0.107, 0.0}, {0.0, 0.0, -0.0535}, {0.0, 0.0, 0.0}},
    {"right_upper_elbow_visual", "right_upper_elbow_visual_collision0", UrdfPrimitive::kCylinder, {0.06, 0.273, 0.0}, {0.0, 0.0, 0.1365}, {0.0, 0.0, 0.0}},
    {"right_lower_elbow", "right_lower_elbow_collision0", UrdfPrimitive::kCylinder, {0.06, 0.1, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"right_upper_forearm", "right_upper_forearm_collision0", UrdfPrimitive::kCylinder, {0.06, 0.088, 0.0}, {0.0, 0.0, -0.044}, {0.0, 0.0, 0.0}},
    {"right_upper_forearm_visual", "right_upper_forearm_visual_collision0", UrdfPrimitive::kCylinder, {0.06, 0.272, 0.0}, {0.0, 0.0, 0.136}, {0.0, 0.0, 0.0}},
    {"right_lower_forearm", "right_lower_forearm_collision0", UrdfPrimitive::kCylinder, {0.06, 0.1, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"right_wrist", "right_wrist_collision0", UrdfPrimitive::kCylinder, {0.06, 0.165, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"right_hand", "right_hand_collision0", UrdfPrimitive::kCylinder, {0.04, 0.0464, 0.0}, {0.0, 0.0, -0.0232}, {0.0, 0.0, 0.0}},
    {"left_upper_shoulder", "left_upper_shoulder_collision0", UrdfPrimitive::kCylinder, {0.06, 0.2722, 0.0}, {0.0, 0.0, 0.1361}, {0.0, 0.0, 0.0}},
    {"left_lower_shoulder", "left_lower_shoulder_collision0", UrdfPrimitive::kCylinder, {0.06, 0.12, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"left_upper_elbow", "left_upper_elbow_collision0", UrdfPrimitive::kCylinder, {0.06, 0.107, 0.0}, {0.0, 0.0, -0.0535}, {0.0, 0.0, 0.0}},
    {"left_upper_elbow_visual", "left_upper_elbow_visual_collision0", UrdfPrimitive::kCylinder, {0.06, 0.273, 0.0}, {0.0, 0.0, 0.1365}, {0.0, 0.0, 0.0}},
    {"left_lower_elbow", "left_lower_elbow_collision0", UrdfPrimitive::kCylinder, {0.06, 0.1, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"left_upper_forearm", "left_upper_forearm_collision0", UrdfPrimitive::kCylinder, {0.06, 0.088, 0.0}, {0.0, 0.0, -0.044}, {0.0, 0.0, 0.0}},
    {"left_upper_forearm_visual", "left_upper_forearm_visual_collision0", UrdfPrimitive::kCylinder, {0.06, 0.272, 0.0}, {0.0, 0.0, 0.136}, {0.0, 0.0, 0.0}},
    {"left_lower_forearm", "left_lower_forearm_collision0", UrdfPrimitive::kCylinder, {0.06, 0.1, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"left_wrist", "left_wrist_collision0", UrdfPrimitive::kCylinder, {0.06, 0.165, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"left_hand", "left_hand_collision0", UrdfPrimitive::kCylinder, {0.04, 0.0464, 0.0}, {0.0, 0.0, -0.0232}, {0.0, 0.0, 0.0}},
};
}  // namespace internal::baxter

/// Builds the Baxter model (15 coordinates, rad). Never throws for the built-in data.
template <typename Scalar = double>
RobotModel<Scalar> makeBaxter() {
  RobotModelBuilder<Scalar> builder("baxter");
  internal::fillFromTables(builder, internal::baxter::kLinks, internal::baxter::kJoints, internal::baxter::kShapes,
                           sizeof(internal::baxter::kShapes) / sizeof(internal::baxter::kShapes[0]));
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makeBaxter<double>();
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makeBaxter<float>();
#endif

}  // namespace retarget
