// Tait-Bryan Euler angles in all six orders: composition against an independent product of
// Eigen AngleAxis rotations, decomposition round trips, gimbal lock, parsing.
#include <doctest/doctest.h>

#include <random>

#include <retarget/geometry/euler_angles.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {
const char* const kOrders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
}

TEST_CASE("euler angles: parsing orders") {
  for (const char* name : kOrders) CHECK(parseEulerOrder(name).name() == name);
  CHECK(parseEulerOrder("zyx").name() == "ZYX");
  CHECK(parseEulerOrder("XYZ").parity() == 1);
  CHECK(parseEulerOrder("YZX").parity() == 1);
  CHECK(parseEulerOrder("ZXY").parity() == 1);
  CHECK(parseEulerOrder("ZYX").parity() == -1);
  CHECK(parseEulerOrder("XZY").parity() == -1);
  CHECK(parseEulerOrder("YXZ").parity() == -1);
  CHECK_THROWS_WITH_AS(parseEulerOrder("ZXZ"), doctest::Contains("got 'ZXZ'"), InvalidArgument);
  CHECK_THROWS_WITH_AS(parseEulerOrder("ZY"), doctest::Contains("expected three distinct letters"), InvalidArgument);
  CHECK_THROWS_AS(parseEulerOrder("ZYW"), InvalidArgument);
}

TEST_CASE_TEMPLATE("euler angles: compose matches the AngleAxis product, decompose inverts it", Scalar, float,
                   double) {
  const Scalar tol = std::is_same_v<Scalar, float> ? Scalar(2e-4) : Scalar(1e-10);
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> outer(-3.1, 3.1), middle(-1.55, 1.55);
  for (const char* name : kOrders) {
    const EulerOrder order = parseEulerOrder(name);
    for (int n = 0; n < test::sweepCount(500); ++n) {
      const Vector3<Scalar> angles(Scalar(outer(rng)), Scalar(middle(rng)), Scalar(outer(rng)));
      const Matrix3<Scalar> R = eulerToRotation<Scalar>(order, angles);
      // Independent composition: Eigen's AngleAxis about unit vectors.
      Matrix3<Scalar> expected = Matrix3<Scalar>::Identity();
      for (int k = 0; k < 3; ++k) {
        expected = expected * Eigen::AngleAxis<Scalar>(angles[k], Vector3<Scalar>::Unit(order.axes[k])).matrix();
      }
      CHECK((R - expected).cwiseAbs().maxCoeff() < tol);
      const Vector3<Scalar> back = rotationToEuler<Scalar>(order, R);
      CHECK((back - angles).cwiseAbs().maxCoeff() < Scalar(20) * tol);
    }
  }
}

TEST_CASE("euler angles: any rotation is recovered, including gimbal lock, and matches Eigen's eulerAngles") {
  std::mt19937 rng(61);
  std::uniform_real_distribution<double> angle(-3.14, 3.14);
  for (const char* name : kOrders) {
    const EulerOrder order = parseEulerOrder(name);
    for (int n = 0; n < test::sweepCount(300); ++n) {
      const Eigen::Quaterniond q(Eigen::Vector4d::Random().normalized());
      const Eigen::Matrix3d R = q.toRotationMatrix();
      const Eigen::Vector3d a = rotationToEuler<double>(order, R);
      CHECK(std::abs(a[1]) <= kPi<double> / 2 + 1e-12);
      CHECK((eulerToRotation<double>(order, a) - R).cwiseAbs().maxCoeff() < 1e-9);
      // Eigen decomposes into [0, pi] x [-pi, pi] x [-pi, pi]; both must compose to R.
      const Eigen::Vector3d e = R.eulerAngles(order.axes[0], order.axes[1], order.axes[2]);
      CHECK((eulerToRotation<double>(order, e) - R).cwiseAbs().maxCoeff() < 1e-9);
    }
    // Gimbal lock: middle angle exactly +-pi/2, arbitrary outer angles.
    for (double middle : {kPi<double> / 2, -kPi<double> / 2}) {
      for (int n = 0; n < 50; ++n) {
        const Eigen::Vector3d a(angle(rng), middle, angle(rng));
        const Eigen::Matrix3d R = eulerToRotation<double>(order, a);
        const Eigen::Vector3d back = rotationToEuler<double>(order, R);
        CHECK(back[2] == 0.0);
        CHECK(std::abs(std::abs(back[1]) - kPi<double> / 2) < 1e-6);
        CHECK((eulerToRotation<double>(order, back) - R).cwiseAbs().maxCoeff() < 1e-6);
      }
    }
  }
}

TEST_CASE("euler angles: paper Eq. 1 (ZYX) written out element by element") {
  // The matrix of Eq. 1 for phi, theta, psi, checked against the closed form of its entries
  // that the elbow and wrist derivations (Eqs. 4 and 8) use: column x = (c_t c_p, c_t s_p, -s_t),
  // column z = (s_p s_s + c_p s_t c_s, s_p s_t c_s - c_p s_s, c_t c_s).
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> angle(-3, 3);
  for (int n = 0; n < 100; ++n) {
    const double phi = angle(rng), theta = angle(rng), psi = angle(rng);
    const Eigen::Matrix3d R = eulerToRotation<double>(parseEulerOrder("ZYX"), Eigen::Vector3d(phi, theta, psi));
    const Eigen::Vector3d x(std::cos(theta) * std::cos(phi), std::cos(theta) * std::sin(phi), -std::sin(theta));
    const Eigen::Vector3d z(std::sin(phi) * std::sin(psi) + std::cos(phi) * std::sin(theta) * std::cos(psi),
                            std::sin(phi) * std::sin(theta) * std::cos(psi) - std::cos(phi) * std::sin(psi),
                            std::cos(theta) * std::cos(psi));
    CHECK((R.col(0) - x).norm() < 1e-12);
    CHECK((R.col(2) - z).norm() < 1e-12);
  }
}
