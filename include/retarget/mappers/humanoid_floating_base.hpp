#pragma once

/// @file
/// The humanoid mapper with a floating base (beyond the seeds): per frame the robot's root pose in
/// the world (z up, the ground at z = 0) beside the joint angles, the soles planted on the ground
/// where the human's feet stand, for the motion datasets humanoid policies are trained on.
///
/// ## Per frame
///
/// 1. Stance labels of the human's feet (human/foot_stance.hpp).
/// 2. The fixed-base solve (mappers/humanoid.hpp): every joint angle, the robot's pelvis upright.
///    Its link directions were matched in frames that turn with the human's hips (B, the torso
///    frames), so the heading R_yaw that turns the robot's hip line onto the human's puts the
///    upper body's links in the human's world directions; the root's heading follows R_yaw.
/// 3. The floating-base solve, over the root position p_WR (m), a turn of the root (rad, about
///    the world axes) and the legs' coordinates, of c = 1/2 sum of the squared residuals
///
///    | residual                                   | when                         | weight (option)            |
///    |--------------------------------------------|------------------------------|----------------------------|
///    | u_l - t_l, thigh and tibia (and foot)      | always (foot: out of stance) | `direction_weight`         |
///    | (h_R - s (h_H - f))_xy, (...)_z            | hips usable                  | `root_weight`, `height_weight` |
///    | (m_R - T)_xy, a foot's midpoint to target  | out of stance, landing       | `foot_weight`              |
///    | R z - z; heading of R x against the hips'  | always                       | `tilt_weight`, `yaw_weight` |
///    | p - p_prev, log(R R_prev^T)                | after the first frame        | `root_continuity_weight`   |
///    | R_WF up_F - z, a standing sole's up axis   | in stance                    | `flat_weight`              |
///    | q_legs - q_legs_prev                       | after the first frame        | `continuity_weight`        |
///    | sole points: p_i - a_i; z_i; min(z_i, 0)   | planted; landing; otherwise  | `contact_weight`           |
///
///    u_l is the robot's unit link in the world and t_l the human's (WBF's comparison: its base
///    B is the world up to the heading both share); h_R the midpoint of the robot's hips, h_H the
///    human's, s the scale, f the human's floor (`FootStanceOptions::floor`; x, y zero); T a
///    foot's target: the human foot's midpoint relative to the human's hips, scaled, from the hips'
///    target, moved sideways by the difference of the robot's and the scaled human's hip widths.
///    A foot that lands (first stance frame) is pulled to T with every sole point on the ground:
///    flat where the stance foot will be; its anchors a_i are where the points then are, and in
///    stance they stay there, turned about their centre by the human foot's turn since landing
///    (a pivot). Out of stance no sole point goes below the ground. Root height, pelvis and legs
///    are solved together: nothing is clamped afterwards. The solver is projected
///    Levenberg-Marquardt within the leg joints' limits and, after the first frame, their speed
///    limits times the frame's time step.
/// 4. The other coordinates keep step 2's values, moved at most their speed limits times the
///    time step (`kRateLimited` when one is held back): the output respects the model's speed
///    limits at any input rate.
///
/// The scale (one factor for the root's path and for the limbs, so that a planted foot and the
/// root's path agree) is `scale` when set, else measured on the first frame with both legs (the
/// command line and Python set it to the take's median, metrics/ground_contact.hpp
/// `humanoidLegScale`).
/// One uniform factor is what keeps feet from skating: a stance foot stays where the human's
/// stands only if the robot's stride is the human's scaled by the same factor as its legs.
///
/// ## Contract (mappers/mapper.hpp)
///
/// `map()` never allocates or throws; `q_out` is finite and within the position limits; the root
/// pose (`rootPose()`) is finite. Status: the fixed-base solve's flags, plus `kRateLimited` when a
/// speed limit held a coordinate back, and `kNotConverged` when a standing sole ended more than
/// `contact_tolerance` from its anchor or a sole below the ground by more than that.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/bounded_lm.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/foot_stance.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/humanoid_soles.hpp>

namespace retarget {

/// Options of `HumanoidFloatingBaseMapper` (a validated aggregate; see the file doc for the terms).
struct HumanoidFloatingBaseOptions {
  /// The fixed-base solve.
  HumanoidMapperOptions mapper{};
  /// The human's stance labels (and floor).
  FootStanceOptions stance{};
  /// Robot length over human length (> 0); unset: measured on the first frame with both legs.
  std::optional<double> scale{};
  /// w_c: contacts (per m).
  double contact_weight = 100.0;
  /// w_d: leg link directions (unitless).
  double direction_weight = 1.0;
  /// w_r, w_z: the robot's hips on the human's scaled path, horizontally and in height (per m).
  double root_weight = 3.0;
  double height_weight = 0.5;
  /// w_s: a standing sole's up axis towards the world's (per rad): flat whatever the sole's
  /// width (Unitree H1's sole box is 3 cm wide, so its contact points alone hardly resist a roll).
  double flat_weight = 10.0;
  /// w_p: the root's turn and move since the previous frame (per rad, per m): no jump of the
  /// root where the contacts change.
  double root_continuity_weight = 1.0;
  /// w_f: a swinging foot towards where the human's scaled foot is, relative to the hips'
  /// target, horizontally (per m): so that it lands where the root's path expects it.
  double foot_weight = 5.0;
  /// w_t: the root's tilt away from upright (per rad, > 0); w_y: its heading away from the human
  /// hips' (per rad, >= 0).
  double tilt_weight = 10.0;
  double yaw_weight = 1.0;
  /// w_q: leg coordinates' change from the previous frame (per rad).
  double continuity_weight = 0.05;
  /// Apply the model's joint speed limits (rad/s) times the frame's time step.
  bool speed_limits = true;
  /// Iterations of the floating-base solve per frame (>= 1), and its step tolerance (m or rad, > 0).
  int max_iterations = 20;
  double tolerance = 1e-6;
  /// A standing sole further than this from its anchor, or any sole deeper than this below the
  /// ground, is reported (`kNotConverged`; m, > 0).
  double contact_tolerance = 0.005;

  /// Throws InvalidArgument naming the field and value.
  void validate() const {
    mapper.validate();
    stance.validate();
    auto check = [](bool ok, const char* field, double value, const char* expected) {
      RETARGET_THROW_UNLESS(ok, InvalidArgument, "HumanoidFloatingBaseOptions::", field, " (got ", value, ", expected ",
                            expected, ")");
    };
    if (scale) check(std::isfinite(*scale) && *scale > 0, "scale", *scale, "> 0");
    check(std::isfinite(contact_weight) && contact_weight > 0, "contact_weight", contact_weight, "> 0 per m");
    check(std::isfinite(direction_weight) && direction_weight >= 0, "direction_weight", direction_weight, ">= 0");
    check(std::isfinite(root_weight) && root_weight >= 0, "root_weight", root_weight, ">= 0 per m");
    check(std::isfinite(height_weight) && height_weight >= 0, "height_weight", height_weight, ">= 0 per m");
    check(std::isfinite(flat_weight) && flat_weight >= 0, "flat_weight", flat_weight, ">= 0 per rad");
    check(std::isfinite(root_continuity_weight) && root_continuity_weight >= 0, "root_continuity_weight",
          root_continuity_weight, ">= 0");
    check(std::isfinite(foot_weight) && foot_weight >= 0, "foot_weight", foot_weight, ">= 0 per m");
    check(std::isfinite(tilt_weight) && tilt_weight > 0, "tilt_weight", tilt_weight, "> 0 per rad");
    check(std::isfinite(yaw_weight) && yaw_weight >= 0, "yaw_weight", yaw_weight, ">= 0 per rad");
    check(std::isfinite(continuity_weight) && continuity_weight >= 0, "continuity_weight", continuity_weight,
          ">= 0 per rad");
    check(max_iterations >= 1, "max_iterations", max_iterations, ">= 1");
    check(std::isfinite(tolerance) && tolerance > 0, "tolerance", tolerance, "> 0");
    check(std::isfinite(contact_tolerance) && contact_tolerance > 0, "contact_tolerance", contact_tolerance, "> 0 m");
  }
};

/// The humanoid mapper with a floating base (see the file doc). A workspace: one per thread;
/// keeps a reference to the model.
template <typename ScalarType = double>
class HumanoidFloatingBaseMapper {
 public:
  using Scalar = ScalarType;
  using Input = SkeletonFrame<Scalar>;
  using Map = HumanoidBinding;
  using Options = HumanoidFloatingBaseOptions;

  /// Throws InvalidArgument when the options are invalid, the binding has no two legs with their
  /// hip, knee and ankle points, or a foot has no sole (robots/humanoid_soles.hpp).
  HumanoidFloatingBaseMapper(const RobotModel<Scalar>& model, HumanoidBinding binding,
                             HumanoidFloatingBaseOptions options = {});
  HumanoidFloatingBaseMapper(const RobotModel<Scalar>&&, HumanoidBinding, HumanoidFloatingBaseOptions = {}) = delete;

  /// Maps one frame: joint angles into `q_out` (size nq, rad), the root pose into `rootPose()`.
  [[nodiscard]] Status map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;
  /// Forgets the previous frames (stance history, anchors, the measured scale).
  void reset() noexcept;

  const RobotModel<Scalar>& model() const noexcept { return *model_; }
  const HumanoidFloatingBaseOptions& options() const noexcept { return options_; }
  const HumanoidBinding& binding() const noexcept { return fixed_.binding(); }
  /// Per q coordinate, last map(): held against a position limit the links pull beyond (the
  /// fixed-base solve's report, kept where the floating-base solve left the coordinate on it).
  const JointFlags& clamped() const noexcept { return clamped_; }
  /// Per q coordinate, last map(): held its previous value (its links unusable).
  const JointFlags& held() const noexcept { return held_; }
  const VectorX<Scalar>& wanted() const noexcept { return fixed_.wanted(); }
  /// The root link's pose in the world X_WB (m; z up, the ground at z = 0) after the last map().
  const Isometry3<Scalar>& rootPose() const noexcept { return X_WB_; }
  /// The human's stance labels of the last map() (0 left, 1 right): the soles planted.
  const std::array<bool, 2>& contacts() const noexcept { return stance_.stance(); }
  /// The scale in use (0 before it is measured).
  Scalar scale() const noexcept { return scale_; }
  /// The soles (robots/humanoid_soles.hpp).
  const std::array<HumanoidSole, 2>& soles() const noexcept { return soles_; }
  /// The fixed-base mapper of step 2 and the stance labels of step 1.
  const HumanoidMapper<Scalar>& fixedBase() const noexcept { return fixed_; }
  const FootStanceDetector<Scalar>& stance() const noexcept { return stance_; }
  /// The largest contact error of the last map(): a standing sole's distance from its anchor, or
  /// a sole's depth below the ground (m).
  Scalar contactError() const noexcept { return contact_error_; }

 private:
  using V3 = Vector3<Scalar>;
  using M3 = Matrix3<Scalar>;
  struct Carrier {
    int joint, column;
    Scalar gain;
  };
  struct Point {  // a virtual-skeleton point the solve reads
    int link = -1;
    int from = -1;  // index in points_ of the point it hangs from (-1: fixed on the link)
    V3 v_L = V3::Zero();
    std::vector<Carrier> carriers;
  };
  enum : int { kHipL = 0, kKneeL, kAnkleL, kFootL, kHipR, kKneeR, kAnkleR, kFootR, kPointCount };

  // FK at q_full_ with the root at (R_, p_); fills the residuals r and Jacobian J (rows used:
  // returned) for the current contact modes. Returns the cost 1/2 |r|^2.
  Scalar evaluate(MatrixX<Scalar>& J, VectorX<Scalar>& r, int& rows);
  void pointJacobian(int point, const V3& p);
  // The solve's points from data_'s forward kinematics: a fixed one on its link, a hung one from
  // its parent point (world frame of data_, m).
  void placePoints(std::array<V3, kPointCount>& p) const;
  void placeRoot();
  // Where sole point i of a standing foot belongs: its anchor, turned about the anchors' centre by
  // the human foot's turn since the landing (world, m).
  V3 turnedAnchor(std::size_t side, std::size_t i) const;
  // The columns e_k x v (k = x, y, z): how a world vector v moves under a small turn of the whole
  // body about the world axes.
  static M3 turnColumns(const V3& v) {
    M3 m;
    m << 0, v.z(), -v.y(), -v.z(), 0, v.x(), v.y(), -v.x(), 0;
    return m;
  }
  // The leg links (thigh, tibia, foot; left then right) as pairs of point indices.
  static constexpr int kLinks[6][2] = {{kHipL, kKneeL}, {kKneeL, kAnkleL}, {kAnkleL, kFootL},
                                       {kHipR, kKneeR}, {kKneeR, kAnkleR}, {kAnkleR, kFootR}};

  const RobotModel<Scalar>* model_;
  HumanoidFloatingBaseOptions options_;
  HumanoidMapper<Scalar> fixed_;
  FootStanceDetector<Scalar> stance_;
  std::array<HumanoidSole, 2> soles_;
  RobotData<Scalar> data_;
  std::vector<V3> axis_W_, origin_W_;
  std::array<Point, kPointCount> points_{};
  std::array<V3, kPointCount> p_{};
  std::array<Matrix3X<Scalar>, kPointCount> Jp_{};  // per point, 3 x nx (joint columns only)
  std::array<std::vector<Carrier>, 2> sole_carriers_{};
  std::array<std::vector<V3>, 2> sole_L_{}, anchors_{};
  std::array<V3, 2> sole_up_L_{};  // each foot link's up (robot frame z) at rest, in the link frame
  // A standing foot may pivot as the human's does: its anchors turn about their centre by the
  // human foot's turn (its heading, unwrapped) since the landing.
  std::array<V3, 2> anchor_centre_{};
  std::array<Scalar, 2> human_foot_yaw_{}, landing_yaw_{};
  std::array<bool, 2> planted_{};  // anchors_ hold the stance's landing
  std::array<bool, 2> landing_{};  // this frame is the landing: points to the ground only
  std::vector<int> legs_;          // q columns solved (both legs)
  std::vector<int> x_of_q_;        // q column -> index in x (-1: not solved)
  Scalar robot_leg_ = Scalar(0), scale_ = Scalar(0), sole_rest_z_ = Scalar(0);
  V3 hip_rest_R_ = V3::Zero();  // robot hips' midpoint at rest, robot frame
  // Per frame: the human's scaled hip target, the leg directions to follow, the root yaw.
  V3 hip_target_ = V3::Zero();
  bool hip_target_ok_ = false;
  std::array<V3, 2> foot_target_{};  // swinging feet (world; z unused)
  std::array<bool, 2> foot_target_ok_{};
  Scalar hip_half_width_ = Scalar(0);  // robot, rest (m)
  std::array<V3, 6> dir_target_{};     // thigh, tibia, foot per leg (world)
  M3 R_yaw_ = M3::Identity();
  // The solve's state: the robot frame's orientation R_ and the root's position p_root_ in W.
  M3 R_ = M3::Identity(), R_prev_ = M3::Identity();
  V3 p_root_ = V3::Zero(), p_root_prev_ = V3::Zero();
  M3 R_BR_;  // binding: robot frame in the root frame
  VectorX<Scalar> q_fixed_, q_full_, q_try_, q_prev_, lo_, hi_, dx_, g_, speed_, rest_;
  Matrix3X<Scalar> dJ_;  // a link's end Jacobians' difference (evaluate(); preallocated)
  JointFlags clamped_, held_;
  MatrixX<Scalar> J_, J_try_, A_;
  VectorX<Scalar> r_, r_try_;
  std::vector<int> free_;
  Isometry3<Scalar> X_WB_ = Isometry3<Scalar>::Identity();
  Scalar time_prev_ = Scalar(0), contact_error_ = Scalar(0);
  bool first_ = true;
};

template <typename Scalar>
HumanoidFloatingBaseMapper<Scalar>::HumanoidFloatingBaseMapper(const RobotModel<Scalar>& model, HumanoidBinding binding,
                                                               HumanoidFloatingBaseOptions options)
    : model_(&model),
      options_((options.validate(), std::move(options))),
      fixed_(model, std::move(binding), options_.mapper),
      stance_(options_.stance),
      soles_(humanoidSoles(model, fixed_.binding())),
      data_(model) {
  const HumanoidBinding& b = fixed_.binding();
  const int nq = model.nq();
  R_BR_ = b.R_BR.template cast<Scalar>();
  // The points the solve reads: hips, knees, ankles and feet, resolved as the fixed-base mapper does.
  const std::vector<internal::ResolvedVirtualPoint> resolved =
      resolveVirtualSkeleton(humanoidVirtualSkeletonMap(b), model);
  constexpr HumanJoint kJoints[kPointCount] = {HumanJoint::kHipLeft,    HumanJoint::kKneeLeft, HumanJoint::kAnkleLeft,
                                               HumanJoint::kFootLeft,   HumanJoint::kHipRight, HumanJoint::kKneeRight,
                                               HumanJoint::kAnkleRight, HumanJoint::kFootRight};
  auto indexOf = [&](int joint) {
    for (int i = 0; i < kPointCount; ++i) {
      if (static_cast<int>(kJoints[i]) == joint) return i;
    }
    return -1;
  };
  std::array<bool, kPointCount> found{};
  for (const internal::ResolvedVirtualPoint& rp : resolved) {
    const int i = indexOf(rp.joint);
    if (i < 0) continue;
    Point& point = points_[static_cast<std::size_t>(i)];
    point.link = rp.link;
    point.v_L = rp.v_L.template cast<Scalar>();
    point.from = rp.from >= 0 ? indexOf(rp.from) : -1;
    RETARGET_THROW_UNLESS(rp.from < 0 || point.from >= 0, InvalidArgument, "binding of robot '", b.robot, "' (point ",
                          kHumanJointNames[static_cast<std::size_t>(rp.joint)],
                          " hangs from a point outside the legs, expected a leg point hung from a leg point)");
    found[static_cast<std::size_t>(i)] = true;
  }
  for (int i = 0; i < kPointCount; ++i) {
    RETARGET_THROW_UNLESS(found[static_cast<std::size_t>(i)] || i == kFootL || i == kFootR, InvalidArgument,
                          "binding of robot '", b.robot, "' (no ",
                          kHumanJointNames[static_cast<std::size_t>(kJoints[i])],
                          " point, expected two legs with hip, knee and ankle for a floating base)");
  }
  for (std::size_t side = 0; side < 2; ++side) {
    RETARGET_THROW_UNLESS(soles_[side].found && !soles_[side].points_L.empty(), InvalidArgument, "robot '", b.robot,
                          "' (", side == 0 ? "left" : "right", " foot: ", soles_[side].source,
                          ", expected a sole to plant)");
  }
  // The solved coordinates: both legs' chains.
  x_of_q_.assign(static_cast<std::size_t>(nq), -1);
  for (HumanoidLimb limb : {HumanoidLimb::kLeftLeg, HumanoidLimb::kRightLeg}) {
    for (int c : b.limb(limb).q) {
      if (c >= 0 && c < nq && x_of_q_[static_cast<std::size_t>(c)] < 0) {
        x_of_q_[static_cast<std::size_t>(c)] = 6 + static_cast<int>(legs_.size());
        legs_.push_back(c);
      }
    }
  }
  const int nx = 6 + static_cast<int>(legs_.size());
  for (Point& point : points_) {
    if (point.link < 0) continue;
    forEachDrivingJoint(model, point.link, [&](int k, int column, Scalar gain) {
      if (x_of_q_[static_cast<std::size_t>(column)] >= 0) point.carriers.push_back(Carrier{k, column, gain});
    });
  }
  for (auto& J : Jp_) J = Matrix3X<Scalar>::Zero(3, nx);
  for (std::size_t side = 0; side < 2; ++side) {
    forEachDrivingJoint(model, soles_[side].link_index, [&](int k, int column, Scalar gain) {
      if (x_of_q_[static_cast<std::size_t>(column)] >= 0) sole_carriers_[side].push_back(Carrier{k, column, gain});
    });
    for (const Eigen::Vector3d& s : soles_[side].points_L) sole_L_[side].push_back(s.template cast<Scalar>());
    anchors_[side].assign(sole_L_[side].size(), V3::Zero());
  }
  axis_W_.assign(model.joints().size(), V3::UnitZ());
  origin_W_.assign(model.joints().size(), V3::Zero());
  // Rest: the leg length and the lowest sole point in the robot frame.
  q_full_ = model.neutralConfiguration();
  R_.setIdentity();
  p_root_.setZero();
  data_.X_WB.setIdentity();
  data_.X_WB.linear() = R_BR_.transpose();
  forwardKinematics(model, data_, q_full_);
  placePoints(p_);
  robot_leg_ = Scalar(0.5) * ((p_[kHipL] - p_[kKneeL]).norm() + (p_[kKneeL] - p_[kAnkleL]).norm() +
                              (p_[kHipR] - p_[kKneeR]).norm() + (p_[kKneeR] - p_[kAnkleR]).norm());
  hip_rest_R_ = Scalar(0.5) * (p_[kHipL] + p_[kHipR]);
  hip_half_width_ = Scalar(0.5) * (p_[kHipL] - p_[kHipR]).norm();
  sole_rest_z_ = std::numeric_limits<Scalar>::infinity();
  for (std::size_t side = 0; side < 2; ++side) {
    const Isometry3<Scalar>& X = data_.X_WL[static_cast<std::size_t>(soles_[side].link_index)];
    for (const V3& s : sole_L_[side]) sole_rest_z_ = std::min(sole_rest_z_, (X * s).z());
    sole_up_L_[side] = soles_[side].up_L.template cast<Scalar>();
  }
  RETARGET_THROW_UNLESS(robot_leg_ > Scalar(1e-6), InvalidArgument, "binding of robot '", b.robot,
                        "' (legs of zero length, expected hip, knee and ankle apart)");
  // Buffers: residual rows at most 3 per leg link (6), 3 hips, 3 tilt, 3 per swinging foot, 3 per
  // flat sole, 6 root continuity, the legs' continuity rows and 3 per sole point.
  int rows = 18 + 3 + 4 + 6 + 6 + 6 + static_cast<int>(legs_.size());  // + swing feet, flatness, root continuity
  for (const auto& s : sole_L_) rows += 3 * static_cast<int>(s.size());
  J_ = J_try_ = MatrixX<Scalar>::Zero(rows, nx);
  r_ = r_try_ = VectorX<Scalar>::Zero(rows);
  A_ = MatrixX<Scalar>::Zero(nx, nx);
  dx_ = g_ = VectorX<Scalar>::Zero(nx);
  free_.assign(static_cast<std::size_t>(nx), 0);
  speed_ = model.velocityLimits();
  rest_ = model.neutralConfiguration();
  q_fixed_ = q_try_ = q_prev_ = lo_ = hi_ = q_full_;
  dJ_ = Matrix3X<Scalar>::Zero(3, nx - 6);
  clamped_ = held_ = JointFlags::Constant(nq, false);
  reset();
}

template <typename Scalar>
void HumanoidFloatingBaseMapper<Scalar>::reset() noexcept {
  fixed_.reset();
  stance_.reset();
  scale_ = options_.scale ? static_cast<Scalar>(*options_.scale) : Scalar(0);
  planted_ = landing_ = {false, false};
  first_ = true;
  q_full_ = q_prev_ = rest_;
  clamped_.setConstant(false);
  held_.setConstant(false);
  R_.setIdentity();
  p_root_ = V3(0, 0, -sole_rest_z_);
  placeRoot();
  R_prev_ = R_;
  p_root_prev_ = p_root_;
  human_foot_yaw_ = landing_yaw_ = {Scalar(0), Scalar(0)};
  contact_error_ = Scalar(0);
  time_prev_ = Scalar(0);
}

template <typename Scalar>
void HumanoidFloatingBaseMapper<Scalar>::placeRoot() {
  X_WB_.setIdentity();
  X_WB_.linear() = R_ * R_BR_.transpose();
  X_WB_.translation() = p_root_;
}

template <typename Scalar>
Vector3<Scalar> HumanoidFloatingBaseMapper<Scalar>::turnedAnchor(std::size_t side, std::size_t i) const {
  const Scalar turn = human_foot_yaw_[side] - landing_yaw_[side];
  const Scalar c = std::cos(turn), sn = std::sin(turn);
  const V3 offset = anchors_[side][i] - anchor_centre_[side];
  return anchor_centre_[side] + V3(c * offset.x() - sn * offset.y(), sn * offset.x() + c * offset.y(), 0);
}

template <typename Scalar>
void HumanoidFloatingBaseMapper<Scalar>::placePoints(std::array<V3, kPointCount>& p) const {
  for (int i = 0; i < kPointCount; ++i) {
    const Point& point = points_[static_cast<std::size_t>(i)];
    if (point.link < 0) continue;
    const Isometry3<Scalar>& X = data_.X_WL[static_cast<std::size_t>(point.link)];
    p[static_cast<std::size_t>(i)] =
        point.from < 0 ? V3(X * point.v_L) : V3(p[static_cast<std::size_t>(point.from)] + X.linear() * point.v_L);
  }
}

template <typename Scalar>
void HumanoidFloatingBaseMapper<Scalar>::pointJacobian(int i, const V3& p) {
  // Joint columns only (the root's are added by the caller): a fixed point turns about each
  // carrier's axis; a hung point adds its parent's columns and turns its own vector.
  const Point& point = points_[static_cast<std::size_t>(i)];
  Matrix3X<Scalar>& J = Jp_[static_cast<std::size_t>(i)];
  if (point.from >= 0) {
    J = Jp_[static_cast<std::size_t>(point.from)];
  } else {
    J.setZero();
  }
  const V3 arm = point.from < 0 ? V3::Zero() : V3(p - p_[static_cast<std::size_t>(point.from)]);
  for (const Carrier& c : point.carriers) {
    const auto k = static_cast<std::size_t>(c.joint);
    const int x = x_of_q_[static_cast<std::size_t>(c.column)];
    if (model_->joints()[k].type == JointType::kPrismatic) {
      if (point.from < 0) J.col(x) += c.gain * axis_W_[k];
    } else {
      J.col(x) += c.gain * axis_W_[k].cross(point.from < 0 ? V3(p - origin_W_[k]) : arm);
    }
  }
}

template <typename Scalar>
Scalar HumanoidFloatingBaseMapper<Scalar>::evaluate(MatrixX<Scalar>& J, VectorX<Scalar>& r, int& rows) {
  const RobotModel<Scalar>& model = *model_;
  placeRoot();
  data_.X_WB = X_WB_;
  forwardKinematics(model, data_, q_full_);
  jointAxesInWorld(model, data_, axis_W_, origin_W_);
  placePoints(p_);
  for (int i = 0; i < kPointCount; ++i) {
    if (points_[static_cast<std::size_t>(i)].link >= 0) pointJacobian(i, p_[static_cast<std::size_t>(i)]);
  }
  J.setZero();
  rows = 0;
  // Root columns of a world point p: translation, then the turn about the world axes at the root.
  auto rootColumns = [&](const V3& p, Scalar w) {
    J.block(rows, 0, 3, 3) = w * M3::Identity();
    J.block(rows, 3, 3, 3) = w * turnColumns(p - p_root_);
  };
  // Leg links.
  const Scalar w_d = static_cast<Scalar>(options_.direction_weight);
  for (int l = 0; l < 6; ++l) {
    const int a = kLinks[l][0], b = kLinks[l][1];
    if (w_d <= 0 || points_[static_cast<std::size_t>(b)].link < 0) continue;
    if (l % 3 == 2 && stance_.stance()[static_cast<std::size_t>(l / 3)]) continue;  // the sole decides
    const V3 d = p_[static_cast<std::size_t>(b)] - p_[static_cast<std::size_t>(a)];
    const Scalar length = d.norm();
    if (!(length > Scalar(1e-9))) continue;
    const V3 u = d / length;
    const M3 P = (w_d / length) * (M3::Identity() - u * u.transpose());
    r.template segment<3>(rows) = w_d * (u - dir_target_[static_cast<std::size_t>(l)]);
    dJ_ = Jp_[static_cast<std::size_t>(b)].rightCols(J.cols() - 6) -
          Jp_[static_cast<std::size_t>(a)].rightCols(J.cols() - 6);
    J.block(rows, 6, 3, J.cols() - 6).noalias() = P * dJ_;
    // A turn of the whole body turns u: d u / d theta = -[u]x (column k: e_k x u).
    J.block(rows, 3, 3, 3) = w_d * turnColumns(u);
    rows += 3;
  }
  // The hips on the human's scaled path.
  if (hip_target_ok_) {
    const V3 h = Scalar(0.5) * (p_[kHipL] + p_[kHipR]);
    const Scalar w_r = static_cast<Scalar>(options_.root_weight), w_z = static_cast<Scalar>(options_.height_weight);
    rootColumns(h, Scalar(1));
    J.block(rows, 6, 3, J.cols() - 6).noalias() =
        Scalar(0.5) * (Jp_[kHipL].rightCols(J.cols() - 6) + Jp_[kHipR].rightCols(J.cols() - 6));
    r.template segment<3>(rows) = h - hip_target_;
    for (int k = 0; k < 3; ++k) {
      const Scalar w = k < 2 ? w_r : w_z;
      J.row(rows + k) *= w;
      r[rows + k] *= w;
    }
    rows += 3;
  }
  // Swinging and landing feet towards their targets (the midpoint of ankle and foot point,
  // horizontally).
  if (hip_target_ok_ && options_.foot_weight > 0) {
    const Scalar w_f = static_cast<Scalar>(options_.foot_weight);
    for (std::size_t side = 0; side < 2; ++side) {
      const int a = side == 0 ? kAnkleL : kAnkleR, f = side == 0 ? kFootL : kFootR;
      const bool swinging = !stance_.stance()[side] || landing_[side];  // a landing foot lands on its target
      if (!swinging || !foot_target_ok_[side] || points_[static_cast<std::size_t>(f)].link < 0) continue;
      const V3 m = Scalar(0.5) * (p_[static_cast<std::size_t>(a)] + p_[static_cast<std::size_t>(f)]);
      rootColumns(m, w_f);
      J.block(rows, 6, 3, J.cols() - 6).noalias() =
          (Scalar(0.5) * w_f) * (Jp_[static_cast<std::size_t>(a)].rightCols(J.cols() - 6) +
                                 Jp_[static_cast<std::size_t>(f)].rightCols(J.cols() - 6));
      r.template segment<3>(rows) = w_f * (m - foot_target_[side]);
      r[rows + 2] = Scalar(0);  // horizontal only
      J.row(rows + 2).setZero();
      rows += 3;
    }
  }
  // Tilt: the robot frame's up axis along the world's; yaw: its heading on the human hips' (the
  // heading's derivative taken about the world's z, exact when upright).
  {
    const Scalar w_t = static_cast<Scalar>(options_.tilt_weight), w_y = static_cast<Scalar>(options_.yaw_weight);
    const V3 u = R_.col(2);
    r.template segment<3>(rows) = w_t * (u - V3::UnitZ());
    J.block(rows, 3, 3, 3) = w_t * turnColumns(u);
    rows += 3;
    const V3 x = R_.col(0), x_human = R_yaw_.col(0);
    r[rows] = w_y * std::atan2(x_human.x() * x.y() - x_human.y() * x.x(), x_human.x() * x.x() + x_human.y() * x.y());
    J(rows, 5) = w_y;
    rows += 1;
  }
  // The root's move and turn since the previous frame.
  if (!first_ && options_.root_continuity_weight > 0) {
    const Scalar w_p = static_cast<Scalar>(options_.root_continuity_weight);
    const Eigen::AngleAxis<Scalar> turn(R_ * R_prev_.transpose());
    r.template segment<3>(rows) = w_p * (p_root_ - p_root_prev_);
    J.block(rows, 0, 3, 3) = w_p * M3::Identity();
    r.template segment<3>(rows + 3) = w_p * turn.angle() * turn.axis();
    J.block(rows + 3, 3, 3, 3) = w_p * M3::Identity();
    rows += 6;
  }
  // Standing soles flat: the foot's up axis along the world's.
  if (options_.flat_weight > 0) {
    const Scalar w_s = static_cast<Scalar>(options_.flat_weight);
    for (std::size_t side = 0; side < 2; ++side) {
      if (!stance_.stance()[side]) continue;
      const V3 u = data_.X_WL[static_cast<std::size_t>(soles_[side].link_index)].linear() * sole_up_L_[side];
      r.template segment<3>(rows) = w_s * (u - V3::UnitZ());
      J.block(rows, 3, 3, 3) = w_s * turnColumns(u);
      for (const Carrier& c : sole_carriers_[side]) {
        const auto k = static_cast<std::size_t>(c.joint);
        if (model_->joints()[k].type == JointType::kPrismatic) continue;
        J.block(rows, x_of_q_[static_cast<std::size_t>(c.column)], 3, 1) += w_s * c.gain * axis_W_[k].cross(u);
      }
      rows += 3;
    }
  }
  // Continuity of the legs.
  if (!first_ && options_.continuity_weight > 0) {
    const Scalar w_q = static_cast<Scalar>(options_.continuity_weight);
    for (std::size_t i = 0; i < legs_.size(); ++i) {
      const int c = legs_[i];
      r[rows] = w_q * (q_full_[c] - q_prev_[c]);
      J(rows, 6 + static_cast<int>(i)) = w_q;
      ++rows;
    }
  }
  // Contacts.
  const Scalar w_c = static_cast<Scalar>(options_.contact_weight);
  for (std::size_t side = 0; side < 2; ++side) {
    const Isometry3<Scalar>& X = data_.X_WL[static_cast<std::size_t>(soles_[side].link_index)];
    const bool stance = stance_.stance()[side];
    for (std::size_t i = 0; i < sole_L_[side].size(); ++i) {
      const V3 p = X * sole_L_[side][i];
      const bool full = stance && planted_[side] && !landing_[side];
      const bool ground = stance || p.z() < Scalar(0);
      if (!full && !ground) continue;
      rootColumns(p, w_c);
      for (const Carrier& c : sole_carriers_[side]) {
        const auto k = static_cast<std::size_t>(c.joint);
        const int x = x_of_q_[static_cast<std::size_t>(c.column)];
        const V3 col =
            model_->joints()[k].type == JointType::kPrismatic ? V3(axis_W_[k]) : V3(axis_W_[k].cross(p - origin_W_[k]));
        J.block(rows, x, 3, 1) += w_c * c.gain * col;
      }
      if (full) {
        r.template segment<3>(rows) = w_c * (p - turnedAnchor(side, i));
        rows += 3;
      } else {
        // Height only: keep the z row.
        J.row(rows) = J.row(rows + 2);
        J.row(rows + 1).setZero();
        J.row(rows + 2).setZero();
        r[rows] = w_c * p.z();
        rows += 1;
      }
    }
  }
  return Scalar(0.5) * r.head(rows).squaredNorm();
}

template <typename Scalar>
Status HumanoidFloatingBaseMapper<Scalar>::map(const SkeletonFrame<Scalar>& frame,
                                               Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  const RobotModel<Scalar>& model = *model_;
  const int nq = model.nq();
  if (q_out.size() != nq) return StatusCode::kInvalidInput;
  using J = HumanJoint;
  // 1. Stance labels; a foot that lands this frame goes to the ground before it is anchored.
  const std::array<bool, 2> was = stance_.stance();
  const std::array<bool, 2> stance = stance_.update(frame);
  for (std::size_t side = 0; side < 2; ++side) {
    landing_[side] = stance[side] && (!was[side] || !planted_[side]);
    if (!stance[side]) planted_[side] = false;
  }
  // Each human foot's heading (unwrapped from the last), for pivoting.
  for (std::size_t side = 0; side < 2; ++side) {
    const J a = side == 0 ? J::kAnkleLeft : J::kAnkleRight, f = side == 0 ? J::kFootLeft : J::kFootRight;
    if (!frame.usable(a) || !frame.usable(f)) continue;
    const V3 d = frame.position(f) - frame.position(a);
    if (!(d.template head<2>().norm() > Scalar(1e-6))) continue;
    Scalar yaw = std::atan2(d.y(), d.x());
    const Scalar last = human_foot_yaw_[side];
    yaw = last + std::remainder(yaw - last, Scalar(2) * kPi<Scalar>);
    human_foot_yaw_[side] = yaw;
  }
  // 2. The fixed-base solve.
  Status status = fixed_.map(frame, q_fixed_);
  // The scale, the human's hip target and the root's yaw.
  if (!(scale_ > 0)) {
    const std::optional<Scalar> human = legLength(frame);
    if (human && *human > Scalar(1e-3)) scale_ = robot_leg_ / *human;
  }
  const bool hips = frame.usable(J::kHipLeft) && frame.usable(J::kHipRight);
  hip_target_ok_ = hips && scale_ > 0;
  if (hip_target_ok_) {
    const V3 h = Scalar(0.5) * (frame.position(J::kHipLeft) + frame.position(J::kHipRight));
    const Scalar floor = static_cast<Scalar>(stance_.floor().foot_z);
    hip_target_ = scale_ * V3(h.x(), h.y(), h.z() - (std::isfinite(floor) ? floor : Scalar(0)));
    // A swinging foot's target: the human's foot relative to the human's hips, scaled, from the
    // hips' target; moved sideways by the difference of the robot's and the scaled human's hip
    // widths, so that a robot with wider hips does not walk knock-kneed.
    V3 across = frame.position(J::kHipLeft) - frame.position(J::kHipRight);
    across.z() = Scalar(0);
    const Scalar human_half = Scalar(0.5) * across.norm();
    if (human_half > Scalar(1e-6)) across /= Scalar(2) * human_half;
    const Scalar widen = hip_half_width_ - scale_ * human_half;
    for (std::size_t side = 0; side < 2; ++side) {
      const J a = side == 0 ? J::kAnkleLeft : J::kAnkleRight, f = side == 0 ? J::kFootLeft : J::kFootRight;
      foot_target_ok_[side] = frame.usable(a) && frame.usable(f) && human_half > Scalar(1e-6);
      if (!foot_target_ok_[side]) continue;
      const V3 m = Scalar(0.5) * (frame.position(a) + frame.position(f));
      foot_target_[side] = hip_target_ + scale_ * (m - h) + (side == 0 ? widen : -widen) * across;
    }
  } else {
    foot_target_ok_ = {false, false};
  }
  // The robot's hip line at step 2 (robot frame) and the human's give the yaw.
  data_.X_WB.setIdentity();
  data_.X_WB.linear() = R_BR_.transpose();
  forwardKinematics(model, data_, q_fixed_);
  std::array<V3, kPointCount> p_fixed{};
  placePoints(p_fixed);
  if (hips) {
    const V3 y_h = frame.position(J::kHipLeft) - frame.position(J::kHipRight);
    const V3 y_r = p_fixed[kHipL] - p_fixed[kHipR];
    if (y_h.template head<2>().norm() > Scalar(1e-6) && y_r.template head<2>().norm() > Scalar(1e-6)) {
      const Scalar yaw = std::atan2(y_h.y(), y_h.x()) - std::atan2(y_r.y(), y_r.x());
      R_yaw_ = Eigen::AngleAxis<Scalar>(yaw, V3::UnitZ()).toRotationMatrix();
    }
  }
  // The legs' links follow the human's in the world (WBF's comparison: B is the world up to the
  // yaw both share); a link the frame lacks keeps the fixed-base solve's direction.
  constexpr J kHuman[6][2] = {{J::kHipLeft, J::kKneeLeft},     {J::kKneeLeft, J::kAnkleLeft},
                              {J::kAnkleLeft, J::kFootLeft},   {J::kHipRight, J::kKneeRight},
                              {J::kKneeRight, J::kAnkleRight}, {J::kAnkleRight, J::kFootRight}};
  for (int l = 0; l < 6; ++l) {
    const J a = kHuman[l][0], b = kHuman[l][1];
    V3 d = V3::Zero();
    if (frame.usable(a) && frame.usable(b)) d = frame.position(b) - frame.position(a);
    if (!(d.norm() > Scalar(1e-6))) {
      d = R_yaw_ * (p_fixed[static_cast<std::size_t>(kLinks[l][1])] - p_fixed[static_cast<std::size_t>(kLinks[l][0])]);
    }
    dir_target_[static_cast<std::size_t>(l)] = d.norm() > Scalar(1e-9) ? V3(d.normalized()) : V3::UnitZ();
  }

  // 3. The floating-base solve: from the previous frame's root and the fixed-base legs.
  const Scalar dt = frame.time - time_prev_;
  q_full_ = q_fixed_;
  held_ = fixed_.held();
  clamped_ = fixed_.clamped();
  bool rate_limited = false;
  for (int c = 0; c < nq; ++c) {
    lo_[c] = held_[c] ? q_prev_[c] : model.lowerLimits()[c];
    hi_[c] = held_[c] ? q_prev_[c] : model.upperLimits()[c];
    if (!first_ && options_.speed_limits && dt > 0 && std::isfinite(speed_[c])) {
      lo_[c] = std::max(lo_[c], q_prev_[c] - speed_[c] * dt);
      hi_[c] = std::min(hi_[c], q_prev_[c] + speed_[c] * dt);
    }
    q_full_[c] = std::min(std::max(q_full_[c], lo_[c]), hi_[c]);
    // A coordinate outside the legs keeps step 2's value unless a speed limit holds it back.
    if (x_of_q_[static_cast<std::size_t>(c)] < 0 && q_full_[c] != q_fixed_[c]) rate_limited = true;
  }
  if (first_) {
    R_ = R_yaw_;
    const V3 hip_W = R_ * hip_rest_R_;
    p_root_ = hip_target_ok_ ? V3(hip_target_.x() - hip_W.x(), hip_target_.y() - hip_W.y(), -sole_rest_z_)
                             : V3(0, 0, -sole_rest_z_);
  }
  // The library's bounded search (core/internal/bounded_lm.hpp) over x = (root position, root
  // rotation increment, leg coordinates): Gauss-Newton on the residuals, damped by
  // lambda (diag(J^T J) + 1e-9), the rotation updated on its manifold, a leg coordinate at a bound
  // whose descent points out held there, the legs clipped to their box.
  struct Problem {
    HumanoidFloatingBaseMapper& m;
    int nx;
    int rows = 0, rows_try = 0, free = 0;
    bool data_at_solution = true;  // data_ (forward kinematics) is at the accepted iterate
    M3 R_keep = M3::Identity();
    V3 p_keep = V3::Zero();

    internal::LmStep solve(Scalar lambda) {
      m.g_.noalias() = m.J_.topRows(rows).transpose() * m.r_.head(rows);
      free = 0;
      for (int x = 0; x < nx; ++x) {
        if (x >= 6) {
          const int c = m.legs_[static_cast<std::size_t>(x - 6)];
          if (internal::heldAtBound(m.q_full_[c], m.lo_[c], m.hi_[c], m.g_[x])) continue;
        }
        m.free_[static_cast<std::size_t>(free++)] = x;
      }
      if (free == 0) return internal::LmStep::kNothingFree;
      for (int i = 0; i < free; ++i) {
        for (int k = 0; k < free; ++k) {
          m.A_(i, k) = m.J_.col(m.free_[static_cast<std::size_t>(i)])
                           .head(rows)
                           .dot(m.J_.col(m.free_[static_cast<std::size_t>(k)]).head(rows));
        }
        m.A_(i, i) += lambda * (m.A_(i, i) + Scalar(1e-9));
        m.dx_[i] = -m.g_[m.free_[static_cast<std::size_t>(i)]];
      }
      auto A_free = m.A_.topLeftCorner(free, free);
      Eigen::LLT<Eigen::Ref<MatrixX<Scalar>>> llt(A_free);
      if (llt.info() != Eigen::Success) return internal::LmStep::kNotPositive;
      auto step = m.dx_.head(free);
      llt.solveInPlace(step);
      return internal::LmStep::kReady;
    }
    Scalar stepSize() const {
      Scalar moved = Scalar(0);
      for (int i = 0; i < free; ++i) moved = std::max(moved, std::abs(m.dx_[i]));
      return moved;
    }
    Scalar tryStep() {
      R_keep = m.R_;
      p_keep = m.p_root_;
      m.q_try_ = m.q_full_;
      V3 turn = V3::Zero();
      for (int i = 0; i < free; ++i) {
        const int x = m.free_[static_cast<std::size_t>(i)];
        if (x < 3) {
          m.p_root_[x] += m.dx_[i];
        } else if (x < 6) {
          turn[x - 3] = m.dx_[i];
        } else {
          const int c = m.legs_[static_cast<std::size_t>(x - 6)];
          m.q_full_[c] = std::min(std::max(m.q_full_[c] + m.dx_[i], m.lo_[c]), m.hi_[c]);
        }
      }
      if (turn.norm() > Scalar(0)) {
        m.R_ = Eigen::AngleAxis<Scalar>(turn.norm(), turn.normalized()).toRotationMatrix() * m.R_;
      }
      return m.evaluate(m.J_try_, m.r_try_, rows_try);
    }
    void accept() {
      m.J_.swap(m.J_try_);
      m.r_.swap(m.r_try_);
      rows = rows_try;
      data_at_solution = true;
    }
    void reject() {
      data_at_solution = false;
      m.R_ = R_keep;
      m.p_root_ = p_keep;
      m.q_full_.swap(m.q_try_);
    }
    void takeUnevaluated() {}                        // no final_step
    Scalar promisedDecrease() { return Scalar(0); }  // no promise_floor
  };
  Problem problem{*this, 6 + static_cast<int>(legs_.size())};
  const Scalar cost = evaluate(J_, r_, problem.rows);
  const internal::LmOptions search =
      internal::humanoidSearch(options_.tolerance, first_ ? 5 * options_.max_iterations : options_.max_iterations, 1e8);
  (void)internal::boundedLevenbergMarquardt(problem, cost, search);
  const bool data_at_solution = problem.data_at_solution;
  int rows = problem.rows;
  // The accepted iterate's forward kinematics, when a rejected try left the data elsewhere.
  if (!data_at_solution) evaluate(J_try_, r_try_, rows);
  if (!q_full_.allFinite() || !p_root_.allFinite() || !R_.allFinite()) {  // a guard; not reached with finite input
    q_full_ = q_prev_;
    status |= StatusCode::kNotConverged;
  }
  // Anchors of the feet that landed; the contact error.
  contact_error_ = Scalar(0);
  for (std::size_t side = 0; side < 2; ++side) {
    const Isometry3<Scalar>& X = data_.X_WL[static_cast<std::size_t>(soles_[side].link_index)];
    for (std::size_t i = 0; i < sole_L_[side].size(); ++i) {
      const V3 p = X * sole_L_[side][i];
      if (stance[side] && planted_[side] && !landing_[side]) {
        contact_error_ = std::max(contact_error_, (p - turnedAnchor(side, i)).norm());
      }
      contact_error_ = std::max(contact_error_, -p.z());
      if (landing_[side]) anchors_[side][i] = V3(p.x(), p.y(), Scalar(0));
    }
    if (landing_[side]) {
      planted_[side] = true;
      landing_yaw_[side] = human_foot_yaw_[side];
      anchor_centre_[side].setZero();
      for (const V3& a : anchors_[side]) anchor_centre_[side] += a / static_cast<Scalar>(anchors_[side].size());
    }
  }
  // A clamp the fixed-base solve reported stands only where the coordinate is still on the limit.
  for (int c : legs_) {
    clamped_[c] = clamped_[c] && (q_full_[c] <= model.lowerLimits()[c] || q_full_[c] >= model.upperLimits()[c]);
  }
  if (!clamped_.any()) status = status.without(StatusCode::kClamped);
  if (contact_error_ > static_cast<Scalar>(options_.contact_tolerance)) status |= StatusCode::kNotConverged;
  if (rate_limited) status |= StatusCode::kRateLimited;
  placeRoot();
  R_prev_ = R_;
  p_root_prev_ = p_root_;
  q_prev_ = q_full_;
  time_prev_ = frame.time;
  first_ = false;
  q_out = q_full_;
  return status;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class HumanoidFloatingBaseMapper<double>;
RETARGET_TEMPLATE_MAPPERS class HumanoidFloatingBaseMapper<float>;
#endif

}  // namespace retarget
