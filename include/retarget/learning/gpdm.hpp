#pragma once

/// @file
/// Gaussian process dynamical model (GPDM; Wang, Fleet & Hertzmann, "Gaussian Process Dynamical
/// Models for Human Motion", IEEE TPAMI 30(2), 2008), as used by seed 003 (Sections 5 and 6) to
/// learn a 3-D motion model of robot joint-angle sequences for the GPDM particle filter.
///
/// Notation (one row per frame):
///   Y  N x D   observations (joint angles, radians), stored centred: Yc = Y - 1 ybar^T; the
///              D' <= D columns that vary count in the likelihood (constant ones are decoded as
///              their value);
///   X  N x d   latent points (dimensionless), one per frame, in S sequences of lengths T_s;
///   X_in, X_out  n x d  the dynamics pairs (x_t, x_{t+1}) taken inside each sequence only
///              (n = N - S: pairs never cross a sequence boundary).
/// Kernels (Wang et al.'s hyperparameters alpha, beta; delta = 1 on the diagonal of the training
/// matrix only):
///   dynamics k_X(x, x') = a1 exp(-a2/2 |x - x'|^2) + a3 x^T x' + delta / a4,
///   decoder  k_Y(x, x') = b1 exp(-b2/2 |x - x'|^2) + delta / b3.
/// Both are stored as logarithms (`GpdmHyperparameters`), so every positive value is reachable
/// by an unconstrained optimiser. The per-joint scales W = diag(w_1 ... w_D) of Wang et al.
/// (seed 003 Section 5: "omega_j = 1.0" initially) weigh the columns in the decoder likelihood;
/// `trainGpdm` can learn them (`GpdmTrainingOptions::learn_scales`; their optimum given X and
/// beta is closed-form, `optimalScales`).
/// The predictive means do not depend on W (it cancels); it shapes the learned X.
///
/// Negative log posterior minimised by training (Wang et al.: the log-likelihoods of the
/// decoder and of the dynamics plus the priors; constants included so that it is a true
/// negative log density of (Y, X) given the hyperparameters, up to the improper hyperprior):
///   L = D'/2 ln|K_Y| + 1/2 tr(K_Y^-1 Yc W^2 Yc^T) - N sum_j ln w_j  decoder,  -ln p(Y | X, beta, W)
///     + lambda (d/2 ln|K_X| + 1/2 tr(K_X^-1 X_out X_out^T)        dynamics, -ln p(X | alpha)
///               + n d/2 ln(2 pi))                             (lambda = 1: Wang et al.)
///     + 1/2 sum_s |x_first(s)|^2                                  first frame of each sequence
///     + (N D' + S d)/2 ln(2 pi)
///     + sum_i ln a_i + sum_j ln b_j                               hyperprior p ∝ prod 1/a_i 1/b_j
/// Its gradient is analytic: with G = 1/2 (m K^-1 - K^-1 Z Z^T K^-1) for a GP term with m
/// output columns Z, dL/dtheta = sum(G o dK/dtheta), and dL/dX_out = K_X^-1 X_out.
///
/// Prediction (seed 003 Section 5, the mappings f_x and f_theta; Wang et al.):
///   x_{t+1} ~ N(X_out^T K_X^-1 k_X(X_in, x_t), sigma_X^2(x_t) I),
///   sigma_X^2(x) = k_X(x, x) + 1/a4 - k_X(X_in, x)^T K_X^-1 k_X(X_in, x),
///   y ~ N(ybar + Yc^T K_Y^-1 k_Y(X, x), sigma_Y^2(x) I), likewise with b1, b3.
/// The per-frame calls (`predictNext`, `decode`) use a `GpdmWorkspace` made once
/// (`GpdmModel::workspace()`), allocate nothing, throw nothing and return a `Status`.

#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include "retarget/core/error.hpp"
#include "retarget/core/status.hpp"

namespace retarget {

/// GPDM hyperparameters, as natural logarithms of Wang et al.'s alpha and beta.
struct GpdmHyperparameters {
  /// ln of the dynamics kernel's [RBF variance a1, RBF inverse squared width a2 (1/latent unit^2),
  /// linear variance a3, inverse noise variance a4]. Default: the seed's initial
  /// alpha = [1, 1, 1, e] (Section 5).
  Eigen::Vector4d log_alpha{0.0, 0.0, 0.0, 1.0};
  /// ln of the decoder kernel's [RBF variance b1 (rad^2), RBF inverse squared width b2,
  /// inverse noise variance b3 (1/rad^2)]. Default: the seed's beta = [1, 1, e].
  Eigen::Vector3d log_beta{0.0, 0.0, 1.0};

  /// Largest magnitude of a log-hyperparameter (e^100 ~ 2.7e43: products stay finite).
  static constexpr double kMaxLog = 100.0;

  /// Throws InvalidArgument naming the first entry that is not finite or beyond kMaxLog.
  RETARGET_DECL void validate() const;
};

/// Preallocated buffers of the per-frame GPDM calls; make one per thread with
/// `GpdmModel::workspace()`. Its contents between calls are meaningless.
struct GpdmWorkspace {
  Eigen::VectorXd k_dynamics;  ///< n: k_X(X_in, x)
  Eigen::VectorXd v_dynamics;  ///< n: K_X^-1 k_X(X_in, x)
  Eigen::VectorXd k_decoder;   ///< N: k_Y(X, x)
  Eigen::VectorXd v_decoder;   ///< N: K_Y^-1 k_Y(X, x)
};

namespace internal {

/// `retarget::GpdmModel` (below) is this template for `void`: a template only so that its member
/// functions are compiled where a program uses them, not in every translation unit that
/// includes this header (header-only mode).
template <typename Lazy>
class GpdmModel {
 public:
  /// Jitter added to both kernel matrices' diagonals for numerical safety (part of the model).
  static constexpr double kJitter = 1e-8;
  /// Largest magnitude of an observation or latent value: beyond it the kernels' products and
  /// the predictions could overflow (joint angles are radians; latent points are of order 1).
  static constexpr double kMaxMagnitude = 1e6;
  /// Observation columns whose range (max - min over the training frames, radians for joint
  /// angles) is at most this value are constant: decoded as their value, outside the likelihood.
  static constexpr double kConstantColumnRange = 1e-9;

  GpdmModel() = default;

  /// Builds a model of observations `y` (N x D, radians for joint angles; centred internally)
  /// split into consecutive sequences of `sequence_lengths` frames (sum = N, each >= 2; empty =
  /// one sequence), latent points `x` (N x d) and `hyperparameters`. Throws InvalidArgument
  /// naming the bad value (sizes, non-finite entries, sequence lengths) and Error when a kernel
  /// matrix is not positive definite.
  GpdmModel(const Eigen::MatrixXd& y, std::vector<Eigen::Index> sequence_lengths,
                          const Eigen::MatrixXd& x, const GpdmHyperparameters& hyperparameters = {});

  /// Replaces the latent points and hyperparameters and refactorises. Throws as the constructor.
  void set(const Eigen::MatrixXd& x, const GpdmHyperparameters& hyperparameters);

  /// Frames N, observation dimension D, latent dimension d, dynamics pairs n.
  Eigen::Index frames() const noexcept { return y_centred_.rows(); }
  Eigen::Index observationDim() const noexcept { return y_centred_.cols(); }
  Eigen::Index latentDim() const noexcept { return x_.cols(); }
  Eigen::Index dynamicsPairs() const noexcept { return static_cast<Eigen::Index>(in_rows_.size()); }
  /// Observation columns that vary in the training data (D' <= D; the others are constant).
  Eigen::Index activeObservationDim() const noexcept { return active_columns_; }

  /// Latent points X (N x d).
  const Eigen::MatrixXd& latent() const noexcept { return x_; }
  /// Hyperparameters (logarithms).
  const GpdmHyperparameters& hyperparameters() const noexcept { return hyper_; }
  /// Training observations Y (N x D, the original values).
  const Eigen::MatrixXd& observations() const noexcept { return y_; }
  /// Mean observation ybar (D).
  const Eigen::VectorXd& observationMean() const noexcept { return y_mean_; }
  /// Frames per sequence.
  const std::vector<Eigen::Index>& sequenceLengths() const noexcept { return sequence_lengths_; }
  /// Per-column scales w_j of W (D values, > 0; all 1 after construction).
  const Eigen::VectorXd& scales() const noexcept { return scales_; }
  /// Sets W (D finite values > 0; a constant column's scale is kept but has no effect). Throws
  /// InvalidArgument naming the first bad entry.
  void setScales(const Eigen::VectorXd& w);
  /// The W minimising L at parameter vector `p` with everything else fixed (Wang et al.):
  /// w_j^2 = N / (yc_j^T K_Y^-1 yc_j) for the varying columns, 1 for the constant ones. Throws
  /// InvalidArgument for a wrong size and Error when K_Y is not positive definite at `p`.
  Eigen::VectorXd optimalScales(const Eigen::VectorXd& p) const;

  /// A workspace sized for this model's per-frame calls.
  GpdmWorkspace workspace() const;

  /// Number of optimisation parameters: N d latent coordinates + 4 + 3 log-hyperparameters.
  Eigen::Index parameterCount() const noexcept { return x_.size() + 7; }

  /// The parameter vector [X row by row (frame 0's d values first); log_alpha; log_beta].
  Eigen::VectorXd parameters() const;

  /// Sets X and the hyperparameters from a parameter vector (layout of `parameters()`).
  void setParameters(const Eigen::VectorXd& p);

  /// The negative log posterior L (see the file comment) at parameter vector `p` (layout of
  /// `parameters()`), for this model's observations and sequences; also its gradient dL/dp when
  /// `gradient` is not null (resized to p's size). Returns +infinity (gradient zero) when a kernel
  /// matrix is not positive definite or `p` is not finite. Allocates: for training, not per frame.
  /// Throws InvalidArgument when `p` has the wrong size.
  /// `dynamics_weight` (> 0) multiplies the dynamics GP term: 1 is Wang et al.'s GPDM, D'/d the
  /// "balanced" GPDM of Urtasun et al. (CVPR 2006), which keeps the decoder from dominating when
  /// D' >> d. Throws InvalidArgument for a non-positive weight.
  double negativeLogLikelihood(const Eigen::VectorXd& p, Eigen::VectorXd* gradient = nullptr,
                                             double dynamics_weight = 1.0) const;

  /// Mean of the next latent state, x_next = X_out^T K_X^-1 k_X(X_in, x) (d values), and its
  /// predictive variance sigma_X^2(x) (latent unit^2, the same for every coordinate). `x` and
  /// `x_next` have d entries (they may not alias). Returns kInvalidInput, leaving the outputs
  /// unchanged, when a size is wrong or `x` is not finite. Allocates nothing, never throws.
  Status predictNext(const Eigen::Ref<const Eigen::VectorXd>& x, GpdmWorkspace& workspace,
                                   Eigen::Ref<Eigen::VectorXd> x_next, double& variance) const noexcept;

  /// The mean of `predictNext` alone (d values), without the O(n^2) variance: what a particle
  /// filter needs per particle. Same checks and contract as `predictNext`.
  Status predictNextMean(const Eigen::Ref<const Eigen::VectorXd>& x, GpdmWorkspace& workspace,
                                       Eigen::Ref<Eigen::VectorXd> x_next) const noexcept;

  /// The mean of `decode` alone (D values, radians), without the O(N^2) variance. Same checks
  /// and contract as `decode`.
  Status decodeMean(const Eigen::Ref<const Eigen::VectorXd>& x, GpdmWorkspace& workspace,
                                  Eigen::Ref<Eigen::VectorXd> y) const noexcept;

  /// Decoder mean y = ybar + Yc^T K_Y^-1 k_Y(X, x) (D values, radians for joint angles) and its
  /// predictive variance sigma_Y^2(x) (rad^2, the same for every joint). `x` has d entries, `y`
  /// D. Returns kInvalidInput, leaving the outputs unchanged, when a size is wrong or `x` is not
  /// finite. Allocates nothing, never throws.
  Status decode(const Eigen::Ref<const Eigen::VectorXd>& x, GpdmWorkspace& workspace,
                              Eigen::Ref<Eigen::VectorXd> y, double& variance) const noexcept;

 private:
  static double failure(Eigen::VectorXd* gradient);
  static void checkFinite(const Eigen::MatrixXd& m, const char* name);
  static Eigen::MatrixXd gather(const Eigen::MatrixXd& m, const std::vector<Eigen::Index>& rows);
  static Eigen::MatrixXd squaredDistances(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b);
  static Eigen::MatrixXd dynamicsKernel(const Eigen::MatrixXd& p, const Eigen::MatrixXd& q,
                                                      const Eigen::Vector4d& a);
  static Eigen::MatrixXd decoderKernel(const Eigen::MatrixXd& p, const Eigen::MatrixXd& q,
                                                     const Eigen::Vector3d& b);
  // Adds dL/dX of an RBF term s exp(-g/2 |x_i - x_j|^2) given ge = G o E (symmetric) and
  // scale = s g: dL/dx_k = -2 s g sum_j ge_kj (x_k - x_j).
  static void addRbfInputGradient(const Eigen::MatrixXd& ge, const Eigen::MatrixXd& x, double scale,
                                                Eigen::MatrixXd& grad);
  static void pack(const Eigen::MatrixXd& x, const GpdmHyperparameters& h, Eigen::VectorXd& p);
  void unpack(const Eigen::VectorXd& p, Eigen::MatrixXd& x, GpdmHyperparameters& h) const;

  Eigen::MatrixXd y_;
  Eigen::VectorXd y_mean_;
  Eigen::MatrixXd y_centred_;
  Eigen::VectorXd scales_;
  Eigen::Index active_columns_ = 0;
  std::vector<Eigen::Index> sequence_lengths_;
  std::vector<Eigen::Index> first_rows_;
  std::vector<Eigen::Index> in_rows_;
  std::vector<Eigen::Index> out_rows_;
  Eigen::MatrixXd x_;
  Eigen::MatrixXd x_in_;
  GpdmHyperparameters hyper_;
  Eigen::Vector4d alpha_ = Eigen::Vector4d::Ones();
  Eigen::Vector3d beta_ = Eigen::Vector3d::Ones();
  Eigen::MatrixXd kx_inverse_;
  Eigen::MatrixXd ky_inverse_;
  Eigen::MatrixXd dynamics_weights_;  // K_X^-1 X_out (n x d)
  Eigen::MatrixXd decoder_weights_;   // K_Y^-1 Yc (N x D)
};

}  // namespace internal

/// A GPDM: training observations, latent points and hyperparameters, plus the factorisations that
/// prediction needs. Invariants: Y is N x D and X is N x d with N >= 2, every sequence has at
/// least 2 frames, all values finite, and the cached inverses match the current X and
/// hyperparameters (every setter refactorises). Construction and the setters allocate and
/// throw; `predictNext` and `decode` do neither.
using GpdmModel = internal::GpdmModel<void>;

#if RETARGET_DEFINE_LEARNING

RETARGET_DECL void GpdmHyperparameters::validate() const {
  for (Eigen::Index i = 0; i < 4; ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(log_alpha(i)) && std::abs(log_alpha(i)) <= kMaxLog, InvalidArgument,
                          "GpdmHyperparameters::log_alpha(", i, ") (got ", log_alpha(i), ", expected a value in [-",
                          kMaxLog, ", ", kMaxLog, "])");
  }
  for (Eigen::Index i = 0; i < 3; ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(log_beta(i)) && std::abs(log_beta(i)) <= kMaxLog, InvalidArgument,
                          "GpdmHyperparameters::log_beta(", i, ") (got ", log_beta(i), ", expected a value in [-",
                          kMaxLog, ", ", kMaxLog, "])");
  }
}

template <typename Lazy>
internal::GpdmModel<Lazy>::GpdmModel(const Eigen::MatrixXd& y, std::vector<Eigen::Index> sequence_lengths,
                                   const Eigen::MatrixXd& x, const GpdmHyperparameters& hyperparameters) {
  RETARGET_THROW_UNLESS(y.rows() >= 2 && y.cols() >= 1, InvalidArgument, "y (got ", y.rows(), " x ", y.cols(),
                        ", expected at least 2 frames of at least 1 value)");
  RETARGET_THROW_UNLESS(x.rows() == y.rows() && x.cols() >= 1, InvalidArgument, "x (got ", x.rows(), " x ",
                        x.cols(), ", expected ", y.rows(), " rows and at least 1 latent dimension)");
  checkFinite(y, "y");
  if (sequence_lengths.empty()) sequence_lengths.push_back(y.rows());
  Eigen::Index total = 0;
  for (std::size_t s = 0; s < sequence_lengths.size(); ++s) {
    RETARGET_THROW_UNLESS(sequence_lengths[s] >= 2, InvalidArgument, "sequence_lengths[", s, "] (got ",
                          sequence_lengths[s], ", expected >= 2 frames)");
    total += sequence_lengths[s];
  }
  RETARGET_THROW_UNLESS(total == y.rows(), InvalidArgument, "sequence_lengths (sum ", total, ", expected ",
                        y.rows(), " = the number of frames)");
  y_ = y;
  y_mean_ = y.colwise().mean().transpose();
  y_centred_ = y.rowwise() - y_mean_.transpose();
  scales_ = Eigen::VectorXd::Ones(y.cols());
  // Columns that do not vary (a joint the motion never moves) carry no information: they are
  // decoded as their constant value and left out of the decoder likelihood, which they would
  // otherwise drive towards zero noise (ln|K_Y| of an all-zero column is unbounded below).
  active_columns_ = 0;
  for (Eigen::Index c = 0; c < y.cols(); ++c) {
    if (y.col(c).maxCoeff() - y.col(c).minCoeff() > kConstantColumnRange) {
      ++active_columns_;
    } else {
      y_mean_(c) = y(0, c);
      y_centred_.col(c).setZero();
    }
  }
  sequence_lengths_ = std::move(sequence_lengths);
  Eigen::Index start = 0;
  for (const Eigen::Index length : sequence_lengths_) {
    first_rows_.push_back(start);
    for (Eigen::Index t = 0; t + 1 < length; ++t) {
      in_rows_.push_back(start + t);
      out_rows_.push_back(start + t + 1);
    }
    start += length;
  }
  set(x, hyperparameters);
}

template <typename Lazy>
void internal::GpdmModel<Lazy>::set(const Eigen::MatrixXd& x, const GpdmHyperparameters& hyperparameters) {
  RETARGET_THROW_UNLESS(x.rows() == y_centred_.rows() && x.cols() >= 1, InvalidArgument, "x (got ", x.rows(),
                        " x ", x.cols(), ", expected ", y_centred_.rows(), " rows)");
  checkFinite(x, "x");
  hyperparameters.validate();
  x_ = x;
  hyper_ = hyperparameters;
  x_in_ = gather(x_, in_rows_);
  const Eigen::MatrixXd x_out = gather(x_, out_rows_);
  const Eigen::Vector4d a = hyper_.log_alpha.array().exp();
  const Eigen::Vector3d b = hyper_.log_beta.array().exp();
  Eigen::MatrixXd kx = dynamicsKernel(x_in_, x_in_, a);
  kx.diagonal().array() += 1.0 / a(3) + kJitter;
  Eigen::MatrixXd ky = decoderKernel(x_, x_, b);
  ky.diagonal().array() += 1.0 / b(2) + kJitter;
  const Eigen::LLT<Eigen::MatrixXd> llt_x(kx);
  const Eigen::LLT<Eigen::MatrixXd> llt_y(ky);
  RETARGET_THROW_UNLESS(llt_x.info() == Eigen::Success && llt_y.info() == Eigen::Success, Error,
                        "GpdmModel: a kernel matrix is not positive definite (dynamics ",
                        llt_x.info() == Eigen::Success ? "ok" : "failed", ", decoder ",
                        llt_y.info() == Eigen::Success ? "ok" : "failed", ")");
  kx_inverse_ = llt_x.solve(Eigen::MatrixXd::Identity(kx.rows(), kx.cols()));
  ky_inverse_ = llt_y.solve(Eigen::MatrixXd::Identity(ky.rows(), ky.cols()));
  dynamics_weights_ = kx_inverse_ * x_out;
  decoder_weights_ = ky_inverse_ * y_centred_;
  RETARGET_THROW_UNLESS(kx_inverse_.allFinite() && ky_inverse_.allFinite() && dynamics_weights_.allFinite() &&
                            decoder_weights_.allFinite(),
                        Error, "GpdmModel: the kernel matrices are too ill-conditioned to predict with (a weight is not finite)");
  alpha_ = a;
  beta_ = b;
}

template <typename Lazy>
GpdmWorkspace internal::GpdmModel<Lazy>::workspace() const {
  GpdmWorkspace w;
  w.k_dynamics.resize(dynamicsPairs());
  w.v_dynamics.resize(dynamicsPairs());
  w.k_decoder.resize(frames());
  w.v_decoder.resize(frames());
  return w;
}

template <typename Lazy>
void internal::GpdmModel<Lazy>::setScales(const Eigen::VectorXd& w) {
  RETARGET_THROW_UNLESS(w.size() == y_centred_.cols(), InvalidArgument, "scales (got ", w.size(), " values, expected D = ",
                        y_centred_.cols(), ")");
  for (Eigen::Index c = 0; c < w.size(); ++c) {
    RETARGET_THROW_UNLESS(std::isfinite(w(c)) && w(c) > 0.0 && w(c) <= kMaxMagnitude, InvalidArgument, "scales(", c,
                          ") (got ", w(c), ", expected a finite value in (0, ", kMaxMagnitude, "])");
  }
  scales_ = w;
}

template <typename Lazy>
Eigen::VectorXd internal::GpdmModel<Lazy>::optimalScales(const Eigen::VectorXd& p) const {
  RETARGET_THROW_UNLESS(p.size() == parameterCount(), InvalidArgument, "parameters (got ", p.size(),
                        " entries, expected ", parameterCount(), ")");
  Eigen::MatrixXd x;
  GpdmHyperparameters h;
  unpack(p, x, h);
  const Eigen::Vector3d b = h.log_beta.array().exp();
  Eigen::MatrixXd k = decoderKernel(x, x, b);
  k.diagonal().array() += 1.0 / b(2) + kJitter;  // as in negativeLogLikelihood
  const Eigen::LLT<Eigen::MatrixXd> llt(k);
  RETARGET_THROW_UNLESS(llt.info() == Eigen::Success, Error, "the decoder kernel matrix is not positive definite");
  const Eigen::MatrixXd weights = llt.solve(y_centred_);
  Eigen::VectorXd w = Eigen::VectorXd::Ones(y_centred_.cols());
  for (Eigen::Index c = 0; c < w.size(); ++c) {
    const double a = y_centred_.col(c).dot(weights.col(c));
    if (y_centred_.col(c).any() && a > 0.0) w(c) = std::min(std::sqrt(static_cast<double>(x.rows()) / a), kMaxMagnitude);
  }
  return w;
}

template <typename Lazy>
Eigen::VectorXd internal::GpdmModel<Lazy>::parameters() const {
  Eigen::VectorXd p(parameterCount());
  pack(x_, hyper_, p);
  return p;
}

template <typename Lazy>
void internal::GpdmModel<Lazy>::setParameters(const Eigen::VectorXd& p) {
  RETARGET_THROW_UNLESS(p.size() == parameterCount(), InvalidArgument, "parameters (got ", p.size(),
                        " entries, expected ", parameterCount(), ")");
  Eigen::MatrixXd x;
  GpdmHyperparameters h;
  unpack(p, x, h);
  set(x, h);
}

template <typename Lazy>
double internal::GpdmModel<Lazy>::negativeLogLikelihood(const Eigen::VectorXd& p, Eigen::VectorXd* gradient,
                                                      double dynamics_weight) const {
  RETARGET_THROW_UNLESS(p.size() == parameterCount(), InvalidArgument, "parameters (got ", p.size(),
                        " entries, expected ", parameterCount(), ")");
  RETARGET_THROW_UNLESS(dynamics_weight > 0.0 && std::isfinite(dynamics_weight), InvalidArgument,
                        "dynamics_weight (got ", dynamics_weight, ", expected > 0)");
  if (gradient != nullptr) gradient->setZero(p.size());
  if (!p.allFinite()) return std::numeric_limits<double>::infinity();
  Eigen::MatrixXd x;
  GpdmHyperparameters h;
  unpack(p, x, h);
  const Eigen::Index n_frames = x.rows();
  const Eigen::Index d = x.cols();
  const auto dim_y = static_cast<double>(active_columns_);
  const Eigen::Vector4d a = h.log_alpha.array().exp();
  const Eigen::Vector3d b = h.log_beta.array().exp();
  constexpr double kLog2Pi = 1.8378770664093454836;

  Eigen::MatrixXd grad_x = Eigen::MatrixXd::Zero(n_frames, d);
  Eigen::Vector4d grad_alpha = Eigen::Vector4d::Ones();  // hyperprior: d(ln a_i)/d(ln a_i) = 1
  Eigen::Vector3d grad_beta = Eigen::Vector3d::Ones();
  double value = h.log_alpha.sum() + h.log_beta.sum();

  // Decoder term: D'/2 ln|K_Y| + 1/2 tr(K_Y^-1 Yc Yc^T) over the varying columns.
  {
    const Eigen::MatrixXd d2 = squaredDistances(x, x);
    const Eigen::MatrixXd e = (-0.5 * b(1) * d2.array()).exp().matrix();
    Eigen::MatrixXd k = b(0) * e;
    k.diagonal().array() += 1.0 / b(2) + kJitter;
    const Eigen::LLT<Eigen::MatrixXd> llt(k);
    if (llt.info() != Eigen::Success) return failure(gradient);
    const Eigen::MatrixXd k_inverse = llt.solve(Eigen::MatrixXd::Identity(n_frames, n_frames));
    const Eigen::MatrixXd y_scaled = y_centred_ * scales_.asDiagonal();  // Yc W
    const Eigen::MatrixXd weights = k_inverse * y_scaled;
    const double log_det = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
    double log_scales = 0.0;  // sum over the varying columns of ln w_j
    for (Eigen::Index c = 0; c < y_centred_.cols(); ++c) {
      if (y_centred_.col(c).any()) log_scales += std::log(scales_(c));
    }
    value += 0.5 * dim_y * log_det + 0.5 * (y_scaled.array() * weights.array()).sum() -
             static_cast<double>(n_frames) * log_scales + 0.5 * dim_y * static_cast<double>(n_frames) * kLog2Pi;
    if (gradient != nullptr) {
      const Eigen::MatrixXd g = 0.5 * (dim_y * k_inverse - weights * weights.transpose());
      const Eigen::MatrixXd ge = g.cwiseProduct(e);
      grad_beta(0) += b(0) * ge.sum();
      grad_beta(1) += -0.5 * b(1) * b(0) * ge.cwiseProduct(d2).sum();
      grad_beta(2) += -g.trace() / b(2);
      addRbfInputGradient(ge, x, b(0) * b(1), grad_x);
    }
  }

  // Dynamics term: d/2 ln|K_X| + 1/2 tr(K_X^-1 X_out X_out^T), pairs inside sequences only.
  {
    const Eigen::MatrixXd x_in = gather(x, in_rows_);
    const Eigen::MatrixXd x_out = gather(x, out_rows_);
    const Eigen::Index n = x_in.rows();
    const Eigen::MatrixXd d2 = squaredDistances(x_in, x_in);
    const Eigen::MatrixXd e = (-0.5 * a(1) * d2.array()).exp().matrix();
    const Eigen::MatrixXd lin = x_in * x_in.transpose();
    Eigen::MatrixXd k = a(0) * e + a(2) * lin;
    k.diagonal().array() += 1.0 / a(3) + kJitter;
    const Eigen::LLT<Eigen::MatrixXd> llt(k);
    if (llt.info() != Eigen::Success) return failure(gradient);
    const Eigen::MatrixXd k_inverse = llt.solve(Eigen::MatrixXd::Identity(n, n));
    const Eigen::MatrixXd weights = k_inverse * x_out;
    const double log_det = 2.0 * llt.matrixLLT().diagonal().array().log().sum();
    const double lambda = dynamics_weight;
    value += lambda * (0.5 * static_cast<double>(d) * log_det + 0.5 * (x_out.array() * weights.array()).sum() +
                       0.5 * static_cast<double>(x_out.size()) * kLog2Pi);
    if (gradient != nullptr) {
      const Eigen::MatrixXd g = 0.5 * lambda * (static_cast<double>(d) * k_inverse - weights * weights.transpose());
      const Eigen::MatrixXd ge = g.cwiseProduct(e);
      grad_alpha(0) += a(0) * ge.sum();
      grad_alpha(1) += -0.5 * a(1) * a(0) * ge.cwiseProduct(d2).sum();
      grad_alpha(2) += a(2) * g.cwiseProduct(lin).sum();
      grad_alpha(3) += -g.trace() / a(3);
      Eigen::MatrixXd grad_in = Eigen::MatrixXd::Zero(n, d);
      addRbfInputGradient(ge, x_in, a(0) * a(1), grad_in);
      grad_in += 2.0 * a(2) * (g * x_in);  // linear kernel: dK_ij/dx_i = a3 x_j
      for (Eigen::Index i = 0; i < n; ++i) {
        grad_x.row(in_rows_[static_cast<std::size_t>(i)]) += grad_in.row(i);
        grad_x.row(out_rows_[static_cast<std::size_t>(i)]) += lambda * weights.row(i);
      }
    }
  }

  // Prior of the first frame of each sequence: x_1 ~ N(0, I).
  for (const Eigen::Index row : first_rows_) {
    value += 0.5 * x.row(row).squaredNorm() + 0.5 * static_cast<double>(d) * kLog2Pi;
    if (gradient != nullptr) grad_x.row(row) += x.row(row);
  }

  if (gradient != nullptr) {
    GpdmHyperparameters gh;
    gh.log_alpha = grad_alpha;
    gh.log_beta = grad_beta;
    pack(grad_x, gh, *gradient);
  }
  return value;
}

template <typename Lazy>
Status internal::GpdmModel<Lazy>::predictNext(const Eigen::Ref<const Eigen::VectorXd>& x, GpdmWorkspace& workspace,
                                            Eigen::Ref<Eigen::VectorXd> x_next, double& variance) const noexcept {
  if (workspace.v_dynamics.size() != dynamicsPairs()) return StatusCode::kInvalidInput;
  const Status status = predictNextMean(x, workspace, x_next);  // fills workspace.k_dynamics
  if (!status.ok()) return status;
  workspace.v_dynamics.noalias() = kx_inverse_ * workspace.k_dynamics;
  const double prior = alpha_(0) + alpha_(2) * x.squaredNorm() + 1.0 / alpha_(3);
  variance = std::max(prior - workspace.k_dynamics.dot(workspace.v_dynamics), 1.0 / alpha_(3));
  return StatusCode::kOk;
}

template <typename Lazy>
Status internal::GpdmModel<Lazy>::predictNextMean(const Eigen::Ref<const Eigen::VectorXd>& x, GpdmWorkspace& workspace,
                                                Eigen::Ref<Eigen::VectorXd> x_next) const noexcept {
  if (x.size() != latentDim() || x_next.size() != latentDim() || workspace.k_dynamics.size() != dynamicsPairs() ||
      !x.allFinite()) {
    return StatusCode::kInvalidInput;
  }
  for (Eigen::Index i = 0; i < x_in_.rows(); ++i) {
    const double d2 = (x_in_.row(i).transpose() - x).squaredNorm();
    workspace.k_dynamics(i) = alpha_(0) * std::exp(-0.5 * alpha_(1) * d2) + alpha_(2) * x_in_.row(i).dot(x);
  }
  x_next.noalias() = dynamics_weights_.transpose() * workspace.k_dynamics;
  return StatusCode::kOk;
}

template <typename Lazy>
Status internal::GpdmModel<Lazy>::decodeMean(const Eigen::Ref<const Eigen::VectorXd>& x, GpdmWorkspace& workspace,
                                           Eigen::Ref<Eigen::VectorXd> y) const noexcept {
  if (x.size() != latentDim() || y.size() != observationDim() || workspace.k_decoder.size() != frames() ||
      !x.allFinite()) {
    return StatusCode::kInvalidInput;
  }
  for (Eigen::Index i = 0; i < x_.rows(); ++i) {
    const double d2 = (x_.row(i).transpose() - x).squaredNorm();
    workspace.k_decoder(i) = beta_(0) * std::exp(-0.5 * beta_(1) * d2);
  }
  y = y_mean_;
  y.noalias() += decoder_weights_.transpose() * workspace.k_decoder;
  return StatusCode::kOk;
}

template <typename Lazy>
Status internal::GpdmModel<Lazy>::decode(const Eigen::Ref<const Eigen::VectorXd>& x, GpdmWorkspace& workspace,
                                       Eigen::Ref<Eigen::VectorXd> y, double& variance) const noexcept {
  if (workspace.v_decoder.size() != frames()) return StatusCode::kInvalidInput;
  const Status status = decodeMean(x, workspace, y);  // fills workspace.k_decoder
  if (!status.ok()) return status;
  workspace.v_decoder.noalias() = ky_inverse_ * workspace.k_decoder;
  const double prior = beta_(0) + 1.0 / beta_(2);
  variance = std::max(prior - workspace.k_decoder.dot(workspace.v_decoder), 1.0 / beta_(2));
  return StatusCode::kOk;
}

template <typename Lazy>
double internal::GpdmModel<Lazy>::failure(Eigen::VectorXd* gradient) {
  if (gradient != nullptr) gradient->setZero();
  return std::numeric_limits<double>::infinity();
}

template <typename Lazy>
void internal::GpdmModel<Lazy>::checkFinite(const Eigen::MatrixXd& m, const char* name) {
  for (Eigen::Index c = 0; c < m.cols(); ++c) {
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      RETARGET_THROW_UNLESS(std::isfinite(m(r, c)) && std::abs(m(r, c)) <= kMaxMagnitude, InvalidArgument, name, "(",
                            r, ", ", c, ") (got ", m(r, c), ", expected a finite value of magnitude <= ",
                            kMaxMagnitude, ")");
    }
  }
}

template <typename Lazy>
Eigen::MatrixXd internal::GpdmModel<Lazy>::gather(const Eigen::MatrixXd& m, const std::vector<Eigen::Index>& rows) {
  Eigen::MatrixXd out(static_cast<Eigen::Index>(rows.size()), m.cols());
  for (std::size_t i = 0; i < rows.size(); ++i) out.row(static_cast<Eigen::Index>(i)) = m.row(rows[i]);
  return out;
}

template <typename Lazy>
Eigen::MatrixXd internal::GpdmModel<Lazy>::squaredDistances(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  Eigen::MatrixXd d2(a.rows(), b.rows());
  for (Eigen::Index j = 0; j < b.rows(); ++j) {
    for (Eigen::Index i = 0; i < a.rows(); ++i) d2(i, j) = (a.row(i) - b.row(j)).squaredNorm();
  }
  return d2;
}

template <typename Lazy>
Eigen::MatrixXd internal::GpdmModel<Lazy>::dynamicsKernel(const Eigen::MatrixXd& p, const Eigen::MatrixXd& q,
                                                        const Eigen::Vector4d& a) {
  return (a(0) * (-0.5 * a(1) * squaredDistances(p, q).array()).exp()).matrix() + a(2) * p * q.transpose();
}

template <typename Lazy>
Eigen::MatrixXd internal::GpdmModel<Lazy>::decoderKernel(const Eigen::MatrixXd& p, const Eigen::MatrixXd& q,
                                                       const Eigen::Vector3d& b) {
  return (b(0) * (-0.5 * b(1) * squaredDistances(p, q).array()).exp()).matrix();
}

template <typename Lazy>
void internal::GpdmModel<Lazy>::addRbfInputGradient(const Eigen::MatrixXd& ge, const Eigen::MatrixXd& x, double scale,
                                                  Eigen::MatrixXd& grad) {
  const Eigen::VectorXd row_sums = ge.rowwise().sum();
  grad -= 2.0 * scale * (row_sums.asDiagonal() * x - ge * x);
}

template <typename Lazy>
void internal::GpdmModel<Lazy>::pack(const Eigen::MatrixXd& x, const GpdmHyperparameters& h, Eigen::VectorXd& p) {
  p.resize(x.size() + 7);
  Eigen::Index index = 0;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    for (Eigen::Index c = 0; c < x.cols(); ++c) p(index++) = x(r, c);
  }
  p.segment<4>(index) = h.log_alpha;
  p.segment<3>(index + 4) = h.log_beta;
}

template <typename Lazy>
void internal::GpdmModel<Lazy>::unpack(const Eigen::VectorXd& p, Eigen::MatrixXd& x, GpdmHyperparameters& h) const {
  x.resize(x_.rows(), x_.cols());
  Eigen::Index index = 0;
  for (Eigen::Index r = 0; r < x.rows(); ++r) {
    for (Eigen::Index c = 0; c < x.cols(); ++c) x(r, c) = p(index++);
  }
  h.log_alpha = p.segment<4>(index);
  h.log_beta = p.segment<3>(index + 4);
}

#endif  // RETARGET_DEFINE_LEARNING

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_LEARNING class internal::GpdmModel<void>;
#endif

}  // namespace retarget
