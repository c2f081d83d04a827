// The fast paths of geometry/distance.hpp (issue 30) against the slower ones they replace:
// - signedDistance and segmentSegmentDistance (distance only) against distance(A, B).distance and
//   closestPointsSegmentSegment(...).distance: equal bit for bit, by construction;
// - closestPointsSegmentSegment (stationary point or the one edge that holds the minimum, chosen
//   from the clamped stationary point) against internal::closestPointsSegmentSegmentByCandidates
//   (every candidate compared, the method used for every pair before): same distance, and the
//   same closest points bit for bit except where the minimum is flat to rounding (two candidates
//   equally near), where both are minima;
// - distance(A, B) against the witness points built from the all-candidates closest points.
// Seeded random capsules of every kind: general, parallel, anti-parallel, near-parallel, collinear,
// zero-length (one or both), crossing, touching, sharing an end, identical.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <type_traits>

#include <retarget/geometry/distance.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {
namespace fast_path_test {

// Random capsule pairs of one of 13 kinds (kind = k % 13), coordinates in [-1, 1] (m).
template <typename Scalar>
struct PairGenerator {
  explicit PairGenerator(unsigned seed) : rng(seed) {}
  std::mt19937 rng;
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  Vector3<Scalar> point(double half_extent) {
    return Vector3<Scalar>(Scalar(uniform(-half_extent, half_extent)), Scalar(uniform(-half_extent, half_extent)),
                           Scalar(uniform(-half_extent, half_extent)));
  }
  Capsule<Scalar> capsule() {
    const Vector3<Scalar> a = point(1.0);
    return Capsule<Scalar>{a, Vector3<Scalar>(a + point(0.5)), Scalar(uniform(0.0, 0.2))};
  }
  void make(int kind, Capsule<Scalar>& A, Capsule<Scalar>& B) {
    A = capsule();
    B = capsule();
    const Vector3<Scalar> d_A = A.b - A.a;
    switch (kind) {
      case 1:  // parallel or anti-parallel
        B.b = B.a + d_A * Scalar(uniform(-2.0, 2.0));
        break;
      case 2:  // near-parallel, tilt from 1e-12 to 1e-2
        B.b = B.a + d_A * Scalar(uniform(-2.0, 2.0)) + point(1.0) * Scalar(std::pow(10.0, uniform(-12.0, -2.0)));
        break;
      case 3:  // collinear, overlapping or not
        B.a = A.a + d_A * Scalar(uniform(-1.5, 1.5));
        B.b = A.a + d_A * Scalar(uniform(-1.5, 1.5));
        break;
      case 4:  // A has zero length (a sphere)
        A.b = A.a;
        break;
      case 5:  // B has zero length
        B.b = B.a;
        break;
      case 6:  // both zero length
        A.b = A.a;
        B.b = B.a;
        break;
      case 7: {  // crossing: the axes meet at interior points
        const Vector3<Scalar> meet = A.a + d_A * Scalar(uniform(0.0, 1.0));
        const Vector3<Scalar> d_B = B.b - B.a;
        B.a = meet - d_B * Scalar(uniform(0.0, 1.0));
        B.b = B.a + d_B;
        break;
      }
      case 8: {  // touching: B's end on A's surface, B pointing away along the normal
        const Vector3<Scalar> n = d_A.unitOrthogonal();
        B.a = A.a + d_A * Scalar(uniform(0.0, 1.0)) + n * (A.radius + B.radius);
        B.b = B.a + n * Scalar(uniform(0.1, 0.5)) + d_A.cross(n).normalized() * Scalar(uniform(-0.3, 0.3));
        break;
      }
      case 9:  // sharing an end
        B.a = A.b;
        break;
      case 10:  // nearly sharing an end (corner near-ties)
        B.a = A.a + point(1e-7);
        break;
      case 11:  // identical
        B = A;
        break;
      case 12:  // short A against long B (flat minima)
        A.b = A.a + point(1e-3);
        break;
      default:
        break;
    }
  }
};

template <typename Scalar>
bool samePoints(const SegmentSegmentPoints<Scalar>& x, const SegmentSegmentPoints<Scalar>& y) {
  return x.s == y.s && x.t == y.t && x.c_1 == y.c_1 && x.c_2 == y.c_2 && x.distance == y.distance;
}

template <typename Scalar>
bool sameResult(const DistanceResult<Scalar>& x, const DistanceResult<Scalar>& y) {
  return x.distance == y.distance && x.p_A == y.p_A && x.p_B == y.p_B && x.normal == y.normal;
}

}  // namespace fast_path_test
}  // namespace

TEST_CASE_TEMPLATE("distance-only functions equal the witness-point versions bit for bit", Scalar, float, double) {
  fast_path_test::PairGenerator<Scalar> gen(20261126u);
  const int n = test::sweepCount(60000);
  int mismatches = 0;
  for (int k = 0; k < n; ++k) {
    Capsule<Scalar> A, B;
    gen.make(k % 13, A, B);
    const Sphere<Scalar> S{B.a, B.radius}, T{A.b, A.radius};
    const auto r = distance(A, B);
    const auto q = closestPointsSegmentSegment(A.a, A.b, B.a, B.b);
    const bool same = signedDistance(A, B) == r.distance && signedDistance(B, A) == distance(B, A).distance &&
                      segmentSegmentDistance(A.a, A.b, B.a, B.b) == q.distance &&
                      signedDistance(S, A) == distance(S, A).distance &&
                      signedDistance(A, S) == distance(A, S).distance &&
                      signedDistance(S, T) == distance(S, T).distance;
    if (!same) {
      ++mismatches;
      CAPTURE(k);
      CHECK(same);
    }
    REQUIRE(std::isfinite(double(r.distance)));
  }
  CHECK(mismatches == 0);
}

TEST_CASE_TEMPLATE("segment-segment closest points agree with the all-candidates method", Scalar, float, double) {
  constexpr bool is_double = std::is_same_v<Scalar, double>;
  // Tolerances relative to the size of the scene (coordinates and lengths of order 1 m).
  const double distance_tol = is_double ? 1e-12 : 2e-6;
  const double on_segment_tol = is_double ? 1e-12 : 2e-6;
  fast_path_test::PairGenerator<Scalar> gen(7u);
  const int n = test::sweepCount(130000);
  int identical = 0, identical_witness = 0, kinds_seen[13] = {};
  double worst_distance = 0, worst_point = 0;
  for (int k = 0; k < n; ++k) {
    Capsule<Scalar> A, B;
    const int kind = k % 13;
    gen.make(kind, A, B);
    ++kinds_seen[kind];
    CAPTURE(kind);
    CAPTURE(A.a.transpose());
    CAPTURE(A.b.transpose());
    CAPTURE(B.a.transpose());
    CAPTURE(B.b.transpose());
    const auto fast = closestPointsSegmentSegment(A.a, A.b, B.a, B.b);
    const auto all = internal::closestPointsSegmentSegmentByCandidates(A.a, A.b, B.a, B.b);
    // Same distance.
    const double gap = std::abs(double(fast.distance) - double(all.distance));
    worst_distance = std::max(worst_distance, gap);
    REQUIRE(gap <= distance_tol);
    // The fast points are points of the segments at their parameters, and realise the distance.
    REQUIRE(fast.s >= Scalar(0));
    REQUIRE(fast.s <= Scalar(1));
    REQUIRE(fast.t >= Scalar(0));
    REQUIRE(fast.t <= Scalar(1));
    REQUIRE(double((A.a + fast.s * (A.b - A.a) - fast.c_1).norm()) <= on_segment_tol);
    REQUIRE(double((B.a + fast.t * (B.b - B.a) - fast.c_2).norm()) <= on_segment_tol);
    REQUIRE(fast.distance == (fast.c_1 - fast.c_2).norm());
    if (fast_path_test::samePoints(fast, all)) {
      ++identical;
    } else {
      worst_point = std::max({worst_point, double((fast.c_1 - all.c_1).norm()), double((fast.c_2 - all.c_2).norm())});
    }
    // Witness points: distance(A, B) is the all-candidates closest points through the same final
    // step whenever the closest points are the same.
    const auto witness = distance(A, B);
    const auto reference = internal::distanceFromCentres(all.c_1, A.radius, A.a, A.b, all.c_2, B.radius, B.a, B.b);
    REQUIRE(std::abs(double(witness.distance) - double(reference.distance)) <= distance_tol);
    if (fast_path_test::sameResult(witness, reference)) ++identical_witness;
  }
  for (int kind = 0; kind < 13; ++kind) CHECK(kinds_seen[kind] >= n / 13);
  MESSAGE(n, " pairs: closest points identical to the all-candidates method in ", identical,
          ", witness results identical in ", identical_witness, "; worst |d - d_all| = ", worst_distance,
          ", worst point gap where not identical = ", worst_point);
  // Different points only where the minimum is flat to rounding (both are minima, checked above);
  // in double that is a handful of corner near-ties per hundred thousand pairs.
  if (is_double) {
    CHECK(identical >= n - n / 1000);
    CHECK(identical_witness >= n - n / 1000);
  } else {
    CHECK(identical >= n - n / 20);
  }
}

TEST_CASE("segment-segment fast path: crafted cases keep the all-candidates answer bit for bit") {
  using V3 = Eigen::Vector3d;
  struct Case {
    V3 a_1, b_1, a_2, b_2;
  };
  const Case cases[] = {
      {V3(0, 0, 0), V3(1, 0, 0), V3(0.3, 0.5, 0), V3(1.7, 0.5, 0)},    // parallel, overlapping
      {V3(0, 0, 0), V3(1, 0, 0), V3(1.7, 0, 0.5), V3(0.3, 0, 0.5)},    // anti-parallel
      {V3(0, 0, 0), V3(1, 0, 0), V3(1.5, 0, 0), V3(3, 0, 0)},          // collinear, apart
      {V3(-1, 0, 0), V3(1, 0, 0), V3(0.2, -1, 0), V3(0.2, 1, 0)},      // crossing
      {V3(-1, 0, 0), V3(1, 0, 0), V3(0.3, 0.6, 0), V3(0.3, 2, 0)},     // T: end against interior
      {V3(0, 0, 0), V3(1, 0, 0), V3(1, 0, 0), V3(1, 1, 0)},            // shared end (corner)
      {V3(0, 0, 0), V3(1, 0, 0), V3(2, 1, 0), V3(3, 2, 1)},            // end to end
      {V3(0.4, 0.3, 0), V3(0.4, 0.3, 0), V3(0, 0, 0), V3(1, 0, 0)},    // zero-length first
      {V3(0, 0, 0), V3(1, 0, 0), V3(0.4, 0.3, 0), V3(0.4, 0.3, 0)},    // zero-length second
      {V3(1, 2, 3), V3(1, 2, 3), V3(1, 2, 3), V3(1, 2, 3)},            // both zero-length, same point
      {V3(1, 2, 3), V3(1, 2, 3), V3(0, 2, 3), V3(0, 2, 3)},            // both zero-length, apart
      {V3(0, 0, 0), V3(2, 0, 0), V3(1, -1, 1), V3(1, 1, 1)},           // skew, interior
      {V3(0, 0, 0), V3(1, 0, 0), V3(-1, 1, 0), V3(-1, 1, 1e-3)},       // short, outside
  };
  for (const Case& c : cases) {
    for (int swap = 0; swap < 2; ++swap) {
      const V3& a_1 = swap ? c.a_2 : c.a_1;
      const V3& b_1 = swap ? c.b_2 : c.b_1;
      const V3& a_2 = swap ? c.a_1 : c.a_2;
      const V3& b_2 = swap ? c.b_1 : c.b_2;
      CAPTURE(a_1.transpose());
      CAPTURE(b_2.transpose());
      const auto fast = closestPointsSegmentSegment(a_1, b_1, a_2, b_2);
      const auto all = internal::closestPointsSegmentSegmentByCandidates(a_1, b_1, a_2, b_2);
      CHECK(fast_path_test::samePoints(fast, all));
      // And reversed segments (b before a) give the same distance.
      CHECK(segmentSegmentDistance(b_1, a_1, b_2, a_2) == doctest::Approx(fast.distance).epsilon(1e-15).scale(1.0));
    }
  }
}

TEST_CASE("distance-only functions do not allocate") {
  using V3 = Eigen::Vector3d;
  const Capsuled A{V3(0, 0, 0), V3(1, 0, 0), 0.1}, B{V3(0, 1, 0), V3(1, 1, 0.5), 0.2};
  const Sphered S{V3(0.5, 0.5, 0.5), 0.1};
  double sink = 0;
  test::NoAllocationScope scope;
  sink += signedDistance(A, B) + signedDistance(S, B) + signedDistance(A, S) + signedDistance(S, S);
  sink += segmentSegmentDistance(A.a, A.b, B.a, B.b) + signedDistance(A, A);
  const Capsule<float> Af{A.a.cast<float>(), A.b.cast<float>(), 0.1f};
  sink += double(signedDistance(Af, Af));
  CHECK(scope.allocations() == 0);
  CHECK(std::isfinite(sink));
}
