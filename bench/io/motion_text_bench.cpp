// Text-format throughput (MB/s of input) on generated files, with a naive reference reader in
// the same binary (std::getline + std::stod into a row vector: what a user would hand-write).
//   BM_Io_SkeletonCsvRead          readSkeletonCsv, 5 min of walk-in-place at 120 Hz (36 001 rows)
//   BM_Io_SkeletonCsvReadNaive     reference: the same text split and parsed with getline/stod
//   BM_Io_SkeletonCsvWrite         writeSkeletonCsv of the same motion
//   BM_Io_KinectLabanCsvRead       readKinectLabanCsv, 5 min at 30 Hz (9 001 rows) in Laban layout
//   BM_Io_KinectLabanCsvReadNaive  reference on the same text
//   BM_Io_JointTrajectoryCsvRead   readJointTrajectoryCsv, 26 joints, 5 min at 100 Hz
#include <benchmark/benchmark.h>

#include <sstream>
#include <string>
#include <vector>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/skeleton_csv.hpp>

namespace {

const retarget::SkeletonMotion<double>& motion(double rate) {
  static retarget::SkeletonMotion<double> at120;
  static retarget::SkeletonMotion<double> at30;
  auto& m = rate > 100 ? at120 : at30;
  if (m.empty()) {
    retarget::DemoMotionOptions options;
    options.rate = rate;
    options.duration = 300;
    m = retarget::demoMotion("walk-in-place", options);
  }
  return m;
}

const std::string& skeletonCsvText() {
  static const std::string text = [] {
    std::ostringstream out;
    retarget::writeSkeletonCsv(motion(120), out);
    return out.str();
  }();
  return text;
}

const std::string& labanText() {
  static const std::string text = [] {
    std::ostringstream out;
    retarget::writeKinectLabanCsv(motion(30), out, 89810293609ULL);
    return out.str();
  }();
  return text;
}

const std::string& trajectoryText() {
  static const std::string text = [] {
    retarget::JointTrajectory t;
    for (int j = 0; j < 26; ++j) t.joint_names.push_back("Joint" + std::to_string(j));
    const int frames = 30001;
    t.positions.resize(frames, 26);
    for (int i = 0; i < frames; ++i) {
      t.times.push_back(i / 100.0);
      for (int j = 0; j < 26; ++j) t.positions(i, j) = std::sin(0.01 * i + j) * 1.3;
    }
    std::ostringstream out;
    retarget::writeJointTrajectoryCsv(t, out);
    return out.str();
  }();
  return text;
}

// Reference: split every line at commas and convert each field with std::stod.
std::size_t naiveRead(const std::string& text, bool skip_header) {
  std::istringstream in(text);
  std::string line;
  std::string field;
  std::vector<double> row;
  std::size_t values = 0;
  if (skip_header) std::getline(in, line);
  while (std::getline(in, line)) {
    row.clear();
    std::istringstream fields(line);
    while (std::getline(fields, field, ',')) {
      if (!field.empty()) row.push_back(std::stod(field));
    }
    values += row.size();
  }
  return values;
}

void BM_Io_SkeletonCsvRead(benchmark::State& state) {
  const std::string& text = skeletonCsvText();
  for (auto _ : state) {
    std::istringstream in(text);
    auto m = retarget::readSkeletonCsv(in, "bench.csv");
    benchmark::DoNotOptimize(m.frames.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
  state.counters["rows"] = static_cast<double>(motion(120).size());
}
BENCHMARK(BM_Io_SkeletonCsvRead)->Unit(benchmark::kMillisecond);

void BM_Io_SkeletonCsvReadNaive(benchmark::State& state) {
  const std::string& text = skeletonCsvText();
  for (auto _ : state) benchmark::DoNotOptimize(naiveRead(text, true));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Io_SkeletonCsvReadNaive)->Unit(benchmark::kMillisecond);

void BM_Io_SkeletonCsvWrite(benchmark::State& state) {
  const auto& m = motion(120);
  std::size_t bytes = 0;
  for (auto _ : state) {
    std::ostringstream out;
    retarget::writeSkeletonCsv(m, out);
    bytes = out.str().size();
    benchmark::DoNotOptimize(bytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(bytes));
}
BENCHMARK(BM_Io_SkeletonCsvWrite)->Unit(benchmark::kMillisecond);

void BM_Io_KinectLabanCsvRead(benchmark::State& state) {
  const std::string& text = labanText();
  for (auto _ : state) {
    std::istringstream in(text);
    auto m = retarget::readKinectLabanCsv(in, "bench.csv");
    benchmark::DoNotOptimize(m.frames.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Io_KinectLabanCsvRead)->Unit(benchmark::kMillisecond);

void BM_Io_KinectLabanCsvReadNaive(benchmark::State& state) {
  const std::string& text = labanText();
  for (auto _ : state) benchmark::DoNotOptimize(naiveRead(text, false));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Io_KinectLabanCsvReadNaive)->Unit(benchmark::kMillisecond);

void BM_Io_JointTrajectoryCsvRead(benchmark::State& state) {
  const std::string& text = trajectoryText();
  for (auto _ : state) {
    std::istringstream in(text);
    auto t = retarget::readJointTrajectoryCsv(in, "bench.csv");
    benchmark::DoNotOptimize(t.positions.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(text.size()));
}
BENCHMARK(BM_Io_JointTrajectoryCsvRead)->Unit(benchmark::kMillisecond);

}  // namespace
