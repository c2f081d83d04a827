// Euler/BVH mapper on a synthetic skeleton and robot: round trips for every case (robot
// angles -> BVH channels that realise them -> mapper -> same angles), limits, rate limiting,
// held outputs, streaming == file path, no allocation, float.
#include <doctest/doctest.h>

#include <random>

#include <retarget/mappers/euler_mapper.hpp>

#include "euler/euler_test_support.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using test::eulerEntry;

namespace {

// Left shoulder 3 -> 3 in the robot order ZXY (BVH channels are YXZ), neck 3 -> 2, elbow,
// wrist, index finger; signs and offsets on purpose.
EulerMapperConfig testConfig() {
  EulerMapperConfig c;
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
  EulerMapper<double> mapper(model, testConfig());
  BvhMotion motion = test::makeHumanSkeleton(1);
  mapper.bind(motion);
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
    const Status status = mapper.map(motion, 0, q);
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
    EulerMapper<double> mapper(model, testConfig());
    mapper.bind(motion);
    const Eigen::Vector3d shoulder(0.4, -0.7, 1.1);
    test::setLocalRotation(motion, 0, motion.findJoint("LeftArm"),
                           eulerToRotation<double>(parseEulerOrder("ZXY"), shoulder));
    Eigen::VectorXd q(model.nq());
    CHECK(mapper.map(motion, 0, q).ok());
    CHECK(std::abs(q[0] - (0.4 + 0.2)) < 1e-9);
    CHECK(std::abs(q[1] - 0.7) < 1e-9);
    CHECK(std::abs(q[2] - (1.1 - 0.3)) < 1e-9);
  }
}

TEST_CASE("euler mapper: streaming values give the same output as the motion path") {
  const auto model = testRobot();
  BvhMotion motion = test::makeHumanSkeleton(200);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> deg(-170, 170);
  for (double& v : motion.values) v = deg(rng);
  EulerMapper<double> a(model, testConfig()), b(model, testConfig());
  a.bind(motion);
  b.bind(motion);
  Eigen::VectorXd qa(model.nq()), qb(model.nq());
  for (int f = 0; f < motion.frame_count; ++f) {
    const Status sa = a.map(motion, f, qa);
    const Status sb = b.map(motion.frame(f), qb);
    CHECK(sa == sb);
    CHECK((qa - qb).cwiseAbs().maxCoeff() < 1e-12);
    CHECK(qa.allFinite());
    CHECK(((qa.array() >= model.lowerLimits().array()) && (qa.array() <= model.upperLimits().array())).all());
    CHECK(qa == a.output());
  }
}

TEST_CASE("euler mapper: limits clamp and report, raw output keeps the human value") {
  const auto model = testRobot();
  EulerMapperConfig config = testConfig();
  config.joints[3].upper = 0.5;  // neck_yaw: configured limit tighter than the robot's 1.2
  EulerMapper<double> mapper(model, config);
  BvhMotion motion = test::makeHumanSkeleton(1);
  mapper.bind(motion);
  test::setLocalRotation(motion, 0, motion.findJoint("Neck"),
                         eulerToRotation<double>(parseEulerOrder("YXZ"), Eigen::Vector3d(0.9, 0, 0)));
  Eigen::VectorXd q(model.nq());
  const Status status = mapper.map(motion, 0, q);
  CHECK(status.has(StatusCode::kClamped));
  CHECK(q[3] == 0.5);
  CHECK(std::abs(mapper.rawOutput()[3] - 0.9) < 1e-12);
  CHECK(mapper.lowerLimit(3) == -1.2);
  CHECK(mapper.upperLimit(3) == 0.5);
}

TEST_CASE("euler mapper: max speed limits the step per frame time") {
  const auto model = testRobot();
  EulerMapperConfig config = testConfig();
  config.joints[3].max_speed = 2.0;  // rad/s on neck_yaw
  EulerMapper<double> mapper(model, config);
  BvhMotion motion = test::makeHumanSkeleton(2);
  mapper.bind(motion);  // frame time 0.008 s -> at most 0.016 rad per frame
  test::setLocalRotation(motion, 1, motion.findJoint("Neck"),
                         eulerToRotation<double>(parseEulerOrder("YXZ"), Eigen::Vector3d(1.0, 0, 0)));
  Eigen::VectorXd q(model.nq());
  CHECK(mapper.map(motion, 0, q).ok());
  CHECK(q[3] == 0.0);
  for (int k = 1; k <= 10; ++k) {
    const Status status = mapper.map(motion, 1, q);
    CHECK(status.has(StatusCode::kRateLimited));
    CHECK(std::abs(q[3] - 0.016 * k) < 1e-12);
  }
  mapper.reset();  // no previous frame: the next output jumps
  CHECK(mapper.map(motion, 1, q).ok());
  CHECK(std::abs(q[3] - 1.0) < 1e-12);
}

TEST_CASE("euler mapper: bad input is reported and the last good output held") {
  const auto model = testRobot();
  EulerMapper<double> mapper(model, testConfig());
  BvhMotion motion = test::makeHumanSkeleton(2);
  Eigen::VectorXd q = Eigen::VectorXd::Constant(model.nq(), 7.0);
  CHECK(mapper.map(motion, 0, q).has(StatusCode::kInvalidInput));  // not bound yet
  CHECK(q == mapper.output());
  mapper.bind(motion);
  test::setLocalRotation(motion, 0, motion.findJoint("Neck"),
                         eulerToRotation<double>(parseEulerOrder("YXZ"), Eigen::Vector3d(0.3, 0.1, 0)));
  CHECK(mapper.map(motion, 0, q).ok());
  const Eigen::VectorXd good = q;
  std::vector<double> row(motion.frame(0), motion.frame(0) + motion.channel_count);
  row[static_cast<std::size_t>(motion.joints[motion.findJoint("Neck")].first_channel)] = std::nan("");
  const Status status = mapper.map(row.data(), q);
  CHECK(status.has(StatusCode::kInvalidInput));
  CHECK(q.allFinite());
  CHECK(q[3] == good[3]);
  CHECK(q[4] == good[4]);
  Eigen::VectorXd wrong(3);
  CHECK(mapper.map(motion, 0, wrong).has(StatusCode::kInvalidInput));
  CHECK(mapper.map(motion, 5, q).has(StatusCode::kInvalidInput));
  CHECK(mapper.map(motion, -1, q).has(StatusCode::kInvalidInput));
  CHECK(mapper.map(nullptr, q).has(StatusCode::kInvalidInput));
  BvhMotion other = test::makeHumanSkeleton(1);
  other.joints.pop_back();
  other.assignChannelIndices();
  CHECK(mapper.map(other, 0, q).has(StatusCode::kInvalidInput));
  CHECK(q == good);
}

TEST_CASE("euler mapper: configuration errors name the field and value") {
  const auto model = testRobot();
  BvhMotion motion = test::makeHumanSkeleton(1);
  {
    EulerMapperConfig c = testConfig();
    c.joints[0].robot_joint = "no_such_joint";
    CHECK_THROWS_WITH_AS(EulerMapper<double>(model, c), doctest::Contains("no_such_joint"), InvalidArgument);
  }
  {
    EulerMapperConfig c = testConfig();
    c.joints[1].sign = 2;
    CHECK_THROWS_WITH_AS(EulerMapper<double>(model, c), doctest::Contains("sign (got 2, expected 1 or -1)"),
                         InvalidArgument);
  }
  {
    EulerMapperConfig c = testConfig();
    c.joints[1].angle = 3;
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("angle (got 3"), InvalidArgument);
  }
  {
    EulerMapperConfig c = testConfig();
    c.joints[2].robot_joint = "sh_z";
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("mapped twice"), InvalidArgument);
  }
  {
    EulerMapperConfig c = testConfig();
    c.joints[3].lower = 1.0;
    c.joints[3].upper = 0.5;
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("lower 1 > upper 0.5"), InvalidArgument);
  }
  {
    EulerMapperConfig c = testConfig();
    c.joints[3].lower = 2.0;  // robot upper is 1.2
    CHECK_THROWS_WITH_AS(EulerMapper<double>(model, c), doctest::Contains("do not intersect"), InvalidArgument);
  }
  {
    EulerMapperConfig c = testConfig();
    c.joints[6].axis = Eigen::Vector3d::Zero();
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("non-zero axis"), InvalidArgument);
  }
  {
    EulerMapperConfig c = testConfig();
    c.joints[0].max_speed = -1;
    CHECK_THROWS_WITH_AS(c.validate(), doctest::Contains("max_speed (got -1"), InvalidArgument);
  }
  {
    EulerMapperConfig c = testConfig();
    c.joints[4].source = {"NoSuchBone"};
    EulerMapper<double> mapper(model, c);
    CHECK_THROWS_WITH_AS(mapper.bind(motion), doctest::Contains("NoSuchBone"), InvalidArgument);
  }
}

TEST_CASE("euler mapper: map() does not allocate") {
  const auto model = testRobot();
  EulerMapperConfig config = testConfig();
  config.joints[0].max_speed = 3;
  EulerMapper<double> mapper(model, config);
  BvhMotion motion = test::makeHumanSkeleton(50);
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> deg(-180, 180);
  for (double& v : motion.values) v = deg(rng);
  mapper.bind(motion);
  Eigen::VectorXd q(model.nq());
  int ok = 0;
  {
    test::NoAllocationScope scope;
    for (int f = 0; f < motion.frame_count; ++f) {
      ok += mapper.map(motion, f, q).has(StatusCode::kInvalidInput) ? 0 : 1;
      ok += mapper.map(motion.frame(f), q).has(StatusCode::kInvalidInput) ? 0 : 1;
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
  EulerMapperConfig config;
  config.joints.push_back(eulerEntry("neck_yaw", "Neck", "YXZ", 0));
  EulerMapper<float> mapper(model, config);
  BvhMotion motion = test::makeHumanSkeleton(1);
  mapper.bind(motion);
  test::setLocalRotation(motion, 0, motion.findJoint("Neck"),
                         eulerToRotation<double>(parseEulerOrder("YXZ"), Eigen::Vector3d(0.7, 0.2, -0.4)));
  Eigen::VectorXf q(1);
  CHECK(mapper.map(motion, 0, q).ok());
  CHECK(std::abs(q[0] - 0.7f) < 1e-5f);
}

TEST_CASE("euler mapper: signed wrist twist (swing-twist) round trip, and Eq. 10 is its magnitude") {
  const auto model = test::makeTestRobot({{"twist", -3.0, 3.0}, {"omega", 0.0, 3.2}});
  EulerMapperConfig config;
  EulerJointMapping twist;
  twist.robot_joint = "twist";
  twist.kind = EulerCase::kWristTwist;
  twist.source = {"LeftHand"};
  twist.axis = Eigen::Vector3d::UnitX();
  config.joints.push_back(twist);
  EulerJointMapping omega;
  omega.robot_joint = "omega";
  omega.kind = EulerCase::kWristRotation;
  omega.source = {"LeftHand"};
  omega.axis = Eigen::Vector3d::UnitZ();
  config.joints.push_back(omega);
  CHECK((parseEulerCase("wrist_twist") == EulerCase::kWristTwist));
  EulerMapper<double> mapper(model, config);
  BvhMotion motion = test::makeHumanSkeleton(1);
  mapper.bind(motion);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> t(-3.0, 3.0), swing(-1.2, 1.2);
  Eigen::VectorXd q(model.nq());
  for (int n = 0; n < test::sweepCount(500); ++n) {
    const double angle = t(rng);
    // A swing about an axis perpendicular to the forearm after the twist does not change it.
    const Eigen::Vector3d perpendicular(0, std::cos(n * 0.1), std::sin(n * 0.1));
    test::setLocalRotation(motion, 0, motion.findJoint("LeftHand"),
                           (Eigen::AngleAxisd(swing(rng), perpendicular) *
                            Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()))
                               .toRotationMatrix());
    CHECK(mapper.map(motion, 0, q).ok());
    CHECK(std::abs(q[0] - angle) < 1e-9);
    // Pure twist: Eq. 10's omega is |twist|.
    test::setLocalRotation(motion, 0, motion.findJoint("LeftHand"),
                           Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitX()).toRotationMatrix());
    CHECK(mapper.map(motion, 0, q).ok());
    CHECK(std::abs(q[0] - angle) < 1e-9);
    CHECK(std::abs(q[1] - std::abs(angle)) < 1e-9);
  }
}
