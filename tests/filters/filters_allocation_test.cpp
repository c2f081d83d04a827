// Every filter path under the no-allocation check (support/allocation.hpp: counting operator
// new plus Eigen's heap check, counted in every build type): the rate limiter with per-element
// rates (a robot's velocityLimits()), non-finite elements, bad dt and wrong sizes; exponential
// smoothing and One-Euro on the same hostile inputs; the Cartesian speed limiter on NAO.
// Smoothing and rate limits left the mappers (docs/mapper_contract.md): this is their check.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/robots/nao.hpp>

#include "support/allocation.hpp"

using namespace retarget;

TEST_CASE_TEMPLATE("filters: per-element rates, non-finite elements, bad dt and wrong sizes allocate nothing",
                   Scalar, float, double) {
  const auto nao = makeNao<Scalar>();
  const Eigen::Index n = nao.nq();
  RateLimiterOptions per_element;
  per_element.max_rates = nao.velocityLimits().template cast<double>();
  RateLimiter<Scalar> rl(n, per_element);
  ExponentialSmoothing<Scalar> es(n, {0.3});
  OneEuroFilter<Scalar> oe(n, {1.0, 0.5, 1.0});
  CartesianSpeedLimiterOptions cartesian;
  cartesian.points = {{"l_wrist", Eigen::Vector3d::Zero()}, {"r_wrist", Eigen::Vector3d::Zero()}};
  cartesian.max_joint_speed = 1.0;
  CartesianSpeedLimiter<Scalar> csl(nao, cartesian);
  // Inputs prepared before the scope.
  VectorX<Scalar> x = nao.neutralConfiguration();
  VectorX<Scalar> far = nao.upperLimits().cwiseMin(VectorX<Scalar>::Constant(n, Scalar(1)));
  VectorX<Scalar> with_nan = far;
  with_nan[3] = std::numeric_limits<Scalar>::quiet_NaN();
  with_nan[7] = std::numeric_limits<Scalar>::infinity();
  const VectorX<Scalar> short_input = VectorX<Scalar>::Zero(n - 1);
  const Scalar dt = Scalar(1) / Scalar(30);
  Status rate_status, hostile_status;
  std::size_t allocations = 0;
  {
    test::NoAllocationScope scope;
    for (int k = 0; k < 20; ++k) {
      const VectorX<Scalar>& input = k % 2 == 0 ? x : far;
      rate_status |= rl.update(input, dt);
      (void)es.update(input);
      (void)oe.update(input, Scalar(k) * dt);
      (void)csl.update(input, dt);
      hostile_status |= rl.update(with_nan, dt);
      hostile_status |= es.update(with_nan);
      hostile_status |= oe.update(with_nan, Scalar(k) * dt + dt / 2);
      hostile_status |= csl.update(with_nan, dt);
      hostile_status |= rl.update(short_input, dt);
      hostile_status |= csl.update(short_input, dt);
      hostile_status |= rl.update(x, Scalar(0));
      hostile_status |= rl.update(x, std::numeric_limits<Scalar>::quiet_NaN());
      hostile_status |= csl.update(x, -dt);
    }
    rl.reset();
    es.reset();
    oe.reset();
    csl.reset();
    allocations = scope.allocations();
  }
  CHECK(allocations == 0);
  CHECK(rate_status.has(StatusCode::kRateLimited));  // the per-element rates did limit
  CHECK(hostile_status.has(StatusCode::kInvalidInput));
  // Per-element rates are honoured element by element: one step from 0 towards `far`.
  RateLimiter<Scalar> fresh(n, per_element);
  REQUIRE(fresh.update(VectorX<Scalar>::Zero(n), dt).ok());
  (void)fresh.update(VectorX<Scalar>::Constant(n, Scalar(100)), dt);
  for (Eigen::Index i = 0; i < n; ++i) {
    CHECK(double(fresh.value()[i]) == doctest::Approx(double(nao.velocityLimits()[i] * dt)).epsilon(1e-5));
  }
}
