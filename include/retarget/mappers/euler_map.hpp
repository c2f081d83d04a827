#pragma once

/// @file
/// The robot data of the Euler/BVH mapper (paper 002, Section 4.2): which BVH joint drives
/// which robot joint, by which case, in which axis order, with which sign, offset and limits.
/// A plain validated aggregate; its JSON form is read and written by retarget/json/ (target
/// retarget::json), built-in InMoov maps are in euler_inmoov_maps.hpp. Rate limits are not
/// part of a map: compose a `RateLimiter` (filters/) after the mapper.

#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/euler_angles.hpp>

namespace retarget {

/// How one robot joint value is computed from the local rotation R (child in parent) of its
/// BVH source joint(s).
enum class EulerCase {
  /// 3 -> 3 and 3 -> 2 DOF (shoulder, neck; Eq. 2): R is decomposed into Euler angles in the
  /// robot's own axis order `order` and angle number `angle` (0, 1 or 2) is taken.
  kEuler,
  /// 2 -> 1 DOF elbow bend (Eqs. 3-6): Omega = pi - angle between the link axis u (the
  /// upper link, in the parent frame) and the rotated lower link R * u; as in the paper both
  /// links share the axis u in the rest pose (x for Axis Neuron arms). A straight limb gives pi;
  /// a twist about the link does not change Omega.
  kElbowBend,
  /// 2 -> 1 DOF wrist rotation (Eqs. 7-10): omega = angle between the reference axis a and
  /// R * a (both in the parent frame), in [0, pi].
  kWristRotation,
  /// Signed variant of the wrist rotation (not in the paper): the twist angle of R about the
  /// link axis a (swing-twist decomposition), in (-pi, pi]. Unlike Eq. 10 it tells the two
  /// turning directions apart, so a twist the robot cannot follow is clamped, not mirrored.
  kWristTwist,
  /// Finger: mean over the BVH joint chain of each segment's bend angle(u, R * u) (0 for a
  /// finger in its rest pose), giving one servo value per finger as InMoov drives its fingers.
  kFingerCurl,
};

/// Lower-case name of a case as used in the JSON form: "euler", "elbow_bend",
/// "wrist_rotation", "wrist_twist", "finger_curl".
RETARGET_DECL const char* toString(EulerCase kind);

/// Parses a case name (see toString); throws InvalidArgument naming the text otherwise.
RETARGET_DECL EulerCase parseEulerCase(const std::string& text);

/// The mapping of one robot joint. The value written is
///   q = offset + sign * scale * x
/// where x (rad) is the case's angle (see EulerCase), then clamped into [lower, upper]
/// intersected with the robot's limits.
struct EulerJointMapping {
  /// Robot joint (configuration coordinate) name, e.g. "right_shoulder_up".
  std::string robot_joint;
  /// How x is computed.
  EulerCase kind = EulerCase::kEuler;
  /// BVH source joint(s), at least one. kEuler / kElbowBend / kWristRotation: the joint whose
  /// local rotation is used (e.g. "LeftForeArm" for the elbow); several names (parent first)
  /// use the product of their local rotations, e.g. {"Neck", "Head"}. kFingerCurl: the
  /// finger's chain of segments (e.g. LeftHandIndex1..3), each bent separately.
  std::vector<std::string> source;
  /// kEuler: the robot's own axis order the rotation is re-decomposed in (Eq. 2).
  EulerOrder order{};
  /// kEuler: which of the three angles (0, 1, 2) of `order` this joint takes.
  int angle = 0;
  /// kElbowBend / kFingerCurl: link axis u in the BVH joint frame; zero (the default) takes the
  /// rest-pose bone from each source joint to its first child (BVH offsets; when that bone has zero
  /// length, the nearest non-zero bone towards the root, as all rest-pose frames are parallel).
  /// kWristRotation: the reference axis (required, non-zero; z in Eq. 7). kWristTwist: the
  /// twist axis (zero = derived like kElbowBend). Normalised when used.
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();
  /// Reference pose of the source as a rotation vector (axis * angle, rad, parent frame): the
  /// local rotation R_ref at which the robot joint is at `offset`. The case's angle is taken
  /// from R * R_ref^T, i.e. relative to the reference (e.g. the robot's arm-down zero while the
  /// BVH rest pose is a T-pose). Zero (default) = the BVH rest pose, as in the paper.
  Eigen::Vector3d reference = Eigen::Vector3d::Zero();
  /// +1 or -1: direction of the robot joint relative to x.
  double sign = 1.0;
  /// Gain from x to the joint value (> 0, unitless; e.g. finger bend to servo angle).
  double scale = 1.0;
  /// Robot value when x = 0 (rad).
  double offset = 0.0;
  /// Optional position limits (rad), intersected with the robot's own limits.
  std::optional<double> lower{};
  std::optional<double> upper{};
};

/// A complete Euler/BVH map: one entry per mapped robot joint. Robot joints without an entry
/// hold their neutral value.
struct EulerMap {
  /// Free-form name, e.g. "inmoov/axis-neuron".
  std::string name;
  /// Source skeleton the joint names refer to, e.g. "axis-neuron", "cmu" (informational).
  std::string skeleton;
  std::vector<EulerJointMapping> joints;

  /// Checks every field; throws InvalidArgument naming the entry, the field and the value:
  /// empty or repeated robot joint, no source, empty source name, angle not in
  /// {0, 1, 2}, sign not +-1, scale not finite and > 0, non-finite offset, axis, reference or limit,
  /// lower > upper, zero wrist axis.
  RETARGET_DECL void validate() const;
};

/// True when two maps hold the same data (exact comparison of every field).
RETARGET_DECL bool operator==(const EulerJointMapping& a, const EulerJointMapping& b);
inline bool operator!=(const EulerJointMapping& a, const EulerJointMapping& b) { return !(a == b); }
RETARGET_DECL bool operator==(const EulerMap& a, const EulerMap& b);
inline bool operator!=(const EulerMap& a, const EulerMap& b) { return !(a == b); }

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL const char* toString(EulerCase kind) {
  switch (kind) {
    case EulerCase::kEuler: return "euler";
    case EulerCase::kElbowBend: return "elbow_bend";
    case EulerCase::kWristRotation: return "wrist_rotation";
    case EulerCase::kWristTwist: return "wrist_twist";
    case EulerCase::kFingerCurl: return "finger_curl";
  }
  return "unknown";
}

RETARGET_DECL EulerCase parseEulerCase(const std::string& text) {
  for (EulerCase c : {EulerCase::kEuler, EulerCase::kElbowBend, EulerCase::kWristRotation, EulerCase::kWristTwist,
                      EulerCase::kFingerCurl}) {
    if (text == toString(c)) return c;
  }
  RETARGET_THROW_UNLESS(false, InvalidArgument, "Euler mapping case (got '", text,
                        "', expected one of euler, elbow_bend, wrist_rotation, wrist_twist, finger_curl)");
  return EulerCase::kEuler;
}

RETARGET_DECL void EulerMap::validate() const {
  std::set<std::string> seen;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const EulerJointMapping& m = joints[i];
    const std::string where = "Euler map '" + name + "' joints[" + std::to_string(i) + "] ('" +
                              m.robot_joint + "')";
    RETARGET_THROW_UNLESS(!m.robot_joint.empty(), InvalidArgument, where,
                          ": robot_joint is empty (expected a robot joint name)");
    RETARGET_THROW_UNLESS(seen.insert(m.robot_joint).second, InvalidArgument, where,
                          ": robot_joint is mapped twice (expected one entry per robot joint)");
    RETARGET_THROW_UNLESS(!m.source.empty(), InvalidArgument, where,
                          ": source (got 0 names, expected at least 1 BVH joint name)");
    for (const auto& s : m.source) {
      RETARGET_THROW_UNLESS(!s.empty(), InvalidArgument, where, ": source contains an empty name");
    }
    RETARGET_THROW_UNLESS(m.angle >= 0 && m.angle <= 2, InvalidArgument, where, ": angle (got ", m.angle,
                          ", expected 0, 1 or 2)");
    const EulerOrder& o = m.order;
    RETARGET_THROW_UNLESS(o.axes[0] >= 0 && o.axes[0] < 3 && o.axes[1] >= 0 && o.axes[1] < 3 && o.axes[2] >= 0 &&
                              o.axes[2] < 3 && o.axes[0] != o.axes[1] && o.axes[1] != o.axes[2] &&
                              o.axes[0] != o.axes[2],
                          InvalidArgument, where, ": order (got axes ", o.axes[0], ",", o.axes[1], ",", o.axes[2],
                          ", expected three distinct axes)");
    RETARGET_THROW_UNLESS(m.sign == 1.0 || m.sign == -1.0, InvalidArgument, where, ": sign (got ", m.sign,
                          ", expected 1 or -1)");
    RETARGET_THROW_UNLESS(std::isfinite(m.scale) && m.scale > 0, InvalidArgument, where, ": scale (got ",
                          m.scale, ", expected a finite value > 0)");
    RETARGET_THROW_UNLESS(std::isfinite(m.offset), InvalidArgument, where, ": offset (got ", m.offset,
                          ", expected a finite value in rad)");
    RETARGET_THROW_UNLESS(m.axis.allFinite(), InvalidArgument, where, ": axis (got ", m.axis.transpose(),
                          ", expected finite values)");
    RETARGET_THROW_UNLESS(m.reference.allFinite(), InvalidArgument, where, ": reference (got ",
                          m.reference.transpose(), ", expected a finite rotation vector in rad)");
    RETARGET_THROW_UNLESS(m.kind != EulerCase::kWristRotation || m.axis.norm() > 1e-9, InvalidArgument, where,
                          ": axis (got ", m.axis.transpose(), ", expected a non-zero axis for wrist_rotation)");
    RETARGET_THROW_UNLESS(!m.lower || std::isfinite(*m.lower), InvalidArgument, where, ": lower (got ",
                          m.lower.value_or(0), ", expected a finite value in rad)");
    RETARGET_THROW_UNLESS(!m.upper || std::isfinite(*m.upper), InvalidArgument, where, ": upper (got ",
                          m.upper.value_or(0), ", expected a finite value in rad)");
    RETARGET_THROW_UNLESS(!(m.lower && m.upper) || *m.lower <= *m.upper, InvalidArgument, where,
                          ": limits (got lower ", m.lower.value_or(0), " > upper ", m.upper.value_or(0),
                          ", expected lower <= upper)");
  }
}

RETARGET_DECL bool operator==(const EulerJointMapping& a, const EulerJointMapping& b) {
  return a.robot_joint == b.robot_joint && a.kind == b.kind && a.source == b.source && a.order == b.order &&
         a.angle == b.angle && a.axis == b.axis && a.reference == b.reference && a.sign == b.sign && a.scale == b.scale && a.offset == b.offset &&
         a.lower == b.lower && a.upper == b.upper;
}

RETARGET_DECL bool operator==(const EulerMap& a, const EulerMap& b) {
  return a.name == b.name && a.skeleton == b.skeleton && a.joints == b.joints;
}

#endif  // RETARGET_DEFINE_MAPPERS

}  // namespace retarget
