#pragma once

/// @file
/// BVH (Biovision Hierarchy) motion capture files: an in-memory motion (`BvhMotion`), a fast
/// streaming reader (`readBvh`, `parseBvh`), a writer (`writeBvh`) and forward kinematics
/// (`bvhGlobalPoses`).
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

namespace retarget {

/// One BVH channel: a translation along, or a rotation about, an axis of the joint's parent frame.
enum class BvhChannel : std::uint8_t { kXposition, kYposition, kZposition, kXrotation, kYrotation, kZrotation };

/// BVH name of a channel ("Xposition", ..., "Zrotation").
constexpr std::string_view bvhChannelName(BvhChannel channel) {
  constexpr std::string_view kNames[] = {"Xposition", "Yposition", "Zposition",
                                         "Xrotation", "Yrotation", "Zrotation"};
  return kNames[static_cast<int>(channel)];
}
/// True for the three rotation channels.
constexpr bool isRotation(BvhChannel channel) { return static_cast<int>(channel) >= 3; }
/// Axis index of a channel: 0 for X, 1 for Y, 2 for Z.
constexpr int bvhChannelAxis(BvhChannel channel) { return static_cast<int>(channel) % 3; }

/// One joint (or End Site) of a BVH hierarchy.
struct BvhJoint {
  /// Joint name from the file. End Sites have no name in BVH; they get "<parent name>_End"
  /// (with a number appended, "_End2", ... when a parent has several End Sites).
  std::string name;
  /// Index of the parent in `BvhMotion::joints`, -1 for a root.
  int parent = -1;
  /// OFFSET: position of this joint's origin in the parent frame, file units.
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
  /// Channels in file order (empty for End Sites).
  std::vector<BvhChannel> channels;
  /// Index of this joint's first channel in a frame's value row.
  int first_channel = 0;
  /// True for an End Site (no channels, no children).
  bool is_end_site = false;
};

/// A BVH motion: the hierarchy and the raw channel values of every frame.
///
/// Invariants (established by the reader, checked by `validateBvh` and the writer): joints are in
/// depth-first file order (parents before children); `first_channel` values are the running sum
/// of the channel counts in joint order; `channel_count` is their total; `values.size() ==
/// frame_count * channel_count`.
struct BvhMotion {
  /// Joints and End Sites in depth-first file order.
  std::vector<BvhJoint> joints;
  /// Seconds per frame (`Frame Time`).
  double frame_time = 0;
  /// Number of frames.
  int frame_count = 0;
  /// Values per frame (sum of all joints' channel counts).
  int channel_count = 0;
  /// frame_count x channel_count values, row-major, file units and degrees.
  std::vector<double> values;

  /// Index of the joint (or End Site) with this exact name, -1 when absent.
  int findJoint(std::string_view joint_name) const {
    for (std::size_t i = 0; i < joints.size(); ++i) {
      if (joints[i].name == joint_name) return static_cast<int>(i);
    }
    return -1;
  }

  /// Number of joints, without End Sites when `include_end_sites` is false.
  int jointCount(bool include_end_sites = false) const {
    if (include_end_sites) return static_cast<int>(joints.size());
    return static_cast<int>(std::count_if(joints.begin(), joints.end(),
                                          [](const BvhJoint& joint) { return !joint.is_end_site; }));
  }

  /// Number of roots (joints without a parent).
  int rootCount() const {
    return static_cast<int>(
        std::count_if(joints.begin(), joints.end(), [](const BvhJoint& joint) { return joint.parent < 0; }));
  }

  /// Frames per second (1 / frame_time), 0 when frame_time is not positive.
  double frameRate() const { return frame_time > 0 ? 1.0 / frame_time : 0.0; }

  /// Seconds covered by the frames, frame_count * frame_time.
  double duration() const { return frame_count * frame_time; }

  /// Value row of frame `f` (channel_count values). Precondition 0 <= f < frame_count.
  const double* frame(int f) const {
    RETARGET_DEBUG_ASSERT(f >= 0 && f < frame_count);
    return values.data() + static_cast<std::size_t>(f) * static_cast<std::size_t>(channel_count);
  }
  /// Mutable value row of frame `f`.
  double* frame(int f) {
    RETARGET_DEBUG_ASSERT(f >= 0 && f < frame_count);
    return values.data() + static_cast<std::size_t>(f) * static_cast<std::size_t>(channel_count);
  }

  /// Rotation R_PJ of joint `joint`'s frame in its parent's frame at frame `f`: the product of
  /// its rotation channels in file order, R = R_axis1(v1) * R_axis2(v2) * R_axis3(v3) (intrinsic,
  /// degrees in the file); identity when it has none. Never allocates or throws.
  Eigen::Quaterniond localRotation(int f, int joint) const {
    const BvhJoint& j = joints[static_cast<std::size_t>(joint)];
    Eigen::Quaterniond R = Eigen::Quaterniond::Identity();
    if (j.channels.empty()) return R;
    const double* row = frame(f) + j.first_channel;
    constexpr double kDegToRad = kPi<double> / 180.0;
    for (std::size_t c = 0; c < j.channels.size(); ++c) {
      if (!isRotation(j.channels[c])) continue;
      const double half = 0.5 * kDegToRad * row[c];
      const double s = std::sin(half);
      Eigen::Quaterniond axis_rotation(std::cos(half), 0, 0, 0);
      axis_rotation.vec()[bvhChannelAxis(j.channels[c])] = s;
      R = R * axis_rotation;
    }
    return R;
  }

  /// Translation p_PJ of joint `joint`'s origin in its parent's frame at frame `f` (file units):
  /// OFFSET, with each position channel replacing the matching component (partial position
  /// channels keep the OFFSET's other components). Never allocates or throws.
  Eigen::Vector3d localTranslation(int f, int joint) const {
    const BvhJoint& j = joints[static_cast<std::size_t>(joint)];
    Eigen::Vector3d p = j.offset;
    if (j.channels.empty()) return p;
    const double* row = frame(f) + j.first_channel;
    for (std::size_t c = 0; c < j.channels.size(); ++c) {
      if (!isRotation(j.channels[c])) p[bvhChannelAxis(j.channels[c])] = row[c];
    }
    return p;
  }

  /// Recomputes `first_channel` of every joint (running sum in joint order) and
  /// `channel_count`. Does not resize `values`. Use after building a hierarchy by hand.
  void assignChannelIndices() {
    int next = 0;
    for (BvhJoint& joint : joints) {
      joint.first_channel = next;
      next += static_cast<int>(joint.channels.size());
    }
    channel_count = next;
  }
};

/// Checks the invariants of `BvhMotion` (see its doc): parent indices, End Sites without
/// channels or children, channel layout, value count, finite values and a non-negative frame
/// time. Throws `retarget::InvalidArgument` naming the first violation.
inline void validateBvh(const BvhMotion& motion) {
  const int n = static_cast<int>(motion.joints.size());
  int next_channel = 0;
  for (int i = 0; i < n; ++i) {
    const BvhJoint& joint = motion.joints[static_cast<std::size_t>(i)];
    RETARGET_THROW_UNLESS(joint.parent >= -1 && joint.parent < i, InvalidArgument, "joint ", i, " '", joint.name,
                          "' has parent ", joint.parent, ", expected -1 or an index below ", i);
    RETARGET_THROW_UNLESS(!joint.name.empty(), InvalidArgument, "joint ", i, " has an empty name");
    RETARGET_THROW_UNLESS(joint.name.find_first_of("\r\n{}") == std::string::npos &&
                              joint.name.front() != ' ' && joint.name.back() != ' ' &&
                              joint.name.front() != '\t' && joint.name.back() != '\t',
                          InvalidArgument, "joint ", i, " name '", joint.name,
                          "' contains a line break, a brace or surrounding blanks");
    RETARGET_THROW_UNLESS(joint.offset.allFinite(), InvalidArgument, "joint '", joint.name,
                          "' has a non-finite offset");
    RETARGET_THROW_UNLESS(joint.channels.size() <= 6, InvalidArgument, "joint '", joint.name, "' has ",
                          joint.channels.size(), " channels, expected at most 6");
    RETARGET_THROW_UNLESS(!joint.is_end_site || joint.channels.empty(), InvalidArgument, "End Site '",
                          joint.name, "' has channels, expected none");
    RETARGET_THROW_UNLESS(joint.parent < 0 || !motion.joints[static_cast<std::size_t>(joint.parent)].is_end_site,
                          InvalidArgument, "joint '", joint.name, "' is a child of an End Site");
    RETARGET_THROW_UNLESS(joint.first_channel == next_channel, InvalidArgument, "joint '", joint.name,
                          "' has first_channel ", joint.first_channel, ", expected ", next_channel);
    next_channel += static_cast<int>(joint.channels.size());
  }
  RETARGET_THROW_UNLESS(motion.channel_count == next_channel, InvalidArgument, "channel_count is ",
                        motion.channel_count, ", expected ", next_channel);
  RETARGET_THROW_UNLESS(motion.frame_count >= 0, InvalidArgument, "frame_count is ", motion.frame_count,
                        ", expected >= 0");
  RETARGET_THROW_UNLESS(motion.values.size() == static_cast<std::size_t>(motion.frame_count) *
                                                    static_cast<std::size_t>(motion.channel_count),
                        InvalidArgument, "values has ", motion.values.size(), " entries, expected ",
                        motion.frame_count, " x ", motion.channel_count);
  RETARGET_THROW_UNLESS(std::isfinite(motion.frame_time) && motion.frame_time >= 0, InvalidArgument,
                        "frame_time is ", motion.frame_time, ", expected a finite value >= 0");
  for (std::size_t k = 0; k < motion.values.size(); ++k) {
    RETARGET_THROW_UNLESS(std::isfinite(motion.values[k]), InvalidArgument, "value ", k, " of frame ",
                          k / static_cast<std::size_t>(std::max(1, motion.channel_count)), " is not finite");
  }
}

/// A copy of `motion` holding one frame, the rest pose: every rotation channel 0 and every
/// position channel at its OFFSET component (for most rigs a T-pose). Same hierarchy and frame time.
inline BvhMotion bvhRestPose(const BvhMotion& motion) {
  BvhMotion rest;
  rest.joints = motion.joints;
  rest.frame_time = motion.frame_time;
  rest.assignChannelIndices();
  rest.frame_count = 1;
  rest.values.assign(static_cast<std::size_t>(rest.channel_count), 0.0);
  for (const BvhJoint& joint : rest.joints) {
    for (std::size_t c = 0; c < joint.channels.size(); ++c) {
      if (!isRotation(joint.channels[c])) {
        rest.values[static_cast<std::size_t>(joint.first_channel) + c] = joint.offset[bvhChannelAxis(joint.channels[c])];
      }
    }
  }
  return rest;
}

/// Global pose X_WJ of every joint (and End Site) at frame `f`, in the file's world frame and
/// units: X_WJ = X_WP * X_PJ with X_PJ = [localRotation | localTranslation]. Roots are placed
/// directly in W. `X_WJ` is resized to the joint count (allocates only when its size changes).
/// Never throws; precondition 0 <= f < frame_count.
inline void bvhGlobalPoses(const BvhMotion& motion, int f, std::vector<Eigen::Isometry3d>& X_WJ) {
  const std::size_t n = motion.joints.size();
  if (X_WJ.size() != n) X_WJ.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int joint = static_cast<int>(i);
    Eigen::Isometry3d X_PJ = Eigen::Isometry3d::Identity();
    X_PJ.linear() = motion.localRotation(f, joint).toRotationMatrix();
    X_PJ.translation() = motion.localTranslation(f, joint);
    const int parent = motion.joints[i].parent;
    X_WJ[i] = parent < 0 ? X_PJ : X_WJ[static_cast<std::size_t>(parent)] * X_PJ;
  }
}

/// Global positions p_WJ (file units, one column per joint and End Site) at frame `f`; a
/// cheaper variant of `bvhGlobalPoses` that keeps rotations as quaternions. `R_WJ` is scratch
/// space resized to the joint count. Never throws; precondition 0 <= f < frame_count and
/// `p_WJ` has joints.size() columns (resized otherwise).
inline void bvhGlobalPositions(const BvhMotion& motion, int f, Eigen::Matrix3Xd& p_WJ,
                               std::vector<Eigen::Quaterniond>& R_WJ) {
  const std::size_t n = motion.joints.size();
  if (static_cast<std::size_t>(p_WJ.cols()) != n) p_WJ.resize(3, static_cast<Eigen::Index>(n));
  if (R_WJ.size() != n) R_WJ.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int joint = static_cast<int>(i);
    const int parent = motion.joints[i].parent;
    const Eigen::Quaterniond R_PJ = motion.localRotation(f, joint);
    const Eigen::Vector3d p_PJ = motion.localTranslation(f, joint);
    const auto col = static_cast<Eigen::Index>(i);
    if (parent < 0) {
      R_WJ[i] = R_PJ;
      p_WJ.col(col) = p_PJ;
    } else {
      const auto& R_WP = R_WJ[static_cast<std::size_t>(parent)];
      R_WJ[i] = R_WP * R_PJ;
      p_WJ.col(col) = p_WJ.col(parent) + R_WP * p_PJ;
    }
  }
}

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
