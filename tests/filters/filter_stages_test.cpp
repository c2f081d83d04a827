// The filter stages after a mapper (filters/filter_stages.hpp), the one post-mapper pipeline:
// the limits hold on every output step, a repeated time stamp changes nothing, continueFrom
// limits the next step from a later stage's output, the frame path allocates nothing, and the
// whole-motion loop is the per-frame object run over the rows.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include <retarget/filters/filter_stages.hpp>
#include <retarget/robots/nao.hpp>

#include "support/allocation.hpp"

using namespace retarget;

namespace {

// A random walk of NAO's angles within its limits, big steps (rad per frame), at 30 Hz.
Eigen::MatrixXd walk(const RobotModel<double>& nao, int frames, std::mt19937& rng) {
  std::normal_distribution<double> step(0.0, 0.2);
  Eigen::MatrixXd q(frames, nao.nq());
  Eigen::VectorXd x = nao.neutralConfiguration();
  for (int k = 0; k < frames; ++k) {
    for (int i = 0; i < nao.nq(); ++i) x[i] = std::clamp(x[i] + step(rng), nao.lowerLimits()[i], nao.upperLimits()[i]);
    q.row(k) = x.transpose();
  }
  return q;
}

}  // namespace

TEST_CASE("filter stages: the joint limit holds per step, a repeated time changes nothing, the loop is the object") {
  const RobotModel<double> nao = makeNao();
  std::mt19937 rng(5);
  const Eigen::MatrixXd mapped = walk(nao, 90, rng);
  std::vector<double> time(90);
  for (int k = 0; k < 90; ++k) time[static_cast<std::size_t>(k)] = k / 30.0;
  FilterStagesOptions options;
  options.smoothing = 0.6;
  options.max_joint_speed = 1.5;

  Eigen::MatrixXd q = mapped;
  const std::vector<Status> statuses = applyFilterStages(nao, q, time, options);
  int limited = 0;
  for (Eigen::Index k = 1; k < q.rows(); ++k) {
    CHECK((q.row(k) - q.row(k - 1)).cwiseAbs().maxCoeff() <= 1.5 / 30.0 * (1 + 1e-12));
    limited += statuses[static_cast<std::size_t>(k)].has(StatusCode::kRateLimited) ? 1 : 0;
  }
  CHECK(limited > 10);  // 0.2 rad steps against 0.05 rad a frame: the limit acts

  // The same frames with every one repeated at the same time stamp: the repeats keep the row
  // before them and change nothing after.
  Eigen::MatrixXd doubled(2 * mapped.rows(), mapped.cols());
  std::vector<double> doubled_time;
  for (Eigen::Index k = 0; k < mapped.rows(); ++k) {
    doubled.row(2 * k) = mapped.row(k);
    doubled.row(2 * k + 1) = mapped.row(k) * 0.5;  // a different sample at the same time: ignored
    doubled_time.push_back(time[static_cast<std::size_t>(k)]);
    doubled_time.push_back(time[static_cast<std::size_t>(k)]);
  }
  (void)applyFilterStages(nao, doubled, doubled_time, options);
  for (Eigen::Index k = 0; k < mapped.rows(); ++k) {
    CHECK(doubled.row(2 * k) == q.row(k));
    CHECK(doubled.row(2 * k + 1) == q.row(k));
  }

  // The per-frame object gives the loop's rows, without allocating.
  FilterStages stages(nao, options);
  (void)stages.update(mapped.row(0).transpose(), 1.0);
  CHECK(stages.value().transpose() == q.row(0));
  const Eigen::VectorXd second = mapped.row(1).transpose();
  test::NoAllocationScope scope;
  (void)stages.update(second, 1.0 / 30.0);
  CHECK(scope.allocations() == 0);
  CHECK(stages.value().transpose() == q.row(1));
  CHECK(stages.update(second, 0.0).has(StatusCode::kInvalidInput));  // no time: nothing changes
  CHECK(stages.value().transpose() == q.row(1));
}

TEST_CASE("filter stages: continueFrom limits the next step from a later stage's output") {
  const RobotModel<double> nao = makeNao();
  FilterStagesOptions options;
  options.max_joint_speed = 1.0;
  FilterStages stages(nao, options);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(nao.nq());
  (void)stages.update(zero, 1.0);
  Eigen::VectorXd moved = zero;
  moved[0] = 0.5;  // what a later stage wrote instead
  stages.continueFrom(moved);
  const Status status = stages.update(zero, 0.1);  // back to 0 over 0.1 s: at most 0.1 rad
  CHECK(status.has(StatusCode::kRateLimited));
  CHECK(stages.value()[0] == doctest::Approx(0.4).epsilon(1e-12));
  CHECK(stages.target()[0] == 0.0);
  CHECK_THROWS_AS(FilterStages(nao, FilterStagesOptions{2.0, 0.0, 0.0, {}}), InvalidArgument);
  CHECK_THROWS_AS(FilterStages(nao, FilterStagesOptions{0.0, 0.0, 1.0, {}}), InvalidArgument);  // no points
}
