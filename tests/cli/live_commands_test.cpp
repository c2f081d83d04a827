// `retarget live`: a replayed recording gives exactly `retarget map`'s file (GA-LVVJ from a
// Kinect CSV, Euler from a BVH, triangle with collision avoidance); a session recorded with
// the skeleton-csv sink replays to the same angles; a Noitom UDP stream sent over 127.0.0.1
// maps to the mapper's angles for the frames sent; Ctrl-C stops cleanly with the files
// complete; wrong combinations are usage errors.

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>

#include <retarget/adapters/noitom/bvh_broadcast_encoder.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/serial_frame.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>

#include "cli/cli_runner.hpp"
#include "support/loopback.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

Eigen::MatrixXd anglesOf(const fs::path& path) { return readJointTrajectoryCsv(path.string()).positions; }

}  // namespace

TEST_CASE("cli live: replays equal retarget map, and a recorded session replays to the same angles") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path kinect = data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv";
  const fs::path dir = tempDir();
  Run r = run("map " + quoted(kinect) + " --robot nao --method ga-lvvj -o " + quoted(dir / "map.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  r = run("live --source replay:" + quoted(kinect) + " --replay-speed 0 --robot nao --method ga-lvvj --sink csv:" +
          quoted(dir / "live.csv") + " --sink skeleton-csv:" + quoted(dir / "session.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.out, "154 frames"));
  CHECK(slurp(dir / "live.csv") == slurp(dir / "map.csv"));
  // The recorded session, replayed: the same angles (its times start at 0).
  r = run("live --source replay:" + quoted(dir / "session.csv") + " --replay-speed 0 --robot nao --method ga-lvvj --sink csv:" +
          quoted(dir / "again.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(anglesOf(dir / "again.csv") == anglesOf(dir / "map.csv"));

  // Euler from a BVH on InMoov.
  const fs::path bvh = data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh";
  r = run("map " + quoted(bvh) + " --robot inmoov --method euler -o " + quoted(dir / "euler_map.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  r = run("live --source replay:" + quoted(bvh) + " --replay-speed 0 --robot inmoov --method euler --sink csv:" +
          quoted(dir / "euler_live.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(slurp(dir / "euler_live.csv") == slurp(dir / "euler_map.csv"));
}

TEST_CASE("cli live: triangle with collision avoidance on Tangy equals retarget map --avoid-collisions") {
  const fs::path dir = tempDir();
  DemoMotionOptions options;
  options.duration = 2.0;
  writeSkeletonCsv(demoMotion("fold-arms", options), (dir / "fold.csv").string());
  Run r = run("map " + quoted(dir / "fold.csv") + " --robot tangy --method triangle --avoid-collisions -o " +
              quoted(dir / "fold_map.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  r = run("live --source replay:" + quoted(dir / "fold.csv") +
          " --replay-speed 0 --robot tangy --method triangle --avoid-collisions --sink csv:" + quoted(dir / "fold_live.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(contains(r.out, "collisions avoided"));
  const Eigen::MatrixXd live = anglesOf(dir / "fold_live.csv");
  const Eigen::MatrixXd map = anglesOf(dir / "fold_map.csv");
  REQUIRE(live.rows() == map.rows());
  CHECK((live - map).cwiseAbs().maxCoeff() <= 1e-12);
}

TEST_CASE("cli live: a Noitom UDP stream over 127.0.0.1 maps to the Euler mapper's angles") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path bvh = data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh";
  const BvhMotion motion = readBvh(bvh.string());
  const fs::path dir = tempDir();
  Run r = run("map " + quoted(bvh) + " --robot inmoov --method euler -o " + quoted(dir / "udp_map.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const int port = freeLoopbackPort(SOCK_DGRAM);
  // Ordered by events, not by sleeps: frames go out once the program says it waits for them (its
  // port is bound by then), and it is stopped (SIGINT) once it says the input stopped (every
  // datagram before that was read). --duration only bounds a hung run (s).
  BackgroundRun udp({"live", "--source", "noitom-udp:" + std::to_string(port), "--hierarchy", bvh.string(), "--robot",
                     "inmoov", "--method", "euler", "--duration", "120", "--status-interval", "0.2", "--sink",
                     "csv:" + (dir / "udp_live.csv").string()},
                    dir / "udp_out.txt", dir / "udp_err.txt");
  REQUIRE(udp.started());
  // Times the program's status lines (stderr) have said `words` so far.
  const auto says = [&](const std::string& words) {
    const std::string text = slurp(dir / "udp_err.txt");
    int n = 0;
    for (std::size_t at = text.find(words); at != std::string::npos; at = text.find(words, at + 1)) ++n;
    return n;
  };
  const auto saysWithin = [&](const std::string& words, int times, int seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (says(words) < times) {
      if (std::chrono::steady_clock::now() >= deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return true;
  };
  REQUIRE_MESSAGE(saysWithin("waiting for the first frame", 1, 60), slurp(dir / "udp_err.txt"));
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  constexpr int kFrames = 120;
  for (int f = 0; f < kFrames; ++f) {
    const std::string text = noitomTextFrame(noitomWireValues(motion, motion.frameValues(f), {false, false}));
    CHECK(sendto(fd, text.data(), text.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to) ==
          static_cast<ssize_t>(text.size()));
    if (f == 60) {
      const char junk[] = "not a frame";
      (void)sendto(fd, junk, sizeof junk - 1, 0, reinterpret_cast<sockaddr*>(&to), sizeof to);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(4));
  }
  close(fd);
  // The sender stopped: no input for --input-timeout. Two such lines after the last datagram:
  // the read between them found none left, so every datagram was read.
  const int holding_before = says("(holding)");
  CHECK(saysWithin("(holding)", holding_before + 2, 60));
  const std::optional<Run> stopped = udp.stop(SIGINT, 30000);
  REQUIRE_MESSAGE(stopped.has_value(), "live did not stop within 30 s of SIGINT");
  const Run& live = *stopped;
  REQUIRE_MESSAGE(live.code == 0, live.err);
  CHECK(contains(live.out, "source dropped 1 (malformed 1)"));
  CHECK(contains(live.err, "Hz  latency"));
  const Eigen::MatrixXd got = anglesOf(dir / "udp_live.csv");
  const Eigen::MatrixXd expected = anglesOf(dir / "udp_map.csv");
  REQUIRE(got.rows() == kFrames);
  CHECK(got == expected.topRows(kFrames));  // text values parse to the file's doubles: exact
  const RobotModel<double> inmoov = makeInMoov<double>();
  for (Eigen::Index k = 0; k < got.rows(); ++k) CHECK(withinLimits(inmoov, got.row(k).transpose(), 1e-12));
}

TEST_CASE("cli live: Ctrl-C stops cleanly with the files complete; wrong combinations are usage errors") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path kinect = data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv";
  const fs::path bvh = data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh";
  const fs::path dir = tempDir();
  // SIGINT (as Ctrl-C) once the loop has mapped frames, which its status line says: an event, not
  // a time, so a loaded machine that starts slowly cannot fail it. --duration only bounds a hung
  // run (s). The CSV then holds every frame the loop counted, in complete rows.
  BackgroundRun replay({"live", "--source", "replay:" + kinect.string(), "--loop", "--robot", "nao", "--method", "ga-lvvj",
                        "--duration", "120", "--status-interval", "0.2", "--sink", "csv:" + (dir / "int.csv").string()},
                       dir / "int_out.txt", dir / "int_err.txt");
  REQUIRE(replay.started());
  const auto mapping_deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!contains(slurp(dir / "int_err.txt"), " Hz  latency") && std::chrono::steady_clock::now() < mapping_deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const std::optional<Run> stopped = replay.stop(SIGINT, 30000);
  REQUIRE_MESSAGE(stopped.has_value(), "live did not stop within 30 s of SIGINT");
  INFO(stopped->out << stopped->err);
  CHECK(contains(stopped->err, " Hz  latency"));  // it had mapped frames when stopped
  CHECK(stopped->code == 0);
  CHECK(contains(stopped->out, "stopped by signal"));
  const std::size_t counted_at = stopped->out.find("live: ");
  REQUIRE(counted_at != std::string::npos);
  const long counted = std::stol(stopped->out.substr(counted_at + 6));  // "live: <frames> frames in ..."
  const JointTrajectory recorded = readJointTrajectoryCsv((dir / "int.csv").string());  // complete rows only
  CHECK(counted >= 1);
  CHECK(recorded.positions.rows() == counted);

  // A built-in hierarchy, nobody sending: the loop waits, says so, and ends after --duration.
  Run r0 = run("live --source noitom-udp:0 --hierarchy axis-studio --robot inmoov --method euler --duration 0.6 "
               "--status-interval 0.2");
  CHECK(r0.code == 0);
  CHECK(contains(r0.err, "waiting for the first frame"));
  CHECK(contains(r0.out, "0 frames"));

  // Kinect over OSC following one tracking id, nobody sending (the source itself: tests/adapters).
  Run r1 = run("live --source kinect-osc:0 --body 72057594037929000 --robot nao --method ga-lvvj --duration 0.3");
  CHECK(r1.code == 0);
  CHECK(contains(r1.out, "0 frames"));

  const std::string base = " --robot nao --method ga-lvvj";
  Run r = run("live --source kinect-osc:12345 --robot inmoov --method euler");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "--method euler needs a BVH source"));
  r = run("live --source noitom-udp:7002 --robot inmoov --method euler");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "--hierarchy"));
  r = run("live --source replay:" + quoted(kinect) + base + " --sink printer:lp0");
  CHECK(r.code == 2);
  CHECK(contains(r.err, "unknown sink 'printer'"));
  r = run("live --source replay:" + quoted(bvh) + " --robot inmoov --method euler --sink skeleton-csv:x.csv");
  CHECK(r.code == 2);
  r = run("live --source tape:x" + base);
  CHECK(r.code == 2);
  r = run("live --source replay:" + quoted(dir / "missing.csv") + base);
  CHECK(r.code == 1);
  CHECK(contains(r.err, "missing.csv"));
}

TEST_CASE("cli live: the serial sink's frames, read from a pseudo-terminal, decode to the mapper's angles, speed-limited") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path kinect = data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv";
  const fs::path dir = tempDir();
  Run r = run("map " + quoted(kinect) + " --robot nao --method ga-lvvj -o " + quoted(dir / "serial_map.csv"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const JointTrajectory mapped = readJointTrajectoryCsv((dir / "serial_map.csv").string());
  // What the sink must send (docs/serial_protocol.md, "Speed limit"), worked out here from the
  // mapper's rows: the first frame is the rest pose (q = 0 within the limits), then each
  // coordinate moves toward its row by at most v dt, v = min(the NAO's velocity limit,
  // 45 deg/s, the default --serial-max-speed), dt = the rows' time step, at most 0.1 s.
  const RobotModel<double> nao = makeNao<double>();
  Eigen::MatrixXd angles(mapped.positions.rows(), mapped.positions.cols());
  Eigen::VectorXd now = Eigen::VectorXd::Zero(nao.nq()).cwiseMax(nao.lowerLimits()).cwiseMin(nao.upperLimits());
  for (Eigen::Index k = 0; k < angles.rows(); ++k) {
    if (k > 0) {
      const double dt = std::min(mapped.times[static_cast<std::size_t>(k)] - mapped.times[static_cast<std::size_t>(k - 1)], 0.1);
      for (Eigen::Index i = 0; i < now.size(); ++i) {
        const double step = std::min(nao.velocityLimits()[i], 45.0 * M_PI / 180.0) * dt;
        now[i] += std::clamp(mapped.positions(k, i) - now[i], -step, step);
      }
    }
    angles.row(k) = now.transpose();
  }
  CHECK((angles - mapped.positions).cwiseAbs().maxCoeff() > 0.1);  // the limit shows in this take
  const RawPty pty = openRawPty();
  const int master = pty.master;
  const std::string& device = pty.device;
  Run live;
  std::atomic<bool> ended{false};
  std::thread loop([&] {
    live = run("live --source replay:" + quoted(kinect) + " --replay-speed 4 --robot nao --method ga-lvvj --sink serial:" +
               device + " --serial-settle 0 --status-interval 0 --duration 30");  // --duration: bounded even if the pty stalls
    ended.store(true);
  });
  // One signed 16-bit value per NAO coordinate, hundredths of a degree (docs/adapters.md).
  SerialFrameFormat format;
  format.joint_count = static_cast<std::size_t>(angles.cols());
  format.encoding = SerialJointEncoding::kInt16;
  SerialFrameDecoder decoder(format);
  std::vector<Eigen::VectorXi> frames;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (frames.size() < static_cast<std::size_t>(angles.rows()) && std::chrono::steady_clock::now() < deadline) {
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) {
      if (ended.load()) break;  // the program ended
      continue;
    }
    std::uint8_t chunk[4096];
    const ssize_t n = read(master, chunk, sizeof chunk);
    if (n <= 0) break;
    decoder.feed(chunk, static_cast<std::size_t>(n), [&](const SerialFrame& frame) { frames.push_back(frame.positions); });
  }
  loop.join();
  close(master);
  REQUIRE_MESSAGE(live.code == 0, live.err);
  CHECK(frames.size() >= static_cast<std::size_t>(0.95 * static_cast<double>(angles.rows())));
  // In order, each frame one of the mapper's rows, within the encoding's 0.005 degree.
  Eigen::Index k = 0;
  for (const Eigen::VectorXi& positions : frames) {
    const Eigen::VectorXd degrees = positions.cast<double>() / 100.0;
    while (k < angles.rows() && (degrees - angles.row(k).transpose() * 180.0 / M_PI).cwiseAbs().maxCoeff() > 0.005 + 1e-9) ++k;
    REQUIRE_MESSAGE(k < angles.rows(), "a serial frame is not one of the mapper's rows in order");
    ++k;
  }
}
