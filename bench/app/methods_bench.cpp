// The table's type-erased mapper (app/methods.hpp MethodMapper) against the mapper it wraps, in
// one binary, so the ratio comes from one run: one frame of the demo wave through
//   BM_Direct_<method>   the mapper itself (GaLvvjMapper on NAO, TriangleMapper on Tangy)
//   BM_Table_<method>    the same mapper built by app::makeMethodMapper (one virtual call more
//                        per frame, and a copy of the output where the mapper reports no wanted()).
#include <benchmark/benchmark.h>

#include <memory>

#include <retarget/app/methods.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/tangy.hpp>

namespace {

using namespace retarget;

const SkeletonMotiond& wave() {
  static const SkeletonMotiond motion = demoMotion("wave", DemoMotionOptions{30.0, 6.0, 1.75});
  return motion;
}

template <typename Mapper>
void frames(benchmark::State& state, Mapper& mapper, int nq) {
  Eigen::VectorXd q(nq);
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(wave().frames[k], q));
    k = (k + 1) % wave().frames.size();
  }
}

void BM_Direct_GaLvvj(benchmark::State& state) {
  static const RobotModel<double> nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  frames(state, mapper, nao.nq());
}
BENCHMARK(BM_Direct_GaLvvj);

void BM_Table_GaLvvj(benchmark::State& state) {
  static const RobotModel<double> nao = makeNao<double>();
  const std::unique_ptr<app::MethodMapper> mapper = app::makeMethodMapper("ga-lvvj", nao, {});
  frames(state, *mapper, nao.nq());
}
BENCHMARK(BM_Table_GaLvvj);

void BM_Direct_Triangle(benchmark::State& state) {
  static const RobotModel<double> tangy = makeTangy<double>();
  TriangleMapper<double> mapper(tangy, *triangleMapFor(tangy));
  frames(state, mapper, tangy.nq());
}
BENCHMARK(BM_Direct_Triangle);

void BM_Table_Triangle(benchmark::State& state) {
  static const RobotModel<double> tangy = makeTangy<double>();
  const std::unique_ptr<app::MethodMapper> mapper = app::makeMethodMapper("triangle", tangy, {});
  frames(state, *mapper, tangy.nq());
}
BENCHMARK(BM_Table_Triangle);

}  // namespace
