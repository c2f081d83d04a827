#pragma once

/// @file
/// Text helpers (`retarget::internal`): blanks, trimming, splitting into fields or tokens,
/// case-insensitive comparison, quoting for error messages, printable-ASCII and UTF-8 checks.
/// The one copy used by every text reader (BVH, CSV, Kinect, NTU, URDF, skeleton schemas);
/// numbers are in core/internal/number.hpp, line reading in core/internal/line_reader.hpp.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>

namespace retarget {
namespace internal {

/// True for the C-locale white-space bytes: space, tab, LF, VT, FF, CR.
constexpr bool isBlank(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

/// `text` without leading and trailing white space.
RETARGET_DECL std::string_view trim(std::string_view text);

/// True when `text` is empty or only white space.
RETARGET_DECL bool isBlankLine(std::string_view text);

/// Splits `text` at every `delimiter` into `fields` (cleared first; fields are trimmed views
/// into `text`). "a,b," gives three fields, the last one empty.
RETARGET_DECL void splitFields(std::string_view text, char delimiter, std::vector<std::string_view>& fields);

/// Splits `text` at runs of white space into `fields` (cleared first; views into `text`, no
/// empty fields).
RETARGET_DECL void splitWhitespace(std::string_view text, std::vector<std::string_view>& fields);

/// The white-space separated tokens of `text` (see the overload that reuses a vector).
RETARGET_DECL std::vector<std::string_view> splitWhitespace(std::string_view text);

/// ASCII lower case of `c` (other bytes unchanged; no locale).
constexpr char toLowerAscii(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

/// ASCII letter tests (no locale: a name reads the same under any C locale).
constexpr bool isUpperAscii(char c) { return c >= 'A' && c <= 'Z'; }
constexpr bool isAlphaAscii(char c) { return isUpperAscii(c) || (c >= 'a' && c <= 'z'); }

/// True when `a` and `b` are equal ignoring ASCII case.
RETARGET_DECL bool equalsIgnoreCase(std::string_view a, std::string_view b);

/// A field quoted for an error message: at most 40 characters, non-printable bytes as \xNN.
RETARGET_DECL std::string quoted(std::string_view field);

/// True when every byte is printable ASCII (names in our headers).
RETARGET_DECL bool isPrintableAscii(std::string_view text);

/// True when `text` is valid UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
RETARGET_DECL bool isValidUtf8(std::string_view text);

}  // namespace internal

#if RETARGET_DEFINE_CORE

namespace internal {

RETARGET_DECL std::string_view trim(std::string_view text) {
  std::size_t first = 0;
  std::size_t last = text.size();
  while (first < last && isBlank(text[first])) ++first;
  while (last > first && isBlank(text[last - 1])) --last;
  return text.substr(first, last - first);
}

RETARGET_DECL bool isBlankLine(std::string_view text) { return trim(text).empty(); }

RETARGET_DECL void splitFields(std::string_view text, char delimiter, std::vector<std::string_view>& fields) {
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

RETARGET_DECL void splitWhitespace(std::string_view text, std::vector<std::string_view>& fields) {
  fields.clear();
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && isBlank(text[i])) ++i;
    const std::size_t start = i;
    while (i < text.size() && !isBlank(text[i])) ++i;
    if (i > start) fields.push_back(text.substr(start, i - start));
  }
}

RETARGET_DECL std::vector<std::string_view> splitWhitespace(std::string_view text) {
  std::vector<std::string_view> fields;
  splitWhitespace(text, fields);
  return fields;
}

RETARGET_DECL bool equalsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() &&
         std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) { return toLowerAscii(x) == toLowerAscii(y); });
}

RETARGET_DECL std::string quoted(std::string_view field) {
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

RETARGET_DECL bool isPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u >= 0x20 && u < 0x7f;
  });
}

RETARGET_DECL bool isValidUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    int extra = 0;
    std::uint32_t code = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      extra = 1;
      code = c & 0x1fu;
    } else if ((c & 0xf0) == 0xe0) {
      extra = 2;
      code = c & 0x0fu;
    } else if ((c & 0xf8) == 0xf0) {
      extra = 3;
      code = c & 0x07u;
    } else {
      return false;
    }
    if (i + static_cast<std::size_t>(extra) >= text.size()) return false;
    for (int k = 1; k <= extra; ++k) {
      const auto d = static_cast<unsigned char>(text[i + static_cast<std::size_t>(k)]);
      if ((d & 0xc0) != 0x80) return false;
      code = (code << 6) | (d & 0x3fu);
    }
    constexpr std::uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (code < kMin[extra] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return false;
    i += static_cast<std::size_t>(extra) + 1;
  }
  return true;
}

}  // namespace internal

#endif  // RETARGET_DEFINE_CORE

}  // namespace retarget
