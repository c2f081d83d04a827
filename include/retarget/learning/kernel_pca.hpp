#pragma once

/// @file
/// Kernel principal component analysis with a Gaussian (RBF) kernel: the first stage of the
/// learning pipeline of the GPDM particle filter (seed 003, Section 4, Figure 4 and Figure 7a),
/// which reduces robot joint-angle frames (radians) to a low-dimensional latent space that
/// initialises the GPDM (learning/gpdm.hpp).
///
/// Given frames y_1..y_N (rows of an N x D matrix, any unit; the robot layer uses radians), the
/// kernel matrix K_ij = exp(-||y_i - y_j||^2 / (2 w^2)) is centred in feature space,
/// Kc = (I - 1/N) K (I - 1/N), and its top d eigenpairs (lambda_k, v_k) give the projection of a
/// frame y onto component k: z_k = sum_i v_ik / sqrt(lambda_k) * kc(y, y_i), where kc is the
/// kernel centred with the training means. Training frames project to z_k = sqrt(lambda_k) v_ik.
///
/// The approximate pre-image (latent -> frame) is the fixed-point iteration for RBF kernels of
/// Mika et al. (NIPS 1999): it returns a weighted mean of training frames, so it shrinks towards
/// the data and is only a baseline. The GPDM decoder is the mapping back that the library uses.

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>

#include <retarget/core/compilation.hpp>
#include "retarget/core/error.hpp"

namespace retarget {

/// Options of `KernelPca` (a validated aggregate; `validate()` runs in `KernelPca::fit`).
struct KernelPcaOptions {
  /// Dimension d of the latent space (the paper uses 3). 1 ... N - 1 (checked against N in fit).
  int latent_dim = 3;
  /// RBF kernel width w, in the unit of the data (radians for joint angles). 0 selects the
  /// median heuristic: w = median of the pairwise distances between training frames.
  double kernel_width = 0.0;
  /// Fixed-point iterations of the pre-image (Mika et al. 1999). >= 1.
  int pre_image_iterations = 100;

  /// Throws InvalidArgument naming the field and its value.
  RETARGET_DECL void validate() const;
};

namespace internal {

/// `retarget::KernelPca` (below) is this template for `void`: a template only so that its member
/// functions are compiled where a program uses them, not in every translation unit that
/// includes this header (header-only mode).
template <typename Lazy>
class KernelPca {
 public:
  KernelPca() = default;

  /// Fits to `data` (N x D, one frame per row). Throws InvalidArgument when `data` is empty,
  /// holds a non-finite value (naming its row and column), when latent_dim >= N, when all frames
  /// coincide (zero median distance), or when the centred kernel has fewer than latent_dim
  /// positive eigenvalues; and for invalid `options`.
  void fit(const Eigen::MatrixXd& data, const KernelPcaOptions& options = {});

  /// True after a successful `fit`.
  bool fitted() const noexcept { return data_.size() > 0; }

  /// Latent coordinates (M x d) of new frames `points` (M x D, same unit as the training data).
  /// Throws InvalidArgument when not fitted or when the column count differs from D.
  Eigen::MatrixXd transform(const Eigen::MatrixXd& points) const;

  /// Approximate pre-image (1 x D) of latent point `z` (d entries): Mika et al.'s fixed point
  /// y <- sum_i g_i k(y, y_i) y_i / sum_i g_i k(y, y_i), started at the training frame with the
  /// largest weight g_i (the coefficients of the projection of phi(y) onto the principal
  /// subspace, plus the feature-space mean). Throws InvalidArgument when not fitted or on a
  /// size mismatch.
  Eigen::RowVectorXd preImage(const Eigen::VectorXd& z) const;

  /// Projections of the training frames (N x d), column k on component k.
  const Eigen::MatrixXd& projections() const noexcept { return projections_; }
  /// Eigenvalues of the centred kernel matrix for the d components, decreasing.
  const Eigen::VectorXd& eigenvalues() const noexcept { return eigenvalues_; }
  /// The kernel width w used (data unit), after the median heuristic if it was requested.
  double kernelWidth() const noexcept { return width_; }

 private:
  static Eigen::MatrixXd squaredDistances(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);
  Eigen::MatrixXd kernel(const Eigen::MatrixXd& d2) const;

  Eigen::MatrixXd data_;
  double width_ = 0.0;
  KernelPcaOptions options_;
  Eigen::VectorXd column_means_;
  double total_mean_ = 0.0;
  Eigen::VectorXd eigenvalues_;
  Eigen::MatrixXd coefficients_;  // N x d: v_k / sqrt(lambda_k)
  Eigen::MatrixXd projections_;
};

}  // namespace internal

/// Kernel PCA of a set of frames (RBF kernel, centred in feature space).
/// Invariant after `fit`: `projections()` is N x d, `eigenvalues()` holds d positive values in
/// decreasing order, and `transform(training data)` equals `projections()` up to rounding.
/// `fit`, `transform` and `preImage` allocate: they are for offline learning, not per frame.
using KernelPca = internal::KernelPca<void>;

#if RETARGET_DEFINE_LEARNING

RETARGET_DECL void KernelPcaOptions::validate() const {
  RETARGET_THROW_UNLESS(latent_dim >= 1, InvalidArgument, "KernelPcaOptions::latent_dim (got ", latent_dim,
                        ", expected >= 1)");
  RETARGET_THROW_UNLESS(std::isfinite(kernel_width) && kernel_width >= 0.0, InvalidArgument,
                        "KernelPcaOptions::kernel_width (got ", kernel_width,
                        ", expected a finite width >= 0; 0 = median heuristic)");
  RETARGET_THROW_UNLESS(pre_image_iterations >= 1, InvalidArgument, "KernelPcaOptions::pre_image_iterations (got ",
                        pre_image_iterations, ", expected >= 1)");
}

template <typename Lazy>
void internal::KernelPca<Lazy>::fit(const Eigen::MatrixXd& data, const KernelPcaOptions& options) {
  options.validate();
  RETARGET_THROW_UNLESS(data.rows() > 0 && data.cols() > 0, InvalidArgument, "data (got ", data.rows(), " x ",
                        data.cols(), " frames x dimensions, expected a non-empty matrix)");
  for (Eigen::Index c = 0; c < data.cols(); ++c) {
    for (Eigen::Index r = 0; r < data.rows(); ++r) {
      RETARGET_THROW_UNLESS(std::isfinite(data(r, c)), InvalidArgument, "data(", r, ", ", c, ") (got ",
                            data(r, c), ", expected a finite value)");
    }
  }
  const Eigen::Index n = data.rows();
  RETARGET_THROW_UNLESS(options.latent_dim < n, InvalidArgument, "KernelPcaOptions::latent_dim (got ",
                        options.latent_dim, ", expected < the number of frames ", n, ")");
  const Eigen::MatrixXd d2 = squaredDistances(data, data);
  double width = options.kernel_width;
  if (width == 0.0) {
    std::vector<double> distances;
    distances.reserve(static_cast<std::size_t>(n * (n - 1) / 2));
    for (Eigen::Index j = 0; j < n; ++j) {
      for (Eigen::Index i = j + 1; i < n; ++i) distances.push_back(std::sqrt(d2(i, j)));
    }
    const auto middle = distances.begin() + static_cast<std::ptrdiff_t>(distances.size() / 2);
    std::nth_element(distances.begin(), middle, distances.end());
    width = distances.empty() ? 0.0 : *middle;
    RETARGET_THROW_UNLESS(width > 0.0, InvalidArgument,
                          "data (the median distance between frames is ", width,
                          ": frames coincide; expected distinct frames or an explicit kernel_width)");
  }
  data_ = data;
  width_ = width;
  options_ = options;
  const Eigen::MatrixXd k = kernel(d2);
  column_means_ = k.colwise().mean().transpose();
  total_mean_ = column_means_.mean();
  Eigen::MatrixXd kc = k;
  kc.rowwise() -= column_means_.transpose();
  kc.colwise() -= column_means_;
  kc.array() += total_mean_;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(kc);
  RETARGET_CHECK_INVARIANT(solver.info() == Eigen::Success);
  const auto dim = static_cast<Eigen::Index>(options.latent_dim);
  eigenvalues_.resize(dim);
  coefficients_.resize(n, dim);
  for (Eigen::Index k_index = 0; k_index < dim; ++k_index) {
    const Eigen::Index source = n - 1 - k_index;  // Eigen sorts eigenvalues increasingly
    const double lambda = solver.eigenvalues()(source);
    RETARGET_THROW_UNLESS(lambda > 1e-12 * std::max(1.0, solver.eigenvalues()(n - 1)), InvalidArgument,
                          "KernelPcaOptions::latent_dim (got ", options.latent_dim,
                          ", but the centred kernel has only ", k_index,
                          " clearly positive eigenvalues; expected fewer latent dimensions)");
    eigenvalues_(k_index) = lambda;
    coefficients_.col(k_index) = solver.eigenvectors().col(source) / std::sqrt(lambda);
  }
  projections_ = kc * coefficients_;
}

template <typename Lazy>
Eigen::MatrixXd internal::KernelPca<Lazy>::transform(const Eigen::MatrixXd& points) const {
  RETARGET_THROW_UNLESS(fitted(), InvalidArgument, "KernelPca is not fitted (call fit first)");
  RETARGET_THROW_UNLESS(points.cols() == data_.cols(), InvalidArgument, "points (got ", points.cols(),
                        " columns, expected ", data_.cols(), ")");
  Eigen::MatrixXd k = kernel(squaredDistances(points, data_));  // M x N
  const Eigen::VectorXd row_means = k.rowwise().mean();
  k.rowwise() -= column_means_.transpose();
  k.colwise() -= row_means;
  k.array() += total_mean_;
  return k * coefficients_;
}

template <typename Lazy>
Eigen::RowVectorXd internal::KernelPca<Lazy>::preImage(const Eigen::VectorXd& z) const {
  RETARGET_THROW_UNLESS(fitted(), InvalidArgument, "KernelPca is not fitted (call fit first)");
  RETARGET_THROW_UNLESS(z.size() == coefficients_.cols(), InvalidArgument, "z (got ", z.size(),
                        " entries, expected ", coefficients_.cols(), ")");
  const Eigen::Index n = data_.rows();
  Eigen::VectorXd g = coefficients_ * z;
  g.array() += (1.0 - g.sum()) / static_cast<double>(n);
  Eigen::Index start = 0;
  g.maxCoeff(&start);
  Eigen::RowVectorXd y = data_.row(start);
  Eigen::VectorXd w(n);
  for (int iteration = 0; iteration < options_.pre_image_iterations; ++iteration) {
    for (Eigen::Index i = 0; i < n; ++i) {
      w(i) = g(i) * std::exp(-(data_.row(i) - y).squaredNorm() / (2.0 * width_ * width_));
    }
    const double denominator = w.sum();
    if (!(std::abs(denominator) > 1e-300)) break;
    const Eigen::RowVectorXd next = (w.transpose() * data_) / denominator;
    const double change = (next - y).norm();
    y = next;
    if (change < 1e-12 * (1.0 + y.norm())) break;
  }
  return y;
}

template <typename Lazy>
Eigen::MatrixXd internal::KernelPca<Lazy>::squaredDistances(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  Eigen::MatrixXd d2 = -2.0 * a * b.transpose();
  d2.colwise() += a.rowwise().squaredNorm();
  d2.rowwise() += b.rowwise().squaredNorm().transpose();
  return d2.cwiseMax(0.0);
}

template <typename Lazy>
Eigen::MatrixXd internal::KernelPca<Lazy>::kernel(const Eigen::MatrixXd& d2) const {
  return (-d2.array() / (2.0 * width_ * width_)).exp().matrix();
}

#endif  // RETARGET_DEFINE_LEARNING

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_LEARNING class internal::KernelPca<void>;
#endif

}  // namespace retarget
