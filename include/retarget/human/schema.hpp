#pragma once

/// @file
/// Skeleton schemas: how the joints of a source skeleton (a BVH rig, a keypoint detector) map
/// onto the canonical human skeleton (human/skeleton.hpp), plus the fixed rotation and scale
/// from the source's native frame into the canonical frame (metres, x forward, y left, z up).
///
/// Users add a schema without code through a small text format (`readSchema`, `parseSchema`):
///
/// ```
/// # comment (also after a value)
/// name: my-rig                      # required, used in messages and SkeletonMotion::format
/// frame: forward=+Z left=+X up=+Y   # source axis for each canonical axis (default +X +Y +Z)
/// scale: 0.01                       # metres per source unit (default 1)
/// SpineBase = Hips                  # canonical joint = one source joint
/// SpineMid = Spine1 Spine2 0.5      # = (1 - w) * Spine1 + w * Spine2, w in [0, 1]
/// HandTipLeft = LeftHandMiddle3_End # End Sites of BVH files are named "<parent>_End"
/// ```
///
/// Canonical joint names are the Kinect v2 SDK names (`kHumanJointNames`). Source names are
/// matched exactly, or else by their part after the last ':' (so "Hips" also matches
/// "mixamorig:Hips" and "rig1:Hips"). Canonical joints without a line are not tracked.

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/line_reader.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Where one canonical joint comes from: source joint `first`, or the blend
/// (1 - weight) * first + weight * second of two source joint positions.
struct SchemaJointSource {
  /// Name of the first (or only) source joint.
  std::string first;
  /// Name of the second source joint; empty for a single joint.
  std::string second;
  /// Blend weight of `second`, in [0, 1]; 0 when `second` is empty.
  double weight = 0;

  friend bool operator==(const SchemaJointSource& a, const SchemaJointSource& b) {
    return a.first == b.first && a.second == b.second && a.weight == b.weight;
  }
};

/// A mapping from a source skeleton onto the canonical skeleton.
///
/// A source point p_S (source units, source frame S) becomes p_W = scale * R_WS * p_S (metres,
/// canonical frame W); a source joint orientation R_SJ becomes R_WJ = R_WS * R_SJ.
/// Invariants (checked by `validateSchema`): non-empty name, R_WS a rotation (orthonormal, det +1;
/// the text format writes axis-aligned ones), scale finite and > 0, every mapped joint has a non-empty first source and a
/// weight in [0, 1] (0 when it has no second source).
struct SkeletonSchema {
  /// Schema name, e.g. "axis-neuron".
  std::string name;
  /// Source of each canonical joint, indexed by `HumanJoint`; nullopt: not provided.
  std::array<std::optional<SchemaJointSource>, kHumanJointCount> joints{};
  /// Rotation from the source frame S into the canonical frame W (row i = the source axis that
  /// becomes canonical axis i).
  Eigen::Matrix3d R_WS = Eigen::Matrix3d::Identity();
  /// Metres per source length unit.
  double scale = 1.0;

  /// Source of a canonical joint, nullptr when the schema does not provide it.
  RETARGET_LAZY_DECL const SchemaJointSource* source(HumanJoint joint) const;
  /// Sets a canonical joint to one source joint.
  RETARGET_LAZY_DECL void set(HumanJoint joint, std::string first);
  /// Sets a canonical joint to the blend (1 - weight) * first + weight * second.
  RETARGET_LAZY_DECL void set(HumanJoint joint, std::string first, std::string second, double weight);
  /// Every distinct source joint name the schema refers to, in canonical joint order.
  RETARGET_LAZY_DECL std::vector<std::string> sourceNames() const;
};

/// True when a source joint name `candidate` matches the schema name `wanted`: equal, or equal
/// after dropping everything up to the last ':' of `candidate` (a namespace such as "mixamorig:").
RETARGET_LAZY_DECL bool schemaNameMatches(std::string_view candidate, std::string_view wanted);

/// Checks the invariants of `SkeletonSchema` (see its doc). Throws `retarget::InvalidArgument`.
RETARGET_LAZY_DECL void validateSchema(const SkeletonSchema& schema);

namespace internal {

/// Parses "+X", "-z", "X" into a signed unit row; false on failure.
RETARGET_LAZY_DECL bool schemaAxis(std::string_view text, Eigen::RowVector3d& row);

RETARGET_LAZY_DECL const char* schemaAxisName(const Eigen::RowVector3d& row);

/// Parses the schema text of `reader` (format at the top of this header); see parseSchema.
RETARGET_LAZY_DECL SkeletonSchema parseSchemaLines(LineReader& reader);

}  // namespace internal

/// Parses a schema from text in the format documented at the top of this header. `file` names
/// the source in error messages. Throws `retarget::ParseError` naming file, line and what was
/// expected (unknown canonical joint, duplicate line, bad weight, bad or left-handed frame, bad
/// scale, missing name).
RETARGET_LAZY_DECL SkeletonSchema parseSchema(std::string_view text, const std::string& file = "<string>");

/// Reads a schema file (format at the top of this header). Throws `retarget::ParseError` naming
/// the file and line.
RETARGET_LAZY_DECL SkeletonSchema readSchema(const std::filesystem::path& path);

/// Formats a schema in the text format read by `parseSchema` (parseSchema(formatSchema(s))
/// reproduces `s`; weights are printed with 17 significant digits). Throws
/// `retarget::InvalidArgument` when the schema is invalid or its frame is not axis-aligned (the
/// text format names signed axes only).
RETARGET_LAZY_DECL std::string formatSchema(const SkeletonSchema& schema);

#if RETARGET_DEFINE_HUMAN

RETARGET_LAZY_DEF bool schemaNameMatches(std::string_view candidate, std::string_view wanted) {
  if (candidate == wanted) return true;
  const std::size_t colon = candidate.rfind(':');
  return colon != std::string_view::npos && candidate.substr(colon + 1) == wanted;
}

RETARGET_LAZY_DEF void validateSchema(const SkeletonSchema& schema) {
  RETARGET_THROW_UNLESS(!schema.name.empty(), InvalidArgument, "schema name is empty, expected a name");
  RETARGET_THROW_UNLESS(std::isfinite(schema.scale) && schema.scale > 0, InvalidArgument, "schema '", schema.name,
                        "' scale is ", schema.scale, ", expected a finite value > 0");
  RETARGET_THROW_UNLESS(schema.R_WS.allFinite() &&
                            (schema.R_WS.transpose() * schema.R_WS - Eigen::Matrix3d::Identity()).norm() < 1e-9 &&
                            std::abs(schema.R_WS.determinant() - 1.0) < 1e-9,
                        InvalidArgument, "schema '", schema.name, "' R_WS is not a rotation (got det ",
                        schema.R_WS.determinant(), ", expected an orthonormal matrix with det +1)");
  for (int i = 0; i < kHumanJointCount; ++i) {
    const auto& entry = schema.joints[static_cast<std::size_t>(i)];
    if (!entry) continue;
    const std::string_view joint = kHumanJointNames[static_cast<std::size_t>(i)];
    RETARGET_THROW_UNLESS(!entry->first.empty(), InvalidArgument, "schema '", schema.name, "' joint ", joint,
                          " has an empty source name");
    RETARGET_THROW_UNLESS(entry->weight >= 0 && entry->weight <= 1, InvalidArgument, "schema '", schema.name,
                          "' joint ", joint, " weight is ", entry->weight, ", expected a value in [0, 1]");
    RETARGET_THROW_UNLESS(!entry->second.empty() || entry->weight == 0, InvalidArgument, "schema '", schema.name,
                          "' joint ", joint, " has weight ", entry->weight, " but no second source, expected 0");
  }
}

namespace internal {

RETARGET_LAZY_DEF bool schemaAxis(std::string_view text, Eigen::RowVector3d& row) {
  double sign = 1;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    sign = text[0] == '-' ? -1 : 1;
    text.remove_prefix(1);
  }
  if (text.size() != 1) return false;
  const char c = toLowerAscii(text[0]);
  if (c < 'x' || c > 'z') return false;
  row.setZero();
  row[c - 'x'] = sign;
  return true;
}

RETARGET_LAZY_DEF const char* schemaAxisName(const Eigen::RowVector3d& row) {
  static const char* const kNames[] = {"-X", "+X", "-Y", "+Y", "-Z", "+Z"};
  for (int c = 0; c < 3; ++c) {
    if (row[c] != 0) return kNames[2 * c + (row[c] > 0 ? 1 : 0)];
  }
  return "?";
}

RETARGET_LAZY_DEF SkeletonSchema parseSchemaLines(LineReader& reader) {
  SkeletonSchema schema;
  std::array<bool, 3> frame_seen{};
  std::vector<std::string_view> parts;
  while (reader.next()) {
    std::string_view line = reader.line();
    if (const auto hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const auto equals = line.find('=');
    const auto colon = line.find(':');
    const bool is_setting = colon != std::string_view::npos && (equals == std::string_view::npos || colon < equals) &&
                            splitWhitespace(line.substr(0, colon)).size() == 1;
    if (is_setting) {
      const std::string_view key = trim(line.substr(0, colon));
      const std::string_view value = trim(line.substr(colon + 1));
      if (key == "name") {
        if (value.empty()) reader.fail("expected a schema name after 'name:'");
        schema.name = std::string(value);
      } else if (key == "scale") {
        double scale = 0;
        if (!parseFinite(value, scale) || !(scale > 0)) {
          reader.fail("expected a positive scale in metres per unit, got '" + std::string(value) + "'");
        }
        schema.scale = scale;
      } else if (key == "frame") {
        frame_seen = {};
        splitWhitespace(value, parts);
        for (std::string_view part : parts) {
          const auto eq = part.find('=');
          const std::string_view axis_name = eq == std::string_view::npos ? part : part.substr(0, eq);
          int row = -1;
          if (axis_name == "forward") row = 0;
          if (axis_name == "left") row = 1;
          if (axis_name == "up") row = 2;
          Eigen::RowVector3d axis;
          if (row < 0 || eq == std::string_view::npos || !schemaAxis(part.substr(eq + 1), axis)) {
            reader.fail("expected 'forward=<axis> left=<axis> up=<axis>' with axes such as +X or -Z, got '" +
                        std::string(part) + "'");
          }
          schema.R_WS.row(row) = axis;
          frame_seen[static_cast<std::size_t>(row)] = true;
        }
        if (!(frame_seen[0] && frame_seen[1] && frame_seen[2])) reader.fail("expected forward=, left= and up= in 'frame:'");
        if (std::abs(schema.R_WS.determinant() - 1.0) > 1e-12) {
          reader.fail("frame forward=" + std::string(schemaAxisName(schema.R_WS.row(0))) + " left=" +
                      schemaAxisName(schema.R_WS.row(1)) + " up=" + schemaAxisName(schema.R_WS.row(2)) +
                      " is not a right-handed rotation, expected forward x left = up");
        }
      } else {
        reader.fail("unknown setting '" + std::string(key) + "', expected name, frame or scale");
      }
      continue;
    }
    if (equals == std::string_view::npos) {
      reader.fail("expected '<CanonicalJoint> = <source> [<source2> <weight>]' or a setting, got '" + std::string(line) +
                  "'");
    }
    const std::string_view joint_name = trim(line.substr(0, equals));
    const auto joint = humanJointFromName(joint_name);
    if (!joint) {
      reader.fail("unknown canonical joint '" + std::string(joint_name) +
                  "', expected a Kinect v2 name such as SpineBase");
    }
    splitWhitespace(line.substr(equals + 1), parts);
    auto& entry = schema.joints[static_cast<std::size_t>(index(*joint))];
    if (entry) reader.fail("canonical joint " + std::string(joint_name) + " is mapped twice");
    if (parts.size() == 1) {
      schema.set(*joint, std::string(parts[0]));
    } else if (parts.size() == 3) {
      double weight = -1;
      if (!parseFinite(parts[2], weight) || !(weight >= 0 && weight <= 1)) {
        reader.fail("expected a blend weight in [0, 1], got '" + std::string(parts[2]) + "'");
      }
      schema.set(*joint, std::string(parts[0]), std::string(parts[1]), weight);
    } else {
      reader.fail("expected one source joint, or two and a weight, after '" + std::string(joint_name) + " =', got " +
                  std::to_string(parts.size()) + " items");
    }
  }
  if (schema.name.empty()) throw ParseError(reader.file(), 0, "missing 'name: <schema name>'");
  return schema;
}

}  // namespace internal

RETARGET_LAZY_DEF SkeletonSchema parseSchema(std::string_view text, const std::string& file) {
  internal::LineReader reader(text, file);
  return internal::parseSchemaLines(reader);
}

RETARGET_LAZY_DEF SkeletonSchema readSchema(const std::filesystem::path& path) {
  std::ifstream in = internal::openForReading(path.string(), "the schema file");
  internal::LineReader reader(in, path.string());
  return internal::parseSchemaLines(reader);
}

RETARGET_LAZY_DEF std::string formatSchema(const SkeletonSchema& schema) {
  validateSchema(schema);
  for (int r = 0; r < 3; ++r) {
    const double nonzero = static_cast<double>((schema.R_WS.row(r).array() != 0).count());
    RETARGET_THROW_UNLESS(nonzero == 1 && schema.R_WS.row(r).cwiseAbs().sum() == 1, InvalidArgument, "schema '",
                          schema.name, "' R_WS row ", r, " is not a signed unit axis, expected an axis-aligned frame");
  }
  std::ostringstream out;
  out.precision(17);
  out << "name: " << schema.name << "\n";
  out << "frame: forward=" << internal::schemaAxisName(schema.R_WS.row(0))
      << " left=" << internal::schemaAxisName(schema.R_WS.row(1))
      << " up=" << internal::schemaAxisName(schema.R_WS.row(2)) << "\n";
  out << "scale: " << schema.scale << "\n";
  for (int i = 0; i < kHumanJointCount; ++i) {
    const auto& entry = schema.joints[static_cast<std::size_t>(i)];
    if (!entry) continue;
    out << kHumanJointNames[static_cast<std::size_t>(i)] << " = " << entry->first;
    if (!entry->second.empty()) out << " " << entry->second << " " << entry->weight;
    out << "\n";
  }
  return out.str();
}

RETARGET_LAZY_DEF const SchemaJointSource* SkeletonSchema::source(HumanJoint joint) const {
  const auto& entry = joints[static_cast<std::size_t>(joint)];
  return entry ? &*entry : nullptr;
}

RETARGET_LAZY_DEF void SkeletonSchema::set(HumanJoint joint, std::string first) {
  joints[static_cast<std::size_t>(joint)] = SchemaJointSource{std::move(first), {}, 0.0};
}

RETARGET_LAZY_DEF void SkeletonSchema::set(HumanJoint joint, std::string first, std::string second, double weight) {
  joints[static_cast<std::size_t>(joint)] = SchemaJointSource{std::move(first), std::move(second), weight};
}

RETARGET_LAZY_DEF std::vector<std::string> SkeletonSchema::sourceNames() const {
  std::vector<std::string> names;
  auto add = [&names](const std::string& n) {
    if (!n.empty() && std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  for (const auto& entry : joints) {
    if (entry) {
      add(entry->first);
      add(entry->second);
    }
  }
  return names;
}

#endif  // RETARGET_DEFINE_HUMAN

}  // namespace retarget
