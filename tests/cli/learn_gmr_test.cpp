// `retarget learn gmr` (seed 000, Section 8): NAO waves of four demonstrators of different
// sizes and speeds, mapped by GA-LVVJ, generalised into one wave: the file is the library's
// pipeline (DTW to the medoid, GMM per joint with BIC, GMR), within NAO's limits, close to every
// demonstration; broken input names the file and column.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/learning/demonstrations.hpp>
#include <retarget/metrics/dtw_alignment.hpp>
#include <retarget/robots/nao.hpp>

#include "cli/cli_runner.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("cli learn gmr: four waves become one, the library's result, within NAO's limits") {
  const auto nao = makeNao();
  std::vector<std::string> angles;
  std::vector<Eigen::MatrixXd> sequences;
  // One 3 s wave (three forearm swings), recorded at four frame rates by four demonstrators.
  const std::vector<std::pair<std::string, std::string>> demonstrators{
      {"20", "1.60"}, {"25", "1.70"}, {"30", "1.75"}, {"40", "1.85"}};
  for (std::size_t i = 0; i < demonstrators.size(); ++i) {
    const fs::path motion = tempDir() / ("gmr_wave_" + std::to_string(i) + ".csv");
    const fs::path q = tempDir() / ("gmr_wave_angles_" + std::to_string(i) + ".csv");
    REQUIRE(run("demo wave --duration 3 --rate " + demonstrators[i].first + " --height " + demonstrators[i].second +
                " -o " + quoted(motion))
                .code == 0);
    REQUIRE(run("map " + quoted(motion) + " --robot nao --method ga-lvvj -o " + quoted(q)).code == 0);
    angles.push_back(quoted(q));
    sequences.push_back(readJointTrajectoryCsv(q.string()).positions.transpose());
  }
  const fs::path out = tempDir() / "gmr_wave_learned.csv", spread = tempDir() / "gmr_wave_std.csv";
  std::string files;
  for (const auto& a : angles) files += a + " ";
  const Run r = run("learn gmr " + files + "-o " + quoted(out) + " --std-output " + quoted(spread));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.out, "4 demonstrations of 25 joints"));
  CHECK(contains(r.out, "(the medoid), 100 steps over"));
  CHECK(contains(r.out, "RElbowRoll"));

  // The library's pipeline on the same data.
  const int reference = dtwMedoid(sequences);
  std::vector<Eigen::MatrixXd> aligned;
  for (const auto& s : sequences) aligned.push_back(dtwAlignToReference(s, sequences[static_cast<std::size_t>(reference)]).transpose());
  DemonstrationLearningOptions options;
  options.mixture.max_components = 16;  // the command's default
  const GeneralisedTrajectory expected = learnFromDemonstrations(aligned, options);
  const JointTrajectory learned = readJointTrajectoryCsv(out.string());
  const JointTrajectory deviation = readJointTrajectoryCsv(spread.string());
  REQUIRE(learned.positions.rows() == 100);
  REQUIRE(learned.jointCount() == nao.nq());
  CHECK((learned.positions - expected.mean).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK((deviation.positions - expected.variance.cwiseSqrt()).cwiseAbs().maxCoeff() <= 1e-12);
  CHECK(learned.times.back() == doctest::Approx(3.0).epsilon(0.05));
  const JointTrajectory ordered = toRobotOrder(learned, nao);
  for (Eigen::Index s = 0; s < 100; ++s) CHECK(withinLimits(nao, Eigen::VectorXd(ordered.positions.row(s).transpose())));
  // A generalisation of the demonstrations: each is about as near the learned wave (DTW distance
  // per path cell, rad over the 25 joints) as it is, on average, to the other demonstrations
  // (they differ by their frame rates; the learned wave adds GMR's approximation of the swings).
  const DtwOptions per_cell{kNoDtwWindow, DtwNormalization::kPathLength};
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const double to_learned = dtw(sequences[i], Eigen::MatrixXd(learned.positions.transpose()), per_cell).distance;
    double to_others = 0;
    for (std::size_t k = 0; k < sequences.size(); ++k) {
      if (k != i) to_others += dtw(sequences[i], sequences[k], per_cell).distance / 3.0;
    }
    MESSAGE("demonstration " << i << ": DTW distance per cell to the learned wave " << to_learned
                             << " rad, to the other demonstrations " << to_others << " rad on average");
    CHECK(to_learned < 1.5 * to_others);
  }
}

TEST_CASE("cli learn gmr: a file without the first file's joints, a reference out of range") {
  const fs::path a = tempDir() / "gmr_a.csv", b = tempDir() / "gmr_b.csv", out = tempDir() / "gmr_out.csv";
  write(a, "time,HeadYaw,HeadPitch\n0,0,0\n0.1,0.1,0\n0.2,0.2,0\n");
  write(b, "time,HeadYaw\n0,0\n0.1,0.1\n0.2,0.2\n");
  const Run missing = run("learn gmr " + quoted(a) + " " + quoted(b) + " -o " + quoted(out));
  CHECK(missing.code != 0);
  CHECK(contains(missing.err, "gmr_b.csv: no column 'HeadPitch'"));
  const Run reference = run("learn gmr " + quoted(a) + " " + quoted(a) + " --reference 3 -o " + quoted(out));
  CHECK(reference.code != 0);
  CHECK(contains(reference.err, "--reference 3, but only 2 files"));
}
