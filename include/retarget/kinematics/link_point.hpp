#pragma once

/// @file
/// A point fixed on a robot link: what a Cartesian speed limit keeps slow (the hands and elbows
/// of filters/cartesian_speed_limiter.hpp), as the robot's own description gives it (a triangle
/// map's virtual arm, a virtual skeleton's elbows and hands).

#include <string>

#include <Eigen/Core>

namespace retarget {

/// A point fixed on a link: p_L (m) in the frame of link `link`.
struct LinkPoint {
  std::string link;
  Eigen::Vector3d p_L = Eigen::Vector3d::Zero();
};

}  // namespace retarget
