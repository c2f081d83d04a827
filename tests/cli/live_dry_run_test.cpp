// `retarget live --dry-run`: opens no sink, and prints the input's survey and the mapped angles
// against the robot's limits. Its figures are checked against the library's own surveys of the
// same file (surveyInput) and against `retarget map`'s written angles (range per coordinate);
// a stream with a pause and a turned body gives those warnings and the clean one does not; a
// source that sends nothing fails naming it.

#include <doctest/doctest.h>

#include <algorithm>
#include <regex>
#include <sstream>

#include <retarget/human/demo_motions.hpp>
#include <retarget/human/input_survey.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

std::string fixed2(double value, int digits) {
  std::ostringstream text;
  text.setf(std::ios::fixed);
  text.precision(digits);
  text << value;
  return text.str();
}

// The dry run's table: coordinate name -> {first, min, max}.
std::map<std::string, std::array<double, 3>> tableOf(const std::string& out) {
  std::map<std::string, std::array<double, 3>> rows;
  std::istringstream lines(out);
  std::string line;
  bool in_table = false;
  while (std::getline(lines, line)) {
    if (line.find("  coordinate ") == 0) {
      in_table = true;
      continue;
    }
    if (!in_table) continue;
    if (line.rfind("  ", 0) != 0) break;
    std::istringstream fields(line);
    std::string name;
    std::array<double, 3> values{};
    fields >> name >> values[0] >> values[1] >> values[2];
    REQUIRE_MESSAGE(!fields.fail(), "unreadable table row: " << line);
    rows[name] = values;
  }
  return rows;
}

}  // namespace

TEST_CASE("cli live --dry-run: a generated stream's survey equals the library's; a pause and a turn are warned") {
  const fs::path dir = tempDir() / "dry_run";
  fs::create_directories(dir);
  DemoMotionOptions options;
  options.duration = 4.0;
  SkeletonMotion<double> wave = demoMotion("wave", options);
  writeSkeletonCsv(wave, (dir / "wave.csv").string());
  // The same wave with 12 frames (0.4 s) missing and the body turned 90 deg to its left.
  SkeletonMotion<double> altered = wave;
  altered.frames.erase(altered.frames.begin() + 50, altered.frames.begin() + 62);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(M_PI / 2, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  for (auto& frame : altered.frames) {
    for (auto& p : frame.p_W) p = R * p;
  }
  writeSkeletonCsv(altered, (dir / "altered.csv").string());

  const fs::path never = dir / "never_written.csv";
  const Run clean = run("live --source replay:" + quoted(dir / "wave.csv") +
                        " --replay-speed 0 --robot nao --method ga-lvvj --dry-run --sink csv:" + quoted(never));
  REQUIRE_MESSAGE(clean.code == 0, clean.err);
  CHECK(!fs::exists(never));
  CHECK(clean.out.find("not opened: csv:" + never.string()) != std::string::npos);
  CHECK(clean.out.find("nothing was sent") != std::string::npos);
  // The survey's figures are the library's, on the file as read back.
  const InputSurvey survey = surveyInput(readSkeletonCsv((dir / "wave.csv").string()).frames);
  CHECK(clean.out.find("input: " + std::to_string(wave.frames.size()) + " frames in 4.00 s, " + fixed2(survey.rate, 1) +
                       " Hz") != std::string::npos);
  CHECK(clean.out.find("head joint " + fixed2(survey.head_above_ankles, 2) + " m above the ankles, shoulders " +
                       fixed2(survey.shoulder_width, 2) + " m apart, facing " + fixed2(survey.facing, 0) + " deg") !=
        std::string::npos);
  CHECK(clean.out.find("paused") == std::string::npos);
  CHECK(clean.out.find("faces") == std::string::npos);
  CHECK(tableOf(clean.out).size() == static_cast<std::size_t>(makeNao<double>().nq()));  // one row per coordinate

  const Run turned = run("live --source replay:" + quoted(dir / "altered.csv") +
                         " --replay-speed 0 --robot nao --method ga-lvvj --dry-run");
  REQUIRE_MESSAGE(turned.code == 0, turned.err);
  CHECK(turned.out.find("no sink given") != std::string::npos);
  CHECK(turned.out.find("largest gap 0.433 s, 1 interval(s) over twice the median") != std::string::npos);
  CHECK(turned.out.find("warning: the input paused for 0.43 s") != std::string::npos);
  CHECK(turned.out.find("facing 90 deg") != std::string::npos);
  CHECK(turned.out.find("warning: the body faces 90 deg away") != std::string::npos);
}

TEST_CASE("cli live --dry-run: a source that sends nothing fails and names it") {
  const Run r = run("live --source kinect-osc:0 --robot nao --method ga-lvvj --dry-run --duration 0.3");
  CHECK(r.code == 1);
  CHECK(r.err.find("live --dry-run: no frame from kinect-osc:0 in 0.3 s") != std::string::npos);
}

TEST_CASE("cli live --dry-run: a Kinect recording onto the InMoov; the table's ranges are retarget map's") {
  const auto data_dir = testDataDir();
  if (!data_dir) {
    recordMissingData("live --dry-run on a shared Kinect recording");
    return;
  }
  const fs::path dir = tempDir() / "dry_run_inmoov";
  fs::create_directories(dir);
  const fs::path kinect = *data_dir / "kinect" / "laban_ges04_comehere_kinect2.csv";
  const Run dry = run("live --source replay:" + quoted(kinect) + " --replay-speed 0 --robot inmoov --method humanoid --dry-run");
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  const Run map = run("map " + quoted(kinect) + " --robot inmoov --method humanoid -o " + quoted(dir / "map.csv"));
  REQUIRE_MESSAGE(map.code == 0, map.err);
  const JointTrajectory written = readJointTrajectoryCsv((dir / "map.csv").string());
  const auto table = tableOf(dry.out);
  REQUIRE(table.size() == written.joint_names.size());
  for (std::size_t j = 0; j < written.joint_names.size(); ++j) {
    CAPTURE(written.joint_names[j]);
    REQUIRE(table.count(written.joint_names[j]) == 1);
    const auto& row = table.at(written.joint_names[j]);
    const auto column = written.positions.col(static_cast<Eigen::Index>(j));
    CHECK(std::abs(row[0] - column(0)) <= 0.0005 + 1e-12);
    CHECK(std::abs(row[1] - column.minCoeff()) <= 0.0005 + 1e-12);
    CHECK(std::abs(row[2] - column.maxCoeff()) <= 0.0005 + 1e-12);
  }
  CHECK(dry.out.find("mapped: " + std::to_string(written.positions.rows()) + " frames") != std::string::npos);
}

TEST_CASE("cli live --dry-run: a Noitom BVH replay reports its rotation order") {
  const auto data_dir = testDataDir();
  if (!data_dir) {
    recordMissingData("live --dry-run on the shared Noitom BVH");
    return;
  }
  const fs::path bvh = *data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh";
  const Run dry = run("live --source replay:" + quoted(bvh) + " --replay-speed 0 --robot inmoov --method euler --dry-run --duration 60");
  REQUIRE_MESSAGE(dry.code == 0, dry.err);
  CHECK(dry.out.find("input: 1650 frames") != std::string::npos);
  CHECK(dry.out.find("rotation order: the hierarchy's YXZ") != std::string::npos);
  CHECK(dry.out.find("no sign of another order") != std::string::npos);
  CHECK(dry.out.find("body: head joint") != std::string::npos);
}
