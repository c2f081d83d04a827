#pragma once

/// @file
/// The paper's system DTW metric (paper 002, Sec. 4.3, Eqs. 12-13): one DTW distance per joint
/// (each joint's 1-D angle trajectory, human vs robot) and their average weighted by each
/// joint's range of motion:
///   W_x = max(x) - min(x)                       (Eq. 12, the joint's range: upper - lower limit)
///   A_w = sum_x W_x D_x / sum_x W_x             (Eq. 13)
/// Eq. 13 divides by the sum of the weights, so only their ratios matter: the result stores
/// the weights normalised to sum 1. The paper's example (its Sec. 5) uses the joint ranges in
/// degrees (W = 150, 210, 40, 135, 180); the same ranges in radians give the same A_w.

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/metrics/dtw.hpp>

namespace retarget {

/// Per-joint and weighted system DTW distances (Eqs. 11-13).
template <typename Scalar>
struct WeightedDtwResult {
  /// D_x: DTW distance of each joint's 1-D trajectory (Eq. 11 with |s - r| as local distance;
  /// units of the trajectories, e.g. rad, times frames unless normalised).
  VectorX<Scalar> joint_distances;
  /// Path length of each joint's optimal warping path.
  Eigen::Matrix<Eigen::Index, Eigen::Dynamic, 1> path_lengths;
  /// Weights normalised to sum 1 (W_x / sum W).
  VectorX<Scalar> weights;
  /// A_w of Eq. 13: sum of weights(x) * joint_distances(x).
  Scalar system_distance = std::numeric_limits<Scalar>::infinity();
};

/// Eq. 12 weights from a robot model: the range of motion upper - lower of each configuration
/// coordinate, in q order (rad, or m for prismatic joints). Continuous joints (no limits) get
/// one full turn, 2 pi. Not normalised (weightedJointDtw normalises).
template <typename Scalar>
VectorX<Scalar> rangeOfMotionWeights(const RobotModel<Scalar>& model) {
  VectorX<Scalar> weights(model.nq());
  for (int i = 0; i < model.nq(); ++i) {
    const Scalar range = model.upperLimits()(i) - model.lowerLimits()(i);
    weights(i) = std::isfinite(range) ? range : Scalar(2) * kPi<Scalar>;
  }
  return weights;
}

/// Eq. 12 weights of the named joints, in the order given (for trajectories that hold a subset
/// of the robot's joints). Throws InvalidArgument when a name is not a coordinate of `model`.
template <typename Scalar>
VectorX<Scalar> rangeOfMotionWeights(const RobotModel<Scalar>& model, const std::vector<std::string>& joint_names) {
  const VectorX<Scalar> all = rangeOfMotionWeights(model);
  VectorX<Scalar> weights(static_cast<Eigen::Index>(joint_names.size()));
  for (std::size_t k = 0; k < joint_names.size(); ++k) {
    weights(static_cast<Eigen::Index>(k)) = all(model.qIndex(joint_names[k]));
  }
  return weights;
}

/// Per-joint DTW of two joint trajectories and the weighted system value A_w (Eqs. 11-13).
/// human, robot: J x n and J x m, one frame per column, row x = joint x (same joint order, same
/// unit). weights: J non-negative finite weights with a positive sum (e.g. rangeOfMotionWeights);
/// options: window / normalisation applied to each joint's DTW.
/// Throws InvalidArgument on empty or mismatched trajectories, non-finite values, bad weights
/// or bad options.
template <typename DerivedH, typename DerivedR, typename DerivedW>
WeightedDtwResult<typename DerivedH::Scalar> weightedJointDtw(const Eigen::MatrixBase<DerivedH>& human,
                                                              const Eigen::MatrixBase<DerivedR>& robot,
                                                              const Eigen::MatrixBase<DerivedW>& weights,
                                                              const DtwOptions& options = {}) {
  using Scalar = typename DerivedH::Scalar;
  options.validate();
  internal::checkDtwSequences("weightedJointDtw", human, robot);
  const Eigen::Index joints = human.rows();
  RETARGET_THROW_UNLESS(weights.size() == joints, InvalidArgument, "one weight per joint (row) needed (got ",
                        weights.size(), " weights, expected ", joints, ")");
  RETARGET_THROW_UNLESS(weights.allFinite() && (weights.array() >= 0).all(), InvalidArgument,
                        "weights must be finite and >= 0 (got min ", weights.minCoeff(), ")");
  const Scalar sum = static_cast<Scalar>(weights.sum());
  RETARGET_THROW_UNLESS(sum > 0, InvalidArgument, "weights must have a positive sum (got ", sum, ")");
  WeightedDtwResult<Scalar> result;
  result.joint_distances.resize(joints);
  result.path_lengths.resize(joints);
  result.weights = weights.template cast<Scalar>() / sum;
  result.system_distance = Scalar(0);
  for (Eigen::Index x = 0; x < joints; ++x) {
    const DtwResult<Scalar> joint = dtw(human.row(x), robot.row(x), options);
    result.joint_distances(x) = joint.distance;
    result.path_lengths(x) = joint.path_length;
    if (result.weights(x) > 0) result.system_distance += result.weights(x) * joint.distance;
  }
  return result;
}

/// Streaming form of the system metric: per-joint DTW and A_w (Eqs. 11-13) updated as human
/// and robot frames arrive, one frame of each per control step, so the paper's progressive
/// curves (per-joint diag(D) and the system value over time) come out live.
///
/// Invariant: after any appends, jointDistance(x) and systemDistance() equal
/// weightedJointDtw(human so far, robot so far, weights, options) bit for bit.
/// Real-time: the append functions never throw and never allocate while each trajectory stays
/// within the capacity given to the constructor (past it, storage grows by doubling).
template <typename Scalar = double>
class IncrementalJointDtw {
 public:
  /// weights: one non-negative finite weight per joint with a positive sum (e.g.
  /// rangeOfMotionWeights); capacity: frames preallocated per trajectory.
  /// Throws InvalidArgument on bad weights, capacity or options.
  template <typename DerivedW>
  explicit IncrementalJointDtw(const Eigen::MatrixBase<DerivedW>& weights, Eigen::Index capacity = 0,
                               const DtwOptions& options = {})
      : options_(options) {
    options_.validate();
    RETARGET_THROW_UNLESS(weights.size() >= 1, InvalidArgument,
                          "IncrementalJointDtw needs at least one joint weight (got ", weights.size(), ")");
    RETARGET_THROW_UNLESS(weights.allFinite() && (weights.array() >= 0).all(), InvalidArgument,
                          "IncrementalJointDtw weights must be finite and >= 0 (got min ", weights.minCoeff(), ")");
    const Scalar sum = static_cast<Scalar>(weights.sum());
    RETARGET_THROW_UNLESS(sum > 0, InvalidArgument, "IncrementalJointDtw weights must have a positive sum (got ", sum,
                          ")");
    weights_ = weights.template cast<Scalar>() / sum;
    joints_.reserve(static_cast<std::size_t>(weights.size()));
    for (Eigen::Index x = 0; x < weights.size(); ++x) joints_.emplace_back(1, capacity, options_);
  }

  /// Appends one human frame (J joint values). Returns kInvalidInput and changes nothing when
  /// the frame has the wrong size or is not finite.
  template <typename Derived>
  Status appendHuman(const Eigen::MatrixBase<Derived>& frame) noexcept {
    return append<true>(frame);
  }
  /// Appends one robot frame (J joint values). Same contract as appendHuman.
  template <typename Derived>
  Status appendRobot(const Eigen::MatrixBase<Derived>& frame) noexcept {
    return append<false>(frame);
  }
  /// Appends one human and one robot frame (one control step). Returns kInvalidInput and
  /// changes nothing when either frame is bad.
  template <typename DerivedH, typename DerivedR>
  Status append(const Eigen::MatrixBase<DerivedH>& human, const Eigen::MatrixBase<DerivedR>& robot) noexcept {
    if (!valid(human) || !valid(robot)) return StatusCode::kInvalidInput;
    return append<true>(human) | append<false>(robot);
  }

  /// Number of joints J.
  Eigen::Index jointCount() const noexcept { return weights_.size(); }
  /// D_x of joint x so far (+inf while either trajectory is empty).
  Scalar jointDistance(Eigen::Index x) const noexcept { return joints_[static_cast<std::size_t>(x)].distance(); }
  /// A_w of Eq. 13 so far (+inf while either trajectory is empty).
  Scalar systemDistance() const noexcept {
    Scalar total = 0;
    for (Eigen::Index x = 0; x < weights_.size(); ++x) {
      if (weights_(x) > 0) total += weights_(x) * jointDistance(x);
    }
    return total;
  }
  /// Weights normalised to sum 1.
  const VectorX<Scalar>& weights() const noexcept { return weights_; }
  /// Frames appended so far to the human and robot trajectories.
  Eigen::Index humanFrames() const noexcept { return joints_.front().sizeA(); }
  Eigen::Index robotFrames() const noexcept { return joints_.front().sizeB(); }
  /// Forgets both trajectories, keeping the capacity.
  void reset() noexcept {
    for (auto& joint : joints_) joint.reset();
  }

 private:
  template <typename Derived>
  bool valid(const Eigen::MatrixBase<Derived>& frame) const noexcept {
    return frame.size() == weights_.size() && frame.allFinite();
  }
  template <bool Human, typename Derived>
  Status append(const Eigen::MatrixBase<Derived>& frame) noexcept {
    if (!valid(frame)) return StatusCode::kInvalidInput;
    Status status;
    for (Eigen::Index x = 0; x < weights_.size(); ++x) {
      const Eigen::Matrix<Scalar, 1, 1> value(static_cast<Scalar>(frame(x)));
      auto& joint = joints_[static_cast<std::size_t>(x)];
      status |= Human ? joint.appendA(value) : joint.appendB(value);
    }
    return status;
  }

  DtwOptions options_;
  VectorX<Scalar> weights_;
  std::vector<IncrementalDtw<Scalar>> joints_;
};

}  // namespace retarget
