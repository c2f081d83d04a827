// `retarget map --whole-body` (seed 000, Sections 3.5, 4, 5): the written angles are the
// library's pipeline output, the summary names the support modes entered with their frame
// counts, the events file lists every transition and walk command as JSON lines; flags that
// do not go with it are usage errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/control/whole_body.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/robots/nao.hpp>

#include "cli/cli_runner.hpp"
#include "support/nao_whole_body.hpp"
#include "support/step_takes.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("cli map --whole-body: the library's angles, the modes in the summary, every event in the file") {
  const auto nao = makeNao();
  for (const char* name : {"one-leg-stand", "walk-in-place"}) {
    const fs::path motion = tempDir() / (std::string("wb_") + name + ".csv");
    const fs::path angles = tempDir() / (std::string("wb_") + name + "_q.csv");
    const fs::path events = tempDir() / (std::string("wb_") + name + "_events.jsonl");
    writeSkeletonCsv(demoMotion(name, DemoMotionOptions{30.0, 12.0, 1.75}), motion.string());
    const Run r = run("map " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body -o " + quoted(angles) +
                      " --events " + quoted(events));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CAPTURE(name);
    // The library, on the motion as written (the CSV round trip is what the command reads).
    auto pipeline = test::naoWholeBody(nao);
    std::vector<SupportModeEvent> transitions;
    std::vector<WalkCommand> walks;
    std::vector<StepRefusal> refusals;
    std::map<SupportMode, int> frames_in;
    const MappedMotion<double> expected =
        mapMotion(pipeline, readSkeletonCsv(motion.string()), [&](std::size_t, const app::GaLvvjWholeBody& p) {
          ++frames_in[p.report().mode];
          if (p.report().changed) transitions.push_back(p.report().event);
          if (p.report().modes.has_walk_command) walks.push_back(p.report().modes.command);
          if (p.report().modes.refused) refusals.push_back(p.report().modes.refusal);
        });
    const JointTrajectory written = toRobotOrder(readJointTrajectoryCsv(angles.string()), nao);
    REQUIRE(written.positions.rows() == expected.q.rows());
    CHECK((written.positions - expected.q).cwiseAbs().maxCoeff() <= 1e-12);
    std::ifstream in(events);
    std::vector<nlohmann::json> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
    REQUIRE(lines.size() == transitions.size() + walks.size() + refusals.size());
    std::size_t t = 0, w = 0, f = 0;
    for (const auto& line : lines) {
      if (line["event"] == "refused") {
        REQUIRE(f < refusals.size());
        CHECK(line["reason"] == stepRefusalReasonName(refusals[f].reason));
        CHECK(line["time"].get<double>() == doctest::Approx(refusals[f].end_time));
        ++f;
      } else if (line["event"] == "mode") {
        REQUIRE(t < transitions.size());
        CHECK(line["frame"] == transitions[t].frame);
        CHECK(line["from"] == supportModeName(transitions[t].from));
        CHECK(line["to"] == supportModeName(transitions[t].to));
        ++t;
      } else {
        CHECK(line["event"] == "walk");
        REQUIRE(w < walks.size());
        CHECK(line["frame"] == walks[w].frame);
        CHECK(line["dx"].get<double>() == doctest::Approx(walks[w].dx));
        CHECK(line["dtheta"].get<double>() == doctest::Approx(walks[w].dtheta));
        ++w;
      }
    }
    if (std::string(name) == "one-leg-stand") {
      // The summary counts the robot's modes as the library reports them.
      CHECK(frames_in[SupportMode::kSingleRight] > 100);
      CHECK(contains(r.err, "support modes double " + std::to_string(frames_in[SupportMode::kDouble]) +
                                " frames (entered 2x), single-right " +
                                std::to_string(frames_in[SupportMode::kSingleRight]) + " frames (entered 2x)"));
      CHECK(contains(r.err, "0 walk commands"));
      CHECK(walks.empty());
    } else {
      CHECK(contains(r.err, "walking"));
      CHECK(!walks.empty());
    }
    CHECK(contains(r.err, "steps not taken in 0 frames"));
  }
}

TEST_CASE("cli map --whole-body: what does not go with it") {
  const fs::path motion = tempDir() / "wb_errors.csv", out = tempDir() / "wb_errors_q.csv";
  writeSkeletonCsv(demoMotion("wave", DemoMotionOptions{30.0, 1.0, 1.75}), motion.string());
  const std::string base = "map " + quoted(motion) + " -o " + quoted(out) + " ";
  const Run pepper = run(base + "--robot pepper --method ga-lvvj --whole-body");
  CHECK(pepper.code == 2);
  CHECK(contains(pepper.err, "no sole frames"));
  const Run pic = run(base + "--robot nao --method pic --whole-body");
  CHECK(pic.code == 2);
  CHECK(contains(pic.err, "--whole-body works with --method ga-lvvj or humanoid only"));
  const Run events = run(base + "--robot nao --method ga-lvvj --events " + quoted(tempDir() / "e.jsonl"));
  CHECK(events.code == 2);
  CHECK(contains(events.err, "need --whole-body"));
  const Run smooth = run(base + "--robot nao --method ga-lvvj --whole-body --smooth 0.5");
  CHECK(smooth.code == 2);
  CHECK(contains(smooth.err, "the balance stage comes last"));
}

TEST_CASE("cli map --whole-body --config: whole-body options from JSON; a bad value names the pointer") {
  const fs::path motion = tempDir() / "wb_config.csv", out = tempDir() / "wb_config_q.csv";
  writeSkeletonCsv(demoMotion("one-leg-stand", DemoMotionOptions{30.0, 6.0, 1.75}), motion.string());
  const fs::path config = tempDir() / "wb_config.json", bad = tempDir() / "wb_bad.json";
  write(config, R"({"modes": {"lift_height": 0.5}})");  // no lift is that high: double support only
  const Run r = run("map " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body --config " + quoted(config) +
                    " -o " + quoted(out));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.err, "support modes double 181 frames;"));
  write(bad, "{\n  \"balance\": {\"safety_margin\": -0.01}\n}");
  const Run b = run("map " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body --config " + quoted(bad) +
                    " -o " + quoted(out));
  CHECK(b.code != 0);
  CHECK(contains(b.err, "wb_bad.json:2"));
  CHECK(contains(b.err, "/balance/safety_margin"));
}

TEST_CASE("cli --whole-body in compare, report, batch and live: the same angles as map --whole-body") {
  const fs::path dir = tempDir() / "wb_everywhere";
  fs::create_directories(dir / "in");
  const fs::path motion = dir / "in" / "one_leg.csv";
  writeSkeletonCsv(demoMotion("one-leg-stand", DemoMotionOptions{30.0, 12.0, 1.75}), motion.string());
  Run r = run("map " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body -o " + quoted(dir / "map.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  // The robot's modes as the library reports them, per frame.
  const auto nao = makeNao();
  auto pipeline = test::naoWholeBody(nao);
  std::map<std::string, int> frames_in;
  (void)mapMotion(pipeline, readSkeletonCsv(motion.string()),
                  [&](std::size_t, const app::GaLvvjWholeBody& p) { ++frames_in[supportModeName(p.report().mode)]; });
  REQUIRE(frames_in.size() == 2);  // double and single-right

  // compare: plain GA-LVVJ beside the whole-body row.
  r = run("compare " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body --json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json compared = nlohmann::json::parse(r.out);
  std::vector<std::string> labels;
  for (const auto& row : compared["rows"]) labels.push_back(row["label"].get<std::string>());
  CHECK(labels == std::vector<std::string>{"ga-lvvj", "ga-lvvj:whole-body"});
  const nlohmann::json& modes = compared["rows"][1]["mapping"]["support_modes"];
  for (const auto& [mode, count] : frames_in) CHECK(modes[mode].get<int>() == count);
  CHECK(compared["rows"][1]["mapping"]["balance_held_frames"] == 0);
  CHECK(!compared["rows"][0]["mapping"].contains("support_modes"));
  // The same row asked for by its spec; a method the pipeline does not go with is refused.
  r = run("compare " + quoted(motion) + " --robot nao --method ga-lvvj:whole-body --json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(nlohmann::json::parse(r.out)["rows"][0]["mapping"]["support_modes"] == modes);
  r = run("compare " + quoted(motion) + " --robot nao --method triangle:whole-body");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "whole-body pipeline (whole-body) goes with ga-lvvj and humanoid only"));
  r = run("compare " + quoted(motion) + " --robot pepper --method ga-lvvj:whole-body");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "no sole frames"));

  // report: both rows.
  r = run("report " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body -o " + quoted(dir / "report.html"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.err, "2 rows"));
  CHECK(contains(slurp(dir / "report.html"), "ga-lvvj:whole-body"));

  // batch: the file map writes, and the robot's modes in the summary.
  r = run("batch " + quoted(dir / "in") + " --robot nao --method ga-lvvj --whole-body -j 1 -o " + quoted(dir / "out"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(slurp(dir / "out" / "one_leg.csv") == slurp(dir / "map.csv"));
  const std::string summary = slurp(dir / "out" / "summary.jsonl");
  const nlohmann::json line = nlohmann::json::parse(summary.substr(0, summary.find('\n')));
  CHECK(line["whole_body"] == true);
  for (const auto& [mode, count] : frames_in) CHECK(line["support_modes"][mode].get<int>() == count);

  // live: a replay through the pipeline writes what map writes.
  r = run("live --source replay:" + quoted(motion) + " --replay-speed 0 --robot nao --method ga-lvvj --whole-body --sink csv:" +
          quoted(dir / "live.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(slurp(dir / "live.csv") == slurp(dir / "map.csv"));
}

TEST_CASE("cli map --trunk-lean and ga-lvvj:trunk-lean: the library's leaning angles; no feet, no lean") {
  const auto nao = makeNao();
  const fs::path motion = tempDir() / "lean_bow.csv";
  const fs::path angles = tempDir() / "lean_bow_q.csv";
  writeSkeletonCsv(demoMotion("bow", DemoMotionOptions{15.0, 6.0, 1.75}), motion.string());
  const Run r = run("map " + quoted(motion) + " --robot nao --method ga-lvvj --trunk-lean -o " + quoted(angles));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  GaLvvjOptions options;
  options.trunk_lean = true;
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap(), options);
  const MappedMotion<double> expected = mapMotion(mapper, readSkeletonCsv(motion.string()));
  const JointTrajectory written = toRobotOrder(readJointTrajectoryCsv(angles.string()), nao);
  REQUIRE(written.positions.rows() == expected.q.rows());
  CHECK((written.positions - expected.q).cwiseAbs().maxCoeff() <= 1e-12);
  // The ankles move (the paper's mapping leaves them at rest).
  CHECK(written.positions.col(nao.qIndex("LAnklePitch")).cwiseAbs().maxCoeff() > 0.1);

  // compare takes the method spec beside the plain mapping.
  const Run c = run("compare " + quoted(motion) + " --robot nao --method ga-lvvj,ga-lvvj:trunk-lean --json");
  REQUIRE_MESSAGE(c.code == 0, c.err);
  CHECK(contains(c.out, "ga-lvvj:trunk-lean"));

  // Pepper's map has no feet: a usage error naming the robot, for map and for the method spec.
  const Run p = run("map " + quoted(motion) + " --robot pepper --method ga-lvvj --trunk-lean -o " + quoted(angles));
  CHECK(p.code == 2);
  CHECK(contains(p.err, "no feet"));
  const Run pc = run("compare " + quoted(motion) + " --robot pepper --method ga-lvvj:trunk-lean");
  CHECK(pc.code == 2);
  CHECK(contains(pc.err, "no feet"));
  const Run t = run("map " + quoted(motion) + " --robot nao --method triangle --trunk-lean -o " + quoted(angles));
  CHECK(t.code == 2);
  CHECK(contains(t.err, "--trunk-lean works with --method ga-lvvj only"));
}

TEST_CASE("cli map --whole-body: a kick is refused, in the summary and in the events file") {
  const fs::path motion = tempDir() / "wb_kick.csv";
  const fs::path angles = tempDir() / "wb_kick_q.csv";
  const fs::path events = tempDir() / "wb_kick_events.jsonl";
  writeSkeletonCsv(stepTake("kick", 60.0), motion.string());
  const Run r = run("map " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body -o " + quoted(angles) +
                    " --events " + quoted(events));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.err, "support modes double"));
  CHECK(contains(r.err, "1 steps refused (1 too fast for the robot's legs, 0 too short to stand on one foot)"));
  std::ifstream in(events);
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  REQUIRE(lines.size() == 1);  // no mode change: the robot stays on both feet
  CHECK(lines[0]["event"] == "refused");
  CHECK(lines[0]["reason"] == "too-fast");
  CHECK(lines[0]["foot"] == "right");
  CHECK(lines[0]["peak_speed"].get<double>() > 4.4);
  CHECK(lines[0]["start"].get<double>() < lines[0]["time"].get<double>());
}

// Issue 53: the balance runs in the input's time at any rate. The written file is read here by
// hand (its time column and the angles), and every joint's speed between two written frames,
// |q_k - q_{k-1}| / (t_k - t_{k-1}), is checked against the robot's velocity limit and the
// balance's cap (BalanceOptions::max_joint_speed). Before the fix a 120 Hz frame got a whole
// 20 ms period for 8.3 ms of motion (2.4 times the speed). The motions move faster than NAO's
// joints may, so the limits are reached at every rate (checked: some frame within 10 % of it).
TEST_CASE("cli map --whole-body: joint speeds within the robot's limits in real time at 24 to 125 Hz") {
  const auto nao = makeNao();
  const WholeBodyOptions defaults;
  for (const double rate : {24.0, 30.0, 60.0, 100.0, 120.0, 125.0}) {
    for (const char* name : {"one-leg-stand", "arm-circles"}) {
      CAPTURE(rate);
      CAPTURE(name);
      const std::string stem = std::string("wb_speed_") + name + "_" + std::to_string(static_cast<int>(rate));
      const fs::path motion = tempDir() / (stem + ".csv");
      const fs::path angles = tempDir() / (stem + "_q.csv");
      // Faster than the demo: its 9 s in 3 s, at `rate`.
      SkeletonMotiond human = demoMotion(name, DemoMotionOptions{rate / 3.0, 9.0, 1.75});
      for (auto& f : human.frames) f.time /= 3.0;
      writeSkeletonCsv(human, motion.string());
      const Run r = run("map " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body -o " + quoted(angles));
      REQUIRE_MESSAGE(r.code == 0, r.err);
      std::ifstream in(angles);
      std::string line;
      REQUIRE(std::getline(in, line));
      std::vector<std::string> header;
      for (std::stringstream fields(line); std::getline(fields, line, ',');) header.push_back(line);
      REQUIRE(header.size() == static_cast<std::size_t>(nao.nq()) + 1);
      REQUIRE(header[0] == "time");
      std::vector<double> limit(header.size(), 0.0);  // rad/s per column
      for (std::size_t c = 1; c < header.size(); ++c) {
        const int i = nao.qIndex(header[c]);
        REQUIRE(i >= 0);
        limit[c] = std::min(static_cast<double>(nao.velocityLimits()[i]), defaults.balance.max_joint_speed);
      }
      std::vector<double> previous, row;
      double worst = 0.0;  // largest speed / limit
      std::string where;
      int rows = 0;
      while (std::getline(in, line)) {
        row.clear();
        for (std::stringstream fields(line); std::getline(fields, line, ',');) row.push_back(std::stod(line));
        REQUIRE(row.size() == header.size());
        ++rows;
        if (!previous.empty()) {
          const double dt = row[0] - previous[0];
          REQUIRE(dt > 0.0);
          for (std::size_t c = 1; c < row.size(); ++c) {
            const double ratio = std::abs(row[c] - previous[c]) / dt / limit[c];
            if (ratio > worst) {
              worst = ratio;
              where = header[c] + " at t = " + std::to_string(row[0]) + " s";
            }
          }
        }
        previous = row;
      }
      CHECK(rows == static_cast<int>(human.size()));
      INFO("fastest joint: " << where << ", " << worst << " of its limit");
      CHECK(worst <= 1.0 + 1e-6);
      CHECK(worst >= 0.9);  // the motion does reach the limits: the check above bites
    }
  }
}
