#pragma once

/// @file
/// Sphere and capsule primitives used for self-collision models.

#include <retarget/core/types.hpp>
#include <retarget/fwd.hpp>  // Sphered, Capsuled

namespace retarget {

/// A sphere: all points within `radius` of `center`.
/// Invariant: radius >= 0. Units: metres, in whatever frame the caller states.
template <typename Scalar = double>
struct Sphere {
  Vector3<Scalar> center = Vector3<Scalar>::Zero();
  Scalar radius = Scalar(0);
};

/// A capsule: all points within `radius` of the segment [a, b]. A capsule with a == b is a
/// sphere. Invariant: radius >= 0. Units: metres, in whatever frame the caller states.
template <typename Scalar = double>
struct Capsule {
  Vector3<Scalar> a = Vector3<Scalar>::Zero();
  Vector3<Scalar> b = Vector3<Scalar>::Zero();
  Scalar radius = Scalar(0);

  /// The capsule that is exactly the given sphere (zero-length segment).
  static Capsule fromSphere(const Sphere<Scalar>& sphere) {
    return Capsule{sphere.center, sphere.center, sphere.radius};
  }
  /// Segment length ||b - a|| in metres.
  Scalar length() const { return (b - a).norm(); }
};

/// Capsule `c` expressed in frame A, given `c` in frame B and the pose X_AB.
template <typename Scalar>
Capsule<Scalar> transformed(const Isometry3<Scalar>& X_AB, const Capsule<Scalar>& c_B) {
  return Capsule<Scalar>{X_AB * c_B.a, X_AB * c_B.b, c_B.radius};
}

}  // namespace retarget
