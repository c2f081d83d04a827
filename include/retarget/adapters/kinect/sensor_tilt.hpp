#pragma once

/// @file
/// The Kinect's pitch (tilt) taken out of its skeletons. Sources hand out frames in the
/// canonical frame W fixed to the sensor (human/frames.hpp: m, origin at the sensor, x from the
/// person toward the sensor, y to the person's left, z the camera's up). A sensor pitched down
/// by θ sees the room's vertical leaning, which skews every pitch a mapper reads. The Kinect SDK
/// knows the floor plane, but KinectV2-OSC does not send it, so the tilt is given (`retarget live
/// --sensor-tilt DEG`) or estimated here from the person's first frames.
///
/// Convention: θ > 0 when the sensor looks down. The camera's pitch axis is its x axis, −y in W,
/// so the level frame L has p_L = R_y(−θ) p_W and R_LJ = R_y(−θ) R_WJ, and the room's up seen in
/// W is u_W = R_y(θ) (0, 0, 1) = (sin θ, 0, cos θ): θ = atan2(u_W.x, u_W.z).
///
/// Estimate (`SensorTiltEstimator`): while the person stands the feet rest on the floor, so the
/// foot joints lie on one plane whose upward normal is u_W. When the collected foot points span
/// `min_floor_span` (m) in depth (x) and across (y) (the person stepped about), u_W is the
/// plane's normal (least squares); otherwise (a person standing still) it is the mean direction
/// of the body's vertical, the ankles' midpoint to SpineShoulder, which a standing person holds
/// within a few degrees. Frames with a foot or that line untracked are skipped.

#include <array>
#include <cmath>
#include <cstddef>

#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>

#include <retarget/core/error.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Levels one frame (frame W) in place: positions and orientations turned by R_y(−`tilt`) (rad,
/// > 0 when the sensor looks down). Never allocates or throws.
inline void levelSensorTilt(SkeletonFrame<double>& frame, double tilt) noexcept {
  const Eigen::Quaterniond R_LC(Eigen::AngleAxisd(-tilt, Eigen::Vector3d::UnitY()));
  const Eigen::Matrix3d R = R_LC.toRotationMatrix();
  for (auto& p : frame.p_W) p = R * p;
  if (frame.has_orientations) {
    for (auto& R_WJ : frame.R_WJ) R_WJ = R_LC * R_WJ;
  }
}

/// How the tilt was estimated.
enum class SensorTiltSource { kNone, kFloorPlane, kBodyVertical };

/// Options of `SensorTiltEstimator`.
struct SensorTiltOptions {
  /// Frames with both feet and the body's vertical tracked to collect (>= 5).
  int frames = 60;
  /// m (> 0): the foot points must span this much in depth and across for the floor plane.
  double min_floor_span = 0.4;

  /// Throws InvalidArgument naming the field.
  void validate() const {
    RETARGET_THROW_UNLESS(frames >= 5 && frames <= 10000, InvalidArgument,
                          "SensorTiltOptions.frames must be in 5..10000 (got ", frames, ")");
    RETARGET_THROW_UNLESS(min_floor_span > 0 && min_floor_span <= 10, InvalidArgument,
                          "SensorTiltOptions.min_floor_span must be in (0, 10] m (got ", min_floor_span, ")");
  }
};

/// Estimates the sensor's tilt from the first frames of a person standing (see the file comment).
class SensorTiltEstimator {
 public:
  /// Throws InvalidArgument on bad options.
  explicit SensorTiltEstimator(const SensorTiltOptions& options = {}) : options_((options.validate(), options)) {}

  /// Offers one frame (frame W of the sensor). Returns true once enough frames are collected. Never
  /// allocates or throws.
  bool add(const SkeletonFrame<double>& frame) noexcept {
    if (ready()) return true;
    using J = HumanJoint;
    for (const J joint : {J::kFootLeft, J::kFootRight, J::kAnkleLeft, J::kAnkleRight, J::kSpineShoulder}) {
      if (!frame.usable(joint)) return false;
    }
    const Eigen::Vector3d mid_ankles = 0.5 * (frame.position(J::kAnkleLeft) + frame.position(J::kAnkleRight));
    const Eigen::Vector3d vertical = frame.position(J::kSpineShoulder) - mid_ankles;
    if (!(vertical.norm() > 0.3)) return false;  // not a standing body (m)
    vertical_sum_ += vertical.normalized();
    for (const J foot : {J::kFootLeft, J::kFootRight}) {
      const Eigen::Vector3d& p = frame.position(foot);
      sum_ += p;
      outer_sum_ += p * p.transpose();
      low_ = low_.cwiseMin(p);
      high_ = high_.cwiseMax(p);
    }
    ++count_;
    return ready();
  }

  bool ready() const noexcept { return count_ >= options_.frames; }
  int frameCount() const noexcept { return count_; }

  /// Where the estimate came from (kNone before any frame was collected).
  SensorTiltSource source() const noexcept {
    if (count_ == 0) return SensorTiltSource::kNone;
    const Eigen::Vector3d span = high_ - low_;
    return span.x() >= options_.min_floor_span && span.y() >= options_.min_floor_span ? SensorTiltSource::kFloorPlane
                                                                                       : SensorTiltSource::kBodyVertical;
  }

  /// The room's up direction in frame W (unit), from the frames collected so far; +z before any
  /// frame.
  Eigen::Vector3d upInSensorFrame() const {
    if (source() == SensorTiltSource::kNone) return Eigen::Vector3d::UnitZ();
    Eigen::Vector3d up = vertical_sum_.normalized();
    if (source() == SensorTiltSource::kFloorPlane) {
      const double n = 2.0 * count_;
      const Eigen::Vector3d mean = sum_ / n;
      const Eigen::Matrix3d covariance = outer_sum_ / n - mean * mean.transpose();
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> solver(covariance);
      Eigen::Vector3d normal = solver.eigenvectors().col(0);  // the smallest spread
      if (normal.dot(up) < 0) normal = -normal;
      up = normal;
    }
    return up;
  }

  /// The tilt θ (rad, > 0 looking down) of the frames collected so far; 0 before any frame.
  double tilt() const {
    const Eigen::Vector3d up = upInSensorFrame();
    return std::atan2(up.x(), up.z());
  }

 private:
  SensorTiltOptions options_;
  Eigen::Vector3d vertical_sum_ = Eigen::Vector3d::Zero();
  Eigen::Vector3d sum_ = Eigen::Vector3d::Zero();
  Eigen::Matrix3d outer_sum_ = Eigen::Matrix3d::Zero();
  Eigen::Vector3d low_ = Eigen::Vector3d::Constant(1e9), high_ = Eigen::Vector3d::Constant(-1e9);
  int count_ = 0;
};

}  // namespace retarget
