// The Kinect's tilt: levelling is undone by the opposite tilt; on the shared recordings a tilt
// added to the camera is found again (the estimate follows the camera, with the right sign) and
// the levelled frames estimate to level; on a generated scene whose body leans but whose feet
// walk a floor, the floor plane (not the leaning body) gives the camera's tilt.

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>

#include <retarget/adapters/kinect/sensor_tilt.hpp>
#include <retarget/io/kinect.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

constexpr double kDegree = M_PI / 180.0;

double estimateTilt(const SkeletonMotion<double>& motion, double added_tilt, SensorTiltSource& source) {
  SensorTiltEstimator estimator;
  for (SkeletonFrame<double> frame : motion.frames) {
    levelSensorTilt(frame, -added_tilt);  // what a camera pitched down by added_tilt more sees
    if (estimator.add(frame)) break;
  }
  source = estimator.source();
  return estimator.tilt();
}

}  // namespace

TEST_CASE("Sensor tilt: levelling undoes a tilt, positions and orientations") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  SkeletonFrame<double> frame;
  frame.has_orientations = true;
  for (std::size_t j = 0; j < frame.p_W.size(); ++j) {
    frame.p_W[j] = Eigen::Vector3d(unit(rng), unit(rng), 2 + unit(rng));
    frame.R_WJ[j] = Eigen::Quaterniond(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
  }
  SkeletonFrame<double> moved = frame;
  levelSensorTilt(moved, 0.3);
  CHECK((moved.p_W[3] - frame.p_W[3]).norm() > 0.1);
  levelSensorTilt(moved, -0.3);
  for (std::size_t j = 0; j < frame.p_W.size(); ++j) {
    CHECK((moved.p_W[j] - frame.p_W[j]).norm() < 1e-12);
    CHECK(moved.R_WJ[j].angularDistance(frame.R_WJ[j]) < 1e-7);
  }
}

TEST_CASE("Sensor tilt: on the shared recordings an added tilt is found again, and levelled frames read level") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* name : {"laban_ges01_wavehand_kinect2.csv", "laban_ges03_drawlines_kinect2.csv", "laban_ges04_comehere_kinect2.csv",
                           "laban_ges06_chickenwing_kinect2.csv"}) {
    CAPTURE(std::string(name));
    const SkeletonMotion<double> motion = readKinect((data_dir / "kinect" / name).string());
    SensorTiltSource source = SensorTiltSource::kNone;
    const double own = estimateTilt(motion, 0.0, source);
    REQUIRE(source != SensorTiltSource::kNone);
    MESSAGE(std::string(name), ": estimated tilt ", own / kDegree, " deg (",
            std::string(source == SensorTiltSource::kFloorPlane ? "floor" : "body"), ")");
    CHECK(std::abs(own) < 30 * kDegree);  // a sensor on a stand, roughly level
    for (const double added : {-15.0, 10.0, 25.0}) {
      SensorTiltSource added_source = SensorTiltSource::kNone;
      const double found = estimateTilt(motion, added * kDegree, added_source);
      CHECK(added_source == source);
      CHECK(std::abs(found - own - added * kDegree) < 0.1 * kDegree);
    }
    // Levelled by its own estimate, the recording estimates to level.
    SkeletonMotion<double> levelled = motion;
    for (auto& frame : levelled.frames) levelSensorTilt(frame, own);
    CHECK(std::abs(estimateTilt(levelled, 0.0, source)) < 0.1 * kDegree);
  }
}

TEST_CASE("Sensor tilt: feet walking a floor give the floor's tilt, not the leaning body's") {
  // A person leaning 8 deg forward walks a 1.2 m x 1.5 m patch of floor 0.9 m below a camera
  // pitched down 17 deg; feet lift up to 2 cm (noise), the body's line leans. Frame W of the
  // sensor: x toward the sensor, y left, z up.
  const double camera_tilt = 17 * kDegree, lean = 8 * kDegree;
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> across(-0.6, 0.6), depth(-3.0, -1.5), lift(0.0, 0.02);
  SensorTiltEstimator estimator;
  SensorTiltOptions narrow;
  narrow.min_floor_span = 5.0;  // more than the patch: the body's vertical
  SensorTiltEstimator body_line(narrow);
  for (int f = 0; f < 200 && !estimator.ready(); ++f) {
    SkeletonFrame<double> frame;  // level frame L first
    const Eigen::Vector3d centre(depth(rng), across(rng), -0.9);
    using J = HumanJoint;
    frame.position(J::kFootLeft) = centre + Eigen::Vector3d(0.1, 0.12, lift(rng));
    frame.position(J::kFootRight) = centre + Eigen::Vector3d(0.1, -0.12, lift(rng));
    frame.position(J::kAnkleLeft) = centre + Eigen::Vector3d(0, 0.12, 0.08);
    frame.position(J::kAnkleRight) = centre + Eigen::Vector3d(0, -0.12, 0.08);
    frame.position(J::kSpineShoulder) = centre + Eigen::Vector3d(1.3 * std::sin(lean), 0, 0.08 + 1.3 * std::cos(lean));
    for (const J joint : {J::kFootLeft, J::kFootRight, J::kAnkleLeft, J::kAnkleRight, J::kSpineShoulder}) {
      frame.trackingState(joint) = TrackingState::kTracked;
    }
    levelSensorTilt(frame, -camera_tilt);  // into the tilted sensor's frame
    estimator.add(frame);
    body_line.add(frame);
  }
  REQUIRE(estimator.ready());
  CHECK(estimator.source() == SensorTiltSource::kFloorPlane);
  CHECK(std::abs(estimator.tilt() - camera_tilt) < 0.5 * kDegree);
  // The body's line alone is off by the lean (toward the sensor: read as more tilt).
  CHECK(body_line.source() == SensorTiltSource::kBodyVertical);
  CHECK(std::abs(body_line.tilt() - (camera_tilt + lean)) < 0.5 * kDegree);
  SensorTiltEstimator body;
  CHECK_THROWS_WITH_AS(SensorTiltEstimator(SensorTiltOptions{2, 0.4}), doctest::Contains("frames"), InvalidArgument);
  CHECK(body.tilt() == 0.0);
  CHECK(body.source() == SensorTiltSource::kNone);
}
