// NTU RGB+D .skeleton reader, on files the test writes itself (the real data may not be
// redistributed): values against an independent conversion, main-body choice, absent bodies,
// hand states, w-first quaternions, and the malformed-input suite.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <retarget/io/ntu_skeleton.hpp>

#include "io/parse_error_cases.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

struct RawJoint {
  double x, y, z, qw, qx, qy, qz;
  int state;
};

struct RawBody {
  std::uint64_t id;
  int left_hand = 2;
  int right_hand = 3;
  std::vector<RawJoint> joints;  // 25
};

// A random body around camera (0, 0, 3) m; `tracked` of the 25 joints tracked, others inferred.
RawBody randomBody(std::mt19937& rng, std::uint64_t id, int tracked, double spread) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  RawBody body{id, 2, 3, {}};
  for (int j = 0; j < kHumanJointCount; ++j) {
    const Quaternion<double> q = Quaternion<double>::UnitRandom();
    const bool leaf = isKinectLeafJoint(static_cast<HumanJoint>(j));
    body.joints.push_back({spread * u(rng), spread * u(rng), 3 + spread * u(rng), leaf ? 0 : q.w(), leaf ? 0 : q.x(),
                           leaf ? 0 : q.y(), leaf ? 0 : q.z(), j < tracked ? 2 : 1});
  }
  return body;
}

std::string ntuText(const std::vector<std::vector<RawBody>>& frames) {
  std::ostringstream out;
  out.precision(17);
  out << frames.size() << "\n";
  for (const auto& bodies : frames) {
    out << bodies.size() << "\n";
    for (const RawBody& b : bodies) {
      out << b.id << " 0 1 " << b.left_hand << " 1 " << b.right_hand << " 0 0.01 -0.02 2\n25\n";
      for (const RawJoint& j : b.joints) {
        out << j.x << " " << j.y << " " << j.z << " 250.5 200.25 900.1 500.7 " << j.qw << " " << j.qx << " " << j.qy << " "
            << j.qz << " " << j.state << "\n";
      }
    }
  }
  return out.str();
}

SkeletonMotion<double> parseNtu(const std::string& text, NtuBodySummary* summary = nullptr) {
  std::istringstream in(text);
  return readNtuSkeleton(in, "S001C001P001R001A001.skeleton", 30.0, summary);
}

}  // namespace

TEST_CASE("NTU: one body converts like the documented Kinect transform") {
  std::mt19937 rng(5);
  std::vector<std::vector<RawBody>> frames;
  for (int f = 0; f < 10; ++f) frames.push_back({randomBody(rng, 72057594037931101ULL, 20, 0.8)});
  const auto path = std::filesystem::temp_directory_path() / "retarget_io_test.skeleton";
  {
    std::ofstream out(path);
    out << ntuText(frames);
  }
  NtuBodySummary summary;
  const auto motion = readNtuSkeleton(path.string(), 30.0, &summary);
  std::filesystem::remove(path);
  REQUIRE(motion.size() == 10);
  CHECK(motion.format == "ntu-skeleton");
  CHECK(summary.body_ids == std::vector<std::uint64_t>{72057594037931101ULL});
  CHECK(summary.main_body == 0);
  CHECK(summary.tracked_samples[0] == 200);
  for (std::size_t f = 0; f < motion.size(); ++f) {
    const auto& frame = motion.frames[f];
    CHECK(frame.time == doctest::Approx(static_cast<double>(f) / 30.0));
    CHECK(frame.left_hand == HandState::kOpen);
    CHECK(frame.right_hand == HandState::kClosed);
    for (std::size_t j = 0; j < kHumanJointCount; ++j) {
      const RawJoint& raw = frames[f][0].joints[j];
      // Independent statement of the transform: forward = -z_cam, left = -x_cam, up = y_cam.
      CHECK(frame.p_W[j] == Vector3<double>(-raw.z, -raw.x, raw.y));
      CHECK(frame.state[j] == (j < 20 ? TrackingState::kTracked : TrackingState::kInferred));
      if (isKinectLeafJoint(static_cast<HumanJoint>(j))) {
        CHECK(frame.R_WJ[j].coeffs() == Quaternion<double>::Identity().coeffs());
      } else {
        // The stored quaternion is w first; R_WJ = R_WK R_KJ, i.e. R_WJ maps the joint's
        // axes to the camera axes seen in W.
        const Matrix3<double> R_KJ = Quaternion<double>(raw.qw, raw.qx, raw.qy, raw.qz).toRotationMatrix();
        for (int axis = 0; axis < 3; ++axis) {
          const Vector3<double> a_K = R_KJ.col(axis);
          const Vector3<double> a_W(-a_K.z(), -a_K.x(), a_K.y());
          CHECK((frame.R_WJ[j].toRotationMatrix().col(axis) - a_W).norm() < 1e-9);
        }
      }
    }
  }
}

TEST_CASE("NTU: the main body has the most tracked joints, then the most motion") {
  std::mt19937 rng(8);
  SUBCASE("most tracked samples wins, also when it appears second and leaves early") {
    std::vector<std::vector<RawBody>> frames;
    for (int f = 0; f < 12; ++f) {
      std::vector<RawBody> bodies{randomBody(rng, 1, 10, 0.5)};
      if (f < 8) bodies.push_back(randomBody(rng, 2, 25, 0.5));  // 8 x 25 = 200 > 12 x 10 = 120
      frames.push_back(bodies);
    }
    NtuBodySummary summary;
    const auto motion = parseNtu(ntuText(frames), &summary);
    REQUIRE(summary.body_ids == std::vector<std::uint64_t>{1, 2});
    CHECK(summary.tracked_samples == std::vector<std::size_t>{120, 200});
    CHECK(summary.main_body == 1);
    REQUIRE(motion.size() == 12);
    CHECK(motion.frames[0].position(HumanJoint::kHead).x() == -frames[0][1].joints[3].z);
    for (std::size_t f = 8; f < 12; ++f) {  // body 2 absent: slot kept, nothing usable
      for (int j = 0; j < kHumanJointCount; ++j) CHECK_FALSE(motion.frames[f].usable(static_cast<HumanJoint>(j)));
      CHECK(motion.frames[f].time == doctest::Approx(static_cast<double>(f) / 30.0));
    }
  }
  SUBCASE("a tie goes to the body that moves more") {
    for (const bool first_moves : {true, false}) {
      std::vector<std::vector<RawBody>> frames;
      for (int f = 0; f < 6; ++f) {
        frames.push_back({randomBody(rng, 10, 25, first_moves ? 0.5 : 0.01), randomBody(rng, 20, 25, first_moves ? 0.01 : 0.5)});
      }
      NtuBodySummary summary;
      parseNtu(ntuText(frames), &summary);
      CHECK(summary.main_body == (first_moves ? 0 : 1));
    }
  }
  SUBCASE("no body at all") {
    NtuBodySummary summary;
    const auto motion = parseNtu("3\n0\n0\n0\n", &summary);
    CHECK(motion.size() == 3);
    CHECK(summary.main_body == -1);
  }
}

TEST_CASE("NTU: malformed input names file, line and what was expected") {
  std::mt19937 rng(1);
  const std::string good = ntuText({{randomBody(rng, 7, 25, 0.3)}, {randomBody(rng, 7, 25, 0.3)}});
  std::vector<std::string> lines;
  {
    std::istringstream in(good);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
  }
  REQUIRE(lines.size() == 1 + 2 * 28);
  auto with = [&](std::size_t line_index, const std::string& text) {
    auto copy = lines;
    copy[line_index] = text;
    std::string out;
    for (const auto& l : copy) out += l + "\n";
    return out;
  };
  auto truncated = [&](std::size_t count) {
    std::string out;
    for (std::size_t i = 0; i < count; ++i) out += lines[i] + "\n";
    return out;
  };
  const std::vector<test::ParseErrorCase> cases = {
      {"", 0, "expected the frame count, got end of file"},
      {"-1\n", 1, "frame count (an integer"},
      {"two\n", 1, "frame count"},
      {with(1, "9"), 2, "body count of frame 1 (an integer 0..6), got '9'"},
      {with(2, "7 0 1 2 1 3 0 0.01 -0.02"), 3, "expected 10 values (body info"},
      {with(2, "x 0 1 2 1 3 0 0.01 -0.02 2"), 3, "integer bodyID"},
      {with(2, "7 0 1 9 1 3 0 0.01 -0.02 2"), 3, "hand state 0..4 in column 4 (handLeftState)"},
      {with(3, "24"), 4, "expected joint count 25, got '24'"},
      {with(4, "0.1 0.2 3"), 5, "expected 12 values (joint SpineBase"},
      {with(5, "0.1 0.2 nan 1 1 1 1 1 0 0 0 2"), 6, "finite number in column 3"},
      {with(5, "0.1 0.2 3 1 1 1 1 1 0 0 0 7"), 6, "tracking state 0, 1 or 2 in column 12 (SpineMid.state), got '7'"},
      {with(5, "0.1 0.2 3 1 1 1 1 0.5 0 0 0 2"), 6, "unit quaternion or all zeros for joint SpineMid"},
      {truncated(20), 20, "expected joint"},
      {truncated(29), 29, "expected the body count of frame 2, got end of file"},
      {good + "1\n", 58, "expected the end of the file after 2 frames"},
  };
  test::checkParseErrors(cases, "S001C001P001R001A001.skeleton", [](const std::string& text) { return parseNtu(text); });
}
