#pragma once

/// @file
/// JSON form of the whole-body options (control/: locomotion, support modes, balance, the
/// pipeline; nlohmann-json; CMake target retarget::json; never included by
/// retarget/retarget.hpp). Use the API of conversion.hpp. Every key is optional (defaults shown);
/// keys are the field names; units as in the structs (m, rad, s, m/s, rad/s).
///
/// ```
/// LocomotionOptions  { "loop_period": 1.0, "step_threshold": 0.1, "turn_threshold": 0.2618 }
/// SupportModeOptions { "lift_height": 0.05, "lift_confirm_time": 0.5, "landing_confirm_time": 0.1,
///                      "max_lift_speed": 4.4,
///                      "locomotion": { ... } }
/// BalanceOptions     { "control_period": 0.02, "safety_margin": 0.01, "linearisation_margin": 0.001,
///                      "recovery_step": 0.002, "max_joint_speed": 3.0, "landing_speed": 0.05,
///                      "landing_turn_speed": 1.0, "landing_height": 0.001, "landing_tilt": 0.01,
///                      "max_halvings": 6, "tracking": "position" (or "velocity", Eq. 34 as written) }
/// WholeBodyOptions   { "modes": { ... }, "balance": { ... }, "balance_enabled": true, "max_periods_per_frame": 10 }
/// ```
/// The whole-body configurations of the command line and Python, which add the mapper's options
/// ("ga_lvvj" or "humanoid") to these keys, are app/whole_body_json.hpp.

#include <string>

#include <nlohmann/json.hpp>

#include <retarget/control/whole_body.hpp>
#include <retarget/json/conversion.hpp>
#include <retarget/json/internal/reader.hpp>

namespace retarget {

/// JSON form of LocomotionOptions.
inline nlohmann::ordered_json toJson(const LocomotionOptions& options) {
  nlohmann::ordered_json j;
  j["loop_period"] = options.loop_period;
  j["step_threshold"] = options.step_threshold;
  j["turn_threshold"] = options.turn_threshold;
  return j;
}

/// JSON form of SupportModeOptions.
inline nlohmann::ordered_json toJson(const SupportModeOptions& options) {
  nlohmann::ordered_json j;
  j["lift_height"] = options.lift_height;
  j["lift_confirm_time"] = options.lift_confirm_time;
  j["landing_confirm_time"] = options.landing_confirm_time;
  j["max_lift_speed"] = options.max_lift_speed;
  j["locomotion"] = toJson(options.locomotion);
  return j;
}

/// JSON form of BalanceOptions.
inline nlohmann::ordered_json toJson(const BalanceOptions& options) {
  nlohmann::ordered_json j;
  j["control_period"] = options.control_period;
  j["safety_margin"] = options.safety_margin;
  j["linearisation_margin"] = options.linearisation_margin;
  j["recovery_step"] = options.recovery_step;
  j["max_joint_speed"] = options.max_joint_speed;
  j["landing_speed"] = options.landing_speed;
  j["landing_turn_speed"] = options.landing_turn_speed;
  j["landing_height"] = options.landing_height;
  j["landing_tilt"] = options.landing_tilt;
  j["max_halvings"] = options.max_halvings;
  j["tracking"] = options.tracking == BalanceOptions::Tracking::kVelocity ? "velocity" : "position";
  return j;
}

/// JSON form of WholeBodyOptions.
inline nlohmann::ordered_json toJson(const WholeBodyOptions& options) {
  nlohmann::ordered_json j;
  j["modes"] = toJson(options.modes);
  j["balance"] = toJson(options.balance);
  j["balance_enabled"] = options.balance_enabled;
  j["max_periods_per_frame"] = options.max_periods_per_frame;
  return j;
}

namespace internal {

inline LocomotionOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                    JsonTag<LocomotionOptions>) {
  const JsonObjectReader j(value, pointer, "locomotion options", {"loop_period", "step_threshold", "turn_threshold"});
  LocomotionOptions options;
  j.read("loop_period", options.loop_period, "a finite number > 0 (s)");
  j.read("step_threshold", options.step_threshold, "a finite number > 0 (m)");
  j.read("turn_threshold", options.turn_threshold, "a number in (0, pi) (rad)");
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

inline SupportModeOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                     JsonTag<SupportModeOptions>) {
  const JsonObjectReader j(value, pointer, "support-mode options",
                           {"lift_height", "lift_confirm_time", "landing_confirm_time", "max_lift_speed", "locomotion"});
  SupportModeOptions options;
  j.read("lift_height", options.lift_height, "a finite number > 0 (m)");
  j.read("lift_confirm_time", options.lift_confirm_time, "a finite number > 0 (s)");
  j.read("landing_confirm_time", options.landing_confirm_time, "a finite number > 0 (s)");
  j.read("max_lift_speed", options.max_lift_speed, "a finite number > 0 (leg lengths per second)");
  if (j.has("locomotion")) {
    options.locomotion = decodeJson(j.at("locomotion"), j.pointer("locomotion"), JsonTag<LocomotionOptions>{});
  }
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

inline BalanceOptions decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<BalanceOptions>) {
  const JsonObjectReader j(value, pointer, "balance options",
                           {"control_period", "safety_margin", "linearisation_margin", "recovery_step",
                            "max_joint_speed", "landing_speed", "landing_turn_speed", "landing_height", "landing_tilt",
                            "max_halvings", "tracking"});
  BalanceOptions options;
  j.read("control_period", options.control_period, "a finite number > 0 (s)");
  j.read("safety_margin", options.safety_margin, "a finite number >= 0 (m)");
  j.read("linearisation_margin", options.linearisation_margin, "a finite number >= 0 (m)");
  j.read("recovery_step", options.recovery_step, "a finite number > 0 (m)");
  j.read("max_joint_speed", options.max_joint_speed, "a finite number > 0 (rad/s)");
  j.read("landing_speed", options.landing_speed, "a finite number > 0 (m/s)");
  j.read("landing_turn_speed", options.landing_turn_speed, "a finite number > 0 (rad/s)");
  j.read("landing_height", options.landing_height, "a finite number > 0 (m)");
  j.read("landing_tilt", options.landing_tilt, "a finite number > 0 (rad)");
  j.read("max_halvings", options.max_halvings, 0);
  if (j.has("tracking")) {
    using Tracking = BalanceOptions::Tracking;
    options.tracking = readJsonChoice<Tracking>(j.at("tracking"), j.pointer("tracking"), {"position", Tracking::kPosition},
                                      {"velocity", Tracking::kVelocity});
  }
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

inline WholeBodyOptions decodeJson(const nlohmann::json& value, const std::string& pointer,
                                   JsonTag<WholeBodyOptions>) {
  const JsonObjectReader j(value, pointer, "whole-body options",
                           {"modes", "balance", "balance_enabled", "max_periods_per_frame"});
  WholeBodyOptions options;
  if (j.has("modes")) options.modes = decodeJson(j.at("modes"), j.pointer("modes"), JsonTag<SupportModeOptions>{});
  if (j.has("balance")) options.balance = decodeJson(j.at("balance"), j.pointer("balance"), JsonTag<BalanceOptions>{});
  j.read("balance_enabled", options.balance_enabled);
  j.read("max_periods_per_frame", options.max_periods_per_frame, 1);
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

/// The whole-body options of an object that also holds a mapper's options under `mapper_key`
/// (the front ends' configurations, app/whole_body_json.hpp): its keys but that one.
inline WholeBodyOptions decodeWholeBodyOptionsBeside(const nlohmann::json& value, const std::string& pointer,
                                                     const char* mapper_key) {
  jsonExpect(value.is_object(), value, pointer, "a JSON object of whole-body options");
  nlohmann::json stage = value;
  stage.erase(mapper_key);
  return decodeJson(stage, pointer, JsonTag<WholeBodyOptions>{});
}

}  // namespace internal
}  // namespace retarget
