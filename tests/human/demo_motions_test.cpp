// Demo motions: rigid bones, planted feet, mirror symmetry, and what each motion is meant to
// show (the wave is above the shoulder, the folded forearms cross in front of the chest, ...).
#include <doctest/doctest.h>

#include <cmath>

#include <algorithm>
#include <utility>

#include <retarget/human/demo_motions.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using J = HumanJoint;

namespace {

// The Kinect v2 bone tree (parent, child).
const std::pair<J, J> kBones[] = {
    {J::kSpineBase, J::kSpineMid},       {J::kSpineMid, J::kSpineShoulder},   {J::kSpineShoulder, J::kNeck},
    {J::kNeck, J::kHead},                {J::kSpineShoulder, J::kShoulderLeft}, {J::kShoulderLeft, J::kElbowLeft},
    {J::kElbowLeft, J::kWristLeft},      {J::kWristLeft, J::kHandLeft},       {J::kHandLeft, J::kHandTipLeft},
    {J::kWristLeft, J::kThumbLeft},      {J::kSpineShoulder, J::kShoulderRight}, {J::kShoulderRight, J::kElbowRight},
    {J::kElbowRight, J::kWristRight},    {J::kWristRight, J::kHandRight},     {J::kHandRight, J::kHandTipRight},
    {J::kWristRight, J::kThumbRight},    {J::kSpineBase, J::kHipLeft},        {J::kHipLeft, J::kKneeLeft},
    {J::kKneeLeft, J::kAnkleLeft},       {J::kAnkleLeft, J::kFootLeft},       {J::kSpineBase, J::kHipRight},
    {J::kHipRight, J::kKneeRight},       {J::kKneeRight, J::kAnkleRight},     {J::kAnkleRight, J::kFootRight},
};

double boneLength(const SkeletonFrame<double>& f, std::pair<J, J> bone) {
  return (f.position(bone.first) - f.position(bone.second)).norm();
}

const SkeletonFrame<double>& at(const SkeletonMotion<double>& motion, double t) {
  const auto i = static_cast<std::size_t>(std::lround(t * motion.frame_rate));
  return motion.frames.at(i);
}

// Smallest distance between segments [a0, a1] and [b0, b1], by dense sampling (brute force).
double segmentDistance(const Vector3<double>& a0, const Vector3<double>& a1, const Vector3<double>& b0,
                       const Vector3<double>& b1) {
  double best = 1e9;
  for (int i = 0; i <= 100; ++i) {
    for (int k = 0; k <= 100; ++k) {
      best = std::min(best, ((a0 + (a1 - a0) * (i / 100.0)) - (b0 + (b1 - b0) * (k / 100.0))).norm());
    }
  }
  return best;
}

}  // namespace

TEST_CASE("demo motions: frames, times, tracking, determinism for every motion") {
  DemoMotionOptions options;
  options.rate = 25;
  options.duration = 4;
  for (const std::string& name : demoMotionNames()) {
    CAPTURE(name);
    const auto motion = demoMotion(name, options);
    REQUIRE(motion.size() == 101);
    CHECK(motion.format == "demo/" + name);
    CHECK(motion.frame_rate == 25);
    CHECK(motion.duration() == doctest::Approx(4.0));
    for (std::size_t i = 0; i < motion.size(); ++i) {
      const auto& f = motion.frames[i];
      CHECK(f.time == doctest::Approx(static_cast<double>(i) / 25));
      for (int j = 0; j < kHumanJointCount; ++j) {
        REQUIRE(f.usable(static_cast<J>(j)));
        REQUIRE(f.trackingState(static_cast<J>(j)) == TrackingState::kTracked);
      }
      CHECK(f.left_hand != HandState::kUnknown);
      CHECK(f.right_hand != HandState::kUnknown);
    }
    const auto again = demoMotion(name, options);
    for (std::size_t i = 0; i < motion.size(); ++i) CHECK(again.frames[i].p_W == motion.frames[i].p_W);
  }
}

TEST_CASE("demo motions: bones keep their length and the first frame is the rest pose") {
  for (const double height : {1.2, 1.75, 2.0}) {
    DemoMotionOptions options;
    options.body_height = height;
    const HumanBodyModel model = HumanBodyModel::fromHeight(height);
    const SkeletonFrame<double> rest = bodyPoseFrame(model, BodyPose{});
    // Rest pose: feet on the floor, head near the top, arms hanging to mid-thigh.
    CHECK(rest.position(J::kFootLeft).z() == doctest::Approx(0.0));
    CHECK(rest.position(J::kHead).z() < height);
    CHECK(rest.position(J::kHead).z() > 0.9 * height);
    CHECK(rest.position(J::kHandTipLeft).z() == doctest::Approx((0.818 - 0.186 - 0.146 - 0.108) * height));
    CHECK(boneLength(rest, {J::kShoulderLeft, J::kElbowLeft}) == doctest::Approx(0.186 * height));
    CHECK(boneLength(rest, {J::kKneeRight, J::kAnkleRight}) == doctest::Approx(0.246 * height));
    // Every demo motion starts from the relaxed rest pose: elbows slightly bent, never straight.
    const SkeletonFrame<double> relaxed = bodyPoseFrame(model, relaxedRestPose());
    const Eigen::Vector3d upper_arm = relaxed.position(J::kElbowLeft) - relaxed.position(J::kShoulderLeft);
    const Eigen::Vector3d forearm = relaxed.position(J::kWristLeft) - relaxed.position(J::kElbowLeft);
    CHECK(std::acos(upper_arm.normalized().dot(forearm.normalized())) ==
          doctest::Approx(kRelaxedElbowFlexion * kPi<double> / 180));
    for (const std::string& name : demoMotionNames()) {
      CAPTURE(name);
      const auto motion = demoMotion(name, options);
      for (std::size_t j = 0; j < kHumanJointCount; ++j) {
        CHECK((motion.frames.front().p_W[j] - relaxed.p_W[j]).norm() < 1e-12);
      }
      double worst = 0;
      for (const auto& f : motion.frames) {
        for (const auto& bone : kBones) worst = std::max(worst, std::abs(boneLength(f, bone) - boneLength(rest, bone)));
      }
      CHECK(worst < 1e-12);
    }
  }
}

TEST_CASE("demo motions: feet stay on the floor when they should") {
  const HumanBodyModel model = HumanBodyModel::fromHeight(1.75);
  const auto squat = demoMotion("squat");
  double lowest_hip = 1e9;
  for (const auto& f : squat.frames) {
    CHECK(f.position(J::kFootLeft).z() == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(f.position(J::kFootRight).z() == doctest::Approx(0.0).epsilon(1e-12));
    CHECK((f.position(J::kAnkleLeft) - squat.frames[0].position(J::kAnkleLeft)).norm() < 1e-12);
    CHECK((f.position(J::kAnkleRight) - squat.frames[0].position(J::kAnkleRight)).norm() < 1e-12);
    lowest_hip = std::min(lowest_hip, f.position(J::kSpineBase).z());
  }
  CHECK(lowest_hip < model.hip_height - 0.2);  // it really squats

  const auto stand = demoMotion("one-leg-stand");
  for (const auto& f : stand.frames) {
    CHECK(f.position(J::kFootRight).z() == doctest::Approx(0.0).epsilon(1e-12));
    CHECK(f.position(J::kFootLeft).z() >= -1e-12);
  }
  CHECK(at(stand, 3.0).position(J::kFootLeft).z() > 0.2);
  CHECK(at(stand, 3.0).position(J::kKneeLeft).z() > model.hip_height - 0.15);

  DemoMotionOptions walk_options;
  walk_options.duration = 4.8;
  const auto walk = demoMotion("walk-in-place", walk_options);
  double left_max = 0;
  double right_max = 0;
  for (const auto& f : walk.frames) {
    const double l = f.position(J::kFootLeft).z();
    const double r = f.position(J::kFootRight).z();
    CHECK(std::min(l, r) == doctest::Approx(0.0).epsilon(1e-12));  // always one foot down
    CHECK(std::min(l, r) > -1e-12);
    left_max = std::max(left_max, l);
    right_max = std::max(right_max, r);
  }
  CHECK(left_max > 0.1);
  CHECK(right_max > 0.1);
  for (const std::string name : {"wave", "arms-raise", "arm-circles", "fold-arms"}) {
    for (const auto& f : demoMotion(name).frames) {
      CHECK(f.position(J::kFootLeft).z() == doctest::Approx(0.0).epsilon(1e-12));
      CHECK(f.position(J::kFootRight).z() == doctest::Approx(0.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("demo motions: symmetric motions are mirror images across the sagittal plane") {
  for (const std::string name : {"arms-raise", "squat", "arm-circles"}) {
    CAPTURE(name);
    for (const auto& f : demoMotion(name).frames) {
      for (int j = 0; j < kHumanJointCount; ++j) {
        const Vector3<double> p = f.position(static_cast<J>(j));
        const Vector3<double> m = f.position(mirrored(static_cast<J>(j)));
        CHECK((p - Vector3<double>(m.x(), -m.y(), m.z())).norm() < 1e-12);
      }
    }
  }
}

TEST_CASE("demo motions: each motion does what its name says") {
  SUBCASE("wave: the right hand is above the right shoulder and swings side to side") {
    const auto wave = demoMotion("wave");
    double y_min = 1e9;
    double y_max = -1e9;
    for (const auto& f : wave.frames) {
      if (f.time < 1.0) continue;
      CHECK(f.position(J::kHandRight).z() > f.position(J::kShoulderRight).z() + 0.05);
      CHECK(f.position(J::kHandLeft).z() < f.position(J::kSpineBase).z());
      y_min = std::min(y_min, f.position(J::kHandTipRight).y());
      y_max = std::max(y_max, f.position(J::kHandTipRight).y());
      CHECK(f.right_hand == HandState::kOpen);
    }
    CHECK(y_max - y_min > 0.15);
  }
  SUBCASE("arms-raise: both hands overhead halfway through") {
    const SkeletonFramed f = at(demoMotion("arms-raise"), 2.0);  // a copy: the motion is a temporary
    CHECK(f.position(J::kHandTipLeft).z() > f.position(J::kHead).z());
    CHECK(f.position(J::kHandTipRight).z() > f.position(J::kHead).z());
  }
  SUBCASE("arm-circles: the wrists draw circles in front of the shoulders and out to the sides") {
    const auto circles = demoMotion("arm-circles");
    double x_min = 1e9, x_max = -1e9, z_min = 1e9, z_max = -1e9;
    for (const auto& f : circles.frames) {
      if (f.time < 1.0) continue;
      const Vector3<double> w = f.position(J::kWristLeft) - f.position(J::kShoulderLeft);
      CHECK(w.y() > 0.25);
      x_min = std::min(x_min, w.x());
      x_max = std::max(x_max, w.x());
      z_min = std::min(z_min, w.z());
      z_max = std::max(z_max, w.z());
    }
    CHECK(x_max - x_min > 0.1);
    CHECK(z_max - z_min > 0.15);
    CHECK(x_min > 0.1);  // in front of the shoulder: 35 +- 15 deg of forward flexion
  }
  SUBCASE("fold-arms: forearms cross in front of the chest, close together, hands closed") {
    const SkeletonFramed f = at(demoMotion("fold-arms"), 3.0);  // a copy: the motion is a temporary
    CHECK(f.left_hand == HandState::kClosed);
    CHECK(f.right_hand == HandState::kClosed);
    CHECK(f.position(J::kWristLeft).y() < 0);   // left wrist past the midline
    CHECK(f.position(J::kWristRight).y() > 0);  // right wrist past the midline
    const double chest_x = f.position(J::kSpineMid).x();
    CHECK(f.position(J::kWristLeft).x() > chest_x + 0.1);
    CHECK(f.position(J::kWristRight).x() > chest_x + 0.1);
    const double z_chest = f.position(J::kSpineMid).z();
    CHECK(std::abs(f.position(J::kWristLeft).z() - z_chest) < 0.25);
    const double gap = segmentDistance(f.position(J::kElbowLeft), f.position(J::kWristLeft), f.position(J::kElbowRight),
                                       f.position(J::kWristRight));
    CHECK(gap < 0.12);  // forearm capsules of ~4 cm radius nearly touch: collision-prone
    CHECK(gap > 0.01);
    const SkeletonFramed open = at(demoMotion("fold-arms"), 0.0);
    CHECK(open.left_hand == HandState::kOpen);
  }
}

TEST_CASE("demo motions: options are validated, unknown names are listed") {
  DemoMotionOptions options;
  options.rate = 0;
  CHECK_THROWS_WITH_AS(demoMotion("wave", options), doctest::Contains("rate out of range (got 0"), InvalidArgument);
  options = {};
  options.duration = -1;
  CHECK_THROWS_WITH_AS(demoMotion("wave", options), doctest::Contains("duration"), InvalidArgument);
  options = {};
  options.body_height = 3;
  CHECK_THROWS_WITH_AS(demoMotion("wave", options), doctest::Contains("body_height"), InvalidArgument);
  CHECK_THROWS_WITH_AS(demoMotion("dance"), doctest::Contains("fold-arms"), InvalidArgument);
  options = {};
  options.duration = 0;
  CHECK(demoMotion("squat", options).size() == 1);
}

TEST_CASE("demo motions: posing a body allocates nothing") {
  const HumanBodyModel model = HumanBodyModel::fromHeight(1.6);
  const BodyPose pose = demoMotionPose("fold-arms", 3.0);
  test::NoAllocationScope scope;
  const SkeletonFrame<double> f = bodyPoseFrame(model, pose);
  CHECK(scope.allocations() == 0);
  CHECK(f.position(J::kHead).allFinite());
}
