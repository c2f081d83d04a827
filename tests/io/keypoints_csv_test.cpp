// Keypoint CSV (MediaPipe Pose, OpenPose BODY_25): a known canonical skeleton (a demo motion)
// is expressed as detector keypoints in the detector's own frame and units, written as CSV,
// read back, and compared joint by joint with the documented derivations; states from
// confidences; malformed input.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/keypoints_csv.hpp>

#include "io/parse_error_cases.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using J = HumanJoint;

namespace {

using Keypoints = std::map<std::string, Vector3<double>>;  // canonical positions per keypoint

// Detector frame: x = image right = person's left (+y_W), y = image down (-z_W),
// z = away from the camera (-x_W); stated here independently of the library's R_WS.
Vector3<double> toDetector(const Vector3<double>& p_W) { return Vector3<double>(p_W.y(), -p_W.z(), -p_W.x()); }

Keypoints mediaPipeKeypoints(const SkeletonFrame<double>& f) {
  const Vector3<double> ear(0, 0.07, 0);
  Keypoints k;
  for (const char* name : {"nose", "left_eye_inner", "left_eye", "left_eye_outer", "right_eye_inner", "right_eye",
                           "right_eye_outer", "mouth_left", "mouth_right"}) {
    k[name] = f.position(J::kHead) + Vector3<double>(0.08, 0, 0);
  }
  k["left_ear"] = f.position(J::kHead) + ear;
  k["right_ear"] = f.position(J::kHead) - ear;
  const std::pair<const char*, J> direct[] = {
      {"left_shoulder", J::kShoulderLeft}, {"right_shoulder", J::kShoulderRight}, {"left_elbow", J::kElbowLeft},
      {"right_elbow", J::kElbowRight},     {"left_wrist", J::kWristLeft},        {"right_wrist", J::kWristRight},
      {"left_index", J::kHandTipLeft},     {"right_index", J::kHandTipRight},    {"left_thumb", J::kThumbLeft},
      {"right_thumb", J::kThumbRight},     {"left_hip", J::kHipLeft},            {"right_hip", J::kHipRight},
      {"left_knee", J::kKneeLeft},         {"right_knee", J::kKneeRight},        {"left_ankle", J::kAnkleLeft},
      {"right_ankle", J::kAnkleRight},     {"left_heel", J::kAnkleLeft},         {"right_heel", J::kAnkleRight},
      {"left_foot_index", J::kFootLeft},   {"right_foot_index", J::kFootRight}};
  for (const auto& [name, joint] : direct) k[name] = f.position(joint);
  // Pinky chosen so that Hand = wrist/2 + pinky/4 + index/4 lands on the demo's hand joint.
  k["left_pinky"] = 4 * f.position(J::kHandLeft) - 2 * f.position(J::kWristLeft) - f.position(J::kHandTipLeft);
  k["right_pinky"] = 4 * f.position(J::kHandRight) - 2 * f.position(J::kWristRight) - f.position(J::kHandTipRight);
  return k;
}

std::string number(double value) {
  std::string out;
  internal::appendNumber(out, value);
  return out;
}

}  // namespace

TEST_CASE("keypoints: MediaPipe landmarks of a known skeleton map back onto it") {
  DemoMotionOptions options;
  options.duration = 2;
  const auto demo = demoMotion("wave", options);
  const KeypointSchema& schema = mediaPipePoseSchema();
  REQUIRE(schema.keypoint_names.size() == 33);
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> u(0, 1);
  std::ostringstream csv;
  csv << "time";
  for (const auto& name : schema.keypoint_names) csv << "," << name << ".x," << name << ".y," << name << ".z," << name << ".visibility";
  csv << "\n";
  std::vector<std::map<std::string, double>> visibility(demo.size());
  for (std::size_t i = 0; i < demo.size(); ++i) {
    const auto& f = demo.frames[i];
    const Keypoints k = mediaPipeKeypoints(f);
    REQUIRE(k.size() == 33);
    const Vector3<double> origin = 0.5 * (f.position(J::kHipLeft) + f.position(J::kHipRight));
    csv << number(f.time + 100);  // any start time: the reader shifts to 0
    for (const auto& name : schema.keypoint_names) {
      const Vector3<double> p_S = toDetector(k.at(name) - origin);
      visibility[i][name] = u(rng);
      csv << "," << number(p_S.x()) << "," << number(p_S.y()) << "," << number(p_S.z()) << ","
          << number(visibility[i][name]);
    }
    csv << "\n";
  }
  std::istringstream in(csv.str());
  const auto motion = readKeypointCsv(in, schema, "mp.csv");
  REQUIRE(motion.size() == demo.size());
  CHECK(motion.format == "keypoints/mediapipe-pose");
  CHECK(motion.frame_rate == doctest::Approx(30));
  for (std::size_t i = 0; i < demo.size(); ++i) {
    const auto& expected = demo.frames[i];
    const auto& got = motion.frames[i];
    CHECK(got.time == doctest::Approx(expected.time));
    const Vector3<double> origin = 0.5 * (expected.position(J::kHipLeft) + expected.position(J::kHipRight));
    for (const J joint : {J::kShoulderLeft, J::kElbowRight, J::kWristLeft, J::kHandLeft, J::kHandTipRight, J::kThumbLeft,
                          J::kHipRight, J::kKneeLeft, J::kAnkleRight, J::kFootLeft, J::kHead, J::kSpineBase}) {
      CHECK((got.position(joint) - (expected.position(joint) - origin)).norm() < 1e-12);
    }
    const Vector3<double> mid_shoulder =
        0.5 * (expected.position(J::kShoulderLeft) + expected.position(J::kShoulderRight)) - origin;
    CHECK((got.position(J::kSpineShoulder) - mid_shoulder).norm() < 1e-12);
    CHECK((got.position(J::kSpineMid) - 0.5 * mid_shoulder).norm() < 1e-12);
    CHECK((got.position(J::kNeck) - (0.75 * mid_shoulder + 0.25 * (expected.position(J::kHead) - origin))).norm() < 1e-12);
    // Handedness and up, from the data alone.
    CHECK(got.position(J::kShoulderLeft).y() > got.position(J::kShoulderRight).y());
    CHECK(got.position(J::kHead).z() > got.position(J::kSpineBase).z());
    // States: tracked when visibility >= 0.5; derived joints take the weakest keypoint.
    const auto& v = visibility[i];
    auto stateOf = [](double vis) { return vis >= 0.5 ? TrackingState::kTracked : TrackingState::kInferred; };
    CHECK(got.trackingState(J::kElbowLeft) == stateOf(v.at("left_elbow")));
    CHECK(got.trackingState(J::kSpineBase) == stateOf(std::min(v.at("left_hip"), v.at("right_hip"))));
    CHECK(got.trackingState(J::kHandRight) ==
          stateOf(std::min({v.at("right_wrist"), v.at("right_pinky"), v.at("right_index")})));
  }
}

TEST_CASE("keypoints: OpenPose BODY_25 in millimetres, missing keypoints, no hand keypoints") {
  const auto demo = demoMotion("squat");
  const KeypointSchema& schema = openPoseBody25Schema();
  REQUIRE(schema.keypoint_names.size() == 25);
  const auto& f = demo.frames[40];
  Keypoints k;
  const std::pair<const char*, J> direct[] = {
      {"Neck", J::kSpineShoulder}, {"RShoulder", J::kShoulderRight}, {"RElbow", J::kElbowRight}, {"RWrist", J::kWristRight},
      {"LShoulder", J::kShoulderLeft}, {"LElbow", J::kElbowLeft},   {"LWrist", J::kWristLeft},   {"MidHip", J::kSpineBase},
      {"RHip", J::kHipRight},       {"RKnee", J::kKneeRight},       {"RAnkle", J::kAnkleRight},  {"LHip", J::kHipLeft},
      {"LKnee", J::kKneeLeft},      {"LAnkle", J::kAnkleLeft},      {"LBigToe", J::kFootLeft},   {"LSmallToe", J::kFootLeft},
      {"LHeel", J::kAnkleLeft},     {"RBigToe", J::kFootRight},     {"RSmallToe", J::kFootRight}, {"RHeel", J::kAnkleRight},
      {"Nose", J::kHead},           {"REye", J::kHead},             {"LEye", J::kHead},          {"REar", J::kHead},
      {"LEar", J::kHead}};
  for (const auto& [name, joint] : direct) k[name] = f.position(joint);
  // Camera 2.5 m in front of the person, millimetres; LKnee not detected (zeros, c = 0);
  // columns in a shuffled order to exercise the header mapping.
  const Vector3<double> camera(2.5, 0, 1.0);
  std::vector<std::string> columns;
  for (const auto& name : schema.keypoint_names) {
    for (const char* suffix : {".x", ".y", ".z", ".c"}) columns.push_back(name + suffix);
  }
  std::mt19937 rng(2);
  std::shuffle(columns.begin(), columns.end(), rng);
  std::string header = "time";
  std::string row = "0";
  for (const std::string& column : columns) {
    const std::string name = column.substr(0, column.find('.'));
    const char axis = column.back();
    double value = 0;
    if (axis == 'c') {
      value = name == "LKnee" ? 0.0 : name == "RElbow" ? 0.3 : 0.9;
    } else if (name != "LKnee") {
      value = 1000 * toDetector(k.at(name) - camera)[axis - 'x'];
    }
    header += "," + column;
    row += "," + number(value);
  }
  const auto path = std::filesystem::temp_directory_path() / "retarget_io_openpose.csv";
  {
    std::ofstream out(path);
    out << header << "\n" << row << "\n";
  }
  KeypointReadOptions options;
  options.scale = 0.001;
  const auto motion = readKeypointCsv(path.string(), options);  // schema detected from the header
  std::filesystem::remove(path);
  REQUIRE(motion.size() == 1);
  CHECK(motion.format == "keypoints/openpose-body25");
  const auto& got = motion.frames[0];
  for (const J joint : {J::kSpineBase, J::kSpineShoulder, J::kShoulderRight, J::kWristLeft, J::kAnkleRight, J::kFootLeft}) {
    CHECK((got.position(joint) - (f.position(joint) - camera)).norm() < 1e-9);
  }
  CHECK(got.trackingState(J::kKneeLeft) == TrackingState::kNotTracked);
  CHECK(got.trackingState(J::kElbowRight) == TrackingState::kInferred);
  CHECK(got.trackingState(J::kElbowLeft) == TrackingState::kTracked);
  CHECK(got.trackingState(J::kHandLeft) == TrackingState::kInferred);
  CHECK((got.position(J::kHandLeft) - got.position(J::kWristLeft)).norm() == 0.0);
  CHECK(got.trackingState(J::kHandTipLeft) == TrackingState::kNotTracked);
  CHECK(got.trackingState(J::kThumbRight) == TrackingState::kNotTracked);
  CHECK(got.position(J::kHead).z() > got.position(J::kSpineBase).z());
  CHECK(got.position(J::kShoulderLeft).y() > got.position(J::kShoulderRight).y());
}

TEST_CASE("keypoints: malformed input names file, line and what was expected") {
  const KeypointSchema& schema = mediaPipePoseSchema();
  std::string header = "time";
  std::string row = "0";
  for (const auto& name : schema.keypoint_names) {
    header += "," + name + ".x," + name + ".y," + name + ".z," + name + ".visibility";
    row += ",0.1,0.2,0.3,0.9";
  }
  auto parse = [&](const std::string& text) {
    std::istringstream in(text);
    return readKeypointCsv(in, schema, "kp.csv");
  };
  CHECK(parse(header + "\n" + row + "\n").size() == 1);
  std::string bad_conf = row;
  bad_conf.replace(bad_conf.rfind("0.9"), 3, "1.5");
  std::string bad_number = row;
  bad_number.replace(bad_number.find("0.2"), 3, "abc");
  const std::vector<test::ParseErrorCase> cases = {
      {"", 0, "empty file"},
      {"frame,nose.x\n", 1, "start with 'time'"},
      {header + ",elbow.x\n", 1, "mediapipe-pose keypoint name in header column 134, got 'elbow.x'"},
      {header + ",nose.w\n", 1, "header column 134"},
      {header + ",nose.x\n", 1, "appears twice"},
      {"time,nose.x,nose.y,nose.z\n", 1, "left_ear.x, .y and .z"},
      {header + "\n" + row + ",1\n", 2, "expected 133 values (one per header column), got 134"},
      {header + "\n" + bad_conf + "\n", 2, "confidence in [0, 1] in column 133 (right_foot_index.visibility), got '1.5'"},
      {header + "\n" + bad_number + "\n", 2, "column 3 (nose.y), got 'abc'"},
      {header + "\n" + row + "\n" + row + "\n", 3, "expected time to increase"},
  };
  test::checkParseErrors(cases, "kp.csv", parse);
  KeypointReadOptions options;
  options.scale = 0;
  std::istringstream in(header + "\n");
  CHECK_THROWS_WITH_AS(readKeypointCsv(in, schema, "kp.csv", options), doctest::Contains("scale"), InvalidArgument);
  CHECK(detectKeypointSchema("time,LShoulder.x") == &openPoseBody25Schema());
  CHECK(detectKeypointSchema("time,Head.x") == nullptr);
}

TEST_CASE("keypoints: mapping one frame allocates nothing") {
  for (const KeypointSchema* schema : {&mediaPipePoseSchema(), &openPoseBody25Schema()}) {
    const auto count = static_cast<Eigen::Index>(schema->keypoint_names.size());
    const Eigen::Matrix3Xd p_S = Eigen::Matrix3Xd::Random(3, count);
    const std::vector<TrackingState> state(static_cast<std::size_t>(count), TrackingState::kTracked);
    SkeletonFrame<double> frame;
    test::NoAllocationScope scope;
    keypointsToSkeleton(*schema, p_S, state, 1.0, frame);
    CHECK(scope.allocations() == 0);
    CHECK(frame.position(HumanJoint::kSpineBase).allFinite());
  }
}
