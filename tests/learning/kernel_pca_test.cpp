// Kernel PCA (learning/kernel_pca.hpp): neighbourhoods of a known manifold, transform of the
// training frames, pre-image, and input validation.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/learning/kernel_pca.hpp>

using namespace retarget;

namespace {

// Points on a closed curve (a circle with a second harmonic) rotated into 6-D: a 1-D manifold
// whose neighbourhoods are known from the curve parameter.
Eigen::MatrixXd loopIn6d(int n, std::mt19937& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd rotation(6, 6);
  for (Eigen::Index i = 0; i < rotation.size(); ++i) rotation(i) = normal(rng);
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(rotation);
  const Eigen::MatrixXd q = qr.householderQ();
  Eigen::MatrixXd data(n, 6);
  for (int i = 0; i < n; ++i) {
    const double t = 2.0 * M_PI * i / n;
    Eigen::VectorXd p = Eigen::VectorXd::Zero(6);
    p << std::cos(t), std::sin(t), 0.3 * std::cos(2 * t), 0.0, 0.0, 0.0;
    data.row(i) = (q * p).transpose();
  }
  return data;
}

std::vector<int> nearest(const Eigen::MatrixXd& points, int i, int k) {
  std::vector<int> order(static_cast<std::size_t>(points.rows()));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return (points.row(a) - points.row(i)).squaredNorm() < (points.row(b) - points.row(i)).squaredNorm();
  });
  return {order.begin() + 1, order.begin() + 1 + k};
}

}  // namespace

TEST_CASE("kernel PCA: projections of a closed 1-D curve keep each point's neighbours") {
  std::mt19937 rng(3);
  const int n = 60;
  const Eigen::MatrixXd data = loopIn6d(n, rng);
  KernelPca kpca;
  kpca.fit(data, KernelPcaOptions{2});
  REQUIRE(kpca.projections().rows() == n);
  REQUIRE(kpca.projections().cols() == 2);
  const int k = 4;
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    const std::vector<int> latent = nearest(kpca.projections(), i, k);
    for (const int j : latent) {
      const int gap = std::abs(i - j);
      if (std::min(gap, n - gap) <= k / 2) ++kept;  // a neighbour along the curve
    }
  }
  const double fraction = static_cast<double>(kept) / (n * k);
  MESSAGE("kernel PCA: fraction of latent 4-nearest neighbours that are curve neighbours: " << fraction);
  CHECK(fraction >= 0.95);
  CHECK(kpca.eigenvalues()(0) >= kpca.eigenvalues()(1));
  CHECK(kpca.eigenvalues()(1) > 0.0);
}

TEST_CASE("kernel PCA: transform of the training frames equals the fit's projections") {
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd data(30, 5);
  for (Eigen::Index i = 0; i < data.size(); ++i) data(i) = normal(rng);
  for (const double width : {0.0, 1.5}) {
    CAPTURE(width);
    KernelPca kpca;
    kpca.fit(data, KernelPcaOptions{3, width});
    const Eigen::MatrixXd again = kpca.transform(data);
    CHECK((again - kpca.projections()).cwiseAbs().maxCoeff() < 1e-10);
    if (width > 0.0) CHECK(kpca.kernelWidth() == width);
  }
  // The median heuristic is the median pairwise distance.
  KernelPca kpca;
  kpca.fit(data);
  std::vector<double> distances;
  for (Eigen::Index i = 0; i < data.rows(); ++i) {
    for (Eigen::Index j = i + 1; j < data.rows(); ++j) distances.push_back((data.row(i) - data.row(j)).norm());
  }
  std::sort(distances.begin(), distances.end());
  CHECK(kpca.kernelWidth() == doctest::Approx(distances[distances.size() / 2]).epsilon(1e-12));
}

TEST_CASE("kernel PCA: the pre-image of a training frame's projection lies near the frame") {
  std::mt19937 rng(9);
  const Eigen::MatrixXd data = loopIn6d(80, rng);
  KernelPca kpca;
  kpca.fit(data, KernelPcaOptions{3});
  double worst = 0.0;
  for (Eigen::Index i = 0; i < data.rows(); i += 7) {
    const Eigen::RowVectorXd back = kpca.preImage(kpca.projections().row(i).transpose());
    worst = std::max(worst, (back - data.row(i)).norm());
  }
  MESSAGE("kernel PCA pre-image: worst distance to the training frame " << worst << " (curve radius 1)");
  CHECK(worst < 0.35);
}

TEST_CASE("kernel PCA: bad input throws InvalidArgument naming the value") {
  KernelPca kpca;
  CHECK_THROWS_WITH_AS(kpca.fit(Eigen::MatrixXd(0, 3)), doctest::Contains("got 0 x 3"), InvalidArgument);
  Eigen::MatrixXd data = Eigen::MatrixXd::Random(10, 4);
  data(4, 2) = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(kpca.fit(data), doctest::Contains("data(4, 2) (got nan"), InvalidArgument);
  data(4, 2) = 0.0;
  CHECK_THROWS_WITH_AS(kpca.fit(data, KernelPcaOptions{10}), doctest::Contains("got 10, expected < the number of frames 10"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(kpca.fit(data, KernelPcaOptions{0}), doctest::Contains("latent_dim (got 0"), InvalidArgument);
  CHECK_THROWS_WITH_AS(kpca.fit(data, KernelPcaOptions{2, -1.0}), doctest::Contains("kernel_width (got -1"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(kpca.fit(Eigen::MatrixXd::Ones(5, 3)), doctest::Contains("frames coincide"), InvalidArgument);
  CHECK_THROWS_AS(kpca.transform(data), InvalidArgument);  // not fitted
  kpca.fit(data, KernelPcaOptions{2});
  CHECK_THROWS_WITH_AS(kpca.transform(Eigen::MatrixXd::Zero(2, 3)), doctest::Contains("got 3 columns, expected 4"),
                       InvalidArgument);
}
