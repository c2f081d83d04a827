#pragma once

/// @file
/// Support-mode switching (seed 000, Section 4): double support, single support on the left or
/// the right foot, and walking, decided from the human skeleton frame by frame, with the
/// paper's filters so that noise and single-frame jumps of the sensor never switch the mode.
///
/// Inputs: ankle positions (m, canonical world frame W, z up; the ankles rather than the Kinect
/// foot points, which jitter more) and the locomotion loops of control/locomotion.hpp. Every
/// threshold is a height, a distance or a time (frame time, s), never a count of frames, so the
/// same motion gives the same modes at any frame rate (within one frame: tests/control resample
/// the shared walks to 30, 60, 100 and 120 Hz). With h0 = `lift_height`:
/// - double -> single (Section 4.2): one ankle higher than the other by h0 or more in every frame
///   for `lift_confirm_time` seconds; the robot then stands on the lower foot. The paper asks for
///   "three consecutive motion loops" so that a walk does not become one-leg stands, and leaves
///   the loop's duration open; as time, the window must outlast the swing of a walking step
///   (0.23-0.38 s on the shared walks), so 0.5 s.
/// - single -> double (Section 4.4): the free ankle less than h0 above the support ankle in
///   every frame for `landing_confirm_time` seconds (the paper's three loops against sensor
///   "leaping errors": 0.1 s, three frames of its 30 Hz Kinect).
/// - -> walking (Section 4.3): at the start of a locomotion loop, the human turned by ω0 or moved
///   by d0 with both feet since the last command, or stepped with both feet during the loop that
///   ended (control/locomotion.hpp). Walking -> double: a loop start where none holds. While
///   walking, the walking controller owns the legs and foot heights are not evaluated; every
///   loop start issues a walk command (zero displacement: step in place).
/// - lower-limb imitation is suspended in a double-support frame (the caller holds the legs):
///   - where one ankle is h0 or more above the other (Section 4.2's wobble filter: the paper
///     lets the legs move in double support only while the height difference is below h0, so a
///     lift that is not yet confirmed is not imitated on two feet; the text says "greater than
///     h0", which contradicts the reason it gives, the wobble from imitating the lifted leg
///     before single support is reached);
///   - where an ankle has moved d0 or more on the horizontal plane since the start of the
///     locomotion loop (Section 4.3: "if a small displacement d0 of either foot is detected, the
///     execution of lower-limb imitation in this motion loop will be stopped", a reaching-out
///     leg or the first steps of a walk).
/// A frame whose ankles are not usable gives no evidence: the confirmation windows keep their
/// start and the mode stays (reported by `SupportModeUpdate::no_evidence`).
///
/// `update` never allocates or throws. Every mode change is an event with its frame and time.

#include <cmath>
#include <cstdint>
#include <limits>

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
  /// How long (s) a lift must hold before the robot stands on one foot, > 0 (see the file doc:
  /// longer than a walking step's swing, 0.23-0.38 s on the shared walks).
  double lift_confirm_time = 0.5;
  /// How long (s) the free foot must stay down before the robot lands it, > 0 (the paper's three
  /// loops of a 30 Hz sensor).
  double landing_confirm_time = 0.1;
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
  /// Double support and a lift not yet confirmed or a foot moved d0: hold the legs in this frame
  /// (`lift_pending` or `foot_displaced`, see the file doc).
  bool lower_limbs_suspended = false;
  /// Double support, one ankle h0 or more above the other (Section 4.2's wobble filter).
  bool lift_pending = false;
  /// Double support, an ankle moved d0 or more since the locomotion loop started (Section 4.3).
  bool foot_displaced = false;
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
  void change(SupportMode to, std::int64_t index, double t, SupportModeUpdate& out) noexcept;

  // True when a condition holding at time t has held, in every frame with evidence, since the
  // time stored in `since` (set here when it starts holding; NaN: not holding) for `window` s.
  static bool heldFor(bool holds, double t, double window, double& since) noexcept;

  SupportModeOptions options_;
  LocomotionMapper<Scalar> locomotion_;
  SupportMode mode_ = SupportMode::kDouble;
  std::int64_t frame_index_ = 0;
  static constexpr double kNotHolding = std::numeric_limits<double>::quiet_NaN();
  double lifted_left_since_ = kNotHolding;
  double lifted_right_since_ = kNotHolding;
  double lowered_since_ = kNotHolding;
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
  lifted_left_since_ = lifted_right_since_ = lowered_since_ = kNotHolding;
  locomotion_.reset();
}

template <typename Scalar>
bool SupportModeSwitch<Scalar>::heldFor(bool holds, double t, double window, double& since) noexcept {
  if (!holds) {
    since = kNotHolding;
    return false;
  }
  if (std::isnan(since)) since = t;
  return t - since >= window - 1e-9;  // frame times are sums of periods: forgive their rounding
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
  out.mode = mode_;
  const bool usable = frame.usable(HumanJoint::kAnkleLeft) && frame.usable(HumanJoint::kAnkleRight) && std::isfinite(t);
  if (!usable) {
    out.no_evidence = true;
    return out;
  }
  if (out.changed) return out;  // the loop start already changed the mode
  const double rise = static_cast<double>(frame.position(HumanJoint::kAnkleLeft).z() -
                                          frame.position(HumanJoint::kAnkleRight).z());  // > 0: left higher
  const double h0 = options_.lift_height;
  if (mode_ == SupportMode::kDouble) {
    const bool left_up = heldFor(rise >= h0, t, options_.lift_confirm_time, lifted_left_since_);
    const bool right_up = heldFor(-rise >= h0, t, options_.lift_confirm_time, lifted_right_since_);
    if (left_up) {
      change(SupportMode::kSingleRight, index, t, out);
    } else if (right_up) {
      change(SupportMode::kSingleLeft, index, t, out);
    } else {
      out.lift_pending = std::abs(rise) >= h0;
      out.foot_displaced = loop.ankle_moved >= options_.locomotion.step_threshold;
      out.lower_limbs_suspended = out.lift_pending || out.foot_displaced;
    }
  } else if (mode_ == SupportMode::kSingleLeft || mode_ == SupportMode::kSingleRight) {
    const double free_rise = mode_ == SupportMode::kSingleRight ? rise : -rise;
    if (heldFor(free_rise < h0, t, options_.landing_confirm_time, lowered_since_)) {
      change(SupportMode::kDouble, index, t, out);
    }
  }
  out.mode = mode_;
  return out;
}

template <typename Scalar>
void SupportModeSwitch<Scalar>::change(SupportMode to, std::int64_t index, double t, SupportModeUpdate& out) noexcept {
  out.changed = true;
  out.event = SupportModeEvent{index, t, mode_, to};
  mode_ = to;
  lifted_left_since_ = lifted_right_since_ = lowered_since_ = kNotHolding;
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
  RETARGET_THROW_UNLESS(std::isfinite(lift_confirm_time) && lift_confirm_time > 0, InvalidArgument,
                        "SupportModeOptions::lift_confirm_time (got ", lift_confirm_time, ", expected > 0 s)");
  RETARGET_THROW_UNLESS(std::isfinite(landing_confirm_time) && landing_confirm_time > 0, InvalidArgument,
                        "SupportModeOptions::landing_confirm_time (got ", landing_confirm_time, ", expected > 0 s)");
  locomotion.validate();
}

#endif  // RETARGET_DEFINE_CONTROL

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_CONTROL class SupportModeSwitch<double>;
RETARGET_TEMPLATE_CONTROL class SupportModeSwitch<float>;
#endif

}  // namespace retarget
