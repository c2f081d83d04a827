#pragma once

/// @file
/// Writing BVH frames the way Axis Neuron / Axis Studio broadcasts them (layouts and encodings
/// in bvh_broadcast.hpp): for simulators, test senders, benchmarks and fuzz seeds. The inverse
/// of `NoitomBroadcastDecoder` on every channel a layout carries. Allocates; not for a
/// per-frame path.

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/adapters/noitom/bvh_broadcast.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/human/bvh_motion.hpp>

namespace retarget {

/// The wire values of one frame: `channels` (the hierarchy's channel values, cm and deg) in
/// `layout`. A joint's translation, where the layout sends one, is its position channels'
/// values, else its OFFSET (what the sender sends for a joint the BVH does not move). The
/// reference node, when the layout has one, is the hierarchy's Reference root when it has one
/// (its translation and rotations), else `reference` (6 values). Throws InvalidArgument for a
/// wrong channel count or a hierarchy a broadcast cannot bind (see NoitomBvhBinding).
inline std::vector<double> noitomWireValues(const BvhMotion& hierarchy, const Eigen::Ref<const Eigen::VectorXd>& channels,
                                            const NoitomLayout& layout,
                                            const std::array<double, 6>& reference = {0, 0, 0, 0, 0, 0}) {
  const NoitomBvhBinding binding(hierarchy);
  RETARGET_THROW_UNLESS(channels.size() == hierarchy.channel_count, InvalidArgument, "got ", channels.size(),
                        " channel values, the hierarchy has ", hierarchy.channel_count);
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(layout.valueCount(binding.jointCount())));
  bool root = true;
  for (std::size_t j = 0; j < hierarchy.joints.size(); ++j) {
    const BvhJoint& joint = hierarchy.joints[j];
    if (joint.is_end_site) continue;
    Eigen::Vector3d translation = joint.offset;
    double rotations[3] = {0, 0, 0};
    int r = 0;
    for (std::size_t c = 0; c < joint.channels.size(); ++c) {
      const double value = channels[joint.first_channel + static_cast<int>(c)];
      const BvhChannel channel = joint.channels[c];
      if (isRotation(channel)) {
        rotations[r++] = value;
      } else {
        translation[bvhChannelAxis(channel)] = value;
      }
    }
    if (j == 0 && binding.hasReferenceJoint()) {
      if (layout.with_reference) {
        values.insert(values.end(), translation.data(), translation.data() + 3);
        values.insert(values.end(), rotations, rotations + 3);
      }
      continue;
    }
    if (j == 0 && layout.with_reference) values.insert(values.end(), reference.begin(), reference.end());
    if (layout.with_displacement || root) values.insert(values.end(), translation.data(), translation.data() + 3);
    values.insert(values.end(), rotations, rotations + 3);
    root = false;
  }
  return values;
}

/// One text frame: `<avatar> <name> v0 v1 ... ||` and a newline, values in the shortest
/// decimals that read back to the same double.
inline std::string noitomTextFrame(const std::vector<double>& values, int avatar = 0, const std::string& name = "Avatar00") {
  std::string text = std::to_string(avatar) + " " + name;
  for (const double v : values) {
    text += ' ';
    internal::appendNumber(text, v);
  }
  text += " ||\n";
  return text;
}

/// One binary frame: the 64-byte header (little-endian) and the values as float32. The header's
/// WithDisp / WithReference fields say `layout`. `header` picks the layout of the header (file
/// comment of bvh_broadcast.hpp): NeuronDataReader's `BvhDataHeader` (DataVersion 1.1.0.0, with
/// `frame_index`) or PNLib's older `BvhOutputBinaryHeader` (DataVersion 1.0.0.2, uint32
/// DataCount, int32 flags, no frame index: `frame_index` is not written). Throws
/// InvalidArgument for more than 65535 values or `header` kText.
inline std::vector<std::uint8_t> noitomBinaryFrame(const std::vector<double>& values, const NoitomLayout& layout,
                                                   std::uint32_t avatar = 0, std::uint32_t frame_index = 0,
                                                   const std::string& name = "Avatar00",
                                                   NoitomHeader header = NoitomHeader::kBvhDataHeader) {
  RETARGET_THROW_UNLESS(values.size() <= 65535, InvalidArgument, "too many values (", values.size(), ")");
  RETARGET_THROW_UNLESS(header != NoitomHeader::kText, InvalidArgument, "a binary frame needs a binary header");
  std::vector<std::uint8_t> bytes(kNoitomHeaderSize + 4 * values.size(), 0);
  auto put16 = [&](std::size_t at, std::uint32_t v) {
    bytes[at] = static_cast<std::uint8_t>(v & 0xFFu);
    bytes[at + 1] = static_cast<std::uint8_t>((v >> 8) & 0xFFu);
  };
  auto put32 = [&](std::size_t at, std::uint32_t v) {
    put16(at, v & 0xFFFFu);
    put16(at + 2, v >> 16);
  };
  put16(0, kNoitomStartToken);
  if (header == NoitomHeader::kBvhDataHeader) {
    bytes[2] = 0;  // data version 1.1.0.0: build, revision, minor, major
    bytes[3] = 0;
    bytes[4] = 1;
    bytes[5] = 1;
    put16(6, static_cast<std::uint32_t>(values.size()));
    bytes[8] = layout.with_displacement ? 1 : 0;
    bytes[9] = layout.with_reference ? 1 : 0;
    put32(10, avatar);
    std::memcpy(bytes.data() + 14, name.data(), std::min<std::size_t>(name.size(), 31));
    put32(46, frame_index);
  } else {
    bytes[2] = 2;  // data version 1.0.0.2: build, revision, minor, major
    bytes[3] = 0;
    bytes[4] = 0;
    bytes[5] = 1;
    put32(6, static_cast<std::uint32_t>(values.size()));
    put32(10, layout.with_displacement ? 1 : 0);
    put32(14, layout.with_reference ? 1 : 0);
    put32(18, avatar);
    std::memcpy(bytes.data() + 22, name.data(), std::min<std::size_t>(name.size(), 31));
  }
  put16(62, kNoitomEndToken);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const auto f = static_cast<float>(values[i]);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    put32(kNoitomHeaderSize + 4 * i, bits);
  }
  return bytes;
}

}  // namespace retarget
