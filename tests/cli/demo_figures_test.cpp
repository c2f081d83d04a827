// The README's demo (apps/retarget/demo.sh) and the figures it shows: the per-link table of
// `retarget eval` (no JSON dump, no collision-margin line), the mapping's clamp and hold counts,
// the report's path; W (seed 001 Eq. 11) compares angles with the plain mapping of the method that
// produced them (1 for the same trajectory, Eq. 11 for a changed one, null when the method is
// unknown, never the constant of two different methods); MPJPE scales the robot uniformly, so
// NAO's proportions count and a perfect wave is not a perfect 0.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "cli/cli_runner.hpp"
#include "cli/json_output.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// The demo wave (as demo.sh makes it, shorter) written as skeleton CSV.
fs::path writeShortWave(const std::string& name) {
  const fs::path path = tempDir() / name;
  DemoMotionOptions options;
  options.rate = 15;
  options.duration = 3.0;
  writeSkeletonCsv(demoMotion("wave", options), path.string());
  return path;
}

}  // namespace

TEST_CASE("cli demo.sh: per-link table with clamps and holds, the report's path; no JSON dump, no margin line") {
  // tests/cli/<this file> -> the source tree; RETARGET_CLI_PATH = <build>/apps/retarget/retarget.
  const fs::path script =
      fs::path(__FILE__).parent_path().parent_path().parent_path() / "apps" / "retarget" / "demo.sh";
  REQUIRE_MESSAGE(fs::exists(script), script.string());
  const fs::path build = fs::path(RETARGET_CLI_PATH).parent_path().parent_path().parent_path();
  const fs::path out = tempDir() / "demo_sh";
  fs::remove_all(out);
  const fs::path log = tempDir() / "demo_sh.log";
  const std::string command =
      "sh " + quoted(script) + " " + quoted(build) + " " + quoted(out) + " >" + quoted(log) + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string text = slurp(log);
  INFO(text);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);

  // The per-link table and its means.
  for (const char* link : {"LeftUpperArm", "RightLowerArm", "LeftTibia", "Torso", "Head", "all links"}) {
    CAPTURE(link);
    CHECK(contains(text, std::string("\n  ") + link));
  }
  CHECK(contains(text, "WBF    best    LLF    best"));
  // The mapping's counts, read from map --json: the demo's wave needs neither clamp nor hold.
  CHECK(contains(text, "mapping: 0 of 181 frames clamped"));
  CHECK(contains(text, ", 0 held"));
  // Neither a JSON dump nor the self-collision family's margin line (nor any W against another
  // method's mapping).
  CHECK_FALSE(contains(text, "{"));
  CHECK_FALSE(contains(text, "\"wbf\""));
  CHECK_FALSE(contains(text, "margin"));
  CHECK_FALSE(contains(text, "0.333"));
  // The report: its path and how to open it.
  const fs::path html = out / "report.html";
  CHECK(fs::exists(html));
  CHECK(contains(text, "report: " + html.string()));
  CHECK(contains(text, "xdg-open '" + html.string() + "'"));
  CHECK(contains(text, "file://" + html.string()));

  // In the report: the mapped row compared with its own plain mapping has W 1 exactly (this checks
  // the wiring: another reference, e.g. a different method or a smoothed mapping, gives W < 1;
  // that W's formula gives the right value on unequal angles is checked against Eq. 11 written
  // out by hand in compare_commands_test.cpp, "cli compare: Baxter", through the same
  // evaluateCollision the report uses), and MPJPE
  // is the uniformly scaled one: NAO's proportions are not a human's, so not 0, with NAO scaled
  // by about three (NAO is 0.57 m tall, the demo's human 1.75 m).
  const nlohmann::json data = reportData(slurp(html));
  const nlohmann::json& row = data.at("/comparison/rows/0"_json_pointer);
  CHECK(row.at("/collision/reference"_json_pointer) == "ga-lvvj");
  CHECK(row.at("/collision/w/mean"_json_pointer).get<double>() == 1.0);
  CHECK(row.at("/collision/w/min"_json_pointer).get<double>() == 1.0);
  CHECK(row.at("/physical/mpjpe/scaling"_json_pointer) == "uniform");
  CHECK(row.at("/physical/mpjpe/mean"_json_pointer).get<double>() > 0.01);
  const double size_ratio = row.at("/physical/mpjpe/size_ratio"_json_pointer).get<double>();
  CHECK(size_ratio > 2.5);
  CHECK(size_ratio < 4.0);
  // Every figure of the table that needs explaining carries its note into the page.
  bool w_note = false, mpjpe_note = false;
  for (const auto& column : data.at("/comparison/columns"_json_pointer)) {
    const std::string header = column.at("header").get<std::string>();
    w_note = w_note || (header == "W" && contains(column.value("note", ""), "plain mapping"));
    mpjpe_note = mpjpe_note || (header == "MPJPE" && contains(column.value("note", ""), "scaling the whole robot"));
  }
  CHECK(w_note);
  CHECK(mpjpe_note);
}

TEST_CASE("cli eval: W of a trajectory against its own method's plain mapping is 1, and Eq. 11 once changed") {
  const auto nao = makeNao<double>();
  const fs::path motion = writeShortWave("w_wave.csv");
  const fs::path csv = tempDir() / "w_wave_ga-lvvj.csv";
  REQUIRE(run("map " + quoted(motion) + " --robot nao --method ga-lvvj -o " + quoted(csv)).code == 0);
  const std::string eval = "eval " + quoted(motion) + " ";
  const std::string tail = " --robot nao --metrics collision --json";

  const nlohmann::json same = parsedOutput(run(eval + quoted(csv) + tail));
  CHECK(same.at("reference") == "ga-lvvj");
  CHECK(same.at("/w/mean"_json_pointer).get<double>() == 1.0);
  CHECK(same.at("/w/min"_json_pointer).get<double>() == 1.0);

  // The same angles with the left shoulder pitch moved by a known amount in every other frame:
  // W = 1 / (1 + (d / range)^2) there (Eq. 11), 1 elsewhere.
  JointTrajectory angles = toRobotOrder(readJointTrajectoryCsv(csv.string()), nao);
  const int i = nao.qIndex("LShoulderPitch");
  const double range = nao.upperLimits()[i] - nao.lowerLimits()[i];
  const double d = 0.3;
  int changed = 0;
  for (Eigen::Index k = 0; k < angles.positions.rows(); k += 2) {
    angles.positions(k, i) += d;
    ++changed;
  }
  const fs::path moved = tempDir() / "w_wave_moved_ga-lvvj.csv";
  writeJointTrajectoryCsv(angles, moved.string());
  const nlohmann::json w = parsedOutput(run(eval + quoted(moved) + tail)).at("w");
  const double frames = static_cast<double>(angles.positions.rows());
  const double w_changed = 1.0 / (1.0 + (d / range) * (d / range));
  CHECK(w.at("min").get<double>() == doctest::Approx(w_changed).epsilon(1e-9));
  CHECK(w.at("mean").get<double>() ==
        doctest::Approx((changed * w_changed + (frames - changed)) / frames).epsilon(1e-9));

  // Angles whose method is unknown on a robot several methods apply to: W is not guessed.
  const fs::path anonymous = tempDir() / "w_wave_angles.csv";
  fs::copy_file(csv, anonymous, fs::copy_options::overwrite_existing);
  const nlohmann::json unknown = parsedOutput(run(eval + quoted(anonymous) + tail));
  CHECK(unknown.at("w").is_null());
  CHECK(unknown.at("reference").is_null());
  const Run text = run(eval + quoted(anonymous) + " --robot nao --metrics collision");
  REQUIRE(text.code == 0);
  CHECK(contains(text.out, "W (seed 001 Eq. 11): not computed"));

  // The triangle mapping's angles against the triangle mapping: 1, not the hands' difference
  // between GA-LVVJ (open) and the triangle mapping (at rest) that once read 0.333.
  const fs::path triangle = tempDir() / "w_wave_triangle.csv";
  REQUIRE(run("map " + quoted(motion) + " --robot nao --method triangle -o " + quoted(triangle)).code == 0);
  const nlohmann::json tri = parsedOutput(run(eval + quoted(triangle) + tail));
  CHECK(tri.at("reference") == "triangle");
  CHECK(tri.at("/w/mean"_json_pointer).get<double>() == 1.0);
}

TEST_CASE("cli report: two identical trajectories have W 1; NAO's MPJPE on the wave is the library's uniform one") {
  const auto nao = makeNao<double>();
  const fs::path motion = writeShortWave("r_wave.csv");
  const fs::path csv = tempDir() / "r_wave_ga-lvvj.csv";
  REQUIRE(run("map " + quoted(motion) + " --robot nao --method ga-lvvj -o " + quoted(csv)).code == 0);
  const fs::path html = tempDir() / "r_wave.html";
  const Run r =
      run("report " + quoted(motion) + " " + quoted(csv) + " --robot nao --method ga-lvvj -o " + quoted(html));
  INFO(r.err);
  REQUIRE(r.code == 0);
  const nlohmann::json data = reportData(slurp(html));
  const nlohmann::json& rows = data.at("/comparison/rows"_json_pointer);
  REQUIRE(rows.size() == 2);  // the CSV, then the same mapping made by the report

  // Recomputed with the library: the robot scaled uniformly to the human's size.
  const auto human = readSkeletonCsv(motion.string());
  const JointTrajectory angles = toRobotOrder(readJointTrajectoryCsv(csv.string()), nao);
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  const MotionPositionError expected =
      motionPositionError(view, human, angles.positions, PositionErrorScaling::kUniform);
  REQUIRE(expected.mpjpe > 0.01);
  for (const auto& row : rows) {
    CAPTURE(row.at("label").get<std::string>());
    CHECK(row.at("/collision/w/mean"_json_pointer).get<double>() == 1.0);
    CHECK(row.at("/collision/reference"_json_pointer) == "ga-lvvj");
    CHECK(row.at("/physical/mpjpe/mean"_json_pointer).get<double>() == doctest::Approx(expected.mpjpe).epsilon(1e-9));
    CHECK(row.at("/physical/mpjpe/size_ratio"_json_pointer).get<double>() ==
          doctest::Approx(expected.size_ratio).epsilon(1e-9));
  }
  // The per-frame W curve of the page is 1 everywhere, not a constant below it.
  for (const auto& page_row : data.at("rows")) {
    for (const auto& curve : page_row.at("curves")) {
      if (curve.at("name") != "W") continue;
      for (const auto& value : curve.at("values")) CHECK(value.get<double>() == 1.0);
    }
  }
}

TEST_CASE("cli eval text: the similarity table, one row per link, with the means and what each figure compares") {
  const fs::path motion = writeShortWave("t_wave.csv");
  const fs::path csv = tempDir() / "t_wave_ga-lvvj.csv";
  REQUIRE(run("map " + quoted(motion) + " --robot nao --method ga-lvvj -o " + quoted(csv)).code == 0);
  const Run r = run("eval " + quoted(motion) + " " + quoted(csv) + " --robot nao --metrics similarity");
  REQUIRE(r.code == 0);
  const nlohmann::json json =
      parsedOutput(run("eval " + quoted(motion) + " " + quoted(csv) + " --robot nao --metrics similarity --json"));
  // The row of each link holds its achieved and best reachable WBF and LLF, rounded as printed.
  for (const auto& [link, values] : json.at("links").items()) {
    CAPTURE(link);
    const std::size_t at = r.out.find("\n  " + link + " ");
    REQUIRE(at != std::string::npos);
    const std::string line = r.out.substr(at + 1, r.out.find('\n', at + 1) - at - 1);
    std::istringstream cells(line.substr(2 + link.size()));
    double wbf = 0, wbf_best = 0, llf = 0, llf_best = 0;
    cells >> wbf >> wbf_best >> llf >> llf_best;
    CHECK(wbf == doctest::Approx(values.at("wbf").get<double>()).epsilon(6e-4));
    CHECK(wbf_best == doctest::Approx(values.at("wbf_best_reachable").get<double>()).epsilon(6e-4));
    CHECK(llf == doctest::Approx(values.at("llf").get<double>()).epsilon(6e-4));
    CHECK(llf_best == doctest::Approx(values.at("llf_best_reachable").get<double>()).epsilon(6e-4));
  }
  CHECK(contains(r.out, "all links"));
  CHECK(contains(r.out, "seed 000 Eq. 44"));
  CHECK(contains(r.out, "seed 000 Eq. 46"));
  CHECK(contains(r.out, "best reachable"));
  CHECK_FALSE(contains(r.out, "margin"));
}
