// URDF reader: every shared URDF loads and agrees with orocos KDL (through kdl_parser, an
// independent URDF reader) on seeded random configurations; limit policy; collision-primitive
// conversion; and a suite of malformed files, each checked for its error message.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <random>

#include <retarget/io/urdf.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>

#include "robots/kdl_reference.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

const char* const kSharedUrdfs[] = {"nao_h25_v50.urdf", "nao_h25_v40.urdf", "pepper_1.0.urdf", "baxter.urdf",
                                    "abb_yumi_irb14000.urdf", "inmoov.urdf"};

// A small valid robot; the malformed cases below edit one line of it. Line numbers matter.
std::string validRobot() {
  return R"(<?xml version="1.0"?>
<robot name="tiny">
  <link name="base">
    <inertial><origin xyz="0 0 0.1"/><mass value="2.0"/></inertial>
  </link>
  <link name="arm">
    <collision><geometry><box size="0.1 0.2 0.4"/></geometry></collision>
  </link>
  <link name="hand"/>
  <joint name="shoulder" type="revolute">
    <parent link="base"/>
    <child link="arm"/>
    <origin xyz="0 0.1 0.2" rpy="0.1 0.2 0.3"/>
    <axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" velocity="2" effort="3"/>
  </joint>
  <joint name="wrist" type="continuous">
    <parent link="arm"/>
    <child link="hand"/>
    <axis xyz="1 0 0"/>
  </joint>
</robot>
)";
}

std::string replaceLine(const std::string& text, int line, const std::string& replacement) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string current;
  for (int n = 1; std::getline(in, current); ++n) out << (n == line ? replacement : current) << "\n";
  return out.str();
}

std::string insertBefore(const std::string& text, int line, const std::string& insertion) {
  return replaceLine(text, line, insertion + "\n" + [&] {
    std::istringstream in(text);
    std::string current;
    for (int n = 1; std::getline(in, current); ++n) {
      if (n == line) return current;
    }
    return std::string();
  }());
}

}  // namespace

TEST_CASE("urdf: the valid example loads with its numbers") {
  const auto result = parseUrdf(validRobot(), "tiny.urdf");
  const auto& model = result.model;
  CHECK(result.warnings.empty());
  CHECK(model.name() == "tiny");
  CHECK(model.nq() == 2);
  CHECK(model.qName(0) == "shoulder");
  CHECK(model.totalMass() == 2.0);
  CHECK(model.links()[model.linkIndex("base")].inertial.p_LCm.z() == 0.1);
  const auto& shoulder = model.joints()[model.jointIndex("shoulder")];
  CHECK(shoulder.limits.velocity == 2.0);
  CHECK(shoulder.limits.effort == 3.0);
  // URDF rpy: fixed-axis roll, pitch, yaw = Rz(y) Ry(p) Rx(r), written out element by element.
  const double r = 0.1, p = 0.2, y = 0.3;
  Eigen::Matrix3d expected;
  expected << std::cos(y) * std::cos(p), std::cos(y) * std::sin(p) * std::sin(r) - std::sin(y) * std::cos(r),
      std::cos(y) * std::sin(p) * std::cos(r) + std::sin(y) * std::sin(r), std::sin(y) * std::cos(p),
      std::sin(y) * std::sin(p) * std::sin(r) + std::cos(y) * std::cos(r),
      std::sin(y) * std::sin(p) * std::cos(r) - std::cos(y) * std::sin(r), -std::sin(p), std::cos(p) * std::sin(r),
      std::cos(p) * std::cos(r);
  CHECK((shoulder.X_PJ.linear() - expected).cwiseAbs().maxCoeff() < 1e-15);
  CHECK(model.joints()[model.jointIndex("wrist")].axis == Eigen::Vector3d::UnitX());
  const auto& box = model.links()[model.linkIndex("arm")].collisions.at(0);
  CHECK(box.name == "arm_collision0");
}

TEST_CASE_TEMPLATE("urdf: float and double readers agree", Scalar, float, double) {
  const auto model = parseUrdf<Scalar>(validRobot()).model;
  const auto reference = parseUrdf<double>(validRobot()).model;
  RobotData<Scalar> data(model);
  RobotData<double> data_d(reference);
  const Eigen::Vector2d q(0.3, -0.7);
  forwardKinematics(model, data, q.cast<Scalar>());
  forwardKinematics(reference, data_d, q);
  for (std::size_t i = 0; i < model.links().size(); ++i) {
    CHECK((data.X_WL[i].matrix().template cast<double>() - data_d.X_WL[i].matrix()).cwiseAbs().maxCoeff() < 1e-6);
  }
}

TEST_CASE("urdf: collision primitives become capsules that contain them") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(-1, 1);
  const auto inside = [](const Capsule<double>& c, const Eigen::Vector3d& point) {
    const Eigen::Vector3d ab = c.b - c.a;
    const double t = ab.squaredNorm() > 0 ? std::clamp((point - c.a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
    return (point - (c.a + t * ab)).norm();
  };
  for (int n = 0; n < test::sweepCount(200); ++n) {
    const double sx = 0.05 + 0.5 * (unit(rng) + 1), sy = 0.05 + 0.5 * (unit(rng) + 1), sz = 0.05 + 0.5 * (unit(rng) + 1);
    const double radius = 0.01 + 0.2 * (unit(rng) + 1), length = 0.01 + 0.5 * (unit(rng) + 1);
    const double xyz[3] = {unit(rng), unit(rng), unit(rng)};
    const double rpy[3] = {3 * unit(rng), 3 * unit(rng), 3 * unit(rng)};
    const Isometry3<double> X_LG = internal::poseFromXyzRpy<double>(xyz, rpy);
    // Box: all 8 corners inside, the farthest exactly on the surface.
    const double box_size[3] = {sx, sy, sz};
    const auto box = internal::collisionFromPrimitive<double>("b", internal::UrdfPrimitive::kBox, box_size, X_LG);
    double worst = -1;
    for (int corner = 0; corner < 8; ++corner) {
      const Eigen::Vector3d p_G(((corner & 1) ? 0.5 : -0.5) * sx, ((corner & 2) ? 0.5 : -0.5) * sy,
                                ((corner & 4) ? 0.5 : -0.5) * sz);
      worst = std::max(worst, inside(box.capsule_L, X_LG * p_G) - box.capsule_L.radius);
    }
    CHECK(worst <= 1e-12);
    CHECK(worst >= -1e-12);
    CHECK(box.capsule_L.length() == doctest::Approx(std::max({sx, sy, sz})));
    // Cylinder: random points of the solid cylinder are inside the capsule.
    const double cylinder_size[3] = {radius, length, 0};
    const auto cylinder =
        internal::collisionFromPrimitive<double>("c", internal::UrdfPrimitive::kCylinder, cylinder_size, X_LG);
    for (int k = 0; k < 20; ++k) {
      const double angle = 3.2 * unit(rng), rho = radius * std::sqrt(0.5 * (unit(rng) + 1));
      const Eigen::Vector3d p_G(rho * std::cos(angle), rho * std::sin(angle), 0.5 * length * unit(rng));
      CHECK(inside(cylinder.capsule_L, X_LG * p_G) <= radius + 1e-12);
    }
    // Sphere: exact, a zero-length capsule at the origin.
    const auto sphere = internal::collisionFromPrimitive<double>("s", internal::UrdfPrimitive::kSphere, cylinder_size, X_LG);
    CHECK((sphere.capsule_L.a - X_LG.translation()).norm() < 1e-15);
    CHECK(sphere.capsule_L.length() == 0);
    CHECK(sphere.capsule_L.radius == radius);
  }
}

TEST_CASE("urdf: every shared URDF loads and agrees with KDL on random configurations") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  unsigned seed = 100;
  for (const char* file : kSharedUrdfs) {
    CAPTURE(file);
    const auto path = data_dir / "urdf" / file;
    const auto result = loadUrdf(path);
    const auto& model = result.model;
    test::KdlReference kdl;
    REQUIRE(kdl.load(path.string()));
    test::UrdfFacts facts;
    REQUIRE(facts.load(path.string()));
    // Mimic joints as the URDF declares them (driver, multiplier, offset), read independently.
    int mimics = 0;
    for (const auto& joint : model.joints()) {
      const auto it = facts.joints.find(joint.name);
      REQUIRE(it != facts.joints.end());
      CHECK_MESSAGE(joint.isMimic() == it->second.mimic.has_value(), joint.name);
      if (!joint.isMimic() || !it->second.mimic) continue;
      ++mimics;
      CHECK(model.qName(joint.mimic_q_index) == it->second.mimic->driver);
      CHECK(joint.mimic_multiplier == it->second.mimic->multiplier);
      CHECK(joint.mimic_offset == it->second.mimic->offset);
    }
    CHECK(mimics == facts.mimic_count);
    // Same links; KDL's joint count (moving joints) matches ours including mimics.
    CHECK(kdl.tree().getNrOfSegments() + 1 == model.links().size());
    int moving = 0;
    for (const auto& joint : model.joints()) moving += joint.moves() ? 1 : 0;
    CHECK(static_cast<int>(kdl.tree().getNrOfJoints()) == moving);
    double kdl_mass = 0;
    for (const auto& [name, element] : kdl.tree().getSegments()) kdl_mass += element.segment.getInertia().getMass();
    CHECK(model.totalMass() == doctest::Approx(kdl_mass).epsilon(1e-12));

    RobotData<double> data(model);
    std::mt19937 rng(seed++);
    double worst_p = 0, worst_R = 0;
    for (int n = 0; n < test::sweepCount(1000); ++n) {
      const VectorX<double> q = test::randomConfiguration(model, rng);
      forwardKinematics(model, data, q);
      kdl.setConfiguration(model, q, facts);
      for (std::size_t i = 1; i < model.links().size(); ++i) {
        const Isometry3<double> X_ref = kdl.pose(model.links()[i].name);
        worst_p = std::max(worst_p, (data.X_WL[i].translation() - X_ref.translation()).norm());
        worst_R = std::max(worst_R, (data.X_WL[i].linear() - X_ref.linear()).cwiseAbs().maxCoeff());
      }
    }
    CHECK(worst_p < 1e-9);
    CHECK(worst_R < 1e-9);
  }
}

TEST_CASE("urdf: InMoov's four joints with lower > upper load swapped, with one warning each") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto path = data_dir / "urdf" / "inmoov.urdf";
  const auto result = loadUrdf(path);
  REQUIRE(result.warnings.size() == 4);
  const char* const names[] = {"head_tilt", "left_thumb1", "left_ring1", "left_pinky1"};
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (const char* name : names) {
    CAPTURE(name);
    bool found = false;
    for (const auto& warning : result.warnings) {
      if (warning.find(std::string("'") + name + "'") == std::string::npos) continue;
      found = true;
      CHECK(warning.find(path.string() + ":") == 0);
      CHECK(warning.find("swapped") != std::string::npos);
      // The line the warning names holds that joint's <limit>.
      const auto colon = warning.find(':', path.string().size());
      const int line = std::stoi(warning.substr(path.string().size() + 1, colon - path.string().size() - 1));
      REQUIRE(line >= 1);
      CHECK(lines[static_cast<std::size_t>(line - 1)].find("<limit") != std::string::npos);
    }
    CHECK(found);
    const auto& joint = result.model.joints()[result.model.jointIndex(name)];
    CHECK(joint.limits.lower < joint.limits.upper);
  }
  const auto& head_tilt = result.model.joints()[result.model.jointIndex("head_tilt")];
  CHECK(head_tilt.limits.lower == doctest::Approx(-0.30));
  CHECK(head_tilt.limits.upper == doctest::Approx(0.30));
}

TEST_CASE("urdf: malformed files are refused with file, line, element and value") {
  struct Case {
    const char* what;
    std::string text;
    std::size_t line;
    std::vector<std::string> expected;
  };
  const std::string valid = validRobot();
  const std::vector<Case> cases = {
      {"malformed XML", replaceLine(valid, 9, "  <link name=\"hand\">"), 9, {"malformed XML", "MISMATCHED_ELEMENT"}},
      {"not a robot", "<?xml version=\"1.0\"?>\n<model name=\"x\"/>\n", 2, {"expected a <robot>", "<model>"}},
      {"unknown joint type", replaceLine(valid, 10, "  <joint name=\"shoulder\" type=\"slider\">"), 10,
       {"joint 'shoulder'", "unknown joint type 'slider'", "expected revolute"}},
      {"floating joint", replaceLine(valid, 17, "  <joint name=\"wrist\" type=\"floating\">"), 17,
       {"joint 'wrist'", "'floating' is not supported"}},
      {"missing parent link", replaceLine(valid, 11, "    <parent link=\"torso\"/>"), 11,
       {"joint 'shoulder'", "<parent link=\"torso\">", "does not exist"}},
      {"missing child link", replaceLine(valid, 19, "    <child link=\"palm\"/>"), 19,
       {"joint 'wrist'", "<child link=\"palm\">", "does not exist"}},
      {"cycle", insertBefore(valid, 22, "  <joint name=\"loop\" type=\"fixed\"><parent link=\"hand\"/><child link=\"base\"/></joint>"),
       22, {"joint 'loop'", "cycle"}},
      {"lower above upper is fine, but a non-number is not",
       replaceLine(valid, 15, "    <limit lower=\"-1\" upper=\"one\" velocity=\"2\" effort=\"3\"/>"), 15,
       {"joint 'shoulder'", "upper=\"one\"", "not a finite number"}},
      {"wrong vector size", replaceLine(valid, 13, "    <origin xyz=\"0 0.1\" rpy=\"0.1 0.2 0.3\"/>"), 13,
       {"joint 'shoulder'", "xyz=\"0 0.1\"", "has 2 numbers, expected 3"}},
      {"revolute without limit", replaceLine(valid, 15, ""), 10, {"joint 'shoulder'", "no <limit"}},
      {"duplicate link", replaceLine(valid, 9, "  <link name=\"arm\"/>"), 9, {"link name 'arm' is used twice", "line 6"}},
      {"two parents", insertBefore(valid, 22, "  <joint name=\"again\" type=\"fixed\"><parent link=\"base\"/><child link=\"hand\"/></joint>"),
       22, {"joint 'again'", "link 'hand' already has parent joint 'wrist'"}},
      {"zero axis", replaceLine(valid, 14, "    <axis xyz=\"0 0 0\"/>"), 14, {"joint 'shoulder'", "<axis xyz=\"0 0 0\"> is zero"}},
      {"negative mass", replaceLine(valid, 4, "    <inertial><mass value=\"-2\"/></inertial>"), 4,
       {"link 'base'", "<mass value=\"-2\">", "negative"}},
      {"mimic of unknown joint", replaceLine(valid, 20, "    <mimic joint=\"elbow\"/>"), 20,
       {"joint 'wrist'", "<mimic joint=\"elbow\">", "does not exist"}},
      {"bad geometry", replaceLine(valid, 7, "    <collision><geometry><cone radius=\"1\"/></geometry></collision>"), 7,
       {"link 'arm'", "unknown geometry <cone>"}},
      {"negative radius", replaceLine(valid, 7, "    <collision><geometry><sphere radius=\"-0.1\"/></geometry></collision>"), 7,
       {"link 'arm'", "<sphere> needs positive dimensions", "-0.1"}},
      {"second root", insertBefore(valid, 22, "  <link name=\"orphan\"/>"), 22, {"link 'orphan'", "not connected", "root link 'base'"}},
  };
  const auto dir = std::filesystem::temp_directory_path() / "retarget_urdf_malformed";
  std::filesystem::create_directories(dir);
  int index = 0;
  std::size_t refused = 0;
  for (const auto& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    const auto path = dir / ("case" + std::to_string(index++) + ".urdf");
    {
      std::ofstream out(path);
      out << c.text;
    }
    try {
      (void)loadUrdf(path);
      FAIL("accepted a malformed file");
    } catch (const ParseError& error) {
      ++refused;
      const std::string message = error.what();
      CAPTURE(message);
      CHECK(error.file() == path.string());
      CHECK(error.line() == c.line);
      CHECK(message.find(path.string() + ":" + std::to_string(c.line) + ":") != std::string::npos);
      for (const auto& part : c.expected) CHECK_MESSAGE(message.find(part) != std::string::npos, part);
    }
  }
  std::filesystem::remove_all(dir);
  CHECK(refused == cases.size());  // every malformed file was refused with a ParseError
  CHECK_THROWS_AS((void)loadUrdf(dir / "missing.urdf"), ParseError);
}
