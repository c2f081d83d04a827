#pragma once

/// @file
/// Joint-space particle filter (seed 003, Section 3, Algorithm 1): the robot's joint angles are
/// estimated by a cloud of particles in its joint space, each weighed by how well the robot's
/// own virtual skeleton at that configuration matches the observed human skeleton.
///
/// Method (seed 003's equation numbers, counted in order of appearance in Section 3):
///  - State. A particle is a robot configuration p^q = [theta_1 ... theta_M] (rad, robot q
///    order). `ParticleFilterOptions::joints` chooses the estimated coordinates: every
///    coordinate (default; the paper's 25-D NAO space) or a subset such as `naoArmJoints()`
///    (the paper's 12-D arms-only variant). The other coordinates stay at their rest values.
///  - Motion model (Eq. 3): a random walk, p_t = p_{t-1} + eps, eps ~ N(0, sigma^2) per
///    estimated coordinate, with sigma = `noise` in rad per frame (the paper's sigma^2 Delta t
///    with Delta t folded in: one call of map() is one step). Each particle is then clamped to
///    the position limits.
///  - Likelihood (Eqs. 1-2): the cosine pose similarity sim over the 11 links of
///    human/skeleton_links.hpp (`CosineLink`, each link expressed in its skeleton's base
///    frame; Eq. 1), between the observation and the particle's virtual skeleton
///    (robots/virtual_skeleton.hpp, `WbfBase::kTorso`), and the weight
///    w = exp(-(1 - sim)^2 / (2 sigma_L^2)) with sigma_L = `likelihood_sigma` (Eq. 2; the minus
///    sign is lost in the paper's text but a weight that grows as the poses differ would not be
///    a likelihood). The similarity code is the metric's own (human/skeleton_links.hpp, internal::similarity).
///  - Estimate (Eq. 4): the weighted mean sum_q w^q p^q / sum_q w^q of the predicted particles.
///  - Resampling (Algorithm 1, lines 7-11): Q new particles drawn with probability w^q, by
///    systematic (low-variance) resampling: one uniform offset u in [0, 1/Q), then the
///    particles at cumulative weights u + j/Q, j = 0 ... Q-1.
///
/// Observability. A coordinate that moves none of the 11 links (NAO: the wrists, the hands, the
/// ankles) is invisible to the likelihood: a random walk on it would wander between
/// its limits. With `unobserved_at_rest` (default) such coordinates are found once, in the
/// constructor (a probe: each coordinate turned by 0.05 rad at the rest configuration and at
/// fixed pseudo-random configurations; a link that turns by more than 1e-6 rad observes it),
/// and they are kept at rest; `estimated()` lists what remains (NAO: 17 of 25; 8 of the 12 arm
/// coordinates). Off: the paper's literal filter (every chosen coordinate walks). Two NAO
/// coordinates are only weakly observed and carry most of the remaining error: ElbowYaw
/// (invisible while the elbow is nearly straight) and HeadYaw (seen through the small offset of
/// the head point from the yaw axis).
///
/// Statuses (mappers/mapper.hpp):
///  - kDegenerateInput: an estimated coordinate whose observing links are all unusable in this
///    frame (a joint missing, not tracked, only inferred with `InferredJoints::kHold`, not
///    finite, a zero-length link, or no base frame) holds its last estimate and gets no noise;
///    `held()` says which. A frame with no usable link holds every estimated coordinate and
///    leaves the particles untouched.
///  - kNotConverged: the best particle's similarity was below `min_similarity` (the
///    observation is far from every pose the particles reach; low confidence). The output is
///    still the weighted mean.
///  - kClamped is never reported: particles are confined to the limits, and their weighted
///    mean, a convex combination, lies within them (the final clamp only removes rounding).
///  - kInvalidInput: q_out does not have nq entries (q_out untouched).
///
/// Determinism. The random numbers come from a std::mt19937_64 seeded with `seed`, turned into
/// uniforms by its top 53 bits and into normals by a hand-written Box-Muller transform (no
/// std::normal_distribution, whose algorithm differs between standard libraries): the same
/// seed gives the same output bit for bit with the same build, the same random stream with any
/// standard library (results can then differ only where the math library rounds log, sin, cos
/// or exp differently; GCC and Clang builds on one machine agree), and reset() restores the
/// seed.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
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
#include <retarget/mappers/internal/pose_likelihood.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>

namespace retarget {

/// The 12 NAO arm coordinates of seed 003's arms-only filter (Section 3: "we estimated the
/// joint angles of only the left and right arms, reducing the state space to 12 dimensions").
RETARGET_DECL std::vector<std::string> naoArmJoints();

/// Options of `JointSpaceParticleFilter` (a validated aggregate; `validate()` runs in the
/// constructor; the joint names and `rest` are checked against the model there).
struct ParticleFilterOptions {
  /// Number of particles Q (Algorithm 1), in [1, 1000000]. The paper uses 400 (12-D).
  int particles = 200;
  /// Standard deviation of the random-walk step of every estimated coordinate (rad per frame,
  /// > 0; the sigma of Eq. 3 with Delta t one frame). It bounds how fast the estimate can
  /// follow: a joint moving by more than about this per frame lags.
  double noise = 0.05;
  /// sigma_L of the likelihood (Eq. 2), in units of (1 - cosine similarity), > 0. Smaller is
  /// sharper: particles whose (1 - sim) are a and b weigh in the ratio
  /// exp((b^2 - a^2) / (2 sigma_L^2)). The paper gives no value; 0.002 was chosen on the
  /// synthetic tracking test of tests/pf (see docs/methods/particle_filter.md): the (1 - sim)^2
  /// form is flat near sim = 1, so a larger value leaves nearly equal weights.
  double likelihood_sigma = 0.002;
  /// Seed of the random numbers: the same seed gives the same output (see the file doc).
  std::uint64_t seed = 1;
  /// Names of the estimated robot coordinates (the state space); empty (default): all nq
  /// coordinates (seed 003's 25-D NAO filter). `naoArmJoints()`: the paper's 12-D variant.
  std::vector<std::string> joints{};
  /// Keep coordinates no similarity link observes at rest (see the file doc, "Observability").
  bool unobserved_at_rest = true;
  /// kNotConverged is reported when the best particle's cosine similarity (Eq. 1, in [-1, 1])
  /// is below this value.
  double min_similarity = 0.7;
  /// Rest values (rad, robot q order, size nq): the initial particles and the value of every
  /// coordinate not estimated. Empty (default): the model's neutral configuration.
  std::vector<double> rest{};
  /// What to do with joints the source only inferred (see InferredJoints; default kHold: links
  /// through them are left out of Eq. 1, and what only they observe is held).
  InferredJoints inferred_joints = InferredJoints::kHold;

  /// Throws InvalidArgument naming the field and value when a value is out of range or not
  /// finite.
  RETARGET_DECL void validate() const;
};

/// Joint-space particle filter mapper (seed 003, Section 3; see the file doc for the method,
/// observability and statuses).
///
/// A mapper of the shape of mappers/mapper.hpp. Input: a canonical `SkeletonFrame` (m, x
/// forward, y left, z up; only link directions matter). Map: the robot's `VirtualSkeletonMap`
/// (robots/virtual_skeleton_map.hpp; `virtualSkeletonMapFor` finds it), through which particles are
/// weighed.
/// Output: q (size nq, rad, robot q order), finite and within the limits. Every buffer
/// (particles, weights, the virtual-skeleton workspace) is allocated in the constructor;
/// `map()` allocates nothing and throws nothing. Cost per frame: Q forward kinematics of the
/// robot plus Q evaluations of Eq. 1. Keeps a reference to the model. One per thread.
template <typename ScalarType = double>
class JointSpaceParticleFilter {
 public:
  using Scalar = ScalarType;
  using Input = SkeletonFrame<Scalar>;
  using Map = VirtualSkeletonMap;
  using Options = ParticleFilterOptions;

  /// Validates `options` (see ParticleFilterOptions::validate), resolves `map`'s virtual
  /// skeleton against `model` (as VirtualSkeleton does) and allocates everything. Also throws
  /// InvalidArgument when a name in `joints` is not a coordinate of the model or is repeated,
  /// when `rest` does not have nq values within the limits, or when no chosen coordinate is
  /// observed by the similarity links.
  JointSpaceParticleFilter(const RobotModel<Scalar>& model, VirtualSkeletonMap map, ParticleFilterOptions options = {});

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  JointSpaceParticleFilter(const RobotModel<Scalar>&&, VirtualSkeletonMap, ParticleFilterOptions = {}) = delete;

  /// One step of Algorithm 1 for the observed skeleton `frame` (canonical frame, m): predict
  /// (Eq. 3), weigh (Eqs. 1-2), estimate (Eq. 4) into `q_out` (size nq, rad), resample. See the
  /// class doc for the contract and the file doc for the statuses.
  [[nodiscard]] Status map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  /// Back to the initial state: every particle at rest, the estimate at rest, the random
  /// numbers restarted from `seed`. Afterwards the filter gives exactly what a fresh one gives.
  void reset() noexcept;

  /// Per q coordinate: clamped in the last `map()` call (never: see the file doc).
  const JointFlags& clamped() const noexcept { return clamped_; }
  /// Per q coordinate: held its last estimate in the last `map()` call because every link that
  /// observes it was unusable (kDegenerateInput).
  const JointFlags& held() const noexcept { return held_; }
  /// The robot coordinates the filter estimates (q indices, ascending); the rest stay at rest.
  const std::vector<int>& estimated() const noexcept { return estimated_; }
  /// The best particle's cosine similarity (Eq. 1) in the last frame that updated the filter
  /// (0 before any).
  Scalar bestSimilarity() const noexcept { return best_similarity_; }
  /// Effective sample size 1 / sum w^2 (normalised weights) of the last update, in [1, Q].
  Scalar effectiveSampleSize() const noexcept { return effective_size_; }
  /// The particles (nq x Q, rad) after the last resampling.
  const MatrixX<Scalar>& particles() const noexcept { return particles_; }
  /// The options in use.
  const ParticleFilterOptions& options() const noexcept { return options_; }
  /// The robot model.
  const RobotModel<Scalar>& model() const noexcept { return *model_; }

 private:
  using Links = internal::similarity::Links<Scalar>;
  static constexpr std::size_t kLinks = static_cast<std::size_t>(kCosineLinkCount);

  // Unit direction of every cosine link in the skeleton's base frame; false where undefined.
  static void directions(const Links& links, std::array<Vector3<Scalar>, kLinks>& out, std::array<bool, kLinks>& valid);

  // Which links each chosen coordinate moves (see the file doc, "Observability"); fills
  // estimated_ and observes_.
  void probeObservability(const std::vector<int>& chosen);

  void resample() noexcept;

  const RobotModel<Scalar>* model_;
  ParticleFilterOptions options_;
  VirtualSkeleton<Scalar> skeleton_;
  VectorX<Scalar> rest_;
  std::vector<int> estimated_;                      // q indices of the state
  std::vector<std::array<bool, kLinks>> observes_;  // per estimated coordinate: links it moves
  std::vector<char> seen_;                          // per estimated coordinate, this frame
  MatrixX<Scalar> particles_;                       // nq x Q
  MatrixX<Scalar> scratch_;                         // nq x Q, resampling target
  VectorX<Scalar> log_weight_, weight_, similarity_;
  VectorX<Scalar> estimate_, last_;
  SkeletonFrame<Scalar> frame_;        // the observation after the inferred-joints policy
  internal::ObservedLinks<Scalar> observed_;
  SkeletonFrame<Scalar> robot_frame_;  // a particle's virtual skeleton
  internal::PortableRandom random_;
  Scalar best_similarity_ = Scalar(0);
  Scalar effective_size_ = Scalar(0);
  JointFlags clamped_;
  JointFlags held_;
};

static_assert(isMapper<JointSpaceParticleFilter<double>>);
static_assert(isMapper<JointSpaceParticleFilter<float>>);

template <typename Scalar>
void JointSpaceParticleFilter<Scalar>::resample() noexcept {
  internal::systematicResample(weight_, random_.uniform(), particles_, scratch_);
  particles_.swap(scratch_);
}

template <typename Scalar>
Status JointSpaceParticleFilter<Scalar>::map(const SkeletonFrame<Scalar>& frame,
                                             Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  const int nq = model_->nq();
  if (q_out.size() != nq) return StatusCode::kInvalidInput;
  clamped_.setConstant(false);
  held_.setConstant(false);
  frame_ = frame;
  applyInferredPolicy(frame_, options_.inferred_joints);
  (void)observed_.set(frame_);
  // Which estimated coordinates this frame observes; the others hold.
  Status status;
  bool any_seen = false;
  for (std::size_t k = 0; k < estimated_.size(); ++k) {
    bool seen = false;
    for (std::size_t l = 0; l < kLinks; ++l) seen = seen || (observed_.usable(l) && observes_[k][l]);
    seen_[k] = seen ? 1 : 0;
    any_seen = any_seen || seen;
    if (!seen) {
      held_[estimated_[k]] = true;
      status |= StatusCode::kDegenerateInput;
    }
  }
  if (!any_seen) {
    q_out = last_;
    return status;
  }

  // Predict (Eq. 3) within the limits, and weigh (Eqs. 1-2).
  const Scalar noise = static_cast<Scalar>(options_.noise);
  const Scalar inverse_two_sigma2 =
      Scalar(1) / (Scalar(2) * static_cast<Scalar>(options_.likelihood_sigma * options_.likelihood_sigma));
  const Eigen::Index count = particles_.cols();
  for (Eigen::Index p = 0; p < count; ++p) {
    for (std::size_t k = 0; k < estimated_.size(); ++k) {
      if (!seen_[k]) continue;
      const int i = estimated_[k];
      const Scalar value = particles_(i, p) + noise * static_cast<Scalar>(random_.gaussian());
      particles_(i, p) = std::min(std::max(value, model_->lowerLimits()[i]), model_->upperLimits()[i]);
    }
    (void)skeleton_.compute(particles_.col(p), robot_frame_);
    similarity_[p] = observed_.similarity(robot_frame_);
    log_weight_[p] = internal::logLikelihood(similarity_[p], inverse_two_sigma2);
  }
  const Eigen::Index best = internal::normaliseWeights(log_weight_, weight_, effective_size_);
  const Scalar total = weight_.sum();
  best_similarity_ = similarity_[best];

  // Estimate (Eq. 4): the weighted mean of the estimated, observed coordinates.
  estimate_ = rest_;
  for (std::size_t k = 0; k < estimated_.size(); ++k) {
    const int i = estimated_[k];
    if (!seen_[k]) {
      estimate_[i] = last_[i];
      continue;
    }
    const Scalar mean = particles_.row(i).dot(weight_.transpose()) / total;
    estimate_[i] = std::min(std::max(mean, model_->lowerLimits()[i]), model_->upperLimits()[i]);  // rounding only
  }
  if (!estimate_.allFinite()) estimate_ = last_;  // cannot happen with finite particles; belt and braces
  q_out = estimate_;
  last_ = estimate_;

  resample();
  if (best_similarity_ < static_cast<Scalar>(options_.min_similarity)) status |= StatusCode::kNotConverged;
  return status;
}

template <typename ScalarType>
JointSpaceParticleFilter<ScalarType>::JointSpaceParticleFilter(const RobotModel<Scalar>& model, VirtualSkeletonMap map,
                                                               ParticleFilterOptions options)
    : model_(&model), options_(std::move(options)), skeleton_(model, map) {
  options_.validate();
  const int nq = model.nq();
  rest_ = internal::restConfiguration(model, options_.rest, "ParticleFilterOptions::rest");
  std::vector<int> chosen;
  if (options_.joints.empty()) {
    for (int i = 0; i < nq; ++i) chosen.push_back(i);
  } else {
    for (std::size_t k = 0; k < options_.joints.size(); ++k) {
      const int i = model.findQ(options_.joints[k]);
      RETARGET_THROW_UNLESS(i >= 0, InvalidArgument, "ParticleFilterOptions::joints[", k, "] (got '",
                            options_.joints[k], "', expected a coordinate of robot '", model.name(), "')");
      RETARGET_THROW_UNLESS(std::find(chosen.begin(), chosen.end(), i) == chosen.end(), InvalidArgument,
                            "ParticleFilterOptions::joints[", k, "] (got '", options_.joints[k],
                            "' a second time, expected each coordinate once)");
      chosen.push_back(i);
    }
  }
  probeObservability(chosen);
  RETARGET_THROW_UNLESS(!estimated_.empty(), InvalidArgument,
                        "ParticleFilterOptions::joints (got no coordinate that the 11 similarity links observe on robot '",
                        model.name(), "', expected at least one)");
  const auto count = static_cast<Eigen::Index>(options_.particles);
  particles_.resize(nq, count);
  scratch_.resize(nq, count);
  log_weight_.resize(count);
  weight_.resize(count);
  similarity_.resize(count);
  estimate_.resize(nq);
  last_.resize(nq);
  seen_.assign(estimated_.size(), 0);
  clamped_ = JointFlags::Constant(nq, false);
  held_ = JointFlags::Constant(nq, false);
  reset();
}

template <typename ScalarType>
void JointSpaceParticleFilter<ScalarType>::reset() noexcept {
  for (Eigen::Index p = 0; p < particles_.cols(); ++p) particles_.col(p) = rest_;
  last_ = rest_;
  estimate_ = rest_;
  random_.reseed(options_.seed);
  best_similarity_ = Scalar(0);
  effective_size_ = Scalar(0);
  clamped_.setConstant(false);
  held_.setConstant(false);
}

template <typename ScalarType>
void JointSpaceParticleFilter<ScalarType>::directions(const Links& links, std::array<Vector3<Scalar>, kLinks>& out,
                                                      std::array<bool, kLinks>& valid) {
  for (std::size_t i = 0; i < kLinks; ++i) {
    valid[i] = false;
    if (!links.base || !links.cosine[i]) continue;
    const Vector3<Scalar> d = links.base->transpose() * *links.cosine[i];
    const Scalar norm = d.norm();
    if (!(norm > Scalar(0)) || !std::isfinite(norm)) continue;
    out[i] = d / norm;
    valid[i] = true;
  }
}

template <typename ScalarType>
void JointSpaceParticleFilter<ScalarType>::probeObservability(const std::vector<int>& chosen) {
  const RobotModel<Scalar>& model = *model_;
  std::vector<VectorX<Scalar>> configurations{rest_};
  std::mt19937_64 probe(20200105u);  // fixed: the probe does not depend on the filter's seed
  for (int n = 0; n < 4; ++n) {
    VectorX<Scalar> q(model.nq());
    for (int i = 0; i < model.nq(); ++i) {
      const double u = static_cast<double>(probe() >> 11) * (1.0 / 9007199254740992.0);
      const double lo = static_cast<double>(model.lowerLimits()[i]), hi = static_cast<double>(model.upperLimits()[i]);
      q[i] = static_cast<Scalar>(lo + (0.1 + 0.8 * u) * (hi - lo));
    }
    configurations.push_back(q);
  }
  std::vector<std::array<bool, kLinks>> observes(chosen.size(), std::array<bool, kLinks>{});
  SkeletonFrame<Scalar> frame;
  std::array<Vector3<Scalar>, kLinks> d0{}, d1{};
  std::array<bool, kLinks> v0{}, v1{};
  const Scalar step = Scalar(0.05), threshold = Scalar(1e-6);
  for (const VectorX<Scalar>& q0 : configurations) {
    if (!skeleton_.compute(q0, frame).ok()) continue;
    directions(Links(frame), d0, v0);
    for (std::size_t k = 0; k < chosen.size(); ++k) {
      const int i = chosen[k];
      VectorX<Scalar> q = q0;
      q[i] = q0[i] + step <= model.upperLimits()[i] ? q0[i] + step : q0[i] - step;
      if (!skeleton_.compute(q, frame).ok()) continue;
      directions(Links(frame), d1, v1);
      for (std::size_t l = 0; l < kLinks; ++l) {
        if (v0[l] && v1[l] && (d1[l] - d0[l]).norm() > threshold) observes[k][l] = true;
      }
    }
  }
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    bool any = false;
    for (bool b : observes[k]) any = any || b;
    if (!any && options_.unobserved_at_rest) continue;
    estimated_.push_back(chosen[k]);
    observes_.push_back(observes[k]);
  }
  // Ascending q order (the order of `joints` does not change the filter).
  std::vector<std::size_t> order(estimated_.size());
  for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return estimated_[a] < estimated_[b]; });
  std::vector<int> sorted_estimated;
  std::vector<std::array<bool, kLinks>> sorted_observes;
  for (std::size_t k : order) {
    sorted_estimated.push_back(estimated_[k]);
    sorted_observes.push_back(observes_[k]);
  }
  estimated_ = std::move(sorted_estimated);
  observes_ = std::move(sorted_observes);
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL std::vector<std::string> naoArmJoints() {
  return {"LShoulderPitch", "LShoulderRoll", "LElbowYaw", "LElbowRoll", "LWristYaw", "LHand",
          "RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll", "RWristYaw", "RHand"};
}

RETARGET_DECL void ParticleFilterOptions::validate() const {
  RETARGET_THROW_UNLESS(particles >= 1 && particles <= 1000000, InvalidArgument,
                        "ParticleFilterOptions::particles (got ", particles, ", expected 1 ... 1000000)");
  RETARGET_THROW_UNLESS(std::isfinite(noise) && noise > 0.0, InvalidArgument, "ParticleFilterOptions::noise (got ",
                        noise, ", expected a finite value > 0 in rad per frame)");
  RETARGET_THROW_UNLESS(std::isfinite(likelihood_sigma) && likelihood_sigma > 0.0, InvalidArgument,
                        "ParticleFilterOptions::likelihood_sigma (got ", likelihood_sigma,
                        ", expected a finite value > 0)");
  RETARGET_THROW_UNLESS(std::isfinite(min_similarity) && min_similarity >= -1.0 && min_similarity <= 1.0,
                        InvalidArgument, "ParticleFilterOptions::min_similarity (got ", min_similarity,
                        ", expected a value in [-1, 1])");
  for (std::size_t i = 0; i < joints.size(); ++i) {
    RETARGET_THROW_UNLESS(!joints[i].empty(), InvalidArgument, "ParticleFilterOptions::joints[", i,
                          "] (got an empty name, expected a robot joint name)");
  }
  for (std::size_t i = 0; i < rest.size(); ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(rest[i]), InvalidArgument, "ParticleFilterOptions::rest[", i, "] (got ",
                          rest[i], ", expected a finite value)");
  }
  RETARGET_THROW_UNLESS(inferred_joints == InferredJoints::kHold || inferred_joints == InferredJoints::kUse,
                        InvalidArgument, "ParticleFilterOptions::inferred_joints (got ",
                        static_cast<int>(inferred_joints), ", expected kHold or kUse)");
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class JointSpaceParticleFilter<double>;
RETARGET_TEMPLATE_MAPPERS class JointSpaceParticleFilter<float>;
#endif

}  // namespace retarget
