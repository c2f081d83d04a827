// Locomotion mapping (seed 000, Section 3.5): a skeleton carried along a known path (walking,
// turning on an arc, turning in place, standing) gives walk commands whose integral follows the
// path within the thresholds d0 and ω0 at every loop; signs follow the base frame (x forward,
// y left, counterclockwise positive); one foot reaching out does not walk; steps in place count.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <Eigen/Geometry>

#include <retarget/control/locomotion.hpp>
#include <retarget/human/demo_motions.hpp>

using namespace retarget;

namespace {

const SkeletonFramed& restFrame() {
  static const SkeletonFramed rest = demoMotion("wave", DemoMotionOptions{30.0, 0.0, 1.75}).frames.front();
  return rest;
}

// The rest skeleton turned by `heading` about z (through SpineBase) and moved by `xy`.
SkeletonFramed carried(const Eigen::Vector2d& xy, double heading, double t) {
  SkeletonFramed frame = restFrame();
  frame.time = t;
  const Eigen::Vector3d pivot = restFrame().position(HumanJoint::kSpineBase);
  const Eigen::Matrix3d R = Eigen::AngleAxisd(heading, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  for (auto& p : frame.p_W) p = pivot + R * (p - pivot) + Eigen::Vector3d(xy.x(), xy.y(), 0.0);
  return frame;
}

struct Pose2 {
  Eigen::Vector2d xy;
  double heading;
};

double wrap(double a) { return LocomotionMapper<double>::wrapAngle(a); }

}  // namespace

TEST_CASE("locomotion: the integral of the walk commands follows a known path within d0 and w0") {
  // 14 s at 30 Hz: 4 s straight at 0.3 m/s, 4 s on an arc turning 90 deg at 0.2 m/s, 3 s turning
  // -60 deg in place, 3 s standing.
  const auto path = [](double t) {
    Pose2 p{Eigen::Vector2d(0.5, -0.2), 0.3};
    const double straight = std::min(t, 4.0);
    p.xy += 0.3 * straight * Eigen::Vector2d(std::cos(p.heading), std::sin(p.heading));
    if (t > 4.0) {
      const double s = std::min(t, 8.0) - 4.0;
      const double rate = (kPi<double> / 2) / 4.0, speed = 0.2, radius = speed / rate;
      const double h0 = p.heading, h = h0 + rate * s;
      p.xy += radius * Eigen::Vector2d(std::sin(h) - std::sin(h0), -std::cos(h) + std::cos(h0));
      p.heading = h;
    }
    if (t > 8.0) p.heading -= (kPi<double> / 3) * (std::min(t, 11.0) - 8.0) / 3.0;
    return p;
  };
  LocomotionOptions options;
  LocomotionMapper<double> mapper(options);
  // The robot's pose from integrating the commands, starting where the human starts.
  Pose2 robot{Eigen::Vector2d::Zero(), 0.0};
  bool first = true;
  int commands = 0, turns_left = 0, turns_right = 0;
  for (int k = 0; k <= 14 * 30; ++k) {
    const double t = k / 30.0;
    const Pose2 truth = path(t);
    const SkeletonFramed frame = carried(truth.xy, truth.heading, t);
    if (first) {
      robot = {frame.position(HumanJoint::kSpineBase).head<2>(), truth.heading};
      first = false;
    }
    const LocomotionUpdate u = mapper.update(frame);
    if (u.walk) {
      ++commands;
      const Eigen::Rotation2Dd R(robot.heading);
      robot.xy += R * Eigen::Vector2d(u.command.dx, u.command.dy);
      robot.heading = wrap(robot.heading + u.command.dtheta);
      turns_left += u.command.dtheta > 0 ? 1 : 0;
      turns_right += u.command.dtheta < 0 ? 1 : 0;
      CHECK(u.command.duration == options.loop_period);
    }
    if (u.loop_started) {
      CAPTURE(t);
      const Eigen::Vector2d human_xy = frame.position(HumanJoint::kSpineBase).head<2>();
      CHECK((robot.xy - human_xy).norm() < options.step_threshold);
      CHECK(std::abs(wrap(robot.heading - truth.heading)) < options.turn_threshold);
      CHECK((robot.xy - mapper.commandedPosition()).norm() < 1e-12);
      CHECK(std::abs(wrap(robot.heading - mapper.commandedHeading())) < 1e-12);
    }
  }
  MESSAGE(commands << " walk commands, " << turns_left << " turning left, " << turns_right << " turning right");
  CHECK(commands >= 8);
  CHECK(turns_left >= 2);   // the arc
  CHECK(turns_right >= 1);  // the turn in place
}

TEST_CASE("locomotion: signs in the base frame; one foot reaching out does not walk; steps in place count") {
  LocomotionOptions options;
  {
    // Facing +y (heading 90 deg), the human steps 0.3 m towards -x: to their left (their x
    // forward is +y, their y left is -x).
    LocomotionMapper<double> mapper(options);
    mapper.update(carried(Eigen::Vector2d::Zero(), kPi<double> / 2, 0.0));
    const LocomotionUpdate u = mapper.update(carried(Eigen::Vector2d(-0.3, 0.0), kPi<double> / 2, 1.0));
    REQUIRE(u.walk);
    CHECK(u.command.dx == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(u.command.dy == doctest::Approx(0.3));
    CHECK(u.command.dtheta == 0.0);
    // Turning clockwise (seen from above) by 40 deg: negative.
    const LocomotionUpdate turn = mapper.update(carried(Eigen::Vector2d(-0.3, 0.0), kPi<double> / 2 - 0.7, 2.0));
    REQUIRE(turn.walk);
    CHECK(turn.command.dtheta == doctest::Approx(-0.7));
  }
  {
    // Reaching out with the left foot 0.3 m forward while leaning 0.12 m: only one foot moved.
    LocomotionMapper<double> mapper(options);
    mapper.update(restFrame());
    SkeletonFramed reach = restFrame();
    reach.time = 1.0;
    for (HumanJoint j : {HumanJoint::kAnkleLeft, HumanJoint::kFootLeft, HumanJoint::kKneeLeft}) {
      reach.position(j).x() += 0.3;
    }
    for (HumanJoint j : {HumanJoint::kSpineBase, HumanJoint::kHipLeft, HumanJoint::kHipRight}) {
      reach.position(j).x() += 0.12;
    }
    const LocomotionUpdate u = mapper.update(reach);
    CHECK(u.loop_started);
    CHECK(!u.walk);
    CHECK(!u.stepping);
  }
  {
    // Walking in place: stepping from the second loop on, no displacement, no turn.
    LocomotionMapper<double> mapper(options);
    int loops = 0, stepping = 0, walks = 0;
    for (const SkeletonFramed& frame : demoMotion("walk-in-place", DemoMotionOptions{30.0, 10.0, 1.75}).frames) {
      const LocomotionUpdate u = mapper.update(frame);
      loops += u.loop_started ? 1 : 0;
      stepping += u.stepping ? 1 : 0;
      walks += u.walk ? 1 : 0;
    }
    CHECK(loops == 11);
    CHECK(stepping >= 8);
    CHECK(walks == 0);
  }
  CHECK_THROWS_WITH_AS(LocomotionMapper<double>(LocomotionOptions{0.0, 0.1, 0.2}),
                       doctest::Contains("loop_period (got 0"), InvalidArgument);
}
