// Per-frame filters: step responses against closed forms, One-Euro against exponential
// smoothing (beta = 0) and on a noisy constant, rate-limiter bounds on random signals, the
// consecutive-frames detector against a brute-force look-back, input validation, non-finite
// input handling and the no-allocation contract.
#include <doctest/doctest.h>

#include <cmath>
#include <deque>
#include <random>
#include <type_traits>

#include <retarget/filters/consecutive_frames.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {
template <typename Scalar>
double tol() {
  return std::is_same_v<Scalar, float> ? 1e-5 : 1e-12;
}
}  // namespace

TEST_CASE_TEMPLATE("exponential smoothing: step response is 1 - (1 - alpha)^k, monotone", Scalar, float, double) {
  for (double alpha : {0.05, 0.3, 0.9, 1.0}) {
    ExponentialSmoothing<Scalar> f(3, {alpha});
    VectorX<Scalar> x = VectorX<Scalar>::Zero(3);
    CHECK(f.update(x).ok());
    x.setConstant(Scalar(2));
    Scalar previous = 0;
    for (int k = 1; k <= 60; ++k) {
      CHECK(f.update(x).ok());
      const double expected = 2.0 * (1.0 - std::pow(1.0 - alpha, k));
      CHECK(std::abs(double(f.value()[1]) - expected) <= tol<Scalar>() * 10);
      CHECK(f.value()[1] >= previous);
      CHECK(f.value()[1] <= Scalar(2));  // no overshoot
      previous = f.value()[1];
    }
  }
}

TEST_CASE_TEMPLATE("filters hold non-finite elements and reject wrong sizes", Scalar, float, double) {
  const Scalar nan = std::numeric_limits<Scalar>::quiet_NaN();
  const Scalar inf = std::numeric_limits<Scalar>::infinity();
  VectorX<Scalar> x(2), bad(2), wrong(3);
  x << 1, 2;
  bad << nan, 5;
  wrong.setOnes();

  ExponentialSmoothing<Scalar> es(2, {0.5});
  OneEuroFilter<Scalar> oe(2, {1.0, 0.1, 1.0});
  RateLimiter<Scalar> rl(2, {10.0, {}});

  // Before any finite sample an element reads 0, and the first finite sample initialises it.
  CHECK(es.update(bad).has(StatusCode::kInvalidInput));
  CHECK(oe.update(bad, Scalar(0)).has(StatusCode::kInvalidInput));
  CHECK(rl.update(bad, Scalar(0.01)).has(StatusCode::kInvalidInput));
  CHECK(es.value()[0] == 0);
  CHECK(es.value()[1] == 5);
  CHECK(oe.value()[0] == 0);
  CHECK(oe.value()[1] == 5);
  CHECK(rl.value()[1] == 5);
  CHECK(es.update(x).ok());
  CHECK(oe.update(x, Scalar(0.1)).ok());
  CHECK(es.value()[0] == 1);  // element 0 starts at its first finite sample
  CHECK(oe.value()[0] == 1);

  const VectorX<Scalar> es_before = es.value(), oe_before = oe.value(), rl_before = rl.value();
  bad << inf, nan;
  CHECK(es.update(bad) == Status(StatusCode::kInvalidInput));
  CHECK(oe.update(bad, Scalar(0.2)) == Status(StatusCode::kInvalidInput));
  CHECK(rl.update(bad, Scalar(0.01)) == Status(StatusCode::kInvalidInput));
  CHECK(es.value() == es_before);
  CHECK(oe.value() == oe_before);
  CHECK(rl.value() == rl_before);
  CHECK(es.update(wrong) == Status(StatusCode::kInvalidInput));
  CHECK(oe.update(wrong, Scalar(0.3)) == Status(StatusCode::kInvalidInput));
  CHECK(rl.update(wrong, Scalar(0.01)) == Status(StatusCode::kInvalidInput));
  // Time must increase (One-Euro) and dt must be positive and finite (rate limiter).
  CHECK(oe.update(x, Scalar(0.2)) == Status(StatusCode::kInvalidInput));
  CHECK(oe.update(x, nan) == Status(StatusCode::kInvalidInput));
  CHECK(rl.update(x, Scalar(0)) == Status(StatusCode::kInvalidInput));
  CHECK(rl.update(x, inf) == Status(StatusCode::kInvalidInput));
  CHECK(es.value().allFinite());
  CHECK(oe.value().allFinite());
  CHECK(rl.value().allFinite());

  // reset() forgets everything: the next sample passes straight through.
  es.reset();
  oe.reset();
  rl.reset();
  x << 7, -7;
  CHECK(es.update(x).ok());
  CHECK(oe.update(x, Scalar(0)).ok());
  CHECK(rl.update(x, Scalar(0.01)).ok());
  CHECK(es.value() == x);
  CHECK(oe.value() == x);
  CHECK(rl.value() == x);
}

TEST_CASE_TEMPLATE("One-Euro with beta = 0 equals exponential smoothing at its alpha", Scalar, float, double) {
  const double rate = 60.0, min_cutoff = 1.7;
  const Scalar dt = Scalar(1.0 / rate);
  OneEuroFilter<Scalar> oe(4, {min_cutoff, 0.0, 1.0});
  const double alpha = double(OneEuroFilter<Scalar>::smoothingFactor(Scalar(min_cutoff), dt));
  ExponentialSmoothing<Scalar> es(4, {alpha});
  std::mt19937 rng(21);
  std::normal_distribution<double> noise(0.0, 1.0);
  VectorX<Scalar> x(4);
  for (int k = 0; k < 300; ++k) {
    for (int i = 0; i < 4; ++i) x[i] = Scalar(noise(rng));
    CHECK(oe.update(x, Scalar(k) * dt).ok());
    CHECK(es.update(x).ok());
    CHECK((oe.value() - es.value()).norm() <= Scalar(tol<Scalar>() * 100));
  }
}

TEST_CASE("One-Euro smoothing factor gives the first-order time constant 1 / (2 pi fc)") {
  // With a fine step the discrete filter approaches the continuous one: after one time constant
  // a unit step reaches 1 - 1/e.
  const double cutoff = 1.0, dt = 1e-5, tau = 1.0 / (2.0 * kPi<double> * cutoff);
  OneEuroFilter<double> f(1, {cutoff, 0.0, 1.0});
  Eigen::VectorXd x = Eigen::VectorXd::Zero(1);
  CHECK(f.update(x, 0.0).ok());
  x[0] = 1.0;
  const int steps = static_cast<int>(std::round(tau / dt));
  for (int k = 1; k <= steps; ++k) CHECK(f.update(x, k * dt).ok());
  CHECK(f.value()[0] == doctest::Approx(1.0 - std::exp(-1.0)).epsilon(1e-3));
}

TEST_CASE("One-Euro reduces jitter on a noisy constant and lag on a ramp with beta") {
  std::mt19937 rng(22);
  std::normal_distribution<double> noise(0.0, 0.01);
  const double dt = 1.0 / 60.0;
  OneEuroFilter<double> f(1, {1.0, 0.0, 1.0});
  Eigen::VectorXd x(1);
  double in_sq = 0, out_sq = 0;
  int n = 0;
  for (int k = 0; k < 2000; ++k) {
    x[0] = 0.5 + noise(rng);
    CHECK(f.update(x, k * dt).ok());
    if (k >= 200) {  // after the start-up transient
      in_sq += (x[0] - 0.5) * (x[0] - 0.5);
      out_sq += (f.value()[0] - 0.5) * (f.value()[0] - 0.5);
      ++n;
    }
  }
  const double in_rms = std::sqrt(in_sq / n), out_rms = std::sqrt(out_sq / n);
  MESSAGE("noisy constant: input rms ", in_rms, ", One-Euro output rms ", out_rms);
  CHECK(out_rms < 0.4 * in_rms);

  // Ramp of 1 unit/s: the steady-state lag shrinks when beta > 0.
  auto lag = [&](double beta) {
    OneEuroFilter<double> g(1, {1.0, beta, 1.0});
    Eigen::VectorXd r(1);
    for (int k = 0; k < 600; ++k) {
      r[0] = k * dt;
      CHECK(g.update(r, k * dt).ok());
    }
    return r[0] - g.value()[0];
  };
  const double lag0 = lag(0.0), lag1 = lag(1.0);
  MESSAGE("ramp lag: beta 0 -> ", lag0, ", beta 1 -> ", lag1);
  // Discrete first-order low-pass on a unit ramp: steady lag dt (1 - alpha) / alpha = tau exactly.
  CHECK(lag0 == doctest::Approx(1.0 / (2.0 * kPi<double>)).epsilon(1e-6));
  CHECK(lag1 > 0);
  CHECK(lag1 < 0.6 * lag0);
}

TEST_CASE_TEMPLATE("rate limiter never exceeds the rate and reaches constant targets", Scalar, float, double) {
  std::mt19937 rng(23);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  RateLimiterOptions options;
  options.max_rates = Eigen::VectorXd(3);
  options.max_rates << 0.5, 2.0, std::numeric_limits<double>::infinity();
  RateLimiter<Scalar> f(3, options);
  VectorX<Scalar> x(3), previous(3);
  bool first = true;
  int limited_frames = 0;
  for (int k = 0; k < test::sweepCount(5000); ++k) {
    for (int i = 0; i < 3; ++i) x[i] = Scalar(u(rng));
    const Scalar dt = Scalar(0.001 + 0.05 * (u(rng) + 1.0));
    const Status status = f.update(x, dt);
    CHECK_FALSE(status.has(StatusCode::kInvalidInput));
    bool limited = false;
    if (!first) {
      for (int i = 0; i < 2; ++i) {
        const Scalar step = std::abs(f.value()[i] - previous[i]);
        // Rounding of y_k - y_{k-1} near |y| <= 1: a few ulps of 1 in absolute terms.
        CHECK(double(step) <= double(f.rates()[i] * dt) + 4.0 * std::numeric_limits<Scalar>::epsilon());
        limited = limited || f.value()[i] != x[i];
      }
      CHECK(f.value()[2] == x[2]);  // infinite rate: pass-through
    }
    CHECK(status.has(StatusCode::kRateLimited) == limited);
    limited_frames += limited ? 1 : 0;
    previous = f.value();
    first = false;
  }
  CHECK(limited_frames > 0);
  // A constant target is reached exactly after |distance| / (rate dt) frames.
  f.reset();
  x.setZero();
  CHECK(f.update(x, Scalar(0.01)).ok());
  x << 1, 1, 1;
  int frames = 0;
  while (f.value() != x && frames < 1000) {
    (void)f.update(x, Scalar(0.01));
    ++frames;
  }
  CHECK(frames == doctest::Approx(1.0 / (0.5 * 0.01)).epsilon(0.01));  // the slowest element
}

TEST_CASE("consecutive-frames detector matches a brute-force look-back") {
  std::mt19937 rng(24);
  for (int n = 1; n <= 6; ++n) {
    ConsecutiveFramesDetector detector({n});
    std::deque<bool> history;
    for (int k = 0; k < 2000; ++k) {
      const bool condition = (rng() % 4) != 0;  // long runs happen
      history.push_back(condition);
      if (static_cast<int>(history.size()) > n) history.pop_front();
      bool expected = static_cast<int>(history.size()) == n;
      for (bool h : history) expected = expected && h;
      CHECK(detector.update(condition) == expected);
      CHECK(detector.detected() == expected);
      CHECK(detector.count() <= n);
    }
    detector.reset();
    CHECK(detector.count() == 0);
    CHECK_FALSE(detector.detected());
  }
}

TEST_CASE("filter options are validated with messages naming the field and value") {
  CHECK_THROWS_WITH_AS(ExponentialSmoothing<double>(2, {0.0}), doctest::Contains("alpha is invalid (got 0"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(ExponentialSmoothing<double>(2, {1.5}), doctest::Contains("expected 0 < alpha <= 1"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(ExponentialSmoothing<double>(-1, {0.5}), doctest::Contains("dimension is invalid (got -1"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(OneEuroFilter<double>(2, {0.0, 0.0, 1.0}), doctest::Contains("min_cutoff is invalid (got 0"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(OneEuroFilter<double>(2, {1.0, -1.0, 1.0}), doctest::Contains("beta is invalid (got -1"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(OneEuroFilter<double>(2, {1.0, 0.0, NAN}), doctest::Contains("d_cutoff is invalid"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(RateLimiter<double>(2, {-1.0, {}}), doctest::Contains("max_rate is invalid (got -1"),
                       InvalidArgument);
  RateLimiterOptions wrong_size;
  wrong_size.max_rates = Eigen::VectorXd::Ones(3);
  CHECK_THROWS_WITH_AS(RateLimiter<double>(2, wrong_size), doctest::Contains("wrong size (got 3, expected 2)"),
                       InvalidArgument);
  RateLimiterOptions zero_rate;
  zero_rate.max_rates = Eigen::VectorXd::Zero(2);
  CHECK_THROWS_WITH_AS(RateLimiter<double>(2, zero_rate), doctest::Contains("max_rates[0] is invalid (got 0"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(ConsecutiveFramesDetector({0}), doctest::Contains("frames is invalid (got 0, expected >= 1)"),
                       InvalidArgument);
}

TEST_CASE_TEMPLATE("per-frame filter calls do not allocate", Scalar, float, double) {
  ExponentialSmoothing<Scalar> es(25, {0.3});
  OneEuroFilter<Scalar> oe(25, {1.0, 0.5, 1.0});
  RateLimiter<Scalar> rl(25, {2.0, {}});
  ConsecutiveFramesDetector detector({3});
  VectorX<Scalar> x = VectorX<Scalar>::LinSpaced(25, Scalar(-1), Scalar(1));
  test::NoAllocationScope scope;
  Status status;
  for (int k = 0; k < 10; ++k) {
    x *= Scalar(1.01);
    status |= es.update(x);
    status |= oe.update(x, Scalar(k) / Scalar(30));
    status |= rl.update(x, Scalar(1) / Scalar(30));
    status |= es.update(x.segment(0, 3));  // wrong size: rejected without allocating
    (void)detector.update(k % 2 == 0);
  }
  es.reset();
  oe.reset();
  rl.reset();
  CHECK(scope.allocations() == 0);
  CHECK(status.has(StatusCode::kInvalidInput));
}
