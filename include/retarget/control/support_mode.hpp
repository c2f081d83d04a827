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
///   "three consecutive motion loops" so that a walk does not become one-leg stands. Its loops
///   vary in length (Section 3.1) and average 0.26 s (the caption of Fig. 10), so three of them
///   are about 0.78 s. The window here is set from what the filter is for instead: it must
///   outlast the swing of a walking step (0.23-0.38 s on the shared walks), so 0.5 s, a
///   departure from the paper's ~0.78 s that starts a one-leg stand sooner.
/// - single -> double (Section 4.4): the free ankle less than h0 above the support ankle in
///   every frame for `landing_confirm_time` seconds. The paper again asks for three motion loops,
///   against sensor "leaping errors": about 0.78 s at its 0.26 s average loop. The project
///   confirms a landing after 0.1 s (three frames of a 30 Hz Kinect), a documented departure:
///   a leap of one or two 30 Hz frames is already filtered at 0.1 s (tests/control), while waiting
///   three of the paper's loops would keep the robot on one foot, its swing foot in the air,
///   for about 0.78 s after every landing of the human's foot.
/// - -> walking (Section 4.3): at the start of a locomotion loop, the human turned by ω0 or moved
///   by d0 with both feet since the last command, or stepped with both feet during the loop that
///   ended (control/locomotion.hpp). Walking -> double: a loop start where none holds. While
///   walking, the walking controller owns the legs and foot heights are not evaluated; every
///   loop start issues a walk command (zero displacement: step in place).
/// - lower-limb imitation is suspended in a double-support frame (the caller holds the legs):
///   - where one ankle is h0 or more above the other (`lift_pending`). This reverses the wobble
///     filter of Section 4.2, a documented departure. The paper executes lower-limb motions in
///     double support "only when the height difference is greater than h0", so that the robot
///     does not wobble by imitating the lifting leg before the threshold is reached. Taken as
///     written, that holds the legs whenever both feet are down (the difference is then below
///     h0), so a squat or a knee bend on two feet would never be imitated. Here the legs follow
///     the human below h0 and are held from h0 on until the lift is confirmed or ends, so a lift
///     that single support has not yet confirmed is not imitated on two feet;
///   - where an ankle has moved d0 or more on the horizontal plane since the start of the
///     locomotion loop (Section 4.3: "if a small displacement d0 of either foot is detected, the
///     execution of lower-limb imitation in this motion loop will be stopped", a reaching-out
///     leg or the first steps of a walk).
/// - a step the robot refuses (`SupportModeUpdate::refused`), the project's own rule (seed
///   000's Section 4.2 confirms a lift by h0 and three loops only, with no speed limit): a lift
///   that ends in double support without the robot standing on one foot. Too short: down again
///   before `lift_confirm_time` (a fast step; lifts shorter than `landing_confirm_time`, the
///   guard against sensor leaps, are noise and not reported). Too fast: the lifted ankle moved,
///   relative to the other, faster than `max_lift_speed` leg lengths per second while the lift
///   was pending (a kick): the lift is then not confirmed however long it lasts, so the robot
///   stays on two feet until the foot is down again. A foot that leaves the ground faster than
///   NAO's swing leg can follow would have the robot stand on one foot in a pose it never took.
/// A frame whose ankles are not usable gives no evidence: the confirmation windows keep their
/// start and the mode stays (reported by `SupportModeUpdate::no_evidence`).
///
/// `update` never allocates or throws. Every mode change is an event with its frame and time.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <retarget/control/locomotion.hpp>
#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
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
  /// How long (s) the free foot must stay down before the robot lands it, > 0. The paper asks
  /// for three motion loops, about 0.78 s at its 0.26 s average loop (Fig. 10); 0.1 s, three
  /// frames of a 30 Hz sensor, is the project's choice so that no landing is held back (see the
  /// file doc).
  double landing_confirm_time = 0.1;
  /// Speed of a lifting ankle relative to the other (leg lengths hip -> knee -> ankle per
  /// second, > 0) above which the lift is refused (see the file doc; the project's rule, not the
  /// paper's, which sets no speed limit on a lift). 4.4: NAO's swing ankle with
  /// hip and knee pitch at the balance's 3 rad/s joint speed cap moves at most 3 * 0.203 m
  /// (hip to ankle) + 3 * 0.103 m (knee to ankle) = 0.92 m/s, 4.4 of its 0.203 m legs per second;
  /// for an adult's 0.87 m leg that is 3.9 m/s, about a walking swing's peak and well below a
  /// kick's ankle.
  double max_lift_speed = 4.4;
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

/// A lift of the human's foot the robot did not follow onto one foot (see the file doc).
struct StepRefusal {
  enum class Reason : std::uint8_t {
    kTooShort = 0,  ///< down again before the lift could be confirmed (a fast step)
    kTooFast = 1,   ///< the ankle moved faster than the robot's swing leg can (a kick)
  };
  Reason reason = Reason::kTooShort;
  bool left = true;          ///< the lifted foot
  double start_time = 0.0;   ///< s, first frame of the lift
  double end_time = 0.0;     ///< s, the frame the foot was down again
  double peak_speed = 0.0;   ///< leg lengths per second, the lifted ankle relative to the other
};

/// Stable lower-case name: "too-short", "too-fast".
RETARGET_DECL const char* stepRefusalReasonName(StepRefusal::Reason reason) noexcept;

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
  /// Double support, one ankle h0 or more above the other (Section 4.2's wobble filter,
  /// reversed: see the file doc).
  bool lift_pending = false;
  /// Double support, an ankle moved d0 or more since the locomotion loop started (Section 4.3).
  bool foot_displaced = false;
  /// The ankles were not usable: nothing was evaluated.
  bool no_evidence = false;
  /// A loop start in walking mode: `command` is valid.
  bool has_walk_command = false;
  WalkCommand command{};
  /// A lift ended in this frame without the robot standing on one foot: `refusal` is valid.
  bool refused = false;
  StepRefusal refusal{};
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

  // Follows the lift in progress in double support and reports its refusal (see the file doc).
  void trackLift(double rise, double speed, double t, SupportModeUpdate& out) noexcept;
  // Hip -> knee -> ankle length of one leg (m), 0 when a joint is not usable.
  static double legLength(const SkeletonFrame<Scalar>& frame, bool left) noexcept;

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
  // The lift in progress in double support (start NaN: none), and the last frame with ankles.
  double lift_start_ = kNotHolding;
  bool lift_left_ = true;
  bool lift_too_fast_ = false;
  double lift_peak_speed_ = 0.0;
  double previous_time_ = kNotHolding;
  Vector3<Scalar> previous_rise_ = Vector3<Scalar>::Zero();  // left ankle - right ankle (m)
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
  lift_start_ = previous_time_ = kNotHolding;
  lift_too_fast_ = false;
  lift_peak_speed_ = 0.0;
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
  const Vector3<Scalar> between = frame.position(HumanJoint::kAnkleLeft) - frame.position(HumanJoint::kAnkleRight);
  const double rise = static_cast<double>(between.z());  // > 0: left higher
  const double h0 = options_.lift_height;
  // The ankles' relative speed, in leg lengths per second of the lifting side.
  double speed = 0.0;
  if (std::isfinite(previous_time_) && t > previous_time_) {
    const double leg = legLength(frame, rise >= 0.0);
    if (leg > 0.0) speed = static_cast<double>((between - previous_rise_).norm()) / (t - previous_time_) / leg;
  }
  previous_time_ = t;
  previous_rise_ = between;
  if (mode_ == SupportMode::kDouble) {
    trackLift(rise, speed, t, out);
    const bool left_up = heldFor(rise >= h0, t, options_.lift_confirm_time, lifted_left_since_) && !lift_too_fast_;
    const bool right_up = heldFor(-rise >= h0, t, options_.lift_confirm_time, lifted_right_since_) && !lift_too_fast_;
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
  lift_start_ = kNotHolding;  // followed (single support) or taken over (walking): not refused
  lift_too_fast_ = false;
}

template <typename Scalar>
double SupportModeSwitch<Scalar>::legLength(const SkeletonFrame<Scalar>& frame, bool left) noexcept {
  using H = HumanJoint;
  const H hip = left ? H::kHipLeft : H::kHipRight, knee = left ? H::kKneeLeft : H::kKneeRight;
  const H ankle = left ? H::kAnkleLeft : H::kAnkleRight;
  if (!frame.usable(hip) || !frame.usable(knee)) return 0.0;
  return static_cast<double>((frame.position(knee) - frame.position(hip)).norm() +
                             (frame.position(ankle) - frame.position(knee)).norm());
}

template <typename Scalar>
void SupportModeSwitch<Scalar>::trackLift(double rise, double speed, double t, SupportModeUpdate& out) noexcept {
  const bool up = std::abs(rise) >= options_.lift_height;
  const bool left = rise > 0.0;
  if (!std::isnan(lift_start_) && (!up || left != lift_left_)) {
    // The lift ended in double support: refused, unless it was too short to be a step at all.
    if (lift_too_fast_ || t - lift_start_ >= options_.landing_confirm_time - 1e-9) {
      out.refused = true;
      out.refusal = StepRefusal{lift_too_fast_ ? StepRefusal::Reason::kTooFast : StepRefusal::Reason::kTooShort,
                                lift_left_, lift_start_, t, lift_peak_speed_};
    }
    lift_start_ = kNotHolding;
    lift_too_fast_ = false;
  }
  if (!up) return;
  if (std::isnan(lift_start_)) {
    lift_start_ = t;
    lift_left_ = left;
    lift_peak_speed_ = 0.0;
  }
  lift_peak_speed_ = std::max(lift_peak_speed_, speed);
  if (speed > options_.max_lift_speed) lift_too_fast_ = true;
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
  RETARGET_THROW_UNLESS(std::isfinite(max_lift_speed) && max_lift_speed > 0, InvalidArgument,
                        "SupportModeOptions::max_lift_speed (got ", max_lift_speed, ", expected > 0 leg lengths/s)");
  locomotion.validate();
}

RETARGET_DECL const char* stepRefusalReasonName(StepRefusal::Reason reason) noexcept {
  return reason == StepRefusal::Reason::kTooFast ? "too-fast" : "too-short";
}

#endif  // RETARGET_DEFINE_CONTROL

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_CONTROL class SupportModeSwitch<double>;
RETARGET_TEMPLATE_CONTROL class SupportModeSwitch<float>;
#endif

}  // namespace retarget
