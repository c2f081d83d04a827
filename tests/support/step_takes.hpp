#pragma once

// Generated takes of steps a robot should refuse (issue 32: the shared recordings have none):
// a fast step and a kick, posed on the demo body model (human/demo_motions.hpp) with the left
// foot planted, as skeleton motions at any rate.
// - "fast step": the right knee comes up (hip 40 deg, knee 60 deg: the ankle 13 cm up) and down
//   again in 0.45 s, smoothly (the ankle about 3 leg lengths per second at most);
// - "kick": the right knee comes up in 0.4 s (hip 60, knee 80 deg), the leg snaps straight
//   forward in 0.1 s (hip 80, knee 0 deg: the ankle over 10 leg lengths per second; the wind-up
//   about 3), holds 0.2 s, and comes back down in 0.5 s.
// Both start after 0.5 s of standing and end standing.

#include <cmath>
#include <string>

#include <retarget/human/demo_motions.hpp>

namespace retarget::test {

/// The pose of take `name` ("fast step" or "kick") at time t (s).
inline BodyPose stepTakePose(const std::string& name, double t) {
  using internal::demo::smoothStep;
  const double deg = 3.14159265358979323846 / 180.0;
  BodyPose pose = relaxedRestPose();
  pose.plant_left_foot = true;
  pose.plant_right_foot = false;
  double hip = 0, knee = 0;
  if (name == "fast step") {
    const double r = smoothStep((t - 0.5) / 0.2) * (1 - smoothStep((t - 0.75) / 0.2));
    hip = 40 * r;
    knee = 60 * r;
  } else {  // kick
    const double up = smoothStep((t - 0.5) / 0.4);
    const double snap = smoothStep((t - 0.9) / 0.1);
    const double down = smoothStep((t - 1.2) / 0.5);
    hip = (60 * up + 20 * snap) * (1 - down);
    knee = 80 * up * (1 - snap) * (1 - down);
  }
  pose.right_leg.hip_flexion = hip * deg;
  pose.right_leg.knee_flexion = knee * deg;
  return pose;
}

/// Take `name` at `rate` Hz for `duration` s (frames at k / rate), every joint tracked.
inline SkeletonMotion<double> stepTake(const std::string& name, double rate, double duration = 2.5) {
  const HumanBodyModel body = HumanBodyModel::fromHeight(1.75);
  SkeletonMotion<double> motion;
  motion.format = "generated/" + name;
  const int frames = static_cast<int>(std::floor(duration * rate)) + 1;
  for (int k = 0; k < frames; ++k) {
    const double t = k / rate;
    SkeletonFrame<double> frame = bodyPoseFrame(body, stepTakePose(name, t));
    frame.time = t;
    motion.frames.push_back(frame);
  }
  return motion;
}

}  // namespace retarget::test
