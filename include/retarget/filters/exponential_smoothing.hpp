#pragma once

/// @file
/// Exponential smoothing of a vector signal: y_k = y_{k-1} + alpha (x_k - y_{k-1}).

#include <cmath>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/filters/internal/elementwise.hpp>

namespace retarget {

/// Options of `ExponentialSmoothing`.
struct ExponentialSmoothingOptions {
  /// Weight of the new sample, in (0, 1] (unitless); 1 passes the input through.
  double alpha = 0.5;

  /// Throws InvalidArgument naming the field when alpha is not in (0, 1].
  RETARGET_DECL void validate() const;
};

/// Exponential smoothing (first-order low-pass at a fixed frame rate) of an n-vector.
///
/// Each element starts from its first finite sample. Per-frame calls never allocate or throw:
/// a non-finite element holds its last value (0 before its first finite sample) and the call
/// reports `StatusCode::kInvalidInput`; an input of the wrong size holds every element and
/// reports the same. Invariant: `value()` is always finite and has size `size()`.
template <typename Scalar = double>
class ExponentialSmoothing {
 public:
  /// Filter of `dimension` elements (>= 0). Throws InvalidArgument on bad options or size.
  ExponentialSmoothing(Eigen::Index dimension, const ExponentialSmoothingOptions& options)
      : options_((options.validate(), options)),
        alpha_(static_cast<Scalar>(options.alpha)),
        value_(VectorX<Scalar>::Zero(internal::checkedSize(dimension))),
        initialized_(Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(dimension, false)) {}

  /// Feeds one sample `x` (size `size()`, any unit) and updates `value()`.
  template <typename Derived>
  Status update(const Eigen::MatrixBase<Derived>& x) noexcept;

  /// Filtered value (size `size()`, unit of the input).
  const VectorX<Scalar>& value() const noexcept { return value_; }
  /// Number of elements.
  Eigen::Index size() const noexcept { return value_.size(); }
  /// The validated options.
  const ExponentialSmoothingOptions& options() const noexcept { return options_; }
  /// Forgets all samples: the next finite sample of each element starts it afresh.
  void reset() noexcept;

 private:
  ExponentialSmoothingOptions options_;
  Scalar alpha_;
  VectorX<Scalar> value_;
  Eigen::Array<bool, Eigen::Dynamic, 1> initialized_;
};

template <typename Scalar>
template <typename Derived>
Status ExponentialSmoothing<Scalar>::update(const Eigen::MatrixBase<Derived>& x) noexcept {
  if (x.size() != value_.size()) return StatusCode::kInvalidInput;
  return internal::updateFiniteElements<Scalar>(x, initialized_, [this](Eigen::Index i, Scalar xi, bool first) {
    if (first) {
      value_[i] = xi;
    } else {
      value_[i] += alpha_ * (xi - value_[i]);
    }
    return Status();
  });
}

template <typename Scalar>
void ExponentialSmoothing<Scalar>::reset() noexcept {
  value_.setZero();
  initialized_.setConstant(false);
}

#if RETARGET_DEFINE_FILTERS

RETARGET_DECL void ExponentialSmoothingOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(alpha) && alpha > 0.0 && alpha <= 1.0, InvalidArgument,
                        "ExponentialSmoothingOptions.alpha is invalid (got ", alpha, ", expected 0 < alpha <= 1)");
}

#endif  // RETARGET_DEFINE_FILTERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_FILTERS class ExponentialSmoothing<double>;
RETARGET_TEMPLATE_FILTERS class ExponentialSmoothing<float>;
#endif

}  // namespace retarget
