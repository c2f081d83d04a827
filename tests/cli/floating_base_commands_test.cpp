// `retarget map --method humanoid --floating-base` (docs/datasets.md): the two commands of the
// walkthrough run as written (walk.bvh: the shared neutral walk), our CSV reads back with its
// header, contacts and a root on the ground, the Unitree file has no header, 7 + nq columns and
// 30 rows a second; the usage errors name what is wrong.

#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/io/floating_base_csv.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("cli floating base: the docs' G1 walkthrough writes our CSV and Unitree's layout") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path dir = tempDir();
  fs::copy_file(data_dir / "bvh" / "xia_cmu_skeleton31_neutral_walk_01_000.bvh", dir / "walk.bvh",
                fs::copy_options::overwrite_existing);
  const fs::path previous = fs::current_path();
  fs::current_path(dir);
  const Run ours = run("map walk.bvh --robot g1 --method humanoid --floating-base -o walk_g1.csv");
  const Run unitree =
      run("map walk.bvh --robot g1 --method humanoid --floating-base --format unitree --fps 30 -o walk_g1_unitree.csv");
  fs::current_path(previous);
  REQUIRE_MESSAGE(ours.code == 0, ours.err);
  REQUIRE_MESSAGE(unitree.code == 0, unitree.err);
  CHECK(contains(ours.err, "scale 0.74"));
  CHECK(contains(ours.err, "left_ankle_roll_link (collision primitives (sphere))"));

  const FloatingBaseTrajectory t = readFloatingBaseCsv((dir / "walk_g1.csv").string());
  CHECK(t.size() == 327);
  CHECK(t.q.cols() == 29);
  CHECK(t.joint_names.front() == "left_hip_pitch_joint");
  CHECK(t.joint_names[12] == "waist_yaw_joint");
  CHECK(t.contacts.col(0).sum() > 50);
  CHECK(t.contacts.col(1).sum() > 50);
  // The pelvis at a standing G1's height above the ground (0.79 m at rest), the whole take.
  CHECK(t.root_position.row(2).minCoeff() > 0.6);
  CHECK(t.root_position.row(2).maxCoeff() < 0.85);

  // The contacts family of eval reads our CSV back: the soles on the ground, planted and flat on
  // this walk (the bounds of issue 54), as the KDL test finds them.
  fs::current_path(dir);
  const Run contacts = run("eval walk.bvh walk_g1.csv --robot g1 --metrics contacts --json");
  const Run contacts_text = run("eval walk.bvh walk_g1.csv --robot g1 --metrics contacts");
  fs::current_path(previous);
  REQUIRE_MESSAGE(contacts.code == 0, contacts.err);
  REQUIRE_MESSAGE(contacts_text.code == 0, contacts_text.err);
  CHECK(contains(contacts_text.out, "contact agreement"));
  const nlohmann::json report = nlohmann::json::parse(contacts.out);
  CHECK(report["metric"] == "contacts");
  CHECK(report["penetration_frames"] == 0);
  for (const char* foot : {"left", "right"}) {
    const int stance = report[foot]["stance_frames"];
    CHECK(stance == t.contacts.col(std::string(foot) == "left" ? 0 : 1).sum());
    CHECK(report[foot]["floating_frames"].get<int>() <= 0.02 * stance);
    CHECK(report[foot]["sliding_frames"].get<int>() <= 0.02 * stance);
    CHECK(report[foot]["tilted_frames"].get<int>() <= 0.02 * stance);
  }
  // Agreement is a diagnostic with no bound of its own (the robot's foot stays down through the
  // human's heel-off, which the flat-foot labels do not count as stance): a fraction.
  CHECK(report["agreement"].get<double>() >= 0.0);
  CHECK(report["agreement"].get<double>() <= 1.0);
  CHECK(report["root_path_rms"].get<double>() < 0.05);

  // compare: the fixed-base and floating-base humanoid rows side by side; the contacts columns
  // are the floating row's alone, and equal eval's.
  fs::current_path(dir);
  const Run compared = run("compare walk.bvh --robot g1 --method humanoid,humanoid:floating-base --json");
  fs::current_path(previous);
  REQUIRE_MESSAGE(compared.code == 0, compared.err);
  const nlohmann::json compared_rows = nlohmann::json::parse(compared.out)["rows"];
  REQUIRE(compared_rows.size() == 2);
  CHECK_FALSE(compared_rows[0].contains("contacts"));
  REQUIRE(compared_rows[1].contains("contacts"));
  CHECK(compared_rows[1]["contacts"]["agreement"] == report["agreement"]);
  CHECK(compared_rows[1]["contacts"]["penetration_frames"] == 0);

  // Unitree's layout: no header, 7 + 29 numbers a row, 30 rows a second over the take's 2.71 s.
  const std::string text = slurp(dir / "walk_g1_unitree.csv");
  std::istringstream lines(text);
  std::string line;
  int rows = 0;
  while (std::getline(lines, line)) {
    int columns = 1;
    for (char c : line) columns += c == ',' ? 1 : 0;
    CHECK(columns == 36);
    double first = 0;
    CHECK(std::sscanf(line.c_str(), "%lf", &first) == 1);  // a number, not a header
    ++rows;
  }
  CHECK(rows == static_cast<int>(std::floor(t.time.back() * 30 + 1e-9)) + 1);

  // The batch command of docs/datasets.md over a folder of two takes.
  fs::create_directories(dir / "takes" / "walks");
  fs::copy_file(data_dir / "bvh" / "xia_cmu_skeleton31_strutting_walk_01_000.bvh",
                dir / "takes" / "walks" / "strut.bvh", fs::copy_options::overwrite_existing);
  fs::copy_file(data_dir / "bvh" / "mixamo_rig_55j_fingers_20tab_test_freebvh.bvh", dir / "takes" / "mixamo.bvh",
                fs::copy_options::overwrite_existing);
  fs::remove_all(dir / "g1_dataset");
  fs::current_path(dir);
  const Run batch =
      run("batch takes --robot g1 --method humanoid --floating-base --format unitree --fps 30 -o g1_dataset");
  fs::current_path(previous);
  REQUIRE_MESSAGE(batch.code == 0, batch.err);
  CHECK(fs::exists(dir / "g1_dataset" / "walks" / "strut.csv"));
  CHECK(fs::exists(dir / "g1_dataset" / "mixamo.csv"));
  const std::string summary = slurp(dir / "g1_dataset" / "summary.jsonl");
  CHECK(contains(summary, "\"floating_base\":\"unitree\""));
  CHECK(contains(summary, "\"stance_frames_left\""));
  // The batch file equals `map`'s for the same take.
  fs::current_path(dir);
  const Run single =
      run("map takes/mixamo.bvh --robot g1 --method humanoid --floating-base --format unitree --fps 30 -o m.csv");
  fs::current_path(previous);
  REQUIRE_MESSAGE(single.code == 0, single.err);
  CHECK(slurp(dir / "m.csv") == slurp(dir / "g1_dataset" / "mixamo.csv"));

  const Run wrong_method = run("map " + quoted(dir / "walk.bvh") + " --robot g1 --method ga-lvvj --floating-base -o " +
                               quoted(dir / "x.csv"));
  CHECK(wrong_method.code != 0);
  CHECK(contains(wrong_method.err, "--floating-base works with --method humanoid only"));
  const Run no_flag = run("map " + quoted(dir / "walk.bvh") + " --robot g1 --method humanoid --format unitree -o " +
                          quoted(dir / "x.csv"));
  CHECK(no_flag.code != 0);
  CHECK(contains(no_flag.err, "need --floating-base"));
  const Run filtered = run("map " + quoted(dir / "walk.bvh") +
                           " --robot g1 --method humanoid --floating-base --smooth 0.5 -o " + quoted(dir / "x.csv"));
  CHECK(filtered.code != 0);
  CHECK(contains(filtered.err, "would move the planted feet"));
}
