// DTW cost per cell (n = m = 1000 frames of 22 joints: the paper's InMoov) for the full matrix,
// the O(min(n, m))-memory, windowed and incremental forms, beside a straightforward reference
// written here, and limit rows (the kernels' local distances alone); the per-joint weighted
// metric beside the same reference per joint;
// CRC-16/MODBUS and serial frame encode/decode throughput beside a bit-by-bit CRC.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <retarget/io/crc16.hpp>
#include <retarget/io/serial_frame.hpp>
#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/weighted_dtw.hpp>

namespace {

constexpr Eigen::Index kDim = 22;

Eigen::MatrixXd randomWalk(unsigned seed, Eigen::Index length) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> step(0.0, 0.05);
  Eigen::MatrixXd s(kDim, length);
  for (Eigen::Index j = 0; j < length; ++j) {
    for (Eigen::Index k = 0; k < kDim; ++k) s(k, j) = (j > 0 ? s(k, j - 1) : 0.0) + step(rng);
  }
  return s;
}

void setCellCounter(benchmark::State& state, double cells) {
  // Shown as seconds per cell (e.g. "3.1n" = 3.1 ns per cell).
  state.counters["per_cell"] =
      benchmark::Counter(cells, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The reference: the textbook O(n m) table, std::vector<std::vector<double>> and std::min.
double referenceDtw(const std::vector<std::vector<double>>& a, const std::vector<std::vector<double>>& b) {
  const std::size_t n = a.size(), m = b.size();
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> D(n + 1, std::vector<double>(m + 1, inf));
  D[0][0] = 0.0;
  for (std::size_t i = 1; i <= n; ++i) {
    for (std::size_t j = 1; j <= m; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k < a[i - 1].size(); ++k) {
        const double diff = a[i - 1][k] - b[j - 1][k];
        sum += diff * diff;
      }
      D[i][j] = std::sqrt(sum) + std::min({D[i - 1][j - 1], D[i - 1][j], D[i][j - 1]});
    }
  }
  return D[n][m];
}

std::vector<std::vector<double>> toVectors(const Eigen::MatrixXd& s) {  // one vector per frame
  std::vector<std::vector<double>> out(static_cast<std::size_t>(s.cols()));
  for (Eigen::Index j = 0; j < s.cols(); ++j) out[static_cast<std::size_t>(j)].assign(s.col(j).data(), s.col(j).data() + s.rows());
  return out;
}

void BM_Dtw_Reference(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const auto a = toVectors(randomWalk(1, n));
  const auto b = toVectors(randomWalk(2, n));
  for (auto _ : state) benchmark::DoNotOptimize(referenceDtw(a, b));
  setCellCounter(state, static_cast<double>(n) * static_cast<double>(n));
}
BENCHMARK(BM_Dtw_Reference)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_Dtw_FullMatrix(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  for (auto _ : state) benchmark::DoNotOptimize(retarget::dtwCostMatrix(a, b));
  setCellCounter(state, static_cast<double>(n) * static_cast<double>(n));
}
BENCHMARK(BM_Dtw_FullMatrix)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_Dtw_FullWithPath(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  for (auto _ : state) benchmark::DoNotOptimize(retarget::dtwWithPath(a, b).path.data());
  setCellCounter(state, static_cast<double>(n) * static_cast<double>(n));
}
BENCHMARK(BM_Dtw_FullWithPath)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_Dtw_TwoRows(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  for (auto _ : state) benchmark::DoNotOptimize(retarget::dtw(a, b).cost);
  setCellCounter(state, static_cast<double>(n) * static_cast<double>(n));
}
BENCHMARK(BM_Dtw_TwoRows)->Arg(1000)->Unit(benchmark::kMillisecond);

// Sakoe-Chiba band of radius 50: (2 r + 1) n cells, approximately.
void BM_Dtw_TwoRowsWindow50(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  retarget::DtwOptions options;
  options.window = 50;
  for (auto _ : state) benchmark::DoNotOptimize(retarget::dtw(a, b, options).cost);
  double cells = 0;
  for (Eigen::Index j = 0; j < n; ++j) cells += static_cast<double>(std::min(n - 1, j + 50) - std::max<Eigen::Index>(0, j - 50) + 1);
  setCellCounter(state, cells);
}
BENCHMARK(BM_Dtw_TwoRowsWindow50)->Arg(1000)->Unit(benchmark::kMillisecond);

// A limit row, not a DTW: the Euclidean local distances of the same 1000 x 1000 cells through
// the kernel's vectorised block (metrics/dtw.hpp, internal::DtwEuclideanBlock), without the
// recurrence. The two-row form costs this plus the recurrence (a chain of min and add per cell,
// and the path-length bookkeeping).
void BM_Dtw_LocalDistancesOnly(benchmark::State& state) {
  namespace in = retarget::internal;
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  in::DtwFeatureTable<double> features = in::DtwFeatureTable<double>::Zero(kDim, in::dtwTableColumns<double>(n));
  features.leftCols(n) = b;
  in::DtwSpreadFrame<double> x;
  constexpr Eigen::Index kCells = in::dtwBlockCells<double>();
  double out[kCells];
  for (auto _ : state) {
    double sum = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      in::dtwSpreadFrame(a.col(i), x);
      const in::DtwEuclideanBlock<double> block(x.data(), features.data(), features.cols(), kDim);
      for (Eigen::Index t0 = 0; t0 < n; t0 += kCells) {
        block(t0, kCells, out);
        for (const double c : out) sum += c;
      }
    }
    benchmark::DoNotOptimize(sum);
  }
  setCellCounter(state, static_cast<double>(n) * static_cast<double>(n));
}
BENCHMARK(BM_Dtw_LocalDistancesOnly)->Arg(1000)->Unit(benchmark::kMillisecond);

// The same limit row for the AVX2 + FMA kernel, one line at a time (internal::
// dtwEuclideanLineAvx2Fma; the two-row form takes four lines at a time, which loads each feature of
// the table once for four lines). Registered only where the kernel is compiled in (x86-64 GCC and
// Clang) and the processor runs it, so that a run never reports it as an error.
#if RETARGET_DTW_X86_KERNEL
void BM_Dtw_LocalDistancesOnlyAvx2(benchmark::State& state) {
  namespace in = retarget::internal;
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  in::DtwFeatureTable<double> features = in::DtwFeatureTable<double>::Zero(kDim, in::dtwTableColumns<double>(n));
  features.leftCols(n) = b;
  in::DtwSpreadFrame<double> x;
  std::vector<double> out(static_cast<std::size_t>(n + 8));
  for (auto _ : state) {
    double sum = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      in::dtwSpreadFrame(a.col(i), x);
      in::dtwEuclideanLineAvx2Fma(x.data(), in::dtwNormLanes<double>(), features.data(), features.cols(), kDim, n,
                                  out.data());
      sum += out[static_cast<std::size_t>(i)];
    }
    benchmark::DoNotOptimize(sum);
  }
  setCellCounter(state, static_cast<double>(n) * static_cast<double>(n));
}
[[maybe_unused]] const bool kAvx2Registered = [] {
  if (!retarget::internal::dtwAvx2FmaSupported()) return false;
  benchmark::RegisterBenchmark("BM_Dtw_LocalDistancesOnlyAvx2", BM_Dtw_LocalDistancesOnlyAvx2)
      ->Arg(1000)
      ->Unit(benchmark::kMillisecond);
  return true;
}();
#endif

// The paper's system metric (Eqs. 12-13): one 1-D DTW per joint, 22 joints, weighted; the
// reference is the textbook table per joint. Cells counted over all joints (22 n^2).
void BM_Dtw_WeightedJointsReference(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  const Eigen::VectorXd weights = Eigen::VectorXd::LinSpaced(kDim, 1.0, 2.0);
  std::vector<std::vector<std::vector<double>>> ja, jb;
  for (Eigen::Index x = 0; x < kDim; ++x) {
    ja.push_back(toVectors(a.row(x)));
    jb.push_back(toVectors(b.row(x)));
  }
  for (auto _ : state) {
    double total = 0;
    for (std::size_t x = 0; x < ja.size(); ++x)
      total += weights(static_cast<Eigen::Index>(x)) * referenceDtw(ja[x], jb[x]);
    benchmark::DoNotOptimize(total / weights.sum());
  }
  setCellCounter(state, static_cast<double>(kDim) * static_cast<double>(n) * static_cast<double>(n));
}
BENCHMARK(BM_Dtw_WeightedJointsReference)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_Dtw_WeightedJoints(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  const Eigen::VectorXd weights = Eigen::VectorXd::LinSpaced(kDim, 1.0, 2.0);
  for (auto _ : state) benchmark::DoNotOptimize(retarget::weightedJointDtw(a, b, weights).system_distance);
  setCellCounter(state, static_cast<double>(kDim) * static_cast<double>(n) * static_cast<double>(n));
}
BENCHMARK(BM_Dtw_WeightedJoints)->Arg(1000)->Unit(benchmark::kMillisecond);

// The paper's diag(D) curve: append one human and one robot frame per step, 1000 steps.
void BM_Dtw_IncrementalLockstep(benchmark::State& state) {
  const Eigen::Index n = state.range(0);
  const Eigen::MatrixXd a = randomWalk(1, n), b = randomWalk(2, n);
  retarget::IncrementalDtw<double> inc(kDim, n);
  for (auto _ : state) {
    inc.reset();
    for (Eigen::Index t = 0; t < n; ++t) {
      (void)inc.appendA(a.col(t));
      (void)inc.appendB(b.col(t));
    }
    benchmark::DoNotOptimize(inc.cost());
  }
  setCellCounter(state, static_cast<double>(n) * static_cast<double>(n));
}
BENCHMARK(BM_Dtw_IncrementalLockstep)->Arg(1000)->Unit(benchmark::kMillisecond);

// --- serial frame protocol -------------------------------------------------------------

std::uint16_t bitwiseCrc16Modbus(const std::uint8_t* data, std::size_t size) {
  std::uint16_t crc = 0xFFFF;
  for (std::size_t k = 0; k < size; ++k) {
    crc ^= data[k];
    for (int bit = 0; bit < 8; ++bit) crc = (crc & 1) ? static_cast<std::uint16_t>((crc >> 1) ^ 0xA001) : crc >> 1;
  }
  return crc;
}

std::vector<std::uint8_t> randomBytes(std::size_t size) {
  std::mt19937 rng(3);
  std::vector<std::uint8_t> bytes(size);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
  return bytes;
}

void BM_Protocol_Crc16Reference(benchmark::State& state) {
  const auto bytes = randomBytes(27);  // the paper's CRC span
  for (auto _ : state) {
    benchmark::DoNotOptimize(bytes.data());
    benchmark::DoNotOptimize(bitwiseCrc16Modbus(bytes.data(), bytes.size()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 27);
}
BENCHMARK(BM_Protocol_Crc16Reference);

void BM_Protocol_Crc16(benchmark::State& state) {
  const auto bytes = randomBytes(27);
  for (auto _ : state) {
    benchmark::DoNotOptimize(bytes.data());
    benchmark::DoNotOptimize(retarget::crc16Modbus(bytes.data(), bytes.size()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 27);
}
BENCHMARK(BM_Protocol_Crc16);

void BM_Protocol_EncodeFrame(benchmark::State& state) {
  const retarget::SerialFrameFormat format;  // 22 one-byte joints, 29-byte frames
  const Eigen::VectorXi positions = Eigen::VectorXi::LinSpaced(22, 0, 180);
  std::vector<std::uint8_t> out(format.frameSize());
  std::uint16_t t = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(retarget::writeSerialFrame(format, t++, positions, out.data(), out.size()).bits());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Protocol_EncodeFrame);

// Streaming decode of 1000 clean frames, fed in 64-byte chunks.
void BM_Protocol_DecodeStream(benchmark::State& state) {
  const retarget::SerialFrameFormat format;
  std::vector<std::uint8_t> stream;
  for (int f = 0; f < 1000; ++f) {
    const auto frame = retarget::encodeSerialFrame(format, static_cast<std::uint16_t>(f),
                                                   Eigen::VectorXi::Constant(22, f % 181));
    stream.insert(stream.end(), frame.begin(), frame.end());
  }
  retarget::SerialFrameDecoder decoder(format);
  for (auto _ : state) {
    std::size_t sum = 0;
    for (std::size_t pos = 0; pos < stream.size(); pos += 64) {
      decoder.feed(stream.data() + pos, std::min<std::size_t>(64, stream.size() - pos),
                   [&](const retarget::SerialFrame& frame) { sum += frame.timestamp; });
    }
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * stream.size()));
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * 1000);
}
BENCHMARK(BM_Protocol_DecodeStream)->Unit(benchmark::kMicrosecond);

}  // namespace
