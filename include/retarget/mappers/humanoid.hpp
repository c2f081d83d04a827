#pragma once

/// @file
/// A mapper for any humanoid the automatic binding understands (robots/humanoid_binding.hpp):
/// per frame, a small bounded least-squares problem that turns the robot's virtual-skeleton
/// links (robots/robot_skeleton.hpp) towards the human's. No hand-written map: the
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
/// | foot          | Ankle -> Foot                   | lower torso frame of its side            | `limb_weight` x
/// `end_weight` | | head          | Neck -> Head                    | central upper torso frame                |
/// `limb_weight`   | | ground terms  | the arm, leg and head links     | base B                                   |
/// `limb_weight` x `ground_weight` |
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
/// whose gradient points out stays there); only steps that lower c are taken, and a rejected step
/// whose Gauss-Newton model promised a decrease below 1e-6 of max(1, c) ends the solve. The base
/// frame B is the exception to holding frames: it turns with whatever moves the hips (a waist on
/// a robot rooted at its trunk, Booster T1), and its derivative enters the B terms' Jacobians
/// (see evaluate()). Coordinates no term moves (fingers, a jaw) stay at their rest values.
///
/// ## Local minima and jumps
///
/// A warm-started local solve can stay in the wrong basin: an arm raised sideways against its
/// shoulder-roll limit while the pitch could take it overhead. When a limb's measured links end a
/// frame further from the human's than their own targets allow by more than `restart_cosine`,
/// the limb is solved again over its own coordinates (limits only; the rest of the body held)
/// from 18 seeds (3 x 3 grids over its first two coordinates and over the next two), each for
/// `restart_iterations`, and the best of them to convergence; a solution whose link fit (the cost
/// without the continuity term, which would otherwise outweigh any fit across a long joint range)
/// is lower by more than `switch_gain` is taken at once and the frame reports kDiscontinuity.
/// "What their own targets allow": a link read in its torso frame and in B has two aims that
/// differ where the robot's trunk cannot follow the human's (a 60 deg bow on an upright robot);
/// no direction meets both, and the least weighted error any direction reaches is subtracted
/// (worstExcess()), so a conflict no basin can resolve does not trigger a search. A limb whose
/// restart found nothing better is not searched again until one of its human links has turned by
/// `restart_turn` from where it was then.

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
#include <retarget/core/internal/bounded_lm.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/skeleton_links.hpp>
#include <retarget/human/torso_frames.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/robot_skeleton.hpp>

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
  /// Restarts (see the file doc, "Local minima and jumps"): a limb one of whose measured links
  /// ends a frame below `restart_cosine` of the best its own targets allow is solved again from
  /// seeds; a solution whose link fit is lower by more than `switch_gain` (units of 1 - cos) is
  /// taken at once (a jump beyond the trust region is reported as kDiscontinuity).
  bool restarts = true;
  double restart_cosine = 0.98;
  double switch_gain = 0.05;
  /// Iterations of each seed's solve in a restart (>= 1); the seed that ends with the best fit
  /// then runs to convergence (up to `max_iterations`).
  int restart_iterations = 4;
  /// After a restart that found nothing better, the next one for that limb waits until one of its
  /// human links has turned by more than this from its direction at that restart (rad, >= 0):
  /// the net turn, so that a held pose's tracking noise does not add up to a new search.
  double restart_turn = 0.2;
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
    V3 aim = V3::Zero();       // R_Fr t at the last evaluation (robot world; zero: no frame)
    Scalar error_try = Scalar(0);  // error and aim of the last evaluate() (error, aim: accepted)
    V3 aim_try = V3::Zero();
    int partner = -1;          // the same link's term in the other frame (torso frame <-> B)
    std::vector<int> columns;  // q coordinates this term moves
    V3 target = V3::Zero();    // human unit link in its frame F (this frame)
    V3 target_prev = V3::Zero();
    bool has_prev = false;     // target_prev is a usable frame's target
    bool was_active = false;   // used in the previous frame
    V3 target_searched = V3::Zero();  // target at its group's last fruitless restart (zero: none)
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
  // The last evaluate() becomes the current point's: its derivatives (H_try_, g_try_, ...) and
  // its terms' errors and aims.
  void accept();
  // Projected Levenberg-Marquardt from q_ within [lo_, hi_]; leaves the solution in q_, its cost
  // in cost_ and its derivatives in H_, g_, g_primary_, h_primary_. True when converged. Only the
  // coordinates free at the current iterate enter the linear system (see solve()).
  bool solve(int max_iterations);
  // Whether one of `group`'s active human links turned by more than `restart_turn` from its
  // direction at the group's last fruitless restart (or was not there then).
  bool turnedSinceSearch(int group) const;
  // Largest excess, over the measured links of `group` at the last evaluation, of a link's error
  // over the least error its own targets allow (see the file doc, "Local minima and jumps").
  Scalar worstExcess(int group) const;

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
  std::vector<std::vector<int>> point_columns_;          // per point, its Jacobian's nonzero columns
  std::vector<unsigned> point_groups_;  // per point, bit g: group g's terms need its Jacobian
  std::array<int, 2> base_points_{-1, -1};  // B's left and right points (indices into points_)
  std::vector<int> base_columns_;            // coordinates that move them (turn B)
  Matrix3X<Scalar> dy_B_;                    // per coordinate, d(B's y axis)/dq (evaluate())
  std::vector<V3> p_points_;                             // per point, robot frame (m)
  std::vector<V3> axis_W_, origin_W_;                    // per joint (after evaluate)
  // The 15 terms of the table (indexed by HumanoidTerm), then the measured limb links once more
  // in B (`ground_weight`).
  static constexpr int kGroundTermCount = 9;
  std::array<Term, kHumanoidTermCount + kGroundTermCount> terms_{};
  // The robot's frames at the last evaluation, indexed by FrameKind.
  std::array<M3, 6> robot_frames_{};
  std::array<bool, 6> robot_frame_ok_{};
  // Per group: a restart found nothing better, and the group's human links have not turned by
  // `restart_turn` from where they were then (Term::target_searched).
  std::array<bool, 6> searched_{};
  SkeletonFrame<Scalar> robot_frame_{}, human_{};
  JointFlags driven_;          // coordinates some term moves
  JointFlags driven_primary_;  // coordinates some measured (primary) term moves
  // Per group: restart seeds, each a list of (q column, value).
  std::array<std::vector<std::vector<std::pair<int, Scalar>>>, kGroupCount> group_seeds_{};
  // Per group: the coordinates only its terms move (what its restarts solve for).
  std::array<std::vector<int>, kGroupCount> group_columns_{};
  int restricted_ = -1;      // evaluate() counts only this group's terms (a restart); -1: all
  std::vector<int> free_;    // solve(): the coordinates in this iteration's linear system
  VectorX<Scalar> q_local_, q_best_, q_seed_, step_;  // step_: per coordinate trust radius this frame (rad)
  VectorX<Scalar> lower_, upper_, rest_, q_prev_, q_, q_try_, lo_, hi_, g_, g_try_, dq_, rhs_, b_;
  // Gradient and curvature (diagonal) of the primary terms alone: what a limit is held against.
  VectorX<Scalar> g_primary_, g_primary_try_, h_primary_, h_primary_try_;
  MatrixX<Scalar> H_, H_try_, A_;
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
  // A point's Jacobian is nonzero only in its carriers' columns and its `from` point's (points
  // are resolved parents first): evaluate() writes those alone, the rest stay zero.
  point_columns_.resize(points_.size());
  for (std::size_t i = 0; i < points_.size(); ++i) {
    std::vector<int>& columns = point_columns_[i];
    if (points_[i].from >= 0) {
      columns = point_columns_[static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(points_[i].from)])];
    }
    for (const Carrier& c : carriers_[i]) columns.push_back(c.column);
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  }
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
  // B's points (the hips; the shoulders when the binding has no hips) and the coordinates that
  // move them: on a robot rooted at its trunk (Booster T1) the waist carries the hips, and B
  // turns with it.
  std::vector<bool> base_moves(static_cast<std::size_t>(nq), false);
  if (has(H::kHipLeft) && has(H::kHipRight)) {
    base_points_ = {point_of_joint_[static_cast<std::size_t>(H::kHipLeft)],
                    point_of_joint_[static_cast<std::size_t>(H::kHipRight)]};
  } else if (has(H::kShoulderLeft) && has(H::kShoulderRight)) {
    base_points_ = {point_of_joint_[static_cast<std::size_t>(H::kShoulderLeft)],
                    point_of_joint_[static_cast<std::size_t>(H::kShoulderRight)]};
  }
  if (base_points_[0] >= 0) {
    for (int c = 0; c < nq; ++c) {
      const auto k = static_cast<std::size_t>(c);
      base_moves[k] = moves[static_cast<std::size_t>(base_points_[0])][k] || moves[static_cast<std::size_t>(base_points_[1])][k];
      if (base_moves[k]) base_columns_.push_back(c);
    }
  }
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
      const bool turns_frame = s.frame == FrameKind::kBase && base_moves[k];  // see evaluate()
      if ((moved || turns_frame) && !frame_carriers[k]) t.columns.push_back(c);
    }
    if (t.columns.empty()) continue;
    t.present = true;
    t.group = groupOf(s.term);
    // The ground terms follow the table's terms: pair each with its link's torso-frame term.
    if (n >= static_cast<std::size_t>(kHumanoidTermCount)) {
      Term& f = terms_[static_cast<std::size_t>(s.term)];
      if (f.present && f.a == t.a && f.b == t.b) {
        f.partner = static_cast<int>(n);
        t.partner = static_cast<int>(s.term);
      }
    }
    for (int c : t.columns) {
      driven_[c] = true;
      if (t.primary) driven_primary_[c] = true;
    }
  }
  RETARGET_THROW_UNLESS(std::any_of(terms_.begin(), terms_.end(), [](const Term& t) { return t.present; }),
                        InvalidArgument, "binding of robot '", binding_.robot,
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
  q_ = q_try_ = lo_ = hi_ = g_ = g_try_ = dq_ = rhs_ = b_ = wanted_ = rest_;
  g_primary_ = g_primary_try_ = h_primary_ = h_primary_try_ = rest_;
  H_ = H_try_ = A_ = MatrixX<Scalar>::Zero(nq, nq);
  free_.assign(static_cast<std::size_t>(nq), 0);
  J_term_ = Matrix3X<Scalar>::Zero(3, nq);
  dy_B_ = Matrix3X<Scalar>::Zero(3, nq);
  clamped_ = held_ = fixed_ = used_ = JointFlags::Constant(nq, false);
  q_local_ = q_best_ = q_seed_ = step_ = rest_;
  searched_.fill(false);
  // Which groups' terms read each point's Jacobian, directly or through a point hung from it.
  point_groups_.assign(points_.size(), 0u);
  for (const Term& t : terms_) {
    if (!t.present) continue;
    for (int j : {t.a, t.b}) point_groups_[static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(j)])] |= 1u << t.group;
  }
  if (!base_columns_.empty()) {  // B's derivative (evaluate()) reads its points' Jacobians
    for (int p : base_points_) point_groups_[static_cast<std::size_t>(p)] = ~0u;
  }
  for (std::size_t i = points_.size(); i-- > 0;) {
    if (points_[i].from >= 0) {
      point_groups_[static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(points_[i].from)])] |= point_groups_[i];
    }
  }
  // Each group's own coordinates: moved by its terms and by no other group's (an arm's ground
  // terms also move the waist, which the torso's terms move as well).
  for (int group = 0; group < kGroupCount; ++group) {
    for (int c = 0; c < nq; ++c) {
      bool own = false, shared = false;
      for (const Term& t : terms_) {
        if (!t.present || std::find(t.columns.begin(), t.columns.end(), c) == t.columns.end()) continue;
        (t.group == group ? own : shared) = true;
      }
      if (own && !shared) group_columns_[static_cast<std::size_t>(group)].push_back(c);
    }
  }
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
    const std::vector<int>& own = group_columns_[static_cast<std::size_t>(group)];
    for (int c : chain.q) {
      if (c >= 0 && c < nq && driven_primary_[c] && std::find(own.begin(), own.end(), c) != own.end()) {
        driven.push_back(c);
      }
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
  searched_.fill(false);
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
    if (restricted_ >= 0 && (point_groups_[i] & (1u << restricted_)) == 0u) continue;  // not read
    Matrix3X<Scalar>& J = J_points_[i];
    for (int c : point_columns_[i]) J.col(c).setZero();
    if (from >= 0) {
      const Matrix3X<Scalar>& J_from = J_points_[static_cast<std::size_t>(from)];
      for (int c : point_columns_[static_cast<std::size_t>(from)]) J.col(c) = J_from.col(c);
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
  // B turns with the coordinates that move its points: y = P h / |P h| with h = p_left - p_right
  // and P the projection on the horizontal plane, x = y x z, z the vertical; so
  // d(R_B t)/dq_k = t_x (dy_k x z) + t_y dy_k with dy_k = (I - y y^T) P dh_k / |P h|.
  const std::size_t kB = static_cast<std::size_t>(FrameKind::kBase);
  if (!base_columns_.empty() && robot_frame_ok_[kB]) {
    const auto left = static_cast<std::size_t>(base_points_[0]), right = static_cast<std::size_t>(base_points_[1]);
    const V3 h = p_points_[left] - p_points_[right];
    const Scalar horizontal = std::hypot(h.x(), h.y());
    const V3 y = robot_frames_[kB].col(1);
    M3 D = (M3::Identity() - y * y.transpose()) / horizontal;
    D.col(2).setZero();  // P drops the vertical component of dh
    for (int c : base_columns_) dy_B_.col(c) = D * (J_points_[left].col(c) - J_points_[right].col(c));
  }
  for (Term& t : terms_) {
    if (!t.active || (restricted_ >= 0 && t.group != restricted_)) continue;
    const M3& R_F = robot_frames_[static_cast<std::size_t>(t.frame)];
    if (!robot_frame_ok_[static_cast<std::size_t>(t.frame)]) {
      // The robot's own frame degenerated (not at any sane configuration): the term counts as
      // fully wrong, with no derivative.
      t.error_try = Scalar(2);
      t.aim_try.setZero();
      cost += t.weight * t.weight * Scalar(2);
      continue;
    }
    t.aim_try = R_F * t.target;
    const std::size_t ia = static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(t.a)]);
    const std::size_t ib = static_cast<std::size_t>(point_of_joint_[static_cast<std::size_t>(t.b)]);
    const V3 d = p_points_[ib] - p_points_[ia];
    const Scalar length = d.norm();
    if (!(length > Scalar(1e-9))) {
      t.error_try = Scalar(2);
      cost += t.weight * t.weight * Scalar(2);
      continue;
    }
    const V3 u = d / length;
    const V3 r = u - t.aim_try;
    const Scalar w2 = t.weight * t.weight;
    t.error_try = r.squaredNorm();
    cost += Scalar(0.5) * w2 * t.error_try;
    const M3 P = (M3::Identity() - u * u.transpose()) / length;
    for (int c : t.columns) J_term_.col(c) = P * (J_points_[ib].col(c) - J_points_[ia].col(c));
    if (t.frame == FrameKind::kBase) {
      for (int c : base_columns_) {
        J_term_.col(c) -= t.target.x() * dy_B_.col(c).cross(V3::UnitZ()) + t.target.y() * dy_B_.col(c);
      }
    }
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
void HumanoidMapper<Scalar>::accept() {
  H_.swap(H_try_);
  g_.swap(g_try_);
  g_primary_.swap(g_primary_try_);
  h_primary_.swap(h_primary_try_);
  for (Term& t : terms_) {
    if (restricted_ >= 0 && t.group != restricted_) continue;  // not evaluated
    t.error = t.error_try;
    t.aim = t.aim_try;
  }
}

namespace internal {

/// The schedule of the humanoid fits (the fixed-base fit and its floating base's), for
/// boundedLevenbergMarquardt: Gauss-Newton steps damped from 1e-3, the damping x 0.3 after a
/// taken step (down to 1e-9) and x 10 after a refused one (the search gives up above
/// `max_damping`); a step that keeps the cost is taken; it ends after `max_evaluations` costs,
/// when a taken step gains at most 1e-12 max(1, cost), when a step moves no coordinate by more
/// than `tolerance`, or at a damped matrix that is not positive definite.
inline LmOptions humanoidSearch(double tolerance, int max_evaluations, double max_damping) {
  LmOptions search;
  search.initial_damping = 1e-3;
  search.shrink = 0.3;
  search.grow = 10.0;
  search.min_damping = 1e-9;
  search.max_damping = max_damping;
  search.max_evaluations = max_evaluations;
  search.take_equal = true;
  search.not_positive_ends = true;
  search.relative_decrease = 1e-12;
  search.step_tolerance = tolerance;
  return search;
}

}  // namespace internal

template <typename Scalar>
bool HumanoidMapper<Scalar>::solve(int max_iterations) {
  // A refused step whose model decrease was below this fraction of max(1, cost) ends the solve
  // (chosen on the tuning Kinect recordings: 14 % fewer iterations, the same costs).
  constexpr double kPromisedFloor = 1e-6;
  const Scalar mu = static_cast<Scalar>(options_.continuity_weight);
  q_ = q_.cwiseMax(lo_).cwiseMin(hi_);
  const Scalar cost = evaluate(q_) + Scalar(0.5) * mu * (q_ - q_prev_).squaredNorm();
  accept();
  // The fit as the library's bounded search's problem (core/internal/bounded_lm.hpp): the
  // Gauss-Newton matrix of the terms plus the continuity term mu |q - q_prev|^2 / 2, damped by
  // lambda I, over the free coordinates. A coordinate no term moves, pinned (lo = hi: held, or
  // outside a restart's limb), or at a bound whose gradient points out of the box stays where it
  // is and leaves the system, which is factorised in A_'s top-left corner (no allocation).
  struct Problem {
    HumanoidMapper& m;
    Scalar mu;
    Scalar moved = 0;

    internal::LmStep solve(Scalar lambda) {
      const int nq = m.model_->nq();
      m.rhs_ = m.g_ + mu * (m.q_ - m.q_prev_);
      int free = 0;
      for (int i = 0; i < nq; ++i) {
        m.fixed_[i] = !m.driven_[i] || !(m.lo_[i] < m.hi_[i]) ||
                      internal::heldAtBound(m.q_[i], m.lo_[i], m.hi_[i], m.rhs_[i], Scalar(1e-9));
        if (!m.fixed_[i]) m.free_[static_cast<std::size_t>(free++)] = i;
      }
      if (free == 0) return internal::LmStep::kNothingFree;
      for (int c = 0; c < free; ++c) {
        const int qc = m.free_[static_cast<std::size_t>(c)];
        for (int r = 0; r < free; ++r) m.A_(r, c) = m.H_(m.free_[static_cast<std::size_t>(r)], qc);
        m.A_(c, c) += mu + lambda;
        m.b_[c] = -m.rhs_[qc];
      }
      Eigen::Ref<MatrixX<Scalar>> A_free = m.A_.topLeftCorner(free, free);
      Eigen::LLT<Eigen::Ref<MatrixX<Scalar>>> llt(A_free);
      if (llt.info() != Eigen::Success) return internal::LmStep::kNotPositive;
      auto b = m.b_.head(free);
      llt.solveInPlace(b);
      m.dq_.setZero();
      for (int c = 0; c < free; ++c) m.dq_[m.free_[static_cast<std::size_t>(c)]] = m.b_[c];
      m.q_try_ = (m.q_ + m.dq_).cwiseMax(m.lo_).cwiseMin(m.hi_);
      moved = (m.q_try_ - m.q_).cwiseAbs().maxCoeff();
      return internal::LmStep::kReady;
    }
    Scalar stepSize() const { return moved; }
    Scalar tryStep() {
      if (!m.q_try_.allFinite()) return std::numeric_limits<Scalar>::quiet_NaN();
      return m.evaluate(m.q_try_) + Scalar(0.5) * mu * (m.q_try_ - m.q_prev_).squaredNorm();
    }
    void accept() {
      m.q_.swap(m.q_try_);
      m.accept();
    }
    void reject() {}
    void takeUnevaluated() {}  // no final_step
    // Near a minimum with a nonzero residual the model's steps fail by rounding, and raising
    // lambda until they shrink below the tolerance took half of all iterations on Kinect input:
    // the model's own promise for the refused step s, -g.s - s^T (H + mu I) s / 2, ends it.
    Scalar promisedDecrease() {
      m.dq_ = m.q_try_ - m.q_;
      m.b_.noalias() = m.H_ * m.dq_;  // preallocated: no temporary
      return -m.rhs_.dot(m.dq_) - Scalar(0.5) * (m.dq_.dot(m.b_) + mu * m.dq_.squaredNorm());
    }
  };
  Problem problem{*this, mu};
  internal::LmOptions search = internal::humanoidSearch(options_.tolerance, max_iterations, 1e6);
  search.promise_floor = kPromisedFloor;
  const internal::LmOutcome<Scalar> outcome = internal::boundedLevenbergMarquardt(problem, cost, search);
  iterations_ += outcome.evaluations;
  cost_ = outcome.cost;
  return outcome.converged;
}

template <typename Scalar>
bool HumanoidMapper<Scalar>::turnedSinceSearch(int group) const {
  const Scalar cos_turn = std::cos(static_cast<Scalar>(options_.restart_turn));
  for (const Term& t : terms_) {
    if (t.active && t.group == group && !(t.target.dot(t.target_searched) >= cos_turn)) return true;
  }
  return false;
}

template <typename Scalar>
Scalar HumanoidMapper<Scalar>::worstExcess(int group) const {
  // A link read in two frames (its torso frame and B) has two aims a_1, a_2 that differ where the
  // robot's trunk cannot follow the human's; no direction u does better on both than the least
  // of w_1^2 |u - a_1|^2 + w_2^2 |u - a_2|^2, 2 (w_1^2 + w_2^2) - 2 |w_1^2 a_1 + w_2^2 a_2| (at u along
  // w_1^2 a_1 + w_2^2 a_2). The excess is the link's weighted mean error above that least value.
  Scalar worst = Scalar(0);
  for (std::size_t n = 0; n < terms_.size(); ++n) {
    const Term& t = terms_[n];
    if (!t.active || !t.primary || t.group != group) continue;
    const Term* other = t.partner >= 0 && terms_[static_cast<std::size_t>(t.partner)].active
                            ? &terms_[static_cast<std::size_t>(t.partner)]
                            : nullptr;
    if (other == nullptr) {
      worst = std::max(worst, t.error);
      continue;
    }
    if (t.partner < static_cast<int>(n)) continue;  // the pair is counted once
    const Scalar w1 = t.weight * t.weight, w2 = other->weight * other->weight, w = w1 + w2;
    const Scalar achieved = w1 * t.error + w2 * other->error;
    const Scalar least = Scalar(2) * w - Scalar(2) * (w1 * t.aim + w2 * other->aim).norm();
    worst = std::max(worst, (achieved - least) / w);
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
  for (Term& t : terms_) {
    if (!t.active) continue;
    Scalar turn = max_step;
    if (t.has_prev) turn = std::acos(std::min(Scalar(1), std::max(Scalar(-1), t.target.dot(t.target_prev))));
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
    const Scalar local = fitOf(q_local_);  // the terms' errors are the local solution's (accept())
    std::array<bool, kGroupCount> poor{};
    const Scalar restart_error = Scalar(2) * (Scalar(1) - static_cast<Scalar>(options_.restart_cosine));
    for (int group = 0; group < kGroupCount; ++group) {
      const bool may = !searched_[static_cast<std::size_t>(group)] || turnedSinceSearch(group);
      poor[static_cast<std::size_t>(group)] =
          may && !group_seeds_[static_cast<std::size_t>(group)].empty() && worstExcess(group) > restart_error;
    }
    // Each poor limb is solved again over its own coordinates alone (the rest pinned; only its
    // terms evaluated): the whole body's fit of a solution is the reference's, less the limb's
    // terms there, plus the limb's terms at the solution.
    Scalar best = local;
    bool found = false;
    for (int group = 0; group < kGroupCount; ++group) {
      if (!poor[static_cast<std::size_t>(group)]) continue;
      const Scalar before = best;
      const VectorX<Scalar>& reference = found ? q_best_ : q_local_;
      lo_ = reference;
      hi_ = reference;
      for (int c : group_columns_[static_cast<std::size_t>(group)]) {
        lo_[c] = held_[c] ? q_prev_[c] : lower_[c];
        hi_[c] = held_[c] ? q_prev_[c] : upper_[c];
      }
      restricted_ = group;
      const Scalar others = before - evaluate(reference);
      // Every seed runs `restart_iterations`; the most promising then runs to convergence.
      Scalar seed_best = std::numeric_limits<Scalar>::infinity();
      for (const auto& seed : group_seeds_[static_cast<std::size_t>(group)]) {
        q_ = found ? q_best_ : q_local_;
        for (const auto& [column, value] : seed) q_[column] = value;
        solve(options_.restart_iterations);
        const Scalar fit = fitOf(q_);
        if (fit < seed_best) {
          seed_best = fit;
          q_seed_ = q_;
        }
      }
      q_ = q_seed_;
      solve(options_.max_iterations);
      const Scalar fit = others + fitOf(q_);
      if (fit < best) {
        best = fit;
        q_best_ = q_;
        found = true;
      }
      restricted_ = -1;
      // Nothing clearly better for this limb: no new search until the human's links of this limb
      // turn by `restart_turn` (a pose the robot cannot take, held by the human, costs one search,
      // not one per frame).
      searched_[static_cast<std::size_t>(group)] = !(best < before - static_cast<Scalar>(options_.switch_gain));
      for (Term& t : terms_) {
        if (t.group == group) t.target_searched = t.active ? t.target : V3::Zero();
      }
    }
    if (found && best < local - static_cast<Scalar>(options_.switch_gain)) {
      // The better solution, reached by a jump when it lies beyond the trust region.
      q_ = q_best_;
      jumped = ((q_best_ - q_prev_).cwiseAbs().array() > step_.array()).any();
      converged = true;
    } else {
      q_ = q_local_;
    }
    trustBox();
    if (std::any_of(poor.begin(), poor.end(), [](bool p) { return p; })) {
      // The derivatives of the output, for the clamp report below.
      cost_ = evaluate(q_) + Scalar(0.5) * static_cast<Scalar>(options_.continuity_weight) * (q_ - q_prev_).squaredNorm();
      accept();
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
  check(restart_iterations >= 1, "restart_iterations", restart_iterations, ">= 1");
  check(std::isfinite(restart_turn) && restart_turn >= 0, "restart_turn", restart_turn, ">= 0 rad");
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class HumanoidMapper<double>;
RETARGET_TEMPLATE_MAPPERS class HumanoidMapper<float>;
#endif

}  // namespace retarget
