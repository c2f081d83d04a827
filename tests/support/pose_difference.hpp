#pragma once

// Comparing two forward-kinematics results link by link (tests/core and tests/robots).

#include <algorithm>
#include <limits>

#include <retarget/kinematics/robot_data.hpp>

namespace retarget::test {

/// Largest difference over all link poses X_WL (full 4x4 matrices) of `a` and the reference `b`,
/// relative to max(1, the largest entry of the reference pose): rotations and translations of up
/// to 1 m absolutely, longer translations (prismatic joints at thousands of metres) relatively.
/// Infinite when either has a non-finite entry (so that std::max over frames keeps it and every
/// `< tolerance` check fails).
template <typename Scalar>
double worstPoseDifference(const RobotData<Scalar>& a, const RobotData<Scalar>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.X_WL.size(); ++i) {
    const Eigen::Matrix4d A = a.X_WL[i].matrix().template cast<double>();
    const Eigen::Matrix4d B = b.X_WL[i].matrix().template cast<double>();
    if (!A.allFinite() || !B.allFinite()) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, (A - B).cwiseAbs().maxCoeff() / std::max(1.0, B.cwiseAbs().maxCoeff()));
  }
  return worst;
}

}  // namespace retarget::test
