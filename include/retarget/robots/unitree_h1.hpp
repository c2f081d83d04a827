#pragma once

/// @file
/// Built-in model of the Unitree H1 humanoid (19 DOF), data in this header.
///
/// Source of the numbers: everything (links, joints, limits, masses, centres of mass and the
/// collision primitives) is transcribed from unitreerobotics/unitree_ros, file
/// robots/h1_description/urdf/h1.urdf, commit d6f13aad60320ce1d60a07b82a76b5a553f2a0a9
/// (../shared/data/urdf/unitree_h1.urdf) by tests/robots/tools/urdf_to_table.py. Same robot
/// name ("h1_description"), link and joint names and frames as the URDF (root `pelvis`; the
/// URDF's floating base joint is commented out upstream: a free base is RobotData::X_WB), so
/// this model and loadUrdf() of that file are interchangeable. Total mass 59.34 kg.
///
/// q has 19 coordinates in URDF document order: left_hip_yaw_joint, left_hip_roll_joint,
/// left_hip_pitch_joint, left_knee_joint, left_ankle_joint, then the same five for the right
/// leg, then torso_joint, then left_shoulder_pitch_joint, left_shoulder_roll_joint,
/// left_shoulder_yaw_joint, left_elbow_joint, then the same four for the right arm. The arms end
/// at the elbow links (no wrists or hands); the IMU, logo, cameras and lidar hang from fixed
/// joints.
///
/// Collision model: the URDF's 23 collision primitives (no meshes in this file's collision
/// geometry), converted as the URDF reader does (cylinders to the capsule on their axis, boxes
/// to their bounding capsule, spheres exact; see internal::collisionFromPrimitive), named
/// "<link>_collision<k>": a pelvis sphere (radius 5 cm), cylinders on the hips, thighs, shins,
/// shoulders, upper arms and forearms (the elbow links), boxes for the feet and the torso, and
/// 1 mm placeholder spheres on the cameras and lidar. Nothing here is estimated.
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

namespace internal::unitree_h1 {
// Transcribed from unitree_h1.urdf (see the file comment). Units: m, rad, kg.
inline constexpr RobotTableLink kLinks[] = {
    {"pelvis", 5.983, {-0.0004, 3.7e-05, -0.046864}},
    {"left_hip_yaw_link", 2.965, {-0.061433, 1.7e-05, 0.007627}},
    {"left_hip_roll_link", 2.715, {-0.005276, -0.013573, 4e-06}},
    {"left_hip_pitch_link", 4.953, {0.007636, -0.029298, -0.08267}},
    {"left_knee_link", 2.824, {0.003406, -0.005279, -0.143702}},
    {"left_ankle_link", 0.725, {0.042537, 0.0, -0.041674}},
    {"right_hip_yaw_link", 2.965, {-0.061433, -1.7e-05, 0.007627}},
    {"right_hip_roll_link", 2.715, {-0.005276, 0.013573, 4e-06}},
    {"right_hip_pitch_link", 4.953, {0.007636, 0.029298, -0.08267}},
    {"right_knee_link", 2.824, {0.003406, 0.005279, -0.143702}},
    {"right_ankle_link", 0.725, {0.042537, 0.0, -0.041674}},
    {"torso_link", 17.789, {0.000489, 0.002797, 0.20484}},
    {"left_shoulder_pitch_link", 1.142, {0.005045, 0.053657, -0.015715}},
    {"left_shoulder_roll_link", 0.852, {0.000679, 0.00115, -0.094076}},
    {"left_shoulder_yaw_link", 0.862, {0.01365, 0.002767, -0.16266}},
    {"left_elbow_link", 0.745, {0.164862, 0.000118, -0.015734}},
    {"right_shoulder_pitch_link", 1.142, {0.005045, -0.053657, -0.015715}},
    {"right_shoulder_roll_link", 0.852, {0.000679, -0.00115, -0.094076}},
    {"right_shoulder_yaw_link", 0.862, {0.01365, -0.002767, -0.16266}},
    {"right_elbow_link", 0.745, {0.164862, -0.000118, -0.015734}},
    {"imu_link", 0.0, {0.0, 0.0, 0.0}},
    {"logo_link", 0.0, {0.0, 0.0, 0.0}},
    {"d435_left_imager_link", 0.0, {0.0, 0.0, 0.0}},
    {"d435_rgb_module_link", 0.0, {0.0, 0.0, 0.0}},
    {"mid360_link", 0.0, {0.0, 0.0, 0.0}},
};
inline constexpr RobotTableJoint kJoints[] = {
    {"left_hip_yaw_joint", JointType::kRevolute, "pelvis", "left_hip_yaw_link", {0.0, 0.0875, -0.1742}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -0.43, 0.43, 23.0, 200.0, nullptr, 1.0, 0.0},
    {"left_hip_roll_joint", JointType::kRevolute, "left_hip_yaw_link", "left_hip_roll_link", {0.039468, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.43, 0.43, 23.0, 200.0, nullptr, 1.0, 0.0},
    {"left_hip_pitch_joint", JointType::kRevolute, "left_hip_roll_link", "left_hip_pitch_link", {0.0, 0.11536, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -3.14, 2.53, 23.0, 200.0, nullptr, 1.0, 0.0},
    {"left_knee_joint", JointType::kRevolute, "left_hip_pitch_link", "left_knee_link", {0.0, 0.0, -0.4}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.26, 2.05, 14.0, 300.0, nullptr, 1.0, 0.0},
    {"left_ankle_joint", JointType::kRevolute, "left_knee_link", "left_ankle_link", {0.0, 0.0, -0.4}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.87, 0.52, 9.0, 40.0, nullptr, 1.0, 0.0},
    {"right_hip_yaw_joint", JointType::kRevolute, "pelvis", "right_hip_yaw_link", {0.0, -0.0875, -0.1742}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -0.43, 0.43, 23.0, 200.0, nullptr, 1.0, 0.0},
    {"right_hip_roll_joint", JointType::kRevolute, "right_hip_yaw_link", "right_hip_roll_link", {0.039468, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.43, 0.43, 23.0, 200.0, nullptr, 1.0, 0.0},
    {"right_hip_pitch_joint", JointType::kRevolute, "right_hip_roll_link", "right_hip_pitch_link", {0.0, -0.11536, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -3.14, 2.53, 23.0, 200.0, nullptr, 1.0, 0.0},
    {"right_knee_joint", JointType::kRevolute, "right_hip_pitch_link", "right_knee_link", {0.0, 0.0, -0.4}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.26, 2.05, 14.0, 300.0, nullptr, 1.0, 0.0},
    {"right_ankle_joint", JointType::kRevolute, "right_knee_link", "right_ankle_link", {0.0, 0.0, -0.4}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.87, 0.52, 9.0, 40.0, nullptr, 1.0, 0.0},
    {"torso_joint", JointType::kRevolute, "pelvis", "torso_link", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.35, 2.35, 23.0, 200.0, nullptr, 1.0, 0.0},
    {"left_shoulder_pitch_joint", JointType::kRevolute, "torso_link", "left_shoulder_pitch_link", {0.0055, 0.15535, 0.42999}, {0.43633, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -2.87, 2.87, 9.0, 40.0, nullptr, 1.0, 0.0},
    {"left_shoulder_roll_joint", JointType::kRevolute, "left_shoulder_pitch_link", "left_shoulder_roll_link", {-0.0055, 0.0565, -0.0165}, {-0.43633, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.34, 3.11, 9.0, 40.0, nullptr, 1.0, 0.0},
    {"left_shoulder_yaw_joint", JointType::kRevolute, "left_shoulder_roll_link", "left_shoulder_yaw_link", {0.0, 0.0, -0.1343}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.3, 4.45, 20.0, 18.0, nullptr, 1.0, 0.0},
    {"left_elbow_joint", JointType::kRevolute, "left_shoulder_yaw_link", "left_elbow_link", {0.0185, 0.0, -0.198}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.25, 2.61, 20.0, 18.0, nullptr, 1.0, 0.0},
    {"right_shoulder_pitch_joint", JointType::kRevolute, "torso_link", "right_shoulder_pitch_link", {0.0055, -0.15535, 0.42999}, {-0.43633, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -2.87, 2.87, 9.0, 40.0, nullptr, 1.0, 0.0},
    {"right_shoulder_roll_joint", JointType::kRevolute, "right_shoulder_pitch_link", "right_shoulder_roll_link", {-0.0055, -0.0565, -0.0165}, {0.43633, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -3.11, 0.34, 9.0, 40.0, nullptr, 1.0, 0.0},
    {"right_shoulder_yaw_joint", JointType::kRevolute, "right_shoulder_roll_link", "right_shoulder_yaw_link", {0.0, 0.0, -0.1343}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -4.45, 1.3, 20.0, 18.0, nullptr, 1.0, 0.0},
    {"right_elbow_joint", JointType::kRevolute, "right_shoulder_yaw_link", "right_elbow_link", {0.0185, 0.0, -0.198}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.25, 2.61, 20.0, 18.0, nullptr, 1.0, 0.0},
    {"imu_joint", JointType::kFixed, "torso_link", "imu_link", {-0.04452, -0.01891, 0.27756}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"logo_joint", JointType::kFixed, "torso_link", "logo_link", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"d435_left_imager_joint", JointType::kFixed, "torso_link", "d435_left_imager_link", {0.10848474394, 0.0175, 0.69317107367}, {-2.45735, 0.0, -1.5708}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"d435_rgb_module_joint", JointType::kFixed, "torso_link", "d435_rgb_module_link", {0.10848474394, 0.0325, 0.69317107367}, {-2.45735, 0.0, -1.5708}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"mid360_joint", JointType::kFixed, "torso_link", "mid360_link", {0.0472999018, 0.0, 0.67492878653}, {0.0, 0.243124, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
};
inline constexpr RobotTableShape kShapes[] = {
    {"pelvis", "pelvis_collision0", UrdfPrimitive::kSphere, {0.05, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"left_hip_yaw_link", "left_hip_yaw_link_collision0", UrdfPrimitive::kCylinder, {0.01, 0.02, 0.0}, {0.02, 0.0, 0.0}, {0.0, 1.5707963267948966, 0.0}},
    {"left_hip_roll_link", "left_hip_roll_link_collision0", UrdfPrimitive::kCylinder, {0.02, 0.01, 0.0}, {0.0, 0.06, 0.0}, {1.5707963267948966, 0.0, 0.0}},
    {"left_hip_pitch_link", "left_hip_pitch_link_collision0", UrdfPrimitive::kCylinder, {0.05, 0.2, 0.0}, {0.0, 0.0, -0.2}, {0.0, 0.0, 0.0}},
    {"left_knee_link", "left_knee_link_collision0", UrdfPrimitive::kCylinder, {0.05, 0.2, 0.0}, {0.0, 0.0, -0.2}, {0.0, 0.0, 0.0}},
    {"left_ankle_link", "left_ankle_link_collision0", UrdfPrimitive::kBox, {0.28, 0.03, 0.024}, {0.05, 0.0, -0.05}, {0.0, 0.0, 0.0}},
    {"right_hip_yaw_link", "right_hip_yaw_link_collision0", UrdfPrimitive::kCylinder, {0.01, 0.02, 0.0}, {0.02, 0.0, 0.0}, {0.0, 1.5707963267948966, 0.0}},
    {"right_hip_roll_link", "right_hip_roll_link_collision0", UrdfPrimitive::kCylinder, {0.02, 0.01, 0.0}, {0.0, -0.06, 0.0}, {1.5707963267948966, 0.0, 0.0}},
    {"right_hip_pitch_link", "right_hip_pitch_link_collision0", UrdfPrimitive::kCylinder, {0.05, 0.2, 0.0}, {0.0, 0.0, -0.2}, {0.0, 0.0, 0.0}},
    {"right_knee_link", "right_knee_link_collision0", UrdfPrimitive::kCylinder, {0.05, 0.2, 0.0}, {0.0, 0.0, -0.2}, {0.0, 0.0, 0.0}},
    {"right_ankle_link", "right_ankle_link_collision0", UrdfPrimitive::kBox, {0.28, 0.03, 0.024}, {0.05, 0.0, -0.05}, {0.0, 0.0, 0.0}},
    {"torso_link", "torso_link_collision0", UrdfPrimitive::kBox, {0.08, 0.16, 0.1}, {0.0, 0.0, 0.15}, {0.0, 0.0, 0.0}},
    {"left_shoulder_pitch_link", "left_shoulder_pitch_link_collision0", UrdfPrimitive::kCylinder, {0.03, 0.04, 0.0}, {0.0, -0.05, 0.0}, {1.5707963267948966, 0.0, 0.0}},
    {"left_shoulder_roll_link", "left_shoulder_roll_link_collision0", UrdfPrimitive::kCylinder, {0.04, 0.01, 0.0}, {0.0, 0.0, -0.04}, {0.0, 0.0, 0.0}},
    {"left_shoulder_yaw_link", "left_shoulder_yaw_link_collision0", UrdfPrimitive::kCylinder, {0.04, 0.01, 0.0}, {0.0, 0.0, -0.11}, {0.0, 0.0, 0.0}},
    {"left_elbow_link", "left_elbow_link_collision0", UrdfPrimitive::kCylinder, {0.03, 0.09, 0.0}, {0.125, 0.0, 0.0}, {0.0, 1.57, 0.0}},
    {"right_shoulder_pitch_link", "right_shoulder_pitch_link_collision0", UrdfPrimitive::kCylinder, {0.03, 0.04, 0.0}, {0.0, 0.05, 0.0}, {-1.5707963267948966, 0.0, 0.0}},
    {"right_shoulder_roll_link", "right_shoulder_roll_link_collision0", UrdfPrimitive::kCylinder, {0.04, 0.01, 0.0}, {0.0, 0.0, -0.04}, {0.0, 0.0, 0.0}},
    {"right_shoulder_yaw_link", "right_shoulder_yaw_link_collision0", UrdfPrimitive::kCylinder, {0.04, 0.01, 0.0}, {0.0, 0.0, -0.11}, {0.0, 0.0, 0.0}},
    {"right_elbow_link", "right_elbow_link_collision0", UrdfPrimitive::kCylinder, {0.03, 0.09, 0.0}, {0.125, 0.0, 0.0}, {0.0, 1.57, 0.0}},
    {"d435_left_imager_link", "d435_left_imager_link_collision0", UrdfPrimitive::kSphere, {0.001, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"d435_rgb_module_link", "d435_rgb_module_link_collision0", UrdfPrimitive::kSphere, {0.001, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
    {"mid360_link", "mid360_link_collision0", UrdfPrimitive::kSphere, {0.001, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
};
}  // namespace internal::unitree_h1

/// Builds the Unitree H1 model, robot "h1_description" (19 coordinates, rad). Never throws for
/// the built-in data.
template <typename Scalar = double>
RobotModel<Scalar> makeUnitreeH1() {
  RobotModelBuilder<Scalar> builder("h1_description");
  internal::fillFromTables(builder, internal::unitree_h1::kLinks, internal::unitree_h1::kJoints,
                           internal::unitree_h1::kShapes,
                           sizeof(internal::unitree_h1::kShapes) / sizeof(internal::unitree_h1::kShapes[0]));
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makeUnitreeH1<double>();
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makeUnitreeH1<float>();
#endif

}  // namespace retarget
