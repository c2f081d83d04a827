#pragma once

/// @file
/// Per-frame kinematics on a `RobotModel` + `RobotData`: forward kinematics of every link
/// frame, point and angular Jacobians, centre of mass and its Jacobian, and clamping to limits.
/// None of these functions allocates or throws; sizes are checked with debug asserts only.

#include <cmath>
#include <cstddef>

#include <retarget/core/compilation.hpp>
#include <retarget/core/types.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Motion of a joint frame for joint value `value` (rad or m): rotation about / translation
/// along the unit `axis` (frame J). Fixed joints give the identity.
template <typename Scalar>
Isometry3<Scalar> jointMotion(const Joint<Scalar>& joint, Scalar value) {
  Isometry3<Scalar> M = Isometry3<Scalar>::Identity();
  switch (joint.type) {
    case JointType::kRevolute:
    case JointType::kContinuous:
      M.linear() = Eigen::AngleAxis<Scalar>(value, joint.axis).toRotationMatrix();
      break;
    case JointType::kPrismatic:
      M.translation() = value * joint.axis;
      break;
    case JointType::kFixed:
      break;
  }
  return M;
}

/// Forward kinematics: fills `data.joint_values` and `data.X_WL` (pose of every link in W,
/// with the root at `data.X_WB`) for configuration `q` (size nq; rad or m).
template <typename Scalar, typename Derived>
void forwardKinematics(const RobotModel<Scalar>& model, RobotData<Scalar>& data,
                       const Eigen::MatrixBase<Derived>& q) {
  RETARGET_DEBUG_ASSERT(q.size() == model.nq());
  data.X_WL[0] = data.X_WB;
  const auto& joints = model.joints();
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const Joint<Scalar>& joint = joints[k];
    Scalar value = Scalar(0);
    if (joint.q_index >= 0) {
      value = q[joint.q_index];
    } else if (joint.mimic_q_index >= 0) {
      value = joint.mimic_multiplier * q[joint.mimic_q_index] + joint.mimic_offset;
    }
    data.joint_values[static_cast<Eigen::Index>(k)] = value;
    // X_WC = X_WP * X_PJ * Motion(value) * X_JC, with the motion applied in place.
    Isometry3<Scalar>& X_WC = data.X_WL[static_cast<std::size_t>(joint.child_link)];
    X_WC = data.X_WL[static_cast<std::size_t>(joint.parent_link)] * joint.X_PJ;
    switch (joint.type) {
      case JointType::kRevolute:
      case JointType::kContinuous:
        X_WC.linear() = X_WC.linear() * Eigen::AngleAxis<Scalar>(value, joint.axis).toRotationMatrix();
        break;
      case JointType::kPrismatic:
        X_WC.translation() += X_WC.linear() * (value * joint.axis);
        break;
      case JointType::kFixed:
        break;
    }
    if (!joint.X_JC_is_identity) X_WC = X_WC * joint.X_JC;
  }
}

/// Pose of the moved frame of joint `k` in W (valid after forwardKinematics).
template <typename Scalar>
Isometry3<Scalar> jointFrameInWorld(const RobotModel<Scalar>& model, const RobotData<Scalar>& data, int k) {
  const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(k)];
  return data.X_WL[static_cast<std::size_t>(joint.parent_link)] * joint.X_PJ * jointMotion(joint, data.joint_values[k]);
}

/// Calls `visit(k, column, gain)` for every moving joint k on the chain from the root to link
/// `link` that drives a configuration coordinate: `column` is the joint's coordinate, or its
/// driver's for a mimic joint, and `gain` is 1 or the mimic multiplier. Joints with neither are
/// skipped. The building block of every Jacobian (here and in safety/self_collision.hpp).
template <typename Scalar, typename Visit>
void forEachDrivingJoint(const RobotModel<Scalar>& model, int link, Visit&& visit) {
  for (int k : model.links()[static_cast<std::size_t>(link)].support) {
    const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(k)];
    if (!joint.moves()) continue;
    int column = joint.q_index;
    Scalar gain = Scalar(1);
    if (column < 0) {
      column = joint.mimic_q_index;
      gain = joint.mimic_multiplier;
    }
    if (column < 0) continue;
    visit(k, column, gain);
  }
}

/// Translational Jacobian of a point fixed on link `link` at p_LP (m, link frame), written to
/// `J` (3 x nq; frame W): dp_WP/dq. Needs forwardKinematics first. Mimic joints add their
/// multiplier times their column to the driver's column.
template <typename Scalar, typename JacobianDerived>
void pointJacobian(const RobotModel<Scalar>& model, const RobotData<Scalar>& data, int link,
                   const Vector3<Scalar>& p_LP, const Eigen::MatrixBase<JacobianDerived>& J_out) {
  auto& J = const_cast<Eigen::MatrixBase<JacobianDerived>&>(J_out);
  RETARGET_DEBUG_ASSERT(J.rows() == 3 && J.cols() == model.nq());
  J.setZero();
  const Vector3<Scalar> p_WP = data.X_WL[static_cast<std::size_t>(link)] * p_LP;
  forEachDrivingJoint(model, link, [&](int k, int column, Scalar gain) {
    const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(k)];
    const Isometry3<Scalar> X_WJ = jointFrameInWorld(model, data, k);
    const Vector3<Scalar> axis_W = X_WJ.linear() * joint.axis;
    if (joint.type == JointType::kPrismatic) {
      J.col(column) += gain * axis_W;
    } else {
      J.col(column) += gain * axis_W.cross(p_WP - X_WJ.translation());
    }
  });
}

/// Angular Jacobian of link `link`, written to `J` (3 x nq; frame W): the angular velocity w_WL
/// of the link frame is J * dq/dt (rad/s per rad/s; prismatic joints give 0). Needs
/// forwardKinematics first. Mimic joints add their multiplier times their column to the
/// driver's column.
template <typename Scalar, typename JacobianDerived>
void angularJacobian(const RobotModel<Scalar>& model, const RobotData<Scalar>& data, int link,
                     const Eigen::MatrixBase<JacobianDerived>& J_out) {
  auto& J = const_cast<Eigen::MatrixBase<JacobianDerived>&>(J_out);
  RETARGET_DEBUG_ASSERT(J.rows() == 3 && J.cols() == model.nq());
  J.setZero();
  forEachDrivingJoint(model, link, [&](int k, int column, Scalar gain) {
    const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(k)];
    if (joint.type == JointType::kPrismatic) return;
    J.col(column) += gain * (jointFrameInWorld(model, data, k).linear() * joint.axis);
  });
}

/// Centre of mass of the whole robot, p_WCm (m, frame W), stored in `data.p_WCm` and returned.
/// Needs forwardKinematics first. Returns the root position for a massless robot.
template <typename Scalar>
const Vector3<Scalar>& centerOfMass(const RobotModel<Scalar>& model, RobotData<Scalar>& data) {
  Vector3<Scalar> weighted = Vector3<Scalar>::Zero();
  const auto& links = model.links();
  for (std::size_t i = 0; i < links.size(); ++i) {
    weighted += links[i].inertial.mass * (data.X_WL[i] * links[i].inertial.p_LCm);
  }
  data.p_WCm = model.totalMass() > Scalar(0) ? Vector3<Scalar>(weighted / model.totalMass())
                                             : Vector3<Scalar>(data.X_WL[0].translation());
  return data.p_WCm;
}

/// Jacobian of the centre of mass (3 x nq, frame W), stored in `data.J_com` and returned.
/// Needs forwardKinematics first; uses `data.J` as scratch.
template <typename Scalar>
const Matrix3X<Scalar>& centerOfMassJacobian(const RobotModel<Scalar>& model, RobotData<Scalar>& data) {
  data.J_com.setZero();
  if (model.totalMass() <= Scalar(0)) return data.J_com;
  const auto& links = model.links();
  for (std::size_t i = 0; i < links.size(); ++i) {
    if (links[i].inertial.mass <= Scalar(0)) continue;
    pointJacobian(model, data, static_cast<int>(i), links[i].inertial.p_LCm, data.J);
    data.J_com += (links[i].inertial.mass / model.totalMass()) * data.J;
  }
  return data.J_com;
}

/// Clamps `q` into the model's position limits in place. When `clamped` is given (size nq) it
/// receives which coordinates changed. Non-finite entries are replaced by the limit midpoint
/// (0 for unbounded joints) and flagged. Returns the number of coordinates changed.
template <typename Scalar, typename Derived>
int clampToLimits(const RobotModel<Scalar>& model, const Eigen::MatrixBase<Derived>& q_inout,
                  JointFlags* clamped = nullptr) {
  auto& q = const_cast<Eigen::MatrixBase<Derived>&>(q_inout);
  RETARGET_DEBUG_ASSERT(q.size() == model.nq());
  RETARGET_DEBUG_ASSERT(clamped == nullptr || clamped->size() == model.nq());
  const auto& lower = model.lowerLimits();
  const auto& upper = model.upperLimits();
  int count = 0;
  for (int i = 0; i < model.nq(); ++i) {
    Scalar value = q[i];
    if (!std::isfinite(value)) {
      const bool bounded = std::isfinite(lower[i]) && std::isfinite(upper[i]);
      value = bounded ? Scalar(0.5) * (lower[i] + upper[i]) : Scalar(0);
      value = std::min(std::max(value, lower[i]), upper[i]);
    } else {
      value = std::min(std::max(value, lower[i]), upper[i]);
    }
    const bool changed = !(value == q[i]);
    if (clamped != nullptr) (*clamped)[i] = changed;
    count += changed ? 1 : 0;
    q[i] = value;
  }
  return count;
}

/// True when every coordinate of `q` is finite and within limits (with tolerance `tol`).
template <typename Scalar, typename Derived>
bool withinLimits(const RobotModel<Scalar>& model, const Eigen::MatrixBase<Derived>& q, Scalar tol = Scalar(0)) {
  if (q.size() != model.nq() || !q.allFinite()) return false;
  for (int i = 0; i < model.nq(); ++i) {
    if (q[i] < model.lowerLimits()[i] - tol || q[i] > model.upperLimits()[i] + tol) return false;
  }
  return true;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_KINEMATICS Isometry3<double> jointMotion<double>(const Joint<double>&, double);
RETARGET_TEMPLATE_KINEMATICS void forwardKinematics<double, VectorX<double>>(
    const RobotModel<double>&, RobotData<double>&, const Eigen::MatrixBase<VectorX<double>>&);
RETARGET_TEMPLATE_KINEMATICS Isometry3<double> jointFrameInWorld<double>(
    const RobotModel<double>&, const RobotData<double>&, int);
RETARGET_TEMPLATE_KINEMATICS void pointJacobian<double, Matrix3X<double>>(
    const RobotModel<double>&, const RobotData<double>&, int, const Vector3<double>&,
    const Eigen::MatrixBase<Matrix3X<double>>&);
RETARGET_TEMPLATE_KINEMATICS void angularJacobian<double, Matrix3X<double>>(
    const RobotModel<double>&, const RobotData<double>&, int, const Eigen::MatrixBase<Matrix3X<double>>&);
RETARGET_TEMPLATE_KINEMATICS const Vector3<double>& centerOfMass<double>(const RobotModel<double>&, RobotData<double>&);
RETARGET_TEMPLATE_KINEMATICS const Matrix3X<double>& centerOfMassJacobian<double>(
    const RobotModel<double>&, RobotData<double>&);
RETARGET_TEMPLATE_KINEMATICS int clampToLimits<double, VectorX<double>>(
    const RobotModel<double>&, const Eigen::MatrixBase<VectorX<double>>&, JointFlags*);
RETARGET_TEMPLATE_KINEMATICS bool withinLimits<double, VectorX<double>>(
    const RobotModel<double>&, const Eigen::MatrixBase<VectorX<double>>&, double);
RETARGET_TEMPLATE_KINEMATICS Isometry3<float> jointMotion<float>(const Joint<float>&, float);
RETARGET_TEMPLATE_KINEMATICS void forwardKinematics<float, VectorX<float>>(
    const RobotModel<float>&, RobotData<float>&, const Eigen::MatrixBase<VectorX<float>>&);
RETARGET_TEMPLATE_KINEMATICS Isometry3<float> jointFrameInWorld<float>(
    const RobotModel<float>&, const RobotData<float>&, int);
RETARGET_TEMPLATE_KINEMATICS void pointJacobian<float, Matrix3X<float>>(
    const RobotModel<float>&, const RobotData<float>&, int, const Vector3<float>&,
    const Eigen::MatrixBase<Matrix3X<float>>&);
RETARGET_TEMPLATE_KINEMATICS void angularJacobian<float, Matrix3X<float>>(
    const RobotModel<float>&, const RobotData<float>&, int, const Eigen::MatrixBase<Matrix3X<float>>&);
RETARGET_TEMPLATE_KINEMATICS const Vector3<float>& centerOfMass<float>(const RobotModel<float>&, RobotData<float>&);
RETARGET_TEMPLATE_KINEMATICS const Matrix3X<float>& centerOfMassJacobian<float>(
    const RobotModel<float>&, RobotData<float>&);
RETARGET_TEMPLATE_KINEMATICS int clampToLimits<float, VectorX<float>>(
    const RobotModel<float>&, const Eigen::MatrixBase<VectorX<float>>&, JointFlags*);
RETARGET_TEMPLATE_KINEMATICS bool withinLimits<float, VectorX<float>>(
    const RobotModel<float>&, const Eigen::MatrixBase<VectorX<float>>&, float);
#endif

}  // namespace retarget
