// Joint-space particle filter (seed 003, Section 3) per frame against the particle count, with
// GA-LVVJ (seed 000, analytic) on the same frames in the same binary.
//
// Input: a smooth 30 Hz NAO trajectory (300 frames) starting at the neutral configuration,
// every coordinate swinging by up to 0.8 rad into its range, seen through the robot's virtual
// skeleton (the test trajectory of tests/pf). The frames are mapped in order, cyclically.
//   BM_Pf_MapFrame/particles:N       25-D filter (17 coordinates observed), N particles
//   BM_Pf_MapFrameArms/particles:N   the paper's 12-D arms-only filter (8 observed)
//   BM_GaLvvj_MapFrame               GA-LVVJ whole body on the same frames
// The ratio to read: BM_Pf_MapFrame/particles:N / BM_GaLvvj_MapFrame.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "pf/map_frames.hpp"

namespace {

using namespace retarget;

struct Fixture {
  RobotModel<double> nao = makeNao<double>();
  std::vector<SkeletonFramed> frames;

  Fixture() {
    VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
    const Eigen::VectorXd rest = nao.neutralConfiguration();
    for (int k = 0; k < 300; ++k) {
      const double t = k / 30.0;
      Eigen::VectorXd q = rest;
      for (int i = 0; i < nao.nq(); ++i) {
        const double up = nao.upperLimits()[i] - rest[i], down = rest[i] - nao.lowerLimits()[i];
        const double amplitude = std::min(0.8, 0.8 * std::max(up, down));
        const double period = 2.5 + 0.2 * (i % 10);
        q[i] = rest[i] + (up >= down ? 1.0 : -1.0) * amplitude * 0.5 * (1.0 - std::cos(2.0 * kPi<double> * t / period));
      }
      SkeletonFramed frame;
      (void)skeleton.compute(q, frame);
      frame.time = t;
      frames.push_back(frame);
    }
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

template <typename Mapper>
void mapFrames(benchmark::State& state, Mapper& mapper) {
  bench::mapFramesCyclically(state, mapper, fixture().frames);
}

void BM_Pf_MapFrame(benchmark::State& state) {
  ParticleFilterOptions options;
  options.particles = static_cast<int>(state.range(0));
  JointSpaceParticleFilter<double> filter(fixture().nao, naoVirtualSkeletonMap(), options);
  mapFrames(state, filter);
}
BENCHMARK(BM_Pf_MapFrame)->ArgName("particles")->Arg(50)->Arg(200)->Arg(800)->Unit(benchmark::kMicrosecond);

void BM_Pf_MapFrameArms(benchmark::State& state) {
  ParticleFilterOptions options;
  options.particles = static_cast<int>(state.range(0));
  options.joints = naoArmJoints();
  JointSpaceParticleFilter<double> filter(fixture().nao, naoVirtualSkeletonMap(), options);
  mapFrames(state, filter);
}
BENCHMARK(BM_Pf_MapFrameArms)->ArgName("particles")->Arg(50)->Arg(200)->Arg(400)->Arg(800)->Unit(benchmark::kMicrosecond);

void BM_GaLvvj_MapFrame(benchmark::State& state) {
  GaLvvjMapper<double> mapper(fixture().nao, naoGaLvvjMap());
  mapFrames(state, mapper);
}
BENCHMARK(BM_GaLvvj_MapFrame)->Unit(benchmark::kMicrosecond);

}  // namespace
