// GPDM (learning/gpdm.hpp): analytic gradient of the negative log posterior against central
// finite differences, predictions, sequence boundaries, status on bad input, no allocation.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include <retarget/core/error.hpp>
#include <retarget/learning/gpdm.hpp>

#include "learning/learning_fixtures.hpp"
#include "support/allocation.hpp"

using namespace retarget;
using retarget::test::smallGpdmProblem;

TEST_CASE("gpdm: analytic gradient equals central finite differences at random parameters") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> uniform(-0.7, 0.7);
  double worst = 0.0;
  for (int trial = 0; trial < 5; ++trial) {
    CAPTURE(trial);
    // 20 frames in two sequences (12 + 8), 6-D observations, 3-D latent points.
    auto problem = smallGpdmProblem(rng, 20, 6, {12, 8});
    if (trial >= 3) problem.y.col(2).setConstant(0.25);  // a joint that never moves
    GpdmHyperparameters h;
    for (Eigen::Index i = 0; i < 4; ++i) h.log_alpha(i) = uniform(rng);
    for (Eigen::Index i = 0; i < 3; ++i) h.log_beta(i) = uniform(rng);
    h.log_alpha(3) += 2.0;  // noise variances e^-2 ... e^-1.3
    h.log_beta(2) += 2.0;
    GpdmModel model(problem.y, problem.lengths, problem.x, h);
    CHECK(model.activeObservationDim() == (trial >= 3 ? 5 : 6));
    if (trial == 4) model.setScales((Eigen::VectorXd(6) << 0.5, 2.0, 3.0, 1.3, 0.8, 4.0).finished());  // learned W
    const Eigen::VectorXd p = model.parameters();
    Eigen::VectorXd gradient;
    const double lambda = trial == 2 ? 2.5 : 1.0;  // trial 2: a weighted (balanced) dynamics term
    const double value = model.negativeLogLikelihood(p, &gradient, lambda);
    REQUIRE(std::isfinite(value));
    REQUIRE(gradient.size() == p.size());
    CHECK(model.negativeLogLikelihood(p, nullptr, lambda) == value);
    const double scale = std::max(1.0, gradient.cwiseAbs().maxCoeff());
    for (Eigen::Index i = 0; i < p.size(); ++i) {
      const double step = 1e-5 * std::max(1.0, std::abs(p(i)));
      Eigen::VectorXd plus = p, minus = p;
      plus(i) += step;
      minus(i) -= step;
      const double numeric =
          (model.negativeLogLikelihood(plus, nullptr, lambda) - model.negativeLogLikelihood(minus, nullptr, lambda)) /
          (2 * step);
      // Relative error, with the largest gradient entry as the scale of entries close to zero.
      const double error = std::abs(numeric - gradient(i)) / std::max(std::abs(gradient(i)), 1e-2 * scale);
      CAPTURE(i);
      CHECK(error < 1e-5);
      worst = std::max(worst, error);
    }
  }
  MESSAGE("gpdm gradient check: max relative error " << worst);
}

TEST_CASE("gpdm: the closed-form W minimises the posterior over the scales; W is validated") {
  std::mt19937 rng(36);
  auto problem = smallGpdmProblem(rng, 20, 6, {12, 8});
  problem.y.col(4) *= 5.0;  // a joint that moves far more than the others
  GpdmModel model(problem.y, problem.lengths, problem.x);
  const Eigen::VectorXd p = model.parameters();
  const Eigen::VectorXd w = model.optimalScales(p);
  model.setScales(w);
  const double at_optimum = model.negativeLogLikelihood(p);
  std::uniform_real_distribution<double> factor(0.7, 1.4);
  for (int n = 0; n < 50; ++n) {
    Eigen::VectorXd other = w;
    other(n % 6) *= factor(rng);
    model.setScales(other);
    CHECK(model.negativeLogLikelihood(p) >= at_optimum - 1e-9);
  }
  model.setScales(Eigen::VectorXd::Ones(6));
  CHECK(model.negativeLogLikelihood(p) > at_optimum);
  // The joint with the large range gets the small scale: W evens the joints out.
  CHECK(w(4) == w.minCoeff());
  CHECK_THROWS_WITH_AS(model.setScales(Eigen::VectorXd::Ones(5)), doctest::Contains("scales (got 5 values"), InvalidArgument);
  CHECK_THROWS_WITH_AS(model.setScales((Eigen::VectorXd(6) << 1, 1, 0, 1, 1, 1).finished()), doctest::Contains("scales(2)"),
                       InvalidArgument);
}

TEST_CASE("gpdm: the likelihood counts dynamics pairs inside sequences only") {
  std::mt19937 rng(2);
  const auto problem = smallGpdmProblem(rng, 16, 4, {});
  const GpdmModel one(problem.y, {}, problem.x);
  const GpdmModel two(problem.y, {10, 6}, problem.x);
  CHECK(one.dynamicsPairs() == 15);
  CHECK(two.dynamicsPairs() == 14);
  // Swapping the two sequences leaves the posterior unchanged when they are declared as two
  // sequences (no pair crosses the boundary), not when they are one sequence.
  Eigen::MatrixXd y_swapped(16, 4), x_swapped(16, 3);
  y_swapped << problem.y.bottomRows(6), problem.y.topRows(10);
  x_swapped << problem.x.bottomRows(6), problem.x.topRows(10);
  const GpdmModel two_swapped(y_swapped, {6, 10}, x_swapped);
  const GpdmModel one_swapped(y_swapped, {}, x_swapped);
  const double value = two.negativeLogLikelihood(two.parameters());
  CHECK(two_swapped.negativeLogLikelihood(two_swapped.parameters()) == doctest::Approx(value).epsilon(1e-10));
  CHECK(std::abs(one_swapped.negativeLogLikelihood(one_swapped.parameters()) -
                 one.negativeLogLikelihood(one.parameters())) > 1e-3);
}

TEST_CASE("gpdm: predictions interpolate the training data; bad input gives kInvalidInput") {
  std::mt19937 rng(4);
  const auto problem = smallGpdmProblem(rng, 30, 5, {});
  GpdmHyperparameters h;
  h.log_alpha(3) = std::log(1e7);  // almost noise-free: the means reproduce the training pairs
  h.log_beta(2) = std::log(1e7);
  const GpdmModel model(problem.y, {}, problem.x, h);
  GpdmWorkspace workspace = model.workspace();
  Eigen::VectorXd x_next(3), y(5);
  double variance = -1.0;
  double worst_y = 0.0, worst_x = 0.0;
  for (Eigen::Index t = 0; t + 1 < model.frames(); ++t) {
    REQUIRE(model.predictNext(problem.x.row(t).transpose(), workspace, x_next, variance).ok());
    CHECK(variance > 0.0);
    worst_x = std::max(worst_x, (x_next.transpose() - problem.x.row(t + 1)).cwiseAbs().maxCoeff());
    REQUIRE(model.decode(problem.x.row(t).transpose(), workspace, y, variance).ok());
    CHECK(variance >= std::exp(-h.log_beta(2)));
    worst_y = std::max(worst_y, (y.transpose() - problem.y.row(t)).cwiseAbs().maxCoeff());
  }
  CHECK(worst_x < 1e-2);
  CHECK(worst_y < 1e-3);
  // Far from the data the decoder falls back to the mean with the prior variance.
  REQUIRE(model.decode(Eigen::Vector3d(50, 50, 50), workspace, y, variance).ok());
  CHECK((y - model.observationMean()).norm() < 1e-9);
  CHECK(variance == doctest::Approx(std::exp(h.log_beta(0)) + std::exp(-h.log_beta(2))));

  const Eigen::VectorXd held_y = y;
  Eigen::Vector3d bad(0.1, std::numeric_limits<double>::quiet_NaN(), 0.0);
  CHECK(model.decode(bad, workspace, y, variance) == StatusCode::kInvalidInput);
  CHECK(model.predictNext(bad, workspace, x_next, variance) == StatusCode::kInvalidInput);
  CHECK(y == held_y);
  Eigen::VectorXd wrong(2);
  CHECK(model.decode(Eigen::Vector3d::Zero(), workspace, wrong, variance) == StatusCode::kInvalidInput);
  GpdmWorkspace empty;
  CHECK(model.decode(Eigen::Vector3d::Zero(), empty, y, variance) == StatusCode::kInvalidInput);
}

TEST_CASE("gpdm: predictNext and decode (and their mean-only forms) allocate nothing") {
  std::mt19937 rng(6);
  const auto problem = smallGpdmProblem(rng, 40, 25, {25, 15});
  const GpdmModel model(problem.y, problem.lengths, problem.x);
  GpdmWorkspace workspace = model.workspace();
  Eigen::VectorXd x(3), x_next(3), y(25);
  x = problem.x.row(0).transpose();
  double variance = 0.0, total = 0.0;
  Eigen::VectorXd x_mean(3), y_mean(25);
  Eigen::Index differ = 0;
  retarget::test::NoAllocationScope scope;
  for (int k = 0; k < 100; ++k) {
    Status status = model.predictNext(x, workspace, x_next, variance);
    status |= model.predictNextMean(x, workspace, x_mean);
    status |= model.decode(x_next, workspace, y, variance);
    status |= model.decodeMean(x_next, workspace, y_mean);
    // The mean-only calls give the same means, bit for bit.
    for (Eigen::Index i = 0; i < 3; ++i) differ += x_mean[i] != x_next[i] ? 1 : 0;
    for (Eigen::Index i = 0; i < 25; ++i) differ += y_mean[i] != y[i] ? 1 : 0;
    total += y.sum() + (status.ok() ? 0.0 : 1.0);
    x = x_next;
  }
  CHECK(scope.allocations() == 0);
  CHECK(std::isfinite(total));
  CHECK(differ == 0);
  Eigen::VectorXd bad = Eigen::VectorXd::Constant(3, std::numeric_limits<double>::quiet_NaN());
  CHECK(model.predictNextMean(bad, workspace, x_mean) == StatusCode::kInvalidInput);
  CHECK(model.decodeMean(bad, workspace, y_mean) == StatusCode::kInvalidInput);
}

TEST_CASE("gpdm: construction validates its input, naming the value") {
  std::mt19937 rng(8);
  auto problem = smallGpdmProblem(rng, 10, 3, {});
  CHECK_THROWS_WITH_AS(GpdmModel(problem.y, {4, 5}, problem.x), doctest::Contains("sum 9, expected 10"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(GpdmModel(problem.y, {9, 1}, problem.x), doctest::Contains("sequence_lengths[1] (got 1"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(GpdmModel(problem.y, {}, problem.x.topRows(9)), doctest::Contains("x (got 9 x 3"),
                       InvalidArgument);
  problem.y(3, 1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_WITH_AS(GpdmModel(problem.y, {}, problem.x), doctest::Contains("y(3, 1) (got inf"), InvalidArgument);
  // Finite but huge values would overflow the predictions (found by the gpdm_model fuzzer: a
  // joint angle of 1e308 decoded to infinity).
  problem.y(3, 1) = 1e308;
  CHECK_THROWS_WITH_AS(GpdmModel(problem.y, {}, problem.x), doctest::Contains("y(3, 1) (got 1e+308"), InvalidArgument);
  problem.y(3, 1) = 0.0;
  Eigen::MatrixXd far = problem.x;
  far(2, 0) = -3e7;
  CHECK_THROWS_WITH_AS(GpdmModel(problem.y, {}, far), doctest::Contains("x(2, 0) (got -3e+07"), InvalidArgument);
  GpdmHyperparameters h;
  h.log_beta(1) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(GpdmModel(problem.y, {}, problem.x, h), doctest::Contains("log_beta(1) (got nan"),
                       InvalidArgument);
  h.log_beta(1) = 700;  // e^700 is finite, its products are not
  CHECK_THROWS_WITH_AS(GpdmModel(problem.y, {}, problem.x, h), doctest::Contains("log_beta(1) (got 700"),
                       InvalidArgument);
  const GpdmModel model(problem.y, {}, problem.x);
  CHECK_THROWS_AS(model.negativeLogLikelihood(Eigen::VectorXd::Zero(3)), InvalidArgument);
  Eigen::VectorXd p = model.parameters();
  p(0) = std::numeric_limits<double>::quiet_NaN();
  CHECK(model.negativeLogLikelihood(p) == std::numeric_limits<double>::infinity());
}
