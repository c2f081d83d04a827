#pragma once

/// @file
/// Foot sliding and floating for robots with feet (beyond the seeds): does a support foot move
/// on the ground, and is a foot up in the air when the human's stands?
///
/// Input: per foot, a trajectory of the robot's sole (m, 3 x frames) in a frame W with z up:
/// x and y the centroid of its points, z its lowest point (robots/humanoid_soles.hpp
/// `solePlacement`, the definition the floating-base contact figures read too);
/// `soleTrajectory` gives it by forward kinematics (root link at `X_WB`, the identity by default:
/// a fixed-base model's feet move in its root frame); plus the time stamps (s) and optionally the
/// human's stance labels of that foot (human/foot_stance.hpp `humanStance`: the one definition of
/// a human foot on the ground, which the floating-base mapper plants soles by).
///
/// Definitions (thresholds in `FootContactOptions`):
///  - ground height g: `ground_height` when set, else the lowest z of the robot's sole over the
///    motion;
///  - height of the sole at frame k: h_k = z_k - g (m);
///  - the robot foot is in contact at frame k when h_k <= `contact_height`;
///  - sliding of a foot: S = sum over consecutive frames k-1, k both in contact of the
///    horizontal displacement |(x, y)_k - (x, y)_{k-1}| (m); the sliding speed is S over the
///    time spent in such consecutive contact pairs (m/s);
///  - floating: over the frames where the human's foot stands, the robot sole's height h_k: its
///    mean and max (m), and the number of those frames with h_k > `contact_height`.
/// Samples that are not finite are neither in contact nor counted.

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
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/humanoid_soles.hpp>

namespace retarget {

/// Thresholds of the contact definition (validated aggregate).
struct FootContactOptions {
  /// A robot foot is in contact when its sole is at most this above the ground (m, >= 0).
  double contact_height = 0.02;
  /// Ground height z (m, frame W); unset: the lowest sole sample of the trajectory.
  std::optional<double> ground_height{};

  /// Throws InvalidArgument naming the field and value.
  RETARGET_DECL void validate() const;
};

/// Contact figures of one foot.
struct FootContact {
  int contact_frames = 0;      ///< Frames with the robot foot in contact.
  double sliding = 0;          ///< S (m).
  double sliding_speed = 0;    ///< S / time in consecutive contact (m/s), 0 when none.
  int reference_contact_frames = 0;  ///< Frames the human's foot stands (0 without labels).
  int floating_frames = 0;     ///< Of those, frames with the robot foot above contact_height.
  double floating_mean = 0;    ///< Mean robot sole height over the human's stance frames (m).
  double floating_max = 0;     ///< Max robot sole height over the human's stance frames (m).
};

namespace internal::foot_contact {

RETARGET_DECL double groundOf(const Eigen::Matrix3Xd& p, const FootContactOptions& options);

}  // namespace internal::foot_contact

/// Contact figures of one foot: `robot`, its sole (3 x frames, m, frame W, z up; see the file
/// doc) sampled at `time` (s), and optionally `reference_stance`, the human's stance labels of
/// that foot (one per frame, nonzero: standing; nullptr: no floating figures). Throws
/// InvalidArgument when the sizes differ, the options are invalid, or the times are not finite
/// and strictly increasing.
RETARGET_DECL FootContact footContact(const std::vector<double>& time, const Eigen::Matrix3Xd& robot,
                                      const Eigen::VectorXi* reference_stance = nullptr,
                                      const FootContactOptions& options = {});

/// Trajectory (3 x frames, m, frame W) of `sole` (a found sole of `model`, see
/// `humanoidSoles`) at the configurations `q` (frames x nq, rad), the root link at `X_WB`: x and
/// y its points' centroid, z its lowest point (`solePlacement`). Throws InvalidArgument for a
/// sole that was not found or a q of the wrong width.
template <typename Scalar, typename Derived>
Eigen::Matrix3Xd soleTrajectory(const RobotModel<Scalar>& model, const HumanoidSole& sole,
                                const Eigen::MatrixBase<Derived>& q,
                                const Isometry3<Scalar>& X_WB = Isometry3<Scalar>::Identity()) {
  RETARGET_THROW_UNLESS(sole.found && !sole.points_L.empty() && sole.link_index >= 0 &&
                            sole.link_index < static_cast<int>(model.links().size()),
                        InvalidArgument, "sole (got '", sole.link, "', ", sole.source, "; expected a sole of robot '",
                        model.name(), "' with points)");
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
    const SolePlacement at =
        solePlacement(sole, data.X_WL[static_cast<std::size_t>(sole.link_index)].template cast<double>());
    p.col(k) << at.centre.x(), at.centre.y(), at.lowest;
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
                                      const Eigen::VectorXi* reference_stance, const FootContactOptions& options) {
  options.validate();
  const auto n = static_cast<Eigen::Index>(time.size());
  RETARGET_THROW_UNLESS(robot.cols() == n, InvalidArgument, "robot foot samples (got ", robot.cols(),
                        ", expected one per time stamp: ", n, ")");
  RETARGET_THROW_UNLESS(reference_stance == nullptr || reference_stance->size() == n, InvalidArgument,
                        "stance labels (got ", reference_stance ? reference_stance->size() : 0,
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
  if (reference_stance == nullptr) return out;

  double height_sum = 0;
  for (Eigen::Index k = 0; k < n; ++k) {
    if ((*reference_stance)[k] == 0 || !robot.col(k).allFinite()) continue;
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
                        "FootContactOptions::contact_height (got ", contact_height,
                        ", expected a finite value >= 0 in m)");
  RETARGET_THROW_UNLESS(!ground_height || std::isfinite(*ground_height), InvalidArgument,
                        "FootContactOptions::ground_height (got ", ground_height.value_or(0), ", expected finite m)");
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
