#pragma once

/// @file
/// Robot data of PIC / PICs / FABRIK (seed 004, Section III-A, Eq. 2): the robot's arm chains
/// (robots/arm_chains.hpp: for each arm the chain of joint positions FABRIK works on, the three
/// robot joints the human shoulder, elbow and wrist map to, the constraint system's mapping M of
/// Eq. 2, and the joints the positions-to-angles fit may move). The method keeps no robot data of
/// its own: the names below are the robot layer's, under the names PIC's API has always used.

#include <optional>
#include <string>

#include <retarget/robots/arm_chains.hpp>

namespace retarget {

/// One robot arm for PIC (robots/arm_chains.hpp).
using PicArmMap = ArmChain;
/// PIC data of a robot: its arm chains.
using PicMap = ArmChainMap;

/// armChainFrom (robots/arm_chains.hpp).
template <typename Scalar>
PicArmMap picArmFromChain(const RobotModel<Scalar>& model, ArmSide side, const std::string& first_joint,
                          const std::string& shoulder_joint, const std::string& elbow_joint,
                          const std::string& wrist_joint, bool intermediate = false) {
  return armChainFrom(model, side, first_joint, shoulder_joint, elbow_joint, wrist_joint, intermediate);
}
/// Baxter's arm chains (baxterArmChains).
inline PicMap baxterPicMap() { return baxterArmChains(); }
/// YuMi's arm chains (yumiArmChains).
inline PicMap yumiPicMap() { return yumiArmChains(); }
/// NAO's / Pepper's arm chains (naoArmChains).
inline PicMap naoPicMap(const std::string& robot = "nao") { return naoArmChains(robot); }
/// The built-in arm chains that fit `model` (armChainsFor).
template <typename Scalar>
std::optional<PicMap> picMapFor(const RobotModel<Scalar>& model) {
  return armChainsFor(model);
}

}  // namespace retarget
