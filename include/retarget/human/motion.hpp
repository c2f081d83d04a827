#pragma once

/// @file
/// A human motion: timestamped canonical skeleton frames (see skeleton.hpp), plus optional
/// extra joints (fingers, toes) that have no core slot.

#include <string>
#include <vector>

#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// A sequence of canonical skeleton frames in time order.
///
/// Invariants: frame times are non-decreasing (seconds from the first frame); when
/// `extra_joint_names` is not empty, `extra_p_W` has one 3 x extra_joint_names.size() matrix
/// per frame (metres, canonical frame W).
template <typename Scalar = double>
struct SkeletonMotion {
  std::vector<SkeletonFrame<Scalar>> frames;
  /// Nominal frame rate in Hz, 0 when unknown (times in the frames are authoritative).
  Scalar frame_rate = Scalar(0);
  /// Where the motion came from, e.g. "kinect-laban-csv", "bvh/axis-neuron", "skeleton-csv".
  std::string format;
  /// Names of extra joints (source names, e.g. "LeftHandIndex1"), in column order.
  std::vector<std::string> extra_joint_names;
  /// Extra joint positions per frame (m, frame W).
  std::vector<Matrix3X<Scalar>> extra_p_W;

  /// Number of frames.
  std::size_t size() const { return frames.size(); }
  bool empty() const { return frames.empty(); }
  /// Seconds from the first to the last frame (0 for fewer than two frames).
  Scalar duration() const { return frames.size() < 2 ? Scalar(0) : frames.back().time - frames.front().time; }
};

using SkeletonMotiond = SkeletonMotion<double>;

}  // namespace retarget
