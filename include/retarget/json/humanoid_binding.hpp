#pragma once

/// @file
/// JSON form of `HumanoidBindingOptions` (robots/humanoid_binding.hpp): the robot schema file, the
/// robot-side twin of a BVH skeleton schema. nlohmann-json; CMake target retarget::json; never
/// included by retarget/retarget.hpp. Use the API of conversion.hpp (`toJson`, `fromJson<T>`,
/// `parseJson<T>`, `loadJson<T>`, `saveJson`).
///
/// Format (every key optional; an absent key keeps the automatic choice; axes in the URDF root
/// frame, unitless directions; tolerances as in HumanoidBindingOptions):
/// ```
/// { "forward": [1, 0, 0],            // robot's x (forward) in the root frame
///   "up": [0, 0, 1],                 // robot's z (up) in the root frame
///   "limbs": {
///     "left_arm":  { "end_link": "l_wrist", "bend_joint": "LElbowRoll", "distal_joint": "LWristYaw" },
///     "right_arm": { ... }, "left_leg": { ... }, "right_leg": { ... },
///     "head":      { "end_link": "Head" } },   // "end_link": "-" declares a limb absent
///   "min_limb_fraction": 0.05, "sibling_branch_fraction": 0.15, "pair_tolerance": 0.15, "joint_group_tolerance": 0.02,
///   "axis_snap_angle": 0.1745, "link_axis_snap_angle": 0.1745 }   // rad
/// ```
/// Checked without a robot: the values' ranges (HumanoidBindingOptions::validate). Names are
/// checked against the robot by bindHumanoid (InvalidArgument naming the pin and the name).

#include <string>

#include <nlohmann/json.hpp>

#include <retarget/json/conversion.hpp>
#include <retarget/json/internal/reader.hpp>
#include <retarget/robots/humanoid_binding.hpp>

namespace retarget {

/// JSON form of robot-binding options (every field that is set; limbs without pins are left out).
inline nlohmann::ordered_json toJson(const HumanoidBindingOptions& options) {
  nlohmann::ordered_json j;
  if (options.forward) j["forward"] = internal::vector3ToJson(*options.forward);
  if (options.up) j["up"] = internal::vector3ToJson(*options.up);
  nlohmann::ordered_json limbs = nlohmann::ordered_json::object();
  for (std::size_t l = 0; l < kHumanoidLimbCount; ++l) {
    const HumanoidLimbPin& pin = options.limbs[l];
    if (pin.end_link.empty() && pin.bend_joint.empty() && pin.distal_joint.empty()) continue;
    nlohmann::ordered_json p;
    p["end_link"] = pin.end_link;
    if (!pin.bend_joint.empty()) p["bend_joint"] = pin.bend_joint;
    if (!pin.distal_joint.empty()) p["distal_joint"] = pin.distal_joint;
    limbs[std::string(kHumanoidLimbNames[l])] = p;
  }
  j["limbs"] = limbs;
  j["min_limb_fraction"] = options.min_limb_fraction;
  j["sibling_branch_fraction"] = options.sibling_branch_fraction;
  j["pair_tolerance"] = options.pair_tolerance;
  j["joint_group_tolerance"] = options.joint_group_tolerance;
  j["axis_snap_angle"] = options.axis_snap_angle;
  j["link_axis_snap_angle"] = options.link_axis_snap_angle;
  return j;
}

namespace internal {

inline HumanoidLimbPin decodeHumanoidLimbPin(const nlohmann::json& value, const std::string& pointer) {
  const JsonObjectReader j(value, pointer, "a limb pin", {"end_link", "bend_joint", "distal_joint"});
  HumanoidLimbPin pin;
  j.read("end_link", pin.end_link);
  j.read("bend_joint", pin.bend_joint);
  j.read("distal_joint", pin.distal_joint);
  return pin;
}

inline HumanoidBindingOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                         JsonTag<HumanoidBindingOptions>) {
  const JsonObjectReader j(value, pointer, "a robot schema (humanoid binding options)",
                           {"forward", "up", "limbs", "min_limb_fraction", "sibling_branch_fraction", "pair_tolerance", "joint_group_tolerance",
                            "axis_snap_angle", "link_axis_snap_angle"});
  HumanoidBindingOptions options;
  if (j.has("forward")) options.forward = readJsonVector3(j.at("forward"), j.pointer("forward"));
  if (j.has("up")) options.up = readJsonVector3(j.at("up"), j.pointer("up"));
  if (j.has("limbs")) {
    std::initializer_list<const char*> names = {"left_arm", "right_arm", "left_leg", "right_leg", "head"};
    const JsonObjectReader limbs(j.at("limbs"), j.pointer("limbs"), "the limbs", names);
    for (std::size_t l = 0; l < kHumanoidLimbCount; ++l) {
      const std::string key(kHumanoidLimbNames[l]);
      if (limbs.has(key.c_str())) options.limbs[l] = decodeHumanoidLimbPin(limbs.at(key.c_str()), limbs.pointer(key.c_str()));
    }
  }
  j.read("min_limb_fraction", options.min_limb_fraction);
  j.read("sibling_branch_fraction", options.sibling_branch_fraction);
  j.read("pair_tolerance", options.pair_tolerance);
  j.read("joint_group_tolerance", options.joint_group_tolerance);
  j.read("axis_snap_angle", options.axis_snap_angle, "a finite angle (rad)");
  j.read("link_axis_snap_angle", options.link_axis_snap_angle, "a finite angle (rad)");
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

}  // namespace internal

}  // namespace retarget
