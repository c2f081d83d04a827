// The written-out small solvers that stand in for Eigen's heavier ones (to keep compile time
// down): rotationBetween against Eigen's Quaternion::FromTwoVectors and against its own
// definition (R from = to, the axis normal to both, the smallest angle), rigidInverse against
// Eigen's Transform::inverse, and the fixed-size Cholesky against Eigen's LLT. Eigen is the
// independent reference here: these functions must give its results to rounding.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <Eigen/Cholesky>
#include <Eigen/Geometry>

#include <retarget/core/internal/small_cholesky.hpp>
#include <retarget/geometry/rigid_inverse.hpp>
#include <retarget/geometry/rotation_between.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

Eigen::Vector3d randomVector(std::mt19937& rng, double lo = 0.01, double hi = 10.0) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), length(lo, hi);
  Eigen::Vector3d v;
  do v = Eigen::Vector3d(u(rng), u(rng), u(rng));
  while (v.norm() < 0.1);
  return v.normalized() * length(rng);
}

void requireRotation(const Eigen::Matrix3d& R) {
  // A few units in the last place of each entry.
  REQUIRE((R.transpose() * R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-13);
  REQUIRE(std::abs(R.determinant() - 1.0) < 1e-13);
}

}  // namespace

TEST_CASE("rotationBetween: turns one direction onto the other by the angle between them, as Eigen does") {
  std::mt19937 rng(11);
  const int n = test::sweepCount(20000);
  double worst_vs_eigen = 0.0;
  for (int k = 0; k < n; ++k) {
    const Eigen::Vector3d a = randomVector(rng), b = randomVector(rng);
    const Eigen::Matrix3d R = rotationBetween<double>(a, b);
    requireRotation(R);
    REQUIRE((R * a.normalized() - b.normalized()).norm() < 1e-13);
    // Smallest rotation: the axis is normal to both, the angle is the angle between them.
    const Eigen::AngleAxisd turn(R);
    const double angle = std::atan2(a.cross(b).norm(), a.dot(b));
    REQUIRE(std::abs(turn.angle() - angle) < 1e-7);
    if (angle > 1e-3) REQUIRE(std::abs(turn.axis().dot(a.cross(b).normalized()) - 1.0) < 1e-9);
    // Against Eigen in units of the problem's conditioning: both lose accuracy as the directions
    // near opposite (Eigen divides by sqrt(2 (1 + c))), so the difference is bounded by rounding
    // over 1 + c, not by rounding alone.
    const Eigen::Matrix3d R_eigen = Eigen::Quaterniond::FromTwoVectors(a, b).toRotationMatrix();
    const double one_plus_c = 1.0 + a.normalized().dot(b.normalized());
    worst_vs_eigen = std::max(worst_vs_eigen, (R - R_eigen).cwiseAbs().maxCoeff() * std::min(1.0, one_plus_c));
  }
  MESSAGE("largest difference from Eigen's FromTwoVectors times min(1, 1 + cos): " << worst_vs_eigen);
  CHECK(worst_vs_eigen < 1e-13);
}

TEST_CASE("rotationBetween: opposite, equal, nearly opposite, degenerate and float input") {
  std::mt19937 rng(12);
  for (int k = 0; k < 1000; ++k) {
    const Eigen::Vector3d a = randomVector(rng);
    // Opposite: a half turn about some axis normal to a.
    const Eigen::Matrix3d R = rotationBetween<double>(a, -2.5 * a);
    requireRotation(R);
    // Within the turn the rounding of c leaves (rotation_between.hpp): 2 sqrt(c's rounding / 2)
    // with c's rounding a few 1e-16, so below 3e-8.
    REQUIRE((R * a.normalized() + a.normalized()).norm() < 3e-8);
    // Equal: the identity.
    REQUIRE((rotationBetween<double>(a, 3.0 * a) - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < 1e-15);
    // Nearly opposite (inside and just outside the opposite band): still a rotation onto b.
    for (const double tilt : {1e-9, 1e-6, 1e-4}) {
      const Eigen::Vector3d normal = a.unitOrthogonal();
      const Eigen::Vector3d b = -a.normalized() + tilt * normal;
      const Eigen::Matrix3d Rb = rotationBetween<double>(a, b);
      requireRotation(Rb);
      CHECK((Rb * a.normalized() - b.normalized()).norm() < 1e-5);
    }
  }
  const Eigen::Vector3d zero = Eigen::Vector3d::Zero(), x = Eigen::Vector3d::UnitX();
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector3d& bad : {zero, Eigen::Vector3d(nan, 0, 0), Eigen::Vector3d(inf, 1, 0)}) {
    CHECK(rotationBetween<double>(bad, x) == Eigen::Matrix3d::Identity());
    CHECK(rotationBetween<double>(x, bad) == Eigen::Matrix3d::Identity());
  }
  const Eigen::Vector3f af(0.3f, -1.2f, 0.5f), bf(-0.7f, 0.1f, 0.9f);
  const Eigen::Matrix3f Rf = rotationBetween<float>(af, bf);
  CHECK((Rf * af.normalized() - bf.normalized()).norm() < 1e-5f);
  CHECK((rotationBetween<float>(af, -af) * af.normalized() + af.normalized()).norm() < 1e-5f);
}

TEST_CASE("rigidInverse equals Eigen's isometry inverse and composes to the identity") {
  std::mt19937 rng(13);
  for (int k = 0; k < 5000; ++k) {
    Eigen::Isometry3d X_AB = Eigen::Isometry3d::Identity();
    X_AB.linear() = Eigen::AngleAxisd(std::uniform_real_distribution<double>(-3.1, 3.1)(rng),
                                      randomVector(rng).normalized())
                        .toRotationMatrix();
    X_AB.translation() = randomVector(rng);
    const Eigen::Isometry3d X_BA = rigidInverse(X_AB);
    REQUIRE((X_BA.matrix() - X_AB.inverse().matrix()).cwiseAbs().maxCoeff() == 0.0);
    REQUIRE(((X_AB * X_BA).matrix() - Eigen::Matrix4d::Identity()).cwiseAbs().maxCoeff() < 1e-13);
  }
}

TEST_CASE("small Cholesky: solves as Eigen's LLT does and refuses what is not positive definite") {
  std::mt19937 rng(14);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  double worst = 0.0;
  for (int k = 0; k < 5000; ++k) {
    Eigen::Matrix<double, 6, 6> M;
    for (int i = 0; i < 36; ++i) M(i) = u(rng);
    const Eigen::Matrix<double, 6, 6> A = M * M.transpose() + 1e-3 * Eigen::Matrix<double, 6, 6>::Identity();
    Eigen::Matrix<double, 6, 1> b;
    for (int i = 0; i < 6; ++i) b[i] = u(rng);
    Eigen::Matrix<double, 6, 6> L = A;
    REQUIRE(internal::choleskyFactorInPlace(L));
    Eigen::Matrix<double, 6, 1> x = b;
    internal::choleskySolveInPlace(L, x);
    const Eigen::Matrix<double, 6, 1> x_eigen = A.llt().solve(b);
    // Relative to the solution's size (A's condition number is at most about 1e4 here).
    worst = std::max(worst, (x - x_eigen).norm() / x_eigen.norm());
    REQUIRE((A * x - b).norm() < 1e-9 * (1.0 + x.norm()));
  }
  CHECK(worst < 1e-10);
  // Not positive definite: indefinite, singular, NaN.
  Eigen::Matrix3d indefinite = Eigen::Vector3d(1.0, -2.0, 3.0).asDiagonal();
  CHECK_FALSE(internal::choleskyFactorInPlace(indefinite));
  Eigen::Matrix3d singular = Eigen::Vector3d(1.0, 0.0, 3.0).asDiagonal();
  CHECK_FALSE(internal::choleskyFactorInPlace(singular));
  Eigen::Matrix3d not_a_number = Eigen::Matrix3d::Identity();
  not_a_number(1, 1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_FALSE(internal::choleskyFactorInPlace(not_a_number));
}
