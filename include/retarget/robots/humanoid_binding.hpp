#pragma once

/// @file
/// Automatic humanoid binding: which links and joints of an arbitrary robot model (typically read
/// from URDF) are its torso, pelvis, head, arms and legs, which joints are its shoulders, elbows,
/// wrists, hips, knees and ankles, and where its forward / left / up axes point. The robot-side
/// twin of the BVH rig binding (human/rig_binding.hpp). The result lists the canonical skeleton
/// points a virtual skeleton needs (`HumanoidBinding::points`, turned into a `VirtualSkeletonMap`
/// by robots/robot_skeleton.hpp) and, for a mapper, every limb as a joint index list from
/// the torso (or pelvis) to its end link.
///
/// How it works (topology first, geometry of the rest pose second, names only to break ties):
///
/// 1. Rest pose: forward kinematics at `RobotModel::neutralConfiguration()` (every coordinate 0,
///    clamped into its limits: the URDF's zero configuration) with the root link at the identity.
///    Every position below is in that root frame B (m).
/// 2. Bodies: links joined by fixed or mimic joints form one rigid body (sensor frames join the
///    link they sit on, mimic fingers join their hand). The bodies and the independent moving
///    joints form an undirected tree, so the result does not depend on which link is the URDF root.
/// 3. Small leaves are pruned: a branch from a leaf body to the nearest body with three or more
///    neighbours becomes part of the body it hangs from when its geometric reach is below
///    `min_limb_fraction` of the robot's size (eyes, a jaw, grippers), or below
///    `sibling_branch_fraction` beside another such branch (fingers, the wheels of a base; a head
///    is alone on the torso). Repeated until nothing changes. A tree left as one chain (two arms
///    on a fixed base: Baxter, YuMi) branches at its middle body by joint count.
/// 4. Limbs: every remaining leaf with the path to its branching body. Two limbs pair as mirror
///    twins when they branch from the same body, have the same number of joints and the same
///    profile (distances of their joints from their first joint, within `pair_tolerance` of their
///    length). Of the (at most two kept, the longest) pairs, the legs are the pair whose limbs point
///    away from the other pair's branch point (in the rest pose legs always point away from the
///    shoulders, whatever the arms do); a single pair is taken as the arms (a wheeled or fixed
///    robot), unless its names say leg/hip/knee/foot. The head is the unpaired leaf limb nearest
///    the shoulders. The torso is the body where the arms branch, the pelvis the body where the
///    legs branch (the same body on robots without a waist joint).
/// 5. Axes: up is from the feet's midpoint to the shoulders' midpoint (no legs: the root frame's
///    +z or -z, whichever is nearer the direction from the shoulders to the tip of the head, or
///    that direction itself when both are more than 45 deg from it; neither: the root's z). Forward is where the feet
///    point (the forward-most extent of each foot beyond its ankle), else where the arms point at
///    rest (NAO, Pepper), else where the head's parts lie (cameras in front), else from the names
///    (the left side of x forward, z up is +y). Left-right is the line between the two arm (else
///    leg) roots. The three are orthonormalised (up kept, then left) and each is snapped to the
///    nearest axis of the root frame when within `axis_snap_angle`.
/// 6. Sides: left is +y of that frame. Names (left, l_, L..., right, r_, R...) decide only when
///    geometry cannot (no forward cue); a name that disagrees with the geometry becomes a note.
/// 7. Key joints of a limb (moving joints from the branch body outward):
///    - bend (elbow, knee): among the joints whose axis is across the limb (|axis . d| < 0.5, d the
///      direction from the limb root to the joint), the one most in the middle of the limb, i.e.
///      maximising min(|p - root|, |tip - p|);
///    - root point (shoulder, hip): the point nearest (least squares) to the axis lines of the
///      joints before the bend (those within `joint_group_tolerance` of the bend excluded), which
///      is where shoulder or hip axes (nearly) meet; the first joint's position when there is one
///      joint only;
///    - distal (wrist, ankle): the first joint after the bend across the forearm / shin, else the
///      first joint after the bend; a limb with no joint after the bend (Unitree H1's arms) ends
///      there: the distal point is the tip of the limb;
///    - end (hand, foot): hand = the midpoint between the wrist and the tip of the hand (the
///      farthest point of the bodies beyond the wrist); foot = the forward-most extent of the foot
///      at the height of its sole (the lowest point of the foot), straight ahead of the ankle.
///    Joints within `joint_group_tolerance` of each other along a limb form one group (NAO's
///    ElbowYaw + ElbowRoll, an ankle's pitch + roll): a segment is carried by the body just before
///    the next group, so that both its ends stay fixed on it.
///
/// Points (see `HumanoidPointBinding`): the torso points (shoulders, hips, SpineShoulder,
/// SpineBase, SpineMid, Neck) are fixed on the torso or pelvis link; the limb and head points hang
/// from their proximal point as a vector in the link that carries the segment (the "link vector"
/// form of `VirtualPointSpec`, so that every virtual link is parallel to a link of the robot). A
/// vector within `link_axis_snap_angle` of an axis of its link is replaced by its projection on
/// that axis (NAO's 15 mm elbow offset, as the hand-written maps do).
///
/// Invariants of a returned binding: `points` is in evaluation order (every `from` point before
/// its users); each point's link exists in the model; every found chain lists moving joints with a
/// coordinate in q, from its base link outward.

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// The canonical skeleton points a humanoid binding looks for: the first 21 joints of the
/// canonical human skeleton, with the same values and names as `HumanJoint` (human/skeleton.hpp),
/// repeated here so that the binding needs the core only (robots/robot_skeleton.hpp checks
/// that the two agree).
enum class HumanoidPoint : std::uint8_t {
  kSpineBase = 0,
  kSpineMid,
  kNeck,
  kHead,
  kShoulderLeft,
  kElbowLeft,
  kWristLeft,
  kHandLeft,
  kShoulderRight,
  kElbowRight,
  kWristRight,
  kHandRight,
  kHipLeft,
  kKneeLeft,
  kAnkleLeft,
  kFootLeft,
  kHipRight,
  kKneeRight,
  kAnkleRight,
  kFootRight,
  kSpineShoulder,
};

/// Number of humanoid points (21).
inline constexpr int kHumanoidPointCount = 21;

/// Names of the humanoid points (Kinect v2 names, as `kHumanJointNames`).
inline constexpr std::array<std::string_view, kHumanoidPointCount> kHumanoidPointNames = {
    "SpineBase", "SpineMid",  "Neck",      "Head",       "ShoulderLeft", "ElbowLeft",  "WristLeft",
    "HandLeft",  "ShoulderRight", "ElbowRight", "WristRight", "HandRight", "HipLeft",  "KneeLeft",
    "AnkleLeft", "FootLeft",  "HipRight",  "KneeRight",  "AnkleRight",   "FootRight",  "SpineShoulder"};

/// The limbs of a humanoid binding.
enum class HumanoidLimb : std::uint8_t { kLeftArm = 0, kRightArm, kLeftLeg, kRightLeg, kHead };

/// Number of limbs (5).
inline constexpr int kHumanoidLimbCount = 5;

/// Names of the limbs as written in robot schema files: "left_arm", "right_arm", "left_leg",
/// "right_leg", "head".
inline constexpr std::array<std::string_view, kHumanoidLimbCount> kHumanoidLimbNames = {
    "left_arm", "right_arm", "left_leg", "right_leg", "head"};

/// A user's pin of one limb (robot schema file): what the automatic binding must use. Empty
/// fields are found automatically.
struct HumanoidLimbPin {
  /// A link at or beyond the end of this limb (hand, foot, head link): selects which leaf limb it
  /// is. "-" declares the limb absent.
  std::string end_link;
  /// The bend joint (elbow, knee; unused for the head).
  std::string bend_joint;
  /// The distal joint (wrist, ankle; unused for the head).
  std::string distal_joint;
};

/// Options of `bindHumanoid` (a plain aggregate; checked by `validate()`, which bindHumanoid calls).
struct HumanoidBindingOptions {
  /// A branch whose reach is below this fraction of the robot's size (the diagonal of the box
  /// around its rest pose) is not a limb (eyes, a jaw, grippers, wheels). In (0, 0.5).
  double min_limb_fraction = 0.05;
  /// Nor is a branch below this fraction beside another such branch on the same body (fingers,
  /// the wheels of a base); a head is alone on the torso. In [min_limb_fraction, 0.5).
  double sibling_branch_fraction = 0.15;
  /// Two limbs pair as mirror twins when their joint profiles differ by at most this fraction of
  /// their length on average. In (0, 1).
  double pair_tolerance = 0.15;
  /// Joints closer than this fraction of the robot's size belong to one joint group (rad-free,
  /// unitless). In [0, 0.2).
  double joint_group_tolerance = 0.02;
  /// A found axis within this angle of an axis of the root frame is snapped to it (rad, [0, pi/4]).
  double axis_snap_angle = 10.0 * kPi<double> / 180.0;
  /// A segment vector within this angle of an axis of its link is projected on it (rad, [0, pi/4]).
  double link_axis_snap_angle = 10.0 * kPi<double> / 180.0;
  /// Forward (x) and up (z) of the robot frame in the root frame B, when known (non-zero, not
  /// parallel; normalised). Unset: found from the rest pose.
  std::optional<Eigen::Vector3d> forward{};
  std::optional<Eigen::Vector3d> up{};
  /// Pins per limb (indexed by `HumanoidLimb`).
  std::array<HumanoidLimbPin, kHumanoidLimbCount> limbs{};

  /// Throws InvalidArgument naming the field when a value is out of range.
  void validate() const {
    RETARGET_THROW_UNLESS(min_limb_fraction > 0 && min_limb_fraction < 0.5, InvalidArgument,
                          "HumanoidBindingOptions::min_limb_fraction (got ", min_limb_fraction, ", expected in (0, 0.5))");
    RETARGET_THROW_UNLESS(sibling_branch_fraction >= min_limb_fraction && sibling_branch_fraction < 0.5, InvalidArgument,
                          "HumanoidBindingOptions::sibling_branch_fraction (got ", sibling_branch_fraction,
                          ", expected in [min_limb_fraction, 0.5))");
    RETARGET_THROW_UNLESS(pair_tolerance > 0 && pair_tolerance < 1, InvalidArgument,
                          "HumanoidBindingOptions::pair_tolerance (got ", pair_tolerance, ", expected in (0, 1))");
    RETARGET_THROW_UNLESS(joint_group_tolerance >= 0 && joint_group_tolerance < 0.2, InvalidArgument,
                          "HumanoidBindingOptions::joint_group_tolerance (got ", joint_group_tolerance,
                          ", expected in [0, 0.2))");
    RETARGET_THROW_UNLESS(axis_snap_angle >= 0 && axis_snap_angle <= 0.7854, InvalidArgument,
                          "HumanoidBindingOptions::axis_snap_angle (got ", axis_snap_angle, " rad, expected in [0, pi/4])");
    RETARGET_THROW_UNLESS(link_axis_snap_angle >= 0 && link_axis_snap_angle <= 0.7854, InvalidArgument,
                          "HumanoidBindingOptions::link_axis_snap_angle (got ", link_axis_snap_angle,
                          " rad, expected in [0, pi/4])");
    for (const auto* axis : {&forward, &up}) {
      if (!*axis) continue;
      RETARGET_THROW_UNLESS((*axis)->allFinite() && (*axis)->norm() > 1e-9, InvalidArgument,
                            "HumanoidBindingOptions::", axis == &forward ? "forward" : "up",
                            " (got a zero or non-finite vector, expected a direction)");
    }
    if (forward && up) {
      RETARGET_THROW_UNLESS(forward->normalized().cross(up->normalized()).norm() > 0.1, InvalidArgument,
                            "HumanoidBindingOptions::forward (got a direction parallel to up, expected across it)");
    }
  }
};

/// One limb as found: its joints from the base link outward (the mapper's chain) and its key joints.
struct HumanoidChain {
  bool found = false;
  /// The link the limb hangs from (torso for arms and head, pelvis for legs) and its last link.
  std::string base_link;
  std::string end_link;
  /// Indices into `RobotModel::joints()` of the limb's independent moving joints, base first. In a
  /// model whose root is beyond the base (a re-rooted tree) some are crossed child to parent.
  std::vector<int> joints;
  /// Their q indices (same order).
  std::vector<int> q;
  /// Names of the key joints: first (shoulder / hip / neck), bend (elbow / knee), distal
  /// (wrist / ankle); empty when absent.
  std::string root_joint, bend_joint, distal_joint;
};

/// Where one canonical point sits on the robot: p = X_BL * v_L (fixed on `link`, `from` empty) or
/// p = p(from) + R_BL * v_L (a link vector hung from another point), as `VirtualPointSpec`.
struct HumanoidPointBinding {
  HumanoidPoint point = HumanoidPoint::kSpineBase;
  std::optional<HumanoidPoint> from{};
  std::string link;
  Eigen::Vector3d v_L = Eigen::Vector3d::Zero();  ///< m, link frame L.
  Eigen::Vector3d p_B = Eigen::Vector3d::Zero();  ///< m, root frame B, rest pose (for display).
  std::string rule;                               ///< How it was found (one phrase).
};

/// The result of `bindHumanoid`. See the file doc for the invariants.
struct HumanoidBinding {
  std::string robot;
  /// The link where the arms branch and the link where the legs branch (may be equal; empty when
  /// not found).
  std::string torso_link;
  std::string pelvis_link;
  /// Independent moving joints from the pelvis to the torso (the waist), pelvis first.
  std::vector<int> spine_joints;
  /// The robot frame R in the root frame B: columns forward (x), left (y), up (z).
  Eigen::Matrix3d R_BR = Eigen::Matrix3d::Identity();
  /// Limbs indexed by `HumanoidLimb`.
  std::array<HumanoidChain, kHumanoidLimbCount> limbs{};
  /// The points found, in evaluation order.
  std::vector<HumanoidPointBinding> points;
  /// What could not be found, one phrase each ("head: no head chain ...").
  std::vector<std::string> missing;
  /// Decisions worth knowing (names disagreeing with geometry, pruned branches, axis sources).
  std::vector<std::string> notes;

  const HumanoidChain& limb(HumanoidLimb l) const { return limbs[static_cast<std::size_t>(l)]; }
  /// The binding of `p`, or nullptr when it was not found.
  const HumanoidPointBinding* find(HumanoidPoint p) const {
    for (const auto& b : points) {
      if (b.point == p) return &b;
    }
    return nullptr;
  }
  /// True when both arms, both legs and the head were found.
  bool complete() const {
    return std::all_of(limbs.begin(), limbs.end(), [](const HumanoidChain& c) { return c.found; });
  }
};


/// The options that pin everything `binding` found (axes, end links, bend and distal joints;
/// limbs not found are declared absent with "-"): binding the same robot with them gives the
/// same result. What `retarget schema suggest robot.urdf` writes, for the user to edit.
inline HumanoidBindingOptions humanoidSchema(const HumanoidBinding& binding) {
  HumanoidBindingOptions options;
  options.forward = Eigen::Vector3d(binding.R_BR.col(0));
  options.up = Eigen::Vector3d(binding.R_BR.col(2));
  for (std::size_t l = 0; l < kHumanoidLimbCount; ++l) {
    const HumanoidChain& c = binding.limbs[l];
    options.limbs[l] = c.found ? HumanoidLimbPin{c.end_link, c.bend_joint, c.distal_joint} : HumanoidLimbPin{"-", "", ""};
  }
  return options;
}

/// Binds `model` as a humanoid (see the file doc for the rules). Never fails on an unusual robot:
/// what it cannot find is listed in `HumanoidBinding::missing`. Throws InvalidArgument when
/// `options` is invalid (naming the field) or a pin names a link or joint the robot does not have
/// in the right place (naming the pin and the name).
template <typename Scalar>
HumanoidBinding bindHumanoid(const RobotModel<Scalar>& model, const HumanoidBindingOptions& options = {});

}  // namespace retarget

// The implementation: the binding's steps and bindHumanoid's definition, where the layer's
// definitions are compiled (header-only, or the compiled part's robots source; a program linking
// the compiled part takes the double and float bindHumanoid from it and never parses the binder).
#if RETARGET_DEFINE_ROBOTS
#include <retarget/robots/internal/humanoid_binder.hpp>
#endif

#if !RETARGET_HEADER_ONLY
namespace retarget {
RETARGET_TEMPLATE_ROBOTS HumanoidBinding bindHumanoid<double>(const RobotModel<double>&, const HumanoidBindingOptions&);
RETARGET_TEMPLATE_ROBOTS HumanoidBinding bindHumanoid<float>(const RobotModel<float>&, const HumanoidBindingOptions&);
}  // namespace retarget
#endif
