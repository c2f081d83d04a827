#pragma once

/// @file
/// Umbrella header: everything in retarget that needs Eigen alone. Optional parts (URDF,
/// JSON configuration, device adapters) have their own headers and CMake targets.

#include <retarget/version.hpp>
#include <retarget/fwd.hpp>

#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>

#include <retarget/geometry/capsule.hpp>

#include <retarget/kinematics/denavit_hartenberg.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>

#include <retarget/human/skeleton.hpp>
