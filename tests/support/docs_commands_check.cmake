# Checks that every example command of a markdown document is run by a test: some file under
# tests/ must hold the text "docs: <command>" (a comment where the test runs it). Run with
# `cmake -P` (no compiler needed):
#
#   cmake -DDOC=file [-DROOT=dir] [-DVERBOSE=ON] -P tests/support/docs_commands_check.cmake
#
#   DOC       the document, relative to ROOT (e.g. docs/adapters.md)
#   ROOT      the tree (default: the repository this script is in; relative paths here are taken
#             from the current directory); the tests are the files under ROOT/tests/
#   VERBOSE   also print every command found and the test file that runs it
#
# What counts as an example command:
#   - a line of a fenced code block (``` or ~~~) or of an indented one (four spaces, after a blank
#     line) that starts with one of the command words below followed by a space; a line ending
#     with a backslash goes on with the next one; a trailing shell comment (" # build": no quote
#     before it, or none in it) is not part of the command. Output shown in a code block (a
#     status line such as "live: 12.0 s ...", or "retarget: ...") starts with no command word
#     followed by a space and is not read;
#   - an inline code span (`...`, which may wrap over lines of its paragraph) that starts with
#     "retarget <subcommand> " and gives at least two options (--name or -x): a command to type,
#     as opposed to a mention of one option (`retarget live --sensor-tilt DEG`);
#   - but not a synopsis: a command holding " | " (alternatives), a "["-bracketed optional part
#     (`retarget live --source kinect-osc:[0.0.0.0:]PORT | ...`) or a <placeholder> argument. A
#     real pipeline (" | ") is therefore read as a synopsis too and not checked.
# Whitespace is normalized (every run of spaces and line breaks becomes one space) in the command
# and in the test files, where each line is also stripped of its indentation and of a leading
# comment leader (// or #), so a "docs: ..." comment may wrap over lines. The command must be
# followed by a space or the end of the file. A test that runs a close variant says so after the
# command ("// docs: <command> (here a pty for the serial port)").
#
# Commands that need hardware or a machine's administrator, and cannot run in a test, are listed
# below with the reason (printed when applied); keep that list short. The check fails, naming the
# document's line and the command, for every other command no test names.
#
# Not scanned for "docs: ": this script and its fixture (tests/support/docs_commands_fixture/: a
# document with covered, exempted and skipped commands and one missing, and its tests, on which
# tests/CMakeLists.txt proves that the check passes and fails).

cmake_minimum_required(VERSION 3.13)

if(NOT DEFINED ROOT)
  set(ROOT "${CMAKE_CURRENT_LIST_DIR}/../..")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
if(NOT DEFINED DOC OR DOC STREQUAL "")
  message(FATAL_ERROR "docs command check: give the document: -DDOC=<markdown file relative to ROOT>")
endif()
if(NOT EXISTS "${ROOT}/${DOC}")
  message(FATAL_ERROR "docs command check: no document ${ROOT}/${DOC}")
endif()

set(_command_words retarget python python3 ssh scp make sudo bash cmake nc)

# The exemptions: a command starting with the prefix is not required to run in a test. (No ";"
# in a prefix or a reason: they are held in CMake lists.)
set(_exempt_prefixes "")
set(_exempt_reasons "")
macro(_docs_exempt prefix reason)
  list(APPEND _exempt_prefixes "${prefix}")
  list(APPEND _exempt_reasons "${reason}")
endmacro()
_docs_exempt("sudo apt-get install "
             "installs system packages: needs root and the network")
_docs_exempt("make -C apps/inmoov_firmware/inmoov_servo upload "
             "flashes a real Arduino Mega over its serial port with avrdude")
_docs_exempt("scp apps/nao_bridge/retarget_nao_bridge.py nao@ROBOT:"
             "copies the bridge onto a robot over ssh, which the NAO tests replace by a local copy")

# Characters that CMake lists or regexes would misread are held as control characters while the
# text is worked on, and put back for messages.
string(ASCII 1 _backslash)
string(ASCII 2 _semicolon)
string(ASCII 3 _open_bracket)
string(ASCII 4 _close_bracket)
macro(_docs_sanitize var)
  string(REPLACE "\\" "${_backslash}" ${var} "${${var}}")
  string(REPLACE ";" "${_semicolon}" ${var} "${${var}}")
  string(REPLACE "[" "${_open_bracket}" ${var} "${${var}}")
  string(REPLACE "]" "${_close_bracket}" ${var} "${${var}}")
  string(REPLACE "\r" "" ${var} "${${var}}")
  string(REPLACE "\t" "    " ${var} "${${var}}")
endmacro()
macro(_docs_restore var)
  string(REPLACE "${_backslash}" "\\" ${var} "${${var}}")
  string(REPLACE "${_semicolon}" ";" ${var} "${${var}}")
  string(REPLACE "${_open_bracket}" "[" ${var} "${${var}}")
  string(REPLACE "${_close_bracket}" "]" ${var} "${${var}}")
endmacro()
macro(_docs_normalize var)
  string(REGEX REPLACE "[ \n]+" " " ${var} "${${var}}")
  string(STRIP "${${var}}" ${var})
endmacro()

list(JOIN _command_words "|" _words)
set(_code_command_re "^(${_words}) ")
set(_inline_command_re "^retarget [a-z][-a-z0-9]* ")

# --- the document's commands ---------------------------------------------------------------------
set(_found_lines "")     # parallel lists: the line each command starts on, and the command
set(_found_commands "")
set(_synopsis_count 0)
set(_mention_count 0)

# Takes _candidate (normalized) from line _candidate_line; _candidate_kind is code or inline.
macro(_docs_take_candidate)
  if(_candidate_kind STREQUAL "code")
    set(_is_command FALSE)
    if(_candidate MATCHES "${_code_command_re}")
      set(_is_command TRUE)
    endif()
  else()
    set(_is_command FALSE)
    if(_candidate MATCHES "${_inline_command_re}")
      string(REGEX MATCHALL " --?[A-Za-z]" _options "${_candidate}")
      list(LENGTH _options _option_count)
      if(_option_count GREATER_EQUAL 2)
        set(_is_command TRUE)
      else()
        math(EXPR _mention_count "${_mention_count} + 1")
      endif()
    endif()
  endif()
  if(_is_command)
    if(_candidate MATCHES " \\| " OR _candidate MATCHES "(^| |:|=)(${_open_bracket}|<[A-Za-z])")
      math(EXPR _synopsis_count "${_synopsis_count} + 1")
    else()
      list(APPEND _found_lines "${_candidate_line}")
      list(APPEND _found_commands "${_candidate}")
    endif()
  endif()
endmacro()

# A code line (_stripped: its indentation removed) joins the command being continued, if any.
macro(_docs_code_line)
  if(_pending_line EQUAL 0)
    set(_pending "${_stripped}")
    set(_pending_line ${_number})
  else()
    set(_pending "${_pending} ${_stripped}")
  endif()
  if(_pending MATCHES "${_backslash}[ ]*$")
    string(REGEX REPLACE "${_backslash}[ ]*$" "" _pending "${_pending}")
  else()
    _docs_end_code_command()
  endif()
endmacro()
macro(_docs_end_code_command)
  if(NOT _pending_line EQUAL 0)
    # A trailing shell comment: " #" with no quote before it, or none in the comment.
    if(_pending MATCHES "^([^'\"]*[^ ]) +#")
      set(_candidate "${CMAKE_MATCH_1}")
    else()
      string(REGEX REPLACE " +#[^'\"]*$" "" _candidate "${_pending}")
    endif()
    _docs_normalize(_candidate)
    set(_candidate_line ${_pending_line})
    set(_candidate_kind code)
    _docs_take_candidate()
  endif()
  set(_pending "")
  set(_pending_line 0)
endmacro()

# The inline code spans of the paragraph collected so far (lines joined with line breaks).
macro(_docs_end_paragraph)
  if(NOT _paragraph_line EQUAL 0)
    string(REPLACE "`" ";" _parts "${_paragraph}")
    set(_part_index 0)
    set(_part_line ${_paragraph_line})
    foreach(_part IN LISTS _parts)
      math(EXPR _odd "${_part_index} % 2")
      if(_odd EQUAL 1)
        set(_candidate "${_part}")
        _docs_normalize(_candidate)
        set(_candidate_line ${_part_line})
        set(_candidate_kind inline)
        _docs_take_candidate()
      endif()
      string(REGEX MATCHALL "\n" _breaks "${_part}")
      list(LENGTH _breaks _break_count)
      math(EXPR _part_line "${_part_line} + ${_break_count}")
      math(EXPR _part_index "${_part_index} + 1")
    endforeach()
  endif()
  set(_paragraph "")
  set(_paragraph_line 0)
endmacro()

file(READ "${ROOT}/${DOC}" _content)
_docs_sanitize(_content)
string(REPLACE "\n" ";" _lines "${_content}")
set(_number 0)
set(_in_fence FALSE)
set(_in_indented FALSE)
set(_previous_blank TRUE)
set(_pending "")
set(_pending_line 0)
set(_paragraph "")
set(_paragraph_line 0)
foreach(_line IN LISTS _lines)
  math(EXPR _number "${_number} + 1")
  string(STRIP "${_line}" _stripped)
  if(_stripped MATCHES "^(```|~~~)")
    _docs_end_paragraph()
    _docs_end_code_command()
    if(_in_fence)
      set(_in_fence FALSE)
    else()
      set(_in_fence TRUE)
    endif()
    set(_in_indented FALSE)
    set(_previous_blank FALSE)
    continue()
  endif()
  set(_is_code FALSE)
  if(_in_fence)
    set(_is_code TRUE)
  elseif(_line MATCHES "^    " AND NOT _stripped STREQUAL "")
    if(_previous_blank OR _in_indented)
      set(_is_code TRUE)
      set(_in_indented TRUE)
    endif()
  endif()
  if(_is_code)
    _docs_end_paragraph()
    if(NOT _stripped STREQUAL "")
      _docs_code_line()
    endif()
  elseif(_stripped STREQUAL "")
    _docs_end_paragraph()
    _docs_end_code_command()
  else()
    _docs_end_code_command()
    set(_in_indented FALSE)
    if(_stripped MATCHES "^(#|\\|)")
      # A heading or a table row is a paragraph of its own.
      _docs_end_paragraph()
      set(_paragraph "${_stripped}")
      set(_paragraph_line ${_number})
      _docs_end_paragraph()
    elseif(_paragraph_line EQUAL 0)
      set(_paragraph "${_stripped}")
      set(_paragraph_line ${_number})
    else()
      string(APPEND _paragraph "\n${_stripped}")
    endif()
  endif()
  if(_stripped STREQUAL "")
    set(_previous_blank TRUE)
  else()
    set(_previous_blank FALSE)
  endif()
endforeach()
_docs_end_paragraph()
_docs_end_code_command()

# --- the tests' "docs: " comments ------------------------------------------------------------------
set(_test_files "")
if(IS_DIRECTORY "${ROOT}/tests")
  file(GLOB_RECURSE _test_files LIST_DIRECTORIES false RELATIVE "${ROOT}" "${ROOT}/tests/*")
endif()
list(FILTER _test_files EXCLUDE REGEX "(^|/)build[^/]*/")
list(FILTER _test_files EXCLUDE REGEX "^tests/support/docs_commands_(check\\.cmake$|fixture/)")
list(SORT _test_files)
set(_texts "")  # indices of the files that hold "docs:"; their text is in _text_<index>
set(_index 0)
foreach(_file IN LISTS _test_files)
  file(READ "${ROOT}/${_file}" _text)
  string(FIND "${_text}" "docs:" _at)
  if(_at LESS 0)
    continue()
  endif()
  _docs_sanitize(_text)
  # Every line without its indentation and comment leader, the lines joined with spaces.
  string(REGEX REPLACE "\n[ ]*(//+|#)?" " " _text "\n${_text}")
  string(REGEX REPLACE "[ ]+" " " _text "${_text}")
  set(_text_${_index} "${_text} ")
  set(_file_${_index} "${_file}")
  list(APPEND _texts ${_index})
  math(EXPR _index "${_index} + 1")
endforeach()

# The first test file that names `command` ("docs: <command>" followed by a space), or "".
function(_docs_covering_file command out)
  foreach(_i IN LISTS _texts)
    set(_rest "${_text_${_i}}")
    while(TRUE)
      string(FIND "${_rest}" "docs: ${command}" _at)
      if(_at LESS 0)
        break()
      endif()
      string(LENGTH "docs: ${command}" _length)
      math(EXPR _after "${_at} + ${_length}")
      string(SUBSTRING "${_rest}" ${_after} 1 _next)
      if(_next STREQUAL " ")
        set(${out} "${_file_${_i}}" PARENT_SCOPE)
        return()
      endif()
      string(SUBSTRING "${_rest}" ${_after} -1 _rest)
    endwhile()
  endforeach()
  set(${out} "" PARENT_SCOPE)
endfunction()

# --- every command: run by a test, exempted, or a failure ------------------------------------------
set(_errors "")
set(_command_count 0)
set(_covered_count 0)
set(_exempted_count 0)
list(LENGTH _found_commands _total)
if(_total GREATER 0)
  math(EXPR _last "${_total} - 1")
  foreach(_k RANGE ${_last})
    list(GET _found_lines ${_k} _line_number)
    list(GET _found_commands ${_k} _command)
    math(EXPR _command_count "${_command_count} + 1")
    _docs_covering_file("${_command}" _covering)
    set(_shown "${_command}")
    _docs_restore(_shown)
    if(NOT _covering STREQUAL "")
      math(EXPR _covered_count "${_covered_count} + 1")
      if(VERBOSE)
        message("${DOC}:${_line_number}: run in ${_covering}: ${_shown}")
      endif()
      continue()
    endif()
    set(_reason "")
    set(_e 0)
    foreach(_prefix IN LISTS _exempt_prefixes)
      string(FIND "${_command}" "${_prefix}" _at)
      if(_at EQUAL 0)
        list(GET _exempt_reasons ${_e} _reason)
        break()
      endif()
      math(EXPR _e "${_e} + 1")
    endforeach()
    if(NOT _reason STREQUAL "")
      math(EXPR _exempted_count "${_exempted_count} + 1")
      message("${DOC}:${_line_number}: exempt (${_reason}): ${_shown}")
    else()
      list(APPEND _errors
           "${DOC}:${_line_number}: not run by any test (no \"docs: <command>\" under tests/): ${_shown}")
    endif()
  endforeach()
endif()

set(_skipped "not read as commands: ${_synopsis_count} synopsis line(s), ${_mention_count} inline mention(s)")
if(_errors)
  list(LENGTH _errors _error_count)
  list(JOIN _errors "\n" _text)
  message("${_text}")
  message(FATAL_ERROR "docs command check: ${_error_count} of ${_command_count} command(s) in ${DOC} not run by a "
                      "test (${_covered_count} run, ${_exempted_count} exempted; ${_skipped}); see the rule at the "
                      "top of tests/support/docs_commands_check.cmake")
endif()
message("docs command check: ${_command_count} command(s) in ${DOC}: ${_covered_count} run by tests, "
        "${_exempted_count} exempted (${_skipped})")
