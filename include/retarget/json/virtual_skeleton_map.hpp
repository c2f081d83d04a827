#pragma once

/// @file
/// JSON form of a robot's `VirtualSkeletonMap` (robots/virtual_skeleton_map.hpp) and of a
/// `JointCoupling` (nlohmann-json; CMake target retarget::json; never included by
/// retarget/retarget.hpp). Use the API of conversion.hpp: `toJson`, `fromJson<T>`, `parseJson<T>`,
/// `loadJson<T>`, `saveJson`.
///
/// Format (every key optional; defaults are those of a default-constructed map; lengths in m):
/// ```
/// { "robot": "NAO H25",
///   "points": [
///     { "joint": "ShoulderLeft", "link": "torso", "v_L": [0, 0.098, 0.1] },
///     { "joint": "ElbowLeft", "from": "ShoulderLeft", "link": "LBicep", "v_L": [0.105, 0, 0] } ],
///   "head_yaw": { "joint": "HeadYaw", "sign": 1, "offset": 0 },
///   "head_pitch": { "joint": "HeadPitch", "sign": 1, "offset": 0 },
///   "hand_left": { "joint": "LHand", "sign": 1, "offset": 0 },
///   "hand_right": { "joint": "RHand", "sign": 1, "offset": 0 } }
/// ```
/// Point joints ("joint", "from") are the canonical skeleton's names (kHumanJointNames); "from"
/// absent = a point fixed on the link. A coupling whose "joint" is "" (or absent) couples nothing.
/// Checks made without a robot model: a coupling's sign is +-1, offsets and vectors are finite, a
/// point is defined once and after its "from" point. Names are checked against the robot when
/// the map is used (`resolveVirtualSkeleton`, `resolveJointCoupling`).

#include <array>
#include <optional>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include <retarget/human/skeleton.hpp>
#include <retarget/json/conversion.hpp>
#include <retarget/json/internal/reader.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>

namespace retarget {

/// JSON form of a joint coupling (also GA-LVVJ's joint binding).
inline nlohmann::ordered_json toJson(const JointCoupling& coupling) {
  nlohmann::ordered_json j;
  j["joint"] = coupling.joint;
  j["sign"] = coupling.sign;
  j["offset"] = coupling.offset;
  return j;
}

/// JSON form of one virtual skeleton point ("from" only when set).
inline nlohmann::ordered_json toJson(const VirtualPointSpec& point) {
  nlohmann::ordered_json j;
  j["joint"] = std::string(name(point.joint));
  if (point.from) j["from"] = std::string(name(*point.from));
  j["link"] = point.link;
  j["v_L"] = internal::vector3ToJson(point.v_L);
  return j;
}

/// JSON form of a virtual skeleton map (every field).
inline nlohmann::ordered_json toJson(const VirtualSkeletonMap& map) {
  nlohmann::ordered_json j;
  j["robot"] = map.robot;
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const VirtualPointSpec& p : map.points) points.push_back(toJson(p));
  j["points"] = std::move(points);
  j["head_yaw"] = toJson(map.head_yaw);
  j["head_pitch"] = toJson(map.head_pitch);
  j["hand_left"] = toJson(map.hand_left);
  j["hand_right"] = toJson(map.hand_right);
  return j;
}

namespace internal {

inline HumanJoint decodeHumanJoint(const nlohmann::json& value, const std::string& pointer) {
  const std::string expected = "a canonical skeleton joint name (SpineBase, SpineMid, Neck, Head, ShoulderLeft, ...)";
  const std::string text = readJsonString(value, pointer, expected);
  const std::optional<HumanJoint> joint = humanJointFromName(text);
  if (!joint) jsonFail(pointer, "got '" + text + "', expected " + expected);
  return *joint;
}

inline JointCoupling decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<JointCoupling>) {
  const JsonObjectReader j(value, pointer, "a joint coupling", {"joint", "sign", "offset"});
  JointCoupling b;
  j.read("joint", b.joint);
  j.read("sign", b.sign, "1 or -1");
  j.read("offset", b.offset, "a finite number (rad)");
  if (!b.joint.empty()) jsonExpect(b.sign == 1.0 || b.sign == -1.0, j.at("sign"), j.pointer("sign"), "1 or -1");
  return b;
}

inline VirtualPointSpec decodeJson(const nlohmann::json& value, const std::string& pointer, JsonTag<VirtualPointSpec>) {
  const JsonObjectReader j(value, pointer, "a virtual skeleton point", {"joint", "from", "link", "v_L"});
  j.require("joint");
  j.require("link");
  VirtualPointSpec p;
  p.joint = decodeHumanJoint(j.at("joint"), j.pointer("joint"));
  if (j.has("from")) p.from = decodeHumanJoint(j.at("from"), j.pointer("from"));
  j.read("link", p.link);
  j.read("v_L", p.v_L);
  return p;
}

inline VirtualSkeletonMap decodeJson(const nlohmann::json& value, const std::string& pointer,
                                     JsonTag<VirtualSkeletonMap>) {
  const JsonObjectReader j(value, pointer, "a virtual skeleton map",
                           {"robot", "points", "head_yaw", "head_pitch", "hand_left", "hand_right"});
  VirtualSkeletonMap map;
  j.read("robot", map.robot);
  if (j.has("points")) {
    const nlohmann::json& points = j.at("points");
    jsonExpect(points.is_array(), points, j.pointer("points"), "an array of virtual skeleton points");
    std::array<bool, kHumanJointCount> defined{};
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::string at = jsonPointer(j.pointer("points"), i);
      VirtualPointSpec p = decodeJson(points[i], at, JsonTag<VirtualPointSpec>{});
      auto& is_defined = defined[static_cast<std::size_t>(index(p.joint))];
      if (is_defined) {
        jsonFail(jsonPointer(at, "joint"),
                 "got '" + std::string(name(p.joint)) + "', expected a joint not defined earlier in the list");
      }
      if (p.from && !defined[static_cast<std::size_t>(index(*p.from))]) {
        jsonFail(jsonPointer(at, "from"),
                 "got '" + std::string(name(*p.from)) + "', expected a point defined earlier in the list");
      }
      is_defined = true;
      map.points.push_back(std::move(p));
    }
  }
  for (const auto& [key, coupling] :
       {std::pair{"head_yaw", &map.head_yaw}, std::pair{"head_pitch", &map.head_pitch},
        std::pair{"hand_left", &map.hand_left}, std::pair{"hand_right", &map.hand_right}}) {
    if (j.has(key)) *coupling = decodeJson(j.at(key), j.pointer(key), JsonTag<JointCoupling>{});
  }
  return map;
}

}  // namespace internal
}  // namespace retarget
