#pragma once

/// @file
/// Gaussian mixture regression (GMR): the conditional distribution of the output coordinates of
/// a Gaussian mixture (learning/gaussian_mixture.hpp) given its input coordinates; seed 000,
/// Section 8, after Calinon et al. (the paper's [57]). With the point split as xi = (xi_t, xi_a)
/// (input first, `input_dim` coordinates; output the rest), each component k gives
///   xi_a,k = mu_a,k + Sigma_at,k Sigma_tt,k^-1 (xi_t - mu_t,k)
///   S_k    = Sigma_aa,k - Sigma_at,k Sigma_tt,k^-1 Sigma_ta,k
/// weighted by beta_k = pi_k N(xi_t; mu_t,k, Sigma_tt,k) / sum_i pi_i N(xi_t; mu_t,i, Sigma_tt,i),
/// and the prediction is xi_a = sum_k beta_k xi_a,k. Its covariance is, by default, the exact
/// covariance of the conditional mixture, sum_k beta_k (S_k + xi_a,k xi_a,k^T) - xi_a xi_a^T
/// (`GmrVariance::kMixture`); the paper's form sum_k beta_k^2 S_k (`GmrVariance::kPaper`)
/// leaves out the spread between the components' predictions and is offered for comparison.
///
/// Construction allocates; `predict` allocates its result (offline use).

#include <cmath>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include "retarget/core/error.hpp"
#include "retarget/learning/gaussian_mixture.hpp"

namespace retarget {

/// Which covariance GMR reports (see the file doc).
enum class GmrVariance {
  kMixture,  ///< exact covariance of the conditional mixture (default)
  kPaper,    ///< sum_k beta_k^2 S_k, seed 000 Section 8
};

/// One GMR prediction: mean and covariance of the output coordinates (data unit, unit squared).
struct GmrPrediction {
  Eigen::VectorXd mean;
  Eigen::MatrixXd covariance;
};

namespace internal {

/// `retarget::GaussianMixtureRegression` (below) is this template for `void`: a template only so that its member
/// functions are compiled where a program uses them, not in every translation unit that
/// includes this header (header-only mode).
template <typename Lazy>
class GaussianMixtureRegression {
 public:
  /// Throws InvalidArgument unless 1 <= input_dim < the mixture's dimension, or when a
  /// component's input block is not positive definite.
  GaussianMixtureRegression(GaussianMixture mixture, int input_dim);

  /// Input dimension and output dimension.
  int inputDim() const { return input_dim_; }
  int outputDim() const { return mixture_.dimension() - input_dim_; }
  /// The mixture conditioned on.
  const GaussianMixture& mixture() const { return mixture_; }

  /// beta_k for the input (K; sums to 1). Throws InvalidArgument on a size mismatch or a
  /// non-finite input.
  Eigen::VectorXd responsibilities(const Eigen::VectorXd& input) const;

  /// Mean and covariance of the outputs given `input`. Same exceptions as responsibilities.
  GmrPrediction predict(const Eigen::VectorXd& input, GmrVariance variance = GmrVariance::kMixture) const;

 private:
  struct Component {
    Eigen::LLT<Eigen::MatrixXd> input_llt;
    Eigen::MatrixXd gain;        // Sigma_at Sigma_tt^-1 (out x in)
    Eigen::MatrixXd covariance;  // S_k (out x out)
  };
  GaussianMixture mixture_;
  int input_dim_ = 1;
  std::vector<Component> components_;
};

}  // namespace internal

/// Conditioning of one mixture on its first `input_dim` coordinates.
using GaussianMixtureRegression = internal::GaussianMixtureRegression<void>;

#if RETARGET_DEFINE_LEARNING

template <typename Lazy>
internal::GaussianMixtureRegression<Lazy>::GaussianMixtureRegression(GaussianMixture mixture, int input_dim)
    : mixture_(std::move(mixture)), input_dim_(input_dim) {
  const int d = mixture_.dimension();
  RETARGET_THROW_UNLESS(input_dim >= 1 && input_dim < d, InvalidArgument, "GMR input_dim (got ", input_dim,
                        ", expected 1 ... ", d - 1, " for a mixture of dimension ", d, ")");
  const int out = d - input_dim;
  for (int k = 0; k < mixture_.components(); ++k) {
    const Eigen::MatrixXd& sigma = mixture_.covariances[static_cast<std::size_t>(k)];
    Component c;
    c.input_llt.compute(sigma.topLeftCorner(input_dim, input_dim));
    RETARGET_THROW_UNLESS(c.input_llt.info() == Eigen::Success, InvalidArgument, "GMR component ", k,
                          ": the input block of its covariance is not positive definite");
    // gain = Sigma_at Sigma_tt^-1, computed as (Sigma_tt^-1 Sigma_ta)^T.
    c.gain = c.input_llt.solve(sigma.topRightCorner(input_dim, out)).transpose();
    c.covariance = sigma.bottomRightCorner(out, out) - c.gain * sigma.topRightCorner(input_dim, out);
    c.covariance = 0.5 * (c.covariance + c.covariance.transpose()).eval();
    components_.push_back(std::move(c));
  }
}

template <typename Lazy>
Eigen::VectorXd internal::GaussianMixtureRegression<Lazy>::responsibilities(const Eigen::VectorXd& input) const {
  RETARGET_THROW_UNLESS(input.size() == input_dim_ && input.allFinite(), InvalidArgument,
                        "GMR input (got size ", input.size(), ", expected ", input_dim_, " finite values)");
  const int k_count = mixture_.components();
  Eigen::VectorXd log_beta(k_count);
  for (int k = 0; k < k_count; ++k) {
    log_beta[k] = std::log(mixture_.weights[k]) +
                  GaussianMixture::logGaussian(input - mixture_.means.col(k).head(input_dim_),
                                               components_[static_cast<std::size_t>(k)].input_llt);
  }
  const double norm = GaussianMixture::logSumExp(log_beta);
  return (log_beta.array() - norm).exp();
}

template <typename Lazy>
GmrPrediction internal::GaussianMixtureRegression<Lazy>::predict(const Eigen::VectorXd& input,
                                                               GmrVariance variance) const {
  const Eigen::VectorXd beta = responsibilities(input);
  const int out = outputDim();
  GmrPrediction p{Eigen::VectorXd::Zero(out), Eigen::MatrixXd::Zero(out, out)};
  std::vector<Eigen::VectorXd> local(components_.size());
  for (std::size_t k = 0; k < components_.size(); ++k) {
    const auto ki = static_cast<Eigen::Index>(k);
    local[k] = mixture_.means.col(ki).tail(out) +
               components_[k].gain * (input - mixture_.means.col(ki).head(input_dim_));
    p.mean += beta[ki] * local[k];
  }
  for (std::size_t k = 0; k < components_.size(); ++k) {
    const double b = beta[static_cast<Eigen::Index>(k)];
    if (variance == GmrVariance::kPaper) {
      p.covariance += b * b * components_[k].covariance;
    } else {
      p.covariance += b * (components_[k].covariance + local[k] * local[k].transpose());
    }
  }
  if (variance == GmrVariance::kMixture) p.covariance -= p.mean * p.mean.transpose();
  return p;
}

#endif  // RETARGET_DEFINE_LEARNING

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_LEARNING class internal::GaussianMixtureRegression<void>;
#endif

}  // namespace retarget
