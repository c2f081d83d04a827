// Euler/BVH mapper on a synthetic skeleton and robot: round trips for every case (robot
// angles -> BVH channels that realise them -> mapper -> same angles), limits, rate limiting,
// held outputs, streaming == file path, no allocation, float.
#include <doctest/doctest.h>

#include <random>

#include <retarget/filters/rate_limiter.hpp>
#include <retarget/mappers/euler_mapper.hpp>

#include "euler/euler_test_support.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using test::eulerEntry;

namespace {

// Left shoulder 3 -> 3 in the robot order ZXY (BVH channels are YXZ), neck 3 -> 2, elbow,
// wrist, index finger; signs and offsets on purpose.
EulerMap testConfig() {
  EulerMap c;
  c.name = "test";
  c.skeleton = "test";
  c.joints.push_back(eulerEntry("sh_z", "LeftArm", "ZXY", 0, 1, 0.2));
  c.joints.push_back(eulerEntry("sh_x", "LeftArm", "ZXY", 1, -1, 0));
  c.joints.push_back(eulerEntry("sh_y", "LeftArm", "ZXY", 2, 1, -0.3));
  c.joints.push_back(eulerEntry("neck_yaw", "Neck", "YXZ", 0));
  c.joints.push_back(eulerEntry("neck_pitch", "Neck", "YXZ", 1, -1));
  EulerJointMapping elbow;
  elbow.robot_joint = "elbow";
  elbow.kind = EulerCase::kElbowBend;
  elbow.source = {"LeftForeArm"};
  elbow.sign = -1;
  elbow.offset = kPi<double>;  // robot value = bend = pi - Omega
  c.joints.push_back(elbow);
  EulerJointMapping wrist;
  wrist.robot_joint = "wrist";
  wrist.kind = EulerCase::kWristRotation;
  wrist.source = {"LeftHand"};
  wrist.axis = Eigen::Vector3d::UnitZ();
  c.joints.push_back(wrist);
  EulerJointMapping index;
  index.robot_joint = "index";
  index.kind = EulerCase::kFingerCurl;
  index.source = {"LeftHandIndex1", "LeftHandIndex2", "LeftHandIndex3"};
  index.scale = 1.5;
  c.joints.push_back(index);
  return c;
}

RobotModel<double> testRobot() {
  return test::makeTestRobot({{"sh_z", -2.5, 2.8},
                              {"sh_x", -1.5, 1.5},
                              {"sh_y", -2.8, 2.5},
                              {"neck_yaw", -1.2, 1.2},
                              {"neck_pitch", -0.8, 0.8},
                              {"elbow", 0.0, 3.0},
                              {"wrist", 0.0, 3.1},
                              {"index", 0.0, 2.0},
                              {"unmapped", -1.0, 1.0}});
}

}  // namespace

TEST_CASE("euler mapper: round trip of every case on random configurations within limits") {
  const auto model = testRobot();
  BvhMotion motion = test::makeHumanSkeleton(1);
  EulerMapper<double> mapper(model, motion, testConfig());
  std::mt19937 rng(42);
  auto uniform = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  Eigen::VectorXd q(model.nq());
  const int arm = motion.findJoint("LeftArm"), neck = motion.findJoint("Neck");
  const int fore = motion.findJoint("LeftForeArm"), hand = motion.findJoint("LeftHand");
  const EulerOrder zxy = parseEulerOrder("ZXY"), yxz = parseEulerOrder("YXZ");
  int checked = 0;
  for (int n = 0; n < test::sweepCount(2000); ++n) {
    Eigen::VectorXd target(model.nq());
    for (int i = 0; i < model.nq(); ++i) target[i] = uniform(model.lowerLimits()[i], model.upperLimits()[i]);
    // Invert q = offset + sign * angle for the shoulder; the middle angle must stay within
    // (-pi/2, pi/2) where the decomposition is unique (sh_x limits guarantee it).
    const Eigen::Vector3d shoulder(target[0] - 0.2, -target[1], target[2] + 0.3);
    if (std::abs(shoulder[0]) >= kPi<double> || std::abs(shoulder[2]) >= kPi<double>) continue;
    test::setLocalRotation(motion, 0, arm, eulerToRotation<double>(zxy, shoulder));
    // Neck 3 -> 2: a random third angle must not change the two mapped ones.
    const Eigen::Vector3d neck_angles(target[3], -target[4], uniform(-1.5, 1.5));
    test::setLocalRotation(motion, 0, neck, eulerToRotation<double>(yxz, neck_angles));
    // Elbow 2 -> 1: bend about the upper-arm y axis by (robot value); a random twist about the
    // forearm's own axis (x) must not change it.
    test::setLocalRotation(motion, 0, fore,
                           (Eigen::AngleAxisd(target[5], Eigen::Vector3d::UnitY()) *
                            Eigen::AngleAxisd(uniform(-3, 3), Eigen::Vector3d::UnitX()))
                               .toRotationMatrix());
    // Wrist 2 -> 1 (Eq. 10): rotation about x by omega in [0, pi]; a spin about z leaves it.
    test::setLocalRotation(motion, 0, hand,
                           (Eigen::AngleAxisd(target[6], Eigen::Vector3d::UnitX()) *
                            Eigen::AngleAxisd(uniform(-3, 3), Eigen::Vector3d::UnitZ()))
                               .toRotationMatrix());
    // Finger: three segments curled about z by angles whose mean is target / scale.
    const double mean = target[7] / 1.5;
    const double d1 = uniform(-0.2, 0.2) * mean, d2 = uniform(-0.2, 0.2) * mean;
    const double curls[3] = {mean + d1, mean + d2, mean - d1 - d2};
    for (int k = 0; k < 3; ++k) {
      test::setLocalRotation(motion, 0, motion.findJoint("LeftHandIndex" + std::to_string(k + 1)),
                             Eigen::AngleAxisd(-curls[k], Eigen::Vector3d::UnitZ()).toRotationMatrix());
    }
    mapper.reset();
    const Status status = mapper.map(motion.frameValues(0), q);
    CHECK(status.ok());
    for (int i = 0; i < 8; ++i) CHECK(std::abs(q[i] - target[i]) < 1e-6);
    CHECK(q[8] == 0.0);  // unmapped joint holds its neutral value
    ++checked;
  }
  CHECK(checked > test::sweepCount(2000) / 2);
}

TEST_CASE("euler mapper: BVH channel order is honoured (same rotation, six channel orders)") {
  const auto model = testRobot();
  std::mt19937 rng(7);
  for (const char* order : {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"}) {
    BvhMotion motion = test::makeHumanSkeleton(1, order);
    EulerMapper<double> mapper(model, motion, testConfig());
    const Eigen::Vector3d shoulder(0.4, -0.7, 1.1);
    test::setLocalRotation(motion, 0, motion.findJoint("LeftArm"),
                           eulerToRotation<double>(parseEulerOrder("ZXY"), shoulder));
    Eigen::VectorXd q(model.nq());
    CHECK(mapper.map(motion.frameValues(0), q).ok());
    CHECK(std::abs(q[0] - (0.4 + 0.2)) < 1e-9);
    CHECK(std::abs(q[1] - 0.7) < 1e-9);
    CHECK(std::abs(q[2] - (1.1 - 0.3)) < 1e-9);
  }
}

TEST_CASE("euler mapper: the hierarchy's frames are not used; mapMotion equals frame-by-frame streaming") {
  const auto model = testRobot();
  BvhMotion motion = test::makeHumanSkeleton(200);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> deg(-170, 170);
  for (double& v : motion.values) v = deg(rng);
  BvhMotion layout_only = motion;  // same hierarchy, no frames
  layout_only.values.clear();
  layout_only.frame_count = 0;
  EulerMapper<double> a(model, motion, testConfig()), b(model, layout_only, testConfig());
  const MappedMotion<double> batch = mapMotion(a, motion);
  REQUIRE(batch.size() == static_cast<std::size_t>(motion.frame_count));
  Eigen::VectorXd qb(model.nq());
  for (int f = 0; f < motion.frame_count; ++f) {
    const Status sb = b.map(motion.frameValues(f), qb);
    CHECK(batch.status[static_cast<std::size_t>(f)] == sb);
    CHECK((batch.q.row(f).transpose() - qb).cwiseAbs().maxCoeff() == 0.0);
    CHECK(qb.allFinite());
    CHECK(((qb.array() >= model.lowerLimits().array()) && (qb.array() <= model.upperLimits().array())).all());
    CHECK(qb == b.output());
    CHECK(batch.time[static_cast<std::size_t>(f)] == doctest::Approx(f * motion.frame_time));
  }
}

TEST_CASE("euler mapper: limits clamp and report, raw output keeps the human value") {
  const auto model = testRobot();
  EulerMap config = testConfig();
  config.joints[3].upper = 0.5;  // neck_yaw: configured limit tighter than the robot's 1.2
  BvhMotion motion = test::makeHumanSkeleton(1);
  EulerMapper<double> mapper(model, motion, config);
  test::setLocalRotation(motion, 0, motion.findJoint("Neck"),
                         eulerToRotation<double>(parseEulerOrder("YXZ"), Eigen::Vector3d(0.9, 0, 0)));
  Eigen::VectorXd q(model.nq());
  const Status status = mapper.map(motion.frameValues(0), q);
  CHECK(status.has(StatusCode::kClamped));
  CHECK(q[3] == 0.5);
  CHECK(std::abs(mapper.rawOutput()[3] - 0.9) < 1e-12);
  CHECK(mapper.lowerLimit(3) == -1.2);
  CHECK(mapper.upperLimit(3) == 0.5);
}

TEST_CASE("euler mapper: rate limiting is a filter after the mapper (RateLimiter), not part of the map") {
  const auto model = testRobot();
  BvhMotion motion = test::makeHumanSkeleton(2);
  EulerMapper<double> mapper(model, motion, testConfig());
  test::setLocalRotation(motion, 1, motion.findJoint("Neck"),
                         eulerToRotation<double>(parseEulerOrder("YXZ"), Eigen::Vector3d(1.0, 0, 0)));
  RateLimiterOptions options;
  options.max_rate = 2.0;  // rad/s; frame time 0.008 s -> at most 0.016 rad per frame
  RateLimiter<double> limiter(model.nq(), options);
  Eigen::VectorXd q(model.nq());
  CHECK(mapper.map(motion.frameValues(0), q).ok());
  CHECK(limiter.update(q, motion.frame_time).ok());
  CHECK(limiter.value()[3] == 0.0);
  for (int k = 1; k <= 10; ++k) {
    CHECK(mapper.map(motion.frameValues(1), q).ok());
    CHECK(q[3] == doctest::Approx(1.0).epsilon(1e-12));  // the mapper itself does not limit
    CHECK(limiter.update(q, motion.frame_time).has(StatusCode::kRateLimited));
    CHECK(std::abs(limiter.value()[3] - 0.016 * k) < 1e-12);
    CHECK(((limiter.value().array() >= model.lowerLimits().array()) &&
           (limiter.value().array() <= model.upperLimits().array())).all());
  }
}

TEST_CASE("euler mapper: bad input is reported, the affected joints held and flagged") {
  const auto model = testRobot();
  BvhMotion motion = test::makeHumanSkeleton(2);
  EulerMapper<double> mapper(model, motion, testConfig());
  test::setLocalRotation(motion, 0, motion.findJoint("Neck"),
                         eulerToRotation<double>(parseEulerOrder("YXZ"), Eigen::Vector3d(0.3, 0.1, 0)));
  Eigen::VectorXd q(model.nq());
  CHECK(mapper.map(motion.frameValues(0), q).ok());
  CHECK_FALSE(mapper.held().any());
  const Eigen::VectorXd good = q;
  Eigen::VectorXd row = motion.frameValues(0);
  row[motion.joints[static_cast<std::size_t>(motion.findJoint("Neck"))].first_channel] = std::nan("");
  const Status status = mapper.map(row, q);
  CHECK(status.has(StatusCode::kDegenerateInput));
  CHECK_FALSE(status.has(StatusCode::kInvalidInput));
  CHECK(q.allFinite());
  CHECK(q[3] == good[3]);
  CHECK(q[4] == good[4]);
  CHECK(mapper.held()[3]);
  CHECK(mapper.held()[4]);
  CHECK(mapper.held().count() == 2);  // neck_yaw and neck_pitch read the Neck only
  // Wrong sizes: q_out untouched, or the last output written.
  Eigen::VectorXd wrong = Eigen::VectorXd::Constant(3, 7.0);
  CHECK(mapper.map(motion.frameValues(0), wrong).has(StatusCode::kInvalidInput));
  CHECK(wrong == Eigen::VectorXd::Constant(3, 7.0));
  const Eigen::VectorXd last = mapper.output();
  const Eigen::VectorXd short_frame = Eigen::VectorXd::Zero(motion.channel_count - 3);  // another layout
  CHECK(mapper.map(short_frame, q).has(StatusCode::kInvalidInput));
  CHECK(q == last);
}

TEST_CASE("euler mapper: configuration errors name the field and value") {
  const auto model = testRobot();
  BvhMotion motion = test::makeHumanSkeleton(1);
  {
    EulerMap c = testConfig();
    c.joints[0].robot_joint = "no_such_joint";
    CHECK_THROWS_WITH_AS(EulerMapper<double>(model, motion, c), doctest::Contains("no_such_joint"), InvalidArgument);
  }
  {
    EulerMap c = testConfig();
    c.joints[1].sign = 2;
    CHECK_THROWS_WITH_AS(EulerMapper<double>(model, motion, c), doctest::Contains("sign (got 2, expected 1 or -1)"),
                         InvalidArgument);
  }
  {
    EulerMap c = testConfig();
    c.joints[1].angle = 3;
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("angle (got 3"), InvalidArgument);
  }
  {
    EulerMap c = testConfig();
    c.joints[2].robot_joint = "sh_z";
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("mapped twice"), InvalidArgument);
  }
  {
    EulerMap c = testConfig();
    c.joints[3].lower = 1.0;
    c.joints[3].upper = 0.5;
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("lower 1 > upper 0.5"), InvalidArgument);
  }
  {
    EulerMap c = testConfig();
    c.joints[3].lower = 2.0;  // robot upper is 1.2
    CHECK_THROWS_WITH_AS(EulerMapper<double>(model, motion, c), doctest::Contains("do not intersect"), InvalidArgument);
  }
  {
    EulerMap c = testConfig();
    c.joints[6].axis = Eigen::Vector3d::Zero();
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("non-zero axis"), InvalidArgument);
  }
  {
    EulerMap c = testConfig();
    c.joints[4].source = {"NoSuchBone"};
    CHECK_THROWS_WITH_AS(EulerMapper<double>(model, motion, c), doctest::Contains("NoSuchBone"), InvalidArgument);
  }
}

TEST_CASE("euler mapper: map() does not allocate") {
  const auto model = testRobot();
  EulerMap config = testConfig();
  BvhMotion motion = test::makeHumanSkeleton(50);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> deg(-180, 180);
  for (double& v : motion.values) v = deg(rng);
  EulerMapper<double> mapper(model, motion, config);
  Eigen::VectorXd q(model.nq());
  int ok = 0;
  {
    test::NoAllocationScope scope;
    for (int f = 0; f < motion.frame_count; ++f) {
      ok += mapper.map(motion.frameValues(f), q).has(StatusCode::kInvalidInput) ? 0 : 1;
      ok += mapper.map(motion.frameValues(motion.frame_count - 1 - f), q).has(StatusCode::kInvalidInput) ? 0 : 1;
    }
    CHECK(scope.allocations() == 0);
  }
  CHECK(ok == 2 * motion.frame_count);
}

TEST_CASE("euler mapper: float compiles and agrees with double") {
  RobotModelBuilder<float> b("f");
  b.addLink("base");
  b.addLink("l");
  JointSpec<float> spec;
  spec.name = "neck_yaw";
  spec.parent_link = "base";
  spec.child_link = "l";
  spec.limits.lower = -1.2f;
  spec.limits.upper = 1.2f;
  b.addJoint(spec);
  const auto model = b.build();
  EulerMap config;
  config.joints.push_back(eulerEntry("neck_yaw", "Neck", "YXZ", 0));
  BvhMotion motion = test::makeHumanSkeleton(1);
  EulerMapper<float> mapper(model, motion, config);
  test::setLocalRotation(motion, 0, motion.findJoint("Neck"),
                         eulerToRotation<double>(parseEulerOrder("YXZ"), Eigen::Vector3d(0.7, 0.2, -0.4)));
  Eigen::VectorXf q(1);
  CHECK(mapper.map(motion.frameValues(0), q).ok());
  CHECK(std::abs(q[0] - 0.7f) < 1e-5f);
}

namespace {
// A map with one entry: robot joint "twist" from the left hand's twist about its x axis.
EulerMap leftHandTwistMap() {
  EulerMap config;
  EulerJointMapping twist;
  twist.robot_joint = "twist";
  twist.kind = EulerCase::kWristTwist;
  twist.source = {"LeftHand"};
  twist.axis = Eigen::Vector3d::UnitX();
  config.joints.push_back(twist);
  return config;
}
}  // namespace

TEST_CASE("euler mapper: signed wrist twist (swing-twist) round trip, and Eq. 10 is its magnitude") {
  const auto model = test::makeTestRobot({{"twist", -3.0, 3.0}, {"omega", 0.0, 3.2}});
  EulerMap config = leftHandTwistMap();
  EulerJointMapping omega;
  omega.robot_joint = "omega";
  omega.kind = EulerCase::kWristRotation;
  omega.source = {"LeftHand"};
  omega.axis = Eigen::Vector3d::UnitZ();
  config.joints.push_back(omega);
  CHECK((parseEulerCase("wrist_twist") == EulerCase::kWristTwist));
  BvhMotion motion = test::makeHumanSkeleton(1);
  EulerMapper<double> mapper(model, motion, config);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> t(-3.0, 3.0), swing(-1.2, 1.2);
  Eigen::VectorXd q(model.nq());
  for (int n = 0; n < test::sweepCount(500); ++n) {
    const double angle = t(rng);
    mapper.reset();  // each frame a first frame: the random angles are not a motion
    // A swing about an axis perpendicular to the forearm after the twist does not change it.
    const Eigen::Vector3d perpendicular(0, std::cos(n * 0.1), std::sin(n * 0.1));
    test::setLocalRotation(motion, 0, motion.findJoint("LeftHand"),
                           (Eigen::AngleAxisd(swing(rng), perpendicular) *
                            Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()))
                               .toRotationMatrix());
    CHECK(mapper.map(motion.frameValues(0), q).ok());
    CHECK(std::abs(q[0] - angle) < 1e-9);
    // Pure twist: Eq. 10's omega is |twist|.
    test::setLocalRotation(motion, 0, motion.findJoint("LeftHand"),
                           Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()).toRotationMatrix());
    mapper.reset();
    CHECK(mapper.map(motion.frameValues(0), q).ok());
    CHECK(std::abs(q[0] - angle) < 1e-9);
    CHECK(std::abs(q[1] - std::abs(angle)) < 1e-9);
  }
}

TEST_CASE("euler mapper: a wrist twist through +-pi goes on to its limit and stays there, no jump across") {
  const auto model = test::makeTestRobot({{"twist", -3.0, 3.0}});
  EulerMap config = leftHandTwistMap();
  BvhMotion motion = test::makeHumanSkeleton(1);
  EulerMapper<double> mapper(model, motion, config);
  const int hand = motion.findJoint("LeftHand");
  Eigen::VectorXd q(model.nq()), previous(model.nq());
  // The hand twists from 2.5 rad on, 0.01 rad per frame, to 2.5 + 3.5 rad (past pi, which the
  // swing-twist split wraps to -pi, and on to half a turn past the limit), then back.
  int reported = 0, clamped = 0;
  double worst_unreported = 0;
  bool first = true;
  for (int k = 0; k <= 700; ++k) {
    const double angle = 2.5 + 0.01 * (k <= 350 ? k : 700 - k);
    test::setLocalRotation(motion, 0, hand, Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()).toRotationMatrix());
    const Status s = mapper.map(motion.frameValues(0), q);
    CHECK_FALSE(s.has(StatusCode::kInvalidInput));
    clamped += s.has(StatusCode::kClamped) ? 1 : 0;
    if (!first) {
      if (s.has(StatusCode::kDiscontinuity)) {
        ++reported;
      } else {
        worst_unreported = std::max(worst_unreported, std::abs(q[0] - previous[0]));
      }
    }
    // Up to half a turn past the limit (angle < 3 + pi) the robot holds its limit.
    if (angle > 3.0 && angle < 3.0 + kPi<double> - 0.02) CHECK(q[0] == doctest::Approx(3.0).epsilon(1e-12));
    if (angle <= 3.0) CHECK(std::abs(q[0] - angle) < 1e-9);
    previous = q;
    first = false;
  }
  MESSAGE("twist through pi: " << clamped << " frames clamped, " << reported << " reported, largest unreported step "
                               << worst_unreported << " rad");
  CHECK(worst_unreported <= 0.01 + 1e-9);  // the input's own step
  CHECK(clamped > 200);
}

// Continuity (issue 31): every channel swept in 0.02 deg steps through `center`; returns the
// largest unreported joint step, counting the reported (kDiscontinuity) frames.
namespace {
double largestUnreportedStep(EulerMapper<double>& mapper, const Eigen::VectorXd& center, int& reported) {
  Eigen::VectorXd line(center.size());
  for (Eigen::Index i = 0; i < line.size(); ++i) line[i] = 0.02 * (i % 3 == 0 ? 1.0 : i % 3 == 1 ? -0.5 : 0.75);
  mapper.reset();
  Eigen::VectorXd q(mapper.model().nq()), previous(mapper.model().nq());
  (void)mapper.map(center - 100 * line, previous);
  double worst = 0;
  for (int k = -100; k <= 100; ++k) {
    const Status s = mapper.map(center + k * line, q);
    if (s.has(StatusCode::kDiscontinuity)) {
      ++reported;
    } else {
      worst = std::max(worst, (q - previous).cwiseAbs().maxCoeff());
    }
    previous = q;
  }
  return worst;
}
}  // namespace

TEST_CASE("euler mapper: continuity through the gimbal lock and the wrap; reset() forgets the branch") {
  const auto model = testRobot();
  const BvhMotion motion = test::makeHumanSkeleton(1);
  EulerMapper<double> mapper(model, motion, testConfig());
  for (double angle : {90.0, 180.0, -90.0, 30.0}) {
    CAPTURE(angle);
    int reported = 0;
    const double worst =
        largestUnreportedStep(mapper, Eigen::VectorXd::Constant(motion.channel_count, angle), reported);
    MESSAGE("channels through " << angle << " deg: largest unreported step " << worst << " rad, " << reported
                                << " frames reported");
    CHECK(worst < 0.25);
  }
  // reset(): the next frame is a first frame again (the branch a fresh mapper takes).
  Eigen::VectorXd values = Eigen::VectorXd::Constant(motion.channel_count, 90.0);
  Eigen::VectorXd q(model.nq()), fresh_q(model.nq());
  for (int k = 0; k < 50; ++k) (void)mapper.map(values + Eigen::VectorXd::Constant(values.size(), 2.0 * k), q);
  mapper.reset();
  EulerMapper<double> fresh(model, motion, testConfig());
  (void)mapper.map(values, q);
  (void)fresh.map(values, fresh_q);
  CHECK(q == fresh_q);
}

TEST_CASE("euler mapper: a jump the limits force is reported as a discontinuity") {
  const auto model = testRobot();
  BvhMotion motion = test::makeHumanSkeleton(1);
  EulerMapper<double> mapper(model, motion, testConfig());
  // The left shoulder turned about its first robot axis (z) from 1.5 rad on: sh_z = 0.2 + a
  // reaches its upper limit 2.8 and the arm keeps turning; beyond jump_margin the mapper has to
  // change to the other angle triple or turn, a jump it reports.
  const int arm = motion.findJoint("LeftArm");
  Eigen::VectorXd q(model.nq()), previous(model.nq());
  int reported = 0;
  double worst_unreported = 0;
  for (int k = 0; k <= 400; ++k) {
    const double a = 1.5 + 0.01 * k;
    test::setLocalRotation(motion, 0, arm, eulerToRotation<double>(parseEulerOrder("ZXY"), Eigen::Vector3d(a, 0.3, 0.2)));
    const Status s = mapper.map(motion.frameValues(0), q);
    if (k > 0 && s.has(StatusCode::kDiscontinuity)) {
      ++reported;
    } else if (k > 0) {
      worst_unreported = std::max(worst_unreported, (q - previous).cwiseAbs().maxCoeff());
    }
    previous = q;
  }
  MESSAGE("forced: " << reported << " frames reported, largest unreported step " << worst_unreported << " rad");
  CHECK(reported > 0);
  CHECK(worst_unreported < 0.25);
}
