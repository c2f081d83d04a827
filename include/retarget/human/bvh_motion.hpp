#pragma once

/// @file
/// A BVH (Biovision Hierarchy) motion in memory: the joint hierarchy with its channels and the
/// per-frame channel values (`BvhMotion`), local joint rotations and translations, and forward
/// kinematics (`bvhGlobalPoses`, `bvhGlobalPositions`). Reading and writing BVH files is in
/// retarget/io/bvh.hpp; mappers that work on local rotations (Euler/BVH) need only this header.
///
/// Conventions (the de-facto BVH ones, also what Assimp implements):
/// - Values are in file units (often cm) and degrees, exactly as in the file.
/// - A joint's local rotation is the product of its rotation channels in file order,
///   `R = R_a1(v1) * R_a2(v2) * R_a3(v3)` (intrinsic rotations, right-handed, angles in degrees).
/// - A joint's local translation is its OFFSET, with each position channel replacing the matching
///   component (a joint with only `Yposition` keeps OFFSET x and z).
/// - The pose of a joint J in its parent P is `X_PJ = [R | t]`; global poses chain from the root.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>

namespace retarget {

/// One BVH channel: a translation along, or a rotation about, an axis of the joint's parent frame.
enum class BvhChannel : std::uint8_t { kXposition, kYposition, kZposition, kXrotation, kYrotation, kZrotation };

/// BVH name of a channel ("Xposition", ..., "Zrotation").
constexpr std::string_view bvhChannelName(BvhChannel channel) {
  constexpr std::string_view kNames[] = {"Xposition", "Yposition", "Zposition",
                                         "Xrotation", "Yrotation", "Zrotation"};
  return kNames[static_cast<int>(channel)];
}
/// True for the three rotation channels.
constexpr bool isRotation(BvhChannel channel) { return static_cast<int>(channel) >= 3; }
/// Axis index of a channel: 0 for X, 1 for Y, 2 for Z.
constexpr int bvhChannelAxis(BvhChannel channel) { return static_cast<int>(channel) % 3; }

/// One joint (or End Site) of a BVH hierarchy.
struct BvhJoint {
  /// Joint name from the file. End Sites have no name in BVH; they get "<parent name>_End"
  /// (with a number appended, "_End2", ... when a parent has several End Sites).
  std::string name;
  /// Index of the parent in `BvhMotion::joints`, -1 for a root.
  int parent = -1;
  /// OFFSET: position of this joint's origin in the parent frame, file units.
  Eigen::Vector3d offset = Eigen::Vector3d::Zero();
  /// Channels in file order (empty for End Sites).
  std::vector<BvhChannel> channels;
  /// Index of this joint's first channel in a frame's value row.
  int first_channel = 0;
  /// True for an End Site (no channels, no children).
  bool is_end_site = false;
};

/// One frame's channel values (file order, file units and degrees) as a vector view: the input of
/// rotation-based mappers (see mappers/mapper.hpp). Binds a `BvhMotion::frameValues(f)` row or
/// any contiguous VectorXd without copying.
using BvhChannelValues = Eigen::Ref<const Eigen::VectorXd>;

/// A BVH motion: the hierarchy and the raw channel values of every frame.
///
/// Invariants (established by the reader, checked by `validateBvh` and the writer): joints are in
/// depth-first file order (parents before children); `first_channel` values are the running sum
/// of the channel counts in joint order; `channel_count` is their total; `values.size() ==
/// frame_count * channel_count`.
struct BvhMotion {
  /// Joints and End Sites in depth-first file order.
  std::vector<BvhJoint> joints;
  /// Seconds per frame (`Frame Time`).
  double frame_time = 0;
  /// Number of frames.
  int frame_count = 0;
  /// Values per frame (sum of all joints' channel counts).
  int channel_count = 0;
  /// frame_count x channel_count values, row-major, file units and degrees.
  std::vector<double> values;
  /// Where the motion came from, for messages: the file name given to the reader (`readBvh`,
  /// `parseBvh`); empty for a motion built in memory.
  std::string source;

  /// Index of the joint (or End Site) with this exact name, -1 when absent.
  RETARGET_LAZY_DECL int findJoint(std::string_view joint_name) const;

  /// Number of joints, without End Sites when `include_end_sites` is false.
  RETARGET_LAZY_DECL int jointCount(bool include_end_sites = false) const;

  /// Number of roots (joints without a parent).
  RETARGET_LAZY_DECL int rootCount() const;

  /// Frames per second (1 / frame_time), 0 when frame_time is not positive.
  double frameRate() const { return frame_time > 0 ? 1.0 / frame_time : 0.0; }

  /// Seconds covered by the frames, frame_count * frame_time.
  double duration() const { return frame_count * frame_time; }

  /// Value row of frame `f` (channel_count values). Precondition 0 <= f < frame_count.
  const double* frame(int f) const {
    RETARGET_DEBUG_ASSERT(f >= 0 && f < frame_count);
    return values.data() + static_cast<std::size_t>(f) * static_cast<std::size_t>(channel_count);
  }
  /// Value row of frame `f` as a vector of `channel_count` values (a view, no copy).
  RETARGET_LAZY_DECL Eigen::Map<const Eigen::VectorXd> frameValues(int f) const;
  /// Mutable value row of frame `f`.
  double* frame(int f) {
    RETARGET_DEBUG_ASSERT(f >= 0 && f < frame_count);
    return values.data() + static_cast<std::size_t>(f) * static_cast<std::size_t>(channel_count);
  }

  /// Rotation R_PJ of joint `joint`'s frame in its parent's frame at frame `f`: the product of
  /// its rotation channels in file order, R = R_axis1(v1) * R_axis2(v2) * R_axis3(v3) (intrinsic,
  /// degrees in the file); identity when it has none. Never allocates or throws.
  RETARGET_LAZY_DECL Eigen::Quaterniond localRotation(int f, int joint) const;

  /// Translation p_PJ of joint `joint`'s origin in its parent's frame at frame `f` (file units):
  /// OFFSET, with each position channel replacing the matching component (partial position
  /// channels keep the OFFSET's other components). Never allocates or throws.
  RETARGET_LAZY_DECL Eigen::Vector3d localTranslation(int f, int joint) const;

  /// Recomputes `first_channel` of every joint (running sum in joint order) and
  /// `channel_count`. Does not resize `values`. Use after building a hierarchy by hand.
  RETARGET_LAZY_DECL void assignChannelIndices();
};

/// Checks the invariants of `BvhMotion` (see its doc): parent indices, End Sites without
/// channels or children, channel layout, value count, finite values and a non-negative frame
/// time. Throws `retarget::InvalidArgument` naming the first violation.
RETARGET_LAZY_DECL void validateBvh(const BvhMotion& motion);

/// A copy of `motion` holding one frame, the rest pose: every rotation channel 0 and every
/// position channel at its OFFSET component (for most rigs a T-pose). Same hierarchy and frame time.
RETARGET_LAZY_DECL BvhMotion bvhRestPose(const BvhMotion& motion);

/// Global pose X_WJ of every joint (and End Site) at frame `f`, in the file's world frame and
/// units: X_WJ = X_WP * X_PJ with X_PJ = [localRotation | localTranslation]. Roots are placed
/// directly in W. `X_WJ` is resized to the joint count (allocates only when its size changes).
/// Never throws; precondition 0 <= f < frame_count.
RETARGET_LAZY_DECL void bvhGlobalPoses(const BvhMotion& motion, int f, std::vector<Eigen::Isometry3d>& X_WJ);

/// Global positions p_WJ (file units, one column per joint and End Site) at frame `f`; a
/// cheaper variant of `bvhGlobalPoses` that keeps rotations as quaternions. `R_WJ` is scratch
/// space resized to the joint count. Never throws; precondition 0 <= f < frame_count and
/// `p_WJ` has joints.size() columns (resized otherwise).
RETARGET_LAZY_DECL void bvhGlobalPositions(const BvhMotion& motion, int f, Eigen::Matrix3Xd& p_WJ,
                                      std::vector<Eigen::Quaterniond>& R_WJ);

#if RETARGET_DEFINE_HUMAN

RETARGET_LAZY_DEF void validateBvh(const BvhMotion& motion) {
  const int n = static_cast<int>(motion.joints.size());
  int next_channel = 0;
  for (int i = 0; i < n; ++i) {
    const BvhJoint& joint = motion.joints[static_cast<std::size_t>(i)];
    RETARGET_THROW_UNLESS(joint.parent >= -1 && joint.parent < i, InvalidArgument, "joint ", i, " '", joint.name,
                          "' has parent ", joint.parent, ", expected -1 or an index below ", i);
    RETARGET_THROW_UNLESS(!joint.name.empty(), InvalidArgument, "joint ", i, " has an empty name");
    RETARGET_THROW_UNLESS(joint.name.find_first_of("\r\n{}") == std::string::npos &&
                              joint.name.front() != ' ' && joint.name.back() != ' ' &&
                              joint.name.front() != '\t' && joint.name.back() != '\t',
                          InvalidArgument, "joint ", i, " name '", joint.name,
                          "' contains a line break, a brace or surrounding blanks");
    RETARGET_THROW_UNLESS(joint.offset.allFinite(), InvalidArgument, "joint '", joint.name,
                          "' has a non-finite offset");
    RETARGET_THROW_UNLESS(joint.channels.size() <= 6, InvalidArgument, "joint '", joint.name, "' has ",
                          joint.channels.size(), " channels, expected at most 6");
    RETARGET_THROW_UNLESS(!joint.is_end_site || joint.channels.empty(), InvalidArgument, "End Site '",
                          joint.name, "' has channels, expected none");
    RETARGET_THROW_UNLESS(joint.parent < 0 || !motion.joints[static_cast<std::size_t>(joint.parent)].is_end_site,
                          InvalidArgument, "joint '", joint.name, "' is a child of an End Site");
    RETARGET_THROW_UNLESS(joint.first_channel == next_channel, InvalidArgument, "joint '", joint.name,
                          "' has first_channel ", joint.first_channel, ", expected ", next_channel);
    next_channel += static_cast<int>(joint.channels.size());
  }
  RETARGET_THROW_UNLESS(motion.channel_count == next_channel, InvalidArgument, "channel_count is ",
                        motion.channel_count, ", expected ", next_channel);
  RETARGET_THROW_UNLESS(motion.frame_count >= 0, InvalidArgument, "frame_count is ", motion.frame_count,
                        ", expected >= 0");
  RETARGET_THROW_UNLESS(motion.values.size() == static_cast<std::size_t>(motion.frame_count) *
                                                    static_cast<std::size_t>(motion.channel_count),
                        InvalidArgument, "values has ", motion.values.size(), " entries, expected ",
                        motion.frame_count, " x ", motion.channel_count);
  RETARGET_THROW_UNLESS(std::isfinite(motion.frame_time) && motion.frame_time >= 0, InvalidArgument,
                        "frame_time is ", motion.frame_time, ", expected a finite value >= 0");
  for (std::size_t k = 0; k < motion.values.size(); ++k) {
    RETARGET_THROW_UNLESS(std::isfinite(motion.values[k]), InvalidArgument, "value ", k, " of frame ",
                          k / static_cast<std::size_t>(std::max(1, motion.channel_count)), " is not finite");
  }
}

RETARGET_LAZY_DEF BvhMotion bvhRestPose(const BvhMotion& motion) {
  BvhMotion rest;
  rest.joints = motion.joints;
  rest.frame_time = motion.frame_time;
  rest.assignChannelIndices();
  rest.frame_count = 1;
  rest.values.assign(static_cast<std::size_t>(rest.channel_count), 0.0);
  for (const BvhJoint& joint : rest.joints) {
    for (std::size_t c = 0; c < joint.channels.size(); ++c) {
      if (!isRotation(joint.channels[c])) {
        rest.values[static_cast<std::size_t>(joint.first_channel) + c] = joint.offset[bvhChannelAxis(joint.channels[c])];
      }
    }
  }
  return rest;
}

RETARGET_LAZY_DEF void bvhGlobalPoses(const BvhMotion& motion, int f, std::vector<Eigen::Isometry3d>& X_WJ) {
  const std::size_t n = motion.joints.size();
  if (X_WJ.size() != n) X_WJ.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int joint = static_cast<int>(i);
    Eigen::Isometry3d X_PJ = Eigen::Isometry3d::Identity();
    X_PJ.linear() = motion.localRotation(f, joint).toRotationMatrix();
    X_PJ.translation() = motion.localTranslation(f, joint);
    const int parent = motion.joints[i].parent;
    X_WJ[i] = parent < 0 ? X_PJ : X_WJ[static_cast<std::size_t>(parent)] * X_PJ;
  }
}

RETARGET_LAZY_DEF void bvhGlobalPositions(const BvhMotion& motion, int f, Eigen::Matrix3Xd& p_WJ,
                                      std::vector<Eigen::Quaterniond>& R_WJ) {
  const std::size_t n = motion.joints.size();
  if (static_cast<std::size_t>(p_WJ.cols()) != n) p_WJ.resize(3, static_cast<Eigen::Index>(n));
  if (R_WJ.size() != n) R_WJ.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int joint = static_cast<int>(i);
    const int parent = motion.joints[i].parent;
    const Eigen::Quaterniond R_PJ = motion.localRotation(f, joint);
    const Eigen::Vector3d p_PJ = motion.localTranslation(f, joint);
    const auto col = static_cast<Eigen::Index>(i);
    if (parent < 0) {
      R_WJ[i] = R_PJ;
      p_WJ.col(col) = p_PJ;
    } else {
      const auto& R_WP = R_WJ[static_cast<std::size_t>(parent)];
      R_WJ[i] = R_WP * R_PJ;
      p_WJ.col(col) = p_WJ.col(parent) + R_WP * p_PJ;
    }
  }
}

RETARGET_LAZY_DEF int BvhMotion::findJoint(std::string_view joint_name) const {
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (joints[i].name == joint_name) return static_cast<int>(i);
  }
  return -1;
}

RETARGET_LAZY_DEF int BvhMotion::jointCount(bool include_end_sites) const {
  if (include_end_sites) return static_cast<int>(joints.size());
  return static_cast<int>(std::count_if(joints.begin(), joints.end(),
                                        [](const BvhJoint& joint) { return !joint.is_end_site; }));
}

RETARGET_LAZY_DEF int BvhMotion::rootCount() const {
  return static_cast<int>(
      std::count_if(joints.begin(), joints.end(), [](const BvhJoint& joint) { return joint.parent < 0; }));
}

RETARGET_LAZY_DEF Eigen::Map<const Eigen::VectorXd> BvhMotion::frameValues(int f) const {
  return Eigen::Map<const Eigen::VectorXd>(frame(f), channel_count);
}

RETARGET_LAZY_DEF Eigen::Quaterniond BvhMotion::localRotation(int f, int joint) const {
  const BvhJoint& j = joints[static_cast<std::size_t>(joint)];
  Eigen::Quaterniond R = Eigen::Quaterniond::Identity();
  if (j.channels.empty()) return R;
  const double* row = frame(f) + j.first_channel;
  constexpr double kDegToRad = kPi<double> / 180.0;
  for (std::size_t c = 0; c < j.channels.size(); ++c) {
    if (!isRotation(j.channels[c])) continue;
    const double half = 0.5 * kDegToRad * row[c];
    const double s = std::sin(half);
    Eigen::Quaterniond axis_rotation(std::cos(half), 0, 0, 0);
    axis_rotation.vec()[bvhChannelAxis(j.channels[c])] = s;
    R = R * axis_rotation;
  }
  return R;
}

RETARGET_LAZY_DEF Eigen::Vector3d BvhMotion::localTranslation(int f, int joint) const {
  const BvhJoint& j = joints[static_cast<std::size_t>(joint)];
  Eigen::Vector3d p = j.offset;
  if (j.channels.empty()) return p;
  const double* row = frame(f) + j.first_channel;
  for (std::size_t c = 0; c < j.channels.size(); ++c) {
    if (!isRotation(j.channels[c])) p[bvhChannelAxis(j.channels[c])] = row[c];
  }
  return p;
}

RETARGET_LAZY_DEF void BvhMotion::assignChannelIndices() {
  int next = 0;
  for (BvhJoint& joint : joints) {
    joint.first_channel = next;
    next += static_cast<int>(joint.channels.size());
  }
  channel_count = next;
}

#endif  // RETARGET_DEFINE_HUMAN

}  // namespace retarget
