// GPDM particle filter (seed 003, Sections 6-7) against the joint-space particle filter
// (Section 3) on one motion, in one binary: cost per frame and tracking error against the
// particle count (the paper's claim: the learned 3-D state space needs far fewer particles).
//
// Motion model: a GPDM trained (150 L-BFGS iterations) on the demo wave at 10 Hz mapped by
// GA-LVVJ. Tracked motion: the same wave at 30 Hz by a 1.70 m body (181 frames, none of them a
// training frame), seen through NAO's virtual skeleton, so its joint angles are known.
//   BM_Wave_JointPf/particles:N   25-D joint-space filter
//   BM_Wave_GpdmPf/particles:N    GPDM-PF, 3-D latent space
// Counter rms_rad: RMS joint error (rad) over the 17 coordinates the joint-space filter
// observes, frames 15..180 of one fresh pass with seed 1 (measured after the timing loop).
// The ratio to read: time of BM_Wave_JointPf at the particle count whose rms_rad the GPDM-PF
// reaches, over the GPDM-PF's time.
#include <benchmark/benchmark.h>

#include <cmath>
#include <vector>

#include <retarget/human/demo_motions.hpp>
#include <retarget/learning/gpdm_training.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "pf/map_frames.hpp"

namespace {

using namespace retarget;

struct WaveFixture {
  RobotModel<double> nao = makeNao<double>();
  GpdmModel model;
  Eigen::MatrixXd q;  // truth, frames x nq
  std::vector<SkeletonFramed> frames;
  std::vector<int> observed;

  WaveFixture() {
    GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
    GpdmTrainingOptions training;
    training.max_iterations = 150;
    model = trainGpdm({mapMotion(mapper, demoMotion("wave", DemoMotionOptions{10.0, 6.0, 1.75})).q}, training);
    mapper.reset();
    q = mapMotion(mapper, demoMotion("wave", DemoMotionOptions{30.0, 6.0, 1.70})).q;
    VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
    for (Eigen::Index t = 0; t < q.rows(); ++t) {
      SkeletonFramed frame;
      (void)skeleton.compute(q.row(t).transpose(), frame);
      frame.time = static_cast<double>(t) / 30.0;
      frames.push_back(frame);
    }
    observed = JointSpaceParticleFilter<double>(nao, naoVirtualSkeletonMap()).estimated();
  }
};

const WaveFixture& wave() {
  static const WaveFixture f;
  return f;
}

// RMS error of one fresh pass (see the file comment).
template <typename Mapper>
double trackingError(Mapper& mapper) {
  const WaveFixture& f = wave();
  mapper.reset();
  Eigen::VectorXd q(f.nao.nq());
  double squared = 0;
  int samples = 0;
  for (std::size_t t = 0; t < f.frames.size(); ++t) {
    (void)mapper.map(f.frames[t], q);
    if (t < 15) continue;
    for (int i : f.observed) {
      squared += (q[i] - f.q(static_cast<Eigen::Index>(t), i)) * (q[i] - f.q(static_cast<Eigen::Index>(t), i));
      ++samples;
    }
  }
  return std::sqrt(squared / samples);
}

template <typename Mapper>
void run(benchmark::State& state, Mapper& mapper) {
  bench::mapFramesCyclically(state, mapper, wave().frames);
  state.counters["rms_rad"] = trackingError(mapper);
}

void BM_Wave_JointPf(benchmark::State& state) {
  ParticleFilterOptions options;
  options.particles = static_cast<int>(state.range(0));
  JointSpaceParticleFilter<double> filter(wave().nao, naoVirtualSkeletonMap(), options);
  run(state, filter);
}
BENCHMARK(BM_Wave_JointPf)->ArgName("particles")->Arg(50)->Arg(200)->Arg(800)->Unit(benchmark::kMicrosecond);

void BM_Wave_GpdmPf(benchmark::State& state) {
  GpdmParticleFilterOptions options;
  options.particles = static_cast<int>(state.range(0));
  GpdmFilterMap map;
  map.motion_model = wave().model;
  GpdmParticleFilter<double> filter(wave().nao, map, options);
  run(state, filter);
}
BENCHMARK(BM_Wave_GpdmPf)->ArgName("particles")->Arg(5)->Arg(10)->Arg(20)->Arg(40)->Unit(benchmark::kMicrosecond);

}  // namespace
