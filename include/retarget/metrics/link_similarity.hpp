#pragma once

/// @file
/// Link-vector similarity between a human skeleton and a robot's virtual skeleton (see
/// robots/virtual_skeleton.hpp): the whole-body-focused (WBF, seed 000 Eq. 44) and
/// local-link-focused (LLF, seed 000 Eq. 46) correlation indices, and the cosine pose
/// similarity of seed 003 (Eq. 1). Per frame (no allocation, no throw) and over a motion.
///
/// Links (both skeletons use the canonical joint names):
///  - the 10 links of WBF and LLF (`SimilarityLink`): upper arms (Shoulder->Elbow), lower arms
///    (Elbow->Wrist), thighs (Hip->Knee), tibias (Knee->Ankle), torso (SpineBase->
///    SpineShoulder) and head (Neck->Head);
///  - the 11 links of the cosine similarity (`CosineLink`; seed 003 names only its first link,
///    HEAD-SPINE_SHOULDER, and draws the others in a figure; this is our reading of it): head
///    (SpineShoulder->Head), the two shoulders (SpineShoulder->Shoulder), upper arms, lower
///    arms, thighs and tibias.
///
/// Frames:
///  - WBF and cosine: each skeleton's link vectors are expressed in its own base frame B
///    ("the base frame of the robot is rotated and translated to coincide with that of the
///    human"): z is the world vertical (+z of W, the ground reference), y the hip line
///    HipRight->HipLeft (shoulder line if a hip is missing) projected on the ground, x = y x z
///    forward. So WBF is invariant to a rotation of either skeleton about the vertical and to
///    translations, not to tilts (the ground is the reference). For the robot, "the ground" is
///    the world frame of its virtual skeleton, which `WbfBase` chooses
///    (robots/virtual_skeleton.hpp): kTorso (default) keeps the robot torso upright, so WBF
///    compares the commanded joint angles only; kSupportFoot stands the robot on its support
///    foot (seed 000 Section 6.1), so a torso tilt the legs command counts. The best value any
///    configuration within the robot's limits reaches, per link, is in best_reachable.hpp.
///  - LLF: each link vector is expressed in its mother link's frame: upper arm in the upper
///    torso frame of its side, lower arm in the upper-arm frame (x along the upper arm, z along
///    upper arm x shoulder line, the shoulder-roll axis), thigh in the lower torso frame of its
///    side, tibia in the thigh frame (z along -thigh, y along the hip-pitch axis: the lower
///    torso's x x thigh plus, for a bent knee, the knee-plane normal, as GA-LVVJ's HipRoll), head in the central upper
///    torso frame, torso in B. The torso frames are those of GA-LVVJ (human/torso_frames.hpp). LLF is invariant to any
///    rigid motion except for the torso link, which inherits B's ground reference.
///
/// A link whose joints are not tracked or whose vector (or mother frame) is degenerate is
/// marked invalid, gets value 0 and is left out of the means; a frame with no valid link has
/// means 0 and status kDegenerateInput. All values are cosines in [-1, 1]; 1 is identical.

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/skeleton_links.hpp>
#include <retarget/human/torso_frames.hpp>

namespace retarget {

/// Similarity of one frame pair. Fixed size: filling it never allocates.
template <typename Scalar = double>
struct FrameSimilarity {
  std::array<Scalar, kSimilarityLinkCount> wbf_links{};  ///< r_w per link (Eq. 43), 0 when invalid.
  std::array<Scalar, kSimilarityLinkCount> llf_links{};  ///< r_L per link (Eq. 45), 0 when invalid.
  std::array<bool, kSimilarityLinkCount> wbf_valid{};
  std::array<bool, kSimilarityLinkCount> llf_valid{};
  std::array<Scalar, kCosineLinkCount> cosine_links{};   ///< Per-link cosines of seed 003 Eq. 1.
  std::array<bool, kCosineLinkCount> cosine_valid{};
  Scalar wbf = Scalar(0);     ///< R_W (seed 000, Eq. 44): mean over valid links.
  Scalar llf = Scalar(0);     ///< R_L (Eq. 46): mean over valid links.
  Scalar cosine = Scalar(0);  ///< sim (seed 003 Eq. 1): mean over valid links.
};


/// WBF (seed 000, Eq. 44), LLF (Eq. 46) and cosine (seed 003 Eq. 1) similarity of one frame pair:
/// `human` (the demonstrator) and `robot` (the robot's virtual skeleton, see VirtualSkeleton),
/// both canonical frames in metres (see the file doc for links and frames). Never allocates or
/// throws. Returns kDegenerateInput when some link was invalid (values of valid links are
/// still filled; means are over valid links, 0 when none).
/// Joints the source only inferred are treated by `inferred` as the mappers treat them
/// (InferredJoints::kHold, the default: left out, so a link through an inferred joint is
/// invalid; kUse: used like tracked ones).
template <typename Scalar>
Status frameSimilarity(const SkeletonFrame<Scalar>& human, const SkeletonFrame<Scalar>& robot,
                       FrameSimilarity<Scalar>& out, InferredJoints inferred = InferredJoints::kHold) {
  using namespace internal::similarity;
  SkeletonFrame<Scalar> observed = human;
  applyInferredPolicy(observed, inferred);
  const Links<Scalar> h(observed);
  const Links<Scalar> r(robot);
  Status status;
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    linkCosines(h, r, i, out.wbf_links[i], out.wbf_valid[i], out.llf_links[i], out.llf_valid[i]);
    if (!out.wbf_valid[i] || !out.llf_valid[i]) status |= StatusCode::kDegenerateInput;
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(kCosineLinkCount); ++i) {
    out.cosine_valid[i] = cosineIn(h.base, h.cosine[i], r.base, r.cosine[i], out.cosine_links[i]);
    if (!out.cosine_valid[i]) status |= StatusCode::kDegenerateInput;
  }
  bool any = false;
  out.wbf = validMean(out.wbf_links, out.wbf_valid, any);
  out.llf = validMean(out.llf_links, out.llf_valid, any);
  out.cosine = validMean(out.cosine_links, out.cosine_valid, any);
  return status;
}

/// Similarity over a whole motion: the per-frame series and its summary. Frames whose index
/// (WBF, LLF or cosine) had no valid link are left out of that index's mean and min.
template <typename Scalar = double>
struct MotionSimilarity {
  std::vector<FrameSimilarity<Scalar>> frames;  ///< Per-frame values, including per-link series.
  Scalar wbf_mean = Scalar(0), wbf_min = Scalar(0);
  Scalar llf_mean = Scalar(0), llf_min = Scalar(0);
  Scalar cosine_mean = Scalar(0), cosine_min = Scalar(0);
  std::array<Scalar, kSimilarityLinkCount> wbf_link_mean{};  ///< Mean over frames where valid.
  std::array<Scalar, kSimilarityLinkCount> llf_link_mean{};
  std::array<int, kSimilarityLinkCount> link_frames{};  ///< Frames where the link was valid (WBF).
  int degenerate_frames = 0;  ///< Frames with at least one invalid link.
};

/// Similarity of two equally long frame sequences (human, robot virtual skeleton). Throws
/// InvalidArgument when the lengths differ (got ..., expected ...). Allocates the series.
template <typename Scalar>
MotionSimilarity<Scalar> motionSimilarity(const std::vector<SkeletonFrame<Scalar>>& human,
                                          const std::vector<SkeletonFrame<Scalar>>& robot,
                                          InferredJoints inferred = InferredJoints::kHold) {
  RETARGET_THROW_UNLESS(human.size() == robot.size(), InvalidArgument, "robot frame count (got ", robot.size(),
                        ", expected the human motion's ", human.size(), ")");
  MotionSimilarity<Scalar> out;
  out.frames.resize(human.size());
  struct Accumulator {
    Scalar sum = Scalar(0), min = std::numeric_limits<Scalar>::infinity();
    int count = 0;
    void add(Scalar v) {
      sum += v;
      min = std::min(min, v);
      ++count;
    }
    Scalar mean() const { return count > 0 ? sum / static_cast<Scalar>(count) : Scalar(0); }
    Scalar minimum() const { return count > 0 ? min : Scalar(0); }
  };
  Accumulator wbf, llf, cosine;
  std::array<Accumulator, kSimilarityLinkCount> wbf_links{}, llf_links{};
  for (std::size_t k = 0; k < human.size(); ++k) {
    auto& f = out.frames[k];
    if (!frameSimilarity(human[k], robot[k], f, inferred).ok()) ++out.degenerate_frames;
    bool any = false;
    internal::similarity::validMean(f.wbf_links, f.wbf_valid, any);
    if (any) wbf.add(f.wbf);
    internal::similarity::validMean(f.llf_links, f.llf_valid, any);
    if (any) llf.add(f.llf);
    internal::similarity::validMean(f.cosine_links, f.cosine_valid, any);
    if (any) cosine.add(f.cosine);
    for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
      if (f.wbf_valid[i]) wbf_links[i].add(f.wbf_links[i]);
      if (f.llf_valid[i]) llf_links[i].add(f.llf_links[i]);
    }
  }
  out.wbf_mean = wbf.mean();
  out.wbf_min = wbf.minimum();
  out.llf_mean = llf.mean();
  out.llf_min = llf.minimum();
  out.cosine_mean = cosine.mean();
  out.cosine_min = cosine.minimum();
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    out.wbf_link_mean[i] = wbf_links[i].mean();
    out.llf_link_mean[i] = llf_links[i].mean();
    out.link_frames[i] = wbf_links[i].count;
  }
  return out;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_METRICS Status frameSimilarity<double>(const SkeletonFrame<double>&, const SkeletonFrame<double>&,
                                                         FrameSimilarity<double>&, InferredJoints);
RETARGET_TEMPLATE_METRICS Status frameSimilarity<float>(const SkeletonFrame<float>&, const SkeletonFrame<float>&,
                                                        FrameSimilarity<float>&, InferredJoints);
RETARGET_TEMPLATE_METRICS MotionSimilarity<double> motionSimilarity<double>(const std::vector<SkeletonFrame<double>>&,
                                                                            const std::vector<SkeletonFrame<double>>&,
                                                                            InferredJoints);
RETARGET_TEMPLATE_METRICS MotionSimilarity<float> motionSimilarity<float>(const std::vector<SkeletonFrame<float>>&,
                                                                          const std::vector<SkeletonFrame<float>>&,
                                                                          InferredJoints);
#endif

}  // namespace retarget
