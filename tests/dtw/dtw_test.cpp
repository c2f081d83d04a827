// Dynamic time warping: cross-checked against a brute-force memoised recursion over the
// definition (Eq. 11) and against exhaustive enumeration of warping paths; windowed, O(n)-memory
// and incremental forms checked against the full matrix; path invariants; the system metric.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/weighted_dtw.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Local distances written out by hand (not through Eigen's norm).
double euclid(const Eigen::MatrixXd& a, Eigen::Index i, const Eigen::MatrixXd& b, Eigen::Index j) {
  double sum = 0;
  for (Eigen::Index k = 0; k < a.rows(); ++k) sum += (a(k, i) - b(k, j)) * (a(k, i) - b(k, j));
  return std::sqrt(sum);
}
double manhattan(const Eigen::MatrixXd& a, Eigen::Index i, const Eigen::MatrixXd& b, Eigen::Index j) {
  double sum = 0;
  for (Eigen::Index k = 0; k < a.rows(); ++k) sum += std::abs(a(k, i) - b(k, j));
  return sum;
}

using LocalDistance = std::function<double(const Eigen::MatrixXd&, Eigen::Index, const Eigen::MatrixXd&, Eigen::Index)>;

// Brute-force reference: plain recursion over the definition, memoised. window < 0: no band.
struct ReferenceDtw {
  const Eigen::MatrixXd& a;
  const Eigen::MatrixXd& b;
  long window;
  LocalDistance local;
  std::vector<double> memo;
  std::vector<char> known;

  ReferenceDtw(const Eigen::MatrixXd& a_in, const Eigen::MatrixXd& b_in, long window_in, LocalDistance local_in)
      : a(a_in), b(b_in), window(window_in), local(std::move(local_in)),
        memo(static_cast<std::size_t>(a_in.cols() * b_in.cols())), known(memo.size(), 0) {}

  double at(long i, long j) {
    if (i < 0 || j < 0) return (i == -1 && j == -1) ? 0.0 : kInf;
    if (window >= 0 && std::abs(i - j) > window) return kInf;
    const auto k = static_cast<std::size_t>(i * b.cols() + j);
    if (!known[k]) {
      memo[k] = local(a, i, b, j) + std::min({at(i - 1, j - 1), at(i - 1, j), at(i, j - 1)});
      known[k] = 1;
    }
    return memo[k];
  }
  double total() { return at(a.cols() - 1, b.cols() - 1); }
};

Eigen::MatrixXd randomSequence(std::mt19937& rng, Eigen::Index dim, Eigen::Index length) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd s(dim, length);
  // A random walk, so that neighbouring frames are alike as in real motion.
  for (Eigen::Index j = 0; j < length; ++j) {
    for (Eigen::Index k = 0; k < dim; ++k) s(k, j) = (j > 0 ? s(k, j - 1) : 0.0) + normal(rng);
  }
  return s;
}

bool close(double x, double y) {
  if (std::isinf(x) || std::isinf(y)) return x == y;
  return std::abs(x - y) <= 1e-10 * std::max(1.0, std::abs(y));
}

// Checks the invariants of a warping path and returns the sum of its local costs.
double checkPath(const std::vector<DtwStep>& path, const Eigen::MatrixXd& a, const Eigen::MatrixXd& b,
                 Eigen::Index window) {
  REQUIRE(!path.empty());
  CHECK(path.front() == DtwStep{0, 0});
  CHECK(path.back() == DtwStep{a.cols() - 1, b.cols() - 1});
  double sum = 0;
  for (std::size_t s = 0; s < path.size(); ++s) {
    if (window >= 0) CHECK(std::abs(path[s].i - path[s].j) <= window);
    sum += euclid(a, path[s].i, b, path[s].j);
    if (s == 0) continue;
    const Eigen::Index di = path[s].i - path[s - 1].i;
    const Eigen::Index dj = path[s].j - path[s - 1].j;
    const bool step_ok = (di == 1 && dj == 0) || (di == 0 && dj == 1) || (di == 1 && dj == 1);
    CHECK(step_ok);  // monotone and continuous
  }
  return sum;
}

}  // namespace

TEST_CASE("dtw: equals the brute-force recursion on random pairs, full and windowed") {
  std::mt19937 rng(20260601);
  std::uniform_int_distribution<int> length(1, 200);
  std::uniform_int_distribution<int> dimension(1, 22);
  const int pairs = test::sweepCount(1000);
  int windowed = 0, unreachable = 0;
  for (int p = 0; p < pairs; ++p) {
    const Eigen::Index d = dimension(rng);
    const Eigen::MatrixXd a = randomSequence(rng, d, length(rng));
    const Eigen::MatrixXd b = randomSequence(rng, d, length(rng));
    DtwOptions options;
    if (p % 2 == 1) {  // every other pair: a Sakoe-Chiba band, sometimes narrower than |n - m|
      options.window = std::uniform_int_distribution<Eigen::Index>(0, 60)(rng);
      ++windowed;
    }
    CAPTURE(p);
    CAPTURE(d);
    CAPTURE(a.cols());
    CAPTURE(b.cols());
    CAPTURE(options.window);
    ReferenceDtw reference(a, b, options.window, euclid);
    const double expected = reference.total();
    if (std::isinf(expected)) ++unreachable;

    const DtwResult<double> two_rows = dtw(a, b, options);
    const DtwResult<double> full = dtwWithPath(a, b, options);
    const Eigen::MatrixXd D = dtwCostMatrix(a, b, options);
    CHECK(close(two_rows.cost, expected));
    CHECK(two_rows.distance == two_rows.cost);  // no normalisation by default
    CHECK(full.cost == two_rows.cost);          // bit for bit: same recursion, same order
    CHECK(full.path_length == two_rows.path_length);
    // Every cell of the matrix, not just the end.
    bool all_cells = true;
    for (Eigen::Index i = 0; i < a.cols(); ++i) {
      for (Eigen::Index j = 0; j < b.cols(); ++j) all_cells = all_cells && close(D(i, j), reference.at(i, j));
    }
    CHECK(all_cells);
    if (std::isinf(expected)) {
      CHECK(std::abs(a.cols() - b.cols()) > options.window);
      CHECK(full.path.empty());
      CHECK(two_rows.path_length == 0);
    } else {
      const double path_cost = checkPath(full.path, a, b, options.window);
      CHECK(close(path_cost, expected));
      CHECK(full.path_length == static_cast<Eigen::Index>(full.path.size()));
      CHECK(full.path_length >= std::max(a.cols(), b.cols()));
      CHECK(full.path_length <= a.cols() + b.cols() - 1);
    }
  }
  CHECK(windowed > 0);
  CHECK(unreachable > 0);  // the |n - m| > window case was exercised
}

TEST_CASE("dtw: the optimum over every warping path, enumerated exhaustively") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < test::sweepCount(200); ++trial) {
    const Eigen::Index n = std::uniform_int_distribution<Eigen::Index>(1, 6)(rng);
    const Eigen::Index m = std::uniform_int_distribution<Eigen::Index>(1, 6)(rng);
    const Eigen::MatrixXd a = randomSequence(rng, 3, n);
    const Eigen::MatrixXd b = randomSequence(rng, 3, m);
    const Eigen::Index window = trial % 3 == 0 ? std::uniform_int_distribution<Eigen::Index>(0, 3)(rng) : -1;
    // Depth-first enumeration of all monotone continuous paths from (0,0) to (n-1,m-1).
    double best = kInf;
    std::size_t best_length = 0;
    std::function<void(Eigen::Index, Eigen::Index, double, std::size_t)> walk =
        [&](Eigen::Index i, Eigen::Index j, double cost, std::size_t cells) {
          if (i >= n || j >= m) return;
          if (window >= 0 && std::abs(i - j) > window) return;
          cost += euclid(a, i, b, j);
          ++cells;
          if (i == n - 1 && j == m - 1) {
            if (cost < best) {
              best = cost;
              best_length = cells;
            }
            return;
          }
          walk(i + 1, j + 1, cost, cells);
          walk(i + 1, j, cost, cells);
          walk(i, j + 1, cost, cells);
        };
    walk(0, 0, 0.0, 0);
    DtwOptions options;
    options.window = window;
    const auto result = dtwWithPath(a, b, options);
    CAPTURE(trial);
    CHECK(close(result.cost, best));
    if (std::isfinite(best)) {
      CHECK(close(checkPath(result.path, a, b, window), best));
      (void)best_length;  // ties may pick a different but equally cheap path
    }
  }
}

TEST_CASE("dtw: identity, symmetry and invariance to repeated frames") {
  std::mt19937 rng(11);
  for (int trial = 0; trial < test::sweepCount(100); ++trial) {
    const Eigen::Index d = std::uniform_int_distribution<Eigen::Index>(1, 22)(rng);
    const Eigen::MatrixXd a = randomSequence(rng, d, std::uniform_int_distribution<Eigen::Index>(1, 80)(rng));
    const Eigen::MatrixXd b = randomSequence(rng, d, std::uniform_int_distribution<Eigen::Index>(1, 80)(rng));
    CHECK(dtw(a, a).cost == 0.0);
    const auto ab = dtwWithPath(a, b);
    const auto ba = dtwWithPath(b, a);
    CHECK(ab.cost == doctest::Approx(ba.cost).epsilon(1e-12));
    CHECK(ab.cost >= 0.0);
    // Time warping: repeating frames of a (a slowed-down copy) costs nothing.
    std::vector<Eigen::Index> source;
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      const int repeats = std::uniform_int_distribution<int>(1, 3)(rng);
      for (int r = 0; r < repeats; ++r) source.push_back(j);
    }
    Eigen::MatrixXd slow(d, static_cast<Eigen::Index>(source.size()));
    for (std::size_t s = 0; s < source.size(); ++s) slow.col(static_cast<Eigen::Index>(s)) = a.col(source[s]);
    const auto warped = dtwWithPath(a, slow);
    CHECK(warped.cost == 0.0);
    CHECK(warped.path_length == slow.cols());
  }
}

TEST_CASE("dtw: user-supplied local distance and path-length normalisation") {
  std::mt19937 rng(3);
  const auto l1 = [](const auto& x, const auto& y) { return (x - y).template lpNorm<1>(); };
  for (int trial = 0; trial < test::sweepCount(100); ++trial) {
    const Eigen::Index d = std::uniform_int_distribution<Eigen::Index>(1, 8)(rng);
    const Eigen::MatrixXd a = randomSequence(rng, d, std::uniform_int_distribution<Eigen::Index>(1, 60)(rng));
    const Eigen::MatrixXd b = randomSequence(rng, d, std::uniform_int_distribution<Eigen::Index>(1, 60)(rng));
    ReferenceDtw reference(a, b, -1, manhattan);
    DtwOptions options;
    CHECK(close(dtw(a, b, options, l1).cost, reference.total()));
    CHECK(close(dtwWithPath(a, b, options, l1).cost, reference.total()));

    options.normalization = DtwNormalization::kPathLength;
    const auto full = dtwWithPath(a, b, options);
    const auto two_rows = dtw(a, b, options);
    CHECK(full.distance == doctest::Approx(full.cost / static_cast<double>(full.path.size())).epsilon(1e-14));
    CHECK(two_rows.distance == full.distance);
  }
}

TEST_CASE("dtw: incremental equals batch after every append, in any interleaving") {
  std::mt19937 rng(99);
  for (int trial = 0; trial < test::sweepCount(60); ++trial) {
    const Eigen::Index d = std::uniform_int_distribution<Eigen::Index>(1, 22)(rng);
    const Eigen::MatrixXd a = randomSequence(rng, d, std::uniform_int_distribution<Eigen::Index>(1, 70)(rng));
    const Eigen::MatrixXd b = randomSequence(rng, d, std::uniform_int_distribution<Eigen::Index>(1, 70)(rng));
    DtwOptions options;
    if (trial % 2 == 1) options.window = std::uniform_int_distribution<Eigen::Index>(0, 20)(rng);
    if (trial % 4 == 3) options.normalization = DtwNormalization::kPathLength;
    // Small initial capacity on some trials, so that amortised growth is exercised too.
    IncrementalDtw<double> inc(d, trial % 3 == 0 ? 1 : 80, options);
    Eigen::Index na = 0, nb = 0;
    bool all_equal = true;
    while (na < a.cols() || nb < b.cols()) {
      const bool take_a = nb == b.cols() || (na < a.cols() && std::bernoulli_distribution(0.5)(rng));
      const Status status = take_a ? inc.appendA(a.col(na++)) : inc.appendB(b.col(nb++));
      CHECK(status.ok());
      if (na == 0 || nb == 0) {
        CHECK(std::isinf(inc.cost()));
        continue;
      }
      const auto batch = dtw(a.leftCols(na), b.leftCols(nb), options);
      all_equal = all_equal && inc.cost() == batch.cost && inc.pathLength() == batch.path_length &&
                  (inc.distance() == batch.distance || (std::isinf(inc.distance()) && std::isinf(batch.distance)));
      const Eigen::MatrixXd D = dtwCostMatrix(a.leftCols(na), b.leftCols(nb), options);
      all_equal = all_equal && inc.lastRow() == D.row(na - 1).transpose() && inc.lastColumn() == D.col(nb - 1);
    }
    CAPTURE(trial);
    CHECK(all_equal);
    CHECK(inc.sequenceA() == a);
    CHECK(inc.sequenceB() == b);
  }
}

TEST_CASE("dtw: incremental lockstep gives the paper's diag(D) curve") {
  std::mt19937 rng(5);
  const Eigen::MatrixXd human = randomSequence(rng, 22, 150);
  const Eigen::MatrixXd robot = randomSequence(rng, 22, 150);
  const Eigen::MatrixXd D = dtwCostMatrix(human, robot);
  IncrementalDtw<double> inc(22, 150);
  for (Eigen::Index t = 0; t < 150; ++t) {
    CHECK(inc.appendA(human.col(t)).ok());
    CHECK(inc.appendB(robot.col(t)).ok());
    CHECK(inc.cost() == D(t, t));
  }
  inc.reset();
  CHECK(inc.sizeA() == 0);
  CHECK(std::isinf(inc.cost()));
}

TEST_CASE("dtw: incremental appends allocate nothing within capacity and reject bad frames") {
  std::mt19937 rng(17);
  const Eigen::MatrixXd a = randomSequence(rng, 22, 120);
  const Eigen::MatrixXd b = randomSequence(rng, 22, 120);
  DtwOptions options;
  options.window = 30;
  IncrementalDtw<double> inc(22, 120, options);
  IncrementalDtw<double> unbanded(22, 120);
  Eigen::VectorXd bad = a.col(0);
  bad(3) = std::numeric_limits<double>::quiet_NaN();
  const Eigen::VectorXd short_frame = Eigen::VectorXd::Zero(5);
  {
    test::NoAllocationScope scope;
    for (Eigen::Index t = 0; t < 120; ++t) {
      CHECK(inc.appendA(a.col(t)).ok());
      CHECK(inc.appendB(b.col(t)).ok());
      CHECK(unbanded.appendB(b.col(t)).ok());
      CHECK(unbanded.appendA(a.col(t)).ok());
    }
    CHECK(inc.appendA(bad).has(StatusCode::kInvalidInput));
    CHECK(inc.appendB(short_frame).has(StatusCode::kInvalidInput));
    CHECK(scope.allocations() == 0);
  }
  CHECK(inc.sizeA() == 120);
  CHECK(inc.sizeB() == 120);
  CHECK(inc.cost() == dtw(a, b, options).cost);
  CHECK(unbanded.cost() == dtw(a, b).cost);
}

TEST_CASE_TEMPLATE("dtw: float and double agree", Scalar, float, double) {
  std::mt19937 rng(23);
  const Eigen::MatrixXd a = randomSequence(rng, 4, 40);
  const Eigen::MatrixXd b = randomSequence(rng, 4, 50);
  const MatrixX<Scalar> as = a.cast<Scalar>();
  const MatrixX<Scalar> bs = b.cast<Scalar>();
  const double expected = dtw(a, b).cost;
  CHECK(static_cast<double>(dtw(as, bs).cost) == doctest::Approx(expected).epsilon(1e-4));
  CHECK(static_cast<double>(dtwWithPath(as, bs).cost) == doctest::Approx(expected).epsilon(1e-4));
  IncrementalDtw<Scalar> inc(4, 50);
  for (Eigen::Index j = 0; j < 50; ++j) CHECK(inc.appendB(bs.col(j)).ok());
  for (Eigen::Index i = 0; i < 40; ++i) CHECK(inc.appendA(as.col(i)).ok());
  CHECK(inc.cost() == dtw(as, bs).cost);
}

TEST_CASE("dtw: malformed inputs throw InvalidArgument naming the problem") {
  const Eigen::MatrixXd a = Eigen::MatrixXd::Random(3, 10);
  const Eigen::MatrixXd b = Eigen::MatrixXd::Random(3, 12);
  CHECK_THROWS_WITH_AS(dtw(a, Eigen::MatrixXd(3, 0)), doctest::Contains("at least one frame"), InvalidArgument);
  CHECK_THROWS_WITH_AS(dtw(a, Eigen::MatrixXd::Random(4, 12)), doctest::Contains("got 3 and 4"), InvalidArgument);
  Eigen::MatrixXd nan = b;
  nan(1, 5) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(dtwWithPath(a, nan), doctest::Contains("finite"), InvalidArgument);
  DtwOptions options;
  options.window = -2;
  CHECK_THROWS_WITH_AS(dtw(a, b, options), doctest::Contains("DtwOptions.window"), InvalidArgument);
  CHECK_THROWS_WITH_AS(dtwCostMatrix(a, b, options), doctest::Contains("got -2"), InvalidArgument);
  CHECK_THROWS_AS(IncrementalDtw<double>(0), InvalidArgument);
  CHECK_THROWS_AS(IncrementalDtw<double>(3, -1), InvalidArgument);
  CHECK_THROWS_AS(IncrementalDtw<double>(3, 0, options), InvalidArgument);
  CHECK_THROWS_AS(dtwWarpingPath(Eigen::MatrixXd(0, 0)), InvalidArgument);
}

TEST_CASE("weighted dtw: per-joint values and the range-of-motion weighted system value (Eqs. 12-13)") {
  std::mt19937 rng(31);
  for (int trial = 0; trial < test::sweepCount(50); ++trial) {
    const Eigen::Index joints = std::uniform_int_distribution<Eigen::Index>(1, 22)(rng);
    const Eigen::MatrixXd human = randomSequence(rng, joints, std::uniform_int_distribution<Eigen::Index>(1, 60)(rng));
    const Eigen::MatrixXd robot = randomSequence(rng, joints, std::uniform_int_distribution<Eigen::Index>(1, 60)(rng));
    const Eigen::VectorXd weights = Eigen::VectorXd::Random(joints).cwiseAbs() + Eigen::VectorXd::Constant(joints, 0.1);
    const auto result = weightedJointDtw(human, robot, weights);
    double numerator = 0, denominator = 0;
    for (Eigen::Index x = 0; x < joints; ++x) {
      const Eigen::MatrixXd hx = human.row(x);
      const Eigen::MatrixXd rx = robot.row(x);
      ReferenceDtw reference(hx, rx, -1, euclid);
      const double dx = reference.total();
      CHECK(close(result.joint_distances(x), dx));
      numerator += weights(x) * dx;
      denominator += weights(x);
    }
    CHECK(result.weights.sum() == doctest::Approx(1.0));
    CHECK(result.system_distance == doctest::Approx(numerator / denominator).epsilon(1e-12));
    // Only weight ratios matter (Eq. 13 divides by their sum).
    CHECK(weightedJointDtw(human, robot, weights * 57.3).system_distance ==
          doctest::Approx(result.system_distance).epsilon(1e-12));
    CHECK(weightedJointDtw(human, human, weights).system_distance == 0.0);
  }
  // The paper's example: shoulders imitated exactly (D = 0), so only elbow and wrist count.
  Eigen::MatrixXd human(5, 4), robot(5, 4);
  human.setZero();
  robot.setZero();
  human.row(3) << 0, 1, 2, 3;  // elbow
  robot.row(3) << 0, 1, 2, 4;
  human.row(4) << 0, 0, 0, 0;  // wrist
  robot.row(4) << 1, 1, 1, 1;
  Eigen::VectorXd w(5);
  w << 150, 210, 40, 135, 180;
  const auto paper = weightedJointDtw(human, robot, w);
  CHECK(paper.joint_distances(3) == doctest::Approx(1.0));
  CHECK(paper.joint_distances(4) == doctest::Approx(4.0));
  CHECK(paper.system_distance == doctest::Approx((135 * 1.0 + 180 * 4.0) / 715.0));
}

TEST_CASE("weighted dtw: weights from a robot model's limits, and bad input") {
  RobotModelBuilder<double> builder("arm");
  builder.addLink("base");
  builder.addLink("upper");
  builder.addLink("lower");
  JointSpec<double> shoulder;
  shoulder.name = "shoulder";
  shoulder.parent_link = "base";
  shoulder.child_link = "upper";
  shoulder.axis = Eigen::Vector3d::UnitY();
  shoulder.limits.lower = -0.5;
  shoulder.limits.upper = 2.0;
  builder.addJoint(shoulder);
  JointSpec<double> wrist = shoulder;
  wrist.name = "wrist";
  wrist.parent_link = "upper";
  wrist.child_link = "lower";
  wrist.type = JointType::kContinuous;
  builder.addJoint(wrist);
  const RobotModel<double> model = builder.build();
  const Eigen::VectorXd weights = rangeOfMotionWeights(model);
  REQUIRE(weights.size() == 2);
  CHECK(weights(model.qIndex("shoulder")) == doctest::Approx(2.5));
  CHECK(weights(model.qIndex("wrist")) == doctest::Approx(2 * kPi<double>));
  const Eigen::VectorXd subset = rangeOfMotionWeights(model, {"wrist", "shoulder"});
  CHECK(subset(0) == doctest::Approx(2 * kPi<double>));
  CHECK(subset(1) == doctest::Approx(2.5));
  CHECK_THROWS_AS(rangeOfMotionWeights(model, {"elbow"}), InvalidArgument);

  const Eigen::MatrixXd traj = Eigen::MatrixXd::Random(2, 10);
  CHECK_THROWS_WITH_AS(weightedJointDtw(traj, traj, Eigen::VectorXd::Ones(3)), doctest::Contains("got 3 weights"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(weightedJointDtw(traj, traj, Eigen::Vector2d(1, -1)), doctest::Contains(">= 0"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(weightedJointDtw(traj, traj, Eigen::Vector2d(0, 0)), doctest::Contains("positive sum"),
                       InvalidArgument);
}

TEST_CASE("weighted dtw: the streaming form equals the batch metric after every control step") {
  std::mt19937 rng(41);
  for (int trial = 0; trial < test::sweepCount(20); ++trial) {
    const Eigen::Index joints = std::uniform_int_distribution<Eigen::Index>(1, 22)(rng);
    const Eigen::Index frames = std::uniform_int_distribution<Eigen::Index>(1, 80)(rng);
    const Eigen::MatrixXd human = randomSequence(rng, joints, frames);
    const Eigen::MatrixXd robot = randomSequence(rng, joints, frames);
    const Eigen::VectorXd weights = Eigen::VectorXd::Random(joints).cwiseAbs();
    DtwOptions options;
    if (trial % 2) options.window = std::uniform_int_distribution<Eigen::Index>(0, 10)(rng);
    IncrementalJointDtw<double> live(weights, frames, options);
    bool all_equal = true;
    for (Eigen::Index t = 0; t < frames; ++t) {
      {
        test::NoAllocationScope scope;
        CHECK(live.append(human.col(t), robot.col(t)).ok());
        CHECK(scope.allocations() == 0);
      }
      const auto batch = weightedJointDtw(human.leftCols(t + 1), robot.leftCols(t + 1), weights, options);
      all_equal = all_equal && live.systemDistance() == batch.system_distance;
      for (Eigen::Index x = 0; x < joints; ++x) all_equal = all_equal && live.jointDistance(x) == batch.joint_distances(x);
    }
    CAPTURE(trial);
    CHECK(all_equal);
    // A bad frame changes nothing.
    Eigen::VectorXd bad = human.col(0);
    bad(0) = std::numeric_limits<double>::infinity();
    CHECK(live.append(bad, robot.col(0)).has(StatusCode::kInvalidInput));
    CHECK(live.appendRobot(Eigen::VectorXd::Zero(joints + 1)).has(StatusCode::kInvalidInput));
    CHECK(live.humanFrames() == frames);
    CHECK(live.robotFrames() == frames);
  }
  CHECK_THROWS_AS(IncrementalJointDtw<double>(Eigen::VectorXd::Zero(3)), InvalidArgument);
  CHECK_THROWS_AS(IncrementalJointDtw<double>(Eigen::VectorXd(0)), InvalidArgument);
}
