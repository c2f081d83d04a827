# cmake -DBUILD_DIR=<retarget build> -DBINARY=<scratch dir> -DGENERATOR=<generator>
#       -DCONSUMER=<consumer dir> -DCXX=<c++> -DVERSION=<x.y.z> [-DPKG_CONFIG=<pkg-config>]
#       [-DPARTS=<urdf,json>] [-DWITH_CLI=ON] -P deb.cmake
# The Debian package: `cpack -G DEB` in the build tree, the .deb checked (dpkg-deb --info: name,
# version, Depends naming libeigen3-dev) and unpacked with `dpkg-deb -x` into a scratch root
# (no root rights needed, nothing installed on the machine); then, against that root only: the
# consumer project with find_package(retarget <VERSION> EXACT) (CMAKE_PREFIX_PATH=<root>/usr),
# the pkg-config route (pkg_config.cmake), and the packaged `retarget --version`.
foreach(_var BUILD_DIR BINARY GENERATOR CONSUMER CXX VERSION)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "deb.cmake: ${_var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${BINARY}")
file(MAKE_DIRECTORY "${BINARY}")
get_filename_component(_cmake_bin "${CMAKE_COMMAND}" DIRECTORY)
find_program(_cpack cpack HINTS "${_cmake_bin}" NO_DEFAULT_PATH)
find_program(_cpack cpack)
find_program(_dpkg_deb dpkg-deb)
if(NOT _cpack OR NOT _dpkg_deb)
  message(FATAL_ERROR "deb.cmake needs cpack and dpkg-deb (got '${_cpack}', '${_dpkg_deb}')")
endif()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "failed (${_result}): ${ARGN}\n${_out}")
  endif()
  set(_run_out "${_out}" PARENT_SCOPE)
endfunction()

run("${_cpack}" -G DEB --config "${BUILD_DIR}/CPackConfig.cmake" -B "${BINARY}/packages")
file(GLOB _debs "${BINARY}/packages/*.deb")
list(LENGTH _debs _count)
if(NOT _count EQUAL 1)
  message(FATAL_ERROR "cpack -G DEB made ${_count} packages (${_debs}), expected one")
endif()
message(STATUS "package: ${_debs}")

run("${_dpkg_deb}" --field "${_debs}" Package Version Depends Architecture)
message(STATUS "${_run_out}")
foreach(_expected "Package: retarget" "Version: ${VERSION}" "Depends: [^\n]*libeigen3-dev \\(>= 3\\.4\\)")
  if(NOT _run_out MATCHES "${_expected}")
    message(FATAL_ERROR "the package's control fields lack '${_expected}'")
  endif()
endforeach()

set(_root "${BINARY}/root")
run("${_dpkg_deb}" -x "${_debs}" "${_root}")
set(_usr "${_root}/usr")
foreach(_file include/retarget/retarget.hpp include/retarget/version.hpp share/cmake/retarget/retargetConfig.cmake
              share/cmake/retarget/retargetConfigVersion.cmake share/pkgconfig/retarget.pc share/doc/retarget/LICENSE)
  if(NOT EXISTS "${_usr}/${_file}")
    message(FATAL_ERROR "the package lacks /usr/${_file}")
  endif()
endforeach()
if(WITH_CLI AND NOT EXISTS "${_usr}/bin/retarget")
  message(FATAL_ERROR "the package lacks /usr/bin/retarget")
endif()
# The program embeds the report's libraries: their licences go with it (docs/report.md).
foreach(_package libjs-three libjs-dygraphs)
  if(WITH_CLI AND NOT EXISTS "${_usr}/share/doc/retarget/report-libraries/${_package}.copyright")
    message(FATAL_ERROR "the package lacks the licence of ${_package}, whose files /usr/bin/retarget embeds")
  endif()
endforeach()

# find_package against the unpacked package only.
run("${CMAKE_CTEST_COMMAND}" --build-and-test "${CONSUMER}" "${BINARY}/consumer"
    --build-generator "${GENERATOR}" --build-config Debug
    --build-options -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_PREFIX_PATH=${_usr}" -DRETARGET_CONSUMER_EXPECT_VERSION=${VERSION}
                    -DRETARGET_CONSUMER_COMPONENTS=${PARTS}
    --test-command "${CMAKE_CTEST_COMMAND}" --output-on-failure -C Debug)
if(NOT _run_out MATCHES "retarget_DIR|consumer")
  message(STATUS "${_run_out}")
endif()
file(STRINGS "${BINARY}/consumer/CMakeCache.txt" _dir REGEX "^retarget_DIR:")
if(NOT _dir MATCHES "^retarget_DIR:PATH=${_usr}/")
  message(FATAL_ERROR "the consumer found retarget elsewhere: ${_dir}")
endif()
message(STATUS "find_package(retarget ${VERSION} EXACT) from the package: ${_dir}")

if(PKG_CONFIG)
  set(_cli "")
  if(WITH_CLI)
    set(_cli "-DCLI=${_usr}/bin/retarget")
  endif()
  run("${CMAKE_COMMAND}" -DPKG_CONFIG=${PKG_CONFIG} "-DPC_DIR=${_usr}/share/pkgconfig" "-DCONSUMER=${CONSUMER}"
      "-DCXX=${CXX}" "-DBINARY=${BINARY}/pkg-config" -DVERSION=${VERSION} -DPARTS=${PARTS} ${_cli}
      -P "${CMAKE_CURRENT_LIST_DIR}/pkg_config.cmake")
  message(STATUS "${_run_out}")
endif()
