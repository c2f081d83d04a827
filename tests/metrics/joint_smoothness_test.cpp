// Joint velocity, acceleration and jerk (divided differences on the time stamps), velocity-limit
// violations and joint-limit margin, on trajectories whose answer is known in closed form: a
// static pose, a constant-velocity sweep, a quadratic (constant acceleration) and a cubic
// (constant jerk), each on a non-uniform time grid.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/robots/nao.hpp>

using namespace retarget;

namespace {

// Non-uniform time grid: 30 Hz with every third interval twice as long (a dropped frame).
std::vector<double> unevenTimes(int frames) {
  std::vector<double> t{0.0};
  for (int k = 1; k < frames; ++k) t.push_back(t.back() + (k % 3 == 0 ? 2.0 : 1.0) / 30.0);
  return t;
}

// Mid-range pose of every joint.
Eigen::VectorXd midPose(const RobotModel<double>& model) { return (model.lowerLimits() + model.upperLimits()) / 2; }

// q_i(t) = q0_i + c1_i t + c2_i t^2 + c3_i t^3, one row per time.
Eigen::MatrixXd polynomial(const std::vector<double>& t, const Eigen::VectorXd& q0, const Eigen::VectorXd& c1,
                           const Eigen::VectorXd& c2, const Eigen::VectorXd& c3) {
  Eigen::MatrixXd q(static_cast<Eigen::Index>(t.size()), q0.size());
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double s = t[k];
    q.row(static_cast<Eigen::Index>(k)) = (q0 + c1 * s + c2 * s * s + c3 * s * s * s).transpose();
  }
  return q;
}

}  // namespace

TEST_CASE("joint smoothness: a static pose has zero velocity, acceleration and jerk and the known limit margin") {
  const auto nao = makeNao();
  const auto t = unevenTimes(40);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nao.nq());
  Eigen::VectorXd q0 = midPose(nao);
  const int knee = nao.qIndex("LKneePitch");
  q0[knee] = nao.lowerLimits()[knee] + 0.01;  // 10 mrad from its lower limit: the smallest margin
  const JointSmoothness s = jointSmoothness(nao, t, polynomial(t, q0, zero, zero, zero));
  CHECK(s.frames == 40);
  CHECK(s.velocity_samples == 39);
  CHECK(s.acceleration_samples == 38);
  CHECK(s.jerk_samples == 37);
  CHECK(s.velocity_peak_max == 0.0);
  CHECK(s.acceleration_peak_max == 0.0);
  CHECK(s.jerk_peak_max == 0.0);
  CHECK(s.velocity_rms_all == 0.0);
  CHECK(s.velocity_violation_intervals == 0);
  CHECK(s.limit_margin[knee] == doctest::Approx(0.01).epsilon(1e-9));
  // Nothing moves: the margin is taken over every joint.
  CHECK(s.limit_margin_min == doctest::Approx(0.01).epsilon(1e-9));
  CHECK(s.limit_margin_joints == nao.nq());
}

TEST_CASE("joint smoothness: the limit margin is the moving joints' (a hand held open at its limit does not count)") {
  const auto nao = makeNao();
  const auto t = unevenTimes(30);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nao.nq());
  Eigen::VectorXd q0 = midPose(nao), w = zero;
  const int hand = nao.qIndex("RHand");
  const int elbow = nao.qIndex("RElbowRoll");
  q0[hand] = nao.upperLimits()[hand];  // held open, on its limit, the whole motion
  // The elbow moves from 0.2 rad above its lower limit towards the middle of its range.
  q0[elbow] = nao.lowerLimits()[elbow] + 0.2;
  w[elbow] = 0.1 / t.back();
  const JointSmoothness s = jointSmoothness(nao, t, polynomial(t, q0, w, zero, zero));
  CHECK(s.limit_margin[hand] == 0.0);
  CHECK(s.limit_margin[elbow] == doctest::Approx(0.2).epsilon(1e-9));
  CHECK(s.limit_margin_joints == 1);
  CHECK(s.limit_margin_min == doctest::Approx(0.2).epsilon(1e-9));
}

TEST_CASE("joint smoothness: a constant-velocity sweep gives the exact velocity, zero acceleration and jerk") {
  const auto nao = makeNao();
  const auto t = unevenTimes(31);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nao.nq());
  // Sweep every joint across half its range over the motion, alternating signs.
  Eigen::VectorXd w(nao.nq());
  const double duration = t.back();
  for (int i = 0; i < nao.nq(); ++i) w[i] = (i % 2 == 0 ? 0.5 : -0.5) * (nao.upperLimits()[i] - nao.lowerLimits()[i]) / duration;
  const Eigen::VectorXd q0 = midPose(nao) - w * duration / 2;
  const JointSmoothness s = jointSmoothness(nao, t, polynomial(t, q0, w, zero, zero));
  for (int i = 0; i < nao.nq(); ++i) {
    CAPTURE(nao.qName(i));
    CHECK(s.velocity_peak[i] == doctest::Approx(std::abs(w[i])).epsilon(1e-9));
    CHECK(s.velocity_rms[i] == doctest::Approx(std::abs(w[i])).epsilon(1e-9));
    CHECK(s.acceleration_peak[i] < 1e-8);
    CHECK(s.jerk_peak[i] < 1e-6);
    // Half the range centred: a quarter of the range from each limit at the ends.
    CHECK(s.limit_margin[i] == doctest::Approx((nao.upperLimits()[i] - nao.lowerLimits()[i]) / 4).epsilon(1e-9));
  }
  CHECK(s.velocity_peak_max == doctest::Approx(std::abs(w.cwiseAbs().maxCoeff())).epsilon(1e-9));
  CHECK(s.velocity_rms_all == doctest::Approx(std::sqrt(w.squaredNorm() / nao.nq())).epsilon(1e-9));
}

TEST_CASE("joint smoothness: a quadratic has constant acceleration and zero jerk; a cubic constant jerk") {
  const auto nao = makeNao();
  const auto t = unevenTimes(25);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nao.nq());
  const Eigen::VectorXd c2 = Eigen::VectorXd::LinSpaced(nao.nq(), -0.4, 0.4);  // a = 2 c2 (rad/s^2)
  const JointSmoothness quad = jointSmoothness(nao, t, polynomial(t, midPose(nao), zero, c2, zero));
  for (int i = 0; i < nao.nq(); ++i) {
    CAPTURE(i);
    CHECK(quad.acceleration_peak[i] == doctest::Approx(2 * std::abs(c2[i])).epsilon(1e-7));
    CHECK(quad.acceleration_rms[i] == doctest::Approx(2 * std::abs(c2[i])).epsilon(1e-7));
    CHECK(quad.jerk_peak[i] < 1e-6);
    // Peak velocity of the mid-interval slopes: |c2| (t_{k+1} + t_k) at the last interval.
    const double last = t[t.size() - 1] + t[t.size() - 2];
    CHECK(quad.velocity_peak[i] == doctest::Approx(std::abs(c2[i]) * last).epsilon(1e-9));
  }
  const Eigen::VectorXd c3 = Eigen::VectorXd::LinSpaced(nao.nq(), 0.05, 0.3);  // j = 6 c3 (rad/s^3)
  const JointSmoothness cubic = jointSmoothness(nao, t, polynomial(t, midPose(nao), zero, zero, c3));
  for (int i = 0; i < nao.nq(); ++i) {
    CAPTURE(i);
    CHECK(cubic.jerk_peak[i] == doctest::Approx(6 * c3[i]).epsilon(1e-6));
    CHECK(cubic.jerk_rms[i] == doctest::Approx(6 * c3[i]).epsilon(1e-6));
  }
}

TEST_CASE("joint smoothness: velocity-limit violations are counted per joint and per interval") {
  const auto nao = makeNao();
  const auto t = unevenTimes(10);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nao.nq());
  const int yaw = nao.qIndex("HeadYaw");
  const double limit = nao.velocityLimits()[yaw];
  REQUIRE(std::isfinite(limit));
  Eigen::VectorXd w = zero;
  w[yaw] = 1.5 * limit / 100;  // well within: 1.5 % of the limit
  const JointSmoothness slow = jointSmoothness(nao, t, polynomial(t, midPose(nao), w, zero, zero));
  CHECK(slow.velocity_violations.sum() == 0);
  CHECK(slow.velocity_limit_ratio[yaw] == doctest::Approx(0.015).epsilon(1e-9));
  // Exceed by half: each of the 9 intervals violates, on HeadYaw only. Range is not a concern
  // for velocities (the margin goes negative instead).
  w[yaw] = 1.5 * limit;
  const JointSmoothness fast = jointSmoothness(nao, t, polynomial(t, midPose(nao), w, zero, zero));
  CHECK(fast.velocity_violations[yaw] == 9);
  CHECK(fast.velocity_violations.sum() == 9);
  CHECK(fast.velocity_violation_intervals == 9);
  CHECK(fast.velocity_limit_ratio[yaw] == doctest::Approx(1.5).epsilon(1e-9));
}

TEST_CASE("joint smoothness: repeated time stamps are dropped; bad input throws naming the field") {
  const auto nao = makeNao();
  std::vector<double> t{0.0, 0.1, 0.1, 0.2};
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(4, nao.nq());
  q(0, 0) = 0.0;
  q(1, 0) = 0.1;
  q(2, 0) = 0.5;  // same time as row 1: dropped, no infinite velocity
  q(3, 0) = 0.2;
  const JointSmoothness s = jointSmoothness(nao, t, q);
  CHECK(s.frames == 3);
  CHECK(s.velocity_peak[0] == doctest::Approx(1.0));
  CHECK_THROWS_WITH_AS(jointSmoothness(nao, std::vector<double>{0.0}, q), doctest::Contains("time stamps"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(jointSmoothness(nao, t, Eigen::MatrixXd::Zero(4, 3)), doctest::Contains("joint columns"),
                       InvalidArgument);
  // Fewer than four frames: no jerk sample, peaks 0.
  CHECK(s.jerk_samples == 0);
  CHECK(s.jerk_peak_max == 0.0);
}
