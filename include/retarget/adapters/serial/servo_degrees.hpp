#pragma once

/// @file
/// Joint angles (rad) to one-byte servo degrees and back, through a servo table
/// (adapters/serial/inmoov_servo_table.hpp): the positions of the paper's serial frames
/// (io/serial_frame.hpp, SerialJointEncoding::kUint8). Header-only, part of `retarget::retarget`.
///
/// s = round(offset_deg + direction * q * 180 / pi), clamped to [min_deg, max_deg]; rounding is
/// to the nearest degree, halves away from zero. Every function here is allocation-free and
/// noexcept, for the real-time path.

#include <cmath>
#include <cstddef>

#include <Eigen/Core>

#include <retarget/adapters/serial/inmoov_servo_table.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>

namespace retarget {

/// Servo degrees (min_deg..max_deg) for joint angle `angle` (rad). A non-finite angle gives the
/// offset clamped to the safe range. `clamped`, when given, is set to whether the rounded
/// degree lay outside [min_deg, max_deg] (or the angle was not finite).
inline int servoDegreesFromAngle(const ServoChannel& servo, double angle, bool* clamped = nullptr) noexcept {
  constexpr double kDegreesPerRadian = 180.0 / kPi<double>;
  const double lo = servo.min_deg;
  const double hi = servo.max_deg;
  double degrees = servo.offset_deg;
  bool outside = !std::isfinite(angle);
  if (!outside) degrees = std::round(servo.offset_deg + servo.direction * angle * kDegreesPerRadian);
  if (degrees < lo || degrees > hi) outside = true;
  if (clamped != nullptr) *clamped = outside;
  return static_cast<int>(degrees < lo ? lo : (degrees > hi ? hi : degrees));
}

/// Joint angle (rad) at which `servo` stands at `degrees` (not clamped): the inverse of
/// servoDegreesFromAngle inside the safe range.
inline double angleFromServoDegrees(const ServoChannel& servo, int degrees) noexcept {
  constexpr double kRadiansPerDegree = kPi<double> / 180.0;
  return static_cast<double>(servo.direction) * (degrees - servo.offset_deg) * kRadiansPerDegree;
}

/// Pulse width (us, rounded) the servo gets at `degrees` (0..180): the firmware's conversion,
/// for tests and tools on the host.
inline int servoPulseMicroseconds(const ServoChannel& servo, int degrees) noexcept {
  const long span = static_cast<long>(servo.pulse_us_at_180) - servo.pulse_us_at_0;
  return static_cast<int>(servo.pulse_us_at_0 + (degrees * span + 90) / 180);
}

/// Converts the configuration `q` (rad, one coordinate per servo, in table order) to servo
/// degrees in `degrees` (same size). Returns kInvalidInput and writes nothing when the sizes
/// differ from `count` or a coordinate is not finite; kClamped when a degree was clamped to its
/// servo's safe range. Never allocates or throws.
[[nodiscard]] inline Status servoDegreesFromAngles(const ServoChannel* table, std::size_t count,
                                                   const Eigen::Ref<const Eigen::VectorXd>& q,
                                                   Eigen::Ref<Eigen::VectorXi> degrees) noexcept {
  const auto n = static_cast<Eigen::Index>(count);
  if (table == nullptr || q.size() != n || degrees.size() != n || !q.allFinite()) return StatusCode::kInvalidInput;
  Status status;
  for (Eigen::Index i = 0; i < n; ++i) {
    bool clamped = false;
    degrees[i] = servoDegreesFromAngle(table[i], q[i], &clamped);
    if (clamped) status |= StatusCode::kClamped;
  }
  return status;
}

/// servoDegreesFromAngles with the InMoov table (kInMoovServos): `q` has the built-in InMoov's
/// 22 coordinates (robots/inmoov.hpp).
[[nodiscard]] inline Status inmoovServoDegrees(const Eigen::Ref<const Eigen::VectorXd>& q,
                                               Eigen::Ref<Eigen::VectorXi> degrees) noexcept {
  return servoDegreesFromAngles(kInMoovServos, kInMoovServoCount, q, degrees);
}

}  // namespace retarget
