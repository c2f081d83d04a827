// Self-collision model (seed 001, Section 2.2.1): pair selection, signed distances pair by pair
// against FCL on random configurations of every built-in robot, distance gradients against
// finite differences (penetrating and touching pairs included), the always-touching pairs
// computed from random configurations.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/sphere.h>
#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include <retarget/robots/baxter.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/tangy.hpp>
#include <retarget/robots/yumi.hpp>
#include <retarget/safety/self_collision.hpp>

#include "safety/safety_test_support.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

TEST_CASE("self-collision: Tangy's body as the paper models it, and its pairs") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  CHECK(collision.shapes().size() == 14);  // head, five upper-torso capsules, two cables, lower torso, 2 x 2 arms
  // No pair on the torso alone (rigid), none between an arm's links joined by one joint,
  // the listed always-touching pairs excluded.
  for (std::size_t k = 0; k < collision.pairs().size(); ++k) {
    const auto& p = collision.pairs()[k];
    CHECK(collision.shapes()[static_cast<std::size_t>(p.a)].link != collision.shapes()[static_cast<std::size_t>(p.b)].link);
    CHECK(collision.pairName(k) != "upper_torso_shoulders / l_upper_arm");
  }
  // 10 body shapes x 4 arm shapes + 4 arm-arm pairs across the arms, minus 2 excluded shoulder pairs.
  CHECK(collision.pairs().size() == 10 * 4 + 4 - 2);
  // The always-touching list shipped as data is exactly what random configurations find.
  auto found = alwaysCollidingPairs(tangy, SelfCollisionOptions{}, sweepCount(3000));
  auto listed = tangySelfCollisionOptions().excluded_pairs;
  const auto normalise = [](auto& v) {
    for (auto& [a, b] : v) if (b < a) std::swap(a, b);
    std::sort(v.begin(), v.end());
  };
  normalise(found);
  normalise(listed);
  CHECK(found == listed);
}

TEST_CASE("self-collision: checks agree with FCL pair by pair on random configurations of every built-in robot") {
  for (auto& rc : collisionRobots()) {
    CAPTURE(rc.name);
    const SelfCollisionModel<double> collision(rc.model, rc.options);
    REQUIRE(collision.pairs().size() > 0);
    SelfCollisionChecker<double> checker(collision);
    std::mt19937 rng(7);
    int compared = 0, colliding = 0, disagreements = 0;
    double worst = 0;
    for (int s = 0; s < sweepCount(200); ++s) {
      checker.update(randomConfiguration(rc.model, rng));
      for (std::size_t k = 0; k < collision.pairs().size(); ++k) {
        const auto& p = collision.pairs()[k];
        const Capsule<double>& A = checker.worldShapes()[static_cast<std::size_t>(p.a)];
        const Capsule<double>& B = checker.worldShapes()[static_cast<std::size_t>(p.b)];
        const FclResult ref = fclCheck(A, B);
        const double d = checker.result(k).distance;
        if (std::abs(d) < 1e-9) continue;  // touching: either answer is right
        ++compared;
        colliding += d < 0 ? 1 : 0;
        if ((d < 0) != ref.collide) ++disagreements;
        if (d > 0) worst = std::max(worst, std::abs(d - ref.distance));
      }
    }
    MESSAGE(rc.name << ": " << collision.shapes().size() << " shapes, " << collision.pairs().size() << " pairs, "
                    << compared << " pair checks (" << colliding << " colliding), worst |d - d_fcl| = " << worst);
    CHECK(disagreements == 0);
    CHECK(worst < 1e-9);
    CHECK(colliding > 0);
  }
}

TEST_CASE("self-collision: Baxter's 1 mm placeholder spheres are filtered") {
  const auto baxter = makeBaxter<double>();
  const SelfCollisionModel<double> collision(baxter, SelfCollisionOptions{});
  for (const auto& s : collision.shapes()) CHECK(s.capsule_L.radius >= 0.002);
  int placeholders = 0;
  for (const auto& l : baxter.links()) {
    for (const auto& c : l.collisions) placeholders += c.capsule_L.radius < 0.002 ? 1 : 0;
  }
  CHECK(placeholders > 0);
}

TEST_CASE("self-collision: distance gradients match finite differences, at contact too") {
  // Every pair of every sampled configuration is checked, penetrating and touching ones included
  // (the ones avoidance acts on). Where the distance is smooth the gradient matches the central
  // difference. Within h of a kink the distance is the minimum of smooth branches (the closest
  // points jumping from one edge to another: the branch at q has the forward or the backward
  // slope) or a cone (the two centre points meeting, as Tangy's collinear forearms at q = 0: the
  // gradient n^T (J_b - J_a) with the chosen normal n lies between the backward slope -|v| and
  // the forward slope |v|). Either way each coordinate of the gradient lies between the backward
  // and the forward difference; those pairs are counted and their number bounded.
  for (auto& rc : collisionRobots()) {
    CAPTURE(rc.name);
    const SelfCollisionModel<double> collision(rc.model, rc.options);
    SelfCollisionChecker<double> checker(collision), probe(collision);
    std::mt19937 rng(9);
    const int nq = rc.model.nq();
    Eigen::RowVectorXd g(nq), central(nq), forward(nq), backward(nq);
    const double h = 1e-6, tolerance = 1e-4;
    double worst = 0;
    int checked = 0, penetrating = 0, near_contact = 0, one_sided = 0, mismatches = 0;
    for (int s = 0; s < sweepCount(20); ++s) {
      // Tangy's q = 0 first: its forearms lie on one line (a kink of their distance).
      const Eigen::VectorXd q =
          s == 0 && rc.name == "Tangy" ? Eigen::VectorXd(Eigen::VectorXd::Zero(nq)) : randomConfiguration(rc.model, rng);
      checker.update(q);
      for (std::size_t k = 0; k < collision.pairs().size(); ++k) {
        checker.gradient(k, g);
        const double d0 = checker.result(k).distance;
        for (int i = 0; i < nq; ++i) {
          Eigen::VectorXd qp = q, qm = q;
          qp[i] += h;
          qm[i] -= h;
          probe.update(qp);
          const double dp = probe.result(k).distance;
          probe.update(qm);
          const double dm = probe.result(k).distance;
          central[i] = (dp - dm) / (2 * h);
          forward[i] = (dp - d0) / h;
          backward[i] = (d0 - dm) / h;
        }
        ++checked;
        penetrating += d0 < 0 ? 1 : 0;
        near_contact += std::abs(d0) < 0.01 ? 1 : 0;
        double err = (g - central).cwiseAbs().maxCoeff();
        if (err > tolerance) {
          ++one_sided;
          const Eigen::RowVectorXd lo = forward.cwiseMin(backward), hi = forward.cwiseMax(backward);
          err = (lo - g).cwiseMax(g - hi).cwiseMax(0.0).maxCoeff();  // distance outside [lo, hi]
          if (err > tolerance) {
            ++mismatches;
            MESSAGE(rc.name << " pair " << collision.pairName(k) << " at d = " << d0 << " m: |g - fd| = " << err);
          }
        }
        worst = std::max(worst, err);
      }
    }
    MESSAGE(rc.name << ": " << checked << " gradients (" << penetrating << " penetrating, " << near_contact
                    << " within 1 cm of contact), " << one_sided << " needed one-sided differences, worst |g - fd| = "
                    << worst);
    CHECK(mismatches == 0);
    CHECK(worst < tolerance);
    CHECK(penetrating > 0);          // the sweep reaches the pairs avoidance acts on
    CHECK(one_sided * 100 <= checked);  // kinks are rare: at most 1 % of the pairs
    if (rc.name == "Tangy") CHECK(one_sided > 0);  // q = 0 exercises the kink branch
  }
}

TEST_CASE("self-collision: update() and gradient() allocate nothing") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  SelfCollisionChecker<double> checker(collision);
  Eigen::VectorXd q = Eigen::VectorXd::Constant(8, 0.3);
  Eigen::RowVectorXd g(8);
  NoAllocationScope scope;
  checker.update(q);
  for (std::size_t k = 0; k < collision.pairs().size(); ++k) checker.gradient(k, g);
  CHECK(scope.allocations() == 0);
}

TEST_CASE("self-collision: options are validated") {
  const auto tangy = makeTangy<double>();
  SelfCollisionOptions bad;
  bad.margin = -1;
  CHECK_THROWS_WITH_AS(SelfCollisionModel<double>(tangy, bad), doctest::Contains("margin"), InvalidArgument);
  bad = SelfCollisionOptions{};
  bad.excluded_pairs = {{"head", "nope"}};
  CHECK_THROWS_WITH_AS(SelfCollisionModel<double>(tangy, bad), doctest::Contains("nope"), InvalidArgument);
}
