#pragma once

/// @file
/// Serial frame protocol between the mapping computer and the robot's servo controller (paper
/// 002, Sec. 4.1, Fig. 4): a timestamp and N joint positions as integers, protected by a
/// CRC-16/MODBUS (crc16.hpp). Pure functions over byte buffers; the serial-port transport
/// belongs to the adapters.
///
/// The paper gives the content (2 bytes of timestamp, 22 bytes of joint positions, 2 bytes of
/// CRC-16 computed over "the first 27" bytes) but not the header; we define the three missing
/// header bytes so that the paper's count holds. Frame layout (all multi-byte fields little-
/// endian, i.e. low byte first, as on the Arduino side and as Modbus sends its CRC):
///
///   offset   size  field
///   0        1     sync byte 0xAA (kSerialSync0)
///   1        1     sync byte 0x55 (kSerialSync1)
///   2        1     L = number of joint-position bytes = N * bytes per joint (<= 255)
///   3        2     timestamp, unsigned 16-bit (unit chosen by the application; we suggest
///                  milliseconds modulo 65536)
///   5        L     joint positions, N values in robot joint order
///   5 + L    2     CRC-16/MODBUS of bytes [0, 5 + L), low byte first
///
/// With the paper's 22 one-byte joints a frame is 29 bytes and the CRC covers its first 27.
///
/// Joint position encodings (SerialJointEncoding):
/// - kUint8 (the paper's): one unsigned byte per joint, 0..255; InMoov servos take whole
///   degrees 0..180 (servo angle, including the servo's own offset: the mapping computes it).
/// - kInt16: two bytes per joint, signed -32768..32767, low byte first; we suggest hundredths
///   of a degree (+-327.67 deg) where one degree is too coarse.
///
/// Decoding resynchronises on the sync bytes: `SerialFrameDecoder` takes arbitrary chunks of a
/// byte stream, recovers every intact frame whatever garbage, truncated or corrupted frames
/// surround it, and counts rejected frames; it holds one frame of bytes and never allocates.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/io/crc16.hpp>

namespace retarget {

/// First sync byte of every frame.
inline constexpr std::uint8_t kSerialSync0 = 0xAA;
/// Second sync byte of every frame.
inline constexpr std::uint8_t kSerialSync1 = 0x55;
/// Bytes before the joint positions: two sync bytes, the length byte and the timestamp.
inline constexpr std::size_t kSerialHeaderSize = 5;
/// Bytes of the CRC at the end of a frame.
inline constexpr std::size_t kSerialCrcSize = 2;

/// How one joint position is stored in a frame.
enum class SerialJointEncoding {
  kUint8,  ///< one unsigned byte, 0..255 (the paper's; InMoov servo degrees 0..180).
  kInt16,  ///< two bytes, signed, low byte first, -32768..32767 (e.g. 0.01 deg units).
};

/// The frame format both ends agree on; an aggregate, checked once by `validate()`.
struct SerialFrameFormat {
  /// Number of joint positions N per frame (22 for the paper's InMoov).
  std::size_t joint_count = 22;
  /// Storage of each joint position.
  SerialJointEncoding encoding = SerialJointEncoding::kUint8;

  /// Bytes per joint position (1 or 2).
  std::size_t bytesPerJoint() const noexcept { return encoding == SerialJointEncoding::kInt16 ? 2 : 1; }
  /// The length byte L = N * bytes per joint.
  std::size_t payloadSize() const noexcept { return joint_count * bytesPerJoint(); }
  /// Total bytes of one frame, 5 + L + 2 (29 for the paper's format).
  std::size_t frameSize() const noexcept { return kSerialHeaderSize + payloadSize() + kSerialCrcSize; }
  /// Smallest and largest integer a joint position can hold.
  std::int32_t minValue() const noexcept { return encoding == SerialJointEncoding::kInt16 ? -32768 : 0; }
  std::int32_t maxValue() const noexcept { return encoding == SerialJointEncoding::kInt16 ? 32767 : 255; }
  /// True when validate() would not throw.
  bool isValid() const noexcept {
    return (encoding == SerialJointEncoding::kUint8 || encoding == SerialJointEncoding::kInt16) &&
           joint_count >= 1 && payloadSize() <= 255;
  }
  /// Throws InvalidArgument unless 1 <= joint_count and the payload fits the length byte
  /// (joint_count * bytes per joint <= 255) and the encoding is known.
  RETARGET_DECL void validate() const;
};

/// One decoded frame: the timestamp and N joint positions (integers in the encoding's units).
struct SerialFrame {
  std::uint16_t timestamp = 0;
  Eigen::VectorXi positions;
};

/// Outcome of checking one complete frame.
enum class SerialFrameCheck {
  kOk,         ///< valid frame
  kTooShort,   ///< fewer bytes than one frame of this format
  kBadSync,    ///< the first two bytes are not 0xAA 0x55
  kBadLength,  ///< the length byte does not match this format
  kBadCrc,     ///< the CRC does not match the bytes
};

/// Real-time encoder: writes one frame into `out` (at least format.frameSize() bytes) and
/// returns the status. Positions outside [minValue, maxValue] are clamped and reported as
/// kClamped. Returns kInvalidInput and writes nothing when the format is invalid, positions
/// has the wrong size or `out_size` is too small. Never allocates or throws.
RETARGET_DECL Status writeSerialFrame(const SerialFrameFormat& format, std::uint16_t timestamp,
                                      const Eigen::Ref<const Eigen::VectorXi>& positions, std::uint8_t* out,
                                      std::size_t out_size) noexcept;

/// Encodes one frame into a new byte vector. Throws InvalidArgument when the format is invalid,
/// positions has the wrong size, or a position is outside the encoding's range (no silent
/// clamping here; use writeSerialFrame in the real-time path).
RETARGET_DECL std::vector<std::uint8_t> encodeSerialFrame(const SerialFrameFormat& format, std::uint16_t timestamp,
                                                          const Eigen::Ref<const Eigen::VectorXi>& positions);

/// Checks and decodes one complete frame at data[0, size) (extra bytes after the frame are
/// ignored). On kOk fills `frame` (resizing frame.positions to N only when it has another size);
/// otherwise leaves `frame` unchanged. Never throws; `format` must be valid (else kBadLength).
RETARGET_DECL SerialFrameCheck readSerialFrame(const SerialFrameFormat& format, const std::uint8_t* data,
                                               std::size_t size, SerialFrame& frame);

/// Decodes one complete frame. Throws InvalidArgument naming the problem (too short, bad sync,
/// bad length byte, CRC mismatch with both values) or an invalid format.
RETARGET_DECL SerialFrame decodeSerialFrame(const SerialFrameFormat& format, const std::vector<std::uint8_t>& bytes);

/// Counters of a SerialFrameDecoder.
struct SerialDecoderStats {
  /// Frames that passed every check (and were handed to the callback).
  std::size_t good_frames = 0;
  /// Candidate frames that started with the sync bytes but were rejected (wrong length byte or
  /// CRC mismatch): corrupted, truncated or spliced frames.
  std::size_t bad_frames = 0;
  /// Bytes discarded while searching for the next frame (garbage and rejected frames' bytes).
  std::size_t discarded_bytes = 0;
};

/// Streaming decoder: feed it any chunks of a byte stream; it calls `on_frame(const
/// SerialFrame&)` for every valid frame, in order, and resynchronises after garbage, dropped,
/// inserted or flipped bytes: when a candidate frame fails, it looks for the next sync bytes
/// from the candidate's second byte on, so an intact frame that follows (or overlaps the
/// tail of) a broken one is still found. A false frame inside random bytes would need the sync
/// bytes, the exact length byte and a matching CRC (odds about 2^-40 per position).
///
/// Invariant: the buffer holds at most one frame of bytes, and always starts at a possible
/// frame start. feed() never allocates (the buffer and the decoded frame are sized once by the
/// constructor) and throws only what `on_frame` throws.
class SerialFrameDecoder {
 public:
  /// Throws InvalidArgument when the format is invalid. Allocates once.
  RETARGET_DECL explicit SerialFrameDecoder(const SerialFrameFormat& format);

  /// Consumes `size` bytes at `data`; returns the number of good frames they completed.
  template <typename OnFrame>
  std::size_t feed(const std::uint8_t* data, std::size_t size, OnFrame&& on_frame) {
    std::size_t completed = 0;
    for (std::size_t k = 0; k < size; ++k) {
      buffer_[fill_++] = data[k];
      completed += scan(on_frame);
    }
    return completed;
  }

  /// Forgets any partial frame (counters are kept; see resetStats).
  void reset() noexcept { fill_ = 0; }
  /// Zeroes the counters.
  void resetStats() noexcept { stats_ = {}; }
  /// Counters since construction or resetStats().
  const SerialDecoderStats& stats() const noexcept { return stats_; }
  /// Bytes of an incomplete candidate frame waiting for more input.
  std::size_t pendingBytes() const noexcept { return fill_; }
  const SerialFrameFormat& format() const noexcept { return format_; }

 private:
  void drop() noexcept {
    std::memmove(buffer_.data(), buffer_.data() + 1, fill_ - 1);
    --fill_;
    ++stats_.discarded_bytes;
  }

  // Runs the state machine on the buffer after a byte was added; returns 1 when a frame was
  // emitted.
  template <typename OnFrame>
  std::size_t scan(OnFrame& on_frame) {
    const std::size_t frame_size = buffer_.size();
    while (fill_ > 0) {
      if (buffer_[0] != kSerialSync0 || (fill_ >= 2 && buffer_[1] != kSerialSync1)) {
        drop();
        continue;
      }
      if (fill_ >= 3 && buffer_[2] != format_.payloadSize()) {
        ++stats_.bad_frames;
        drop();
        continue;
      }
      if (fill_ < frame_size) return 0;
      if (readSerialFrame(format_, buffer_.data(), fill_, frame_) == SerialFrameCheck::kOk) {
        fill_ = 0;
        ++stats_.good_frames;
        on_frame(static_cast<const SerialFrame&>(frame_));
        return 1;
      }
      ++stats_.bad_frames;
      drop();
    }
    return 0;
  }

  SerialFrameFormat format_;
  std::vector<std::uint8_t> buffer_;
  std::size_t fill_ = 0;
  SerialFrame frame_;
  SerialDecoderStats stats_;
};

#if RETARGET_DEFINE_IO

RETARGET_DECL Status writeSerialFrame(const SerialFrameFormat& format, std::uint16_t timestamp,
                                      const Eigen::Ref<const Eigen::VectorXi>& positions, std::uint8_t* out,
                                      std::size_t out_size) noexcept {
  if (!format.isValid() || positions.size() != static_cast<Eigen::Index>(format.joint_count) ||
      out == nullptr || out_size < format.frameSize()) {
    return StatusCode::kInvalidInput;
  }
  Status status;
  out[0] = kSerialSync0;
  out[1] = kSerialSync1;
  out[2] = static_cast<std::uint8_t>(format.payloadSize());
  out[3] = static_cast<std::uint8_t>(timestamp & 0xFFu);
  out[4] = static_cast<std::uint8_t>(timestamp >> 8);
  std::uint8_t* payload = out + kSerialHeaderSize;
  for (std::size_t k = 0; k < format.joint_count; ++k) {
    std::int32_t value = positions(static_cast<Eigen::Index>(k));
    if (value < format.minValue() || value > format.maxValue()) {
      value = std::clamp(value, format.minValue(), format.maxValue());
      status |= StatusCode::kClamped;
    }
    if (format.encoding == SerialJointEncoding::kUint8) {
      payload[k] = static_cast<std::uint8_t>(value);
    } else {
      const auto bits = static_cast<std::uint16_t>(static_cast<std::int16_t>(value));
      payload[2 * k] = static_cast<std::uint8_t>(bits & 0xFFu);
      payload[2 * k + 1] = static_cast<std::uint8_t>(bits >> 8);
    }
  }
  const std::size_t crc_offset = kSerialHeaderSize + format.payloadSize();
  const std::uint16_t crc = crc16Modbus(out, crc_offset);
  out[crc_offset] = static_cast<std::uint8_t>(crc & 0xFFu);
  out[crc_offset + 1] = static_cast<std::uint8_t>(crc >> 8);
  return status;
}

RETARGET_DECL std::vector<std::uint8_t> encodeSerialFrame(const SerialFrameFormat& format, std::uint16_t timestamp,
                                                          const Eigen::Ref<const Eigen::VectorXi>& positions) {
  format.validate();
  RETARGET_THROW_UNLESS(positions.size() == static_cast<Eigen::Index>(format.joint_count), InvalidArgument,
                        "one position per joint needed (got ", positions.size(), ", expected ", format.joint_count,
                        ")");
  for (Eigen::Index k = 0; k < positions.size(); ++k) {
    RETARGET_THROW_UNLESS(positions(k) >= format.minValue() && positions(k) <= format.maxValue(), InvalidArgument,
                          "joint position ", k, " does not fit the encoding (got ", positions(k), ", expected ",
                          format.minValue(), "..", format.maxValue(), ")");
  }
  std::vector<std::uint8_t> bytes(format.frameSize());
  const Status status = writeSerialFrame(format, timestamp, positions, bytes.data(), bytes.size());
  RETARGET_CHECK_INVARIANT(status.ok());
  return bytes;
}

RETARGET_DECL SerialFrameCheck readSerialFrame(const SerialFrameFormat& format, const std::uint8_t* data,
                                               std::size_t size, SerialFrame& frame) {
  if (!format.isValid()) return SerialFrameCheck::kBadLength;
  if (data == nullptr || size < format.frameSize()) return SerialFrameCheck::kTooShort;
  if (data[0] != kSerialSync0 || data[1] != kSerialSync1) return SerialFrameCheck::kBadSync;
  if (data[2] != format.payloadSize()) return SerialFrameCheck::kBadLength;
  const std::size_t crc_offset = kSerialHeaderSize + format.payloadSize();
  const auto received = static_cast<std::uint16_t>(data[crc_offset] | (data[crc_offset + 1] << 8));
  if (crc16Modbus(data, crc_offset) != received) return SerialFrameCheck::kBadCrc;
  const auto n = static_cast<Eigen::Index>(format.joint_count);
  if (frame.positions.size() != n) frame.positions.resize(n);
  frame.timestamp = static_cast<std::uint16_t>(data[3] | (data[4] << 8));
  const std::uint8_t* payload = data + kSerialHeaderSize;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (format.encoding == SerialJointEncoding::kUint8) {
      frame.positions(k) = payload[k];
    } else {
      const auto bits = static_cast<std::uint16_t>(payload[2 * k] | (payload[2 * k + 1] << 8));
      frame.positions(k) = static_cast<std::int16_t>(bits);
    }
  }
  return SerialFrameCheck::kOk;
}

RETARGET_DECL SerialFrame decodeSerialFrame(const SerialFrameFormat& format, const std::vector<std::uint8_t>& bytes) {
  format.validate();
  SerialFrame frame;
  const SerialFrameCheck check = readSerialFrame(format, bytes.data(), bytes.size(), frame);
  RETARGET_THROW_UNLESS(check != SerialFrameCheck::kTooShort, InvalidArgument, "serial frame too short (got ",
                        bytes.size(), " bytes, expected ", format.frameSize(), ")");
  RETARGET_THROW_UNLESS(check != SerialFrameCheck::kBadSync, InvalidArgument,
                        "serial frame does not start with the sync bytes (got ", int(bytes[0]), " ", int(bytes[1]),
                        ", expected 170 85 = 0xAA 0x55)");
  RETARGET_THROW_UNLESS(check != SerialFrameCheck::kBadLength, InvalidArgument,
                        "serial frame length byte does not match the format (got ", int(bytes[2]), ", expected ",
                        format.payloadSize(), ")");
  if (check == SerialFrameCheck::kBadCrc) {
    const std::size_t crc_offset = kSerialHeaderSize + format.payloadSize();
    RETARGET_THROW_UNLESS(false, InvalidArgument, "serial frame CRC mismatch (got 0x", std::hex,
                          bytes[crc_offset] | (bytes[crc_offset + 1] << 8), ", expected 0x",
                          crc16Modbus(bytes.data(), crc_offset), ")");
  }
  return frame;
}

RETARGET_DECL void SerialFrameFormat::validate() const {
  RETARGET_THROW_UNLESS(encoding == SerialJointEncoding::kUint8 || encoding == SerialJointEncoding::kInt16,
                        InvalidArgument, "SerialFrameFormat.encoding is not a known value (got ",
                        static_cast<int>(encoding), ", expected kUint8 or kInt16)");
  RETARGET_THROW_UNLESS(joint_count >= 1 && payloadSize() <= 255, InvalidArgument,
                        "SerialFrameFormat.joint_count must fit the length byte (got ", joint_count, " joints of ",
                        bytesPerJoint(), " bytes, expected 1..", 255 / bytesPerJoint(), ")");
}

RETARGET_DECL SerialFrameDecoder::SerialFrameDecoder(const SerialFrameFormat& format) : format_(format) {
  format_.validate();
  buffer_.assign(format_.frameSize(), 0);
  frame_.positions = Eigen::VectorXi::Zero(static_cast<Eigen::Index>(format_.joint_count));
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
