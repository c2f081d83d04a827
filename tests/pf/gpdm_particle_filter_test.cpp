// GPDM particle filter (seed 003, Sections 6-7): a GPDM trained on one NAO wave (the demo wave
// at 10 Hz, mapped by GA-LVVJ) tracks the same wave resampled at 30 Hz (by a shorter body, which
// leaves GA-LVVJ's angles all but unchanged: the training curve between its samples) seen
// through the robot's virtual skeleton, whose joint angles are known; it reaches the joint-space
// filter's error with far fewer particles. These are fit tests of the filter on the motion its
// model learned, not generalisation (that is gpdm_held_out_test.cpp). Also: determinism, the
// statuses (an observation the model never learned, nothing usable), the Eq. 9 re-location,
// the no-allocation contract, option and map validation, float.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <retarget/human/demo_motions.hpp>
#include <retarget/learning/gpdm_training.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// NAO joint angles of a demo motion (frames x nq, rad), mapped by GA-LVVJ, and the robot's own
// virtual skeleton at each of them: an observation whose answer is known.
struct KnownMotion {
  Eigen::MatrixXd q;
  std::vector<SkeletonFramed> frames;
};

KnownMotion knownMotion(const RobotModel<double>& nao, const std::string& name, const DemoMotionOptions& options) {
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  KnownMotion out;
  out.q = mapMotion(mapper, demoMotion(name, options)).q;
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  for (Eigen::Index t = 0; t < out.q.rows(); ++t) {
    SkeletonFramed frame;
    REQUIRE(skeleton.compute(out.q.row(t).transpose(), frame).ok());
    frame.time = static_cast<double>(t) / options.rate;
    out.frames.push_back(frame);
  }
  return out;
}

// The motion model of these tests: a GPDM of the demo wave at 10 Hz (61 frames).
const GpdmModel& waveModel() {
  static const GpdmModel model = [] {
    const auto nao = makeNao<double>();
    GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
    const Eigen::MatrixXd y = mapMotion(mapper, demoMotion("wave", DemoMotionOptions{10.0, 6.0, 1.75})).q;
    GpdmTrainingOptions options;
    options.max_iterations = 150;
    return trainGpdm({y}, options);
  }();
  return model;
}

// The tracked motion: the same wave at 30 Hz by a 1.70 m body. Two of every three frames fall
// between training frames, but GA-LVVJ maps link directions, so the angles are the training
// curve's: this tracks the learned motion, it is not held out.
const KnownMotion& testWave() {
  static const KnownMotion motion = knownMotion(makeNao<double>(), "wave", DemoMotionOptions{30.0, 6.0, 1.70});
  return motion;
}

struct Tracking {
  double rms = 0;          // rad, all nq coordinates, frames after burn-in
  int not_converged = 0;   // frames after burn-in
  int outside_limits = 0;  // frames whose output was not finite or left the limits
};

// RMS over `coordinates` (q indices; empty: all nq).
template <typename Mapper>
Tracking track(Mapper& mapper, const KnownMotion& motion, int burn_in, std::vector<int> coordinates = {}) {
  const auto& nao = mapper.model();
  Eigen::VectorXd q(nao.nq());
  if (coordinates.empty()) {
    for (int i = 0; i < nao.nq(); ++i) coordinates.push_back(i);
  }
  Tracking out;
  double squared = 0;
  int samples = 0;
  for (std::size_t t = 0; t < motion.frames.size(); ++t) {
    const Status status = mapper.map(motion.frames[t], q);
    if (!q.allFinite() || !withinLimits(nao, q)) ++out.outside_limits;
    if (static_cast<int>(t) < burn_in) continue;
    if (status.has(StatusCode::kNotConverged)) ++out.not_converged;
    for (int i : coordinates) {
      const double e = q[i] - motion.q(static_cast<Eigen::Index>(t), i);
      squared += e * e;
      ++samples;
    }
  }
  out.rms = std::sqrt(squared / samples);
  return out;
}

GpdmFilterMap waveMap() {
  GpdmFilterMap map;
  map.motion_model = waveModel();
  return map;
}

GpdmParticleFilterOptions gpdmOptions(int particles, std::uint64_t seed = 1) {
  GpdmParticleFilterOptions options;
  options.particles = particles;
  options.seed = seed;
  return options;
}

}  // namespace

TEST_CASE("gpdm-pf: tracks the learned wave resampled at 30 Hz with far fewer particles than the joint-space filter") {
  const auto nao = makeNao<double>();
  const KnownMotion& wave = testWave();
  const int burn_in = 15;
  // Errors over the 17 coordinates the joint-space filter estimates (the others it keeps at
  // rest; the GPDM decodes all 25).
  const std::vector<int> observed = JointSpaceParticleFilter<double>(nao, naoVirtualSkeletonMap()).estimated();
  REQUIRE(observed.size() == 17);
  // Joint-space filter (25-D), two seeds per count.
  std::vector<double> joint_rms;
  for (int particles : {50, 200, 800}) {
    double rms = 0;
    for (std::uint64_t seed : {1u, 2u}) {
      ParticleFilterOptions options;
      options.particles = particles;
      options.seed = seed;
      JointSpaceParticleFilter<double> filter(nao, naoVirtualSkeletonMap(), options);
      rms += track(filter, wave, burn_in, observed).rms / 2;
    }
    MESSAGE("joint-space pf, ", particles, " particles: RMS joint error ", rms, " rad");
    joint_rms.push_back(rms);
  }
  std::vector<double> gpdm_rms;
  for (int particles : {5, 10, 20, 40}) {
    double rms = 0;
    int not_converged = 0, outside = 0;
    for (std::uint64_t seed : {1u, 2u}) {
      GpdmParticleFilter<double> filter(nao, waveMap(), gpdmOptions(particles, seed));
      const Tracking t = track(filter, wave, burn_in, observed);
      rms += t.rms / 2;
      not_converged += t.not_converged;
      outside += t.outside_limits;
    }
    MESSAGE("gpdm-pf, ", particles, " particles: RMS joint error ", rms, " rad; low confidence in ", not_converged,
            " of ", 2 * (static_cast<int>(wave.frames.size()) - burn_in), " frames");
    CHECK(outside == 0);
    CHECK(not_converged == 0);  // a motion the model learned is never reported as unknown
    gpdm_rms.push_back(rms);
  }
  // 10 latent particles do better than 800 joint-space ones.
  CHECK(gpdm_rms[1] < joint_rms[2]);
  CHECK(gpdm_rms[3] < 0.05);
}

TEST_CASE("gpdm-pf: the same wave seen with Kinect-like noise (1.5 cm per joint coordinate)") {
  // The observation above is NAO's own virtual skeleton, exact. A depth camera's joints jitter
  // by 1-2 cm: the same test with Gaussian noise of 1.5 cm on every coordinate of every joint.
  const auto nao = makeNao<double>();
  KnownMotion noisy = testWave();
  std::mt19937 rng(35);
  std::normal_distribution<double> jitter(0.0, 0.015);
  for (SkeletonFramed& frame : noisy.frames) {
    for (auto& p : frame.p_W) p += Eigen::Vector3d(jitter(rng), jitter(rng), jitter(rng));
  }
  const std::vector<int> observed = JointSpaceParticleFilter<double>(nao, naoVirtualSkeletonMap()).estimated();
  ParticleFilterOptions joint_options;
  joint_options.particles = 800;
  JointSpaceParticleFilter<double> joint(nao, naoVirtualSkeletonMap(), joint_options);
  const double joint_rms = track(joint, noisy, 15, observed).rms;
  GpdmParticleFilter<double> gpdm(nao, waveMap(), gpdmOptions(20));
  const Tracking t = track(gpdm, noisy, 15, observed);
  GpdmParticleFilter<double> exact(nao, waveMap(), gpdmOptions(20));
  const double exact_rms = track(exact, testWave(), 15, observed).rms;
  MESSAGE("noisy wave: RMS joint error gpdm-pf 20 ", t.rms, " rad (exact observation ", exact_rms,
          "), joint-space pf 800 ", joint_rms, " rad; gpdm-pf not explained in ", t.not_converged, " frames");
  CHECK(t.outside_limits == 0);
  CHECK(t.rms < joint_rms);
  CHECK(t.rms < 3 * exact_rms + 0.02);  // the learned motion absorbs most of the jitter
}

TEST_CASE("gpdm-pf: re-location (Eq. 9) fires once the window is full and does not hurt tracking") {
  const auto nao = makeNao<double>();
  // Eq. 9 compares windows of k frames: the tracked motion must run at about the training
  // rate (10 Hz) for them to span the same time. A wave at 12 Hz by a 1.70 m body.
  const KnownMotion wave = knownMotion(nao, "wave", DemoMotionOptions{12.0, 6.0, 1.70});
  GpdmParticleFilterOptions on = gpdmOptions(20);
  on.relocation_similarity = 0.7;
  GpdmParticleFilter<double> with(nao, waveMap(), on);
  Eigen::VectorXd q(nao.nq());
  int relocated = 0;
  double distance = 0;  // mean distance of the latent estimate to the nearest training point
  std::vector<double> cosines;
  for (std::size_t t = 0; t < wave.frames.size(); ++t) {
    (void)with.map(wave.frames[t], q);
    if (t + 1 < 5) {
      CHECK(with.relocatedTo() == -1);  // the window is not full yet
      continue;
    }
    cosines.push_back(with.relocationCosine());
    if (with.relocatedTo() >= 0) {
      ++relocated;
      CHECK(with.relocatedTo() >= 4);  // the end of a 5-frame window
      CHECK(with.relocatedTo() < waveModel().frames());
      CHECK(with.relocationCosine() >= 0.7);
    }
    distance += (waveModel().latent().rowwise() - with.latentEstimate().transpose()).rowwise().norm().minCoeff() /
                static_cast<double>(wave.frames.size());
  }
  std::sort(cosines.begin(), cosines.end());
  MESSAGE("best window cosine (Eq. 9): min ", cosines.front(), ", median ", cosines[cosines.size() / 2],
          "; re-located (threshold 0.7) in ", relocated, " of ", wave.frames.size(),
          " frames; latent estimate on average ", distance, " from the nearest training point (latent extent ",
          waveModel().latent().cwiseAbs().maxCoeff(), ")");
  CHECK(relocated > static_cast<int>(wave.frames.size()) / 2);

  // Tracking with and without re-location over seeds 1-12, paired by seed. The claim is that
  // re-location does not hurt; the gain is small against one seed's spread, so a one-seed (or
  // mean) "with <= without" turns on rounding-level changes of the model's training angles
  // (seed 1 alone: 0.0245 against 0.0262 rad, then 0.0259 against 0.0255 after GA-LVVJ's
  // issue-30 rounding change; the 12-seed means 0.02520 against 0.02555, 1.4 % apart). So the
  // mean may be worse by at most kNoWorse, three standard errors of the 12-seed mean of the
  // paired difference (without - with) as measured over seeds 1-12 (GCC 12, -O1 with assertions):
  // mean 0.00034 rad, standard deviation 0.00058 rad (re-location ahead on 9 of 12 seeds), so a
  // standard error of 0.00017 rad. An effect of zero passes with 99.9 % probability; re-location
  // that costs 0.0005 rad (2 %) or more fails.
  constexpr double kNoWorse = 0.0005;  // rad
  double rms_with = 0, rms_without = 0;
  std::vector<double> gain;  // per seed: RMS without - RMS with (rad)
  GpdmParticleFilterOptions off = gpdmOptions(20);
  off.window = 0;
  constexpr int kSeeds = 12;
  for (int seed = 1; seed <= kSeeds; ++seed) {
    on.seed = static_cast<std::uint64_t>(seed);
    off.seed = static_cast<std::uint64_t>(seed);
    GpdmParticleFilter<double> tracked(nao, waveMap(), on), without(nao, waveMap(), off);
    const double with_seed = track(tracked, wave, 15).rms, without_seed = track(without, wave, 15).rms;
    MESSAGE("20 particles, seed ", seed, ", RMS joint error: with re-location ", with_seed, " rad, without ", without_seed, " rad");
    rms_with += with_seed / kSeeds;
    rms_without += without_seed / kSeeds;
    gain.push_back(without_seed - with_seed);
    CHECK(without.relocatedTo() == -1);
    CHECK(without.relocationCosine() == 0.0);
  }
  double spread = 0;  // sample standard deviation of the paired difference (rad)
  for (double g : gain) spread += (g - (rms_without - rms_with)) * (g - (rms_without - rms_with)) / (kSeeds - 1);
  spread = std::sqrt(spread);
  MESSAGE("20 particles, mean RMS joint error over seeds 1-12: with re-location ", rms_with, " rad, without ", rms_without,
          " rad; paired difference: mean ", rms_without - rms_with, ", standard deviation ", spread, ", standard error ",
          spread / std::sqrt(double(kSeeds)), " rad");
  CHECK(rms_with <= rms_without + kNoWorse);
}

TEST_CASE("gpdm-pf: a motion the model never learned is reported as low confidence") {
  const auto nao = makeNao<double>();
  const KnownMotion squat = knownMotion(nao, "arms-raise", DemoMotionOptions{30.0, 4.0, 1.75});
  GpdmParticleFilter<double> filter(nao, waveMap(), gpdmOptions(20));
  Eigen::VectorXd q(nao.nq());
  int low = 0, raised = 0;
  for (std::size_t t = 0; t < squat.frames.size(); ++t) {
    const Status status = filter.map(squat.frames[t], q);
    CHECK(q.allFinite());
    CHECK(withinLimits(nao, q));
    // Arms above shoulder height (ShoulderPitch < -0.8 rad): nothing like the wave.
    if (squat.q(static_cast<Eigen::Index>(t), nao.findQ("LShoulderPitch")) < -0.8) {
      ++raised;
      low += status.has(StatusCode::kNotConverged) ? 1 : 0;
    }
  }
  MESSAGE("arms raised in ", raised, " frames; low confidence in ", low);
  REQUIRE(raised > 10);
  CHECK(low >= raised * 9 / 10);
}

TEST_CASE("gpdm-pf: same seed same output; reset() reproduces; nothing usable holds") {
  const auto nao = makeNao<double>();
  const KnownMotion& wave = testWave();
  const auto run = [&](GpdmParticleFilter<double>& filter) {
    std::vector<Eigen::VectorXd> out;
    Eigen::VectorXd q(nao.nq());
    for (std::size_t t = 0; t < 30; ++t) {
      (void)filter.map(wave.frames[t], q);
      out.push_back(q);
    }
    return out;
  };
  GpdmParticleFilter<double> a(nao, waveMap(), gpdmOptions(16, 7));
  GpdmParticleFilter<double> b(nao, waveMap(), gpdmOptions(16, 7));
  GpdmParticleFilter<double> c(nao, waveMap(), gpdmOptions(16, 8));
  const auto first = run(a);
  CHECK(first == run(b));
  CHECK(first != run(c));
  a.reset();
  CHECK(first == run(a));

  Eigen::VectorXd q(nao.nq());
  const Eigen::VectorXd previous = first.back();
  const Eigen::MatrixXd particles = a.particles();
  SkeletonFramed nothing;  // every joint kNotTracked
  CHECK(a.map(nothing, q) == StatusCode::kDegenerateInput);
  CHECK(q == previous);
  CHECK(a.particles() == particles);
  for (int i : a.decodedCoordinates()) CHECK(a.held()[i]);
  SkeletonFramed all_nan = wave.frames[31];
  for (auto& p : all_nan.p_W) p.setConstant(std::numeric_limits<double>::quiet_NaN());
  CHECK(a.map(all_nan, q) == StatusCode::kDegenerateInput);
  CHECK(q == previous);
  // One broken arm: the filter runs on the other links; the output stays finite and in limits.
  SkeletonFramed one_arm = wave.frames[31];
  one_arm.position(HumanJoint::kElbowLeft).x() = std::numeric_limits<double>::quiet_NaN();
  CHECK(!a.map(one_arm, q).has(StatusCode::kDegenerateInput));
  CHECK(q.allFinite());
  CHECK(withinLimits(nao, q));
  Eigen::VectorXd wrong = Eigen::VectorXd::Constant(nao.nq() + 1, 7.0);
  CHECK(a.map(wave.frames[32], wrong) == StatusCode::kInvalidInput);
  CHECK((wrong.array() == 7.0).all());
}

TEST_CASE("gpdm-pf: map() and reset() allocate nothing") {
  const auto nao = makeNao<double>();
  const KnownMotion& wave = testWave();
  GpdmParticleFilter<double> filter(nao, waveMap(), gpdmOptions(24));
  Eigen::VectorXd q(nao.nq());
  for (std::size_t t = 0; t < 6; ++t) (void)filter.map(wave.frames[t], q);  // the window fills
  const SkeletonFramed nothing;
  NoAllocationScope scope;
  for (std::size_t t = 6; t < 20; ++t) (void)filter.map(wave.frames[t], q);
  (void)filter.map(nothing, q);
  filter.reset();
  (void)filter.map(wave.frames[0], q);
  CHECK(scope.allocations() == 0);
  // Also with a frame period, a fit threshold every frame misses (the GA-LVVJ fallback runs and
  // blends in) and the paper's window replacement.
  GpdmFilterMap timed = waveMap();
  timed.frame_period = 0.1;
  timed.fit_threshold = 1.0;
  GpdmParticleFilterOptions options = gpdmOptions(24);
  options.fallback = GpdmFallback::kGaLvvj;
  options.relocation = GpdmRelocation::kReplaceWindow;
  options.relocation_similarity = 0.0;
  GpdmParticleFilter<double> rescued(nao, timed, options);
  for (std::size_t t = 0; t < 6; ++t) (void)rescued.map(wave.frames[t], q);
  NoAllocationScope second;
  int fell_back = 0;
  for (std::size_t t = 6; t < 40; ++t) {
    (void)rescued.map(wave.frames[t], q);
    fell_back += rescued.fallbackWeight() > 0 ? 1 : 0;
  }
  CHECK(second.allocations() == 0);
  CHECK(fell_back == 34);
  CHECK(q.allFinite());
}

TEST_CASE("gpdm-pf: options and map are validated with messages naming the field") {
  const auto nao = makeNao<double>();
  const auto bad = [&](auto change, const char* text) {
    GpdmParticleFilterOptions options;
    change(options);
    CHECK_THROWS_WITH_AS(GpdmParticleFilter<double>(nao, waveMap(), options), doctest::Contains(text),
                         InvalidArgument);
  };
  bad([](auto& o) { o.particles = 0; }, "particles (got 0");
  bad([](auto& o) { o.noise_scale = -1; }, "noise_scale (got -1");
  bad([](auto& o) { o.min_noise = std::numeric_limits<double>::quiet_NaN(); }, "min_noise (got nan");
  bad([](auto& o) { o.likelihood_sigma = 0; }, "likelihood_sigma (got 0");
  bad([](auto& o) { o.window = -1; }, "window (got -1");
  bad([](auto& o) { o.relocation_similarity = 2; }, "relocation_similarity (got 2");
  bad([](auto& o) { o.relocation_fraction = 1.5; }, "relocation_fraction (got 1.5");
  bad([](auto& o) { o.min_similarity = -3; }, "min_similarity (got -3");
  bad([](auto& o) { o.rest = {1.0}; }, "rest (got 1 values");

  GpdmFilterMap map = waveMap();
  map.joints = {"LShoulderPitch"};
  CHECK_THROWS_WITH_AS(GpdmParticleFilter<double>(nao, map), doctest::Contains("joints (got 1 names, expected D = 25"),
                       InvalidArgument);
  map.joints.clear();
  for (int i = 0; i < nao.nq(); ++i) map.joints.push_back(nao.qName(i));
  map.joints[3] = "Tail";
  CHECK_THROWS_WITH_AS(GpdmParticleFilter<double>(nao, map), doctest::Contains("joints[3] (got 'Tail'"),
                       InvalidArgument);
  map.joints[3] = map.joints[2];
  CHECK_THROWS_WITH_AS(GpdmParticleFilter<double>(nao, map), doctest::Contains("a second time"), InvalidArgument);
  CHECK_THROWS_WITH_AS(GpdmParticleFilter<double>(nao, GpdmFilterMap{}), doctest::Contains("empty model"),
                       InvalidArgument);
  // Named columns in another order decode the same robot configuration.
  GpdmFilterMap reversed;
  Eigen::MatrixXd y = waveModel().observations().rowwise().reverse();
  reversed.motion_model = GpdmModel(y, waveModel().sequenceLengths(), waveModel().latent(), waveModel().hyperparameters());
  for (int i = nao.nq() - 1; i >= 0; --i) reversed.joints.push_back(nao.qName(i));
  GpdmParticleFilter<double> in_order(nao, waveMap(), gpdmOptions(8)), out_of_order(nao, reversed, gpdmOptions(8));
  Eigen::VectorXd q1(nao.nq()), q2(nao.nq());
  for (std::size_t t = 0; t < 10; ++t) {
    (void)in_order.map(testWave().frames[t], q1);
    (void)out_of_order.map(testWave().frames[t], q2);
    CHECK((q1 - q2).cwiseAbs().maxCoeff() < 1e-9);
  }
}

TEST_CASE("gpdm-pf: float compiles and tracks like double") {
  const auto nao_f = makeNao<float>();
  const KnownMotion& wave = testWave();
  GpdmParticleFilter<float> filter(nao_f, waveMap(), gpdmOptions(20));
  Eigen::VectorXf q(nao_f.nq());
  double squared = 0;
  int samples = 0;
  for (std::size_t t = 0; t < wave.frames.size(); ++t) {
    SkeletonFrame<float> frame;
    for (std::size_t j = 0; j < frame.p_W.size(); ++j) frame.p_W[j] = wave.frames[t].p_W[j].cast<float>();
    frame.state = wave.frames[t].state;
    (void)filter.map(frame, q);
    CHECK(q.allFinite());
    if (t < 15) continue;
    squared += (q.cast<double>() - wave.q.row(static_cast<Eigen::Index>(t)).transpose()).squaredNorm();
    samples += nao_f.nq();
  }
  MESSAGE("float gpdm-pf, 20 particles: RMS joint error ", std::sqrt(squared / samples), " rad");
  CHECK(std::sqrt(squared / samples) < 0.1);
}

// Seed 003's comparison on real recordings: GA-LVVJ (analytic, no lag by construction), the
// joint-space filter (25-D, 200 particles; the paper's 12-D arms-only, 400 particles) and the
// GPDM-PF (30 particles) whose model was trained on every second frame of GA-LVVJ's output for
// the same recording (the paper trains on 500 of 1000 frames of the motion it then imitates).
// The GPDM-PF's figures are therefore a fit of the recording it learned, seed 003's protocol,
// and no claim of generalisation: leave-one-recording-out is gpdm_held_out_test.cpp (a model of
// one take tracking others), where a model of another gesture is flagged and falls back.
// Lag: frames by which a filter's joint trajectories trail GA-LVVJ's (cross-correlation over
// the joints GA-LVVJ moves, metrics/trajectory_lag.hpp).
#include <retarget/io/kinect.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/trajectory_lag.hpp>

#include "support/floors.hpp"

TEST_CASE("gpdm-pf: real Kinect recordings, model fitted to the recording (seed 003's protocol): similarity and lag beside GA-LVVJ and the joint-space filter") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  // The GPDM-PF's mean cosine similarity per recording, averaged over seeds 1-3 (GCC 12, test
  // preset, GA-LVVJ before issue 30's solver change); a run must reach relativeFloor(measured)
  // (support/floors.hpp).
  const std::pair<const char*, double> kMeasuredCosine[] = {{"laban_ges01_wavehand_kinect2.csv", 0.990848},
                                                            {"laban_ges04_comehere_kinect2.csv", 0.973589},
                                                            {"laban_ges06_chickenwing_kinect2.csv", 0.965468},
                                                            {"laban_ges03_drawlines_kinect2.csv", 0.990862}};
  for (const auto& entry : kMeasuredCosine) {
    const char* const file = entry.first;
    const double measured_cosine = entry.second;
    const std::string recording = file;
    CAPTURE(recording);
    const SkeletonMotion<double> motion = readKinect((data / "kinect" / file).string());
    GaLvvjMapper<double> ga_lvvj(nao, naoGaLvvjMap());
    const MappedMotion<double> reference = mapMotion(ga_lvvj, motion);
    Eigen::MatrixXd every_second((reference.q.rows() + 1) / 2, nao.nq());
    for (Eigen::Index t = 0; t < every_second.rows(); ++t) every_second.row(t) = reference.q.row(2 * t);
    GpdmTrainingOptions training;
    training.max_iterations = 150;
    GpdmFilterMap map;
    map.motion_model = trainGpdm({every_second}, training);

    ParticleFilterOptions joint_options;
    JointSpaceParticleFilter<double> joint(nao, naoVirtualSkeletonMap(), joint_options);
    joint_options.particles = 400;
    joint_options.joints = naoArmJoints();
    JointSpaceParticleFilter<double> arms(nao, naoVirtualSkeletonMap(), joint_options);
    const MappedMotion<double> joint_out = mapMotion(joint, motion);
    const MappedMotion<double> arms_out = mapMotion(arms, motion);
    // The filter's figure is a mean over three seeds: one run of 30 particles on a model trained
    // from GA-LVVJ's output varies by about 0.01 in cosine when that output moves by rounding
    // (measured: GA-LVVJ's solver change of issue 30 left its own cosine equal to 6 digits and
    // moved one seed's GPDM-PF cosine from 0.9709 to 0.9629 on comehere).
    std::vector<MappedMotion<double>> gpdm_seeds;
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      GpdmParticleFilter<double> gpdm(nao, map, gpdmOptions(30, seed));
      gpdm_seeds.push_back(mapMotion(gpdm, motion));
    }
    const MappedMotion<double>& gpdm_out = gpdm_seeds.front();

    const auto similarity = [&](const MappedMotion<double>& mapped) {
      std::vector<SkeletonFramed> robot(motion.size());
      for (std::size_t k = 0; k < motion.size(); ++k) {
        REQUIRE(view.compute(mapped.q.row(static_cast<Eigen::Index>(k)).transpose(), robot[k]).ok());
      }
      return motionSimilarity(motion.frames, robot);
    };
    const int max_lag = 60;  // 2 s at 30 Hz
    std::string table = std::string(file) + " (" + std::to_string(motion.size()) +
                        " frames): method, cosine, WBF, LLF, lag vs GA-LVVJ (frames), correlation\n";
    std::vector<int> lags;
    for (const auto& [name, mapped] : {std::pair<const char*, const MappedMotion<double>*>{"ga-lvvj", &reference},
                                       {"pf 25-D 200", &joint_out},
                                       {"pf 12-D 400", &arms_out},
                                       {"gpdm-pf 30", &gpdm_out}}) {
      const MotionSimilarity<double> s = similarity(*mapped);
      const TrajectoryLag lag = trajectoryLag(reference.q, mapped->q, max_lag, 0.02);
      table += std::string("  ") + name + ": " + std::to_string(s.cosine_mean) + ", " + std::to_string(s.wbf_mean) +
               ", " + std::to_string(s.llf_mean) + ", " + std::to_string(lag.lag) + ", " +
               std::to_string(lag.correlation) + "\n";
      lags.push_back(lag.lag);
      CHECK(mapped->invalid_frames == 0);
    }
    double cosine_over_seeds = 0;
    for (const MappedMotion<double>& run : gpdm_seeds) {
      const double cosine = similarity(run).cosine_mean;
      table += "  gpdm-pf 30, one seed: cosine " + std::to_string(cosine) + "\n";
      cosine_over_seeds += cosine / static_cast<double>(gpdm_seeds.size());
      // A recording the model learned is not reported as unknown frame after frame.
      CHECK(run.frames(StatusCode::kNotConverged) <= static_cast<int>(motion.size()) / 10);
      CHECK(run.invalid_frames == 0);
    }
    RETARGET_CHECK_FLOOR(cosine_over_seeds, measured_cosine);
    MESSAGE(table);
    // The lag measure finds a known delay: GA-LVVJ's own trajectory delayed by 3 frames.
    Eigen::MatrixXd delayed = reference.q;
    for (Eigen::Index t = delayed.rows() - 1; t >= 3; --t) delayed.row(t) = delayed.row(t - 3);
    CHECK(trajectoryLag(reference.q, delayed, max_lag, 0.02).lag == 3);
    // The GPDM filter trails GA-LVVJ by no more than the joint-space filters do, and by at most
    // a few frames.
    CHECK(lags[3] <= std::max(lags[1], lags[2]));
    CHECK(std::abs(lags[3]) <= 5);
  }
}

