#pragma once

/// @file
/// Recording a live session frame by frame: a joint-trajectory CSV of the robot's angles and a
/// skeleton CSV of the human frames, in the layouts of joint_trajectory_csv.hpp and
/// skeleton_csv.hpp, so a recorded session reads back with their readers (bit for bit) and
/// replays with `retarget live --source replay:FILE`.
///
/// Opening the file throws `Error` naming it; `record` never throws and does not allocate
/// (the line buffer is sized when the recorder is made); `close` flushes and throws `Error`
/// naming the file when anything failed to be written. A frame that would break the format
/// (time not increasing, a value not finite, a wrong size) is skipped and counted.

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/io/internal/text.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>

namespace retarget {

namespace internal {

/// The file handling both recorders share: open, append lines, count, close.
class CsvRecorderFile {
 public:
  RETARGET_DECL CsvRecorderFile(const std::string& path, const std::string& header, std::size_t line_capacity);

  RETARGET_DECL ~CsvRecorderFile();

  CsvRecorderFile(const CsvRecorderFile&) = delete;
  CsvRecorderFile& operator=(const CsvRecorderFile&) = delete;

  /// Frames written and skipped.
  std::uint64_t written() const { return written_; }
  std::uint64_t skipped() const { return skipped_; }
  const std::string& path() const { return path_; }

  /// Flushes and closes; throws Error naming the file when writing failed.
  RETARGET_LAZY_DECL void close();

 protected:
  // Accepts a frame at `time` (finite, after the last) or counts it skipped.
  RETARGET_LAZY_DECL bool accept(double time, bool valid);

  RETARGET_LAZY_DECL bool commit(double time);

  std::string line_;

 private:
  std::string path_;
  std::ofstream out_;
  double last_time_ = 0;
  std::uint64_t written_ = 0, skipped_ = 0;
};

}  // namespace internal

/// Records robot angles as a joint-trajectory CSV (time in s, then q in rad, m for prismatic).
class JointTrajectoryCsvRecorder : public internal::CsvRecorderFile {
 public:
  /// `joint_names`: the columns (e.g. `model.qNames()`). Throws InvalidArgument for empty or
  /// duplicate names or names with commas, Error when `path` cannot be written.
  JointTrajectoryCsvRecorder(const std::string& path, const std::vector<std::string>& joint_names)
      : internal::CsvRecorderFile(path, headerOf(joint_names), 32 * (joint_names.size() + 1)),
        joint_count_(static_cast<Eigen::Index>(joint_names.size())) {}

  /// Writes one row. Returns false (counted in `skipped`) when q has the wrong size or is not
  /// finite, or the time does not increase; false also when the stream failed.
  RETARGET_LAZY_DECL bool record(double time, const Eigen::Ref<const Eigen::VectorXd>& q);

 private:
  RETARGET_LAZY_DECL static std::string headerOf(const std::vector<std::string>& joint_names);

  Eigen::Index joint_count_ = 0;
};

/// Records human frames as a skeleton CSV (canonical frame W, m; states and hands).
class SkeletonCsvRecorder : public internal::CsvRecorderFile {
 public:
  /// Throws Error when `path` cannot be written.
  explicit SkeletonCsvRecorder(const std::string& path, const SkeletonCsvWriteOptions& options = {})
      : internal::CsvRecorderFile(path, headerOf(options), 32 * (4 * kHumanJointCount + 4)), options_(options) {}

  /// Writes one frame. Returns false (counted in `skipped`) when a joint that is tracked or
  /// inferred has a position that is not finite or the time does not increase.
  RETARGET_LAZY_DECL bool record(const SkeletonFrame<double>& frame);

 private:
  RETARGET_LAZY_DECL static std::string headerOf(const SkeletonCsvWriteOptions& options);

  SkeletonCsvWriteOptions options_;
};

#if RETARGET_DEFINE_IO

RETARGET_DECL internal::CsvRecorderFile::CsvRecorderFile(const std::string& path, const std::string& header,
                                                         std::size_t line_capacity)
    : path_(path), out_(openForWriting(path)) {
  line_.reserve(line_capacity);
  out_ << header << '\n';
}

RETARGET_DECL internal::CsvRecorderFile::~CsvRecorderFile() {
  if (out_.is_open()) out_.close();
}

RETARGET_LAZY_DEF void internal::CsvRecorderFile::close() {
  if (!out_.is_open()) return;
  finishWriting(out_, path_);
  out_.close();
}

RETARGET_LAZY_DEF bool internal::CsvRecorderFile::accept(double time, bool valid) {
  if (!valid || !(time - time == 0.0) || (written_ > 0 && !(time > last_time_)) || !out_.is_open()) {
    ++skipped_;
    return false;
  }
  line_.clear();
  return true;
}

RETARGET_LAZY_DEF bool internal::CsvRecorderFile::commit(double time) {
  line_ += '\n';
  out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
  last_time_ = time;
  ++written_;
  return out_.good();
}

RETARGET_LAZY_DEF bool JointTrajectoryCsvRecorder::record(double time, const Eigen::Ref<const Eigen::VectorXd>& q) {
  if (!accept(time, q.size() == joint_count_ && q.allFinite())) return false;
  internal::appendJointTrajectoryRow(line_, time, q);
  return commit(time);
}

RETARGET_LAZY_DEF std::string JointTrajectoryCsvRecorder::headerOf(const std::vector<std::string>& joint_names) {
  JointTrajectory columns;
  columns.joint_names = joint_names;
  columns.positions.resize(0, static_cast<Eigen::Index>(joint_names.size()));
  columns.validate();
  std::string header = "time";
  for (const std::string& name : joint_names) header += "," + name;
  return header;
}

RETARGET_LAZY_DEF bool SkeletonCsvRecorder::record(const SkeletonFrame<double>& frame) {
  bool valid = true;
  for (std::size_t j = 0; j < frame.p_W.size(); ++j) {
    valid = valid && (frame.state[j] == TrackingState::kNotTracked || frame.p_W[j].allFinite());
  }
  if (!accept(frame.time, valid)) return false;
  internal::appendSkeletonCsvRow(line_, frame, options_);
  return commit(frame.time);
}

RETARGET_LAZY_DEF std::string SkeletonCsvRecorder::headerOf(const SkeletonCsvWriteOptions& options) {
  std::string header;
  internal::appendSkeletonCsvHeader(header, options);
  return header;
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
