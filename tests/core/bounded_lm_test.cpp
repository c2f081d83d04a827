// The library's one bounded Levenberg-Marquardt search (core/internal/bounded_lm.hpp), on its own:
// convex quadratics in a box against a brute-force enumeration of every active set (an
// independent reference), Rosenbrock's valley from its classic start, and the stopping rules
// through a scripted problem (taken and refused steps, a matrix that is never positive definite,
// a non-finite trial, every budget).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <Eigen/Dense>

#include <retarget/core/internal/bounded_lm.hpp>

using namespace retarget;
using namespace retarget::internal;

namespace {

using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;

// f(y) = 1/2 y^T Q y + c^T y on the box [lo, hi]: the reference minimum by enumerating, for each
// coordinate, free / at its lower bound / at its upper bound (3^3 cases), solving the free block
// exactly and keeping the best feasible point.
Vec3 bruteForceMinimum(const Mat3& Q, const Vec3& c, const Vec3& lo, const Vec3& hi) {
  double best = std::numeric_limits<double>::infinity();
  Vec3 best_y = Vec3::Zero();
  for (int code = 0; code < 27; ++code) {
    Vec3 y = Vec3::Zero();
    std::vector<int> free;
    int rest = code;
    for (int k = 0; k < 3; ++k, rest /= 3) {
      if (rest % 3 == 0) free.push_back(k);
      if (rest % 3 == 1) y[k] = lo[k];
      if (rest % 3 == 2) y[k] = hi[k];
    }
    const auto m = static_cast<Eigen::Index>(free.size());
    if (m > 0) {
      Eigen::MatrixXd A(m, m);
      Eigen::VectorXd b(m);
      for (Eigen::Index r = 0; r < m; ++r) {
        double fixed = c[free[static_cast<std::size_t>(r)]];
        for (int k = 0; k < 3; ++k) {
          if (std::find(free.begin(), free.end(), k) == free.end())
            fixed += Q(free[static_cast<std::size_t>(r)], k) * y[k];
        }
        b[r] = -fixed;
        for (Eigen::Index s = 0; s < m; ++s)
          A(r, s) = Q(free[static_cast<std::size_t>(r)], free[static_cast<std::size_t>(s)]);
      }
      const Eigen::VectorXd x = A.ldlt().solve(b);
      for (Eigen::Index r = 0; r < m; ++r) y[free[static_cast<std::size_t>(r)]] = x[r];
    }
    if (((y - lo).array() < -1e-12).any() || ((hi - y).array() < -1e-12).any()) continue;
    const double f = 0.5 * y.dot(Q * y) + c.dot(y);
    if (f < best) {
      best = f;
      best_y = y;
    }
  }
  return best_y;
}

// A scripted problem: each call's answer comes from the test, and the calls are counted.
struct Scripted {
  Scripted(std::vector<LmStep> k, std::vector<double> c) : kinds(std::move(k)), trial_costs(std::move(c)) {}
  std::vector<LmStep> kinds;        // solve()'s answers in turn (the last one repeats)
  std::vector<double> trial_costs;  // tryStep()'s answers in turn (the last one repeats)
  double size = 1.0;                // stepSize()
  double promise = 1.0;             // promisedDecrease()
  int solves = 0, tries = 0, accepts = 0, rejects = 0, unevaluated = 0;
  std::vector<double> lambdas;

  LmStep solve(double lambda) {
    lambdas.push_back(lambda);
    const std::size_t i = std::min(static_cast<std::size_t>(solves++), kinds.size() - 1);
    return kinds[i];
  }
  double stepSize() const { return size; }
  double tryStep() {
    const std::size_t i = std::min(static_cast<std::size_t>(tries++), trial_costs.size() - 1);
    return trial_costs[i];
  }
  void accept() { ++accepts; }
  void reject() { ++rejects; }
  void takeUnevaluated() { ++unevaluated; }
  double promisedDecrease() { return promise; }
};

}  // namespace

TEST_CASE("bounded LM: convex quadratics in a box reach the brute-force minimum of every active set") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int cases_with_bounds = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Mat3 B;
    for (int i = 0; i < 9; ++i) B(i / 3, i % 3) = u(rng);
    const Mat3 Q = B * B.transpose() + 0.5 * Mat3::Identity();
    const Vec3 c(0.4 * u(rng), 0.4 * u(rng), 0.4 * u(rng));
    const Vec3 lo(-0.6 + 0.3 * u(rng), -0.6 + 0.3 * u(rng), -0.6 + 0.3 * u(rng));
    const Vec3 hi = lo + Vec3::Constant(1.2);
    const Vec3 expected = bruteForceMinimum(Q, c, lo, hi);
    cases_with_bounds +=
        ((expected - lo).cwiseAbs().minCoeff() < 1e-12 || (hi - expected).cwiseAbs().minCoeff() < 1e-12) ? 1 : 0;
    auto evaluate = [&](const Vec3& y, LmDerivatives<double, 3>& d) {
      d.g = Q * y + c;
      d.H = Q;
      d.damping = Q.diagonal();
      return 0.5 * y.dot(Q * y) + c.dot(y);
    };
    Vec3 y = 0.5 * (lo + hi);
    LmDerivatives<double, 3> now;
    const double f = evaluate(y, now);
    const LmOutcome<double> outcome =
        boundedNewtonSearch<double, 3>(y, f, now, lo, hi, {true, true, true}, 50, evaluate, choleskyStep<double, 3>);
    CAPTURE(trial);
    CHECK(outcome.converged);
    CHECK((y - expected).cwiseAbs().maxCoeff() < 1e-8);
    CHECK(((y - lo).array() >= 0).all());
    CHECK(((hi - y).array() >= 0).all());
  }
  // Both kinds of minimum were tested: some on a bound, some inside.
  CHECK(cases_with_bounds > 20);
  CHECK(cases_with_bounds < 190);
}

TEST_CASE("bounded LM: Rosenbrock's valley from (-1.2, 1), unbounded and with the minimum cut off") {
  using Vec2 = Eigen::Vector2d;
  auto evaluate = [](const Vec2& y, LmDerivatives<double, 2>& d) {
    // f = (1 - a)^2 + 100 (b - a^2)^2; half its gradient and Hessian.
    const double a = y[0], b = y[1];
    d.g << -(1 - a) - 200 * a * (b - a * a), 100 * (b - a * a);
    d.H << 1 - 200 * (b - a * a) + 400 * a * a, -200 * a, -200 * a, 100;
    d.damping << 1 + 400 * a * a, 100;
    return (1 - a) * (1 - a) + 100 * (b - a * a) * (b - a * a);
  };
  const Vec2 wide(-10, -10), wide_hi(10, 10);
  Vec2 y(-1.2, 1.0);
  LmDerivatives<double, 2> now;
  double f = evaluate(y, now);
  LmOutcome<double> outcome =
      boundedNewtonSearch<double, 2>(y, f, now, wide, wide_hi, {true, true}, 200, evaluate, choleskyStep<double, 2>);
  CHECK(outcome.converged);
  CHECK((y - Vec2(1, 1)).norm() < 1e-8);
  // With a <= 0.5 the minimum is on the bound a = 0.5, b = a^2 = 0.25 (f = 0.25 there, b free).
  const Vec2 cut_hi(0.5, 10);
  y << -1.2, 1.0;
  f = evaluate(y, now);
  outcome =
      boundedNewtonSearch<double, 2>(y, f, now, wide, cut_hi, {true, true}, 200, evaluate, choleskyStep<double, 2>);
  CHECK(y[0] == 0.5);
  CHECK(std::abs(y[1] - 0.25) < 1e-8);
  // A fixed coordinate never moves: with b = 1 held, a descends from 0.5 to 1, where
  // (1 - a)^2 + 100 (1 - a^2)^2 vanishes (its slope is negative all the way).
  y << 0.5, 1.0;
  f = evaluate(y, now);
  (void)boundedNewtonSearch<double, 2>(y, f, now, wide, wide_hi, {true, false}, 200, evaluate, choleskyStep<double, 2>);
  CHECK(y[1] == 1.0);
  CHECK(std::abs(y[0] - 1.0) < 1e-8);
}

TEST_CASE("bounded LM: the schedule and every stopping rule") {
  LmOptions options;
  options.initial_damping = 1e-3;
  options.shrink = 0.5;
  options.grow = 10;
  options.min_damping = 1e-4;
  SUBCASE("taken steps shrink the damping down to its floor; max_steps ends the search") {
    Scripted p{{LmStep::kReady}, {9, 8, 7, 6, 5}};
    options.max_steps = 4;
    const LmOutcome<double> r = boundedLevenbergMarquardt(p, 10.0, options);
    CHECK(!r.converged);
    CHECK(r.steps == 4);
    CHECK(r.cost == 6);
    CHECK(p.lambdas == std::vector<double>{1e-3, 5e-4, 2.5e-4, 1.25e-4});
    CHECK(p.accepts == 4);
  }
  SUBCASE("refused steps grow the damping; max_refusals in a row ends it; a taken step resets the count") {
    Scripted p{{LmStep::kReady}, {11, 11, 9, 11, 11, 11}};
    options.max_refusals = 3;
    const LmOutcome<double> r = boundedLevenbergMarquardt(p, 10.0, options);
    CHECK(!r.converged);
    CHECK(r.steps == 1);
    CHECK(p.rejects == 5);
    CHECK(r.evaluations == 6);
    CHECK(r.cost == 9);
  }
  SUBCASE("an equal cost is refused unless take_equal; a short step is trusted with trusted_step") {
    Scripted p{{LmStep::kReady}, {10}};
    options.max_evaluations = 3;
    CHECK(boundedLevenbergMarquardt(p, 10.0, options).steps == 0);
    Scripted q{{LmStep::kReady}, {10}};
    options.take_equal = true;
    CHECK(boundedLevenbergMarquardt(q, 10.0, options).steps == 3);
    Scripted t{{LmStep::kReady}, {10.5}};
    t.size = 1e-8;
    options.take_equal = false;
    options.trusted_step = 1e-7;
    CHECK(boundedLevenbergMarquardt(t, 10.0, options).steps == 3);
  }
  SUBCASE("a non-finite trial cost is always refused, trusted or not") {
    Scripted p{{LmStep::kReady}, {std::numeric_limits<double>::quiet_NaN()}};
    p.size = 1e-9;
    options.trusted_step = 1e-7;
    options.max_evaluations = 4;
    const LmOutcome<double> r = boundedLevenbergMarquardt(p, 10.0, options);
    CHECK(r.steps == 0);
    CHECK(p.rejects == 4);
  }
  SUBCASE("a matrix never positive definite: the damping grows to its ceiling, nothing is evaluated") {
    Scripted p{{LmStep::kNotPositive}, {1}};
    options.max_damping = 1e2;
    const LmOutcome<double> r = boundedLevenbergMarquardt(p, 10.0, options);
    CHECK(!r.converged);
    CHECK(r.evaluations == 0);
    CHECK(p.solves == 6);  // 1e-3 ... 1e2, the sixth growth passes the ceiling
  }
  SUBCASE("nothing free converges at once") {
    Scripted p{{LmStep::kNothingFree}, {1}};
    const LmOutcome<double> r = boundedLevenbergMarquardt(p, 10.0, options);
    CHECK(r.converged);
    CHECK(r.evaluations == 0);
  }
  SUBCASE("a final step is taken without evaluating") {
    Scripted p{{LmStep::kReady}, {1}};
    p.size = 1e-7;
    options.final_step = 1e-6;
    const LmOutcome<double> r = boundedLevenbergMarquardt(p, 10.0, options);
    CHECK(r.converged);
    CHECK(p.unevaluated == 1);
    CHECK(r.evaluations == 0);
    CHECK(r.cost == 10);
  }
  SUBCASE("relative decrease and step tolerance end it after a taken step") {
    Scripted p{{LmStep::kReady}, {10 - 1e-13}};
    options.relative_decrease = 1e-12;
    CHECK(boundedLevenbergMarquardt(p, 10.0, options).converged);
    CHECK(p.accepts == 1);
    Scripted q{{LmStep::kReady}, {5}};
    q.size = 1e-9;
    options.relative_decrease.reset();
    options.step_tolerance = 1e-8;
    CHECK(boundedLevenbergMarquardt(q, 10.0, options).converged);
    CHECK(q.accepts == 1);
  }
  SUBCASE("step tolerance and the model's promise end it after a refused step") {
    Scripted p{{LmStep::kReady}, {11}};
    p.size = 1e-9;
    options.step_tolerance = 1e-8;
    CHECK(boundedLevenbergMarquardt(p, 10.0, options).converged);
    CHECK(p.rejects == 1);
    Scripted q{{LmStep::kReady}, {11}};
    q.promise = 1e-6;
    options.step_tolerance.reset();
    options.promise_floor = 1e-6;  // 1e-6 max(1, 10) = 1e-5 > the promise
    CHECK(boundedLevenbergMarquardt(q, 10.0, options).converged);
    CHECK(q.rejects == 1);
  }
  SUBCASE("the active set's rule") {
    CHECK(heldAtBound(0.0, 0.0, 1.0, 1.0));    // on the lower bound, descent points below it
    CHECK(!heldAtBound(0.0, 0.0, 1.0, -1.0));  // descent points inside
    CHECK(heldAtBound(1.0, 0.0, 1.0, -1.0));
    CHECK(!heldAtBound(0.5, 0.0, 1.0, 1.0));
    CHECK(heldAtBound(1e-10, 0.0, 1.0, 1.0, 1e-9));  // within the span
    CHECK(!heldAtBound(1e-8, 0.0, 1.0, 1.0, 1e-9));
  }
}
