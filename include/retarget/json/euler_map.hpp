#pragma once

/// @file
/// JSON form of the Euler/BVH mapper's data (`EulerMap`, `EulerJointMapping`, `EulerCase`,
/// `EulerOrder`) and of `EulerOptions` (nlohmann-json; CMake target retarget::json; never
/// included by retarget/retarget.hpp). Use the API of conversion.hpp: `toJson`,
/// `fromJson<EulerMap>`, `parseJson<EulerMap>`, `loadJson<EulerMap>`, `saveJson`.
///
/// EulerMap format (units: rad; axes and rotation vectors in the BVH joint frames):
/// ```
/// { "name": "inmoov/axis-neuron", "skeleton": "axis-neuron",
///   "joints": [
///     { "robot_joint": "left_shoulder_side", "case": "euler", "source": "LeftArm",
///       "order": "ZXY", "angle": 0, "reference": [0, 0, -1.5708] },
///     { "robot_joint": "left_bicep", "case": "elbow_bend", "source": "LeftForeArm",
///       "sign": -1, "offset": 3.14159, "upper": 1.4 },
///     { "robot_joint": "left_hand", "case": "wrist_rotation", "source": "LeftHand", "axis": [0, 0, 1] },
///     { "robot_joint": "left_index", "case": "finger_curl",
///       "source": ["LeftHandIndex1", "LeftHandIndex2", "LeftHandIndex3"], "scale": 1.2 } ] }
/// ```
/// "case" is one of "euler", "elbow_bend", "wrist_rotation", "wrist_twist", "finger_curl"
/// (see EulerCase); "order" is three distinct letters of X, Y, Z (see EulerOrder). Required:
/// "joints" and, per joint, "robot_joint" and "source" (a BVH joint name or an array of names).
/// Optional, with defaults: "name" (""), "skeleton" (""), "case" ("euler"), "order" ("ZYX"),
/// "angle" (0), "axis" ([0, 0, 0] = derive from the BVH bone offsets), "reference"
/// ([0, 0, 0], rotation vector of the pose where the robot joint is at "offset"), "sign" (1),
/// "scale" (1), "offset" (0), "lower" / "upper" (none: the robot's limits). Unknown keys are
/// errors (they are usually typos). "max_speed" is an error: rate limits are not part of a map
/// any more (use `--max-joint-speed` on the command line or a `RateLimiter` after the mapper).
/// `toJson` writes every field in this order ("lower" / "upper" only when set), and one
/// "source" name as a string.
///
/// EulerOptions format: `{"jump_margin": 0.25, "discontinuity_step": 0.35}` (rad, both
/// optional, defaults shown; the continuity rule, see EulerOptions); any other key is an error.

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>
#include <retarget/geometry/euler_angles.hpp>
#include <retarget/json/conversion.hpp>
#include <retarget/json/internal/reader.hpp>
#include <retarget/mappers/euler_map.hpp>
#include <retarget/mappers/euler_mapper.hpp>

namespace retarget {

/// JSON form of a case: its name ("euler", "elbow_bend", ...; see toString(EulerCase)).
inline nlohmann::ordered_json toJson(EulerCase kind) { return toString(kind); }

/// JSON form of an axis order: its three letters, e.g. "ZYX".
inline nlohmann::ordered_json toJson(const EulerOrder& order) { return order.name(); }

/// JSON form of one joint mapping (every field, documented order).
inline nlohmann::ordered_json toJson(const EulerJointMapping& m) {
  nlohmann::ordered_json j;
  j["robot_joint"] = m.robot_joint;
  j["case"] = toString(m.kind);
  if (m.source.size() == 1) {
    j["source"] = m.source.front();
  } else {
    j["source"] = m.source;
  }
  j["order"] = m.order.name();
  j["angle"] = m.angle;
  j["axis"] = internal::vector3ToJson(m.axis);
  j["reference"] = internal::vector3ToJson(m.reference);
  j["sign"] = m.sign;
  j["scale"] = m.scale;
  j["offset"] = m.offset;
  if (m.lower) j["lower"] = *m.lower;
  if (m.upper) j["upper"] = *m.upper;
  return j;
}

/// JSON form of a map (every field written, so the dump documents the defaults too).
inline nlohmann::ordered_json toJson(const EulerMap& map) {
  nlohmann::ordered_json joints = nlohmann::ordered_json::array();
  for (const EulerJointMapping& m : map.joints) joints.push_back(toJson(m));
  nlohmann::ordered_json root;
  root["name"] = map.name;
  root["skeleton"] = map.skeleton;
  root["joints"] = std::move(joints);
  return root;
}

/// JSON form of the Euler mapper options (every field).
inline nlohmann::ordered_json toJson(const EulerOptions& options) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  j["jump_margin"] = options.jump_margin;
  j["discontinuity_step"] = options.discontinuity_step;
  return j;
}

namespace internal {

inline constexpr const char* kEulerMaxSpeedMoved =
    "rate limits moved out of the map (use --max-joint-speed on the command line, or a RateLimiter "
    "(filters/rate_limiter.hpp) after the mapper)";

inline EulerCase decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<EulerCase>) {
  const std::string expected = "one of euler, elbow_bend, wrist_rotation, wrist_twist, finger_curl";
  const std::string text = readJsonString(value, pointer, expected);
  for (EulerCase c : {EulerCase::kEuler, EulerCase::kElbowBend, EulerCase::kWristRotation, EulerCase::kWristTwist,
                      EulerCase::kFingerCurl}) {
    if (text == toString(c)) return c;
  }
  jsonFail(pointer, "got '" + text + "', expected " + expected);
}

inline EulerOrder decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<EulerOrder>) {
  const std::string text = readJsonString(value, pointer, "an axis order such as \"ZYX\"");
  try {
    return parseEulerOrder(text);
  } catch (const Error& error) {
    jsonFail(pointer, withoutRetargetPrefix(error.what()));
  }
}

/// Reads one entry without validating it.
inline EulerJointMapping decodeEulerJointMapping(const nlohmann::json& value, const std::string& pointer) {
  const JsonObjectReader j(value, pointer, "an Euler joint mapping",
                           {"robot_joint", "case", "source", "order", "angle", "axis", "reference", "sign", "scale",
                            "offset", "lower", "upper"},
                           {{"max_speed", kEulerMaxSpeedMoved}});
  j.require("robot_joint");
  j.require("source");
  EulerJointMapping m;
  j.read("robot_joint", m.robot_joint);
  if (j.has("case")) m.kind = decodeJson(j.at("case"), j.pointer("case"), JsonTag<EulerCase>{});
  const nlohmann::json& source = j.at("source");
  if (source.is_string()) {
    m.source = {source.get<std::string>()};
  } else {
    jsonExpect(source.is_array(), source, j.pointer("source"), "a string or an array of strings");
    for (std::size_t i = 0; i < source.size(); ++i) {
      m.source.push_back(readJsonString(source[i], jsonPointer(j.pointer("source"), i)));
    }
  }
  if (j.has("order")) m.order = decodeJson(j.at("order"), j.pointer("order"), JsonTag<EulerOrder>{});
  j.read("angle", m.angle, 0, 2);
  j.read("axis", m.axis);
  j.read("reference", m.reference);
  j.read("sign", m.sign, "1 or -1");
  j.read("scale", m.scale, "a finite number > 0");
  j.read("offset", m.offset, "a finite number (rad)");
  if (j.has("lower")) m.lower = readJsonNumber(j.at("lower"), j.pointer("lower"), "a finite number (rad)");
  if (j.has("upper")) m.upper = readJsonNumber(j.at("upper"), j.pointer("upper"), "a finite number (rad)");
  return m;
}

/// True when `m` alone passes EulerMap::validate.
inline bool eulerEntryValid(const EulerJointMapping& m) {
  EulerMap single;
  single.joints.push_back(m);
  try {
    single.validate();
  } catch (const Error&) {
    return false;
  }
  return true;
}

inline EulerJointMapping decodeJson(const nlohmann::json& value, const std::string& pointer,
                                    JsonTag<EulerJointMapping>) {
  EulerJointMapping m = decodeEulerJointMapping(value, pointer);
  EulerMap single;
  single.joints.push_back(m);
  validateJsonDecoded([&] { single.validate(); }, value, pointer);
  return m;
}

inline EulerMap decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<EulerMap>) {
  const JsonObjectReader root(value, pointer, "an Euler map with \"joints\"", {"name", "skeleton", "joints"});
  EulerMap map;
  root.read("name", map.name);
  root.read("skeleton", map.skeleton);
  root.require("joints");
  const nlohmann::json& joints = root.at("joints");
  jsonExpect(joints.is_array(), joints, root.pointer("joints"), "an array of joint mappings");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const std::string at = jsonPointer(root.pointer("joints"), i);
    EulerJointMapping m = decodeEulerJointMapping(joints[i], at);
    const bool suspicious = !seen.insert(m.robot_joint).second || !eulerEntryValid(m);
    map.joints.push_back(std::move(m));
    // A bad entry: validating the map up to it gives the library's message with its index
    // (linear, and only on the error path).
    if (suspicious) validateJsonDecoded([&] { map.validate(); }, joints[i], at);
  }
  validateJsonDecoded([&] { map.validate(); }, value, pointer);
  return map;
}

inline EulerOptions decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<EulerOptions>) {
  const JsonObjectReader root(value, pointer, "Euler mapper options", {"jump_margin", "discontinuity_step"});
  EulerOptions options;
  root.read("jump_margin", options.jump_margin, "a finite angle >= 0 (rad)");
  root.read("discontinuity_step", options.discontinuity_step, "a finite angle > 0 (rad)");
  validateJsonDecoded([&] { options.validate(); }, value, pointer);
  return options;
}

}  // namespace internal

/// Builds a map from its JSON value and validates it: `fromJson<EulerMap>(root, file)`.
inline EulerMap eulerMapFromJson(const nlohmann::json& root, const std::string& file = "<json>") {
  return fromJson<EulerMap>(root, file);
}

/// Same for the ordered JSON value returned by toJson().
inline EulerMap eulerMapFromJson(const nlohmann::ordered_json& root, const std::string& file = "<json>") {
  return fromJson<EulerMap>(root, file);
}

/// Parses the JSON text of a map: `parseJson<EulerMap>(text, file)`.
inline EulerMap parseEulerMap(const std::string& text, const std::string& file = "<string>") {
  return parseJson<EulerMap>(text, file);
}

/// Reads a map file: `loadJson<EulerMap>(path)`.
inline EulerMap loadEulerMap(const std::string& path) { return loadJson<EulerMap>(path); }

/// Writes a map as indented JSON: `saveJson(map, path)`.
inline void saveEulerMap(const EulerMap& map, const std::string& path) { saveJson(map, path); }

}  // namespace retarget
