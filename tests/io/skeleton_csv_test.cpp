// Skeleton CSV: exact write -> read round trips on random motions (states, hands, extra
// joints), column order freedom, real Kinect data through the format, malformed input.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include <retarget/io/kinect.hpp>
#include <retarget/io/skeleton_csv.hpp>

#include "io/parse_error_cases.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

SkeletonMotion<double> randomMotion(std::mt19937& rng, int frames, int extras) {
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  std::uniform_int_distribution<int> state(0, 2);
  SkeletonMotion<double> motion;
  for (int e = 0; e < extras; ++e) motion.extra_joint_names.push_back("Extra" + std::to_string(e) + ":Toe");
  double time = 0.0;
  for (int i = 0; i < frames; ++i) {
    SkeletonFrame<double>& frame = motion.frames.emplace_back();
    frame.time = time;
    time += 0.001 + std::abs(u(rng)) / 10;
    for (std::size_t j = 0; j < kHumanJointCount; ++j) {
      frame.p_W[j] = Vector3<double>(u(rng), u(rng), u(rng) * 1e-7);
      frame.state[j] = static_cast<TrackingState>(state(rng));
    }
    frame.left_hand = static_cast<HandState>(state(rng));
    frame.right_hand = static_cast<HandState>(state(rng));
    if (extras > 0) motion.extra_p_W.push_back(Matrix3X<double>::Random(3, extras) * 1e3);
  }
  return motion;
}

void requireSame(const SkeletonMotion<double>& a, const SkeletonMotion<double>& b, bool states, bool hands) {
  REQUIRE(a.size() == b.size());
  REQUIRE(a.extra_joint_names == b.extra_joint_names);
  for (std::size_t i = 0; i < a.size(); ++i) {
    REQUIRE(a.frames[i].time == b.frames[i].time);
    for (std::size_t j = 0; j < kHumanJointCount; ++j) {
      REQUIRE(a.frames[i].p_W[j] == b.frames[i].p_W[j]);
      if (states) REQUIRE(a.frames[i].state[j] == b.frames[i].state[j]);
    }
    if (hands) {
      REQUIRE(a.frames[i].left_hand == b.frames[i].left_hand);
      REQUIRE(a.frames[i].right_hand == b.frames[i].right_hand);
    }
    if (!a.extra_joint_names.empty()) REQUIRE(a.extra_p_W[i] == b.extra_p_W[i]);
  }
}

SkeletonMotion<double> parseSkeletonCsv(const std::string& text) {
  std::istringstream in(text);
  return readSkeletonCsv(in, "skel.csv");
}

}  // namespace

TEST_CASE("skeleton CSV: write -> read is exact (random motions, every option)") {
  std::mt19937 rng(99);
  for (int trial = 0; trial < test::sweepCount(20); ++trial) {
    const SkeletonMotion<double> motion = randomMotion(rng, trial % 7, trial % 3);
    for (const bool states : {true, false}) {
      for (const bool hands : {true, false}) {
        SkeletonCsvWriteOptions options;
        options.tracking_states = states;
        options.hand_states = hands;
        std::ostringstream out;
        writeSkeletonCsv(motion, out, options);
        const SkeletonMotion<double> read = parseSkeletonCsv(out.str());
        CHECK(read.format == "skeleton-csv");
        requireSame(motion, read, states, hands);
        if (!states) {
          for (const auto& frame : read.frames) {
            for (const TrackingState s : frame.state) REQUIRE(s == TrackingState::kTracked);
          }
        }
      }
    }
  }
}

TEST_CASE("skeleton CSV: columns in any order; missing core joints are not tracked") {
  const auto motion = parseSkeletonCsv(
      "time,Head.z,Head.x,Head.state,Head.y,Toe.x,Toe.y,Toe.z,HandRight.hand\r\n"
      "10,1.5,0.1,1,0.2,3,4,5,2\r\n"
      "10.5,1.6,0.1,2,0.2,3,4,6,1\r\n");
  REQUIRE(motion.size() == 2);
  CHECK(motion.frames[0].time == 0.0);  // shifted to start at 0
  CHECK(motion.frames[1].time == 0.5);
  CHECK(motion.frame_rate == 2.0);
  CHECK(motion.frames[0].position(HumanJoint::kHead) == Vector3<double>(0.1, 0.2, 1.5));
  CHECK(motion.frames[0].trackingState(HumanJoint::kHead) == TrackingState::kInferred);
  CHECK(motion.frames[1].trackingState(HumanJoint::kHead) == TrackingState::kTracked);
  CHECK(motion.frames[0].trackingState(HumanJoint::kSpineBase) == TrackingState::kNotTracked);
  CHECK(motion.frames[0].right_hand == HandState::kClosed);
  CHECK(motion.frames[1].right_hand == HandState::kOpen);
  CHECK(motion.frames[0].left_hand == HandState::kUnknown);
  REQUIRE(motion.extra_joint_names == std::vector<std::string>{"Toe"});
  CHECK(motion.extra_p_W[1].col(0) == Vector3<double>(3, 4, 6));
}

TEST_CASE("skeleton CSV: real Kinect recordings survive the format bit for bit") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* file : {"laban_ges06_chickenwing_kinect2.csv", "keraal_G3_kinect2_ELK_lateral_stretch_seated.txt"}) {
    const std::string file_name = file;
    CAPTURE(file_name);
    const auto motion = readKinect((data_dir / "kinect" / file).string());
    const auto path = std::filesystem::temp_directory_path() / "retarget_io_skeleton_roundtrip.csv";
    writeSkeletonCsv(motion, path.string());
    const auto read = readSkeletonCsv(path.string());
    std::filesystem::remove(path);
    requireSame(motion, read, true, true);
    CHECK(read.frame_rate == doctest::Approx(motion.frame_rate).epsilon(1e-9));
  }
}

TEST_CASE("skeleton CSV: malformed input names file, line and what was expected") {
  const std::string header = "time,Head.x,Head.y,Head.z,Head.state\n";
  const std::vector<test::ParseErrorCase> cases = {
      {"", 0, "empty file"},
      {"t,Head.x,Head.y,Head.z\n", 1, "start with 'time'"},
      {"time,Head.x,Head.y\n", 1, "Head.x, .y and .z together"},
      {"time,Head.state\n", 1, "Head.x, .y and .z together"},
      {"time,Toe.x,Toe.z\n", 1, "Toe.x, .y and .z together"},
      {"time,Head.x,Head.y,Head.z,Head.x\n", 1, "appears twice"},
      {"time,Head.w\n", 1, "column suffix"},
      {"time,Head\n", 1, "'<Joint>.x|y|z|state'"},
      {"time,Toe.state\n", 1, "canonical joint name before '.state'"},
      {"time,Toe.hand\n", 1, "column suffix"},
      {"time,H\xE9.x\n", 1, "printable column name in header column 2"},
      {header + "0,1,2,3,2\n0.1,1,2,3\n", 3, "expected 5 values (one per header column), got 4"},
      {header + "0,1,2,3,2,7\n", 2, "expected 5 values"},
      {header + "0,1,2,3,5\n", 2, "tracking state 0, 1 or 2 in column 5 (Head.state), got '5'"},
      {header + "0,1,2,3,tracked\n", 2, "tracking state"},
      {header + "0,1,nan,3,2\n", 2, "finite number in column 3 (Head.y), got 'nan'"},
      {header + "0,1,2,-inf,2\n", 2, "column 4 (Head.z)"},
      {header + "0,1,2,3,2\n0,1,2,3,2\n", 3, "expected time to increase"},
      {header + "x,1,2,3,2\n", 2, "column 1 (time)"},
      {"time,HandLeft.hand\n0,3\n", 2, "hand state 0, 1 or 2 in column 2 (HandLeft.hand), got '3'"},
  };
  test::checkParseErrors(cases, "skel.csv", parseSkeletonCsv);
}

TEST_CASE("skeleton CSV: the writer refuses broken motions") {
  SkeletonMotion<double> motion;
  motion.frames.resize(2);
  motion.frames[1].time = 0.1;
  std::ostringstream out;
  SUBCASE("time order") {
    motion.frames[1].time = 0.0;
    CHECK_THROWS_WITH_AS(writeSkeletonCsv(motion, out), doctest::Contains("increase"), InvalidArgument);
  }
  SUBCASE("non-finite tracked joint") {
    motion.frames[1].state[3] = TrackingState::kTracked;
    motion.frames[1].p_W[3].x() = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH_AS(writeSkeletonCsv(motion, out), doctest::Contains("Head"), InvalidArgument);
  }
  SUBCASE("non-finite untracked joint is written as zero") {
    motion.frames[1].p_W[3].x() = std::numeric_limits<double>::quiet_NaN();
    writeSkeletonCsv(motion, out);
    const auto read = parseSkeletonCsv(out.str());
    CHECK(read.frames[1].p_W[3].x() == 0.0);
  }
  SUBCASE("extra joints") {
    motion.extra_joint_names = {"Toe"};
    CHECK_THROWS_WITH_AS(writeSkeletonCsv(motion, out), doctest::Contains("one matrix per frame"), InvalidArgument);
    motion.extra_joint_names = {"Head"};
    motion.extra_p_W.assign(2, Matrix3X<double>::Zero(3, 1));
    CHECK_THROWS_WITH_AS(writeSkeletonCsv(motion, out), doctest::Contains("core joint"), InvalidArgument);
  }
}
