#pragma once

/// @file
/// Per-joint exponential smoothing of skeleton positions (seed 004, Section IV: "the position
/// signals of each joint filtered independently using exponential smoothing"), an input stage
/// any position-based mapper can put before itself:
///   p_k = p_{k-1} + alpha (x_k - p_{k-1})   per joint, canonical frame, m.
/// A joint starts from its first usable sample; a frame in which a joint is not usable leaves
/// its smoothed value alone and passes the joint through as not usable. Fixed-size state: the
/// per-frame call never allocates or throws.

#include <array>
#include <cmath>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Options of `SkeletonSmoothing`: the same parameter convention as every exponential
/// smoother of the library (alpha = weight of the new sample, in (0, 1]).
using SkeletonSmoothingOptions = ExponentialSmoothingOptions;

/// Exponential smoothing of every joint position of a skeleton stream (see the file doc).
template <typename Scalar = double>
class SkeletonSmoothing {
 public:
  /// Throws InvalidArgument on bad options.
  explicit SkeletonSmoothing(SkeletonSmoothingOptions options = {})
      : options_((options.validate(), options)), alpha_(static_cast<Scalar>(options.alpha)) {}

  /// Smooths `in` into `out` (may be the same object): usable joints get the smoothed
  /// position, everything else (states, hands, head, time) is copied.
  void update(const SkeletonFrame<Scalar>& in, SkeletonFrame<Scalar>& out) noexcept;

  /// Forgets every sample.
  void reset() noexcept { started_.fill(false); }
  /// The options in use.
  const SkeletonSmoothingOptions& options() const noexcept { return options_; }

 private:
  SkeletonSmoothingOptions options_;
  Scalar alpha_;
  std::array<Vector3<Scalar>, kHumanJointCount> value_{};
  std::array<bool, kHumanJointCount> started_{};
};

template <typename Scalar>
void SkeletonSmoothing<Scalar>::update(const SkeletonFrame<Scalar>& in, SkeletonFrame<Scalar>& out) noexcept {
  if (&in != &out) out = in;
  for (int j = 0; j < kHumanJointCount; ++j) {
    const auto k = static_cast<std::size_t>(j);
    if (!in.usable(static_cast<HumanJoint>(j))) continue;
    if (!started_[k]) {
      value_[k] = in.p_W[k];
      started_[k] = true;
    } else {
      value_[k] += alpha_ * (in.p_W[k] - value_[k]);
    }
    out.p_W[k] = value_[k];
  }
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_HUMAN class SkeletonSmoothing<double>;
RETARGET_TEMPLATE_HUMAN class SkeletonSmoothing<float>;
#endif

}  // namespace retarget
