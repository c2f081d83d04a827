// Euler/BVH mapping per frame: a 59-joint Axis Neuron frame (180 channel values) -> the 22
// InMoov joints with the built-in configuration. Ours (streaming values and BvhMotion paths)
// beside a straightforward reference written here from the paper's formulas (joint lookup by
// name, Eigen's eulerAngles, arccos of dot products), so the ratio comes from one run.
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/robots/inmoov.hpp>

namespace {

using namespace retarget;

// The 59-joint Axis Neuron hierarchy (file order, cm, T-pose, rotation channels Y X Z) with
// `frames` frames of random rotations within +-60 deg.
BvhMotion axisNeuronMotion(int frames) {
  const std::vector<BvhChannel> rot = {BvhChannel::kYrotation, BvhChannel::kXrotation, BvhChannel::kZrotation};
  BvhMotion m;
  auto add = [&](const std::string& name, int parent, const Eigen::Vector3d& offset, bool end = false) {
    BvhJoint j;
    j.name = name;
    j.parent = parent;
    j.offset = offset;
    j.is_end_site = end;
    if (!end) j.channels = rot;
    m.joints.push_back(j);
    return static_cast<int>(m.joints.size()) - 1;
  };
  const int hips = add("Hips", -1, {0, 93, 0});
  m.joints[0].channels = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition,
                          BvhChannel::kYrotation, BvhChannel::kXrotation, BvhChannel::kZrotation};
  for (const char* side : {"Right", "Left"}) {
    const double x = std::string(side) == "Right" ? -1 : 1;
    const int up = add(std::string(side) + "UpLeg", hips, {x * 9, 0, 0});
    const int leg = add(std::string(side) + "Leg", up, {0, -44, 0});
    const int foot = add(std::string(side) + "Foot", leg, {0, -44, 0});
    add(std::string(side) + "Foot_End", foot, {0, -5, 12}, true);
  }
  int parent = hips;
  for (const char* s : {"Spine", "Spine1", "Spine2", "Spine3"}) parent = add(s, parent, {0, 10, 0});
  const int spine3 = parent;
  const int neck = add("Neck", spine3, {0, 10, 0});
  const int head = add("Head", neck, {0, 9.5, 0});
  add("Head_End", head, {0, 17, 0}, true);
  for (const char* side : {"Right", "Left"}) {
    const std::string s = side;
    const double x = s == "Right" ? -1 : 1;
    const int shoulder = add(s + "Shoulder", spine3, {x * 3, 8, 0});
    const int arm = add(s + "Arm", shoulder, {x * 12.8, 0, 0});
    const int fore = add(s + "ForeArm", arm, {x * 26.5, 0, 0});
    const int hand = add(s + "Hand", fore, {x * 26, 0, 0});
    int t = hand;
    for (int k = 1; k <= 3; ++k) t = add(s + "HandThumb" + std::to_string(k), t, {x * 3, 0, 3});
    add(s + "HandThumb3_End", t, {x * 2, 0, 0}, true);
    for (const char* finger : {"Index", "Middle", "Ring", "Pinky"}) {
      int f = add(s + "InHand" + finger, hand, {x * 3, 0, 0});
      for (int k = 1; k <= 3; ++k) f = add(s + "Hand" + finger + std::to_string(k), f, {x * 3, 0, 0});
      add(s + "Hand" + finger + "3_End", f, {x * 2, 0, 0}, true);
    }
  }
  m.assignChannelIndices();
  m.frame_time = 0.008;
  m.frame_count = frames;
  std::mt19937 rng(59);
  std::uniform_real_distribution<double> deg(-60, 60);
  m.values.resize(static_cast<std::size_t>(frames) * m.channel_count);
  for (double& v : m.values) v = deg(rng);
  return m;
}

constexpr int kFrames = 512;

void BM_Euler_MapFrameStreaming(benchmark::State& state) {
  const BvhMotion motion = axisNeuronMotion(kFrames);
  const auto model = makeInMoov<double>();
  EulerMapper<double> mapper(model, motion, inmoovAxisNeuronMap());
  Eigen::VectorXd q(model.nq());
  int f = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(motion.frameValues(f), q));
    benchmark::DoNotOptimize(q.data());
    f = (f + 1) % kFrames;
  }
  state.counters["joints_in"] = motion.jointCount();
  state.counters["channels_in"] = motion.channel_count;
  state.counters["joints_out"] = model.nq();
}
BENCHMARK(BM_Euler_MapFrameStreaming);

// The batch helper over a whole recording (allocates its result once per call).
void BM_Euler_MapMotion(benchmark::State& state) {
  const BvhMotion motion = axisNeuronMotion(kFrames);
  const auto model = makeInMoov<double>();
  EulerMapper<double> mapper(model, motion, inmoovAxisNeuronMap());
  for (auto _ : state) {
    const MappedMotion<double> mapped = mapMotion(mapper, motion);
    benchmark::DoNotOptimize(mapped.q.data());
  }
  state.SetItemsProcessed(state.iterations() * kFrames);
}
BENCHMARK(BM_Euler_MapMotion);

void BM_Euler_MapFrameFloat(benchmark::State& state) {
  const BvhMotion motion = axisNeuronMotion(kFrames);
  const auto model = makeInMoov<float>();
  EulerMapper<float> mapper(model, motion, inmoovAxisNeuronMap());
  Eigen::VectorXf q(model.nq());
  int f = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(motion.frameValues(f), q));
    benchmark::DoNotOptimize(q.data());
    f = (f + 1) % kFrames;
  }
}
BENCHMARK(BM_Euler_MapFrameFloat);

// Reference: the paper's steps done the obvious way for every robot joint on every frame:
// look the BVH joint(s) up by name, build the rotation from the channels, decompose with
// Eigen's eulerAngles, arccos of dot products for the 2 -> 1 cases, clamp to the limits.
void referenceMap(const BvhMotion& motion, int f, const EulerMap& config, const RobotModel<double>& model,
                  Eigen::VectorXd& q) {
  for (const EulerJointMapping& m : config.joints) {
    const int qi = model.findQ(m.robot_joint);
    double x = 0;
    if (m.kind == EulerCase::kFingerCurl) {
      for (const std::string& name : m.source) {
        const int j = motion.findJoint(name);
        const Eigen::Vector3d u = motion.joints[static_cast<std::size_t>(j + 1)].offset.normalized();
        const Eigen::Vector3d v = motion.localRotation(f, j) * u;
        x += std::acos(std::clamp(u.dot(v), -1.0, 1.0));
      }
      x /= static_cast<double>(m.source.size());
    } else {
      Eigen::Matrix3d R = Eigen::Matrix3d::Identity();
      for (const std::string& name : m.source) R = R * motion.localRotation(f, motion.findJoint(name)).toRotationMatrix();
      const double angle = m.reference.norm();
      if (angle > 0) R = R * Eigen::AngleAxisd(angle, m.reference / angle).toRotationMatrix().transpose();
      if (m.kind == EulerCase::kEuler) {
        x = R.eulerAngles(m.order.axes[0], m.order.axes[1], m.order.axes[2])[m.angle];
      } else {
        const int last = motion.findJoint(m.source.back());
        const Eigen::Vector3d u = m.kind == EulerCase::kWristRotation
                                      ? m.axis.normalized()
                                      : motion.joints[static_cast<std::size_t>(last + 1)].offset.normalized();
        const double between = std::acos(std::clamp(u.dot(R * u), -1.0, 1.0));
        x = m.kind == EulerCase::kElbowBend ? kPi<double> - between : between;
      }
    }
    q[qi] = std::clamp(m.offset + m.sign * m.scale * x, model.lowerLimits()[qi], model.upperLimits()[qi]);
  }
}

void BM_Euler_MapFrameReference(benchmark::State& state) {
  const BvhMotion motion = axisNeuronMotion(kFrames);
  const auto model = makeInMoov<double>();
  const EulerMap config = inmoovAxisNeuronMap();
  Eigen::VectorXd q = model.neutralConfiguration();
  int f = 0;
  for (auto _ : state) {
    referenceMap(motion, f, config, model, q);
    benchmark::DoNotOptimize(q.data());
    f = (f + 1) % kFrames;
  }
}
BENCHMARK(BM_Euler_MapFrameReference);

}  // namespace
