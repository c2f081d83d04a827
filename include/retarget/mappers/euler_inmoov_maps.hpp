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

#include <array>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/geometry/rotation_between.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/bvh_schemas.hpp>
#include <retarget/human/rig_binding.hpp>
#include <retarget/mappers/euler_map.hpp>

namespace retarget {

namespace internal {

/// Joint names of one T-pose BVH skeleton family, as used by the InMoov configurations.
struct EulerSkeletonNames {
  std::string prefix;                           // e.g. "mixamorig:"
  std::vector<std::string> neck;                // neck chain, parent first
  // finger chains for "Left"/"Right": thumb, index, middle, ring, pinky (an empty chain: no entry)
  std::vector<std::vector<std::string>> fingers_left, fingers_right;
  // upper arm, forearm, hand of the left and right arm; empty: "<Side>Arm", "<Side>ForeArm",
  // "<Side>Hand" (the Axis Neuron / CMU / Mixamo names)
  std::vector<std::string> arm_left{}, arm_right{};
};

RETARGET_LAZY_DECL EulerMap inmoovTPoseMap(const std::string& skeleton, const EulerSkeletonNames& names);

RETARGET_LAZY_DECL std::vector<std::vector<std::string>> threeSegmentFingers(const std::string& side);

}  // namespace internal

/// InMoov mapping for the Axis Neuron (Perception Neuron) 59-joint skeleton: neck chain
/// Neck, Head; fingers {Left,Right}Hand{Thumb,Index,Middle,Ring,Pinky}1..3. See the file
/// comment for how each joint is mapped.
RETARGET_LAZY_DECL EulerMap inmoovAxisNeuronMap();

/// InMoov mapping for the 31-joint CMU skeleton: neck chain Neck, Neck1, Head; thumb from
/// LThumb / RThumb, the four other fingers from {L,R}FingerBase + {Left,Right}HandIndex1.
RETARGET_LAZY_DECL EulerMap inmoovCmuMap();

/// InMoov mapping for the Mixamo rig ("mixamorig:" names): neck chain Neck, Head; fingers
/// {Left,Right}Hand{Thumb,Index,Middle,Ring,Pinky}1..3.
RETARGET_LAZY_DECL EulerMap inmoovMixamoMap();

/// Names the skeleton family of a BVH hierarchy: "axis-neuron" (LeftInHandIndex or
/// LeftHandThumb1 without a namespace), "cmu" (LThumb / LHipJoint), "mixamo"
/// ("mixamorig:Hips"), or "" when none matches.
RETARGET_LAZY_DECL std::string detectEulerSkeleton(const BvhMotion& motion);

/// The built-in InMoov configuration for a skeleton family ("axis-neuron", "cmu",
/// "mixamo"). Throws InvalidArgument naming the family otherwise.
RETARGET_LAZY_DECL EulerMap inmoovEulerMap(const std::string& skeleton);

/// InMoov mapping for any rig bound by `bindRig` (human/rig_binding.hpp): the configuration of
/// the built-in maps (see the file comment), with its canonical body segments (upper arm, forearm,
/// hand, neck chain + head, named fingers) resolved through the binding, and its frame conventions
/// (Y up, facing +Z, left +X, T-pose) carried into the file's own frame and rest pose:
/// - Frame: with the binding's R_WS, the reference frame B of the built-in maps relates to the file
///   frame S by R_BS = R_WB^T * R_WS (R_WB: Y up facing +Z). As R_BS is a signed axis permutation,
///   a rotation decomposed about B's axes (a, b, c) equals the file rotation decomposed about S's
///   axes (a', b', c') = R_BS^T (a, b, c) with each angle's sign flipped where the axis is: `order`,
///   `sign` and `reference` (R_ref,S = R_BS^T R_ref,B R_BS) are rewritten accordingly; the wrist axis
///   becomes R_BS^T * a.
/// - Rest pose: the arm's rest direction d0 (upper arm to forearm joint, file rest pose) is turned
///   onto the T-pose direction (+-X in B) by the smallest rotation C; the arm-down reference becomes
///   R_ref * C and the wrist axis C^T * a, so a T-pose, an A-pose or an arms-down rest pose give the
///   same robot angles for the same body motion. Elbow and finger angles do not depend on either.
/// Fingers are mapped when the hand has children named thumb / index / middle / ring / pinky;
/// otherwise their robot joints are not in the map (they keep their neutral value).
/// Throws InvalidArgument when the binding does not belong to `hierarchy`.
RETARGET_LAZY_DECL EulerMap inmoovRigEulerMap(const BvhMotion& hierarchy, const RigBinding& binding);

/// The InMoov configuration for a BVH hierarchy: the built-in one of its skeleton family when
/// `detectEulerSkeleton` names one and the hierarchy has every joint it uses (Axis Neuron, CMU,
/// Mixamo: unchanged, bit-identical), otherwise
/// `inmoovRigEulerMap` on its automatic rig binding. Throws InvalidArgument naming what is missing
/// when the hierarchy cannot be bound.
RETARGET_LAZY_DECL EulerMap inmoovEulerMap(const BvhMotion& hierarchy);

#if RETARGET_DEFINE_MAPPERS

namespace internal {

RETARGET_LAZY_DEF EulerMap inmoovTPoseMap(const std::string& skeleton, const EulerSkeletonNames& names) {
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
    const std::vector<std::string>& arm = right ? names.arm_right : names.arm_left;
    const std::string upper_arm = arm.empty() ? human + "Arm" : arm[0];
    const std::string forearm = arm.empty() ? human + "ForeArm" : arm[1];
    const std::string hand = arm.empty() ? human + "Hand" : arm[2];
    for (int k = 0; k < 3; ++k) {
      EulerJointMapping& m = add(robot + kShoulder[k], EulerCase::kEuler, {upper_arm});
      m.order = parseEulerOrder("ZXY");
      m.angle = k;
      m.sign = kShoulderSign[k];
      m.reference = Eigen::Vector3d(0, 0, -mirror * kHalfPi);  // arm down = robot zero
    }
    EulerJointMapping& elbow = add(robot + "bicep", EulerCase::kElbowBend, {forearm});
    elbow.sign = -1;
    elbow.offset = kPi<double>;
    EulerJointMapping& wrist = add(robot + "hand", EulerCase::kWristRotation, {hand});
    wrist.axis = Eigen::Vector3d::UnitZ();
    wrist.sign = mirror;
    const auto& chains = right ? names.fingers_right : names.fingers_left;
    for (int f = 0; f < 5; ++f) {
      if (!chains[static_cast<std::size_t>(f)].empty()) add(robot + kFingerJoints[f], EulerCase::kFingerCurl, chains[static_cast<std::size_t>(f)]);
    }
  }
  return c;
}

RETARGET_LAZY_DEF std::vector<std::vector<std::string>> threeSegmentFingers(const std::string& side) {
  std::vector<std::vector<std::string>> chains;
  for (const char* finger : {"Thumb", "Index", "Middle", "Ring", "Pinky"}) {
    std::vector<std::string> chain;
    for (int k = 1; k <= 3; ++k) chain.push_back(side + "Hand" + finger + std::to_string(k));
    chains.push_back(chain);
  }
  return chains;
}

}  // namespace internal

RETARGET_LAZY_DEF EulerMap inmoovAxisNeuronMap() {
  return internal::inmoovTPoseMap("axis-neuron", {"",
                                                     {"Neck", "Head"},
                                                     internal::threeSegmentFingers("Left"),
                                                     internal::threeSegmentFingers("Right")});
}

RETARGET_LAZY_DEF EulerMap inmoovCmuMap() {
  auto fingers = [](const std::string& side, const std::string& letter) {
    const std::vector<std::string> index = {side + "FingerBase", side + "HandIndex1"};
    return std::vector<std::vector<std::string>>{{letter + "Thumb"}, index, index, index, index};
  };
  return internal::inmoovTPoseMap("cmu", {"", {"Neck", "Neck1", "Head"}, fingers("Left", "L"), fingers("Right", "R")});
}

RETARGET_LAZY_DEF EulerMap inmoovMixamoMap() {
  return internal::inmoovTPoseMap("mixamo", {"mixamorig:",
                                                {"Neck", "Head"},
                                                internal::threeSegmentFingers("Left"),
                                                internal::threeSegmentFingers("Right")});
}

RETARGET_LAZY_DEF std::string detectEulerSkeleton(const BvhMotion& motion) {
  if (motion.findJoint("mixamorig:Hips") >= 0) return "mixamo";
  if (motion.findJoint("LThumb") >= 0 || motion.findJoint("LHipJoint") >= 0) return "cmu";
  if (motion.findJoint("LeftInHandIndex") >= 0 || motion.findJoint("LeftHandThumb1") >= 0) return "axis-neuron";
  return "";
}

RETARGET_LAZY_DEF EulerMap inmoovEulerMap(const std::string& skeleton) {
  if (skeleton == "axis-neuron") return inmoovAxisNeuronMap();
  if (skeleton == "cmu") return inmoovCmuMap();
  if (skeleton == "mixamo") return inmoovMixamoMap();
  RETARGET_THROW_UNLESS(false, InvalidArgument, "no built-in InMoov Euler configuration for skeleton (got '",
                        skeleton, "', expected axis-neuron, cmu or mixamo)");
  return {};
}

RETARGET_LAZY_DEF EulerMap inmoovRigEulerMap(const BvhMotion& hierarchy, const RigBinding& binding) {
  RETARGET_THROW_UNLESS(binding.joints.size() == hierarchy.joints.size() && binding.arms[0].upper_arm >= 0,
                        InvalidArgument, "rig binding (got ", binding.joints.size(), " joints, expected the ",
                        hierarchy.joints.size(), " joints of the hierarchy it was bound from)");
  auto nameOf = [&](int j) { return hierarchy.joints[static_cast<std::size_t>(j)].name; };
  internal::EulerSkeletonNames names;
  for (int j : binding.neck) names.neck.push_back(nameOf(j));
  names.neck.push_back(nameOf(binding.head));
  // Rest positions (file units) and children, for the arm directions and the fingers.
  const std::size_t n = hierarchy.joints.size();
  std::vector<Eigen::Vector3d> p(n);
  for (std::size_t j = 0; j < n; ++j) {
    const int parent = hierarchy.joints[j].parent;
    p[j] = hierarchy.joints[j].offset + (parent < 0 ? Eigen::Vector3d::Zero() : p[static_cast<std::size_t>(parent)]);
  }
  const char* const kFingerWords[] = {"thumb", "index", "middle", "ring", "pinky"};
  std::array<Eigen::Matrix3d, 2> C_B;
  const Eigen::Matrix3d R_BS = internal::yUpFacingZ().transpose() * binding.R_WS;
  for (int side = 0; side < 2; ++side) {
    const RigBinding::Arm& arm = binding.arms[static_cast<std::size_t>(side)];
    (side == 0 ? names.arm_left : names.arm_right) = std::vector<std::string>{nameOf(arm.upper_arm), nameOf(arm.forearm), nameOf(arm.hand)};
    const Eigen::Vector3d d0_B = R_BS * (p[static_cast<std::size_t>(arm.forearm)] - p[static_cast<std::size_t>(arm.upper_arm)]);
    const Eigen::Vector3d t_B(side == 0 ? 1.0 : -1.0, 0.0, 0.0);
    C_B[static_cast<std::size_t>(side)] = rotationBetween<double>(d0_B, t_B);
    auto& chains = side == 0 ? names.fingers_left : names.fingers_right;
    chains.assign(5, {});
    for (std::size_t c = 0; c < n; ++c) {
      if (hierarchy.joints[c].parent != arm.hand || hierarchy.joints[c].is_end_site) continue;
      std::string lower = hierarchy.joints[c].name;
      for (char& ch : lower) ch = internal::toLowerAscii(ch);
      for (int f = 0; f < 5; ++f) {
        if (lower.find(kFingerWords[f]) == std::string::npos || !chains[static_cast<std::size_t>(f)].empty()) continue;
        // The finger's chain: first non-End-Site child after child.
        for (int j = static_cast<int>(c); j >= 0;) {
          chains[static_cast<std::size_t>(f)].push_back(nameOf(j));
          int next = -1;
          for (std::size_t k = static_cast<std::size_t>(j) + 1; k < n && next < 0; ++k) {
            if (hierarchy.joints[k].parent == j && !hierarchy.joints[k].is_end_site) next = static_cast<int>(k);
          }
          j = next;
        }
      }
    }
  }
  EulerMap c = internal::inmoovTPoseMap(binding.schema.name, names);
  // Carry every entry from the reference frame B and the T-pose into the file frame and rest pose.
  for (EulerJointMapping& m : c.joints) {
    const bool left_arm = m.source.front() == names.arm_left[0] || m.source.front() == names.arm_left[2];
    const bool right_arm = m.source.front() == names.arm_right[0] || m.source.front() == names.arm_right[2];
    const Eigen::Matrix3d C = left_arm ? C_B[0] : (right_arm ? C_B[1] : Eigen::Matrix3d::Identity());
    if (m.kind == EulerCase::kEuler) {
      const double angle = m.reference.norm();
      Eigen::Matrix3d R_ref = angle > 0 ? Eigen::AngleAxisd(angle, m.reference / angle).toRotationMatrix()
                                        : Eigen::Matrix3d::Identity();
      R_ref = R_BS.transpose() * (R_ref * C) * R_BS;
      const Eigen::AngleAxisd ref(R_ref);
      m.reference = ref.angle() * ref.axis();
      if (ref.angle() == 0) m.reference.setZero();
      double flip = 1;
      for (int k = 0; k < 3; ++k) {
        const Eigen::Vector3d axis = R_BS.transpose().col(m.order.axes[static_cast<std::size_t>(k)]);
        Eigen::Index a = 0;
        axis.cwiseAbs().maxCoeff(&a);
        if (k == m.angle) flip = axis[a] > 0 ? 1.0 : -1.0;
        m.order.axes[static_cast<std::size_t>(k)] = static_cast<int>(a);
      }
      m.sign *= flip;
    } else if (m.kind == EulerCase::kWristRotation || m.kind == EulerCase::kWristTwist) {
      m.axis = R_BS.transpose() * (C.transpose() * m.axis);
    }
  }
  c.validate();
  return c;
}

RETARGET_LAZY_DEF EulerMap inmoovEulerMap(const BvhMotion& hierarchy) {
  const std::string skeleton = detectEulerSkeleton(hierarchy);
  if (!skeleton.empty()) {
    EulerMap builtin = inmoovEulerMap(skeleton);
    bool complete = true;  // a family member without fingers (say) goes through the binding
    for (const EulerJointMapping& m : builtin.joints) {
      for (const std::string& source : m.source) complete = complete && hierarchy.findJoint(source) >= 0;
    }
    if (complete) return builtin;
  }
  return inmoovRigEulerMap(hierarchy, bindRig(hierarchy));
}

#endif  // RETARGET_DEFINE_MAPPERS

}  // namespace retarget
