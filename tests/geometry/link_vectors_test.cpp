// Link vectors and link frames: round trips (rotate by a known angle, read it back), frame
// invariants for every axis assignment, the seed-000 shoulder construction, degenerate input.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <type_traits>

#include <retarget/geometry/link_vectors.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

template <typename Scalar>
struct Gen {
  explicit Gen(unsigned seed) : rng(seed) {}
  std::mt19937 rng;
  Scalar uniform(double lo, double hi) { return Scalar(std::uniform_real_distribution<double>(lo, hi)(rng)); }
  // Random vector of length in [0.1, 2].
  Vector3<Scalar> vector() {
    Vector3<Scalar> v;
    do {
      v = Vector3<Scalar>(uniform(-1, 1), uniform(-1, 1), uniform(-1, 1));
    } while (v.norm() < Scalar(0.2));
    return v.normalized() * uniform(0.1, 2.0);
  }
};

template <typename Scalar>
double tolerance() {
  return std::is_same_v<Scalar, float> ? 2e-5 : 1e-12;
}

}  // namespace

TEST_CASE_TEMPLATE("frameFromTwoVectors: right-handed, orthonormal, axes where documented", Scalar, float, double) {
  Gen<Scalar> gen(1);
  const double tol = tolerance<Scalar>() * 10;
  for (int k = 0; k < test::sweepCount(500); ++k) {
    const Vector3<Scalar> p = gen.vector(), s = gen.vector();
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 3; ++j) {
        const auto R = frameFromTwoVectors(p, static_cast<Axis>(i), s, static_cast<Axis>(j));
        if (i == j) {
          CHECK_FALSE(R.has_value());
          continue;
        }
        REQUIRE(R.has_value());
        CHECK((R->transpose() * *R - Matrix3<Scalar>::Identity()).norm() <= tol);
        CHECK(double(R->determinant()) == doctest::Approx(1.0).epsilon(tol));
        // Primary axis along `primary`.
        CHECK((R->col(i) - p.normalized()).norm() <= tol);
        // Secondary axis in the plane of (p, s), on the side of s.
        CHECK(std::abs(double(R->col(j).dot(p.cross(s).normalized()))) <= tol);
        CHECK(R->col(j).dot(s) > Scalar(0));
      }
    }
  }
}

TEST_CASE("frameFromTwoVectors reproduces the seed-000 left upper torso frame") {
  // x along N_1-2-5 = V_2-5 x V_1-2, z along V_1-2, y = R_LUT = V_1-2 x N_1-2-5 (Section 3.2).
  Gen<double> gen(2);
  for (int k = 0; k < 100; ++k) {
    const Eigen::Vector3d p1 = gen.vector(), p2 = gen.vector(), p5 = gen.vector();
    const Eigen::Vector3d V12 = linkVector(p1, p2), V25 = linkVector(p2, p5);
    const auto N125 = unitNormal(V25, V12);
    if (!N125) continue;
    const auto R = frameFromTwoVectors(V12, Axis::kZ, *N125, Axis::kX);
    REQUIRE(R.has_value());
    const Eigen::Vector3d R_LUT = V12.cross(*N125).normalized();
    CHECK((R->col(1) - R_LUT).norm() < 1e-12);
    CHECK((R->col(0) - *N125).norm() < 1e-12);  // N is already perpendicular to V_1-2
  }
}

TEST_CASE_TEMPLATE("signedAngle round trip about random axes", Scalar, float, double) {
  Gen<Scalar> gen(3);
  const double tol = std::is_same_v<Scalar, float> ? 1e-4 : 1e-11;
  for (int k = 0; k < test::sweepCount(2000); ++k) {
    const Vector3<Scalar> axis = gen.vector(), u = gen.vector();
    if (u.normalized().cross(axis.normalized()).norm() < Scalar(0.05)) continue;  // u too close to the axis
    const Scalar theta = gen.uniform(-3.14, 3.14);
    const Vector3<Scalar> v = Eigen::AngleAxis<Scalar>(theta, axis.normalized()) * u * gen.uniform(0.5, 2.0);
    // A component along the axis changes nothing (the vectors are projected first).
    const Vector3<Scalar> v_offset = v + gen.uniform(-1, 1) * axis;
    const auto a = signedAngle(u, v_offset, axis);
    REQUIRE(a.has_value());
    CHECK(std::abs(double(*a - theta)) <= tol);
    const auto b = signedAngle(v_offset, u, axis);
    REQUIRE(b.has_value());
    CHECK(std::abs(double(*b + theta)) <= tol);
    // Flipping the axis flips the sign.
    CHECK(std::abs(double(*signedAngle(u, v, Vector3<Scalar>(-axis)) + theta)) <= tol);
  }
  // The half turn maps to +pi, never -pi.
  const Vector3<Scalar> x = Vector3<Scalar>::UnitX(), z = Vector3<Scalar>::UnitZ();
  CHECK(*signedAngle<Scalar>(x, -x, z) == kPi<Scalar>);
}

TEST_CASE_TEMPLATE("angleToPlane and projectOntoPlane round trip", Scalar, float, double) {
  Gen<Scalar> gen(4);
  const double tol = std::is_same_v<Scalar, float> ? 1e-4 : 1e-11;
  for (int k = 0; k < test::sweepCount(2000); ++k) {
    const Vector3<Scalar> n = gen.vector();
    const Vector3<Scalar> n_hat = n.normalized();
    const Vector3<Scalar> in_plane = n_hat.unitOrthogonal();
    const Vector3<Scalar> in_plane_rot = Eigen::AngleAxis<Scalar>(gen.uniform(-3, 3), n_hat) * in_plane;
    const Scalar phi = gen.uniform(-1.57, 1.57);
    const Scalar length = gen.uniform(0.1, 3.0);
    const Vector3<Scalar> v = length * (std::cos(phi) * in_plane_rot + std::sin(phi) * n_hat);
    const auto a = angleToPlane(v, n);
    REQUIRE(a.has_value());
    CHECK(std::abs(double(*a - phi)) <= tol);
    // Cross-check with the seed's form pi/2 - acos(v . n / (|v||n|)) away from the poles.
    if (std::abs(phi) < Scalar(1.4)) {
      const double seed_form = kPi<double> / 2 - std::acos(double(v.dot(n)) / double(v.norm() * n.norm()));
      CHECK(std::abs(double(*a) - seed_form) <= tol * 10);
    }
    const auto p = projectOntoPlane(v, n);
    REQUIRE(p.has_value());
    CHECK(std::abs(double(p->dot(n_hat))) <= tol);
    CHECK((*p - length * std::cos(phi) * in_plane_rot).norm() <= tol * 10);
    // Idempotent, and v - p is along n.
    CHECK((*projectOntoPlane(*p, n) - *p).norm() <= tol);
    CHECK(double((v - *p).cross(n_hat).norm()) <= tol * 10);
    // angleBetween is consistent: angle to the normal = pi/2 - angle to the plane.
    CHECK(std::abs(double(*angleBetween(v, n) - (kPi<Scalar> / 2 - phi))) <= tol * 10);
  }
}

TEST_CASE_TEMPLATE("unitNormal is unit, orthogonal and right-handed", Scalar, float, double) {
  Gen<Scalar> gen(5);
  const double tol = tolerance<Scalar>() * 10;
  for (int k = 0; k < test::sweepCount(1000); ++k) {
    const Vector3<Scalar> u = gen.vector(), v = gen.vector();
    const auto n = unitNormal(u, v);
    REQUIRE(n.has_value());
    CHECK(std::abs(double(n->norm()) - 1) <= tol);
    CHECK(std::abs(double(n->dot(u.normalized()))) <= tol);
    CHECK(std::abs(double(n->dot(v.normalized()))) <= tol);
    Matrix3<Scalar> M;
    M << u, v, *n;
    CHECK(M.determinant() > Scalar(0));
  }
}

TEST_CASE_TEMPLATE("degenerate input gives nullopt, never NaN", Scalar, float, double) {
  using V = Vector3<Scalar>;
  const V zero = V::Zero(), x = V::UnitX(), y = V::UnitY();
  const Scalar nan = std::numeric_limits<Scalar>::quiet_NaN();
  const V bad(nan, 0, 0);
  const V tiny = x * (kDegenerateEpsilon<Scalar> / 2);
  CHECK_FALSE(unitVector(zero));
  CHECK_FALSE(unitVector(tiny));
  CHECK_FALSE(unitVector(bad));
  CHECK_FALSE(unitNormal(x, V(2 * x)));
  CHECK_FALSE(unitNormal(x, V(-3 * x)));
  CHECK_FALSE(unitNormal(x, zero));
  CHECK_FALSE(frameFromTwoVectors(x, Axis::kZ, V(-x), Axis::kX));
  CHECK_FALSE(frameFromTwoVectors(zero, Axis::kZ, y, Axis::kX));
  CHECK_FALSE(frameFromTwoVectors(x, Axis::kZ, bad, Axis::kX));
  CHECK_FALSE(projectOntoPlane(x, zero));
  CHECK_FALSE(projectOntoPlane(bad, x));
  CHECK(projectOntoPlane(x, x).has_value());  // the projection may be zero
  CHECK(projectOntoPlane(x, x)->norm() == Scalar(0));
  CHECK_FALSE(angleToPlane(zero, x));
  CHECK_FALSE(angleToPlane(y, zero));
  CHECK_FALSE(angleBetween(zero, x));
  CHECK_FALSE(signedAngle(x, y, zero));
  CHECK_FALSE(signedAngle(V(2 * x), y, x));  // `from` along the axis
  CHECK_FALSE(signedAngle(y, V(x + tiny), x));
  CHECK_FALSE(signedAngle(bad, y, x));
  // Perpendicular and antiparallel vectors are fine.
  CHECK(*angleBetween(x, V(-x)) == doctest::Approx(kPi<double>));
  CHECK(*angleToPlane(x, x) == doctest::Approx(kPi<double> / 2));
  // Infinite, and finite but so long that the squared norm overflows (its unit vector would come
  // out zero): degenerate. Just below the overflow the unit vector is exact.
  const Scalar inf = std::numeric_limits<Scalar>::infinity();
  const Scalar huge = std::sqrt(std::numeric_limits<Scalar>::max());
  CHECK_FALSE(unitVector(V(inf, 0, 0)));
  CHECK_FALSE(unitVector(V(2 * huge, 0, 0)));
  CHECK_FALSE(unitVector(V(huge, huge, 0)));
  CHECK_FALSE(internal::usableVector(V(0, 2 * huge, 0)));
  CHECK_FALSE(frameFromTwoVectors(x, Axis::kZ, V(0, 2 * huge, 0), Axis::kX));
  CHECK_FALSE(unitNormal(x, V(0, 2 * huge, 0)));
  REQUIRE(unitVector(V(huge / 2, 0, 0)));
  CHECK(*unitVector(V(huge / 2, 0, 0)) == x);
}

TEST_CASE("link-vector functions do not allocate") {
  const Eigen::Vector3d a(0.1, 0.2, 0.3), b(-0.3, 0.5, 0.2), c(0.7, -0.1, 0.4);
  double sink = 0;
  test::NoAllocationScope scope;
  sink += linkVector(a, b).norm() + unitVector(a)->norm() + unitNormal(a, b)->norm();
  sink += frameFromTwoVectors(a, Axis::kZ, b, Axis::kX)->trace() + projectOntoPlane(a, b)->norm();
  sink += *angleToPlane(a, b) + *angleBetween(a, c) + *signedAngle(a, b, c);
  const Eigen::Vector3f af = a.cast<float>(), bf = b.cast<float>(), cf = c.cast<float>();
  sink += double(*signedAngle(af, bf, cf) + frameFromTwoVectors(af, Axis::kY, bf, Axis::kZ)->trace());
  CHECK(scope.allocations() == 0);
  CHECK(std::isfinite(sink));
}
