// End-to-end latency of the live loop (issue 15), over 127.0.0.1: a sender thread replays a
// shared recording at 30 or 120 frames per second through a real source; the loop reads,
// maps and writes to a real sink; one benchmark iteration is one frame, and its (manual) time is
// the latency from the frame's arrival (the source's time stamp of the datagram that completed
// it) to the end of the sink's write. Beside it, in the same binary, the mapper alone on the
// same frames, so the loop's own overhead (latency minus mapper) reads off one run.
//   Kinect v2 over OSC (liblo) -> GA-LVVJ on NAO -> NAO sink (JSON lines to a local reader)
//   Noitom binary datagrams (asio, UDP) -> Euler on InMoov -> joint-trajectory CSV (/dev/null)
// Counters: p50_us and p99_us (latency), map_us (the mapper's share, median), overhead_us
// (median of latency minus mapper), frames. Each live benchmark takes 10 s of frames (300 at
// 30 Hz, 1200 at 120 Hz).

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>
#include <vector>

#include <asio.hpp>
#include <lo/lo.h>

#include <retarget/adapters/kinect/kinect_osc_source.hpp>
#include <retarget/adapters/nao/nao_command_sink.hpp>
#include <retarget/adapters/noitom/bvh_broadcast_encoder.hpp>
#include <retarget/adapters/noitom/noitom_source.hpp>
#include <retarget/human/frames.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/csv_recorders.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>

namespace {

using namespace retarget;
using Clock = std::chrono::steady_clock;

std::filesystem::path dataDir() {
  if (const char* env = std::getenv("RETARGET_TEST_DATA")) return env;
  return std::filesystem::path(__FILE__).parent_path() / ".." / ".." / ".." / "shared" / "data";
}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// Latencies and mapper times of one run, as counters.
struct Samples {
  std::vector<double> latency, map, overhead;
  static double quantile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<double>(v.size())))];
  }
  // One frame: arrival (the source's epoch + the frame's time), mapper start and end, sink end.
  void add(benchmark::State& state, Clock::time_point arrival, Clock::time_point t0, Clock::time_point t1,
           Clock::time_point t2) {
    const double total = seconds(t2 - arrival);
    state.SetIterationTime(total);
    latency.push_back(total);
    map.push_back(seconds(t1 - t0));
    overhead.push_back(total - seconds(t1 - t0));
  }
  void report(benchmark::State& state) const {
    state.counters["p50_us"] = quantile(latency, 0.5) * 1e6;
    state.counters["p99_us"] = quantile(latency, 0.99) * 1e6;
    state.counters["map_us"] = quantile(map, 0.5) * 1e6;
    state.counters["overhead_us"] = quantile(overhead, 0.5) * 1e6;
    state.counters["frames"] = static_cast<double>(latency.size());
  }
};

// A thread that calls `send(k)` for k = 0, 1, ... every 1/rate s until stopped.
class PacedSender {
 public:
  template <typename Send>
  PacedSender(double rate, Send send)
      : thread_([this, rate, send] {
          const auto start = Clock::now();
          for (std::size_t k = 0; !stop_.load(); ++k) {
            std::this_thread::sleep_until(start + std::chrono::duration_cast<Clock::duration>(
                                                      std::chrono::duration<double>(static_cast<double>(k) / rate)));
            send(k);
          }
        }) {}
  ~PacedSender() {
    stop_.store(true);
    thread_.join();
  }

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// A NAO bridge stand-in on 127.0.0.1 that reads and discards what it gets.
class DiscardingBridge {
 public:
  DiscardingBridge() : acceptor_(context_, asio::ip::tcp::endpoint(asio::ip::address_v4::loopback(), 0)) {
    thread_ = std::thread([this] {
      asio::ip::tcp::socket socket(context_);
      asio::error_code ec;
      acceptor_.accept(socket, ec);
      if (!ec) asio::write(socket, asio::buffer("{\"status\": \"hello\"}\n", 20), ec);  // the sink waits for an answer
      char chunk[65536];
      while (!ec) socket.read_some(asio::buffer(chunk), ec);
    });
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  ~DiscardingBridge() { thread_.join(); }  // ends when the sink closes

 private:
  asio::io_context context_;
  asio::ip::tcp::acceptor acceptor_;
  std::thread thread_;
};

void BM_LiveKinectOscGaLvvjNao(benchmark::State& state) {
  const double rate = static_cast<double>(state.range(0));
  const SkeletonMotion<double> motion = readKinect((dataDir() / "kinect" / "laban_ges01_wavehand_kinect2.csv").string());
  const RobotModel<double> nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  Eigen::VectorXd q(nao.nq());
  KinectOscSourceOptions options;
  options.port = "0";
  KinectOscSource source(options);
  auto bridge = std::make_unique<DiscardingBridge>();
  NaoCommandSinkOptions sink_options;
  sink_options.port = std::to_string(bridge->port());
  sink_options.max_rate = 1000;
  auto sink = std::make_unique<NaoCommandSink>(nao.qNames(), sink_options);
  if (!sink->waitConnected(2000)) {
    state.SkipWithError("the NAO sink did not connect");
    return;
  }
  const std::string port = std::to_string(source.port());
  PacedSender sender(rate, [&motion, port, address = std::shared_ptr<std::remove_pointer_t<lo_address>>(
                                              lo_address_new("127.0.0.1", port.c_str()), lo_address_free)](std::size_t k) {
    const SkeletonFrame<double>& f = motion.frames[k % motion.frames.size()];
    for (int j = 0; j < kHumanJointCount; ++j) {
      const Eigen::Vector3d p_K = canonicalToKinect(f.p_W[static_cast<std::size_t>(j)]);
      const std::string path = "/bodies/1/joints/" + std::string(name(static_cast<HumanJoint>(j)));
      lo_send(address.get(), path.c_str(), "fffs", static_cast<float>(p_K.x()), static_cast<float>(p_K.y()),
              static_cast<float>(p_K.z()), "Tracked");
    }
    lo_send(address.get(), "/bodies/1/hands/Left", "ss", "Open", "High");
    lo_send(address.get(), "/bodies/1/hands/Right", "ss", "Open", "High");
  });
  Samples samples;
  SkeletonFrame<double> frame;
  for (auto _ : state) {
    if (!source.read(frame, 1000)) {
      state.SkipWithError("no frame within 1 s");
      break;
    }
    const auto t0 = Clock::now();
    benchmark::DoNotOptimize(mapper.map(frame, q));
    const auto t1 = Clock::now();
    sink->send(q);
    const auto t2 = Clock::now();
    samples.add(state, source.epoch() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(frame.time)),
                t0, t1, t2);
  }
  samples.report(state);
  sink.reset();  // the bridge's reader ends
  bridge.reset();
}
// 10 s of frames at each rate (the iteration time is the latency, so a time-based run length
// would wait for thousands of frames); 1 s in the test preset's one-shot run (RETARGET_BENCH_SMOKE),
// which checks that the loop runs, not its figures.
#ifdef RETARGET_BENCH_SMOKE
constexpr int kSecondsOfFrames = 1;
#else
constexpr int kSecondsOfFrames = 10;
#endif
BENCHMARK(BM_LiveKinectOscGaLvvjNao)->Arg(30)->Iterations(30 * kSecondsOfFrames)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LiveKinectOscGaLvvjNao)->Arg(120)->Iterations(120 * kSecondsOfFrames)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_LiveNoitomUdpEulerCsv(benchmark::State& state) {
  const double rate = static_cast<double>(state.range(0));
  const BvhMotion motion = readBvh(dataDir() / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const RobotModel<double> inmoov = makeInMoov<double>();
  EulerMapper<double> mapper(inmoov, motion, inmoovEulerMap(motion));
  Eigen::VectorXd q(inmoov.nq());
  NoitomUdpSourceOptions options;
  options.port = "0";
  NoitomUdpSource source(motion, options);
  JointTrajectoryCsvRecorder recorder("/dev/null", inmoov.qNames());
  const NoitomLayout layout{true, false};
  std::vector<std::vector<std::uint8_t>> datagrams;
  for (int f = 0; f < motion.frame_count; ++f) {
    datagrams.push_back(noitomBinaryFrame(noitomWireValues(motion, motion.frameValues(f), layout), layout, 0,
                                          static_cast<std::uint32_t>(f)));
  }
  asio::io_context context;
  asio::ip::udp::socket out(context, asio::ip::udp::endpoint(asio::ip::address_v4::loopback(), 0));
  const asio::ip::udp::endpoint to(asio::ip::address_v4::loopback(), static_cast<unsigned short>(source.port()));
  PacedSender sender(rate, [&](std::size_t k) {
    // Frame indices keep increasing across laps (a real sender's counter does).
    std::vector<std::uint8_t> bytes = datagrams[k % datagrams.size()];
    const auto index = static_cast<std::uint32_t>(k);
    for (int b = 0; b < 4; ++b) bytes[46 + static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(index >> (8 * b));
    asio::error_code ec;
    out.send_to(asio::buffer(bytes), to, 0, ec);
  });
  Samples samples;
  NoitomFrame frame;
  for (auto _ : state) {
    if (!source.read(frame, 1000)) {
      state.SkipWithError("no frame within 1 s");
      break;
    }
    const auto t0 = Clock::now();
    benchmark::DoNotOptimize(mapper.map(frame.channels, q));
    const auto t1 = Clock::now();
    recorder.record(frame.time, q);
    const auto t2 = Clock::now();
    samples.add(state, source.epoch() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(frame.time)),
                t0, t1, t2);
  }
  samples.report(state);
}
BENCHMARK(BM_LiveNoitomUdpEulerCsv)->Arg(30)->Iterations(30 * kSecondsOfFrames)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_LiveNoitomUdpEulerCsv)->Arg(120)->Iterations(120 * kSecondsOfFrames)->UseManualTime()->Unit(benchmark::kMicrosecond);

// The mappers alone on the same recordings (the reference the loop's overhead is read against).
void BM_MapperOnlyGaLvvjNao(benchmark::State& state) {
  const SkeletonMotion<double> motion = readKinect((dataDir() / "kinect" / "laban_ges01_wavehand_kinect2.csv").string());
  const RobotModel<double> nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  Eigen::VectorXd q(nao.nq());
  std::size_t k = 0;
  for (auto _ : state) benchmark::DoNotOptimize(mapper.map(motion.frames[k++ % motion.frames.size()], q));
}
BENCHMARK(BM_MapperOnlyGaLvvjNao)->Unit(benchmark::kMicrosecond);

void BM_MapperOnlyEulerInMoov(benchmark::State& state) {
  const BvhMotion motion = readBvh(dataDir() / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const RobotModel<double> inmoov = makeInMoov<double>();
  EulerMapper<double> mapper(inmoov, motion, inmoovEulerMap(motion));
  Eigen::VectorXd q(inmoov.nq());
  int k = 0;
  for (auto _ : state) benchmark::DoNotOptimize(mapper.map(motion.frameValues(k++ % motion.frame_count), q));
}
BENCHMARK(BM_MapperOnlyEulerInMoov)->Unit(benchmark::kMicrosecond);

}  // namespace
