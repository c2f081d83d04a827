// NoitomBroadcastDecoder (no sockets): the shared Axis Neuron and Axis Studio hierarchies bound
// in every layout, text and binary frames decoded bit-exact (text: the BVH reader's double;
// binary: the float32 sent), byte streams cut anywhere, and every fault of a stream or a
// datagram dropped and counted with its reason while the frames around it come through intact.

#include <doctest/doctest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <retarget/adapters/noitom/bvh_broadcast.hpp>
#include <retarget/adapters/noitom/bvh_broadcast_encoder.hpp>
#include <retarget/io/bvh.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

const NoitomLayout kLayouts[] = {{true, false}, {false, false}, {true, true}, {false, true}};

std::vector<std::uint8_t> bytesOf(const std::string& text) { return {text.begin(), text.end()}; }

// The channels a layout carries for `hierarchy`: every rotation; positions where the layout
// sends a translation for the joint, else the joint's OFFSET.
Eigen::VectorXd expectedChannels(const BvhMotion& hierarchy, const Eigen::VectorXd& channels, const NoitomLayout& layout,
                                 bool as_float) {
  Eigen::VectorXd expected = channels;
  bool root = true;
  for (const BvhJoint& joint : hierarchy.joints) {
    if (joint.is_end_site) continue;
    for (std::size_t c = 0; c < joint.channels.size(); ++c) {
      const int i = joint.first_channel + static_cast<int>(c);
      const BvhChannel ch = joint.channels[c];
      const bool position = ch == BvhChannel::kXposition || ch == BvhChannel::kYposition || ch == BvhChannel::kZposition;
      if (position && !layout.with_displacement && !root) expected[i] = joint.offset[bvhChannelAxis(ch)];
      if (as_float) expected[i] = static_cast<double>(static_cast<float>(expected[i]));
    }
    root = false;
  }
  return expected;
}

// Random channel values for a hierarchy without frames (rotations within +-180 deg, positions
// within +-100 cm).
Eigen::VectorXd randomChannels(const BvhMotion& hierarchy, std::mt19937& rng) {
  std::uniform_real_distribution<double> angle(-180.0, 180.0), position(-100.0, 100.0);
  Eigen::VectorXd channels(hierarchy.channel_count);
  for (const BvhJoint& joint : hierarchy.joints) {
    for (std::size_t c = 0; c < joint.channels.size(); ++c) {
      const BvhChannel ch = joint.channels[c];
      const bool position_channel = ch == BvhChannel::kXposition || ch == BvhChannel::kYposition || ch == BvhChannel::kZposition;
      channels[joint.first_channel + static_cast<int>(c)] = position_channel ? position(rng) : angle(rng);
    }
  }
  return channels;
}

}  // namespace

TEST_CASE("Noitom broadcast: the shared hierarchies bind with the documented value counts") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const BvhMotion studio = readBvh(data_dir / "bvh" / "noitom_pns_studio_template_6ch_all_joints_0frames.bvh");
  for (const BvhMotion* hierarchy : {&neuron, &studio}) {
    const NoitomBvhBinding binding(*hierarchy);
    CHECK(binding.jointCount() == 59);
    // 354, 180, 360, 186 (format notes, section 2).
    const int expected[] = {354, 180, 360, 186};
    for (int i = 0; i < 4; ++i) {
      CHECK(kLayouts[i].valueCount(59) == expected[i]);
      NoitomLayout layout;
      REQUIRE(binding.layoutFor(expected[i], layout));
      CHECK(layout.with_displacement == kLayouts[i].with_displacement);
      CHECK(layout.with_reference == kLayouts[i].with_reference);
    }
    NoitomLayout unused;
    for (const int count : {0, 177, 179, 181, 353, 355, 359, 361}) CHECK_FALSE(binding.layoutFor(count, unused));
  }
  // A hierarchy whose joint lacks a rotation channel cannot be bound, and says which joint.
  BvhMotion broken = neuron;
  broken.joints[1].channels.pop_back();
  broken.assignChannelIndices();
  broken.frame_count = 0;
  broken.values.clear();
  CHECK_THROWS_WITH_AS(NoitomBvhBinding{broken}, doctest::Contains("RightUpLeg"), InvalidArgument);
}

TEST_CASE("Noitom broadcast: recorded frames in every layout decode bit-exact, text and binary") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  NoitomBroadcastDecoder decoder(neuron);
  NoitomFrame frame;
  int checked = 0;
  for (int f = 0; f < neuron.frame_count; f += 7) {
    const Eigen::VectorXd channels = neuron.frameValues(f);
    for (const NoitomLayout& layout : kLayouts) {
      const std::vector<double> values = noitomWireValues(neuron, channels, layout, {1, 2, 3, 4, 5, 6});
      const std::string text = noitomTextFrame(values);
      REQUIRE(decoder.decodeDatagram(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0.5, frame));
      // This rig moves only its root's position, so every layout carries every channel.
      CHECK(frame.channels == channels);
      CHECK(frame.layout.with_displacement == layout.with_displacement);
      CHECK(frame.frame_index == -1);
      const std::vector<std::uint8_t> binary = noitomBinaryFrame(values, layout, 0, static_cast<std::uint32_t>(f * 4 + checked % 4));
      REQUIRE(decoder.decodeDatagram(binary.data(), binary.size(), 0.5, frame));
      CHECK(frame.channels == expectedChannels(neuron, channels, layout, true));
      ++checked;
    }
  }
  CHECK(decoder.counters().frames == static_cast<std::uint64_t>(2 * checked));
  CHECK(decoder.counters().droppedTotal() == 0);
}

TEST_CASE("Noitom broadcast: a stray text datagram is dropped alone, not joined to the next frame") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  NoitomBroadcastDecoder decoder(neuron);
  NoitomFrame frame;
  const std::string text = noitomTextFrame(noitomWireValues(neuron, neuron.frameValues(3), {true, false}), 0, "Avatar 1");
  const std::string first_part = text.substr(0, text.size() / 2), second_part = text.substr(text.size() / 2);
  // Junk without `||` that does not start with an avatar id: dropped now, the frame after it whole.
  const std::vector<std::uint8_t> junk = bytesOf("not a frame");
  CHECK_FALSE(decoder.decodeDatagram(junk.data(), junk.size(), 0.0, frame));
  CHECK(decoder.counters().droppedFor(NoitomDrop::kMalformed) == 1);
  const std::vector<std::uint8_t> whole = bytesOf(text);
  REQUIRE(decoder.decodeDatagram(whole.data(), whole.size(), 0.01, frame));
  CHECK(frame.channels == neuron.frameValues(3));
  // A first part (it starts with the id) is still held for the rest.
  const std::vector<std::uint8_t> a = bytesOf(first_part), b = bytesOf(second_part);
  CHECK_FALSE(decoder.decodeDatagram(a.data(), a.size(), 0.02, frame));
  REQUIRE(decoder.decodeDatagram(b.data(), b.size(), 0.021, frame));
  CHECK(frame.channels == neuron.frameValues(3));
  CHECK(decoder.counters().droppedTotal() == 1);
}

TEST_CASE("Noitom broadcast: six channels per joint take the sent translation or the OFFSET") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion studio = readBvh(data_dir / "bvh" / "noitom_pns_studio_template_6ch_all_joints_0frames.bvh");
  NoitomBroadcastDecoder decoder(studio);
  std::mt19937 rng(7);
  NoitomFrame frame;
  for (int trial = 0; trial < 50; ++trial) {
    const Eigen::VectorXd channels = randomChannels(studio, rng);
    for (const NoitomLayout& layout : kLayouts) {
      const std::vector<double> values = noitomWireValues(studio, channels, layout);
      const std::string text = noitomTextFrame(values);
      REQUIRE(decoder.decodeDatagram(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), 0, frame));
      CHECK(frame.channels == expectedChannels(studio, channels, layout, false));
    }
  }
}

TEST_CASE("Noitom broadcast: a binary header laid out by hand decodes (offsets of the format notes)") {
  // A three-joint chain, without displacement: root translation + 3 x 3 rotations = 12 values.
  const BvhMotion chain = parseBvh(
      "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation\n"
      " JOINT Spine\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Yrotation Xrotation Zrotation\n"
      "  JOINT Head\n  {\n   OFFSET 0 20 0\n   CHANNELS 3 Yrotation Xrotation Zrotation\n"
      "   End Site\n   {\n    OFFSET 0 5 0\n   }\n  }\n }\n}\nMOTION\nFrames: 0\nFrame Time: 0.01\n");
  std::vector<std::uint8_t> bytes(64 + 12 * 4, 0);
  bytes[0] = 0xFF;  // token 0xDDFF, little-endian
  bytes[1] = 0xDD;
  bytes[6] = 12;    // DataCount
  bytes[8] = 0;     // WithDisp
  bytes[9] = 0;     // WithReference
  bytes[10] = 3;    // AvatarIndex
  bytes[46] = 0x2A; // FrameIndex 42
  bytes[62] = 0xFF; // token 0xEEFF
  bytes[63] = 0xEE;
  const float values[12] = {1.5f, 90.25f, -3.0f, 10, 20, 30, -40, -50, -60, 0.125f, 0.5f, 1};
  std::memcpy(bytes.data() + 64, values, sizeof values);  // x86: little-endian already
  NoitomBroadcastDecoder decoder(chain);
  NoitomFrame frame;
  REQUIRE(decoder.decodeDatagram(bytes.data(), bytes.size(), 1.25, frame));
  CHECK(frame.avatar == 3);
  CHECK(frame.frame_index == 42);
  CHECK(frame.time == 1.25);
  Eigen::VectorXd expected(12);
  expected << 1.5, 90.25, -3.0, 10, 20, 30, -40, -50, -60, 0.125, 0.5, 1;
  CHECK(frame.channels == expected);
  // The same header saying "with displacement" for 12 values contradicts the count.
  bytes[8] = 1;
  CHECK_FALSE(decoder.decodeDatagram(bytes.data(), bytes.size(), 1.3, frame));
  CHECK(decoder.counters().droppedFor(NoitomDrop::kBadHeader) == 1);
}

TEST_CASE("Noitom broadcast: a byte stream cut anywhere gives every frame, text and binary") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  std::mt19937 rng(11);
  for (const bool binary : {false, true}) {
    CAPTURE(binary);
    const NoitomLayout layout{true, false};
    std::vector<std::uint8_t> stream;
    std::vector<int> sent;
    for (int f = 0; f < 300; ++f) {
      const std::vector<double> values = noitomWireValues(neuron, neuron.frameValues(f), layout);
      const std::vector<std::uint8_t> bytes =
          binary ? noitomBinaryFrame(values, layout, 0, static_cast<std::uint32_t>(f)) : bytesOf(noitomTextFrame(values));
      stream.insert(stream.end(), bytes.begin(), bytes.end());
      sent.push_back(f);
    }
    NoitomBroadcastDecoder decoder(neuron);
    NoitomFrame frame;
    std::size_t at = 0, received = 0;
    std::uniform_int_distribution<std::size_t> chunk(1, 3000);
    while (at < stream.size()) {
      const std::size_t n = std::min(chunk(rng), stream.size() - at);
      decoder.feed(stream.data() + at, n);
      at += n;
      while (decoder.next(0, frame)) {
        REQUIRE(received < sent.size());
        const Eigen::VectorXd channels = neuron.frameValues(sent[received]);
        CHECK(frame.channels == expectedChannels(neuron, channels, layout, binary));
        ++received;
      }
    }
    CHECK(received == sent.size());
    CHECK(decoder.counters().droppedTotal() == 0);
  }
}

TEST_CASE("Noitom broadcast: stream faults are dropped with their reason, the frames around them intact") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const NoitomLayout layout{false, false};
  std::mt19937 rng(5);
  for (const bool binary : {false, true}) {
    CAPTURE(binary);
    // Per frame, at random: intact, preceded by garbage, with a value missing (wrong count),
    // with a NaN, or from another avatar.
    std::vector<std::uint8_t> stream;
    std::vector<int> intact;
    std::array<std::uint64_t, static_cast<std::size_t>(NoitomDrop::kCount)> injected{};
    std::uniform_int_distribution<int> fault(0, 9);
    for (int f = 0; f < 400; ++f) {
      std::vector<double> values = noitomWireValues(neuron, neuron.frameValues(f), layout);
      std::uint32_t avatar = 0;
      const int kind = f == 0 ? 0 : fault(rng);
      if (kind == 1 && binary) {  // garbage bytes without a start token (binary stream)
        for (int i = 0; i < 37; ++i) stream.push_back(static_cast<std::uint8_t>(0x20 + i));
        ++injected[static_cast<std::size_t>(NoitomDrop::kMalformed)];
      } else if (kind == 1) {  // a text line that is no frame
        const std::string junk = "garbage without numbers ||\n";
        stream.insert(stream.end(), junk.begin(), junk.end());
        ++injected[static_cast<std::size_t>(NoitomDrop::kMalformed)];
      } else if (kind == 2) {
        values.pop_back();
        ++injected[static_cast<std::size_t>(NoitomDrop::kWrongCount)];
      } else if (kind == 3) {
        values[10] = std::numeric_limits<double>::quiet_NaN();
        ++injected[static_cast<std::size_t>(NoitomDrop::kNonFinite)];
      } else if (kind == 4) {
        avatar = 1;
        ++injected[static_cast<std::size_t>(NoitomDrop::kOtherAvatar)];
      }
      const std::vector<std::uint8_t> bytes = binary ? noitomBinaryFrame(values, layout, avatar, static_cast<std::uint32_t>(f))
                                                     : bytesOf(noitomTextFrame(values, static_cast<int>(avatar)));
      stream.insert(stream.end(), bytes.begin(), bytes.end());
      if (kind == 0 || kind == 1 || kind > 4) intact.push_back(f);
    }
    // The connection ends in the middle of a frame.
    const std::vector<std::uint8_t> last = binary ? noitomBinaryFrame(noitomWireValues(neuron, neuron.frameValues(400), layout), layout, 0, 400)
                                                  : bytesOf(noitomTextFrame(noitomWireValues(neuron, neuron.frameValues(400), layout)));
    stream.insert(stream.end(), last.begin(), last.begin() + static_cast<std::ptrdiff_t>(last.size() / 2));
    ++injected[static_cast<std::size_t>(NoitomDrop::kTruncated)];

    NoitomBroadcastDecoder decoder(neuron);
    NoitomFrame frame;
    std::size_t received = 0;
    for (std::size_t at = 0; at < stream.size(); at += 1000) {
      decoder.feed(stream.data() + at, std::min<std::size_t>(1000, stream.size() - at));
      while (decoder.next(0, frame)) {
        REQUIRE(received < intact.size());
        CHECK(frame.channels.allFinite());
        CHECK(frame.channels == expectedChannels(neuron, neuron.frameValues(intact[received]), layout, binary));
        ++received;
      }
    }
    decoder.resetStream();
    CHECK(received == intact.size());
    for (std::size_t r = 0; r < injected.size(); ++r) {
      CAPTURE(noitomDropName(static_cast<NoitomDrop>(r)));
      CHECK(decoder.counters().dropped[r] == injected[r]);
    }
  }
}

TEST_CASE("Noitom broadcast: datagrams lost, repeated, reordered, truncated or of another skeleton") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const BvhMotion studio = readBvh(data_dir / "bvh" / "noitom_pns_studio_template_6ch_all_joints_0frames.bvh");
  const NoitomLayout layout{true, false};
  NoitomBroadcastDecoder decoder(neuron);
  NoitomFrame frame;
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> fault(0, 19);
  std::uint64_t stale = 0, truncated = 0, wrong = 0, emitted = 0;
  std::vector<std::uint8_t> previous;
  for (int f = 0; f < 600; ++f) {
    const std::vector<std::uint8_t> datagram =
        noitomBinaryFrame(noitomWireValues(neuron, neuron.frameValues(f), layout), layout, 0, static_cast<std::uint32_t>(f));
    const int kind = f == 0 ? 0 : fault(rng);
    if (kind == 1) continue;  // lost: nothing to count, the next frame is newer
    if (kind == 2) {          // truncated by the network
      CHECK_FALSE(decoder.decodeDatagram(datagram.data(), datagram.size() - 9, 0, frame));
      ++truncated;
      continue;
    }
    if (kind == 3) {  // a stream of a 58-joint skeleton: no layout of the bound hierarchy has its count
      const std::vector<double> values = noitomWireValues(studio, Eigen::VectorXd::Zero(studio.channel_count), {false, true});
      const std::vector<double> shorter(values.begin(), values.end() - 3);
      const std::vector<std::uint8_t> bad = noitomBinaryFrame(shorter, {false, true}, 0, static_cast<std::uint32_t>(f));
      CHECK_FALSE(decoder.decodeDatagram(bad.data(), bad.size(), 0, frame));
      ++wrong;
    }
    REQUIRE(decoder.decodeDatagram(datagram.data(), datagram.size(), f * 0.01, frame));
    ++emitted;
    CHECK(frame.frame_index == f);
    CHECK(frame.channels == expectedChannels(neuron, neuron.frameValues(f), layout, true));
    if (kind == 4 && !previous.empty()) {  // the previous datagram again, late: stale
      CHECK_FALSE(decoder.decodeDatagram(previous.data(), previous.size(), 0, frame));
      ++stale;
    }
    if (kind == 5) {  // this one repeated
      CHECK_FALSE(decoder.decodeDatagram(datagram.data(), datagram.size(), 0, frame));
      ++stale;
    }
    previous = datagram;
  }
  CHECK(decoder.counters().frames == emitted);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kStale) == stale);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kTruncated) == truncated);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kWrongCount) == wrong);
  CHECK(decoder.counters().droppedTotal() == stale + truncated + wrong);
  CHECK(stale > 10);
  // A sender that restarts its frame counter (much older index) is followed again.
  const std::vector<std::uint8_t> restart =
      noitomBinaryFrame(noitomWireValues(neuron, neuron.frameValues(0), layout), layout, 0, 0);
  CHECK(decoder.decodeDatagram(restart.data(), restart.size(), 9, frame));
}

TEST_CASE("Noitom broadcast: decoding allocates nothing once the frame has its size") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const NoitomLayout layout{true, false};
  std::vector<std::vector<std::uint8_t>> text, binary;
  for (int f = 0; f < 50; ++f) {
    const std::vector<double> values = noitomWireValues(neuron, neuron.frameValues(f), layout);
    text.push_back(bytesOf(noitomTextFrame(values)));
    binary.push_back(noitomBinaryFrame(values, layout, 0, static_cast<std::uint32_t>(f)));
  }
  NoitomBroadcastDecoder decoder(neuron);
  NoitomFrame frame;
  frame.channels.resize(neuron.channel_count);
  std::size_t frames = 0;
  test::NoAllocationScope scope;
  for (int f = 0; f < 50; ++f) {
    frames += decoder.decodeDatagram(binary[static_cast<std::size_t>(f)].data(), binary[static_cast<std::size_t>(f)].size(), 0, frame) ? 1 : 0;
    decoder.feed(text[static_cast<std::size_t>(f)].data(), text[static_cast<std::size_t>(f)].size());
    while (decoder.next(0, frame)) ++frames;
  }
  CHECK(scope.allocations() == 0);
  CHECK(frames == 100);
}

TEST_CASE("Noitom broadcast: a stream gives the same frames however it is cut (mixed frames and garbage)") {
  // Text and binary frames of a small hierarchy with runs of '|', 0xFF, 0xDD and random bytes
  // between them; decoded whole and in random chunks (1..64 bytes), the frames must agree.
  const BvhMotion chain = parseBvh(
      "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation\n"
      " JOINT Spine\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Yrotation Xrotation Zrotation\n"
      "  JOINT Neck\n  {\n   OFFSET 0 20 0\n   CHANNELS 3 Yrotation Xrotation Zrotation\n"
      "   JOINT Head\n   {\n    OFFSET 0 8 0\n    CHANNELS 3 Yrotation Xrotation Zrotation\n"
      "    End Site\n    {\n     OFFSET 0 5 0\n    }\n   }\n  }\n }\n}\nMOTION\nFrames: 0\nFrame Time: 0.01\n");
  std::mt19937 rng(23);
  auto decode = [&](const std::vector<std::uint8_t>& stream, std::size_t max_chunk) {
    NoitomBroadcastDecoder decoder(chain);
    NoitomFrame frame;
    std::vector<Eigen::VectorXd> frames;
    std::uniform_int_distribution<std::size_t> chunk(1, max_chunk);
    for (std::size_t at = 0; at < stream.size();) {
      const std::size_t n = std::min(chunk(rng), stream.size() - at);
      decoder.feed(stream.data() + at, n);
      at += n;
      while (decoder.next(0, frame)) frames.push_back(frame.channels);
    }
    return frames;
  };
  const std::uint8_t specials[] = {'|', '|', 0xFF, 0xDD, 0xEE, ' ', '\n', '7'};
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::uint8_t> stream;
    const bool binary = trial % 2 == 1;
    for (int f = 0; f < 8; ++f) {
      const std::vector<double> values =
          noitomWireValues(chain, Eigen::VectorXd::Constant(chain.channel_count, 1.5 * f - 3), {f % 2 == 0, f % 3 == 0});
      const std::vector<std::uint8_t> bytes =
          binary ? noitomBinaryFrame(values, {f % 2 == 0, f % 3 == 0}, 0, static_cast<std::uint32_t>(f)) : bytesOf(noitomTextFrame(values));
      stream.insert(stream.end(), bytes.begin(), bytes.end());
      const int garbage = std::uniform_int_distribution<int>(0, 6)(rng);
      for (int g = 0; g < garbage; ++g) {
        stream.push_back(std::uniform_int_distribution<int>(0, 2)(rng) == 0
                             ? static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng))
                             : specials[std::uniform_int_distribution<std::size_t>(0, 7)(rng)]);
      }
    }
    const std::vector<Eigen::VectorXd> whole = decode(stream, stream.size());
    for (const std::size_t max_chunk : {1, 3, 64}) {
      CAPTURE(trial);
      CAPTURE(max_chunk);
      CHECK(decode(stream, max_chunk) == whole);
    }
  }
}
