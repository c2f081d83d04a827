// The optimised forward kinematics (issue 30) against the former code path
// (internal::forwardKinematicsReference) on every built-in robot: seeded random configurations
// within the limits and beyond them, random root poses, double and float.
// (tests/core/forward_kinematics_test.cpp does the same on random trees with arbitrary axes and
// prismatic joints; builtin_models_test.cpp and urdf_test.cpp check both against orocos KDL.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/robots/builtin.hpp>

#include "robots/kdl_reference.hpp"
#include "support/pose_difference.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using retarget::test::worstPoseDifference;

namespace {


}  // namespace

TEST_CASE("builtin robots: forward kinematics equals the reference path on random configurations") {
  const int count = test::sweepCount(1000);
  for (const auto& name : builtinRobotNames()) {
    CAPTURE(name);
    const auto model = makeBuiltinRobot<double>(name);
    RobotData<double> data(model), reference(model);
    std::mt19937 rng(300);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    double worst = 0;
    for (int n = 0; n < count; ++n) {
      VectorX<double> q = test::randomConfiguration(model, rng);
      if (n % 4 == 3) q *= 4.0;  // beyond the limits: FK does not clamp
      if (n % 2 == 1) {
        data.X_WB = Eigen::Translation3d(unit(rng), unit(rng), unit(rng)) *
                    Eigen::AngleAxisd(3 * unit(rng), Eigen::Vector3d(unit(rng), unit(rng), 1).normalized());
        reference.X_WB = data.X_WB;
      }
      forwardKinematics(model, data, q);
      internal::forwardKinematicsReference(model, reference, q);
      const double difference = worstPoseDifference(data, reference);
      CAPTURE(n);
      REQUIRE(difference < 1e-12);
      REQUIRE(data.joint_values == reference.joint_values);
      worst = std::max(worst, difference);
    }
    MESSAGE(name << ": worst pose difference " << worst << " over " << count << " configurations");
  }
}

TEST_CASE("builtin robots: float forward kinematics equals the float reference path") {
  for (const auto& name : builtinRobotNames()) {
    CAPTURE(name);
    const auto model = makeBuiltinRobot<float>(name);
    const auto model_d = makeBuiltinRobot<double>(name);
    RobotData<float> data(model), reference(model);
    std::mt19937 rng(301);
    double worst = 0;
    for (int n = 0; n < test::sweepCount(100); ++n) {
      const VectorX<float> q = test::randomConfiguration(model_d, rng).cast<float>();
      forwardKinematics(model, data, q);
      internal::forwardKinematicsReference(model, reference, q);
      worst = std::max(worst, worstPoseDifference(data, reference));
    }
    CHECK(worst < 2e-5);
  }
}
