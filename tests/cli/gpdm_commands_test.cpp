// `retarget learn gpdm` and `retarget map --method gpdm-pf` (seed 003, Sections 4-7): a model
// learned from GA-LVVJ angles of the demo wave is written, reads back with the library, and
// drives the GPDM particle filter to the library's output; the same command gives the same
// file; missing or broken models are clear errors.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <string>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/gpdm_model.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/robots/nao.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("cli learn gpdm, then map --method gpdm-pf: the library's model and output, the same file twice") {
  const auto nao = makeNao();
  const fs::path train_motion = tempDir() / "gpdm_wave_10hz.csv", test_motion = tempDir() / "gpdm_wave_30hz.csv";
  writeSkeletonCsv(demoMotion("wave", DemoMotionOptions{10.0, 6.0, 1.75}), train_motion.string());
  writeSkeletonCsv(demoMotion("wave", DemoMotionOptions{30.0, 2.0, 1.70}), test_motion.string());
  const fs::path angles = tempDir() / "gpdm_wave_angles.csv", model_path = tempDir() / "gpdm_wave.gpdm";
  REQUIRE(run("map " + quoted(train_motion) + " --robot nao --method ga-lvvj -o " + quoted(angles)).code == 0);

  const Run learned = run("learn gpdm " + quoted(angles) + " --robot nao --iterations 60 -o " + quoted(model_path));
  REQUIRE_MESSAGE(learned.code == 0, learned.err);
  CHECK(contains(learned.err, "iteration 0/60"));  // the progress line
  CHECK(contains(learned.out, "61 frames"));
  CHECK(contains(learned.out, "training reconstruction RMS"));
  const GpdmModelFile file = loadGpdmModel(model_path.string());
  CHECK(file.model.frames() == 61);
  CHECK(file.model.latentDim() == 3);
  REQUIRE(file.joint_names.size() == static_cast<std::size_t>(nao.nq()));
  for (int i = 0; i < nao.nq(); ++i) CHECK(file.joint_names[static_cast<std::size_t>(i)] == nao.qName(i));
  CHECK(file.model.scales().isOnes());  // W = 1 unless asked to learn it
  // --learn-scales: the stored W is the closed-form optimum of the learned model (not all 1).
  const fs::path scaled_path = tempDir() / "gpdm_wave_scaled.gpdm";
  const Run scaled = run("learn gpdm " + quoted(angles) + " --robot nao --iterations 20 --learn-scales -o " + quoted(scaled_path));
  REQUIRE_MESSAGE(scaled.code == 0, scaled.err);
  const GpdmModelFile scaled_file = loadGpdmModel(scaled_path.string());
  CHECK_FALSE(scaled_file.model.scales().isOnes());

  const std::string map = "map " + quoted(test_motion) + " --robot nao --method gpdm-pf --model " + quoted(model_path) +
                          " --particles 12 -o ";
  const fs::path first = tempDir() / "gpdm_pf_1.csv", second = tempDir() / "gpdm_pf_2.csv";
  const Run r = run(map + quoted(first));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.err, "12 particles, seed 1"));
  REQUIRE(run(map + quoted(second)).code == 0);
  CHECK(slurp(first) == slurp(second));

  const JointTrajectory written = toRobotOrder(readJointTrajectoryCsv(first.string()), nao);
  const auto motion = readSkeletonCsv(test_motion.string());
  GpdmFilterMap filter_map;
  filter_map.motion_model = file.model;
  filter_map.joints = file.joint_names;
  filter_map.frame_period = file.frame_period;
  filter_map.fit_threshold = file.fit_threshold;
  CHECK(file.frame_period == doctest::Approx(0.1));  // the 10 Hz angles' period
  CHECK_FALSE(file.fit_threshold);                   // angles alone: no recording to measure the fit on
  GpdmParticleFilterOptions options;
  options.particles = 12;
  GpdmParticleFilter<double> filter(nao, filter_map, options);
  const MappedMotion<double> expected = mapMotion(filter, motion);
  REQUIRE(written.positions.rows() == expected.q.rows());
  for (Eigen::Index k = 0; k < expected.q.rows(); ++k) {
    const Eigen::VectorXd q = written.positions.row(k).transpose();
    CHECK(withinLimits(nao, q, 1e-12));
    CHECK((q - expected.q.row(k).transpose()).cwiseAbs().maxCoeff() <= 1e-12);
  }
  const fs::path seeded = tempDir() / "gpdm_pf_seed.csv";
  REQUIRE(run(map + quoted(seeded) + " --seed 2").code == 0);
  CHECK(slurp(seeded) != slurp(first));

  // From the recording itself: GA-LVVJ maps it, and the fit threshold is measured on it; the
  // map reports the frames the model does not explain, and the fallback writes GA-LVVJ there.
  const fs::path from_recording = tempDir() / "gpdm_wave_from_recording.gpdm";
  const Run recorded = run("learn gpdm " + quoted(train_motion) + " --robot nao --iterations 60 -o " + quoted(from_recording));
  REQUIRE_MESSAGE(recorded.code == 0, recorded.err);
  CHECK(contains(recorded.out, "fit threshold"));
  const GpdmModelFile measured = loadGpdmModel(from_recording.string());
  REQUIRE(measured.fit_threshold);
  CHECK(*measured.fit_threshold > 0.9);
  CHECK(*measured.fit_threshold <= 1.0);
  CHECK(measured.model.frames() == file.model.frames());
  // Several recordings of different formats (our skeleton CSV, a Kinect LabanotationSuite CSV)
  // make one model, one sequence each.
  // Without the shared data this part is reported as a partial skip (a failure under
  // RETARGET_REQUIRE_DATA / RETARGET_REQUIRE_ALL), not left out silently.
  const auto data = testDataDir();
  if (!data) recordMissingData("learn gpdm on two recordings (the Kinect wave)");
  if (data) {
    const fs::path kinect_wave = *data / "kinect" / "laban_ges01_wavehand_kinect2.csv";
    const fs::path two = tempDir() / "gpdm_wave_two_recordings.gpdm";
    const Run both = run("learn gpdm " + quoted(train_motion) + " " + quoted(kinect_wave) +
                         " --robot nao --every 3 --iterations 20 -o " + quoted(two));
    REQUIRE_MESSAGE(both.code == 0, both.err);
    CHECK(contains(both.out, "on the 2 training recording(s)"));
    const GpdmModelFile two_file = loadGpdmModel(two.string());
    CHECK(two_file.model.sequenceLengths().size() == 2);
    CHECK(two_file.fit_threshold.has_value());
  }
  const fs::path arms = tempDir() / "gpdm_arms_raise_30hz.csv";
  writeSkeletonCsv(demoMotion("arms-raise", DemoMotionOptions{30.0, 2.0, 1.70}), arms.string());
  const Run other = run("map " + quoted(arms) + " --robot nao --method gpdm-pf --model " + quoted(from_recording) +
                        " --fallback ga-lvvj --json -o " + quoted(second));
  REQUIRE_MESSAGE(other.code == 0, other.err);
  const nlohmann::json summary = nlohmann::json::parse(other.out);
  const nlohmann::json& details = summary.at("details");
  CHECK(details.at("fit_threshold_from_training") == true);
  CHECK(details.at("unexplained_frames") == summary.at("not_converged_frames"));
  CHECK(details.at("unexplained_frames").get<int>() > 0);  // raising both arms is not a wave
  CHECK(details.at("fallback_frames").get<int>() >= details.at("unexplained_frames").get<int>() - 1);
  CHECK(contains(other.err, "GA-LVVJ fallback in"));

  // compare and batch take gpdm-pf (with its model) and pf beside the other methods.
  const Run compared = run("compare " + quoted(arms) + " --robot nao --method ga-lvvj,pf,gpdm-pf,gpdm-pf:fallback=ga-lvvj --model " +
                           quoted(from_recording) + " --json");
  REQUIRE_MESSAGE(compared.code == 0, compared.err);
  const nlohmann::json table = nlohmann::json::parse(compared.out);
  REQUIRE(table.at("rows").size() == 4);
  CHECK(table.at("rows")[2].at("method") == "gpdm-pf");
  CHECK(table.at("rows")[2].at("/mapping/not_converged_frames"_json_pointer) == details.at("unexplained_frames"));
  // The fallback row is GA-LVVJ where the model does not explain the raised arms: its cosine is
  // above the plain GPDM-PF's.
  CHECK(table.at("rows")[3].at("/similarity/cosine/mean"_json_pointer).get<double>() >
        table.at("rows")[2].at("/similarity/cosine/mean"_json_pointer).get<double>());
  const Run no_model_compare = run("compare " + quoted(arms) + " --robot nao --method gpdm-pf --json");
  CHECK(no_model_compare.code == 2);
  CHECK(contains(no_model_compare.err, "needs --model"));
  const fs::path batch_in = tempDir() / "gpdm_batch_in", batch_out = tempDir() / "gpdm_batch_out";
  fs::create_directories(batch_in);
  fs::copy_file(arms, batch_in / "arms.csv", fs::copy_options::overwrite_existing);
  fs::copy_file(test_motion, batch_in / "wave.csv", fs::copy_options::overwrite_existing);
  const Run batched = run("batch " + quoted(batch_in) + " --robot nao --method gpdm-pf --model " + quoted(from_recording) +
                          " -o " + quoted(batch_out));
  REQUIRE_MESSAGE(batched.code == 0, batched.err);
  CHECK(fs::exists(batch_out / "arms.csv"));
  CHECK(fs::exists(batch_out / "wave.csv"));

  // Errors: no model, a broken model (named with its line), a model for other joints.
  const Run no_model = run("map " + quoted(test_motion) + " --robot nao --method gpdm-pf -o " + quoted(second));
  CHECK(no_model.code == 2);
  CHECK(contains(no_model.err, "needs --model"));
  const fs::path broken = tempDir() / "gpdm_broken.gpdm";
  write(broken, "retarget-gpdm 1\nframes two\n");
  const Run bad = run(map.substr(0, map.find("--model")) + "--model " + quoted(broken) + " -o " + quoted(second));
  CHECK(bad.code != 0);
  CHECK(contains(bad.err, "gpdm_broken.gpdm:2"));
  const Run wrong_robot = run("map " + quoted(test_motion) + " --robot pepper --method gpdm-pf --model " +
                              quoted(model_path) + " -o " + quoted(second));
  CHECK(wrong_robot.code != 0);
  CHECK(contains(wrong_robot.err, "joints"));
  // A joint trajectory none of whose columns is a coordinate of the robot.
  const fs::path foreign = tempDir() / "gpdm_foreign_angles.csv";
  write(foreign, "time,NotAJoint\n0,1\n0.1,2\n0.2,3\n");
  const Run no_columns = run("learn gpdm " + quoted(foreign) + " --robot nao -o " + quoted(second));
  CHECK(no_columns.code != 0);
  CHECK(contains(no_columns.err, "gpdm_foreign_angles.csv"));
}

TEST_CASE("cli gpdm_held_out.sh: learns from some recordings, tracks others, one table row per method") {
  const fs::path script =
      fs::path(__FILE__).parent_path().parent_path().parent_path() / "apps" / "retarget" / "gpdm_held_out.sh";
  REQUIRE_MESSAGE(fs::exists(script), script.string());
  const fs::path build = fs::path(RETARGET_CLI_PATH).parent_path().parent_path().parent_path();
  const fs::path train = tempDir() / "held_out_wave.csv", test = tempDir() / "held_out_arms_raise.csv";
  writeSkeletonCsv(demoMotion("wave", DemoMotionOptions{10.0, 4.0, 1.75}), train.string());
  writeSkeletonCsv(demoMotion("arms-raise", DemoMotionOptions{30.0, 1.5, 1.70}), test.string());
  const fs::path log = tempDir() / "held_out.log";
  const std::string command = "bash " + quoted(script) + " " + quoted(build) + " --train " + quoted(train) + " --test " +
                              quoted(test) + " --iterations 30 >" + quoted(log) + " 2>&1";
  const int status = std::system(command.c_str());
  const std::string text = slurp(log);
  INFO(text);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  CHECK(contains(text, "fit threshold"));
  CHECK(contains(text, "held_out_arms_raise.csv (46 frames)"));
  for (const char* row : {"| ga-lvvj | ", "| pf:particles=50 | ", "| pf:particles=200 | ", "| pf:particles=800 | ",
                          "| gpdm-pf | ", "| gpdm-pf:fallback=ga-lvvj | "}) {
    CAPTURE(row);
    CHECK(contains(text, row));
  }
  // GA-LVVJ against itself: no lag.
  const std::size_t ga_lvvj_row = text.find("| ga-lvvj | ");
  REQUIRE(ga_lvvj_row != std::string::npos);
  CHECK(contains(text.substr(ga_lvvj_row, text.find('\n', ga_lvvj_row) - ga_lvvj_row), " | 0 | - | "));
  // Usage errors exit 2 naming the problem.
  const std::string usage = "bash " + quoted(script) + " " + quoted(build) + " --test " + quoted(test) + " >" +
                            quoted(log) + " 2>&1";
  const int bad = std::system(usage.c_str());
  REQUIRE(WIFEXITED(bad));
  CHECK(WEXITSTATUS(bad) == 2);
  CHECK(contains(slurp(log), "needs --train and --test"));
}
