#pragma once

/// @file
/// The BVH reader's internals (`retarget::internal`): `BvhParser` turns the text of a
/// `LineReader` into a `BvhMotion`. Public entry points, accepted syntax and conventions are in
/// retarget/io/bvh.hpp.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>


#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/line_reader.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/human/bvh_motion.hpp>

// What the definitions use, seen only where they are compiled (header-only, or src/io.cpp).
#if RETARGET_DEFINE_IO
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__linux__)
#include <sys/mman.h>
#endif
#endif

namespace retarget {
namespace internal {

/// The fast path of BVH frame lines, used by BvhParser: the plain decimals that make up nearly
/// every BVH file ("-12.345678", "90", ".5": an optional '-', at most 7 integer digits, an
/// optional '.' and at most 8 fraction digits, at least one digit). A line is read in 64-byte
/// blocks: a bit mask of the block's blanks gives each value's start and end (SSE2 compares
/// where available, a portable loop elsewhere), so finding the next value never waits for the
/// current one to be converted; each value is then checked and converted with 8-byte word
/// arithmetic, without a loop over its characters and without branches on its sign or digit
/// counts. Anything else (exponents, '+', long numbers, errors) is left to parseNumber, with the
/// same result: the values read here are the correctly rounded ones, bit for bit those of
/// `strtod` and parseNumber (see storeDecimal).
struct BvhFrameValues {
  /// Bytes scanned at a time (one blank mask).
  static constexpr std::ptrdiff_t kBlockBytes = 64;
  /// Bytes a block needs readable from its start: the block and the 8-byte words of a value
  /// ending in it.
  static constexpr std::ptrdiff_t kReadBytes = kBlockBytes + 16;
  /// Values parseLine may write past its limit (a block holds at most 32 values).
  static constexpr int kSlack = static_cast<int>(kBlockBytes / 2);
  /// The end of a line is copied into a buffer padded with blanks when it is this short or shorter.
  static constexpr std::ptrdiff_t kTailBytes = 128;

  /// Parses the plain decimals at the start of a frame line [p, end) (p on its first non-blank
  /// character) into `out` (`count` of them already there), while `count` is at most `limit`.
  /// `out` must have room for `limit` + kSlack values. Returns where the general parser carries
  /// on: the first value left (not a plain decimal, or past the limit), or the line's end.
  /// Reads only [p, end).
  RETARGET_DECL static const char* parseLine(const char* p, const char* end, double* out, int limit,
                                             int& count) noexcept;

  /// Index of the lowest set bit of `bits` (which is not 0).
  RETARGET_DECL static std::size_t lowestSetBit(std::uint64_t bits) noexcept;

  /// Bit i set when `p[i]` is blank (isBlank), for i in [0, 64): SSE2 compares where available,
  /// else blankMaskPortable.
  RETARGET_DECL static std::uint64_t blankMask(const char* p) noexcept;

  /// blankMask one byte at a time, on any host (the tests check the two agree).
  RETARGET_DECL static std::uint64_t blankMaskPortable(const char* p) noexcept;

  /// The 8 bytes at `p` as a word holding byte i in bits 8i to 8i+7, on any host.
  RETARGET_DECL static std::uint64_t loadWord(const char* p) noexcept;

  /// Value of the 8-digit decimal held in a word (byte 0 most significant, each byte 0 to 9).
  RETARGET_DECL static std::uint64_t eightDigits(std::uint64_t digits) noexcept;

  /// Stores at `out` the value of a plain decimal from its digits: `integer` and `fraction` hold
  /// 0-9 in their first `integer_digits` (0 to 7) and `fraction_digits` (0 to 8) bytes (byte 0 most
  /// significant) and 0 in the others. Reading both runs left-aligned in 8 digits gives the integer
  /// m = integer * 10^8 + fraction * 10^(8 - fraction_digits) < 10^15, exact as a double, and the
  /// value m / 10^8 is one correctly rounded division of exact operands: the correctly rounded
  /// value of the decimal, the double `strtod` gives ("-0" gives -0.0). `negative` is 0 or 1.
  /// SSE2 where available (both runs converted at once), else storeDecimalPortable.
  RETARGET_DECL static void storeDecimal(double* out, std::uint64_t integer, std::size_t integer_digits,
                                         std::uint64_t fraction, std::size_t negative) noexcept;

  /// storeDecimal with 64-bit integer arithmetic, on any host (the tests check the two agree).
  RETARGET_DECL static void storeDecimalPortable(double* out, std::uint64_t integer, std::size_t integer_digits,
                                                 std::uint64_t fraction, std::size_t negative) noexcept;

  /// Parses the values ending in the blocks that start in [block, stop) (kReadBytes readable from
  /// each) while `count` <= `limit`. `token` is the start of the current value; false when a
  /// value is not a plain decimal (`token` then points at it).
  RETARGET_DECL static bool parseBlocks(const char* block, const char* stop, const char*& token, double* out, int& count,
                                        int limit) noexcept;

};

/// Reserves room for `capacity` values in `values` (which keeps its size and contents), asking
/// Linux to back a large buffer with 2 MiB pages (madvise MADV_HUGEPAGE, a hint): the first write to
/// each 4 KiB page of a fresh buffer is a page fault, which costs more than parsing the values that
/// fill it (bench/bvh/bvh_bench.cpp, BM_Bvh_LimitAllocate). Elsewhere, or when refused, a plain
/// reserve.
RETARGET_DECL void reserveLargeBuffer(std::vector<double>& values, std::size_t capacity);

/// BVH parser over a line reader: the hierarchy (ROOT / JOINT / End Site blocks, tokenised
/// across lines), the MOTION header, then one frame of channel values per line. Every error is a
/// ParseError naming the file, the line and what was expected.
class BvhParser {
 public:
  explicit BvhParser(LineReader& reader) : reader_(reader) {}

  RETARGET_DECL BvhMotion parse();

 private:
  [[noreturn]] void fail(const std::string& what) const { reader_.fail(what); }

  // Splits the next non-blank line into tokens_; false at end of input.
  RETARGET_DECL bool nextLine();

  RETARGET_DECL bool nextToken(std::string_view& token);

  bool moreOnLine() const { return token_index_ < tokens_.size(); }

  RETARGET_DECL void expectKeyword(std::string_view keyword);

  RETARGET_DECL double expectNumber(const char* what);

  RETARGET_DECL static bool parseChannel(std::string_view token, BvhChannel& channel);

  // Name of a ROOT/JOINT: the rest of the line (tokens joined by one space), leaving a final
  // "{" on the line as the next token.
  RETARGET_DECL std::string readName(const char* keyword);

  RETARGET_DECL std::string uniqueEndSiteName(const std::string& parent_name) const;

  // Parses a joint body after ROOT/JOINT (or after "End Site" when end_site).
  RETARGET_DECL void parseJoint(BvhMotion& motion, int parent, bool end_site, int depth);

  RETARGET_DECL void parseMotionHeader(BvhMotion& motion);

  RETARGET_DECL void parseFrames(BvhMotion& motion);

  static constexpr std::size_t kMaxJoints = 100000;
  static constexpr int kMaxDepth = 1000;  // the parser recurses once per level

  LineReader& reader_;
  std::vector<std::string_view> tokens_;
  std::size_t token_index_ = 0;
  std::vector<std::string> names_;
};

#if RETARGET_DEFINE_IO

RETARGET_DECL void reserveLargeBuffer(std::vector<double>& values, std::size_t capacity) {
  if (capacity <= values.capacity()) return;
  values.reserve(capacity);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHugePage = std::uintptr_t{1} << 21;
  if (capacity * sizeof(double) >= 4 * kHugePage) {
    // The whole 2 MiB pages of the buffer past the values already there (not touched yet).
    const auto begin = reinterpret_cast<std::uintptr_t>(values.data() + values.size());
    const std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t last = reinterpret_cast<std::uintptr_t>(values.data() + values.capacity()) & ~(kHugePage - 1);
    if (last > first) (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#endif
}

RETARGET_DECL std::size_t BvhFrameValues::lowestSetBit(std::uint64_t bits) noexcept {
#if defined(__GNUC__)
  return static_cast<std::size_t>(__builtin_ctzll(bits));
#else
  std::size_t index = 0;
  for (; (bits & 1) == 0; bits >>= 1) ++index;
  return index;
#endif
}

#if defined(__SSE2__)

RETARGET_DECL std::uint64_t BvhFrameValues::blankMask(const char* p) noexcept {
  // ' ', or '\t' to '\r' (p[i] - 9 <= 4 unsigned), 16 bytes at a time.
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i nine = _mm_set1_epi8(9);
  const __m128i four = _mm_set1_epi8(4);
  std::uint64_t mask = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i control = _mm_sub_epi8(bytes, nine);
    const __m128i blank =
        _mm_or_si128(_mm_cmpeq_epi8(bytes, space), _mm_cmpeq_epi8(_mm_min_epu8(control, four), control));
    mask |= std::uint64_t{static_cast<unsigned>(_mm_movemask_epi8(blank))} << (16 * k);
  }
  return mask;
}

#else

RETARGET_DECL std::uint64_t BvhFrameValues::blankMask(const char* p) noexcept { return blankMaskPortable(p); }

#endif

RETARGET_DECL std::uint64_t BvhFrameValues::blankMaskPortable(const char* p) noexcept {
  std::uint64_t mask = 0;
  for (unsigned i = 0; i < 64; ++i) mask |= std::uint64_t{isBlank(p[i])} << i;
  return mask;
}

RETARGET_DECL std::uint64_t BvhFrameValues::loadWord(const char* p) noexcept {
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  std::uint64_t word = 0;
  std::memcpy(&word, p, sizeof word);
  return word;
#else
  std::uint64_t word = 0;
  for (unsigned i = 0; i < 8; ++i) word |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
  return word;
#endif
}

RETARGET_DECL std::uint64_t BvhFrameValues::eightDigits(std::uint64_t digits) noexcept {
  // Pairs (10 a + b in the even bytes), then quads and the octet: 2-digit groups times 10^6,
  // 10^4, 10^2 and 1 summed in the high half of one product each for the even and odd pairs.
  digits = digits * 10 + (digits >> 8);
  constexpr std::uint64_t kPairs = 0x000000FF000000FFull;
  return ((((digits & kPairs) * (100 + (1000000ull << 32))) + (((digits >> 16) & kPairs) * (1 + (10000ull << 32)))) >>
          32) &
         0xFFFFFFFFull;
}

RETARGET_DECL void BvhFrameValues::storeDecimal(double* out, std::uint64_t integer, std::size_t integer_digits,
                                                std::uint64_t fraction, std::size_t negative) noexcept {
  static constexpr std::uint64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
  // m / -10^8 is -(m / 10^8) exactly, -0.0 for m = 0: the sign costs nothing.
  static constexpr double kDivisor[] = {1e8, -1e8};
#if defined(__SSE2__)
  // Both runs in one register (the integer digits in the low 8 bytes), widened to 16 bits: pairs
  // 10 a + b, quads 100 p + q, then the two 8-digit values 10^4 q + r in 32-bit lanes, and
  // m = integer value * 10^integer_digits + fraction value in the low 64 bits.
  const __m128i zero = _mm_setzero_si128();
  const __m128i tens = _mm_set1_epi32(10 | (1 << 16));
  const __m128i digits = _mm_unpacklo_epi64(_mm_cvtsi64_si128(static_cast<long long>(integer)),
                                            _mm_cvtsi64_si128(static_cast<long long>(fraction)));
  const __m128i pairs =
      _mm_packs_epi32(_mm_madd_epi16(_mm_unpacklo_epi8(digits, zero), tens), _mm_madd_epi16(_mm_unpackhi_epi8(digits, zero), tens));
  const __m128i quads = _mm_madd_epi16(pairs, _mm_set1_epi32(100 | (1 << 16)));
  const __m128i octets = _mm_madd_epi16(_mm_packs_epi32(quads, quads), _mm_set1_epi32(10000 | (1 << 16)));
  const __m128i m = _mm_add_epi64(
      _mm_mul_epu32(octets, _mm_cvtsi64_si128(static_cast<long long>(kPow10[integer_digits]))), _mm_srli_epi64(octets, 32));
  // m < 2^52 as a double: the bits of 2^52 + m, minus 2^52 (both exact).
  const __m128d two52 = _mm_set_sd(4503599627370496.0);
  const __m128d m_double = _mm_sub_sd(_mm_castsi128_pd(_mm_or_si128(m, _mm_castpd_si128(two52))), two52);
  _mm_storel_pd(out, _mm_div_sd(m_double, _mm_load_sd(kDivisor + negative)));
#else
  (void)kPow10;
  (void)kDivisor;
  storeDecimalPortable(out, integer, integer_digits, fraction, negative);
#endif
}

RETARGET_DECL void BvhFrameValues::storeDecimalPortable(double* out, std::uint64_t integer, std::size_t integer_digits,
                                                        std::uint64_t fraction, std::size_t negative) noexcept {
  static constexpr std::uint64_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
  static constexpr double kDivisor[] = {1e8, -1e8};
  const std::uint64_t m = eightDigits(integer) * kPow10[integer_digits] + eightDigits(fraction);
  *out = static_cast<double>(static_cast<std::int64_t>(m)) / kDivisor[negative];
}

RETARGET_DECL bool BvhFrameValues::parseBlocks(const char* block, const char* stop, const char*& token, double* out,
                                               int& count, int limit) noexcept {
  // Low `n` bytes of a word.
  static constexpr std::uint64_t kKeep[] = {0,
                                            0xFFull,
                                            0xFFFFull,
                                            0xFFFFFFull,
                                            0xFFFFFFFFull,
                                            0xFFFFFFFFFFull,
                                            0xFFFFFFFFFFFFull,
                                            0xFFFFFFFFFFFFFFull,
                                            ~std::uint64_t{0}};
  constexpr std::uint64_t kZeros = 0x3030303030303030ull;
  constexpr std::uint64_t kHigh = 0x8080808080808080ull;
  // x ^ kZeros holds 0-9 in a byte that is a digit; adding 0x76 sets the high bit of bytes above
  // 9 (exact up to the first such byte, which is all that is used).
  constexpr std::uint64_t kAboveNine = 0x7676767676767676ull;
  const char* start = token;
  double* next = out + count;
  double* const last = out + limit;
  bool plain = true;
  for (; block < stop && next <= last; block += kBlockBytes) {
    std::uint64_t blanks = blankMask(block);
    while (blanks != 0) {
      const char* end = block + lowestSetBit(blanks);
      blanks &= blanks - 1;
      if (end == start) {  // a blank after a blank
        ++start;
        continue;
      }
      // [start, end): '-'?, integer digits, then nothing or '.' and fraction digits. The sign is
      // read from the same word as the integer digits (no load waits for another).
      const std::uint64_t word = loadWord(start) ^ kZeros;
      const std::size_t negative = (word & 0xFF) == ('-' ^ '0') ? 1 : 0;
      const std::uint64_t integer = word >> (8 * negative);
      // First byte that is not a digit (byte 7 at most: a longer integer part fails below).
      const std::size_t integer_digits =
          lowestSetBit((((integer + kAboveNine) | integer) & kHigh) | (std::uint64_t{1} << 63)) >> 3;
      const char* dot = start + negative + integer_digits;
      const auto rest = static_cast<std::size_t>(end - dot);
      const std::size_t fraction_digits = rest - (rest != 0 ? 1 : 0);
      const std::uint64_t fraction = loadWord(dot + 1) ^ kZeros;
      if ((rest != 0 && *dot != '.') || fraction_digits > 8 ||
          ((((fraction + kAboveNine) | fraction) & kHigh) & kKeep[fraction_digits]) != 0 ||
          integer_digits + fraction_digits == 0) {
        plain = false;
        break;
      }
      storeDecimal(next, integer & kKeep[integer_digits], integer_digits, fraction & kKeep[fraction_digits], negative);
      ++next;
      start = end + 1;
    }
    if (!plain) break;
  }
  token = start;
  count = static_cast<int>(next - out);
  return plain;
}

RETARGET_DECL const char* BvhFrameValues::parseLine(const char* p, const char* end, double* out, int limit,
                                                    int& count) noexcept {
  const char* token = p;
  bool more = true;
  if (end - p >= kReadBytes) {
    const auto blocks = static_cast<std::size_t>((end - kReadBytes - p) / kBlockBytes + 1);
    more = parseBlocks(p, p + static_cast<std::ptrdiff_t>(blocks) * kBlockBytes, token, out, count, limit);
  }
  if (more && count <= limit && end - token <= kTailBytes) {
    // The line's last values, from a copy padded with blanks (so they end in a blank too).
    char tail[kTailBytes + kReadBytes];
    const auto size = static_cast<std::size_t>(end - token);
    std::memcpy(tail, token, size);
    std::memset(tail + size, ' ', sizeof tail - size);
    const char* tail_token = tail;
    parseBlocks(tail, tail + size, tail_token, out, count, limit);
    token += std::min<std::ptrdiff_t>(tail_token - tail, end - token);
  }
  return token;
}

RETARGET_DECL BvhMotion BvhParser::parse() {
  BvhMotion motion;
  expectKeyword("HIERARCHY");
  std::string_view token;
  if (!nextToken(token)) fail("unexpected end of file, expected ROOT");
  if (token != "ROOT") fail("expected ROOT, got " + internal::quoted(token));
  while (token == "ROOT") {
    parseJoint(motion, -1, false, 0);
    if (!nextToken(token)) fail("unexpected end of file, expected ROOT or MOTION");
    if (token != "ROOT" && token != "MOTION") fail("expected ROOT or MOTION, got " + internal::quoted(token));
  }
  motion.assignChannelIndices();
  parseMotionHeader(motion);
  parseFrames(motion);
  return motion;
}

RETARGET_DECL bool BvhParser::nextLine() {
  token_index_ = 0;
  while (reader_.next()) {
    splitWhitespace(reader_.line(), tokens_);
    if (!tokens_.empty()) return true;
  }
  tokens_.clear();
  return false;
}

RETARGET_DECL bool BvhParser::nextToken(std::string_view& token) {
  while (token_index_ >= tokens_.size()) {
    if (!nextLine()) return false;
  }
  token = tokens_[token_index_++];
  return true;
}

RETARGET_DECL void BvhParser::expectKeyword(std::string_view keyword) {
  std::string_view token;
  if (!nextToken(token)) fail("unexpected end of file, expected " + std::string(keyword));
  if (token != keyword) fail("expected " + std::string(keyword) + ", got " + internal::quoted(token));
}

RETARGET_DECL double BvhParser::expectNumber(const char* what) {
  std::string_view token;
  if (!nextToken(token)) fail(std::string("unexpected end of file, expected ") + what);
  double value = 0;
  if (!parseFinite(token, value)) fail(std::string("expected ") + what + ", got " + internal::quoted(token));
  return value;
}

RETARGET_DECL bool BvhParser::parseChannel(std::string_view token, BvhChannel& channel) {
  for (int c = 0; c < 6; ++c) {
    if (equalsIgnoreCase(token, bvhChannelName(static_cast<BvhChannel>(c)))) {
      channel = static_cast<BvhChannel>(c);
      return true;
    }
  }
  return false;
}

RETARGET_DECL std::string BvhParser::readName(const char* keyword) {
  std::size_t last = tokens_.size();
  if (last > token_index_ && tokens_[last - 1] == "{") --last;
  if (last <= token_index_) fail(std::string("expected a joint name after ") + keyword);
  std::string name;
  for (std::size_t k = token_index_; k < last; ++k) {
    if (!name.empty()) name += ' ';
    name.append(tokens_[k].data(), tokens_[k].size());
  }
  token_index_ = last;
  if (!isValidUtf8(name)) fail("joint name " + internal::quoted(name) + " is not valid UTF-8");
  return name;
}

RETARGET_DECL std::string BvhParser::uniqueEndSiteName(const std::string& parent_name) const {
  std::string base = parent_name + "_End";
  std::string name = base;
  for (int k = 2; std::any_of(names_.begin(), names_.end(), [&](const std::string& other) { return other == name; });
       ++k) {
    name = base + std::to_string(k);
  }
  return name;
}

RETARGET_DECL void BvhParser::parseJoint(BvhMotion& motion, int parent, bool end_site, int depth) {
  if (depth >= kMaxDepth) fail("joints nested deeper than " + std::to_string(kMaxDepth) + " levels");
  BvhJoint joint;
  joint.parent = parent;
  joint.is_end_site = end_site;
  const std::size_t start_line = reader_.lineNumber();
  if (end_site) {
    joint.name = uniqueEndSiteName(motion.joints[static_cast<std::size_t>(parent)].name);
  } else {
    joint.name = readName(parent < 0 ? "ROOT" : "JOINT");
    if (std::find(names_.begin(), names_.end(), joint.name) != names_.end()) {
      fail("duplicate joint name " + internal::quoted(joint.name));
    }
  }
  if (motion.joints.size() >= kMaxJoints) fail("too many joints, expected at most " + std::to_string(kMaxJoints));
  names_.push_back(joint.name);
  const int index = static_cast<int>(motion.joints.size());
  motion.joints.push_back(joint);
  expectKeyword("{");
  expectKeyword("OFFSET");
  Eigen::Vector3d offset;
  offset.x() = expectNumber("a number for OFFSET x");
  offset.y() = expectNumber("a number for OFFSET y");
  offset.z() = expectNumber("a number for OFFSET z");
  motion.joints[static_cast<std::size_t>(index)].offset = offset;
  std::string_view token;
  if (!nextToken(token)) fail("unexpected end of file, expected CHANNELS or '}'");
  if (token == "CHANNELS") {
    if (end_site) fail("expected '}' after the End Site OFFSET, got CHANNELS");
    std::string_view count_token;
    if (!nextToken(count_token)) fail("unexpected end of file, expected a channel count");
    int count = -1;
    if (!parseInteger(count_token, count) || count < 0 || count > 6) {
      fail("expected a channel count from 0 to 6, got " + internal::quoted(count_token));
    }
    std::vector<BvhChannel> channels;
    for (int c = 0; c < count; ++c) {
      std::string_view name;
      if (!nextToken(name)) fail("unexpected end of file, expected a channel name");
      BvhChannel channel{};
      if (!parseChannel(name, channel)) {
        fail("unknown channel " + internal::quoted(name) +
             ", expected Xposition, Yposition, Zposition, Xrotation, Yrotation or Zrotation");
      }
      channels.push_back(channel);
    }
    motion.joints[static_cast<std::size_t>(index)].channels = std::move(channels);
    if (!nextToken(token)) {
      fail("unexpected end of file, expected JOINT, End Site or '}' to close joint '" +
           motion.joints[static_cast<std::size_t>(index)].name + "' opened on line " + std::to_string(start_line));
    }
  } else if (!end_site) {
    fail("expected CHANNELS, got " + internal::quoted(token));
  }
  for (;;) {
    if (token == "}") return;
    if (end_site) fail("expected '}' to close the End Site, got " + internal::quoted(token));
    if (token == "JOINT") {
      parseJoint(motion, index, false, depth + 1);
    } else if (token == "End") {
      std::string_view site;
      if (!nextToken(site) || site != "Site") fail("expected 'Site' after 'End'");
      if (moreOnLine() && tokens_[token_index_] != "{") {
        fail("expected '{' after End Site, got " + internal::quoted(tokens_[token_index_]));
      }
      parseJoint(motion, index, true, depth + 1);
    } else {
      fail("expected JOINT, End Site or '}' in joint '" + motion.joints[static_cast<std::size_t>(index)].name +
           "' (opened on line " + std::to_string(start_line) + "), got " + internal::quoted(token));
    }
    if (!nextToken(token)) {
      fail("unexpected end of file, expected '}' to close joint '" +
           motion.joints[static_cast<std::size_t>(index)].name + "' opened on line " + std::to_string(start_line));
    }
  }
}

RETARGET_DECL void BvhParser::parseMotionHeader(BvhMotion& motion) {
  // "Frames: N" (also "Frames:N"), then "Frame Time: t".
  std::string_view token;
  if (!nextToken(token)) fail("unexpected end of file, expected 'Frames:'");
  std::string_view count_text;
  if (token == "Frames:") {
    if (!nextToken(count_text)) fail("unexpected end of file, expected a frame count");
  } else if (token.substr(0, 7) == "Frames:") {
    count_text = token.substr(7);
  } else {
    fail("expected 'Frames:', got " + internal::quoted(token));
  }
  long long count = 0;
  if (!parseInteger(count_text, count)) {
    fail("expected a frame count, got " + internal::quoted(count_text));
  }
  if (count < 0) fail("expected a non-negative frame count, got " + std::string(count_text));
  if (count > 100000000) fail("frame count " + std::string(count_text) + " is too large, expected at most 100000000");
  motion.frame_count = static_cast<int>(count);
  if (moreOnLine()) fail("expected end of line after the frame count, got " + internal::quoted(tokens_[token_index_]));

  if (!nextToken(token)) fail("unexpected end of file, expected 'Frame Time:'");
  if (token != "Frame") fail("expected 'Frame Time:', got " + internal::quoted(token));
  if (!nextToken(token)) fail("unexpected end of file, expected 'Frame Time:'");
  std::string_view time_text;
  if (token == "Time:") {
    if (!moreOnLine()) fail("expected a frame time after 'Frame Time:'");
    nextToken(time_text);
  } else if (token.substr(0, 5) == "Time:") {
    time_text = token.substr(5);
  } else {
    fail("expected 'Frame Time:', got " + internal::quoted(token));
  }
  double frame_time = 0;
  if (!parseFinite(time_text, frame_time) || !(frame_time > 0)) {
    fail("expected a positive frame time in seconds, got " + internal::quoted(time_text));
  }
  motion.frame_time = frame_time;
  if (moreOnLine()) fail("expected end of line after the frame time, got " + internal::quoted(tokens_[token_index_]));
}

RETARGET_DECL void BvhParser::parseFrames(BvhMotion& motion) {
  const int channels = motion.channel_count;
  const std::size_t total = static_cast<std::size_t>(motion.frame_count) * static_cast<std::size_t>(channels);
  // Each value takes at least two bytes ("0 "): never reserve more than the input can hold.
  const std::size_t hint = reader_.remainingBytesHint();
  // Capacity for all frames when the input can hold them; each frame's values are then added (as
  // zeros, overwritten at once) when its line is read, with BvhFrameValues::kSlack more after them
  // for the fast path to write past the frame's end.
  const auto slack = static_cast<std::size_t>(BvhFrameValues::kSlack);
  motion.values.clear();
  if (total > 0) {
    reserveLargeBuffer(motion.values,
                       (hint > 0 ? std::min(total, hint / 2 + 1) : std::min<std::size_t>(total, 1u << 24)) + slack);
  }
  std::size_t row = 0;  // start of the current frame's values
  // Without channels a frame is an empty line: nothing to read (blank lines are skipped below).
  int frames = channels == 0 ? motion.frame_count : 0;
  while (frames < motion.frame_count) {
    if (!reader_.next()) {
      fail("unexpected end of file, expected " + std::to_string(motion.frame_count) + " frames, got " +
           std::to_string(frames));
    }
    const std::string_view line = reader_.line();
    const char* p = line.data();
    const char* const end = p + line.size();
    while (p < end && isBlank(*p)) ++p;
    if (p == end) continue;  // blank line
    const std::size_t frame_end = row + static_cast<std::size_t>(channels);
    if (frame_end + slack > motion.values.capacity()) {
      reserveLargeBuffer(motion.values, std::min(total, std::max(frame_end, 2 * motion.values.capacity())) + slack);
    }
    motion.values.resize(frame_end + slack);
    double* out = motion.values.data() + row;
    int count = 0;
    // The fast path takes the plain decimals; each value it leaves (an exponent, a '+', a long
    // number, an error) is read here, then the fast path carries on after it.
    p = BvhFrameValues::parseLine(p, end, out, channels, count);
    while (p < end && isBlank(*p)) ++p;
    while (p < end) {
      const char* start = p;
      double value = 0;
      const char* number_end = parseNumber(p, end, value);
      if (number_end == nullptr || (number_end != end && !isBlank(*number_end)) || !std::isfinite(value)) {
        const char* token_end = start;
        while (token_end < end && !isBlank(*token_end)) ++token_end;
        fail("frame " + std::to_string(frames) + ", value " + std::to_string(count + 1) +
             ": expected a finite number, got " +
             internal::quoted(std::string_view(start, static_cast<std::size_t>(token_end - start))));
      }
      if (count < channels) out[count] = value;
      ++count;
      p = number_end;
      while (p < end && isBlank(*p)) ++p;
      if (p < end && count <= channels) {
        p = BvhFrameValues::parseLine(p, end, out, channels, count);
        while (p < end && isBlank(*p)) ++p;
      }
    }
    if (count != channels) {
      fail("expected " + std::to_string(channels) + " values, got " + std::to_string(count) + " (frame " +
           std::to_string(frames) + ")");
    }
    ++frames;
    row += static_cast<std::size_t>(channels);
  }
  motion.values.resize(total);
  if (reader_.nextNonEmpty()) {
    fail("expected end of file after " + std::to_string(motion.frame_count) + " frames, got more values");
  }
}

#endif  // RETARGET_DEFINE_IO

}  // namespace internal
}  // namespace retarget
