#pragma once

/// @file
/// Joint-space smoothness and limit metrics of a robot joint trajectory (beyond the seeds; what
/// dataset users check first): joint velocity, acceleration and jerk (peaks and RMS, by finite
/// differences on the trajectory's own time stamps), velocity-limit violations against
/// `RobotModel::velocityLimits()`, and the joint-limit margin.
///
/// Finite differences are Newton divided differences on the (possibly non-uniform) time grid:
///  - velocity of interval k:      v_k = (q_{k+1} - q_k) / (t_{k+1} - t_k)                (rad/s)
///  - acceleration at frame k+1:   a_k = (v_{k+1} - v_k) / ((t_{k+2} - t_k) / 2)          (rad/s^2)
///  - jerk:                        j_k = (a_{k+1} - a_k) / ((t_{k+3} - t_k) / 3)          (rad/s^3)
/// i.e. 1!, 2! and 3! times the first, second and third divided differences, so each is exact
/// for polynomials of its degree on any time grid (a linear q gives exact v and a = j = 0, a
/// quadratic exact a and j = 0, a cubic exact j). Frames whose time is not strictly after the
/// previous kept frame's (a repeated or backwards time stamp) are dropped before differencing.
///
/// Units are those of the coordinates: rad for revolute joints, m for prismatic ones.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Smoothness and limit figures of one joint trajectory. Per-joint vectors have size nq (robot
/// q order); a derivative with no sample (too few frames) has peak and RMS 0.
struct JointSmoothness {
  /// Frames used (strictly increasing times) and the number of velocity / acceleration / jerk
  /// samples (kept frames - 1, - 2, - 3, never negative).
  int frames = 0;
  int velocity_samples = 0;
  int acceleration_samples = 0;
  int jerk_samples = 0;

  /// Per joint: max |v| (rad/s), RMS of v (rad/s), max |a| (rad/s^2), RMS of a, max |j|
  /// (rad/s^3), RMS of j.
  Eigen::VectorXd velocity_peak, velocity_rms;
  Eigen::VectorXd acceleration_peak, acceleration_rms;
  Eigen::VectorXd jerk_peak, jerk_rms;
  /// Over all joints: the largest per-joint peak, and the RMS over every joint and sample.
  double velocity_peak_max = 0, velocity_rms_all = 0;
  double acceleration_peak_max = 0, acceleration_rms_all = 0;
  double jerk_peak_max = 0, jerk_rms_all = 0;

  /// Per joint: velocity samples with |v| > the joint's velocity limit (never for an unknown,
  /// +inf, limit), and the largest |v| / limit (0 for an unknown limit).
  Eigen::VectorXi velocity_violations;
  Eigen::VectorXd velocity_limit_ratio;
  /// Velocity samples (intervals) in which at least one joint exceeds its limit.
  int velocity_violation_intervals = 0;

  /// Per joint: the smallest distance to the nearest position limit over the frames,
  /// min_k min(q_k - lower, upper - q_k) (rad or m; negative when outside the limits; +inf for a
  /// continuous joint or an empty trajectory). `limit_margin_min` is the smallest over the joints
  /// that move (a joint held at one value through the whole motion, such as NAO's hands, which
  /// GA-LVVJ keeps open at their upper limit, says nothing about how close the motion comes to
  /// the limits); over every joint when none moves. `limit_margin_joints` counts the joints it
  /// is taken over.
  Eigen::VectorXd limit_margin;
  double limit_margin_min = std::numeric_limits<double>::infinity();
  int limit_margin_joints = 0;
};

/// Smoothness and limit metrics of `q` (frames x nq, rad or m, robot q order) sampled at `time`
/// (s, one per row) for `model` (see the file doc for the formulas). Allocates the result (a
/// batch metric, not for the per-frame path). Throws InvalidArgument when `time` and `q` have
/// different frame counts, q has not nq columns, or a value is not finite.
template <typename Scalar, typename Derived>
JointSmoothness jointSmoothness(const RobotModel<Scalar>& model, const std::vector<double>& time,
                                const Eigen::MatrixBase<Derived>& q) {
  const int nq = model.nq();
  RETARGET_THROW_UNLESS(static_cast<Eigen::Index>(time.size()) == q.rows(), InvalidArgument,
                        "time stamps and joint rows (got ", time.size(), " times for ", q.rows(),
                        " rows, expected as many)");
  RETARGET_THROW_UNLESS(q.cols() == nq, InvalidArgument, "joint columns (got ", q.cols(), ", expected nq = ", nq,
                        " of robot '", model.name(), "')");
  RETARGET_THROW_UNLESS(q.allFinite(), InvalidArgument, "joint values (got a non-finite value, expected finite rad)");
  for (std::size_t k = 0; k < time.size(); ++k) {
    RETARGET_THROW_UNLESS(std::isfinite(time[k]), InvalidArgument, "time stamp of frame ", k, " (got ", time[k],
                          ", expected a finite value in s)");
  }
  // Frames with strictly increasing times.
  std::vector<Eigen::Index> kept;
  for (std::size_t k = 0; k < time.size(); ++k) {
    if (kept.empty() || time[k] > time[static_cast<std::size_t>(kept.back())]) kept.push_back(static_cast<Eigen::Index>(k));
  }
  const auto n = static_cast<int>(kept.size());
  JointSmoothness out;
  out.frames = n;
  out.velocity_samples = std::max(0, n - 1);
  out.acceleration_samples = std::max(0, n - 2);
  out.jerk_samples = std::max(0, n - 3);
  out.velocity_peak = out.velocity_rms = Eigen::VectorXd::Zero(nq);
  out.acceleration_peak = out.acceleration_rms = Eigen::VectorXd::Zero(nq);
  out.jerk_peak = out.jerk_rms = Eigen::VectorXd::Zero(nq);
  out.velocity_violations = Eigen::VectorXi::Zero(nq);
  out.velocity_limit_ratio = Eigen::VectorXd::Zero(nq);
  out.limit_margin = Eigen::VectorXd::Constant(nq, std::numeric_limits<double>::infinity());

  const auto t = [&](int k) { return time[static_cast<std::size_t>(kept[static_cast<std::size_t>(k)])]; };
  // v, a, j per joint: samples x nq.
  Eigen::MatrixXd v(out.velocity_samples, nq), a(out.acceleration_samples, nq), j(out.jerk_samples, nq);
  for (int k = 0; k < out.velocity_samples; ++k) {
    v.row(k) = (q.row(kept[static_cast<std::size_t>(k + 1)]) - q.row(kept[static_cast<std::size_t>(k)]))
                   .template cast<double>() /
               (t(k + 1) - t(k));
  }
  for (int k = 0; k < out.acceleration_samples; ++k) a.row(k) = (v.row(k + 1) - v.row(k)) / ((t(k + 2) - t(k)) / 2);
  for (int k = 0; k < out.jerk_samples; ++k) j.row(k) = (a.row(k + 1) - a.row(k)) / ((t(k + 3) - t(k)) / 3);

  const auto summarise = [nq](const Eigen::MatrixXd& d, Eigen::VectorXd& peak, Eigen::VectorXd& rms, double& peak_max,
                              double& rms_all) {
    if (d.rows() == 0) return;
    peak = d.cwiseAbs().colwise().maxCoeff().transpose();
    rms = (d.array().square().colwise().sum() / static_cast<double>(d.rows())).sqrt().transpose();
    peak_max = peak.maxCoeff();
    rms_all = std::sqrt(d.array().square().sum() / static_cast<double>(d.rows() * nq));
  };
  if (nq > 0) {
    summarise(v, out.velocity_peak, out.velocity_rms, out.velocity_peak_max, out.velocity_rms_all);
    summarise(a, out.acceleration_peak, out.acceleration_rms, out.acceleration_peak_max, out.acceleration_rms_all);
    summarise(j, out.jerk_peak, out.jerk_rms, out.jerk_peak_max, out.jerk_rms_all);
  }

  for (int k = 0; k < out.velocity_samples; ++k) {
    bool any = false;
    for (int i = 0; i < nq; ++i) {
      const double limit = static_cast<double>(model.velocityLimits()[i]);
      if (!std::isfinite(limit) || limit <= 0) continue;
      const double speed = std::abs(v(k, i));
      out.velocity_limit_ratio[i] = std::max(out.velocity_limit_ratio[i], speed / limit);
      if (speed > limit) {
        ++out.velocity_violations[i];
        any = true;
      }
    }
    out.velocity_violation_intervals += any ? 1 : 0;
  }
  std::vector<bool> moves(static_cast<std::size_t>(nq), false);
  for (int k = 0; k < n; ++k) {
    for (int i = 0; i < nq; ++i) {
      const double value = static_cast<double>(q(kept[static_cast<std::size_t>(k)], i));
      const double margin = std::min(value - static_cast<double>(model.lowerLimits()[i]),
                                     static_cast<double>(model.upperLimits()[i]) - value);
      out.limit_margin[i] = std::min(out.limit_margin[i], margin);
      if (value != static_cast<double>(q(kept[0], i))) moves[static_cast<std::size_t>(i)] = true;
    }
  }
  // The smallest margin over the joints that move; over all of them when none does.
  const bool any_moves = std::find(moves.begin(), moves.end(), true) != moves.end();
  for (int i = 0; i < nq; ++i) {
    if (any_moves && !moves[static_cast<std::size_t>(i)]) continue;
    out.limit_margin_min = std::min(out.limit_margin_min, out.limit_margin[i]);
    ++out.limit_margin_joints;
  }
  return out;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_METRICS JointSmoothness jointSmoothness<double, MatrixX<double>>(
    const RobotModel<double>&, const std::vector<double>&, const Eigen::MatrixBase<MatrixX<double>>&);
RETARGET_TEMPLATE_METRICS JointSmoothness jointSmoothness<float, MatrixX<float>>(
    const RobotModel<float>&, const std::vector<double>&, const Eigen::MatrixBase<MatrixX<float>>&);
#endif

}  // namespace retarget
