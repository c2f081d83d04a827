// `retarget info robot.xml`: a MuJoCo MJCF model is a robot file like a URDF (told apart by its
// root element, whatever the extension): the shared G1 MJCF is described with its floating base
// and its 29 coordinates, a URDF saved as .xml is still read as URDF, and a bad MJCF names its
// file and line (exit code 1). `schema suggest robot.xml` writes the automatic binding of an MJCF
// robot as a robot schema: for G1 and H1 the same limbs as from their URDFs, a fixed point when
// passed back with --robot-schema.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

using namespace retarget::test;

TEST_CASE("cli mjcf: info reads MJCF files, URDF files named .xml, and names a bad MJCF's line") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const Run g1 = run("info " + quoted(data_dir / "mjcf" / "unitree_g1_g1.xml"));
  REQUIRE_MESSAGE(g1.code == 0, g1.err);
  CHECK(contains(g1.out, "robot:        g1_29dof_rev_1_0 (MJCF "));
  CHECK(contains(g1.out, "floating base: body 'pelvis')"));
  CHECK(contains(g1.out, "links:        30 (root pelvis)"));
  CHECK(contains(g1.out, "coordinates:  29"));

  const fs::path dir = tempDir();
  fs::copy_file(data_dir / "urdf" / "unitree_h1.urdf", dir / "h1_urdf.xml", fs::copy_options::overwrite_existing);
  const Run h1 = run("info " + quoted(dir / "h1_urdf.xml"));
  REQUIRE_MESSAGE(h1.code == 0, h1.err);
  CHECK(contains(h1.out, "(URDF "));

  write(dir / "bad.xml", "<mujoco>\n  <worldbody>\n    <body name=\"b\"><joint type=\"ball\"/></body>\n  </worldbody>\n</mujoco>\n");
  const Run bad = run("info " + quoted(dir / "bad.xml"));
  CHECK(bad.code == 1);
  CHECK(contains(bad.err, "bad.xml:3: <joint>: ball joints are not supported"));
}

TEST_CASE("cli mjcf: schema suggest binds an MJCF robot like its URDF and round-trips") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path dir = tempDir();
  const std::pair<const char*, const char*> same_robot[] = {{"unitree_g1_g1.xml", "unitree_g1_29dof_rev_1_0.urdf"},
                                                            {"unitree_h1_h1.xml", "unitree_h1.urdf"}};
  for (const auto& [mjcf, urdf] : same_robot) {
    CAPTURE(mjcf);
    const Run from_mjcf = run("schema suggest " + quoted(data_dir / "mjcf" / mjcf));
    REQUIRE_MESSAGE(from_mjcf.code == 0, from_mjcf.err);
    CHECK(contains(from_mjcf.err, "humanoid binding"));
    const Run from_urdf = run("schema suggest " + quoted(data_dir / "urdf" / urdf));
    REQUIRE_MESSAGE(from_urdf.code == 0, from_urdf.err);
    const nlohmann::json schema = nlohmann::json::parse(from_mjcf.out);
    const nlohmann::json urdf_schema = nlohmann::json::parse(from_urdf.out);
    REQUIRE(schema.contains("limbs"));
    // The same limbs: the same end links and the same joints found. The two files are separate
    // models of one robot and may name a joint differently (H1's URDF "left_knee_joint" is its
    // MJCF's "left_knee"), so joint names are compared without a trailing "_joint".
    const auto stem = [](std::string name) {
      const std::string suffix = "_joint";
      if (name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
        name.resize(name.size() - suffix.size());
      }
      return name;
    };
    for (const char* limb : {"left_arm", "right_arm", "left_leg", "right_leg"}) {
      CAPTURE(limb);
      REQUIRE(schema["limbs"].contains(limb));
      const nlohmann::json& a = schema["limbs"][limb];
      const nlohmann::json& b = urdf_schema["limbs"][limb];
      REQUIRE(a.size() == b.size());
      for (const auto& [key, value] : b.items()) {
        CAPTURE(key);
        REQUIRE(a.contains(key));
        CHECK(stem(a[key].get<std::string>()) == stem(value.get<std::string>()));
      }
    }
    const fs::path written = dir / (std::string(mjcf) + ".json");
    {
      std::ofstream(written) << from_mjcf.out;
    }
    const Run again = run("schema suggest " + quoted(data_dir / "mjcf" / mjcf) + " --robot-schema " + quoted(written));
    REQUIRE_MESSAGE(again.code == 0, again.err);
    CHECK(nlohmann::json::parse(again.out) == schema);
  }
}
