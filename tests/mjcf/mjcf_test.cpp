// MJCF reader: every shared MJCF loads and agrees with MuJoCo 2.2.2 (mj_kinematics body poses,
// masses, centres of mass, primitive geoms) on seeded random configurations within the limits;
// small models, one per feature (defaults and childclass, euler sequences, degrees and radians,
// xyaxes, zaxis, axisangle, unnormalised quaternions, frames, joint pos, ref, fromto, include,
// the free joint), each checked against MuJoCo too; malformed files, each checked for its
// message; and loadRobotFile telling MJCF from URDF.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <unistd.h>

#include <retarget/io/mjcf.hpp>
#include <retarget/io/robot_file.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/robots/humanoid_binding.hpp>

#include "io/parse_error_cases.hpp"
#include "mjcf/mujoco_reference.hpp"
#include "support/random_configuration.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using retarget::test::randomConfiguration;

namespace {

/// Largest differences between the library and MuJoCo over a sweep.
struct Agreement {
  double position = 0;  ///< Body origins (m).
  double rotation = 0;  ///< Body orientations: angle of R_lib^T R_mujoco (rad).
  double mass = 0;      ///< Body masses (kg).
  double com = 0;       ///< Body centres of mass in W (m).
  double subtree_com = 0;  ///< Centre of mass of the whole model (m).
  double geom = 0;      ///< Collision capsule end points and radii against MuJoCo's geoms (m).
  int bodies = 0;       ///< Bodies compared per configuration.
  int geoms = 0;        ///< Geoms compared per configuration.
};

std::filesystem::path scratchDirectory(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("retarget_mjcf_test_" + std::to_string(::getpid())) / name;
  std::filesystem::create_directories(dir);
  return dir;
}

/// Runs `samples` random configurations (the first one q_ref) through the library and MuJoCo.
Agreement compareWithMujoco(const MjcfResult<double>& result, test::MujocoModel& mujoco, int samples, unsigned seed) {
  const RobotModel<double>& model = result.model;
  const mjModel* m = mujoco.model.get();
  mjData* d = mujoco.data.get();
  Agreement agreement;
  // The same moving joints: every library coordinate is a MuJoCo hinge or slide joint.
  int mujoco_dofs = 0;
  for (int j = 0; j < m->njnt; ++j) mujoco_dofs += m->jnt_type[j] == mjJNT_HINGE || m->jnt_type[j] == mjJNT_SLIDE ? 1 : 0;
  CHECK(mujoco_dofs == model.nq());
  std::vector<int> qpos_address(static_cast<std::size_t>(model.nq()));
  for (int i = 0; i < model.nq(); ++i) {
    const int joint = mujoco.joint(model.qName(i));
    REQUIRE_MESSAGE(joint >= 0, model.qName(i));
    qpos_address[static_cast<std::size_t>(i)] = m->jnt_qposadr[joint];
    // MuJoCo's qpos0 of a hinge or slide joint is its ref: the library's q_ref.
    CHECK(m->qpos0[m->jnt_qposadr[joint]] == doctest::Approx(result.q_ref[i]).epsilon(1e-12));
  }
  // Library links and MuJoCo bodies by name (the links "<body>::<joint>" have no counterpart).
  std::vector<int> body_of_link(model.links().size(), -1);
  for (std::size_t i = 0; i < model.links().size(); ++i) {
    const std::string& name = model.links()[i].name;
    body_of_link[i] = mujoco.body(name);
    if (name.find("::") == std::string::npos) {
      CHECK_MESSAGE(body_of_link[i] >= 0, name);
    }
    if (body_of_link[i] >= 0) ++agreement.bodies;
  }
  RobotData<double> data(model);
  data.X_WB = result.X_WB;
  std::mt19937 rng(seed);
  for (int n = 0; n < samples; ++n) {
    const VectorX<double> q = n == 0 ? result.q_ref : randomConfiguration(model, rng);
    std::copy(m->qpos0, m->qpos0 + m->nq, d->qpos);  // the free joint at the pose the file writes
    for (int i = 0; i < model.nq(); ++i) d->qpos[qpos_address[static_cast<std::size_t>(i)]] = q[i];
    mj_kinematics(m, d);
    mj_comPos(m, d);
    forwardKinematics(model, data, q);
    int geoms = 0;
    for (std::size_t i = 0; i < model.links().size(); ++i) {
      const int body = body_of_link[i];
      if (body < 0) continue;
      const Isometry3<double>& X_WL = data.X_WL[i];
      agreement.position = std::max(agreement.position, (X_WL.translation() - mujoco.xpos(body)).norm());
      const Eigen::AngleAxisd difference(Eigen::Matrix3d(X_WL.linear().transpose() * mujoco.xmat(body)));
      agreement.rotation = std::max(agreement.rotation, std::abs(difference.angle()));
      const Link<double>& link = model.links()[i];
      agreement.mass = std::max(agreement.mass, std::abs(link.inertial.mass - m->body_mass[body]));
      if (body > 0) {
        agreement.com = std::max(agreement.com, (X_WL * link.inertial.p_LCm - mujoco.xipos(body)).norm());
      }
      for (const auto& shape : link.collisions) {
        const int geom = mujoco.geom(shape.name);
        if (geom < 0) continue;
        ++geoms;
        const Eigen::Vector3d a = X_WL * shape.capsule_L.a;
        const Eigen::Vector3d b = X_WL * shape.capsule_L.b;
        const Eigen::Vector3d centre = mujoco.geomPos(geom);
        const double* size = m->geom_size + 3 * geom;
        double error = (0.5 * (a + b) - centre).norm();
        if (m->geom_type[geom] == mjGEOM_CAPSULE || m->geom_type[geom] == mjGEOM_CYLINDER) {
          const Eigen::Vector3d half = size[1] * mujoco.geomMat(geom).col(2);
          error = std::max(error, std::min((a - (centre - half)).norm() + (b - (centre + half)).norm(),
                                           (a - (centre + half)).norm() + (b - (centre - half)).norm()));
          error = std::max(error, std::abs(shape.capsule_L.radius - size[0]));
        } else if (m->geom_type[geom] == mjGEOM_SPHERE) {
          error = std::max(error, std::abs(shape.capsule_L.radius - size[0]) + (a - b).norm());
        }
        agreement.geom = std::max(agreement.geom, error);
      }
    }
    agreement.geoms = geoms;
    const int root = body_of_link[0];
    REQUIRE(root >= 0);
    agreement.subtree_com = std::max(agreement.subtree_com, (centerOfMass(model, data) - mujoco.subtreeCom(root)).norm());
  }
  return agreement;
}

/// Parses `text` (as file `name` in a scratch folder, beside `others`), loads its MuJoCo copy,
/// and checks that both agree to 1e-9 over `samples` configurations.
Agreement checkAgainstMujoco(const std::string& text, const std::string& name, int samples = 200,
                             const std::vector<std::pair<std::string, std::string>>& others = {}) {
  CAPTURE(name);
  const auto dir = scratchDirectory(name);
  std::filesystem::create_directories(dir / "mujoco");
  for (const auto& [file, content] : others) {
    std::ofstream(dir / file) << content;
    std::ofstream(dir / "mujoco" / file) << content;
  }
  std::ofstream(dir / (name + ".xml")) << text;
  const MjcfResult<double> result = loadMjcf(dir / (name + ".xml"));
  test::MujocoModel mujoco;
  const bool loaded = mujoco.load(text, dir / "mujoco", name + ".xml");
  REQUIRE_MESSAGE(loaded, mujoco.error);
  const Agreement agreement = compareWithMujoco(result, mujoco, test::sweepCount(samples), 7);
  CHECK(agreement.bodies >= 2);
  CHECK(agreement.position < 1e-9);
  CHECK(agreement.rotation < 1e-9);
  CHECK(agreement.mass < 1e-9);
  CHECK(agreement.com < 1e-9);
  CHECK(agreement.subtree_com < 1e-9);
  CHECK(agreement.geom < 1e-9);
  return agreement;
}

std::string replaceLine(const std::string& text, int line, const std::string& replacement) {
  std::istringstream in(text);
  std::ostringstream out;
  std::string current;
  for (int n = 1; std::getline(in, current); ++n) out << (n == line ? replacement : current) << "\n";
  return out.str();
}

const char* const kInertial = R"(<inertial pos="0.01 0.02 -0.03" mass="0.7" diaginertia="0.01 0.01 0.01"/>)";

std::string withInertials(std::string text) {
  for (std::size_t at = text.find("INERTIAL"); at != std::string::npos; at = text.find("INERTIAL")) {
    text.replace(at, 8, kInertial);
  }
  return text;
}

}  // namespace

TEST_CASE("mjcf: default classes, childclass, class, partial sizes and range=\"0 0\" defaults") {
  const std::string text = withInertials(R"(<mujoco model="defaults">
  <compiler angle="radian"/>
  <default>
    <joint axis="0 1 0" range="0 0"/>
    <geom type="capsule" size="0.02 0.1"/>
    <default class="arm">
      <joint axis="1 0 0" range="-1 1"/>
      <geom size="0.03"/>
      <default class="wrist">
        <joint axis="0 0 1" range="-0.5 0.25"/>
        <geom type="sphere" size="0.05"/>
      </default>
    </default>
    <default class="loose">
      <joint limited="false" range="-2 2"/>
    </default>
  </default>
  <worldbody>
    <body name="base" pos="0 0 1">
      INERTIAL
      <geom name="base_geom" pos="0 0 0.05"/>
      <geom name="base_partial" pos="0 0 -0.05" size="0.04"/>
      <body name="upper" pos="0.1 0 0" childclass="arm">
        INERTIAL
        <joint name="shoulder"/>
        <geom name="upper_geom" pos="0.1 0 0" quat="0.7071068 0 0.7071068 0"/>
        <body name="lower" pos="0.2 0 0">
          INERTIAL
          <joint name="elbow" class="main" range="-2 0.5"/>
          <joint name="elbow_twist" class="loose" pos="0.01 0 0"/>
          <body name="hand" pos="0.2 0 0" childclass="wrist">
            INERTIAL
            <joint name="wrist"/>
            <geom name="hand_geom"/>
            <geom name="hand_box" class="main" type="box" size="0.01 0.02 0.03"/>
          </body>
        </body>
      </body>
      <body name="leg" pos="0 0.1 0">
        INERTIAL
        <joint name="hip_swing"/>
        <joint name="hip_limited" range="-0.3 0.3" axis="1 0 0"/>
      </body>
    </body>
  </worldbody>
</mujoco>
)");
  const auto result = parseMjcf(text, "defaults.xml");
  const auto& model = result.model;
  CHECK(result.floating_base_body.empty());
  CHECK(model.links()[0].name == "world");
  CHECK(model.qNames() == std::vector<std::string>{"shoulder", "elbow", "elbow_twist", "wrist", "hip_swing", "hip_limited"});
  const auto joint = [&](const char* name) -> const Joint<double>& { return model.joints()[model.jointIndex(name)]; };
  CHECK(joint("shoulder").axis == Eigen::Vector3d::UnitX());
  CHECK((joint("shoulder").type == JointType::kRevolute));
  CHECK(joint("shoulder").limits.lower == -1.0);
  CHECK(joint("elbow").axis == Eigen::Vector3d::UnitY());
  CHECK(joint("elbow").limits.upper == 0.5);
  CHECK((joint("elbow_twist").type == JointType::kContinuous));  // limited="false" beats its range
  CHECK(joint("wrist").axis == Eigen::Vector3d::UnitZ());
  CHECK(joint("wrist").limits.upper == 0.25);
  CHECK((joint("hip_swing").type == JointType::kContinuous));  // range "0 0" from main: no limit
  CHECK((joint("hip_limited").type == JointType::kRevolute));
  CHECK(model.findLink("lower::elbow") >= 0);  // the body with two joints
  const auto& upper = model.links()[model.linkIndex("upper")].collisions.at(0);
  CHECK(upper.capsule_L.radius == 0.03);                              // partial size: radius from the element,
  CHECK(upper.capsule_L.length() == doctest::Approx(0.2).epsilon(1e-12));  // half length from main
  CHECK(model.links()[model.linkIndex("hand")].collisions.size() == 2);
  const auto& partial = model.links()[model.linkIndex("base")].collisions.at(1);  // own size="0.04"
  CHECK(partial.capsule_L.radius == 0.04);
  CHECK(partial.capsule_L.length() == doctest::Approx(0.2).epsilon(1e-12));
  const auto agreement = checkAgainstMujoco(text, "defaults");
  CHECK(agreement.geoms == 5);
}

TEST_CASE("mjcf: euler sequences (moving and fixed axes) in degrees, the MJCF default") {
  for (const char* sequence : {"xyz", "zyx", "XYZ", "ZyX", "yXz", "zxz"}) {
    CAPTURE(sequence);
    const std::string text = withInertials(std::string(R"(<mujoco model="euler">
  <compiler eulerseq=")") + sequence + R"("/>
  <worldbody>
    <body name="a" pos="0.1 0.2 0.3" euler="10 20 30">
      INERTIAL
      <joint name="j1" axis="0 1 1" range="-45 90"/>
      <geom name="ga" type="capsule" size="0.02 0.1" euler="90 0 45"/>
      <body name="b" pos="0 0 0.2" euler="-30 60 15">
        INERTIAL
        <joint name="j2" type="slide" axis="1 0 0" range="-0.1 0.2"/>
        <joint name="j3" axis="0 0 1" range="-170 170"/>
        <geom name="gb" type="cylinder" size="0.02 0.05" euler="5 -80 33"/>
      </body>
    </body>
  </worldbody>
</mujoco>
)");
    const auto result = parseMjcf(text, "euler.xml");
    CHECK(result.model.upperLimits()[0] == doctest::Approx(kPi<double> / 2).epsilon(1e-15));
    CHECK(result.model.upperLimits()[1] == 0.2);  // slide ranges are lengths, never converted
    checkAgainstMujoco(text, std::string("euler_") + sequence, 100);
  }
}

TEST_CASE("mjcf: the same model in degrees and in radians") {
  const auto model_text = [](bool degree) {
    const auto a = [&](double value_deg) {
      std::ostringstream out;
      out.precision(17);
      out << (degree ? value_deg : value_deg * kPi<double> / 180);
      return out.str();
    };
    return withInertials(std::string("<mujoco model=\"angles\">\n  <compiler angle=\"") + (degree ? "degree" : "radian") +
                         R"("/>
  <worldbody>
    <body name="a" euler=")" + a(15) + " " + a(-25) + " " + a(40) + R"(">
      INERTIAL
      <joint name="j1" axis="1 0 0" range=")" + a(-30) + " " + a(60) + "\" ref=\"" + a(20) + R"("/>
      <body name="b" pos="0.3 0 0" axisangle="0 1 1 )" + a(50) + R"(">
        INERTIAL
        <joint name="j2" axis="0 1 0" range=")" + a(-90) + " " + a(10) + R"("/>
      </body>
    </body>
  </worldbody>
</mujoco>
)");
  };
  const auto degrees = parseMjcf(model_text(true), "degrees.xml");
  const auto radians = parseMjcf(model_text(false), "radians.xml");
  CHECK(degrees.q_ref[0] == doctest::Approx(20 * kPi<double> / 180).epsilon(1e-15));
  CHECK(degrees.model.lowerLimits()[1] == doctest::Approx(-kPi<double> / 2).epsilon(1e-15));
  RobotData<double> data_degrees(degrees.model), data_radians(radians.model);
  std::mt19937 rng(5);
  double worst = 0;
  for (int n = 0; n < 100; ++n) {
    const VectorX<double> q = randomConfiguration(degrees.model, rng);
    forwardKinematics(degrees.model, data_degrees, q);
    forwardKinematics(radians.model, data_radians, q);
    for (std::size_t i = 0; i < degrees.model.links().size(); ++i) {
      worst = std::max(worst, (data_degrees.X_WL[i].matrix() - data_radians.X_WL[i].matrix()).cwiseAbs().maxCoeff());
    }
  }
  CHECK(worst < 1e-9);
  checkAgainstMujoco(model_text(true), "angles_degree");
  checkAgainstMujoco(model_text(false), "angles_radian");
}

TEST_CASE("mjcf: xyaxes, zaxis, axisangle and unnormalised quaternions") {
  const std::string text = withInertials(R"(<mujoco model="orientations">
  <compiler angle="radian"/>
  <worldbody>
    <body name="a" pos="0.1 0 0" xyaxes="1 1 0 0 1 0.3">
      INERTIAL
      <joint name="j1" axis="0 0 1" range="-1 1"/>
      <geom name="ga" type="capsule" size="0.02 0.1" zaxis="1 2 3"/>
      <body name="b" pos="0 0.2 0" zaxis="0.2 -0.5 0.7">
        INERTIAL
        <joint name="j2" axis="1 0 0" range="-1 1"/>
        <geom name="gb" type="capsule" size="0.02 0.1" zaxis="0 0 -1"/>
        <body name="c" pos="0 0 0.2" zaxis="0 0 -2">
          INERTIAL
          <joint name="j3" axis="0 1 0" range="-1 1"/>
          <geom name="gc" type="cylinder" size="0.02 0.1" xyaxes="0 1 0 -1 0 0"/>
          <body name="d" pos="0.1 0 0" axisangle="1 2 -2 0.7">
            INERTIAL
            <joint name="j4" axis="0 0 1" range="-1 1"/>
            <geom name="gd" type="capsule" size="0.02 0.1" quat="1 1 0 0"/>
            <body name="e" pos="0.1 0 0" quat="2 0.3 -1 0.5">
              INERTIAL
              <joint name="j5" axis="1 1 1" range="-1 1"/>
              <geom name="ge" type="box" size="0.01 0.05 0.02" axisangle="0 0 3 1.2"/>
              <body name="f" pos="0 0 0.1" zaxis="0 0 1">
                INERTIAL
                <joint name="j6" axis="0 1 0" range="-1 1"/>
              </body>
            </body>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)");
  const auto result = parseMjcf(text, "orientations.xml");
  const auto& d = result.model.joints()[result.model.jointIndex("j4")];
  CHECK((d.X_PJ.linear() * d.X_PJ.linear().transpose() - Eigen::Matrix3d::Identity()).norm() < 1e-15);
  const auto agreement = checkAgainstMujoco(text, "orientations");
  CHECK(agreement.geoms == 5);
}

TEST_CASE("mjcf: frames compose their pose and childclass into what they hold") {
  const std::string text = withInertials(R"(<mujoco model="frames">
  <compiler angle="radian"/>
  <default>
    <default class="red">
      <joint axis="0 1 0" range="-1 2"/>
      <geom type="capsule" size="0.01 0.04"/>
    </default>
  </default>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1"/>
    <frame pos="0.5 0 0.2" quat="0.9 0.1 0.3 0.2">
      <body name="base" pos="0 0 1" quat="1 0 0 0.4">
        <joint name="root" type="free"/>
        INERTIAL
        <frame pos="0.1 0.2 0.3" quat="0.5 0.5 0.5 0.5" childclass="red">
          <geom name="framed_geom" pos="0.01 0 0"/>
          <frame pos="0 0 0.1" quat="0 1 0 0">
            <body name="arm" pos="0.2 0 0" quat="0.8 0 0.6 0">
              INERTIAL
              <joint name="j1"/>
              <geom name="arm_geom" fromto="0 0 0 0.1 0.05 0"/>
              <frame pos="0 0.1 0" quat="0.7 0.7 0 0">
                <geom name="deep_geom" type="sphere" size="0.02" pos="0.03 0 0"/>
                <body name="hand" pos="0.1 0 0">
                  INERTIAL
                  <joint name="j2" axis="1 0 0"/>
                </body>
              </frame>
            </body>
          </frame>
        </frame>
      </body>
    </frame>
  </worldbody>
</mujoco>
)");
  const auto result = parseMjcf(text, "frames.xml");
  CHECK(result.floating_base_body == "base");
  CHECK(result.floating_base_joint == "root");
  CHECK(result.model.links()[0].name == "base");
  CHECK(result.model.joints()[result.model.jointIndex("j1")].limits.upper == 2.0);  // childclass of the frame
  CHECK(result.warnings.empty());  // the floor is a geom of the world, not of the robot
  const auto agreement = checkAgainstMujoco(text, "frames");
  CHECK(agreement.geoms == 3);
}

TEST_CASE("mjcf: joint pos, ref and several joints in one body") {
  const std::string text = withInertials(R"(<mujoco model="joints">
  <worldbody>
    <body name="a" pos="0 0 0.5" euler="0 10 0">
      INERTIAL
      <joint name="offset_hinge" pos="0.1 0.05 -0.02" axis="1 1 0" range="-60 80" ref="30"/>
      <body name="b" pos="0.3 0 0">
        INERTIAL
        <joint name="slide_ref" type="slide" axis="0 0 2" range="-0.1 0.3" ref="0.05"/>
        <joint name="second" pos="0 0.1 0" axis="0 1 0" range="-90 90" ref="-15"/>
        <joint name="third" pos="0.05 0 0.02" axis="1 0 0"/>
        <body name="c" pos="0 0 -0.2">
          INERTIAL
          <joint name="continuous_ref" pos="0 0 0.05" axis="0 0 1" ref="120"/>
        </body>
      </body>
    </body>
  </worldbody>
</mujoco>
)");
  const auto result = parseMjcf(text, "joints.xml");
  const auto& model = result.model;
  CHECK(result.q_ref[0] == doctest::Approx(kPi<double> / 6).epsilon(1e-15));
  CHECK(result.q_ref[1] == 0.05);
  CHECK(model.lowerLimits()[0] == doctest::Approx(-kPi<double> / 3).epsilon(1e-15));  // the range itself
  // At q = ref every body sits where the file writes it.
  RobotData<double> data(model);
  forwardKinematics(model, data, result.q_ref);
  CHECK(data.X_WL[static_cast<std::size_t>(model.linkIndex("b"))].translation().isApprox(
      data.X_WL[static_cast<std::size_t>(model.linkIndex("a"))] * Eigen::Vector3d(0.3, 0, 0), 1e-12));
  checkAgainstMujoco(text, "joints", 500);
}

TEST_CASE("mjcf: fromto capsules and cylinders, spheres and boxes against MuJoCo's geoms") {
  const std::string text = withInertials(R"(<mujoco model="geoms">
  <compiler angle="radian"/>
  <default>
    <default class="foot">
      <geom type="capsule" size="0.014" fromto="-0.035 0 -0.056 0.02 0 -0.045"/>
    </default>
  </default>
  <worldbody>
    <body name="a">
      INERTIAL
      <joint name="j1" axis="0 1 0" range="-1 1"/>
      <geom name="cap" type="capsule" size="0.03" fromto="0.02 0 -0.4 -0.02 0.01 0.02"/>
      <geom name="cyl" type="cylinder" size="0.05" fromto="0 0 0 0 0 -0.3"/>
      <geom name="cyl_up" type="cylinder" size="0.05" fromto="0 0 0 0 0 0.3"/>
      <geom name="foot" class="foot"/>
      <geom name="ball" type="sphere" size="0.05" pos="0 0 -0.115"/>
      <geom name="brick" type="box" size="0.1 0.05 0.015" pos="0.1 0 0" quat="1 1 0 0"/>
      <geom name="pill" type="capsule" size="0.02 0.07" pos="0 0.1 0" euler="0.3 0.2 0.1"/>
      <geom name="ghost" type="sphere" size="0.02" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
)");
  const auto result = parseMjcf(text, "geoms.xml");
  const auto& shapes = result.model.links()[result.model.linkIndex("a")].collisions;
  REQUIRE(shapes.size() == 7);  // the visual-only sphere is not a collision shape
  CHECK(shapes[0].capsule_L.a.isApprox(Eigen::Vector3d(0.02, 0, -0.4)));
  CHECK((shapes[0].kind == CollisionShape<double>::Kind::kCapsule));
  CHECK((shapes[1].kind == CollisionShape<double>::Kind::kCylinder));
  const auto agreement = checkAgainstMujoco(text, "geoms", 50);
  CHECK(agreement.geoms == 7);
}

TEST_CASE("mjcf: <include> of files beside the model, errors naming the included file") {
  const std::string parts = R"(<mujoco>
  <default>
    <joint axis="0 1 0" range="-0.5 0.5"/>
  </default>
</mujoco>
)";
  const std::string arm = withInertials(R"(<mujoco>
  <body name="forearm" pos="0.2 0 0">
    INERTIAL
    <joint name="elbow"/>
  </body>
</mujoco>
)");
  const std::string text = withInertials(R"(<mujoco model="included">
  <compiler angle="radian"/>
  <include file="parts.xml"/>
  <worldbody>
    <body name="upper" pos="0 0 1">
      INERTIAL
      <joint name="shoulder" axis="1 0 0"/>
      <include file="arm.xml"/>
    </body>
  </worldbody>
</mujoco>
)");
  checkAgainstMujoco(text, "included", 100, {{"parts.xml", parts}, {"arm.xml", arm}});
  const auto dir = scratchDirectory("included");
  const auto result = loadMjcf(dir / "included.xml");
  CHECK(result.model.qNames() == std::vector<std::string>{"shoulder", "elbow"});
  CHECK(result.model.joints()[result.model.jointIndex("elbow")].limits.upper == 0.5);
  // A missing included file, and a folder, are named.
  std::ofstream(dir / "missing.xml") << replaceLine(text, 3, R"(  <include file="no_such_parts.xml"/>)");
  CHECK_THROWS_WITH_AS(loadMjcf(dir / "missing.xml"), doctest::Contains("missing.xml:3: <include file=\"no_such_parts.xml\">: cannot open"), ParseError);
  std::ofstream(dir / "folder.xml") << replaceLine(text, 3, R"(  <include file=".."/>)");
  CHECK_THROWS_WITH_AS(loadMjcf(dir / "folder.xml"), doctest::Contains("as a file"), ParseError);
  // An error inside an included file names that file and its line.
  std::ofstream(dir / "arm.xml") << replaceLine(arm, 4, R"(    <joint name="elbow" type="ball"/>)");
  try {
    (void)loadMjcf(dir / "included.xml");
    FAIL("no exception");
  } catch (const ParseError& e) {
    CHECK(e.file() == (dir / "arm.xml").string());
    CHECK(e.line() == 4);
    CHECK(std::string(e.what()).find("ball joints are not supported") != std::string::npos);
  }
}

TEST_CASE("mjcf: the free joint as <joint type=\"free\"> on a later body; sections read past") {
  const std::string text = withInertials(R"(<mujoco model="floating">
  <compiler angle="radian"/>
  <option timestep="0.002"/>
  <worldbody>
    <light pos="0 0 3"/>
    <body name="table" pos="1 0 0">
      INERTIAL
      <geom name="top" type="box" size="0.5 0.5 0.02"/>
    </body>
    <body name="pelvis" pos="0 0.1 0.8" quat="0.9 0 0 0.1">
      INERTIAL
      <geom name="pelvis_geom" type="sphere" size="0.1"/>
      <joint name="floating" type="free"/>
      <body name="thigh" pos="0 0 -0.1">
        INERTIAL
        <joint name="hip" axis="0 1 0" range="-1 1"/>
        <joint name="hip_roll" axis="1 0 0" range="-0.5 0.5"/>
      </body>
      <body name="thigh2" pos="0 0 -0.1">
        INERTIAL
        <joint name="hip2" axis="0 1 0" range="-1 1"/>
      </body>
    </body>
  </worldbody>
  <equality>
    <joint joint1="hip" joint2="hip2"/>
  </equality>
  <actuator>
    <motor joint="hip"/>
  </actuator>
  <sensor>
    <jointpos joint="hip"/>
  </sensor>
  <keyframe>
    <key name="home" qpos="0 0 1 1 0 0 0 0 0 0"/>
  </keyframe>
</mujoco>
)");
  const auto result = parseMjcf(text, "floating.xml");
  CHECK(result.floating_base_body == "pelvis");
  CHECK(result.floating_base_joint == "floating");
  CHECK(result.model.nq() == 3);
  CHECK(result.model.findLink("table") < 0);
  REQUIRE(result.warnings.size() == 1);
  CHECK(result.warnings[0].find("floating.xml:6: body 'table' is not in the floating base's subtree") == 0);
  CHECK(result.X_WB.translation() == Eigen::Vector3d(0, 0.1, 0.8));
  checkAgainstMujoco(text, "floating");
}

TEST_CASE_TEMPLATE("mjcf: float and double readers agree", Scalar, float, double) {
  const std::string text = withInertials(R"(<mujoco>
  <worldbody>
    <body name="a" euler="10 20 30">
      INERTIAL
      <joint name="j" axis="1 1 0" pos="0.1 0 0" range="-90 90" ref="10"/>
      <geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.03"/>
    </body>
  </worldbody>
</mujoco>
)");
  const auto model = parseMjcf<Scalar>(text).model;
  const auto reference = parseMjcf<double>(text).model;
  RobotData<Scalar> data(model);
  RobotData<double> data_d(reference);
  VectorX<double> q(1);
  q << 0.4;
  forwardKinematics(model, data, q.cast<Scalar>());
  forwardKinematics(reference, data_d, q);
  for (std::size_t i = 0; i < model.links().size(); ++i) {
    CHECK((data.X_WL[i].matrix().template cast<double>() - data_d.X_WL[i].matrix()).cwiseAbs().maxCoeff() < 1e-6);
  }
  CHECK(model.name() == "MuJoCo Model");
}

TEST_CASE("mjcf: every shared MJCF loads and agrees with MuJoCo 2.2.2 on random configurations") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  struct Expected {
    const char* file;
    const char* base;
    int nq;
    std::size_t links;
    std::size_t meshes;
  };
  const Expected kFiles[] = {{"unitree_g1_g1.xml", "pelvis", 29, 30, 59},
                             {"unitree_h1_h1.xml", "pelvis", 19, 20, 21},
                             {"booster_t1_t1.xml", "Trunk", 23, 24, 24},
                             {"robotis_op3_op3.xml", "body_link", 20, 21, 46}};
  unsigned seed = 200;
  for (const Expected& expected : kFiles) {
    const std::string file = expected.file;
    CAPTURE(file);
    const auto path = data_dir / "mjcf" / expected.file;
    const auto result = loadMjcf(path);
    const auto& model = result.model;
    CHECK(result.warnings.empty());
    CHECK(result.floating_base_body == expected.base);
    CHECK(model.links()[0].name == expected.base);
    CHECK(model.nq() == expected.nq);
    CHECK(model.links().size() == expected.links);
    CHECK(result.mesh_geoms.size() == expected.meshes);
    if (file == "unitree_g1_g1.xml") {
      CHECK(model.joints()[model.jointIndex("left_hip_pitch_joint")].limits.effort == 88.0);  // actuatorfrcrange
    }
    if (file == "robotis_op3_op3.xml") {
      CHECK((model.joints()[model.jointIndex("head_pan")].type == JointType::kContinuous));  // no range
      CHECK(std::isinf(model.joints()[model.jointIndex("head_pan")].limits.effort));
    }
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    test::MujocoModel mujoco;
    const bool loaded = mujoco.load(text.str(), scratchDirectory(std::string("shared_") + expected.file), expected.file);
    REQUIRE_MESSAGE(loaded, mujoco.error);
    const Agreement agreement = compareWithMujoco(result, mujoco, test::sweepCount(1000), seed++);
    MESSAGE(file << ": " << agreement.bodies << " bodies, " << agreement.geoms << " primitive geoms; max error "
                          << agreement.position << " m, " << agreement.rotation << " rad; mass " << agreement.mass
                          << " kg, CoM " << agreement.com << " m, total CoM " << agreement.subtree_com << " m, geoms "
                          << agreement.geom << " m");
    CHECK(agreement.bodies == static_cast<int>(expected.links));
    CHECK(agreement.position < 1e-9);
    CHECK(agreement.rotation < 1e-9);
    CHECK(agreement.mass < 1e-9);
    CHECK(agreement.com < 1e-9);
    CHECK(agreement.subtree_com < 1e-9);
    CHECK(agreement.geom < 1e-9);
  }
}

TEST_CASE("mjcf: malformed files name the file, line and element") {
  const std::string valid = withInertials(R"(<mujoco model="tiny">
  <compiler angle="radian"/>
  <default>
    <default class="limb"><joint range="-1 1"/></default>
  </default>
  <worldbody>
    <body name="base">
      <freejoint/>
      INERTIAL
      <body name="arm" pos="0 0 0.1">
        INERTIAL
        <joint name="shoulder" class="limb"/>
        <geom type="capsule" size="0.02 0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>
)");
  REQUIRE_NOTHROW(parseMjcf(valid, "tiny.xml"));
  const std::vector<test::ParseErrorCase> cases = {
      {replaceLine(valid, 12, R"(        <joint name="shoulder" type="ball"/>)"), 12, "<joint name='shoulder'>: ball joints are not supported"},
      {replaceLine(valid, 12, R"(        <joint name="shoulder" type="screw"/>)"), 12, "unknown joint type 'screw'"},
      {replaceLine(replaceLine(valid, 8, R"(      <geom type="sphere" size="0.1"/>)"), 12, R"(        <freejoint/>)"), 12,
       "free joint in body 'arm', which is not a child of <worldbody>"},
      {replaceLine(valid, 12, R"(        <joint name="shoulder" class="leg"/>)"), 12, "uses default class 'leg', which is not defined"},
      {replaceLine(valid, 12, R"(        <joint name="shoulder" type="slide"/>)"), 12, "a slide joint needs a range"},
      {replaceLine(valid, 12, R"(        <joint name="shoulder" range="1 -1"/>)"), 12, "range=\"1 -1\": the lower limit must be below the upper limit"},
      {replaceLine(valid, 12, R"(        <joint name="shoulder" axis="0 0 0" class="limb"/>)"), 12, "<joint name='shoulder'> has a zero axis"},
      {replaceLine(valid, 12, R"(        <joint name="shoulder" limited="maybe"/>)"), 12, "limited=\"maybe\""},
      {replaceLine(valid, 10, R"(      <body name="arm" pos="0 0 x">)"), 10, "<body name='arm'> attribute pos=\"0 0 x\": 'x' is not a finite number"},
      {replaceLine(valid, 10, R"(      <body name="arm" pos="0 0">)"), 10, "has 2 numbers, expected 3"},
      {replaceLine(valid, 10, R"(      <body name="arm" quat="1 0 0 0" euler="0 0 1">)"), 10, "has two orientations ('quat' and 'euler')"},
      {replaceLine(valid, 10, R"(      <body name="arm" quat="0 0 0 0">)"), 10, "<body name='arm'> has a zero quaternion"},
      {replaceLine(valid, 10, R"(      <body name="arm" xyaxes="1 0 0 2 0 0">)"), 10, "y is parallel to x"},
      {replaceLine(valid, 10, R"(      <body name="base">)"), 10, "body name 'base' is used twice (first on line 7)"},
      {replaceLine(valid, 2, R"(  <compiler angle="grad"/>)"), 2, "<compiler angle=\"grad\">: expected \"degree\" or \"radian\""},
      {replaceLine(valid, 2, R"(  <compiler eulerseq="xyw"/>)"), 2, "<compiler eulerseq=\"xyw\">: expected three of x, y, z"},
      {replaceLine(valid, 2, R"(  <compiler coordinate="global"/>)"), 2, "coordinate=\"global\"> is not supported"},
      {replaceLine(valid, 2, R"(  <compiler autolimits="false"/>)"), 12, "has a range but no 'limited' while <compiler autolimits=\"false\">"},
      {replaceLine(valid, 4, R"(    <default class="limb"><joint range="-1 1"/></default><default class="limb"/>)"), 4, "default class 'limb' is defined twice"},
      {replaceLine(valid, 13, R"(        <geom type="sphere" size="0"/>)"), 13, "of type sphere needs 1 positive size number(s)"},
      {replaceLine(valid, 13, R"(        <geom type="sphere" size="0.1" fromto="0 0 0 0 0 1"/>)"), 13, "'fromto' on a sphere geom is not supported"},
      {replaceLine(valid, 13, R"(        <geom type="capsule" size="0.1" fromto="0 0 1 0 0 1"/>)"), 13, "has zero length"},
      {replaceLine(valid, 13, R"(        <geom type="blob"/>)"), 13, "unknown geom type 'blob'"},
      {replaceLine(valid, 13, R"(        <composite type="rope"/>)"), 13, "<composite> is not supported"},
      {replaceLine(valid, 13, R"(        <inertial mass="1"/>)"), 13, "body 'arm' has a second <inertial> (first on line 11)"},
      {replaceLine(valid, 11, R"(        <inertial mass="-1"/>)"), 11, "<inertial mass=\"-1\"> is negative"},
      {replaceLine(valid, 11, R"(        <freejoint/>)"), 11, "a second free joint (in body 'arm'; the first is in body 'base')"},
      {replaceLine(valid, 13, R"(        <frame><joint name="elbow"/></frame>)"), 13, "<joint name='elbow'> inside a <frame> is not supported"},
      {replaceLine(valid, 13, R"(        <include file="arm.xml"/>)"), 13, "<include file=\"arm.xml\">: the text was given without a folder"},
      {replaceLine(valid, 7, R"(    <joint name="hover"/><body name="base">)"), 7, "<joint name='hover'> directly in <worldbody>"},
      {replaceLine(valid, 12, R"(        <joint name="shoulder" class="limb"/><joint name="shoulder" class="limb"/>)"), 12,
       "joint name 'shoulder' is used twice"},
      {"<robot name=\"tiny\"/>\n", 1, "expected a <mujoco> root element, got <robot>"},
      {replaceLine(valid, 12, R"(        <joint name="shoulder" class="limb">)"), 12, "malformed XML"},
  };
  test::checkParseErrors(cases, "tiny.xml", [](const std::string& text) { (void)parseMjcf(text, "tiny.xml"); });
  // Two free joints: the second one is named.
  const std::string two_free = withInertials(R"(<mujoco>
  <worldbody>
    <body name="a"><freejoint/>INERTIAL</body>
    <body name="b"><freejoint/>INERTIAL</body>
  </worldbody>
</mujoco>
)");
  test::checkParseErrors({{two_free, 4, "a second free joint (in body 'b'; the first is in body 'a')"}}, "two.xml",
                         [](const std::string& text) { (void)parseMjcf(text, "two.xml"); });
  CHECK_THROWS_WITH_AS(loadMjcf("/no/such/model.xml"), doctest::Contains("cannot open MJCF file"), ParseError);
}

TEST_CASE("mjcf: loadRobotFile tells MJCF from URDF by the root element") {
  CHECK((robotFileFormat("<?xml version=\"1.0\"?>\n<!-- a <robot> comment -->\n<mujoco model=\"m\">") ==
         RobotFileFormat::kMjcf));
  CHECK((robotFileFormat("<mujoco>") == RobotFileFormat::kMjcf));
  CHECK((robotFileFormat("<mujoco/>") == RobotFileFormat::kMjcf));
  CHECK((robotFileFormat("<!DOCTYPE x>\n<robot name=\"r\">") == RobotFileFormat::kUrdf));
  CHECK((robotFileFormat("<mujocoX>") == RobotFileFormat::kUrdf));
  CHECK((robotFileFormat("") == RobotFileFormat::kUrdf));
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto mjcf = loadRobotFile(data_dir / "mjcf" / "unitree_h1_h1.xml");
  CHECK((mjcf.format == RobotFileFormat::kMjcf));
  CHECK(mjcf.floating_base_body == "pelvis");
  CHECK(mjcf.model.nq() == 19);
  const auto urdf = loadRobotFile(data_dir / "urdf" / "unitree_h1.urdf");
  CHECK((urdf.format == RobotFileFormat::kUrdf));
  CHECK(urdf.model.nq() == 19);
  CHECK(urdf.floating_base_body.empty());
  CHECK_THROWS_WITH_AS(loadRobotFile("/no/such/robot.xml"), doctest::Contains("cannot open robot description file"),
                       ParseError);
}

// The automatic binding's axes on every shared MJCF humanoid (issue 55): MuJoCo Menagerie models
// are x forward, y left, z up (ROS REP 103, which their URDF twins follow: the URDF test asserts
// the same), and each robot's limbs named left lie on its left. Robotis OP3's feet are centred
// under the ankles, so its forward cannot come from them (robots/internal/humanoid_binder.hpp,
// kFootAsymmetry); before that rule OP3 was bound facing backwards, its left limbs as right ones.
TEST_CASE("mjcf: every shared MJCF humanoid binds x forward, z up, its left limbs on the left") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* name : {"unitree_g1_g1.xml", "unitree_h1_h1.xml", "booster_t1_t1.xml", "robotis_op3_op3.xml"}) {
    const std::string file = name;
    CAPTURE(file);
    const auto loaded = loadMjcf(data_dir / "mjcf" / name);
    const HumanoidBinding b = bindHumanoid(loaded.model);
    std::string notes;
    for (const std::string& note : b.notes) notes += "\n  " + note;
    MESSAGE(file, ":", notes);
    CHECK(b.R_BR.isApprox(Eigen::Matrix3d::Identity()));
    for (const std::string& note : b.notes) CHECK(note.find("names disagree") == std::string::npos);
  }
}
