# Checks the equation numbers of the citation table (docs/citations.md) against the seed papers'
# texts: every row that names a seed (first cell "000" ... "004") and cites an equation or a
# range of equations ("Eq. 23", "Eqs. 24–27") must find each of its numbers in that seed's text.
# Run with `cmake -P` (no compiler needed):
#
#   cmake [-DROOT=dir] [-DTABLE=file] [-DSEEDS=dir] [-DLIST_TO=file] -P tests/support/citation_seed_check.cmake
#
#   ROOT      the tree (default: the repository this script is in)
#   TABLE     the table (default: ROOT/docs/citations.md)
#   SEEDS     the folder of the seed texts, one "<seed>_<anything>.txt" per seed (default:
#             $RETARGET_TEST_DATA/../seeds when RETARGET_TEST_DATA is set, as the tests find
#             ../shared/data, else ROOT/../shared/seeds)
#   LIST_TO   also write how each cited number was found, one line per number:
#             "table line<TAB>seed<TAB>Eq. N<TAB>label:<seed line> | reference:<seed line> | exempted"
#
# The seeds are text extracted from PDFs or web pages. A number N counts as found when the text has
#   - an equation label: a line that ends with "(N)" or "\tag{N}", optionally followed by "$$"
#     (seed 002 prints "... \quad (11)$$", seed 004 keeps only the "(3)" of a lost formula on a
#     line of its own), or
#   - a reference to it by number: "Equation (N)", "Equation N", "Eq. N", "Eqs. (N)" (seed 000's
#     "Equation (38) can be expressed as", seed 001's "based on Equation (9)").
# The rows are read as the citation check reads them (citation_keys.cmake): the second cell holds
# one citation; a range stands for every number in it.
#
# Exemptions: where the extraction lost a seed's labels, the table numbers that seed's equations
# by counting them (see its section in docs/citations.md), and the text cannot show most of the
# numbers. Those seeds are listed, with the range the count covers and the reason, in the table's
# section "## Equation numbers the seed texts do not print" (rows "| seed | first–last | why |";
# its second cell is a bare range, so the citation check does not read it as a citation). Within
# an exempted range
#   - only references by number count: label-like lines are not read, since the text lost its
#     labels and what looks like one is something else (seed 001's "(1)" to "(3)" on lines of
#     their own are the cases of its collision checks);
#   - a number found neither way is exempted, and counted;
#   - a number outside every range of its seed must be found like any other.
# The check fails on a row whose number is not found and not exempted (the message names the
# table line, the seed and the number), on a row of a seed that has no text in SEEDS, on an
# exemption that covers no cited number (stale), and on a malformed exemption; it prints how many
# rows and numbers it checked, found (as labels, as references) and exempted, per exemption.
#
# Without the seed texts (SEEDS missing, or RETARGET_TEST_DATA set to something that is not a
# folder: a clean clone) the check prints "citation seed check skipped: ..." and ends, which
# ctest reports as Skipped (SKIP_REGULAR_EXPRESSION, tests/CMakeLists.txt); with
# RETARGET_REQUIRE_ALL or RETARGET_REQUIRE_DATA set (not "" or "0"), as for every test that
# needs ../shared, it fails instead.
#
# Fixture: tests/support/citation_fixture/seeds/ (three small seed texts) and its tables
# seed_complete.md (passes) and seed_missing.md (fails); see tests/CMakeLists.txt.

cmake_minimum_required(VERSION 3.13)

if(NOT DEFINED ROOT)
  set(ROOT "${CMAKE_CURRENT_LIST_DIR}/../..")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
if(NOT DEFINED TABLE)
  set(TABLE "${ROOT}/docs/citations.md")
endif()
get_filename_component(TABLE "${TABLE}" ABSOLUTE)
file(RELATIVE_PATH _table_rel "${ROOT}" "${TABLE}")
include(${CMAKE_CURRENT_LIST_DIR}/citation_keys.cmake)

# --- the seed texts, or a skip -----------------------------------------------------------------
set(_seeds_missing "")
if(DEFINED SEEDS)
  get_filename_component(SEEDS "${SEEDS}" ABSOLUTE)
  set(_seeds_missing "no seed texts at ${SEEDS} (-DSEEDS)")
elseif(DEFINED ENV{RETARGET_TEST_DATA})
  set(SEEDS "$ENV{RETARGET_TEST_DATA}/../seeds")
  get_filename_component(SEEDS "${SEEDS}" ABSOLUTE)
  if(IS_DIRECTORY "$ENV{RETARGET_TEST_DATA}")
    set(_seeds_missing "no seed texts at ${SEEDS} (RETARGET_TEST_DATA/../seeds)")
  else()
    # Not a folder: run as a clean clone would (as the test binaries do).
    set(_seeds_missing "no seed texts: RETARGET_TEST_DATA=$ENV{RETARGET_TEST_DATA} is not a folder")
    set(SEEDS "")
  endif()
else()
  set(SEEDS "${ROOT}/../shared/seeds")
  get_filename_component(SEEDS "${SEEDS}" ABSOLUTE)
  set(_seeds_missing "no seed texts at ${SEEDS} (../shared/seeds beside the repository)")
endif()
if(NOT SEEDS STREQUAL "" AND IS_DIRECTORY "${SEEDS}")
  set(_seeds_missing "")
endif()
if(_seeds_missing)
  set(_required "")
  foreach(_flag RETARGET_REQUIRE_ALL RETARGET_REQUIRE_DATA)
    if(DEFINED ENV{${_flag}} AND NOT "$ENV{${_flag}}" STREQUAL "" AND NOT "$ENV{${_flag}}" STREQUAL "0")
      list(APPEND _required ${_flag})
    endif()
  endforeach()
  if(_required)
    string(REPLACE ";" " and " _required "${_required}")
    message(FATAL_ERROR "citation seed check failed: ${_seeds_missing}, and ${_required} is set, so the "
                        "missing seed texts fail this test instead of skipping it")
  endif()
  message("citation seed check skipped: ${_seeds_missing}. Place the seed texts in ../shared/seeds beside the "
          "repository or set RETARGET_TEST_DATA (its ../seeds is read); RETARGET_REQUIRE_ALL=1 makes this a failure")
  return()
endif()

set(_errors "")
# Adds one problem, its text given in pieces.
macro(_problem)
  string(CONCAT _problem_text ${ARGN})
  list(APPEND _errors "${_problem_text}")
endmacro()

# Reads seed `seed` once: the numbers of its equation labels (_label_<seed>_<N>) and of its
# references by number (_ref_<seed>_<N>), each the first seed line it is on.
macro(_read_seed seed)
  if(NOT DEFINED _seed_read_${seed})
    set(_seed_read_${seed} TRUE)
    set(_seed_file_${seed} "")
    file(GLOB _seed_candidates "${SEEDS}/${seed}_*.txt")
    list(LENGTH _seed_candidates _seed_candidate_count)
    if(_seed_candidate_count EQUAL 1)
      set(_seed_file_${seed} "${_seed_candidates}")
      get_filename_component(_seed_name_${seed} "${_seed_candidates}" NAME)
      file(READ "${_seed_candidates}" _seed_text)
      string(REPLACE "\r" "" _seed_text "${_seed_text}")
      _citation_sanitize(_seed_text)  # a backslash becomes "/": "\tag{3}" reads "/tag{3}"
      string(REPLACE "\n" ";" _seed_lines "${_seed_text}")
      set(_seed_line_number 0)
      foreach(_seed_line IN LISTS _seed_lines)
        math(EXPR _seed_line_number "${_seed_line_number} + 1")
        if(_seed_line MATCHES "(\\(([0-9]+)\\)|/tag\\{([0-9]+)\\})[ \t]*(\\$\\$)?[ \t]*$")
          set(_seed_number "${CMAKE_MATCH_2}${CMAKE_MATCH_3}")
          if(NOT DEFINED _label_${seed}_${_seed_number})
            set(_label_${seed}_${_seed_number} ${_seed_line_number})
          endif()
        endif()
        if(_seed_line MATCHES "(Equations?|Eqs?\\.) ")
          string(REGEX MATCHALL "(Equations?|Eqs?\\.) \\(?[0-9]+\\)?([^0-9]|$)" _seed_refs "${_seed_line}")
          foreach(_seed_ref IN LISTS _seed_refs)
            string(REGEX MATCH "[0-9]+" _seed_number "${_seed_ref}")
            if(NOT DEFINED _ref_${seed}_${_seed_number})
              set(_ref_${seed}_${_seed_number} ${_seed_line_number})
            endif()
          endforeach()
        endif()
      endforeach()
    elseif(_seed_candidate_count GREATER 1)
      _problem("${SEEDS}: ${_seed_candidate_count} texts for seed ${seed} (${seed}_*.txt), expected one")
    endif()
  endif()
endmacro()

# --- the table ---------------------------------------------------------------------------------
if(NOT EXISTS "${TABLE}")
  message(FATAL_ERROR "citation seed check: no table ${TABLE}")
endif()
file(READ "${TABLE}" _table)
_citation_sanitize(_table)
string(REPLACE "\n" ";" _table_lines "${_table}")

# Pass 1: the exemptions.
set(_exemptions "")  # entries "<seed>|<first>|<last>|<table line>"
set(_in_exemptions FALSE)
set(_table_line_number 0)
foreach(_line IN LISTS _table_lines)
  math(EXPR _table_line_number "${_table_line_number} + 1")
  if(_line MATCHES "^## ")
    if(_line MATCHES "^## Equation numbers the seed texts do not print")
      set(_in_exemptions TRUE)
    else()
      set(_in_exemptions FALSE)
    endif()
    continue()
  endif()
  if(NOT _in_exemptions OR NOT _line MATCHES "^\\|")
    continue()
  endif()
  _table_cells("${_line}" _cells)
  list(GET _cells 0 _seed)
  string(STRIP "${_seed}" _seed)
  if(NOT _seed MATCHES "^[0-9][0-9][0-9]$")
    continue()  # the header and the separator
  endif()
  list(LENGTH _cells _cell_count)
  set(_range "")
  set(_why "")
  if(_cell_count GREATER 2)
    list(GET _cells 1 _range)
    list(GET _cells 2 _why)
    string(STRIP "${_range}" _range)
    string(STRIP "${_why}" _why)
  endif()
  _number_range("${_range}" _first _last)
  if(_first STREQUAL "" OR _why STREQUAL "")
    _problem("${_table_rel}:${_table_line_number}: an exemption is '| seed | first-last | why |', got '${_line}'")
    continue()
  endif()
  if(_last LESS _first)
    _problem("${_table_rel}:${_table_line_number}: exemption range ${_range} runs backwards")
    continue()
  endif()
  list(APPEND _exemptions "${_seed}|${_first}|${_last}|${_table_line_number}")
  set(_exemption_numbers_${_table_line_number} 0)
  set(_exemption_rows_${_table_line_number} "")
  set(_exemption_why_${_table_line_number} "${_why}")
endforeach()

# Pass 2: the rows that cite equations of a seed.
set(_row_count 0)
set(_number_count 0)
set(_label_count 0)
set(_reference_count 0)
set(_exempted_count 0)
set(_exempted_rows 0)
set(_missing_rows 0)
set(_other_rows 0)
set(_listing "")
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
  _citation_keys("${_cited}" _row_keys)
  list(LENGTH _row_keys _row_key_count)
  if(NOT _row_key_count EQUAL 1 OR NOT _row_keys MATCHES "^Eq\\. ")
    continue()  # not an equation row (a row with several citations is the citation check's error)
  endif()
  list(GET _cells 0 _seed)
  string(STRIP "${_seed}" _seed)
  if(NOT _seed MATCHES "^[0-9][0-9][0-9]$")
    math(EXPR _other_rows "${_other_rows} + 1")  # another source (a book): no text to check
    continue()
  endif()
  math(EXPR _row_count "${_row_count} + 1")
  string(REGEX REPLACE "^Eq\\. " "" _numbers "${_row_keys}")
  _number_range("${_numbers}" _first _last)
  if(_first STREQUAL "")
    _problem("${_table_rel}:${_table_line_number}: seed ${_seed} '${_row_keys}': not an equation number "
             "or a range of them (the seeds number their equations 1, 2, ...)")
    math(EXPR _missing_rows "${_missing_rows} + 1")
    continue()
  endif()
  if(_last LESS _first)
    _problem("${_table_rel}:${_table_line_number}: seed ${_seed} '${_row_keys}': the range runs backwards")
    math(EXPR _missing_rows "${_missing_rows} + 1")
    continue()
  endif()
  _read_seed(${_seed})
  if(_seed_file_${_seed} STREQUAL "")
    _problem("${_table_rel}:${_table_line_number}: seed ${_seed} '${_row_keys}': no text of seed ${_seed} "
             "in ${SEEDS} (expected one ${_seed}_*.txt)")
    math(EXPR _missing_rows "${_missing_rows} + 1")
    continue()
  endif()
  set(_row_missing "")
  set(_row_exempted FALSE)
  foreach(_n RANGE ${_first} ${_last})
    math(EXPR _number_count "${_number_count} + 1")
    set(_exempt_line "")
    foreach(_exemption IN LISTS _exemptions)
      string(REPLACE "|" ";" _parts "${_exemption}")
      list(GET _parts 0 _exempt_seed)
      list(GET _parts 1 _exempt_first)
      list(GET _parts 2 _exempt_last)
      if(_exempt_seed STREQUAL _seed AND NOT _n LESS _exempt_first AND NOT _n GREATER _exempt_last)
        list(GET _parts 3 _exempt_line)
        break()
      endif()
    endforeach()
    if(_exempt_line STREQUAL "" AND DEFINED _label_${_seed}_${_n})
      math(EXPR _label_count "${_label_count} + 1")
      set(_how "label:${_label_${_seed}_${_n}}")
    elseif(DEFINED _ref_${_seed}_${_n})
      math(EXPR _reference_count "${_reference_count} + 1")
      set(_how "reference:${_ref_${_seed}_${_n}}")
    elseif(NOT _exempt_line STREQUAL "")
      math(EXPR _exempted_count "${_exempted_count} + 1")
      math(EXPR _exemption_numbers_${_exempt_line} "${_exemption_numbers_${_exempt_line}} + 1")
      list(APPEND _exemption_rows_${_exempt_line} ${_table_line_number})
      set(_row_exempted TRUE)
      set(_how "exempted")
    else()
      list(APPEND _row_missing ${_n})
      set(_how "missing")
    endif()
    string(APPEND _listing "${_table_line_number}\t${_seed}\tEq. ${_n}\t${_how}\n")
  endforeach()
  if(_row_missing)
    math(EXPR _missing_rows "${_missing_rows} + 1")
    string(REPLACE ";" ", " _row_missing "${_row_missing}")
    set(_note "")
    foreach(_exemption IN LISTS _exemptions)
      if(_exemption MATCHES "^${_seed}[|]([0-9]+)[|]([0-9]+)[|]([0-9]+)$")
        string(APPEND _note " (outside the exemption ${CMAKE_MATCH_1}-${CMAKE_MATCH_2} of seed ${_seed}, "
                            "${_table_rel}:${CMAKE_MATCH_3})")
      endif()
    endforeach()
    _problem("${_table_rel}:${_table_line_number}: seed ${_seed} '${_row_keys}': ${_seed_name_${_seed}} has "
             "no equation label and no reference by number for ${_row_missing}${_note}")
  elseif(_row_exempted)
    math(EXPR _exempted_rows "${_exempted_rows} + 1")
  endif()
endforeach()
if(DEFINED LIST_TO)
  file(WRITE "${LIST_TO}" "${_listing}")
endif()

# --- the exemptions: each used, each counted --------------------------------------------------
set(_exemption_report "")
foreach(_exemption IN LISTS _exemptions)
  string(REPLACE "|" ";" _parts "${_exemption}")
  list(GET _parts 0 _exempt_seed)
  list(GET _parts 1 _exempt_first)
  list(GET _parts 2 _exempt_last)
  list(GET _parts 3 _exempt_line)
  set(_used ${_exemption_numbers_${_exempt_line}})
  if(_used EQUAL 0)
    _problem("${_table_rel}:${_exempt_line}: stale exemption: no row cites an equation ${_exempt_first}-"
           "${_exempt_last} of seed ${_exempt_seed} that its text lacks")
  endif()
  set(_rows ${_exemption_rows_${_exempt_line}})
  if(_rows)
    list(REMOVE_DUPLICATES _rows)
  endif()
  list(LENGTH _rows _rows_count)
  string(APPEND _exemption_report "\n  seed ${_exempt_seed}, Eqs. ${_exempt_first}-${_exempt_last} (${_table_rel}:${_exempt_line}): "
                                  "${_used} number(s) in ${_rows_count} row(s): ${_exemption_why_${_exempt_line}}")
endforeach()
list(LENGTH _exemptions _exemption_count)

math(EXPR _found_rows "${_row_count} - ${_exempted_rows} - ${_missing_rows}")
string(CONCAT _summary "${_row_count} rows cite equations of a seed, ${_number_count} numbers (ranges expanded): "
              "${_label_count} found as an equation label, ${_reference_count} as a reference by number, "
              "${_exempted_count} exempted by ${_exemption_count} exemption(s); rows: ${_found_rows} found, "
              "${_exempted_rows} with exempted numbers, ${_missing_rows} not found")
if(_other_rows GREATER 0)
  string(APPEND _summary "; ${_other_rows} row(s) of other sources not checked")
endif()
if(_errors)
  list(LENGTH _errors _error_count)
  list(JOIN _errors "\n" _text)
  message("${_text}")
  message(FATAL_ERROR "citation seed check: ${_error_count} problem(s) (${_summary}); see the rule at the top of "
                      "tests/support/citation_seed_check.cmake")
endif()
message("citation seed check: ${_summary}; seed texts in ${SEEDS}.${_exemption_report}")
