// Capsule-capsule and sphere-capsule signed distance: retarget vs FCL 0.7 (fcl::distance on
// preconstructed CollisionObjects), on the same seeded random pairs. Each iteration evaluates one
// pair, cycling through 1024 pairs.
//  - BM_Geometry_CapsuleCapsule / SphereCapsule: retarget::distance, with witness points and
//    normal, vs FCL with nearest points enabled (the ...Fcl rows).
//  - BM_Geometry_CapsuleCapsuleDistanceOnly / SphereCapsuleDistanceOnly: retarget::signedDistance
//    (the value only, equal to distance(A, B).distance) vs FCL with nearest points disabled.
//  - BM_Geometry_CapsuleCapsuleAllCandidates: the segment-segment method used before issue 30 for
//    every pair (stationary point and all four edges, now kept for near-parallel pairs), with the
//    same witness-point step, as the before/after row.
#include <benchmark/benchmark.h>

#include <memory>
#include <random>
#include <vector>

#include <fcl/narrowphase/distance.h>
#include <fcl/geometry/shape/capsule.h>
#include <fcl/geometry/shape/sphere.h>

#include <retarget/geometry/distance.hpp>

namespace {

using retarget::Capsuled;
using retarget::Sphered;
using V3 = Eigen::Vector3d;

constexpr std::size_t kPairs = 1024;

struct Pairs {
  std::vector<Capsuled> a, b;
  std::vector<Sphered> s;
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> fcl_a, fcl_b, fcl_s;

  Pairs() {
    std::mt19937 rng(2026);
    std::uniform_real_distribution<double> u(-1.0, 1.0), radius(0.02, 0.2);
    auto capsule = [&] {
      const V3 centre(u(rng), u(rng), u(rng));
      const V3 half = 0.25 * V3(u(rng), u(rng), u(rng));
      return Capsuled{centre - half, centre + half, radius(rng)};
    };
    for (std::size_t i = 0; i < kPairs; ++i) {
      a.push_back(capsule());
      b.push_back(capsule());
      s.push_back(Sphered{V3(u(rng), u(rng), u(rng)), radius(rng)});
      fcl_a.push_back(toFcl(a.back()));
      fcl_b.push_back(toFcl(b.back()));
      fcl::Transform3d X = fcl::Transform3d::Identity();
      X.translation() = s.back().center;
      fcl_s.push_back(std::make_unique<fcl::CollisionObjectd>(std::make_shared<fcl::Sphered>(s.back().radius), X));
    }
  }

  // FCL's capsule is centred at its frame origin along local z.
  static std::unique_ptr<fcl::CollisionObjectd> toFcl(const Capsuled& c) {
    fcl::Transform3d X = fcl::Transform3d::Identity();
    X.translation() = 0.5 * (c.a + c.b);
    X.linear() = Eigen::Quaterniond::FromTwoVectors(V3::UnitZ(), c.b - c.a).toRotationMatrix();
    return std::make_unique<fcl::CollisionObjectd>(std::make_shared<fcl::Capsuled>(c.radius, c.length()), X);
  }
};

const Pairs& pairs() {
  static const Pairs instance;
  return instance;
}

void BM_Geometry_CapsuleCapsule(benchmark::State& state) {
  const Pairs& p = pairs();
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = retarget::distance(p.a[i], p.b[i]);
    benchmark::DoNotOptimize(r);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_CapsuleCapsule);

void BM_Geometry_CapsuleCapsuleFcl(benchmark::State& state) {
  const Pairs& p = pairs();
  fcl::DistanceRequestd request;
  request.enable_nearest_points = true;
  std::size_t i = 0;
  for (auto _ : state) {
    fcl::DistanceResultd result;
    fcl::distance(p.fcl_a[i].get(), p.fcl_b[i].get(), request, result);
    benchmark::DoNotOptimize(result.min_distance);
    benchmark::DoNotOptimize(result.nearest_points);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_CapsuleCapsuleFcl);

void BM_Geometry_SphereCapsule(benchmark::State& state) {
  const Pairs& p = pairs();
  std::size_t i = 0;
  for (auto _ : state) {
    auto r = retarget::distance(p.s[i], p.b[i]);
    benchmark::DoNotOptimize(r);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_SphereCapsule);

void BM_Geometry_SphereCapsuleFcl(benchmark::State& state) {
  const Pairs& p = pairs();
  fcl::DistanceRequestd request;
  request.enable_nearest_points = true;
  std::size_t i = 0;
  for (auto _ : state) {
    fcl::DistanceResultd result;
    fcl::distance(p.fcl_s[i].get(), p.fcl_b[i].get(), request, result);
    benchmark::DoNotOptimize(result.min_distance);
    benchmark::DoNotOptimize(result.nearest_points);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_SphereCapsuleFcl);

void BM_Geometry_CapsuleCapsuleDistanceOnly(benchmark::State& state) {
  const Pairs& p = pairs();
  std::size_t i = 0;
  for (auto _ : state) {
    double d = retarget::signedDistance(p.a[i], p.b[i]);
    benchmark::DoNotOptimize(d);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_CapsuleCapsuleDistanceOnly);

void BM_Geometry_CapsuleCapsuleDistanceOnlyFcl(benchmark::State& state) {
  const Pairs& p = pairs();
  fcl::DistanceRequestd request;
  request.enable_nearest_points = false;
  std::size_t i = 0;
  for (auto _ : state) {
    fcl::DistanceResultd result;
    fcl::distance(p.fcl_a[i].get(), p.fcl_b[i].get(), request, result);
    benchmark::DoNotOptimize(result.min_distance);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_CapsuleCapsuleDistanceOnlyFcl);

void BM_Geometry_SphereCapsuleDistanceOnly(benchmark::State& state) {
  const Pairs& p = pairs();
  std::size_t i = 0;
  for (auto _ : state) {
    double d = retarget::signedDistance(p.s[i], p.b[i]);
    benchmark::DoNotOptimize(d);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_SphereCapsuleDistanceOnly);

void BM_Geometry_SphereCapsuleDistanceOnlyFcl(benchmark::State& state) {
  const Pairs& p = pairs();
  fcl::DistanceRequestd request;
  request.enable_nearest_points = false;
  std::size_t i = 0;
  for (auto _ : state) {
    fcl::DistanceResultd result;
    fcl::distance(p.fcl_s[i].get(), p.fcl_b[i].get(), request, result);
    benchmark::DoNotOptimize(result.min_distance);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_SphereCapsuleDistanceOnlyFcl);

void BM_Geometry_CapsuleCapsuleAllCandidates(benchmark::State& state) {
  const Pairs& p = pairs();
  std::size_t i = 0;
  for (auto _ : state) {
    const Capsuled& A = p.a[i];
    const Capsuled& B = p.b[i];
    const auto q = retarget::internal::closestPointsSegmentSegmentByCandidates(A.a, A.b, B.a, B.b);
    auto r = retarget::internal::distanceFromCentres(q.c_1, A.radius, A.a, A.b, q.c_2, B.radius, B.a, B.b);
    benchmark::DoNotOptimize(r);
    i = (i + 1) % kPairs;
  }
}
BENCHMARK(BM_Geometry_CapsuleCapsuleAllCandidates);

}  // namespace
