#pragma once

/// @file
/// Joint commands to a NAO through the bridge script that runs on the robot
/// (apps/nao_bridge/retarget_nao_bridge.py): one JSON line per command over TCP,
/// `{"names": [...], "angles": [...], "speed": s}` (NAOqi joint names, rad, fraction of the
/// joints' maximum speed), which the bridge passes to `ALMotion.setAngles`. CMake target
/// `retarget::nao` (needs asio, Debian libasio-dev); never included by retarget/retarget.hpp.
///
/// The bridge owns the robot's safety: it wakes the robot on the first command (and again after
/// a fall or a rest it did not ask for), holds the last pose when the commands stop (or we
/// disconnect), relaxes the commanded head and arm joints after its --relax-after (2 s) and
/// rests the robot after its --rest-after (30 s) or when it is stopped. It answers on the same
/// socket with status lines (`{"status": "hello", ...}` when it accepts us, `{"status":
/// "error", "call": "setAngles", "message": "..."}` when a NAOqi call failed, and "stalled",
/// "state", "stats" lines; docs/adapters.md): the sink reads them, counts them (`bridge_errors`,
/// `bridge_status`) and keeps the last error's text (`lastBridgeError`).
///
/// A TCP connection alone does not prove that the bridge reads it: a bridge busy with another
/// client (an older bridge, or any server) leaves it in its listen backlog. So on connecting the
/// sink asks for stats (`{"command": "stats"}`) and counts the connection as made only once a
/// status line came back; until then commands are dropped (`unanswered`), and after
/// `answer_timeout` without an answer the connection is given up (`silent_bridge`) and a new one
/// tried.
///
/// Never blocks the loop: `send` formats the command (no allocation), and hands it to a
/// non-blocking socket only when the previous command has gone out; otherwise it drops it
/// (`busy`). Commands closer together than 1 / `max_rate` are dropped (`rate`); while the
/// bridge is not connected they are dropped (`disconnected`) and a connection is tried every
/// `reconnect_interval`. Status lines are read into a fixed buffer (a longer line is read up to
/// its size). `send` and `service` never throw.

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <Eigen/Core>

#include <asio.hpp>

#include <retarget/adapters/internal/asio_wait.hpp>
#include <retarget/adapters/internal/port_text.hpp>
#include <retarget/core/error.hpp>

namespace retarget {

namespace internal {

/// The fields of one status line of the NAO bridge, as raw JSON string contents (escapes kept).
struct BridgeStatusLine {
  std::string_view status, call, message;
};

/// Reads a flat JSON object (`{"status": "error", "call": "setAngles", "message": "..."}`),
/// keeping the string values of status, call and message; other members may hold numbers,
/// literals, arrays or objects. A line cut short (a longer line than the reader's buffer) keeps
/// what it has: an unterminated string ends at the end of the line. True when it is an object
/// with a string `status`. Allocates nothing, never throws.
inline bool parseBridgeStatusLine(std::string_view line, BridgeStatusLine& out) noexcept {
  std::size_t i = 0;
  const auto skipSpace = [&] {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
  };
  // A string starting at line[i] == '"': its raw contents; i ends past the closing quote.
  const auto readString = [&]() -> std::string_view {
    const std::size_t begin = ++i;
    while (i < line.size() && line[i] != '"') i += line[i] == '\\' ? std::size_t{2} : std::size_t{1};
    const std::string_view raw(line.data() + begin, std::min(i, line.size()) - begin);
    if (i < line.size()) ++i;
    return raw;
  };
  out = {};
  bool has_status = false;
  skipSpace();
  if (i >= line.size() || line[i] != '{') return false;
  ++i;
  for (;;) {
    skipSpace();
    if (i >= line.size() || line[i] == '}') break;
    if (line[i] != '"') return false;
    const std::string_view key = readString();
    skipSpace();
    if (i >= line.size() || line[i] != ':') break;
    ++i;
    skipSpace();
    if (i < line.size() && line[i] == '"') {
      const std::string_view value = readString();
      if (key == "status") {
        out.status = value;
        has_status = true;
      } else if (key == "call") {
        out.call = value;
      } else if (key == "message") {
        out.message = value;
      }
    } else {  // a number, literal, array or object: skipped to the ',' or '}' that ends it
      int depth = 0;
      while (i < line.size() && !(depth == 0 && (line[i] == ',' || line[i] == '}'))) {
        if (line[i] == '"') {
          (void)readString();
          continue;
        }
        if (line[i] == '[' || line[i] == '{') ++depth;
        if (line[i] == ']' || line[i] == '}') --depth;
        ++i;
      }
    }
    skipSpace();
    if (i < line.size() && line[i] == ',') ++i;
  }
  return has_status;
}

/// Copies a raw JSON string's contents into `out` (at most `capacity` bytes, never a partial
/// UTF-8 sequence of an escape), on one line: \" \\ \/ become the character, \uXXXX its UTF-8
/// bytes (a surrogate '?'), \b \f \n \r \t and control characters a space. Returns the bytes
/// written. Never throws.
inline std::size_t unescapeJsonString(std::string_view raw, char* out, std::size_t capacity) noexcept {
  std::size_t size = 0;
  const auto put = [&](const char* bytes, std::size_t n) {
    if (size + n > capacity) return false;
    for (std::size_t k = 0; k < n; ++k) out[size++] = bytes[k];
    return true;
  };
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    if (c != '\\' || i + 1 >= raw.size()) {
      if (!put(&c, 1)) break;
      continue;
    }
    const char e = raw[++i];
    char simple = 0;
    switch (e) {
      case 'n': case 'r': case 't': case 'b': case 'f': simple = ' '; break;
      case 'u': break;
      default: simple = e; break;  // \" \\ \/ and anything else: the character itself
    }
    if (simple != 0) {
      if (!put(&simple, 1)) break;
      continue;
    }
    unsigned code = 0;
    std::size_t digits = 0;
    for (; digits < 4 && i + 1 < raw.size(); ++digits) {
      const char h = raw[i + 1];
      const int v = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
      if (v < 0) break;
      code = code * 16 + static_cast<unsigned>(v);
      ++i;
    }
    char utf8[3];
    std::size_t count = 0;
    if (digits < 4 || (code >= 0xD800 && code <= 0xDFFF)) {
      utf8[count++] = '?';
    } else if (code < 0x20) {
      utf8[count++] = ' ';
    } else if (code < 0x80) {
      utf8[count++] = static_cast<char>(code);
    } else if (code < 0x800) {
      utf8[count++] = static_cast<char>(0xC0 | (code >> 6));
      utf8[count++] = static_cast<char>(0x80 | (code & 0x3F));
    } else {
      utf8[count++] = static_cast<char>(0xE0 | (code >> 12));
      utf8[count++] = static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      utf8[count++] = static_cast<char>(0x80 | (code & 0x3F));
    }
    if (!put(utf8, count)) break;
  }
  return size;
}

}  // namespace internal

/// Options of `NaoCommandSink`.
struct NaoCommandSinkOptions {
  /// Host and port of the bridge (the robot's address; the bridge's default port).
  std::string host = "127.0.0.1";
  std::string port = "9600";
  /// Fraction of the joints' maximum speed in every command, (0, 1] (the bridge caps it with
  /// its own --max-speed).
  double speed = 0.2;
  /// Most commands per second, > 0 (ALMotion runs a 20 ms cycle, 50 Hz: more commands than
  /// that per second are not followed by the robot, only superseded in the bridge).
  double max_rate = 50;
  /// s (> 0): how often to try to connect while the bridge is not there.
  double reconnect_interval = 0.5;
  /// Kernel send buffer, bytes (>= 1024): small, so that a slow link drops new commands
  /// (`busy`) instead of queueing seconds of stale ones the robot would then play late. The
  /// default holds about ten NAO commands.
  int send_buffer = 8192;
  /// s (> 0): how long after a TCP connection the bridge has to answer (its hello, or the stats
  /// the sink asks for) before the connection is given up as a bridge that does not read it.
  double answer_timeout = 2.0;

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
    RETARGET_THROW_UNLESS(answer_timeout > 0 && answer_timeout <= 60, InvalidArgument,
                          "NaoCommandSinkOptions.answer_timeout must be in (0, 60] s (got ", answer_timeout, ")");
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
  std::uint64_t unanswered = 0;    ///< dropped: connected, but the bridge has not answered yet
  std::uint64_t invalid = 0;       ///< dropped: wrong size or not finite
  std::uint64_t connects = 0;      ///< connections made (the bridge answered)
  std::uint64_t disconnects = 0;   ///< connections lost
  std::uint64_t silent_bridge = 0;  ///< connections given up: no answer within answer_timeout
  std::uint64_t bridge_status = 0;      ///< status lines read from the bridge (errors included)
  std::uint64_t bridge_errors = 0;      ///< of which `"status": "error"`: a NAOqi call failed on the robot
  std::uint64_t bridge_unreadable = 0;  ///< lines from the bridge that are not status objects

  std::uint64_t dropped() const { return busy + rate + disconnected + unanswered + invalid; }
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
    if (state_ == State::kAwaitingAnswer) return ++counters_.unanswered, false;
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

  /// Runs what is ready: finished writes, a connection made, answered or lost, a reconnection
  /// when due. Call when no command is sent for a while (send calls it). Never blocks or throws.
  void service() {
    try {
      if (state_ == State::kIdle && Clock::now() >= retry_at_) connect();
      if (state_ == State::kAwaitingAnswer && Clock::now() >= answer_deadline_) {
        ++counters_.silent_bridge;  // connected into a backlog, or not a bridge: try again later
        lose();
      }
      while (context_.poll_one() > 0) {
      }
      if (context_.stopped()) context_.restart();
    } catch (const std::exception&) {
      lose();
    }
  }

  /// Waits up to `timeout_ms` for the connection, answered by the bridge (tests, start-up). True
  /// when connected.
  bool waitConnected(int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    for (;;) {
      service();
      if (state_ == State::kConnected) return true;
      if (Clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }

  /// Closes the connection (the bridge then holds the pose, relaxes and later rests the robot).
  void close() {
    asio::error_code ignored;
    socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    socket_.close(ignored);
    state_ = State::kIdle;
    retry_at_ = Clock::time_point::max();
  }

  /// True while connected to a bridge that has answered on this connection.
  bool connected() const { return state_ == State::kConnected; }
  /// True while a command is still going out (its rest leaves on the next `service`).
  bool writing() const { return writing_; }
  const NaoSinkCounters& counters() const { return counters_; }
  /// The last error the bridge reported, "call: message" (cut to 255 bytes); empty before one.
  std::string_view lastBridgeError() const { return {last_error_.data(), last_error_size_}; }

 private:
  using Clock = std::chrono::steady_clock;
  enum class State { kIdle, kConnecting, kAwaitingAnswer, kConnected };

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
      state_ = State::kAwaitingAnswer;
      answer_deadline_ = Clock::now() + internal::secondsToDuration(options_.answer_timeout);
      status_size_ = 0;
      // The probe: any bridge answers it with a status line once it reads this connection.
      writing_ = true;
      asio::async_write(socket_, asio::buffer(kProbe, sizeof kProbe - 1), [this](const asio::error_code& error, std::size_t) {
        writing_ = false;
        if (error) lose();
      });
      watch();
    });
  }

  // Reads the bridge's status lines; a failed read tells at once that the bridge went away.
  void watch() {
    socket_.async_read_some(asio::buffer(chunk_), [this](const asio::error_code& ec, std::size_t size) {
      if (ec) {
        if (ec != asio::error::operation_aborted) lose();
        return;
      }
      for (std::size_t i = 0; i < size; ++i) takeStatusByte(chunk_[i]);
      watch();
    });
  }

  // Collects one line in status_ (a longer line keeps its first status_.size() bytes).
  void takeStatusByte(char c) {
    if (c != '\n') {
      if (status_size_ < status_.size()) status_[status_size_++] = c;
      return;
    }
    readStatusLine(std::string_view(status_.data(), status_size_));
    status_size_ = 0;
  }

  void readStatusLine(std::string_view line) {
    internal::BridgeStatusLine status;
    if (!internal::parseBridgeStatusLine(line, status)) {
      if (line.find_first_not_of(" \t\r") != std::string_view::npos) ++counters_.bridge_unreadable;
      return;
    }
    ++counters_.bridge_status;
    if (state_ == State::kAwaitingAnswer) {  // the bridge reads this connection
      state_ = State::kConnected;
      ++counters_.connects;
    }
    if (status.status != "error") return;
    ++counters_.bridge_errors;
    std::size_t size = internal::unescapeJsonString(status.call, last_error_.data(), last_error_.size());
    if (size + 2 < last_error_.size()) {
      last_error_[size++] = ':';
      last_error_[size++] = ' ';
      size += internal::unescapeJsonString(status.message, last_error_.data() + size, last_error_.size() - size);
    }
    last_error_size_ = size;
  }

  static constexpr char kProbe[] = "{\"command\": \"stats\"}\n";

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
  std::array<char, 256> chunk_{};
  std::array<char, 1024> status_{};
  std::size_t status_size_ = 0;
  std::array<char, 255> last_error_{};
  std::size_t last_error_size_ = 0;
  Eigen::Index joint_count_ = 0;
  State state_ = State::kIdle;
  bool writing_ = false;
  Clock::time_point retry_at_, last_sent_, answer_deadline_;
  NaoSinkCounters counters_{};
};

}  // namespace retarget
