// `retarget info robot.xml`: a MuJoCo MJCF model is a robot file like a URDF (told apart by its
// root element, whatever the extension): the shared G1 MJCF is described with its floating base
// and its 29 coordinates, a URDF saved as .xml is still read as URDF, and a bad MJCF names its
// file and line (exit code 1).

#include <doctest/doctest.h>

#include <filesystem>

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
