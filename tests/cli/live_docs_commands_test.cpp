// The "Check first" commands of docs/adapters.md ("With a real Kinect v2", "With a real Perception
// Neuron") run as written, with a test sender on 127.0.0.1 in the device's place: a free port for
// 12345 / 7001, 127.0.0.1 for PC. Each live command ends by its own --duration 10; the report
// commands read what it recorded (Kinect) or a take exported from Axis Neuron (Noitom: the live
// loop does not record BVH channels). The senders play shared recordings as the
// devices put them on the wire, written here by hand (OSC messages of KinectV2-OSC; Axis Neuron's
// binary frames with NeuronDataReader's BvhDataHeader), not by the library's encoders. The other
// example commands of those sections run elsewhere: `--source noitom-udp:PORT --hierarchy FILE`
// in live_commands_test.cpp, `--source noitom-tcp:127.0.0.1:PORT --hierarchy FILE` in
// live_reconnect_test.cpp, `--hierarchy axis-studio` in live_commands_test.cpp.

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <retarget/human/frames.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/skeleton_csv.hpp>

#include "cli/cli_runner.hpp"
#include "support/loopback.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// True once the file's text holds `words`, waiting up to `seconds`.
bool fileSaysWithin(const fs::path& path, const std::string& words, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (!contains(slurp(path), words)) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

// OSC 1.0 by hand: a string NUL-terminated and padded to 4 bytes; a float32 big-endian.
void oscString(std::vector<std::uint8_t>& out, const std::string& s) {
  out.insert(out.end(), s.begin(), s.end());
  do out.push_back(0);
  while (out.size() % 4 != 0);
}
void oscFloat(std::vector<std::uint8_t>& out, float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<std::uint8_t>((bits >> shift) & 0xFFu));
}

// The datagrams KinectV2-OSC sends for one body frame: 25 `/bodies/{id}/joints/{JointType}` with
// x, y, z (Kinect camera space, m, float32) and the tracking state, then the two hand messages.
std::vector<std::vector<std::uint8_t>> kinectOscFrame(const SkeletonFrame<double>& frame) {
  std::vector<std::vector<std::uint8_t>> datagrams;
  const std::string prefix = "/bodies/72057594037929000";
  for (int j = 0; j < kHumanJointCount; ++j) {
    const Eigen::Vector3d p_K = canonicalToKinect(frame.position(static_cast<HumanJoint>(j)));
    std::vector<std::uint8_t> m;
    oscString(m, prefix + "/joints/" + std::string(name(static_cast<HumanJoint>(j))));
    oscString(m, ",fffs");
    oscFloat(m, static_cast<float>(p_K.x()));
    oscFloat(m, static_cast<float>(p_K.y()));
    oscFloat(m, static_cast<float>(p_K.z()));
    oscString(m, "Tracked");
    datagrams.push_back(m);
  }
  for (const char* hand : {"Left", "Right"}) {
    std::vector<std::uint8_t> m;
    oscString(m, prefix + "/hands/" + hand);
    oscString(m, ",ss");
    oscString(m, "Open");
    oscString(m, "High");
    datagrams.push_back(m);
  }
  return datagrams;
}

// One binary frame as Axis Neuron sends it with displacement off and no reference: the 64-byte
// NeuronDataReader BvhDataHeader (little-endian) and 180 float32, the BVH MOTION line of the
// Axis Neuron recording (the root's translation, then 3 rotations per joint).
std::vector<std::uint8_t> axisNeuronFrame(const Eigen::VectorXd& motion_line, std::uint32_t frame_index) {
  std::vector<std::uint8_t> b(64 + 4 * static_cast<std::size_t>(motion_line.size()), 0);
  auto put = [&](std::size_t at, std::uint32_t v, int size) {
    for (int i = 0; i < size; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>((v >> (8 * i)) & 0xFFu);
  };
  put(0, 0xDDFF, 2);                                           // @0  Token1
  b[4] = 1;                                                    // @2  DataVersion 1.1.0.0: build, revision,
  b[5] = 1;                                                    //     minor @4, major @5
  put(6, static_cast<std::uint32_t>(motion_line.size()), 2);  // @6  DataCount
  // @8 WithDisp 0, @9 WithReference 0, @10 AvatarIndex 0
  std::memcpy(b.data() + 14, "Avatar00", 8);                  // @14 AvatarName
  put(46, frame_index, 4);                                     // @46 FrameIndex
  put(62, 0xEEFF, 2);                                          // @62 Token2
  for (Eigen::Index i = 0; i < motion_line.size(); ++i) {
    const auto value = static_cast<float>(motion_line[i]);
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    put(64 + 4 * static_cast<std::size_t>(i), bits, 4);
  }
  return b;
}

}  // namespace

TEST_CASE("docs/adapters.md, Kinect v2, check first: live with --sensor-tilt auto into skeleton-csv, then its report") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const SkeletonMotion<double> motion = readKinect((data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv").string());
  const fs::path dir = tempDir() / "docs_kinect";
  fs::create_directories(dir);
  const int port = freeLoopbackPort(SOCK_DGRAM);
  const fs::path check = dir / "check.csv";
  // docs: retarget live --source kinect-osc:12345 --robot nao --method ga-lvvj --sensor-tilt auto
  //       --sink skeleton-csv:check.csv --duration 10
  BackgroundRun live({"live", "--source", "kinect-osc:" + std::to_string(port), "--robot", "nao", "--method", "ga-lvvj",
                      "--sensor-tilt", "auto", "--sink", "skeleton-csv:" + check.string(), "--duration", "10"},
                     dir / "out.txt", dir / "err.txt");
  REQUIRE(live.started());
  REQUIRE_MESSAGE(fileSaysWithin(dir / "err.txt", "waiting for the first frame", 8), slurp(dir / "err.txt"));
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  sockaddr_in to{};
  to.sin_family = AF_INET;
  to.sin_port = htons(static_cast<std::uint16_t>(port));
  to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const std::size_t frames = motion.size();
  for (const SkeletonFrame<double>& frame : motion.frames) {
    for (const std::vector<std::uint8_t>& m : kinectOscFrame(frame)) {
      CHECK(sendto(fd, m.data(), m.size(), 0, reinterpret_cast<sockaddr*>(&to), sizeof to) == static_cast<ssize_t>(m.size()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  close(fd);
  // --duration 10 ends it (signal 0: only wait).
  const std::optional<Run> ended = live.stop(0, 30000);
  REQUIRE_MESSAGE(ended.has_value(), "live did not end after --duration 10");
  REQUIRE_MESSAGE(ended->code == 0, ended->err);
  CHECK(contains(ended->err, "sensor tilt estimated"));  // printed once 60 frames are in
  const SkeletonMotion<double> recorded = readSkeletonCsv(check.string());
  CHECK(recorded.size() == frames);
  // docs: retarget report check.csv --robot nao --method ga-lvvj -o check.html
  const Run report = run("report " + quoted(check) + " --robot nao --method ga-lvvj -o " + quoted(dir / "check.html"));
  REQUIRE_MESSAGE(report.code == 0, report.err);
  CHECK(fs::file_size(dir / "check.html") > 1000);
}

TEST_CASE("docs/adapters.md, Perception Neuron, check first: live from noitom-tcp into csv; the report of an exported take") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion bvh = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const fs::path dir = tempDir() / "docs_noitom";
  fs::create_directories(dir);
  // Axis Neuron is the TCP server: listen, then start the receiver.
  const LoopbackListener server = listenOnLoopback(1);
  const int listener = server.fd;
  const int port = server.port;
  const fs::path check = dir / "check.csv";
  // docs: retarget live --source noitom-tcp:PC:7001 --hierarchy axis-neuron --robot inmoov
  //       --method euler --sink csv:check.csv --duration 10
  BackgroundRun live({"live", "--source", "noitom-tcp:127.0.0.1:" + std::to_string(port), "--hierarchy", "axis-neuron",
                      "--robot", "inmoov", "--method", "euler", "--sink", "csv:" + check.string(), "--duration", "10"},
                     dir / "out.txt", dir / "err.txt");
  REQUIRE(live.started());
  const int connection = accept(listener, nullptr, nullptr);
  REQUIRE(connection >= 0);
  constexpr int kFrames = 300;
  for (int f = 0; f < kFrames; ++f) {
    const std::vector<std::uint8_t> frame = axisNeuronFrame(bvh.frameValues(f), static_cast<std::uint32_t>(f + 1));
    REQUIRE(send(connection, frame.data(), frame.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(frame.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(4));
  }
  const std::optional<Run> ended = live.stop(0, 30000);
  close(connection);
  close(listener);
  REQUIRE_MESSAGE(ended.has_value(), "live did not end after --duration 10");
  REQUIRE_MESSAGE(ended->code == 0, ended->err);
  CHECK_FALSE(contains(ended->err, "rotation order"));  // the template's Y X Z is the sender's
  const JointTrajectory angles = readJointTrajectoryCsv(check.string());
  CHECK(angles.positions.rows() == kFrames);
  CHECK(ended->out.find("dropped 0") != std::string::npos);
  // docs: retarget report take.bvh --robot inmoov --method euler -o take.html (a take exported
  // from Axis Neuron: here the shared export)
  const fs::path take = data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh";
  const Run r = run("report " + quoted(take) + " --robot inmoov --method euler -o " + quoted(dir / "take.html"));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(fs::file_size(dir / "take.html") > 1000);
}
