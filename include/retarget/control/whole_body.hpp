#pragma once

/// @file
/// The whole-body imitation loop of seed 000 (Sections 3–5) as one pipeline object after any
/// mapper that gives the robot's legs: a skeleton frame in; joint angles, support mode, walk
/// command and statuses out, with the real-time rules of a mapper (mappers/mapper.hpp: no
/// allocation, no exception, finite output within limits). The paper's: GA-LVVJ on NAO
/// (`WholeBody<GaLvvjMapper<double>>` with `naoBalanceFeet()`); beyond it, the humanoid mapper on
/// any bound humanoid with the feet of its soles (`WholeBody<HumanoidMapper<double>>`,
/// control/humanoid_feet.hpp). This header names no mapper: the mapper is a template parameter.
///
/// What the mapper must have: the mapper shape (mappers/mapper.hpp) with `Input` =
/// `SkeletonFrame<double>` and double output, `wanted()`, and `options().inferred_joints` (the
/// support modes read the human's feet with the mapper's policy for inferred joints). Optional
/// trait, the torso tilt: a mapper with `mapWithTorsoTilt(frame, q_out, up_T)` and
/// `options().trunk_lean` set (GA-LVVJ) is read for the robot's torso as it stands (step 2).
///
/// Per frame:
/// 1. support mode and locomotion (control/support_mode.hpp): double, single left/right or
///    walking, the transitions as events, a walk command at each locomotion loop while walking;
/// 2. the mapper gives the target angles q_T. GA-LVVJ in the pipeline leans by default
///    (GaLvvjOptions::trunk_lean, `wholeBodyGaLvvjOptions()`): the robot's torso tilts as the
///    human's trunk and the ankles keep the soles parallel to the ground, so a target with both
///    feet flat is one the planted feet can take (without it the balance would have to find the
///    ankles, and a bow or a squat would leave NAO's trunk upright or tipped back); in a
///    double-support frame where the support modes suspend lower-limb imitation (a lift not yet confirmed: the
///    wobble filter of Section 4.2, reversed as control/support_mode.hpp explains; a foot moved
///    d0: Section 4.3) the legs keep their angles;
/// 3. balance (control/balance.hpp), in real time: the frame's time step (its `time` minus the
///    previous frame's) is divided into n = ceil(dt / control_period) equal periods, one QP
///    each, every per-period bound scaled to the period's length, towards the target as it was
///    at the period's end (linear between the previous frame's target and this one's). So the
///    robot moves exactly dt of motion per frame at any input rate, its joints within
///    their speed limits in the input's time: at 120 Hz one period of 8.3 ms per frame, at 30 Hz
///    two of 16.7 ms. A frame whose time does not advance (the first, a repeated or non-finite
///    time) runs no period and keeps the angles; time going backwards starts the clock again.
///    n is at most `max_periods_per_frame`: a longer gap in the input is covered by that many
///    full periods (the robot falls behind, bounded time per frame). The support mode is
///    requested from the balance phases (shift before single support, landing before double);
/// 4. while walking, the joint angles hold their values from the moment walking began (the
///    walking controller owns the legs; the paper keeps the arms still to walk steadily,
///    Section 3.5). A robot on one foot when the human starts walking first lands its free foot
///    (the balance's landing, legs held at their angles otherwise), so the walk starts, and ends,
///    with both feet planted.
///
/// The support mode the pipeline reports (`WholeBodyReport::mode` and its events) is the
/// robot's, read from the balance phase: double while both feet are planted (shifts included),
/// single from the moment the free foot may leave the ground until its landing is complete,
/// walking while the walking controller has the robot. It follows the human's mode (the support
/// mode switch's, `WholeBodyReport::modes`) after the shift or landing the balance needs. With
/// the balance off it is the human's mode.
///
/// The robot starts standing: the first frame's target with the legs at the model's neutral
/// configuration (straight, feet side by side), planted in double support.
///
/// Statuses: the mapper's (kDegenerateInput where `held()` flags a coordinate: a held leg the
/// balance moved is not held), plus kNotConverged in a frame where a balance step was not taken
/// (infeasible constraints, or a step that failed the non-linear check at every halving), and
/// kRateLimited in a frame that ends with the robot behind its target because a joint's target
/// was beyond its speed bound in the last control period (the human moved faster than the
/// robot's joints may: `BalanceOptions::max_joint_speed`, the model's velocity limits).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>

#include <retarget/control/balance.hpp>
#include <retarget/control/support_mode.hpp>
#include <retarget/core/compilation.hpp>
#include <retarget/core/status.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Options of `WholeBody` (a validated aggregate). The mapper's own options are the mapper's.
struct WholeBodyOptions {
  SupportModeOptions modes{};
  BalanceOptions balance{};
  /// Off: the balance QP is skipped and the target angles go out as they are (for comparison).
  bool balance_enabled = true;
  /// Control periods at most per frame, >= 1 (a frame whose time step is longer than this many
  /// control periods gets this many full ones: the rest of the gap is not stepped).
  int max_periods_per_frame = 10;

  RETARGET_DECL void validate() const;
};

/// Everything one frame produced besides the joint angles.
struct WholeBodyReport {
  /// The robot's support mode in this frame (see the file doc).
  SupportMode mode = SupportMode::kDouble;
  /// The robot's mode changed in this frame: `event` is valid (frame counted from the first
  /// `map` call after construction or `reset`).
  bool changed = false;
  SupportModeEvent event{};
  /// The human's support mode as the support-mode switch decided it (what the robot is asked
  /// to do), its transition, walk command and lower-limb suspension (see SupportModeUpdate).
  SupportModeUpdate modes{};
  /// The last control period's balance report (phase, CoM margin, correction): of an earlier
  /// frame when none ran in this one.
  BalanceReport balance{};
  /// Control periods run in this frame (0 while walking, with balance off, and in a frame whose
  /// time did not advance).
  int control_periods = 0;
  /// Their length (s; 0 when none ran).
  double control_period = 0.0;
  /// Some period of the frame had a CoM row active.
  bool com_limited = false;
  /// Some period of the frame did not take its step.
  bool balance_held = false;
  /// The frame's last period was cut by the joint speed bounds: the robot ends the frame behind
  /// the target because the human moved faster than its joints may (reported as kRateLimited).
  bool rate_limited = false;
};

namespace internal {

/// The torso-tilt trait (see the file doc): true when `Mapper` has `mapWithTorsoTilt`.
template <typename Mapper, typename = void>
struct HasTorsoTilt : std::false_type {};
template <typename Mapper>
struct HasTorsoTilt<Mapper, std::void_t<decltype(std::declval<Mapper&>().mapWithTorsoTilt(
                                std::declval<const SkeletonFrame<double>&>(),
                                std::declval<Eigen::Ref<Eigen::VectorXd>>(), std::declval<const Eigen::Vector3d&>()))>>
    : std::true_type {};

}  // namespace internal

/// Skeleton frames to whole-body robot joint angles through `Mapper` (see the file doc). It has
/// the mapper shape of mappers/mapper.hpp, so `mapMotion` and the contract suite take it. One per
/// stream. Keeps a reference to the model, which must outlive it (and the mapper's own).
template <typename Mapper>
class WholeBody {
 public:
  using Scalar = double;
  using Input = SkeletonFrame<double>;
  /// The robot data the stage takes besides the mapper: the feet it stands on.
  using Map = BalanceFeet;
  using Options = WholeBodyOptions;

  /// Takes `mapper` (built on `model`) and the feet to stand on. Throws InvalidArgument for
  /// invalid options or feet the model does not have.
  WholeBody(const RobotModel<double>& model, Mapper mapper, BalanceFeet feet, WholeBodyOptions options = {});
  WholeBody(const RobotModel<double>&&, Mapper, BalanceFeet, WholeBodyOptions = {}) = delete;

  const RobotModel<double>& model() const noexcept { return *model_; }
  const WholeBodyOptions& options() const noexcept { return options_; }
  /// The mapper that gives the target angles.
  const Mapper& mapper() const noexcept { return mapper_; }
  /// The report of the last `map` call.
  const WholeBodyReport& report() const noexcept { return report_; }
  /// Per coordinate, last frame: clamped = the mapper clamped it and the output is on that limit;
  /// held = the mapper held it and it kept its value (the balance does not move held coordinates of
  /// the arms and head; a held leg coordinate keeps its held value as target, but the balance
  /// moves it where the planted feet or the CoM need it, and then it is not held: with held legs
  /// frozen, a depth camera that loses the legs left no step that keeps the feet planted, and
  /// the robot froze whole).
  const JointFlags& clamped() const noexcept { return clamped_; }
  const JointFlags& held() const noexcept { return held_; }
  /// The mapper's wanted values of the last frame (before its limits; see mappers/mapper.hpp).
  const Eigen::VectorXd& wanted() const noexcept { return mapper_.wanted(); }
  /// The balance stage (its phase and last QP).
  const BalanceController& balance() const noexcept { return balance_; }
  /// The coordinates that belong to the legs.
  const JointFlags& legs() const noexcept { return legs_; }
  /// The angles the mapper asked for in the last frame (rad, q order), before balance.
  const Eigen::VectorXd& target() const noexcept { return target_; }

  /// Forgets the stream: the next frame starts standing again.
  void reset() noexcept;

  /// One frame: see the file doc. `q_out` (size nq) receives the angles (rad).
  [[nodiscard]] Status map(const SkeletonFrame<double>& frame, Eigen::Ref<Eigen::VectorXd> q_out) noexcept;

 private:
  // The mapper's target, read for the robot's torso as it stands where the mapper can (the
  // torso-tilt trait) and its options ask for it.
  Status mapTarget(const SkeletonFrame<double>& frame) noexcept {
    if constexpr (internal::HasTorsoTilt<Mapper>::value) {
      if (started_ && mapper_.options().trunk_lean) return mapper_.mapWithTorsoTilt(frame, target_, robotUp());
    }
    return mapper_.map(frame, target_);
  }

  const RobotModel<double>* model_;
  WholeBodyOptions options_;
  Mapper mapper_;
  SupportModeSwitch<double> modes_;
  BalanceController balance_;
  Eigen::VectorXd neutral_;
  Eigen::VectorXd q_;
  Eigen::VectorXd target_;
  Eigen::VectorXd target_before_;  // the target of the previous frame (at previous_time_)
  Eigen::VectorXd period_target_;  // the target at a control period's end
  BalanceReport last_balance_{};
  JointFlags legs_;
  JointFlags frozen_;           // this frame: held by the mapper and not a leg
  JointFlags held_;             // held by the mapper and unchanged
  Eigen::VectorXd q_previous_;  // the output of the previous frame
  JointFlags clamped_;
  RobotData<double> fk_;  // the robot's own stance (robotUp)
  WholeBodyReport report_{};
  bool started_ = false;
  bool walking_ = false;
  double previous_time_ = 0.0;
  std::int64_t frame_index_ = 0;
  SupportMode mode_ = SupportMode::kDouble;  // the robot's, last frame

  // The ground's normal in the root frame as the robot stands now (q_): the z of the sole it
  // stands on (both soles are level in double support), by forward kinematics.
  Eigen::Vector3d robotUp() noexcept {
    forwardKinematics(*model_, fk_, q_);
    const int side = balance_.supportMode() == SupportMode::kSingleRight ? 1 : 0;
    const FootSupport& foot = side == 0 ? balance_.feet().left : balance_.feet().right;
    const int sole = sole_index_[static_cast<std::size_t>(side)];
    return fk_.X_WL[static_cast<std::size_t>(sole)].linear() * foot.X_LS.linear().col(2);
  }
  std::array<int, 2> sole_index_{};
};

template <typename Mapper>
WholeBody<Mapper>::WholeBody(const RobotModel<double>& model, Mapper mapper, BalanceFeet feet, WholeBodyOptions options)
    : model_(&model),
      options_((options.validate(), options)),
      mapper_(std::move(mapper)),
      modes_(options_.modes),
      balance_(model, std::move(feet), options_.balance),
      neutral_(model.neutralConfiguration()),
      q_(model.neutralConfiguration()),
      target_(model.nq()),
      target_before_(model.nq()),
      period_target_(model.nq()),
      legs_(JointFlags::Constant(model.nq(), false)),
      frozen_(JointFlags::Constant(model.nq(), false)),
      held_(JointFlags::Constant(model.nq(), false)),
      q_previous_(model.neutralConfiguration()),
      clamped_(JointFlags::Constant(model.nq(), false)),
      fk_(model),
      sole_index_{model.linkIndex(balance_.feet().left.link), model.linkIndex(balance_.feet().right.link)} {
  // The legs: every coordinate on the chain from the root to a sole.
  for (const int sole : sole_index_) {
    for (int k : model.links()[static_cast<std::size_t>(sole)].support) {
      const int q = model.joints()[static_cast<std::size_t>(k)].q_index;
      if (q >= 0) legs_[q] = true;
    }
  }
}

template <typename Mapper>
void WholeBody<Mapper>::reset() noexcept {
  mapper_.reset();
  modes_.reset();
  started_ = false;
  walking_ = false;
  frame_index_ = 0;
  mode_ = SupportMode::kDouble;
  report_ = WholeBodyReport{};
  last_balance_ = BalanceReport{};
  q_ = neutral_;  // same sizes: no allocation
  held_.setConstant(false);
}

template <typename Mapper>
Status WholeBody<Mapper>::map(const SkeletonFrame<double>& frame, Eigen::Ref<Eigen::VectorXd> q_out) noexcept {
  report_ = WholeBodyReport{};
  report_.balance = last_balance_;
  if (q_out.size() != model_->nq()) return Status(StatusCode::kInvalidInput);
  q_previous_ = q_;  // same size: no allocation
  clamped_.setConstant(false);
  SkeletonFrame<double> seen = frame;  // fixed size: no allocation
  applyInferredPolicy(seen, mapper_.options().inferred_joints);
  report_.modes = modes_.update(seen);
  const SupportMode asked = report_.modes.mode;
  // A robot still on one foot lands it before the walk starts (the walk needs both feet down).
  const bool landing_first = asked == SupportMode::kWalking && !walking_ && options_.balance_enabled &&
                             balance_.supportMode() != SupportMode::kDouble;
  // With the trunk lean the legs lean the torso as the human's trunk, but the balance takes them
  // there at its own pace (or holds them), so the arms and head are read for the torso's tilt
  // as the robot stands now.
  Status status = mapTarget(frame);
  const double t = static_cast<double>(frame.time);
  if (!started_) {
    // Standing: the first target with straight legs, both feet planted.
    for (int i = 0; i < model_->nq(); ++i) q_[i] = legs_[i] ? neutral_[i] : target_[i];
    balance_.reset(q_);
    last_balance_ = report_.balance = BalanceReport{};
    previous_time_ = t;
    target_before_ = target_;
    started_ = true;
  }
  // The input's time step (s): none on the first frame, a repeated or a non-finite time; time
  // going backwards (a looped recording) starts the clock again from this frame.
  double dt = std::isfinite(t) && std::isfinite(previous_time_) ? t - previous_time_ : 0.0;
  if (dt < 0.0) {
    dt = 0.0;
    target_before_ = target_;
  }
  if (asked == SupportMode::kWalking && !landing_first) {
    walking_ = true;  // hold everything while the walking controller has the robot
  } else {
    if (walking_) {
      balance_.replant(q_);
      walking_ = false;
    }
    if (report_.modes.lower_limbs_suspended || landing_first) {
      for (int i = 0; i < model_->nq(); ++i) {
        if (legs_[i]) target_[i] = q_[i];
      }
    }
    if (!options_.balance_enabled) {
      q_ = target_;
    } else {
      balance_.request(landing_first ? SupportMode::kDouble : asked);
      for (int i = 0; i < model_->nq(); ++i) frozen_[i] = mapper_.held()[i] && !legs_[i];
      // n equal periods of at most control_period over dt (a little slack so that 1/30 s is two
      // periods of 20 ms' budget, not three); a longer gap than the cap gets full periods.
      const double full = options_.balance.control_period;
      const double wanted = std::ceil(dt / full - 1e-9);
      const int periods = wanted > options_.max_periods_per_frame ? options_.max_periods_per_frame
                                                                  : static_cast<int>(wanted);
      const double period = periods == options_.max_periods_per_frame && dt > periods * full ? full
                            : periods > 0                                                   ? dt / periods
                                                                                            : 0.0;
      const bool legs_held = report_.modes.lower_limbs_suspended || landing_first;
      for (int p = 0; p < periods; ++p) {
        // The target as it was at this period's end: linear in time over the frame (the legs a
        // suspension holds stay where they are).
        const double alpha = static_cast<double>(p + 1) / periods;
        for (int i = 0; i < model_->nq(); ++i) {
          period_target_[i] = legs_held && legs_[i] ? target_[i] : target_before_[i] + alpha * (target_[i] - target_before_[i]);
        }
        report_.balance = balance_.step(period_target_, q_, &frozen_, period);
        report_.com_limited |= report_.balance.com_limited;
        report_.balance_held |= report_.balance.held;
      }
      if (periods > 0) last_balance_ = report_.balance;
      report_.control_periods = periods;
      report_.control_period = periods > 0 ? period : 0.0;
      report_.rate_limited = report_.balance.rate_limited;
      if (report_.balance_held) status |= StatusCode::kNotConverged;
      if (report_.rate_limited) status |= StatusCode::kRateLimited;
    }
  }
  // The robot's mode: walking, or what its feet do (the balance phase), or the human's without
  // balance.
  const SupportMode robot =
      walking_ ? SupportMode::kWalking : options_.balance_enabled ? balance_.supportMode() : asked;
  report_.mode = robot;
  if (robot != mode_) {
    report_.changed = true;
    report_.event = SupportModeEvent{frame_index_, t, mode_, robot};
    mode_ = robot;
  }
  ++frame_index_;
  if (std::isfinite(t)) previous_time_ = t;
  target_before_ = target_;  // same size: no allocation
  clampToLimits(*model_, q_);
  q_out = q_;
  bool any_held = false;
  for (int i = 0; i < model_->nq(); ++i) {
    held_[i] = mapper_.held()[i] && (!legs_[i] || q_[i] == q_previous_[i]);
    any_held |= held_[i];
  }
  // A clamp is reported where the output sits on the limit the mapper clamped to.
  bool any_clamped = false;
  for (int i = 0; i < model_->nq(); ++i) {
    clamped_[i] = mapper_.clamped()[i] && (q_[i] == model_->lowerLimits()[i] || q_[i] == model_->upperLimits()[i]);
    any_clamped |= clamped_[i];
  }
  Status out = any_clamped ? Status(StatusCode::kClamped) : Status();
  if (any_held) out |= StatusCode::kDegenerateInput;  // what held (a leg the balance moved did not)
  for (const StatusCode code : {StatusCode::kCollisionAvoided, StatusCode::kNotConverged, StatusCode::kRateLimited,
                                StatusCode::kInvalidInput, StatusCode::kDiscontinuity}) {
    if (status.has(code)) out |= code;
  }
  return out;
}

#if RETARGET_DEFINE_CONTROL

RETARGET_DECL void WholeBodyOptions::validate() const {
  modes.validate();
  balance.validate();
  RETARGET_THROW_UNLESS(max_periods_per_frame >= 1, InvalidArgument,
                        "WholeBodyOptions::max_periods_per_frame (got ", max_periods_per_frame, ", expected >= 1)");
}

#endif  // RETARGET_DEFINE_CONTROL

}  // namespace retarget
