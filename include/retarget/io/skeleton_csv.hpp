#pragma once

/// @file
/// Skeleton CSV: retarget's own text format for human motion in the canonical frame.
///
/// Layout:
///
///     time,SpineBase.x,SpineBase.y,SpineBase.z,SpineBase.state,SpineMid.x,...,HandLeft.hand,...
///     0,-2.69,-0.011,-0.368,2,...
///
/// - First column `time`: seconds. Rows are frames; times are finite and strictly increasing.
///   On reading, times are shifted so that the first frame is at 0 (a file written from a
///   motion that starts at 0 reads back bit for bit).
/// - `<Joint>.x`, `<Joint>.y`, `<Joint>.z`: position in metres in the canonical frame W
///   (x forward, y left, z up). `<Joint>` is a canonical joint name (`SpineBase`,
///   `ShoulderLeft`, ... the 25 Kinect v2 SDK names) or any other name without commas, which
///   becomes an *extra joint* (fingers, toes; `SkeletonMotion::extra_joint_names`). Each named
///   joint needs all three of .x, .y, .z.
/// - `<Joint>.state` (optional, core joints only): tracking state 0 not tracked, 1 inferred,
///   2 tracked. Without the column the joint is tracked. Core joints with no columns at all
///   are not tracked (position zero).
/// - `HandLeft.hand`, `HandRight.hand` (optional): hand state 0 unknown, 1 open, 2 closed.
/// - Columns may come in any order after `time`; no column may repeat. Orientations and head
///   angles are not stored (use a BVH or Kinect TXT for those).
/// - Comma-separated; spaces around fields, CRLF, a UTF-8 BOM and empty lines are accepted on
///   reading. The writer uses LF and the shortest decimal that reads back to the same double,
///   so write -> read is exact.
///
/// Readers throw `retarget::ParseError` naming file, line and what was expected.

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/io/internal/text.hpp>

namespace retarget {

/// What `writeSkeletonCsv` writes besides time and positions.
struct SkeletonCsvWriteOptions {
  /// Write a `<Joint>.state` column for every core joint.
  bool tracking_states = true;
  /// Write `HandLeft.hand` and `HandRight.hand` columns.
  bool hand_states = true;
  /// Write the motion's extra joints.
  bool extra_joints = true;
};

namespace internal {

/// Appends the header of the core columns (time, positions, states, hands; no extra joints,
/// no line end) as `options` selects them.
RETARGET_LAZY_DECL void appendSkeletonCsvHeader(std::string& line, const SkeletonCsvWriteOptions& options);

/// Appends one frame's core columns (no extra joints, no line end); positions that are not
/// finite are written as 0 (the caller checks that only untracked joints have them). Does not
/// allocate when `line` has room for the row.
RETARGET_LAZY_DECL void appendSkeletonCsvRow(std::string& line, const SkeletonFrame<double>& frame,
                                        const SkeletonCsvWriteOptions& options);

/// Parses a tracking state field (Kinect numbering) (0, 1 or 2) or fails naming the joint.
RETARGET_LAZY_DECL TrackingState parseTrackingStateOrFail(const LineReader& reader, std::string_view field,
                                                     std::size_t column, HumanJoint joint);

/// Nominal frame rate (Hz) from the median frame spacing of increasing times; 0 when unknown.
RETARGET_LAZY_DECL double medianFrameRate(const std::vector<SkeletonFrame<double>>& frames);

/// Where one skeleton-CSV column goes.
struct SkeletonCsvColumn {
  enum class Kind { kTime, kPosition, kState, kHand, kExtra } kind = Kind::kTime;
  int joint = 0;  // core joint index, extra joint index, or 0/1 for left/right hand
  int axis = 0;   // 0, 1, 2 for .x, .y, .z
};

}  // namespace internal

/// Reads a skeleton CSV (see the file doc) from a stream; `file` names it in errors.
/// Result: `format` = "skeleton-csv", frame_rate from the median frame spacing.
/// Throws ParseError on a bad header (first column not `time`, unknown suffix, repeated
/// column, a joint missing one of .x/.y/.z, a .state column for an extra joint), a row with
/// the wrong number of values, a non-finite number, a tracking/hand state outside its range,
/// or a time that does not increase.
RETARGET_LAZY_DECL SkeletonMotion<double> readSkeletonCsv(std::istream& in, const std::string& file = "<stream>");

/// Reads the skeleton CSV at `path`. Throws ParseError (also when the file is unreadable).
RETARGET_LAZY_DECL SkeletonMotion<double> readSkeletonCsv(const std::string& path);

/// Writes `motion` as skeleton CSV (LF, shortest exact decimals): time, then x, y, z (and
/// .state) of the 25 core joints in `HumanJoint` order, then hand states, then extra joints.
/// Positions of not-tracked joints that are not finite are written as 0.
/// Throws InvalidArgument when times are not finite and strictly increasing, a tracked or
/// inferred position is not finite, or extra joints are inconsistent with the frames.
RETARGET_LAZY_DECL void writeSkeletonCsv(const SkeletonMotion<double>& motion, std::ostream& out,
                                    const SkeletonCsvWriteOptions& options = {});

/// Writes `motion` as skeleton CSV to `path`. Throws InvalidArgument (bad motion) or Error
/// (file not writable).
RETARGET_LAZY_DECL void writeSkeletonCsv(const SkeletonMotion<double>& motion, const std::string& path,
                                    const SkeletonCsvWriteOptions& options = {});

#if RETARGET_DEFINE_IO

namespace internal {

RETARGET_LAZY_DEF void appendSkeletonCsvHeader(std::string& line, const SkeletonCsvWriteOptions& options) {
  line += "time";
  for (int j = 0; j < kHumanJointCount; ++j) {
    const std::string_view joint_name = name(static_cast<HumanJoint>(j));
    for (const char* axis : {".x", ".y", ".z"}) line.append(",").append(joint_name).append(axis);
    if (options.tracking_states) line.append(",").append(joint_name).append(".state");
  }
  if (options.hand_states) line += ",HandLeft.hand,HandRight.hand";
}

RETARGET_LAZY_DEF void appendSkeletonCsvRow(std::string& line, const SkeletonFrame<double>& frame,
                                        const SkeletonCsvWriteOptions& options) {
  appendNumber(line, frame.time);
  for (int j = 0; j < kHumanJointCount; ++j) {
    const auto J = static_cast<std::size_t>(j);
    for (int k = 0; k < 3; ++k) {
      line += ',';
      appendNumber(line, std::isfinite(frame.p_W[J][k]) ? frame.p_W[J][k] : 0.0);
    }
    if (options.tracking_states) {
      line += ',';
      line += static_cast<char>('0' + static_cast<int>(frame.state[J]));
    }
  }
  if (options.hand_states) {
    line += ',';
    line += static_cast<char>('0' + static_cast<int>(frame.left_hand));
    line += ',';
    line += static_cast<char>('0' + static_cast<int>(frame.right_hand));
  }
}

RETARGET_LAZY_DEF TrackingState parseTrackingStateOrFail(const LineReader& reader, std::string_view field,
                                                     std::size_t column, HumanJoint joint) {
  if (field == "0") return TrackingState::kNotTracked;
  if (field == "1") return TrackingState::kInferred;
  if (field == "2") return TrackingState::kTracked;
  reader.fail("expected a tracking state 0, 1 or 2 in column " + std::to_string(column) + " (" +
              std::string(name(joint)) + ".state), got " + internal::quoted(field));
}

RETARGET_LAZY_DEF double medianFrameRate(const std::vector<SkeletonFrame<double>>& frames) {
  if (frames.size() < 2) return 0.0;
  std::vector<double> dt;
  dt.reserve(frames.size() - 1);
  for (std::size_t i = 1; i < frames.size(); ++i) dt.push_back(frames[i].time - frames[i - 1].time);
  std::nth_element(dt.begin(), dt.begin() + static_cast<std::ptrdiff_t>(dt.size() / 2), dt.end());
  const double median = dt[dt.size() / 2];
  return median > 0 ? 1.0 / median : 0.0;
}

}  // namespace internal

RETARGET_LAZY_DEF SkeletonMotion<double> readSkeletonCsv(std::istream& in, const std::string& file) {
  using Column = internal::SkeletonCsvColumn;
  internal::LineReader reader(in, file);
  if (!reader.nextNonEmpty()) reader.fail("expected a header 'time,<Joint>.x,<Joint>.y,<Joint>.z,...', got an empty file");
  std::vector<std::string_view> fields;
  internal::splitFields(reader.line(), ',', fields);
  if (fields[0] != "time") reader.fail("expected the header to start with 'time', got " + internal::quoted(fields[0]));

  SkeletonMotion<double> motion;
  motion.format = "skeleton-csv";
  std::vector<Column> columns(fields.size());
  std::vector<std::string> names(fields.size());
  std::array<int, kHumanJointCount> axes_seen{};  // bit mask of .x/.y/.z per core joint
  std::vector<int> extra_axes_seen;
  for (std::size_t c = 1; c < fields.size(); ++c) {
    const std::string_view field = fields[c];
    const std::string where = "header column " + std::to_string(c + 1);
    if (!internal::isPrintableAscii(field)) reader.fail("expected a printable column name in " + where + ", got " + internal::quoted(field));
    for (std::size_t k = 1; k < c; ++k) {
      if (fields[k] == field) reader.fail("column " + internal::quoted(field) + " appears twice (columns " +
                                          std::to_string(k + 1) + " and " + std::to_string(c + 1) + ")");
    }
    const std::size_t dot = field.rfind('.');
    if (dot == std::string_view::npos || dot == 0) {
      reader.fail("expected '<Joint>.x|y|z|state' or 'HandLeft|HandRight.hand' in " + where + ", got " + internal::quoted(field));
    }
    const std::string_view joint_name = field.substr(0, dot);
    const std::string_view suffix = field.substr(dot + 1);
    const auto core = humanJointFromName(joint_name);
    Column& column = columns[c];
    if (suffix == "x" || suffix == "y" || suffix == "z") {
      column.axis = suffix[0] - 'x';
      if (core) {
        column.kind = Column::Kind::kPosition;
        column.joint = index(*core);
        axes_seen[static_cast<std::size_t>(column.joint)] |= 1 << column.axis;
      } else {
        column.kind = Column::Kind::kExtra;
        std::size_t e = 0;
        while (e < motion.extra_joint_names.size() && motion.extra_joint_names[e] != joint_name) ++e;
        if (e == motion.extra_joint_names.size()) {
          motion.extra_joint_names.emplace_back(joint_name);
          extra_axes_seen.push_back(0);
        }
        column.joint = static_cast<int>(e);
        extra_axes_seen[e] |= 1 << column.axis;
      }
    } else if (suffix == "state") {
      if (!core) reader.fail("expected a canonical joint name before '.state' in " + where + ", got " + internal::quoted(field));
      column.kind = Column::Kind::kState;
      column.joint = index(*core);
    } else if (suffix == "hand" && (joint_name == "HandLeft" || joint_name == "HandRight")) {
      column.kind = Column::Kind::kHand;
      column.joint = joint_name == "HandLeft" ? 0 : 1;
    } else {
      reader.fail("expected a column suffix .x, .y, .z, .state (or .hand on HandLeft/HandRight) in " + where +
                  ", got " + internal::quoted(field));
    }
    names[c] = std::string(field);
  }
  std::array<bool, kHumanJointCount> has_state{};
  for (const Column& column : columns) {
    if (column.kind == Column::Kind::kState) has_state[static_cast<std::size_t>(column.joint)] = true;
  }
  for (int j = 0; j < kHumanJointCount; ++j) {
    const int seen = axes_seen[static_cast<std::size_t>(j)];
    if ((seen != 0 && seen != 7) || (seen == 0 && has_state[static_cast<std::size_t>(j)])) {
      reader.fail("expected columns " + std::string(name(static_cast<HumanJoint>(j))) + ".x, .y and .z together");
    }
  }
  for (std::size_t e = 0; e < extra_axes_seen.size(); ++e) {
    if (extra_axes_seen[e] != 7) reader.fail("expected columns " + motion.extra_joint_names[e] + ".x, .y and .z together");
  }

  const auto extra_count = static_cast<Eigen::Index>(motion.extra_joint_names.size());
  internal::CsvRowTimes times;
  while (reader.nextNonEmpty()) {
    const double time = internal::splitTimedCsvRow(reader, columns.size(), times, fields);
    SkeletonFrame<double>& frame = motion.frames.emplace_back();
    frame.time = time - times.first;
    for (int j = 0; j < kHumanJointCount; ++j) {
      if (axes_seen[static_cast<std::size_t>(j)] != 0) frame.state[static_cast<std::size_t>(j)] = TrackingState::kTracked;
    }
    if (extra_count > 0) motion.extra_p_W.emplace_back(3, extra_count);
    for (std::size_t c = 1; c < columns.size(); ++c) {
      const Column& column = columns[c];
      const std::string_view field = fields[c];
      switch (column.kind) {
        case Column::Kind::kPosition:
          frame.p_W[static_cast<std::size_t>(column.joint)][column.axis] = internal::parseFiniteOrFail(reader, field, c + 1, names[c]);
          break;
        case Column::Kind::kExtra:
          motion.extra_p_W.back()(column.axis, column.joint) = internal::parseFiniteOrFail(reader, field, c + 1, names[c]);
          break;
        case Column::Kind::kState:
          frame.state[static_cast<std::size_t>(column.joint)] =
              internal::parseTrackingStateOrFail(reader, field, c + 1, static_cast<HumanJoint>(column.joint));
          break;
        case Column::Kind::kHand: {
          HandState state = HandState::kUnknown;
          if (field == "1") {
            state = HandState::kOpen;
          } else if (field == "2") {
            state = HandState::kClosed;
          } else if (field != "0") {
            reader.fail("expected a hand state 0, 1 or 2 in column " + std::to_string(c + 1) + " (" + names[c] +
                        "), got " + internal::quoted(field));
          }
          (column.joint == 0 ? frame.left_hand : frame.right_hand) = state;
          break;
        }
        case Column::Kind::kTime:
          break;
      }
    }
  }
  motion.frame_rate = internal::medianFrameRate(motion.frames);
  return motion;
}

RETARGET_LAZY_DEF SkeletonMotion<double> readSkeletonCsv(const std::string& path) {
  std::ifstream in = internal::openForReading(path);
  return readSkeletonCsv(in, path);
}

RETARGET_LAZY_DEF void writeSkeletonCsv(const SkeletonMotion<double>& motion, std::ostream& out,
                                    const SkeletonCsvWriteOptions& options) {
  const bool extras = options.extra_joints && !motion.extra_joint_names.empty();
  const auto extra_count = static_cast<Eigen::Index>(motion.extra_joint_names.size());
  if (extras) {
    RETARGET_THROW_UNLESS(motion.extra_p_W.size() == motion.frames.size(), InvalidArgument,
                          "extra_p_W must have one matrix per frame (got ", motion.extra_p_W.size(), ", expected ",
                          motion.frames.size(), ")");
    for (const std::string& extra : motion.extra_joint_names) {
      RETARGET_THROW_UNLESS(!extra.empty() && internal::isPrintableAscii(extra) && extra.find(',') == std::string::npos &&
                                !humanJointFromName(extra),
                            InvalidArgument, "extra joint name must be printable, without commas and not a core joint (got ",
                            internal::quoted(extra), ")");
    }
  }
  std::string line;
  internal::appendSkeletonCsvHeader(line, options);
  if (extras) {
    for (const std::string& extra : motion.extra_joint_names) line += "," + extra + ".x," + extra + ".y," + extra + ".z";
  }
  line += '\n';
  out << line;
  for (std::size_t i = 0; i < motion.frames.size(); ++i) {
    const SkeletonFrame<double>& frame = motion.frames[i];
    RETARGET_THROW_UNLESS(std::isfinite(frame.time) && (i == 0 || frame.time > motion.frames[i - 1].time), InvalidArgument,
                          "frame times must be finite and increase (frame ", i, " at ", frame.time, " s)");
    for (int j = 0; j < kHumanJointCount; ++j) {
      const auto J = static_cast<std::size_t>(j);
      RETARGET_THROW_UNLESS(frame.state[J] == TrackingState::kNotTracked || frame.p_W[J].allFinite(), InvalidArgument,
                            "frame ", i, ": joint ", name(static_cast<HumanJoint>(j)),
                            " is tracked but its position is not finite");
    }
    line.clear();
    internal::appendSkeletonCsvRow(line, frame, options);
    if (extras) {
      const Matrix3X<double>& extra = motion.extra_p_W[i];
      RETARGET_THROW_UNLESS(extra.cols() == extra_count && extra.allFinite(), InvalidArgument, "frame ", i,
                            ": extra joint positions must be finite and 3 x ", extra_count);
      for (Eigen::Index e = 0; e < extra_count; ++e) {
        for (int k = 0; k < 3; ++k) {
          line += ',';
          internal::appendNumber(line, extra(k, e));
        }
      }
    }
    line += '\n';
    out << line;
  }
}

RETARGET_LAZY_DEF void writeSkeletonCsv(const SkeletonMotion<double>& motion, const std::string& path,
                                    const SkeletonCsvWriteOptions& options) {
  std::ofstream out = internal::openForWriting(path);
  writeSkeletonCsv(motion, out, options);
  internal::finishWriting(out, path);
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
