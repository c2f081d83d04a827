#pragma once

/// @file
/// Joint-space similarity W between two robot configurations (seed 001, Eq. 11, after its
/// ref. [15]) and its summaries over a motion, plus the per-joint angular change between two
/// trajectories (seed 001, Figure 12c: Delta = |q_mimic - q_collision-free|).
///
///   W(q, q') = 1 / (1 + sum_i ((q_i - q'_i) / (q_i,max - q_i,min))^2),  0 < W <= 1
///
/// W = 1 for identical configurations. Joints with an unbounded range use 2 pi as their range.

#include <algorithm>
#include <cmath>
#include <limits>

#include <retarget/core/types.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// W of Eq. 11 between q and q' (size nq, rad). Never allocates or throws; 0 for non-finite input.
template <typename Scalar, typename DerivedA, typename DerivedB>
Scalar jointSimilarity(const RobotModel<Scalar>& model, const Eigen::MatrixBase<DerivedA>& q,
                       const Eigen::MatrixBase<DerivedB>& q_prime) {
  Scalar sum = Scalar(0);
  for (int i = 0; i < model.nq(); ++i) {
    Scalar range = model.upperLimits()[i] - model.lowerLimits()[i];
    if (!std::isfinite(range) || !(range > Scalar(0))) range = 2 * kPi<Scalar>;
    const Scalar r = (q[i] - q_prime[i]) / range;
    sum += r * r;
  }
  if (!std::isfinite(sum)) return Scalar(0);
  return Scalar(1) / (Scalar(1) + sum);
}

/// W over a motion: per frame, mean and minimum.
struct JointSimilaritySummary {
  std::vector<double> per_frame;
  double mean = 1.0;
  double min = 1.0;
  /// Per joint: mean and largest |q - q'| over the frames (rad), Figure 12c's Delta.
  Eigen::VectorXd mean_change;
  Eigen::VectorXd max_change;
};

/// W between two trajectories (frames x nq, rad), frame by frame. Throws InvalidArgument when
/// the sizes differ or do not match the model.
template <typename Scalar>
JointSimilaritySummary jointSimilarity(const RobotModel<Scalar>& model, const MatrixX<Scalar>& A,
                                       const MatrixX<Scalar>& B) {
  RETARGET_THROW_UNLESS(A.rows() == B.rows() && A.cols() == model.nq() && B.cols() == model.nq(), InvalidArgument,
                        "jointSimilarity (got ", A.rows(), " x ", A.cols(), " and ", B.rows(), " x ", B.cols(),
                        ", expected two frames x nq = ", model.nq(), " trajectories)");
  JointSimilaritySummary out;
  out.mean_change = Eigen::VectorXd::Zero(model.nq());
  out.max_change = Eigen::VectorXd::Zero(model.nq());
  double sum = 0;
  for (Eigen::Index k = 0; k < A.rows(); ++k) {
    const double w = static_cast<double>(jointSimilarity(model, A.row(k).transpose(), B.row(k).transpose()));
    out.per_frame.push_back(w);
    sum += w;
    out.min = std::min(out.min, w);
    const Eigen::VectorXd change = (A.row(k) - B.row(k)).transpose().template cast<double>().cwiseAbs();
    out.mean_change += change;
    out.max_change = out.max_change.cwiseMax(change);
  }
  if (A.rows() > 0) {
    out.mean = sum / static_cast<double>(A.rows());
    out.mean_change /= static_cast<double>(A.rows());
  }
  return out;
}

}  // namespace retarget
