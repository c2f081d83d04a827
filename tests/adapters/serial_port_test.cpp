// SerialPort through a pseudo-terminal pair standing in for the InMoov's USB serial adapter:
// frames written decode back identically with the library's decoder; closing the terminal
// (unplugging) and creating a new one behind the same path (replugging) resumes; a peer that
// stops reading makes frames drop, never the loop block; a device that resets when opened
// (an Arduino) loses nothing the port counts as written, because the port waits it out.

#include <doctest/doctest.h>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <retarget/adapters/serial/serial_port.hpp>
#include <retarget/io/serial_frame.hpp>

using namespace retarget;

namespace {

// A pseudo-terminal whose slave is reachable through a fixed symbolic link `path()` (like a
// udev link under /dev/serial/by-id/) in a scratch folder of its own, removed with it; `plug`
// after `unplug` makes a new one behind the same link.
class FakeDevice {
 public:
  explicit FakeDevice(const std::string& name)
      : dir_(std::filesystem::temp_directory_path() / ("retarget_serial_" + std::to_string(getpid()) + "_" + name)),
        link_(dir_ / name) {
    std::filesystem::create_directories(dir_);
    plug();
  }
  ~FakeDevice() {
    unplug();
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
  const std::filesystem::path& path() const { return link_; }
  FakeDevice(const FakeDevice&) = delete;
  FakeDevice& operator=(const FakeDevice&) = delete;

  void plug() {
    master_ = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    REQUIRE(master_ >= 0);
    REQUIRE(grantpt(master_) == 0);
    REQUIRE(unlockpt(master_) == 0);
    const char* slave = ptsname(master_);
    REQUIRE(slave != nullptr);
    const std::filesystem::path temporary = link_.string() + ".new";
    std::filesystem::remove(temporary);
    std::filesystem::create_symlink(slave, temporary);
    std::filesystem::rename(temporary, link_);  // atomic, like udev replacing its link
  }
  void unplug() {
    if (master_ >= 0) close(master_);
    master_ = -1;
  }
  // Everything the robot side has received so far.
  std::vector<std::uint8_t> drain() {
    std::vector<std::uint8_t> bytes;
    std::uint8_t chunk[4096];
    for (;;) {
      const ssize_t n = read(master_, chunk, sizeof(chunk));
      if (n <= 0) break;
      bytes.insert(bytes.end(), chunk, chunk + n);
    }
    return bytes;
  }

 private:
  std::filesystem::path dir_;
  std::filesystem::path link_;
  int master_ = -1;
};

SerialFrame randomFrame(std::mt19937& rng, const SerialFrameFormat& format) {
  std::uniform_int_distribution<int> value(0, 180), stamp(0, 65535);
  SerialFrame f;
  f.timestamp = static_cast<std::uint16_t>(stamp(rng));
  f.positions.resize(static_cast<Eigen::Index>(format.joint_count));
  for (Eigen::Index k = 0; k < f.positions.size(); ++k) f.positions[k] = value(rng);
  return f;
}

}  // namespace

TEST_CASE("serial port: frames through a pseudo-terminal decode identically; unplug and replug resume") {
  FakeDevice device("ttyInMoov");
  SerialPortOptions options;
  options.device = device.path().string();
  options.reconnect_interval = 0.05;
  options.settle_time = 0.0;  // a pseudo-terminal does not reset
  SerialPort port(options);
  REQUIRE(port.connected());

  const SerialFrameFormat format;  // the paper's 22 one-byte joints
  SerialFrameDecoder decoder(format);
  std::vector<SerialFrame> sent, received;
  auto collect = [&](const std::vector<std::uint8_t>& bytes) {
    decoder.feed(bytes.data(), bytes.size(), [&](const SerialFrame& f) { received.push_back(f); });
  };
  std::mt19937 rng(29);
  std::vector<std::uint8_t> bytes(format.frameSize());
  auto offer = [&](const SerialFrame& f) {
    REQUIRE(writeSerialFrame(format, f.timestamp, f.positions, bytes.data(), bytes.size()).ok());
    return port.write(bytes.data(), bytes.size());
  };

  for (int k = 0; k < 200; ++k) {
    const SerialFrame f = randomFrame(rng, format);
    REQUIRE(offer(f));
    sent.push_back(f);
    collect(device.drain());
  }
  REQUIRE(received.size() == sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i) {
    CHECK(received[i].timestamp == sent[i].timestamp);
    CHECK(received[i].positions == sent[i].positions);
  }
  CHECK(decoder.stats().bad_frames == 0);

  // Unplugged: the next frames are dropped (counted), the loop goes on.
  device.unplug();
  int dropped = 0;
  for (int k = 0; k < 5; ++k) dropped += offer(randomFrame(rng, format)) ? 0 : 1;
  CHECK(dropped >= 4);  // the first may still be queued before the write fails
  CHECK_FALSE(port.connected());
  CHECK(port.counters().lost + port.counters().disconnected >= 4);

  // Replugged behind the same path: writing resumes after the reconnect interval.
  device.plug();
  SerialFrameDecoder fresh(format);
  std::vector<SerialFrame> after, resumed;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!port.connected() && std::chrono::steady_clock::now() < deadline) {
    port.service();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(port.connected());
  CHECK(port.counters().reconnects == 1);
  for (int k = 0; k < 50; ++k) {
    const SerialFrame f = randomFrame(rng, format);
    REQUIRE(offer(f));
    after.push_back(f);
    const auto chunk = device.drain();
    fresh.feed(chunk.data(), chunk.size(), [&](const SerialFrame& f2) { resumed.push_back(f2); });
  }
  REQUIRE(resumed.size() == after.size());
  for (std::size_t i = 0; i < after.size(); ++i) CHECK(resumed[i].positions == after[i].positions);
}

TEST_CASE("serial port: a peer that stops reading drops frames instead of blocking; the rest arrive intact") {
  FakeDevice device("ttySlow");
  SerialPortOptions options;
  options.device = device.path().string();
  options.settle_time = 0.0;
  SerialPort port(options);
  const SerialFrameFormat format;
  std::vector<std::uint8_t> bytes(format.frameSize());
  std::mt19937 rng(3);
  std::vector<SerialFrame> accepted;
  const auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < 20000; ++k) {  // far more than a pseudo-terminal buffers
    const SerialFrame f = randomFrame(rng, format);
    REQUIRE(writeSerialFrame(format, f.timestamp, f.positions, bytes.data(), bytes.size()).ok());
    if (port.write(bytes.data(), bytes.size())) accepted.push_back(f);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 5.0);  // a bound against hanging, not a speed test
  CHECK(port.counters().busy > 0);
  CHECK(port.counters().busy + accepted.size() == 20000);
  // What the robot side reads decodes to frames accepted, in order (the last may be partial).
  SerialFrameDecoder decoder(format);
  std::vector<SerialFrame> received;
  for (int round = 0; round < 1000 && received.size() + 1 < accepted.size(); ++round) {
    const auto chunk = device.drain();
    decoder.feed(chunk.data(), chunk.size(), [&](const SerialFrame& f) { received.push_back(f); });
    port.service();
  }
  REQUIRE(received.size() + 1 >= accepted.size());
  for (std::size_t i = 0; i < received.size(); ++i) CHECK(received[i].positions == accepted[i].positions);
  CHECK(decoder.stats().bad_frames == 0);
}

TEST_CASE("serial port: options are validated, naming the field; an absent device is not an error") {
  SerialPortOptions bad;
  CHECK_THROWS_WITH_AS(SerialPort{bad}, doctest::Contains("device"), InvalidArgument);
  bad.device = "/nonexistent/ttyUSB9";
  bad.baud = 12345;
  CHECK_THROWS_WITH_AS(SerialPort{bad}, doctest::Contains("12345"), InvalidArgument);
  bad.baud = 115200;
  bad.settle_time = -1.0;
  CHECK_THROWS_WITH_AS(SerialPort{bad}, doctest::Contains("settle_time"), InvalidArgument);
  bad.settle_time = 2.0;
  SerialPort absent(bad);
  CHECK_FALSE(absent.connected());
  const std::uint8_t byte = 0;
  CHECK_FALSE(absent.write(&byte, 1));
  CHECK(absent.counters().disconnected == 1);
}

namespace {

// Offers a random frame every `period` for `duration` to `port`; the "board" behind `device`
// drains the bytes and throws away whatever arrives before `reset_end` (its bootloader runs
// then), decoding the rest. Returns the frames the board decoded.
std::vector<SerialFrame> runResettingBoard(SerialPort& port, FakeDevice& device,
                                           std::chrono::steady_clock::time_point reset_end,
                                           std::chrono::milliseconds duration, std::mt19937& rng,
                                           std::vector<SerialFrame>& accepted) {
  const SerialFrameFormat format;
  SerialFrameDecoder decoder(format);
  std::vector<SerialFrame> received;
  std::vector<std::uint8_t> bytes(format.frameSize());
  const auto end = std::chrono::steady_clock::now() + duration;
  while (std::chrono::steady_clock::now() < end) {
    const SerialFrame f = randomFrame(rng, format);
    REQUIRE(writeSerialFrame(format, f.timestamp, f.positions, bytes.data(), bytes.size()).ok());
    if (port.write(bytes.data(), bytes.size())) accepted.push_back(f);
    const auto chunk = device.drain();
    if (std::chrono::steady_clock::now() >= reset_end) {
      decoder.feed(chunk.data(), chunk.size(), [&](const SerialFrame& g) { received.push_back(g); });
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (int round = 0; round < 100 && port.pendingBytes() > 0; ++round) port.service();
  const auto rest = device.drain();
  decoder.feed(rest.data(), rest.size(), [&](const SerialFrame& g) { received.push_back(g); });
  return received;
}

}  // namespace

TEST_CASE("serial port: a board that resets on open loses no written frame; settling is counted, again after a replug") {
  FakeDevice device("ttyResets");
  SerialPortOptions options;
  options.device = device.path().string();
  options.reconnect_interval = 0.05;
  options.settle_time = 0.4;
  const auto reset = std::chrono::milliseconds(300);  // the simulated bootloader's time
  std::mt19937 rng(41);
  std::vector<SerialFrame> accepted;
  auto reset_end = std::chrono::steady_clock::now() + reset;
  SerialPort port(options);
  REQUIRE(port.connected());
  CHECK(port.settling());
  std::vector<SerialFrame> received =
      runResettingBoard(port, device, reset_end, std::chrono::milliseconds(700), rng, accepted);
  CHECK(port.counters().settling > 10);
  CHECK_FALSE(port.settling());
  // Every frame the port accepted reached the running sketch, in order.
  REQUIRE(received.size() == accepted.size());
  REQUIRE(received.size() == port.counters().written);
  CHECK(received.size() > 10);
  for (std::size_t i = 0; i < received.size(); ++i) CHECK(received[i].positions == accepted[i].positions);

  // Unplug and replug: the reopened board resets again, and the port waits again.
  device.unplug();
  const std::uint8_t byte = 0;
  for (int k = 0; k < 5 && port.connected(); ++k) (void)port.write(&byte, 1);
  REQUIRE_FALSE(port.connected());
  device.plug();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!port.connected() && std::chrono::steady_clock::now() < deadline) {
    port.service();
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  REQUIRE(port.connected());
  reset_end = std::chrono::steady_clock::now() + reset;
  const std::uint64_t settled_before = port.counters().settling;
  const std::uint64_t written_before = port.counters().written;
  accepted.clear();
  received = runResettingBoard(port, device, reset_end, std::chrono::milliseconds(700), rng, accepted);
  CHECK(port.counters().settling > settled_before + 10);
  REQUIRE(received.size() == accepted.size());
  CHECK(received.size() == port.counters().written - written_before);
}

TEST_CASE("serial port: HUPCL is cleared, so closing the port does not drop DTR (no reset at the next open)") {
  FakeDevice device("ttyHup");
  // A pseudo-terminal slave starts with HUPCL set, as a USB serial device does.
  const int probe = open(device.path().c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK);
  REQUIRE(probe >= 0);
  termios before{};
  REQUIRE(tcgetattr(probe, &before) == 0);
  before.c_cflag |= HUPCL;
  REQUIRE(tcsetattr(probe, TCSANOW, &before) == 0);
  SerialPortOptions options;
  options.device = device.path().string();
  {
    SerialPort port(options);
    REQUIRE(port.connected());
    termios after{};
    REQUIRE(tcgetattr(probe, &after) == 0);
    CHECK((after.c_cflag & HUPCL) == 0);
    CHECK((after.c_cflag & CSIZE) == CS8);
  }
  close(probe);
}
