# The reading of citations shared by tests/support/citation_check.cmake and
# tests/support/citation_seed_check.cmake (included by both; the rule is written at the top of
# citation_check.cmake): `_citation_sanitize(var)` makes text safe for CMake lists, and
# `_citation_keys(text out)` returns the citation keys of one sanitized line ("Eq. 1-23",
# "Section III-B2", "Fig. 12a"); `_table_cells(line out)` splits a Markdown table row into its
# cells; `_number_range(text first last)` reads "N" or "N-M".
include_guard(GLOBAL)

# The cells of a Markdown table row "| a | b | c |" as a list (unstripped) into `out`.
function(_table_cells line out)
  string(REGEX REPLACE "^\\|(.*)\\|[ \t]*$" "\\1" _cells "${line}")
  string(REPLACE "|" ";" _cells "${_cells}")
  set(${out} "${_cells}" PARENT_SCOPE)
endfunction()

# "N" or "N-M" (whole numbers) into `first` and `last` (N and N for a single number); both empty
# when `text` is neither.
function(_number_range text first last)
  if(text MATCHES "^([0-9]+)(-([0-9]+))?$")
    set(_last ${CMAKE_MATCH_1})
    if(CMAKE_MATCH_3)
      set(_last ${CMAKE_MATCH_3})
    endif()
    set(${first} ${CMAKE_MATCH_1} PARENT_SCOPE)
    set(${last} ${_last} PARENT_SCOPE)
  else()
    set(${first} "" PARENT_SCOPE)
    set(${last} "" PARENT_SCOPE)
  endif()
endfunction()

# Loose match of a citation: the word, then numbers-like words joined by list separators.
set(_kind "(Eqs?\\.|Equations?|Sections?|Secs?\\.|Figs?\\.|Figures?|Tables?)")
set(_loose_item "[0-9IVX][-0-9A-Za-z./]*(\\([a-z]\\))?")
set(_citation_re "${_kind} ${_loose_item}((,|, and| and| &) ${_loose_item})*")
# Strict number at the start of a loose item, and the optional range end after it.
set(_number_re "^([0-9]+(\\.[0-9]+)*[a-z]?(\\([a-z]\\))?|[IVX]+(-[A-H][0-9]*(/[0-9]+)?)?)")
set(_range_re "^-([0-9]+(\\.[0-9]+)*[a-z]?|[a-z]|[IVX]+)")

# Text made safe for CMake lists: en/em dashes become hyphens, list-breaking characters go.
macro(_citation_sanitize var)
  string(REPLACE "–" "-" ${var} "${${var}}")
  string(REPLACE "—" "-" ${var} "${${var}}")
  string(REPLACE "\\" "/" ${var} "${${var}}")
  string(REPLACE ";" " ~ " ${var} "${${var}}")
  string(REPLACE "[" "<" ${var} "${${var}}")
  string(REPLACE "]" ">" ${var} "${${var}}")
endmacro()

# The citation keys in one (sanitized) line of text, in order, into `out`.
function(_citation_keys text out)
  set(_keys "")
  string(REGEX MATCHALL "${_citation_re}" _hits "${text}")
  foreach(_hit IN LISTS _hits)
    string(REGEX MATCH "^${_kind} " _word "${_hit}")
    string(LENGTH "${_word}" _word_length)
    string(SUBSTRING "${_hit}" ${_word_length} -1 _rest)
    string(STRIP "${_word}" _word)
    if(_word MATCHES "^Eq")
      set(_word "Eq.")
    elseif(_word MATCHES "^Sec")
      set(_word "Section")
    elseif(_word MATCHES "^Fig")
      set(_word "Fig.")
    else()
      set(_word "Table")
    endif()
    string(REGEX REPLACE "(,|, and| and| &) " ";" _items "${_rest}")
    foreach(_item IN LISTS _items)
      if(NOT _item MATCHES "${_number_re}")
        continue()
      endif()
      set(_number "${CMAKE_MATCH_0}")
      string(LENGTH "${_number}" _length)
      string(SUBSTRING "${_item}" ${_length} -1 _tail)
      if(_tail MATCHES "${_range_re}")
        string(APPEND _number "${CMAKE_MATCH_0}")
        string(LENGTH "${CMAKE_MATCH_0}" _length)
        string(SUBSTRING "${_tail}" ${_length} -1 _tail)
      endif()
      # A number must end the word ("Section Valid" is no citation).
      if(_tail MATCHES "^([A-Za-z0-9]|\\.[.0-9])")
        continue()
      endif()
      list(APPEND _keys "${_word} ${_number}")
    endforeach()
  endforeach()
  set(${out} "${_keys}" PARENT_SCOPE)
endfunction()
