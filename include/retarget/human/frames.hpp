#pragma once

/// @file
/// Fixed transforms from native source frames into the canonical human frame W (metres,
/// x forward, y left, z up; see skeleton.hpp).
///
/// Kinect v2 camera space K (also used by NTU RGB+D): metres, origin at the IR sensor, x to
/// the sensor's left, y up, z away from the sensor toward the person. For a person facing the
/// sensor, the person's right side has the larger x (checked on the Laban recordings:
/// ShoulderRight x = +0.167, ShoulderLeft x = -0.182). So, for that person,
///   forward (toward the sensor)   = -z_K,
///   left    (their left side)     = -x_K,
///   up                            = +y_K,
/// which gives the proper rotation (det = +1)
///
///           [  0  0 -1 ]
///   R_WK =  [ -1  0  0 ]      p_W = R_WK p_K,   R_WJ = R_WK R_KJ.
///           [  0  1  0 ]
///
/// The origin stays at the sensor (no re-centring), so a person 2.7 m in front of the camera
/// stands near x = -2.7 m in W, and the floor is at z ≈ -(sensor height). Because R_WK is a
/// signed permutation, positions convert exactly (bit for bit) in both directions.

#include <retarget/core/compilation.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Rotation R_WK from Kinect v2 camera space K into the canonical frame W (see the file doc).
template <typename Scalar = double>
Matrix3<Scalar> kinectToCanonicalRotation() {
  Matrix3<Scalar> R_WK;
  R_WK << Scalar(0), Scalar(0), Scalar(-1),  //
      Scalar(-1), Scalar(0), Scalar(0),      //
      Scalar(0), Scalar(1), Scalar(0);
  return R_WK;
}

/// A point p_K in Kinect camera space (m) expressed in the canonical frame W (m). Exact.
template <typename Scalar>
Vector3<Scalar> kinectToCanonical(const Vector3<Scalar>& p_K) {
  return Vector3<Scalar>(-p_K.z(), -p_K.x(), p_K.y());
}

/// A point p_W in the canonical frame W (m) expressed in Kinect camera space K (m). Exact
/// inverse of kinectToCanonical.
template <typename Scalar>
Vector3<Scalar> canonicalToKinect(const Vector3<Scalar>& p_W) {
  return Vector3<Scalar>(-p_W.y(), p_W.z(), -p_W.x());
}

/// A joint orientation R_KJ given in Kinect camera space, as R_WJ = R_WK R_KJ.
template <typename Scalar>
Quaternion<Scalar> kinectToCanonical(const Quaternion<Scalar>& R_KJ) {
  return Quaternion<Scalar>(kinectToCanonicalRotation<Scalar>()) * R_KJ;
}

/// A canonical joint orientation R_WJ, as R_KJ = R_WK^T R_WJ (Kinect camera space).
template <typename Scalar>
Quaternion<Scalar> canonicalToKinect(const Quaternion<Scalar>& R_WJ) {
  return Quaternion<Scalar>(kinectToCanonicalRotation<Scalar>()).conjugate() * R_WJ;
}

/// Converts a frame whose positions and orientations are in Kinect camera space into the
/// canonical frame, in place. Per-frame safe: never allocates, never throws.
template <typename Scalar>
void kinectFrameToCanonical(SkeletonFrame<Scalar>& frame) noexcept {
  for (auto& p : frame.p_W) p = kinectToCanonical<Scalar>(p);
  if (frame.has_orientations) {
    for (auto& R : frame.R_WJ) R = kinectToCanonical<Scalar>(R);
  }
}

/// Converts a canonical frame into Kinect camera space, in place (inverse of
/// kinectFrameToCanonical). Never allocates, never throws.
template <typename Scalar>
void canonicalFrameToKinect(SkeletonFrame<Scalar>& frame) noexcept {
  for (auto& p : frame.p_W) p = canonicalToKinect<Scalar>(p);
  if (frame.has_orientations) {
    for (auto& R : frame.R_WJ) R = canonicalToKinect<Scalar>(R);
  }
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_HUMAN void kinectFrameToCanonical<double>(SkeletonFrame<double>&) noexcept;
RETARGET_TEMPLATE_HUMAN void kinectFrameToCanonical<float>(SkeletonFrame<float>&) noexcept;
RETARGET_TEMPLATE_HUMAN void canonicalFrameToKinect<double>(SkeletonFrame<double>&) noexcept;
RETARGET_TEMPLATE_HUMAN void canonicalFrameToKinect<float>(SkeletonFrame<float>&) noexcept;
#endif

}  // namespace retarget
