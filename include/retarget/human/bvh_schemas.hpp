#pragma once

/// @file
/// Built-in skeleton schemas for common BVH rigs: Noitom Axis Neuron (59 joints with fingers),
/// Noitom Axis Studio / PN Studio (same, with Neck + Neck1 and three spine joints), the CMU 31-joint
/// skeleton and Mixamo (`mixamorig:` names; any namespace prefix matches, see `schemaNameMatches`).
///
/// All four rigs are Y up with the character facing +Z in the rest pose, so the person's left is
/// +X (checked on the shared data: LeftUpLeg/LeftArm offsets have x > 0). Hence the same frame:
/// canonical forward x = BVH +Z, left y = BVH +X, up z = BVH +Y.
///
/// Joint choices (the canonical joints are Kinect v2 joints, which no rig has exactly):
/// - SpineShoulder = the rig's lowest neck joint (base of the neck, between the shoulders);
///   Neck = halfway between that joint and the next neck/head joint; Head = halfway between the
///   Head joint (base of the skull) and the top of the head (the Head End Site, or HeadTop_End).
/// - SpineMid = the middle of the spine chain (halfway between two spine joints where the count is
///   even).
/// - HandLeft = halfway between the wrist (LeftHand) and the middle finger's base, HandTipLeft =
///   the middle finger tip (or the index tip for CMU), ThumbLeft = the thumb tip.
/// - FootLeft = the toe joint (or the foot's End Site for Noitom rigs, which have no toe joint).
/// End Sites are referenced by the reader's names "<parent>_End" (io/bvh.hpp).
///
/// Units: Noitom and Mixamo files are in centimetres (scale 0.01). CMU files are in ASF length
/// units; the CMU ASF files declare `:units length 0.45`, i.e. one unit = 1/0.45 inch =
/// 0.0254 / 0.45 m = 5.644 cm (an estimate for files retargeted from CMU data; check the height).

#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/human/schema.hpp>

namespace retarget {

namespace internal {

/// Rotation from a Y-up, +Z-facing rig into the canonical frame (x forward, y left, z up).
RETARGET_LAZY_DECL Eigen::Matrix3d yUpFacingZ();

/// Arms, hands and legs, shared by the Noitom and Mixamo rigs (prefix "Left"/"Right").
RETARGET_LAZY_DECL void setNoitomLikeLimbs(SkeletonSchema& schema, bool toe_joint);

}  // namespace internal

/// Noitom Axis Neuron ("PN / PN Pro" skeleton): Hips, Spine, Spine1, Spine2, Spine3, Neck, Head,
/// fingers with InHand* joints; cm, Y up, facing +Z.
RETARGET_LAZY_DECL const SkeletonSchema& axisNeuronSchema();

/// Noitom Axis Studio / PN Studio skeleton: Hips, Spine, Spine1, Spine2, Neck, Neck1, Head; cm,
/// Y up, facing +Z.
RETARGET_LAZY_DECL const SkeletonSchema& axisStudioSchema();

/// CMU 31-joint skeleton (Hips, LHipJoint, LowerBack, Spine, Spine1, Neck, Neck1, Head,
/// LeftFingerBase, LThumb, ...): ASF length units (0.0254 / 0.45 m, an estimate), Y up, facing +Z.
RETARGET_LAZY_DECL const SkeletonSchema& cmuSchema();

/// Mixamo rig (`mixamorig:Hips`, Spine, Spine1, Spine2, Neck, Head, HeadTop_End, fingers, toes);
/// cm, Y up, facing +Z.
RETARGET_LAZY_DECL const SkeletonSchema& mixamoSchema();

/// The built-in BVH schemas, in detection priority order (a schema whose names are a subset of
/// another's comes last: Axis Studio, which needs Neck1, before Axis Neuron).
RETARGET_LAZY_DECL const std::vector<const SkeletonSchema*>& builtInBvhSchemas();

#if RETARGET_DEFINE_HUMAN

namespace internal {

RETARGET_LAZY_DEF Eigen::Matrix3d yUpFacingZ() {
  Eigen::Matrix3d R_WS;
  R_WS << 0, 0, 1,  // canonical x (forward) = source +Z
      1, 0, 0,      // canonical y (left) = source +X
      0, 1, 0;      // canonical z (up) = source +Y
  return R_WS;
}

RETARGET_LAZY_DEF void setNoitomLikeLimbs(SkeletonSchema& schema, bool toe_joint) {
  using J = HumanJoint;
  for (const bool left : {true, false}) {
    const std::string s = left ? "Left" : "Right";
    schema.set(left ? J::kShoulderLeft : J::kShoulderRight, s + "Arm");
    schema.set(left ? J::kElbowLeft : J::kElbowRight, s + "ForeArm");
    schema.set(left ? J::kWristLeft : J::kWristRight, s + "Hand");
    schema.set(left ? J::kHandLeft : J::kHandRight, s + "Hand", s + "HandMiddle1", 0.5);
    schema.set(left ? J::kHandTipLeft : J::kHandTipRight, s + "HandMiddle3_End");
    schema.set(left ? J::kThumbLeft : J::kThumbRight, s + "HandThumb3_End");
    schema.set(left ? J::kHipLeft : J::kHipRight, s + "UpLeg");
    schema.set(left ? J::kKneeLeft : J::kKneeRight, s + "Leg");
    schema.set(left ? J::kAnkleLeft : J::kAnkleRight, s + "Foot");
    schema.set(left ? J::kFootLeft : J::kFootRight, toe_joint ? s + "ToeBase" : s + "Foot_End");
  }
}

}  // namespace internal

RETARGET_LAZY_DEF const SkeletonSchema& axisNeuronSchema() {
  static const SkeletonSchema kSchema = [] {
    using J = HumanJoint;
    SkeletonSchema s;
    s.name = "axis-neuron";
    s.R_WS = internal::yUpFacingZ();
    s.scale = 0.01;
    s.set(J::kSpineBase, "Hips");
    s.set(J::kSpineMid, "Spine1", "Spine2", 0.5);
    s.set(J::kSpineShoulder, "Neck");
    s.set(J::kNeck, "Neck", "Head", 0.5);
    s.set(J::kHead, "Head", "Head_End", 0.5);
    internal::setNoitomLikeLimbs(s, false);
    validateSchema(s);
    return s;
  }();
  return kSchema;
}

RETARGET_LAZY_DEF const SkeletonSchema& axisStudioSchema() {
  static const SkeletonSchema kSchema = [] {
    using J = HumanJoint;
    SkeletonSchema s;
    s.name = "axis-studio";
    s.R_WS = internal::yUpFacingZ();
    s.scale = 0.01;
    s.set(J::kSpineBase, "Hips");
    s.set(J::kSpineMid, "Spine1");
    s.set(J::kSpineShoulder, "Neck");
    s.set(J::kNeck, "Neck1");
    s.set(J::kHead, "Head", "Head_End", 0.5);
    internal::setNoitomLikeLimbs(s, false);
    validateSchema(s);
    return s;
  }();
  return kSchema;
}

RETARGET_LAZY_DEF const SkeletonSchema& cmuSchema() {
  static const SkeletonSchema kSchema = [] {
    using J = HumanJoint;
    SkeletonSchema s;
    s.name = "cmu";
    s.R_WS = internal::yUpFacingZ();
    s.scale = 0.0254 / 0.45;
    s.set(J::kSpineBase, "Hips");
    s.set(J::kSpineMid, "Spine");
    s.set(J::kSpineShoulder, "Neck");
    s.set(J::kNeck, "Neck1");
    s.set(J::kHead, "Head", "Head_End", 0.5);
    for (const bool left : {true, false}) {
      const std::string side = left ? "Left" : "Right";
      const std::string letter = left ? "L" : "R";
      s.set(left ? J::kShoulderLeft : J::kShoulderRight, side + "Arm");
      s.set(left ? J::kElbowLeft : J::kElbowRight, side + "ForeArm");
      s.set(left ? J::kWristLeft : J::kWristRight, side + "Hand");
      s.set(left ? J::kHandLeft : J::kHandRight, side + "FingerBase");
      s.set(left ? J::kHandTipLeft : J::kHandTipRight, side + "HandIndex1_End");
      s.set(left ? J::kThumbLeft : J::kThumbRight, letter + "Thumb_End");
      s.set(left ? J::kHipLeft : J::kHipRight, side + "UpLeg");
      s.set(left ? J::kKneeLeft : J::kKneeRight, side + "Leg");
      s.set(left ? J::kAnkleLeft : J::kAnkleRight, side + "Foot");
      s.set(left ? J::kFootLeft : J::kFootRight, side + "ToeBase");
    }
    validateSchema(s);
    return s;
  }();
  return kSchema;
}

RETARGET_LAZY_DEF const SkeletonSchema& mixamoSchema() {
  static const SkeletonSchema kSchema = [] {
    using J = HumanJoint;
    SkeletonSchema s;
    s.name = "mixamo";
    s.R_WS = internal::yUpFacingZ();
    s.scale = 0.01;
    s.set(J::kSpineBase, "Hips");
    s.set(J::kSpineMid, "Spine1");
    s.set(J::kSpineShoulder, "Neck");
    s.set(J::kNeck, "Neck", "Head", 0.5);
    s.set(J::kHead, "Head", "HeadTop_End", 0.5);
    internal::setNoitomLikeLimbs(s, true);
    validateSchema(s);
    return s;
  }();
  return kSchema;
}

RETARGET_LAZY_DEF const std::vector<const SkeletonSchema*>& builtInBvhSchemas() {
  static const std::vector<const SkeletonSchema*> kSchemas = {&axisStudioSchema(), &axisNeuronSchema(), &cmuSchema(),
                                                              &mixamoSchema()};
  return kSchemas;
}

#endif  // RETARGET_DEFINE_HUMAN

}  // namespace retarget
