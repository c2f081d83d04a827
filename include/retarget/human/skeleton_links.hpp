#pragma once

/// @file
/// The links two skeletons are compared on (seed 000 Section 6: the 10 links of WBF and LLF;
/// seed 003 Eq. 1: the 11 links of the cosine pose similarity), and, in `internal::similarity`,
/// the code that extracts them from a canonical skeleton frame (m): link vectors, the ground
/// base frame B (z vertical, y the horizontal hip line), each link's mother frame, and the
/// cosine of two links each in its own skeleton's frame. Shared by the similarity metrics
/// (metrics/link_similarity.hpp documents the frames) and by mappers that score candidate poses
/// with them (the particle filter). Never allocates or throws.

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>

#include <retarget/core/types.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/torso_frames.hpp>

namespace retarget {

/// The 10 links of WBF and LLF (seed 000, Section 6).
enum class SimilarityLink : int {
  kLeftUpperArm = 0,
  kRightUpperArm,
  kLeftLowerArm,
  kRightLowerArm,
  kLeftThigh,
  kRightThigh,
  kLeftTibia,
  kRightTibia,
  kTorso,
  kHead,
};
inline constexpr int kSimilarityLinkCount = 10;
inline constexpr std::array<const char*, kSimilarityLinkCount> kSimilarityLinkNames = {
    "LeftUpperArm", "RightUpperArm", "LeftLowerArm", "RightLowerArm", "LeftThigh",
    "RightThigh",   "LeftTibia",     "RightTibia",   "Torso",         "Head"};

/// The 11 links of the cosine pose similarity (seed 003, Eq. 1).
enum class CosineLink : int {
  kHead = 0,
  kLeftShoulder,
  kRightShoulder,
  kLeftUpperArm,
  kRightUpperArm,
  kLeftLowerArm,
  kRightLowerArm,
  kLeftThigh,
  kRightThigh,
  kLeftTibia,
  kRightTibia,
};
inline constexpr int kCosineLinkCount = 11;
inline constexpr std::array<const char*, kCosineLinkCount> kCosineLinkNames = {
    "Head",          "LeftShoulder", "RightShoulder", "LeftUpperArm", "RightUpperArm", "LeftLowerArm",
    "RightLowerArm", "LeftThigh",    "RightThigh",    "LeftTibia",    "RightTibia"};

namespace internal::similarity {

template <typename Scalar>
using OptFrame = std::optional<Matrix3<Scalar>>;

template <typename Scalar>
std::optional<Vector3<Scalar>> link(const SkeletonFrame<Scalar>& f, HumanJoint a, HumanJoint b) {
  if (!f.usable(a) || !f.usable(b)) return std::nullopt;
  const Vector3<Scalar> v = f.position(b) - f.position(a);
  if (!internal::usableVector(v)) return std::nullopt;
  return v;
}

// Base frame B: z vertical, y the horizontal hip line (shoulder line as fallback).
template <typename Scalar>
OptFrame<Scalar> base(const SkeletonFrame<Scalar>& f) {
  auto lateral = link(f, HumanJoint::kHipRight, HumanJoint::kHipLeft);
  OptFrame<Scalar> R;
  if (lateral) R = frameFromTwoVectors<Scalar>(Vector3<Scalar>::UnitZ(), Axis::kZ, *lateral, Axis::kY);
  if (!R) {
    lateral = link(f, HumanJoint::kShoulderRight, HumanJoint::kShoulderLeft);
    if (lateral) R = frameFromTwoVectors<Scalar>(Vector3<Scalar>::UnitZ(), Axis::kZ, *lateral, Axis::kY);
  }
  return R;
}

// Upper-arm frame: x along the upper arm u, z along u x y_T (shoulder-roll axis); falls back
// to z_T when u lies along the shoulder line.
template <typename Scalar>
OptFrame<Scalar> upperArm(const OptFrame<Scalar>& R_WT, const std::optional<Vector3<Scalar>>& u) {
  if (!R_WT || !u) return std::nullopt;
  auto R = frameFromTwoVectors<Scalar>(*u, Axis::kX, u->cross(R_WT->col(1)), Axis::kZ);
  if (!R) R = frameFromTwoVectors<Scalar>(*u, Axis::kX, R_WT->col(2), Axis::kZ);
  return R;
}

// Thigh frame: z along -t, y along the hip-pitch (knee) axis: x_L x t plus, for a bent knee,
// the knee plane normal t x b made orthogonal to x_L, weighted as in GA-LVVJ's HipRoll (unit
// vectors; the knee term counts beyond a sine of 0.1); falls back to y_L.
template <typename Scalar>
OptFrame<Scalar> thigh(const OptFrame<Scalar>& R_WL, const std::optional<Vector3<Scalar>>& t,
                       const std::optional<Vector3<Scalar>>& b) {
  if (!R_WL || !t) return std::nullopt;
  const Vector3<Scalar> t_u = t->normalized();
  const Vector3<Scalar> x_L = R_WL->col(0);
  Vector3<Scalar> axis = x_L.cross(t_u);
  if (b) {
    const Vector3<Scalar> n = t_u.cross(b->normalized());
    const Scalar n_norm = n.norm();
    const Scalar threshold = Scalar(0.1);
    if (n_norm > threshold) axis += ((n_norm - threshold) / n_norm) * (n - n.dot(x_L) * x_L);
  }
  auto R = frameFromTwoVectors<Scalar>(Vector3<Scalar>(-*t), Axis::kZ, axis, Axis::kY);
  if (!R) R = frameFromTwoVectors<Scalar>(Vector3<Scalar>(-*t), Axis::kZ, R_WL->col(1), Axis::kY);
  return R;
}

// Cosine of the angle between a and b, each expressed in its own frame.
template <typename Scalar>
bool cosineIn(const OptFrame<Scalar>& R_h, const std::optional<Vector3<Scalar>>& a, const OptFrame<Scalar>& R_r,
              const std::optional<Vector3<Scalar>>& b, Scalar& out) {
  out = Scalar(0);
  if (!R_h || !R_r || !a || !b) return false;
  const Vector3<Scalar> a_F = R_h->transpose() * *a;
  const Vector3<Scalar> b_F = R_r->transpose() * *b;
  Scalar c = a_F.dot(b_F) / (a_F.norm() * b_F.norm());
  if (!std::isfinite(c)) return false;
  out = std::min(Scalar(1), std::max(Scalar(-1), c));
  return true;
}

// The link vectors and mother frames of one skeleton.
template <typename Scalar>
struct Links {
  std::array<std::optional<Vector3<Scalar>>, kSimilarityLinkCount> v{};
  std::array<OptFrame<Scalar>, kSimilarityLinkCount> mother{};
  std::array<std::optional<Vector3<Scalar>>, kCosineLinkCount> cosine{};
  OptFrame<Scalar> base{};

  explicit Links(const SkeletonFrame<Scalar>& f) {
    using H = HumanJoint;
    using L = SimilarityLink;
    auto set = [&](L l, H a, H b) { v[static_cast<std::size_t>(l)] = link(f, a, b); };
    set(L::kLeftUpperArm, H::kShoulderLeft, H::kElbowLeft);
    set(L::kRightUpperArm, H::kShoulderRight, H::kElbowRight);
    set(L::kLeftLowerArm, H::kElbowLeft, H::kWristLeft);
    set(L::kRightLowerArm, H::kElbowRight, H::kWristRight);
    set(L::kLeftThigh, H::kHipLeft, H::kKneeLeft);
    set(L::kRightThigh, H::kHipRight, H::kKneeRight);
    set(L::kLeftTibia, H::kKneeLeft, H::kAnkleLeft);
    set(L::kRightTibia, H::kKneeRight, H::kAnkleRight);
    set(L::kTorso, H::kSpineBase, H::kSpineShoulder);
    set(L::kHead, H::kNeck, H::kHead);
    base = internal::similarity::base(f);
    const TorsoFrames<Scalar> torso = torsoFrames(f);
    auto m = [&](L l) -> OptFrame<Scalar>& { return mother[static_cast<std::size_t>(l)]; };
    auto vec = [&](L l) -> const std::optional<Vector3<Scalar>>& { return v[static_cast<std::size_t>(l)]; };
    m(L::kLeftUpperArm) = torso.upper_left;
    m(L::kRightUpperArm) = torso.upper_right;
    m(L::kLeftLowerArm) = upperArm(torso.upper_left, vec(L::kLeftUpperArm));
    m(L::kRightLowerArm) = upperArm(torso.upper_right, vec(L::kRightUpperArm));
    m(L::kLeftThigh) = torso.lower_left;
    m(L::kRightThigh) = torso.lower_right;
    m(L::kLeftTibia) = thigh(torso.lower_left, vec(L::kLeftThigh), vec(L::kLeftTibia));
    m(L::kRightTibia) = thigh(torso.lower_right, vec(L::kRightThigh), vec(L::kRightTibia));
    m(L::kTorso) = base;
    m(L::kHead) = torso.upper;

    using C = CosineLink;
    auto c = [&](C l, H a, H b) { cosine[static_cast<std::size_t>(l)] = link(f, a, b); };
    c(C::kHead, H::kSpineShoulder, H::kHead);
    c(C::kLeftShoulder, H::kSpineShoulder, H::kShoulderLeft);
    c(C::kRightShoulder, H::kSpineShoulder, H::kShoulderRight);
    c(C::kLeftUpperArm, H::kShoulderLeft, H::kElbowLeft);
    c(C::kRightUpperArm, H::kShoulderRight, H::kElbowRight);
    c(C::kLeftLowerArm, H::kElbowLeft, H::kWristLeft);
    c(C::kRightLowerArm, H::kElbowRight, H::kWristRight);
    c(C::kLeftThigh, H::kHipLeft, H::kKneeLeft);
    c(C::kRightThigh, H::kHipRight, H::kKneeRight);
    c(C::kLeftTibia, H::kKneeLeft, H::kAnkleLeft);
    c(C::kRightTibia, H::kKneeRight, H::kAnkleRight);
  }
};

// WBF and LLF cosines of link i between human links h and robot links r (the per-link values
// of frameSimilarity; false when invalid). Used by the best-reachable search.
template <typename Scalar>
void linkCosines(const Links<Scalar>& h, const Links<Scalar>& r, std::size_t i, Scalar& wbf, bool& wbf_valid,
                 Scalar& llf, bool& llf_valid) {
  wbf_valid = cosineIn(h.base, h.v[i], r.base, r.v[i], wbf);
  llf_valid = cosineIn(h.mother[i], h.v[i], r.mother[i], r.v[i], llf);
}

// Unit vector of link i expressed in its WBF frame (which == 0: the base B) or its LLF frame
// (which == 1: the mother link's frame); false when invalid. The cosines above are dot
// products of these (the best-reachable search fits them by least squares).
template <typename Scalar>
bool linkDirection(const Links<Scalar>& s, std::size_t i, int which, Vector3<Scalar>& out) {
  const OptFrame<Scalar>& R = which == 0 ? s.base : s.mother[i];
  if (!R || !s.v[i]) return false;
  out = R->transpose() * *s.v[i];
  const Scalar norm = out.norm();
  if (!(norm > Scalar(0)) || !std::isfinite(norm)) return false;
  out /= norm;
  return true;
}

template <typename Scalar, std::size_t N>
Scalar validMean(const std::array<Scalar, N>& values, const std::array<bool, N>& valid, bool& any) {
  Scalar sum = Scalar(0);
  int count = 0;
  for (std::size_t i = 0; i < N; ++i) {
    if (valid[i]) {
      sum += values[i];
      ++count;
    }
  }
  any = count > 0;
  return count > 0 ? sum / static_cast<Scalar>(count) : Scalar(0);
}

}  // namespace internal::similarity

}  // namespace retarget
