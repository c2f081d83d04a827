// The `retarget` program's motion commands (demo, convert, info), run as a user would: output
// files, stdout, exit codes 0/1/2, and error messages that name the file and line.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/skeleton_csv.hpp>

#include "cli/cli_runner.hpp"
#include "rig/rig_corpus.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("cli demo: writes the library's demo motion as skeleton CSV") {
  const fs::path out = tempDir() / "wave.csv";
  const Run r = run("demo wave -o '" + out.string() + "' --rate 20 --duration 2.5 --height 1.6");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.out, "51 frames"));
  const auto written = readSkeletonCsv(out.string());
  DemoMotionOptions options;
  options.rate = 20;
  options.duration = 2.5;
  options.body_height = 1.6;
  const auto expected = demoMotion("wave", options);
  REQUIRE(written.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(written.frames[i].time == expected.frames[i].time);
    CHECK(written.frames[i].p_W == expected.frames[i].p_W);
    CHECK(written.frames[i].right_hand == expected.frames[i].right_hand);
  }
  const Run list = run("demo --list");
  CHECK(list.code == 0);
  for (const std::string& name : demoMotionNames()) CHECK(contains(list.out, name));
}

TEST_CASE("cli demo: bad usage exits 2 with a message") {
  const fs::path out = tempDir() / "x.csv";
  Run r = run("demo dance -o '" + out.string() + "'");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "unknown motion 'dance'"));
  CHECK(contains(r.err, "fold-arms"));
  r = run("demo wave -o '" + out.string() + "' --rate 0");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "rate out of range (got 0"));
  r = run("demo wave");
  CHECK(r.code == 2);
  r = run("demo wave -o '" + out.string() + "' --rate fast");
  CHECK(r.code == 2);
}

TEST_CASE("cli info: describes generated and converted motions") {
  const fs::path dir = tempDir();
  REQUIRE(run("demo squat -o '" + (dir / "squat.csv").string() + "' --duration 3").code == 0);
  const Run r = run("info '" + (dir / "squat.csv").string() + "'");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.out, "skeleton CSV"));
  CHECK(contains(r.out, "frames:      91"));
  CHECK(contains(r.out, "rate:        30.000 Hz"));
  CHECK(contains(r.out, "duration:    3.000 s"));
  CHECK(contains(r.out, "2275 tracked, 0 inferred, 0 not tracked"));
  CHECK(contains(r.out, "metres"));

  // A joint-trajectory CSV is recognised as robot output.
  write(dir / "angles.csv", "time,HeadYaw,HeadPitch\n0,0.1,0.2\n0.5,0.1,0.3\n");
  const Run t = run("info '" + (dir / "angles.csv").string() + "'");
  REQUIRE_MESSAGE(t.code == 0, t.err);
  CHECK(contains(t.out, "joint-trajectory"));
  CHECK(contains(t.out, "joints:      2"));
  CHECK(contains(t.out, "HeadPitch"));
}

TEST_CASE("cli convert and info on the shared Kinect recordings") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path dir = tempDir();
  const struct {
    const char* file;
    std::size_t frames;
    const char* format;
  } files[] = {
      {"laban_ges01_wavehand_kinect2.csv", 154, "LabanotationSuite"},
      {"laban_kinectreader_joints_closerange_kinect2.csv", 371, "LabanotationSuite"},
      {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", 193, "Keraal"},
  };
  for (const auto& f : files) {
    const std::string file_name = f.file;
    CAPTURE(file_name);
    const fs::path input = data_dir / "kinect" / f.file;
    const Run info = run("info '" + input.string() + "'");
    REQUIRE_MESSAGE(info.code == 0, info.err);
    CHECK(contains(info.out, f.format));
    CHECK(contains(info.out, "frames:      " + std::to_string(f.frames) + "\n"));
    const fs::path out = dir / "converted.csv";
    const Run convert = run("convert '" + input.string() + "' -o '" + out.string() + "'");
    REQUIRE_MESSAGE(convert.code == 0, convert.err);
    const auto converted = readSkeletonCsv(out.string());
    const auto direct = readKinect(input.string());
    REQUIRE(converted.size() == direct.size());
    for (std::size_t i = 0; i < direct.size(); ++i) {
      CHECK(converted.frames[i].p_W == direct.frames[i].p_W);
      CHECK(converted.frames[i].state == direct.frames[i].state);
    }
  }
}

TEST_CASE("cli convert: bad input exits 1 naming file and line; bad usage exits 2") {
  const fs::path dir = tempDir();
  std::string laban;
  for (int row = 0; row < 3; ++row) {
    laban += std::to_string(1000 + 330000 * row);
    for (int j = 0; j < kHumanJointCount; ++j) laban += ",0.1,0.2,2.5,2";
    laban += ",\n";
  }
  laban += "2000000";
  for (int j = 0; j < kHumanJointCount - 1; ++j) laban += ",0.1,0.2,2.5,2";
  laban += ",\n";
  write(dir / "truncated.csv", laban);
  Run r = run("convert '" + (dir / "truncated.csv").string() + "' -o '" + (dir / "out.csv").string() + "'");
  CHECK(r.code == 1);
  CHECK(contains(r.err, (dir / "truncated.csv").string() + ":4"));
  CHECK(contains(r.err, "expected 101 values"));
  CHECK(contains(r.err, "got 97"));

  write(dir / "bad_state.csv", "time,Head.x,Head.y,Head.z,Head.state\n0,1,2,3,2\n0.1,1,2,3,7\n");
  r = run("info '" + (dir / "bad_state.csv").string() + "'");
  CHECK(r.code == 1);
  CHECK(contains(r.err, "bad_state.csv:3"));
  CHECK(contains(r.err, "tracking state"));

  r = run("convert '" + (dir / "missing.csv").string() + "' -o '" + (dir / "out.csv").string() + "'");
  CHECK(r.code == 1);
  CHECK(contains(r.err, "missing.csv"));

  REQUIRE(run("demo wave -o '" + (dir / "wave.csv").string() + "' --duration 1").code == 0);
  r = run("convert '" + (dir / "wave.csv").string() + "' -o '" + (dir / "wave.bvh").string() + "'");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "BVH output needs a BVH input"));
  r = run("convert '" + (dir / "wave.csv").string() + "' -o '" + (dir / "wave.json").string() + "'");
  CHECK(r.code == 2);
  r = run("convert '" + (dir / "wave.csv").string() + "'");
  CHECK(r.code == 2);

  write(dir / "angles.csv", "time,HeadYaw\n0,0.1\n");
  r = run("convert '" + (dir / "angles.csv").string() + "' -o '" + (dir / "out.csv").string() + "'");
  CHECK(r.code == 1);
  CHECK(contains(r.err, "joint-trajectory"));
}

TEST_CASE("cli convert: NTU .skeleton written by the test") {
  const fs::path dir = tempDir();
  std::ostringstream ntu;
  ntu << "2\n";
  for (int f = 0; f < 2; ++f) {
    ntu << "1\n72057594037931101 0 1 2 1 3 0 0.01 -0.02 2\n25\n";
    for (int j = 0; j < kHumanJointCount; ++j) ntu << "0.1 " << 0.05 * j << " 3 250 200 900 500 1 0 0 0 2\n";
  }
  write(dir / "S001C001P001R001A001.skeleton", ntu.str());
  const Run info = run("info '" + (dir / "S001C001P001R001A001.skeleton").string() + "'");
  REQUIRE_MESSAGE(info.code == 0, info.err);
  CHECK(contains(info.out, "NTU"));
  CHECK(contains(info.out, "frames:      2\n"));
  CHECK(contains(info.out, "orientations: yes"));
  const Run convert =
      run("convert '" + (dir / "S001C001P001R001A001.skeleton").string() + "' -o '" + (dir / "ntu.csv").string() + "'");
  REQUIRE_MESSAGE(convert.code == 0, convert.err);
  const auto motion = readSkeletonCsv((dir / "ntu.csv").string());
  REQUIRE(motion.size() == 2);
  CHECK(motion.frames[1].position(HumanJoint::kHead) == Vector3<double>(-3, -0.1, 0.15));
  CHECK(motion.frames[1].right_hand == HandState::kClosed);

  write(dir / "broken.skeleton", "2\n1\n");
  const Run bad = run("info '" + (dir / "broken.skeleton").string() + "'");
  CHECK(bad.code == 1);
  CHECK(contains(bad.err, "broken.skeleton:2"));
  fs::remove_all(dir);
}

TEST_CASE("cli info and convert: MediaPipe keypoint CSV") {
  const fs::path dir = tempDir();
  const char* names[] = {"nose",           "left_eye_inner", "left_eye",       "left_eye_outer", "right_eye_inner",
                         "right_eye",      "right_eye_outer", "left_ear",      "right_ear",      "mouth_left",
                         "mouth_right",    "left_shoulder",  "right_shoulder", "left_elbow",     "right_elbow",
                         "left_wrist",     "right_wrist",    "left_pinky",     "right_pinky",    "left_index",
                         "right_index",    "left_thumb",     "right_thumb",    "left_hip",       "right_hip",
                         "left_knee",      "right_knee",     "left_ankle",     "right_ankle",    "left_heel",
                         "right_heel",     "left_foot_index", "right_foot_index"};
  std::string text = "time";
  for (const char* name : names) text += std::string(",") + name + ".x," + name + ".y," + name + ".z";
  text += "\n";
  for (int row = 0; row < 4; ++row) {
    text += std::to_string(row * 0.04);
    for (std::size_t k = 0; k < std::size(names); ++k) text += ",0.1,-0.2,0.05";
    text += "\n";
  }
  write(dir / "pose.csv", text);
  const Run info = run("info '" + (dir / "pose.csv").string() + "'");
  REQUIRE_MESSAGE(info.code == 0, info.err);
  CHECK(contains(info.out, "3D keypoint CSV [keypoints/mediapipe-pose]"));
  CHECK(contains(info.out, "frames:      4\n"));
  CHECK(contains(info.out, "rate:        25.000 Hz"));
  const Run convert = run("convert '" + (dir / "pose.csv").string() + "' -o '" + (dir / "pose_skeleton.csv").string() + "'");
  REQUIRE_MESSAGE(convert.code == 0, convert.err);
  const auto motion = readSkeletonCsv((dir / "pose_skeleton.csv").string());
  REQUIRE(motion.size() == 4);
  // Image axes to canonical: (x, y, z) = (0.1, -0.2, 0.05) -> forward -z, left +x, up -y.
  CHECK((motion.frames[0].position(HumanJoint::kElbowLeft) - Vector3<double>(-0.05, 0.1, 0.2)).norm() < 1e-12);
}

TEST_CASE("cli: a rig no built-in schema knows is bound automatically; schema suggest + --schema reproduce it") {
  // A Biovision-style rig (Chest, LeftCollar, LeftShoulder = upper arm, ...) in inches, Z-up,
  // A-pose: none of the built-in schemas matches it.
  const RigFamily* biovision = nullptr;
  for (const RigFamily& family : rigFamilies()) {
    if (family.name == "biovision") biovision = &family;
  }
  REQUIRE(biovision != nullptr);
  RigVariant variant;
  variant.family = biovision;
  variant.metres_per_unit = 0.0254;
  variant.R_WS = rigFrames()[1].second;
  variant.a_pose = true;
  const fs::path bvh = tempDir() / "biovision_like.bvh";
  writeBvh(rigVariantMotion(variant, rigKnownMotion(20, 5)), bvh.string());

  // `schema suggest` writes the binding as a schema file ...
  const Run suggest = run("schema suggest " + ("'" + bvh.string() + "'"));
  REQUIRE_MESSAGE(suggest.code == 0, suggest.err);
  const fs::path schema = tempDir() / "biovision_like.schema";
  write(schema, suggest.out);
  // ... which, given back with --schema (before or after the subcommand), gives the same motion.
  const fs::path automatic = tempDir() / "biovision_auto.csv", explicit_schema = tempDir() / "biovision_schema.csv";
  const Run a = run("convert '" + bvh.string() + "' -o '" + automatic.string() + "'");
  REQUIRE_MESSAGE(a.code == 0, a.err);
  const Run b = run("--schema '" + schema.string() + "' convert '" + bvh.string() + "' -o '" + explicit_schema.string() + "'");
  REQUIRE_MESSAGE(b.code == 0, b.err);
  const auto from_binding = readSkeletonCsv(automatic.string());
  const auto from_schema = readSkeletonCsv(explicit_schema.string());
  REQUIRE(from_binding.size() == 20);
  REQUIRE(from_schema.size() == from_binding.size());
  double worst = 0;
  for (std::size_t k = 0; k < from_binding.size(); ++k) {
    for (std::size_t j = 0; j < kHumanJointCount; ++j) {
      if (!from_binding.frames[k].usable(static_cast<HumanJoint>(j))) continue;
      worst = std::max(worst, (from_binding.frames[k].p_W[j] - from_schema.frames[k].p_W[j]).norm());
    }
  }
  CHECK(worst < 1e-6);
  // Both mappers run on it from the command line.
  CHECK(run("map '" + bvh.string() + "' --robot nao --method ga-lvvj -o '" + (tempDir() / "biovision_nao.csv").string() + "'").code == 0);
  const Run euler = run("map '" + bvh.string() + "' --robot inmoov --method euler -o '" + (tempDir() / "biovision_inmoov.csv").string() + "'");
  CHECK_MESSAGE(euler.code == 0, euler.err);
  // A schema file that does not exist is a usage error naming it.
  const Run missing = run("--schema /nonexistent.schema convert '" + bvh.string() + "' -o /dev/null");
  CHECK(missing.code == 2);
  CHECK(contains(missing.err, "nonexistent.schema"));

  // `info` says what decided the binding: this rig's A-pose is a standing rest pose, and its
  // units come from the person's height in the motion (issue 33).
  const Run info = run("info '" + bvh.string() + "'");
  REQUIRE_MESSAGE(info.code == 0, info.err);
  CHECK(contains(info.out, "decided by:  up axis: "));
  CHECK(contains(info.out, "units: motion (person "));
  // The same rig with its arms' left/right names swapped (legs untouched) is refused, naming
  // the file and the `schema suggest` way out, not mapped.
  const std::string text = slurp(bvh);
  std::string swapped;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t joint = text.find("JOINT ", at);
    if (joint == std::string::npos) {
      swapped += text.substr(at);
      break;
    }
    const std::size_t name_begin = joint + 6, name_end = text.find_first_of(" \r\n", name_begin);
    std::string name = text.substr(name_begin, name_end - name_begin);
    const bool leg = name.find("Hip") != std::string::npos || name.find("Knee") != std::string::npos ||
                     name.find("Ankle") != std::string::npos || name.find("Leg") != std::string::npos ||
                     name.find("Foot") != std::string::npos || name.find("Toe") != std::string::npos;
    if (!leg && name.rfind("Left", 0) == 0) name = "Right" + name.substr(4);
    else if (!leg && name.rfind("Right", 0) == 0) name = "Left" + name.substr(5);
    swapped += text.substr(at, name_begin - at) + name;
    at = name_end;
  }
  REQUIRE(swapped != text);
  const fs::path scrambled = tempDir() / "biovision_swapped_arms.bvh";
  write(scrambled, swapped);
  const Run refused = run("map '" + scrambled.string() + "' --robot nao --method ga-lvvj -o '" +
                          (tempDir() / "swapped_nao.csv").string() + "'");
  CHECK(refused.code == 1);
  CHECK(contains(refused.err, "biovision_swapped_arms.bvh"));
  CHECK(contains(refused.err, "schema suggest"));
}
