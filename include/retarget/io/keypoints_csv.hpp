#pragma once

/// @file
/// Keypoint CSV: 3D pose-detector output (MediaPipe Pose world landmarks, OpenPose BODY_25 3D)
/// read into canonical `SkeletonMotion`s through a `KeypointSchema` (human/keypoint_schemas.hpp).
///
/// Layout (one row per frame, comma-separated, header required):
///
///     time,nose.x,nose.y,nose.z,nose.visibility,left_eye_inner.x,...
///     0,0.01,-0.6,-0.3,0.99,...
///
/// - `time`: seconds, first column, finite, strictly increasing (shifted to start at 0).
/// - `<keypoint>.x`, `.y`, `.z`: the keypoint in the detector's frame and units (metres for
///   MediaPipe world landmarks; see the schema doc for the axes). Keypoint names are the
///   schema's own (`left_shoulder` for MediaPipe, `LShoulder` for OpenPose).
/// - `<keypoint>.<confidence>` (optional): `visibility` for MediaPipe, `c` for OpenPose, a
///   number in [0, 1].
/// - Columns may come in any order; every keypoint the schema uses needs .x, .y and .z;
///   keypoints the schema does not use may be left out; unknown columns are an error.
/// - CRLF, spaces around fields, a UTF-8 BOM and blank lines are accepted.
///
/// Readers throw `retarget::ParseError` naming file, line and what was expected.

#include <cmath>
#include <fstream>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/keypoint_schemas.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/io/internal/text.hpp>
#include <retarget/io/skeleton_csv.hpp>  // frame-rate estimate

namespace retarget {

/// Settings of the keypoint readers, validated by `validate()`.
struct KeypointReadOptions {
  /// Metres per source unit (1 for metres, 0.001 for millimetres); > 0.
  double scale = 1.0;
  /// Confidence at or above which a keypoint counts as tracked (below: inferred), in [0, 1].
  double tracked_threshold = 0.5;

  /// Throws InvalidArgument naming the field and value when out of range.
  RETARGET_LAZY_DECL void validate() const;
};

/// The built-in keypoint schema whose column names a CSV header (comma-separated, as read)
/// uses, or nullptr: MediaPipe when it has `left_shoulder.x`, OpenPose when it has `LShoulder.x`.
RETARGET_LAZY_DECL const KeypointSchema* detectKeypointSchema(std::string_view header);

/// Reads a keypoint CSV (see the file doc) with `schema` from a stream; `file` names it in
/// errors. Result: canonical frame W, `format` = "keypoints/<schema name>", frame_rate from
/// the median spacing; hand states unknown. Throws ParseError for malformed text and
/// InvalidArgument for invalid options.
RETARGET_LAZY_DECL SkeletonMotion<double> readKeypointCsv(std::istream& in, const KeypointSchema& schema,
                                                     const std::string& file = "<stream>",
                                                     const KeypointReadOptions& options = {});

/// Reads the keypoint CSV at `path` with `schema`. Throws ParseError (also when unreadable).
RETARGET_LAZY_DECL SkeletonMotion<double> readKeypointCsv(const std::string& path, const KeypointSchema& schema,
                                                     const KeypointReadOptions& options = {});

/// Reads a keypoint CSV whose schema is detected from its header (`detectKeypointSchema`).
/// Throws ParseError when the header matches no built-in schema.
RETARGET_LAZY_DECL SkeletonMotion<double> readKeypointCsv(const std::string& path, const KeypointReadOptions& options = {});

#if RETARGET_DEFINE_IO

RETARGET_LAZY_DEF const KeypointSchema* detectKeypointSchema(std::string_view header) {
  std::vector<std::string_view> fields;
  internal::splitFields(header, ',', fields);
  for (const std::string_view field : fields) {
    if (field == "left_shoulder.x") return &mediaPipePoseSchema();
    if (field == "LShoulder.x") return &openPoseBody25Schema();
  }
  return nullptr;
}

RETARGET_LAZY_DEF SkeletonMotion<double> readKeypointCsv(std::istream& in, const KeypointSchema& schema,
                                                     const std::string& file, const KeypointReadOptions& options) {
  options.validate();
  internal::LineReader reader(in, file);
  if (!reader.nextNonEmpty()) reader.fail("expected a header 'time,<keypoint>.x,...', got an empty file");
  std::vector<std::string_view> fields;
  internal::splitFields(reader.line(), ',', fields);
  if (fields[0] != "time") reader.fail("expected the header to start with 'time', got " + internal::quoted(fields[0]));
  const auto keypoint_count = static_cast<int>(schema.keypoint_names.size());
  // column -> (keypoint, component 0..2 for x/y/z, 3 for confidence)
  std::vector<std::pair<int, int>> target(fields.size(), {-1, -1});
  std::vector<std::string> names(fields.size());
  std::vector<int> seen(static_cast<std::size_t>(keypoint_count), 0);
  for (std::size_t c = 1; c < fields.size(); ++c) {
    const std::string_view field = fields[c];
    const std::size_t dot = field.rfind('.');
    const int k = dot == std::string_view::npos ? -1 : schema.findKeypoint(std::string(field.substr(0, dot)));
    const std::string_view suffix = dot == std::string_view::npos ? std::string_view{} : field.substr(dot + 1);
    int component = -1;
    if (suffix == "x" || suffix == "y" || suffix == "z") component = suffix[0] - 'x';
    if (suffix == schema.confidence_name) component = 3;
    if (k < 0 || component < 0) {
      reader.fail("expected '<keypoint>.x|y|z|" + schema.confidence_name + "' with a " + schema.name +
                  " keypoint name in header column " + std::to_string(c + 1) + ", got " + internal::quoted(field));
    }
    if (seen[static_cast<std::size_t>(k)] & (1 << component)) {
      reader.fail("column " + internal::quoted(field) + " appears twice in the header");
    }
    seen[static_cast<std::size_t>(k)] |= 1 << component;
    target[c] = {k, component};
    names[c] = std::string(field);
  }
  std::vector<bool> used(static_cast<std::size_t>(keypoint_count), false);
  for (const KeypointJointSource& source : schema.joints) {
    for (int t = 0; t < source.count; ++t) used[static_cast<std::size_t>(source.terms[static_cast<std::size_t>(t)].keypoint)] = true;
  }
  for (int k = 0; k < keypoint_count; ++k) {
    const int s = seen[static_cast<std::size_t>(k)] & 7;
    if ((used[static_cast<std::size_t>(k)] && s != 7) || (s != 0 && s != 7) ||
        (s == 0 && (seen[static_cast<std::size_t>(k)] & 8))) {
      reader.fail("expected columns " + schema.keypoint_names[static_cast<std::size_t>(k)] + ".x, .y and .z (" +
                  schema.name + " needs this keypoint)");
    }
  }

  SkeletonMotion<double> motion;
  motion.format = "keypoints/" + schema.name;
  Eigen::Matrix3Xd p_S = Eigen::Matrix3Xd::Zero(3, keypoint_count);
  Eigen::VectorXd confidence = Eigen::VectorXd::Zero(keypoint_count);
  std::vector<TrackingState> state(static_cast<std::size_t>(keypoint_count), TrackingState::kNotTracked);
  internal::CsvRowTimes times;
  while (reader.nextNonEmpty()) {
    const double time = internal::splitTimedCsvRow(reader, target.size(), times, fields);
    for (std::size_t c = 1; c < fields.size(); ++c) {
      const double value = internal::parseFiniteOrFail(reader, fields[c], c + 1, names[c]);
      const auto [k, component] = target[c];
      if (component == 3) {
        if (value < 0 || value > 1) {
          reader.fail("expected a confidence in [0, 1] in column " + std::to_string(c + 1) + " (" + names[c] + "), got " +
                      internal::quoted(fields[c]));
        }
        confidence[k] = value;
      } else {
        p_S(component, k) = value;
      }
    }
    for (int k = 0; k < keypoint_count; ++k) {
      state[static_cast<std::size_t>(k)] =
          keypointState(schema, p_S.col(k), (seen[static_cast<std::size_t>(k)] & 8) != 0, confidence[k], options.tracked_threshold);
    }
    SkeletonFrame<double>& frame = motion.frames.emplace_back();
    frame.time = time - times.first;
    keypointsToSkeleton(schema, p_S, state, options.scale, frame);
  }
  motion.frame_rate = internal::medianFrameRate(motion.frames);
  return motion;
}

RETARGET_LAZY_DEF SkeletonMotion<double> readKeypointCsv(const std::string& path, const KeypointSchema& schema,
                                                     const KeypointReadOptions& options) {
  std::ifstream in = internal::openForReading(path);
  return readKeypointCsv(in, schema, path, options);
}

RETARGET_LAZY_DEF SkeletonMotion<double> readKeypointCsv(const std::string& path, const KeypointReadOptions& options) {
  std::ifstream in = internal::openForReading(path);
  std::size_t line_number = 0;
  const KeypointSchema* schema = detectKeypointSchema(internal::peekFirstNonBlankLine(in, line_number));
  if (schema == nullptr) {
    throw ParseError(path, line_number,
                     "expected a MediaPipe (left_shoulder.x, ...) or OpenPose BODY_25 (LShoulder.x, ...) header");
  }
  return readKeypointCsv(in, *schema, path, options);
}

RETARGET_LAZY_DEF void KeypointReadOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(scale) && scale > 0, InvalidArgument, "scale must be positive (got ", scale,
                        ", expected > 0 metres per unit)");
  RETARGET_THROW_UNLESS(tracked_threshold >= 0 && tracked_threshold <= 1, InvalidArgument,
                        "tracked_threshold out of range (got ", tracked_threshold, ", expected 0 ... 1)");
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
