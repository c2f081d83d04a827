// `retarget info robot.urdf` and `retarget schema suggest robot.urdf`: the automatic humanoid
// binding of the shared Unitree URDFs printed, written as a robot schema that, passed back with
// --robot-schema, gives the same schema again (a fixed point), and an edited schema's pin
// (a limb declared absent) followed; a bad schema names its file, and --robot-schema with a
// BVH file is a usage error. `map --method humanoid --config` reads the mapper's options (a
// tighter trust region without restarts bounds every step) and names a bad key or `rest`.

#include <doctest/doctest.h>

#include <fstream>

#include <Eigen/Core>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

using namespace retarget::test;

TEST_CASE("cli robot binding: info prints the binding; schema suggest round-trips; a pin is followed") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path g1 = data_dir / "urdf" / "unitree_g1_29dof_rev_1_0.urdf";
  const fs::path h1 = data_dir / "urdf" / "unitree_h1.urdf";
  for (const fs::path& urdf : {g1, h1}) {
    CAPTURE(urdf.string());
    const Run info = run("info " + quoted(urdf));
    REQUIRE_MESSAGE(info.code == 0, info.err);
    CHECK(contains(info.out, "humanoid binding"));
    for (const char* limb : {"left_arm: ", "right_arm: ", "left_leg: ", "right_leg: "}) {
      const std::size_t at = info.out.find(limb);
      REQUIRE(at != std::string::npos);
      CHECK(info.out.compare(at + std::string(limb).size(), 11, "(not found)") != 0);
    }
  }

  const fs::path dir = tempDir();
  const Run suggested = run("schema suggest " + quoted(g1));
  REQUIRE_MESSAGE(suggested.code == 0, suggested.err);
  CHECK(contains(suggested.err, "humanoid binding"));
  const nlohmann::json schema = nlohmann::json::parse(suggested.out);
  {
    std::ofstream(dir / "g1.json") << suggested.out;
  }
  const Run again = run("schema suggest " + quoted(g1) + " --robot-schema " + quoted(dir / "g1.json"));
  REQUIRE_MESSAGE(again.code == 0, again.err);
  CHECK(nlohmann::json::parse(again.out) == schema);

  // An edited schema's pin is followed: the left leg declared absent is not bound.
  nlohmann::json edited = schema;
  edited["limbs"]["left_leg"] = {{"end_link", "-"}};
  {
    std::ofstream(dir / "g1_no_left_leg.json") << edited.dump(2);
  }
  const Run pinned = run("schema suggest " + quoted(g1) + " --robot-schema " + quoted(dir / "g1_no_left_leg.json"));
  REQUIRE_MESSAGE(pinned.code == 0, pinned.err);
  CHECK(contains(pinned.err, "left_leg: (not found)"));
  CHECK(contains(suggested.err, "left_leg: pelvis"));
  CHECK(nlohmann::json::parse(pinned.out)["limbs"]["left_leg"]["end_link"] == "-");

  // A schema that is not JSON, or names a link the robot lacks, is an error naming the file.
  {
    std::ofstream(dir / "bad.json") << "{ not json";
  }
  const Run bad = run("schema suggest " + quoted(g1) + " --robot-schema " + quoted(dir / "bad.json"));
  CHECK(bad.code != 0);
  CHECK(contains(bad.err, "bad.json"));
  const Run not_urdf = run("schema suggest " + quoted(data_dir / "bvh" / "xia_cmu_skeleton31_neutral_walk_01_000.bvh") +
                           " --robot-schema " + quoted(dir / "g1.json"));
  CHECK(not_urdf.code == 2);
}

TEST_CASE("cli humanoid: map --config reads the mapper's options and names a bad key") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path dir = tempDir();
  // A BVH walk: every link seen on every frame (a link back after tracking loss may jump).
  const std::string motion = quoted(data_dir / "bvh" / "xia_cmu_skeleton31_neutral_walk_01_000.bvh");
  const std::string map = "map " + motion + " --robot g1 --method humanoid";
  write(dir / "slow.json", R"({"max_step": 0.05, "min_step": 0.05, "restarts": false})");
  const Run plain = run(map + " -o " + quoted(dir / "plain.csv"));
  REQUIRE_MESSAGE(plain.code == 0, plain.err);
  const Run slow = run(map + " --config " + quoted(dir / "slow.json") + " -o " + quoted(dir / "slow.csv"));
  REQUIRE_MESSAGE(slow.code == 0, slow.err);
  // The defaults let a coordinate move up to 0.5 rad a frame; the file's trust region 0.05 (no
  // jumps without restarts; none on the first frame).
  auto largestStep = [](const retarget::JointTrajectory& t) {
    double largest = 0;
    for (Eigen::Index k = 2; k < t.positions.rows(); ++k) {
      largest = std::max(largest, (t.positions.row(k) - t.positions.row(k - 1)).cwiseAbs().maxCoeff());
    }
    return largest;
  };
  const double plain_step = largestStep(retarget::readJointTrajectoryCsv((dir / "plain.csv").string()));
  const double slow_step = largestStep(retarget::readJointTrajectoryCsv((dir / "slow.csv").string()));
  MESSAGE("largest step after the first frame: defaults ", plain_step, " rad, --config max_step 0.05: ", slow_step, " rad");
  CHECK(plain_step > 0.1);
  CHECK(slow_step <= 0.05 + 1e-9);

  write(dir / "typo.json", R"({"grond_weight": 1})");
  const Run typo = run(map + " --config " + quoted(dir / "typo.json") + " -o " + quoted(dir / "t.csv"));
  CHECK(typo.code != 0);
  CHECK(contains(typo.err, "typo.json"));
  CHECK(contains(typo.err, "grond_weight"));
  write(dir / "rest.json", R"({"rest": [0, 0]})");
  const Run rest = run(map + " --config " + quoted(dir / "rest.json") + " -o " + quoted(dir / "r.csv"));
  CHECK(rest.code == 2);
  CHECK(contains(rest.err, "rest.json"));
  CHECK(contains(rest.err, "rest"));
}
