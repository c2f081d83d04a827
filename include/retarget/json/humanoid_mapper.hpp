#pragma once

/// @file
/// JSON form of `HumanoidMapperOptions` (mappers/humanoid.hpp): the file `retarget map --method
/// humanoid --config` reads and `HumanoidMapper(robot, options=...)` takes in Python.
/// nlohmann-json; CMake target retarget::json; never included by retarget/retarget.hpp. Use the
/// API of conversion.hpp (`toJson`, `fromJson<T>`, `parseJson<T>`, `loadJson<T>`, `saveJson`).
///
/// Format (every key optional; defaults shown; weights unitless, angles rad):
/// ```
/// { "torso_weight": 1, "twist_weight": 0.5, "limb_weight": 1,
///   "ground_weight": 0.5,            // >= 0, relative to limb_weight
///   "end_weight": 0.3,               // >= 0, hands and feet, relative to limb_weight
///   "continuity_weight": 0.02,       // >= 0 (per rad^2)
///   "max_step": 0.5,                 // rad, > 0; null: no trust region
///   "min_step": 0.02,                // rad, >= 0
///   "continuity_gain": 3,            // >= 0
///   "max_iterations": 20, "first_frame_iterations": 100,
///   "tolerance": 0.0001,             // rad, > 0
///   "clamp_tolerance": 0.035,        // rad, >= 0
///   "clamp_cost": 0.002,             // >= 0 (units of 1 - cos)
///   "restarts": true, "restart_cosine": 0.98, "switch_gain": 0.05,
///   "restart_iterations": 4,         // >= 1
///   "restart_turn": 0.2,             // rad, >= 0
///   "inferred_joints": "hold",       // or "use"
///   "rest": [] }                     // rad, robot q order, nq values; [] = neutral pose
/// ```
/// Checked without a robot: the ranges of HumanoidMapperOptions::validate. `rest` is checked
/// against the robot when the mapper is built.

#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/json/conversion.hpp>
#include <retarget/json/internal/reader.hpp>
#include <retarget/mappers/humanoid.hpp>

namespace retarget {

/// JSON form of the humanoid mapper's options (every field, documented order).
inline nlohmann::ordered_json toJson(const HumanoidMapperOptions& options) {
  nlohmann::ordered_json j;
  j["torso_weight"] = options.torso_weight;
  j["twist_weight"] = options.twist_weight;
  j["limb_weight"] = options.limb_weight;
  j["ground_weight"] = options.ground_weight;
  j["end_weight"] = options.end_weight;
  j["continuity_weight"] = options.continuity_weight;
  if (std::isfinite(options.max_step)) {
    j["max_step"] = options.max_step;
  } else {
    j["max_step"] = nullptr;
  }
  j["min_step"] = options.min_step;
  j["continuity_gain"] = options.continuity_gain;
  j["max_iterations"] = options.max_iterations;
  j["first_frame_iterations"] = options.first_frame_iterations;
  j["tolerance"] = options.tolerance;
  j["clamp_tolerance"] = options.clamp_tolerance;
  j["clamp_cost"] = options.clamp_cost;
  j["restarts"] = options.restarts;
  j["restart_cosine"] = options.restart_cosine;
  j["switch_gain"] = options.switch_gain;
  j["restart_iterations"] = options.restart_iterations;
  j["restart_turn"] = options.restart_turn;
  j["inferred_joints"] = options.inferred_joints == InferredJoints::kUse ? "use" : "hold";
  j["rest"] = options.rest;
  return j;
}

namespace internal {

inline HumanoidMapperOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                        JsonTag<HumanoidMapperOptions>) {
  const JsonObjectReader j(value, pointer, "humanoid mapper options",
                           {"torso_weight", "twist_weight", "limb_weight", "ground_weight", "end_weight",
                            "continuity_weight", "max_step", "min_step", "continuity_gain", "max_iterations",
                            "first_frame_iterations", "tolerance", "clamp_tolerance", "clamp_cost", "restarts",
                            "restart_cosine", "switch_gain", "restart_iterations", "restart_turn", "inferred_joints",
                            "rest"});
  HumanoidMapperOptions options;
  j.read("torso_weight", options.torso_weight, "a finite number >= 0");
  j.read("twist_weight", options.twist_weight, "a finite number >= 0");
  j.read("limb_weight", options.limb_weight, "a finite number > 0");
  j.read("ground_weight", options.ground_weight, "a finite number >= 0");
  j.read("end_weight", options.end_weight, "a finite number >= 0");
  j.read("continuity_weight", options.continuity_weight, "a finite number >= 0 (per rad^2)");
  if (j.has("max_step") && j.at("max_step").is_null()) {
    options.max_step = std::numeric_limits<double>::infinity();
  } else {
    j.read("max_step", options.max_step, "a finite number > 0 (rad), or null for no trust region");
  }
  j.read("min_step", options.min_step, "a finite number >= 0 (rad)");
  j.read("continuity_gain", options.continuity_gain, "a finite number >= 0");
  j.read("max_iterations", options.max_iterations, 1);
  j.read("first_frame_iterations", options.first_frame_iterations, 1);
  j.read("tolerance", options.tolerance, "a finite number > 0 (rad)");
  j.read("clamp_tolerance", options.clamp_tolerance, "a finite number >= 0 (rad)");
  j.read("clamp_cost", options.clamp_cost, "a finite number >= 0");
  j.read("restarts", options.restarts);
  j.read("restart_cosine", options.restart_cosine, "a number in (-1, 1]");
  j.read("switch_gain", options.switch_gain, "a finite number >= 0");
  j.read("restart_iterations", options.restart_iterations, 1);
  j.read("restart_turn", options.restart_turn, "a finite number >= 0 (rad)");
  if (j.has("inferred_joints")) {
    options.inferred_joints = readJsonChoice<InferredJoints>(j.at("inferred_joints"), j.pointer("inferred_joints"),
                                                             {"hold", InferredJoints::kHold}, {"use", InferredJoints::kUse});
  }
  j.read("rest", options.rest);
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

}  // namespace internal

}  // namespace retarget
