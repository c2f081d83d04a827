// Sources and sinks of `retarget live` (see live_io.hpp).
#include "live_io.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <retarget/adapters/replay/replay_clock.hpp>
#include <retarget/adapters/serial/serial_port.hpp>
#include <retarget/human/bvh_templates.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/csv_recorders.hpp>
#include <retarget/io/serial_frame.hpp>
#ifdef RETARGET_CLI_WITH_KINECT_OSC
#include <retarget/adapters/kinect/kinect_osc_source.hpp>
#endif
#ifdef RETARGET_CLI_WITH_NOITOM
#include <retarget/adapters/noitom/noitom_source.hpp>
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
class KinectOscLive final : public LiveSource {
 public:
  explicit KinectOscLive(const KinectOscSourceOptions& options) : source_(options) {}

  bool read(LiveFrame& frame, int timeout_ms) override {
    if (!source_.read(frame.skeleton, timeout_ms)) return false;
    frame.time = frame.skeleton.time;
    frame.arrival = source_.epoch() + std::chrono::duration_cast<LiveClock::duration>(
                                          std::chrono::duration<double>(frame.skeleton.time));
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
    frame.time = frame_.time;
    frame.arrival = source_.epoch() + std::chrono::duration_cast<LiveClock::duration>(std::chrono::duration<double>(frame_.time));
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
  BvhMotion hierarchy_;
  Source source_;
  NoitomFrame frame_;
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

// Robot angles as serial frames (io/serial_frame.hpp): one signed 16-bit value per q
// coordinate, hundredths of a degree (docs/serial_protocol.md), time stamp in ms mod 65536.
class SerialSink final : public LiveSink {
 public:
  SerialSink(const std::string& device, int baud, const RobotModel<double>& model)
      : format_(formatFor(model)), port_(std::make_unique<SerialPort>(portOptions(device, baud, format_))), positions_(model.nq()),
        bytes_(format_.frameSize()) {}

  bool write(const LiveFrame& input, const Eigen::VectorXd& q) override {
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      positions_[i] = static_cast<int>(std::lround(std::clamp(q[i] * 18000.0 / M_PI, -32768.0, 32767.0)));
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
    return c.busy + c.disconnected + c.too_large + c.lost;
  }
  std::string account() const override {
    const SerialPortCounters& c = port_ != nullptr ? port_->counters() : counters_;
    return "serial: written " + std::to_string(c.written) + ", busy " + std::to_string(c.busy) + ", disconnected " +
           std::to_string(c.disconnected) + ", reconnects " + std::to_string(c.reconnects);
  }

 private:
  static SerialFrameFormat formatFor(const RobotModel<double>& model) {
    SerialFrameFormat format;
    format.joint_count = static_cast<std::size_t>(model.nq());
    format.encoding = SerialJointEncoding::kInt16;
    format.validate();
    return format;
  }
  static SerialPortOptions portOptions(const std::string& device, int baud, const SerialFrameFormat& format) {
    SerialPortOptions options;
    options.device = device;
    options.baud = baud;
    options.max_message_size = format.frameSize();
    return options;
  }
  SerialFrameFormat format_;
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
           std::to_string(c.disconnected) + ", connects " + std::to_string(c.connects);
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
    return std::make_unique<KinectOscLive>(options);
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
  if (kind == "serial") return std::make_unique<SerialSink>(where, request.baud, model);
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
