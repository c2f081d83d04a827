// Foot sliding and floating: a foot planted on the ground (no sliding), a foot that slides by a
// known distance, a swing phase that is not contact, a robot foot floating while the human's is
// down, and NAO's soles by forward kinematics.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <retarget/metrics/foot_contact.hpp>
#include <retarget/robots/baxter.hpp>
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

TEST_CASE("foot contact: a robot foot floating while the human's is on the ground") {
  const int n = 20;
  const auto t = times(n);
  Eigen::Matrix3Xd human(3, n), robot(3, n);
  human.colwise() = Eigen::Vector3d(0.2, 0.1, 0.07);  // human ankle, still (its own ground 0.07)
  for (int k = 0; k < n; ++k) robot.col(k) = Eigen::Vector3d(0.0, 0.05, k < 10 ? -0.3 : -0.25);
  const FootContact c = footContact(t, robot, &human);
  CHECK(c.reference_contact_frames == 20);
  CHECK(c.floating_frames == 10);
  CHECK(c.floating_max == doctest::Approx(0.05));
  CHECK(c.floating_mean == doctest::Approx(0.025));
  // A human foot moving fast along the ground is not contact (speed 1.5 m/s > 0.3 m/s).
  for (int k = 0; k < n; ++k) human(0, k) = 0.05 * k;
  CHECK(footContact(t, robot, &human).reference_contact_frames == 0);
  // Validation names the field.
  FootContactOptions bad;
  bad.contact_height = -1;
  CHECK_THROWS_WITH_AS(footContact(t, robot, nullptr, bad), doctest::Contains("contact_height"), InvalidArgument);
  CHECK_THROWS_WITH_AS(footContact(times(3), robot), doctest::Contains("robot foot samples"), InvalidArgument);
}

TEST_CASE("foot contact: NAO's soles by forward kinematics; robots without feet have none") {
  const auto nao = makeNao();
  const auto feet = footLinks(nao);
  REQUIRE(feet.has_value());
  CHECK(feet->first == "l_sole");
  CHECK(!footLinks(makeBaxter()).has_value());
  // Zero pose: the sole is 0.085 + 0.1 + 0.1029 + 0.04511 m below the torso frame, 0.05 m left.
  const Eigen::MatrixXd q = Eigen::MatrixXd::Zero(10, nao.nq());
  const Eigen::Matrix3Xd left = robotFootTrajectory(nao, feet->first, q);
  CHECK(left(2, 0) == doctest::Approx(-(0.085 + 0.1 + 0.1029 + 0.04511)).epsilon(1e-9));
  CHECK(left(1, 0) == doctest::Approx(0.05).epsilon(1e-9));
  const FootContact still = footContact(times(10), left);
  CHECK(still.contact_frames == 10);
  CHECK(still.sliding == 0.0);
  // Swinging the left leg forward (hip pitch 0.08 rad per frame) moves the sole on a circle of
  // radius L = 0.1 + 0.1029 + 0.04511 m about the hip: up L (1 - cos theta), forward L sin theta.
  // It stays within the 2 cm contact height up to frame 5 (theta 0.4: 19.6 mm; frame 6: 28 mm),
  // so it slides L sin(0.4) on the ground and the rest of the swing is not counted.
  Eigen::MatrixXd swing = q;
  const int hip = nao.qIndex("LHipPitch");
  for (int k = 0; k < 10; ++k) swing(k, hip) = -0.08 * k;
  const FootContact c = footContact(times(10), robotFootTrajectory(nao, feet->first, swing));
  const double L = 0.1 + 0.1029 + 0.04511;
  CHECK(c.contact_frames == 6);
  CHECK(c.sliding == doctest::Approx(L * std::sin(0.4)).epsilon(1e-9));
  CHECK_THROWS_WITH_AS(robotFootTrajectory(nao, "no_such_link", q), doctest::Contains("foot link"), InvalidArgument);
}
