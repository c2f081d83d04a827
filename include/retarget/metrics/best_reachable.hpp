#pragma once

/// @file
/// Best reachable similarity: for one frame and one link, the highest WBF (seed 000, Eq. 44
/// per link) and LLF (Eq. 46 per link) that any configuration within the robot's joint limits
/// reaches. Set beside the similarity a mapper achieved, it separates the embodiment gap (the
/// robot cannot take the human's pose) from the mapping error (it could, the mapper did not).
/// Off the real-time path: a small bounded search per link (allocates, not for control loops).
///
/// Definition. Link i of the robot's virtual skeleton (mappers/virtual_skeleton.hpp) moves with
/// the "free joints" of i: the q coordinates (mimic joints count as their driver) of the joints
/// on the kinematic chains of the links that carry the points of the link and of its LLF mother
/// link (NAO lower arm: LShoulderPitch, LShoulderRoll, LElbowYaw, LElbowRoll; tibia:
/// LHipYawPitch, LHipRoll, LHipPitch, LKneePitch; head: HeadYaw, HeadPitch; torso: none). The
/// best reachable value of i is the maximum of the link's cosine (WBF or LLF, computed by the
/// code of link_similarity.hpp) over the free joints within their limits, every other
/// coordinate at its achieved value. With WbfBase::kTorso (default) nothing but the free joints
/// moves link i or its frames, so this is the maximum over every configuration within limits
/// (each link on its own: the best upper arm and the best lower arm may need different
/// shoulders). With WbfBase::kSupportFoot the base pose is recomputed for each candidate, so on
/// the legs the search includes the torso tilt they command; on the other links the torso keeps
/// the tilt of the achieved legs, and the torso link (no free joints) is its achieved value.
///
/// Search (per link, per index): a grid over the free joints' box (`grid_points` per joint,
/// cell centres) gives two seeds, the achieved configuration a third, and the best of the
/// previous frame (when `compute` is called on consecutive frames) a fourth; each is refined by
/// bounded Levenberg-Marquardt on the link's unit direction (|b - a|^2 = 2 - 2 cos; active set
/// for the bounds, central-difference Jacobians, only descending steps accepted). The result is the
/// best refined value, so it is never below the achieved one (the achieved configuration is a
/// seed and the refinement only accepts improving steps), and it is reached by a configuration within the limits
/// (`FrameBestReachable::wbf_q` / `llf_q`), so it never overstates what the robot can do. It is
/// a local search: tests/metrics cross-check it against a dense grid over the free joints.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>
#include <retarget/metrics/link_similarity.hpp>

namespace retarget {

/// Options of `BestReachableSimilarity` (a validated aggregate; `validate()` runs in the
/// constructor).
struct BestReachableOptions {
  /// Where the robot stands for WBF (see WbfBase); must match the base the achieved values were
  /// computed with.
  WbfBase wbf_base = WbfBase::kTorso;
  /// Human joints the source only inferred, treated as by `frameSimilarity` (default kHold:
  /// links through them are invalid).
  InferredJoints inferred_joints = InferredJoints::kHold;
  /// Seed grid points per free joint (>= 2); lowered for links with many free joints so that the
  /// grid has at most 4096 points.
  int grid_points = 4;
  /// Ascent iterations per seed (>= 1).
  int max_iterations = 200;

  /// Throws InvalidArgument naming the field and value when a value is out of range.
  void validate() const {
    RETARGET_THROW_UNLESS(grid_points >= 2 && grid_points <= 64, InvalidArgument,
                          "BestReachableOptions::grid_points (got ", grid_points, ", expected 2 ... 64)");
    RETARGET_THROW_UNLESS(max_iterations >= 1, InvalidArgument, "BestReachableOptions::max_iterations (got ",
                          max_iterations, ", expected >= 1)");
    RETARGET_THROW_UNLESS(wbf_base == WbfBase::kTorso || wbf_base == WbfBase::kSupportFoot, InvalidArgument,
                          "BestReachableOptions::wbf_base (got ", static_cast<int>(wbf_base),
                          ", expected kTorso or kSupportFoot)");
    RETARGET_THROW_UNLESS(inferred_joints == InferredJoints::kHold || inferred_joints == InferredJoints::kUse,
                          InvalidArgument, "BestReachableOptions::inferred_joints (got ",
                          static_cast<int>(inferred_joints), ", expected kHold or kUse)");
  }
};

/// Achieved and best reachable WBF / LLF per link of one frame (cosines in [-1, 1]). A link is
/// valid when its achieved value is (see frameSimilarity); invalid links have values 0.
template <typename Scalar = double>
struct FrameBestReachable {
  std::array<Scalar, kSimilarityLinkCount> wbf_achieved{}, wbf_best{};
  std::array<Scalar, kSimilarityLinkCount> llf_achieved{}, llf_best{};
  std::array<bool, kSimilarityLinkCount> wbf_valid{}, llf_valid{};
  /// Per link, a configuration within the limits (rad, size nq) that reaches `wbf_best` /
  /// `llf_best` (the achieved configuration when the link is invalid).
  std::array<VectorX<Scalar>, kSimilarityLinkCount> wbf_q{}, llf_q{};
};

/// Best reachable similarity of a robot (model + GA-LVVJ map, whose virtual skeleton defines the
/// robot's links). A workspace: not thread-safe; keeps a reference to `model`.
template <typename Scalar = double>
class BestReachableSimilarity {
 public:
  /// Resolves `map` against `model` as VirtualSkeleton does (throws InvalidArgument naming the
  /// field; also for an invalid option, see BestReachableOptions::validate).
  BestReachableSimilarity(const RobotModel<Scalar>& model, const GaLvvjMap& map, BestReachableOptions options = {})
      : model_(&model), options_((options.validate(), options)), skeleton_(model, map, options.wbf_base) {
    const auto points = resolveVirtualSkeleton(map, model);
    auto point_of = [&](HumanJoint j) -> const internal::ResolvedVirtualPoint* {
      for (const auto& p : points) {
        if (p.joint == static_cast<int>(j)) return &p;
      }
      return nullptr;
    };
    // The q coordinates that move a point: the chain of its link, and of its `from` point.
    auto add_point = [&](std::vector<int>& out, HumanJoint joint) {
      for (const auto* p = point_of(joint); p != nullptr;
           p = p->from >= 0 ? point_of(static_cast<HumanJoint>(p->from)) : nullptr) {
        for (const int j : model.links()[static_cast<std::size_t>(p->link)].support) {
          const auto& joint_j = model.joints()[static_cast<std::size_t>(j)];
          const int qi = joint_j.q_index >= 0 ? joint_j.q_index : joint_j.mimic_q_index;
          if (qi >= 0 && std::find(out.begin(), out.end(), qi) == out.end()) out.push_back(qi);
        }
      }
    };
    using H = HumanJoint;
    using L = SimilarityLink;
    auto set = [&](L link, std::initializer_list<H> joints) {
      auto& out = free_[static_cast<std::size_t>(link)];
      for (const H j : joints) add_point(out, j);
      std::sort(out.begin(), out.end());
    };
    // Ends of the link and of its LLF mother link (torso points sit on the root).
    set(L::kLeftUpperArm, {H::kShoulderLeft, H::kElbowLeft});
    set(L::kRightUpperArm, {H::kShoulderRight, H::kElbowRight});
    set(L::kLeftLowerArm, {H::kShoulderLeft, H::kElbowLeft, H::kWristLeft});
    set(L::kRightLowerArm, {H::kShoulderRight, H::kElbowRight, H::kWristRight});
    set(L::kLeftThigh, {H::kHipLeft, H::kKneeLeft});
    set(L::kRightThigh, {H::kHipRight, H::kKneeRight});
    set(L::kLeftTibia, {H::kHipLeft, H::kKneeLeft, H::kAnkleLeft});
    set(L::kRightTibia, {H::kHipRight, H::kKneeRight, H::kAnkleRight});
    set(L::kTorso, {H::kSpineBase, H::kSpineShoulder});
    set(L::kHead, {H::kNeck, H::kHead});
    q_work_.resize(model.nq());
    reset();
  }

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  BestReachableSimilarity(const RobotModel<Scalar>&&, const GaLvvjMap&, BestReachableOptions = {}) = delete;

  /// The free joints (q indices, ascending) of `link` (see the file doc).
  const std::vector<int>& freeJoints(SimilarityLink link) const { return free_[static_cast<std::size_t>(link)]; }

  /// Forgets the previous frame's best configurations (the fourth seed).
  void reset() {
    for (auto& q : previous_wbf_) q.resize(0);
    for (auto& q : previous_llf_) q.resize(0);
  }

  /// Achieved and best reachable values of every link for the human frame `human` (canonical,
  /// m) and the achieved robot configuration `q` (size nq, rad). Returns kInvalidInput (out
  /// untouched) when q has the wrong size, is not finite or lies outside the limits by more
  /// than 1e-9 rad; kDegenerateInput when some link was invalid (its values are 0). Allocates.
  Status compute(const SkeletonFrame<Scalar>& human, const Eigen::Ref<const VectorX<Scalar>>& q,
                 FrameBestReachable<Scalar>& out) {
    const RobotModel<Scalar>& model = *model_;
    if (q.size() != model.nq() || !q.allFinite()) return StatusCode::kInvalidInput;
    const Scalar slack = Scalar(1e-9);
    if (((q - model.lowerLimits()).array() < -slack).any() || ((q - model.upperLimits()).array() > slack).any()) {
      return StatusCode::kInvalidInput;
    }
    SkeletonFrame<Scalar> observed = human;
    applyInferredPolicy(observed, options_.inferred_joints);
    const internal::similarity::Links<Scalar> h(observed);
    q_achieved_ = q.cwiseMax(model.lowerLimits()).cwiseMin(model.upperLimits());
    Status status;
    for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
      Scalar wbf = 0, llf = 0;
      bool wbf_valid = false, llf_valid = false;
      evaluate(h, q_achieved_, i, wbf, wbf_valid, llf, llf_valid);
      out.wbf_valid[i] = wbf_valid;
      out.llf_valid[i] = llf_valid;
      out.wbf_achieved[i] = out.wbf_best[i] = wbf_valid ? wbf : Scalar(0);
      out.llf_achieved[i] = out.llf_best[i] = llf_valid ? llf : Scalar(0);
      out.wbf_q[i] = q_achieved_;
      out.llf_q[i] = q_achieved_;
      if (!wbf_valid || !llf_valid) status |= StatusCode::kDegenerateInput;
      if (free_[i].empty() || (!wbf_valid && !llf_valid)) continue;
      search(h, i, wbf_valid, llf_valid, out);
      previous_wbf_[i] = out.wbf_q[i];
      previous_llf_[i] = out.llf_q[i];
    }
    return status;
  }

  /// The options in use.
  const BestReachableOptions& options() const noexcept { return options_; }

 private:
  // Both cosines of link i at configuration q (invalid: false).
  void evaluate(const internal::similarity::Links<Scalar>& h, const VectorX<Scalar>& q, std::size_t i, Scalar& wbf,
                bool& wbf_valid, Scalar& llf, bool& llf_valid) {
    wbf_valid = llf_valid = false;
    if (!skeleton_.compute(q, robot_).ok()) return;
    const internal::similarity::Links<Scalar> r(robot_);
    internal::similarity::linkCosines(h, r, i, wbf, wbf_valid, llf, llf_valid);
  }

  // Value of index `which` (0 WBF, 1 LLF) of link i at the free coordinates x; an invalid link
  // scores -2 (below any cosine).
  Scalar value(const internal::similarity::Links<Scalar>& h, std::size_t i, int which, const VectorX<Scalar>& x) {
    const auto& free = free_[i];
    q_work_ = q_achieved_;
    for (std::size_t k = 0; k < free.size(); ++k) q_work_[free[k]] = x[static_cast<Eigen::Index>(k)];
    Scalar wbf = 0, llf = 0;
    bool wbf_valid = false, llf_valid = false;
    evaluate(h, q_work_, i, wbf, wbf_valid, llf, llf_valid);
    if (which == 0) return wbf_valid ? wbf : Scalar(-2);
    return llf_valid ? llf : Scalar(-2);
  }

  void search(const internal::similarity::Links<Scalar>& h, std::size_t i, bool wbf_valid, bool llf_valid,
              FrameBestReachable<Scalar>& out) {
    const auto& free = free_[i];
    const int n = static_cast<int>(free.size());
    VectorX<Scalar> lo(n), hi(n), x(n);
    for (int k = 0; k < n; ++k) {
      lo[k] = model_->lowerLimits()[free[static_cast<std::size_t>(k)]];
      hi[k] = model_->upperLimits()[free[static_cast<std::size_t>(k)]];
      // Continuous joints: one turn around the achieved value.
      if (!std::isfinite(lo[k]) || !std::isfinite(hi[k])) {
        lo[k] = q_achieved_[free[static_cast<std::size_t>(k)]] - kPi<Scalar>;
        hi[k] = q_achieved_[free[static_cast<std::size_t>(k)]] + kPi<Scalar>;
      }
    }
    // Seed grid (cell centres), both indices at once: the two best points of each.
    int g = options_.grid_points;
    while (g > 2 && std::pow(static_cast<double>(g), n) > 4096.0) --g;
    long cells = 1;
    for (int k = 0; k < n; ++k) cells *= g;
    std::array<std::array<std::pair<Scalar, VectorX<Scalar>>, 2>, 2> top;
    for (auto& index : top) {
      for (auto& entry : index) entry.first = -std::numeric_limits<Scalar>::infinity();
    }
    for (long c = 0; c < cells; ++c) {
      long rest = c;
      for (int k = 0; k < n; ++k) {
        const long step = rest % g;
        rest /= g;
        x[k] = lo[k] + (hi[k] - lo[k]) * (static_cast<Scalar>(step) + Scalar(0.5)) / static_cast<Scalar>(g);
      }
      q_work_ = q_achieved_;
      for (int k = 0; k < n; ++k) q_work_[free[static_cast<std::size_t>(k)]] = x[k];
      std::array<Scalar, 2> v{Scalar(-2), Scalar(-2)};
      bool w_ok = false, l_ok = false;
      evaluate(h, q_work_, i, v[0], w_ok, v[1], l_ok);
      if (!w_ok) v[0] = Scalar(-2);
      if (!l_ok) v[1] = Scalar(-2);
      for (std::size_t which = 0; which < 2; ++which) {
        auto& best = top[which];
        if (v[which] > best[0].first) {
          best[1] = best[0];
          best[0] = {v[which], x};
        } else if (v[which] > best[1].first) {
          best[1] = {v[which], x};
        }
      }
    }
    for (int which = 0; which < 2; ++which) {
      if (which == 0 ? !wbf_valid : !llf_valid) continue;
      Scalar& best_value = which == 0 ? out.wbf_best[i] : out.llf_best[i];
      VectorX<Scalar>& best_q = which == 0 ? out.wbf_q[i] : out.llf_q[i];
      const VectorX<Scalar>& previous = which == 0 ? previous_wbf_[i] : previous_llf_[i];
      std::array<VectorX<Scalar>, 4> seeds;
      std::size_t count = 0;
      seeds[count].resize(n);
      for (int k = 0; k < n; ++k) seeds[count][k] = q_achieved_[free[static_cast<std::size_t>(k)]];
      ++count;
      if (previous.size() == model_->nq()) {
        seeds[count].resize(n);
        for (int k = 0; k < n; ++k) seeds[count][k] = previous[free[static_cast<std::size_t>(k)]];
        ++count;
      }
      for (const auto& entry : top[static_cast<std::size_t>(which)]) {
        if (entry.second.size() == n) seeds[count++] = entry.second;
      }
      for (std::size_t s = 0; s < count && best_value < kPerfect; ++s) {
        VectorX<Scalar> seed = seeds[s].cwiseMax(lo).cwiseMin(hi);
        const Scalar v = ascend(h, i, which, lo, hi, seed);
        if (v > best_value) {
          best_value = v;
          best_q = q_achieved_;
          for (int k = 0; k < n; ++k) best_q[free[static_cast<std::size_t>(k)]] = seed[k];
        }
      }
    }
  }

  // Robot unit direction of link i in its WBF (which 0) or LLF (1) frame at the free
  // coordinates x; false when invalid.
  bool direction(std::size_t i, int which, const VectorX<Scalar>& x, Vector3<Scalar>& b) {
    const auto& free = free_[i];
    q_work_ = q_achieved_;
    for (std::size_t k = 0; k < free.size(); ++k) q_work_[free[k]] = x[static_cast<Eigen::Index>(k)];
    if (!skeleton_.compute(q_work_, robot_).ok()) return false;
    const internal::similarity::Links<Scalar> r(robot_);
    return internal::similarity::linkDirection(r, i, which, b);
  }

  // Bounded least squares from x (updated in place): the robot's unit link direction b(x) fitted
  // to the human's a (|b - a|^2 = 2 - 2 cos, so this maximises the cosine) by Levenberg-Marquardt
  // with central-difference Jacobians, coordinates on a bound that the gradient pushes outwards
  // held there (active set), steps projected into the box, only descending steps accepted.
  // Returns the cosine at the final x, computed by the metric's own code.
  Scalar ascend(const internal::similarity::Links<Scalar>& h, std::size_t i, int which, const VectorX<Scalar>& lo,
                const VectorX<Scalar>& hi, VectorX<Scalar>& x) {
    Vector3<Scalar> a, b;
    if (!internal::similarity::linkDirection(h, i, which, a) || !direction(i, which, x, b)) {
      return value(h, i, which, x);
    }
    const Eigen::Index n = x.size();
    Scalar cost = (b - a).squaredNorm();
    const Scalar d = Scalar(1e-7);
    Scalar lambda = Scalar(1e-3);
    Eigen::Matrix<Scalar, 3, Eigen::Dynamic> J(3, n);
    VectorX<Scalar> probe(n), trial(n), step(n);
    for (int iteration = 0; iteration < options_.max_iterations && cost > Scalar(1e-26); ++iteration) {
      for (Eigen::Index k = 0; k < n; ++k) {
        Vector3<Scalar> up, down;
        probe = x;
        probe[k] = std::min(hi[k], x[k] + d);
        const Scalar step_up = probe[k] - x[k];
        const bool up_ok = direction(i, which, probe, up);
        probe[k] = std::max(lo[k], x[k] - d);
        const Scalar step_down = x[k] - probe[k];
        const bool down_ok = direction(i, which, probe, down);
        J.col(k) = (up_ok && down_ok && step_up + step_down > Scalar(0)) ? Vector3<Scalar>((up - down) / (step_up + step_down))
                                                                          : Vector3<Scalar>::Zero();
      }
      const Vector3<Scalar> residual = b - a;
      const VectorX<Scalar> gradient = J.transpose() * residual;
      std::vector<Eigen::Index> active;
      for (Eigen::Index k = 0; k < n; ++k) {
        const bool held = (x[k] <= lo[k] && gradient[k] > Scalar(0)) || (x[k] >= hi[k] && gradient[k] < Scalar(0));
        if (!held) active.push_back(k);
      }
      if (active.empty()) break;
      const auto m = static_cast<Eigen::Index>(active.size());
      MatrixX<Scalar> JtJ(m, m);
      VectorX<Scalar> g(m);
      for (Eigen::Index r = 0; r < m; ++r) {
        g[r] = gradient[active[static_cast<std::size_t>(r)]];
        for (Eigen::Index c = 0; c < m; ++c) {
          JtJ(r, c) = J.col(active[static_cast<std::size_t>(r)]).dot(J.col(active[static_cast<std::size_t>(c)]));
        }
      }
      bool accepted = false;
      for (int attempt = 0; attempt < 30 && !accepted; ++attempt) {
        MatrixX<Scalar> A = JtJ;
        A.diagonal().array() += lambda * (JtJ.diagonal().array() + Scalar(1e-9));
        const VectorX<Scalar> delta = A.ldlt().solve(-g);
        step.setZero();
        for (Eigen::Index r = 0; r < m; ++r) step[active[static_cast<std::size_t>(r)]] = delta[r];
        trial = (x + step).cwiseMax(lo).cwiseMin(hi);
        Vector3<Scalar> b_trial;
        if (step.allFinite() && direction(i, which, trial, b_trial) && (b_trial - a).squaredNorm() < cost) {
          x = trial;
          b = b_trial;
          cost = (b - a).squaredNorm();
          lambda = std::max(lambda / Scalar(3), Scalar(1e-12));
          accepted = true;
        } else {
          lambda *= Scalar(4);
        }
      }
      if (!accepted) break;
    }
    return value(h, i, which, x);
  }

  static constexpr Scalar kPerfect = Scalar(1) - Scalar(1e-12);

  const RobotModel<Scalar>* model_;
  BestReachableOptions options_;
  VirtualSkeleton<Scalar> skeleton_;
  std::array<std::vector<int>, kSimilarityLinkCount> free_{};
  std::array<VectorX<Scalar>, kSimilarityLinkCount> previous_wbf_{}, previous_llf_{};
  VectorX<Scalar> q_achieved_, q_work_;
  SkeletonFrame<Scalar> robot_;
};

/// Achieved and best reachable similarity over a motion: per frame and per-link means over the
/// frames where the link is valid.
template <typename Scalar = double>
struct MotionBestReachable {
  std::vector<FrameBestReachable<Scalar>> frames;
  std::array<Scalar, kSimilarityLinkCount> wbf_achieved_mean{}, wbf_best_mean{};
  std::array<Scalar, kSimilarityLinkCount> llf_achieved_mean{}, llf_best_mean{};
  std::array<int, kSimilarityLinkCount> wbf_frames{}, llf_frames{};  ///< Frames where valid.
};

/// Best reachable similarity of every frame of `human` against the achieved configurations `q`
/// (frames x nq, rad). Throws InvalidArgument when the frame counts differ or a row of q is
/// not finite or outside the limits (got ..., expected ...).
template <typename Scalar>
MotionBestReachable<Scalar> motionBestReachable(const RobotModel<Scalar>& model, const GaLvvjMap& map,
                                                const std::vector<SkeletonFrame<Scalar>>& human,
                                                const MatrixX<Scalar>& q, BestReachableOptions options = {}) {
  RETARGET_THROW_UNLESS(static_cast<std::size_t>(q.rows()) == human.size(), InvalidArgument,
                        "motionBestReachable: configuration rows (got ", q.rows(), ", expected the motion's ",
                        human.size(), " frames)");
  BestReachableSimilarity<Scalar> search(model, map, options);
  MotionBestReachable<Scalar> out;
  out.frames.resize(human.size());
  std::array<Scalar, kSimilarityLinkCount> wa{}, wb{}, la{}, lb{};
  for (std::size_t k = 0; k < human.size(); ++k) {
    const VectorX<Scalar> q_k = q.row(static_cast<Eigen::Index>(k)).transpose();
    const Status status = search.compute(human[k], q_k, out.frames[k]);
    RETARGET_THROW_UNLESS(!status.has(StatusCode::kInvalidInput), InvalidArgument,
                          "motionBestReachable: configuration of frame ", k,
                          " (got one that is not finite or outside the limits, expected one within them)");
    const auto& f = out.frames[k];
    for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
      if (f.wbf_valid[i]) {
        wa[i] += f.wbf_achieved[i];
        wb[i] += f.wbf_best[i];
        ++out.wbf_frames[i];
      }
      if (f.llf_valid[i]) {
        la[i] += f.llf_achieved[i];
        lb[i] += f.llf_best[i];
        ++out.llf_frames[i];
      }
    }
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    const Scalar nw = static_cast<Scalar>(std::max(1, out.wbf_frames[i]));
    const Scalar nl = static_cast<Scalar>(std::max(1, out.llf_frames[i]));
    out.wbf_achieved_mean[i] = wa[i] / nw;
    out.wbf_best_mean[i] = wb[i] / nw;
    out.llf_achieved_mean[i] = la[i] / nl;
    out.llf_best_mean[i] = lb[i] / nl;
  }
  return out;
}

}  // namespace retarget
