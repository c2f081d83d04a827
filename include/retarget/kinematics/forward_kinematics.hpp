#pragma once

/// @file
/// Per-frame kinematics on a `RobotModel` + `RobotData`: forward kinematics of every link
/// frame, point and angular Jacobians, centre of mass and its Jacobian, and clamping to limits.
/// None of these functions allocates or throws; sizes are checked with debug asserts only.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

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

namespace internal {

/// Cosine and sine of the `n` angles `x` (rad), written to `c` and `s` (which must not overlap
/// `x`), evaluated in double. For |x| <= 1024 rad: x = m pi/2 + r with the integer m nearest to
/// 2x/pi, r computed by Cody-Waite reduction (pi/2 as a 33-bit head, exact in m * head, plus a
/// tail) and |r| <= pi/4; cos r and sin r from their Taylor series to degree 16 and 17
/// (truncation error below 1e-19); the quadrant m mod 4 swaps and signs them. The result is
/// within about 1 ulp of std::cos / std::sin. The loops have no branch and no call, so
/// compilers vectorise them (GCC -O3: SSE2 on plain x86-64). Larger and non-finite angles, if
/// any, take std::cos / std::sin in a last pass. Returns whether every angle is finite.
template <typename Scalar>
bool sinCosArray(const Scalar* x, Scalar* c, Scalar* s, std::size_t n) noexcept {
  constexpr double kLimit = 1024.0;
  constexpr double kTwoOverPi = 0.6366197723675814;
  constexpr double kPiOver2Head = 1.5707963267341256;     // 0x1.921fb544p+0: 33 significant bits
  constexpr double kPiOver2Tail = 6.077100506506192e-11;  // pi/2 - head, to 4e-27
  constexpr double kBias = 2048.0;  // a multiple of 4 above 2 kLimit / pi: keeps m + kBias positive
  // Taylor coefficients (-1)^k / (2k+1)! and (-1)^k / (2k)!; every factorial is exact in double.
  constexpr double s3 = -1.0 / 6.0, s5 = 1.0 / 120.0, s7 = -1.0 / 5040.0, s9 = 1.0 / 362880.0,
                   s11 = -1.0 / 39916800.0, s13 = 1.0 / 6227020800.0, s15 = -1.0 / 1307674368000.0,
                   s17 = 1.0 / 355687428096000.0;
  constexpr double c4 = 1.0 / 24.0, c6 = -1.0 / 720.0, c8 = 1.0 / 40320.0, c10 = -1.0 / 3628800.0,
                   c12 = 1.0 / 479001600.0, c14 = -1.0 / 87178291200.0, c16 = 1.0 / 20922789888000.0;
  // Angles out of range (and NaN) become 0 here, in `s` as scratch (a loop of its own: in the
  // main loop GCC would make the selection a branch and not vectorise), and are redone last.
  double out_of_range = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double xi = static_cast<double>(x[i]);
    const bool in_range = std::abs(xi) <= kLimit;
    s[i] = in_range ? x[i] : Scalar(0);
    out_of_range = in_range ? out_of_range : 1.0;
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double xi = static_cast<double>(s[i]);
    // floor(2x/pi + 1/2) + kBias, by truncation of a positive number.
    const int biased = static_cast<int>(xi * kTwoOverPi + (kBias + 0.5));
    const double m = static_cast<double>(biased) - kBias;
    const double r = (xi - m * kPiOver2Head) - m * kPiOver2Tail;
    const double z = r * r;
    const double sin_r =
        r + r * z * (s3 + z * (s5 + z * (s7 + z * (s9 + z * (s11 + z * (s13 + z * (s15 + z * s17)))))));
    const double cos_r =
        1.0 - 0.5 * z + z * z * (c4 + z * (c6 + z * (c8 + z * (c10 + z * (c12 + z * (c14 + z * c16))))));
    // Quadrant m mod 4 = 0, 1, 2, 3: (cos, sin) = (C, S), (-S, C), (-C, -S), (S, -C). The
    // selection multiplies by exact 0 and +-1, so it is exact and needs no branch.
    const double odd = static_cast<double>(biased & 1);
    const double even = 1.0 - odd;
    const double sign_sin = static_cast<double>(1 - (biased & 2));
    const double sign_cos = static_cast<double>(1 - ((biased + 1) & 2));
    c[i] = static_cast<Scalar>(sign_cos * (even * cos_r + odd * sin_r));
    s[i] = static_cast<Scalar>(sign_sin * (even * sin_r + odd * cos_r));
  }
  if (out_of_range == 0.0) return true;
  bool finite = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(std::abs(x[i]) <= Scalar(kLimit))) {
      c[i] = std::cos(x[i]);
      s[i] = std::sin(x[i]);
      finite = finite && std::isfinite(x[i]);
    }
  }
  return finite;
}

/// Cosine and sine of `n` angles (rad): sinCosArray for float and double, std::cos / std::sin
/// (found by argument-dependent lookup) for other scalar types. Returns whether every angle is
/// finite.
template <typename Scalar>
bool sinCos(const Scalar* x, Scalar* c, Scalar* s, std::size_t n) noexcept {
  if constexpr (std::is_same_v<Scalar, double> || std::is_same_v<Scalar, float>) {
    return sinCosArray(x, c, s, n);
  } else {
    using std::cos;
    using std::isfinite;
    using std::sin;
    bool finite = true;
    for (std::size_t i = 0; i < n; ++i) {
      c[i] = cos(x[i]);
      s[i] = sin(x[i]);
      finite = finite && isfinite(x[i]);
    }
    return finite;
  }
}

/// A column of a homogeneous 4x4 matrix, four scalars in registers. Plain members and
/// always-inline operators rather than an Eigen vector: nothing then depends on the compiler
/// inlining Eigen's assignment loops (GCC stops doing so as the calling function grows), and its
/// straight-line code pairs the rows into SIMD packets (SLP vectorisation: two SSE2 registers
/// per column for double, one for float).
template <typename Scalar>
struct FkColumn {
  Scalar r0, r1, r2, r3;

  static EIGEN_ALWAYS_INLINE FkColumn load(const Scalar* p) noexcept { return {p[0], p[1], p[2], p[3]}; }
  EIGEN_ALWAYS_INLINE void store(Scalar* p) const noexcept {
    p[0] = r0;
    p[1] = r1;
    p[2] = r2;
    p[3] = r3;
  }
  friend EIGEN_ALWAYS_INLINE FkColumn operator*(const FkColumn& a, Scalar k) noexcept {
    return {a.r0 * k, a.r1 * k, a.r2 * k, a.r3 * k};
  }
  friend EIGEN_ALWAYS_INLINE FkColumn operator+(const FkColumn& a, const FkColumn& b) noexcept {
    return {a.r0 + b.r0, a.r1 + b.r1, a.r2 + b.r2, a.r3 + b.r3};
  }
  friend EIGEN_ALWAYS_INLINE FkColumn operator-(const FkColumn& a, const FkColumn& b) noexcept {
    return {a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2, a.r3 - b.r3};
  }
};

/// Turns two columns u, v of a rotation by the 2x2 rotation (cos, sin):
/// u' = cos u + sin v, v' = cos v - sin u.
template <typename Scalar>
EIGEN_ALWAYS_INLINE void turnColumns(FkColumn<Scalar>& u, FkColumn<Scalar>& v, Scalar cos_q, Scalar sin_q) noexcept {
  const FkColumn<Scalar> a = u;
  u = a * cos_q + v * sin_q;
  v = v * cos_q - a * sin_q;
}

/// Columns [x y z] of a rotation times the 3x3 matrix R (column-major array).
template <typename Scalar>
EIGEN_ALWAYS_INLINE void rotateColumns(FkColumn<Scalar>& x, FkColumn<Scalar>& y, FkColumn<Scalar>& z,
                                       const Scalar* R) noexcept {
  const FkColumn<Scalar> a = x, b = y;
  x = a * R[0] + b * R[1] + z * R[2];
  y = a * R[3] + b * R[4] + z * R[5];
  z = a * R[6] + b * R[7] + z * R[8];
}

/// One step of forward kinematics, any joint: the pose X_WC of a child link (`C`, a
/// column-major 4x4 homogeneous matrix as stored by Isometry3) from its parent's X_WP (`P`) and
/// the joint's value `value` (rad or m) with its cosine and sine:
/// X_WC = X_WP * X_PJ * Motion(axis, value) * X_JC. The work is on four 4-row columns (x, y, z
/// of the rotation, t the translation; whole SIMD packets, no 4x4 product); exact identities
/// in X_PJ and X_JC are skipped. Row 3 of C is computed like the others, from row 3 of P and
/// the joint's numbers alone: it is exactly 0 0 0 1 when P's is and `value`, `cos_q`, `sin_q`
/// are finite (forwardKinematics takes the reference path otherwise); writing it as constants
/// instead would stall the next step's loads (a store forwarding failure on every column). Kept
/// out of line so that its register needs do not weigh on the common steps (applyFkTurn).
template <typename Scalar>
EIGEN_DONT_INLINE void applyFkStep(const FkStep<Scalar>& step, const Scalar* P, Scalar* C, Scalar value,
                                   Scalar cos_q, Scalar sin_q) noexcept {
  using Column = FkColumn<Scalar>;
  Column x = Column::load(P), y = Column::load(P + 4), z = Column::load(P + 8);
  const Scalar* p_PJ = step.p_PJ.data();
  Column t = (x * p_PJ[0] + y * p_PJ[1] + z * p_PJ[2]) + Column::load(P + 12);
  if (step.rotated_origin) rotateColumns(x, y, z, step.R_PJ.data());
  const Scalar sin_signed = step.axis_sign * sin_q;
  switch (step.motion) {
    case FkMotion::kRotateX: turnColumns(y, z, cos_q, sin_signed); break;
    case FkMotion::kRotateY: turnColumns(z, x, cos_q, sin_signed); break;
    case FkMotion::kRotateZ: turnColumns(x, y, cos_q, sin_signed); break;
    case FkMotion::kRotateGeneral: {
      // R_WJ times the axis-angle matrix cos I + sin [u]x + (1 - cos) u u^T (u = axis).
      const Scalar* u = step.axis.data();
      const Scalar sin_u[3] = {sin_q * u[0], sin_q * u[1], sin_q * u[2]};
      const Scalar cos1_u[3] = {(Scalar(1) - cos_q) * u[0], (Scalar(1) - cos_q) * u[1], (Scalar(1) - cos_q) * u[2]};
      const Scalar M[9] = {cos1_u[0] * u[0] + cos_q,     cos1_u[0] * u[1] + sin_u[2], cos1_u[0] * u[2] - sin_u[1],
                           cos1_u[0] * u[1] - sin_u[2],  cos1_u[1] * u[1] + cos_q,    cos1_u[1] * u[2] + sin_u[0],
                           cos1_u[0] * u[2] + sin_u[1],  cos1_u[1] * u[2] - sin_u[0], cos1_u[2] * u[2] + cos_q};
      rotateColumns(x, y, z, M);
      break;
    }
    case FkMotion::kTranslate: {
      const Scalar d[3] = {value * step.axis[0], value * step.axis[1], value * step.axis[2]};
      t = t + (x * d[0] + y * d[1] + z * d[2]);
      break;
    }
    case FkMotion::kFixed: break;
  }
  if (step.child_offset) {
    const Scalar* p_JC = step.p_JC.data();
    t = (x * p_JC[0] + y * p_JC[1] + z * p_JC[2]) + t;
    rotateColumns(x, y, z, step.R_JC.data());
  }
  x.store(C);
  y.store(C + 4);
  z.store(C + 8);
  t.store(C + 12);
}

/// The common step (FkOp kTurnX/Y/Z with `axis` 0/1/2, kShift with `axis` -1): X_PJ a pure
/// translation, X_JC the identity, so X_WC = (R_WP Rot(+-e_axis, q), R_WP p_PJ + p_WP). As
/// applyFkStep, on 4-row columns, inline in the loop of forwardKinematics.
template <int axis, typename Scalar>
EIGEN_ALWAYS_INLINE void applyFkTurn(const FkStep<Scalar>& step, const Scalar* P, Scalar* C, Scalar cos_q,
                                     Scalar sin_q) noexcept {
  using Column = FkColumn<Scalar>;
  Column x = Column::load(P), y = Column::load(P + 4), z = Column::load(P + 8);
  const Scalar* p_PJ = step.p_PJ.data();
  const Column t = (x * p_PJ[0] + y * p_PJ[1] + z * p_PJ[2]) + Column::load(P + 12);
  const Scalar sin_signed = step.axis_sign * sin_q;
  if constexpr (axis == 0) turnColumns(y, z, cos_q, sin_signed);
  if constexpr (axis == 1) turnColumns(z, x, cos_q, sin_signed);
  if constexpr (axis == 2) turnColumns(x, y, cos_q, sin_signed);
  x.store(C);
  y.store(C + 4);
  z.store(C + 8);
  t.store(C + 12);
}

/// Forward kinematics as first written (one general Isometry3 product per joint, the joint
/// motion from Eigen::AngleAxis): the reference the optimised forwardKinematics is tested and
/// benchmarked against. Same contract as forwardKinematics.
template <typename Scalar, typename Derived>
void forwardKinematicsReference(const RobotModel<Scalar>& model, RobotData<Scalar>& data,
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

/// forwardKinematicsReference out of line, for the rare non-finite calls of forwardKinematics
/// (inline, its code would crowd the hot loop's).
template <typename Scalar, typename Derived>
EIGEN_DONT_INLINE void forwardKinematicsFallback(const RobotModel<Scalar>& model, RobotData<Scalar>& data,
                                                 const Eigen::MatrixBase<Derived>& q) {
  forwardKinematicsReference(model, data, q);
}

}  // namespace internal

/// Forward kinematics: fills `data.joint_values` (rad or m; mimic joints resolved, 0 for fixed
/// joints), `data.joint_cos` / `data.joint_sin` and `data.X_WL` (pose of every link in W, with
/// the root at `data.X_WB`) for configuration `q` (size nq; rad or m).
///
/// Runs the model's precomputed program (RobotModel::fkProgram) in three passes: the joint
/// values; cos and sin of all of them at once (internal::sinCos, vectorised); then one step per
/// joint in topological order, X_WC = X_WP * X_PJ * Motion(q) * X_JC on the columns of the 4x4
/// matrices: translation + 2x2 rotation of two columns for a joint about a principal axis whose
/// origin is a pure translation (internal::applyFkTurn, inline), every other joint by
/// internal::applyFkStep (rotation + translation pairs, exact identities skipped). Agrees with
/// the former code path, internal::forwardKinematicsReference, to rounding (about 1e-15 m and
/// rad per joint); that path runs instead when a joint value is not finite or X_WB's last row
/// is not 0 0 0 1, so non-finite input gives the former results exactly.
template <typename Scalar, typename Derived>
void forwardKinematics(const RobotModel<Scalar>& model, RobotData<Scalar>& data,
                       const Eigen::MatrixBase<Derived>& q) {
  RETARGET_DEBUG_ASSERT(q.size() == model.nq());
  RETARGET_DEBUG_ASSERT(data.joint_cos.size() == data.joint_values.size());
  const internal::FkProgram<Scalar>& program = model.fkProgram();
  Scalar* const values = data.joint_values.data();
  const std::vector<int>& q_joints = model.qJoints();
  for (std::size_t i = 0; i < q_joints.size(); ++i) {
    values[q_joints[i]] = q[static_cast<Eigen::Index>(i)];
  }
  for (const internal::FkMimic<Scalar>& mimic : program.mimics) {
    values[mimic.joint] = mimic.multiplier * q[mimic.q_index] + mimic.offset;
  }
  for (int k : program.zero_joints) values[k] = Scalar(0);
  const std::size_t n = program.steps.size();
  Scalar* const cos_q = data.joint_cos.data();
  Scalar* const sin_q = data.joint_sin.data();
  const bool finite = internal::sinCos<Scalar>(values, cos_q, sin_q, n);
  // Rare: a non-finite joint value, or a root pose whose homogeneous row is not 0 0 0 1, would
  // spoil row 3 of the links below (see applyFkStep); the reference path gives the former
  // results exactly (the same non-finite entries, row 3 restored by every product).
  const auto root_row = data.X_WB.matrix().row(3);
  if (!finite || !(root_row[0] == Scalar(0) && root_row[1] == Scalar(0) && root_row[2] == Scalar(0) &&
                   root_row[3] == Scalar(1))) {
    internal::forwardKinematicsFallback(model, data, q);
    return;
  }

  data.X_WL[0] = data.X_WB;
  Isometry3<Scalar>* const X_WL = data.X_WL.data();
  for (std::size_t k = 0; k < n; ++k) {
    const internal::FkStep<Scalar>& step = program.steps[k];
    const Scalar* const P = X_WL[step.parent].data();
    Scalar* const C = X_WL[step.child].data();
    switch (step.op) {
      case internal::FkOp::kTurnX: internal::applyFkTurn<0>(step, P, C, cos_q[k], sin_q[k]); break;
      case internal::FkOp::kTurnY: internal::applyFkTurn<1>(step, P, C, cos_q[k], sin_q[k]); break;
      case internal::FkOp::kTurnZ: internal::applyFkTurn<2>(step, P, C, cos_q[k], sin_q[k]); break;
      case internal::FkOp::kShift: internal::applyFkTurn<-1>(step, P, C, cos_q[k], sin_q[k]); break;
      case internal::FkOp::kGeneral: internal::applyFkStep(step, P, C, values[k], cos_q[k], sin_q[k]); break;
    }
  }
}

/// Pose of the moved frame of joint `k` in W (valid after forwardKinematics).
template <typename Scalar>
Isometry3<Scalar> jointFrameInWorld(const RobotModel<Scalar>& model, const RobotData<Scalar>& data, int k) {
  const Joint<Scalar>& joint = model.joints()[static_cast<std::size_t>(k)];
  return data.X_WL[static_cast<std::size_t>(joint.parent_link)] * joint.X_PJ * jointMotion(joint, data.joint_values[k]);
}

/// Every joint's axis (unit) and origin in W, `axis_W[k]` and `origin_W[k]` (m) for joint k of
/// `model.joints()` (valid after forwardKinematics; the motion about an axis keeps the axis, so
/// the parent side gives both). With forEachDrivingJoint, the columns of a point's Jacobian:
/// axis_W x (p - origin_W) for a revolute joint, axis_W for a prismatic one. Both vectors must
/// have one entry per joint. Never allocates.
template <typename Scalar>
void jointAxesInWorld(const RobotModel<Scalar>& model, const RobotData<Scalar>& data,
                      std::vector<Vector3<Scalar>>& axis_W, std::vector<Vector3<Scalar>>& origin_W) noexcept {
  const auto& joints = model.joints();
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const Isometry3<Scalar>& X_WP = data.X_WL[static_cast<std::size_t>(joints[k].parent_link)];
    axis_W[k] = X_WP.linear() * (joints[k].X_PJ.linear() * joints[k].axis);
    origin_W[k] = X_WP * joints[k].X_PJ.translation();
  }
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
