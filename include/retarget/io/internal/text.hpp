#pragma once

/// @file
/// Row helpers of the CSV-like readers in `retarget/io/` (joint-trajectory CSV, skeleton and
/// keypoint CSV, Kinect and NTU skeleton text): numbers that fail naming their column, and timed
/// rows. Brings in the shared text module (core/internal/text.hpp, number.hpp, line_reader.hpp).

#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/internal/line_reader.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/core/internal/text.hpp>

namespace retarget {
namespace internal {

/// Parses `field` as a finite number or fails at the reader's line, naming the column.
RETARGET_DECL double parseFiniteOrFail(const LineReader& reader, std::string_view field, std::size_t column,
                                       std::string_view column_name = {});

/// Times of the rows read so far by splitTimedCsvRow (s): the first and the last.
struct CsvRowTimes {
  std::size_t rows = 0;
  double first = 0;
  double last = 0;
};

/// Splits the reader's current line at commas into `fields` and returns the time in its first
/// column (s), recording it in `times`. Fails unless the line has `column_count` values (one per
/// header column) and the time is finite and greater than the previous row's.
RETARGET_DECL double splitTimedCsvRow(const LineReader& reader, std::size_t column_count, CsvRowTimes& times,
                                      std::vector<std::string_view>& fields);

#if RETARGET_DEFINE_IO

RETARGET_DECL double parseFiniteOrFail(const LineReader& reader, std::string_view field, std::size_t column,
                                       std::string_view column_name) {
  double value = 0;
  if (!parseFinite(field, value)) {
    std::string what = "expected a finite number in column " + std::to_string(column);
    if (!column_name.empty()) what += " (" + std::string(column_name) + ")";
    reader.fail(what + ", got " + internal::quoted(field));
  }
  return value;
}

RETARGET_DECL double splitTimedCsvRow(const LineReader& reader, std::size_t column_count, CsvRowTimes& times,
                                      std::vector<std::string_view>& fields) {
  splitFields(reader.line(), ',', fields);
  if (fields.size() != column_count) {
    reader.fail("expected " + std::to_string(column_count) + " values (one per header column), got " +
                std::to_string(fields.size()));
  }
  const double time = parseFiniteOrFail(reader, fields[0], 1, "time");
  if (times.rows > 0 && !(time > times.last)) {
    std::ostringstream what;
    what.precision(17);
    what << "expected time to increase, got " << time << " after " << times.last;
    reader.fail(what.str());
  }
  if (times.rows++ == 0) times.first = time;
  times.last = time;
  return time;
}

#endif  // RETARGET_DEFINE_IO

}  // namespace internal
}  // namespace retarget
