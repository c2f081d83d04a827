#pragma once

/// @file
/// The element-wise update shared by the vector filters (`retarget::internal`): filter-size
/// check, and "hold the last value on a non-finite element, start each element from its first
/// finite sample".

#include <cmath>
#include <utility>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>

namespace retarget {
namespace internal {

/// Returns `dimension`; throws InvalidArgument unless it is >= 0.
RETARGET_DECL Eigen::Index checkedSize(Eigen::Index dimension);

/// Runs `step(i, xi, first)` for every element i whose sample xi = x[i] (cast to Scalar) is
/// finite, with `first` true for the element's first finite sample since construction or reset
/// (`initialized[i]` is then set), and returns the union of the returned statuses. A non-finite
/// element is skipped (its value held) and reports `kInvalidInput`. Precondition: x.size() ==
/// initialized.size() and `step` does not throw. Allocates nothing.
template <typename Scalar, typename Derived, typename Step>
Status updateFiniteElements(const Eigen::MatrixBase<Derived>& x, Eigen::Array<bool, Eigen::Dynamic, 1>& initialized,
                            Step&& step) noexcept {
  Status status;
  for (Eigen::Index i = 0; i < initialized.size(); ++i) {
    const Scalar xi = static_cast<Scalar>(x[i]);
    if (!std::isfinite(xi)) {
      status |= StatusCode::kInvalidInput;
      continue;
    }
    status |= step(i, xi, !std::exchange(initialized[i], true));
  }
  return status;
}

}  // namespace internal

#if RETARGET_DEFINE_FILTERS

namespace internal {

RETARGET_DECL Eigen::Index checkedSize(Eigen::Index dimension) {
  RETARGET_THROW_UNLESS(dimension >= 0, InvalidArgument, "filter dimension is invalid (got ", dimension,
                        ", expected >= 0)");
  return dimension;
}

}  // namespace internal

#endif  // RETARGET_DEFINE_FILTERS

}  // namespace retarget
