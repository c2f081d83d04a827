# cmake -DSOURCE=<retarget source> -DBINARY=<dir> -DGENERATOR=<generator> -DHIDE=<initial cache>
#       [-DBUILD_TYPE=<config>] [-DTARGETS=<a,b>] [-DPARTS=<hidden parts a,b>]
#       -P configure_without_optional.cmake
# retarget itself on a machine without its optional dependencies: configures with tests, command
# line and examples on, checks that everything needing urdf/json is skipped with a STATUS
# message (not a configure error), then builds TARGETS with warnings as errors.
foreach(_var SOURCE BINARY GENERATOR HIDE)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "configure_without_optional.cmake: ${_var} is not set")
  endif()
endforeach()
if(NOT BUILD_TYPE)
  set(BUILD_TYPE Release)
endif()
file(REMOVE_RECURSE "${BINARY}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -C "${HIDE}" -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
          -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DRETARGET_BUILD_TESTS=ON -DRETARGET_BUILD_CLI=ON
          -DRETARGET_BUILD_EXAMPLES=ON -DRETARGET_BUILD_BENCHMARKS=OFF
          -DRETARGET_WARNINGS_AS_ERRORS=ON -DRETARGET_REQUIRE_ALL=OFF
          -DRETARGET_BUILD_COMPILED=OFF
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
message("${_out}")
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "retarget does not configure without its optional dependencies")
endif()
string(REPLACE "," ";" _parts "${PARTS}")
foreach(_part IN LISTS _parts)
  if(NOT _out MATCHES "retarget::${_part} is not available")
    message(FATAL_ERROR "configure output lacks the STATUS message 'retarget::${_part} is not available'")
  endif()
endforeach()
foreach(_expected
    "retarget::urdf is not available"
    "retarget::json is not available"
    "the command line \\(apps/retarget\\) is skipped"
    "test area robots is skipped"
    "test area ga_lvvj is skipped"
    "test area euler is skipped"
    "test area cli is skipped")
  if(NOT _out MATCHES "${_expected}")
    message(FATAL_ERROR "configure output lacks the STATUS message '${_expected}'")
  endif()
endforeach()
if(_out MATCHES "CMake Warning")
  message(FATAL_ERROR "configure without the optional dependencies prints a CMake warning")
endif()
if(TARGETS)
  string(REPLACE "," ";" _targets "${TARGETS}")
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY}" --target ${_targets} --config ${BUILD_TYPE}
                  RESULT_VARIABLE _result)
  if(NOT _result EQUAL 0)
    message(FATAL_ERROR "building ${TARGETS} without the optional dependencies failed")
  endif()
endif()
