# cmake -DBUILD_DIR=<retarget build> -DPREFIX=<dir> -DSOURCE_DIR=<retarget source>
#       -DINCLUDEDIR=<relative include dir> -P install.cmake
# A clean install of the library (headers + CMake package, install component
# retarget_development) into PREFIX: no stale file from an earlier configuration survives.
# Then the installed headers must be exactly the source tree's, file for file and byte for byte
# (the consumers compile a few of them; this covers all, without compiling the umbrella again).
foreach(_var BUILD_DIR PREFIX SOURCE_DIR INCLUDEDIR)
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

file(GLOB_RECURSE _source_headers LIST_DIRECTORIES false RELATIVE "${SOURCE_DIR}/include" "${SOURCE_DIR}/include/*")
file(GLOB_RECURSE _installed_headers LIST_DIRECTORIES false RELATIVE "${PREFIX}/${INCLUDEDIR}" "${PREFIX}/${INCLUDEDIR}/*")
list(SORT _source_headers)
list(SORT _installed_headers)
if(NOT _source_headers STREQUAL _installed_headers)
  set(_missing ${_source_headers})
  list(REMOVE_ITEM _missing ${_installed_headers})
  set(_extra ${_installed_headers})
  list(REMOVE_ITEM _extra ${_source_headers})
  message(FATAL_ERROR "install.cmake: the installed headers in ${PREFIX}/${INCLUDEDIR} differ from ${SOURCE_DIR}/include: "
                      "missing [${_missing}], extra [${_extra}]")
endif()
foreach(_header IN LISTS _source_headers)
  file(SHA256 "${SOURCE_DIR}/include/${_header}" _expected)
  file(SHA256 "${PREFIX}/${INCLUDEDIR}/${_header}" _got)
  if(NOT _expected STREQUAL _got)
    message(FATAL_ERROR "install.cmake: ${PREFIX}/${INCLUDEDIR}/${_header} differs from ${SOURCE_DIR}/include/${_header}")
  endif()
endforeach()
list(LENGTH _source_headers _count)
message(STATUS "install.cmake: ${_count} headers installed, identical to the source tree's")
