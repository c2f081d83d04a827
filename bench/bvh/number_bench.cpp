// Number parsing on realistic BVH frame text, the parsers side by side in one binary:
//   BM_Number_FromChars        std::from_chars (libstdc++ 12 implements it with fast_float)
//   BM_Number_FastFloat        fast_float::from_chars from Debian's libfast-float-dev (header-only,
//                              inlined), when the header is available
//   BM_Number_HandWritten      retarget::internal::parseNumber, what every reader uses: a short
//                              hand-written path for plain decimals, std::from_chars for the rest
//   BM_Number_HandWrittenSwar  the SWAR parser the BVH reader had before (reference only)
//   BM_Number_Strtod           std::strtod, the exactness reference of the tests
// parseNumber keeps its hand-written path only while BM_Number_HandWritten beats
// BM_Number_FromChars here.
// The text is 180 values per line like an Axis Neuron export ("%.6f ", angles of a few tens of
// degrees, some negative), 2 MB in all; bytes/s is input text per second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

#if __has_include(<fast_float/fast_float.h>)
#include <fast_float/fast_float.h>
#define RETARGET_BENCH_HAS_FAST_FLOAT 1
#endif

#include <retarget/core/internal/number.hpp>

namespace {

const std::string& valueText() {
  static const std::string text = [] {
    std::mt19937 rng(7);
    std::normal_distribution<double> angle(0.0, 40.0);
    std::string out;
    char number[32];
    while (out.size() < 2000000) {
      for (int c = 0; c < 180; ++c) {
        const int n = std::snprintf(number, sizeof number, "%.6f ", angle(rng));
        out.append(number, static_cast<std::size_t>(n));
      }
      out += "\r\n";
    }
    return out;
  }();
  return text;
}

// The former parser of io/bvh.hpp, kept only as a reference: SWAR digit runs (8 bytes at once)
// for "iiiiiii.ffffffff", parseNumber for the rest.
namespace swar {

inline int leadingDigits8(const char* p, std::uint64_t& value) {
  std::uint64_t chunk;
  std::memcpy(&chunk, p, 8);
  const std::uint64_t x = chunk ^ 0x3030303030303030ull;
  const std::uint64_t non_digit = ((x + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
  const int count = non_digit == 0 ? 8 : __builtin_ctzll(non_digit) / 8;
  if (count == 0) {
    value = 0;
    return 0;
  }
  std::uint64_t v = x << (8 * (8 - count));
  v = (v * 10) + (v >> 8);
  v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
  value = v & 0xFFFFFFFFull;
  return count;
}

inline const char* parseDouble(const char* first, const char* last, double& value) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8};
  static constexpr std::uint64_t kPow10Int[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  const char* p = first;
  const bool negative = p != last && *p == '-';
  p += negative ? 1 : 0;
  if (last - p >= 17) {
    std::uint64_t integer = 0;
    std::uint64_t fraction = 0;
    const int integer_digits = leadingDigits8(p, integer);
    int fraction_digits = 0;
    const char* q = p + integer_digits;
    if (integer_digits < 8) {
      if (*q == '.') {
        fraction_digits = leadingDigits8(q + 1, fraction);
        q += 1 + fraction_digits;
      }
      if (fraction_digits < 8 && integer_digits + fraction_digits > 0 && *q != 'e' && *q != 'E' &&
          (*q < '0' || *q > '9')) {
        const std::uint64_t mantissa = integer * kPow10Int[fraction_digits] + fraction;
        const double magnitude = static_cast<double>(mantissa) / kPow10[fraction_digits];
        std::uint64_t bits;
        std::memcpy(&bits, &magnitude, sizeof bits);
        bits ^= static_cast<std::uint64_t>(negative) << 63;  // the sign without a branch
        std::memcpy(&value, &bits, sizeof bits);
        return q;
      }
    }
  }
  return retarget::internal::parseNumber(first, last, value);
}

}  // namespace swar

// Parses every value of the text with `parse` (prefix parser returning the end or nullptr) and
// skips the blanks between them, like the BVH frame loop.
template <typename Parse>
void parseAll(benchmark::State& state, Parse parse) {
  const std::string& text = valueText();
  const char* const end = text.data() + text.size();
  for (auto _ : state) {
    double sum = 0;
    std::size_t count = 0;
    const char* p = text.data();
    while (p < end) {
      while (p < end && (*p == ' ' || *p == '\r' || *p == '\n')) ++p;
      if (p == end) break;
      double value = 0;
      p = parse(p, end, value);
      if (p == nullptr) {
        state.SkipWithError("parse failed");
        return;
      }
      sum += value;
      ++count;
    }
    benchmark::DoNotOptimize(sum);
    benchmark::DoNotOptimize(count);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(text.size()));
}

void BM_Number_FromChars(benchmark::State& state) {
  parseAll(state, [](const char* first, const char* last, double& value) -> const char* {
    const auto result = std::from_chars(first, last, value);
    return result.ec == std::errc() ? result.ptr : nullptr;
  });
}
BENCHMARK(BM_Number_FromChars)->Unit(benchmark::kMillisecond);

#ifdef RETARGET_BENCH_HAS_FAST_FLOAT
void BM_Number_FastFloat(benchmark::State& state) {
  parseAll(state, [](const char* first, const char* last, double& value) -> const char* {
    const auto result = fast_float::from_chars(first, last, value);
    return result.ec == std::errc() ? result.ptr : nullptr;
  });
}
BENCHMARK(BM_Number_FastFloat)->Unit(benchmark::kMillisecond);
#endif

void BM_Number_HandWritten(benchmark::State& state) {
  parseAll(state, [](const char* first, const char* last, double& value) {
    return retarget::internal::parseNumber(first, last, value);
  });
}
BENCHMARK(BM_Number_HandWritten)->Unit(benchmark::kMillisecond);

void BM_Number_HandWrittenSwar(benchmark::State& state) {
  parseAll(state, [](const char* first, const char* last, double& value) {
    return swar::parseDouble(first, last, value);
  });
}
BENCHMARK(BM_Number_HandWrittenSwar)->Unit(benchmark::kMillisecond);

void BM_Number_Strtod(benchmark::State& state) {
  parseAll(state, [](const char* first, const char*, double& value) -> const char* {
    char* end = nullptr;
    value = std::strtod(first, &end);
    return end == first ? nullptr : end;
  });
}
BENCHMARK(BM_Number_Strtod)->Unit(benchmark::kMillisecond);

}  // namespace
