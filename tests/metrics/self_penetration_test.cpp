// Self-penetration depth: a two-capsule model whose depth is known in closed form (a prismatic
// slider pushing one capsule into another), and Tangy configurations with real overlaps
// cross-checked pair by pair against a brute-force distance between densely sampled capsule
// axes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <retarget/metrics/self_penetration.hpp>
#include <retarget/robots/tangy.hpp>

using namespace retarget;

namespace {

// A vertical capsule (radius 0.1, z from -0.5 to 0.5) on the base, and a horizontal capsule
// (radius 0.05, y from -0.3 to 0.3) on a slider that moves along x: the signed distance is
// x - 0.15, so the depth is max(0, 0.15 - x).
RobotModel<double> slider() {
  RobotModelBuilder<double> b("slider");
  b.addLink("base").addLink("arm");
  JointSpec<double> joint;
  joint.name = "slide";
  joint.type = JointType::kPrismatic;
  joint.parent_link = "base";
  joint.child_link = "arm";
  joint.axis = Eigen::Vector3d::UnitX();
  joint.limits.lower = -1.0;
  joint.limits.upper = 1.0;
  b.addJoint(joint);
  b.addCollision("base", CollisionShape<double>{"post", CollisionShape<double>::Kind::kCapsule,
                                                Capsule<double>{{0, 0, -0.5}, {0, 0, 0.5}, 0.1}});
  b.addCollision("arm", CollisionShape<double>{"bar", CollisionShape<double>::Kind::kCapsule,
                                               Capsule<double>{{0, -0.3, 0.2}, {0, 0.3, 0.2}, 0.05}});
  return b.build();
}

// Brute force: the smallest distance between `samples` points on each axis, minus the radii.
double bruteForce(const Capsule<double>& a, const Capsule<double>& b, int samples) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= samples; ++i) {
    const Eigen::Vector3d pa = a.a + (a.b - a.a) * (static_cast<double>(i) / samples);
    for (int j = 0; j <= samples; ++j) {
      const Eigen::Vector3d pb = b.a + (b.b - b.a) * (static_cast<double>(j) / samples);
      best = std::min(best, (pa - pb).norm());
    }
  }
  return best - a.radius - b.radius;
}

}  // namespace

TEST_CASE("self-penetration: a slider pushed into a post by a known depth") {
  const auto model = slider();
  SelfCollisionOptions options;
  options.exclude_adjacent = false;  // one joint between the two shapes
  const SelfCollisionModel<double> collision(model, options);
  REQUIRE(collision.pairs().size() == 1);
  Eigen::MatrixXd q(5, 1);
  q << 0.5, 0.2, 0.1, 0.0, -0.05;  // gap 0.35, gap 0.05, 5 cm in, 15 cm in, past the axis: 10 cm in
  const SelfPenetration p = selfPenetration(collision, q);
  REQUIRE(p.depth.size() == 5);
  CHECK(p.depth[0] == 0.0);
  CHECK(p.depth[1] == 0.0);
  CHECK(p.depth[2] == doctest::Approx(0.05).epsilon(1e-12));
  CHECK(p.depth[3] == doctest::Approx(0.15).epsilon(1e-12));
  CHECK(p.depth[4] == doctest::Approx(0.10).epsilon(1e-12));
  CHECK(p.max_depth == doctest::Approx(0.15));
  CHECK(p.worst_frame == 3);
  CHECK(p.worst_pair == "post / bar");
  CHECK(p.frames_in_penetration == 3);
  CHECK(p.mean_depth == doctest::Approx((0.05 + 0.15 + 0.10) / 5));
  CHECK_THROWS_WITH_AS(selfPenetration(collision, Eigen::MatrixXd::Zero(2, 3)), doctest::Contains("joint columns"),
                       InvalidArgument);
}

TEST_CASE("self-penetration: Tangy overlaps agree with the brute-force capsule distance") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  SelfCollisionChecker<double> checker(collision);
  std::mt19937 rng(3);
  int penetrating = 0;
  for (int trial = 0; trial < 400 && penetrating < 8; ++trial) {
    Eigen::VectorXd q(tangy.nq());
    for (int i = 0; i < tangy.nq(); ++i) {
      q[i] = std::uniform_real_distribution<double>(tangy.lowerLimits()[i], tangy.upperLimits()[i])(rng);
    }
    checker.update(q);
    int pair = -1;
    const double depth = penetrationDepth(collision, checker, &pair);
    // Independent value: the deepest brute-force overlap over every checked pair.
    double brute = 0;
    int brute_pair = -1;
    const auto& world = checker.worldShapes();
    for (std::size_t k = 0; k < collision.pairs().size(); ++k) {
      const auto& pr = collision.pairs()[k];
      const double d = bruteForce(world[static_cast<std::size_t>(pr.a)], world[static_cast<std::size_t>(pr.b)], 300);
      if (-d > brute) {
        brute = -d;
        brute_pair = static_cast<int>(k);
      }
    }
    // Sampling finds a distance at most (segment length / samples) too long: < 2 mm here.
    CHECK(std::abs(depth - brute) < 2e-3);
    if (brute > 5e-3) {
      ++penetrating;
      // The pair reported as deepest overlaps by that depth by brute force too.
      REQUIRE(pair >= 0);
      const auto& pr = collision.pairs()[static_cast<std::size_t>(pair)];
      CHECK(std::abs(-bruteForce(world[static_cast<std::size_t>(pr.a)], world[static_cast<std::size_t>(pr.b)], 300) -
                     depth) < 2e-3);
      (void)brute_pair;
      const SelfPenetration p = selfPenetration(collision, q.transpose());
      CHECK(p.max_depth == doctest::Approx(depth).epsilon(1e-12));
      CHECK(p.worst_pair == collision.pairName(static_cast<std::size_t>(pair)));
    }
  }
  CHECK(penetrating >= 3);  // the sweep did meet real overlaps
}
