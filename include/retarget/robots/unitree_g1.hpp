#pragma once

/// @file
/// Built-in model of the Unitree G1 humanoid, 29-DOF version (rev 1.0), data in this header.
///
/// Source of the numbers: everything (links, joints, limits, masses, centres of mass and the
/// collision primitives) is transcribed from unitreerobotics/unitree_ros, file
/// robots/g1_description/g1_29dof_rev_1_0.urdf, commit d6f13aad60320ce1d60a07b82a76b5a553f2a0a9
/// (../shared/data/urdf/unitree_g1_29dof_rev_1_0.urdf) by tests/robots/tools/urdf_to_table.py.
/// Same robot name ("g1_29dof_rev_1_0"), link and joint names and frames as the URDF (root
/// `pelvis`; the URDF's floating base joint is commented out upstream: a free base is
/// RobotData::X_WB), so this model and loadUrdf() of that file are interchangeable. Total mass
/// 33.34 kg.
///
/// q has 29 coordinates in URDF document order: left_hip_pitch_joint, left_hip_roll_joint,
/// left_hip_yaw_joint, left_knee_joint, left_ankle_pitch_joint, left_ankle_roll_joint, then the
/// same six for the right leg, then waist_yaw_joint, waist_roll_joint, waist_pitch_joint, then
/// left_shoulder_pitch_joint, left_shoulder_roll_joint, left_shoulder_yaw_joint,
/// left_elbow_joint, left_wrist_roll_joint, left_wrist_pitch_joint, left_wrist_yaw_joint, then
/// the same seven for the right arm. The head, IMUs, cameras, lidar and rubber hands hang from
/// fixed joints.
///
/// Collision model: the URDF's collision geometry is mostly meshes (24 of its 36 <collision>
/// elements; the mesh files are not shipped), which the URDF reader skips, so only its 12
/// primitives are here, converted as the URDF reader does (cylinders to the capsule on their
/// axis, spheres exact; see internal::collisionFromPrimitive) and named "<link>_collision<k>",
/// k counting the link's <collision> elements meshes included: four contact spheres (radius
/// 5 mm) under each foot (the ankle_roll links) and one cylinder on each shoulder_pitch and
/// shoulder_roll link. Everything else (pelvis, torso, head, thighs, shins, upper arms, forearms,
/// wrists, hands) has no collision shape. Nothing here is estimated.
///
/// Copyright (c) 2016-2022 HangZhou YuShu TECHNOLOGY CO.,LTD. ("Unitree Robotics"): the
/// transcribed data is used under the BSD 3-Clause License of unitree_ros (full notice below).

// Licence of the transcribed data: unitreerobotics/unitree_ros is distributed under the
// BSD 3-Clause License, whose notice, conditions and disclaimer follow as that licence requires.
//
// Copyright (c) 2016-2022 HangZhou YuShu TECHNOLOGY CO.,LTD. ("Unitree Robotics")
// All rights reserved.
//
// Redistribution and use in source and binary forms, with or without
// modification, are permitted provided that the following conditions are met:
//
// * Redistributions of source code must retain the above copyright notice, this
//   list of conditions and the following disclaimer.
//
// * Redistributions in binary form must reproduce the above copyright notice,
//   this list of conditions and the following disclaimer in the documentation
//   and/or other materials provided with the distribution.
//
// * Neither the name of the copyright holder nor the names of its
//   contributors may be used to endorse or promote products derived from
//   this software without specific prior written permission.
//
// THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS"
// AND ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
// IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE ARE
// DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE
// FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
// DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR
// SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION) HOWEVER
// CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY,
// OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE
// OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.

#include <retarget/core/compilation.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/internal/robot_table.hpp>

namespace retarget {

namespace internal::unitree_g1 {
// Transcribed from unitree_g1_29dof_rev_1_0.urdf (see the file comment). Units: m, rad, kg.
inline constexpr RobotTableLink kLinks[] = {
    {"pelvis", 3.813, {0.0, 0.0, -0.07605}},
    {"pelvis_contour_link", 0.001, {0.0, 0.0, 0.0}},
    {"left_hip_pitch_link", 1.35, {0.002741, 0.047791, -0.02606}},
    {"left_hip_roll_link", 1.52, {0.029812, -0.001045, -0.087934}},
    {"left_hip_yaw_link", 1.702, {-0.057709, -0.010981, -0.15078}},
    {"left_knee_link", 1.932, {0.005457, 0.003964, -0.12074}},
    {"left_ankle_pitch_link", 0.074, {-0.007269, 0.0, 0.011137}},
    {"left_ankle_roll_link", 0.608, {0.026505, 0.0, -0.016425}},
    {"right_hip_pitch_link", 1.35, {0.002741, -0.047791, -0.02606}},
    {"right_hip_roll_link", 1.52, {0.029812, 0.001045, -0.087934}},
    {"right_hip_yaw_link", 1.702, {-0.057709, 0.010981, -0.15078}},
    {"right_knee_link", 1.932, {0.005457, -0.003964, -0.12074}},
    {"right_ankle_pitch_link", 0.074, {-0.007269, 0.0, 0.011137}},
    {"right_ankle_roll_link", 0.608, {0.026505, 0.0, -0.016425}},
    {"waist_yaw_link", 0.214, {0.003494, 0.000233, 0.018034}},
    {"waist_roll_link", 0.086, {0.0, 2.3e-05, 0.0}},
    {"torso_link", 6.78, {0.000931, 0.000346, 0.15082}},
    {"logo_link", 0.001, {0.0, 0.0, 0.0}},
    {"head_link", 1.036, {0.005267, 0.000299, 0.449869}},
    {"imu_in_torso", 0.0, {0.0, 0.0, 0.0}},
    {"imu_in_pelvis", 0.0, {0.0, 0.0, 0.0}},
    {"d435_link", 0.0, {0.0, 0.0, 0.0}},
    {"mid360_link", 0.0, {0.0, 0.0, 0.0}},
    {"left_shoulder_pitch_link", 0.718, {0.0, 0.035892, -0.011628}},
    {"left_shoulder_roll_link", 0.643, {-0.000227, 0.00727, -0.063243}},
    {"left_shoulder_yaw_link", 0.734, {0.010773, -0.002949, -0.072009}},
    {"left_elbow_link", 0.6, {0.064956, 0.004454, -0.010062}},
    {"left_wrist_roll_link", 0.08544498, {0.01713944778, 0.00053759094, 4.8864e-07}},
    {"left_wrist_pitch_link", 0.48404956, {0.02299989837, -0.00111685314, -0.00111658096}},
    {"left_wrist_yaw_link", 0.08457647, {0.02200381568, 0.00049485096, 0.00053861123}},
    {"left_rubber_hand", 0.17, {0.05361310808, -0.0029590524, 0.00215413091}},
    {"right_shoulder_pitch_link", 0.718, {0.0, -0.035892, -0.011628}},
    {"right_shoulder_roll_link", 0.643, {-0.000227, -0.00727, -0.063243}},
    {"right_shoulder_yaw_link", 0.734, {0.010773, 0.002949, -0.072009}},
    {"right_elbow_link", 0.6, {0.064956, -0.004454, -0.010062}},
    {"right_wrist_roll_link", 0.08544498, {0.01713944778, -0.00053759094, 4.8864e-07}},
    {"right_wrist_pitch_link", 0.48404956, {0.02299989837, 0.00111685314, -0.00111658096}},
    {"right_wrist_yaw_link", 0.08457647, {0.02200381568, -0.00049485096, 0.00053861123}},
    {"right_rubber_hand", 0.17, {0.05361310808, 0.0029590524, 0.00215413091}},
};
inline constexpr RobotTableJoint kJoints[] = {
    {"pelvis_contour_joint", JointType::kFixed, "pelvis", "pelvis_contour_link", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_hip_pitch_joint", JointType::kRevolute, "pelvis", "left_hip_pitch_link", {0.0, 0.064452, -0.1027}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -2.5307, 2.8798, 32.0, 88.0, nullptr, 1.0, 0.0},
    {"left_hip_roll_joint", JointType::kRevolute, "left_hip_pitch_link", "left_hip_roll_link", {0.0, 0.052, -0.030465}, {0.0, -0.1749, 0.0}, {1.0, 0.0, 0.0},
     -0.5236, 2.9671, 20.0, 139.0, nullptr, 1.0, 0.0},
    {"left_hip_yaw_joint", JointType::kRevolute, "left_hip_roll_link", "left_hip_yaw_link", {0.025001, 0.0, -0.12412}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.7576, 2.7576, 32.0, 88.0, nullptr, 1.0, 0.0},
    {"left_knee_joint", JointType::kRevolute, "left_hip_yaw_link", "left_knee_link", {-0.078273, 0.0021489, -0.17734}, {0.0, 0.1749, 0.0}, {0.0, 1.0, 0.0},
     -0.087267, 2.8798, 20.0, 139.0, nullptr, 1.0, 0.0},
    {"left_ankle_pitch_joint", JointType::kRevolute, "left_knee_link", "left_ankle_pitch_link", {0.0, -9.4445e-05, -0.30001}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.87267, 0.5236, 30.0, 35.0, nullptr, 1.0, 0.0},
    {"left_ankle_roll_joint", JointType::kRevolute, "left_ankle_pitch_link", "left_ankle_roll_link", {0.0, 0.0, -0.017558}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.2618, 0.2618, 30.0, 35.0, nullptr, 1.0, 0.0},
    {"right_hip_pitch_joint", JointType::kRevolute, "pelvis", "right_hip_pitch_link", {0.0, -0.064452, -0.1027}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -2.5307, 2.8798, 32.0, 88.0, nullptr, 1.0, 0.0},
    {"right_hip_roll_joint", JointType::kRevolute, "right_hip_pitch_link", "right_hip_roll_link", {0.0, -0.052, -0.030465}, {0.0, -0.1749, 0.0}, {1.0, 0.0, 0.0},
     -2.9671, 0.5236, 20.0, 139.0, nullptr, 1.0, 0.0},
    {"right_hip_yaw_joint", JointType::kRevolute, "right_hip_roll_link", "right_hip_yaw_link", {0.025001, 0.0, -0.12412}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.7576, 2.7576, 32.0, 88.0, nullptr, 1.0, 0.0},
    {"right_knee_joint", JointType::kRevolute, "right_hip_yaw_link", "right_knee_link", {-0.078273, -0.0021489, -0.17734}, {0.0, 0.1749, 0.0}, {0.0, 1.0, 0.0},
     -0.087267, 2.8798, 20.0, 139.0, nullptr, 1.0, 0.0},
    {"right_ankle_pitch_joint", JointType::kRevolute, "right_knee_link", "right_ankle_pitch_link", {0.0, 9.4445e-05, -0.30001}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.87267, 0.5236, 30.0, 35.0, nullptr, 1.0, 0.0},
    {"right_ankle_roll_joint", JointType::kRevolute, "right_ankle_pitch_link", "right_ankle_roll_link", {0.0, 0.0, -0.017558}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.2618, 0.2618, 30.0, 35.0, nullptr, 1.0, 0.0},
    {"waist_yaw_joint", JointType::kRevolute, "pelvis", "waist_yaw_link", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.618, 2.618, 32.0, 88.0, nullptr, 1.0, 0.0},
    {"waist_roll_joint", JointType::kRevolute, "waist_yaw_link", "waist_roll_link", {-0.0039635, 0.0, 0.044}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.52, 0.52, 30.0, 35.0, nullptr, 1.0, 0.0},
    {"waist_pitch_joint", JointType::kRevolute, "waist_roll_link", "torso_link", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.52, 0.52, 30.0, 35.0, nullptr, 1.0, 0.0},
    {"logo_joint", JointType::kFixed, "torso_link", "logo_link", {0.0039635, 0.0, -0.044}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"head_joint", JointType::kFixed, "torso_link", "head_link", {0.0039635, 0.0, -0.044}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"imu_in_torso_joint", JointType::kFixed, "torso_link", "imu_in_torso", {-0.03959, -0.00224, 0.14792}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"imu_in_pelvis_joint", JointType::kFixed, "pelvis", "imu_in_pelvis", {0.04525, 0.0, -0.08339}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"d435_joint", JointType::kFixed, "torso_link", "d435_link", {0.0576235, 0.01753, 0.42987}, {0.0, 0.8307767239493009, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"mid360_joint", JointType::kFixed, "torso_link", "mid360_link", {0.0002835, 3e-05, 0.428434}, {3.141592653589793, 0.05112069379091391, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_shoulder_pitch_joint", JointType::kRevolute, "torso_link", "left_shoulder_pitch_link", {0.0039563, 0.10022, 0.24778}, {0.27931, 5.4949e-05, -0.00019159}, {0.0, 1.0, 0.0},
     -3.0892, 2.6704, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"left_shoulder_roll_joint", JointType::kRevolute, "left_shoulder_pitch_link", "left_shoulder_roll_link", {0.0, 0.038, -0.013831}, {-0.27925, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.5882, 2.2515, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"left_shoulder_yaw_joint", JointType::kRevolute, "left_shoulder_roll_link", "left_shoulder_yaw_link", {0.0, 0.00624, -0.1032}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.618, 2.618, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"left_elbow_joint", JointType::kRevolute, "left_shoulder_yaw_link", "left_elbow_link", {0.015783, 0.0, -0.080518}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.0472, 2.0944, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"left_wrist_roll_joint", JointType::kRevolute, "left_elbow_link", "left_wrist_roll_link", {0.1, 0.00188791, -0.01}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.972222054, 1.972222054, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"left_wrist_pitch_joint", JointType::kRevolute, "left_wrist_roll_link", "left_wrist_pitch_link", {0.038, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.614429558, 1.614429558, 22.0, 5.0, nullptr, 1.0, 0.0},
    {"left_wrist_yaw_joint", JointType::kRevolute, "left_wrist_pitch_link", "left_wrist_yaw_link", {0.046, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.614429558, 1.614429558, 22.0, 5.0, nullptr, 1.0, 0.0},
    {"left_hand_palm_joint", JointType::kFixed, "left_wrist_yaw_link", "left_rubber_hand", {0.0415, 0.003, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_shoulder_pitch_joint", JointType::kRevolute, "torso_link", "right_shoulder_pitch_link", {0.0039563, -0.10021, 0.24778}, {-0.27931, 5.4949e-05, 0.00019159}, {0.0, 1.0, 0.0},
     -3.0892, 2.6704, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"right_shoulder_roll_joint", JointType::kRevolute, "right_shoulder_pitch_link", "right_shoulder_roll_link", {0.0, -0.038, -0.013831}, {0.27925, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -2.2515, 1.5882, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"right_shoulder_yaw_joint", JointType::kRevolute, "right_shoulder_roll_link", "right_shoulder_yaw_link", {0.0, -0.00624, -0.1032}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.618, 2.618, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"right_elbow_joint", JointType::kRevolute, "right_shoulder_yaw_link", "right_elbow_link", {0.015783, 0.0, -0.080518}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.0472, 2.0944, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"right_wrist_roll_joint", JointType::kRevolute, "right_elbow_link", "right_wrist_roll_link", {0.1, -0.00188791, -0.01}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.972222054, 1.972222054, 37.0, 25.0, nullptr, 1.0, 0.0},
    {"right_wrist_pitch_joint", JointType::kRevolute, "right_wrist_roll_link", "right_wrist_pitch_link", {0.038, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.614429558, 1.614429558, 22.0, 5.0, nullptr, 1.0, 0.0},
    {"right_wrist_yaw_joint", JointType::kRevolute, "right_wrist_pitch_link", "right_wrist_yaw_link", {0.046, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.614429558, 1.614429558, 22.0, 5.0, nullptr, 1.0, 0.0},
    {"right_hand_palm_joint", JointType::kFixed, "right_wrist_yaw_link", "right_rubber_hand", {0.0415, -0.003, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
};
inline constexpr RobotTableShape kShapes[] = {
    {"left_ankle_roll_link", "left_ankle_roll_link_collision0", UrdfPrimitive::kSphere, {0.005, 0.0, 0.0}, {-0.05, 0.025, -0.03}, {0.0, 0.0, 0.0}},
    {"left_ankle_roll_link", "left_ankle_roll_link_collision1", UrdfPrimitive::kSphere, {0.005, 0.0, 0.0}, {-0.05, -0.025, -0.03}, {0.0, 0.0, 0.0}},
    {"left_ankle_roll_link", "left_ankle_roll_link_collision2", UrdfPrimitive::kSphere, {0.005, 0.0, 0.0}, {0.12, 0.03, -0.03}, {0.0, 0.0, 0.0}},
    {"left_ankle_roll_link", "left_ankle_roll_link_collision3", UrdfPrimitive::kSphere, {0.005, 0.0, 0.0}, {0.12, -0.03, -0.03}, {0.0, 0.0, 0.0}},
    {"right_ankle_roll_link", "right_ankle_roll_link_collision0", UrdfPrimitive::kSphere, {0.005, 0.0, 0.0}, {-0.05, 0.025, -0.03}, {0.0, 0.0, 0.0}},
    {"right_ankle_roll_link", "right_ankle_roll_link_collision1", UrdfPrimitive::kSphere, {0.005, 0.0, 0.0}, {-0.05, -0.025, -0.03}, {0.0, 0.0, 0.0}},
    {"right_ankle_roll_link", "right_ankle_roll_link_collision2", UrdfPrimitive::kSphere, {0.005, 0.0, 0.0}, {0.12, 0.03, -0.03}, {0.0, 0.0, 0.0}},
    {"right_ankle_roll_link", "right_ankle_roll_link_collision3", UrdfPrimitive::kSphere, {0.005, 0.0, 0.0}, {0.12, -0.03, -0.03}, {0.0, 0.0, 0.0}},
    {"left_shoulder_pitch_link", "left_shoulder_pitch_link_collision0", UrdfPrimitive::kCylinder, {0.03, 0.05, 0.0}, {0.0, 0.04, -0.01}, {0.0, 1.5707963267948966, 0.0}},
    {"left_shoulder_roll_link", "left_shoulder_roll_link_collision0", UrdfPrimitive::kCylinder, {0.03, 0.03, 0.0}, {-0.004, 0.006, -0.053}, {0.0, 0.0, 0.0}},
    {"right_shoulder_pitch_link", "right_shoulder_pitch_link_collision0", UrdfPrimitive::kCylinder, {0.03, 0.05, 0.0}, {0.0, -0.04, -0.01}, {0.0, 1.5707963267948966, 0.0}},
    {"right_shoulder_roll_link", "right_shoulder_roll_link_collision0", UrdfPrimitive::kCylinder, {0.03, 0.03, 0.0}, {-0.004, -0.006, -0.053}, {0.0, 0.0, 0.0}},
};
}  // namespace internal::unitree_g1

/// Builds the Unitree G1 model, robot "g1_29dof_rev_1_0" (29 coordinates, rad). Never throws
/// for the built-in data.
template <typename Scalar = double>
RobotModel<Scalar> makeUnitreeG1() {
  RobotModelBuilder<Scalar> builder("g1_29dof_rev_1_0");
  internal::fillFromTables(builder, internal::unitree_g1::kLinks, internal::unitree_g1::kJoints,
                           internal::unitree_g1::kShapes,
                           sizeof(internal::unitree_g1::kShapes) / sizeof(internal::unitree_g1::kShapes[0]));
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makeUnitreeG1<double>();
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makeUnitreeG1<float>();
#endif

}  // namespace retarget
