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

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/io/internal/text.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

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
  RETARGET_LAZY_DECL int findJoint(const std::string& name) const;
  /// Seconds from the first to the last frame (0 for fewer than two frames).
  double duration() const { return times.size() < 2 ? 0.0 : times.back() - times.front(); }

  /// Throws InvalidArgument naming the first broken invariant (see the struct doc).
  RETARGET_LAZY_DECL void validate() const;
};

/// Reads a joint-trajectory CSV from a stream; `file` names it in error messages.
/// Throws ParseError (file, line, what was expected) on: a missing or malformed header (first
/// column not `time`, empty or repeated joint names), a row with the wrong number of values,
/// a value that is not a finite number, or a time that does not increase.
RETARGET_LAZY_DECL JointTrajectory readJointTrajectoryCsv(std::istream& in, const std::string& file = "<stream>");

/// Reads the joint-trajectory CSV at `path` (see the file doc for the layout).
/// Throws ParseError naming `path` and the line (also when the file cannot be opened).
RETARGET_LAZY_DECL JointTrajectory readJointTrajectoryCsv(const std::string& path);

namespace internal {

/// Appends one row (time in s, then the positions; no line end) in the shortest exact decimals.
/// Does not allocate when `line` has room for the row.
RETARGET_LAZY_DECL void appendJointTrajectoryRow(std::string& line, double time, const Eigen::Ref<const Eigen::VectorXd>& q);

}  // namespace internal

/// Writes `trajectory` as joint-trajectory CSV to a stream (LF, shortest exact decimals).
/// Throws InvalidArgument when the trajectory breaks its invariants (see `validate()`).
RETARGET_LAZY_DECL void writeJointTrajectoryCsv(const JointTrajectory& trajectory, std::ostream& out);

/// Writes `trajectory` to the file `path`. Throws InvalidArgument (bad trajectory) or Error
/// (the file cannot be written).
RETARGET_LAZY_DECL void writeJointTrajectoryCsv(const JointTrajectory& trajectory, const std::string& path);

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
RETARGET_LAZY_DECL void appendFrame(JointTrajectory& trajectory, double time, const Eigen::Ref<const Eigen::VectorXd>& q);

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

#if RETARGET_DEFINE_IO

RETARGET_LAZY_DEF JointTrajectory readJointTrajectoryCsv(std::istream& in, const std::string& file) {
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
    if (name.empty() || !internal::isPrintableAscii(name) || name.find('"') != std::string_view::npos ||
        name == "time") {
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
  internal::CsvRowTimes times;
  while (reader.nextNonEmpty()) {
    trajectory.times.push_back(internal::splitTimedCsvRow(reader, columns, times, fields));
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

RETARGET_LAZY_DEF JointTrajectory readJointTrajectoryCsv(const std::string& path) {
  std::ifstream in = internal::openForReading(path);
  return readJointTrajectoryCsv(in, path);
}

namespace internal {

RETARGET_LAZY_DEF void appendJointTrajectoryRow(std::string& line, double time,
                                            const Eigen::Ref<const Eigen::VectorXd>& q) {
  appendNumber(line, time);
  for (Eigen::Index j = 0; j < q.size(); ++j) {
    line += ',';
    appendNumber(line, q[j]);
  }
}

}  // namespace internal

RETARGET_LAZY_DEF void writeJointTrajectoryCsv(const JointTrajectory& trajectory, std::ostream& out) {
  trajectory.validate();
  std::string line = "time";
  for (const std::string& name : trajectory.joint_names) line += "," + name;
  line += '\n';
  out << line;
  for (Eigen::Index i = 0; i < trajectory.positions.rows(); ++i) {
    line.clear();
    const double time = trajectory.times[static_cast<std::size_t>(i)];
    if (trajectory.jointCount() == 0) {
      internal::appendNumber(line, time);  // a row of a 0-column matrix has no storage to point at
    } else {
      internal::appendJointTrajectoryRow(line, time, trajectory.positions.row(i).transpose());
    }
    line += '\n';
    out << line;
  }
}

RETARGET_LAZY_DEF void writeJointTrajectoryCsv(const JointTrajectory& trajectory, const std::string& path) {
  trajectory.validate();
  std::ofstream out = internal::openForWriting(path);
  writeJointTrajectoryCsv(trajectory, out);
  internal::finishWriting(out, path);
}

RETARGET_LAZY_DEF void appendFrame(JointTrajectory& trajectory, double time, const Eigen::Ref<const Eigen::VectorXd>& q) {
  RETARGET_THROW_UNLESS(q.size() == trajectory.jointCount(), InvalidArgument, "q has the wrong size (got ",
                        q.size(), ", expected ", trajectory.jointCount(), ")");
  RETARGET_THROW_UNLESS(std::isfinite(time) && (trajectory.times.empty() || time > trajectory.times.back()),
                        InvalidArgument, "time must be finite and increase (got ", time, ")");
  const Eigen::Index row = trajectory.positions.rows();
  trajectory.positions.conservativeResize(row + 1, trajectory.jointCount());
  if (q.size() > 0) trajectory.positions.row(row) = q.transpose();  // a 0-column matrix has no storage
  trajectory.times.push_back(time);
}

RETARGET_LAZY_DEF int JointTrajectory::findJoint(const std::string& name) const {
  const auto it = std::find(joint_names.begin(), joint_names.end(), name);
  return it == joint_names.end() ? -1 : static_cast<int>(it - joint_names.begin());
}

RETARGET_LAZY_DEF void JointTrajectory::validate() const {
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

#endif  // RETARGET_DEFINE_IO

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_IO JointTrajectory makeJointTrajectory<double>(const RobotModel<double>&);
RETARGET_TEMPLATE_IO JointTrajectory toRobotOrder<double>(const JointTrajectory&, const RobotModel<double>&);
#endif

}  // namespace retarget
