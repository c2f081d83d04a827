#pragma once

/// @file
/// Joint-trajectory CSV: robot joint motion as text, one row per frame.
///
/// Layout (written and read):
///
///     time,<joint name 1>,<joint name 2>,...
///     0,0.1,-0.25,...
///     0.033333333333333333,0.11,-0.24,...
///
/// - The header row is `time` followed by one column per joint (the robot's own joint names,
///   unique, non-empty, no commas or quotes).
/// - One row per frame: time in seconds, then joint positions in rad (m for prismatic joints).
///   Every row has exactly as many values as the header has columns.
/// - Times are finite and strictly increasing; values are finite decimal numbers.
/// - Comma-separated; spaces around fields, CRLF line endings, a UTF-8 byte-order mark and
///   empty lines are tolerated on reading. Written files use LF and the shortest decimal form
///   that reads back to the same double (so write -> read is exact).
///
/// Readers throw `retarget::ParseError` naming the file, the line and what was expected.
/// `toRobotOrder` reorders the columns into a robot's configuration order by joint name.
///
/// This header also holds the small text-parsing helpers (`retarget::internal`) shared by the
/// other readers in `retarget/io/`.

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <istream>
#include <limits>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/error.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {
namespace internal {

/// Reads text line by line with a 1-based line counter. Strips a trailing CR (CRLF files) and
/// a UTF-8 byte-order mark on the first line. `fail()` throws ParseError at the current line.
class LineReader {
 public:
  LineReader(std::istream& in, std::string file) : in_(in), file_(std::move(file)) {}

  /// Advances to the next line; false at the end of the input.
  bool next() {
    if (!std::getline(in_, buffer_)) return false;
    ++line_number_;
    if (!buffer_.empty() && buffer_.back() == '\r') buffer_.pop_back();
    if (line_number_ == 1 && buffer_.size() >= 3 && buffer_.compare(0, 3, "\xEF\xBB\xBF") == 0) buffer_.erase(0, 3);
    return true;
  }
  /// Advances to the next line that is not empty or blank; false at the end of the input.
  bool nextNonEmpty() {
    while (next()) {
      if (buffer_.find_first_not_of(" \t") != std::string::npos) return true;
    }
    return false;
  }
  /// The current line, without its line ending.
  std::string_view line() const { return buffer_; }
  /// 1-based number of the current line (0 before the first call to next()).
  std::size_t lineNumber() const { return line_number_; }
  /// Name of the file being read.
  const std::string& file() const { return file_; }
  /// Throws ParseError(file, current line, what).
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(file_, line_number_, what); }

 private:
  std::istream& in_;
  std::string file_;
  std::string buffer_;
  std::size_t line_number_ = 0;
};

/// `text` without leading and trailing spaces and tabs.
inline std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

/// Splits `text` at every `delimiter` into `fields` (cleared first; fields are trimmed views
/// into `text`). "a,b," gives three fields, the last one empty.
inline void splitFields(std::string_view text, char delimiter, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(delimiter, start);
    if (end == std::string_view::npos) {
      fields.push_back(trim(text.substr(start)));
      return;
    }
    fields.push_back(trim(text.substr(start, end - start)));
    start = end + 1;
  }
}

/// Splits `text` at runs of spaces and tabs into `fields` (cleared first; no empty fields).
inline void splitWhitespace(std::string_view text, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t pos = 0;
  while (true) {
    pos = text.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) return;
    const std::size_t end = text.find_first_of(" \t", pos);
    fields.push_back(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    if (end == std::string_view::npos) return;
    pos = end;
  }
}

/// Parses a whole field as a finite decimal number (an optional leading '+' is accepted).
/// Returns false for empty fields, trailing characters, NaN, infinities and out-of-range values.
inline bool parseFinite(std::string_view field, double& value) {
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  if (field.empty()) return false;
  const char* first = field.data();
  const char* last = first + field.size();
  const auto result = std::from_chars(first, last, value, std::chars_format::general);
  return result.ec == std::errc() && result.ptr == last && std::isfinite(value);
}

/// Parses a whole field as a non-negative decimal integer.
inline bool parseUnsigned(std::string_view field, unsigned long long& value) {
  if (field.empty()) return false;
  const char* first = field.data();
  const char* last = first + field.size();
  const auto result = std::from_chars(first, last, value);
  return result.ec == std::errc() && result.ptr == last;
}

/// A field quoted for an error message: at most 40 characters, non-printable bytes as \xNN.
inline std::string quoted(std::string_view field) {
  std::string out = "'";
  const std::size_t n = std::min<std::size_t>(field.size(), 40);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(field[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  if (field.size() > n) out += "...";
  return out + "'";
}

/// Parses `field` as a finite number or fails at the reader's line, naming the column.
inline double parseFiniteOrFail(const LineReader& reader, std::string_view field, std::size_t column,
                                std::string_view column_name = {}) {
  double value = 0;
  if (!parseFinite(field, value)) {
    std::string what = "expected a finite number in column " + std::to_string(column);
    if (!column_name.empty()) what += " (" + std::string(column_name) + ")";
    reader.fail(what + ", got " + quoted(field));
  }
  return value;
}

/// True when every byte is printable ASCII (names in our headers).
inline bool isPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f;
  });
}

/// Opens `path` for reading; throws ParseError(path, 0, ...) when it cannot.
inline std::ifstream openForReading(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot open file for reading");
  return in;
}

/// Opens `path` for writing; throws Error naming the path when it cannot.
inline std::ofstream openForWriting(const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("[retarget] cannot open '" + path + "' for writing");
  return out;
}

/// Appends the shortest decimal text that reads back as exactly `value`.
inline void appendNumber(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

/// Flushes `out` and throws Error naming `path` when the stream failed.
inline void finishWriting(std::ostream& out, const std::string& path) {
  out.flush();
  if (!out) throw Error("[retarget] failed writing '" + path + "'");
}

}  // namespace internal

/// Robot joint motion: positions of named joints at increasing times.
///
/// Invariants (checked by `validate()` and by the reader): `positions` is
/// times.size() x joint_names.size(); names are unique and non-empty; times are finite and
/// strictly increasing (s); positions are finite (rad, or m for prismatic joints).
struct JointTrajectory {
  /// Joint names, one per column of `positions`.
  std::vector<std::string> joint_names;
  /// Frame times in seconds.
  std::vector<double> times;
  /// Joint positions, frames x joints (rad or m).
  Eigen::MatrixXd positions;

  /// Number of frames.
  std::size_t size() const { return times.size(); }
  /// True when there are no frames.
  bool empty() const { return times.empty(); }
  /// Number of joints (columns).
  int jointCount() const { return static_cast<int>(joint_names.size()); }
  /// Column of the joint named `name`, or -1.
  int findJoint(const std::string& name) const {
    const auto it = std::find(joint_names.begin(), joint_names.end(), name);
    return it == joint_names.end() ? -1 : static_cast<int>(it - joint_names.begin());
  }
  /// Seconds from the first to the last frame (0 for fewer than two frames).
  double duration() const { return times.size() < 2 ? 0.0 : times.back() - times.front(); }

  /// Throws InvalidArgument naming the first broken invariant (see the struct doc).
  void validate() const {
    RETARGET_THROW_UNLESS(positions.rows() == static_cast<Eigen::Index>(times.size()) &&
                              positions.cols() == static_cast<Eigen::Index>(joint_names.size()),
                          InvalidArgument, "positions must be frames x joints (got ", positions.rows(), " x ",
                          positions.cols(), ", expected ", times.size(), " x ", joint_names.size(), ")");
    for (std::size_t j = 0; j < joint_names.size(); ++j) {
      const std::string& name = joint_names[j];
      RETARGET_THROW_UNLESS(!name.empty() && internal::isPrintableAscii(name) &&
                                name.find_first_of(",\"") == std::string::npos && internal::trim(name) == name,
                            InvalidArgument, "joint_names[", j, "] must be a non-empty printable name without ",
                            "commas, quotes or surrounding spaces (got ", internal::quoted(name), ")");
      RETARGET_THROW_UNLESS(name != "time", InvalidArgument, "joint_names[", j, "] must not be 'time'");
      for (std::size_t k = 0; k < j; ++k) {
        RETARGET_THROW_UNLESS(joint_names[k] != name, InvalidArgument, "joint name '", name,
                              "' appears twice (columns ", k, " and ", j, ")");
      }
    }
    for (std::size_t i = 0; i < times.size(); ++i) {
      RETARGET_THROW_UNLESS(std::isfinite(times[i]), InvalidArgument, "times[", i, "] must be finite (got ",
                            times[i], ")");
      RETARGET_THROW_UNLESS(i == 0 || times[i] > times[i - 1], InvalidArgument, "times must increase (got times[",
                            i, "] = ", times[i], " after ", times[i - 1], ")");
    }
    RETARGET_THROW_UNLESS(positions.allFinite(), InvalidArgument, "positions must all be finite");
  }
};

/// Reads a joint-trajectory CSV from a stream; `file` names it in error messages.
/// Throws ParseError (file, line, what was expected) on: a missing or malformed header (first
/// column not `time`, empty or repeated joint names), a row with the wrong number of values,
/// a value that is not a finite number, or a time that does not increase.
inline JointTrajectory readJointTrajectoryCsv(std::istream& in, const std::string& file = "<stream>") {
  internal::LineReader reader(in, file);
  if (!reader.nextNonEmpty()) reader.fail("expected a header 'time,<joint names...>', got an empty file");
  std::vector<std::string_view> fields;
  internal::splitFields(reader.line(), ',', fields);
  if (fields.empty() || fields[0] != "time") {
    reader.fail("expected the header to start with 'time', got " + internal::quoted(fields.empty() ? "" : fields[0]));
  }
  JointTrajectory trajectory;
  for (std::size_t c = 1; c < fields.size(); ++c) {
    const std::string_view name = fields[c];
    if (name.empty() || !internal::isPrintableAscii(name) || name.find('"') != std::string_view::npos) {
      reader.fail("expected a joint name in header column " + std::to_string(c + 1) + ", got " +
                  internal::quoted(name));
    }
    for (const std::string& previous : trajectory.joint_names) {
      if (previous == name) reader.fail("joint name '" + std::string(name) + "' appears twice in the header");
    }
    trajectory.joint_names.emplace_back(name);
  }
  const std::size_t columns = fields.size();
  std::vector<double> values;
  while (reader.nextNonEmpty()) {
    internal::splitFields(reader.line(), ',', fields);
    if (fields.size() != columns) {
      reader.fail("expected " + std::to_string(columns) + " values (time + " + std::to_string(columns - 1) +
                  " joints), got " + std::to_string(fields.size()));
    }
    const double time = internal::parseFiniteOrFail(reader, fields[0], 1, "time");
    if (!trajectory.times.empty() && !(time > trajectory.times.back())) {
      std::ostringstream what;
      what.precision(17);
      what << "expected time to increase, got " << time << " after " << trajectory.times.back();
      reader.fail(what.str());
    }
    trajectory.times.push_back(time);
    for (std::size_t c = 1; c < columns; ++c) {
      values.push_back(internal::parseFiniteOrFail(reader, fields[c], c + 1, trajectory.joint_names[c - 1]));
    }
  }
  const auto rows = static_cast<Eigen::Index>(trajectory.times.size());
  const auto cols = static_cast<Eigen::Index>(columns - 1);
  trajectory.positions = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
      values.data(), rows, cols);
  return trajectory;
}

/// Reads the joint-trajectory CSV at `path` (see the file doc for the layout).
/// Throws ParseError naming `path` and the line (also when the file cannot be opened).
inline JointTrajectory readJointTrajectoryCsv(const std::string& path) {
  std::ifstream in = internal::openForReading(path);
  return readJointTrajectoryCsv(in, path);
}

/// Writes `trajectory` as joint-trajectory CSV to a stream (LF, shortest exact decimals).
/// Throws InvalidArgument when the trajectory breaks its invariants (see `validate()`).
inline void writeJointTrajectoryCsv(const JointTrajectory& trajectory, std::ostream& out) {
  trajectory.validate();
  std::string line = "time";
  for (const std::string& name : trajectory.joint_names) line += "," + name;
  line += '\n';
  out << line;
  for (Eigen::Index i = 0; i < trajectory.positions.rows(); ++i) {
    line.clear();
    internal::appendNumber(line, trajectory.times[static_cast<std::size_t>(i)]);
    for (Eigen::Index j = 0; j < trajectory.positions.cols(); ++j) {
      line += ',';
      internal::appendNumber(line, trajectory.positions(i, j));
    }
    line += '\n';
    out << line;
  }
}

/// Writes `trajectory` to the file `path`. Throws InvalidArgument (bad trajectory) or Error
/// (the file cannot be written).
inline void writeJointTrajectoryCsv(const JointTrajectory& trajectory, const std::string& path) {
  trajectory.validate();
  std::ofstream out = internal::openForWriting(path);
  writeJointTrajectoryCsv(trajectory, out);
  internal::finishWriting(out, path);
}

/// Builds an empty trajectory (no frames) whose columns are the robot's configuration
/// coordinates in q order.
template <typename Scalar>
JointTrajectory makeJointTrajectory(const RobotModel<Scalar>& model) {
  JointTrajectory trajectory;
  trajectory.joint_names = model.qNames();
  trajectory.positions.resize(0, model.nq());
  return trajectory;
}

/// Appends one frame (time in s, q in the trajectory's column order). Allocates (not for the
/// per-frame path of a controller; fine for recording). Throws InvalidArgument when q has the
/// wrong size or the time does not increase.
inline void appendFrame(JointTrajectory& trajectory, double time, const Eigen::Ref<const Eigen::VectorXd>& q) {
  RETARGET_THROW_UNLESS(q.size() == trajectory.jointCount(), InvalidArgument, "q has the wrong size (got ",
                        q.size(), ", expected ", trajectory.jointCount(), ")");
  RETARGET_THROW_UNLESS(std::isfinite(time) && (trajectory.times.empty() || time > trajectory.times.back()),
                        InvalidArgument, "time must be finite and increase (got ", time, ")");
  const Eigen::Index row = trajectory.positions.rows();
  trajectory.positions.conservativeResize(row + 1, trajectory.jointCount());
  trajectory.positions.row(row) = q.transpose();
  trajectory.times.push_back(time);
}

/// The same trajectory with its columns in the robot's configuration order (`model.qNames()`),
/// matched by joint name. Columns naming joints the robot does not have as a coordinate
/// (fixed, mimic or unknown joints) are dropped. Throws InvalidArgument listing the robot's
/// joints that have no column.
template <typename Scalar>
JointTrajectory toRobotOrder(const JointTrajectory& trajectory, const RobotModel<Scalar>& model) {
  std::unordered_map<std::string, int> column;
  for (int j = 0; j < trajectory.jointCount(); ++j) column.emplace(trajectory.joint_names[static_cast<std::size_t>(j)], j);
  JointTrajectory ordered;
  ordered.joint_names = model.qNames();
  ordered.times = trajectory.times;
  ordered.positions.resize(trajectory.positions.rows(), model.nq());
  std::string missing;
  for (int i = 0; i < model.nq(); ++i) {
    const auto it = column.find(ordered.joint_names[static_cast<std::size_t>(i)]);
    if (it == column.end()) {
      missing += (missing.empty() ? "" : ", ") + ordered.joint_names[static_cast<std::size_t>(i)];
      continue;
    }
    ordered.positions.col(i) = trajectory.positions.col(it->second);
  }
  RETARGET_THROW_UNLESS(missing.empty(), InvalidArgument, "trajectory has no column for joint(s) of robot '",
                        model.name(), "': ", missing, " (got columns for ", trajectory.jointCount(), " joints, expected all ",
                        model.nq(), " of the robot's)");
  return ordered;
}

}  // namespace retarget
