#pragma once

/// @file
/// NTU RGB+D `.skeleton` files (Kinect v2 bodies, ~30 Hz): read the main body into a
/// canonical `SkeletonMotion`.
///
/// Layout (whitespace-separated, one record per line):
///
///     <frameCount>
///     per frame:
///       <bodyCount>                                   (0 or more, usually 0..2)
///       per body:
///         <bodyID> <clippedEdges> <handLeftConfidence> <handLeftState>
///           <handRightConfidence> <handRightState> <isRestricted> <leanX> <leanY> <trackingState>
///         <jointCount>                                (25)
///         25 lines: x y z depthX depthY colorX colorY qw qx qy qz trackingState
///
/// x y z are metres in Kinect camera space; the quaternion is stored w first (all zeros on
/// leaf joints); the joint order and tracking states (0/1/2) are the Kinect v2 ones; hand
/// states are Kinect `HandState` (0 unknown, 1 not tracked, 2 open, 3 closed, 4 lasso).
///
/// **Main body.** When a file holds several bodies (by bodyID), the reader keeps one: the body
/// with the most *tracked* joint samples over the whole file; a tie goes to the body whose
/// joints move most (sum over frames of the mean joint displacement between consecutive frames
/// of that body), then to the body seen first. Frames in which the main body is absent keep
/// their time slot with every joint kNotTracked (positions zero) — check `usable()`.
///
/// Conversion to the canonical frame W is the Kinect one of human/frames.hpp. Frames are
/// 1/frame_rate s apart (default 30 Hz). Depth/colour pixel coordinates, lean and
/// confidences are not kept. Hand states: 2 -> open, 3 -> closed, anything else unknown.
///
/// Throws `retarget::ParseError` naming file, line and what was expected (counts, value
/// counts, finite numbers, tracking states, unit quaternions, truncated or trailing data).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/frames.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/io/internal/text.hpp>
#include <retarget/io/kinect.hpp>

namespace retarget {

/// Which body an NTU file held and how the main one was chosen (optional reader output).
struct NtuBodySummary {
  /// Distinct body IDs in the file, in order of first appearance.
  std::vector<std::uint64_t> body_ids;
  /// Tracked joint samples per body (same order as body_ids).
  std::vector<std::size_t> tracked_samples;
  /// Index into body_ids of the body that was kept (-1 when the file has no body at all).
  int main_body = -1;
};

namespace internal {

struct NtuBody {
  std::uint64_t id = 0;
  HandState left_hand = HandState::kUnknown;
  HandState right_hand = HandState::kUnknown;
  SkeletonFrame<double> frame;  // Kinect camera space until conversion
};

inline HandState ntuHandState(unsigned long long value) {
  return value == 2 ? HandState::kOpen : value == 3 ? HandState::kClosed : HandState::kUnknown;
}

}  // namespace internal

/// Reads an NTU RGB+D `.skeleton` text from a stream (see the file doc); `file` names it in
/// errors; `summary`, when given, receives the bodies found. Result: canonical frame W,
/// `format` = "ntu-skeleton", orientations kept. Throws ParseError, or InvalidArgument when
/// frame_rate is not positive.
RETARGET_LAZY_DECL SkeletonMotion<double> readNtuSkeleton(std::istream& in, const std::string& file = "<stream>",
                                                     double frame_rate = 30.0, NtuBodySummary* summary = nullptr);

/// Reads the NTU RGB+D `.skeleton` file at `path` (see the stream overload).
RETARGET_LAZY_DECL SkeletonMotion<double> readNtuSkeleton(const std::string& path, double frame_rate = 30.0,
                                                     NtuBodySummary* summary = nullptr);

#if RETARGET_DEFINE_IO

RETARGET_LAZY_DEF SkeletonMotion<double> readNtuSkeleton(std::istream& in, const std::string& file, double frame_rate,
                                                     NtuBodySummary* summary) {
  RETARGET_THROW_UNLESS(std::isfinite(frame_rate) && frame_rate > 0, InvalidArgument,
                        "frame_rate must be positive (got ", frame_rate, ", expected > 0 Hz)");
  internal::LineReader reader(in, file);
  std::vector<std::string_view> fields;
  // Reads the next non-empty line, split, expecting `count` fields described by `what`.
  auto expectLine = [&](std::size_t count, const std::string& what) {
    if (!reader.nextNonEmpty()) reader.fail("expected " + what + ", got end of file");
    internal::splitWhitespace(reader.line(), fields);
    if (fields.size() != count) {
      reader.fail("expected " + std::to_string(count) + (count == 1 ? " value" : " values") + " (" + what + "), got " +
                  std::to_string(fields.size()));
    }
  };
  auto expectCount = [&](const std::string& what, unsigned long long max) {
    expectLine(1, what);
    unsigned long long value = 0;
    if (!internal::parseUnsigned(fields[0], value) || value > max) {
      reader.fail("expected " + what + " (an integer 0.." + std::to_string(max) + "), got " + internal::quoted(fields[0]));
    }
    return static_cast<std::size_t>(value);
  };

  const std::size_t frame_count = expectCount("the frame count", 100000000ULL);
  std::vector<std::vector<internal::NtuBody>> bodies_per_frame;
  bodies_per_frame.reserve(std::min<std::size_t>(frame_count, 100000));  // the count is not trusted yet
  for (std::size_t f = 0; f < frame_count; ++f) {
    bodies_per_frame.emplace_back();
    const std::size_t body_count = expectCount("the body count of frame " + std::to_string(f + 1), 6);
    for (std::size_t b = 0; b < body_count; ++b) {
      internal::NtuBody& body = bodies_per_frame[f].emplace_back();
      expectLine(10, "body info: bodyID clippedEdges handLeftConfidence handLeftState handRightConfidence "
                     "handRightState isRestricted leanX leanY trackingState");
      unsigned long long id = 0;
      unsigned long long left = 0;
      unsigned long long right = 0;
      if (!internal::parseUnsigned(fields[0], id)) {
        reader.fail("expected an integer bodyID in column 1, got " + internal::quoted(fields[0]));
      }
      if (!internal::parseUnsigned(fields[3], left) || left > 4) {
        reader.fail("expected a hand state 0..4 in column 4 (handLeftState), got " + internal::quoted(fields[3]));
      }
      if (!internal::parseUnsigned(fields[5], right) || right > 4) {
        reader.fail("expected a hand state 0..4 in column 6 (handRightState), got " + internal::quoted(fields[5]));
      }
      for (std::size_t c : std::initializer_list<std::size_t>{1, 2, 4, 6, 7, 8, 9}) {
        internal::parseFiniteOrFail(reader, fields[c], c + 1);
      }
      body.id = id;
      body.left_hand = internal::ntuHandState(left);
      body.right_hand = internal::ntuHandState(right);
      expectLine(1, "the joint count (25)");
      if (fields[0] != "25") reader.fail("expected joint count 25, got " + internal::quoted(fields[0]));
      body.frame.has_orientations = true;
      for (int j = 0; j < kHumanJointCount; ++j) {
        const auto joint = static_cast<HumanJoint>(j);
        expectLine(12, "joint " + std::string(name(joint)) +
                           ": x y z depthX depthY colorX colorY qw qx qy qz trackingState");
        double v[11];
        for (std::size_t k = 0; k < 11; ++k) v[k] = internal::parseFiniteOrFail(reader, fields[k], k + 1);
        bool had_orientation = false;
        const auto J = static_cast<std::size_t>(j);
        body.frame.p_W[J] = Vector3<double>(v[0], v[1], v[2]);
        body.frame.R_WJ[J] = internal::unitQuaternionOrFail(reader, v[7], v[8], v[9], v[10], joint, had_orientation);
        if (!had_orientation) body.frame.R_WJ[J] = canonicalToKinect(Quaternion<double>::Identity());
        body.frame.state[J] = internal::parseTrackingStateOrFail(reader, fields[11], 12, joint);
      }
    }
  }
  if (reader.nextNonEmpty()) {
    reader.fail("expected the end of the file after " + std::to_string(frame_count) + " frames, got more text");
  }

  // Choose the main body: most tracked samples, then most motion, then first seen.
  NtuBodySummary found;
  std::vector<double> motion_amount;
  std::vector<const SkeletonFrame<double>*> previous;
  for (const auto& bodies : bodies_per_frame) {
    for (const internal::NtuBody& body : bodies) {
      std::size_t k = 0;
      while (k < found.body_ids.size() && found.body_ids[k] != body.id) ++k;
      if (k == found.body_ids.size()) {
        found.body_ids.push_back(body.id);
        found.tracked_samples.push_back(0);
        motion_amount.push_back(0.0);
        previous.push_back(nullptr);
      }
      for (const TrackingState s : body.frame.state) found.tracked_samples[k] += s == TrackingState::kTracked ? 1 : 0;
      if (previous[k] != nullptr) {
        double sum = 0;
        for (int j = 0; j < kHumanJointCount; ++j) {
          sum += (body.frame.p_W[static_cast<std::size_t>(j)] - previous[k]->p_W[static_cast<std::size_t>(j)]).norm();
        }
        motion_amount[k] += sum / kHumanJointCount;
      }
      previous[k] = &body.frame;
    }
  }
  for (std::size_t k = 0; k < found.body_ids.size(); ++k) {
    if (found.main_body < 0) {
      found.main_body = static_cast<int>(k);
      continue;
    }
    const auto best = static_cast<std::size_t>(found.main_body);
    if (found.tracked_samples[k] > found.tracked_samples[best] ||
        (found.tracked_samples[k] == found.tracked_samples[best] && motion_amount[k] > motion_amount[best])) {
      found.main_body = static_cast<int>(k);
    }
  }

  SkeletonMotion<double> motion;
  motion.format = "ntu-skeleton";
  motion.frame_rate = frame_rate;
  motion.frames.resize(frame_count);
  for (std::size_t f = 0; f < frame_count; ++f) {
    SkeletonFrame<double>& frame = motion.frames[f];
    frame.time = static_cast<double>(f) / frame_rate;
    frame.has_orientations = true;
    if (found.main_body < 0) continue;
    for (const internal::NtuBody& body : bodies_per_frame[f]) {
      if (body.id != found.body_ids[static_cast<std::size_t>(found.main_body)]) continue;
      frame = body.frame;
      frame.time = static_cast<double>(f) / frame_rate;
      frame.left_hand = body.left_hand;
      frame.right_hand = body.right_hand;
      kinectFrameToCanonical(frame);
      break;
    }
  }
  if (summary != nullptr) *summary = std::move(found);
  return motion;
}

RETARGET_LAZY_DEF SkeletonMotion<double> readNtuSkeleton(const std::string& path, double frame_rate,
                                                     NtuBodySummary* summary) {
  std::ifstream in = internal::openForReading(path);
  return readNtuSkeleton(in, path, frame_rate, summary);
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
