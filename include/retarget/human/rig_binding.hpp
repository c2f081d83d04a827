#pragma once

/// @file
/// Automatic rig binding: binds any humanoid BVH hierarchy onto the canonical human skeleton
/// (human/skeleton.hpp) without a schema file, from its topology, its rest pose and its joint
/// names, and produces a `SkeletonSchema` (human/schema.hpp) so that the ordinary BVH ->
/// canonical path (io/bvh_skeleton.hpp) is reused.
///
/// How a hierarchy is bound (`bindRig`):
/// 1. Structure. Rest-pose positions come from the OFFSETs (all rotations zero), each position
///    channel overriding its OFFSET component with its median over the frames (BVH convention: a
///    joint with position channels sits where they say, whatever its OFFSET). A child branch
///    is *significant* when the longest path through it is at least 8% of the rest pose's largest
///    extent (fingers, toes and twist leaves are not). The hips are the first joint below the
///    root with three significant branches (spine and two legs); the spine branch is the one that
///    splits again (the chest, where the arms leave); the chest's shortest significant branch is
///    the neck/head chain, the two longest the arms. Each limb chain follows the child with the
///    longest reach down to a leaf.
/// 2. Up axis, height and units, from the rest pose and the motion (forward kinematics of up to 240
///    evenly spaced frames, every channel applied). The rest pose counts only when it is a standing
///    pose (legs and spine leave the hips in opposite directions; LAFAN1's bones along each joint's
///    +X are not). Up is the signed file axis nearest to the direction from the feet (leg chain
///    tips) to the head (head chain tip): in the standing rest pose, or else the median over the
///    frames (which also overrides the rest pose when at least 80% of the frames stand along another
///    axis). With neither, the binding fails. The height (file units) is the rest pose's, or the
///    90th percentile over the frames of the head top above the lowest leg joint; the unit (metre,
///    centimetre, millimetre, inch, CMU ASF unit) is the one that makes the person 1.2-2.1 m tall in
///    the motion, else in the rest pose, else the nearest to 1.7 m. `RigBinding::up_from`,
///    `units_from` and `facing_from` say what decided each. Distances inside the chains (step 3)
///    are straight in a standing rest pose, else the lengths of the bones between the joints.
/// 3. Roles inside the chains. Upper arm / forearm / hand and thigh / shin / foot are chosen among
///    the chain's joints by a score: log-ratio of each bone length to the anthropometric
///    proportion of the height (Winter, "Biomechanics and motor control of human movement",
///    Fig. 4.1: upper arm 0.186 H, forearm 0.146 H, hand 0.108 H, thigh 0.245 H, shin 0.246 H),
///    minus a bonus for each joint whose name names that role in a known naming family (LAFAN1,
///    Mixamo with or without namespace, CMU, Biovision, Axis Neuron / Studio, Xsens MVN,
///    OptiTrack Motive, Rokoko, Unity / Blender humanoid, SMPL, DAZ). Joints between the chest and
///    the upper arm are the collar; the toe is the first joint after the foot.
///    So Biovision's "LeftShoulder" (after a "LeftCollar") is the upper arm and Mixamo's (before a
///    "LeftArm") is the collar.
/// 4. Left and right from the names (Left, L_, _L, .L, l, Lft, ...); when the names say nothing,
///    from geometry (left = up x forward, forward from the feet).
/// 5. Facing: forward = left x up when the names gave the sides, else the mean horizontal
///    direction of the feet (ankle to toe tip); from the rest pose when it stands and gave the up
///    axis, else medians over the frames. The source frame rotation R_WS follows.
/// 6. Plausibility of the mapped body; a failure is refused (`RigBindingOptions::refuse_implausible`)
///    with the file, the reason and the `retarget schema suggest` hint: the head below the hips in
///    most frames; an upper arm, forearm, thigh or shin outside 0.4-2.5 times its share of the
///    height; an arm longer than 1.25 legs; a leg (hip to ankle) over 3 or under 0.4 times the hips
///    to head; left and right limbs differing by more than 1.3 times; the arms named left on the
///    legs' right side; a confidence of 0.5 or less (names that say another body part than the
///    joint's place, or toes pointing backwards for the sides the names give).
///
/// Every guess is reported in `RigBinding::guesses`; `RigBindingOptions` overrides the unit scale
/// and the frame. Canonical joints from the bound roles (the choices of human/bvh_schemas.hpp):
/// SpineBase = hips; SpineMid = the middle of the spine chain (hips excluded, chest included);
/// SpineShoulder = the first neck joint; Neck = the second neck joint, or halfway between the
/// only neck joint and the head; Head = halfway between the head joint and the head's tip when
/// there is one; Shoulder / Elbow / Wrist = upper arm / forearm / hand; HandLeft = halfway between
/// the hand and its first child on the longest finger, HandTip = that finger's tip, Thumb = the
/// thumb's tip; Hip / Knee / Ankle = thigh / shin / foot; FootLeft = the toe joint, else the
/// foot's tip.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/schema.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// The body part a joint of a bound rig plays.
enum class RigRole : std::uint8_t {
  kNone,       ///< not part of the canonical body (fingers other than the ones used, twist leaves, ...)
  kRoot,       ///< above the hips (a reference or root joint)
  kHips,       ///< pelvis; the spine and both legs branch here
  kSpine,      ///< between hips and chest
  kChest,      ///< the spine joint where the arms branch
  kNeck,       ///< between chest and head
  kHead,       ///< the head joint (base of the skull)
  kHeadTop,    ///< tip of the head chain
  kCollar,     ///< clavicle: between the chest and the upper arm
  kUpperArm,   ///< shoulder joint
  kForeArm,    ///< elbow joint
  kHand,       ///< wrist joint
  kFinger,     ///< a joint of the longest finger (HandLeft / HandTipLeft come from it)
  kThumb,      ///< a joint of the thumb
  kPelvis,     ///< between the hips and the thigh (CMU's LHipJoint)
  kThigh,      ///< hip joint
  kShin,       ///< knee joint
  kFoot,       ///< ankle joint
  kToe,        ///< toe joint or the foot's tip
};

/// Lower-case name of a role ("upper-arm", ...).
RETARGET_LAZY_DECL const char* rigRoleName(RigRole role);

/// What decided one property of a binding (up axis, units, facing).
enum class RigEvidence : std::uint8_t {
  kGiven,     ///< RigBindingOptions
  kRestPose,  ///< the rest pose (OFFSETs, position channels at their median), a standing pose
  kMotion,    ///< the frames of the motion (forward kinematics with every channel)
  kNames,     ///< the joint names' side markers (facing = left x up)
  kDefault,   ///< an export convention, nothing in the file decided it
};

/// Lower-case name of an evidence ("rest pose", "motion", ...).
RETARGET_LAZY_DECL const char* rigEvidenceName(RigEvidence evidence);

/// Side of a bound joint: +1 left, -1 right, 0 centre.
enum class RigSide : std::int8_t { kRight = -1, kCentre = 0, kLeft = 1 };

/// The binding of one BVH joint.
struct RigJointBinding {
  RigRole role = RigRole::kNone;
  RigSide side = RigSide::kCentre;
  /// 1: the name agrees with the role found from the structure; 0.75: the name says nothing
  /// (structure and geometry only); 0.5: the name suggests another role; 0 for kNone.
  double confidence = 0;
};

/// Overrides of what `bindRig` would otherwise guess.
struct RigBindingOptions {
  /// Metres per file unit (> 0); unset: guessed from the body height.
  std::optional<double> scale{};
  /// Rotation from the file frame S into the canonical frame W (x forward, y left, z up); unset:
  /// guessed from the rest pose.
  std::optional<Eigen::Matrix3d> R_WS{};
  /// Name of the produced schema (SkeletonMotion::format becomes "bvh/<name>").
  std::string name = "auto";
  /// True: refuse (throw) a binding whose mapped body is implausible (see `bindRig`); false: bind
  /// anyway and list the problems in `RigBinding::problems` (what `retarget schema suggest` does,
  /// so that the suggestion can be edited).
  bool refuse_implausible = true;

  /// Throws InvalidArgument for a non-positive scale or a non-rotation frame.
  RETARGET_LAZY_DECL void validate() const;
};

/// The result of binding a BVH hierarchy to the canonical skeleton.
///
/// Joint indices are into `BvhMotion::joints`, -1 when absent. Arm and leg arrays are indexed
/// 0 = left, 1 = right. Positions and lengths are in file units unless stated.
struct RigBinding {
  /// Per BVH joint (and End Site): role, side and confidence.
  std::vector<RigJointBinding> joints;
  int root = -1, hips = -1, chest = -1, head = -1, head_top = -1;
  /// Spine joints after the hips up to the chest (included), root side first.
  std::vector<int> spine;
  /// Neck joints after the chest, before the head.
  std::vector<int> neck;
  struct Arm {
    int collar = -1, upper_arm = -1, forearm = -1, hand = -1;
    int finger_base = -1, hand_tip = -1, thumb_tip = -1;
  };
  struct Leg {
    int pelvis = -1, thigh = -1, shin = -1, foot = -1, toe = -1, foot_tip = -1;
  };
  std::array<Arm, 2> arms{};
  std::array<Leg, 2> legs{};
  /// Rest-pose height in file units (feet to the top of the head; estimated from the head joint
  /// when the head chain has no tip).
  double height = 0;
  /// Metres per file unit, and its unit name ("m", "cm", "mm", "in", "cmu-asf", or "given").
  double scale = 1;
  std::string unit;
  /// Rotation from the file frame S into the canonical frame W.
  Eigen::Matrix3d R_WS = Eigen::Matrix3d::Identity();
  /// True when the sides came from the joint names (false: from geometry).
  bool sides_from_names = false;
  /// What decided the up axis, the units and the facing (forward axis).
  RigEvidence up_from = RigEvidence::kRestPose, units_from = RigEvidence::kRestPose,
              facing_from = RigEvidence::kRestPose;
  /// True when the rest pose (all rotations zero) is a standing pose: legs and spine leave the
  /// hips in opposite directions. LAFAN1-style rigs (bones along each joint's +X) are not.
  bool rest_pose_standing = false;
  /// Frames of the motion the binding looked at (evenly spaced, at most 240; 0 for no frames).
  int frames_used = 0;
  /// Body height in metres the units give (feet to the top of the head).
  double height_m = 0;
  /// Why the mapped body is implausible, one sentence each (empty when it is plausible; with
  /// `RigBindingOptions::refuse_implausible` the first one is thrown instead).
  std::vector<std::string> problems;
  /// Lowest per-joint confidence among the bound body joints, in [0, 1].
  double confidence = 0;
  /// What was guessed, one sentence each (units, up axis, facing, sides).
  std::vector<std::string> guesses;
  /// The schema that maps the file onto the canonical skeleton (valid, axis-aligned frame).
  SkeletonSchema schema;
};

namespace internal {

/// Body-part words found in a joint name (bit flags).
enum RigWord : std::uint32_t {
  kRigWordHips = 1u << 0,
  kRigWordSpine = 1u << 1,
  kRigWordNeck = 1u << 2,
  kRigWordHead = 1u << 3,
  kRigWordTop = 1u << 4,
  kRigWordCollar = 1u << 5,
  kRigWordShoulder = 1u << 6,  // collar (Mixamo, Rokoko, Unity) or upper arm (Biovision, SMPL)
  kRigWordUpperArm = 1u << 7,
  kRigWordForeArm = 1u << 8,
  kRigWordHand = 1u << 9,
  kRigWordThigh = 1u << 10,
  kRigWordShin = 1u << 11,
  kRigWordFoot = 1u << 12,
  kRigWordToe = 1u << 13,
  kRigWordThumb = 1u << 14,
  kRigWordMiddle = 1u << 15,
  kRigWordFinger = 1u << 16,
  kRigWordHipSide = 1u << 17,  // "hip" with a side marker: the thigh (Biovision, SMPL) or CMU's LHipJoint
};

/// Side and body-part words of one joint name.
struct RigName {
  int side = 0;  // +1 left, -1 right, 0 none
  std::uint32_t words = 0;
};

/// Splits a joint name into lower-case tokens: namespace ("ns:") dropped, split at non-letters and
/// digits, camelCase boundaries; vertebra names (L5, T12, C7) become "vertebra".
RETARGET_LAZY_DECL void rigTokens(std::string_view joint_name, std::vector<std::string>& tokens);

/// Side and body-part words of a joint name (see the naming families in the file comment).
RETARGET_LAZY_DECL RigName rigName(std::string_view joint_name);

/// The signed unit axis (a row of +-1 in one column) nearest to `v`; `cosine` receives |v.axis|/|v|.
RETARGET_LAZY_DECL Eigen::Vector3d rigSnapAxis(const Eigen::Vector3d& v, double& cosine);

RETARGET_LAZY_DECL std::string rigAxisName(const Eigen::Vector3d& axis);

RETARGET_LAZY_DECL std::string rigNumber(double value, int precision = 4);

}  // namespace internal

/// Binds a humanoid BVH hierarchy to the canonical skeleton from its structure, rest pose, motion
/// and joint names (method in the file comment). Returns the roles of every joint, the guessed
/// units and frame (or the ones in `options`), what was guessed and from what, and a schema for
/// `bvhToSkeleton`. Throws `retarget::InvalidArgument` naming the file (`BvhMotion::source`) and
/// what is wrong when the hierarchy is not a humanoid (no hips with two legs and a spine, no chest
/// with two arms and a head, a limb chain too short), when neither the rest pose nor the motion
/// gives the up axis, when the mapped body is implausible (step 6; unless
/// `options.refuse_implausible` is false) or when `options` is invalid.
RETARGET_LAZY_DECL RigBinding bindRig(const BvhMotion& motion, const RigBindingOptions& options = {});

#if RETARGET_DEFINE_HUMAN

RETARGET_LAZY_DEF const char* rigRoleName(RigRole role) {
  constexpr const char* kNames[] = {"-",        "root",   "hips",      "spine",   "chest", "neck",   "head",
                                    "head-top", "collar", "upper-arm", "forearm", "hand",  "finger", "thumb",
                                    "pelvis",   "thigh",  "shin",      "foot",    "toe"};
  return kNames[static_cast<int>(role)];
}

RETARGET_LAZY_DEF const char* rigEvidenceName(RigEvidence evidence) {
  constexpr const char* kNames[] = {"given", "rest pose", "motion", "names", "default"};
  return kNames[static_cast<int>(evidence)];
}

namespace internal {

// Working data of one binding: the binder behind bindRig, defined with the definitions (inline in
// a header-only build, once in the compiled part), not among the public declarations.
class RigBinder {
 public:
  RigBinder(const BvhMotion& motion, const RigBindingOptions& options) : m_(motion), options_(options) {}

  RETARGET_LAZY_DECL RigBinding bind();

 private:
  [[noreturn]] RETARGET_DECL void fail(const std::string& what) const;
  const std::string& nameOf(int j) const { return m_.joints[static_cast<std::size_t>(j)].name; }
  // Distance between a joint and one of its descendants (file units): in a standing rest pose the
  // straight distance, else the length of the path of bones between them (pose-independent).
  RETARGET_LAZY_DECL double dist(int a, int b) const;
  const Eigen::Vector3d& pos(int j) const { return p_[static_cast<std::size_t>(j)]; }

  RETARGET_LAZY_DECL void restPose();

  // Joint positions (file units, one column per joint) of up to 240 evenly spaced frames.
  RETARGET_LAZY_DECL void sampleMotion();
  // Component-wise median over the poses the geometry comes from (the motion samples, or the rest
  // pose) of f(positions); f returns a Vector3d.
  template <typename F>
  Eigen::Vector3d medianOver(bool motion, F f) const;
  // True when legs and spine leave the hips in opposite directions in the pose P.
  RETARGET_LAZY_DECL bool standing(const Eigen::Matrix3Xd& P) const;
  // Feet (mean of the leg tips) to the top of the head in the pose P (file units).
  RETARGET_LAZY_DECL Eigen::Vector3d feetToHead(const Eigen::Matrix3Xd& P) const;
  // Head top above the lowest leg joint along up_ in the pose P (file units).
  RETARGET_LAZY_DECL double standingHeight(const Eigen::Matrix3Xd& P) const;
  // Appends a problem of the mapped body, or throws it when refusing.
  RETARGET_LAZY_DECL void implausible(const std::string& what);
  RETARGET_LAZY_DECL void checkPlausible();

  RETARGET_LAZY_DECL double branchReach(int child) const;
  RETARGET_LAZY_DECL std::vector<int> significantChildren(int j) const;
  RETARGET_LAZY_DECL int longestChild(int j) const;
  RETARGET_LAZY_DECL std::vector<int> chainFrom(int start) const;
  // First joint at or below `start` (following significant children) with >= 2 significant children.
  RETARGET_LAZY_DECL int findSplit(int start) const;

  RETARGET_LAZY_DECL void findChains();

  RETARGET_LAZY_DECL void upAndUnits();

  RETARGET_LAZY_DECL void setRole(int j, RigRole role, int side, std::uint32_t agree, std::uint32_t other = 0);

  RETARGET_LAZY_DECL void bindSpine();

  // Penalty of a length against its expected value (both file units): squared log ratio, sigma.
  RETARGET_LAZY_DECL static double lengthCost(double length, double expected, double sigma);
  bool has(int j, std::uint32_t words) const { return (names_[static_cast<std::size_t>(j)].words & words) != 0u; }

  RETARGET_LAZY_DECL void bindArm(const std::vector<int>& chain, int slot);

  RETARGET_LAZY_DECL void bindLeg(const std::vector<int>& chain, int slot);

  // Majority side of the names in a chain: +1, -1 or 0.
  RETARGET_LAZY_DECL int nameSide(const std::vector<int>& chain) const;

  RETARGET_LAZY_DECL void sidesAndFacing();

  RETARGET_LAZY_DECL void makeSchema();

  const BvhMotion& m_;
  RigBindingOptions options_;
  RigBinding out_;
  std::vector<Eigen::Vector3d> p_;
  // Rest translation of each joint in its parent (file units): OFFSET, each position channel's
  // component replaced by its median over the frames.
  std::vector<Eigen::Vector3d> t_;
  Eigen::Matrix3Xd rest_;
  std::vector<Eigen::Matrix3Xd> samples_;
  // Geometry (facing, sides, distances) from the motion samples rather than the rest pose.
  bool geometry_from_motion_ = false;
  std::vector<std::vector<int>> children_;
  std::vector<double> reach_;
  std::vector<int> subtree_;
  std::vector<RigName> names_;
  double extent_ = 0;
  Eigen::Vector3d up_ = Eigen::Vector3d::UnitZ();
  std::vector<int> head_chain_;
  std::array<std::vector<int>, 2> arm_chain_, leg_chain_;
  bool feet_disagree_ = false;
};

RETARGET_LAZY_DEF void rigTokens(std::string_view joint_name, std::vector<std::string>& tokens) {
  tokens.clear();
  if (const auto colon = joint_name.rfind(':'); colon != std::string_view::npos) joint_name.remove_prefix(colon + 1);
  auto isUpper = [](char c) { return c >= 'A' && c <= 'Z'; };
  auto isLower = [](char c) { return c >= 'a' && c <= 'z'; };
  auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
  std::size_t i = 0;
  while (i < joint_name.size()) {
    while (i < joint_name.size() && !(isUpper(joint_name[i]) || isLower(joint_name[i]) || isDigit(joint_name[i]))) ++i;
    std::size_t end = i;
    while (end < joint_name.size() &&
           (isUpper(joint_name[end]) || isLower(joint_name[end]) || isDigit(joint_name[end]))) {
      ++end;
    }
    const std::string_view chunk = joint_name.substr(i, end - i);
    i = end;
    if (chunk.empty()) continue;
    // Vertebrae (Xsens MVN: L5, L3, T12, T8; also C7): not a side marker.
    if (chunk.size() >= 2 && chunk.size() <= 3 && (chunk[0] == 'L' || chunk[0] == 'T' || chunk[0] == 'C') &&
        std::all_of(chunk.begin() + 1, chunk.end(), isDigit)) {
      tokens.emplace_back("vertebra");
      continue;
    }
    std::size_t start = 0;
    for (std::size_t k = 1; k <= chunk.size(); ++k) {
      bool split = k == chunk.size();
      if (!split) {
        const char a = chunk[k - 1], b = chunk[k];
        split = (isLower(a) && isUpper(b)) || (isDigit(a) != isDigit(b)) ||
                (isUpper(a) && isUpper(b) && k + 1 < chunk.size() && isLower(chunk[k + 1]));
      }
      if (!split) continue;
      std::string token(chunk.substr(start, k - start));
      start = k;
      if (isDigit(token[0])) continue;
      // "LU", "LF", "RT" (OptiTrack LUArm, LFArm): a side letter glued to a modifier letter.
      if (token.size() == 2 && isUpper(token[0]) && isUpper(token[1]) && (token[0] == 'L' || token[0] == 'R')) {
        tokens.emplace_back(1, static_cast<char>(toLowerAscii(token[0])));
        tokens.emplace_back(1, static_cast<char>(toLowerAscii(token[1])));
        continue;
      }
      for (char& c : token) c = toLowerAscii(c);
      tokens.push_back(std::move(token));
    }
  }
}

RETARGET_LAZY_DEF RigName rigName(std::string_view joint_name) {
  thread_local std::vector<std::string> tokens;
  rigTokens(joint_name, tokens);
  RigName out;
  auto is = [](const std::string& t, std::initializer_list<const char*> words) {
    for (const char* w : words) {
      if (t == w) return true;
    }
    return false;
  };
  for (std::size_t k = 0; k < tokens.size(); ++k) {
    const std::string& t = tokens[k];
    const std::string prev = k > 0 ? tokens[k - 1] : std::string();
    if (is(t, {"left", "l", "lft"})) out.side = 1;
    if (is(t, {"right", "r", "rt", "rgt", "rght"})) out.side = -1;
    if (is(t, {"hips", "pelvis", "root"})) out.words |= kRigWordHips;
    if (is(t, {"spine", "chest", "ab", "abdomen", "torso", "back", "waist", "vertebra", "belly"})) {
      out.words |= kRigWordSpine;
    }
    if (is(t, {"neck"})) out.words |= kRigWordNeck;
    if (is(t, {"head", "skull"})) out.words |= kRigWordHead;
    if (is(t, {"top", "end", "nub", "tip", "headtop"})) out.words |= kRigWordTop;
    if (is(t, {"collar", "clavicle", "clav", "collarbone"})) out.words |= kRigWordCollar;
    if (is(t, {"shoulder", "shldr"})) out.words |= kRigWordShoulder;
    if (is(t, {"upperarm", "uparm", "uarm", "humerus", "bicep"})) out.words |= kRigWordUpperArm;
    if (is(t, {"forearm", "lowerarm", "elbow", "farm", "radius", "ulna"})) out.words |= kRigWordForeArm;
    if (t == "arm") {
      out.words |= is(prev, {"fore", "lower", "f", "low"}) ? kRigWordForeArm : kRigWordUpperArm;
    }
    if (is(t, {"hand", "wrist", "palm"})) out.words |= kRigWordHand;
    if (is(t, {"upleg", "upperleg", "thigh", "femur"})) out.words |= kRigWordThigh;
    if (is(t, {"lowerleg", "shin", "knee", "calf", "tibia", "crus"})) out.words |= kRigWordShin;
    if (t == "leg") out.words |= is(prev, {"up", "upper", "u"}) ? kRigWordThigh : kRigWordShin;
    if (is(t, {"hip", "hipjoint"})) out.words |= kRigWordHipSide;
    if (is(t, {"foot", "ankle"})) out.words |= kRigWordFoot;
    if (is(t, {"toe", "toes", "toebase", "ball", "toe0"})) out.words |= kRigWordToe;
    if (t == "base" && prev == "toe") out.words |= kRigWordToe;
    if (is(t, {"thumb", "pollex"})) out.words |= kRigWordThumb;
    if (is(t, {"middle", "mid"})) out.words |= kRigWordMiddle;
    if (is(t, {"index", "ring", "pinky", "little", "finger", "fingers", "digit"})) out.words |= kRigWordFinger;
  }
  // "hip" alone (OptiTrack's root "Hip") is the pelvis; with a side it is the thigh.
  if ((out.words & kRigWordHipSide) != 0u) {
    if (out.side != 0) {
      out.words |= kRigWordThigh;
    } else {
      out.words |= kRigWordHips;
    }
  }
  return out;
}

RETARGET_LAZY_DEF Eigen::Vector3d rigSnapAxis(const Eigen::Vector3d& v, double& cosine) {
  Eigen::Index k = 0;
  v.cwiseAbs().maxCoeff(&k);
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();
  axis[k] = v[k] >= 0 ? 1.0 : -1.0;
  const double n = v.norm();
  cosine = n > 0 ? std::abs(v[k]) / n : 0.0;
  return axis;
}

RETARGET_LAZY_DEF std::string rigAxisName(const Eigen::Vector3d& axis) {
  for (int c = 0; c < 3; ++c) {
    if (axis[c] != 0) return std::string(axis[c] > 0 ? "+" : "-") + static_cast<char>('X' + c);
  }
  return "?";
}

RETARGET_LAZY_DEF std::string rigNumber(double value, int precision) {
  std::ostringstream out;
  out.precision(precision);
  out << value;
  return out.str();
}


RETARGET_LAZY_DEF RigBinding RigBinder::bind() {
  options_.validate();
  const std::size_t n = m_.joints.size();
  RETARGET_THROW_UNLESS(n > 0, InvalidArgument, "the BVH hierarchy has no joints (expected a humanoid skeleton)");
  out_.joints.assign(n, RigJointBinding{});
  restPose();
  names_.resize(n);
  for (std::size_t j = 0; j < n; ++j) names_[j] = rigName(m_.joints[j].name);
  findChains();
  sampleMotion();
  upAndUnits();
  bindSpine();
  for (int s = 0; s < 2; ++s) bindArm(arm_chain_[static_cast<std::size_t>(s)], s);
  for (int s = 0; s < 2; ++s) bindLeg(leg_chain_[static_cast<std::size_t>(s)], s);
  sidesAndFacing();
  checkPlausible();
  makeSchema();
  return std::move(out_);
}

RETARGET_DECL void RigBinder::fail(const std::string& what) const {
  throw InvalidArgument(internal::message(
      "bindRig", "cannot bind the BVH hierarchy", m_.source.empty() ? std::string() : " of '" + m_.source + "'",
      " to the human skeleton: ", what, " (root '", m_.joints.front().name, "', ", m_.jointCount(),
      " joints); pass a schema file (human/schema.hpp)"));
}

// Median of `values` (the upper one for an even count); reorders them. 0 for none. (Inline
// functions of the header's namespace, not an unnamed namespace: a header's unnamed namespace is
// a different one in every translation unit that includes it.)
inline double rigMedian(std::vector<double>& values) {
  if (values.empty()) return 0;
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

// Frames the binder looks at: all of them up to 240, else 240 evenly spaced.
inline std::vector<int> rigSampleFrames(int frame_count) {
  constexpr int kMax = 240;
  std::vector<int> frames;
  const int n = std::min(frame_count, kMax);
  for (int k = 0; k < n; ++k) {
    frames.push_back(frame_count <= kMax ? k : static_cast<int>((static_cast<long long>(k) * (frame_count - 1)) / (kMax - 1)));
  }
  return frames;
}

RETARGET_LAZY_DEF void RigBinder::restPose() {
  const std::size_t n = m_.joints.size();
  p_.assign(n, Eigen::Vector3d::Zero());
  t_.assign(n, Eigen::Vector3d::Zero());
  children_.assign(n, {});
  // Position channels override the OFFSET (BVH convention, bvh_motion.hpp): the rest translation
  // takes each position channel's median over the frames.
  const std::vector<int> frames = rigSampleFrames(m_.frame_count);
  std::vector<double> column;
  for (std::size_t j = 0; j < n; ++j) {
    const BvhJoint& joint = m_.joints[j];
    t_[j] = joint.offset;
    for (std::size_t c = 0; c < joint.channels.size() && !frames.empty(); ++c) {
      if (isRotation(joint.channels[c])) continue;
      column.clear();
      for (int f : frames) column.push_back(m_.frame(f)[static_cast<std::size_t>(joint.first_channel) + c]);
      t_[j][bvhChannelAxis(joint.channels[c])] = rigMedian(column);
    }
    const int parent = joint.parent;
    p_[j] = parent < 0 ? joint.offset : Eigen::Vector3d(p_[static_cast<std::size_t>(parent)] + t_[j]);
    if (parent >= 0) children_[static_cast<std::size_t>(parent)].push_back(static_cast<int>(j));
  }
  rest_.resize(3, static_cast<Eigen::Index>(n));
  for (std::size_t j = 0; j < n; ++j) rest_.col(static_cast<Eigen::Index>(j)) = p_[j];
  // Reach: the longest path (sum of bone lengths) from a joint down to a leaf.
  reach_.assign(n, 0.0);
  subtree_.assign(n, 1);
  for (std::size_t k = n; k-- > 0;) {
    const int parent = m_.joints[k].parent;
    if (parent < 0) continue;
    const auto pk = static_cast<std::size_t>(parent);
    reach_[pk] = std::max(reach_[pk], t_[k].norm() + reach_[k]);
    subtree_[pk] += subtree_[k];
  }
  Eigen::AlignedBox3d box;
  for (const auto& p : p_) box.extend(p);
  extent_ = box.sizes().maxCoeff();
  if (!(extent_ > 0)) fail("the rest pose has zero size (every OFFSET and position channel is zero)");
}

RETARGET_LAZY_DEF void RigBinder::sampleMotion() {
  Eigen::Matrix3Xd P;
  std::vector<Eigen::Quaterniond> R;
  for (int f : rigSampleFrames(m_.frame_count)) {
    bvhGlobalPositions(m_, f, P, R);
    if (P.allFinite()) samples_.push_back(P);
  }
  out_.frames_used = static_cast<int>(samples_.size());
}

template <typename F>
Eigen::Vector3d RigBinder::medianOver(bool motion, F f) const {
  if (!motion || samples_.empty()) return f(rest_);
  std::array<std::vector<double>, 3> c;
  for (const Eigen::Matrix3Xd& P : samples_) {
    const Eigen::Vector3d v = f(P);
    for (int k = 0; k < 3; ++k) c[static_cast<std::size_t>(k)].push_back(v[k]);
  }
  return {rigMedian(c[0]), rigMedian(c[1]), rigMedian(c[2])};
}

RETARGET_LAZY_DEF double RigBinder::dist(int a, int b) const {
  if (out_.rest_pose_standing) return (pos(a) - pos(b)).norm();
  // Path of bones from the descendant up to the ancestor.
  for (int pass = 0; pass < 2; ++pass) {
    const int top = pass == 0 ? a : b;
    double length = 0;
    int j = pass == 0 ? b : a;
    while (j >= 0 && j != top) {
      length += t_[static_cast<std::size_t>(j)].norm();
      j = m_.joints[static_cast<std::size_t>(j)].parent;
    }
    if (j == top) return length;
  }
  return (pos(a) - pos(b)).norm();
}

RETARGET_LAZY_DEF Eigen::Vector3d RigBinder::feetToHead(const Eigen::Matrix3Xd& P) const {
  const Eigen::Vector3d feet =
      0.5 * (P.col(leg_chain_[0].back()) + P.col(leg_chain_[1].back()));
  return P.col(head_chain_.back()) - feet;
}

RETARGET_LAZY_DEF bool RigBinder::standing(const Eigen::Matrix3Xd& P) const {
  const Eigen::Vector3d spine = P.col(head_chain_.back()) - P.col(out_.hips);
  for (const auto& chain : leg_chain_) {
    const Eigen::Vector3d leg = P.col(chain.back()) - P.col(out_.hips);
    if (!(spine.dot(leg) < -0.7 * spine.norm() * leg.norm())) return false;
  }
  return true;
}

RETARGET_LAZY_DEF double RigBinder::standingHeight(const Eigen::Matrix3Xd& P) const {
  double lowest = INFINITY;
  for (const auto& chain : leg_chain_) {
    for (int j : chain) lowest = std::min(lowest, P.col(j).dot(up_));
  }
  return P.col(head_chain_.back()).dot(up_) - lowest;
}

RETARGET_LAZY_DEF double RigBinder::branchReach(int child) const {
  return t_[static_cast<std::size_t>(child)].norm() + reach_[static_cast<std::size_t>(child)];
}

RETARGET_LAZY_DEF std::vector<int> RigBinder::significantChildren(int j) const {
  std::vector<int> out;
  for (int c : children_[static_cast<std::size_t>(j)]) {
    if (branchReach(c) >= 0.08 * extent_) out.push_back(c);
  }
  return out;
}

RETARGET_LAZY_DEF int RigBinder::longestChild(int j) const {
  int best = -1;
  for (int c : children_[static_cast<std::size_t>(j)]) {
    if (best < 0 || branchReach(c) > branchReach(best) + 1e-12) best = c;
  }
  return best;
}

RETARGET_LAZY_DEF std::vector<int> RigBinder::chainFrom(int start) const {
  std::vector<int> chain;
  for (int j = start; j >= 0; j = longestChild(j)) chain.push_back(j);
  return chain;
}

RETARGET_LAZY_DEF int RigBinder::findSplit(int start) const {
  int j = start;
  for (int guard = 0; j >= 0 && guard < 100000; ++guard) {
    const auto sig = significantChildren(j);
    if (sig.size() >= 2) return j;
    if (sig.empty()) return -1;
    j = sig.front();
  }
  return -1;
}

RETARGET_LAZY_DEF void RigBinder::findChains() {
  // Root: the one with the largest subtree.
  int root = -1;
  for (std::size_t j = 0; j < m_.joints.size(); ++j) {
    if (m_.joints[j].parent < 0 && (root < 0 || subtree_[j] > subtree_[static_cast<std::size_t>(root)])) {
      root = static_cast<int>(j);
    }
  }
  out_.root = root;
  int hips = root;
  for (int guard = 0;; ++guard) {
    const auto sig = significantChildren(hips);
    if (sig.size() >= 3) break;
    if (sig.size() != 1 || guard > 100000) {
      fail("no hips found: expected a joint where the spine and two legs branch, got " +
           std::to_string(sig.size()) + " long branch(es) at '" + nameOf(hips) + "'");
    }
    out_.joints[static_cast<std::size_t>(hips)].role = RigRole::kRoot;
    hips = sig.front();
  }
  out_.hips = hips;
  // Spine: the branch that splits again (the chest); legs: the two longest of the others.
  const auto sig = significantChildren(hips);
  int spine_child = -1;
  std::vector<int> legs;
  for (int c : sig) {
    const int split = findSplit(c);
    // The spine branch holds the arms: the largest subtree among the branches that split.
    if (split >= 0 && (spine_child < 0 || subtree_[static_cast<std::size_t>(c)] >
                                              subtree_[static_cast<std::size_t>(spine_child)])) {
      if (spine_child >= 0) legs.push_back(spine_child);
      spine_child = c;
    } else {
      legs.push_back(c);
    }
  }
  if (spine_child < 0) {
    fail("no chest found: none of the branches at the hips '" + nameOf(hips) +
         "' splits into arms and a head (missing arms?)");
  }
  if (legs.size() < 2) fail("only " + std::to_string(legs.size()) + " leg(s) at the hips '" + nameOf(hips) + "', expected 2");
  std::sort(legs.begin(), legs.end(), [&](int a, int b) { return branchReach(a) > branchReach(b); });
  leg_chain_[0] = chainFrom(legs[0]);
  leg_chain_[1] = chainFrom(legs[1]);
  // Chest and its branches.
  const int chest = findSplit(spine_child);
  out_.chest = chest;
  for (int j = spine_child; j != chest; j = significantChildren(j).front()) out_.spine.push_back(j);
  out_.spine.push_back(chest);
  auto branches = significantChildren(chest);
  if (branches.size() < 3) {
    fail("found " + std::to_string(branches.size()) + " long branches at the chest '" + nameOf(chest) +
         "', expected 3 (neck/head and two arms): missing an arm or the head");
  }
  // Head chain: a branch whose names say neck/head, else the shortest.
  int head_branch = -1;
  for (int c : branches) {
    for (int j : chainFrom(c)) {
      if ((names_[static_cast<std::size_t>(j)].words & (kRigWordNeck | kRigWordHead)) != 0u && head_branch < 0) {
        head_branch = c;
      }
    }
  }
  if (head_branch < 0) {
    head_branch = *std::min_element(branches.begin(), branches.end(),
                                    [&](int a, int b) { return branchReach(a) < branchReach(b); });
  }
  head_chain_ = chainFrom(head_branch);
  branches.erase(std::find(branches.begin(), branches.end(), head_branch));
  std::sort(branches.begin(), branches.end(), [&](int a, int b) { return branchReach(a) > branchReach(b); });
  arm_chain_[0] = chainFrom(branches[0]);
  arm_chain_[1] = chainFrom(branches[1]);
}

RETARGET_LAZY_DEF void RigBinder::upAndUnits() {
  out_.rest_pose_standing = standing(rest_);
  const bool has_top = head_chain_.size() >= 2 && m_.joints[static_cast<std::size_t>(head_chain_.back())].is_end_site;
  const double top_factor = has_top ? 1.0 : 1.0 / 0.93;  // the head joint sits at about 93% of the height
  const int frames = static_cast<int>(samples_.size());
  const std::string frames_text = std::to_string(frames) + (frames == 1 ? " frame" : " frames");
  auto percent = [](double fraction) { return rigNumber(100.0 * fraction, 3) + "%"; };
  // Fraction of the sampled frames whose feet-to-head direction is within 60 deg of `axis`.
  auto upright = [&](const Eigen::Vector3d& axis) {
    int count = 0;
    for (const Eigen::Matrix3Xd& P : samples_) {
      const Eigen::Vector3d v = feetToHead(P);
      count += v.dot(axis) > 0.5 * v.norm() ? 1 : 0;
    }
    return frames > 0 ? static_cast<double>(count) / frames : 0.0;
  };
  double rest_cosine = 0, motion_cosine = 0;
  const Eigen::Vector3d up_rest = rigSnapAxis(feetToHead(rest_), rest_cosine);
  Eigen::Vector3d up_motion = up_rest;
  double motion_upright = 0;
  if (frames > 0) {
    up_motion = rigSnapAxis(medianOver(true,
                                       [&](const Eigen::Matrix3Xd& P) {
                                         const Eigen::Vector3d v = feetToHead(P);
                                         return v.norm() > 0 ? Eigen::Vector3d(v.normalized()) : v;
                                       }),
                            motion_cosine);
    motion_upright = upright(up_motion);
  }
  // The motion decides when the rest pose is not a standing pose (LAFAN1: bones along +X), or when
  // it clearly stands along another axis than the rest pose (a root rotation in every frame).
  const bool motion_decides = frames > 0 && (out_.rest_pose_standing ? up_motion != up_rest && motion_upright >= 0.8
                                                                     : motion_upright >= 0.6);
  if (options_.R_WS) {
    up_ = options_.R_WS->row(2).transpose();
    out_.up_from = RigEvidence::kGiven;
  } else if (motion_decides) {
    up_ = up_motion;
    out_.up_from = RigEvidence::kMotion;
    out_.guesses.push_back(
        "up axis " + rigAxisName(up_) + " from the motion (median feet-to-head direction over " + frames_text +
        ", cosine " + rigNumber(motion_cosine, 3) + ", head above the feet in " + percent(motion_upright) + "; " +
        (out_.rest_pose_standing ? "the rest pose stands along " + rigAxisName(up_rest) + ")"
                                 : "the rest pose is not a standing pose)"));
  } else if (out_.rest_pose_standing) {
    up_ = up_rest;
    out_.up_from = RigEvidence::kRestPose;
    out_.guesses.push_back("up axis " + rigAxisName(up_) + " (feet to head in the rest pose, cosine " +
                           rigNumber(rest_cosine, 3) +
                           (frames > 0 ? "; head above the feet along it in " + percent(upright(up_)) + " of " +
                                             frames_text + " of the motion"
                                       : std::string()) +
                           ")");
  } else {
    fail("cannot decide the up axis: the rest pose is not a standing pose (legs and spine leave the hips the same way, "
         "as in rigs whose bones lie along each joint's +X) and " +
         (frames > 0 ? "the head is above the feet along one axis in only " + percent(motion_upright) + " of the " +
                           frames_text + " of the motion"
                     : std::string("the file has no frames to decide from")));
  }
  geometry_from_motion_ = frames > 0 && (out_.up_from == RigEvidence::kMotion || !out_.rest_pose_standing);
  // Heights (file units): the rest pose's, and the motion's (90th percentile of the head top above
  // the lowest leg joint, so that crouching frames do not count).
  const double rest_height = standingHeight(rest_) * top_factor;
  double motion_height = 0;
  if (frames > 0) {
    std::vector<double> h;
    for (const Eigen::Matrix3Xd& P : samples_) h.push_back(standingHeight(P) * top_factor);
    std::sort(h.begin(), h.end());
    motion_height = h[static_cast<std::size_t>(0.9 * static_cast<double>(h.size() - 1))];
  }
  const bool rest_counts = out_.rest_pose_standing && out_.up_from != RigEvidence::kMotion;
  const double height = rest_counts || frames == 0 ? rest_height : motion_height;
  if (!(height > 0)) fail("the head is not above the feet in the " + std::string(rest_counts || frames == 0 ? "rest pose" : "motion"));
  out_.height = height;
  if (options_.scale) {
    out_.scale = *options_.scale;
    out_.unit = "given";
    out_.units_from = RigEvidence::kGiven;
  } else {
    struct Unit {
      double metres;
      const char* name;
    };
    // CMU ASF length unit: 1/0.45 inch (the CMU files declare ':units length 0.45').
    constexpr Unit kUnits[] = {{1.0, "m"}, {0.01, "cm"}, {0.001, "mm"}, {0.0254, "in"}, {0.0254 / 0.45, "cmu-asf"}};
    // A person's height (1.2-2.1 m) in the motion first, then in the rest pose; else the unit
    // nearest to 1.7 m.
    struct Candidate {
      double height;
      RigEvidence from;
    };
    std::vector<Candidate> candidates;
    if (frames > 0 && motion_height > 0) candidates.push_back({motion_height, RigEvidence::kMotion});
    if (out_.rest_pose_standing) candidates.push_back({rest_height, RigEvidence::kRestPose});
    if (candidates.empty()) candidates.push_back({height, RigEvidence::kRestPose});
    const Unit* chosen = nullptr;
    Candidate used = candidates.front();
    for (const Candidate& c : candidates) {
      for (const Unit& u : kUnits) {
        if (chosen == nullptr && c.height * u.metres >= 1.2 && c.height * u.metres <= 2.1) {
          chosen = &u;
          used = c;
        }
      }
    }
    const bool in_range = chosen != nullptr;
    if (!in_range) {
      used = {height, rest_counts || frames == 0 ? RigEvidence::kRestPose : RigEvidence::kMotion};
      double best = INFINITY;
      for (const Unit& u : kUnits) {
        const double cost = std::abs(std::log(used.height * u.metres / 1.7));
        if (cost < best) {
          best = cost;
          chosen = &u;
        }
      }
    }
    out_.scale = chosen->metres;
    out_.unit = chosen->name;
    out_.units_from = used.from;
    std::string text = "units " + out_.unit + " (" + rigNumber(out_.scale) + " m per unit) from the " +
                       rigEvidenceName(used.from) + ": ";
    text += used.from == RigEvidence::kMotion
                ? "the person is " + rigNumber(used.height * out_.scale, 3) + " m tall in the motion (" +
                      rigNumber(used.height) + " units, 90th percentile over " + frames_text + ")"
                : "rest-pose height " + rigNumber(used.height) + " units = " + rigNumber(used.height * out_.scale, 3) + " m";
    if (!has_top) text += " (estimated from the head joint)";
    if (!in_range) text += "; no unit makes the person 1.2-2.1 m tall, the nearest to 1.7 m was taken";
    out_.guesses.push_back(text);
  }
  out_.height_m = out_.height * out_.scale;
}

RETARGET_LAZY_DEF void RigBinder::setRole(int j, RigRole role, int side, std::uint32_t agree, std::uint32_t other) {
  auto& b = out_.joints[static_cast<std::size_t>(j)];
  b.role = role;
  b.side = static_cast<RigSide>(side);
  const std::uint32_t words = names_[static_cast<std::size_t>(j)].words;
  // "End", "Tip", "Nub" (End Site names) mark a tip, not another body part.
  b.confidence = (words & agree) != 0u ? 1.0 : ((words & ~other & ~kRigWordTop) != 0u && agree != 0u ? 0.5 : 0.75);
}

RETARGET_LAZY_DEF void RigBinder::bindSpine() {
  setRole(out_.hips, RigRole::kHips, 0, kRigWordHips | kRigWordSpine);
  for (int j : out_.spine) setRole(j, j == out_.chest ? RigRole::kChest : RigRole::kSpine, 0, kRigWordSpine);
  // Head chain: neck joints, then the head (named, else the last joint before the tip).
  const auto& chain = head_chain_;
  int head_at = -1;
  for (std::size_t k = 0; k < chain.size(); ++k) {
    const auto& nm = names_[static_cast<std::size_t>(chain[k])];
    if ((nm.words & kRigWordHead) != 0u && (nm.words & kRigWordTop) == 0u) {
      head_at = static_cast<int>(k);
      break;
    }
  }
  if (head_at < 0) {
    const int last = static_cast<int>(chain.size()) - 1;
    const bool tip = last >= 1 && (m_.joints[static_cast<std::size_t>(chain.back())].is_end_site ||
                                   (names_[static_cast<std::size_t>(chain.back())].words & kRigWordTop) != 0u);
    head_at = tip ? last - 1 : last;
  }
  for (int k = 0; k < head_at; ++k) {
    out_.neck.push_back(chain[static_cast<std::size_t>(k)]);
    setRole(chain[static_cast<std::size_t>(k)], RigRole::kNeck, 0, kRigWordNeck);
  }
  out_.head = chain[static_cast<std::size_t>(head_at)];
  setRole(out_.head, RigRole::kHead, 0, kRigWordHead);
  if (head_at + 1 < static_cast<int>(chain.size())) {
    out_.head_top = chain[static_cast<std::size_t>(head_at + 1)];
    setRole(out_.head_top, RigRole::kHeadTop, 0, kRigWordTop | kRigWordHead);
  }
}

RETARGET_LAZY_DEF double RigBinder::lengthCost(double length, double expected, double sigma) {
  const double r = std::log(std::max(length, 0.02 * expected) / expected) / sigma;
  return r * r;
}

RETARGET_LAZY_DEF void RigBinder::bindArm(const std::vector<int>& chain, int slot) {
  const double h = out_.height;
  const int m = static_cast<int>(chain.size());
  if (m < 3) fail("an arm chain at the chest has " + std::to_string(m) + " joints, expected at least 3 (upper arm, forearm, hand)");
  double best = INFINITY;
  int bs = -1, be = -1, bw = -1;
  for (int s = 0; s < m; ++s) {
    for (int e = s + 1; e < m; ++e) {
      for (int w = e + 1; w < m; ++w) {
        const int S = chain[static_cast<std::size_t>(s)], E = chain[static_cast<std::size_t>(e)],
                  W = chain[static_cast<std::size_t>(w)];
        if (m_.joints[static_cast<std::size_t>(W)].is_end_site) continue;
        double cost = lengthCost(dist(out_.chest, S), 0.13 * h, 0.8) + lengthCost(dist(S, E), 0.186 * h, 0.3) +
                      lengthCost(dist(E, W), 0.146 * h, 0.3);
        // Hand and fingers: short ones are fine (CMU's index is a stub), none or long ones are not.
        const double hand = dist(W, chain.back());
        cost += hand > 0 ? std::pow(std::max(0.0, std::log(hand / (0.12 * h))) / 0.6, 2) : 1.0;
        cost -= has(S, kRigWordUpperArm | kRigWordShoulder) ? 2.0 : 0.0;
        cost -= has(E, kRigWordForeArm) ? 2.0 : 0.0;
        const bool finger = has(W, kRigWordFinger | kRigWordThumb | kRigWordMiddle);
        cost += finger ? 2.0 : (has(W, kRigWordHand) ? -2.0 : 0.0);
        if (children_[static_cast<std::size_t>(W)].size() >= 2) cost -= 1.0;  // fingers branch at the wrist
        for (int k = 0; k < s; ++k) cost -= has(chain[static_cast<std::size_t>(k)], kRigWordCollar | kRigWordShoulder) ? 0.5 : 0.0;
        if (cost < best) {
          best = cost;
          bs = s;
          be = e;
          bw = w;
        }
      }
    }
  }
  if (bw < 0) fail("an arm chain starting at '" + nameOf(chain.front()) + "' has no upper arm, forearm and hand");
  RigBinding::Arm& arm = out_.arms[static_cast<std::size_t>(slot)];
  arm.collar = bs > 0 ? chain.front() : -1;
  for (int k = 0; k < bs; ++k) setRole(chain[static_cast<std::size_t>(k)], RigRole::kCollar, 0, kRigWordCollar | kRigWordShoulder);
  arm.upper_arm = chain[static_cast<std::size_t>(bs)];
  arm.forearm = chain[static_cast<std::size_t>(be)];
  arm.hand = chain[static_cast<std::size_t>(bw)];
  setRole(arm.upper_arm, RigRole::kUpperArm, 0, kRigWordUpperArm | kRigWordShoulder);
  setRole(arm.forearm, RigRole::kForeArm, 0, kRigWordForeArm);
  setRole(arm.hand, RigRole::kHand, 0, kRigWordHand);
  // Fingers: the middle finger (named, else the longest) and the thumb (named).
  int middle = -1, thumb = -1;
  for (int c : children_[static_cast<std::size_t>(arm.hand)]) {
    for (int j = c; j >= 0; j = longestChild(j)) {
      if (has(j, kRigWordThumb) && thumb < 0) thumb = c;
      if (has(j, kRigWordMiddle) && middle < 0) middle = c;
    }
  }
  if (middle < 0) middle = longestChild(arm.hand);
  if (middle == thumb) thumb = -1;
  if (middle >= 0) {
    arm.finger_base = middle;
    arm.hand_tip = chainFrom(middle).back();
    for (int j : chainFrom(middle)) setRole(j, RigRole::kFinger, 0, kRigWordFinger | kRigWordMiddle | kRigWordHand);
  }
  if (thumb >= 0) {
    arm.thumb_tip = chainFrom(thumb).back();
    for (int j : chainFrom(thumb)) setRole(j, RigRole::kThumb, 0, kRigWordThumb);
  }
}

RETARGET_LAZY_DEF void RigBinder::bindLeg(const std::vector<int>& chain, int slot) {
  const double h = out_.height;
  const int m = static_cast<int>(chain.size());
  if (m < 3) fail("a leg chain at the hips has " + std::to_string(m) + " joints, expected at least 3 (thigh, shin, foot)");
  double best = INFINITY;
  int bt = -1, bk = -1, ba = -1;
  for (int t = 0; t < m; ++t) {
    for (int k = t + 1; k < m; ++k) {
      for (int a = k + 1; a < m; ++a) {
        const int T = chain[static_cast<std::size_t>(t)], K = chain[static_cast<std::size_t>(k)],
                  A = chain[static_cast<std::size_t>(a)];
        if (m_.joints[static_cast<std::size_t>(A)].is_end_site) continue;
        double cost = lengthCost(dist(out_.hips, T), 0.1 * h, 1.0) + lengthCost(dist(T, K), 0.245 * h, 0.3) +
                      lengthCost(dist(K, A), 0.246 * h, 0.3);
        const double foot = dist(A, chain.back());
        cost += foot > 0 ? lengthCost(foot, 0.12 * h, 0.6) : 1.0;
        cost -= has(T, kRigWordThigh) ? 2.0 : 0.0;
        cost -= has(K, kRigWordShin) ? 2.0 : 0.0;
        cost -= has(A, kRigWordFoot) ? 2.0 : 0.0;
        cost += has(A, kRigWordToe) ? 1.5 : 0.0;
        if (cost < best) {
          best = cost;
          bt = t;
          bk = k;
          ba = a;
        }
      }
    }
  }
  if (ba < 0) fail("a leg chain starting at '" + nameOf(chain.front()) + "' has no thigh, shin and foot");
  RigBinding::Leg& leg = out_.legs[static_cast<std::size_t>(slot)];
  for (int k = 0; k < bt; ++k) setRole(chain[static_cast<std::size_t>(k)], RigRole::kPelvis, 0, kRigWordHipSide | kRigWordHips);
  leg.pelvis = bt > 0 ? chain.front() : -1;
  leg.thigh = chain[static_cast<std::size_t>(bt)];
  leg.shin = chain[static_cast<std::size_t>(bk)];
  leg.foot = chain[static_cast<std::size_t>(ba)];
  setRole(leg.thigh, RigRole::kThigh, 0, kRigWordThigh);
  setRole(leg.shin, RigRole::kShin, 0, kRigWordShin);
  setRole(leg.foot, RigRole::kFoot, 0, kRigWordFoot);
  for (int k = ba + 1; k < m; ++k) {
    const int j = chain[static_cast<std::size_t>(k)];
    if (dist(j, leg.foot) <= 1e-9 * h) continue;
    if (leg.foot_tip < 0) leg.foot_tip = j;
    if (!m_.joints[static_cast<std::size_t>(j)].is_end_site && leg.toe < 0) leg.toe = j;
    setRole(j, RigRole::kToe, 0, kRigWordToe | kRigWordFoot | kRigWordTop);
  }
}

RETARGET_LAZY_DEF int RigBinder::nameSide(const std::vector<int>& chain) const {
  int votes = 0;
  for (int j : chain) votes += names_[static_cast<std::size_t>(j)].side;
  return votes > 0 ? 1 : (votes < 0 ? -1 : 0);
}

RETARGET_LAZY_DEF void RigBinder::sidesAndFacing() {
  const int arm0 = nameSide(arm_chain_[0]), arm1 = nameSide(arm_chain_[1]);
  const int leg0 = nameSide(leg_chain_[0]), leg1 = nameSide(leg_chain_[1]);
  const bool arms_named = arm0 != 0 && arm1 == -arm0;
  const bool legs_named = leg0 != 0 && leg1 == -leg0;
  // Geometry from the rest pose when it stands and decided the up axis, else the median over the
  // motion's frames.
  const bool motion = geometry_from_motion_;
  auto horizontal = [&](const Eigen::Vector3d& v) { return Eigen::Vector3d(v - v.dot(up_) * up_); };
  const Eigen::Vector3d arm_delta = medianOver(motion, [&](const Eigen::Matrix3Xd& P) {
    return Eigen::Vector3d(P.col(out_.arms[0].upper_arm) - P.col(out_.arms[1].upper_arm));
  });
  const Eigen::Vector3d leg_delta = medianOver(motion, [&](const Eigen::Matrix3Xd& P) {
    return Eigen::Vector3d(P.col(out_.legs[0].thigh) - P.col(out_.legs[1].thigh));
  });
  // Feet: ankle to tip, horizontal.
  const Eigen::Vector3d feet = medianOver(motion, [&](const Eigen::Matrix3Xd& P) {
    Eigen::Vector3d v = Eigen::Vector3d::Zero();
    for (const auto& leg : out_.legs) {
      if (leg.foot_tip >= 0) v += P.col(leg.foot_tip) - P.col(leg.foot);
    }
    return horizontal(v);
  });
  const std::string source = motion ? "the motion, median over " + std::to_string(samples_.size()) + " frames"
                                    : std::string("the rest pose");
  if (arms_named && legs_named && horizontal(arm0 * arm_delta).dot(horizontal(leg0 * leg_delta)) < 0) {
    implausible("the arms' left/right names are on the other side of the body than the legs' ('" +
                nameOf(out_.arms[arm0 > 0 ? 0 : 1].upper_arm) + "' is on the legs' right, in " + source + ")");
  }
  Eigen::Vector3d left, forward;
  double cosine = 0;
  if (options_.R_WS) {
    forward = options_.R_WS->row(0).transpose();
    left = options_.R_WS->row(1).transpose();
  }
  out_.sides_from_names = arms_named || legs_named;
  if (out_.sides_from_names) {
    // Left-minus-right across the arms (or legs), horizontal.
    Eigen::Vector3d across = Eigen::Vector3d::Zero();
    if (arms_named) across += arm0 * arm_delta;
    if (legs_named) across += leg0 * leg_delta;
    across -= across.dot(up_) * up_;
    if (!options_.R_WS) {
      left = rigSnapAxis(across, cosine);
      if (left.cwiseAbs() == up_.cwiseAbs()) fail("the left and right limbs are not side by side in " + source);
      forward = left.cross(up_);
      out_.facing_from = RigEvidence::kNames;
      out_.guesses.push_back("facing " + rigAxisName(forward) + ", left " + rigAxisName(left) +
                             " (left/right from the joint names, placed by " + source + ", cosine " +
                             rigNumber(cosine, 3) + ")");
      if (feet.norm() > 1e-9 * out_.height && feet.dot(forward) < 0) {
        out_.guesses.push_back("warning: the feet point backwards in " + source + "; check the left/right names");
        feet_disagree_ = true;
      }
    }
  } else if (!options_.R_WS) {
    if (feet.norm() > 0.02 * out_.height) {
      forward = rigSnapAxis(feet, cosine);
      out_.facing_from = motion ? RigEvidence::kMotion : RigEvidence::kRestPose;
      out_.guesses.push_back("facing " + rigAxisName(forward) + " (from the feet in " + source + ", cosine " +
                             rigNumber(cosine, 3) + "); left/right from geometry (the names have no side markers)");
    } else {
      // No feet to look at: the usual export conventions (Y up faces +Z, Z up faces -Y).
      const bool z_up = up_.cwiseAbs() == Eigen::Vector3d(0, 0, 1);
      forward = z_up ? Eigen::Vector3d(0, -1, 0) : Eigen::Vector3d(0, 0, 1);
      if (up_.cwiseAbs() == Eigen::Vector3d(1, 0, 0)) forward = Eigen::Vector3d(0, 1, 0);
      out_.facing_from = RigEvidence::kDefault;
      out_.guesses.push_back("facing " + rigAxisName(forward) +
                             " (a guess: no foot segment and no side markers in the names; override the frame)");
      feet_disagree_ = true;
    }
    left = up_.cross(forward);
  }
  // Slots: put the left limbs in slot 0.
  if (out_.sides_from_names) {
    if (arms_named ? arm0 < 0 : arm_delta.dot(left) < 0) std::swap(out_.arms[0], out_.arms[1]);
    if (legs_named ? leg0 < 0 : leg_delta.dot(left) < 0) std::swap(out_.legs[0], out_.legs[1]);
  } else {
    if (arm_delta.dot(left) < 0) std::swap(out_.arms[0], out_.arms[1]);
    if (leg_delta.dot(left) < 0) std::swap(out_.legs[0], out_.legs[1]);
  }
  out_.R_WS.row(0) = forward.transpose();
  out_.R_WS.row(1) = left.transpose();
  out_.R_WS.row(2) = up_.transpose();
  if (options_.R_WS) {
    out_.R_WS = *options_.R_WS;
    out_.facing_from = RigEvidence::kGiven;
  }
  // Sides of the limb joints.
  auto markSide = [&](int j, int side) {
    if (j >= 0) out_.joints[static_cast<std::size_t>(j)].side = static_cast<RigSide>(side);
  };
  for (int s = 0; s < 2; ++s) {
    const int side = s == 0 ? 1 : -1;
    const auto& a = out_.arms[static_cast<std::size_t>(s)];
    const auto& l = out_.legs[static_cast<std::size_t>(s)];
    for (const auto& chain : {arm_chain_[0], arm_chain_[1]}) {
      if (std::find(chain.begin(), chain.end(), a.hand) != chain.end()) {
        for (int j : chain) markSide(j, side);
        for (int j = a.thumb_tip; j >= 0 && j != a.hand; j = m_.joints[static_cast<std::size_t>(j)].parent) markSide(j, side);
      }
    }
    for (const auto& chain : {leg_chain_[0], leg_chain_[1]}) {
      if (std::find(chain.begin(), chain.end(), l.foot) != chain.end()) {
        for (int j : chain) markSide(j, side);
      }
    }
  }
  // Confidence: the lowest among the body joints; sides from geometry cap it at 0.75.
  double confidence = 1.0;
  for (const auto& b : out_.joints) {
    if (b.role != RigRole::kNone && b.role != RigRole::kRoot) confidence = std::min(confidence, b.confidence);
  }
  if (!out_.sides_from_names) confidence = std::min(confidence, 0.75);
  if (feet_disagree_) confidence = std::min(confidence, 0.5);
  out_.confidence = confidence;
}

RETARGET_LAZY_DEF void RigBinder::implausible(const std::string& what) {
  if (options_.refuse_implausible) {
    const std::string file = m_.source.empty() ? std::string("<in memory>") : m_.source;
    throw InvalidArgument(internal::message(
        "bindRig", "refusing to bind '", file, "' (root '", m_.joints.front().name, "', ", m_.jointCount(),
        " joints) to the human skeleton: ", what,
        "; the mapped body would not be a person. Check the rig, or write its schema with `retarget schema suggest ",
        file, " > rig.schema`, correct it and pass it with --schema rig.schema"));
  }
  out_.problems.push_back(what);
}

RETARGET_LAZY_DEF void RigBinder::checkPlausible() {
  const double h = out_.height;
  // Head below the hips in most frames of the motion.
  if (!samples_.empty()) {
    int below = 0;
    for (const Eigen::Matrix3Xd& P : samples_) below += (P.col(out_.head) - P.col(out_.hips)).dot(up_) < 0 ? 1 : 0;
    if (2 * below > static_cast<int>(samples_.size())) {
      implausible("the head '" + nameOf(out_.head) + "' is below the hips '" + nameOf(out_.hips) + "' along " +
                  rigAxisName(up_) + " in " + std::to_string(below) + " of " + std::to_string(samples_.size()) +
                  " frames");
    }
  }
  // Segment lengths against a person's (Winter, fractions of the height) and against each other.
  struct Segment {
    const char* what;
    double length, expected;
  };
  std::array<double, 2> arm{}, leg{};
  for (std::size_t s = 0; s < 2; ++s) {
    const auto& a = out_.arms[s];
    const auto& l = out_.legs[s];
    const char* side = s == 0 ? "left " : "right ";
    const Segment segments[] = {{"upper arm", dist(a.upper_arm, a.forearm), 0.186 * h},
                                {"forearm", dist(a.forearm, a.hand), 0.146 * h},
                                {"thigh", dist(l.thigh, l.shin), 0.245 * h},
                                {"shin", dist(l.shin, l.foot), 0.246 * h}};
    for (const Segment& g : segments) {
      if (!(g.length >= 0.4 * g.expected && g.length <= 2.5 * g.expected)) {
        implausible(std::string("the ") + side + g.what + " is " + rigNumber(g.length / h, 3) +
                    " of the body height (a person's: " + rigNumber(g.expected / h, 3) + ")");
      }
    }
    arm[s] = segments[0].length + segments[1].length;
    leg[s] = segments[2].length + segments[3].length;
  }
  const double torso = dist(out_.hips, out_.head);
  for (std::size_t s = 0; s < 2; ++s) {
    const char* side = s == 0 ? "left" : "right";
    if (arm[s] > 1.25 * leg[s]) {
      implausible(std::string("the ") + side + " arm is " + rigNumber(arm[s] / leg[s], 3) +
                  " times as long as the leg (a person's: 0.68)");
    }
    if (leg[s] > 3.0 * torso || leg[s] < 0.4 * torso) {
      implausible(std::string("the ") + side + " leg (hip to ankle) is " + rigNumber(leg[s] / torso, 3) +
                  " times the hips-to-head length (a person's: 1.2 to 2)");
    }
  }
  for (const auto& [what, pair] : {std::pair<const char*, std::array<double, 2>>{"arms", arm}, {"legs", leg}}) {
    const double ratio = std::max(pair[0], pair[1]) / std::min(pair[0], pair[1]);
    if (!(ratio <= 1.3)) implausible(std::string("the left and right ") + what + " differ in length by a factor " + rigNumber(ratio, 3));
  }
  // Confidence: names that say another body part than the joint's place.
  // Confidence 0.5: a joint's name says another body part than its place in the chain, or the
  // toes point backwards for the facing the names give (mirrored names).
  if (out_.confidence <= 0.5) {
    std::string which;
    for (std::size_t j = 0; j < out_.joints.size(); ++j) {
      const RigJointBinding& b = out_.joints[j];
      if (b.role != RigRole::kNone && b.role != RigRole::kRoot && b.confidence <= 0.5 && which.size() < 200) {
        which += std::string(which.empty() ? "" : ", ") + "'" + m_.joints[j].name + "' bound as " + rigRoleName(b.role);
      }
    }
    implausible("the binding's confidence is " + rigNumber(out_.confidence, 2) + " (expected above 0.5): " +
                (which.empty() ? std::string("the toes point backwards for the facing the left/right names give")
                               : "the names say other body parts: " + which));
  }
}

RETARGET_LAZY_DEF void RigBinder::makeSchema() {
  using J = HumanJoint;
  SkeletonSchema& s = out_.schema;
  s.name = options_.name;
  s.scale = out_.scale;
  s.R_WS = out_.R_WS;
  auto nm = [&](int j) { return nameOf(j); };
  s.set(J::kSpineBase, nm(out_.hips));
  const auto& L = out_.spine;
  const std::size_t n = L.size();
  if (n == 1) {
    s.set(J::kSpineMid, nm(out_.hips), nm(L[0]), 0.5);
  } else if (n % 2 == 1) {
    s.set(J::kSpineMid, nm(L[(n - 1) / 2]));
  } else {
    s.set(J::kSpineMid, nm(L[n / 2 - 1]), nm(L[n / 2]), 0.5);
  }
  if (out_.neck.empty()) {
    s.set(J::kSpineShoulder, nm(out_.chest));
    s.set(J::kNeck, nm(out_.chest), nm(out_.head), 0.5);
  } else {
    s.set(J::kSpineShoulder, nm(out_.neck.front()));
    if (out_.neck.size() == 1) {
      s.set(J::kNeck, nm(out_.neck.front()), nm(out_.head), 0.5);
    } else {
      s.set(J::kNeck, nm(out_.neck[1]));
    }
  }
  if (out_.head_top >= 0) {
    s.set(J::kHead, nm(out_.head), nm(out_.head_top), 0.5);
  } else {
    s.set(J::kHead, nm(out_.head));
  }
  for (int side = 0; side < 2; ++side) {
    const bool left = side == 0;
    const auto& a = out_.arms[static_cast<std::size_t>(side)];
    const auto& l = out_.legs[static_cast<std::size_t>(side)];
    s.set(left ? J::kShoulderLeft : J::kShoulderRight, nm(a.upper_arm));
    s.set(left ? J::kElbowLeft : J::kElbowRight, nm(a.forearm));
    s.set(left ? J::kWristLeft : J::kWristRight, nm(a.hand));
    if (a.finger_base >= 0) {
      s.set(left ? J::kHandLeft : J::kHandRight, nm(a.hand), nm(a.finger_base), 0.5);
      s.set(left ? J::kHandTipLeft : J::kHandTipRight, nm(a.hand_tip));
    } else {
      s.set(left ? J::kHandLeft : J::kHandRight, nm(a.hand));
    }
    if (a.thumb_tip >= 0) s.set(left ? J::kThumbLeft : J::kThumbRight, nm(a.thumb_tip));
    s.set(left ? J::kHipLeft : J::kHipRight, nm(l.thigh));
    s.set(left ? J::kKneeLeft : J::kKneeRight, nm(l.shin));
    s.set(left ? J::kAnkleLeft : J::kAnkleRight, nm(l.foot));
    if (l.toe >= 0) {
      s.set(left ? J::kFootLeft : J::kFootRight, nm(l.toe));
    } else if (l.foot_tip >= 0) {
      s.set(left ? J::kFootLeft : J::kFootRight, nm(l.foot_tip));
    }
  }
  validateSchema(s);
}

}  // namespace internal

RETARGET_LAZY_DEF RigBinding bindRig(const BvhMotion& motion, const RigBindingOptions& options) {
  return internal::RigBinder(motion, options).bind();
}

RETARGET_LAZY_DEF void RigBindingOptions::validate() const {
  RETARGET_THROW_UNLESS(!scale || (std::isfinite(*scale) && *scale > 0), InvalidArgument, "scale (got ",
                        scale.value_or(0), ", expected a finite value > 0 in metres per file unit)");
  RETARGET_THROW_UNLESS(!R_WS || (R_WS->allFinite() &&
                                  (R_WS->transpose() * *R_WS - Eigen::Matrix3d::Identity()).norm() < 1e-9 &&
                                  std::abs(R_WS->determinant() - 1) < 1e-9),
                        InvalidArgument, "R_WS (expected a rotation matrix)");
  RETARGET_THROW_UNLESS(!name.empty(), InvalidArgument, "name is empty (expected a schema name)");
}

#endif  // RETARGET_DEFINE_HUMAN

}  // namespace retarget
