#pragma once

/// @file
/// BVH (Biovision Hierarchy) motion capture files: a fast streaming reader (`readBvh`,
/// `parseBvh`) and a writer (`writeBvh`) for `BvhMotion` (retarget/human/bvh_motion.hpp, which
/// also holds the local rotations and forward kinematics).
///
/// What the reader accepts: any number of ROOTs, any hierarchy, 0 to 6 channels per joint in
/// any order (so all six Euler orders), position channels on any joint, End Sites, zero-frame
/// files, LF / CRLF / mixed line endings, tabs, names with colons or spaces, blank lines
/// anywhere outside the frame lines' values, trailing spaces, numbers such as `.0083`.
/// Each frame is one line of the MOTION section. Every error is a `retarget::ParseError` that
/// names the file, the line and what was expected ("expected 96 values, got 95").
///
/// Conventions (the de-facto BVH ones, also what Assimp implements):
/// - Values are in file units (often cm) and degrees, exactly as in the file.
/// - A joint's local rotation is the product of its rotation channels in file order,
///   `R = R_a1(v1) * R_a2(v2) * R_a3(v3)` (intrinsic rotations, right-handed, angles in degrees).
/// - A joint's local translation is its OFFSET, with each position channel replacing the matching
///   component (a joint with only `Yposition` keeps OFFSET x and z).
/// - The pose of a joint J in its parent P is `X_PJ = [R | t]`; global poses chain from the root.

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/bvh_motion.hpp>

namespace retarget {

namespace internal {

/// Printable, truncated copy of a token for error messages (non-ASCII and control bytes as \xNN).
inline std::string bvhQuote(std::string_view text) {
  std::string out = "'";
  const std::size_t limit = 40;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte >= 0x7f) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", byte);
      out += hex;
    } else {
      out += static_cast<char>(byte);
    }
  }
  if (text.size() > limit) out += "...";
  out += "'";
  return out;
}

/// True when `text` is valid UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
inline bool isValidUtf8(std::string_view text) {
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

/// Number of leading ASCII digits (0-8) in the 8 bytes at `p`, and their value in `value`
/// (SWAR: all 8 bytes are processed at once, without a loop or data-dependent branches).
inline int bvhLeadingDigits8(const char* p, std::uint64_t& value) {
  std::uint64_t chunk;
  std::memcpy(&chunk, p, 8);
  // Bytes in memory order: the first byte must be the lowest (reverse on big-endian hosts).
  const std::uint16_t probe = 1;
  unsigned char low_byte = 0;
  std::memcpy(&low_byte, &probe, 1);
  if (low_byte != 1) {
    chunk = ((chunk & 0x00000000FFFFFFFFull) << 32) | (chunk >> 32);
    chunk = ((chunk & 0x0000FFFF0000FFFFull) << 16) | ((chunk & 0xFFFF0000FFFF0000ull) >> 16);
    chunk = ((chunk & 0x00FF00FF00FF00FFull) << 8) | ((chunk & 0xFF00FF00FF00FF00ull) >> 8);
  }
  const std::uint64_t x = chunk ^ 0x3030303030303030ull;  // digit bytes become 0..9
  // High bit set in every byte that is not a digit (x >= 10). Carries only move towards later
  // bytes, so the first non-digit byte is found correctly.
  const std::uint64_t non_digit = ((x + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
#if defined(__GNUC__) || defined(__clang__)
  const int count = non_digit == 0 ? 8 : __builtin_ctzll(non_digit) / 8;
#else
  int count = 0;
  while (count < 8 && (non_digit >> (8 * count + 7) & 1u) == 0) ++count;
#endif
  if (count == 0) {
    value = 0;
    return 0;
  }
  // Move the digits to the top bytes (the zero bytes below act as leading zeros), then combine
  // pairs, quads and octets of decimal digits with multiplications.
  std::uint64_t v = x << (8 * (8 - count));
  v = (v * 10) + (v >> 8);                                          // pairs in bytes 0, 2, 4, 6
  v = (((v & 0x000000FF000000FFull) * (100 + (1000000ull << 32))) +
       (((v >> 16) & 0x000000FF000000FFull) * (1 + (10000ull << 32)))) >> 32;
  value = v & 0xFFFFFFFFull;
  return count;
}

/// Parses a decimal number at [first, last) like std::from_chars (a leading '+' is also accepted)
/// and returns the end of the number, nullptr on failure. Plain decimals with at most 15 digits
/// and no exponent (what BVH exporters write) take an exact fast path: the digits form an integer
/// m < 2^53 and the value is m / 10^k, one correctly rounded division (the same double as
/// strtod); everything else goes to std::from_chars.
inline const char* parseBvhDouble(const char* first, const char* last, double& value) {
  static constexpr double kPow10[] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                      1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  static constexpr std::uint64_t kPow10Int[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000};
  const char* p = first;
  if (p != last && *p == '+') {
    ++first;
    ++p;
    if (p != last && *p == '-') return nullptr;
  }
  const bool negative = p != last && *p == '-';
  p += negative ? 1 : 0;
  // Fast path with SWAR digit runs when 17 bytes are readable: "iiiiiii.ffffffff".
  if (last - p >= 17) {
    std::uint64_t integer = 0;
    std::uint64_t fraction = 0;
    const int integer_digits = bvhLeadingDigits8(p, integer);
    int fraction_digits = 0;
    const char* q = p + integer_digits;
    if (integer_digits < 8) {
      if (*q == '.') {
        fraction_digits = bvhLeadingDigits8(q + 1, fraction);
        q += 1 + fraction_digits;
      }
      if (fraction_digits < 8 && integer_digits + fraction_digits > 0 && *q != 'e' && *q != 'E' &&
          (*q < '0' || *q > '9')) {
        const std::uint64_t mantissa = integer * kPow10Int[fraction_digits] + fraction;
        // Apply the sign without a branch (signs are unpredictable in motion data).
        const double magnitude = static_cast<double>(mantissa) / kPow10[fraction_digits];
        std::uint64_t bits;
        std::memcpy(&bits, &magnitude, sizeof bits);
        bits ^= static_cast<std::uint64_t>(negative) << 63;
        std::memcpy(&value, &bits, sizeof bits);
        return q;
      }
    }
  }
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
  const bool exponent = p != last && (*p == 'e' || *p == 'E');
  if (digits > 0 && digits <= 15 && !exponent) {
    const double magnitude = static_cast<double>(mantissa) / kPow10[fraction_digits];
    value = negative ? -magnitude : magnitude;
    return p;
  }
  const auto result = std::from_chars(first, last, value);
  return result.ec == std::errc() ? result.ptr : nullptr;
}

/// Parses a whole token as a finite double (a leading '+' is accepted). False on failure.
inline bool parseBvhNumber(std::string_view token, double& value) {
  const char* last = token.data() + token.size();
  return !token.empty() && parseBvhDouble(token.data(), last, value) == last && std::isfinite(value);
}

/// Line source over an in-memory text or a file read in blocks (the file is never held whole).
/// Lines are returned without their LF / CRLF terminator; a view stays valid until the next call.
class BvhLineSource {
 public:
  explicit BvhLineSource(std::string_view text) : text_(text) {}
  explicit BvhLineSource(std::istream& stream) : stream_(&stream), buffer_(kBlockSize) {}

  /// Reads the next line into `line`; false at end of input.
  bool next(std::string_view& line) {
    if (stream_ == nullptr) {
      if (pos_ >= text_.size()) return false;
      const char* begin = text_.data() + pos_;
      const void* newline = std::memchr(begin, '\n', text_.size() - pos_);
      const std::size_t length =
          newline ? static_cast<std::size_t>(static_cast<const char*>(newline) - begin) : text_.size() - pos_;
      pos_ += length + (newline ? 1 : 0);
      line = trimCr(std::string_view(begin, length));
      ++line_number_;
      return true;
    }
    for (;;) {
      if (begin_ < end_) {
        const char* begin = buffer_.data() + begin_;
        const void* newline = std::memchr(begin, '\n', end_ - begin_);
        if (newline != nullptr) {
          const auto length = static_cast<std::size_t>(static_cast<const char*>(newline) - begin);
          begin_ += length + 1;
          line = trimCr(std::string_view(begin, length));
          ++line_number_;
          return true;
        }
      }
      if (eof_) {
        if (begin_ >= end_) return false;
        line = trimCr(std::string_view(buffer_.data() + begin_, end_ - begin_));
        begin_ = end_;
        ++line_number_;
        return true;
      }
      refill();
    }
  }

  /// 1-based number of the line last returned (0 before the first).
  std::size_t lineNumber() const { return line_number_; }

  /// Bytes of input remaining after the current position, when known (0 for streams).
  std::size_t remainingBytesHint() const { return stream_ == nullptr ? text_.size() - pos_ : remaining_hint_; }
  void setRemainingBytesHint(std::size_t bytes) { remaining_hint_ = bytes; }

 private:
  static constexpr std::size_t kBlockSize = std::size_t(1) << 20;

  static std::string_view trimCr(std::string_view line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }

  void refill() {
    // Keep the unfinished line, move it to the front, grow if one line fills the buffer.
    const std::size_t kept = end_ - begin_;
    if (begin_ > 0 && kept > 0) std::memmove(buffer_.data(), buffer_.data() + begin_, kept);
    begin_ = 0;
    end_ = kept;
    if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
    const auto got = stream_->rdbuf()->sgetn(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
    if (got <= 0) {
      eof_ = true;
    } else {
      end_ += static_cast<std::size_t>(got);
    }
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  std::istream* stream_ = nullptr;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;
  std::size_t end_ = 0;
  bool eof_ = false;
  std::size_t line_number_ = 0;
  std::size_t remaining_hint_ = 0;
};

/// BVH parser over a line source.
class BvhParser {
 public:
  BvhParser(BvhLineSource& source, std::string file) : source_(source), file_(std::move(file)) {}

  BvhMotion parse() {
    BvhMotion motion;
    expectKeyword("HIERARCHY");
    std::string_view token;
    if (!nextToken(token)) fail("unexpected end of file, expected ROOT");
    if (token != "ROOT") fail("expected ROOT, got " + bvhQuote(token));
    while (token == "ROOT") {
      parseJoint(motion, -1, false, 0);
      if (!nextToken(token)) fail("unexpected end of file, expected ROOT or MOTION");
      if (token != "ROOT" && token != "MOTION") fail("expected ROOT or MOTION, got " + bvhQuote(token));
    }
    motion.assignChannelIndices();
    parseMotionHeader(motion);
    parseFrames(motion);
    return motion;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const { throw ParseError(file_, source_.lineNumber(), what); }

  // Splits the next non-blank line into tokens_; false at end of input.
  bool nextLine() {
    std::string_view line;
    while (source_.next(line)) {
      tokens_.clear();
      token_index_ = 0;
      std::size_t i = 0;
      while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        const std::size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
        if (i > start) tokens_.push_back(line.substr(start, i - start));
      }
      if (!tokens_.empty()) return true;
    }
    tokens_.clear();
    token_index_ = 0;
    return false;
  }

  bool nextToken(std::string_view& token) {
    while (token_index_ >= tokens_.size()) {
      if (!nextLine()) return false;
    }
    token = tokens_[token_index_++];
    return true;
  }

  bool moreOnLine() const { return token_index_ < tokens_.size(); }

  void expectKeyword(std::string_view keyword) {
    std::string_view token;
    if (!nextToken(token)) fail("unexpected end of file, expected " + std::string(keyword));
    if (token != keyword) fail("expected " + std::string(keyword) + ", got " + bvhQuote(token));
  }

  double expectNumber(const char* what) {
    std::string_view token;
    if (!nextToken(token)) fail(std::string("unexpected end of file, expected ") + what);
    double value = 0;
    if (!parseBvhNumber(token, value)) fail(std::string("expected ") + what + ", got " + bvhQuote(token));
    return value;
  }

  static bool parseChannel(std::string_view token, BvhChannel& channel) {
    for (int c = 0; c < 6; ++c) {
      const std::string_view name = bvhChannelName(static_cast<BvhChannel>(c));
      if (token.size() != name.size()) continue;
      bool same = true;
      for (std::size_t k = 0; k < name.size() && same; ++k) {
        same = std::tolower(static_cast<unsigned char>(token[k])) == std::tolower(static_cast<unsigned char>(name[k]));
      }
      if (same) {
        channel = static_cast<BvhChannel>(c);
        return true;
      }
    }
    return false;
  }

  // Name of a ROOT/JOINT: the rest of the line (tokens joined by one space), leaving a final
  // "{" on the line as the next token.
  std::string readName(const char* keyword) {
    std::size_t last = tokens_.size();
    if (last > token_index_ && tokens_[last - 1] == "{") --last;
    if (last <= token_index_) fail(std::string("expected a joint name after ") + keyword);
    std::string name;
    for (std::size_t k = token_index_; k < last; ++k) {
      if (!name.empty()) name += ' ';
      name.append(tokens_[k].data(), tokens_[k].size());
    }
    token_index_ = last;
    if (!isValidUtf8(name)) fail("joint name " + bvhQuote(name) + " is not valid UTF-8");
    return name;
  }

  std::string uniqueEndSiteName(const std::string& parent_name) const {
    std::string base = parent_name + "_End";
    std::string name = base;
    for (int k = 2; std::any_of(names_.begin(), names_.end(), [&](const std::string& other) { return other == name; });
         ++k) {
      name = base + std::to_string(k);
    }
    return name;
  }

  // Parses a joint body after ROOT/JOINT (or after "End Site" when end_site).
  void parseJoint(BvhMotion& motion, int parent, bool end_site, int depth) {
    if (depth >= kMaxDepth) fail("joints nested deeper than " + std::to_string(kMaxDepth) + " levels");
    BvhJoint joint;
    joint.parent = parent;
    joint.is_end_site = end_site;
    const std::size_t start_line = source_.lineNumber();
    if (end_site) {
      joint.name = uniqueEndSiteName(motion.joints[static_cast<std::size_t>(parent)].name);
    } else {
      joint.name = readName(parent < 0 ? "ROOT" : "JOINT");
      if (std::find(names_.begin(), names_.end(), joint.name) != names_.end()) {
        fail("duplicate joint name " + bvhQuote(joint.name));
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
      const auto result = std::from_chars(count_token.data(), count_token.data() + count_token.size(), count);
      if (result.ec != std::errc() || result.ptr != count_token.data() + count_token.size() || count < 0 || count > 6) {
        fail("expected a channel count from 0 to 6, got " + bvhQuote(count_token));
      }
      std::vector<BvhChannel> channels;
      for (int c = 0; c < count; ++c) {
        std::string_view name;
        if (!nextToken(name)) fail("unexpected end of file, expected a channel name");
        BvhChannel channel{};
        if (!parseChannel(name, channel)) {
          fail("unknown channel " + bvhQuote(name) +
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
      fail("expected CHANNELS, got " + bvhQuote(token));
    }
    for (;;) {
      if (token == "}") return;
      if (end_site) fail("expected '}' to close the End Site, got " + bvhQuote(token));
      if (token == "JOINT") {
        parseJoint(motion, index, false, depth + 1);
      } else if (token == "End") {
        std::string_view site;
        if (!nextToken(site) || site != "Site") fail("expected 'Site' after 'End'");
        if (moreOnLine() && tokens_[token_index_] != "{") {
          fail("expected '{' after End Site, got " + bvhQuote(tokens_[token_index_]));
        }
        parseJoint(motion, index, true, depth + 1);
      } else {
        fail("expected JOINT, End Site or '}' in joint '" + motion.joints[static_cast<std::size_t>(index)].name +
             "' (opened on line " + std::to_string(start_line) + "), got " + bvhQuote(token));
      }
      if (!nextToken(token)) {
        fail("unexpected end of file, expected '}' to close joint '" +
             motion.joints[static_cast<std::size_t>(index)].name + "' opened on line " + std::to_string(start_line));
      }
    }
  }

  void parseMotionHeader(BvhMotion& motion) {
    // "Frames: N" (also "Frames:N"), then "Frame Time: t".
    std::string_view token;
    if (!nextToken(token)) fail("unexpected end of file, expected 'Frames:'");
    std::string_view count_text;
    if (token == "Frames:") {
      if (!nextToken(count_text)) fail("unexpected end of file, expected a frame count");
    } else if (token.substr(0, 7) == "Frames:") {
      count_text = token.substr(7);
    } else {
      fail("expected 'Frames:', got " + bvhQuote(token));
    }
    long long count = 0;
    const auto result = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
    if (result.ec != std::errc() || result.ptr != count_text.data() + count_text.size()) {
      fail("expected a frame count, got " + bvhQuote(count_text));
    }
    if (count < 0) fail("expected a non-negative frame count, got " + std::string(count_text));
    if (count > 100000000) fail("frame count " + std::string(count_text) + " is too large, expected at most 100000000");
    motion.frame_count = static_cast<int>(count);
    if (moreOnLine()) fail("expected end of line after the frame count, got " + bvhQuote(tokens_[token_index_]));

    if (!nextToken(token)) fail("unexpected end of file, expected 'Frame Time:'");
    if (token != "Frame") fail("expected 'Frame Time:', got " + bvhQuote(token));
    if (!nextToken(token)) fail("unexpected end of file, expected 'Frame Time:'");
    std::string_view time_text;
    if (token == "Time:") {
      if (!moreOnLine()) fail("expected a frame time after 'Frame Time:'");
      nextToken(time_text);
    } else if (token.substr(0, 5) == "Time:") {
      time_text = token.substr(5);
    } else {
      fail("expected 'Frame Time:', got " + bvhQuote(token));
    }
    double frame_time = 0;
    if (!parseBvhNumber(time_text, frame_time) || !(frame_time > 0)) {
      fail("expected a positive frame time in seconds, got " + bvhQuote(time_text));
    }
    motion.frame_time = frame_time;
    if (moreOnLine()) fail("expected end of line after the frame time, got " + bvhQuote(tokens_[token_index_]));
  }

  void parseFrames(BvhMotion& motion) {
    const int channels = motion.channel_count;
    const std::size_t total = static_cast<std::size_t>(motion.frame_count) * static_cast<std::size_t>(channels);
    // Each value takes at least two bytes ("0 "): never reserve more than the input can hold.
    const std::size_t hint = source_.remainingBytesHint();
    motion.values.clear();
    if (total > 0) {
      motion.values.resize(hint > 0 ? std::min(total, hint / 2 + 1) : std::min<std::size_t>(total, 1u << 24));
    }
    std::size_t row = 0;  // start of the current frame's values
    std::string_view line;
    // Without channels a frame is an empty line: nothing to read (blank lines are skipped below).
    int frames = channels == 0 ? motion.frame_count : 0;
    while (frames < motion.frame_count) {
      if (!source_.next(line)) {
        fail("unexpected end of file, expected " + std::to_string(motion.frame_count) + " frames, got " +
             std::to_string(frames));
      }
      const char* p = line.data();
      const char* const end = p + line.size();
      while (p < end && (*p == ' ' || *p == '\t')) ++p;
      if (p == end) continue;  // blank line
      if (motion.values.size() < row + static_cast<std::size_t>(channels)) {
        motion.values.resize(std::min(total, std::max(row + static_cast<std::size_t>(channels), 2 * motion.values.size())));
      }
      double* out = motion.values.data() + row;
      int count = 0;
      while (p < end) {
        const char* start = p;
        double value = 0;
        const char* number_end = parseBvhDouble(p, end, value);
        if (number_end == nullptr || (number_end != end && *number_end != ' ' && *number_end != '\t') ||
            !std::isfinite(value)) {
          const char* token_end = start;
          while (token_end < end && *token_end != ' ' && *token_end != '\t') ++token_end;
          fail("frame " + std::to_string(frames) + ", value " + std::to_string(count + 1) +
               ": expected a finite number, got " +
               bvhQuote(std::string_view(start, static_cast<std::size_t>(token_end - start))));
        }
        if (count < channels) out[count] = value;
        ++count;
        p = number_end;
        while (p < end && (*p == ' ' || *p == '\t')) ++p;
      }
      if (count != channels) {
        fail("expected " + std::to_string(channels) + " values, got " + std::to_string(count) + " (frame " +
             std::to_string(frames) + ")");
      }
      ++frames;
      row += static_cast<std::size_t>(channels);
    }
    motion.values.resize(total);
    while (source_.next(line)) {
      if (line.find_first_not_of(" \t") != std::string_view::npos) {
        fail("expected end of file after " + std::to_string(motion.frame_count) + " frames, got more values");
      }
    }
  }

  static constexpr std::size_t kMaxJoints = 100000;
  static constexpr int kMaxDepth = 1000;  // the parser recurses once per level

  BvhLineSource& source_;
  std::string file_;
  std::vector<std::string_view> tokens_;
  std::size_t token_index_ = 0;
  std::vector<std::string> names_;
};

/// Shortest text that reads back as exactly `value`.
inline void appendBvhNumber(std::string& out, double value) {
  char buffer[32];
  if (value == 0) value = 0;  // no "-0"
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, static_cast<std::size_t>(result.ptr - buffer));
}

}  // namespace internal

/// Parses BVH text held in memory. `name` is used as the file name in error messages.
/// Throws `retarget::ParseError` (file, line, what was expected) on malformed input.
inline BvhMotion parseBvh(std::string_view text, std::string name = "<string>") {
  internal::BvhLineSource source(text);
  internal::BvhParser parser(source, std::move(name));
  return parser.parse();
}

/// Reads a BVH file, streaming it in blocks (the text is never held whole).
/// Throws `retarget::ParseError` (file, line, what was expected) when the file cannot be opened or
/// is malformed.
inline BvhMotion readBvh(const std::filesystem::path& path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) throw ParseError(path.string(), 0, "cannot open the file for reading");
  internal::BvhLineSource source(stream);
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec) source.setRemainingBytesHint(static_cast<std::size_t>(size));
  internal::BvhParser parser(source, path.string());
  return parser.parse();
}

/// Writes `motion` as BVH text: tab-indented hierarchy (End Sites written as "End Site"), then
/// one line per frame with each number in its shortest exact form, so that read -> write -> read
/// gives identical values. Joints are written depth-first (children in index order), each with
/// its own channels' values. Throws `retarget::InvalidArgument` when `motion` breaks its
/// invariants (see `validateBvh`), `retarget::Error` when the stream fails.
inline void writeBvh(const BvhMotion& motion, std::ostream& out) {
  validateBvh(motion);
  RETARGET_THROW_UNLESS(!motion.joints.empty(), InvalidArgument, "motion has no joints, expected at least one ROOT");
  const std::size_t n = motion.joints.size();
  std::vector<std::vector<int>> children(n);
  std::vector<int> roots;
  for (std::size_t i = 0; i < n; ++i) {
    const int parent = motion.joints[i].parent;
    (parent < 0 ? roots : children[static_cast<std::size_t>(parent)]).push_back(static_cast<int>(i));
  }
  std::vector<int> order;  // joints with channels, in written order
  std::string text = "HIERARCHY\n";
  // Iterative depth-first writer (hierarchies may be deep).
  struct Item {
    int joint;
    int depth;
    bool close;
  };
  std::vector<Item> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back({*it, 0, false});
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const std::string indent(static_cast<std::size_t>(item.depth), '\t');
    if (item.close) {
      text += indent + "}\n";
      continue;
    }
    const BvhJoint& joint = motion.joints[static_cast<std::size_t>(item.joint)];
    if (joint.is_end_site) {
      text += indent + "End Site\n";
    } else {
      text += indent + (joint.parent < 0 ? "ROOT " : "JOINT ") + joint.name + "\n";
    }
    text += indent + "{\n" + indent + "\tOFFSET ";
    for (int k = 0; k < 3; ++k) {
      if (k > 0) text += ' ';
      internal::appendBvhNumber(text, joint.offset[k]);
    }
    text += '\n';
    if (!joint.is_end_site) {
      text += indent + "\tCHANNELS " + std::to_string(joint.channels.size());
      for (BvhChannel channel : joint.channels) {
        text += ' ';
        text += bvhChannelName(channel);
      }
      text += '\n';
      order.push_back(item.joint);
    }
    stack.push_back({item.joint, item.depth, true});
    const auto& kids = children[static_cast<std::size_t>(item.joint)];
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, item.depth + 1, false});
  }
  text += "MOTION\nFrames: " + std::to_string(motion.frame_count) + "\nFrame Time: ";
  internal::appendBvhNumber(text, motion.frame_time);
  text += '\n';
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  for (int f = 0; f < motion.frame_count; ++f) {
    text.clear();
    const double* row = motion.frame(f);
    bool first = true;
    for (int joint : order) {
      const BvhJoint& j = motion.joints[static_cast<std::size_t>(joint)];
      for (std::size_t c = 0; c < j.channels.size(); ++c) {
        if (!first) text += ' ';
        first = false;
        internal::appendBvhNumber(text, row[static_cast<std::size_t>(j.first_channel) + c]);
      }
    }
    text += '\n';
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
  }
  if (!out) throw Error(internal::message("writeBvh", "the output stream failed"));
}

/// Writes `motion` to a BVH file (see `writeBvh(const BvhMotion&, std::ostream&)`). Throws
/// `retarget::Error` naming the file when it cannot be written.
inline void writeBvh(const BvhMotion& motion, const std::filesystem::path& path) {
  std::ofstream out(path, std::ios::binary);
  if (!out) throw Error(internal::message("writeBvh", "cannot open '", path.string(), "' for writing"));
  writeBvh(motion, out);
  out.flush();
  if (!out) throw Error(internal::message("writeBvh", "writing '", path.string(), "' failed"));
}

}  // namespace retarget
