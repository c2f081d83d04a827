# Checks that every equation, section, figure and table citation in the tree has a row in the
# citation table (docs/citations.md), and that every row still matches what its files cite.
# Run with `cmake -P` (no compiler needed):
#
#   cmake [-DROOT=dir] [-DTABLE=file] [-DLIST_TO=file] -P tests/support/citation_check.cmake
#
#   ROOT      the tree to check (default: the repository this script is in; relative paths here
#             are taken from the current directory)
#   TABLE     the table (default: ROOT/docs/citations.md)
#   LIST_TO   also write every citation found, one "file<TAB>line<TAB>citation" a line
#
# What counts as a citation: one of the words Eq./Eqs./Equation(s), Section(s)/Sec./Secs.,
# Fig./Figs./Figure(s), Table(s), a space, then a number: arabic (12, 3.5.2, 12c, 1(b)) or roman
# with an optional sub-part (IV, III-B2, III-B2/3), optionally a range to a second number (an
# ASCII hyphen or an en dash: "Eqs. 1-23", "Figure 12a–c"), and more of them after ", ", " and ",
# ", and " or " & " ("Eqs. 44 and 46", "Sections 3.5, 4, 5"). Each number or range is one
# citation, written as a key: the word made singular and short (Eq., Section, Fig., Table) and the
# number or range as written with a hyphen ("Eqs. 1–23" -> "Eq. 1-23"; a range is not expanded).
# Citations are read line by line, so none may be split over two lines (see the failures below).
#
# The table: every markdown table row ("| ... |") whose second cell holds a citation is a row of
# it; its key is read from that cell the same way (one citation per row), and its files are the
# `backquoted` paths of its last cell, relative to ROOT. (A "|" inside a cell must be written
# "\|".) The check fails when
#   - a scanned file cites a key that no row with that key lists the file in (the message names
#     the file, the line and the citation);
#   - a row names a file that does not exist, is not scanned, or no longer cites the row's key;
#   - a line ends with the word of a citation ("Eqs.") or with a citation and a list separator
#     ("Eqs. 4-7,") and the next line starts with a number: the rest would not be read.
# The seed a row names is for the reader to check: the script compares keys and files only.
#
# Scanned: every file under include/, src/, apps/, tests/, docs/, examples/, bench/, python/ and
# README.md, except directories named build*, the table (and docs/citations.md whatever TABLE is),
# this script, the two scripts beside it (citation_keys.cmake, the reading of a citation shared
# with citation_seed_check.cmake, which checks the rows' equation numbers against the seed texts)
# and their fixture (tests/support/citation_fixture/: a one-file tree with a complete table and
# two broken ones, on which tests/CMakeLists.txt proves the check passes and fails, and the seed
# check's tables and seed texts).

cmake_minimum_required(VERSION 3.13)

if(NOT DEFINED ROOT)
  set(ROOT "${CMAKE_CURRENT_LIST_DIR}/../..")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
if(NOT DEFINED TABLE)
  set(TABLE "${ROOT}/docs/citations.md")
endif()
get_filename_component(TABLE "${TABLE}" ABSOLUTE)

include(${CMAKE_CURRENT_LIST_DIR}/citation_keys.cmake)

# --- the files ---------------------------------------------------------------------------------
file(RELATIVE_PATH _table_rel "${ROOT}" "${TABLE}")
set(_files "")
foreach(_entry include src apps tests docs examples bench python README.md)
  if(IS_DIRECTORY "${ROOT}/${_entry}")
    file(GLOB_RECURSE _found LIST_DIRECTORIES false RELATIVE "${ROOT}" "${ROOT}/${_entry}/*")
    list(APPEND _files ${_found})
  elseif(EXISTS "${ROOT}/${_entry}")
    list(APPEND _files "${_entry}")
  endif()
endforeach()
list(FILTER _files EXCLUDE REGEX "(^|/)build[^/]*/")
list(FILTER _files EXCLUDE REGEX "^tests/support/citation_((check|keys|seed_check)\\.cmake$|fixture/)")
list(REMOVE_ITEM _files "${_table_rel}" docs/citations.md)
list(SORT _files)

set(_errors "")
set(_listing "")
set(_citation_count 0)
foreach(_file IN LISTS _files)
  set(_scanned_${_file} 1)
  file(READ "${ROOT}/${_file}" _content)
  if(NOT _content MATCHES "(Eq|Sec|Fig|Table)")
    continue()
  endif()
  _citation_sanitize(_content)
  string(REPLACE "\n" ";" _lines "${_content}")
  set(_line_number 0)
  set(_open_line "")
  foreach(_line IN LISTS _lines)
    math(EXPR _line_number "${_line_number} + 1")
    # A citation the previous line left open ("Eqs." or "Eqs. 4-7," at its end) must not go on
    # here: the check reads line by line and would miss the rest.
    if(_open_line AND _line MATCHES "^[ \t/#*>|-]*([0-9]|[IVX]+[-,.) ])")
      list(APPEND _errors "${_file}:${_open_line}: citation continued on the next line (keep it on one line)")
    endif()
    set(_open_line "")
    if(NOT _line MATCHES "(Eq|Sec|Fig|Table)")
      continue()
    endif()
    if(_line MATCHES "(${_kind}|${_citation_re}(,|, and| and| &))[ \t]*$")
      set(_open_line ${_line_number})
    endif()
    _citation_keys("${_line}" _keys)
    foreach(_key IN LISTS _keys)
      math(EXPR _citation_count "${_citation_count} + 1")
      string(MD5 _id "${_file}|${_key}")
      set(_cites_${_id} 1)
      list(APPEND _citations "${_file}|${_line_number}|${_key}")
      if(DEFINED LIST_TO)
        string(APPEND _listing "${_file}\t${_line_number}\t${_key}\n")
      endif()
    endforeach()
  endforeach()
endforeach()
if(DEFINED LIST_TO)
  file(WRITE "${LIST_TO}" "${_listing}")
endif()

# --- the table ---------------------------------------------------------------------------------
if(NOT EXISTS "${TABLE}")
  message(FATAL_ERROR "citation check: no table ${TABLE}")
endif()
file(READ "${TABLE}" _table)
_citation_sanitize(_table)
string(REPLACE "\\|" "<bar>" _table "${_table}")
string(REPLACE "\n" ";" _table_lines "${_table}")
set(_row_count 0)
set(_table_line_number 0)
foreach(_line IN LISTS _table_lines)
  math(EXPR _table_line_number "${_table_line_number} + 1")
  if(NOT _line MATCHES "^\\|")
    continue()
  endif()
  _table_cells("${_line}" _cells)
  list(LENGTH _cells _cell_count)
  if(_cell_count LESS 3)
    continue()
  endif()
  list(GET _cells 1 _cited)
  list(GET _cells -1 _where)
  _citation_keys("${_cited}" _row_keys)
  if(NOT _row_keys)
    continue()  # header, separator or a row of another table
  endif()
  list(LENGTH _row_keys _row_key_count)
  if(_row_key_count GREATER 1)
    list(APPEND _errors "${_table_rel}:${_table_line_number}: one citation per row, got '${_row_keys}'")
    continue()
  endif()
  math(EXPR _row_count "${_row_count} + 1")
  string(REGEX MATCHALL "`[^`]+`" _row_files "${_where}")
  if(NOT _row_files)
    list(APPEND _errors "${_table_rel}:${_table_line_number}: '${_row_keys}' names no file")
  endif()
  foreach(_row_file IN LISTS _row_files)
    string(REPLACE "`" "" _row_file "${_row_file}")
    string(MD5 _id "${_row_file}|${_row_keys}")
    set(_row_${_id} 1)
    if(NOT EXISTS "${ROOT}/${_row_file}")
      list(APPEND _errors
           "${_table_rel}:${_table_line_number}: '${_row_keys}' names ${_row_file}, which does not exist")
    elseif(NOT DEFINED _scanned_${_row_file})
      list(APPEND _errors
           "${_table_rel}:${_table_line_number}: '${_row_keys}' names ${_row_file}, which the check does not scan")
    elseif(NOT DEFINED _cites_${_id})
      list(APPEND _errors
           "${_table_rel}:${_table_line_number}: stale row: ${_row_file} no longer cites '${_row_keys}'")
    endif()
  endforeach()
endforeach()

# --- every citation needs a row naming its file ------------------------------------------------
foreach(_citation IN LISTS _citations)
  string(REPLACE "|" ";" _parts "${_citation}")
  list(GET _parts 0 _file)
  list(GET _parts 1 _line_number)
  list(GET _parts 2 _key)
  string(MD5 _id "${_file}|${_key}")
  if(NOT DEFINED _row_${_id})
    list(APPEND _errors "${_file}:${_line_number}: '${_key}' has no row in ${_table_rel} naming this file")
  endif()
endforeach()

list(LENGTH _files _file_count)
if(_errors)
  list(LENGTH _errors _error_count)
  list(JOIN _errors "\n" _text)
  message("${_text}")
  message(FATAL_ERROR "citation check: ${_error_count} problem(s); see the rule at the top of "
                      "tests/support/citation_check.cmake")
endif()
message("citation check: ${_citation_count} citations in ${_file_count} files, ${_row_count} rows in ${_table_rel}: all match")
