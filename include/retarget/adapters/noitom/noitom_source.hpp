#pragma once

/// @file
/// Live Noitom Axis Neuron / Axis Studio BVH broadcasts over TCP (the sender listens, default
/// port 7001, text or binary frames) and UDP (we listen, default port 7002, one binary or text
/// frame per datagram, or a binary frame in several). CMake target `retarget::noitom` (needs asio, Debian libasio-dev); never
/// included by retarget/retarget.hpp.
///
/// Both sources decode with a `NoitomBroadcastDecoder` (bvh_broadcast.hpp) bound to the
/// hierarchy the sender exports, and time-stamp a frame with the steady clock when its last
/// byte was read (s since the source was opened). The TCP source connects when it is first
/// read and again after the sender went away (every `reconnect_interval`), so the sender may
/// start after us and restart at will; a frame cut by a disconnect is counted `kTruncated`.
///
/// Real-time note: asio may allocate while it waits (operation state, recycled after the first
/// frames); the decoder and the frame handed out do not. Call `read` where the loop waits for
/// its input, never inside the mapper's per-frame work. `read` never throws.

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>

#include <asio.hpp>

#include <retarget/adapters/internal/asio_wait.hpp>
#include <retarget/adapters/internal/port_text.hpp>
#include <retarget/adapters/noitom/bvh_broadcast.hpp>
#include <retarget/core/error.hpp>

namespace retarget {

/// Options of `NoitomTcpSource`.
struct NoitomTcpSourceOptions {
  /// Host running Axis Neuron / Axis Studio (name or address).
  std::string host = "127.0.0.1";
  /// Its BVH broadcast port.
  std::string port = "7001";
  /// s (> 0): how often to try again while the sender is not there.
  double reconnect_interval = 0.5;
  NoitomDecoderOptions decoding{};

  void validate() const {
    RETARGET_THROW_UNLESS(!host.empty(), InvalidArgument, "NoitomTcpSourceOptions.host is empty");
    internal::validatePortText(port, "NoitomTcpSourceOptions.port");
    RETARGET_THROW_UNLESS(reconnect_interval > 0 && reconnect_interval <= 60, InvalidArgument,
                          "NoitomTcpSourceOptions.reconnect_interval must be in (0, 60] s (got ", reconnect_interval, ")");
    decoding.validate();
  }
};

/// Connection events of a TCP source.
struct NoitomConnectionCounters {
  std::uint64_t connects = 0;          ///< connections made
  std::uint64_t disconnects = 0;       ///< connections the sender ended (or that failed)
  std::uint64_t failed_attempts = 0;   ///< connection attempts refused or unanswered
};

/// A TCP client of a BVH broadcast (frame values in the hierarchy's channel layout, cm and deg;
/// `NoitomFrame::time` in s since the source was opened).
class NoitomTcpSource {
 public:
  /// Resolves the host. Throws InvalidArgument on bad options or hierarchy, Error naming the
  /// host and port when they cannot be resolved. Does not connect yet.
  NoitomTcpSource(const BvhMotion& hierarchy, const NoitomTcpSourceOptions& options)
      : options_((options.validate(), options)), decoder_(hierarchy, options.decoding), socket_(context_) {
    asio::error_code ec;
    asio::ip::tcp::resolver resolver(context_);
    const auto results = resolver.resolve(options_.host, options_.port, ec);
    RETARGET_THROW_UNLESS(!ec && !results.empty(), Error, "noitom-tcp: cannot resolve ", options_.host, ":",
                          options_.port, " (", ec ? ec.message() : std::string("no address"), ")");
    endpoint_ = results.begin()->endpoint();
    start_ = Clock::now();
    retry_at_ = start_;
  }

  NoitomTcpSource(const NoitomTcpSource&) = delete;
  NoitomTcpSource& operator=(const NoitomTcpSource&) = delete;

  /// Connects or reconnects as needed and reads, waiting up to `timeout_ms` (>= 0), until a
  /// frame is complete: decodes it into `frame` and returns true. Returns false when the wait
  /// ended without one. Never throws.
  bool read(NoitomFrame& frame, int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    try {
      for (;;) {
        if (decoder_.next(t_bytes_, frame)) return true;
        const auto now = Clock::now();
        if (state_ == State::kIdle) {
          if (now < retry_at_) {
            if (now >= deadline) return false;
            std::this_thread::sleep_until(std::min(retry_at_, deadline));
            continue;
          }
          startConnect();
        }
        if (internal::runOneUntil(context_, deadline) == 0 && Clock::now() >= deadline) return false;
      }
    } catch (const std::exception&) {
      // asio reports failures through error codes; only an allocation can throw here.
      closeConnection();
      return false;
    }
  }

  /// The instant frame times count from (`NoitomFrame::time` is seconds since it).
  std::chrono::steady_clock::time_point epoch() const { return start_; }
  /// True while connected to the sender.
  bool connected() const { return state_ == State::kConnected; }
  const NoitomCounters& counters() const { return decoder_.counters(); }
  const NoitomConnectionCounters& connection() const { return connection_; }
  const NoitomBroadcastDecoder& decoder() const { return decoder_; }

 private:
  using Clock = std::chrono::steady_clock;
  enum class State { kIdle, kConnecting, kConnected };

  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  void startConnect() {
    state_ = State::kConnecting;
    asio::error_code ignored;
    socket_.close(ignored);
    socket_.async_connect(endpoint_, [this](const asio::error_code& ec) {
      if (ec) {
        ++connection_.failed_attempts;
        state_ = State::kIdle;
        retry_at_ = Clock::now() + interval();
        return;
      }
      ++connection_.connects;
      state_ = State::kConnected;
      asio::error_code ignore;
      socket_.set_option(asio::ip::tcp::no_delay(true), ignore);
      startRead();
    });
  }

  void startRead() {
    socket_.async_read_some(asio::buffer(chunk_), [this](const asio::error_code& ec, std::size_t size) {
      if (ec) {
        ++connection_.disconnects;
        closeConnection();
        // Try at once (the sender may have restarted), then every interval.
        retry_at_ = Clock::now();
        return;
      }
      t_bytes_ = seconds();
      decoder_.feed(chunk_.data(), size);
      startRead();
    });
  }

  void closeConnection() {
    asio::error_code ignored;
    socket_.close(ignored);
    decoder_.resetStream();
    state_ = State::kIdle;
    retry_at_ = Clock::now() + interval();
  }

  Clock::duration interval() const { return internal::secondsToDuration(options_.reconnect_interval); }

  NoitomTcpSourceOptions options_;
  NoitomBroadcastDecoder decoder_;
  asio::io_context context_;  // before the socket: destroyed after it
  asio::ip::tcp::socket socket_;
  asio::ip::tcp::endpoint endpoint_;
  std::array<std::uint8_t, 16384> chunk_{};
  State state_ = State::kIdle;
  Clock::time_point start_, retry_at_;
  double t_bytes_ = 0;
  NoitomConnectionCounters connection_{};
};

/// Options of `NoitomUdpSource`.
struct NoitomUdpSourceOptions {
  /// UDP port to listen on, all IPv4 interfaces ("7002"; "0" picks a free port, see
  /// `NoitomUdpSource::port`).
  std::string port = "7002";
  NoitomDecoderOptions decoding{};

  void validate() const {
    internal::validatePortText(port, "NoitomUdpSourceOptions.port");
    decoding.validate();
  }
};

/// A UDP receiver of a BVH broadcast: one frame per datagram, or a frame split over consecutive
/// datagrams (joined by the decoder: binary by its DataCount, text up to its `||`).
class NoitomUdpSource {
 public:
  /// Binds the port. Throws InvalidArgument on bad options or hierarchy, Error naming the port
  /// when it cannot be bound.
  NoitomUdpSource(const BvhMotion& hierarchy, const NoitomUdpSourceOptions& options)
      : decoder_((options.validate(), hierarchy), options.decoding), socket_(context_) {
    asio::error_code ec;
    const auto port = static_cast<unsigned short>(std::stoul(options.port));
    socket_.open(asio::ip::udp::v4(), ec);
    if (!ec) socket_.bind(asio::ip::udp::endpoint(asio::ip::udp::v4(), port), ec);
    RETARGET_THROW_UNLESS(!ec, Error, "noitom-udp: cannot listen on UDP port ", options.port, " (", ec.message(), ")");
    start_ = Clock::now();
  }

  NoitomUdpSource(const NoitomUdpSource&) = delete;
  NoitomUdpSource& operator=(const NoitomUdpSource&) = delete;

  /// The UDP port bound.
  int port() const {
    asio::error_code ec;
    return socket_.local_endpoint(ec).port();
  }

  /// Receives datagrams, waiting up to `timeout_ms` (>= 0), until one decodes into `frame`:
  /// returns true. Returns false when the wait ended without one. Never throws.
  bool read(NoitomFrame& frame, int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0));
    try {
      for (;;) {
        // A datagram that held several text frames: the ones after the first, before waiting.
        if (decoder_.next(t_arrival_, frame)) return true;
        if (!receiving_) startReceive();
        received_ = false;
        const std::size_t ran = internal::runOneUntil(context_, deadline);
        if (received_ && decoder_.decodeDatagram(datagram_.data(), size_, t_arrival_, frame)) return true;
        if (ran == 0 && Clock::now() >= deadline) {
          decoder_.expirePending(std::chrono::duration<double>(Clock::now() - start_).count());
          return false;
        }
      }
    } catch (const std::exception&) {
      return false;
    }
  }

  /// The instant frame times count from (`NoitomFrame::time` is seconds since it).
  std::chrono::steady_clock::time_point epoch() const { return start_; }
  const NoitomCounters& counters() const { return decoder_.counters(); }
  const NoitomBroadcastDecoder& decoder() const { return decoder_; }

 private:
  using Clock = std::chrono::steady_clock;

  void startReceive() {
    receiving_ = true;
    socket_.async_receive_from(asio::buffer(datagram_), sender_, [this](const asio::error_code& ec, std::size_t size) {
      receiving_ = false;
      if (ec) return;  // e.g. ICMP port unreachable reported on the socket: keep listening
      received_ = true;
      size_ = size;
      t_arrival_ = std::chrono::duration<double>(Clock::now() - start_).count();
    });
  }

  NoitomBroadcastDecoder decoder_;
  asio::io_context context_;
  asio::ip::udp::socket socket_;
  asio::ip::udp::endpoint sender_;
  std::array<std::uint8_t, 65536> datagram_{};
  std::size_t size_ = 0;
  bool receiving_ = false, received_ = false;
  double t_arrival_ = 0;
  Clock::time_point start_;
};

}  // namespace retarget
