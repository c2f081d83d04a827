# cmake -DBUILD_DIR=<retarget build> -DPREFIX=<dir> -P install.cmake
# A clean install of the library (headers + CMake package, install component
# retarget_development) into PREFIX: no stale file from an earlier configuration survives.
foreach(_var BUILD_DIR PREFIX)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "install.cmake: ${_var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${PREFIX}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" --component retarget_development
  RESULT_VARIABLE _result)
if(NOT _result EQUAL 0)
  message(FATAL_ERROR "install.cmake: cmake --install failed (${_result})")
endif()
