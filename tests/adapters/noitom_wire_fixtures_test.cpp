// NoitomBroadcastDecoder against frames written here by hand from Noitom's published header
// layouts and text format, never by the project's encoder (bvh_broadcast_encoder.hpp), so the
// decoder is not only checked against the project's own reading of the format:
//  - the older PNLib `BvhOutputBinaryHeader` (uint32 DataCount, int32 WithDisp / WithReference,
//    AvatarIndex at 18, no FrameIndex) in every layout, by datagram and in a TCP stream;
//  - NeuronDataReader's `BvhDataHeader` (uint16 DataCount, uint8 flags, FrameIndex at 46) beside
//    it, and the DataVersion deciding where the two read alike;
//  - text frames whose avatar name holds spaces;
//  - text frames split over UDP datagrams, joined up to their `||`, with lost parts, parts that
//    never end and datagrams holding two frames.
// Layout sources (field names and offsets as in the comments below): NeuronDataReader DataType.h,
// hanasaan/ofxPerceptionNeuron libs/NeuronDataReader/include/DataType.h at f43a77b0 (struct
// _BvhDataHeader, #pragma pack 1); PNLib DataType.h (struct _BvhOutputBinaryHeader, PNBOOL = int,
// #pragma pack 1), as summarised in ../shared/data/docs/axis_neuron_bvh_broadcast_format.md and
// docs/adapters.md. Values: the shared Axis Neuron recording (59 joints), float32 little-endian.

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <retarget/adapters/noitom/bvh_broadcast.hpp>
#include <retarget/io/bvh.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// Little-endian writers: the byte order of the Windows hosts Axis Neuron runs on.
void put16(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  b[at] = static_cast<std::uint8_t>(v & 0xFFu);
  b[at + 1] = static_cast<std::uint8_t>((v >> 8) & 0xFFu);
}
void put32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFu);
}
void putFloats(std::vector<std::uint8_t>& b, const std::vector<float>& values) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &values[i], sizeof bits);  // IEEE 754 binary32
    put32(b, 64 + 4 * i, bits);
  }
}

struct Version {
  std::uint8_t major, minor, revision, build;
};
constexpr Version kPnLibVersion{1, 0, 0, 2};  // "e.g.: 1.0.0.2" in PNLib's DataType.h
constexpr Version kNdrVersion{1, 1, 0, 0};    // "1.1.0.0" (NeuronDataReader, third-party readers)

// PNLib `BvhOutputBinaryHeader`, 64 bytes, then DataCount float32.
std::vector<std::uint8_t> pnlibFrame(const std::vector<float>& values, bool with_disp, bool with_reference,
                                     std::uint32_t avatar, const std::string& name, Version version = kPnLibVersion) {
  std::vector<std::uint8_t> b(64 + 4 * values.size(), 0);
  put16(b, 0, 0xDDFF);                                     // @0  uint16 BvhHeaderToken1 = 0xDDFF
  b[2] = version.build;                                    // @2  DATA_VER DataVersion: BuildNumb
  b[3] = version.revision;                                 // @3                        Revision
  b[4] = version.minor;                                    // @4                        Minor
  b[5] = version.major;                                    // @5                        Major
  put32(b, 6, static_cast<std::uint32_t>(values.size()));  // @6  uint32 DataCount
  put32(b, 10, with_disp ? 1 : 0);                         // @10 PNBOOL (int) WithDisp
  put32(b, 14, with_reference ? 1 : 0);                    // @14 PNBOOL (int) WithReference
  put32(b, 18, avatar);                                    // @18 uint32 AvatarIndex
  std::memcpy(b.data() + 22, name.data(), std::min<std::size_t>(name.size(), 31));  // @22 UCHAR AvatarName[32]
  put32(b, 54, 0);                                         // @54 uint32 Reserved1
  put32(b, 58, 0);                                         // @58 uint32 Reserved2
  put16(b, 62, 0xEEFF);                                    // @62 uint16 BvhHeaderToken2 = 0xEEFF
  putFloats(b, values);                                    // @64 DataCount x float32
  return b;
}

// NeuronDataReader `BvhDataHeader`, 64 bytes, then DataCount float32.
std::vector<std::uint8_t> ndrFrame(const std::vector<float>& values, bool with_disp, bool with_reference,
                                   std::uint32_t avatar, std::uint32_t frame_index, const std::string& name,
                                   Version version = kNdrVersion) {
  std::vector<std::uint8_t> b(64 + 4 * values.size(), 0);
  put16(b, 0, 0xDDFF);                                     // @0  uint16 Token1 = 0xDDFF
  b[2] = version.build;                                    // @2  DATA_VER DataVersion: BuildNumb
  b[3] = version.revision;                                 // @3                        Revision
  b[4] = version.minor;                                    // @4                        Minor
  b[5] = version.major;                                    // @5                        Major
  put16(b, 6, static_cast<std::uint32_t>(values.size()));  // @6  uint16 DataCount
  b[8] = with_disp ? 1 : 0;                                // @8  uint8 WithDisp
  b[9] = with_reference ? 1 : 0;                           // @9  uint8 WithReference
  put32(b, 10, avatar);                                    // @10 uint32 AvatarIndex
  std::memcpy(b.data() + 14, name.data(), std::min<std::size_t>(name.size(), 31));  // @14 uint8 AvatarName[32]
  put32(b, 46, frame_index);                               // @46 uint32 FrameIndex
  put32(b, 50, 0);                                         // @50 uint32 Reserved
  put32(b, 54, 0);                                         // @54 uint32 Reserved1
  put32(b, 58, 0);                                         // @58 uint32 Reserved2
  put16(b, 62, 0xEEFF);                                    // @62 uint16 Token2 = 0xEEFF
  putFloats(b, values);                                    // @64 DataCount x float32
  return b;
}

// A four-joint chain (the fuzz target's): Hips and Spine with 6 channels, Neck and Head with 3
// (Head in Z X Y order). Value counts: 24 (displacement), 15 (none), 30 and 21 (with reference).
BvhMotion fourJointChain() {
  return parseBvh(
      "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation\n"
      " JOINT Spine\n {\n  OFFSET 0 10 0\n  CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation\n"
      "  JOINT Neck\n  {\n   OFFSET 0 20 0\n   CHANNELS 3 Yrotation Xrotation Zrotation\n"
      "   JOINT Head\n   {\n    OFFSET 0 8 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n"
      "    End Site\n    {\n     OFFSET 0 5 0\n    }\n   }\n  }\n }\n}\nMOTION\nFrames: 0\nFrame Time: 0.01\n");
}

// Distinct float values 1.5, 2.5, ... (exact in float32).
std::vector<float> ramp(int count) {
  std::vector<float> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) values[static_cast<std::size_t>(i)] = 1.5f + static_cast<float>(i);
  return values;
}

// The wire values of frame `f` of the shared Axis Neuron recording (root with 6 channels, every
// other joint 3 rotations), laid out by the format notes' index formulas: without displacement
// the root's translation then 3 rotations per joint (the BVH MOTION line itself); with
// displacement 6 per joint, translation (the root's channels, else the joint's OFFSET) then the
// 3 rotations. As float32, the binary encoding.
std::vector<float> wireFloats(const BvhMotion& bvh, int f, bool with_disp) {
  const Eigen::VectorXd channels = bvh.frameValues(f);
  std::vector<float> values;
  for (const BvhJoint& joint : bvh.joints) {
    if (joint.is_end_site) continue;
    const int c = joint.first_channel;
    const bool root = joint.channels.size() == 6;
    if (with_disp || root) {
      for (int a = 0; a < 3; ++a) values.push_back(static_cast<float>(root ? channels[c + a] : joint.offset[a]));
    }
    for (int r = 0; r < 3; ++r) values.push_back(static_cast<float>(channels[c + (root ? 3 : 0) + r]));
  }
  return values;
}

Eigen::VectorXd toFloat32(const Eigen::VectorXd& values) { return values.cast<float>().cast<double>(); }

// One text frame as Axis Neuron writes it: `<id> <name> v0 ... vN-1 ||` and a newline, each
// value with six decimals here; `expected` gets the doubles those decimals stand for.
std::string textFrame(const std::string& id, const std::string& name, const Eigen::VectorXd& values,
                      Eigen::VectorXd& expected) {
  std::string text = id + " " + name;
  expected.resize(values.size());
  char token[64];
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    std::snprintf(token, sizeof token, "%.6f", values[i]);
    text += ' ';
    text += token;
    expected[i] = std::strtod(token, nullptr);
  }
  return text + " ||\n";
}

const std::uint8_t* charBytes(const std::string& s) { return reinterpret_cast<const std::uint8_t*>(s.data()); }

}  // namespace

TEST_CASE("Noitom wire: PNLib BvhOutputBinaryHeader frames (uint32 DataCount, int32 flags) decode in every layout") {
  const BvhMotion bvh = fourJointChain();
  NoitomBroadcastDecoder decoder(bvh);
  NoitomBroadcastDecoder reference(bvh);  // the same values under a NeuronDataReader header
  double t = 0;
  for (const bool with_disp : {false, true}) {
    for (const bool with_reference : {false, true}) {
      CAPTURE(with_disp);
      CAPTURE(with_reference);
      const int count = NoitomLayout{with_disp, with_reference}.valueCount(4);
      const std::vector<float> values = ramp(count);
      const std::vector<std::uint8_t> old_header = pnlibFrame(values, with_disp, with_reference, 7, "Avatar 01");
      t += 0.01;
      NoitomFrame frame;
      REQUIRE(decoder.decodeDatagram(old_header.data(), old_header.size(), t, frame));
      CHECK(frame.avatar == 7);        // AvatarIndex @18, not the WithDisp int32 @10
      CHECK(frame.frame_index == 0);   // the header has no FrameIndex: no index
      CHECK(frame.layout.with_displacement == with_disp);
      CHECK(frame.layout.with_reference == with_reference);
      CHECK(frame.header == NoitomHeader::kBvhOutputBinaryHeader);  // new-api
      CHECK(frame.data_version == 0x01000002u);                     // new-api: 1.0.0.2, major in the high byte
      const std::vector<std::uint8_t> new_header = ndrFrame(values, with_disp, with_reference, 7, 100 + static_cast<std::uint32_t>(t * 100), "Avatar 01");
      NoitomFrame expected;
      REQUIRE(reference.decodeDatagram(new_header.data(), new_header.size(), t, expected));
      CHECK(frame.channels == expected.channels);
      // Two layouts worked out by hand from the value order (offsets of the float array):
      if (!with_disp && !with_reference) {
        // Hips translation v0-v2 and rotations v3-v5; Spine: its OFFSET (0, 10, 0) and v6-v8;
        // Neck v9-v11; Head v12-v14.
        Eigen::VectorXd by_hand(18);
        by_hand << 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 0, 10, 0, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5;
        CHECK(frame.channels == by_hand);
      }
      if (with_disp && with_reference) {
        // v0-v5 the reference node; then 6 per joint: Hips v6-v11, Spine v12-v17, Neck's
        // rotations v21-v23 (its translation v18-v20 has no channel), Head's v27-v29.
        Eigen::VectorXd by_hand(18);
        by_hand << 7.5, 8.5, 9.5, 10.5, 11.5, 12.5, 13.5, 14.5, 15.5, 16.5, 17.5, 18.5, 22.5, 23.5, 24.5, 28.5, 29.5, 30.5;
        CHECK(frame.channels == by_hand);
      }
    }
  }
  CHECK(decoder.counters().frames == 4);
  CHECK(decoder.counters().droppedTotal() == 0);
}

TEST_CASE("Noitom wire: the DataVersion picks the header layout where both read alike; flags that fit neither are a bad header") {
  const BvhMotion bvh = fourJointChain();
  const std::vector<float> plain = ramp(15);    // without displacement or reference
  const std::vector<float> moving = ramp(24);   // with displacement
  // A 31-character name reaches offset 22 + 30 = 52: in a PNLib header it covers 46-49, where a
  // NeuronDataReader header keeps its FrameIndex.
  const std::string long_name = "Perception Neuron Avatar Nr 0001";
  SUBCASE("PNLib without displacement or reference: the version 1.0 says PNLib") {
    NoitomBroadcastDecoder decoder(bvh);
    NoitomFrame frame;
    const std::vector<std::uint8_t> b = pnlibFrame(plain, false, false, 3, long_name);
    REQUIRE(decoder.decodeDatagram(b.data(), b.size(), 0.1, frame));
    CHECK(frame.avatar == 3);
    CHECK(frame.frame_index == 0);
    CHECK(frame.header == NoitomHeader::kBvhOutputBinaryHeader);  // new-api
    // Read as a NeuronDataReader header (version 1.1), the same bytes give avatar 0 (the int32
    // WithDisp) and a frame index made of name characters.
    NoitomBroadcastDecoder other(bvh);
    const std::vector<std::uint8_t> b11 = pnlibFrame(plain, false, false, 3, long_name, kNdrVersion);
    REQUIRE(other.decodeDatagram(b11.data(), b11.size(), 0.1, frame));
    CHECK(frame.header == NoitomHeader::kBvhDataHeader);  // new-api
    CHECK(frame.avatar == 0);
    CHECK(frame.frame_index != 0);
  }
  SUBCASE("a header whose flags contradict its version's layout but fit the other is read as the other") {
    NoitomBroadcastDecoder decoder(bvh);
    NoitomFrame frame;
    // PNLib layout, unknown version 0.0.0.0 (read as NeuronDataReader first): bytes 8-9 are 0
    // (DataCount's high half) where the count says displacement, so it is PNLib.
    const std::vector<std::uint8_t> a = pnlibFrame(moving, true, false, 5, "A", Version{0, 0, 0, 0});
    REQUIRE(decoder.decodeDatagram(a.data(), a.size(), 0.1, frame));
    CHECK(frame.avatar == 5);
    CHECK(frame.header == NoitomHeader::kBvhOutputBinaryHeader);  // new-api
    // NeuronDataReader layout stamped 1.0.0.2: its WithDisp byte at 8 cannot be a PNLib
    // DataCount's high half, so it is NeuronDataReader.
    const std::vector<std::uint8_t> b = ndrFrame(moving, true, false, 5, 77, "A", kPnLibVersion);
    REQUIRE(decoder.decodeDatagram(b.data(), b.size(), 0.2, frame));
    CHECK(frame.avatar == 5);
    CHECK(frame.frame_index == 77);
    CHECK(frame.header == NoitomHeader::kBvhDataHeader);  // new-api
    CHECK(decoder.counters().droppedTotal() == 0);
  }
  SUBCASE("flags that agree with neither layout") {
    NoitomBroadcastDecoder decoder(bvh);
    NoitomFrame frame;
    // NeuronDataReader saying displacement for 15 values (a count without displacement).
    const std::vector<std::uint8_t> a = ndrFrame(plain, true, false, 0, 1, "A");
    CHECK_FALSE(decoder.decodeDatagram(a.data(), a.size(), 0.1, frame));
    // PNLib saying neither displacement nor reference for 24 values (a count with displacement).
    const std::vector<std::uint8_t> b = pnlibFrame(moving, false, false, 0, "A");
    CHECK_FALSE(decoder.decodeDatagram(b.data(), b.size(), 0.2, frame));
    CHECK(decoder.counters().droppedFor(NoitomDrop::kBadHeader) == 2);
    CHECK(decoder.counters().frames == 0);
  }
}

TEST_CASE("Noitom wire: a TCP stream of PNLib frames from the shared recording, cut anywhere, gives every frame") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  for (const bool with_disp : {true, false}) {
    CAPTURE(with_disp);
    std::vector<std::uint8_t> stream;
    for (int f = 0; f < 200; ++f) {
      const std::vector<std::uint8_t> b = pnlibFrame(wireFloats(neuron, f, with_disp), with_disp, false, 0, "Avatar00");
      REQUIRE(b.size() == (with_disp ? 64u + 354u * 4u : 64u + 180u * 4u));
      stream.insert(stream.end(), b.begin(), b.end());
    }
    NoitomBroadcastDecoder decoder(neuron);
    NoitomFrame frame;
    std::mt19937 rng(52);
    std::uniform_int_distribution<std::size_t> chunk(1, 2000);
    int received = 0;
    for (std::size_t at = 0; at < stream.size();) {
      const std::size_t n = std::min(chunk(rng), stream.size() - at);
      decoder.feed(stream.data() + at, n);
      at += n;
      while (decoder.next(0, frame)) {
        REQUIRE(received < 200);
        CHECK(frame.channels == toFloat32(neuron.frameValues(received)));
        ++received;
      }
    }
    CHECK(received == 200);
    CHECK(decoder.counters().droppedTotal() == 0);
  }
}

TEST_CASE("Noitom wire: text frames whose avatar name holds spaces decode, by TCP stream and by datagram") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  // Names: one token, two, a last token that is a number, tabs and double spaces, 31 characters.
  const std::string names[] = {"Avatar00", "My Avatar", "Take 2", "Perception\tNeuron  Pro 3", "Perception Neuron Avatar Nr 0001"};
  for (const std::string& name : names) {
    CAPTURE(name);
    std::string stream;
    std::vector<Eigen::VectorXd> expected;
    for (int f = 0; f < 40; ++f) {
      Eigen::VectorXd parsed;
      // Without displacement the wire values are the recording's MOTION line (180 values).
      stream += textFrame(std::to_string(f % 2 == 0 ? 0 : 0), name, neuron.frameValues(f), parsed);
      expected.push_back(parsed);
    }
    NoitomBroadcastDecoder by_stream(neuron);
    NoitomFrame frame;
    std::size_t received = 0;
    for (std::size_t at = 0; at < stream.size(); at += 777) {
      by_stream.feed(charBytes(stream) + at, std::min<std::size_t>(777, stream.size() - at));
      while (by_stream.next(0, frame)) {
        REQUIRE(received < expected.size());
        CHECK(frame.channels == expected[received]);
        CHECK(frame.header == NoitomHeader::kText);  // new-api
        ++received;
      }
    }
    CHECK(received == expected.size());
    CHECK(by_stream.counters().droppedTotal() == 0);
    // One datagram per frame.
    NoitomBroadcastDecoder by_datagram(neuron);
    Eigen::VectorXd parsed;
    const std::string one = textFrame("0", name, neuron.frameValues(5), parsed);
    REQUIRE(by_datagram.decodeDatagram(charBytes(one), one.size(), 0.5, frame));
    CHECK(frame.channels == parsed);
  }
  // A frame of another skeleton is still wrong-count, a name longer than kNoitomMaxNameLength
  // still malformed.
  NoitomBroadcastDecoder decoder(neuron);
  NoitomFrame frame;
  Eigen::VectorXd parsed;
  const std::string shorter = textFrame("0", "My Avatar", neuron.frameValues(0).head(177), parsed);
  CHECK_FALSE(decoder.decodeDatagram(charBytes(shorter), shorter.size(), 0, frame));
  CHECK(decoder.counters().droppedFor(NoitomDrop::kWrongCount) == 1);
  const std::string long_name = textFrame("0", std::string(40, 'a') + " " + std::string(40, 'b'), neuron.frameValues(0), parsed);
  CHECK_FALSE(decoder.decodeDatagram(charBytes(long_name), long_name.size(), 0, frame));
  CHECK(decoder.counters().droppedFor(NoitomDrop::kMalformed) == 1);
}

TEST_CASE("Noitom wire: text frames split over UDP datagrams are joined up to their ||; lost and unended parts are counted") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  std::vector<std::string> frames;
  std::vector<Eigen::VectorXd> expected;
  for (int f = 0; f < 300; ++f) {
    Eigen::VectorXd parsed;
    frames.push_back(textFrame("0", "My Avatar", neuron.frameValues(f), parsed));
    expected.push_back(parsed);
  }
  NoitomBroadcastDecoder decoder(neuron);
  NoitomFrame frame;
  std::mt19937 rng(520);
  std::uniform_int_distribution<int> kind(0, 9);
  std::uint64_t emitted = 0, lost = 0, truncated = 0;
  double t = 0;
  for (int f = 0; f < 300; ++f) {
    t += 0.01;
    const std::string& text = frames[static_cast<std::size_t>(f)];
    const std::size_t bars = text.find("||");
    const int k = kind(rng);
    std::vector<std::size_t> cuts;  // where the frame is cut into datagrams
    if (k <= 3) {
      cuts = {std::uniform_int_distribution<std::size_t>(1, text.size() - 1)(rng)};
    } else if (k <= 5) {
      std::uniform_int_distribution<std::size_t> at(1, text.size() - 1);
      cuts = {at(rng), at(rng), at(rng)};
      std::sort(cuts.begin(), cuts.end());
      cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    } else if (k == 6) {
      cuts = {bars + 1};  // between the two '|'
    }
    if (k == 7) {  // the middle of three parts is lost: this frame is dropped, the next one comes through
      const std::size_t a = text.size() / 3, b = 2 * text.size() / 3;
      CHECK_FALSE(decoder.decodeDatagram(charBytes(text), a, t, frame));
      CHECK_FALSE(decoder.decodeDatagram(charBytes(text) + b, text.size() - b, t + 0.001, frame));
      ++lost;
      continue;
    }
    if (k == 8 && f < 299) {  // the rest never comes: dropped when it has waited reassembly_timeout
      CHECK_FALSE(decoder.decodeDatagram(charBytes(text), text.size() / 2, t, frame));
      decoder.expirePending(t + 0.05);
      CHECK(decoder.counters().droppedFor(NoitomDrop::kTruncated) == truncated);
      decoder.expirePending(t + 0.2);
      ++truncated;
      t += 0.2;
      continue;
    }
    std::size_t from = 0;
    for (const std::size_t cut : cuts) {
      CHECK_FALSE(decoder.decodeDatagram(charBytes(text) + from, cut - from, t, frame));
      from = cut;
    }
    REQUIRE(decoder.decodeDatagram(charBytes(text) + from, text.size() - from, t + 0.002, frame));
    CHECK(frame.time == t + 0.002);
    CHECK(frame.channels == expected[static_cast<std::size_t>(f)]);
    ++emitted;
  }
  CHECK(decoder.counters().frames == emitted);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kTruncated) == truncated);
  // A lost middle part joins the first and last parts into one frame of the wrong size.
  CHECK(decoder.counters().droppedFor(NoitomDrop::kWrongCount) + decoder.counters().droppedFor(NoitomDrop::kMalformed) == lost);
  CHECK(decoder.counters().droppedTotal() == lost + truncated);
  CHECK(lost > 10);
  CHECK(truncated > 10);
  CHECK(emitted > 200);

  SUBCASE("a text part followed by a binary frame is dropped; the binary frame decodes") {
    const std::string& text = frames[0];
    CHECK_FALSE(decoder.decodeDatagram(charBytes(text), 100, 10.0, frame));
    const std::vector<std::uint8_t> b = ndrFrame(wireFloats(neuron, 1, false), false, false, 0, 0, "Avatar00");
    REQUIRE(decoder.decodeDatagram(b.data(), b.size(), 10.01, frame));
    CHECK(frame.channels == toFloat32(neuron.frameValues(1)));
    CHECK(decoder.counters().droppedFor(NoitomDrop::kTruncated) == truncated + 1);
  }
  SUBCASE("a datagram holding two frames and the start of a third: the first now, the second from next()") {
    const std::string two = frames[0] + frames[1] + frames[2].substr(0, 50);
    REQUIRE(decoder.decodeDatagram(charBytes(two), two.size(), 10.0, frame));
    CHECK(frame.channels == expected[0]);
    REQUIRE(decoder.next(10.0, frame));
    CHECK(frame.channels == expected[1]);
    CHECK_FALSE(decoder.next(10.0, frame));
    REQUIRE(decoder.decodeDatagram(charBytes(frames[2]) + 50, frames[2].size() - 50, 10.01, frame));
    CHECK(frame.channels == expected[2]);
  }
  SUBCASE("text that never ends is bounded: dropped as oversized, and the stream resynchronises") {
    const std::string digits = " 1.000000 2.000000 3.000000 4.000000 5.000000 6.000000 7.000000 8.000000";
    const std::uint64_t oversized = decoder.counters().droppedFor(NoitomDrop::kOversized);
    // 500 x 72 bytes within the reassembly timeout: more than the buffer holds (its size is set
    // by max_values: 64 + 24 x 1024 + 256 bytes).
    double t_junk = 20.0;
    const std::string start = "0 Avatar00";  // a frame's first part: the rest is joined to it
    CHECK_FALSE(decoder.decodeDatagram(charBytes(start), start.size(), t_junk, frame));
    for (int i = 0; i < 500; ++i) {
      t_junk += 0.00001;
      CHECK_FALSE(decoder.decodeDatagram(charBytes(digits), digits.size(), t_junk, frame));
    }
    CHECK(decoder.counters().droppedFor(NoitomDrop::kOversized) > oversized);
    // The junk that follows the overflow is skipped to the next ||; a whole frame after it decodes.
    const std::string end = " ||\n";
    decoder.decodeDatagram(charBytes(end), end.size(), t_junk + 0.001, frame);
    REQUIRE(decoder.decodeDatagram(charBytes(frames[3]), frames[3].size(), t_junk + 0.002, frame));
    CHECK(frame.channels == expected[3]);
  }
}

TEST_CASE("Noitom wire: PNLib frames and text frames split over datagrams decode without allocating") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  std::vector<std::vector<std::uint8_t>> binary;
  std::vector<std::string> text;
  for (int f = 0; f < 50; ++f) {
    binary.push_back(pnlibFrame(wireFloats(neuron, f, true), true, false, 0, "Avatar00"));
    Eigen::VectorXd parsed;
    text.push_back(textFrame("0", "My Avatar", neuron.frameValues(f), parsed));
  }
  NoitomBroadcastDecoder decoder(neuron);
  NoitomFrame frame;
  frame.channels.resize(neuron.channel_count);
  std::size_t frames = 0;
  test::NoAllocationScope scope;
  for (std::size_t f = 0; f < 50; ++f) {
    frames += decoder.decodeDatagram(binary[f].data(), binary[f].size(), 0.01 * static_cast<double>(f), frame) ? 1 : 0;
    const std::size_t half = text[f].size() / 2;
    frames += decoder.decodeDatagram(charBytes(text[f]), half, 0.01 * static_cast<double>(f), frame) ? 1 : 0;
    frames += decoder.decodeDatagram(charBytes(text[f]) + half, text[f].size() - half, 0.01 * static_cast<double>(f), frame) ? 1 : 0;
  }
  CHECK(scope.allocations() == 0);
  CHECK(frames == 100);
}
