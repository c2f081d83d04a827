#pragma once

/// @file
/// Version of the retarget library: the one place it is written. Hand-written; CMake parses the
/// three RETARGET_VERSION_* lines (project(VERSION), the CMake package version file, retarget.pc,
/// the Debian package), the Conan recipe reads them too, and `retarget --version` prints
/// kVersionString. tests/package checks that all of these agree.

#define RETARGET_VERSION_MAJOR 0
#define RETARGET_VERSION_MINOR 1
#define RETARGET_VERSION_PATCH 0

#define RETARGET_VERSION_STRINGIFY_IMPL(x) #x
#define RETARGET_VERSION_STRINGIFY(x) RETARGET_VERSION_STRINGIFY_IMPL(x)
/// "major.minor.patch", built from the three numbers above.
#define RETARGET_VERSION_STRING                          \
  RETARGET_VERSION_STRINGIFY(RETARGET_VERSION_MAJOR) "." \
  RETARGET_VERSION_STRINGIFY(RETARGET_VERSION_MINOR) "." \
  RETARGET_VERSION_STRINGIFY(RETARGET_VERSION_PATCH)

namespace retarget {

/// Library version as "major.minor.patch".
inline constexpr const char* kVersionString = RETARGET_VERSION_STRING;

}  // namespace retarget
