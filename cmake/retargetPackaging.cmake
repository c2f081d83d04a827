# Packaging beyond the CMake package (included by the top-level CMakeLists.txt when
# RETARGET_INSTALL is on, after the optional parts are declared):
#   - retarget.pc and one retarget-<part>.pc per available optional part (pkg-config), in
#     <datadir>/pkgconfig (header-only: architecture-independent), relocatable (${pcfiledir});
#   - the licence in <docdir> (share/doc/retarget/LICENSE);
#   - CPack: `cpack -G DEB` in the build tree makes retarget_<version>_all.deb or _<arch>.deb
#     (headers, CMake package, pkg-config files, licence and, when built, the `retarget` command
#     line) with Debian dependencies (docs/packaging.md).
# All of it goes to install component retarget_development, except the command line
# (retarget_cli, apps/retarget/CMakeLists.txt).
include_guard(GLOBAL)

# The pkg-config module name of each optional part's dependency.
set(_retarget_pc_requires_urdf "tinyxml2")
set(_retarget_pc_requires_json "nlohmann_json >= 3")
set(_retarget_pc_requires_avoidance "nlopt")
set(_retarget_pc_requires_learning "eigen3")  # LBFGSpp has no pkg-config module (header-only)
set(_retarget_pc_requires_kinect_osc "liblo")
set(_retarget_pc_requires_noitom "eigen3")  # asio has no pkg-config module (header-only)
set(_retarget_pc_requires_nao "eigen3")     # same

set(_retarget_pc_dir "${CMAKE_INSTALL_DATADIR}/pkgconfig")
if(IS_ABSOLUTE "${_retarget_pc_dir}")
  set(RETARGET_PC_TO_PREFIX "")
  file(RELATIVE_PATH RETARGET_PC_TO_PREFIX "${_retarget_pc_dir}" "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH RETARGET_PC_TO_PREFIX "/prefix/${_retarget_pc_dir}" "/prefix")
endif()
get_property(_retarget_pc_available GLOBAL PROPERTY RETARGET_AVAILABLE_PARTS)
set(RETARGET_PC_PARTS "")
foreach(_part IN LISTS _retarget_pc_available)
  if(NOT DEFINED _retarget_pc_requires_${_part})
    message(FATAL_ERROR "cmake/retargetPackaging.cmake: no pkg-config module known for retarget::${_part}")
  endif()
  set(RETARGET_PC_PART ${_part})
  set(RETARGET_PC_REQUIRES "${_retarget_pc_requires_${_part}}")
  configure_file(${CMAKE_CURRENT_LIST_DIR}/retarget-part.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/retarget-${_part}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/retarget-${_part}.pc DESTINATION ${_retarget_pc_dir}
          COMPONENT retarget_development)
  list(APPEND RETARGET_PC_PARTS retarget-${_part})
endforeach()
string(REPLACE ";" ", " RETARGET_PC_PARTS "${RETARGET_PC_PARTS}")
if(NOT RETARGET_PC_PARTS)
  set(RETARGET_PC_PARTS "none in this installation")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/retarget.pc.in ${PROJECT_BINARY_DIR}/pkgconfig/retarget.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pkgconfig/retarget.pc DESTINATION ${_retarget_pc_dir}
        COMPONENT retarget_development)
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR} COMPONENT retarget_development)

# CPack (only for the top-level project: a parent project keeps its own packaging).
if(RETARGET_IS_TOP_LEVEL)
  set(CPACK_PACKAGE_NAME retarget)
  set(CPACK_PACKAGE_VENDOR "retarget")
  set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
  set(CPACK_PACKAGE_DESCRIPTION
      "Header-only C++17 library (Eigen) that maps human motion onto humanoid robots and measures the imitation, with its CMake package, pkg-config files and the retarget command line.")
  set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
  set(RETARGET_PACKAGE_CONTACT "retarget maintainers <maintainers@retarget.invalid>" CACHE STRING
      "Maintainer of the packages made by cpack (Debian Maintainer field)")
  set(CPACK_PACKAGE_CONTACT "${RETARGET_PACKAGE_CONTACT}")
  set(CPACK_PACKAGE_DIRECTORY ${PROJECT_BINARY_DIR}/packages)
  set(CPACK_STRIP_FILES ON)
  # The package holds the library and the command line; the Python module (component
  # retarget_python, docs/python.md) installs into a prefix's site-packages, which is not where
  # Debian's interpreter looks, so it is left out.
  set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};retarget;retarget_development;/"
                                   "${PROJECT_BINARY_DIR};retarget;retarget_cli;/")
  set(CPACK_SOURCE_IGNORE_FILES "/build/" "/\\\\.git/" "/\\\\.cache/")
  # Debian: the library needs Eigen's headers; the optional parts' dependencies are
  # recommended (a consumer needs them only for retarget::urdf / json / avoidance); the command
  # line's shared libraries (tinyxml2, NLopt, liblo, libstdc++) come from dpkg-shlibdeps when it is
  # installed (package dpkg-dev), else from the fallback list below (Debian 12 names).
  set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
  set(CPACK_DEBIAN_PACKAGE_SECTION libdevel)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "libeigen3-dev (>= 3.4)")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libtinyxml2-dev, nlohmann-json3-dev (>= 3), libnlopt-dev, liblo-dev, libasio-dev, pkg-config | pkgconf")
  if(TARGET retarget_cli)
    find_program(RETARGET_DPKG_SHLIBDEPS dpkg-shlibdeps)
    mark_as_advanced(RETARGET_DPKG_SHLIBDEPS)
    if(RETARGET_DPKG_SHLIBDEPS)
      set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
    else()
      string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libc6, libstdc++6, libtinyxml2-9")
      if(TARGET retarget::avoidance)
        string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libnlopt0")
      endif()
      if(TARGET retarget::kinect_osc)  # `retarget live --source kinect-osc`
        string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", liblo7")
      endif()
    endif()
  else()
    # Headers only: one package for every architecture.
    set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE all)
  endif()
  include(CPack)
endif()
