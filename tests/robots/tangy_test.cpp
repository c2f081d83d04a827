// Tangy (seed 001, Appendix A): the DH construction reproduces the arm of Tables A1/A2, the
// built-in chain reproduces closed-form elbow and end-effector positions derived from those
// tables, and the printed closed forms are shown not to be self-consistent.
#include <doctest/doctest.h>

#include <random>

#include <retarget/kinematics/denavit_hartenberg.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/robots/tangy.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

constexpr double kPiD = 3.14159265358979323846;

// Eq. (A1) of seed 001 written out element by element (standard DH), signs restored.
Eigen::Matrix4d dhMatrix(double theta, double d, double a, double alpha) {
  const double ct = std::cos(theta), st = std::sin(theta), ca = std::cos(alpha), sa = std::sin(alpha);
  Eigen::Matrix4d T;
  T << ct, -st * ca, st * sa, a * ct,  //
      st, ct * ca, -ct * sa, a * st,   //
      0, sa, ca, d,                    //
      0, 0, 0, 1;
  return T;
}

// T_w^4 and T_w^3 from Table A1/A2 (twists read as +-pi/2), by explicit matrix products.
Eigen::Matrix4d tableProduct(const Eigen::Vector4d& q, double t1, int upto) {
  const double d1 = kTangyUpperArm, d2 = kTangyForearm, pi = kPiD;
  Eigen::Matrix4d T = dhMatrix(0, 0, t1, 0) * dhMatrix(pi, 0, 0, pi / 2);
  const double rows[4][4] = {{q[0] - pi, 0, 0, pi / 2}, {q[1] + pi, 0, 0, pi / 2}, {q[2] + pi, d1, 0, -pi / 2},
                             {q[3] - pi, 0, d2, pi / 2}};
  for (int i = 0; i < upto; ++i) T = T * dhMatrix(rows[i][0], rows[i][1], rows[i][2], rows[i][3]);
  return T;
}

// Closed forms of the elbow (origin of {3}) and end effector (origin of {4}) in {w}, derived
// symbolically (sympy) from the same tables; shoulder at (x_m, 0, 0).
Eigen::Vector3d elbowClosedForm(const Eigen::Vector4d& q, double x_m) {
  const double d1 = kTangyUpperArm;
  return {x_m - d1 * std::sin(q[1]) * std::cos(q[0]), d1 * std::cos(q[1]), d1 * std::sin(q[0]) * std::sin(q[1])};
}
Eigen::Vector3d handClosedForm(const Eigen::Vector4d& q, double x_m) {
  const double d1 = kTangyUpperArm, d2 = kTangyForearm;
  const double s1 = std::sin(q[0]), c1 = std::cos(q[0]), s2 = std::sin(q[1]), c2 = std::cos(q[1]);
  const double s3 = std::sin(q[2]), c3 = std::cos(q[2]), s4 = std::sin(q[3]), c4 = std::cos(q[3]);
  return {x_m - d1 * s2 * c1 + d2 * (s1 * s3 - c1 * c2 * c3) * c4 - d2 * s2 * s4 * c1,
          d1 * c2 - d2 * s2 * c3 * c4 + d2 * s4 * c2,
          d1 * s1 * s2 + d2 * (s1 * c2 * c3 + s3 * c1) * c4 + d2 * s1 * s2 * s4};
}

}  // namespace

TEST_CASE("DH construction reproduces the Tangy arm of seed 001 Appendix A (issue 2)") {
  const auto arm = robotFromDh<double>("tangy_arm", tangyArmDhRows<double>("r_"), DhConvention::kStandard);
  REQUIRE(arm.nq() == 4);
  RobotData<double> data(arm);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> angle(-kPiD, kPiD);
  const double pi = kPiD;
  double worst = 0;
  for (int n = 0; n < test::sweepCount(1000); ++n) {
    const Eigen::Vector4d q(angle(rng), angle(rng), angle(rng), angle(rng));
    forwardKinematics(arm, data, q);
    Eigen::Matrix4d T = Eigen::Matrix4d::Identity();
    T = T * dhMatrix(q[0] - pi, 0, 0, pi / 2) * dhMatrix(q[1] + pi, 0, 0, pi / 2) *
        dhMatrix(q[2] + pi, kTangyUpperArm, 0, -pi / 2) * dhMatrix(q[3] - pi, 0, kTangyForearm, pi / 2);
    worst = std::max(worst, (data.X_WL[arm.linkIndex("link4")].matrix() - T).cwiseAbs().maxCoeff());
  }
  CHECK(worst < 1e-12);
}

TEST_CASE("builtin Tangy: elbow and end effector match the tables' closed forms, both arms") {
  const auto tangy = makeTangy<double>();
  REQUIRE(tangy.nq() == 8);
  for (int i = 0; i < 8; ++i) CHECK(tangy.qName(i) == kTangyJointNames[i]);
  RobotData<double> data(tangy);
  std::mt19937 rng(2);
  std::uniform_real_distribution<double> angle(-kPiD, kPiD);
  double worst_elbow = 0, worst_hand = 0, worst_product = 0, worst_length = 0;
  for (int n = 0; n < test::sweepCount(1000); ++n) {
    VectorX<double> q(8);
    for (int i = 0; i < 8; ++i) q[i] = angle(rng);
    forwardKinematics(tangy, data, q);
    const Isometry3<double> X_TorsoW = data.X_WL[tangy.linkIndex("torso")].inverse();
    for (const char* prefix : {"l_", "r_"}) {
      const bool left = std::string(prefix) == "l_";
      const Eigen::Vector4d q_arm = q.segment<4>(left ? 0 : 4);
      const double x_m = left ? -kTangyShoulderOffset : kTangyShoulderOffset;
      const Isometry3<double> X_w3 = X_TorsoW * data.X_WL[tangy.linkIndex(std::string(prefix) + "link3")];
      const Isometry3<double> X_w4 = X_TorsoW * data.X_WL[tangy.linkIndex(std::string(prefix) + "link4")];
      worst_elbow = std::max(worst_elbow, (X_w3.translation() - elbowClosedForm(q_arm, x_m)).norm());
      worst_hand = std::max(worst_hand, (X_w4.translation() - handClosedForm(q_arm, x_m)).norm());
      worst_product = std::max(worst_product, (X_w4.matrix() - tableProduct(q_arm, x_m, 4)).cwiseAbs().maxCoeff());
      worst_product = std::max(worst_product, (X_w3.matrix() - tableProduct(q_arm, x_m, 3)).cwiseAbs().maxCoeff());
      // Rigid links: elbow d1 from the shoulder, hand d2 from the elbow.
      worst_length = std::max(worst_length, std::abs((X_w3.translation() - Eigen::Vector3d(x_m, 0, 0)).norm() - kTangyUpperArm));
      worst_length = std::max(worst_length, std::abs((X_w4.translation() - X_w3.translation()).norm() - kTangyForearm));
    }
  }
  CHECK(worst_elbow < 1e-12);
  CHECK(worst_hand < 1e-12);
  CHECK(worst_product < 1e-12);
  CHECK(worst_length < 1e-12);
}

TEST_CASE("builtin Tangy: arms hang down at (roll, pitch) = (-pi/2, pi/2); canonical base frame") {
  const auto tangy = makeTangy<double>();
  RobotData<double> data(tangy);
  VectorX<double> q = VectorX<double>::Zero(8);
  q[0] = q[4] = -kPiD / 2;
  q[1] = q[5] = kPiD / 2;
  forwardKinematics(tangy, data, q);
  for (const char* prefix : {"l_", "r_"}) {
    const Eigen::Vector3d shoulder = data.X_WL[tangy.linkIndex(std::string(prefix) + "frame_m")].translation();
    const Eigen::Vector3d elbow = data.X_WL[tangy.linkIndex(std::string(prefix) + "link3")].translation();
    CHECK((elbow - shoulder - Eigen::Vector3d(0, 0, -kTangyUpperArm)).norm() < 1e-12);
    // Canonical base: the left shoulder is on +y, the right on -y.
    CHECK(shoulder.y() == doctest::Approx(std::string(prefix) == "l_" ? kTangyShoulderOffset : -kTangyShoulderOffset));
  }
  // Collision model of Section 3 / Figure 8: three spheres and eleven capsules.
  int spheres = 0, capsules = 0;
  for (const auto& link : tangy.links()) {
    for (const auto& shape : link.collisions) (shape.capsule_L.length() == 0 ? spheres : capsules) += 1;
  }
  CHECK(spheres == 3);
  CHECK(capsules == 11);
}

TEST_CASE("seed 001's printed elbow formula is not self-consistent; the library's elbow is rigid (documented)") {
  // Printed: x = -t1 [-] d1 cos(th2 - pi), y = -d1 cos(th1 - pi) cos(th2 - pi), z = the same as y.
  // A rigid upper arm keeps the elbow d1 from the shoulder (-t1, 0, 0). The library's Tangy
  // does (its forward kinematics, below); the printed formula does not, so it is not used.
  const auto tangy = makeTangy<double>();
  RobotData<double> data(tangy);
  std::mt19937 rng(4);
  std::uniform_real_distribution<double> angle(-kPiD, kPiD);
  double worst_printed = 0, worst_library = 0, worst_disagreement = 0;
  for (int n = 0; n < 100; ++n) {
    VectorX<double> q = VectorX<double>::Zero(8);
    q[0] = angle(rng);
    q[1] = angle(rng);
    forwardKinematics(tangy, data, q);
    const Isometry3<double> X_TorsoW = data.X_WL[tangy.linkIndex("torso")].inverse();
    const Eigen::Vector3d shoulder(-kTangyShoulderOffset, 0, 0);
    const Eigen::Vector3d elbow = (X_TorsoW * data.X_WL[tangy.linkIndex("l_link3")]).translation();
    const double a = q[0] - kPiD, b = q[1] - kPiD;
    const Eigen::Vector3d printed(-kTangyShoulderOffset - kTangyUpperArm * std::cos(b),
                                  -kTangyUpperArm * std::cos(a) * std::cos(b), -kTangyUpperArm * std::cos(a) * std::cos(b));
    worst_printed = std::max(worst_printed, std::abs((printed - shoulder).norm() - kTangyUpperArm));
    worst_library = std::max(worst_library, std::abs((elbow - shoulder).norm() - kTangyUpperArm));
    worst_disagreement = std::max(worst_disagreement, (printed - elbow).norm());
  }
  CHECK(worst_library < 1e-12);
  CHECK(worst_printed > 0.05);
  CHECK(worst_disagreement > 0.05);
}
