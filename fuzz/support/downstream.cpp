// Downstream checks of the fuzz targets (see fuzz_support.hpp), compiled once for all of them.
#include "fuzz_support.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>

namespace retarget::fuzz {

void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "retarget fuzz: %s: %s\n", what, detail.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

namespace {

constexpr std::size_t kMaxMappedFrames = 64;

// q is finite and within the model's limits; traps otherwise.
void checkOutput(const RobotModel<double>& model, const Eigen::VectorXd& q, Status status, const char* mapper,
                 std::size_t frame) {
  if (status.has(StatusCode::kInvalidInput)) fail(mapper, "kInvalidInput on frame " + std::to_string(frame));
  for (int i = 0; i < model.nq(); ++i) {
    if (!std::isfinite(q[i]) || q[i] < model.lowerLimits()[i] || q[i] > model.upperLimits()[i]) {
      fail(mapper, "frame " + std::to_string(frame) + ": " + model.qName(i) + " = " + std::to_string(q[i]) +
                       " is not finite or outside [" + std::to_string(model.lowerLimits()[i]) + ", " +
                       std::to_string(model.upperLimits()[i]) + "]");
    }
  }
}

}  // namespace

void checkGaLvvj(const SkeletonMotion<double>& motion) {
  static const RobotModel<double> nao = makeNao<double>();
  static GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  static GaLvvjMapper<double> from_knees = [] {
    GaLvvjOptions options;
    options.hip_yaw_pitch_mode = GaLvvjOptions::HipYawPitchMode::kFromKnees;
    return GaLvvjMapper<double>(nao, naoGaLvvjMap(), options);
  }();
  Eigen::VectorXd q(nao.nq());
  for (GaLvvjMapper<double>* m : {&mapper, &from_knees}) {
    m->reset();
    const std::size_t n = std::min(motion.frames.size(), kMaxMappedFrames);
    for (std::size_t f = 0; f < n; ++f) {
      const Status status = m->map(motion.frames[f], q);
      checkOutput(nao, q, status, "GA-LVVJ (NAO)", f);
    }
  }
}

void checkBvh(const BvhMotion& motion) {
  expectRetargetErrorsOnly("<bvh>", [&] {
    SkeletonMotion<double> skeleton = bvhToSkeleton(motion);
    checkGaLvvj(skeleton);
  });
  static const RobotModel<double> inmoov = makeInMoov<double>();
  expectRetargetErrorsOnly("<bvh>", [&] {
    const EulerMap map = inmoovEulerMap(motion);
    EulerMapper<double> mapper(inmoov, motion, map);
    Eigen::VectorXd q(inmoov.nq());
    const auto n = std::min(static_cast<std::size_t>(motion.frame_count), kMaxMappedFrames);
    for (std::size_t f = 0; f < n; ++f) {
      const Status status = mapper.map(motion.frameValues(static_cast<int>(f)), q);
      checkOutput(inmoov, q, status, "Euler (InMoov)", f);
    }
  });
}

void checkGaLvvjConfig(const GaLvvjMap* map, const GaLvvjOptions* options) {
  static const RobotModel<double> nao = makeNao<double>();
  static const SkeletonMotion<double> wave = [] {
    DemoMotionOptions demo;
    demo.rate = 10;
    return demoMotion("wave", demo);
  }();
  expectRetargetErrorsOnly("<json>", [&] {
    GaLvvjMapper<double> mapper(nao, map != nullptr ? *map : naoGaLvvjMap(), options != nullptr ? *options : GaLvvjOptions{});
    Eigen::VectorXd q(nao.nq());
    const std::size_t n = std::min(wave.frames.size(), kMaxMappedFrames);
    for (std::size_t f = 0; f < n; ++f) checkOutput(nao, q, mapper.map(wave.frames[f], q), "GA-LVVJ (NAO, JSON config)", f);
  });
}

}  // namespace retarget::fuzz
