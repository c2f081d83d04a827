#pragma once

/// @file
/// Lag between two joint trajectories by cross-correlation: how many frames a follower (a
/// filter's output) trails a reference (the human's motion mapped instantaneously), the
/// measure seed 003 reports in seconds (Section 3: "a substantial lag of approximately 2 s" for
/// the joint-space particle filter; Section 7: "almost simultaneous" for the GPDM filter).
///
/// For each candidate lag L in [-max_lag, max_lag] frames and each column j whose reference
/// varies, the Pearson correlation r_j(L) of reference(t, j) with follower(t + L, j) over the
/// frames where both exist (means and deviations taken over that overlap); the lag is the L of
/// the largest mean r(L) over the columns. Positive L: the follower trails the reference.

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include "retarget/core/error.hpp"

namespace retarget {

/// Result of `trajectoryLag`.
struct TrajectoryLag {
  int lag = 0;               ///< frames; > 0: the follower trails the reference
  double correlation = 0.0;  ///< mean Pearson correlation over the columns at `lag`, in [-1, 1]
  int columns = 0;           ///< columns that vary in the reference (the others are left out)
};

/// The lag (frames) at which `follower` best matches `reference` (both frames x joints, same
/// size, any unit), searched over [-max_lag, max_lag]. A column counts when its reference
/// standard deviation exceeds `min_deviation` (the trajectory's unit). Throws InvalidArgument
/// when the sizes differ, max_lag is negative or leaves fewer than 3 overlapping frames, a value
/// is not finite, or no column varies.
RETARGET_DECL TrajectoryLag trajectoryLag(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& follower,
                                          int max_lag, double min_deviation = 1e-6);

#if RETARGET_DEFINE_METRICS

RETARGET_DECL TrajectoryLag trajectoryLag(const Eigen::MatrixXd& reference, const Eigen::MatrixXd& follower,
                                          int max_lag, double min_deviation) {
  RETARGET_THROW_UNLESS(reference.rows() == follower.rows() && reference.cols() == follower.cols(), InvalidArgument,
                        "follower (got ", follower.rows(), " x ", follower.cols(), ", expected ", reference.rows(),
                        " x ", reference.cols(), " like the reference)");
  RETARGET_THROW_UNLESS(max_lag >= 0 && reference.rows() - max_lag >= 3, InvalidArgument, "max_lag (got ", max_lag,
                        ", expected 0 ... frames - 3 = ", reference.rows() - 3, ")");
  RETARGET_THROW_UNLESS(reference.allFinite() && follower.allFinite(), InvalidArgument, "a value is not finite");
  TrajectoryLag best;
  best.correlation = -std::numeric_limits<double>::infinity();
  const Eigen::Index frames = reference.rows();
  for (int lag = -max_lag; lag <= max_lag; ++lag) {
    const Eigen::Index first = std::max<Eigen::Index>(0, -lag), count = frames - std::abs(lag);
    double sum = 0.0;
    int used = 0;
    for (Eigen::Index j = 0; j < reference.cols(); ++j) {
      const Eigen::VectorXd full = reference.col(j);
      const double full_mean = full.mean();
      if (!(std::sqrt((full.array() - full_mean).square().mean()) > min_deviation)) continue;
      const Eigen::ArrayXd a = reference.col(j).segment(first, count).array();
      const Eigen::ArrayXd b = follower.col(j).segment(first + lag, count).array();
      const Eigen::ArrayXd da = a - a.mean(), db = b - b.mean();
      const double denominator = std::sqrt(da.square().sum() * db.square().sum());
      sum += denominator > 0.0 ? (da * db).sum() / denominator : 0.0;  // a constant follower: uncorrelated
      ++used;
    }
    RETARGET_THROW_UNLESS(used > 0, InvalidArgument, "no reference column varies by more than ", min_deviation);
    const double mean = sum / used;
    if (mean > best.correlation + 1e-12 || (std::abs(mean - best.correlation) <= 1e-12 && std::abs(lag) < std::abs(best.lag))) {
      best.correlation = mean;
      best.lag = lag;
      best.columns = used;
    }
  }
  return best;
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
