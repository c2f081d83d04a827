# Lists the test cases the test binaries skipped (files written by support/main.cpp into DIR).
# Prints "N test cases skipped ..." when there are any; ctest then reports this test as Skipped
# (SKIP_REGULAR_EXPRESSION in tests/CMakeLists.txt), so skips show in the ctest summary.
file(GLOB _reports "${DIR}/*.txt")
set(_total 0)
set(_text "")
foreach(_report IN LISTS _reports)
  file(READ ${_report} _content)
  string(APPEND _text "${_content}")
  if(_content MATCHES ": ([0-9]+) of [0-9]+ test cases skipped")
    math(EXPR _total "${_total} + ${CMAKE_MATCH_1}")
  endif()
endforeach()
if(_total GREATER 0)
  message("${_text}retarget: ${_total} test cases skipped in total (missing data or tools, listed above; "
          "RETARGET_REQUIRE_ALL=1 makes this a failure)")
else()
  message("retarget: no test case skipped")
endif()
