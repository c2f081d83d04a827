#pragma once

/// @file
/// Foot sliding and floating for robots with feet (beyond the seeds): does a support foot move
/// on the ground, and is a foot up in the air when the human's is on the ground?
///
/// Input: per foot, a trajectory of the foot's sole point p_WF (m, 3 x frames) in a frame W with
/// z up, plus the time stamps (s). `robotFootTrajectory` gives it by forward kinematics (root
/// link at `X_WB`, the identity by default: a fixed-base model's feet move in its root frame);
/// `humanFootTrajectory` reads it from a skeleton motion.
///
/// Definitions (thresholds in `FootContactOptions`):
///  - ground height g: `ground_height` when set, else the lowest z of any foot sample of that
///    side (robot or reference) over the motion;
///  - height of foot f at frame k: h_k = z_k - g (m);
///  - the robot foot is in contact at frame k when h_k <= `contact_height`;
///  - sliding of a foot: S = sum over consecutive frames k-1, k both in contact of the
///    horizontal displacement |(x, y)_k - (x, y)_{k-1}| (m); the sliding speed is S over the
///    time spent in such consecutive contact pairs (m/s);
///  - the reference (human) foot is in contact at frame k when its height is <= `contact_height`
///    and its horizontal speed |(x, y)_k - (x, y)_{k-1}| / (t_k - t_{k-1}) is <= `contact_speed`
///    (the first frame uses the forward difference), so a noisy sensor's swinging foot
///    that grazes the ground is not contact;
///  - floating: over the frames where the reference foot is in contact, the robot foot's height
///    h_k: its mean and max (m), and the number of those frames with h_k > `contact_height`.
/// Samples that are not finite (a foot not tracked) are neither in contact nor counted.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Thresholds of the contact definition (validated aggregate).
struct FootContactOptions {
  /// A foot is in contact when its height above the ground is at most this (m, >= 0).
  double contact_height = 0.02;
  /// A reference foot is in contact only when its horizontal speed is at most this (m/s, > 0).
  double contact_speed = 0.3;
  /// Ground height z (m, frame W); unset: the lowest foot sample of the trajectory.
  std::optional<double> ground_height{};

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// Contact figures of one foot.
struct FootContact {
  int contact_frames = 0;      ///< Frames with the robot foot in contact.
  double sliding = 0;          ///< S (m).
  double sliding_speed = 0;    ///< S / time in consecutive contact (m/s), 0 when none.
  int reference_contact_frames = 0;  ///< Frames with the reference foot in contact (0 without reference).
  int floating_frames = 0;     ///< Of those, frames with the robot foot above contact_height.
  double floating_mean = 0;    ///< Mean robot foot height over the reference contact frames (m).
  double floating_max = 0;     ///< Max robot foot height over the reference contact frames (m).
};

namespace internal::foot_contact {

RETARGET_DECL double groundOf(const Eigen::Matrix3Xd& p, const FootContactOptions& options);

}  // namespace internal::foot_contact

/// Contact figures of one foot: `robot` (3 x frames, m, frame W, z up) sampled at `time` (s),
/// and optionally the `reference` foot (the human's, same layout; nullptr: no floating figures).
/// Ground heights are per side (see the file doc). Throws InvalidArgument when the sizes
/// differ, the options are invalid, or the times are not finite and strictly increasing.
RETARGET_DECL FootContact footContact(const std::vector<double>& time, const Eigen::Matrix3Xd& robot,
                                      const Eigen::Matrix3Xd* reference = nullptr,
                                      const FootContactOptions& options = {});

/// Trajectory (3 x frames, m, frame W) of the origin of link `link` of `model` at the
/// configurations `q` (frames x nq, rad), the root link at `X_WB`. Throws InvalidArgument for an
/// unknown link or a q of the wrong width.
template <typename Scalar, typename Derived>
Eigen::Matrix3Xd robotFootTrajectory(const RobotModel<Scalar>& model, const std::string& link,
                                     const Eigen::MatrixBase<Derived>& q,
                                     const Isometry3<Scalar>& X_WB = Isometry3<Scalar>::Identity()) {
  const int l = model.findLink(link);
  RETARGET_THROW_UNLESS(l >= 0, InvalidArgument, "foot link (got '", link, "', expected a link of robot '",
                        model.name(), "')");
  RETARGET_THROW_UNLESS(q.cols() == model.nq(), InvalidArgument, "joint columns (got ", q.cols(),
                        ", expected nq = ", model.nq(), ")");
  RobotData<Scalar> data(model);
  data.X_WB = X_WB;
  Eigen::Matrix3Xd p(3, q.rows());
  VectorX<Scalar> qk(model.nq());
  for (Eigen::Index k = 0; k < q.rows(); ++k) {
    // Into a block of qk (its size never changes): a whole-vector assignment goes through Eigen's
    // resize path, where GCC 12 at -O3 reports a false -Wuse-after-free.
    qk.head(model.nq()) = q.row(k).transpose().template cast<Scalar>();
    forwardKinematics(model, data, qk);
    p.col(k) = data.X_WL[static_cast<std::size_t>(l)].translation().template cast<double>();
  }
  return p;
}

/// The sole links of a robot with feet: ("l_sole", "r_sole") for NAO-like models, else
/// ("l_ankle", "r_ankle"), ("left_foot", "right_foot") or ("l_foot", "r_foot") when the model
/// has both; nullopt for a robot without feet (arms-only, wheeled).
template <typename Scalar>
std::optional<std::pair<std::string, std::string>> footLinks(const RobotModel<Scalar>& model) {
  for (const auto& [left, right] : {std::pair<const char*, const char*>{"l_sole", "r_sole"},
                                    {"l_ankle", "r_ankle"},
                                    {"left_foot", "right_foot"},
                                    {"l_foot", "r_foot"}}) {
    if (model.findLink(left) >= 0 && model.findLink(right) >= 0) return std::pair<std::string, std::string>{left, right};
  }
  return std::nullopt;
}

/// Trajectory (3 x frames, m, canonical frame W) of skeleton joint `joint` (e.g. kAnkleLeft or
/// kFootLeft); frames where it is not usable are NaN.
template <typename Scalar>
Eigen::Matrix3Xd humanFootTrajectory(const SkeletonMotion<Scalar>& motion, HumanJoint joint) {
  Eigen::Matrix3Xd p(3, static_cast<Eigen::Index>(motion.size()));
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const auto& f = motion.frames[k];
    p.col(static_cast<Eigen::Index>(k)) = f.usable(joint) ? Eigen::Vector3d(f.position(joint).template cast<double>())
                                                          : Eigen::Vector3d::Constant(std::nan(""));
  }
  return p;
}

#if RETARGET_DEFINE_METRICS

namespace internal::foot_contact {

RETARGET_DECL double groundOf(const Eigen::Matrix3Xd& p, const FootContactOptions& options) {
  if (options.ground_height) return *options.ground_height;
  double ground = std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < p.cols(); ++k) {
    if (p.col(k).allFinite()) ground = std::min(ground, p(2, k));
  }
  return ground;
}

}  // namespace internal::foot_contact

RETARGET_DECL FootContact footContact(const std::vector<double>& time, const Eigen::Matrix3Xd& robot,
                                      const Eigen::Matrix3Xd* reference, const FootContactOptions& options) {
  options.validate();
  const auto n = static_cast<Eigen::Index>(time.size());
  RETARGET_THROW_UNLESS(robot.cols() == n, InvalidArgument, "robot foot samples (got ", robot.cols(),
                        ", expected one per time stamp: ", n, ")");
  RETARGET_THROW_UNLESS(reference == nullptr || reference->cols() == n, InvalidArgument,
                        "reference foot samples (got ", reference ? reference->cols() : 0,
                        ", expected one per time stamp: ", n, ")");
  for (Eigen::Index k = 0; k < n; ++k) {
    const auto i = static_cast<std::size_t>(k);
    RETARGET_THROW_UNLESS(std::isfinite(time[i]) && (k == 0 || time[i] > time[i - 1]), InvalidArgument,
                          "time stamp of frame ", k, " (got ", time[i], ", expected finite and after the previous)");
  }
  FootContact out;
  const double ground = internal::foot_contact::groundOf(robot, options);
  std::vector<char> contact(static_cast<std::size_t>(n), 0);
  for (Eigen::Index k = 0; k < n; ++k) {
    contact[static_cast<std::size_t>(k)] = robot.col(k).allFinite() && robot(2, k) - ground <= options.contact_height;
    out.contact_frames += contact[static_cast<std::size_t>(k)];
  }
  double contact_time = 0;
  for (Eigen::Index k = 1; k < n; ++k) {
    if (!contact[static_cast<std::size_t>(k)] || !contact[static_cast<std::size_t>(k - 1)]) continue;
    out.sliding += (robot.col(k).head<2>() - robot.col(k - 1).head<2>()).norm();
    contact_time += time[static_cast<std::size_t>(k)] - time[static_cast<std::size_t>(k - 1)];
  }
  if (contact_time > 0) out.sliding_speed = out.sliding / contact_time;
  if (reference == nullptr) return out;

  const Eigen::Matrix3Xd& ref = *reference;
  const double ref_ground = internal::foot_contact::groundOf(ref, options);
  double height_sum = 0;
  for (Eigen::Index k = 0; k < n; ++k) {
    if (!ref.col(k).allFinite() || ref(2, k) - ref_ground > options.contact_height) continue;
    // Horizontal speed: backward difference, forward for the first frame.
    const Eigen::Index a = k > 0 ? k - 1 : k, b = k > 0 ? k : k + 1;
    if (b < n) {
      if (!ref.col(a).allFinite() || !ref.col(b).allFinite()) continue;
      const double dt = time[static_cast<std::size_t>(b)] - time[static_cast<std::size_t>(a)];
      if ((ref.col(b).head<2>() - ref.col(a).head<2>()).norm() / dt > options.contact_speed) continue;
    }
    if (!robot.col(k).allFinite()) continue;
    ++out.reference_contact_frames;
    const double h = robot(2, k) - ground;
    height_sum += h;
    out.floating_max = std::max(out.floating_max, h);
    out.floating_frames += h > options.contact_height ? 1 : 0;
  }
  if (out.reference_contact_frames > 0) out.floating_mean = height_sum / out.reference_contact_frames;
  return out;
}

RETARGET_DECL void FootContactOptions::validate() const {
  RETARGET_THROW_UNLESS(std::isfinite(contact_height) && contact_height >= 0, InvalidArgument,
                        "FootContactOptions::contact_height (got ", contact_height, ", expected a finite value >= 0 in m)");
  RETARGET_THROW_UNLESS(std::isfinite(contact_speed) && contact_speed > 0, InvalidArgument,
                        "FootContactOptions::contact_speed (got ", contact_speed, ", expected a finite value > 0 in m/s)");
  RETARGET_THROW_UNLESS(!ground_height || std::isfinite(*ground_height), InvalidArgument,
                        "FootContactOptions::ground_height (got ", ground_height.value_or(0), ", expected finite m)");
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
