// Built-in robot models: agreement with their source URDFs (through orocos KDL + kdl_parser,
// an independent URDF reader and FK, and, for the Unitree G1 and H1, field by field with our own
// loadUrdf of the same file), masses, configuration layout, collision shapes, and the per-frame
// contract of forward kinematics on them.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <set>

#include <retarget/io/urdf.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/robots/builtin.hpp>

#include "robots/kdl_reference.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// Compares every link frame the model shares with the URDF (position and rotation) on
// `count` seeded random configurations; returns the number of shared links.
int checkAgainstUrdf(const RobotModel<double>& model, const std::filesystem::path& urdf, int count,
                     unsigned seed) {
  test::KdlReference kdl;
  REQUIRE(kdl.load(urdf.string()));
  test::UrdfFacts facts;  // mimic joints resolved from the URDF itself, not from the model
  REQUIRE(facts.load(urdf.string()));
  const std::string kdl_root = kdl.tree().getRootSegment()->first;
  REQUIRE_MESSAGE(model.findLink(kdl_root) >= 0, "URDF root " << kdl_root << " missing from the model");
  RobotData<double> data(model);
  std::mt19937 rng(seed);
  int shared = 0;
  double worst_p = 0, worst_R = 0;
  for (int n = 0; n < count; ++n) {
    const VectorX<double> q = test::randomConfiguration(model, rng);
    forwardKinematics(model, data, q);
    kdl.setConfiguration(model, q, facts);
    const Isometry3<double> X_RootW = data.X_WL[model.linkIndex(kdl_root)].inverse();
    shared = 0;
    for (std::size_t i = 0; i < model.links().size(); ++i) {
      const std::string& name = model.links()[i].name;
      if (!kdl.hasSegment(name)) continue;
      ++shared;
      const Isometry3<double> X_RootL = X_RootW * data.X_WL[i];
      const Isometry3<double> X_ref = kdl.pose(name);
      worst_p = std::max(worst_p, (X_RootL.translation() - X_ref.translation()).norm());
      worst_R = std::max(worst_R, (X_RootL.linear() - X_ref.linear()).cwiseAbs().maxCoeff());
    }
  }
  CHECK(worst_p < 1e-9);
  CHECK(worst_R < 1e-9);
  return shared;
}

// A documented difference between a built-in model and its URDF: the limits of one joint.
struct LimitException {
  std::string joint;
  double lower, upper;
};

// Compares what the model took from its URDF with the URDF's own text (tinyxml2, see
// kdl_reference.hpp): every coordinate's position and velocity limits (unless listed in
// `exceptions`, which give the model's documented values instead), every mimic joint's driver,
// multiplier and offset, and every shared link's mass and centre of mass. Returns the number
// of {coordinates, mimic joints, links with mass} compared.
std::array<int, 3> checkUrdfFacts(const RobotModel<double>& model, const std::filesystem::path& urdf,
                                  const std::vector<LimitException>& exceptions = {}) {
  test::UrdfFacts facts;
  REQUIRE(facts.load(urdf.string()));
  std::array<int, 3> compared{0, 0, 0};
  for (int i = 0; i < model.nq(); ++i) {
    const std::string& name = model.qName(i);
    CAPTURE(name);
    const auto it = facts.joints.find(name);
    REQUIRE_MESSAGE(it != facts.joints.end(), "coordinate " << name << " is not a URDF joint");
    const auto& joint = it->second;
    CHECK_MESSAGE(!joint.mimic, "coordinate " << name << " is a mimic joint in the URDF");
    double lower = joint.lower.value_or(-std::numeric_limits<double>::infinity());
    double upper = joint.upper.value_or(std::numeric_limits<double>::infinity());
    if (joint.type == "continuous") {
      lower = -std::numeric_limits<double>::infinity();
      upper = std::numeric_limits<double>::infinity();
    }
    for (const auto& e : exceptions) {
      if (e.joint == name) {
        lower = e.lower;
        upper = e.upper;
      }
    }
    CHECK(model.lowerLimits()[i] == doctest::Approx(lower).epsilon(1e-12));
    CHECK(model.upperLimits()[i] == doctest::Approx(upper).epsilon(1e-12));
    const double velocity = joint.velocity && *joint.velocity > 0 ? *joint.velocity : std::numeric_limits<double>::infinity();
    CHECK(model.velocityLimits()[i] == doctest::Approx(velocity).epsilon(1e-12));
    ++compared[0];
  }
  for (const auto& joint : model.joints()) {
    const auto it = facts.joints.find(joint.name);
    if (it == facts.joints.end()) continue;
    CAPTURE(joint.name);
    if (!joint.isMimic()) {
      // A joint the model fixes or drives may only be a URDF mimic when the model fixes it.
      if (joint.moves()) CHECK_MESSAGE(!it->second.mimic, joint.name << " is a mimic joint in the URDF");
      continue;
    }
    REQUIRE_MESSAGE(it->second.mimic.has_value(), joint.name << " is a mimic joint in the model but not in the URDF");
    CHECK(model.qName(joint.mimic_q_index) == it->second.mimic->driver);
    CHECK(joint.mimic_multiplier == doctest::Approx(it->second.mimic->multiplier).epsilon(1e-12));
    CHECK(joint.mimic_offset == doctest::Approx(it->second.mimic->offset).epsilon(1e-12));
    ++compared[1];
  }
  for (const auto& link : model.links()) {
    const auto it = facts.links.find(link.name);
    if (it == facts.links.end()) continue;
    CAPTURE(link.name);
    CHECK(link.inertial.mass == doctest::Approx(it->second.mass.value_or(0.0)).epsilon(1e-12));
    if (it->second.mass.value_or(0.0) > 0) {
      CHECK((link.inertial.p_LCm - it->second.com).cwiseAbs().maxCoeff() < 1e-12);
      ++compared[2];
    }
  }
  return compared;
}

// Checks that a built-in model and loadUrdf() of its source file are the same model: robot
// name; links in the same order with the same masses, centres of mass and collision shapes
// (name, kind, capsule); joints in the same order with the same type, links, origin, axis,
// limits and mimic; the same q names and limits; and the same pose of every link (within
// 1e-12) at `count` seeded random configurations within the limits.
void checkEqualsLoadedUrdf(const RobotModel<double>& builtin, const std::filesystem::path& urdf, int count,
                           unsigned seed) {
  const auto loaded = loadUrdf<double>(urdf);
  CHECK(loaded.warnings.empty());
  const RobotModel<double>& model = loaded.model;
  CHECK(builtin.name() == model.name());
  // Equal numbers (both sides read the same decimal text), or infinities of the same sign.
  const auto same = [](double a, double b) { return a == b || std::abs(a - b) <= 1e-12; };
  REQUIRE(builtin.links().size() == model.links().size());
  for (std::size_t i = 0; i < model.links().size(); ++i) {
    const auto& ours = builtin.links()[i];
    const auto& theirs = model.links()[i];
    CAPTURE(theirs.name);
    CHECK(ours.name == theirs.name);
    CHECK(ours.parent_joint == theirs.parent_joint);
    CHECK(same(ours.inertial.mass, theirs.inertial.mass));
    CHECK((ours.inertial.p_LCm - theirs.inertial.p_LCm).cwiseAbs().maxCoeff() <= 1e-12);
    REQUIRE(ours.collisions.size() == theirs.collisions.size());
    for (std::size_t k = 0; k < theirs.collisions.size(); ++k) {
      const auto& a = ours.collisions[k];
      const auto& b = theirs.collisions[k];
      CHECK(a.name == b.name);
      CHECK_MESSAGE(static_cast<int>(a.kind) == static_cast<int>(b.kind),
                    a.name << ": built-in " << std::string(toString<double>(a.kind)) << ", loadUrdf "
                           << std::string(toString<double>(b.kind)));
      CHECK((a.capsule_L.a - b.capsule_L.a).norm() <= 1e-12);
      CHECK((a.capsule_L.b - b.capsule_L.b).norm() <= 1e-12);
      CHECK(same(a.capsule_L.radius, b.capsule_L.radius));
    }
  }
  REQUIRE(builtin.joints().size() == model.joints().size());
  for (std::size_t j = 0; j < model.joints().size(); ++j) {
    const auto& ours = builtin.joints()[j];
    const auto& theirs = model.joints()[j];
    CAPTURE(theirs.name);
    CHECK(ours.name == theirs.name);
    CHECK(static_cast<int>(ours.type) == static_cast<int>(theirs.type));
    CHECK(ours.parent_link == theirs.parent_link);
    CHECK(ours.child_link == theirs.child_link);
    CHECK((ours.X_PJ.matrix() - theirs.X_PJ.matrix()).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK((ours.X_JC.matrix() - theirs.X_JC.matrix()).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK((ours.axis - theirs.axis).cwiseAbs().maxCoeff() <= 1e-12);
    CHECK(same(ours.limits.lower, theirs.limits.lower));
    CHECK(same(ours.limits.upper, theirs.limits.upper));
    CHECK(same(ours.limits.velocity, theirs.limits.velocity));
    CHECK(same(ours.limits.effort, theirs.limits.effort));
    CHECK(ours.q_index == theirs.q_index);
    CHECK(ours.mimic_q_index == theirs.mimic_q_index);
    CHECK(ours.mimic_multiplier == theirs.mimic_multiplier);
    CHECK(ours.mimic_offset == theirs.mimic_offset);
  }
  REQUIRE(builtin.nq() == model.nq());
  CHECK(builtin.qNames() == model.qNames());
  for (int i = 0; i < model.nq(); ++i) {
    CAPTURE(model.qName(i));
    CHECK(same(builtin.lowerLimits()[i], model.lowerLimits()[i]));
    CHECK(same(builtin.upperLimits()[i], model.upperLimits()[i]));
    CHECK(same(builtin.velocityLimits()[i], model.velocityLimits()[i]));
  }
  CHECK(same(builtin.totalMass(), model.totalMass()));

  RobotData<double> ours(builtin), theirs(model);
  std::mt19937 rng(seed);
  double worst_p = 0, worst_R = 0;
  for (int n = 0; n < count; ++n) {
    const VectorX<double> q = test::randomConfiguration(model, rng);
    REQUIRE(withinLimits(model, q));
    forwardKinematics(builtin, ours, q);
    forwardKinematics(model, theirs, q);
    for (std::size_t i = 0; i < model.links().size(); ++i) {
      worst_p = std::max(worst_p, (ours.X_WL[i].translation() - theirs.X_WL[i].translation()).norm());
      worst_R = std::max(worst_R, (ours.X_WL[i].linear() - theirs.X_WL[i].linear()).cwiseAbs().maxCoeff());
    }
  }
  CHECK(worst_p <= 1e-12);
  CHECK(worst_R <= 1e-12);
}

}  // namespace

TEST_CASE("builtin NAO: 25 NAOqi coordinates, mimic hip, URDF names") {
  const auto nao = makeNao<double>();
  REQUIRE(nao.nq() == 25);
  for (int i = 0; i < 25; ++i) CHECK(nao.qName(i) == kNaoJointNames[i]);
  const auto& rhyp = nao.joints()[nao.jointIndex("RHipYawPitch")];
  CHECK(rhyp.isMimic());
  CHECK(rhyp.mimic_q_index == nao.qIndex("LHipYawPitch"));
  CHECK(nao.links()[0].name == "base_link");
  CHECK(nao.findLink("torso") >= 0);
  CHECK(nao.findLink("l_sole") >= 0);
  // Limits of the documented ranges (docs/nao_h25_kinematics_and_limits.yaml, degrees).
  const double deg = kPi<double> / 180;
  CHECK(nao.lowerLimits()[nao.qIndex("HeadYaw")] == doctest::Approx(-119.5 * deg).epsilon(1e-4));
  CHECK(nao.upperLimits()[nao.qIndex("LShoulderRoll")] == doctest::Approx(76.0 * deg).epsilon(1e-4));
  CHECK(nao.upperLimits()[nao.qIndex("RElbowRoll")] == doctest::Approx(88.5 * deg).epsilon(1e-4));
}

TEST_CASE("builtin NAO: collision shapes cover head, torso, arms and legs") {
  const auto nao = makeNao<double>();
  std::set<std::string> names;
  for (const auto& link : nao.links()) {
    for (const auto& shape : link.collisions) {
      names.insert(shape.name);
      CHECK(shape.capsule_L.radius > 0.01);
      CHECK(shape.capsule_L.radius < 0.1);
    }
  }
  for (const char* part : {"head", "torso", "l_upper_arm", "r_upper_arm", "l_forearm", "r_forearm", "l_hand",
                           "r_hand", "l_thigh", "r_thigh", "l_tibia", "r_tibia", "l_foot", "r_foot"}) {
    CHECK_MESSAGE(names.count(part) == 1, part);
  }
  // Left and right shapes mirror each other through the sagittal plane at the neutral pose.
  RobotData<double> data(nao);
  forwardKinematics(nao, data, VectorX<double>::Zero(nao.nq()));
  for (const auto& link : nao.links()) {
    for (const auto& shape : link.collisions) {
      if (shape.name.rfind("l_", 0) != 0) continue;
      const std::string mirror = "r_" + shape.name.substr(2);
      bool found = false;
      for (std::size_t i = 0; i < nao.links().size(); ++i) {
        for (const auto& other : nao.links()[i].collisions) {
          if (other.name != mirror) continue;
          found = true;
          const auto c = transformed(data.X_WL[nao.linkIndex(link.name)], shape.capsule_L);
          const auto m = transformed(data.X_WL[i], other.capsule_L);
          const Eigen::Vector3d flip(1, -1, 1);
          // The URDF hands differ by 0.18 mm in z (RHand -0.01213 vs LHand -0.01231).
          CHECK((c.a.cwiseProduct(flip) - m.a).norm() < 5e-4);
          CHECK((c.b.cwiseProduct(flip) - m.b).norm() < 5e-4);
          CHECK(c.radius == m.radius);
        }
      }
      CHECK_MESSAGE(found, mirror);
    }
  }
}

TEST_CASE("builtin NAO: agrees with nao_h25_v50.urdf on every link frame; masses sum to the URDF's") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto nao = makeNao<double>();
  const int shared = checkAgainstUrdf(nao, data_dir / "urdf" / "nao_h25_v50.urdf", test::sweepCount(1000), 11);
  CHECK(shared == static_cast<int>(nao.links().size()));
  // Independent sum of the URDF's <mass> values, read with KDL.
  test::KdlReference kdl;
  REQUIRE(kdl.load((data_dir / "urdf" / "nao_h25_v50.urdf").string()));
  double urdf_mass = 0;
  for (const auto& [name, element] : kdl.tree().getSegments()) urdf_mass += element.segment.getInertia().getMass();
  CHECK(nao.totalMass() == doctest::Approx(urdf_mass).epsilon(1e-12));
  // Every coordinate's position and velocity limits, the 2 x 14 finger + 1 hip mimic joints,
  // and every link's mass and centre of mass, as the URDF states them.
  const auto compared = checkUrdfFacts(nao, data_dir / "urdf" / "nao_h25_v50.urdf");
  MESSAGE("NAO vs URDF: " << compared[0] << " coordinates, " << compared[1] << " mimic joints, " << compared[2]
                          << " links with mass");
  CHECK(compared[0] == 25);
  CHECK(compared[1] == 17);  // RHipYawPitch and 2 x 8 finger joints
  CHECK(compared[2] > 20);
}

TEST_CASE_TEMPLATE("builtin NAO: float model compiles and matches double", Scalar, float, double) {
  const auto nao = makeNao<Scalar>();
  const auto nao_d = makeNao<double>();
  RobotData<Scalar> data(nao);
  RobotData<double> data_d(nao_d);
  std::mt19937 rng(5);
  const VectorX<double> q = test::randomConfiguration(nao_d, rng);
  forwardKinematics(nao, data, q.cast<Scalar>());
  forwardKinematics(nao_d, data_d, q);
  for (std::size_t i = 0; i < nao.links().size(); ++i) {
    CHECK((data.X_WL[i].translation().template cast<double>() - data_d.X_WL[i].translation()).norm() < 1e-5);
  }
}

TEST_CASE("builtin InMoov: the 22 controlled joints of seed 002") {
  const auto inmoov = makeInMoov<double>();
  REQUIRE(inmoov.nq() == 22);
  for (int i = 0; i < 22; ++i) CHECK(inmoov.qName(i) == kInMoovJointNames[i]);
  // 2 neck + per side 3 shoulder + elbow + wrist + 5 fingers.
  int right = 0, left = 0;
  for (int i = 0; i < inmoov.nq(); ++i) {
    right += inmoov.qName(i).rfind("right_", 0) == 0 ? 1 : 0;
    left += inmoov.qName(i).rfind("left_", 0) == 0 ? 1 : 0;
  }
  CHECK(right == 10);
  CHECK(left == 10);
  // Elbow range of the real robot's servo (0..90 deg, MyRobotLab's InMoov2 bicep), not the
  // seed's 0..135 deg; every controlled joint has lower < upper.
  CHECK(inmoov.upperLimits()[inmoov.qIndex("right_bicep")] == doctest::Approx(1.57));
  CHECK(inmoov.upperLimits()[inmoov.qIndex("left_bicep")] == doctest::Approx(1.57));
  for (int i = 0; i < inmoov.nq(); ++i) CHECK(inmoov.lowerLimits()[i] < inmoov.upperLimits()[i]);
  // Uncontrolled URDF joints are fixed; fingers segments are mimics of the finger drivers.
  for (const char* name : {"waist_rotate", "waist_lean", "head_tilt", "jaw", "eyes_updown"}) {
    CHECK(!inmoov.joints()[inmoov.jointIndex(name)].moves());
  }
  CHECK(inmoov.joints()[inmoov.jointIndex("right_index3")].mimic_q_index == inmoov.qIndex("right_index"));
}

TEST_CASE("builtin InMoov: agrees with inmoov.urdf on every link frame (uncontrolled joints at 0)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto inmoov = makeInMoov<double>();
  const int shared = checkAgainstUrdf(inmoov, data_dir / "urdf" / "inmoov.urdf", test::sweepCount(1000), 12);
  CHECK(shared == static_cast<int>(inmoov.links().size()));
  // Limits and mimics as the URDF states them, except where the real robot's servo range is
  // tighter (robots/inmoov.hpp) and the elbow's lower limit, named here: the URDF says 0.4 rad,
  // the built-in model 0 (the straight elbow MyRobotLab rests the arm in). The URDF has no
  // inertials (masses 0).
  const double deg = kPi<double> / 180;
  const auto compared = checkUrdfFacts(inmoov, data_dir / "urdf" / "inmoov.urdf",
                                       {{"head_leftright", -60 * deg, 60 * deg},
                                        {"right_shoulder_up", 0.0, 150 * deg},
                                        {"left_shoulder_up", 0.0, 150 * deg},
                                        {"right_bicep_rotate", -50 * deg, 1.57},
                                        {"left_bicep_rotate", -50 * deg, 1.57},
                                        {"right_bicep", 0.0, 1.57},    // URDF: 0.4 .. 1.57
                                        {"left_bicep", 0.0, 1.57}});   // URDF: 0.4 .. 1.57
  MESSAGE("InMoov vs URDF: " << compared[0] << " coordinates, " << compared[1] << " mimic joints");
  CHECK(compared[0] == 22);
  CHECK(compared[1] == 24);  // the finger segments (eye_leftright's mimic is fixed with its driver)
}

// MyRobotLab's InMoov2 servo configurations, written out by hand (MyRobotLab/InMoov2,
// config/InMoov2_Full/i01.<part>.yml, minOut / maxOut / rest in servo degrees; the commits are
// in robots/inmoov.hpp), and the direction in which each servo turns with its joint (the
// servo table's guess: +1, the right wrist -1). Joint angle q = direction * (s - rest) deg.
struct MrlServo {
  const char* joint;
  double min_deg, max_deg, rest_deg;
  int direction;
};
constexpr MrlServo kMrlServos[] = {
    {"head_updown", 20, 160, 90, 1},        // i01.head.neck
    {"head_leftright", 30, 150, 90, 1},     // i01.head.rothead
    {"right_shoulder_side", 10, 80, 10, 1}, // i01.rightArm.omoplate
    {"right_shoulder_up", 0, 180, 30, 1},   // i01.rightArm.shoulder
    {"right_bicep_rotate", 40, 180, 90, 1}, // i01.rightArm.rotate
    {"right_bicep", 0, 90, 0, 1},           // i01.rightArm.bicep
    {"right_hand", 0, 180, 0, -1},          // i01.rightHand.wrist
    {"right_thumb", 0, 180, 0, 1},          // i01.rightHand.thumb (and index, majeure, ...)
    {"right_index", 0, 180, 0, 1},
    {"right_middle", 0, 180, 0, 1},
    {"right_ring", 0, 180, 0, 1},
    {"right_pinky", 0, 180, 0, 1},
    {"left_shoulder_side", 10, 80, 10, 1},
    {"left_shoulder_up", 0, 180, 30, 1},
    {"left_bicep_rotate", 40, 180, 90, 1},
    {"left_bicep", 0, 90, 0, 1},
    {"left_hand", 0, 180, 0, 1},
    {"left_thumb", 0, 180, 0, 1},
    {"left_index", 0, 180, 0, 1},
    {"left_middle", 0, 180, 0, 1},
    {"left_ring", 0, 180, 0, 1},
    {"left_pinky", 0, 180, 0, 1},
};

TEST_CASE("builtin InMoov: every joint's limits lie inside the real robot's servo range (MyRobotLab InMoov2)") {
  const auto inmoov = makeInMoov<double>();
  const double deg = kPi<double> / 180;
  for (const MrlServo& servo : kMrlServos) {
    CAPTURE(servo.joint);
    const int i = inmoov.qIndex(servo.joint);
    const double a = servo.direction * (servo.min_deg - servo.rest_deg) * deg;
    const double b = servo.direction * (servo.max_deg - servo.rest_deg) * deg;
    const double servo_lower = std::min(a, b), servo_upper = std::max(a, b);
    CHECK(inmoov.lowerLimits()[i] >= servo_lower - 1e-9);
    CHECK(inmoov.upperLimits()[i] <= servo_upper + 1e-9);
    // The rest pose (q = 0) is a pose of the robot, so it lies within the limits.
    CHECK(inmoov.lowerLimits()[i] <= 0.0);
    CHECK(inmoov.upperLimits()[i] >= 0.0);
  }
  // Limits that came from the servo (tighter than the URDF), in degrees of the joint.
  CHECK(inmoov.upperLimits()[inmoov.qIndex("head_leftright")] == doctest::Approx(60 * deg));
  CHECK(inmoov.upperLimits()[inmoov.qIndex("right_shoulder_up")] == doctest::Approx(150 * deg));
  CHECK(inmoov.lowerLimits()[inmoov.qIndex("left_bicep_rotate")] == doctest::Approx(-50 * deg));
}

TEST_CASE("builtin InMoov: arms hang down, straight at zero; collision shapes mirror left/right") {
  const auto inmoov = makeInMoov<double>();
  RobotData<double> data(inmoov);
  forwardKinematics(inmoov, data, VectorX<double>::Zero(inmoov.nq()));
  for (const char* side : {"right_", "left_"}) {
    const Eigen::Vector3d shoulder = data.X_WL[inmoov.linkIndex(std::string(side) + "bicep")].translation();
    const Eigen::Vector3d elbow = data.X_WL[inmoov.linkIndex(std::string(side) + "forearm")].translation();
    const Eigen::Vector3d wrist = data.X_WL[inmoov.linkIndex(std::string(side) + "hand")].translation();
    CHECK((elbow - shoulder).normalized().z() < -0.99);
    CHECK((wrist - elbow).normalized().dot((elbow - shoulder).normalized()) > 0.99);
  }
  // Mirror check of the estimated shapes in the world frame (x forward, y left, z up).
  for (const std::string part : {"upper_arm", "forearm", "hand"}) {
    const auto find = [&](const std::string& name) {
      for (std::size_t i = 0; i < inmoov.links().size(); ++i) {
        for (const auto& shape : inmoov.links()[i].collisions) {
          if (shape.name == name) return transformed(data.X_WL[i], shape.capsule_L);
        }
      }
      FAIL("no shape " << name);
      return Capsule<double>{};
    };
    const auto r = find("r_" + part);
    const auto l = find("l_" + part);
    const Eigen::Vector3d flip(1, -1, 1);
    CHECK((r.a.cwiseProduct(flip) - l.a).norm() < 0.01);
    CHECK((r.b.cwiseProduct(flip) - l.b).norm() < 0.01);
  }
}

TEST_CASE("builtin Pepper, Baxter, YuMi: agree with their URDFs on every shared link frame") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto pepper = makePepper<double>();
  CHECK(pepper.nq() == 17);
  // Every Pepper link but the three wheels left out.
  CHECK(checkAgainstUrdf(pepper, data_dir / "urdf" / "pepper_1.0.urdf", test::sweepCount(1000), 13) ==
        static_cast<int>(pepper.links().size()));
  CHECK(pepper.links().size() + 3 == 83);
  const auto baxter = makeBaxter<double>();
  CHECK(baxter.nq() == 15);
  CHECK(checkAgainstUrdf(baxter, data_dir / "urdf" / "baxter.urdf", test::sweepCount(1000), 14) ==
        static_cast<int>(baxter.links().size()));
  const auto yumi = makeYumi<double>();
  CHECK(yumi.nq() == 16);
  CHECK(checkAgainstUrdf(yumi, data_dir / "urdf" / "abb_yumi_irb14000.urdf", test::sweepCount(1000), 15) ==
        static_cast<int>(yumi.links().size()));
  // Limits, mimics, masses and centres of mass as each URDF states them.
  const auto p = checkUrdfFacts(pepper, data_dir / "urdf" / "pepper_1.0.urdf");
  const auto b = checkUrdfFacts(baxter, data_dir / "urdf" / "baxter.urdf");
  const auto y = checkUrdfFacts(yumi, data_dir / "urdf" / "abb_yumi_irb14000.urdf");
  MESSAGE("Pepper " << p[0] << "/" << p[1] << "/" << p[2] << ", Baxter " << b[0] << "/" << b[1] << "/" << b[2]
                    << ", YuMi " << y[0] << "/" << y[1] << "/" << y[2] << " coordinates/mimics/links with mass");
  CHECK(p[0] == 17);
  CHECK(p[1] == 28);
  CHECK(p[2] > 20);
  CHECK(b[0] == 15);
  CHECK(b[2] > 10);
  CHECK(b[1] == 0);
  CHECK(y[0] == 16);
  CHECK(y[1] == 2);
  CHECK(y[2] > 10);
}

TEST_CASE("builtin Baxter and YuMi: 7-DOF arms") {
  const auto baxter = makeBaxter<double>();
  const auto yumi = makeYumi<double>();
  for (const char* side : {"left", "right"}) {
    const auto& hand = baxter.links()[baxter.linkIndex(std::string(side) + "_wrist")];
    int moving = 0;
    for (int k : hand.support) moving += baxter.joints()[k].moves() ? 1 : 0;
    CHECK(moving == 7);
  }
  for (const char* side : {"_l", "_r"}) {
    const auto& tip = yumi.links()[yumi.linkIndex(std::string("yumi_link_7") + side)];
    int moving = 0;
    for (int k : tip.support) moving += yumi.joints()[k].moves() ? 1 : 0;
    CHECK(moving == 7);
  }
}

TEST_CASE("builtin Unitree G1 and H1: equal loadUrdf of their URDFs (links, joints, q, limits, masses, shapes, FK)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto g1 = makeUnitreeG1<double>();
  CHECK(g1.nq() == 29);
  CHECK(g1.name() == "g1_29dof_rev_1_0");
  checkEqualsLoadedUrdf(g1, data_dir / "urdf" / "unitree_g1_29dof_rev_1_0.urdf", test::sweepCount(50), 41);
  const auto h1 = makeUnitreeH1<double>();
  CHECK(h1.nq() == 19);
  CHECK(h1.name() == "h1_description");
  checkEqualsLoadedUrdf(h1, data_dir / "urdf" / "unitree_h1.urdf", test::sweepCount(50), 42);
}

TEST_CASE("builtin Unitree G1 and H1: agree with their URDFs through KDL; limits and masses as the URDFs state") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto g1 = makeUnitreeG1<double>();
  const auto h1 = makeUnitreeH1<double>();
  CHECK(checkAgainstUrdf(g1, data_dir / "urdf" / "unitree_g1_29dof_rev_1_0.urdf", test::sweepCount(1000), 16) ==
        static_cast<int>(g1.links().size()));
  CHECK(checkAgainstUrdf(h1, data_dir / "urdf" / "unitree_h1.urdf", test::sweepCount(1000), 17) ==
        static_cast<int>(h1.links().size()));
  const auto g = checkUrdfFacts(g1, data_dir / "urdf" / "unitree_g1_29dof_rev_1_0.urdf");
  const auto h = checkUrdfFacts(h1, data_dir / "urdf" / "unitree_h1.urdf");
  MESSAGE("G1 " << g[0] << "/" << g[1] << "/" << g[2] << ", H1 " << h[0] << "/" << h[1] << "/" << h[2]
                << " coordinates/mimics/links with mass");
  CHECK(g[0] == 29);
  CHECK(g[1] == 0);
  CHECK(g[2] == 35);  // 39 links; the two IMU, camera and lidar frames have no mass
  CHECK(h[0] == 19);
  CHECK(h[1] == 0);
  CHECK(h[2] == 20);  // 25 links; IMU, logo, two camera and lidar frames have no mass
  // Total masses as the data manifest states them (33.3 and 59.3 kg).
  CHECK(g1.totalMass() == doctest::Approx(33.34114202).epsilon(1e-9));
  CHECK(h1.totalMass() == doctest::Approx(59.338).epsilon(1e-9));
}

TEST_CASE("builtin Unitree G1 and H1: q layout, collision primitives only, arms and legs") {
  const auto g1 = makeUnitreeG1<double>();
  const auto h1 = makeUnitreeH1<double>();
  CHECK(g1.links()[0].name == "pelvis");
  CHECK(h1.links()[0].name == "pelvis");
  CHECK(g1.qName(0) == "left_hip_pitch_joint");
  CHECK(g1.qName(12) == "waist_yaw_joint");
  CHECK(g1.qName(15) == "left_shoulder_pitch_joint");
  CHECK(g1.qName(28) == "right_wrist_yaw_joint");
  CHECK(h1.qName(0) == "left_hip_yaw_joint");
  CHECK(h1.qName(10) == "torso_joint");
  CHECK(h1.qName(18) == "right_elbow_joint");
  // The URDFs' primitives only (G1: its meshes are skipped): 12 and 23 shapes.
  const auto shapes = [](const RobotModel<double>& model) {
    std::size_t count = 0;
    for (const auto& link : model.links()) count += link.collisions.size();
    return count;
  };
  CHECK(shapes(g1) == 12);
  CHECK(shapes(h1) == 23);
  // Moving joints from the root to each hand / foot: G1 7 per arm (+3 waist), 6 per leg;
  // H1 4 per arm (+1 torso), 5 per leg.
  const auto moving = [](const RobotModel<double>& model, const std::string& link) {
    int count = 0;
    for (int k : model.links()[model.linkIndex(link)].support) count += model.joints()[k].moves() ? 1 : 0;
    return count;
  };
  for (const std::string side : {"left", "right"}) {
    CHECK(moving(g1, side + "_rubber_hand") == 10);
    CHECK(moving(g1, side + "_ankle_roll_link") == 6);
    CHECK(moving(h1, side + "_elbow_link") == 5);
    CHECK(moving(h1, side + "_ankle_link") == 5);
  }
}

TEST_CASE("builtin registry: names, case-insensitive lookup, error lists the known names") {
  const auto names = builtinRobotNames();
  CHECK(names.size() == 8);
  for (const auto& name : names) {
    CAPTURE(name);
    const auto model = makeBuiltinRobot<double>(name);
    CHECK(model.nq() > 0);
    // Every model has a collision model, and every shape is a valid capsule.
    int shapes = 0;
    for (const auto& link : model.links()) {
      for (const auto& shape : link.collisions) {
        ++shapes;
        CHECK(shape.capsule_L.radius > 0);
      }
    }
    CHECK(shapes > 0);
    // Limits are ordered and the neutral configuration is within them.
    for (int i = 0; i < model.nq(); ++i) CHECK(model.lowerLimits()[i] <= model.upperLimits()[i]);
    CHECK(withinLimits(model, model.neutralConfiguration()));
  }
  CHECK(makeBuiltinRobot<double>("NAO").name() == "NaoH25V50");
  // The Unitree models carry their URDFs' robot names; "unitree_g1" / "unitree_h1" are aliases.
  for (const char* alias : {"g1", "G1", "unitree_g1", "Unitree_G1"}) {
    CHECK(makeBuiltinRobot<double>(alias).name() == "g1_29dof_rev_1_0");
  }
  for (const char* alias : {"h1", "H1", "unitree_h1", "UNITREE_H1"}) {
    CHECK(makeBuiltinRobot<double>(alias).name() == "h1_description");
  }
  CHECK_THROWS_WITH_AS(
      (void)makeBuiltinRobot<double>("asimo"),
      doctest::Contains(
          "unknown built-in robot 'asimo' (expected one of: nao, pepper, inmoov, tangy, baxter, yumi, g1, h1)"),
      InvalidArgument);
}

TEST_CASE_TEMPLATE("builtin robots: float models build and agree with double", Scalar, float, double) {
  for (const auto& name : builtinRobotNames()) {
    CAPTURE(name);
    const auto model = makeBuiltinRobot<Scalar>(name);
    const auto model_d = makeBuiltinRobot<double>(name);
    RobotData<Scalar> data(model);
    RobotData<double> data_d(model_d);
    std::mt19937 rng(21);
    const VectorX<double> q = test::randomConfiguration(model_d, rng);
    forwardKinematics(model, data, q.cast<Scalar>());
    forwardKinematics(model_d, data_d, q);
    double worst = 0;
    for (std::size_t i = 0; i < model.links().size(); ++i) {
      worst = std::max(worst, (data.X_WL[i].translation().template cast<double>() - data_d.X_WL[i].translation()).norm());
    }
    CHECK(worst < 1e-4);
  }
}

TEST_CASE("builtin robots: forward kinematics per frame allocates nothing") {
  for (const auto& name : builtinRobotNames()) {
    CAPTURE(name);
    const auto model = makeBuiltinRobot<double>(name);
    RobotData<double> data(model);
    std::mt19937 rng(8);
    const VectorX<double> q = test::randomConfiguration(model, rng);
    std::size_t allocations = 0;
    {
      test::NoAllocationScope scope;
      forwardKinematics(model, data, q);
      (void)centerOfMass(model, data);
      allocations = scope.allocations();
    }
    CHECK(allocations == 0);
    CHECK(data.X_WL.back().matrix().allFinite());
  }
}
