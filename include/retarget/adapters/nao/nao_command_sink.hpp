#pragma once

/// @file
/// Joint commands to a NAO through the bridge script that runs on the robot
/// (apps/nao_bridge/retarget_nao_bridge.py): one JSON line per command over TCP,
/// `{"names": [...], "angles": [...], "speed": s}` (NAOqi joint names, rad, fraction of the
/// joints' maximum speed), which the bridge passes to `ALMotion.setAngles`. CMake target
/// `retarget::nao` (needs asio, Debian libasio-dev); never included by retarget/retarget.hpp.
///
/// The bridge owns the robot's safety: it sets stiffness when it starts and sends the robot to
/// rest when its input stops for its timeout, when we disconnect and when it is stopped. So
/// closing this sink (or the program ending) rests the robot.
///
/// Never blocks the loop: `send` formats the command (no allocation), and hands it to a
/// non-blocking socket only when the previous command has gone out; otherwise it drops it
/// (`busy`). Commands closer together than 1 / `max_rate` are dropped (`rate`); while the
/// bridge is not connected they are dropped (`disconnected`) and a connection is tried every
/// `reconnect_interval`. `send` and `service` never throw.

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include <Eigen/Core>

#include <asio.hpp>

#include <retarget/adapters/internal/asio_wait.hpp>
#include <retarget/adapters/internal/port_text.hpp>
#include <retarget/core/error.hpp>

namespace retarget {

/// Options of `NaoCommandSink`.
struct NaoCommandSinkOptions {
  /// Host and port of the bridge (the robot's address; the bridge's default port).
  std::string host = "127.0.0.1";
  std::string port = "9600";
  /// Fraction of the joints' maximum speed in every command, (0, 1] (the bridge caps it with
  /// its own --max-speed).
  double speed = 0.2;
  /// Most commands per second, > 0 (NAO's motion cycle is 100 Hz; 50 leaves room).
  double max_rate = 50;
  /// s (> 0): how often to try to connect while the bridge is not there.
  double reconnect_interval = 0.5;
  /// Kernel send buffer, bytes (>= 1024): small, so that a slow link drops new commands
  /// (`busy`) instead of queueing seconds of stale ones the robot would then play late. The
  /// default holds about ten NAO commands.
  int send_buffer = 8192;

  void validate() const {
    RETARGET_THROW_UNLESS(!host.empty(), InvalidArgument, "NaoCommandSinkOptions.host is empty");
    internal::validatePortText(port, "NaoCommandSinkOptions.port");
    RETARGET_THROW_UNLESS(speed > 0 && speed <= 1, InvalidArgument,
                          "NaoCommandSinkOptions.speed must be in (0, 1] (got ", speed, ")");
    RETARGET_THROW_UNLESS(max_rate > 0 && max_rate <= 1000, InvalidArgument,
                          "NaoCommandSinkOptions.max_rate must be in (0, 1000] Hz (got ", max_rate, ")");
    RETARGET_THROW_UNLESS(reconnect_interval > 0 && reconnect_interval <= 60, InvalidArgument,
                          "NaoCommandSinkOptions.reconnect_interval must be in (0, 60] s (got ", reconnect_interval,
                          ")");
    RETARGET_THROW_UNLESS(send_buffer >= 1024, InvalidArgument, "NaoCommandSinkOptions.send_buffer must be >= 1024 bytes (got ",
                          send_buffer, ")");
  }
};

/// What happened to the commands given to `send`.
struct NaoSinkCounters {
  std::uint64_t sent = 0;          ///< handed to the socket
  std::uint64_t busy = 0;          ///< dropped: the previous command was still going out
  std::uint64_t rate = 0;          ///< dropped: sooner than 1 / max_rate after the last sent
  std::uint64_t disconnected = 0;  ///< dropped: no connection to the bridge
  std::uint64_t invalid = 0;       ///< dropped: wrong size or not finite
  std::uint64_t connects = 0;      ///< connections made
  std::uint64_t disconnects = 0;   ///< connections lost

  std::uint64_t dropped() const { return busy + rate + disconnected + invalid; }
};

/// A TCP client of the NAO bridge.
class NaoCommandSink {
 public:
  /// `joint_names`: NAOqi names of the q coordinates sent (e.g. kNaoJointNames). Resolves the
  /// host; connects on the first `send` or `service`. Throws InvalidArgument on bad options or
  /// names, Error naming the host when it cannot be resolved.
  NaoCommandSink(const std::vector<std::string>& joint_names, const NaoCommandSinkOptions& options)
      : options_((options.validate(), options)), socket_(context_) {
    RETARGET_THROW_UNLESS(!joint_names.empty(), InvalidArgument, "NaoCommandSink: no joint names");
    prefix_ = "{\"names\": [";
    for (std::size_t i = 0; i < joint_names.size(); ++i) {
      const std::string& name = joint_names[i];
      RETARGET_THROW_UNLESS(!name.empty() && name.find_first_of("\"\\\n") == std::string::npos, InvalidArgument,
                            "NaoCommandSink: joint name ", i, " ('", name, "') is empty or has a quote, backslash or newline");
      prefix_ += (i == 0 ? "\"" : ", \"") + name + "\"";
    }
    prefix_ += "], \"angles\": [";
    joint_count_ = static_cast<Eigen::Index>(joint_names.size());
    char speed[32];
    const auto written = std::to_chars(speed, speed + sizeof speed, options_.speed);
    suffix_ = "], \"speed\": " + std::string(speed, written.ptr) + "}\n";
    line_.reserve(prefix_.size() + suffix_.size() + joint_names.size() * 26);
    outgoing_.reserve(line_.capacity());
    asio::error_code ec;
    asio::ip::tcp::resolver resolver(context_);
    const auto results = resolver.resolve(options_.host, options_.port, ec);
    RETARGET_THROW_UNLESS(!ec && !results.empty(), Error, "nao: cannot resolve ", options_.host, ":", options_.port,
                          " (", ec ? ec.message() : std::string("no address"), ")");
    endpoint_ = results.begin()->endpoint();
    retry_at_ = Clock::now();
  }

  NaoCommandSink(const NaoCommandSink&) = delete;
  NaoCommandSink& operator=(const NaoCommandSink&) = delete;

  /// Sends `q` (rad, in the order of the names) unless it is dropped (counted). Returns true
  /// when the command was handed to the socket. Never blocks, allocates or throws.
  bool send(const Eigen::Ref<const Eigen::VectorXd>& q) {
    service();
    if (q.size() != joint_count_ || !q.allFinite()) return ++counters_.invalid, false;
    if (state_ != State::kConnected) return ++counters_.disconnected, false;
    if (writing_) return ++counters_.busy, false;
    const auto now = Clock::now();
    if (counters_.sent > 0 && now - last_sent_ < period()) return ++counters_.rate, false;
    line_ = prefix_;
    char number[32];
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      if (i > 0) line_ += ", ";
      const auto written = std::to_chars(number, number + sizeof number, q[i]);  // shortest exact
      line_.append(number, written.ptr);
    }
    line_ += suffix_;
    outgoing_.swap(line_);
    writing_ = true;
    last_sent_ = now;
    ++counters_.sent;
    asio::async_write(socket_, asio::buffer(outgoing_), [this](const asio::error_code& ec, std::size_t) {
      writing_ = false;
      if (ec) lose();
    });
    service();  // the write usually completes at once
    return true;
  }

  /// Runs what is ready: finished writes, a connection made or lost, a reconnection when due.
  /// Call when no command is sent for a while (send calls it). Never blocks or throws.
  void service() {
    try {
      if (state_ == State::kIdle && Clock::now() >= retry_at_) connect();
      while (context_.poll_one() > 0) {
      }
      if (context_.stopped()) context_.restart();
    } catch (const std::exception&) {
      lose();
    }
  }

  /// Waits up to `timeout_ms` for the connection (tests, start-up). True when connected.
  bool waitConnected(int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    for (;;) {
      service();
      if (state_ == State::kConnected) return true;
      if (Clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  /// Closes the connection (the bridge then sends the robot to rest).
  void close() {
    asio::error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    state_ = State::kIdle;
    retry_at_ = Clock::time_point::max();
  }

  bool connected() const { return state_ == State::kConnected; }
  /// True while a command is still going out (its rest leaves on the next `service`).
  bool writing() const { return writing_; }
  const NaoSinkCounters& counters() const { return counters_; }

 private:
  using Clock = std::chrono::steady_clock;
  enum class State { kIdle, kConnecting, kConnected };

  Clock::duration period() const { return internal::secondsToDuration(1.0 / options_.max_rate); }

  void connect() {
    state_ = State::kConnecting;
    asio::error_code ignored;
    socket_.close(ignored);
    socket_.open(endpoint_.protocol(), ignored);
    socket_.set_option(asio::socket_base::send_buffer_size(options_.send_buffer), ignored);
    socket_.async_connect(endpoint_, [this](const asio::error_code& ec) {
      if (ec) {
        state_ = State::kIdle;
        retry_at_ = Clock::now() + interval();
        return;
      }
      asio::error_code ignore;
      socket_.set_option(asio::ip::tcp::no_delay(true), ignore);
      socket_.non_blocking(true, ignore);
      state_ = State::kConnected;
      ++counters_.connects;
      watch();
    });
  }

  // Reads (and ignores) what the bridge sends, to learn at once when it goes away.
  void watch() {
    socket_.async_read_some(asio::buffer(ignored_), [this](const asio::error_code& ec, std::size_t) {
      if (ec) {
        if (ec != asio::error::operation_aborted) lose();
        return;
      }
      watch();
    });
  }

  void lose() {
    if (state_ == State::kConnected) ++counters_.disconnects;
    asio::error_code ignored;
    socket_.close(ignored);
    state_ = State::kIdle;
    writing_ = false;
    retry_at_ = Clock::now() + interval();
  }

  Clock::duration interval() const { return internal::secondsToDuration(options_.reconnect_interval); }

  NaoCommandSinkOptions options_;
  asio::io_context context_;
  asio::ip::tcp::socket socket_;
  asio::ip::tcp::endpoint endpoint_;
  std::string prefix_, suffix_, line_, outgoing_;
  std::array<char, 256> ignored_{};
  Eigen::Index joint_count_ = 0;
  State state_ = State::kIdle;
  bool writing_ = false;
  Clock::time_point retry_at_, last_sent_;
  NaoSinkCounters counters_{};
};

}  // namespace retarget
