#pragma once

/// @file
/// Per-call workspace for a `RobotModel`: every buffer the per-frame algorithms need,
/// allocated once here so that the algorithms themselves never allocate.

#include <vector>

#include <retarget/core/types.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Workspace of one robot. Create it once per model (and per thread); pass it to the
/// algorithms in forward_kinematics.hpp. Results of the last call stay readable here.
template <typename Scalar = double>
struct RobotData {
  explicit RobotData(const RobotModel<Scalar>& model)
      : X_WL(model.links().size(), Isometry3<Scalar>::Identity()),
        joint_values(VectorX<Scalar>::Zero(static_cast<Eigen::Index>(model.joints().size()))),
        J(Matrix3X<Scalar>::Zero(3, model.nq())),
        J_com(Matrix3X<Scalar>::Zero(3, model.nq())),
        joint_cos(VectorX<Scalar>::Ones(static_cast<Eigen::Index>(model.joints().size()))),
        joint_sin(VectorX<Scalar>::Zero(static_cast<Eigen::Index>(model.joints().size()))) {}

  /// Pose of the root link in the world frame W (set by the caller; identity by default).
  Isometry3<Scalar> X_WB = Isometry3<Scalar>::Identity();
  /// Pose of every link frame L in W, indexed like `RobotModel::links()` (after FK).
  std::vector<Isometry3<Scalar>> X_WL;
  /// Value of every joint (rad or m), mimic joints resolved; 0 for fixed joints (after FK).
  VectorX<Scalar> joint_values;
  /// Scratch/result 3 x nq point Jacobian (m/rad or unitless for prismatic), frame W.
  Matrix3X<Scalar> J;
  /// Centre of mass p_WCm (m, frame W) after `centerOfMass`.
  Vector3<Scalar> p_WCm = Vector3<Scalar>::Zero();
  /// 3 x nq centre-of-mass Jacobian (frame W) after `centerOfMassJacobian`.
  Matrix3X<Scalar> J_com;
  /// Cosine and sine of every entry of `joint_values` (after FK; meaningful for revolute and
  /// continuous joints, whose rotations forward kinematics builds from them).
  VectorX<Scalar> joint_cos, joint_sin;
};

}  // namespace retarget
