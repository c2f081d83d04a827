# cmake -DSOURCE=<retarget source> -DBINARY=<dir> -DGENERATOR=<generator> -DHIDE=<initial cache>
#       -DPARTS=<hidden parts a,b> -P require_all.cmake
# RETARGET_REQUIRE_ALL turns every "left out because X is missing" into a configure error:
# configuring retarget with the optional dependencies hidden must fail naming every missing part
# and the command line; with scikit-learn's Python made unfindable, naming the GMM cross-check.
foreach(_var SOURCE BINARY GENERATOR HIDE PARTS)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "require_all.cmake: ${_var} is not set")
  endif()
endforeach()
# configure(<variable> <extra arguments...>): the output of a configure that must fail.
function(configure_must_fail variable)
  file(REMOVE_RECURSE "${BINARY}")
  execute_process(
    COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
            -DRETARGET_REQUIRE_ALL=ON -DRETARGET_BUILD_TESTS=ON -DRETARGET_BUILD_CLI=ON
            -DRETARGET_BUILD_EXAMPLES=ON -DRETARGET_BUILD_BENCHMARKS=OFF ${ARGN}
    RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  file(REMOVE_RECURSE "${BINARY}")
  if(_result EQUAL 0)
    message("${_out}")
    message(FATAL_ERROR "configure with RETARGET_REQUIRE_ALL and ${ARGN} succeeded")
  endif()
  set(${variable} "${_out}" PARENT_SCOPE)
endfunction()

# expect_named(<output> <messages...>): each message stands in a CMake error of the output.
function(expect_named output)
  foreach(_message IN LISTS ARGN)
    if(NOT output MATCHES "CMake Error[^\n]*\n[^\n]*retarget: ${_message}")
      message("${output}")
      message(FATAL_ERROR "configure with RETARGET_REQUIRE_ALL did not fail naming '${_message}'")
    endif()
  endforeach()
endfunction()

# 1. Every optional dependency hidden: each part and the command line are named.
configure_must_fail(_out -C "${HIDE}")
string(REPLACE "," ";" _parts "${PARTS}")
set(_expected "the command line \\(apps/retarget\\) is skipped")
foreach(_part IN LISTS _parts)
  list(APPEND _expected "retarget::${_part} is not available")
endforeach()
expect_named("${_out}" ${_expected})
# 2. Everything there but scikit-learn's Python: the GMM cross-check is named.
configure_must_fail(_out "-DRETARGET_SKLEARN_PYTHON_CANDIDATES=${CMAKE_CURRENT_LIST_DIR}/no_such_python")
expect_named("${_out}" "the scikit-learn GMM cross-check is skipped")
list(LENGTH _expected _count)
message(STATUS "both configures failed as expected, naming the ${_count} missing parts and the GMM cross-check")
