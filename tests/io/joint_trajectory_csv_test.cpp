// Joint-trajectory CSV: exact write -> read round trips on random data, reordering into a
// robot's q order, and the malformed-input suite (every error names file, line and what).
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include <retarget/io/joint_trajectory_csv.hpp>

#include "io/parse_error_cases.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// Random trajectory: names j0..j{n-1} in random order, increasing random times, values over
// many magnitudes (to exercise the shortest-decimal writer).
JointTrajectory randomTrajectory(std::mt19937& rng, int frames, int joints) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> exponent(-12, 3);
  JointTrajectory t;
  for (int j = 0; j < joints; ++j) t.joint_names.push_back("joint_" + std::to_string(j));
  std::shuffle(t.joint_names.begin(), t.joint_names.end(), rng);
  double time = unit(rng);
  for (int i = 0; i < frames; ++i) {
    t.times.push_back(time);
    time += 1e-3 + std::abs(unit(rng));
  }
  t.positions.resize(frames, joints);
  for (int i = 0; i < frames; ++i) {
    for (int j = 0; j < joints; ++j) t.positions(i, j) = unit(rng) * std::pow(10.0, exponent(rng));
  }
  return t;
}

JointTrajectory parseTrajectory(const std::string& text) {
  std::istringstream in(text);
  return readJointTrajectoryCsv(in, "traj.csv");
}

// A robot with joints a (revolute), b (prismatic), c (continuous), a fixed joint and a mimic.
RobotModel<double> smallRobot() {
  RobotModelBuilder<double> b("small");
  for (const char* link : {"base", "l1", "l2", "l3", "l4", "l5"}) b.addLink(link, 1.0);
  auto joint = [](const std::string& name, const std::string& parent, const std::string& child, JointType type) {
    JointSpec<double> spec;
    spec.name = name;
    spec.parent_link = parent;
    spec.child_link = child;
    spec.type = type;
    if (type == JointType::kRevolute || type == JointType::kPrismatic) {
      spec.limits.lower = -1;
      spec.limits.upper = 1;
    }
    return spec;
  };
  b.addJoint(joint("a", "base", "l1", JointType::kRevolute));
  b.addJoint(joint("b", "l1", "l2", JointType::kPrismatic));
  b.addJoint(joint("c", "l2", "l3", JointType::kContinuous));
  b.addJoint(joint("fixed", "l3", "l4", JointType::kFixed));
  auto mimic = joint("m", "l3", "l5", JointType::kRevolute);
  mimic.mimic = MimicSpec{"a", 1.0, 0.0};
  b.addJoint(mimic);
  return b.build();
}

}  // namespace

TEST_CASE("joint trajectory CSV: write -> read is exact on random trajectories") {
  std::mt19937 rng(20261122);
  for (int trial = 0; trial < test::sweepCount(50); ++trial) {
    std::uniform_int_distribution<int> size(0, 30);
    // Every tenth trajectory has times and no joint columns (a robot with nq = 0).
    const JointTrajectory original = randomTrajectory(rng, size(rng), trial % 10 == 0 ? 0 : 1 + size(rng));
    std::ostringstream out;
    writeJointTrajectoryCsv(original, out);
    const JointTrajectory read = parseTrajectory(out.str());
    REQUIRE(read.joint_names == original.joint_names);
    REQUIRE(read.times == original.times);
    REQUIRE(read.positions.rows() == original.positions.rows());
    REQUIRE(read.positions.cols() == original.positions.cols());
    CHECK(read.positions == original.positions);
  }
}

TEST_CASE("joint trajectory CSV: file round trip, CRLF, spaces, BOM and blank lines") {
  std::mt19937 rng(7);
  const JointTrajectory original = randomTrajectory(rng, 12, 5);
  const auto path = std::filesystem::temp_directory_path() / "retarget_io_traj_roundtrip.csv";
  writeJointTrajectoryCsv(original, path.string());
  const JointTrajectory read = readJointTrajectoryCsv(path.string());
  CHECK(read.positions == original.positions);
  CHECK(read.times == original.times);
  std::filesystem::remove(path);

  const JointTrajectory tolerant = parseTrajectory("\xEF\xBB\xBFtime , A,B\r\n\r\n0, 1 ,+2\r\n0.5,3,4e-1\r\n\r\n");
  CHECK(tolerant.joint_names == std::vector<std::string>{"A", "B"});
  CHECK(tolerant.times == std::vector<double>{0.0, 0.5});
  CHECK(tolerant.positions(0, 1) == 2.0);
  CHECK(tolerant.positions(1, 1) == 0.4);
}

TEST_CASE("joint trajectory CSV: toRobotOrder matches columns by name") {
  const RobotModel<double> robot = smallRobot();
  REQUIRE(robot.nq() == 3);
  std::mt19937 rng(3);
  for (int trial = 0; trial < test::sweepCount(20); ++trial) {
    // Columns: the robot's coordinates plus unknown/fixed/mimic ones, shuffled.
    JointTrajectory t;
    t.joint_names = {"a", "b", "c", "fixed", "m", "extra"};
    std::shuffle(t.joint_names.begin(), t.joint_names.end(), rng);
    t.times = {0.0, 0.1, 0.2};
    t.positions = Eigen::MatrixXd::Random(3, 6);
    const JointTrajectory ordered = toRobotOrder(t, robot);
    REQUIRE(ordered.joint_names == robot.qNames());
    for (int i = 0; i < robot.nq(); ++i) {
      const int source = t.findJoint(robot.qName(i));
      REQUIRE(source >= 0);
      CHECK(ordered.positions.col(i) == t.positions.col(source));
    }
    CHECK(ordered.times == t.times);
  }
  JointTrajectory partial;
  partial.joint_names = {"c", "a"};
  partial.times = {0.0};
  partial.positions = Eigen::MatrixXd::Zero(1, 2);
  CHECK_THROWS_WITH_AS(toRobotOrder(partial, robot), doctest::Contains("b"), InvalidArgument);
  CHECK_THROWS_WITH_AS(toRobotOrder(partial, robot), doctest::Contains("small"), InvalidArgument);
}

TEST_CASE("joint trajectory CSV: makeJointTrajectory and appendFrame") {
  const RobotModel<double> robot = smallRobot();
  JointTrajectory t = makeJointTrajectory(robot);
  CHECK(t.joint_names == robot.qNames());
  appendFrame(t, 0.0, Eigen::Vector3d(1, 2, 3));
  appendFrame(t, 0.5, Eigen::Vector3d(4, 5, 6));
  CHECK(t.positions.rows() == 2);
  CHECK(t.positions(1, 2) == 6);
  CHECK_THROWS_AS(appendFrame(t, 0.5, Eigen::Vector3d(0, 0, 0)), InvalidArgument);
  CHECK_THROWS_AS(appendFrame(t, 1.0, Eigen::Vector2d(0, 0)), InvalidArgument);
  t.validate();

  // No joint columns (a robot with nq = 0): frames are times alone.
  JointTrajectory times_only;
  times_only.positions.resize(0, 0);
  for (int i = 0; i < 3; ++i) appendFrame(times_only, 0.1 * i, Eigen::VectorXd());
  CHECK(times_only.times == std::vector<double>{0.0, 0.1, 0.2});
  CHECK(times_only.positions.rows() == 3);
  times_only.validate();
}

TEST_CASE("joint trajectory CSV: malformed input names file, line and what was expected") {
  const std::vector<test::ParseErrorCase> cases = {
      {"", 0, "empty file"},
      {"\n\n", 2, "empty file"},
      {"t,a,b\n0,1,2\n", 1, "start with 'time'"},
      {"time,a,,b\n", 1, "header column 3"},
      {"time,a,a\n", 1, "appears twice"},
      // Found by fuzz/joint_trajectory_csv.cpp: a second 'time' column was read as a joint, which
      // breaks JointTrajectory::validate() (the writer then refused what the reader accepted).
      {"time,a,time\n0,1,2\n", 1, "header column 3, got 'time'"},
      {"time,a,b\n0,1,2\n0.1,1\n", 3, "expected 3 values (one per header column), got 2"},
      {"time,a,b\n0,1,2,3\n", 2, "expected 3 values"},
      {"time,a,b\n0,1,2,\n", 2, "expected 3 values"},
      {"time,a,b\n0,1,x\n", 2, "column 3 (b), got 'x'"},
      {"time,a,b\n0,1,nan\n", 2, "finite number"},
      {"time,a,b\n0,inf,1\n", 2, "finite number"},
      {"time,a,b\n0,1e999,1\n", 2, "finite number"},
      {"time,a,b\n0,1.5.2,1\n", 2, "finite number"},
      {"time,a,b\n0,,1\n", 2, "column 2 (a), got ''"},
      {"time,a,b\n0,1,2\n0,1,2\n", 3, "expected time to increase"},
      {"time,a,b\n0.2,1,2\n0.1,1,2\n", 3, "expected time to increase"},
      {"time,a,b\nabc,1,2\n", 2, "column 1 (time)"},
      {"time,a,b\n0,1,\xFF\xFE\n", 2, "\\xFF\\xFE"},
      {"time,\xC3\x28,b\n", 1, "header column 2"},
  };
  test::checkParseErrors(cases, "traj.csv", parseTrajectory);
  CHECK_THROWS_WITH_AS(readJointTrajectoryCsv(std::string("/nonexistent/dir/x.csv")),
                       doctest::Contains("/nonexistent/dir/x.csv"), ParseError);
}

TEST_CASE("joint trajectory CSV: the writer refuses broken trajectories") {
  JointTrajectory t;
  t.joint_names = {"a", "b"};
  t.times = {0.0, 1.0};
  t.positions = Eigen::MatrixXd::Zero(2, 2);
  std::ostringstream out;
  SUBCASE("shape") {
    t.positions.resize(3, 2);
    CHECK_THROWS_WITH_AS(writeJointTrajectoryCsv(t, out), doctest::Contains("expected 2 x 2"), InvalidArgument);
  }
  SUBCASE("duplicate names") {
    t.joint_names[1] = "a";
    CHECK_THROWS_WITH_AS(writeJointTrajectoryCsv(t, out), doctest::Contains("twice"), InvalidArgument);
  }
  SUBCASE("comma in a name") {
    t.joint_names[1] = "x,y";
    CHECK_THROWS_AS(writeJointTrajectoryCsv(t, out), InvalidArgument);
  }
  SUBCASE("non-finite value") {
    t.positions(1, 1) = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(writeJointTrajectoryCsv(t, out), doctest::Contains("finite"), InvalidArgument);
  }
  SUBCASE("time order") {
    t.times = {1.0, 1.0};
    CHECK_THROWS_WITH_AS(writeJointTrajectoryCsv(t, out), doctest::Contains("increase"), InvalidArgument);
  }
}
