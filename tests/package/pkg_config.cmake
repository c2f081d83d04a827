# cmake -DPKG_CONFIG=<pkg-config> -DPC_DIR=<dir holding retarget.pc> -DCONSUMER=<consumer dir>
#       -DCXX=<c++ compiler> -DBINARY=<scratch dir> -DVERSION=<x.y.z> [-DPARTS=<urdf,json>]
#       [-DCLI=<retarget program to run with --version>] -P pkg_config.cmake
# The pkg-config route: retarget.pc reports VERSION, and consumer/main.cpp compiles with
# `$(pkg-config --cflags retarget)` and nothing else, then runs; each optional part in PARTS
# compiles consumer/<part>.cpp with `$(pkg-config --cflags --libs retarget-<part>)` and runs it.
# Also used by the Debian package test (deb.cmake) on the unpacked package.
foreach(_var PKG_CONFIG PC_DIR CONSUMER CXX BINARY VERSION)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "pkg_config.cmake: ${_var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${BINARY}")
file(MAKE_DIRECTORY "${BINARY}")
# Only this directory: nothing else named retarget can answer.
set(ENV{PKG_CONFIG_PATH} "${PC_DIR}")

function(pkg_config out)
  execute_process(COMMAND "${PKG_CONFIG}" ${ARGN} RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _err
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "pkg-config ${ARGN} failed (PKG_CONFIG_PATH=${PC_DIR}): ${_err}")
  endif()
  message(STATUS "pkg-config ${ARGN}: ${_out}")
  separate_arguments(_out UNIX_COMMAND "${_out}")
  set(${out} "${_out}" PARENT_SCOPE)
endfunction()

function(compile_and_run name source)
  execute_process(COMMAND "${CXX}" "${source}" ${ARGN} -o "${BINARY}/${name}"
                  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "${CXX} ${source} ${ARGN} failed:\n${_out}")
  endif()
  execute_process(COMMAND "${BINARY}/${name}" RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  message(STATUS "${name}: ${_out}")
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${_result})")
  endif()
endfunction()

pkg_config(_version --modversion retarget)
if(NOT _version STREQUAL VERSION)
  message(FATAL_ERROR "pkg-config --modversion retarget is '${_version}', expected '${VERSION}'")
endif()
pkg_config(_cflags --cflags retarget)
# The headers' version (version.hpp) must be the package's: main.cpp checks it.
compile_and_run(consumer_pc "${CONSUMER}/main.cpp" ${_cflags} "-DRETARGET_CONSUMER_EXPECT_VERSION=\"${VERSION}\"")

string(REPLACE "," ";" _parts "${PARTS}")
foreach(_part IN LISTS _parts)
  pkg_config(_flags --cflags --libs retarget-${_part})
  compile_and_run(consumer_pc_${_part} "${CONSUMER}/${_part}.cpp" ${_flags})
endforeach()

if(CLI)
  execute_process(COMMAND "${CLI}" --version RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _result EQUAL 0 OR NOT _out STREQUAL "retarget ${VERSION}")
    message(FATAL_ERROR "'${CLI} --version' printed '${_out}' (exit ${_result}), expected 'retarget ${VERSION}'")
  endif()
  message(STATUS "${CLI} --version: ${_out}")
endif()
