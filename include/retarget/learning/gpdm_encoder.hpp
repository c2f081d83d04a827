#pragma once

/// @file
/// The encoder Θ -> X of seed 003, Section 6: joint angles to the GPDM's latent points. "The GPDM
/// does not define an encoder mapping, which is obtained by a feed-forward neural network, where
/// the learning dataset of humanoid robot joint angles, Θ, is the input, and the GPDM learned
/// motion model, X, is the output", split 70 % / 15 % / 15 % into training, validation and test.
///
/// Ours, a documented replacement: kernel ridge regression (the mean of a Gaussian process) from
/// the varying joint angles to the latent points, x(θ) = k(θ, Θ_tr) (K_tr + λ I)^-1 X_tr with
/// k(θ, θ') = exp(-|θ - θ'|^2 / (2 ℓ^2)) (θ in radians, ℓ in radians). The same split: frame i of
/// the model goes to training when i mod 20 < 14, to validation when 14 <= i mod 20 < 17, to test
/// otherwise (70 / 15 / 15 %, spread over the whole motion). ℓ (a multiple of the median distance
/// between training frames) and λ are chosen on the validation frames; the test frames' RMS error
/// (latent units) is reported. It needs no network library, trains in closed form, and a GP mean
/// is what the rest of the GPDM already is. `nearestLatent` is the simplest encoder of all (the
/// latent point of the training frame nearest in joint space), for comparison.
///
/// The encoder is for the paper's prediction check (Figs. 12-13: encode θ_t, step the dynamics,
/// decode θ_{t+1}); the GPDM particle filter does not need one (its particles live in the latent
/// space from the start). Allocates: training and encoding are not for the per-frame path.
///
/// Eigen only (no LBFGSpp): it needs a trained `GpdmModel`, not the training.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "retarget/core/compilation.hpp"
#include "retarget/core/error.hpp"
#include "retarget/learning/gpdm.hpp"

namespace retarget {

/// Options of `GpdmEncoder` (a validated aggregate).
struct GpdmEncoderOptions {
  /// Kernel widths tried, as multiples of the median distance between training frames (> 0).
  std::vector<double> width_factors{0.25, 0.5, 1.0, 2.0, 4.0};
  /// Regularisations λ tried (> 0).
  std::vector<double> regularisations{1e-6, 1e-4, 1e-2, 1e-1};

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

namespace internal {

/// `retarget::GpdmEncoder` (below) is this template for `void`: a template only so that its member
/// functions are compiled where a program uses them, not in every translation unit that
/// includes this header (header-only mode).
template <typename Lazy>
class GpdmEncoder {
 public:
  /// Fits the encoder of `model` (needs >= 20 frames so that every split has frames). Throws
  /// InvalidArgument for bad options or too few frames.
  explicit GpdmEncoder(const retarget::GpdmModel& model, GpdmEncoderOptions options = {});

  /// Latent point (d values) of joint angles `theta` (D values, radians, the model's columns).
  Eigen::VectorXd encode(const Eigen::VectorXd& theta) const;

  /// RMS error (latent units) on the validation and test frames of the 70/15/15 split.
  double validationRms() const noexcept { return validation_rms_; }
  double testRms() const noexcept { return test_rms_; }
  /// The chosen kernel width ℓ (rad) and regularisation λ.
  double width() const noexcept { return width_; }
  double regularisation() const noexcept { return best_lambda_; }

 private:
  Eigen::MatrixXd select(const Eigen::MatrixXd& y) const;
  static Eigen::MatrixXd rows(const Eigen::MatrixXd& m, const std::vector<Eigen::Index>& index);
  bool solve(const Eigen::MatrixXd& x_train, double lambda);
  double rms(const Eigen::MatrixXd& theta, const Eigen::MatrixXd& x) const;

  std::vector<Eigen::Index> columns_;
  Eigen::MatrixXd theta_train_;
  Eigen::MatrixXd weights_;
  double width_ = 1.0;
  double best_width_ = 1.0;
  double best_lambda_ = 1e-4;
  double validation_rms_ = 0.0;
  double test_rms_ = 0.0;
};

}  // namespace internal

/// Kernel ridge encoder from joint angles to a GPDM's latent points (see the file doc).
using GpdmEncoder = internal::GpdmEncoder<void>;

/// The latent point of the training frame of `model` nearest to `theta` (D values, radians) in
/// joint space: the simplest encoder, for comparison with `GpdmEncoder`.
RETARGET_DECL Eigen::VectorXd nearestLatent(const GpdmModel& model, const Eigen::VectorXd& theta);

#if RETARGET_DEFINE_LEARNING

RETARGET_DECL void GpdmEncoderOptions::validate() const {
  RETARGET_THROW_UNLESS(!width_factors.empty() && !regularisations.empty(), InvalidArgument,
                        "GpdmEncoderOptions: width_factors and regularisations need at least one value each");
  for (double w : width_factors) {
    RETARGET_THROW_UNLESS(std::isfinite(w) && w > 0.0, InvalidArgument, "GpdmEncoderOptions::width_factors (got ", w,
                          ", expected finite values > 0)");
  }
  for (double r : regularisations) {
    RETARGET_THROW_UNLESS(std::isfinite(r) && r > 0.0, InvalidArgument, "GpdmEncoderOptions::regularisations (got ",
                          r, ", expected finite values > 0)");
  }
}

template <typename Lazy>
internal::GpdmEncoder<Lazy>::GpdmEncoder(const retarget::GpdmModel& model, GpdmEncoderOptions options) {
  options.validate();
  const Eigen::Index n = model.frames();
  RETARGET_THROW_UNLESS(n >= 20, InvalidArgument, "the model has ", n, " frames, expected >= 20");
  for (Eigen::Index c = 0; c < model.observationDim(); ++c) {
    const auto column = model.observations().col(c);
    if (column.maxCoeff() - column.minCoeff() > retarget::GpdmModel::kConstantColumnRange) columns_.push_back(c);
  }
  RETARGET_THROW_UNLESS(!columns_.empty(), InvalidArgument, "no joint varies in the model");
  std::vector<Eigen::Index> train, validation, test;
  for (Eigen::Index i = 0; i < n; ++i) {
    const Eigen::Index r = i % 20;
    (r < 14 ? train : r < 17 ? validation : test).push_back(i);
  }
  const Eigen::MatrixXd theta = select(model.observations());
  theta_train_ = rows(theta, train);
  const Eigen::MatrixXd x_train = rows(model.latent(), train);
  // Median distance between training frames: the scale of the widths tried.
  std::vector<double> distances;
  for (Eigen::Index i = 0; i < theta_train_.rows(); ++i) {
    for (Eigen::Index j = i + 1; j < theta_train_.rows(); ++j) distances.push_back((theta_train_.row(i) - theta_train_.row(j)).norm());
  }
  std::nth_element(distances.begin(), distances.begin() + static_cast<std::ptrdiff_t>(distances.size() / 2), distances.end());
  const double median = std::max(distances[distances.size() / 2], 1e-6);
  double best = std::numeric_limits<double>::infinity();
  for (double factor : options.width_factors) {
    for (double lambda : options.regularisations) {
      width_ = factor * median;
      if (!solve(x_train, lambda)) continue;
      const double error = rms(rows(theta, validation), rows(model.latent(), validation));
      if (error < best) {
        best = error;
        best_width_ = width_;
        best_lambda_ = lambda;
      }
    }
  }
  RETARGET_THROW_UNLESS(std::isfinite(best), Error, "no width and regularisation gave a solvable fit");
  width_ = best_width_;
  (void)solve(x_train, best_lambda_);
  validation_rms_ = best;
  test_rms_ = rms(rows(theta, test), rows(model.latent(), test));
}

template <typename Lazy>
Eigen::VectorXd internal::GpdmEncoder<Lazy>::encode(const Eigen::VectorXd& theta) const {
  Eigen::VectorXd k(theta_train_.rows());
  const Eigen::VectorXd t = select(theta.transpose()).transpose();
  for (Eigen::Index i = 0; i < k.size(); ++i) k(i) = std::exp(-(theta_train_.row(i).transpose() - t).squaredNorm() / (2 * width_ * width_));
  return weights_.transpose() * k;
}

template <typename Lazy>
Eigen::MatrixXd internal::GpdmEncoder<Lazy>::select(const Eigen::MatrixXd& y) const {
  Eigen::MatrixXd out(y.rows(), static_cast<Eigen::Index>(columns_.size()));
  for (std::size_t c = 0; c < columns_.size(); ++c) out.col(static_cast<Eigen::Index>(c)) = y.col(columns_[c]);
  return out;
}

template <typename Lazy>
Eigen::MatrixXd internal::GpdmEncoder<Lazy>::rows(const Eigen::MatrixXd& m, const std::vector<Eigen::Index>& index) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(index.size()), m.cols());
  for (std::size_t r = 0; r < index.size(); ++r) out.row(static_cast<Eigen::Index>(r)) = m.row(index[r]);
  return out;
}

template <typename Lazy>
bool internal::GpdmEncoder<Lazy>::solve(const Eigen::MatrixXd& x_train, double lambda) {
  const Eigen::Index n = theta_train_.rows();
  Eigen::MatrixXd k(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j) {
      k(i, j) = std::exp(-(theta_train_.row(i) - theta_train_.row(j)).squaredNorm() / (2 * width_ * width_));
    }
  }
  k.diagonal().array() += lambda;
  const Eigen::LLT<Eigen::MatrixXd> llt(k);
  if (llt.info() != Eigen::Success) return false;
  weights_ = llt.solve(x_train);
  return weights_.allFinite();
}

template <typename Lazy>
double internal::GpdmEncoder<Lazy>::rms(const Eigen::MatrixXd& theta, const Eigen::MatrixXd& x) const {
  double sum = 0;
  for (Eigen::Index i = 0; i < theta.rows(); ++i) {
    Eigen::VectorXd k(theta_train_.rows());
    for (Eigen::Index j = 0; j < k.size(); ++j) {
      k(j) = std::exp(-(theta_train_.row(j) - theta.row(i)).squaredNorm() / (2 * width_ * width_));
    }
    sum += (weights_.transpose() * k - x.row(i).transpose()).squaredNorm();
  }
  return std::sqrt(sum / static_cast<double>(std::max<Eigen::Index>(1, theta.rows() * x.cols())));
}

RETARGET_DECL Eigen::VectorXd nearestLatent(const GpdmModel& model, const Eigen::VectorXd& theta) {
  Eigen::Index best = 0;
  (model.observations().rowwise() - theta.transpose()).rowwise().squaredNorm().minCoeff(&best);
  return model.latent().row(best).transpose();
}

#endif  // RETARGET_DEFINE_LEARNING

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_LEARNING class internal::GpdmEncoder<void>;
#endif

}  // namespace retarget
