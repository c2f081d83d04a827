#pragma once

/// @file
/// JSON form of GA-LVVJ's `GaLvvjOptions` and `GaLvvjMap` (nlohmann-json; CMake target
/// retarget::json; never included by retarget/retarget.hpp). Use the API of conversion.hpp:
/// `toJson`, `fromJson<T>`, `parseJson<T>`, `loadJson<T>`, `saveJson`.
///
/// GaLvvjOptions format (every key optional; defaults shown; units rad):
/// ```
/// { "hip_yaw_pitch_mode": "from-knees", // or "fixed"
///   "hip_yaw_pitch": 0,                // rad
///   "singular_tolerance": 0.001,       // unitless, in (0, 0.5]
///   "rest": [],                        // rad, robot q order, nq values; [] = neutral pose
///   "limit_aware_shoulder": true,
///   "continuity_weight": 10,           // 1/rad^2, >= 0
///   "jump_cost": 0.3,                  // arm-direction error units, > 0 (1e9: no cap)
///   "continuity_gain": 3,              // unitless, >= 0
///   "discontinuity_step": 0.35,        // rad, > 0
///   "clamp_tolerance": 0.035,          // rad, >= 0
///   "inferred_joints": "hold",         // or "use"
///   "leg_fit": true,
///   "trunk_lean": false }
/// ```
/// "smoothing" is an error: smoothing is a filter now (`--smooth ALPHA` on the command line,
/// or an `ExponentialSmoothing` after the mapper).
///
/// GaLvvjMap format (every key optional; defaults are those of a default-constructed map;
/// lengths in m, angles in rad):
/// ```
/// { "robot": "NAO H25",
///   "joints": { "HeadYaw": { "joint": "HeadYaw", "sign": 1, "offset": 0 }, ... },
///   "R_UE_left": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
///   "R_UE_right": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
///   "foot_left": { "ankle_pitch": "LAnklePitch", "ankle_roll": "LAnkleRoll", "sole": "l_sole" },
///   "foot_right": { "ankle_pitch": "RAnklePitch", "ankle_roll": "RAnkleRoll", "sole": "r_sole" } }
/// ```
/// "joints" is keyed by the virtual joint names of kGaLvvjJointNames; a virtual joint that is
/// absent, or whose "joint" is "", is not bound. R_UE matrices are written as arrays of rows.
/// `toJson` writes every field, all 19 virtual joints included. Checks made without a robot
/// model: a bound joint's sign is +-1, offsets are finite, R_UE matrices are rotations
/// (tolerance 1e-6). Names are checked against the robot when the mapper is built. A
/// "virtual_skeleton" key is an error: the robot's virtual skeleton is robot data, a
/// `VirtualSkeletonMap` (json/virtual_skeleton_map.hpp).

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/json/conversion.hpp>
#include <retarget/json/internal/reader.hpp>
#include <retarget/json/virtual_skeleton_map.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>

namespace retarget {

/// JSON form of GA-LVVJ options (every field, documented order).
inline nlohmann::ordered_json toJson(const GaLvvjOptions& options) {
  nlohmann::ordered_json j;
  j["hip_yaw_pitch_mode"] =
      options.hip_yaw_pitch_mode == GaLvvjOptions::HipYawPitchMode::kFromKnees ? "from-knees" : "fixed";
  j["hip_yaw_pitch"] = options.hip_yaw_pitch;
  j["singular_tolerance"] = options.singular_tolerance;
  j["rest"] = options.rest;
  j["limit_aware_shoulder"] = options.limit_aware_shoulder;
  j["continuity_weight"] = options.continuity_weight;
  j["jump_cost"] = options.jump_cost;
  j["continuity_gain"] = options.continuity_gain;
  j["discontinuity_step"] = options.discontinuity_step;
  j["clamp_tolerance"] = options.clamp_tolerance;
  j["inferred_joints"] = options.inferred_joints == InferredJoints::kUse ? "use" : "hold";
  j["leg_fit"] = options.leg_fit;
  j["trunk_lean"] = options.trunk_lean;
  return j;
}

/// JSON form of a GA-LVVJ map (every field, all 19 virtual joints).
inline nlohmann::ordered_json toJson(const GaLvvjMap& map) {
  nlohmann::ordered_json j;
  j["robot"] = map.robot;
  nlohmann::ordered_json joints = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < map.joints.size(); ++i) joints[kGaLvvjJointNames[i]] = toJson(map.joints[i]);
  j["joints"] = std::move(joints);
  j["R_UE_left"] = internal::matrix3ToJson(map.R_UE_left);
  j["R_UE_right"] = internal::matrix3ToJson(map.R_UE_right);
  for (const auto& [key, foot] : {std::pair{"foot_left", &map.foot_left}, std::pair{"foot_right", &map.foot_right}}) {
    nlohmann::ordered_json f;
    f["ankle_pitch"] = foot->ankle_pitch;
    f["ankle_roll"] = foot->ankle_roll;
    f["sole"] = foot->sole;
    j[key] = std::move(f);
  }
  return j;
}

namespace internal {

inline constexpr const char* kGaLvvjSmoothingMoved =
    "smoothing moved to a filter (use --smooth ALPHA on the command line, or an ExponentialSmoothing "
    "(filters/exponential_smoothing.hpp) after the mapper)";

inline constexpr const char* kGaLvvjVirtualSkeletonMoved =
    "the virtual skeleton moved out of the GA-LVVJ map: it is robot data, a VirtualSkeletonMap "
    "(robots/virtual_skeleton_map.hpp, JSON: json/virtual_skeleton_map.hpp)";

/// GA-LVVJ options read over `defaults` (a key that is absent keeps its default: the whole-body
/// pipeline's GA-LVVJ defaults differ from the mapper's in `trunk_lean`).
inline GaLvvjOptions decodeGaLvvjOptions(const nlohmann::json& value, const std::string& pointer,
                                         GaLvvjOptions defaults) {
  const JsonObjectReader j(value, pointer, "GA-LVVJ options",
                           {"hip_yaw_pitch_mode", "hip_yaw_pitch", "singular_tolerance", "rest", "limit_aware_shoulder",
                            "continuity_weight", "jump_cost", "continuity_gain", "discontinuity_step", "clamp_tolerance",
                            "inferred_joints", "leg_fit", "trunk_lean"},
                           {{"smoothing", kGaLvvjSmoothingMoved}});
  GaLvvjOptions options = std::move(defaults);
  if (j.has("hip_yaw_pitch_mode")) {
    using Mode = GaLvvjOptions::HipYawPitchMode;
    options.hip_yaw_pitch_mode = readJsonChoice<Mode>(j.at("hip_yaw_pitch_mode"), j.pointer("hip_yaw_pitch_mode"),
                                                {"fixed", Mode::kFixed}, {"from-knees", Mode::kFromKnees});
  }
  j.read("hip_yaw_pitch", options.hip_yaw_pitch, "a finite angle (rad)");
  if (j.has("singular_tolerance")) {
    const std::string expected = "a number in (0, 0.5]";
    options.singular_tolerance = readJsonNumber(j.at("singular_tolerance"), j.pointer("singular_tolerance"), expected);
    jsonExpect(options.singular_tolerance > 0.0 && options.singular_tolerance <= 0.5, j.at("singular_tolerance"),
               j.pointer("singular_tolerance"), expected);
  }
  j.read("rest", options.rest);
  j.read("limit_aware_shoulder", options.limit_aware_shoulder);
  j.read("continuity_weight", options.continuity_weight, "a finite number >= 0 (1/rad^2)");
  j.read("jump_cost", options.jump_cost, "a finite number > 0 (arm-direction error units)");
  j.read("continuity_gain", options.continuity_gain, "a finite number >= 0");
  j.read("discontinuity_step", options.discontinuity_step, "a finite number > 0 (rad)");
  j.read("clamp_tolerance", options.clamp_tolerance, "a finite number >= 0 (rad)");
  j.read("leg_fit", options.leg_fit);
  j.read("trunk_lean", options.trunk_lean);
  if (j.has("inferred_joints")) {
    options.inferred_joints = readJsonChoice<InferredJoints>(j.at("inferred_joints"), j.pointer("inferred_joints"),
                                             {"hold", InferredJoints::kHold}, {"use", InferredJoints::kUse});
  }
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

inline GaLvvjOptions decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<GaLvvjOptions>) {
  return decodeGaLvvjOptions(value, pointer, GaLvvjOptions{});
}

inline GaLvvjMap decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<GaLvvjMap>) {
  const JsonObjectReader j(value, pointer, "a GA-LVVJ map",
                           {"robot", "joints", "R_UE_left", "R_UE_right", "foot_left", "foot_right"},
                           {{"virtual_skeleton", kGaLvvjVirtualSkeletonMoved}});
  GaLvvjMap map;
  j.read("robot", map.robot);
  if (j.has("joints")) {
    std::string list;
    for (const char* n : kGaLvvjJointNames) list += (list.empty() ? "" : ", ") + std::string(n);
    const nlohmann::json& joints = j.at("joints");
    jsonExpect(joints.is_object(), joints, j.pointer("joints"),
               "an object of joint bindings keyed by virtual joint name");
    for (auto it = joints.begin(); it != joints.end(); ++it) {
      const std::string at = jsonPointer(j.pointer("joints"), it.key());
      std::size_t index = kGaLvvjJointNames.size();
      for (std::size_t i = 0; i < kGaLvvjJointNames.size(); ++i) {
        if (it.key() == kGaLvvjJointNames[i]) index = i;
      }
      if (index == kGaLvvjJointNames.size()) {
        jsonFail(at, "unknown virtual joint \"" + it.key() + "\" (expected one of " + list + ")");
      }
      map.joints[index] = decodeJson(*it, at, JsonTag<GaLvvjJointBinding>{});
    }
  }
  for (const char* key : {"R_UE_left", "R_UE_right"}) {
    if (!j.has(key)) continue;
    const Eigen::Matrix3d R = readJsonMatrix3(j.at(key), j.pointer(key));
    jsonExpect((R.transpose() * R - Eigen::Matrix3d::Identity()).norm() < 1e-6 && R.determinant() > 0, j.at(key),
               j.pointer(key), "a rotation matrix (orthonormal rows, determinant +1)");
    (std::string(key) == "R_UE_left" ? map.R_UE_left : map.R_UE_right) = R;
  }
  for (const char* key : {"foot_left", "foot_right"}) {
    if (!j.has(key)) continue;
    const JsonObjectReader f(j.at(key), j.pointer(key), "a foot (trunk lean)", {"ankle_pitch", "ankle_roll", "sole"});
    GaLvvjFoot& foot = std::string(key) == "foot_left" ? map.foot_left : map.foot_right;
    f.read("ankle_pitch", foot.ankle_pitch);
    f.read("ankle_roll", foot.ankle_roll);
    f.read("sole", foot.sole);
  }
  return map;
}

}  // namespace internal
}  // namespace retarget
