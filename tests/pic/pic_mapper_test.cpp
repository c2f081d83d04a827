// PIC / PICs / FABRIK mapper (seed 004) on Baxter and YuMi: maps for every built-in arm robot,
// the real Kinect recordings and the demo arm motions (finite, within limits, honest statuses),
// the temporal-continuity window, and the metrics Pacc / PO (Eqs. 4, 5).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <map>
#include <random>
#include <sstream>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/metrics/arm_imitation.hpp>
#include <retarget/robots/baxter.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/yumi.hpp>

#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

struct Named {
  std::string name;
  SkeletonMotion<double> motion;
};

std::vector<Named> armMotions() {
  std::vector<Named> out;
  for (const char* name : {"wave", "arms-raise", "arm-circles", "fold-arms"}) out.push_back({name, demoMotion(name)});
  if (const auto data = testDataDir()) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(*data / "kinect")) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    CHECK(files.size() == 7);  // MANIFEST.md: 7 Kinect v2 recordings (5 LabanotationSuite, 2 Keraal)
    for (const auto& f : files) out.push_back({f.filename().string(), readKinect(f.string())});
  }
  return out;
}

PicOptions optionsFor(PicAlgorithm a) {
  PicOptions o;
  o.algorithm = a;
  o.softening = 1;
  o.smoothing_alpha = 0.5;
  return o;
}

}  // namespace

TEST_CASE("PIC maps: Baxter, YuMi, NAO, Pepper resolve; picArmFromChain builds any chain") {
  const auto baxter = makeBaxter<double>();
  const auto yumi = makeYumi<double>();
  const auto nao = makeNao<double>();
  const auto pepper = makePepper<double>();
  for (const RobotModel<double>* model : {&baxter, &yumi, &nao, &pepper}) {
    const auto map = picMapFor(*model);
    REQUIRE(map);
    CHECK(map->arms.size() == 2);
    PicMapper<double> mapper(*model, *map);
    CHECK(mapper.armCount() == 2);
  }
  // Baxter's full chain of joint positions from s1 to w1, intermediate joints included.
  const PicArmMap arm = picArmFromChain(baxter, ArmSide::kLeft, "left_s0", "left_s1", "left_e1", "left_w1", true);
  CHECK(arm.points == std::vector<std::string>{"left_s1", "left_e0", "left_e1", "left_w0", "left_w1"});
  CHECK(arm.elbow == 2);
  CHECK(arm.fit_joints == std::vector<std::string>{"left_s0", "left_s1", "left_e0", "left_e1", "left_w0", "left_w1"});
  PicMap full{"baxter-full", {arm}};
  PicMapper<double> mapper(baxter, full);
  SkeletonMotion<double> wave = demoMotion("wave");
  const auto mapped = mapMotion(mapper, wave);
  CHECK(mapped.q.allFinite());
  // Bad maps are refused, naming the field.
  PicMap bad = baxterPicMap();
  bad.arms[0].elbow = 0;
  CHECK_THROWS_WITH_AS(PicMapper<double>(baxter, bad), doctest::Contains("elbow (got 0"), InvalidArgument);
  bad = baxterPicMap();
  bad.arms[1].fit_joints.push_back("head_nod");
  CHECK_THROWS_WITH_AS(PicMapper<double>(baxter, bad), doctest::Contains("head_nod"), InvalidArgument);
  CHECK_THROWS_WITH_AS(picArmFromChain(baxter, ArmSide::kLeft, "left_s0", "left_e1", "left_s1", "left_w1"),
                       doctest::Contains("do not lie on one chain"), InvalidArgument);
}

TEST_CASE("PIC constraints hold on the robot chain: every solved link in its allowed octant") {
  const auto baxter = makeBaxter<double>();
  const auto yumi = makeYumi<double>();
  for (const RobotModel<double>* model : {&baxter, &yumi}) {
    for (PicAlgorithm a : {PicAlgorithm::kPic, PicAlgorithm::kPics}) {
      PicMapper<double> mapper(*model, *picMapFor(*model), optionsFor(a));
      Eigen::VectorXd q(model->nq());
      int checked = 0;
      for (const char* name : {"wave", "arms-raise", "arm-circles"}) {
        const auto motion = demoMotion(name);
        mapper.reset();
        for (const auto& frame : motion.frames) {
          (void)mapper.map(frame, q);
          for (int arm = 0; arm < mapper.armCount(); ++arm) {
            const auto& chain = mapper.solvedChain(arm);
            const auto c = picConstraints(mapper.humanPose(arm), chain.count, 1,
                                          a == PicAlgorithm::kPic ? 0 : mapper.options().softening);
            for (int i = 0; i + 1 < chain.count; ++i) {
              const Eigen::Vector3d d = chain.p[static_cast<std::size_t>(i + 1)] - chain.p[static_cast<std::size_t>(i)];
              CHECK(inOctants<double>(d, c.out[static_cast<std::size_t>(i)]));
              CHECK(inOctants<double>(Eigen::Vector3d(-d), c.in[static_cast<std::size_t>(i)]));
              ++checked;
            }
          }
        }
      }
      CHECK(checked > 100);
    }
  }
}

TEST_CASE("FABRIK / PIC / PICs on every Kinect recording and demo arm motion, Baxter and YuMi") {
  const auto baxter = makeBaxter<double>();
  const auto yumi = makeYumi<double>();
  const auto motions = armMotions();
  if (!testDataDir()) retarget::test::recordMissingData("the Kinect recordings");
  std::ostringstream table;
  table << std::fixed << std::setprecision(3);
  table << "| motion | robot | algorithm | frames | Pacc | PO | largest step (rad) | mean pose error (rad) | max residual (m) | us/frame | not converged |\n";
  table << "|---|---|---|---|---|---|---|---|---|---|---|\n";
  std::map<std::string, std::array<double, 3>> pacc_sum;
  for (const RobotModel<double>* model : {&baxter, &yumi}) {
    const PicMap map = *picMapFor(*model);
    const WorkArea area = defaultWorkArea(map);
    for (const auto& named : motions) {
      for (PicAlgorithm a : {PicAlgorithm::kFabrik, PicAlgorithm::kPic, PicAlgorithm::kPics}) {
        PicMapper<double> mapper(*model, map, optionsFor(a));
        Eigen::MatrixXd q(static_cast<Eigen::Index>(named.motion.size()), model->nq());
        Eigen::VectorXd qk(model->nq());
        int not_converged = 0, degenerate = 0;
        double residual = 0;
        const auto start = std::chrono::steady_clock::now();
        for (std::size_t k = 0; k < named.motion.size(); ++k) {
          const Status s = mapper.map(named.motion.frames[k], qk);
          q.row(static_cast<Eigen::Index>(k)) = qk.transpose();
          not_converged += s.has(StatusCode::kNotConverged) ? 1 : 0;
          degenerate += s.has(StatusCode::kDegenerateInput) ? 1 : 0;
          CHECK_FALSE(s.has(StatusCode::kInvalidInput));
          for (int arm = 0; arm < mapper.armCount(); ++arm) residual = std::max(residual, mapper.residual(arm));
        }
        const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                          std::max<std::size_t>(1, named.motion.size());
        CHECK(q.allFinite());
        for (Eigen::Index k = 0; k < q.rows(); ++k) CHECK(withinLimits(*model, Eigen::VectorXd(q.row(k).transpose())));
        // Honest statuses: not converged and degenerate are exceptions, not the rule.
        CHECK(not_converged <= static_cast<int>(named.motion.size()) / 4);
        CHECK(degenerate <= static_cast<int>(named.motion.size()) / 4);
        const ArmImitation eval = evaluateArmImitation(*model, map, named.motion, q, area);
        CHECK(eval.pacc >= 0.0);
        CHECK(eval.pacc <= 1.0);
        pacc_sum[model->name()][static_cast<std::size_t>(a)] += eval.pacc;
        table << "| " << named.name << " | " << model->name() << " | " << toString(a) << " | " << named.motion.size()
              << " | " << eval.pacc << " | " << eval.po << " | " << eval.largest_joint_step << " | "
              << eval.mean_pose_error << " | " << residual << " | " << std::setprecision(1) << us << std::setprecision(3)
              << " | " << not_converged << " |\n";
      }
    }
  }
  MESSAGE("\n" << table.str());
  for (const auto& [robot, sums] : pacc_sum) {
    MESSAGE(robot << " mean Pacc: fabrik " << sums[0] / motions.size() << ", pic " << sums[1] / motions.size()
                  << ", pics " << sums[2] / motions.size());
  }
}

TEST_CASE("Temporal continuity: the transition window does not make the largest joint step worse") {
  const auto yumi = makeYumi<double>();
  const auto baxter = makeBaxter<double>();
  for (const RobotModel<double>* model : {&baxter, &yumi}) {
    for (const char* name : {"arm-circles", "wave", "fold-arms"}) {
      const auto motion = demoMotion(name);
      PicOptions plain = optionsFor(PicAlgorithm::kPic);
      PicOptions windowed = plain;
      windowed.transition_frames = 4;
      PicMapper<double> a(*model, *picMapFor(*model), plain), b(*model, *picMapFor(*model), windowed);
      const auto qa = mapMotion(a, motion), qb = mapMotion(b, motion);
      const double step_a = largestJointStep(qa.q), step_b = largestJointStep(qb.q);
      MESSAGE(model->name() << " " << std::string(name) << ": largest step " << step_a << " rad without, " << step_b
                            << " rad with a 4-frame window");
      CHECK(qb.q.allFinite());
      // The faded jump adds at most a fraction of a step; it removes whole jumps.
      CHECK(step_b <= 1.1 * step_a + 1e-3);
    }
  }
}

TEST_CASE("Pose accuracy (Eq. 4) and occlusion (Eq. 5): identity, bounds, rotation invariance") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  PoseAccuracy pacc;
  for (int n = 0; n < 200; ++n) {
    const Eigen::Vector3d s(u(rng), u(rng), u(rng)), w(u(rng), u(rng), u(rng));
    const auto same = poseAngle<double>(s, w, s, w);
    REQUIRE(same);
    CHECK(*same == doctest::Approx(0).epsilon(1e-12).scale(1));
    const Eigen::Matrix3d R = Eigen::AngleAxisd(u(rng) * 3, Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
    const Eigen::Vector3d s2(u(rng), u(rng), u(rng)), w2(u(rng), u(rng), u(rng));
    const auto a = poseAngle<double>(s, w, s2, w2);
    const auto b = poseAngle<double>(Eigen::Vector3d(R * s), Eigen::Vector3d(R * w), Eigen::Vector3d(R * s2), Eigen::Vector3d(R * w2));
    REQUIRE(a);
    REQUIRE(b);
    CHECK(*a == doctest::Approx(*b).epsilon(1e-9));
    CHECK(*a >= 0);
    CHECK(*a <= M_PI + 1e-12);
    (void)pacc.add(*same, *same);
  }
  CHECK(pacc.value() == 1.0);
  (void)pacc.add(1.0, std::nullopt);  // 1 rad: above (15 deg)^2
  CHECK(pacc.value() == doctest::Approx(200.0 / 201.0));
  CHECK_FALSE(pacc.add(std::nullopt, std::nullopt));
  // Occlusion: a capsule through the box, one along the line of sight, one far away.
  WorkArea area;
  area.center = Eigen::Vector3d(1, 0, 0);
  area.half_extents = Eigen::Vector3d(0.1, 0.1, 0.1);
  area.viewpoint = Eigen::Vector3d(1, 0, 2);
  CHECK(occludes<double>(Capsule<double>{Eigen::Vector3d(1, -1, 0), Eigen::Vector3d(1, 1, 0), 0.01}, area));
  CHECK(occludes<double>(Capsule<double>{Eigen::Vector3d(0.5, 0, 1), Eigen::Vector3d(1.5, 0, 1), 0.01}, area));
  CHECK_FALSE(occludes<double>(Capsule<double>{Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d(-1, 1, 0), 0.05}, area));
  area.line_of_sight = false;
  CHECK_FALSE(occludes<double>(Capsule<double>{Eigen::Vector3d(0.5, 0, 1), Eigen::Vector3d(1.5, 0, 1), 0.01}, area));
  // segmentBoxDistance against brute-force sampling.
  for (int n = 0; n < 200; ++n) {
    const Eigen::Vector3d a(u(rng) * 2, u(rng) * 2, u(rng) * 2), b(u(rng) * 2, u(rng) * 2, u(rng) * 2);
    const Eigen::Vector3d h(0.3, 0.2, 0.1);
    double brute = 1e9;
    for (int k = 0; k <= 20000; ++k) brute = std::min(brute, pointBoxDistance<double>(Eigen::Vector3d(a + (k / 20000.0) * (b - a)), Eigen::Vector3d::Zero(), h));
    CHECK(segmentBoxDistance<double>(a, b, Eigen::Vector3d::Zero(), h) == doctest::Approx(brute).epsilon(1e-3).scale(1));
  }
}

TEST_CASE("Input pipeline: smoothing follows the formula, placement scales to the robot's arm") {
  SkeletonSmoothing<double> smoothing(SkeletonSmoothingOptions{0.25});
  const auto motion = demoMotion("wave");
  SkeletonFrame<double> out;
  Eigen::Vector3d expected = motion.frames[0].position(HumanJoint::kWristRight);
  for (std::size_t k = 0; k < 20; ++k) {
    smoothing.update(motion.frames[k], out);
    if (k > 0) expected += 0.25 * (motion.frames[k].position(HumanJoint::kWristRight) - expected);
    CHECK((out.position(HumanJoint::kWristRight) - expected).norm() < 1e-12);
  }
  ArmPlacement<double> placement(ArmPlacementOptions{1}, 0.74, 0.74);
  CHECK_FALSE(placement.calibrated());
  REQUIRE(placement.update(motion.frames[0]));
  CHECK(placement.frozen());
  const auto& f = motion.frames[0];
  for (ArmSide side : {ArmSide::kLeft, ArmSide::kRight}) {
    const auto j = armJoints(side);
    const double human = (f.position(j[1]) - f.position(j[0])).norm() + (f.position(j[2]) - f.position(j[1])).norm();
    CHECK(placement.scale(side) * human == doctest::Approx(0.74));
  }
  // The demo person faces +x with z up: the calibration rotation is (close to) the identity.
  CHECK((placement.R_BW() - Eigen::Matrix3d::Identity()).norm() < 0.05);
  CHECK_THROWS_WITH_AS(ArmPlacementOptions{0}.validate(), doctest::Contains("calibration_frames (got 0"), InvalidArgument);
}
