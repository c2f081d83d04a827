#pragma once

// The sources and sinks of `retarget live`, behind two small interfaces so the loop (live.cpp)
// does not care which device it talks to. Sources the build lacks (no liblo, no asio) are
// refused with a UsageError naming the missing library.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget::cli {

using LiveClock = std::chrono::steady_clock;

/// One input frame: a skeleton (Kinect, skeleton replays) or BVH channel values (Noitom, BVH
/// replays for the Euler mapper).
struct LiveFrame {
  SkeletonFrame<double> skeleton;
  Eigen::VectorXd channels;
  /// The frame's time for recordings, s: the file's time for a replay, else the session's
  /// time of its arrival (`SessionClock`: increasing across reconnects).
  double time = 0;
  /// When the frame arrived (its last datagram or byte; a replay: when it fell due).
  LiveClock::time_point arrival{};
};

/// The one clock of a live session's device frames: seconds since the session opened, from
/// the frames' arrival on the steady clock, never back and never twice the same (frames that
/// arrive together, in one read, are a microsecond apart), whatever the senders do (restart,
/// reconnect, restart their own counters). Recordings then keep every frame.
class SessionClock {
 public:
  /// Seconds since the clock was made for a frame that arrived at `arrival`.
  double stamp(LiveClock::time_point arrival) {
    const double t = std::chrono::duration<double>(arrival - start_).count();
    last_ = t > last_ ? t : last_ + kTick;
    return last_;
  }

 private:
  static constexpr double kTick = 1e-6;  // s
  LiveClock::time_point start_ = LiveClock::now();
  double last_ = -kTick;
};

/// What a source gives: frames, and what it dropped.
class LiveSource {
 public:
  virtual ~LiveSource() = default;
  /// Waits up to timeout_ms for the next frame; false when none came. Never throws.
  virtual bool read(LiveFrame& frame, int timeout_ms) = 0;
  /// True when no frame will ever come again (a replay that ended).
  virtual bool finished() const { return false; }
  /// Input dropped so far (messages, datagrams or frames), and the counts by reason
  /// ("duplicate 2, non-finite 1"; empty when nothing was dropped).
  virtual std::uint64_t dropped() const = 0;
  virtual std::string dropReasons() const = 0;
  /// True when frames carry BVH channel values (for the Euler mapper), false for skeletons.
  virtual bool givesChannels() const = 0;
  /// The hierarchy of channel sources.
  virtual const BvhMotion* hierarchy() const { return nullptr; }
  /// One line on the source's connection, for the status line ("" when nothing to say).
  virtual std::string state() const { return ""; }
};

/// What the source specification asks for (see `retarget live --help`).
struct LiveSourceRequest {
  std::string spec;            // kinect-osc:[HOST:]PORT | noitom-tcp:HOST:PORT | noitom-udp:PORT | replay:FILE
  std::string hierarchy_path;  // --hierarchy (Noitom sources): axis-neuron | axis-studio | a BVH file
  bool channels = false;       // the method reads BVH channels (euler)
  double replay_speed = 1.0;   // --replay-speed
  bool loop = false;           // --loop
  long long body = 0;          // --body: kinect-osc tracking id to follow, 0 = the closest body
  std::string sensor_tilt;     // --sensor-tilt (kinect-osc): "" none, "auto", or degrees (> 0: looking down)
};

/// Opens the source. Throws UsageError for a bad specification or a source this build lacks,
/// retarget::Error for files and ports.
std::unique_ptr<LiveSource> openLiveSource(const LiveSourceRequest& request);

/// Where the robot's angles (and the human frames) go.
class LiveSink {
 public:
  virtual ~LiveSink() = default;
  /// Takes one mapped frame; never blocks or throws. False when the frame was dropped.
  virtual bool write(const LiveFrame& input, const Eigen::VectorXd& q) = 0;
  /// Runs pending work while no frame comes (reconnects, queued bytes).
  virtual void service() {}
  /// Stops cleanly (robot to rest, files flushed); may throw retarget::Error for a file.
  virtual void close() = 0;
  /// Commands or frames dropped so far, and a short account ("nao: sent 30, busy 1").
  virtual std::uint64_t dropped() const = 0;
  virtual std::string account() const = 0;
};

/// Sink options from the command line.
struct LiveSinkRequest {
  std::string spec;            // nao:HOST:PORT | serial:DEVICE | csv:PATH | skeleton-csv:PATH
  double nao_speed = 0.2;      // --nao-speed
  double nao_rate = 50;        // --nao-rate
  bool nao_legs = false;       // --nao-legs: send the leg joints too
  int baud = 115200;           // --baud
  std::string serial_encoding; // --serial-encoding servo-degrees | centidegrees; empty: by robot
  double serial_settle = 2.0;  // --serial-settle: s without frames after opening (board reset)
  double serial_max_speed = 45; // --serial-max-speed: deg/s cap per joint (MyRobotLab's InMoov servo speed)
};

/// Opens one sink for `model`. Throws UsageError for a bad specification or a sink this build
/// lacks, retarget::Error for files.
std::unique_ptr<LiveSink> openLiveSink(const LiveSinkRequest& request, const RobotModel<double>& model,
                                       bool skeleton_input);

}  // namespace retarget::cli
