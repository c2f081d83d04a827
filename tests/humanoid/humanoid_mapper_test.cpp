// The humanoid mapper (mappers/humanoid.hpp) on robots bound automatically
// (robots/humanoid_binding.hpp), issue 38:
//  - round trip: the robot's own poses (its virtual skeleton at configurations within the limits,
//    along a continuous path) are mapped back to the same link directions;
//  - held-out recordings on the Unitree G1 and H1: per link, within 0.02 of the best reachable
//    WBF / LLF (metrics/best_reachable.hpp) where the human pose is within reach; no frame
//    outside the limits; no step above 0.5 rad unless reported as a discontinuity;
//  - two humanoids no test has seen (G1 and H1 with every link and joint renamed, G1 with its waist
//    fixed): the same checks;
//  - NAO and Pepper through the automatic binding against GA-LVVJ's hand-written maps.
// Tuning split: the mapper's defaults were chosen on laban_ges01_wavehand, laban_ges06_chickenwing
// and the two Keraal recordings (ELK, RTK); the checks below run on the other files (drawlines,
// comehere, closerange, the CMU, Mixamo, Xia walk and Noitom takes).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/urdf.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/unitree_g1.hpp>
#include <retarget/robots/unitree_h1.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

constexpr double kGap = 0.02;
constexpr double kMaxStep = 0.5;

const char* const kCheckFiles[] = {
    "kinect/laban_ges03_drawlines_kinect2.csv",
    "kinect/laban_ges04_comehere_kinect2.csv",
    "kinect/laban_kinectreader_joints_closerange_kinect2.csv",
    "bvh/cmu_skeleton31_deepmotionediting_example.bvh",
    "bvh/mixamo_rig_55j_fingers_20tab_test_freebvh.bvh",
    "bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh",
    "bvh/xia_cmu_skeleton31_strutting_walk_01_000.bvh",
    "bvh/noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh",
};

SkeletonMotiond loadShared(const std::filesystem::path& path) {
  return path.extension() == ".bvh" ? bvhToSkeleton(readBvh(path.string())) : readKinect(path.string());
}

std::string fixed4(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", v);
  return buffer;
}

// Maps `motion` onto `model` through its automatic binding and checks the output (limits, steps,
// statuses) and, on every `stride`-th frame, the gap to the best reachable similarity.
void checkRecording(const std::string& label, const RobotModel<double>& model, const SkeletonMotiond& motion,
                    int stride, std::string& table) {
  CAPTURE(label);
  const HumanoidBinding binding = bindHumanoid(model);
  HumanoidMapper<double> mapper(model, binding);
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  // Every frame within the limits and finite; no step above kMaxStep unless reported.
  int outside = 0, unreported_steps = 0;
  double worst_step = 0;
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    const Eigen::VectorXd q = mapped.q.row(k).transpose();
    outside += (q.allFinite() && (q.array() >= model.lowerLimits().array()).all() &&
                (q.array() <= model.upperLimits().array()).all())
                   ? 0
                   : 1;
    if (k == 0) continue;
    const double step = (mapped.q.row(k) - mapped.q.row(k - 1)).cwiseAbs().maxCoeff();
    worst_step = std::max(worst_step, step);
    if (step > kMaxStep + 1e-9 && !mapped.status[static_cast<std::size_t>(k)].has(StatusCode::kDiscontinuity)) {
      ++unreported_steps;
    }
  }
  CHECK(outside == 0);
  CHECK(unreported_steps == 0);

  std::vector<SkeletonFrame<double>> human;
  Eigen::MatrixXd q(0, model.nq());
  for (std::size_t k = 0; k < motion.size(); k += static_cast<std::size_t>(stride)) {
    human.push_back(motion.frames[k]);
    q.conservativeResize(q.rows() + 1, Eigen::NoChange);
    q.row(q.rows() - 1) = mapped.q.row(static_cast<Eigen::Index>(k));
  }
  const MotionBestReachable<double> b = motionBestReachable(model, humanoidVirtualSkeletonMap(binding), human, q);
  table += label + ": " + std::to_string(motion.size()) + " frames; clamped " + std::to_string(mapped.clamped_frames) +
           ", held " + std::to_string(mapped.held_frames) + ", not converged " +
           std::to_string(mapped.frames(StatusCode::kNotConverged)) + ", discontinuities " +
           std::to_string(mapped.frames(StatusCode::kDiscontinuity)) + ", largest step " + fixed4(worst_step) +
           " rad; within reach (every " + std::to_string(stride) + " frames), achieved / best:\n";
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    if (b.wbf_within_frames[i] + b.llf_within_frames[i] == 0) continue;
    table += std::string("    ") + kSimilarityLinkNames[i] + "  WBF " + fixed4(b.wbf_achieved_within_mean[i]) + " / " +
             fixed4(b.wbf_best_within_mean[i]) + " (" + std::to_string(b.wbf_within_frames[i]) + ")  LLF " +
             fixed4(b.llf_achieved_within_mean[i]) + " / " + fixed4(b.llf_best_within_mean[i]) + " (" +
             std::to_string(b.llf_within_frames[i]) + ")\n";
    CAPTURE(kSimilarityLinkNames[i]);
    const double wbf_gap = b.wbf_best_within_mean[i] - b.wbf_achieved_within_mean[i];
    const double llf_gap = b.llf_best_within_mean[i] - b.llf_achieved_within_mean[i];
    if (b.wbf_within_frames[i] > 0) CHECK(wbf_gap <= kGap);
    if (b.llf_within_frames[i] > 0) CHECK(llf_gap <= kGap);
  }
}

// A URDF text with every link and joint renamed (left/right become port/starboard, "link" becomes
// "body", "joint" becomes "axle"), so that no name the binder knows is left.
std::string renamed(std::string text) {
  text = std::regex_replace(text, std::regex("left"), "port");
  text = std::regex_replace(text, std::regex("right"), "starboard");
  text = std::regex_replace(text, std::regex("_link\""), "_body\"");
  text = std::regex_replace(text, std::regex("_joint\""), "_axle\"");
  text = std::regex_replace(text, std::regex("pelvis"), "hub");
  text = std::regex_replace(text, std::regex("torso"), "trunk");
  return text;
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("humanoid mapper: the robot's own poses come back (G1, H1, NAO; continuous random paths)") {
  for (const RobotModel<double>& model : {makeUnitreeG1<double>(), makeUnitreeH1<double>(), makeNao<double>()}) {
    CAPTURE(model.name());
    const HumanoidBinding binding = bindHumanoid(model);
    VirtualSkeleton<double> view(model, humanoidVirtualSkeletonMap(binding));
    HumanoidMapper<double> mapper(model, binding);
    std::mt19937 rng(7);
    std::normal_distribution<double> noise(0.0, 0.03);
    // A random walk within the limits, kept away from them by 0.05 rad, starting at the rest pose.
    Eigen::VectorXd q = model.neutralConfiguration(), out(model.nq());
    const Eigen::VectorXd lo = model.lowerLimits().array() + 0.05, hi = model.upperLimits().array() - 0.05;
    int frames = 0, matched = 0;
    double worst = 1;
    for (int k = 0; k < test::sweepCount(300); ++k) {
      for (int i = 0; i < model.nq(); ++i) q[i] = std::min(hi[i], std::max(lo[i], q[i] + noise(rng)));
      SkeletonFrame<double> human, robot;
      REQUIRE(view.compute(q, human).ok());
      const Status status = mapper.map(human, out);
      REQUIRE(out.allFinite());
      REQUIRE((out.array() >= model.lowerLimits().array()).all());
      REQUIRE((out.array() <= model.upperLimits().array()).all());
      CHECK_FALSE(status.has(StatusCode::kDegenerateInput));
      REQUIRE(view.compute(out, robot).ok());
      FrameSimilarity<double> s;
      (void)frameSimilarity(human, robot, s);
      double lowest = 1;
      for (int i = 0; i < kSimilarityLinkCount; ++i) {
        if (s.llf_valid[static_cast<std::size_t>(i)]) lowest = std::min(lowest, s.llf_links[static_cast<std::size_t>(i)]);
        if (s.wbf_valid[static_cast<std::size_t>(i)]) lowest = std::min(lowest, s.wbf_links[static_cast<std::size_t>(i)]);
      }
      ++frames;
      matched += lowest >= 0.999 ? 1 : 0;
      worst = std::min(worst, lowest);
    }
    MESSAGE(model.name(), ": ", matched, " of ", frames, " frames with every link at cos >= 0.999; worst link ", worst);
    // The trust region may let a fast random joint walk lag a frame; nearly every frame matches.
    CHECK(matched >= frames * 95 / 100);
  }
}

TEST_CASE("humanoid mapper: a hand or foot the wrist or ankle cannot follow leaves the measured links alone") {
  // The robot's own pose with both feet turned straight up the tibias and both hands folded back
  // along the forearms (beyond any ankle's or wrist's limits), mapped from that pose: the ends set
  // only the wrists and ankles, so the arms and legs stay where they match (before, the feet
  // pulled G1's tibias 20 deg away on the close-range Kinect recording).
  for (const RobotModel<double>& model : {makeUnitreeG1<double>(), makeUnitreeH1<double>()}) {
    CAPTURE(model.name());
    const HumanoidBinding binding = bindHumanoid(model);
    VirtualSkeleton<double> view(model, humanoidVirtualSkeletonMap(binding));
    std::mt19937 rng(11);
    for (int trial = 0; trial < 10; ++trial) {
      Eigen::VectorXd q = model.neutralConfiguration();
      for (int i = 0; i < model.nq(); ++i) {
        const double lo = model.lowerLimits()[i], hi = model.upperLimits()[i];
        q[i] = lo + 0.2 * (hi - lo) + 0.6 * (hi - lo) * std::uniform_real_distribution<double>(0, 1)(rng);
      }
      SkeletonFrame<double> human;
      REQUIRE(view.compute(q, human).ok());
      SkeletonFrame<double> folded = human;
      using H = HumanJoint;
      int ends = 0;
      for (const auto& [a, b, c] : {std::tuple{H::kKneeLeft, H::kAnkleLeft, H::kFootLeft},
                                    std::tuple{H::kKneeRight, H::kAnkleRight, H::kFootRight},
                                    std::tuple{H::kElbowLeft, H::kWristLeft, H::kHandLeft},
                                    std::tuple{H::kElbowRight, H::kWristRight, H::kHandRight}}) {
        if (!folded.usable(c)) continue;
        const Eigen::Vector3d along = (folded.position(b) - folded.position(a)).normalized();
        folded.position(c) = folded.position(b) - (folded.position(c) - folded.position(b)).norm() * along;
        ++ends;
      }
      REQUIRE(ends >= 2);  // H1 has no hands
      HumanoidMapperOptions options;
      options.rest.assign(q.data(), q.data() + q.size());
      HumanoidMapper<double> mapper(model, binding, options);
      Eigen::VectorXd out(model.nq());
      for (int k = 0; k < 10; ++k) (void)mapper.map(folded, out);  // a held pose
      SkeletonFrame<double> robot;
      REQUIRE(view.compute(out, robot).ok());
      FrameSimilarity<double> s;
      (void)frameSimilarity(human, robot, s);
      for (const SimilarityLink link : {SimilarityLink::kLeftUpperArm, SimilarityLink::kRightUpperArm,
                                        SimilarityLink::kLeftLowerArm, SimilarityLink::kRightLowerArm,
                                        SimilarityLink::kLeftThigh, SimilarityLink::kRightThigh,
                                        SimilarityLink::kLeftTibia, SimilarityLink::kRightTibia}) {
        const auto i = static_cast<std::size_t>(link);
        CAPTURE(kSimilarityLinkNames[i]);
        REQUIRE(s.llf_valid[i]);
        CHECK(s.llf_links[i] >= 0.999);
        CHECK(s.wbf_links[i] >= 0.999);
      }
    }
  }
}

TEST_CASE("humanoid mapper: held-out shared recordings on the Unitree G1 and H1") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  std::string table;
  for (const RobotModel<double>& model : {makeUnitreeG1<double>(), makeUnitreeH1<double>()}) {
    for (const char* file : kCheckFiles) {
      const SkeletonMotiond motion = loadShared(data_dir / file);
      const int stride = motion.size() > 600 ? 10 : 3;
      // The close-range recording sees the legs on few frames (inferred or not tracked on most):
      // its leg links are reported, not checked (a known gap, see the closing note of issue 38).
      checkRecording(model.name() + " " + file, model, motion, stride, table);
    }
  }
  MESSAGE(table);
}

TEST_CASE("humanoid mapper: humanoids no test has seen (G1 and H1 renamed, G1 with a fixed waist)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const std::string g1 = readText(data_dir / "urdf" / "unitree_g1_29dof_rev_1_0.urdf");
  const std::string h1 = readText(data_dir / "urdf" / "unitree_h1.urdf");
  std::string g1_rigid = std::regex_replace(
      g1, std::regex("(<joint name=\"waist_(yaw|roll|pitch)_joint\" type=)\"revolute\""), "$1\"fixed\"");
  REQUIRE(g1_rigid != g1);
  std::string table;
  const std::vector<std::pair<std::string, std::string>> robots = {
      {"G1 renamed", renamed(g1)}, {"H1 renamed", renamed(h1)}, {"G1 renamed, waist fixed", renamed(g1_rigid)}};
  for (const auto& [label, text] : robots) {
    const RobotModel<double> model = parseUrdf<double>(text, label).model;
    REQUIRE(model.findLink("pelvis") < 0);
    REQUIRE(model.findJoint("left_elbow_joint") < 0);
    const HumanoidBinding binding = bindHumanoid(model);
    CHECK(binding.limb(HumanoidLimb::kLeftArm).found);
    CHECK(binding.limb(HumanoidLimb::kRightLeg).found);
    for (const char* file : {"kinect/laban_ges04_comehere_kinect2.csv", "bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh"}) {
      checkRecording(label + " " + file, model, loadShared(data_dir / file), 3, table);
    }
  }
  MESSAGE(table);
}

TEST_CASE("humanoid mapper: NAO and Pepper through the automatic binding agree with GA-LVVJ") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  std::string table;
  for (const RobotModel<double>& model : {makeNao<double>(), makePepper<double>()}) {
    const GaLvvjMap map = *gaLvvjMapFor(model);
    const HumanoidBinding binding = bindHumanoid(model);
    for (const char* file : kCheckFiles) {
      CAPTURE(file);
      const SkeletonMotiond motion = loadShared(data_dir / file);
      GaLvvjMapper<double> ga_lvvj(model, map);
      HumanoidMapper<double> humanoid(model, binding);
      const MappedMotion<double> a = mapMotion(ga_lvvj, motion), b = mapMotion(humanoid, motion);
      // Both measured on the hand-written virtual skeleton (the one every earlier figure used).
      VirtualSkeleton<double> view(model, map);
      std::vector<SkeletonFrame<double>> ra(motion.size()), rb(motion.size());
      for (std::size_t k = 0; k < motion.size(); ++k) {
        REQUIRE(view.compute(a.q.row(static_cast<Eigen::Index>(k)).transpose(), ra[k]).ok());
        REQUIRE(view.compute(b.q.row(static_cast<Eigen::Index>(k)).transpose(), rb[k]).ok());
      }
      const MotionSimilarity<double> sa = motionSimilarity(motion.frames, ra), sb = motionSimilarity(motion.frames, rb);
      table += model.name() + " " + file + ": WBF GA-LVVJ " + fixed4(sa.wbf_mean) + ", automatic " +
               fixed4(sb.wbf_mean) + "; LLF GA-LVVJ " + fixed4(sa.llf_mean) + ", automatic " + fixed4(sb.llf_mean) + "\n";
      CHECK(sb.wbf_mean >= sa.wbf_mean - 0.01);
      CHECK(sb.llf_mean >= sa.llf_mean - 0.01);
    }
  }
  MESSAGE(table);
}
