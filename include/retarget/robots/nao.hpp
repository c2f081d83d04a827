#pragma once

/// @file
/// Built-in model of the NAO H25 V5 humanoid (SoftBank Robotics / Aldebaran), data in this
/// header, no file needed at run time.
///
/// Source of the numbers: links, joints (origins, axes, limits), masses and centres of mass
/// are transcribed from the ROS description ros-naoqi/nao_robot, file
/// nao_description/urdf/naoV50_generated_urdf/nao.urdf, commit
/// 67476469a1371b00b17538eb6ea336367ece7d44 (robot "NaoH25V50"; shipped for the tests as
/// ../shared/data/urdf/nao_h25_v50.urdf) by tests/robots/tools/urdf_to_table.py. Link
/// lengths and joint ranges agree with the Aldebaran "H25 links / joints" documentation
/// (compiled in ../shared/data/docs/nao_h25_kinematics_and_limits.yaml); where the two differ
/// the URDF value is used (e.g. the sole frames at 45.11 mm below the ankle, the documented
/// FootHeight is 45.19 mm; RHand is 12.13 mm below the wrist, LHand 12.31 mm).
///
/// Same link names and frames as the URDF (root `base_link`, then `torso`), so frames can be
/// compared one to one. RHipYawPitch is a mimic of LHipYawPitch (one motor drives both) and
/// the finger joints are mimics of LHand / RHand, as in the URDF, so q has the 25 NAOqi
/// coordinates in NAOqi order (see kNaoJointNames). LHand/RHand are 0 (closed) .. 1 (open).
///
/// Estimated (not from a source): the collision capsules and spheres, sized by eye from the
/// link lengths above and the published outer dimensions of NAO (about 0.57 m tall, 0.27 m
/// wide at the shoulders), except the torso, which is fitted to frames of the URDF; see
/// makeNao(). The URDF's own collision geometry is meshes plus 1 cm foot-pressure-sensor
/// boxes, which are not used.

#include <array>
#include <string>

#include <retarget/core/compilation.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/internal/robot_table.hpp>

namespace retarget {

/// The 25 configuration coordinates of the built-in NAO, in NAOqi order (the order of
/// ALMotion's "Body" joint list with RHipYawPitch left out, as it mimics LHipYawPitch).
inline const std::array<const char*, 25> kNaoJointNames = {
    "HeadYaw",        "HeadPitch",     "LShoulderPitch", "LShoulderRoll", "LElbowYaw",
    "LElbowRoll",     "LWristYaw",     "LHand",          "LHipYawPitch",  "LHipRoll",
    "LHipPitch",      "LKneePitch",    "LAnklePitch",    "LAnkleRoll",    "RHipRoll",
    "RHipPitch",      "RKneePitch",    "RAnklePitch",    "RAnkleRoll",    "RShoulderPitch",
    "RShoulderRoll",  "RElbowYaw",     "RElbowRoll",     "RWristYaw",     "RHand"};

namespace internal::nao {
// Transcribed from nao_h25_v50.urdf (see the file comment). Units: m, rad, kg.
inline constexpr RobotTableLink kLinks[] = {
    {"Neck", 0.07842, {-1e-05, 0.0, -0.02742}},
    {"Head", 0.60533, {-0.00112, 0.0, 0.05258}},
    {"gaze", 0.0, {0.0, 0.0, 0.0}},
    {"LPelvis", 0.06981, {-0.00781, -0.01114, 0.02661}},
    {"LHip", 0.14053, {-0.01549, 0.00029, -0.00515}},
    {"LThigh", 0.38968, {0.00138, 0.00221, -0.05373}},
    {"LTibia", 0.30142, {0.00453, 0.00225, -0.04936}},
    {"LAnklePitch", 0.13416, {0.00045, 0.00029, 0.00685}},
    {"l_ankle", 0.17184, {0.02542, 0.0033, -0.03239}},
    {"l_sole", 0.0, {0.0, 0.0, 0.0}},
    {"RPelvis", 0.06981, {-0.00781, 0.01114, 0.02661}},
    {"RHip", 0.14053, {-0.01549, -0.00029, -0.00515}},
    {"RThigh", 0.38968, {0.00138, -0.00221, -0.05373}},
    {"RTibia", 0.30142, {0.00453, -0.00225, -0.04936}},
    {"RAnklePitch", 0.13416, {0.00045, -0.00029, 0.00685}},
    {"r_ankle", 0.17184, {0.02542, -0.0033, -0.03239}},
    {"r_sole", 0.0, {0.0, 0.0, 0.0}},
    {"base_link", 0.0, {0.0, 0.0, 0.0}},
    {"torso", 1.04956, {-0.00413, 0.0, 0.04342}},
    {"LShoulder", 0.09304, {-0.00165, -0.02663, 0.00014}},
    {"LBicep", 0.15777, {0.02455, 0.00563, 0.0033}},
    {"LElbow", 0.06483, {-0.02744, 0.0, -0.00014}},
    {"LForeArm", 0.07761, {0.02556, 0.00281, 0.00076}},
    {"l_wrist", 0.18533, {0.03434, -0.00088, 0.00308}},
    {"l_gripper", 2e-06, {0.0, 0.0, 0.0}},
    {"RShoulder", 0.09304, {-0.00165, 0.02663, 0.00014}},
    {"RBicep", 0.15777, {0.02455, -0.00563, 0.0033}},
    {"RElbow", 0.06483, {-0.02744, 0.0, -0.00014}},
    {"RForeArm", 0.07761, {0.02556, -0.00281, 0.00076}},
    {"r_wrist", 0.18533, {0.03434, 0.00088, 0.00308}},
    {"r_gripper", 2e-06, {0.0, 0.0, 0.0}},
    {"LFootBumperRight_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RFsrRL_frame", 2e-06, {0.0, 0.0, 0.0}},
    {"CameraBottom_optical_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RFsrRR_frame", 2e-06, {0.0, 0.0, 0.0}},
    {"LFsrFR_frame", 2e-06, {0.0, 0.0, 0.0}},
    {"LHandTouchLeft_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RFootBumperRight_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RFsrFR_frame", 2e-06, {0.0, 0.0, 0.0}},
    {"LFsrRR_frame", 2e-06, {0.0, 0.0, 0.0}},
    {"ImuTorsoAccelerometer_frame", 0.0, {0.0, 0.0, 0.0}},
    {"HeadTouchFront_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RFootBumperLeft_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RSonar_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RHandTouchRight_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RHandTouchBack_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RFsrFL_frame", 2e-06, {0.0, 0.0, 0.0}},
    {"LSonar_frame", 0.0, {0.0, 0.0, 0.0}},
    {"LFsrFL_frame", 2e-06, {0.0, 0.0, 0.0}},
    {"LFsrRL_frame", 2e-06, {0.0, 0.0, 0.0}},
    {"RHandTouchLeft_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraBottom_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraTop_frame", 0.0, {0.0, 0.0, 0.0}},
    {"CameraTop_optical_frame", 0.0, {0.0, 0.0, 0.0}},
    {"LHandTouchBack_frame", 0.0, {0.0, 0.0, 0.0}},
    {"LInfraRed_frame", 0.0, {0.0, 0.0, 0.0}},
    {"ImuTorsoGyrometer_frame", 0.0, {0.0, 0.0, 0.0}},
    {"HeadTouchRear_frame", 0.0, {0.0, 0.0, 0.0}},
    {"HeadTouchMiddle_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RInfraRed_frame", 0.0, {0.0, 0.0, 0.0}},
    {"ChestButton_frame", 0.0, {0.0, 0.0, 0.0}},
    {"LFootBumperLeft_frame", 0.0, {0.0, 0.0, 0.0}},
    {"LHandTouchRight_frame", 0.0, {0.0, 0.0, 0.0}},
    {"RFinger13_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger12_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger21_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger13_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger11_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger22_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger22_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger21_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger12_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger23_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RFinger11_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LFinger23_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LThumb1_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RThumb1_link", 2e-06, {0.0, 0.0, 0.0}},
    {"RThumb2_link", 2e-06, {0.0, 0.0, 0.0}},
    {"LThumb2_link", 2e-06, {0.0, 0.0, 0.0}},
};
inline constexpr RobotTableJoint kJoints[] = {
    {"HeadYaw", JointType::kRevolute, "torso", "Neck", {0.0, 0.0, 0.1265}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -2.08567, 2.08567, 8.26797, 1.547, nullptr, 1.0, 0.0},
    {"HeadPitch", JointType::kRevolute, "Neck", "Head", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.671952, 0.514872, 7.19407, 1.532, nullptr, 1.0, 0.0},
    {"gaze_joint", JointType::kFixed, "Head", "gaze", {0.05871, 0.0, 0.06364}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LHipYawPitch", JointType::kRevolute, "torso", "LPelvis", {0.0, 0.05, -0.085}, {0.0, 0.0, 0.0}, {0.0, 0.707106, -0.707106},
     -1.14529, 0.740718, 4.16174, 3.348, nullptr, 1.0, 0.0},
    {"LHipRoll", JointType::kRevolute, "LPelvis", "LHip", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.379435, 0.79046, 4.16174, 3.348, nullptr, 1.0, 0.0},
    {"LHipPitch", JointType::kRevolute, "LHip", "LThigh", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.53589, 0.48398, 6.40239, 3.023, nullptr, 1.0, 0.0},
    {"LKneePitch", JointType::kRevolute, "LThigh", "LTibia", {0.0, 0.0, -0.1}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.0923279, 2.11255, 6.40239, 3.023, nullptr, 1.0, 0.0},
    {"LAnklePitch", JointType::kRevolute, "LTibia", "LAnklePitch", {0.0, 0.0, -0.1029}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.18944, 0.922581, 6.40239, 3.023, nullptr, 1.0, 0.0},
    {"LAnkleRoll", JointType::kRevolute, "LAnklePitch", "l_ankle", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.397761, 0.768992, 4.16174, 3.348, nullptr, 1.0, 0.0},
    {"LLeg_effector_fixedjoint", JointType::kFixed, "l_ankle", "l_sole", {0.0, 0.0, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RHipYawPitch", JointType::kRevolute, "torso", "RPelvis", {0.0, -0.05, -0.085}, {0.0, 0.0, 0.0}, {0.0, 0.707106, 0.707106},
     -1.14529, 0.740718, 4.16174, 3.348, "LHipYawPitch", 1.0, 0.0},
    {"RHipRoll", JointType::kRevolute, "RPelvis", "RHip", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.79046, 0.379435, 4.16174, 3.348, nullptr, 1.0, 0.0},
    {"RHipPitch", JointType::kRevolute, "RHip", "RThigh", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.53589, 0.48398, 6.40239, 3.0226, nullptr, 1.0, 0.0},
    {"RKneePitch", JointType::kRevolute, "RThigh", "RTibia", {0.0, 0.0, -0.1}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -0.0923279, 2.11255, 6.40239, 3.0226, nullptr, 1.0, 0.0},
    {"RAnklePitch", JointType::kRevolute, "RTibia", "RAnklePitch", {0.0, 0.0, -0.1029}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -1.1863, 0.932006, 6.40239, 3.0226, nullptr, 1.0, 0.0},
    {"RAnkleRoll", JointType::kRevolute, "RAnklePitch", "r_ankle", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -0.768992, 0.397761, 4.16174, 3.348, nullptr, 1.0, 0.0},
    {"RLeg_effector_fixedjoint", JointType::kFixed, "r_ankle", "r_sole", {0.0, 0.0, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"base_link_fixedjoint", JointType::kFixed, "base_link", "torso", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LShoulderPitch", JointType::kRevolute, "torso", "LShoulder", {0.0, 0.098, 0.1}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -2.08567, 2.08567, 8.26797, 1.329, nullptr, 1.0, 0.0},
    {"LShoulderRoll", JointType::kRevolute, "LShoulder", "LBicep", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -0.314159, 1.32645, 7.19407, 1.7835, nullptr, 1.0, 0.0},
    {"LElbowYaw", JointType::kRevolute, "LBicep", "LElbow", {0.105, 0.015, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -2.08567, 2.08567, 8.26797, 1.547, nullptr, 1.0, 0.0},
    {"LElbowRoll", JointType::kRevolute, "LElbow", "LForeArm", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.54462, -0.0349066, 7.19407, 1.532, nullptr, 1.0, 0.0},
    {"LWristYaw", JointType::kRevolute, "LForeArm", "l_wrist", {0.05595, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.82387, 1.82387, 24.6229, 0.4075, nullptr, 1.0, 0.0},
    {"LHand", JointType::kRevolute, "l_wrist", "l_gripper", {0.05775, 0.0, -0.01231}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.0, 8.33, 0.292, nullptr, 1.0, 0.0},
    {"RShoulderPitch", JointType::kRevolute, "torso", "RShoulder", {0.0, -0.098, 0.1}, {0.0, 0.0, 0.0}, {0.0, 1.0, 0.0},
     -2.08567, 2.08567, 8.26797, 1.329, nullptr, 1.0, 0.0},
    {"RShoulderRoll", JointType::kRevolute, "RShoulder", "RBicep", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.32645, 0.314159, 7.19407, 1.783, nullptr, 1.0, 0.0},
    {"RElbowYaw", JointType::kRevolute, "RBicep", "RElbow", {0.105, -0.015, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -2.08567, 2.08567, 8.26797, 1.547, nullptr, 1.0, 0.0},
    {"RElbowRoll", JointType::kRevolute, "RElbow", "RForeArm", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     0.0349066, 1.54462, 7.19407, 1.532, nullptr, 1.0, 0.0},
    {"RWristYaw", JointType::kRevolute, "RForeArm", "r_wrist", {0.05595, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.82387, 1.82387, 24.6229, 0.4075, nullptr, 1.0, 0.0},
    {"RHand", JointType::kRevolute, "r_wrist", "r_gripper", {0.05775, 0.0, -0.01213}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.0, 8.33, 0.292, nullptr, 1.0, 0.0},
    {"LFoot/Bumper/Right_sensor_fixedjoint", JointType::kFixed, "l_ankle", "LFootBumperRight_frame", {0.0876, -0.014, -0.0353}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RFoot/FSR/RearLeft_sensor_fixedjoint", JointType::kFixed, "r_ankle", "RFsrRL_frame", {-0.03025, 0.0191, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraBottom_optical_frame_fixedjoint", JointType::kFixed, "CameraBottom_frame", "CameraBottom_optical_frame", {0.0, 0.0, 0.0}, {-1.57079632679, 0.0, -1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RFoot/FSR/RearRight_sensor_fixedjoint", JointType::kFixed, "r_ankle", "RFsrRR_frame", {-0.02965, -0.0299, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LFoot/FSR/FrontRight_sensor_fixedjoint", JointType::kFixed, "l_ankle", "LFsrFR_frame", {0.07025, -0.0231, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LHand/Touch/Left_sensor_fixedjoint", JointType::kFixed, "l_wrist", "LHandTouchLeft_frame", {0.032, 0.025, 0.003}, {0.0, 0.0, 1.5708}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RFoot/Bumper/Right_sensor_fixedjoint", JointType::kFixed, "r_ankle", "RFootBumperRight_frame", {0.0876, -0.019, -0.0353}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RFoot/FSR/FrontRight_sensor_fixedjoint", JointType::kFixed, "r_ankle", "RFsrFR_frame", {0.07025, -0.0299, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LFoot/FSR/RearRight_sensor_fixedjoint", JointType::kFixed, "l_ankle", "LFsrRR_frame", {-0.02965, -0.0191, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Accelerometer_sensor_fixedjoint", JointType::kFixed, "torso", "ImuTorsoAccelerometer_frame", {-0.008, 0.00606, 0.027}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Head/Touch/Front_sensor_fixedjoint", JointType::kFixed, "Head", "HeadTouchFront_frame", {0.0312, 0.0, 0.1014}, {0.0, -1.1861, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RFoot/Bumper/Left_sensor_fixedjoint", JointType::kFixed, "r_ankle", "RFootBumperLeft_frame", {0.0876, 0.014, -0.0353}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Sonar/Right_sensor_fixedjoint", JointType::kFixed, "torso", "RSonar_frame", {0.00558253, -0.0192068, 0.0623853}, {0.00478508, 0.0436497, -0.392441}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RHand/Touch/Right_sensor_fixedjoint", JointType::kFixed, "r_wrist", "RHandTouchRight_frame", {0.035, -0.025, 0.0035}, {0.0, 0.0, -1.5708}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RHand/Touch/Back_sensor_fixedjoint", JointType::kFixed, "r_wrist", "RHandTouchBack_frame", {0.038, 0.0, 0.025}, {3.14159, -1.5708, 3.14159}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RFoot/FSR/FrontLeft_sensor_fixedjoint", JointType::kFixed, "r_ankle", "RFsrFL_frame", {0.07025, 0.0231, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Sonar/Left_sensor_fixedjoint", JointType::kFixed, "torso", "LSonar_frame", {0.00558253, 0.0192068, 0.0623853}, {-0.00478508, 0.0436497, 0.392441}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LFoot/FSR/FrontLeft_sensor_fixedjoint", JointType::kFixed, "l_ankle", "LFsrFL_frame", {0.07025, 0.0299, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LFoot/FSR/RearLeft_sensor_fixedjoint", JointType::kFixed, "l_ankle", "LFsrRL_frame", {-0.03025, 0.0299, -0.04511}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RHand/Touch/Left_sensor_fixedjoint", JointType::kFixed, "r_wrist", "RHandTouchLeft_frame", {0.032, 0.025, 0.003}, {0.0, 0.0, 1.5708}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraBottom_sensor_fixedjoint", JointType::kFixed, "Head", "CameraBottom_frame", {0.05071, 0.0, 0.01774}, {0.0, 0.692896, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraTop_sensor_fixedjoint", JointType::kFixed, "Head", "CameraTop_frame", {0.05871, 0.0, 0.06364}, {0.0, 0.0209435, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"CameraTop_optical_frame_fixedjoint", JointType::kFixed, "CameraTop_frame", "CameraTop_optical_frame", {0.0, 0.0, 0.0}, {-1.57079632679, 0.0, -1.57079632679}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LHand/Touch/Back_sensor_fixedjoint", JointType::kFixed, "l_wrist", "LHandTouchBack_frame", {0.038, 0.0, 0.025}, {3.14159, -1.5708, 3.14159}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"InfraredL_sensor_fixedjoint", JointType::kFixed, "Head", "LInfraRed_frame", {0.0441, 0.0257, 0.0466}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Gyrometer_sensor_fixedjoint", JointType::kFixed, "torso", "ImuTorsoGyrometer_frame", {-0.008, 0.006, 0.029}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Head/Touch/Rear_sensor_fixedjoint", JointType::kFixed, "Head", "HeadTouchRear_frame", {-0.0257, 0.0, 0.1045}, {3.14159, -1.33319, -3.14159}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"Head/Touch/Middle_sensor_fixedjoint", JointType::kFixed, "Head", "HeadTouchMiddle_frame", {0.001, 0.0, 0.1099}, {3.14159, -1.57079, -3.14159}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"InfraredR_sensor_fixedjoint", JointType::kFixed, "Head", "RInfraRed_frame", {0.0441, -0.0257, 0.0466}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"ChestBoard/Button_sensor_fixedjoint", JointType::kFixed, "torso", "ChestButton_frame", {0.049871, 0.001588, 0.055163}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LFoot/Bumper/Left_sensor_fixedjoint", JointType::kFixed, "l_ankle", "LFootBumperLeft_frame", {0.0876, 0.019, -0.0353}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"LHand/Touch/Right_sensor_fixedjoint", JointType::kFixed, "l_wrist", "LHandTouchRight_frame", {0.035, -0.025, 0.0035}, {0.0, 0.0, -1.5708}, {0.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"RFinger13", JointType::kContinuous, "RFinger12_link", "RFinger13_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.999899, 0.0},
    {"RFinger12", JointType::kContinuous, "RFinger11_link", "RFinger12_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.999899, 0.0},
    {"LFinger21", JointType::kContinuous, "l_wrist", "LFinger21_link", {0.06907, -0.01157, -0.00304}, {1.25539, 0.976662, -0.264067}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.999899, 0.0},
    {"LFinger13", JointType::kContinuous, "LFinger12_link", "LFinger13_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.999899, 0.0},
    {"LFinger11", JointType::kContinuous, "l_wrist", "LFinger11_link", {0.06907, 0.01157, -0.00304}, {1.8862, 0.976662, 0.264067}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.999899, 0.0},
    {"RFinger22", JointType::kContinuous, "RFinger21_link", "RFinger22_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.999899, 0.0},
    {"LFinger22", JointType::kContinuous, "LFinger21_link", "LFinger22_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.999899, 0.0},
    {"RFinger21", JointType::kContinuous, "r_wrist", "RFinger21_link", {0.06907, -0.01157, -0.00304}, {1.25539, 0.976662, -0.264067}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.999899, 0.0},
    {"LFinger12", JointType::kContinuous, "LFinger11_link", "LFinger12_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.999899, 0.0},
    {"RFinger23", JointType::kContinuous, "RFinger22_link", "RFinger23_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.999899, 0.0},
    {"RFinger11", JointType::kContinuous, "r_wrist", "RFinger11_link", {0.06907, 0.01157, -0.00304}, {1.8862, 0.976662, 0.264067}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.999899, 0.0},
    {"LFinger23", JointType::kContinuous, "LFinger22_link", "LFinger23_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.999899, 0.0},
    {"LThumb1", JointType::kContinuous, "l_wrist", "LThumb1_link", {0.04895, 0.0, -0.02638}, {-1.5708, 0.0472984, -3.26826e-08}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.999899, 0.0},
    {"RThumb1", JointType::kContinuous, "r_wrist", "RThumb1_link", {0.04895, 0.0, -0.02638}, {-1.5708, 0.0472984, -3.26826e-08}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.999899, 0.0},
    {"RThumb2", JointType::kContinuous, "RThumb1_link", "RThumb2_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "RHand", 0.999899, 0.0},
    {"LThumb2", JointType::kContinuous, "LThumb1_link", "LThumb2_link", {0.01436, 0.0, 0.0}, {0.0, 0.0, -0.999899}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, "LHand", 0.999899, 0.0},
};
}  // namespace internal::nao

/// Builds the NAO H25 V5 model: 79 links rooted at `base_link`, 25 coordinates ordered as
/// kNaoJointNames (rad; LHand/RHand unitless 0..1), limits, masses (total 5.305 kg as in the
/// URDF) and an estimated collision model of 15 capsules/spheres:
///
/// | link | shape | segment (link frame, m) | radius (m) |
/// |---|---|---|---|
/// | Head | sphere | (0, 0, 0.055) | 0.065 |
/// | torso | capsule | (-0.005, 0, -0.03) .. (-0.005, 0, 0.07) | 0.055 |
/// | L/RBicep | capsule | (0.03, +-0.0043, 0) .. (0.075, +-0.0107, 0) | 0.03 |
/// | L/RForeArm | capsule | (0, 0, 0) .. (0.05595, 0, 0) | 0.03 |
/// | l/r_wrist (hand) | capsule | (0, 0, 0) .. (0.06, 0, -0.01) | 0.025 |
/// | L/RThigh | capsule | (0, 0, -0.015) .. (0, 0, -0.085) | 0.04 |
/// | L/RTibia | capsule | (0, 0, -0.01) .. (0, 0, -0.09) | 0.035 |
/// | l/r_ankle (foot) | capsule | (-0.02, 0, -0.02) .. (0.07, 0, -0.02) | 0.025 |
///
/// Each shape is named after its body part ("head", "torso", "l_upper_arm", "l_forearm",
/// "l_hand", "l_thigh", "l_tibia", "l_foot", and "r_..."). Never throws for the built-in data.
///
/// The torso capsule is fitted to three frames of the URDF (torso frame, m): its front reaches
/// the chest button (ChestButton_frame at x = 0.0499; capsule front -0.005 + 0.055 = 0.050),
/// its bottom the hip joints (HipOffsetZ: z = -0.085 = -0.03 - 0.055) and its top the neck joint
/// (NeckOffsetZ: z = 0.1265; capsule top 0.07 + 0.055 = 0.125); its axis passes the torso's
/// centre of mass (x = -0.004). That leaves the shoulder joints (ShoulderOffsetY = 0.098) 43 mm
/// outside it, the room of NAO's shoulder caps. The upper arm spans its link exactly: radius
/// 0.03 around the line from the shoulder-roll joint to the elbow-yaw joint (UpperArmLength
/// 0.105 along x, ElbowOffsetY 0.015), the segment inset by the radius at both ends. An upper
/// arm hanging straight down (pitch pi/2, roll 0) then clears the torso by
/// |(0.005, 0.098 + 0.015 * 0.03 / 0.105, 0)| - 0.055 - 0.03 = 17.4 mm, and the demo motions
/// keep the default 1 cm margin of safety/self_collision.hpp on every frame (both checked by
/// tests/safety/nao_collision_model_test.cpp). The earlier estimates put every frame of a normal
/// motion closer than the margin: the torso (radius 0.07 on x = -0.01) reached 1 cm past the
/// chest button and 1.5 cm below the hips, and an upper arm hanging straight down came within
/// 1 mm of it (1.5 to 1.8 mm at rest in the demo motions); the upper arm (0.02 .. 0.085) reached
/// 1 cm past the elbow joint, so a hand waving at full elbow flexion came 7 mm from it.
template <typename Scalar = double>
RobotModel<Scalar> makeNao() {
  using V = Vector3<Scalar>;
  using internal::capsuleShape;
  RobotModelBuilder<Scalar> builder("NaoH25V50");
  internal::fillFromTables(builder, internal::nao::kLinks, internal::nao::kJoints, nullptr, 0,
                           std::vector<std::string>(kNaoJointNames.begin(), kNaoJointNames.end()));
  const auto s = [](double v) { return static_cast<Scalar>(v); };
  builder.addCollision("Head", capsuleShape<Scalar>("head", V(0, 0, s(0.055)), V(0, 0, s(0.055)), s(0.065)));
  // Torso fitted to the URDF's chest button, hip and neck frames (see the table note above).
  builder.addCollision("torso", capsuleShape<Scalar>("torso", V(s(-0.005), 0, s(-0.03)), V(s(-0.005), 0, s(0.07)), s(0.055)));
  for (const int side : {1, -1}) {
    const bool left = side > 0;
    const std::string p = left ? "l_" : "r_";
    const std::string P = left ? "L" : "R";
    // Upper arm: radius 0.03 around the line from the shoulder-roll joint to the elbow-yaw joint
    // (UpperArmLength 0.105, ElbowOffsetY 0.015), ends inset by the radius so that the capsule
    // spans exactly that link, from the shoulder to the elbow joint.
    const double upper_arm = 0.105, elbow_y = 0.015 * side, r_arm = 0.03;
    const double t0 = r_arm / upper_arm, t1 = (upper_arm - r_arm) / upper_arm;
    builder.addCollision(P + "Bicep", capsuleShape<Scalar>(p + "upper_arm", V(s(t0 * upper_arm), s(t0 * elbow_y), 0),
                                                            V(s(t1 * upper_arm), s(t1 * elbow_y), 0), s(r_arm)));
    builder.addCollision(P + "ForeArm", capsuleShape<Scalar>(p + "forearm", V(0, 0, 0), V(s(0.05595), 0, 0), s(0.03)));
    builder.addCollision(p + "wrist", capsuleShape<Scalar>(p + "hand", V(0, 0, 0), V(s(0.06), 0, s(-0.01)), s(0.025)));
    builder.addCollision(P + "Thigh", capsuleShape<Scalar>(p + "thigh", V(0, 0, s(-0.015)), V(0, 0, s(-0.085)), s(0.04)));
    builder.addCollision(P + "Tibia", capsuleShape<Scalar>(p + "tibia", V(0, 0, s(-0.01)), V(0, 0, s(-0.09)), s(0.035)));
    builder.addCollision(p + "ankle", capsuleShape<Scalar>(p + "foot", V(s(-0.02), 0, s(-0.02)), V(s(0.07), 0, s(-0.02)), s(0.025)));
  }
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makeNao<double>();
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makeNao<float>();
#endif

}  // namespace retarget
