// Position error (MPJPE) of the robot's virtual skeleton against the human after normalising for
// body size: zero for the robot's own skeleton and for a scaled, turned and moved copy of it;
// 2 L sin(theta / 2) at the end of a link turned by theta (and only on that chain); the motion
// summary equals the mean of the per-frame values.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include <retarget/human/motion.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "metrics/random_nao.hpp"

using namespace retarget;
using retarget::test::randomNao;

namespace {

// The skeleton scaled by `scale`, turned by `yaw` about the vertical and moved by `offset`.
SkeletonFramed transformed(const SkeletonFramed& f, double scale, double yaw, const Eigen::Vector3d& offset) {
  SkeletonFramed out = f;
  const Eigen::Matrix3d R = Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  for (auto& p : out.p_W) p = R * (scale * p) + offset;
  return out;
}

int linkIndex(const char* name) {
  for (int l = 0; l < kPositionErrorLinkCount; ++l) {
    if (std::string(kPositionErrorLinkNames[static_cast<std::size_t>(l)]) == name) return l;
  }
  return -1;
}

}  // namespace

TEST_CASE("position error: zero for the robot's own skeleton and for a scaled, turned, moved copy") {
  const auto nao = makeNao();
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(11);
  for (int trial = 0; trial < 50; ++trial) {
    SkeletonFramed robot;
    REQUIRE(view.compute(randomNao(nao, rng), robot).ok());
    // A human 5.3 times NAO's size, turned and standing elsewhere.
    const SkeletonFramed human = transformed(robot, 5.3, 0.7 * trial, Eigen::Vector3d(1.0, -2.0, 0.3));
    FramePositionError<double> e;
    CHECK(framePositionError(human, robot, e).ok());
    CHECK(e.valid_links == kPositionErrorLinkCount);
    CHECK(e.mpjpe < 1e-12);
  }
}

TEST_CASE("position error: a link turned by theta adds 2 L sin(theta/2) at its end, on its chain only") {
  const auto nao = makeNao();
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    SkeletonFramed robot;
    REQUIRE(view.compute(randomNao(nao, rng), robot).ok());
    SkeletonFramed human = transformed(robot, 6.0, 0.3, Eigen::Vector3d::Zero());
    // Turn the human's left forearm about its elbow by theta (about an axis across the forearm).
    const double theta = 0.1 + 0.05 * trial;
    const Eigen::Vector3d elbow = human.position(HumanJoint::kElbowLeft);
    const Eigen::Vector3d forearm = human.position(HumanJoint::kWristLeft) - elbow;
    const Eigen::Vector3d axis = forearm.unitOrthogonal();
    human.position(HumanJoint::kWristLeft) = elbow + Eigen::AngleAxisd(theta, axis) * forearm;
    // And the right tibia about the knee.
    const Eigen::Vector3d knee = human.position(HumanJoint::kKneeRight);
    const Eigen::Vector3d tibia = human.position(HumanJoint::kAnkleRight) - knee;
    human.position(HumanJoint::kAnkleRight) = knee + Eigen::AngleAxisd(-theta / 2, tibia.unitOrthogonal()) * tibia;

    FramePositionError<double> e;
    REQUIRE(framePositionError(human, robot, e).ok());
    for (int l = 0; l < kPositionErrorLinkCount; ++l) {
      CAPTURE(kPositionErrorLinkNames[static_cast<std::size_t>(l)]);
      if (l == linkIndex("left_wrist")) {
        CHECK(e.links[static_cast<std::size_t>(l)] == doctest::Approx(2 * forearm.norm() * std::sin(theta / 2)).epsilon(1e-9));
      } else if (l == linkIndex("right_ankle")) {
        CHECK(e.links[static_cast<std::size_t>(l)] == doctest::Approx(2 * tibia.norm() * std::sin(theta / 4)).epsilon(1e-9));
      } else {
        CHECK(e.links[static_cast<std::size_t>(l)] < 1e-12);
      }
    }
    const double expected = (2 * forearm.norm() * std::sin(theta / 2) + 2 * tibia.norm() * std::sin(theta / 4)) /
                            kPositionErrorLinkCount;
    CHECK(e.mpjpe == doctest::Approx(expected).epsilon(1e-9));
  }
}

TEST_CASE("position error: untracked joints invalidate their link and the chain beyond; motion summary") {
  const auto nao = makeNao();
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  SkeletonFramed robot;
  REQUIRE(view.compute(Eigen::VectorXd::Zero(nao.nq()), robot).ok());
  SkeletonFramed human = transformed(robot, 5.0, 0.0, Eigen::Vector3d::Zero());
  human.trackingState(HumanJoint::kElbowRight) = TrackingState::kNotTracked;
  FramePositionError<double> e;
  CHECK(framePositionError(human, robot, e).has(StatusCode::kDegenerateInput));
  CHECK(!e.valid[static_cast<std::size_t>(linkIndex("right_elbow"))]);
  CHECK(!e.valid[static_cast<std::size_t>(linkIndex("right_wrist"))]);
  CHECK(e.valid_links == kPositionErrorLinkCount - 2);

  // Motion: frame 0 exact, frame 1 with the left forearm turned by 90 degrees.
  SkeletonMotion<double> motion;
  motion.frames.push_back(transformed(robot, 5.0, 0.0, Eigen::Vector3d::Zero()));
  SkeletonFramed bent = motion.frames[0];
  const Eigen::Vector3d elbow = bent.position(HumanJoint::kElbowLeft);
  const Eigen::Vector3d forearm = bent.position(HumanJoint::kWristLeft) - elbow;
  bent.position(HumanJoint::kWristLeft) = elbow + Eigen::AngleAxisd(M_PI / 2, forearm.unitOrthogonal()) * forearm;
  motion.frames.push_back(bent);
  const Eigen::MatrixXd q = Eigen::MatrixXd::Zero(2, nao.nq());
  const MotionPositionError m = motionPositionError(view, motion, q);
  const double wrist = 2 * forearm.norm() * std::sin(M_PI / 4);
  CHECK(m.frame_mpjpe[0] < 1e-12);
  CHECK(m.frame_mpjpe[1] == doctest::Approx(wrist / kPositionErrorLinkCount));
  CHECK(m.mpjpe == doctest::Approx(wrist / (2 * kPositionErrorLinkCount)));
  CHECK(m.max == doctest::Approx(wrist));
  CHECK(m.link_max[static_cast<std::size_t>(linkIndex("left_wrist"))] == doctest::Approx(wrist));
  CHECK(m.link_mean[static_cast<std::size_t>(linkIndex("left_wrist"))] == doctest::Approx(wrist / 2));
  CHECK(m.link_frames[0] == 2);
  CHECK_THROWS_WITH_AS(motionPositionError(view, motion, Eigen::MatrixXd::Zero(3, nao.nq())),
                       doctest::Contains("joint rows"), InvalidArgument);
}

TEST_CASE("position error, uniform scaling: zero for a scaled, turned, moved copy; the size ratio is the scale") {
  const auto nao = makeNao();
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(23);
  for (int trial = 0; trial < 30; ++trial) {
    SkeletonFramed robot;
    REQUIRE(view.compute(randomNao(nao, rng), robot).ok());
    const double scale = 2.0 + 0.25 * trial;
    const SkeletonFramed human = transformed(robot, scale, -0.4 * trial, Eigen::Vector3d(-0.5, 3.0, 0.1));
    FramePositionError<double> e;
    CHECK(framePositionError(human, robot, e, PositionErrorScaling::kUniform).ok());
    CHECK(e.valid_links == kPositionErrorLinkCount);
    CHECK(e.size_ratio == doctest::Approx(scale).epsilon(1e-12));
    CHECK(e.mpjpe < 1e-12);
  }
}

TEST_CASE("position error, uniform scaling: other proportions count, per-link scaling ignores them") {
  const auto nao = makeNao();
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(31);
  for (int trial = 0; trial < 20; ++trial) {
    SkeletonFramed robot;
    REQUIRE(view.compute(randomNao(nao, rng), robot).ok());
    // A human k times NAO's size in the same pose (no turn: both base frames are parallel), whose
    // left forearm is longer by the fraction `a`: every link points the same way, the proportions
    // differ.
    const double k = 4.0 + 0.1 * trial, a = 0.2 + 0.02 * trial;
    SkeletonFramed human = transformed(robot, k, 0.0, Eigen::Vector3d(0.2, 0.1, 0.0));
    const Eigen::Vector3d forearm_r = robot.position(HumanJoint::kWristLeft) - robot.position(HumanJoint::kElbowLeft);
    human.position(HumanJoint::kWristLeft) += k * a * forearm_r;

    FramePositionError<double> per_link, uniform;
    REQUIRE(framePositionError(human, robot, per_link, PositionErrorScaling::kPerLink).ok());
    REQUIRE(framePositionError(human, robot, uniform, PositionErrorScaling::kUniform).ok());
    CHECK(per_link.mpjpe < 1e-12);  // directions agree everywhere

    // Independently: the size ratio from the link lengths, then joint positions from the root.
    double length_r = 0;
    for (const auto& [p, c] : kPositionErrorLinks) length_r += (robot.position(c) - robot.position(p)).norm();
    const double s = (k * length_r + k * a * forearm_r.norm()) / length_r;
    CHECK(uniform.size_ratio == doctest::Approx(s).epsilon(1e-12));
    CHECK(per_link.size_ratio == doctest::Approx(s).epsilon(1e-12));
    double sum = 0;
    for (int l = 0; l < kPositionErrorLinkCount; ++l) {
      const HumanJoint c = kPositionErrorLinks[static_cast<std::size_t>(l)].second;
      const Eigen::Vector3d h = human.position(c) - human.position(HumanJoint::kSpineBase);
      const Eigen::Vector3d r = robot.position(c) - robot.position(HumanJoint::kSpineBase);
      const double expected = (h - s * r).norm();
      CAPTURE(kPositionErrorLinkNames[static_cast<std::size_t>(l)]);
      CHECK(uniform.links[static_cast<std::size_t>(l)] == doctest::Approx(expected).epsilon(1e-9));
      sum += expected;
    }
    CHECK(uniform.mpjpe == doctest::Approx(sum / kPositionErrorLinkCount).epsilon(1e-9));
    CHECK(uniform.mpjpe > 1e-3);
  }
}

TEST_CASE("position error over a motion: the scaling is applied to every frame and the size ratio averaged") {
  const auto nao = makeNao();
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  SkeletonFramed robot;
  REQUIRE(view.compute(Eigen::VectorXd::Zero(nao.nq()), robot).ok());
  SkeletonMotion<double> motion;
  motion.frames.push_back(transformed(robot, 3.0, 0.0, Eigen::Vector3d::Zero()));
  motion.frames.push_back(transformed(robot, 5.0, 1.0, Eigen::Vector3d::Zero()));
  const Eigen::MatrixXd q = Eigen::MatrixXd::Zero(2, nao.nq());
  const MotionPositionError uniform = motionPositionError(view, motion, q, PositionErrorScaling::kUniform);
  CHECK(uniform.scaling == PositionErrorScaling::kUniform);
  CHECK(uniform.size_ratio == doctest::Approx(4.0).epsilon(1e-12));
  CHECK(uniform.mpjpe < 1e-12);
  CHECK(motionPositionError(view, motion, q).scaling == PositionErrorScaling::kPerLink);
  CHECK(std::string(positionErrorScalingName(PositionErrorScaling::kUniform)) == "uniform");
}
