#pragma once

/// @file
/// Live Kinect v2 skeletons from a KinectV2-OSC sender over UDP (CMake target
/// `retarget::kinect_osc`, needs liblo; never included by retarget/retarget.hpp).
///
/// liblo receives and decodes the datagrams; every message goes to a `KinectOscAssembler`
/// (osc_skeleton_assembler.hpp), time-stamped on arrival with the steady clock (seconds since
/// the source was opened). Datagrams liblo cannot decode are counted as `malformed()`.
///
/// Real-time note: liblo allocates while it decodes a datagram (its message objects), so
/// `read` allocates; the assembler and the frame handed out do not. Run `read` where the loop
/// waits for its input, never inside the mapper's per-frame work.

#include <lo/lo.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

#include <retarget/adapters/internal/port_text.hpp>
#include <retarget/adapters/kinect/osc_skeleton_assembler.hpp>
#include <retarget/core/error.hpp>

namespace retarget {

/// Hands one message liblo decoded (path, type tags, arguments) to `assembler`, time-stamped
/// `t_arrival` (s). Shared by `KinectOscSource` and the fuzz target; never throws.
inline void receiveLoMessage(KinectOscAssembler& assembler, const char* path, const char* types, lo_arg** argv,
                             int argc, double t_arrival) {
  constexpr int kMaxArguments = 8;
  if (path == nullptr || types == nullptr || argc < 0 || argc > kMaxArguments) {
    // More arguments than any KinectV2-OSC message has: the assembler rejects the count.
    assembler.receive(path != nullptr ? path : "", nullptr, argc, t_arrival);
    return;
  }
  OscArgument args[kMaxArguments];
  // liblo's arguments are only 4-byte aligned (OSC's alignment), less than the lo_arg union
  // asks for: read them through their bytes, not through the union's members.
  for (int i = 0; i < argc; ++i) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(argv[i]);
    args[i].type = types[i];
    switch (types[i]) {
      case LO_FLOAT: {
        float f = 0.0f;
        std::memcpy(&f, bytes, sizeof f);
        args[i].number = static_cast<double>(f);
        break;
      }
      case LO_DOUBLE:
        std::memcpy(&args[i].number, bytes, sizeof args[i].number);
        break;
      case LO_INT32: {
        std::int32_t n = 0;
        std::memcpy(&n, bytes, sizeof n);
        args[i].number = static_cast<double>(n);
        break;
      }
      case LO_STRING:
      case LO_SYMBOL:
        args[i].type = 's';
        args[i].text = reinterpret_cast<const char*>(bytes);
        break;
      default:
        break;
    }
  }
  assembler.receive(path, args, argc, t_arrival);
}

/// Options of `KinectOscSource`.
struct KinectOscSourceOptions {
  /// UDP port to listen on ("12345", the sender's default; "0" picks a free port, see
  /// `KinectOscSource::port`). All interfaces.
  std::string port = "12345";
  /// Frame assembly and body selection.
  KinectOscOptions assembly{};

  /// Throws InvalidArgument naming the field when the port is not a number 0..65535.
  void validate() const {
    internal::validatePortText(port, "KinectOscSourceOptions.port");
    assembly.validate();
  }
};

/// A UDP socket receiving KinectV2-OSC messages and assembling canonical skeleton frames
/// (frame W, m; `SkeletonFrame::time` in s since the source was opened).
class KinectOscSource {
 public:
  /// Opens the port. Throws InvalidArgument on bad options, Error naming the port when it
  /// cannot be bound (in use, no permission).
  explicit KinectOscSource(const KinectOscSourceOptions& options)
      : assembler_((options.validate(), options.assembly)), start_(Clock::now()) {
    // liblo picks a free port for a null port (it would take "0" literally).
    const char* port = options.port == "0" ? nullptr : options.port.c_str();
    server_.reset(lo_server_new_with_proto(port, LO_UDP, &KinectOscSource::onError));
    RETARGET_THROW_UNLESS(server_ != nullptr, Error, "kinect-osc: cannot listen on UDP port ", options.port,
                          " (in use or not permitted)");
    lo_server_add_method(server_.get(), nullptr, nullptr, &KinectOscSource::onMessage, this);
  }

  KinectOscSource(const KinectOscSource&) = delete;
  KinectOscSource& operator=(const KinectOscSource&) = delete;

  /// The UDP port bound (the one chosen when the options said "0").
  int port() const { return lo_server_get_port(server_.get()); }

  /// Receives the datagrams waiting, waiting up to `timeout_ms` (>= 0) for the first, and
  /// stops as soon as a new frame of the followed body is complete: copies it into `frame` and
  /// returns true. Returns false when the wait ended without one. Never throws.
  bool read(SkeletonFrame<double>& frame, int timeout_ms) {
    const auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : 0);
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      current_ = this;
      const int received = lo_server_recv_noblock(server_.get(), left > 0 ? static_cast<int>(left) : 0);
      current_ = nullptr;
      if (assembler_.poll(frame, now())) return true;
      if (received <= 0 && Clock::now() >= deadline) return false;
    }
  }

  /// The instant frame times count from (`SkeletonFrame::time` is seconds since it).
  std::chrono::steady_clock::time_point epoch() const { return start_; }
  /// Messages, frames and drops of the assembler.
  const KinectOscCounters& counters() const { return assembler_.counters(); }
  /// Datagrams liblo could not decode (not OSC, truncated).
  std::uint64_t malformed() const { return malformed_; }
  const KinectOscAssembler& assembler() const { return assembler_; }

 private:
  using Clock = std::chrono::steady_clock;
  struct ServerDeleter {
    void operator()(lo_server s) const { lo_server_free(s); }
  };

  double now() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }

  static int onMessage(const char* path, const char* types, lo_arg** argv, int argc, lo_message /*message*/,
                       void* user_data) {
    auto* self = static_cast<KinectOscSource*>(user_data);
    receiveLoMessage(self->assembler_, path, types, argv, argc, self->now());
    return 0;
  }

  // liblo's error callback has no user data: the source being read is in current_.
  static void onError(int /*number*/, const char* /*message*/, const char* /*where*/) {
    if (current_ != nullptr) ++current_->malformed_;
  }

  static inline thread_local KinectOscSource* current_ = nullptr;

  KinectOscAssembler assembler_;
  Clock::time_point start_;
  std::unique_ptr<std::remove_pointer_t<lo_server>, ServerDeleter> server_;
  std::uint64_t malformed_ = 0;
};

}  // namespace retarget
