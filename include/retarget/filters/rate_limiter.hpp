#pragma once

/// @file
/// Rate (velocity) limiter for vector signals: the output moves towards the input by at most
/// max_rate * dt per call.

#include <algorithm>
#include <cmath>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/filters/internal/elementwise.hpp>

namespace retarget {

/// Options of `RateLimiter`.
struct RateLimiterOptions {
  /// Largest rate of change of every element (signal unit per second, > 0; +inf allowed).
  double max_rate = 1.0;
  /// Optional per-element rates (same unit, each > 0); when non-empty it must have the
  /// filter's size and replaces `max_rate` (e.g. a robot's `velocityLimits()`).
  Eigen::VectorXd max_rates{};

  /// Throws InvalidArgument naming the field when a rate is not > 0 (NaN included) or when
  /// `max_rates` is non-empty and not of size `dimension`.
  RETARGET_DECL void validate(Eigen::Index dimension) const;
};

/// Rate limiter of an n-vector: y_k = y_{k-1} + clamp(x_k - y_{k-1}, -r dt, r dt), so that
/// |y_k - y_{k-1}| <= r dt for every element and call. The first finite sample of an element
/// initialises it (no limit). Reports `kRateLimited` when some element was limited.
///
/// Per-frame calls never allocate or throw. A non-finite element holds its last value (0 before
/// its first finite sample) and reports `kInvalidInput`; a wrong-sized input or a `dt` that is
/// not finite and > 0 holds everything and reports `kInvalidInput`. Invariant: `value()` is
/// finite.
template <typename Scalar = double>
class RateLimiter {
 public:
  /// Limiter of `dimension` elements (>= 0). Throws InvalidArgument on bad options or size.
  RateLimiter(Eigen::Index dimension, const RateLimiterOptions& options)
      : options_((internal::checkedSize(dimension), options.validate(dimension), options)),
        rates_(options.max_rates.size() == 0
                   ? VectorX<Scalar>::Constant(dimension, static_cast<Scalar>(options.max_rate))
                   : VectorX<Scalar>(options.max_rates.cast<Scalar>())),
        value_(VectorX<Scalar>::Zero(dimension)),
        initialized_(Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(dimension, false)) {}

  /// Feeds sample `x` (size `size()`) arriving `dt` seconds (> 0) after the previous one.
  template <typename Derived>
  Status update(const Eigen::MatrixBase<Derived>& x, Scalar dt) noexcept;

  /// Limited value (size `size()`, unit of the input).
  const VectorX<Scalar>& value() const noexcept { return value_; }
  /// Per-element rate limits in use (unit per second).
  const VectorX<Scalar>& rates() const noexcept { return rates_; }
  /// Number of elements.
  Eigen::Index size() const noexcept { return value_.size(); }
  /// The validated options.
  const RateLimiterOptions& options() const noexcept { return options_; }
  /// Forgets all samples: the next finite sample of each element passes unlimited.
  void reset() noexcept;
  /// Continues from `x` (size `size()`, finite) as if it had been the last output: the next step
  /// of every element is limited from it. For a later stage that changed the output
  /// (filters/filter_stages.hpp). A wrong size or a non-finite value changes nothing.
  template <typename Derived>
  void continueFrom(const Eigen::MatrixBase<Derived>& x) noexcept {
    if (x.size() != value_.size() || !x.allFinite()) return;
    value_ = x.template cast<Scalar>();
    initialized_.setConstant(true);
  }

 private:
  RateLimiterOptions options_;
  VectorX<Scalar> rates_;
  VectorX<Scalar> value_;
  Eigen::Array<bool, Eigen::Dynamic, 1> initialized_;
};

template <typename Scalar>
template <typename Derived>
Status RateLimiter<Scalar>::update(const Eigen::MatrixBase<Derived>& x, Scalar dt) noexcept {
  if (x.size() != value_.size() || !std::isfinite(dt) || !(dt > Scalar(0))) return StatusCode::kInvalidInput;
  return internal::updateFiniteElements<Scalar>(x, initialized_, [&](Eigen::Index i, Scalar xi, bool first) {
    if (first) {
      value_[i] = xi;
      return Status();
    }
    const Scalar step = rates_[i] * dt;  // may be +inf: then no limit
    const Scalar delta = xi - value_[i];
    if (delta > step) {
      value_[i] += step;
      return Status(StatusCode::kRateLimited);
    }
    if (delta < -step) {
      value_[i] -= step;
      return Status(StatusCode::kRateLimited);
    }
    value_[i] = xi;
    return Status();
  });
}

template <typename Scalar>
void RateLimiter<Scalar>::reset() noexcept {
  value_.setZero();
  initialized_.setConstant(false);
}

#if RETARGET_DEFINE_FILTERS

RETARGET_DECL void RateLimiterOptions::validate(Eigen::Index dimension) const {
  RETARGET_THROW_UNLESS(max_rate > 0.0, InvalidArgument, "RateLimiterOptions.max_rate is invalid (got ", max_rate,
                        ", expected > 0)");
  if (max_rates.size() == 0) return;
  RETARGET_THROW_UNLESS(max_rates.size() == dimension, InvalidArgument,
                        "RateLimiterOptions.max_rates has the wrong size (got ", max_rates.size(), ", expected ",
                        dimension, ")");
  for (Eigen::Index i = 0; i < max_rates.size(); ++i) {
    RETARGET_THROW_UNLESS(max_rates[i] > 0.0, InvalidArgument, "RateLimiterOptions.max_rates[", i,
                          "] is invalid (got ", max_rates[i], ", expected > 0)");
  }
}

#endif  // RETARGET_DEFINE_FILTERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_FILTERS class RateLimiter<double>;
RETARGET_TEMPLATE_FILTERS class RateLimiter<float>;
#endif

}  // namespace retarget
