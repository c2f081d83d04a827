// The `retarget` program's mapper and metric commands (map, eval, synth, dtw, info --robot), run
// as a user would, and cross-checked against the same computation done through the library.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/weighted_dtw.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// Writes a demo motion with the library and returns its path.
fs::path writeDemo(const std::string& name, double duration) {
  const fs::path path = tempDir() / (name + ".csv");
  DemoMotionOptions options;
  options.rate = 30;
  options.duration = duration;
  writeSkeletonCsv(demoMotion(name, options), path.string());
  return path;
}

}  // namespace

TEST_CASE("cli map --method ga-lvvj equals the library mapper, within NAO's limits") {
  const auto nao = makeNao();
  for (const char* name : {"wave", "squat", "fold-arms"}) {
    CAPTURE(name);
    const fs::path motion_path = writeDemo(name, 2.0);
    const fs::path angles_path = tempDir() / (std::string(name) + "_nao.csv");
    const Run r = run("map " + quoted(motion_path) + " --robot nao --method ga-lvvj -o " + quoted(angles_path));
    REQUIRE_MESSAGE(r.code == 0, r.err);

    const JointTrajectory written = toRobotOrder(readJointTrajectoryCsv(angles_path.string()), nao);
    const auto motion = readSkeletonCsv(motion_path.string());
    GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
    const MappedMotion<double> expected = mapMotion(mapper, motion);
    REQUIRE(written.positions.rows() == expected.q.rows());
    REQUIRE(written.positions.cols() == nao.nq());
    for (Eigen::Index k = 0; k < expected.q.rows(); ++k) {
      const Eigen::VectorXd q = written.positions.row(k).transpose();
      CHECK(withinLimits(nao, q, 1e-12));
      // The CSV prints shortest round-trip numbers, so the values are exact.
      CHECK((q - expected.q.row(k).transpose()).cwiseAbs().maxCoeff() <= 1e-12);
    }
  }
}

TEST_CASE("cli map --smooth and --max-joint-speed compose the library's filters after any mapper") {
  const auto nao = makeNao();
  const fs::path motion_path = writeDemo("squat", 2.0);
  const fs::path plain_path = tempDir() / "squat_plain.csv";
  const fs::path smooth_path = tempDir() / "squat_smooth.csv";
  const fs::path limited_path = tempDir() / "squat_limited.csv";
  const std::string map = "map " + quoted(motion_path) + " --robot nao --method ga-lvvj -o ";
  REQUIRE(run(map + quoted(plain_path)).code == 0);
  const Run smooth = run(map + quoted(smooth_path) + " --smooth 0.3");
  REQUIRE_MESSAGE(smooth.code == 0, smooth.err);
  CHECK(contains(smooth.err, "smoothed (alpha 0.300)"));
  const Run limited = run(map + quoted(limited_path) + " --max-joint-speed 0.5");
  REQUIRE_MESSAGE(limited.code == 0, limited.err);
  CHECK(contains(limited.err, "speed limited in"));
  CHECK(contains(limited.err, "0 frames over the joint speed limit"));

  const JointTrajectory plain = toRobotOrder(readJointTrajectoryCsv(plain_path.string()), nao);
  const JointTrajectory smoothed = toRobotOrder(readJointTrajectoryCsv(smooth_path.string()), nao);
  const JointTrajectory slow = toRobotOrder(readJointTrajectoryCsv(limited_path.string()), nao);
  ExponentialSmoothing<double> reference(nao.nq(), ExponentialSmoothingOptions{0.3});
  double largest_step = 0;
  for (Eigen::Index k = 0; k < plain.positions.rows(); ++k) {
    (void)reference.update(plain.positions.row(k).transpose());
    CHECK((smoothed.positions.row(k).transpose() - reference.value()).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK(withinLimits(nao, Eigen::VectorXd(slow.positions.row(k).transpose()), 1e-12));
    if (k > 0) {
      const double dt = slow.times[static_cast<std::size_t>(k)] - slow.times[static_cast<std::size_t>(k - 1)];
      largest_step = std::max(largest_step, (slow.positions.row(k) - slow.positions.row(k - 1)).cwiseAbs().maxCoeff() / dt);
    }
  }
  CHECK(largest_step <= 0.5 + 1e-9);
  CHECK(largest_step > 0.4);  // the squat needs more than 0.5 rad/s: the limiter acted
  CHECK(run(map + quoted(smooth_path) + " --smooth 1.5").code == 2);
  CHECK(run(map + quoted(smooth_path) + " --max-joint-speed -1").code == 2);
}

TEST_CASE("cli eval --json reports the library's WBF, LLF and cosine; synth closes the loop") {
  const auto nao = makeNao();
  const fs::path motion_path = writeDemo("arms-raise", 2.0);
  const fs::path angles_path = tempDir() / "arms_raise_nao.csv";
  REQUIRE(run("map " + quoted(motion_path) + " --robot nao --method ga-lvvj -o " + quoted(angles_path)).code == 0);

  const Run r = run("eval " + quoted(motion_path) + " " + quoted(angles_path) + " --robot nao --json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto report = nlohmann::json::parse(r.out);
  for (const char* key : {"wbf", "llf"}) {
    CAPTURE(key);
    REQUIRE(report.contains(key));
    CHECK(report[key].contains("mean"));
    CHECK(report[key].contains("min"));
  }
  REQUIRE(report["cosine"].contains("mean"));
  REQUIRE(report.contains("on_limit_frames"));

  // Same numbers through the library: human skeleton vs the robot's virtual skeleton.
  const auto motion = readSkeletonCsv(motion_path.string());
  const JointTrajectory angles = toRobotOrder(readJointTrajectoryCsv(angles_path.string()), nao);
  VirtualSkeleton<double> robot_view(nao, naoVirtualSkeletonMap());
  std::vector<SkeletonFramed> robot_frames(motion.size());
  for (std::size_t k = 0; k < motion.size(); ++k) {
    CHECK(robot_view.compute(angles.positions.row(static_cast<Eigen::Index>(k)).transpose(), robot_frames[k]).ok());
  }
  const auto similarity = motionSimilarity(motion.frames, robot_frames);
  CHECK(report["frames"].get<int>() == static_cast<int>(motion.size()));
  CHECK(report["wbf"]["mean"].get<double>() == doctest::Approx(similarity.wbf_mean).epsilon(1e-12));
  CHECK(report["llf"]["min"].get<double>() == doctest::Approx(similarity.llf_min).epsilon(1e-12));
  CHECK(report["cosine"]["mean"].get<double>() == doctest::Approx(similarity.cosine_mean).epsilon(1e-12));
  CHECK(report["wbf"]["mean"].get<double>() > 0.9);
  CHECK(report["wbf"]["mean"].get<double>() <= 1.0);

  // synth writes the robot's own skeleton; evaluated against the same angles it is a perfect match.
  const fs::path robot_skeleton = tempDir() / "arms_raise_robot_skeleton.csv";
  const Run s = run("synth --robot nao " + quoted(angles_path) + " -o " + quoted(robot_skeleton));
  REQUIRE_MESSAGE(s.code == 0, s.err);
  const Run self = run("eval " + quoted(robot_skeleton) + " " + quoted(angles_path) + " --robot nao --json");
  REQUIRE_MESSAGE(self.code == 0, self.err);
  const auto self_report = nlohmann::json::parse(self.out);
  CHECK(self_report["wbf"]["min"].get<double>() == doctest::Approx(1.0).epsilon(1e-9));
  CHECK(self_report["llf"]["min"].get<double>() == doctest::Approx(1.0).epsilon(1e-9));
}

TEST_CASE("cli map --method euler on a shared BVH equals the library mapper; eval --metrics dtw") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const fs::path bvh_path = data / "bvh" / "xia_cmu_skeleton31_neutral_walk_01_000.bvh";
  const fs::path angles_path = tempDir() / "walk_inmoov.csv";
  const Run r = run("map " + quoted(bvh_path) + " --robot inmoov --method euler -o " + quoted(angles_path));
  REQUIRE_MESSAGE(r.code == 0, r.err);

  const auto inmoov = makeInMoov<double>();
  const JointTrajectory written = toRobotOrder(readJointTrajectoryCsv(angles_path.string()), inmoov);
  const BvhMotion motion = readBvh(bvh_path.string());
  EulerMapper<double> mapper(inmoov, motion, inmoovEulerMap(detectEulerSkeleton(motion)));
  REQUIRE(written.positions.rows() == motion.frame_count);
  Eigen::VectorXd q(inmoov.nq());
  for (int f = 0; f < motion.frame_count; ++f) {
    (void)mapper.map(motion.frameValues(f), q);
    const Eigen::VectorXd from_cli = written.positions.row(f).transpose();
    CHECK(withinLimits(inmoov, from_cli, 1e-12));
    CHECK((from_cli - q).cwiseAbs().maxCoeff() <= 1e-12);
  }

  const Run e = run("eval " + quoted(bvh_path) + " " + quoted(angles_path) + " --robot inmoov --metrics dtw --json");
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const auto report = nlohmann::json::parse(e.out);
  INFO(e.out);
  REQUIRE(report.contains("joints"));
  REQUIRE(report["weighted_dtw"].is_number());
  const double system = report["weighted_dtw"].get<double>();
  CHECK(system >= 0.0);
  CHECK(std::isfinite(system));
  // The library's value for the same data: weighted per-joint DTW (paper 002, Eqs. 11-13) of
  // the human trajectory seen through the map (rawOutput) against the robot's, weights from
  // the InMoov's ranges of motion.
  mapper.reset();
  Eigen::MatrixXd human(inmoov.nq(), motion.frame_count), robot(inmoov.nq(), motion.frame_count);
  for (int f = 0; f < motion.frame_count; ++f) {
    (void)mapper.map(motion.frameValues(f), q);
    human.col(f) = mapper.rawOutput();
    robot.col(f) = q;
  }
  const auto library = weightedJointDtw(human, robot, rangeOfMotionWeights(inmoov));
  MESSAGE("eval --metrics dtw: " << system << ", library: " << library.system_distance);
  CHECK(system == doctest::Approx(library.system_distance).epsilon(1e-9));
}

TEST_CASE("cli dtw: a trajectory against itself is 0 along the diagonal; a window bounds the path") {
  const auto nao = makeNao();
  const fs::path motion_path = writeDemo("arm-circles", 1.5);
  const fs::path angles_path = tempDir() / "circles_nao.csv";
  REQUIRE(run("map " + quoted(motion_path) + " --robot nao --method ga-lvvj -o " + quoted(angles_path)).code == 0);
  const auto frames = static_cast<int>(readJointTrajectoryCsv(angles_path.string()).times.size());

  const Run same = run("dtw " + quoted(angles_path) + " " + quoted(angles_path) + " --json");
  REQUIRE_MESSAGE(same.code == 0, same.err);
  const auto report = nlohmann::json::parse(same.out);
  CHECK(report["distance"].get<double>() == 0.0);
  CHECK(report["path_length"].get<int>() == frames);

  const Run columns =
      run("dtw " + quoted(angles_path) + " " + quoted(motion_path) + " --columns RShoulderPitch --json");
  CHECK(columns.code != 0);  // the skeleton CSV has no RShoulderPitch column
  CHECK(contains(columns.err, "RShoulderPitch"));
}

TEST_CASE("cli info --robot describes built-in robots; bad usage and bad input exit 2 and 1") {
  const Run nao = run("info --robot nao");
  REQUIRE_MESSAGE(nao.code == 0, nao.err);
  CHECK(contains(nao.out, "25"));
  CHECK(contains(nao.out, "LShoulderPitch"));
  CHECK(contains(nao.out, "5.305"));

  const Run unknown_robot = run("info --robot r2d2");
  CHECK(unknown_robot.code == 2);
  CHECK(contains(unknown_robot.err, "r2d2"));
  CHECK(contains(unknown_robot.err, "nao"));

  const fs::path motion_path = writeDemo("wave", 0.5);
  const Run robot = run("map " + quoted(motion_path) + " --robot r2d2 --method ga-lvvj -o /dev/null");
  CHECK(robot.code == 2);
  const Run method = run("map " + quoted(motion_path) + " --robot nao --method nope -o /dev/null");
  CHECK(method.code == 2);
  CHECK(contains(method.err, "ga-lvvj"));
  CHECK(contains(method.err, "euler"));

  const Run missing = run("map " + quoted(tempDir() / "no_such.csv") + " --robot nao --method ga-lvvj -o /dev/null");
  CHECK(missing.code == 1);
  CHECK(contains(missing.err, "no_such.csv"));

  const fs::path bad_angles = tempDir() / "bad_angles.csv";
  write(bad_angles, "time,HeadYaw\n0,0.1\n0.1,abc\n");
  const Run bad = run("eval " + quoted(motion_path) + " " + quoted(bad_angles) + " --robot nao --json");
  CHECK(bad.code == 1);
  CHECK(contains(bad.err, "bad_angles.csv:3"));
}
