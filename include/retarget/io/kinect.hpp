#pragma once

/// @file
/// Kinect v2 skeleton recordings: read into canonical `SkeletonMotion`s and write back.
///
/// Two text layouts, both one body per line, 25 joints in Kinect v2 `JointType` order
/// (the order of `HumanJoint`), positions in Kinect camera space (metres):
///
/// - **Laban CSV** (microsoft/LabanotationSuite KinectReader): comma-separated, no header,
///   `timestamp, then 25 x (x, y, z, trackingState)` = 101 fields, usually followed by a
///   trailing comma. The timestamp is the sensor clock in 100-ns ticks (an integer); tracking
///   states are 0 (not tracked), 1 (inferred), 2 (tracked). No orientations.
/// - **Keraal TXT** (nguyensmai/KeraalDataset): space-separated, no header, no timestamps,
///   `25 x (x, y, z, qx, qy, qz, qw)` = 175 values, usually a trailing space and CRLF. The
///   quaternion (x, y, z, w order) is the joint's orientation in camera space; leaf joints
///   (Head, FootLeft/Right, HandTip*, Thumb*) store 0 0 0 0 (no orientation). No tracking
///   states: every joint is reported tracked. Frames are taken to be evenly spaced at
///   `frame_rate` (nominally 30 Hz).
///
/// Conversion into the canonical frame W uses the fixed rotation of human/frames.hpp
/// (p_W = R_WK p_K, R_WJ = R_WK R_KJ; origin at the sensor). Times become seconds from the
/// first frame. A joint whose source quaternion is all zeros gets R_WJ = identity; the writers
/// write 0 0 0 0 for Kinect leaf joints (and for every joint of a motion without orientations),
/// so Kinect -> canonical -> Kinect reproduces the original values.
///
/// Readers throw `retarget::ParseError` naming file, line and what was expected (value count,
/// finite number, tracking state 0/1/2, increasing timestamp, unit quaternion).

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/frames.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/io/internal/text.hpp>
#include <retarget/io/skeleton_csv.hpp>  // tracking-state parsing, frame rate

namespace retarget {

/// Number of fields in a Laban CSV row (timestamp + 25 x 4), not counting a trailing comma.
inline constexpr int kKinectLabanFieldCount = 1 + 4 * kHumanJointCount;
/// Number of values in a Keraal TXT row (25 x 7).
inline constexpr int kKinectKeraalValueCount = 7 * kHumanJointCount;
/// Kinect v2 timestamps count 100-ns ticks: ticks per second.
inline constexpr double kKinectTicksPerSecond = 1e7;

/// True for the Kinect v2 joints that carry no orientation: Head, FootLeft, FootRight,
/// HandTipLeft, ThumbLeft, HandTipRight, ThumbRight.
constexpr bool isKinectLeafJoint(HumanJoint joint) {
  switch (joint) {
    case HumanJoint::kHead:
    case HumanJoint::kFootLeft:
    case HumanJoint::kFootRight:
    case HumanJoint::kHandTipLeft:
    case HumanJoint::kThumbLeft:
    case HumanJoint::kHandTipRight:
    case HumanJoint::kThumbRight:
      return true;
    default:
      return false;
  }
}

namespace internal {

/// Parses a finite number for `joint` (column name `<Joint><suffix>` in the error message,
/// built only on failure).
RETARGET_LAZY_DECL double parseJointValueOrFail(const LineReader& reader, std::string_view field, std::size_t column,
                                           HumanJoint joint, const char* suffix);

/// Turns a source quaternion into a unit one: all zeros -> identity (`had_orientation` false);
/// norm within 1e-3 of one -> normalised; anything else fails naming the joint.
RETARGET_LAZY_DECL Quaternion<double> unitQuaternionOrFail(const LineReader& reader, double w, double x, double y, double z,
                                                      HumanJoint joint, bool& had_orientation);

/// Appends `value` with 6 decimals (the Keraal files' own precision), "-0.000000" as "0.000000".
RETARGET_LAZY_DECL void appendFixed6(std::string& out, double value);

}  // namespace internal

/// Reads a Laban-layout Kinect v2 CSV (see the file doc) from a stream; `file` names it in
/// errors. Result: canonical frame W, times in s from the first row, `format` =
/// "kinect-laban-csv", frame_rate from the median spacing. Throws ParseError.
RETARGET_LAZY_DECL SkeletonMotion<double> readKinectLabanCsv(std::istream& in, const std::string& file = "<stream>");

/// Reads the Laban-layout Kinect v2 CSV at `path`. Throws ParseError (also when unreadable).
RETARGET_LAZY_DECL SkeletonMotion<double> readKinectLabanCsv(const std::string& path);

/// Reads a Keraal-layout Kinect v2 TXT (see the file doc) from a stream. Frames are spaced
/// 1/frame_rate s apart (frame_rate in Hz, default 30); all joints tracked; orientations kept
/// (`has_orientations`), `format` = "kinect-keraal-txt". Throws ParseError for malformed
/// text, InvalidArgument when frame_rate is not positive and finite.
RETARGET_LAZY_DECL SkeletonMotion<double> readKinectKeraalTxt(std::istream& in, const std::string& file = "<stream>",
                                                         double frame_rate = 30.0);

/// Reads the Keraal-layout Kinect v2 TXT at `path` (see the stream overload).
RETARGET_LAZY_DECL SkeletonMotion<double> readKinectKeraalTxt(const std::string& path, double frame_rate = 30.0);

/// Reads a Kinect v2 recording in either layout, chosen from the first non-empty line (commas:
/// Laban CSV, otherwise Keraal TXT). Throws ParseError.
RETARGET_LAZY_DECL SkeletonMotion<double> readKinect(const std::string& path);

/// Writes `motion` in the Laban CSV layout (LF, trailing comma, shortest exact decimals):
/// positions back in Kinect camera space, timestamp = timestamp_origin + round(time * 1e7)
/// ticks. Throws InvalidArgument when a time is negative, not finite or not increasing.
RETARGET_LAZY_DECL void writeKinectLabanCsv(const SkeletonMotion<double>& motion, std::ostream& out,
                                       std::uint64_t timestamp_origin = 0);

/// Writes `motion` to `path` in the Laban CSV layout. Throws InvalidArgument or Error.
RETARGET_LAZY_DECL void writeKinectLabanCsv(const SkeletonMotion<double>& motion, const std::string& path,
                                       std::uint64_t timestamp_origin = 0);

/// Writes `motion` in the Keraal TXT layout (6 decimals, trailing space, CRLF): positions and
/// orientations back in Kinect camera space; 0 0 0 0 quaternions for Kinect leaf joints and for
/// motions without orientations. Times and tracking states are not stored by this layout.
RETARGET_LAZY_DECL void writeKinectKeraalTxt(const SkeletonMotion<double>& motion, std::ostream& out);

/// Writes `motion` to `path` in the Keraal TXT layout. Throws Error when unwritable.
RETARGET_LAZY_DECL void writeKinectKeraalTxt(const SkeletonMotion<double>& motion, const std::string& path);

#if RETARGET_DEFINE_IO

namespace internal {

RETARGET_LAZY_DEF double parseJointValueOrFail(const LineReader& reader, std::string_view field, std::size_t column,
                                           HumanJoint joint, const char* suffix) {
  double value = 0;
  if (!parseFinite(field, value)) parseFiniteOrFail(reader, field, column, std::string(name(joint)) + suffix);
  return value;
}

RETARGET_LAZY_DEF Quaternion<double> unitQuaternionOrFail(const LineReader& reader, double w, double x, double y, double z,
                                                      HumanJoint joint, bool& had_orientation) {
  const double norm = std::sqrt(w * w + x * x + y * y + z * z);
  had_orientation = norm != 0.0;
  if (norm == 0.0) return Quaternion<double>::Identity();
  if (std::abs(norm - 1.0) > 1e-3) {
    reader.fail("expected a unit quaternion or all zeros for joint " + std::string(name(joint)) + ", got norm " +
                std::to_string(norm));
  }
  return Quaternion<double>(w / norm, x / norm, y / norm, z / norm);
}

RETARGET_LAZY_DEF void appendFixed6(std::string& out, double value) {
  char buffer[64];
  if (std::abs(value) < 5e-7) value = 0.0;
  const int n = std::snprintf(buffer, sizeof(buffer), "%.6f", value);
  out.append(buffer, static_cast<std::size_t>(n));
}

}  // namespace internal

RETARGET_LAZY_DEF SkeletonMotion<double> readKinectLabanCsv(std::istream& in, const std::string& file) {
  internal::LineReader reader(in, file);
  SkeletonMotion<double> motion;
  motion.format = "kinect-laban-csv";
  std::vector<std::string_view> fields;
  std::uint64_t first_tick = 0;
  std::uint64_t last_tick = 0;
  while (reader.nextNonEmpty()) {
    internal::splitFields(reader.line(), ',', fields);
    if (fields.size() > 1 && fields.back().empty()) fields.pop_back();  // the usual trailing comma
    if (fields.size() != kKinectLabanFieldCount) {
      reader.fail("expected " + std::to_string(kKinectLabanFieldCount) +
                  " values (timestamp + 25 joints x (x, y, z, state)), got " + std::to_string(fields.size()));
    }
    unsigned long long tick = 0;
    if (!internal::parseUnsigned(fields[0], tick)) {
      reader.fail("expected an integer timestamp (100-ns ticks) in column 1, got " + internal::quoted(fields[0]));
    }
    if (motion.frames.empty()) {
      first_tick = tick;
    } else if (tick <= last_tick) {
      reader.fail("expected the timestamp to increase, got " + std::to_string(tick) + " after " +
                  std::to_string(last_tick));
    }
    last_tick = tick;
    SkeletonFrame<double>& frame = motion.frames.emplace_back();
    frame.time = static_cast<double>(tick - first_tick) / kKinectTicksPerSecond;
    for (int j = 0; j < kHumanJointCount; ++j) {
      const auto joint = static_cast<HumanJoint>(j);
      const std::size_t c = 1 + 4 * static_cast<std::size_t>(j);
      for (int k = 0; k < 3; ++k) {
        static constexpr const char* kAxis[] = {".x", ".y", ".z"};
        frame.p_W[static_cast<std::size_t>(j)][k] =
            internal::parseJointValueOrFail(reader, fields[c + static_cast<std::size_t>(k)], c + static_cast<std::size_t>(k) + 1, joint, kAxis[k]);
      }
      frame.state[static_cast<std::size_t>(j)] = internal::parseTrackingStateOrFail(reader, fields[c + 3], c + 4, joint);
    }
    kinectFrameToCanonical(frame);
  }
  motion.frame_rate = internal::medianFrameRate(motion.frames);
  return motion;
}

RETARGET_LAZY_DEF SkeletonMotion<double> readKinectLabanCsv(const std::string& path) {
  std::ifstream in = internal::openForReading(path);
  return readKinectLabanCsv(in, path);
}

RETARGET_LAZY_DEF SkeletonMotion<double> readKinectKeraalTxt(std::istream& in, const std::string& file, double frame_rate) {
  RETARGET_THROW_UNLESS(std::isfinite(frame_rate) && frame_rate > 0, InvalidArgument,
                        "frame_rate must be positive (got ", frame_rate, ", expected > 0 Hz)");
  internal::LineReader reader(in, file);
  SkeletonMotion<double> motion;
  motion.format = "kinect-keraal-txt";
  motion.frame_rate = frame_rate;
  std::vector<std::string_view> fields;
  while (reader.nextNonEmpty()) {
    internal::splitWhitespace(reader.line(), fields);
    if (fields.size() != kKinectKeraalValueCount) {
      reader.fail("expected " + std::to_string(kKinectKeraalValueCount) +
                  " values (25 joints x (x, y, z, qx, qy, qz, qw)), got " + std::to_string(fields.size()));
    }
    SkeletonFrame<double>& frame = motion.frames.emplace_back();
    frame.time = static_cast<double>(motion.frames.size() - 1) / frame_rate;
    frame.has_orientations = true;
    double v[7];
    for (int j = 0; j < kHumanJointCount; ++j) {
      const auto joint = static_cast<HumanJoint>(j);
      const std::size_t c = 7 * static_cast<std::size_t>(j);
      for (std::size_t k = 0; k < 7; ++k) {
        static constexpr const char* kField[] = {".x", ".y", ".z", ".qx", ".qy", ".qz", ".qw"};
        v[k] = internal::parseJointValueOrFail(reader, fields[c + k], c + k + 1, joint, kField[k]);
      }
      bool had_orientation = false;
      frame.p_W[static_cast<std::size_t>(j)] = Vector3<double>(v[0], v[1], v[2]);
      frame.R_WJ[static_cast<std::size_t>(j)] =
          internal::unitQuaternionOrFail(reader, v[6], v[3], v[4], v[5], joint, had_orientation);
      frame.state[static_cast<std::size_t>(j)] = TrackingState::kTracked;
      if (!had_orientation) frame.R_WJ[static_cast<std::size_t>(j)] = canonicalToKinect(Quaternion<double>::Identity());
    }
    kinectFrameToCanonical(frame);
  }
  return motion;
}

RETARGET_LAZY_DEF SkeletonMotion<double> readKinectKeraalTxt(const std::string& path, double frame_rate) {
  std::ifstream in = internal::openForReading(path);
  return readKinectKeraalTxt(in, path, frame_rate);
}

RETARGET_LAZY_DEF SkeletonMotion<double> readKinect(const std::string& path) {
  std::ifstream in = internal::openForReading(path);
  std::size_t line_number = 0;
  if (internal::peekFirstNonBlankLine(in, line_number).find(',') != std::string::npos) return readKinectLabanCsv(in, path);
  return readKinectKeraalTxt(in, path);
}

RETARGET_LAZY_DEF void writeKinectLabanCsv(const SkeletonMotion<double>& motion, std::ostream& out,
                                       std::uint64_t timestamp_origin) {
  std::string line;
  std::uint64_t previous = 0;
  const double t0 = motion.empty() ? 0.0 : motion.frames.front().time;
  for (std::size_t i = 0; i < motion.frames.size(); ++i) {
    const SkeletonFrame<double>& frame = motion.frames[i];
    const double ticks = std::round((frame.time - t0) * kKinectTicksPerSecond);
    RETARGET_THROW_UNLESS(std::isfinite(ticks) && ticks >= 0 && ticks < 1e18, InvalidArgument, "frame ", i,
                          " has an invalid time (got ", frame.time, " s)");
    const std::uint64_t tick = timestamp_origin + static_cast<std::uint64_t>(ticks);
    RETARGET_THROW_UNLESS(i == 0 || tick > previous, InvalidArgument, "frame times must increase by at least 100 ns (frame ",
                          i, " at ", frame.time, " s)");
    previous = tick;
    line = std::to_string(tick);
    for (int j = 0; j < kHumanJointCount; ++j) {
      const Vector3<double> p_K = canonicalToKinect(frame.p_W[static_cast<std::size_t>(j)]);
      for (int k = 0; k < 3; ++k) {
        line += ',';
        internal::appendNumber(line, p_K[k], /*signed_zero=*/false);
      }
      line += ',';
      line += static_cast<char>('0' + static_cast<int>(frame.state[static_cast<std::size_t>(j)]));
    }
    line += ",\n";
    out << line;
  }
}

RETARGET_LAZY_DEF void writeKinectLabanCsv(const SkeletonMotion<double>& motion, const std::string& path,
                                       std::uint64_t timestamp_origin) {
  std::ofstream out = internal::openForWriting(path);
  writeKinectLabanCsv(motion, out, timestamp_origin);
  internal::finishWriting(out, path);
}

RETARGET_LAZY_DEF void writeKinectKeraalTxt(const SkeletonMotion<double>& motion, std::ostream& out) {
  std::string line;
  for (const SkeletonFrame<double>& frame : motion.frames) {
    line.clear();
    for (int j = 0; j < kHumanJointCount; ++j) {
      const Vector3<double> p_K = canonicalToKinect(frame.p_W[static_cast<std::size_t>(j)]);
      for (int k = 0; k < 3; ++k) {
        internal::appendFixed6(line, p_K[k]);
        line += ' ';
      }
      if (!frame.has_orientations || isKinectLeafJoint(static_cast<HumanJoint>(j))) {
        line += "0.000000 0.000000 0.000000 0.000000 ";
        continue;
      }
      const Quaternion<double> R_KJ = canonicalToKinect(frame.R_WJ[static_cast<std::size_t>(j)]);
      for (const double value : {R_KJ.x(), R_KJ.y(), R_KJ.z(), R_KJ.w()}) {
        internal::appendFixed6(line, value);
        line += ' ';
      }
    }
    line += "\r\n";
    out << line;
  }
}

RETARGET_LAZY_DEF void writeKinectKeraalTxt(const SkeletonMotion<double>& motion, const std::string& path) {
  std::ofstream out = internal::openForWriting(path);
  writeKinectKeraalTxt(motion, out);
  internal::finishWriting(out, path);
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
