// Serial frame protocol (paper 002, Sec. 4.1): CRC-16/MODBUS against a bit-by-bit reference,
// encode/decode round trips, and a seeded fuzz test of the streaming decoder (bit flips, drops,
// insertions, truncations, garbage, concatenation, random chunking).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <retarget/io/crc16.hpp>
#include <retarget/io/serial_frame.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// The CRC written out from its definition, one bit at a time (independent of the table).
std::uint16_t bitwiseCrc16Modbus(const std::vector<std::uint8_t>& bytes) {
  std::uint16_t crc = 0xFFFF;
  for (std::uint8_t byte : bytes) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? static_cast<std::uint16_t>((crc >> 1) ^ 0xA001) : crc >> 1;
  }
  return crc;
}

std::vector<std::uint8_t> randomBytes(std::mt19937& rng, std::size_t size) {
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<std::uint8_t> bytes(size);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(byte(rng));
  return bytes;
}

SerialFrame randomFrame(std::mt19937& rng, const SerialFrameFormat& format) {
  SerialFrame frame;
  frame.timestamp = static_cast<std::uint16_t>(std::uniform_int_distribution<int>(0, 65535)(rng));
  frame.positions.resize(static_cast<Eigen::Index>(format.joint_count));
  std::uniform_int_distribution<int> value(format.minValue(), format.maxValue());
  for (Eigen::Index k = 0; k < frame.positions.size(); ++k) frame.positions(k) = value(rng);
  return frame;
}

bool sameFrame(const SerialFrame& x, const SerialFrame& y) {
  return x.timestamp == y.timestamp && x.positions == y.positions;
}

}  // namespace

TEST_CASE("crc16: the MODBUS check value and agreement with the bit-by-bit definition") {
  const std::string check = "123456789";
  const std::vector<std::uint8_t> bytes(check.begin(), check.end());
  CHECK(crc16Modbus(bytes.data(), bytes.size()) == 0x4B37);
  CHECK(bitwiseCrc16Modbus(bytes) == 0x4B37);
  static_assert(crc16Modbus(nullptr, 0) == 0xFFFF, "empty input leaves the initial value");

  std::mt19937 rng(1);
  for (int trial = 0; trial < test::sweepCount(500); ++trial) {
    std::vector<std::uint8_t> message = randomBytes(rng, std::uniform_int_distribution<std::size_t>(0, 300)(rng));
    const std::uint16_t crc = crc16Modbus(message.data(), message.size());
    CHECK(crc == bitwiseCrc16Modbus(message));
    // Incremental: a split message gives the same CRC.
    const std::size_t cut = message.empty() ? 0 : std::uniform_int_distribution<std::size_t>(0, message.size())(rng);
    CHECK(crc16Modbus(message.data() + cut, message.size() - cut, crc16Modbus(message.data(), cut)) == crc);
    // Residue: the message followed by its CRC, low byte first, checks to zero.
    message.push_back(static_cast<std::uint8_t>(crc & 0xFF));
    message.push_back(static_cast<std::uint8_t>(crc >> 8));
    CHECK(crc16Modbus(message.data(), message.size()) == 0);
  }
}

TEST_CASE("serial frame: the paper's layout, 29 bytes with the CRC over the first 27") {
  const SerialFrameFormat format;  // 22 joints, one byte each
  CHECK(format.frameSize() == 29);
  Eigen::VectorXi positions(22);
  for (int k = 0; k < 22; ++k) positions(k) = 90 + k;
  const std::vector<std::uint8_t> bytes = encodeSerialFrame(format, 0x1234, positions);
  REQUIRE(bytes.size() == 29);
  CHECK(bytes[0] == 0xAA);
  CHECK(bytes[1] == 0x55);
  CHECK(bytes[2] == 22);
  CHECK(bytes[3] == 0x34);  // timestamp low byte first
  CHECK(bytes[4] == 0x12);
  for (int k = 0; k < 22; ++k) CHECK(bytes[5 + k] == 90 + k);
  const std::vector<std::uint8_t> first27(bytes.begin(), bytes.begin() + 27);
  const std::uint16_t crc = bitwiseCrc16Modbus(first27);
  CHECK(bytes[27] == (crc & 0xFF));
  CHECK(bytes[28] == (crc >> 8));
}

TEST_CASE("serial frame: encode -> decode round trip for both encodings and many sizes") {
  std::mt19937 rng(2);
  for (int trial = 0; trial < test::sweepCount(500); ++trial) {
    SerialFrameFormat format;
    format.encoding = trial % 2 ? SerialJointEncoding::kInt16 : SerialJointEncoding::kUint8;
    format.joint_count = std::uniform_int_distribution<std::size_t>(1, 255 / format.bytesPerJoint())(rng);
    const SerialFrame frame = randomFrame(rng, format);
    const std::vector<std::uint8_t> bytes = encodeSerialFrame(format, frame.timestamp, frame.positions);
    CHECK(bytes.size() == format.frameSize());
    CHECK(crc16Modbus(bytes.data(), bytes.size()) == 0);  // residue property of a whole frame
    const SerialFrame decoded = decodeSerialFrame(format, bytes);
    CHECK(sameFrame(decoded, frame));
  }
  // Extreme values of each encoding survive.
  SerialFrameFormat wide;
  wide.joint_count = 4;
  wide.encoding = SerialJointEncoding::kInt16;
  const Eigen::Vector4i extremes(-32768, 32767, -1, 0);
  CHECK(decodeSerialFrame(wide, encodeSerialFrame(wide, 65535, extremes)).positions == extremes);
}

TEST_CASE("serial frame: real-time writer clamps, rejects bad sizes, never allocates") {
  SerialFrameFormat format;
  format.joint_count = 3;
  std::vector<std::uint8_t> out(format.frameSize() + 4);
  const Eigen::Vector3i in_range(0, 180, 255);
  const Eigen::Vector3i out_of_range(-5, 90, 300);
  const Eigen::Vector2i too_few(1, 2);
  SerialFrame decoded;
  decoded.positions = Eigen::VectorXi::Zero(3);
  {
    test::NoAllocationScope scope;
    CHECK(writeSerialFrame(format, 7, in_range, out.data(), out.size()).ok());
    CHECK(readSerialFrame(format, out.data(), out.size(), decoded) == SerialFrameCheck::kOk);
    CHECK(decoded.positions == in_range);
    CHECK(writeSerialFrame(format, 8, out_of_range, out.data(), out.size()).has(StatusCode::kClamped));
    CHECK(readSerialFrame(format, out.data(), out.size(), decoded) == SerialFrameCheck::kOk);
    CHECK(decoded.positions == Eigen::Vector3i(0, 90, 255));
    CHECK(decoded.timestamp == 8);
    CHECK(writeSerialFrame(format, 9, too_few, out.data(), out.size()).has(StatusCode::kInvalidInput));
    CHECK(writeSerialFrame(format, 9, in_range, out.data(), format.frameSize() - 1).has(StatusCode::kInvalidInput));
    CHECK(scope.allocations() == 0);
  }
  CHECK(decoded.timestamp == 8);  // the rejected writes changed nothing
}

TEST_CASE("serial frame: each kind of damage is detected") {
  const SerialFrameFormat format;
  std::mt19937 rng(3);
  const SerialFrame frame = randomFrame(rng, format);
  const std::vector<std::uint8_t> good = encodeSerialFrame(format, frame.timestamp, frame.positions);
  SerialFrame out;
  // Every single-bit flip anywhere in the frame is caught by one of the checks.
  for (std::size_t byte = 0; byte < good.size(); ++byte) {
    for (int bit = 0; bit < 8; ++bit) {
      std::vector<std::uint8_t> bad = good;
      bad[byte] ^= static_cast<std::uint8_t>(1u << bit);
      const SerialFrameCheck check = readSerialFrame(format, bad.data(), bad.size(), out);
      CHECK(check != SerialFrameCheck::kOk);
      if (byte < 2) CHECK(check == SerialFrameCheck::kBadSync);
      if (byte == 2) CHECK(check == SerialFrameCheck::kBadLength);
      if (byte > 2) CHECK(check == SerialFrameCheck::kBadCrc);
    }
  }
  std::vector<std::uint8_t> truncated(good.begin(), good.end() - 1);
  CHECK(readSerialFrame(format, truncated.data(), truncated.size(), out) == SerialFrameCheck::kTooShort);
  CHECK_THROWS_WITH_AS(decodeSerialFrame(format, truncated), doctest::Contains("got 28 bytes, expected 29"),
                       InvalidArgument);
  std::vector<std::uint8_t> flipped = good;
  flipped[10] ^= 0x10;
  CHECK_THROWS_WITH_AS(decodeSerialFrame(format, flipped), doctest::Contains("CRC mismatch"), InvalidArgument);
  std::vector<std::uint8_t> unsynced = good;
  unsynced[0] = 0;
  CHECK_THROWS_WITH_AS(decodeSerialFrame(format, unsynced), doctest::Contains("sync"), InvalidArgument);
}

TEST_CASE("serial frame: malformed arguments throw InvalidArgument") {
  SerialFrameFormat format;
  format.joint_count = 0;
  CHECK_THROWS_WITH_AS(format.validate(), doctest::Contains("got 0 joints"), InvalidArgument);
  format.joint_count = 128;
  format.encoding = SerialJointEncoding::kInt16;
  CHECK_THROWS_WITH_AS(format.validate(), doctest::Contains("expected 1..127"), InvalidArgument);
  CHECK_THROWS_AS(SerialFrameDecoder{format}, InvalidArgument);
  format.joint_count = 2;
  CHECK_THROWS_WITH_AS(encodeSerialFrame(format, 0, Eigen::Vector3i(1, 2, 3)), doctest::Contains("got 3, expected 2"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(encodeSerialFrame(format, 0, Eigen::Vector2i(1, 40000)),
                       doctest::Contains("got 40000, expected -32768..32767"), InvalidArgument);
  format.encoding = SerialJointEncoding::kUint8;
  CHECK_THROWS_WITH_AS(encodeSerialFrame(format, 0, Eigen::Vector2i(-1, 4)), doctest::Contains("expected 0..255"),
                       InvalidArgument);
}

TEST_CASE("serial frame decoder: fuzzed streams, every intact frame recovered, damage counted") {
  std::mt19937 rng(20260602);
  std::size_t total_damaged = 0, total_intact = 0, total_candidates = 0, false_accepts = 0;
  for (int trial = 0; trial < test::sweepCount(300); ++trial) {
    SerialFrameFormat format;
    if (trial % 3 == 1) format.joint_count = std::uniform_int_distribution<std::size_t>(1, 40)(rng);
    if (trial % 3 == 2) format.encoding = SerialJointEncoding::kInt16;
    const std::size_t size = format.frameSize();

    // Build the stream: frames, each sent intact or damaged in one way, with garbage between.
    struct Sent {
      SerialFrame frame;
      std::vector<std::uint8_t> original;
      std::size_t offset, length;  // where its (possibly damaged) bytes sit in the stream
    };
    std::vector<std::uint8_t> stream;
    std::vector<Sent> sent;
    const int frames = std::uniform_int_distribution<int>(1, 40)(rng);
    for (int f = 0; f < frames; ++f) {
      if (std::bernoulli_distribution(0.2)(rng)) {  // garbage between frames
        const auto junk = randomBytes(rng, std::uniform_int_distribution<std::size_t>(1, 2 * size)(rng));
        stream.insert(stream.end(), junk.begin(), junk.end());
      }
      const SerialFrame frame = randomFrame(rng, format);
      const std::vector<std::uint8_t> original = encodeSerialFrame(format, frame.timestamp, frame.positions);
      std::vector<std::uint8_t> bytes = original;
      const int damage = std::uniform_int_distribution<int>(0, 9)(rng);
      const std::size_t at = std::uniform_int_distribution<std::size_t>(0, size - 1)(rng);
      const std::size_t inner = std::uniform_int_distribution<std::size_t>(1, size - 1)(rng);
      switch (damage) {
        case 0:  // one bit flipped
          bytes[at] ^= static_cast<std::uint8_t>(1u << std::uniform_int_distribution<int>(0, 7)(rng));
          break;
        case 1:  // one byte dropped
          bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at));
          break;
        case 2:  // one byte inserted inside the frame
          bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(inner),
                       static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng)));
          break;
        case 3:  // truncated (the next frame follows at once: concatenation with a cut frame)
          bytes.resize(inner);
          break;
        default:  // intact
          break;
      }
      sent.push_back({frame, original, stream.size(), bytes.size()});
      stream.insert(stream.end(), bytes.begin(), bytes.end());
    }
    // Always end on an intact frame so that no damaged candidate is left pending.
    const SerialFrame last = randomFrame(rng, format);
    const auto last_bytes = encodeSerialFrame(format, last.timestamp, last.positions);
    sent.push_back({last, last_bytes, stream.size(), last_bytes.size()});
    stream.insert(stream.end(), last_bytes.begin(), last_bytes.end());

    // Which frames must come out: those whose original bytes still appear in the stream, no
    // later than what was sent for them and after the previous recovered frame (a valid frame
    // consumes its bytes). Damage can be undone by chance: an inserted 0xAA before the sync
    // byte, a cut frame whose next byte happens to equal the lost one, a dropped sync byte
    // supplied by the cut frame before it.
    std::vector<SerialFrame> intact;
    std::size_t damaged_with_sync = 0;  // damaged frames that still start with the sync pair
    std::size_t consumed = 0;
    for (const Sent& s : sent) {
      const std::size_t from = consumed;
      const std::size_t to = std::min(stream.size(), s.offset + s.length + size - 1);
      const auto first = stream.begin() + static_cast<std::ptrdiff_t>(std::min(from, to));
      const auto found = std::search(first, stream.begin() + static_cast<std::ptrdiff_t>(to), s.original.begin(),
                                     s.original.end());
      if (from < to && found != stream.begin() + static_cast<std::ptrdiff_t>(to)) {
        intact.push_back(s.frame);
        consumed = static_cast<std::size_t>(found - stream.begin()) + size;
      } else if (s.offset >= consumed && s.length >= 2 && stream[s.offset] == kSerialSync0 &&
                 stream[s.offset + 1] == kSerialSync1) {
        ++damaged_with_sync;  // a rejected candidate must start here
      }
    }

    // Feed in random chunks, under the no-allocation guard.
    SerialFrameDecoder decoder(format);
    std::vector<SerialFrame> received(intact.size() + 8);
    for (auto& r : received) r.positions = Eigen::VectorXi::Zero(static_cast<Eigen::Index>(format.joint_count));
    std::size_t count = 0;
    bool overflow = false;
    {
      test::NoAllocationScope scope;
      std::size_t pos = 0;
      while (pos < stream.size()) {
        const std::size_t chunk =
            std::min(stream.size() - pos, std::uniform_int_distribution<std::size_t>(1, 3 * size)(rng));
        decoder.feed(stream.data() + pos, chunk, [&](const SerialFrame& frame) {
          if (count < received.size()) {
            received[count].timestamp = frame.timestamp;
            received[count].positions = frame.positions;  // presized: no allocation
          } else {
            overflow = true;
          }
          ++count;
        });
        pos += chunk;
      }
      CHECK(scope.allocations() == 0);
    }
    CAPTURE(trial);
    CHECK_FALSE(overflow);
    // A mangled candidate passes a 16-bit CRC by chance with probability 2^-16 (the protocol's
    // limit, not the decoder's): such a frame matches nothing that was sent. Count those
    // trials and check their rate below instead of the exact recovery.
    bool false_accept = false;
    for (std::size_t k = 0; k < std::min(count, received.size()); ++k) {
      bool known = false;
      for (const Sent& s : sent) known = known || sameFrame(received[k], s.frame);
      false_accept = false_accept || !known;
    }
    total_candidates += decoder.stats().bad_frames + decoder.stats().good_frames;
    if (false_accept) {
      ++false_accepts;
      continue;
    }
    REQUIRE(count == intact.size());
    bool all_same = true;
    for (std::size_t k = 0; k < intact.size(); ++k) all_same = all_same && sameFrame(received[k], intact[k]);
    CHECK(all_same);
    CHECK(decoder.stats().good_frames == intact.size());
    CHECK(decoder.pendingBytes() == 0);
    // Every damaged frame whose sync pair survived is counted as bad; any further bad count
    // must come from another sync pair in the stream (each candidate starts at a distinct one).
    std::size_t sync_pairs = 0;
    for (std::size_t k = 0; k + 1 < stream.size(); ++k) {
      sync_pairs += stream[k] == kSerialSync0 && stream[k + 1] == kSerialSync1;
    }
    CHECK(decoder.stats().bad_frames >= damaged_with_sync);
    CHECK(decoder.stats().bad_frames <= sync_pairs - intact.size());
    CHECK(decoder.stats().discarded_bytes + intact.size() * size == stream.size());
    total_damaged += damaged_with_sync;
    total_intact += intact.size();
  }
  CHECK(total_damaged > 100);
  CHECK(total_intact > 100);
  // Expected about total_candidates / 65536 chance acceptances; allow four times that, plus one.
  CHECK(static_cast<double>(false_accepts) <= 1.0 + 4.0 * static_cast<double>(total_candidates) / 65536.0);
}

TEST_CASE("serial frame decoder: chunking does not change the result") {
  std::mt19937 rng(4);
  const SerialFrameFormat format;
  std::vector<std::uint8_t> stream = randomBytes(rng, 500);
  for (int f = 0; f < 30; ++f) {
    const SerialFrame frame = randomFrame(rng, format);
    const auto bytes = encodeSerialFrame(format, frame.timestamp, frame.positions);
    stream.insert(stream.end(), bytes.begin(), bytes.end());
    if (f % 4 == 0) stream.push_back(kSerialSync0);  // stray sync bytes
  }
  std::vector<std::uint16_t> whole, bytewise;
  SerialFrameDecoder a(format), b(format);
  a.feed(stream.data(), stream.size(), [&](const SerialFrame& fr) { whole.push_back(fr.timestamp); });
  for (std::uint8_t byte : stream) b.feed(&byte, 1, [&](const SerialFrame& fr) { bytewise.push_back(fr.timestamp); });
  CHECK(whole.size() >= 30);
  CHECK(whole == bytewise);
  CHECK(a.stats().bad_frames == b.stats().bad_frames);
  CHECK(a.stats().discarded_bytes == b.stats().discarded_bytes);
}
