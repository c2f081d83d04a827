#pragma once

/// @file
/// The Euler/BVH mapper of paper 002 (Section 4.2): BVH joint Euler angles (any channel
/// order) -> child-in-parent rotations (Eq. 1) -> robot joint angles by case: 3 -> 3 and
/// 3 -> 2 by re-decomposition in the robot's axis order (Eq. 2), 2 -> 1 elbow bend
/// (Eqs. 3-6) and wrist rotation (Eqs. 7-10) or its signed twist variant, and one curl value
/// per finger. The mapping itself is data: EulerMapperConfig (euler_mapper_config.hpp).

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/euler_angles.hpp>
#include <retarget/mappers/euler_mapper_config.hpp>

namespace retarget {

/// Maps BVH motion frames onto a robot with a data-driven `EulerMapperConfig`.
///
/// Describe once, work per frame: the constructor validates the configuration against the
/// robot; `bind()` resolves BVH joint names against a BVH skeleton (channel layout, bone
/// offsets) and preallocates everything; `map()` then neither allocates nor throws, always
/// writes a finite joint vector within the (robot and configured) limits, and returns a
/// `Status` per frame. Between frames it keeps the previous output for rate limiting and for
/// holding joints whose input is not finite.
///
/// Invariants: after bind(), every configured source joint exists in the bound skeleton and
/// every derived link axis has non-zero length; `output()` is finite and within limits.
template <typename Scalar = double>
class EulerMapper {
 public:
  /// Checks `config` (EulerMapperConfig::validate) and resolves its robot joint names in
  /// `model`. Throws InvalidArgument when a robot joint is unknown or has no coordinate, or
  /// when the configured limits do not intersect the robot's limits.
  EulerMapper(const RobotModel<Scalar>& model, EulerMapperConfig config) : config_(std::move(config)) {
    config_.validate();
    nq_ = model.nq();
    neutral_ = model.neutralConfiguration();
    held_ = neutral_;
    raw_ = neutral_;
    entries_.reserve(config_.joints.size());
    for (const EulerJointMapping& m : config_.joints) {
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
      RETARGET_THROW_UNLESS(e.lower <= e.upper, InvalidArgument, "Euler mapper: joint '", m.robot_joint,
                            "': configured limits [", m.lower.value_or(-INFINITY), ", ", m.upper.value_or(INFINITY),
                            "] do not intersect the robot's [", model.lowerLimits()[e.q], ", ",
                            model.upperLimits()[e.q], "] (expected an overlapping range)");
      e.max_speed = Scalar(m.max_speed);
      // Centre used to pick the 2*pi branch of Euler angles (offset when unbounded).
      e.centre = (std::isfinite(e.lower) && std::isfinite(e.upper)) ? (e.lower + e.upper) / 2 : e.offset;
      e.axis = m.axis.template cast<Scalar>();
      const double reference_angle = m.reference.norm();
      if (reference_angle > 0) {
        const Eigen::Matrix3d R_ref = Eigen::AngleAxisd(reference_angle, m.reference / reference_angle).toRotationMatrix();
        e.R_ref_T = R_ref.transpose().cast<Scalar>();
      }
      held_[e.q] = std::clamp(held_[e.q], e.lower, e.upper);
      // Entries decomposing the same rotation in the same order share one Euler branch choice.
      e.leader = static_cast<int>(entries_.size());
      for (std::size_t k = 0; k < entries_.size() && m.kind == EulerCase::kEuler; ++k) {
        const EulerJointMapping& other = config_.joints[k];
        if (other.kind == EulerCase::kEuler && other.source == m.source && other.order == m.order &&
            other.reference == m.reference) {
          e.leader = entries_[k].leader;
          break;
        }
      }
      entries_.push_back(e);
    }
    euler_angles_.assign(entries_.size(), Vector3<Scalar>::Zero());
    raw_ = held_;
  }

  /// Binds the mapper to a BVH skeleton (joint names, channel layout, offsets; the motion
  /// values are not used) and takes its frame time for rate limiting. Throws InvalidArgument
  /// naming the configuration entry when a source joint is missing, has no rotation channels,
  /// or a derived link axis has zero length (coincident joints: give `axis` explicitly).
  /// Resets the temporal state.
  void bind(const BvhMotion& skeleton) {
    joint_count_ = static_cast<int>(skeleton.joints.size());
    channel_count_ = skeleton.channel_count;
    frame_time_ = Scalar(skeleton.frame_time);
    sources_.clear();
    source_of_joint_.assign(skeleton.joints.size(), -1);
    auto useJoint = [&](const std::string& name, const std::string& robot_joint) -> int {
      const int j = skeleton.findJoint(name);
      RETARGET_THROW_UNLESS(j >= 0 && !skeleton.joints[j].is_end_site, InvalidArgument, "Euler mapper config '",
                            config_.name, "' joint '", robot_joint, "': source (got BVH joint '", name,
                            "', expected a joint of the bound BVH skeleton)");
      if (source_of_joint_[j] < 0) {
        Source s;
        s.joint = j;
        int n = 0;
        const auto& joint = skeleton.joints[j];
        for (std::size_t c = 0; c < joint.channels.size(); ++c) {
          if (!isRotation(joint.channels[c]) || n >= 3) continue;
          s.rotation_axes[n] = bvhChannelAxis(joint.channels[c]);
          s.rotation_channels[n] = joint.first_channel + static_cast<int>(c);
          ++n;
        }
        s.rotation_count = n;
        source_of_joint_[j] = static_cast<int>(sources_.size());
        sources_.push_back(s);
      }
      return source_of_joint_[j];
    };
    // The bone from joint j to its first child, in j's frame (file units).
    auto boneOut = [&](int j) -> Vector3<Scalar> {
      for (std::size_t c = 0; c < skeleton.joints.size(); ++c) {
        if (skeleton.joints[c].parent == j) return skeleton.joints[c].offset.template cast<Scalar>();
      }
      return Vector3<Scalar>::Zero();
    };
    links_.clear();
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      const EulerJointMapping& m = config_.joints[i];
      Entry& e = entries_[i];
      e.first_link = static_cast<int>(links_.size());
      for (std::size_t k = 0; k < m.source.size(); ++k) {
        const std::string& name = m.source[k];
        Link link;
        link.source = useJoint(name, m.robot_joint);
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
          for (int a = j; a >= 0 && !(out.norm() > kDegenerateEpsilon<Scalar>); a = skeleton.joints[a].parent) {
            out = skeleton.joints[a].offset.template cast<Scalar>();
          }
          RETARGET_THROW_UNLESS(out.norm() > kDegenerateEpsilon<Scalar>, InvalidArgument, "Euler mapper config '",
                                config_.name, "' joint '", m.robot_joint, "': cannot derive the link axis of BVH joint '",
                                name, "' (every bone from it to the root has zero length, expected one > 0; set 'axis' "
                                "explicitly)");
          link.u = out.normalized();
        }
        links_.push_back(link);
      }
      e.link_count = static_cast<int>(m.source.size());
    }
    rotations_.assign(sources_.size(), Matrix3<Scalar>::Identity());
    valid_.assign(sources_.size(), 1);
    bound_ = true;
    reset();
  }

  /// Sets the time between frames (s) used for rate limiting (0 disables it); bind() takes
  /// it from the BVH file.
  void setFrameTime(Scalar frame_time) { frame_time_ = std::isfinite(frame_time) && frame_time > 0 ? frame_time : 0; }

  /// Forgets the previous frame (no rate limit on the next frame; held values back to neutral).
  void reset() {
    has_previous_ = false;
    for (const Entry& e : entries_) held_[e.q] = std::clamp(neutral_[e.q], e.lower, e.upper);
    raw_ = held_;
  }

  /// Maps frame `frame` of `motion` (which must have the bound skeleton's layout) into
  /// `q_out` (robot q order, rad). Rotations come from BvhMotion::localRotation (Eq. 1).
  /// Never allocates or throws. Returns kInvalidInput (output held) when unbound, when q_out
  /// has the wrong size, the frame is out of range, the layout differs or values are not
  /// finite; kClamped / kRateLimited when limits acted.
  Status map(const BvhMotion& motion, int frame, Eigen::Ref<VectorX<Scalar>> q_out) {
    if (!bound_ || q_out.size() != nq_) return fail(q_out);
    if (frame < 0 || frame >= motion.frame_count || static_cast<int>(motion.joints.size()) != joint_count_ ||
        motion.channel_count != channel_count_) {
      return fail(q_out);
    }
    for (std::size_t s = 0; s < sources_.size(); ++s) {
      const Eigen::Quaterniond r = motion.localRotation(frame, sources_[s].joint);
      valid_[s] = r.coeffs().allFinite() ? 1 : 0;
      if (valid_[s]) rotations_[s] = r.toRotationMatrix().template cast<Scalar>();
    }
    return finish(q_out, frame_time_);
  }

  /// Streaming entry point: maps one frame given as its `channel_count` channel values in
  /// file order (positions in file units, rotations in degrees), e.g. one line of a BVH
  /// MOTION section or one Axis Neuron broadcast frame. Same contract as the other map().
  Status map(const double* frame_values, Eigen::Ref<VectorX<Scalar>> q_out) {
    if (!bound_ || q_out.size() != nq_ || frame_values == nullptr) return fail(q_out);
    constexpr Scalar kDegree = kPi<Scalar> / Scalar(180);
    for (std::size_t s = 0; s < sources_.size(); ++s) {
      const Source& src = sources_[s];
      // Eq. 1 in the file's channel order, as a product of unit quaternions (cheaper than 3x3).
      Quaternion<Scalar> R = Quaternion<Scalar>::Identity();
      bool finite = true;
      for (int c = 0; c < src.rotation_count; ++c) {
        const double value = frame_values[src.rotation_channels[c]];
        finite = finite && std::isfinite(value);
        const Scalar half = Scalar(0.5) * Scalar(value) * kDegree;
        Quaternion<Scalar> axis_rotation(std::cos(half), Scalar(0), Scalar(0), Scalar(0));
        axis_rotation.vec()[src.rotation_axes[c]] = std::sin(half);
        R = R * axis_rotation;
      }
      valid_[s] = finite ? 1 : 0;
      if (finite) rotations_[s] = R.toRotationMatrix();
    }
    return finish(q_out, frame_time_);
  }

  /// Last output (robot q order, rad): finite and within limits.
  const VectorX<Scalar>& output() const { return held_; }
  /// Last values before clamping and rate limiting (rad): the human's angle for each mapped
  /// joint as seen through the mapping (the "human trajectory" of Section 4.3). Unmapped
  /// joints hold their neutral value.
  const VectorX<Scalar>& rawOutput() const { return raw_; }
  /// The configuration in use.
  const EulerMapperConfig& config() const { return config_; }
  /// Configuration indices of the mapped robot joints, in configuration-entry order.
  std::vector<int> mappedJoints() const {
    std::vector<int> out;
    for (const Entry& e : entries_) out.push_back(e.q);
    return out;
  }
  /// Effective limits of configuration entry `i` (robot limits intersected with the
  /// configured ones, rad).
  Scalar lowerLimit(int i) const { return entries_[i].lower; }
  Scalar upperLimit(int i) const { return entries_[i].upper; }
  /// True once bind() succeeded.
  bool bound() const { return bound_; }

 private:
  struct Entry {
    int q = -1;
    EulerCase kind = EulerCase::kEuler;
    EulerOrder order{};
    int angle = 0;
    Scalar gain = Scalar(1), offset = Scalar(0), lower = Scalar(0), upper = Scalar(0);
    Scalar max_speed = Scalar(0), centre = Scalar(0);
    Vector3<Scalar> axis = Vector3<Scalar>::Zero();
    Matrix3<Scalar> R_ref_T = Matrix3<Scalar>::Identity();
    int first_link = 0, link_count = 0;
    int leader = 0;  // kEuler: first entry with the same rotation and order (itself if first)
  };
  struct Source {
    int joint = -1;
    int rotation_count = 0;
    int rotation_axes[3] = {0, 0, 0};
    int rotation_channels[3] = {0, 0, 0};
  };
  struct Link {
    int source = -1;
    Vector3<Scalar> u = Vector3<Scalar>::UnitX();  // link axis in the joint frame (unit)
  };

  // Angle (rad, [0, pi]) between unit vectors a and b.
  static Scalar angleBetween(const Vector3<Scalar>& a, const Vector3<Scalar>& b) {
    using std::atan2;
    return atan2(a.cross(b).norm(), a.dot(b));
  }

  // Value of entry e for Euler angle x, on the 2*pi branch nearest the middle of its limits.
  static Scalar eulerValue(const Entry& e, Scalar x) {
    using std::abs;
    const Scalar period = Scalar(2) * kPi<Scalar> * abs(e.gain);
    return e.centre + std::remainder(e.offset + e.gain * x - e.centre, period);
  }

  // A Tait-Bryan rotation has two angle triples: (a, b, c) and (a + pi, pi - b, c + pi). Keep
  // the one whose values for all entries of the leader's group violate the limits least
  // (the principal one on ties), so that e.g. a shoulder raised above 90 deg keeps its branch.
  Vector3<Scalar> chooseEulerBranch(int leader, const Vector3<Scalar>& principal) const {
    const Vector3<Scalar> other(principal[0] + kPi<Scalar>, kPi<Scalar> - principal[1], principal[2] + kPi<Scalar>);
    Scalar cost_principal = Scalar(0), cost_other = Scalar(0);
    for (std::size_t k = static_cast<std::size_t>(leader); k < entries_.size(); ++k) {
      const Entry& e = entries_[k];
      if (e.kind != EulerCase::kEuler || e.leader != leader) continue;
      const Scalar v1 = eulerValue(e, principal[e.angle]);
      const Scalar v2 = eulerValue(e, other[e.angle]);
      cost_principal += std::max(Scalar(0), e.lower - v1) + std::max(Scalar(0), v1 - e.upper);
      cost_other += std::max(Scalar(0), e.lower - v2) + std::max(Scalar(0), v2 - e.upper);
    }
    return cost_other < cost_principal ? other : principal;
  }

  Status fail(Eigen::Ref<VectorX<Scalar>> q_out) const {
    if (q_out.size() == nq_) q_out = held_;
    return StatusCode::kInvalidInput;
  }

  Status finish(Eigen::Ref<VectorX<Scalar>> q_out, Scalar dt) {
    Status status;
    for (const Entry& e : entries_) {
      bool ok = true;
      Scalar x = Scalar(0);
      if (e.kind == EulerCase::kFingerCurl) {
        // Mean bend of the finger's segments, each relative to the reference pose.
        for (int l = 0; l < e.link_count; ++l) {
          const Link& link = links_[e.first_link + l];
          ok = ok && valid_[link.source] != 0;
          if (ok) x += angleBetween(link.u, rotations_[link.source] * e.R_ref_T * link.u);
        }
        x /= Scalar(e.link_count);
      } else {
        // Chain product of the sources' local rotations (parent first), relative to the reference.
        Matrix3<Scalar> R = Matrix3<Scalar>::Identity();
        for (int l = 0; l < e.link_count; ++l) {
          const Link& link = links_[e.first_link + l];
          ok = ok && valid_[link.source] != 0;
          if (ok) R = R * rotations_[link.source];
        }
        R = R * e.R_ref_T;
        const Vector3<Scalar>& u = links_[e.first_link + e.link_count - 1].u;
        if (!ok) {
          // held below
        } else if (e.kind == EulerCase::kEuler) {
          const int me = static_cast<int>(&e - entries_.data());
          if (e.leader == me) euler_angles_[me] = chooseEulerBranch(me, rotationToEuler<Scalar>(e.order, R));
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
        status |= StatusCode::kInvalidInput;
        continue;  // hold the previous value
      }
      // Euler angles are 2*pi periodic: eulerValue takes the branch nearest the limits' middle.
      const Scalar value = e.kind == EulerCase::kEuler ? eulerValue(e, x) : e.offset + e.gain * x;
      raw_[e.q] = value;
      Scalar clamped = std::clamp(value, e.lower, e.upper);
      if (clamped != value) status |= StatusCode::kClamped;
      if (has_previous_ && e.max_speed > 0 && dt > 0) {
        const Scalar step = e.max_speed * dt;
        const Scalar previous = held_[e.q];
        const Scalar limited = std::clamp(clamped, previous - step, previous + step);
        if (limited != clamped) status |= StatusCode::kRateLimited;
        clamped = std::clamp(limited, e.lower, e.upper);
      }
      held_[e.q] = clamped;
    }
    has_previous_ = true;
    q_out = held_;
    return status;
  }

  EulerMapperConfig config_;
  int nq_ = 0;
  VectorX<Scalar> neutral_, held_, raw_;
  std::vector<Entry> entries_;
  std::vector<Vector3<Scalar>> euler_angles_;  // chosen Euler angles per group leader
  std::vector<Source> sources_;
  std::vector<int> source_of_joint_;
  std::vector<Link> links_;
  std::vector<Matrix3<Scalar>> rotations_;
  std::vector<char> valid_;
  int joint_count_ = 0, channel_count_ = 0;
  Scalar frame_time_ = Scalar(0);
  bool bound_ = false, has_previous_ = false;
};

}  // namespace retarget
