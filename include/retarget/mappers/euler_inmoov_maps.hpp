#pragma once

/// @file
/// Built-in Euler/BVH mappings onto the built-in InMoov (robots/inmoov.hpp, 22 joints) for
/// the Axis Neuron (Perception Neuron), CMU and Mixamo BVH skeletons, and detection of the
/// skeleton of a BVH file. The configurations are plain data: dump one with toJson()
/// (json/euler_map.hpp), edit it and load it back to fix a sign or add a robot.
///
/// How the InMoov mapping was derived (all three skeletons share the same conventions: Y up,
/// the character faces +Z, its left is +X, rest pose is a T-pose with the arms along +-X):
/// - Shoulder (3 -> 3, Eq. 2): InMoov's chain is shoulder_side (abduction, about the forward
///   axis) -> shoulder_up (flexion, about the lateral axis) -> bicep_rotate (about the upper
///   arm). In BVH axes with the arm hanging down that is the order Z, X, Y, so the arm's
///   rotation is re-decomposed in "ZXY" relative to the arm-down reference pose (a rotation
///   of -+90 deg about Z from the T-pose, left/right). Signs were read off the InMoov forward
///   kinematics: positive side = arm outwards, positive up = arm forwards, positive rotate =
///   forearm turning outwards (left: about +Y, right: about -Y).
/// - Elbow (2 -> 1, Eq. 6): InMoov's bicep joint is 0 for a straight arm, so its value is
///   pi - Omega (sign -1, offset pi).
/// - Wrist (2 -> 1, Eq. 10): omega = angle between the forearm-frame z axis and the hand's z
///   axis (in [0, pi]); InMoov's left wrist range is 0..pi, the right one -pi..0 (sign -1).
///   Eq. 10 is unsigned: a human twist in the direction the InMoov wrist cannot turn (from
///   zero) is reproduced as the same amount in the other direction, not clamped.
/// - Neck (3 -> 2): InMoov's chain is head_updown (pitch) then head_leftright (yaw), so the
///   neck chain's rotation is decomposed in "XYZ" (pitch about X, yaw about Y; the roll about Z
///   is dropped); head_leftright positive = looking left, head_updown positive = looking down.
/// - Fingers: mean bend of the finger's BVH segments, 0 = straight, to InMoov's 0..1.5 servo
///   range (CMU has a single index chain, used for index to pinky).

#include <string>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/mappers/euler_map.hpp>

namespace retarget {

namespace internal {

/// Joint names of one T-pose BVH skeleton family, as used by the InMoov configurations.
struct EulerSkeletonNames {
  std::string prefix;                           // e.g. "mixamorig:"
  std::vector<std::string> neck;                // neck chain, parent first
  // finger chains for "Left"/"Right": thumb, index, middle, ring, pinky
  std::vector<std::vector<std::string>> fingers_left, fingers_right;
};

inline EulerMap inmoovTPoseMap(const std::string& skeleton, const EulerSkeletonNames& names) {
  constexpr double kHalfPi = kPi<double> / 2;
  EulerMap c;
  c.name = "inmoov/" + skeleton;
  c.skeleton = skeleton;
  auto prefixed = [&](std::vector<std::string> chain) {
    for (auto& n : chain) n = names.prefix + n;
    return chain;
  };
  auto add = [&](const std::string& robot, EulerCase kind, std::vector<std::string> source) -> EulerJointMapping& {
    EulerJointMapping m;
    m.robot_joint = robot;
    m.kind = kind;
    m.source = prefixed(std::move(source));
    c.joints.push_back(m);
    return c.joints.back();
  };
  // Neck, 3 -> 2: InMoov's chain is head_updown (pitch, BVH X) then head_leftright (yaw, BVH Y).
  for (int k = 0; k < 2; ++k) {
    EulerJointMapping& m = add(k == 0 ? "head_updown" : "head_leftright", EulerCase::kEuler, names.neck);
    m.order = parseEulerOrder("XYZ");
    m.angle = k;
  }
  const char* const kFingerJoints[] = {"thumb", "index", "middle", "ring", "pinky"};
  for (int side = 0; side < 2; ++side) {
    const bool right = side == 0;
    const std::string robot = right ? "right_" : "left_";
    const std::string human = right ? "Right" : "Left";
    const double mirror = right ? -1.0 : 1.0;
    const char* const kShoulder[] = {"shoulder_side", "shoulder_up", "bicep_rotate"};
    const double kShoulderSign[] = {mirror, -1.0, mirror};
    for (int k = 0; k < 3; ++k) {
      EulerJointMapping& m = add(robot + kShoulder[k], EulerCase::kEuler, {human + "Arm"});
      m.order = parseEulerOrder("ZXY");
      m.angle = k;
      m.sign = kShoulderSign[k];
      m.reference = Eigen::Vector3d(0, 0, -mirror * kHalfPi);  // arm down = robot zero
    }
    EulerJointMapping& elbow = add(robot + "bicep", EulerCase::kElbowBend, {human + "ForeArm"});
    elbow.sign = -1;
    elbow.offset = kPi<double>;
    EulerJointMapping& wrist = add(robot + "hand", EulerCase::kWristRotation, {human + "Hand"});
    wrist.axis = Eigen::Vector3d::UnitZ();
    wrist.sign = mirror;
    const auto& chains = right ? names.fingers_right : names.fingers_left;
    for (int f = 0; f < 5; ++f) add(robot + kFingerJoints[f], EulerCase::kFingerCurl, chains[f]);
  }
  return c;
}

inline std::vector<std::vector<std::string>> threeSegmentFingers(const std::string& side) {
  std::vector<std::vector<std::string>> chains;
  for (const char* finger : {"Thumb", "Index", "Middle", "Ring", "Pinky"}) {
    std::vector<std::string> chain;
    for (int k = 1; k <= 3; ++k) chain.push_back(side + "Hand" + finger + std::to_string(k));
    chains.push_back(chain);
  }
  return chains;
}

}  // namespace internal

/// InMoov mapping for the Axis Neuron (Perception Neuron) 59-joint skeleton: neck chain
/// Neck, Head; fingers {Left,Right}Hand{Thumb,Index,Middle,Ring,Pinky}1..3. See the file
/// comment for how each joint is mapped.
inline EulerMap inmoovAxisNeuronMap() {
  return internal::inmoovTPoseMap("axis-neuron", {"",
                                                     {"Neck", "Head"},
                                                     internal::threeSegmentFingers("Left"),
                                                     internal::threeSegmentFingers("Right")});
}

/// InMoov mapping for the 31-joint CMU skeleton: neck chain Neck, Neck1, Head; thumb from
/// LThumb / RThumb, the four other fingers from {L,R}FingerBase + {Left,Right}HandIndex1.
inline EulerMap inmoovCmuMap() {
  auto fingers = [](const std::string& side, const std::string& letter) {
    const std::vector<std::string> index = {side + "FingerBase", side + "HandIndex1"};
    return std::vector<std::vector<std::string>>{{letter + "Thumb"}, index, index, index, index};
  };
  return internal::inmoovTPoseMap("cmu", {"", {"Neck", "Neck1", "Head"}, fingers("Left", "L"), fingers("Right", "R")});
}

/// InMoov mapping for the Mixamo rig ("mixamorig:" names): neck chain Neck, Head; fingers
/// {Left,Right}Hand{Thumb,Index,Middle,Ring,Pinky}1..3.
inline EulerMap inmoovMixamoMap() {
  return internal::inmoovTPoseMap("mixamo", {"mixamorig:",
                                                {"Neck", "Head"},
                                                internal::threeSegmentFingers("Left"),
                                                internal::threeSegmentFingers("Right")});
}

/// Names the skeleton family of a BVH hierarchy: "axis-neuron" (LeftInHandIndex or
/// LeftHandThumb1 without a namespace), "cmu" (LThumb / LHipJoint), "mixamo"
/// ("mixamorig:Hips"), or "" when none matches.
inline std::string detectEulerSkeleton(const BvhMotion& motion) {
  if (motion.findJoint("mixamorig:Hips") >= 0) return "mixamo";
  if (motion.findJoint("LThumb") >= 0 || motion.findJoint("LHipJoint") >= 0) return "cmu";
  if (motion.findJoint("LeftInHandIndex") >= 0 || motion.findJoint("LeftHandThumb1") >= 0) return "axis-neuron";
  return "";
}

/// The built-in InMoov configuration for a skeleton family ("axis-neuron", "cmu",
/// "mixamo"). Throws InvalidArgument naming the family otherwise.
inline EulerMap inmoovEulerMap(const std::string& skeleton) {
  if (skeleton == "axis-neuron") return inmoovAxisNeuronMap();
  if (skeleton == "cmu") return inmoovCmuMap();
  if (skeleton == "mixamo") return inmoovMixamoMap();
  RETARGET_THROW_UNLESS(false, InvalidArgument, "no built-in InMoov Euler configuration for skeleton (got '",
                        skeleton, "', expected axis-neuron, cmu or mixamo)");
  return {};
}

}  // namespace retarget
