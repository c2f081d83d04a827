#pragma once

/// @file
/// The virtual skeleton of an automatically bound humanoid (robots/humanoid_binding.hpp) as a
/// `GaLvvjMap` with points only: `VirtualSkeleton` (mappers/virtual_skeleton.hpp) and every
/// metric that reads a robot's virtual skeleton then work on any robot the binding understands.
/// The joint bindings stay empty (which robot joint plays which GA-LVVJ virtual joint needs the
/// joint axes and signs of a mapper, not the binding), so such a map drives no mapper by itself.

#include <string>

#include <retarget/human/skeleton.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/robots/humanoid_binding.hpp>

namespace retarget {

static_assert(kHumanoidPointCount <= kHumanJointCount, "HumanoidPoint is a prefix of HumanJoint");

/// The canonical skeleton joint of a humanoid point (same value and name).
inline HumanJoint toHumanJoint(HumanoidPoint p) { return static_cast<HumanJoint>(static_cast<int>(p)); }

/// A `GaLvvjMap` named after the robot whose virtual skeleton is `binding.points` (same links,
/// vectors and `from` points, same order), with no joint bindings and no feet. Never throws.
inline GaLvvjMap humanoidVirtualSkeletonMap(const HumanoidBinding& binding) {
  GaLvvjMap map;
  map.robot = binding.robot + " (automatic binding)";
  for (const HumanoidPointBinding& p : binding.points) {
    VirtualPointSpec spec;
    spec.joint = toHumanJoint(p.point);
    if (p.from) spec.from = toHumanJoint(*p.from);
    spec.link = p.link;
    spec.v_L = p.v_L;
    map.virtual_skeleton.push_back(spec);
  }
  return map;
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
