// Cross-correlation lag: a trajectory delayed by a known number of frames (with noise, on
// several columns, some constant) gives that number back, for both signs; bad input throws.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include <retarget/metrics/trajectory_lag.hpp>

using namespace retarget;

namespace {

// frames x 4: three smooth non-periodic signals and one constant column.
Eigen::MatrixXd signal(int frames, int shift, double noise, std::mt19937& rng) {
  // Unit normal draws scaled by `noise`: a distribution of standard deviation 0 is outside
  // std::normal_distribution's precondition (libstdc++'s assertions stop on it).
  std::normal_distribution<double> unit(0.0, 1.0);
  const auto normal = [&](std::mt19937& g) { return noise * unit(g); };
  Eigen::MatrixXd out(frames, 4);
  for (int t = 0; t < frames; ++t) {
    const double s = (t - shift) / 30.0;
    out(t, 0) = std::sin(1.3 * s) + 0.4 * std::sin(3.1 * s + 0.5) + normal(rng);
    out(t, 1) = std::cos(0.7 * s) * std::exp(-0.1 * s) + normal(rng);
    out(t, 2) = 0.3 * s * s / (1 + s) + normal(rng);
    out(t, 3) = 0.25;
  }
  return out;
}

}  // namespace

TEST_CASE("trajectory lag: a known delay comes back for either sign, with noise") {
  std::mt19937 rng(5);
  for (int shift : {0, 1, 7, 25, -4, -18}) {
    CAPTURE(shift);
    const Eigen::MatrixXd reference = signal(300, 0, 0.0, rng);
    const Eigen::MatrixXd follower = signal(300, shift, 0.02, rng);
    const TrajectoryLag lag = trajectoryLag(reference, follower, 40);
    CHECK(lag.lag == shift);
    CHECK(lag.columns == 3);
    CHECK(lag.correlation > 0.95);
    CHECK(lag.correlation <= 1.0);
  }
  // Identical trajectories: lag 0, correlation 1.
  const Eigen::MatrixXd a = signal(100, 0, 0.0, rng);
  const TrajectoryLag same = trajectoryLag(a, a, 10);
  CHECK(same.lag == 0);
  CHECK(same.correlation == doctest::Approx(1.0));
}

TEST_CASE("trajectory lag: bad input throws naming the value") {
  std::mt19937 rng(6);
  const Eigen::MatrixXd a = signal(50, 0, 0.0, rng);
  CHECK_THROWS_WITH_AS(trajectoryLag(a, a.leftCols(2), 5), doctest::Contains("expected 50 x 4"), InvalidArgument);
  CHECK_THROWS_WITH_AS(trajectoryLag(a, a, 48), doctest::Contains("max_lag (got 48"), InvalidArgument);
  CHECK_THROWS_WITH_AS(trajectoryLag(a, a, -1), doctest::Contains("max_lag (got -1"), InvalidArgument);
  Eigen::MatrixXd nan = a;
  nan(3, 1) = std::nan("");
  CHECK_THROWS_WITH_AS(trajectoryLag(a, nan, 5), doctest::Contains("not finite"), InvalidArgument);
  const Eigen::MatrixXd flat = Eigen::MatrixXd::Constant(50, 2, 1.0);
  CHECK_THROWS_WITH_AS(trajectoryLag(flat, flat, 5), doctest::Contains("no reference column varies"), InvalidArgument);
}
