#pragma once

/// @file
/// Gaussian mixture model (GMM) with full covariances, fitted by expectation-maximisation (EM)
/// from a k-means initialisation, with the number of components chosen by the Bayesian
/// information criterion (BIC): the encoding step of the imitation-learning case of seed 000
/// (Section 8, the density p(xi_j) = sum_k pi_k N(xi_j; mu_k, Sigma_k)). The regression step is
/// learning/gaussian_mixture_regression.hpp.
///
/// Data: N points of dimension D, ONE POINT PER ROW of an N x D matrix, in any unit (seed 000
/// uses (time step, joint angle in rad)).
///
/// Covariance regularisation r >= 0 (`GaussianMixtureOptions::regularization`, in the data's
/// unit squared): the M-step sets Sigma_k = S_k + r I (S_k the weighted scatter of component k),
/// like scikit-learn's `reg_covar`. So that EM still provably climbs, the E-step uses the matching
/// component scores pi_k N(x; mu_k, Sigma_k) exp(-r tr(Sigma_k^-1) / 2) (the expected log-density
/// of x under isotropic noise of variance r), and the quantity EM increases at every iteration is
///   L_r = sum_j log sum_k pi_k N(x_j; mu_k, Sigma_k) exp(-r tr(Sigma_k^-1) / 2)
/// (`GaussianMixtureFit::objective_history`). For r = 0 it is the plain log-likelihood. The
/// plain log-likelihood (`GaussianMixture::logLikelihood`) is what BIC uses.
///
/// Everything here allocates: it is for offline learning, not the per-frame path.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include "retarget/core/error.hpp"
#include "retarget/core/internal/portable_random.hpp"
#include "retarget/core/types.hpp"

namespace retarget {

/// Options of `fitGaussianMixture` and `fitGaussianMixtureBic` (a validated aggregate).
struct GaussianMixtureOptions {
  /// Largest number of components BIC may choose (fitGaussianMixtureBic tries 1 ... this). >= 1.
  int max_components = 8;
  /// EM iterations at most per start. >= 1.
  int max_iterations = 500;
  /// EM stops when the objective L_r per point rises by less than this. > 0.
  double tolerance = 1e-6;
  /// r: added to every covariance's diagonal (data unit squared; see the file doc). >= 0.
  double regularization = 1e-6;
  /// Lloyd iterations of the k-means initialisation. >= 1.
  int kmeans_iterations = 100;
  /// Independent starts (k-means++ seeding, k-means, EM); the best objective is kept. >= 1.
  int starts = 3;
  /// Seed of the k-means++ seeding (the same seed gives the same fit on every platform).
  std::uint64_t seed = 1;

  /// Throws InvalidArgument naming the field and its value.
  RETARGET_LAZY_DECL void validate() const;
};

/// A fitted mixture of K full-covariance Gaussians in D dimensions.
/// Invariant: weights (K) positive and summing to 1, means D x K (one mean per column),
/// K symmetric positive-definite D x D covariances.
struct GaussianMixture {
  /// pi_k, the prior of each component.
  Eigen::VectorXd weights;
  /// mu_k, one column per component (data unit).
  Eigen::MatrixXd means;
  /// Sigma_k (data unit squared).
  std::vector<Eigen::MatrixXd> covariances;

  /// K.
  int components() const { return static_cast<int>(weights.size()); }
  /// D.
  int dimension() const { return static_cast<int>(means.rows()); }

  /// Number of free parameters: (K - 1) weights, K D means, K D (D + 1) / 2 covariance entries.
  RETARGET_LAZY_DECL int parameterCount() const;

  /// log p(x) for one point x (D). Throws InvalidArgument on a size mismatch.
  RETARGET_LAZY_DECL double logDensity(const Eigen::VectorXd& x) const;

  /// Sum of log p(x_j) over the rows of `data` (N x D): the plain log-likelihood.
  RETARGET_LAZY_DECL double logLikelihood(const Eigen::MatrixXd& data) const;

  /// Bayesian information criterion of the mixture on `data` (N x D):
  /// -2 log-likelihood + parameterCount() log N. Lower is better.
  RETARGET_LAZY_DECL double bic(const Eigen::MatrixXd& data) const;

  /// log N(d; 0, Sigma) for a deviation d, Sigma given by its Cholesky factor.
  RETARGET_LAZY_DECL static double logGaussian(const Eigen::VectorXd& deviation, const Eigen::LLT<Eigen::MatrixXd>& llt);

  /// log sum_i exp(v_i), without overflow.
  RETARGET_LAZY_DECL static double logSumExp(const Eigen::VectorXd& v);
};

/// Result of a fit: the mixture and how EM got there.
struct GaussianMixtureFit {
  GaussianMixture mixture;
  /// L_r after every EM iteration of the kept start (non-decreasing up to rounding).
  std::vector<double> objective_history;
  /// EM iterations of the kept start.
  int iterations = 0;
  /// True when the kept start stopped on `tolerance` rather than `max_iterations`.
  bool converged = false;
  /// Plain log-likelihood of the data and BIC of the mixture.
  double log_likelihood = 0.0;
  double bic = 0.0;
};

namespace internal {

/// Throws InvalidArgument unless `data` (N x D) is non-empty and finite, naming the first bad cell.
RETARGET_LAZY_DECL void checkMixtureData(const Eigen::MatrixXd& data, int components);

/// k-means++ seeding then Lloyd iterations; returns the D x K centres. An emptied cluster is
/// moved to the point farthest from its centre.
RETARGET_LAZY_DECL Eigen::MatrixXd kMeansCentres(const Eigen::MatrixXd& data, int k, int iterations, PortableRandom& random);

/// Component scores log(pi_k N(x_j; mu_k, Sigma_k) exp(-r tr(Sigma_k^-1) / 2)), N x K; throws
/// when a covariance is not positive definite.
RETARGET_LAZY_DECL Eigen::MatrixXd mixtureLogScores(const Eigen::MatrixXd& data, const GaussianMixture& mixture, double r);

/// M-step from responsibilities `gamma` (N x K).
RETARGET_LAZY_DECL void mixtureMaximisation(const Eigen::MatrixXd& data, const Eigen::MatrixXd& gamma, double r,
                                       GaussianMixture& mixture);

/// One start: k-means centres, hard-assignment responsibilities, then EM.
RETARGET_LAZY_DECL GaussianMixtureFit fitMixtureOnce(const Eigen::MatrixXd& data, int k,
                                                const GaussianMixtureOptions& options, PortableRandom& random);

}  // namespace internal

/// Fits a mixture of exactly `components` Gaussians to `data` (N x D, one point per row) by EM
/// from k-means (best of `options.starts` seeded starts by the objective L_r).
/// Throws InvalidArgument for empty or non-finite data (naming the cell), components outside
/// 1 ... N, invalid options, or a singular covariance (possible only with regularization 0).
RETARGET_LAZY_DECL GaussianMixtureFit fitGaussianMixture(const Eigen::MatrixXd& data, int components,
                                                    const GaussianMixtureOptions& options = {});

/// Fits 1 ... min(max_components, N) components and keeps the fit with the lowest BIC
/// (ties go to fewer components). `bic_by_components`, when given, receives every BIC tried
/// (index K - 1). Same exceptions as fitGaussianMixture.
RETARGET_LAZY_DECL GaussianMixtureFit fitGaussianMixtureBic(const Eigen::MatrixXd& data,
                                                       const GaussianMixtureOptions& options = {},
                                                       std::vector<double>* bic_by_components = nullptr);

#if RETARGET_DEFINE_LEARNING

namespace internal {

RETARGET_LAZY_DEF void checkMixtureData(const Eigen::MatrixXd& data, int components) {
  RETARGET_THROW_UNLESS(data.rows() > 0 && data.cols() > 0, InvalidArgument, "mixture data (got ", data.rows(), " x ",
                        data.cols(), " points x dimensions, expected a non-empty matrix)");
  for (Eigen::Index c = 0; c < data.cols(); ++c) {
    for (Eigen::Index r = 0; r < data.rows(); ++r) {
      RETARGET_THROW_UNLESS(std::isfinite(data(r, c)), InvalidArgument, "mixture data(", r, ", ", c, ") (got ",
                            data(r, c), ", expected a finite value)");
    }
  }
  RETARGET_THROW_UNLESS(components >= 1 && components <= data.rows(), InvalidArgument, "mixture components (got ",
                        components, ", expected 1 ... the number of points, ", data.rows(), ")");
}

RETARGET_LAZY_DEF Eigen::MatrixXd kMeansCentres(const Eigen::MatrixXd& data, int k, int iterations,
                                            PortableRandom& random) {
  const Eigen::Index n = data.rows();
  Eigen::MatrixXd centres(data.cols(), k);
  centres.col(0) = data.row(static_cast<Eigen::Index>(random.uniform() * static_cast<double>(n))).transpose();
  Eigen::VectorXd nearest(n);
  for (Eigen::Index j = 0; j < n; ++j) nearest[j] = (data.row(j).transpose() - centres.col(0)).squaredNorm();
  for (int c = 1; c < k; ++c) {
    // Next centre drawn with probability proportional to the squared distance to the nearest one.
    const double total = nearest.sum();
    Eigen::Index pick = n - 1;
    if (total > 0.0) {
      double target = random.uniform() * total;
      for (Eigen::Index j = 0; j < n; ++j) {
        target -= nearest[j];
        if (target < 0.0) {
          pick = j;
          break;
        }
      }
    } else {
      pick = static_cast<Eigen::Index>(random.uniform() * static_cast<double>(n));
    }
    centres.col(c) = data.row(pick).transpose();
    for (Eigen::Index j = 0; j < n; ++j) {
      nearest[j] = std::min(nearest[j], (data.row(j).transpose() - centres.col(c)).squaredNorm());
    }
  }
  std::vector<int> label(static_cast<std::size_t>(n), -1);
  for (int iteration = 0; iteration < iterations; ++iteration) {
    bool changed = false;
    for (Eigen::Index j = 0; j < n; ++j) {
      Eigen::Index best = 0;
      (centres.colwise() - data.row(j).transpose()).colwise().squaredNorm().minCoeff(&best);
      if (label[static_cast<std::size_t>(j)] != static_cast<int>(best)) {
        label[static_cast<std::size_t>(j)] = static_cast<int>(best);
        changed = true;
      }
    }
    if (!changed && iteration > 0) break;
    Eigen::MatrixXd sums = Eigen::MatrixXd::Zero(data.cols(), k);
    Eigen::VectorXd counts = Eigen::VectorXd::Zero(k);
    for (Eigen::Index j = 0; j < n; ++j) {
      sums.col(label[static_cast<std::size_t>(j)]) += data.row(j).transpose();
      counts[label[static_cast<std::size_t>(j)]] += 1.0;
    }
    for (int c = 0; c < k; ++c) {
      if (counts[c] > 0.0) {
        centres.col(c) = sums.col(c) / counts[c];
      } else {
        Eigen::Index far = 0;
        Eigen::VectorXd distance(n);
        for (Eigen::Index j = 0; j < n; ++j) {
          distance[j] = (data.row(j).transpose() - centres.col(label[static_cast<std::size_t>(j)])).squaredNorm();
        }
        distance.maxCoeff(&far);
        centres.col(c) = data.row(far).transpose();
      }
    }
  }
  return centres;
}

RETARGET_LAZY_DEF Eigen::MatrixXd mixtureLogScores(const Eigen::MatrixXd& data, const GaussianMixture& mixture, double r) {
  const int k_count = mixture.components();
  Eigen::MatrixXd scores(data.rows(), k_count);
  for (int k = 0; k < k_count; ++k) {
    const Eigen::MatrixXd& sigma = mixture.covariances[static_cast<std::size_t>(k)];
    const Eigen::LLT<Eigen::MatrixXd> llt(sigma);
    RETARGET_THROW_UNLESS(llt.info() == Eigen::Success, InvalidArgument, "mixture component ", k,
                          ": its covariance is singular (the points it holds do not span every dimension; raise "
                          "GaussianMixtureOptions::regularization, now ",
                          r, ")");
    double penalty = 0.0;
    if (r > 0.0) {
      const Eigen::MatrixXd inverse = llt.solve(Eigen::MatrixXd::Identity(sigma.rows(), sigma.cols()));
      penalty = -0.5 * r * inverse.trace();
    }
    // All points at once: |L^-1 (x_j - mu_k)|^2 from one triangular solve.
    const Eigen::MatrixXd centred = (data.rowwise() - mixture.means.col(k).transpose()).transpose();
    const Eigen::MatrixXd whitened = llt.matrixL().solve(centred);
    double log_det = 0.0;
    for (Eigen::Index i = 0; i < sigma.rows(); ++i) log_det += 2.0 * std::log(llt.matrixL()(i, i));
    const double constant = std::log(mixture.weights[k]) + penalty -
                            0.5 * (log_det + static_cast<double>(sigma.rows()) * std::log(2.0 * kPi<double>));
    scores.col(k) = (constant - 0.5 * whitened.colwise().squaredNorm().array()).transpose();
  }
  return scores;
}

RETARGET_LAZY_DEF void mixtureMaximisation(const Eigen::MatrixXd& data, const Eigen::MatrixXd& gamma, double r,
                                       GaussianMixture& mixture) {
  const Eigen::Index n = data.rows();
  for (Eigen::Index k = 0; k < gamma.cols(); ++k) {
    // A floor on N_k keeps an emptied component defined (it keeps a vanishing weight).
    const double nk = gamma.col(k).sum() + 10.0 * std::numeric_limits<double>::epsilon();
    mixture.weights[k] = nk / static_cast<double>(n);
    const Eigen::VectorXd mean = (data.transpose() * gamma.col(k)) / nk;
    mixture.means.col(k) = mean;
    const Eigen::MatrixXd centred = data.rowwise() - mean.transpose();
    Eigen::MatrixXd sigma = (centred.transpose() * gamma.col(k).asDiagonal() * centred) / nk;
    sigma = 0.5 * (sigma + sigma.transpose()).eval();
    sigma.diagonal().array() += r;
    mixture.covariances[static_cast<std::size_t>(k)] = sigma;
  }
  mixture.weights /= mixture.weights.sum();
}

RETARGET_LAZY_DEF GaussianMixtureFit fitMixtureOnce(const Eigen::MatrixXd& data, int k,
                                                const GaussianMixtureOptions& options, PortableRandom& random) {
  const Eigen::Index n = data.rows();
  const Eigen::Index d = data.cols();
  const Eigen::MatrixXd centres = kMeansCentres(data, k, options.kmeans_iterations, random);
  Eigen::MatrixXd gamma = Eigen::MatrixXd::Zero(n, k);
  for (Eigen::Index j = 0; j < n; ++j) {
    Eigen::Index best = 0;
    (centres.colwise() - data.row(j).transpose()).colwise().squaredNorm().minCoeff(&best);
    gamma(j, best) = 1.0;
  }
  GaussianMixtureFit fit;
  fit.mixture.weights = Eigen::VectorXd::Zero(k);
  fit.mixture.means = Eigen::MatrixXd::Zero(d, k);
  fit.mixture.covariances.assign(static_cast<std::size_t>(k), Eigen::MatrixXd::Zero(d, d));
  const double r = options.regularization;
  mixtureMaximisation(data, gamma, r, fit.mixture);
  double previous = -std::numeric_limits<double>::infinity();
  for (int iteration = 1; iteration <= options.max_iterations; ++iteration) {
    // E-step: the objective of the current parameters and the responsibilities.
    const Eigen::MatrixXd scores = mixtureLogScores(data, fit.mixture, r);
    double objective = 0.0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const double log_norm = GaussianMixture::logSumExp(scores.row(j).transpose());
      objective += log_norm;
      gamma.row(j) = (scores.row(j).array() - log_norm).exp();
    }
    fit.objective_history.push_back(objective);
    fit.iterations = iteration;
    if (iteration > 1 && (objective - previous) < options.tolerance * static_cast<double>(n)) {
      fit.converged = true;
      break;
    }
    if (iteration == options.max_iterations) break;  // the returned mixture is the one evaluated
    previous = objective;
    mixtureMaximisation(data, gamma, r, fit.mixture);
  }
  return fit;
}

}  // namespace internal

RETARGET_LAZY_DEF double GaussianMixture::logLikelihood(const Eigen::MatrixXd& data) const {
  RETARGET_THROW_UNLESS(data.cols() == means.rows(), InvalidArgument, "GaussianMixture::logLikelihood: points of size ",
                        data.cols(), ", expected ", means.rows());
  const Eigen::MatrixXd scores = internal::mixtureLogScores(data, *this, 0.0);
  double total = 0.0;
  for (Eigen::Index j = 0; j < data.rows(); ++j) total += logSumExp(scores.row(j).transpose());
  return total;
}

RETARGET_LAZY_DEF GaussianMixtureFit fitGaussianMixture(const Eigen::MatrixXd& data, int components,
                                                    const GaussianMixtureOptions& options) {
  options.validate();
  internal::checkMixtureData(data, components);
  internal::PortableRandom random(options.seed);
  GaussianMixtureFit best;
  for (int start = 0; start < options.starts; ++start) {
    GaussianMixtureFit fit = internal::fitMixtureOnce(data, components, options, random);
    if (start == 0 || fit.objective_history.back() > best.objective_history.back()) best = std::move(fit);
  }
  best.log_likelihood = best.mixture.logLikelihood(data);
  best.bic = -2.0 * best.log_likelihood + best.mixture.parameterCount() * std::log(static_cast<double>(data.rows()));
  return best;
}

RETARGET_LAZY_DEF GaussianMixtureFit fitGaussianMixtureBic(const Eigen::MatrixXd& data,
                                                       const GaussianMixtureOptions& options,
                                                       std::vector<double>* bic_by_components) {
  options.validate();
  internal::checkMixtureData(data, 1);
  const int largest = static_cast<int>(std::min<Eigen::Index>(options.max_components, data.rows()));
  if (bic_by_components != nullptr) bic_by_components->clear();
  GaussianMixtureFit best;
  for (int k = 1; k <= largest; ++k) {
    GaussianMixtureFit fit = fitGaussianMixture(data, k, options);
    if (bic_by_components != nullptr) bic_by_components->push_back(fit.bic);
    if (k == 1 || fit.bic < best.bic) best = std::move(fit);
  }
  return best;
}

RETARGET_LAZY_DEF void GaussianMixtureOptions::validate() const {
  RETARGET_THROW_UNLESS(max_components >= 1, InvalidArgument, "GaussianMixtureOptions::max_components (got ",
                        max_components, ", expected >= 1)");
  RETARGET_THROW_UNLESS(max_iterations >= 1, InvalidArgument, "GaussianMixtureOptions::max_iterations (got ",
                        max_iterations, ", expected >= 1)");
  RETARGET_THROW_UNLESS(std::isfinite(tolerance) && tolerance > 0.0, InvalidArgument,
                        "GaussianMixtureOptions::tolerance (got ", tolerance, ", expected a finite value > 0)");
  RETARGET_THROW_UNLESS(std::isfinite(regularization) && regularization >= 0.0, InvalidArgument,
                        "GaussianMixtureOptions::regularization (got ", regularization,
                        ", expected a finite value >= 0)");
  RETARGET_THROW_UNLESS(kmeans_iterations >= 1, InvalidArgument, "GaussianMixtureOptions::kmeans_iterations (got ",
                        kmeans_iterations, ", expected >= 1)");
  RETARGET_THROW_UNLESS(starts >= 1, InvalidArgument, "GaussianMixtureOptions::starts (got ", starts,
                        ", expected >= 1)");
}

RETARGET_LAZY_DEF int GaussianMixture::parameterCount() const {
  const int k = components();
  const int d = dimension();
  return (k - 1) + k * d + k * d * (d + 1) / 2;
}

RETARGET_LAZY_DEF double GaussianMixture::logDensity(const Eigen::VectorXd& x) const {
  RETARGET_THROW_UNLESS(x.size() == means.rows(), InvalidArgument, "GaussianMixture::logDensity: point of size ",
                        x.size(), ", expected ", means.rows());
  Eigen::VectorXd log_terms(components());
  for (int k = 0; k < components(); ++k) {
    const Eigen::LLT<Eigen::MatrixXd> llt(covariances[static_cast<std::size_t>(k)]);
    log_terms[k] = std::log(weights[k]) + logGaussian(x - means.col(k), llt);
  }
  return logSumExp(log_terms);
}

RETARGET_LAZY_DEF double GaussianMixture::bic(const Eigen::MatrixXd& data) const {
  return -2.0 * logLikelihood(data) + parameterCount() * std::log(static_cast<double>(data.rows()));
}

RETARGET_LAZY_DEF double GaussianMixture::logGaussian(const Eigen::VectorXd& deviation,
                                                  const Eigen::LLT<Eigen::MatrixXd>& llt) {
  const Eigen::VectorXd w = llt.matrixL().solve(deviation);
  double log_det = 0.0;
  for (Eigen::Index i = 0; i < deviation.size(); ++i) log_det += 2.0 * std::log(llt.matrixL()(i, i));
  return -0.5 * (w.squaredNorm() + log_det + static_cast<double>(deviation.size()) * std::log(2.0 * kPi<double>));
}

RETARGET_LAZY_DEF double GaussianMixture::logSumExp(const Eigen::VectorXd& v) {
  const double top = v.maxCoeff();
  if (!std::isfinite(top)) return top;
  return top + std::log((v.array() - top).exp().sum());
}

#endif  // RETARGET_DEFINE_LEARNING

}  // namespace retarget
