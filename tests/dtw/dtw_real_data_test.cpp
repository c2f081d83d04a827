// DTW on real motion capture (../shared/data/bvh): channel trajectories are full of exact ties
// (constant finger channels, repeated values), which stresses the agreement of the full-matrix,
// O(n)-memory and incremental forms; checked against a brute-force recursion as well.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/weighted_dtw.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

// Frames [first, first + count) of a BVH motion as a channels x frames matrix (degrees, file
// units for positions).
Eigen::MatrixXd channelFrames(const BvhMotion& motion, int first, int count) {
  const Eigen::Map<const Eigen::MatrixXd> all(motion.values.data(), motion.channel_count, motion.frame_count);
  return all.middleCols(first, count);
}

// Memoised recursion over the definition (independent of the library's loops).
double referenceDtw(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  const Eigen::Index n = a.cols(), m = b.cols();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> memo(static_cast<std::size_t>(n * m), -1.0);
  std::function<double(Eigen::Index, Eigen::Index)> at = [&](Eigen::Index i, Eigen::Index j) -> double {
    if (i < 0 || j < 0) return (i == -1 && j == -1) ? 0.0 : inf;
    double& cell = memo[static_cast<std::size_t>(i * m + j)];
    if (cell < 0) {
      double sum = 0;
      for (Eigen::Index k = 0; k < a.rows(); ++k) sum += (a(k, i) - b(k, j)) * (a(k, i) - b(k, j));
      cell = std::sqrt(sum) + std::min({at(i - 1, j - 1), at(i - 1, j), at(i, j - 1)});
    }
    return cell;
  };
  return at(n - 1, m - 1);
}

}  // namespace

TEST_CASE("dtw on real BVH takes: every form agrees, time-warped copies cost zero") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir / "bvh")) {
    if (entry.path().extension() != ".bvh") continue;
    const BvhMotion motion = readBvh(entry.path());
    if (motion.frame_count < 4) continue;  // the template file has no frames
    CAPTURE(entry.path().filename().string());
    ++files;
    // Two overlapping windows of the take, as "human" and "robot".
    const int length = std::min(150, motion.frame_count / 2);
    const Eigen::MatrixXd a = channelFrames(motion, 0, length);
    const Eigen::MatrixXd b = channelFrames(motion, motion.frame_count - length - (motion.frame_count % 3), length);

    const auto full = dtwWithPath(a, b);
    const auto two_rows = dtw(a, b);
    CHECK(two_rows.cost == full.cost);
    CHECK(two_rows.path_length == full.path_length);
    CHECK(full.cost == doctest::Approx(referenceDtw(a, b)).epsilon(1e-12));
    IncrementalDtw<double> inc(a.rows(), length);
    for (int t = 0; t < length; ++t) {
      REQUIRE(inc.appendA(a.col(t)).ok());
      REQUIRE(inc.appendB(b.col(t)).ok());
    }
    CHECK(inc.cost() == full.cost);
    CHECK(inc.pathLength() == full.path_length);

    // The same motion at a varying speed: every third frame shown twice, then every other one
    // skipped in a second stretch. DTW ignores the timing: zero cost.
    std::vector<Eigen::Index> source;
    for (Eigen::Index t = 0; t < length; ++t) {
      source.push_back(t);
      if (t % 3 == 0 && t < length / 2) source.push_back(t);
      if (t >= length / 2 && t % 2 == 1 && t + 1 < length) ++t;
    }
    Eigen::MatrixXd warped(a.rows(), static_cast<Eigen::Index>(source.size()));
    for (std::size_t s = 0; s < source.size(); ++s) warped.col(static_cast<Eigen::Index>(s)) = a.col(source[s]);
    // Skipped frames are not free: compare against the frames actually kept.
    Eigen::MatrixXd kept(a.rows(), 0);
    std::vector<Eigen::Index> unique_source = source;
    unique_source.erase(std::unique(unique_source.begin(), unique_source.end()), unique_source.end());
    kept.resize(a.rows(), static_cast<Eigen::Index>(unique_source.size()));
    for (std::size_t s = 0; s < unique_source.size(); ++s) kept.col(static_cast<Eigen::Index>(s)) = a.col(unique_source[s]);
    CHECK(dtw(kept, warped).cost == 0.0);

    // Per-channel weighted DTW: each channel's value is the reference DTW of that channel's
    // row (checked on up to 6 channels spread over the hierarchy), and the system value is
    // the weighted mean of the per-channel values.
    const Eigen::VectorXd weights = Eigen::VectorXd::LinSpaced(a.rows(), 1.0, 2.0);
    const auto per_channel = weightedJointDtw(a, b, weights);
    for (Eigen::Index c = 0; c < a.rows(); c += std::max<Eigen::Index>(1, a.rows() / 6)) {
      CAPTURE(c);
      CHECK(per_channel.joint_distances[c] == doctest::Approx(referenceDtw(a.row(c), b.row(c))).epsilon(1e-12));
    }
    CHECK(per_channel.system_distance ==
          doctest::Approx(weights.dot(per_channel.joint_distances) / weights.sum()).epsilon(1e-12));
    CHECK(per_channel.system_distance <= per_channel.joint_distances.maxCoeff() + 1e-9);
    CHECK(per_channel.system_distance >= per_channel.joint_distances.minCoeff() - 1e-9);
  }
  CHECK(files == 5);  // MANIFEST.md: 6 BVH files, all but the 0-frame PN Studio template
}
