#pragma once

/// @file
/// Keypoint schemas: how the keypoints of a 3D pose detector map onto the canonical skeleton.
/// Built in: MediaPipe Pose (33 world landmarks) and OpenPose BODY_25 (3D).
///
/// Each canonical joint is a weighted sum of up to four keypoints (derived joints such as
/// SpineBase = mid-hips), expressed in the detector's frame S and converted once into the
/// canonical frame W: p_W = scale * R_WS * p_S.
///
/// **MediaPipe Pose** (`mediaPipePoseSchema()`): the 33 landmarks `nose`, `left_eye_inner`, ...,
/// `right_foot_index` (MediaPipe's own names and order). World landmarks are metres with the
/// origin between the hips and the image axes: x toward the image right, y down, z away from
/// the camera. For a person facing an unmirrored camera the image right is the person's left,
/// so forward = -z_S, left = +x_S, up = -y_S. Canonical joints:
///   SpineBase = (left_hip + right_hip) / 2;  SpineShoulder = (left_shoulder + right_shoulder) / 2;
///   SpineMid = mean of both hips and both shoulders;  Head = (left_ear + right_ear) / 2;
///   Neck = 3/4 SpineShoulder + 1/4 Head;  Shoulder/Elbow/Wrist/Hip/Knee/Ankle = the landmark;
///   Hand = 1/2 wrist + 1/4 pinky + 1/4 index;  HandTip = index;  Thumb = thumb;
///   Foot = foot_index.
/// The tracking state comes from `visibility` (tracked when >= the threshold, else inferred).
///
/// **OpenPose BODY_25** (`openPoseBody25Schema()`): the 25 keypoints `Nose`, `Neck`,
/// `RShoulder`, ..., `RHeel` (OpenPose's names and order). 3D keypoints are taken in the
/// OpenCV camera frame (x right, y down, z away from the camera) in metres (pass a scale of
/// 0.001 for millimetres); forward = -z_S, left = +x_S, up = -y_S as above. Canonical joints:
///   SpineBase = MidHip;  SpineShoulder = Neck (OpenPose's neck is the mid-shoulder point);
///   SpineMid = (MidHip + Neck) / 2;  Head = (LEar + REar) / 2;  Neck = 3/4 Neck + 1/4 Head;
///   Shoulder/Elbow/Wrist/Hip/Knee/Ankle = the keypoint;  Foot = (BigToe + SmallToe) / 2;
///   Hand = the wrist, at most *inferred* (BODY_25 has no hand keypoints);
///   HandTip and Thumb: not tracked (position = the wrist).
/// The state comes from the confidence `c`: 0 (OpenPose's "not detected", with zero
/// coordinates) -> not tracked; below the threshold -> inferred; else tracked.
///
/// A derived joint takes the weakest state of its keypoints (capped by `max_state`).

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// One keypoint's contribution to a canonical joint.
struct KeypointTerm {
  int keypoint = 0;     ///< Index into `KeypointSchema::keypoint_names`.
  double weight = 1.0;  ///< Weight of its position (the weights of a joint sum to 1).
};

/// Where a canonical joint comes from: sum of `weight * p_keypoint` over the first `count` terms.
struct KeypointJointSource {
  std::array<KeypointTerm, 4> terms{};
  int count = 0;
  /// Best tracking state this joint can have (kInferred for guessed joints, kNotTracked for
  /// joints the detector does not provide).
  TrackingState max_state = TrackingState::kTracked;
};

/// A keypoint detector's layout and its mapping onto the canonical skeleton.
struct KeypointSchema {
  /// Schema name, e.g. "mediapipe-pose", also used as `SkeletonMotion::format` suffix.
  std::string name;
  /// Keypoint names in the detector's order.
  std::vector<std::string> keypoint_names;
  /// Column suffix of the per-keypoint confidence in CSV files ("visibility", "c").
  std::string confidence_name;
  /// True when a confidence of 0 marks a keypoint as not detected (OpenPose).
  bool zero_confidence_means_missing = false;
  /// Rotation from the detector frame S into the canonical frame W.
  Eigen::Matrix3d R_WS = Eigen::Matrix3d::Identity();
  /// Source of every canonical joint, indexed by `HumanJoint`.
  std::array<KeypointJointSource, kHumanJointCount> joints{};

  /// Index of the keypoint named `keypoint_name`, or -1.
  RETARGET_LAZY_DECL int findKeypoint(const std::string& keypoint_name) const;
};

namespace internal {

/// Detector frame of image-aligned cameras (x right, y down, z away), person facing the camera:
/// forward = -z, left = +x, up = -y.
RETARGET_LAZY_DECL Eigen::Matrix3d imageAxesToCanonical();

RETARGET_LAZY_DECL KeypointJointSource keypointSource(std::initializer_list<KeypointTerm> terms,
                                                 TrackingState max_state = TrackingState::kTracked);

}  // namespace internal

/// The MediaPipe Pose schema (33 world landmarks; see the file doc).
RETARGET_LAZY_DECL const KeypointSchema& mediaPipePoseSchema();

/// The OpenPose BODY_25 schema (3D keypoints; see the file doc).
RETARGET_LAZY_DECL const KeypointSchema& openPoseBody25Schema();

/// Tracking state of one keypoint from its confidence (see the file doc for the rules);
/// `has_confidence` false means the source gave none (tracked unless OpenPose-style all-zero).
RETARGET_LAZY_DECL TrackingState keypointState(const KeypointSchema& schema, const Eigen::Vector3d& p_S, bool has_confidence,
                                          double confidence, double tracked_threshold) noexcept;

/// Fills the canonical joints of `frame` (positions and states; time and hands untouched) from
/// one frame of keypoints: `p_S` is 3 x K in the detector frame (source units), `state` has
/// one state per keypoint, `scale` is metres per source unit. Never allocates or throws.
RETARGET_LAZY_DECL void keypointsToSkeleton(const KeypointSchema& schema, const Eigen::Ref<const Eigen::Matrix3Xd>& p_S,
                                       const std::vector<TrackingState>& state, double scale,
                                       SkeletonFrame<double>& frame) noexcept;

#if RETARGET_DEFINE_HUMAN

namespace internal {

RETARGET_LAZY_DEF Eigen::Matrix3d imageAxesToCanonical() {
  Eigen::Matrix3d R_WS;
  R_WS << 0, 0, -1,  //
      1, 0, 0,       //
      0, -1, 0;
  return R_WS;
}

RETARGET_LAZY_DEF KeypointJointSource keypointSource(std::initializer_list<KeypointTerm> terms,
                                                 TrackingState max_state) {
  KeypointJointSource source;
  for (const KeypointTerm& term : terms) source.terms[static_cast<std::size_t>(source.count++)] = term;
  source.max_state = max_state;
  return source;
}

}  // namespace internal

RETARGET_LAZY_DEF const KeypointSchema& mediaPipePoseSchema() {
  static const KeypointSchema kSchema = [] {
    using internal::keypointSource;
    using HJ = HumanJoint;  // HJ, not J: a program including this may have its own J
    KeypointSchema s;
    s.name = "mediapipe-pose";
    s.keypoint_names = {"nose",           "left_eye_inner", "left_eye",       "left_eye_outer", "right_eye_inner",
                        "right_eye",      "right_eye_outer", "left_ear",      "right_ear",      "mouth_left",
                        "mouth_right",    "left_shoulder",  "right_shoulder", "left_elbow",     "right_elbow",
                        "left_wrist",     "right_wrist",    "left_pinky",     "right_pinky",    "left_index",
                        "right_index",    "left_thumb",     "right_thumb",    "left_hip",       "right_hip",
                        "left_knee",      "right_knee",     "left_ankle",     "right_ankle",    "left_heel",
                        "right_heel",     "left_foot_index", "right_foot_index"};
    s.confidence_name = "visibility";
    s.R_WS = internal::imageAxesToCanonical();
    auto set = [&s](HJ joint, KeypointJointSource source) { s.joints[static_cast<std::size_t>(index(joint))] = source; };
    set(HJ::kSpineBase, keypointSource({{23, 0.5}, {24, 0.5}}));
    set(HJ::kSpineShoulder, keypointSource({{11, 0.5}, {12, 0.5}}));
    set(HJ::kSpineMid, keypointSource({{11, 0.25}, {12, 0.25}, {23, 0.25}, {24, 0.25}}));
    set(HJ::kHead, keypointSource({{7, 0.5}, {8, 0.5}}));
    set(HJ::kNeck, keypointSource({{11, 0.375}, {12, 0.375}, {7, 0.125}, {8, 0.125}}));
    set(HJ::kShoulderLeft, keypointSource({{11, 1}}));
    set(HJ::kElbowLeft, keypointSource({{13, 1}}));
    set(HJ::kWristLeft, keypointSource({{15, 1}}));
    set(HJ::kHandLeft, keypointSource({{15, 0.5}, {17, 0.25}, {19, 0.25}}));
    set(HJ::kHandTipLeft, keypointSource({{19, 1}}));
    set(HJ::kThumbLeft, keypointSource({{21, 1}}));
    set(HJ::kShoulderRight, keypointSource({{12, 1}}));
    set(HJ::kElbowRight, keypointSource({{14, 1}}));
    set(HJ::kWristRight, keypointSource({{16, 1}}));
    set(HJ::kHandRight, keypointSource({{16, 0.5}, {18, 0.25}, {20, 0.25}}));
    set(HJ::kHandTipRight, keypointSource({{20, 1}}));
    set(HJ::kThumbRight, keypointSource({{22, 1}}));
    set(HJ::kHipLeft, keypointSource({{23, 1}}));
    set(HJ::kKneeLeft, keypointSource({{25, 1}}));
    set(HJ::kAnkleLeft, keypointSource({{27, 1}}));
    set(HJ::kFootLeft, keypointSource({{31, 1}}));
    set(HJ::kHipRight, keypointSource({{24, 1}}));
    set(HJ::kKneeRight, keypointSource({{26, 1}}));
    set(HJ::kAnkleRight, keypointSource({{28, 1}}));
    set(HJ::kFootRight, keypointSource({{32, 1}}));
    return s;
  }();
  return kSchema;
}

RETARGET_LAZY_DEF const KeypointSchema& openPoseBody25Schema() {
  static const KeypointSchema kSchema = [] {
    using internal::keypointSource;
    using HJ = HumanJoint;  // HJ, not J: a program including this may have its own J
    KeypointSchema s;
    s.name = "openpose-body25";
    s.keypoint_names = {"Nose",   "Neck",  "RShoulder", "RElbow",  "RWrist",    "LShoulder", "LElbow",
                        "LWrist", "MidHip", "RHip",     "RKnee",   "RAnkle",    "LHip",      "LKnee",
                        "LAnkle", "REye",  "LEye",      "REar",    "LEar",      "LBigToe",   "LSmallToe",
                        "LHeel",  "RBigToe", "RSmallToe", "RHeel"};
    s.confidence_name = "c";
    s.zero_confidence_means_missing = true;
    s.R_WS = internal::imageAxesToCanonical();
    auto set = [&s](HJ joint, KeypointJointSource source) { s.joints[static_cast<std::size_t>(index(joint))] = source; };
    set(HJ::kSpineBase, keypointSource({{8, 1}}));
    set(HJ::kSpineShoulder, keypointSource({{1, 1}}));
    set(HJ::kSpineMid, keypointSource({{8, 0.5}, {1, 0.5}}));
    set(HJ::kHead, keypointSource({{17, 0.5}, {18, 0.5}}));
    set(HJ::kNeck, keypointSource({{1, 0.75}, {17, 0.125}, {18, 0.125}}));
    set(HJ::kShoulderLeft, keypointSource({{5, 1}}));
    set(HJ::kElbowLeft, keypointSource({{6, 1}}));
    set(HJ::kWristLeft, keypointSource({{7, 1}}));
    set(HJ::kHandLeft, keypointSource({{7, 1}}, TrackingState::kInferred));
    set(HJ::kHandTipLeft, keypointSource({{7, 1}}, TrackingState::kNotTracked));
    set(HJ::kThumbLeft, keypointSource({{7, 1}}, TrackingState::kNotTracked));
    set(HJ::kShoulderRight, keypointSource({{2, 1}}));
    set(HJ::kElbowRight, keypointSource({{3, 1}}));
    set(HJ::kWristRight, keypointSource({{4, 1}}));
    set(HJ::kHandRight, keypointSource({{4, 1}}, TrackingState::kInferred));
    set(HJ::kHandTipRight, keypointSource({{4, 1}}, TrackingState::kNotTracked));
    set(HJ::kThumbRight, keypointSource({{4, 1}}, TrackingState::kNotTracked));
    set(HJ::kHipLeft, keypointSource({{12, 1}}));
    set(HJ::kKneeLeft, keypointSource({{13, 1}}));
    set(HJ::kAnkleLeft, keypointSource({{14, 1}}));
    set(HJ::kFootLeft, keypointSource({{19, 0.5}, {20, 0.5}}));
    set(HJ::kHipRight, keypointSource({{9, 1}}));
    set(HJ::kKneeRight, keypointSource({{10, 1}}));
    set(HJ::kAnkleRight, keypointSource({{11, 1}}));
    set(HJ::kFootRight, keypointSource({{22, 0.5}, {23, 0.5}}));
    return s;
  }();
  return kSchema;
}

RETARGET_LAZY_DEF TrackingState keypointState(const KeypointSchema& schema, const Eigen::Vector3d& p_S, bool has_confidence,
                                          double confidence, double tracked_threshold) noexcept {
  if (schema.zero_confidence_means_missing) {
    if (has_confidence ? confidence <= 0 : p_S.isZero(0)) return TrackingState::kNotTracked;
  }
  if (!has_confidence) return TrackingState::kTracked;
  return confidence >= tracked_threshold ? TrackingState::kTracked : TrackingState::kInferred;
}

RETARGET_LAZY_DEF void keypointsToSkeleton(const KeypointSchema& schema, const Eigen::Ref<const Eigen::Matrix3Xd>& p_S,
                                       const std::vector<TrackingState>& state, double scale,
                                       SkeletonFrame<double>& frame) noexcept {
  for (int j = 0; j < kHumanJointCount; ++j) {
    const KeypointJointSource& source = schema.joints[static_cast<std::size_t>(j)];
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    TrackingState weakest = source.max_state;
    for (int t = 0; t < source.count; ++t) {
      const KeypointTerm& term = source.terms[static_cast<std::size_t>(t)];
      sum += term.weight * p_S.col(term.keypoint);
      const TrackingState s = state[static_cast<std::size_t>(term.keypoint)];
      if (static_cast<int>(s) < static_cast<int>(weakest)) weakest = s;
    }
    if (source.count == 0) weakest = TrackingState::kNotTracked;
    frame.p_W[static_cast<std::size_t>(j)] = scale * (schema.R_WS * sum);
    frame.state[static_cast<std::size_t>(j)] = weakest;
  }
}

RETARGET_LAZY_DEF int KeypointSchema::findKeypoint(const std::string& keypoint_name) const {
  for (std::size_t k = 0; k < keypoint_names.size(); ++k) {
    if (keypoint_names[k] == keypoint_name) return static_cast<int>(k);
  }
  return -1;
}

#endif  // RETARGET_DEFINE_HUMAN

}  // namespace retarget
