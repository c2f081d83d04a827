#pragma once

/// @file
/// The inverse of a rigid transform, written out: X_BA = X_AB^-1 with R_BA = R_AB^T and
/// p_BA = -R_AB^T p_AB (metres, or whatever length unit the translation has).
///
/// `Eigen::Transform::inverse()` computes the same for an isometry, but its body also holds the
/// projective case (a general 4x4 inverse through LU), instantiated wherever it is called: about
/// half a second of compile time per translation unit. Never allocates, never throws.

#include <retarget/core/types.hpp>

namespace retarget {

/// X_BA from X_AB, assuming X_AB's linear part is a rotation (not checked: a scaled or sheared
/// linear part gives a wrong result, as Eigen's isometry inverse does).
template <typename Scalar>
Isometry3<Scalar> rigidInverse(const Isometry3<Scalar>& X_AB) {
  Isometry3<Scalar> X_BA;
  X_BA.linear() = X_AB.linear().transpose();
  X_BA.translation() = -(X_BA.linear() * X_AB.translation());
  X_BA.makeAffine();
  return X_BA;
}

}  // namespace retarget
