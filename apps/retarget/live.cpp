// `retarget live --source SPEC --robot R --method M [--avoid-collisions] [--sink SPEC]...
//  [--duration S]`: the whole loop, source -> mapper (-> collision avoidance) -> sinks, at the
// source's rate, with a one-line status once a second and a clean stop on Ctrl-C (files
// flushed; the NAO bridge rests the robot after its --rest-after). With --dry-run it opens no sink: it reads the source for a few seconds,
// maps the frames and prints what a person needs before the robot moves (input survey, mapped
// angles against the robot's limits). docs/cli.md and docs/adapters.md describe it.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <retarget/human/input_survey.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/kinematics/trajectory_survey.hpp>
#include <retarget/safety/self_collision.hpp>
#ifdef RETARGET_CLI_WITH_NOITOM
#include <retarget/adapters/noitom/rotation_order_check.hpp>
#endif
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
  bool dry_run = false;        // --dry-run: no sink, a survey of the input and the mapped angles
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

// ---- --dry-run ----------------------------------------------------------------------------------
// Warning thresholds of the dry run's report: plain statements of what usually goes wrong, for a
// person to read before the robot moves; none of them stops anything.
constexpr double kDryRunSeconds = 5.0;          // s read when --duration is not given
constexpr double kSlowRate = 15.0;              // Hz: below this a robot follows in visible steps
constexpr double kLongGap = 0.25;               // s: a pause a person sees as a stop
constexpr double kPoorlyTracked = 0.5;          // share of frames below which a joint counts as lost
constexpr double kShortestBody = 1.0, kTallestBody = 2.0;  // m, head joint above the ankles
constexpr double kTurnedAway = 45.0;            // deg from the source's forward
constexpr double kBigFirstStep = 0.5;           // rad (or m) from the neutral pose in the first frame
constexpr double kMostlyAtLimit = 0.5;          // share of frames on a position limit
constexpr std::size_t kMostDryRunFrames = 100000;

using MapOne = std::function<Status(const LiveFrame&, Eigen::VectorXd& q)>;

void dryRun(const LiveRequest& request, const RobotModel<double>& model, LiveSource& source, const MapOne& map_one) {
  const double seconds_to_read = request.duration > 0 ? request.duration : kDryRunSeconds;
  std::cout << "dry run: " << request.source.spec << " -> " << model.name() << " (" << request.method.method << ")";
  if (request.sinks.empty()) {
    std::cout << "; no sink given\n";
  } else {
    std::cout << "; not opened:";
    for (const std::string& sink : request.sinks) std::cout << " " << sink;
    std::cout << "\n";
  }
  std::cerr << "dry run: reading the source for " << fixed(seconds_to_read, 1) << " s; nothing is sent to the robot\n";

  g_stop.store(false);
  std::signal(SIGINT, onStopSignal);
  std::signal(SIGTERM, onStopSignal);
  std::vector<SkeletonFrame<double>> skeletons;
  BvhMotion channels;
  if (source.givesChannels() && source.hierarchy() != nullptr) {
    channels = *source.hierarchy();
    channels.values.clear();
    channels.frame_count = 0;
  }
  std::vector<Eigen::VectorXd> qs;
  std::vector<double> times;
  std::uint64_t clamped = 0, held = 0, invalid = 0;
  LiveFrame frame;
  Eigen::VectorXd q = model.neutralConfiguration();
  const auto start = LiveClock::now();
  while (!g_stop.load() && !source.finished() && qs.size() < kMostDryRunFrames &&
         std::chrono::duration<double>(LiveClock::now() - start).count() < seconds_to_read) {
    if (!source.read(frame, 50)) continue;
    if (source.givesChannels()) {
      channels.values.insert(channels.values.end(), frame.channels.data(), frame.channels.data() + frame.channels.size());
      ++channels.frame_count;
    } else {
      skeletons.push_back(frame.skeleton);
      skeletons.back().time = frame.time;
    }
    const Status status = map_one(frame, q);
    clamped += status.has(StatusCode::kClamped) ? 1 : 0;
    held += status.has(StatusCode::kDegenerateInput) ? 1 : 0;
    invalid += status.has(StatusCode::kInvalidInput) ? 1 : 0;
    qs.push_back(q);
    times.push_back(frame.time);
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (qs.empty()) {
    throw Error("live --dry-run: no frame from " + request.source.spec + " in " + fixed(seconds_to_read, 1) +
                " s (dropped " + std::to_string(source.dropped()) +
                (source.dropReasons().empty() ? "" : ": " + source.dropReasons()) +
                "); check the sender's address and port (docs/adapters.md)");
  }

  std::vector<std::string> warnings;
  std::vector<double> channel_times;
  if (source.givesChannels() && channels.frame_count > 0) {
    // The channel frames as skeletons (the automatic rig binding), for the body's size and facing.
    try {
      channels.frame_time = 1.0 / 120.0;  // replaced by the frames' own times below
      SkeletonMotion<double> motion = bvhToSkeleton(channels);
      skeletons = std::move(motion.frames);
      for (std::size_t k = 0; k < skeletons.size() && k < times.size(); ++k) skeletons[k].time = times[k];
    } catch (const Error& e) {
      warnings.push_back(std::string("the channel frames could not be read as a skeleton: ") + e.what());
    }
  }

  // The input.
  const InputSurvey input = surveyInput(skeletons);
  std::cout << "input: " << qs.size() << " frames in " << fixed(times.back() - times.front(), 2) << " s, "
            << (std::isfinite(input.rate) ? fixed(input.rate, 1) + " Hz" : std::string("rate unknown"))
            << " (median interval), largest gap " << fixed(input.largest_gap, 3) << " s, " << input.gaps
            << " interval(s) over twice the median; source dropped " << source.dropped()
            << (source.dropReasons().empty() ? "" : " (" + source.dropReasons() + ")") << "\n";
  if (std::isfinite(input.rate) && input.rate < kSlowRate) {
    warnings.push_back("the input comes at " + fixed(input.rate, 1) + " Hz: the robot will move in visible steps");
  }
  if (input.largest_gap > kLongGap) {
    warnings.push_back("the input paused for " + fixed(input.largest_gap, 2) + " s: the robot holds its pose then jumps");
  }
  if (!skeletons.empty()) {
    std::string poor;
    int tracked_everywhere = 0;
    for (int j = 0; j < kHumanJointCount; ++j) {
      const double usable = input.usable[static_cast<std::size_t>(j)];
      tracked_everywhere += input.tracked[static_cast<std::size_t>(j)] >= 1.0 ? 1 : 0;
      if (usable < kPoorlyTracked) {
        poor += (poor.empty() ? "" : ", ") + std::string(name(static_cast<HumanJoint>(j))) + " " +
                fixed(100.0 * usable, 0) + " %";
      }
    }
    std::cout << "joints: " << tracked_everywhere << " of " << kHumanJointCount << " tracked in every frame"
              << (poor.empty() ? "" : "; usable in under half of the frames: " + poor) << "\n";
    if (!poor.empty()) warnings.push_back("joints usable in under half of the frames: " + poor);
    std::cout << "body: head joint " << fixed(input.head_above_ankles, 2) << " m above the ankles, shoulders "
              << fixed(input.shoulder_width, 2) << " m apart, facing " << fixed(input.facing, 0)
              << " deg from the source's forward (spread " << fixed(input.facing_spread, 0)
              << " deg; for a Kinect 0 = toward the sensor)\n";
    if (!(input.head_above_ankles >= kShortestBody && input.head_above_ankles <= kTallestBody)) {
      warnings.push_back("the head joint is " + fixed(input.head_above_ankles, 2) +
                         " m above the ankles (a standing adult: 1.3-1.7 m): the person sits, is partly out of "
                         "view, or the source's units are wrong");
    }
    if (std::isfinite(input.facing) && std::abs(input.facing) > kTurnedAway) {
      warnings.push_back("the body faces " + fixed(input.facing, 0) + " deg away from the source's forward");
    }
  }
#ifdef RETARGET_CLI_WITH_NOITOM
  if (source.givesChannels() && channels.frame_count >= 10) {
    NoitomOrderCheckOptions check_options;
    check_options.frames = std::min(channels.frame_count, 120);
    check_options.stride = std::max(1, channels.frame_count / check_options.frames);
    NoitomRotationOrderCheck check(*source.hierarchy(), check_options);
    bool ready = false;
    for (int f = 0; f < channels.frame_count && !ready; ++f) {
      const Eigen::Map<const Eigen::VectorXd> row(channels.values.data() + static_cast<std::ptrdiff_t>(f) * channels.channel_count,
                                                  channels.channel_count);
      ready = check.add(row);
    }
    if (ready) {
      const NoitomOrderReport order = check.report();
      std::cout << "rotation order: the hierarchy's " << order.hierarchy_order << ", the lowest point of the body moves "
                << fixed(order.hierarchy_spread, 1) << " (file units) in it; "
                << (order.mismatch ? "the frames look like " + order.likely_order : std::string("no sign of another order"))
                << "\n";
      if (order.mismatch) {
        warnings.push_back("the stream looks like rotation order " + order.likely_order + ", not the hierarchy's " +
                           order.hierarchy_order + " (set the sender's order, or pass its exported hierarchy)");
      }
    }
  }
#endif

  // The mapped angles against the robot's limits.
  const std::vector<CoordinateSurvey> coordinates = surveyTrajectory(model, qs, times);
  std::cout << "mapped: " << qs.size() << " frames; clamped " << clamped << ", held " << held << ", invalid " << invalid
            << "\n";
  std::cout << "  coordinate                    first      min      max    lower    upper  at-limit  fastest/s  limit/s  "
               "from-neutral\n";
  // Warnings by kind, one line each, naming the coordinates.
  std::string too_fast, big_first_step, on_limit;
  const auto append = [](std::string& list, const std::string& item) { list += (list.empty() ? "" : ", ") + item; };
  const Eigen::VectorXd neutral = model.neutralConfiguration();
  for (int i = 0; i < model.nq(); ++i) {
    const CoordinateSurvey& c = coordinates[static_cast<std::size_t>(i)];
    const auto column = [](const std::string& text, std::size_t width) {
      return std::string(width > text.size() ? width - text.size() : 0, ' ') + text;
    };
    const double at_limit_share = static_cast<double>(c.at_limit) / static_cast<double>(qs.size());
    std::string name_column = model.qName(i).substr(0, 28);
    name_column.resize(28, ' ');
    std::cout << "  " << name_column << column(fixed(c.first, 3), 7) << column(fixed(c.min, 3), 9)
              << column(fixed(c.max, 3), 9) << column(fixed(c.lower, 3), 9) << column(fixed(c.upper, 3), 9)
              << column(fixed(100.0 * at_limit_share, 0) + " %", 10) << column(fixed(c.largest_speed, 2), 11)
              << column(std::isfinite(c.velocity_limit) ? fixed(c.velocity_limit, 2) : std::string("-"), 9)
              << column(fixed(c.first_step, 3), 14) << "\n";
    if (c.largest_speed > c.velocity_limit) {
      append(too_fast, model.qName(i) + " " + fixed(c.largest_speed, 2) + " > " + fixed(c.velocity_limit, 2));
    }
    if (c.first_step > kBigFirstStep) append(big_first_step, model.qName(i) + " " + fixed(c.first_step, 2));
    // A coordinate the mapper leaves at a neutral value on its limit (a hand the method does not
    // drive) is not a warning.
    const bool left_at_neutral = c.min == c.max && c.min == neutral[i];
    if (at_limit_share > kMostlyAtLimit && !left_at_neutral) {
      append(on_limit, model.qName(i) + " " + fixed(100.0 * at_limit_share, 0) + " %");
    }
  }
  if (!too_fast.empty()) {
    warnings.push_back("faster than the robot's velocity limit (largest mapped speed > limit, per s): " + too_fast +
                       "; the robot (or the sink's speed limit) lags behind these");
  }
  if (!big_first_step.empty()) {
    warnings.push_back("the first frame is far from the neutral pose (rad or m): " + big_first_step +
                       "; a robot at rest moves these at once");
  }
  if (!on_limit.empty()) warnings.push_back("on a position limit in over half of the frames: " + on_limit);
  for (const std::string& warning : warnings) std::cout << "warning: " << warning << "\n";
  std::cout << "dry run: " << warnings.size() << " warning(s); nothing was sent\n";
}

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

  if (request.dry_run) {
    Eigen::VectorXd q_mapped = model.neutralConfiguration();
    dryRun(request, model, *source, [&](const LiveFrame& frame, Eigen::VectorXd& q) {
      Status status = source->givesChannels() ? mapper.map_channels(frame.channels, q_mapped)
                                              : mapper.map_skeleton(frame.skeleton, q_mapped);
      q = q_mapped;
#ifdef RETARGET_CLI_WITH_AVOIDANCE
      if (avoidance) status |= avoidance->apply(q_mapped, q);
#endif
      return status;
    });
    return;
  }

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
        input_lost = true;  // the sinks get nothing more: the NAO bridge holds, relaxes, rests after its timeouts
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
  // Files flushed; the NAO bridge sees the disconnect as a gap: it holds the pose, relaxes the arms
  // after its --relax-after and rests the robot after its --rest-after (not at once).
  for (auto& sink : sinks) sink->close();
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
      command.add_option("--method", request->method.method, methodNames(" | "))
          ->required();
      command.add_option("--config", request->method.config_path,
                         "method configuration file (ga-lvvj, euler, humanoid; with --whole-body the method's "
                         "whole-body configuration)");
      command.add_flag(
          "--whole-body", request->method.whole_body,
          "ga-lvvj, humanoid: the whole-body pipeline (support modes, balance QP); send the legs with --nao-legs");
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
      command.add_flag("--dry-run", request->dry_run,
                       "open no sink: read the source for --duration s (default 5), map the frames and print the "
                       "input's rate, gaps, tracked joints, body size and facing and the mapped angles against the "
                       "robot's limits, with warnings");
      command.add_option("--serial-settle", request->sink_options.serial_settle,
                         "serial sink: s after opening the port during which frames are dropped (an Arduino resets "
                         "on open; 0 for a device that does not)")
          ->check(CLI::Range(0.0, 59.0));
      command.add_option("--serial-max-speed", request->sink_options.serial_max_speed,
                         "serial sink: deg/s each joint moves at most (default 45, MyRobotLab's InMoov servo speed; "
                         "the robot's own velocity limit when lower); the frames start at the rest pose")
          ->check(CLI::Range(0.1, 10000.0));
      command.callback([request] { runLive(*request); });
    }});

}  // namespace
}  // namespace retarget::cli
