// GMM by EM, GMR and learning from demonstrations (seed 000, Section 8): EM never lowers its
// objective, a known mixture is recovered and BIC picks its size, GMR equals the conditional
// Gaussian and the conditional mixture's moments found by numerical integration, a known
// trajectory is recovered from time-warped noisy demonstrations, and the mixture agrees with
// scikit-learn's (Debian python3-sklearn; skipped when absent).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include <retarget/learning/demonstrations.hpp>
#include <retarget/learning/gaussian_mixture.hpp>
#include <retarget/learning/gaussian_mixture_regression.hpp>
#include <retarget/metrics/dtw_alignment.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

struct TrueComponent {
  double weight;
  Eigen::Vector2d mean;
  Eigen::Matrix2d covariance;
};

std::vector<TrueComponent> threeComponents() {
  Eigen::Matrix2d a, b, c;
  a << 0.30, 0.10, 0.10, 0.20;
  b << 0.15, -0.05, -0.05, 0.40;
  c << 0.25, 0.0, 0.0, 0.05;
  return {{0.5, {0.0, 0.0}, a}, {0.3, {4.0, 1.0}, b}, {0.2, {1.0, 5.0}, c}};
}

Eigen::MatrixXd sampleMixture(const std::vector<TrueComponent>& components, int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  Eigen::MatrixXd data(n, 2);
  for (int j = 0; j < n; ++j) {
    double u = uniform(rng);
    std::size_t k = 0;
    while (k + 1 < components.size() && u > components[k].weight) u -= components[k++].weight;
    const Eigen::Matrix2d L = components[k].covariance.llt().matrixL();
    // One draw per statement: the order of function arguments is unspecified (GCC and Clang
    // differ), and the data must be the same with every compiler.
    const double second = normal(rng);
    const double first = normal(rng);
    data.row(j) = (components[k].mean + L * Eigen::Vector2d(first, second)).transpose();
  }
  return data;
}

// Index of the fitted component whose mean is nearest `mean`.
int nearestComponent(const GaussianMixture& mixture, const Eigen::VectorXd& mean) {
  Eigen::Index best = 0;
  (mixture.means.colwise() - mean).colwise().norm().minCoeff(&best);
  return static_cast<int>(best);
}

}  // namespace

TEST_CASE("gmm: EM never lowers its objective (r = 0: the log-likelihood; r > 0: L_r)") {
  std::mt19937 rng(11);
  const Eigen::MatrixXd data = sampleMixture(threeComponents(), 400, rng);
  for (double r : {0.0, 1e-6, 1e-2}) {
    for (int k = 1; k <= 5; ++k) {
      GaussianMixtureOptions options;
      options.regularization = r;
      options.tolerance = 1e-14;
      options.max_iterations = 300;
      options.starts = 1;
      const GaussianMixtureFit fit = fitGaussianMixture(data, k, options);
      CAPTURE(r);
      CAPTURE(k);
      REQUIRE(fit.objective_history.size() >= 2);
      for (std::size_t i = 1; i < fit.objective_history.size(); ++i) {
        const double drop = fit.objective_history[i - 1] - fit.objective_history[i];
        CHECK(drop <= 1e-9 * std::abs(fit.objective_history[i - 1]));
      }
      // The last objective is that of the returned mixture; at r = 0 it is the log-likelihood.
      if (r == 0.0) CHECK(fit.objective_history.back() == doctest::Approx(fit.log_likelihood).epsilon(1e-12));
      if (r > 0.0) CHECK(fit.log_likelihood > fit.objective_history.back());  // L_r adds a negative term
      CHECK(fit.mixture.weights.sum() == doctest::Approx(1.0).epsilon(1e-12));
    }
  }
}

TEST_CASE("gmm: a known three-component mixture is recovered and BIC picks three") {
  std::mt19937 rng(5);
  const auto truth = threeComponents();
  const Eigen::MatrixXd data = sampleMixture(truth, 3000, rng);
  std::vector<double> bic;
  GaussianMixtureOptions options;
  options.max_components = 5;
  const GaussianMixtureFit fit = fitGaussianMixtureBic(data, options, &bic);
  REQUIRE(bic.size() == 5);
  CHECK(fit.mixture.components() == 3);
  CHECK(fit.bic == doctest::Approx(bic[2]));
  for (const TrueComponent& c : truth) {
    const int k = nearestComponent(fit.mixture, c.mean);
    CHECK((fit.mixture.means.col(k) - c.mean).norm() < 0.05);
    CHECK(fit.mixture.weights[k] == doctest::Approx(c.weight).epsilon(0.1));
    CHECK((fit.mixture.covariances[static_cast<std::size_t>(k)] - c.covariance).norm() < 0.15 * c.covariance.norm());
  }
  // The same seed gives the same fit.
  const GaussianMixtureFit again = fitGaussianMixtureBic(data, options);
  CHECK(again.mixture.means == fit.mixture.means);
}

TEST_CASE("gmr: one component is the least-squares line and its residual variance") {
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 0.1);
  Eigen::MatrixXd data(200, 2);
  for (int j = 0; j < 200; ++j) data.row(j) << j * 0.5, 0.3 - 0.02 * (j * 0.5) + noise(rng);
  GaussianMixtureOptions options;
  options.regularization = 0.0;
  const GaussianMixtureRegression gmr(fitGaussianMixture(data, 1, options).mixture, 1);
  // Independent: ordinary least squares on [t 1] by QR.
  Eigen::MatrixXd design(200, 2);
  design.col(0) = data.col(0);
  design.col(1).setOnes();
  const Eigen::Vector2d line = design.colPivHouseholderQr().solve(data.col(1));
  const double residual = (design * line - data.col(1)).squaredNorm() / 200.0;
  for (double t : {-5.0, 0.0, 37.5, 99.5, 150.0}) {
    const GmrPrediction p = gmr.predict(Eigen::VectorXd::Constant(1, t));
    CHECK(p.mean[0] == doctest::Approx(line[0] * t + line[1]).epsilon(1e-10));
    CHECK(p.covariance(0, 0) == doctest::Approx(residual).epsilon(1e-9));
  }
}

TEST_CASE("gmr: the mixture covariance is the conditional mixture's, by numerical integration") {
  std::mt19937 rng(8);
  const Eigen::MatrixXd data = sampleMixture(threeComponents(), 1500, rng);
  const GaussianMixture mixture = fitGaussianMixture(data, 3).mixture;
  const GaussianMixtureRegression gmr(mixture, 1);
  for (double t : {-0.5, 0.5, 1.0, 2.5, 4.0}) {
    // p(a | t) proportional to p(t, a): integrate over a on a fine grid.
    double z = 0, m1 = 0, m2 = 0;
    const double step = 1e-3;
    for (double a = -10.0; a <= 15.0; a += step) {
      const double density = std::exp(mixture.logDensity(Eigen::Vector2d(t, a)));
      z += density;
      m1 += density * a;
      m2 += density * a * a;
    }
    const double mean = m1 / z, variance = m2 / z - mean * mean;
    const GmrPrediction exact = gmr.predict(Eigen::VectorXd::Constant(1, t));
    const GmrPrediction paper = gmr.predict(Eigen::VectorXd::Constant(1, t), GmrVariance::kPaper);
    CAPTURE(t);
    CHECK(exact.mean[0] == doctest::Approx(mean).epsilon(1e-6));
    CHECK(exact.covariance(0, 0) == doctest::Approx(variance).epsilon(1e-5));
    CHECK(paper.mean[0] == exact.mean[0]);
    CHECK(paper.covariance(0, 0) <= exact.covariance(0, 0) + 1e-15);
    CHECK(gmr.responsibilities(Eigen::VectorXd::Constant(1, t)).sum() == doctest::Approx(1.0).epsilon(1e-12));
  }
}

TEST_CASE("learning from demonstrations: a known gesture through time warps and noise (DTW, GMM, GMR)") {
  // The gesture: two joints of a wave (rad) over a normalised time u in [0, 1].
  const auto gesture = [](double u) {
    return Eigen::RowVector2d(-1.2 + 0.6 * std::sin(kPi<double> * u), 0.5 * std::sin(4.0 * kPi<double> * u));
  };
  std::mt19937 rng(21);
  std::uniform_real_distribution<double> warp_amount(-0.25, 0.25);
  std::uniform_int_distribution<int> length(70, 130);
  std::normal_distribution<double> noise(0.0, 0.02);
  std::vector<Eigen::MatrixXd> demos;
  std::vector<std::vector<double>> warps;  // u of every frame
  for (int d = 0; d < 5; ++d) {
    const int n = length(rng);
    const double a = warp_amount(rng);
    Eigen::MatrixXd demo(n, 2);
    std::vector<double> u_of_frame;
    for (int i = 0; i < n; ++i) {
      const double s = static_cast<double>(i) / (n - 1);
      const double u = s + a * s * (1.0 - s);  // monotone for |a| < 1, fixed ends
      u_of_frame.push_back(u);
      const double second = noise(rng);  // one draw per statement (see sampleMixture)
      const double first = noise(rng);
      demo.row(i) = gesture(u) + Eigen::RowVector2d(first, second);
    }
    demos.push_back(demo);
    warps.push_back(u_of_frame);
  }
  std::vector<Eigen::MatrixXd> columns;
  for (const auto& d : demos) columns.push_back(d.transpose());
  const int reference = dtwMedoid(columns);
  std::vector<Eigen::MatrixXd> aligned;
  for (const auto& c : columns) aligned.push_back(dtwAlignToReference(c, columns[static_cast<std::size_t>(reference)]).transpose());
  const GeneralisedTrajectory learned = learnFromDemonstrations(aligned);
  REQUIRE(learned.mean.rows() == 100);
  REQUIRE(learned.mean.cols() == 2);
  // Truth on the reference's timeline: the gesture at the reference's own warp.
  const auto& u_ref = warps[static_cast<std::size_t>(reference)];
  const Eigen::Index n_ref = demos[static_cast<std::size_t>(reference)].rows();
  Eigen::MatrixXd truth_frames(n_ref, 2);
  for (Eigen::Index i = 0; i < n_ref; ++i) truth_frames.row(i) = gesture(u_ref[static_cast<std::size_t>(i)]);
  const Eigen::MatrixXd truth = resampleFrames(truth_frames, 100);
  const double rms = std::sqrt((learned.mean - truth).squaredNorm() / static_cast<double>(truth.size()));
  // Without alignment (each demonstration only resampled) the same pipeline blurs the gesture.
  const GeneralisedTrajectory unaligned = learnFromDemonstrations(demos);
  const double rms_unaligned = std::sqrt((unaligned.mean - truth).squaredNorm() / static_cast<double>(truth.size()));
  MESSAGE("GMR trajectory RMS to the true gesture: " << rms << " rad aligned by DTW, " << rms_unaligned
                                                     << " rad without alignment; demonstration noise 0.02 rad; "
                                                        "components per joint "
                                                     << learned.components[0] << ", " << learned.components[1]);
  // DTW matches some of the reference's noise, so the recovered gesture keeps part of it: the
  // bound is the demonstrations' noise plus half of it, and well under the unaligned pipeline.
  CHECK(rms < 0.03);
  CHECK(rms < 0.6 * rms_unaligned);
  // The variance band holds the aligned demonstrations.
  int inside = 0, total = 0;
  for (const auto& demo : learned.resampled) {
    for (Eigen::Index s = 0; s < 100; ++s) {
      for (Eigen::Index j = 0; j < 2; ++j) {
        inside += std::abs(demo(s, j) - learned.mean(s, j)) <= 2.5 * std::sqrt(learned.variance(s, j)) ? 1 : 0;
        ++total;
      }
    }
  }
  CHECK(static_cast<double>(inside) / total > 0.9);
  CHECK(learned.mean.allFinite());
  CHECK(learned.variance.minCoeff() >= 0.0);
  for (Eigen::Index j = 0; j < 2; ++j) {  // never outside the demonstrated range
    double low = INFINITY, high = -INFINITY;
    for (const auto& demo : learned.resampled) {
      low = std::min(low, demo.col(j).minCoeff());
      high = std::max(high, demo.col(j).maxCoeff());
    }
    CHECK(learned.mean.col(j).minCoeff() >= low);
    CHECK(learned.mean.col(j).maxCoeff() <= high);
  }
}

TEST_CASE("gmm, gmr, demonstrations: bad input is a clear error") {
  const Eigen::MatrixXd data = Eigen::MatrixXd::Random(20, 2);
  GaussianMixtureOptions options;
  options.regularization = -1.0;
  CHECK_THROWS_WITH_AS(fitGaussianMixture(data, 2, options), doctest::Contains("regularization (got -1"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(fitGaussianMixture(data, 21), doctest::Contains("expected 1 ... the number of points, 20"),
                       InvalidArgument);
  Eigen::MatrixXd bad = data;
  bad(7, 1) = std::nan("");
  CHECK_THROWS_WITH_AS(fitGaussianMixture(bad, 2), doctest::Contains("mixture data(7, 1)"), InvalidArgument);
  // A singular covariance without regularisation: every point on a line.
  Eigen::MatrixXd line(10, 2);
  for (int j = 0; j < 10; ++j) line.row(j) << j, 2.0 * j;
  GaussianMixtureOptions plain;
  plain.regularization = 0.0;
  CHECK_THROWS_WITH_AS(fitGaussianMixture(line, 1, plain), doctest::Contains("covariance is singular"),
                       InvalidArgument);
  CHECK(fitGaussianMixture(line, 1).mixture.covariances[0].allFinite());  // r = 1e-6 by default
  CHECK_THROWS_WITH_AS(GaussianMixtureRegression(fitGaussianMixture(data, 1).mixture, 2),
                       doctest::Contains("input_dim (got 2"), InvalidArgument);
  std::vector<Eigen::MatrixXd> demos{Eigen::MatrixXd::Zero(10, 3), Eigen::MatrixXd::Zero(12, 2)};
  CHECK_THROWS_WITH_AS(learnFromDemonstrations(demos), doctest::Contains("demonstration 1 is 12 frames x 2 joints"),
                       InvalidArgument);
  demos[1] = Eigen::MatrixXd::Zero(12, 3);
  demos[1](4, 2) = INFINITY;
  CHECK_THROWS_WITH_AS(learnFromDemonstrations(demos), doctest::Contains("demonstration 1 frame 4 joint 2"),
                       InvalidArgument);
  DemonstrationLearningOptions steps;
  steps.steps = 1;
  CHECK_THROWS_WITH_AS(learnFromDemonstrations(demos, steps), doctest::Contains("steps (got 1"), InvalidArgument);
  // A joint that never moves is fine: its GMM is a regularised point.
  demos[1](4, 2) = 0.0;
  const GeneralisedTrajectory still = learnFromDemonstrations(demos);
  CHECK(still.mean.cwiseAbs().maxCoeff() == 0.0);  // exactly the demonstrated value
  CHECK(still.components == std::vector<int>{0, 0, 0});
}

TEST_CASE("gmm: the fitted mixture agrees with scikit-learn's GaussianMixture") {
#ifndef RETARGET_SKLEARN_PYTHON
  retarget::test::recordSkip("no Python 3 with scikit-learn (Debian python3-sklearn) was found at configure time");
#else
  std::mt19937 rng(17);
  const Eigen::MatrixXd data = sampleMixture(threeComponents(), 600, rng);
  const auto dir = std::filesystem::temp_directory_path() / "retarget_sklearn_gmm";
  std::filesystem::create_directories(dir);
  {
    std::ofstream out(dir / "data.txt");
    out.precision(17);
    for (Eigen::Index j = 0; j < data.rows(); ++j) out << data(j, 0) << " " << data(j, 1) << "\n";
  }
  {
    // scikit-learn fits with its own initialisation; best of 4 starts, tight tolerance.
    std::ofstream script(dir / "fit.py");
    script << "import numpy as np\n"
              "from sklearn.mixture import GaussianMixture\n"
              "X = np.loadtxt('"
           << (dir / "data.txt").string()
           << "')\n"
              "for k in range(1, 6):\n"
              "    g = GaussianMixture(n_components=k, covariance_type='full', reg_covar=1e-6, tol=1e-9,\n"
              "                        max_iter=1000, n_init=4, random_state=0).fit(X)\n"
              "    print('bic', k, repr(g.bic(X)))\n"
              "    if k == 3:\n"
              "        print('loglik', repr(g.score(X) * len(X)))\n"
              "        for w, m, c in zip(g.weights_, g.means_, g.covariances_):\n"
              "            print('component', repr(w), ' '.join(repr(v) for v in m), ' '.join(repr(v) for v in c.ravel()))\n";
  }
  const std::string command = std::string(RETARGET_SKLEARN_PYTHON) + " " + (dir / "fit.py").string() + " > " +
                              (dir / "out.txt").string() + " 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  std::ifstream in(dir / "out.txt");
  std::vector<double> sk_bic;
  double sk_loglik = 0;
  std::vector<TrueComponent> sk;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (tag == "bic") {
      int k;
      double v;
      words >> k >> v;
      sk_bic.push_back(v);
    } else if (tag == "loglik") {
      words >> sk_loglik;
    } else if (tag == "component") {
      TrueComponent c{};
      words >> c.weight >> c.mean[0] >> c.mean[1] >> c.covariance(0, 0) >> c.covariance(0, 1) >> c.covariance(1, 0) >>
          c.covariance(1, 1);
      sk.push_back(c);
    }
  }
  REQUIRE(sk_bic.size() == 5);
  REQUIRE(sk.size() == 3);
  GaussianMixtureOptions options;
  options.max_components = 5;
  options.tolerance = 1e-9;
  options.max_iterations = 1000;
  options.starts = 4;
  std::vector<double> bic;
  const GaussianMixtureFit best = fitGaussianMixtureBic(data, options, &bic);
  const GaussianMixtureFit three = fitGaussianMixture(data, 3, options);
  MESSAGE("log-likelihood of the 3-component fit: ours " << three.log_likelihood << ", scikit-learn " << sk_loglik);
  CHECK(three.log_likelihood == doctest::Approx(sk_loglik).epsilon(1e-6));
  // With one component and with the true three the optimum is unique and both find it; with two
  // (clusters merged) or more than three, EM ends in one of several local optima (either
  // implementation may find the better one), so those are reported, not compared.
  for (std::size_t k : {0, 2}) CHECK(bic[k] == doctest::Approx(sk_bic[k]).epsilon(1e-7));
  MESSAGE("BIC for 1 ... 5 components, ours: " << bic[0] << " " << bic[1] << " " << bic[2] << " " << bic[3] << " "
                                               << bic[4] << "; scikit-learn: " << sk_bic[0] << " " << sk_bic[1] << " "
                                               << sk_bic[2] << " " << sk_bic[3] << " " << sk_bic[4]);
  Eigen::Index sk_choice = 0;
  Eigen::Map<Eigen::VectorXd>(sk_bic.data(), 5).minCoeff(&sk_choice);
  CHECK(best.mixture.components() == sk_choice + 1);
  for (const TrueComponent& c : sk) {
    const int k = nearestComponent(three.mixture, c.mean);
    CHECK((three.mixture.means.col(k) - c.mean).norm() < 1e-4);
    CHECK(three.mixture.weights[k] == doctest::Approx(c.weight).epsilon(1e-4));
    CHECK((three.mixture.covariances[static_cast<std::size_t>(k)] - c.covariance).norm() < 1e-4);
  }
#endif
}
