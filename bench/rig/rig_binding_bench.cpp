// Automatic rig binding (human/rig_binding.hpp) of a 60-joint humanoid hierarchy (Unity-style
// names with fingers, cm, Y up, T-pose), with names and with meaningless names (geometry only),
// beside the built-in schema detection by names on the same hierarchy (which finds nothing and is
// the cost every unknown file already paid), so the ratio comes from one run.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include <retarget/human/rig_binding.hpp>
#include <retarget/io/bvh_skeleton.hpp>

namespace {

using namespace retarget;

// Hips, Spine, Chest, UpperChest, Neck, Head (+ End Site); per side Shoulder, UpperArm, LowerArm,
// Hand, five 3-joint fingers with End Sites, UpperLeg, LowerLeg, Foot, Toes (+ End Site):
// 6 + 2 * (4 + 15 + 4) = 52 joints and 14 End Sites (66 entries, 60 of them with channels or tips).
BvhMotion humanoid(bool anonymous) {
  BvhMotion m;
  int counter = 0;
  auto add = [&](const std::string& name, int parent, const Eigen::Vector3d& offset, bool end = false) {
    BvhJoint j;
    j.name = end ? m.joints[static_cast<std::size_t>(parent)].name + "_End"
                 : (anonymous ? "b" + std::to_string(counter++) : name);
    j.parent = parent;
    j.offset = offset;
    j.is_end_site = end;
    if (!end) j.channels = {BvhChannel::kZrotation, BvhChannel::kXrotation, BvhChannel::kYrotation};
    m.joints.push_back(j);
    return static_cast<int>(m.joints.size()) - 1;
  };
  const int hips = add("Hips", -1, {0, 95, 0});
  m.joints[0].channels.insert(m.joints[0].channels.begin(),
                              {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition});
  const int spine = add("Spine", hips, {0, 10, 0});
  const int chest = add("Chest", spine, {0, 12, 0});
  const int upper = add("UpperChest", chest, {0, 12, 0});
  const int neck = add("Neck", upper, {0, 18, 0});
  const int head = add("Head", neck, {0, 10, 1});
  add("", head, {0, 18, 0}, true);
  for (const char* side : {"L", "R"}) {
    const double x = std::string(side) == "L" ? 1 : -1;
    const std::string s = std::string("_") + side;
    const int collar = add("Shoulder" + s, upper, {x * 3, 12, 0});
    const int arm = add("UpperArm" + s, collar, {x * 15, 0, 0});
    const int fore = add("LowerArm" + s, arm, {x * 30, 0, 0});
    const int hand = add("Hand" + s, fore, {x * 26, 0, 0});
    const char* fingers[] = {"Thumb", "Index", "Middle", "Ring", "Little"};
    for (int f = 0; f < 5; ++f) {
      int parent = add(std::string(fingers[f]) + "1" + s, hand, {x * 4, 0, 3.0 - 1.5 * f});
      parent = add(std::string(fingers[f]) + "2" + s, parent, {x * 3, 0, 0});
      parent = add(std::string(fingers[f]) + "3" + s, parent, {x * 2.5, 0, 0});
      add("", parent, {x * 2, 0, 0}, true);
    }
    const int thigh = add("UpperLeg" + s, hips, {x * 9, -5, 0});
    const int shin = add("LowerLeg" + s, thigh, {0, -43, 0});
    const int foot = add("Foot" + s, shin, {0, -41, 0});
    const int toes = add("Toes" + s, foot, {0, -4, 13});
    add("", toes, {0, -2, 6}, true);
  }
  m.assignChannelIndices();
  m.frame_time = 1.0 / 30;
  return m;
}

void BM_Rig_BindNamed(benchmark::State& state) {
  const BvhMotion motion = humanoid(false);
  for (auto _ : state) {
    RigBinding binding = bindRig(motion);
    benchmark::DoNotOptimize(binding);
  }
  state.counters["joints"] = static_cast<double>(motion.joints.size());
}
BENCHMARK(BM_Rig_BindNamed)->Unit(benchmark::kMicrosecond);

void BM_Rig_BindAnonymous(benchmark::State& state) {
  const BvhMotion motion = humanoid(true);
  for (auto _ : state) {
    RigBinding binding = bindRig(motion);
    benchmark::DoNotOptimize(binding);
  }
  state.counters["joints"] = static_cast<double>(motion.joints.size());
}
BENCHMARK(BM_Rig_BindAnonymous)->Unit(benchmark::kMicrosecond);

// Reference: detecting a built-in schema by names on the same hierarchy (no match).
void BM_Rig_DetectBuiltInSchema(benchmark::State& state) {
  const BvhMotion motion = humanoid(false);
  for (auto _ : state) {
    const SkeletonSchema* schema = detectSchema(motion);
    benchmark::DoNotOptimize(schema);
  }
}
BENCHMARK(BM_Rig_DetectBuiltInSchema)->Unit(benchmark::kMicrosecond);

}  // namespace
