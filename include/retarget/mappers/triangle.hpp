#pragma once

/// @file
/// Triangle arm mapping (seed 001, Section 2.1, Eqs. 1-7): shoulder roll, pitch and yaw and the
/// elbow angle of both arms from the shoulder, elbow and wrist positions, in the torso frame,
/// onto any robot arm described by a `TriangleMap` (Tangy, NAO, Pepper built in).
///
/// Method (our reading of the paper; the extracted text lost signs, subscripts and the
/// branch of each arcsine, reconstructed here and settled by the round trip in tests/triangle):
///  - Torso frame T from the skeleton: z along SpineMid -> SpineShoulder, y along
///    ShoulderRight -> ShoulderLeft (orthogonalised), x = y x z forward (the `upper` frame of
///    human/torso_frames.hpp). l_1 = P_e - P_s (upper arm, Eq. 4), l_2 = P_w - P_e (forearm,
///    Eq. 5), l_3 = P_w - P_s (shoulder to wrist; Eq. 6 prints "P_w - P_e", a lost subscript:
///    with l_2 it would make the triangle degenerate), all expressed in T and normalised.
///  - Elbow (Eq. 7, the triangle): the bend beta between l_1 and l_2 follows from the law of
///    cosines, cos beta = (|l_3|^2 - |l_1|^2 - |l_2|^2) / (2 |l_1| |l_2|) (the printed numerator
///    lost its minus signs; this is the form that gives 0 for a straight arm). It is evaluated
///    in the equivalent, well-conditioned form beta = atan2(|l_1 x l_2|, l_1 . l_2).
///  - Shoulder roll and pitch (Eqs. 1-2): the two rotations that turn u_0 into the upper arm,
///    R_1(theta_1) R_2(theta_2) u_0 = l_1 / |l_1|: Paden-Kahan subproblem 2. On Tangy (roll
///    axis x, pitch axis z, u_0 = x) this is cos theta_2 = l_1x / |l_1| and
///    (sin theta_2 cos theta_1, sin theta_2 sin theta_1) = (l_1y, l_1z) / |l_1|: the printed
///    arcsines of projections of l_1 with their quadrant restored by atan2.
///  - Shoulder yaw and elbow (Eqs. 3 and 7): the two rotations that turn l_0 into the forearm
///    seen from the upper arm, R_3(theta_3) R_4(theta_4) l_0 = (R_1 R_2)^T l_2 / |l_2|; with the
///    yaw axis along the upper arm, the first condition of this subproblem,
///    a_3 . R_4(theta_4) l_0 = cos beta, is exactly the triangle of Eq. 7, and theta_3 is the
///    angle of the forearm plane about the upper arm (the printed Eq. 3, asin of a projection of
///    l_2, with its quadrant restored).
///  - Branches and continuity (docs/methods/triangle.md, "Branches and continuity"): each
///    subproblem has two solutions, so an arm has four, each joint on any turn (+ 2 pi m). The
///    first frame after construction or reset() takes the map's `shoulder_branch` /
///    `elbow_branch` (the solution whose second angle is nearest, see triangle_map.hpp), each
///    joint wrapped into its limits. Later frames take the solution, on the turns within the
///    limits, nearest the previous frame (largest joint step); one that leaves a limit by at
///    most `TriangleOptions::jump_margin` is clamped there rather than left for a far one; a
///    jump the limits force is reported as kDiscontinuity (`discontinuity_step`). Near the
///    singular cases below, the roll and yaw are rate-limited within a pose error
///    (`continuity_gain`, `catch_up_step`, `lag_error`).
///  - Right arm: the same equations with the right arm's map. With mirrored data (Tangy,
///    NAO, Pepper), a mirrored skeleton gives the mirrored robot arm: proven by the mirror test.
///  - Joint values are offset + theta on the turn chosen above, then clamped (kClamped).
///
/// Singular cases (documented; output finite, the joint holds its last good value, `held()`
/// and kDegenerateInput report it):
///  - a needed joint (SpineMid, SpineShoulder, both shoulders, the arm's elbow and wrist) not
///    usable, a zero-length link, a degenerate torso frame: the whole arm is held;
///  - shoulder: the upper arm along the roll axis a_1 (sin of the angle < singular_tolerance;
///    Tangy: arm straight forward or back; NAO/Pepper: arm straight out sideways): theta_1 is
///    undefined and held;
///  - elbow: the forearm along the yaw axis (a straight arm): theta_3 is undefined and held.
/// Near these configurations the exact angles are continuous but ill-conditioned (they turn by
/// the input's turn / sine); the mapper rate-limits them (see TriangleOptions::continuity_gain).
///
/// Joints outside the two arms take `TriangleOptions::rest` (default: neutral configuration).

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/geometry/rigid_inverse.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/torso_frames.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/internal/branch_choice.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/mappers/triangle_map.hpp>

namespace retarget {

/// Options of `TriangleMapper` (a validated aggregate; `validate()` runs in the constructor).
struct TriangleOptions {
  /// Below this sine (of the angle between the upper arm and the roll axis, or between the
  /// forearm and the yaw axis) a joint is singular and held. Unitless, in (0, 0.5].
  double singular_tolerance = 1e-3;
  /// Values (rad, robot q order, size nq) of the joints outside the arms, and the initial held
  /// values of the arm joints. Empty (default): the model's neutral configuration.
  std::vector<double> rest{};
  /// Continuity near the singular cases. The roll (resp. shoulder yaw) turns by the input's
  /// turn / s, s the sine of the angle between the upper arm and the roll axis (resp. the
  /// forearm and the yaw axis), without bound near a straight arm or an arm along the roll
  /// axis, where it hardly moves the arm. So from frame to frame it steps by at most
  /// `continuity_gain` times the angle (rad) the human's upper arm or forearm turned, plus
  /// `catch_up_step` (rad), and by more only as far as needed to keep the arm direction it
  /// moves (s times its distance to the exact angle) within `lag_error` (rad). Where s is above
  /// about 1 / continuity_gain a small step of the exact angle is within this bound, so
  /// ordinary motion is mapped exactly; not applied to the first frame after construction or
  /// reset() nor across a reported discontinuity. Unitless, >= 0 (0: hold while the pose error
  /// allows).
  double continuity_gain = 3.0;
  /// The step (rad per frame, >= 0) such an angle may always take towards its exact value.
  double catch_up_step = 0.05;
  /// The arm-direction error (rad, >= 0) the rate limit may leave; 0: off, exact angles.
  double lag_error = 0.05;
  /// Continuity: a solution that leaves a joint's limits by at most this (rad, >= 0) is
  /// clamped to the limit rather than left for an equivalent solution far from the previous
  /// frame (a joint pushed just past its +-pi wrap stays on the limit instead of swinging round
  /// by 2 pi). Beyond it the mapper jumps to the nearest solution within the limits and reports
  /// kDiscontinuity. 0: never clamp while an equivalent solution within the limits exists.
  double jump_margin = 0.25;
  /// A frame whose largest joint step exceeds the step the input asked for (the nearest
  /// solution, angles taken modulo 2 pi and limits ignored) by more than this (rad, > 0) is
  /// reported as kDiscontinuity: the robot's limits forced the jump.
  double discontinuity_step = 0.35;

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

namespace internal {

/// Angle about unit axis `a` that turns `p` into `q` (Paden-Kahan subproblem 1), or nullopt when
/// either vector lies along the axis (sine below `tol`). Directions, any length.
template <typename Scalar>
std::optional<Scalar> rotationAbout(const Vector3<Scalar>& a, const Vector3<Scalar>& p, const Vector3<Scalar>& q,
                                    Scalar tol) {
  const Vector3<Scalar> pp = p - a * a.dot(p);
  const Vector3<Scalar> qq = q - a * a.dot(q);
  const Scalar np = pp.norm(), nq = qq.norm();
  if (!(np > tol * p.norm()) || !(nq > tol * q.norm())) return std::nullopt;
  return std::atan2(a.dot(pp.cross(qq)), pp.dot(qq));
}

/// Result of the two-rotation subproblem R_a(theta_a) R_b(theta_b) p = q.
template <typename Scalar>
struct TwoAngles {
  Scalar theta_a = Scalar(0);
  Scalar theta_b = Scalar(0);
  bool a_defined = true;  ///< false: q along a, theta_a arbitrary (not written)
  bool ok = false;        ///< false: theta_b could not be found either
};

/// Both solutions of Paden-Kahan subproblem 2 for unit directions p, q and unit axes a, b through
/// one point, written to `out`, the one whose theta_b is nearest `branch` (mod 2 pi) first.
/// Returns how many were found: 2, 1 (parallel axes: one rotation in effect) or 0 (not finite).
/// theta_a is left undefined (a_defined false) when q lies along a within `tol`. Never
/// allocates or throws.
template <typename Scalar>
int twoRotationSolutions(const Vector3<Scalar>& a, const Vector3<Scalar>& b, const Vector3<Scalar>& p,
                         const Vector3<Scalar>& q, Scalar branch, Scalar tol, std::array<TwoAngles<Scalar>, 2>& out) {
  // c = R_b(theta_b) p = R_a(-theta_a) q satisfies a.c = a.q, b.c = b.p, |c| = 1.
  const Scalar w = a.dot(b);
  const Vector3<Scalar> n = a.cross(b);
  const Scalar nn = n.squaredNorm();
  const Scalar aq = a.dot(q), bp = b.dot(p);
  std::array<Vector3<Scalar>, 2> candidates;
  int count = 0;
  if (nn > Scalar(1e-12)) {
    const Scalar alpha = (w * bp - aq) / (w * w - 1);
    const Scalar beta = (w * aq - bp) / (w * w - 1);
    const Scalar g2 = (Scalar(1) - alpha * alpha - beta * beta - 2 * alpha * beta * w) / nn;
    const Scalar g = std::sqrt(std::max(g2, Scalar(0)));
    candidates[0] = alpha * a + beta * b + g * n;
    candidates[1] = alpha * a + beta * b - g * n;
    count = 2;
  } else {  // parallel axes: one rotation in effect
    candidates[0] = q;
    count = 1;
  }
  int found = 0;
  for (int i = 0; i < count; ++i) {
    const Vector3<Scalar>& c = candidates[static_cast<std::size_t>(i)];
    const std::optional<Scalar> tb = rotationAbout(b, p, c, tol);
    TwoAngles<Scalar> solution;
    solution.theta_b = tb ? *tb : Scalar(0);
    if (!std::isfinite(solution.theta_b)) continue;
    solution.ok = true;
    const std::optional<Scalar> ta = rotationAbout(a, c, q, tol);
    solution.a_defined = ta.has_value();
    solution.theta_a = ta ? *ta : Scalar(0);
    out[static_cast<std::size_t>(found++)] = solution;
  }
  if (found == 2 && std::abs(wrapAngle(out[1].theta_b - branch)) < std::abs(wrapAngle(out[0].theta_b - branch))) {
    std::swap(out[0], out[1]);
  }
  return found;
}

}  // namespace internal

/// Triangle arm mapper (see the file doc for the method, branches and singular cases).
///
/// A mapper of the shape of mappers/mapper.hpp (Input: a canonical `SkeletonFrame`, metres):
/// `map()` never allocates, never throws, always writes a finite q within the robot's limits
/// and returns kClamped / kDegenerateInput / kInvalidInput / kDiscontinuity as documented
/// there. Temporal state: the previous frame's arms (continuity), forgotten by reset(). Keeps a
/// reference to the model (a temporary model does not compile). No post-processing: compose
/// filters/ and safety/ stages after it.
template <typename ScalarType = double>
class TriangleMapper {
 public:
  using Scalar = ScalarType;
  using Input = SkeletonFrame<Scalar>;
  using Map = TriangleMap;
  using Options = TriangleOptions;

  /// Validates `options` and resolves `map` against `model` (throws InvalidArgument naming the
  /// field: see resolveTriangleArm, TriangleOptions::validate; also when `rest` does not have
  /// nq entries or lies outside the limits, or the two arms share a joint).
  TriangleMapper(const RobotModel<Scalar>& model, TriangleMap map, TriangleOptions options = {});

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  TriangleMapper(const RobotModel<Scalar>&&, TriangleMap, TriangleOptions = {}) = delete;

  /// Maps one skeleton frame (canonical frame, m) to joint angles `q_out` (size nq, rad, robot
  /// q order). See the class doc for the contract.
  [[nodiscard]] Status map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  /// Forgets the temporal state: held values go back to `rest`, and the next frame is a first
  /// frame (the map's branches, no continuity with what came before).
  void reset() noexcept;

  /// Per q coordinate: clamped to a limit in the last `map()` call.
  const JointFlags& clamped() const noexcept { return clamped_; }
  /// Per q coordinate: held its last good value in the last `map()` call.
  const JointFlags& held() const noexcept { return held_; }
  /// The options in use.
  const TriangleOptions& options() const noexcept { return options_; }
  /// The map in use.
  const TriangleMap& triangleMap() const noexcept { return map_; }
  /// The robot model.
  const RobotModel<Scalar>& model() const noexcept { return *model_; }

 private:
  using V3 = Vector3<Scalar>;

  // One solution of an arm: joint values (rad, robot q), whether each angle was defined (else
  // it keeps its previous value), how far it leaves the limits and how far it steps (rad).
  struct ArmSolution {
    std::array<Scalar, 4> value{};
    std::array<Scalar, 4> theta{};  // theta_1..theta_4 (value - offset, any turn)
    std::array<bool, 4> defined{};
    bool clamp_turn = false;
    Scalar excess = 0;     // largest distance of a value outside its limits
    Scalar step = 0;       // largest step from the previous frame, as written
    Scalar free_step = 0;  // largest step from the previous frame, modulo 2 pi, limits ignored
  };

  void holdArm(int s);
  Scalar theta(int s, int k) const;
  static std::optional<V3> unit(const V3& v);
  // The solution (theta_1..theta_4, undefined angles held) with each joint value taken on the
  // turn (offset + theta + 2 pi m) within the limits nearest the previous frame's (nearest the
  // plain value after reset), or, `clamp_turn`, on the turn nearest the previous frame's
  // whatever the limits.
  ArmSolution solution(int s, const std::array<Scalar, 4>& thetas, const std::array<bool, 4>& defined,
                       bool clamp_turn) const;

  Status mapArm(const SkeletonFrame<Scalar>& frame, const std::optional<Matrix3<Scalar>>& R_WT, int s,
                HumanJoint shoulder, HumanJoint elbow, HumanJoint wrist);

  const RobotModel<Scalar>* model_;
  TriangleMap map_;
  TriangleOptions options_;
  std::array<internal::ResolvedTriangleArm, 2> arms_{};
  std::array<std::array<V3, 4>, 2> axes_{};
  std::array<V3, 2> u0_{}, l0_{};
  VectorX<Scalar> rest_;
  VectorX<Scalar> last_;
  std::array<bool, 2> has_previous_{};  // per arm: last_ holds a mapped frame (not rest)
  std::array<V3, 2> previous_u_{}, previous_l_{};  // per arm: the last mapped upper arm, forearm (unit, T)
  JointFlags clamped_;
  JointFlags held_;
};

/// The inverse view of the triangle mapping: robot configuration -> the robot's own skeleton
/// (SpineMid, SpineShoulder, shoulders, elbows, wrists; m, in the robot's root frame, which is
/// the canonical frame when the map's torso link is the root) by forward kinematics and the
/// map's virtual arm. Used for round trips, the mirror test and synthetic inputs. Not
/// thread-safe (one workspace).
template <typename Scalar = double>
class TriangleSkeleton {
 public:
  /// Resolves `map` against `model` (throws InvalidArgument as resolveTriangleArm does).
  TriangleSkeleton(const RobotModel<Scalar>& model, const TriangleMap& map);
  TriangleSkeleton(const RobotModel<Scalar>&&, const TriangleMap&) = delete;

  /// Fills the seven points of `out` (kTracked; other joints kNotTracked) for `q` (size nq,
  /// rad). Returns kInvalidInput (out unchanged) when q has the wrong size or is not finite.
  Status compute(const Eigen::Ref<const VectorX<Scalar>>& q, SkeletonFrame<Scalar>& out);

  /// The model.
  const RobotModel<Scalar>& model() const { return *model_; }

 private:
  using V3 = Vector3<Scalar>;
  const RobotModel<Scalar>* model_;
  TriangleMap map_;
  RobotData<Scalar> data_;
  int torso_;
  std::array<internal::ResolvedTriangleArm, 2> arms_{};
};

/// The elbows and wrists of `map` as points fixed on the robot's links (the elbow on the
/// upper-arm link, the wrist on the forearm link; m), e.g. the points of a
/// `CartesianSpeedLimiter` on the hands and elbows. Exact for arms whose virtual elbow / wrist
/// are rigidly attached to those links (Tangy; NAO and Pepper up to their small elbow offsets).
template <typename Scalar>
std::vector<LinkPoint> triangleArmPoints(const RobotModel<Scalar>& model, const TriangleMap& map) {
  TriangleSkeleton<Scalar> view(model, map);
  SkeletonFrame<Scalar> frame;
  const VectorX<Scalar> q = model.neutralConfiguration();
  (void)view.compute(q, frame);
  RobotData<Scalar> data(model);
  forwardKinematics(model, data, q);
  std::vector<LinkPoint> out;
  using H = HumanJoint;
  for (const auto& [arm, elbow, wrist] : {std::tuple{&map.left, H::kElbowLeft, H::kWristLeft},
                                          std::tuple{&map.right, H::kElbowRight, H::kWristRight}}) {
    const int upper = model.linkIndex(arm->upper_arm_link), fore = model.linkIndex(arm->forearm_link);
    out.push_back(LinkPoint{arm->upper_arm_link,
                            (rigidInverse(data.X_WL[static_cast<std::size_t>(upper)]) * frame.position(elbow)).template cast<double>()});
    out.push_back(LinkPoint{arm->forearm_link,
                            (rigidInverse(data.X_WL[static_cast<std::size_t>(fore)]) * frame.position(wrist)).template cast<double>()});
  }
  return out;
}

template <typename ScalarType>
TriangleMapper<ScalarType>::TriangleMapper(const RobotModel<Scalar>& model, TriangleMap map, TriangleOptions options)
    : model_(&model), map_(std::move(map)), options_(std::move(options)) {
  options_.validate();
  arms_[0] = resolveTriangleArm(map_, map_.left, "left", model);
  arms_[1] = resolveTriangleArm(map_, map_.right, "right", model);
  for (int i : arms_[0].q) {
    for (int j : arms_[1].q) {
      RETARGET_THROW_UNLESS(i != j, InvalidArgument, "TriangleMap '", map_.robot, "' (got joint '", model.qName(i),
                            "' in both arms, expected distinct joints)");
    }
  }
  for (int s = 0; s < 2; ++s) {
    const TriangleArmMap& arm = s == 0 ? map_.left : map_.right;
    for (std::size_t k = 0; k < 4; ++k) axes_[static_cast<std::size_t>(s)][k] = arm.axes[k].cast<Scalar>();
    u0_[static_cast<std::size_t>(s)] = arm.upper_arm.cast<Scalar>();
    l0_[static_cast<std::size_t>(s)] = arm.forearm.cast<Scalar>();
  }
  if (options_.rest.empty()) {
    rest_ = model.neutralConfiguration();
  } else {
    RETARGET_THROW_UNLESS(static_cast<int>(options_.rest.size()) == model.nq(), InvalidArgument,
                          "TriangleOptions::rest (got ", options_.rest.size(), " values, expected nq = ", model.nq(),
                          " for robot '", model.name(), "')");
    rest_.resize(model.nq());
    for (int i = 0; i < model.nq(); ++i) rest_[i] = static_cast<Scalar>(options_.rest[static_cast<std::size_t>(i)]);
    RETARGET_THROW_UNLESS(withinLimits(model, rest_), InvalidArgument,
                          "TriangleOptions::rest (got a configuration outside the limits of robot '", model.name(),
                          "', expected values within them)");
  }
  last_ = rest_;
  clamped_ = JointFlags::Constant(model.nq(), false);
  held_ = JointFlags::Constant(model.nq(), false);
  reset();
}

template <typename ScalarType>
Status TriangleMapper<ScalarType>::map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  if (q_out.size() != model_->nq()) return StatusCode::kInvalidInput;
  clamped_.setConstant(false);
  held_.setConstant(false);
  Status status;
  using H = HumanJoint;
  const std::optional<Matrix3<Scalar>> R_WT =
      torsoFrame(frame, H::kSpineMid, H::kSpineShoulder, H::kShoulderRight, H::kShoulderLeft);
  for (int s = 0; s < 2; ++s) {
    const bool left = s == 0;
    status |= mapArm(frame, R_WT, s, left ? H::kShoulderLeft : H::kShoulderRight,
                     left ? H::kElbowLeft : H::kElbowRight, left ? H::kWristLeft : H::kWristRight);
  }
  if (held_.any()) status |= StatusCode::kDegenerateInput;
  if (clampToLimits(*model_, last_, &clamped_) > 0) status |= StatusCode::kClamped;
  q_out = last_;
  return status;
}

template <typename ScalarType>
void TriangleMapper<ScalarType>::reset() noexcept {
  last_ = rest_;
  has_previous_ = {false, false};
  clamped_.setConstant(false);
  held_.setConstant(false);
}

template <typename ScalarType>
void TriangleMapper<ScalarType>::holdArm(int s) {
  for (int q : arms_[static_cast<std::size_t>(s)].q) held_[q] = true;
}

template <typename ScalarType>
auto TriangleMapper<ScalarType>::theta(int s, int k) const -> Scalar {
  const TriangleArmMap& arm = s == 0 ? map_.left : map_.right;
  return last_[arms_[static_cast<std::size_t>(s)].q[static_cast<std::size_t>(k)]] -
         static_cast<Scalar>(arm.offset[static_cast<std::size_t>(k)]);
}

template <typename ScalarType>
auto TriangleMapper<ScalarType>::unit(const V3& v) -> std::optional<V3> {
  if (!v.allFinite()) return std::nullopt;
  const Scalar scale = v.cwiseAbs().maxCoeff();
  if (!(scale > Scalar(0)) || !std::isfinite(scale)) return std::nullopt;
  const V3 w = v / scale;
  const Scalar n = w.norm();
  if (!(n > Scalar(0)) || !std::isfinite(n) || scale * n <= kDegenerateEpsilon<Scalar>) return std::nullopt;
  return V3(w / n);
}

template <typename ScalarType>
auto TriangleMapper<ScalarType>::solution(int s, const std::array<Scalar, 4>& thetas,
                                          const std::array<bool, 4>& defined, bool clamp_turn) const -> ArmSolution {
  const TriangleArmMap& arm = s == 0 ? map_.left : map_.right;
  const bool continuous = has_previous_[static_cast<std::size_t>(s)];
  const Scalar two_pi = 2 * kPi<Scalar>;
  ArmSolution out;
  out.theta = thetas;
  out.defined = defined;
  out.clamp_turn = clamp_turn;
  for (std::size_t k = 0; k < 4; ++k) {
    const int q = arms_[static_cast<std::size_t>(s)].q[k];
    const Scalar previous = last_[q];
    if (!defined[k]) {
      out.value[k] = previous;
      continue;
    }
    const Scalar value = static_cast<Scalar>(arm.offset[k]) + thetas[k];
    const Scalar lo = model_->lowerLimits()[q], hi = model_->upperLimits()[q];
    // The turn nearest the reference, within the limits when some turn is.
    const Scalar v = internal::nearestTurn(value, continuous ? previous : value, lo, hi, two_pi, !clamp_turn);
    out.value[k] = v;
    out.excess = std::max({out.excess, lo - v, v - hi});
    if (continuous) {
      out.step = std::max(out.step, std::abs(v - previous));
      out.free_step = std::max(out.free_step, std::abs(internal::wrapAngle(v - previous)));
    }
  }
  return out;
}

template <typename ScalarType>
Status TriangleMapper<ScalarType>::mapArm(const SkeletonFrame<Scalar>& frame,
                                          const std::optional<Matrix3<Scalar>>& R_WT, int s, HumanJoint shoulder,
                                          HumanJoint elbow, HumanJoint wrist) {
  if (!R_WT || !frame.usable(shoulder) || !frame.usable(elbow) || !frame.usable(wrist)) {
    holdArm(s);
    return {};
  }
  const std::optional<V3> u = unit(R_WT->transpose() * (frame.position(elbow) - frame.position(shoulder)));
  const std::optional<V3> l = unit(R_WT->transpose() * (frame.position(wrist) - frame.position(elbow)));
  if (!u || !l) {
    holdArm(s);
    return {};
  }
  const auto side = static_cast<std::size_t>(s);
  const auto& a = axes_[side];
  const TriangleArmMap& arm = s == 0 ? map_.left : map_.right;
  const Scalar tol = static_cast<Scalar>(options_.singular_tolerance);
  const int* q = arms_[side].q.data();
  const bool continuous = has_previous_[side];
  // Shoulder roll and pitch (Eqs. 1-2): both solutions, the map's branch first.
  std::array<internal::TwoAngles<Scalar>, 2> shoulder_angles, elbow_angles;
  // Both solutions of the shoulder yaw and elbow (Eqs. 3 and 7) in the upper-arm frame of
  // (theta_1, theta_2), into elbow_angles; returns how many; l_U: the forearm in that frame.
  V3 l_U;
  const auto solveElbow = [&](Scalar theta_1, Scalar theta_2) {
    const Matrix3<Scalar> R_12 = Eigen::AngleAxis<Scalar>(theta_1, a[0]).toRotationMatrix() *
                                 Eigen::AngleAxis<Scalar>(theta_2, a[1]).toRotationMatrix();
    l_U = R_12.transpose() * *l;
    return internal::twoRotationSolutions<Scalar>(a[2], a[3], l0_[side], l_U, static_cast<Scalar>(arm.elbow_branch),
                                                  tol, elbow_angles);
  };
  const int shoulder_count = internal::twoRotationSolutions<Scalar>(
      a[0], a[1], u0_[side], *u, static_cast<Scalar>(arm.shoulder_branch), tol, shoulder_angles);
  if (shoulder_count == 0) {
    holdArm(s);
    return {};
  }
  // Every solution of the arm: each shoulder solution with both shoulder yaw and elbow
  // solutions (Eqs. 3 and 7) in its upper-arm frame, each on the turns within the limits nearest
  // the previous frame and on the turns nearest it whatever the limits (to be clamped).
  std::array<ArmSolution, 8> candidates;
  int n = 0;
  for (int i = 0; i < shoulder_count; ++i) {
    const auto& sh = shoulder_angles[static_cast<std::size_t>(i)];
    std::array<Scalar, 4> thetas{sh.a_defined ? sh.theta_a : theta(s, 0), sh.theta_b, Scalar(0), Scalar(0)};
    const int elbow_count = solveElbow(thetas[0], thetas[1]);
    for (int j = 0; j < std::max(elbow_count, 1); ++j) {
      const auto& el = elbow_angles[static_cast<std::size_t>(j)];
      const bool elbow_ok = elbow_count > 0;
      thetas[2] = el.theta_a;
      thetas[3] = el.theta_b;
      const std::array<bool, 4> defined{sh.a_defined, true, elbow_ok && el.a_defined, elbow_ok};
      candidates[static_cast<std::size_t>(n++)] = solution(s, thetas, defined, false);
      if (continuous) candidates[static_cast<std::size_t>(n++)] = solution(s, thetas, defined, true);
    }
  }
  // Without a previous frame: the map's branches (the first candidate). Otherwise the nearest
  // candidate among those within `jump_margin` of the limits, or the least outside them.
  std::size_t best = 0;
  Scalar free_step = std::numeric_limits<Scalar>::infinity();
  if (continuous) {
    const Scalar margin = static_cast<Scalar>(options_.jump_margin);
    for (std::size_t c = 0; c < static_cast<std::size_t>(n); ++c) {
      free_step = std::min(free_step, candidates[c].free_step);
      if (internal::nearerBranch(candidates[c], candidates[best], margin)) best = c;
    }
  }
  ArmSolution chosen = candidates[best];
  const bool jumped = continuous && chosen.step > free_step + static_cast<Scalar>(options_.discontinuity_step);
  // Near a singular case the first angle of a subproblem (roll, yaw) turns by input / s: on the
  // branch kept, its step is limited as long as the arm direction it moves stays within
  // lag_error (see TriangleOptions::continuity_gain); the elbow subproblem is solved again in
  // the upper-arm frame so written. Not on a first frame nor across a jump.
  using std::acos;
  const auto turned = [](const V3& x, const V3& y) { return acos(std::min(Scalar(1), std::max(Scalar(-1), x.dot(y)))); };
  const Scalar lag_error = static_cast<Scalar>(options_.lag_error);
  if (continuous && !jumped && lag_error > Scalar(0)) {
    const Scalar free_turn =
        static_cast<Scalar>(options_.continuity_gain) *
            std::max(turned(*u, previous_u_[side]), turned(*l, previous_l_[side])) +
        static_cast<Scalar>(options_.catch_up_step);
    const auto damped = [&](int k, Scalar exact, const V3& axis, const V3& target) {
      const Scalar previous = theta(s, k);
      const Scalar delta = internal::wrapAngle(exact - previous);
      const Scalar slack = lag_error / axis.cross(target).norm();  // the sine is > tol: the angle is defined
      const Scalar step = std::min(std::max(delta, -free_turn), free_turn);
      return previous + std::min(std::max(step, delta - slack), delta + slack);
    };
    std::array<Scalar, 4> thetas = chosen.theta;
    if (chosen.defined[0]) thetas[0] = damped(0, thetas[0], a[0], *u);
    const int elbow_count = solveElbow(thetas[0], thetas[1]);
    std::array<bool, 4> defined = chosen.defined;
    if (elbow_count > 0) {
      // The elbow solution of the branch chosen: nearest its (theta_3, theta_4).
      const auto distance = [&](const internal::TwoAngles<Scalar>& e) {
        return std::abs(internal::wrapAngle(e.theta_b - chosen.theta[3])) +
               (e.a_defined && chosen.defined[2] ? std::abs(internal::wrapAngle(e.theta_a - chosen.theta[2])) : Scalar(0));
      };
      const auto& el = elbow_count > 1 && distance(elbow_angles[1]) < distance(elbow_angles[0]) ? elbow_angles[1]
                                                                                              : elbow_angles[0];
      defined[2] = el.a_defined;
      defined[3] = true;
      thetas[2] = el.a_defined ? damped(2, el.theta_a, a[2], l_U) : theta(s, 2);
      thetas[3] = el.theta_b;
    }
    chosen = solution(s, thetas, defined, chosen.clamp_turn);
  }
  previous_u_[side] = *u;
  previous_l_[side] = *l;
  for (std::size_t k = 0; k < 4; ++k) {
    if (chosen.defined[k] && std::isfinite(chosen.value[k])) {
      last_[q[k]] = chosen.value[k];
    } else {
      held_[q[k]] = true;
    }
  }
  has_previous_[side] = true;
  return jumped ? Status(StatusCode::kDiscontinuity) : Status();
}

template <typename Scalar>
TriangleSkeleton<Scalar>::TriangleSkeleton(const RobotModel<Scalar>& model, const TriangleMap& map)
    : model_(&model), map_(map), data_(model), torso_(model.linkIndex(map.torso_link)) {
  arms_[0] = resolveTriangleArm(map_, map_.left, "left", model);
  arms_[1] = resolveTriangleArm(map_, map_.right, "right", model);
}

template <typename Scalar>
Status TriangleSkeleton<Scalar>::compute(const Eigen::Ref<const VectorX<Scalar>>& q, SkeletonFrame<Scalar>& out) {
  if (q.size() != model_->nq() || !q.allFinite()) return StatusCode::kInvalidInput;
  forwardKinematics(*model_, data_, q);
  out.state.fill(TrackingState::kNotTracked);
  using H = HumanJoint;
  const auto set = [&](H joint, const V3& p) {
    out.position(joint) = p;
    out.trackingState(joint) = TrackingState::kTracked;
  };
  const auto& X_WT = data_.X_WL[static_cast<std::size_t>(torso_)];
  set(H::kSpineMid, X_WT * map_.p_spine_mid.cast<Scalar>());
  set(H::kSpineShoulder, X_WT * map_.p_spine_shoulder.cast<Scalar>());
  for (int s = 0; s < 2; ++s) {
    const TriangleArmMap& arm = s == 0 ? map_.left : map_.right;
    const auto& r = arms_[static_cast<std::size_t>(s)];
    const V3 p_s = data_.X_WL[static_cast<std::size_t>(r.shoulder_link)] * arm.p_shoulder.cast<Scalar>();
    const V3 p_e = p_s + data_.X_WL[static_cast<std::size_t>(r.upper_arm_link)].linear() * arm.v_upper_arm.cast<Scalar>();
    const V3 p_w = p_e + data_.X_WL[static_cast<std::size_t>(r.forearm_link)].linear() * arm.v_forearm.cast<Scalar>();
    set(s == 0 ? H::kShoulderLeft : H::kShoulderRight, p_s);
    set(s == 0 ? H::kElbowLeft : H::kElbowRight, p_e);
    set(s == 0 ? H::kWristLeft : H::kWristRight, p_w);
  }
  return Status{};
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL void TriangleOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(singular_tolerance) && singular_tolerance > 0.0 && singular_tolerance <= 0.5,
                        InvalidArgument, "TriangleOptions::singular_tolerance (got ", singular_tolerance,
                        ", expected a value in (0, 0.5])");
  for (const auto& [value, name] : {std::pair{continuity_gain, "continuity_gain"}, std::pair{catch_up_step, "catch_up_step"},
                                    std::pair{lag_error, "lag_error"}}) {
    RETARGET_THROW_UNLESS(std::isfinite(value) && value >= 0.0, InvalidArgument, "TriangleOptions::", name, " (got ",
                          value, ", expected a finite value >= 0)");
  }
  RETARGET_THROW_UNLESS(std::isfinite(jump_margin) && jump_margin >= 0.0, InvalidArgument,
                        "TriangleOptions::jump_margin (got ", jump_margin, ", expected a finite angle >= 0 in rad)");
  RETARGET_THROW_UNLESS(std::isfinite(discontinuity_step) && discontinuity_step > 0.0, InvalidArgument,
                        "TriangleOptions::discontinuity_step (got ", discontinuity_step,
                        ", expected a finite angle > 0 in rad)");
  for (std::size_t i = 0; i < rest.size(); ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(rest[i]), InvalidArgument, "TriangleOptions::rest[", i, "] (got ", rest[i],
                          ", expected a finite value)");
  }
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class TriangleMapper<double>;
RETARGET_TEMPLATE_MAPPERS class TriangleMapper<float>;
RETARGET_TEMPLATE_MAPPERS class TriangleSkeleton<double>;
RETARGET_TEMPLATE_MAPPERS class TriangleSkeleton<float>;
RETARGET_TEMPLATE_MAPPERS std::vector<LinkPoint> triangleArmPoints<double>(const RobotModel<double>& model,
                                                                           const TriangleMap& map);
RETARGET_TEMPLATE_MAPPERS std::vector<LinkPoint> triangleArmPoints<float>(const RobotModel<float>& model,
                                                                          const TriangleMap& map);
#endif

}  // namespace retarget
