#pragma once

/// @file
/// Noitom Axis Neuron / Axis Studio "BVH data broadcast" frames decoded into the channel values
/// of a BVH hierarchy (the input of `EulerMapper`). No sockets here: the TCP and UDP sources
/// (noitom_source.hpp, asio) hand their bytes to a `NoitomBroadcastDecoder`; tests and fuzzers
/// call it directly.
///
/// Wire format (`../shared/data/docs/axis_neuron_bvh_broadcast_format.md`): one flat array of
/// numbers per frame, in the joint order of the hierarchy the sender exports (which it does not
/// send), in one of four layouts told apart by the value count for J joints:
/// - with displacement: 6 values per joint, translation X Y Z (cm) then the joint's three
///   rotations (deg) in the order of its BVH rotation channels: 6 J values;
/// - without displacement: the root's translation, then 3 rotations per joint: 3 + 3 J;
/// - either with reference: 6 more values (a "Reference" node) in front: 6 J + 6, 3 J + 9.
/// (For J = 59: 354, 360, 180 and 186.) Two encodings:
/// - text (TCP): `<avatar id> <avatar name> v0 v1 ... ||`, frames ended by `||`;
/// - binary (TCP 7001 or UDP 7002): a 64-byte little-endian header (token 0xDDFF, data
///   version, DataCount, WithDisp, WithReference, avatar index, 32-byte name, frame index,
///   reserved, token 0xEEFF) and DataCount float32 values.
///
/// Binding: hierarchy joint k (End Sites excluded, file order) takes wire joint k. Its rotation
/// channels take the joint's three rotations in their channel order; its position channels
/// take the wire translation when the frame has one for that joint, else the joint's OFFSET
/// (so the rest geometry is kept). Text values are parsed like the BVH reader parses them
/// (same double, bit for bit); binary values are float32 widened exactly.
///
/// A hierarchy exported "with reference" has a root named "Reference" above the body: it takes
/// the 6 reference values of a frame that has them (else its OFFSET and no rotation), and the
/// layouts count the body's joints, so both kinds of export bind every layout.
///
/// Faults: each frame that cannot be used is dropped and counted with its reason
/// (`NoitomDrop`); a stream decoder resynchronises on the next frame, and a dropped frame leaves
/// the caller's `NoitomFrame` untouched. Binary frames carry a frame index: a frame not newer
/// than the last emitted (a duplicate or late datagram) is dropped as `kStale`, unless it is more
/// than `restart_window` frames older, arrives `restart_gap` after the last emitted frame, or
/// is one after the index just dropped (the sender restarted: a new take, a looped clip). An index of 0 (headers without a counter) is no
/// index, and so is a counter that repeats while the values change (`index_ignored`). Text
/// frames have no index, so text over UDP cannot tell duplicates. A binary frame split over
/// several UDP datagrams is joined again (`decodeDatagram`).
///
/// Allocation-free and non-throwing after construction; every emitted frame is finite.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/error.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/human/bvh_motion.hpp>

namespace retarget {

/// Why a broadcast frame (or some bytes of a stream) was dropped.
enum class NoitomDrop : std::uint8_t {
  kMalformed = 0,  ///< Text that is not `<id> <name> numbers...`, or bytes that start no frame.
  kBadHeader,      ///< A binary header whose end token is not 0xEEFF.
  kWrongCount,     ///< A value count that fits no layout of the bound hierarchy.
  kNonFinite,      ///< A value that is NaN or infinite.
  kOversized,      ///< A frame longer than the decoder's buffer (`max_values`).
  kStale,          ///< A binary frame index not newer than the last emitted one.
  kOtherAvatar,    ///< A frame of another avatar than the one followed.
  kTruncated,      ///< A frame cut off by a disconnect.
  kCount
};

/// Name of a drop reason, for logs and `retarget live` ("wrong-count", ...).
constexpr std::string_view noitomDropName(NoitomDrop reason) {
  constexpr std::array<std::string_view, static_cast<std::size_t>(NoitomDrop::kCount)> kNames{
      "malformed", "bad-header", "wrong-count", "non-finite", "oversized", "stale", "other-avatar", "truncated"};
  const auto i = static_cast<std::size_t>(reason);
  return i < kNames.size() ? kNames[i] : std::string_view("unknown");
}

/// Counters of a decoder: frames emitted and drops by reason.
struct NoitomCounters {
  std::uint64_t frames = 0;
  /// Frames joined from several datagrams (not drops).
  std::uint64_t reassembled = 0;
  /// Times a constant frame index was recognised and from then on ignored (not drops).
  std::uint64_t index_ignored = 0;
  std::array<std::uint64_t, static_cast<std::size_t>(NoitomDrop::kCount)> dropped{};

  std::uint64_t droppedTotal() const {
    std::uint64_t total = 0;
    for (const std::uint64_t n : dropped) total += n;
    return total;
  }
  std::uint64_t droppedFor(NoitomDrop reason) const { return dropped[static_cast<std::size_t>(reason)]; }
};

/// The layout of one frame's values (see the file comment).
struct NoitomLayout {
  bool with_displacement = false;
  bool with_reference = false;

  /// Number of values of a frame of `joint_count` joints.
  int valueCount(int joint_count) const {
    return (with_reference ? 6 : 0) + (with_displacement ? 6 * joint_count : 3 + 3 * joint_count);
  }
};

/// Binary header size (bytes) and its tokens.
inline constexpr std::size_t kNoitomHeaderSize = 64;
inline constexpr std::uint16_t kNoitomStartToken = 0xDDFF;
inline constexpr std::uint16_t kNoitomEndToken = 0xEEFF;

/// A BVH hierarchy as a broadcast binds to it: which wire values fill which channels.
class NoitomBvhBinding {
 public:
  /// Throws InvalidArgument naming the joint when the hierarchy has not exactly one root or a
  /// joint has not exactly three rotation channels (Axis Neuron sends three per joint).
  explicit NoitomBvhBinding(const BvhMotion& hierarchy) : channel_count_(hierarchy.channel_count) {
    validateBvh(hierarchy);
    RETARGET_THROW_UNLESS(hierarchy.rootCount() == 1, InvalidArgument,
                          "a broadcast binds to a hierarchy with one root (got ", hierarchy.rootCount(), ")");
    // A hierarchy exported "with reference" has the Reference node as its root, above Hips: it
    // takes the frame's 6 reference values, and the body's joints are numbered from its child.
    has_reference_joint_ = internal::equalsIgnoreCase(hierarchy.joints.front().name, "Reference") &&
                           std::count_if(hierarchy.joints.begin(), hierarchy.joints.end(), [](const BvhJoint& joint) {
                             return joint.parent == 0 && !joint.is_end_site;
                           }) == 1;
    for (std::size_t j = 0; j < hierarchy.joints.size(); ++j) {
      const BvhJoint& joint = hierarchy.joints[j];
      if (joint.is_end_site) continue;
      const bool reference = has_reference_joint_ && j == 0;
      int rotations = 0;
      for (std::size_t c = 0; c < joint.channels.size(); ++c) {
        const BvhChannel channel = joint.channels[c];
        Slot slot;
        slot.channel = joint.first_channel + static_cast<int>(c);
        slot.joint = reference ? kReferenceJoint : joint_count_;
        slot.axis = bvhChannelAxis(channel);
        slot.offset = joint.offset[slot.axis];
        slot.rotation = isRotation(channel);
        if (slot.rotation) slot.axis = rotations++;
        slots_.push_back(slot);
      }
      RETARGET_THROW_UNLESS(rotations == 3, InvalidArgument, "joint '", joint.name,
                            "' has ", rotations, " rotation channels; a broadcast sends 3 per joint");
      if (!reference) ++joint_count_;
    }
  }

  /// True when the hierarchy's root is the "Reference" node of an export "with reference" (its
  /// channels take a frame's reference values; without them, its OFFSET and no rotation).
  bool hasReferenceJoint() const { return has_reference_joint_; }

  /// Joints of the hierarchy, End Sites excluded (59 for Axis Neuron's skeletons).
  int jointCount() const { return joint_count_; }
  /// Channel values per frame of the hierarchy.
  int channelCount() const { return channel_count_; }

  /// The layout whose value count is `value_count`, or false when none has it.
  bool layoutFor(int value_count, NoitomLayout& layout) const {
    for (const bool reference : {false, true}) {
      for (const bool displacement : {true, false}) {
        const NoitomLayout candidate{displacement, reference};
        if (candidate.valueCount(joint_count_) == value_count) {
          layout = candidate;
          return true;
        }
      }
    }
    return false;
  }

  /// Fills `channels` (size channelCount(), hierarchy order; cm and deg) from one frame's
  /// `values` in `layout`. Returns false, leaving `channels` partly written, when a value used
  /// is not finite. Never allocates or throws.
  bool toChannels(const NoitomLayout& layout, const double* values, Eigen::Ref<Eigen::VectorXd> channels) const noexcept {
    const int base = layout.with_reference ? 6 : 0;
    for (const Slot& slot : slots_) {
      double value = slot.rotation ? 0.0 : slot.offset;
      if (slot.joint == kReferenceJoint) {
        if (layout.with_reference) value = values[(slot.rotation ? 3 : 0) + slot.axis];
      } else if (slot.rotation) {
        value = values[base + (layout.with_displacement ? 6 * slot.joint + 3 : 3 + 3 * slot.joint) + slot.axis];
      } else if (layout.with_displacement) {
        value = values[base + 6 * slot.joint + slot.axis];
      } else if (slot.joint == 0) {
        value = values[base + slot.axis];
      }
      if (!(value - value == 0.0)) return false;  // NaN or infinite
      channels[slot.channel] = value;
    }
    return true;
  }

 private:
  struct Slot {
    int channel = 0;     // index in the hierarchy's channel vector
    int joint = 0;       // wire joint index (kReferenceJoint: the Reference node)
    int axis = 0;        // position: 0..2 = X..Z; rotation: 0..2 = first..third rotation channel
    bool rotation = false;
    double offset = 0;   // the joint's OFFSET along this axis (position channels)
  };

  static constexpr int kReferenceJoint = -1;

  int channel_count_ = 0;
  int joint_count_ = 0;
  bool has_reference_joint_ = false;
  std::vector<Slot> slots_;
};

/// One decoded frame in the hierarchy's channel layout.
struct NoitomFrame {
  /// Arrival time of the frame's last byte, s (the source's clock).
  double time = 0;
  /// Avatar: the binary header's index, or the text frame's first token when it is an integer
  /// (else 0).
  std::int64_t avatar = 0;
  /// Binary frames: the header's frame index; text frames: -1.
  std::int64_t frame_index = -1;
  /// The layout the frame came in.
  NoitomLayout layout{};
  /// Channel values, hierarchy order, cm and deg (`BvhChannelValues` for `EulerMapper`).
  Eigen::VectorXd channels;
};

/// Options of `NoitomBroadcastDecoder`.
struct NoitomDecoderOptions {
  /// Avatar to follow; -1: the first one seen.
  std::int64_t avatar = -1;
  /// Largest number of values per frame accepted (>= the hierarchy's largest layout).
  int max_values = 1024;
  /// Binary frames: a frame index this many frames older than the last emitted means the sender
  /// restarted (accepted), a less old one is a duplicate or late datagram (`kStale`). >= 1.
  std::int64_t restart_window = 256;
  /// s (> 0): a binary frame whose index is not newer than the last emitted one, arriving this
  /// long after it, is a restarted sender (a looped clip, a new take), not a late datagram.
  double restart_gap = 0.25;
  /// s (> 0): how long the first part of a frame split over several datagrams waits for the rest.
  double reassembly_timeout = 0.1;

  /// Throws InvalidArgument naming the field.
  void validate() const {
    RETARGET_THROW_UNLESS(avatar >= -1, InvalidArgument, "NoitomDecoderOptions.avatar must be >= -1 (got ", avatar, ")");
    RETARGET_THROW_UNLESS(max_values >= 1 && max_values <= 65535, InvalidArgument,
                          "NoitomDecoderOptions.max_values must be in 1..65535 (got ", max_values, ")");
    RETARGET_THROW_UNLESS(restart_window >= 1, InvalidArgument,
                          "NoitomDecoderOptions.restart_window must be >= 1 (got ", restart_window, ")");
    RETARGET_THROW_UNLESS(restart_gap > 0 && restart_gap <= 60, InvalidArgument,
                          "NoitomDecoderOptions.restart_gap must be in (0, 60] s (got ", restart_gap, ")");
    RETARGET_THROW_UNLESS(reassembly_timeout > 0 && reassembly_timeout <= 10, InvalidArgument,
                          "NoitomDecoderOptions.reassembly_timeout must be in (0, 10] s (got ", reassembly_timeout, ")");
  }
};

/// Decodes broadcast frames, whole (`decodeDatagram`, one UDP datagram) or from a byte stream
/// cut anywhere (`feed` then `next`, TCP), text or binary.
class NoitomBroadcastDecoder {
 public:
  /// Throws InvalidArgument on bad options or when `max_values` is below the hierarchy's
  /// largest layout.
  NoitomBroadcastDecoder(const BvhMotion& hierarchy, const NoitomDecoderOptions& options = {})
      : binding_(hierarchy), options_((options.validate(), options)) {
    const int largest = NoitomLayout{true, true}.valueCount(binding_.jointCount());
    RETARGET_THROW_UNLESS(options_.max_values >= largest, InvalidArgument, "NoitomDecoderOptions.max_values (",
                          options_.max_values, ") is below the hierarchy's largest frame (", largest, " values)");
    values_.resize(static_cast<std::size_t>(options_.max_values));
    last_values_.resize(values_.size());
    channels_.resize(binding_.channelCount());
    pending_.resize(kNoitomHeaderSize + 4 * values_.size());
    // A text value takes at most ~24 characters with its separator; a binary one 4 bytes.
    buffer_.resize(kNoitomHeaderSize + static_cast<std::size_t>(options_.max_values) * 24 + 256);
    avatar_ = options_.avatar;
  }

  const NoitomBvhBinding& binding() const { return binding_; }
  const NoitomCounters& counters() const { return counters_; }

  /// Decodes one datagram into `frame` (its `channels` sized by the decoder): a whole frame
  /// (binary, or text with or without the final `||`), or one part of a binary frame split over
  /// several datagrams (Axis Neuron on macOS sends 1024 + 456 bytes): the parts are joined in
  /// arrival order and the frame is decoded with the last one. A part that is followed by a new
  /// frame, or by nothing within `reassembly_timeout`, is dropped as `kTruncated`. Returns false
  /// when no frame was completed (a drop is counted; `frame` is left as it was). Never allocates
  /// after `frame.channels` has its size; never throws.
  bool decodeDatagram(const std::uint8_t* data, std::size_t size, double t_arrival, NoitomFrame& frame) noexcept {
    const bool starts_frame = size >= 2 && data[0] == 0xFF && data[1] == 0xDD;
    if (pending_size_ > 0) {
      if (starts_frame || !(t_arrival - pending_time_ <= options_.reassembly_timeout)) {
        pending_size_ = 0;
        drop(NoitomDrop::kTruncated);
      } else {
        const std::size_t wanted = pending_expected_ - pending_size_;
        if (size > wanted) {
          pending_size_ = 0;
          return drop(NoitomDrop::kMalformed);
        }
        std::memcpy(pending_.data() + pending_size_, data, size);
        pending_size_ += size;
        if (pending_size_ < pending_expected_) return false;
        pending_size_ = 0;
        ++counters_.reassembled;
        return finishBinary(pending_.data(), t_arrival, frame);
      }
    }
    if (starts_frame) {
      if (size < kNoitomHeaderSize) return drop(NoitomDrop::kTruncated);
      const std::size_t count = readU16(data + 6);
      if (endToken(data) != kNoitomEndToken) return drop(NoitomDrop::kBadHeader);
      if (count > values_.size()) return drop(NoitomDrop::kOversized);
      const std::size_t expected = kNoitomHeaderSize + 4 * count;
      if (size < expected) {  // the first part of a split frame: wait for the rest
        std::memcpy(pending_.data(), data, size);
        pending_size_ = size;
        pending_expected_ = expected;
        pending_time_ = t_arrival;
        return false;
      }
      if (size != expected) return drop(NoitomDrop::kMalformed);
      return finishBinary(data, t_arrival, frame);
    }
    return finishText(reinterpret_cast<const char*>(data), findBars(data, size), t_arrival, frame);
  }

  /// Drops the first part of a split frame still waiting for the rest (`kTruncated`) when it has
  /// waited longer than `reassembly_timeout` at `t_now` (s, the clock of `t_arrival`). Sources
  /// call it when a wait for datagrams ends without one.
  void expirePending(double t_now) noexcept {
    if (pending_size_ > 0 && !(t_now - pending_time_ <= options_.reassembly_timeout)) {
      pending_size_ = 0;
      drop(NoitomDrop::kTruncated);
    }
  }

  /// Appends stream bytes (any cut). Bytes that do not fit the buffer even after the frames
  /// before them are taken are dropped (`kOversized`). Never allocates or throws.
  void feed(const std::uint8_t* data, std::size_t size) noexcept {
    if (begin_ > 0 && size > buffer_.size() - end_) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (size > buffer_.size() - end_) {
      // No frame fits: what is held and what came are one oversized frame; wait for a new start.
      drop(NoitomDrop::kOversized);
      begin_ = end_ = 0;
      skipping_ = true;
      return;
    }
    std::memcpy(buffer_.data() + end_, data, size);
    end_ += size;
  }

  /// Takes the next complete frame of the stream into `frame`, time-stamped `t_arrival`.
  /// Returns false when no complete frame is buffered. Never allocates (once `frame.channels`
  /// has its size) or throws.
  bool next(double t_arrival, NoitomFrame& frame) noexcept {
    for (;;) {
      if (skipping_ && !skipToFrameStart()) return false;
      const std::size_t held = end_ - begin_;
      if (held == 0) return false;
      const std::uint8_t* p = buffer_.data() + begin_;
      if (held >= 2 && p[0] == 0xFF && p[1] == 0xDD) {
        if (held < kNoitomHeaderSize) return false;
        const std::size_t count = readU16(p + 6);
        if (endToken(p) != kNoitomEndToken || count > values_.size()) {
          drop(endToken(p) != kNoitomEndToken ? NoitomDrop::kBadHeader : NoitomDrop::kOversized);
          begin_ += 2;
          skipping_ = true;
          continue;
        }
        const std::size_t size = kNoitomHeaderSize + 4 * count;
        if (held < size) return false;
        begin_ += size;
        binary_seen_ = true;
        if (finishBinary(p, t_arrival, frame)) return true;
        continue;
      }
      if (held == 1 && p[0] == 0xFF) return false;  // maybe the first byte of a header
      if (binary_seen_) {
        // A binary stream does not turn into text: these bytes are garbage.
        drop(NoitomDrop::kMalformed);
        skipping_ = true;
        continue;
      }
      const std::size_t bar = findBars(p, held);
      if (bar == held) return false;  // the frame's end has not come yet
      begin_ += bar + 2;
      if (finishText(reinterpret_cast<const char*>(p), bar, t_arrival, frame)) return true;
    }
  }

  /// Forgets buffered bytes (a connection ended: a partial frame is counted `kTruncated`) and
  /// the last frame index (a new connection may restart it). The followed avatar is kept.
  void resetStream() noexcept {
    std::size_t held = end_ - begin_;
    while (held > 0 && (buffer_[begin_ + held - 1] == '\n' || buffer_[begin_ + held - 1] == '\r' ||
                        buffer_[begin_ + held - 1] == ' ')) {
      --held;
    }
    if (held > 0 && !skipping_) drop(NoitomDrop::kTruncated);
    begin_ = end_ = 0;
    skipping_ = false;
    binary_seen_ = false;
    last_index_ = -1;
    stale_index_ = -1;
    index_constant_ = false;
  }

 private:
  static std::uint16_t readU16(const std::uint8_t* p) {
    return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
  }
  static std::uint32_t readU32(const std::uint8_t* p) {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
  }
  static std::uint16_t endToken(const std::uint8_t* header) { return readU16(header + 62); }

  static std::size_t findBars(const std::uint8_t* p, std::size_t n) {
    for (std::size_t i = 0; i + 1 < n; ++i) {
      if (p[i] == '|' && p[i + 1] == '|') return i;
    }
    return n;
  }

  bool drop(NoitomDrop reason) noexcept {
    ++counters_.dropped[static_cast<std::size_t>(reason)];
    return false;
  }

  // Skips to the next binary start token or, in a stream not known to be binary, past the next
  // "||". Returns false when the buffer has neither yet (it keeps a possible partial token).
  bool skipToFrameStart() noexcept {
    const std::uint8_t* p = buffer_.data() + begin_;
    const std::size_t held = end_ - begin_;
    for (std::size_t i = 0; i < held; ++i) {
      if (p[i] == 0xFF && (i + 1 == held || p[i + 1] == 0xDD)) {
        begin_ += i;
        skipping_ = i + 1 == held;  // only the first byte so far
        if (i + 1 == held) return false;
        return true;
      }
      if (!binary_seen_ && i + 1 < held && p[i] == '|' && p[i + 1] == '|') {
        begin_ += i + 2;
        skipping_ = false;
        return true;
      }
    }
    // Nothing yet; keep a last byte that may begin a start token or a "||" with the next bytes.
    const std::uint8_t last = held > 0 ? p[held - 1] : 0;
    if (held > 0 && (last == 0xFF || (!binary_seen_ && last == '|'))) {
      begin_ = end_ - 1;
    } else {
      begin_ = end_ = 0;
    }
    return false;
  }

  bool acceptAvatar(std::int64_t avatar) noexcept {
    if (avatar_ < 0) avatar_ = avatar;
    return avatar == avatar_;
  }

  // Checks a frame's `count` values (in values_), and only when it is kept writes `frame`.
  bool finish(int count, double t_arrival, std::int64_t avatar, std::int64_t index, NoitomFrame& frame) noexcept {
    NoitomLayout layout;
    if (!binding_.layoutFor(count, layout)) return drop(NoitomDrop::kWrongCount);
    if (!binding_.toChannels(layout, values_.data(), channels_)) return drop(NoitomDrop::kNonFinite);
    if (!acceptAvatar(avatar)) return drop(NoitomDrop::kOtherAvatar);
    if (!acceptIndex(index, count, t_arrival)) return drop(NoitomDrop::kStale);
    if (frame.channels.size() != binding_.channelCount()) {
      frame.channels.resize(binding_.channelCount());  // the caller's first frame only
    }
    frame.channels = channels_;
    frame.time = t_arrival;
    frame.avatar = avatar;
    frame.frame_index = index;
    frame.layout = layout;
    std::copy_n(values_.begin(), count, last_values_.begin());
    last_count_ = count;
    last_time_ = t_arrival;
    ++counters_.frames;
    return true;
  }

  // The frame index rules (file comment): 0 (older headers) or a counter that stays constant
  // while the values change is no index; one not newer than the last emitted is a duplicate or
  // late datagram, unless it is far older (restart_window), comes restart_gap after the last, or
  // follows the previous such frame by one (the counter counts again from a lower value: a
  // looped clip; two late datagrams in a row would pass too, the rarer mistake).
  bool acceptIndex(std::int64_t index, int count, double t_arrival) noexcept {
    if (index <= 0 || index_constant_) return true;
    if (last_index_ >= 0 && index <= last_index_) {
      if (index == last_index_ && !sameAsLast(count)) {
        index_constant_ = true;  // a counter that does not count
        ++counters_.index_ignored;
        return true;
      }
      const bool restarted = last_index_ - index > options_.restart_window ||
                             t_arrival - last_time_ >= options_.restart_gap || (stale_index_ >= 0 && index == stale_index_ + 1);
      if (!restarted) {
        stale_index_ = index;
        return false;
      }
    }
    last_index_ = index;
    stale_index_ = -1;
    return true;
  }

  bool sameAsLast(int count) const noexcept {
    return count == last_count_ && std::equal(values_.begin(), values_.begin() + count, last_values_.begin());
  }

  bool finishBinary(const std::uint8_t* p, double t_arrival, NoitomFrame& frame) noexcept {
    const std::size_t count = readU16(p + 6);
    const std::uint8_t* data = p + kNoitomHeaderSize;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t bits = readU32(data + 4 * i);
      float value = 0.0f;
      std::memcpy(&value, &bits, sizeof value);
      values_[i] = static_cast<double>(value);
    }
    const auto avatar = static_cast<std::int64_t>(readU32(p + 10));
    const auto index = static_cast<std::int64_t>(readU32(p + 46));
    // The header's flags must agree with the count (a header whose flags lie is malformed).
    NoitomLayout layout;
    if (binding_.layoutFor(static_cast<int>(count), layout) &&
        (layout.with_displacement != (p[8] != 0) || layout.with_reference != (p[9] != 0))) {
      return drop(NoitomDrop::kBadHeader);
    }
    return finish(static_cast<int>(count), t_arrival, avatar, index, frame);
  }

  bool finishText(const char* text, std::size_t size, double t_arrival, NoitomFrame& frame) noexcept {
    const char* p = text;
    const char* last = text + size;
    auto skipSpace = [&] {
      while (p < last && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) ++p;
    };
    auto token = [&]() -> std::string_view {
      skipSpace();
      const char* start = p;
      while (p < last && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') ++p;
      return {start, static_cast<std::size_t>(p - start)};
    };
    const std::string_view id = token();
    const std::string_view name = token();
    if (id.empty() || name.empty()) return drop(NoitomDrop::kMalformed);
    std::int64_t avatar = 0;
    unsigned long long parsed = 0;
    if (internal::parseUnsigned(id, parsed) && parsed <= 0x7FFFFFFFull) avatar = static_cast<std::int64_t>(parsed);
    int count = 0;
    for (;;) {
      skipSpace();
      if (p == last) break;
      if (count == static_cast<int>(values_.size())) return drop(NoitomDrop::kOversized);
      double value = 0;
      const char* end = internal::parseNumber(p, last, value);
      if (end == nullptr || (end < last && *end != ' ' && *end != '\t' && *end != '\r' && *end != '\n')) {
        return drop(NoitomDrop::kMalformed);
      }
      values_[static_cast<std::size_t>(count++)] = value;
      p = end;
    }
    return finish(count, t_arrival, avatar, -1, frame);
  }

  NoitomBvhBinding binding_;
  NoitomDecoderOptions options_;
  NoitomCounters counters_{};
  std::vector<double> values_;
  std::vector<double> last_values_;  // the last emitted frame's values (duplicates look the same)
  int last_count_ = 0;
  double last_time_ = 0;
  Eigen::VectorXd channels_;  // a frame's channels until it is kept
  std::vector<std::uint8_t> buffer_;
  std::vector<std::uint8_t> pending_;  // the parts of a frame split over datagrams
  std::size_t pending_size_ = 0, pending_expected_ = 0;
  double pending_time_ = 0;
  bool index_constant_ = false;  // the sender's frame index stays constant: ignored
  std::size_t begin_ = 0, end_ = 0;
  bool skipping_ = false;     // dropping bytes until the next frame start
  bool binary_seen_ = false;  // this connection sent binary frames
  std::int64_t avatar_ = -1;
  std::int64_t last_index_ = -1;
  std::int64_t stale_index_ = -1;  // the index of the frame just dropped as stale, else -1
};

}  // namespace retarget
