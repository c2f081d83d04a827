#pragma once

/// @file
/// Self-collision avoidance (seed 001, Section 2.2.2, Eq. 10): the collision-free configuration
/// closest to the mapped one,
///
///   minimise  e = sum_i (q_mimic,i - q_i)^2
///   subject to  d_kj(q) >= margin  for every checked pair (Eq. 9 with a clearance margin),
///               lower <= q <= upper,
///
/// solved with NLopt. Optional part: target `retarget::avoidance` (needs NLopt), never included
/// by retarget/retarget.hpp. A stage composed after any mapper (`apply(q_mimic, q_out)`).
///
/// Solvers (`AvoidanceOptions::solver`):
///  - kSlsqp (default): NLopt's SLSQP with analytic gradients of the distances (the witness
///    normal through the point Jacobians, SelfCollisionChecker::gradient).
///  - kCobyla: NLopt's COBYLA, derivative-free, as in the paper (kept as the reference).
///
/// Per frame:
///  - a configuration whose every pair is at least `margin` apart passes through unchanged
///    (bit-identical) with an empty status;
///  - otherwise the solver starts from q_mimic (clamped to the limits; the answer then depends on
///    this frame alone, not on the path that led to it) and, if that fails, again from the
///    previous frame's output (warm start); when a result is collision-free with margin (within
///    `feasibility_tolerance`) and within limits, that result is the output with
///    kCollisionAvoided (plus kNotConverged when the evaluation budget ran out first); a result
///    that stopped with slack (every pair farther than margin + feasibility_tolerance) is first
///    slid towards q_mimic along the straight line while collision-free (20 bisection steps),
///    which can only lower the objective;
///  - when the solver fails (infeasible result, error), the output is the last collision-free
///    output (the `safe_configuration` before the first one) with
///    kCollisionAvoided | kNotConverged.
///
/// Allocation: everything this class owns is allocated in the constructor; `apply()` itself
/// allocates nothing, but NLopt's `nlopt_optimize` allocates its work arrays on every call
/// (measured by tests/safety with a counting malloc on Tangy: 1 block per SLSQP solve, 7 per
/// COBYLA solve; a frame runs up to 4 solves: nearest pairs then all pairs, from q_mimic then
/// from the previous output; all freed before it returns). That is
/// the documented allocation exception of the mapper contract (mappers/mapper.hpp,
/// docs/mapper_contract.md). Frames that are already collision-free never call NLopt and
/// allocate nothing.

#include <nlopt.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <type_traits>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/safety/self_collision.hpp>

namespace retarget {

/// Options of `CollisionAvoidance` (validated aggregate). The margin is the collision model's.
struct AvoidanceOptions {
  /// The NLopt algorithm.
  enum class Solver { kSlsqp, kCobyla };
  Solver solver = Solver::kSlsqp;
  /// Most objective evaluations per frame (> 0).
  int max_evaluations = 500;
  /// Stop when every joint moves less than this between iterations (rad, > 0).
  double x_tolerance = 1e-7;
  /// Relative objective change that stops the solver (>= 0).
  double f_tolerance = 1e-10;
  /// A solution may violate the margin by this much and still count as collision-free (m, >= 0).
  double feasibility_tolerance = 1e-6;
  /// How far NLopt may let a pair's distance fall below the margin and still record the iterate
  /// as feasible (m, 0 <= value <= feasibility_tolerance). Not 0: with 0, SLSQP's iterates that
  /// sit on a constraint to within round-off (1e-12 m) are discarded and NLopt returns an earlier,
  /// worse iterate (seen on 1 of the 181 colliding fold-arms frames, objective +0.4 %).
  double constraint_tolerance = 1e-9;
  /// SLSQP only: the solver first sees the `active_pairs` pairs closest at q_mimic (fewer
  /// constraints, a smaller QP per iteration); every pair is checked on its result, and when one
  /// is violated the frame is solved again with all pairs. 0: always all pairs.
  int active_pairs = 20;
  /// COBYLA's initial step (rad, > 0).
  double cobyla_initial_step = 0.05;
  /// Fallback output before the first collision-free frame (rad, size nq). Empty: the neutral
  /// configuration when it is collision-free, else the collision-free configuration nearest to
  /// it among seeded random samples.
  std::vector<double> safe_configuration{};
  /// Points whose speed `applyWithin()` bounds (hands, elbows; frame of their link, m). Empty:
  /// `applyWithin()` bounds joint steps only.
  std::vector<LinkPoint> speed_points{};

  void validate() const {
    RETARGET_THROW_UNLESS(active_pairs >= 0, InvalidArgument, "AvoidanceOptions::active_pairs (got ", active_pairs,
                          ", expected >= 0)");
    RETARGET_THROW_UNLESS(max_evaluations > 0, InvalidArgument, "AvoidanceOptions::max_evaluations (got ",
                          max_evaluations, ", expected > 0)");
    RETARGET_THROW_UNLESS(std::isfinite(x_tolerance) && x_tolerance > 0, InvalidArgument,
                          "AvoidanceOptions::x_tolerance (got ", x_tolerance, ", expected > 0 rad)");
    RETARGET_THROW_UNLESS(std::isfinite(f_tolerance) && f_tolerance >= 0, InvalidArgument,
                          "AvoidanceOptions::f_tolerance (got ", f_tolerance, ", expected >= 0)");
    RETARGET_THROW_UNLESS(std::isfinite(feasibility_tolerance) && feasibility_tolerance >= 0, InvalidArgument,
                          "AvoidanceOptions::feasibility_tolerance (got ", feasibility_tolerance, ", expected >= 0 m)");
    RETARGET_THROW_UNLESS(std::isfinite(constraint_tolerance) && constraint_tolerance >= 0 &&
                              constraint_tolerance <= feasibility_tolerance,
                          InvalidArgument, "AvoidanceOptions::constraint_tolerance (got ", constraint_tolerance,
                          ", expected 0 <= value <= feasibility_tolerance = ", feasibility_tolerance, " m)");
    RETARGET_THROW_UNLESS(std::isfinite(cobyla_initial_step) && cobyla_initial_step > 0, InvalidArgument,
                          "AvoidanceOptions::cobyla_initial_step (got ", cobyla_initial_step, ", expected > 0 rad)");
    for (std::size_t i = 0; i < safe_configuration.size(); ++i) {
      RETARGET_THROW_UNLESS(std::isfinite(safe_configuration[i]), InvalidArgument,
                            "AvoidanceOptions::safe_configuration[", i, "] (got ", safe_configuration[i],
                            ", expected a finite value)");
    }
    for (std::size_t i = 0; i < speed_points.size(); ++i) {
      RETARGET_THROW_UNLESS(speed_points[i].p_L.allFinite(), InvalidArgument, "AvoidanceOptions::speed_points[", i,
                            "].p_L (got a non-finite vector)");
    }
  }
};

/// "slsqp" / "cobyla".
inline const char* toString(AvoidanceOptions::Solver solver) {
  return solver == AvoidanceOptions::Solver::kSlsqp ? "slsqp" : "cobyla";
}

/// What the last `apply()` did.
struct AvoidanceStats {
  bool solved = false;       ///< the solver ran this frame
  int evaluations = 0;       ///< objective evaluations (NLopt iterations)
  double objective = 0;      ///< e = |q_out - q_mimic|^2 (rad^2) of the output
  double min_distance_in = 0;   ///< smallest pair distance of the input (m)
  double min_distance_out = 0;  ///< smallest pair distance of the output (m)
  int nlopt_result = 0;      ///< nlopt_result code of the last solve
  /// Which start gave the output when solved: 0 the frame's own target (q_mimic / q_target),
  /// 1 the previous output (after the first start failed), -1 none (fallback or not solved).
  int start = -1;
};

namespace internal {

/// `retarget::CollisionAvoidance` (below) is this template for `void`: a template only so that its
/// member functions (the solver set-up, NLopt's callbacks, the forward kinematics and Jacobians
/// they use) are compiled where a program uses them, not in every translation unit that includes
/// this header. An optional part (NLopt), outside the compiled part: a template in both modes.
template <typename Lazy>
class CollisionAvoidance {
 public:
  /// Throws InvalidArgument for invalid options, a safe configuration of the wrong size, outside
  /// the limits or in collision, or when no collision-free configuration can be found; Error
  /// when NLopt cannot create the solver.
  explicit CollisionAvoidance(const SelfCollisionModel<double>& collision, AvoidanceOptions options = {})
      : collision_(&collision),
        options_(std::move(options)),
        checker_(collision),
        nq_(collision.model().nq()),
        gradient_(1, collision.model().nq()) {
    options_.validate();
    const auto& model = collision.model();
    lower_.assign(model.lowerLimits().data(), model.lowerLimits().data() + nq_);
    upper_.assign(model.upperLimits().data(), model.upperLimits().data() + nq_);
    for (int i = 0; i < nq_; ++i) {
      if (!std::isfinite(lower_[static_cast<std::size_t>(i)])) lower_[static_cast<std::size_t>(i)] = -HUGE_VAL;
      if (!std::isfinite(upper_[static_cast<std::size_t>(i)])) upper_[static_cast<std::size_t>(i)] = HUGE_VAL;
    }
    x_.resize(static_cast<std::size_t>(nq_));
    mimic_ = Eigen::VectorXd::Zero(nq_);
    candidate_ = Eigen::VectorXd::Zero(nq_);
    tolerances_.assign(collision.pairs().size(), options_.constraint_tolerance);
    safe_ = findSafeConfiguration();
    const nlopt_algorithm algorithm =
        options_.solver == AvoidanceOptions::Solver::kSlsqp ? NLOPT_LD_SLSQP : NLOPT_LN_COBYLA;
    const int pairs = static_cast<int>(collision.pairs().size());
    all_.resize(static_cast<std::size_t>(pairs));
    for (int k = 0; k < pairs; ++k) all_[static_cast<std::size_t>(k)] = k;
    order_ = all_;
    int reduced = pairs;
    if (algorithm == NLOPT_LD_SLSQP && options_.active_pairs > 0) reduced = std::min(options_.active_pairs, pairs);
    active_.assign(static_cast<std::size_t>(reduced), 0);
    opt_full_.reset(makeOptimizer(algorithm, static_cast<unsigned>(pairs)));
    if (reduced < pairs) opt_reduced_.reset(makeOptimizer(algorithm, static_cast<unsigned>(reduced)));
    for (const LinkPoint& point : options_.speed_points) {
      point_links_.push_back(model.linkIndex(point.link));
      p_L_.push_back(point.p_L);
    }
    p_W_previous_.resize(p_L_.size());
    frame_lower_ = lower_;
    frame_upper_ = upper_;
    step_tolerances_.assign(static_cast<std::size_t>(pairs) + p_L_.size(), options_.constraint_tolerance);
    opt_step_.reset(makeOptimizer(algorithm, static_cast<unsigned>(step_tolerances_.size()), &CollisionAvoidance::stepConstraints,
                                  step_tolerances_.data()));
    reset();
  }
  CollisionAvoidance(const SelfCollisionModel<double>&&, AvoidanceOptions = {}) = delete;

  /// The collision-free configuration closest to `q_mimic` (size nq, rad), written to `q_out`
  /// (may alias nothing else; size nq). Never throws; see the file doc for statuses and
  /// allocation. kInvalidInput (q_out = last safe output) for wrong sizes or non-finite input.
  [[nodiscard]] Status apply(const Eigen::Ref<const Eigen::VectorXd>& q_mimic, Eigen::Ref<Eigen::VectorXd> q_out) noexcept {
    stats_ = AvoidanceStats{};
    if (q_out.size() != nq_) return StatusCode::kInvalidInput;
    if (q_mimic.size() != nq_ || !q_mimic.allFinite()) {
      q_out = last_safe_;
      return StatusCode::kInvalidInput;
    }
    const double margin = collision_->margin();
    checker_.update(q_mimic);
    stats_.min_distance_in = checker_.minDistance();
    if (!(stats_.min_distance_in < margin)) {  // collision-free: unchanged
      q_out = q_mimic;
      last_safe_ = q_mimic;
      has_previous_ = true;
      stats_.min_distance_out = stats_.min_distance_in;
      return Status{};
    }
    mimic_ = q_mimic;
    evaluations_ = 0;
    const Eigen::Map<const Eigen::VectorXd> x(x_.data(), nq_);
    // NLOPT_ROUNDOFF_LIMITED: SLSQP could not improve further in floating point; its iterate
    // is used when it passes the same feasibility check as any other (on every pair).
    const auto acceptable = [&](nlopt_result r) {
      if (!((r > 0 || r == NLOPT_ROUNDOFF_LIMITED) && x.allFinite() && withinLimits(collision_->model(), x, 1e-12))) {
        return false;
      }
      checker_.update(x);
      return checker_.minDistance() >= margin - options_.feasibility_tolerance;
    };
    if (opt_reduced_) {  // the pairs closest at q_mimic first (checker_ holds q_mimic)
      std::partial_sort(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(active_.size()), order_.end(),
                        [this](int a, int b) {
                          return checker_.result(static_cast<std::size_t>(a)).distance <
                                 checker_.result(static_cast<std::size_t>(b)).distance;
                        });
      std::copy(order_.begin(), order_.begin() + static_cast<std::ptrdiff_t>(active_.size()), active_.begin());
    }
    nlopt_result result = NLOPT_FAILURE;
    bool good = false;
    // From q_mimic first (the answer then depends on this frame alone), then, if that fails, from
    // the previous output (warm start).
    for (int attempt = 0; attempt < (has_previous_ ? 2 : 1) && !good; ++attempt) {
      const Eigen::VectorXd& start = attempt == 0 ? mimic_ : last_safe_;
      stats_.start = attempt;
      if (opt_reduced_) {
        startAt(start, lower_, upper_);
        result = solve(opt_reduced_.get(), active_.data());
        good = acceptable(result);
      }
      if (!good) {  // a pair left out came too close (or the solve failed): all pairs, same start
        startAt(start, lower_, upper_);
        result = solve(opt_full_.get(), all_.data());
        good = acceptable(result);
      }
    }
    stats_.solved = true;
    stats_.evaluations = evaluations_;
    stats_.nlopt_result = static_cast<int>(result);
    Status status = StatusCode::kCollisionAvoided;
    if (good) slideTowardsMimic();
    if (good) {
      q_out = x.cwiseMax(collision_->model().lowerLimits()).cwiseMin(collision_->model().upperLimits());
      last_safe_ = q_out;
      if (result == NLOPT_MAXEVAL_REACHED || result == NLOPT_MAXTIME_REACHED) status |= StatusCode::kNotConverged;
    } else {
      q_out = last_safe_;
      status |= StatusCode::kNotConverged;
      stats_.start = -1;
    }
    has_previous_ = true;
    stats_.objective = (q_out - q_mimic).squaredNorm();
    if (!good) checker_.update(q_out);  // when good, checker_ already holds x = q_out
    stats_.min_distance_out = checker_.minDistance();
    return status;
  }

  /// The safety pipeline's last step (safety/safety_pipeline.hpp): the configuration closest to
  /// `q_target` (Eq. 10's objective, rad) that is collision-free with margin AND reachable from
  /// `q_prev` within one frame: every joint moves at most `max_joint_step` (rad) and every
  /// `AvoidanceOptions::speed_points` point at most `max_point_step` (m, straight-line distance
  /// between its positions at q_prev and q) — one program, the speed limits as its bounds and
  /// constraints, so that no filter after it can undo the clearance. Infinity (or <= 0) turns a
  /// step limit off. Solved from q_target clamped into the step box, then, if that fails, from
  /// q_prev (feasible whenever q_prev is collision-free). Every result is checked on every pair,
  /// joint and point; when none passes, the output is q_prev (it meets the step limits exactly)
  /// with kCollisionAvoided | kNotConverged. An input that already meets everything passes
  /// through unchanged with an empty status. kInvalidInput (q_out = q_prev when it has the
  /// right size) for wrong sizes or non-finite values. Never throws; allocation as apply().
  [[nodiscard]] Status applyWithin(const Eigen::Ref<const Eigen::VectorXd>& q_target,
                                   const Eigen::Ref<const Eigen::VectorXd>& q_prev, double max_joint_step,
                                   double max_point_step, Eigen::Ref<Eigen::VectorXd> q_out) noexcept {
    stats_ = AvoidanceStats{};
    if (q_out.size() != nq_ || q_prev.size() != nq_ || !q_prev.allFinite()) return StatusCode::kInvalidInput;
    if (q_target.size() != nq_ || !q_target.allFinite()) {
      q_out = q_prev;
      return StatusCode::kInvalidInput;
    }
    const bool joint_limited = max_joint_step > 0 && std::isfinite(max_joint_step);
    point_step_ = max_point_step > 0 && !p_L_.empty() ? max_point_step : HUGE_VAL;
    for (int i = 0; i < nq_; ++i) {
      const auto k = static_cast<std::size_t>(i);
      double lo = lower_[k], hi = upper_[k];
      if (joint_limited) {
        lo = std::max(lo, q_prev[i] - max_joint_step);
        hi = std::min(hi, q_prev[i] + max_joint_step);
      }
      if (lo > hi) lo = hi = std::min(std::max(q_prev[i], lower_[k]), upper_[k]);  // q_prev outside the limits
      frame_lower_[k] = lo;
      frame_upper_[k] = hi;
    }
    if (std::isfinite(point_step_)) {
      forwardKinematics(collision_->model(), previous_data_, q_prev);
      for (std::size_t k = 0; k < p_L_.size(); ++k) {
        p_W_previous_[k] = previous_data_.X_WL[static_cast<std::size_t>(point_links_[k])] * p_L_[k];
      }
    }
    const double margin = collision_->margin();
    mimic_ = q_target;
    const Eigen::Map<const Eigen::VectorXd> x(x_.data(), nq_);
    checker_.update(q_target);
    stats_.min_distance_in = checker_.minDistance();
    const auto meetsAll = [&](const auto& q, double distance_slack) {
      for (int i = 0; i < nq_; ++i) {
        const auto k = static_cast<std::size_t>(i);
        if (!(q[i] >= frame_lower_[k] - 1e-12 && q[i] <= frame_upper_[k] + 1e-12)) return false;
      }
      checker_.update(q);  // its forward kinematics serve the points too
      return pointsWithinStep() && checker_.minDistance() >= margin - distance_slack;
    };
    if (meetsAll(q_target, 0.0)) {
      q_out = q_target;
      stats_.min_distance_out = checker_.minDistance();
      return Status{};
    }
    nlopt_set_lower_bounds(opt_step_.get(), frame_lower_.data());
    nlopt_set_upper_bounds(opt_step_.get(), frame_upper_.data());
    evaluations_ = 0;
    nlopt_result result = NLOPT_FAILURE;
    bool good = false;
    for (int attempt = 0; attempt < 2 && !good; ++attempt) {
      const auto& start = attempt == 0 ? q_target : q_prev;
      stats_.start = attempt;
      startAt(start, frame_lower_, frame_upper_);
      double f = 0;
      result = nlopt_optimize(opt_step_.get(), x_.data(), &f);
      good = (result > 0 || result == NLOPT_ROUNDOFF_LIMITED) && x.allFinite() &&
             meetsAll(x, options_.feasibility_tolerance);
    }
    stats_.solved = true;
    stats_.evaluations = evaluations_;
    stats_.nlopt_result = static_cast<int>(result);
    Status status = StatusCode::kCollisionAvoided;
    if (good) {
      for (int i = 0; i < nq_; ++i) {
        const auto k = static_cast<std::size_t>(i);
        q_out[i] = std::min(std::max(x[i], frame_lower_[k]), frame_upper_[k]);
      }
      if (result == NLOPT_MAXEVAL_REACHED || result == NLOPT_MAXTIME_REACHED) status |= StatusCode::kNotConverged;
    } else {
      q_out = q_prev;
      status |= StatusCode::kNotConverged;
      stats_.start = -1;
    }
    last_safe_ = q_out;
    has_previous_ = true;
    stats_.objective = (q_out - q_target).squaredNorm();
    checker_.update(q_out);
    stats_.min_distance_out = checker_.minDistance();
    return status;
  }

  /// Forgets the previous frame (warm start and fallback go back to the safe configuration).
  void reset() noexcept {
    last_safe_ = safe_;
    has_previous_ = false;
    stats_ = AvoidanceStats{};
  }

  /// What the last `apply()` did.
  const AvoidanceStats& stats() const noexcept { return stats_; }
  const AvoidanceOptions& options() const noexcept { return options_; }
  const SelfCollisionModel<double>& collisionModel() const noexcept { return *collision_; }
  /// The fallback configuration used before the first collision-free frame.
  const Eigen::VectorXd& safeConfiguration() const noexcept { return safe_; }

 private:
  struct Destroy {
    void operator()(nlopt_opt opt) const { nlopt_destroy(opt); }
  };

  // When x_ is collision-free with slack (every pair farther than margin + feasibility
  // tolerance; the solver stopped inside the feasible set), slides it towards q_mimic along the
  // straight line while collision-free (bisection): the objective only decreases.
  void slideTowardsMimic() {
    const double margin = collision_->margin();
    const Eigen::Map<const Eigen::VectorXd> x(x_.data(), nq_);
    // checker_ holds x (apply's feasibility check) and holds x again on return.
    if (!(checker_.minDistance() > margin + options_.feasibility_tolerance)) return;
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 20; ++i) {
      const double t = 0.5 * (lo + hi);
      candidate_ = x + t * (mimic_ - x);
      checker_.update(candidate_);
      (checker_.minDistance() >= margin ? lo : hi) = t;
    }
    for (int i = 0; i < nq_; ++i) x_[static_cast<std::size_t>(i)] += lo * (mimic_[i] - x_[static_cast<std::size_t>(i)]);
    checker_.update(x);
  }

  // The solver's start x_: `start` clamped into [lo, hi] joint by joint.
  void startAt(const Eigen::Ref<const Eigen::VectorXd>& start, const std::vector<double>& lo,
               const std::vector<double>& hi) {
    for (int i = 0; i < nq_; ++i) {
      const auto k = static_cast<std::size_t>(i);
      x_[k] = std::min(std::max(start[i], lo[k]), hi[k]);
    }
  }

  nlopt_opt makeOptimizer(nlopt_algorithm algorithm, unsigned m, nlopt_mfunc constraint = &CollisionAvoidance::constraints,
                          const double* tolerances = nullptr) {
    nlopt_opt opt = nlopt_create(algorithm, static_cast<unsigned>(nq_));
    RETARGET_THROW_UNLESS(opt != nullptr, Error, "CollisionAvoidance: nlopt_create failed");
    nlopt_set_min_objective(opt, &CollisionAvoidance::objective, this);
    if (m > 0) nlopt_add_inequality_mconstraint(opt, m, constraint, this, tolerances ? tolerances : tolerances_.data());
    nlopt_set_lower_bounds(opt, lower_.data());
    nlopt_set_upper_bounds(opt, upper_.data());
    nlopt_set_xtol_abs1(opt, options_.x_tolerance);
    nlopt_set_ftol_rel(opt, options_.f_tolerance);
    nlopt_set_maxeval(opt, options_.max_evaluations);
    if (algorithm == NLOPT_LN_COBYLA) nlopt_set_initial_step1(opt, options_.cobyla_initial_step);
    return opt;
  }

  // Solves from x_ (in place) with constraints on the pairs `pairs` (m of them).
  nlopt_result solve(nlopt_opt opt, const int* pairs) {
    constrained_ = pairs;
    double f = 0;
    return nlopt_optimize(opt, x_.data(), &f);
  }

  static double objective(unsigned n, const double* x, double* grad, void* data) {
    auto* self = static_cast<CollisionAvoidance*>(data);
    ++self->evaluations_;
    const Eigen::Map<const Eigen::VectorXd> q(x, static_cast<Eigen::Index>(n));
    if (grad != nullptr) Eigen::Map<Eigen::VectorXd>(grad, static_cast<Eigen::Index>(n)) = 2.0 * (q - self->mimic_);
    return (q - self->mimic_).squaredNorm();
  }

  // c_k(q) = margin - d_k(q) <= 0; grad row k = -d d_k / dq.
  static void constraints(unsigned m, double* result, unsigned n, const double* x, double* grad, void* data) {
    auto* self = static_cast<CollisionAvoidance*>(data);
    const Eigen::Map<const Eigen::VectorXd> q(x, static_cast<Eigen::Index>(n));
    self->checker_.updatePairs(q, self->constrained_, m);
    const double margin = self->collision_->margin();
    for (unsigned i = 0; i < m; ++i) {
      const auto k = static_cast<std::size_t>(self->constrained_[i]);
      result[i] = margin - self->checker_.result(k).distance;
      if (grad != nullptr) {
        self->checker_.gradient(k, self->gradient_);
        for (unsigned j = 0; j < n; ++j) grad[i * n + j] = -self->gradient_(0, static_cast<Eigen::Index>(j));
      }
    }
  }

  // applyWithin's constraints: every pair (as constraints()), then one per speed point,
  // c = (|p(q) - p_prev|^2 - step^2) / (2 step) <= 0 (m; smooth at p = p_prev, unlike the
  // distance itself), gradient (p - p_prev)^T J_p / step.
  static void stepConstraints(unsigned m, double* result, unsigned n, const double* x, double* grad, void* data) {
    auto* self = static_cast<CollisionAvoidance*>(data);
    const unsigned pairs = static_cast<unsigned>(self->all_.size());
    self->constrained_ = self->all_.data();
    constraints(pairs, result, n, x, grad, data);
    if (m == pairs) return;
    // constraints() has just run the checker's forward kinematics at x: the points use them.
    const auto& model = self->collision_->model();
    const RobotData<double>& kinematics = self->checker_.data();
    // A step 1 ppm shorter than the limit: NLopt may leave a constraint violated by its
    // tolerance (1e-9 m), more than pointsWithinStep's relative 1e-9 allows at 8 mm per frame.
    const double step = self->point_step_ * (1.0 - 1e-6);
    for (unsigned k = 0; k < m - pairs; ++k) {
      const int link = self->point_links_[k];
      const Eigen::Vector3d d = kinematics.X_WL[static_cast<std::size_t>(link)] * self->p_L_[k] - self->p_W_previous_[k];
      double* row_result = result + pairs + k;
      if (!std::isfinite(step)) {  // no point limit this frame: an inactive constraint
        *row_result = -1.0;
        if (grad != nullptr) std::fill(grad + (pairs + k) * n, grad + (pairs + k + 1) * n, 0.0);
        continue;
      }
      *row_result = (d.squaredNorm() - step * step) / (2.0 * step);
      if (grad != nullptr) {
        pointJacobian(model, kinematics, link, self->p_L_[k], self->point_jacobian_);
        Eigen::Map<Eigen::RowVectorXd>(grad + (pairs + k) * n, static_cast<Eigen::Index>(n)) =
            d.transpose() * self->point_jacobian_ / step;
      }
    }
  }

  // True when every speed point of the configuration checker_ holds is within point_step_ of its
  // position at q_prev (with a relative round-off allowance of 1e-9).
  bool pointsWithinStep() const {
    if (!std::isfinite(point_step_)) return true;
    for (std::size_t k = 0; k < p_L_.size(); ++k) {
      const Eigen::Vector3d p = checker_.data().X_WL[static_cast<std::size_t>(point_links_[k])] * p_L_[k];
      if ((p - p_W_previous_[k]).norm() > point_step_ * (1.0 + 1e-9)) return false;
    }
    return true;
  }

  Eigen::VectorXd findSafeConfiguration() {
    const auto& model = collision_->model();
    const double margin = collision_->margin();
    if (!options_.safe_configuration.empty()) {
      RETARGET_THROW_UNLESS(static_cast<int>(options_.safe_configuration.size()) == nq_, InvalidArgument,
                            "AvoidanceOptions::safe_configuration (got ", options_.safe_configuration.size(),
                            " values, expected nq = ", nq_, ")");
      const Eigen::VectorXd q = Eigen::Map<const Eigen::VectorXd>(options_.safe_configuration.data(), nq_);
      RETARGET_THROW_UNLESS(withinLimits(model, q), InvalidArgument,
                            "AvoidanceOptions::safe_configuration (got a configuration outside the limits)");
      checker_.update(q);
      RETARGET_THROW_UNLESS(checker_.minDistance() >= margin, InvalidArgument,
                            "AvoidanceOptions::safe_configuration (got a configuration in collision: smallest distance ",
                            checker_.minDistance(), " m, expected >= margin ", margin, " m)");
      return q;
    }
    const Eigen::VectorXd neutral = model.neutralConfiguration();
    checker_.update(neutral);
    if (checker_.minDistance() >= margin) return neutral;
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    Eigen::VectorXd best = neutral, q(nq_);
    double best_distance = std::numeric_limits<double>::infinity();
    for (int s = 0; s < 20000; ++s) {
      const double scale = 0.05 + 0.95 * s / 20000.0;  // widen around neutral
      for (int i = 0; i < nq_; ++i) {
        double lo = model.lowerLimits()[i], hi = model.upperLimits()[i];
        if (!std::isfinite(lo)) lo = -kPi<double>;
        if (!std::isfinite(hi)) hi = kPi<double>;
        const double v = neutral[i] + scale * (lo + (hi - lo) * unit(rng) - neutral[i]);
        q[i] = std::min(std::max(v, lo), hi);
      }
      const double d = (q - neutral).squaredNorm();
      if (d >= best_distance) continue;
      checker_.update(q);
      if (checker_.minDistance() >= margin) {
        best = q;
        best_distance = d;
      }
    }
    RETARGET_THROW_UNLESS(std::isfinite(best_distance), InvalidArgument, "CollisionAvoidance: robot '", model.name(),
                          "' has no collision-free configuration among 20000 samples (margin ", margin,
                          " m); give AvoidanceOptions::safe_configuration");
    return best;
  }

  const SelfCollisionModel<double>* collision_;
  AvoidanceOptions options_;
  SelfCollisionChecker<double> checker_;
  int nq_;
  Eigen::RowVectorXd gradient_;
  std::vector<double> lower_, upper_, x_, tolerances_;
  Eigen::VectorXd mimic_, safe_, last_safe_, candidate_;
  bool has_previous_ = false;
  int evaluations_ = 0;
  AvoidanceStats stats_{};
  std::vector<int> all_, order_, active_;
  const int* constrained_ = nullptr;
  std::unique_ptr<std::remove_pointer_t<nlopt_opt>, Destroy> opt_full_, opt_reduced_, opt_step_;
  // applyWithin(): the speed points, their positions at q_prev (frame W, m), this frame's joint
  // box and point step; the forward kinematics at q_prev and the points' Jacobian.
  RobotData<double> previous_data_{collision_->model()};
  std::vector<int> point_links_;
  std::vector<Eigen::Vector3d> p_L_, p_W_previous_;
  std::vector<double> frame_lower_, frame_upper_, step_tolerances_;
  double point_step_ = HUGE_VAL;
  Eigen::Matrix3Xd point_jacobian_{3, nq_};
};

}  // namespace internal

/// Self-collision avoidance stage (see the file doc). Double precision (NLopt). Keeps a
/// reference to the collision model (and through it the robot model). One per thread.
using CollisionAvoidance = internal::CollisionAvoidance<void>;

}  // namespace retarget
