// BVH reader and writer: the shared files, text variants, malformed input, round trips,
// rotation orders, forward-kinematics invariants and the no-allocation contract.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <retarget/core/internal/number.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/internal/bvh_parser.hpp>

#include "bvh/bvh_test_util.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// A small valid file: two joints with different channel orders, an End Site, 3 frames.
// Line numbers matter to the malformed-input tests: frame k is on line 19 + k.
const char* const kSmall =
    "HIERARCHY\n"                                               // 1
    "ROOT Hips\n"                                               // 2
    "{\n"                                                       // 3
    "  OFFSET 0 90 0\n"                                         // 4
    "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n"  // 5
    "  JOINT Spine\n"                                           // 6
    "  {\n"                                                     // 7
    "    OFFSET 0 10 0\n"                                       // 8
    "    CHANNELS 3 Yrotation Xrotation Zrotation\n"            // 9
    "    End Site\n"                                            // 10
    "    {\n"                                                   // 11
    "      OFFSET 0 5 0\n"                                      // 12
    "    }\n"                                                   // 13
    "  }\n"                                                     // 14
    "}\n"                                                       // 15
    "MOTION\n"                                                  // 16
    "Frames: 3\n"                                               // 17
    "Frame Time: 0.0333333\n"                                   // 18
    "1 90 2 10 20 30 -5 6 7\n"                                  // 19
    "1.5 91 2 11 21 31 -4 7 8\n"                                // 20
    "2 92 2 12 22 32 -3 8 9\n";                                 // 21

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

std::string replaceFirst(std::string text, const std::string& from, const std::string& to) {
  const std::size_t pos = text.find(from);
  REQUIRE(pos != std::string::npos);
  return text.replace(pos, from.size(), to);
}

// Runs the parser and returns the ParseError (fails the test when none is thrown).
ParseError parseError(const std::string& text) {
  try {
    (void)parseBvh(text, "bad.bvh");
  } catch (const ParseError& error) {
    return error;
  }
  FAIL("expected a ParseError");
  return ParseError("", 0, "");
}

void checkSameMotion(const BvhMotion& a, const BvhMotion& b) {
  REQUIRE(a.joints.size() == b.joints.size());
  for (std::size_t i = 0; i < a.joints.size(); ++i) {
    CHECK(a.joints[i].name == b.joints[i].name);
    CHECK(a.joints[i].parent == b.joints[i].parent);
    CHECK(a.joints[i].offset == b.joints[i].offset);
    CHECK(a.joints[i].channels == b.joints[i].channels);
    CHECK(a.joints[i].first_channel == b.joints[i].first_channel);
    CHECK(a.joints[i].is_end_site == b.joints[i].is_end_site);
  }
  CHECK(a.frame_time == b.frame_time);
  CHECK(a.frame_count == b.frame_count);
  CHECK(a.channel_count == b.channel_count);
  CHECK(a.values == b.values);
}

std::string toText(const BvhMotion& motion) {
  std::ostringstream out;
  writeBvh(motion, out);
  return out.str();
}

Eigen::Matrix3d axisRotation(char axis, double degrees) {
  const Eigen::Vector3d unit = axis == 'X' ? Eigen::Vector3d::UnitX()
                               : axis == 'Y' ? Eigen::Vector3d::UnitY()
                                             : Eigen::Vector3d::UnitZ();
  return Eigen::AngleAxisd(degrees * kPi<double> / 180.0, unit).toRotationMatrix();
}

}  // namespace

TEST_CASE("bvh: every shared file reads with the manifest's joint, frame and channel counts") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const auto& facts : test::sharedBvhFiles()) {
    const std::string file_name = facts.file;
    CAPTURE(file_name);
    const BvhMotion motion = readBvh(data_dir / "bvh" / facts.file);
    CHECK(motion.source == (data_dir / "bvh" / facts.file).string());  // for the binder's messages
    CHECK(motion.jointCount() == facts.joints);
    CHECK(motion.jointCount(true) == facts.joints + facts.end_sites);
    CHECK(motion.frame_count == facts.frames);
    CHECK(motion.frame_time == facts.frame_time);
    CHECK(motion.channel_count == facts.channels);
    CHECK(motion.values.size() == static_cast<std::size_t>(facts.frames) * static_cast<std::size_t>(facts.channels));
    CHECK_NOTHROW(validateBvh(motion));
    CHECK(motion.rootCount() == 1);
    const BvhMotion rest = bvhRestPose(motion);
    CHECK(rest.frame_count == 1);
    CHECK(rest.frame_time == motion.frame_time);
    REQUIRE(rest.values.size() == static_cast<std::size_t>(motion.channel_count));
    // The rest pose: every joint unrotated (all rotation channels 0) and at its OFFSET (every
    // position channel at its OFFSET component), read back through the frame accessors.
    for (std::size_t j = 0; j < motion.joints.size(); ++j) {
      CHECK(rest.joints[j].first_channel == motion.joints[j].first_channel);
      CHECK(rest.localRotation(0, static_cast<int>(j)).coeffs() == Eigen::Quaterniond::Identity().coeffs());
      CHECK(rest.localTranslation(0, static_cast<int>(j)) == motion.joints[j].offset);
    }
    // The file read from memory gives the same result as the streamed file.
    std::ifstream in(data_dir / "bvh" / facts.file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    checkSameMotion(parseBvh(text.str(), facts.file), motion);
  }
}

TEST_CASE("bvh: facts of the Axis Neuron and CMU takes (manifest)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion noitom = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const int hips = noitom.findJoint("Hips");
  REQUIRE(hips == 0);
  // Root fixed at (0, 93.02, 0) with a constant 8.5 degree Yrotation; legs never move.
  for (int f = 0; f < noitom.frame_count; f += 97) {
    CHECK(noitom.localTranslation(f, hips).isApprox(Eigen::Vector3d(0, 93.02, 0), 1e-5));
    const Eigen::AngleAxisd aa(noitom.localRotation(f, hips));
    CHECK(aa.angle() * 180 / kPi<double> == doctest::Approx(8.5).epsilon(1e-2));
    CHECK(noitom.localRotation(f, noitom.findJoint("RightLeg")).isApprox(noitom.localRotation(0, noitom.findJoint("RightLeg"))));
  }
  CHECK(noitom.joints[static_cast<std::size_t>(noitom.findJoint("Head_End"))].is_end_site);
  CHECK(noitom.findJoint("LeftHandPinky3_End") > 0);
  const BvhMotion cmu = readBvh(data_dir / "bvh" / "cmu_skeleton31_deepmotionediting_example.bvh");
  // Coincident joints: LHipJoint, RHipJoint, LowerBack have zero offsets from Hips.
  for (const char* name : {"LHipJoint", "RHipJoint", "LowerBack"}) {
    CHECK(cmu.joints[static_cast<std::size_t>(cmu.findJoint(name))].offset.isZero());
    CHECK(cmu.joints[static_cast<std::size_t>(cmu.findJoint(name))].parent == 0);
  }
  CHECK(cmu.joints[1].channels ==
        std::vector<BvhChannel>{BvhChannel::kZrotation, BvhChannel::kYrotation, BvhChannel::kXrotation});
  const BvhMotion mixamo = readBvh(data_dir / "bvh" / "mixamo_rig_55j_fingers_20tab_test_freebvh.bvh");
  CHECK(mixamo.findJoint("mixamorig:LeftHandIndex1") > 0);
  CHECK(mixamo.findJoint("mixamorig:HeadTop_End_End") > 0);  // End Site of the joint HeadTop_End
}

TEST_CASE("bvh: text variants (CRLF, mixed endings, tabs, blank lines, BOM, .5 numbers, no final newline)") {
  const BvhMotion reference = parseBvh(kSmall);
  CHECK(reference.source == "<string>");
  CHECK(parseBvh(kSmall, "named.bvh").source == "named.bvh");
  CHECK(reference.jointCount() == 2);
  CHECK(reference.jointCount(true) == 3);
  CHECK(reference.joints[2].name == "Spine_End");
  CHECK(reference.frame_count == 3);
  CHECK(reference.frame(1)[0] == 1.5);
  const std::string small = kSmall;
  const std::string crlf = replaceAll(small, "\n", "\r\n");
  checkSameMotion(parseBvh(crlf), reference);
  std::string mixed = crlf;
  mixed = replaceFirst(mixed, "ROOT Hips\r\n", "ROOT Hips\n");
  mixed = replaceFirst(mixed, "Frames: 3\r\n", "Frames: 3\n");
  checkSameMotion(parseBvh(mixed), reference);
  checkSameMotion(parseBvh(replaceAll(small, "  ", "\t")), reference);
  checkSameMotion(parseBvh(replaceAll(small, "\n", " \t \n")), reference);  // trailing blanks
  checkSameMotion(parseBvh(replaceFirst(small, "MOTION\n", "MOTION\n\n  \n")), reference);
  checkSameMotion(parseBvh(small.substr(0, small.size() - 1)), reference);  // no final newline
  checkSameMotion(parseBvh(small + "\n\n  \n"), reference);                 // trailing blank lines
  checkSameMotion(parseBvh("\xEF\xBB\xBF" + small), reference);            // UTF-8 byte-order mark
  const BvhMotion short_time = parseBvh(replaceFirst(small, "Frame Time: 0.0333333", "Frame Time: .0083"));
  CHECK(short_time.frame_time == 0.0083);
  // Brace on the same line as the name, names with colons and spaces, '+' signs, lower-case channels.
  const BvhMotion odd = parseBvh(replaceFirst(replaceFirst(replaceFirst(small, "ROOT Hips\n{", "ROOT rig:Hips  {"),
                                                           "JOINT Spine", "JOINT my spine"),
                                              "Yrotation Xrotation Zrotation", "yrotation XROTATION Zrotation"));
  CHECK(odd.joints[0].name == "rig:Hips");
  CHECK(odd.joints[1].name == "my spine");
  CHECK(odd.joints[2].name == "my spine_End");
  CHECK(odd.values == reference.values);
  CHECK(odd.joints[1].channels == reference.joints[1].channels);
  CHECK(parseBvh(replaceFirst(small, "1 90 2", "+1 90 2")).values == reference.values);
  // Zero frames, and a frame count without a space.
  const BvhMotion empty = parseBvh(small.substr(0, small.find("Frames:")) + "Frames:0\nFrame Time: 0.01\n");
  CHECK(empty.frame_count == 0);
  CHECK(empty.values.empty());
}

TEST_CASE("bvh: multiple roots and several End Sites under one joint") {
  const std::string text =
      "HIERARCHY\nROOT A\n{\nOFFSET 1 2 3\nCHANNELS 3 Xposition Yposition Zposition\n"
      "End Site\n{\nOFFSET 0 1 0\n}\nEnd Site\n{\nOFFSET 0 0 1\n}\n}\n"
      "ROOT B\n{\nOFFSET 4 5 6\nCHANNELS 1 Zrotation\n}\n"
      "MOTION\nFrames: 1\nFrame Time: 0.5\n7 8 9 90\n";
  const BvhMotion motion = parseBvh(text);
  REQUIRE(motion.joints.size() == 4);
  CHECK(motion.joints[1].name == "A_End");
  CHECK(motion.joints[2].name == "A_End2");
  CHECK(motion.joints[3].parent == -1);
  CHECK(motion.joints[3].first_channel == 3);
  std::vector<Eigen::Isometry3d> X_WJ;
  bvhGlobalPoses(motion, 0, X_WJ);
  CHECK(X_WJ[0].translation().isApprox(Eigen::Vector3d(7, 8, 9)));
  CHECK(X_WJ[2].translation().isApprox(Eigen::Vector3d(7, 8, 10)));
  CHECK(X_WJ[3].translation().isApprox(Eigen::Vector3d(4, 5, 6)));
  CHECK(X_WJ[3].linear().isApprox(axisRotation('Z', 90)));
  checkSameMotion(parseBvh(toText(motion)), motion);
}

TEST_CASE("bvh: partial position channels replace only their OFFSET component") {
  const std::string text =
      "HIERARCHY\nROOT R\n{\nOFFSET 1 2 3\nCHANNELS 2 Yposition Xrotation\n"
      "JOINT C\n{\nOFFSET 4 5 6\nCHANNELS 2 Zposition Xposition\n}\n}\nMOTION\nFrames: 1\nFrame Time: 1\n"
      "20 90 30 40\n";
  const BvhMotion motion = parseBvh(text);
  CHECK(motion.localTranslation(0, 0) == Eigen::Vector3d(1, 20, 3));
  CHECK(motion.localTranslation(0, 1) == Eigen::Vector3d(40, 5, 30));
  std::vector<Eigen::Isometry3d> X_WJ;
  bvhGlobalPoses(motion, 0, X_WJ);
  // Child at (40, 5, 30) in a parent rotated 90 degrees about x: y -> z, z -> -y.
  CHECK(X_WJ[1].translation().isApprox(Eigen::Vector3d(1 + 40, 20 - 30, 3 + 5)));
}

TEST_CASE("bvh: malformed input names the file, the line and what was expected") {
  const std::string small = kSmall;
  struct Case {
    const char* what;
    std::string text;
    std::size_t line;
    const char* message;
  };
  const std::vector<Case> cases = {
      {"wrong value count (one missing)", replaceFirst(small, "1.5 91 2 11 21 31 -4 7 8", "1.5 91 2 11 21 31 -4 7"), 20,
       "expected 9 values, got 8"},
      {"wrong value count (one extra)", replaceFirst(small, "2 92 2 12", "2 92 2 12 13"), 21,
       "expected 9 values, got 10"},
      {"bad number", replaceFirst(small, "-4 7 8", "-4 seven 8"), 20, "expected a finite number, got 'seven'"},
      {"two dots", replaceFirst(small, "1 90 2 10", "1 90 2 1.0.0"), 19, "expected a finite number, got '1.0.0'"},
      {"nan", replaceFirst(small, "1 90 2 10", "1 90 2 nan"), 19, "expected a finite number, got 'nan'"},
      {"bad offset", replaceFirst(small, "OFFSET 0 10 0", "OFFSET 0 1O 0"), 8,
       "expected a number for OFFSET y, got '1O'"},
      {"unknown channel", replaceFirst(small, "Yrotation Xrotation Zrotation", "Yrotation Wrotation Zrotation"), 9,
       "unknown channel 'Wrotation', expected Xposition"},
      {"bad channel count", replaceFirst(small, "CHANNELS 3", "CHANNELS 7"), 9,
       "expected a channel count from 0 to 6, got '7'"},
      {"missing MOTION", small.substr(0, small.find("MOTION")), 15,
       "unexpected end of file, expected ROOT or MOTION"},
      {"junk instead of MOTION", replaceFirst(small, "MOTION", "MOTON"), 16, "expected ROOT or MOTION, got 'MOTON'"},
      {"negative frame count", replaceFirst(small, "Frames: 3", "Frames: -3"), 17,
       "expected a non-negative frame count, got -3"},
      {"non-numeric frame count", replaceFirst(small, "Frames: 3", "Frames: three"), 17,
       "expected a frame count, got 'three'"},
      {"zero frame time", replaceFirst(small, "0.0333333", "0"), 18, "expected a positive frame time"},
      {"truncated motion", small.substr(0, small.find("2 92")), 20, "expected 3 frames, got 2"},
      {"truncated mid-line", small.substr(0, small.size() - 5), 21, "expected 9 values, got 7"},
      {"truncated hierarchy", small.substr(0, small.find("    End Site")), 9,
       "unexpected end of file, expected JOINT, End Site or '}' to close joint 'Spine' opened on line 6"},
      {"extra frame", small + "1 2 3 4 5 6 7 8 9\n", 22, "expected end of file after 3 frames"},
      {"missing HIERARCHY", small.substr(small.find("ROOT")), 1, "expected HIERARCHY, got 'ROOT'"},
      {"missing brace", replaceFirst(small, "  {\n    OFFSET 0 10", "    OFFSET 0 10"), 7, "expected {, got 'OFFSET'"},
      {"stray keyword", replaceFirst(small, "    End Site", "    Endsite"), 10,
       "expected JOINT, End Site or '}' in joint 'Spine'"},
      {"CHANNELS in End Site", replaceFirst(small, "OFFSET 0 5 0", "OFFSET 0 5 0 CHANNELS 1 Xrotation"), 12,
       "expected '}' after the End Site OFFSET, got CHANNELS"},
      {"duplicate name", replaceFirst(small, "JOINT Spine", "JOINT Hips"), 6, "duplicate joint name 'Hips'"},
      {"non-UTF-8 name", replaceFirst(small, "JOINT Spine", "JOINT Sp\xff" "ine"), 6,
       "joint name 'Sp\\xFFine' is not valid UTF-8"},
      {"non-UTF-8 value", replaceFirst(small, "-4 7 8", "-4 \xc3\x28 8"), 20, "expected a finite number, got '\\xC3('"},
      {"empty input", "", 0, "unexpected end of file, expected HIERARCHY"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const ParseError error = parseError(c.text);
    CHECK(error.file() == "bad.bvh");
    CHECK(error.line() == c.line);
    CHECK_MESSAGE(std::string(error.what()).find(c.message) != std::string::npos, error.what());
    CHECK(std::string(error.what()).find("bad.bvh") != std::string::npos);
  }
  // Absurdly deep nesting is an error, not a stack overflow.
  std::string deep = "HIERARCHY\n";
  for (int i = 0; i < 100000; ++i) deep += (i == 0 ? "ROOT j" : "JOINT j") + std::to_string(i) + "\n{\nOFFSET 0 1 0\nCHANNELS 0\n";
  CHECK_THROWS_WITH_AS(parseBvh(deep), doctest::Contains("joints nested deeper than 1000 levels"), ParseError);
  // The same errors from a streamed file carry its path.
  const auto path = std::filesystem::temp_directory_path() / "retarget_bvh_malformed_test.bvh";
  {
    std::ofstream out(path, std::ios::binary);
    out << replaceFirst(small, "-4 7 8", "-4 7");
  }
  const std::string expected = path.string() + ":20: expected 9 values, got 8";
  CHECK_THROWS_WITH_AS(readBvh(path), doctest::Contains(expected.c_str()), ParseError);
  std::filesystem::remove(path);
  CHECK_THROWS_WITH_AS(readBvh(path), doctest::Contains("cannot open"), ParseError);
}

TEST_CASE("bvh: number parsing gives exactly strtod's double") {
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> digits(1, 17), point(0, 18), sign(0, 2), digit(0, 9), exponent(-30, 30);
  std::bernoulli_distribution with_exponent(0.1);
  const int trials = test::sweepCount(100000);
  for (int t = 0; t < trials; ++t) {
    std::string text = sign(rng) == 0 ? "-" : (sign(rng) == 0 ? "+" : "");
    const int n = digits(rng);
    const int dot = point(rng);
    for (int k = 0; k < n; ++k) {
      if (k == dot) text += '.';
      text += static_cast<char>('0' + digit(rng));
    }
    if (with_exponent(rng)) text += "e" + std::to_string(exponent(rng));
    CAPTURE(text);
    const double reference = std::strtod(text.c_str(), nullptr);
    const float reference_float = std::strtof(text.c_str(), nullptr);
    // Alone and followed by more text (the number ends at the blank).
    for (const std::string& buffer : {text, text + " 12345678901234567890", text + "\t-1.5 2 3 4 5 6 7 8 9"}) {
      double ours = 0;
      const char* end = internal::parseNumber(buffer.data(), buffer.data() + buffer.size(), ours);
      REQUIRE(end == buffer.data() + text.size());
      CHECK(std::memcmp(&ours, &reference, sizeof ours) == 0);  // same bits, including -0
      float ours_float = 0;
      if (std::isfinite(reference_float) && reference_float != 0) {  // no underflow or overflow (from_chars refuses them)
        REQUIRE(internal::parseNumber(buffer.data(), buffer.data() + buffer.size(), ours_float) == end);
        CHECK(std::memcmp(&ours_float, &reference_float, sizeof ours_float) == 0);
      }
    }
  }
  double value = 0;
  for (const char* bad : {"", "-", "+", ".", "+-1", "e5", "--1", "x", "-. 1234567890123456789", ". 1234567890123456789",
                          "+-1 1234567890123456789", "x 1234567890123456789"}) {
    CAPTURE(bad);
    CHECK(internal::parseNumber(bad, bad + std::strlen(bad), value) == nullptr);
  }
}

namespace {

// A random number token of the shapes BVH exporters write and some they rarely do: plain
// decimals with 0-9 integer and 0-10 fraction digits (the fast path takes up to 7 and 8), signs,
// and now and then "+", exponents and 17-digit mantissas (left to the general parser).
// With `plain_only`, only the fast path's shapes (at most 7 integer and 8 fraction digits).
std::string randomNumberToken(std::mt19937& rng, bool plain_only) {
  std::uniform_int_distribution<int> integer_digits(0, plain_only ? 7 : 9), fraction_digits(0, plain_only ? 8 : 10),
      digit(0, 9), shape(0, plain_only ? 8 : 39);
  std::string text;
  const int kind = shape(rng);
  if (kind < 6) text += '-';
  if (kind == 6) text += '+';
  const int n_integer = integer_digits(rng);
  const int n_fraction = kind == 7 ? 0 : fraction_digits(rng);
  for (int k = 0; k < n_integer; ++k) text += static_cast<char>('0' + digit(rng));
  if (n_fraction > 0 || kind == 8) text += '.';
  for (int k = 0; k < n_fraction; ++k) text += static_cast<char>('0' + digit(rng));
  if (n_integer + n_fraction == 0) text += static_cast<char>('0' + digit(rng));
  if (kind == 9) text += "e" + std::to_string(digit(rng) - 4);
  if (kind == 10) text += "1234567890123456";
  return text;
}

std::string randomBlanks(std::mt19937& rng) {
  static const char* const kBlanks[] = {" ", " ", " ", " ", "  ", "\t", " \t ", "\v", "\f ", "   "};
  return kBlanks[std::uniform_int_distribution<int>(0, 9)(rng)];
}

// A hierarchy of a root with 6 channels and a chain of `joints` joints with 3 each.
std::string chainHierarchy(int joints) {
  std::string text = "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n";
  for (int j = 0; j < joints; ++j) {
    text += "JOINT j" + std::to_string(j) + "\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
  }
  text += "End Site\n{\nOFFSET 0 1 0\n}\n";
  for (int j = 0; j < joints; ++j) text += "}\n";
  return text + "}\n";
}

}  // namespace

TEST_CASE("bvh: frame lines of every number shape and spacing read as strtod's doubles") {
  // Lines of 6 to 366 values with random blanks before, between and after them put values across
  // the fast path's 64-byte blocks and into its padded tail copy; every value must be strtod's.
  std::mt19937 rng(2026112701);
  const int trials = test::sweepCount(60);
  for (int trial = 0; trial < trials; ++trial) {
    const int joints = std::uniform_int_distribution<int>(0, 120)(rng);
    const int channels = 6 + 3 * joints;
    const int frames = std::uniform_int_distribution<int>(1, 6)(rng);
    std::string text = chainHierarchy(joints) + "MOTION\nFrames: " + std::to_string(frames) + "\nFrame Time: 0.01\n";
    std::vector<double> expected;
    for (int f = 0; f < frames; ++f) {
      if (trial % 3 == 0) text += randomBlanks(rng);
      for (int c = 0; c < channels; ++c) {
        const std::string token = randomNumberToken(rng, trial % 2 == 0);
        expected.push_back(std::strtod(token.c_str(), nullptr));
        text += token;
        if (c + 1 < channels) text += randomBlanks(rng);
      }
      if (trial % 2 == 0) text += randomBlanks(rng);
      text += trial % 4 == 1 ? "\r\n" : "\n";
    }
    CAPTURE(trial);
    const BvhMotion motion = parseBvh(text);
    REQUIRE(motion.values.size() == expected.size());
    int mismatches = 0;
    for (std::size_t k = 0; k < expected.size(); ++k) {
      if (std::memcmp(&motion.values[k], &expected[k], sizeof(double)) != 0) ++mismatches;  // same bits, -0 included
    }
    CHECK(mismatches == 0);
    // A bad token anywhere in a line is reported as that value, with its text.
    static const char* const kBad[] = {"1.2.3", "12a", "-", "1e", "..5", "0x10", "nan", "1-2", "--1", "+-1", "9e999"};
    const std::size_t frame_start = text.find("Frame Time: 0.01\n") + 17;
    const std::size_t first_line_end = text.find('\n', frame_start);
    std::vector<std::size_t> starts;  // each value's start on the first frame line
    for (std::size_t k = frame_start; k < first_line_end; ++k) {
      if (!internal::isBlank(text[k]) && (k == frame_start || internal::isBlank(text[k - 1]))) starts.push_back(k);
    }
    REQUIRE(starts.size() == static_cast<std::size_t>(channels));
    const std::size_t which = std::uniform_int_distribution<std::size_t>(0, starts.size() - 1)(rng);
    std::size_t token_end = starts[which];
    while (token_end < text.size() && !internal::isBlank(text[token_end])) ++token_end;
    const std::string bad = kBad[trial % (sizeof kBad / sizeof kBad[0])];
    const std::string broken = text.substr(0, starts[which]) + bad + text.substr(token_end);
    const std::string message = "value " + std::to_string(which + 1) + ": expected a finite number, got '" + bad + "'";
    CAPTURE(message);
    CHECK_THROWS_WITH_AS(parseBvh(broken), doctest::Contains(message.c_str()), ParseError);
  }
}

TEST_CASE("bvh: the frame fast path's SSE2 and portable pieces agree") {
  using internal::BvhFrameValues;
  std::mt19937 rng(5);
  // Blank masks over bytes that are blanks, digits, signs, dots, letters and bytes above 127.
  static const char kBytes[] = {' ', '\t', '\n', '\v', '\f', '\r', '0', '5', '9', '-', '+', '.', 'e', 'x', '\x08', '\x0e',
                                '\x1f', '!', '\x7f', '\x80', '\x89', '\xa0', '\xff'};
  std::uniform_int_distribution<std::size_t> pick(0, sizeof kBytes - 1);
  for (int t = 0; t < test::sweepCount(20000); ++t) {
    char block[64];
    for (char& c : block) c = kBytes[pick(rng)];
    std::uint64_t expected = 0;
    for (unsigned i = 0; i < 64; ++i) expected |= std::uint64_t{internal::isBlank(block[i])} << i;
    REQUIRE(BvhFrameValues::blankMask(block) == expected);
    REQUIRE(BvhFrameValues::blankMaskPortable(block) == expected);
  }
  // Every split of up to 7 integer and 8 fraction digits, both signs, against strtod.
  std::uniform_int_distribution<int> digit(0, 9);
  for (int t = 0; t < test::sweepCount(200000); ++t) {
    const auto integer_digits = static_cast<std::size_t>(t % 8);
    const auto fraction_digits = static_cast<std::size_t>((t / 8) % 9);
    const std::size_t negative = static_cast<std::size_t>((t / 72) % 2);
    std::string text = negative != 0 ? "-" : "";
    std::uint64_t integer = 0, fraction = 0;
    for (std::size_t k = 0; k < integer_digits; ++k) {
      const int d = digit(rng);
      text += static_cast<char>('0' + d);
      integer |= static_cast<std::uint64_t>(d) << (8 * k);
    }
    text += '.';
    for (std::size_t k = 0; k < fraction_digits; ++k) {
      const int d = digit(rng);
      text += static_cast<char>('0' + d);
      fraction |= static_cast<std::uint64_t>(d) << (8 * k);
    }
    if (integer_digits + fraction_digits == 0) continue;
    CAPTURE(text);
    const double reference = std::strtod(text.c_str(), nullptr);
    double fast = 1, portable = 1;
    BvhFrameValues::storeDecimal(&fast, integer, integer_digits, fraction, negative);
    BvhFrameValues::storeDecimalPortable(&portable, integer, integer_digits, fraction, negative);
    REQUIRE(std::memcmp(&fast, &reference, sizeof fast) == 0);
    REQUIRE(std::memcmp(&portable, &reference, sizeof portable) == 0);
  }
}

TEST_CASE("bvh: a very long line streams across the reader's blocks") {
  // 3000 joints x 3 channels: each frame line is far longer than one read block after a few frames.
  std::string text = "HIERARCHY\nROOT J0\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
  const int n = 3000;
  // Chains of 100 joints under the root (nesting deeper than 1000 levels is refused).
  for (int i = 1; i < n; ++i) {
    text += "JOINT J" + std::to_string(i) + "\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
    if (i % 100 == 99 || i == n - 1) {
      const int opened = i - std::max(1, i - i % 100) + 1;
      for (int k = 0; k < opened; ++k) text += "} ";
      text += "\n";
    }
  }
  text += "}\n";
  text += "MOTION\nFrames: 40\nFrame Time: 0.01\n";
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(-180, 180);
  for (int f = 0; f < 40; ++f) {
    for (int k = 0; k < 3 * n; ++k) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.17g ", angle(rng));
      text += buffer;
    }
    text += "\r\n";
  }
  const auto path = std::filesystem::temp_directory_path() / "retarget_bvh_long_line_test.bvh";
  {
    std::ofstream out(path, std::ios::binary);
    out << text;
  }
  REQUIRE(text.size() > (std::size_t(3) << 20));
  checkSameMotion(readBvh(path), parseBvh(text));
  std::filesystem::remove(path);
}

TEST_CASE("bvh: read -> write -> read gives the same numbers (shared files)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const auto& facts : test::sharedBvhFiles()) {
    const std::string file_name = facts.file;
    CAPTURE(file_name);
    const BvhMotion motion = readBvh(data_dir / "bvh" / facts.file);
    const std::string text = toText(motion);
    checkSameMotion(parseBvh(text), motion);
    // Writing is deterministic: a second round gives the same text.
    CHECK(toText(parseBvh(text)) == text);
  }
  // Through a file as well.
  const BvhMotion small = parseBvh(kSmall);
  const auto path = std::filesystem::temp_directory_path() / "retarget_bvh_roundtrip_test.bvh";
  writeBvh(small, path);
  checkSameMotion(readBvh(path), small);
  std::filesystem::remove(path);
}

TEST_CASE("bvh: random hierarchies with random channel orders round trip") {
  std::mt19937 rng(20261122);
  const int count = test::sweepCount(200);
  for (int trial = 0; trial < count; ++trial) {
    CAPTURE(trial);
    const BvhMotion motion = test::randomBvh(rng, 25, trial % 4);
    REQUIRE_NOTHROW(validateBvh(motion));
    const std::string text = toText(motion);
    const BvhMotion back = parseBvh(text);
    checkSameMotion(back, motion);
    // The same text with CRLF endings and tab indentation reads the same.
    checkSameMotion(parseBvh(replaceAll(text, "\n", "\r\n")), motion);
  }
}

TEST_CASE("bvh: the writer reorders joints depth-first and keeps each joint's values") {
  // Joints listed root, child B (of root), child A (of root) but with A's subtree written first
  // would break file order; here: root, a, b where b is a child of root listed after a's child.
  BvhMotion motion;
  motion.joints.resize(4);
  motion.joints[0] = {"root", -1, Eigen::Vector3d(0, 1, 0), {BvhChannel::kZrotation}, 0, false};
  motion.joints[1] = {"a", 0, Eigen::Vector3d(1, 0, 0), {BvhChannel::kXrotation}, 0, false};
  motion.joints[2] = {"b", 0, Eigen::Vector3d(-1, 0, 0), {BvhChannel::kYrotation}, 0, false};
  motion.joints[3] = {"a2", 1, Eigen::Vector3d(2, 0, 0), {BvhChannel::kZrotation}, 0, false};  // child of a, after b
  motion.assignChannelIndices();
  motion.frame_count = 2;
  motion.frame_time = 0.1;
  motion.values = {10, 20, 30, 40, 11, 21, 31, 41};
  const BvhMotion back = parseBvh(toText(motion));
  REQUIRE(back.joints.size() == 4);
  CHECK(back.joints[2].name == "a2");  // depth-first order
  for (int f = 0; f < 2; ++f) {
    for (const char* name : {"root", "a", "b", "a2"}) {
      CAPTURE(name);
      CHECK(back.localRotation(f, back.findJoint(name)).isApprox(motion.localRotation(f, motion.findJoint(name))));
    }
  }
  // Invariant violations are rejected.
  BvhMotion broken = motion;
  broken.joints[1].parent = 3;
  CHECK_THROWS_WITH_AS(toText(broken), doctest::Contains("has parent 3, expected -1 or an index below 1"),
                       InvalidArgument);
  broken = motion;
  broken.values.pop_back();
  CHECK_THROWS_WITH_AS(toText(broken), doctest::Contains("values has 7 entries, expected 2 x 4"), InvalidArgument);
}

TEST_CASE("bvh: localRotation with each of the 6 orders is the product of the axis rotations") {
  const char* const kOrders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> angle(-360, 360);
  for (const char* order : kOrders) {
    CAPTURE(order);
    std::string text = "HIERARCHY\nROOT R\n{\nOFFSET 0 0 0\nCHANNELS 3";
    for (int k = 0; k < 3; ++k) text += std::string(" ") + order[k] + "rotation";
    text += "\n}\nMOTION\nFrames: 1\nFrame Time: 1\n";
    const int trials = test::sweepCount(100);
    for (int t = 0; t < trials; ++t) {
      const double a[3] = {angle(rng), angle(rng), angle(rng)};
      char line[128];
      std::snprintf(line, sizeof line, "%.17g %.17g %.17g\n", a[0], a[1], a[2]);
      const BvhMotion motion = parseBvh(text + line);
      const Eigen::Matrix3d expected =
          axisRotation(order[0], a[0]) * axisRotation(order[1], a[1]) * axisRotation(order[2], a[2]);
      CHECK(motion.localRotation(0, 0).toRotationMatrix().isApprox(expected, 1e-12));
      // Intrinsic reading: rotating a vector applies the last channel first.
      const Eigen::Vector3d v(0.3, -1.2, 2.0);
      const Eigen::Vector3d stepwise = axisRotation(order[0], a[0]) * (axisRotation(order[1], a[1]) * (axisRotation(order[2], a[2]) * v));
      CHECK((motion.localRotation(0, 0) * v - stepwise).norm() < 1e-12);
    }
  }
}

TEST_CASE("bvh: forward kinematics keeps every bone length (shared files)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const auto& facts : test::sharedBvhFiles()) {
    const std::string file_name = facts.file;
    CAPTURE(file_name);
    const BvhMotion file_motion = readBvh(data_dir / "bvh" / facts.file);
    const BvhMotion motion = file_motion.frame_count > 0 ? file_motion : bvhRestPose(file_motion);
    std::vector<Eigen::Isometry3d> X_WJ;
    Eigen::Matrix3Xd p_WJ;
    std::vector<Eigen::Quaterniond> R_WJ;
    for (int f = 0; f < motion.frame_count; f += 7) {
      bvhGlobalPoses(motion, f, X_WJ);
      bvhGlobalPositions(motion, f, p_WJ, R_WJ);
      for (std::size_t j = 0; j < motion.joints.size(); ++j) {
        const BvhJoint& joint = motion.joints[j];
        CHECK((X_WJ[j].translation() - p_WJ.col(static_cast<Eigen::Index>(j))).norm() < 1e-9);
        CHECK(X_WJ[j].linear().isApprox(R_WJ[j].toRotationMatrix(), 1e-12));
        if (joint.parent < 0) continue;
        const Eigen::Vector3d p_PJ = motion.localTranslation(f, static_cast<int>(j));
        const double length = (X_WJ[j].translation() - X_WJ[static_cast<std::size_t>(joint.parent)].translation()).norm();
        CHECK(length == doctest::Approx(p_PJ.norm()).epsilon(1e-9));
      }
    }
  }
}

TEST_CASE("bvh: per-frame forward kinematics allocates nothing") {
  std::mt19937 rng(11);
  const BvhMotion motion = test::randomBvh(rng, 40, 5);
  std::vector<Eigen::Isometry3d> X_WJ(motion.joints.size());
  Eigen::Matrix3Xd p_WJ(3, static_cast<Eigen::Index>(motion.joints.size()));
  std::vector<Eigen::Quaterniond> R_WJ(motion.joints.size());
  double sink = 0;
  {
    test::NoAllocationScope scope;
    for (int f = 0; f < motion.frame_count; ++f) {
      bvhGlobalPoses(motion, f, X_WJ);
      bvhGlobalPositions(motion, f, p_WJ, R_WJ);
      for (int j = 0; j < static_cast<int>(motion.joints.size()); ++j) {
        sink += motion.localRotation(f, j).w() + motion.localTranslation(f, j).x();
      }
    }
    CHECK(scope.allocations() == 0);
  }
  CHECK(std::isfinite(sink));
}
