// Motion-file detection and loading for the `retarget` command line.
#include "motion_loading.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/human/schema.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/keypoints_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/ntu_skeleton.hpp>
#include <retarget/io/skeleton_csv.hpp>

namespace retarget::cli {

const char* describe(MotionFileKind kind) {
  switch (kind) {
    case MotionFileKind::kBvh: return "BVH motion capture";
    case MotionFileKind::kKinectLabanCsv: return "Kinect v2 CSV (LabanotationSuite layout)";
    case MotionFileKind::kKinectKeraalTxt: return "Kinect v2 TXT (Keraal layout)";
    case MotionFileKind::kNtuSkeleton: return "NTU RGB+D .skeleton (Kinect v2)";
    case MotionFileKind::kSkeletonCsv: return "skeleton CSV (retarget)";
    case MotionFileKind::kKeypointCsv: return "3D keypoint CSV";
    case MotionFileKind::kJointTrajectory: return "joint-trajectory CSV (robot joint angles)";
    case MotionFileKind::kUnknown: return "unknown";
  }
  return "unknown";
}

MotionFileKind detectMotionFile(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".bvh") return MotionFileKind::kBvh;
  if (extension == ".skeleton") return MotionFileKind::kNtuSkeleton;
  if (extension != ".csv" && extension != ".txt") return MotionFileKind::kUnknown;
  std::ifstream in = internal::openForReading(path);
  internal::LineReader reader(in, path);
  if (!reader.nextNonEmpty()) return MotionFileKind::kUnknown;
  std::vector<std::string_view> fields;
  internal::splitFields(reader.line(), ',', fields);
  if (fields.size() == 1) {  // no commas: whitespace-separated Keraal rows
    internal::splitWhitespace(reader.line(), fields);
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
  if (internal::parseUnsigned(fields[0], tick)) return MotionFileKind::kKinectLabanCsv;
  return MotionFileKind::kUnknown;
}

namespace {
std::string& bvhSchemaFile() {
  static std::string path;
  return path;
}
}  // namespace

void setBvhSchemaFile(const std::string& path) { bvhSchemaFile() = path; }

retarget::SkeletonMotion<double> loadMotion(const std::string& path) {
  switch (detectMotionFile(path)) {
    case MotionFileKind::kBvh:
      if (!bvhSchemaFile().empty()) return bvhToSkeleton(readBvh(path), readSchema(bvhSchemaFile()));
      return bvhToSkeleton(readBvh(path));
    case MotionFileKind::kKinectLabanCsv: return readKinectLabanCsv(path);
    case MotionFileKind::kKinectKeraalTxt: return readKinectKeraalTxt(path);
    case MotionFileKind::kNtuSkeleton: return readNtuSkeleton(path);
    case MotionFileKind::kSkeletonCsv: return readSkeletonCsv(path);
    case MotionFileKind::kKeypointCsv: return readKeypointCsv(path);
    case MotionFileKind::kJointTrajectory:
      throw ParseError(path, 1, "expected a human motion, got a joint-trajectory CSV (robot joint angles)");
    case MotionFileKind::kUnknown: break;
  }
  throw ParseError(path, 0,
                   "unrecognised motion file (expected .bvh, .skeleton, skeleton/keypoint/Kinect .csv or Keraal .txt)");
}

}  // namespace retarget::cli
