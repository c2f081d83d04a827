#pragma once

/// @file
/// Built-in model of the Pepper humanoid (SoftBank Robotics), data in this header.
///
/// Source of the numbers: links, joints (origins, axes, limits), masses and centres of mass
/// are transcribed from the ROS description ros-naoqi/pepper_robot, file
/// pepper_description/urdf/pepper1.0_generated_urdf/pepper.urdf, commit
/// 60d4e08d9d46e7ac1f86b85dff6e0009d043fd1c (robot "JulietteY20MP"; shipped for the tests as
/// ../shared/data/urdf/pepper_1.0.urdf) by tests/robots/tools/urdf_to_table.py. Same link
/// and joint names and frames as the URDF (root `base_link`, then `torso`).
///
/// Differences from the URDF: the three omni-wheel joints (WheelFL, WheelFR, WheelB) and
/// their links are left out (Pepper's base is not retargeted; wheels would add three
/// unbounded coordinates). Finger joints stay mimics of LHand / RHand as in the URDF, so q has
/// 17 coordinates: HeadYaw, HeadPitch, HipRoll, HipPitch, KneePitch, the 6 left-arm joints
/// (LShoulderPitch .. LHand) and the 6 right-arm joints, in URDF document order.
///
/// Estimated (not from a source): the collision capsules and spheres (the URDF has meshes
/// only), sized by eye from the link lengths and Pepper's published outer dimensions (1.20 m
/// tall, 0.48 m wide at the base); see makePepper().

#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/internal/robot_table.hpp>

namespace retarget {

namespace internal::pepper {
// Transcribed from pepper_1.0.urdf (see the file comment). Units: m, rad, kg.
inline constexpr RobotTableLink kLinks[] = {
    {"Neck", 0.27391, {-0.00207, 0.0, -0.02636}},
    {"Head", 1.51893, {0.00312, 0.0, 0.11152}},
    {"Hip", 1.02338, {0.00032, 0.0, -0.06039}},
    {"Pelvis", 2.45917, {0.00237, 0.0, -0.09654}},
    {"Tibia", 11.6015, {0.00220451, 0.0, -0.185729}},
    {"base_footprint", 0.0, {0.0, 0.0, 0.0}},
    {"base_link", 0.0, {0.0, 0.0, 0.0}},
    {"torso", 3.99533, {0.00322, 0.0, -0.01029}},
    {"LShoulder", 0.3125, {0.00018, -0.01856, 0.00099}},
    {"LBicep", 0.50527, {0.08151, 0.01284, -0.01017}},
    {"LElbow", 0.27495, {-0.02297, -0.00019, 0.00119}},
    {"LForeArm", 0.16579, {0.0593, 0.00271, -0.01014}},
    {"l_wrist", 0.27555, {0.03536, -0.00072, -0.00207}},
    {"l_gripper", 2e-06, {0.0, 0.0, 0.0}},
    {"RShoulder", 0.3125, {0.00018, 0.01856, 0.00099}},
    {"RBicep", 0.50527, {0.08151, -0.01284, -0.01017}},
    {"RElbow", 0.27495, {-0.02297, 0.00019, 0.00119}},
    {"RForeArm", 0.16579, {0.0593, -0.00271, -0.01014}},
    {"r_wrist", 0.27555, {0.03536, 0.00072, -0.00207}},
    {"r_gripper", 2e-06, {0.0, 0.0, 0.0}},
    {"SonarBack_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraBottom_optical_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraDepth_optical_frame", 0.0, {0.0, 0.0, 0.0}},
    {"LHandTouchBack_frame", 0.0, {0.0, 0.0, 0.0}},
    {"VerticalLeftLaser_frame", 0.0, {0.0, 0.0, 0.0}},
    {"SurroundingFrontLaser_device_frame", 0.0, {0.0, 0.0, 0.0}},
    {"BumperB_frame", 0.0, {0.0, 0.0, 0.0}},
    {"SurroundingLeftLaser_frame", 0.0, {0.0, 0.0, 0.0}},
    {"ShovelLaser_frame", 0.0, {0.0, 0.0, 0.0}},
    {"ImuTorsoAccelerometer_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RSpeaker_frame", 0.0, {0.0, 0.0, 0.0}},
    {"SurroundingRightLaser_device_frame", 0.0, {0.0, 0.0, 0.0}},
    {"LSpeaker_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RHandTouchBack_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraTop_frame", 0.0, {0.0, 0.0, 0.0}},
    {"SurroundingLeftLaser_device_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraDepth_frame", 0.0, {0.0, 0.0, 0.0}},
    {"SurroundingRightLaser_frame", 0.0, {0.0, 0.0, 0.0}},
    {"HeadTouchFront_frame", 0.0, {0.0, 0.0, 0.0}},
    {"VerticalRightLaser_frame", 0.0, {0.0, 0.0, 0.0}},
    {"SonarFront_frame", 0.0, {0.0, 0.0, 0.0}},
    {"BumperFL_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraBottom_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraTop_optical_frame", 0.0, {0.0, 0.0, 0.0}},
    {"ImuBaseAccelerometer_frame", 0.0, {0.0, 0.0, 0.0}},
    {"ImuTorsoGyrometer_frame", 0.0, {0.0, 0.0, 0.0}},
    {"Tablet_frame", 0.0, {0.0, 0.0, 0.0}},
    {"HeadTouchRear_frame", 0.0, {0.0, 0.0, 0.0}},
    {"BumperFR_frame", 0.0, {0.0, 0.0, 0.0}},
    {"SurroundingFrontLaser_frame", 0.0, {0.0, 0.0, 0.0}},
    {"ChestButton_frame", 0.0, {0.0, 0.0, 0.0}},
    {"HeadTouchMiddle_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RFinger41_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger42_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger12_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger33_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger31_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger21_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger32_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger13_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger32_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger11_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger22_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger13_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger22_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger21_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger41_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger12_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger23_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger11_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger23_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger43_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger43_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger42_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger31_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger33_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LThumb1_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RThumb2_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RThumb1_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LThumb2_link", 2e-06, {0.0, 0.0, 0.0}},
};
inline constexpr RobotTableJoint kJoints[] = {
    {"HeadYaw", JointType::kRevolute, "torso", "Neck", {-0.038, 0.0, 0.1699}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.08567, 2.08567, 7.33998, 5.428, nullptr, 1.0, 0.0},
    {"HeadPitch", JointType::kRevolute, "Neck", "Head", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.706858, 0.637045, 9.22756, 2.666, nullptr, 1.0, 0.0},
    {"HipRoll", JointType::kRevolute, "torso", "Hip", {2e-05, 0.0, -0.139}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.514872, 0.514872, 2.27032, 10.1884, nullptr, 1.0, 0.0},
    {"HipPitch", JointType::kRevolute, "Hip", "Pelvis", {0.0, 0.0, -0.079}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.03847, 1.03847, 2.93276, 19.787, nullptr, 1.0, 0.0},
    {"KneePitch", JointType::kRevolute, "Pelvis", "Tibia", {0.0, 0.0, -0.268}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.514872, 0.514872, 2.93276, 27.702, nullptr, 1.0, 0.0},
    {"base_footprint_joint", JointType::kFixed, "Tibia", "base_footprint", {0.0, 0.0, -0.334}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"base_link_fixedjoint", JointType::kFixed, "base_link", "torso", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LShoulderPitch", JointType::kRevolute, "torso", "LShoulder", {-0.057, 0.14974, 0.08682}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -2.08567, 2.08567, 7.33998, 5.428, nullptr, 1.0, 0.0},
    {"LShoulderRoll", JointType::kRevolute, "LShoulder", "LBicep", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     0.00872665, 1.56207, 9.22756, 2.666, nullptr, 1.0, 0.0},
    {"LElbowYaw", JointType::kRevolute, "LBicep", "LElbow", {0.1812, 0.015, 0.00013}, {0.0, -0.157079, 0.0}, {1.0, 0.0, 0.0},
     -2.08567, 2.08567, 7.33998, 5.428, nullptr, 1.0, 0.0},
    {"LElbowRoll", JointType::kRevolute, "LElbow", "LForeArm", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.56207, -0.00872665, 9.22756, 2.666, nullptr, 1.0, 0.0},
    {"LWristYaw", JointType::kRevolute, "LForeArm", "l_wrist", {0.15, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.82387, 1.82387, 17.3835, 0.2014, nullptr, 1.0, 0.0},
    {"LHand", JointType::kRevolute, "l_wrist", "l_gripper", {0.025, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.02, 0.98, 12.56, 0.144, nullptr, 1.0, 0.0},
    {"RShoulderPitch", JointType::kRevolute, "torso", "RShoulder", {-0.057, -0.14974, 0.08682}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -2.08567, 2.08567, 7.33998, 5.428, nullptr, 1.0, 0.0},
    {"RShoulderRoll", JointType::kRevolute, "RShoulder", "RBicep", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.56207, -0.00872665, 9.22756, 2.666, nullptr, 1.0, 0.0},
    {"RElbowYaw", JointType::kRevolute, "RBicep", "RElbow", {0.1812, -0.015, 0.00013}, {0.0, -0.157079, 0.0}, {1.0, 0.0, 0.0},
     -2.08567, 2.08567, 7.33998, 5.428, nullptr, 1.0, 0.0},
    {"RElbowRoll", JointType::kRevolute, "RElbow", "RForeArm", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     0.00872665, 1.56207, 9.22756, 2.666, nullptr, 1.0, 0.0},
    {"RWristYaw", JointType::kRevolute, "RForeArm", "r_wrist", {0.15, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.82387, 1.82387, 17.3835, 0.2014, nullptr, 1.0, 0.0},
    {"RHand", JointType::kRevolute, "r_wrist", "r_gripper", {0.025, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.02, 0.98, 12.56, 0.144, nullptr, 1.0, 0.0},
    {"Sonar/Back_sensor_fixedjoint", JointType::kFixed, "Tibia", "SonarBack_frame", {-0.0718, 0.0, -0.0534}, {-1.81761e-08, -0.209438, -3.14159}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraBottom_optical_frame_fixedjoint", JointType::kFixed, "CameraBottom_frame", "CameraBottom_optical_frame", {0.0, 0.0, 0.0}, {-1.57079632679, 0.0, -1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraDepth_optical_frame_fixedjoint", JointType::kFixed, "CameraDepth_frame", "CameraDepth_optical_frame", {0.0, 0.0, 0.0}, {-1.57079632679, 0.0, -1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LHand/Touch/Back_sensor_fixedjoint", JointType::kFixed, "l_wrist", "LHandTouchBack_frame", {0.0523, 0.0, 0.0304}, {1.5708, -1.5708, -3.14159}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/VerticalLeft_sensor_fixedjoint", JointType::kFixed, "Tibia", "VerticalLeftLaser_frame", {0.0562, 0.0, -0.0692}, {0.0, 0.349066, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/Front_sensor_fixedjoint", JointType::kFixed, "Tibia", "SurroundingFrontLaser_device_frame", {0.0562, 0.0, -0.0692}, {0.0, 0.349066, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Bumper/Back_sensor_fixedjoint", JointType::kFixed, "Tibia", "BumperB_frame", {-0.251, 0.0, -0.264}, {0.0, 0.0, -3.14159}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/Left_projected_sensor_fixedjoint", JointType::kFixed, "Tibia", "SurroundingLeftLaser_frame", {-0.018, 0.0899, -0.334}, {0.0, 0.0, 1.75728}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/Shovel_sensor_fixedjoint", JointType::kFixed, "Tibia", "ShovelLaser_frame", {0.0562, 0.0, -0.0692}, {0.0, 0.349066, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Accelerometer_sensor_fixedjoint", JointType::kFixed, "torso", "ImuTorsoAccelerometer_frame", {0.00239, -0.03575, 0.00626}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"SpeakerRight_sensor_fixedjoint", JointType::kFixed, "Head", "RSpeaker_frame", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/Right_sensor_fixedjoint", JointType::kFixed, "Tibia", "SurroundingRightLaser_device_frame", {-0.018, -0.0899, -0.0759}, {0.0, 0.349066, -1.5708}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"SpeakerLeft_sensor_fixedjoint", JointType::kFixed, "Head", "LSpeaker_frame", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RHand/Touch/Back_sensor_fixedjoint", JointType::kFixed, "r_wrist", "RHandTouchBack_frame", {0.0523, 0.0, 0.0304}, {1.5708, -1.5708, -3.14159}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraTop_sensor_fixedjoint", JointType::kFixed, "Head", "CameraTop_frame", {0.08601, 0.0, 0.16284}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/Left_sensor_fixedjoint", JointType::kFixed, "Tibia", "SurroundingLeftLaser_device_frame", {-0.018, 0.0899, -0.0759}, {0.0, 0.349066, 1.5708}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraDepth_sensor_fixedjoint", JointType::kFixed, "Head", "CameraDepth_frame", {0.05138, 0.039, 0.1194}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/Right_projected_sensor_fixedjoint", JointType::kFixed, "Tibia", "SurroundingRightLaser_frame", {-0.018, -0.0899, -0.334}, {0.0, 0.0, -1.75728}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Head/Touch/Front_sensor_fixedjoint", JointType::kFixed, "Head", "HeadTouchFront_frame", {0.028175, 0.0, 0.21267}, {0.0, 0.20944, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/VerticalRight_sensor_fixedjoint", JointType::kFixed, "Tibia", "VerticalRightLaser_frame", {0.0562, 0.0, -0.0692}, {0.0, 0.349066, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Sonar/Front_sensor_fixedjoint", JointType::kFixed, "Tibia", "SonarFront_frame", {0.0699, 0.0, -0.1023}, {0.0, -0.322858, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Bumper/FrontLeft_sensor_fixedjoint", JointType::kFixed, "Tibia", "BumperFL_frame", {0.129, 0.227, -0.264}, {0.0, 0.0, 0.48886}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraBottom_sensor_fixedjoint", JointType::kFixed, "Head", "CameraBottom_frame", {0.09262, 0.0, 0.06177}, {0.0, 0.698132, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraTop_optical_frame_fixedjoint", JointType::kFixed, "CameraTop_frame", "CameraTop_optical_frame", {0.0, 0.0, 0.0}, {-1.57079632679, 0.0, -1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"AccelerometerBase_sensor_fixedjoint", JointType::kFixed, "Tibia", "ImuBaseAccelerometer_frame", {0.0147, -0.0017, -0.26319}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Gyrometer_sensor_fixedjoint", JointType::kFixed, "torso", "ImuTorsoGyrometer_frame", {0.00204, -0.03491, -0.00959}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Tablet_sensor_fixedjoint", JointType::kFixed, "torso", "Tablet_frame", {0.0839249, 0.0, 0.06251}, {0.0, -0.523599, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Head/Touch/Rear_sensor_fixedjoint", JointType::kFixed, "Head", "HeadTouchRear_frame", {-0.03376, 0.0, 0.21052}, {0.0, -0.314159, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Bumper/FrontRight_sensor_fixedjoint", JointType::kFixed, "Tibia", "BumperFR_frame", {0.129, -0.227, -0.264}, {0.0, 0.0, -0.48886}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LaserSensor/Front_projected_sensor_fixedjoint", JointType::kFixed, "Tibia", "SurroundingFrontLaser_frame", {0.0562, 0.0, -0.334}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"ChestBoard/Button_sensor_fixedjoint", JointType::kFixed, "torso", "ChestButton_frame", {0.049871, 0.001588, 0.055163}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Head/Touch/Middle_sensor_fixedjoint", JointType::kFixed, "Head", "HeadTouchMiddle_frame", {0.0041, 0.0, 0.2159}, {0.0, -0.0349066, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RFinger41", JointType::kContinuous, "r_wrist", "RFinger41_link", {0.074, -0.0309, 0.0}, {1.74402, 1.04064, -0.0683394}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LFinger42", JointType::kContinuous, "LFinger41_link", "LFinger42_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RFinger12", JointType::kContinuous, "RFinger11_link", "RFinger12_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LFinger33", JointType::kContinuous, "LFinger32_link", "LFinger33_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RFinger31", JointType::kContinuous, "r_wrist", "RFinger31_link", {0.0833, -0.0123, 0.004}, {1.67523, 1.04483, 0.029316}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LFinger21", JointType::kContinuous, "l_wrist", "LFinger21_link", {0.0873, -0.0073, 0.006}, {1.5708, 1.0472, -0.061086}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RFinger32", JointType::kContinuous, "RFinger31_link", "RFinger32_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LFinger13", JointType::kContinuous, "LFinger12_link", "LFinger13_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"LFinger32", JointType::kContinuous, "LFinger31_link", "LFinger32_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"LFinger11", JointType::kContinuous, "l_wrist", "LFinger11_link", {0.0821, -0.0268, 0.004}, {1.74402, 1.04064, -0.0334335}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RFinger22", JointType::kContinuous, "RFinger21_link", "RFinger22_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"RFinger13", JointType::kContinuous, "RFinger12_link", "RFinger13_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LFinger22", JointType::kContinuous, "LFinger21_link", "LFinger22_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RFinger21", JointType::kContinuous, "r_wrist", "RFinger21_link", {0.0873, 0.0073, 0.006}, {1.5708, 1.0472, 0.061086}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LFinger41", JointType::kContinuous, "l_wrist", "LFinger41_link", {0.074, 0.0309, 0.0}, {1.39757, 1.04064, 0.0683394}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"LFinger12", JointType::kContinuous, "LFinger11_link", "LFinger12_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RFinger23", JointType::kContinuous, "RFinger22_link", "RFinger23_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"RFinger11", JointType::kContinuous, "r_wrist", "RFinger11_link", {0.0821, 0.0268, 0.004}, {1.39757, 1.04064, 0.0334335}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LFinger23", JointType::kContinuous, "LFinger22_link", "LFinger23_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"LFinger43", JointType::kContinuous, "LFinger42_link", "LFinger43_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RFinger43", JointType::kContinuous, "RFinger42_link", "RFinger43_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"RFinger42", JointType::kContinuous, "RFinger41_link", "RFinger42_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LFinger31", JointType::kContinuous, "l_wrist", "LFinger31_link", {0.0833, 0.0123, 0.004}, {1.46636, 1.04483, -0.029314}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RFinger33", JointType::kContinuous, "RFinger32_link", "RFinger33_link", {0.018, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LThumb1", JointType::kContinuous, "l_wrist", "LThumb1_link", {0.0482, -0.0357, -0.0199}, {-1.95836, 0.60626, 0.533978}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
    {"RThumb2", JointType::kContinuous, "RThumb1_link", "RThumb2_link", {0.022, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"RThumb1", JointType::kContinuous, "r_wrist", "RThumb1_link", {0.0482, 0.0357, -0.0199}, {-1.18323, 0.60626, -0.533978}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.872665, 0.0},
    {"LThumb2", JointType::kContinuous, "LThumb1_link", "LThumb2_link", {0.022, 0.0, 0.0}, {0.0, 0.0, -1.0472}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.872665, 0.0},
};
// The URDF has no primitive collision geometry (meshes only).
}  // namespace internal::pepper

/// Builds the Pepper model (17 coordinates, rad; LHand/RHand 0..1 open fraction; total mass
/// as the URDF minus the wheels) with an estimated collision model (link frame, m):
///
/// | link | name | segment | radius |
/// |---|---|---|---|
/// | Head | head | sphere at (0.01, 0, 0.11) | 0.11 |
/// | torso | torso | (-0.03, 0, -0.10) .. (-0.03, 0, 0.10) | 0.11 |
/// | Pelvis | thigh | (0, 0, 0) .. (0, 0, -0.268) | 0.10 |
/// | Tibia | base | (0, 0, -0.10) .. (0, 0, -0.25) | 0.22 |
/// | L/RBicep | l_upper_arm / r_upper_arm | origin .. elbow joint (0.1812, +-0.015, 0.00013) | 0.045 |
/// | L/RForeArm | l_forearm / r_forearm | origin .. wrist joint (0.15, 0, 0) | 0.04 |
/// | l/r_wrist | l_hand / r_hand | (0, 0, 0) .. (0.08, 0, 0) | 0.035 |
///
/// Never throws for the built-in data.
template <typename Scalar = double>
RobotModel<Scalar> makePepper() {
  using V = Vector3<Scalar>;
  using internal::capsuleShape;
  const auto s = [](double v) { return static_cast<Scalar>(v); };
  RobotModelBuilder<Scalar> builder("JulietteY20MP");
  internal::fillFromTables(builder, internal::pepper::kLinks, internal::pepper::kJoints, nullptr, 0);
  builder.addCollision("Head", capsuleShape<Scalar>("head", V(s(0.01), 0, s(0.11)), V(s(0.01), 0, s(0.11)), s(0.11)));
  builder.addCollision("torso", capsuleShape<Scalar>("torso", V(s(-0.03), 0, s(-0.10)), V(s(-0.03), 0, s(0.10)), s(0.11)));
  builder.addCollision("Pelvis", capsuleShape<Scalar>("thigh", V(0, 0, 0), V(0, 0, s(-0.268)), s(0.10)));
  builder.addCollision("Tibia", capsuleShape<Scalar>("base", V(0, 0, s(-0.10)), V(0, 0, s(-0.25)), s(0.22)));
  internal::addSegmentCapsules(builder, internal::pepper::kJoints,
                               {{"LBicep", "LElbowYaw", "l_upper_arm", 0.045},
                                {"RBicep", "RElbowYaw", "r_upper_arm", 0.045},
                                {"LForeArm", "LWristYaw", "l_forearm", 0.04},
                                {"RForeArm", "RWristYaw", "r_forearm", 0.04}});
  builder.addCollision("l_wrist", capsuleShape<Scalar>("l_hand", V(0, 0, 0), V(s(0.08), 0, 0), s(0.035)));
  builder.addCollision("r_wrist", capsuleShape<Scalar>("r_hand", V(0, 0, 0), V(s(0.08), 0, 0), s(0.035)));
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makePepper<double>();
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makePepper<float>();
#endif

}  // namespace retarget
