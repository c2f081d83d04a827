// The vectorised DTW kernel (metrics/dtw.hpp, internal::DtwEuclideanBlock + dtwRecurBlock) against
// a straightforward O(n m) reference written here: the textbook (n+1) x (m+1) table with the
// local distance computed cell by cell by EuclideanDistance (Eigen's norm) or the user's functor,
// and the path length taken from the predecessor chosen in the documented tie order. Seeded
// sweeps over random sizes (1 x N, N x 1 and 1 x 1 included), frame dimensions 1..40 (below, at
// and between Eigen's packet sizes), Sakoe-Chiba windows at the |n - m| edge, tie-heavy data,
// weights; every form (full matrix, path, O(min(n, m)) memory, incremental in any interleaving,
// per-joint weighted, streaming per-joint) is compared cell by cell. The count of cases can be
// raised with --sweep-scale.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/weighted_dtw.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace dtw_kernel_test {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The portable kernel sums the squares in the order of Eigen's vectorised norm for up to four
// lanes (SSE, AVX, NEON); there, and without fused multiply-add, every value equals the reference
// bit for bit. Elsewhere (AVX-512, -mfma) and with the AVX2 + FMA kernel (each square added with
// one rounding) they agree to rounding: 1e-12 relative.
bool bitExact(internal::DtwKernel kernel) {
#if defined(__FMA__)
  (void)kernel;
  return false;
#else
  return kernel == internal::DtwKernel::kPortable && internal::dtwNormLanes<double>() <= 4;
#endif
}

bool same(double x, double y, bool exact = bitExact(internal::dtwKernel())) {
  if (std::isinf(x) || std::isinf(y)) return x == y;
  if (exact) return x == y;
  return std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y));
}

// The kernels this processor runs: the portable one, and AVX2 + FMA where it has both.
std::vector<internal::DtwKernel> runnableKernels() {
  std::vector<internal::DtwKernel> kernels{internal::DtwKernel::kPortable};
  if (internal::dtwAvx2FmaSupported()) kernels.push_back(internal::DtwKernel::kAvx2Fma);
  return kernels;
}

// The textbook table: D has (n+1) x (m+1) entries, D(0,0) = 0, the rest of row 0 and column 0
// +inf; cell (i, j) of Eq. 11 is D(i+1, j+1). len holds the path length of each cell, from the
// predecessor chosen as dtwBestPredecessor does (diagonal, then (i-1, j), then (i, j-1), ties to
// the first). window < 0: no band.
struct PlainDtw {
  Eigen::MatrixXd D;
  Eigen::Matrix<Eigen::Index, Eigen::Dynamic, Eigen::Dynamic> len;

  template <typename Local>
  PlainDtw(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b, Eigen::Index window, const Local& local) {
    const Eigen::Index n = a.cols(), m = b.cols();
    D = Eigen::MatrixXd::Constant(n + 1, m + 1, kInf);
    len = Eigen::Matrix<Eigen::Index, Eigen::Dynamic, Eigen::Dynamic>::Zero(n + 1, m + 1);
    D(0, 0) = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < m; ++j) {
        if (window >= 0 && std::abs(i - j) > window) continue;
        const double diag = D(i, j), up = D(i, j + 1), left = D(i + 1, j);
        double best = diag;
        Eigen::Index best_len = len(i, j);
        if (up < best) {
          best = up;
          best_len = len(i, j + 1);
        }
        if (left < best) {
          best = left;
          best_len = len(i + 1, j);
        }
        D(i + 1, j + 1) = static_cast<double>(local(a.col(i), b.col(j))) + best;
        len(i + 1, j + 1) = best_len + 1;
      }
    }
  }
  double cost(Eigen::Index i, Eigen::Index j) const { return D(i + 1, j + 1); }
  Eigen::Index length(Eigen::Index i, Eigen::Index j) const {
    return std::isfinite(cost(i, j)) ? len(i + 1, j + 1) : 0;
  }
};

// A random walk (neighbouring frames alike, as in motion) or, for `ties`, small integers, so
// that equal local distances and equal predecessors are frequent.
Eigen::MatrixXd randomFrames(std::mt19937& rng, Eigen::Index d, Eigen::Index n, bool ties) {
  std::normal_distribution<double> step(0.0, 1.0);
  std::uniform_int_distribution<int> small(-1, 1);
  Eigen::MatrixXd s(d, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    for (Eigen::Index k = 0; k < d; ++k) {
      s(k, j) = ties ? static_cast<double>(small(rng)) : (j > 0 ? s(k, j - 1) : 0.0) + step(rng);
    }
  }
  return s;
}

// Lengths from 1 to 70, one in six 1 or 2.
Eigen::Index randomLength(std::mt19937& rng) {
  if (std::uniform_int_distribution<int>(0, 5)(rng) == 0) return std::uniform_int_distribution<Eigen::Index>(1, 2)(rng);
  return std::uniform_int_distribution<Eigen::Index>(1, 70)(rng);
}

// No window, or a radius at the |n - m| edge (the end cell just inside or just outside the
// band), 0, or random.
Eigen::Index randomWindow(std::mt19937& rng, Eigen::Index n, Eigen::Index m) {
  const Eigen::Index gap = std::abs(n - m);
  switch (std::uniform_int_distribution<int>(0, 6)(rng)) {
    case 0:
    case 1:
      return kNoDtwWindow;
    case 2:
      return 0;
    case 3:
      return gap;
    case 4:
      return std::max<Eigen::Index>(0, gap - 1);
    case 5:
      return gap + 1;
    default:
      return std::uniform_int_distribution<Eigen::Index>(0, 40)(rng);
  }
}

namespace {

// `frames` random frames of `d` features (frames 4 and 5 equal: a zero distance too) and their
// padded feature table, as the kernels read them.
struct KernelCase {
  Eigen::MatrixXd y;
  internal::DtwFeatureTable<double> features;
};
KernelCase kernelCase(std::mt19937& rng, std::normal_distribution<double>& normal, Eigen::Index d, Eigen::Index frames) {
  KernelCase c;
  c.y.resize(d, frames);
  for (Eigen::Index j = 0; j < frames; ++j) {
    for (Eigen::Index k = 0; k < d; ++k) c.y(k, j) = normal(rng);
  }
  c.y.col(5) = c.y.col(4);
  c.features = internal::DtwFeatureTable<double>::Zero(d, internal::dtwTableColumns<double>(frames));
  c.features.leftCols(frames) = c.y;
  return c;
}

}  // namespace

TEST_CASE("dtw kernel: the Euclidean block equals EuclideanDistance per cell, for every dimension") {
  std::mt19937 rng(2026);
  std::normal_distribution<double> normal(0.0, 3.0);
  int compared = 0;
  for (Eigen::Index d = 1; d <= 40; ++d) {
    const Eigen::Index frames = 3 * internal::dtwBlockCells<double>();
    const KernelCase c = kernelCase(rng, normal, d, frames);
    const Eigen::MatrixXd& y = c.y;
    const internal::DtwFeatureTable<double>& features = c.features;
    for (Eigen::Index i = 0; i < frames; i += 7) {
      internal::DtwSpreadFrame<double> x;
      internal::dtwSpreadFrame(y.col(i), x);
      const internal::DtwEuclideanBlock<double> block(x.data(), features.data(), features.cols(), d);
      for (Eigen::Index t0 = 0; t0 < frames; t0 += 3) {  // blocks at every alignment
        double out[internal::dtwBlockCells<double>()];
        block(t0, internal::dtwBlockCells<double>(), out);
        for (Eigen::Index w = 0; w < internal::dtwBlockCells<double>() && t0 + w < frames; ++w) {
          CAPTURE(d);
          CAPTURE(t0 + w);
          CHECK(same(out[w], EuclideanDistance{}(y.col(i), y.col(t0 + w)), bitExact(internal::DtwKernel::kPortable)));
          ++compared;
        }
      }
    }
  }
  CHECK(compared == 9120);  // 40 dimensions x 4 frames x 8 block starts, the cells inside the 24 frames
}

TEST_CASE("dtw kernel: the AVX2 + FMA distances equal EuclideanDistance to rounding, for every dimension") {
#if RETARGET_DTW_X86_KERNEL
  if (!internal::dtwAvx2FmaSupported()) {
    test::recordSkip("this processor has no AVX2 + FMA");
    return;
  }
  std::mt19937 rng(2027);
  std::normal_distribution<double> normal(0.0, 3.0);
  int compared = 0;
  for (Eigen::Index d = 1; d <= 40; ++d) {
    const Eigen::Index frames = 29;
    const KernelCase c = kernelCase(rng, normal, d, frames);
    const Eigen::MatrixXd& y = c.y;
    const internal::DtwFeatureTable<double>& features = c.features;
    for (Eigen::Index i = 0; i < frames; i += 7) {
      internal::DtwSpreadFrame<double> x;
      internal::dtwSpreadFrame(y.col(i), x);
      double out[32];
      internal::dtwEuclideanLineAvx2Fma(x.data(), internal::dtwNormLanes<double>(), features.data(), features.cols(), d,
                                        frames, out);
      for (Eigen::Index w = 0; w < frames; ++w) {
        CAPTURE(d);
        CAPTURE(w);
        const double expected = EuclideanDistance{}(y.col(i), y.col(w));
        CHECK(same(out[w], expected, false));
        if (w == 5 && i == 4) CHECK(out[w] == 0.0);
        ++compared;
      }
    }
  }
  CHECK(compared == 40 * 5 * 29);
#else
  test::recordSkip("the AVX2 + FMA kernel is compiled for x86-64 GCC and Clang only");
#endif
}

TEST_CASE("dtw kernel: the kernel in use is AVX2 + FMA where the processor has both, unless forced portable") {
  const char* forced = std::getenv("RETARGET_DTW_KERNEL");
  const bool portable = forced != nullptr && std::string(forced) == "portable";
  const internal::DtwKernel expected = (internal::dtwAvx2FmaSupported() && !portable) ? internal::DtwKernel::kAvx2Fma
                                                                                       : internal::DtwKernel::kPortable;
  CHECK(internal::dtwKernel() == expected);
  const std::string in_use = internal::dtwKernel() == internal::DtwKernel::kAvx2Fma ? "AVX2 + FMA" : "portable";
  MESSAGE("DTW kernel in use: " << in_use);
}

TEST_CASE("dtw kernel: each kernel, line by line and four lines at a time, equals the plain reference") {
  std::mt19937 rng(20260612);
  for (const internal::DtwKernel kernel : runnableKernels()) {
    const bool exact = bitExact(kernel);
    int grouped_cases = 0;
    for (int c = 0; c < test::sweepCount(400); ++c) {
      const Eigen::Index d = std::uniform_int_distribution<Eigen::Index>(1, 30)(rng);
      const Eigen::Index n = randomLength(rng), m = randomLength(rng);
      const bool ties = c % 4 == 3;
      const Eigen::MatrixXd a = randomFrames(rng, d, n, ties);
      const Eigen::MatrixXd b = randomFrames(rng, d, m, ties);
      DtwOptions options;
      options.window = randomWindow(rng, n, m);
      const Eigen::Index r = internal::dtwRadius(options, n, m);
      const PlainDtw plain(a, b, options.window, EuclideanDistance{});
      CAPTURE(static_cast<int>(kernel));
      CAPTURE(c);
      CAPTURE(d);
      CAPTURE(n);
      CAPTURE(m);
      CAPTURE(options.window);
      for (const bool rows : {true, false}) {
        const Eigen::Index lines = rows ? n : m, cells = rows ? m : n;
        const auto expected = [&](Eigen::Index k, Eigen::Index t) { return rows ? plain.cost(k, t) : plain.cost(t, k); };
        const auto expected_len = [&](Eigen::Index k, Eigen::Index t) {
          return rows ? plain.length(k, t) : plain.length(t, k);
        };
        // One line at a time: every line's band checked when it is complete.
        std::vector<double> line(static_cast<std::size_t>(cells), kInf);
        std::vector<Eigen::Index> len(static_cast<std::size_t>(cells), 0);
        bool lines_equal = true;
        const auto check_line = [&](Eigen::Index k, Eigen::Index lo, Eigen::Index hi) {
          for (Eigen::Index t = lo; t <= hi; ++t) {
            const auto u = static_cast<std::size_t>(t);
            lines_equal = lines_equal && same(line[u], expected(k, t), exact) &&
                          (std::isinf(line[u]) || len[u] == expected_len(k, t));
          }
        };
        if (rows) {
          internal::dtwLines<true, true, false>(a, b, r, EuclideanDistance{}, line.data(), len.data(), check_line,
                                                kernel);
        } else {
          internal::dtwLines<false, true, false>(a, b, r, EuclideanDistance{}, line.data(), len.data(), check_line,
                                                 kernel);
        }
        CHECK(lines_equal);
        // Lines grouped where they can be (dtw's driver): the last line, bit for bit the same.
        std::vector<double> grouped(static_cast<std::size_t>(cells), kInf);
        std::vector<Eigen::Index> grouped_len(static_cast<std::size_t>(cells), 0);
        Eigen::Index last_lo = 0, last_hi = -1;
        const auto band = [&](Eigen::Index, Eigen::Index lo, Eigen::Index hi) {
          last_lo = lo;
          last_hi = hi;
        };
        if (rows) {
          internal::dtwLines<true, true, true>(a, b, r, EuclideanDistance{}, grouped.data(), grouped_len.data(), band,
                                               kernel);
        } else {
          internal::dtwLines<false, true, true>(a, b, r, EuclideanDistance{}, grouped.data(), grouped_len.data(), band,
                                                kernel);
        }
        bool last_equal = true;
        for (Eigen::Index t = last_lo; t <= last_hi; ++t) {
          const auto u = static_cast<std::size_t>(t);
          last_equal = last_equal && grouped[u] == line[u] && grouped_len[u] == len[u];
        }
        CHECK(last_equal);
        if (internal::dtwCanGroupLines(0, lines, r, cells)) ++grouped_cases;
      }
    }
    CHECK(grouped_cases > 100);
  }
}

TEST_CASE("dtw kernel: every form equals the plain O(nm) reference on random sizes, dimensions and windows") {
  std::mt19937 rng(20260611);
  const int cases = test::sweepCount(1500);
  int unreachable = 0, single = 0, with_ties = 0;
  for (int c = 0; c < cases; ++c) {
    const Eigen::Index d = std::uniform_int_distribution<Eigen::Index>(1, 40)(rng);
    const Eigen::Index n = randomLength(rng), m = randomLength(rng);
    const bool ties = c % 4 == 3;
    const Eigen::MatrixXd a = randomFrames(rng, d, n, ties);
    const Eigen::MatrixXd b = randomFrames(rng, d, m, ties);
    DtwOptions options;
    options.window = randomWindow(rng, n, m);
    if (c % 3 == 2) options.normalization = DtwNormalization::kPathLength;
    CAPTURE(c);
    CAPTURE(d);
    CAPTURE(n);
    CAPTURE(m);
    CAPTURE(options.window);
    const PlainDtw plain(a, b, options.window, EuclideanDistance{});
    const double cost = plain.cost(n - 1, m - 1);
    const Eigen::Index length = plain.length(n - 1, m - 1);
    unreachable += std::isinf(cost) ? 1 : 0;
    single += (n == 1 || m == 1) ? 1 : 0;
    with_ties += ties ? 1 : 0;

    const DtwResult<double> two_rows = dtw(a, b, options);
    CHECK(same(two_rows.cost, cost));
    CHECK(two_rows.path_length == length);
    const double expected_distance = options.normalization == DtwNormalization::kNone
                                         ? cost
                                         : (length == 0 ? kInf : cost / static_cast<double>(length));
    CHECK(same(two_rows.distance, expected_distance));

    const Eigen::MatrixXd D = dtwCostMatrix(a, b, options);
    bool all_cells = true;
    for (Eigen::Index i = 0; i < n; ++i) {
      for (Eigen::Index j = 0; j < m; ++j) all_cells = all_cells && same(D(i, j), plain.cost(i, j));
    }
    CHECK(all_cells);
    const DtwResult<double> full = dtwWithPath(a, b, options);
    CHECK(full.cost == two_rows.cost);
    CHECK(full.path_length == length);

    // Incremental, in a random interleaving: after every append the last row and column and the
    // path length are the reference's (prefixes of a DTW table are the prefixes' tables).
    IncrementalDtw<double> inc(d, c % 5 == 0 ? 0 : std::max(n, m), options);
    Eigen::Index na = 0, nb = 0;
    bool incremental_equal = true;
    while (na < n || nb < m) {
      const bool take_a = nb == m || (na < n && std::bernoulli_distribution(0.5)(rng));
      const Status status = take_a ? inc.appendA(a.col(na++)) : inc.appendB(b.col(nb++));
      incremental_equal = incremental_equal && status.ok();
      if (na == 0 || nb == 0) continue;
      for (Eigen::Index j = 0; j < nb; ++j)
        incremental_equal = incremental_equal && same(inc.lastRow()(j), plain.cost(na - 1, j));
      for (Eigen::Index i = 0; i < na; ++i)
        incremental_equal = incremental_equal && same(inc.lastColumn()(i), plain.cost(i, nb - 1));
      incremental_equal = incremental_equal && inc.pathLength() == plain.length(na - 1, nb - 1);
    }
    CHECK(incremental_equal);
    CHECK(inc.cost() == two_rows.cost);
  }
  CHECK(unreachable > 0);  // windows narrower than |n - m|
  CHECK(single > 0);       // 1 x N and N x 1
  CHECK(with_ties > 0);
}

TEST_CASE("dtw kernel: 1 x 1, 1 x N, N x 1 and the window edge, by hand") {
  Eigen::MatrixXd a(2, 1), b(2, 4);
  a << 0, 0;
  b << 3, 0, 0, 3, 4, 1, 0, 4;
  // One frame against four: every cell of the only row is on the path.
  const double c0 = 5, c1 = 1, c2 = 0, c3 = 5;
  const DtwResult<double> row = dtw(a, b);
  CHECK(row.cost == c0 + c1 + c2 + c3);
  CHECK(row.path_length == 4);
  const DtwResult<double> column = dtw(b, a);
  CHECK(column.cost == row.cost);
  CHECK(column.path_length == 4);
  CHECK(dtw(a, a).cost == 0.0);
  CHECK(dtw(a, a).path_length == 1);
  // |n - m| = 3: a window of 3 reaches the end cell, a window of 2 does not.
  DtwOptions options;
  options.window = 3;
  CHECK(dtw(a, b, options).cost == row.cost);
  options.window = 2;
  CHECK(std::isinf(dtw(a, b, options).cost));
  CHECK(dtw(a, b, options).path_length == 0);
  CHECK(std::isinf(dtwCostMatrix(a, b, options)(0, 3)));
  CHECK(dtwCostMatrix(a, b, options)(0, 2) == c0 + c1 + c2);
  IncrementalDtw<double> inc(2, 0, options);
  for (Eigen::Index j = 0; j < 4; ++j) CHECK(inc.appendB(b.col(j)).ok());
  CHECK(std::isinf(inc.cost()));
  CHECK(inc.appendA(a.col(0)).ok());
  CHECK(std::isinf(inc.cost()));
  CHECK(inc.lastRow()(2) == c0 + c1 + c2);
}

TEST_CASE("dtw kernel: a user local distance goes through the same recurrence") {
  std::mt19937 rng(77);
  const auto l1 = [](const auto& x, const auto& y) { return (x - y).template lpNorm<1>(); };
  for (int c = 0; c < test::sweepCount(300); ++c) {
    const Eigen::Index d = std::uniform_int_distribution<Eigen::Index>(1, 12)(rng);
    const Eigen::Index n = randomLength(rng), m = randomLength(rng);
    const Eigen::MatrixXd a = randomFrames(rng, d, n, c % 2 == 1);
    const Eigen::MatrixXd b = randomFrames(rng, d, m, c % 2 == 1);
    DtwOptions options;
    options.window = randomWindow(rng, n, m);
    const PlainDtw plain(a, b, options.window, l1);
    CAPTURE(c);
    const DtwResult<double> result = dtw(a, b, options, l1);
    CHECK(result.cost == plain.cost(n - 1, m - 1));  // the same functor: bit for bit everywhere
    CHECK(result.path_length == plain.length(n - 1, m - 1));
    CHECK(dtwWithPath(a, b, options, l1).path_length == plain.length(n - 1, m - 1));
    IncrementalDtw<double, decltype(l1)> inc(d, 0, options, l1);
    for (Eigen::Index i = 0; i < n; ++i) CHECK(inc.appendA(a.col(i)).ok());
    for (Eigen::Index j = 0; j < m; ++j) CHECK(inc.appendB(b.col(j)).ok());
    CHECK(inc.cost() == result.cost);
    CHECK(inc.pathLength() == result.path_length);
  }
}

TEST_CASE("dtw kernel: per-joint weighted forms equal the plain reference joint by joint") {
  std::mt19937 rng(13);
  for (int c = 0; c < test::sweepCount(200); ++c) {
    const Eigen::Index joints = std::uniform_int_distribution<Eigen::Index>(1, 22)(rng);
    const Eigen::Index n = randomLength(rng), m = randomLength(rng);
    const Eigen::MatrixXd human = randomFrames(rng, joints, n, c % 3 == 2);
    const Eigen::MatrixXd robot = randomFrames(rng, joints, m, c % 3 == 2);
    Eigen::VectorXd weights = Eigen::VectorXd::Zero(joints);
    for (Eigen::Index x = 0; x < joints; ++x) weights(x) = std::uniform_int_distribution<int>(0, 3)(rng);
    weights(0) += 1;  // a positive sum
    DtwOptions options;
    options.window = randomWindow(rng, n, m);
    if (c % 2) options.normalization = DtwNormalization::kPathLength;
    CAPTURE(c);
    const WeightedDtwResult<double> result = weightedJointDtw(human, robot, weights, options);
    const Eigen::VectorXd normalised = weights / weights.sum();
    double system = 0;
    bool joints_equal = true;
    for (Eigen::Index x = 0; x < joints; ++x) {
      const Eigen::MatrixXd hx = human.row(x), rx = robot.row(x);
      const PlainDtw plain(hx, rx, options.window, EuclideanDistance{});
      const double cost = plain.cost(n - 1, m - 1);
      const Eigen::Index length = plain.length(n - 1, m - 1);
      const double distance = options.normalization == DtwNormalization::kNone
                                  ? cost
                                  : (length == 0 ? kInf : cost / static_cast<double>(length));
      joints_equal = joints_equal && same(result.joint_distances(x), distance) && result.path_lengths(x) == length;
      if (normalised(x) > 0) system += normalised(x) * distance;
    }
    CHECK(joints_equal);
    CHECK(same(result.system_distance, system));
    // The streaming form, one control step at a time.
    IncrementalJointDtw<double> live(weights, std::max(n, m), options);
    for (Eigen::Index t = 0; t < std::max(n, m); ++t) {
      if (t < n) CHECK(live.appendHuman(human.col(t)).ok());
      if (t < m) CHECK(live.appendRobot(robot.col(t)).ok());
    }
    CHECK(live.systemDistance() == result.system_distance);
  }
}

}  // namespace dtw_kernel_test
