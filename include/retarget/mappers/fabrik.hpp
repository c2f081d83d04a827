#pragma once

/// @file
/// FABRIK (Aristidou and Lasenby 2011) on a chain of joint positions, with optional octant
/// constraints per link: the solver behind FABRIK, PIC and PICs (seed 004, Section III-B).
///
/// The chain is a list of points p_0 ... p_{n-1} (m, any frame W whose axes define the
/// octants) joined by rigid links of lengths l_i = |p_{i+1} - p_i|; every point is a ball joint
/// (the "chain of joint positions" of the paper). p_0 is the fixed root, p_{n-1} the end that
/// should reach the target.
///
/// One iteration = a backward pass (p_{n-1} := target, then p_i := p_{i+1} + l_i d_i for
/// i = n-2 ... 0, with d_i the unit direction from p_{i+1} towards the old p_i) and a forward pass
/// (p_0 := root, then p_{i+1} := p_i + l_i d_i with d_i the unit direction from p_i towards the
/// old p_{i+1}). Iterations stop when |p_{n-1} - target| <= tolerance or after max_iterations.
///
/// Octant constraints (PIC, Section III-B2): link i may carry
///  - an OUT constraint `out[i]` (the OUT octant of point i: the direction p_{i+1} - p_i must lie
///    in one of these octants), enforced in the forward pass, which sets that direction;
///  - an IN constraint `in[i]` (the IN octant of point i+1: the direction p_i - p_{i+1}, from the
///    joint back along the incoming link, must lie in one of these octants), enforced in the
///    backward pass, which sets that direction.
/// A direction outside its set is replaced by its projection onto the closest face (edge) of an
/// allowed octant (`projectOntoOctants`, Fig. 3), renormalised to the link length. When the
/// direction lies in the octant opposite to every allowed one (the projection is the zero
/// vector) the diagonal of the lowest allowed octant is used instead.
/// As in the paper (Section IV-C: "the OUT constraints are always enforced last", so OUT
/// overrides IN where they conflict) the result is the chain after the last forward pass. With
/// `FabrikOptions::final_octant_pass` (off by default; an extension, docs/methods/pic.md) one more
/// forward pass projects every link onto the intersection of its OUT set and the mirror of its
/// IN set (OUT alone when they do not intersect), so every output link lies in its allowed
/// octants at the cost of the end point.
///
/// Unconstrained and out of reach (|target - root| > sum of lengths): the classic FABRIK
/// answer, every link stretched along the line from the root to the target; reported as
/// `reachable = false`. Nothing here allocates or throws.

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/octants.hpp>

namespace retarget {

/// Most points a FABRIK chain can hold (fixed-size storage: no allocation per frame).
inline constexpr int kFabrikMaxPoints = 12;

/// Options of the FABRIK iteration (a validated aggregate).
struct FabrikOptions {
  /// Stop when the end point is this close to the target (m, > 0).
  double tolerance = 1e-3;
  /// Most backward + forward iterations per solve (>= 1; the paper: "at most 20").
  int max_iterations = 20;
  /// After the iterations, project every constrained link onto OUT ∩ mirror(IN) (see the file
  /// doc). Off: the paper's loop, where OUT wins over IN.
  bool final_octant_pass = false;

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// The set of octants obtained by flipping every sign of the octants of `set` (the octant of
/// -v for each v): octant o -> 7 - o. An IN set seen from the other end of its link.
constexpr OctantSet mirroredOctants(OctantSet set) {
  unsigned out = 0;
  for (int o = 0; o < 8; ++o) {
    if (contains(set, o)) out |= 1u << (7 - o);
  }
  return static_cast<OctantSet>(out);
}

/// True when the direction `v_W` lies in one of the closed octants of `set`.
template <typename Scalar>
bool inOctants(const Vector3<Scalar>& v_W, OctantSet set) {
  if (set == kAllOctants) return v_W.allFinite();
  for (int o = 0; o < 8; ++o) {
    if (contains(set, o) && inOctant<Scalar>(v_W, o)) return true;
  }
  return false;
}

/// Octant constraints of a chain, per link (index i: the link from point i to point i+1).
/// Frames: world-aligned frames at the joints (seed 004, Section III-A), so the octants are
/// those of W. `kAllOctants` = unconstrained.
struct FabrikConstraints {
  std::array<OctantSet, kFabrikMaxPoints> out;  ///< OUT octants of point i for p_{i+1} - p_i.
  std::array<OctantSet, kFabrikMaxPoints> in;   ///< IN octants of point i+1 for p_i - p_{i+1}.
  FabrikConstraints() {
    out.fill(kAllOctants);
    in.fill(kAllOctants);
  }
  /// True when no link is constrained.
  bool none() const {
    for (int i = 0; i < kFabrikMaxPoints; ++i) {
      if (out[static_cast<std::size_t>(i)] != kAllOctants || in[static_cast<std::size_t>(i)] != kAllOctants) {
        return false;
      }
    }
    return true;
  }
};

/// A chain of joint positions (m, frame W) and its link lengths.
/// Invariant after `setLengthsFromPoints`: length[i] = |p[i+1] - p[i]| for i < count - 1.
template <typename Scalar = double>
struct FabrikChain {
  std::array<Vector3<Scalar>, kFabrikMaxPoints> p{};
  std::array<Scalar, kFabrikMaxPoints> length{};
  /// Number of points (2 .. kFabrikMaxPoints).
  int count = 0;

  /// Sets every link length from the current points.
  void setLengthsFromPoints() {
    for (int i = 0; i + 1 < count; ++i) {
      const auto k = static_cast<std::size_t>(i);
      length[k] = (p[k + 1] - p[k]).norm();
    }
  }
  /// Sum of the link lengths (m): the reach of the chain from its root.
  Scalar reach() const {
    Scalar total = Scalar(0);
    for (int i = 0; i + 1 < count; ++i) total += length[static_cast<std::size_t>(i)];
    return total;
  }
};

/// What a solve did.
template <typename Scalar = double>
struct FabrikResult {
  /// Iterations run (0 when the chain already met the target and had no constraints).
  int iterations = 0;
  /// Final |p_{n-1} - target| (m).
  Scalar error = Scalar(0);
  /// |target - root| <= reach.
  bool reachable = true;
  /// error <= tolerance.
  bool converged = false;
  /// Directions replaced by an octant projection (all passes; 0 without constraints).
  int projections = 0;
};

namespace internal::fabrik {

// Unit direction of v, or `fallback` when v is (near) zero or not finite.
template <typename Scalar>
Vector3<Scalar> unitOr(const Vector3<Scalar>& v, const Vector3<Scalar>& fallback) {
  const Scalar n = v.norm();
  if (!(n > kDegenerateEpsilon<Scalar>) || !std::isfinite(n)) return fallback;
  return v / n;
}

// `d` (unit) constrained to `allowed`; counts a projection.
template <typename Scalar>
Vector3<Scalar> constrain(const Vector3<Scalar>& d, OctantSet allowed, int& projections) {
  if (allowed == kAllOctants || allowed == kNoOctants || inOctants<Scalar>(d, allowed)) return d;
  ++projections;
  if (const auto projected = projectOntoOctants<Scalar>(d, allowed)) return projected->direction.normalized();
  for (int o = 0; o < 8; ++o) {
    if (contains(allowed, o)) return octantSigns<Scalar>(o) / std::sqrt(Scalar(3));
  }
  return d;
}

}  // namespace internal::fabrik

/// Runs FABRIK on `chain` (points updated in place, lengths kept) towards `target_W` (m, W),
/// with the octant `constraints` (PIC / PICs) or none. See the file doc. Never allocates or
/// throws; non-finite targets leave the chain untouched and report error = +inf.
template <typename Scalar>
FabrikResult<Scalar> solveFabrik(FabrikChain<Scalar>& chain, const Vector3<Scalar>& target_W,
                                 const FabrikOptions& options,
                                 const FabrikConstraints& constraints = FabrikConstraints()) noexcept {
  using internal::fabrik::constrain;
  using internal::fabrik::unitOr;
  using V3 = Vector3<Scalar>;
  FabrikResult<Scalar> result;
  if (chain.count < 2 || chain.count > kFabrikMaxPoints || !target_W.allFinite()) {
    result.error = std::numeric_limits<Scalar>::infinity();
    result.reachable = false;
    return result;
  }
  const auto n = static_cast<std::size_t>(chain.count);
  const Scalar tolerance = static_cast<Scalar>(options.tolerance);
  const bool constrained = !constraints.none();
  const V3 root = chain.p[0];
  const Scalar reach = chain.reach();
  result.reachable = (target_W - root).norm() <= reach;
  auto& p = chain.p;
  const auto& l = chain.length;

  if (!result.reachable && !constrained) {
    const V3 d = unitOr<Scalar>(target_W - root, V3::UnitX());
    for (std::size_t i = 0; i + 1 < n; ++i) p[i + 1] = p[i] + l[i] * d;
    result.error = (p[n - 1] - target_W).norm();
    result.converged = result.error <= tolerance;
    return result;
  }

  result.error = (p[n - 1] - target_W).norm();
  if (!constrained && result.error <= tolerance) {
    result.converged = true;
    return result;
  }
  for (int it = 0; it < options.max_iterations; ++it) {
    ++result.iterations;
    // Backward pass: end at the target, IN constraints (direction from joint i+1 back to i).
    p[n - 1] = target_W;
    for (std::size_t i = n - 1; i-- > 0;) {  // i = n - 2, ..., 0
      V3 d = unitOr<Scalar>(p[i] - p[i + 1], unitOr<Scalar>(root - p[i + 1], -V3::UnitX()));
      d = constrain<Scalar>(d, constraints.in[i], result.projections);
      p[i] = p[i + 1] + l[i] * d;
    }
    // Forward pass: root back in place, OUT constraints (direction from joint i to i+1).
    p[0] = root;
    for (std::size_t i = 0; i + 1 < n; ++i) {
      V3 d = unitOr<Scalar>(p[i + 1] - p[i], unitOr<Scalar>(target_W - p[i], V3::UnitX()));
      d = constrain<Scalar>(d, constraints.out[i], result.projections);
      p[i + 1] = p[i] + l[i] * d;
    }
    result.error = (p[n - 1] - target_W).norm();
    if (result.error <= tolerance) break;
  }
  if (constrained && options.final_octant_pass) {
    // Final feasibility pass: every link into OUT ∩ mirror(IN) (OUT alone when empty).
    for (std::size_t k = 0; k + 1 < n; ++k) {
      OctantSet allowed = static_cast<OctantSet>(constraints.out[k] & mirroredOctants(constraints.in[k]));
      if (allowed == kNoOctants) allowed = constraints.out[k];
      const V3 d = constrain<Scalar>(unitOr<Scalar>(p[k + 1] - p[k], V3::UnitX()), allowed, result.projections);
      p[k + 1] = p[k] + l[k] * d;
    }
    result.error = (p[n - 1] - target_W).norm();
  }
  result.converged = result.error <= tolerance;
  return result;
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL void FabrikOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(tolerance) && tolerance > 0.0, InvalidArgument,
                        "FabrikOptions::tolerance (got ", tolerance, ", expected a finite value > 0 m)");
  RETARGET_THROW_UNLESS(max_iterations >= 1 && max_iterations <= 100000, InvalidArgument,
                        "FabrikOptions::max_iterations (got ", max_iterations, ", expected 1..100000)");
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS FabrikResult<double> solveFabrik<double>(
    FabrikChain<double>&, const Vector3<double>&, const FabrikOptions&, const FabrikConstraints&) noexcept;
RETARGET_TEMPLATE_MAPPERS FabrikResult<float> solveFabrik<float>(
    FabrikChain<float>&, const Vector3<float>&, const FabrikOptions&, const FabrikConstraints&) noexcept;
#endif

}  // namespace retarget
