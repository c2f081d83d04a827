#pragma once

/// @file
/// Built-in BVH hierarchies (no frames) of the two Noitom skeletons, for a live broadcast that
/// does not send its hierarchy (adapters/noitom/): Axis Neuron's 59 joints (Spine..Spine3,
/// Neck, Head) and Axis Studio's 59 (Spine..Spine2, Neck, Neck1, Head), each with the same arms,
/// 19 finger joints per hand and legs, in the joint order both programs export.
///
/// Geometry: our own proportions of an adult `height` cm tall (not measured from any file), in
/// the T-pose, cm, Y up, facing +Z, the person's left +X (the frame of the Noitom schemas in
/// bvh_schemas.hpp). Channels: the root has Xposition Yposition Zposition and every joint three
/// rotations in Axis Neuron's default order Y X Z. A performer's own proportions differ: when
/// they matter (positions, not the Euler mapping's angles), export the hierarchy from Axis
/// Neuron with the same settings and use that file instead.

#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/bvh_motion.hpp>

namespace retarget {

namespace internal {

/// Builds a hierarchy joint by joint (parents first).
class BvhTemplateBuilder {
 public:
  explicit BvhTemplateBuilder(double scale) : scale_(scale) {}

  RETARGET_LAZY_DECL void joint(const std::string& name, const std::string& parent, double x, double y, double z);

  RETARGET_LAZY_DECL void endSite(const std::string& parent, double x, double y, double z);

  // One side's arm and hand; side "Right" points along -X, "Left" along +X.
  RETARGET_LAZY_DECL void arm(const std::string& side, const std::string& spine);

  RETARGET_LAZY_DECL void leg(const std::string& side);

  RETARGET_LAZY_DECL BvhMotion finish();

 private:
  double scale_ = 1.0;
  BvhMotion motion_;
};

RETARGET_LAZY_DECL double templateScale(double height);

}  // namespace internal

/// Axis Neuron (Perception Neuron, "PN / PN Pro" skeleton): 59 joints, `height` cm tall.
/// Throws InvalidArgument for a height outside [50, 250] cm.
RETARGET_LAZY_DECL BvhMotion axisNeuronTemplate(double height = 170.0);

/// Axis Studio (Perception Neuron Studio): 59 joints with three spine and two neck joints,
/// `height` cm tall. Throws InvalidArgument for a height outside [50, 250] cm.
RETARGET_LAZY_DECL BvhMotion axisStudioTemplate(double height = 170.0);

#if RETARGET_DEFINE_HUMAN

namespace internal {

RETARGET_LAZY_DEF double templateScale(double height) {
  RETARGET_THROW_UNLESS(height >= 50 && height <= 250, InvalidArgument,
                        "BVH template height must be in [50, 250] cm (got ", height, ")");
  return height / 170.0;  // the proportions below are those of a 170 cm adult
}

}  // namespace internal

RETARGET_LAZY_DEF BvhMotion axisNeuronTemplate(double height) {
  internal::BvhTemplateBuilder b(internal::templateScale(height));
  b.joint("Hips", "", 0.0, 0.0, 0.0);
  b.leg("Right");
  b.leg("Left");
  b.joint("Spine", "Hips", 0.0, 10.0, 0.0);
  b.joint("Spine1", "Spine", 0.0, 10.0, 0.0);
  b.joint("Spine2", "Spine1", 0.0, 10.0, 0.0);
  b.joint("Spine3", "Spine2", 0.0, 10.0, 0.0);
  b.joint("Neck", "Spine3", 0.0, 14.0, 0.0);
  b.joint("Head", "Neck", 0.0, 10.0, 0.0);
  b.endSite("Head", 0.0, 18.0, 0.0);
  b.arm("Right", "Spine3");
  b.arm("Left", "Spine3");
  return b.finish();
}

RETARGET_LAZY_DEF BvhMotion axisStudioTemplate(double height) {
  internal::BvhTemplateBuilder b(internal::templateScale(height));
  b.joint("Hips", "", 0.0, 0.0, 0.0);
  b.leg("Right");
  b.leg("Left");
  b.joint("Spine", "Hips", 0.0, 13.0, 0.0);
  b.joint("Spine1", "Spine", 0.0, 13.0, 0.0);
  b.joint("Spine2", "Spine1", 0.0, 14.0, 0.0);
  b.joint("Neck", "Spine2", 0.0, 9.0, 0.0);
  b.joint("Neck1", "Neck", 0.0, 5.0, 0.0);
  b.joint("Head", "Neck1", 0.0, 10.0, 0.0);
  b.endSite("Head", 0.0, 18.0, 0.0);
  b.arm("Right", "Spine2");
  b.arm("Left", "Spine2");
  return b.finish();
}

namespace internal {

RETARGET_LAZY_DEF void BvhTemplateBuilder::joint(const std::string& name, const std::string& parent, double x, double y,
                                             double z) {
  BvhJoint j;
  j.name = name;
  j.parent = parent.empty() ? -1 : motion_.findJoint(parent);
  j.offset = Eigen::Vector3d(x, y, z) * scale_;
  if (j.parent < 0) {
    j.channels = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition};
  }
  j.channels.insert(j.channels.end(), {BvhChannel::kYrotation, BvhChannel::kXrotation, BvhChannel::kZrotation});
  motion_.joints.push_back(j);
}

RETARGET_LAZY_DEF void BvhTemplateBuilder::endSite(const std::string& parent, double x, double y, double z) {
  BvhJoint j;
  j.name = parent + "_End";
  j.parent = motion_.findJoint(parent);
  j.offset = Eigen::Vector3d(x, y, z) * scale_;
  j.is_end_site = true;
  motion_.joints.push_back(j);
}

RETARGET_LAZY_DEF void BvhTemplateBuilder::arm(const std::string& side, const std::string& spine) {
  const double s = side == "Right" ? -1.0 : 1.0;
  joint(side + "Shoulder", spine, s * 3.0, 9.0, 0.0);
  joint(side + "Arm", side + "Shoulder", s * 15.0, 0.0, 0.0);
  joint(side + "ForeArm", side + "Arm", s * 28.0, 0.0, 0.0);
  joint(side + "Hand", side + "ForeArm", s * 25.0, 0.0, 0.0);
  const std::string hand = side + "Hand";
  joint(hand + "Thumb1", hand, s * 2.0, -0.8, 2.5);
  joint(hand + "Thumb2", hand + "Thumb1", s * 3.0, 0.0, 1.2);
  joint(hand + "Thumb3", hand + "Thumb2", s * 2.6, 0.0, 0.4);
  endSite(hand + "Thumb3", s * 2.2, 0.0, 0.0);
  // Index, middle, ring, pinky: a joint in the palm, then three phalanges.
  const char* fingers[] = {"Index", "Middle", "Ring", "Pinky"};
  const double z_palm[] = {2.2, 0.7, -0.8, -2.2};
  const double lengths[4][4] = {{6.2, 4.0, 2.4, 2.0}, {6.4, 4.5, 2.8, 2.1}, {6.0, 4.2, 2.6, 2.0}, {5.4, 3.2, 2.0, 1.8}};
  for (int f = 0; f < 4; ++f) {
    const std::string in_hand = side + "InHand" + fingers[f];
    const std::string finger = hand + fingers[f];
    joint(in_hand, hand, s * 3.0, 0.0, z_palm[f]);
    joint(finger + "1", in_hand, s * lengths[f][0], 0.0, 0.0);
    joint(finger + "2", finger + "1", s * lengths[f][1], 0.0, 0.0);
    joint(finger + "3", finger + "2", s * lengths[f][2], 0.0, 0.0);
    endSite(finger + "3", s * lengths[f][3], 0.0, 0.0);
  }
}

RETARGET_LAZY_DEF void BvhTemplateBuilder::leg(const std::string& side) {
  const double s = side == "Right" ? -1.0 : 1.0;
  joint(side + "UpLeg", "Hips", s * 9.0, 0.0, 0.0);
  joint(side + "Leg", side + "UpLeg", 0.0, -43.0, 0.0);
  joint(side + "Foot", side + "Leg", 0.0, -42.0, 0.0);
  endSite(side + "Foot", 0.0, -8.0, 15.0);
}

RETARGET_LAZY_DEF BvhMotion BvhTemplateBuilder::finish() {
  motion_.frame_time = 1.0 / 120.0;
  motion_.frame_count = 0;
  motion_.assignChannelIndices();
  validateBvh(motion_);
  return motion_;
}

}  // namespace internal

#endif  // RETARGET_DEFINE_HUMAN

}  // namespace retarget
