#pragma once

/// @file
/// Locomotion mapping (seed 000, Section 3.5): the human's body rotation and displacement over
/// successive locomotion loops become walk commands for a walking controller the library does
/// not own (NAO's ALMotion, a footstep planner, ...).
///
/// Frames: skeleton positions in the canonical world frame W (m; x forward, y left, z up). The
/// human base frame H has its origin at SpineBase projected on the floor plane, z up and x the
/// forward direction of the hip line, x_H = z × (p_HipRight − p_HipLeft) (Section 3.5: the
/// lower-torso direction N_LT = V_up × V_17-21). The heading ψ is the angle of x_H about z.
///
/// Every `loop_period` seconds (frame time) a locomotion loop starts and is compared with the
/// pose the robot has been commanded to (the integral of the commands sent so far, starting at
/// the first frame):
/// - body rotation ω = ψ − ψ_commanded, wrapped to (−π, π]; positive is counterclockwise seen
///   from above (Eqs. 24–27: the paper's arccos magnitude with the sign from the previous
///   lower-torso direction; the signed angle atan2 gives the same value without the arccos's
///   loss of precision near 0 and π). Sent when |ω| >= ω0 (`turn_threshold`).
/// - displacement Δ of SpineBase on the horizontal plane, in the commanded base frame: Δx
///   forward, Δy left (Eqs. 28–33; the paper's text puts the base frame's y to the right, but
///   its formulas, Δy = |V_p-c| cos φ with |φ| measured from −V_17-21, give Δy > 0 for a step
///   to the left, so the paper's Δy is our Δy). Sent when |Δ| >= d0 and both ankles have moved
///   at least d0 on the horizontal plane since the last displacement sent (`step_threshold`; Section 3.5.2:
///   "if both d_l and d_r meet or exceed d0", so one foot reaching out does not walk the robot).
/// - stepping: both ankles moved at least d0 (in 3-D) away from where they were at the start of
///   the loop at some frame of it. The paper compares only the positions at the loop starts,
///   which misses steps in place depending on their phase; the largest excursion does not.
/// Comparing with the commanded pose rather than the previous loop means motion below the
/// thresholds is not lost: it adds up until it is sent, so the integral of the commands stays
/// within the thresholds of the human's path (tests/control).
///
/// A loop whose SpineBase, hips or ankles are not usable in its first frame is skipped (no
/// command, reported by `LocomotionUpdate::skipped`). `update` never allocates or throws.

#include <cmath>
#include <cstdint>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Options of `LocomotionMapper` (a validated aggregate).
struct LocomotionOptions {
  /// Duration of one locomotion loop (s), > 0. The paper leaves it open (a loop is "multiple
  /// consecutive motion loops"). Measured: a walking gait cycle takes 1.0-1.3 s on the shared
  /// walks and a foot stays planted for at most 0.71 s of it, so a 1 s loop sees both feet step
  /// (`stepping`) in every loop of a walk, while the robot follows within a second.
  double loop_period = 1.0;
  /// d0: displacement that walks the robot, foot excursion that counts as a step, and the foot
  /// displacement that suspends leg imitation (m), > 0. The paper gives no value, only that it
  /// must stay above the sensor's errors and a person's sway. Measured: on the shared Kinect
  /// recordings (people standing or seated) an ankle moves at most 3.6 cm on the floor within
  /// any second (the paper cites up to 38 mm of Kinect point error); a walking swing moves it
  /// 1.0-1.6 m (a stride). 0.10 m is above the first by 2.7 times and far below the second.
  double step_threshold = 0.10;
  /// ω0: body rotation that turns the robot (rad), > 0 and < π. The paper gives no value.
  /// Measured: on the shared Kinect recordings of people standing or seated the hip line's
  /// heading at the loop starts stays within 12.8 deg of the first loop's (seated trunk
  /// rotations included); 15 deg is above that.
  double turn_threshold = 15.0 * kPi<double> / 180.0;

  /// Throws InvalidArgument naming the field and its value.
  RETARGET_DECL void validate() const;
};

/// One walk command: move by (dx, dy) in the robot's base frame at the start of the command
/// (m; x forward, y left) and turn by dtheta about z (rad, counterclockwise positive), over
/// `duration` seconds (the loop period; velocity = displacement / duration).
struct WalkCommand {
  double dx = 0.0;
  double dy = 0.0;
  double dtheta = 0.0;
  double duration = 0.0;
  /// Frame index and time (s) of the loop start that issued it.
  std::int64_t frame = 0;
  double time = 0.0;
};

/// What one frame did to the locomotion state.
struct LocomotionUpdate {
  /// True in the first frame of a locomotion loop (the frame where decisions are taken).
  bool loop_started = false;
  /// The loop start could not be evaluated (SpineBase, a hip or an ankle not usable).
  bool skipped = false;
  /// The loop that just ended had both ankles step (see the file doc).
  bool stepping = false;
  /// The larger horizontal distance (m) either ankle has moved since the running loop started
  /// (0 in a loop's first frame, before the first loop, or when an ankle is not usable): the
  /// per-motion-loop displacement check of Section 4.3 (control/support_mode.hpp).
  double ankle_moved = 0.0;
  /// |ω| >= ω0 or a displacement was sent: `command` is valid.
  bool walk = false;
  WalkCommand command{};
};

/// Locomotion mapping of a stream of skeleton frames (one instance per stream).
template <typename Scalar = double>
class LocomotionMapper {
 public:
  /// Throws InvalidArgument for invalid options.
  explicit LocomotionMapper(const LocomotionOptions& options = {}) : options_(options) { options_.validate(); }

  const LocomotionOptions& options() const { return options_; }

  /// Forgets the stream: the next frame starts the first loop and sets the commanded pose.
  void reset() noexcept { *this = LocomotionMapper(options_, Unchecked{}); }

  /// Feeds one frame (times increasing; a time that does not increase does not start a loop).
  LocomotionUpdate update(const SkeletonFrame<Scalar>& frame) noexcept;

  /// The commanded pose: SpineBase position (m, W, horizontal) and heading (rad) the robot has
  /// been sent to, in the human's world frame.
  Eigen::Vector2d commandedPosition() const { return commanded_xy_; }
  double commandedHeading() const { return commanded_heading_; }

  /// Wraps an angle to (-pi, pi].
  static double wrapAngle(double a) noexcept;

 private:
  struct Unchecked {};
  LocomotionMapper(const LocomotionOptions& options, Unchecked) noexcept : options_(options) {}

  static Eigen::Vector3d position(const SkeletonFrame<Scalar>& frame, HumanJoint joint);

  LocomotionOptions options_;
  std::int64_t frame_index_ = 0;
  bool started_ = false;
  bool loop_open_ = false;
  double loop_start_time_ = 0.0;
  Eigen::Vector3d loop_ankle_left_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d loop_ankle_right_ = Eigen::Vector3d::Zero();
  double excursion_left_ = 0.0;
  double excursion_right_ = 0.0;
  Eigen::Vector2d commanded_xy_ = Eigen::Vector2d::Zero();
  double commanded_heading_ = 0.0;
  Eigen::Vector2d anchor_left_ = Eigen::Vector2d::Zero();
  Eigen::Vector2d anchor_right_ = Eigen::Vector2d::Zero();
};

template <typename Scalar>
LocomotionUpdate LocomotionMapper<Scalar>::update(const SkeletonFrame<Scalar>& frame) noexcept {
  LocomotionUpdate out;
  const std::int64_t index = frame_index_++;
  const double t = static_cast<double>(frame.time);
  const bool usable = frame.usable(HumanJoint::kSpineBase) && frame.usable(HumanJoint::kHipLeft) &&
                      frame.usable(HumanJoint::kHipRight) && frame.usable(HumanJoint::kAnkleLeft) &&
                      frame.usable(HumanJoint::kAnkleRight) && std::isfinite(t);
  // Largest ankle excursions of the running loop.
  if (loop_open_ && usable) {
    const Eigen::Vector3d moved_left = position(frame, HumanJoint::kAnkleLeft) - loop_ankle_left_;
    const Eigen::Vector3d moved_right = position(frame, HumanJoint::kAnkleRight) - loop_ankle_right_;
    excursion_left_ = std::max(excursion_left_, moved_left.norm());
    excursion_right_ = std::max(excursion_right_, moved_right.norm());
    out.ankle_moved = std::max(moved_left.head<2>().norm(), moved_right.head<2>().norm());
  }
  const bool due = !loop_open_ || (std::isfinite(t) && t - loop_start_time_ >= options_.loop_period - 1e-9);
  if (!due) return out;
  out.loop_started = true;
  out.ankle_moved = 0.0;  // this frame becomes the loop's reference (or the loop start is retried)
  if (!usable) {
    out.skipped = true;
    return out;  // try again next frame: the loop start moves to the first usable frame
  }
  const Eigen::Vector3d spine = position(frame, HumanJoint::kSpineBase);
  const Eigen::Vector3d ankle_left = position(frame, HumanJoint::kAnkleLeft);
  const Eigen::Vector3d ankle_right = position(frame, HumanJoint::kAnkleRight);
  const Eigen::Vector3d hip_line = position(frame, HumanJoint::kHipRight) - position(frame, HumanJoint::kHipLeft);
  const Eigen::Vector3d forward = Eigen::Vector3d::UnitZ().cross(hip_line);
  if (forward.head<2>().norm() < 1e-9) {
    out.skipped = true;  // hip line vertical: no heading
    return out;
  }
  const double heading = std::atan2(forward.y(), forward.x());
  if (!started_) {
    started_ = true;
    commanded_xy_ = spine.head<2>();
    commanded_heading_ = heading;
    anchor_left_ = ankle_left.head<2>();
    anchor_right_ = ankle_right.head<2>();
  } else {
    out.stepping = excursion_left_ >= options_.step_threshold && excursion_right_ >= options_.step_threshold;
    // Eqs. 24-27: signed rotation about z since the commanded heading.
    const double omega = wrapAngle(heading - commanded_heading_);
    // Eqs. 28-33: SpineBase displacement in the commanded base frame (x forward, y left).
    const Eigen::Vector2d moved = spine.head<2>() - commanded_xy_;
    const double c = std::cos(commanded_heading_), s = std::sin(commanded_heading_);
    const Eigen::Vector2d delta(c * moved.x() + s * moved.y(), -s * moved.x() + c * moved.y());
    const bool feet_moved = (ankle_left.head<2>() - anchor_left_).norm() >= options_.step_threshold &&
                            (ankle_right.head<2>() - anchor_right_).norm() >= options_.step_threshold;
    const bool turn = std::abs(omega) >= options_.turn_threshold;
    const bool translate = delta.norm() >= options_.step_threshold && feet_moved;
    if (turn || translate) {
      out.walk = true;
      out.command.frame = index;
      out.command.time = t;
      out.command.duration = options_.loop_period;
      if (translate) {
        out.command.dx = delta.x();
        out.command.dy = delta.y();
        commanded_xy_ = spine.head<2>();
        anchor_left_ = ankle_left.head<2>();
        anchor_right_ = ankle_right.head<2>();
      }
      if (turn) {
        out.command.dtheta = omega;
        commanded_heading_ = wrapAngle(commanded_heading_ + omega);
      }
    }
  }
  loop_open_ = true;
  loop_start_time_ = t;
  loop_ankle_left_ = ankle_left;
  loop_ankle_right_ = ankle_right;
  excursion_left_ = excursion_right_ = 0.0;
  return out;
}

template <typename Scalar>
double LocomotionMapper<Scalar>::wrapAngle(double a) noexcept {
  const double two_pi = 2.0 * kPi<double>;
  a = std::fmod(a, two_pi);
  if (a <= -kPi<double>) a += two_pi;
  if (a > kPi<double>) a -= two_pi;
  return a;
}

template <typename Scalar>
Eigen::Vector3d LocomotionMapper<Scalar>::position(const SkeletonFrame<Scalar>& frame, HumanJoint joint) {
  return frame.position(joint).template cast<double>();
}

#if RETARGET_DEFINE_CONTROL

RETARGET_DECL void LocomotionOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(loop_period) && loop_period > 0, InvalidArgument,
                        "LocomotionOptions::loop_period (got ", loop_period, ", expected > 0 s)");
  RETARGET_THROW_UNLESS(std::isfinite(step_threshold) && step_threshold > 0, InvalidArgument,
                        "LocomotionOptions::step_threshold (got ", step_threshold, ", expected > 0 m)");
  RETARGET_THROW_UNLESS(std::isfinite(turn_threshold) && turn_threshold > 0 && turn_threshold < kPi<double>,
                        InvalidArgument, "LocomotionOptions::turn_threshold (got ", turn_threshold,
                        ", expected in (0, pi) rad)");
}

#endif  // RETARGET_DEFINE_CONTROL

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_CONTROL class LocomotionMapper<double>;
RETARGET_TEMPLATE_CONTROL class LocomotionMapper<float>;
#endif

}  // namespace retarget
