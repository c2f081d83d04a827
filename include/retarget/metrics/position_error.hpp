#pragma once

/// @file
/// Position error of the robot's virtual skeleton against the human's after bringing the robot
/// to the human's size: MPJPE (mean per-joint position error), per link and overall (beyond the
/// seeds).
///
/// A robot is not the human's size, so raw joint positions cannot be compared. Both skeletons are
/// placed with their root (SpineBase) at the origin of their own base frame B (z vertical, y the
/// horizontal hip line HipRight->HipLeft, shoulder line as fallback, x = y x z: the frame of WBF,
/// see metrics/link_similarity.hpp) and chained along `kPositionErrorLinks`. Two ways to bring
/// the robot to the human's size (`PositionErrorScaling`):
///
///  - kUniform: the whole robot skeleton is scaled by one factor, the size ratio
///      s = sum_links |(p_c - p_p)_human| / sum_links |(p_c - p_p)_robot|
///    over the links valid in the frame, so
///      P_h(c) = R_WBh^T (p_c - p_root)_human,   P_r(c) = s R_WBr^T (p_c - p_root)_robot.
///    This is what "MPJPE after scaling" usually means: the error includes the difference in
///    body proportions (a robot with short legs and a big head has its joints away from the
///    human's even when every link points the same way). Zero only for a robot shaped like the
///    human (up to size) in the same pose.
///  - kPerLink: every robot link gets the human's length of that link,
///      P_h(c) = P_h(p) + R_WBh^T (p_c - p_p)_human,
///      P_r(c) = P_r(p) + |(p_c - p_p)_human| R_WBr^T u_r,   u_r the robot link's unit vector,
///    so only link directions count: 0 when every link on the chain from the root points the
///    same way in both bodies, whatever the robot's proportions; a single link turned by angle
///    theta adds 2 L sin(theta / 2) at its end point and every joint further out on that chain.
///
/// The error of link p -> c is e_c = |P_h(c) - P_r(c)| (m, at the human's size); the frame's
/// MPJPE is the mean of e over its valid links. Both are invariant to translations and to
/// rotations of either skeleton about the vertical, and to the robot's overall size.
///
/// A link is valid when both its joints are usable (`SkeletonFrame::usable`) in both skeletons,
/// neither link vector is degenerate, both base frames exist and its parent link is valid (the
/// root has no parent). Invalid links have error 0 and are left out of the means and of s.

#include <array>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

namespace retarget {

/// Number of links of the normalised chain.
inline constexpr int kPositionErrorLinkCount = 15;

/// The normalised chain: (parent joint, child joint) in chain order (a parent always comes
/// before its children); the root is SpineBase.
inline constexpr std::array<std::pair<HumanJoint, HumanJoint>, kPositionErrorLinkCount> kPositionErrorLinks = {{
    {HumanJoint::kSpineBase, HumanJoint::kSpineShoulder},  // torso
    {HumanJoint::kSpineShoulder, HumanJoint::kNeck},       // neck
    {HumanJoint::kNeck, HumanJoint::kHead},                // head
    {HumanJoint::kSpineShoulder, HumanJoint::kShoulderLeft},
    {HumanJoint::kShoulderLeft, HumanJoint::kElbowLeft},
    {HumanJoint::kElbowLeft, HumanJoint::kWristLeft},
    {HumanJoint::kSpineShoulder, HumanJoint::kShoulderRight},
    {HumanJoint::kShoulderRight, HumanJoint::kElbowRight},
    {HumanJoint::kElbowRight, HumanJoint::kWristRight},
    {HumanJoint::kSpineBase, HumanJoint::kHipLeft},
    {HumanJoint::kHipLeft, HumanJoint::kKneeLeft},
    {HumanJoint::kKneeLeft, HumanJoint::kAnkleLeft},
    {HumanJoint::kSpineBase, HumanJoint::kHipRight},
    {HumanJoint::kHipRight, HumanJoint::kKneeRight},
    {HumanJoint::kKneeRight, HumanJoint::kAnkleRight},
}};

/// Names of the links of `kPositionErrorLinks` (named after the end joint whose error they
/// carry).
inline constexpr std::array<const char*, kPositionErrorLinkCount> kPositionErrorLinkNames = {
    "torso",          "neck",           "head",        "left_shoulder", "left_elbow",
    "left_wrist",     "right_shoulder", "right_elbow", "right_wrist",   "left_hip",
    "left_knee",      "left_ankle",     "right_hip",   "right_knee",    "right_ankle"};

/// How the robot's skeleton is brought to the human's size before joint positions are compared
/// (see the file doc).
enum class PositionErrorScaling {
  kPerLink,  ///< Every robot link stretched to the human's length: link directions only.
  kUniform,  ///< The whole robot scaled by the size ratio: directions and body proportions.
};

/// "per-link" or "uniform".
inline const char* positionErrorScalingName(PositionErrorScaling scaling) {
  return scaling == PositionErrorScaling::kUniform ? "uniform" : "per-link";
}

/// Position error of one frame pair. Fixed size: filling it never allocates.
template <typename Scalar = double>
struct FramePositionError {
  std::array<Scalar, kPositionErrorLinkCount> links{};  ///< e per link (m, human size), 0 when invalid.
  std::array<bool, kPositionErrorLinkCount> valid{};
  Scalar mpjpe = Scalar(0);  ///< Mean of e over valid links (m), 0 when none.
  int valid_links = 0;
  /// Size ratio s: the human's summed valid link lengths over the robot's (the factor kUniform
  /// scales the robot by; informative for kPerLink too). 0 when no link is valid.
  Scalar size_ratio = Scalar(0);
};

namespace internal::position_error {

template <typename Scalar>
std::optional<Matrix3<Scalar>> baseFrame(const SkeletonFrame<Scalar>& f) {
  for (const auto& [right, left] : {std::pair{HumanJoint::kHipRight, HumanJoint::kHipLeft},
                                    std::pair{HumanJoint::kShoulderRight, HumanJoint::kShoulderLeft}}) {
    if (!f.usable(right) || !f.usable(left)) continue;
    const Vector3<Scalar> lateral = f.position(left) - f.position(right);
    auto R = frameFromTwoVectors<Scalar>(Vector3<Scalar>::UnitZ(), Axis::kZ, lateral, Axis::kY);
    if (R) return R;
  }
  return std::nullopt;
}

}  // namespace internal::position_error

/// Position error (see the file doc) of `robot` (the robot's virtual skeleton, e.g. from
/// `VirtualSkeleton::compute`) against `human`; both canonical frames in metres. `scaling` says
/// how the robot is brought to the human's size. Never allocates or throws. Returns
/// kDegenerateInput when some link was invalid (the valid ones are still filled; the mean is over
/// them, 0 when none).
template <typename Scalar>
Status framePositionError(const SkeletonFrame<Scalar>& human, const SkeletonFrame<Scalar>& robot,
                          FramePositionError<Scalar>& out,
                          PositionErrorScaling scaling = PositionErrorScaling::kPerLink) noexcept {
  out = FramePositionError<Scalar>{};
  const auto R_WBh = internal::position_error::baseFrame(human);
  const auto R_WBr = internal::position_error::baseFrame(robot);
  // P_h: the human's joints in B_h from the root. P_r: the robot's, stretched link by link to the
  // human's lengths (kPerLink) or as they are, to be scaled once the size ratio is known (kUniform).
  std::array<Vector3<Scalar>, kHumanJointCount> P_h{}, P_r{};
  std::array<bool, kHumanJointCount> placed{};
  placed[static_cast<std::size_t>(HumanJoint::kSpineBase)] = R_WBh.has_value() && R_WBr.has_value();
  P_h[static_cast<std::size_t>(HumanJoint::kSpineBase)].setZero();
  P_r[static_cast<std::size_t>(HumanJoint::kSpineBase)].setZero();
  Scalar length_h = Scalar(0), length_r = Scalar(0);
  for (int l = 0; l < kPositionErrorLinkCount; ++l) {
    const auto [parent, child] = kPositionErrorLinks[static_cast<std::size_t>(l)];
    const auto p = static_cast<std::size_t>(parent), c = static_cast<std::size_t>(child);
    if (!placed[p] || !human.usable(parent) || !human.usable(child) || !robot.usable(parent) || !robot.usable(child)) {
      continue;
    }
    const Vector3<Scalar> v_h = human.position(child) - human.position(parent);
    const Vector3<Scalar> v_r = robot.position(child) - robot.position(parent);
    if (!internal::usableVector(v_h) || !internal::usableVector(v_r)) continue;
    P_h[c] = P_h[p] + R_WBh->transpose() * v_h;
    P_r[c] = scaling == PositionErrorScaling::kUniform
                 ? Vector3<Scalar>(P_r[p] + R_WBr->transpose() * v_r)
                 : Vector3<Scalar>(P_r[p] + v_h.norm() * (R_WBr->transpose() * v_r.normalized()));
    placed[c] = true;
    out.valid[static_cast<std::size_t>(l)] = true;
    ++out.valid_links;
    length_h += v_h.norm();
    length_r += v_r.norm();
  }
  if (out.valid_links == 0) return Status{StatusCode::kDegenerateInput};
  out.size_ratio = length_h / length_r;
  const Scalar s = scaling == PositionErrorScaling::kUniform ? out.size_ratio : Scalar(1);
  Scalar sum = Scalar(0);
  for (int l = 0; l < kPositionErrorLinkCount; ++l) {
    if (!out.valid[static_cast<std::size_t>(l)]) continue;
    const auto c = static_cast<std::size_t>(kPositionErrorLinks[static_cast<std::size_t>(l)].second);
    out.links[static_cast<std::size_t>(l)] = (P_h[c] - s * P_r[c]).norm();
    sum += out.links[static_cast<std::size_t>(l)];
  }
  out.mpjpe = sum / static_cast<Scalar>(out.valid_links);
  return out.valid_links == kPositionErrorLinkCount ? Status{} : Status{StatusCode::kDegenerateInput};
}

/// Position error over a whole motion.
struct MotionPositionError {
  std::vector<double> frame_mpjpe;  ///< Per frame (m), 0 for a frame with no valid link.
  /// Mean of e over every valid (frame, link) sample (m): the motion's MPJPE.
  double mpjpe = 0;
  double max = 0;  ///< Largest e over the valid samples (m).
  std::array<double, kPositionErrorLinkCount> link_mean{};  ///< Per link, over frames where valid (m).
  std::array<double, kPositionErrorLinkCount> link_max{};
  std::array<int, kPositionErrorLinkCount> link_frames{};  ///< Frames where the link was valid.
  int degenerate_frames = 0;  ///< Frames with at least one invalid link.
  PositionErrorScaling scaling = PositionErrorScaling::kPerLink;  ///< How the robot was brought to size.
  /// Mean size ratio s (human's summed link lengths over the robot's) over the frames with a
  /// valid link; 0 when there is none.
  double size_ratio = 0;
};

/// Position error of the robot at `q` (frames x nq, rad; one row per motion frame) against
/// `human`, the robot side from `robot_view` (its virtual skeleton by FK), brought to the human's
/// size as `scaling` says. Throws InvalidArgument when q has not one row per frame or not nq
/// columns. Allocates the result.
template <typename Scalar, typename Derived>
MotionPositionError motionPositionError(VirtualSkeleton<Scalar>& robot_view, const SkeletonMotion<Scalar>& human,
                                        const Eigen::MatrixBase<Derived>& q,
                                        PositionErrorScaling scaling = PositionErrorScaling::kPerLink) {
  RETARGET_THROW_UNLESS(static_cast<std::size_t>(q.rows()) == human.size(), InvalidArgument,
                        "joint rows (got ", q.rows(), ", expected one per motion frame: ", human.size(), ")");
  RETARGET_THROW_UNLESS(q.cols() == robot_view.model().nq(), InvalidArgument, "joint columns (got ", q.cols(),
                        ", expected nq = ", robot_view.model().nq(), ")");
  MotionPositionError out;
  out.scaling = scaling;
  out.frame_mpjpe.resize(human.size());
  SkeletonFrame<Scalar> robot;
  FramePositionError<Scalar> frame;
  std::array<double, kPositionErrorLinkCount> link_sum{};
  double total = 0, ratio_sum = 0;
  int samples = 0, ratio_frames = 0;
  VectorX<Scalar> qk(q.cols());
  for (std::size_t k = 0; k < human.size(); ++k) {
    // Into a block of qk (its size never changes): a whole-vector assignment goes through Eigen's
    // resize path, where GCC 12 at -O3 reports a false -Wuse-after-free.
    qk.head(qk.size()) = q.row(static_cast<Eigen::Index>(k)).transpose().template cast<Scalar>();
    Status status = robot_view.compute(qk, robot);
    if (!status.ok()) {
      robot = SkeletonFrame<Scalar>{};
    }
    status |= framePositionError(human.frames[k], robot, frame, scaling);
    out.degenerate_frames += status.ok() ? 0 : 1;
    if (frame.valid_links > 0) {
      ratio_sum += static_cast<double>(frame.size_ratio);
      ++ratio_frames;
    }
    out.frame_mpjpe[k] = static_cast<double>(frame.mpjpe);
    for (std::size_t l = 0; l < kPositionErrorLinkCount; ++l) {
      if (!frame.valid[l]) continue;
      const auto e = static_cast<double>(frame.links[l]);
      link_sum[l] += e;
      out.link_max[l] = std::max(out.link_max[l], e);
      ++out.link_frames[l];
      total += e;
      ++samples;
      out.max = std::max(out.max, e);
    }
  }
  for (std::size_t l = 0; l < kPositionErrorLinkCount; ++l) {
    if (out.link_frames[l] > 0) out.link_mean[l] = link_sum[l] / out.link_frames[l];
  }
  if (samples > 0) out.mpjpe = total / samples;
  if (ratio_frames > 0) out.size_ratio = ratio_sum / ratio_frames;
  return out;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_METRICS Status framePositionError<double>(const SkeletonFrame<double>&, const SkeletonFrame<double>&,
                                                            FramePositionError<double>&, PositionErrorScaling) noexcept;
RETARGET_TEMPLATE_METRICS Status framePositionError<float>(const SkeletonFrame<float>&, const SkeletonFrame<float>&,
                                                           FramePositionError<float>&, PositionErrorScaling) noexcept;
RETARGET_TEMPLATE_METRICS MotionPositionError motionPositionError<double, MatrixX<double>>(
    VirtualSkeleton<double>&, const SkeletonMotion<double>&, const Eigen::MatrixBase<MatrixX<double>>&,
    PositionErrorScaling);
RETARGET_TEMPLATE_METRICS MotionPositionError motionPositionError<float, MatrixX<float>>(
    VirtualSkeleton<float>&, const SkeletonMotion<float>&, const Eigen::MatrixBase<MatrixX<float>>&,
    PositionErrorScaling);
#endif

}  // namespace retarget
