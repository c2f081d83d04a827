// GA-LVVJ on the real recordings of ../shared/data: every Kinect v2 file and every BVH take
// (through its schema) maps onto NAO with finite output within limits; the WBF, LLF and cosine
// similarity of the robot's virtual skeleton against the human are reported per file and held to
// per-file floors (kQualityFloors).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/floors.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// Quality floors (defect 4, made relative in issue 29): the mean WBF, LLF and cosine similarity
// of the robot's virtual skeleton against the human, and the worst frame's WBF and LLF, per file
// and HipYawPitch mode, as measured with the GA-LVVJ mapper of the day these floors were set. A
// run must reach relativeFloor(measured) (support/floors.hpp: the error 1 - s may grow by at most
// 25 %, and the score may lose at most 0.05 and a quarter of itself): a regression in mapping
// quality fails, an improvement passes. The second rule is what gives the close-range worst frames
// a floor that can fail: by the error rule alone they were 0.24, 0.05, 0.09 and 0.02; now 0.343,
// 0.193, 0.223 and 0.167. A recording without an entry fails until its floors are added here.
// Measured with GCC 12 (test preset). Regression floors only, no claim of generalisation: some
// defaults were chosen on the Keraal recordings (tests/tuning_split.md, `ga_lvvj_jump_cost`,
// `ga_lvvj_hip_yaw_pitch_from_knees`).
struct QualityFloor {
  const char* file;
  bool hip_from_knees;
  double wbf_mean, llf_mean, cosine_mean, wbf_min, llf_min;  // measured values
};
const QualityFloor kQualityFloors[] = {
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", false, 0.920817, 0.849166, 0.918712, 0.842742, 0.703444},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", true, 0.941216, 0.961344, 0.937257, 0.814751, 0.788538},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", false, 0.932154, 0.857362, 0.930990, 0.815645, 0.717636},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", true, 0.939306, 0.979346, 0.937492, 0.841659, 0.851897},
    {"laban_ges01_wavehand_kinect2.csv", false, 0.996522, 0.998766, 0.990755, 0.989748, 0.991865},
    {"laban_ges01_wavehand_kinect2.csv", true, 0.996522, 0.998766, 0.990755, 0.989748, 0.991865},
    {"laban_ges03_drawlines_kinect2.csv", false, 0.994322, 0.998735, 0.989161, 0.985676, 0.993786},
    {"laban_ges03_drawlines_kinect2.csv", true, 0.994322, 0.998735, 0.989161, 0.985676, 0.993786},
    {"laban_ges04_comehere_kinect2.csv", false, 0.982311, 0.989661, 0.976742, 0.971838, 0.962670},
    {"laban_ges04_comehere_kinect2.csv", true, 0.982311, 0.989661, 0.976742, 0.971838, 0.962670},
    {"laban_ges06_chickenwing_kinect2.csv", false, 0.972025, 0.947598, 0.966413, 0.920897, 0.821483},
    {"laban_ges06_chickenwing_kinect2.csv", true, 0.972025, 0.947598, 0.966413, 0.920897, 0.821483},
    // Re-measured in issue 53 after the legs' second analytic solution (mappers/ga_lvvj.hpp,
    // chooseLegBranch): WBF mean 0.953 -> 0.967 and 0.945 -> 0.962, worst frames 0.393 -> 0.661
    // and 0.273 -> 0.484, cosine up; LLF mean 0.963 -> 0.953 and 0.960 -> 0.952 (the right
    // knee's phantom sideways lift, which no NAO pose follows, trades its LLF for WBF).
    {"laban_kinectreader_joints_closerange_kinect2.csv", false, 0.966729, 0.952868, 0.961657, 0.660757, 0.282036},
    {"laban_kinectreader_joints_closerange_kinect2.csv", true, 0.962397, 0.951905, 0.957861, 0.484044, 0.231282},
    {"cmu_skeleton31_deepmotionediting_example.bvh", false, 0.992905, 0.991601, 0.977817, 0.985349, 0.982394},
    {"cmu_skeleton31_deepmotionediting_example.bvh", true, 0.989128, 0.998322, 0.974384, 0.983024, 0.995530},
    {"mixamo_rig_55j_fingers_20tab_test_freebvh.bvh", false, 0.983783, 0.998738, 0.965440, 0.975412, 0.996551},
    {"mixamo_rig_55j_fingers_20tab_test_freebvh.bvh", true, 0.984066, 0.999183, 0.965698, 0.975641, 0.998070},
    {"noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh", false, 0.998518, 0.996247, 0.994540, 0.991306, 0.978466},
    {"noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh", true, 0.998518, 0.996247, 0.994540, 0.991306, 0.978466},
    {"xia_cmu_skeleton31_neutral_walk_01_000.bvh", false, 0.988742, 0.991592, 0.982314, 0.978031, 0.975072},
    {"xia_cmu_skeleton31_neutral_walk_01_000.bvh", true, 0.986086, 0.998333, 0.979900, 0.975951, 0.995031},
    {"xia_cmu_skeleton31_strutting_walk_01_000.bvh", false, 0.978939, 0.989379, 0.956886, 0.954864, 0.969687},
    {"xia_cmu_skeleton31_strutting_walk_01_000.bvh", true, 0.977764, 0.995508, 0.955818, 0.956748, 0.987223},
};

const QualityFloor* findFloor(const std::string& file, bool hip_from_knees) {
  for (const auto& floor : kQualityFloors) {
    if (file == floor.file && floor.hip_from_knees == hip_from_knees) return &floor;
  }
  return nullptr;
}

// Maps a motion onto NAO, checks every frame, and reports the similarity.
void mapAndReport(const std::string& file, const SkeletonMotiond& motion, bool hip_from_knees) {
  static const RobotModel<double> nao = makeNao<double>();
  GaLvvjOptions options;
  // Both modes set explicitly: kFromKnees is the default, so leaving the option alone for the
  // "HipYawPitch 0" run would map the same way twice.
  options.hip_yaw_pitch_mode =
      hip_from_knees ? GaLvvjOptions::HipYawPitchMode::kFromKnees : GaLvvjOptions::HipYawPitchMode::kFixed;
  const std::string label = file + (hip_from_knees ? " [HipYawPitch from knees]" : " [HipYawPitch 0]");
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap(), options);
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
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
    CAPTURE(label);
    const QualityFloor* floor = findFloor(file, hip_from_knees);
    CHECK_MESSAGE(floor != nullptr, label << ": no quality floor in kQualityFloors");
    if (floor != nullptr) {
      RETARGET_CHECK_FLOOR(similarity.wbf_mean, floor->wbf_mean);
      RETARGET_CHECK_FLOOR(similarity.llf_mean, floor->llf_mean);
      RETARGET_CHECK_FLOOR(similarity.cosine_mean, floor->cosine_mean);
      // The worst frame too: a mean can hide a few frames that turned bad.
      RETARGET_CHECK_FLOOR(similarity.wbf_min, floor->wbf_min);
      RETARGET_CHECK_FLOOR(similarity.llf_min, floor->llf_min);
    }
    // NAO imitates the upper limbs well on any recording: the mapped links must agree better
    // than chance (a random direction has mean cosine 0).
    CHECK(similarity.llf_link_mean[static_cast<std::size_t>(SimilarityLink::kLeftUpperArm)] > 0.5);
    CHECK(similarity.llf_link_mean[static_cast<std::size_t>(SimilarityLink::kRightUpperArm)] > 0.5);
  }
}

}  // namespace

TEST_CASE("ga-lvvj real data: every Kinect v2 recording maps onto NAO") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto files = test::filesIn(data_dir / "kinect", "");
  CHECK(files.size() == 7);  // MANIFEST.md: 5 LabanotationSuite CSVs and 2 Keraal samples
  for (const auto& path : files) {
    const SkeletonMotiond motion = readKinect(path.string());
    REQUIRE(!motion.empty());
    mapAndReport(path.filename().string(), motion, false);
    mapAndReport(path.filename().string(), motion, true);
  }
}

TEST_CASE("ga-lvvj real data: every BVH take maps onto NAO through its schema") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto files = test::filesIn(data_dir / "bvh", ".bvh");
  CHECK(files.size() == 6);  // MANIFEST.md: 6 BVH files, one of them the 0-frame PN Studio template
  int with_frames = 0;
  for (const auto& path : files) {
    const BvhMotion bvh = readBvh(path);
    const SkeletonMotiond motion = bvhToSkeleton(bvh);
    with_frames += motion.empty() ? 0 : 1;
    mapAndReport(path.filename().string(), motion, false);
    mapAndReport(path.filename().string(), motion, true);
  }
  CHECK(with_frames == 5);  // every take but the template is mapped and held to its floors
}
