#pragma once

/// @file
/// Quasi-static balance (seed 000, Section 5): a stage after the mapper that keeps the robot's
/// centre of mass (CoM) over its support polygon and its feet where they stand, by solving every
/// control period the QP of control/balance_qp.hpp on the joint step and integrating it.
///
/// Frames: the support sole frame S is the world (the paper: "the link frame of the support foot
/// can be set as the world frame"): origin on the sole plane, z up out of the sole, x forward.
/// Every quantity below is in S (m, rad).
///
/// One control period (`step`), with q the current joint angles and q_T the mapper's target:
/// - objective 1/2 |dq - dq_T|^2. Eq. 34 minimises 1/2 |theta_dot - theta_dot_T|^2 with
///   theta_dot_T the target's own velocity: dq_T = q_T - q_T,previous (the target's change over
///   the period; `BalanceOptions::Tracking::kVelocity`). The default tracks the target's
///   position instead, dq_T = q_T - q (`kPosition`): with the paper's form every step the CoM
///   rows or the speed bounds cut short is lost for good, so the robot drifts from the pose it
///   imitates and stays away after the constraint is gone; tracking the position returns to
///   it. Measured on the demos and the shared Kinect recordings (tests/control, docs/methods/
///   whole_body.md): the velocity form ends farther from the target and scores lower WBF/LLF;
/// - equalities A dq = B: in double support the other sole keeps its planted pose relative to
///   the support sole (6 rows, B = minus the current error, so that drift is corrected); while
///   landing a swing foot (single -> double, Section 4.4) its sole is turned parallel to the
///   ground at `landing_turn_speed` (2 rows), then, once parallel within `landing_tilt`, lowered
///   at `landing_speed` (1 row; until then it keeps its height: Section 4.4's order), the sole
///   moving freely on the horizontal plane; in single support none;
/// - inequalities C dq <= D (Eq. 36, its rows from Eqs. 37–41): the CoM projection r_G + J_G dq
///   stays inside the support polygon shrunk by d_s = `safety_margin` (the support sole's rectangle
///   in single support and while shifting onto one foot, the convex hull of both soles in double
///   support), with J_G the CoM Jacobian of kinematics/forward_kinematics.hpp expressed in S. The
///   paper writes the rows as one-sided limits on J_Gx dq, J_Gy dq inside a band of width d_s at
///   each edge; written as a bound on the linearised CoM position, the same rows keep the CoM
///   inside the shrunk polygon, which is what a margin is for. When the CoM is outside (the start
///   of a shift onto one foot), the rows ask it to move inwards by at most `recovery_step` per
///   period;
/// - bounds: joint position limits, and speed limits (the model's velocity limits times the
///   period, capped by `max_joint_speed`).
/// The step is then checked on the true (non-linear) kinematics: the CoM must be inside the
/// shrunk polygon (or, when it started outside, no farther out) and the feet where the
/// equalities keep them; otherwise the step is halved (up to `max_halvings` times) and, failing
/// that, not taken (the robot holds its pose: BalanceReport::held).
///
/// Phases (BalancePhase) follow the support mode asked for (control/support_mode.hpp): double ->
/// single goes through a shift of the CoM onto the support foot with both feet fixed
/// (Section 4.2); single -> double through a landing of the swing foot (Section 4.4). The planted
/// pose of the feet is taken from the configuration when double support begins (`reset`, or the
/// end of a landing, or `replant` after walking).
///
/// `step` never allocates or throws.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Geometry>

#include <retarget/control/balance_qp.hpp>
#include <retarget/control/support_mode.hpp>
#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/geometry/rigid_inverse.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// The support area of one foot: its sole frame S (origin on the sole plane, z up out of the
/// sole, x forward), fixed on a link of the model, and a rectangle in that frame (m) the CoM may
/// project into.
struct FootSupport {
  std::string link;
  double x_min = 0.0;
  double x_max = 0.0;
  double y_min = 0.0;
  double y_max = 0.0;
  /// The sole frame S in the link's frame L (m): the identity when the link is a sole frame
  /// itself (NAO's l_sole / r_sole); a foot link's offset to its sole otherwise
  /// (control/humanoid_feet.hpp finds it for any bound humanoid).
  Isometry3<double> X_LS = Isometry3<double>::Identity();
};

/// Both feet of a biped.
struct BalanceFeet {
  FootSupport left;
  FootSupport right;
};

/// NAO's feet: the sole frames l_sole / r_sole and the rectangle of the four force-sensitive
/// resistors under each sole (the model's LFsr / RFsr frames: x -0.030 ... 0.070 m, y from
/// -0.023 to 0.030 m on the left foot, mirrored on the right): smaller than the sole itself, so
/// a conservative support polygon.
RETARGET_DECL BalanceFeet naoBalanceFeet();

/// Options of `BalanceController` (a validated aggregate).
struct BalanceOptions {
  /// Control period (s): one QP per period, > 0. The paper's: "On the NAO robot, this QP problem
  /// is solved every 20 ms" (Section 5). The longest period: `step` takes shorter ones (the
  /// whole-body pipeline divides each input frame's time step into periods of at most this).
  double control_period = 0.02;
  /// d_s: how far inside the support polygon the CoM projection is kept (m). >= 0. The paper
  /// gives no value. 1 cm, measured: the quasi-static error of the written motion (the ZMP's
  /// distance from the CoM projection, (z_G / g) |a_G|, finite differences of the output) has
  /// its median at 1.0-3.7 mm on the demos and the shared BVH takes and at 2-21 mm on the
  /// shared Kinect recordings, whose targets jitter (docs/methods/whole_body.md, "Constants").
  double safety_margin = 0.01;
  /// Extra margin in the QP rows for the linearisation (m), so that the checked step is rarely
  /// halved. >= 0.
  double linearisation_margin = 0.001;
  /// How far the CoM is asked to move inwards per full control period when it is outside (m;
  /// a shorter period asks for its share). > 0. 2 mm per
  /// 20 ms, 0.1 m/s: NAO's CoM crosses the 5 cm from between its feet onto one sole in about half
  /// a second, about the time a person takes to shift weight before a lift (measured on the
  /// one-leg-stand demo: the robot stands on one foot 0.53 s and 0.33 s after the human's lift is
  /// confirmed).
  double recovery_step = 0.002;
  /// Cap on every joint's speed (rad/s), on top of the model's velocity limits. > 0.
  double max_joint_speed = 3.0;
  /// Speed at which a landing swing foot is lowered (m/s). > 0. A foot lifted the paper's
  /// h0 = 5 cm comes down in a second at most (measured on the one-leg-stand demo: the robot
  /// is back on both feet 0.5 s after the human), so that it touches down without an impact a
  /// quasi-static balance does not model.
  double landing_speed = 0.05;
  /// Speed at which a landing swing foot is turned parallel to the ground (rad/s). > 0. A
  /// 10 deg tilt goes in 0.17 s, a sixth of NAO's ankle velocity limit (6.4 rad/s, URDF).
  double landing_turn_speed = 1.0;
  /// A landing is complete when the swing sole is this close to the ground (m) ... > 0.
  double landing_height = 0.001;
  /// ... and this close to parallel with it (rad). > 0.
  double landing_tilt = 0.01;
  /// Halvings of a step that fails the non-linear check before it is dropped. >= 0.
  int max_halvings = 6;
  /// What the objective tracks (see the file doc): the target's position (default) or, as
  /// Eq. 34 writes it, its velocity.
  enum class Tracking : std::uint8_t { kPosition = 0, kVelocity = 1 };
  Tracking tracking = Tracking::kPosition;

  /// Throws InvalidArgument naming the field and its value.
  RETARGET_DECL void validate() const;
};

/// Where the balance controller is.
enum class BalancePhase : std::uint8_t {
  kDouble = 0,        ///< both feet planted; the left sole is the frame S
  kShiftLeft = 1,     ///< both feet planted, CoM moving over the left foot
  kShiftRight = 2,    ///< ... over the right foot
  kSingleLeft = 3,    ///< standing on the left foot, the right one free
  kSingleRight = 4,   ///< standing on the right foot
  kLandingLeft = 5,   ///< standing on the left foot, lowering the right one
  kLandingRight = 6,  ///< standing on the right foot, lowering the left one
};

/// Stable lower-case name of a phase ("double", "shift-left", ...).
RETARGET_DECL const char* balancePhaseName(BalancePhase phase) noexcept;

/// What one control period did.
struct BalanceReport {
  BalancePhase phase = BalancePhase::kDouble;
  /// The QP had no solution (constraints incompatible): the step was not taken.
  bool infeasible = false;
  /// The step failed the non-linear check at every halving and was not taken.
  bool held = false;
  /// Halvings applied to the step.
  int halvings = 0;
  /// Some CoM row of the QP was active: balance changed the target step.
  bool com_limited = false;
  /// Signed distance of the CoM projection inside the shrunk polygon after the step (m,
  /// negative outside).
  double com_margin = 0.0;
  /// |dq - (q_T - q)| (rad): how far the step fell short of the target.
  double correction = 0.0;
  /// Some joint stepped at its speed bound towards a target beyond it: the robot moves as fast as
  /// it may and is still behind the target after this period.
  bool rate_limited = false;
};

namespace internal {

/// `retarget::BalanceController` (below) is this template for `void`: a template only so that its member
/// functions are compiled where a program uses them, not in every translation unit that
/// includes this header (header-only mode).
template <typename Lazy>
class BalanceController {
 public:
  /// Largest number of polygon edges (the hull of two rectangles).
  static constexpr int kMaxEdges = 8;

  /// Throws InvalidArgument for invalid options, unknown foot links, empty rectangles, or a
  /// model without mass.
  BalanceController(const RobotModel<double>& model, BalanceFeet feet, BalanceOptions options = {});
  BalanceController(const RobotModel<double>&&, BalanceFeet, BalanceOptions = {}) = delete;

  const BalanceOptions& options() const noexcept { return options_; }
  const BalanceFeet& feet() const noexcept { return feet_; }
  /// The QP of the last `step` (diagnostics and benchmarks).
  const BalanceQp& lastProgram() const noexcept { return qp_; }
  BalancePhase phase() const noexcept { return phase_; }
  /// The support the feet give in the current phase: kDouble while both are planted (a shift
  /// included), kSingleLeft / kSingleRight (standing on that foot) from the end of a shift to the
  /// end of the landing. Never kWalking.
  SupportMode supportMode() const noexcept;

  /// Starts in double support at configuration `q` (its feet pose becomes the planted one).
  void reset(const Eigen::Ref<const Eigen::VectorXd>& q) noexcept;

  /// Plants both feet where configuration `q` has them and switches to double support (after a
  /// walk, or when the caller knows the feet are on the ground).
  void replant(const Eigen::Ref<const Eigen::VectorXd>& q) noexcept;

  /// Asks for a support mode (the human's, from SupportModeSwitch); the phase follows it
  /// through shifts and landings. kWalking is treated as double support (the caller does not
  /// step the balance while a walking controller owns the legs).
  void request(SupportMode mode) noexcept;

  /// One control period from `q` (in/out: within limits) towards `q_target`; see the file doc.
  /// Coordinates flagged in `frozen` (size nq, optional) do not move (e.g. what the mapper held).
  /// `period` (s) is the period's length, in (0, control_period]; anything else (the default)
  /// means control_period. Every per-period bound (joint speeds, CoM recovery, the landing's turn
  /// and descent) scales with it, so a shorter period moves the robot proportionally less: the
  /// speeds hold in real time whatever the period.
  BalanceReport step(const Eigen::Ref<const Eigen::VectorXd>& q_target, Eigen::Ref<Eigen::VectorXd> q,
                     const JointFlags* frozen = nullptr, double period = 0.0) noexcept;

 private:
  int sole(int side) const noexcept { return sole_[static_cast<std::size_t>(side)]; }
  // The sole frame S of `side` in the world of `data` (X_WL X_LS).
  Isometry3<double> soleFrame(const RobotData<double>& data, int side) const noexcept {
    return data.X_WL[static_cast<std::size_t>(sole(side))] * X_LS_[static_cast<std::size_t>(side)];
  }

  // The support side: 0 left, 1 right (double support uses the left sole as S).
  int supportSide() const noexcept;
  bool bothPlanted() const noexcept;
  bool landing() const noexcept;

  // Planted pose of the other sole in the support sole's frame.
  Eigen::Vector3d plantedPosition(int support) const noexcept;
  Eigen::Matrix3d plantedRotation(int support) const noexcept;

  // Rotation vector of R (angle times axis).
  static Eigen::Vector3d rotationError(const Eigen::Matrix3d& R) noexcept;

  // FK at q; Jacobians; CoM, other sole and their Jacobians in the support sole frame S.
  void linearise(const Eigen::Ref<const Eigen::VectorXd>& q, int support, int other) noexcept;

  // The support polygon in S: the support rectangle, or in double support (not shifting) the
  // convex hull of both soles' rectangles. Fills normals_ / offsets_ (n . p <= offset), returns
  // the number of edges.
  int polygon(int support) noexcept;

  // Signed distance of c inside the polygon shrunk by d_s (negative outside).
  double comMargin(const Eigen::Vector2d& c, int edges) const noexcept;

  // The CoM margin at q (true kinematics), or NaN when q fails the check (CoM outside the shrunk
  // polygon and farther out than before the step, or the planted feet moved).
  double checkedMargin(const Eigen::VectorXd& q, int support, int other, int edges, double margin_before) noexcept;

  // Rotation vector taking a sole rotation R (in S) to its own yaw: its x, y are the tilt.
  static Eigen::Vector3d tiltError(const Eigen::Matrix3d& R) noexcept;

  // After an accepted step to q: `margin` and probe_ (forward kinematics at q) are the check's.
  void finishPhase(const Eigen::Ref<const Eigen::VectorXd>& q, int support, int other, double margin) noexcept;

  const RobotModel<double>* model_;
  BalanceFeet feet_;
  BalanceOptions options_;
  RobotData<double> data_;
  RobotData<double> probe_;
  BalanceQp qp_;
  BalanceQpSolver<Lazy> solver_;
  std::array<int, 2> sole_{};
  std::array<Isometry3<double>, 2> X_LS_{Isometry3<double>::Identity(), Isometry3<double>::Identity()};
  BalancePhase phase_ = BalancePhase::kDouble;
  Isometry3<double> planted_ = Isometry3<double>::Identity();  // right sole in the left sole frame
  Eigen::Matrix3Xd J_com_, Jv_support_, Jw_support_, Jv_other_, Jw_other_;
  Eigen::Matrix<double, 6, Eigen::Dynamic> J_rel_;
  Eigen::Matrix3Xd J_com_s_;
  Eigen::Matrix3Xd scratch_;
  Eigen::Vector3d c_s_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d p_rel_ = Eigen::Vector3d::Zero();
  Eigen::Matrix3d R_rel_ = Eigen::Matrix3d::Identity();
  std::array<Eigen::Vector2d, kMaxEdges> normals_{};
  std::array<double, kMaxEdges> offsets_{};
  Eigen::VectorXd step_;
  Eigen::VectorXd candidate_;
  Eigen::VectorXd previous_target_;  // the target of the last step (Tracking::kVelocity)
  Eigen::VectorXd speed_step_;       // per joint: the most it may move in one period (rad)
  bool have_previous_target_ = false;
};

}  // namespace internal

/// The balance stage of one robot (one instance per stream; see the file doc).
using BalanceController = internal::BalanceController<void>;

#if RETARGET_DEFINE_CONTROL

RETARGET_DECL BalanceFeet naoBalanceFeet() {
  return BalanceFeet{FootSupport{"l_sole", -0.03025, 0.07025, -0.0231, 0.0299},
                     FootSupport{"r_sole", -0.03025, 0.07025, -0.0299, 0.0231}};
}

RETARGET_DECL const char* balancePhaseName(BalancePhase phase) noexcept {
  switch (phase) {
    case BalancePhase::kDouble: return "double";
    case BalancePhase::kShiftLeft: return "shift-left";
    case BalancePhase::kShiftRight: return "shift-right";
    case BalancePhase::kSingleLeft: return "single-left";
    case BalancePhase::kSingleRight: return "single-right";
    case BalancePhase::kLandingLeft: return "landing-left";
    case BalancePhase::kLandingRight: return "landing-right";
  }
  return "unknown";
}

template <typename Lazy>
internal::BalanceController<Lazy>::BalanceController(const RobotModel<double>& model, BalanceFeet feet, BalanceOptions options)
    : model_(&model),
      feet_(std::move(feet)),
      options_(options),
      data_(model),
      probe_(model),
      qp_(model.nq(), kMaxEdges),
      solver_(model.nq(), kMaxEdges),
      J_com_(3, model.nq()),
      Jv_support_(3, model.nq()),
      Jw_support_(3, model.nq()),
      Jv_other_(3, model.nq()),
      Jw_other_(3, model.nq()),
      J_rel_(6, model.nq()),
      J_com_s_(3, model.nq()),
      scratch_(3, model.nq()),
      step_(model.nq()),
      candidate_(model.nq()),
      previous_target_(model.nq()),
      speed_step_(model.nq()) {
  options_.validate();
  for (int i = 0; i < model.nq(); ++i) {
    speed_step_[i] = std::min(static_cast<double>(model.velocityLimits()[i]), options_.max_joint_speed) *
                     options_.control_period;
  }
  sole_[0] = model.linkIndex(feet_.left.link);
  sole_[1] = model.linkIndex(feet_.right.link);
  X_LS_ = {feet_.left.X_LS, feet_.right.X_LS};
  for (const FootSupport* f : {&feet_.left, &feet_.right}) {
    RETARGET_THROW_UNLESS(f->x_min < f->x_max && f->y_min < f->y_max, InvalidArgument, "FootSupport '", f->link,
                          "': empty rectangle (x ", f->x_min, " ... ", f->x_max, ", y ", f->y_min, " ... ", f->y_max,
                          ")");
    const Eigen::Matrix3d& R = f->X_LS.linear();
    RETARGET_THROW_UNLESS(f->X_LS.matrix().allFinite() &&
                              (R.transpose() * R - Eigen::Matrix3d::Identity()).norm() < 1e-9 && R.determinant() > 0,
                          InvalidArgument, "FootSupport '", f->link,
                          "'::X_LS (got a transform whose rotation is not proper, expected a rigid transform)");
  }
  RETARGET_THROW_UNLESS(model.totalMass() > 0, InvalidArgument, "robot '", model.name(), "' has no mass");
  reset(model.neutralConfiguration());
}

template <typename Lazy>
void internal::BalanceController<Lazy>::reset(const Eigen::Ref<const Eigen::VectorXd>& q) noexcept {
  phase_ = BalancePhase::kDouble;
  have_previous_target_ = false;
  replant(q);
}

template <typename Lazy>
void internal::BalanceController<Lazy>::replant(const Eigen::Ref<const Eigen::VectorXd>& q) noexcept {
  phase_ = BalancePhase::kDouble;
  forwardKinematics(*model_, data_, q);
  planted_ = rigidInverse(soleFrame(data_, 0)) * soleFrame(data_, 1);
}

template <typename Lazy>
void internal::BalanceController<Lazy>::request(SupportMode mode) noexcept {
  switch (phase_) {
    case BalancePhase::kDouble:
      if (mode == SupportMode::kSingleLeft) phase_ = BalancePhase::kShiftLeft;
      if (mode == SupportMode::kSingleRight) phase_ = BalancePhase::kShiftRight;
      break;
    case BalancePhase::kShiftLeft:
    case BalancePhase::kShiftRight: {
      const BalancePhase wanted = mode == SupportMode::kSingleLeft    ? BalancePhase::kShiftLeft
                                  : mode == SupportMode::kSingleRight ? BalancePhase::kShiftRight
                                                                      : BalancePhase::kDouble;
      phase_ = wanted;  // both feet are still planted: any shift can be undone at once
      break;
    }
    case BalancePhase::kSingleLeft:
      if (mode != SupportMode::kSingleLeft) phase_ = BalancePhase::kLandingLeft;
      break;
    case BalancePhase::kSingleRight:
      if (mode != SupportMode::kSingleRight) phase_ = BalancePhase::kLandingRight;
      break;
    case BalancePhase::kLandingLeft:
      if (mode == SupportMode::kSingleLeft) phase_ = BalancePhase::kSingleLeft;
      break;
    case BalancePhase::kLandingRight:
      if (mode == SupportMode::kSingleRight) phase_ = BalancePhase::kSingleRight;
      break;
  }
}

template <typename Lazy>
BalanceReport internal::BalanceController<Lazy>::step(const Eigen::Ref<const Eigen::VectorXd>& q_target, Eigen::Ref<Eigen::VectorXd> q,
                     const JointFlags* frozen, double period) noexcept {
  BalanceReport report;
  report.phase = phase_;
  const int n = model_->nq();
  if (q_target.size() != n || q.size() != n || !q_target.allFinite() || !q.allFinite() ||
      (frozen != nullptr && frozen->size() != n)) {
    report.held = true;
    return report;
  }
  const int support = supportSide();
  const int other = 1 - support;
  linearise(q, support, other);

  // Objective and bounds.
  const double dt = period > 0.0 && period <= options_.control_period ? period : options_.control_period;
  const double fraction = dt / options_.control_period;  // of the full period's bounds
  const bool velocity = options_.tracking == BalanceOptions::Tracking::kVelocity;
  for (int i = 0; i < n; ++i) {
    const double most = speed_step_[i] * fraction;
    qp_.target[i] = velocity ? q_target[i] - (have_previous_target_ ? previous_target_[i] : q[i]) : q_target[i] - q[i];
    qp_.lower[i] = std::min(0.0, std::max(model_->lowerLimits()[i] - q[i], -most));
    qp_.upper[i] = std::max(0.0, std::min(model_->upperLimits()[i] - q[i], most));
    if (frozen != nullptr && (*frozen)[i]) qp_.lower[i] = qp_.upper[i] = 0.0;
  }
  previous_target_ = q_target;  // same size: no allocation
  have_previous_target_ = true;
  // Equalities.
  qp_.equality_rows = 0;
  if (bothPlanted()) {
    qp_.E.topRows(6) = J_rel_;
    qp_.e.head(3) = -(p_rel_ - plantedPosition(support));
    qp_.e.tail(3) = -rotationError(R_rel_ * plantedRotation(support).transpose());
    qp_.equality_rows = 6;
  } else if (landing()) {
    // Tilt (x, y of the relative rotation against its own yaw) and height.
    const Eigen::Vector3d tilt = tiltError(R_rel_);
    qp_.E.row(0) = J_rel_.row(3);
    qp_.E.row(1) = J_rel_.row(4);
    qp_.E.row(2) = J_rel_.row(2);
    // The tilt is removed at `landing_turn_speed` at most (the speed bounds must allow it).
    const double most = options_.landing_turn_speed * dt;
    const double tilt_norm = std::hypot(tilt.x(), tilt.y());
    const double scale = tilt_norm > most ? most / tilt_norm : 1.0;
    qp_.e[0] = -scale * tilt.x();
    qp_.e[1] = -scale * tilt.y();
    // Section 4.4: "its orientation is first set parallel to the ground, and the leg angles are
    // then changed to place it on the ground": the sole keeps its height until it is parallel.
    qp_.e[2] = tilt_norm > options_.landing_tilt ? 0.0 : -std::min(p_rel_.z(), options_.landing_speed * dt);
    qp_.equality_rows = 3;
  }
  // CoM rows (Eqs. 37-41).
  const int edges = polygon(support);
  const Eigen::Vector2d c = c_s_.head<2>();
  for (int k = 0; k < edges; ++k) {
    const Eigen::Vector2d& normal = normals_[static_cast<std::size_t>(k)];
    const double limit = offsets_[static_cast<std::size_t>(k)] - options_.safety_margin -
                         options_.linearisation_margin - normal.dot(c);
    qp_.G.row(k) = normal.x() * J_com_s_.row(0) + normal.y() * J_com_s_.row(1);
    qp_.h[k] = std::max(limit, -options_.recovery_step * fraction);
  }
  qp_.inequality_rows = edges;
  const double margin_before = comMargin(c, edges);

  step_.setZero();
  const BalanceQpResult solved = solver_.solve(qp_, step_);
  if (!solved.ok) {
    report.infeasible = true;
    report.held = true;
    report.com_margin = margin_before;
    report.correction = qp_.target.norm();
    return report;
  }
  if (frozen != nullptr) {
    for (int i = 0; i < n; ++i) {
      if ((*frozen)[i]) step_[i] = 0.0;  // exactly: the solve meets the bounds to rounding
    }
  }
  for (int k = 0; k < edges; ++k) report.com_limited |= qp_.h[k] - qp_.G.row(k).dot(step_) < 1e-9;
  // A joint stepping at its speed bound towards a target beyond it: the speed, not the balance,
  // holds the robot back.
  for (int i = 0; i < n; ++i) {
    const double most = speed_step_[i] * fraction;
    report.rate_limited |= std::abs(qp_.target[i]) > most && std::abs(step_[i]) >= most * (1.0 - 1e-6);
  }

  // Non-linear check, halving the step while it fails.
  double scale = 1.0;
  bool accepted = false;
  for (int halving = 0; halving <= options_.max_halvings; ++halving) {
    candidate_ = q + scale * step_;
    const double margin = checkedMargin(candidate_, support, other, edges, margin_before);
    if (std::isfinite(margin)) {
      q = candidate_;
      report.com_margin = margin;
      report.halvings = halving;
      accepted = true;
      break;
    }
    scale *= 0.5;
  }
  if (!accepted) {
    report.held = true;
    report.com_margin = margin_before;
  }
  report.correction = (scale * step_ - qp_.target).norm();
  // Phase transitions, from the check's kinematics at the accepted q (probe_).
  if (accepted) finishPhase(q, support, other, report.com_margin);
  report.phase = phase_;
  return report;
}

template <typename Lazy>
int internal::BalanceController<Lazy>::supportSide() const noexcept {
  switch (phase_) {
    case BalancePhase::kShiftRight:
    case BalancePhase::kSingleRight:
    case BalancePhase::kLandingRight:
      return 1;
    default:
      return 0;
  }
}

template <typename Lazy>
bool internal::BalanceController<Lazy>::bothPlanted() const noexcept {
  return phase_ == BalancePhase::kDouble || phase_ == BalancePhase::kShiftLeft || phase_ == BalancePhase::kShiftRight;
}

template <typename Lazy>
SupportMode internal::BalanceController<Lazy>::supportMode() const noexcept {
  if (bothPlanted()) return SupportMode::kDouble;
  return supportSide() == 0 ? SupportMode::kSingleLeft : SupportMode::kSingleRight;
}

template <typename Lazy>
bool internal::BalanceController<Lazy>::landing() const noexcept {
  return phase_ == BalancePhase::kLandingLeft || phase_ == BalancePhase::kLandingRight;
}

template <typename Lazy>
Eigen::Vector3d internal::BalanceController<Lazy>::plantedPosition(int support) const noexcept {
  return support == 0 ? Eigen::Vector3d(planted_.translation()) : Eigen::Vector3d(rigidInverse(planted_).translation());
}

template <typename Lazy>
Eigen::Matrix3d internal::BalanceController<Lazy>::plantedRotation(int support) const noexcept {
  return support == 0 ? Eigen::Matrix3d(planted_.linear()) : Eigen::Matrix3d(planted_.linear().transpose());
}

template <typename Lazy>
Eigen::Vector3d internal::BalanceController<Lazy>::rotationError(const Eigen::Matrix3d& R) noexcept {
  const Eigen::AngleAxisd a(R);
  return a.angle() * a.axis();
}

template <typename Lazy>
void internal::BalanceController<Lazy>::linearise(const Eigen::Ref<const Eigen::VectorXd>& q, int support, int other) noexcept {
  forwardKinematics(*model_, data_, q);
  const Eigen::Vector3d c = centerOfMass(*model_, data_);
  J_com_ = centerOfMassJacobian(*model_, data_);
  const Isometry3<double> X_S = soleFrame(data_, support);
  const Isometry3<double> X_O = soleFrame(data_, other);
  pointJacobian(*model_, data_, sole(support), Eigen::Vector3d(X_LS_[static_cast<std::size_t>(support)].translation()),
                Jv_support_);
  angularJacobian(*model_, data_, sole(support), Jw_support_);
  pointJacobian(*model_, data_, sole(other), Eigen::Vector3d(X_LS_[static_cast<std::size_t>(other)].translation()),
                Jv_other_);
  angularJacobian(*model_, data_, sole(other), Jw_other_);
  const Eigen::Matrix3d R_T = X_S.linear().transpose();
  // d(R_S^T v) = R_S^T (dv + [v]x w_S dt), v a vector from the support sole origin.
  const auto inSupport = [&](const Eigen::Vector3d& v, const Eigen::Matrix3Xd& Jv, Eigen::Ref<Eigen::Matrix3Xd> out) {
    out.noalias() = Jv - Jv_support_;
    out.row(0) += v.y() * Jw_support_.row(2) - v.z() * Jw_support_.row(1);
    out.row(1) += v.z() * Jw_support_.row(0) - v.x() * Jw_support_.row(2);
    out.row(2) += v.x() * Jw_support_.row(1) - v.y() * Jw_support_.row(0);
    scratch_.noalias() = R_T * out;
    out = scratch_;
  };
  c_s_ = R_T * (c - X_S.translation());
  inSupport(c - X_S.translation(), J_com_, J_com_s_);
  p_rel_ = R_T * (X_O.translation() - X_S.translation());
  R_rel_ = R_T * X_O.linear();
  inSupport(X_O.translation() - X_S.translation(), Jv_other_, J_rel_.topRows<3>());
  scratch_.noalias() = Jw_other_ - Jw_support_;
  J_rel_.bottomRows<3>().noalias() = R_T * scratch_;
}

template <typename Lazy>
int internal::BalanceController<Lazy>::polygon(int support) noexcept {
  const FootSupport& s = support == 0 ? feet_.left : feet_.right;
  std::array<Eigen::Vector2d, 8> points;
  int count = 0;
  const auto corners = [&](const FootSupport& f, const Isometry3<double>& X) {
    for (double x : {f.x_min, f.x_max}) {
      for (double y : {f.y_min, f.y_max}) points[static_cast<std::size_t>(count++)] = (X * Eigen::Vector3d(x, y, 0.0)).head<2>();
    }
  };
  corners(s, Isometry3<double>::Identity());
  if (phase_ == BalancePhase::kDouble) {
    Isometry3<double> X_SO = Isometry3<double>::Identity();
    X_SO.linear() = plantedRotation(support);
    X_SO.translation() = plantedPosition(support);
    corners(support == 0 ? feet_.right : feet_.left, X_SO);
  }
  // Convex hull, counterclockwise (monotone chain). The unused entries are set to +inf so that
  // the whole array sorts (they go last): a sort over a fixed 8 points leaves GCC's -O3 bounds
  // analysis nothing to guess (over the first `count` it reported a false -Warray-bounds).
  for (std::size_t i = static_cast<std::size_t>(count); i < points.size(); ++i) {
    points[i].setConstant(std::numeric_limits<double>::infinity());
  }
  std::sort(points.begin(), points.end(), [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  std::array<Eigen::Vector2d, 17> hull;
  int h = 0;
  const auto cross = [](const Eigen::Vector2d& o, const Eigen::Vector2d& a, const Eigen::Vector2d& b) {
    return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x());
  };
  for (int i = 0; i < count; ++i) {
    while (h >= 2 && cross(hull[static_cast<std::size_t>(h - 2)], hull[static_cast<std::size_t>(h - 1)],
                           points[static_cast<std::size_t>(i)]) <= 0) {
      --h;
    }
    hull[static_cast<std::size_t>(h++)] = points[static_cast<std::size_t>(i)];
  }
  for (int i = count - 2, lower = h + 1; i >= 0; --i) {
    while (h >= lower && cross(hull[static_cast<std::size_t>(h - 2)], hull[static_cast<std::size_t>(h - 1)],
                               points[static_cast<std::size_t>(i)]) <= 0) {
      --h;
    }
    hull[static_cast<std::size_t>(h++)] = points[static_cast<std::size_t>(i)];
  }
  const int vertices = h - 1;  // the last point repeats the first
  int edges = 0;
  for (int k = 0; k < vertices && edges < kMaxEdges; ++k) {
    const Eigen::Vector2d a = hull[static_cast<std::size_t>(k)], b = hull[static_cast<std::size_t>(k + 1)];
    const Eigen::Vector2d d = b - a;
    const double length = d.norm();
    if (length < 1e-9) continue;
    const Eigen::Vector2d normal(d.y() / length, -d.x() / length);  // outward for a CCW hull
    normals_[static_cast<std::size_t>(edges)] = normal;
    offsets_[static_cast<std::size_t>(edges)] = normal.dot(a);
    ++edges;
  }
  return edges;
}

template <typename Lazy>
double internal::BalanceController<Lazy>::comMargin(const Eigen::Vector2d& c, int edges) const noexcept {
  double margin = std::numeric_limits<double>::infinity();
  for (int k = 0; k < edges; ++k) {
    margin = std::min(margin, offsets_[static_cast<std::size_t>(k)] - options_.safety_margin -
                                  normals_[static_cast<std::size_t>(k)].dot(c));
  }
  return margin;
}

template <typename Lazy>
double internal::BalanceController<Lazy>::checkedMargin(const Eigen::VectorXd& q, int support, int other, int edges, double margin_before) noexcept {
  forwardKinematics(*model_, probe_, q);
  const Eigen::Vector3d c = centerOfMass(*model_, probe_);
  const Isometry3<double> X_S = soleFrame(probe_, support);
  const Isometry3<double> X_O = soleFrame(probe_, other);
  const Eigen::Matrix3d R_T = X_S.linear().transpose();
  const Eigen::Vector2d c_s = (R_T * (c - X_S.translation())).head<2>();
  const double margin = comMargin(c_s, edges);
  const bool com_ok = margin >= -1e-9 || margin >= margin_before - 1e-9;
  bool feet_ok = true;
  if (bothPlanted()) {
    const Eigen::Vector3d p = R_T * (X_O.translation() - X_S.translation());
    const Eigen::Matrix3d R = R_T * X_O.linear();
    const double position_error = (p - plantedPosition(support)).norm();
    const double rotation_error = rotationError(R * plantedRotation(support).transpose()).norm();
    feet_ok = position_error <= 1e-4 && rotation_error <= 1e-3;
  }
  return com_ok && feet_ok ? margin : std::numeric_limits<double>::quiet_NaN();
}

template <typename Lazy>
Eigen::Vector3d internal::BalanceController<Lazy>::tiltError(const Eigen::Matrix3d& R) noexcept {
  const double yaw = std::atan2(R(1, 0), R(0, 0));
  return rotationError(R * Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()).toRotationMatrix().transpose());
}

template <typename Lazy>
void internal::BalanceController<Lazy>::finishPhase(const Eigen::Ref<const Eigen::VectorXd>& q, int support, int other, double margin) noexcept {
  if (phase_ == BalancePhase::kShiftLeft || phase_ == BalancePhase::kShiftRight) {
    // The CoM is over the support foot (shrunk rectangle): lift the other one.
    if (margin >= 0.0) {
      phase_ = phase_ == BalancePhase::kShiftLeft ? BalancePhase::kSingleLeft : BalancePhase::kSingleRight;
    }
  } else if (landing()) {
    const Isometry3<double> X_S = soleFrame(probe_, support);
    const Isometry3<double> X_O = soleFrame(probe_, other);
    const Eigen::Matrix3d R_T = X_S.linear().transpose();
    const double height = (R_T * (X_O.translation() - X_S.translation())).z();
    const double tilt = tiltError(R_T * X_O.linear()).norm();
    if (std::abs(height) <= options_.landing_height && tilt <= options_.landing_tilt) replant(q);
  }
}


RETARGET_DECL void BalanceOptions::validate() const {
  const auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  const auto non_negative = [](double v) { return std::isfinite(v) && v >= 0; };
  RETARGET_THROW_UNLESS(positive(control_period), InvalidArgument, "BalanceOptions::control_period (got ",
                        control_period, ", expected > 0 s)");
  RETARGET_THROW_UNLESS(non_negative(safety_margin), InvalidArgument, "BalanceOptions::safety_margin (got ",
                        safety_margin, ", expected >= 0 m)");
  RETARGET_THROW_UNLESS(non_negative(linearisation_margin), InvalidArgument,
                        "BalanceOptions::linearisation_margin (got ", linearisation_margin, ", expected >= 0 m)");
  RETARGET_THROW_UNLESS(positive(recovery_step), InvalidArgument, "BalanceOptions::recovery_step (got ",
                        recovery_step, ", expected > 0 m)");
  RETARGET_THROW_UNLESS(positive(max_joint_speed), InvalidArgument, "BalanceOptions::max_joint_speed (got ",
                        max_joint_speed, ", expected > 0 rad/s)");
  RETARGET_THROW_UNLESS(positive(landing_speed), InvalidArgument, "BalanceOptions::landing_speed (got ",
                        landing_speed, ", expected > 0 m/s)");
  RETARGET_THROW_UNLESS(positive(landing_turn_speed), InvalidArgument, "BalanceOptions::landing_turn_speed (got ",
                        landing_turn_speed, ", expected > 0 rad/s)");
  RETARGET_THROW_UNLESS(positive(landing_height), InvalidArgument, "BalanceOptions::landing_height (got ",
                        landing_height, ", expected > 0 m)");
  RETARGET_THROW_UNLESS(positive(landing_tilt), InvalidArgument, "BalanceOptions::landing_tilt (got ", landing_tilt,
                        ", expected > 0 rad)");
  RETARGET_THROW_UNLESS(max_halvings >= 0, InvalidArgument, "BalanceOptions::max_halvings (got ", max_halvings,
                        ", expected >= 0)");
}

#endif  // RETARGET_DEFINE_CONTROL

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_CONTROL class internal::BalanceController<void>;
#endif

}  // namespace retarget
