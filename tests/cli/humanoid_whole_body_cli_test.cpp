// `retarget map --method humanoid --whole-body` on the Unitree G1 (issue 58): the whole-body
// pipeline of seed 000 after the humanoid mapper, the robot standing on the soles its automatic
// binding finds. On every shared BVH take and the demos one-leg-stand and bow (`retarget demo`),
// at the take's own rate, what the command wrote is
// checked apart from the library: G1's URDF (shared/data/urdf) read with tinyxml2 for the link
// masses, centres of mass and the four sole spheres of each ankle_roll link, orocos KDL
// (kdl_parser) for the forward kinematics of the written angles, the robot's support mode per
// frame from the events file. Of the library only the CSV's joint names are used. In every
// frame (walking ones as double support: the written angles hold the pose the walk began in):
// - double support: the right sole's sphere bottoms lie on the left sole's plane (within 2 mm)
//   and the CoM projects into the hull of both soles (5 mm tolerance);
// - single support: the free sole is nowhere below the support sole's plane by more than 2 mm
//   and the CoM projects into the support sole's hull (5 mm tolerance).
// The tolerances are NAO's test's (tests/control/whole_body_real_motion_test.cpp), fixed there
// before this robot was run.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <tinyxml2.h>
#include <nlohmann/json.hpp>

#include <retarget/robots/unitree_g1.hpp>

#include "cli/cli_runner.hpp"
#include "robots/kdl_reference.hpp"
#include "support/hull_distance.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// The collision spheres of `link` in the URDF (centre in the link frame, radius; m), by tinyxml2.
std::vector<std::pair<Eigen::Vector3d, double>> urdfSpheres(const std::string& urdf, const std::string& link) {
  tinyxml2::XMLDocument doc;
  REQUIRE(doc.LoadFile(urdf.c_str()) == tinyxml2::XML_SUCCESS);
  std::vector<std::pair<Eigen::Vector3d, double>> out;
  for (const tinyxml2::XMLElement* l = doc.FirstChildElement("robot")->FirstChildElement("link"); l != nullptr;
       l = l->NextSiblingElement("link")) {
    if (link != l->Attribute("name")) continue;
    for (const tinyxml2::XMLElement* c = l->FirstChildElement("collision"); c != nullptr;
         c = c->NextSiblingElement("collision")) {
      const tinyxml2::XMLElement* sphere = c->FirstChildElement("geometry")->FirstChildElement("sphere");
      if (sphere == nullptr) continue;
      Eigen::Vector3d centre = Eigen::Vector3d::Zero();
      if (const tinyxml2::XMLElement* origin = c->FirstChildElement("origin")) {
        std::istringstream xyz(origin->Attribute("xyz"));
        xyz >> centre.x() >> centre.y() >> centre.z();
      }
      out.emplace_back(centre, sphere->DoubleAttribute("radius"));
    }
  }
  return out;
}

// The written CSV (time, then the joints by name): the header's names and the rows.
void readAngles(const fs::path& csv, std::vector<std::string>& names, std::vector<Eigen::VectorXd>& rows) {
  std::ifstream in(csv);
  std::string line;
  REQUIRE(std::getline(in, line));
  std::istringstream header(line);
  std::string cell;
  std::getline(header, cell, ',');  // time
  while (std::getline(header, cell, ',')) names.push_back(cell);
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::getline(row, cell, ',');
    Eigen::VectorXd q(static_cast<Eigen::Index>(names.size()));
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      REQUIRE(std::getline(row, cell, ','));
      q[i] = std::stod(cell);
    }
    rows.push_back(q);
  }
}

struct TakeFigures {
  int frames = 0, single = 0, walking = 0;
  int com_outside = 0, double_off_ground = 0, foot_below_ground = 0;
  double worst_com = INFINITY, worst_height = 0;
};

}  // namespace

TEST_CASE("cli humanoid whole body: G1 on every shared BVH take keeps its CoM over the sole it stands on (KDL, URDF)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const std::string urdf = (data_dir / "urdf" / "unitree_g1_29dof_rev_1_0.urdf").string();
  UrdfReference reference;
  REQUIRE(reference.load(urdf));
  const UrdfFacts& facts = reference.facts;
  KdlReference& kdl = reference.kdl;
  struct Mass {
    std::string link;
    double mass;
    Eigen::Vector3d com;
  };
  std::vector<Mass> masses;
  for (const auto& [name, link] : facts.links) {
    if (link.mass && *link.mass > 0 && kdl.hasSegment(name)) masses.push_back({name, *link.mass, link.com});
  }
  REQUIRE(masses.size() > 20);
  const std::array<std::string, 2> feet = {"left_ankle_roll_link", "right_ankle_roll_link"};
  // Each sole: the lowest points of its spheres (the link's -z at rest, the robot standing).
  std::array<std::vector<Eigen::Vector3d>, 2> sole_L;
  for (std::size_t side = 0; side < 2; ++side) {
    for (const auto& [centre, radius] : urdfSpheres(urdf, feet[side])) {
      sole_L[side].push_back(centre - radius * Eigen::Vector3d::UnitZ());
    }
    REQUIRE(sole_L[side].size() == 4);
  }
  const RobotModel<double> g1 = makeUnitreeG1<double>();  // the joint order KDL is set by, names checked below

  // The written angles `csv` with the modes of `events`, measured (see the file doc).
  const auto measure = [&](const fs::path& csv, const fs::path& events, std::size_t& written) {
    std::vector<std::string> names;
    std::vector<Eigen::VectorXd> rows;
    readAngles(csv, names, rows);
    REQUIRE(names == g1.qNames());
    written = rows.size();
    // The robot's mode per frame: double until the first transition, then each event's "to".
    std::map<std::int64_t, std::string> transitions;
    std::ifstream event_lines(events);
    for (std::string line; std::getline(event_lines, line);) {
      const nlohmann::json e = nlohmann::json::parse(line);
      if (e["event"] == "mode") transitions[e["frame"].get<std::int64_t>()] = e["to"].get<std::string>();
    }
    TakeFigures f;
    std::string mode = "double";
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (const auto it = transitions.find(static_cast<std::int64_t>(k)); it != transitions.end()) mode = it->second;
      kdl.setConfiguration(g1, rows[k], facts);
      Eigen::Vector3d com = Eigen::Vector3d::Zero();
      double total = 0;
      for (const Mass& m : masses) {
        com += m.mass * (kdl.pose(m.link) * m.com);
        total += m.mass;
      }
      com /= total;
      std::array<Isometry3<double>, 2> X_RF = {kdl.pose(feet[0]), kdl.pose(feet[1])};
      const int support = mode == "single-right" ? 1 : 0;
      const int other = 1 - support;
      // The support sole's plane: its frame's z through its lowest points.
      const Isometry3<double>& X = X_RF[static_cast<std::size_t>(support)];
      const Eigen::Vector3d up = X.linear().col(2);
      const Eigen::Vector3d origin = X * sole_L[static_cast<std::size_t>(support)].front();
      const Eigen::Vector3d x = X.linear().col(0);
      const Eigen::Vector3d y = up.cross(x);
      const auto onPlane = [&](const Eigen::Vector3d& p) {
        return Eigen::Vector2d((p - origin).dot(x), (p - origin).dot(y));
      };
      std::vector<Eigen::Vector2d> polygon;
      for (const Eigen::Vector3d& p : sole_L[static_cast<std::size_t>(support)]) polygon.push_back(onPlane(X * p));
      const bool both = mode == "double" || mode == "walking";
      for (const Eigen::Vector3d& p_L : sole_L[static_cast<std::size_t>(other)]) {
        const Eigen::Vector3d p = X_RF[static_cast<std::size_t>(other)] * p_L;
        const double height = (p - origin).dot(up);
        if (both) {
          polygon.push_back(onPlane(p));
          f.worst_height = std::max(f.worst_height, std::abs(height));
          if (std::abs(height) > 0.002) ++f.double_off_ground;
        } else if (height < -0.002) {
          ++f.foot_below_ground;
        }
      }
      const double inside = insideHull(polygon, onPlane(com));
      f.worst_com = std::min(f.worst_com, inside);
      if (inside < -0.005) ++f.com_outside;
      ++f.frames;
      f.single += both ? 0 : 1;
      f.walking += mode == "walking" ? 1 : 0;
    }
    return f;
  };

  const fs::path dir = tempDir();
  // Every shared BVH take with frames (the PN Studio template has none), then two generated
  // demos that stand G1 on one foot and bow it (single support, the CoM far from the ankles).
  std::vector<fs::path> takes;
  for (const fs::path& take : filesIn(data_dir / "bvh", ".bvh")) {
    if (!contains(take.filename().string(), "_0frames")) takes.push_back(take);
  }
  CHECK(takes.size() == 5);  // MANIFEST.md: 6 BVH files, one of them the 0-frame template
  for (const std::string demo : {"one-leg-stand", "bow"}) {
    const fs::path csv = dir / ("demo_" + demo + ".csv");
    const Run written = run("demo " + demo + " --duration 12 -o " + quoted(csv));
    REQUIRE_MESSAGE(written.code == 0, written.err);
    takes.push_back(csv);
  }
  for (const fs::path& take : takes) {
    CAPTURE(take.filename().string());
    const fs::path csv = dir / (take.stem().string() + "_g1_wb.csv");
    const fs::path events = dir / (take.stem().string() + "_g1_wb.jsonl");
    const Run r = run("map " + quoted(take) + " --robot g1 --method humanoid --whole-body --events " + quoted(events) +
                      " -o " + quoted(csv));
    REQUIRE_MESSAGE(r.code == 0, r.err);
    CHECK(contains(r.err, "whole body: support modes"));
    std::size_t written = 0;
    const TakeFigures f = measure(csv, events, written);
    MESSAGE(take.filename().string() << ": " << f.frames << " frames, " << f.single << " on one foot, " << f.walking
                                     << " walking; CoM at least " << f.worst_com * 1000 << " mm inside; soles level to "
                                     << f.worst_height * 1000 << " mm");
    CHECK(written > 0);
    CHECK(contains(r.err, ": " + std::to_string(written) + " frames -> "));  // every frame written
    CHECK(f.com_outside == 0);
    CHECK(f.double_off_ground == 0);
    CHECK(f.foot_below_ground == 0);
    // The one-leg stand is followed onto the right foot (the check above then covers single support).
    if (contains(take.filename().string(), "one-leg-stand")) CHECK(f.single > 100);
  }
  // The check can fail: without the balance the robot stands on its right foot when the human
  // does, its centre of mass still between the feet.
  const fs::path one_leg = dir / "demo_one-leg-stand.csv";
  const Run unbalanced =
      run("map " + quoted(one_leg) + " --robot g1 --method humanoid --whole-body --no-balance --events " +
          quoted(dir / "unbalanced.jsonl") + " -o " + quoted(dir / "unbalanced.csv"));
  REQUIRE_MESSAGE(unbalanced.code == 0, unbalanced.err);
  std::size_t written = 0;
  const TakeFigures off = measure(dir / "unbalanced.csv", dir / "unbalanced.jsonl", written);
  CHECK(off.single > 0);
  CHECK(off.com_outside > 0);
}

TEST_CASE("cli humanoid whole body: usage errors name what is wrong") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path walk = data_dir / "bvh" / "xia_cmu_skeleton31_neutral_walk_01_000.bvh";
  const fs::path dir = tempDir();
  const Run both = run("map " + quoted(walk) + " --robot g1 --method humanoid --whole-body --floating-base -o " +
                       quoted(dir / "x.csv"));
  CHECK(both.code != 0);
  CHECK(contains(both.err, "--whole-body and --floating-base"));
  const Run no_legs =
      run("map " + quoted(walk) + " --robot baxter --method humanoid --whole-body -o " + quoted(dir / "x.csv"));
  CHECK(no_legs.code != 0);
  CHECK(contains(no_legs.err, "baxter"));
  const Run smooth = run("map " + quoted(walk) + " --robot g1 --method humanoid --whole-body --smooth 0.3 -o " +
                         quoted(dir / "x.csv"));
  CHECK(smooth.code != 0);
  CHECK(contains(smooth.err, "the balance stage comes last"));
  const Run pf = run("map " + quoted(walk) + " --robot nao --method pf --whole-body -o " + quoted(dir / "x.csv"));
  CHECK(pf.code != 0);
  CHECK(contains(pf.err, "ga-lvvj or humanoid"));
}

TEST_CASE("cli humanoid whole body in compare: --whole-body adds the row beside humanoid, with map's angles") {
  // The generated bow (no shared data): compare's whole-body row is the pipeline `map --whole-body`
  // runs, so its mapping reports the same support modes as the events map writes.
  const fs::path dir = tempDir() / "humanoid_wb_compare";
  fs::create_directories(dir);
  const fs::path motion = dir / "bow.csv";
  Run r = run("demo bow --rate 30 --duration 4 -o " + quoted(motion));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  r = run("compare " + quoted(motion) + " --robot g1 --method humanoid --whole-body --json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json compared = nlohmann::json::parse(r.out);
  std::vector<std::string> labels;
  for (const auto& row : compared["rows"]) labels.push_back(row["label"].get<std::string>());
  CHECK(labels == std::vector<std::string>{"humanoid", "humanoid:whole-body"});
  REQUIRE(compared["rows"].size() == 2);
  CHECK(compared["rows"][1]["mapping"].contains("support_modes"));
  CHECK(!compared["rows"][0]["mapping"].contains("support_modes"));
  int frames = 0;
  for (const auto& [mode, count] : compared["rows"][1]["mapping"]["support_modes"].items()) frames += count.get<int>();
  CHECK(frames == compared["rows"][1]["frames"].get<int>());
  // A floating base gives the legs its own way: no whole-body row beside it.
  r = run("compare " + quoted(motion) + " --robot g1 --method humanoid:floating-base --whole-body --json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(nlohmann::json::parse(r.out)["rows"].size() == 1);
}
