// `retarget map --method pf` (joint-space particle filter, seed 003 Section 3): the file has one
// row per frame and one column per NAO joint, within the limits; it equals the library filter
// with the same options; the same command writes the same file (fixed default seed); --seed,
// --particles and --pf-noise reach the filter; bad values are usage errors.
#include <doctest/doctest.h>

#include <string>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/robots/nao.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("cli map --method pf: shape, limits, the library's output, the same file twice") {
  const auto nao = makeNao();
  const fs::path motion_path = tempDir() / "pf_wave.csv";
  DemoMotionOptions demo;
  demo.rate = 30;
  demo.duration = 1.0;
  writeSkeletonCsv(demoMotion("wave", demo), motion_path.string());
  const std::string map = "map " + quoted(motion_path) + " --robot nao --method pf --particles 60 -o ";

  const fs::path first = tempDir() / "pf_wave_1.csv", second = tempDir() / "pf_wave_2.csv";
  const Run r = run(map + quoted(first));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.err, "60 particles, seed 1"));
  REQUIRE(run(map + quoted(second)).code == 0);
  CHECK(slurp(first) == slurp(second));  // fixed default seed: the same command, the same file

  const JointTrajectory written = toRobotOrder(readJointTrajectoryCsv(first.string()), nao);
  const auto motion = readSkeletonCsv(motion_path.string());
  REQUIRE(written.positions.rows() == static_cast<Eigen::Index>(motion.size()));
  REQUIRE(written.positions.cols() == nao.nq());
  ParticleFilterOptions options;
  options.particles = 60;
  JointSpaceParticleFilter<double> filter(nao, naoVirtualSkeletonMap(), options);
  const MappedMotion<double> expected = mapMotion(filter, motion);
  for (Eigen::Index k = 0; k < expected.q.rows(); ++k) {
    const Eigen::VectorXd q = written.positions.row(k).transpose();
    CHECK(withinLimits(nao, q, 1e-12));
    CHECK((q - expected.q.row(k).transpose()).cwiseAbs().maxCoeff() <= 1e-12);
  }

  const fs::path seeded = tempDir() / "pf_wave_seed.csv", noisy = tempDir() / "pf_wave_noise.csv";
  REQUIRE(run(map + quoted(seeded) + " --seed 2").code == 0);
  CHECK(slurp(seeded) != slurp(first));
  REQUIRE(run(map + quoted(noisy) + " --pf-noise 0.02").code == 0);
  CHECK(slurp(noisy) != slurp(first));

  CHECK(run(map + quoted(second) + " --particles 0").code == 2);
  CHECK(run(map + quoted(second) + " --pf-noise -1").code == 2);
}

TEST_CASE("cli compare and batch know pf: beside GA-LVVJ on one motion, refused where no virtual skeleton fits") {
  const fs::path motion_path = tempDir() / "pf_compare_wave.csv";
  DemoMotionOptions demo;
  demo.rate = 30;
  demo.duration = 0.5;
  writeSkeletonCsv(demoMotion("wave", demo), motion_path.string());
  const Run r = run("compare " + quoted(motion_path) + " --robot nao --method ga-lvvj,pf");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.out, "pf"));
  CHECK(contains(r.out, "ga-lvvj"));
  CHECK(run("compare " + quoted(motion_path) + " --robot baxter --method pf").code == 2);
}
