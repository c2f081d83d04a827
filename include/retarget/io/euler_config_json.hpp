#pragma once

/// @file
/// JSON form of `EulerMapperConfig` (nlohmann-json; CMake target retarget::json). Never
/// included by the Eigen-only headers.
///
/// Format (units: rad, rad/s; axes in the BVH joint frames):
/// ```
/// { "name": "inmoov/axis-neuron", "skeleton": "axis-neuron",
///   "joints": [
///     { "robot_joint": "left_shoulder_side", "case": "euler", "source": "LeftArm",
///       "order": "ZXY", "angle": 0, "reference": [0, 0, -1.5708] },
///     { "robot_joint": "left_bicep", "case": "elbow_bend", "source": "LeftForeArm",
///       "sign": -1, "offset": 3.14159, "upper": 2.0, "max_speed": 6 },
///     { "robot_joint": "left_hand", "case": "wrist_rotation", "source": "LeftHand", "axis": [0, 0, 1] },
///     { "robot_joint": "left_index", "case": "finger_curl",
///       "source": ["LeftHandIndex1", "LeftHandIndex2", "LeftHandIndex3"], "scale": 1.2 } ] }
/// ```
/// "case" is one of "euler", "elbow_bend", "wrist_rotation", "wrist_twist", "finger_curl"
/// (see EulerCase). Required per joint: "robot_joint", "source" (a BVH joint name or an array
/// of names).
/// Optional, with defaults: "case" ("euler"), "order" ("ZYX"), "angle" (0),
/// "axis" ([0, 0, 0] = derive from the BVH bone offsets), "reference" ([0, 0, 0], rotation
/// vector of the pose where the robot joint is at "offset"), "sign" (1), "scale" (1),
/// "offset" (0), "lower"/"upper" (robot limits), "max_speed" (0 = unlimited). Unknown keys
/// are errors (they are usually typos).

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>
#include <retarget/mappers/euler_mapper_config.hpp>

namespace retarget {

namespace internal {

inline std::size_t lineOfByte(const std::string& text, std::size_t byte) {
  std::size_t line = 1;
  for (std::size_t i = 0; i < byte && i < text.size(); ++i) line += text[i] == '\n' ? 1 : 0;
  return line;
}

// Reads one field; throws ParseError naming the file and JSON pointer.
template <typename T>
T jsonField(const nlohmann::json& object, const char* key, const std::string& pointer, const std::string& file,
            const char* expected) {
  const nlohmann::json& value = object.at(key);
  try {
    return value.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw ParseError(file, 0, "at " + pointer + "/" + key + ": got " + value.dump() + ", expected " + expected);
  }
}

}  // namespace internal

/// Converts a configuration to its JSON form (every field written, so the dump documents the
/// defaults too; keys in the documented order).
inline nlohmann::ordered_json toJson(const EulerMapperConfig& config) {
  nlohmann::ordered_json joints = nlohmann::ordered_json::array();
  for (const EulerJointMapping& m : config.joints) {
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
    j["axis"] = nlohmann::ordered_json::array({m.axis.x(), m.axis.y(), m.axis.z()});
    j["reference"] = nlohmann::ordered_json::array({m.reference.x(), m.reference.y(), m.reference.z()});
    j["sign"] = m.sign;
    j["scale"] = m.scale;
    j["offset"] = m.offset;
    if (m.lower) j["lower"] = *m.lower;
    if (m.upper) j["upper"] = *m.upper;
    j["max_speed"] = m.max_speed;
    joints.push_back(std::move(j));
  }
  nlohmann::ordered_json root;
  root["name"] = config.name;
  root["skeleton"] = config.skeleton;
  root["joints"] = std::move(joints);
  return root;
}

/// Builds a configuration from its JSON value and validates it. `file` names the source in
/// errors. Throws ParseError naming the file and the JSON pointer of the bad field (wrong
/// type, unknown key, missing key, bad case or order name, or a value rejected by
/// EulerMapperConfig::validate).
inline EulerMapperConfig eulerConfigFromJson(const nlohmann::json& root, const std::string& file = "<json>") {
  using nlohmann::json;
  using internal::jsonField;
  if (!root.is_object()) throw ParseError(file, 0, "at /: expected a JSON object with \"joints\"");
  EulerMapperConfig config;
  for (const auto& [key, value] : root.items()) {
    if (key != "name" && key != "skeleton" && key != "joints") {
      throw ParseError(file, 0, "at /" + key + ": unknown key (expected name, skeleton, joints)");
    }
  }
  if (root.contains("name")) config.name = jsonField<std::string>(root, "name", "", file, "a string");
  if (root.contains("skeleton")) config.skeleton = jsonField<std::string>(root, "skeleton", "", file, "a string");
  if (!root.contains("joints") || !root.at("joints").is_array()) {
    throw ParseError(file, 0, "at /joints: expected an array of joint mappings");
  }
  const json& joints = root.at("joints");
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const std::string pointer = "/joints/" + std::to_string(i);
    const json& j = joints[i];
    if (!j.is_object()) throw ParseError(file, 0, "at " + pointer + ": expected an object");
    static const char* const kKeys[] = {"robot_joint", "case",  "source", "order", "angle", "axis", "reference",
                                        "sign",        "scale", "offset", "lower", "upper", "max_speed"};
    for (const auto& [key, value] : j.items()) {
      bool known = false;
      for (const char* k : kKeys) known = known || key == k;
      if (!known) {
        throw ParseError(file, 0, "at " + pointer + "/" + key +
                                      ": unknown key (expected robot_joint, case, source, order, angle, axis, "
                                      "reference, sign, scale, offset, lower, upper, max_speed)");
      }
    }
    for (const char* required : {"robot_joint", "source"}) {
      if (!j.contains(required)) throw ParseError(file, 0, "at " + pointer + ": missing key \"" + required + "\"");
    }
    EulerJointMapping m;
    m.robot_joint = jsonField<std::string>(j, "robot_joint", pointer, file, "a string");
    try {
      if (j.contains("case")) m.kind = parseEulerCase(jsonField<std::string>(j, "case", pointer, file, "a string"));
      if (j.contains("order")) m.order = parseEulerOrder(jsonField<std::string>(j, "order", pointer, file, "a string"));
    } catch (const InvalidArgument& error) {
      std::string what = error.what();
      const std::size_t colon = what.find(": ");
      if (what.compare(0, 11, "[retarget] ") == 0 && colon != std::string::npos) what.erase(0, colon + 2);
      throw ParseError(file, 0, "at " + pointer + ": " + what);
    }
    if (j.at("source").is_string()) {
      m.source = {j.at("source").get<std::string>()};
    } else {
      m.source = jsonField<std::vector<std::string>>(j, "source", pointer, file, "a string or an array of strings");
    }
    if (j.contains("angle")) m.angle = jsonField<int>(j, "angle", pointer, file, "an integer 0, 1 or 2");
    for (const char* key : {"axis", "reference"}) {
      if (!j.contains(key)) continue;
      const auto v = jsonField<std::vector<double>>(j, key, pointer, file, "an array of 3 numbers");
      if (v.size() != 3) {
        throw ParseError(file, 0, "at " + pointer + "/" + key + ": got " + std::to_string(v.size()) +
                                      " numbers, expected 3");
      }
      (std::string(key) == "axis" ? m.axis : m.reference) = Eigen::Vector3d(v[0], v[1], v[2]);
    }
    if (j.contains("sign")) m.sign = jsonField<double>(j, "sign", pointer, file, "1 or -1");
    if (j.contains("scale")) m.scale = jsonField<double>(j, "scale", pointer, file, "a number > 0");
    if (j.contains("offset")) m.offset = jsonField<double>(j, "offset", pointer, file, "a number (rad)");
    if (j.contains("lower")) m.lower = jsonField<double>(j, "lower", pointer, file, "a number (rad)");
    if (j.contains("upper")) m.upper = jsonField<double>(j, "upper", pointer, file, "a number (rad)");
    if (j.contains("max_speed")) m.max_speed = jsonField<double>(j, "max_speed", pointer, file, "a number >= 0 (rad/s)");
    config.joints.push_back(std::move(m));
  }
  try {
    config.validate();
  } catch (const InvalidArgument& error) {
    // Drop the "[retarget] validate: " prefix; ParseError adds the file name.
    std::string what = error.what();
    const std::string prefix = "[retarget] validate: ";
    if (what.compare(0, prefix.size(), prefix) == 0) what.erase(0, prefix.size());
    throw ParseError(file, 0, what);
  }
  return config;
}

/// Same as above for the ordered JSON value returned by toJson().
inline EulerMapperConfig eulerConfigFromJson(const nlohmann::ordered_json& root, const std::string& file = "<json>") {
  return eulerConfigFromJson(nlohmann::json::parse(root.dump()), file);
}

/// Parses the JSON text of a configuration. `file` names it in errors; syntax errors report
/// the line. Throws ParseError (see eulerConfigFromJson).
inline EulerMapperConfig parseEulerConfig(const std::string& text, const std::string& file = "<string>") {
  nlohmann::json root;
  try {
    root = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& error) {
    throw ParseError(file, internal::lineOfByte(text, error.byte == 0 ? 0 : error.byte - 1),
                     std::string("invalid JSON (") + error.what() + ")");
  }
  return eulerConfigFromJson(root, file);
}

/// Reads a configuration file. Throws ParseError naming the file (unreadable, bad JSON with
/// its line, or a bad field with its JSON pointer).
inline EulerMapperConfig loadEulerConfig(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot open the Euler mapper configuration file");
  std::ostringstream text;
  text << in.rdbuf();
  return parseEulerConfig(text.str(), path);
}

/// Writes `config` as indented JSON. Throws Error when the file cannot be written.
inline void saveEulerConfig(const EulerMapperConfig& config, const std::string& path) {
  std::ofstream out(path, std::ios::binary);
  RETARGET_THROW_UNLESS(static_cast<bool>(out), Error, "cannot write Euler mapper configuration (got path '", path,
                        "', expected a writable file)");
  out << toJson(config).dump(2) << "\n";
}

}  // namespace retarget
