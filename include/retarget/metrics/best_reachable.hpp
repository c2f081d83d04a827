#pragma once

/// @file
/// Best reachable similarity: for one frame and one link, the highest WBF (seed 000, Eq. 44
/// per link) and LLF (Eq. 46 per link) that any configuration within the robot's joint limits
/// reaches. Set beside the similarity a mapper achieved, it separates the embodiment gap (the
/// robot cannot take the human's pose) from the mapping error (it could, the mapper did not).
/// Off the real-time path: a small bounded search per link (allocates, not for control loops).
///
/// Definition. Link i of the robot's virtual skeleton (robots/virtual_skeleton.hpp) moves with
/// the "free joints" of i: the q coordinates (mimic joints count as their driver) of the joints
/// on the kinematic chains of the links that carry the points of the link and of its LLF mother
/// link (NAO lower arm: LShoulderPitch, LShoulderRoll, LElbowYaw, LElbowRoll; tibia:
/// LHipYawPitch, LHipRoll, LHipPitch, LKneePitch; torso: none; head: HeadPitch only, as its
/// yaw is the face tracker's, seed 000 Section 3.3: left free, it would match a sideways head
/// tilt, which NAO cannot make, by turning the face away and nodding). The best reachable value of i is the maximum of
/// the link's cosine (WBF or LLF, computed by the code of link_similarity.hpp) over the free joints within their
/// limits, every other coordinate at its achieved value. With WbfBase::kTorso (default) nothing but the free joints
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
///
/// Within reach. Each link's best is found on its own, so a link can look reachable while the
/// pose it belongs to is not: NAO can point its forearm along a leaning human's forearm by
/// twisting the shoulder, but not while also matching the upper arm, and it cannot lean or twist
/// its torso at all. So a link counts as "within reach" for an index (`wbf_within_reach`,
/// `llf_within_reach`) only when the human pose around it is: its best value is at least
/// `BestReachableOptions::within_reach`; one configuration brings every link of its limb to at
/// least that value (a joint fit of their directions over the union of their free joints,
/// seeded with the achieved configuration and each link's best): both links of an arm, and the
/// four links of the legs together, as NAO's hips share one HipYawPitch motor;
/// and, for WBF (the ground-referenced index), the trunk frame the limb hangs from (the upper
/// torso frame of its side for the arms, the central one for the head, the lower torso frame of
/// its side for the legs; human/torso_frames.hpp) does not by itself turn the link away: the
/// link placed in the robot's trunk frame (at the achieved configuration) as the human's is in
/// theirs lands within acos(within_reach) of the human's link, both frames taken in their
/// skeleton's base, and likewise for the link it hangs from (a tibia is within reach only if its
/// thigh passes this test too: the trunk carries both, and the pose up to the tibia includes the
/// thigh). A leaning or twisted human trunk that the robot's does not follow puts the
/// limbs it turns out of reach for WBF; a difference that leaves the link's direction alone (a
/// pelvis frame turned about a hanging thigh) does not. LLF measures each link in its own
/// mother frame, so it needs no such root. Where a link is within reach, a good mapper reaches
/// close to the best (tests/ga_lvvj check GA-LVVJ within 0.02 on the demo motions and the
/// shared recordings); elsewhere the robot, not the mapper, is the limit.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Cholesky>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/bounded_lm.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>

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
  /// Cosine at or above which a link (and the pose up to it) counts as within reach (see the
  /// file doc; 0.98: about 11.5 deg), in (0, 1].
  double within_reach = 0.98;

  /// Throws InvalidArgument naming the field and value when a value is out of range.
  RETARGET_DECL void validate() const;
};

/// Achieved and best reachable WBF / LLF per link of one frame (cosines in [-1, 1]). A link is
/// valid when its achieved value is (see frameSimilarity); invalid links have values 0.
template <typename Scalar = double>
struct FrameBestReachable {
  std::array<Scalar, kSimilarityLinkCount> wbf_achieved{}, wbf_best{};
  std::array<Scalar, kSimilarityLinkCount> llf_achieved{}, llf_best{};
  std::array<bool, kSimilarityLinkCount> wbf_valid{}, llf_valid{};
  /// Per link: the human pose up to this link is within the robot's reach for the index (see the
  /// file doc, "Within reach"); false when the link is invalid.
  std::array<bool, kSimilarityLinkCount> wbf_within_reach{}, llf_within_reach{};
  /// Per link, a configuration within the limits (rad, size nq) that reaches `wbf_best` /
  /// `llf_best` (the achieved configuration when the link is invalid).
  std::array<VectorX<Scalar>, kSimilarityLinkCount> wbf_q{}, llf_q{};
};

/// Best reachable similarity of a robot (model + its virtual skeleton, which defines the robot's
/// links). A workspace: not thread-safe; keeps a reference to `model`.
template <typename Scalar = double>
class BestReachableSimilarity {
 public:
  /// Resolves `map` against `model` as VirtualSkeleton does (throws InvalidArgument naming the
  /// field; also for an invalid option, see BestReachableOptions::validate).
  BestReachableSimilarity(const RobotModel<Scalar>& model, const VirtualSkeletonMap& map,
                          BestReachableOptions options = {});

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  BestReachableSimilarity(const RobotModel<Scalar>&&, const VirtualSkeletonMap&, BestReachableOptions = {}) = delete;

  /// The free joints (q indices, ascending) of `link` (see the file doc).
  const std::vector<int>& freeJoints(SimilarityLink link) const { return free_[static_cast<std::size_t>(link)]; }

  /// Forgets the previous frame's best configurations (the fourth seed).
  void reset();

  /// Achieved and best reachable values of every link for the human frame `human` (canonical,
  /// m) and the achieved robot configuration `q` (size nq, rad). Returns kInvalidInput (out
  /// untouched) when q has the wrong size, is not finite or lies outside the limits by more
  /// than 1e-9 rad; kDegenerateInput when some link was invalid (its values are 0). Allocates.
  Status compute(const SkeletonFrame<Scalar>& human, const Eigen::Ref<const VectorX<Scalar>>& q,
                 FrameBestReachable<Scalar>& out);

  /// The options in use.
  const BestReachableOptions& options() const noexcept { return options_; }

 private:
  // Both cosines of link i at configuration q (invalid: false).
  void evaluate(const internal::similarity::Links<Scalar>& h, const VectorX<Scalar>& q, std::size_t i, Scalar& wbf,
                bool& wbf_valid, Scalar& llf, bool& llf_valid);

  // The within-reach flags of every link (file doc, "Within reach"), from the best values in
  // `out` and the root frames of the human `h` and of the robot at the achieved configuration.
  void classifyReach(const internal::similarity::Links<Scalar>& h, FrameBestReachable<Scalar>& out);

  // Whether one configuration brings every link of `links` to a cosine >= t for index `which`:
  // a joint fit of their unit directions over the union of their free joints, from the achieved
  // configuration and from each link's own best.
  bool reachTogether(const internal::similarity::Links<Scalar>& h, const std::vector<std::size_t>& links, int which,
                     const FrameBestReachable<Scalar>& out, Scalar t);

  // Value of index `which` (0 WBF, 1 LLF) of link i at the free coordinates x; an invalid link
  // scores -2 (below any cosine).
  Scalar value(const internal::similarity::Links<Scalar>& h, std::size_t i, int which, const VectorX<Scalar>& x);

  void search(const internal::similarity::Links<Scalar>& h, std::size_t i, bool wbf_valid, bool llf_valid,
              FrameBestReachable<Scalar>& out);

  // Robot unit direction of link i in its WBF (which 0) or LLF (1) frame at the free
  // coordinates x; false when invalid.
  bool direction(std::size_t i, int which, const VectorX<Scalar>& x, Vector3<Scalar>& b);

  // The link's cosine at x after fitting the robot's unit link direction b(x) to the human's a
  // (|b - a|^2 = 2 - 2 cos, so the fit maximises the cosine) from x (updated in place); the
  // cosine is computed by the metric's own code.
  Scalar ascend(const internal::similarity::Links<Scalar>& h, std::size_t i, int which, const VectorX<Scalar>& lo,
                const VectorX<Scalar>& hi, VectorX<Scalar>& x);

  // Bounded nonlinear least squares |r(x)|^2 from x (updated in place; r has `size` components,
  // M at compile time or Eigen::Dynamic; false when undefined): the library's bounded search
  // (core/internal/bounded_lm.hpp) on central-difference Jacobians; one workspace per fit.
  template <int M, typename Residual>
  void fit(Residual residual_at, Eigen::Index size, const VectorX<Scalar>& lo, const VectorX<Scalar>& hi,
           VectorX<Scalar>& x);

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
  /// The same means over the frames where the link is within reach (see the file doc), and
  /// those frames' counts: where the mapper, not the robot, decides the value.
  std::array<Scalar, kSimilarityLinkCount> wbf_achieved_within_mean{}, wbf_best_within_mean{};
  std::array<Scalar, kSimilarityLinkCount> llf_achieved_within_mean{}, llf_best_within_mean{};
  std::array<int, kSimilarityLinkCount> wbf_within_frames{}, llf_within_frames{};

  /// Best reachable WBF / LLF over the whole motion: the per-link means weighted by their valid
  /// frames (every valid link-frame counts once); 0 without any.
  Scalar wbfBestMean() const { return frameWeighted(wbf_best_mean, wbf_frames); }
  Scalar llfBestMean() const { return frameWeighted(llf_best_mean, llf_frames); }

 private:
  static Scalar frameWeighted(const std::array<Scalar, kSimilarityLinkCount>& means,
                              const std::array<int, kSimilarityLinkCount>& frames) {
    Scalar sum = Scalar(0);
    long count = 0;
    for (std::size_t k = 0; k < means.size(); ++k) {
      sum += means[k] * static_cast<Scalar>(frames[k]);
      count += frames[k];
    }
    return count > 0 ? sum / static_cast<Scalar>(count) : Scalar(0);
  }
};

/// Best reachable similarity of every frame of `human` against the achieved configurations `q`
/// (frames x nq, rad). Throws InvalidArgument when the frame counts differ or a row of q is
/// not finite or outside the limits (got ..., expected ...).
template <typename Scalar>
MotionBestReachable<Scalar> motionBestReachable(const RobotModel<Scalar>& model, const VirtualSkeletonMap& map,
                                                const std::vector<SkeletonFrame<Scalar>>& human,
                                                const MatrixX<Scalar>& q, BestReachableOptions options = {}) {
  RETARGET_THROW_UNLESS(static_cast<std::size_t>(q.rows()) == human.size(), InvalidArgument, "configuration rows (got ",
                        q.rows(), ", expected the motion's ", human.size(), " frames)");
  BestReachableSimilarity<Scalar> search(model, map, options);
  MotionBestReachable<Scalar> out;
  out.frames.resize(human.size());
  // Per link: the sums of achieved and best values over a selection of frames, and the count.
  constexpr auto kLinks = static_cast<std::size_t>(kSimilarityLinkCount);
  struct Sums {
    std::array<Scalar, kLinks> achieved{}, best{};
    std::array<int, kLinks> frames{};
    void add(std::size_t i, bool counted, Scalar achieved_value, Scalar best_value) {
      if (!counted) return;
      achieved[i] += achieved_value;
      best[i] += best_value;
      ++frames[i];
    }
    void means(std::array<Scalar, kLinks>& achieved_mean, std::array<Scalar, kLinks>& best_mean,
               std::array<int, kLinks>& counted) const {
      for (std::size_t i = 0; i < kLinks; ++i) {
        const Scalar n = static_cast<Scalar>(std::max(1, frames[i]));
        achieved_mean[i] = achieved[i] / n;
        best_mean[i] = best[i] / n;
      }
      counted = frames;
    }
  };
  Sums wbf, llf, wbf_within, llf_within;
  for (std::size_t k = 0; k < human.size(); ++k) {
    const VectorX<Scalar> q_k = q.row(static_cast<Eigen::Index>(k)).transpose();
    const Status status = search.compute(human[k], q_k, out.frames[k]);
    RETARGET_THROW_UNLESS(!status.has(StatusCode::kInvalidInput), InvalidArgument, "configuration of frame ", k,
                          " (got one that is not finite or outside the limits, expected one within them)");
    const auto& f = out.frames[k];
    for (std::size_t i = 0; i < kLinks; ++i) {
      wbf.add(i, f.wbf_valid[i], f.wbf_achieved[i], f.wbf_best[i]);
      llf.add(i, f.llf_valid[i], f.llf_achieved[i], f.llf_best[i]);
      wbf_within.add(i, f.wbf_within_reach[i], f.wbf_achieved[i], f.wbf_best[i]);
      llf_within.add(i, f.llf_within_reach[i], f.llf_achieved[i], f.llf_best[i]);
    }
  }
  wbf.means(out.wbf_achieved_mean, out.wbf_best_mean, out.wbf_frames);
  llf.means(out.llf_achieved_mean, out.llf_best_mean, out.llf_frames);
  wbf_within.means(out.wbf_achieved_within_mean, out.wbf_best_within_mean, out.wbf_within_frames);
  llf_within.means(out.llf_achieved_within_mean, out.llf_best_within_mean, out.llf_within_frames);
  return out;
}

template <typename Scalar>
BestReachableSimilarity<Scalar>::BestReachableSimilarity(const RobotModel<Scalar>& model, const VirtualSkeletonMap& map,
                                                         BestReachableOptions options)
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
  // The head's yaw is not the Neck->Head vector's to decide (the face tracker's, seed 000
  // Section 3.3): left free, it would match a sideways head tilt, which NAO cannot make, by
  // turning the face away and nodding. So the head's best is over the other head joints.
  const std::string& head_yaw = map.head_yaw.joint;
  if (!head_yaw.empty()) {
    auto& head = free_[static_cast<std::size_t>(L::kHead)];
    head.erase(std::remove(head.begin(), head.end(), model.findQ(head_yaw)), head.end());
  }
  q_work_.resize(model.nq());
  reset();
}

template <typename Scalar>
void BestReachableSimilarity<Scalar>::reset() {
  for (auto& q : previous_wbf_) q.resize(0);
  for (auto& q : previous_llf_) q.resize(0);
}

template <typename Scalar>
Status BestReachableSimilarity<Scalar>::compute(const SkeletonFrame<Scalar>& human,
                                                const Eigen::Ref<const VectorX<Scalar>>& q,
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
  classifyReach(h, out);
  return status;
}

template <typename Scalar>
void BestReachableSimilarity<Scalar>::evaluate(const internal::similarity::Links<Scalar>& h, const VectorX<Scalar>& q,
                                               std::size_t i, Scalar& wbf, bool& wbf_valid, Scalar& llf,
                                               bool& llf_valid) {
  wbf_valid = llf_valid = false;
  if (!skeleton_.compute(q, robot_).ok()) return;
  const internal::similarity::Links<Scalar> r(robot_);
  internal::similarity::linkCosines(h, r, i, wbf, wbf_valid, llf, llf_valid);
}

template <typename Scalar>
void BestReachableSimilarity<Scalar>::classifyReach(const internal::similarity::Links<Scalar>& h,
                                                    FrameBestReachable<Scalar>& out) {
  using L = SimilarityLink;
  const Scalar t = static_cast<Scalar>(options_.within_reach);
  const bool robot_ok = skeleton_.compute(q_achieved_, robot_).ok();
  const internal::similarity::Links<Scalar> r(robot_);
  // Link i placed in the robot's root frame as the human's is in theirs lands within acos(t)
  // of the human's link in the base: the cosine between a (human link, base frame) and
  // R_Br R_Bh^T a, with R_B* the root frames in each skeleton's base.
  auto aligned = [&](L root, std::size_t i) {
    const auto k = static_cast<std::size_t>(root);
    if (!robot_ok || !h.base || !r.base || !h.mother[k] || !r.mother[k] || !h.v[i]) return false;
    const Matrix3<Scalar> R_Bh = h.base->transpose() * *h.mother[k];
    const Matrix3<Scalar> R_Br = r.base->transpose() * *r.mother[k];
    const Vector3<Scalar> a = (h.base->transpose() * *h.v[i]).normalized();
    return a.dot(R_Br * (R_Bh.transpose() * a)) >= t;
  };
  // The link a link hangs from (itself when none), which is also where its root frame is.
  auto parent = [](L link) {
    switch (link) {
      case L::kLeftLowerArm: return L::kLeftUpperArm;
      case L::kRightLowerArm: return L::kRightUpperArm;
      case L::kLeftTibia: return L::kLeftThigh;
      case L::kRightTibia: return L::kRightThigh;
      default: return link;
    }
  };
  std::array<bool, kSimilarityLinkCount> root_ok{};
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    const L link = static_cast<L>(i);
    // The torso link is measured in the base itself: no root frame.
    root_ok[i] = link == L::kTorso || aligned(parent(link), i);
  }
  // The pose up to a link includes the link it hangs from: a lower arm or tibia whose upper
  // arm or thigh the trunk turns away is out of reach with it (the trunk carries both).
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    const auto up = static_cast<std::size_t>(parent(static_cast<L>(i)));
    root_ok[i] = root_ok[i] && root_ok[up];
  }
  for (int which = 0; which < 2; ++which) {
    auto& within = which == 0 ? out.wbf_within_reach : out.llf_within_reach;
    const auto& valid = which == 0 ? out.wbf_valid : out.llf_valid;
    const auto& best = which == 0 ? out.wbf_best : out.llf_best;
    for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
      within[i] = valid[i] && best[i] >= t && (which == 1 || root_ok[i]);
    }
    // A limb is within reach only if one configuration reaches all of its links: the two
    // links of each arm; the four links of the legs together (on NAO both hips turn on one
    // HipYawPitch motor, so one leg's best may cost the other).
    using Group = std::vector<std::size_t>;
    auto i_of = [](L link) { return static_cast<std::size_t>(link); };
    for (const Group& limb : {Group{i_of(L::kLeftUpperArm), i_of(L::kLeftLowerArm)},
                              Group{i_of(L::kRightUpperArm), i_of(L::kRightLowerArm)},
                              Group{i_of(L::kLeftThigh), i_of(L::kLeftTibia), i_of(L::kRightThigh), i_of(L::kRightTibia)}}) {
      Group members;  // the valid links of the limb
      for (const std::size_t i : limb) {
        if (valid[i]) members.push_back(i);
      }
      bool any = false, all = !members.empty();
      for (const std::size_t i : members) {
        any = any || within[i];
        all = all && best[i] >= t;
      }
      if (!any) continue;
      const bool together = all && reachTogether(h, members, which, out, t);
      for (const std::size_t i : members) within[i] = within[i] && together;
    }
  }
}

template <typename Scalar>
bool BestReachableSimilarity<Scalar>::reachTogether(const internal::similarity::Links<Scalar>& h,
                                                    const std::vector<std::size_t>& links, int which,
                                                    const FrameBestReachable<Scalar>& out, Scalar t) {
  std::vector<Vector3<Scalar>> a(links.size());
  for (std::size_t m = 0; m < links.size(); ++m) {
    if (!internal::similarity::linkDirection(h, links[m], which, a[m])) return false;
  }
  std::vector<int> free;
  for (const std::size_t i : links) free.insert(free.end(), free_[i].begin(), free_[i].end());
  std::sort(free.begin(), free.end());
  free.erase(std::unique(free.begin(), free.end()), free.end());
  const auto n = static_cast<Eigen::Index>(free.size());
  VectorX<Scalar> lo(n), hi(n);
  for (Eigen::Index k = 0; k < n; ++k) {
    const int qi = free[static_cast<std::size_t>(k)];
    lo[k] = model_->lowerLimits()[qi];
    hi[k] = model_->upperLimits()[qi];
    if (!std::isfinite(lo[k]) || !std::isfinite(hi[k])) {
      lo[k] = q_achieved_[qi] - kPi<Scalar>;
      hi[k] = q_achieved_[qi] + kPi<Scalar>;
    }
  }
  auto place = [&](const VectorX<Scalar>& y) {
    q_work_ = q_achieved_;
    for (Eigen::Index k = 0; k < n; ++k) q_work_[free[static_cast<std::size_t>(k)]] = y[k];
    return skeleton_.compute(q_work_, robot_).ok();
  };
  auto residual = [&](const VectorX<Scalar>& y, VectorX<Scalar>& r) {
    if (!place(y)) return false;
    const internal::similarity::Links<Scalar> r_links(robot_);
    for (std::size_t m = 0; m < links.size(); ++m) {
      Vector3<Scalar> b;
      if (!internal::similarity::linkDirection(r_links, links[m], which, b)) return false;
      r.template segment<3>(static_cast<Eigen::Index>(3 * m)) = b - a[m];
    }
    return true;
  };
  auto reaches = [&](const VectorX<Scalar>& y) {
    if (!place(y)) return false;
    const internal::similarity::Links<Scalar> r_links(robot_);
    for (const std::size_t i : links) {
      Scalar wbf = 0, llf = 0;
      bool wbf_valid = false, llf_valid = false;
      internal::similarity::linkCosines(h, r_links, i, wbf, wbf_valid, llf, llf_valid);
      if (!(which == 0 ? wbf_valid && wbf >= t : llf_valid && llf >= t)) return false;
    }
    return true;
  };
  const auto& best_q = which == 0 ? out.wbf_q : out.llf_q;
  std::vector<const VectorX<Scalar>*> seeds{&q_achieved_};
  for (const std::size_t i : links) seeds.push_back(&best_q[i]);
  for (const VectorX<Scalar>* seed : seeds) {
    VectorX<Scalar> x(n);
    for (Eigen::Index k = 0; k < n; ++k) x[k] = (*seed)[free[static_cast<std::size_t>(k)]];
    x = x.cwiseMax(lo).cwiseMin(hi);
    fit<Eigen::Dynamic>(residual, static_cast<Eigen::Index>(3 * links.size()), lo, hi, x);
    if (reaches(x)) return true;
  }
  return false;
}

template <typename Scalar>
Scalar BestReachableSimilarity<Scalar>::value(const internal::similarity::Links<Scalar>& h, std::size_t i, int which,
                                              const VectorX<Scalar>& x) {
  const auto& free = free_[i];
  q_work_ = q_achieved_;
  for (std::size_t k = 0; k < free.size(); ++k) q_work_[free[k]] = x[static_cast<Eigen::Index>(k)];
  Scalar wbf = 0, llf = 0;
  bool wbf_valid = false, llf_valid = false;
  evaluate(h, q_work_, i, wbf, wbf_valid, llf, llf_valid);
  if (which == 0) return wbf_valid ? wbf : Scalar(-2);
  return llf_valid ? llf : Scalar(-2);
}

template <typename Scalar>
void BestReachableSimilarity<Scalar>::search(const internal::similarity::Links<Scalar>& h, std::size_t i,
                                             bool wbf_valid, bool llf_valid, FrameBestReachable<Scalar>& out) {
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

template <typename Scalar>
bool BestReachableSimilarity<Scalar>::direction(std::size_t i, int which, const VectorX<Scalar>& x,
                                                Vector3<Scalar>& b) {
  const auto& free = free_[i];
  q_work_ = q_achieved_;
  for (std::size_t k = 0; k < free.size(); ++k) q_work_[free[k]] = x[static_cast<Eigen::Index>(k)];
  if (!skeleton_.compute(q_work_, robot_).ok()) return false;
  const internal::similarity::Links<Scalar> r(robot_);
  return internal::similarity::linkDirection(r, i, which, b);
}

template <typename Scalar>
Scalar BestReachableSimilarity<Scalar>::ascend(const internal::similarity::Links<Scalar>& h, std::size_t i, int which,
                                               const VectorX<Scalar>& lo, const VectorX<Scalar>& hi,
                                               VectorX<Scalar>& x) {
  Vector3<Scalar> a;
  if (internal::similarity::linkDirection(h, i, which, a)) {
    fit<3>(
        [&](const VectorX<Scalar>& y, Eigen::Matrix<Scalar, 3, 1>& r) {
          Vector3<Scalar> b;
          if (!direction(i, which, y, b)) return false;
          r = b - a;
          return true;
        },
        3, lo, hi, x);
  }
  return value(h, i, which, x);
}

template <typename Scalar>
template <int M, typename Residual>
void BestReachableSimilarity<Scalar>::fit(Residual residual_at, Eigen::Index size, const VectorX<Scalar>& lo,
                                          const VectorX<Scalar>& hi, VectorX<Scalar>& x) {
  using Residuals = Eigen::Matrix<Scalar, M, 1>;
  // The fit as the library's bounded search's problem (core/internal/bounded_lm.hpp): the
  // Gauss-Newton matrix of central-difference Jacobians (step 1e-7, one-sided at a bound),
  // damped by lambda (diag(J^T J) + 1e-9), over the coordinates the active set leaves free. The
  // Jacobian is taken once per point (a refused step keeps it); the workspace once per fit.
  struct Problem {
    Residual& residual_at;
    const VectorX<Scalar>& lo;
    const VectorX<Scalar>& hi;
    VectorX<Scalar>& x;
    Residuals residual, up, down, trial_residual;
    Eigen::Matrix<Scalar, M, Eigen::Dynamic> J;
    VectorX<Scalar> probe, trial, step, gradient, g;
    MatrixX<Scalar> JtJ, A;
    std::vector<Eigen::Index> active;
    Scalar cost = Scalar(0);
    bool jacobian_current = false;

    internal::LmStep solve(Scalar lambda) {
      const Eigen::Index n = x.size();
      if (!(cost > Scalar(1e-26))) return internal::LmStep::kNothingFree;
      if (!jacobian_current) {
        const Scalar d = Scalar(1e-7);
        for (Eigen::Index k = 0; k < n; ++k) {
          probe = x;
          probe[k] = std::min(hi[k], x[k] + d);
          const Scalar step_up = probe[k] - x[k];
          const bool up_ok = residual_at(probe, up);
          probe[k] = std::max(lo[k], x[k] - d);
          const Scalar step_down = x[k] - probe[k];
          const bool down_ok = residual_at(probe, down);
          if (up_ok && down_ok && step_up + step_down > Scalar(0)) {
            J.col(k) = (up - down) / (step_up + step_down);
          } else {
            J.col(k).setZero();
          }
        }
        gradient.noalias() = J.transpose() * residual;
        active.clear();
        for (Eigen::Index k = 0; k < n; ++k) {
          if (!internal::heldAtBound(x[k], lo[k], hi[k], gradient[k])) active.push_back(k);
        }
        const auto m = static_cast<Eigen::Index>(active.size());
        for (Eigen::Index r = 0; r < m; ++r) {
          g[r] = gradient[active[static_cast<std::size_t>(r)]];
          for (Eigen::Index c = 0; c < m; ++c) {
            JtJ(r, c) = J.col(active[static_cast<std::size_t>(r)]).dot(J.col(active[static_cast<std::size_t>(c)]));
          }
        }
        jacobian_current = true;
      }
      const auto m = static_cast<Eigen::Index>(active.size());
      if (m == 0) return internal::LmStep::kNothingFree;
      A.topLeftCorner(m, m) = JtJ.topLeftCorner(m, m);
      for (Eigen::Index r = 0; r < m; ++r) A(r, r) += lambda * (JtJ(r, r) + Scalar(1e-9));
      Eigen::Ref<MatrixX<Scalar>> A_free = A.topLeftCorner(m, m);
      Eigen::LLT<Eigen::Ref<MatrixX<Scalar>>> llt(A_free);
      if (llt.info() != Eigen::Success) return internal::LmStep::kNotPositive;
      auto solution = probe.head(m);  // probe is free between Jacobians
      solution = -g.head(m);
      llt.solveInPlace(solution);
      step.setZero();
      for (Eigen::Index r = 0; r < m; ++r) step[active[static_cast<std::size_t>(r)]] = solution[r];
      trial = (x + step).cwiseMax(lo).cwiseMin(hi);
      return internal::LmStep::kReady;
    }
    Scalar stepSize() const { return step.norm(); }
    Scalar tryStep() {
      if (!step.allFinite() || !residual_at(trial, trial_residual)) return std::numeric_limits<Scalar>::quiet_NaN();
      return trial_residual.squaredNorm();
    }
    void accept() {
      x = trial;
      residual = trial_residual;
      cost = residual.squaredNorm();
      jacobian_current = false;
    }
    void reject() {}
    void takeUnevaluated() {}                        // no final_step
    Scalar promisedDecrease() { return Scalar(0); }  // no promise_floor
  };
  const Eigen::Index n = x.size();
  Problem problem{residual_at,
                  lo,
                  hi,
                  x,
                  Residuals::Zero(size),
                  Residuals::Zero(size),
                  Residuals::Zero(size),
                  Residuals::Zero(size),
                  Eigen::Matrix<Scalar, M, Eigen::Dynamic>(size, n),
                  VectorX<Scalar>(n),
                  VectorX<Scalar>(n),
                  VectorX<Scalar>::Zero(n),
                  VectorX<Scalar>(n),
                  VectorX<Scalar>(n),
                  MatrixX<Scalar>(n, n),
                  MatrixX<Scalar>(n, n),
                  {},
                  Scalar(0),
                  false};
  problem.active.reserve(static_cast<std::size_t>(n));
  if (!residual_at(x, problem.residual)) return;
  problem.cost = problem.residual.squaredNorm();
  internal::LmOptions search;
  search.initial_damping = 1e-3;
  search.shrink = 1.0 / 3.0;
  search.grow = 4.0;
  search.min_damping = 1e-12;
  search.max_steps = options_.max_iterations;
  search.max_refusals = 30;
  (void)internal::boundedLevenbergMarquardt(problem, problem.cost, search);
}

#if RETARGET_DEFINE_METRICS

RETARGET_DECL void BestReachableOptions::validate() const {
  RETARGET_THROW_UNLESS(grid_points >= 2 && grid_points <= 64, InvalidArgument,
                        "BestReachableOptions::grid_points (got ", grid_points, ", expected 2 ... 64)");
  RETARGET_THROW_UNLESS(max_iterations >= 1, InvalidArgument, "BestReachableOptions::max_iterations (got ",
                        max_iterations, ", expected >= 1)");
  RETARGET_THROW_UNLESS(within_reach > 0.0 && within_reach <= 1.0, InvalidArgument,
                        "BestReachableOptions::within_reach (got ", within_reach, ", expected a cosine in (0, 1])");
  RETARGET_THROW_UNLESS(wbf_base == WbfBase::kTorso || wbf_base == WbfBase::kSupportFoot, InvalidArgument,
                        "BestReachableOptions::wbf_base (got ", static_cast<int>(wbf_base),
                        ", expected kTorso or kSupportFoot)");
  RETARGET_THROW_UNLESS(inferred_joints == InferredJoints::kHold || inferred_joints == InferredJoints::kUse,
                        InvalidArgument, "BestReachableOptions::inferred_joints (got ",
                        static_cast<int>(inferred_joints), ", expected kHold or kUse)");
}

#endif  // RETARGET_DEFINE_METRICS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_METRICS class BestReachableSimilarity<double>;
RETARGET_TEMPLATE_METRICS class BestReachableSimilarity<float>;
RETARGET_TEMPLATE_METRICS MotionBestReachable<double> motionBestReachable<double>(
    const RobotModel<double>&, const VirtualSkeletonMap&, const std::vector<SkeletonFrame<double>>&,
    const MatrixX<double>&, BestReachableOptions);
RETARGET_TEMPLATE_METRICS MotionBestReachable<float> motionBestReachable<float>(
    const RobotModel<float>&, const VirtualSkeletonMap&, const std::vector<SkeletonFrame<float>>&,
    const MatrixX<float>&, BestReachableOptions);
#endif

}  // namespace retarget
