#pragma once

/// @file
/// Octants of a frame and sets of octants, for octant pose constraints (PIC / PICs, seed 004:
/// FABRIK with pose imitation constraints, "Octants" and "constraint softening").
///
/// Numbering: the octant of a direction v_F (coordinates in frame F) has bit i set when
/// coordinate i is negative, so octant 0 is (+,+,+), 1 is (-,+,+), 2 is (+,-,+), ..., 7 is
/// (-,-,-). Tie rule: a coordinate that is exactly zero counts as positive (bit clear); as a
/// closed set, though, an octant contains its faces, so `inOctant` accepts zeros for either
/// sign. A set of octants is a bitmask `OctantSet` with bit o set when octant o is in the set.
///
/// Everything here is constexpr-friendly or Eigen-only, never allocates and never throws.

#include <cstdint>
#include <optional>

#include <retarget/core/types.hpp>

namespace retarget {

/// Set of octants as a bitmask: bit o (0..7) set when octant o belongs to the set.
using OctantSet = std::uint8_t;

/// The empty set and the set of all eight octants.
inline constexpr OctantSet kNoOctants = 0x00;
inline constexpr OctantSet kAllOctants = 0xFF;

/// The set holding only octant `octant` (0..7).
constexpr OctantSet octantSetOf(int octant) { return static_cast<OctantSet>(1u << (octant & 7)); }

/// True when `set` holds octant `octant` (0..7).
constexpr bool contains(OctantSet set, int octant) {
  return ((static_cast<unsigned>(set) >> static_cast<unsigned>(octant & 7)) & 1u) != 0;
}

/// Number of differing signs between two octants (Hamming distance of their indices, 0..3).
constexpr int octantDistance(int a, int b) {
  const int x = (a ^ b) & 7;
  return (x & 1) + ((x >> 1) & 1) + ((x >> 2) & 1);
}

/// Octant index (0..7) of the direction `v_F` given in frame F (see the file doc for the
/// numbering and the zero tie rule). Non-finite coordinates count as positive (NaN compares
/// false with 0); check finiteness first when it matters.
template <typename Scalar>
int octantOf(const Vector3<Scalar>& v_F) {
  return (v_F.x() < Scalar(0) ? 1 : 0) | (v_F.y() < Scalar(0) ? 2 : 0) | (v_F.z() < Scalar(0) ? 4 : 0);
}

/// Octant index of the direction `v_W` (given in W) in the frame F whose orientation in W is
/// `R_WF` (columns are F's axes in W): octantOf(R_WF^T v_W).
template <typename Scalar>
int octantOf(const Matrix3<Scalar>& R_WF, const Vector3<Scalar>& v_W) {
  return octantOf<Scalar>(R_WF.transpose() * v_W);
}

/// Sign vector of octant `octant` (0..7): entry i is -1 when bit i is set, else +1.
template <typename Scalar = double>
Vector3<Scalar> octantSigns(int octant) {
  return Vector3<Scalar>((octant & 1) ? Scalar(-1) : Scalar(1), (octant & 2) ? Scalar(-1) : Scalar(1),
                         (octant & 4) ? Scalar(-1) : Scalar(1));
}

/// True when `v_F` lies in the closed octant `octant` (faces included: a zero coordinate fits
/// either sign). False for non-finite input.
template <typename Scalar>
bool inOctant(const Vector3<Scalar>& v_F, int octant) {
  if (!v_F.allFinite()) return false;
  const Vector3<Scalar> s = octantSigns<Scalar>(octant);
  return v_F.x() * s.x() >= Scalar(0) && v_F.y() * s.y() >= Scalar(0) && v_F.z() * s.z() >= Scalar(0);
}

/// Octants within Hamming distance `softening` of `octant` (PICs constraint softening, seed
/// 004): 0 -> the octant itself; 1 -> plus its 3 face neighbours (one sign differs); 2 -> plus
/// its 3 edge neighbours (two signs differ); 3 or more -> all eight octants.
constexpr OctantSet octantNeighbours(int octant, int softening) {
  unsigned set = 0;
  for (int o = 0; o < 8; ++o) {
    if (octantDistance(octant, o) <= softening) set |= 1u << o;
  }
  return static_cast<OctantSet>(set);
}

/// Union of `octantNeighbours(o, softening)` over every octant o in `set`.
constexpr OctantSet softenOctants(OctantSet set, int softening) {
  unsigned out = 0;
  for (int o = 0; o < 8; ++o) {
    if (contains(set, o)) out |= octantNeighbours(o, softening);
  }
  return static_cast<OctantSet>(out);
}

/// Result of projecting a direction onto a set of octants.
template <typename Scalar>
struct OctantProjection {
  /// The projected direction (same frame and unit as the input; not renormalised, so its
  /// length is at most the input's). Equal to the input when the input is already allowed.
  Vector3<Scalar> direction = Vector3<Scalar>::Zero();
  /// Octant (0..7) of the allowed set the projection lies in (the lowest index on ties).
  int octant = 0;
  /// True when the input already lay in an allowed (closed) octant.
  bool unchanged = true;
};

/// The direction closest to `v_F` (Euclidean distance, which for these cones also gives the
/// smallest angle) lying in the union of the closed octants of `allowed`: for each allowed
/// octant, the coordinates whose sign disagrees are set to zero (projection onto the closest
/// face, edge or the origin of that octant), and the candidate that moves `v_F` least wins
/// (lowest octant index on ties). This is PIC's "project the link to the closest face of the
/// allowed octant" (seed 004, Fig. 3).
/// Nullopt when `allowed` is empty, `v_F` is not finite or zero-length, or the closest
/// candidate is the zero vector (v_F lies in the octant opposite to every allowed one).
template <typename Scalar>
std::optional<OctantProjection<Scalar>> projectOntoOctants(const Vector3<Scalar>& v_F, OctantSet allowed) {
  if (allowed == kNoOctants || !v_F.allFinite() || !(v_F.norm() > kDegenerateEpsilon<Scalar>)) return std::nullopt;
  int best = -1;
  Scalar best_cost = Scalar(0);
  for (int o = 0; o < 8; ++o) {
    if (!contains(allowed, o)) continue;
    // Squared distance moved = sum of squares of the offending coordinates.
    Scalar cost = Scalar(0);
    for (int i = 0; i < 3; ++i) {
      const bool negative_octant = (o >> i) & 1;
      const Scalar c = v_F[i];
      if (negative_octant ? c > Scalar(0) : c < Scalar(0)) cost += c * c;
    }
    if (best < 0 || cost < best_cost) {
      best = o;
      best_cost = cost;
    }
  }
  OctantProjection<Scalar> out;
  out.octant = best;
  out.unchanged = best_cost == Scalar(0);
  for (int i = 0; i < 3; ++i) {
    const bool negative_octant = (best >> i) & 1;
    const Scalar c = v_F[i];
    out.direction[i] = (negative_octant ? c > Scalar(0) : c < Scalar(0)) ? Scalar(0) : c;
  }
  if (!(out.direction.norm() > kDegenerateEpsilon<Scalar>)) return std::nullopt;
  return out;
}

/// `projectOntoOctants` for a direction `v_W` given in W and octants of the frame F with
/// orientation `R_WF` in W; the projected direction is returned in W.
template <typename Scalar>
std::optional<OctantProjection<Scalar>> projectOntoOctants(const Matrix3<Scalar>& R_WF, const Vector3<Scalar>& v_W,
                                                          OctantSet allowed) {
  auto out = projectOntoOctants<Scalar>(Vector3<Scalar>(R_WF.transpose() * v_W), allowed);
  if (out) out->direction = out->unchanged ? v_W : Vector3<Scalar>(R_WF * out->direction);
  return out;
}

}  // namespace retarget
