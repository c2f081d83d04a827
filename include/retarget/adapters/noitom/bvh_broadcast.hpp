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
/// - text (TCP or UDP): `<avatar id> <avatar name> v0 v1 ... ||`, frames ended by `||`. The name
///   may hold spaces ("My Avatar 2"): the values are the last N tokens of the frame, N the
///   largest value count of a layout that leaves the name at least one token of at most
///   `kNoitomMaxNameLength` characters (a documented limit: a name that ends in six or more
///   number tokens after a first token can be misread, the layouts with and without reference
///   being 6 values apart).
/// - binary (TCP 7001 or UDP 7002): a 64-byte little-endian header and DataCount float32 values.
///   Noitom's SDKs define two header layouts, both opening with the start token 0xDDFF (offset 0)
///   and the 4-byte DataVersion (offset 2: build, revision, minor, major), and closing with the
///   end token 0xEEFF (offset 62):
///   - `BvhDataHeader` (NeuronDataReader DataType.h; hanasaan/ofxPerceptionNeuron
///     libs/NeuronDataReader/include/DataType.h at f43a77b0; DataVersion 1.1.0.0 as third-party
///     readers of it report):
///     uint16 DataCount @6, uint8 WithDisp @8, uint8 WithReference @9, uint32 AvatarIndex @10,
///     char[32] AvatarName @14, uint32 FrameIndex @46, 3 x uint32 reserved @50;
///   - `BvhOutputBinaryHeader` (the older PNLib DataType.h, `PNBOOL` an int; its DataVersion
///     example is 1.0.0.2; seen as public copies in a code index whose repository could not be
///     resolved, so no commit is cited): uint32
///     DataCount @6, int32 WithDisp @10, int32 WithReference @14, uint32 AvatarIndex @18,
///     char[32] AvatarName @22, 2 x uint32 reserved @54; no frame index.
///   DataCount's low 16 bits sit at offset 6 in both, so a frame's size is known before its
///   layout. The layout is chosen by the DataVersion (major.minor 1.0: PNLib, anything else:
///   NeuronDataReader); a header whose flags contradict that layout's and agree exactly with the
///   other's (WithDisp / WithReference against the layout the count implies) is read as the
///   other, so a sender with an unusual DataVersion still decodes. Flags that agree with neither
///   are a bad header. (The two layouts read the same only for a frame without displacement and
///   reference whose NeuronDataReader avatar index is 0 and name empty: there the version decides.)
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
/// frames have no index, so text over UDP cannot tell duplicates. A frame split over several UDP
/// datagrams is joined again (`decodeDatagram`): a binary one by its DataCount, a text one up to
/// its `||`, in a buffer of fixed size.
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
  kBadHeader,      ///< A binary header whose end token is not 0xEEFF, or whose flags fit neither layout.
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

/// Longest avatar name of a text frame, characters from its first to its last (the binary
/// headers hold 31 and a terminating zero; text is given room for twice that). It bounds how
/// many tokens a name may take, so a frame with a damaged value is not misread as a shorter
/// layout behind a long "name".
inline constexpr std::size_t kNoitomMaxNameLength = 64;

/// Which header a frame came with (see the file comment for the two binary layouts).
enum class NoitomHeader : std::uint8_t {
  kText = 0,               ///< A text frame: no header.
  kBvhDataHeader,          ///< NeuronDataReader `BvhDataHeader`: uint16 DataCount, uint8 flags, FrameIndex.
  kBvhOutputBinaryHeader,  ///< PNLib `BvhOutputBinaryHeader`: uint32 DataCount, int32 flags, no FrameIndex.
};

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
  /// Binary frames: the header's frame index (0 in a PNLib header, which has none); text frames: -1.
  std::int64_t frame_index = -1;
  /// The header the frame came with.
  NoitomHeader header = NoitomHeader::kText;
  /// Binary frames: the header's DataVersion as the little-endian uint32 at offset 2 (major in the
  /// high byte: 0x01010000 is 1.1.0.0); text frames: 0.
  std::uint32_t data_version = 0;
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
  /// s (> 0): how long the first part of a frame split over several datagrams (binary, or text
  /// not yet ended by `||`) waits for the rest.
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
    // The value counts a text frame may have, largest first (the name takes what is left).
    const int joints = binding_.jointCount();
    text_counts_ = {NoitomLayout{true, true}.valueCount(joints), NoitomLayout{true, false}.valueCount(joints),
                    NoitomLayout{false, true}.valueCount(joints), NoitomLayout{false, false}.valueCount(joints)};
    std::sort(text_counts_.begin(), text_counts_.end(), [](int a, int b) { return a > b; });
  }

  const NoitomBvhBinding& binding() const { return binding_; }
  const NoitomCounters& counters() const { return counters_; }

  /// Decodes one datagram into `frame` (its `channels` sized by the decoder): a whole frame, or one
  /// part of a frame split over several datagrams, joined in arrival order and decoded with the
  /// part that completes it. A binary frame is complete with its DataCount's bytes (Axis Neuron
  /// on macOS sends 1024 + 456 bytes); a text frame with its `||` (a text part without one waits
  /// for the rest, in the stream buffer: at most `max_values` values' worth of text). A part that
  /// is followed by a binary frame start, or by nothing within `reassembly_timeout` (s, the clock
  /// of `t_arrival`), is dropped as `kTruncated`. A datagram holding more than one text frame
  /// gives the first here and the others from `next`. Returns false when no frame was completed
  /// (a drop is counted; `frame` is left as it was). Never allocates after `frame.channels` has
  /// its size; never throws.
  bool decodeDatagram(const std::uint8_t* data, std::size_t size, double t_arrival, NoitomFrame& frame) noexcept {
    const bool starts_frame = size >= 2 && data[0] == 0xFF && data[1] == 0xDD;
    if (text_held_ && (starts_frame || !(t_arrival - text_time_ <= options_.reassembly_timeout))) {
      dropHeldText();  // the rest of that text frame did not come in time
    }
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
    return decodeTextDatagram(data, size, t_arrival, frame);
  }

  /// Drops the first part of a split frame still waiting for the rest (`kTruncated`) when it has
  /// waited longer than `reassembly_timeout` at `t_now` (s, the clock of `t_arrival`). Sources
  /// call it when a wait for datagrams ends without one.
  void expirePending(double t_now) noexcept {
    if (pending_size_ > 0 && !(t_now - pending_time_ <= options_.reassembly_timeout)) {
      pending_size_ = 0;
      drop(NoitomDrop::kTruncated);
    }
    if (text_held_ && !(t_now - text_time_ <= options_.reassembly_timeout)) dropHeldText();
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
    text_held_ = false;
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

  static bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

  // A text datagram: joined to the text held from earlier datagrams in the stream buffer, and
  // the first frame completed by its `||` taken. What follows that frame stays held (a next
  // frame's first part, or whole frames for `next`), time-stamped with this datagram.
  bool decodeTextDatagram(const std::uint8_t* data, std::size_t size, double t_arrival, NoitomFrame& frame) noexcept {
    // Text is printable (UTF-8 names allowed): a control byte means binary bytes that start no
    // frame (a late part of a split binary frame, garbage), dropped alone; held text is kept.
    for (std::size_t i = 0; i < size; ++i) {
      const std::uint8_t c = data[i];
      if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F) return drop(NoitomDrop::kMalformed);
    }
    // A part without its `||` is held only when it starts as a frame does: with an avatar id (digits)
    // followed by a space. Anything else (a stray datagram) is dropped alone, not joined to the next frame.
    if (!text_held_ && findBars(data, size) == size && !startsWithAvatarId(data, size)) {
      return drop(NoitomDrop::kMalformed);
    }
    if (!text_held_) text_time_ = t_arrival;
    feed(data, size);  // bounded: too much text without a `||` is dropped as kOversized
    const bool done = next(t_arrival, frame);
    while (begin_ < end_ && isSpace(static_cast<char>(buffer_[begin_]))) ++begin_;
    if (begin_ == end_) begin_ = end_ = 0;
    text_held_ = end_ > begin_;
    if (text_held_ && done) text_time_ = t_arrival;
    return done;
  }

  // True when the text begins (after spaces) with a run of digits followed by a space, or by the
  // end of the datagram (an id cut by the split).
  static bool startsWithAvatarId(const std::uint8_t* data, std::size_t size) noexcept {
    std::size_t i = 0;
    while (i < size && isSpace(static_cast<char>(data[i]))) ++i;
    const std::size_t digits_begin = i;
    while (i < size && data[i] >= '0' && data[i] <= '9') ++i;
    return i > digits_begin && (i == size || isSpace(static_cast<char>(data[i])));
  }

  // Drops the text part held for the rest of its frame (counted kTruncated unless those bytes
  // were already being skipped as part of a counted drop).
  void dropHeldText() noexcept {
    if (!skipping_) drop(NoitomDrop::kTruncated);
    begin_ = end_ = 0;
    skipping_ = false;
    text_held_ = false;
  }

  bool acceptAvatar(std::int64_t avatar) noexcept {
    if (avatar_ < 0) avatar_ = avatar;
    return avatar == avatar_;
  }

  // Where a frame came from: the fields of its header (text: avatar from the id, no index).
  struct Origin {
    std::int64_t avatar = 0;
    std::int64_t index = -1;
    NoitomHeader header = NoitomHeader::kText;
    std::uint32_t data_version = 0;
  };

  // Checks a frame's `count` values (in values_), and only when it is kept writes `frame`.
  bool finish(int count, double t_arrival, const Origin& origin, NoitomFrame& frame) noexcept {
    const std::int64_t avatar = origin.avatar, index = origin.index;
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
    frame.header = origin.header;
    frame.data_version = origin.data_version;
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

  // Reads a binary frame at `p` (header and its DataCount values, all present). The header's
  // layout: the DataVersion's, unless its flags contradict that layout and agree with the other
  // (file comment). The flags are checked against the layout the count implies; a count that no
  // layout has is left to finish() (kWrongCount).
  bool finishBinary(const std::uint8_t* p, double t_arrival, NoitomFrame& frame) noexcept {
    const std::size_t count = readU16(p + 6);  // both layouts: DataCount's low 16 bits at 6
    const std::uint8_t* data = p + kNoitomHeaderSize;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint32_t bits = readU32(data + 4 * i);
      float value = 0.0f;
      std::memcpy(&value, &bits, sizeof value);
      values_[i] = static_cast<double>(value);
    }
    Origin origin;
    origin.data_version = readU32(p + 2);  // BuildNumb @2, Revision @3, Minor @4, Major @5
    const std::uint8_t minor = p[4], major = p[5];
    const bool version_says_pnlib = major == 1 && minor == 0;
    NoitomLayout layout;
    const bool counted = binding_.layoutFor(static_cast<int>(count), layout);
    // NeuronDataReader BvhDataHeader: uint8 WithDisp @8, uint8 WithReference @9.
    const bool fits_ndr = !counted || (layout.with_displacement == (p[8] != 0) && layout.with_reference == (p[9] != 0));
    // PNLib BvhOutputBinaryHeader: DataCount is a uint32 @6 (so bytes 8-9 are its high half,
    // 0 for any count a decoder takes), int32 WithDisp @10, int32 WithReference @14.
    const bool fits_pnlib = p[8] == 0 && p[9] == 0 &&
                            (!counted || (layout.with_displacement == (readU32(p + 10) != 0) &&
                                          layout.with_reference == (readU32(p + 14) != 0)));
    if (!fits_ndr && !fits_pnlib) return drop(NoitomDrop::kBadHeader);
    const bool pnlib = fits_pnlib && (version_says_pnlib || !fits_ndr);
    if (pnlib) {
      origin.header = NoitomHeader::kBvhOutputBinaryHeader;
      origin.avatar = static_cast<std::int64_t>(readU32(p + 18));  // AvatarIndex @18
      origin.index = 0;                                            // no FrameIndex: no index
    } else {
      origin.header = NoitomHeader::kBvhDataHeader;
      origin.avatar = static_cast<std::int64_t>(readU32(p + 10));  // AvatarIndex @10
      origin.index = static_cast<std::int64_t>(readU32(p + 46));   // FrameIndex @46
    }
    return finish(static_cast<int>(count), t_arrival, origin, frame);
  }

  // Parses `<id> <name...> v0 ... vN-1` (the `||` already cut off). The name may hold spaces:
  // N is the largest value count of a layout that leaves the name at least one token of at most
  // kNoitomMaxNameLength characters, with all N last tokens numbers. When none does, the frame
  // is kWrongCount if it reads as a name followed by numbers (kOversized if more than
  // max_values), else kMalformed.
  bool finishText(const char* text, std::size_t size, double t_arrival, NoitomFrame& frame) noexcept {
    const char* p = text;
    const char* last = text + size;
    while (p < last && isSpace(*p)) ++p;
    const char* id_begin = p;
    while (p < last && !isSpace(*p)) ++p;
    const std::string_view id(id_begin, static_cast<std::size_t>(p - id_begin));
    if (id.empty()) return drop(NoitomDrop::kMalformed);
    Origin origin;
    unsigned long long parsed = 0;
    if (internal::parseUnsigned(id, parsed) && parsed <= 0x7FFFFFFFull) origin.avatar = static_cast<std::int64_t>(parsed);
    const char* rest = p;  // the name and the values
    std::size_t tokens = 0;
    for (const char* q = rest; q < last;) {
      while (q < last && isSpace(*q)) ++q;
      if (q == last) break;
      ++tokens;
      while (q < last && !isSpace(*q)) ++q;
    }
    for (const int n : text_counts_) {
      const auto values = static_cast<std::size_t>(n);
      if (values + 1 > tokens) continue;  // the name keeps one token at least
      if (parseTextValues(rest, last, tokens - values, values)) return finish(n, t_arrival, origin, frame);
    }
    return drop(classifyText(rest, last));
  }

  // Skips `name_tokens` tokens from `p` (the name: at most kNoitomMaxNameLength characters from
  // its first to its last) and parses the `count` tokens after them into values_. False when the
  // name is too long or a value is not a number.
  bool parseTextValues(const char* p, const char* last, std::size_t name_tokens, std::size_t count) noexcept {
    const char* name_begin = nullptr;
    const char* name_end = nullptr;
    for (std::size_t t = 0; t < name_tokens; ++t) {
      while (p < last && isSpace(*p)) ++p;
      if (name_begin == nullptr) name_begin = p;
      while (p < last && !isSpace(*p)) ++p;
      name_end = p;
      if (static_cast<std::size_t>(name_end - name_begin) > kNoitomMaxNameLength) return false;
    }
    for (std::size_t i = 0; i < count; ++i) {
      while (p < last && isSpace(*p)) ++p;
      const char* token_end = p;
      while (token_end < last && !isSpace(*token_end)) ++token_end;
      double value = 0;
      if (p == token_end || internal::parseNumber(p, token_end, value) != token_end) return false;
      values_[i] = value;
      p = token_end;
    }
    return true;
  }

  // Why a text frame that fits no layout is dropped: a name (one token at least, at most
  // kNoitomMaxNameLength characters) followed by numbers is a skeleton of another size
  // (kWrongCount, or kOversized beyond max_values); anything else is kMalformed.
  NoitomDrop classifyText(const char* p, const char* last) const noexcept {
    const char* name_begin = nullptr;
    const char* head_end = nullptr;  // end of the last token that is not a number
    std::size_t run = 0, tokens = 0;  // numbers since then; tokens in all
    while (p < last) {
      while (p < last && isSpace(*p)) ++p;
      if (p == last) break;
      const char* token_end = p;
      while (token_end < last && !isSpace(*token_end)) ++token_end;
      if (name_begin == nullptr) name_begin = p;
      double value = 0;
      if (internal::parseNumber(p, token_end, value) == token_end) {
        ++run;
      } else {
        run = 0;
        head_end = token_end;
      }
      ++tokens;
      p = token_end;
    }
    if (head_end == nullptr && run > 0) --run;  // all numbers: the first is the name
    if (run == 0 || run + 1 > tokens) return NoitomDrop::kMalformed;
    if (head_end != nullptr && static_cast<std::size_t>(head_end - name_begin) > kNoitomMaxNameLength) {
      return NoitomDrop::kMalformed;
    }
    return run > values_.size() ? NoitomDrop::kOversized : NoitomDrop::kWrongCount;
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
  std::array<int, 4> text_counts_{};  // value counts of the layouts, largest first
  bool text_held_ = false;  // decodeDatagram holds the first part(s) of a text frame in buffer_
  double text_time_ = 0;    // arrival of the held text's first part, s
};

}  // namespace retarget
