// GPDM particle filter on motion it was not trained on (issue 35): the model is learned from
// GA-LVVJ's angles of some recordings and tracks others. Cases: the second half of the take whose
// first half trained it; other motions (which must be flagged as not explained by the model, and
// which the GA-LVVJ fallback rescues); a walk of another take at 30 and 120 Hz. Figures are
// printed as a table (docs/methods/particle_filter.md) and floored.
//
// Held out means outside the rows of tests/tuning_split.md for the defaults these cases run
// with (issue 51): the re-location and min_noise defaults were chosen on the wave-hand take and
// the two Xia walks (the last case below), the learned-W default off on those and on the other
// laban gestures, and GA-LVVJ's (whose angles train the models, write the fallback and are the
// reference) on the Keraal takes. So the tracked data here are the close-range take and the CMU
// locomotion example; the wave and the walks only train models.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/learning/gpdm_training.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/floors.hpp"
#include "support/test_support.hpp"
#include "support/tuning_split.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// Frames [first, last) of a motion, times kept.
SkeletonMotion<double> slice(const SkeletonMotion<double>& motion, std::size_t first, std::size_t last, std::size_t every = 1) {
  SkeletonMotion<double> out = motion;
  out.frames.clear();
  for (std::size_t k = first; k < last; k += every) out.frames.push_back(motion.frames[k]);
  return out;
}

// A GPDM-PF map learned as `retarget learn gpdm` learns it: GA-LVVJ's angles of `training`,
// every `every`-th frame, 150 L-BFGS iterations; its frame period and fit threshold measured.
GpdmFilterMap learn(const RobotModel<double>& nao, const std::vector<SkeletonMotion<double>>& training, int every) {
  std::vector<Eigen::MatrixXd> sequences;
  double period = 0;
  for (const SkeletonMotion<double>& motion : training) {
    GaLvvjMapper<double> ga_lvvj(nao, naoGaLvvjMap());
    const MappedMotion<double> angles = mapMotion(ga_lvvj, motion);
    Eigen::MatrixXd kept((angles.q.rows() + every - 1) / every, nao.nq());
    for (Eigen::Index t = 0; t < kept.rows(); ++t) kept.row(t) = angles.q.row(t * every);
    sequences.push_back(kept);
    period = (motion.frames[1].time - motion.frames[0].time) * every;
  }
  GpdmTrainingOptions options;
  options.max_iterations = 150;
  GpdmFilterMap map;
  map.motion_model = trainGpdm(sequences, options);
  map.frame_period = period;
  map.fit_threshold = gpdmFitThreshold(nao, map, training);
  return map;
}

// Per-frame cosine similarity (seed 003 Eq. 1) of the written angles to the human.
std::vector<double> cosines(const RobotModel<double>& nao, const SkeletonMotion<double>& motion, const Eigen::MatrixXd& q) {
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  std::vector<SkeletonFramed> robot(motion.size());
  for (std::size_t k = 0; k < motion.size(); ++k) (void)view.compute(q.row(static_cast<Eigen::Index>(k)).transpose(), robot[k]);
  std::vector<double> out;
  for (const auto& f : motionSimilarity(motion.frames, robot).frames) out.push_back(f.cosine);
  return out;
}

double mean(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()); }

GpdmParticleFilterOptions options(GpdmFallback fallback = GpdmFallback::kNone) {
  GpdmParticleFilterOptions o;
  o.particles = 30;
  o.fallback = fallback;
  return o;
}

SkeletonMotion<double> kinect(const std::filesystem::path& data, const char* file) {
  return readKinect((data / "kinect" / file).string());
}

// The tuned defaults every held-out case runs with (rows of tests/tuning_split.md).
const std::vector<std::string> kCheckedDefaults = {"gpdm_pf_relocation_defaults", "gpdm_learn_scales_default",
                                                   "ga_lvvj_jump_cost", "ga_lvvj_hip_yaw_pitch_from_knees"};

SkeletonMotion<double> bvh(const std::filesystem::path& data, const char* file) {
  return bvhToSkeleton(readBvh((data / "bvh" / file).string()));
}

}  // namespace

TEST_CASE("gpdm-pf held out: other motions are flagged where it falls behind GA-LVVJ; the fallback rescues them") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const auto nao = makeNao<double>();
  const GpdmFilterMap map = learn(nao, {kinect(data, "laban_ges01_wavehand_kinect2.csv")}, 2);
  MESSAGE("trained on the wave (every 2nd frame): fit threshold " << *map.fit_threshold << ", frame period " << map.frame_period << " s");
  // Mean cosine of GPDM-PF with the GA-LVVJ fallback per recording, measured when the floors
  // were set (GCC 12, -O1 with assertions; support/floors.hpp). The close-range take (arms
  // and a noisy, largely inferred lower body) and the CMU locomotion example (a walk, 120 Hz
  // BVH): in no row of the defaults checked (the laban gestures this case tracked before issue
  // 51 are where the learned-W default was chosen).
  const std::pair<const char*, double> kCases[] = {{"kinect/laban_kinectreader_joints_closerange_kinect2.csv", 0.941201},
                                                   {"bvh/cmu_skeleton31_deepmotionediting_example.bvh", 0.970895}};
  std::vector<std::string> tracked;
  for (const auto& entry : kCases) tracked.push_back(entry.first);
  CHECK(requireHeldOut(kCheckedDefaults, tracked) == 0);
  for (const auto& [file, measured] : kCases) {
    CAPTURE(file);
    const std::string path = file;
    const SkeletonMotion<double> motion = path.rfind("bvh/", 0) == 0 ? bvh(data, file + 4) : kinect(data, file + 7);
    GaLvvjMapper<double> ga_lvvj(nao, naoGaLvvjMap());
    const std::vector<double> ga = cosines(nao, motion, mapMotion(ga_lvvj, motion).q);
    JointSpaceParticleFilter<double> joint(nao, naoVirtualSkeletonMap(), ParticleFilterOptions{});
    const std::vector<double> pf = cosines(nao, motion, mapMotion(joint, motion).q);
    GpdmParticleFilter<double> plain(nao, map, options());
    const MappedMotion<double> plain_out = mapMotion(plain, motion);
    const std::vector<double> gpdm = cosines(nao, motion, plain_out.q);
    GpdmParticleFilter<double> rescued(nao, map, options(GpdmFallback::kGaLvvj));
    const std::vector<double> fallback = cosines(nao, motion, mapMotion(rescued, motion).q);
    // Confusion of the flag against "more than 0.05 below GA-LVVJ".
    int behind_flagged = 0, behind_missed = 0, fine_flagged = 0, fine = 0;
    for (std::size_t k = 0; k < motion.size(); ++k) {
      const bool behind = gpdm[k] < ga[k] - 0.05;
      const bool flagged = plain_out.status[k].has(StatusCode::kNotConverged);
      behind_flagged += behind && flagged;
      behind_missed += behind && !flagged;
      fine_flagged += !behind && flagged;
      fine += !behind && !flagged;
    }
    MESSAGE(path << " (" << motion.size() << " frames): behind GA-LVVJ by > 0.05 and flagged " << behind_flagged
                 << ", behind and not flagged " << behind_missed << ", flagged not behind " << fine_flagged
                 << ", neither " << fine << "; mean cosine GA-LVVJ " << mean(ga) << ", pf 200 " << mean(pf)
                 << ", gpdm-pf " << mean(gpdm) << ", gpdm-pf + fallback " << mean(fallback));
    CHECK(behind_missed == 0);
    CHECK(mean(fallback) >= mean(pf) - 0.02);
    RETARGET_CHECK_FLOOR(mean(fallback), measured);
  }
}

TEST_CASE("gpdm-pf held out: the second half of the take that trained it, and a walk of another take at 30 and 120 Hz") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const auto nao = makeNao<double>();
  {
    // The close-range take (371 frames at 30 Hz; model of every 2nd frame of its first half).
    const char* const file = "laban_kinectreader_joints_closerange_kinect2.csv";
    CHECK(requireHeldOut(kCheckedDefaults, {std::string("kinect/") + file}) == 0);
    const SkeletonMotion<double> take = kinect(data, file);
    const std::size_t half = take.size() / 2;
    const GpdmFilterMap map = learn(nao, {slice(take, 0, half)}, 2);
    const SkeletonMotion<double> second = slice(take, half, take.size());
    // The mean over seeds 1-5: one seed's cosine moves by about 0.01 when GA-LVVJ's training
    // angles change at the rounding level (1e-14 rad: 0.971 -> 0.960 for seed 1 when the
    // written-out Cholesky replaced Eigen's), as the walks' below do.
    constexpr int kSeeds = 5;
    double cosine = 0.0;
    for (int seed = 1; seed <= kSeeds; ++seed) {
      GpdmParticleFilterOptions o = options();
      o.seed = static_cast<std::uint64_t>(seed);
      GpdmParticleFilter<double> filter(nao, map, o);
      const MappedMotion<double> out = mapMotion(filter, second);
      const double seed_cosine = mean(cosines(nao, second, out.q));
      const int flagged = out.frames(StatusCode::kNotConverged);
      MESSAGE(std::string(file) << ", trained on the first half, seed " << seed << ": second half cosine " << seed_cosine
                                << ", flagged " << flagged << " of " << second.size());
      CHECK(flagged <= static_cast<int>(second.size()) / 5);
      cosine += seed_cosine / kSeeds;
    }
    MESSAGE(std::string(file) << ": mean second half cosine over " << kSeeds << " seeds " << cosine);
    // Measured with Eigen's LLT in GA-LVVJ's solves, before the change above (seeds 1-5: 0.971,
    // 0.962, 0.954, 0.968, 0.958; the floor was seed 1's 0.971 until then, the best of the five).
    RETARGET_CHECK_FLOOR(cosine, 0.962594);
  }
  const auto walk = [&](const char* file) { return bvh(data, file); };
  // Models of the two Xia walks (tuning data: they only train) track the CMU locomotion example
  // (same 31-joint skeleton, another take and person, 278 frames at 120 Hz).
  const char* const tracked_file = "cmu_skeleton31_deepmotionediting_example.bvh";
  CHECK(requireHeldOut(kCheckedDefaults, {std::string("bvh/") + tracked_file}) == 0);
  const SkeletonMotion<double> tracked = walk(tracked_file);
  const SkeletonMotion<double> neutral = walk("xia_cmu_skeleton31_neutral_walk_01_000.bvh");
  const SkeletonMotion<double> strutting = walk("xia_cmu_skeleton31_strutting_walk_01_000.bvh");
  struct Direction {
    const char* name;
    const SkeletonMotion<double>* train;
    double measured;  // GPDM-PF mean cosine at 120 Hz, seed 1, when the floor was set
  };
  constexpr int kSeeds = 3;
  for (const Direction& d : {Direction{"neutral -> cmu example", &neutral, 0.942145},
                             Direction{"strutting -> cmu example", &strutting, 0.925862}}) {
    CAPTURE(d.name);
    const GpdmFilterMap map = learn(nao, {*d.train}, 4);  // 120 Hz BVH, trained at 30 Hz
    // Tracking error 1 - cosine at 120 and 30 Hz, each a mean over seeds 1-3: one seed's figure
    // moves by several per cent when GA-LVVJ's training angles change at the rounding level.
    std::array<double, 2> error{};
    for (std::size_t rate = 0; rate < 2; ++rate) {
      const std::size_t every = rate == 0 ? 1 : 4;
      const SkeletonMotion<double> test = slice(tracked, 0, tracked.size(), every);
      for (int seed = 1; seed <= kSeeds; ++seed) {
        GpdmParticleFilterOptions o = options();
        o.seed = static_cast<std::uint64_t>(seed);
        GpdmParticleFilter<double> filter(nao, map, o);
        const MappedMotion<double> out = mapMotion(filter, test);
        const double cosine = mean(cosines(nao, test, out.q));
        MESSAGE(std::string(d.name) << " at " << 120 / every << " Hz, seed " << seed << ": gpdm-pf cosine " << cosine << ", flagged "
                       << out.frames(StatusCode::kNotConverged) << " of " << test.size());
        error[rate] += (1 - cosine) / kSeeds;
        if (every == 1 && seed == 1) RETARGET_CHECK_FLOOR(cosine, d.measured);
      }
    }
    MESSAGE(std::string(d.name) << ": mean tracking error over " << kSeeds << " seeds at 120 Hz " << error[0] << ", at 30 Hz " << error[1]);
    // The same motion at four times the training rate tracks at least as well as at the training
    // rate (error within 10 % or below): the frame period scales the latent step and its noise.
    // One-sided on purpose, from the spread over seeds 1-10 (GCC 12, -O1 with assertions):
    // neutral -> cmu example, error 120 Hz 0.0573 (cosine SD 0.002 over seeds), 30 Hz 0.0575
    // (SD 0.001), ratio 0.996; strutting -> cmu example, 120 Hz 0.0739 (SD 0.004), 30 Hz 0.0915
    // (SD 0.013: short 70-frame runs in which some seeds lose the walk), ratio 0.807, i.e. the
    // 30 Hz error is 19 % higher, four standard errors of the 10-seed means. A two-sided 10 %
    // would state something false about the training rate; what is claimed is the higher rate.
    // The 10 % margin is four standard errors of the 3-seed ratio on the neutral model (2.3 %).
    CHECK(error[0] <= 1.1 * error[1]);
  }
}

TEST_CASE("gpdm-pf: the re-location and motion-noise defaults, chosen on tuning cases") {
  // Tuning cases: the wave-hand take's second half with a model of its first half, and the
  // neutral walk with a model of the strutting one (mean cosine over seeds 1-3). They are the
  // row of these defaults in tests/tuning_split.md (asserted below), so no held-out case above
  // tracks them. The full sweep (docs/methods/particle_filter.md) also varied the re-location
  // threshold (0.8-0.95: within 0.002) and fraction.
  RETARGET_REQUIRE_TEST_DATA(data);
  const std::vector<std::string> row = tunedOn("gpdm_pf_relocation_defaults");
  for (const char* file : {"kinect/laban_ges01_wavehand_kinect2.csv", "bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh",
                           "bvh/xia_cmu_skeleton31_strutting_walk_01_000.bvh"}) {
    CAPTURE(file);
    CHECK(std::find(row.begin(), row.end(), file) != row.end());
  }
  const auto nao = makeNao<double>();
  const SkeletonMotion<double> wave = kinect(data, "laban_ges01_wavehand_kinect2.csv");
  const std::size_t half = wave.size() / 2;
  const GpdmFilterMap half_map = learn(nao, {slice(wave, 0, half)}, 1);
  const SkeletonMotion<double> second = slice(wave, half, wave.size());
  const auto walk = [&](const char* file) { return bvhToSkeleton(readBvh((data / "bvh" / file).string())); };
  const SkeletonMotion<double> neutral = walk("xia_cmu_skeleton31_neutral_walk_01_000.bvh");
  const GpdmFilterMap strut_map = learn(nao, {walk("xia_cmu_skeleton31_strutting_walk_01_000.bvh")}, 4);
  const auto tune = [&](const GpdmParticleFilterOptions& o) {
    double sum = 0;
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      GpdmParticleFilterOptions s = o;
      s.seed = seed;
      GpdmParticleFilter<double> a(nao, half_map, s), b(nao, strut_map, s);
      sum += (mean(cosines(nao, second, mapMotion(a, second).q)) + mean(cosines(nao, neutral, mapMotion(b, neutral).q))) / 6;
    }
    return sum;
  };
  const double ours = tune(options());
  GpdmParticleFilterOptions paper = options();
  paper.relocation = GpdmRelocation::kReplaceWindow;
  const double replaced = tune(paper);
  GpdmParticleFilterOptions low = options(), high = options();
  low.min_noise = 0.02;
  high.min_noise = 0.1;
  const double low_noise = tune(low), high_noise = tune(high);
  MESSAGE("tuning cosine: moving 20 % of the particles " << ours << ", the paper's window replacement " << replaced
          << "; min_noise 0.02 / 0.05 / 0.1: " << low_noise << " / " << ours << " / " << high_noise);
  // Seed 003's replacement of the window throws the whole cloud onto the matched phase and loses
  // the observation's own evidence; moving a fraction keeps both.
  CHECK(replaced < ours - 0.02);
  // The model's own predictive spread dominates the motion noise: its floor hardly matters.
  CHECK(std::abs(low_noise - ours) < 0.002);
  CHECK(std::abs(high_noise - ours) < 0.002);
}
