// `retarget live --source SPEC --robot R --method M [--avoid-collisions] [--sink SPEC]...
//  [--duration S]`: the whole loop, source -> mapper (-> collision avoidance) -> sinks, at the
// source's rate, with a one-line status once a second and a clean stop on Ctrl-C (robot to
// rest, files flushed). docs/cli.md and docs/adapters.md describe it.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <retarget/safety/self_collision.hpp>
#ifdef RETARGET_CLI_WITH_AVOIDANCE
#include <retarget/safety/collision_avoidance.hpp>
#endif

#include "batch_mapping.hpp"
#include "cli.hpp"
#include "live_io.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

struct LiveRequest {
  LiveSourceRequest source;
  std::vector<std::string> sinks;
  std::string robot;
  MethodSetup method;
  bool avoid_collisions = false;
  double duration = 0;         // s, 0 = until Ctrl-C (or the end of a replay)
  double status_interval = 1;  // s between status lines, 0 = none
  double input_timeout = 0.5;  // s without a frame before the input counts as lost
  LiveSinkRequest sink_options;
};

std::atomic<bool> g_stop{false};
extern "C" void onStopSignal(int) { g_stop.store(true); }

// Latencies of one reporting window and of the whole run (fixed capacity, no allocation in
// the loop: the oldest samples of the run are overwritten beyond it).
class LatencyWindow {
 public:
  explicit LatencyWindow(std::size_t capacity) : samples_(capacity), sorted_(capacity) {}
  void add(double seconds) {
    samples_[next_ % samples_.size()] = seconds;
    ++next_;
  }
  std::size_t size() const { return std::min(next_, samples_.size()); }
  void clear() { next_ = 0; }
  // Median and 99th percentile (nearest rank), s; zeros when empty.
  std::pair<double, double> medianP99() {
    const std::size_t n = size();
    if (n == 0) return {0, 0};
    std::copy_n(samples_.begin(), n, sorted_.begin());
    std::sort(sorted_.begin(), sorted_.begin() + static_cast<std::ptrdiff_t>(n));
    const auto rank = [n](double p) { return std::min(n - 1, static_cast<std::size_t>(std::ceil(p * static_cast<double>(n))) - 1); };
    return {sorted_[rank(0.5)], sorted_[rank(0.99)]};
  }

 private:
  std::vector<double> samples_, sorted_;
  std::size_t next_ = 0;
};

struct LiveTotals {
  std::uint64_t frames = 0, clamped = 0, held = 0, avoided = 0, sink_dropped = 0;
};

void runLive(const LiveRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  LiveSourceRequest source_request = request.source;
  source_request.channels = request.method.method == "euler";
  checkMethodApplies(request.method, model);
  std::unique_ptr<LiveSource> source = openLiveSource(source_request);
  const FrameMapper mapper = makeFrameMapper(request.method, model, source->hierarchy());

#ifdef RETARGET_CLI_WITH_AVOIDANCE
  std::optional<SelfCollisionModel<double>> collision;
  std::unique_ptr<CollisionAvoidance> avoidance;
  if (request.avoid_collisions) {
    collision = cliCollisionModel(model);
    if (!collision) throw UsageError("live --avoid-collisions: robot '" + model.name() + "' has no collision shapes to check");
    avoidance = std::make_unique<CollisionAvoidance>(*collision, AvoidanceOptions{});
  }
#else
  if (request.avoid_collisions) throw missingPart("live --avoid-collisions", "avoidance", "libnlopt-dev");
#endif

  std::vector<std::unique_ptr<LiveSink>> sinks;
  for (const std::string& spec : request.sinks) {
    LiveSinkRequest sink_request = request.sink_options;
    sink_request.spec = spec;
    sinks.push_back(openLiveSink(sink_request, model, !source->givesChannels()));
  }

  g_stop.store(false);
  std::signal(SIGINT, onStopSignal);
  std::signal(SIGTERM, onStopSignal);

  LiveFrame frame;
  Eigen::VectorXd q = model.neutralConfiguration();
  Eigen::VectorXd q_mapped = q;
  LatencyWindow window(4096), run(1 << 16);
  LiveTotals totals, at_status;
  std::uint64_t source_dropped_at_status = 0;
  const auto start = LiveClock::now();
  auto last_status = start;
  auto last_frame = start;
  bool input_lost = false;
  const auto seconds = [](LiveClock::duration d) { return std::chrono::duration<double>(d).count(); };

  std::cerr << "live: " << request.source.spec << " -> " << model.name() << " (" << request.method.method
            << (request.avoid_collisions ? ", collision avoidance" : "") << ") -> "
            << (sinks.empty() ? std::string("no sink") : std::to_string(sinks.size()) + " sink(s)") << "; Ctrl-C stops\n";
  while (!g_stop.load()) {
    const auto now = LiveClock::now();
    if (request.duration > 0 && seconds(now - start) >= request.duration) break;
    if (source->finished()) break;
    if (source->read(frame, 50)) {
      Status status = source->givesChannels() ? mapper.map_channels(frame.channels, q_mapped)
                                              : mapper.map_skeleton(frame.skeleton, q_mapped);
      q = q_mapped;
#ifdef RETARGET_CLI_WITH_AVOIDANCE
      if (avoidance) {
        status |= avoidance->apply(q_mapped, q);
        totals.avoided += status.has(StatusCode::kCollisionAvoided) ? 1 : 0;
      }
#endif
      ++totals.frames;
      totals.clamped += status.has(StatusCode::kClamped) ? 1 : 0;
      totals.held += status.has(StatusCode::kDegenerateInput) ? 1 : 0;
      for (auto& sink : sinks) totals.sink_dropped += sink->write(frame, q) ? 0 : 1;
      const double latency = seconds(LiveClock::now() - frame.arrival);
      window.add(latency);
      run.add(latency);
      last_frame = LiveClock::now();
      input_lost = false;
    } else {
      for (auto& sink : sinks) sink->service();
      if (!input_lost && totals.frames > 0 && seconds(LiveClock::now() - last_frame) > request.input_timeout) {
        input_lost = true;  // the sinks get nothing more: the NAO bridge rests the robot after its timeout
      }
    }
    const auto after = LiveClock::now();
    if (request.status_interval > 0 && seconds(after - last_status) >= request.status_interval) {
      const double span = seconds(after - last_status);
      const auto [median, p99] = window.medianP99();
      if (totals.frames == 0) {
        std::cerr << "live: " << fixed(seconds(after - start), 1) << " s  waiting for the first frame  dropped "
                  << source->dropped() << (source->state().empty() ? "" : "  [" + source->state() + "]") << "\n";
        last_status = after;
        continue;
      }
      std::cerr << "live: " << fixed(seconds(after - start), 1) << " s  "
                << fixed(static_cast<double>(totals.frames - at_status.frames) / span, 1) << " Hz  latency "
                << fixed(median * 1e3, 2) << " / " << fixed(p99 * 1e3, 2) << " ms (median / p99)  dropped "
                << (source->dropped() - source_dropped_at_status) + (totals.sink_dropped - at_status.sink_dropped)
                << "  clamped " << totals.clamped - at_status.clamped << "  held " << totals.held - at_status.held
                << (input_lost ? "  no input for " + fixed(seconds(after - last_frame), 1) + " s (holding)" : "")
                << (source->state().empty() ? "" : "  [" + source->state() + "]") << "\n";
      window.clear();
      at_status = totals;
      source_dropped_at_status = source->dropped();
      last_status = after;
    }
  }
  for (auto& sink : sinks) sink->close();  // robot to rest (the bridge rests on disconnect), files flushed
  const auto [median, p99] = run.medianP99();
  std::cout << "live: " << totals.frames << " frames in " << fixed(seconds(LiveClock::now() - start), 1)
            << " s; latency median " << fixed(median * 1e3, 3) << " ms, p99 " << fixed(p99 * 1e3, 3)
            << " ms (arrival to the last sink); clamped " << totals.clamped << ", held " << totals.held;
  if (request.avoid_collisions) std::cout << ", collisions avoided " << totals.avoided;
  std::cout << "\nlive: source dropped " << source->dropped();
  if (!source->dropReasons().empty()) std::cout << " (" << source->dropReasons() << ")";
  std::cout << (g_stop.load() ? "; stopped by signal" : "") << "\n";
  for (const auto& sink : sinks) std::cout << "live: " << sink->account() << ", dropped " << sink->dropped() << "\n";
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

const bool kLiveRegistered = registerCommand(Command{
    "live", "Run the live loop: a source (Kinect OSC, Noitom, a replayed file) -> mapper -> sinks (NAO, serial, CSV)",
    [](CLI::App& command) {
      auto request = std::make_shared<LiveRequest>();
      command
          .add_option("--source", request->source.spec,
                      "kinect-osc:[0.0.0.0:]PORT | noitom-tcp:HOST:PORT | noitom-udp:PORT | replay:FILE")
          ->required();
      command.add_option("--hierarchy", request->source.hierarchy_path,
                         "Noitom sources: axis-neuron or axis-studio (built-in 59-joint templates) or the BVH file the sender exports");
      command.add_option("--robot", request->robot, "built-in robot name or URDF file")->required();
      command.add_option("--method", request->method.method, "ga-lvvj | euler | triangle | fabrik | pic | pics | pf")
          ->required();
      command.add_option("--config", request->method.config_path,
                         "method configuration file (ga-lvvj, euler, humanoid; with --whole-body a WholeBodyOptions object)");
      command.add_flag("--whole-body", request->method.whole_body,
                       "ga-lvvj: the whole-body pipeline (support modes, balance QP); send the legs with --nao-legs");
      command.add_option("--softening", request->method.softening, "PICs softening factor K (seed 004 Eq. 3), 0..3")
          ->check(CLI::Range(0, 3));
      command.add_option("--model", request->method.model_path, "gpdm-pf: the learned .gpdm model (retarget learn gpdm)");
      command.add_option("--fallback", request->method.fallback,
                         "gpdm-pf: ga-lvvj on frames the model does not explain (default: none)")
          ->check(CLI::IsMember({"none", "ga-lvvj"}));
      command.add_flag("--avoid-collisions", request->avoid_collisions,
                       "self-collision avoidance after the mapper (robots with a collision model)");
      command.add_option("--sink", request->sinks,
                         "nao:HOST:PORT | serial:DEVICE | csv:FILE (robot angles) | skeleton-csv:FILE (human frames); repeatable");
      command.add_option("--duration", request->duration, "stop after this many seconds (0: Ctrl-C or the end of a replay)")
          ->check(CLI::NonNegativeNumber);
      command.add_option("--replay-speed", request->source.replay_speed,
                         "replay: 1 = the file's own rate, 2 = twice as fast, 0 = as fast as the loop goes")
          ->check(CLI::Range(0.0, 1000.0));
      command.add_flag("--loop", request->source.loop, "replay: start again after the last frame");
      command.add_option("--sensor-tilt", request->source.sensor_tilt,
                         "kinect-osc: the sensor's downward pitch in degrees, or 'auto' to estimate it from the first frames "
                         "(the floor under the feet, or a standing body's vertical); the frames are levelled when read");
      command.add_option("--body", request->source.body, "kinect-osc: tracking id of the body to follow (0: the closest)")
          ->check(CLI::NonNegativeNumber);
      command.add_option("--status-interval", request->status_interval, "s between status lines (0: none)")
          ->check(CLI::NonNegativeNumber);
      command.add_option("--input-timeout", request->input_timeout, "s without frames before the input counts as lost")
          ->check(CLI::PositiveNumber);
      command.add_option("--nao-speed", request->sink_options.nao_speed, "nao sink: fraction of maximum joint speed, (0, 1]")
          ->check(CLI::Range(0.001, 1.0));
      command.add_option("--nao-rate", request->sink_options.nao_rate, "nao sink: most commands per second")
          ->check(CLI::Range(1.0, 1000.0));
      command.add_flag("--nao-legs", request->sink_options.nao_legs,
                       "nao sink: send the leg joints too (off: the robot's own balance keeps its legs; on: use "
                       "--whole-body, whose balance stage keeps the centre of mass over the feet)");
      command.add_option("--baud", request->sink_options.baud, "serial sink: baud rate")
          ->check(CLI::IsMember({9600, 19200, 38400, 57600, 115200, 230400}));
      command.add_option("--serial-encoding", request->sink_options.serial_encoding,
                         "serial sink: servo-degrees (one byte per servo through the InMoov servo table; robot "
                         "inmoov only, its default) or centidegrees (int16, 0.01 deg; the default for other robots)")
          ->check(CLI::IsMember({"servo-degrees", "centidegrees"}));
      command.add_option("--serial-settle", request->sink_options.serial_settle,
                         "serial sink: s after opening the port during which frames are dropped (an Arduino resets "
                         "on open; 0 for a device that does not)")
          ->check(CLI::Range(0.0, 59.0));
      command.callback([request] { runLive(*request); });
    }});

}  // namespace
}  // namespace retarget::cli
