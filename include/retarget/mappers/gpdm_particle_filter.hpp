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
///    Time: f_x advances one training frame. With the map's `frame_period` T (s) and frame time
///    stamps, a frame dt after the previous one advances r = dt / T training frames (clamped to
///    [1/16, 4]): floor(r) steps of f_x, then the fraction r - floor(r) of one more step
///    (p + frac (f_x(p) - p)), and the noise is scaled by sqrt(r) (Eq. 3's noise per unit of
///    time), so 30 Hz and 120 Hz inputs of one motion move the cloud alike. Without a period or
///    time stamps: one step per frame.
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
///    dis = X . X_i / (|X| |X_i|); with the best match above `relocation_similarity`:
///    `GpdmRelocation::kMoveParticles` (default, ours) moves the last `relocation_fraction` Q
///    particles after resampling to the latent point that ends X_i; `kReplaceWindow` (the paper's
///    "input X is updated with the X_i retrieving the highest similarity") replaces the window by
///    X_i and translates the whole cloud by the step from the current estimate to the end of X_i.
///    Either way the next prediction starts from the learned motion at the matched phase; the
///    default was chosen by measurement (docs/methods/particle_filter.md).
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
///  - kNotConverged ("not explained by the model", `unexplained()`): the cosine similarity of
///    the written estimate's virtual skeleton to the observation is below the map's
///    `fit_threshold`, the 5th percentile of that similarity on the recordings the model was
///    trained on (`gpdmFitThreshold`; `retarget learn gpdm` stores it in the .gpdm file), or below
///    `min_similarity` when the map has none: the human does something the model never learned.
///    With `fallback = kGaLvvj` the output then moves to GA-LVVJ's angles for the same frame
///    (blended over `fallback_blend_time` seconds both ways so the switch does not jump;
///    `fallbackWeight()` is the blend, 1 = GA-LVVJ only).
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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/portable_random.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/skeleton_links.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/learning/gpdm.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/internal/pose_likelihood.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>

namespace retarget {

/// Robot data of `GpdmParticleFilter`: the learned motion model and what its columns are.
struct GpdmFilterMap {
  /// The learned GPDM (learning/gpdm.hpp; `loadGpdmModel` of io/gpdm_model.hpp reads one).
  GpdmModel motion_model{};
  /// Robot coordinate of each of the model's D observation columns; empty: D = nq in q order.
  std::vector<std::string> joints{};
  /// The robot's virtual skeleton, through which particles are weighed (as the joint-space filter).
  VirtualSkeletonMap skeleton = naoVirtualSkeletonMap();
  /// GA-LVVJ's joint bindings for the robot, used only by the fallback (`GpdmFallback::kGaLvvj`).
  GaLvvjMap fallback = naoGaLvvjMap();
  /// Seconds between two training frames of `motion_model` (0: one dynamics step per frame).
  double frame_period = 0.0;
  /// Cosine below which a frame is not explained by the model (see kNotConverged in the file
  /// doc); none: `GpdmParticleFilterOptions::min_similarity`.
  std::optional<double> fit_threshold{};
};

/// How `GpdmParticleFilter` re-locates the cloud on the best database window (Eq. 9).
enum class GpdmRelocation {
  kMoveParticles,  ///< a fraction of the particles jumps to the window's last latent point (ours)
  kReplaceWindow,  ///< the window becomes X_i and the cloud moves with it (seed 003, Section 6)
};

/// What `GpdmParticleFilter` writes on frames the model does not explain.
enum class GpdmFallback {
  kNone,    ///< the filter's estimate, flagged kNotConverged
  kGaLvvj,  ///< GA-LVVJ's angles of the same frame (blended in and out), still flagged
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
  /// Fraction of the particles moved to the re-located state, in [0, 1] (kMoveParticles).
  double relocation_fraction = 0.2;
  /// How the cloud is re-located (see GpdmRelocation).
  GpdmRelocation relocation = GpdmRelocation::kMoveParticles;
  /// How the estimate is formed (see GpdmEstimate).
  GpdmEstimate estimate = GpdmEstimate::kLatentMean;
  /// kNotConverged below this cosine similarity of the estimate (in [-1, 1]) when the map has no
  /// `fit_threshold`. Not from the paper: a loose bound for uncalibrated models (a model from
  /// `retarget learn gpdm` carries a threshold measured on its own training recordings).
  double min_similarity = 0.7;
  /// What to write on frames the model does not explain.
  GpdmFallback fallback = GpdmFallback::kNone;
  /// Seconds (>= 0) over which the output blends into and out of the fallback (0: at once).
  double fallback_blend_time = 0.2;
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
  /// Cosine similarity (Eq. 1) of the filter's estimate to the last observation (0 before any).
  Scalar estimateSimilarity() const noexcept { return estimate_similarity_; }
  /// True when the last frame was not explained by the model (kNotConverged).
  bool unexplained() const noexcept { return unexplained_; }
  /// Share of the GA-LVVJ fallback in the last output, [0, 1] (0 without a fallback).
  double fallbackWeight() const noexcept { return fallback_weight_; }
  /// The threshold in use (cosine): the map's fit_threshold, else options().min_similarity.
  double fitThreshold() const noexcept { return threshold_; }
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
  Scalar estimate_similarity_ = Scalar(0);
  Scalar effective_size_ = Scalar(0);
  double threshold_ = 0.0;
  double frame_period_ = 0.0;
  double last_time_ = 0.0;
  bool has_time_ = false;
  double history_clock_ = 0.0;
  bool unexplained_ = false;
  double fallback_weight_ = 0.0;
  std::optional<GaLvvjMapper<Scalar>> fallback_;
  VectorX<Scalar> q_fallback_;
  Eigen::Index relocated_to_ = -1;
  double relocation_cosine_ = 0.0;
  JointFlags clamped_;
  JointFlags held_;
};

/// The fit threshold of a learned model (ours; seed 003 has none): runs a filter with `options`
/// (its fallback off) over each of `motions`, the recordings the model was trained on, and returns
/// the `quantile` (default 0.05) of the estimate's cosine similarity (Eq. 1) over all their frames
/// with a usable observation. A held-out frame below it fits the model worse than 95 % of the
/// training frames did. Allocates (not for the per-frame path). Throws InvalidArgument when the
/// quantile is outside [0, 1] or no frame is usable.
template <typename Scalar>
double gpdmFitThreshold(const RobotModel<Scalar>& model, GpdmFilterMap map,
                        const std::vector<SkeletonMotion<Scalar>>& motions, GpdmParticleFilterOptions options = {},
                        double quantile = 0.05);

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

  // Training frames this frame advances (see the file doc): r = dt / T.
  double steps = 1.0;
  const double time = static_cast<double>(frame.time);
  if (frame_period_ > 0.0 && has_time_ && std::isfinite(time) && time > last_time_) {
    steps = std::min(std::max((time - last_time_) / frame_period_, 1.0 / 16.0), 4.0);
  }
  if (std::isfinite(time)) {
    last_time_ = time;
    has_time_ = true;
  }
  const int whole_steps = static_cast<int>(std::floor(steps));
  const double fraction = steps - whole_steps;
  // Motion noise: the dynamics' predictive standard deviation at the last estimate, per unit
  // of time (sqrt(r)).
  double variance = 0.0;
  double noise = options_.min_noise;
  if (gpdm_.predictNext(estimate_latent_, workspace_, latent_next_, variance).ok()) {
    noise = std::max(noise, options_.noise_scale * std::sqrt(variance));
  }
  noise *= std::sqrt(steps);
  // Predict, decode and weigh every particle.
  const Scalar inverse_two_sigma2 =
      Scalar(1) / (Scalar(2) * static_cast<Scalar>(options_.likelihood_sigma * options_.likelihood_sigma));
  const Eigen::Index count = particles_.cols();
  for (Eigen::Index p = 0; p < count; ++p) {
    latent_ = particles_.col(p);
    for (int step = 0; step < whole_steps; ++step) {
      if (!gpdm_.predictNextMean(latent_, workspace_, latent_next_).ok()) latent_next_ = latent_;
      latent_ = latent_next_;
    }
    latent_next_ = latent_;
    if (fraction > 0.0 && gpdm_.predictNextMean(latent_, workspace_, latent_next_).ok()) {
      latent_next_ = latent_ + fraction * (latent_next_ - latent_);
    } else {
      latent_next_ = latent_;
    }
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
  // How well the estimate explains the observation, measured on what is written.
  estimate_similarity_ = skeleton_.compute(q_, robot_frame_).ok() ? observed_.similarity(robot_frame_) : Scalar(0);
  unexplained_ = !(static_cast<double>(estimate_similarity_) >= threshold_);
  if (fallback_) {
    const Status fallback_status = fallback_->map(frame, q_fallback_);
    const double dt = steps * (frame_period_ > 0.0 ? frame_period_ : 1.0 / 30.0);
    const double rate = options_.fallback_blend_time > 0.0 ? dt / options_.fallback_blend_time : 1.0;
    const bool usable = !fallback_status.has(StatusCode::kInvalidInput) && q_fallback_.allFinite();
    const double target = unexplained_ && usable ? 1.0 : 0.0;
    fallback_weight_ = target > fallback_weight_ ? std::min(target, fallback_weight_ + rate)
                                                 : std::max(target, fallback_weight_ - rate);
    if (fallback_weight_ > 0.0 && usable) {
      const Scalar w = static_cast<Scalar>(fallback_weight_);
      q_ = (Scalar(1) - w) * q_ + w * q_fallback_;  // both within the limits: so is the blend
    }
  }
  q_out = q_;
  last_ = q_;

  // Resample, then re-locate (Eq. 9) part of the cloud on the learned motion.
  internal::systematicResample(weight_, random_.uniform(), particles_, scratch_);
  particles_.swap(scratch_);
  relocated_to_ = -1;
  history_clock_ += steps;
  if (options_.window > 0 && history_clock_ >= 1.0 - 1e-9) {
    // The window holds estimates one training frame apart, whatever the input rate.
    history_clock_ = std::max(0.0, history_clock_ - 1.0);
    history_.col(history_count_ % history_.cols()) = estimate_latent_;
    ++history_count_;
    if (history_count_ >= history_.cols()) {
      relocated_to_ = relocation();
      if (relocated_to_ >= 0 && options_.relocation == GpdmRelocation::kReplaceWindow) {
        // The window becomes X_i (oldest first), the cloud follows its newest point.
        const Eigen::Index k = history_.cols();
        latent_ = gpdm_.latent().row(relocated_to_).transpose() - estimate_latent_;
        for (Eigen::Index j = 0; j < k; ++j) {
          history_.col((history_count_ - k + j) % k) = gpdm_.latent().row(relocated_to_ - k + 1 + j).transpose();
        }
        for (Eigen::Index p = 0; p < count; ++p) particles_.col(p) += latent_;
        estimate_latent_ = gpdm_.latent().row(relocated_to_).transpose();
      } else if (relocated_to_ >= 0) {
        const auto moved = static_cast<Eigen::Index>(std::floor(options_.relocation_fraction * static_cast<double>(count)));
        for (Eigen::Index p = count - moved; p < count; ++p) particles_.col(p) = gpdm_.latent().row(relocated_to_).transpose();
      }
    }
  }
  Status status;
  if (clamped_.any()) status |= StatusCode::kClamped;
  if (unexplained_) status |= StatusCode::kNotConverged;
  return status;
}

template <typename Scalar>
double gpdmFitThreshold(const RobotModel<Scalar>& model, GpdmFilterMap map,
                        const std::vector<SkeletonMotion<Scalar>>& motions, GpdmParticleFilterOptions options,
                        double quantile) {
  RETARGET_THROW_UNLESS(std::isfinite(quantile) && quantile >= 0.0 && quantile <= 1.0, InvalidArgument,
                        "quantile (got ", quantile, ", expected a value in [0, 1])");
  options.fallback = GpdmFallback::kNone;
  map.fit_threshold.reset();
  GpdmParticleFilter<Scalar> filter(model, std::move(map), options);
  std::vector<double> similarity;
  VectorX<Scalar> q(model.nq());
  for (const SkeletonMotion<Scalar>& motion : motions) {
    filter.reset();
    for (const SkeletonFrame<Scalar>& frame : motion.frames) {
      if (filter.map(frame, q).has(StatusCode::kDegenerateInput)) continue;
      similarity.push_back(static_cast<double>(filter.estimateSimilarity()));
    }
  }
  RETARGET_THROW_UNLESS(!similarity.empty(), InvalidArgument, "no usable frame in the ", motions.size(),
                        " training recordings");
  std::sort(similarity.begin(), similarity.end());
  const auto index = static_cast<std::size_t>(std::floor(quantile * static_cast<double>(similarity.size() - 1)));
  return similarity[index];
}

template <typename ScalarType>
GpdmParticleFilter<ScalarType>::GpdmParticleFilter(const RobotModel<Scalar>& model, GpdmFilterMap map,
                                                   GpdmParticleFilterOptions options)
    : model_(&model), options_(std::move(options)), gpdm_(std::move(map.motion_model)), skeleton_(model, map.skeleton) {
  options_.validate();
  RETARGET_THROW_UNLESS(std::isfinite(map.frame_period) && map.frame_period >= 0.0, InvalidArgument,
                        "GpdmFilterMap::frame_period (got ", map.frame_period, ", expected a finite value >= 0 s)");
  RETARGET_THROW_UNLESS(!map.fit_threshold || (*map.fit_threshold >= -1.0 && *map.fit_threshold <= 1.0),
                        InvalidArgument, "GpdmFilterMap::fit_threshold (got ", map.fit_threshold.value_or(0.0),
                        ", expected a cosine in [-1, 1])");
  frame_period_ = map.frame_period;
  threshold_ = map.fit_threshold ? *map.fit_threshold : options_.min_similarity;
  if (options_.fallback == GpdmFallback::kGaLvvj) {
    GaLvvjOptions fallback_options;
    fallback_options.inferred_joints = options_.inferred_joints;
    fallback_.emplace(model, map.fallback, fallback_options);
  }
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
  q_fallback_.resize(nq);
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
  history_clock_ = 0.0;
  has_time_ = false;
  last_time_ = 0.0;
  unexplained_ = false;
  fallback_weight_ = 0.0;
  estimate_similarity_ = Scalar(0);
  if (fallback_) fallback_->reset();
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
  RETARGET_THROW_UNLESS(relocation == GpdmRelocation::kMoveParticles || relocation == GpdmRelocation::kReplaceWindow,
                        InvalidArgument, "GpdmParticleFilterOptions::relocation (got ", static_cast<int>(relocation),
                        ", expected kMoveParticles or kReplaceWindow)");
  RETARGET_THROW_UNLESS(fallback == GpdmFallback::kNone || fallback == GpdmFallback::kGaLvvj, InvalidArgument,
                        "GpdmParticleFilterOptions::fallback (got ", static_cast<int>(fallback),
                        ", expected kNone or kGaLvvj)");
  RETARGET_THROW_UNLESS(std::isfinite(fallback_blend_time) && fallback_blend_time >= 0.0, InvalidArgument,
                        "GpdmParticleFilterOptions::fallback_blend_time (got ", fallback_blend_time,
                        ", expected a finite value >= 0 s)");
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
