// Self-collision model (seed 001, Section 2.2.1): pair selection, signed distances pair by pair
// against FCL on random configurations of every built-in robot, distance gradients against
// finite differences (penetrating and touching pairs included), the always-touching pairs
// computed from random configurations; the printed two-capsule cases of the seed against the
// exact distance; Tangy as reconstructed from Appendix A (forward raise, q = 0).
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

namespace {

// The two-capsule case analysis printed in seed 001, Section 2.2.1 (after Eq. 9), as written:
// the distance D between axes M_t M_b and N_t N_b. d1..d4 are the perpendicular distances from
// M_t, M_b to line N_t N_b and from N_t, N_b to line M_t M_b; M_h, N_h the feet of the common
// perpendicular of the two lines; P the intersection of intersecting lines. Only here to show
// what docs/methods/triangle.md says about it: the library does not use it.
double printedCapsuleCases(const Eigen::Vector3d& Mt, const Eigen::Vector3d& Mb, const Eigen::Vector3d& Nt,
                           const Eigen::Vector3d& Nb) {
  const auto toLine = [](const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
    const Eigen::Vector3d u = (b - a).normalized();
    return ((p - a) - (p - a).dot(u) * u).norm();
  };
  const double d1 = toLine(Mt, Nt, Nb), d2 = toLine(Mb, Nt, Nb), d3 = toLine(Nt, Mt, Mb), d4 = toLine(Nb, Mt, Mb);
  const double d_ends = std::min({d1, d2, d3, d4});
  const Eigen::Vector3d u = Mb - Mt, v = Nb - Nt, w = Mt - Nt;
  if (u.cross(v).norm() < 1e-12) return std::min(d1, d2);  // case 2: parallel
  // Feet of the common perpendicular of the two lines (M_h = Mt + s u, N_h = Nt + t v).
  const double a = u.dot(u), b = u.dot(v), c = v.dot(v), d = u.dot(w), e = v.dot(w), den = a * c - b * b;
  const Eigen::Vector3d Mh = Mt + ((b * e - c * d) / den) * u, Nh = Nt + ((a * e - b * d) / den) * v;
  const auto same = [](double x, double y) { return std::abs(x - y) < 1e-12; };
  if (std::abs(u.dot((Nt - Mt).cross(Nb - Mt))) > 1e-12) {  // case 1: skew
    const bool on_m = same((Mh - Mt).norm() + (Mb - Mh).norm(), u.norm());
    const bool on_n = same((Nh - Nt).norm() + (Nb - Nh).norm(), v.norm());
    if (on_m && on_n) return (Mh - Nh).norm();             // 1(i)
    return std::min((Mh - Nh).norm(), d_ends);              // 1(ii)
  }
  const Eigen::Vector3d P = Mh;  // case 3: intersecting, M_h = N_h = P
  if (same((P - Mt).norm() + u.norm(), (P - Mb).norm()) && same((P - Nt).norm() + v.norm(), (P - Nb).norm())) {
    return 0.0;  // 3(i), as printed
  }
  return d_ends;  // 3(ii)
}

}  // namespace

TEST_CASE("self-collision: the printed capsule cases (seed 001, Section 2.2.1) are wrong where the library is exact") {
  // Hand-computed (docs/methods/triangle.md, "Departure: exact segment distance"): axes of
  // radius 0, so the signed distance is the segment distance D.
  struct Example {
    const char* what;
    Eigen::Vector3d Mt, Mb, Nt, Nb;
    double printed;  // what the printed cases give
    double exact;    // the segment distance
  };
  const double r2 = std::sqrt(2.0), r5 = std::sqrt(5.0);
  const Example examples[] = {
      // Skew: M_h = (3, 0, 0) lies off M, |M_hN_h| = 1; the closest points are M_b and (3, 0, 1).
      {"skew, feet off the segments", {0, 0, 0}, {1, 0, 0}, {3, -1, 1}, {3, 1, 1}, 1.0, r5},
      // Crossing at P = (0, 0, 0) inside both: printed test 1 + 2 != 1 fails, min d_i = 1.
      {"crossing inside both", {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}, 1.0, 0.0},
      // Lines meet at P = (-1, 0, 0) beyond M_t and N_t: printed test 1 + 1 = 2 passes on both.
      {"lines meet outside both", {0, 0, 0}, {1, 0, 0}, {-1, 1, 0}, {-1, 2, 0}, 0.0, r2},
      // Parallel, offset along the axis: d1 = d2 = 1; the closest points are M_b and N_t.
      {"parallel, no overlap", {0, 0, 0}, {1, 0, 0}, {3, 1, 0}, {4, 1, 0}, 1.0, r5},
      // A case the printed rule gets right (1(i)): feet inside both segments.
      {"skew, feet inside", {-1, 0, 0}, {1, 0, 0}, {0, -1, 1}, {0, 1, 1}, 1.0, 1.0},
  };
  for (const Example& x : examples) {
    CAPTURE(x.what);
    CHECK(printedCapsuleCases(x.Mt, x.Mb, x.Nt, x.Nb) == doctest::Approx(x.printed).epsilon(1e-12));
    const Capsule<double> M{x.Mt, x.Mb, 0.0}, N{x.Nt, x.Nb, 0.0};
    CHECK(distance(M, N).distance == doctest::Approx(x.exact).epsilon(1e-12));
    if (x.exact > 0) {  // FCL agrees (1 mm radii: its capsules need some thickness)
      const Capsule<double> M1{x.Mt, x.Mb, 1e-3}, N1{x.Nt, x.Nb, 1e-3};
      CHECK(fclCheck(M1, N1).distance == doctest::Approx(x.exact - 2e-3).epsilon(1e-6));
    }
  }
  // The consequences with radii: 0.6 + 0.6 on the skew pair is a false collision for the printed
  // rule (1 < 1.2) and 1.036 m of clearance for ours; 0.3 + 0.3 on the crossing pair is a missed
  // collision (printed 1 > 0.6) and 0.6 m of penetration for ours.
  CHECK(distance(Capsule<double>{examples[0].Mt, examples[0].Mb, 0.6}, Capsule<double>{examples[0].Nt, examples[0].Nb, 0.6})
            .distance == doctest::Approx(r5 - 1.2).epsilon(1e-12));
  CHECK(distance(Capsule<double>{examples[1].Mt, examples[1].Mb, 0.3}, Capsule<double>{examples[1].Nt, examples[1].Nb, 0.3})
            .distance == doctest::Approx(-0.6).epsilon(1e-12));
}

TEST_CASE("self-collision: Tangy as reconstructed - a forward raise is the pitch, and q = 0 has the forearms crossed") {
  const auto tangy = makeTangy<double>();
  RobotData<double> data(tangy);
  const int shoulder = tangy.linkIndex("l_frame_0"), elbow = tangy.linkIndex("l_link3");
  // Left upper-arm direction (base frame: x forward, y left, z up) at (theta1, theta2).
  const auto upperArm = [&](double roll, double pitch) {
    Eigen::VectorXd q = Eigen::VectorXd::Zero(8);
    q[0] = roll;
    q[1] = pitch;
    forwardKinematics(tangy, data, q);
    return Eigen::Vector3d((data.X_WL[static_cast<std::size_t>(elbow)].translation() -
                            data.X_WL[static_cast<std::size_t>(shoulder)].translation()) / kTangyUpperArm);
  };
  const double h = kPi<double> / 2;
  CHECK((upperArm(-h, h) - Eigen::Vector3d(0, 0, -1)).norm() < 1e-12);  // hanging down
  CHECK((upperArm(-h, 0) - Eigen::Vector3d(1, 0, 0)).norm() < 1e-12);   // forward raise: pitch only
  CHECK((upperArm(0, h) - Eigen::Vector3d(0, 1, 0)).norm() < 1e-12);    // sideways raise: roll only
  // q = 0: both forearms on the line x = d1, z = 0 pointing to the left, so their axes meet and
  // the signed distance is -(0.045 + 0.045) m.
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  SelfCollisionChecker<double> checker(collision);
  checker.update(Eigen::VectorXd::Zero(8));
  bool found = false;
  for (std::size_t k = 0; k < collision.pairs().size(); ++k) {
    const std::string name = collision.pairName(k);
    if (name != "l_forearm / r_forearm" && name != "r_forearm / l_forearm") continue;
    found = true;
    CHECK(checker.result(k).distance == doctest::Approx(-0.09).epsilon(1e-12));
  }
  CHECK(found);
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
