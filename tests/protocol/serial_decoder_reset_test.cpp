// SerialFrameDecoder::reset() and resetStats(): reset forgets a partial frame but keeps the
// counters; resetStats zeroes the counters but keeps a partial frame.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <retarget/io/serial_frame.hpp>

using namespace retarget;

TEST_CASE("serial decoder: reset() drops a partial frame, keeps the counters; resetStats() the reverse") {
  const SerialFrameFormat format;  // 22 joints, one byte each
  Eigen::VectorXi positions = Eigen::VectorXi::Zero(static_cast<Eigen::Index>(format.joint_count));
  for (Eigen::Index k = 0; k < positions.size(); ++k) positions(k) = static_cast<int>(k) + format.minValue();
  const std::vector<std::uint8_t> frame = encodeSerialFrame(format, 0x0102, positions);
  SerialFrameDecoder decoder(format);
  int received = 0;
  auto count = [&](const SerialFrame& f) {
    ++received;
    CHECK(f.positions == positions);
  };
  REQUIRE(decoder.feed(frame.data(), frame.size(), count) == 1);
  CHECK(decoder.stats().good_frames == 1);

  // Half a frame, then reset(): the half is forgotten, so the remaining half cannot complete
  // it, while the counters survive.
  const std::size_t half = frame.size() / 2;
  decoder.feed(frame.data(), half, count);
  CHECK(decoder.pendingBytes() == half);
  decoder.reset();
  CHECK(decoder.pendingBytes() == 0);
  CHECK(decoder.stats().good_frames == 1);
  CHECK(decoder.feed(frame.data() + half, frame.size() - half, count) == 0);
  CHECK(received == 1);
  // Without the reset the same two halves make a frame.
  SerialFrameDecoder whole(format);
  whole.feed(frame.data(), half, count);
  CHECK(whole.feed(frame.data() + half, frame.size() - half, count) == 1);
  CHECK(received == 2);

  // resetStats() zeroes every counter and keeps a pending partial frame.
  REQUIRE(decoder.feed(frame.data(), frame.size(), count) == 1);
  const std::vector<std::uint8_t> garbage = {0x00, 0x11, 0x22};
  decoder.feed(garbage.data(), garbage.size(), count);
  CHECK(decoder.stats().good_frames >= 1);
  CHECK(decoder.stats().discarded_bytes > 0);
  decoder.feed(frame.data(), half, count);
  const std::size_t pending = decoder.pendingBytes();
  CHECK(pending > 0);
  decoder.resetStats();
  CHECK(decoder.stats().good_frames == 0);
  CHECK(decoder.stats().bad_frames == 0);
  CHECK(decoder.stats().discarded_bytes == 0);
  CHECK(decoder.pendingBytes() == pending);
  CHECK(decoder.feed(frame.data() + half, frame.size() - half, count) == 1);
  CHECK(decoder.stats().good_frames == 1);
}
