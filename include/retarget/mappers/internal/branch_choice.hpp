#pragma once

/// @file
/// Shared pieces of the continuity rule (mappers/mapper.hpp): mappers that choose among
/// equivalent solutions (branches, turns of 2 pi) take the one nearest the previous frame.
/// Used by the triangle and Euler/BVH mappers (and GA-LVVJ's legs, for wrapAngle).

#include <algorithm>
#include <cmath>
#include <limits>

#include <retarget/core/types.hpp>

namespace retarget::internal {

/// Wraps `x` into (-pi, pi].
template <typename Scalar>
Scalar wrapAngle(Scalar x) {
  const Scalar two_pi = 2 * kPi<Scalar>;
  x = std::remainder(x, two_pi);
  if (x <= -kPi<Scalar>) x += two_pi;
  return x;
}

/// The turn value + period * m (m whole) nearest `reference`; with `within_limits`, kept within
/// [lo, hi] (either may be infinite) when some turn lies there.
template <typename Scalar>
Scalar nearestTurn(Scalar value, Scalar reference, Scalar lo, Scalar hi, Scalar period, bool within_limits) {
  using std::ceil, std::floor, std::round;
  Scalar m = round((reference - value) / period);
  const Scalar m_lo = std::isfinite(lo) ? ceil((lo - value) / period) : -std::numeric_limits<Scalar>::infinity();
  const Scalar m_hi = std::isfinite(hi) ? floor((hi - value) / period) : std::numeric_limits<Scalar>::infinity();
  if (within_limits && m_lo <= m_hi) m = std::min(std::max(m, m_lo), m_hi);
  return value + period * m;
}

/// Order of candidate solutions `x`, `y` (anything with `excess`: largest distance of a value
/// outside its limits, and `step`: largest step from the previous frame): true when `x` is
/// better. Candidates within `margin` of the limits come first, nearest the previous frame;
/// otherwise the least outside them.
template <typename Candidate, typename Scalar>
bool nearerBranch(const Candidate& x, const Candidate& y, Scalar margin) {
  const bool x_in = x.excess <= margin, y_in = y.excess <= margin;
  if (x_in != y_in) return x_in;
  if (x_in) return x.step < y.step;
  return x.excess < y.excess || (x.excess == y.excess && x.step < y.step);
}

}  // namespace retarget::internal
