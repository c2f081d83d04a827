#pragma once

/// @file
/// A robot's arms as chains of joint positions: for each arm, the chain points (joint origins from
/// the shoulder to the wrist), which of them are the robot's shoulder, elbow and wrist (the points
/// a human shoulder, elbow and wrist correspond to: the mapping M of seed 004's Eq. 2), and the
/// joints that move them. Robot data: PIC / PICs / FABRIK (mappers/pic.hpp, whose `ArmChainMap` this
/// is) work on these chains, and the arm-imitation metrics (metrics/arm_imitation.hpp) read the
/// robot's arm pose from them.
///
/// The human pose (Eq. 1) is two pairs of octant constraints, read per frame from the human
/// skeleton in frames at the shoulder, elbow and wrist aligned with the world (here: the robot
/// base frame after placement): (OUT at the shoulder, IN at the elbow) for the upper arm and
/// (OUT at the elbow, IN at the wrist) for the forearm. Eq. 2 puts them on the robot: OUT of the
/// shoulder on the first chain link after the robot's shoulder point, IN of the elbow on the last
/// link before its elbow point, OUT of the elbow on the first link after it, IN of the wrist on
/// the last link before the wrist point. With one link per segment (the built-in chains) OUT
/// and IN constrain the same link from both ends.
///
/// Built-in chains: Baxter (shoulder s1, elbow e1, wrist w1, both arms), YuMi (joints 2, 3 and 5,
/// the paper's Fig. 1(b) choice), NAO and Pepper (ShoulderPitch, ElbowYaw, WristYaw).
/// `armChainFrom` builds an arm for any serial chain of a RobotModel.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/arm_placement.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// One robot arm as a chain: names are the robot's joint names.
struct ArmChain {
  /// The human arm that drives it.
  ArmSide side = ArmSide::kLeft;
  /// Joints the positions-to-angles fit may move (moving, non-mimic; base to tip).
  std::vector<std::string> fit_joints;
  /// Joints whose origins are the chain points, root first: points.front() is the robot
  /// "shoulder", points.back() the "wrist"; consecutive points at distinct positions.
  std::vector<std::string> points;
  /// Index in `points` of the robot "elbow" (0 < elbow < points.size() - 1).
  int elbow = 1;
  /// Start of the warm start of `fit_joints` (rad, same order and size), or empty for the
  /// mapper's rest values. A bent elbow keeps the fit away from the straight-arm singularity.
  std::vector<double> rest{};
};

/// A robot's arm chains: one or two arms.
struct ArmChainMap {
  std::string robot;
  std::vector<ArmChain> arms;

  /// Throws InvalidArgument naming the field and value when the map does not fit `model`
  /// (unknown or fixed joints, too few/many points, elbow index out of range, 0 or > 2 arms).
  template <typename Scalar>
  void validateFor(const RobotModel<Scalar>& model) const;
};

/// The arm of a serial chain: `fit_joints` are the moving joints from `first_joint` to
/// `wrist_joint` (inclusive) along the model's tree, the points are the shoulder, elbow and
/// wrist joints' origins (with `intermediate`, also every moving joint's origin between them
/// that lies more than 1 mm from the previous point). Throws InvalidArgument when a joint is
/// missing or the joints do not lie on one chain in this order.
template <typename Scalar>
ArmChain armChainFrom(const RobotModel<Scalar>& model, ArmSide side, const std::string& first_joint,
                      const std::string& shoulder_joint, const std::string& elbow_joint, const std::string& wrist_joint,
                      bool intermediate = false);

/// Built-in map of Baxter (makeBaxter() or baxter.urdf): both arms, shoulder s1, elbow e1,
/// wrist w1; the fit moves s0, s1, e0, e1, w0 (w1 and w2 do not move the wrist point).
RETARGET_DECL ArmChainMap baxterArmChains();

/// Built-in map of YuMi (makeYumi() or the IRB 14000 URDF): both arms, shoulder joint 2,
/// elbow joint 3, wrist joint 5 (Fig. 1(b)); the fit moves joints 1, 2, 7, 3, 4.
RETARGET_DECL ArmChainMap yumiArmChains();

/// Built-in map of NAO / Pepper: shoulder LShoulderPitch, elbow LElbowYaw, wrist LWristYaw
/// (and R...); the fit moves ShoulderPitch, ShoulderRoll, ElbowYaw, ElbowRoll.
RETARGET_DECL ArmChainMap naoArmChains(const std::string& robot = "nao");

/// The built-in map that fits `model`, chosen by its joint names (so URDF-loaded models match
/// too): Baxter, YuMi, NAO / Pepper; nullopt otherwise.
template <typename Scalar>
std::optional<ArmChainMap> armChainsFor(const RobotModel<Scalar>& model) {
  if (model.findQ("left_s1") >= 0 && model.findQ("right_w1") >= 0) return baxterArmChains();
  if (model.findQ("yumi_joint_2_l") >= 0 && model.findQ("yumi_joint_5_r") >= 0) return yumiArmChains();
  if (model.findQ("LShoulderPitch") >= 0 && model.findJoint("LWristYaw") >= 0 && model.findQ("RElbowRoll") >= 0) {
    return naoArmChains(model.name());
  }
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------

template <typename Scalar>
void ArmChainMap::validateFor(const RobotModel<Scalar>& model) const {
  RETARGET_THROW_UNLESS(!arms.empty() && arms.size() <= 2, InvalidArgument, "ArmChainMap '", robot, "'::arms (got ",
                        arms.size(), " arms, expected 1 or 2)");
  for (std::size_t a = 0; a < arms.size(); ++a) {
    const ArmChain& arm = arms[a];
    RETARGET_THROW_UNLESS(!arm.fit_joints.empty() && arm.fit_joints.size() <= 8, InvalidArgument, "ArmChainMap '",
                          robot, "'::arms[", a, "].fit_joints (got ", arm.fit_joints.size(), " joints, expected 1..8)");
    for (const auto& j : arm.fit_joints) {
      RETARGET_THROW_UNLESS(model.findQ(j) >= 0, InvalidArgument, "ArmChainMap '", robot, "'::arms[", a,
                            "].fit_joints: '", j, "' is not a moving, non-mimic joint of robot '", model.name(), "'");
    }
    RETARGET_THROW_UNLESS(arm.rest.empty() || arm.rest.size() == arm.fit_joints.size(), InvalidArgument,
                          "ArmChainMap '", robot, "'::arms[", a, "].rest (got ", arm.rest.size(),
                          " values, expected 0 or ", arm.fit_joints.size(), ")");
    for (std::size_t k = 0; k < arm.rest.size(); ++k) {
      const int i = model.findQ(arm.fit_joints[k]);
      RETARGET_THROW_UNLESS(std::isfinite(arm.rest[k]) && arm.rest[k] >= static_cast<double>(model.lowerLimits()[i]) &&
                                arm.rest[k] <= static_cast<double>(model.upperLimits()[i]),
                            InvalidArgument, "ArmChainMap '", robot, "'::arms[", a, "].rest[", k, "] (got ",
                            arm.rest[k], ", expected a value within the limits of '", arm.fit_joints[k], "')");
    }
    RETARGET_THROW_UNLESS(arm.points.size() >= 3 && arm.points.size() <= 12, InvalidArgument, "ArmChainMap '", robot,
                          "'::arms[", a, "].points (got ", arm.points.size(), " points, expected 3..12)");
    for (const auto& j : arm.points) {
      RETARGET_THROW_UNLESS(model.findJoint(j) >= 0, InvalidArgument, "ArmChainMap '", robot, "'::arms[", a,
                            "].points: robot '", model.name(), "' has no joint '", j, "'");
    }
    RETARGET_THROW_UNLESS(arm.elbow > 0 && arm.elbow + 1 < static_cast<int>(arm.points.size()), InvalidArgument,
                          "ArmChainMap '", robot, "'::arms[", a, "].elbow (got ", arm.elbow, ", expected 1..",
                          arm.points.size() - 2, ")");
  }
}

template <typename Scalar>
ArmChain armChainFrom(const RobotModel<Scalar>& model, ArmSide side, const std::string& first_joint,
                      const std::string& shoulder_joint, const std::string& elbow_joint, const std::string& wrist_joint,
                      bool intermediate) {
  const int first = model.jointIndex(first_joint);
  const int shoulder = model.jointIndex(shoulder_joint);
  const int elbow = model.jointIndex(elbow_joint);
  const int wrist = model.jointIndex(wrist_joint);
  const auto& support =
      model.links()[static_cast<std::size_t>(model.joints()[static_cast<std::size_t>(wrist)].child_link)].support;
  auto position = [&](int j) -> int {
    for (std::size_t k = 0; k < support.size(); ++k) {
      if (support[k] == j) return static_cast<int>(k);
    }
    return -1;
  };
  const int i_first = position(first), i_shoulder = position(shoulder), i_elbow = position(elbow),
            i_wrist = position(wrist);
  RETARGET_THROW_UNLESS(i_first >= 0 && i_first <= i_shoulder && i_shoulder < i_elbow && i_elbow < i_wrist,
                        InvalidArgument, "joints '", first_joint, "', '", shoulder_joint, "', '", elbow_joint, "', '",
                        wrist_joint, "' of robot '", model.name(), "' do not lie on one chain in this order");
  ArmChain arm;
  arm.side = side;
  for (int k = i_first; k <= i_wrist; ++k) {
    const auto& joint = model.joints()[static_cast<std::size_t>(support[static_cast<std::size_t>(k)])];
    if (joint.q_index >= 0) arm.fit_joints.push_back(joint.name);
  }
  if (arm.fit_joints.size() > 8) arm.fit_joints.resize(8);
  // Chain points at the neutral configuration (the distances between joint origins of a
  // serial chain do not depend on q).
  std::vector<Vector3<Scalar>> origin(support.size());
  {
    Isometry3<Scalar> X = Isometry3<Scalar>::Identity();
    for (std::size_t k = 0; k < support.size(); ++k) {
      const auto& joint = model.joints()[static_cast<std::size_t>(support[k])];
      X = X * joint.X_PJ;
      origin[k] = X.translation();
      if (!joint.X_JC_is_identity) X = X * joint.X_JC;
    }
  }
  arm.points.push_back(shoulder_joint);
  int last = i_shoulder;
  for (int k = i_shoulder + 1; k <= i_wrist; ++k) {
    const auto& joint = model.joints()[static_cast<std::size_t>(support[static_cast<std::size_t>(k)])];
    const bool mapped = k == i_elbow || k == i_wrist;
    if (!mapped && (!intermediate || !joint.moves())) continue;
    if (!mapped &&
        (origin[static_cast<std::size_t>(k)] - origin[static_cast<std::size_t>(last)]).norm() <= Scalar(1e-3))
      continue;
    if (k == i_elbow) arm.elbow = static_cast<int>(arm.points.size());
    arm.points.push_back(joint.name);
    last = k;
  }
  return arm;
}

#if RETARGET_DEFINE_ROBOTS

RETARGET_DECL ArmChainMap baxterArmChains() {
  ArmChainMap map;
  map.robot = "baxter";
  for (const char* prefix : {"left_", "right_"}) {
    ArmChain arm;
    arm.side = std::string(prefix) == "left_" ? ArmSide::kLeft : ArmSide::kRight;
    for (const char* j : {"s0", "s1", "e0", "e1", "w0"}) arm.fit_joints.push_back(prefix + std::string(j));
    for (const char* j : {"s1", "e1", "w1"}) arm.points.push_back(prefix + std::string(j));
    arm.elbow = 1;
    arm.rest = {0.0, -0.55, 0.0, 1.0, 0.0};  // arm forward and down, elbow bent 57 deg
    map.arms.push_back(arm);
  }
  return map;
}

RETARGET_DECL ArmChainMap yumiArmChains() {
  ArmChainMap map;
  map.robot = "yumi";
  for (const char* suffix : {"_l", "_r"}) {
    ArmChain arm;
    arm.side = std::string(suffix) == "_l" ? ArmSide::kLeft : ArmSide::kRight;
    for (const char* j : {"1", "2", "7", "3", "4"}) arm.fit_joints.push_back("yumi_joint_" + std::string(j) + suffix);
    for (const char* j : {"2", "3", "5"}) arm.points.push_back("yumi_joint_" + std::string(j) + suffix);
    arm.elbow = 1;
    arm.rest = {0.0, -1.0, 0.0, -0.9, 0.0};  // upper arm lowered, elbow bent 52 deg
    map.arms.push_back(arm);
  }
  return map;
}

RETARGET_DECL ArmChainMap naoArmChains(const std::string& robot) {
  ArmChainMap map;
  map.robot = robot;
  for (const char* s : {"L", "R"}) {
    ArmChain arm;
    arm.side = std::string(s) == "L" ? ArmSide::kLeft : ArmSide::kRight;
    for (const char* j : {"ShoulderPitch", "ShoulderRoll", "ElbowYaw", "ElbowRoll"})
      arm.fit_joints.push_back(s + std::string(j));
    for (const char* j : {"ShoulderPitch", "ElbowYaw", "WristYaw"}) arm.points.push_back(s + std::string(j));
    arm.elbow = 1;
    map.arms.push_back(arm);
  }
  return map;
}

#endif  // RETARGET_DEFINE_ROBOTS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS void ArmChainMap::validateFor<double>(const RobotModel<double>&) const;
RETARGET_TEMPLATE_ROBOTS void ArmChainMap::validateFor<float>(const RobotModel<float>&) const;
RETARGET_TEMPLATE_ROBOTS ArmChain armChainFrom<double>(const RobotModel<double>&, ArmSide, const std::string&,
                                                       const std::string&, const std::string&, const std::string&,
                                                       bool);
RETARGET_TEMPLATE_ROBOTS ArmChain armChainFrom<float>(const RobotModel<float>&, ArmSide, const std::string&,
                                                      const std::string&, const std::string&, const std::string&, bool);
RETARGET_TEMPLATE_ROBOTS std::optional<ArmChainMap> armChainsFor<double>(const RobotModel<double>&);
RETARGET_TEMPLATE_ROBOTS std::optional<ArmChainMap> armChainsFor<float>(const RobotModel<float>&);
#endif

}  // namespace retarget
