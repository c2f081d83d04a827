#pragma once

/// @file
/// Eigen type aliases used throughout retarget, templated on the scalar type.

#include <Eigen/Core>
#include <Eigen/Geometry>

namespace retarget {

template <typename Scalar>
using Vector3 = Eigen::Matrix<Scalar, 3, 1>;
template <typename Scalar>
using Matrix3 = Eigen::Matrix<Scalar, 3, 3>;
template <typename Scalar>
using VectorX = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
template <typename Scalar>
using MatrixX = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
template <typename Scalar>
using Matrix3X = Eigen::Matrix<Scalar, 3, Eigen::Dynamic>;
template <typename Scalar>
using Quaternion = Eigen::Quaternion<Scalar>;
/// Rigid transform (rotation + translation). `X_AB` maps coordinates in frame B to frame A.
template <typename Scalar>
using Isometry3 = Eigen::Transform<Scalar, 3, Eigen::Isometry>;
/// Per-joint flags (e.g. "this joint was clamped"), sized once by the caller.
using JointFlags = Eigen::Array<bool, Eigen::Dynamic, 1>;

/// Small tolerance used to call a length "zero", per scalar type (metres or unitless).
template <typename Scalar>
constexpr Scalar kDegenerateEpsilon = Scalar(1e-9);
template <>
inline constexpr float kDegenerateEpsilon<float> = 1e-5f;

/// Pi as the given scalar type.
template <typename Scalar>
constexpr Scalar kPi = Scalar(3.14159265358979323846264338327950288);

}  // namespace retarget
