// libFuzzer target: the serial frame decoders (retarget/io/serial_frame.hpp). The first two
// bytes choose the format (joint count, encoding), the third the chunk size; the rest is a byte
// stream fed to SerialFrameDecoder in chunks and, whole, to readSerialFrame / decodeSerialFrame.
// Properties: every frame the streaming decoder emits re-encodes to a frame readSerialFrame
// accepts with the same values; its counters add up (good frames = frames emitted, bytes are
// consumed or pending); decodeSerialFrame refuses with an InvalidArgument only, and agrees with
// readSerialFrame.
#include <vector>

#include <retarget/io/serial_frame.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  if (size < 3) return 0;
  SerialFrameFormat format;
  format.encoding = (data[0] & 1) ? SerialJointEncoding::kInt16 : SerialJointEncoding::kUint8;
  format.joint_count = 1 + static_cast<std::size_t>(data[1]) % (255 / format.bytesPerJoint());
  const std::size_t chunk = 1 + data[2] % 64;
  data += 3;
  size -= 3;

  SerialFrameDecoder decoder(format);
  std::size_t emitted = 0;
  std::vector<std::uint8_t> encoded(format.frameSize());
  SerialFrame again;
  auto on_frame = [&](const SerialFrame& frame) {
    ++emitted;
    if (frame.positions.size() != static_cast<Eigen::Index>(format.joint_count)) fuzz::fail("frame size", "");
    const Status status = writeSerialFrame(format, frame.timestamp, frame.positions, encoded.data(), encoded.size());
    if (!status.ok()) fuzz::fail("a decoded frame does not re-encode", status.toString());
    if (readSerialFrame(format, encoded.data(), encoded.size(), again) != SerialFrameCheck::kOk ||
        again.timestamp != frame.timestamp || again.positions != frame.positions) {
      fuzz::fail("a decoded frame does not read back to the same values", "");
    }
  };
  std::size_t completed = 0;
  for (std::size_t at = 0; at < size; at += chunk) completed += decoder.feed(data + at, std::min(chunk, size - at), on_frame);
  const SerialDecoderStats& stats = decoder.stats();
  if (completed != emitted || stats.good_frames != emitted) fuzz::fail("decoder counters disagree with its frames", "");
  if (stats.good_frames * format.frameSize() + stats.discarded_bytes + decoder.pendingBytes() != size) {
    fuzz::fail("decoder bytes do not add up", std::to_string(size));
  }

  SerialFrame single;
  const SerialFrameCheck check = readSerialFrame(format, data, size, single);
  fuzz::expectRetargetErrorsOnly("<serial>", [&] {
    bool decoded = false;
    try {
      const SerialFrame frame = decodeSerialFrame(format, std::vector<std::uint8_t>(data, data + size));
      decoded = true;
      if (check != SerialFrameCheck::kOk || frame.timestamp != single.timestamp || frame.positions != single.positions) {
        fuzz::fail("decodeSerialFrame and readSerialFrame disagree", "");
      }
    } catch (const InvalidArgument&) {
      if (check == SerialFrameCheck::kOk) fuzz::fail("decodeSerialFrame refuses what readSerialFrame accepts", "");
      throw;
    }
    (void)decoded;
  });
  return 0;
}
