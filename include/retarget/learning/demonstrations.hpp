#pragma once

/// @file
/// Learning one gesture from several demonstrations (seed 000, Section 8): the demonstrations'
/// joint trajectories (e.g. GA-LVVJ output, rad), already aligned in time (the paper aligns them
/// by DTW: metrics/dtw_alignment.hpp, as `retarget learn gmr` does), are resampled to a fixed
/// number of steps (the paper's 100), encoded per joint by a GMM on (step, angle) fitted by EM
/// with the number of components chosen by BIC (learning/gaussian_mixture.hpp), and generalised
/// by GMR at every step (learning/gaussian_mixture_regression.hpp): a mean trajectory with its
/// variance.
///
/// A demonstration is an n x J matrix, ONE FRAME PER ROW, the same J joints in the same order in
/// every demonstration. Resampling is linear in the frame index, first and last frames kept.
/// Time in the GMM is the step index 0 ... steps - 1. The GMR mean is kept within the range of
/// the joint's demonstrated values (a blend of local regressions can overshoot it slightly), so
/// demonstrations within joint limits give a result within them; a joint whose demonstrated
/// values span no more than `still_range` keeps their mean (0 components, variance 0).
///
/// Everything here allocates (offline learning).

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include "retarget/core/error.hpp"
#include "retarget/learning/gaussian_mixture.hpp"
#include "retarget/learning/gaussian_mixture_regression.hpp"

namespace retarget {

/// Options of `learnFromDemonstrations` (a validated aggregate).
struct DemonstrationLearningOptions {
  /// Steps every demonstration is resampled to (the paper's 100). >= 2.
  int steps = 100;
  /// Components of every joint's GMM, or 0 to choose by BIC over 1 ... mixture.max_components.
  int components = 0;
  /// EM settings (regularisation in rad^2 for the angle and step^2 for the time coordinate).
  GaussianMixtureOptions mixture{};
  /// Which GMR covariance `GeneralisedTrajectory::variance` holds.
  GmrVariance variance = GmrVariance::kMixture;
  /// A joint whose demonstrated values span no more than this (rad) is still: it keeps the mean
  /// of its values, with no mixture. >= 0.
  double still_range = 1e-9;

  /// Throws InvalidArgument naming the field and its value.
  RETARGET_LAZY_DECL void validate() const;
};

/// The generalised gesture: steps x J mean (rad) and variance (rad^2) from GMR, with how it was
/// made.
struct GeneralisedTrajectory {
  Eigen::MatrixXd mean;
  Eigen::MatrixXd variance;
  /// GMM components of each joint (BIC's choice or the requested number; 0 for a joint that
  /// never moves).
  std::vector<int> components;
  /// The demonstrations after resampling (steps x J each), as fitted.
  std::vector<Eigen::MatrixXd> resampled;
};

/// Resamples `frames` (n x J, n >= 1) to `steps` rows by linear interpolation in the frame
/// index; row 0 and row steps - 1 are the first and last frames.
RETARGET_LAZY_DECL Eigen::MatrixXd resampleFrames(const Eigen::MatrixXd& frames, int steps);

/// Resample, one GMM per joint on (step, angle), GMR at every step. Throws InvalidArgument for
/// no demonstrations, one with fewer than 2 frames, differing joint counts or a non-finite angle
/// (naming demonstration, frame and joint), for invalid options, and as fitGaussianMixture.
RETARGET_LAZY_DECL GeneralisedTrajectory learnFromDemonstrations(const std::vector<Eigen::MatrixXd>& demonstrations,
                                                            const DemonstrationLearningOptions& options = {});

#if RETARGET_DEFINE_LEARNING

RETARGET_LAZY_DEF Eigen::MatrixXd resampleFrames(const Eigen::MatrixXd& frames, int steps) {
  RETARGET_THROW_UNLESS(frames.rows() >= 1 && steps >= 2, InvalidArgument, frames.rows(), " frames to ", steps,
                        " steps (expected >= 1 frame and >= 2 steps)");
  Eigen::MatrixXd out(steps, frames.cols());
  const double last = static_cast<double>(frames.rows() - 1);
  for (int s = 0; s < steps; ++s) {
    const double at = last * static_cast<double>(s) / static_cast<double>(steps - 1);
    const auto below = std::min(static_cast<Eigen::Index>(std::floor(at)), frames.rows() - 1);
    const auto above = std::min<Eigen::Index>(below + 1, frames.rows() - 1);
    const double f = at - static_cast<double>(below);
    out.row(s) = (1.0 - f) * frames.row(below) + f * frames.row(above);
  }
  return out;
}

RETARGET_LAZY_DEF GeneralisedTrajectory learnFromDemonstrations(const std::vector<Eigen::MatrixXd>& demonstrations,
                                                            const DemonstrationLearningOptions& options) {
  options.validate();
  RETARGET_THROW_UNLESS(!demonstrations.empty(), InvalidArgument, "demonstrations: none given");
  const Eigen::Index joints = demonstrations.front().cols();
  GeneralisedTrajectory result;
  for (std::size_t d = 0; d < demonstrations.size(); ++d) {
    const Eigen::MatrixXd& m = demonstrations[d];
    RETARGET_THROW_UNLESS(m.rows() >= 2 && m.cols() >= 1 && m.cols() == joints, InvalidArgument, "demonstration ", d,
                          " is ", m.rows(), " frames x ", m.cols(), " joints (expected >= 2 frames and ", joints,
                          " joints, as the first)");
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      for (Eigen::Index r = 0; r < m.rows(); ++r) {
        RETARGET_THROW_UNLESS(std::isfinite(m(r, c)), InvalidArgument, "demonstration ", d, " frame ", r, " joint ", c,
                              " (got ", m(r, c), ", expected a finite angle)");
      }
    }
    result.resampled.push_back(resampleFrames(m, options.steps));
  }
  const Eigen::Index steps = options.steps;
  const auto count = static_cast<Eigen::Index>(result.resampled.size());
  result.mean.resize(steps, joints);
  result.variance.resize(steps, joints);
  for (Eigen::Index joint = 0; joint < joints; ++joint) {
    Eigen::MatrixXd data(steps * count, 2);
    for (Eigen::Index d = 0; d < count; ++d) {
      for (Eigen::Index s = 0; s < steps; ++s) {
        data(d * steps + s, 0) = static_cast<double>(s);
        data(d * steps + s, 1) = result.resampled[static_cast<std::size_t>(d)](s, joint);
      }
    }
    // A joint that never moves keeps its value (no mixture: its data has no spread).
    const double low = data.col(1).minCoeff(), high = data.col(1).maxCoeff();
    if (high - low <= options.still_range) {
      result.components.push_back(0);
      result.mean.col(joint).setConstant(std::min(std::max(data.col(1).mean(), low), high));
      result.variance.col(joint).setZero();
      continue;
    }
    const GaussianMixtureFit fit = options.components > 0
                                       ? fitGaussianMixture(data, options.components, options.mixture)
                                       : fitGaussianMixtureBic(data, options.mixture);
    result.components.push_back(fit.mixture.components());
    const GaussianMixtureRegression gmr(fit.mixture, 1);
    for (Eigen::Index s = 0; s < steps; ++s) {
      const GmrPrediction p = gmr.predict(Eigen::VectorXd::Constant(1, static_cast<double>(s)), options.variance);
      result.mean(s, joint) = std::min(std::max(p.mean[0], low), high);
      result.variance(s, joint) = std::max(0.0, p.covariance(0, 0));
    }
  }
  return result;
}

RETARGET_LAZY_DEF void DemonstrationLearningOptions::validate() const {
  RETARGET_THROW_UNLESS(steps >= 2, InvalidArgument, "DemonstrationLearningOptions::steps (got ", steps,
                        ", expected >= 2)");
  RETARGET_THROW_UNLESS(components >= 0, InvalidArgument, "DemonstrationLearningOptions::components (got ",
                        components, ", expected >= 0; 0 = choose by BIC)");
  RETARGET_THROW_UNLESS(std::isfinite(still_range) && still_range >= 0.0, InvalidArgument,
                        "DemonstrationLearningOptions::still_range (got ", still_range,
                        ", expected a finite value >= 0 rad)");
  mixture.validate();
}

#endif  // RETARGET_DEFINE_LEARNING

}  // namespace retarget
