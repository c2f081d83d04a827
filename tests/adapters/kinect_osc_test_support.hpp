#pragma once

#include <cstring>

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

/// `x` rounded to float32, as a double. Through a volatile float: GCC 12.2 (Debian 12) at -O2 and
/// -O3 miscompiles Eigen::Vector3d(float(a), float(b), float(c)): its SLP vectoriser puts a and b
/// in one register and drops their rounding to float (the scalar third lane is rounded). Clang,
/// GCC at -O1 and GCC with -fno-tree-slp-vectorize round all three. Found when the test preset
/// moved to -O2: the expected wire values kept their double bits.
inline double float32(double x) {
  const volatile float rounded = static_cast<float>(x);
  return rounded;
}

/// The canonical position (frame W, m) a receiver must produce for a joint sent from `p_W`:
/// the sender's float32 Kinect camera-space coordinates, converted back exactly.
inline Eigen::Vector3d oscWireValue(const Eigen::Vector3d& p_W) {
  const Eigen::Vector3d p_K = canonicalToKinect(p_W);
  const Eigen::Vector3d sent(float32(p_K.x()), float32(p_K.y()), float32(p_K.z()));
  return kinectToCanonical(sent);
}

/// True when `got` holds exactly the bits of `expected` (the wire's float32 values carried through
/// unchanged, bit for bit).
inline bool sameBits(const Eigen::Vector3d& got, const Eigen::Vector3d& expected) {
  return std::memcmp(got.data(), expected.data(), sizeof(double) * 3) == 0;
}

}  // namespace retarget::test
