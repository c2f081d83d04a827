// The floating-base humanoid mapper (mappers/humanoid_floating_base.hpp) on every shared MJCF
// humanoid (Unitree G1 and H1, Booster T1, Robotis OP3), checked by MuJoCo itself: the mapper's
// root pose goes into the free joint's qpos (position, then the quaternion w x y z), its joint
// angles into the hinges, mj_kinematics places the bodies, and the soles are the foot bodies'
// geoms as MuJoCo holds them (geom_xpos, geom_xmat, geom_size; no retarget code). Issue 54's
// bounds per take and robot: no frame with a sole point below -1 cm; of the stance frames at most
// 2 % floating above 2 cm, sliding faster than 0.3 m/s (the foot body's origin) or tilted more
// than 10 deg from the foot's rest orientation.
// The robots: none of these files is in `floating_base_defaults` or `foot_stance`
// (tests/tuning_split.md): T1 and OP3 are robots the floating base was never tuned on, and the
// takes are the held-out ones.

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/mjcf.hpp>
#include <retarget/mappers/humanoid_floating_base.hpp>

#include "mjcf/mujoco_reference.hpp"
#include "support/test_support.hpp"
#include "support/tuning_split.hpp"

using namespace retarget;

namespace {

// The lowest points of geom g as MuJoCo places it: a sphere's and a capsule's lowest points, a
// box's corners, a cylinder's rim.
void geomLowPoints(const mjModel* m, const mjData* d, int g, std::vector<Eigen::Vector3d>& out) {
  const Eigen::Vector3d c = Eigen::Map<const Eigen::Vector3d>(d->geom_xpos + 3 * g);
  const Eigen::Matrix3d R = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(d->geom_xmat + 9 * g);
  const double* s = m->geom_size + 3 * g;
  const Eigen::Vector3d down = -Eigen::Vector3d::UnitZ();
  switch (m->geom_type[g]) {
    case mjGEOM_SPHERE:
      out.push_back(c + s[0] * down);
      break;
    case mjGEOM_CAPSULE:
      for (double end : {-1.0, 1.0}) out.push_back(c + end * s[1] * R.col(2) + s[0] * down);
      break;
    case mjGEOM_BOX:
      for (int k = 0; k < 8; ++k) {
        out.push_back(c +
                      R * Eigen::Vector3d((k & 1 ? 1 : -1) * s[0], (k & 2 ? 1 : -1) * s[1], (k & 4 ? 1 : -1) * s[2]));
      }
      break;
    case mjGEOM_CYLINDER:
      for (int k = 0; k < 32; ++k) {
        const double a = 2 * kPi<double> * (k % 16) / 16.0;
        out.push_back(c + R * Eigen::Vector3d(s[0] * std::cos(a), s[0] * std::sin(a), (k < 16 ? -1 : 1) * s[1]));
      }
      break;
    default:
      break;  // meshes and planes are not soles
  }
}

}  // namespace

TEST_CASE("floating base on every shared MJCF humanoid: soles on the ground, planted and flat, by MuJoCo") {
  RETARGET_REQUIRE_TEST_DATA(data);
  struct Take {
    std::string key;
    SkeletonMotion<double> motion;
  };
  std::vector<Take> takes;
  for (const char* file :
       {"bvh/xia_cmu_skeleton31_strutting_walk_01_000.bvh", "bvh/cmu_skeleton31_deepmotionediting_example.bvh"}) {
    takes.push_back({file, bvhToSkeleton(readBvh(data / file))});
  }
  for (const char* name : {"walk-in-place", "squat", "one-leg-stand", "bow"}) {
    takes.push_back({std::string("generated:") + name, demoMotion(name)});
  }
  const std::vector<std::string> robots = {"mjcf/unitree_g1_g1.xml", "mjcf/unitree_h1_h1.xml", "mjcf/booster_t1_t1.xml",
                                           "mjcf/robotis_op3_op3.xml"};
  std::vector<std::string> held_out = robots;
  for (const Take& t : takes) held_out.push_back(t.key);
  test::requireHeldOut({"floating_base_defaults", "foot_stance"}, held_out);

  int checked = 0;
  for (const std::string& robot : robots) {
    CAPTURE(robot);
    const std::filesystem::path path = data / robot;
    const MjcfResult<double> mjcf = loadMjcf<double>(path.string());
    const RobotModel<double>& model = mjcf.model;
    REQUIRE(!mjcf.floating_base_body.empty());
    test::MujocoModel mujoco;
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    const std::filesystem::path scratch =
        std::filesystem::temp_directory_path() / ("retarget_floating_mjcf_" + std::to_string(::getpid()));
    REQUIRE_MESSAGE(mujoco.load(text.str(), scratch, path.filename().string()), mujoco.error);
    const mjModel* m = mujoco.model.get();
    mjData* d = mujoco.data.get();
    int free_address = -1;
    for (int j = 0; j < m->njnt; ++j) {
      if (m->jnt_type[j] == mjJNT_FREE) free_address = m->jnt_qposadr[j];
    }
    REQUIRE(free_address >= 0);
    std::vector<int> address(static_cast<std::size_t>(model.nq()));
    for (int i = 0; i < model.nq(); ++i) {
      const int joint = mujoco.joint(model.qName(i));
      REQUIRE_MESSAGE(joint >= 0, model.qName(i));
      address[static_cast<std::size_t>(i)] = m->jnt_qposadr[joint];
    }
    const HumanoidBinding binding = bindHumanoid(model);
    for (const Take& take : takes) {
      CAPTURE(take.key);
      HumanoidFloatingBaseOptions options;
      options.stance.floor = humanFloor(take.motion);
      HumanoidFloatingBaseMapper<double> mapper(model, binding, options);
      std::array<int, 2> foot{};
      std::array<Eigen::Matrix3d, 2> R_rest{};
      for (std::size_t s = 0; s < 2; ++s) {
        foot[s] = mujoco.body(mapper.soles()[s].link);
        REQUIRE_MESSAGE(foot[s] >= 0, mapper.soles()[s].link);
      }
      // The feet's rest orientation: every hinge at zero, the root upright.
      std::copy(m->qpos0, m->qpos0 + m->nq, d->qpos);
      for (int i = 0; i < model.nq(); ++i) d->qpos[address[static_cast<std::size_t>(i)]] = 0;
      d->qpos[free_address + 3] = 1;
      for (int k = 4; k < 7; ++k) d->qpos[free_address + k] = 0;
      mj_kinematics(m, d);
      for (std::size_t s = 0; s < 2; ++s) R_rest[s] = mujoco.xmat(foot[s]);

      Eigen::VectorXd q(model.nq());
      int below = 0, stance = 0, floating = 0, sliding = 0, tilted = 0;
      std::array<Eigen::Vector3d, 2> previous{};
      std::array<bool, 2> was{};
      for (std::size_t k = 0; k < take.motion.frames.size(); ++k) {
        (void)mapper.map(take.motion.frames[k], q);
        const Eigen::Isometry3d X = mapper.rootPose();
        const Eigen::Quaterniond r(X.linear());
        d->qpos[free_address + 0] = X.translation().x();
        d->qpos[free_address + 1] = X.translation().y();
        d->qpos[free_address + 2] = X.translation().z();
        d->qpos[free_address + 3] = r.w();
        d->qpos[free_address + 4] = r.x();
        d->qpos[free_address + 5] = r.y();
        d->qpos[free_address + 6] = r.z();
        for (int i = 0; i < model.nq(); ++i) d->qpos[address[static_cast<std::size_t>(i)]] = q[i];
        mj_kinematics(m, d);
        if (k == 0) CHECK((mujoco.xpos(mujoco.body(mjcf.floating_base_body)) - X.translation()).norm() < 1e-12);
        for (std::size_t s = 0; s < 2; ++s) {
          std::vector<Eigen::Vector3d> points;
          for (int g = 0; g < m->ngeom; ++g) {
            if (m->geom_bodyid[g] == foot[s]) geomLowPoints(m, d, g, points);
          }
          REQUIRE(!points.empty());
          double lowest = 1e9;
          for (const Eigen::Vector3d& p : points) lowest = std::min(lowest, p.z());
          if (lowest < -0.01) ++below;
          const Eigen::Vector3d origin = mujoco.xpos(foot[s]);
          const bool in_stance = mapper.contacts()[s];
          if (in_stance) {
            ++stance;
            if (lowest > 0.02) ++floating;
            const Eigen::Vector3d up = mujoco.xmat(foot[s]) * R_rest[s].transpose() * Eigen::Vector3d::UnitZ();
            if (std::acos(std::min(1.0, up.z())) > 10.0 * kPi<double> / 180.0) ++tilted;
            if (was[s] && k > 0) {
              const double dt = take.motion.frames[k].time - take.motion.frames[k - 1].time;
              if ((origin - previous[s]).head<2>().norm() / dt > 0.3) ++sliding;
            }
          }
          previous[s] = origin;
          was[s] = in_stance;
        }
      }
      MESSAGE(robot << " " << take.key << ": stance " << stance << ", below -1 cm " << below << ", floating "
                    << floating << ", sliding " << sliding << ", tilted " << tilted);
      CHECK(below == 0);
      CHECK(stance > 0);
      CHECK(floating <= 0.02 * stance);
      CHECK(sliding <= 0.02 * stance);
      CHECK(tilted <= 0.02 * stance);
      ++checked;
    }
  }
  CHECK(checked == static_cast<int>(robots.size() * takes.size()));
}
