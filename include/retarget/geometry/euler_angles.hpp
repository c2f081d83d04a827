#pragma once

/// @file
/// Tait-Bryan (three distinct axes) Euler angles in any of the six axis orders: composition
/// into a rotation matrix (paper 002, Eqs. 1-2) and decomposition back into angles, with a
/// documented treatment of gimbal lock. Geometry only (Eigen): used by the Euler/BVH mapper
/// (mappers/euler_mapper.hpp), its maps and the BVH rotation orders.

#include <array>
#include <cmath>
#include <string>
#include <string_view>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>

namespace retarget {

/// An intrinsic Tait-Bryan axis order, e.g. ZYX: R = R_Z(a0) * R_Y(a1) * R_X(a2), the first
/// rotation about the parent's axis, the next ones about the already rotated axes (paper 002,
/// Eq. 1 for ZYX). Axis indices are 0 = x, 1 = y, 2 = z; the three are distinct.
struct EulerOrder {
  std::array<int, 3> axes{2, 1, 0};

  /// +1 when (axes[0], axes[1], axes[2]) is a cyclic permutation of (x, y, z) (XYZ, YZX, ZXY),
  /// -1 otherwise (ZYX, XZY, YXZ).
  int parity() const { return ((axes[1] - axes[0] + 3) % 3 == 1) ? 1 : -1; }

  /// Upper-case name such as "ZYX".
  RETARGET_DECL std::string name() const;

  friend bool operator==(const EulerOrder& a, const EulerOrder& b) { return a.axes == b.axes; }
  friend bool operator!=(const EulerOrder& a, const EulerOrder& b) { return !(a == b); }
};

/// Parses an axis order such as "ZYX" or "yxz" (three distinct letters among X, Y, Z, any
/// case). Throws InvalidArgument naming the text otherwise (proper Euler orders such as "ZXZ"
/// are not supported).
RETARGET_DECL EulerOrder parseEulerOrder(std::string_view text);

/// Rotation by `angle` (rad) about coordinate axis `axis` (0 = x, 1 = y, 2 = z).
template <typename Scalar>
Matrix3<Scalar> axisRotation(int axis, Scalar angle) {
  return Eigen::AngleAxis<Scalar>(angle, Vector3<Scalar>::Unit(axis)).toRotationMatrix();
}

/// Composes intrinsic Euler angles (rad) into the child-in-parent rotation
/// R = R_{axes[0]}(angles[0]) * R_{axes[1]}(angles[1]) * R_{axes[2]}(angles[2]) (paper 002,
/// Eq. 1 for order ZYX; Eq. 2 is the same product in the robot's own order).
template <typename Scalar>
Matrix3<Scalar> eulerToRotation(const EulerOrder& order, const Vector3<Scalar>& angles) {
  return axisRotation<Scalar>(order.axes[0], angles[0]) * axisRotation<Scalar>(order.axes[1], angles[1]) *
         axisRotation<Scalar>(order.axes[2], angles[2]);
}

/// Decomposes a rotation matrix into intrinsic Euler angles (rad) in `order`, the inverse of
/// `eulerToRotation`: angles[0] and angles[2] in [-pi, pi], angles[1] in [-pi/2, pi/2].
///
/// Gimbal lock: when cos(angles[1]) is below `gimbal_tolerance` the first and third axes are
/// aligned and only their sum (or difference) is defined; then angles[2] is set to 0 and
/// angles[0] carries the whole rotation about that axis, so eulerToRotation(result) still
/// equals R. Never allocates or throws; `R` must be a rotation matrix.
template <typename Scalar>
Vector3<Scalar> rotationToEuler(const EulerOrder& order, const Matrix3<Scalar>& R,
                                Scalar gimbal_tolerance = Scalar(1e-7)) {
  using std::atan2;
  using std::sqrt;
  const int i = order.axes[0];
  const int j = order.axes[1];
  const int k = order.axes[2];
  const Scalar s = Scalar(order.parity());
  // For R = R_i(a) R_j(b) R_k(c): R(i,k) = s sin(b); R(i,i) = cos(b) cos(c); R(i,j) = -s cos(b) sin(c);
  // R(k,k) = cos(a) cos(b); R(j,k) = -s sin(a) cos(b).
  const Scalar cos_b = sqrt(R(i, i) * R(i, i) + R(i, j) * R(i, j));
  Vector3<Scalar> angles;
  angles[1] = atan2(s * R(i, k), cos_b);
  if (cos_b > gimbal_tolerance) {
    angles[0] = atan2(-s * R(j, k), R(k, k));
    angles[2] = atan2(-s * R(i, j), R(i, i));
  } else {
    // c = 0: R = R_i(a) R_j(b), so column j of R is R_i(a) e_j = cos(a) e_j + s sin(a) e_k.
    angles[0] = atan2(s * R(k, j), R(j, j));
    angles[2] = Scalar(0);
  }
  return angles;
}

#if RETARGET_DEFINE_GEOMETRY

RETARGET_DECL EulerOrder parseEulerOrder(std::string_view text) {
  EulerOrder order;
  bool good = text.size() == 3;
  for (std::size_t i = 0; good && i < 3; ++i) {
    const char c = text[i];
    const int axis = (c == 'x' || c == 'X') ? 0 : (c == 'y' || c == 'Y') ? 1 : (c == 'z' || c == 'Z') ? 2 : -1;
    good = axis >= 0;
    order.axes[i] = axis;
  }
  good = good && order.axes[0] != order.axes[1] && order.axes[1] != order.axes[2] &&
         order.axes[0] != order.axes[2];
  RETARGET_THROW_UNLESS(good, InvalidArgument, "Euler axis order (got '", std::string(text),
                        "', expected three distinct letters among X, Y, Z such as \"ZYX\")");
  return order;
}

RETARGET_DECL std::string EulerOrder::name() const {
  std::string out;
  for (int a : axes) out += static_cast<char>('X' + a);
  return out;
}

#endif  // RETARGET_DEFINE_GEOMETRY

}  // namespace retarget
