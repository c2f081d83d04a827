// `retarget live` recording across sender restarts: an Axis Neuron stand-in (a TCP server on
// 127.0.0.1, binary frames, its frame index restarting at every connection, frames sent in
// bursts so that several arrive in one read) closes the connection twice; the program
// reconnects each time, and the CSV recording keeps every frame the source delivered, in
// order, with increasing times (the session's one clock). No time window: the run ends on
// events (the program's reconnect after the last connection, then SIGINT), every wait is a
// generous deadline.

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <vector>

#include <retarget/adapters/noitom/bvh_broadcast_encoder.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>

#include "cli/cli_runner.hpp"
#include "support/loopback.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// Waits up to `timeout_ms` for a connection on `listener`; -1 when none came.
int acceptWithin(int listener, int timeout_ms) {
  pollfd wait{listener, POLLIN, 0};
  if (poll(&wait, 1, timeout_ms) <= 0) return -1;
  return accept(listener, nullptr, nullptr);
}

bool sendAll(int fd, const std::vector<std::uint8_t>& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

TEST_CASE("cli live: a recording keeps every frame across two sender restarts") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path bvh = data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh";
  const BvhMotion motion = readBvh(bvh.string());
  const fs::path dir = tempDir();

  const LoopbackListener server = listenOnLoopback(4);
  const int listener = server.fd;
  const int port = server.port;

  // No time window: the program runs until the test stops it (SIGINT, as Ctrl-C), after the
  // events that prove every frame went through; --duration only bounds a hung run (s).
  BackgroundRun live({"live", "--source", "noitom-tcp:127.0.0.1:" + std::to_string(port), "--hierarchy", bvh.string(),
                      "--robot", "inmoov", "--method", "euler", "--duration", "120", "--status-interval", "0", "--sink",
                      "csv:" + (dir / "rec.csv").string()},
                     dir / "live_reconnect_out.txt", dir / "live_reconnect_err.txt");
  REQUIRE(live.started());
  constexpr int kConnections = 3, kFramesPerConnection = 200, kBurst = 10;
  constexpr int kConnectDeadlineMs = 30000;  // generous: a reconnect is immediate, then every 0.5 s
  const NoitomLayout layout{true, false};
  int sent = 0;
  for (int c = 0; c < kConnections; ++c) {
    const int fd = acceptWithin(listener, kConnectDeadlineMs);
    REQUIRE_MESSAGE(fd >= 0, "the program did not connect (connection ", c, ")");
    for (int i = 0; i < kFramesPerConnection; i += kBurst) {
      std::vector<std::uint8_t> burst;
      for (int k = i; k < i + kBurst; ++k) {
        const int f = (sent + k - i) % motion.frame_count;
        const std::vector<std::uint8_t> frame =
            noitomBinaryFrame(noitomWireValues(motion, motion.frameValues(f), layout), layout, 0, static_cast<std::uint32_t>(k + 1));
        burst.insert(burst.end(), frame.begin(), frame.end());
      }
      REQUIRE(sendAll(fd, burst));
      sent += kBurst;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));  // bursts, not one stream
    }
    close(fd);  // the sender restarts: the program reconnects
  }
  // The program reads a connection's end only after all its bytes, and reconnects from inside the
  // read that found it, after every earlier frame was mapped and written: its next connection
  // proves that every frame sent went through the loop.
  const int after_last = acceptWithin(listener, kConnectDeadlineMs);
  REQUIRE_MESSAGE(after_last >= 0, "the program did not reconnect after the last connection");
  const std::optional<Run> stopped = live.stop(SIGINT, 30000);
  close(after_last);
  close(listener);
  REQUIRE_MESSAGE(stopped.has_value(), "the program did not stop within 30 s of SIGINT");
  const std::string& out = stopped->out;
  INFO(out << stopped->err);
  REQUIRE(stopped->code == 0);
  CHECK(contains(out, "stopped by signal"));
  CHECK(contains(out, "live: " + std::to_string(sent) + " frames"));
  CHECK(contains(out, "source dropped 0"));
  const JointTrajectory recorded = readJointTrajectoryCsv((dir / "rec.csv").string());
  CHECK(recorded.positions.rows() == sent);
  for (Eigen::Index k = 1; k < static_cast<Eigen::Index>(recorded.times.size()); ++k) {
    REQUIRE(recorded.times[static_cast<std::size_t>(k)] > recorded.times[static_cast<std::size_t>(k - 1)]);
  }
  CHECK(contains(out, "dropped 0\n"));  // the CSV sink dropped nothing
}
