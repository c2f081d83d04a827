#pragma once

/// @file
/// Built-in model of the InMoov life-size 3D-printed humanoid (upper body), restricted to the
/// 22 joints controlled in seed 002 ("human-in-the-loop imitation control of InMoov",
/// Section 3): 2 neck, 3 per shoulder, 1 elbow and 1 wrist per arm, 5 fingers per hand.
///
/// Source of the numbers:
/// - Geometry (every link origin, joint axis, finger coupling) is transcribed from the ROS
///   description alansrobotlab/inmoov_ros, inmoov_description/robots/inmoov.urdf, commit
///   4dcdc578e6e38259954e6eb1b8ec157769da5b86 (../shared/data/urdf/inmoov.urdf), by
///   tests/robots/tools/urdf_to_table.py; link names and frames are the URDF's.
/// - Which joints are controlled comes from seed 002 (Section 3: "5 DOF for each hand, ... 3 for
///   each shoulder, and 2 for the neck"). The seed's sentence also says "4 for each arm", which
///   would make 26, not its stated 22; we read "arm" as shoulder + elbow and give each arm an
///   elbow and a wrist joint (22 in all).
/// - Position limits: the real robot's servo ranges, where they are tighter than the URDF's,
///   else the URDF's. The servo ranges are MyRobotLab's InMoov2 servo configurations
///   (MyRobotLab/InMoov2, config/InMoov2_Full/i01.<part>.yml: minOut..maxOut and rest in servo
///   degrees; commits 2b926bda45e9a06b8ca820edffeaa371859ff9e0 for the arm and bicep files,
///   79cb407d20e40864dc87856057e00be58b126954 for rothead and wrist,
///   91d33d0159833a2ee86dd44ba173bdb1665d7df6 for neck, 4d2a9cd06c38c1ce6d54fefe9d800c57f49c86fe
///   for shoulder and the fingers), turned into joint angles by the servo table
///   (adapters/serial/inmoov_servo_table.hpp: q = direction * (servo degrees - rest) * pi / 180,
///   the rest pose being q = 0). So every q inside the limits reaches its servo unclamped.
///   The seed's elbow range (0, 135) deg and shoulder ranges s1 (-30, 120), s2 (-120, 90),
///   s3 (-20, 20) deg (Section 5) are not used: the real elbow servo stops at 90 deg, and the
///   seed does not say which physical shoulder joint each range is.
///
/// Joint correspondence and limits (seed 002 -> URDF joint = configuration coordinate; rad):
/// | seed | URDF joint | axis | URDF limits | MyRobotLab servo (rest) -> q | built-in limits |
/// |---|---|---|---|---|---|
/// | neck pitch | head_updown | y | +-0.30 | neck 20..160 (90) -> +-1.22 | +-0.30 (URDF) |
/// | neck yaw | head_leftright | z | +-1.57 | rothead 30..150 (90) -> +-1.047 | +-1.047 (servo) |
/// | shoulder, Eq. 2 | {right,left}_shoulder_side | y | 0..0.75 | omoplate 10..80 (10) -> 0..1.22 | 0..0.75 (URDF) |
/// | shoulder, Eq. 2 | {right,left}_shoulder_up | x | 0..3.14 | shoulder 0..180 (30) -> -0.52..2.618 | 0..2.618 (both) |
/// | shoulder, Eq. 2 | {right,left}_bicep_rotate | z | +-1.57 | rotate 40..180 (90) -> -0.873..1.571 | -0.873..1.57 (both) |
/// | elbow bend, Eq. 6 | {right,left}_bicep | x | 0.4..1.57 | bicep 0..90 (0) -> 0..1.571 | 0..1.57 (servo; see below) |
/// | wrist rotation, Eq. 10 | {right,left}_hand | z | right -3.14..0, left 0..3.14 | wrist 0..180 (0) -> 0..3.1416 (right: -) | the URDF's |
/// | 5 fingers per hand | {right,left}_thumb, _index, _middle, _ring, _pinky | x | 0..1.5 | finger 0..180 (0) -> 0..3.14 | 0..1.5 (URDF) |
///
/// The elbow's lower limit is the one place where the built-in model leaves both the URDF and
/// the intersection rule: the URDF's 0.4 rad (23 deg) would forbid the straight elbow, yet the
/// straight elbow (bicep servo 0) is the pose MyRobotLab rests the arm in, and at q = 0 the
/// URDF's own forearm continues the upper arm in a straight line. A limit that excludes the
/// robot's rest pose is not the mechanism's; we take 0 (tests/robots/builtin_models_test.cpp
/// names the difference).
///
/// Differences from the URDF (documented choices):
/// - waist_rotate, waist_lean, head_tilt, jaw, eyes_updown, eye_leftright and
///   left_eye_leftright are fixed at 0 (not controlled in the seed). head_tilt is one of the
///   URDF's four joints with lower > upper (0.30 > -0.30); being fixed, it needs no limits.
/// - The other three such joints (left_thumb1, left_ring1, left_pinky1) are mimic joints of
///   the finger drivers; their limits are informational only and were replaced by 0..1.57.
/// - The finger segments stay mimic joints of the five driver joints per hand, as in the URDF.
///
/// Estimated (no source): masses are zero (the URDF has no inertials), and the collision
/// model (see makeInMoov()) is sized by eye for a life-size adult.

#include <array>
#include <string>

#include <retarget/core/compilation.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/internal/robot_table.hpp>

namespace retarget {

/// The 22 configuration coordinates of the built-in InMoov, in q order: neck, right arm and
/// hand, left arm and hand.
inline const std::array<const char*, 22> kInMoovJointNames = {
    "head_updown",       "head_leftright",     "right_shoulder_side", "right_shoulder_up", "right_bicep_rotate",
    "right_bicep",       "right_hand",         "right_thumb",         "right_index",       "right_middle",
    "right_ring",        "right_pinky",        "left_shoulder_side",  "left_shoulder_up",  "left_bicep_rotate",
    "left_bicep",        "left_hand",          "left_thumb",          "left_index",        "left_middle",
    "left_ring",         "left_pinky"};

namespace internal::inmoov {
// Transcribed from inmoov.urdf (see the file comment), with the fixed joints and limit
// changes listed there. Units: m, rad, kg.
inline constexpr RobotTableLink kLinks[] = {
    {"base_link", 0.0, {0.0, 0.0, 0.0}},
    {"pedestal", 0.0, {0.0, 0.0, 0.0}},
    {"head_tilt", 0.0, {0.0, 0.0, 0.0}},
    {"mid_stomach", 0.0, {0.0, 0.0, 0.0}},
    {"disk", 0.0, {0.0, 0.0, 0.0}},
    {"top_stomach", 0.0, {0.0, 0.0, 0.0}},
    {"torso", 0.0, {0.0, 0.0, 0.0}},
    {"kinect2_link", 0.0, {0.0, 0.0, 0.0}},
    {"kinect2_ir_optical_frame", 0.0, {0.0, 0.0, 0.0}},
    {"kinect2_rgb_optical_frame", 0.0, {0.0, 0.0, 0.0}},
    {"chestplate", 0.0, {0.0, 0.0, 0.0}},
    {"head_base", 0.0, {0.0, 0.0, 0.0}},
    {"head", 0.0, {0.0, 0.0, 0.0}},
    {"jaw", 0.0, {0.0, 0.0, 0.0}},
    {"skull", 0.0, {0.0, 0.0, 0.0}},
    {"left_ear", 0.0, {0.0, 0.0, 0.0}},
    {"right_ear", 0.0, {0.0, 0.0, 0.0}},
    {"face", 0.0, {0.0, 0.0, 0.0}},
    {"eyesupport", 0.0, {0.0, 0.0, 0.0}},
    {"right_eyesupport", 0.0, {0.0, 0.0, 0.0}},
    {"right_camera", 0.0, {0.0, 0.0, 0.0}},
    {"right_eye", 0.0, {0.0, 0.0, 0.0}},
    {"right_iris", 0.0, {0.0, 0.0, 0.0}},
    {"left_eyesupport", 0.0, {0.0, 0.0, 0.0}},
    {"left_camera", 0.0, {0.0, 0.0, 0.0}},
    {"left_eye", 0.0, {0.0, 0.0, 0.0}},
    {"left_iris", 0.0, {0.0, 0.0, 0.0}},
    {"right_shoulder_base", 0.0, {0.0, 0.0, 0.0}},
    {"right_shoulder", 0.0, {0.0, 0.0, 0.0}},
    {"right_bicep", 0.0, {0.0, 0.0, 0.0}},
    {"right_bicepcover", 0.0, {0.0, 0.0, 0.0}},
    {"right_forearm", 0.0, {0.0, 0.0, 0.0}},
    {"right_hand", 0.0, {0.0, 0.0, 0.0}},
    {"right_thumb1", 0.0, {0.0, 0.0, 0.0}},
    {"right_thumb2", 0.0, {0.0, 0.0, 0.0}},
    {"right_thumb3", 0.0, {0.0, 0.0, 0.0}},
    {"right_index1", 0.0, {0.0, 0.0, 0.0}},
    {"right_index2", 0.0, {0.0, 0.0, 0.0}},
    {"right_index3", 0.0, {0.0, 0.0, 0.0}},
    {"right_middle1", 0.0, {0.0, 0.0, 0.0}},
    {"right_middle2", 0.0, {0.0, 0.0, 0.0}},
    {"right_middle3", 0.0, {0.0, 0.0, 0.0}},
    {"right_ring1", 0.0, {0.0, 0.0, 0.0}},
    {"right_ring2", 0.0, {0.0, 0.0, 0.0}},
    {"right_ring3", 0.0, {0.0, 0.0, 0.0}},
    {"right_ring4", 0.0, {0.0, 0.0, 0.0}},
    {"right_pinky1", 0.0, {0.0, 0.0, 0.0}},
    {"right_pinky2", 0.0, {0.0, 0.0, 0.0}},
    {"right_pinky3", 0.0, {0.0, 0.0, 0.0}},
    {"right_pinky4", 0.0, {0.0, 0.0, 0.0}},
    {"right_handcover", 0.0, {0.0, 0.0, 0.0}},
    {"right_cover_handring", 0.0, {0.0, 0.0, 0.0}},
    {"right_cover_handpinky", 0.0, {0.0, 0.0, 0.0}},
    {"right_cover_thumb", 0.0, {0.0, 0.0, 0.0}},
    {"right_cover_index", 0.0, {0.0, 0.0, 0.0}},
    {"right_cover_middle", 0.0, {0.0, 0.0, 0.0}},
    {"right_cover_ring", 0.0, {0.0, 0.0, 0.0}},
    {"right_cover_pinky", 0.0, {0.0, 0.0, 0.0}},
    {"left_shoulder_base", 0.0, {0.0, 0.0, 0.0}},
    {"left_shoulder", 0.0, {0.0, 0.0, 0.0}},
    {"left_bicep", 0.0, {0.0, 0.0, 0.0}},
    {"left_bicepcover", 0.0, {0.0, 0.0, 0.0}},
    {"left_forearm", 0.0, {0.0, 0.0, 0.0}},
    {"left_hand", 0.0, {0.0, 0.0, 0.0}},
    {"left_thumb1", 0.0, {0.0, 0.0, 0.0}},
    {"left_thumb2", 0.0, {0.0, 0.0, 0.0}},
    {"left_thumb3", 0.0, {0.0, 0.0, 0.0}},
    {"left_index1", 0.0, {0.0, 0.0, 0.0}},
    {"left_index2", 0.0, {0.0, 0.0, 0.0}},
    {"left_index3", 0.0, {0.0, 0.0, 0.0}},
    {"left_middle1", 0.0, {0.0, 0.0, 0.0}},
    {"left_middle2", 0.0, {0.0, 0.0, 0.0}},
    {"left_middle3", 0.0, {0.0, 0.0, 0.0}},
    {"left_ring1", 0.0, {0.0, 0.0, 0.0}},
    {"left_ring2", 0.0, {0.0, 0.0, 0.0}},
    {"left_ring3", 0.0, {0.0, 0.0, 0.0}},
    {"left_ring4", 0.0, {0.0, 0.0, 0.0}},
    {"left_pinky1", 0.0, {0.0, 0.0, 0.0}},
    {"left_pinky2", 0.0, {0.0, 0.0, 0.0}},
    {"left_pinky3", 0.0, {0.0, 0.0, 0.0}},
    {"left_pinky4", 0.0, {0.0, 0.0, 0.0}},
    {"left_handcover", 0.0, {0.0, 0.0, 0.0}},
    {"left_cover_handring", 0.0, {0.0, 0.0, 0.0}},
    {"left_cover_handpinky", 0.0, {0.0, 0.0, 0.0}},
    {"left_cover_thumb", 0.0, {0.0, 0.0, 0.0}},
    {"left_cover_index", 0.0, {0.0, 0.0, 0.0}},
    {"left_cover_middle", 0.0, {0.0, 0.0, 0.0}},
    {"left_cover_ring", 0.0, {0.0, 0.0, 0.0}},
    {"left_cover_pinky", 0.0, {0.0, 0.0, 0.0}},
};
inline constexpr RobotTableJoint kJoints[] = {
    {"base_to_pedestal", JointType::kFixed, "base_link", "pedestal", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"pedestal_to_mid_stomach", JointType::kFixed, "pedestal", "mid_stomach", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"waist_rotate", JointType::kFixed, "mid_stomach", "top_stomach", {0.0, 0.0, 1.152}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"disk", JointType::kFixed, "top_stomach", "disk", {0.046, 0.0, 0.09}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"waist_lean", JointType::kFixed, "top_stomach", "torso", {0.0, 0.0, 0.11}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"chestplate", JointType::kFixed, "torso", "chestplate", {0.039, 0.0, 0.025}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"kinect2", JointType::kFixed, "torso", "kinect2_link", {0.0, 0.0, 0.066}, {-1.57, 0.0, -1.57}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"kinect2_ir_optical_frame", JointType::kFixed, "torso", "kinect2_ir_optical_frame", {0.0, 0.0, 0.066}, {-1.57, 0.0, -1.57}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"kinect2_rgb_optical", JointType::kFixed, "torso", "kinect2_rgb_optical_frame", {0.0, 0.0, 0.066}, {-1.57, 0.0, -1.57}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"head_tilt", JointType::kFixed, "torso", "head_tilt", {-0.0315, -0.001, 0.4551}, {0.0, 0.0, 3.1415}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"head_updown", JointType::kRevolute, "head_tilt", "head_base", {0.0, 0.0, 0.0}, {0.0, 0.0, 3.1415}, {0.0, 1.0, 0.0},
     -0.3, 0.3, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"head_leftright", JointType::kRevolute, "head_base", "head", {0.0, 0.0, 0.0245}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -1.0471975511965976, 1.0471975511965976, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"jaw", JointType::kFixed, "head", "jaw", {0.0375, 0.0005, 0.0437}, {0.0, -0.09, 3.1415}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"skull", JointType::kFixed, "head", "skull", {0.044, 0.0, -0.0245}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_ear", JointType::kFixed, "head", "left_ear", {0.035, 0.056, 0.0437}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_ear", JointType::kFixed, "head", "right_ear", {0.035, -0.056, 0.0437}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"eyes_updown", JointType::kFixed, "face", "eyesupport", {0.0, 0.0, 0.0}, {0.0, 0.0, 3.1415}, {0.0, 1.0, 0.0},
     -kNoLimit, kNoLimit, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_camera", JointType::kFixed, "right_eyesupport", "right_camera", {-0.001, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_eye", JointType::kFixed, "right_eyesupport", "right_eye", {0.003, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_iris", JointType::kFixed, "right_eyesupport", "right_iris", {0.0061, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"eye_leftright", JointType::kFixed, "eyesupport", "right_eyesupport", {0.0, 0.033, -0.0036}, {0.0, 0.0, 3.1415}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_camera", JointType::kFixed, "left_eyesupport", "left_camera", {-0.001, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_eye", JointType::kFixed, "left_eyesupport", "left_eye", {0.003, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_iris", JointType::kFixed, "left_eyesupport", "left_iris", {0.0061, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_eye_leftright", JointType::kFixed, "eyesupport", "left_eyesupport", {0.0, -0.033, -0.0036}, {0.0, 0.0, 3.1415}, {0.0, 0.0, 1.0},
     -kNoLimit, kNoLimit, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"face", JointType::kFixed, "skull", "face", {0.0637, 0.0, 0.079}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_shoulder_up", JointType::kRevolute, "right_shoulder_base", "right_shoulder", {-0.012, 0.0, -0.04}, {0.0, 0.0, 3.14}, {1.0, 0.0, 0.0},
     0.0, 2.6179938779914944, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_bicep_rotate", JointType::kRevolute, "right_shoulder", "right_bicep", {0.066, 0.0, -0.06}, {0.0, 3.14, 0.0}, {0.0, 0.0, 1.0},
     -0.8726646259971648, 1.57, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_bicep", JointType::kRevolute, "right_bicep", "right_forearm", {0.0, -0.0278, 0.2235}, {0.0, 3.14, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.57, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_bicepcover", JointType::kFixed, "right_bicep", "right_bicepcover", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_shoulder_side", JointType::kRevolute, "torso", "right_shoulder_base", {0.0, -0.143, 0.298}, {0.0, 0.0, 1.57}, {0.0, 1.0, 0.0},
     0.0, 0.75, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_thumb1", JointType::kRevolute, "right_hand", "right_thumb1", {-0.029, 0.0, -0.0577}, {3.1415, 0.1, 0.0}, {0.0, 0.0, 1.0},
     0.0, 1.57, 0.5, 1000.0, "right_thumb", -0.75, 0.0},
    {"right_thumb", JointType::kRevolute, "right_thumb1", "right_thumb2", {-0.02725, -0.0006, 0.014}, {0.0, 2.3, -0.3}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_thumb3", JointType::kRevolute, "right_thumb2", "right_thumb3", {0.0, 0.0, -0.035}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "right_thumb", 1.0, 0.0},
    {"right_index1", JointType::kRevolute, "right_hand", "right_index1", {-0.0342, -0.0015, -0.119}, {0.0, -0.1, 3.1415}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, "right_index", 1.0, 0.0},
    {"right_index", JointType::kRevolute, "right_index1", "right_index2", {0.0, 0.001, -0.03595}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_index3", JointType::kRevolute, "right_index2", "right_index3", {0.0, 0.0, -0.024}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, "right_index", 1.0, 0.0},
    {"right_middle1", JointType::kRevolute, "right_hand", "right_middle1", {-0.007, -0.00175, -0.12325}, {0.0, 0.0, 3.1415}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, "right_middle", 1.0, 0.0},
    {"right_middle", JointType::kRevolute, "right_middle1", "right_middle2", {0.0, 0.0, -0.0389}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_middle3", JointType::kRevolute, "right_middle2", "right_middle3", {0.0, 0.0005, -0.0259}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "right_middle", 1.0, 0.0},
    {"right_ring1", JointType::kRevolute, "right_hand", "right_ring1", {0.00705, 0.0, -0.0794}, {0.0, -0.7, 3.1415}, {0.0, 0.0, 1.0},
     -1.57, 0.0, 0.5, 1000.0, "right_ring", -0.1, 0.0},
    {"right_ring", JointType::kRevolute, "right_ring1", "right_ring2", {-0.0351, 0.00126, -0.0166}, {0.0, 0.7775, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_ring3", JointType::kRevolute, "right_ring2", "right_ring3", {0.0, 0.0005, -0.0345}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "right_ring", 1.0, 0.0},
    {"right_ring4", JointType::kRevolute, "right_ring3", "right_ring4", {0.0, 0.0004, -0.0229}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "right_ring", 1.0, 0.0},
    {"right_pinky1", JointType::kRevolute, "right_hand", "right_pinky1", {0.027, 0.0, -0.0555}, {0.0, -0.7, 3.1415}, {0.0, 0.0, 1.0},
     -1.57, 0.0, 0.5, 1000.0, "right_pinky", -0.1, 0.0},
    {"right_pinky", JointType::kRevolute, "right_pinky1", "right_pinky2", {-0.046, -0.0, -0.0228}, {0.0, 0.93, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"right_pinky3", JointType::kRevolute, "right_pinky2", "right_pinky3", {0.0, 0.0005, -0.031}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "right_pinky", 1.0, 0.0},
    {"right_pinky4", JointType::kRevolute, "right_pinky3", "right_pinky4", {0.0, 0.0004, -0.0208}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "right_pinky", 1.0, 0.0},
    {"right_handcover", JointType::kFixed, "right_hand", "right_handcover", {-0.0192, 0.009, -0.0977}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_cover_handring", JointType::kFixed, "right_ring1", "right_cover_handring", {-0.015, -0.009, -0.0008}, {0.0, 0.7, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_cover_handpinky", JointType::kFixed, "right_pinky1", "right_cover_handpinky", {-0.0205, -0.01, -0.0069}, {0.0, 0.7, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_cover_thumb", JointType::kFixed, "right_thumb1", "right_cover_thumb", {-0.02125, -0.01, -0.0047}, {0.0, 3.1, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_cover_index", JointType::kFixed, "right_index1", "right_cover_index", {0.0, -0.0071, -0.012}, {0.05, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_cover_middle", JointType::kFixed, "right_middle1", "right_cover_middle", {0.0, -0.0071, -0.012}, {-0.05, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_cover_ring", JointType::kFixed, "right_ring2", "right_cover_ring", {0.0, -0.005, -0.011}, {-0.05, -0.1, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_cover_pinky", JointType::kFixed, "right_pinky2", "right_cover_pinky", {0.0, -0.005, -0.0105}, {-0.05, -0.1, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"right_hand", JointType::kRevolute, "right_forearm", "right_hand", {-0.01, -0.0144, -0.2885}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -3.14, 0.0, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_shoulder_up", JointType::kRevolute, "left_shoulder_base", "left_shoulder", {-0.012, 0.0, -0.04}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 2.6179938779914944, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_bicep_rotate", JointType::kRevolute, "left_shoulder", "left_bicep", {-0.066, 0.0, -0.06}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     -0.8726646259971648, 1.57, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_bicep", JointType::kRevolute, "left_bicep", "left_forearm", {0.0, -0.0278, -0.2235}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.57, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_bicepcover", JointType::kFixed, "left_bicep", "left_bicepcover", {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_shoulder_side", JointType::kRevolute, "torso", "left_shoulder_base", {0.0, 0.143, 0.298}, {0.0, 0.0, -1.57}, {0.0, 1.0, 0.0},
     0.0, 0.75, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_thumb1", JointType::kRevolute, "left_hand", "left_thumb1", {0.029, 0.0, -0.0577}, {3.1415, -0.1, 0.0}, {0.0, 0.0, 1.0},
     0.0, 1.57, 0.5, 1000.0, "left_thumb", 0.75, 0.0},
    {"left_thumb", JointType::kRevolute, "left_thumb1", "left_thumb2", {0.02725, -0.0006, 0.014}, {0.0, -2.3, 0.3}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_thumb3", JointType::kRevolute, "left_thumb2", "left_thumb3", {0.0, 0.0, -0.035}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "left_thumb", 1.0, 0.0},
    {"left_index1", JointType::kRevolute, "left_hand", "left_index1", {0.0342, -0.0015, -0.119}, {0.0, 0.1, 3.1415}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, "left_index", 1.0, 0.0},
    {"left_index", JointType::kRevolute, "left_index1", "left_index2", {0.0, 0.001, -0.03595}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_index3", JointType::kRevolute, "left_index2", "left_index3", {0.0, 0.0, -0.024}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, "left_index", 1.0, 0.0},
    {"left_middle1", JointType::kRevolute, "left_hand", "left_middle1", {0.007, -0.00175, -0.12325}, {0.0, 0.0, 3.1415}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, "left_middle", 1.0, 0.0},
    {"left_middle", JointType::kRevolute, "left_middle1", "left_middle2", {0.0, 0.0, -0.0389}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_middle3", JointType::kRevolute, "left_middle2", "left_middle3", {0.0, 0.0005, -0.0259}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "left_middle", 1.0, 0.0},
    {"left_ring1", JointType::kRevolute, "left_hand", "left_ring1", {-0.00705, 0.0, -0.0794}, {0.0, 0.7, 3.1415}, {0.0, 0.0, 1.0},
     0.0, 1.57, 0.5, 1000.0, "left_ring", 0.1, 0.0},
    {"left_ring", JointType::kRevolute, "left_ring1", "left_ring2", {0.0351, 0.00126, -0.0166}, {0.0, -0.7775, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_ring3", JointType::kRevolute, "left_ring2", "left_ring3", {0.0, 0.0005, -0.0345}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "left_ring", 1.0, 0.0},
    {"left_ring4", JointType::kRevolute, "left_ring3", "left_ring4", {0.0, 0.0004, -0.0229}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "left_ring", 1.0, 0.0},
    {"left_pinky1", JointType::kRevolute, "left_hand", "left_pinky1", {-0.027, 0.0, -0.0555}, {0.0, 0.7, 3.1415}, {0.0, 0.0, 1.0},
     0.0, 1.57, 0.5, 1000.0, "left_pinky", 0.1, 0.0},
    {"left_pinky", JointType::kRevolute, "left_pinky1", "left_pinky2", {0.046, -0.0, -0.0228}, {0.0, -0.93, 0.0}, {1.0, 0.0, 0.0},
     0.0, 1.5, 0.5, 1000.0, nullptr, 1.0, 0.0},
    {"left_pinky3", JointType::kRevolute, "left_pinky2", "left_pinky3", {0.0, 0.0005, -0.031}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "left_pinky", 1.0, 0.0},
    {"left_pinky4", JointType::kRevolute, "left_pinky3", "left_pinky4", {0.0, 0.0004, -0.0208}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -1.57, 0.0, 0.5, 1000.0, "left_pinky", 1.0, 0.0},
    {"left_handcover", JointType::kFixed, "left_hand", "left_handcover", {0.0192, 0.009, -0.0977}, {0.0, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_cover_handring", JointType::kFixed, "left_ring1", "left_cover_handring", {0.015, -0.009, -0.0008}, {0.0, -0.7, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_cover_handpinky", JointType::kFixed, "left_pinky1", "left_cover_handpinky", {0.0205, -0.01, -0.0069}, {0.0, -0.7, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_cover_thumb", JointType::kFixed, "left_thumb1", "left_cover_thumb", {0.02125, -0.01, -0.0047}, {0.0, -3.1, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_cover_index", JointType::kFixed, "left_index1", "left_cover_index", {0.0, -0.0071, -0.012}, {-0.05, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_cover_middle", JointType::kFixed, "left_middle1", "left_cover_middle", {0.0, -0.0071, -0.012}, {0.05, 0.0, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_cover_ring", JointType::kFixed, "left_ring2", "left_cover_ring", {0.0, -0.005, -0.011}, {0.05, 0.1, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_cover_pinky", JointType::kFixed, "left_pinky2", "left_cover_pinky", {0.0, -0.005, -0.0105}, {0.05, 0.1, 0.0}, {1.0, 0.0, 0.0},
     -kNoLimit, kNoLimit, kNoLimit, kNoLimit, nullptr, 1.0, 0.0},
    {"left_hand", JointType::kRevolute, "left_forearm", "left_hand", {0.01, -0.0144, -0.2885}, {0.0, 0.0, 0.0}, {0.0, 0.0, 1.0},
     0.0, 3.14, 0.5, 1000.0, nullptr, 1.0, 0.0},
};
}  // namespace internal::inmoov

/// Builds the InMoov model: root `base_link` (pedestal base), 22 coordinates ordered as
/// kInMoovJointNames (rad), and an estimated collision model of 9 shapes (link frame, m):
///
/// | link | name | segment | radius |
/// |---|---|---|---|
/// | head | head | sphere at (0.05, 0, 0.05) | 0.11 |
/// | torso | torso | (0, 0, 0.05) .. (0, 0, 0.25) | 0.13 |
/// | right_bicep / left_bicep | r_upper_arm / l_upper_arm | (0, -0.01, +-0.04) .. (0, -0.0278, +-0.2) | 0.05 |
/// | right_forearm / left_forearm | r_forearm / l_forearm | (0, 0, -0.03) .. (-+0.01, -0.0144, -0.26) | 0.045 |
/// | right_hand / left_hand | r_hand / l_hand | (-+0.01, 0, -0.03) .. (-+0.01, 0, -0.13) | 0.045 |
///
/// (upper sign right, lower sign left). Never throws for the built-in data.
template <typename Scalar = double>
RobotModel<Scalar> makeInMoov() {
  using V = Vector3<Scalar>;
  using internal::capsuleShape;
  RobotModelBuilder<Scalar> builder("inmoov");
  internal::fillFromTables(builder, internal::inmoov::kLinks, internal::inmoov::kJoints, nullptr, 0,
                           std::vector<std::string>(kInMoovJointNames.begin(), kInMoovJointNames.end()));
  const auto s = [](double v) { return static_cast<Scalar>(v); };
  builder.addCollision("head", capsuleShape<Scalar>("head", V(s(0.05), 0, s(0.05)), V(s(0.05), 0, s(0.05)), s(0.11)));
  builder.addCollision("torso", capsuleShape<Scalar>("torso", V(0, 0, s(0.05)), V(0, 0, s(0.25)), s(0.13)));
  for (const int side : {1, -1}) {
    const bool right = side > 0;
    const std::string name = right ? "right_" : "left_";
    const std::string p = right ? "r_" : "l_";
    // The right arm's URDF frames are flipped about y relative to the left arm's.
    builder.addCollision(name + "bicep", capsuleShape<Scalar>(p + "upper_arm", V(0, s(-0.01), s(0.04 * side)),
                                                              V(0, s(-0.0278), s(0.2 * side)), s(0.05)));
    builder.addCollision(name + "forearm", capsuleShape<Scalar>(p + "forearm", V(0, 0, s(-0.03)),
                                                                V(s(-0.01 * side), s(-0.0144), s(-0.26)), s(0.045)));
    builder.addCollision(name + "hand", capsuleShape<Scalar>(p + "hand", V(s(-0.01 * side), 0, s(-0.03)),
                                                             V(s(-0.01 * side), 0, s(-0.13)), s(0.045)));
  }
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makeInMoov<double>();
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makeInMoov<float>();
#endif

}  // namespace retarget
