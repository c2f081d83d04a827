#pragma once

/// @file
/// Procedural demo motions: a simple human body model with anthropometric proportions, posed
/// by joint-angle curves, producing canonical `SkeletonMotion`s (metres, x forward, y left,
/// z up; the person faces +x, feet on the floor z = 0, pelvis above the origin). The README
/// demo and many tests use these, so nothing needs external data.
///
/// Motions (`demoMotionNames()`): "wave" (right hand waves beside the head, upper arm forward
/// and out), "arms-raise" (both arms forward and up overhead, and down), "squat" (feet
/// planted), "one-leg-stand" (left knee lifted, standing on the right foot), "arm-circles"
/// (arms forward and out, the hands drawing circles), "walk-in-place" (alternate knee lifts
/// with counter-swinging arms), "fold-arms" (forearms folded across the chest: the forearms
/// pass close to each other and to the torso, a self-collision stress case), "bow" (the trunk
/// bends forward 60 deg at the hips and back, legs straight, feet planted; the hips go back
/// over the heels as a person's do, see demoMotionPose).
///
/// They are plausible human motions that the built-in robots can follow: arms that go up go
/// forward first (about 30 deg of forward flexion), abduction stays at or below 75 deg (away
/// from the shoulder singularity of an arm straight out sideways), and elbows are never
/// exactly straight (a relaxed arm keeps 15 deg of flexion and hangs 8 deg out, clear of the
/// thigh), and the squat keeps the trunk within 11 deg of upright (the bow leans it on purpose:
/// a robot follows it only with GaLvvjOptions::trunk_lean). Only "fold-arms" asks for
/// more than a robot's body allows, on purpose. Every motion starts from the rest pose at t = 0
/// (standing, arms hanging relaxed), all 25 joints are tracked, hand states are set (closed
/// while folded, open otherwise), and the output is a deterministic function of the options.

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Geometry>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Segment lengths and joint heights of a standing adult, in metres.
///
/// Proportions are fractions of body height H from the anthropometric segment-length diagram
/// of Drillis and Contini (1966), as reproduced in D. A. Winter, "Biomechanics and Motor
/// Control of Human Movement" (Fig. 4.1): shoulder height 0.818 H, chin 0.870 H, hip
/// (greater trochanter) 0.530 H, knee 0.285 H, ankle 0.039 H, upper arm 0.186 H, forearm
/// 0.146 H, hand 0.108 H, thigh 0.245 H, shank 0.246 H, foot length 0.152 H. Joint-centre
/// widths are our own estimates for Kinect-like joint positions: shoulder joints 0.2 H apart,
/// hip joints 0.11 H apart (the outer biacromial/hip breadths of the diagram are wider).
struct HumanBodyModel {
  double height = 1.75;               ///< Body height H (m).
  double hip_height = 0;              ///< Hip joints and SpineBase above the floor (m).
  double shoulder_height = 0;         ///< Shoulders and SpineShoulder above the floor (m).
  double neck_height = 0;             ///< Neck (chin level) above the floor (m).
  double head_height = 0;             ///< Head centre above the floor (m).
  double shoulder_half_width = 0;     ///< Lateral offset of each shoulder from the midline (m).
  double hip_half_width = 0;          ///< Lateral offset of each hip joint from the midline (m).
  double upper_arm = 0;               ///< Shoulder to elbow (m).
  double forearm = 0;                 ///< Elbow to wrist (m).
  double hand = 0;                    ///< Wrist to hand tip (m).
  double thigh = 0;                   ///< Hip to knee (m).
  double shank = 0;                   ///< Knee to ankle (m).
  double foot_forward = 0;            ///< Ankle to the forefoot (Foot joint), forward (m).

  /// The model of a person `height` metres tall. Throws InvalidArgument unless
  /// 0.5 <= height <= 2.5 m.
  RETARGET_LAZY_DECL static HumanBodyModel fromHeight(double height);

  /// Ankle height above the floor in the rest pose (hip height - thigh - shank), m.
  double ankleHeight() const { return hip_height - thigh - shank; }
};

/// Joint angles of one arm (rad). Applied at the shoulder in this order (each about the
/// already-rotated axes): horizontal flexion (about z, toward the front), flexion (about y,
/// forward and up), abduction (about x, out to the side), internal rotation (about the upper
/// arm's long axis, turning the forearm toward the midline); then elbow flexion.
struct ArmAngles {
  double horizontal_flexion = 0;
  double flexion = 0;
  double abduction = 0;
  double internal_rotation = 0;
  double elbow_flexion = 0;
};

/// Joint angles of one leg (rad): hip flexion (thigh forward), hip abduction (out to the
/// side), knee flexion (shank backward). The foot stays level.
struct LegAngles {
  double hip_flexion = 0;
  double hip_abduction = 0;
  double knee_flexion = 0;
};

/// A full-body pose of the demo body model. Zero angles are the rest pose: standing straight,
/// arms hanging with palms facing the thighs, thumbs forward.
struct BodyPose {
  /// Trunk lean about SpineBase (rad): forward (+pitch), toward the right side (+roll), turn
  /// to the left (+yaw).
  double trunk_pitch = 0;
  double trunk_roll = 0;
  double trunk_yaw = 0;
  ArmAngles left_arm{};
  ArmAngles right_arm{};
  LegAngles left_leg{};
  LegAngles right_leg{};
  /// Keep these feet where they are in the rest pose by translating the whole body (when both
  /// are set, the left foot decides; the poses used here are left-right symmetric then).
  bool plant_left_foot = true;
  bool plant_right_foot = true;
};

namespace internal::demo {

RETARGET_LAZY_DECL Eigen::Matrix3d rotX(double a);
RETARGET_LAZY_DECL Eigen::Matrix3d rotY(double a);
RETARGET_LAZY_DECL Eigen::Matrix3d rotZ(double a);

/// 0 for x <= 0, 1 for x >= 1, smooth (C1) in between.
RETARGET_LAZY_DECL double smoothStep(double x);

/// 0 at phase 0, rising to 1 at half a period and back: (1 - cos(2 pi t / T)) / 2.
RETARGET_LAZY_DECL double raiseLower(double t, double period);

}  // namespace internal::demo

/// Positions of all 25 canonical joints of `model` in `pose` (m, frame W). All joints are
/// tracked; hand states are left unknown; time 0. Never allocates, never throws.
RETARGET_LAZY_DECL SkeletonFrame<double> bodyPoseFrame(const HumanBodyModel& model, const BodyPose& pose) noexcept;

/// Names of the built-in demo motions, in a fixed order.
RETARGET_LAZY_DECL const std::vector<std::string>& demoMotionNames();

/// Settings of a generated demo motion, validated by `validate()`.
struct DemoMotionOptions {
  /// Frame rate (Hz), 1 ... 1000.
  double rate = 30.0;
  /// Duration (s), 0 ... 3600; the motion has floor(duration * rate) + 1 frames.
  double duration = 6.0;
  /// Body height (m), 0.5 ... 2.5.
  double body_height = 1.75;

  /// Throws InvalidArgument naming the field and its value when a field is out of range.
  RETARGET_LAZY_DECL void validate() const;
};

/// Elbow flexion of a relaxed arm in the demo motions (deg): elbows are never exactly straight.
inline constexpr double kRelaxedElbowFlexion = 15.0;
/// Abduction of a relaxed hanging arm in the demo motions (deg): the hands hang clear of the
/// thighs (a robot's hand pressed against its thigh is a self-collision; NAO's hand and thigh
/// shapes overlap by 4 mm with the arms hanging straight down).
inline constexpr double kRelaxedArmAbduction = 8.0;

/// The rest pose of every demo motion: standing straight, arms hanging relaxed (elbows at
/// kRelaxedElbowFlexion, upper arms kRelaxedArmAbduction out to the side).
RETARGET_LAZY_DECL BodyPose relaxedRestPose();

/// The pose of demo motion `name` at time t (s) and whether its hands are closed. Throws
/// InvalidArgument for an unknown name (listing the known ones).
RETARGET_LAZY_DECL BodyPose demoMotionPose(std::string_view name, double t, bool* hands_closed = nullptr);

/// Generates demo motion `name` (see the file doc) in the canonical frame. Frames are at
/// t = i / rate, i = 0 ... floor(duration * rate); `format` = "demo/<name>". Throws
/// InvalidArgument for an unknown name or invalid options.
RETARGET_LAZY_DECL SkeletonMotion<double> demoMotion(std::string_view name, const DemoMotionOptions& options = {});

#if RETARGET_DEFINE_HUMAN

namespace internal::demo {

RETARGET_LAZY_DEF Eigen::Matrix3d rotX(double a) {
  return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitX()).toRotationMatrix();
}

RETARGET_LAZY_DEF Eigen::Matrix3d rotY(double a) {
  return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitY()).toRotationMatrix();
}

RETARGET_LAZY_DEF Eigen::Matrix3d rotZ(double a) {
  return Eigen::AngleAxisd(a, Eigen::Vector3d::UnitZ()).toRotationMatrix();
}

RETARGET_LAZY_DEF double smoothStep(double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  return x * x * (3 - 2 * x);
}

RETARGET_LAZY_DEF double raiseLower(double t, double period) { return 0.5 * (1 - std::cos(2 * kPi<double> * t / period)); }

}  // namespace internal::demo

RETARGET_LAZY_DEF SkeletonFrame<double> bodyPoseFrame(const HumanBodyModel& model, const BodyPose& pose) noexcept {
  using internal::demo::rotX;
  using internal::demo::rotY;
  using internal::demo::rotZ;
  using V = Eigen::Vector3d;
  using J = HumanJoint;
  SkeletonFrame<double> frame;
  frame.state.fill(TrackingState::kTracked);
  const V down(0, 0, -1);
  const V spine_base(0, 0, model.hip_height);
  const Eigen::Matrix3d R_trunk = rotZ(pose.trunk_yaw) * rotY(pose.trunk_pitch) * rotX(pose.trunk_roll);
  auto upper = [&](double lateral, double height) {
    return V(spine_base + R_trunk * V(0, lateral, height - model.hip_height));
  };
  frame.position(J::kSpineBase) = spine_base;
  frame.position(J::kSpineMid) = upper(0, 0.5 * (model.hip_height + model.shoulder_height));
  frame.position(J::kSpineShoulder) = upper(0, model.shoulder_height);
  frame.position(J::kNeck) = upper(0, model.neck_height);
  frame.position(J::kHead) = upper(0, model.head_height);

  auto arm = [&](const ArmAngles& a, double side, J shoulder, J elbow, J wrist, J hand, J tip, J thumb) {
    // side = +1 left, -1 right; mirrored angles keep the anatomical meaning on both sides.
    const V p_shoulder = upper(side * model.shoulder_half_width, model.shoulder_height);
    const Eigen::Matrix3d R_upper = R_trunk * rotZ(-side * a.horizontal_flexion) * rotY(-a.flexion) *
                                    rotX(side * a.abduction) * rotZ(-side * a.internal_rotation);
    const Eigen::Matrix3d R_fore = R_upper * rotY(-a.elbow_flexion);
    const V p_elbow = p_shoulder + R_upper * (model.upper_arm * down);
    const V p_wrist = p_elbow + R_fore * (model.forearm * down);
    frame.position(shoulder) = p_shoulder;
    frame.position(elbow) = p_elbow;
    frame.position(wrist) = p_wrist;
    frame.position(hand) = p_wrist + R_fore * (0.4 * model.hand * down);
    frame.position(tip) = p_wrist + R_fore * (model.hand * down);
    frame.position(thumb) = p_wrist + R_fore * V(0.25 * model.hand, 0, -0.4 * model.hand);
  };
  arm(pose.left_arm, 1, J::kShoulderLeft, J::kElbowLeft, J::kWristLeft, J::kHandLeft, J::kHandTipLeft, J::kThumbLeft);
  arm(pose.right_arm, -1, J::kShoulderRight, J::kElbowRight, J::kWristRight, J::kHandRight, J::kHandTipRight,
      J::kThumbRight);

  auto leg = [&](const LegAngles& l, double side, J hip, J knee, J ankle, J foot) {
    const V p_hip = spine_base + V(0, side * model.hip_half_width, 0);
    const Eigen::Matrix3d R_thigh = rotY(-l.hip_flexion) * rotX(side * l.hip_abduction);
    const Eigen::Matrix3d R_shank = R_thigh * rotY(l.knee_flexion);
    const V p_knee = p_hip + R_thigh * (model.thigh * down);
    const V p_ankle = p_knee + R_shank * (model.shank * down);
    frame.position(hip) = p_hip;
    frame.position(knee) = p_knee;
    frame.position(ankle) = p_ankle;
    frame.position(foot) = p_ankle + V(model.foot_forward, 0, -model.ankleHeight());
  };
  leg(pose.left_leg, 1, J::kHipLeft, J::kKneeLeft, J::kAnkleLeft, J::kFootLeft);
  leg(pose.right_leg, -1, J::kHipRight, J::kKneeRight, J::kAnkleRight, J::kFootRight);

  // Plant a foot: translate everything so that its ankle is back at its rest position.
  const bool plant_left = pose.plant_left_foot;
  if (plant_left || pose.plant_right_foot) {
    const double side = plant_left ? 1 : -1;
    const V rest_ankle(0, side * model.hip_half_width, model.ankleHeight());
    const V shift = rest_ankle - frame.position(plant_left ? J::kAnkleLeft : J::kAnkleRight);
    for (auto& p : frame.p_W) p += shift;
  }
  return frame;
}

RETARGET_LAZY_DEF const std::vector<std::string>& demoMotionNames() {
  static const std::vector<std::string> kNames = {"wave",        "arms-raise",    "squat",    "one-leg-stand",
                                                  "arm-circles", "walk-in-place", "fold-arms",     "bow"};
  return kNames;
}

RETARGET_LAZY_DEF BodyPose relaxedRestPose() {
  BodyPose pose;
  pose.left_arm.elbow_flexion = pose.right_arm.elbow_flexion = kRelaxedElbowFlexion * kPi<double> / 180;
  pose.left_arm.abduction = pose.right_arm.abduction = kRelaxedArmAbduction * kPi<double> / 180;
  return pose;
}

RETARGET_LAZY_DEF BodyPose demoMotionPose(std::string_view name, double t, bool* hands_closed) {
  using internal::demo::raiseLower;
  using internal::demo::smoothStep;
  constexpr double kDeg = kPi<double> / 180;
  const double two_pi = 2 * kPi<double>;
  BodyPose pose;
  bool closed = false;
  if (name == "wave") {
    // Right upper arm forward and out (30 deg flexion, 70 deg abduction), externally rotated by
    // 25 deg so that the bent forearm points up and forward beside the head; the forearm then
    // swings (elbow 55 ... 85 deg) at 1.5 Hz.
    const double r = smoothStep(t / 1.0);
    pose.right_arm.flexion = 30 * kDeg * r;
    pose.right_arm.abduction = 70 * kDeg * r;
    pose.right_arm.internal_rotation = -25 * kDeg * r;
    pose.right_arm.elbow_flexion = r * (70 + 15 * std::sin(two_pi * 1.5 * std::max(0.0, t - 1.0))) * kDeg;
  } else if (name == "arms-raise") {
    const double r = raiseLower(t, 4.0);
    pose.left_arm.flexion = pose.right_arm.flexion = 170 * kDeg * r;
  } else if (name == "squat") {
    const double r = raiseLower(t, 4.0);
    const double knee = 90 * kDeg * r;
    for (LegAngles* leg : {&pose.left_leg, &pose.right_leg}) {
      leg->knee_flexion = knee;
      leg->hip_flexion = 0.5 * knee;  // equal thigh and shank: hips stay above the ankles
    }
    pose.trunk_pitch = 0.12 * knee;  // 11 deg: a squat, not a hip-hinge bow (that is "bow")
    pose.left_arm.flexion = pose.right_arm.flexion = 0.8 * knee;  // arms forward for balance
  } else if (name == "one-leg-stand") {
    // In 6 s cycles: lift the left knee (1..2 s), hold, lower (4..5 s).
    const double c = std::fmod(t, 6.0);
    const double r = smoothStep(c - 1.0) * (1 - smoothStep(c - 4.0));
    pose.left_leg.hip_flexion = 70 * kDeg * r;
    pose.left_leg.knee_flexion = 90 * kDeg * r;
    pose.left_arm.abduction = pose.right_arm.abduction = 40 * kDeg * r;
    pose.trunk_roll = 5 * kDeg * r;
    pose.plant_left_foot = false;
  } else if (name == "arm-circles") {
    // Arms forward and out (flexion 35 deg, abduction 55 deg), the hands drawing 0.5 Hz circles.
    const double r = smoothStep(t / 1.0);
    const double phase = two_pi * 0.5 * std::max(0.0, t - 1.0);
    for (ArmAngles* arm : {&pose.left_arm, &pose.right_arm}) {
      arm->flexion = r * (35 + 15 * std::cos(phase)) * kDeg;
      arm->abduction = r * (55 + 15 * std::sin(phase)) * kDeg;
      arm->elbow_flexion = r * 25 * kDeg;
    }
  } else if (name == "walk-in-place") {
    // 1.5 s gait cycle: each knee lifts in its half of the cycle, arms swing opposite.
    const double ramp = smoothStep(t / 0.5);
    const double s = std::sin(two_pi * t / 1.5);
    const double left_lift = ramp * std::max(0.0, s);
    const double right_lift = ramp * std::max(0.0, -s);
    pose.left_leg.hip_flexion = 50 * kDeg * left_lift;
    pose.left_leg.knee_flexion = 80 * kDeg * left_lift;
    pose.right_leg.hip_flexion = 50 * kDeg * right_lift;
    pose.right_leg.knee_flexion = 80 * kDeg * right_lift;
    pose.left_arm.flexion = -25 * kDeg * ramp * s;
    pose.right_arm.flexion = 25 * kDeg * ramp * s;
    pose.left_arm.elbow_flexion = pose.right_arm.elbow_flexion = 20 * kDeg * ramp;
    pose.plant_left_foot = pose.plant_right_foot = false;  // the standing leg stays straight
  } else if (name == "fold-arms") {
    // Fold over 1.5 s, hold, unfold (in 8 s cycles): upper arms slightly forward, elbows bent
    // past 90 degrees, forearms turned in across the chest (left above right).
    const double c = std::fmod(t, 8.0);
    const double r = smoothStep(c / 1.5) * (1 - smoothStep((c - 6.0) / 1.5));
    pose.left_arm.flexion = pose.right_arm.flexion = 30 * kDeg * r;
    pose.left_arm.abduction = pose.right_arm.abduction = 12 * kDeg * r;
    pose.left_arm.internal_rotation = pose.right_arm.internal_rotation = 80 * kDeg * r;
    pose.left_arm.elbow_flexion = 110 * kDeg * r;
    pose.right_arm.elbow_flexion = 95 * kDeg * r;
    closed = r > 0.5;
  } else if (name == "bow") {
    // In 6 s cycles: bend (1..2.5 s), hold, straighten (3.5..5 s). The trunk leans 60 deg
    // forward; the straight legs tilt 14 deg back (the hips go back over the heels) so that the
    // body's centre of mass stays above the feet: with the legs' 32 % of the mass at half the
    // leg length L = 0.49 H and the rest 0.3 m up the trunk from the hips, the two moments
    // balance at sin(tilt) = 0.68 * 0.3 sin 60 deg / (0.84 L) = 0.25 for H = 1.75 m (Winter's
    // segment masses, rounded). The arms hang plumb (flexion equal to the lean).
    const double c = std::fmod(t, 6.0);
    const double r = smoothStep((c - 1.0) / 1.5) * (1 - smoothStep((c - 3.5) / 1.5));
    pose.trunk_pitch = 60 * kDeg * r;
    pose.left_leg.hip_flexion = pose.right_leg.hip_flexion = -14 * kDeg * r;
    pose.left_arm.flexion = pose.right_arm.flexion = 60 * kDeg * r;
  } else {
    std::string known;
    for (const std::string& n : demoMotionNames()) known += (known.empty() ? "" : ", ") + n;
    RETARGET_THROW_UNLESS(false, InvalidArgument, "unknown demo motion '", name, "' (expected one of: ", known, ")");
  }
  // A relaxed elbow is never exactly straight, a relaxed arm hangs clear of the thigh.
  const BodyPose rest = relaxedRestPose();
  pose.left_arm.elbow_flexion = std::max(pose.left_arm.elbow_flexion, rest.left_arm.elbow_flexion);
  pose.right_arm.elbow_flexion = std::max(pose.right_arm.elbow_flexion, rest.right_arm.elbow_flexion);
  pose.left_arm.abduction = std::max(pose.left_arm.abduction, rest.left_arm.abduction);
  pose.right_arm.abduction = std::max(pose.right_arm.abduction, rest.right_arm.abduction);
  if (hands_closed != nullptr) *hands_closed = closed;
  return pose;
}

RETARGET_LAZY_DEF SkeletonMotion<double> demoMotion(std::string_view name, const DemoMotionOptions& options) {
  options.validate();
  demoMotionPose(name, 0.0);  // rejects unknown names before any work
  const HumanBodyModel model = HumanBodyModel::fromHeight(options.body_height);
  SkeletonMotion<double> motion;
  motion.format = "demo/" + std::string(name);
  motion.frame_rate = options.rate;
  const auto count = static_cast<std::size_t>(std::floor(options.duration * options.rate + 1e-9)) + 1;
  motion.frames.reserve(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double t = static_cast<double>(i) / options.rate;
    bool closed = false;
    SkeletonFrame<double> frame = bodyPoseFrame(model, demoMotionPose(name, t, &closed));
    frame.time = t;
    frame.left_hand = frame.right_hand = closed ? HandState::kClosed : HandState::kOpen;
    motion.frames.push_back(frame);
  }
  return motion;
}

RETARGET_LAZY_DEF HumanBodyModel HumanBodyModel::fromHeight(double height) {
  RETARGET_THROW_UNLESS(std::isfinite(height) && height >= 0.5 && height <= 2.5, InvalidArgument,
                        "body height out of range (got ", height, " m, expected 0.5 ... 2.5 m)");
  HumanBodyModel m;
  m.height = height;
  m.hip_height = 0.530 * height;
  m.shoulder_height = 0.818 * height;
  m.neck_height = 0.870 * height;
  m.head_height = 0.935 * height;
  m.shoulder_half_width = 0.100 * height;
  m.hip_half_width = 0.055 * height;
  m.upper_arm = 0.186 * height;
  m.forearm = 0.146 * height;
  m.hand = 0.108 * height;
  m.thigh = 0.245 * height;
  m.shank = 0.246 * height;
  m.foot_forward = 0.100 * height;
  return m;
}

RETARGET_LAZY_DEF void DemoMotionOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(rate) && rate >= 1 && rate <= 1000, InvalidArgument,
                        "rate out of range (got ", rate, " Hz, expected 1 ... 1000)");
  RETARGET_THROW_UNLESS(std::isfinite(duration) && duration >= 0 && duration <= 3600, InvalidArgument,
                        "duration out of range (got ", duration, " s, expected 0 ... 3600)");
  RETARGET_THROW_UNLESS(std::isfinite(body_height) && body_height >= 0.5 && body_height <= 2.5, InvalidArgument,
                        "body_height out of range (got ", body_height, " m, expected 0.5 ... 2.5)");
}

#endif  // RETARGET_DEFINE_HUMAN

}  // namespace retarget
