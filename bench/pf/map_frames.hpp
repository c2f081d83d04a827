#pragma once

// The timing loop of the particle-filter benchmarks: `mapper` maps `frames` in order,
// cyclically, one frame per iteration.
#include <cstddef>
#include <vector>

#include <benchmark/benchmark.h>

#include <retarget/human/skeleton.hpp>

namespace retarget::bench {

template <typename Mapper>
void mapFramesCyclically(benchmark::State& state, Mapper& mapper, const std::vector<SkeletonFramed>& frames) {
  Eigen::VectorXd q(mapper.model().nq());
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(frames[k], q));
    benchmark::DoNotOptimize(q.data());
    k = (k + 1) % frames.size();
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace retarget::bench
