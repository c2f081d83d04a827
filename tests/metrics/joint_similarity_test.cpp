// Joint-space similarity W (seed 001, Eq. 11) against a value computed by hand from the paper's
// definition, its summary over a motion (mean, minimum, Figure 12c's per-joint change), and its
// limits: non-finite input 0, wrong sizes throw. Every expected W is derived from Eq. 11 in a
// comment, never W = 1 of identical inputs alone (any formula with f(0) = 1 passes that).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <retarget/metrics/joint_similarity.hpp>

using namespace retarget;

namespace {

// Three joints: "a" revolute in [-1, 1] (range 2 rad), "b" revolute in [0, 0.5] (range 0.5 rad),
// "c" continuous (no limits: W uses 2 pi as its range, see joint_similarity.hpp).
RobotModel<double> threeJoints() {
  RobotModelBuilder<double> b("three");
  for (const char* link : {"base", "l1", "l2", "l3"}) b.addLink(link, 1.0);
  const auto joint = [](const char* name, const char* parent, const char* child, JointType type, double lo,
                        double hi) {
    JointSpec<double> spec;
    spec.name = name;
    spec.parent_link = parent;
    spec.child_link = child;
    spec.type = type;
    if (type == JointType::kRevolute) {
      spec.limits.lower = lo;
      spec.limits.upper = hi;
    }
    return spec;
  };
  b.addJoint(joint("a", "base", "l1", JointType::kRevolute, -1.0, 1.0));
  b.addJoint(joint("b", "l1", "l2", JointType::kRevolute, 0.0, 0.5));
  b.addJoint(joint("c", "l2", "l3", JointType::kContinuous, 0.0, 0.0));
  return b.build();
}

}  // namespace

TEST_CASE("joint similarity W: Eq. 11 by hand on a three-joint robot") {
  const auto model = threeJoints();
  REQUIRE(model.nq() == 3);
  const Eigen::Vector3d q(0.5, 0.1, 0.0);
  const Eigen::Vector3d q_prime(-0.5, 0.35, kPi<double> / 2);
  // Eq. 11: W = 1 / (1 + sum_i ((theta_i - theta'_i) / (theta_i,max - theta_i,min))^2).
  //   a: (0.5 - (-0.5)) / (1 - (-1))   =  1 / 2       =  0.5   -> 0.25
  //   b: (0.1 - 0.35) / (0.5 - 0)      = -0.25 / 0.5  = -0.5   -> 0.25
  //   c: (0 - pi/2) / (2 pi)           = -1/4                  -> 0.0625
  //   sum = 0.5625, W = 1 / 1.5625 = 0.64
  CHECK(jointSimilarity(model, q, q_prime) == doctest::Approx(0.64).epsilon(1e-15));
  CHECK(jointSimilarity(model, q_prime, q) == doctest::Approx(0.64).epsilon(1e-15));  // symmetric
  // The same with c unchanged: sum = 0.5, W = 1 / 1.5 = 2/3.
  const Eigen::Vector3d q_c(-0.5, 0.35, 0.0);
  CHECK(jointSimilarity(model, q, q_c) == doctest::Approx(2.0 / 3.0).epsilon(1e-15));
  // A single joint moved by its whole range: 1 / (1 + 1) = 0.5.
  CHECK(jointSimilarity(model, Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d(1, 0, 0)) == doctest::Approx(0.5).epsilon(1e-15));
  // Each joint on its own, moved by t times its range from any start: the term is t^2, so
  // W = 1 / (1 + t^2) whatever the joint and the start (1, 0.99010, 0.8, 0.5, 0.2 for t = 0, 0.1,
  // 0.5, 1, 2): the normalisation is per joint and W falls strictly as the offset grows. A formula
  // without the range, with |.| instead of the square or exp(-sum) instead of 1 / (1 + sum) fails.
  const Eigen::Vector3d range(2.0, 0.5, 2 * kPi<double>);
  for (int i = 0; i < 3; ++i) {
    double previous = 2.0;
    for (const double t : {0.0, 0.1, 0.5, 1.0, 2.0}) {
      const Eigen::Vector3d moved = q + t * range[i] * Eigen::Vector3d::Unit(i);
      const double w = jointSimilarity(model, q, moved);
      CAPTURE(i);
      CAPTURE(t);
      CHECK(w == doctest::Approx(1.0 / (1.0 + t * t)).epsilon(1e-14));
      CHECK(w < previous);
      previous = w;
    }
  }
  // Non-finite input gives 0.
  const Eigen::Vector3d nan(std::numeric_limits<double>::quiet_NaN(), 0, 0);
  CHECK(jointSimilarity(model, q, nan) == 0.0);
}

TEST_CASE("joint similarity W over a motion: mean, minimum and per-joint change by hand") {
  const auto model = threeJoints();
  Eigen::MatrixXd A(2, 3), B(2, 3);
  A << 0.5, 0.1, 0.0,  //
      0.5, 0.1, 0.0;
  B << 0.5, 0.225, 0.0,  // frame 0: b moved by 0.125 = a quarter of its range: W = 1 / (1 + 1/16) = 16/17
      -0.5, 0.35, kPi<double> / 2;  // frame 1: W = 0.64 (previous test case)
  const JointSimilaritySummary w = jointSimilarity(model, A, B);
  REQUIRE(w.per_frame.size() == 2);
  CHECK(w.per_frame[0] == doctest::Approx(16.0 / 17.0).epsilon(1e-15));
  CHECK(w.per_frame[1] == doctest::Approx(0.64).epsilon(1e-15));
  CHECK(w.mean == doctest::Approx((16.0 / 17.0 + 0.64) / 2).epsilon(1e-15));  // 0.79059
  CHECK(w.min == doctest::Approx(0.64).epsilon(1e-15));
  // Figure 12c's Delta = |q - q'| per joint: frame 0 moved b by 0.125, frame 1 moved a by 1, b by
  // 0.25, c by pi/2.
  CHECK(w.max_change[0] == doctest::Approx(1.0));
  CHECK(w.max_change[1] == doctest::Approx(0.25));
  CHECK(w.max_change[2] == doctest::Approx(kPi<double> / 2));
  CHECK(w.mean_change[0] == doctest::Approx(0.5));
  CHECK(w.mean_change[1] == doctest::Approx(0.1875));
  CHECK(w.mean_change[2] == doctest::Approx(kPi<double> / 4));
  CHECK_THROWS_WITH_AS(jointSimilarity(model, A, Eigen::MatrixXd(Eigen::MatrixXd::Zero(3, 3))),
                       doctest::Contains("jointSimilarity"), InvalidArgument);
}
