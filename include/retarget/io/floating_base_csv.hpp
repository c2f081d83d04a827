#pragma once

/// @file
/// Floating-base robot motion (a root pose, joint angles and foot contacts per frame) and the two
/// files it is written as (beyond the seeds; what humanoid training pipelines read).
///
/// Our CSV (`FloatingBaseFormat::kCsv`), with a header:
///
///     time,root_x,root_y,root_z,root_qx,root_qy,root_qz,root_qw,<joint names...>,contact_left,contact_right
///
/// time in s; the root link's position in m and orientation as a unit quaternion, x y z w, in the
/// world (z up, the ground at z = 0); joints in the robot's q order (rad, m for prismatic ones);
/// contacts 1 when that foot stands, else 0.
///
/// Unitree's layout (`kUnitree`): the headerless, comma-separated rows of Unitree's LAFAN1
/// retargeting dataset, which BeyondMimic's csv_to_npz.py, mjlab and ProtoMotions read with
/// `np.loadtxt(file, delimiter=",")`: `x, y, z, qx, qy, qz, qw` (the quaternion x y z w: those
/// readers take columns 3:7 and reorder them to w x y z themselves), then the joints in the
/// robot's q order, at a fixed frame rate (`resampleFloatingBase`). Our q order for a URDF or
/// MJCF is the file's joint order, which for Unitree's own G1 and H1 files is the one these
/// readers expect (G1 29-DoF: left leg, right leg, waist yaw, roll, pitch, left arm, right arm).
///
/// Written numbers are the shortest decimal form that reads back to the same double.
/// `readFloatingBaseCsv` reads our CSV back (ParseError naming the file, line and column).

#include <algorithm>
#include <cmath>
#include <fstream>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/io/internal/text.hpp>

namespace retarget {

/// Floating-base motion. Invariants (`validate()`): `time` strictly increasing and finite;
/// `root_position` 3 x frames, `root_orientation` frames quaternions (unit), `q` frames x joints,
/// `contacts` frames x 2 (0 / 1), all finite; joint names unique, non-empty, without commas.
struct FloatingBaseTrajectory {
  std::vector<std::string> joint_names;
  std::vector<double> time;                          ///< s
  Eigen::Matrix3Xd root_position;                    ///< m, world (z up, ground z = 0)
  std::vector<Eigen::Quaterniond> root_orientation;  ///< the root link in the world
  Eigen::MatrixXd q;                                 ///< frames x joints (rad or m)
  Eigen::Matrix<int, Eigen::Dynamic, 2> contacts;    ///< frames x 2 (left, right): 1 standing

  std::size_t size() const { return time.size(); }
  /// The root link's pose in the world at frame `k` (m).
  Eigen::Isometry3d rootPose(std::size_t k) const {
    Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
    X.linear() = root_orientation[k].toRotationMatrix();
    X.translation() = root_position.col(static_cast<Eigen::Index>(k));
    return X;
  }
  /// Throws InvalidArgument naming what breaks an invariant.
  RETARGET_LAZY_DECL void validate() const;
};

/// Maps every frame of `motion` with a floating-base mapper (one with `map()`, `rootPose()`,
/// `contacts()` and `model()`, as mappers/humanoid_floating_base.hpp's) and records the result;
/// `statuses` (when given) receives each frame's status.
template <typename FloatingMapper, typename StatusList = std::vector<Status>>
FloatingBaseTrajectory recordFloatingBase(FloatingMapper& mapper, const SkeletonMotion<double>& motion,
                                          StatusList* statuses = nullptr) {
  const auto& model = mapper.model();
  FloatingBaseTrajectory out;
  for (int i = 0; i < model.nq(); ++i) out.joint_names.push_back(model.qName(i));
  const auto n = static_cast<Eigen::Index>(motion.frames.size());
  out.root_position.resize(3, n);
  out.q.resize(n, model.nq());
  out.contacts.resize(n, 2);
  Eigen::VectorXd q(model.nq());
  for (Eigen::Index k = 0; k < n; ++k) {
    const SkeletonFrame<double>& frame = motion.frames[static_cast<std::size_t>(k)];
    const Status status = mapper.map(frame, q);
    if (statuses != nullptr) statuses->push_back(status);
    out.time.push_back(frame.time);
    out.root_position.col(k) = mapper.rootPose().translation();
    out.root_orientation.emplace_back(mapper.rootPose().linear());
    out.root_orientation.back().normalize();
    out.q.row(k) = q.transpose();
    out.contacts(k, 0) = mapper.contacts()[0] ? 1 : 0;
    out.contacts(k, 1) = mapper.contacts()[1] ? 1 : 0;
  }
  return out;
}

/// Which file `writeFloatingBaseCsv` writes (see the file doc).
enum class FloatingBaseFormat { kCsv, kUnitree };

/// `trajectory` resampled at `fps` (> 0) from its first time to its last: positions, joints and
/// contacts (the nearer frame's) interpolated linearly, the orientation by slerp.
RETARGET_LAZY_DECL FloatingBaseTrajectory resampleFloatingBase(const FloatingBaseTrajectory& trajectory, double fps);

/// Writes `trajectory` in `format` (kUnitree writes the frames as they are: resample first).
RETARGET_LAZY_DECL void writeFloatingBaseCsv(const FloatingBaseTrajectory& trajectory, std::ostream& out,
                                             FloatingBaseFormat format = FloatingBaseFormat::kCsv);
RETARGET_LAZY_DECL void writeFloatingBaseCsv(const FloatingBaseTrajectory& trajectory, const std::string& path,
                                             FloatingBaseFormat format = FloatingBaseFormat::kCsv);

/// Reads our CSV (kCsv).
RETARGET_LAZY_DECL FloatingBaseTrajectory readFloatingBaseCsv(std::istream& in, const std::string& file = "<stream>");
RETARGET_LAZY_DECL FloatingBaseTrajectory readFloatingBaseCsv(const std::string& path);

#if RETARGET_DEFINE_IO

RETARGET_LAZY_DEF void FloatingBaseTrajectory::validate() const {
  const auto n = static_cast<Eigen::Index>(time.size());
  RETARGET_THROW_UNLESS(root_position.cols() == n && static_cast<Eigen::Index>(root_orientation.size()) == n &&
                            q.rows() == n && contacts.rows() == n &&
                            q.cols() == static_cast<Eigen::Index>(joint_names.size()),
                        InvalidArgument, "FloatingBaseTrajectory (got ", n, " times, ", root_position.cols(),
                        " root positions, ", root_orientation.size(), " orientations, ", q.rows(), " x ", q.cols(),
                        " joints, ", contacts.rows(), " contact rows and ", joint_names.size(),
                        " joint names, expected one of each per frame and one name per joint column)");
  for (std::size_t i = 0; i < time.size(); ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(time[i]) && (i == 0 || time[i] > time[i - 1]), InvalidArgument,
                          "FloatingBaseTrajectory::time[", i, "] (got ", time[i],
                          ", expected finite and after the previous frame's)");
    const Eigen::Quaterniond& r = root_orientation[i];
    RETARGET_THROW_UNLESS(r.coeffs().allFinite() && std::abs(r.norm() - 1.0) < 1e-6, InvalidArgument,
                          "FloatingBaseTrajectory::root_orientation[", i, "] (got norm ", r.norm(),
                          ", expected a unit quaternion)");
  }
  RETARGET_THROW_UNLESS(root_position.allFinite() && q.allFinite(), InvalidArgument,
                        "FloatingBaseTrajectory (got a non-finite root position or joint value)");
  for (const std::string& name : joint_names) {
    RETARGET_THROW_UNLESS(!name.empty() && name.find(',') == std::string::npos, InvalidArgument,
                          "FloatingBaseTrajectory::joint_names (got '", name, "', expected a name without commas)");
  }
}

RETARGET_LAZY_DEF FloatingBaseTrajectory resampleFloatingBase(const FloatingBaseTrajectory& trajectory, double fps) {
  trajectory.validate();
  RETARGET_THROW_UNLESS(std::isfinite(fps) && fps > 0, InvalidArgument, "fps (got ", fps, ", expected > 0)");
  RETARGET_THROW_UNLESS(!trajectory.time.empty(), InvalidArgument, "trajectory (got no frame to resample)");
  const double t0 = trajectory.time.front(), t1 = trajectory.time.back();
  const auto frames = static_cast<Eigen::Index>(std::floor((t1 - t0) * fps + 1e-9)) + 1;
  FloatingBaseTrajectory out;
  out.joint_names = trajectory.joint_names;
  out.root_position.resize(3, frames);
  out.q.resize(frames, trajectory.q.cols());
  out.contacts.resize(frames, 2);
  std::size_t k = 0;  // trajectory.time[k] <= t < trajectory.time[k + 1]
  for (Eigen::Index i = 0; i < frames; ++i) {
    const double t = t0 + static_cast<double>(i) / fps;
    while (k + 1 < trajectory.time.size() && trajectory.time[k + 1] <= t) ++k;
    const std::size_t next = std::min(k + 1, trajectory.time.size() - 1);
    const double span = trajectory.time[next] - trajectory.time[k];
    const double w = span > 0 ? std::clamp((t - trajectory.time[k]) / span, 0.0, 1.0) : 0.0;
    const auto a = static_cast<Eigen::Index>(k), b = static_cast<Eigen::Index>(next);
    out.time.push_back(t);
    out.root_position.col(i) = (1 - w) * trajectory.root_position.col(a) + w * trajectory.root_position.col(b);
    out.root_orientation.push_back(
        trajectory.root_orientation[k].slerp(w, trajectory.root_orientation[next]).normalized());
    out.q.row(i) = (1 - w) * trajectory.q.row(a) + w * trajectory.q.row(b);
    out.contacts.row(i) = w < 0.5 ? trajectory.contacts.row(a) : trajectory.contacts.row(b);
  }
  return out;
}

RETARGET_LAZY_DEF void writeFloatingBaseCsv(const FloatingBaseTrajectory& trajectory, std::ostream& out,
                                            FloatingBaseFormat format) {
  trajectory.validate();
  std::string line;
  const bool ours = format == FloatingBaseFormat::kCsv;
  if (ours) {
    line = "time,root_x,root_y,root_z,root_qx,root_qy,root_qz,root_qw";
    for (const std::string& name : trajectory.joint_names) line += "," + name;
    line += ",contact_left,contact_right\n";
    out << line;
  }
  for (std::size_t i = 0; i < trajectory.size(); ++i) {
    const auto f = static_cast<Eigen::Index>(i);
    line.clear();
    if (ours) {
      internal::appendNumber(line, trajectory.time[i]);
      line += ',';
    }
    const Eigen::Quaterniond& r = trajectory.root_orientation[i];
    const double values[7] = {trajectory.root_position(0, f),
                              trajectory.root_position(1, f),
                              trajectory.root_position(2, f),
                              r.x(),
                              r.y(),
                              r.z(),
                              r.w()};
    for (int c = 0; c < 7; ++c) {
      if (c > 0) line += ',';
      internal::appendNumber(line, values[c]);
    }
    for (Eigen::Index j = 0; j < trajectory.q.cols(); ++j) {
      line += ',';
      internal::appendNumber(line, trajectory.q(f, j));
    }
    if (ours) {
      line += trajectory.contacts(f, 0) != 0 ? ",1" : ",0";
      line += trajectory.contacts(f, 1) != 0 ? ",1" : ",0";
    }
    line += '\n';
    out << line;
  }
}

RETARGET_LAZY_DEF void writeFloatingBaseCsv(const FloatingBaseTrajectory& trajectory, const std::string& path,
                                            FloatingBaseFormat format) {
  trajectory.validate();
  std::ofstream out = internal::openForWriting(path);
  writeFloatingBaseCsv(trajectory, out, format);
  internal::finishWriting(out, path);
}

RETARGET_LAZY_DEF FloatingBaseTrajectory readFloatingBaseCsv(std::istream& in, const std::string& file) {
  internal::LineReader reader(in, file);
  if (!reader.nextNonEmpty()) reader.fail("expected a header 'time,root_x,...', got an empty file");
  std::vector<std::string_view> fields;
  internal::splitFields(reader.line(), ',', fields);
  static const char* const kFixed[8] = {"time",    "root_x",  "root_y",  "root_z",
                                        "root_qx", "root_qy", "root_qz", "root_qw"};
  if (fields.size() < 10)
    reader.fail("expected at least 10 header columns (time, the root, contact_left, contact_right)");
  for (std::size_t c = 0; c < 8; ++c) {
    if (fields[c] != kFixed[c]) {
      reader.fail("expected header column " + std::to_string(c + 1) + " '" + kFixed[c] + "', got " +
                  internal::quoted(fields[c]));
    }
  }
  if (fields[fields.size() - 2] != "contact_left" || fields.back() != "contact_right") {
    reader.fail("expected the header to end with 'contact_left,contact_right'");
  }
  FloatingBaseTrajectory t;
  for (std::size_t c = 8; c + 2 < fields.size(); ++c) t.joint_names.emplace_back(fields[c]);
  const std::size_t columns = fields.size();
  std::vector<double> root, q;
  std::vector<int> contacts;
  internal::CsvRowTimes times;
  while (reader.nextNonEmpty()) {
    t.time.push_back(internal::splitTimedCsvRow(reader, columns, times, fields));
    for (std::size_t c = 1; c < 8; ++c)
      root.push_back(internal::parseFiniteOrFail(reader, fields[c], c + 1, kFixed[c]));
    for (std::size_t c = 8; c + 2 < columns; ++c) {
      q.push_back(internal::parseFiniteOrFail(reader, fields[c], c + 1, t.joint_names[c - 8]));
    }
    for (std::size_t c = columns - 2; c < columns; ++c) {
      if (fields[c] != "0" && fields[c] != "1") {
        reader.fail("expected 0 or 1 in column " + std::to_string(c + 1) + ", got " + internal::quoted(fields[c]));
      }
      contacts.push_back(fields[c] == "1" ? 1 : 0);
    }
  }
  const auto n = static_cast<Eigen::Index>(t.time.size());
  t.root_position.resize(3, n);
  t.q.resize(n, static_cast<Eigen::Index>(t.joint_names.size()));
  t.contacts.resize(n, 2);
  for (Eigen::Index i = 0; i < n; ++i) {
    const double* r = root.data() + 7 * i;
    t.root_position.col(i) << r[0], r[1], r[2];
    t.root_orientation.emplace_back(r[6], r[3], r[4], r[5]);  // Eigen's constructor takes w, x, y, z
    for (Eigen::Index j = 0; j < t.q.cols(); ++j) t.q(i, j) = q[static_cast<std::size_t>(i * t.q.cols() + j)];
    t.contacts(i, 0) = contacts[static_cast<std::size_t>(2 * i)];
    t.contacts(i, 1) = contacts[static_cast<std::size_t>(2 * i + 1)];
  }
  try {
    t.validate();
  } catch (const InvalidArgument& e) {
    throw ParseError(file, 0, e.what());
  }
  return t;
}

RETARGET_LAZY_DEF FloatingBaseTrajectory readFloatingBaseCsv(const std::string& path) {
  std::ifstream in = internal::openForReading(path);
  return readFloatingBaseCsv(in, path);
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
