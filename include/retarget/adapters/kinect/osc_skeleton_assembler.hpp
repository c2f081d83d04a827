#pragma once

/// @file
/// Kinect v2 skeleton frames assembled from KinectV2-OSC messages. No sockets here: the OSC
/// receiver (kinect_osc_source.hpp, liblo) decodes datagrams and hands each message to
/// `KinectOscAssembler::receive`; tests and fuzzers call it directly.
///
/// Message layout (`../shared/data/docs/kinectv2_osc_format.md`), per tracked body and sensor
/// frame: 25 joint messages `/bodies/{id}/joints/{JointType}` with `f x, f y, f z` and, in
/// current senders, `s trackingState` (Tracked, Inferred, NotTracked; Kinect camera space K,
/// m), then `/bodies/{id}/hands/Left` and `/bodies/{id}/hands/Right` with `s handState, s
/// confidence`. There is no frame counter: a body's frame ends with its Right-hand message, or
/// when a joint it already holds arrives again with other values (the hand message was lost).
/// A frame is time-stamped with the arrival time of the message that ends it. Without a frame
/// counter, a frame whose Right-hand message was lost also takes the joints it lacked from
/// the next frame's messages that arrive before the repeated joint that ends it.
///
/// UDP faults: a datagram repeated with the same values is dropped (`kDuplicate`, also a
/// Right-hand message with no joint message since the previous one); messages are
/// keyed by joint name, so reordering inside a frame is harmless; a frame missing at most
/// `max_missing_joints` joints is completed from the body's previous frame (the carried joints
/// are downgraded to `kInferred`, so the default `InferredJoints::kHold` policy holds what
/// depends on them), one missing more is dropped (`kIncompleteFrame`). Every drop is counted
/// with its reason in `counters()`.
///
/// Allocation-free after construction; never throws after construction; every emitted frame
/// has finite positions (non-finite values are dropped as `kNonFinite`).

#include <algorithm>
#include <array>
#include <bitset>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include <retarget/core/error.hpp>
#include <retarget/human/frames.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// One OSC argument as the receiver decoded it: type tag 'f' (float32), 'd' (float64), 'i'
/// (int32) or 's' (string). Other tags are passed with their tag and rejected as
/// `kBadArguments`. The string view must stay valid for the duration of `receive`.
struct OscArgument {
  char type = 'f';
  double number = 0.0;
  std::string_view text{};
};

/// Why a KinectV2-OSC message or an assembled frame was dropped.
enum class KinectOscDrop : std::uint8_t {
  kUnknownAddress = 0,  ///< Not `/bodies/{id}/joints/{JointType}` or `/bodies/{id}/hands/{Left|Right}`.
  kBadArguments,        ///< Wrong argument count or types, or an unknown tracking/hand state.
  kNonFinite,           ///< A joint position that is NaN or infinite.
  kDuplicate,           ///< The same joint again with the same values (a repeated datagram).
  kIncompleteFrame,     ///< A frame missing more than `max_missing_joints` joints.
  kTooManyBodies,       ///< A new body while every slot holds a live body.
  kCount
};

/// Name of a drop reason, for logs and `retarget live` ("unknown-address", ...).
constexpr std::string_view kinectOscDropName(KinectOscDrop reason) {
  switch (reason) {
    case KinectOscDrop::kUnknownAddress:
      return "unknown-address";
    case KinectOscDrop::kBadArguments:
      return "bad-arguments";
    case KinectOscDrop::kNonFinite:
      return "non-finite";
    case KinectOscDrop::kDuplicate:
      return "duplicate";
    case KinectOscDrop::kIncompleteFrame:
      return "incomplete-frame";
    case KinectOscDrop::kTooManyBodies:
      return "too-many-bodies";
    case KinectOscDrop::kCount:
      break;
  }
  return "?";
}

/// Options of `KinectOscAssembler`.
struct KinectOscOptions {
  /// Body to follow: 0 follows the body closest to the sensor (distance of its SpineBase from
  /// the sensor) with hysteresis: the first body to complete a frame, replaced by one closer
  /// by more than `switch_distance` or, once it is forgotten, by the next body to complete a
  /// frame. Any other value follows that tracking id only.
  std::uint64_t body_id = 0;
  /// m (>= 0): another body takes over only when it is this much closer to the sensor than the
  /// followed one (or the followed one is forgotten), so two people at similar distances do
  /// not make the robot jump between them.
  double switch_distance = 0.5;
  /// A frame missing at most this many of the 25 joints (0..24) is completed from the body's
  /// previous frame; one missing more is dropped.
  int max_missing_joints = 3;
  /// A body not heard from for this long (s, > 0) is forgotten; a followed body that is
  /// forgotten gives way to the closest remaining one.
  double body_timeout = 0.5;

  /// Throws InvalidArgument naming the field when a value is out of range.
  void validate() const {
    RETARGET_THROW_UNLESS(max_missing_joints >= 0 && max_missing_joints < kHumanJointCount, InvalidArgument,
                          "KinectOscOptions.max_missing_joints is invalid (got ", max_missing_joints,
                          ", expected 0..", kHumanJointCount - 1, ")");
    RETARGET_THROW_UNLESS(switch_distance >= 0.0 && std::isfinite(switch_distance), InvalidArgument,
                          "KinectOscOptions.switch_distance is invalid (got ", switch_distance,
                          ", expected finite >= 0 m)");
    RETARGET_THROW_UNLESS(body_timeout > 0.0 && std::isfinite(body_timeout), InvalidArgument,
                          "KinectOscOptions.body_timeout is invalid (got ", body_timeout, ", expected finite > 0 s)");
  }
};

/// Message and frame counts of a `KinectOscAssembler` since construction or `reset`.
struct KinectOscCounters {
  std::uint64_t messages = 0;        ///< Messages passed to `receive`.
  std::uint64_t frames = 0;          ///< Frames completed (every body).
  std::uint64_t carried_joints = 0;  ///< Joints completed from a previous frame.
  std::array<std::uint64_t, static_cast<std::size_t>(KinectOscDrop::kCount)> dropped{};

  std::uint64_t droppedFor(KinectOscDrop reason) const { return dropped[static_cast<std::size_t>(reason)]; }
  std::uint64_t droppedTotal() const {
    std::uint64_t total = 0;
    for (const std::uint64_t n : dropped) total += n;
    return total;
  }
};

/// Assembles canonical `SkeletonFrame`s (frame W, m; seconds of the caller's clock) of up to
/// `kMaxBodies` interleaved bodies from KinectV2-OSC messages, and hands out the frames of the
/// followed body (see `KinectOscOptions::body_id`).
class KinectOscAssembler {
 public:
  /// Kinect v2 tracks at most six bodies.
  static constexpr int kMaxBodies = 6;

  /// Throws InvalidArgument on bad options.
  explicit KinectOscAssembler(const KinectOscOptions& options = {}) : options_((options.validate(), options)) {}

  const KinectOscOptions& options() const { return options_; }
  const KinectOscCounters& counters() const { return counters_; }
  /// Tracking id of the followed body (0: none yet).
  std::uint64_t followedBody() const { return followed_; }

  /// Forgets every body, frame and count.
  void reset() {
    for (auto& body : bodies_) body = Body{};
    counters_ = KinectOscCounters{};
    followed_ = 0;
    fresh_ = false;
  }

  /// One OSC message that arrived at `t_arrival` (s, any monotonic clock). Never throws.
  void receive(std::string_view address, const OscArgument* args, int count, double t_arrival) {
    ++counters_.messages;
    forgetSilentBodies(t_arrival);
    Address parsed;
    if (!parseAddress(address, parsed)) return drop(KinectOscDrop::kUnknownAddress);
    if (parsed.is_hand) {
      HandState state = HandState::kUnknown;
      if (!parseHand(args, count, state)) return drop(KinectOscDrop::kBadArguments);
      Body* body = bodyFor(parsed.body_id, t_arrival);
      if (body == nullptr) return drop(KinectOscDrop::kTooManyBodies);
      // A Right-hand message with no joint since the last one: the repeated end of a frame.
      if (parsed.right_hand && body->received.none()) return drop(KinectOscDrop::kDuplicate);
      (parsed.right_hand ? body->partial.right_hand : body->partial.left_hand) = state;
      if (parsed.right_hand) finishFrame(*body, t_arrival);
      return;
    }
    Vector3<double> p_K;
    TrackingState state = TrackingState::kTracked;
    if (!parseJoint(args, count, p_K, state)) return drop(KinectOscDrop::kBadArguments);
    if (!p_K.allFinite()) return drop(KinectOscDrop::kNonFinite);
    Body* body = bodyFor(parsed.body_id, t_arrival);
    if (body == nullptr) return drop(KinectOscDrop::kTooManyBodies);
    const auto j = static_cast<std::size_t>(parsed.joint);
    const Vector3<double> p_W = kinectToCanonical(p_K);
    if (body->received.test(j)) {
      if (body->partial.p_W[j] == p_W && body->partial.state[j] == state) return drop(KinectOscDrop::kDuplicate);
      finishFrame(*body, t_arrival);  // the Right-hand message of the previous frame was lost
    }
    body->partial.p_W[j] = p_W;
    body->partial.state[j] = state;
    body->received.set(j);
  }

  /// The newest frame of the followed body completed since the last call, if any: copies it
  /// into `frame` and returns true. `now` (s, the clock of `receive`) forgets silent bodies.
  bool poll(SkeletonFrame<double>& frame, double now) {
    forgetSilentBodies(now);
    if (!fresh_) return false;
    fresh_ = false;
    const Body* body = find(followed_);
    if (body == nullptr || !body->has_last) return false;
    frame = body->last;
    return true;
  }

 private:
  struct Body {
    std::uint64_t id = 0;  // 0: free slot
    double last_heard = 0.0;
    SkeletonFrame<double> partial{};
    std::bitset<kHumanJointCount> received{};
    SkeletonFrame<double> last{};
    bool has_last = false;
  };

  struct Address {
    std::uint64_t body_id = 0;
    bool is_hand = false;
    bool right_hand = false;
    HumanJoint joint = HumanJoint::kSpineBase;
  };

  void drop(KinectOscDrop reason) { ++counters_.dropped[static_cast<std::size_t>(reason)]; }

  static bool consumePrefix(std::string_view& text, std::string_view prefix) {
    if (text.substr(0, prefix.size()) != prefix) return false;
    text.remove_prefix(prefix.size());
    return true;
  }

  // "/bodies/{id}/joints/{JointType}" or "/bodies/{id}/hands/{Left|Right}"; id a decimal
  // tracking id > 0 (the SDK's 64-bit id).
  static bool parseAddress(std::string_view address, Address& out) {
    if (!consumePrefix(address, "/bodies/")) return false;
    const std::size_t slash = address.find('/');
    if (slash == 0 || slash == std::string_view::npos) return false;
    const char* first = address.data();
    const char* last = address.data() + slash;
    const auto [end, error] = std::from_chars(first, last, out.body_id);
    if (error != std::errc() || end != last || out.body_id == 0) return false;
    address.remove_prefix(slash);
    if (consumePrefix(address, "/joints/")) {
      const auto joint = humanJointFromName(address);
      if (!joint) return false;
      out.joint = *joint;
      return true;
    }
    if (!consumePrefix(address, "/hands/")) return false;
    out.is_hand = true;
    if (address == "Left") return true;
    out.right_hand = true;
    return address == "Right";
  }

  static bool number(const OscArgument& arg, double& value) {
    if (arg.type != 'f' && arg.type != 'd' && arg.type != 'i') return false;
    value = arg.number;
    return true;
  }

  // f x, f y, f z [, s trackingState]: early senders omit the state (taken as Tracked).
  static bool parseJoint(const OscArgument* args, int count, Vector3<double>& p_K, TrackingState& state) {
    if (args == nullptr || (count != 3 && count != 4)) return false;
    for (int i = 0; i < 3; ++i) {
      if (!number(args[i], p_K[i])) return false;
    }
    if (count == 3) return true;
    if (args[3].type != 's') return false;
    if (args[3].text == "Tracked") {
      state = TrackingState::kTracked;
    } else if (args[3].text == "Inferred") {
      state = TrackingState::kInferred;
    } else if (args[3].text == "NotTracked") {
      state = TrackingState::kNotTracked;
    } else {
      return false;
    }
    return true;
  }

  // s handState (Unknown, NotTracked, Open, Closed, Lasso), s confidence (Low, High): a hand
  // is open or closed only with high confidence.
  static bool parseHand(const OscArgument* args, int count, HandState& state) {
    if (args == nullptr || count != 2 || args[0].type != 's' || args[1].type != 's') return false;
    const std::string_view hand = args[0].text;
    const std::string_view confidence = args[1].text;
    if (hand != "Unknown" && hand != "NotTracked" && hand != "Open" && hand != "Closed" && hand != "Lasso") return false;
    if (confidence != "Low" && confidence != "High") return false;
    state = HandState::kUnknown;
    if (confidence == "High" && hand == "Open") state = HandState::kOpen;
    if (confidence == "High" && hand == "Closed") state = HandState::kClosed;
    return true;
  }

  Body* find(std::uint64_t id) {
    if (id == 0) return nullptr;
    for (auto& body : bodies_) {
      if (body.id == id) return &body;
    }
    return nullptr;
  }

  // The slot of `id`, a free slot for a new body, or nullptr when all are taken.
  Body* bodyFor(std::uint64_t id, double t_arrival) {
    Body* body = find(id);
    if (body == nullptr) {
      for (auto& slot : bodies_) {
        if (slot.id == 0) {
          slot = Body{};
          slot.id = id;
          body = &slot;
          break;
        }
      }
    }
    if (body != nullptr) body->last_heard = t_arrival;
    return body;
  }

  void forgetSilentBodies(double now) {
    for (auto& body : bodies_) {
      if (body.id != 0 && !(now - body.last_heard <= options_.body_timeout)) {
        if (body.id == followed_) followed_ = 0;
        body = Body{};
      }
    }
  }

  // Ends the body's partial frame: completes or drops it, then starts an empty one.
  void finishFrame(Body& body, double t_arrival) {
    const int missing = kHumanJointCount - static_cast<int>(body.received.count());
    SkeletonFrame<double>& frame = body.partial;
    if (missing > options_.max_missing_joints) {
      drop(KinectOscDrop::kIncompleteFrame);
    } else {
      for (std::size_t j = 0; j < static_cast<std::size_t>(kHumanJointCount); ++j) {
        if (body.received.test(j)) continue;
        ++counters_.carried_joints;
        if (body.has_last) {
          frame.p_W[j] = body.last.p_W[j];
          frame.state[j] = std::min(body.last.state[j], TrackingState::kInferred);
        } else {
          frame.p_W[j].setZero();
          frame.state[j] = TrackingState::kNotTracked;
        }
      }
      frame.time = t_arrival;
      body.last = frame;
      body.has_last = true;
      ++counters_.frames;
      follow(body);
    }
    body.received.reset();  // the hand states stay in `partial` until the sender says otherwise
  }

  // Decides whether `body`'s new frame is one the caller gets.
  void follow(const Body& body) {
    if (options_.body_id != 0) {
      if (body.id == options_.body_id) {
        followed_ = body.id;
        fresh_ = true;
      }
      return;
    }
    const Body* current = find(followed_);
    if (current == nullptr || !current->has_last) {
      followed_ = body.id;
    } else if (body.id != followed_ && distance(body) < distance(*current) - options_.switch_distance) {
      followed_ = body.id;
    }
    if (followed_ == body.id) fresh_ = true;
  }

  // m: distance of the body's SpineBase from the sensor (infinite while it is not tracked).
  static double distance(const Body& body) {
    if (!body.last.usable(HumanJoint::kSpineBase)) return std::numeric_limits<double>::infinity();
    return body.last.position(HumanJoint::kSpineBase).norm();
  }

  KinectOscOptions options_;
  std::array<Body, kMaxBodies> bodies_{};
  KinectOscCounters counters_{};
  std::uint64_t followed_ = 0;
  bool fresh_ = false;
};

}  // namespace retarget
