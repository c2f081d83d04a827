#pragma once

/// @file
/// The four torso frames of seed 000 (Section 3.2) plus the central upper torso frame, built
/// from one skeleton frame. GA-LVVJ reads its angles in them and LLF expresses its links in
/// them, so both use this one function.
///
/// Every frame is a rotation R_WF (columns: the unit axes of F in the skeleton's world frame W)
/// with z along the spine segment and y along the lateral line towards the skeleton's left,
/// made orthogonal to z (Gram-Schmidt), x = y x z forward (seed 000, Eqs. 2-3 and 15-16):
///
/// | frame          | z from -> to              | y from -> to                  |
/// |----------------|---------------------------|-------------------------------|
/// | upper_left     | SpineMid -> SpineShoulder | SpineShoulder -> ShoulderLeft |
/// | upper_right    | SpineMid -> SpineShoulder | ShoulderRight -> SpineShoulder|
/// | lower_left     | SpineBase -> SpineMid     | SpineBase -> HipLeft          |
/// | lower_right    | SpineBase -> SpineMid     | HipRight -> SpineBase         |
/// | upper (head)   | SpineMid -> SpineShoulder | ShoulderRight -> ShoulderLeft |
///
/// A frame is nullopt when one of its four joints is not usable (not tracked or not finite) or
/// when its two vectors are degenerate (zero length, or the lateral line along the spine).

#include <optional>

#include <retarget/core/compilation.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// The torso frames of one skeleton frame (see the file doc), each R_WF or nullopt.
template <typename Scalar>
struct TorsoFrames {
  std::optional<Matrix3<Scalar>> upper_left;
  std::optional<Matrix3<Scalar>> upper_right;
  std::optional<Matrix3<Scalar>> lower_left;
  std::optional<Matrix3<Scalar>> lower_right;
  std::optional<Matrix3<Scalar>> upper;
};

/// One torso frame: z along low -> high, y along lateral_from -> lateral_to (orthogonalised).
/// Nullopt when a joint is not usable or the vectors are degenerate. Never allocates or throws.
template <typename Scalar>
std::optional<Matrix3<Scalar>> torsoFrame(const SkeletonFrame<Scalar>& frame, HumanJoint low, HumanJoint high,
                                          HumanJoint lateral_from, HumanJoint lateral_to) noexcept {
  if (!frame.usable(low) || !frame.usable(high) || !frame.usable(lateral_from) || !frame.usable(lateral_to)) {
    return std::nullopt;
  }
  return frameFromTwoVectors<Scalar>(frame.position(high) - frame.position(low), Axis::kZ,
                                     frame.position(lateral_to) - frame.position(lateral_from), Axis::kY);
}

/// The five torso frames of `frame` (see the file doc). Never allocates or throws.
template <typename Scalar>
TorsoFrames<Scalar> torsoFrames(const SkeletonFrame<Scalar>& frame) noexcept {
  using H = HumanJoint;
  TorsoFrames<Scalar> out;
  out.upper_left = torsoFrame(frame, H::kSpineMid, H::kSpineShoulder, H::kSpineShoulder, H::kShoulderLeft);
  out.upper_right = torsoFrame(frame, H::kSpineMid, H::kSpineShoulder, H::kShoulderRight, H::kSpineShoulder);
  out.lower_left = torsoFrame(frame, H::kSpineBase, H::kSpineMid, H::kSpineBase, H::kHipLeft);
  out.lower_right = torsoFrame(frame, H::kSpineBase, H::kSpineMid, H::kHipRight, H::kSpineBase);
  out.upper = torsoFrame(frame, H::kSpineMid, H::kSpineShoulder, H::kShoulderRight, H::kShoulderLeft);
  return out;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_HUMAN std::optional<Matrix3<double>> torsoFrame<double>(
    const SkeletonFrame<double>&, HumanJoint, HumanJoint, HumanJoint, HumanJoint) noexcept;
RETARGET_TEMPLATE_HUMAN std::optional<Matrix3<float>> torsoFrame<float>(
    const SkeletonFrame<float>&, HumanJoint, HumanJoint, HumanJoint, HumanJoint) noexcept;
RETARGET_TEMPLATE_HUMAN TorsoFrames<double> torsoFrames<double>(const SkeletonFrame<double>&) noexcept;
RETARGET_TEMPLATE_HUMAN TorsoFrames<float> torsoFrames<float>(const SkeletonFrame<float>&) noexcept;
#endif

}  // namespace retarget
