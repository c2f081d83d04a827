#pragma once

// A uniform random configuration of a robot within its joint limits, for the sweeps of many
// areas (the KDL and MuJoCo references, the safety checks, the robot-meaning checks).

#include <cmath>
#include <random>

#include <retarget/core/types.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget::test {

/// Uniform random configuration within the limits (rad or m; unbounded joints: [-pi, pi]).
template <typename Rng>
VectorX<double> randomConfiguration(const RobotModel<double>& model, Rng& rng) {
  VectorX<double> q(model.nq());
  for (int i = 0; i < model.nq(); ++i) {
    double lo = model.lowerLimits()[i];
    double hi = model.upperLimits()[i];
    if (!std::isfinite(lo)) lo = -kPi<double>;
    if (!std::isfinite(hi)) hi = kPi<double>;
    q[i] = std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  return q;
}

}  // namespace retarget::test
