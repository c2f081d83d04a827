#pragma once

/// @file
/// Decimal numbers in text (`retarget::internal`): parsing with `std::from_chars` (correctly
/// rounded, so the same value as `strtod`; libstdc++ 12 implements it with the fast_float
/// algorithm) behind a short exact path for plain decimals, and shortest exact formatting with
/// `std::to_chars`. The one number parser of every text reader and writer (BVH, CSV, Kinect,
/// NTU, URDF, skeleton schemas).

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>
#include <type_traits>

#include <retarget/core/compilation.hpp>

namespace retarget {
namespace internal {

/// Parses the decimal number at the start of [first, last) like `std::from_chars` (general
/// format), also accepting one leading '+' (not "+-"). Returns the end of the number, or
/// nullptr when there is none or it is out of range. `Scalar` is float or double; the result
/// is always the correctly rounded value (the same as `strtod` / `strtof`).
///
/// Doubles written as plain decimals of at most 15 digits without exponent (what BVH, CSV and
/// Kinect exporters write) take a short hand-written path: the digits form an integer
/// m < 10^15 < 2^53 and the value is m / 10^k, one correctly rounded division of two exact
/// doubles. It is kept because bench/bvh/number_bench.cpp shows it faster than
/// `std::from_chars` on BVH frame text (BM_Number_HandWritten about 1.35x
/// BM_Number_FromChars; BM_Number_FastFloat, libfast-float-dev, is in between). Everything else goes to `std::from_chars`.
template <typename Scalar>
const char* parseNumber(const char* first, const char* last, Scalar& value) {
  static_assert(std::is_floating_point_v<Scalar>, "parseNumber parses float or double");
  if (first != last && *first == '+') {
    ++first;
    if (first != last && *first == '-') return nullptr;
  }
  if constexpr (std::is_same_v<Scalar, double>) {
    static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    const char* p = first;
    const bool negative = p != last && *p == '-';
    p += negative ? 1 : 0;
    std::uint64_t mantissa = 0;
    int digits = 0;
    int fraction_digits = 0;
    while (p != last && static_cast<unsigned>(*p - '0') < 10u) {
      mantissa = mantissa * 10u + static_cast<unsigned>(*p - '0');
      ++digits;
      ++p;
    }
    if (p != last && *p == '.') {
      ++p;
      while (p != last && static_cast<unsigned>(*p - '0') < 10u) {
        mantissa = mantissa * 10u + static_cast<unsigned>(*p - '0');
        ++digits;
        ++fraction_digits;
        ++p;
      }
    }
    if (digits > 0 && digits <= 15 && (p == last || (*p != 'e' && *p != 'E'))) {
      const double magnitude = static_cast<double>(mantissa) / kPow10[fraction_digits];
      value = negative ? -magnitude : magnitude;
      return p;
    }
  }
  const auto result = std::from_chars(first, last, value, std::chars_format::general);
  return result.ec == std::errc() ? result.ptr : nullptr;
}

/// Parses a whole field as a finite decimal number (an optional leading '+' is accepted).
/// Returns false for empty fields, trailing characters, NaN, infinities and out-of-range values.
template <typename Scalar>
bool parseFinite(std::string_view field, Scalar& value) {
  const char* last = field.data() + field.size();
  return !field.empty() && parseNumber(field.data(), last, value) == last && std::isfinite(value);
}

/// Parses a whole field as a decimal integer of type `Integer` (no sign for unsigned types).
/// Returns false for empty fields, trailing characters and out-of-range values.
template <typename Integer>
bool parseInteger(std::string_view field, Integer& value) {
  const char* last = field.data() + field.size();
  const auto result = std::from_chars(field.data(), last, value);
  return !field.empty() && result.ec == std::errc() && result.ptr == last;
}

/// Parses a whole field as a non-negative decimal integer.
RETARGET_DECL bool parseUnsigned(std::string_view field, unsigned long long& value);

/// Appends the shortest decimal text that reads back as exactly `value` ("-0" is written "0"
/// when `signed_zero` is false).
RETARGET_DECL void appendNumber(std::string& out, double value, bool signed_zero = true);

}  // namespace internal

#if RETARGET_DEFINE_CORE

namespace internal {

RETARGET_DECL bool parseUnsigned(std::string_view field, unsigned long long& value) {
  return parseInteger(field, value);
}

RETARGET_DECL void appendNumber(std::string& out, double value, bool signed_zero) {
  char buffer[32];
  if (!signed_zero && value == 0) value = 0;
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}

}  // namespace internal

#endif  // RETARGET_DEFINE_CORE

}  // namespace retarget
