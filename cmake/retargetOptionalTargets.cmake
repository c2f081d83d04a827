# Optional parts of retarget: header-only targets that need one more dependency
# (urdf -> tinyxml2, json -> nlohmann_json; later the adapters: asio, liblo, NLopt, LBFGSpp).
#
#   retarget_add_optional_target(<name> PACKAGE <pkg> [VERSION <v>] TARGETS <imported targets...>
#                                [FIND_ARGS <more find_package arguments...>]
#                                [FINDER <cmake file>] [HEADERS <regex...>])
#
# declares the option RETARGET_WITH_<NAME> (default ON) and, when it is ON and
# `find_package(<pkg> [<v>] [FIND_ARGS] QUIET)` provides every target in TARGETS (the find is
# skipped when a parent project already defines them), creates the INTERFACE target
# retarget_<name>, its ALIAS retarget::<name> and EXPORT_NAME <name>, linking retarget and
# TARGETS. Otherwise it prints a STATUS line saying why retarget::<name> is not available,
# and everything that needs it (command line, examples, test areas) is skipped with a message.
# FINDER names a module in cmake/ (e.g. retargetFindLiblo.cmake) that defines TARGETS for a
# dependency without a CMake package: it is included before the check, installed beside the
# package configuration, and included by retargetConfig.cmake before it looks for the part.
# HEADERS are regular expressions on public header paths relative to include/ (e.g.
# "^retarget/io/urdf\\.hpp$"): the headers of this part, compiled by the header check only
# when the part is available.
#
# What the package needs is recorded in global properties, read by
# retarget_install_optional_targets() (one export file per part) and
# retarget_optional_parts_config() (the code retargetConfig.cmake runs to find each part's
# dependency before loading its export file):
#   RETARGET_OPTIONAL_PARTS            every declared part
#   RETARGET_AVAILABLE_PARTS           the parts whose target exists (the export list)
#   RETARGET_OPTIONAL_<name>_FIND      find_package arguments: <pkg> [<v>] [FIND_ARGS]
#   RETARGET_OPTIONAL_<name>_HEADERS   HEADERS
#   RETARGET_OPTIONAL_<name>_FINDER    FINDER (file name in cmake/, empty when none)
#   RETARGET_OPTIONAL_<name>_TARGETS   TARGETS (the imported targets the part links)
#   RETARGET_OPTIONAL_<name>_REASON    why the part is not available (empty when it is)
include_guard(GLOBAL)

# retarget_skip(<text>): something is left out of this build because what it needs is missing
# (an optional part's library, a test tool). A STATUS line normally; with RETARGET_REQUIRE_ALL
# (the check presets turn it on) a configure error naming it, so that CI cannot pass with a part
# of the build or of the suite silently gone. SEND_ERROR goes on configuring, so one run lists
# every missing thing, then fails.
function(retarget_skip text)
  if(RETARGET_REQUIRE_ALL)
    message(SEND_ERROR "retarget: ${text} (RETARGET_REQUIRE_ALL is ON: install what is named, "
                       "or configure with -DRETARGET_REQUIRE_ALL=OFF)")
  else()
    message(STATUS "retarget: ${text}")
  endif()
endfunction()

# The finder modules (FINDER) sit beside this file; CMAKE_CURRENT_FUNCTION_LIST_DIR needs 3.17.
set(RETARGET_OPTIONAL_TARGETS_DIR ${CMAKE_CURRENT_LIST_DIR})

function(retarget_add_optional_target name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "PACKAGE;VERSION;FINDER" "TARGETS;FIND_ARGS;HEADERS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "retarget_add_optional_target(${name}): unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    message(FATAL_ERROR "retarget_add_optional_target: name '${name}' must be lower_snake_case")
  endif()
  if(NOT ARG_PACKAGE OR NOT ARG_TARGETS)
    message(FATAL_ERROR "retarget_add_optional_target(${name}): PACKAGE and TARGETS are required")
  endif()
  get_property(_declared GLOBAL PROPERTY RETARGET_OPTIONAL_PARTS)
  list(FIND _declared ${name} _index)
  if(NOT _index EQUAL -1 OR TARGET retarget_${name})
    message(FATAL_ERROR "retarget_add_optional_target(${name}): declared twice")
  endif()

  string(TOUPPER "${name}" _upper)
  option(RETARGET_WITH_${_upper} "Provide retarget::${name} (needs ${ARG_PACKAGE})" ON)

  set(_find ${ARG_PACKAGE} ${ARG_VERSION} ${ARG_FIND_ARGS})
  set_property(GLOBAL APPEND PROPERTY RETARGET_OPTIONAL_PARTS ${name})
  set_property(GLOBAL PROPERTY RETARGET_OPTIONAL_${name}_FIND "${_find}")
  set_property(GLOBAL PROPERTY RETARGET_OPTIONAL_${name}_HEADERS "${ARG_HEADERS}")
  set_property(GLOBAL PROPERTY RETARGET_OPTIONAL_${name}_FINDER "${ARG_FINDER}")
  set_property(GLOBAL PROPERTY RETARGET_OPTIONAL_${name}_TARGETS "${ARG_TARGETS}")

  set(_reason "")
  if(NOT RETARGET_WITH_${_upper})
    set(_reason "RETARGET_WITH_${_upper} is OFF")
  else()
    if(ARG_FINDER)
      include(${RETARGET_OPTIONAL_TARGETS_DIR}/${ARG_FINDER})
    endif()
    set(_have_all ON)
    foreach(_target IN LISTS ARG_TARGETS)
      if(NOT TARGET ${_target})
        set(_have_all OFF)
      endif()
    endforeach()
    if(NOT _have_all)
      find_package(${_find} QUIET)
    endif()
    set(_missing "")
    foreach(_target IN LISTS ARG_TARGETS)
      if(NOT TARGET ${_target})
        list(APPEND _missing ${_target})
      endif()
    endforeach()
    if(_missing)
      string(REPLACE ";" " " _missing "${_missing}")
      string(STRIP "${ARG_PACKAGE} ${ARG_VERSION}" _wanted)
      set(_reason "${_wanted} not found: no ${_missing}")
    endif()
  endif()
  set_property(GLOBAL PROPERTY RETARGET_OPTIONAL_${name}_REASON "${_reason}")
  if(_reason)
    retarget_skip("retarget::${name} is not available (${_reason})")
    return()
  endif()

  add_library(retarget_${name} INTERFACE)
  add_library(retarget::${name} ALIAS retarget_${name})
  set_target_properties(retarget_${name} PROPERTIES EXPORT_NAME ${name})
  target_link_libraries(retarget_${name} INTERFACE retarget ${ARG_TARGETS})
  set_property(GLOBAL APPEND PROPERTY RETARGET_AVAILABLE_PARTS ${name})
  if(DEFINED ${ARG_PACKAGE}_VERSION AND NOT "${${ARG_PACKAGE}_VERSION}" STREQUAL "")
    message(STATUS "retarget: retarget::${name} available (${ARG_PACKAGE} ${${ARG_PACKAGE}_VERSION})")
  else()
    message(STATUS "retarget: retarget::${name} available (${ARG_PACKAGE})")
  endif()
endfunction()

# retarget_install_optional_targets(DESTINATION <dir> [COMPONENT <install component>]):
# each available part in its own export set, installed as <dir>/retarget-<name>-targets.cmake,
# so that retargetConfig.cmake loads it only when the consumer finds its dependency.
function(retarget_install_optional_targets)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "DESTINATION;COMPONENT" "")
  set(_component)
  if(ARG_COMPONENT)
    set(_component COMPONENT ${ARG_COMPONENT})
  endif()
  get_property(_parts GLOBAL PROPERTY RETARGET_AVAILABLE_PARTS)
  foreach(_name IN LISTS _parts)
    install(TARGETS retarget_${_name} EXPORT retarget-${_name}-targets ${_component})
    install(EXPORT retarget-${_name}-targets NAMESPACE retarget:: FILE retarget-${_name}-targets.cmake
            DESTINATION ${ARG_DESTINATION} ${_component})
    get_property(_finder GLOBAL PROPERTY RETARGET_OPTIONAL_${_name}_FINDER)
    if(_finder)
      install(FILES ${RETARGET_OPTIONAL_TARGETS_DIR}/${_finder} DESTINATION ${ARG_DESTINATION} ${_component})
    endif()
  endforeach()
endfunction()

# retarget_optional_parts_config(<variable>): the CMake code, pasted into retargetConfig.cmake,
# that describes the optional parts of this installation (see retargetConfig.cmake.in).
function(retarget_optional_parts_config out)
  get_property(_declared GLOBAL PROPERTY RETARGET_OPTIONAL_PARTS)
  get_property(_available GLOBAL PROPERTY RETARGET_AVAILABLE_PARTS)
  set(_code "set(_retarget_installed_parts \"${_available}\")\n")
  string(APPEND _code "set(_retarget_declared_parts \"${_declared}\")\n")
  foreach(_name IN LISTS _declared)
    get_property(_find GLOBAL PROPERTY RETARGET_OPTIONAL_${_name}_FIND)
    get_property(_reason GLOBAL PROPERTY RETARGET_OPTIONAL_${_name}_REASON)
    get_property(_finder GLOBAL PROPERTY RETARGET_OPTIONAL_${_name}_FINDER)
    get_property(_targets GLOBAL PROPERTY RETARGET_OPTIONAL_${_name}_TARGETS)
    string(APPEND _code "set(_retarget_${_name}_find \"${_find}\")\n")
    string(APPEND _code "set(_retarget_${_name}_targets \"${_targets}\")\n")
    string(APPEND _code "set(_retarget_${_name}_finder \"${_finder}\")\n")
    string(REPLACE "\"" "\\\"" _reason "${_reason}")
    string(APPEND _code "set(_retarget_${_name}_build_reason \"${_reason}\")\n")
  endforeach()
  set(${out} "${_code}" PARENT_SCOPE)
endfunction()
