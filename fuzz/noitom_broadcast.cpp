// libFuzzer target: the Noitom BVH broadcast decoder (retarget/adapters/noitom/bvh_broadcast.hpp)
// bound to a four-joint hierarchy (value counts 24, 15, 30 and 21 for the four layouts). The
// first byte chooses datagram mode (bit 0: the rest is datagrams, each a 2-byte little-endian
// length and its bytes) or stream mode (the rest is one TCP byte stream, fed in chunks of
// 1 + byte / 2 bytes). Properties: every frame handed out is finite, carries a layout of the
// hierarchy and the arrival time given; the counters add up; a stream gives the same frames
// whatever its chunks; every frame re-encoded as text decodes to itself.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <retarget/adapters/noitom/bvh_broadcast.hpp>
#include <retarget/adapters/noitom/bvh_broadcast_encoder.hpp>
#include <retarget/io/bvh.hpp>

#include "support/fuzz_support.hpp"

namespace {

using namespace retarget;

const BvhMotion& hierarchy() {
  static const BvhMotion chain = parseBvh(
      "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation\n"
      " JOINT Spine\n {\n  OFFSET 0 10 0\n  CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation\n"
      "  JOINT Neck\n  {\n   OFFSET 0 20 0\n   CHANNELS 3 Yrotation Xrotation Zrotation\n"
      "   JOINT Head\n   {\n    OFFSET 0 8 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "    End Site\n    {\n     OFFSET 0 5 0\n    }\n   }\n  }\n }\n}\nMOTION\nFrames: 0\nFrame Time: 0.01\n");
  return chain;
}

void checkFrame(const NoitomFrame& frame, double t, const char* where) {
  if (frame.channels.size() != hierarchy().channel_count || !frame.channels.allFinite()) {
    fuzz::fail("an emitted frame is not finite or has the wrong size", where);
  }
  if (frame.time != t) fuzz::fail("an emitted frame has another time than its arrival", where);
  // Text re-encoding round trip (shortest decimals read back to the same double).
  NoitomBroadcastDecoder again(hierarchy());
  const std::string text = noitomTextFrame(noitomWireValues(hierarchy(), frame.channels, frame.layout));
  NoitomFrame copy;
  if (!again.decodeDatagram(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), t, copy) ||
      copy.channels != frame.channels) {
    fuzz::fail("a frame re-encoded as text does not decode to itself", where);
  }
}

void checkCounters(const NoitomBroadcastDecoder& decoder, std::uint64_t emitted) {
  if (decoder.counters().frames != emitted) fuzz::fail("frames counted differ from frames emitted", "");
}

std::vector<Eigen::VectorXd> decodeStream(const std::uint8_t* data, std::size_t size, std::size_t chunk) {
  NoitomBroadcastDecoder decoder(hierarchy());
  NoitomFrame frame;
  std::vector<Eigen::VectorXd> frames;
  for (std::size_t at = 0; at < size; at += chunk) {
    decoder.feed(data + at, std::min(chunk, size - at));
    while (decoder.next(1.0, frame)) {
      checkFrame(frame, 1.0, "stream");
      frames.push_back(frame.channels);
    }
  }
  decoder.resetStream();
  checkCounters(decoder, frames.size());
  return frames;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t mode = data[0];
  ++data;
  --size;
  if (mode & 1) {
    NoitomBroadcastDecoder decoder(hierarchy());
    NoitomFrame frame;
    std::uint64_t emitted = 0;
    double t = 0;
    fuzz::forEachDatagram(data, size, [&](const std::uint8_t* datagram, std::size_t take) {
      t += 0.01;
      if (decoder.decodeDatagram(datagram, take, t, frame)) {
        checkFrame(frame, t, "datagram");
        ++emitted;
      }
      while (decoder.next(t, frame)) {  // more text frames in the same datagram (as the UDP source reads)
        checkFrame(frame, t, "datagram");
        ++emitted;
      }
    });
    checkCounters(decoder, emitted);
    return 0;
  }
  const std::size_t chunk = 1 + mode / 2;
  const std::vector<Eigen::VectorXd> whole = decodeStream(data, size, size > 0 ? size : 1);
  const std::vector<Eigen::VectorXd> pieces = decodeStream(data, size, chunk);
  if (size < 16384 && whole != pieces) fuzz::fail("a stream cut in chunks gives other frames", std::to_string(chunk));
  return 0;
}
