#pragma once

/// @file
/// GPDM particle filter (seed 003, Sections 6 and 7): the particle filter of Section 3
/// (mappers/particle_filter.hpp) run in the 3-D latent space of a GPDM learned from robot
/// joint-angle sequences (learning/gpdm.hpp), so that a few dozen particles do the work of
/// hundreds in the joint space.
///
/// Method, per `map()` call (one frame):
///  - State. A particle is a latent point p^q = [x^1 ... x^d] (d = the model's latent
///    dimension, 3 in the paper; Section 7, Table 1). Particles start spread over the training
///    latent points (particle q at training frame floor(q N / Q)), so the filter can lock on to
///    any phase of the learned motion from the first frame.
///  - Motion model (Section 5, the dynamics mapping f_x): p_t = f_x(p_{t-1}) + eps, with f_x the
///    GP mean X_out^T K_X^-1 k_X(X_in, p) and eps ~ N(0, s^2 I),
///    s = max(`min_noise`, `noise_scale` sigma_X(x_{t-1})): the model's own predictive standard
///    deviation at the previous estimate (one O(n^2) evaluation per frame, not per particle).
///  - Likelihood (Eqs. 1-2 of Section 3, as the joint-space filter): the particle's joint angles
///    are the decoder mean theta = f_theta(p) (Section 5), clamped to the limits; the robot's
///    virtual skeleton at theta is compared with the observation by the cosine similarity over
///    the 11 links, w = exp(-(1 - sim)^2 / (2 sigma_L^2)).
///  - Estimate (Section 7: "once the states are estimated in the 3-D state space, the joint
///    angles are reconstructed using the decoder"): the weighted mean latent point, decoded,
///    clamped to the limits (`GpdmEstimate::kLatentMean`, default), or the weighted mean of the
///    particles' decoded angles (`kJointMean`, a convex combination of in-limit configurations).
///  - Re-location (Section 6, Eq. 9, the "similarity measurement module"): the last k = `window`
///    estimated latent points, stacked into one vector X, are compared with every window X_i of
///    k consecutive training latent points inside one sequence by the cosine
///    dis = X . X_i / (|X| |X_i|); with the best match above `relocation_similarity`, the last
///    `relocation_fraction` Q particles after resampling are moved to the latent point that ends
///    X_i, so the next prediction starts from the learned motion at the matched phase.
///  - Resampling: systematic, as the joint-space filter.
///
/// Joints. The model's D observation columns are robot coordinates, named by
/// `GpdmFilterMap::joints` (D names; empty: D must be nq, in q order). Coordinates the model
/// does not decode stay at `rest`.
///
/// Statuses (mappers/mapper.hpp):
///  - kDegenerateInput: no link of the observation is usable (every joint missing, not finite,
///    or only inferred under `InferredJoints::kHold`): the last output is held, `held()` marks the
///    decoded coordinates, and the particles are left untouched. With some links usable the
///    filter runs on those (the learned model fills in the rest).
///  - kNotConverged: the best particle's cosine similarity was below `min_similarity`: the
///    observation is far from every pose the learned motion can show (low maximum weight; the
///    human does something the model never learned).
///  - kClamped: the decoded estimate of a coordinate left its limits by more than
///    `kClampTolerance` (0.01 rad) and was clamped (`clamped()` says which): the model
///    extrapolates beyond what it was trained on. Smaller overshoots are the decoder's
///    interpolation of training values that sit at a limit and are clamped silently.
///  - kInvalidInput: q_out does not have nq entries (q_out untouched).
///
/// Determinism: as the joint-space filter (core/internal/portable_random.hpp); reset() restores
/// the seed and the initial particles.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/portable_random.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/skeleton_links.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/learning/gpdm.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/internal/pose_likelihood.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>

namespace retarget {

/// Robot data of `GpdmParticleFilter`: the learned motion model and what its columns are.
struct GpdmFilterMap {
  /// The learned GPDM (learning/gpdm.hpp; `loadGpdmModel` of io/gpdm_model.hpp reads one).
  GpdmModel motion_model{};
  /// Robot coordinate of each of the model's D observation columns; empty: D = nq in q order.
  std::vector<std::string> joints{};
  /// The robot's virtual skeleton, through which particles are weighed (as the joint-space
  /// filter; its joint bindings are not used).
  GaLvvjMap skeleton = naoGaLvvjMap();
};

/// How `GpdmParticleFilter` turns the weighted particles into joint angles.
enum class GpdmEstimate {
  kLatentMean,  ///< decode the weighted mean latent point (seed 003, Section 7)
  kJointMean,   ///< weighted mean of the particles' decoded joint angles
};

/// Options of `GpdmParticleFilter` (a validated aggregate; `validate()` runs in the constructor).
struct GpdmParticleFilterOptions {
  /// Number of particles Q, in [1, 100000].
  int particles = 30;
  /// Multiplier of the dynamics' predictive standard deviation sigma_X used as the motion noise
  /// (>= 0; 1: the model's own uncertainty).
  double noise_scale = 1.0;
  /// Smallest motion-noise standard deviation (latent units, >= 0): keeps the cloud from
  /// collapsing where the model is certain but the human moves differently.
  double min_noise = 0.05;
  /// sigma_L of the likelihood (Eq. 2 of Section 3), in units of (1 - cosine similarity), > 0.
  double likelihood_sigma = 0.002;
  /// Seed of the random numbers.
  std::uint64_t seed = 1;
  /// k of the re-location window (Eq. 9; the paper's k = 5); 0 turns re-location off.
  int window = 5;
  /// Smallest cosine (Eq. 9, in [-1, 1]) of the best database window for a re-location.
  double relocation_similarity = 0.9;
  /// Fraction of the particles moved to the re-located state, in [0, 1].
  double relocation_fraction = 0.2;
  /// How the estimate is formed (see GpdmEstimate).
  GpdmEstimate estimate = GpdmEstimate::kLatentMean;
  /// kNotConverged below this best-particle cosine similarity (in [-1, 1]).
  double min_similarity = 0.7;
  /// Values (rad, q order, nq) of the coordinates the model does not decode; empty: neutral.
  std::vector<double> rest{};
  /// Joints the source only inferred (see InferredJoints; kHold leaves links through them out).
  InferredJoints inferred_joints = InferredJoints::kHold;

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// GPDM particle filter mapper (seed 003, Sections 6-7; see the file doc).
///
/// A mapper of the shape of mappers/mapper.hpp. Input: a canonical `SkeletonFrame` (m; only link
/// directions matter). Output: q (size nq, rad, robot q order), finite and within the limits.
/// Everything is allocated in the constructor; `map()` allocates nothing and throws nothing.
/// Cost per frame: Q evaluations of the dynamics mean (O(n d)) and of the decoder mean
/// (O(N D)), Q forward kinematics of the robot, one dynamics variance (O(n^2)) and, with
/// re-location, one scan of the N - k + 1 database windows (O(N k d)). Copies the learned
/// model; keeps a reference to the robot model. One per thread.
template <typename ScalarType = double>
class GpdmParticleFilter {
 public:
  using Scalar = ScalarType;
  using Input = SkeletonFrame<Scalar>;
  using Map = GpdmFilterMap;
  using Options = GpdmParticleFilterOptions;
  /// Overshoot of a decoded estimate beyond a limit (rad) above which the clamp is reported.
  static constexpr double kClampTolerance = 0.01;

  /// Validates `options`, checks `map` against `model` and allocates everything. Throws
  /// InvalidArgument when `map.motion_model` is empty, when a joint name is not a coordinate
  /// of the model or is repeated, when the name count is not D (or D is not nq without names),
  /// or when `rest` is not nq values within the limits.
  GpdmParticleFilter(const RobotModel<Scalar>& model, GpdmFilterMap map, GpdmParticleFilterOptions options = {});

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  GpdmParticleFilter(const RobotModel<Scalar>&&, GpdmFilterMap, GpdmParticleFilterOptions = {}) = delete;

  /// One filter step for the observed skeleton `frame` (canonical frame, m) into `q_out` (nq,
  /// rad). See the class doc for the contract and the file doc for the method and statuses.
  [[nodiscard]] Status map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  /// Back to the initial state: particles over the training latent points, the held output
  /// (before any update) the decoding of the first training latent point, the random numbers
  /// restarted from `seed`. Afterwards the filter gives exactly what a fresh one gives.
  void reset() noexcept;

  /// Per q coordinate: the decoded estimate left the limits (by > 1e-9 rad) and was clamped.
  const JointFlags& clamped() const noexcept { return clamped_; }
  /// Per q coordinate: held its last value because no link was usable (kDegenerateInput).
  const JointFlags& held() const noexcept { return held_; }
  /// The robot coordinate of each model column.
  const std::vector<int>& decodedCoordinates() const noexcept { return columns_; }
  /// Best particle's cosine similarity (Eq. 1) in the last update (0 before any).
  Scalar bestSimilarity() const noexcept { return best_similarity_; }
  /// Effective sample size 1 / sum w^2 (normalised) of the last update, in [1, Q].
  Scalar effectiveSampleSize() const noexcept { return effective_size_; }
  /// Training frame whose latent point the last update re-located particles to; -1 for none.
  Eigen::Index relocatedTo() const noexcept { return relocated_to_; }
  /// Cosine (Eq. 9) of the best database window in the last update (0 before the window fills
  /// and with re-location off).
  double relocationCosine() const noexcept { return relocation_cosine_; }
  /// The latent estimate of the last update (d values, latent units).
  const Eigen::VectorXd& latentEstimate() const noexcept { return estimate_latent_; }
  /// The particles (d x Q, latent units) after the last resampling.
  const Eigen::MatrixXd& particles() const noexcept { return particles_; }
  /// The learned model in use.
  const GpdmModel& motionModel() const noexcept { return gpdm_; }
  const GpdmParticleFilterOptions& options() const noexcept { return options_; }
  const RobotModel<Scalar>& model() const noexcept { return *model_; }

 private:
  // q = rest with the decoded columns written, clamped to the limits.
  void writeDecoded(const Eigen::VectorXd& y, VectorX<Scalar>& q) const noexcept;

  // Eq. 9: the training frame ending the database window most similar to the last k estimates
  // (-1 when none reaches relocation_similarity).
  Eigen::Index relocation() noexcept;
  // The j-th oldest of the last k estimates (j = k - 1: the newest).
  auto historyAt(Eigen::Index j) const noexcept {
    const Eigen::Index k = history_.cols();
    return history_.col((history_count_ - k + j) % k);
  }

  const RobotModel<Scalar>* model_;
  GpdmParticleFilterOptions options_;
  GpdmModel gpdm_;
  VirtualSkeleton<Scalar> skeleton_;
  std::vector<int> columns_;              // robot q index of each model column
  std::vector<Eigen::Index> window_ends_;  // Eq. 9 database: last training frame of each window
  GpdmWorkspace workspace_;
  VectorX<Scalar> rest_;
  Eigen::MatrixXd particles_, scratch_;  // d x Q
  MatrixX<Scalar> decoded_;               // nq x Q: each particle's clamped joint angles
  VectorX<Scalar> log_weight_, weight_, similarity_;
  Eigen::VectorXd latent_, latent_next_, estimate_latent_, y_;
  VectorX<Scalar> q_, last_;
  Eigen::MatrixXd history_;  // d x k ring buffer of estimates
  Eigen::Index history_count_ = 0;
  SkeletonFrame<Scalar> frame_, robot_frame_;
  internal::ObservedLinks<Scalar> observed_;
  internal::PortableRandom random_;
  Scalar best_similarity_ = Scalar(0);
  Scalar effective_size_ = Scalar(0);
  Eigen::Index relocated_to_ = -1;
  double relocation_cosine_ = 0.0;
  JointFlags clamped_;
  JointFlags held_;
};

static_assert(isMapper<GpdmParticleFilter<double>>);
static_assert(isMapper<GpdmParticleFilter<float>>);

template <typename Scalar>
Status GpdmParticleFilter<Scalar>::map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  const int nq = model_->nq();
  if (q_out.size() != nq) return StatusCode::kInvalidInput;
  clamped_.setConstant(false);
  held_.setConstant(false);
  frame_ = frame;
  applyInferredPolicy(frame_, options_.inferred_joints);
  if (observed_.set(frame_) == 0) {
    for (int i : columns_) held_[i] = true;
    q_out = last_;
    return StatusCode::kDegenerateInput;
  }

  // Motion noise: the dynamics' predictive standard deviation at the last estimate.
  double variance = 0.0;
  double noise = options_.min_noise;
  if (gpdm_.predictNext(estimate_latent_, workspace_, latent_next_, variance).ok()) {
    noise = std::max(noise, options_.noise_scale * std::sqrt(variance));
  }
  // Predict, decode and weigh every particle.
  const Scalar inverse_two_sigma2 =
      Scalar(1) / (Scalar(2) * static_cast<Scalar>(options_.likelihood_sigma * options_.likelihood_sigma));
  const Eigen::Index count = particles_.cols();
  for (Eigen::Index p = 0; p < count; ++p) {
    latent_ = particles_.col(p);
    if (!gpdm_.predictNextMean(latent_, workspace_, latent_next_).ok()) latent_next_ = latent_;
    for (Eigen::Index c = 0; c < latent_next_.size(); ++c) latent_next_[c] += noise * random_.gaussian();
    if (!latent_next_.allFinite()) latent_next_ = latent_;
    particles_.col(p) = latent_next_;
    q_ = rest_;
    if (gpdm_.decodeMean(latent_next_, workspace_, y_).ok()) writeDecoded(y_, q_);
    decoded_.col(p) = q_;
    (void)skeleton_.compute(q_, robot_frame_);
    similarity_[p] = observed_.similarity(robot_frame_);
    log_weight_[p] = internal::logLikelihood(similarity_[p], inverse_two_sigma2);
  }
  const Eigen::Index best = internal::normaliseWeights(log_weight_, weight_, effective_size_);
  const Scalar total = weight_.sum();
  best_similarity_ = similarity_[best];

  // Estimate.
  latent_.setZero();
  for (Eigen::Index p = 0; p < count; ++p) latent_ += static_cast<double>(weight_[p] / total) * particles_.col(p);
  if (latent_.allFinite()) estimate_latent_ = latent_;
  q_ = last_;
  if (options_.estimate == GpdmEstimate::kLatentMean) {
    if (gpdm_.decodeMean(estimate_latent_, workspace_, y_).ok()) {
      for (std::size_t c = 0; c < columns_.size(); ++c) {
        const int i = columns_[c];
        const Scalar value = static_cast<Scalar>(y_[static_cast<Eigen::Index>(c)]);
        const Scalar tolerance = static_cast<Scalar>(kClampTolerance);
        clamped_[i] = value < model_->lowerLimits()[i] - tolerance || value > model_->upperLimits()[i] + tolerance;
      }
      q_ = rest_;
      writeDecoded(y_, q_);
    }
  } else {
    q_ = rest_;
    for (int i : columns_) {
      const Scalar mean = decoded_.row(i).dot(weight_.transpose()) / total;
      q_[i] = std::min(std::max(mean, model_->lowerLimits()[i]), model_->upperLimits()[i]);  // rounding only
    }
  }
  if (!q_.allFinite()) q_ = last_;
  q_out = q_;
  last_ = q_;

  // Resample, then re-locate (Eq. 9) part of the cloud on the learned motion.
  internal::systematicResample(weight_, random_.uniform(), particles_, scratch_);
  particles_.swap(scratch_);
  relocated_to_ = -1;
  if (options_.window > 0) {
    history_.col(history_count_ % history_.cols()) = estimate_latent_;
    ++history_count_;
    if (history_count_ >= history_.cols()) {
      relocated_to_ = relocation();
      if (relocated_to_ >= 0) {
        const auto moved = static_cast<Eigen::Index>(std::floor(options_.relocation_fraction * static_cast<double>(count)));
        for (Eigen::Index p = count - moved; p < count; ++p) particles_.col(p) = gpdm_.latent().row(relocated_to_).transpose();
      }
    }
  }
  Status status;
  if (clamped_.any()) status |= StatusCode::kClamped;
  if (best_similarity_ < static_cast<Scalar>(options_.min_similarity)) status |= StatusCode::kNotConverged;
  return status;
}

template <typename ScalarType>
GpdmParticleFilter<ScalarType>::GpdmParticleFilter(const RobotModel<Scalar>& model, GpdmFilterMap map,
                                                   GpdmParticleFilterOptions options)
    : model_(&model), options_(std::move(options)), gpdm_(std::move(map.motion_model)), skeleton_(model, map.skeleton) {
  options_.validate();
  const int nq = model.nq();
  const Eigen::Index dim_y = gpdm_.observationDim(), dim_x = gpdm_.latentDim();
  RETARGET_THROW_UNLESS(gpdm_.frames() >= 2 && dim_x >= 1, InvalidArgument,
                        "GpdmFilterMap::motion_model (got an empty model, expected a trained GPDM)");
  if (map.joints.empty()) {
    RETARGET_THROW_UNLESS(dim_y == nq, InvalidArgument, "GpdmFilterMap::joints (got none for a model of ", dim_y,
                          " observation columns, expected names, or a model of nq = ", nq, " columns for robot '",
                          model.name(), "')");
    for (int i = 0; i < nq; ++i) columns_.push_back(i);
  } else {
    RETARGET_THROW_UNLESS(static_cast<Eigen::Index>(map.joints.size()) == dim_y, InvalidArgument,
                          "GpdmFilterMap::joints (got ", map.joints.size(), " names, expected D = ", dim_y,
                          ", one per observation column of the model)");
    for (std::size_t k = 0; k < map.joints.size(); ++k) {
      const int i = model.findQ(map.joints[k]);
      RETARGET_THROW_UNLESS(i >= 0, InvalidArgument, "GpdmFilterMap::joints[", k, "] (got '", map.joints[k],
                            "', expected a coordinate of robot '", model.name(), "')");
      RETARGET_THROW_UNLESS(std::find(columns_.begin(), columns_.end(), i) == columns_.end(), InvalidArgument,
                            "GpdmFilterMap::joints[", k, "] (got '", map.joints[k],
                            "' a second time, expected each coordinate once)");
      columns_.push_back(i);
    }
  }
  rest_ = internal::restConfiguration(model, options_.rest, "GpdmParticleFilterOptions::rest");
  // Database of Eq. 9: every window of k consecutive training latent points inside a sequence.
  const int k = options_.window;
  if (k > 0) {
    Eigen::Index start = 0;
    for (const Eigen::Index length : gpdm_.sequenceLengths()) {
      for (Eigen::Index t = 0; t + k <= length; ++t) window_ends_.push_back(start + t + k - 1);
      start += length;
    }
  }
  const auto count = static_cast<Eigen::Index>(options_.particles);
  workspace_ = gpdm_.workspace();
  particles_.resize(dim_x, count);
  scratch_.resize(dim_x, count);
  decoded_.resize(nq, count);
  log_weight_.resize(count);
  weight_.resize(count);
  similarity_.resize(count);
  latent_.resize(dim_x);
  latent_next_.resize(dim_x);
  y_.resize(dim_y);
  q_.resize(nq);
  last_.resize(nq);
  history_.resize(dim_x, std::max(k, 1));
  clamped_ = JointFlags::Constant(nq, false);
  held_ = JointFlags::Constant(nq, false);
  reset();
}

template <typename ScalarType>
void GpdmParticleFilter<ScalarType>::reset() noexcept {
  const Eigen::Index count = particles_.cols(), frames = gpdm_.frames();
  for (Eigen::Index p = 0; p < count; ++p) particles_.col(p) = gpdm_.latent().row(p * frames / count).transpose();
  estimate_latent_ = gpdm_.latent().row(0).transpose();
  last_ = rest_;
  if (gpdm_.decodeMean(estimate_latent_, workspace_, y_).ok()) writeDecoded(y_, last_);
  random_.reseed(options_.seed);
  history_count_ = 0;
  best_similarity_ = Scalar(0);
  effective_size_ = Scalar(0);
  relocated_to_ = -1;
  relocation_cosine_ = 0.0;
  clamped_.setConstant(false);
  held_.setConstant(false);
}

template <typename ScalarType>
void GpdmParticleFilter<ScalarType>::writeDecoded(const Eigen::VectorXd& y, VectorX<Scalar>& q) const noexcept {
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const int i = columns_[c];
    q[i] = std::min(std::max(static_cast<Scalar>(y[static_cast<Eigen::Index>(c)]), model_->lowerLimits()[i]),
                    model_->upperLimits()[i]);
  }
}

template <typename ScalarType>
Eigen::Index GpdmParticleFilter<ScalarType>::relocation() noexcept {
  const Eigen::Index k = history_.cols(), dim_x = history_.rows();
  double history_norm2 = 0.0;
  for (Eigen::Index j = 0; j < k; ++j) history_norm2 += historyAt(j).squaredNorm();
  if (!(history_norm2 > 0.0)) return -1;
  double best = -2.0;
  Eigen::Index best_end = -1;
  const Eigen::MatrixXd& x = gpdm_.latent();
  for (const Eigen::Index end : window_ends_) {
    double dot = 0.0, norm2 = 0.0;
    for (Eigen::Index j = 0; j < k; ++j) {
      const Eigen::Index row = end - k + 1 + j;
      for (Eigen::Index c = 0; c < dim_x; ++c) {
        dot += historyAt(j)[c] * x(row, c);
        norm2 += x(row, c) * x(row, c);
      }
    }
    if (!(norm2 > 0.0)) continue;
    const double cosine = dot / std::sqrt(history_norm2 * norm2);
    if (cosine > best) {
      best = cosine;
      best_end = end;
    }
  }
  relocation_cosine_ = best;
  return best >= options_.relocation_similarity ? best_end : -1;
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL void GpdmParticleFilterOptions::validate() const {
  RETARGET_THROW_UNLESS(particles >= 1 && particles <= 100000, InvalidArgument,
                        "GpdmParticleFilterOptions::particles (got ", particles, ", expected 1 ... 100000)");
  RETARGET_THROW_UNLESS(std::isfinite(noise_scale) && noise_scale >= 0.0, InvalidArgument,
                        "GpdmParticleFilterOptions::noise_scale (got ", noise_scale, ", expected a finite value >= 0)");
  RETARGET_THROW_UNLESS(std::isfinite(min_noise) && min_noise >= 0.0, InvalidArgument,
                        "GpdmParticleFilterOptions::min_noise (got ", min_noise,
                        ", expected a finite value >= 0 in latent units)");
  RETARGET_THROW_UNLESS(std::isfinite(likelihood_sigma) && likelihood_sigma > 0.0, InvalidArgument,
                        "GpdmParticleFilterOptions::likelihood_sigma (got ", likelihood_sigma,
                        ", expected a finite value > 0)");
  RETARGET_THROW_UNLESS(window >= 0 && window <= 1000, InvalidArgument, "GpdmParticleFilterOptions::window (got ",
                        window, ", expected 0 ... 1000; 0 = no re-location)");
  RETARGET_THROW_UNLESS(std::isfinite(relocation_similarity) && relocation_similarity >= -1.0 &&
                            relocation_similarity <= 1.0,
                        InvalidArgument, "GpdmParticleFilterOptions::relocation_similarity (got ",
                        relocation_similarity, ", expected a value in [-1, 1])");
  RETARGET_THROW_UNLESS(std::isfinite(relocation_fraction) && relocation_fraction >= 0.0 && relocation_fraction <= 1.0,
                        InvalidArgument, "GpdmParticleFilterOptions::relocation_fraction (got ",
                        relocation_fraction, ", expected a value in [0, 1])");
  RETARGET_THROW_UNLESS(estimate == GpdmEstimate::kLatentMean || estimate == GpdmEstimate::kJointMean,
                        InvalidArgument, "GpdmParticleFilterOptions::estimate (got ", static_cast<int>(estimate),
                        ", expected kLatentMean or kJointMean)");
  RETARGET_THROW_UNLESS(std::isfinite(min_similarity) && min_similarity >= -1.0 && min_similarity <= 1.0,
                        InvalidArgument, "GpdmParticleFilterOptions::min_similarity (got ", min_similarity,
                        ", expected a value in [-1, 1])");
  for (std::size_t i = 0; i < rest.size(); ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(rest[i]), InvalidArgument, "GpdmParticleFilterOptions::rest[", i, "] (got ",
                          rest[i], ", expected a finite value)");
  }
  RETARGET_THROW_UNLESS(inferred_joints == InferredJoints::kHold || inferred_joints == InferredJoints::kUse,
                        InvalidArgument, "GpdmParticleFilterOptions::inferred_joints (got ",
                        static_cast<int>(inferred_joints), ", expected kHold or kUse)");
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class GpdmParticleFilter<double>;
RETARGET_TEMPLATE_MAPPERS class GpdmParticleFilter<float>;
#endif

}  // namespace retarget
