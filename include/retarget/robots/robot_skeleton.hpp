#pragma once

/// @file
/// The virtual skeleton of any robot, in one place: the hand-written one of a paper's robot
/// (NAO, Pepper: robots/virtual_skeleton_map.hpp) when the model is that robot, else the one its
/// automatic humanoid binding found (robots/humanoid_binding.hpp), so that every metric, the
/// particle filters and the command line and Python read the same skeleton for the same robot.

#include <optional>

#include <retarget/human/skeleton.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>

namespace retarget {

static_assert(kHumanoidPointCount <= kHumanJointCount, "HumanoidPoint is a prefix of HumanJoint");

/// The canonical skeleton joint of a humanoid point (same value and name).
inline HumanJoint toHumanJoint(HumanoidPoint p) { return static_cast<HumanJoint>(static_cast<int>(p)); }

/// The virtual skeleton of an automatically bound humanoid: `binding.points` (same links, vectors
/// and `from` points, same order), named after the robot, with no head or hand couplings (which
/// joint opens a hand is not a binding's finding). Never throws.
inline VirtualSkeletonMap humanoidVirtualSkeletonMap(const HumanoidBinding& binding) {
  VirtualSkeletonMap map;
  map.robot = binding.robot + " (automatic binding)";
  for (const HumanoidPointBinding& p : binding.points) {
    VirtualPointSpec spec;
    spec.joint = toHumanJoint(p.point);
    if (p.from) spec.from = toHumanJoint(*p.from);
    spec.link = p.link;
    spec.v_L = p.v_L;
    map.points.push_back(spec);
  }
  return map;
}

namespace internal {
/// NAO's or Pepper's hand-written virtual skeleton when `model` fits it (`fitsModel`), else nullopt.
template <typename Scalar>
std::optional<VirtualSkeletonMap> paperSkeletonFor(const RobotModel<Scalar>& model) {
  for (VirtualSkeletonMap map : {naoVirtualSkeletonMap(), pepperVirtualSkeletonMap()}) {
    if (fitsModel(map, model)) return map;
  }
  return std::nullopt;
}
}  // namespace internal

/// The virtual skeleton the metrics read on `model` whose binding is `binding` (bindHumanoid(model,
/// pins)), for a caller that has bound it already: NAO's or Pepper's when the model fits it and
/// `pinned` is false, else the binding's when it found both arms and a leg, else nullopt. Never
/// throws.
template <typename Scalar>
std::optional<VirtualSkeletonMap> virtualSkeletonMapFor(const RobotModel<Scalar>& model, const HumanoidBinding& binding,
                                                        bool pinned = false) {
  if (!pinned) {
    if (std::optional<VirtualSkeletonMap> paper = internal::paperSkeletonFor(model)) return paper;
  }
  const bool arms = binding.limb(HumanoidLimb::kLeftArm).found && binding.limb(HumanoidLimb::kRightArm).found;
  const bool leg = binding.limb(HumanoidLimb::kLeftLeg).found || binding.limb(HumanoidLimb::kRightLeg).found;
  if (arms && leg) return humanoidVirtualSkeletonMap(binding);
  return std::nullopt;
}

/// The virtual skeleton the metrics read on `model`. Without `pins`: NAO's when the model fits it
/// (`fitsModel`: the built-in NAO, a NAO URDF), else Pepper's, else the automatic binding's when
/// it found both arms and a leg (G1, H1, T1, OP3, any URDF or MJCF humanoid). With `pins` (a robot
/// schema): the binding's with those pins. nullopt for a robot that is not a humanoid (the
/// arm-only robots of the papers: Tangy, Baxter, YuMi, InMoov). Throws InvalidArgument only for
/// invalid `pins` (as bindHumanoid).
template <typename Scalar>
std::optional<VirtualSkeletonMap> virtualSkeletonMapFor(const RobotModel<Scalar>& model,
                                                        const HumanoidBindingOptions* pins = nullptr) {
  if (pins == nullptr) {
    if (std::optional<VirtualSkeletonMap> paper = internal::paperSkeletonFor(model)) return paper;
  }
  const HumanoidBindingOptions automatic{};
  return virtualSkeletonMapFor(model, bindHumanoid(model, pins != nullptr ? *pins : automatic), pins != nullptr);
}

namespace internal {
/// Compile-time check that the names of HumanoidPoint and HumanJoint agree.
constexpr bool humanoidPointNamesAgree() {
  for (int i = 0; i < kHumanoidPointCount; ++i) {
    if (kHumanoidPointNames[static_cast<std::size_t>(i)] != kHumanJointNames[static_cast<std::size_t>(i)]) return false;
  }
  return true;
}
static_assert(humanoidPointNamesAgree(), "HumanoidPoint names must be the first HumanJoint names");
}  // namespace internal

}  // namespace retarget
