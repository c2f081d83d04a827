#pragma once

/// @file
/// The smallest rotation that turns one direction onto another (unitless: only the directions
/// of the two vectors matter; the rotation maps vectors of the frame they are given in).
///
/// Written out rather than taken from `Eigen::Quaternion::FromTwoVectors`, whose fallback for
/// opposite directions instantiates a singular value decomposition: about three seconds of
/// compile time in every translation unit that uses it. Never allocates, never throws.

#include <algorithm>
#include <cmath>
#include <type_traits>

#include <retarget/core/types.hpp>

namespace retarget {

/// R with R (from / |from|) = to / |to| that rotates about the axis from x to (the shortest
/// rotation, by the angle between the two). For opposite directions (cosine below -1 + 1e-12
/// for double, -1 + 1e-5 for float) the axis is a unit vector normal to `from` (the one made
/// with the coordinate axis least aligned with `from`), and the angle is still the one whose
/// cosine is c (as Eigen's FromTwoVectors does): for exactly opposite input the rounding of c
/// (about 1e-16) becomes a turn short of pi by 2 sqrt((1 + c) / 2), about 2e-8 rad. Identity when either vector is zero-length or not finite (no direction to turn).
///
/// Built as the unit quaternion (cos(a/2), sin(a/2) n): with c = cos a and u, v the unit
/// directions, (1 + c, u x v) = 2 cos(a/2) (cos(a/2), sin(a/2) n), normalised.
template <typename Scalar>
Matrix3<Scalar> rotationBetween(const Vector3<Scalar>& from, const Vector3<Scalar>& to) {
  using std::sqrt;
  const Scalar from_norm = from.norm(), to_norm = to.norm();
  if (!(from_norm > Scalar(0) && to_norm > Scalar(0)) || !std::isfinite(from_norm) || !std::isfinite(to_norm)) {
    return Matrix3<Scalar>::Identity();
  }
  const Vector3<Scalar> u = from / from_norm, v = to / to_norm;
  const Scalar c = u.dot(v);
  constexpr Scalar kOpposite = std::is_same<Scalar, float>::value ? Scalar(1e-5) : Scalar(1e-12);
  Quaternion<Scalar> q;
  if (c < Scalar(-1) + kOpposite) {
    // Nearly opposite: the cross product carries no usable axis. Turn about a normal of `u`.
    int least = 0;
    if (std::abs(u[1]) < std::abs(u[least])) least = 1;
    if (std::abs(u[2]) < std::abs(u[least])) least = 2;
    const Vector3<Scalar> axis = u.cross(Vector3<Scalar>::Unit(least)).normalized();
    const Scalar w_squared = std::max(Scalar(0), (Scalar(1) + c) * Scalar(0.5));
    q.w() = sqrt(w_squared);
    q.vec() = axis * sqrt(Scalar(1) - w_squared);
  } else {
    // (1 + c, u x v) is 2 cos(a/2) times the unit quaternion; normalising it (rather than dividing
    // by sqrt(2 (1 + c)), which loses accuracy as c nears -1) keeps R a rotation to rounding.
    q.w() = Scalar(1) + c;
    q.vec() = u.cross(v);
    q.normalize();
  }
  return q.toRotationMatrix();
}

}  // namespace retarget
