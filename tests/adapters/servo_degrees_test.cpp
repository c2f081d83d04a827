// The InMoov servo table and the conversion of joint angles to one-byte servo degrees: the
// table matches the built-in model, every servo degree in the safe range survives degree ->
// angle -> degree, angles beyond the range clamp and say so, and the direction flips the sense.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <set>
#include <string>

#include <retarget/adapters/serial/servo_degrees.hpp>
#include <retarget/robots/inmoov.hpp>

#include "support/allocation.hpp"

using namespace retarget;

TEST_CASE("servo table: one servo per InMoov coordinate, distinct pins, consistent ranges") {
  const RobotModel<double> model = makeInMoov();
  REQUIRE(model.nq() == kInMoovServoCount);
  std::set<int> pins;
  for (int i = 0; i < kInMoovServoCount; ++i) {
    const ServoChannel& s = kInMoovServos[i];
    CAPTURE(kInMoovJointNames[static_cast<std::size_t>(i)]);
    pins.insert(s.pin);
    CHECK(s.pin >= 2);
    CHECK(s.pin <= 53);  // the Mega 2560's digital pins, 0 and 1 being the serial port
    CHECK((s.direction == 1 || s.direction == -1));
    CHECK(s.min_deg <= s.max_deg);
    CHECK(s.max_deg <= 180);
    CHECK(s.pulse_us_at_0 < s.pulse_us_at_180);
    // Joint angle 0 lies inside the model's limits, and maps inside the servo's safe range.
    CHECK(model.lowerLimits()[i] <= 0.0);
    CHECK(model.upperLimits()[i] >= 0.0);
    CHECK(s.offset_deg >= s.min_deg);
    CHECK(s.offset_deg <= s.max_deg);
    // Every angle the model allows reaches its servo unclamped: the model's limits lie inside
    // the servo's safe range (robots/inmoov.hpp takes them from the same MyRobotLab ranges).
    bool clamped = true;
    (void)servoDegreesFromAngle(s, model.lowerLimits()[i], &clamped);
    CHECK_MESSAGE(!clamped, "lower limit ", model.lowerLimits()[i], " rad is beyond the servo's ", int{s.min_deg}, "..",
                  int{s.max_deg});
    clamped = true;
    (void)servoDegreesFromAngle(s, model.upperLimits()[i], &clamped);
    CHECK_MESSAGE(!clamped, "upper limit ", model.upperLimits()[i], " rad is beyond the servo's ", int{s.min_deg}, "..",
                  int{s.max_deg});
  }
  CHECK(pins.size() == std::size_t{kInMoovServoCount});
  CHECK(kInMoovServoSpeedDegPerS == 45);  // MyRobotLab's InMoov2 servo speed
}

TEST_CASE("servo degrees: degree -> angle -> degree is exact over every servo's safe range") {
  for (int i = 0; i < kInMoovServoCount; ++i) {
    const ServoChannel& s = kInMoovServos[i];
    for (int d = s.min_deg; d <= s.max_deg; ++d) {
      bool clamped = true;
      const double angle = angleFromServoDegrees(s, d);
      CHECK(servoDegreesFromAngle(s, angle, &clamped) == d);
      CHECK_FALSE(clamped);
      // Just under half a degree either side still rounds to d.
      CHECK(servoDegreesFromAngle(s, angle + 0.49 * M_PI / 180.0) == d);
      CHECK(servoDegreesFromAngle(s, angle - 0.49 * M_PI / 180.0) == d);
    }
  }
}

TEST_CASE("servo degrees: rounding to the nearest degree, clamping to the safe range, direction") {
  const ServoChannel up{9, 90, 1, 40, 180, 544, 2400};
  const ServoChannel down{9, 90, -1, 40, 180, 544, 2400};
  const double degree = M_PI / 180.0;
  bool clamped = false;
  CHECK(servoDegreesFromAngle(up, 10.4 * degree) == 100);
  CHECK(servoDegreesFromAngle(up, 10.6 * degree) == 101);
  CHECK(servoDegreesFromAngle(down, 10.4 * degree) == 80);
  CHECK(servoDegreesFromAngle(down, 10.6 * degree) == 79);
  // Direction: the same angle moves the two servos to mirror positions about the offset.
  for (double a = -0.8; a <= 0.8; a += 0.01) {
    CHECK(servoDegreesFromAngle(up, a) + servoDegreesFromAngle(down, a) == 180);
  }
  CHECK(servoDegreesFromAngle(up, -60.0 * degree, &clamped) == 40);
  CHECK(clamped);
  CHECK(servoDegreesFromAngle(up, 120.0 * degree, &clamped) == 180);
  CHECK(clamped);
  CHECK(servoDegreesFromAngle(down, 60.0 * degree, &clamped) == 40);
  CHECK(clamped);
  CHECK(servoDegreesFromAngle(up, -50.0 * degree, &clamped) == 40);
  CHECK_FALSE(clamped);
  CHECK(servoDegreesFromAngle(up, std::nan(""), &clamped) == 90);
  CHECK(clamped);
  // Pulse widths: the Servo library's 544..2400 us over 0..180 deg, rounded.
  CHECK(servoPulseMicroseconds(up, 0) == 544);
  CHECK(servoPulseMicroseconds(up, 180) == 2400);
  CHECK(servoPulseMicroseconds(up, 90) == 1472);
  CHECK(servoPulseMicroseconds(up, 1) == 554);  // 544 + 10.31
}

TEST_CASE("servo degrees: the InMoov configuration; sizes and non-finite input refused; no allocation") {
  const RobotModel<double> model = makeInMoov();
  std::mt19937 rng(7);
  Eigen::VectorXd q(model.nq());
  Eigen::VectorXi degrees = Eigen::VectorXi::Constant(model.nq(), -1);
  for (int k = 0; k < 200; ++k) {
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      std::uniform_real_distribution<double> in(model.lowerLimits()[i], model.upperLimits()[i]);
      q[i] = in(rng);
    }
    Status status;
    std::size_t allocations = 1;
    {
      test::NoAllocationScope no_allocation;
      status = inmoovServoDegrees(q, degrees);
      allocations = no_allocation.allocations();
    }
    CHECK(allocations == 0);
    CHECK(status.ok());  // inside the model's limits nothing is clamped
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      const ServoChannel& s = kInMoovServos[i];
      CHECK(degrees[i] >= s.min_deg);
      CHECK(degrees[i] <= s.max_deg);
      CHECK(degrees[i] == servoDegreesFromAngle(s, q[i]));
    }
  }
  CHECK(inmoovServoDegrees(Eigen::VectorXd::Zero(model.nq()), degrees).ok());
  for (Eigen::Index i = 0; i < q.size(); ++i) CHECK(degrees[i] == kInMoovServos[i].offset_deg);
  q.setZero();
  q[3] = 4.0;  // beyond right_shoulder_up's servo range
  CHECK(inmoovServoDegrees(q, degrees) == Status(StatusCode::kClamped));
  CHECK(degrees[3] == 180);
  const Eigen::VectorXi kept = degrees;
  q[5] = std::nan("");
  CHECK(inmoovServoDegrees(q, degrees) == Status(StatusCode::kInvalidInput));
  CHECK(degrees == kept);
  Eigen::VectorXi short_out(3);
  CHECK(inmoovServoDegrees(Eigen::VectorXd::Zero(model.nq()), short_out) == Status(StatusCode::kInvalidInput));
}
