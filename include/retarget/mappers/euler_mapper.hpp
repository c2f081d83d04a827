#pragma once

/// @file
/// The Euler/BVH mapper of paper 002 (Section 4.2): BVH joint Euler angles (any channel
/// order) -> child-in-parent rotations (Eq. 1) -> robot joint angles by case: 3 -> 3 and
/// 3 -> 2 by re-decomposition in the robot's axis order (Eq. 2), 2 -> 1 elbow bend
/// (Eqs. 3-6) and wrist rotation (Eqs. 7-10) or its signed twist variant, and one curl value
/// per finger. The mapping itself is data: `EulerMap` (euler_map.hpp).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/euler_angles.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/euler_map.hpp>
#include <retarget/mappers/internal/branch_choice.hpp>
#include <retarget/mappers/mapper.hpp>

namespace retarget {

/// Options of `EulerMapper`. The method itself has no tuning parameter: everything it needs is
/// robot data (`EulerMap`), and rate limits are a filter composed after it. The aggregate has
/// the shape every mapper shares (mappers/mapper.hpp); its two fields tune the continuity rule.
struct EulerOptions {
  /// Continuity: an Euler solution (branch, turn) that leaves a joint's limits by at most this
  /// (rad, >= 0) is clamped to the limit rather than left for an equivalent solution far from
  /// the previous frame. Beyond it the mapper takes the nearest solution within the limits.
  double jump_margin = 0.25;
  /// A frame on which a joint of a 3 -> 3 / 3 -> 2 group steps by more than its source
  /// rotation turned plus this (rad, > 0) is reported as kDiscontinuity: the limits or the
  /// Euler representation (near its gimbal lock) forced the jump.
  double discontinuity_step = 0.35;

  /// Throws InvalidArgument naming the field and value; called by the constructor.
  void validate() const {
    RETARGET_THROW_UNLESS(std::isfinite(jump_margin) && jump_margin >= 0.0, InvalidArgument,
                          "EulerOptions::jump_margin (got ", jump_margin, ", expected a finite angle >= 0 in rad)");
    RETARGET_THROW_UNLESS(std::isfinite(discontinuity_step) && discontinuity_step > 0.0, InvalidArgument,
                          "EulerOptions::discontinuity_step (got ", discontinuity_step,
                          ", expected a finite angle > 0 in rad)");
  }
};

/// Maps BVH motion frames onto a robot with a data-driven `EulerMap`, in the shape of
/// mappers/mapper.hpp with Input = `BvhChannelValues` (one frame's channel values, file order,
/// file units and degrees).
///
/// Describe once, work per frame: the constructor validates the map against the robot, binds
/// its BVH joint names to the source hierarchy (channel layout, bone offsets; the hierarchy's
/// motion values are not used and the hierarchy is not kept) and allocates everything. `map()`
/// then neither allocates nor throws, always writes a finite joint vector within the (robot and
/// map) limits, and returns a `Status` per frame: kClamped (see `clamped()`), kDegenerateInput
/// when a source rotation was not finite and its robot joints held their last value (see
/// `held()`), kInvalidInput when the channel vector or q_out has the wrong size, kDiscontinuity
/// when a 3 -> 3 / 3 -> 2 group jumped (see `EulerOptions::discontinuity_step`).
///
/// Continuity (docs/methods/euler_bvh.md, "Branches and continuity"): the first frame after
/// construction or reset() takes, per Euler group, the angle triple whose values violate the
/// limits least, each angle on the turn nearest the middle of its limits. Every later frame
/// takes, among both triples (a, b, c) and (a + pi, pi - b, c + pi), or at the gimbal lock
/// among the whole family of triples, the one nearest the previous frame, each value on its
/// turn nearest the previous value within the limits (or clamped, `jump_margin`).
///
/// Invariants: every map source joint exists in the bound hierarchy and every derived link
/// axis has non-zero length; `output()` is finite and within limits.
template <typename ScalarType = double>
class EulerMapper {
 public:
  using Scalar = ScalarType;
  using Input = BvhChannelValues;
  using Map = EulerMap;
  using Options = EulerOptions;

  /// Validates `map` (EulerMap::validate) and `options`, resolves the map's robot joint names
  /// in `model` and its BVH joint names in `hierarchy` (a BVH motion whose frames, if any, are
  /// ignored). Throws InvalidArgument naming the map entry when a robot joint is unknown or has
  /// no coordinate, when the map's limits do not intersect the robot's, when a source joint is
  /// missing from the hierarchy or has no rotation channels, or when a derived link axis has
  /// zero length (coincident joints: give `axis` explicitly).
  EulerMapper(const RobotModel<Scalar>& model, const BvhMotion& hierarchy, EulerMap map, EulerOptions options = {});

  /// A temporary model would dangle: not allowed (see mappers/mapper.hpp, "Lifetime rule").
  EulerMapper(const RobotModel<Scalar>&&, const BvhMotion&, EulerMap, EulerOptions = {}) = delete;

  /// Forgets the temporal state: every mapped joint goes back to its neutral value (clamped
  /// into the map's limits), which it holds until its source gives a finite rotation, and the
  /// next frame chooses its Euler branches as a first frame does.
  void reset() noexcept;

  /// Maps one frame given as its `channel_count` channel values in file order (positions in
  /// file units, rotations in degrees), e.g. `motion.frameValues(f)`, one line of a BVH MOTION
  /// section or one Axis Neuron broadcast frame, into `q_out` (size nq, robot q order, rad).
  /// Eq. 1 in the file's channel order. Never allocates or throws; see the class doc for the
  /// statuses.
  [[nodiscard]] Status map(const BvhChannelValues& values, Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  /// The robot model.
  const RobotModel<Scalar>& model() const noexcept { return *model_; }
  /// The options in use.
  const EulerOptions& options() const noexcept { return options_; }
  /// The map in use.
  const EulerMap& mapping() const noexcept { return map_; }
  /// Per q coordinate: clamped to a limit in the last `map()` call.
  const JointFlags& clamped() const noexcept { return clamped_; }
  /// Per q coordinate: held its last value in the last `map()` call (source not finite).
  const JointFlags& held() const noexcept { return held_; }
  /// Last output (robot q order, rad): finite and within limits.
  const VectorX<Scalar>& output() const noexcept { return last_; }
  /// Last values before clamping (rad): the human's angle for each mapped joint as seen
  /// through the map (the "human trajectory" of Section 4.3). Unmapped joints hold their
  /// neutral value.
  const VectorX<Scalar>& rawOutput() const noexcept { return raw_; }
  /// Same as `rawOutput()`, under the contract's name (mappers/mapper.hpp): the clamp amount of
  /// coordinate i is |wanted()[i] - output()[i]|.
  const VectorX<Scalar>& wanted() const noexcept { return raw_; }
  /// Number of channel values a frame must have (the bound hierarchy's channel count).
  int channelCount() const noexcept { return static_cast<int>(channel_count_); }
  /// Configuration indices of the mapped robot joints, in map-entry order (allocates).
  std::vector<int> mappedJoints() const;
  /// Effective limits of map entry `i` (robot limits intersected with the map's, rad).
  Scalar lowerLimit(int i) const { return entries_[static_cast<std::size_t>(i)].lower; }
  Scalar upperLimit(int i) const { return entries_[static_cast<std::size_t>(i)].upper; }

 private:
  struct Entry {
    int q = -1;
    EulerCase kind = EulerCase::kEuler;
    EulerOrder order{};
    int angle = 0;
    Scalar gain = Scalar(1), offset = Scalar(0), lower = Scalar(0), upper = Scalar(0);
    Scalar centre = Scalar(0);
    Vector3<Scalar> axis = Vector3<Scalar>::Zero();
    Matrix3<Scalar> R_ref_T = Matrix3<Scalar>::Identity();
    std::size_t first_link = 0, link_count = 0;  // links_[first_link, first_link + link_count)
    std::size_t leader = 0;  // kEuler: first entry with the same rotation and order (itself if first)
  };
  struct Source {
    int joint = -1;
    int rotation_count = 0;
    int rotation_axes[3] = {0, 0, 0};
    int rotation_channels[3] = {0, 0, 0};
  };
  struct Link {
    std::size_t source = 0;  // index in sources_
    Vector3<Scalar> u = Vector3<Scalar>::UnitX();  // link axis in the joint frame (unit)
  };

  // Robot side: joint indices, effective limits, gains, reference rotations, Euler groups.
  void resolveRobot(const RobotModel<Scalar>& model);

  // Source side: BVH joints, their rotation channels and the link axes the cases need.
  void bindHierarchy(const BvhMotion& hierarchy);

  // Angle (rad, [0, pi]) between unit vectors a and b.
  static Scalar angleBetween(const Vector3<Scalar>& a, const Vector3<Scalar>& b);

  // Value of entry e for Euler angle x, on the 2*pi branch nearest the middle of its limits.
  static Scalar eulerValue(const Entry& e, Scalar x);

  // A Tait-Bryan rotation has two angle triples: (a, b, c) and (a + pi, pi - b, c + pi). Keep
  // the one whose values for all entries of the leader's group violate the limits least
  // (the principal one on ties), so that e.g. a shoulder raised above 90 deg keeps its branch.
  Vector3<Scalar> chooseEulerBranch(std::size_t leader, const Vector3<Scalar>& principal) const;

  // One candidate angle triple of a group after its first frame: the group's values on their
  // turns nearest the previous frame (within the limits unless clamp_turn).
  struct Candidate {
    Vector3<Scalar> angles = Vector3<Scalar>::Zero();
    bool clamp_turn = false;
    Scalar excess = 0;  // total distance of the values outside their limits (as chooseEulerBranch)
    Scalar step = 0;    // largest step from the previous frame
  };
  Candidate evaluate(std::size_t leader, const Vector3<Scalar>& angles, bool clamp_turn) const;
  // Value of Euler entry e for angle x after the first frame: the turn nearest the previous value.
  Scalar continuousValue(const Entry& e, Scalar x, bool clamp_turn) const;
  // The group's Euler angles for rotation R nearest the previous frame (both triples, or the
  // family at the gimbal lock); sets clamp_turns_[leader]; true when the group jumped.
  bool chooseContinuous(std::size_t leader, const Matrix3<Scalar>& R);

  Status finish(Eigen::Ref<VectorX<Scalar>> q_out) noexcept;

  const RobotModel<Scalar>* model_;
  EulerMap map_;
  EulerOptions options_;
  Eigen::Index nq_ = 0;
  Eigen::Index channel_count_ = 0;
  VectorX<Scalar> neutral_, last_, raw_;
  JointFlags clamped_, held_;
  std::vector<Entry> entries_;
  std::vector<Vector3<Scalar>> euler_angles_;  // chosen Euler angles per group leader
  std::vector<Matrix3<Scalar>> group_rotations_;  // per group leader: its rotation R in the last frame
  std::vector<char> has_previous_;  // per group leader and wrist_twist entry: a previous frame since reset()
  std::vector<char> clamp_turns_;   // per group leader: the chosen candidate clamps its turns
  std::vector<Scalar> twist_previous_;  // per wrist_twist entry: its twist x (rad) in the last frame
  std::vector<Source> sources_;
  std::vector<Link> links_;
  std::vector<Matrix3<Scalar>> rotations_;
  std::vector<char> valid_;
};

template <typename ScalarType>
EulerMapper<ScalarType>::EulerMapper(const RobotModel<Scalar>& model, const BvhMotion& hierarchy, EulerMap map,
                                     EulerOptions options)
    : model_(&model), map_(std::move(map)), options_(std::move(options)) {
  map_.validate();
  options_.validate();
  resolveRobot(model);
  bindHierarchy(hierarchy);
  clamped_ = JointFlags::Constant(model.nq(), false);
  held_ = JointFlags::Constant(model.nq(), false);
  reset();
}

template <typename ScalarType>
void EulerMapper<ScalarType>::reset() noexcept {
  for (const Entry& e : entries_) last_[e.q] = std::clamp(neutral_[e.q], e.lower, e.upper);
  raw_ = last_;
  std::fill(has_previous_.begin(), has_previous_.end(), char(0));
  clamped_.setConstant(false);
  held_.setConstant(false);
}

template <typename ScalarType>
Status EulerMapper<ScalarType>::map(const BvhChannelValues& values, Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  if (q_out.size() != nq_) return StatusCode::kInvalidInput;
  if (values.size() != channel_count_) {
    q_out = last_;
    clamped_.setConstant(false);
    held_.setConstant(false);
    return StatusCode::kInvalidInput;
  }
  constexpr Scalar kDegree = kPi<Scalar> / Scalar(180);
  for (std::size_t s = 0; s < sources_.size(); ++s) {
    const Source& src = sources_[s];
    // Eq. 1 in the file's channel order, as a product of unit quaternions (cheaper than 3x3).
    Quaternion<Scalar> R = Quaternion<Scalar>::Identity();
    bool finite = true;
    for (int c = 0; c < src.rotation_count; ++c) {
      const double value = values[src.rotation_channels[c]];
      finite = finite && std::isfinite(value);
      const Scalar half = Scalar(0.5) * static_cast<Scalar>(value) * kDegree;
      Quaternion<Scalar> axis_rotation(std::cos(half), Scalar(0), Scalar(0), Scalar(0));
      axis_rotation.vec()[src.rotation_axes[c]] = std::sin(half);
      R = R * axis_rotation;
    }
    finite = finite && R.coeffs().allFinite();
    valid_[s] = finite ? 1 : 0;
    if (finite) rotations_[s] = R.toRotationMatrix();
  }
  return finish(q_out);
}

template <typename ScalarType>
std::vector<int> EulerMapper<ScalarType>::mappedJoints() const {
  std::vector<int> out;
  for (const Entry& e : entries_) out.push_back(e.q);
  return out;
}

template <typename ScalarType>
void EulerMapper<ScalarType>::resolveRobot(const RobotModel<Scalar>& model) {
  nq_ = model.nq();
  neutral_ = model.neutralConfiguration();
  last_ = neutral_;
  entries_.reserve(map_.joints.size());
  for (const EulerJointMapping& m : map_.joints) {
    Entry e;
    e.q = model.qIndex(m.robot_joint);
    e.kind = m.kind;
    e.order = m.order;
    e.angle = m.angle;
    e.gain = Scalar(m.sign * m.scale);
    e.offset = Scalar(m.offset);
    e.lower = model.lowerLimits()[e.q];
    e.upper = model.upperLimits()[e.q];
    if (m.lower) e.lower = std::max(e.lower, Scalar(*m.lower));
    if (m.upper) e.upper = std::min(e.upper, Scalar(*m.upper));
    RETARGET_THROW_UNLESS(e.lower <= e.upper, InvalidArgument, "Euler map '", map_.name, "' joint '", m.robot_joint,
                          "': limits [", m.lower.value_or(-INFINITY), ", ", m.upper.value_or(INFINITY),
                          "] do not intersect the robot's [", model.lowerLimits()[e.q], ", ",
                          model.upperLimits()[e.q], "] (expected an overlapping range)");
    // Centre used to pick the 2*pi branch of Euler angles (offset when unbounded).
    e.centre = (std::isfinite(e.lower) && std::isfinite(e.upper)) ? (e.lower + e.upper) / 2 : e.offset;
    e.axis = m.axis.template cast<Scalar>();
    const double reference_angle = m.reference.norm();
    if (reference_angle > 0) {
      const Eigen::Matrix3d R_ref = Eigen::AngleAxisd(reference_angle, m.reference / reference_angle).toRotationMatrix();
      e.R_ref_T = R_ref.transpose().cast<Scalar>();
    }
    // Entries decomposing the same rotation in the same order share one Euler branch choice.
    e.leader = entries_.size();
    for (std::size_t k = 0; k < entries_.size() && m.kind == EulerCase::kEuler; ++k) {
      const EulerJointMapping& other = map_.joints[k];
      if (other.kind == EulerCase::kEuler && other.source == m.source && other.order == m.order &&
          other.reference == m.reference) {
        e.leader = entries_[k].leader;
        break;
      }
    }
    entries_.push_back(e);
  }
  euler_angles_.assign(entries_.size(), Vector3<Scalar>::Zero());
  group_rotations_.assign(entries_.size(), Matrix3<Scalar>::Identity());
  has_previous_.assign(entries_.size(), 0);
  clamp_turns_.assign(entries_.size(), 0);
  twist_previous_.assign(entries_.size(), Scalar(0));
}

template <typename ScalarType>
void EulerMapper<ScalarType>::bindHierarchy(const BvhMotion& hierarchy) {
  channel_count_ = hierarchy.channel_count;
  std::vector<int> source_of_joint(hierarchy.joints.size(), -1);
  auto useJoint = [&](const std::string& name, const std::string& robot_joint) -> int {
    const int j = hierarchy.findJoint(name);
    RETARGET_THROW_UNLESS(j >= 0 && !hierarchy.joints[static_cast<std::size_t>(j)].is_end_site, InvalidArgument,
                          "Euler map '", map_.name, "' joint '", robot_joint, "': source (got BVH joint '", name,
                          "', expected a joint of the BVH hierarchy)");
    if (source_of_joint[static_cast<std::size_t>(j)] < 0) {
      Source s;
      s.joint = j;
      int n = 0;
      const auto& joint = hierarchy.joints[static_cast<std::size_t>(j)];
      for (std::size_t c = 0; c < joint.channels.size(); ++c) {
        if (!isRotation(joint.channels[c]) || n >= 3) continue;
        s.rotation_axes[n] = bvhChannelAxis(joint.channels[c]);
        s.rotation_channels[n] = joint.first_channel + static_cast<int>(c);
        ++n;
      }
      s.rotation_count = n;
      source_of_joint[static_cast<std::size_t>(j)] = static_cast<int>(sources_.size());
      sources_.push_back(s);
    }
    return source_of_joint[static_cast<std::size_t>(j)];
  };
  // The bone from joint j to its first child, in j's frame (file units).
  auto boneOut = [&](int j) -> Vector3<Scalar> {
    for (const BvhJoint& child : hierarchy.joints) {
      if (child.parent == j) return child.offset.template cast<Scalar>();
    }
    return Vector3<Scalar>::Zero();
  };
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const EulerJointMapping& m = map_.joints[i];
    Entry& e = entries_[i];
    e.first_link = links_.size();
    for (std::size_t k = 0; k < m.source.size(); ++k) {
      const std::string& name = m.source[k];
      Link link;
      link.source = static_cast<std::size_t>(useJoint(name, m.robot_joint));  // always >= 0
      const int j = sources_[link.source].joint;
      // Link axes: for a finger every segment, otherwise the last joint of the chain.
      const bool needs_axis =
          e.kind == EulerCase::kFingerCurl || (e.kind != EulerCase::kEuler && k + 1 == m.source.size());
      if (!needs_axis) {
        // no axis needed
      } else if (e.axis.norm() > kDegenerateEpsilon<Scalar> || e.kind == EulerCase::kWristRotation) {
        link.u = e.axis.normalized();
      } else {
        Vector3<Scalar> out = boneOut(j);
        // A zero-length end bone (e.g. the CMU thumbs of the Xia files) falls back to the
        // nearest non-zero bone towards the root: all BVH rest-pose frames are parallel.
        for (int a = j; a >= 0 && !(out.norm() > kDegenerateEpsilon<Scalar>);
             a = hierarchy.joints[static_cast<std::size_t>(a)].parent) {
          out = hierarchy.joints[static_cast<std::size_t>(a)].offset.template cast<Scalar>();
        }
        RETARGET_THROW_UNLESS(out.norm() > kDegenerateEpsilon<Scalar>, InvalidArgument, "Euler map '", map_.name,
                              "' joint '", m.robot_joint, "': cannot derive the link axis of BVH joint '", name,
                              "' (every bone from it to the root has zero length, expected one > 0; set 'axis' "
                              "explicitly)");
        link.u = out.normalized();
      }
      links_.push_back(link);
    }
    e.link_count = m.source.size();
  }
  rotations_.assign(sources_.size(), Matrix3<Scalar>::Identity());
  valid_.assign(sources_.size(), 1);
}

template <typename ScalarType>
auto EulerMapper<ScalarType>::angleBetween(const Vector3<Scalar>& a, const Vector3<Scalar>& b) -> Scalar {
  using std::atan2;
  return atan2(a.cross(b).norm(), a.dot(b));
}

template <typename ScalarType>
auto EulerMapper<ScalarType>::eulerValue(const Entry& e, Scalar x) -> Scalar {
  using std::abs;
  const Scalar period = Scalar(2) * kPi<Scalar> * abs(e.gain);
  return e.centre + std::remainder(e.offset + e.gain * x - e.centre, period);
}

template <typename ScalarType>
auto EulerMapper<ScalarType>::chooseEulerBranch(std::size_t leader, const Vector3<Scalar>& principal) const
    -> Vector3<Scalar> {
  const Vector3<Scalar> other(principal[0] + kPi<Scalar>, kPi<Scalar> - principal[1], principal[2] + kPi<Scalar>);
  Scalar cost_principal = Scalar(0), cost_other = Scalar(0);
  for (std::size_t k = leader; k < entries_.size(); ++k) {
    const Entry& e = entries_[k];
    if (e.kind != EulerCase::kEuler || e.leader != leader) continue;
    const Scalar v1 = eulerValue(e, principal[e.angle]);
    const Scalar v2 = eulerValue(e, other[e.angle]);
    cost_principal += std::max(Scalar(0), e.lower - v1) + std::max(Scalar(0), v1 - e.upper);
    cost_other += std::max(Scalar(0), e.lower - v2) + std::max(Scalar(0), v2 - e.upper);
  }
  return cost_other < cost_principal ? other : principal;
}

template <typename ScalarType>
auto EulerMapper<ScalarType>::continuousValue(const Entry& e, Scalar x, bool clamp_turn) const -> Scalar {
  using std::abs;
  return internal::nearestTurn(e.offset + e.gain * x, last_[e.q], e.lower, e.upper,
                               Scalar(2) * kPi<Scalar> * abs(e.gain), !clamp_turn);
}

template <typename ScalarType>
auto EulerMapper<ScalarType>::evaluate(std::size_t leader, const Vector3<Scalar>& angles, bool clamp_turn) const
    -> Candidate {
  Candidate out;
  out.angles = angles;
  out.clamp_turn = clamp_turn;
  for (std::size_t k = leader; k < entries_.size(); ++k) {
    const Entry& e = entries_[k];
    if (e.kind != EulerCase::kEuler || e.leader != leader) continue;
    const Scalar v = continuousValue(e, angles[e.angle], clamp_turn);
    out.excess += std::max(Scalar(0), e.lower - v) + std::max(Scalar(0), v - e.upper);
    out.step = std::max(out.step, std::abs(std::clamp(v, e.lower, e.upper) - last_[e.q]));
  }
  return out;
}

template <typename ScalarType>
bool EulerMapper<ScalarType>::chooseContinuous(std::size_t leader, const Matrix3<Scalar>& R) {
  using std::cos, std::sqrt;
  const Entry& group = entries_[leader];
  const Vector3<Scalar> principal = rotationToEuler<Scalar>(group.order, R);
  const Vector3<Scalar>& previous = euler_angles_[leader];
  std::array<Vector3<Scalar>, 2> triples{principal, Vector3<Scalar>(principal[0] + kPi<Scalar>, kPi<Scalar> - principal[1],
                                                                     principal[2] + kPi<Scalar>)};
  int triple_count = 2;
  if (std::abs(cos(principal[1])) <= sqrt(std::numeric_limits<Scalar>::epsilon())) {
    // Gimbal lock: R = R_i(a + sigma c) R_j(b), every (a, c) with the same a + sigma c. The one
    // nearest the previous triple shares the change of that sum between the angles the group
    // uses (all of it to the one used, half each when both are).
    const Scalar sigma = Scalar(group.order.parity()) * (principal[1] > 0 ? Scalar(1) : Scalar(-1));
    bool uses[3] = {false, false, false};
    for (std::size_t k = leader; k < entries_.size(); ++k) {
      if (entries_[k].kind == EulerCase::kEuler && entries_[k].leader == leader) uses[entries_[k].angle] = true;
    }
    const Scalar share_a = uses[0] == uses[2] ? Scalar(0.5) : uses[0] ? Scalar(0) : Scalar(1);
    const Scalar change =
        internal::wrapAngle(principal[0] + sigma * principal[2] - (previous[0] + sigma * previous[2]));
    triples[0] = Vector3<Scalar>(previous[0] + share_a * change, principal[1],
                                 previous[2] + sigma * (Scalar(1) - share_a) * change);
    triple_count = 1;
  }
  Candidate best = evaluate(leader, triples[0], false);
  for (int t = 0; t < triple_count; ++t) {
    for (bool clamp_turn : {false, true}) {
      const Candidate c = evaluate(leader, triples[static_cast<std::size_t>(t)], clamp_turn);
      if (internal::nearerBranch(c, best, static_cast<Scalar>(options_.jump_margin))) best = c;
    }
  }
  euler_angles_[leader] = best.angles;
  clamp_turns_[leader] = best.clamp_turn ? 1 : 0;
  // The rotation's own turn since the previous frame bounds the step of a well-posed group.
  const Scalar turn = Eigen::AngleAxis<Scalar>(group_rotations_[leader].transpose() * R).angle();
  return best.step > turn + static_cast<Scalar>(options_.discontinuity_step);
}

template <typename ScalarType>
Status EulerMapper<ScalarType>::finish(Eigen::Ref<VectorX<Scalar>> q_out) noexcept {
  Status status;
  clamped_.setConstant(false);
  held_.setConstant(false);
  for (const Entry& e : entries_) {
    bool ok = true;
    Scalar x = Scalar(0);
    if (e.kind == EulerCase::kFingerCurl) {
      // Mean bend of the finger's segments, each relative to the reference pose.
      for (std::size_t l = 0; l < e.link_count; ++l) {
        const Link& link = links_[e.first_link + l];
        ok = ok && valid_[link.source] != 0;
        if (ok) x += angleBetween(link.u, rotations_[link.source] * e.R_ref_T * link.u);
      }
      x /= Scalar(e.link_count);
    } else {
      // Chain product of the sources' local rotations (parent first), relative to the reference.
      Matrix3<Scalar> R = Matrix3<Scalar>::Identity();
      for (std::size_t l = 0; l < e.link_count; ++l) {
        const Link& link = links_[e.first_link + l];
        ok = ok && valid_[link.source] != 0;
        if (ok) R = R * rotations_[link.source];
      }
      R = R * e.R_ref_T;
      const Vector3<Scalar>& u = links_[e.first_link + e.link_count - 1].u;
      if (!ok) {
        // held below
      } else if (e.kind == EulerCase::kEuler) {
        const auto me = static_cast<std::size_t>(&e - entries_.data());
        if (e.leader == me) {
          if (has_previous_[me] == 0) {
            euler_angles_[me] = chooseEulerBranch(me, rotationToEuler<Scalar>(e.order, R));
          } else if (chooseContinuous(me, R)) {
            status |= StatusCode::kDiscontinuity;
          }
          group_rotations_[me] = R;
        }
        x = euler_angles_[e.leader][e.angle];  // Eq. 2
      } else if (e.kind == EulerCase::kElbowBend) {
        x = kPi<Scalar> - angleBetween(u, R * u);  // Eqs. 5-6
      } else if (e.kind == EulerCase::kWristRotation) {
        x = angleBetween(u, R * u);  // Eqs. 9-10
      } else {
        // Twist about u: the rotation's quaternion projected on u (swing-twist split).
        const Quaternion<Scalar> r(R);
        x = Scalar(2) * std::atan2(r.vec().dot(u), r.w());
        if (x > kPi<Scalar>) x -= Scalar(2) * kPi<Scalar>;
        if (x <= -kPi<Scalar>) x += Scalar(2) * kPi<Scalar>;
      }
    }
    if (!ok || !std::isfinite(x)) {
      held_[e.q] = true;  // hold the previous value
      status |= StatusCode::kDegenerateInput;
      continue;
    }
    // Euler angles are 2*pi periodic: on a first frame eulerValue takes the turn nearest the
    // limits' middle, afterwards the turn nearest the previous value.
    const bool first = has_previous_[e.leader] == 0;
    Scalar value = e.kind != EulerCase::kEuler ? e.offset + e.gain * x
                   : first                      ? eulerValue(e, x)
                                                : continuousValue(e, x, clamp_turns_[e.leader] != 0);
    if (e.kind == EulerCase::kWristTwist) {
      // The twist is 2 pi periodic too: after the first frame, the turn nearest the previous value,
      // so a twist through +-pi goes on (clamped at a limit) rather than across to the other side.
      // A step beyond the twist's own change (it happens half a turn past a limit) is reported.
      const auto me = static_cast<std::size_t>(&e - entries_.data());
      if (!first) {
        using std::abs;
        value = internal::nearestTurn(value, last_[e.q], e.lower, e.upper, Scalar(2) * kPi<Scalar> * abs(e.gain), false);
        const Scalar turned = abs(e.gain) * abs(internal::wrapAngle(x - twist_previous_[me]));
        if (abs(std::clamp(value, e.lower, e.upper) - last_[e.q]) > turned + static_cast<Scalar>(options_.discontinuity_step)) {
          status |= StatusCode::kDiscontinuity;
        }
      }
      twist_previous_[me] = x;
    }
    raw_[e.q] = value;
    const Scalar clamped = std::clamp(value, e.lower, e.upper);
    if (clamped != value) {
      clamped_[e.q] = true;
      status |= StatusCode::kClamped;
    }
    last_[e.q] = clamped;
  }
  // The groups computed this frame have a previous frame from now on (after every entry used
  // the flags of the last one).
  for (std::size_t k = 0; k < entries_.size(); ++k) {
    const bool has_turns = (entries_[k].kind == EulerCase::kEuler && entries_[k].leader == k) ||
                           entries_[k].kind == EulerCase::kWristTwist;
    if (has_turns && !held_[entries_[k].q]) has_previous_[k] = 1;
  }
  q_out = last_;
  return status;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_MAPPERS class EulerMapper<double>;
RETARGET_TEMPLATE_MAPPERS class EulerMapper<float>;
#endif

}  // namespace retarget
