// Noitom broadcasts as real senders send them (issue: live adapters with real hardware), in the
// byte layout of Noitom's DataType.h header (format notes, section 4): a hierarchy exported
// "with reference" (a Reference root above Hips), a binary frame split over two or more UDP
// datagrams (Axis Neuron on macOS: 1024 + 456 bytes), frame indices that are absent (0),
// constant, or restart (a looped clip), and a dropped frame that must leave the caller's frame
// as it was.

#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <retarget/adapters/noitom/bvh_broadcast.hpp>
#include <retarget/adapters/noitom/bvh_broadcast_encoder.hpp>
#include <retarget/io/bvh.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

// The Axis Neuron hierarchy as exported "with reference": a root "Reference" node (6 channels)
// whose one child is the original root.
BvhMotion withReferenceRoot(const BvhMotion& body) {
  BvhMotion exported;
  BvhJoint reference;
  reference.name = "Reference";
  reference.channels = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition,
                        BvhChannel::kYrotation, BvhChannel::kXrotation, BvhChannel::kZrotation};
  exported.joints.push_back(reference);
  for (BvhJoint joint : body.joints) {
    joint.parent += 1;  // the old root (-1) hangs from the Reference node (0)
    exported.joints.push_back(joint);
  }
  exported.frame_time = body.frame_time;
  exported.assignChannelIndices();
  return exported;
}

// Channels of the reference-rooted hierarchy: the reference node's 6 values, then the body's.
Eigen::VectorXd referenceChannels(const Eigen::VectorXd& body, const std::array<double, 6>& reference) {
  Eigen::VectorXd channels(body.size() + 6);
  for (int i = 0; i < 6; ++i) channels[i] = reference[static_cast<std::size_t>(i)];
  channels.tail(body.size()) = body;
  return channels;
}

Eigen::VectorXd asFloats(const Eigen::VectorXd& values) {
  return values.cast<float>().cast<double>();
}

}  // namespace

TEST_CASE("Noitom as sent: a hierarchy exported with reference binds every layout; the body matches the template") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const BvhMotion exported = withReferenceRoot(neuron);
  const NoitomBvhBinding binding(exported);
  CHECK(binding.hasReferenceJoint());
  CHECK_FALSE(NoitomBvhBinding(neuron).hasReferenceJoint());
  CHECK(binding.jointCount() == 59);  // the body: the layouts count 354, 180, 360, 186 values

  NoitomBroadcastDecoder with_reference(exported), template_decoder(neuron);
  NoitomFrame frame, body_frame;
  const std::array<double, 6> reference{12.5, 0.0, -40.25, 30.0, 0.0, 0.0};
  int decoded = 0;
  for (int f = 0; f < neuron.frame_count; f += 50) {
    const Eigen::VectorXd body = neuron.frameValues(f);
    const Eigen::VectorXd channels = referenceChannels(body, reference);
    for (const NoitomLayout layout : {NoitomLayout{true, true}, NoitomLayout{false, true}, NoitomLayout{true, false},
                                      NoitomLayout{false, false}}) {
      // What Axis Neuron sends: the reference node first when the layout has it (the same
      // values as a template-bound sender with that reference).
      const std::vector<double> values = noitomWireValues(exported, channels, layout);
      CHECK(values == noitomWireValues(neuron, body, layout, reference));
      const std::vector<std::uint8_t> datagram = noitomBinaryFrame(values, layout, 0, static_cast<std::uint32_t>(1 + decoded));
      REQUIRE_MESSAGE(with_reference.decodeDatagram(datagram.data(), datagram.size(), 0.01 * decoded, frame),
                      "layout disp=", layout.with_displacement, " ref=", layout.with_reference);
      REQUIRE(template_decoder.decodeDatagram(datagram.data(), datagram.size(), 0.01 * decoded, body_frame));
      ++decoded;
      // The body's channels are those the template decodes; the Reference node's are the sent
      // reference, or rest (OFFSET, no rotation) when the frame has none.
      CHECK(frame.channels.tail(body.size()) == body_frame.channels);
      const Eigen::VectorXd expected_reference =
          layout.with_reference ? asFloats(channels.head(6)) : Eigen::VectorXd::Zero(6);
      CHECK(frame.channels.head(6) == expected_reference);
    }
  }
  CHECK(with_reference.counters().frames == static_cast<std::uint64_t>(decoded));
  CHECK(with_reference.counters().droppedTotal() == 0);
}

TEST_CASE("Noitom as sent: a binary frame split over datagrams is joined; a lost part drops only its frame") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const NoitomLayout layout{true, false};
  NoitomBroadcastDecoder decoder(neuron);
  NoitomFrame frame;
  std::mt19937 rng(36);
  std::uniform_int_distribution<int> kind(0, 9);
  std::uint64_t expected_frames = 0, expected_truncated = 0, expected_reassembled = 0;
  double t = 0;
  for (int f = 0; f < 300; ++f) {
    t += 0.01;
    const std::vector<std::uint8_t> bytes =
        noitomBinaryFrame(noitomWireValues(neuron, neuron.frameValues(f), layout), layout, 0, static_cast<std::uint32_t>(f + 1));
    REQUIRE(bytes.size() == 1480);  // 64 + 354 x 4
    const int k = kind(rng);
    if (k <= 5) {  // macOS: 1024 + 456
      CHECK_FALSE(decoder.decodeDatagram(bytes.data(), 1024, t, frame));
      REQUIRE(decoder.decodeDatagram(bytes.data() + 1024, 456, t + 0.0005, frame));
      ++expected_reassembled;
    } else if (k <= 7) {  // cut in three at random places after the header
      std::uniform_int_distribution<std::size_t> cut(kNoitomHeaderSize, bytes.size() - 2);
      std::size_t a = cut(rng), b = cut(rng);
      if (a > b) std::swap(a, b);
      if (a == b) ++b;
      CHECK_FALSE(decoder.decodeDatagram(bytes.data(), a, t, frame));
      CHECK_FALSE(decoder.decodeDatagram(bytes.data() + a, b - a, t, frame));
      REQUIRE(decoder.decodeDatagram(bytes.data() + b, bytes.size() - b, t, frame));
      ++expected_reassembled;
    } else if (k == 8) {  // the second part lost: the next frame's header drops the first part
      CHECK_FALSE(decoder.decodeDatagram(bytes.data(), 1024, t, frame));
      ++expected_truncated;
      continue;
    } else {
      REQUIRE(decoder.decodeDatagram(bytes.data(), bytes.size(), t, frame));
    }
    ++expected_frames;
    CHECK(frame.frame_index == f + 1);
    CHECK(frame.channels == asFloats(neuron.frameValues(f)));
  }
  // A first part whose rest never comes expires; a late continuation is garbage, not a frame.
  const std::vector<std::uint8_t> last = noitomBinaryFrame(noitomWireValues(neuron, neuron.frameValues(0), layout), layout, 0, 1000);
  CHECK_FALSE(decoder.decodeDatagram(last.data(), 1024, t + 1, frame));
  decoder.expirePending(t + 1.05);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kTruncated) == expected_truncated);
  decoder.expirePending(t + 1.2);
  ++expected_truncated;
  CHECK_FALSE(decoder.decodeDatagram(last.data() + 1024, 456, t + 1.2, frame));
  CHECK(decoder.counters().frames == expected_frames);
  CHECK(decoder.counters().reassembled == expected_reassembled);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kTruncated) == expected_truncated);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kMalformed) == 1);
  CHECK(expected_truncated > 20);
  CHECK(expected_reassembled > 150);
}

TEST_CASE("Noitom as sent: frame indices absent, constant or restarting do not stop the stream") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const NoitomLayout layout{false, false};
  auto datagram = [&](int f, std::uint32_t index) {
    return noitomBinaryFrame(noitomWireValues(neuron, neuron.frameValues(f), layout), layout, 0, index);
  };
  NoitomFrame frame;

  SUBCASE("index 0 on every frame (headers without a counter): every frame kept, duplicates too") {
    NoitomBroadcastDecoder decoder(neuron);
    for (int f = 0; f < 200; ++f) {
      const auto bytes = datagram(f, 0);
      REQUIRE(decoder.decodeDatagram(bytes.data(), bytes.size(), 0.01 * f, frame));
      CHECK(frame.channels == asFloats(neuron.frameValues(f)));
    }
    CHECK(decoder.counters().frames == 200);
  }
  SUBCASE("a constant counter: recognised on its first repeat with new values, then ignored") {
    NoitomBroadcastDecoder decoder(neuron);
    const auto first = datagram(0, 7);
    REQUIRE(decoder.decodeDatagram(first.data(), first.size(), 0, frame));
    // The same datagram again is a duplicate (same index, same values): stale.
    CHECK_FALSE(decoder.decodeDatagram(first.data(), first.size(), 0.001, frame));
    for (int f = 1; f < 200; ++f) {
      const auto bytes = datagram(f, 7);
      REQUIRE(decoder.decodeDatagram(bytes.data(), bytes.size(), 0.01 * f, frame));
    }
    CHECK(decoder.counters().frames == 200);
    CHECK(decoder.counters().index_ignored == 1);
    CHECK(decoder.counters().droppedFor(NoitomDrop::kStale) == 1);
  }
  SUBCASE("a looped clip restarts its counter: one frame lost per loop at most, late datagrams still stale") {
    NoitomBroadcastDecoder decoder(neuron);
    const int clip = 40, loops = 5;
    int kept = 0;
    double t = 0;
    for (int loop = 0; loop < loops; ++loop) {
      for (int i = 0; i < clip; ++i) {
        t += 0.01;  // no pause at the loop point
        const auto bytes = datagram(i, static_cast<std::uint32_t>(i + 1));
        if (decoder.decodeDatagram(bytes.data(), bytes.size(), t, frame)) {
          ++kept;
          CHECK(frame.channels == asFloats(neuron.frameValues(i)));
        }
        if (i == 20) {  // a datagram arriving late, once per loop: stale
          const auto late = datagram(18, 19);
          CHECK_FALSE(decoder.decodeDatagram(late.data(), late.size(), t, frame));
        }
      }
    }
    CHECK(kept >= clip * loops - (loops - 1));
    CHECK(decoder.counters().droppedFor(NoitomDrop::kStale) <= static_cast<std::uint64_t>(loops + loops - 1));
    CHECK(decoder.counters().droppedFor(NoitomDrop::kStale) >= static_cast<std::uint64_t>(loops));
  }
  SUBCASE("a sender restarted after a pause is followed at once") {
    NoitomBroadcastDecoder decoder(neuron);
    for (int f = 0; f < 100; ++f) {
      const auto bytes = datagram(f, static_cast<std::uint32_t>(f + 1));
      REQUIRE(decoder.decodeDatagram(bytes.data(), bytes.size(), 0.01 * f, frame));
    }
    const auto restarted = datagram(3, 5);  // 95 frames older, within restart_window, after 0.5 s
    CHECK(decoder.decodeDatagram(restarted.data(), restarted.size(), 1.5, frame));
  }
}

TEST_CASE("Noitom as sent: a dropped frame leaves the caller's frame as it was") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const NoitomLayout layout{true, false};
  NoitomDecoderOptions options;
  options.avatar = 0;
  NoitomBroadcastDecoder decoder(neuron, options);
  NoitomFrame frame;
  const auto good = noitomBinaryFrame(noitomWireValues(neuron, neuron.frameValues(10), layout), layout, 0, 10);
  REQUIRE(decoder.decodeDatagram(good.data(), good.size(), 2.0, frame));
  const NoitomFrame kept = frame;
  const std::vector<double> other_values = noitomWireValues(neuron, neuron.frameValues(600), layout);
  // Another avatar, a stale index, a non-finite value: each decodes far enough to have channels.
  const auto other_avatar = noitomBinaryFrame(other_values, layout, 1, 11);
  const auto stale = noitomBinaryFrame(other_values, layout, 0, 9);
  std::vector<double> nan_values = other_values;
  nan_values[40] = std::numeric_limits<double>::quiet_NaN();
  const auto non_finite = noitomBinaryFrame(nan_values, layout, 0, 12);
  for (const auto* bytes : {&other_avatar, &stale, &non_finite}) {
    CHECK_FALSE(decoder.decodeDatagram(bytes->data(), bytes->size(), 2.001, frame));
    CHECK(frame.channels == kept.channels);
    CHECK(frame.time == kept.time);
    CHECK(frame.frame_index == kept.frame_index);
    CHECK(frame.avatar == kept.avatar);
  }
  CHECK(decoder.counters().droppedFor(NoitomDrop::kOtherAvatar) == 1);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kStale) == 1);
  CHECK(decoder.counters().droppedFor(NoitomDrop::kNonFinite) == 1);
}
