#pragma once

/// @file
/// GA-LVVJ: geometrical analysis of link vectors and virtual joints (seed 000, Section 3.2,
/// Eqs. 1-23; head Section 3.3; hands Section 3.4). A canonical human skeleton frame in, robot
/// joint angles out, analytically, in well under a microsecond per joint.
///
/// Method (our reading of the paper, with the signs its text lost reconstructed and settled by
/// the round-trip test in tests/ga_lvvj):
///  - Link frames. The torso is split into four parts. The upper torso frame T of a side has
///    z along V_SpineMid->SpineShoulder and y along the shoulder line towards the robot's left
///    (V_SpineShoulder->ShoulderLeft on the left, V_ShoulderRight->SpineShoulder on the right),
///    made orthogonal to z; x = y x z points forward (Eqs. 2-3: x along N_1-2-5, y = R_LUT).
///    The lower torso frame L of a side is built the same way from V_SpineBase->SpineMid and
///    the hip line (Eqs. 15-16).
///  - Mother/child joints. A mother joint's angle is read by projecting the child link vector
///    onto the plane normal to the mother joint's axis (a signed angle in that plane); the
///    child joint's angle is the angle between the link vector and that plane
///    (Eqs. 4-7, 10-14, 17-20 and 23). With u, l, t, b the unit upper arm, lower arm, thigh and
///    tibia:
///      ShoulderPitch = atan2(-u_z, u_x) in T            (mother, axis y of T; Eqs. 4-6)
///      ShoulderRoll  = asin(u_y) in T                    (child; Eq. 7)
///      ElbowRoll     = -+acos(l_x) in E = T R_y(SP) R_z(SR) R_UE, - on the left (Eq. 14 by
///                      the paper's own numbering, which Eq. 38 of the CoM Jacobian fixes)
///      ElbowYaw      = atan2(-l_z, -l_y) left, atan2(l_z, l_y) right, in E   (Eqs. 10-13)
///                      (R_UE: the map's fixed elbow-frame rotation, identity on NAO)
///      HipRoll       = atan2(a_z, a_y) in L, a = hip-pitch axis (mother, axis x of L;
///                      Eqs. 17-19): a = x_L x t (the paper's N_0-1-17 construction) plus, when the
///                      knee is bent, the knee plane normal t x b (as the paper's Section 3.6
///                      note on redundant hips suggests: "a tibia can help decide the hip
///                      angles"), so that a horizontal thigh (seated) still has a defined roll.
///                      DELIBERATE DEVIATION: the paper reads HipRoll from the thigh alone; on
///                      the seated Keraal recordings that leaves it ill-conditioned (thigh
///                      horizontal), and the knee term lifts their LLF (tests/ga_lvvj real data)
///      HipPitch      = atan2(-t'_x, -t'_z), t' = R_x(HR)^T t in L: the thigh projected on
///                      the plane normal to the rolled pitch axis (Eq. 20 gives -asin(t_x),
///                      the same value whenever the thigh lies in that plane, as on a robot)
///      KneePitch     = atan2(-b_x, -b_z) in Th = L R_x(HR) R_y(HP)  (Eqs. 21-23; the paper's
///                      unsigned pi - angle(V_18-19, V_18-17) is this value for a tibia in the
///                      knee plane). DELIBERATE DEVIATION: signed, so that NAO's small
///                      hyperextension range (-5.3 deg) is reachable and a standing Kinect knee,
///                      measured at -7 ... -5 deg, is not folded to +5 deg; the round trip over
///                      NAO's full knee range needs the sign
///    The right side is the mirror image (y -> -y) of the left: same pitch formulas, roll and
///    yaw formulas of the mirrored sign; proven by the mirror test.
///  - Head (Section 3.3): HeadYaw / HeadPitch from `frame.head` (a face tracker) when present;
///    otherwise HeadPitch = atan2(h_x, h_z) of the Neck->Head vector h in the central upper
///    torso frame (shoulder line ShoulderRight->ShoulderLeft) and HeadYaw keeps its previous
///    value (a single vector does not carry yaw; not reported as held).
///  - Hands (Section 3.4): open -> 1, closed -> 0 (canonical), unknown -> previous state.
///  - HipYawPitch (NAO: one motor for both hips, axis (0, 1, -+1)/sqrt(2) of the left/right
///    lower torso frame) is either written as `GaLvvjOptions::hip_yaw_pitch` (kFixed, 0 as in
///    the paper) or, with HipYawPitchMode::kFromKnees (default), read from the knee planes:
///    for each leg, the angle a about that axis that makes the knee axis n = t x b orthogonal
///    to x_L, a = atan2(n_x, (k x n)_x) taken in (-pi/2, pi/2], with a weight w that grows
///    from 0 to 1 as the knee bends from 20 to 45 deg (a nearly straight knee's plane is
///    sensor noise); HipYawPitch = h + sum w (a - h) / max(1, sum w), h = `hip_yaw_pitch`:
///    the paper's fixed value while standing, the knee planes' mean once a knee is bent (a
///    seated human's thighs turned outwards), continuous in between. The hip and knee angles of
///    each leg are then read in L R_k(a). A deviation from the paper (which holds the joint at
///    0), chosen on the shared seated Keraal recordings: with the joint fixed, NAO's tibias
///    reached LLF 0.45-0.65 where 1.0 was reachable; with it read from the knees, 0.97-0.99,
///    and the standing recordings are unchanged (tests/ga_lvvj, best reachable).
///  - Leg fit (`leg_fit`, default on; a deviation from the paper, see below). The analytic legs
///    point each thigh exactly and put the tibia in the knee plane the hip angles leave (KneePitch
///    is one axis, and both hips turn on one HipYawPitch motor), so a tibia out of that plane
///    (Kinect noise on a nearly straight knee, or two seated knees that want different
///    HipYawPitch) costs the tibia alone. The fit then moves the seven leg joints (HipYawPitch,
///    and HipRoll, HipPitch, KneePitch of each side) to the least-squares compromise of the four
///    unit leg links, each in its side's lower torso frame L:
///      min  sum over sides |R_a(HYP) R_x(HR) R_y(HP) e - t|^2 + |R_a(HYP) R_x(HR) R_y(HP + KP) e - b|^2
///           + sum over joints p_k (y_k - y0_k)^2,   e = (0, 0, -1), a = hipYawPitchAxis(side),
///    within the limits (Levenberg-Marquardt on the exact Hessian, analytic first and second
///    derivatives, active set on the bounds, only descending steps, at most 50 iterations,
///    fixed-size matrices: no allocation; the library's one bounded search,
///    core/internal/bounded_lm.hpp boundedNewtonSearch, which the arm choice uses too, with the
///    two legs' blocks solved apart through
///    HipYawPitch's Schur complement). y0 is
///    the analytic solution clamped to the limits, so an exact solution (a robot pose, the round
///    trip) is never moved. p_k = kGaLvvjLegFitPrior (0.25 /rad^2) keeps ill-conditioned
///    directions still: the knee plane of a nearly straight knee turns by at most 1/(2 sqrt p) =
///    1 rad per rad of tibia noise, so the output moves no more than the input; HipYawPitch
///    stays exactly the paper's value while neither knee is bent (its prior, 0.01 + (1 - w) / w,
///    grows without bound as the kFromKnees knee weight w goes to 0, continuously as a knee
///    bends 20 -> 45 deg; with bent knees it is nearly free, as the knee planes define it well)
///    and is not free with kFixed. Measured on the shared recordings (tests/ga_lvvj, best reachable): the tibia
///    WBF gaps of 0.029-0.036 to the best reachable value close (see docs/methods/ga_lvvj.md).
///  - Trunk lean (`trunk_lean`, default off; an extension of the paper). The paper reads the legs
///    in the pelvis frame and leaves the ankles alone, so a robot standing on its feet keeps its
///    torso upright whatever the person does: a bow becomes the robot sitting with an upright
///    trunk, and a squat's forward shanks tip NAO's trunk backwards. With the option the robot's
///    torso takes the tilt of the human's trunk link SpineBase->SpineShoulder (the torso link of
///    WBF, seed 000 Eq. 44): every torso frame above is first turned by the smallest rotation
///    that takes its z onto that link (a bent spine then carries the arms with the whole trunk, as
///    NAO's one-piece torso does; each frame's twist about the spine is kept), the arms, legs and
///    head are read in the turned frames, and each ankle (GaLvvjMap::foot_left / foot_right: the
///    pitch joint, then the roll joint) turns its sole parallel to the ground, the skeleton's
///    horizontal plane, with the torso so tilted. With n the ground normal (the skeleton's +z) in
///    the turned lower torso frame of the side and A, B the pitch and roll axes and n0 the sole
///    normal at zero ankle angles (forward kinematics of the mapped legs; the map is checked for
///    A, B, n0 orthogonal at construction), roll = -asin(n . A) and pitch = atan2(n . B,
///    n . (B x A)) (n0 = B x A; for NAO B = x, A = y: the sole's z is R_y(pitch) R_x(roll) z). Standing on
///    either sole the robot's torso then leans as the human's trunk and its thighs and tibias
///    point as the human's in the world (WBF with WbfBase::kSupportFoot); the leg joints carry
///    the lean, as a person's hips do. The cost is one forward kinematics pass per frame. The angles then
///    depend on the skeleton's vertical: invariant to rotations about z and translations only.
///  - Joints the method does not map (wrists, ankles, ...) take `GaLvvjOptions::rest` values.
///  - Every value is clamped to the robot's limits (Section 3.2, last paragraph). With
///    `limit_aware_shoulder` (default on), an arm whose exact solution is outside the limits
///    takes the best of its equivalent and compensating solutions, with continuity (see the
///    option); an unavoidable jump is reported as kDiscontinuity.
///  - Joints the source only inferred are handled by `inferred_joints` (default: held).
///
/// Statuses, one definition (mappers/mapper.hpp): a coordinate is clamped when its written
/// value sits on a limit further than `clamp_tolerance` from `wanted()`; held (kDegenerateInput)
/// when the input it needs was missing or broken; singular (informational, `singular()`, not
/// in the Status) when its angle was undefined and it kept its value.
///
/// Degenerate cases (the affected virtual joints hold their last good value and `held()` /
/// kDegenerateInput report it):
///  - a needed skeleton joint is not tracked or not finite, a link vector has zero length, or
///    a torso frame is degenerate (shoulder or hip line along the spine): every virtual joint
///    that depends on it.
///
/// Singular cases (the angle is undefined; it keeps its value, `singular()` says so):
///  - shoulder: the upper arm along the shoulder line (|cos ShoulderRoll| < singular_tolerance,
///    arm straight out sideways): ShoulderPitch is undefined and keeps its value;
///  - elbow: the lower arm along the upper arm (|sin ElbowRoll| < singular_tolerance, arm
///    straight): ElbowYaw is undefined and keeps its value (NAO's ElbowRoll limit keeps 2 deg of bend);
///  - hip: the thigh along the x axis of L (thigh horizontal, |cos HipPitch| <
///    singular_tolerance) with a straight knee (sin KneePitch <= 0.1): HipRoll keeps its value;
///  - knee: the tibia along the knee axis: KneePitch keeps its value;
///  - head (vector path): Neck->Head along the shoulder line: HeadPitch is held.
/// Near these configurations the angles are continuous but ill-conditioned.
///
/// Invariance: the angles depend only on link vectors expressed in frames built from the
/// skeleton itself, so any rigid motion of the whole skeleton (rotation about any axis and
/// translation) leaves them unchanged (with `trunk_lean`: a rotation about z and translation); `frame.head` angles are
/// used as given (torso-relative).

#include <array>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/bounded_lm.hpp>
#include <retarget/core/internal/small_cholesky.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/link_vectors.hpp>
#include <retarget/geometry/rotation_between.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/human/torso_frames.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/internal/branch_choice.hpp>
#include <retarget/mappers/mapper.hpp>

namespace retarget {

/// Options of `GaLvvjMapper` (a validated aggregate; `validate()` runs in the constructor).
struct GaLvvjOptions {
  /// How HipYawPitch is set (see the file doc).
  enum class HipYawPitchMode { kFixed, kFromKnees };
  HipYawPitchMode hip_yaw_pitch_mode = HipYawPitchMode::kFromKnees;
  /// kFixed: value written to HipYawPitch every frame (rad; the paper holds it at 0).
  /// kFromKnees: its value while both knees are straight (see the file doc).
  double hip_yaw_pitch = 0.0;
  /// Below this sine (or cosine, see the header doc) a mother joint is singular and held.
  /// Unitless, in (0, 0.5].
  double singular_tolerance = 1e-3;
  /// Values (rad, robot q order, size nq) of the joints GA-LVVJ does not map, and the initial
  /// held values of those it maps. Empty (default): the model's neutral configuration.
  std::vector<double> rest{};
  /// When an arm's exact solution lies outside the limits (an ElbowYaw wanted across its +-pi
  /// wrap, an arm near the shoulder singularity, ...), choose among the equivalent and
  /// compensating solutions: the exact one clamped, the ElbowYaw at either of its limits with
  /// the excess moved into ShoulderPitch (both directions: near the shoulder singularity the
  /// two joints turn about nearly the same axis), and, after the first frame, the previous
  /// ShoulderPitch with the other three solved for it. Each is scored by the arm-direction error
  /// after clamping, 2 - (u . u_human + l . l_human), plus a continuity term (see
  /// `continuity_weight`), beside the local minimum of that cost from the previous frame's
  /// solution (Levenberg-Marquardt within the limits). A solution within the limits is never
  /// changed, so round trips are exact. Off: the paper's plain clamping.
  bool limit_aware_shoulder = true;
  /// Weight of continuity in the arm choice above (1/rad^2, >= 0). A joint may step as far as
  /// the human's arm turned since the previous frame, times `continuity_gain`, plus 0.005 rad,
  /// for free; the cost adds this weight times the sum of the squared excesses. So the arm
  /// follows a moving human at full accuracy but does not jump (or slide along a singular
  /// valley) while the human's arm barely moves.
  double continuity_weight = 10.0;
  /// The most the continuity term may cost (in arm-direction error units, > 0; infinity: no
  /// cap). A continuous solution stuck on a limit (the human's arm went on where the robot's
  /// cannot follow without swinging round, e.g. over the head in a lateral stretch) is left for
  /// the jump once it points the arm worse than the jump's solution by more than this, and the
  /// jump is reported as kDiscontinuity; without a cap the robot would stay stuck for as long as
  /// the human holds the pose. 0.3 is about one link 45 deg off; the band between jumping
  /// there and back (twice this) keeps noise from toggling the choice.
  double jump_cost = 0.15;
  /// The free joint step per radian the human's upper or lower arm turned (unitless, >= 0).
  double continuity_gain = 3.0;
  /// An arm whose chosen solution steps by more than this (rad, > 0) in one frame while a
  /// closer candidate existed reports kDiscontinuity: the robot's limits made the jump
  /// unavoidable (a continuous solution would have pointed the arm the wrong way).
  double discontinuity_step = 0.35;
  /// A value clamped by no more than this (rad, >= 0) is still clamped but not reported as
  /// clamped: sensor noise at a limit (Kinect knee hyperextension of a standing person) and
  /// NAO's 2 deg ElbowRoll floor under a straight human elbow are not failures. 0 reports
  /// every clamp.
  double clamp_tolerance = 0.035;
  /// Fit the four leg links together after the analytic legs (see the file doc, "Leg fit").
  /// Off: the paper's analytic legs alone (each thigh exact, the tibia in its knee plane).
  bool leg_fit = true;
  /// What to do with joints the source only inferred (see InferredJoints; default kHold: what
  /// depends on them holds and is reported as held).
  InferredJoints inferred_joints = InferredJoints::kHold;
  /// Lean the robot's trunk with the human's (see the file doc, "Trunk lean"; an extension of
  /// the paper, which keeps the torso upright). Needs the map's feet (GaLvvjMap::foot_left /
  /// foot_right). Off (default): the paper's mapping, the ankles at `rest`.
  bool trunk_lean = false;

  /// Throws InvalidArgument naming the field and value when a value is out of range or not
  /// finite (`rest` is checked against the model by the mapper).
  RETARGET_DECL void validate() const;
};

/// GA-LVVJ's options in the whole-body pipeline (control/whole_body.hpp) by default: the mapper's,
/// with `trunk_lean` on (the robot's torso leans with the human's trunk, the soles stay level).
inline GaLvvjOptions wholeBodyGaLvvjOptions() {
  GaLvvjOptions options;
  options.trunk_lean = true;
  return options;
}

namespace internal {

/// sqrt(a^2 + b^2): the length of a vector's projection on a coordinate plane. std::hypot's
/// guard against overflow costs several times more, and GA-LVVJ only takes it of the components of
/// validated, finite, metre-scale or unit vectors.
template <typename Scalar>
Scalar planarNorm(Scalar a, Scalar b) {
  using std::sqrt;
  return sqrt(a * a + b * b);
}

/// Rotation about the x axis by the angle whose cosine is `c` and sine is `s` (c^2 + s^2 = 1):
/// for a per-frame path that has them from the vector it reads the angle off.
template <typename Scalar>
Matrix3<Scalar> rotationAboutX(Scalar c, Scalar s) {
  Matrix3<Scalar> R;
  R << Scalar(1), Scalar(0), Scalar(0), Scalar(0), c, -s, Scalar(0), s, c;
  return R;
}
/// Rotation about the y axis from the angle's cosine and sine (see rotationAboutX(c, s)).
template <typename Scalar>
Matrix3<Scalar> rotationAboutY(Scalar c, Scalar s) {
  Matrix3<Scalar> R;
  R << c, Scalar(0), s, Scalar(0), Scalar(1), Scalar(0), -s, Scalar(0), c;
  return R;
}
/// Rotation about the z axis from the angle's cosine and sine (see rotationAboutX(c, s)).
template <typename Scalar>
Matrix3<Scalar> rotationAboutZ(Scalar c, Scalar s) {
  Matrix3<Scalar> R;
  R << c, -s, Scalar(0), s, c, Scalar(0), Scalar(0), Scalar(0), Scalar(1);
  return R;
}

/// Rotation by `angle` (rad) about the x axis: AngleAxis about UnitX, from one sine and one
/// cosine (GA-LVVJ's per-frame path builds many of them).
template <typename Scalar>
Matrix3<Scalar> rotationAboutX(Scalar angle) {
  using std::cos;
  using std::sin;
  return rotationAboutX(cos(angle), sin(angle));
}
/// Rotation by `angle` (rad) about the y axis (see rotationAboutX).
template <typename Scalar>
Matrix3<Scalar> rotationAboutY(Scalar angle) {
  using std::cos;
  using std::sin;
  return rotationAboutY(cos(angle), sin(angle));
}
/// Rotation by `angle` (rad) about the z axis (see rotationAboutX).
template <typename Scalar>
Matrix3<Scalar> rotationAboutZ(Scalar angle) {
  using std::cos;
  using std::sin;
  return rotationAboutZ(cos(angle), sin(angle));
}

/// The arm-direction error of GA-LVVJ's limit-aware arm choice, 2 - u . u_T - l . l_T
/// (unitless, in [0, 4]), for the canonical arm angles c = (ShoulderPitch, ShoulderRoll,
/// ElbowYaw, ElbowRoll) (rad): u = R_y(c0) R_z(c1) x and l = R_y(c0) R_z(c1) R_UE R_x(c2) R_z(c3) x
/// are the unit upper and lower arm they give in the upper torso frame T, u_T and l_T the
/// human's (unit, frame T), R_UE the map's elbow frame in the upper-arm frame. When `gradient`
/// is given it receives the derivatives (1/rad), analytic: with a_k the axis of joint k in T
/// (a_0 = y, a_1 = R_y(c0) z, a_2 = R_TE x, a_3 = R_TE R_x(c2) z, R_TE = R_y R_z R_UE),
/// du/dc_k = a_k x u (k < 2) and dl/dc_k = a_k x l, so the derivative is
/// -a_k . (u x u_T) - a_k . (l x l_T). When `hessian` is given it receives the second
/// derivatives (1/rad^2): for i <= j along the chain d2u/dc_i dc_j = a_i x (a_j x u) (the same
/// for l), so H_ij = -u_T . (a_i x du/dc_j) - l_T . (a_i x dl/dc_j); and `gauss_newton` the
/// diagonal of the Gauss-Newton Hessian, |du/dc_k|^2 + |dl/dc_k|^2 (>= 0).
template <typename Scalar>
Scalar armDirectionError(const std::array<Scalar, 4>& c, const Matrix3<Scalar>& R_UE, const Vector3<Scalar>& u_T,
                         const Vector3<Scalar>& l_T, std::array<Scalar, 4>* gradient,
                         Eigen::Matrix<Scalar, 4, 4>* hessian = nullptr, std::array<Scalar, 4>* gauss_newton = nullptr) {
  using V3 = Vector3<Scalar>;
  using M3 = Matrix3<Scalar>;
  using std::cos;
  using std::sin;
  const M3 R_y = rotationAboutY(c[0]);
  const M3 R_TU = R_y * rotationAboutZ(c[1]);
  const M3 R_TE = R_TU * R_UE;
  const M3 R_x = rotationAboutX(c[2]);
  const V3 u = R_TU.col(0);
  const V3 l = R_TE * (cos(c[3]) * V3::UnitX() + sin(c[3]) * R_x.col(1));  // R_TE R_x R_z(c3) x
  if (gradient) {
    const V3 u_moment = u.cross(u_T), l_moment = l.cross(l_T);
    (*gradient)[0] = -(u_moment[1] + l_moment[1]);
    (*gradient)[1] = -R_y.col(2).dot(u_moment + l_moment);
    (*gradient)[2] = -R_TE.col(0).dot(l_moment);
    (*gradient)[3] = -(R_TE * R_x.col(2)).dot(l_moment);
  }
  if (hessian || gauss_newton) {
    const std::array<V3, 4> axes = {V3::UnitY(), V3(R_y.col(2)), V3(R_TE.col(0)), V3(R_TE * R_x.col(2))};
    std::array<V3, 4> du, dl;
    for (std::size_t k = 0; k < 4; ++k) {
      du[k] = k < 2 ? V3(axes[k].cross(u)) : V3::Zero();
      dl[k] = axes[k].cross(l);
      if (gauss_newton) (*gauss_newton)[k] = du[k].squaredNorm() + dl[k].squaredNorm();
    }
    if (hessian) {
      for (std::size_t i = 0; i < 4; ++i) {
        for (std::size_t j = i; j < 4; ++j) {
          const Scalar h = -u_T.dot(axes[i].cross(du[j])) - l_T.dot(axes[i].cross(dl[j]));
          (*hessian)(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = h;
          (*hessian)(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(i)) = h;
        }
      }
    }
  }
  return Scalar(2) - u.dot(u_T) - l.dot(l_T);
}

}  // namespace internal

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
  GaLvvjMapper(const RobotModel<Scalar>& model, GaLvvjMap map, GaLvvjOptions options = {});

  /// Maps one skeleton frame (canonical frame, m) to robot joint angles `q_out` (size nq, rad,
  /// robot q order). See the class doc for the contract.
  [[nodiscard]] Status map(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  /// `map` for a robot whose torso does not take the lean at once (trunk lean only; without it,
  /// the same as `map(frame, q_out)`): `up_T` is the ground's normal in the robot's torso frame
  /// (unit) as the robot stands now, e.g. while a balance stage holds or slows its legs. The
  /// legs and ankles are read as `map` reads them (they lean the torso with the human's trunk);
  /// the upper torso frames are turned by the smallest rotation that gives them that normal, so
  /// the arms and head point as the human's in the world with the robot's torso as it is.
  [[nodiscard]] Status mapWithTorsoTilt(const SkeletonFrame<Scalar>& frame, Eigen::Ref<VectorX<Scalar>> q_out,
                                        const Vector3<Scalar>& up_T) noexcept {
    forced_up_ = &up_T;
    const Status status = map(frame, q_out);
    forced_up_ = nullptr;
    return status;
  }

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  GaLvvjMapper(const RobotModel<Scalar>&&, GaLvvjMap, GaLvvjOptions = {}) = delete;

  /// Forgets the temporal state: held values go back to `rest`, hands to their rest value.
  void reset() noexcept;

  /// Per q coordinate: clamped to a limit in the last `map()` call.
  const JointFlags& clamped() const noexcept { return clamped_; }
  /// Per q coordinate: held its last good value in the last `map()` call because the input it
  /// needs was missing, not tracked (or only inferred, see `inferred_joints`), not finite or a
  /// zero-length link (degraded; reported as kDegenerateInput).
  const JointFlags& held() const noexcept { return held_; }
  /// Per q coordinate: kept its previous value in the last `map()` call because its angle was
  /// undefined at a singular configuration (a straight elbow leaves ElbowYaw undefined, an arm
  /// straight out sideways ShoulderPitch). Informational: harmless, not in the Status.
  const JointFlags& singular() const noexcept { return singular_; }
  /// Per q coordinate, the value (rad) the method wanted in the last `map()` call before limits:
  /// |wanted() - q_out| is how far a clamped coordinate is from what the human showed.
  const VectorX<Scalar>& wanted() const noexcept { return wanted_; }
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
  static M3 rotationX(Scalar angle) { return internal::rotationAboutX(angle); }
  static M3 rotationY(Scalar angle) { return internal::rotationAboutY(angle); }
  static M3 rotationZ(Scalar angle) { return internal::rotationAboutZ(angle); }
  // The same rotations from the angle's cosine c and sine s when the per-frame path already has
  // them from the vector it read the angle off (no sine or cosine to evaluate).
  static M3 rotationX(Scalar c, Scalar s) { return internal::rotationAboutX(c, s); }
  static M3 rotationY(Scalar c, Scalar s) { return internal::rotationAboutY(c, s); }
  static M3 rotationZ(Scalar c, Scalar s) { return internal::rotationAboutZ(c, s); }
  bool bound(GaLvvjJoint j) const { return bindings_[static_cast<std::size_t>(j)].q >= 0; }
  Scalar& angle(GaLvvjJoint j) { return angle_[static_cast<std::size_t>(j)]; }
  // Degraded: the input a virtual joint needs is missing or broken.
  void hold(GaLvvjJoint j) { held_virtual_[static_cast<std::size_t>(j)] = true; }
  // Informational: the angle is undefined at a singular configuration; it keeps its value.
  void undefined(GaLvvjJoint j) { singular_virtual_[static_cast<std::size_t>(j)] = true; }

  // Unit link vector from joint a to joint b expressed in frame F (R_WF), or nullopt.
  static std::optional<V3> unitIn(const SkeletonFrame<Scalar>& frame, const M3& R_WF, HumanJoint a, HumanJoint b) {
    if (!frame.usable(a) || !frame.usable(b)) return std::nullopt;
    return unitVector<Scalar>(R_WF.transpose() * (frame.position(b) - frame.position(a)));
  }
  void mapArm(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WT, bool left);
  void mapLeg(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WL, bool left);
  // Of the leg's two analytic solutions, the one that points thigh t and tibia b (unit, lower
  // torso frame; no b: the knee is held) better once clamped; reports a change of solution as
  // kDiscontinuity.
  void chooseLegBranch(const V3& t, const std::optional<V3>& b, bool left);
  using ArmAngles = std::array<Scalar, 4>;  // canonical ShoulderPitch, ShoulderRoll, ElbowYaw, ElbowRoll
  ArmAngles armWithPitch(const V3& u_T, const V3& l_T, bool left, Scalar pitch, Scalar yaw_if_straight) const;
  Status chooseArm(const V3& u_T, const V3& l_T, bool left);
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
  void fitLegs(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WL_left,
               const std::optional<M3>& R_WL_right);
  void mapHead(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WT);
  // Trunk lean (see the file doc): the torso frames turned onto the trunk link, then the ankles.
  void leanTorsoFrames(const SkeletonFrame<Scalar>& frame, TorsoFrames<Scalar>& R_W);
  Status mapAnkles(Eigen::Ref<VectorX<Scalar>> q_out);
  void resolveFeet(const GaLvvjMap& map);
  // One foot resolved against the model: joint indices, q indices and the sole link.
  struct AnkleChain {
    int pitch_joint = -1, roll_joint = -1, pitch_q = -1, roll_q = -1, sole = -1;
  };
  // After forward kinematics into fk_ (ankles at 0): the pitch axis A, the roll axis B and the
  // sole normal n0 of a foot, in the torso frame.
  struct AnkleAxes {
    V3 A, B, n0;
  };
  AnkleAxes ankleAxes(const AnkleChain& a) const {
    const auto& joints = model_->joints();
    return {jointFrameInWorld(*model_, *fk_, a.pitch_joint).linear() * joints[static_cast<std::size_t>(a.pitch_joint)].axis,
            jointFrameInWorld(*model_, *fk_, a.roll_joint).linear() * joints[static_cast<std::size_t>(a.roll_joint)].axis,
            fk_->X_WL[static_cast<std::size_t>(a.sole)].linear().col(2)};
  }
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
  std::array<bool, kGaLvvjJointCount> singular_virtual_{};
  std::array<Scalar, kGaLvvjJointCount> wanted_virtual_{};
  std::array<ArmAngles, 2> previous_arm_{};  // written canonical arm angles: left, right
  std::array<bool, 2> has_previous_arm_{};
  std::array<bool, 2> previous_exact_{};  // the previous frame's arm was the exact solution
  std::array<V3, 2> previous_u_{}, previous_l_{};  // the human's arm directions (torso frame)
  Scalar knee_weight_ = 0;  // sum of the kFromKnees knee weights of this frame (0: standing)
  SkeletonFrame<Scalar> frame_;  // the input after the inferred-joints policy (when it changed something)
  Status arm_status_;  // what the arms and legs found this frame (kDiscontinuity)
  std::array<bool, 2> leg_flipped_{};  // the leg took its second analytic solution: left, right
  std::array<bool, 2> has_previous_leg_{};
  std::array<M3, 2> R_UE_{};  // elbow frame in the upper-arm frame: left, right
  std::array<Scalar, kGaLvvjJointCount> canonical_lower_{};
  std::array<Scalar, kGaLvvjJointCount> canonical_upper_{};
  JointFlags clamped_;
  JointFlags held_;
  JointFlags singular_;
  VectorX<Scalar> wanted_;
  // Trunk lean only (empty otherwise).
  std::array<AnkleChain, 2> ankles_{};                 // left, right
  std::array<std::optional<V3>, 2> ground_up_{};       // this frame's ground normal in the torso frame
  std::array<std::array<Scalar, 2>, 2> ankle_angle_{};  // last written pitch, roll per side (rad)
  std::optional<RobotData<Scalar>> fk_;
  const V3* forced_up_ = nullptr;  // the robot's own ground normal for this call (mapWithTorsoTilt)
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

  // Shoulder (Eqs. 1-7): u in the upper torso frame T.
  const std::optional<V3> u = R_WT ? unitIn(frame, *R_WT, shoulder, elbow) : std::nullopt;
  if (!u) {
    for (J j : {sp, sr, ey, er}) hold(j);
    return;
  }
  const Scalar cos_roll = internal::planarNorm((*u)[0], (*u)[2]);
  angle(sr) = atan2((*u)[1], cos_roll);
  // R_y(SP) R_z(SR) from u itself (its cosines and sines), or from the held pitch.
  const Scalar u_norm = internal::planarNorm((*u)[1], cos_roll);
  M3 R_TU = rotationZ(cos_roll / u_norm, (*u)[1] / u_norm);
  if (cos_roll > tol) {
    angle(sp) = atan2(-(*u)[2], (*u)[0]);
    R_TU = rotationY((*u)[0] / cos_roll, -(*u)[2] / cos_roll) * R_TU;
  } else {
    undefined(sp);  // arm straight out sideways: any pitch points it there
    R_TU = rotationY(angle(sp)) * R_TU;
  }

  // Elbow (Eqs. 8-14; ElbowRoll is Eq. 14): l in the elbow frame
  // E = T R_y(SP) R_z(SR) R_UE.
  const M3 R_WE = *R_WT * R_TU * R_UE_[left ? 0 : 1];
  const std::optional<V3> l = unitIn(frame, R_WE, elbow, wrist);
  if (!l) {
    hold(ey);
    hold(er);
    return;
  }
  const Scalar sin_roll = internal::planarNorm((*l)[1], (*l)[2]);
  const Scalar bend = atan2(sin_roll, (*l)[0]);  // in [0, pi]
  angle(er) = left ? -bend : bend;
  if (sin_roll > tol) {
    angle(ey) = left ? atan2(-(*l)[2], -(*l)[1]) : atan2((*l)[2], (*l)[1]);
  } else {
    undefined(ey);  // straight elbow: any yaw gives the same forearm
  }
  for (J j : {sp, sr, ey, er}) wanted_virtual_[static_cast<std::size_t>(j)] = angle(j);
  if (options_.limit_aware_shoulder) {
    const V3 l_T = R_WE * *l;
    arm_status_ |= chooseArm(*u, R_WT->transpose() * l_T, left);
  }
}

template <typename Scalar>
typename GaLvvjMapper<Scalar>::ArmAngles GaLvvjMapper<Scalar>::armWithPitch(const V3& u_T, const V3& l_T, bool left,
                                                                           Scalar pitch, Scalar yaw_if_straight) const {
  using std::atan2;
  const V3 u_P = rotationY(pitch).transpose() * u_T;
  const Scalar roll = atan2(u_P[1], internal::planarNorm(u_P[0], u_P[2]));
  const M3 R_TE = rotationY(pitch) * rotationZ(roll) * R_UE_[left ? 0 : 1];
  const V3 l_E = R_TE.transpose() * l_T;
  const Scalar sin_roll = internal::planarNorm(l_E[1], l_E[2]);
  const Scalar bend = atan2(sin_roll, l_E[0]);
  Scalar yaw = yaw_if_straight;
  if (sin_roll > static_cast<Scalar>(options_.singular_tolerance)) {
    yaw = left ? atan2(-l_E[2], -l_E[1]) : atan2(l_E[2], l_E[1]);
  }
  return {pitch, roll, yaw, left ? -bend : bend};
}

template <typename Scalar>
Status GaLvvjMapper<Scalar>::chooseArm(const V3& u_T, const V3& l_T, bool left) {
  using J = GaLvvjJoint;
  const std::size_t side = left ? 0 : 1;
  const std::array<J, 4> joints = {left ? J::kLShoulderPitch : J::kRShoulderPitch,
                                   left ? J::kLShoulderRoll : J::kRShoulderRoll, left ? J::kLElbowYaw : J::kRElbowYaw,
                                   left ? J::kLElbowRoll : J::kRElbowRoll};
  const ArmAngles exact = {angle(joints[0]), angle(joints[1]), angle(joints[2]), angle(joints[3])};
  auto clamp = [&](ArmAngles c) {
    for (std::size_t k = 0; k < 4; ++k) c[k] = clampCanonical(joints[k], c[k]);
    return c;
  };
  auto write = [&](const ArmAngles& c) {
    for (std::size_t k = 0; k < 4; ++k) angle(joints[k]) = c[k];
    previous_arm_[side] = c;
    has_previous_arm_[side] = true;
  };
  const bool continuous = has_previous_arm_[side];
  // How far the human's arm turned since the previous frame (rad), and the free joint step.
  using std::acos;
  auto turned = [](const V3& a, const V3& b) { return acos(std::min(Scalar(1), std::max(Scalar(-1), a.dot(b)))); };
  const Scalar free_step = continuous ? static_cast<Scalar>(options_.continuity_gain) *
                                                std::max(turned(u_T, previous_u_[side]), turned(l_T, previous_l_[side])) +
                                            Scalar(0.005)
                                      : Scalar(0);
  previous_u_[side] = u_T;
  previous_l_[side] = l_T;
  if (clamp(exact) == exact) {  // within the limits: the exact solution stands (round trips)
    // Coming back within reach on the other side of a limit (e.g. across the ElbowYaw gap)
    // is a jump the limits forced: report it.
    Status status;
    if (has_previous_arm_[side] && !previous_exact_[side]) {
      Scalar largest = 0;
      for (std::size_t k = 0; k < 4; ++k) largest = std::max(largest, std::abs(exact[k] - previous_arm_[side][k]));
      if (largest > static_cast<Scalar>(options_.discontinuity_step)) status |= StatusCode::kDiscontinuity;
    }
    write(exact);
    previous_exact_[side] = true;
    return status;
  }
  previous_exact_[side] = false;
  // Arm directions (torso frame) reached by a candidate, and its cost.
  auto directions = [&](const ArmAngles& c) {
    const M3 R_TU = rotationY(c[0]) * rotationZ(c[1]);
    const V3 u = R_TU.col(0);
    const V3 l = R_TU * R_UE_[side] * rotationX(c[2]) * rotationZ(c[3]) * V3::UnitX();
    return std::pair<V3, V3>(u, l);
  };
  auto directionError = [&](const ArmAngles& c) {
    return internal::armDirectionError<Scalar>(c, R_UE_[side], u_T, l_T, nullptr);
  };
  // The largest joint step from the previous frame, and the sum of the squared excesses.
  auto stepOf = [&](const ArmAngles& c) {
    Scalar largest = 0, squares = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const Scalar d = std::abs(c[k] - previous_arm_[side][k]);
      largest = std::max(largest, d);
      const Scalar excess = std::max(Scalar(0), d - free_step);
      squares += excess * excess;
    }
    return std::pair<Scalar, Scalar>(largest, squares);
  };
  // Candidates (fixed storage: no allocation).
  std::array<ArmAngles, 8> candidates{};
  std::size_t n = 0;
  const Scalar two_pi = Scalar(2) * kPi<Scalar>;
  // Pitch and yaw are angles on a circle: the turn of `value` nearest `reference`.
  auto near = [&](Scalar value, Scalar reference) { return value + two_pi * std::round((reference - value) / two_pi); };
  // The same solution with its pitch and yaw taken on the turn nearest the previous frame's, so
  // that clamping keeps the side the arm came from.
  auto continued = [&](ArmAngles c) {
    c[0] = near(c[0], previous_arm_[side][0]);
    c[2] = near(c[2], previous_arm_[side][2]);
    return c;
  };
  // A candidate equal to an earlier one is left out: it would cost the same and never be
  // chosen (the first of equal costs wins), so scoring it again is wasted.
  auto add = [&](const ArmAngles& c) {
    if (std::find(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n), c) ==
        candidates.begin() + static_cast<std::ptrdiff_t>(n)) {
      candidates[n++] = c;
    }
  };
  add(clamp(exact));
  if (continuous) add(clamp(continued(exact)));
  const std::size_t yaw = static_cast<std::size_t>(joints[2]);
  const bool yaw_outside = clampCanonical(joints[2], exact[2]) != exact[2];
  for (const Scalar limit : {canonical_lower_[yaw], canonical_upper_[yaw]}) {
    if (!yaw_outside || !std::isfinite(limit)) continue;
    // The representation of the wanted yaw nearest this limit, and its excess over it.
    const Scalar excess = exact[2] + two_pi * std::round((limit - exact[2]) / two_pi) - limit;
    for (const Scalar direction : {Scalar(1), Scalar(-1)}) {
      add(clamp({exact[0] + direction * excess, exact[1], limit, exact[3]}));
    }
  }
  if (continuous) {
    add(clamp(continued(armWithPitch(u_T, l_T, left, previous_arm_[side][0], previous_arm_[side][2]))));
  }
  const Scalar weight = static_cast<Scalar>(options_.continuity_weight);
  const Scalar jump_cost = static_cast<Scalar>(options_.jump_cost);
  auto cost = [&](const ArmAngles& c) {
    return directionError(c) + (continuous ? std::min(jump_cost, weight * stepOf(c).second) : Scalar(0));
  };
  // The cost with its gradient g, Hessian H and a positive damping scale D (the Gauss-Newton
  // diagonal): internal::armDirectionError, and the continuity term's 2 w excess_k sign(c_k -
  // p_k) and 2 w (where excess_k > 0) while it is below its cap, nothing above.
  using Vec4 = Eigen::Matrix<Scalar, 4, 1>;
  using ArmDerivatives = internal::LmDerivatives<Scalar, 4>;
  auto costAndDerivatives = [&](const Vec4& y, ArmDerivatives& d) {
    const ArmAngles c = {y[0], y[1], y[2], y[3]};
    ArmAngles g, D;
    Scalar f = internal::armDirectionError(c, R_UE_[side], u_T, l_T, &g, &d.H, &D);
    for (std::size_t k = 0; k < 4; ++k) D[k] += Scalar(1e-6);  // keeps a joint the arm ignores still
    if (continuous) {
      Scalar squares = 0;
      ArmAngles slope{};
      for (std::size_t k = 0; k < 4; ++k) {
        const Scalar step = c[k] - previous_arm_[side][k];
        const Scalar excess = std::max(Scalar(0), std::abs(step) - free_step);
        squares += excess * excess;
        slope[k] = step < Scalar(0) ? -excess : excess;
      }
      if (weight * squares < jump_cost) {
        f += weight * squares;
        for (std::size_t k = 0; k < 4; ++k) {
          g[k] += Scalar(2) * weight * slope[k];
          if (slope[k] != Scalar(0)) {
            d.H(static_cast<Eigen::Index>(k), static_cast<Eigen::Index>(k)) += Scalar(2) * weight;
            D[k] += Scalar(2) * weight;
          }
        }
      } else {
        f += jump_cost;
      }
    }
    for (std::size_t k = 0; k < 4; ++k) {
      d.g[static_cast<Eigen::Index>(k)] = g[k];
      d.damping[static_cast<Eigen::Index>(k)] = D[k];
    }
    return f;
  };
  // The local minimum of the cost from a start, within the limit box (the bounded
  // Levenberg-Marquardt search the leg fit uses too; converges in a few steps): from the
  // previous frame's solution it moves continuously with the input, so a discrete candidate
  // replaces it only when clearly better.
  auto refine = [&](const ArmAngles& start) {
    Vec4 y, lo, hi;
    for (std::size_t k = 0; k < 4; ++k) {
      const auto i = static_cast<Eigen::Index>(k);
      y[i] = start[k];
      lo[i] = canonical_lower_[static_cast<std::size_t>(joints[k])];
      hi[i] = canonical_upper_[static_cast<std::size_t>(joints[k])];
    }
    ArmDerivatives now;
    const Scalar f = costAndDerivatives(y, now);
    (void)internal::boundedNewtonSearch<Scalar, 4>(y, f, now, lo, hi, {true, true, true, true}, 30, costAndDerivatives,
                                                   internal::choleskyStep<Scalar, 4>);
    return ArmAngles{y[0], y[1], y[2], y[3]};
  };
  if (continuous) add(refine(clamp(continued(previous_arm_[side]))));
  std::size_t best = 0, nearest = 0;
  Scalar best_cost = std::numeric_limits<Scalar>::infinity(), nearest_step = best_cost;
  for (std::size_t c = 0; c < n; ++c) {
    const Scalar largest = continuous ? stepOf(candidates[c]).first : Scalar(0);
    const Scalar candidate_cost = cost(candidates[c]);
    if (candidate_cost < best_cost) {
      best_cost = candidate_cost;
      best = c;
    }
    if (largest < nearest_step) {
      nearest_step = largest;
      nearest = c;
    }
  }
  Status status;
  if (continuous && best != nearest && stepOf(candidates[best]).first > static_cast<Scalar>(options_.discontinuity_step)) {
    status |= StatusCode::kDiscontinuity;
  }
  // What the human showed, for the clamp report: nothing was lost when the chosen solution
  // points both links within the clamp tolerance of the human's (an equivalent solution, e.g.
  // the yaw traded into the pitch at the shoulder singularity); otherwise the exact solution,
  // its yaw in the representation nearest what is written.
  const auto [u, l] = directions(candidates[best]);
  using std::acos;
  const Scalar tolerance = static_cast<Scalar>(options_.clamp_tolerance);
  if (acos(std::min(Scalar(1), u.dot(u_T))) <= tolerance && acos(std::min(Scalar(1), l.dot(l_T))) <= tolerance) {
    for (std::size_t k = 0; k < 4; ++k) wanted_virtual_[static_cast<std::size_t>(joints[k])] = candidates[best][k];
  } else {
    // Pitch and yaw are angles on a circle: take the exact value's turn nearest the written one.
    for (const std::size_t k : {std::size_t(0), std::size_t(2)}) {
      wanted_virtual_[static_cast<std::size_t>(joints[k])] = near(exact[k], candidates[best][k]);
    }
  }
  write(candidates[best]);
  return status;
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

  // Hip (Eqs. 15-20): t in the lower torso frame L; HipRoll is the mother joint (axis x).
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
  const std::optional<V3> b_L = unitIn(frame, *R_WL, knee, ankle);  // the tibia in L, for the branch choice too
  if (b_L) {
    const V3 n = t->cross(*b_L);
    const Scalar n_norm = n.norm();
    const Scalar weight = n_norm > Scalar(kGaLvvjKneeAxisThreshold) ? (n_norm - Scalar(kGaLvvjKneeAxisThreshold)) / n_norm : Scalar(0);
    axis_y += weight * n[1];
    axis_z += weight * n[2];
  }
  const Scalar axis_norm = internal::planarNorm(axis_y, axis_z);
  M3 R_x;  // R_x(HipRoll), from the axis itself when it is defined
  if (axis_norm > tol) {
    angle(hr) = atan2(axis_z, axis_y);
    R_x = rotationX(axis_y / axis_norm, axis_z / axis_norm);
  } else {
    undefined(hr);  // horizontal thigh, straight knee: any roll fits
    R_x = rotationX(angle(hr));
  }
  // HipPitch: the thigh projected on the plane normal to the (rolled) pitch axis.
  const V3 t_R = R_x.transpose() * *t;
  angle(hp) = atan2(-t_R[0], -t_R[2]);
  const Scalar t_norm = internal::planarNorm(t_R[0], t_R[2]);

  // Knee (Eqs. 21-23): b in the thigh frame Th = L R_x(HR) R_y(HP), projected on its x-z plane.
  const M3 R_y = t_norm > Scalar(0.5) ? rotationY(-t_R[2] / t_norm, -t_R[0] / t_norm) : rotationY(angle(hp));
  const M3 R_WTh = *R_WL * R_x * R_y;
  const std::optional<V3> b = unitIn(frame, R_WTh, knee, ankle);
  if (!b) {
    hold(kp);
    chooseLegBranch(*t, std::nullopt, left);
    return;
  }
  if (internal::planarNorm((*b)[0], (*b)[2]) <= tol) {
    undefined(kp);  // tibia along the knee axis
    return;
  }
  angle(kp) = atan2(-(*b)[0], -(*b)[2]);
  chooseLegBranch(*t, b_L, left);
}

template <typename Scalar>
void GaLvvjMapper<Scalar>::chooseLegBranch(const V3& t, const std::optional<V3>& b, bool left) {
  using J = GaLvvjJoint;
  const std::array<J, 3> leg = left ? std::array<J, 3>{J::kLHipRoll, J::kLHipPitch, J::kLKneePitch}
                                    : std::array<J, 3>{J::kRHipRoll, J::kRHipPitch, J::kRKneePitch};
  const auto side = static_cast<std::size_t>(left ? 0 : 1);
  // The legs' second solution: the pitch axis reversed, R_x(HR + pi) R_y(pi - HP) e = R_x(HR) R_y(HP) e
  // for every pitch, so (HR + pi, pi - HP, -KP) points the thigh and tibia the same. Within the
  // limits the analytic one is exact and stays; when the human's leg is beyond them (a thigh
  // raised above the horizontal, where x_L x t reverses, or a tracker's phantom leg) the two
  // clamp differently, and the one that points the thigh and the tibia better once clamped (the
  // sum of their direction errors, what the leg fit then minimises) is taken.
  const std::array<Scalar, 3> first = {angle(leg[0]), angle(leg[1]), angle(leg[2])};
  // A held knee keeps its value in both (only the thigh is compared).
  const std::array<Scalar, 3> second = {internal::wrapAngle(first[0] + kPi<Scalar>),
                                        internal::wrapAngle(kPi<Scalar> - first[1]), b ? -first[2] : first[2]};
  const auto clamped = [&](const std::array<Scalar, 3>& y, std::size_t k) { return clampCanonical(leg[k], y[k]); };
  const auto error = [&](const std::array<Scalar, 3>& y) {
    using std::cos;
    using std::sin;
    const Scalar r = clamped(y, 0), p = clamped(y, 1), k = clamped(y, 2);
    const M3 R_x = rotationX(r);
    const V3 thigh = R_x * V3(-sin(p), Scalar(0), -cos(p));
    const V3 tibia = R_x * V3(-sin(p + k), Scalar(0), -cos(p + k));
    return Scalar(2) - thigh.dot(t) - (b ? tibia.dot(*b) : Scalar(1));
  };
  // Only a first solution beyond the limits is ever replaced (within them it is the method's
  // own, exact where the tibia lies in the knee plane); a small margin keeps sensor noise from
  // toggling between two equally poor solutions.
  const bool first_within = clamped(first, 0) == first[0] && clamped(first, 1) == first[1] &&
                            (!b || clamped(first, 2) == first[2]);
  const Scalar margin = Scalar(0.02);
  const bool flip = !first_within && error(second) + (leg_flipped_[side] ? Scalar(0) : margin) <
                                         error(first) + (leg_flipped_[side] ? margin : Scalar(0));
  if (flip) {
    for (std::size_t k = 0; k < 3; ++k) angle(leg[k]) = second[k];
  }
  if (flip != leg_flipped_[side] && has_previous_leg_[side]) {
    // A change of solution is a jump of the written angles unless both clamp to the same pose.
    Scalar largest = Scalar(0);
    for (std::size_t k = 0; k < 3; ++k) largest = std::max(largest, std::abs(clamped(first, k) - clamped(second, k)));
    if (largest > static_cast<Scalar>(options_.discontinuity_step)) arm_status_ |= StatusCode::kDiscontinuity;
  }
  leg_flipped_[side] = flip;
  has_previous_leg_[side] = true;
}

template <typename Scalar>
void GaLvvjMapper<Scalar>::mapHipYawPitch(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WL_left,
                                          const std::optional<M3>& R_WL_right) {
  using H = HumanJoint;
  using std::atan2;
  // Knee bend (rad) over which a leg's knee plane goes from ignored to fully trusted.
  const Scalar bend_start = Scalar(20) * kPi<Scalar> / Scalar(180), bend_full = Scalar(45) * kPi<Scalar> / Scalar(180);
  const auto h = static_cast<Scalar>(options_.hip_yaw_pitch);
  Scalar weighted = Scalar(0), weights = Scalar(0);
  for (const bool left : {true, false}) {
    const auto& R_WL = left ? R_WL_left : R_WL_right;
    if (!R_WL) continue;
    const auto t = unitIn(frame, *R_WL, left ? H::kHipLeft : H::kHipRight, left ? H::kKneeLeft : H::kKneeRight);
    const auto b = unitIn(frame, *R_WL, left ? H::kKneeLeft : H::kKneeRight, left ? H::kAnkleLeft : H::kAnkleRight);
    if (!t || !b) continue;
    const V3 n = t->cross(*b);
    const Scalar bend = atan2(n.norm(), t->dot(*b));
    const Scalar w = std::min(Scalar(1), std::max(Scalar(0), (bend - bend_start) / (bend_full - bend_start)));
    if (!(w > Scalar(0))) continue;
    Scalar a = atan2(n[0], hipYawPitchAxis(left).cross(n)[0]);
    if (a > kPi<Scalar> / 2) a -= kPi<Scalar>;
    if (a <= -kPi<Scalar> / 2) a += kPi<Scalar>;
    weighted += w * (a - h);
    weights += w;
  }
  // Straight knees (standing) give h; the blend is continuous as a knee bends.
  angle(GaLvvjJoint::kLHipYawPitch) = h + weighted / std::max(Scalar(1), weights);
  knee_weight_ = weights;
}

/// Leg fit (see the GA-LVVJ file doc, "Leg fit"): prior weight of every leg joint (1/rad^2, in
/// units of squared unit-vector distance, about rad^2 of link direction).
inline constexpr double kGaLvvjLegFitPrior = 0.25;
/// Leg fit: scale of the robust loss (unit-vector distance, about rad): a link further than this
/// from every pose the other links allow counts less and less (Cauchy loss).
inline constexpr double kGaLvvjLegFitOutlierScale = 0.35;
/// Leg fit: prior weight of HipYawPitch once the knees are bent (1/rad^2). It is this plus
/// (1 - w) / w, with w the kFromKnees knee weight: infinite (HipYawPitch not free) while neither
/// knee is bent, released continuously as a knee bends. Low, because two bent knees define
/// HipYawPitch well, and one knee glitching straight for a frame (Keraal ELK frame 125) turns
/// the analytic value by 1.5 rad while the thighs still say where the hips point.
inline constexpr double kGaLvvjLegFitHipYawPitchPrior = 0.01;

template <typename Scalar>
void GaLvvjMapper<Scalar>::fitLegs(const SkeletonFrame<Scalar>& frame, const std::optional<M3>& R_WL_left,
                                   const std::optional<M3>& R_WL_right) {
  using J = GaLvvjJoint;
  using H = HumanJoint;
  constexpr int kVars = 7;  // HipYawPitch, then HipRoll, HipPitch, KneePitch of the left and right legs
  using Vec = Eigen::Matrix<Scalar, kVars, 1>;
  using Mat = Eigen::Matrix<Scalar, kVars, kVars>;
  static constexpr std::array<J, kVars> joints = {J::kLHipYawPitch, J::kLHipRoll,  J::kLHipPitch, J::kLKneePitch,
                                                  J::kRHipRoll,     J::kRHipPitch, J::kRKneePitch};
  auto is_held = [&](J j) { return held_virtual_[static_cast<std::size_t>(j)]; };
  // The human's unit thigh t and tibia b of each side in that side's lower torso frame L.
  // A side's thigh takes part when its hip joints are mapped this frame, its tibia when the knee
  // is too (a held knee, e.g. an inferred ankle, leaves the thigh in: HipYawPitch moves both
  // legs, so a leg left out would be turned away from its thigh by the other leg's fit).
  std::array<V3, 2> t, b;
  std::array<bool, 2> use{}, use_tibia{};
  for (std::size_t side = 0; side < 2; ++side) {
    const bool left = side == 0;
    const auto& R_WL = left ? R_WL_left : R_WL_right;
    bool ok = static_cast<bool>(R_WL);
    for (int k = 1; k <= 2; ++k) {
      const J j = joints[static_cast<std::size_t>(3 * static_cast<int>(side) + k)];
      ok = ok && bound(j) && !is_held(j);
    }
    if (!ok) continue;
    const auto thigh = unitIn(frame, *R_WL, left ? H::kHipLeft : H::kHipRight, left ? H::kKneeLeft : H::kKneeRight);
    if (!thigh) continue;
    t[side] = *thigh;
    use[side] = true;
    const J knee = joints[static_cast<std::size_t>(3 * static_cast<int>(side) + 3)];
    const auto tibia = unitIn(frame, *R_WL, left ? H::kKneeLeft : H::kKneeRight, left ? H::kAnkleLeft : H::kAnkleRight);
    if (!tibia || !bound(knee) || is_held(knee)) continue;
    b[side] = *tibia;
    use_tibia[side] = true;
  }
  if (!use[0] && !use[1]) return;
  // Free variables, bounds, the anchor y0 (analytic, clamped) and the prior weights.
  Vec y0, lo, hi, prior;
  std::array<bool, kVars> free{};
  for (std::size_t k = 0; k < kVars; ++k) {
    y0[static_cast<Eigen::Index>(k)] = clampCanonical(joints[k], angle(joints[k]));
    lo[static_cast<Eigen::Index>(k)] = canonical_lower_[static_cast<std::size_t>(joints[k])];
    hi[static_cast<Eigen::Index>(k)] = canonical_upper_[static_cast<std::size_t>(joints[k])];
    prior[static_cast<Eigen::Index>(k)] = Scalar(kGaLvvjLegFitPrior);
    free[k] = k == 0 ? use[0] || use[1] : ((k - 1) % 3 == 2 ? use_tibia[(k - 1) / 3] : use[(k - 1) / 3]);
  }
  const Scalar knee_w = std::min(Scalar(1), knee_weight_);
  free[0] = free[0] && bound(J::kLHipYawPitch) && !is_held(J::kLHipYawPitch) && knee_w > Scalar(0) &&
            options_.hip_yaw_pitch_mode == GaLvvjOptions::HipYawPitchMode::kFromKnees;
  if (free[0]) prior[0] = Scalar(kGaLvvjLegFitHipYawPitchPrior) + (Scalar(1) - knee_w) / knee_w;
  // The robust cost at y: each link's squared distance s enters as c^2 log(1 + s / c^2)
  // (Cauchy), so a link that no pose near the others can match (a glitched tibia) stops pulling
  // on them; plus the priors. When asked, also half its gradient g and half its Hessian H
  // (Newton: exact second derivatives, so the fit converges quadratically), and `damping`, the
  // diagonal of the Gauss-Newton Hessian (positive), which scales the Levenberg-Marquardt term.
  // Derivatives: each link d = A X R_y(...) e turns about the joints' axes in L, a_0 = the hip
  // yaw-pitch axis, a_1 = A x (HipRoll), a_2 = A X y (HipPitch, and KneePitch for the tibia);
  // dd/dy_i = a_i x d and, for i before j along the chain, d2d/dy_i dy_j = a_i x (a_j x d). With
  // r = d - target, w = rho'(s) = 1 / (1 + s / c^2) and rho'' = -w^2 / c^2, a link adds
  // w (r . J_i) to g_i and w (J_i . J_j + r . (a_i x J_j)) + 2 rho'' (r . J_i)(r . J_j) to H_ij.
  const V3 e(Scalar(0), Scalar(0), Scalar(-1));
  const Scalar c2 = Scalar(kGaLvvjLegFitOutlierScale * kGaLvvjLegFitOutlierScale);
  using Derivatives = internal::LmDerivatives<Scalar, kVars>;
  // The pose of the four links at y, kept so that the derivatives reuse it: for each side, the
  // axes a_0, a_1, a_2 in L and, per link (thigh, tibia), its direction d and residual r.
  struct LegPose {
    std::array<V3, 3> axes;
    std::array<V3, 2> d, r;
    std::array<Scalar, 2> s;  // |r|^2
  };
  using LegPoses = std::array<LegPose, 2>;
  auto forward = [&](const Vec& y, LegPoses& pose) {
    const Vec from_anchor = y - y0;
    Scalar total = (prior.array() * from_anchor.array().square()).sum();
    using std::cos;
    using std::sin;
    using std::log1p;
    const Scalar cos_hyp = cos(y[0]), sin_hyp = sin(y[0]);
    for (std::size_t side = 0; side < 2; ++side) {
      if (!use[side]) continue;
      const auto c = static_cast<Eigen::Index>(1 + 3 * side);
      const V3 axis = hipYawPitchAxis(side == 0);
      // A = R_axis(HYP) (Rodrigues), AX = A R_x(HR); the links A X R_y(HP) e and A X R_y(HP + KP) e.
      M3 A = (Scalar(1) - cos_hyp) * axis * axis.transpose();
      A.diagonal().array() += cos_hyp;
      A += sin_hyp * (M3() << Scalar(0), -axis[2], axis[1], axis[2], Scalar(0), -axis[0], -axis[1], axis[0], Scalar(0))
                          .finished();
      const M3 AX = A * rotationX(y[c]);
      LegPose& p = pose[side];
      p.axes = {axis, V3(A.col(0)), V3(AX.col(1))};
      for (std::size_t link = 0; link < (use_tibia[side] ? 2u : 1u); ++link) {  // thigh, tibia
        const Scalar pitch = link == 0 ? y[c + 1] : y[c + 1] + y[c + 2];
        p.d[link] = AX * V3(-sin(pitch), Scalar(0), -cos(pitch));
        p.r[link] = p.d[link] - (link == 0 ? t[side] : b[side]);
        p.s[link] = p.r[link].squaredNorm();
        total += c2 * log1p(p.s[link] / c2);
      }
    }
    return total;
  };
  auto derive = [&](const Vec& y, const LegPoses& pose, Derivatives& derivatives) {
    derivatives.g = (prior.array() * (y - y0).array()).matrix();
    derivatives.H = prior.asDiagonal();
    derivatives.damping = prior;
    for (std::size_t side = 0; side < 2; ++side) {
      if (!use[side]) continue;
      const auto c = static_cast<Eigen::Index>(1 + 3 * side);
      const LegPose& p = pose[side];
      // Joint k of a link turns about axes[axis_of[k]] and is variable index[k] (thigh: the
      // first 3, tibia: all 4; HipPitch and KneePitch share the pitch axis).
      const std::array<std::size_t, 4> axis_of = {0, 1, 2, 2};
      const std::array<Eigen::Index, 4> index = {0, c, c + 1, c + 2};
      for (std::size_t link = 0; link < (use_tibia[side] ? 2u : 1u); ++link) {
        const V3& d = p.d[link];
        const V3& r = p.r[link];
        const Scalar w = Scalar(1) / (Scalar(1) + p.s[link] / c2);
        const Scalar curvature = Scalar(-2) * w * w / c2;  // 2 rho''
        const std::size_t n = link == 0 ? 3 : 4;
        std::array<V3, 4> jacobian;
        std::array<Scalar, 4> r_dot_jacobian{};
        for (std::size_t k = 0; k < n; ++k) {
          jacobian[k] = p.axes[axis_of[k]].cross(d);
          r_dot_jacobian[k] = r.dot(jacobian[k]);
          derivatives.g[index[k]] += w * r_dot_jacobian[k];
          derivatives.damping[index[k]] += w * jacobian[k].squaredNorm();
        }
        for (std::size_t i = 0; i < n; ++i) {
          for (std::size_t j = i; j < n; ++j) {
            const Scalar h = w * (jacobian[i].dot(jacobian[j]) + r.dot(p.axes[axis_of[i]].cross(jacobian[j]))) +
                             curvature * r_dot_jacobian[i] * r_dot_jacobian[j];
            derivatives.H(index[i], index[j]) += h;
            if (j != i) derivatives.H(index[j], index[i]) += h;
          }
        }
      }
    }
  };
  auto evaluate = [&](const Vec& y, Derivatives& derivatives) {
    LegPoses pose;
    const Scalar total = forward(y, pose);
    derive(y, pose, derivatives);
    return total;
  };
  // The damped Hessian is zero between the two legs (a link moves HipYawPitch and its own leg's
  // joints only): solved through the Schur complement of HipYawPitch, two 3x3 Cholesky
  // factorisations in place of one 7x7. It is positive definite exactly when both leg blocks and
  // the complement are.
  auto solve = [](const Mat& A, const Vec& g, Vec& step) {
    M3 left = A.template block<3, 3>(1, 1), right = A.template block<3, 3>(4, 4);
    if (!internal::choleskyFactorInPlace(left) || !internal::choleskyFactorInPlace(right)) return false;
    const V3 coupling_left = A.template block<3, 1>(1, 0), coupling_right = A.template block<3, 1>(4, 0);
    V3 w_left = coupling_left, w_right = coupling_right;
    internal::choleskySolveInPlace(left, w_left);
    internal::choleskySolveInPlace(right, w_right);
    const Scalar schur = A(0, 0) - coupling_left.dot(w_left) - coupling_right.dot(w_right);
    if (!(schur > Scalar(0))) return false;
    V3 z_left = -g.template segment<3>(1), z_right = -g.template segment<3>(4);
    internal::choleskySolveInPlace(left, z_left);
    internal::choleskySolveInPlace(right, z_right);
    step[0] = (-g[0] - coupling_left.dot(z_left) - coupling_right.dot(z_right)) / schur;
    step.template segment<3>(1) = z_left - w_left * step[0];
    step.template segment<3>(4) = z_right - w_right * step[0];
    return true;
  };
  Vec y = y0;
  LegPoses pose;
  const Scalar cost = forward(y, pose);
  if (!(cost > Scalar(1e-20))) return;  // exact (a robot pose): nothing to trade
  Derivatives now;
  derive(y, pose, now);
  (void)internal::boundedNewtonSearch<Scalar, kVars>(y, cost, now, lo, hi, free, 50, evaluate, solve);
  for (std::size_t k = 0; k < kVars; ++k) {
    if (free[k]) angle(joints[k]) = y[static_cast<Eigen::Index>(k)];
  }
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
  if (!h) {
    hold(J::kHeadPitch);
    return;
  }
  if (internal::planarNorm((*h)[0], (*h)[2]) <= static_cast<Scalar>(options_.singular_tolerance)) {
    undefined(J::kHeadPitch);  // Neck->Head along the shoulder line
    return;
  }
  using std::atan2;
  angle(J::kHeadPitch) = atan2((*h)[0], (*h)[2]);
}

template <typename Scalar>
Status GaLvvjMapper<Scalar>::map(const SkeletonFrame<Scalar>& input, Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  if (q_out.size() != model_->nq()) return StatusCode::kInvalidInput;
  using J = GaLvvjJoint;
  held_virtual_.fill(false);
  singular_virtual_.fill(false);
  arm_status_ = Status();
  // The inferred-joints policy works on a copy, made only when it changes something.
  const bool inferred = changedByInferredPolicy(input, options_.inferred_joints);
  if (inferred) {
    frame_ = input;
    applyInferredPolicy(frame_, options_.inferred_joints);
  }
  const SkeletonFrame<Scalar>& frame = inferred ? frame_ : input;

  // The four torso parts (Section 3.2) and the central upper torso frame for the head.
  TorsoFrames<Scalar> R_W = torsoFrames(frame);
  if (options_.trunk_lean) leanTorsoFrames(frame, R_W);

  mapArm(frame, R_W.upper_left, true);
  mapArm(frame, R_W.upper_right, false);
  std::optional<M3> R_W_hip_left = R_W.lower_left, R_W_hip_right = R_W.lower_right;
  if (options_.hip_yaw_pitch_mode == GaLvvjOptions::HipYawPitchMode::kFromKnees) {
    mapHipYawPitch(frame, R_W.lower_left, R_W.lower_right);
  } else {
    angle(J::kLHipYawPitch) = static_cast<Scalar>(options_.hip_yaw_pitch);
    knee_weight_ = Scalar(0);
  }
  if (angle(J::kLHipYawPitch) != Scalar(0)) {
    if (R_W_hip_left) *R_W_hip_left = *R_W_hip_left * rotation(angle(J::kLHipYawPitch), hipYawPitchAxis(true));
    if (R_W_hip_right) *R_W_hip_right = *R_W_hip_right * rotation(angle(J::kLHipYawPitch), hipYawPitchAxis(false));
  }
  mapLeg(frame, R_W_hip_left, true);
  mapLeg(frame, R_W_hip_right, false);
  // The analytic legs are what the method wanted (the clamp report); the fit trades them.
  for (const J j : {J::kLHipYawPitch, J::kLHipRoll, J::kLHipPitch, J::kLKneePitch, J::kRHipRoll, J::kRHipPitch,
                    J::kRKneePitch}) {
    wanted_virtual_[static_cast<std::size_t>(j)] = angle(j);
  }
  if (options_.leg_fit) fitLegs(frame, R_W.lower_left, R_W.lower_right);
  mapHead(frame, R_W.upper);
  mapHand(frame.left_hand, J::kLHand);
  mapHand(frame.right_hand, J::kRHand);

  // Robot values: rest, then every bound virtual joint, clamping (Section 3.2, last paragraph).
  q_out = rest_;
  wanted_ = rest_;
  held_.setConstant(false);
  singular_.setConstant(false);
  Status status = arm_status_;
  for (int i = 0; i < kGaLvvjJointCount; ++i) {
    const auto& b = bindings_[static_cast<std::size_t>(i)];
    const auto v = static_cast<std::size_t>(i);
    if (b.q < 0) continue;
    const Scalar sign = static_cast<Scalar>(b.sign), offset = static_cast<Scalar>(b.offset);
    q_out[b.q] = sign * angle_[v] + offset;
    // Arms: the exact solution (chooseArm may have traded or clamped it); legs: the analytic
    // solution (the leg fit may have traded it); others: the value.
    const bool arm = i >= static_cast<int>(J::kLShoulderPitch) && i <= static_cast<int>(J::kRElbowRoll) &&
                     i != static_cast<int>(J::kLHand);
    const bool leg = i >= static_cast<int>(J::kLHipYawPitch) && i <= static_cast<int>(J::kRKneePitch);
    const bool traded = (arm && options_.limit_aware_shoulder) || (leg && options_.leg_fit);
    wanted_[b.q] = (traded && !held_virtual_[v]) ? sign * wanted_virtual_[v] + offset : q_out[b.q];
    held_[b.q] = held_virtual_[v];
    singular_[b.q] = singular_virtual_[v];
    if (held_virtual_[v]) status |= StatusCode::kDegenerateInput;
  }
  if (options_.trunk_lean) status |= mapAnkles(q_out);
  (void)clampToLimits(*model_, q_out, &clamped_);
  // Reported clamps: on a limit, and further from the wanted value than the tolerance.
  const Scalar tolerance = static_cast<Scalar>(options_.clamp_tolerance);
  for (int i = 0; i < model_->nq(); ++i) {
    const bool on_limit = q_out[i] == model_->lowerLimits()[i] || q_out[i] == model_->upperLimits()[i];
    using std::abs;
    if (held_[i]) wanted_[i] = q_out[i];  // a held value is not a clamp
    clamped_[i] = on_limit && abs(wanted_[i] - q_out[i]) > tolerance;
    if (clamped_[i]) status |= StatusCode::kClamped;
  }
  return status;
}

template <typename Scalar>
void GaLvvjMapper<Scalar>::leanTorsoFrames(const SkeletonFrame<Scalar>& frame, TorsoFrames<Scalar>& R_W) {
  using H = HumanJoint;
  if (frame.usable(H::kSpineBase) && frame.usable(H::kSpineShoulder)) {
    const V3 trunk = frame.position(H::kSpineShoulder) - frame.position(H::kSpineBase);
    if (trunk.squaredNorm() > Scalar(0)) {
      for (std::optional<M3>* R_WF : {&R_W.upper_left, &R_W.upper_right, &R_W.lower_left, &R_W.lower_right, &R_W.upper}) {
        if (*R_WF) **R_WF = rotationBetween<Scalar>((*R_WF)->col(2), trunk) * **R_WF;
      }
    }
  }
  if (forced_up_ != nullptr) {
    // The robot's own tilt for the arms and head: F' = R F, R taking F n (the normal placed in
    // F) onto the vertical, so that F'^T z = n.
    for (std::optional<M3>* R_WF : {&R_W.upper_left, &R_W.upper_right, &R_W.upper}) {
      if (*R_WF) **R_WF = rotationBetween<Scalar>(V3(**R_WF * *forced_up_), V3::UnitZ()) * **R_WF;
    }
  }
  // The ground normal (the skeleton's +z) in each turned lower torso frame: its third row.
  ground_up_[0] = R_W.lower_left ? std::optional<V3>(R_W.lower_left->row(2).transpose()) : std::nullopt;
  ground_up_[1] = R_W.lower_right ? std::optional<V3>(R_W.lower_right->row(2).transpose()) : std::nullopt;
}

template <typename Scalar>
Status GaLvvjMapper<Scalar>::mapAnkles(Eigen::Ref<VectorX<Scalar>> q_out) {
  // The soles at zero ankle angles on the mapped legs (within their limits, as they are written).
  for (const AnkleChain& a : ankles_) q_out[a.pitch_q] = q_out[a.roll_q] = Scalar(0);
  (void)clampToLimits(*model_, q_out);
  forwardKinematics(*model_, *fk_, q_out);
  Status status;
  for (std::size_t side = 0; side < 2; ++side) {
    const AnkleChain& a = ankles_[side];
    if (ground_up_[side]) {
      const AnkleAxes axes = ankleAxes(a);
      const V3 C = axes.B.cross(axes.A);
      // n0 = +-(B x A) (checked at construction): reach n with the sole's z.
      const V3 n = axes.n0.dot(C) >= Scalar(0) ? *ground_up_[side] : V3(-*ground_up_[side]);
      using std::asin;
      using std::atan2;
      ankle_angle_[side] = {atan2(n.dot(axes.B), n.dot(C)),
                            -asin(std::min(Scalar(1), std::max(Scalar(-1), n.dot(axes.A))))};
    } else {
      held_[a.pitch_q] = held_[a.roll_q] = true;  // no pelvis frame: the ankles keep their values
      status |= StatusCode::kDegenerateInput;
    }
    q_out[a.pitch_q] = wanted_[a.pitch_q] = ankle_angle_[side][0];
    q_out[a.roll_q] = wanted_[a.roll_q] = ankle_angle_[side][1];
  }
  return status;
}

template <typename Scalar>
void GaLvvjMapper<Scalar>::resolveFeet(const GaLvvjMap& map) {
  fk_.emplace(*model_);
  const auto& joints = model_->joints();
  const std::array<const GaLvvjFoot*, 2> feet = {&map.foot_left, &map.foot_right};
  VectorX<Scalar> q = rest_;
  for (std::size_t side = 0; side < 2; ++side) {
    const GaLvvjFoot& f = *feet[side];
    AnkleChain& a = ankles_[side];
    a.pitch_joint = model_->findJoint(f.ankle_pitch);
    a.roll_joint = model_->findJoint(f.ankle_roll);
    a.sole = model_->findLink(f.sole);
    const auto turns = [&](int k) {
      if (k < 0) return false;
      const Joint<Scalar>& joint = joints[static_cast<std::size_t>(k)];
      return joint.q_index >= 0 && (joint.type == JointType::kRevolute || joint.type == JointType::kContinuous);
    };
    const auto carries = [&](int k) {
      const std::vector<int>& support = model_->links()[static_cast<std::size_t>(a.sole)].support;
      return std::find(support.begin(), support.end(), k) != support.end();
    };
    RETARGET_THROW_UNLESS(turns(a.pitch_joint) && turns(a.roll_joint) && a.sole >= 0 && carries(a.pitch_joint) &&
                              carries(a.roll_joint) && a.pitch_joint != a.roll_joint,
                          InvalidArgument, "GaLvvjOptions::trunk_lean needs GaLvvjMap '", map.robot, "' ",
                          side == 0 ? "foot_left" : "foot_right", " (got ankle_pitch '", f.ankle_pitch,
                          "', ankle_roll '", f.ankle_roll, "', sole '", f.sole, "', expected two revolute joints of robot '",
                          model_->name(), "' with coordinates in q and a link they carry)");
    a.pitch_q = joints[static_cast<std::size_t>(a.pitch_joint)].q_index;
    a.roll_q = joints[static_cast<std::size_t>(a.roll_joint)].q_index;
    q[a.pitch_q] = q[a.roll_q] = Scalar(0);
  }
  // The closed form needs the pitch axis, the roll axis and the sole normal orthogonal at zero
  // ankle angles (independent of the legs above them).
  forwardKinematics(*model_, *fk_, q);
  for (std::size_t side = 0; side < 2; ++side) {
    const AnkleAxes axes = ankleAxes(ankles_[side]);
    using std::abs;
    const Scalar tol = Scalar(1e-4);
    RETARGET_THROW_UNLESS(abs(axes.A.dot(axes.B)) < tol && abs(axes.n0.dot(axes.A)) < tol &&
                              abs(axes.n0.dot(axes.B)) < tol,
                          InvalidArgument,
                          "GaLvvjOptions::trunk_lean: GaLvvjMap '", map.robot, "' ",
                          side == 0 ? "foot_left" : "foot_right", " (got ankle axes and a sole z that are not ",
                          "orthogonal at zero ankle angles, expected the pitch axis, the roll axis and the sole's z ",
                          "orthogonal)");
  }
}

template <typename ScalarType>
GaLvvjMapper<ScalarType>::GaLvvjMapper(const RobotModel<Scalar>& model, GaLvvjMap map, GaLvvjOptions options)
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
  singular_ = JointFlags::Constant(model.nq(), false);
  wanted_ = rest_;
  if (options_.trunk_lean) resolveFeet(map);
  reset();
}

template <typename ScalarType>
void GaLvvjMapper<ScalarType>::reset() noexcept {
  for (int i = 0; i < kGaLvvjJointCount; ++i) {
    const auto& b = bindings_[static_cast<std::size_t>(i)];
    angle_[static_cast<std::size_t>(i)] =
        b.q >= 0 ? (rest_[b.q] - static_cast<Scalar>(b.offset)) / static_cast<Scalar>(b.sign) : Scalar(0);
  }
  angle_[static_cast<std::size_t>(GaLvvjJoint::kLHipYawPitch)] = static_cast<Scalar>(options_.hip_yaw_pitch);
  if (fk_) {
    for (std::size_t side = 0; side < 2; ++side) ankle_angle_[side] = {rest_[ankles_[side].pitch_q], rest_[ankles_[side].roll_q]};
  }
  wanted_virtual_ = angle_;
  wanted_ = rest_;
  has_previous_arm_ = {false, false};
  leg_flipped_ = {false, false};
  has_previous_leg_ = {false, false};
  clamped_.setConstant(false);
  held_.setConstant(false);
  singular_.setConstant(false);
}

#if RETARGET_DEFINE_MAPPERS

RETARGET_DECL void GaLvvjOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(hip_yaw_pitch), InvalidArgument, "GaLvvjOptions::hip_yaw_pitch (got ",
                        hip_yaw_pitch, ", expected a finite angle in rad)");
  RETARGET_THROW_UNLESS(std::isfinite(singular_tolerance) && singular_tolerance > 0.0 && singular_tolerance <= 0.5,
                        InvalidArgument, "GaLvvjOptions::singular_tolerance (got ", singular_tolerance,
                        ", expected a value in (0, 0.5])");
  for (std::size_t i = 0; i < rest.size(); ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(rest[i]), InvalidArgument, "GaLvvjOptions::rest[", i, "] (got ", rest[i],
                          ", expected a finite value)");
  }
  RETARGET_THROW_UNLESS(std::isfinite(continuity_weight) && continuity_weight >= 0.0, InvalidArgument,
                        "GaLvvjOptions::continuity_weight (got ", continuity_weight, ", expected a finite value >= 0)");
  RETARGET_THROW_UNLESS(jump_cost > 0.0, InvalidArgument, "GaLvvjOptions::jump_cost (got ", jump_cost,
                        ", expected a value > 0, or infinity for no cap)");
  RETARGET_THROW_UNLESS(std::isfinite(continuity_gain) && continuity_gain >= 0.0, InvalidArgument,
                        "GaLvvjOptions::continuity_gain (got ", continuity_gain, ", expected a finite value >= 0)");
  RETARGET_THROW_UNLESS(std::isfinite(discontinuity_step) && discontinuity_step > 0.0, InvalidArgument,
                        "GaLvvjOptions::discontinuity_step (got ", discontinuity_step,
                        ", expected a finite value > 0 in rad)");
  RETARGET_THROW_UNLESS(std::isfinite(clamp_tolerance) && clamp_tolerance >= 0.0, InvalidArgument,
                        "GaLvvjOptions::clamp_tolerance (got ", clamp_tolerance, ", expected a finite value >= 0 in rad)");
  RETARGET_THROW_UNLESS(inferred_joints == InferredJoints::kHold || inferred_joints == InferredJoints::kUse,
                        InvalidArgument, "GaLvvjOptions::inferred_joints (got ", static_cast<int>(inferred_joints),
                        ", expected kHold or kUse)");
}

#endif  // RETARGET_DEFINE_MAPPERS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class GaLvvjMapper<double>;
RETARGET_TEMPLATE_MAPPERS class GaLvvjMapper<float>;
#endif

}  // namespace retarget
