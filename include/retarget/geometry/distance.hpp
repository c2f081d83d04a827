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

/// Closest points of the segments [a_1, b_1] and [a_2, b_2] (exact for parallel, anti-parallel,
/// coincident, crossing and zero-length segments).
///
/// Method: the squared distance |a_1 + s d_1 - a_2 - t d_2|^2 is a convex quadratic on the
/// unit square. Its minimum is either the unconstrained stationary point (when the lines are
/// not parallel and that point lies in the square) or lies on one of the four edges, each of
/// which is a point-segment problem. The stationary point is accepted at once when the lines
/// are well away from parallel; otherwise every candidate is evaluated and the nearest pair
/// kept (first found on ties), so that near-parallel segments stay exact.
template <typename Scalar>
SegmentSegmentPoints<Scalar> closestPointsSegmentSegment(const Vector3<Scalar>& a_1, const Vector3<Scalar>& b_1,
                                                         const Vector3<Scalar>& a_2, const Vector3<Scalar>& b_2) {
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

namespace internal {

/// Builds the result from the closest centre points and radii; `axis_A`, `axis_B` are the
/// centre segments' direction vectors (zero for spheres), used only for coincident centres.
template <typename Scalar>
DistanceResult<Scalar> distanceFromCentres(const Vector3<Scalar>& c_A, Scalar r_A, const Vector3<Scalar>& axis_A,
                                           const Vector3<Scalar>& c_B, Scalar r_B, const Vector3<Scalar>& axis_B) {
  DistanceResult<Scalar> out;
  const Vector3<Scalar> diff = c_B - c_A;
  const Scalar centre_distance = diff.norm();
  if (centre_distance > kCoincidentTolerance<Scalar>) {
    out.normal = diff / centre_distance;
  } else {
    const Scalar len_A = axis_A.norm();
    const Scalar len_B = axis_B.norm();
    const Vector3<Scalar> cross = axis_A.cross(axis_B);
    const Scalar cross_norm = cross.norm();
    if (len_A > Scalar(0) && len_B > Scalar(0) && cross_norm > kDegenerateEpsilon<Scalar> * len_A * len_B) {
      out.normal = cross / cross_norm;
    } else if (len_A > Scalar(0)) {
      out.normal = Vector3<Scalar>(axis_A / len_A).unitOrthogonal();
    } else if (len_B > Scalar(0)) {
      out.normal = Vector3<Scalar>(axis_B / len_B).unitOrthogonal();
    } else {
      out.normal = Vector3<Scalar>::UnitX();
    }
  }
  out.distance = centre_distance - r_A - r_B;
  out.p_A = c_A + r_A * out.normal;
  out.p_B = c_B - r_B * out.normal;
  return out;
}

}  // namespace internal

/// Signed distance between spheres A and B with witness points (see the file doc). Coincident
/// centres use the normal +x.
template <typename Scalar>
DistanceResult<Scalar> distance(const Sphere<Scalar>& A, const Sphere<Scalar>& B) {
  const Vector3<Scalar> zero = Vector3<Scalar>::Zero();
  return internal::distanceFromCentres<Scalar>(A.center, A.radius, zero, B.center, B.radius, zero);
}

/// Signed distance between sphere A and capsule B with witness points (see the file doc).
template <typename Scalar>
DistanceResult<Scalar> distance(const Sphere<Scalar>& A, const Capsule<Scalar>& B) {
  const auto q = closestPointOnSegment(A.center, B.a, B.b);
  return internal::distanceFromCentres<Scalar>(A.center, A.radius, Vector3<Scalar>::Zero(), q.point, B.radius,
                                       Vector3<Scalar>(B.b - B.a));
}

/// Signed distance between capsule A and sphere B with witness points (see the file doc).
template <typename Scalar>
DistanceResult<Scalar> distance(const Capsule<Scalar>& A, const Sphere<Scalar>& B) {
  const auto q = closestPointOnSegment(B.center, A.a, A.b);
  return internal::distanceFromCentres<Scalar>(q.point, A.radius, Vector3<Scalar>(A.b - A.a), B.center, B.radius,
                                       Vector3<Scalar>::Zero());
}

/// Signed distance between capsules A and B with witness points (see the file doc). A capsule
/// with a == b behaves exactly as a sphere.
template <typename Scalar>
DistanceResult<Scalar> distance(const Capsule<Scalar>& A, const Capsule<Scalar>& B) {
  const auto q = closestPointsSegmentSegment(A.a, A.b, B.a, B.b);
  return internal::distanceFromCentres<Scalar>(q.c_1, A.radius, Vector3<Scalar>(A.b - A.a), q.c_2, B.radius,
                                       Vector3<Scalar>(B.b - B.a));
}

}  // namespace retarget
