#pragma once

// Shared fixtures of the safety tests: every built-in robot with a collision model, random
// configurations, and FCL as the independent reference for collision checks.

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include <retarget/robots/baxter.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/tangy.hpp>
#include <retarget/robots/yumi.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/safety/self_collision.hpp>

#include "support/random_configuration.hpp"
#include "support/test_support.hpp"

namespace retarget::test {

/// A human motion and the name it is reported under.
struct NamedMotion {
  std::string name;
  SkeletonMotion<double> motion;
};

/// The shared Kinect v2 recordings (MANIFEST.md: 7: 5 LabanotationSuite, 2 Keraal), sorted by
/// file name, each named by it; none, recorded as missing data (fails under
/// RETARGET_REQUIRE_DATA), without ../shared/data.
inline std::vector<NamedMotion> kinectRecordings() {
  std::vector<NamedMotion> out;
  const auto data = testDataDir();
  if (!data) {
    recordMissingData("the shared Kinect recordings");
    return out;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(*data / "kinect")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  CHECK(files.size() == 7);
  for (const auto& f : files) out.push_back({f.filename().string(), readKinect(f.string())});
  return out;
}

struct CollisionRobot {
  std::string name;
  RobotModel<double> model;
  SelfCollisionOptions options;
};

/// Tangy with its shipped options; Baxter, YuMi, NAO, Pepper with the always-touching pairs
/// computed from random configurations.
inline std::vector<CollisionRobot> collisionRobots() {
  std::vector<CollisionRobot> out;
  out.push_back({"Tangy", makeTangy<double>(), tangySelfCollisionOptions()});
  out.push_back({"Baxter", makeBaxter<double>(), {}});
  out.push_back({"YuMi", makeYumi<double>(), {}});
  out.push_back({"NAO", makeNao<double>(), {}});
  out.push_back({"Pepper", makePepper<double>(), {}});
  for (std::size_t i = 1; i < out.size(); ++i) {
    out[i].options.excluded_pairs = alwaysCollidingPairs(out[i].model, out[i].options, 500);
  }
  return out;
}

struct FclResult {
  bool collide = false;
  double distance = 0;  // FCL's distance when separated
};

/// FCL's answer for two capsules (spheres when a == b), given in one frame.
inline FclResult fclCheck(const Capsule<double>& A, const Capsule<double>& B) {
  const auto pose = [](const Capsule<double>& c) {
    fcl::Transform3d X = fcl::Transform3d::Identity();
    X.translation() = 0.5 * (c.a + c.b);
    const Eigen::Vector3d d = c.b - c.a;
    if (d.norm() > 0) X.linear() = Eigen::Quaterniond::FromTwoVectors(Eigen::Vector3d::UnitZ(), d).toRotationMatrix();
    return X;
  };
  const auto geometry = [](const Capsule<double>& c) -> std::shared_ptr<fcl::CollisionGeometryd> {
    if (c.length() == 0) return std::make_shared<fcl::Sphered>(c.radius);
    return std::make_shared<fcl::Capsuled>(c.radius, c.length());
  };
  const auto ga = geometry(A), gb = geometry(B);
  const fcl::Transform3d X_A = pose(A), X_B = pose(B);
  FclResult out;
  fcl::CollisionRequestd creq;
  fcl::CollisionResultd cres;
  fcl::collide(ga.get(), X_A, gb.get(), X_B, creq, cres);
  out.collide = cres.isCollision();
  fcl::DistanceRequestd dreq;
  fcl::DistanceResultd dres;
  fcl::distance(ga.get(), X_A, gb.get(), X_B, dreq, dres);
  out.distance = dres.min_distance;
  return out;
}

/// Independent FCL pass over every checked pair of `collision` at q: the number of pairs FCL
/// finds colliding after inflating every shape by margin / 2 (so "colliding" = closer than the
/// margin), and the smallest FCL distance between the un-inflated separated shapes (m).
inline int fclCollidingPairs(const SelfCollisionModel<double>& collision, const Eigen::VectorXd& q, double margin,
                             double* min_distance = nullptr) {
  RobotData<double> data(collision.model());
  forwardKinematics(collision.model(), data, q);
  int colliding = 0;
  double best = std::numeric_limits<double>::infinity();
  for (const auto& p : collision.pairs()) {
    const auto& sa = collision.shapes()[static_cast<std::size_t>(p.a)];
    const auto& sb = collision.shapes()[static_cast<std::size_t>(p.b)];
    Capsule<double> A = transformed(data.X_WL[static_cast<std::size_t>(sa.link)], sa.capsule_L);
    Capsule<double> B = transformed(data.X_WL[static_cast<std::size_t>(sb.link)], sb.capsule_L);
    A.radius += margin / 2;
    B.radius += margin / 2;
    const FclResult r = fclCheck(A, B);
    colliding += r.collide ? 1 : 0;
    if (!r.collide) best = std::min(best, r.distance + margin);
  }
  if (min_distance != nullptr) *min_distance = best;
  return colliding;
}

}  // namespace retarget::test
