#pragma once

// Loading any supported human-motion file for the `retarget` subcommands (map, eval, convert,
// info): BVH (built-in rigs detected by joint names), Kinect v2 Laban CSV / Keraal TXT, NTU
// RGB+D .skeleton, skeleton CSV, MediaPipe / OpenPose keypoint CSV.

#include <string>

#include <retarget/human/motion.hpp>

namespace retarget::cli {

/// Kinds of files the command line recognises.
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
const char* describe(MotionFileKind kind);

/// Detects the kind of `path` from its extension and first non-empty line. Throws
/// retarget::ParseError when the file cannot be read.
MotionFileKind detectMotionFile(const std::string& path);

/// Loads any supported human motion into the canonical frame (metres; x forward, y left,
/// z up). A BVH file uses the schema file given with `setBvhSchemaFile` when there is one,
/// else its built-in schema, else the automatic rig binding. Throws retarget::ParseError (file,
/// line, what) for malformed or unrecognised files and retarget::InvalidArgument when a BVH rig
/// cannot be bound (naming what is missing).
retarget::SkeletonMotion<double> loadMotion(const std::string& path);

/// The schema file (human/schema.hpp text format, e.g. edited from `retarget schema suggest`)
/// that `loadMotion` applies to BVH files; empty: none (the global `--schema` option).
void setBvhSchemaFile(const std::string& path);

}  // namespace retarget::cli
