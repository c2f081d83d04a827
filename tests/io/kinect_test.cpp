// Kinect v2 readers and writers: the fixed camera -> canonical transform (properties), every
// shared recording with the manifest's frame counts, canonical-frame sanity derived from the
// body itself, Kinect -> canonical -> Kinect round trips, and the malformed-input suite.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>

#include <retarget/human/frames.hpp>
#include <retarget/io/kinect.hpp>

#include "io/parse_error_cases.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

std::vector<std::string> readLines(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

std::vector<double> numbers(const std::string& line, char delimiter) {
  std::vector<double> out;
  std::string token;
  std::istringstream in(line);
  if (delimiter == ' ') {
    while (in >> token) out.push_back(std::stod(token));
  } else {
    while (std::getline(in, token, delimiter)) {
      if (!token.empty()) out.push_back(std::stod(token));
    }
  }
  return out;
}

Vector3<double> p(const SkeletonFrame<double>& frame, HumanJoint joint) { return frame.position(joint); }

struct RecordingInfo {
  const char* file;
  std::size_t frames;    // ../shared/data/MANIFEST.md, "frames" column
  std::size_t inferred;  // inferred joint samples as MANIFEST.md states them; kNotStated otherwise
};
constexpr std::size_t kNotStated = static_cast<std::size_t>(-1);

// Frame counts: MANIFEST.md tables. Inferred samples: MANIFEST.md's "content" column where it
// gives a number (ges01 "13 inferred joint samples", ges06 "305 inferred samples"); the other
// counts are not in the manifest and are counted from the file text instead (inferredInText),
// and the close-range take's "32 % of all joint samples have state 1" is checked as a share.
// Keraal files have no tracking state (MANIFEST.md: positions + orientations only): 0 inferred.
const RecordingInfo kRecordings[] = {
    {"laban_ges01_wavehand_kinect2.csv", 154, 13},
    {"laban_ges03_drawlines_kinect2.csv", 213, kNotStated},
    {"laban_ges04_comehere_kinect2.csv", 172, kNotStated},
    {"laban_ges06_chickenwing_kinect2.csv", 160, 305},
    {"laban_kinectreader_joints_closerange_kinect2.csv", 371, kNotStated},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", 193, 0},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", 193, 0},
};

// Inferred samples counted in a Laban CSV's text, without the library: field 1 + 4j + 3 of
// every line (timestamp, then x, y, z, state per joint) equal to 1.
std::size_t inferredInText(const std::filesystem::path& path) {
  std::size_t count = 0;
  for (const std::string& line : readLines(path)) {
    const std::vector<double> v = numbers(line, ',');
    REQUIRE(v.size() == 101);
    for (int j = 0; j < 25; ++j) count += v[static_cast<std::size_t>(1 + 4 * j + 3)] == 1.0 ? 1 : 0;
  }
  return count;
}

}  // namespace

TEST_CASE_TEMPLATE("Kinect frame: R_WK is a proper rotation and the point maps are exact inverses", Scalar, float,
                   double) {
  const Matrix3<Scalar> R_WK = kinectToCanonicalRotation<Scalar>();
  CHECK((R_WK * R_WK.transpose() - Matrix3<Scalar>::Identity()).norm() == Scalar(0));
  CHECK(R_WK.determinant() == doctest::Approx(1));
  // Axis facts from the manifest: camera +z (away from the sensor) is the person's backward,
  // camera +x (larger for the person's right side) is the person's right, +y is up.
  CHECK(R_WK * Vector3<Scalar>::UnitZ() == -Vector3<Scalar>::UnitX());
  CHECK(R_WK * Vector3<Scalar>::UnitX() == -Vector3<Scalar>::UnitY());
  CHECK(R_WK * Vector3<Scalar>::UnitY() == Vector3<Scalar>::UnitZ());
  std::mt19937 rng(11);
  std::uniform_real_distribution<Scalar> u(Scalar(-5), Scalar(5));
  for (int i = 0; i < test::sweepCount(200); ++i) {
    const Vector3<Scalar> p_K(u(rng), u(rng), u(rng));
    CHECK(kinectToCanonical(p_K) == R_WK * p_K);
    CHECK(canonicalToKinect(kinectToCanonical(p_K)) == p_K);
    const Quaternion<Scalar> R_KJ = Quaternion<Scalar>::UnitRandom();
    const Quaternion<Scalar> R_WJ = kinectToCanonical(R_KJ);
    CHECK((R_WJ.toRotationMatrix() - R_WK * R_KJ.toRotationMatrix()).norm() < Scalar(1e-5));
    CHECK(canonicalToKinect(R_WJ).coeffs().isApprox(R_KJ.coeffs(), Scalar(1e-5)));
  }
}

TEST_CASE("Kinect frame: per-frame conversion allocates nothing and round-trips") {
  SkeletonFrame<double> frame;
  frame.has_orientations = true;
  for (int j = 0; j < kHumanJointCount; ++j) {
    frame.p_W[static_cast<std::size_t>(j)] = Vector3<double>::Random();
    frame.R_WJ[static_cast<std::size_t>(j)] = Quaternion<double>::UnitRandom();
  }
  const SkeletonFrame<double> original = frame;
  {
    test::NoAllocationScope scope;
    kinectFrameToCanonical(frame);
    canonicalFrameToKinect(frame);
    CHECK(scope.allocations() == 0);
  }
  for (std::size_t j = 0; j < kHumanJointCount; ++j) {
    CHECK(frame.p_W[j] == original.p_W[j]);
    CHECK(frame.R_WJ[j].coeffs().isApprox(original.R_WJ[j].coeffs(), 1e-12));
  }
}

TEST_CASE("Kinect: every shared recording reads with the manifest's frame counts") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const RecordingInfo& info : kRecordings) {
    const std::string file_name = info.file;
    CAPTURE(file_name);
    const auto path = data_dir / "kinect" / info.file;
    const SkeletonMotion<double> motion = readKinect(path.string());
    CHECK(motion.size() == info.frames);
    const bool laban = std::string(info.file).rfind("laban", 0) == 0;
    CHECK(motion.format == (laban ? "kinect-laban-csv" : "kinect-keraal-txt"));
    CHECK(motion.frame_rate == doctest::Approx(30).epsilon(0.02));
    std::size_t inferred = 0;
    for (const auto& frame : motion.frames) {
      for (const TrackingState s : frame.state) inferred += s == TrackingState::kInferred ? 1 : 0;
      CHECK(frame.has_orientations == !laban);
    }
    if (info.inferred != kNotStated) CHECK(inferred == info.inferred);
    if (laban) CHECK(inferred == inferredInText(path));
    if (file_name.find("closerange") != std::string::npos) {
      CHECK(static_cast<double>(inferred) / (info.frames * 25) == doctest::Approx(0.32).epsilon(0.02));
    }
    CHECK(motion.frames.front().time == 0.0);
    for (std::size_t i = 1; i < motion.size(); ++i) REQUIRE(motion.frames[i].time > motion.frames[i - 1].time);
    // Laban spacing: ~33 ms with a few 66 ms drops (manifest); durations match the manifest.
    if (laban) CHECK(motion.duration() == doctest::Approx(static_cast<double>(info.frames) / 30.0).epsilon(0.1));
  }
}

TEST_CASE("Kinect: canonical frame sanity on real recordings (body-derived axes)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const RecordingInfo& info : kRecordings) {
    const std::string file_name = info.file;
    CAPTURE(file_name);
    const SkeletonMotion<double> motion = readKinect((data_dir / "kinect" / info.file).string());
    std::size_t checked = 0;
    for (const auto& frame : motion.frames) {
      if (frame.trackingState(HumanJoint::kHead) != TrackingState::kTracked ||
          frame.trackingState(HumanJoint::kSpineBase) != TrackingState::kTracked ||
          frame.trackingState(HumanJoint::kShoulderLeft) != TrackingState::kTracked ||
          frame.trackingState(HumanJoint::kShoulderRight) != TrackingState::kTracked) {
        continue;
      }
      ++checked;
      // Head above the spine base: +z is up.
      CHECK(p(frame, HumanJoint::kHead).z() > p(frame, HumanJoint::kSpineBase).z() + 0.3);
      // Left shoulder on the +y side of the right one (person faces the sensor, forward = +x).
      CHECK(p(frame, HumanJoint::kShoulderLeft).y() > p(frame, HumanJoint::kShoulderRight).y());
      // The body's own forward (left x up, right-handed) points along +x and toward the sensor
      // at the origin; the person stands 1..3.5 m in front of it.
      const Vector3<double> left = p(frame, HumanJoint::kShoulderLeft) - p(frame, HumanJoint::kShoulderRight);
      const Vector3<double> up = p(frame, HumanJoint::kSpineShoulder) - p(frame, HumanJoint::kSpineBase);
      const Vector3<double> forward = left.cross(up).normalized();
      CHECK(forward.x() > 0.3);
      CHECK(forward.dot(-p(frame, HumanJoint::kSpineBase)) > 0);
      CHECK(-p(frame, HumanJoint::kSpineBase).x() > 0.5);  // the close-range take is ~0.8 m away
      CHECK(-p(frame, HumanJoint::kSpineBase).x() < 3.5);
    }
    CHECK(checked > info.frames / 2);
  }
}

TEST_CASE("Kinect: the Laban wave raises the right hand above the right shoulder") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto motion = readKinectLabanCsv((data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv").string());
  double highest = -1e9;
  double lowest = 1e9;
  for (const auto& frame : motion.frames) {
    const double rise = p(frame, HumanJoint::kHandTipRight).z() - p(frame, HumanJoint::kShoulderRight).z();
    highest = std::max(highest, rise);
    lowest = std::min(lowest, rise);
  }
  CHECK(highest > 0.2);
  CHECK(highest - lowest == doctest::Approx(1.2).epsilon(0.25));  // manifest: ≈1.2 m vertical travel
}

TEST_CASE("Kinect: Laban CSV -> canonical -> Laban CSV reproduces every value") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const RecordingInfo& info : kRecordings) {
    if (std::string(info.file).rfind("laban", 0) != 0) continue;
    const std::string file_name = info.file;
    CAPTURE(file_name);
    const auto path = data_dir / "kinect" / info.file;
    const auto original = readLines(path);
    const auto motion = readKinectLabanCsv(path.string());
    std::ostringstream out;
    writeKinectLabanCsv(motion, out, static_cast<std::uint64_t>(std::stoull(original.front().substr(0, original.front().find(',')))));
    std::istringstream written(out.str());
    std::string line;
    std::size_t i = 0;
    while (std::getline(written, line)) {
      REQUIRE(i < original.size());
      CHECK(line.back() == ',');
      const auto a = numbers(original[i], ',');
      const auto b = numbers(line, ',');
      REQUIRE(a.size() == 101);
      REQUIRE(b == a);  // exact: the transform is a signed permutation
      ++i;
    }
    CHECK(i == original.size());
    // In fact byte for byte (the shortest-decimal writer reproduces Kinect's own printing);
    // one file lacks its final line break.
    std::ifstream raw(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(raw)), std::istreambuf_iterator<char>());
    if (text.back() != '\n') text += '\n';
    CHECK(out.str() == text);
    // And the written text reads back to the same canonical motion.
    std::istringstream again(out.str());
    const auto reread = readKinectLabanCsv(again, "written.csv");
    REQUIRE(reread.size() == motion.size());
    for (std::size_t f = 0; f < motion.size(); ++f) {
      CHECK(reread.frames[f].time == motion.frames[f].time);
      for (std::size_t j = 0; j < kHumanJointCount; ++j) {
        CHECK(reread.frames[f].p_W[j] == motion.frames[f].p_W[j]);
        CHECK(reread.frames[f].state[j] == motion.frames[f].state[j]);
      }
    }
  }
}

TEST_CASE("Kinect: Keraal TXT -> canonical -> Keraal TXT reproduces positions and orientations") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* file : {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "keraal_G3_kinect2_ELK_lateral_stretch_seated.txt"}) {
    const std::string file_name = file;
    CAPTURE(file_name);
    const auto path = data_dir / "kinect" / file;
    const auto original = readLines(path);
    const auto motion = readKinectKeraalTxt(path.string());
    // Leaf joints have no orientation: identity in W; others are unit quaternions.
    for (const auto& frame : motion.frames) {
      for (int j = 0; j < kHumanJointCount; ++j) {
        const auto& R = frame.R_WJ[static_cast<std::size_t>(j)];
        CHECK(R.norm() == doctest::Approx(1.0).epsilon(1e-12));
        if (isKinectLeafJoint(static_cast<HumanJoint>(j))) CHECK(R.coeffs() == Quaternion<double>::Identity().coeffs());
      }
    }
    std::ostringstream out;
    writeKinectKeraalTxt(motion, out);
    std::istringstream written(out.str());
    std::string line;
    std::size_t i = 0;
    double worst = 0;
    while (std::getline(written, line)) {
      REQUIRE(i < original.size());
      CHECK(line.back() == '\r');
      const auto a = numbers(original[i], ' ');
      const auto b = numbers(line, ' ');
      REQUIRE(a.size() == 175);
      REQUIRE(b.size() == 175);
      for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
      ++i;
    }
    CHECK(i == original.size());
    // Positions are exact; quaternions were normalised (inputs are unit to ~1e-6) and are
    // printed with 6 decimals.
    CHECK(worst <= 2e-6);
  }
}

TEST_CASE("Kinect: in-memory Laban and Keraal rows convert as documented") {
  // One Laban row: SpineBase at camera (0.1, -0.3, 2.5), tracked; everything else inferred at 0.
  std::string row = "1000";
  for (int j = 0; j < kHumanJointCount; ++j) row += j == 0 ? ",0.1,-0.3,2.5,2" : ",0,0,0,1";
  row += ",\n";
  std::string row2 = row;
  row2.replace(0, 4, "331000");
  std::istringstream in(row + row2);
  const auto motion = readKinectLabanCsv(in, "mem.csv");
  REQUIRE(motion.size() == 2);
  CHECK(motion.frames[1].time == doctest::Approx(0.033));
  CHECK(motion.frames[0].position(HumanJoint::kSpineBase) == Vector3<double>(-2.5, -0.1, -0.3));
  CHECK(motion.frames[0].trackingState(HumanJoint::kSpineBase) == TrackingState::kTracked);
  CHECK(motion.frames[0].trackingState(HumanJoint::kHead) == TrackingState::kInferred);
  CHECK(motion.frame_rate == doctest::Approx(1.0 / 0.033));

  // One Keraal row with a 90° rotation about camera y (qx qy qz qw order) on SpineBase.
  std::string keraal;
  for (int j = 0; j < kHumanJointCount; ++j) {
    keraal += j == 0 ? "0.1 -0.3 2.5 0 0.7071068 0 0.7071068 " : "0 0 0 0 0 0 0 ";
  }
  std::istringstream kin(keraal + "\r\n");
  const auto km = readKinectKeraalTxt(kin, "mem.txt", 15.0);
  REQUIRE(km.size() == 1);
  CHECK(km.frame_rate == 15.0);
  const Matrix3<double> R_KJ = Eigen::AngleAxisd(kPi<double> / 2, Vector3<double>::UnitY()).toRotationMatrix();
  CHECK(km.frames[0].R_WJ[0].toRotationMatrix().isApprox(kinectToCanonicalRotation<double>() * R_KJ, 1e-6));
  // A rotation about camera y (up) is a rotation about canonical z.
  const Matrix3<double> R_WK = kinectToCanonicalRotation<double>();
  const Matrix3<double> turn_W = km.frames[0].R_WJ[0].toRotationMatrix() * R_WK.transpose();
  CHECK((turn_W * Vector3<double>::UnitZ() - Vector3<double>::UnitZ()).norm() < 1e-6);
}

TEST_CASE("Kinect: malformed input names file, line and what was expected") {
  std::string good = "1000";
  for (int j = 0; j < kHumanJointCount; ++j) good += ",0.1,0.2,2.5,2";
  const std::string good_row = good + ",\n";
  auto laban = [&](const std::string& second_row) {
    std::istringstream in(good_row + second_row);
    readKinectLabanCsv(in, "bad.csv");
  };
  auto replaceField = [&](int field, const std::string& text) {
    std::vector<std::string> f;
    std::string token;
    std::istringstream in(good);
    while (std::getline(in, token, ',')) f.push_back(token);
    f[0] = "2000";
    f[static_cast<std::size_t>(field)] = text;
    std::string out;
    for (std::size_t i = 0; i < f.size(); ++i) out += (i ? "," : "") + f[i];
    return out + ",\n";
  };
  const std::vector<test::ParseErrorCase> cases = {
      {"2000" + good.substr(4, good.rfind(',') - 4) + ",\n", 2, "expected 101 values (timestamp + 25 joints x (x, y, z, state)), got 100"},
      {"2000" + good.substr(4) + ",1,\n", 2, "expected 101 values"},
      {replaceField(0, "12.5"), 2, "integer timestamp"},
      {replaceField(0, "1000"), 2, "timestamp to increase"},
      {replaceField(0, "999"), 2, "timestamp to increase"},
      {replaceField(5, "nan"), 2, "column 6 (SpineMid.x)"},
      {replaceField(7, "1e400"), 2, "finite number"},
      {replaceField(8, "3"), 2, "tracking state 0, 1 or 2 in column 9 (SpineMid.state), got '3'"},
      {replaceField(100, "-1"), 2, "tracking state"},
      {replaceField(3, "2.5abc"), 2, "column 4 (SpineBase.z)"},
      {replaceField(3, "\xC3\x28"), 2, "\\xC3("},
  };
  test::checkParseErrors(cases, "bad.csv", laban);
  // Keraal: wrong count, bad number, non-unit quaternion.
  std::string keraal;
  for (int j = 0; j < kHumanJointCount; ++j) keraal += "0.1 0.2 2.5 0 0 0 1 ";
  auto keraalError = [&](const std::string& text) -> std::string {
    std::istringstream in(keraal + "\r\n" + text + "\r\n");
    try {
      readKinectKeraalTxt(in, "bad.txt");
    } catch (const ParseError& e) {
      CHECK(e.line() == 2);
      return e.what();
    }
    return "no exception";
  };
  CHECK(keraalError(keraal + "1").find("expected 175 values (25 joints x (x, y, z, qx, qy, qz, qw)), got 176") !=
        std::string::npos);
  CHECK(keraalError(keraal.substr(0, keraal.size() - 3)).find("got 174") != std::string::npos);
  std::string bad_number = keraal;
  bad_number.replace(0, 3, "0.x");
  CHECK(keraalError(bad_number).find("column 1 (SpineBase.x), got '0.x'") != std::string::npos);
  std::string bad_quaternion = keraal;
  bad_quaternion.replace(bad_quaternion.find(" 1 "), 3, " 2 ");
  CHECK(keraalError(bad_quaternion).find("unit quaternion or all zeros for joint SpineBase, got norm 2") !=
        std::string::npos);
  CHECK_THROWS_WITH_AS(readKinectKeraalTxt(std::string("/nonexistent/k.txt")), doctest::Contains("/nonexistent/k.txt"),
                       ParseError);
  std::istringstream empty_in("");
  CHECK_THROWS_AS(readKinectKeraalTxt(empty_in, "x", 0.0), InvalidArgument);
}

TEST_CASE("Kinect: writers refuse bad times") {
  SkeletonMotion<double> motion;
  motion.frames.resize(2);
  motion.frames[0].time = 0.0;
  motion.frames[1].time = 0.0;
  std::ostringstream out;
  CHECK_THROWS_WITH_AS(writeKinectLabanCsv(motion, out), doctest::Contains("increase"), InvalidArgument);
  motion.frames[1].time = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(writeKinectLabanCsv(motion, out), doctest::Contains("invalid time"), InvalidArgument);
}
