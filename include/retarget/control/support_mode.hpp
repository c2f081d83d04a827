#pragma once

/// @file
/// Support-mode switching (seed 000, Section 4): double support, single support on the left or
/// the right foot, and walking, decided from the human skeleton frame by frame, with the
/// paper's filters so that noise and single-frame jumps of the sensor never switch the mode.
///
/// Inputs: ankle heights z (m, canonical world frame W, z up; the ankles rather than the Kinect
/// foot points, which jitter more) and the locomotion loops of control/locomotion.hpp.
/// Rules, with h0 = `lift_height`, N = `confirm_frames`:
/// - double -> single (Section 4.2): one ankle higher than the other by h0 or more in N
///   consecutive frames; the robot then stands on the lower foot.
/// - single -> double (Section 4.4): the free ankle less than h0 above the support ankle in N
///   consecutive frames.
/// - -> walking (Section 4.3): at the start of a locomotion loop, the human turned by ω0 or moved
///   by d0 with both feet since the last command, or stepped with both feet during the loop that
///   ended (control/locomotion.hpp). Walking -> double: a loop start where none holds. While
///   walking, the walking controller owns the legs and foot heights are not evaluated; every
///   loop start issues a walk command (zero displacement: step in place).
/// - lower-limb imitation is suspended (Section 4.3) in a double-support frame where an ankle
///   moved faster than `foot_speed_threshold` since the previous frame (a reaching-out leg, the
///   first step of a walk): the caller holds the legs in that frame.
/// A frame whose ankles are not usable gives no evidence: counters keep their values and the
/// mode stays (reported by `SupportModeUpdate::no_evidence`).
///
/// `update` never allocates or throws. Every mode change is an event with its frame and time.

#include <cmath>
#include <cstdint>

#include <retarget/control/locomotion.hpp>
#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Who carries the robot.
enum class SupportMode : std::uint8_t {
  kDouble = 0,       ///< both feet on the ground
  kSingleLeft = 1,   ///< standing on the left foot (right foot lifted)
  kSingleRight = 2,  ///< standing on the right foot (left foot lifted)
  kWalking = 3,      ///< the walking controller moves the legs
};

/// Stable lower-case name: "double", "single-left", "single-right", "walking".
RETARGET_DECL const char* supportModeName(SupportMode mode) noexcept;

/// Options of `SupportModeSwitch` (a validated aggregate).
struct SupportModeOptions {
  /// h0: ankle height difference that lifts a foot (m), > 0. The paper's 5 cm.
  double lift_height = 0.05;
  /// N: consecutive frames the height rule must hold to switch, >= 1. The paper's three.
  int confirm_frames = 3;
  /// Ankle speed (m/s) above which lower-limb imitation is suspended in double support, > 0.
  double foot_speed_threshold = 0.5;
  /// Locomotion loops and thresholds (d0, ω0).
  LocomotionOptions locomotion{};

  /// Throws InvalidArgument naming the field and its value.
  RETARGET_DECL void validate() const;
};

/// One mode change.
struct SupportModeEvent {
  std::int64_t frame = 0;
  double time = 0.0;
  SupportMode from = SupportMode::kDouble;
  SupportMode to = SupportMode::kDouble;
};

/// What one frame decided.
struct SupportModeUpdate {
  /// The mode for this frame.
  SupportMode mode = SupportMode::kDouble;
  /// The mode changed in this frame: `event` is valid.
  bool changed = false;
  SupportModeEvent event{};
  /// Double support and an ankle moved fast: hold the legs in this frame.
  bool lower_limbs_suspended = false;
  /// The ankles were not usable: nothing was evaluated.
  bool no_evidence = false;
  /// A loop start in walking mode: `command` is valid.
  bool has_walk_command = false;
  WalkCommand command{};
};

/// The support-mode state machine of one stream of skeleton frames.
template <typename Scalar = double>
class SupportModeSwitch {
 public:
  /// Throws InvalidArgument for invalid options.
  explicit SupportModeSwitch(const SupportModeOptions& options = {});

  const SupportModeOptions& options() const { return options_; }
  SupportMode mode() const { return mode_; }

  /// Back to double support with no history.
  void reset() noexcept;

  /// Feeds one frame (times increasing).
  SupportModeUpdate update(const SkeletonFrame<Scalar>& frame) noexcept;

 private:
  void remember(const SkeletonFrame<Scalar>& frame, double t) noexcept;

  void change(SupportMode to, std::int64_t index, double t, SupportModeUpdate& out) noexcept;

  SupportModeOptions options_;
  LocomotionMapper<Scalar> locomotion_;
  SupportMode mode_ = SupportMode::kDouble;
  std::int64_t frame_index_ = 0;
  int lifted_left_ = 0;
  int lifted_right_ = 0;
  int lowered_ = 0;
  bool have_previous_ = false;
  double previous_time_ = 0.0;
  Eigen::Vector3d previous_left_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d previous_right_ = Eigen::Vector3d::Zero();
};

template <typename Scalar>
SupportModeSwitch<Scalar>::SupportModeSwitch(const SupportModeOptions& options)
    : options_(options), locomotion_(options.locomotion) {
  options_.validate();
}

template <typename Scalar>
void SupportModeSwitch<Scalar>::reset() noexcept {
  mode_ = SupportMode::kDouble;
  frame_index_ = 0;
  lifted_left_ = lifted_right_ = lowered_ = 0;
  have_previous_ = false;
  locomotion_.reset();
}

template <typename Scalar>
SupportModeUpdate SupportModeSwitch<Scalar>::update(const SkeletonFrame<Scalar>& frame) noexcept {
  SupportModeUpdate out;
  const std::int64_t index = frame_index_++;
  const double t = static_cast<double>(frame.time);
  const LocomotionUpdate loop = locomotion_.update(frame);
  if (loop.loop_started && !loop.skipped) {
    const bool walk = loop.walk || loop.stepping;
    if (walk && mode_ != SupportMode::kWalking) change(SupportMode::kWalking, index, t, out);
    if (!walk && mode_ == SupportMode::kWalking) change(SupportMode::kDouble, index, t, out);
    if (mode_ == SupportMode::kWalking) {
      out.has_walk_command = true;
      out.command = loop.command;
      out.command.frame = index;
      out.command.time = t;
      out.command.duration = options_.locomotion.loop_period;
    }
  }
  const bool usable = frame.usable(HumanJoint::kAnkleLeft) && frame.usable(HumanJoint::kAnkleRight);
  if (!usable || out.changed) {  // no evidence, or the loop start already changed the mode
    if (usable) {
      remember(frame, t);
      out.mode = mode_;
      return out;
    }
    out.no_evidence = true;
    have_previous_ = false;
    out.mode = mode_;
    return out;
  }
  const Eigen::Vector3d left = frame.position(HumanJoint::kAnkleLeft).template cast<double>();
  const Eigen::Vector3d right = frame.position(HumanJoint::kAnkleRight).template cast<double>();
  const double rise = left.z() - right.z();  // > 0: the left ankle is the higher
  if (mode_ == SupportMode::kDouble) {
    lifted_left_ = rise >= options_.lift_height ? lifted_left_ + 1 : 0;
    lifted_right_ = -rise >= options_.lift_height ? lifted_right_ + 1 : 0;
    if (lifted_left_ >= options_.confirm_frames) {
      change(SupportMode::kSingleRight, index, t, out);
    } else if (lifted_right_ >= options_.confirm_frames) {
      change(SupportMode::kSingleLeft, index, t, out);
    } else if (have_previous_ && t > previous_time_) {
      const double dt = t - previous_time_;
      const double speed = std::max((left - previous_left_).norm(), (right - previous_right_).norm()) / dt;
      out.lower_limbs_suspended = speed > options_.foot_speed_threshold;
    }
  } else if (mode_ == SupportMode::kSingleLeft || mode_ == SupportMode::kSingleRight) {
    const double free_rise = mode_ == SupportMode::kSingleRight ? rise : -rise;
    lowered_ = free_rise < options_.lift_height ? lowered_ + 1 : 0;
    if (lowered_ >= options_.confirm_frames) change(SupportMode::kDouble, index, t, out);
  }
  remember(frame, t);
  out.mode = mode_;
  return out;
}

template <typename Scalar>
void SupportModeSwitch<Scalar>::remember(const SkeletonFrame<Scalar>& frame, double t) noexcept {
  previous_left_ = frame.position(HumanJoint::kAnkleLeft).template cast<double>();
  previous_right_ = frame.position(HumanJoint::kAnkleRight).template cast<double>();
  previous_time_ = t;
  have_previous_ = true;
}

template <typename Scalar>
void SupportModeSwitch<Scalar>::change(SupportMode to, std::int64_t index, double t, SupportModeUpdate& out) noexcept {
  out.changed = true;
  out.event = SupportModeEvent{index, t, mode_, to};
  mode_ = to;
  lifted_left_ = lifted_right_ = lowered_ = 0;
}

#if RETARGET_DEFINE_CONTROL

RETARGET_DECL const char* supportModeName(SupportMode mode) noexcept {
  switch (mode) {
    case SupportMode::kDouble: return "double";
    case SupportMode::kSingleLeft: return "single-left";
    case SupportMode::kSingleRight: return "single-right";
    case SupportMode::kWalking: return "walking";
  }
  return "unknown";
}

RETARGET_DECL void SupportModeOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(lift_height) && lift_height > 0, InvalidArgument,
                        "SupportModeOptions::lift_height (got ", lift_height, ", expected > 0 m)");
  RETARGET_THROW_UNLESS(confirm_frames >= 1, InvalidArgument, "SupportModeOptions::confirm_frames (got ",
                        confirm_frames, ", expected >= 1)");
  RETARGET_THROW_UNLESS(std::isfinite(foot_speed_threshold) && foot_speed_threshold > 0, InvalidArgument,
                        "SupportModeOptions::foot_speed_threshold (got ", foot_speed_threshold, ", expected > 0 m/s)");
  locomotion.validate();
}

#endif  // RETARGET_DEFINE_CONTROL

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_CONTROL class SupportModeSwitch<double>;
RETARGET_TEMPLATE_CONTROL class SupportModeSwitch<float>;
#endif

}  // namespace retarget
