#pragma once

/// @file
/// MJCF reader: turns a MuJoCo MJCF model (`<mujoco>`) into a `RobotModel`.
///
/// Optional part of retarget: needs tinyxml2 (CMake target `retarget::urdf`, the tinyxml2 part
/// it shares with the URDF reader) and is never included by the umbrella header
/// retarget/retarget.hpp.
///
/// What is read:
/// - `<mujoco model>` (the robot name; "MuJoCo Model" when absent, as MuJoCo);
/// - `<compiler angle eulerseq autolimits boundmass>`: `angle` defaults to "degree" as in
///   MuJoCo, and applies to `euler`, `axisangle`, hinge `range` and hinge `ref`; `eulerseq`
///   (default "xyz") is three of x, y, z (lower case: axes that move with the frame) or X, Y, Z
///   (upper case: axes fixed in the parent); `autolimits` defaults to true as in MuJoCo >= 3.0;
///   a body's mass below `boundmass` is raised to it. Every other compiler attribute is ignored.
/// - `<default>` classes: the top-level `<default>` is class "main"; nested classes inherit
///   their parent's values; an element takes the values of its `class`, else of the nearest
///   `childclass` of an enclosing `<body>` or `<frame>`, else of "main", and its own attributes
///   override them. A partial `size` overrides only the numbers it gives, as in MuJoCo.
/// - The body tree under `<worldbody>`: `<body name pos>` with one orientation among `quat`
///   (w x y z, normalised), `euler`, `axisangle` (axis normalised), `xyaxes` (y made
///   orthogonal to x) and `zaxis` (the shortest rotation taking z onto it); `<frame>` wrappers,
///   whose pose is composed into the bodies and geoms inside them.
/// - Joints: `<joint type="hinge|slide" name pos axis range limited ref>` (type hinge and axis
///   0 0 1 by default; `limited` "auto" means limited when `range` is not "0 0" if autolimits
///   is on); a limited `actuatorfrcrange` gives the effort limit (its larger magnitude; MJCF has
///   no velocity limit: velocity limits are unbounded). A body's joints move it in the order
///   written; a hinge turns about the line through its `pos` (body frame) along its `axis`.
///   `<freejoint>` / `<joint type="free">` marks the floating base (at most one, on a child of
///   `<worldbody>`).
/// - `<inertial mass pos>` (`pos` = centre of mass in the body frame; `quat`, `diaginertia`,
///   `fullinertia` are read past). A body without `<inertial>` gets mass 0: masses are never
///   derived from geoms (MuJoCo does so; every shared model gives its inertials).
/// - Geoms: sphere, capsule, cylinder and box (MJCF sizes are radii and half lengths) become
///   collision capsules in the body frame as internal::collisionFromPrimitive makes them, with
///   the geom's own `pos` and orientation, or its `fromto` segment for capsules and cylinders.
///   A geom whose `contype` and `conaffinity` are both 0 never collides (a visual geom) and is
///   not a collision shape. An unnamed shape is named "<body>_geom<k>", k counting the body's
///   `<geom>` elements from 0. Mesh geoms are recorded by name in `MjcfResult::mesh_geoms`;
///   mesh files are never opened (a primitive with its own `mesh` attribute, which MuJoCo
///   sizes to fit the mesh, is recorded there too, with a warning). Plane, height-field,
///   ellipsoid and SDF geoms are skipped with a warning.
/// - `<include file>`: the children of the included file's `<mujoco>` element take the place
///   of the `<include>`; the file is looked for beside the main file (loadMjcf) or in the
///   folder given to parseMjcf, and must be a regular file.
/// - Read past: `<option>`, `<size>`, `<visual>`, `<statistic>`, `<asset>`, `<contact>`,
///   `<equality>` (its `<joint>` elements are constraints, not tree joints), `<tendon>`,
///   `<actuator>`, `<sensor>`, `<keyframe>`, `<custom>`, `<extension>`; inside bodies `<site>`,
///   `<camera>`, `<light>`. Geoms of `<worldbody>` itself (floors) are not part of the robot.
///
/// The model: with a floating base, the free body is the root link (its pose in the file's
/// world is `MjcfResult::X_WB`) and top-level bodies outside its subtree are skipped with a
/// warning. Without one, the root link is "world" (MuJoCo's world body, at the identity) and
/// every top-level body hangs from it. Each body is a link of the same name (an unnamed body
/// is "body<i>", i its MuJoCo body id); a body without joints is welded to its parent by a
/// fixed joint "<body>_fixed"; a body with several joints gets a massless link
/// "<body>::<joint>" after each joint but the last. An unnamed joint is "joint<j>", j its
/// MuJoCo joint id.
///
/// Configuration layout: one coordinate per hinge and slide joint, in document order (MuJoCo's
/// joint order, the free joint left out). Each coordinate is MuJoCo's `qpos` of that joint:
/// the bodies sit where the file writes them at q = `ref` (`MjcfResult::q_ref`, MuJoCo's
/// `qpos0`), and the limits are the `range` itself. A limited hinge is a revolute joint, an
/// unlimited one continuous; a slide joint is prismatic and must be limited.
///
/// Everything that is wrong or that the reader cannot model throws `retarget::ParseError`
/// naming the file (the included file for included elements), the line (tinyxml2 line
/// numbers), the element and the offending value: malformed XML, a root other than
/// `<mujoco>`, a missing or circular include (or any include in text parsed without a folder), an unknown default class or a class defined
/// twice, a number that does not parse or a vector with the wrong count, two orientations on
/// one element, a zero axis or degenerate frame, an unknown compiler angle or euler sequence,
/// `coordinate="global"`, a ball joint, an unknown joint type, a second free joint, a free
/// joint below the top level or beside other joints, a joint inside a `<frame>` or in
/// `<worldbody>`, an unlimited slide joint, a limited joint whose range is not increasing (as
/// MuJoCo), a negative mass, two `<inertial>` in a body, a non-positive primitive size, a
/// `fromto` on a sphere or box or of zero length, an unknown geom type, repeated body or joint
/// names, `<composite>`, `<flexcomp>`, `<replicate>` and `<attach>` (not supported).

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
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

/// A mesh geom of an MJCF body, recorded by name (its file is never read).
template <typename Scalar = double>
struct MjcfMeshGeom {
  std::string body;  ///< Link (body) the geom belongs to.
  std::string name;  ///< The geom's name; empty when unnamed.
  std::string mesh;  ///< Name of the `<mesh>` asset it shows (its `mesh` attribute).
  /// Pose of the geom frame G in the body frame B as written (m). MuJoCo moves a mesh geom's
  /// frame to the mesh's own inertial frame when it compiles; this is the frame before that.
  Isometry3<Scalar> X_BG = Isometry3<Scalar>::Identity();
  /// False for a visual geom (`contype` and `conaffinity` both 0).
  bool collides = true;
};

/// A robot read from MJCF, what the file says about its floating base, its mesh geoms, and
/// the non-fatal problems found while reading it.
template <typename Scalar = double>
struct MjcfResult {
  RobotModel<Scalar> model;
  /// One human-readable line per problem that was skipped, e.g.
  /// "robot.xml:40: geom 'floor' of type plane is not a collision shape; skipped".
  std::vector<std::string> warnings;
  /// Name of the body carrying the free joint (the model's root link); empty for a fixed base.
  std::string floating_base_body;
  /// Name of the free joint; empty when it is unnamed or there is none.
  std::string floating_base_joint;
  /// Pose of the root link B in MuJoCo's world W as written in the file (m): for a floating
  /// base, the free body's pose at MuJoCo's qpos0; the identity for a fixed base (root "world").
  Isometry3<Scalar> X_WB = Isometry3<Scalar>::Identity();
  /// The configuration at which every body sits where the file writes it: each joint's `ref`
  /// (rad or m), in q order (MuJoCo's qpos0 of those joints).
  VectorX<Scalar> q_ref;
  /// Every mesh geom of the model's bodies, in document order.
  std::vector<MjcfMeshGeom<Scalar>> mesh_geoms;
};

namespace internal {

/// State of one MJCF parse: the documents read (main file and includes) with their names for
/// messages, the compiler settings, the default classes and the collected warnings.
class MjcfReader {
 public:
  /// Settings of `<compiler>` that change what the model means.
  struct Compiler {
    bool degree = true;
    std::string eulerseq = "xyz";
    bool autolimits = true;
    double boundmass = 0;
  };

  /// One default class: per element kind (joint, geom, ...), the attribute values it gives,
  /// already merged with its ancestors'.
  struct DefaultClass {
    const tinyxml2::XMLElement* element = nullptr;
    std::map<std::string, std::map<std::string, std::string>> values;
  };

  MjcfReader(std::string file, std::filesystem::path directory)
      : main_file_(std::move(file)), directory_(std::move(directory)) {}

  /// Name of the file `element` was read from.
  std::string fileOf(const tinyxml2::XMLElement* element) const {
    if (element == nullptr) return main_file_;
    const auto it = file_names_.find(element->GetDocument());
    return it != file_names_.end() ? it->second : main_file_;
  }

  [[noreturn]] void fail(const tinyxml2::XMLElement* element, const std::string& what) const {
    throw ParseError(fileOf(element), element != nullptr ? static_cast<std::size_t>(element->GetLineNum()) : 0, what);
  }

  void warn(const tinyxml2::XMLElement* element, const std::string& what) {
    std::ostringstream out;
    out << fileOf(element) << ":" << element->GetLineNum() << ": " << what;
    warnings.push_back(out.str());
  }

  /// Description of an element for messages: "<joint name='knee'>" or "<geom>".
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

  /// Parses `text` as a document read from `file` and returns its `<mujoco>` element.
  const tinyxml2::XMLElement* parseDocument(const std::string& text, const std::string& file,
                                            const tinyxml2::XMLElement* included_by) {
    documents_.push_back(std::make_unique<tinyxml2::XMLDocument>());
    tinyxml2::XMLDocument& document = *documents_.back();
    file_names_[&document] = file;
    if (document.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) {
      const char* detail = document.ErrorStr();
      throw ParseError(file, static_cast<std::size_t>(std::max(0, document.ErrorLineNum())),
                       std::string("malformed XML (") + (detail != nullptr ? detail : "unknown error") + ")");
    }
    const tinyxml2::XMLElement* root = document.RootElement();
    if (root == nullptr || std::string_view(root->Name()) != "mujoco") {
      const std::string got = root != nullptr ? "<" + std::string(root->Name()) + ">" : "an empty document";
      if (root != nullptr) fail(root, "expected a <mujoco> root element, got " + got);
      if (included_by != nullptr) fail(included_by, "included file '" + file + "' is empty, expected a <mujoco> root element");
      throw ParseError(file, 0, "expected a <mujoco> root element, got " + got);
    }
    return root;
  }

  /// Calls `visit(child)` for every child element of `parent`, replacing each `<include>` by
  /// the children of the included file's `<mujoco>` element (recursively).
  template <typename Visit>
  void forEachChild(const tinyxml2::XMLElement* parent, Visit&& visit) {
    for (const tinyxml2::XMLElement* child = parent->FirstChildElement(); child != nullptr;
         child = child->NextSiblingElement()) {
      if (std::string_view(child->Name()) != "include") {
        visit(child);
        continue;
      }
      const char* file = child->Attribute("file");
      if (file == nullptr || *file == '\0') fail(child, "<include> needs a non-empty 'file' attribute");
      if (directory_.empty()) {
        fail(child, std::string("<include file=\"") + file +
                        "\">: the text was given without a folder to look in (read the file with loadMjcf, or "
                        "pass include_directory to parseMjcf)");
      }
      const std::filesystem::path path = directory_ / file;
      const std::string key = path.lexically_normal().string();
      if (std::find(open_includes_.begin(), open_includes_.end(), key) != open_includes_.end() ||
          open_includes_.size() > 32) {
        fail(child, std::string("<include file=\"") + file + "\"> includes itself (circular include)");
      }
      std::error_code error;
      std::ifstream in;
      if (std::filesystem::is_regular_file(path, error)) in.open(path, std::ios::binary);
      if (!in.is_open()) {
        fail(child, std::string("<include file=\"") + file + "\">: cannot open '" + path.string() + "' as a file");
      }
      std::ostringstream text;
      text << in.rdbuf();
      const tinyxml2::XMLElement* root = parseDocument(text.str(), path.string(), child);
      open_includes_.push_back(key);
      forEachChild(root, visit);
      open_includes_.pop_back();
    }
  }

  /// Between `min_count` and `max_count` finite numbers from `text` (attribute `attribute` of
  /// `element`, or the value a default class gave it).
  std::vector<double> parseNumbers(const tinyxml2::XMLElement* element, const char* attribute, const char* text,
                                   std::size_t min_count, std::size_t max_count) const {
    std::vector<double> values;
    for (const std::string_view token : internal::splitWhitespace(text)) {
      double value = 0;
      if (!parseFinite(token, value)) {
        fail(element, describe(element) + " attribute " + attribute + "=\"" + text + "\": '" + std::string(token) +
                          "' is not a finite number");
      }
      values.push_back(value);
    }
    if (values.size() < min_count || values.size() > max_count) {
      const std::string expected = min_count == max_count
                                       ? std::to_string(min_count)
                                       : std::to_string(min_count) + " to " + std::to_string(max_count);
      fail(element, describe(element) + " attribute " + attribute + "=\"" + text + "\" has " +
                        std::to_string(values.size()) + " numbers, expected " + expected);
    }
    return values;
  }

  /// The class an element of a body uses: its own `class`, else `childclass`.
  const DefaultClass& classOf(const tinyxml2::XMLElement* element, const std::string& childclass) const {
    const char* own = element->Attribute("class");
    const std::string name = own != nullptr ? std::string(own) : childclass;
    const auto it = classes.find(name);
    if (it == classes.end()) {
      if (name == "main") return empty_class_;
      fail(element, describe(element) + " uses default class '" + name + "', which is not defined");
    }
    return it->second;
  }

  /// Value of `attribute` of `element` (of kind `kind`, e.g. "geom"): its own, else its
  /// class's, else nullptr.
  /// (`element` null: the class's value only.)
  static const char* value(const tinyxml2::XMLElement* element, const DefaultClass& defaults, const char* kind,
                           const char* attribute) {
    if (element != nullptr) {
      if (const char* own = element->Attribute(attribute)) return own;
    }
    const auto values = defaults.values.find(kind);
    if (values == defaults.values.end()) return nullptr;
    const auto it = values->second.find(attribute);
    return it != values->second.end() ? it->second.c_str() : nullptr;
  }

  /// `count` numbers of `attribute` (own or default), or `fallback` when neither gives it.
  std::vector<double> vectorValue(const tinyxml2::XMLElement* element, const DefaultClass& defaults, const char* kind,
                                  const char* attribute, std::size_t count, const std::vector<double>& fallback) const {
    const char* text = value(element, defaults, kind, attribute);
    return text != nullptr ? parseNumbers(element, attribute, text, count, count) : fallback;
  }

  /// Reads `<compiler>`.
  void readCompiler(const tinyxml2::XMLElement* element) {
    if (const char* angle = element->Attribute("angle")) {
      const std::string_view text(angle);
      if (text != "degree" && text != "radian") {
        fail(element, std::string("<compiler angle=\"") + angle + "\">: expected \"degree\" or \"radian\"");
      }
      compiler.degree = text == "degree";
    }
    if (const char* sequence = element->Attribute("eulerseq")) {
      const std::string text(sequence);
      bool valid = text.size() == 3;
      for (const char c : text) valid = valid && std::string_view("xyzXYZ").find(c) != std::string_view::npos;
      if (!valid) {
        fail(element, "<compiler eulerseq=\"" + text + "\">: expected three of x, y, z, X, Y, Z");
      }
      compiler.eulerseq = text;
    }
    if (const char* autolimits = element->Attribute("autolimits")) compiler.autolimits = boolean(element, "autolimits", autolimits);
    if (const char* boundmass = element->Attribute("boundmass")) {
      compiler.boundmass = parseNumbers(element, "boundmass", boundmass, 1, 1)[0];
    }
    if (const char* coordinate = element->Attribute("coordinate"); coordinate != nullptr && std::string_view(coordinate) != "local") {
      fail(element, std::string("<compiler coordinate=\"") + coordinate + "\"> is not supported (expected \"local\")");
    }
    if (const char* from_geom = element->Attribute("inertiafromgeom"); from_geom != nullptr && std::string_view(from_geom) == "true") {
      warn(element, "<compiler inertiafromgeom=\"true\">: masses are read from <inertial> elements only");
    }
  }

  /// "true" / "false".
  bool boolean(const tinyxml2::XMLElement* element, const char* attribute, const char* text) const {
    const std::string_view value(text);
    if (value == "true") return true;
    if (value == "false") return false;
    fail(element, describe(element) + " attribute " + attribute + "=\"" + text + "\": expected \"true\" or \"false\"");
  }

  /// Reads a `<default>` element (class `name`, inheriting `parent`) and its nested classes.
  void readDefault(const tinyxml2::XMLElement* element, const std::string& name, const DefaultClass* parent) {
    DefaultClass defaults = parent != nullptr ? *parent : DefaultClass{};
    if (const auto existing = classes.find(name); existing != classes.end()) {
      if (name != "main" || parent != nullptr) {
        fail(element, "default class '" + name + "' is defined twice (first on line " +
                          std::to_string(existing->second.element->GetLineNum()) + ")");
      }
      defaults = existing->second;  // a second top-level <default> adds to "main"
    }
    defaults.element = element;
    std::vector<const tinyxml2::XMLElement*> nested;
    forEachChild(element, [&](const tinyxml2::XMLElement* child) {
      const std::string kind = child->Name();
      if (kind == "default") {
        nested.push_back(child);
        return;
      }
      auto& values = defaults.values[kind];
      for (const tinyxml2::XMLAttribute* a = child->FirstAttribute(); a != nullptr; a = a->Next()) {
        const std::string attribute = a->Name();
        if (attribute == "size" && values.count("size") != 0) {
          values["size"] = mergeSize(child, values["size"].c_str(), a->Value());
        } else {
          values[attribute] = a->Value();
        }
        // One orientation per class: a class's own orientation replaces its parent's.
        if (isOrientation(attribute)) {
          for (const char* other : kOrientations) {
            if (attribute != other && child->Attribute(other) == nullptr) values.erase(other);
          }
        }
      }
    });
    classes[name] = defaults;
    for (const tinyxml2::XMLElement* child : nested) {
      const char* child_name = child->Attribute("class");
      if (child_name == nullptr || *child_name == '\0') fail(child, "a nested <default> needs a non-empty 'class' attribute");
      const DefaultClass copy = classes.at(name);
      readDefault(child, child_name, &copy);
    }
  }

  /// `overlay`'s numbers replacing the first ones of `base` (MuJoCo's partial `size`).
  std::string mergeSize(const tinyxml2::XMLElement* element, const char* base, const char* overlay) const {
    std::vector<double> merged = parseNumbers(element, "size", base, 0, 3);
    const std::vector<double> over = parseNumbers(element, "size", overlay, 0, 3);
    merged.resize(std::max(merged.size(), over.size()), 0.0);
    for (std::size_t i = 0; i < over.size(); ++i) merged[i] = over[i];
    std::string text;
    for (const double v : merged) {
      if (!text.empty()) text += ' ';
      appendNumber(text, v);
    }
    return text;
  }

  static constexpr const char* kOrientations[5] = {"quat", "axisangle", "xyaxes", "zaxis", "euler"};
  static bool isOrientation(const std::string& attribute) {
    for (const char* name : kOrientations) {
      if (attribute == name) return true;
    }
    return false;
  }

  /// Angle in rad from a value in the compiler's unit.
  double angle(double value) const { return compiler.degree ? value * (3.14159265358979323846 / 180.0) : value; }

  /// Rotation from a MuJoCo quaternion (w x y z; normalised).
  Matrix3<double> rotationFromQuat(const tinyxml2::XMLElement* element, const std::vector<double>& q) const {
    const Eigen::Quaterniond quat(q[0], q[1], q[2], q[3]);
    if (!(quat.norm() > 1e-12)) fail(element, describe(element) + " has a zero quaternion");
    return quat.normalized().toRotationMatrix();
  }

  /// Pose of an element with `pos` and one orientation (own attributes, else its class's).
  Isometry3<double> pose(const tinyxml2::XMLElement* element, const DefaultClass& defaults, const char* kind) const {
    Isometry3<double> X = Isometry3<double>::Identity();
    const auto pos = vectorValue(element, defaults, kind, "pos", 3, {0, 0, 0});
    X.translation() = Vector3<double>(pos[0], pos[1], pos[2]);
    // The element's own orientation wins over its class's.
    const char* found = nullptr;
    const char* text = nullptr;
    for (const bool own : {true, false}) {
      for (const char* name : kOrientations) {
        const char* candidate = own ? element->Attribute(name) : value(element, defaults, kind, name);
        if (candidate == nullptr) continue;
        if (found != nullptr) {
          fail(element, describe(element) + " has two orientations ('" + found + "' and '" + name +
                            "'), expected at most one of quat, axisangle, xyaxes, zaxis, euler");
        }
        found = name;
        text = candidate;
      }
      if (found != nullptr) break;
    }
    if (found != nullptr) X.linear() = orientation(element, found, text);
    return X;
  }

  /// Rotation given by orientation attribute `kind` with value `text`.
  Matrix3<double> orientation(const tinyxml2::XMLElement* element, const std::string& kind, const char* text) const {
    if (kind == "quat") return rotationFromQuat(element, parseNumbers(element, "quat", text, 4, 4));
    if (kind == "axisangle") {
      const auto v = parseNumbers(element, "axisangle", text, 4, 4);
      const Vector3<double> axis(v[0], v[1], v[2]);
      if (!(axis.norm() > 1e-12)) fail(element, describe(element) + " axisangle=\"" + text + "\" has a zero axis");
      return Eigen::AngleAxisd(angle(v[3]), axis.normalized()).toRotationMatrix();
    }
    if (kind == "xyaxes") {
      const auto v = parseNumbers(element, "xyaxes", text, 6, 6);
      Vector3<double> x(v[0], v[1], v[2]);
      Vector3<double> y(v[3], v[4], v[5]);
      if (!(x.norm() > 1e-12)) fail(element, describe(element) + " xyaxes=\"" + text + "\" has a zero x axis");
      x.normalize();
      y -= x * x.dot(y);
      if (!(y.norm() > 1e-12)) fail(element, describe(element) + " xyaxes=\"" + text + "\": y is parallel to x");
      y.normalize();
      Matrix3<double> R;
      R.col(0) = x;
      R.col(1) = y;
      R.col(2) = x.cross(y).normalized();
      return R;
    }
    if (kind == "zaxis") {
      const auto v = parseNumbers(element, "zaxis", text, 3, 3);
      const Vector3<double> z(v[0], v[1], v[2]);
      if (!(z.norm() > 1e-12)) fail(element, describe(element) + " zaxis=\"" + text + "\" is zero");
      return rotationTakingZTo(z);
    }
    // euler, in the compiler's sequence.
    const auto v = parseNumbers(element, "euler", text, 3, 3);
    Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
    for (std::size_t i = 0; i < 3; ++i) {
      const char axis_name = compiler.eulerseq[i];
      const int axis = toLowerAscii(axis_name) - 'x';
      const Eigen::Quaterniond turn(Eigen::AngleAxisd(angle(v[i]), Vector3<double>::Unit(axis)));
      // Lower case: about the moving frame's axis (post-multiply); upper case: the fixed one.
      q = axis_name >= 'a' ? q * turn : turn * q;
    }
    return q.toRotationMatrix();
  }

  /// The shortest rotation taking +z onto the direction of `z` (a half turn about x for -z).
  static Matrix3<double> rotationTakingZTo(const Vector3<double>& z) {
    Vector3<double> axis = Vector3<double>::UnitZ().cross(z);
    const double s = axis.norm();
    const double turn = std::atan2(s, z.z());
    axis = s < 1e-10 ? Vector3<double>::UnitX() : Vector3<double>(axis / s);
    return Eigen::AngleAxisd(turn, axis).toRotationMatrix();
  }

  Compiler compiler;
  std::unordered_map<std::string, DefaultClass> classes;
  std::vector<std::string> warnings;

 private:
  std::string main_file_;
  std::filesystem::path directory_;
  std::vector<std::unique_ptr<tinyxml2::XMLDocument>> documents_;
  std::unordered_map<const tinyxml2::XMLDocument*, std::string> file_names_;
  std::vector<std::string> open_includes_;
  DefaultClass empty_class_{};
};

/// One hinge or slide joint of an MJCF body, resolved through its class.
struct MjcfJoint {
  const tinyxml2::XMLElement* element = nullptr;
  std::string name;
  bool slide = false;
  Vector3<double> p_BJ = Vector3<double>::Zero();  ///< `pos` in the body frame (m).
  Vector3<double> axis = Vector3<double>::UnitZ();  ///< Unit `axis` in the body frame.
  double ref = 0;                                   ///< rad or m.
  bool limited = false;
  double lower = 0, upper = 0;                      ///< rad or m.
  double effort = std::numeric_limits<double>::infinity();  ///< From actuatorfrcrange (N*m or N).
};

/// One MJCF body with everything the model needs from it.
struct MjcfBody {
  const tinyxml2::XMLElement* element = nullptr;
  std::string name;
  int parent = -1;                                          ///< Index of the parent body; -1: the world.
  Isometry3<double> X_PB = Isometry3<double>::Identity();  ///< In the parent body's frame (world for -1).
  std::vector<MjcfJoint> joints;
  const tinyxml2::XMLElement* free_joint = nullptr;
  const tinyxml2::XMLElement* inertial = nullptr;
  double mass = 0;
  Vector3<double> p_BCm = Vector3<double>::Zero();
  std::vector<CollisionShape<double>> collisions;
  std::vector<MjcfMeshGeom<double>> meshes;
  int geom_count = 0;
};

/// Reads the body tree of `<worldbody>` elements into a flat list in document order.
class MjcfTreeReader {
 public:
  explicit MjcfTreeReader(MjcfReader& reader) : reader_(reader) {}

  /// Reads the children of `<worldbody>` (or of a `<frame>` in it) placed at X_WF.
  void readWorld(const tinyxml2::XMLElement* container, const Isometry3<double>& X_WF, const std::string& childclass) {
    reader_.forEachChild(container, [&](const tinyxml2::XMLElement* child) {
      const std::string kind = child->Name();
      if (kind == "body") {
        readBody(child, -1, X_WF, childclass);
      } else if (kind == "frame") {
        const auto& defaults = reader_.classOf(child, childclass);
        readWorld(child, X_WF * reader_.pose(child, defaults, "frame"), childClassOf(child, childclass));
      } else if (kind == "joint" || kind == "freejoint") {
        reader_.fail(child, MjcfReader::describe(child) + " directly in <worldbody>: joints belong to bodies");
      } else {
        readOther(child, kind);
      }
    });
  }

  std::vector<MjcfBody> bodies;
  int joint_count = 0;  ///< MuJoCo joint ids given so far (free joints included).

 private:
  static std::string childClassOf(const tinyxml2::XMLElement* element, const std::string& inherited) {
    const char* own = element->Attribute("childclass");
    return own != nullptr ? std::string(own) : inherited;
  }

  /// Elements other than bodies, frames and joints, anywhere in the tree.
  void readOther(const tinyxml2::XMLElement* element, const std::string& kind) {
    if (kind == "geom" || kind == "site" || kind == "camera" || kind == "light" || kind == "inertial" ||
        kind == "plugin") {
      return;  // world geoms and the like: not part of the robot
    }
    if (kind == "composite" || kind == "flexcomp" || kind == "replicate" || kind == "attach" || kind == "skin") {
      reader_.fail(element, "<" + kind + "> is not supported by the MJCF reader");
    }
    reader_.warn(element, "unknown element <" + kind + ">; skipped");
  }

  void readBody(const tinyxml2::XMLElement* element, int parent, const Isometry3<double>& X_PF,
                const std::string& inherited_childclass) {
    MjcfBody body;
    body.element = element;
    body.parent = parent;
    const int index = static_cast<int>(bodies.size());
    const char* name = element->Attribute("name");
    body.name = name != nullptr && *name != '\0' ? std::string(name) : "body" + std::to_string(index + 1);
    const std::string childclass = childClassOf(element, inherited_childclass);
    if (element->Attribute("childclass") != nullptr) (void)reader_.classOf(element, childclass);  // must exist
    // A body has no class of its own: its pose attributes are its own.
    body.X_PB = X_PF * reader_.pose(element, MjcfReader::DefaultClass{}, "body");
    bodies.push_back(std::move(body));
    readBodyChildren(element, index, Isometry3<double>::Identity(), childclass, false);
  }

  /// Reads what `container` (the body itself or a `<frame>` in it, at X_BF) holds.
  void readBodyChildren(const tinyxml2::XMLElement* container, int index, const Isometry3<double>& X_BF,
                        const std::string& childclass, bool in_frame) {
    reader_.forEachChild(container, [&](const tinyxml2::XMLElement* child) {
      const std::string kind = child->Name();
      if (kind == "body") {
        readBody(child, index, X_BF, childclass);
      } else if (kind == "frame") {
        const auto& defaults = reader_.classOf(child, childclass);
        readBodyChildren(child, index, X_BF * reader_.pose(child, defaults, "frame"), childClassOf(child, childclass),
                         true);
      } else if (kind == "joint" || kind == "freejoint") {
        if (in_frame) reader_.fail(child, MjcfReader::describe(child) + " inside a <frame> is not supported");
        readJoint(child, index, childclass);
      } else if (kind == "inertial") {
        readInertial(child, index);
      } else if (kind == "geom") {
        readGeom(child, index, X_BF, childclass);
      } else {
        readOther(child, kind);
      }
    });
  }

  void readJoint(const tinyxml2::XMLElement* element, int index, const std::string& childclass) {
    MjcfBody& body = bodies[static_cast<std::size_t>(index)];
    const int id = joint_count++;
    const std::string kind = element->Name();
    const auto& defaults = reader_.classOf(element, childclass);
    const char* type_text = kind == "freejoint" ? "free" : MjcfReader::value(element, defaults, "joint", "type");
    const std::string type = type_text != nullptr ? type_text : "hinge";
    if (type == "free") {
      if (body.free_joint != nullptr) {
        reader_.fail(element, "body '" + body.name + "' has two free joints");
      }
      body.free_joint = element;
      return;
    }
    if (type == "ball") {
      reader_.fail(element, MjcfReader::describe(element) + ": ball joints are not supported (expected hinge or slide)");
    }
    if (type != "hinge" && type != "slide") {
      reader_.fail(element, MjcfReader::describe(element) + ": unknown joint type '" + type +
                                "' (expected hinge, slide or free)");
    }
    MjcfJoint joint;
    joint.element = element;
    const char* name = element->Attribute("name");
    joint.name = name != nullptr && *name != '\0' ? std::string(name) : "joint" + std::to_string(id);
    joint.slide = type == "slide";
    const auto pos = reader_.vectorValue(element, defaults, "joint", "pos", 3, {0, 0, 0});
    joint.p_BJ = Vector3<double>(pos[0], pos[1], pos[2]);
    const auto axis = reader_.vectorValue(element, defaults, "joint", "axis", 3, {0, 0, 1});
    joint.axis = Vector3<double>(axis[0], axis[1], axis[2]);
    if (!(joint.axis.norm() > 1e-12)) {
      reader_.fail(element, MjcfReader::describe(element) + " has a zero axis");
    }
    joint.axis.normalize();
    const auto range = reader_.vectorValue(element, defaults, "joint", "range", 2, {0, 0});
    const char* limited_text = MjcfReader::value(element, defaults, "joint", "limited");
    const std::string limited = limited_text != nullptr ? limited_text : "auto";
    const bool has_range = !(range[0] == 0 && range[1] == 0);
    if (limited == "true") {
      joint.limited = true;
    } else if (limited == "false") {
      joint.limited = false;
    } else if (limited == "auto") {
      if (has_range && !reader_.compiler.autolimits) {
        reader_.fail(element, MjcfReader::describe(element) +
                                  " has a range but no 'limited' while <compiler autolimits=\"false\">");
      }
      joint.limited = has_range;
    } else {
      reader_.fail(element, MjcfReader::describe(element) + " limited=\"" + limited +
                                "\": expected \"true\", \"false\" or \"auto\"");
    }
    const double scale = joint.slide ? 1.0 : reader_.angle(1.0);
    if (joint.limited) {
      if (!(range[0] < range[1])) {
        std::ostringstream out;
        out << MjcfReader::describe(element) << " range=\"" << range[0] << " " << range[1]
            << "\": the lower limit must be below the upper limit";
        reader_.fail(element, out.str());
      }
      joint.lower = range[0] * scale;
      joint.upper = range[1] * scale;
    } else if (joint.slide) {
      reader_.fail(element, MjcfReader::describe(element) + ": a slide joint needs a range (unlimited slide joints are not supported)");
    }
    joint.ref = reader_.vectorValue(element, defaults, "joint", "ref", 1, {0})[0] * scale;
    // The actuator force range, when limited, bounds the joint's effort by its larger magnitude.
    const auto force = reader_.vectorValue(element, defaults, "joint", "actuatorfrcrange", 2, {0, 0});
    const char* force_limited = MjcfReader::value(element, defaults, "joint", "actuatorfrclimited");
    const std::string force_mode = force_limited != nullptr ? force_limited : "auto";
    const bool has_force = !(force[0] == 0 && force[1] == 0);
    if (force_mode == "true" || (force_mode == "auto" && has_force && reader_.compiler.autolimits)) {
      joint.effort = std::max(std::abs(force[0]), std::abs(force[1]));
    }
    body.joints.push_back(std::move(joint));
  }

  void readInertial(const tinyxml2::XMLElement* element, int index) {
    MjcfBody& body = bodies[static_cast<std::size_t>(index)];
    if (body.inertial != nullptr) {
      reader_.fail(element, "body '" + body.name + "' has a second <inertial> (first on line " +
                                std::to_string(body.inertial->GetLineNum()) + ")");
    }
    body.inertial = element;
    const char* mass = element->Attribute("mass");
    if (mass == nullptr) reader_.fail(element, "body '" + body.name + "': <inertial> needs a 'mass' attribute");
    body.mass = reader_.parseNumbers(element, "mass", mass, 1, 1)[0];
    if (body.mass < 0) {
      reader_.fail(element, "body '" + body.name + "': <inertial mass=\"" + mass + "\"> is negative, expected >= 0 kg");
    }
    const auto pos = reader_.vectorValue(element, MjcfReader::DefaultClass{}, "inertial", "pos", 3, {0, 0, 0});
    body.p_BCm = Vector3<double>(pos[0], pos[1], pos[2]);
  }

  void readGeom(const tinyxml2::XMLElement* element, int index, const Isometry3<double>& X_BF,
                const std::string& childclass) {
    MjcfBody& body = bodies[static_cast<std::size_t>(index)];
    const int k = body.geom_count++;
    const auto& defaults = reader_.classOf(element, childclass);
    const char* type_text = MjcfReader::value(element, defaults, "geom", "type");
    const std::string type = type_text != nullptr ? type_text : "sphere";
    const char* name = element->Attribute("name");
    const std::string label = name != nullptr && *name != '\0' ? std::string(name) : body.name + "_geom" + std::to_string(k);
    const auto flag = [&](const char* attribute) {
      const char* text = MjcfReader::value(element, defaults, "geom", attribute);
      return text == nullptr ? 1.0 : reader_.parseNumbers(element, attribute, text, 1, 1)[0];
    };
    const bool collides = flag("contype") != 0 || flag("conaffinity") != 0;
    const char* fromto_text = MjcfReader::value(element, defaults, "geom", "fromto");
    const char* mesh_name = MjcfReader::value(element, defaults, "geom", "mesh");
    if (type != "mesh" && mesh_name != nullptr && element->Attribute("mesh") != nullptr) {
      // MuJoCo sizes such a primitive to fit the mesh, which is never read here.
      reader_.warn(element, "geom '" + label + "' is a " + type + " fitted to mesh '" + mesh_name +
                                "', whose file is not read; recorded as a mesh geom");
    }
    if (type == "mesh" || (mesh_name != nullptr && element->Attribute("mesh") != nullptr)) {
      MjcfMeshGeom<double> mesh;
      mesh.body = body.name;
      mesh.name = name != nullptr ? name : "";
      if (mesh_name == nullptr) reader_.fail(element, MjcfReader::describe(element) + " of type mesh has no 'mesh' attribute");
      mesh.mesh = mesh_name;
      mesh.X_BG = X_BF * reader_.pose(element, defaults, "geom");
      mesh.collides = collides;
      body.meshes.push_back(std::move(mesh));
      return;
    }
    if (type == "plane" || type == "hfield" || type == "ellipsoid" || type == "sdf") {
      reader_.warn(element, "geom '" + label + "' of type " + type + " is not a collision shape; skipped");
      return;
    }
    UrdfPrimitive primitive{};
    if (type == "sphere") {
      primitive = UrdfPrimitive::kSphere;
    } else if (type == "capsule") {
      primitive = UrdfPrimitive::kCapsule;
    } else if (type == "cylinder") {
      primitive = UrdfPrimitive::kCylinder;
    } else if (type == "box") {
      primitive = UrdfPrimitive::kBox;
    } else {
      reader_.fail(element, MjcfReader::describe(element) + ": unknown geom type '" + type +
                                "' (expected sphere, capsule, cylinder, box, mesh, plane, hfield, ellipsoid or sdf)");
    }
    // An own partial size replaces only the numbers it gives of its class's (as in MuJoCo).
    const char* own_size = element->Attribute("size");
    const char* class_size = MjcfReader::value(nullptr, defaults, "geom", "size");
    std::string size_text = own_size != nullptr ? own_size : (class_size != nullptr ? class_size : "");
    if (own_size != nullptr && class_size != nullptr) size_text = reader_.mergeSize(element, class_size, own_size);
    std::vector<double> size = reader_.parseNumbers(element, "size", size_text.c_str(), 0, 3);
    size.resize(3, 0.0);
    const bool segment = fromto_text != nullptr && (type == "capsule" || type == "cylinder");
    if (fromto_text != nullptr && !segment) {
      reader_.fail(element, MjcfReader::describe(element) + ": 'fromto' on a " + type +
                                " geom is not supported (expected a capsule or cylinder)");
    }
    const int used = type == "sphere" || segment ? 1 : (type == "box" ? 3 : 2);
    for (int i = 0; i < used; ++i) {
      if (!(size[static_cast<std::size_t>(i)] > 0)) {
        reader_.fail(element, MjcfReader::describe(element) + " of type " + type + " needs " + std::to_string(used) +
                                  " positive size number(s), got size=\"" + size_text + "\"");
      }
    }
    if (!collides) return;
    Isometry3<double> X_BG = Isometry3<double>::Identity();
    double dimensions[3] = {size[0], 2 * size[1], 0};
    if (type == "box") {
      for (std::size_t i = 0; i < 3; ++i) dimensions[i] = 2 * size[i];
    }
    if (segment) {
      const auto ends = reader_.parseNumbers(element, "fromto", fromto_text, 6, 6);
      const Vector3<double> from = X_BF * Vector3<double>(ends[0], ends[1], ends[2]);
      const Vector3<double> to = X_BF * Vector3<double>(ends[3], ends[4], ends[5]);
      const double length = (to - from).norm();
      if (!(length > 1e-12)) reader_.fail(element, MjcfReader::describe(element) + " fromto=\"" + fromto_text + "\" has zero length");
      X_BG.linear() = MjcfReader::rotationTakingZTo(to - from);
      X_BG.translation() = 0.5 * (from + to);
      dimensions[1] = length;
    } else {
      X_BG = X_BF * reader_.pose(element, defaults, "geom");
    }
    body.collisions.push_back(collisionFromPrimitive<double>(label, primitive, dimensions, X_BG));
  }

  MjcfReader& reader_;
};

template <typename Scalar>
CollisionShape<Scalar> castShape(const CollisionShape<double>& shape) {
  CollisionShape<Scalar> out;
  out.name = shape.name;
  out.kind = static_cast<typename CollisionShape<Scalar>::Kind>(static_cast<int>(shape.kind));
  out.capsule_L.a = shape.capsule_L.a.template cast<Scalar>();
  out.capsule_L.b = shape.capsule_L.b.template cast<Scalar>();
  out.capsule_L.radius = static_cast<Scalar>(shape.capsule_L.radius);
  out.X_LG = shape.X_LG.template cast<Scalar>();
  out.size_G = shape.size_G.template cast<Scalar>();
  return out;
}

}  // namespace internal

/// Reads an MJCF model from `text`; `name_for_errors` names it in messages (a file name, or
/// "<string>") and `include_directory` is where `<include file>` looks (when empty, an
/// `<include>` is an error: in-memory text opens no file). Lengths in m, angles in rad (converted from degrees when the compiler says
/// so), masses in kg. Throws ParseError (see the file comment for the full list).
template <typename Scalar = double>
MjcfResult<Scalar> parseMjcf(const std::string& text, const std::string& name_for_errors = "<string>",
                             const std::filesystem::path& include_directory = {}) {
  using tinyxml2::XMLElement;
  internal::MjcfReader reader(name_for_errors, include_directory);
  const XMLElement* mujoco = reader.parseDocument(text, name_for_errors, nullptr);

  // Sections, includes expanded; the compiler first, then the defaults, then the bodies.
  std::vector<const XMLElement*> sections;
  reader.forEachChild(mujoco, [&](const XMLElement* child) { sections.push_back(child); });
  for (const XMLElement* section : sections) {
    if (std::string_view(section->Name()) == "compiler") reader.readCompiler(section);
  }
  for (const XMLElement* section : sections) {
    if (std::string_view(section->Name()) != "default") continue;
    const char* name = section->Attribute("class");
    reader.readDefault(section, name != nullptr ? name : "main", nullptr);
  }
  internal::MjcfTreeReader tree(reader);
  static const std::unordered_set<std::string> kReadPast = {
      "compiler", "default", "option", "size", "visual", "statistic", "asset", "contact", "equality",
      "tendon", "actuator", "sensor", "keyframe", "custom", "extension", "deformable", "worldbody"};
  for (const XMLElement* section : sections) {
    const std::string kind = section->Name();
    if (kind == "worldbody") {
      tree.readWorld(section, Isometry3<double>::Identity(), "main");
    } else if (kReadPast.count(kind) == 0) {
      reader.warn(section, "unknown section <" + kind + ">; skipped");
    }
  }

  // Floating base: at most one free joint, on a top-level body, alone in its body.
  int free_body = -1;
  for (std::size_t i = 0; i < tree.bodies.size(); ++i) {
    const auto& body = tree.bodies[i];
    if (body.free_joint == nullptr) continue;
    if (free_body >= 0) {
      reader.fail(body.free_joint, "a second free joint (in body '" + body.name + "'; the first is in body '" +
                                       tree.bodies[static_cast<std::size_t>(free_body)].name +
                                       "'): only one floating base is supported");
    }
    if (body.parent >= 0) {
      reader.fail(body.free_joint, "free joint in body '" + body.name + "', which is not a child of <worldbody>");
    }
    if (!body.joints.empty()) {
      reader.fail(body.free_joint, "free joint in body '" + body.name + "', which also has other joints");
    }
    free_body = static_cast<int>(i);
  }

  const char* model_name = mujoco->Attribute("model");
  RobotModelBuilder<Scalar> builder(model_name != nullptr ? model_name : "MuJoCo Model");
  MjcfResult<Scalar> result;
  std::vector<bool> kept(tree.bodies.size(), free_body < 0);
  std::string root_name = "world";
  if (free_body >= 0) {
    const auto& root = tree.bodies[static_cast<std::size_t>(free_body)];
    root_name = root.name;
    result.floating_base_body = root.name;
    const char* joint_name = root.free_joint->Attribute("name");
    result.floating_base_joint = joint_name != nullptr ? joint_name : "";
    result.X_WB = root.X_PB.template cast<Scalar>();
    if (!result.X_WB.matrix().allFinite()) {
      reader.fail(root.element, "body '" + root.name + "': its pose in the world is not finite");
    }
    kept[static_cast<std::size_t>(free_body)] = true;
    for (std::size_t i = 0; i < tree.bodies.size(); ++i) {
      const int parent = tree.bodies[i].parent;
      if (parent >= 0 && kept[static_cast<std::size_t>(parent)]) kept[i] = true;  // parents come first
      if (!kept[i] && parent < 0) {
        reader.warn(tree.bodies[i].element, "body '" + tree.bodies[i].name +
                                                "' is not in the floating base's subtree; skipped with its children");
      }
    }
  } else {
    builder.addLink("world");
  }

  // Links and joints, names checked here so that the messages name the lines.
  std::unordered_map<std::string, const XMLElement*> link_names;
  std::unordered_map<std::string, const XMLElement*> joint_names;
  const auto claim = [&](std::unordered_map<std::string, const XMLElement*>& names, const std::string& name,
                         const XMLElement* element, const char* what) {
    const auto [it, inserted] = names.emplace(name, element);
    if (!inserted) {
      reader.fail(element, std::string(what) + " name '" + name + "' is used twice (first on line " +
                               std::to_string(it->second->GetLineNum()) + ")");
    }
  };
  if (free_body < 0) link_names.emplace("world", mujoco);
  std::vector<std::string> configuration_order;
  std::vector<Scalar> q_ref;
  for (std::size_t i = 0; i < tree.bodies.size(); ++i) {
    if (!kept[i]) continue;
    const auto& body = tree.bodies[i];
    claim(link_names, body.name, body.element, "body");
    LinkSpec<Scalar> link;
    link.name = body.name;
    link.inertial.mass = static_cast<Scalar>(std::max(body.mass, reader.compiler.boundmass));
    link.inertial.p_LCm = body.p_BCm.template cast<Scalar>();
    for (const auto& shape : body.collisions) link.collisions.push_back(internal::castShape<Scalar>(shape));
    builder.addLink(std::move(link));
    for (const auto& mesh : body.meshes) {
      result.mesh_geoms.push_back({mesh.body, mesh.name, mesh.mesh, mesh.X_BG.template cast<Scalar>(), mesh.collides});
    }
    if (static_cast<int>(i) == free_body) continue;
    const std::string parent = body.parent >= 0 ? tree.bodies[static_cast<std::size_t>(body.parent)].name : "world";
    if (body.joints.empty()) {
      JointSpec<Scalar> spec;
      spec.name = body.name + "_fixed";
      spec.type = JointType::kFixed;
      spec.parent_link = parent;
      spec.child_link = body.name;
      spec.X_PJ = body.X_PB.template cast<Scalar>();
      claim(joint_names, spec.name, body.element, "joint");
      builder.addJoint(std::move(spec));
      continue;
    }
    std::string previous = parent;
    for (std::size_t k = 0; k < body.joints.size(); ++k) {
      const auto& joint = body.joints[k];
      claim(joint_names, joint.name, joint.element, "joint");
      JointSpec<Scalar> spec;
      spec.name = joint.name;
      spec.parent_link = previous;
      spec.child_link = k + 1 == body.joints.size() ? body.name : body.name + "::" + joint.name;
      if (k + 1 < body.joints.size()) {
        claim(link_names, spec.child_link, joint.element, "link");
        builder.addLink(spec.child_link);
      }
      // The body moves by the joint's motion at q - ref: fold the -ref part into X_PJ.
      Isometry3<double> X_PJ = k == 0 ? body.X_PB : Isometry3<double>::Identity();
      Isometry3<double> X_JC = Isometry3<double>::Identity();
      if (joint.slide) {
        spec.type = JointType::kPrismatic;
        X_PJ.translate(-joint.ref * joint.axis);
      } else {
        spec.type = joint.limited ? JointType::kRevolute : JointType::kContinuous;
        X_PJ.translate(joint.p_BJ);
        X_PJ.rotate(Eigen::AngleAxisd(-joint.ref, joint.axis).toRotationMatrix());
        X_JC.translation() = -joint.p_BJ;
      }
      spec.X_PJ = X_PJ.template cast<Scalar>();
      spec.X_JC = X_JC.template cast<Scalar>();
      spec.axis = joint.axis.template cast<Scalar>();
      spec.limits.effort = static_cast<Scalar>(joint.effort);
      if (joint.limited) {
        spec.limits.lower = static_cast<Scalar>(joint.lower);
        spec.limits.upper = static_cast<Scalar>(joint.upper);
      }
      configuration_order.push_back(joint.name);
      q_ref.push_back(static_cast<Scalar>(joint.ref));
      previous = spec.child_link;
      builder.addJoint(std::move(spec));
    }
  }

  builder.setConfigurationOrder(std::move(configuration_order));
  try {
    result.model = builder.build();
  } catch (const InvalidArgument& error) {
    // Everything the builder checks is checked above; this keeps the file name if not.
    throw ParseError(name_for_errors, 0, error.what());
  }
  result.q_ref = Eigen::Map<const VectorX<Scalar>>(q_ref.data(), static_cast<Eigen::Index>(q_ref.size()));
  result.warnings = std::move(reader.warnings);
  return result;
}

/// Reads the MJCF file at `path` (see parseMjcf); includes are looked for beside it. Throws
/// ParseError (line 0) when the file cannot be opened.
template <typename Scalar = double>
MjcfResult<Scalar> loadMjcf(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path.string(), 0, "cannot open MJCF file");
  std::ostringstream text;
  text << in.rdbuf();
  const std::filesystem::path directory = path.parent_path();
  return parseMjcf<Scalar>(text.str(), path.string(), directory.empty() ? std::filesystem::path(".") : directory);
}

}  // namespace retarget
