// `retarget info <motion file>`: format, joints, frames, rate, duration, units and tracking
// counts of Kinect CSV/TXT, NTU .skeleton, skeleton CSV and keypoint CSV files (and of
// joint-trajectory CSVs). BVH files are described by their own handler when one is registered.
#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <iostream>

#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>

#include "cli.hpp"
#include "motion_loading.hpp"

namespace retarget::cli {
namespace {

void describeTrajectory(const std::string& path) {
  const JointTrajectory trajectory = readJointTrajectoryCsv(path);
  std::cout << "file:        " << path << "\n"
            << "format:      " << describe(MotionFileKind::kJointTrajectory) << "\n"
            << "joints:      " << trajectory.jointCount() << "\n"
            << "frames:      " << trajectory.size() << "\n";
  if (trajectory.size() >= 2) {
    std::cout << "rate:        " << fixed(static_cast<double>(trajectory.size() - 1) / trajectory.duration(), 3)
              << " Hz (mean)\n";
  }
  std::cout << "duration:    " << fixed(trajectory.duration(), 3) << " s\n"
            << "units:       seconds, radians (metres for prismatic joints)\n"
            << "joint names:";
  for (const std::string& name : trajectory.joint_names) std::cout << " " << name;
  std::cout << "\n";
}

void describeMotion(const std::string& path) {
  const MotionFileKind kind = detectMotionFile(path);
  if (kind == MotionFileKind::kJointTrajectory) {
    describeTrajectory(path);
    return;
  }
  if (kind == MotionFileKind::kUnknown) {
    throw ParseError(path, 0, "unrecognised motion file (expected a Kinect CSV/TXT, NTU .skeleton, skeleton CSV, "
                              "keypoint CSV or joint-trajectory CSV)");
  }
  const SkeletonMotion<double> motion = loadMotion(path);
  std::array<std::size_t, 3> counts{};  // not tracked, inferred, tracked joint samples
  std::array<bool, kHumanJointCount> present{};
  for (const auto& frame : motion.frames) {
    for (std::size_t j = 0; j < kHumanJointCount; ++j) {
      ++counts[static_cast<std::size_t>(frame.state[j])];
      present[j] = present[j] || frame.state[j] != TrackingState::kNotTracked;
    }
  }
  const auto provided = std::count(present.begin(), present.end(), true);
  std::cout << "file:        " << path << "\n"
            << "format:      " << describe(kind) << " [" << motion.format << "]\n"
            << "joints:      " << kHumanJointCount << " canonical (" << provided << " with data)";
  if (!motion.extra_joint_names.empty()) std::cout << " + " << motion.extra_joint_names.size() << " extra";
  std::cout << "\n"
            << "frames:      " << motion.size() << "\n"
            << "rate:        " << fixed(motion.frame_rate, 3) << " Hz\n"
            << "duration:    " << fixed(motion.duration(), 3) << " s\n"
            << "units:       metres, seconds; canonical frame (x forward, y left, z up)\n"
            << "orientations: " << (!motion.empty() && motion.frames.front().has_orientations ? "yes" : "no") << "\n"
            << "tracking:    " << counts[2] << " tracked, " << counts[1] << " inferred, " << counts[0]
            << " not tracked (joint samples)\n";
  if (kind == MotionFileKind::kBvh) {
    const BvhMotion bvh = readBvh(path);
    std::cout << "source:      " << bvh.jointCount() << " BVH joints + " << (bvh.jointCount(true) - bvh.jointCount())
              << " End Sites, " << bvh.channel_count << " channels per frame, frame time " << bvh.frame_time << " s\n";
  }
}

constexpr const char* kHandlerKind = "motion";

const bool kInfoMotionRegistered = registerInfoHandler(InfoHandler{
    kHandlerKind,
    [](const std::string& path) {
      if (path.rfind("robot:", 0) == 0) return false;
      const std::string extension = lowerExtension(path);
      if (extension == ".csv" || extension == ".txt" || extension == ".skeleton") return true;
      if (extension != ".bvh") return false;
      // BVH: only when no dedicated BVH handler is registered.
      for (const InfoHandler& other : infoHandlers()) {
        if (other.kind != kHandlerKind && other.accepts(path)) return false;
      }
      return true;
    },
    describeMotion});

}  // namespace
}  // namespace retarget::cli
