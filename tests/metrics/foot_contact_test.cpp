// Foot sliding and floating: a foot planted on the ground (no sliding), a foot that slides by a
// known distance, a swing phase that is not contact, a robot foot floating while the human's
// stands, and NAO's soles (its binding's ankle capsules) against hand geometry.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <retarget/metrics/foot_contact.hpp>
#include <retarget/robots/baxter.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/humanoid_soles.hpp>
#include <retarget/robots/nao.hpp>

using namespace retarget;

namespace {

std::vector<double> times(int frames, double rate = 30.0) {
  std::vector<double> t;
  for (int k = 0; k < frames; ++k) t.push_back(k / rate);
  return t;
}

}  // namespace

TEST_CASE("foot contact: a planted foot does not slide") {
  const auto t = times(20);
  Eigen::Matrix3Xd foot(3, 20);
  foot.colwise() = Eigen::Vector3d(0.1, 0.05, -0.33);
  const FootContact c = footContact(t, foot);
  CHECK(c.contact_frames == 20);
  CHECK(c.sliding == 0.0);
  CHECK(c.sliding_speed == 0.0);
  CHECK(c.reference_contact_frames == 0);
}

TEST_CASE("foot contact: a foot that slides by a known distance, then swings") {
  const int n = 31;
  const auto t = times(n);
  Eigen::Matrix3Xd foot(3, n);
  // Frames 0..10: on the ground, sliding 0.12 m along a diagonal (constant speed).
  // Frames 11..20: lifted 0.1 m and carried 0.5 m forward (swing, not contact).
  // Frames 21..30: down again and still.
  const Eigen::Vector2d dir = Eigen::Vector2d(3, 4).normalized();
  for (int k = 0; k < n; ++k) {
    Eigen::Vector3d p;
    if (k <= 10) {
      p << 0.012 * k * dir, 0.0;
    } else if (k <= 20) {
      p << 0.12 * dir + Eigen::Vector2d(0.05 * (k - 10), 0), 0.1;
    } else {
      p << 0.12 * dir + Eigen::Vector2d(0.5, 0), 0.0;
    }
    foot.col(k) = p;
  }
  const FootContact c = footContact(t, foot);
  CHECK(c.contact_frames == 21);
  CHECK(c.sliding == doctest::Approx(0.12).epsilon(1e-12));
  // Sliding happened over 10 contact intervals; 9 more still intervals at the end: 19 / 30 s.
  CHECK(c.sliding_speed == doctest::Approx(0.12 / (19 / 30.0)).epsilon(1e-12));
  // Contact height: a foot 15 mm up still counts (threshold 20 mm), 25 mm does not.
  Eigen::Matrix3Xd hover = foot;
  hover.row(2).head(11).setConstant(0.015);
  hover(2, 30) = -0.0;  // keeps the ground at 0
  CHECK(footContact(t, hover).sliding == doctest::Approx(0.12));
  hover.row(2).head(11).setConstant(0.025);
  CHECK(footContact(t, hover).sliding == doctest::Approx(0.0));
}

TEST_CASE("foot contact: a robot foot floating while the human's stands") {
  const int n = 20;
  const auto t = times(n);
  Eigen::Matrix3Xd robot(3, n);
  for (int k = 0; k < n; ++k) robot.col(k) = Eigen::Vector3d(0.0, 0.05, k < 10 ? -0.3 : -0.25);
  Eigen::VectorXi stance = Eigen::VectorXi::Ones(n);
  const FootContact c = footContact(t, robot, &stance);
  CHECK(c.reference_contact_frames == 20);
  CHECK(c.floating_frames == 10);
  CHECK(c.floating_max == doctest::Approx(0.05));
  CHECK(c.floating_mean == doctest::Approx(0.025));
  // Only the frames the human stands count: the last five (all floating at 5 cm).
  stance.head(15).setZero();
  const FootContact late = footContact(t, robot, &stance);
  CHECK(late.reference_contact_frames == 5);
  CHECK(late.floating_frames == 5);
  CHECK(late.floating_mean == doctest::Approx(0.05));
  // Validation names the field.
  FootContactOptions bad;
  bad.contact_height = -1;
  CHECK_THROWS_WITH_AS(footContact(t, robot, nullptr, bad), doctest::Contains("contact_height"), InvalidArgument);
  CHECK_THROWS_WITH_AS(footContact(times(3), robot), doctest::Contains("robot foot samples"), InvalidArgument);
  const Eigen::VectorXi short_labels = Eigen::VectorXi::Ones(3);
  CHECK_THROWS_WITH_AS(footContact(t, robot, &short_labels), doctest::Contains("stance labels"), InvalidArgument);
}

TEST_CASE("foot contact: NAO's soles by forward kinematics against hand geometry; robots without legs have none") {
  const auto nao = makeNao();
  const auto soles = humanoidSoles(nao, bindHumanoid(nao, HumanoidBindingOptions{}));
  REQUIRE(soles[0].found);
  REQUIRE(soles[1].found);
  CHECK(!humanoidSoles(makeBaxter(), bindHumanoid(makeBaxter(), HumanoidBindingOptions{}))[0].found);
  // NAO's foot collision capsule (robots/nao.hpp) runs from 0.02 m behind the ankle to 0.07 m in
  // front of it, 0.045 m below, along the foot: its ends' lowest points are the sole. Hand
  // geometry in the torso frame: the hip 0.05 m left of and 0.085 m below the torso, the ankle
  // L = 0.1 + 0.1029 m below the hip, a sole end at (x, 0.05, -0.085 - L - 0.045) at zero pose.
  const double drop = 0.1 + 0.1029 + 0.045;
  const Eigen::MatrixXd q = Eigen::MatrixXd::Zero(10, nao.nq());
  const Eigen::Matrix3Xd left = soleTrajectory(nao, soles[0], q);
  CHECK(left(0, 0) == doctest::Approx(0.5 * (-0.02 + 0.07)).epsilon(1e-9));
  CHECK(left(1, 0) == doctest::Approx(0.05).epsilon(1e-9));
  CHECK(left(2, 0) == doctest::Approx(-(0.085 + drop)).epsilon(1e-9));
  const FootContact still = footContact(times(10), left);
  CHECK(still.contact_frames == 10);
  CHECK(still.sliding == 0.0);
  // Swinging the left leg forward (hip pitch a = -0.08 k rad, about the hip's y axis) turns both
  // sole ends about the hip: an end at (x, -drop) from the hip goes to
  // (x cos a - drop sin a, -x sin a - drop cos a). The heel first dips, so the ground is the
  // lowest end over the swing; contact is within 2 cm of it; the sliding is the centroid's path
  // over consecutive contact frames.
  Eigen::MatrixXd swing = q;
  const int hip = nao.qIndex("LHipPitch");
  for (int k = 0; k < 10; ++k) swing(k, hip) = -0.08 * k;
  const Eigen::Matrix3Xd moved = soleTrajectory(nao, soles[0], swing);
  Eigen::Matrix3Xd expected(3, 10);
  for (int k = 0; k < 10; ++k) {
    const double a = -0.08 * k;
    double lowest = 1e9, x_mid = 0;
    for (const double x : {-0.02, 0.07}) {
      lowest = std::min(lowest, -x * std::sin(a) - drop * std::cos(a));
      x_mid += 0.5 * (x * std::cos(a) - drop * std::sin(a));
    }
    expected.col(k) << x_mid, 0.05, -0.085 + lowest;
  }
  CHECK((moved - expected).cwiseAbs().maxCoeff() < 1e-9);
  const double ground = expected.row(2).minCoeff();
  int contact = 0;
  double sliding = 0;
  for (int k = 0; k < 10; ++k) {
    const bool in = expected(2, k) - ground <= 0.02;
    contact += in ? 1 : 0;
    if (k > 0 && in && expected(2, k - 1) - ground <= 0.02) sliding += std::abs(expected(0, k) - expected(0, k - 1));
  }
  const FootContact c = footContact(times(10), moved);
  CHECK(contact >= 3);  // the swing starts on the ground ...
  CHECK(contact <= 8);  // ... and leaves it
  CHECK(c.contact_frames == contact);
  CHECK(c.sliding == doctest::Approx(sliding).epsilon(1e-9));
  HumanoidSole missing;
  CHECK_THROWS_WITH_AS(soleTrajectory(nao, missing, q), doctest::Contains("sole"), InvalidArgument);
}
