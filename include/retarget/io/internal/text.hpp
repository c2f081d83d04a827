#pragma once

/// @file
/// Line-oriented text parsing with file/line errors (`retarget::internal`): the helpers shared
/// by the text readers and writers in `retarget/io/` (joint-trajectory CSV, skeleton and
/// keypoint CSV, Kinect and NTU skeleton text).

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <retarget/core/error.hpp>

namespace retarget {
namespace internal {

/// Reads text line by line with a 1-based line counter. Strips a trailing CR (CRLF files) and
/// a UTF-8 byte-order mark on the first line. `fail()` throws ParseError at the current line.
class LineReader {
 public:
  LineReader(std::istream& in, std::string file) : in_(in), file_(std::move(file)) {}

  /// Advances to the next line; false at the end of the input.
  bool next() {
    if (!std::getline(in_, buffer_)) return false;
    ++line_number_;
    if (!buffer_.empty() && buffer_.back() == '\r') buffer_.pop_back();
    if (line_number_ == 1 && buffer_.size() >= 3 && buffer_.compare(0, 3, "\xEF\xBB\xBF") == 0) buffer_.erase(0, 3);
    return true;
  }
  /// Advances to the next line that is not empty or blank; false at the end of the input.
  bool nextNonEmpty() {
    while (next()) {
      if (buffer_.find_first_not_of(" \t") != std::string::npos) return true;
    }
    return false;
  }
  /// The current line, without its line ending.
  std::string_view line() const { return buffer_; }
  /// 1-based number of the current line (0 before the first call to next()).
  std::size_t lineNumber() const { return line_number_; }
  /// Name of the file being read.
  const std::string& file() const { return file_; }
  /// Throws ParseError(file, current line, what).
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(file_, line_number_, what); }

 private:
  std::istream& in_;
  std::string file_;
  std::string buffer_;
  std::size_t line_number_ = 0;
};

/// `text` without leading and trailing spaces and tabs.
inline std::string_view trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t");
  return text.substr(first, last - first + 1);
}

/// Splits `text` at every `delimiter` into `fields` (cleared first; fields are trimmed views
/// into `text`). "a,b," gives three fields, the last one empty.
inline void splitFields(std::string_view text, char delimiter, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t start = 0;
  while (true) {
    const std::size_t end = text.find(delimiter, start);
    if (end == std::string_view::npos) {
      fields.push_back(trim(text.substr(start)));
      return;
    }
    fields.push_back(trim(text.substr(start, end - start)));
    start = end + 1;
  }
}

/// Splits `text` at runs of spaces and tabs into `fields` (cleared first; no empty fields).
inline void splitWhitespace(std::string_view text, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t pos = 0;
  while (true) {
    pos = text.find_first_not_of(" \t", pos);
    if (pos == std::string_view::npos) return;
    const std::size_t end = text.find_first_of(" \t", pos);
    fields.push_back(text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos));
    if (end == std::string_view::npos) return;
    pos = end;
  }
}

/// Parses a whole field as a finite decimal number (an optional leading '+' is accepted).
/// Returns false for empty fields, trailing characters, NaN, infinities and out-of-range values.
inline bool parseFinite(std::string_view field, double& value) {
  if (!field.empty() && field.front() == '+') field.remove_prefix(1);
  if (field.empty()) return false;
  const char* first = field.data();
  const char* last = first + field.size();
  const auto result = std::from_chars(first, last, value, std::chars_format::general);
  return result.ec == std::errc() && result.ptr == last && std::isfinite(value);
}

/// Parses a whole field as a non-negative decimal integer.
inline bool parseUnsigned(std::string_view field, unsigned long long& value) {
  if (field.empty()) return false;
  const char* first = field.data();
  const char* last = first + field.size();
  const auto result = std::from_chars(first, last, value);
  return result.ec == std::errc() && result.ptr == last;
}

/// A field quoted for an error message: at most 40 characters, non-printable bytes as \xNN.
inline std::string quoted(std::string_view field) {
  std::string out = "'";
  const std::size_t n = std::min<std::size_t>(field.size(), 40);
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(field[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  if (field.size() > n) out += "...";
  return out + "'";
}

/// Parses `field` as a finite number or fails at the reader's line, naming the column.
inline double parseFiniteOrFail(const LineReader& reader, std::string_view field, std::size_t column,
                                std::string_view column_name = {}) {
  double value = 0;
  if (!parseFinite(field, value)) {
    std::string what = "expected a finite number in column " + std::to_string(column);
    if (!column_name.empty()) what += " (" + std::string(column_name) + ")";
    reader.fail(what + ", got " + quoted(field));
  }
  return value;
}

/// Splits the reader's current line at commas into `fields` and returns the time in its first
/// column (s). Fails unless the line has `column_count` values (one per header column) and the
/// time is finite and, when `previous_time` is not null, greater than `*previous_time`.
inline double splitTimedCsvRow(const LineReader& reader, std::size_t column_count, const double* previous_time,
                               std::vector<std::string_view>& fields) {
  splitFields(reader.line(), ',', fields);
  if (fields.size() != column_count) {
    reader.fail("expected " + std::to_string(column_count) + " values (one per header column), got " +
                std::to_string(fields.size()));
  }
  const double time = parseFiniteOrFail(reader, fields[0], 1, "time");
  if (previous_time != nullptr && !(time > *previous_time)) {
    std::ostringstream what;
    what.precision(17);
    what << "expected time to increase, got " << time << " after " << *previous_time;
    reader.fail(what.str());
  }
  return time;
}

/// True when every byte is printable ASCII (names in our headers).
inline bool isPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f;
  });
}

/// Opens `path` for reading; throws ParseError(path, 0, ...) when it cannot.
inline std::ifstream openForReading(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path, 0, "cannot open file for reading");
  return in;
}

/// Opens `path` for writing; throws Error naming the path when it cannot.
inline std::ofstream openForWriting(const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("[retarget] cannot open '" + path + "' for writing");
  return out;
}

/// Appends the shortest decimal text that reads back as exactly `value`.
inline void appendNumber(std::string& out, double value) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

/// Flushes `out` and throws Error naming `path` when the stream failed.
inline void finishWriting(std::ostream& out, const std::string& path) {
  out.flush();
  if (!out) throw Error("[retarget] failed writing '" + path + "'");
}

}  // namespace internal
}  // namespace retarget
