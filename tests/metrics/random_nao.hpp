#pragma once

// A random NAO configuration for the metrics tests, shared by the similarity and position-error
// cases.

#include <random>

#include <retarget/kinematics/robot_model.hpp>

namespace retarget::test {

/// Uniform within NAO's limits, hip yaw-pitch 0 (the virtual skeleton's torso frames then coincide
/// with NAO's torso frame).
inline Eigen::VectorXd randomNao(const RobotModel<double>& nao, std::mt19937& rng) {
  Eigen::VectorXd q(nao.nq());
  for (int i = 0; i < nao.nq(); ++i) {
    q[i] = std::uniform_real_distribution<double>(nao.lowerLimits()[i], nao.upperLimits()[i])(rng);
  }
  q[nao.qIndex("LHipYawPitch")] = 0.0;
  return q;
}

}  // namespace retarget::test
