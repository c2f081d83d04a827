// GA-LVVJ (seed 000, Section 3.2): round trip robot angles -> virtual skeleton -> angles,
// mirror symmetry, invariance to rigid motions, singular and degenerate frames, clamping,
// option validation, float compilation and the no-allocation contract.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "ga_lvvj/ga_lvvj_test_support.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("ga-lvvj: NAO round trip over random configurations recovers every mapped joint") {
  const auto nao = makeNao<double>();
  const GaLvvjMap map = naoGaLvvjMap();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, map);
  const std::vector<int> mapped = mappedCoordinates(nao, map);
  REQUIRE(mapped.size() == 19);  // all virtual joints (RHipYawPitch is a mimic of LHipYawPitch)

  std::mt19937 rng(20260522);
  const int n = sweepCount(10000);
  double worst = 0, worst_wbf = 0, worst_llf = 0;
  SkeletonFramed frame, back_frame;
  Eigen::VectorXd q_back(nao.nq());
  FrameSimilarity<double> similarity;
  for (int trial = 0; trial < n; ++trial) {
    const Eigen::VectorXd q = randomRegularNao(nao, rng);
    REQUIRE(skeleton.compute(q, frame).ok());
    mapper.reset();
    const Status status = mapper.map(frame, q_back);
    CHECK_MESSAGE(!status.has(StatusCode::kDegenerateInput), "trial ", trial);
    for (int i : mapped) worst = std::max(worst, std::abs(q_back[i] - q[i]));
    REQUIRE(skeleton.compute(q_back, back_frame).ok());
    REQUIRE(frameSimilarity(frame, back_frame, similarity).ok());
    worst_wbf = std::max(worst_wbf, std::abs(similarity.wbf - 1.0));
    worst_llf = std::max(worst_llf, std::abs(similarity.llf - 1.0));
  }
  MESSAGE("round trip over ", n, " NAO configurations: max |dq| = ", worst, " rad, max |1 - WBF| = ", worst_wbf,
          ", max |1 - LLF| = ", worst_llf);
  CHECK(worst < 1e-6);
  CHECK(worst_wbf < 1e-9);
  CHECK(worst_llf < 1e-9);
}

TEST_CASE("ga-lvvj: HipYawPitch read from the knee planes round-trips with any hip yaw-pitch") {
  const auto nao = makeNao<double>();
  const GaLvvjMap map = naoGaLvvjMap();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjOptions options;
  options.hip_yaw_pitch_mode = GaLvvjOptions::HipYawPitchMode::kFromKnees;
  GaLvvjMapper<double> mapper(nao, map, options);
  std::mt19937 rng(77);
  const int hyp = nao.qIndex("LHipYawPitch");
  SkeletonFramed frame;
  Eigen::VectorXd q_back(nao.nq());
  double worst = 0;
  for (int trial = 0; trial < sweepCount(5000); ++trial) {
    Eigen::VectorXd q = randomRegularNao(nao, rng);
    q[hyp] = std::uniform_real_distribution<double>(nao.lowerLimits()[hyp], nao.upperLimits()[hyp])(rng);
    // Regular here also means knees bent past 45 deg, where the knee planes are fully trusted
    // (the knee plane carries the yaw-pitch).
    for (const char* knee : {"LKneePitch", "RKneePitch"}) {
      const int i = nao.qIndex(knee);
      q[i] = std::uniform_real_distribution<double>(0.7854, nao.upperLimits()[i])(rng);
    }
    REQUIRE(skeleton.compute(q, frame).ok());
    mapper.reset();
    (void)mapper.map(frame, q_back);
    for (int i : mappedCoordinates(nao, map)) worst = std::max(worst, std::abs(q_back[i] - q[i]));
  }
  MESSAGE("round trip with HipYawPitch from the knees: max |dq| = ", worst, " rad");
  CHECK(worst < 1e-6);
}

TEST_CASE("ga-lvvj: HipYawPitch from the knees is the fixed value while standing and continuous as a knee bends") {
  const auto nao = makeNao<double>();
  const GaLvvjMap map = naoGaLvvjMap();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjOptions options;  // kFromKnees is the default
  REQUIRE(options.hip_yaw_pitch_mode == GaLvvjOptions::HipYawPitchMode::kFromKnees);
  options.hip_yaw_pitch = -0.1;
  GaLvvjMapper<double> mapper(nao, map, options);
  const int hyp = nao.qIndex("LHipYawPitch"), knee = nao.qIndex("LKneePitch");
  Eigen::VectorXd q = nao.neutralConfiguration();
  q[hyp] = 0.3;  // the robot the skeleton comes from: hips turned, right knee straight
  SkeletonFramed frame;
  Eigen::VectorXd q_out(nao.nq());
  double previous = 0, largest_step = 0;
  int straight = 0, bent = 0;
  const double step = 0.001;  // rad of knee bend between frames
  for (int k = 0; k * step <= 1.2; ++k) {
    q[knee] = k * step;
    REQUIRE(skeleton.compute(q, frame).ok());
    (void)mapper.map(frame, q_out);
    const double h = q_out[hyp];
    if (k > 0) largest_step = std::max(largest_step, std::abs(h - previous));
    previous = h;
    const double bend_deg = q[knee] * 180.0 / kPi<double>;
    if (bend_deg < 19.9) {  // nearly straight: the fixed value, whatever the knee plane says
      CHECK(h == doctest::Approx(-0.1).epsilon(1e-12));
      ++straight;
    } else if (bend_deg > 45.1) {  // bent: the knee plane's value, exactly
      CHECK(h == doctest::Approx(0.3).epsilon(1e-9));
      ++bent;
    }
  }
  MESSAGE("HipYawPitch as the left knee bends 0 -> 69 deg in 0.001 rad steps: largest step ", largest_step, " rad");
  CHECK(straight > 300);
  CHECK(bent > 300);
  // The blend over 25 deg of bend moves 0.4 rad: about 0.001 rad per step; no jump.
  CHECK(largest_step < 0.003);
}

TEST_CASE("ga-lvvj: head pitch from the Neck->Head vector when no face tracker is given") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  std::mt19937 rng(7);
  SkeletonFramed frame;
  Eigen::VectorXd q_back(nao.nq());
  const int yaw = nao.qIndex("HeadYaw"), pitch = nao.qIndex("HeadPitch");
  double worst = 0;
  for (int trial = 0; trial < sweepCount(1000); ++trial) {
    Eigen::VectorXd q = randomRegularNao(nao, rng);
    q[yaw] = 0.0;  // a single vector carries no yaw
    REQUIRE(skeleton.compute(q, frame).ok());
    frame.head.reset();
    mapper.reset();
    (void)mapper.map(frame, q_back);
    worst = std::max(worst, std::abs(q_back[pitch] - q[pitch]));
    CHECK(q_back[yaw] == 0.0);  // held at its rest value
  }
  CHECK(worst < 1e-9);
}

TEST_CASE("ga-lvvj: a mirrored skeleton gives the mirrored angles (NAO sign conventions)") {
  const auto nao = makeNao<double>();
  const GaLvvjMap map = naoGaLvvjMap();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, map);
  std::mt19937 rng(99);
  SkeletonFramed frame;
  Eigen::VectorXd q_direct(nao.nq()), q_mirror(nao.nq());
  double worst_robot = 0, worst_human = 0;
  for (int trial = 0; trial < sweepCount(2000); ++trial) {
    // Robot-generated skeletons (within limits: the outputs are exactly mirrored).
    const Eigen::VectorXd q = randomRegularNao(nao, rng);
    REQUIRE(skeleton.compute(q, frame).ok());
    mapper.reset();
    (void)mapper.map(frame, q_direct);
    mapper.reset();
    (void)mapper.map(mirroredFrame(frame), q_mirror);
    const Eigen::VectorXd expected = mirroredNaoConfiguration(nao, q_direct);
    for (int i : mappedCoordinates(nao, map)) worst_robot = std::max(worst_robot, std::abs(q_mirror[i] - expected[i]));

    // Human-like skeletons (joints jittered, any angle): compare the unclamped virtual angles.
    const SkeletonFramed human = jitteredFrame(frame, rng, 0.03);
    mapper.reset();
    (void)mapper.map(human, q_direct);
    const auto direct = mapper.virtualAngles();
    mapper.reset();
    (void)mapper.map(mirroredFrame(human), q_mirror);
    const auto mirror = mapper.virtualAngles();
    for (int j = 0; j < kGaLvvjJointCount; ++j) {
      const int m = mirroredVirtualJoint(j);
      const double expected_angle = mirrorSign(j) * direct[static_cast<std::size_t>(j)];
      worst_human = std::max(worst_human, std::abs(mirror[static_cast<std::size_t>(m)] - expected_angle));
    }
  }
  CHECK(worst_robot < 1e-9);
  CHECK(worst_human < 1e-9);
}

TEST_CASE("ga-lvvj: rigid motions of the whole skeleton leave the angles unchanged") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  SkeletonFramed frame;
  Eigen::VectorXd q_a(nao.nq()), q_b(nao.nq());
  double worst = 0;
  for (int trial = 0; trial < sweepCount(2000); ++trial) {
    REQUIRE(skeleton.compute(randomRegularNao(nao, rng), frame).ok());
    const SkeletonFramed human = jitteredFrame(frame, rng, 0.03);
    const Eigen::Quaterniond R = Eigen::Quaterniond::UnitRandom();
    const Eigen::Vector3d p(3 * unit(rng), 3 * unit(rng), 3 * unit(rng));
    SkeletonFramed moved = human;
    for (auto& point : moved.p_W) point = R * point + p;
    mapper.reset();
    (void)mapper.map(human, q_a);
    mapper.reset();
    (void)mapper.map(moved, q_b);
    worst = std::max(worst, (q_a - q_b).cwiseAbs().maxCoeff());
  }
  MESSAGE("rigid motions: worst angle difference ", worst, " rad");
  // Exact solutions agree to rounding; arms beyond the limits are solved iteratively (best
  // reachable arm, GaLvvjOptions::limit_aware_shoulder), to the solver's precision.
  CHECK(worst < 1e-6);
}

TEST_CASE("ga-lvvj: every output is finite and within limits, and clamping is reported") {
  const auto nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Eigen::VectorXd q(nao.nq());
  int clamped_frames = 0;
  for (int trial = 0; trial < sweepCount(3000); ++trial) {
    SkeletonFramed frame;  // arbitrary point clouds: any angle, often outside NAO's range
    for (int j = 0; j < kHumanJointCount; ++j) {
      frame.p_W[static_cast<std::size_t>(j)] = Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
      frame.state[static_cast<std::size_t>(j)] = (trial % 7 == 0 && j % 5 == 0) ? TrackingState::kNotTracked
                                                                                : TrackingState::kTracked;
    }
    const Status status = mapper.map(frame, q);
    REQUIRE(withinLimits(nao, q));
    CHECK(status.has(StatusCode::kClamped) == mapper.clamped().any());
    CHECK(status.has(StatusCode::kDegenerateInput) == mapper.held().any());
    if (status.has(StatusCode::kClamped)) {
      ++clamped_frames;
      for (int i = 0; i < nao.nq(); ++i) {
        if (mapper.clamped()[i]) CHECK((q[i] == nao.lowerLimits()[i] || q[i] == nao.upperLimits()[i]));
      }
    }
  }
  CHECK(clamped_frames > 0);
}

TEST_CASE("ga-lvvj: degenerate frames hold the last good value of the affected joints only") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  std::mt19937 rng(3);
  SkeletonFramed good, next;
  Eigen::VectorXd q_good(nao.nq()), q(nao.nq());
  REQUIRE(skeleton.compute(randomRegularNao(nao, rng), good).ok());
  REQUIRE(skeleton.compute(randomRegularNao(nao, rng), next).ok());
  const int lsp = nao.qIndex("LShoulderPitch"), ler = nao.qIndex("LElbowRoll"), rsp = nao.qIndex("RShoulderPitch");
  const int lkp = nao.qIndex("LKneePitch");

  SUBCASE("left wrist not tracked: left elbow held, everything else follows the new frame") {
    (void)mapper.map(good, q_good);
    SkeletonFramed broken = next;
    broken.trackingState(HumanJoint::kWristLeft) = TrackingState::kNotTracked;
    broken.position(HumanJoint::kWristLeft).setConstant(std::nan(""));
    const Status status = mapper.map(broken, q);
    CHECK(status.has(StatusCode::kDegenerateInput));
    CHECK(q.allFinite());
    CHECK(mapper.held()[ler]);
    CHECK(mapper.held()[nao.qIndex("LElbowYaw")]);
    CHECK(q[ler] == doctest::Approx(q_good[ler]).epsilon(1e-12));
    CHECK_FALSE(mapper.held()[lsp]);
    CHECK_FALSE(mapper.held()[rsp]);
    Eigen::VectorXd q_next(nao.nq());
    mapper.reset();
    (void)mapper.map(next, q_next);
    CHECK(q[lsp] == doctest::Approx(q_next[lsp]).epsilon(1e-12));
  }
  SUBCASE("zero-length thigh: left leg held") {
    (void)mapper.map(good, q_good);
    SkeletonFramed broken = next;
    broken.position(HumanJoint::kKneeLeft) = broken.position(HumanJoint::kHipLeft);
    (void)mapper.map(broken, q);
    CHECK(mapper.held()[lkp]);
    CHECK(q[lkp] == doctest::Approx(q_good[lkp]).epsilon(1e-12));
  }
  SUBCASE("empty frame: everything held at rest, output finite within limits") {
    const Status status = mapper.map(SkeletonFramed{}, q);
    CHECK(status.has(StatusCode::kDegenerateInput));
    CHECK(withinLimits(nao, q));
    CHECK(q[lsp] == nao.neutralConfiguration()[lsp]);
  }
  SUBCASE("wrong output size: invalid input, nothing written") {
    Eigen::VectorXd small = Eigen::VectorXd::Constant(3, 42.0);
    CHECK(mapper.map(good, small).has(StatusCode::kInvalidInput));
    CHECK(small.isConstant(42.0));
  }
}

TEST_CASE("ga-lvvj: singular configurations give finite, continuous output") {
  const auto nao = makeNao<double>();
  const GaLvvjMap map = naoGaLvvjMap();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, map);
  SkeletonFramed frame;
  Eigen::VectorXd q0 = nao.neutralConfiguration(), q(nao.nq());

  // Sweep a human arm through each singularity in small steps; consecutive outputs must not
  // jump by more than what the limits allow (clamped) plus a bound proportional to the step.
  auto sweep = [&](auto&& make_frame, int joint) {
    mapper.reset();
    double previous = 0, max_jump = 0;
    for (int k = 0; k <= 400; ++k) {
      const double s = -1.0 + 2.0 * k / 400.0;
      const SkeletonFramed f = make_frame(s);
      (void)mapper.map(f, q);
      REQUIRE(q.allFinite());
      REQUIRE(withinLimits(nao, q));
      if (k > 0) max_jump = std::max(max_jump, std::abs(q[joint] - previous));
      previous = q[joint];
    }
    return max_jump;
  };
  REQUIRE(skeleton.compute(q0, frame).ok());
  const Eigen::Vector3d shoulder = frame.position(HumanJoint::kShoulderLeft);
  // Arm straight out sideways (upper arm along the shoulder line), passing from front to back.
  const double jump_shoulder = sweep(
      [&](double s) {
        SkeletonFramed f = frame;
        f.position(HumanJoint::kElbowLeft) = shoulder + 0.1 * Eigen::Vector3d(0.02 * s, 1.0, -0.05).normalized();
        f.position(HumanJoint::kWristLeft) = f.position(HumanJoint::kElbowLeft) + Eigen::Vector3d(0.05, 0.02, 0);
        return f;
      },
      nao.qIndex("LShoulderPitch"));
  MESSAGE("largest LShoulderPitch step across the shoulder singularity: ", jump_shoulder, " rad");
  CHECK(jump_shoulder < 0.05);
  // Straight elbow: the lower arm passes through the upper arm's line.
  const double jump_elbow = sweep(
      [&](double s) {
        SkeletonFramed f = frame;
        const Eigen::Vector3d elbow = f.position(HumanJoint::kElbowLeft);
        f.position(HumanJoint::kWristLeft) = elbow + Eigen::Vector3d(0.05, 0.002 * s, 0.0005);
        return f;
      },
      nao.qIndex("LElbowYaw"));
  MESSAGE("largest LElbowYaw step across the straight-elbow singularity: ", jump_elbow, " rad");
  CHECK(jump_elbow < 0.05);
  // The ElbowRoll itself stays continuous through the straight elbow.
  const double jump_roll = sweep(
      [&](double s) {
        SkeletonFramed f = frame;
        const Eigen::Vector3d elbow = f.position(HumanJoint::kElbowLeft);
        f.position(HumanJoint::kWristLeft) = elbow + Eigen::Vector3d(0.05, 0.002 * s, 0.0005);
        return f;
      },
      nao.qIndex("LElbowRoll"));
  CHECK(jump_roll < 0.01);
  // Thigh horizontal forward: HipRoll singular.
  const double jump_hip = sweep(
      [&](double s) {
        SkeletonFramed f = frame;
        const Eigen::Vector3d hip = f.position(HumanJoint::kHipLeft);
        f.position(HumanJoint::kKneeLeft) = hip + 0.1 * Eigen::Vector3d(1.0, 0.01 * s, -0.001).normalized();
        f.position(HumanJoint::kAnkleLeft) = f.position(HumanJoint::kKneeLeft) + Eigen::Vector3d(0, 0, -0.1);
        return f;
      },
      nao.qIndex("LHipPitch"));
  CHECK(jump_hip < 0.01);

  // Exactly singular: the mother joint keeps its previous value, flagged as singular
  // (informational, harmless), not as held (which means missing or broken input).
  mapper.reset();
  (void)mapper.map(frame, q);
  const double pitch_before = q[nao.qIndex("LShoulderPitch")];
  SkeletonFramed sideways = frame;
  sideways.position(HumanJoint::kElbowLeft) = shoulder + Eigen::Vector3d(0, 0.1, 0);
  sideways.position(HumanJoint::kWristLeft) = shoulder + Eigen::Vector3d(0.05, 0.1, 0);
  const Status status = mapper.map(sideways, q);
  CHECK_FALSE(status.has(StatusCode::kDegenerateInput));
  CHECK_FALSE(mapper.held().any());
  CHECK(mapper.singular()[nao.qIndex("LShoulderPitch")]);
  CHECK(q[nao.qIndex("LShoulderPitch")] == pitch_before);
  CHECK(q.allFinite());
  SkeletonFramed straight = frame;
  straight.position(HumanJoint::kWristLeft) =
      straight.position(HumanJoint::kElbowLeft) + 0.5 * (straight.position(HumanJoint::kElbowLeft) - shoulder);
  const Status straight_status = mapper.map(straight, q);
  CHECK(mapper.singular()[nao.qIndex("LElbowYaw")]);
  CHECK_FALSE(mapper.held()[nao.qIndex("LElbowYaw")]);
  // NAO's ElbowRoll cannot reach 0 (2 deg floor): within clamp_tolerance, not reported.
  CHECK_FALSE(straight_status.has(StatusCode::kClamped));
  CHECK(std::abs(q[nao.qIndex("LElbowRoll")]) > 0.0);
  CHECK(q.allFinite());
}

TEST_CASE("ga-lvvj: hands follow open/closed and hold on unknown (Section 3.4)") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  SkeletonFramed frame;
  REQUIRE(skeleton.compute(nao.neutralConfiguration(), frame).ok());
  Eigen::VectorXd q(nao.nq());
  const int lh = nao.qIndex("LHand"), rh = nao.qIndex("RHand");
  frame.left_hand = HandState::kOpen;
  frame.right_hand = HandState::kClosed;
  (void)mapper.map(frame, q);
  CHECK(q[lh] == nao.upperLimits()[lh]);
  CHECK(q[rh] == nao.lowerLimits()[rh]);
  frame.left_hand = HandState::kUnknown;
  frame.right_hand = HandState::kUnknown;
  (void)mapper.map(frame, q);
  CHECK(q[lh] == nao.upperLimits()[lh]);
  CHECK(q[rh] == nao.lowerLimits()[rh]);
  frame.left_hand = HandState::kClosed;
  (void)mapper.map(frame, q);
  CHECK(q[lh] == nao.lowerLimits()[lh]);
}

TEST_CASE("ga-lvvj: hip yaw-pitch option and rest values; smoothing composes after the mapper") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(17);
  SkeletonFramed a, b;
  REQUIRE(skeleton.compute(randomRegularNao(nao, rng), a).ok());
  REQUIRE(skeleton.compute(randomRegularNao(nao, rng), b).ok());
  Eigen::VectorXd qa(nao.nq()), qb(nao.nq()), q(nao.nq());
  GaLvvjMapper<double> plain(nao, naoGaLvvjMap());
  (void)plain.map(a, qa);
  (void)plain.map(b, qb);

  GaLvvjOptions options;
  options.hip_yaw_pitch_mode = GaLvvjOptions::HipYawPitchMode::kFixed;
  options.hip_yaw_pitch = -0.2;
  std::vector<double> rest(static_cast<std::size_t>(nao.nq()), 0.0);
  rest[static_cast<std::size_t>(nao.qIndex("LWristYaw"))] = 0.5;
  rest[static_cast<std::size_t>(nao.qIndex("LElbowRoll"))] = -0.5;
  rest[static_cast<std::size_t>(nao.qIndex("RElbowRoll"))] = 0.5;
  options.rest = rest;
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap(), options);
  // Smoothing is a filter after any mapper: alpha weights the new frame.
  ExponentialSmoothing<double> smoothing(nao.nq(), ExponentialSmoothingOptions{0.75});
  (void)mapper.map(a, q);
  (void)smoothing.update(q);
  (void)mapper.map(b, q);
  (void)smoothing.update(q);
  const int lsp = nao.qIndex("LShoulderPitch");
  CHECK(q[lsp] == doctest::Approx(qb[lsp]).epsilon(1e-12));
  CHECK(smoothing.value()[lsp] == doctest::Approx(0.25 * qa[lsp] + 0.75 * qb[lsp]).epsilon(1e-12));
  CHECK(withinLimits(nao, smoothing.value()));
  CHECK(q[nao.qIndex("LHipYawPitch")] == doctest::Approx(-0.2));
  CHECK(q[nao.qIndex("LWristYaw")] == doctest::Approx(0.5));
}

TEST_CASE("ga-lvvj: options and maps are validated with messages naming the field") {
  const auto nao = makeNao<double>();
  GaLvvjOptions bad;
  bad.singular_tolerance = 0.0;
  CHECK_THROWS_WITH_AS(bad.validate(), doctest::Contains("singular_tolerance"), InvalidArgument);
  bad = GaLvvjOptions{};
  bad.rest = {0.0, 1.0};
  CHECK_THROWS_WITH_AS(GaLvvjMapper<double>(nao, naoGaLvvjMap(), bad), doctest::Contains("expected nq = 25"),
                       InvalidArgument);
  GaLvvjMap map = naoGaLvvjMap();
  map.binding(GaLvvjJoint::kLElbowYaw).joint = "LElbowTwist";
  CHECK_THROWS_WITH_AS(GaLvvjMapper<double>(nao, map), doctest::Contains("got 'LElbowTwist'"), InvalidArgument);
  map = naoGaLvvjMap();
  map.binding(GaLvvjJoint::kLElbowYaw).sign = 2.0;
  CHECK_THROWS_WITH_AS(GaLvvjMapper<double>(nao, map), doctest::Contains("expected +1 or -1"), InvalidArgument);
  VirtualSkeletonMap skeleton = naoVirtualSkeletonMap();
  skeleton.points[4].link = "Skull";
  CHECK_THROWS_WITH_AS(VirtualSkeleton<double>(nao, skeleton), doctest::Contains("got link 'Skull'"), InvalidArgument);
  skeleton = naoVirtualSkeletonMap();
  skeleton.hand_left.sign = 0.5;
  CHECK_THROWS_WITH_AS(VirtualSkeleton<double>(nao, skeleton), doctest::Contains("hand_left.sign"), InvalidArgument);
}

TEST_CASE("ga-lvvj: map() and the per-frame metrics allocate nothing") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  std::mt19937 rng(1);
  SkeletonFramed frame, robot;
  Eigen::VectorXd q_in = randomRegularNao(nao, rng), q(nao.nq());
  REQUIRE(skeleton.compute(q_in, frame).ok());
  const SkeletonFramed human = jitteredFrame(frame, rng, 0.02);
  FrameSimilarity<double> similarity;
  NoAllocationScope scope;
  for (int k = 0; k < 10; ++k) {
    (void)mapper.map(human, q);
    (void)skeleton.compute(q, robot);
    (void)frameSimilarity(human, robot, similarity);
  }
  CHECK(scope.allocations() == 0);
}

TEST_CASE_TEMPLATE("ga-lvvj: float compiles and agrees with double", Scalar, float, double) {
  const auto nao = makeNao<Scalar>();
  VirtualSkeleton<Scalar> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<Scalar> mapper(nao, naoGaLvvjMap());
  const auto nao_d = makeNao<double>();
  std::mt19937 rng(2);
  const Eigen::VectorXd q_d = randomRegularNao(nao_d, rng);
  SkeletonFrame<Scalar> frame;
  REQUIRE(skeleton.compute(q_d.cast<Scalar>(), frame).ok());
  VectorX<Scalar> q(nao.nq());
  (void)mapper.map(frame, q);
  for (int i : mappedCoordinates(nao_d, naoGaLvvjMap())) CHECK(std::abs(double(q[i]) - q_d[i]) < 1e-3);
  SkeletonFrame<Scalar> back;
  REQUIRE(skeleton.compute(q, back).ok());
  FrameSimilarity<Scalar> similarity;
  (void)frameSimilarity(frame, back, similarity);
  CHECK(double(similarity.wbf) > 0.999);
}

TEST_CASE("ga-lvvj: limit-aware shoulder trades an infeasible ElbowYaw into ShoulderPitch") {
  // A wave: right upper arm out sideways and slightly down (near the shoulder singularity),
  // forearm straight up. The exact decomposition needs ElbowYaw = pi, beyond NAO's 2.0857.
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  SkeletonFramed frame;
  REQUIRE(skeleton.compute(nao.neutralConfiguration(), frame).ok());
  const Eigen::Vector3d shoulder = frame.position(HumanJoint::kShoulderRight);
  frame.position(HumanJoint::kElbowRight) = shoulder + Eigen::Vector3d(0, -0.32, -0.057).normalized() * 0.105;
  frame.position(HumanJoint::kWristRight) = frame.position(HumanJoint::kElbowRight) + Eigen::Vector3d(0, -0.01, 0.056);
  GaLvvjOptions plain_options;
  plain_options.limit_aware_shoulder = false;
  GaLvvjMapper<double> plain(nao, naoGaLvvjMap(), plain_options), aware(nao, naoGaLvvjMap());
  Eigen::VectorXd q_plain(nao.nq()), q_aware(nao.nq());
  (void)plain.map(frame, q_plain);
  (void)aware.map(frame, q_aware);
  CHECK(plain.virtualAngles()[static_cast<std::size_t>(GaLvvjJoint::kRElbowYaw)] == doctest::Approx(kPi<double>));
  CHECK(withinLimits(nao, q_aware));
  SkeletonFramed robot_plain, robot_aware;
  REQUIRE(skeleton.compute(q_plain, robot_plain).ok());
  REQUIRE(skeleton.compute(q_aware, robot_aware).ok());
  FrameSimilarity<double> s_plain, s_aware;
  (void)frameSimilarity(frame, robot_plain, s_plain);
  (void)frameSimilarity(frame, robot_aware, s_aware);
  const auto lower = static_cast<std::size_t>(SimilarityLink::kRightLowerArm);
  const auto upper = static_cast<std::size_t>(SimilarityLink::kRightUpperArm);
  MESSAGE("right lower arm WBF: plain clamping ", s_plain.wbf_links[lower], ", limit-aware ", s_aware.wbf_links[lower]);
  CHECK(s_aware.wbf_links[lower] + s_aware.wbf_links[upper] > s_plain.wbf_links[lower] + s_plain.wbf_links[upper]);
  CHECK(s_aware.wbf_links[lower] > 0.9);
}

TEST_CASE("ga-lvvj: the arm-direction error and its analytic derivatives match the arm's FK and central differences") {
  // internal::armDirectionError drives the limit-aware arm choice; its value must be
  // 2 - u.u_T - l.l_T of the arm the angles give (checked against AngleAxis products, the
  // definition) and its gradient the derivative (checked against central differences).
  std::mt19937 rng(20261126);
  std::uniform_real_distribution<double> angle(-3.5, 3.5), unit(-1.0, 1.0);
  auto randomUnit = [&] {
    Eigen::Vector3d v;
    do {
      v = Eigen::Vector3d(unit(rng), unit(rng), unit(rng));
    } while (v.norm() < 0.1);
    return Eigen::Vector3d(v.normalized());
  };
  auto axis = [](double a, const Eigen::Vector3d& e) { return Eigen::AngleAxisd(a, e).toRotationMatrix(); };
  double worst_value = 0, worst_gradient = 0, worst_hessian = 0, worst_gauss_newton = 0;
  for (int trial = 0; trial < sweepCount(5000); ++trial) {
    const std::array<double, 4> c = {angle(rng), angle(rng), angle(rng), angle(rng)};
    const Eigen::Matrix3d R_UE = axis(angle(rng), randomUnit());
    const Eigen::Vector3d u_T = randomUnit(), l_T = randomUnit();
    std::array<double, 4> gradient{}, gauss_newton{};
    Eigen::Matrix4d hessian;
    const double f = internal::armDirectionError(c, R_UE, u_T, l_T, &gradient, &hessian, &gauss_newton);
    const Eigen::Matrix3d R_TU = axis(c[0], Eigen::Vector3d::UnitY()) * axis(c[1], Eigen::Vector3d::UnitZ());
    const Eigen::Vector3d u = R_TU.col(0);
    const Eigen::Vector3d l = R_TU * R_UE * axis(c[2], Eigen::Vector3d::UnitX()) * axis(c[3], Eigen::Vector3d::UnitZ()) *
                              Eigen::Vector3d::UnitX();
    worst_value = std::max(worst_value, std::abs(f - (2 - u.dot(u_T) - l.dot(l_T))));
    REQUIRE(internal::armDirectionError<double>(c, R_UE, u_T, l_T, nullptr) == f);
    const double h = 1e-6;
    for (std::size_t k = 0; k < 4; ++k) {
      std::array<double, 4> plus = c, minus = c;
      plus[k] += h;
      minus[k] -= h;
      const double numeric = (internal::armDirectionError<double>(plus, R_UE, u_T, l_T, nullptr) -
                              internal::armDirectionError<double>(minus, R_UE, u_T, l_T, nullptr)) /
                             (2 * h);
      worst_gradient = std::max(worst_gradient, std::abs(gradient[k] - numeric));
      // Hessian column k: central differences of the gradient.
      std::array<double, 4> g_plus{}, g_minus{};
      (void)internal::armDirectionError<double>(plus, R_UE, u_T, l_T, &g_plus);
      (void)internal::armDirectionError<double>(minus, R_UE, u_T, l_T, &g_minus);
      for (std::size_t i = 0; i < 4; ++i) {
        const double second = (g_plus[i] - g_minus[i]) / (2 * h);
        worst_hessian = std::max(worst_hessian, std::abs(hessian(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(k)) - second));
      }
      // Gauss-Newton diagonal: |du/dc_k|^2 + |dl/dc_k|^2 from the arm's FK by differences.
      const Eigen::Matrix3d R_plus = axis(plus[0], Eigen::Vector3d::UnitY()) * axis(plus[1], Eigen::Vector3d::UnitZ());
      const Eigen::Matrix3d R_minus = axis(minus[0], Eigen::Vector3d::UnitY()) * axis(minus[1], Eigen::Vector3d::UnitZ());
      const Eigen::Vector3d du = (R_plus.col(0) - R_minus.col(0)) / (2 * h);
      const Eigen::Vector3d dl = (R_plus * R_UE * axis(plus[2], Eigen::Vector3d::UnitX()) * axis(plus[3], Eigen::Vector3d::UnitZ()) -
                                  R_minus * R_UE * axis(minus[2], Eigen::Vector3d::UnitX()) * axis(minus[3], Eigen::Vector3d::UnitZ())) *
                                 Eigen::Vector3d::UnitX() / (2 * h);
      worst_gauss_newton = std::max(worst_gauss_newton, std::abs(gauss_newton[k] - du.squaredNorm() - dl.squaredNorm()));
    }
  }
  MESSAGE("worst value error ", worst_value, ", gradient ", worst_gradient, ", Hessian ", worst_hessian,
          ", Gauss-Newton diagonal ", worst_gauss_newton);
  CHECK(worst_value < 1e-13);
  CHECK(worst_gradient < 1e-8);
  CHECK(worst_hessian < 1e-7);
  CHECK(worst_gauss_newton < 1e-7);
}

TEST_CASE("ga-lvvj: each documented singular case keeps its joint and flags it as singular (informational)") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  // The paper's fixed HipYawPitch: read from the knee planes, a tibia along the knee axis is a
  // bent knee in a turned hip, not a singular knee.
  GaLvvjOptions fixed_hip;
  fixed_hip.hip_yaw_pitch_mode = GaLvvjOptions::HipYawPitchMode::kFixed;
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap(), fixed_hip);
  SkeletonFramed rest;
  REQUIRE(skeleton.compute(nao.neutralConfiguration(), rest).ok());
  rest.head.reset();
  Eigen::VectorXd q(nao.nq()), q_before(nao.nq());
  auto expectSingular = [&](const SkeletonFramed& singular, const char* joint) {
    mapper.reset();
    (void)mapper.map(rest, q_before);
    const Status status = mapper.map(singular, q);
    CHECK_MESSAGE(!status.has(StatusCode::kDegenerateInput), joint);  // harmless: not degraded
    CHECK_MESSAGE(mapper.singular()[nao.qIndex(joint)], joint);
    CHECK_MESSAGE(!mapper.held()[nao.qIndex(joint)], joint);
    CHECK_MESSAGE(q[nao.qIndex(joint)] == q_before[nao.qIndex(joint)], joint);
    CHECK(withinLimits(nao, q));
  };
  // A degenerate input (not a singular configuration): held, reported as degraded.
  auto expectHeld = [&](const SkeletonFramed& degenerate, const char* joint) {
    mapper.reset();
    (void)mapper.map(rest, q_before);
    const Status status = mapper.map(degenerate, q);
    CHECK_MESSAGE(status.has(StatusCode::kDegenerateInput), joint);
    CHECK_MESSAGE(mapper.held()[nao.qIndex(joint)], joint);
    CHECK_MESSAGE(q[nao.qIndex(joint)] == q_before[nao.qIndex(joint)], joint);
    CHECK(withinLimits(nao, q));
  };
  SUBCASE("thigh horizontal with a straight knee: HipRoll") {
    SkeletonFramed f = rest;
    const Eigen::Vector3d hip = f.position(HumanJoint::kHipLeft);
    f.position(HumanJoint::kKneeLeft) = hip + Eigen::Vector3d(0.1, 0, 0);
    f.position(HumanJoint::kAnkleLeft) = hip + Eigen::Vector3d(0.2, 0, 0);
    expectSingular(f, "LHipRoll");
  }
  SUBCASE("tibia along the knee axis: KneePitch") {
    SkeletonFramed f = rest;
    f.position(HumanJoint::kAnkleLeft) = f.position(HumanJoint::kKneeLeft) + Eigen::Vector3d(0, 0.1, 0);
    expectSingular(f, "LKneePitch");
  }
  SUBCASE("Neck->Head along the shoulder line (no face tracker): HeadPitch") {
    SkeletonFramed f = rest;
    f.position(HumanJoint::kHead) = f.position(HumanJoint::kNeck) + Eigen::Vector3d(0, 0.07, 0);
    expectSingular(f, "HeadPitch");
  }
  SUBCASE("upper arm along the shoulder line: ShoulderPitch") {
    SkeletonFramed f = rest;
    f.position(HumanJoint::kElbowRight) = f.position(HumanJoint::kShoulderRight) + Eigen::Vector3d(0, -0.1, 0);
    f.position(HumanJoint::kWristRight) = f.position(HumanJoint::kElbowRight) + Eigen::Vector3d(0.05, 0, 0);
    expectSingular(f, "RShoulderPitch");
  }
  SUBCASE("straight elbow: ElbowYaw") {
    SkeletonFramed f = rest;
    f.position(HumanJoint::kWristRight) = f.position(HumanJoint::kElbowRight) + 0.5 * (f.position(HumanJoint::kElbowRight) - f.position(HumanJoint::kShoulderRight));
    expectSingular(f, "RElbowYaw");
  }
  SUBCASE("a collinear torso (shoulder on the spine line): the whole arm") {
    SkeletonFramed f = rest;
    f.position(HumanJoint::kShoulderLeft) = f.position(HumanJoint::kSpineShoulder) + Eigen::Vector3d(0, 0, 0.05);
    expectHeld(f, "LShoulderRoll");
    expectHeld(f, "LElbowRoll");
  }
}
