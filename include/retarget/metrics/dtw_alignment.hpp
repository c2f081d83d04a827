#pragma once

/// @file
/// Time alignment by dynamic time warping (metrics/dtw.hpp): warping a sequence onto the
/// timeline of a reference, and choosing the reference of a set (the medoid). Used to align
/// demonstrations before learning from them (seed 000, Section 8: "aligned temporarily using
/// DTW"; learning/demonstrations.hpp).
///
/// Layout as in dtw.hpp: a sequence of n frames of dimension d is a d x n matrix, ONE FRAME PER
/// COLUMN. Local distance: Euclidean, no window.

#include <vector>

#include <Eigen/Core>

#include <retarget/core/error.hpp>
#include <retarget/metrics/dtw.hpp>

namespace retarget {

/// `sequence` (d x n) warped onto the timeline of `reference` (d x m): column j of the result
/// (d x m) is the mean of the columns of `sequence` that the optimal warping path matches with
/// column j of `reference`. A sequence aligned to itself comes back unchanged. Same exceptions as
/// dtwCostMatrix (empty or non-finite sequences, different d).
template <typename DerivedA, typename DerivedB>
Eigen::Matrix<typename DerivedA::Scalar, Eigen::Dynamic, Eigen::Dynamic> dtwAlignToReference(
    const Eigen::MatrixBase<DerivedA>& sequence, const Eigen::MatrixBase<DerivedB>& reference) {
  using Scalar = typename DerivedA::Scalar;
  const DtwResult<Scalar> result = dtwWithPath(sequence, reference);
  Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic> warped =
      Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>::Zero(reference.rows(), reference.cols());
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> count = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>::Zero(reference.cols());
  for (const DtwStep& step : result.path) {
    warped.col(static_cast<Eigen::Index>(step.j)) += sequence.col(static_cast<Eigen::Index>(step.i));
    count[static_cast<Eigen::Index>(step.j)] += Scalar(1);
  }
  // A full warping path is continuous and monotone: it visits every column of the reference.
  for (Eigen::Index j = 0; j < warped.cols(); ++j) warped.col(j) /= count[j];
  return warped;
}

/// Index of the medoid of `sequences` (each d x n_i): the one with the smallest summed DTW
/// distance per path cell (kPathLength, so that sequence length does not count) to the others (ties to the lower index; 0 for a single sequence). Throws
/// InvalidArgument for an empty set, and as dtwCostMatrix.
template <typename Matrix>
int dtwMedoid(const std::vector<Matrix>& sequences) {
  RETARGET_THROW_UNLESS(!sequences.empty(), InvalidArgument, "no sequences given");
  const auto n = static_cast<Eigen::Index>(sequences.size());
  Eigen::MatrixXd distance = Eigen::MatrixXd::Zero(n, n);
  const DtwOptions per_cell{kNoDtwWindow, DtwNormalization::kPathLength};
  for (Eigen::Index a = 0; a < n; ++a) {
    for (Eigen::Index b = a + 1; b < n; ++b) {
      const double cost = static_cast<double>(dtw(sequences[static_cast<std::size_t>(a)],
                                                  sequences[static_cast<std::size_t>(b)], per_cell)
                                                  .distance);
      distance(a, b) = cost;
      distance(b, a) = cost;
    }
  }
  Eigen::Index best = 0;
  distance.rowwise().sum().minCoeff(&best);
  return static_cast<int>(best);
}

}  // namespace retarget
