#pragma once

/// @file
/// Exact closest points and signed distances between points, segments, spheres and capsules.
///
/// All shapes are given in one common frame (whatever frame the caller states; metres). Every
/// function is templated on the scalar type, never allocates, never throws and returns finite
/// values for finite input.
///
/// Signed distance: positive = gap between the surfaces, negative = penetration depth (the
/// length of the smallest translation that separates the shapes). For spheres and capsules the
/// signed distance is exactly |c_A - c_B| - r_A - r_B where c_A, c_B are the closest points of
/// the two centre segments: a capsule is a segment swept by a ball, so the Minkowski
/// difference is a (possibly flat) parallelogram swept by a ball of radius r_A + r_B.
///
/// Witness points and normal (`DistanceResult`): `normal` is the unit vector from A towards B,
/// p_A = c_A + r_A normal lies on A's surface, p_B = c_B - r_B normal lies on B's surface, and
/// p_B - p_A = distance * normal (so |p_A - p_B| = |distance|; when penetrating, p_A lies inside
/// B and p_B inside A). When the centre points coincide (|c_A - c_B| <= `kCoincidentTolerance`)
/// the normal is chosen deterministically: for two non-parallel capsule axes d_A, d_B it is
/// unit(d_A x d_B); otherwise a fixed unit vector perpendicular to A's axis (or to B's axis when
/// A has none), namely Eigen's `unitOrthogonal()` of the unit axis; for two points, +x.
///
/// Value only or witness points: `distance(A, B)` returns the `DistanceResult`; `signedDistance(A,
/// B)` returns only the value, equal to `distance(A, B).distance` bit for bit, and skips the
/// normal and witness points (a division and six multiply-adds after the square root; about a
/// quarter of a capsule-capsule query). Callers that test clearance or penetration depth only
/// can use it; `segmentSegmentDistance` is the same for bare segments.

#include <algorithm>
#include <cmath>
#include <limits>

#include <retarget/core/types.hpp>
#include <retarget/geometry/capsule.hpp>

namespace retarget {

/// Two centre points closer than this are "coincident" for the choice of the normal (metres):
/// 1e-12 for double, 1e-6 for float.
template <typename Scalar>
constexpr Scalar kCoincidentTolerance = Scalar(1e-12);
template <>
inline constexpr float kCoincidentTolerance<float> = 1e-6f;

/// Closest point c = a + t (b - a), t in [0, 1], of the segment [a, b] to the point p.
template <typename Scalar>
struct SegmentPoint {
  Scalar t = Scalar(0);                              ///< Segment parameter in [0, 1].
  Vector3<Scalar> point = Vector3<Scalar>::Zero();   ///< The closest point (frame of the input).
};

/// Closest points c_1 = a_1 + s d_1 and c_2 = a_2 + t d_2 of two segments.
template <typename Scalar>
struct SegmentSegmentPoints {
  Scalar s = Scalar(0);                               ///< Parameter on segment 1, in [0, 1].
  Scalar t = Scalar(0);                               ///< Parameter on segment 2, in [0, 1].
  Vector3<Scalar> c_1 = Vector3<Scalar>::Zero();      ///< Closest point on segment 1.
  Vector3<Scalar> c_2 = Vector3<Scalar>::Zero();      ///< Closest point on segment 2.
  Scalar distance = Scalar(0);                        ///< |c_1 - c_2| (>= 0).
};

/// Signed distance between two shapes A and B with witness points (see the file doc).
template <typename Scalar>
struct DistanceResult {
  /// Signed distance (m): > 0 gap, 0 touching, < 0 minus the penetration depth.
  Scalar distance = Scalar(0);
  /// Witness point on A's surface (common frame).
  Vector3<Scalar> p_A = Vector3<Scalar>::Zero();
  /// Witness point on B's surface (common frame).
  Vector3<Scalar> p_B = Vector3<Scalar>::Zero();
  /// Unit normal from A towards B (common frame); p_B - p_A = distance * normal.
  Vector3<Scalar> normal = Vector3<Scalar>::UnitX();
};

/// Closest point of the segment [a, b] to p. A zero-length segment gives t = 0 (the point a).
template <typename Scalar>
SegmentPoint<Scalar> closestPointOnSegment(const Vector3<Scalar>& p, const Vector3<Scalar>& a,
                                           const Vector3<Scalar>& b) {
  const Vector3<Scalar> d = b - a;
  const Scalar dd = d.squaredNorm();
  Scalar t = Scalar(0);
  if (dd > Scalar(0)) t = std::clamp((p - a).dot(d) / dd, Scalar(0), Scalar(1));
  SegmentPoint<Scalar> out;
  out.t = t;
  // Snap the ends exactly so that t = 1 returns b bit for bit.
  out.point = t >= Scalar(1) ? b : Vector3<Scalar>(a + t * d);
  return out;
}

/// Distance (m, >= 0) from p to the segment [a, b].
template <typename Scalar>
Scalar pointSegmentDistance(const Vector3<Scalar>& p, const Vector3<Scalar>& a, const Vector3<Scalar>& b) {
  return (p - closestPointOnSegment(p, a, b).point).norm();
}

namespace internal {

/// Closest points of two segments by evaluating every candidate of the unit square: the
/// stationary point of |a_1 + s d_1 - a_2 - t d_2|^2 (when the lines are not parallel and it lies
/// in the square) and the four edges s = 0, s = 1, t = 0, t = 1, each a point-segment problem; the
/// nearest pair is kept (first found on ties). The stationary point is accepted at once when the
/// lines are well away from parallel (sin^2 of their angle >= 1e-4). Exact for parallel,
/// anti-parallel, coincident and zero-length segments. `closestPointsSegmentSegment` uses it for
/// near-parallel pairs and elsewhere finds the same minimum directly: the same distance, and the
/// same points except where the minimum is flat to rounding (tests/geometry,
/// distance_fast_path_test.cpp). It was the method for every pair before issue 30.
template <typename Scalar>
SegmentSegmentPoints<Scalar> closestPointsSegmentSegmentByCandidates(const Vector3<Scalar>& a_1,
                                                                     const Vector3<Scalar>& b_1,
                                                                     const Vector3<Scalar>& a_2,
                                                                     const Vector3<Scalar>& b_2) noexcept {
  const Vector3<Scalar> d_1 = b_1 - a_1;
  const Vector3<Scalar> d_2 = b_2 - a_2;
  const Vector3<Scalar> r = a_1 - a_2;
  const Scalar a = d_1.squaredNorm();
  const Scalar e = d_2.squaredNorm();
  const Scalar b = d_1.dot(d_2);
  const Scalar c = d_1.dot(r);
  const Scalar f = d_2.dot(r);
  const Scalar denom = a * e - b * b;  // = |d_1 x d_2|^2 >= 0 up to rounding.

  SegmentSegmentPoints<Scalar> best;
  Scalar best_sq = std::numeric_limits<Scalar>::infinity();
  auto consider = [&](Scalar s, Scalar t, const Vector3<Scalar>& c_1, const Vector3<Scalar>& c_2) {
    const Scalar sq = (c_1 - c_2).squaredNorm();
    if (sq < best_sq) {
      best_sq = sq;
      best.s = s;
      best.t = t;
      best.c_1 = c_1;
      best.c_2 = c_2;
    }
  };

  if (denom > Scalar(0) && a > Scalar(0) && e > Scalar(0)) {
    const Scalar s = (b * f - c * e) / denom;
    const Scalar t = (a * f - b * c) / denom;
    if (s >= Scalar(0) && s <= Scalar(1) && t >= Scalar(0) && t <= Scalar(1)) {
      consider(s, t, Vector3<Scalar>(a_1 + s * d_1), Vector3<Scalar>(a_2 + t * d_2));
      // Well conditioned (sin^2 of the angle between the lines >= 1e-4): the stationary point
      // is the minimum to working precision.
      if (denom >= Scalar(1e-4) * a * e) {
        best.distance = std::sqrt(best_sq);
        return best;
      }
    }
  }
  // Edges of the unit square: s = 0, s = 1 (point of segment 1 against segment 2) and
  // t = 0, t = 1 (point of segment 2 against segment 1).
  {
    const auto q = closestPointOnSegment(a_1, a_2, b_2);
    consider(Scalar(0), q.t, a_1, q.point);
  }
  if (a > Scalar(0)) {
    const auto q = closestPointOnSegment(b_1, a_2, b_2);
    consider(Scalar(1), q.t, b_1, q.point);
  }
  {
    const auto q = closestPointOnSegment(a_2, a_1, b_1);
    consider(q.t, Scalar(0), q.point, a_2);
  }
  if (e > Scalar(0)) {
    const auto q = closestPointOnSegment(b_2, a_1, b_1);
    consider(q.t, Scalar(1), q.point, b_2);
  }
  best.distance = std::sqrt(best_sq);
  return best;
}

/// Closest points c_1 = a_1 + s d_1 of [a_1, b_1] and c_2 = a_2 + t d_2 of [a_2, b_2] (the work
/// of `closestPointsSegmentSegment`, written to the outputs; see there).
template <typename Scalar>
inline void closestSegmentSegment(const Vector3<Scalar>& a_1, const Vector3<Scalar>& b_1, const Vector3<Scalar>& a_2,
                                  const Vector3<Scalar>& b_2, Scalar& s_out, Scalar& t_out, Vector3<Scalar>& c_1,
                                  Vector3<Scalar>& c_2) noexcept {
  const Vector3<Scalar> d_1 = b_1 - a_1;
  const Vector3<Scalar> d_2 = b_2 - a_2;
  const Vector3<Scalar> r = a_1 - a_2;
  const Scalar a = d_1.squaredNorm();
  const Scalar e = d_2.squaredNorm();
  const Scalar b = d_1.dot(d_2);
  const Scalar c = d_1.dot(r);
  const Scalar f = d_2.dot(r);
  const Scalar denom = a * e - b * b;  // = |d_1 x d_2|^2 >= 0 up to rounding.

  // Which part of the unit square holds the minimum: the interior (stationary point), an edge
  // s = s_e (end s_e of segment 1 against segment 2) or an edge t = t_e (end t_e of segment 2
  // against segment 1).
  bool on_s_edge = false;  // Edge s = s_e (else edge t = t_e).
  bool upper = false;      // s_e = 1 or t_e = 1.
  if (a > Scalar(0) && e > Scalar(0) && denom >= Scalar(1e-4) * a * e) {
    // Lines well away from parallel (sin^2 of their angle >= 1e-4). The stationary point is
    // (s, t) = (num_s, num_t) / denom; whether it lies in the square is read from the numerators
    // (denom > 0), so that the divisions are done only when it is the answer. (Testing the
    // quotients instead differs only when one rounds onto 0 or 1, where the stationary point and
    // the edge point are the same to rounding.)
    const Scalar num_s = b * f - c * e;
    const Scalar num_t = a * f - b * c;
    const bool s_inside = num_s >= Scalar(0) && num_s <= denom;
    if (s_inside && num_t >= Scalar(0) && num_t <= denom) {
      const Scalar s = num_s / denom;
      const Scalar t = num_t / denom;
      s_out = s;
      t_out = t;
      c_1 = a_1 + s * d_1;
      c_2 = a_2 + t * d_2;
      return;
    }
    // The stationary point is outside the square, so the minimum is on its boundary. Clamp s to
    // [0, 1]; the best t for that s is (b s + f) / e (Ericson 2005, Sec. 5.1.9). If it lies in
    // [0, 1] the minimum is on the edge s = clamp(s) (which is 0 or 1 here); otherwise on the
    // edge t = 0 or t = 1 that it crossed. (The first-order conditions of the convex problem
    // hold at the point this picks, so it is the minimum.)
    if (s_inside) {
      upper = num_t > denom;  // Here t_best = t, outside [0, 1].
    } else {
      upper = num_s > denom;
      const Scalar g = upper ? b + f : f;  // = e t_best
      on_s_edge = g >= Scalar(0) && g <= e;
      if (!on_s_edge) upper = g > e;
    }
  } else if (!(a > Scalar(0))) {
    on_s_edge = true;  // Segment 1 is a point (either segment may be): a_1 against segment 2.
  } else if (e > Scalar(0)) {
    // Near-parallel lines: the minimum can be anywhere along a long flat valley; compare every
    // candidate (nearest first found).
    const auto q = closestPointsSegmentSegmentByCandidates(a_1, b_1, a_2, b_2);
    s_out = q.s;
    t_out = q.t;
    c_1 = q.c_1;
    c_2 = q.c_2;
    return;
  }  // else segment 2 is a point: a_2 against segment 1.

  // One point-segment problem: end p of one segment against [x, x + D] (squared length L), in
  // the arithmetic of closestPointOnSegment.
  const Vector3<Scalar>& p = on_s_edge ? (upper ? b_1 : a_1) : (upper ? b_2 : a_2);
  const Vector3<Scalar>& x = on_s_edge ? a_2 : a_1;
  const Vector3<Scalar>& y = on_s_edge ? b_2 : b_1;
  const Vector3<Scalar>& D = on_s_edge ? d_2 : d_1;
  const Scalar L = on_s_edge ? e : a;
  const Scalar tau = L > Scalar(0) ? std::clamp((p - x).dot(D) / L, Scalar(0), Scalar(1)) : Scalar(0);
  const Vector3<Scalar> q = tau >= Scalar(1) ? y : Vector3<Scalar>(x + tau * D);
  const Scalar end = upper ? Scalar(1) : Scalar(0);
  s_out = on_s_edge ? end : tau;
  t_out = on_s_edge ? tau : end;
  c_1 = on_s_edge ? p : q;
  c_2 = on_s_edge ? q : p;
}

}  // namespace internal

/// Closest points of the segments [a_1, b_1] and [a_2, b_2] (exact for parallel, anti-parallel,
/// coincident, crossing and zero-length segments).
///
/// Method: the squared distance |a_1 + s d_1 - a_2 - t d_2|^2 is a convex quadratic on the
/// unit square. When the lines are well away from parallel (sin^2 of their angle >= 1e-4) its
/// minimum is the stationary point if that lies in the square, otherwise it lies on the one edge
/// picked from the clamped stationary point (Ericson, Real-Time Collision Detection, 2005,
/// Sec. 5.1.9), a point-segment problem. A zero-length segment is a point-segment problem. For
/// near-parallel lines every candidate (stationary point and the four edges) is evaluated and the
/// nearest pair kept (first found on ties; internal::closestPointsSegmentSegmentByCandidates), so
/// that they stay exact. Never allocates or throws.
template <typename Scalar>
SegmentSegmentPoints<Scalar> closestPointsSegmentSegment(const Vector3<Scalar>& a_1, const Vector3<Scalar>& b_1,
                                                         const Vector3<Scalar>& a_2, const Vector3<Scalar>& b_2) {
  SegmentSegmentPoints<Scalar> out;
  internal::closestSegmentSegment(a_1, b_1, a_2, b_2, out.s, out.t, out.c_1, out.c_2);
  out.distance = (out.c_1 - out.c_2).norm();
  return out;
}

/// Distance (m, >= 0) between the segments [a_1, b_1] and [a_2, b_2] without the closest points:
/// equal to `closestPointsSegmentSegment(a_1, b_1, a_2, b_2).distance`, bit for bit.
template <typename Scalar>
Scalar segmentSegmentDistance(const Vector3<Scalar>& a_1, const Vector3<Scalar>& b_1, const Vector3<Scalar>& a_2,
                              const Vector3<Scalar>& b_2) noexcept {
  Scalar s, t;
  Vector3<Scalar> c_1, c_2;
  internal::closestSegmentSegment(a_1, b_1, a_2, b_2, s, t, c_1, c_2);
  return (c_1 - c_2).norm();
}

namespace internal {

/// The normal for coincident centre points (see the file doc), from the centre segments [a_A, b_A]
/// and [a_B, b_B] (a == b for a sphere).
template <typename Scalar>
Vector3<Scalar> coincidentNormal(const Vector3<Scalar>& a_A, const Vector3<Scalar>& b_A, const Vector3<Scalar>& a_B,
                                 const Vector3<Scalar>& b_B) noexcept {
  const Vector3<Scalar> axis_A = b_A - a_A;
  const Vector3<Scalar> axis_B = b_B - a_B;
  const Scalar len_A = axis_A.norm();
  const Scalar len_B = axis_B.norm();
  const Vector3<Scalar> cross = axis_A.cross(axis_B);
  const Scalar cross_norm = cross.norm();
  if (len_A > Scalar(0) && len_B > Scalar(0) && cross_norm > kDegenerateEpsilon<Scalar> * len_A * len_B) {
    return cross / cross_norm;
  }
  if (len_A > Scalar(0)) return Vector3<Scalar>(axis_A / len_A).unitOrthogonal();
  if (len_B > Scalar(0)) return Vector3<Scalar>(axis_B / len_B).unitOrthogonal();
  return Vector3<Scalar>::UnitX();
}

/// Builds the result from the closest centre points c_A, c_B and radii; [a_A, b_A] and
/// [a_B, b_B] are the centre segments (a == b for a sphere), used only for coincident centres.
template <typename Scalar>
DistanceResult<Scalar> distanceFromCentres(const Vector3<Scalar>& c_A, Scalar r_A, const Vector3<Scalar>& a_A,
                                           const Vector3<Scalar>& b_A, const Vector3<Scalar>& c_B, Scalar r_B,
                                           const Vector3<Scalar>& a_B, const Vector3<Scalar>& b_B) noexcept {
  const Vector3<Scalar> diff = c_B - c_A;
  const Scalar centre_distance = diff.norm();
  Vector3<Scalar> normal;
  if (centre_distance > kCoincidentTolerance<Scalar>) {
    normal = diff / centre_distance;
  } else {
    normal = coincidentNormal(a_A, b_A, a_B, b_B);
  }
  return DistanceResult<Scalar>{centre_distance - r_A - r_B, c_A + r_A * normal, c_B - r_B * normal, normal};
}

}  // namespace internal

/// Signed distance between spheres A and B with witness points (see the file doc). Coincident
/// centres use the normal +x.
template <typename Scalar>
DistanceResult<Scalar> distance(const Sphere<Scalar>& A, const Sphere<Scalar>& B) {
  return internal::distanceFromCentres<Scalar>(A.center, A.radius, A.center, A.center, B.center, B.radius, B.center,
                                               B.center);
}

/// Signed distance between sphere A and capsule B with witness points (see the file doc).
template <typename Scalar>
DistanceResult<Scalar> distance(const Sphere<Scalar>& A, const Capsule<Scalar>& B) {
  const auto q = closestPointOnSegment(A.center, B.a, B.b);
  return internal::distanceFromCentres<Scalar>(A.center, A.radius, A.center, A.center, q.point, B.radius, B.a, B.b);
}

/// Signed distance between capsule A and sphere B with witness points (see the file doc).
template <typename Scalar>
DistanceResult<Scalar> distance(const Capsule<Scalar>& A, const Sphere<Scalar>& B) {
  const auto q = closestPointOnSegment(B.center, A.a, A.b);
  return internal::distanceFromCentres<Scalar>(q.point, A.radius, A.a, A.b, B.center, B.radius, B.center, B.center);
}

/// Signed distance between capsules A and B with witness points (see the file doc). A capsule
/// with a == b behaves exactly as a sphere.
template <typename Scalar>
DistanceResult<Scalar> distance(const Capsule<Scalar>& A, const Capsule<Scalar>& B) {
  Scalar s, t;
  Vector3<Scalar> c_A, c_B;
  internal::closestSegmentSegment(A.a, A.b, B.a, B.b, s, t, c_A, c_B);
  return internal::distanceFromCentres<Scalar>(c_A, A.radius, A.a, A.b, c_B, B.radius, B.a, B.b);
}

/// Signed distance (m) between spheres A and B without witness points: equal to
/// `distance(A, B).distance`, bit for bit (see the file doc). For callers that need only the value.
template <typename Scalar>
Scalar signedDistance(const Sphere<Scalar>& A, const Sphere<Scalar>& B) noexcept {
  return (B.center - A.center).norm() - A.radius - B.radius;
}

/// Signed distance (m) between sphere A and capsule B without witness points: equal to
/// `distance(A, B).distance`, bit for bit.
template <typename Scalar>
Scalar signedDistance(const Sphere<Scalar>& A, const Capsule<Scalar>& B) noexcept {
  return (closestPointOnSegment(A.center, B.a, B.b).point - A.center).norm() - A.radius - B.radius;
}

/// Signed distance (m) between capsule A and sphere B without witness points: equal to
/// `distance(A, B).distance`, bit for bit.
template <typename Scalar>
Scalar signedDistance(const Capsule<Scalar>& A, const Sphere<Scalar>& B) noexcept {
  return (B.center - closestPointOnSegment(B.center, A.a, A.b).point).norm() - A.radius - B.radius;
}

/// Signed distance (m) between capsules A and B without witness points: equal to
/// `distance(A, B).distance`, bit for bit. For callers that need only the value (a clearance
/// test, a penetration depth); the witness points and normal cost about a third more.
/// Never allocates or throws.
template <typename Scalar>
Scalar signedDistance(const Capsule<Scalar>& A, const Capsule<Scalar>& B) noexcept {
  Scalar s, t;
  Vector3<Scalar> c_A, c_B;
  internal::closestSegmentSegment(A.a, A.b, B.a, B.b, s, t, c_A, c_B);
  return (c_B - c_A).norm() - A.radius - B.radius;
}

}  // namespace retarget
