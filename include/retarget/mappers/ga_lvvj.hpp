#pragma once

/// @file
/// GA-LVVJ: geometrical analysis of link vectors and virtual joints (seed 000, Section 3.2,
/// Eqs. 1-27; head Section 3.3; hands Section 3.4). A canonical human skeleton frame in, robot
/// joint angles out, analytically, in well under a microsecond per joint.
///
/// Method (our reading of the paper, with the signs its text lost reconstructed and settled by
/// the round-trip test in tests/ga_lvvj):
///  - Link frames. The torso is split into four parts. The upper torso frame T of a side has
///    z along V_SpineMid->SpineShoulder and y along the shoulder line towards the robot's left
///    (V_SpineShoulder->ShoulderLeft on the left, V_ShoulderRight->SpineShoulder on the right),
///    made orthogonal to z; x = y x z points forward (Eqs. 1-3: x along N_1-2-5, y = R_LUT).
///    The lower torso frame L of a side is built the same way from V_SpineBase->SpineMid and
///    the hip line (Eqs. 13-15).
///  - Mother/child joints. A mother joint's angle is read by projecting the child link vector
///    onto the plane normal to the mother joint's axis (a signed angle in that plane); the
///    child joint's angle is the angle between the link vector and that plane (Eqs. 4-7,
///    10-12, 16-19, 22-23). With u, l, t, b the unit upper arm, lower arm, thigh and tibia:
///      ShoulderPitch = atan2(-u_z, u_x) in T            (mother, axis y of T; Eqs. 4-6)
///      ShoulderRoll  = asin(u_y) in T                    (child; Eq. 7)
///      ElbowRoll     = -+acos(l_x) in E = T R_y(SP) R_z(SR) R_UE, - on the left (Eq. 12)
///      ElbowYaw      = atan2(-l_z, -l_y) left, atan2(l_z, l_y) right, in E   (Eqs. 9-11)
///                      (R_UE: the map's fixed elbow-frame rotation, identity on NAO)
///      HipRoll       = atan2(a_z, a_y) in L, a = hip-pitch axis (mother, axis x of L; Eqs.
///                      16-18): a = x_L x t (the paper's N_0-1-17 construction) plus, when the
///                      knee is bent, the knee plane normal t x b (as the paper's Section 4 note
///                      on redundant hips suggests: "a tibia can help decide the hip angles"),
///                      so that a horizontal thigh (seated) still has a defined roll
///      HipPitch      = atan2(-t'_x, -t'_z), t' = R_x(HR)^T t in L: the thigh projected on
///                      the plane normal to the rolled pitch axis (Eq. 19 gives -asin(t_x),
///                      the same value whenever the thigh lies in that plane, as on a robot)
///      KneePitch     = atan2(-b_x, -b_z) in Th = L R_x(HR) R_y(HP)  (Eqs. 20-23; the paper's
///                      unsigned pi - angle(V_18-19, V_18-17) is this value for a tibia in the
///                      knee plane, and the signed form keeps NAO's small hyperextension range)
///    The right side is the mirror image (y -> -y) of the left: same pitch formulas, roll and
///    yaw formulas of the mirrored sign; proven by the mirror test.
///  - Head (Section 3.3): HeadYaw / HeadPitch from `frame.head` (a face tracker) when present;
///    otherwise HeadPitch = atan2(h_x, h_z) of the Neck->Head vector h in the central upper
///    torso frame (shoulder line ShoulderRight->ShoulderLeft) and HeadYaw keeps its previous
///    value (a single vector does not carry yaw; not reported as held).
///  - Hands (Section 3.4): open -> 1, closed -> 0 (canonical), unknown -> previous state.
///  - HipYawPitch (NAO: one motor for both hips, axis (0, 1, -+1)/sqrt(2) of the left/right
///    lower torso frame) is either written as `GaLvvjOptions::hip_yaw_pitch` (kFixed, 0 as in
///    the paper) or, with HipYawPitchMode::kFromKnees, read from the knee planes: for each leg
///    with a bent knee (sin KneePitch > 0.1), the angle a about that axis that makes the knee
///    axis n = t x b orthogonal to x_L, a = atan2(n_x, (k x n)_x) taken in (-pi/2, pi/2]; the
///    two legs are averaged with weights (sin KneePitch - 0.1); the hip and knee angles of each
///    leg are then read in L R_k(a). When neither knee is bent the previous value is kept
///    (not reported as held: standing straight is normal).
///  - Joints the method does not map (wrists, ankles, ...) take `GaLvvjOptions::rest` values.
///  - Every value is clamped to the robot's limits (Section 3.2, last paragraph). With
///    `limit_aware_shoulder` (default on), an ElbowYaw beyond its limits is first traded
///    against ShoulderPitch when that reproduces the arm better (see the option).
///
/// Singular and degenerate cases (documented; the output stays finite, the affected virtual
/// joints hold their last good value and `held()` / kDegenerateInput report it):
///  - a needed skeleton joint is not tracked or not finite, a link vector has zero length, or
///    a torso frame is degenerate (shoulder or hip line along the spine): every virtual joint
///    that depends on it;
///  - shoulder: the upper arm along the shoulder line (|cos ShoulderRoll| < singular_tolerance,
///    arm straight out sideways): ShoulderPitch is undefined and held;
///  - elbow: the lower arm along the upper arm (|sin ElbowRoll| < singular_tolerance, arm
///    straight): ElbowYaw is undefined and held (NAO's ElbowRoll limit keeps 2 deg of bend);
///  - hip: the thigh along the x axis of L (thigh horizontal, |cos HipPitch| <
///    singular_tolerance) with a straight knee (sin KneePitch <= 0.1): HipRoll is held;
///  - knee: the tibia along the knee axis: KneePitch is held;
///  - head (vector path): Neck->Head along the shoulder line: HeadPitch is held.
/// Near these configurations the angles are continuous but ill-conditioned.
///
/// Invariance: the angles depend only on link vectors expressed in frames built from the
/// skeleton itself, so any rigid motion of the whole skeleton (rotation about any axis and
/// translation) leaves them unchanged; `frame.head` angles are used as given (torso-relative).

#include <array>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/torso_frames.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/mapper.hpp>

namespace retarget {

/// Options of `GaLvvjMapper` (a validated aggregate; `validate()` runs in the constructor).
struct GaLvvjOptions {
  /// How HipYawPitch is set (see the file doc).
  enum class HipYawPitchMode { kFixed, kFromKnees };
  HipYawPitchMode hip_yaw_pitch_mode = HipYawPitchMode::kFixed;
  /// kFixed: value written to HipYawPitch every frame (rad; the paper holds it at 0).
  /// kFromKnees: its value until the first frame with a bent knee.
  double hip_yaw_pitch = 0.0;
  /// Below this sine (or cosine, see the header doc) a mother joint is singular and held.
  /// Unitless, in (0, 0.5].
  double singular_tolerance = 1e-3;
  /// Values (rad, robot q order, size nq) of the joints GA-LVVJ does not map, and the initial
  /// held values of those it maps. Empty (default): the model's neutral configuration.
  std::vector<double> rest{};
  /// When the exact ElbowYaw lies outside its limits (typically an arm held out sideways,
  /// near the shoulder singularity, where ShoulderPitch and ElbowYaw turn about nearly the same
  /// axis), move the excess yaw into ShoulderPitch if that reproduces the upper and lower arm
  /// directions better after clamping (scored by the sum of their cosines). Never changes a
  /// solution that is within the ElbowYaw limits, so the round trip is unaffected. Off: the
  /// paper's plain clamping.
  bool limit_aware_shoulder = true;

  /// Throws InvalidArgument naming the field and value when a value is out of range or not
  /// finite (`rest` is checked against the model by the mapper).
  void validate() const {
    RETARGET_THROW_UNLESS(std::isfinite(hip_yaw_pitch), InvalidArgument, "GaLvvjOptions::hip_yaw_pitch (got ",
                          hip_yaw_pitch, ", expected a finite angle in rad)");
    RETARGET_THROW_UNLESS(std::isfinite(singular_tolerance) && singular_tolerance > 0.0 && singular_tolerance <= 0.5,
                          InvalidArgument, "GaLvvjOptions::singular_tolerance (got ", singular_tolerance,
                          ", expected a value in (0, 0.5])");
    for (std::size_t i = 0; i < rest.size(); ++i) {
      RETARGET_THROW_UNLESS(std::isfinite(rest[i]), InvalidArgument, "GaLvvjOptions::rest[", i, "] (got ", rest[i],
                            ", expected a finite value)");
    }
  }
};

/// GA-LVVJ whole-body mapper (see the file doc for the method, signs and singular cases).
///
/// A mapper of the shape of mappers/mapper.hpp (Input: a canonical `SkeletonFrame`, metres):
/// `map()` never allocates, never throws, always writes a finite q within the robot's limits
/// and returns a Status: kClamped when a value was clamped (see `clamped()`), kDegenerateInput
/// when a virtual joint held its last good value (see `held()`), kInvalidInput (q_out
/// untouched) when q_out does not have nq entries. Keeps a reference to the model, which must
/// outlive the mapper (a temporary model does not compile). No smoothing: compose a filter of
/// filters/ after it.
template <typename ScalarType = double>
class GaLvvjMapper {
 public:
  using Scalar = ScalarType;
  using Input = SkeletonFrame<Scalar>;
  using Map = GaLvvjMap;
  using Options = GaLvvjOptions;

  /// Validates `options` and resolves `map` against `model` (throws InvalidArgument naming the
  /// field: see GaLvvjOptions::validate and resolveGaLvvjBindings; also when `rest` does not
  /// have nq entries or lies outside the limits). Allocates everything `map()` needs.
  GaLvvjMapper(const RobotModel<Scalar>& model, GaLvvjMap map, GaLvvjOptions options = {})
      : model_(&model), options_(std::move(options)), bindings_(resolveGaLvvjBindings(map, model)) {
    options_.validate();
    for (const Eigen::Matrix3d* R : {&map.R_UE_left, &map.R_UE_right}) {
      RETARGET_THROW_UNLESS(R->allFinite() && (R->transpose() * *R - Eigen::Matrix3d::Identity()).norm() < 1e-6 &&
                                R->determinant() > 0,
                            InvalidArgument, "GaLvvjMap '", map.robot,
                            "' R_UE_left / R_UE_right (got a matrix that is not a rotation, expected one)");
    }
    R_UE_[0] = map.R_UE_left.cast<Scalar>();
    R_UE_[1] = map.R_UE_right.cast<Scalar>();
    if (options_.rest.empty()) {
      rest_ = model.neutralConfiguration();
    } else {
      RETARGET_THROW_UNLESS(static_cast<int>(options_.rest.size()) == model.nq(), InvalidArgument,
                            "GaLvvjOptions::rest (got ", options_.rest.size(), " values, expected nq = ", model.nq(),
                            " for robot '", model.name(), "')");
      rest_.resize(model.nq());
      for (int i = 0; i < model.nq(); ++i) rest_[i] = static_cast<Scalar>(options_.rest[static_cast<std::size_t>(i)]);
      RETARGET_THROW_UNLESS(withinLimits(model, rest_), InvalidArgument,
                            "GaLvvjOptions::rest (got a configuration outside the limits of robot '", model.name(),
                            "', expected values within them)");
    }
    for (int i = 0; i < kGaLvvjJointCount; ++i) {
      const auto& b = bindings_[static_cast<std::size_t>(i)];
      Scalar lo = -std::numeric_limits<Scalar>::infinity(), hi = std::numeric_limits<Scalar>::infinity();
      if (b.q >= 0) {
        const Scalar a = (model.lowerLimits()[b.q] - static_cast<Scalar>(b.offset)) / static_cast<Scalar>(b.sign);
        const Scalar c = (model.upperLimits()[b.q] - static_cast<Scalar>(b.offset)) / static_cast<Scalar>(b.sign);
        lo = std::min(a, c);
        hi = std::max(a, c);
      }
      canonical_lower_[static_cast<std::size_t>(i)] = lo;
      canonical_upper_[static_cast<std::size_t>(i)] = hi;
    }
    clamped_ = JointFlags::Constant(model.nq(), false);
    held_ = JointFlags::Constant(model.nq(), false);
    reset();
  }

  /// Maps one skeleton frame (canonical frame, m) to robot joint angles `q_out` (size nq, rad,
  /// robot q order). See the class doc for the contract.
  [[nodiscard]] Status map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  GaLvvjMapper(const RobotModel<Scalar>&&, GaLvvjMap, GaLvvjOptions = {}) = delete;

  /// Forgets the temporal state: held values go back to `rest`, hands to their rest value.
  void reset() noexcept {
    for (int i = 0; i < kGaLvvjJointCount; ++i) {
      const auto& b = bindings_[static_cast<std::size_t>(i)];
      angle_[static_cast<std::size_t>(i)] =
          b.q >= 0 ? (rest_[b.q] - static_cast<Scalar>(b.offset)) / static_cast<Scalar>(b.sign) : Scalar(0);
    }
    angle_[static_cast<std::size_t>(GaLvvjJoint::kLHipYawPitch)] = static_cast<Scalar>(options_.hip_yaw_pitch);
    clamped_.setConstant(false);
    held_.setConstant(false);
  }

  /// Per q coordinate: clamped to a limit in the last `map()` call.
  const JointFlags& clamped() const noexcept { return clamped_; }
  /// Per q coordinate: held its last good value in the last `map()` call.
  const JointFlags& held() const noexcept { return held_; }
  /// Canonical virtual-joint angles of the last call, before sign/offset and clamping (rad;
  /// hands 0..1), indexed by GaLvvjJoint.
  const std::array<Scalar, kGaLvvjJointCount>& virtualAngles() const noexcept { return angle_; }
  /// The options in use.
  const GaLvvjOptions& options() const noexcept { return options_; }
  /// The robot model.
  const RobotModel<Scalar>& model() const noexcept { return *model_; }

 private:
  using V3 = Vector3<Scalar>;
  using M3 = Matrix3<Scalar>;

  static M3 rotation(Scalar angle, const V3& axis) { return Eigen::AngleAxis<Scalar>(angle, axis).toRotationMatrix(); }
  bool bound(GaLvvjJoint j) const { return bindings_[static_cast<std::size_t>(j)].q >= 0; }
  Scalar& angle(GaLvvjJoint j) { return angle_[static_cast<std::size_t>(j)]; }
  void hold(GaLvvjJoint j) { held_virtual_[static_cast<std::size_t>(j)] = true; }

  // Unit link vector from joint a to joint b expressed in frame F (R_WF), or nullopt.
  static std::optional<V3> unitIn(const SkeletonFrame<Scalar>& frame, const M3& R_WF, HumanJoint a, HumanJoint b) {
    if (!frame.usable(a) || !frame.usable(b)) return std::nullopt;
    return unitVector<Scalar>(R_WF.transpose() * (frame.position(b) - frame.position(a)));
  }
  void mapArm(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WT, bool left);
  void mapLeg(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WL, bool left);
  void limitAwareShoulder(const V3& u_T, const V3& l_T, GaLvvjJoint sp, GaLvvjJoint sr, GaLvvjJoint ey,
                          GaLvvjJoint er);
  // A canonical angle clamped to the (canonical) limits of its robot joint.
  Scalar clampCanonical(GaLvvjJoint j, Scalar value) const {
    const auto i = static_cast<std::size_t>(j);
    return std::min(std::max(value, canonical_lower_[i]), canonical_upper_[i]);
  }
  void mapHipYawPitch(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WL_left,
                      const std::optional<M3>& R_WL_right);
  // Axis of the hip yaw-pitch joint in the lower torso frame of a side.
  static V3 hipYawPitchAxis(bool left) {
    const Scalar h = Scalar(0.70710678118654752);
    return V3(Scalar(0), h, left ? -h : h);
  }
  void mapHead(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WT);
  void mapHand(HandState state, GaLvvjJoint j) {
    if (state == HandState::kOpen) angle(j) = Scalar(1);
    if (state == HandState::kClosed) angle(j) = Scalar(0);
  }

  const RobotModel<Scalar>* model_;
  GaLvvjOptions options_;
  std::array<internal::ResolvedBinding, kGaLvvjJointCount> bindings_;
  VectorX<Scalar> rest_;
  std::array<Scalar, kGaLvvjJointCount> angle_{};
  std::array<bool, kGaLvvjJointCount> held_virtual_{};
  std::array<M3, 2> R_UE_{};  // elbow frame in the upper-arm frame: left, right
  std::array<Scalar, kGaLvvjJointCount> canonical_lower_{};
  std::array<Scalar, kGaLvvjJointCount> canonical_upper_{};
  JointFlags clamped_;
  JointFlags held_;
};

template <typename Scalar>
void GaLvvjMapper<Scalar>::mapArm(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WT, bool left) {
  using J = GaLvvjJoint;
  using H = HumanJoint;
  const J sp = left ? J::kLShoulderPitch : J::kRShoulderPitch;
  const J sr = left ? J::kLShoulderRoll : J::kRShoulderRoll;
  const J ey = left ? J::kLElbowYaw : J::kRElbowYaw;
  const J er = left ? J::kLElbowRoll : J::kRElbowRoll;
  if (!bound(sp) && !bound(sr) && !bound(ey) && !bound(er)) return;
  const H shoulder = left ? H::kShoulderLeft : H::kShoulderRight;
  const H elbow = left ? H::kElbowLeft : H::kElbowRight;
  const H wrist = left ? H::kWristLeft : H::kWristRight;
  const Scalar tol = static_cast<Scalar>(options_.singular_tolerance);
  using std::atan2;
  using std::hypot;

  // Shoulder (Eqs. 1-7): u in the upper torso frame T.
  const std::optional<V3> u = R_WT ? unitIn(frame, *R_WT, shoulder, elbow) : std::nullopt;
  if (!u) {
    for (J j : {sp, sr, ey, er}) hold(j);
    return;
  }
  const Scalar cos_roll = hypot((*u)[0], (*u)[2]);
  angle(sr) = atan2((*u)[1], cos_roll);
  if (cos_roll > tol) {
    angle(sp) = atan2(-(*u)[2], (*u)[0]);
  } else {
    hold(sp);
  }

  // Elbow (Eqs. 8-12): l in the elbow frame E = T R_y(SP) R_z(SR) R_UE.
  const M3 R_WE = *R_WT * rotation(angle(sp), V3::UnitY()) * rotation(angle(sr), V3::UnitZ()) * R_UE_[left ? 0 : 1];
  const std::optional<V3> l = unitIn(frame, R_WE, elbow, wrist);
  if (!l) {
    hold(ey);
    hold(er);
    return;
  }
  const Scalar sin_roll = hypot((*l)[1], (*l)[2]);
  const Scalar bend = atan2(sin_roll, (*l)[0]);  // in [0, pi]
  angle(er) = left ? -bend : bend;
  if (sin_roll > tol) {
    angle(ey) = left ? atan2(-(*l)[2], -(*l)[1]) : atan2((*l)[2], (*l)[1]);
  } else {
    hold(ey);
    return;
  }
  if (options_.limit_aware_shoulder && !held_virtual_[static_cast<std::size_t>(sp)]) {
    limitAwareShoulder(R_WT->transpose() * (frame.position(elbow) - frame.position(shoulder)).normalized(),
                       R_WT->transpose() * (frame.position(wrist) - frame.position(elbow)).normalized(), sp, sr, ey, er);
  }
}

template <typename Scalar>
void GaLvvjMapper<Scalar>::limitAwareShoulder(const V3& u_T, const V3& l_T, GaLvvjJoint sp, GaLvvjJoint sr,
                                              GaLvvjJoint ey, GaLvvjJoint er) {
  const Scalar yaw = angle(ey);
  const Scalar yaw_clamped = clampCanonical(ey, yaw);
  if (yaw == yaw_clamped) return;  // feasible: the exact solution stands (round trips unchanged)
  // Arm directions (torso frame) reached by a candidate after clamping, and their score.
  auto score = [&](Scalar pitch, Scalar yaw_value) {
    const M3 R_TU = rotation(clampCanonical(sp, pitch), V3::UnitY()) *
                    rotation(clampCanonical(sr, angle(sr)), V3::UnitZ());
    const V3 u = R_TU.col(0);
    const V3 l = R_TU * R_UE_[sp == GaLvvjJoint::kLShoulderPitch ? 0 : 1] * rotation(clampCanonical(ey, yaw_value), V3::UnitX()) *
                 rotation(clampCanonical(er, angle(er)), V3::UnitZ()) * V3::UnitX();
    return u.dot(u_T) + l.dot(l_T);
  };
  Scalar best_pitch = angle(sp), best_yaw = yaw;
  Scalar best = score(best_pitch, best_yaw);
  const Scalar excess = yaw - yaw_clamped;
  for (const Scalar shift : {excess, -excess}) {
    const Scalar candidate = score(angle(sp) + shift, yaw_clamped);
    if (candidate > best) {
      best = candidate;
      best_pitch = angle(sp) + shift;
      best_yaw = yaw_clamped;
    }
  }
  angle(sp) = best_pitch;
  angle(ey) = best_yaw;
}

/// Sine of the knee bend above which the knee plane helps define HipRoll (0.1: about 5.7 deg,
/// beyond NAO's 5.3 deg knee hyperextension, so a robot skeleton always round-trips exactly).
inline constexpr double kGaLvvjKneeAxisThreshold = 0.1;

template <typename Scalar>
void GaLvvjMapper<Scalar>::mapLeg(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WL, bool left) {
  using J = GaLvvjJoint;
  using H = HumanJoint;
  const J hr = left ? J::kLHipRoll : J::kRHipRoll;
  const J hp = left ? J::kLHipPitch : J::kRHipPitch;
  const J kp = left ? J::kLKneePitch : J::kRKneePitch;
  if (!bound(hr) && !bound(hp) && !bound(kp)) return;
  const H hip = left ? H::kHipLeft : H::kHipRight;
  const H knee = left ? H::kKneeLeft : H::kKneeRight;
  const H ankle = left ? H::kAnkleLeft : H::kAnkleRight;
  const Scalar tol = static_cast<Scalar>(options_.singular_tolerance);
  using std::atan2;
  using std::hypot;

  // Hip (Eqs. 13-19): t in the lower torso frame L; HipRoll is the mother joint (axis x).
  const std::optional<V3> t = R_WL ? unitIn(frame, *R_WL, hip, knee) : std::nullopt;
  if (!t) {
    for (J j : {hr, hp, kp}) hold(j);
    return;
  }
  // HipRoll turns the hip-pitch (= knee) axis (0, cos HR, sin HR) of L. The thigh gives it as
  // x_L x t = (0, -t_z, t_y), of length cos HipPitch (ill-conditioned for a horizontal thigh,
  // e.g. when seated); a bent knee gives it as t x b (length sin KneePitch). Their weighted sum
  // keeps the round trip exact and the roll well defined when either is well conditioned; the
  // knee term counts only beyond sin KneePitch = kGaLvvjKneeAxisThreshold, above NAO's hyperextension.
  Scalar axis_y = -(*t)[2];
  Scalar axis_z = (*t)[1];
  if (frame.usable(ankle)) {
    if (const auto b_L = unitIn(frame, *R_WL, knee, ankle)) {
      const V3 n = t->cross(*b_L);
      const Scalar n_norm = n.norm();
      const Scalar weight = n_norm > Scalar(kGaLvvjKneeAxisThreshold) ? (n_norm - Scalar(kGaLvvjKneeAxisThreshold)) / n_norm : Scalar(0);
      axis_y += weight * n[1];
      axis_z += weight * n[2];
    }
  }
  if (hypot(axis_y, axis_z) > tol) {
    angle(hr) = atan2(axis_z, axis_y);
  } else {
    hold(hr);
  }
  // HipPitch: the thigh projected on the plane normal to the (rolled) pitch axis.
  const V3 t_R = rotation(angle(hr), V3::UnitX()).transpose() * *t;
  angle(hp) = atan2(-t_R[0], -t_R[2]);

  // Knee (Eqs. 20-23): b in the thigh frame Th = L R_x(HR) R_y(HP), projected on its x-z plane.
  const M3 R_WTh = *R_WL * rotation(angle(hr), V3::UnitX()) * rotation(angle(hp), V3::UnitY());
  const std::optional<V3> b = unitIn(frame, R_WTh, knee, ankle);
  if (!b || hypot((*b)[0], (*b)[2]) <= tol) {
    hold(kp);
    return;
  }
  angle(kp) = atan2(-(*b)[0], -(*b)[2]);
}

template <typename Scalar>
void GaLvvjMapper<Scalar>::mapHipYawPitch(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WL_left,
                                          const std::optional<M3>& R_WL_right) {
  using H = HumanJoint;
  using std::atan2;
  Scalar weighted = Scalar(0), weights = Scalar(0);
  for (const bool left : {true, false}) {
    const auto& R_WL = left ? R_WL_left : R_WL_right;
    if (!R_WL) continue;
    const auto t = unitIn(frame, *R_WL, left ? H::kHipLeft : H::kHipRight, left ? H::kKneeLeft : H::kKneeRight);
    const auto b = unitIn(frame, *R_WL, left ? H::kKneeLeft : H::kKneeRight, left ? H::kAnkleLeft : H::kAnkleRight);
    if (!t || !b) continue;
    const V3 n = t->cross(*b);
    const Scalar n_norm = n.norm();
    if (!(n_norm > Scalar(kGaLvvjKneeAxisThreshold))) continue;
    Scalar a = atan2(n[0], hipYawPitchAxis(left).cross(n)[0]);
    if (a > kPi<Scalar> / 2) a -= kPi<Scalar>;
    if (a <= -kPi<Scalar> / 2) a += kPi<Scalar>;
    const Scalar w = n_norm - Scalar(kGaLvvjKneeAxisThreshold);
    weighted += w * a;
    weights += w;
  }
  // Straight knees are normal (standing): the previous value is kept without reporting.
  if (weights > Scalar(0)) angle(GaLvvjJoint::kLHipYawPitch) = weighted / weights;
}

template <typename Scalar>
void GaLvvjMapper<Scalar>::mapHead(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WT) {
  using J = GaLvvjJoint;
  if (!bound(J::kHeadYaw) && !bound(J::kHeadPitch)) return;
  using std::isfinite;
  if (frame.head && isfinite(frame.head->yaw) && isfinite(frame.head->pitch)) {
    angle(J::kHeadYaw) = frame.head->yaw;
    angle(J::kHeadPitch) = frame.head->pitch;
    return;
  }
  const std::optional<V3> h = R_WT ? unitIn(frame, *R_WT, HumanJoint::kNeck, HumanJoint::kHead) : std::nullopt;
  using std::hypot;
  if (!h || hypot((*h)[0], (*h)[2]) <= static_cast<Scalar>(options_.singular_tolerance)) {
    hold(J::kHeadPitch);
    return;
  }
  using std::atan2;
  angle(J::kHeadPitch) = atan2((*h)[0], (*h)[2]);
}

template <typename Scalar>
Status GaLvvjMapper<Scalar>::map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  if (q_out.size() != model_->nq()) return StatusCode::kInvalidInput;
  using J = GaLvvjJoint;
  held_virtual_.fill(false);

  // The four torso parts (Section 3.2) and the central upper torso frame for the head.
  const TorsoFrames<Scalar> torso = torsoFrames(frame);
  const auto& R_W_upper_left = torso.upper_left;
  const auto& R_W_upper_right = torso.upper_right;
  const auto& R_W_lower_left = torso.lower_left;
  const auto& R_W_lower_right = torso.lower_right;
  const auto& R_W_upper = torso.upper;

  mapArm(frame, R_W_upper_left, true);
  mapArm(frame, R_W_upper_right, false);
  std::optional<M3> R_W_hip_left = R_W_lower_left, R_W_hip_right = R_W_lower_right;
  if (options_.hip_yaw_pitch_mode == GaLvvjOptions::HipYawPitchMode::kFromKnees) {
    mapHipYawPitch(frame, R_W_lower_left, R_W_lower_right);
  } else {
    angle(J::kLHipYawPitch) = static_cast<Scalar>(options_.hip_yaw_pitch);
  }
  if (angle(J::kLHipYawPitch) != Scalar(0)) {
    if (R_W_hip_left) *R_W_hip_left = *R_W_hip_left * rotation(angle(J::kLHipYawPitch), hipYawPitchAxis(true));
    if (R_W_hip_right) *R_W_hip_right = *R_W_hip_right * rotation(angle(J::kLHipYawPitch), hipYawPitchAxis(false));
  }
  mapLeg(frame, R_W_hip_left, true);
  mapLeg(frame, R_W_hip_right, false);
  mapHead(frame, R_W_upper);
  mapHand(frame.left_hand, J::kLHand);
  mapHand(frame.right_hand, J::kRHand);

  // Robot values: rest, then every bound virtual joint, clamping.
  q_out = rest_;
  held_.setConstant(false);
  Status status;
  for (int i = 0; i < kGaLvvjJointCount; ++i) {
    const auto& b = bindings_[static_cast<std::size_t>(i)];
    if (b.q < 0) continue;
    q_out[b.q] = static_cast<Scalar>(b.sign) * angle_[static_cast<std::size_t>(i)] + static_cast<Scalar>(b.offset);
    if (held_virtual_[static_cast<std::size_t>(i)]) {
      held_[b.q] = true;
      status |= StatusCode::kDegenerateInput;
    }
  }
  if (clampToLimits(*model_, q_out, &clamped_) > 0) status |= StatusCode::kClamped;
  return status;
}

}  // namespace retarget
