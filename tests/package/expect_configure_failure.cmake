# cmake -DSOURCE=<consumer dir> -DBINARY=<dir> -DGENERATOR=<generator> -DPREFIX=<install prefix>
#       [-DHIDE=<initial cache>] -DCOMPONENTS=<a,b> -DEXPECT=<regex> -P expect_configure_failure.cmake
# Configures the consumer asking find_package(retarget REQUIRED COMPONENTS ...) and passes only
# when the configure fails with an error message matching EXPECT.
foreach(_var SOURCE BINARY GENERATOR PREFIX COMPONENTS EXPECT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "expect_configure_failure.cmake: ${_var} is not set")
  endif()
endforeach()
set(_args -DCMAKE_PREFIX_PATH=${PREFIX} -DRETARGET_CONSUMER_COMPONENTS=${COMPONENTS})
if(HIDE)
  list(PREPEND _args -C ${HIDE})
endif()
file(REMOVE_RECURSE "${BINARY}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" ${_args} -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
  RESULT_VARIABLE _result OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
message("${_out}")
if(_result EQUAL 0)
  message(FATAL_ERROR "configure succeeded; expected it to fail with a message matching: ${EXPECT}")
endif()
# Messages are wrapped at the terminal width: match on the text with line breaks as spaces.
string(REGEX REPLACE "[ \t\r\n]+" " " _flat "${_out}")
if(NOT _flat MATCHES "${EXPECT}")
  message(FATAL_ERROR "configure failed, but not with a message matching: ${EXPECT}")
endif()
message(STATUS "configure failed as expected (${EXPECT})")
