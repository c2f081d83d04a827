#pragma once

/// @file
/// Ground-contact figures of a floating-base robot motion (beyond the seeds; issue 54): does a
/// sole go into the ground, float above it or slide on it while the human's foot stands, does it
/// stand flat, do the robot's contacts agree with the human's, does the root follow the human's
/// path, and how smooth is it.
///
/// Input: the robot `model` with its soles (robots/humanoid_soles.hpp), per frame the time (s),
/// the root link's pose X_WB in the world (z up, the ground at z = 0) and the joint angles, and
/// per frame and foot the human's stance label (human/foot_stance.hpp, or any other source).
/// Definitions (thresholds in `GroundContactOptions`; holosoma's retargeting evaluation,
/// `evaluate_penetration` and `detect_foot_sliding` of amazon-far/holosoma
/// src/holosoma_retargeting/evaluation, counts a frame as penetrating when a robot geom is more
/// than 1 cm into the ground and a stance frame as sliding when the toe moves more than 1 cm
/// horizontally in one frame, 0.3 m/s at 30 frames a second; the same thresholds here, the
/// speed taken per second so that it means the same at any frame rate):
///  - a sole's height: its lowest sole point's z (m);
///  - penetration: frames with some sole below -`penetration_depth`; the deepest (m);
///  - floating: stance frames (the human's label) whose sole is above `float_height`;
///  - sliding: stance frames, after the first of a stance, whose sole (its points' centroid)
///    moved horizontally faster than `slide_speed` since the previous frame; a stance's slide is
///    the horizontal path of that centroid over the stance (m);
///  - tilt: the angle between the foot's up axis (the robot's up in the foot link at rest) and
///    the world's z; stance frames tilted more than `max_tilt`;
///  - agreement: the fraction of frames and feet where the robot's foot is in contact (sole at
///    most `float_height` above the ground and slower than `slide_speed`) exactly when the human's
///    label says so;
///  - root path: the horizontal distance between the robot's hips (the midpoint of the binding's
///    hip points) and the human's scaled by `scale`, less its mean over the take (a constant
///    offset is where the take starts, not an error): RMS and max (m);
///  - root jerk: the RMS of the third time derivative of the root position (finite differences
///    on the frame times; m/s^3).

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/humanoid_soles.hpp>

namespace retarget {

/// Thresholds (a validated aggregate; see the file doc).
struct GroundContactOptions {
  double penetration_depth = 0.01;               ///< m, >= 0
  double float_height = 0.02;                    ///< m, >= 0
  double slide_speed = 0.3;                      ///< m/s, > 0
  double max_tilt = 10.0 * kPi<double> / 180.0;  ///< rad, in (0, pi)

  /// Throws InvalidArgument naming the field and value.
  void validate() const {
    RETARGET_THROW_UNLESS(std::isfinite(penetration_depth) && penetration_depth >= 0, InvalidArgument,
                          "GroundContactOptions::penetration_depth (got ", penetration_depth, ", expected >= 0 m)");
    RETARGET_THROW_UNLESS(std::isfinite(float_height) && float_height >= 0, InvalidArgument,
                          "GroundContactOptions::float_height (got ", float_height, ", expected >= 0 m)");
    RETARGET_THROW_UNLESS(std::isfinite(slide_speed) && slide_speed > 0, InvalidArgument,
                          "GroundContactOptions::slide_speed (got ", slide_speed, ", expected > 0 m/s)");
    RETARGET_THROW_UNLESS(max_tilt > 0 && max_tilt < kPi<double>, InvalidArgument,
                          "GroundContactOptions::max_tilt (got ", max_tilt, ", expected in (0, pi) rad)");
  }
};

/// One foot's figures.
struct FootGroundContact {
  int stance_frames = 0;       ///< frames the human's foot stands
  int floating_frames = 0;     ///< of those, the sole above float_height
  int sliding_frames = 0;      ///< of those, the sole faster than slide_speed
  int tilted_frames = 0;       ///< of those, tilted more than max_tilt
  int stances = 0;             ///< stance phases
  double max_float = 0;        ///< m, over stance frames
  double max_slide_speed = 0;  ///< m/s, over stance frames
  double max_tilt = 0;         ///< rad, over stance frames
  double max_slide = 0;        ///< m, the longest slide of one stance
  double mean_slide = 0;       ///< m, per stance
  int agreeing_frames = 0;     ///< frames the robot's contact equals the human's label
};

/// What one frame of a motion shows, as bits of `GroundContact::frame_flags` (definitions in the
/// file doc; foot s = 0 left, 1 right: its bit is the left one shifted by s).
enum GroundContactFrame : std::uint8_t {
  kGroundPenetrating = 1,  ///< some sole below -penetration_depth
  kGroundStanceLeft = 2,   ///< the human's left foot stands (its label)
  kGroundStanceRight = 4,
  kGroundFloatingLeft = 8,  ///< a stance frame whose sole is above float_height
  kGroundFloatingRight = 16,
  kGroundSlidingLeft = 32,  ///< a stance frame, not a stance's first, whose sole moves faster than slide_speed
  kGroundSlidingRight = 64,
};

/// The figures of a motion.
struct GroundContact {
  int frames = 0;
  /// Per frame, the `GroundContactFrame` bits that hold: the frames behind the counts below (a
  /// report marks them on its timeline).
  std::vector<std::uint8_t> frame_flags;
  int penetration_frames = 0;
  double deepest = 0;                       ///< m, the deepest sole point below the ground (0 when none)
  std::array<FootGroundContact, 2> feet{};  ///< left, right
  double agreement = 0;                     ///< fraction of frames x feet, in [0, 1]
  bool root_path_checked = false;
  double root_path_rms = 0;  ///< m
  double root_path_max = 0;  ///< m
  double root_jerk_rms = 0;  ///< m/s^3 (0 with fewer than 4 frames)
};

/// The robot / human length ratio of a whole take: the robot's leg (hip to knee to ankle, the
/// binding's rest points, both legs' mean) over the human's, the median over the frames of
/// `motion` with both legs usable (a tracked skeleton's legs change length from frame to frame;
/// a BVH skeleton's do not); 0 when there is none. The command line and Python give it to the
/// floating-base mapper, which alone (live) can only measure its first frame.
template <typename Scalar>
double humanoidLegScale(const HumanoidBinding& binding, const SkeletonMotion<Scalar>& motion) {
  auto at = [&](HumanoidPoint which) -> const Eigen::Vector3d* {
    for (const HumanoidPointBinding& p : binding.points) {
      if (p.point == which) return &p.p_B;
    }
    return nullptr;
  };
  using P = HumanoidPoint;
  const Eigen::Vector3d* r[6] = {at(P::kHipLeft),  at(P::kKneeLeft),  at(P::kAnkleLeft),
                                 at(P::kHipRight), at(P::kKneeRight), at(P::kAnkleRight)};
  for (const Eigen::Vector3d* p : r) {
    if (p == nullptr) return 0;
  }
  const double robot =
      0.5 * ((*r[0] - *r[1]).norm() + (*r[1] - *r[2]).norm() + (*r[3] - *r[4]).norm() + (*r[4] - *r[5]).norm());
  std::vector<double> human;
  for (const SkeletonFrame<Scalar>& f : motion.frames) {
    const std::optional<Scalar> leg = legLength(f);
    if (leg && *leg > Scalar(1e-3) && std::isfinite(static_cast<double>(*leg)))
      human.push_back(static_cast<double>(*leg));
  }
  if (human.empty()) return 0;
  const auto middle = human.begin() + static_cast<std::ptrdiff_t>(human.size() / 2);
  std::nth_element(human.begin(), middle, human.end());
  return robot / *middle;
}

/// The figures of `q` (frames x nq) at root poses `X_WB` and `time` on `model`, whose humanoid
/// binding and soles are `binding` and `soles`, against the human's `stance` labels (frames x 2,
/// nonzero: standing) and, when `human` is given with `scale` > 0, the human's hips path.
/// Throws InvalidArgument when the sizes differ, the times are not strictly increasing, a sole
/// is missing or the options are invalid.
template <typename Scalar>
GroundContact groundContact(const RobotModel<Scalar>& model, const HumanoidBinding& binding,
                            const std::array<HumanoidSole, 2>& soles, const std::vector<double>& time,
                            const std::vector<Eigen::Isometry3d>& X_WB, const Eigen::MatrixXd& q,
                            const Eigen::Matrix<int, Eigen::Dynamic, 2>& stance,
                            const SkeletonMotion<Scalar>* human = nullptr, double scale = 0,
                            const GroundContactOptions& options = {}) {
  options.validate();
  const auto n = static_cast<Eigen::Index>(time.size());
  RETARGET_THROW_UNLESS(
      static_cast<Eigen::Index>(X_WB.size()) == n && q.rows() == n && stance.rows() == n && q.cols() == model.nq(),
      InvalidArgument, "groundContact (got ", n, " times, ", X_WB.size(), " root poses, ", q.rows(), " x ", q.cols(),
      " angles and ", stance.rows(), " stance rows, expected one each per frame and ", model.nq(), " angles a row)");
  RETARGET_THROW_UNLESS(human == nullptr || static_cast<Eigen::Index>(human->frames.size()) == n, InvalidArgument,
                        "groundContact (got ", human == nullptr ? 0 : human->frames.size(), " human frames, expected ",
                        n, ")");
  for (Eigen::Index k = 1; k < n; ++k) {
    RETARGET_THROW_UNLESS(time[static_cast<std::size_t>(k)] > time[static_cast<std::size_t>(k - 1)], InvalidArgument,
                          "groundContact (time[", k, "] = ", time[static_cast<std::size_t>(k)],
                          " does not follow the previous frame's)");
  }
  for (const HumanoidSole& sole : soles) {
    RETARGET_THROW_UNLESS(sole.found && !sole.points_L.empty() && sole.link_index >= 0, InvalidArgument,
                          "groundContact (a foot without a sole: ", sole.source, ")");
  }
  GroundContact out;
  out.frames = static_cast<int>(n);
  RobotData<Scalar> data(model);
  // The robot's hip points when fixed on a link (the binding's hips), for the root path.
  int hip_link[2] = {-1, -1};
  Eigen::Vector3d hip_L[2];
  for (const HumanoidPointBinding& p : binding.points) {
    const int side = p.point == HumanoidPoint::kHipLeft ? 0 : p.point == HumanoidPoint::kHipRight ? 1 : -1;
    if (side < 0 || p.from) continue;
    hip_link[side] = model.linkIndex(p.link);
    hip_L[side] = p.v_L;
  }
  const bool path = human != nullptr && scale > 0 && hip_link[0] >= 0 && hip_link[1] >= 0;
  std::vector<Eigen::Vector2d> deviation;
  std::array<Eigen::Vector3d, 2> previous{};
  std::array<double, 2> slide{}, slide_total{};
  Eigen::Matrix3Xd root(3, n);
  out.frame_flags.assign(static_cast<std::size_t>(n), 0);
  for (Eigen::Index k = 0; k < n; ++k) {
    std::uint8_t& flags = out.frame_flags[static_cast<std::size_t>(k)];
    data.X_WB = X_WB[static_cast<std::size_t>(k)].template cast<Scalar>();
    root.col(k) = X_WB[static_cast<std::size_t>(k)].translation();
    forwardKinematics(model, data, q.row(k).transpose().template cast<Scalar>().eval());
    bool below = false;
    for (std::size_t s = 0; s < 2; ++s) {
      const Eigen::Isometry3d X_WF = data.X_WL[static_cast<std::size_t>(soles[s].link_index)].template cast<double>();
      const SolePlacement placement = solePlacement(soles[s], X_WF);
      const double lowest = placement.lowest;
      const Eigen::Vector3d& centre = placement.centre;
      below = below || lowest < -options.penetration_depth;
      out.deepest = std::max(out.deepest, -lowest);
      const double speed = k == 0 ? 0.0
                                  : (centre - previous[s]).template head<2>().norm() /
                                        (time[static_cast<std::size_t>(k)] - time[static_cast<std::size_t>(k - 1)]);
      const bool standing = stance(k, static_cast<Eigen::Index>(s)) != 0;
      const bool was = k > 0 && stance(k - 1, static_cast<Eigen::Index>(s)) != 0;
      FootGroundContact& f = out.feet[s];
      const bool robot_contact = lowest <= options.float_height && speed <= options.slide_speed;
      if (robot_contact == standing) ++f.agreeing_frames;
      const auto bit = [s](int left) { return static_cast<std::uint8_t>(left << s); };
      if (standing) {
        flags |= bit(kGroundStanceLeft);
        ++f.stance_frames;
        if (!was) {
          ++f.stances;
          slide[s] = 0;
        }
        if (lowest > options.float_height) {
          ++f.floating_frames;
          flags |= bit(kGroundFloatingLeft);
        }
        f.max_float = std::max(f.max_float, lowest);
        const Eigen::Vector3d up = X_WF.linear() * soles[s].up_L;
        const double tilt = std::acos(std::clamp(up.z(), -1.0, 1.0));
        f.max_tilt = std::max(f.max_tilt, tilt);
        if (tilt > options.max_tilt) ++f.tilted_frames;
        if (was) {
          f.max_slide_speed = std::max(f.max_slide_speed, speed);
          if (speed > options.slide_speed) {
            ++f.sliding_frames;
            flags |= bit(kGroundSlidingLeft);
          }
          slide[s] += (centre - previous[s]).template head<2>().norm();
        }
        f.max_slide = std::max(f.max_slide, slide[s]);
      } else if (was) {
        slide_total[s] += slide[s];
      }
      previous[s] = centre;
    }
    out.penetration_frames += below ? 1 : 0;
    if (below) flags |= kGroundPenetrating;
    if (path) {
      const Eigen::Vector3d hips =
          0.5 * (data.X_WL[static_cast<std::size_t>(hip_link[0])].template cast<double>() * hip_L[0] +
                 data.X_WL[static_cast<std::size_t>(hip_link[1])].template cast<double>() * hip_L[1]);
      const SkeletonFrame<Scalar>& h = human->frames[static_cast<std::size_t>(k)];
      if (h.usable(HumanJoint::kHipLeft) && h.usable(HumanJoint::kHipRight)) {
        const Eigen::Vector3d human_hips =
            (Scalar(0.5) * (h.position(HumanJoint::kHipLeft) + h.position(HumanJoint::kHipRight)))
                .template cast<double>();
        deviation.push_back((hips - scale * human_hips).template head<2>());
      }
    }
  }
  int agreeing = 0;
  for (std::size_t s = 0; s < 2; ++s) {
    FootGroundContact& f = out.feet[s];
    if (n > 0 && stance(n - 1, static_cast<Eigen::Index>(s)) != 0) slide_total[s] += slide[s];
    f.mean_slide = f.stances > 0 ? slide_total[s] / f.stances : 0.0;
    agreeing += f.agreeing_frames;
  }
  out.agreement = n > 0 ? static_cast<double>(agreeing) / static_cast<double>(2 * n) : 0.0;
  if (path && !deviation.empty()) {
    Eigen::Vector2d mean = Eigen::Vector2d::Zero();
    for (const Eigen::Vector2d& d : deviation) mean += d / static_cast<double>(deviation.size());
    double sum = 0;
    for (const Eigen::Vector2d& d : deviation) {
      sum += (d - mean).squaredNorm();
      out.root_path_max = std::max(out.root_path_max, (d - mean).norm());
    }
    out.root_path_rms = std::sqrt(sum / static_cast<double>(deviation.size()));
    out.root_path_checked = true;
  }
  if (n >= 4) {
    // v at interval midpoints, a at frames 1..n-2, jerk between consecutive a's.
    std::vector<Eigen::Vector3d> v, a;
    std::vector<double> tv;
    for (Eigen::Index k = 1; k < n; ++k) {
      const double dt = time[static_cast<std::size_t>(k)] - time[static_cast<std::size_t>(k - 1)];
      v.push_back((root.col(k) - root.col(k - 1)) / dt);
      tv.push_back(0.5 * (time[static_cast<std::size_t>(k)] + time[static_cast<std::size_t>(k - 1)]));
    }
    std::vector<double> ta;
    for (std::size_t k = 1; k < v.size(); ++k) {
      a.push_back((v[k] - v[k - 1]) / (tv[k] - tv[k - 1]));
      ta.push_back(0.5 * (tv[k] + tv[k - 1]));
    }
    double sum = 0;
    for (std::size_t k = 1; k < a.size(); ++k) sum += ((a[k] - a[k - 1]) / (ta[k] - ta[k - 1])).squaredNorm();
    out.root_jerk_rms = a.size() > 1 ? std::sqrt(sum / static_cast<double>(a.size() - 1)) : 0.0;
  }
  return out;
}

}  // namespace retarget
