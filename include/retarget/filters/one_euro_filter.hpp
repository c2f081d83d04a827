#pragma once

/// @file
/// The One-Euro filter (Casiez, Roussel, Vogel, "1 Euro filter: a simple speed-based low-pass
/// filter for noisy input in interactive systems", CHI 2012) for vector signals.

#include <cmath>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/filters/internal/elementwise.hpp>

namespace retarget {

/// Options of `OneEuroFilter`. Frequencies in Hz; `beta` in s per signal unit (the cutoff grows
/// by beta * |speed| Hz for a speed in signal units per second).
struct OneEuroFilterOptions {
  /// Cutoff at zero speed (Hz, > 0): lower removes more jitter at rest but adds lag.
  double min_cutoff = 1.0;
  /// Speed coefficient (>= 0): higher reduces lag during fast motion.
  double beta = 0.0;
  /// Cutoff of the low-pass on the derivative (Hz, > 0).
  double d_cutoff = 1.0;

  /// Throws InvalidArgument naming the field when a value is out of range or not finite.
  RETARGET_DECL void validate() const;
};

/// One-Euro filter of an n-vector, each element filtered independently. The rate comes from
/// the timestamps: for a sample at time t (s) after the element's previous one at t_p,
/// dt = t - t_p and, with alpha(fc) = 1 / (1 + 1 / (2 pi fc dt)):
///   dx  = (x - y_p) / dt;            dx^ = dx^_p + alpha(d_cutoff) (dx - dx^_p)
///   fc  = min_cutoff + beta |dx^|;   y   = y_p + alpha(fc) (x - y_p)
/// (the paper's equations; the first sample of an element initialises y = x, dx^ = 0).
///
/// Per-frame calls never allocate or throw. A non-finite element holds its last value (0
/// before its first finite sample) and reports `kInvalidInput`; a wrong-sized input, a
/// non-finite time or a time not after the previous call's holds everything and reports
/// `kInvalidInput`. Invariant: `value()` is finite.
template <typename Scalar = double>
class OneEuroFilter {
 public:
  /// Filter of `dimension` elements (>= 0). Throws InvalidArgument on bad options or size.
  OneEuroFilter(Eigen::Index dimension, const OneEuroFilterOptions& options)
      : options_((options.validate(), options)),
        value_(VectorX<Scalar>::Zero(internal::checkedSize(dimension))),
        derivative_(VectorX<Scalar>::Zero(dimension)),
        last_time_(VectorX<Scalar>::Zero(dimension)),
        initialized_(Eigen::Array<bool, Eigen::Dynamic, 1>::Constant(dimension, false)) {}

  /// Feeds sample `x` (size `size()`) taken at time `t` (s, strictly increasing between calls).
  template <typename Derived>
  Status update(const Eigen::MatrixBase<Derived>& x, Scalar t) noexcept;

  /// Filtered value (size `size()`, unit of the input).
  const VectorX<Scalar>& value() const noexcept { return value_; }
  /// Filtered derivative dx^ (input unit per second).
  const VectorX<Scalar>& derivative() const noexcept { return derivative_; }
  /// Number of elements.
  Eigen::Index size() const noexcept { return value_.size(); }
  /// The validated options.
  const OneEuroFilterOptions& options() const noexcept { return options_; }
  /// Forgets all samples and times.
  void reset() noexcept;

  /// Smoothing factor alpha = 1 / (1 + tau / dt), tau = 1 / (2 pi cutoff), of a first-order
  /// low-pass with cutoff `cutoff` (Hz) sampled after `dt` (s) (Casiez et al. 2012).
  static Scalar smoothingFactor(Scalar cutoff, Scalar dt) noexcept {
    const Scalar tau = Scalar(1) / (Scalar(2) * kPi<Scalar> * cutoff);
    return Scalar(1) / (Scalar(1) + tau / dt);
  }

 private:
  OneEuroFilterOptions options_;
  VectorX<Scalar> value_;
  VectorX<Scalar> derivative_;
  VectorX<Scalar> last_time_;
  Eigen::Array<bool, Eigen::Dynamic, 1> initialized_;
  bool has_time_ = false;
  Scalar previous_call_time_ = Scalar(0);
};

template <typename Scalar>
template <typename Derived>
Status OneEuroFilter<Scalar>::update(const Eigen::MatrixBase<Derived>& x, Scalar t) noexcept {
  if (x.size() != value_.size() || !std::isfinite(t) || (has_time_ && !(t > previous_call_time_))) {
    return StatusCode::kInvalidInput;
  }
  has_time_ = true;
  previous_call_time_ = t;
  const Scalar min_cutoff = static_cast<Scalar>(options_.min_cutoff);
  const Scalar beta = static_cast<Scalar>(options_.beta);
  const Scalar d_cutoff = static_cast<Scalar>(options_.d_cutoff);
  return internal::updateFiniteElements<Scalar>(x, initialized_, [&](Eigen::Index i, Scalar xi, bool first) {
    if (first) {
      value_[i] = xi;
      derivative_[i] = Scalar(0);
      last_time_[i] = t;
      return Status();
    }
    const Scalar dt = t - last_time_[i];
    last_time_[i] = t;
    const Scalar dx = (xi - value_[i]) / dt;
    derivative_[i] += smoothingFactor(d_cutoff, dt) * (dx - derivative_[i]);
    const Scalar cutoff = min_cutoff + beta * std::abs(derivative_[i]);
    value_[i] += smoothingFactor(cutoff, dt) * (xi - value_[i]);
    if (!std::isfinite(value_[i]) || !std::isfinite(derivative_[i])) {  // overflow guard
      value_[i] = xi;
      derivative_[i] = Scalar(0);
      return Status(StatusCode::kInvalidInput);
    }
    return Status();
  });
}

template <typename Scalar>
void OneEuroFilter<Scalar>::reset() noexcept {
  value_.setZero();
  derivative_.setZero();
  last_time_.setZero();
  initialized_.setConstant(false);
  has_time_ = false;
}

#if RETARGET_DEFINE_FILTERS

RETARGET_DECL void OneEuroFilterOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(min_cutoff) && min_cutoff > 0.0, InvalidArgument,
                        "OneEuroFilterOptions.min_cutoff is invalid (got ", min_cutoff, ", expected a finite value > 0 Hz)");
  RETARGET_THROW_UNLESS(std::isfinite(beta) && beta >= 0.0, InvalidArgument,
                        "OneEuroFilterOptions.beta is invalid (got ", beta, ", expected a finite value >= 0)");
  RETARGET_THROW_UNLESS(std::isfinite(d_cutoff) && d_cutoff > 0.0, InvalidArgument,
                        "OneEuroFilterOptions.d_cutoff is invalid (got ", d_cutoff, ", expected a finite value > 0 Hz)");
}

#endif  // RETARGET_DEFINE_FILTERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_FILTERS class OneEuroFilter<double>;
RETARGET_TEMPLATE_FILTERS class OneEuroFilter<float>;
#endif

}  // namespace retarget
