#pragma once

/// @file
/// Forward declarations and double-precision aliases of the main retarget types.

namespace retarget {

template <typename Scalar> class RobotModel;
template <typename Scalar> struct RobotData;
template <typename Scalar> class RobotModelBuilder;
template <typename Scalar> struct Sphere;
template <typename Scalar> struct Capsule;
template <typename Scalar> struct SkeletonFrame;

using RobotModeld = RobotModel<double>;
using RobotDatad = RobotData<double>;
using Sphered = Sphere<double>;
using Capsuled = Capsule<double>;

}  // namespace retarget
