// Public API of the streaming DTW forms not covered elsewhere: IncrementalDtw::reserve and
// IncrementalJointDtw::appendHuman / appendRobot / reset, each against the batch functions.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/weighted_dtw.hpp>

#include "support/allocation.hpp"

using namespace retarget;

namespace {
Eigen::MatrixXd randomMatrix(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0, 1);
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index c = 0; c < cols; ++c) {
    for (Eigen::Index r = 0; r < rows; ++r) m(r, c) = n(rng);
  }
  return m;
}
}  // namespace

TEST_CASE("IncrementalDtw::reserve: keeps the frames, appends within it allocate nothing, never shrinks") {
  const Eigen::MatrixXd a = randomMatrix(3, 40, 1), b = randomMatrix(3, 30, 2);
  IncrementalDtw<double> live(3);  // no capacity
  for (int k = 0; k < 5; ++k) REQUIRE(live.appendA(a.col(k)).ok());
  live.reserve(40);  // after frames were appended: they are kept
  CHECK(live.sizeA() == 5);
  CHECK(live.sequenceA() == a.leftCols(5));
  std::size_t allocations = 0;
  {
    test::NoAllocationScope scope;
    for (int k = 5; k < 40; ++k) (void)live.appendA(a.col(k));
    for (int k = 0; k < 30; ++k) (void)live.appendB(b.col(k));
    allocations = scope.allocations();
  }
  CHECK(allocations == 0);
  CHECK(live.cost() == dtw(a, b).cost);
  live.reserve(2);  // never shrinks
  CHECK(live.sizeA() == 40);
  CHECK(live.cost() == dtw(a, b).cost);
  CHECK_THROWS_AS(live.reserve(-1), InvalidArgument);
  // The check above can fail: without the reserve, growing past the capacity allocates.
  IncrementalDtw<double> small(3, 2);
  {
    test::NoAllocationScope scope;
    for (int k = 0; k < 40; ++k) (void)small.appendA(a.col(k));
    allocations = scope.allocations();
  }
  CHECK(allocations > 0);
}

TEST_CASE("IncrementalJointDtw: appendHuman / appendRobot in any order equal the batch; reset forgets") {
  const Eigen::Index joints = 4, frames = 25;
  const Eigen::MatrixXd human = randomMatrix(joints, frames, 3), robot = randomMatrix(joints, frames + 5, 4);
  const Eigen::Vector4d weights(1, 2, 0, 0.5);
  const auto batch = weightedJointDtw(human, robot, weights);
  IncrementalJointDtw<double> live(weights, 64);
  CHECK(std::isinf(live.systemDistance()));
  // All the human frames first, then the robot's (not one pair per step).
  for (Eigen::Index t = 0; t < frames; ++t) REQUIRE(live.appendHuman(human.col(t)).ok());
  CHECK(live.humanFrames() == frames);
  CHECK(live.robotFrames() == 0);
  CHECK(std::isinf(live.systemDistance()));
  for (Eigen::Index t = 0; t < frames + 5; ++t) REQUIRE(live.appendRobot(robot.col(t)).ok());
  CHECK(live.systemDistance() == batch.system_distance);
  for (Eigen::Index x = 0; x < joints; ++x) CHECK(live.jointDistance(x) == batch.joint_distances[x]);
  // Bad frames change nothing.
  CHECK(live.appendHuman(Eigen::Vector3d(1, 2, 3)).has(StatusCode::kInvalidInput));
  CHECK(live.appendHuman(Eigen::Vector4d(1, NAN, 3, 4)).has(StatusCode::kInvalidInput));
  CHECK(live.humanFrames() == frames);
  // reset(): empty again, and the same appends give the same result without allocating.
  live.reset();
  CHECK(live.humanFrames() == 0);
  CHECK(live.robotFrames() == 0);
  CHECK(std::isinf(live.systemDistance()));
  std::size_t allocations = 0;
  {
    test::NoAllocationScope scope;
    for (Eigen::Index t = 0; t < frames + 5; ++t) (void)live.appendRobot(robot.col(t));
    for (Eigen::Index t = 0; t < frames; ++t) (void)live.appendHuman(human.col(t));
    allocations = scope.allocations();
  }
  CHECK(allocations == 0);
  CHECK(live.systemDistance() == batch.system_distance);
}
