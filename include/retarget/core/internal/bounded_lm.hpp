#pragma once

/// @file
/// The library's one bounded Levenberg-Marquardt search: the local minimum of a smooth cost
/// within a box of bounds, from a start inside it. Every least-squares fit of the library runs
/// through `boundedLevenbergMarquardt(problem, options)`: GA-LVVJ's arm refinement and leg fit
/// (Newton steps on the exact Hessian), the humanoid mapper's fixed-base fit and its floating
/// base's (Gauss-Newton), and the best reachable similarity's per-link fits (Gauss-Newton on
/// finite differences).
///
/// What is shared, here and only here:
///  - the active set: a coordinate on a bound whose descent direction points out of the box is
///    held there for the step (`heldAtBound`);
///  - the damping schedule: the damping lambda starts at `initial_damping`, is multiplied by
///    `shrink` (down to `min_damping`) after a taken step and by `grow` after a refused one or
///    when the damped matrix is not positive definite;
///  - the acceptance rule: a step is taken when it lowers the cost (or keeps it, with
///    `take_equal`), or when it is shorter than `trusted_step` (the cost's rounding hides its gain);
///  - the stopping rules: no coordinate left to move, a step no longer than `final_step` (taken
///    without evaluating the cost), a taken step that lowered the cost by at most
///    `relative_decrease` max(1, cost) or was no longer than `step_tolerance`, a refused step no
///    longer than `step_tolerance` or whose model promised less than `promise_floor` max(1, cost),
///    `max_steps` taken steps, `max_evaluations` evaluations, `max_refusals` refusals in a row,
///    the damping above `max_damping`, or (with `not_positive_ends`) a damped matrix that is not
///    positive definite.
/// What a problem supplies (its linear algebra knows its sparsity, its update its manifold):
///
///     LmStep solve(Scalar lambda);  // the damped step over the free coordinates, and its trial
///                                   // point; kNothingFree, kNotPositive or kReady
///     Scalar stepSize() const;      // the length the stopping rules read (rad, m: the problem's)
///     Scalar tryStep();             // the cost at the trial point (not finite: refused)
///     void accept();                // the trial point becomes the current one
///     void reject();                // the trial point is dropped
///     void takeUnevaluated();       // the trial point becomes current, its cost never evaluated
///     Scalar promisedDecrease();    // the model's decrease for the last refused step (read only
///                                   // when promise_floor is set)
///
/// Never allocates, never throws; the problem keeps its own workspace.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>

#include <Eigen/Core>

#include <retarget/core/internal/small_cholesky.hpp>

namespace retarget::internal {

/// The schedule and stopping rules of one search (see the file doc; each problem's constants are
/// documented where it sets them).
struct LmOptions {
  double initial_damping = 1e-3;
  double shrink = 1.0 / 3.0;  ///< damping factor after a taken step (< 1)
  double grow = 4.0;          ///< damping factor after a refused step (> 1)
  double min_damping = 1e-9;
  double max_damping = std::numeric_limits<double>::infinity();
  int max_steps = std::numeric_limits<int>::max();
  int max_evaluations = std::numeric_limits<int>::max();
  int max_refusals = std::numeric_limits<int>::max();
  bool take_equal = false;
  /// A damped matrix that is not positive definite ends the search (unconverged) instead of
  /// raising the damping: for a Gauss-Newton matrix, positive semidefinite by construction, it
  /// means rounding at the minimum, where more damping only costs evaluations.
  bool not_positive_ends = false;
  std::optional<double> trusted_step{};
  std::optional<double> final_step{};
  std::optional<double> relative_decrease{};
  std::optional<double> step_tolerance{};
  std::optional<double> promise_floor{};
};

/// What a problem's `solve` found.
enum class LmStep {
  kNothingFree,  ///< no coordinate can move (or the gradient vanished): the search is done
  kNotPositive,  ///< the damped matrix is not positive definite: more damping
  kReady,        ///< a step and its trial point are ready
};

/// How a search ended.
template <typename Scalar>
struct LmOutcome {
  bool converged = false;  ///< a stopping rule of convergence ended it (not a budget or the damping)
  int evaluations = 0;     ///< costs evaluated (trial points)
  int steps = 0;           ///< steps taken
  Scalar cost = 0;         ///< the cost at the final point (its last evaluation; the entry cost when
                           ///< the last step was taken unevaluated)
};

/// True when coordinate x with bounds [lo, hi] and gradient g sits on a bound that the descent
/// direction -g points out of (within `span` of it): the active set's rule.
template <typename Scalar>
bool heldAtBound(Scalar x, Scalar lo, Scalar hi, Scalar g, Scalar span = Scalar(0)) {
  return (x <= lo + span && g > Scalar(0)) || (x >= hi - span && g < Scalar(0));
}

/// The search (see the file doc): from the problem's current point, whose cost is `cost`.
template <typename Scalar, typename Problem>
LmOutcome<Scalar> boundedLevenbergMarquardt(Problem& problem, Scalar cost, const LmOptions& options) {
  LmOutcome<Scalar> out;
  Scalar lambda = static_cast<Scalar>(options.initial_damping);
  int refusals = 0;
  const auto at_most = [](Scalar value, const std::optional<double>& limit, Scalar scale) {
    return limit && value <= static_cast<Scalar>(*limit) * scale;
  };
  out.cost = cost;
  while (out.steps < options.max_steps && out.evaluations < options.max_evaluations) {
    const LmStep kind = problem.solve(lambda);
    if (kind == LmStep::kNothingFree) {
      out.converged = true;
      return out;
    }
    if (kind == LmStep::kNotPositive) {
      if (options.not_positive_ends) return out;
      lambda *= static_cast<Scalar>(options.grow);
      if (++refusals >= options.max_refusals || lambda > static_cast<Scalar>(options.max_damping)) return out;
      continue;
    }
    const Scalar size = problem.stepSize();
    if (at_most(size, options.final_step, Scalar(1))) {
      problem.takeUnevaluated();
      ++out.steps;
      out.converged = true;
      return out;
    }
    const Scalar trial = problem.tryStep();
    ++out.evaluations;
    const bool lower = trial < cost || (options.take_equal && trial <= cost);
    const bool trusted = options.trusted_step && size < static_cast<Scalar>(*options.trusted_step);
    if (std::isfinite(trial) && (lower || trusted)) {
      problem.accept();
      ++out.steps;
      refusals = 0;
      const Scalar decrease = cost - trial;
      const Scalar scale = std::max(Scalar(1), cost);
      cost = trial;
      out.cost = cost;
      lambda = std::max(static_cast<Scalar>(options.min_damping), lambda * static_cast<Scalar>(options.shrink));
      if (at_most(decrease, options.relative_decrease, scale) || at_most(size, options.step_tolerance, Scalar(1))) {
        out.converged = true;
        return out;
      }
    } else {
      problem.reject();
      lambda *= static_cast<Scalar>(options.grow);
      if (at_most(size, options.step_tolerance, Scalar(1)) ||
          (options.promise_floor &&
           at_most(problem.promisedDecrease(), options.promise_floor, std::max(Scalar(1), cost)))) {
        out.converged = true;
        return out;
      }
      if (++refusals >= options.max_refusals || lambda > static_cast<Scalar>(options.max_damping)) return out;
    }
  }
  return out;
}

/// What the small fixed-size searches (`boundedNewtonSearch`) need of a cost at a point: half its
/// gradient `g`, half its Hessian `H` (exact second derivatives, or the Gauss-Newton matrix) and a
/// positive per-coordinate scale `damping` of the Levenberg-Marquardt term (the diagonal of the
/// Gauss-Newton Hessian, say).
template <typename Scalar, int N>
struct LmDerivatives {
  Eigen::Matrix<Scalar, N, 1> g;
  Eigen::Matrix<Scalar, N, N> H;
  Eigen::Matrix<Scalar, N, 1> damping;
};

/// Length (rad) of a step `boundedNewtonSearch` takes as its last without evaluating the cost
/// after it. Near the minimum the search takes (nearly) Newton steps on the exact Hessian, which
/// converge quadratically: after a step of length s the point is about s^2 from the minimum
/// (1e-12 rad here), far below anything a joint or a sensor resolves, and each search saves the
/// evaluation its last step used to cost (about one of six in GA-LVVJ's leg fit).
inline constexpr double kLmFinalStep = 1e-6;

/// Solves A x = -g by Cholesky; false when A is not positive definite (the default linear
/// solver of `boundedNewtonSearch`).
template <typename Scalar, int N>
bool choleskyStep(const Eigen::Matrix<Scalar, N, N>& A, const Eigen::Matrix<Scalar, N, 1>& g,
                  Eigen::Matrix<Scalar, N, 1>& step) {
  Eigen::Matrix<Scalar, N, N> L = A;
  if (!choleskyFactorInPlace(L)) return false;
  step = -g;
  choleskySolveInPlace(L, step);
  return true;
}

/// The bounded search over a small fixed-size vector `y` (inside [lo, hi]), moving only the
/// coordinates marked `free`, with derivatives given whole (GA-LVVJ's arm refinement and leg
/// fit): a held or fixed coordinate's row and column become identity, the step is clipped to the
/// box, the schedule is lambda 1e-3, / 3 after a taken step (down to 1e-9) and x 4 after a
/// refused one, a step shorter than 1e-7 is taken on the gradient's word (the cost's rounding
/// hides its gain, so the minimum is located to about 1e-10 rather than to that rounding), and
/// the search ends when the gradient vanishes, after a step no longer than `kLmFinalStep`, twelve
/// refusals in a row, or `max_steps` taken steps. `cost` and `now` are the cost and derivatives
/// at `y` on entry. `evaluate(y, derivatives)` returns the cost at y and fills its derivatives;
/// `solve(A, g, step)` solves A step = -g and returns false when A is not positive definite
/// (choleskyStep, or a solver that knows A's sparsity). Fixed-size: no allocation.
template <typename Scalar, int N, typename Evaluate, typename Solve>
LmOutcome<Scalar> boundedNewtonSearch(Eigen::Matrix<Scalar, N, 1>& y, Scalar cost, LmDerivatives<Scalar, N>& now,
                                      const Eigen::Matrix<Scalar, N, 1>& lo, const Eigen::Matrix<Scalar, N, 1>& hi,
                                      const std::array<bool, static_cast<std::size_t>(N)>& free, int max_steps,
                                      Evaluate&& evaluate, Solve&& solve) {
  using Vec = Eigen::Matrix<Scalar, N, 1>;
  using Mat = Eigen::Matrix<Scalar, N, N>;
  struct Problem {
    // A constructor, not aggregate initialisation: the workspace below is left uninitialised (as
    // Eigen leaves fixed-size matrices), not zeroed on every search.
    Problem(Vec& y_, LmDerivatives<Scalar, N>& now_, const Vec& lo_, const Vec& hi_,
            const std::array<bool, static_cast<std::size_t>(N)>& free_, Evaluate& evaluate_, Solve& solve_)
        : y(y_), now(now_), lo(lo_), hi(hi_), free(free_), evaluate(evaluate_), solve_linear(solve_) {}
    Vec& y;
    LmDerivatives<Scalar, N>& now;
    const Vec& lo;
    const Vec& hi;
    const std::array<bool, static_cast<std::size_t>(N)>& free;
    Evaluate& evaluate;
    Solve& solve_linear;
    LmDerivatives<Scalar, N> trial_derivatives;
    Vec step, trial;
    // The current point's system with the fixed and bound-held coordinates taken out (their rows
    // and columns identity), built once per point: a refused step only changes the damping.
    Vec g_held, damping_held;
    Mat H_held;
    bool held_current = false, gradient_vanished = false;

    LmStep solve(Scalar lambda) {
      if (!held_current) {
        g_held = now.g;
        H_held = now.H;
        damping_held = now.damping;
        for (Eigen::Index k = 0; k < N; ++k) {
          if (free[static_cast<std::size_t>(k)] && !heldAtBound(y[k], lo[k], hi[k], g_held[k])) continue;
          g_held[k] = Scalar(0);
          H_held.row(k).setZero();
          H_held.col(k).setZero();
          H_held(k, k) = Scalar(1);
          damping_held[k] = Scalar(1);
        }
        gradient_vanished = !(g_held.squaredNorm() > Scalar(1e-28));
        held_current = true;
      }
      if (gradient_vanished) return LmStep::kNothingFree;
      // Far from the minimum (H indefinite or the step too long) the damping makes the step a
      // scaled gradient step; near it, a Newton step.
      Mat A = H_held;
      A.diagonal() += lambda * damping_held;
      if (!solve_linear(A, g_held, step)) return LmStep::kNotPositive;
      trial = (y + step).cwiseMax(lo).cwiseMin(hi);
      return LmStep::kReady;
    }
    Scalar stepSize() const { return step.norm(); }
    Scalar tryStep() {
      const Scalar value = evaluate(trial, trial_derivatives);
      return step.allFinite() ? value : std::numeric_limits<Scalar>::quiet_NaN();
    }
    void accept() {
      y = trial;
      now = trial_derivatives;
      held_current = false;
    }
    void reject() {}
    void takeUnevaluated() { y = trial; }
    Scalar promisedDecrease() { return Scalar(0); }
  };
  Problem problem(y, now, lo, hi, free, evaluate, solve);
  static const LmOptions kNewton = [] {
    LmOptions options;
    options.initial_damping = 1e-3;
    options.shrink = 1.0 / 3.0;
    options.grow = 4.0;
    options.min_damping = 1e-9;
    options.max_refusals = 12;
    options.trusted_step = 1e-7;
    options.final_step = kLmFinalStep;
    return options;
  }();
  LmOptions options = kNewton;
  options.max_steps = max_steps;
  return boundedLevenbergMarquardt(problem, cost, options);
}

}  // namespace retarget::internal
