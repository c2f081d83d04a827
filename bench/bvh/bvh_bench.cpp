// BVH parsing throughput (MB/s) against Assimp's BVH import of the same file, plus writer and
// forward-kinematics costs, and the limits of reading that many bytes (BM_Bvh_Limit*: copying them,
// counting their lines, reading the file in the reader's blocks, and allocating and writing the
// values matrix), for ours as a fraction of the limit.
//
// The input is generated at start: a 5-minute, 120 Hz take on the 59-joint Axis Neuron hierarchy
// (root 6 channels + 58 x 3 rotation channels in Y X Z order = 180 values per frame, 36000
// frames, values with 6 decimals like Axis Neuron exports, smooth random angles of plausible
// amplitude), written to a temporary file that is removed at exit.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <retarget/io/bvh.hpp>

namespace {

using retarget::BvhChannel;
using retarget::BvhJoint;
using retarget::BvhMotion;

int addJoint(BvhMotion& motion, const std::string& name, int parent, const Eigen::Vector3d& offset) {
  BvhJoint joint;
  joint.name = name;
  joint.parent = parent;
  joint.offset = offset;
  joint.channels = {BvhChannel::kYrotation, BvhChannel::kXrotation, BvhChannel::kZrotation};
  motion.joints.push_back(joint);
  return static_cast<int>(motion.joints.size()) - 1;
}

void addEndSite(BvhMotion& motion, int parent, const Eigen::Vector3d& offset) {
  BvhJoint end;
  end.name = motion.joints[static_cast<std::size_t>(parent)].name + "_End";
  end.parent = parent;
  end.offset = offset;
  end.is_end_site = true;
  motion.joints.push_back(end);
}

// The Axis Neuron joint set and order (MANIFEST.md), with our own plausible offsets in cm.
BvhMotion axisNeuronHierarchy() {
  BvhMotion m;
  BvhJoint hips;
  hips.name = "Hips";
  hips.offset = Eigen::Vector3d(0, 93, 0);
  hips.channels = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition,
                   BvhChannel::kYrotation, BvhChannel::kXrotation, BvhChannel::kZrotation};
  m.joints.push_back(hips);
  for (const char* side : {"Right", "Left"}) {
    const double s = std::string(side) == "Right" ? -1 : 1;
    int j = addJoint(m, std::string(side) + "UpLeg", 0, {s * 9.2, -1.6, 0});
    j = addJoint(m, std::string(side) + "Leg", j, {0, -42, 0});
    j = addJoint(m, std::string(side) + "Foot", j, {0, -41.5, 0});
    addEndSite(m, j, {0, -7.5, 17});
  }
  int spine = addJoint(m, "Spine", 0, {0, 10, 0});
  spine = addJoint(m, "Spine1", spine, {0, 9.5, 0});
  spine = addJoint(m, "Spine2", spine, {0, 9.5, 0});
  const int spine3 = addJoint(m, "Spine3", spine, {0, 9.5, 0});
  const int neck = addJoint(m, "Neck", spine3, {0, 12.5, 0});
  const int head = addJoint(m, "Head", neck, {0, 9, 0});
  addEndSite(m, head, {0, 17.5, 0});
  for (const char* side : {"Right", "Left"}) {
    const std::string n = side;
    const double s = n == "Right" ? -1 : 1;
    int j = addJoint(m, n + "Shoulder", spine3, {s * 3, 10, 0});
    j = addJoint(m, n + "Arm", j, {s * 13.5, 0, 0});
    j = addJoint(m, n + "ForeArm", j, {s * 28, 0, 0});
    const int hand = addJoint(m, n + "Hand", j, {s * 26, 0, 0});
    int t = addJoint(m, n + "HandThumb1", hand, {s * 2.5, -0.8, 3});
    t = addJoint(m, n + "HandThumb2", t, {s * 3.2, 0, 0});
    t = addJoint(m, n + "HandThumb3", t, {s * 2.7, 0, 0});
    addEndSite(m, t, {s * 2.2, 0, 0});
    const char* const fingers[] = {"Index", "Middle", "Ring", "Pinky"};
    for (int f = 0; f < 4; ++f) {
      const double z = 2.4 - 1.6 * f;
      int k = addJoint(m, n + "InHand" + fingers[f], hand, {s * 3.5, 0, z});
      k = addJoint(m, n + "Hand" + fingers[f] + "1", k, {s * 5.8, 0, 0});
      k = addJoint(m, n + "Hand" + fingers[f] + "2", k, {s * 3.6, 0, 0});
      k = addJoint(m, n + "Hand" + fingers[f] + "3", k, {s * 2.3, 0, 0});
      addEndSite(m, k, {s * 2.0, 0, 0});
    }
  }
  m.assignChannelIndices();
  return m;
}

// 5 minutes at 120 Hz of smooth random angles (sum of two sines per channel), 6 decimals.
BvhMotion generatedTake(int frames) {
  BvhMotion m = axisNeuronHierarchy();
  m.frame_time = 1.0 / 120.0;
  m.frame_count = frames;
  const auto channels = static_cast<std::size_t>(m.channel_count);
  m.values.resize(static_cast<std::size_t>(frames) * channels);
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> amplitude(5, 60), frequency(0.1, 1.5), phase(0, 6.283);
  std::vector<double> a1(channels), f1(channels), p1(channels), a2(channels), f2(channels), p2(channels);
  for (std::size_t c = 0; c < channels; ++c) {
    a1[c] = amplitude(rng), f1[c] = frequency(rng), p1[c] = phase(rng);
    a2[c] = 0.2 * amplitude(rng), f2[c] = 3 * frequency(rng), p2[c] = phase(rng);
  }
  for (int f = 0; f < frames; ++f) {
    const double t = f * m.frame_time;
    double* row = m.frame(f);
    for (std::size_t c = 0; c < channels; ++c) {
      const double v = a1[c] * std::sin(6.283 * f1[c] * t + p1[c]) + a2[c] * std::sin(6.283 * f2[c] * t + p2[c]);
      row[c] = std::round(v * 1e6) / 1e6;
    }
    row[0] = std::round(20 * std::sin(0.1 * t) * 1e6) / 1e6;  // root position, cm
    row[1] = std::round((93 + 2 * std::sin(2 * t)) * 1e6) / 1e6;
    row[2] = std::round(20 * std::cos(0.1 * t) * 1e6) / 1e6;
  }
  return m;
}

struct Fixture {
  std::filesystem::path path;
  std::string text;
  std::size_t bytes = 0;
  std::size_t values = 0;  // frames x channels
  Fixture() {
    const BvhMotion take = generatedTake(5 * 60 * 120);
    path = std::filesystem::temp_directory_path() / ("retarget_bench_axis_neuron_" + std::to_string(::getpid()) + ".bvh");
    // Hierarchy from our writer, motion lines formatted like Axis Neuron exports: "%.6f" values,
    // a trailing space, CRLF line endings.
    BvhMotion header = take;
    header.frame_count = 0;
    header.values.clear();
    std::ostringstream hierarchy;
    retarget::writeBvh(header, hierarchy);
    std::string head = hierarchy.str();
    head.replace(head.find("Frames: 0"), 9, "Frames: " + std::to_string(take.frame_count));
    std::ofstream out(path, std::ios::binary);
    out << head;
    std::string line;
    char number[32];
    for (int f = 0; f < take.frame_count; ++f) {
      line.clear();
      const double* row = take.frame(f);
      for (int c = 0; c < take.channel_count; ++c) {
        const int n = std::snprintf(number, sizeof number, "%.6f ", row[c]);
        line.append(number, static_cast<std::size_t>(n));
      }
      line += "\r\n";
      out << line;
    }
    out.close();
    bytes = static_cast<std::size_t>(std::filesystem::file_size(path));
    values = take.values.size();
    std::ifstream in(path, std::ios::binary);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    text = buffer.str();
  }
  ~Fixture() {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
};

const Fixture& fixture() {
  static const Fixture kFixture;
  return kFixture;
}

void BM_Bvh_ReadFile(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    BvhMotion motion = retarget::readBvh(f.path);
    benchmark::DoNotOptimize(motion.values.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.bytes));
  state.counters["MB"] = static_cast<double>(f.bytes) / 1e6;
}
BENCHMARK(BM_Bvh_ReadFile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Bvh_ParseString(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    BvhMotion motion = retarget::parseBvh(f.text, "bench.bvh");
    benchmark::DoNotOptimize(motion.values.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.bytes));
}
BENCHMARK(BM_Bvh_ParseString)->Unit(benchmark::kMillisecond)->UseRealTime();

// Reference: Assimp's BVH importer on the same file (no post-processing).
void BM_Bvh_ReadFileAssimp(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(f.path.string(), 0);
    if (scene == nullptr) {
      state.SkipWithError(importer.GetErrorString());
      break;
    }
    benchmark::DoNotOptimize(scene->mAnimations);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.bytes));
}
BENCHMARK(BM_Bvh_ReadFileAssimp)->Unit(benchmark::kMillisecond)->UseRealTime();

// Limits: what any reader of these bytes pays at least. Copying them (memcpy into a buffer
// allocated once) and counting their lines (one memchr pass) bound the text side; reading the file
// in 1 MiB blocks as readBvh's reader does bounds BM_Bvh_ReadFile's input; allocating the values
// matrix and writing it once (the reader's huge-page hint included, then without it) bounds the
// output side.
void BM_Bvh_LimitMemcpy(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<char> copy(f.text.size());
  for (auto _ : state) {
    std::memcpy(copy.data(), f.text.data(), f.text.size());
    benchmark::DoNotOptimize(copy.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.bytes));
}
BENCHMARK(BM_Bvh_LimitMemcpy)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Bvh_LimitNewlines(benchmark::State& state) {
  const Fixture& f = fixture();
  for (auto _ : state) {
    std::size_t lines = 0;
    const char* p = f.text.data();
    const char* const end = p + f.text.size();
    while (const void* newline = std::memchr(p, '\n', static_cast<std::size_t>(end - p))) {
      ++lines;
      p = static_cast<const char*>(newline) + 1;
    }
    benchmark::DoNotOptimize(lines);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.bytes));
}
BENCHMARK(BM_Bvh_LimitNewlines)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Bvh_LimitReadFile(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<char> block(std::size_t(1) << 20);
  for (auto _ : state) {
    std::ifstream in(f.path, std::ios::binary);
    std::size_t total = 0;
    for (;;) {
      const auto got = in.rdbuf()->sgetn(block.data(), static_cast<std::streamsize>(block.size()));
      if (got <= 0) break;
      total += static_cast<std::size_t>(got);
    }
    benchmark::DoNotOptimize(total);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.bytes));
}
BENCHMARK(BM_Bvh_LimitReadFile)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Bvh_LimitAllocate(benchmark::State& state) {
  const Fixture& f = fixture();
  const bool hint = state.range(0) != 0;
  for (auto _ : state) {
    std::vector<double> values;
    if (hint) retarget::internal::reserveLargeBuffer(values, f.values);
    values.resize(f.values);
    benchmark::DoNotOptimize(values.data());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.bytes));
  state.SetLabel(hint ? "huge-page hint" : "plain vector");
}
BENCHMARK(BM_Bvh_LimitAllocate)->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_Bvh_Write(benchmark::State& state) {
  const Fixture& f = fixture();
  const BvhMotion motion = retarget::parseBvh(f.text);
  for (auto _ : state) {
    std::ostringstream out;
    retarget::writeBvh(motion, out);
    benchmark::DoNotOptimize(out.tellp());
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(f.bytes));
}
BENCHMARK(BM_Bvh_Write)->Unit(benchmark::kMillisecond)->UseRealTime();

// Per-frame forward kinematics of the 72 joints and End Sites (the real-time path).
void BM_Bvh_GlobalPoses(benchmark::State& state) {
  const BvhMotion motion = generatedTake(1000);
  std::vector<Eigen::Isometry3d> X_WJ(motion.joints.size());
  int f = 0;
  for (auto _ : state) {
    retarget::bvhGlobalPoses(motion, f, X_WJ);
    benchmark::DoNotOptimize(X_WJ.data());
    f = (f + 1) % motion.frame_count;
  }
}
BENCHMARK(BM_Bvh_GlobalPoses);

void BM_Bvh_GlobalPositions(benchmark::State& state) {
  const BvhMotion motion = generatedTake(1000);
  Eigen::Matrix3Xd p_WJ(3, static_cast<Eigen::Index>(motion.joints.size()));
  std::vector<Eigen::Quaterniond> R_WJ(motion.joints.size());
  int f = 0;
  for (auto _ : state) {
    retarget::bvhGlobalPositions(motion, f, p_WJ, R_WJ);
    benchmark::DoNotOptimize(p_WJ.data());
    f = (f + 1) % motion.frame_count;
  }
}
BENCHMARK(BM_Bvh_GlobalPositions);

}  // namespace
