#pragma once

/// @file
/// A survey of a short joint trajectory against the robot's limits, for a person about to send
/// it to the robot: per coordinate of q, where the trajectory starts, the range it covers, how
/// often it sits on a position limit, its fastest step against the velocity limit, and how far
/// its first frame is from the model's neutral configuration (the step a robot standing there
/// would take at once). `retarget live --dry-run` prints it (docs/adapters.md, "Before the robot
/// moves").
///
/// Units are q's: rad for revolute coordinates, m for prismatic ones; speeds per second.
/// Not for the per-frame path: it reads a recorded vector and allocates.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// One coordinate of q over a surveyed trajectory (rad or m; speeds per s).
struct CoordinateSurvey {
  /// Its value in the first frame, and the smallest and largest over the frames.
  double first = 0, min = 0, max = 0;
  /// The model's position limits.
  double lower = 0, upper = 0;
  /// Frames in which it is within `at_limit_tolerance` of a limit (or beyond one).
  int at_limit = 0;
  /// Largest |q_k - q_(k-1)| / (t_k - t_(k-1)) over consecutive frames (0 with one frame;
  /// +inf when a step has no time), and the model's velocity limit (+inf when unknown).
  double largest_speed = 0, velocity_limit = std::numeric_limits<double>::infinity();
  /// |q_0 - neutral|: the first frame's distance from the model's neutral configuration.
  double first_step = 0;
};

/// Surveys the trajectory q[k] at times t[k] (s, not decreasing) on `model`: one entry per
/// coordinate of q, in q order. Throws InvalidArgument when the sizes disagree, q is empty, a
/// value is not finite or time goes back. Allocates.
RETARGET_DECL std::vector<CoordinateSurvey> surveyTrajectory(const RobotModel<double>& model,
                                                             const std::vector<VectorX<double>>& q,
                                                             const std::vector<double>& t,
                                                             double at_limit_tolerance = 1e-6);

#if RETARGET_DEFINE_KINEMATICS
RETARGET_DECL std::vector<CoordinateSurvey> surveyTrajectory(const RobotModel<double>& model,
                                                             const std::vector<VectorX<double>>& q,
                                                             const std::vector<double>& t,
                                                             double at_limit_tolerance) {
  RETARGET_THROW_UNLESS(!q.empty(), InvalidArgument, "no frames");
  RETARGET_THROW_UNLESS(q.size() == t.size(), InvalidArgument, q.size(), " frames but ", t.size(), " times");
  RETARGET_THROW_UNLESS(std::isfinite(at_limit_tolerance) && at_limit_tolerance >= 0, InvalidArgument,
                        "at_limit_tolerance must be finite and >= 0 (got ", at_limit_tolerance, ")");
  const int nq = model.nq();
  for (std::size_t k = 0; k < q.size(); ++k) {
    RETARGET_THROW_UNLESS(q[k].size() == nq, InvalidArgument, "frame ", k, " has ", q[k].size(),
                          " coordinates, robot '", model.name(), "' has ", nq);
    RETARGET_THROW_UNLESS(q[k].allFinite() && std::isfinite(t[k]), InvalidArgument, "frame ", k,
                          " has a value or time that is not finite");
    RETARGET_THROW_UNLESS(k == 0 || t[k] >= t[k - 1], InvalidArgument, "frame ", k, " goes back in time (", t[k],
                          " s after ", t[k - 1], " s)");
  }
  const VectorX<double> neutral = model.neutralConfiguration();
  std::vector<CoordinateSurvey> out(static_cast<std::size_t>(nq));
  for (int i = 0; i < nq; ++i) {
    CoordinateSurvey& c = out[static_cast<std::size_t>(i)];
    c.first = c.min = c.max = q.front()[i];
    c.lower = model.lowerLimits()[i];
    c.upper = model.upperLimits()[i];
    c.velocity_limit = model.velocityLimits()[i];
    c.first_step = std::abs(q.front()[i] - neutral[i]);
    for (std::size_t k = 0; k < q.size(); ++k) {
      const double v = q[k][i];
      c.min = std::min(c.min, v);
      c.max = std::max(c.max, v);
      c.at_limit += (v <= c.lower + at_limit_tolerance || v >= c.upper - at_limit_tolerance) ? 1 : 0;
      if (k == 0) continue;
      const double step = std::abs(v - q[k - 1][i]), dt = t[k] - t[k - 1];
      const double speed = dt > 0 ? step / dt : (step > 0 ? std::numeric_limits<double>::infinity() : 0.0);
      c.largest_speed = std::max(c.largest_speed, speed);
    }
  }
  return out;
}
#endif

}  // namespace retarget
