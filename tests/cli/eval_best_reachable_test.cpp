// `retarget eval` per link: achieved and best reachable WBF / LLF (metrics/best_reachable.hpp),
// and --wbf-base torso|support-foot.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/robots/nao.hpp>

#include "cli/cli_runner.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("cli eval prints per link achieved and best reachable similarity; --wbf-base") {
  const auto nao = makeNao<double>();
  const fs::path motion_path = tempDir() / "best_reachable_squat.csv";
  DemoMotionOptions options;
  options.rate = 10;
  options.duration = 2.0;
  writeSkeletonCsv(demoMotion("squat", options), motion_path.string());
  const fs::path angles_path = tempDir() / "best_reachable_squat_nao.csv";
  REQUIRE(run("map " + quoted(motion_path) + " --robot nao --method ga-lvvj -o " + quoted(angles_path)).code == 0);
  const std::string eval = "eval " + quoted(motion_path) + " " + quoted(angles_path) + " --robot nao";

  const auto motion = readSkeletonCsv(motion_path.string());
  const JointTrajectory angles = toRobotOrder(readJointTrajectoryCsv(angles_path.string()), nao);
  for (const WbfBase base : {WbfBase::kTorso, WbfBase::kSupportFoot}) {
    const std::string name = wbfBaseName(base);
    CAPTURE(name);
    const Run r = run(eval + " --json --wbf-base " + name);
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const auto report = nlohmann::json::parse(r.out);
    CHECK(report["wbf_base"].get<std::string>() == name);
    REQUIRE(report.contains("links"));
    // The same numbers through the library.
    BestReachableOptions best_options;
    best_options.wbf_base = base;
    const MotionBestReachable<double> b =
        motionBestReachable(nao, naoVirtualSkeletonMap(), motion.frames, angles.positions, best_options);
    for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
      CAPTURE(kSimilarityLinkNames[i]);
      const auto& link = report["links"][kSimilarityLinkNames[i]];
      for (const char* key : {"wbf", "wbf_best_reachable", "llf", "llf_best_reachable"}) REQUIRE(link.contains(key));
      CHECK(link["wbf"].get<double>() == doctest::Approx(b.wbf_achieved_mean[i]).epsilon(1e-12));
      CHECK(link["wbf_best_reachable"].get<double>() == doctest::Approx(b.wbf_best_mean[i]).epsilon(1e-12));
      CHECK(link["llf"].get<double>() == doctest::Approx(b.llf_achieved_mean[i]).epsilon(1e-12));
      CHECK(link["llf_best_reachable"].get<double>() == doctest::Approx(b.llf_best_mean[i]).epsilon(1e-12));
      CHECK(link["wbf_best_reachable"].get<double>() >= link["wbf"].get<double>());
      CHECK(link["llf_best_reachable"].get<double>() >= link["llf"].get<double>());
      // Within reach: the library's counts and means over those frames.
      REQUIRE(link.contains("within_reach"));
      const auto& within = link["within_reach"];
      CHECK(within["wbf_frames"].get<int>() == b.wbf_within_frames[i]);
      CHECK(within["llf_frames"].get<int>() == b.llf_within_frames[i]);
      if (b.llf_within_frames[i] > 0) {
        CHECK(within["llf"].get<double>() == doctest::Approx(b.llf_achieved_within_mean[i]).epsilon(1e-12));
        CHECK(within["llf_best_reachable"].get<double>() == doctest::Approx(b.llf_best_within_mean[i]).epsilon(1e-12));
      } else {
        CHECK(within["llf"].is_null());
      }
      // The per-link achieved WBF is the one of the "wbf" block.
      CHECK(link["wbf"].get<double>() == doctest::Approx(report["wbf"]["links"][kSimilarityLinkNames[i]].get<double>()));
    }
  }
  // The squat leans the trunk (up to 11 deg): with the torso-aligned base the upright robot torso
  // scores below 1.
  const auto torso = nlohmann::json::parse(run(eval + " --json").out);
  CHECK(torso["wbf_base"].get<std::string>() == "torso");
  CHECK(torso["links"]["Torso"]["wbf"].get<double>() < 0.999);

  const Run text = run(eval);
  REQUIRE_MESSAGE(text.code == 0, text.err);
  CHECK(contains(text.out, "best reachable"));
  CHECK(contains(text.out, "within reach"));
  CHECK(contains(text.out, "RightLowerArm"));
  CHECK(run(eval + " --wbf-base hips").code == 2);
  CHECK(run(eval + " --wbf-base support-foot").code == 0);
}
