// Self-collision avoidance on Tangy (seed 001): per-frame solve of the colliding frames of the
// fold-arms demo motion (triangle mapping), SLSQP with analytic distance gradients (the default)
// beside COBYLA (derivative-free, the paper's solver) in the same binary, each from a cold start
// (q_mimic) so that both solve the same problems; and the whole per-frame path (triangle map +
// avoidance + joint-velocity and hand-speed limits, in a row or as the safety pipeline).
//   BM_Safety_AvoidFrame/0 (slsqp), /1 (cobyla)   counters over one pass of the colliding
//                                       frames: evals (mean NLopt evaluations per frame),
//                                       objective (mean e = |q - q_mimic|^2, rad^2);
//                                       median_us / worst_us (per-frame wall time)
//   BM_Safety_WholePath/0 (stages in a row), /1 (SafetyPipeline)   per frame of the motion:
//                                       median_us / worst_us, collision_frames_per_pass, objective
//   BM_Safety_CheckFrame                 collision check of one frame (42 pairs)
//   BM_Triangle_MapFrame                 the triangle mapper alone, both arms
// The ratio to read: median_us(cobyla) / median_us(slsqp), at objective(slsqp) <= objective(cobyla).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include <retarget/robots/tangy.hpp>

#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/safety/collision_avoidance.hpp>
#include <retarget/safety/safety_pipeline.hpp>

namespace {

using namespace retarget;
using Clock = std::chrono::steady_clock;

struct Fixture {
  RobotModel<double> tangy = makeTangy<double>();
  SkeletonMotion<double> motion = demoMotion("fold-arms");
  SelfCollisionModel<double> collision{tangy, tangySelfCollisionOptions()};
  std::vector<Eigen::VectorXd> colliding;  // q_mimic of the frames that need avoidance

  Fixture() {
    TriangleMapper<double> mapper(tangy, tangyTriangleMap());
    SelfCollisionChecker<double> checker(collision);
    Eigen::VectorXd q(tangy.nq());
    for (const auto& frame : motion.frames) {
      (void)mapper.map(frame, q);
      checker.update(q);
      if (checker.minDistance() < collision.margin()) colliding.push_back(q);
    }
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

void BM_Safety_AvoidFrame(benchmark::State& state) {
  const Fixture& f = fixture();
  AvoidanceOptions options;
  options.solver = state.range(0) == 0 ? AvoidanceOptions::Solver::kSlsqp : AvoidanceOptions::Solver::kCobyla;
  CollisionAvoidance avoidance(f.collision, options);
  Eigen::VectorXd q(f.tangy.nq());
  // Evaluations and objective over exactly one pass of the colliding frames (deterministic),
  // so that both solvers are compared on the same problems; times from the benchmark loop.
  double evals = 0, objective = 0;
  for (const Eigen::VectorXd& q_mimic : f.colliding) {
    avoidance.reset();
    (void)avoidance.apply(q_mimic, q);
    evals += avoidance.stats().evaluations;
    objective += avoidance.stats().objective;
  }
  const auto frames = static_cast<double>(f.colliding.size());
  std::size_t k = 0;
  std::vector<double> times;
  for (auto _ : state) {
    const Eigen::VectorXd& q_mimic = f.colliding[k];
    k = (k + 1) % f.colliding.size();
    avoidance.reset();  // cold start from q_mimic: both solvers solve the same problem
    const auto t0 = Clock::now();
    const Status status = avoidance.apply(q_mimic, q);
    times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    benchmark::DoNotOptimize(status);
    benchmark::DoNotOptimize(q.data());
  }
  state.SetLabel(toString(options.solver));
  state.counters["evals"] = evals / frames;
  state.counters["objective"] = objective / frames;
  state.counters["median_us"] = median(times);
  state.counters["worst_us"] = *std::max_element(times.begin(), times.end());
  state.counters["frames"] = static_cast<double>(f.colliding.size());
}
BENCHMARK(BM_Safety_AvoidFrame)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

// The whole per-frame path at the seed's real-robot settings (1 rad/s, 0.25 m/s), two ways:
// /0 the stages one after another (avoidance, then the speed limiter: what `retarget map` ran
// before the safety pipeline; the limiter can move the arms back into collision), /1 the
// SafetyPipeline (the avoidance program keeps the speed limits). Counters over one pass of the
// motion: median_us / worst_us per frame, collision_frames (written output, some pair closer
// than its radii), objective (mean |q_out - q_mimic|^2, rad^2).
void BM_Safety_WholePath(benchmark::State& state) {
  const Fixture& f = fixture();
  const bool pipelined = state.range(0) == 1;
  TriangleMapper<double> mapper(f.tangy, tangyTriangleMap());
  CollisionAvoidance avoidance(f.collision);
  CartesianSpeedLimiterOptions speed;
  speed.max_speed = 0.25;
  speed.max_joint_speed = 1.0;
  speed.points = triangleArmPoints(f.tangy, tangyTriangleMap());
  CartesianSpeedLimiter<double> limiter(f.tangy, speed);
  SafetyPipelineOptions options;
  options.max_joint_speed = speed.max_joint_speed;
  options.max_point_speed = speed.max_speed;
  options.points = speed.points;
  SafetyPipeline pipeline(f.collision, options);
  SelfCollisionChecker<double> checker(f.collision);
  Eigen::VectorXd q_mimic(f.tangy.nq()), q(f.tangy.nq());
  const double dt = 1.0 / f.motion.frame_rate;
  std::vector<double> times;
  std::size_t k = 0;
  int collision_frames = 0, frames = 0;
  double objective = 0;
  for (auto _ : state) {
    if (k == 0) {
      mapper.reset();
      avoidance.reset();
      limiter.reset();
      pipeline.reset();
    }
    const auto t0 = Clock::now();
    (void)mapper.map(f.motion.frames[k], q_mimic);
    if (pipelined) {
      (void)pipeline.update(q_mimic, dt, q);
    } else {
      (void)avoidance.apply(q_mimic, q);
      (void)limiter.update(q, dt);
      q = limiter.value();
    }
    times.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
    benchmark::DoNotOptimize(q.data());
    state.PauseTiming();
    checker.update(q);
    collision_frames += checker.minDistance() < 0 ? 1 : 0;
    objective += (q - q_mimic).squaredNorm();
    ++frames;
    state.ResumeTiming();
    k = (k + 1) % f.motion.frames.size();
  }
  state.counters["median_us"] = median(times);
  state.counters["worst_us"] = *std::max_element(times.begin(), times.end());
  state.counters["frames"] = static_cast<double>(f.motion.frames.size());
  state.counters["collision_frames_per_pass"] =
      static_cast<double>(collision_frames) * static_cast<double>(f.motion.frames.size()) / std::max(1, frames);
  state.counters["objective"] = objective / std::max(1, frames);
}
BENCHMARK(BM_Safety_WholePath)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

void BM_Safety_CheckFrame(benchmark::State& state) {
  const Fixture& f = fixture();
  SelfCollisionChecker<double> checker(f.collision);
  std::size_t k = 0;
  for (auto _ : state) {
    checker.update(f.colliding[k]);
    benchmark::DoNotOptimize(checker.minDistance());
    k = (k + 1) % f.colliding.size();
  }
  state.counters["pairs"] = static_cast<double>(f.collision.pairs().size());
}
BENCHMARK(BM_Safety_CheckFrame);

}  // namespace

namespace {

// The triangle mapper alone (both arms) on the fold-arms frames.
void BM_Triangle_MapFrame(benchmark::State& state) {
  const Fixture& f = fixture();
  TriangleMapper<double> mapper(f.tangy, tangyTriangleMap());
  Eigen::VectorXd q(f.tangy.nq());
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(f.motion.frames[k], q));
    benchmark::DoNotOptimize(q.data());
    k = (k + 1) % f.motion.frames.size();
  }
}
BENCHMARK(BM_Triangle_MapFrame);

}  // namespace
