# The layering of the library's headers (shared/design/ARCHITECTURE.md, "Layers"; docs/architecture.md
# gives the same table): every `#include <retarget/<folder>/...>` in a public header under
# include/retarget/ must go to a folder its layer may use. Run as a CMake script:
#
#   cmake [-DROOT=<tree>] [-DEXCEPTIONS=<list>] -P layering_check.cmake
#
# ROOT defaults to the source tree (this file's ../..); the test fixture passes a small tree of its
# own, and exceptions of its own in place of the list below. Every include that breaks the table is reported as "<file>:<line>: <layer> includes
# <folder>/... (<layer> may use: ...)", and so is an exception below that no longer occurs (a stale
# exception would hide the next breach), then the script fails with the count.
#
# The table. A header's layer is its folder under include/retarget/ (an internal/ subfolder is its
# folder's layer). "core" is the core row of ARCHITECTURE.md: core/, kinematics/, geometry/ and the
# filters it lists as core. Each layer may use the ones listed, and itself.
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST)
set(_core core kinematics geometry filters)
set(_may_core ${_core})
set(_may_kinematics ${_core})
set(_may_geometry ${_core})
set(_may_filters ${_core})
set(_may_human ${_core})
# The robots layer reads the canonical joint vocabulary of the human side (the list's order
# allows it: human sits above robots), for the virtual skeleton and the arm chains.
set(_may_robots ${_core} human)
# io also reads and writes the learned models' files (io/gpdm_model.hpp).
set(_may_io ${_core} human robots learning)
set(_may_learning ${_core})
# GPDM-PF is a particle filter in a learned latent space: the mappers use learning's models.
set(_may_mappers ${_core} human robots learning)
set(_may_safety ${_core} robots)
# Never a mapper: control and metrics compose after any mapper and read the robot layer.
set(_may_control ${_core} human robots safety)
set(_may_metrics ${_core} human robots safety)
set(_may_adapters ${_core} human robots io)
set(_may_json ${_core} human robots io learning mappers safety control metrics)
# The application layer (what the command line and Python share): anything, json included.
set(_may_app ${_core} human robots io learning mappers safety control metrics json)
set(_layers core kinematics geometry filters human robots io learning mappers safety control metrics adapters json app)

# Exceptions: "<header>|<included header>|<why>" (no semicolon in <why>), each one include that breaks the table on
# purpose until the work named lands. The check fails when one no longer occurs. None today: the
# last (control/whole_body.hpp owning a GA-LVVJ mapper) went with whole body after any mapper.
set(_exceptions "")
if(DEFINED EXCEPTIONS)
  set(_exceptions "${EXCEPTIONS}")
endif()

if(NOT DEFINED ROOT)
  set(ROOT "${CMAKE_CURRENT_LIST_DIR}/../..")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
set(_include "${ROOT}/include/retarget")
if(NOT IS_DIRECTORY "${_include}")
  message(FATAL_ERROR "layering check: no headers at ${_include}")
endif()

file(GLOB_RECURSE _headers RELATIVE "${_include}" "${_include}/*.hpp")
list(SORT _headers)
set(_problems 0)
set(_checked 0)
set(_used_exceptions "")
foreach(_header IN LISTS _headers)
  string(REGEX MATCH "^[^/]+" _layer "${_header}")
  if(NOT _header MATCHES "/")
    continue()  # retarget.hpp, version.hpp: the umbrella sits above every layer
  endif()
  list(FIND _layers "${_layer}" _known)
  if(_known EQUAL -1)
    message("include/retarget/${_header}: folder '${_layer}' is not a layer of the table (add it to layering_check.cmake)")
    math(EXPR _problems "${_problems} + 1")
    continue()
  endif()
  file(STRINGS "${_include}/${_header}" _lines)
  set(_line_number 0)
  foreach(_line IN LISTS _lines)
    math(EXPR _line_number "${_line_number} + 1")
    if(NOT _line MATCHES "^[ \t]*#[ \t]*include[ \t]*[<\"]retarget/([a-z_]+)/([^>\"]+)[>\"]")
      continue()
    endif()
    set(_target "${CMAKE_MATCH_1}")
    set(_included "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
    math(EXPR _checked "${_checked} + 1")
    if(_target STREQUAL _layer)
      continue()
    endif()
    list(FIND _may_${_layer} "${_target}" _allowed)
    if(NOT _allowed EQUAL -1)
      continue()
    endif()
    set(_excepted FALSE)
    foreach(_exception IN LISTS _exceptions)
      string(REPLACE "|" ";" _parts "${_exception}")
      list(GET _parts 0 _from)
      list(GET _parts 1 _to)
      if(_from STREQUAL _header AND _to STREQUAL _included)
        set(_excepted TRUE)
        list(APPEND _used_exceptions "${_from}|${_to}")
      endif()
    endforeach()
    if(NOT _excepted)
      string(REPLACE ";" ", " _may_text "${_may_${_layer}}")
      message("include/retarget/${_header}:${_line_number}: ${_layer} includes ${_included} (${_layer} may use: ${_may_text})")
      math(EXPR _problems "${_problems} + 1")
    endif()
  endforeach()
endforeach()

foreach(_exception IN LISTS _exceptions)
  string(REPLACE "|" ";" _parts "${_exception}")
  list(GET _parts 0 _from)
  list(GET _parts 1 _to)
  if(NOT "${_from}|${_to}" IN_LIST _used_exceptions)
    message("stale exception: include/retarget/${_from} no longer includes ${_to} (remove it from layering_check.cmake)")
    math(EXPR _problems "${_problems} + 1")
  endif()
endforeach()

list(LENGTH _headers _header_count)
list(LENGTH _exceptions _exception_count)
if(_problems GREATER 0)
  message(FATAL_ERROR "layering check: ${_problems} problem(s) in ${_header_count} headers")
endif()
message("layering check: ${_header_count} headers, ${_checked} includes of the library, "
        "all within the table (${_exception_count} listed exception(s))")
