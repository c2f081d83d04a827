// The InMoov servo firmware (apps/inmoov_firmware/inmoov_servo), the real AVR binary, run in
// simavr as an ATmega2560 at 16 MHz; the servo pins' edges give every pulse width.
//
// The expected pulse widths are written here by hand (kExpected below), not taken from the servo
// table the firmware compiles: MyRobotLab's InMoov2 servo ranges and rest positions, the
// Arduino Servo library's pulse widths and MyRobotLab's servo speed, each cited where it is
// written. Checked:
// - frames of raw servo degrees, some beyond the ranges (one in 12 bit-flipped, one in 17
//   truncated, a quarter split across feeds with pauses): no pulse
//   before the first good frame; the first pulses are every servo's rest position; each pulse
//   differs from the servo's previous one by at most the speed limit's step; once the servos
//   have arrived, one pulse per servo per 20 ms at the last good frame's width (clamped to the
//   servo's range); a bad frame moves nothing;
// - end to end: `retarget live --source replay:<Kinect recording> --robot inmoov --method
//   humanoid --sink serial:<pty>` writes to a pseudo-terminal, and the bytes it wrote go into
//   the simulated Mega at the recording's pace: the pulses start at rest, stay inside every
//   servo's range, move no faster than the limit and end at the last frame's widths.
#include <doctest/doctest.h>

#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <avr_ioport.h>
#include <avr_uart.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <retarget/adapters/serial/servo_degrees.hpp>
#include <retarget/io/serial_frame.hpp>
#include <retarget/robots/inmoov.hpp>

#include "support/loopback.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

constexpr double kCyclesPerMicrosecond = 16.0;  // the Mega's 16 MHz clock
constexpr std::uint64_t kMillisecond = 16000;   // cycles
constexpr int kServos = kInMoovServoCount;
using Widths = std::array<int, kInMoovServoCount>;

// Port letter and bit of a Mega 2560 digital pin (the board's schematic), for the pins the
// servo table uses; the firmware finds them through the Arduino core instead.
struct PortBit {
  char port;
  int bit;
};
PortBit megaPin(int pin) {
  switch (pin) {
    case 2: return {'E', 4};
    case 3: return {'E', 5};
    case 4: return {'G', 5};
    case 5: return {'E', 3};
    case 6: return {'H', 3};
    case 7: return {'H', 4};
    case 8: return {'H', 5};
    case 9: return {'H', 6};
    case 10: return {'B', 4};
    case 11: return {'B', 5};
    case 12: return {'B', 6};
    case 13: return {'B', 7};
    case 32: return {'C', 5};
    case 33: return {'C', 4};
    case 34: return {'C', 3};
    case 35: return {'C', 2};
    case 36: return {'C', 1};
    case 37: return {'C', 0};
    case 38: return {'D', 7};
    case 39: return {'G', 2};
    case 40: return {'G', 1};
    case 41: return {'G', 0};
    default: return {'?', -1};
  }
}

struct Pulse {
  int servo;
  std::uint64_t rise;  // cycle
  double width_us;
};

// One simulated Mega running the firmware; bytes queued with the cycle at which the host
// sends them go into UART0 as its receive buffer takes them (simavr's XON/XOFF).
class SimulatedMega {
 public:
  explicit SimulatedMega(const char* elf_path) {
    elf_firmware_t firmware{};
    REQUIRE_MESSAGE(elf_read_firmware(elf_path, &firmware) == 0, "cannot read ", elf_path);
    avr_ = avr_make_mcu_by_name("atmega2560");
    REQUIRE(avr_ != nullptr);
    avr_init(avr_);
    avr_->log = LOG_NONE;
    firmware.frequency = 16000000;
    avr_load_firmware(avr_, &firmware);
    avr_->frequency = 16000000;
    std::uint32_t flags = 0;
    avr_ioctl(avr_, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~static_cast<std::uint32_t>(AVR_UART_FLAG_POLL_SLEEP | AVR_UART_FLAG_STDIO);
    avr_ioctl(avr_, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    uart_input_ = avr_io_getirq(avr_, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr_, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), &onXon, this);
    avr_irq_register_notify(avr_io_getirq(avr_, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), &onXoff, this);
    for (int i = 0; i < kServos; ++i) {
      const PortBit where = megaPin(kInMoovServos[i].pin);
      REQUIRE(where.bit >= 0);
      watches_[static_cast<std::size_t>(i)] = {this, i, 0};
      avr_irq_t* irq = avr_io_getirq(avr_, AVR_IOCTL_IOPORT_GETIRQ(where.port), where.bit);
      REQUIRE(irq != nullptr);
      avr_irq_register_notify(irq, &onPin, &watches_[static_cast<std::size_t>(i)]);
    }
  }
  ~SimulatedMega() { avr_terminate(avr_); }
  SimulatedMega(const SimulatedMega&) = delete;
  SimulatedMega& operator=(const SimulatedMega&) = delete;

  std::uint64_t now() const { return avr_->cycle; }
  void send(std::uint64_t at, const std::uint8_t* bytes, std::size_t size) {
    for (std::size_t k = 0; k < size; ++k) queue_.push_back({at, bytes[k]});
  }
  void runUntil(std::uint64_t cycle) {
    while (avr_->cycle < cycle) {
      while (!xoff_ && !queue_.empty() && queue_.front().at <= avr_->cycle) {
        const std::uint8_t byte = queue_.front().byte;
        queue_.pop_front();
        avr_raise_irq(uart_input_, byte);
      }
      const int state = avr_run(avr_);
      if (state == cpu_Crashed || state == cpu_Done) FAIL("the firmware stopped (state ", state, ")");
    }
  }
  const std::vector<Pulse>& pulses() const { return pulses_; }
  std::size_t edges() const { return edges_; }

 private:
  struct Queued {
    std::uint64_t at;
    std::uint8_t byte;
  };
  struct Watch {
    SimulatedMega* mega;
    int servo;
    std::uint64_t rise;  // 0: the pin is low
  };
  static void onXon(avr_irq_t*, std::uint32_t, void* param) { static_cast<SimulatedMega*>(param)->xoff_ = false; }
  static void onXoff(avr_irq_t*, std::uint32_t, void* param) { static_cast<SimulatedMega*>(param)->xoff_ = true; }
  static void onPin(avr_irq_t*, std::uint32_t value, void* param) {
    Watch& w = *static_cast<Watch*>(param);
    SimulatedMega& m = *w.mega;
    ++m.edges_;
    if (value != 0) {
      w.rise = m.avr_->cycle;
    } else if (w.rise != 0) {
      m.pulses_.push_back({w.servo, w.rise, static_cast<double>(m.avr_->cycle - w.rise) / kCyclesPerMicrosecond});
      w.rise = 0;
    }
  }

  avr_t* avr_ = nullptr;
  avr_irq_t* uart_input_ = nullptr;
  bool xoff_ = false;
  std::deque<Queued> queue_;
  std::array<Watch, kInMoovServoCount> watches_{};
  std::vector<Pulse> pulses_;
  std::size_t edges_ = 0;
};

// ---- what the servos must do, written by hand ---------------------------------------------

// Pulse width (us) the Arduino Servo library gives servo degree s: its default range
// MIN_PULSE_WIDTH 544 us .. MAX_PULSE_WIDTH 2400 us over 0..180 degrees (Servo.h), the widths
// MyRobotLab's MRLComm ends up sending, rounded to the nearest microsecond.
double servoMicroseconds(double degrees) { return 544.0 + degrees * (2400.0 - 544.0) / 180.0; }

// Fastest a servo may move: MyRobotLab's InMoov2 servo speed, `speed: 45.0` deg/s in every
// config/InMoov2_Full/i01.*.yml of MyRobotLab/InMoov2; per 20 ms pulse period 0.9 degree, i.e.
// 0.9 * 1856 / 180 = 9.28 us of pulse width.
constexpr double kSpeedDegPerS = 45.0;
constexpr double kStepMicroseconds = kSpeedDegPerS * 0.020 * (2400.0 - 544.0) / 180.0;

// One servo as MyRobotLab's InMoov2 configuration describes it (minOut, maxOut, rest; servo
// degrees) on the pin of the table's one-Mega wiring (docs/serial_protocol.md), and its pulse
// widths at min, rest and max worked out by hand with servoMicroseconds' formula.
struct ExpectedServo {
  int pin;
  int min_deg, max_deg, rest_deg;
  int min_us, rest_us, max_us;
};
constexpr ExpectedServo kExpected[kInMoovServoCount] = {
    // pin min max rest   us@min us@rest us@max   (q order; MyRobotLab part)
    {12, 20, 160, 90, 750, 1472, 2194},  // head_updown: i01.head.neck
    {13, 30, 150, 90, 853, 1472, 2091},  // head_leftright: i01.head.rothead
    {11, 10, 80, 10, 647, 647, 1369},    // right_shoulder_side: i01.rightArm.omoplate
    {10, 0, 180, 30, 544, 853, 2400},    // right_shoulder_up: i01.rightArm.shoulder
    {9, 40, 180, 90, 956, 1472, 2400},   // right_bicep_rotate: i01.rightArm.rotate
    {8, 0, 90, 0, 544, 544, 1472},       // right_bicep: i01.rightArm.bicep
    {7, 0, 180, 0, 544, 544, 2400},      // right_hand: i01.rightHand.wrist
    {2, 0, 180, 0, 544, 544, 2400},      // right_thumb
    {3, 0, 180, 0, 544, 544, 2400},      // right_index
    {4, 0, 180, 0, 544, 544, 2400},      // right_middle: majeure
    {5, 0, 180, 0, 544, 544, 2400},      // right_ring: ringFinger
    {6, 0, 180, 0, 544, 544, 2400},      // right_pinky
    {41, 10, 80, 10, 647, 647, 1369},    // left_shoulder_side (the left side: MyRobotLab's pin + 30)
    {40, 0, 180, 30, 544, 853, 2400},    // left_shoulder_up
    {39, 40, 180, 90, 956, 1472, 2400},  // left_bicep_rotate
    {38, 0, 90, 0, 544, 544, 1472},      // left_bicep
    {37, 0, 180, 0, 544, 544, 2400},     // left_hand
    {32, 0, 180, 0, 544, 544, 2400},     // left_thumb
    {33, 0, 180, 0, 544, 544, 2400},     // left_index
    {34, 0, 180, 0, 544, 544, 2400},     // left_middle
    {35, 0, 180, 0, 544, 544, 2400},     // left_ring
    {36, 0, 180, 0, 544, 544, 2400},     // left_pinky
};

// Width (us) servo i shows for a frame byte: the byte clamped to the servo's range.
double expectedWidth(int i, int byte) {
  const ExpectedServo& e = kExpected[static_cast<std::size_t>(i)];
  return servoMicroseconds(std::clamp(byte, e.min_deg, e.max_deg));
}

// us: an edge comes late when other interrupts run first (the two other banks' compares, the
// serial receiver's: a few us each); measured up to 11.3 us when three of them meet.
constexpr double kEdgeTolerance = 12.0;

// The checks every run shares, over all pulses: the first pulse of each servo is its rest width;
// each pulse stays in the servo's range; consecutive pulses of a servo (20 ms apart) differ by at
// most one speed step (plus the edge tolerance, twice: both widths may be off). Returns the
// largest change between consecutive pulses seen (us).
double checkPulseRules(const std::vector<Pulse>& pulses) {
  std::array<double, kInMoovServoCount> last{};
  std::array<std::uint64_t, kInMoovServoCount> last_rise{};
  std::array<bool, kInMoovServoCount> seen{};
  double largest = 0.0;
  for (const Pulse& p : pulses) {
    const std::size_t s = static_cast<std::size_t>(p.servo);
    const ExpectedServo& e = kExpected[s];
    CAPTURE(p.servo);
    CHECK(p.width_us >= e.min_us - kEdgeTolerance);
    CHECK(p.width_us <= e.max_us + kEdgeTolerance);
    if (!seen[s]) {
      CHECK_MESSAGE(std::abs(p.width_us - e.rest_us) <= kEdgeTolerance, "first pulse ", p.width_us, " us, rest is ",
                    e.rest_us);
      seen[s] = true;
    } else {
      const double periods = std::max(1.0, std::round(static_cast<double>(p.rise - last_rise[s]) / (20.0 * kMillisecond)));
      const double change = std::abs(p.width_us - last[s]);
      largest = std::max(largest, change / periods);
      CHECK_MESSAGE(change <= periods * kStepMicroseconds + 2 * kEdgeTolerance, "a step of ", change, " us in ",
                    periods, " periods");
    }
    last[s] = p.width_us;
    last_rise[s] = p.rise;
  }
  return largest;
}

// Runs the simulation until every servo's last pulse is within the edge tolerance of `want`
// (us), at most `longest` cycles; then checks that the next 20 ms hold exactly one pulse per
// servo, each at its width. Returns false when the servos did not arrive.
bool settleAndCheck(SimulatedMega& mega, std::uint64_t& cursor, const std::array<double, kInMoovServoCount>& want,
                    std::uint64_t longest, std::vector<double>& errors) {
  const std::uint64_t give_up = cursor + longest;
  auto arrived = [&] {
    std::array<bool, kInMoovServoCount> done{};
    int count = 0;
    for (auto it = mega.pulses().rbegin(); it != mega.pulses().rend() && count < kServos; ++it) {
      const std::size_t s = static_cast<std::size_t>(it->servo);
      if (done[s]) continue;
      done[s] = true;
      ++count;
      if (std::abs(it->width_us - want[s]) > kEdgeTolerance) return false;
    }
    return count == kServos;
  };
  while (!arrived()) {
    if (cursor >= give_up) return false;
    cursor += 20 * kMillisecond;
    mega.runUntil(cursor);
  }
  const std::size_t before = mega.pulses().size();
  cursor += 20 * kMillisecond;
  mega.runUntil(cursor);
  cursor += 3 * kMillisecond;  // the window's last pulses end
  mega.runUntil(cursor);
  std::array<int, kInMoovServoCount> count{};
  const std::uint64_t window_end = cursor - 3 * kMillisecond;
  for (std::size_t k = before; k < mega.pulses().size(); ++k) {
    const Pulse& p = mega.pulses()[k];
    if (p.rise >= window_end || p.rise + 20 * kMillisecond < window_end) continue;
    const std::size_t s = static_cast<std::size_t>(p.servo);
    ++count[s];
    const double error = std::abs(p.width_us - want[s]);
    errors.push_back(error);
    CHECK_MESSAGE(error <= kEdgeTolerance, "servo ", p.servo, ": ", p.width_us, " us, expected ", want[s]);
  }
  for (int s = 0; s < kServos; ++s) CHECK_MESSAGE(count[static_cast<std::size_t>(s)] == 1, "servo ", s);
  return true;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

TEST_CASE("inmoov firmware in simavr: pulses start at rest, move at the speed limit to the last good frame; bad frames move nothing") {
  const auto wall_start = std::chrono::steady_clock::now();
  SimulatedMega mega(RETARGET_INMOOV_FIRMWARE_ELF);
  for (int i = 0; i < kServos; ++i) REQUIRE(kInMoovServos[i].pin == kExpected[static_cast<std::size_t>(i)].pin);
  const SerialFrameFormat format;  // the paper's: 22 one-byte servo degrees
  REQUIRE(format.joint_count == std::size_t{kInMoovServoCount});
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::uint64_t byte_cycles = 87 * 16;  // 10 bits at 115200 baud

  // A frame of raw servo degrees: each servo's target walks up to 40 degrees from the last one,
  // over its range widened by 15 degrees (the firmware clamps); one frame in ten carries one
  // byte anywhere in 0..255.
  std::vector<std::uint8_t> bytes(format.frameSize());
  std::array<int, kInMoovServoCount> walk{};
  for (int i = 0; i < kServos; ++i) walk[static_cast<std::size_t>(i)] = kExpected[static_cast<std::size_t>(i)].rest_deg;
  Eigen::VectorXi degrees(kServos);
  auto makeFrame = [&](std::uint16_t stamp, std::array<double, kInMoovServoCount>& expected) {
    for (int i = 0; i < kServos; ++i) {
      const ExpectedServo& e = kExpected[static_cast<std::size_t>(i)];
      int& d = walk[static_cast<std::size_t>(i)];
      d = std::clamp(d + static_cast<int>(rng() % 81) - 40, std::max(0, e.min_deg - 15), std::min(255, e.max_deg + 15));
      degrees[i] = d;
    }
    if (unit(rng) < 0.1) degrees[static_cast<Eigen::Index>(rng() % kServos)] = static_cast<int>(rng() % 256);
    REQUIRE(writeSerialFrame(format, stamp, degrees, bytes.data(), bytes.size()).ok());
    for (int i = 0; i < kServos; ++i) expected[static_cast<std::size_t>(i)] = expectedWidth(i, degrees[i]);
  };

  // Before any good frame: garbage, a bit-flipped and a truncated frame; no pin may move.
  std::uint64_t cursor = 5 * kMillisecond;
  std::array<double, kInMoovServoCount> expected{};
  const std::uint8_t garbage[] = {0x00, 0xAA, 0x55, 0x16, 0x13, 0xFF, 0xAA, 0xAA, 0x55};
  mega.send(cursor, garbage, sizeof garbage);
  makeFrame(1, expected);
  bytes[9] ^= 0x10;
  mega.send(cursor + kMillisecond, bytes.data(), bytes.size());
  makeFrame(2, expected);
  mega.send(cursor + 5 * kMillisecond, bytes.data(), 17);
  cursor += 60 * kMillisecond;
  mega.runUntil(cursor);
  CHECK(mega.edges() == 0);
  for (int i = 0; i < kServos; ++i) walk[static_cast<std::size_t>(i)] = kExpected[static_cast<std::size_t>(i)].rest_deg;

  std::vector<std::array<double, kInMoovServoCount>> good;
  int frames = 0, flipped = 0, truncated = 0, split = 0, windows_after_bad = 0;
  std::vector<double> settled_errors;
  const int rounds = 12;
  for (int round = 0; round < rounds; ++round) {
    // A burst of 1..4 frames, 0..20 ms apart, some split into pieces with pauses between.
    const int count = 1 + static_cast<int>(rng() % 4);
    bool last_bad = false;
    for (int f = 0; f < count; ++f) {
      cursor += static_cast<std::uint64_t>(20.0 * unit(rng) * static_cast<double>(kMillisecond));
      ++frames;
      std::array<double, kInMoovServoCount> widths{};
      const auto kept_walk = walk;
      makeFrame(static_cast<std::uint16_t>(frames), widths);
      std::size_t size = bytes.size();
      last_bad = false;
      if (frames % 12 == 7) {  // one bit flipped anywhere in the frame
        bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        ++flipped;
        last_bad = true;
      } else if (frames % 17 == 11) {  // cut short
        size = 3 + rng() % (bytes.size() - 4);
        ++truncated;
        last_bad = true;
      }
      std::size_t begin = 0;
      if (unit(rng) < 0.25) {  // split in two or three feeds, 0.3..6 ms apart
        ++split;
        const int pieces = 2 + static_cast<int>(rng() % 2);
        for (int p = 1; p < pieces; ++p) {
          const std::size_t end = begin + 1 + rng() % (size - begin - 1);
          mega.send(cursor, bytes.data() + begin, end - begin);
          cursor += (end - begin) * byte_cycles +
                    static_cast<std::uint64_t>((0.3 + 5.7 * unit(rng)) * static_cast<double>(kMillisecond));
          begin = end;
          if (begin + 1 >= size) break;
        }
      }
      mega.send(cursor, bytes.data() + begin, size - begin);
      cursor += (size - begin) * byte_cycles;
      if (last_bad) {
        walk = kept_walk;  // the firmware did not take it: the next targets walk from the last good ones
        break;             // a bad frame ends its burst: the settled widths show it moved nothing
      }
      good.push_back(widths);
    }
    if (good.empty()) {
      cursor += 63 * kMillisecond;
      mega.runUntil(cursor);
      continue;
    }
    if (last_bad) ++windows_after_bad;
    // At 45 deg/s the longest walk (180 degrees) takes 4 s.
    CHECK_MESSAGE(settleAndCheck(mega, cursor, good.back(), 4500 * kMillisecond, settled_errors),
                  "round ", round, ": the servos did not reach the last good frame's widths");
  }
  const double largest_step = checkPulseRules(mega.pulses());
  CHECK(largest_step > 0.8 * kStepMicroseconds);  // the servos did move at (about) the limit
  CHECK(flipped + truncated >= 2);
  CHECK(windows_after_bad >= 2);
  CHECK(split >= 4);

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double simulated = static_cast<double>(mega.now()) / (1000.0 * static_cast<double>(kMillisecond));
  MESSAGE("firmware in simavr: ", frames, " frames (", good.size(), " good, ", flipped, " bit-flipped, ", truncated,
          " truncated, ", split, " split), ", mega.pulses().size(), " pulses; settled width error max ",
          settled_errors.empty() ? 0.0 : *std::max_element(settled_errors.begin(), settled_errors.end()), " us, median ",
          median(settled_errors), " us; largest change per 20 ms ", largest_step, " us (limit ", kStepMicroseconds,
          "); simulated ", simulated, " s in ", wall, " s");
}

#ifdef RETARGET_CLI_PATH
// Runs `retarget <arguments>` with a pseudo-terminal's slave as DEVICE in the arguments and
// returns everything written to it, and the program's exit code.
struct CapturedSerial {
  int code = -1;
  std::vector<std::uint8_t> bytes;
};
CapturedSerial runWithPty(const std::string& arguments_before_device, const std::string& arguments_after) {
  CapturedSerial result;
  const test::RawPty pty = test::openRawPty();
  const int master = pty.master;
  const std::string& device = pty.device;
  std::atomic<bool> ended{false};
  const std::string log = (std::filesystem::temp_directory_path() /
                           ("retarget_firmware_e2e_" + std::to_string(::getpid()) + ".txt")).string();
  std::thread program([&] {
    const std::string command = std::string("'") + RETARGET_CLI_PATH + "' " + arguments_before_device + device + " " +
                                arguments_after + " >'" + log + "' 2>&1";
    const int status = std::system(command.c_str());
    result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    ended.store(true);
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) {
      if (ended.load()) break;
      continue;
    }
    std::uint8_t chunk[4096];
    const ssize_t n = read(master, chunk, sizeof chunk);
    if (n <= 0) break;
    result.bytes.insert(result.bytes.end(), chunk, chunk + n);
  }
  program.join();
  close(master);
  if (result.code != 0) {
    std::ifstream in(log);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    MESSAGE("retarget said: ", text);
  }
  std::remove(log.c_str());
  return result;
}

TEST_CASE("inmoov end to end: retarget live (Kinect replay, humanoid) -> serial pty -> firmware in simavr") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const std::string kinect = (data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv").string();

  // The docs' example (docs/adapters.md, "InMoov serial link") with port 0 and a pty for the
  // Arduino: accepted, runs, and ends after --duration with nobody sending.
  // docs: retarget live --source kinect-osc:12345 --robot inmoov --method humanoid
  //       --sink serial:/dev/serial/by-id/usb-Arduino...-if00 (here kinect-osc:0, any free port;
  //       a pseudo-terminal for the Arduino's device; --duration 0.5 in place of Ctrl-C; then the
  //       same mapping and sink with a replayed Kinect recording as the source, its bytes fed to
  //       the firmware in simavr)
  const CapturedSerial example =
      runWithPty("live --source kinect-osc:0 --robot inmoov --method humanoid --sink serial:", "--duration 0.5");
  CHECK(example.code == 0);
  CHECK(example.bytes.empty());

  // The recording through the same command line; the bytes the sink wrote, decoded.
  const CapturedSerial captured =
      runWithPty("live --source replay:'" + kinect + "' --replay-speed 0 --robot inmoov --method humanoid --sink serial:",
                 "--serial-settle 0 --status-interval 0");
  REQUIRE(captured.code == 0);
  SerialFrameFormat format;  // the default: 22 one-byte servo degrees
  SerialFrameDecoder decoder(format);
  std::vector<SerialFrame> frames;
  decoder.feed(captured.bytes.data(), captured.bytes.size(), [&](const SerialFrame& frame) { frames.push_back(frame); });
  CHECK(decoder.stats().bad_frames == 0);
  REQUIRE(frames.size() >= 150);  // 154 in the recording; at most a few dropped as busy
  MESSAGE("end to end: ", frames.size(), " frames, ", captured.bytes.size(), " bytes");

  // Host side: the first frame is the rest pose; from frame to frame no servo moves more than
  // the sink's limit allows: the InMoov model's velocity limit, 0.5 rad/s (28.6 deg/s, the
  // URDF's, below the 45 deg/s cap), times the frames' time step (ms stamps), plus one degree of
  // rounding.
  for (int i = 0; i < kServos; ++i) {
    CHECK(frames.front().positions[i] == kExpected[static_cast<std::size_t>(i)].rest_deg);
  }
  bool moved = false;
  for (std::size_t k = 1; k < frames.size(); ++k) {
    const double dt = static_cast<std::uint16_t>(frames[k].timestamp - frames[k - 1].timestamp) / 1000.0;
    for (int i = 0; i < kServos; ++i) {
      const int change = std::abs(frames[k].positions[i] - frames[k - 1].positions[i]);
      moved = moved || change > 0;
      CHECK_MESSAGE(change <= 0.5 * 180.0 / M_PI * std::min(dt, 0.1) + 1.0 + 1e-9, "frame ", k, " servo ", i, ": ",
                    change, " degrees in ", dt, " s");
      CHECK(frames[k].positions[i] >= kExpected[static_cast<std::size_t>(i)].min_deg);
      CHECK(frames[k].positions[i] <= kExpected[static_cast<std::size_t>(i)].max_deg);
    }
  }
  CHECK(moved);

  // Firmware side: the frames at the recording's pace (their ms stamps), each at the link's
  // 115200 baud; then 4.5 s of quiet for the servos to arrive.
  SimulatedMega mega(RETARGET_INMOOV_FIRMWARE_ELF);
  const std::uint64_t byte_cycles = 87 * 16;
  std::uint64_t cursor = 50 * kMillisecond;
  std::vector<std::uint8_t> bytes(format.frameSize());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    if (k > 0) cursor += static_cast<std::uint16_t>(frames[k].timestamp - frames[k - 1].timestamp) * kMillisecond;
    REQUIRE(writeSerialFrame(format, frames[k].timestamp, frames[k].positions, bytes.data(), bytes.size()).ok());
    mega.send(cursor, bytes.data(), bytes.size());
    cursor += bytes.size() * byte_cycles;
  }
  mega.runUntil(cursor);
  std::array<double, kInMoovServoCount> want{};
  for (int i = 0; i < kServos; ++i) want[static_cast<std::size_t>(i)] = expectedWidth(i, frames.back().positions[i]);
  std::vector<double> errors;
  CHECK(settleAndCheck(mega, cursor, want, 4500 * kMillisecond, errors));
  (void)checkPulseRules(mega.pulses());
  CHECK(mega.pulses().size() > std::size_t{kInMoovServoCount} * 200u);  // 50 Hz over > 4 s
}
#endif
