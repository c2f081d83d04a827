#pragma once

/// @file
/// Version of the retarget library. Hand-written; CMake parses these three lines.

#define RETARGET_VERSION_MAJOR 0
#define RETARGET_VERSION_MINOR 1
#define RETARGET_VERSION_PATCH 0

#define RETARGET_VERSION_STRING "0.1.0"

namespace retarget {

/// Library version as "major.minor.patch".
inline constexpr const char* kVersionString = RETARGET_VERSION_STRING;

}  // namespace retarget
