#pragma once

/// @file
/// A mapper for any humanoid the automatic binding understands (robots/humanoid_binding.hpp):
/// per frame, a small bounded least-squares problem that turns the robot's virtual-skeleton
/// links (mappers/humanoid_skeleton_map.hpp) towards the human's. No hand-written map: the
/// binding is the map.
///
/// ## The problem solved per frame
///
/// Links (a -> b, canonical joint names), each compared in a reference frame F taken on both
/// skeletons the same way (the frames of WBF and LLF, metrics/link_similarity.hpp):
///
/// | term          | link                            | frame F                                  | weight          |
/// |---------------|---------------------------------|------------------------------------------|-----------------|
/// | torso         | SpineBase -> SpineShoulder      | base B (ground vertical, hip line)       | `torso_weight`  |
/// | twist         | ShoulderRight -> ShoulderLeft   | base B                                   | `twist_weight`  |
/// | upper arm     | Shoulder -> Elbow               | upper torso frame of its side            | `limb_weight`   |
/// | lower arm     | Elbow -> Wrist                  | upper torso frame of its side            | `limb_weight`   |
/// | hand          | Wrist -> Hand                   | upper torso frame of its side            | `end_weight`    |
/// | thigh         | Hip -> Knee                     | lower torso frame of its side            | `limb_weight`   |
/// | tibia         | Knee -> Ankle                   | lower torso frame of its side            | `limb_weight`   |
/// | foot          | Ankle -> Foot                   | lower torso frame of its side            | `limb_weight` x `end_weight` |
/// | head          | Neck -> Head                    | central upper torso frame                | `limb_weight`   |
/// | ground terms  | the arm, leg and head links     | base B                                   | `limb_weight` x `ground_weight` |
///
/// The torso-frame terms are LLF's frames, the ground terms WBF's; the two agree when the robot's
/// trunk follows the human's and share the difference where it cannot (a robot without a waist).
///
/// The torso frames are human/torso_frames.hpp's (seed 000 Section 3.2), built
/// from the human's joints and from the robot's virtual-skeleton points at the current iterate;
/// B is WBF's base (seed 000 Eq. 44: z the world vertical, y the hip line). With t_l = R_Fh^T
/// (h_b - h_a) / |h_b - h_a| the human's unit link in its frame and u_l(q) the robot's, the frame
/// cost is
///
///   c(q) = 1/2 sum_l w_l^2 |u_l(q) - R_Fr(q) t_l|^2 + 1/2 mu |q - q_prev|^2,
///
/// where |u - R t|^2 = 2 - 2 cos (the cosine WBF and LLF average, seed 000 Eqs. 43 and 45), mu is
/// `continuity_weight` and q_prev the previous output (the rest configuration on the first
/// frame). It is minimised over every q coordinate of the bound limbs and waist within the joint
/// limits and a trust region around q_prev: a coordinate may move `min_step` plus
/// `continuity_gain` times the largest angle any human link it moves turned since the previous
/// frame, at most `max_step` (none on the first frame and for a link back after frames without
/// it). So the robot keeps still while the human does (no slide along a singular valley, such as
/// a straight elbow's twist) and follows a moving human at full speed. The solver is projected
/// Levenberg-Marquardt from q_prev (warm start): analytic Jacobians (d u / d q_k = P_u / |d|
/// (dp_b/dq_k - dp_a/dq_k), dp/dq_k = w_k x (p - o_k) for a point carried by revolute joint k with
/// axis w_k through o_k, the axis itself for a prismatic one; a point hung from another adds its
/// parent's column); the robot frame R_Fr is held at the iterate, and the joints that carry it
/// (the waist for the upper torso frames on a pelvis-rooted robot) are left out of the torso-frame
/// terms, so such a term asks nothing of them; active set at the bounds (a coordinate at a bound
/// whose gradient points out stays there); only steps that lower c are taken. Coordinates no term
/// moves (fingers, a jaw) stay at their rest values.
///
/// ## Local minima and jumps
///
/// A warm-started local solve can stay in the wrong basin: an arm raised sideways against its
/// shoulder-roll limit while the pitch could take it overhead. When a limb's measured links end a
/// frame below `restart_cosine` of the human's, the limb is solved again (limits only) from 18
/// seeds (3 x 3 grids over its first two coordinates and over the next two); a solution whose link
/// fit (the cost without the continuity term, which would otherwise outweigh any fit across a
/// long joint range) is lower by more than `switch_gain` is taken at once and the frame reports
/// kDiscontinuity. A
/// limb whose restart found nothing better is not searched again until its human links have
/// turned by `restart_turn` in total.

/// When the robot's link can take the human's direction, the minimum is the exact match (cos 1),
/// which is also what the best reachable similarity (metrics/best_reachable.hpp) finds; where it
/// cannot, each limb takes the nearest direction within its limits.
///
/// ## Where GA-LVVJ's analytic solution applies
///
/// GA-LVVJ (mappers/ga_lvvj.hpp, seed 000 Section 3.2) solves an arm in closed form when it has
/// NAO's pattern: two shoulder joints whose axes meet at the shoulder (pitch, roll), then a twist
/// about the upper arm and an elbow bend. A Unitree G1 or H1 arm has it too (shoulder pitch, roll,
/// then the twist as shoulder yaw before the elbow instead of NAO's ElbowYaw after it: the same
/// rotation, since both turn about the upper arm), and so do Pepper's arms; GA-LVVJ's leg solution
/// is NAO's (a 45 deg HipYawPitch shared by both legs) and does not carry over to G1 / H1 legs
/// (yaw-roll-pitch or pitch-roll-yaw hips). This mapper needs no pattern; on NAO and Pepper its
/// WBF / LLF agree with GA-LVVJ's (tests/humanoid).
///
/// ## Contract (mappers/mapper.hpp)
///
/// `map()` never allocates or throws; `q_out` is finite and within the limits. Status:
/// `kClamped` when a limit holds a coordinate that the measured links (not the hands and feet,
/// which WBF / LLF do not measure) pull beyond it by more than `clamp_tolerance` (their
/// one-dimensional Newton step; `wanted()` gives that value) at a cost above `clamp_cost`;
/// `kDegenerateInput` when every measured term that moves some coordinate was unusable (its joints
/// not usable, or the frame it is read in not buildable): those coordinates hold their last value
/// (`held()`); `kNotConverged` when the iterations ended before the step fell below `tolerance`, or
/// the trust region held a coordinate back by as much as a clamp (the next frames continue the
/// move); `kDiscontinuity` when a coordinate moved more than `max_step` (a jump to a better basin,
/// or a link back after tracking was lost); `kInvalidInput` for a wrong `q_out` size.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/skeleton_links.hpp>
#include <retarget/human/torso_frames.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/humanoid_skeleton_map.hpp>
#include <retarget/robots/humanoid_binding.hpp>

namespace retarget {

/// Options of `HumanoidMapper` (a validated aggregate; `validate()` runs in the constructor).
struct HumanoidMapperOptions {
  /// Weight of the torso term SpineBase -> SpineShoulder in B (>= 0; unitless).
  double torso_weight = 1.0;
  /// Weight of the twist term ShoulderRight -> ShoulderLeft in B (>= 0).
  double twist_weight = 0.5;
  /// Weight of the upper arm, lower arm, thigh, tibia and head terms (> 0).
  double limb_weight = 1.0;
  /// Weight of the measured limb links (upper and lower arms, thighs, tibias, head) compared once
  /// more in B, relative to `limb_weight` (>= 0): the torso-frame terms match LLF's frames, these
  /// WBF's, and the two differ where the robot's trunk cannot follow the human's.
  double ground_weight = 0.5;
  /// Weight of the hand and foot terms relative to `limb_weight` (>= 0): they set the wrists and
  /// ankles, which WBF / LLF do not measure.
  double end_weight = 0.3;
  /// mu of the cost (>= 0; per rad^2, in units of the squared direction error): how much a
  /// coordinate resists moving from its previous value. Small: it decides only where the links
  /// leave a coordinate free (a straight elbow's twist).
  double continuity_weight = 0.02;
  /// Trust region: largest change of a coordinate from one frame to the next (rad, > 0;
  /// infinity: none) outside jumps (see the file doc). Not applied on the first frame after
  /// construction or `reset()`.
  double max_step = 0.5;
  /// Adaptive trust region: a coordinate may step `min_step` plus `continuity_gain` times the
  /// largest angle (rad) any human link it moves turned since the previous frame, up to
  /// `max_step` (rad, >= 0; unitless >= 0). So the robot keeps still while the human does (no
  /// slide along a singular valley: a straight elbow's twist) and follows a moving human at full
  /// speed.
  double min_step = 0.02;
  double continuity_gain = 3.0;
  /// Iterations per frame (>= 1) and on the first frame (>= max_iterations).
  int max_iterations = 20;
  int first_frame_iterations = 100;
  /// Stop when no coordinate moved more than this in an accepted step (rad, > 0).
  double tolerance = 1e-4;
  /// A coordinate at a limit is reported clamped when its one-dimensional Newton step beyond the
  /// limit exceeds this (rad, >= 0).
  double clamp_tolerance = 0.035;
  /// ... and when the limit costs the measured links more than this (the cost the step would
  /// save, 1/2 sum w^2 |u - R t|^2, in units of 1 - cos for a unit weight; >= 0). A limit that
  /// only turns the bend plane of a nearly straight knee or elbow costs little and is not
  /// reported.
  double clamp_cost = 0.002;
  /// Restarts (see the file doc, "Local minima and jumps"): a limb whose measured links end a frame below
  /// `restart_cosine` of the human's is solved again from seeds; a solution whose link fit is
  /// lower by more than `switch_gain` (units of 1 - cos) is taken at once (a jump beyond the trust
  /// region is reported as kDiscontinuity).
  bool restarts = true;
  double restart_cosine = 0.98;
  double switch_gain = 0.05;
  /// After a restart that found nothing better, the next one for that limb waits until its human
  /// links have turned by this much in total (rad, >= 0).
  double restart_turn = 0.1;
  /// Joints the source only inferred (see InferredJoints; default kHold: not used).
  InferredJoints inferred_joints = InferredJoints::kHold;
  /// Rest configuration (size nq, rad, within limits): the output before the first usable frame
  /// and the start of the first solve. Empty: the model's neutral configuration.
  std::vector<double> rest{};

  /// Throws InvalidArgument naming the field and value when a value is out of range (`rest` is
  /// checked against the model by the mapper).
  RETARGET_DECL void validate() const;
};

/// The link terms of `HumanoidMapper` (see the file doc's table), in this order.
enum class HumanoidTerm : std::uint8_t {
  kTorso = 0,
  kTwist,
  kLeftUpperArm,
  kLeftLowerArm,
  kLeftHand,
  kRightUpperArm,
  kRightLowerArm,
  kRightHand,
  kLeftThigh,
  kLeftTibia,
  kLeftFoot,
  kRightThigh,
  kRightTibia,
  kRightFoot,
  kHead,
};

/// Number of terms (15).
inline constexpr int kHumanoidTermCount = 15;

/// Names of the terms ("torso", "twist", "left_upper_arm", ...).
inline constexpr std::array<const char*, kHumanoidTermCount> kHumanoidTermNames = {
    "torso",     "twist",      "left_upper_arm", "left_lower_arm", "left_hand",
    "right_upper_arm", "right_lower_arm", "right_hand", "left_thigh", "left_tibia",
    "left_foot", "right_thigh", "right_tibia", "right_foot", "head"};

/// Bounded least-squares link-direction mapper for an automatically bound humanoid (see the file
/// doc). A workspace: one per thread; keeps a reference to the model.
template <typename ScalarType = double>
class HumanoidMapper {
 public:
  using Scalar = ScalarType;
  using Input = SkeletonFrame<Scalar>;
  using Map = HumanoidBinding;
  using Options = HumanoidMapperOptions;

  /// Validates `options`, resolves the binding's virtual skeleton against `model` and sets up the
  /// terms the binding supports (a term needs both its robot points, a robot frame to read it in
  /// and at least one coordinate that moves it). Throws InvalidArgument naming the field when the
  /// options or `rest` are invalid, a point's link is not in the model, or no term is left.
  HumanoidMapper(const RobotModel<Scalar>& model, HumanoidBinding binding, HumanoidMapperOptions options = {});
  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  HumanoidMapper(const RobotModel<Scalar>&&, HumanoidBinding, HumanoidMapperOptions = {}) = delete;

  /// Maps one skeleton frame (canonical joints, m) to joint angles `q_out` (size nq, rad, robot q
  /// order). See the file doc for the contract.
  [[nodiscard]] Status map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  /// Forgets the previous frame: the next `map()` starts from `rest` without a trust region.
  void reset() noexcept;

  /// Frames since construction in which a restart found a clearly better solution (see map()).
  long basinSwitches() const noexcept { return switches_; }
  const RobotModel<Scalar>& model() const noexcept { return *model_; }
  const HumanoidMapperOptions& options() const noexcept { return options_; }
  const HumanoidBinding& binding() const noexcept { return binding_; }
  /// Per q coordinate, last `map()`: held against a limit (see the file doc).
  const JointFlags& clamped() const noexcept { return clamped_; }
  /// Per q coordinate, last `map()`: held its previous value because its terms were unusable.
  const JointFlags& held() const noexcept { return held_; }
  /// Per q coordinate, last `map()`: the output, or for a clamped coordinate where the cost
  /// wanted it (its Newton step beyond the limit; rad).
  const VectorX<Scalar>& wanted() const noexcept { return wanted_; }
  /// Which terms the binding supports (see the constructor).
  bool hasTerm(HumanoidTerm t) const noexcept { return terms_[static_cast<std::size_t>(t)].present; }
  /// Which terms were used in the last `map()` (their human link and frame were usable).
  bool usedTerm(HumanoidTerm t) const noexcept { return terms_[static_cast<std::size_t>(t)].active; }
  /// Cost c(q_out) of the last `map()` (see the file doc) and the iterations it took.
  Scalar cost() const noexcept { return cost_; }
  int iterations() const noexcept { return iterations_; }

 private:
  using V3 = Vector3<Scalar>;
  using M3 = Matrix3<Scalar>;

  // Where a term's human and robot links are read.
  enum class FrameKind : std::uint8_t { kBase, kUpperLeft, kUpperRight, kUpper, kLowerLeft, kLowerRight };

  struct Term {
    bool present = false;
    bool active = false;
    int a = -1, b = -1;  // canonical joint indices
    FrameKind frame = FrameKind::kBase;
    Scalar weight = Scalar(1);
    bool primary = true;       // a link WBF / LLF measure (not a hand or foot)
    int group = 0;             // torso, left arm, right arm, left leg, right leg, head
    Scalar error = Scalar(0);  // |u - R t|^2 at the last evaluation (2 - 2 cos)
    std::vector<int> columns;  // q coordinates this term moves
    V3 target = V3::Zero();    // human unit link in its frame F (this frame)
    V3 target_prev = V3::Zero();
    bool has_prev = false;     // target_prev is a usable frame's target
    bool was_active = false;   // used in the previous frame
  };

  // Per robot point: index into points_ of its `from` point (-1: fixed), and the joints carrying
  // its link: (joint index, q column, gain).
  struct Carrier {
    int joint;
    int column;
    Scalar gain;
  };

  // Forward kinematics, points, point Jacobians and robot frames at `q`; returns the link cost
  // and leaves H_try_, g_try_ (the Gauss-Newton model without the continuity term).
  Scalar evaluate(const VectorX<Scalar>& q);
  // Projected Levenberg-Marquardt from q_ within [lo_, hi_]; leaves the solution in q_, its cost
  // in cost_ and its derivatives in H_, g_, g_primary_, h_primary_. True when converged.
  bool solve(int max_iterations);
  // Largest error of the active measured terms of `group` at the last evaluation.
  Scalar worstPrimary(int group) const;

  static constexpr int kGroupCount = 6;
  // The frame of `kind` among a skeleton's torso frames and base (false when not buildable).
  static bool pickFrame(const TorsoFrames<Scalar>& frames, const std::optional<M3>& base, FrameKind kind, M3& R);

  const RobotModel<Scalar>* model_;
  HumanoidBinding binding_;
  HumanoidMapperOptions options_;
  RobotData<Scalar> data_;
  std::vector<internal::ResolvedVirtualPoint> points_;
  std::array<int, kHumanJointCount> point_of_joint_{};  // canonical joint -> index in points_, -1
  std::vector<std::vector<Carrier>> carriers_;           // per point
  std::vector<Matrix3X<Scalar>> J_points_;               // per point, 3 x nq
  std::vector<V3> p_points_;                             // per point, robot frame (m)
  std::vector<V3> axis_W_, origin_W_;                    // per joint (after evaluate)
  // The 15 terms of the table (indexed by HumanoidTerm), then the measured limb links once more
  // in B (`ground_weight`).
  static constexpr int kGroundTermCount = 9;
  std::array<Term, kHumanoidTermCount + kGroundTermCount> terms_{};
  // The robot's frames at the last evaluation, indexed by FrameKind.
  std::array<M3, 6> robot_frames_{};
  std::array<bool, 6> robot_frame_ok_{};
  // Per group: after a restart that found nothing better, the angle (rad) the group's human links
  // have turned since (a restart runs again once it exceeds `restart_turn`); -1: no such restart.
  std::array<Scalar, 6> turned_since_restart_{};
  std::array<Scalar, 6> group_turn_{};  // this frame's largest turn of each group's links (rad)
  SkeletonFrame<Scalar> robot_frame_{}, human_{};
  JointFlags driven_;          // coordinates some term moves
  JointFlags driven_primary_;  // coordinates some measured (primary) term moves
  // Per group: restart seeds, each a list of (q column, value).
  std::array<std::vector<std::vector<std::pair<int, Scalar>>>, kGroupCount> group_seeds_{};
  VectorX<Scalar> q_local_, q_best_, step_;  // step_: per coordinate trust radius this frame (rad)
  long switches_ = 0;
  VectorX<Scalar> lower_, upper_, rest_, q_prev_, q_, q_try_, lo_, hi_, g_, g_try_, dq_, rhs_;
  // Gradient and curvature (diagonal) of the primary terms alone: what a limit is held against.
  VectorX<Scalar> g_primary_, g_primary_try_, h_primary_, h_primary_try_;
  MatrixX<Scalar> H_, H_try_, A_;
  Eigen::LLT<MatrixX<Scalar>> llt_;
  Matrix3X<Scalar> J_term_;
  JointFlags clamped_, held_, fixed_, used_;
  VectorX<Scalar> wanted_;
  bool first_ = true;
  Scalar cost_ = Scalar(0);
  int iterations_ = 0;
};

template <typename Scalar>
HumanoidMapper<Scalar>::HumanoidMapper(const RobotModel<Scalar>& model, HumanoidBinding binding,
                                       HumanoidMapperOptions options)
    : model_(&model), binding_(std::move(binding)), options_(std::move(options)), data_(model) {
  options_.validate();
  const int nq = model.nq();
  const auto& joints = model.joints();
  points_ = resolveVirtualSkeleton(humanoidVirtualSkeletonMap(binding_), model);
  point_of_joint_.fill(-1);
  for (std::size_t i = 0; i < points_.size(); ++i) point_of_joint_[static_cast<std::size_t>(points_[i].joint)] = static_cast<int>(i);
  carriers_.resize(points_.size());
  for (std::size_t i = 0; i < points_.size(); ++i) {
    forEachDrivingJoint(model, points_[i].link, [&](int k, int column, Scalar gain) {
      carriers_[i].push_back(Carrier{k, column, gain});
    });
  }
  J_points_.assign(points_.size(), Matrix3X<Scalar>::Zero(3, nq));
  p_points_.assign(points_.size(), V3::Zero());
  axis_W_.assign(joints.size(), V3::UnitZ());
  origin_W_.assign(joints.size(), V3::Zero());

  // Which coordinates move a point: its carriers and its `from` point's.
  std::vector<std::vector<bool>> moves(points_.size(), std::vector<bool>(static_cast<std::size_t>(nq), false));
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (points_[i].from >= 0) moves[i] = moves[static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(points_[i].from)])];
    for (const Carrier& c : carriers_[i]) moves[i][static_cast<std::size_t>(c.column)] = true;
  }
  auto has = [&](HumanJoint j) { return point_of_joint_[static_cast<std::size_t>(j)] >= 0; };
  auto carrying = [&](HumanJoint j) {  // coordinates that carry point j's link (its frame)
    std::vector<bool> out(static_cast<std::size_t>(nq), false);
    const int p = point_of_joint_[static_cast<std::size_t>(j)];
    if (p >= 0) out = moves[static_cast<std::size_t>(p)];
    return out;
  };
  using H = HumanJoint;
  const bool upper_frames = has(H::kSpineMid) && has(H::kSpineShoulder) && has(H::kShoulderLeft) && has(H::kShoulderRight);
  const bool lower_frames = has(H::kSpineBase) && has(H::kSpineMid) && has(H::kHipLeft) && has(H::kHipRight);
  const bool base_frame = (has(H::kHipLeft) && has(H::kHipRight)) || (has(H::kShoulderLeft) && has(H::kShoulderRight));
  const double w_limb = options_.limb_weight, w_end = options_.limb_weight * options_.end_weight;
  struct Spec {
    HumanoidTerm term;
    H a, b;
    FrameKind frame;
    double weight;
  };
  const double w_ground = options_.limb_weight * options_.ground_weight;
  const Spec specs[kHumanoidTermCount + kGroundTermCount] = {
      {HumanoidTerm::kTorso, H::kSpineBase, H::kSpineShoulder, FrameKind::kBase, options_.torso_weight},
      {HumanoidTerm::kTwist, H::kShoulderRight, H::kShoulderLeft, FrameKind::kBase, options_.twist_weight},
      {HumanoidTerm::kLeftUpperArm, H::kShoulderLeft, H::kElbowLeft, FrameKind::kUpperLeft, w_limb},
      {HumanoidTerm::kLeftLowerArm, H::kElbowLeft, H::kWristLeft, FrameKind::kUpperLeft, w_limb},
      {HumanoidTerm::kLeftHand, H::kWristLeft, H::kHandLeft, FrameKind::kUpperLeft, w_end},
      {HumanoidTerm::kRightUpperArm, H::kShoulderRight, H::kElbowRight, FrameKind::kUpperRight, w_limb},
      {HumanoidTerm::kRightLowerArm, H::kElbowRight, H::kWristRight, FrameKind::kUpperRight, w_limb},
      {HumanoidTerm::kRightHand, H::kWristRight, H::kHandRight, FrameKind::kUpperRight, w_end},
      {HumanoidTerm::kLeftThigh, H::kHipLeft, H::kKneeLeft, FrameKind::kLowerLeft, w_limb},
      {HumanoidTerm::kLeftTibia, H::kKneeLeft, H::kAnkleLeft, FrameKind::kLowerLeft, w_limb},
      {HumanoidTerm::kLeftFoot, H::kAnkleLeft, H::kFootLeft, FrameKind::kLowerLeft, w_end},
      {HumanoidTerm::kRightThigh, H::kHipRight, H::kKneeRight, FrameKind::kLowerRight, w_limb},
      {HumanoidTerm::kRightTibia, H::kKneeRight, H::kAnkleRight, FrameKind::kLowerRight, w_limb},
      {HumanoidTerm::kRightFoot, H::kAnkleRight, H::kFootRight, FrameKind::kLowerRight, w_end},
      {HumanoidTerm::kHead, H::kNeck, H::kHead, FrameKind::kUpper, w_limb},
      {HumanoidTerm::kLeftUpperArm, H::kShoulderLeft, H::kElbowLeft, FrameKind::kBase, w_ground},
      {HumanoidTerm::kLeftLowerArm, H::kElbowLeft, H::kWristLeft, FrameKind::kBase, w_ground},
      {HumanoidTerm::kRightUpperArm, H::kShoulderRight, H::kElbowRight, FrameKind::kBase, w_ground},
      {HumanoidTerm::kRightLowerArm, H::kElbowRight, H::kWristRight, FrameKind::kBase, w_ground},
      {HumanoidTerm::kLeftThigh, H::kHipLeft, H::kKneeLeft, FrameKind::kBase, w_ground},
      {HumanoidTerm::kLeftTibia, H::kKneeLeft, H::kAnkleLeft, FrameKind::kBase, w_ground},
      {HumanoidTerm::kRightThigh, H::kHipRight, H::kKneeRight, FrameKind::kBase, w_ground},
      {HumanoidTerm::kRightTibia, H::kKneeRight, H::kAnkleRight, FrameKind::kBase, w_ground},
      {HumanoidTerm::kHead, H::kNeck, H::kHead, FrameKind::kBase, w_ground},
  };
  driven_ = JointFlags::Constant(nq, false);
  driven_primary_ = JointFlags::Constant(nq, false);
  auto groupOf = [](HumanoidTerm term) {
    switch (term) {
      case HumanoidTerm::kTorso:
      case HumanoidTerm::kTwist: return 0;
      case HumanoidTerm::kLeftUpperArm:
      case HumanoidTerm::kLeftLowerArm:
      case HumanoidTerm::kLeftHand: return 1;
      case HumanoidTerm::kRightUpperArm:
      case HumanoidTerm::kRightLowerArm:
      case HumanoidTerm::kRightHand: return 2;
      case HumanoidTerm::kLeftThigh:
      case HumanoidTerm::kLeftTibia:
      case HumanoidTerm::kLeftFoot: return 3;
      case HumanoidTerm::kRightThigh:
      case HumanoidTerm::kRightTibia:
      case HumanoidTerm::kRightFoot: return 4;
      case HumanoidTerm::kHead: return 5;
    }
    return 0;
  };
  for (std::size_t n = 0; n < std::size(specs); ++n) {
    const Spec& s = specs[n];
    Term& t = terms_[n];
    t.a = static_cast<int>(s.a);
    t.b = static_cast<int>(s.b);
    t.frame = s.frame;
    t.weight = static_cast<Scalar>(s.weight);
    t.primary = !(s.term == HumanoidTerm::kLeftHand || s.term == HumanoidTerm::kRightHand ||
                  s.term == HumanoidTerm::kLeftFoot || s.term == HumanoidTerm::kRightFoot);
    const bool frame_ok = s.frame == FrameKind::kBase ? base_frame
                          : (s.frame == FrameKind::kLowerLeft || s.frame == FrameKind::kLowerRight) ? lower_frames
                                                                                                       : upper_frames;
    if (s.weight <= 0 || !frame_ok || !has(s.a) || !has(s.b)) continue;
    // The coordinates that carry the frame's link are left out (see the file doc): the upper
    // frames ride on SpineShoulder's link, the lower ones on SpineBase's, B on the root.
    std::vector<bool> frame_carriers(static_cast<std::size_t>(nq), false);
    if (s.frame == FrameKind::kUpperLeft || s.frame == FrameKind::kUpperRight || s.frame == FrameKind::kUpper) {
      frame_carriers = carrying(H::kSpineShoulder);
    } else if (s.frame == FrameKind::kLowerLeft || s.frame == FrameKind::kLowerRight) {
      frame_carriers = carrying(H::kSpineBase);
    }
    const auto& ma = moves[static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(t.a)])];
    const auto& mb = moves[static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(t.b)])];
    // A hand or foot term moves only the joints between its wrist / ankle and its end (see the
    // file doc): the unmeasured, noisier end never pulls a measured link.
    for (int c = 0; c < nq; ++c) {
      const auto k = static_cast<std::size_t>(c);
      const bool moved = t.primary ? (ma[k] || mb[k]) : (mb[k] && !ma[k]);
      if (moved && !frame_carriers[k]) t.columns.push_back(c);
    }
    if (t.columns.empty()) continue;
    t.present = true;
    t.group = groupOf(s.term);
    for (int c : t.columns) {
      driven_[c] = true;
      if (t.primary) driven_primary_[c] = true;
    }
  }
  RETARGET_THROW_UNLESS(std::any_of(terms_.begin(), terms_.end(), [](const Term& t) { return t.present; }),
                        InvalidArgument, "HumanoidMapper: binding of robot '", binding_.robot,
                        "' (got no link the mapper can drive, expected at least one bound arm, leg, head or waist)");

  lower_ = model.lowerLimits();
  upper_ = model.upperLimits();
  if (options_.rest.empty()) {
    rest_ = model.neutralConfiguration();
  } else {
    RETARGET_THROW_UNLESS(static_cast<int>(options_.rest.size()) == nq, InvalidArgument,
                          "HumanoidMapperOptions::rest (got ", options_.rest.size(), " values, expected ", nq, ")");
    rest_.resize(nq);
    for (int i = 0; i < nq; ++i) {
      rest_[i] = static_cast<Scalar>(options_.rest[static_cast<std::size_t>(i)]);
      RETARGET_THROW_UNLESS(std::isfinite(options_.rest[static_cast<std::size_t>(i)]) && rest_[i] >= lower_[i] &&
                                rest_[i] <= upper_[i],
                            InvalidArgument, "HumanoidMapperOptions::rest[", i, "] (", model.qName(i), ": got ",
                            options_.rest[static_cast<std::size_t>(i)], ", expected within the joint limits)");
    }
  }
  q_prev_ = rest_;
  q_ = q_try_ = lo_ = hi_ = g_ = g_try_ = dq_ = rhs_ = wanted_ = rest_;
  g_primary_ = g_primary_try_ = h_primary_ = h_primary_try_ = rest_;
  H_ = H_try_ = A_ = MatrixX<Scalar>::Zero(nq, nq);
  llt_ = Eigen::LLT<MatrixX<Scalar>>(nq);
  J_term_ = Matrix3X<Scalar>::Zero(3, nq);
  clamped_ = held_ = fixed_ = used_ = JointFlags::Constant(nq, false);
  q_local_ = q_best_ = step_ = rest_;
  turned_since_restart_.fill(Scalar(-1));
  // Restart seeds of each limb (see map()): a 3 x 3 grid of cell centres over the limits of its
  // first two coordinates (from the torso or pelvis outward; [-pi, pi] for an unbounded one).
  const std::array<std::pair<HumanoidLimb, int>, 5> limbs = {{{HumanoidLimb::kLeftArm, 1},
                                                               {HumanoidLimb::kRightArm, 2},
                                                               {HumanoidLimb::kLeftLeg, 3},
                                                               {HumanoidLimb::kRightLeg, 4},
                                                               {HumanoidLimb::kHead, 5}}};
  for (const auto& [limb, group] : limbs) {
    const HumanoidChain& chain = binding_.limb(limb);
    std::vector<int> driven;
    for (int c : chain.q) {
      if (c >= 0 && c < nq && driven_primary_[c]) driven.push_back(c);
    }
    if (!chain.found || driven.size() < 2) continue;
    auto cell = [&](int c, int k) {
      const Scalar lo = std::isfinite(lower_[c]) ? lower_[c] : -kPi<Scalar>;
      const Scalar hi = std::isfinite(upper_[c]) ? upper_[c] : kPi<Scalar>;
      return lo + (hi - lo) * (Scalar(2 * k + 1) / Scalar(6));
    };
    // Grids over the first pair (shoulder / hip), then over the next pair (twist and bend).
    for (std::size_t pair = 0; pair + 1 < driven.size() && pair < 4; pair += 2) {
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) {
          group_seeds_[static_cast<std::size_t>(group)].push_back(
              {{driven[pair], cell(driven[pair], i)}, {driven[pair + 1], cell(driven[pair + 1], j)}});
        }
      }
    }
  }
  // The robot's world: its root turned so that the binding's axes are x forward, z up.
  data_.X_WB.setIdentity();
  data_.X_WB.linear() = binding_.R_BR.transpose().template cast<Scalar>();
}

template <typename Scalar>
void HumanoidMapper<Scalar>::reset() noexcept {
  for (Term& t : terms_) t.has_prev = t.was_active = t.active = false;
  q_prev_ = rest_;
  first_ = true;
  clamped_.setConstant(false);
  held_.setConstant(false);
  wanted_ = rest_;
  cost_ = Scalar(0);
  iterations_ = 0;
  switches_ = 0;
  turned_since_restart_.fill(Scalar(-1));
  group_turn_.fill(Scalar(0));
}

template <typename Scalar>
bool HumanoidMapper<Scalar>::pickFrame(const TorsoFrames<Scalar>& frames, const std::optional<M3>& base,
                                        FrameKind kind, M3& R) {
  const std::optional<M3>* f = &base;
  switch (kind) {
    case FrameKind::kBase: f = &base; break;
    case FrameKind::kUpperLeft: f = &frames.upper_left; break;
    case FrameKind::kUpperRight: f = &frames.upper_right; break;
    case FrameKind::kUpper: f = &frames.upper; break;
    case FrameKind::kLowerLeft: f = &frames.lower_left; break;
    case FrameKind::kLowerRight: f = &frames.lower_right; break;
  }
  if (!*f) return false;
  R = **f;
  return true;
}

template <typename Scalar>
Scalar HumanoidMapper<Scalar>::evaluate(const VectorX<Scalar>& q) {
  const RobotModel<Scalar>& model = *model_;
  forwardKinematics(model, data_, q);
  jointAxesInWorld(model, data_, axis_W_, origin_W_);
  const auto& joints = model.joints();
  // Points (robot world frame) and their Jacobians.
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const internal::ResolvedVirtualPoint& point = points_[i];
    const Isometry3<Scalar>& X_WL = data_.X_WL[static_cast<std::size_t>(point.link)];
    const V3 v_L = point.v_L.template cast<Scalar>();
    const int from = point.from >= 0 ? point_of_joint_[static_cast<std::size_t>(point.from)] : -1;
    V3& p = p_points_[i];
    if (from < 0) {
      p = X_WL * v_L;
    } else {
      p = p_points_[static_cast<std::size_t>(from)] + X_WL.linear() * v_L;
    }
    robot_frame_.p_W[static_cast<std::size_t>(point.joint)] = p;
    robot_frame_.state[static_cast<std::size_t>(point.joint)] = TrackingState::kTracked;
    Matrix3X<Scalar>& J = J_points_[i];
    if (from < 0) {
      J.setZero();
    } else {
      J = J_points_[static_cast<std::size_t>(from)];
    }
    const V3 arm = from < 0 ? V3::Zero() : V3(X_WL.linear() * v_L);
    for (const Carrier& c : carriers_[i]) {
      const auto k = static_cast<std::size_t>(c.joint);
      if (joints[k].type == JointType::kPrismatic) {
        if (from < 0) J.col(c.column) += c.gain * axis_W_[k];
      } else {
        J.col(c.column) += c.gain * axis_W_[k].cross(from < 0 ? V3(p - origin_W_[k]) : arm);
      }
    }
  }
  Scalar cost = Scalar(0);
  H_try_.setZero();
  g_try_.setZero();
  g_primary_try_.setZero();
  h_primary_try_.setZero();
  // The robot's frames, built as the human's (one definition for both skeletons).
  const TorsoFrames<Scalar> robot_torso = torsoFrames(robot_frame_);
  const std::optional<M3> robot_base = internal::similarity::base(robot_frame_);
  for (std::size_t f = 0; f < robot_frames_.size(); ++f) {
    robot_frame_ok_[f] = pickFrame(robot_torso, robot_base, static_cast<FrameKind>(f), robot_frames_[f]);
  }
  for (Term& t : terms_) {
    if (!t.active) continue;
    const M3& R_F = robot_frames_[static_cast<std::size_t>(t.frame)];
    if (!robot_frame_ok_[static_cast<std::size_t>(t.frame)]) {
      // The robot's own frame degenerated (not at any sane configuration): the term counts as
      // fully wrong, with no derivative.
      t.error = Scalar(2);
      cost += t.weight * t.weight * Scalar(2);
      continue;
    }
    const std::size_t ia = static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(t.a)]);
    const std::size_t ib = static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(t.b)]);
    const V3 d = p_points_[ib] - p_points_[ia];
    const Scalar length = d.norm();
    if (!(length > Scalar(1e-9))) {
      t.error = Scalar(2);
      cost += t.weight * t.weight * Scalar(2);
      continue;
    }
    const V3 u = d / length;
    const V3 r = u - R_F * t.target;
    const Scalar w2 = t.weight * t.weight;
    t.error = r.squaredNorm();
    cost += Scalar(0.5) * w2 * t.error;
    const M3 P = (M3::Identity() - u * u.transpose()) / length;
    for (int c : t.columns) J_term_.col(c) = P * (J_points_[ib].col(c) - J_points_[ia].col(c));
    for (std::size_t x = 0; x < t.columns.size(); ++x) {
      const int cx = t.columns[x];
      g_try_[cx] += w2 * J_term_.col(cx).dot(r);
      if (t.primary) {
        g_primary_try_[cx] += w2 * J_term_.col(cx).dot(r);
        h_primary_try_[cx] += w2 * J_term_.col(cx).squaredNorm();
      }
      for (std::size_t y = 0; y <= x; ++y) {
        const int cy = t.columns[y];
        const Scalar h = w2 * J_term_.col(cx).dot(J_term_.col(cy));
        H_try_(cx, cy) += h;
        if (cx != cy) H_try_(cy, cx) += h;
      }
    }
  }
  return cost;
}

template <typename Scalar>
bool HumanoidMapper<Scalar>::solve(int max_iterations) {
  const int nq = model_->nq();
  const Scalar mu = static_cast<Scalar>(options_.continuity_weight);
  const Scalar half_mu = Scalar(0.5) * mu;
  q_ = q_.cwiseMax(lo_).cwiseMin(hi_);
  Scalar cost = evaluate(q_) + half_mu * (q_ - q_prev_).squaredNorm();
  H_.swap(H_try_);
  g_.swap(g_try_);
  g_primary_.swap(g_primary_try_);
  h_primary_.swap(h_primary_try_);
  Scalar lambda = Scalar(1e-3);
  const Scalar tolerance = static_cast<Scalar>(options_.tolerance);
  bool converged = false;
  int it = 0;
  for (; it < max_iterations && !converged; ++it) {
    // Gradient and damped Gauss-Newton matrix with the continuity term; a coordinate at a bound
    // whose gradient points out of the box is held there (its row and column become identity).
    rhs_ = g_ + mu * (q_ - q_prev_);
    A_ = H_;
    A_.diagonal().array() += mu + lambda;
    for (int i = 0; i < nq; ++i) {
      const Scalar span = Scalar(1e-9);
      fixed_[i] = !driven_[i] || (q_[i] <= lo_[i] + span && rhs_[i] > 0) || (q_[i] >= hi_[i] - span && rhs_[i] < 0);
      if (!fixed_[i]) continue;
      A_.row(i).setZero();
      A_.col(i).setZero();
      A_(i, i) = Scalar(1);
      rhs_[i] = Scalar(0);
    }
    llt_.compute(A_);
    if (llt_.info() != Eigen::Success) break;
    dq_ = -rhs_;
    llt_.solveInPlace(dq_);
    q_try_ = (q_ + dq_).cwiseMax(lo_).cwiseMin(hi_);
    if (!q_try_.allFinite()) break;
    const Scalar moved = (q_try_ - q_).cwiseAbs().maxCoeff();
    const Scalar cost_try = evaluate(q_try_) + half_mu * (q_try_ - q_prev_).squaredNorm();
    if (cost_try <= cost) {
      q_.swap(q_try_);
      H_.swap(H_try_);
      g_.swap(g_try_);
      g_primary_.swap(g_primary_try_);
      h_primary_.swap(h_primary_try_);
      converged = cost - cost_try <= Scalar(1e-12) * std::max(Scalar(1), cost) || moved <= tolerance;
      cost = cost_try;
      lambda = std::max(Scalar(1e-9), lambda * Scalar(0.3));
    } else {
      lambda *= Scalar(10);
      converged = moved <= tolerance;
      if (lambda > Scalar(1e6)) break;
    }
  }
  iterations_ += it;
  cost_ = cost;
  return converged;
}

template <typename Scalar>
Scalar HumanoidMapper<Scalar>::worstPrimary(int group) const {
  Scalar worst = Scalar(0);
  for (const Term& t : terms_) {
    if (t.active && t.primary && t.group == group) worst = std::max(worst, t.error);
  }
  return worst;
}

template <typename Scalar>
Status HumanoidMapper<Scalar>::map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  const int nq = model_->nq();
  if (q_out.size() != nq) return StatusCode::kInvalidInput;
  Status status;
  clamped_.setConstant(false);
  held_.setConstant(false);
  iterations_ = 0;

  // The human's targets: each term's unit link in its frame.
  human_ = frame;
  applyInferredPolicy(human_, options_.inferred_joints);
  const TorsoFrames<Scalar> frames = torsoFrames(human_);
  const std::optional<M3> base = internal::similarity::base(human_);
  used_.setConstant(false);
  bool any = false;
  for (Term& t : terms_) {
    t.was_active = t.active;
    t.active = false;
    if (!t.present) continue;
    const auto a = static_cast<HumanJoint>(t.a), b = static_cast<HumanJoint>(t.b);
    M3 R_F;
    if (!human_.usable(a) || !human_.usable(b) || !pickFrame(frames, base, t.frame, R_F)) continue;
    const V3 d = human_.position(b) - human_.position(a);
    const Scalar length = d.norm();
    if (!(length > Scalar(1e-9)) || !std::isfinite(length)) continue;
    t.target = R_F.transpose() * (d / length);
    t.active = true;
    any = true;
    if (t.primary) {
      for (int c : t.columns) used_[c] = true;
    }
  }
  // Held: coordinates of the measured links whose links were all unusable (a coordinate only a
  // hand or foot moves keeps its value silently when the source has no hands or feet).
  for (int i = 0; i < nq; ++i) held_[i] = driven_primary_[i] && !used_[i];
  if (held_.any()) status |= StatusCode::kDegenerateInput;
  if (!any) {
    q_out = q_prev_;
    wanted_ = q_prev_;
    return status;
  }

  // 1. The local solve from the previous output, within the limits and the trust region (see
  //    min_step / continuity_gain); held coordinates keep their value.
  const bool trust = !first_ && std::isfinite(options_.max_step);
  const Scalar max_step = static_cast<Scalar>(options_.max_step);
  step_.setConstant(trust ? static_cast<Scalar>(options_.min_step) : std::numeric_limits<Scalar>::infinity());
  group_turn_.fill(Scalar(0));
  for (Term& t : terms_) {
    if (!t.active) continue;
    Scalar turn = max_step;
    if (t.has_prev) turn = std::acos(std::min(Scalar(1), std::max(Scalar(-1), t.target.dot(t.target_prev))));
    group_turn_[static_cast<std::size_t>(t.group)] = std::max(group_turn_[static_cast<std::size_t>(t.group)], turn);
    // A link back after frames without it (tracking lost) has no continuity to keep: its
    // coordinates go where it is at once (a step above max_step is reported as a discontinuity).
    const Scalar allowed = !t.was_active ? std::numeric_limits<Scalar>::infinity()
                                         : std::min(max_step, static_cast<Scalar>(options_.min_step) +
                                                                  static_cast<Scalar>(options_.continuity_gain) * turn);
    for (int c : t.columns) step_[c] = std::max(step_[c], allowed);
    t.target_prev = t.target;
    t.has_prev = true;
  }
  auto trustBox = [&] {
    for (int i = 0; i < nq; ++i) {
      lo_[i] = held_[i] ? q_prev_[i] : std::max(lower_[i], q_prev_[i] - step_[i]);
      hi_[i] = held_[i] ? q_prev_[i] : std::min(upper_[i], q_prev_[i] + step_[i]);
    }
  };
  trustBox();
  q_ = q_prev_;
  bool converged = solve(first_ ? options_.first_frame_iterations : options_.max_iterations);
  bool jumped = false;

  // 2. A limb whose measured links stay far from the human's (a local minimum: an arm raised
  //    sideways against its roll limit while the pitch could take it overhead) is solved again
  //    from seeds spread over its joints, within the limits only; a clearly better solution is
  //    taken at once (a discontinuity when it lies beyond the trust region).
  if (options_.restarts) {
    // Solutions are compared by their link fit alone: the continuity term (mu |q - q_prev|^2 / 2)
    // chooses among equally good poses, and over the distance to another basin (5.5 rad of an H1
    // hip pitch from one end of its range to the other: 0.30) it would outweigh any fit.
    const Scalar half_mu = Scalar(0.5) * static_cast<Scalar>(options_.continuity_weight);
    auto fitOf = [&](const VectorX<Scalar>& q) { return cost_ - half_mu * (q - q_prev_).squaredNorm(); };
    q_local_ = q_;
    const Scalar local = fitOf(q_local_);
    evaluate(q_local_);  // the term errors at the local solution
    std::array<bool, kGroupCount> poor{};
    const Scalar restart_error = Scalar(2) * (Scalar(1) - static_cast<Scalar>(options_.restart_cosine));
    for (int group = 0; group < kGroupCount; ++group) {
      Scalar& turned = turned_since_restart_[static_cast<std::size_t>(group)];
      if (turned >= Scalar(0)) turned += group_turn_[static_cast<std::size_t>(group)];
      const bool may = turned < Scalar(0) || turned > static_cast<Scalar>(options_.restart_turn);
      poor[static_cast<std::size_t>(group)] =
          may && !group_seeds_[static_cast<std::size_t>(group)].empty() && worstPrimary(group) > restart_error;
    }
    Scalar best = local;
    bool found = false;
    for (int group = 0; group < kGroupCount; ++group) {
      if (!poor[static_cast<std::size_t>(group)]) continue;
      const Scalar before = best;
      for (int i = 0; i < nq; ++i) {
        lo_[i] = held_[i] ? q_prev_[i] : lower_[i];
        hi_[i] = held_[i] ? q_prev_[i] : upper_[i];
      }
      for (const auto& seed : group_seeds_[static_cast<std::size_t>(group)]) {
        q_ = found ? q_best_ : q_local_;
        for (const auto& [column, value] : seed) q_[column] = value;
        solve(options_.max_iterations);
        const Scalar fit = fitOf(q_);
        if (fit < best) {
          best = fit;
          q_best_ = q_;
          found = true;
        }
      }
      // Nothing clearly better for this limb: no new search until the human's links of this limb
      // turn by `restart_turn` (a pose the robot cannot take, held by the human, costs one search,
      // not one per frame).
      turned_since_restart_[static_cast<std::size_t>(group)] =
          best < before - static_cast<Scalar>(options_.switch_gain) ? Scalar(-1) : Scalar(0);
    }
    if (found && best < local - static_cast<Scalar>(options_.switch_gain)) {
      // The better solution, reached by a jump when it lies beyond the trust region.
      q_ = q_best_;
      jumped = ((q_best_ - q_prev_).cwiseAbs().array() > step_.array()).any();
      converged = true;
      ++switches_;
    } else {
      q_ = q_local_;
    }
    trustBox();
    if (std::any_of(poor.begin(), poor.end(), [](bool p) { return p; })) {
      // The derivatives of the output, for the clamp report below.
      cost_ = evaluate(q_) + Scalar(0.5) * static_cast<Scalar>(options_.continuity_weight) * (q_ - q_prev_).squaredNorm();
      H_.swap(H_try_);
      g_.swap(g_try_);
      g_primary_.swap(g_primary_try_);
      h_primary_.swap(h_primary_try_);
    }
  }
  if (!q_.allFinite()) q_ = q_prev_;  // never reached with finite limits; kept as a guard

  // Limits the measured links push against (clamped), and the trust region (not converged).
  const Scalar mu = static_cast<Scalar>(options_.continuity_weight);
  wanted_ = q_;
  bool trust_bound = false;
  const Scalar clamp_tolerance = static_cast<Scalar>(options_.clamp_tolerance);
  const Scalar clamp_cost = static_cast<Scalar>(options_.clamp_cost);
  for (int i = 0; i < nq; ++i) {
    if (!driven_[i] || held_[i]) continue;
    // pull: the one-dimensional Newton step of the measured links beyond the limit (rad);
    // gain: the cost it would save (1/2 g^2 / h; in units of 1 - cos for a unit weight).
    const Scalar curvature_primary = h_primary_[i] + mu;
    const Scalar pull = -g_primary_[i] / curvature_primary;
    const Scalar gain = Scalar(0.5) * g_primary_[i] * g_primary_[i] / curvature_primary;
    if (((q_[i] <= lower_[i] && pull < 0) || (q_[i] >= upper_[i] && pull > 0)) && std::abs(pull) > clamp_tolerance &&
        gain > clamp_cost) {
      clamped_[i] = true;
      wanted_[i] = q_[i] + pull;
    }
    if (!trust || jumped) continue;
    // Held back by the trust region by more than the clamp tolerances: the robot lags this frame.
    const bool significant = std::abs(pull) > clamp_tolerance && gain > clamp_cost;
    const bool at_trust = significant && ((q_[i] <= q_prev_[i] - step_[i] && q_[i] > lower_[i] && pull < 0) ||
                                          (q_[i] >= q_prev_[i] + step_[i] && q_[i] < upper_[i] && pull > 0));
    trust_bound = trust_bound || at_trust;
  }
  if (clamped_.any()) status |= StatusCode::kClamped;
  if (!converged || trust_bound) status |= StatusCode::kNotConverged;
  if (trust) jumped = jumped || ((q_ - q_prev_).cwiseAbs().array() > max_step).any();
  if (jumped) status |= StatusCode::kDiscontinuity;
  q_prev_ = q_;
  first_ = false;
  q_out = q_;
  return status;
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL void HumanoidMapperOptions::validate() const {
  auto check = [](bool ok, const char* field, double value, const char* expected) {
    RETARGET_THROW_UNLESS(ok, InvalidArgument, "HumanoidMapperOptions::", field, " (got ", value, ", expected ", expected,
                          ")");
  };
  check(std::isfinite(torso_weight) && torso_weight >= 0, "torso_weight", torso_weight, ">= 0");
  check(std::isfinite(twist_weight) && twist_weight >= 0, "twist_weight", twist_weight, ">= 0");
  check(std::isfinite(limb_weight) && limb_weight > 0, "limb_weight", limb_weight, "> 0");
  check(std::isfinite(end_weight) && end_weight >= 0, "end_weight", end_weight, ">= 0");
  check(std::isfinite(ground_weight) && ground_weight >= 0, "ground_weight", ground_weight, ">= 0");
  check(std::isfinite(continuity_weight) && continuity_weight >= 0, "continuity_weight", continuity_weight, ">= 0");
  check(max_step > 0, "max_step", max_step, "> 0 rad (infinity: no trust region)");
  check(std::isfinite(min_step) && min_step >= 0, "min_step", min_step, ">= 0 rad");
  check(std::isfinite(continuity_gain) && continuity_gain >= 0, "continuity_gain", continuity_gain, ">= 0");
  check(max_iterations >= 1, "max_iterations", max_iterations, ">= 1");
  check(first_frame_iterations >= max_iterations, "first_frame_iterations", first_frame_iterations,
        ">= max_iterations");
  check(std::isfinite(tolerance) && tolerance > 0, "tolerance", tolerance, "> 0 rad");
  check(std::isfinite(clamp_tolerance) && clamp_tolerance >= 0, "clamp_tolerance", clamp_tolerance, ">= 0 rad");
  check(std::isfinite(clamp_cost) && clamp_cost >= 0, "clamp_cost", clamp_cost, ">= 0");
  check(restart_cosine > -1 && restart_cosine <= 1, "restart_cosine", restart_cosine, "in (-1, 1]");
  check(std::isfinite(switch_gain) && switch_gain >= 0, "switch_gain", switch_gain, ">= 0");
  check(std::isfinite(restart_turn) && restart_turn >= 0, "restart_turn", restart_turn, ">= 0 rad");
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class HumanoidMapper<double>;
RETARGET_TEMPLATE_MAPPERS class HumanoidMapper<float>;
#endif

}  // namespace retarget
