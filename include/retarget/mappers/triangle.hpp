#pragma once

/// @file
/// Triangle arm mapping (seed 001, Section 2.1, Eqs. 1-6): shoulder roll, pitch and yaw and the
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
///  - Elbow (Eq. 6, the triangle): the bend beta between l_1 and l_2 follows from the law of
///    cosines, cos beta = (|l_3|^2 - |l_1|^2 - |l_2|^2) / (2 |l_1| |l_2|) (the printed numerator
///    lost its minus signs; this is the form that gives 0 for a straight arm). It is evaluated
///    in the equivalent, well-conditioned form beta = atan2(|l_1 x l_2|, l_1 . l_2).
///  - Shoulder roll and pitch (Eqs. 1-2): the two rotations that turn u_0 into the upper arm,
///    R_1(theta_1) R_2(theta_2) u_0 = l_1 / |l_1|: Paden-Kahan subproblem 2. On Tangy (roll
///    axis x, pitch axis z, u_0 = x) this is cos theta_2 = l_1x / |l_1| and
///    (sin theta_2 cos theta_1, sin theta_2 sin theta_1) = (l_1y, l_1z) / |l_1|: the printed
///    arcsines of projections of l_1 with their quadrant restored by atan2.
///  - Shoulder yaw and elbow (Eqs. 3 and 6): the two rotations that turn l_0 into the forearm
///    seen from the upper arm, R_3(theta_3) R_4(theta_4) l_0 = (R_1 R_2)^T l_2 / |l_2|; with the
///    yaw axis along the upper arm, the first condition of this subproblem,
///    a_3 . R_4(theta_4) l_0 = cos beta, is exactly the triangle of Eq. 6, and theta_3 is the
///    angle of the forearm plane about the upper arm (the printed Eq. 3, asin of a projection of
///    l_2, with its quadrant restored).
///  - Branches: each subproblem has two solutions; the map's `shoulder_branch` / `elbow_branch`
///    picks the one whose second angle is nearest (see triangle_map.hpp).
///  - Right arm: the same equations with the right arm's map. With mirrored data (Tangy,
///    NAO, Pepper), a mirrored skeleton gives the mirrored robot arm: proven by the mirror test.
///  - Joint values are offset + theta, wrapped into the limits for joints whose range spans
///    2 pi (Tangy's +-pi), then clamped (kClamped).
///
/// Singular cases (documented; output finite, the joint holds its last good value, `held()`
/// and kDegenerateInput report it):
///  - a needed joint (SpineMid, SpineShoulder, both shoulders, the arm's elbow and wrist) not
///    usable, a zero-length link, a degenerate torso frame: the whole arm is held;
///  - shoulder: the upper arm along the roll axis a_1 (sin of the angle < singular_tolerance;
///    Tangy: arm straight forward or back; NAO/Pepper: arm straight out sideways): theta_1 is
///    undefined and held;
///  - elbow: the forearm along the yaw axis (a straight arm): theta_3 is undefined and held.
/// Near these configurations the angles are continuous but ill-conditioned.
///
/// Joints outside the two arms take `TriangleOptions::rest` (default: neutral configuration).

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/torso_frames.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
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

/// Wraps `x` into (-pi, pi].
template <typename Scalar>
Scalar wrapAngle(Scalar x) {
  const Scalar two_pi = 2 * kPi<Scalar>;
  x = std::remainder(x, two_pi);
  if (x <= -kPi<Scalar>) x += two_pi;
  return x;
}

/// Result of the two-rotation subproblem R_a(theta_a) R_b(theta_b) p = q.
template <typename Scalar>
struct TwoAngles {
  Scalar theta_a = Scalar(0);
  Scalar theta_b = Scalar(0);
  bool a_defined = true;  ///< false: q along a, theta_a arbitrary (not written)
  bool ok = false;        ///< false: theta_b could not be found either
};

/// Paden-Kahan subproblem 2 for unit directions p, q and unit axes a, b through one point: the
/// solution whose theta_b is nearest `branch` (mod 2 pi). theta_a is left undefined (a_defined
/// false) when q lies along a within `tol`. Never allocates or throws.
template <typename Scalar>
TwoAngles<Scalar> twoRotations(const Vector3<Scalar>& a, const Vector3<Scalar>& b, const Vector3<Scalar>& p,
                               const Vector3<Scalar>& q, Scalar branch, Scalar tol) {
  TwoAngles<Scalar> out;
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
  Scalar best = std::numeric_limits<Scalar>::infinity();
  for (int i = 0; i < count; ++i) {
    const Vector3<Scalar>& c = candidates[static_cast<std::size_t>(i)];
    const std::optional<Scalar> tb = rotationAbout(b, p, c, tol);
    const Scalar theta_b = tb ? *tb : Scalar(0);
    const Scalar distance = std::abs(wrapAngle(theta_b - branch));
    if (!(distance < best)) continue;
    best = distance;
    out.theta_b = theta_b;
    out.ok = true;
    const std::optional<Scalar> ta = rotationAbout(a, c, q, tol);
    out.a_defined = ta.has_value();
    out.theta_a = ta ? *ta : Scalar(0);
  }
  return out;
}

}  // namespace internal

/// Triangle arm mapper (see the file doc for the method, branches and singular cases).
///
/// A mapper of the shape of mappers/mapper.hpp (Input: a canonical `SkeletonFrame`, metres):
/// `map()` never allocates, never throws, always writes a finite q within the robot's limits
/// and returns kClamped / kDegenerateInput / kInvalidInput as documented there. Keeps a
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

  /// Forgets the temporal state: held values go back to `rest`.
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

  void holdArm(int s);
  // Writes offset + theta for joint k of arm s, wrapped into a 2 pi wide range.
  void write(int s, int k, Scalar theta);
  Scalar theta(int s, int k) const;
  static std::optional<V3> unit(const V3& v);

  void mapArm(const SkeletonFrame<Scalar>& frame, const std::optional<Matrix3<Scalar>>& R_WT, int s, HumanJoint shoulder,
              HumanJoint elbow, HumanJoint wrist);

  const RobotModel<Scalar>* model_;
  TriangleMap map_;
  TriangleOptions options_;
  std::array<internal::ResolvedTriangleArm, 2> arms_{};
  std::array<std::array<V3, 4>, 2> axes_{};
  std::array<V3, 2> u0_{}, l0_{};
  VectorX<Scalar> rest_;
  VectorX<Scalar> last_;
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
                            (data.X_WL[static_cast<std::size_t>(upper)].inverse() * frame.position(elbow)).template cast<double>()});
    out.push_back(LinkPoint{arm->forearm_link,
                            (data.X_WL[static_cast<std::size_t>(fore)].inverse() * frame.position(wrist)).template cast<double>()});
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
    mapArm(frame, R_WT, s, left ? H::kShoulderLeft : H::kShoulderRight, left ? H::kElbowLeft : H::kElbowRight,
           left ? H::kWristLeft : H::kWristRight);
  }
  if (held_.any()) status |= StatusCode::kDegenerateInput;
  if (clampToLimits(*model_, last_, &clamped_) > 0) status |= StatusCode::kClamped;
  q_out = last_;
  return status;
}

template <typename ScalarType>
void TriangleMapper<ScalarType>::reset() noexcept {
  last_ = rest_;
  clamped_.setConstant(false);
  held_.setConstant(false);
}

template <typename ScalarType>
void TriangleMapper<ScalarType>::holdArm(int s) {
  for (int q : arms_[static_cast<std::size_t>(s)].q) held_[q] = true;
}

template <typename ScalarType>
void TriangleMapper<ScalarType>::write(int s, int k, Scalar theta) {
  const TriangleArmMap& arm = s == 0 ? map_.left : map_.right;
  const int q = arms_[static_cast<std::size_t>(s)].q[static_cast<std::size_t>(k)];
  Scalar value = static_cast<Scalar>(arm.offset[static_cast<std::size_t>(k)]) + theta;
  const Scalar lo = model_->lowerLimits()[q], hi = model_->upperLimits()[q];
  if (std::isfinite(lo) && std::isfinite(hi) && hi - lo >= 2 * kPi<Scalar> - Scalar(1e-6)) {
    const Scalar two_pi = 2 * kPi<Scalar>;
    if (value < lo) value += two_pi * std::ceil((lo - value) / two_pi);
    if (value > hi) value -= two_pi * std::ceil((value - hi) / two_pi);
  }
  if (std::isfinite(value)) {
    last_[q] = value;
  } else {
    held_[q] = true;
  }
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
void TriangleMapper<ScalarType>::mapArm(const SkeletonFrame<Scalar>& frame, const std::optional<Matrix3<Scalar>>& R_WT,
                                        int s, HumanJoint shoulder, HumanJoint elbow, HumanJoint wrist) {
  if (!R_WT || !frame.usable(shoulder) || !frame.usable(elbow) || !frame.usable(wrist)) {
    holdArm(s);
    return;
  }
  const std::optional<V3> u = unit(R_WT->transpose() * (frame.position(elbow) - frame.position(shoulder)));
  const std::optional<V3> l = unit(R_WT->transpose() * (frame.position(wrist) - frame.position(elbow)));
  if (!u || !l) {
    holdArm(s);
    return;
  }
  const auto& a = axes_[static_cast<std::size_t>(s)];
  const TriangleArmMap& arm = s == 0 ? map_.left : map_.right;
  const Scalar tol = static_cast<Scalar>(options_.singular_tolerance);
  const int* q = arms_[static_cast<std::size_t>(s)].q.data();
  // Shoulder roll and pitch (Eqs. 1-2).
  const auto shoulder_angles = internal::twoRotations<Scalar>(a[0], a[1], u0_[static_cast<std::size_t>(s)], *u,
                                                              static_cast<Scalar>(arm.shoulder_branch), tol);
  if (!shoulder_angles.ok) {
    holdArm(s);
    return;
  }
  if (shoulder_angles.a_defined) {
    write(s, 0, shoulder_angles.theta_a);
  } else {
    held_[q[0]] = true;
  }
  write(s, 1, shoulder_angles.theta_b);
  // Shoulder yaw and elbow (Eqs. 3 and 6), in the upper-arm frame of the joints just written.
  const Matrix3<Scalar> R_12 = Eigen::AngleAxis<Scalar>(theta(s, 0), a[0]).toRotationMatrix() *
                               Eigen::AngleAxis<Scalar>(theta(s, 1), a[1]).toRotationMatrix();
  const V3 l_U = R_12.transpose() * *l;
  const auto elbow_angles = internal::twoRotations<Scalar>(a[2], a[3], l0_[static_cast<std::size_t>(s)], l_U,
                                                           static_cast<Scalar>(arm.elbow_branch), tol);
  if (!elbow_angles.ok) {
    held_[q[2]] = true;
    held_[q[3]] = true;
    return;
  }
  if (elbow_angles.a_defined) {
    write(s, 2, elbow_angles.theta_a);
  } else {
    held_[q[2]] = true;
  }
  write(s, 3, elbow_angles.theta_b);
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
