# Initial cache (cmake -C <this file>) that makes the optional dependencies of retarget
# unfindable, as on a machine with Eigen only: tinyxml2 (retarget::urdf) and nlohmann_json
# (retarget::json). Used by the package tests for the library build and for consumers.
#
# CMAKE_DISABLE_FIND_PACKAGE_<Pkg> turns every find_package(<Pkg>) into "not found"
# (including the quiet ones in retargetConfig.cmake); it works with any CMake and on any
# layout. Alternatives checked with CMake 3.25 on Debian 12:
# - CMAKE_IGNORE_PATH on the config directories also works, but must list each directory
#   under every prefix CMake searches: on a merged-/usr system tinyxml2 is still found through
#   /lib/x86_64-linux-gnu/cmake/tinyxml2 when only /usr/lib/... is ignored;
# - CMAKE_IGNORE_PREFIX_PATH=/usr hides Eigen too, so it cannot hide these two alone.
set(CMAKE_DISABLE_FIND_PACKAGE_tinyxml2 ON CACHE BOOL "retarget package tests: hide tinyxml2")
set(CMAKE_DISABLE_FIND_PACKAGE_nlohmann_json ON CACHE BOOL "retarget package tests: hide nlohmann_json")
