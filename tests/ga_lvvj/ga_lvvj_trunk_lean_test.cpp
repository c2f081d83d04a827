// GA-LVVJ's trunk lean (GaLvvjOptions::trunk_lean, issue 32): the robot's torso tilts as the
// human's trunk and the ankles keep the soles level.
// - Round trip: a NAO configuration, its virtual skeleton with the robot standing on its support
//   foot (WbfBase::kSupportFoot: the torso tilted as the legs and ankles command), mapped back:
//   every mapped joint and the support ankle come back, and the other sole ends level with the
//   support sole (it was not necessarily level in the input).
// - On the squat and bow demos and every shared BVH take (BVH: about 20 frames a second), WBF with the
//   robot standing on its feet is within kLeanGap = 0.05 of the best reachable value on every link,
//   over the frames where the link is within reach (metrics/best_reachable.hpp).
// - Configuration errors name the field: a map without feet, ankle axes that are not orthogonal.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "ga_lvvj/ga_lvvj_test_support.hpp"
#include "support/test_support.hpp"
#include "support/tuning_split.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

GaLvvjOptions leaning() {
  GaLvvjOptions options;
  options.trunk_lean = true;
  return options;
}

}  // namespace

TEST_CASE("ga-lvvj trunk lean: round trip through NAO standing on its support foot") {
  const auto nao = makeNao<double>();
  const GaLvvjMap map = naoGaLvvjMap();
  VirtualSkeleton<double> standing(nao, naoVirtualSkeletonMap(), WbfBase::kSupportFoot);
  GaLvvjMapper<double> mapper(nao, map, leaning());
  const std::vector<int> mapped = mappedCoordinates(nao, map);
  const std::array<std::array<int, 2>, 2> ankles = {
      std::array<int, 2>{nao.qIndex("LAnklePitch"), nao.qIndex("LAnkleRoll")},
      std::array<int, 2>{nao.qIndex("RAnklePitch"), nao.qIndex("RAnkleRoll")}};
  const std::array<int, 2> soles = {nao.findLink("l_sole"), nao.findLink("r_sole")};
  RobotData<double> data(nao);
  std::mt19937 rng(20261127);
  const int n = sweepCount(4000);
  int level_checked = 0;
  double worst_joint = 0, worst_tilt = 0;
  SkeletonFramed frame;
  Eigen::VectorXd q_back(nao.nq());
  for (int trial = 0; trial < n; ++trial) {
    const Eigen::VectorXd q = randomRegularNao(nao, rng);
    REQUIRE(standing.compute(q, frame).ok());
    const int support = standing.supportFoot();
    REQUIRE((support == 0 || support == 1));
    mapper.reset();
    const Status status = mapper.map(frame, q_back);
    CAPTURE(trial);
    CHECK(!status.has(StatusCode::kDegenerateInput));
    for (int i : mapped) worst_joint = std::max(worst_joint, std::abs(q_back[i] - q[i]));
    for (int i : ankles[static_cast<std::size_t>(support)]) worst_joint = std::max(worst_joint, std::abs(q_back[i] - q[i]));
    // The other sole: level with the support sole unless its ankle had to be clamped.
    const auto other = static_cast<std::size_t>(1 - support);
    if (mapper.wanted()[ankles[other][0]] != q_back[ankles[other][0]] ||
        mapper.wanted()[ankles[other][1]] != q_back[ankles[other][1]]) {
      continue;
    }
    forwardKinematics(nao, data, q_back);
    const double c = data.X_WL[static_cast<std::size_t>(soles[0])].linear().col(2).dot(
        data.X_WL[static_cast<std::size_t>(soles[1])].linear().col(2));
    worst_tilt = std::max(worst_tilt, std::acos(std::min(1.0, c)));
    ++level_checked;
  }
  MESSAGE("trunk-lean round trip over ", n, " NAO configurations standing on a foot: max |dq| = ", worst_joint,
          " rad (mapped joints and the support ankle); the other sole level within ", worst_tilt, " rad in ",
          level_checked, " configurations whose ankle needed no clamp");
  CHECK(worst_joint < 1e-6);
  CHECK(worst_tilt < 1e-6);
  CHECK(level_checked > n / 10);  // random legs often need an ankle beyond its limits to level the sole
}

TEST_CASE("ga-lvvj trunk lean: invariant to a turn about the vertical and a translation, not to a tilt") {
  const auto nao = makeNao<double>();
  GaLvvjMapper<double> a(nao, naoGaLvvjMap(), leaning()), b(nao, naoGaLvvjMap(), leaning()),
      c(nao, naoGaLvvjMap(), leaning());
  const SkeletonMotiond bow = demoMotion("bow", DemoMotionOptions{10.0, 6.0, 1.75});
  Eigen::VectorXd qa(nao.nq()), qb(nao.nq());
  const Eigen::Isometry3d turn = Eigen::Translation3d(0.4, -1.2, 0.3) * Eigen::AngleAxisd(2.1, Eigen::Vector3d::UnitZ());
  const Eigen::Isometry3d tilt(Eigen::AngleAxisd(0.3, Eigen::Vector3d::UnitY()));
  double worst_turned = 0, least_tilted = INFINITY;
  for (const SkeletonFramed& f : bow.frames) {
    SkeletonFramed turned = f, tilted = f;
    for (auto& p : turned.p_W) p = turn * p;
    for (auto& p : tilted.p_W) p = tilt * p;
    (void)a.map(f, qa);
    (void)b.map(turned, qb);
    worst_turned = std::max(worst_turned, (qa - qb).cwiseAbs().maxCoeff());
    (void)c.map(tilted, qb);
    least_tilted = std::min(least_tilted, (qa - qb).cwiseAbs().maxCoeff());
  }
  CHECK(worst_turned < 1e-9);
  CHECK(least_tilted > 0.2);  // a tilted person leans: the ankles (and legs) follow
}

namespace {

constexpr double kLeanGap = 0.05;

// Maps `motion` with the trunk lean; per link, the mean WBF (robot on its feet) and the mean best
// reachable over the frames within reach; checks the gap and returns the table lines.
std::string checkLeaningMotion(const std::string& label, const SkeletonMotiond& motion) {
  static const RobotModel<double> nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap(), leaning());
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  BestReachableOptions options;
  options.wbf_base = WbfBase::kSupportFoot;
  const MotionBestReachable<double> b =
      motionBestReachable(nao, naoVirtualSkeletonMap(), motion.frames, mapped.q, options);
  std::string line = label + ":";
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    CAPTURE(label);
    CAPTURE(kSimilarityLinkNames[i]);
    if (b.wbf_within_frames[i] == 0) continue;
    const double gap = b.wbf_best_within_mean[i] - b.wbf_achieved_within_mean[i];
    char cell[96];
    std::snprintf(cell, sizeof cell, " %s %.3f/%.3f (%d)", kSimilarityLinkNames[i], b.wbf_achieved_within_mean[i],
                  b.wbf_best_within_mean[i], b.wbf_within_frames[i]);
    line += cell;
    CHECK_MESSAGE(gap <= kLeanGap, label, " ", kSimilarityLinkNames[i], ": WBF ", b.wbf_achieved_within_mean[i],
                  " more than ", kLeanGap, " below the best reachable ", b.wbf_best_within_mean[i]);
  }
  return line;
}

}  // namespace

TEST_CASE("ga-lvvj trunk lean: within 0.05 of the best reachable WBF on every link, NAO on its feet") {
  std::string table;
  for (const char* name : {"squat", "bow"}) {
    table += checkLeaningMotion(std::string("demo ") + name, demoMotion(name, DemoMotionOptions{15.0, 6.0, 1.75})) + "\n";
  }
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  int takes = 0;
  for (const auto& path : filesIn(data_dir / "bvh", ".bvh")) {
    const SkeletonMotiond full = bvhToSkeleton(readBvh(path.string()));
    if (full.empty()) continue;  // the 0-frame PN Studio template
    SkeletonMotiond motion = full;
    motion.frames.clear();
    // About 20 frames a second (the takes run at 30-125 Hz).
    const double rate = (full.size() - 1) / (full.frames.back().time - full.frames.front().time);
    const auto stride = static_cast<std::size_t>(std::max(1.0, std::round(rate / 20.0)));
    for (std::size_t k = 0; k < full.size(); k += stride) motion.frames.push_back(full.frames[k]);
    table += checkLeaningMotion(path.filename().string(), motion) + "\n";
    ++takes;
  }
  CHECK(takes == 5);  // MANIFEST.md: 6 BVH files, one of them the 0-frame template
  MESSAGE("WBF achieved / best reachable (frames within reach), NAO on its feet, trunk lean:\n", table);
}

TEST_CASE("ga-lvvj trunk lean: a map without usable feet is refused, naming the field") {
  const auto nao = makeNao<double>();
  const auto pepper = makePepper<double>();
  CHECK_THROWS_WITH_AS(GaLvvjMapper<double>(pepper, pepperGaLvvjMap(), leaning()), doctest::Contains("foot_left"),
                       InvalidArgument);
  CHECK_NOTHROW(GaLvvjMapper<double>(pepper, pepperGaLvvjMap()));  // without the lean the feet are not needed
  GaLvvjMap swapped = naoGaLvvjMap();
  swapped.foot_right = GaLvvjFoot{"RKneePitch", "RAnklePitch", "r_sole"};  // two parallel axes
  CHECK_THROWS_WITH_AS(GaLvvjMapper<double>(nao, swapped, leaning()), doctest::Contains("foot_right"),
                       InvalidArgument);
  GaLvvjMap unknown = naoGaLvvjMap();
  unknown.foot_left.sole = "l_shoe";
  CHECK_THROWS_WITH_AS(GaLvvjMapper<double>(nao, unknown, leaning()), doctest::Contains("l_shoe"), InvalidArgument);
}

// Held out (issue 53): the lean's default was chosen on the shared BVH takes and the squat and
// bow demos (tests/tuning_split.md, `whole_body_trunk_lean_default`); here it meets data none of
// GA-LVVJ's tuned constants saw: the standing LabanotationSuite Kinect takes, and the demo
// motions outside that row stooped forward by 0.3 and 0.6 rad at the spine base (a stooped walk,
// wave, arm circles and folded arms: generated for this check, the lean not changed after it).
TEST_CASE("ga-lvvj trunk lean: within 0.05 of the best reachable WBF on every link, on held-out takes and stooped demos") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const std::vector<std::string> kinect = {"kinect/laban_ges01_wavehand_kinect2.csv", "kinect/laban_ges03_drawlines_kinect2.csv",
                                           "kinect/laban_ges04_comehere_kinect2.csv", "kinect/laban_ges06_chickenwing_kinect2.csv"};
  const std::vector<std::string> demos = {"walk-in-place", "wave", "arm-circles", "fold-arms"};
  std::vector<std::string> held_out = kinect;
  for (const auto& name : demos) held_out.push_back("generated:" + name);
  CHECK(requireHeldOut({"whole_body_trunk_lean_default", "ga_lvvj_jump_cost", "ga_lvvj_hip_yaw_pitch_from_knees",
                        "ga_lvvj_leg_branch"},
                       held_out) == 0);
  std::string table;
  for (const auto& file : kinect) table += checkLeaningMotion(file, readKinect((data_dir / file).string())) + "\n";
  const HumanBodyModel body = HumanBodyModel::fromHeight(1.75);
  for (const auto& name : demos) {
    for (const double stoop : {0.3, 0.6}) {
      SkeletonMotiond motion;
      for (int k = 0; k <= 90; ++k) {  // 6 s at 15 Hz
        const double t = k / 15.0;
        BodyPose pose = demoMotionPose(name, t);
        pose.trunk_pitch += stoop;
        SkeletonFramed frame = bodyPoseFrame(body, pose);
        frame.time = t;
        motion.frames.push_back(frame);
      }
      char label[64];
      std::snprintf(label, sizeof label, "%s stooped %.1f rad", name.c_str(), stoop);
      table += checkLeaningMotion(label, motion) + "\n";
    }
  }
  MESSAGE("WBF achieved / best reachable (frames within reach), NAO on its feet, trunk lean, held out:\n", table);
}
