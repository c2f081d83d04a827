#pragma once

/// @file
/// PIC, PICs and FABRIK pose imitation (seed 004, "Pose Imitation Constraints for Collaborative
/// Robots"): a canonical human skeleton frame in, robot arm joint angles out, for manipulators
/// whose kinematics differ from a human arm (Baxter, YuMi, and any chain with a `PicMap`).
///
/// Per frame, for each arm of the map:
///  1. Input pipeline (Section IV): optional per-joint exponential smoothing of the positions
///     (`SkeletonSmoothing`), then placement in the robot's workspace by the calibration-pose
///     transform (`ArmPlacement`: rotation into the robot base frame B and scale robot/human arm
///     length, hung at the robot's shoulder point).
///  2. Human pose (Section III-A, Eq. 1): with u = placed shoulder->elbow and f = placed
///     elbow->wrist, OUT_S = octant(u), IN_E = octant(-u), OUT_E = octant(f), IN_W = octant(-f)
///     in frames aligned with B; Eq. 2 puts them on the robot chain (see pic_map.hpp).
///  3. Solve (Section III-B) on the chain of robot joint positions, warm-started from the
///     forward kinematics of the previous solution, target = robot shoulder + s (u + f):
///     FABRIK (no constraints), PIC (Section III-B2: allowed sets = the single octants, IN in the
///     backward pass, OUT in the forward pass, projection onto the closest face, Fig. 3; OUT wins
///     where they conflict, as the paper's Section IV-C explains), or PICs (Section III-B3, Eq. 3:
///     the admissible octants of a link widened to those within Hamming distance K of the
///     human's). The paper gives two triggers for the widening. Section I: PICs "expands the pose
///     constraint ranges of the robot joints when a solution cannot be found under the original
///     setup of constraints", i.e. after PIC fails; this is the default here: PIC first, and only
///     when it ends farther than the tolerance from the target, the same solve again from the
///     same start with the widened sets (`softened()` tells which frames). Section III-B3: "when a
///     link falls outside of the constraint region", PICs adds the neighbouring octants to that
///     link's range, in every solve; this is `PicOptions::soften_always` (every frame solved with
///     the widened sets, which leave a link already inside its own octant where it is).
///     `fabrik.final_octant_pass` forces every link into its octants after the loop (an
///     extension, off by default).
///  4. Positions to angles: a damped least-squares fit of the arm's `fit_joints` (projected
///     onto the joint limits every step, warm-started from the previous solution) to the solved
///     chain points (not in the paper, which stops at positions); `residual()` reports the largest
///     distance (m) between a solved point and the same point of the robot at the output angles,
///     and a residual above `max_fit_residual` is reported as kNotConverged: the written angles
///     do not realise the solved pose.
///  5. Temporal continuity (the problem the paper names at the end of Section IV-C): the solve and
///     the fit are warm-started from the previous solution; with `transition_frames` N > 0, when
///     an arm's four octants change between frames the jump d = previous output - new solution is
///     added back and faded out linearly, output = solution + d (N + 1 - j) / (N + 1) in the j-th
///     frame after the change (clamped to the limits), so the robot glides over N + 1 frames.
///     And the fit pays for a joint step beyond what the human's own motion explains
///     (`continuity_weight`, ours): three or four chain points leave some of an arm's joints
///     ill-determined, and the fit jumped along them for a 0.1 mm input step.
/// Coordinates the map does not move keep `rest`.
///
/// Statuses: kClamped when the fit wanted a coordinate beyond a limit and it sits on it
/// (`clamped()`); kDegenerateInput when an arm's shoulder, elbow or wrist is not usable, a link
/// is shorter than 1 mm or longer than 3 m, or no calibration frame has been seen (that arm's
/// coordinates hold their last value, `held()`); kNotConverged when the fit's residual exceeds
/// `max_fit_residual` (`fitFailed()`), or when FABRIK (plain FABRIK only) stops at its iteration
/// cap away from a target well inside its reach (closer than 98 % of it; near full extension
/// FABRIK converges only linearly) (for PIC / PICs the constrained problem has no exact solution
/// in general, so the end error is reported by `endError()` and the softening by `softened()`,
/// not as a status); kInvalidInput when q_out has the wrong size.

#include <array>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Cholesky>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/geometry/octants.hpp>
#include <retarget/human/arm_placement.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/skeleton_smoothing.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/mappers/fabrik.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/mappers/pic_map.hpp>

namespace retarget {

/// The three algorithms of the paper.
enum class PicAlgorithm { kFabrik, kPic, kPics };

/// Lower-case name of an algorithm ("fabrik", "pic", "pics").
RETARGET_DECL const char* toString(PicAlgorithm a);

/// Options of `PicMapper` (a validated aggregate; `validate()` runs in the constructor).
struct PicOptions {
  PicAlgorithm algorithm = PicAlgorithm::kPic;
  /// PICs softening factor K of Eq. 3 (0..3; 0 equals PIC, 3 admits every octant).
  int softening = 1;
  /// PICs: solve every frame with the widened octant sets (Section III-B3's reading: "when a link
  /// falls outside of the constraint region", its neighbouring octants are added) instead of only
  /// the frames PIC cannot solve (Section I's reading: PICs expands the ranges "when a solution
  /// cannot be found under the original setup of constraints"). Off by default: the default
  /// follows Section I; which reading the paper's experiments used is not settled.
  bool soften_always = false;
  /// FABRIK tolerance (m) and iteration cap (the paper: at most 20 iterations).
  FabrikOptions fabrik{};
  /// Most damped least-squares steps of the positions-to-angles fit (1..100).
  int fit_iterations = 12;
  /// Damping of the fit (m; > 0): larger is slower but steadier near singularities.
  double fit_damping = 0.02;
  /// Weight (0..1] of the chain points between shoulder and wrist (the elbow) against the
  /// shoulder and wrist points in the fit: the wrist decides the pose angle, the elbow shapes it.
  double fit_elbow_weight = 0.5;
  /// Largest residual (m, > 0) of the fit accepted as imitating the solved chain; above it the
  /// frame is reported kNotConverged (`fitFailed()`). Default 0.1 m: docs/methods/pic.md gives
  /// the residuals measured on the shared recordings.
  double max_fit_residual = 0.1;
  /// Weight of the new sample in the input smoothing, in (0, 1]; 1 = off.
  double smoothing_alpha = 1.0;
  /// Calibration of the placement (frames averaged).
  ArmPlacementOptions placement{};
  /// Frames over which a change of the octant constraints is interpolated (0 = off).
  int transition_frames = 0;
  /// Continuity of the fit (m^2/rad^2, >= 0; 0 = off; issue 53, ours): a fit joint may step from
  /// the previous frame's solution by kPicFreeStep plus `continuity_gain` times the angle the
  /// human's upper arm or forearm (the larger) turned since the previous frame, for nothing; each
  /// radian beyond costs this weight times its square against the fit's squared residual (m^2).
  /// Where three or four chain points leave the arm's joints ill-determined (a nearly straight
  /// elbow, a seven-joint arm's redundancy, a limit the projected fit slides along), the fit
  /// otherwise moved a joint by up to 1 rad for a 0.1 mm input step; a moving human leaves it free.
  /// Chosen with `continuity_gain` on the mapper contract's paths and the Pacc runs of
  /// tests/pic (tests/tuning_split.md, `pic_continuity`): 0.1 and 100 keep every contract path
  /// continuous and every Pacc floor; a weight of 1 or a gain of 30 cost Pacc (YuMi wave 0.116 ->
  /// 0.05), 0.01 keeps the paths continuous by a smaller margin.
  double continuity_weight = 0.1;
  /// The free joint step per radian the human's arm turned (unitless, >= 0); see above.
  double continuity_gain = 100.0;
  /// Values (robot q order, size nq) of the coordinates the map does not move, and the start
  /// of the warm start. Empty: the model's neutral configuration.
  std::vector<double> rest{};

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// The free joint step of PicOptions::continuity_weight at a still input (rad).
inline constexpr double kPicFreeStep = 0.005;

/// The octant constraints of Eq. 1 for one arm: OUT of the shoulder, IN of the elbow, OUT of
/// the elbow, IN of the wrist (octant indices 0..7 of the world-aligned frames).
struct PicPose {
  int out_shoulder = 0, in_elbow = 0, out_elbow = 0, in_wrist = 0;
  /// Packed key, equal for equal poses.
  int key() const { return out_shoulder | in_elbow << 3 | out_elbow << 6 | in_wrist << 9; }
};

/// Octant pose (Eq. 1) of an arm from its upper-arm vector u and forearm vector f (any frame
/// aligned with the world). The IN octant of a link is the octant of the link seen from its far
/// joint, -u: every sign flipped, 7 - OUT. (Taken as 7 - OUT rather than octantOf(-u) so that a
/// coordinate that is exactly zero, where the tie rule of octants.hpp would put u and -u both on
/// the positive side, still gives the two closed octants that share the link's face.)
template <typename Scalar>
PicPose picPose(const Vector3<Scalar>& u, const Vector3<Scalar>& f) {
  const int o_u = octantOf<Scalar>(u), o_f = octantOf<Scalar>(f);
  return PicPose{o_u, 7 - o_u, o_f, 7 - o_f};
}

/// Chain constraints (Eq. 2 + Eq. 3) of a pose on a chain with `points` points and its elbow
/// at index `elbow`: OUT_S on link 0, IN_E on link elbow-1, OUT_E on link elbow, IN_W on the
/// last link; each set is the octant softened by `softening` (Eq. 3; 0 = PIC).
RETARGET_DECL FabrikConstraints picConstraints(const PicPose& pose, int points, int elbow, int softening);

/// PIC / PICs / FABRIK mapper (see the file doc), of the shape of mappers/mapper.hpp.
template <typename ScalarType = double>
class PicMapper {
 public:
  using Scalar = ScalarType;
  using Input = SkeletonFrame<Scalar>;
  using Map = PicMap;
  using Options = PicOptions;

  /// Validates `map` against `model` and `options` (throws InvalidArgument naming the field),
  /// measures the chain lengths and allocates every buffer.
  PicMapper(const RobotModel<Scalar>& model, PicMap map, PicOptions options = {});
  /// A temporary model would dangle: not allowed (mappers/mapper.hpp, "Lifetime rule").
  PicMapper(const RobotModel<Scalar>&&, PicMap, PicOptions = {}) = delete;

  /// Maps one frame (canonical, m) to `q_out` (size nq, rad, robot q order); see the file doc.
  [[nodiscard]] Status map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  /// Forgets the temporal state: smoothing, calibration, warm start, transitions, held values.
  void reset() noexcept;

  const RobotModel<Scalar>& model() const noexcept { return *model_; }
  const PicOptions& options() const noexcept { return options_; }
  const PicMap& picMap() const noexcept { return map_; }
  const JointFlags& clamped() const noexcept { return clamped_; }
  const JointFlags& held() const noexcept { return held_; }
  /// Number of arms.
  int armCount() const noexcept { return arm_count_; }
  /// Largest distance (m) between a solved chain point and the robot's point at the output
  /// angles, last frame, arm `a` (0 when the arm was held).
  Scalar residual(int a) const noexcept { return arms_[static_cast<std::size_t>(a)].residual; }
  /// True when the residual of arm `a` in the last frame exceeded `max_fit_residual`.
  bool fitFailed(int a) const noexcept { return arms_[static_cast<std::size_t>(a)].fit_failed; }
  /// True when PICs softened the constraints of arm `a` in the last frame.
  bool softened(int a) const noexcept { return arms_[static_cast<std::size_t>(a)].softened; }
  /// End-point error of the solve (m), last frame, arm `a`.
  Scalar endError(int a) const noexcept { return arms_[static_cast<std::size_t>(a)].result.error; }
  /// The FABRIK result of arm `a` in the last frame.
  const FabrikResult<Scalar>& solveResult(int a) const noexcept { return arms_[static_cast<std::size_t>(a)].result; }
  /// Solved chain of arm `a` in the last frame (robot base frame, m).
  const FabrikChain<Scalar>& solvedChain(int a) const noexcept { return arms_[static_cast<std::size_t>(a)].solved; }
  /// Octant pose (Eq. 1) read from the human for arm `a` in the last mapped frame.
  const PicPose& humanPose(int a) const noexcept { return arms_[static_cast<std::size_t>(a)].pose; }
  /// The placement stage (calibration transform).
  const ArmPlacement<Scalar>& placement() const noexcept { return placement_; }
  /// Robot chain points of arm `a` at configuration q (m, base frame), written to `chain`
  /// (lengths unchanged). Uses the mapper's workspace; not for concurrent use.
  void chainAt(int a, const VectorX<Scalar>& q, FabrikChain<Scalar>& chain) noexcept;

 private:
  static constexpr int kMaxDof = 8;
  static constexpr int kMaxRows = 3 * kFabrikMaxPoints;
  using V3 = Vector3<Scalar>;
  using MatJ = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxRows, kMaxDof>;
  using MatH = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxDof, kMaxDof>;
  using VecD = Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kMaxDof, 1>;
  using VecR = Eigen::Matrix<Scalar, Eigen::Dynamic, 1, 0, kMaxRows, 1>;

  struct Arm {
    ArmSide side = ArmSide::kLeft;
    int dof = 0;
    std::array<int, kMaxDof> q{};
    int points = 0;
    int elbow = 1;
    std::array<int, kFabrikMaxPoints> joint{};
    FabrikChain<Scalar> chain{};   // lengths (and scratch points)
    FabrikChain<Scalar> solved{};  // last solution
    bool has_key = false;
    int key = 0;
    int remaining = 0;
    std::array<Scalar, kMaxDof> q_start{};  // jump offset spread over the transition window
    Scalar residual = Scalar(0);
    bool fit_failed = false;
    bool softened = false;
    FabrikResult<Scalar> result{};
    PicPose pose{};
    bool has_previous_input = false;  // the arm was solved in an earlier frame (since reset)
    V3 previous_u{}, previous_f{};    // its placed upper arm and forearm then (base frame, m)
    Scalar input_turn = Scalar(0);    // the larger angle either turned since (rad)
  };

  // Origin of joint k in the base frame (valid after forwardKinematics on data_).
  V3 pointOf(int k) const;
  void holdArm(const Arm& arm);
  bool solveArm(Arm& arm, const SkeletonFrame<Scalar>& frame);
  void fitArm(Arm& arm);

  const RobotModel<Scalar>* model_;
  PicMap map_;
  PicOptions options_;
  RobotData<Scalar> data_;
  SkeletonSmoothing<Scalar> smoothing_;
  ArmPlacement<Scalar> placement_;
  SkeletonFrame<Scalar> smoothed_{};
  VectorX<Scalar> rest_, q_out_, q_solution_;
  Matrix3X<Scalar> J_;
  std::array<Arm, 2> arms_{};
  int arm_count_ = 0;
  JointFlags clamped_, held_;
  bool not_converged_ = false;
};

template <typename Scalar>
bool PicMapper<Scalar>::solveArm(Arm& arm, const SkeletonFrame<Scalar>& frame) {
  const auto j = armJoints(arm.side);
  if (!frame.usable(j[0]) || !frame.usable(j[1]) || !frame.usable(j[2]) || !placement_.calibrated()) return false;
  const V3 u = placement_.placeVector(arm.side, frame.position(j[1]) - frame.position(j[0]));
  const V3 f = placement_.placeVector(arm.side, frame.position(j[2]) - frame.position(j[1]));
  const Scalar s = placement_.scale(arm.side);
  const Scalar nu = u.norm(), nf = f.norm();
  const Scalar lo = Scalar(1e-3) * s, hi = Scalar(3) * s;
  if (!std::isfinite(nu) || !std::isfinite(nf) || !(nu > lo) || !(nf > lo) || nu > hi || nf > hi) return false;
  arm.pose = picPose<Scalar>(u, f);
  // u and f are finite and longer than 1 mm here, so the angles exist.
  arm.input_turn = arm.has_previous_input ? std::max(angleBetween<Scalar>(u, arm.previous_u).value_or(Scalar(0)),
                                                     angleBetween<Scalar>(f, arm.previous_f).value_or(Scalar(0)))
                                          : Scalar(0);
  arm.previous_u = u;
  arm.previous_f = f;

  // Warm start: the chain at the previous solution.
  forwardKinematics(*model_, data_, q_solution_);
  for (int k = 0; k < arm.points; ++k) arm.chain.p[static_cast<std::size_t>(k)] = pointOf(arm.joint[static_cast<std::size_t>(k)]);
  const V3 target = arm.chain.p[0] + u + f;
  FabrikConstraints constraints;
  const bool pics = options_.algorithm == PicAlgorithm::kPics;
  arm.softened = pics && options_.soften_always;
  if (options_.algorithm != PicAlgorithm::kFabrik) {
    constraints = picConstraints(arm.pose, arm.points, arm.elbow, arm.softened ? options_.softening : 0);
  }
  arm.solved = arm.chain;  // the start, kept for a softened second solve
  arm.result = solveFabrik<Scalar>(arm.chain, target, options_.fabrik, constraints);
  if (pics && !arm.softened && !arm.result.converged && options_.softening > 0) {
    // Section I's trigger: PIC found no solution within the tolerance; soften and solve again
    // (Section III-B3's per-link trigger is `soften_always`, handled above).
    arm.chain = arm.solved;
    arm.softened = true;
    constraints = picConstraints(arm.pose, arm.points, arm.elbow, options_.softening);
    arm.result = solveFabrik<Scalar>(arm.chain, target, options_.fabrik, constraints);
  }
  arm.solved = arm.chain;
  // FABRIK converges only linearly near full extension: a target within 2 % of the reach is
  // at the boundary, not a failure.
  const bool inside = (target - arm.chain.p[0]).norm() < Scalar(0.98) * arm.chain.reach();
  if (options_.algorithm == PicAlgorithm::kFabrik && inside && !arm.result.converged) not_converged_ = true;
  fitArm(arm);
  arm.has_previous_input = true;
  return true;
}

template <typename Scalar>
void PicMapper<Scalar>::fitArm(Arm& arm) {
  const int dof = arm.dof;
  const int rows = 3 * arm.points;
  MatJ J(rows, dof);
  VecR r(rows);
  MatH H(dof, dof);
  VecD g(dof), dq(dof);
  const Scalar lambda2 = static_cast<Scalar>(options_.fit_damping * options_.fit_damping);
  const Scalar elbow_weight = static_cast<Scalar>(options_.fit_elbow_weight);
  const Scalar max_step = Scalar(0.5);
  const auto& lower = model_->lowerLimits();
  const auto& upper = model_->upperLimits();
  std::array<bool, kMaxDof> wanted_beyond{};
  // The previous solution (the warm start), which the continuity term measures steps from.
  VecD q_previous(dof);
  for (int c = 0; c < dof; ++c) q_previous[c] = q_solution_[arm.q[static_cast<std::size_t>(c)]];
  // Continuity (see PicOptions::continuity_weight): each joint may step from the previous
  // solution by the free step for nothing; beyond it the fit pays weight * excess^2.
  const Scalar mu = static_cast<Scalar>(options_.continuity_weight);
  const Scalar free_step = arm.has_previous_input
                               ? Scalar(kPicFreeStep) + static_cast<Scalar>(options_.continuity_gain) * arm.input_turn
                               : std::numeric_limits<Scalar>::infinity();
  for (int it = 0; it < options_.fit_iterations; ++it) {
    forwardKinematics(*model_, data_, q_solution_);
    for (int k = 0; k < arm.points; ++k) {
      const int jk = arm.joint[static_cast<std::size_t>(k)];
      const V3 p = pointOf(jk);
      const Scalar w = (k == 0 || k + 1 == arm.points) ? Scalar(1) : elbow_weight;
      r.template segment<3>(3 * k) = w * (arm.solved.p[static_cast<std::size_t>(k)] - p);
      const int link = model_->joints()[static_cast<std::size_t>(jk)].child_link;
      const V3 p_L = data_.X_WL[static_cast<std::size_t>(link)].inverse(Eigen::Isometry) * p;
      pointJacobian(*model_, data_, link, p_L, J_);
      for (int c = 0; c < dof; ++c) J.template block<3, 1>(3 * k, c) = w * J_.col(arm.q[static_cast<std::size_t>(c)]);
    }
    H.noalias() = J.transpose() * J;
    H.diagonal().array() += lambda2;
    g.noalias() = J.transpose() * r;
    for (int c = 0; c < dof; ++c) {
      const Scalar step_c = q_solution_[arm.q[static_cast<std::size_t>(c)]] - q_previous[c];
      const Scalar excess = std::abs(step_c) - free_step;
      if (mu > Scalar(0) && excess > Scalar(0)) {  // d/dq of (mu / 2) excess^2, Gauss-Newton curvature mu
        g[c] -= mu * (step_c > Scalar(0) ? excess : -excess);
        H(c, c) += mu;
      }
    }
    dq = H.ldlt().solve(g);
    const Scalar largest = dq.cwiseAbs().maxCoeff();
    if (largest > max_step) dq *= max_step / largest;  // trust region: at most 0.5 rad a step
    Scalar step = Scalar(0);
    for (int c = 0; c < dof; ++c) {
      const int i = arm.q[static_cast<std::size_t>(c)];
      const Scalar wanted = q_solution_[i] + dq[c];
      const Scalar value = std::isfinite(wanted) ? std::min(std::max(wanted, lower[i]), upper[i]) : q_solution_[i];
      wanted_beyond[static_cast<std::size_t>(c)] = wanted < lower[i] || wanted > upper[i];
      step = std::max(step, std::abs(value - q_solution_[i]));
      q_solution_[i] = value;
    }
    if (step < Scalar(1e-6)) break;
  }
  forwardKinematics(*model_, data_, q_solution_);
  Scalar residual = Scalar(0);
  for (int k = 0; k < arm.points; ++k) {
    residual = std::max(residual, (arm.solved.p[static_cast<std::size_t>(k)] - pointOf(arm.joint[static_cast<std::size_t>(k)])).norm());
  }
  arm.residual = residual;
  arm.fit_failed = !(residual <= static_cast<Scalar>(options_.max_fit_residual));
  if (arm.fit_failed) not_converged_ = true;
  for (int c = 0; c < dof; ++c) {
    const int i = arm.q[static_cast<std::size_t>(c)];
    clamped_[i] = wanted_beyond[static_cast<std::size_t>(c)] && (q_solution_[i] == lower[i] || q_solution_[i] == upper[i]);
  }
}

template <typename Scalar>
Status PicMapper<Scalar>::map(const SkeletonFrame<Scalar>& input, Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  if (q_out.size() != model_->nq()) return StatusCode::kInvalidInput;
  clamped_.setConstant(false);
  held_.setConstant(false);
  not_converged_ = false;
  smoothing_.update(input, smoothed_);
  placement_.update(smoothed_);
  for (int a = 0; a < arm_count_; ++a) {
    Arm& arm = arms_[static_cast<std::size_t>(a)];
    // Keep the previous solution of this arm in case the frame is unusable.
    std::array<Scalar, kMaxDof> before{};
    for (int c = 0; c < arm.dof; ++c) before[static_cast<std::size_t>(c)] = q_solution_[arm.q[static_cast<std::size_t>(c)]];
    if (!solveArm(arm, smoothed_) || !q_solution_.allFinite()) {
      for (int c = 0; c < arm.dof; ++c) {
        q_solution_[arm.q[static_cast<std::size_t>(c)]] = before[static_cast<std::size_t>(c)];
        clamped_[arm.q[static_cast<std::size_t>(c)]] = false;
      }
      arm.residual = Scalar(0);
      arm.fit_failed = false;
      arm.softened = false;
      holdArm(arm);
      continue;
    }
    // Temporal continuity: interpolate across a change of the octant constraints.
    const int key = arm.pose.key();
    if (options_.transition_frames > 0 && options_.algorithm != PicAlgorithm::kFabrik && arm.has_key &&
        key != arm.key) {
      // The jump the new constraints cause, spread over the window (decays linearly to 0).
      arm.remaining = options_.transition_frames;
      for (int c = 0; c < arm.dof; ++c) {
        const int i = arm.q[static_cast<std::size_t>(c)];
        arm.q_start[static_cast<std::size_t>(c)] = q_out_[i] - q_solution_[i];
      }
    }
    arm.key = key;
    arm.has_key = true;
    const Scalar fade = arm.remaining > 0 ? Scalar(arm.remaining) / Scalar(options_.transition_frames + 1) : Scalar(0);
    for (int c = 0; c < arm.dof; ++c) {
      const int i = arm.q[static_cast<std::size_t>(c)];
      const Scalar wanted = q_solution_[i] + fade * arm.q_start[static_cast<std::size_t>(c)];
      const Scalar lo = model_->lowerLimits()[i], hi = model_->upperLimits()[i];
      q_out_[i] = std::min(std::max(wanted, lo), hi);
      if (wanted < lo || wanted > hi) clamped_[i] = true;
      if (clamped_[i] && q_out_[i] != lo && q_out_[i] != hi) clamped_[i] = false;
    }
    if (arm.remaining > 0) --arm.remaining;
  }
  q_out = q_out_;
  Status status;
  if (clamped_.any()) status = status | StatusCode::kClamped;
  if (held_.any()) status = status | StatusCode::kDegenerateInput;
  if (not_converged_) status = status | StatusCode::kNotConverged;
  return status;
}

template <typename ScalarType>
PicMapper<ScalarType>::PicMapper(const RobotModel<Scalar>& model, PicMap map, PicOptions options)
    : model_(&model),
      map_(std::move(map)),
      options_(std::move(options)),
      data_(model),
      smoothing_(SkeletonSmoothingOptions{options_.smoothing_alpha}),
      placement_(options_.placement, Scalar(1), Scalar(1)) {
  options_.validate();
  map_.validateFor(model);
  if (options_.rest.empty()) {
    rest_ = model.neutralConfiguration();
  } else {
    RETARGET_THROW_UNLESS(static_cast<int>(options_.rest.size()) == model.nq(), InvalidArgument,
                          "PicOptions::rest (got ", options_.rest.size(), " values, expected nq = ", model.nq(), ")");
    rest_.resize(model.nq());
    for (int i = 0; i < model.nq(); ++i) rest_[i] = static_cast<Scalar>(options_.rest[static_cast<std::size_t>(i)]);
    RETARGET_THROW_UNLESS(withinLimits(model, rest_), InvalidArgument,
                          "PicOptions::rest (got a configuration outside the limits of robot '", model.name(), "')");
  }
  for (const PicArmMap& arm : map_.arms) {
    if (!options_.rest.empty()) break;  // explicit rest values win over the map's
    for (std::size_t k = 0; k < arm.rest.size(); ++k) rest_[model.qIndex(arm.fit_joints[k])] = static_cast<Scalar>(arm.rest[k]);
  }
  forwardKinematics(model, data_, rest_);
  std::array<Scalar, 2> length{Scalar(0), Scalar(0)};
  std::array<bool, 2> seen{false, false};
  arm_count_ = static_cast<int>(map_.arms.size());
  for (int a = 0; a < arm_count_; ++a) {
    const PicArmMap& src = map_.arms[static_cast<std::size_t>(a)];
    Arm& arm = arms_[static_cast<std::size_t>(a)];
    arm.side = src.side;
    arm.dof = static_cast<int>(src.fit_joints.size());
    for (int k = 0; k < arm.dof; ++k) arm.q[static_cast<std::size_t>(k)] = model.qIndex(src.fit_joints[static_cast<std::size_t>(k)]);
    arm.points = static_cast<int>(src.points.size());
    arm.elbow = src.elbow;
    for (int k = 0; k < arm.points; ++k) arm.joint[static_cast<std::size_t>(k)] = model.jointIndex(src.points[static_cast<std::size_t>(k)]);
    arm.chain.count = arm.points;
    for (int k = 0; k < arm.points; ++k) arm.chain.p[static_cast<std::size_t>(k)] = pointOf(arm.joint[static_cast<std::size_t>(k)]);
    arm.chain.setLengthsFromPoints();
    for (int k = 0; k + 1 < arm.points; ++k) {
      RETARGET_THROW_UNLESS(arm.chain.length[static_cast<std::size_t>(k)] > Scalar(1e-3), InvalidArgument, "PicMap '",
                            map_.robot, "'::arms[", a, "].points: '", src.points[static_cast<std::size_t>(k)], "' and '",
                            src.points[static_cast<std::size_t>(k + 1)], "' coincide (expected distinct positions)");
    }
    const int s = static_cast<int>(arm.side);
    length[static_cast<std::size_t>(s)] = arm.chain.reach();
    seen[static_cast<std::size_t>(s)] = true;
  }
  for (int s = 0; s < 2; ++s) {
    if (!seen[static_cast<std::size_t>(s)]) length[static_cast<std::size_t>(s)] = length[static_cast<std::size_t>(1 - s)];
  }
  placement_ = ArmPlacement<Scalar>(options_.placement, length[0], length[1]);
  clamped_ = JointFlags::Constant(model.nq(), false);
  held_ = JointFlags::Constant(model.nq(), false);
  q_out_ = rest_;
  q_solution_ = rest_;
  J_ = Matrix3X<Scalar>::Zero(3, model.nq());
  reset();
}

template <typename ScalarType>
void PicMapper<ScalarType>::reset() noexcept {
  smoothing_.reset();
  placement_.reset();
  q_out_ = rest_;
  q_solution_ = rest_;
  clamped_.setConstant(false);
  held_.setConstant(false);
  for (Arm& arm : arms_) {
    arm.has_key = false;
    arm.key = 0;
    arm.remaining = 0;
    arm.residual = Scalar(0);
    arm.fit_failed = false;
    arm.softened = false;
    arm.result = FabrikResult<Scalar>{};
    arm.has_previous_input = false;
  }
}

template <typename ScalarType>
void PicMapper<ScalarType>::chainAt(int a, const VectorX<Scalar>& q, FabrikChain<Scalar>& chain) noexcept {
  forwardKinematics(*model_, data_, q);
  const Arm& arm = arms_[static_cast<std::size_t>(a)];
  chain = arm.chain;
  for (int k = 0; k < arm.points; ++k) chain.p[static_cast<std::size_t>(k)] = pointOf(arm.joint[static_cast<std::size_t>(k)]);
}

template <typename ScalarType>
auto PicMapper<ScalarType>::pointOf(int k) const -> V3 {
  const Joint<Scalar>& joint = model_->joints()[static_cast<std::size_t>(k)];
  return (data_.X_WL[static_cast<std::size_t>(joint.parent_link)] * joint.X_PJ).translation();
}

template <typename ScalarType>
void PicMapper<ScalarType>::holdArm(const Arm& arm) {
  for (int k = 0; k < arm.dof; ++k) held_[arm.q[static_cast<std::size_t>(k)]] = true;
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL const char* toString(PicAlgorithm a) {
  switch (a) {
    case PicAlgorithm::kFabrik: return "fabrik";
    case PicAlgorithm::kPic: return "pic";
    case PicAlgorithm::kPics: return "pics";
  }
  return "unknown";
}

RETARGET_DECL FabrikConstraints picConstraints(const PicPose& pose, int points, int elbow, int softening) {
  FabrikConstraints c;
  const auto at = [](int i) { return static_cast<std::size_t>(i); };
  c.out[at(0)] = octantNeighbours(pose.out_shoulder, softening);
  c.in[at(elbow - 1)] = static_cast<OctantSet>(c.in[at(elbow - 1)] & octantNeighbours(pose.in_elbow, softening));
  c.out[at(elbow)] = static_cast<OctantSet>(c.out[at(elbow)] & octantNeighbours(pose.out_elbow, softening));
  c.in[at(points - 2)] = static_cast<OctantSet>(c.in[at(points - 2)] & octantNeighbours(pose.in_wrist, softening));
  return c;
}

RETARGET_DECL void PicOptions::validate() const {
  RETARGET_THROW_UNLESS(softening >= 0 && softening <= 3, InvalidArgument, "PicOptions::softening (got ", softening,
                        ", expected 0..3)");
  fabrik.validate();
  RETARGET_THROW_UNLESS(fit_iterations >= 1 && fit_iterations <= 100, InvalidArgument,
                        "PicOptions::fit_iterations (got ", fit_iterations, ", expected 1..100)");
  RETARGET_THROW_UNLESS(std::isfinite(fit_damping) && fit_damping > 0.0, InvalidArgument,
                        "PicOptions::fit_damping (got ", fit_damping, ", expected a finite value > 0 m)");
  RETARGET_THROW_UNLESS(std::isfinite(max_fit_residual) && max_fit_residual > 0.0, InvalidArgument,
                        "PicOptions::max_fit_residual (got ", max_fit_residual, ", expected a finite value > 0 m)");
  RETARGET_THROW_UNLESS(std::isfinite(fit_elbow_weight) && fit_elbow_weight > 0.0 && fit_elbow_weight <= 1.0,
                        InvalidArgument, "PicOptions::fit_elbow_weight (got ", fit_elbow_weight,
                        ", expected a value in (0, 1])");
  SkeletonSmoothingOptions{smoothing_alpha}.validate();
  placement.validate();
  RETARGET_THROW_UNLESS(std::isfinite(continuity_weight) && continuity_weight >= 0.0, InvalidArgument,
                        "PicOptions::continuity_weight (got ", continuity_weight, ", expected a finite value >= 0)");
  RETARGET_THROW_UNLESS(std::isfinite(continuity_gain) && continuity_gain >= 0.0, InvalidArgument,
                        "PicOptions::continuity_gain (got ", continuity_gain, ", expected a finite value >= 0)");
  RETARGET_THROW_UNLESS(transition_frames >= 0 && transition_frames <= 1000, InvalidArgument,
                        "PicOptions::transition_frames (got ", transition_frames, ", expected 0..1000)");
  for (std::size_t i = 0; i < rest.size(); ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(rest[i]), InvalidArgument, "PicOptions::rest[", i, "] (got ", rest[i],
                          ", expected a finite value)");
  }
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class PicMapper<double>;
RETARGET_TEMPLATE_MAPPERS class PicMapper<float>;
#endif

}  // namespace retarget
