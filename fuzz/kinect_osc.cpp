// libFuzzer target: the KinectV2-OSC stream (retarget/adapters/kinect/). The input is a
// sequence of datagrams, each a 2-byte little-endian length and that many bytes; each is
// decoded by liblo (lo_message_deserialise, as the UDP source's server does) and handed to a
// KinectOscAssembler through receiveLoMessage, the first byte of the input choosing the body
// policy and max_missing_joints. Properties: every frame handed out is finite, its states are
// valid, its time is the arrival time of the datagram that completed it; the assembler counts
// one message per decoded datagram.
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include <lo/lo.h>
#include <lo/lo_lowlevel.h>

#include <retarget/adapters/kinect/kinect_osc_source.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  if (size < 1) return 0;
  KinectOscOptions options;
  options.body_id = (data[0] & 0x80) ? 7 : 0;
  options.max_missing_joints = data[0] % kHumanJointCount;
  KinectOscAssembler assembler(options);
  ++data;
  --size;

  std::uint64_t decoded = 0;
  double t = 0.0, last_time = -1.0;
  SkeletonFrame<double> frame;
  fuzz::forEachDatagram(data, size, [&](const std::uint8_t* datagram, std::size_t take) {
    t += 0.01;
    int result = 0;
    lo_message message = lo_message_deserialise(const_cast<std::uint8_t*>(datagram), take, &result);
    if (message != nullptr) {
      ++decoded;
      const char* path = lo_get_path(const_cast<std::uint8_t*>(datagram), static_cast<ssize_t>(take));
      receiveLoMessage(assembler, path, lo_message_get_types(message), lo_message_get_argv(message),
                       lo_message_get_argc(message), t);
      lo_message_free(message);
    }
    if (assembler.poll(frame, t)) {
      for (std::size_t j = 0; j < frame.p_W.size(); ++j) {
        if (!frame.p_W[j].allFinite()) fuzz::fail("a non-finite joint position was handed out", std::to_string(j));
        if (frame.state[j] != TrackingState::kNotTracked && frame.state[j] != TrackingState::kInferred &&
            frame.state[j] != TrackingState::kTracked) {
          fuzz::fail("an invalid tracking state was handed out", std::to_string(j));
        }
      }
      // A frame is handed out when the message that completes it arrives, stamped with its time.
      if (frame.time != t || !(frame.time > last_time)) fuzz::fail("a frame with another time", std::to_string(frame.time));
      last_time = frame.time;
    }
  });
  if (assembler.counters().messages != decoded) fuzz::fail("messages counted differ from messages decoded", "");
  return 0;
}
