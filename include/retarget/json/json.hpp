#pragma once

/// @file
/// Umbrella of the JSON integration (nlohmann-json; CMake target retarget::json). Not included
/// by retarget/retarget.hpp. One API for every options and map struct (conversion.hpp):
/// `toJson(x)`, `fromJson<T>(json, file)`, `parseJson<T>(text, file)`, `loadJson<T>(path)`,
/// `saveJson(x, path)`, with errors as `ParseError` naming the file, line and JSON pointer.
///
/// Types with a JSON form: EulerMap, EulerJointMapping, EulerCase, EulerOrder, EulerOptions
/// (euler_map.hpp); GaLvvjOptions, GaLvvjMap (ga_lvvj.hpp); VirtualSkeletonMap, VirtualPointSpec,
/// JointCoupling = GaLvvjJointBinding (virtual_skeleton_map.hpp); ExponentialSmoothingOptions, RateLimiterOptions,
/// OneEuroFilterOptions, ConsecutiveFramesOptions (filters.hpp); LocomotionOptions, SupportModeOptions, BalanceOptions,
/// WholeBodyOptions (whole_body.hpp).

#include <retarget/json/conversion.hpp>
#include <retarget/json/euler_map.hpp>
#include <retarget/json/filters.hpp>
#include <retarget/json/ga_lvvj.hpp>
#include <retarget/json/humanoid_binding.hpp>
#include <retarget/json/humanoid_mapper.hpp>
#include <retarget/json/virtual_skeleton_map.hpp>
#include <retarget/json/whole_body.hpp>
