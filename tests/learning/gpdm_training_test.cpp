// GPDM training (learning/gpdm_training.hpp) on NAO waving motions: the objective never increases,
// the training frames are reconstructed, and frames between the training samples are decoded
// better than by kernel PCA alone. Those frames are the training curve resampled (interpolation
// on the learned manifold), not unseen motion: a model of one demo motion has no other take of
// it to be tested on; generalisation to other takes is tests/pf/gpdm_held_out_test.cpp.

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include <retarget/learning/gpdm_encoder.hpp>
#include <retarget/learning/gpdm_training.hpp>

#include "learning/learning_fixtures.hpp"

using namespace retarget;
using retarget::test::naoDemoAngles;

namespace {

// Root mean square over every entry of a matrix difference (rad).
double rms(const Eigen::MatrixXd& difference) {
  return std::sqrt(difference.squaredNorm() / static_cast<double>(difference.size()));
}

// The latent point whose decoded frame is closest to `frame`: started at the latent point of the
// nearest training frame, then Gauss-Newton on |decode(x) - frame|^2 with a finite-difference
// Jacobian (the GPDM has no encoder; the particle filter searches its latent space likewise).
Eigen::VectorXd inferLatent(const GpdmModel& model, GpdmWorkspace& workspace, const Eigen::VectorXd& frame) {
  Eigen::Index nearest = 0;
  (model.observations().rowwise() - frame.transpose()).rowwise().squaredNorm().minCoeff(&nearest);
  Eigen::VectorXd x = model.latent().row(nearest).transpose();
  const Eigen::Index d = model.latentDim(), dim_y = model.observationDim();
  Eigen::VectorXd y(dim_y), y_step(dim_y);
  Eigen::MatrixXd jacobian(dim_y, d);
  double variance = 0.0;
  const auto cost = [&](const Eigen::VectorXd& at) {
    (void)model.decode(at, workspace, y_step, variance);
    return (y_step - frame).squaredNorm();
  };
  for (int iteration = 0; iteration < 20; ++iteration) {
    (void)model.decode(x, workspace, y, variance);
    for (Eigen::Index c = 0; c < d; ++c) {
      Eigen::VectorXd moved = x;
      moved(c) += 1e-6;
      (void)model.decode(moved, workspace, y_step, variance);
      jacobian.col(c) = (y_step - y) / 1e-6;
    }
    const Eigen::VectorXd step =
        (jacobian.transpose() * jacobian + 1e-6 * Eigen::MatrixXd::Identity(d, d)).ldlt().solve(jacobian.transpose() * (frame - y));
    const double before = (y - frame).squaredNorm();
    double scale = 1.0;
    while (scale > 1e-4 && cost(x + scale * step) >= before) scale *= 0.5;
    if (scale <= 1e-4) break;
    x += scale * step;
  }
  return x;
}

struct WaveData {
  Eigen::MatrixXd train;
  Eigen::MatrixXd between;  // frames between the training samples
};

const WaveData& waveData() {
  static const WaveData data = [] {
    WaveData out;
    // Training: the wave sampled at 10 Hz (61 frames); between: the same wave sampled at 7 Hz
    // by a slightly shorter body, whose frames (but for t = 0, 1, ... s) fall between the
    // training frames. GA-LVVJ maps link directions, so the body size hardly changes the angles:
    // these frames lie on the training curve.
    out.train = naoDemoAngles("wave", DemoMotionOptions{10.0, 6.0, 1.75});
    out.between = naoDemoAngles("wave", DemoMotionOptions{7.0, 6.0, 1.70});
    return out;
  }();
  return data;
}

struct PredictionRms {
  double encoded = 0, nearest = 0, hold = 0;  // rad
};

// One-step prediction RMS over the wave sampled at `rate` Hz (a multiple of 10): from every frame
// that falls between training frames, encode theta_t (by the regression encoder, by the nearest
// training frame), one dynamics step (0.1 s), decode, against the true pose 0.1 s later; and
// holding theta_t.
PredictionRms predictionRms(const GpdmModel& model, const GpdmEncoder& encoder, int rate) {
  const Eigen::MatrixXd test = naoDemoAngles("wave", DemoMotionOptions{static_cast<double>(rate), 6.0, 1.75});
  const Eigen::Index step = rate / 10;
  GpdmWorkspace workspace = model.workspace();
  Eigen::VectorXd next(model.latentDim()), theta(model.observationDim());
  PredictionRms out;
  Eigen::Index pairs = 0;
  for (Eigen::Index t = 1; t + step < test.rows(); ++t) {
    if (t % step == 0) continue;  // a training frame's time
    const Eigen::VectorXd now = test.row(t).transpose(), truth = test.row(t + step).transpose();
    REQUIRE(model.predictNextMean(encoder.encode(now), workspace, next).ok());
    REQUIRE(model.decodeMean(next, workspace, theta).ok());
    out.encoded += (theta - truth).squaredNorm();
    REQUIRE(model.predictNextMean(nearestLatent(model, now), workspace, next).ok());
    REQUIRE(model.decodeMean(next, workspace, theta).ok());
    out.nearest += (theta - truth).squaredNorm();
    out.hold += (now - truth).squaredNorm();
    ++pairs;
  }
  const double count = static_cast<double>(pairs * test.cols());
  out.encoded = std::sqrt(out.encoded / count);
  out.nearest = std::sqrt(out.nearest / count);
  out.hold = std::sqrt(out.hold / count);
  return out;
}

}  // namespace

TEST_CASE("gpdm training: the objective never increases and the training frames are reconstructed") {
  const WaveData& data = waveData();
  REQUIRE(data.train.cols() == 25);
  GpdmTrainingOptions options;
  options.max_iterations = 150;
  options.report_every = 5;
  std::vector<GpdmTrainingProgress> steps;
  GpdmTrainingReport report;
  const auto start = std::chrono::steady_clock::now();
  const GpdmModel model = trainGpdm({data.train}, options, [&](const GpdmTrainingProgress& p) { steps.push_back(p); }, &report);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(steps.size() >= 2);
  CHECK(steps.front().iteration == 0);
  for (std::size_t k = 1; k < steps.size(); ++k) {
    CAPTURE(k);
    CHECK(steps[k].objective <= steps[k - 1].objective);
    CHECK(steps[k].iteration > steps[k - 1].iteration);
  }
  CHECK(report.final_objective == steps.back().objective);
  CHECK(report.final_objective < report.initial_objective - 100.0);
  CHECK(model.negativeLogLikelihood(model.parameters()) == doctest::Approx(report.final_objective).epsilon(1e-12));

  GpdmWorkspace workspace = model.workspace();
  Eigen::MatrixXd decoded(model.frames(), model.observationDim());
  Eigen::VectorXd y(model.observationDim());
  double variance = 0.0;
  for (Eigen::Index t = 0; t < model.frames(); ++t) {
    REQUIRE(model.decode(model.latent().row(t).transpose(), workspace, y, variance).ok());
    decoded.row(t) = y.transpose();
  }
  const double train_rms = rms(decoded - data.train);
  MESSAGE("gpdm training (wave, " << model.frames() << " frames x 25 NAO joints): objective " << report.initial_objective
                                  << " -> " << report.final_objective << " in " << report.iterations
                                  << " L-BFGS iterations, " << seconds << " s; training RMS " << train_rms << " rad");
  CHECK(train_rms < 0.02);

  // The dynamics predict the next training latent point.
  Eigen::VectorXd x_next(model.latentDim());
  double worst = 0.0, spread = 0.0;
  for (Eigen::Index t = 0; t + 1 < model.frames(); ++t) {
    REQUIRE(model.predictNext(model.latent().row(t).transpose(), workspace, x_next, variance).ok());
    worst = std::max(worst, (x_next.transpose() - model.latent().row(t + 1)).norm());
    spread = std::max(spread, (model.latent().row(t + 1) - model.latent().row(t)).norm());
  }
  MESSAGE("gpdm dynamics: worst one-step prediction error " << worst << " (largest latent step " << spread
                                                            << "; latent unit)");
  CHECK(worst < spread);

  // The balanced GPDM (dynamics weighted by D'/d) learns latent trajectories its dynamics predict
  // better.
  GpdmTrainingOptions balanced = options;
  balanced.dynamics_weight = 0.0;
  const GpdmModel smooth = trainGpdm({data.train}, balanced);
  GpdmWorkspace smooth_workspace = smooth.workspace();
  double worst_balanced = 0.0, spread_balanced = 0.0;
  for (Eigen::Index t = 0; t + 1 < smooth.frames(); ++t) {
    REQUIRE(smooth.predictNext(smooth.latent().row(t).transpose(), smooth_workspace, x_next, variance).ok());
    worst_balanced = std::max(worst_balanced, (x_next.transpose() - smooth.latent().row(t + 1)).norm());
    spread_balanced = std::max(spread_balanced, (smooth.latent().row(t + 1) - smooth.latent().row(t)).norm());
  }
  for (Eigen::Index t = 0; t < smooth.frames(); ++t) {
    REQUIRE(smooth.decode(smooth.latent().row(t).transpose(), smooth_workspace, y, variance).ok());
    decoded.row(t) = y.transpose();
  }
  MESSAGE("balanced gpdm: worst one-step prediction error " << worst_balanced << " (largest latent step "
                                                            << spread_balanced << "); training RMS "
                                                            << rms(decoded - data.train) << " rad");
  // Its dynamics predict the next latent point better than the plain GPDM's (measured 1.20 against
  // 1.33 latent units at worst), and better than standing still; the decoder stays as exact.
  CHECK(worst_balanced < worst);
  CHECK(worst_balanced < spread_balanced);
  CHECK(rms(decoded - data.train) < 1e-3);
}

TEST_CASE("gpdm training: the decoder reproduces wave frames between the training samples better than kernel PCA alone") {
  const WaveData& data = waveData();
  GpdmTrainingOptions options;
  options.max_iterations = 150;
  const GpdmModel model = trainGpdm({data.train}, options);
  GpdmWorkspace workspace = model.workspace();

  KernelPca kpca;
  kpca.fit(data.train, KernelPcaOptions{3});
  const Eigen::MatrixXd z = kpca.transform(data.between);

  Eigen::MatrixXd gpdm_out(data.between.rows(), data.between.cols());
  Eigen::MatrixXd kpca_out(data.between.rows(), data.between.cols());
  Eigen::VectorXd y(model.observationDim());
  double variance = 0.0;
  for (Eigen::Index t = 0; t < data.between.rows(); ++t) {
    const Eigen::VectorXd x = inferLatent(model, workspace, data.between.row(t).transpose());
    REQUIRE(model.decode(x, workspace, y, variance).ok());
    gpdm_out.row(t) = y.transpose();
    kpca_out.row(t) = kpca.preImage(z.row(t).transpose());
  }
  // A third baseline: the nearest training frame (what a lookup table without a model gives).
  Eigen::MatrixXd nearest_out(data.between.rows(), data.between.cols());
  for (Eigen::Index t = 0; t < data.between.rows(); ++t) {
    Eigen::Index nearest = 0;
    (data.train.rowwise() - data.between.row(t)).rowwise().squaredNorm().minCoeff(&nearest);
    nearest_out.row(t) = data.train.row(nearest);
  }
  const double gpdm_rms = rms(gpdm_out - data.between);
  const double kpca_rms = rms(kpca_out - data.between);
  const double nearest_rms = rms(nearest_out - data.between);
  MESSAGE("wave between the training samples (" << data.between.rows() << " frames, " << model.activeObservationDim()
                            << " of 25 joints move): GPDM decoder RMS " << gpdm_rms << " rad, kernel PCA pre-image RMS "
                            << kpca_rms << " rad, nearest training frame RMS " << nearest_rms << " rad");
  CHECK(gpdm_rms < kpca_rms);
  CHECK(gpdm_rms < nearest_rms);
  CHECK(gpdm_rms < 0.05);
}

TEST_CASE("gpdm training: several sequences and option validation") {
  const WaveData& data = waveData();
  GpdmTrainingOptions options;
  options.max_iterations = 20;
  const GpdmModel model = trainGpdm({data.train.topRows(30), data.train.bottomRows(31)}, options);
  CHECK(model.sequenceLengths() == std::vector<Eigen::Index>{30, 31});
  CHECK(model.dynamicsPairs() == 59);

  GpdmTrainingOptions bad;
  bad.max_iterations = 0;
  CHECK_THROWS_WITH_AS(trainGpdm({data.train}, bad), doctest::Contains("max_iterations (got 0"), InvalidArgument);
  bad = GpdmTrainingOptions{};
  bad.latent_dim = 0;
  CHECK_THROWS_WITH_AS(trainGpdm({data.train}, bad), doctest::Contains("latent_dim (got 0"), InvalidArgument);
  CHECK_THROWS_WITH_AS(trainGpdm({}), doctest::Contains("sequences (got none"), InvalidArgument);
  CHECK_THROWS_WITH_AS(trainGpdm({data.train, data.train.leftCols(3)}), doctest::Contains("sequences[1] (got 61 x 3"),
                       InvalidArgument);
}

TEST_CASE("gpdm encoder (Section 6): 70/15/15 split, and the prediction check of Figs. 12-13 between the training samples") {
  const WaveData& data = waveData();
  GpdmTrainingOptions options;
  options.max_iterations = 150;
  const GpdmModel model = trainGpdm({data.train}, options);
  const GpdmEncoder encoder(model);
  MESSAGE("encoder: width " << encoder.width() << " rad, lambda " << encoder.regularisation() << "; RMS latent error "
                            << "validation " << encoder.validationRms() << ", test " << encoder.testRms()
                            << " (latent extent " << model.latent().cwiseAbs().maxCoeff() << ")");
  // The encoder's test frames (15 % of the model's frames, not fitted by the encoder's regression,
  // though the GPDM was trained on them) are encoded to within a tenth of the latent extent.
  CHECK(encoder.testRms() < 0.1 * model.latent().cwiseAbs().maxCoeff());
  // Prediction check: encode theta_t, one dynamics step (0.1 s), decode theta_{t+1}; on the same
  // wave sampled at 20 Hz, from the frames that fall between training frames (odd t), against
  // the true pose 0.1 s later and against holding theta_t.
  // The same at 30 Hz (two of every three frames between training frames), so the comparison
  // does not rest on one sampling.
  //
  // Spread (GCC 12, -O1): encoded / nearest over models of 140, 150 and 160 L-BFGS iterations
  // (a stand-in for rounding-level changes of the model) and test rates 20, 30 and 40 Hz lies in
  // 0.9765-0.9789 at 20 Hz, 0.9865-0.9878 at 30 Hz and 0.9860-0.9871 at 40 Hz: the 1.2-2.4 %
  // lead is five to ten times the spread between models (at most 0.0024), so "encoded <=
  // nearest" is not a coin flip. encoded / hold: 0.8136-0.8164 everywhere (bound 0.9).
  for (int rate : {20, 30}) {
    CAPTURE(rate);
    const PredictionRms p = predictionRms(model, encoder, rate);
    MESSAGE("one-step prediction RMS at " << rate << " Hz (rad): kernel-ridge encoder " << p.encoded
                                          << ", nearest-frame encoder " << p.nearest << ", holding theta_t " << p.hold);
    CHECK(p.encoded < 0.9 * p.hold);  // the learned dynamics predict part of the next step (measured: 0.028 against 0.034 rad)
    CHECK(p.encoded <= p.nearest);    // and the regression encoder does at least as well as the nearest frame
  }
}
