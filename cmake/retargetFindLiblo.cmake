# Defines the imported target liblo::liblo (liblo, the OSC library; Debian liblo-dev) from its
# header and library: liblo installs a pkg-config file but no CMake package. Used by
# retarget::kinect_osc, here and in the installed retargetConfig.cmake; a missing liblo leaves
# the target undefined (and the part out, with its STATUS message).
include_guard(GLOBAL)

# CMAKE_DISABLE_FIND_PACKAGE_liblo (the package tests hide dependencies with it) turns the
# search off.
if(NOT TARGET liblo::liblo AND NOT CMAKE_DISABLE_FIND_PACKAGE_liblo)
  find_path(RETARGET_LIBLO_INCLUDE_DIR NAMES lo/lo.h DOC "Directory holding lo/lo.h (liblo, for retarget::kinect_osc)")
  find_library(RETARGET_LIBLO_LIBRARY NAMES lo DOC "The liblo library (for retarget::kinect_osc)")
  mark_as_advanced(RETARGET_LIBLO_INCLUDE_DIR RETARGET_LIBLO_LIBRARY)
  if(RETARGET_LIBLO_INCLUDE_DIR AND RETARGET_LIBLO_LIBRARY)
    add_library(liblo::liblo UNKNOWN IMPORTED)
    set_target_properties(liblo::liblo PROPERTIES IMPORTED_LOCATION "${RETARGET_LIBLO_LIBRARY}"
                                                  INTERFACE_INCLUDE_DIRECTORIES "${RETARGET_LIBLO_INCLUDE_DIR}")
  endif()
endif()
