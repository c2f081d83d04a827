// A downstream program using retarget::noitom (asio comes with the target, found by the
// installed retargetFindAsio.cmake): binds a hierarchy, decodes one text frame, opens a UDP port.
#include <cstdio>
#include <string>

#include <retarget/adapters/noitom/bvh_broadcast_encoder.hpp>
#include <retarget/adapters/noitom/noitom_source.hpp>
#include <retarget/io/bvh.hpp>

int main() {
  const retarget::BvhMotion hierarchy = retarget::parseBvh(
      "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation\n"
      " JOINT Spine\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Yrotation Xrotation Zrotation\n"
      "  End Site\n  {\n   OFFSET 0 5 0\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.01\n1 2 3 4 5 6 7 8 9\n");
  retarget::NoitomBroadcastDecoder decoder(hierarchy);
  const std::string text = retarget::noitomTextFrame(retarget::noitomWireValues(hierarchy, hierarchy.frameValues(0), {false, false}));
  retarget::NoitomFrame frame;
  const bool decoded = decoder.decodeDatagram(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, frame);
  retarget::NoitomUdpSourceOptions options;
  options.port = "0";
  retarget::NoitomUdpSource source(hierarchy, options);
  std::printf("retarget::noitom: decoded %s, listening on UDP port %d\n", decoded ? "yes" : "no", source.port());
  return decoded && frame.channels == hierarchy.frameValues(0) && !source.read(frame, 10) ? 0 : 1;
}
