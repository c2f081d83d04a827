#pragma once

/// @file
/// Link vectors, link frames and the angles GA-LVVJ reads off them (seed 000, Section 3.2):
/// the vector between two skeleton points, a right-handed frame from two vectors, projection
/// onto a plane, the angle between a vector and a plane, and signed angles about an axis.
///
/// Every function is templated on the scalar type, never allocates and never throws. Degenerate
/// input (a zero-length or non-finite vector, or two collinear vectors where a plane is needed)
/// gives `std::nullopt` instead of NaN. "Zero length" means a norm <= `kDegenerateEpsilon`
/// (1e-9 for double, 1e-5 for float, in the input's unit); "collinear" means the sine of the
/// angle between the two vectors is <= `kDegenerateEpsilon`. A vector whose squared norm
/// overflows (norm above about 1.3e154 for double, 1.8e19 for float) counts as degenerate too:
/// no unit vector can be computed from it.

#include <cmath>
#include <limits>
#include <optional>

#include <retarget/core/types.hpp>

namespace retarget {

/// A coordinate axis of a frame (the column index of the rotation matrix).
enum class Axis : int { kX = 0, kY = 1, kZ = 2 };

namespace internal {

/// True when a vector with squared norm `squared_norm` is usable: longer than the degenerate
/// tolerance and with a finite squared norm. A NaN component makes the squared norm NaN and an
/// infinite one makes it infinite, so the one comparison also rejects non-finite vectors; so it
/// does a finite vector so long that its squared norm overflows, whose norm (computed as the
/// root of the squared norm) would be infinite and its unit vector zero. No square root.
template <typename Scalar>
bool usableSquaredNorm(Scalar squared_norm) {
  constexpr Scalar kMin = kDegenerateEpsilon<Scalar> * kDegenerateEpsilon<Scalar>;
  return squared_norm > kMin && squared_norm <= std::numeric_limits<Scalar>::max();
}

/// True when `v` is finite and longer than the degenerate tolerance (see usableSquaredNorm).
template <typename Scalar>
bool usableVector(const Vector3<Scalar>& v) {
  return usableSquaredNorm(v.squaredNorm());
}

}  // namespace internal

/// Link vector V_i-j from point i to point j: `p_j - p_i` (same unit and frame as the points;
/// seed 000, Section 3.2, "V i-j"). Never degenerate (may be zero).
template <typename Scalar>
Vector3<Scalar> linkVector(const Vector3<Scalar>& p_i, const Vector3<Scalar>& p_j) {
  return p_j - p_i;
}

/// Unit vector along `v`, or nullopt when `v` is zero-length or not finite.
template <typename Scalar>
std::optional<Vector3<Scalar>> unitVector(const Vector3<Scalar>& v) {
  const Scalar squared_norm = v.squaredNorm();
  if (!internal::usableSquaredNorm(squared_norm)) return std::nullopt;
  using std::sqrt;
  return Vector3<Scalar>(v / sqrt(squared_norm));
}

/// Unit normal of the plane spanned by `u` and `v`, oriented as `u x v` (right-hand rule), e.g.
/// N_2-5-6 = V_2-5 x V_6-5 in seed 000 (Section 3.2). Nullopt when either vector is degenerate
/// or the two are collinear.
template <typename Scalar>
std::optional<Vector3<Scalar>> unitNormal(const Vector3<Scalar>& u, const Vector3<Scalar>& v) {
  const Scalar u_squared = u.squaredNorm(), v_squared = v.squaredNorm();
  if (!internal::usableSquaredNorm(u_squared) || !internal::usableSquaredNorm(v_squared)) return std::nullopt;
  const Vector3<Scalar> n = u.cross(v);
  const Scalar n_norm = n.norm();
  using std::sqrt;
  if (!(n_norm > kDegenerateEpsilon<Scalar> * sqrt(u_squared) * sqrt(v_squared))) return std::nullopt;
  return Vector3<Scalar>(n / n_norm);
}

/// Right-handed orthonormal frame R_WF (columns are the unit axes of F in W) built from two
/// vectors given in W: axis `primary_axis` of F points along `primary`; axis `secondary_axis`
/// is `secondary` with its component along `primary` removed (Gram-Schmidt) and normalised; the
/// remaining axis completes a right-handed frame. Example (seed 000, left upper torso frame):
/// `frameFromTwoVectors(V_1_2, Axis::kZ, N_1_2_5, Axis::kX)` gives z along V_1-2, x along
/// N_1-2-5 and y = z x x = R_LUT.
/// Nullopt when a vector is degenerate, the two are collinear, or both axes are the same.
template <typename Scalar>
std::optional<Matrix3<Scalar>> frameFromTwoVectors(const Vector3<Scalar>& primary, Axis primary_axis,
                                                   const Vector3<Scalar>& secondary, Axis secondary_axis) {
  const int i = static_cast<int>(primary_axis);
  const int j = static_cast<int>(secondary_axis);
  if (i == j || i < 0 || i > 2 || j < 0 || j > 2) return std::nullopt;
  const auto e_i = unitVector(primary);
  const Scalar secondary_squared = secondary.squaredNorm();
  if (!e_i || !internal::usableSquaredNorm(secondary_squared)) return std::nullopt;
  const Vector3<Scalar> rejected = secondary - secondary.dot(*e_i) * *e_i;
  const Scalar rejected_norm = rejected.norm();
  using std::sqrt;
  if (!(rejected_norm > kDegenerateEpsilon<Scalar> * sqrt(secondary_squared))) return std::nullopt;
  const Vector3<Scalar> e_j = rejected / rejected_norm;
  const int k = 3 - i - j;
  // (i, j, k) cyclic -> e_k = e_i x e_j; otherwise e_k = e_j x e_i.
  const bool cyclic = j == (i + 1) % 3;
  Matrix3<Scalar> R_WF;
  R_WF.col(i) = *e_i;
  R_WF.col(j) = e_j;
  R_WF.col(k) = cyclic ? e_i->cross(e_j) : e_j.cross(*e_i);
  return R_WF;
}

/// Projection of `v` onto the plane through the origin with normal `normal` (any length):
/// v - (v . n) n with n = normal / |normal| (seed 000, Section 3.2: the child link vector is
/// projected onto the plane normal to the mother joint's axis). Same unit and frame as `v`;
/// the result may be zero. Nullopt when `normal` is degenerate or `v` is not finite.
template <typename Scalar>
std::optional<Vector3<Scalar>> projectOntoPlane(const Vector3<Scalar>& v, const Vector3<Scalar>& normal) {
  const auto n = unitVector(normal);
  if (!n || !v.allFinite()) return std::nullopt;
  return Vector3<Scalar>(v - v.dot(*n) * *n);
}

/// Unsigned angle between `u` and `v` in [0, pi] (rad), computed as atan2(|u x v|, u . v) so that
/// it stays accurate near 0 and pi. Nullopt when either vector is degenerate.
template <typename Scalar>
std::optional<Scalar> angleBetween(const Vector3<Scalar>& u, const Vector3<Scalar>& v) {
  if (!internal::usableVector(u) || !internal::usableVector(v)) return std::nullopt;
  using std::atan2;
  return atan2(u.cross(v).norm(), u.dot(v));
}

/// Signed angle between `v` and the plane with normal `normal`, in [-pi/2, pi/2] (rad):
/// positive when `v` points to the side `normal` points to, i.e. asin(v^ . n^), computed as
/// atan2(v . n^, |v - (v . n^) n^|) for accuracy. Seed 000 uses it for child joints, e.g.
/// theta_LSR = pi/2 - acos(V_5-6 . R_LUT / ...) = angleToPlane(V_5-6, R_LUT).
/// Nullopt when `v` or `normal` is degenerate.
template <typename Scalar>
std::optional<Scalar> angleToPlane(const Vector3<Scalar>& v, const Vector3<Scalar>& normal) {
  const auto n = unitVector(normal);
  if (!n || !internal::usableVector(v)) return std::nullopt;
  const Scalar along = v.dot(*n);
  const Scalar across = (v - along * *n).norm();
  using std::atan2;
  return atan2(along, across);
}

/// Signed angle (rad, in (-pi, pi]) of the rotation about `axis` (right-hand rule) that takes
/// the projection of `from` onto the plane normal to `axis` to the projection of `to`. This is
/// how seed 000 reads a mother joint's angle: both link vectors are projected onto the plane
/// normal to the joint axis, and the angle between the projections is signed by the axis.
/// Round trip: signedAngle(u, AngleAxis(theta, axis) * u, axis) == theta for u not along axis.
/// Nullopt when `axis` is degenerate or either projection is (the vector is along the axis).
template <typename Scalar>
std::optional<Scalar> signedAngle(const Vector3<Scalar>& from, const Vector3<Scalar>& to,
                                  const Vector3<Scalar>& axis) {
  const auto a = unitVector(axis);
  if (!a || !from.allFinite() || !to.allFinite()) return std::nullopt;
  const Vector3<Scalar> f = from - from.dot(*a) * *a;
  const Vector3<Scalar> t = to - to.dot(*a) * *a;
  // Relative test: the projection must keep a non-negligible part of the vector.
  if (!(f.norm() > kDegenerateEpsilon<Scalar> * (Scalar(1) + from.norm())) ||
      !(t.norm() > kDegenerateEpsilon<Scalar> * (Scalar(1) + to.norm()))) {
    return std::nullopt;
  }
  using std::atan2;
  Scalar angle = atan2(f.cross(t).dot(*a), f.dot(t));
  if (angle <= -kPi<Scalar>) angle = kPi<Scalar>;
  return angle;
}

}  // namespace retarget
