#pragma once

/// @file
/// URDF reader: turns a URDF robot description into a `RobotModel`.
///
/// Optional part of retarget: needs tinyxml2 (CMake target `retarget::urdf`) and is never
/// included by the umbrella header retarget/retarget.hpp.
///
/// What is read:
/// - `<robot name>`; every `<link>` with its `<inertial>` (`<mass value>`, `<origin xyz>` =
///   centre of mass; the inertia tensor is not used) and every `<collision>` primitive;
/// - every `<joint>`: type revolute, continuous, prismatic or fixed; `<parent link>`,
///   `<child link>`, `<origin xyz rpy>` (default 0; rpy is fixed-axis roll, pitch, yaw:
///   R = Rz(yaw) Ry(pitch) Rx(roll)), `<axis xyz>` (default 1 0 0, normalised),
///   `<limit lower upper velocity effort>` (required for revolute and prismatic joints;
///   lower/upper default 0, missing velocity/effort mean unbounded; ignored position limits
///   on continuous joints), `<mimic joint multiplier offset>` (defaults 1 and 0).
/// - Collision primitives become capsules in the link frame (see
///   internal::collisionFromPrimitive): sphere exactly; `<capsule radius length>` exactly;
///   `<cylinder radius length>` as the capsule on its axis with the same radius (it contains
///   the cylinder); `<box size>` as its bounding capsule along the longest edge. Meshes are
///   skipped (mesh files are never opened, so missing files are fine). An unnamed shape is
///   named "<link>_collision<k>", k counting the link's `<collision>` elements from 0.
/// - Everything else (`<visual>`, `<material>`, `<gazebo>`, `<transmission>`, `<dynamics>`,
///   `<safety_controller>`, `<calibration>`) is ignored.
///
/// Configuration layout: one coordinate per moving, non-mimic joint, in document order.
///
/// Policy for position limits with lower > upper (the InMoov URDF in ../shared/data has four
/// such joints): the file still loads, the two values are swapped, and a warning naming the
/// file, line, joint and values is added to `UrdfResult::warnings`. Rationale: the intent
/// (a range between the two numbers) is clear, refusing the file would make a widely used
/// description unusable, and the warning keeps the problem visible.
///
/// Everything else that is wrong throws `retarget::ParseError` naming the file, the line
/// (tinyxml2 line numbers), the element and the offending value: malformed XML, no `<robot>`
/// element, missing names, repeated link or joint names, unknown joint type, floating or
/// planar joints (not supported: a free base is `RobotData::X_WB`), a joint whose parent or
/// child link does not exist, a link with two parent joints, a cycle, several root links, a
/// number that does not parse or a vector with the wrong count, a revolute or prismatic joint
/// without `<limit>`, non-finite limits, a negative velocity limit, a zero axis, a mimic of
/// an unknown / fixed / mimic joint, a negative mass, a non-positive primitive size, a
/// geometry element with no known shape.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <tinyxml2.h>

#include <retarget/core/error.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/internal/robot_table.hpp>

namespace retarget {

/// A robot read from URDF, and the non-fatal problems found while reading it.
template <typename Scalar = double>
struct UrdfResult {
  RobotModel<Scalar> model;
  /// One human-readable line per problem that was repaired, e.g.
  /// "inmoov.urdf:312: joint 'head_tilt': lower limit 0.3 above upper limit -0.3; swapped".
  std::vector<std::string> warnings;
};

namespace internal {

/// State of one URDF parse: the name used in messages and the collected warnings.
class UrdfReader {
 public:
  explicit UrdfReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const tinyxml2::XMLElement* element, const std::string& what) const {
    throw ParseError(file_, element != nullptr ? static_cast<std::size_t>(element->GetLineNum()) : 0, what);
  }

  void warn(const tinyxml2::XMLElement* element, const std::string& what) {
    std::ostringstream out;
    out << file_ << ":" << element->GetLineNum() << ": " << what;
    warnings.push_back(out.str());
  }

  /// Description of an element for messages: "<joint name='HeadYaw'>" or "<origin>".
  static std::string describe(const tinyxml2::XMLElement* element) {
    std::string text = "<";
    text += element->Name();
    if (const char* name = element->Attribute("name")) {
      text += " name='";
      text += name;
      text += "'";
    }
    return text + ">";
  }

  /// A required attribute.
  const char* required(const tinyxml2::XMLElement* element, const char* attribute,
                       const std::string& context) const {
    const char* value = element->Attribute(attribute);
    if (value == nullptr || *value == '\0') {
      fail(element, context + describe(element) + " needs a non-empty '" + attribute + "' attribute");
    }
    return value;
  }

  /// `count` numbers separated by white space from attribute `attribute`, or `fallback`
  /// when the attribute is absent.
  std::vector<double> numbers(const tinyxml2::XMLElement* element, const char* attribute, std::size_t count,
                              const std::vector<double>& fallback, const std::string& context) const {
    const char* text = element->Attribute(attribute);
    if (text == nullptr) return fallback;
    std::vector<double> values;
    for (const std::string_view token : internal::splitWhitespace(text)) {
      double value = 0;
      if (!parseFinite(token, value)) {
        fail(element, context + describe(element) + " attribute " + attribute + "=\"" + text + "\": '" +
                          std::string(token) + "' is not a finite number");
      }
      values.push_back(value);
    }
    if (values.size() != count) {
      fail(element, context + describe(element) + " attribute " + attribute + "=\"" + text + "\" has " +
                        std::to_string(values.size()) + " numbers, expected " + std::to_string(count));
    }
    return values;
  }

  double number(const tinyxml2::XMLElement* element, const char* attribute, double fallback,
                const std::string& context) const {
    return numbers(element, attribute, 1, {fallback}, context)[0];
  }

  /// Pose of an optional <origin> child (identity when absent).
  template <typename Scalar>
  Isometry3<Scalar> origin(const tinyxml2::XMLElement* parent, const std::string& context) const {
    const tinyxml2::XMLElement* element = parent->FirstChildElement("origin");
    if (element == nullptr) return Isometry3<Scalar>::Identity();
    const auto xyz = numbers(element, "xyz", 3, {0, 0, 0}, context);
    const auto rpy = numbers(element, "rpy", 3, {0, 0, 0}, context);
    const double xyz_a[3] = {xyz[0], xyz[1], xyz[2]};
    const double rpy_a[3] = {rpy[0], rpy[1], rpy[2]};
    return poseFromXyzRpy<Scalar>(xyz_a, rpy_a);
  }

  std::vector<std::string> warnings;

 private:
  std::string file_;
};

}  // namespace internal

/// Reads a URDF robot description from `text`; `name_for_errors` names it in messages (a file
/// name, or "<string>"). Lengths in m, angles in rad, masses in kg, as URDF. Throws
/// ParseError (see the file comment for the full list); lower > upper limits are swapped
/// with a warning.
template <typename Scalar = double>
UrdfResult<Scalar> parseUrdf(const std::string& text, const std::string& name_for_errors = "<string>") {
  using tinyxml2::XMLElement;
  internal::UrdfReader reader(name_for_errors);
  tinyxml2::XMLDocument document;
  if (document.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
    const char* detail = document.ErrorStr();
    throw ParseError(name_for_errors, static_cast<std::size_t>(std::max(0, document.ErrorLineNum())),
                     std::string("malformed XML (") + (detail != nullptr ? detail : "unknown error") + ")");
  }
  const XMLElement* robot = document.FirstChildElement("robot");
  if (robot == nullptr) {
    const XMLElement* root = document.RootElement();
    reader.fail(root, std::string("expected a <robot> root element, got ") +
                          (root != nullptr ? "<" + std::string(root->Name()) + ">" : "an empty document"));
  }
  const std::string robot_name = reader.required(robot, "name", "");
  RobotModelBuilder<Scalar> builder(robot_name);

  // Links.
  std::unordered_map<std::string, const XMLElement*> links;
  for (const XMLElement* link = robot->FirstChildElement("link"); link != nullptr;
       link = link->NextSiblingElement("link")) {
    const std::string name = reader.required(link, "name", "");
    if (!links.emplace(name, link).second) {
      reader.fail(link, "link name '" + name + "' is used twice (first on line " +
                            std::to_string(links.at(name)->GetLineNum()) + ")");
    }
    const std::string context = "link '" + name + "': ";
    LinkSpec<Scalar> spec;
    spec.name = name;
    if (const XMLElement* inertial = link->FirstChildElement("inertial")) {
      if (const XMLElement* mass = inertial->FirstChildElement("mass")) {
        const double value = reader.number(mass, "value", 0.0, context);
        if (mass->Attribute("value") == nullptr) reader.fail(mass, context + "<mass> needs a 'value' attribute");
        if (value < 0) {
          reader.fail(mass, context + "<mass value=\"" + mass->Attribute("value") + "\"> is negative, expected >= 0 kg");
        }
        spec.inertial.mass = static_cast<Scalar>(value);
      }
      spec.inertial.p_LCm = reader.origin<Scalar>(inertial, context).translation();
    }
    int k = 0;
    for (const XMLElement* collision = link->FirstChildElement("collision"); collision != nullptr;
         collision = collision->NextSiblingElement("collision"), ++k) {
      const XMLElement* geometry = collision->FirstChildElement("geometry");
      if (geometry == nullptr) reader.fail(collision, context + "<collision> has no <geometry>");
      const XMLElement* shape = geometry->FirstChildElement();
      if (shape == nullptr) reader.fail(geometry, context + "<geometry> is empty, expected one of sphere, cylinder, capsule, box, mesh");
      const std::string kind = shape->Name();
      if (kind == "mesh") continue;
      double size[3] = {0, 0, 0};
      internal::UrdfPrimitive primitive{};
      if (kind == "sphere") {
        primitive = internal::UrdfPrimitive::kSphere;
        size[0] = reader.number(shape, "radius", std::numeric_limits<double>::quiet_NaN(), context);
      } else if (kind == "cylinder" || kind == "capsule") {
        primitive = kind == "cylinder" ? internal::UrdfPrimitive::kCylinder : internal::UrdfPrimitive::kCapsule;
        size[0] = reader.number(shape, "radius", std::numeric_limits<double>::quiet_NaN(), context);
        size[1] = reader.number(shape, "length", std::numeric_limits<double>::quiet_NaN(), context);
      } else if (kind == "box") {
        primitive = internal::UrdfPrimitive::kBox;
        const auto edges = reader.numbers(shape, "size", 3, {std::numeric_limits<double>::quiet_NaN(), 0, 0}, context);
        for (int i = 0; i < 3; ++i) size[i] = edges[static_cast<std::size_t>(i)];
      } else {
        reader.fail(shape, context + "unknown geometry <" + kind + ">, expected sphere, cylinder, capsule, box or mesh");
      }
      const int used = kind == "sphere" ? 1 : (kind == "box" ? 3 : 2);
      for (int i = 0; i < used; ++i) {
        if (!(size[i] > 0)) {
          reader.fail(shape, context + "<" + kind + "> needs positive dimensions (radius, length or size), got " +
                                 (std::isnan(size[i]) ? std::string("a missing attribute") : std::to_string(size[i])));
        }
      }
      const char* shape_name = collision->Attribute("name");
      const std::string label = shape_name != nullptr && *shape_name != '\0' ? std::string(shape_name)
                                                                             : name + "_collision" + std::to_string(k);
      spec.collisions.push_back(internal::collisionFromPrimitive<Scalar>(label, primitive, size,
                                                                         reader.origin<Scalar>(collision, context)));
    }
    builder.addLink(std::move(spec));
  }
  if (links.empty()) reader.fail(robot, "robot '" + robot_name + "' has no <link>");

  // Joints.
  struct JointInfo {
    const XMLElement* element;
    std::string parent, child, mimic;
    bool moves;
  };
  std::unordered_map<std::string, JointInfo> joints;
  std::unordered_map<std::string, std::string> parent_joint_of;  // child link -> joint
  std::vector<std::string> configuration_order;
  for (const XMLElement* joint = robot->FirstChildElement("joint"); joint != nullptr;
       joint = joint->NextSiblingElement("joint")) {
    const std::string name = reader.required(joint, "name", "");
    const std::string context = "joint '" + name + "': ";
    if (joints.count(name) != 0) {
      reader.fail(joint, "joint name '" + name + "' is used twice (first on line " +
                             std::to_string(joints.at(name).element->GetLineNum()) + ")");
    }
    const std::string type = reader.required(joint, "type", context);
    JointSpec<Scalar> spec;
    spec.name = name;
    if (type == "revolute") {
      spec.type = JointType::kRevolute;
    } else if (type == "continuous") {
      spec.type = JointType::kContinuous;
    } else if (type == "prismatic") {
      spec.type = JointType::kPrismatic;
    } else if (type == "fixed") {
      spec.type = JointType::kFixed;
    } else if (type == "floating" || type == "planar") {
      reader.fail(joint, context + "type '" + type +
                             "' is not supported (expected revolute, continuous, prismatic or fixed; "
                             "a free-floating base is RobotData::X_WB)");
    } else {
      reader.fail(joint, context + "unknown joint type '" + type +
                             "' (expected revolute, continuous, prismatic or fixed)");
    }
    for (const char* which : {"parent", "child"}) {
      const XMLElement* element = joint->FirstChildElement(which);
      if (element == nullptr) reader.fail(joint, context + "missing <" + which + " link=\"...\"/>");
      const std::string link = reader.required(element, "link", context);
      if (links.count(link) == 0) {
        reader.fail(element, context + "<" + which + " link=\"" + link + "\"> names a link that does not exist");
      }
      (std::string(which) == "parent" ? spec.parent_link : spec.child_link) = link;
    }
    if (spec.parent_link == spec.child_link) {
      reader.fail(joint, context + "parent and child are the same link '" + spec.parent_link + "'");
    }
    const auto [previous, inserted] = parent_joint_of.emplace(spec.child_link, name);
    if (!inserted) {
      reader.fail(joint, context + "link '" + spec.child_link + "' already has parent joint '" + previous->second +
                             "' (line " + std::to_string(joints.at(previous->second).element->GetLineNum()) +
                             "); a link can have only one parent");
    }
    spec.X_PJ = reader.origin<Scalar>(joint, context);
    if (spec.type != JointType::kFixed) {
      const XMLElement* axis = joint->FirstChildElement("axis");
      const auto xyz = axis != nullptr ? reader.numbers(axis, "xyz", 3, {1, 0, 0}, context)
                                       : std::vector<double>{1, 0, 0};
      const double norm = std::sqrt(xyz[0] * xyz[0] + xyz[1] * xyz[1] + xyz[2] * xyz[2]);
      if (!(norm > 1e-12)) reader.fail(axis, context + "<axis xyz=\"" + axis->Attribute("xyz") + "\"> is zero");
      spec.axis = Vector3<Scalar>(static_cast<Scalar>(xyz[0]), static_cast<Scalar>(xyz[1]), static_cast<Scalar>(xyz[2]));
    }
    const XMLElement* limit = joint->FirstChildElement("limit");
    const bool bounded = spec.type == JointType::kRevolute || spec.type == JointType::kPrismatic;
    if (limit != nullptr) {
      const double inf = std::numeric_limits<double>::infinity();
      double lower = reader.number(limit, "lower", 0.0, context);
      double upper = reader.number(limit, "upper", 0.0, context);
      const double velocity = reader.number(limit, "velocity", inf, context);
      const double effort = reader.number(limit, "effort", inf, context);
      if (limit->Attribute("velocity") != nullptr && velocity < 0) {
        reader.fail(limit, context + "<limit velocity=\"" + limit->Attribute("velocity") + "\"> is negative, expected >= 0");
      }
      if (bounded && lower > upper) {
        std::ostringstream out;
        out << "joint '" << name << "': lower limit " << limit->Attribute("lower") << " above upper limit "
            << limit->Attribute("upper") << "; swapped";
        reader.warn(limit, out.str());
        std::swap(lower, upper);
      }
      if (bounded) {
        spec.limits.lower = static_cast<Scalar>(lower);
        spec.limits.upper = static_cast<Scalar>(upper);
      }
      spec.limits.velocity = static_cast<Scalar>(velocity);
      spec.limits.effort = static_cast<Scalar>(effort);
    } else if (bounded) {
      reader.fail(joint, context + type + " joint has no <limit lower=... upper=...> (required by URDF)");
    }
    std::string mimic_driver;
    if (const XMLElement* mimic = joint->FirstChildElement("mimic")) {
      mimic_driver = reader.required(mimic, "joint", context);
      if (spec.type == JointType::kFixed) reader.fail(mimic, context + "a fixed joint cannot have <mimic>");
      spec.mimic = MimicSpec{mimic_driver, reader.number(mimic, "multiplier", 1.0, context),
                             reader.number(mimic, "offset", 0.0, context)};
    }
    const bool moves = spec.type != JointType::kFixed;
    if (moves && mimic_driver.empty()) configuration_order.push_back(name);
    joints.emplace(name, JointInfo{joint, spec.parent_link, spec.child_link, mimic_driver, moves});
    builder.addJoint(std::move(spec));
  }

  // Mimic drivers must be moving, independent joints.
  for (const auto& [name, info] : joints) {
    if (info.mimic.empty()) continue;
    const XMLElement* mimic = info.element->FirstChildElement("mimic");
    const auto driver = joints.find(info.mimic);
    if (driver == joints.end()) {
      reader.fail(mimic, "joint '" + name + "': <mimic joint=\"" + info.mimic + "\"> names a joint that does not exist");
    }
    if (!driver->second.moves || !driver->second.mimic.empty()) {
      reader.fail(mimic, "joint '" + name + "': <mimic joint=\"" + info.mimic +
                             "\"> names a fixed or mimic joint, expected an independent moving joint");
    }
  }

  // Tree shape: no cycle, exactly one root.
  for (const auto& [link, element] : links) {
    std::unordered_set<std::string> seen{link};
    std::string current = link;
    for (auto it = parent_joint_of.find(current); it != parent_joint_of.end(); it = parent_joint_of.find(current)) {
      current = joints.at(it->second).parent;
      if (!seen.insert(current).second) {
        reader.fail(joints.at(it->second).element, "joint '" + it->second + "' closes a cycle through link '" +
                                                       current + "'; a URDF must be a tree");
      }
    }
  }
  std::vector<const XMLElement*> roots;
  for (const XMLElement* link = robot->FirstChildElement("link"); link != nullptr;
       link = link->NextSiblingElement("link")) {
    if (parent_joint_of.count(link->Attribute("name")) == 0) roots.push_back(link);
  }
  if (roots.size() > 1) {
    reader.fail(roots[1], std::string("link '") + roots[1]->Attribute("name") +
                              "' is not connected to the tree of root link '" + roots[0]->Attribute("name") +
                              "' (expected exactly one root link)");
  }

  builder.setConfigurationOrder(std::move(configuration_order));
  UrdfResult<Scalar> result;
  try {
    result.model = builder.build();
  } catch (const InvalidArgument& error) {
    // Everything the builder checks is checked above; this keeps the file name if not.
    throw ParseError(name_for_errors, 0, error.what());
  }
  result.warnings = std::move(reader.warnings);
  return result;
}

/// Reads the URDF file at `path` (see parseUrdf). Throws ParseError (line 0) when the file
/// cannot be opened.
template <typename Scalar = double>
UrdfResult<Scalar> loadUrdf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path.string(), 0, "cannot open URDF file");
  std::ostringstream text;
  text << in.rdbuf();
  return parseUrdf<Scalar>(text.str(), path.string());
}

}  // namespace retarget
