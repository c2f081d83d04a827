#pragma once

/// @file
/// Any supported human-motion file by its kind, for every front end (the command line's map,
/// eval, convert, info, batch; Python's `read_motion`): BVH (built-in rigs detected by joint
/// names, else the automatic rig binding), Kinect v2 Laban CSV / Keraal TXT, NTU RGB+D .skeleton,
/// skeleton CSV, MediaPipe / OpenPose keypoint CSV. Part of the application layer
/// (include/retarget/app/: what the command line and Python share), outside retarget/retarget.hpp.
/// `detectMotionFile` and `loadMotion` are templates (RETARGET_ALWAYS_LAZY_DECL,
/// core/compilation.hpp): the readers they call are compiled where a front end calls them.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/schema.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/keypoints_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/ntu_skeleton.hpp>
#include <retarget/io/skeleton_csv.hpp>

namespace retarget::app {

/// Kinds of motion (and angle) files the front ends recognise.
enum class MotionFileKind {
  kBvh,              ///< .bvh
  kKinectLabanCsv,   ///< headerless CSV, timestamp + 25 x (x, y, z, state)
  kKinectKeraalTxt,  ///< space-separated 25 x (x, y, z, qx, qy, qz, qw)
  kNtuSkeleton,      ///< .skeleton
  kSkeletonCsv,      ///< our CSV: time,<Joint>.x,...
  kKeypointCsv,      ///< time,<keypoint>.x,... with MediaPipe or OpenPose names
  kJointTrajectory,  ///< time,<robot joint names...> (robot output, not a human motion)
  kUnknown,
};

/// Human-readable name of a file kind, e.g. "Kinect v2 CSV (LabanotationSuite layout)".
inline const char* describe(MotionFileKind kind) {
  switch (kind) {
    case MotionFileKind::kBvh:
      return "BVH motion capture";
    case MotionFileKind::kKinectLabanCsv:
      return "Kinect v2 CSV (LabanotationSuite layout)";
    case MotionFileKind::kKinectKeraalTxt:
      return "Kinect v2 TXT (Keraal layout)";
    case MotionFileKind::kNtuSkeleton:
      return "NTU RGB+D .skeleton (Kinect v2)";
    case MotionFileKind::kSkeletonCsv:
      return "skeleton CSV (retarget)";
    case MotionFileKind::kKeypointCsv:
      return "3D keypoint CSV";
    case MotionFileKind::kJointTrajectory:
      return "joint-trajectory CSV (robot joint angles)";
    case MotionFileKind::kUnknown:
      return "unknown";
  }
  return "unknown";
}

/// The extension of `path` in lower case (ASCII, locale-independent), dot included: ".bvh".
inline std::string lowerExtension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), retarget::internal::toLowerAscii);
  return extension;
}

/// Detects the kind of `path` from its extension and first non-empty line. Throws ParseError
/// when a .csv or .txt file cannot be read.
RETARGET_ALWAYS_LAZY_DECL MotionFileKind detectMotionFile(const std::string& path) {
  const std::string extension = lowerExtension(path);
  if (extension == ".bvh") return MotionFileKind::kBvh;
  if (extension == ".skeleton") return MotionFileKind::kNtuSkeleton;
  if (extension != ".csv" && extension != ".txt") return MotionFileKind::kUnknown;
  std::ifstream in = retarget::internal::openForReading(path);
  retarget::internal::LineReader reader(in, path);
  if (!reader.nextNonEmpty()) return MotionFileKind::kUnknown;
  std::vector<std::string_view> fields;
  retarget::internal::splitFields(reader.line(), ',', fields);
  if (fields.size() == 1) {  // no commas: whitespace-separated Keraal rows
    retarget::internal::splitWhitespace(reader.line(), fields);
    return fields.size() == kKinectKeraalValueCount ? MotionFileKind::kKinectKeraalTxt : MotionFileKind::kUnknown;
  }
  if (fields[0] == "time") {
    if (detectKeypointSchema(reader.line()) != nullptr) return MotionFileKind::kKeypointCsv;
    const bool positions = std::any_of(fields.begin() + 1, fields.end(), [](std::string_view f) {
      return f.size() > 2 && f.substr(f.size() - 2) == ".x";
    });
    return positions ? MotionFileKind::kSkeletonCsv : MotionFileKind::kJointTrajectory;
  }
  unsigned long long tick = 0;
  if (retarget::internal::parseUnsigned(fields[0], tick)) return MotionFileKind::kKinectLabanCsv;
  return MotionFileKind::kUnknown;
}

/// Loads any supported human motion into the canonical frame (m; x forward, y left, z up). A BVH
/// file is bound with the schema file `bvh_schema` (human/schema.hpp text format, e.g. edited
/// from `retarget schema suggest`) when it is not empty, else its built-in schema, else the
/// automatic rig binding. Throws ParseError (file, line, what) for a malformed or unrecognised
/// file or a joint-trajectory CSV, InvalidArgument when a BVH rig cannot be bound (naming what is
/// missing).
RETARGET_ALWAYS_LAZY_DECL SkeletonMotion<double> loadMotion(const std::string& path,
                                                            const std::string& bvh_schema = "") {
  switch (detectMotionFile(path)) {
    case MotionFileKind::kBvh:
      if (!bvh_schema.empty()) return bvhToSkeleton(readBvh(path), readSchema(bvh_schema));
      return bvhToSkeleton(readBvh(path));
    case MotionFileKind::kKinectLabanCsv:
      return readKinectLabanCsv(path);
    case MotionFileKind::kKinectKeraalTxt:
      return readKinectKeraalTxt(path);
    case MotionFileKind::kNtuSkeleton:
      return readNtuSkeleton(path);
    case MotionFileKind::kSkeletonCsv:
      return readSkeletonCsv(path);
    case MotionFileKind::kKeypointCsv:
      return readKeypointCsv(path);
    case MotionFileKind::kJointTrajectory:
      throw ParseError(path, 1, "expected a human motion, got a joint-trajectory CSV (robot joint angles)");
    case MotionFileKind::kUnknown:
      break;
  }
  throw ParseError(path, 0,
                   "unrecognised motion file (expected .bvh, .skeleton, skeleton/keypoint/Kinect .csv or Keraal .txt)");
}

}  // namespace retarget::app
