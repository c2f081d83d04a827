// Sources and sinks of `retarget live` (see live_io.hpp).
#include "live_io.hpp"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <string_view>

#include <retarget/adapters/replay/replay_clock.hpp>
#include <retarget/adapters/serial/serial_port.hpp>
#include <retarget/adapters/serial/servo_degrees.hpp>
#include <retarget/human/bvh_templates.hpp>
#include <retarget/core/internal/number.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/csv_recorders.hpp>
#include <retarget/io/serial_frame.hpp>
#ifdef RETARGET_CLI_WITH_KINECT_OSC
#include <retarget/adapters/kinect/kinect_osc_source.hpp>
#include <retarget/adapters/kinect/sensor_tilt.hpp>
#endif
#ifdef RETARGET_CLI_WITH_NOITOM
#include <retarget/adapters/noitom/noitom_source.hpp>
#include <retarget/adapters/noitom/rotation_order_check.hpp>
#endif
#ifdef RETARGET_CLI_WITH_NAO
#include <retarget/adapters/nao/nao_command_sink.hpp>
#endif

#include "cli.hpp"
#include "motion_loading.hpp"

namespace retarget::cli {
namespace {

// "kind:rest" -> kind, rest.
std::pair<std::string, std::string> splitSpec(const std::string& spec, const char* what) {
  const std::size_t colon = spec.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size()) {
    throw UsageError(std::string("live: ") + what + " '" + spec + "' is not KIND:WHERE");
  }
  return {spec.substr(0, colon), spec.substr(colon + 1)};
}

// "HOST:PORT" -> host, port (the port after the last colon). Unused in a build without asio.
[[maybe_unused]] std::pair<std::string, std::string> hostPort(const std::string& text, const std::string& spec) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) {
    throw UsageError("live: '" + spec + "' needs HOST:PORT");
  }
  return {text.substr(0, colon), text.substr(colon + 1)};
}

template <typename Counts, typename NameOf>
std::string reasons(const Counts& counts, NameOf name_of) {
  std::string text;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    text += (text.empty() ? "" : ", ") + std::string(name_of(i)) + " " + std::to_string(counts[i]);
  }
  return text;
}

// ---- replays -----------------------------------------------------------------------------

class SkeletonReplay final : public LiveSource {
 public:
  SkeletonReplay(const std::string& path, const ReplayOptions& options)
      : motion_(loadMotion(path)), clock_(frameTimes(motion_), options) {}

  bool read(LiveFrame& frame, int timeout_ms) override {
    std::size_t k = 0;
    double replay_time = 0;
    if (!clock_.next(timeout_ms, k, replay_time)) return false;
    frame.skeleton = motion_.frames[k];
    frame.time = motion_.frames.front().time + replay_time;
    frame.skeleton.time = frame.time;
    frame.arrival = LiveClock::now();
    return true;
  }
  bool finished() const override { return clock_.finished(); }
  std::uint64_t dropped() const override { return 0; }
  std::string dropReasons() const override { return ""; }
  bool givesChannels() const override { return false; }

 private:
  static std::vector<double> frameTimes(const SkeletonMotion<double>& motion) {
    std::vector<double> times;
    for (const auto& frame : motion.frames) times.push_back(frame.time);
    return times;
  }
  SkeletonMotion<double> motion_;
  ReplayClock clock_;
};

class BvhReplay final : public LiveSource {
 public:
  BvhReplay(const std::string& path, const ReplayOptions& options)
      : motion_(readBvh(path)), clock_(frameTimes(motion_, path), options) {}

  bool read(LiveFrame& frame, int timeout_ms) override {
    std::size_t k = 0;
    double replay_time = 0;
    if (!clock_.next(timeout_ms, k, replay_time)) return false;
    frame.channels = motion_.frameValues(static_cast<int>(k));
    frame.time = replay_time;
    frame.arrival = LiveClock::now();
    return true;
  }
  bool finished() const override { return clock_.finished(); }
  std::uint64_t dropped() const override { return 0; }
  std::string dropReasons() const override { return ""; }
  bool givesChannels() const override { return true; }
  const BvhMotion* hierarchy() const override { return &motion_; }

 private:
  static std::vector<double> frameTimes(const BvhMotion& motion, const std::string& path) {
    if (motion.frame_count == 0) throw Error("live: '" + path + "' has no frames to replay");
    std::vector<double> times;
    for (int k = 0; k < motion.frame_count; ++k) times.push_back(k * motion.frame_time);
    return times;
  }
  BvhMotion motion_;
  ReplayClock clock_;
};

// ---- live devices ------------------------------------------------------------------------

#ifdef RETARGET_CLI_WITH_KINECT_OSC
// --sensor-tilt: nullopt for "auto" (estimated), else degrees (0 when not given).
std::optional<double> parseSensorTilt(const std::string& text) {
  if (text == "auto") return std::nullopt;
  if (text.empty()) return 0.0;
  double degrees = 0;
  const char* end = internal::parseNumber(text.data(), text.data() + text.size(), degrees);
  if (end != text.data() + text.size() || !(std::abs(degrees) <= 45)) {
    throw UsageError("live: --sensor-tilt takes degrees in [-45, 45] or 'auto' (got '" + text + "')");
  }
  return degrees * kPi<double> / 180.0;
}

class KinectOscLive final : public LiveSource {
 public:
  // tilt: rad (> 0: the sensor looks down), or nullopt to estimate it from the first frames.
  KinectOscLive(const KinectOscSourceOptions& options, std::optional<double> tilt)
      : source_(options), tilt_(tilt.value_or(0.0)), estimating_(!tilt) {}

  bool read(LiveFrame& frame, int timeout_ms) override {
    if (!source_.read(frame.skeleton, timeout_ms)) return false;
    frame.arrival = source_.epoch() + std::chrono::duration_cast<LiveClock::duration>(
                                          std::chrono::duration<double>(frame.skeleton.time));
    frame.time = clock_.stamp(frame.arrival);
    frame.skeleton.time = frame.time;
    if (estimating_) {
      // The running estimate levels the frames while the first ones are collected.
      const bool ready = estimator_.add(frame.skeleton);
      tilt_ = estimator_.tilt();
      if (ready) {
        estimating_ = false;
        std::cerr << "live: sensor tilt estimated " << fixed(tilt_ * 180.0 / kPi<double>, 1) << " deg from "
                  << (estimator_.source() == SensorTiltSource::kFloorPlane ? "the floor under the feet" : "the body's vertical")
                  << " (" << estimator_.frameCount() << " frames)\n";
      }
    }
    if (tilt_ != 0.0) levelSensorTilt(frame.skeleton, tilt_);
    return true;
  }
  std::uint64_t dropped() const override { return source_.counters().droppedTotal() + source_.malformed(); }
  std::string dropReasons() const override {
    std::string text = reasons(source_.counters().dropped,
                               [](std::size_t i) { return kinectOscDropName(static_cast<KinectOscDrop>(i)); });
    if (source_.malformed() > 0) text += (text.empty() ? "" : ", ") + std::string("not-osc ") + std::to_string(source_.malformed());
    return text;
  }
  bool givesChannels() const override { return false; }
  std::string state() const override { return "UDP port " + std::to_string(source_.port()); }

 private:
  KinectOscSource source_;
  SessionClock clock_;
  double tilt_ = 0;  // rad
  bool estimating_ = false;
  SensorTiltEstimator estimator_;
};
#endif

#ifdef RETARGET_CLI_WITH_NOITOM
template <typename Source, typename Options>
class NoitomLive final : public LiveSource {
 public:
  NoitomLive(BvhMotion hierarchy, const Options& options) : hierarchy_(std::move(hierarchy)), source_(hierarchy_, options) {}

  bool read(LiveFrame& frame, int timeout_ms) override {
    if (!source_.read(frame_, timeout_ms)) return false;
    frame.channels = frame_.channels;
    frame.arrival = source_.epoch() + std::chrono::duration_cast<LiveClock::duration>(std::chrono::duration<double>(frame_.time));
    frame.time = clock_.stamp(frame.arrival);
    checkRotationOrder();
    return true;
  }
  std::uint64_t dropped() const override { return source_.counters().droppedTotal(); }
  std::string dropReasons() const override {
    return reasons(source_.counters().dropped, [](std::size_t i) { return noitomDropName(static_cast<NoitomDrop>(i)); });
  }
  bool givesChannels() const override { return true; }
  const BvhMotion* hierarchy() const override { return &hierarchy_; }
  std::string state() const override {
    if constexpr (std::is_same_v<Source, NoitomTcpSource>) {
      return std::string(source_.connected() ? "connected" : "not connected") + " (connects " +
             std::to_string(source_.connection().connects) + ")";
    } else {
      return "UDP port " + std::to_string(source_.port());
    }
  }

 private:
  // The first frames against the hierarchy's rotation order (rotation_order_check.hpp): a
  // warning once, when they say the sender uses another order.
  void checkRotationOrder() {
    if (order_checked_ || !order_check_.add(frame_.channels)) return;
    order_checked_ = true;
    const NoitomOrderReport report = order_check_.report();
    if (report.mismatch) {
      std::cerr << "live: warning: the stream looks like rotation order " << report.likely_order << ", not the hierarchy's "
                << report.hierarchy_order << " (the lowest point of the body moves " << fixed(report.hierarchy_spread, 1)
                << " in the hierarchy's order, " << fixed(report.likely_spread, 1)
                << " in " << report.likely_order << "): set Axis Neuron's rotation order to " << report.hierarchy_order
                << ", or export its hierarchy with the current settings and pass it with --hierarchy\n";
    }
  }

  BvhMotion hierarchy_;
  Source source_;
  NoitomFrame frame_;
  SessionClock clock_;
  NoitomRotationOrderCheck order_check_{hierarchy_};
  bool order_checked_ = false;
};
#endif

// ---- sinks -------------------------------------------------------------------------------

class TrajectoryCsvSink final : public LiveSink {
 public:
  TrajectoryCsvSink(const std::string& path, const RobotModel<double>& model) : recorder_(path, model.qNames()) {}
  bool write(const LiveFrame& input, const Eigen::VectorXd& q) override { return recorder_.record(input.time, q); }
  void close() override { recorder_.close(); }
  std::uint64_t dropped() const override { return recorder_.skipped(); }
  std::string account() const override {
    return "csv " + recorder_.path() + ": " + std::to_string(recorder_.written()) + " rows";
  }

 private:
  JointTrajectoryCsvRecorder recorder_;
};

class SkeletonCsvSink final : public LiveSink {
 public:
  explicit SkeletonCsvSink(const std::string& path) : recorder_(path) {}
  bool write(const LiveFrame& input, const Eigen::VectorXd&) override { return recorder_.record(input.skeleton); }
  void close() override { recorder_.close(); }
  std::uint64_t dropped() const override { return recorder_.skipped(); }
  std::string account() const override {
    return "skeleton-csv " + recorder_.path() + ": " + std::to_string(recorder_.written()) + " frames";
  }

 private:
  SkeletonCsvRecorder recorder_;
};

// Robot angles as serial frames (io/serial_frame.hpp), time stamp in ms mod 65536, positions
// (docs/serial_protocol.md) either the paper's one-byte servo degrees through the InMoov servo
// table (adapters/serial/inmoov_servo_table.hpp; robot "inmoov" only, what the firmware in
// apps/inmoov_firmware reads) or one signed 16-bit value per q coordinate in hundredths of a
// degree (any robot).
//
// Speed limit (docs/serial_protocol.md): the frames start from the rest pose (q = 0 within the
// limits; the InMoov servo table's rest positions) when frames begin to go out (the port open
// and settled, again after a reconnect, which resets an Arduino), and from there each
// coordinate moves at most v_i * dt per frame, v_i = min(the model's velocity limit,
// --serial-max-speed) in rad/s and dt the frames' time difference in s, at most 0.1 s (after
// a pause in the input the robot resumes at the limited speed too).
class SerialSink final : public LiveSink {
 public:
  SerialSink(const LiveSinkRequest& request, const std::string& device, const RobotModel<double>& model)
      : servo_degrees_(servoDegrees(request, model)),
        format_(formatFor(model, servo_degrees_)),
        rest_(Eigen::VectorXd::Zero(model.nq()).cwiseMax(model.lowerLimits()).cwiseMin(model.upperLimits())),
        limiter_(model.nq(), limiterOptions(request, model)),
        port_(std::make_unique<SerialPort>(portOptions(device, request, format_))),
        positions_(model.nq()),
        bytes_(format_.frameSize()) {}

  bool write(const LiveFrame& input, const Eigen::VectorXd& q_mapped) override {
    if (q_mapped.size() != limiter_.size() || !q_mapped.allFinite()) return false;  // nothing sent
    limitSpeed(input.time, q_mapped);
    const Eigen::VectorXd& q = limiter_.value();
    if (servo_degrees_) {
      const Status status = inmoovServoDegrees(q, positions_);
      if (status == Status(StatusCode::kInvalidInput)) return false;  // non-finite q: nothing sent
    } else {
      for (Eigen::Index i = 0; i < q.size(); ++i) {
        positions_[i] = static_cast<int>(std::lround(std::clamp(q[i] * 18000.0 / M_PI, -32768.0, 32767.0)));
      }
    }
    const auto stamp = static_cast<std::uint16_t>(static_cast<long long>(std::floor(input.time * 1000.0)) & 0xFFFF);
    (void)writeSerialFrame(format_, stamp, positions_, bytes_.data(), bytes_.size());  // sizes fixed above
    return port_ != nullptr && port_->write(bytes_.data(), bytes_.size());
  }
  void service() override {
    if (port_ != nullptr) port_->service();
  }
  void close() override {
    if (port_ == nullptr) return;
    counters_ = port_->counters();
    port_.reset();
  }
  std::uint64_t dropped() const override {
    const SerialPortCounters& c = port_ != nullptr ? port_->counters() : counters_;
    return c.busy + c.disconnected + c.too_large + c.lost + c.settling;
  }
  std::string account() const override {
    const SerialPortCounters& c = port_ != nullptr ? port_->counters() : counters_;
    return std::string("serial (") + (servo_degrees_ ? "servo-degrees" : "centidegrees") + "): written " +
           std::to_string(c.written) + ", speed-limited " + std::to_string(speed_limited_) + ", busy " +
           std::to_string(c.busy) + ", settling " +
           std::to_string(c.settling) + ", disconnected " + std::to_string(c.disconnected) + ", reconnects " +
           std::to_string(c.reconnects);
  }

 private:
  // servo-degrees needs the InMoov servo table, so robot "inmoov"; without --serial-encoding the
  // encoding follows the robot (servo degrees for the InMoov, centidegrees otherwise).
  static bool servoDegrees(const LiveSinkRequest& request, const RobotModel<double>& model) {
    const bool inmoov = model.name() == "inmoov" && model.nq() == kInMoovServoCount;
    if (request.serial_encoding.empty()) return inmoov;
    if (request.serial_encoding == "centidegrees") return false;
    if (request.serial_encoding != "servo-degrees") {
      throw UsageError("live: unknown --serial-encoding '" + request.serial_encoding +
                       "' (known: servo-degrees, centidegrees)");
    }
    if (!inmoov) {
      throw UsageError("live --serial-encoding servo-degrees: the servo table exists for robot 'inmoov' only (got '" +
                       model.name() + "'); use --serial-encoding centidegrees");
    }
    return true;
  }
  // Per coordinate: the model's velocity limit or the --serial-max-speed cap (deg/s), the smaller.
  static RateLimiterOptions limiterOptions(const LiveSinkRequest& request, const RobotModel<double>& model) {
    RateLimiterOptions options;
    const double cap = request.serial_max_speed * M_PI / 180.0;
    options.max_rates = model.velocityLimits().cwiseMin(cap);
    return options;
  }
  // Moves limiter_ one frame toward q (see the class comment). While no frame can go out the
  // limiter waits at rest, so the first frame that goes out is the rest pose.
  void limitSpeed(double time, const Eigen::VectorXd& q) {
    constexpr double kLongestStep = 0.1;  // s
    if (port_ == nullptr || !port_->connected() || port_->settling()) {
      started_ = false;
      return;
    }
    if (!started_) {
      limiter_.reset();
      (void)limiter_.update(rest_, 1.0);  // the first sample sets the value
      started_ = true;
      last_time_ = time;
      return;
    }
    const double dt = std::min(time - last_time_, kLongestStep);
    last_time_ = time;
    if (!(dt > 0.0)) return;  // time went back (a looped replay): hold this frame
    if (limiter_.update(q, dt).has(StatusCode::kRateLimited)) ++speed_limited_;
  }
  static SerialFrameFormat formatFor(const RobotModel<double>& model, bool servo_degrees) {
    SerialFrameFormat format;
    format.joint_count = static_cast<std::size_t>(model.nq());
    format.encoding = servo_degrees ? SerialJointEncoding::kUint8 : SerialJointEncoding::kInt16;
    format.validate();
    return format;
  }
  static SerialPortOptions portOptions(const std::string& device, const LiveSinkRequest& request,
                                       const SerialFrameFormat& format) {
    SerialPortOptions options;
    options.device = device;
    options.baud = request.baud;
    options.settle_time = request.serial_settle;
    options.max_message_size = format.frameSize();
    return options;
  }
  bool servo_degrees_;
  SerialFrameFormat format_;
  Eigen::VectorXd rest_;       // rad, where the frames start
  RateLimiter<double> limiter_;
  bool started_ = false;       // limiter_ holds the last frame sent (else: start at rest)
  double last_time_ = 0;       // s, the last frame's time
  std::uint64_t speed_limited_ = 0;
  std::unique_ptr<SerialPort> port_;
  SerialPortCounters counters_{};
  Eigen::VectorXi positions_;
  std::vector<std::uint8_t> bytes_;
};

#ifdef RETARGET_CLI_WITH_NAO
// Leg joints (NAOqi names) stay out of the commands unless asked for: GA-LVVJ's leg angles
// without the balance stage could topple a standing robot; NAO's own balance keeps its legs.
bool isLegJoint(const std::string& name) {
  for (const char* part : {"Hip", "Knee", "Ankle"}) {
    if (name.find(part) != std::string::npos) return true;
  }
  return false;
}

class NaoSink final : public LiveSink {
 public:
  NaoSink(const std::vector<std::string>& q_names, bool legs, const NaoCommandSinkOptions& options)
      : sink_(selectedNames(q_names, legs, indices_), options), selected_(static_cast<Eigen::Index>(indices_.size())) {}
  bool write(const LiveFrame&, const Eigen::VectorXd& q) override {
    for (std::size_t i = 0; i < indices_.size(); ++i) selected_[static_cast<Eigen::Index>(i)] = q[indices_[i]];
    return sink_.send(selected_);
  }
  void service() override { sink_.service(); }
  void close() override { sink_.close(); }
  std::uint64_t dropped() const override { return sink_.counters().dropped(); }
  std::string account() const override {
    const NaoSinkCounters& c = sink_.counters();
    return "nao (" + std::to_string(indices_.size()) + " joints): sent " + std::to_string(c.sent) + ", busy " +
           std::to_string(c.busy) + ", rate " + std::to_string(c.rate) + ", disconnected " +
           std::to_string(c.disconnected) + ", connects " + std::to_string(c.connects) +
           (c.unanswered > 0 ? ", unanswered " + std::to_string(c.unanswered) : std::string()) +
           (c.silent_bridge > 0 ? ", silent bridge " + std::to_string(c.silent_bridge) + " (connected, never answered)"
                                : std::string()) +
           (c.bridge_errors > 0 ? ", bridge errors " + std::to_string(c.bridge_errors) + " (last: " +
                                      std::string(sink_.lastBridgeError()) + ")"
                                : std::string());
  }

 private:
  static std::vector<std::string> selectedNames(const std::vector<std::string>& q_names, bool legs,
                                                std::vector<Eigen::Index>& indices) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < q_names.size(); ++i) {
      if (legs || !isLegJoint(q_names[i])) {
        names.push_back(q_names[i]);
        indices.push_back(static_cast<Eigen::Index>(i));
      }
    }
    return names;
  }
  std::vector<Eigen::Index> indices_;  // before sink_: filled while sink_ is built
  NaoCommandSink sink_;
  Eigen::VectorXd selected_;
};
#endif

}  // namespace

std::unique_ptr<LiveSource> openLiveSource(const LiveSourceRequest& request) {
  const auto [kind, where] = splitSpec(request.spec, "source");
  if (kind == "replay") {
    const ReplayOptions options{request.replay_speed, request.loop};
    if (request.channels) {
      if (detectMotionFile(where) != MotionFileKind::kBvh) {
        throw UsageError("live: --method euler replays BVH files only (got '" + where + "')");
      }
      return std::make_unique<BvhReplay>(where, options);
    }
    return std::make_unique<SkeletonReplay>(where, options);
  }
  if (!request.sensor_tilt.empty() && kind != "kinect-osc") {
    throw UsageError("live: --sensor-tilt applies to kinect-osc sources (got '" + kind + "')");
  }
  if (kind == "kinect-osc") {
    if (request.channels) throw UsageError("live: kinect-osc gives skeletons; --method euler needs a BVH source");
#ifdef RETARGET_CLI_WITH_KINECT_OSC
    KinectOscSourceOptions options;
    const std::size_t colon = where.rfind(':');
    if (colon != std::string::npos && where.substr(0, colon) != "0.0.0.0") {
      throw UsageError("live: kinect-osc listens on every interface; give PORT or 0.0.0.0:PORT (got '" + where + "')");
    }
    options.port = colon == std::string::npos ? where : where.substr(colon + 1);
    options.assembly.body_id = static_cast<std::uint64_t>(request.body);
    return std::make_unique<KinectOscLive>(options, parseSensorTilt(request.sensor_tilt));
#else
    throw missingPart("live --source kinect-osc", "kinect_osc", "liblo-dev");
#endif
  }
  if (kind == "noitom-tcp" || kind == "noitom-udp") {
    if (!request.channels) throw UsageError("live: " + kind + " gives BVH channels; use --method euler");
    if (request.hierarchy_path.empty()) {
      throw UsageError("live: " + kind + " needs --hierarchy axis-neuron | axis-studio | FILE.bvh (the hierarchy the sender exports)");
    }
#ifdef RETARGET_CLI_WITH_NOITOM
    BvhMotion hierarchy = request.hierarchy_path == "axis-neuron"   ? axisNeuronTemplate()
                          : request.hierarchy_path == "axis-studio" ? axisStudioTemplate()
                                                                    : readBvh(request.hierarchy_path);
    if (kind == "noitom-tcp") {
      NoitomTcpSourceOptions options;
      std::tie(options.host, options.port) = hostPort(where, request.spec);
      return std::make_unique<NoitomLive<NoitomTcpSource, NoitomTcpSourceOptions>>(std::move(hierarchy), options);
    }
    NoitomUdpSourceOptions options;
    options.port = where;
    return std::make_unique<NoitomLive<NoitomUdpSource, NoitomUdpSourceOptions>>(std::move(hierarchy), options);
#else
    throw missingPart("live --source " + kind, "noitom", "libasio-dev");
#endif
  }
  throw UsageError("live: unknown source '" + kind + "' (known: kinect-osc, noitom-tcp, noitom-udp, replay)");
}

std::unique_ptr<LiveSink> openLiveSink(const LiveSinkRequest& request, const RobotModel<double>& model,
                                       bool skeleton_input) {
  const auto [kind, where] = splitSpec(request.spec, "sink");
  if (kind == "csv") return std::make_unique<TrajectoryCsvSink>(where, model);
  if (kind == "skeleton-csv") {
    if (!skeleton_input) throw UsageError("live: skeleton-csv records skeleton sources only (this one gives BVH channels)");
    return std::make_unique<SkeletonCsvSink>(where);
  }
  if (kind == "serial") return std::make_unique<SerialSink>(request, where, model);
  if (kind == "nao") {
#ifdef RETARGET_CLI_WITH_NAO
    NaoCommandSinkOptions options;
    std::tie(options.host, options.port) = hostPort(where, request.spec);
    options.speed = request.nao_speed;
    options.max_rate = request.nao_rate;
    return std::make_unique<NaoSink>(model.qNames(), request.nao_legs, options);
#else
    throw missingPart("live --sink nao", "nao", "libasio-dev");
#endif
  }
  throw UsageError("live: unknown sink '" + kind + "' (known: nao, serial, csv, skeleton-csv)");
}

}  // namespace retarget::cli
