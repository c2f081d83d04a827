# Provides the target `lbfgspp` (LBFGSpp, header-only L-BFGS on Eigen) for retarget::learning.
# LBFGSpp's own CMake package (lbfgspp-config.cmake, target `lbfgspp`) is used when installed;
# the Debian package liblbfgspp-dev ships only the headers (/usr/include/LBFGS.h and
# /usr/include/LBFGSpp/), so otherwise an IMPORTED INTERFACE target of the same name is made
# from the header's directory. Nothing is defined when neither is found (retarget::learning is
# then left out by retarget_add_optional_target with its STATUS message).
include_guard(GLOBAL)

if(NOT TARGET lbfgspp)
  find_package(lbfgspp CONFIG QUIET)
endif()
# CMAKE_DISABLE_FIND_PACKAGE_lbfgspp (used by the package tests to hide the dependency) also
# turns off the header search.
if(NOT TARGET lbfgspp AND NOT CMAKE_DISABLE_FIND_PACKAGE_lbfgspp)
  find_path(RETARGET_LBFGSPP_INCLUDE_DIR NAMES LBFGSpp/Param.h
            DOC "Directory holding LBFGSpp/Param.h (LBFGSpp, for retarget::learning)")
  mark_as_advanced(RETARGET_LBFGSPP_INCLUDE_DIR)
  if(RETARGET_LBFGSPP_INCLUDE_DIR)
    add_library(lbfgspp INTERFACE IMPORTED)
    set_target_properties(lbfgspp PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${RETARGET_LBFGSPP_INCLUDE_DIR}"
                                             INTERFACE_LINK_LIBRARIES Eigen3::Eigen)
  endif()
endif()
