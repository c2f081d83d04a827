#pragma once

// What a KinectV2-OSC sender puts on the wire, for the assembler and source tests.

#include <retarget/human/frames.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget::test {

/// The sender's name of a tracking state.
inline const char* oscTrackingStateName(TrackingState state) {
  switch (state) {
    case TrackingState::kTracked:
      return "Tracked";
    case TrackingState::kInferred:
      return "Inferred";
    case TrackingState::kNotTracked:
      break;
  }
  return "NotTracked";
}

/// The canonical position (frame W, m) a receiver must produce for a joint sent from `p_W`:
/// the sender's float32 Kinect camera-space coordinates, converted back exactly.
inline Eigen::Vector3d oscWireValue(const Eigen::Vector3d& p_W) {
  const Eigen::Vector3d p_K = canonicalToKinect(p_W);
  const Eigen::Vector3d sent(static_cast<float>(p_K.x()), static_cast<float>(p_K.y()), static_cast<float>(p_K.z()));
  return kinectToCanonical(sent);
}

}  // namespace retarget::test
