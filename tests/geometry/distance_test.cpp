// Sphere / capsule distances: cross-checked against FCL 0.7 on random separated pairs, against
// dense sampling with an independent point-segment formula, against exact analytic values for
// crafted degenerate and penetrating cases, plus the witness-point invariants and symmetry.
//
// What FCL 0.7 does (read from /usr/include/fcl, narrowphase/detail/primitive_shape_algorithm):
// - capsule-capsule goes to capsuleCapsuleDistance (Ericson's segment-segment closest points),
//   which returns |c_A - c_B| - r_A - r_B also when negative, with world-frame witness points;
//   for parallel segments it picks s = 0, so its witness points are then one valid choice of
//   many (we compare distances only there).
// - sphere-sphere and sphere-capsule return -1 (not a depth) whenever the shapes touch or
//   overlap, so penetration is tested against exact analytic values instead.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include <fcl/narrowphase/distance.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/sphere.h>

#include <retarget/geometry/distance.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

using V3 = Eigen::Vector3d;

// Independent closest point on a segment (written separately from the library on purpose).
V3 refClosestOnSegment(const V3& p, const V3& a, const V3& b) {
  const V3 d = b - a;
  const double len2 = d.dot(d);
  if (len2 == 0.0) return a;
  double t = d.dot(p - a) / len2;
  t = t < 0 ? 0 : (t > 1 ? 1 : t);
  return a + t * d;
}

// Upper bound on the segment-segment distance by sampling segment 1 densely and taking the exact
// distance to segment 2; the true value lies within |b1 - a1| / (2 n) below it.
double sampledSegmentDistance(const V3& a1, const V3& b1, const V3& a2, const V3& b2, int n) {
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= n; ++i) {
    const V3 p = a1 + (static_cast<double>(i) / n) * (b1 - a1);
    best = std::min(best, (p - refClosestOnSegment(p, a2, b2)).norm());
  }
  return best;
}

struct Fcl {
  static fcl::Transform3d poseOf(const Capsuled& c) {
    fcl::Transform3d X = fcl::Transform3d::Identity();
    X.translation() = 0.5 * (c.a + c.b);
    const V3 d = c.b - c.a;
    if (d.norm() > 0) X.linear() = Eigen::Quaterniond::FromTwoVectors(V3::UnitZ(), d).toRotationMatrix();
    return X;
  }
  // FCL's capsule is centred at its frame origin along local z with total segment length lz.
  static double capsuleCapsule(const Capsuled& A, const Capsuled& B, V3* p_A, V3* p_B) {
    fcl::Capsuled a(A.radius, A.length()), b(B.radius, B.length());
    return run(&a, poseOf(A), &b, poseOf(B), p_A, p_B);
  }
  static double sphereCapsule(const Sphered& A, const Capsuled& B, V3* p_A, V3* p_B) {
    fcl::Sphered a(A.radius);
    fcl::Capsuled b(B.radius, B.length());
    fcl::Transform3d X_A = fcl::Transform3d::Identity();
    X_A.translation() = A.center;
    return run(&a, X_A, &b, poseOf(B), p_A, p_B);
  }
  static double sphereSphere(const Sphered& A, const Sphered& B, V3* p_A, V3* p_B) {
    fcl::Sphered a(A.radius), b(B.radius);
    fcl::Transform3d X_A = fcl::Transform3d::Identity(), X_B = fcl::Transform3d::Identity();
    X_A.translation() = A.center;
    X_B.translation() = B.center;
    return run(&a, X_A, &b, X_B, p_A, p_B);
  }
  static double run(const fcl::CollisionGeometryd* a, const fcl::Transform3d& X_A, const fcl::CollisionGeometryd* b,
                    const fcl::Transform3d& X_B, V3* p_A, V3* p_B) {
    fcl::DistanceRequestd request;
    request.enable_nearest_points = true;
    fcl::DistanceResultd result;
    fcl::distance(a, X_A, b, X_B, request, result);
    *p_A = result.nearest_points[0];
    *p_B = result.nearest_points[1];
    return result.min_distance;
  }
};

template <typename Scalar>
struct RandomShapes {
  explicit RandomShapes(unsigned seed) : rng(seed) {}
  std::mt19937 rng;
  Vector3<Scalar> point(double half_extent) {
    std::uniform_real_distribution<double> u(-half_extent, half_extent);
    return Vector3<Scalar>(Scalar(u(rng)), Scalar(u(rng)), Scalar(u(rng)));
  }
  Scalar uniform(double lo, double hi) { return Scalar(std::uniform_real_distribution<double>(lo, hi)(rng)); }
  Capsule<Scalar> capsule(double spread) {
    const Vector3<Scalar> centre = point(spread);
    const Vector3<Scalar> half = point(1.0) * uniform(0.0, 0.5);
    return Capsule<Scalar>{centre - half, centre + half, uniform(0.0, 0.3)};
  }
  Sphere<Scalar> sphere(double spread) { return Sphere<Scalar>{point(spread), uniform(0.0, 0.3)}; }
};

// Invariants every result must satisfy (see distance.hpp): unit normal, p_B - p_A = d n,
// witness points on the surfaces (their distance to the centre segment equals the radius).
template <typename Scalar>
void checkInvariants(const DistanceResult<Scalar>& r, const Capsule<Scalar>& A, const Capsule<Scalar>& B,
                     double tol) {
  REQUIRE(r.p_A.allFinite());
  REQUIRE(r.p_B.allFinite());
  REQUIRE(std::isfinite(r.distance));
  CHECK(std::abs(double(r.normal.norm()) - 1.0) <= tol);
  CHECK((r.p_B - r.p_A - r.distance * r.normal).norm() <= tol * (1 + std::abs(double(r.distance))));
  CHECK(std::abs(double((r.p_A - r.p_B).norm()) - std::abs(double(r.distance))) <= tol);
  const V3 pA = r.p_A.template cast<double>(), pB = r.p_B.template cast<double>();
  const V3 aA = A.a.template cast<double>(), bA = A.b.template cast<double>();
  const V3 aB = B.a.template cast<double>(), bB = B.b.template cast<double>();
  CHECK(std::abs((pA - refClosestOnSegment(pA, aA, bA)).norm() - double(A.radius)) <= tol);
  CHECK(std::abs((pB - refClosestOnSegment(pB, aB, bB)).norm() - double(B.radius)) <= tol);
}

double sinAngle(const V3& u, const V3& v) {
  const double n = u.norm() * v.norm();
  return n == 0 ? 0 : u.cross(v).norm() / n;
}

}  // namespace

TEST_CASE("capsule-capsule distance agrees with FCL on random separated pairs") {
  RandomShapes<double> gen(20261122u);
  const int wanted = test::sweepCount(100000);
  int separated = 0, witnesses_compared = 0, penetrating_checked = 0;
  double worst_distance = 0, worst_witness = 0;
  while (separated < wanted) {
    const Capsuled A = gen.capsule(1.0), B = gen.capsule(1.0);
    const auto ours = distance(A, B);
    V3 f_A, f_B;
    const double theirs = Fcl::capsuleCapsule(A, B, &f_A, &f_B);
    if (ours.distance < 0) {
      // FCL's capsule-capsule value is also |c_A - c_B| - r_A - r_B when negative.
      CHECK(ours.distance == doctest::Approx(theirs).epsilon(1e-9));
      ++penetrating_checked;
      continue;
    }
    ++separated;
    worst_distance = std::max(worst_distance, std::abs(ours.distance - theirs));
    REQUIRE(std::abs(ours.distance - theirs) <= 1e-9);
    // Witness points are unique only when the axes are not (nearly) parallel.
    if (sinAngle(A.b - A.a, B.b - B.a) > 1e-2 && ours.distance > 1e-6) {
      ++witnesses_compared;
      worst_witness = std::max({worst_witness, (ours.p_A - f_A).norm(), (ours.p_B - f_B).norm()});
      REQUIRE((ours.p_A - f_A).norm() <= 1e-9);
      REQUIRE((ours.p_B - f_B).norm() <= 1e-9);
    }
    checkInvariants(ours, A, B, 1e-12);
  }
  MESSAGE("separated pairs: ", separated, ", witness pairs compared: ", witnesses_compared,
          ", penetrating pairs compared: ", penetrating_checked, ", worst |d - d_fcl| = ", worst_distance,
          ", worst witness gap = ", worst_witness);
}

TEST_CASE("sphere-capsule and sphere-sphere distances agree with FCL on random separated pairs") {
  RandomShapes<double> gen(7u);
  const int wanted = test::sweepCount(100000);
  int separated = 0;
  while (separated < wanted) {
    const Sphered S = gen.sphere(1.0);
    const Capsuled C = gen.capsule(1.0);
    const auto ours = distance(S, C);
    if (ours.distance <= 1e-9) continue;  // FCL reports -1 for touching or overlapping shapes
    ++separated;
    V3 f_A, f_B;
    const double theirs = Fcl::sphereCapsule(S, C, &f_A, &f_B);
    REQUIRE(std::abs(ours.distance - theirs) <= 1e-9);
    REQUIRE((ours.p_A - f_A).norm() <= 1e-9);
    REQUIRE((ours.p_B - f_B).norm() <= 1e-9);
    checkInvariants(ours, Capsuled::fromSphere(S), C, 1e-12);
    // Reversed order is the mirror image.
    const auto reversed = distance(C, S);
    REQUIRE(reversed.distance == doctest::Approx(ours.distance).epsilon(1e-14));
    REQUIRE((reversed.p_A - ours.p_B).norm() <= 1e-12);
    REQUIRE((reversed.p_B - ours.p_A).norm() <= 1e-12);
    // A capsule with a == b is that sphere.
    const auto as_capsules = distance(Capsuled::fromSphere(S), C);
    REQUIRE(as_capsules.distance == doctest::Approx(ours.distance).epsilon(1e-14));
  }
  separated = 0;
  while (separated < wanted / 10) {
    const Sphered A = gen.sphere(1.0), B = gen.sphere(1.0);
    const auto ours = distance(A, B);
    if (ours.distance <= 1e-9) continue;
    ++separated;
    V3 f_A, f_B;
    const double theirs = Fcl::sphereSphere(A, B, &f_A, &f_B);
    REQUIRE(std::abs(ours.distance - theirs) <= 1e-9);
    REQUIRE((ours.p_A - f_A).norm() <= 1e-9);
    REQUIRE((ours.p_B - f_B).norm() <= 1e-9);
  }
}

TEST_CASE_TEMPLATE("capsule-capsule distance matches dense sampling and is symmetric", Scalar, float, double) {
  RandomShapes<Scalar> gen(99u);
  const double tol = std::is_same_v<Scalar, float> ? 2e-5 : 1e-12;
  const int n = 400;
  for (int k = 0; k < test::sweepCount(2000); ++k) {
    // Mix in near-parallel and parallel pairs, where FCL is not a reference for witnesses.
    Capsule<Scalar> A = gen.capsule(0.6), B = gen.capsule(0.6);
    if (k % 3 == 1) {
      const Vector3<Scalar> tilt = gen.point(1e-4);
      B.b = B.a + (A.b - A.a) * gen.uniform(-2.0, 2.0) + tilt;
    } else if (k % 3 == 2) {
      B.b = B.a + (A.b - A.a) * gen.uniform(-2.0, 2.0);
    }
    const auto r = distance(A, B);
    const V3 a1 = A.a.template cast<double>(), b1 = A.b.template cast<double>();
    const V3 a2 = B.a.template cast<double>(), b2 = B.b.template cast<double>();
    const double sampled = sampledSegmentDistance(a1, b1, a2, b2, n) - double(A.radius) - double(B.radius);
    const double slack = (b1 - a1).norm() / (2.0 * n);
    CHECK(double(r.distance) <= sampled + tol);
    CHECK(double(r.distance) >= sampled - slack - tol);
    checkInvariants(r, A, B, std::is_same_v<Scalar, float> ? 1e-5 : 1e-12);
    const auto s = distance(B, A);
    CHECK(std::abs(double(s.distance - r.distance)) <= tol);
  }
}

TEST_CASE("capsule-capsule degenerate configurations have exact distances") {
  const double r1 = 0.1, r2 = 0.05;
  auto check = [](const Capsuled& A, const Capsuled& B, double expected) {
    CAPTURE(A.a.transpose());
    CAPTURE(A.b.transpose());
    CAPTURE(B.a.transpose());
    CAPTURE(B.b.transpose());
    const auto r = distance(A, B);
    CHECK(r.distance == doctest::Approx(expected).epsilon(1e-12).scale(1.0));
    checkInvariants(r, A, B, 1e-12);
    const auto s = distance(B, A);
    CHECK(s.distance == doctest::Approx(expected).epsilon(1e-12).scale(1.0));
    checkInvariants(s, B, A, 1e-12);
    // Dense sampling agrees (independent point-segment formula).
    const double sampled = sampledSegmentDistance(A.a, A.b, B.a, B.b, 2000) - A.radius - B.radius;
    CHECK(r.distance <= sampled + 1e-12);
    CHECK(r.distance >= sampled - A.length() / 4000.0 - 1e-12);
    // FCL's capsule-capsule distance is also exact here (its witness points for parallel axes are
    // an arbitrary valid choice, so only the distance is compared).
    V3 f_A, f_B;
    CHECK(Fcl::capsuleCapsule(A, B, &f_A, &f_B) == doctest::Approx(expected).epsilon(1e-12).scale(1.0));
  };
  SUBCASE("parallel, overlapping in projection") {
    check({V3(0, 0, 0), V3(1, 0, 0), r1}, {V3(0.3, 0.5, 0), V3(1.7, 0.5, 0), r2}, 0.5 - r1 - r2);
  }
  SUBCASE("anti-parallel, overlapping in projection") {
    check({V3(0, 0, 0), V3(1, 0, 0), r1}, {V3(1.7, 0, 0.5), V3(0.3, 0, 0.5), r2}, 0.5 - r1 - r2);
  }
  SUBCASE("parallel, disjoint in projection (end to end)") {
    check({V3(0, 0, 0), V3(1, 0, 0), r1}, {V3(1.3, 0.4, 0), V3(2, 0.4, 0), r2}, 0.5 - r1 - r2);
  }
  SUBCASE("collinear, separated along the axis") {
    check({V3(0, 0, 0), V3(1, 0, 0), r1}, {V3(1.5, 0, 0), V3(3, 0, 0), r2}, 0.5 - r1 - r2);
  }
  SUBCASE("coincident axes, overlapping (penetration r1 + r2)") {
    check({V3(0, 0, 0), V3(1, 0, 0), r1}, {V3(0.5, 0, 0), V3(2, 0, 0), r2}, -r1 - r2);
  }
  SUBCASE("identical capsules") { check({V3(0, 0, 0), V3(0, 1, 1), r1}, {V3(0, 0, 0), V3(0, 1, 1), r1}, -2 * r1); }
  SUBCASE("intersecting axes (crossing at interior points)") {
    check({V3(-1, 0, 0), V3(1, 0, 0), r1}, {V3(0.2, -1, 0), V3(0.2, 1, 0), r2}, -r1 - r2);
  }
  SUBCASE("skew axes, closest points interior") {
    check({V3(-1, 0, 0), V3(1, 0, 0), r1}, {V3(0.2, -1, 0.7), V3(0.2, 1, 0.7), r2}, 0.7 - r1 - r2);
  }
  SUBCASE("T configuration: end of one on the other's interior") {
    check({V3(-1, 0, 0), V3(1, 0, 0), r1}, {V3(0.3, 0.6, 0), V3(0.3, 2, 0), r2}, 0.6 - r1 - r2);
  }
  SUBCASE("touching (distance exactly zero)") {
    check({V3(0, 0, 0), V3(1, 0, 0), 0.25}, {V3(0.5, 0.5, -1), V3(0.5, 0.5, 1), 0.25}, 0.0);
  }
  SUBCASE("zero-length capsule against capsule (sphere)") {
    check({V3(0.4, 0.3, 0), V3(0.4, 0.3, 0), r1}, {V3(0, 0, 0), V3(1, 0, 0), r2}, 0.3 - r1 - r2);
  }
  SUBCASE("two zero-length capsules at the same point") {
    check({V3(1, 2, 3), V3(1, 2, 3), r1}, {V3(1, 2, 3), V3(1, 2, 3), r2}, -r1 - r2);
  }
  SUBCASE("zero-length capsule on the other's axis") {
    check({V3(0.5, 0, 0), V3(0.5, 0, 0), r1}, {V3(0, 0, 0), V3(1, 0, 0), r2}, -r1 - r2);
  }
  SUBCASE("zero radii: plain segments") { check({V3(0, 0, 0), V3(1, 1, 0), 0}, {V3(1, 0, 1), V3(0, 1, 1), 0}, 1.0); }
}

TEST_CASE("coincident centres give the documented deterministic normal") {
  // Crossing axes: unit(d_A x d_B).
  const Capsuled A{V3(-1, 0, 0), V3(1, 0, 0), 0.1}, B{V3(0, -1, 0), V3(0, 1, 0), 0.2};
  CHECK((distance(A, B).normal - V3::UnitZ()).norm() < 1e-15);
  CHECK((distance(B, A).normal + V3::UnitZ()).norm() < 1e-15);
  // Coincident parallel axes: Eigen's unitOrthogonal of A's unit axis.
  const Capsuled C{V3(0, 0, 0), V3(0, 0, 2), 0.1};
  const auto r = distance(C, C);
  CHECK((r.normal - V3::UnitZ().unitOrthogonal()).norm() < 1e-15);
  CHECK(r.distance == doctest::Approx(-0.2));
  // Concentric spheres: +x.
  const auto s = distance(Sphered{V3(1, 1, 1), 0.3}, Sphered{V3(1, 1, 1), 0.2});
  CHECK(s.normal == V3::UnitX());
  CHECK(s.distance == doctest::Approx(-0.5));
  CHECK((s.p_A - V3(1.3, 1, 1)).norm() < 1e-15);
  CHECK((s.p_B - V3(0.8, 1, 1)).norm() < 1e-15);
}

TEST_CASE("penetrating spheres and sphere-capsules give the exact depth") {
  // FCL reports -1 here, so the reference is the analytic value d - r_A - r_B.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int k = 0; k < test::sweepCount(1000); ++k) {
    const double rA = 0.1 + u(rng), rB = 0.1 + u(rng);
    const double d = u(rng) * (rA + rB);
    const V3 dir = V3(u(rng) - 0.5, u(rng) - 0.5, u(rng) - 0.5).normalized();
    const V3 c(u(rng), u(rng), u(rng));
    const auto r = distance(Sphered{c, rA}, Sphered{c + d * dir, rB});
    CHECK(r.distance == doctest::Approx(d - rA - rB).epsilon(1e-12));
    CHECK((r.normal - dir).norm() < 1e-9);
    // Sphere against a capsule whose axis is perpendicular to dir at distance d.
    const V3 perp = dir.unitOrthogonal();
    const Capsuled C{c + d * dir - 0.7 * perp, c + d * dir + 0.4 * perp, rB};
    const auto q = distance(Sphered{c, rA}, C);
    CHECK(q.distance == doctest::Approx(d - rA - rB).epsilon(1e-12));
    checkInvariants(q, Capsuled{c, c, rA}, C, 1e-12);
  }
}

TEST_CASE("segment helpers: closest points") {
  const auto q = closestPointOnSegment(V3(2, 1, 0), V3(0, 0, 0), V3(1, 0, 0));
  CHECK(q.t == 1.0);
  CHECK(q.point == V3(1, 0, 0));
  CHECK(pointSegmentDistance(V3(0.5, 2, 0), V3(0, 0, 0), V3(1, 0, 0)) == doctest::Approx(2.0));
  CHECK(pointSegmentDistance(V3(3, 4, 0), V3(0, 0, 0), V3(0, 0, 0)) == doctest::Approx(5.0));
  const auto ss = closestPointsSegmentSegment(V3(0, 0, 0), V3(2, 0, 0), V3(1, -1, 1), V3(1, 1, 1));
  CHECK(ss.s == doctest::Approx(0.5));
  CHECK(ss.t == doctest::Approx(0.5));
  CHECK(ss.distance == doctest::Approx(1.0));
}

TEST_CASE("distance functions do not allocate") {
  const Capsuled A{V3(0, 0, 0), V3(1, 0, 0), 0.1}, B{V3(0, 1, 0), V3(1, 1, 0.5), 0.2};
  const Sphered S{V3(0.5, 0.5, 0.5), 0.1};
  double sink = 0;
  test::NoAllocationScope scope;
  sink += distance(A, B).distance + distance(S, B).distance + distance(A, S).distance + distance(S, S).distance;
  sink += distance(A, A).distance + closestPointsSegmentSegment(A.a, A.b, B.a, B.b).distance;
  sink += pointSegmentDistance(S.center, A.a, A.b);
  const Capsule<float> Af{A.a.cast<float>(), A.b.cast<float>(), 0.1f};
  sink += double(distance(Af, Af).distance);
  CHECK(scope.allocations() == 0);
  CHECK(std::isfinite(sink));
}
