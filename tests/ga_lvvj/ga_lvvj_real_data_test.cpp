// GA-LVVJ on the real recordings of ../shared/data: every Kinect v2 file and every BVH take
// (through its schema) maps onto NAO with finite output within limits; the mean WBF and LLF of
// the robot's virtual skeleton against the human are reported per file.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

std::vector<std::filesystem::path> filesIn(const std::filesystem::path& dir, const std::string& extension) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string ext = entry.path().extension().string();
    if (extension.empty() || ext == extension) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Maps a motion onto NAO, checks every frame, and reports the similarity.
void mapAndReport(const std::string& file, const SkeletonMotiond& motion, bool hip_from_knees) {
  static const RobotModel<double> nao = makeNao<double>();
  GaLvvjOptions options;
  if (hip_from_knees) options.hip_yaw_pitch_mode = GaLvvjOptions::HipYawPitchMode::kFromKnees;
  const std::string label = file + (hip_from_knees ? " [HipYawPitch from knees]" : " [HipYawPitch 0]");
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap(), options);
  VirtualSkeleton<double> skeleton(nao, naoGaLvvjMap());
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  std::vector<SkeletonFramed> robot(motion.size());
  int bad_frames = 0;
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const Eigen::VectorXd q = mapped.q.row(static_cast<Eigen::Index>(k)).transpose();
    if (!withinLimits(nao, q)) ++bad_frames;
    robot[k].time = motion.frames[k].time;
    REQUIRE(skeleton.compute(q, robot[k]).ok());
  }
  CHECK_MESSAGE(bad_frames == 0, label);
  const MotionSimilarity<double> similarity = motionSimilarity(motion.frames, robot);
  MESSAGE(label, ": ", motion.size(), " frames, clamped frames ", mapped.clamped_frames, ", held frames ",
          mapped.held_frames, ", WBF mean ", similarity.wbf_mean, " (min ", similarity.wbf_min, "), LLF mean ",
          similarity.llf_mean, " (min ", similarity.llf_min, "), cosine mean ", similarity.cosine_mean);
  std::string per_link;
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    per_link += std::string(i ? ", " : "") + kSimilarityLinkNames[static_cast<std::size_t>(i)] + " " +
                std::to_string(similarity.wbf_link_mean[static_cast<std::size_t>(i)]) + "/" +
                std::to_string(similarity.llf_link_mean[static_cast<std::size_t>(i)]);
  }
  MESSAGE(label, " per link WBF/LLF: ", per_link);
  if (!motion.empty()) {
    CHECK(similarity.wbf_mean > -1.0);
    CHECK(similarity.wbf_mean <= 1.0);
    CHECK(similarity.llf_mean <= 1.0);
    // NAO imitates the upper limbs well on any recording: the mapped links must agree better
    // than chance (a random direction has mean cosine 0).
    CHECK(similarity.llf_link_mean[static_cast<std::size_t>(SimilarityLink::kLeftUpperArm)] > 0.5);
    CHECK(similarity.llf_link_mean[static_cast<std::size_t>(SimilarityLink::kRightUpperArm)] > 0.5);
  }
}

}  // namespace

TEST_CASE("ga-lvvj real data: every Kinect v2 recording maps onto NAO") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto files = filesIn(data_dir / "kinect", "");
  REQUIRE(!files.empty());
  for (const auto& path : files) {
    const SkeletonMotiond motion = readKinect(path.string());
    REQUIRE(!motion.empty());
    mapAndReport(path.filename().string(), motion, false);
    mapAndReport(path.filename().string(), motion, true);
  }
}

TEST_CASE("ga-lvvj real data: every BVH take maps onto NAO through its schema") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto files = filesIn(data_dir / "bvh", ".bvh");
  REQUIRE(!files.empty());
  for (const auto& path : files) {
    const BvhMotion bvh = readBvh(path);
    const SkeletonMotiond motion = bvhToSkeleton(bvh);
    mapAndReport(path.filename().string(), motion, false);
    mapAndReport(path.filename().string(), motion, true);
  }
}
