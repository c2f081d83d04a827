#pragma once

/// @file
/// Which of the human's feet stands on the ground, frame by frame (beyond the seeds; the labels
/// the floating-base mapper plants the robot's soles by, mappers/humanoid_floating_base.hpp).
///
/// A foot of a skeleton frame (canonical frame W, z up, m) is its ankle and its foot point
/// (`kAnkleLeft`, `kFootLeft`, ...). Definitions (thresholds in `FootStanceOptions`):
///  - the floor: per point kind, the height of the ankles and of the foot points when the feet
///    stand (`HumanFloor`): measured on a whole take by `humanFloor()` (a low percentile of
///    each, so one noisy sample does not move it), or, online without one, the lowest seen so far;
///  - the height of a foot: h = max(z_ankle - floor.ankle_z, z_foot - floor.foot_z) (m): both
///    heel and toe down, i.e. the foot flat on the floor. A heel strike before the toe comes down
///    and a heel-off before the toe leaves are not stance: the robot's sole is planted flat, and
///    a flat sole held through the human's heel-off holds the hips back (its stride ends short)
///    until the foot lifts, when they catch up at once;
///  - its speed: the horizontal speed of the midpoint of its two points over the last
///    `speed_window` seconds (a backward difference to the newest sample at least that old, the
///    oldest when the take is younger), so that the same motion gives the same speed at 30 and at
///    120 frames a second, and a later start the same labels once `speed_window` has passed;
///  - in stance when h <= `contact_height` and the speed is <= `contact_speed`; a foot in stance
///    stays there while h <= `contact_height` and the speed is <= `release_speed` (a heel strike
///    slows through `contact_speed` over several samples: the label does not flicker).
/// A foot whose points are not usable (not tracked) keeps its last label.
///
/// The thresholds were measured on the shared neutral walk (tests/tuning_split.md, `foot_stance`):
/// a flat standing foot stays within 2 cm of the floor and moves below 0.1 m/s; a swinging foot
/// is 3 cm or more above it where it moves at 3 m/s; a heel strike slows from 0.4 to 0.3 m/s
/// over 30 ms.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// The human's floor, per point kind (m, z in W): where the ankles and the foot points are when
/// the feet stand. NaN: unknown.
struct HumanFloor {
  double ankle_z = std::numeric_limits<double>::quiet_NaN();
  double foot_z = std::numeric_limits<double>::quiet_NaN();
};

/// Thresholds of the stance labels (a validated aggregate; see the file doc).
struct FootStanceOptions {
  /// A foot stands when its height above the floor is at most this (m, >= 0).
  double contact_height = 0.03;
  /// ... and its horizontal speed at most this (m/s, > 0).
  double contact_speed = 0.35;
  /// A standing foot leaves stance only when faster than this (m/s, >= contact_speed): a heel
  /// strike slows through contact_speed over several samples, and the label must not flicker.
  double release_speed = 0.7;
  /// Time over which the speed is measured (s, > 0).
  double speed_window = 1.0 / 30.0;
  /// The take's floor (see `humanFloor()`); unset: the lowest point of each kind seen so far.
  std::optional<HumanFloor> floor{};

  /// Throws InvalidArgument naming the field and value.
  void validate() const {
    RETARGET_THROW_UNLESS(std::isfinite(contact_height) && contact_height >= 0, InvalidArgument,
                          "FootStanceOptions::contact_height (got ", contact_height, ", expected >= 0 m)");
    RETARGET_THROW_UNLESS(std::isfinite(contact_speed) && contact_speed > 0, InvalidArgument,
                          "FootStanceOptions::contact_speed (got ", contact_speed, ", expected > 0 m/s)");
    RETARGET_THROW_UNLESS(std::isfinite(release_speed) && release_speed >= contact_speed, InvalidArgument,
                          "FootStanceOptions::release_speed (got ", release_speed, ", expected >= contact_speed ",
                          contact_speed, " m/s)");
    RETARGET_THROW_UNLESS(std::isfinite(speed_window) && speed_window > 0, InvalidArgument,
                          "FootStanceOptions::speed_window (got ", speed_window, ", expected > 0 s)");
    if (floor) {
      RETARGET_THROW_UNLESS(std::isfinite(floor->ankle_z) && std::isfinite(floor->foot_z), InvalidArgument,
                            "FootStanceOptions::floor (got ankle_z ", floor->ankle_z, ", foot_z ", floor->foot_z,
                            ", expected finite heights in m)");
    }
  }
};

/// The floor of a whole take: per point kind, the `percentile` (in [0, 1)) of the usable samples
/// of both feet. Throws InvalidArgument when the take has no usable ankle or foot point.
template <typename Scalar>
HumanFloor humanFloor(const SkeletonMotion<Scalar>& motion, double percentile = 0.02) {
  RETARGET_THROW_UNLESS(percentile >= 0 && percentile < 1, InvalidArgument, "percentile (got ", percentile,
                        ", expected in [0, 1))");
  std::vector<double> ankles, feet;
  using J = HumanJoint;
  for (const SkeletonFrame<Scalar>& frame : motion.frames) {
    for (J a : {J::kAnkleLeft, J::kAnkleRight}) {
      if (frame.usable(a)) ankles.push_back(static_cast<double>(frame.position(a).z()));
    }
    for (J f : {J::kFootLeft, J::kFootRight}) {
      if (frame.usable(f)) feet.push_back(static_cast<double>(frame.position(f).z()));
    }
  }
  RETARGET_THROW_UNLESS(!ankles.empty() && !feet.empty(), InvalidArgument,
                        "motion (got no usable ankle or foot point, expected feet to find the floor by)");
  auto at = [percentile](std::vector<double>& v) {
    const auto k = static_cast<std::size_t>(percentile * static_cast<double>(v.size()));
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
    return v[k];
  };
  return HumanFloor{at(ankles), at(feet)};
}

/// Per-frame stance labels of the two feet (index 0 left, 1 right; see the file doc). Never
/// allocates after construction; one per take (`reset()` between takes).
template <typename Scalar = double>
class FootStanceDetector {
 public:
  explicit FootStanceDetector(FootStanceOptions options = {}) : options_(options) {
    options_.validate();
    reset();
  }

  /// Labels for `frame` (its time in s must not decrease; an earlier time restarts the history).
  std::array<bool, 2> update(const SkeletonFrame<Scalar>& frame) noexcept {
    using J = HumanJoint;
    constexpr J kAnkle[2] = {J::kAnkleLeft, J::kAnkleRight};
    constexpr J kFoot[2] = {J::kFootLeft, J::kFootRight};
    const double t = static_cast<double>(frame.time);
    for (std::size_t s = 0; s < 2; ++s) {
      if (!frame.usable(kAnkle[s]) || !frame.usable(kFoot[s])) continue;
      const Vector3<Scalar> ankle = frame.position(kAnkle[s]), foot = frame.position(kFoot[s]);
      if (!options_.floor) {
        floor_.ankle_z = std::isnan(floor_.ankle_z) ? double(ankle.z()) : std::min(floor_.ankle_z, double(ankle.z()));
        floor_.foot_z = std::isnan(floor_.foot_z) ? double(foot.z()) : std::min(floor_.foot_z, double(foot.z()));
      }
      const double height = std::max(double(ankle.z()) - floor_.ankle_z, double(foot.z()) - floor_.foot_z);
      const Eigen::Vector2d mid = (Scalar(0.5) * (ankle + foot)).template head<2>().template cast<double>();
      History& h = history_[s];
      if (h.count > 0 && t < h.time[static_cast<std::size_t>(h.newest)]) h.count = 0;
      // Newest sample at least speed_window old, else the oldest one kept.
      double speed = 0;
      for (int back = 0; back < h.count; ++back) {
        const int i = (h.newest - back + kHistory) % kHistory;
        if (t - h.time[static_cast<std::size_t>(i)] >= options_.speed_window || back == h.count - 1) {
          const double dt = t - h.time[static_cast<std::size_t>(i)];
          if (dt > 0) speed = (mid - h.mid[static_cast<std::size_t>(i)]).norm() / dt;
          break;
        }
      }
      h.newest = (h.newest + 1) % kHistory;
      h.time[static_cast<std::size_t>(h.newest)] = t;
      h.mid[static_cast<std::size_t>(h.newest)] = mid;
      h.count = std::min(h.count + 1, kHistory);
      stance_[s] =
          height <= options_.contact_height && speed <= (stance_[s] ? options_.release_speed : options_.contact_speed);
      height_[s] = height;
      speed_[s] = speed;
    }
    return stance_;
  }

  /// Forgets the history (and the running floor when none was given).
  void reset() noexcept {
    floor_ = options_.floor ? *options_.floor : HumanFloor{};
    for (History& h : history_) h = History{};
    stance_ = {false, false};
    height_ = speed_ = {0.0, 0.0};
  }

  const std::array<bool, 2>& stance() const noexcept { return stance_; }
  /// Height above the floor (m) and horizontal speed (m/s) of each foot at the last update.
  const std::array<double, 2>& height() const noexcept { return height_; }
  const std::array<double, 2>& speed() const noexcept { return speed_; }
  const HumanFloor& floor() const noexcept { return floor_; }
  const FootStanceOptions& options() const noexcept { return options_; }

 private:
  // Enough samples for the window at 1 kHz input with the default window; at higher rates the
  // oldest sample kept spans less than the window.
  static constexpr int kHistory = 48;
  struct History {
    std::array<double, kHistory> time{};
    std::array<Eigen::Vector2d, kHistory> mid{};
    int newest = kHistory - 1;
    int count = 0;
  };
  FootStanceOptions options_;
  HumanFloor floor_{};
  std::array<History, 2> history_{};
  std::array<bool, 2> stance_{};
  std::array<double, 2> height_{}, speed_{};
};

/// The stance labels of a whole take (rows: frames; columns: left, right; 1: standing), with the
/// take's floor (`humanFloor(motion)`) unless `options` gives one: the one definition of a human
/// foot on the ground that the floating-base mapper plants soles by and the contact metrics
/// measure against. A take without a usable ankle and foot point stands nowhere (all 0). Throws
/// InvalidArgument for invalid options.
template <typename Scalar>
Eigen::Matrix<int, Eigen::Dynamic, 2> humanStance(const SkeletonMotion<Scalar>& motion,
                                                  FootStanceOptions options = {}) {
  options.validate();
  Eigen::Matrix<int, Eigen::Dynamic, 2> stance =
      Eigen::Matrix<int, Eigen::Dynamic, 2>::Zero(static_cast<Eigen::Index>(motion.frames.size()), 2);
  if (!options.floor) {
    bool ankle = false, foot = false;
    for (const SkeletonFrame<Scalar>& f : motion.frames) {
      ankle = ankle || f.usable(HumanJoint::kAnkleLeft) || f.usable(HumanJoint::kAnkleRight);
      foot = foot || f.usable(HumanJoint::kFootLeft) || f.usable(HumanJoint::kFootRight);
    }
    if (!ankle || !foot) return stance;
    options.floor = humanFloor(motion);
  }
  FootStanceDetector<Scalar> detector(options);
  for (std::size_t k = 0; k < motion.frames.size(); ++k) {
    const std::array<bool, 2> labels = detector.update(motion.frames[k]);
    stance(static_cast<Eigen::Index>(k), 0) = labels[0] ? 1 : 0;
    stance(static_cast<Eigen::Index>(k), 1) = labels[1] ? 1 : 0;
  }
  return stance;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_HUMAN class FootStanceDetector<double>;
RETARGET_TEMPLATE_HUMAN class FootStanceDetector<float>;
#endif

}  // namespace retarget
