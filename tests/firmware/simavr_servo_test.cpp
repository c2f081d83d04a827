// The InMoov servo firmware (apps/inmoov_firmware/inmoov_servo), the real AVR binary, run in
// simavr as an ATmega2560 at 16 MHz: serial frames made by the library (writeSerialFrame, with
// positions from inmoovServoDegrees and the shared servo table) go into UART0 at the link's
// pace, whole or split with pauses, with 5 % bit-flipped and 2 % truncated frames among them;
// the servo pins' edges give every pulse width. Checked: no pulse before the first good frame;
// once the line is quiet, every servo pulses once per 20 ms at the width of the last good frame
// (within 10 us, the firmware's own clamp applied); no pulse ever has the width of a frame that
// was not good (a bad frame moves nothing).

#include <doctest/doctest.h>

#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_io.h>
#include <sim_irq.h>
#include <avr_ioport.h>
#include <avr_uart.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include <retarget/adapters/serial/servo_degrees.hpp>
#include <retarget/io/serial_frame.hpp>
#include <retarget/robots/inmoov.hpp>

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

// A good frame as the servos should show it: the time its last byte was queued, the widths.
struct GoodFrame {
  std::uint64_t sent;
  Widths us;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

TEST_CASE("inmoov firmware in simavr: pulse widths follow the last good frame; bad frames move nothing") {
  const auto wall_start = std::chrono::steady_clock::now();
  SimulatedMega mega(RETARGET_INMOOV_FIRMWARE_ELF);
  const RobotModel<double> model = makeInMoov();
  const SerialFrameFormat format;  // the paper's: 22 one-byte servo degrees
  REQUIRE(format.joint_count == std::size_t{kInMoovServoCount});
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::uint64_t byte_cycles = 87 * 16;  // 10 bits at 115200 baud

  // A frame of the library's: q drawn over the joint limits widened by 20 % (the host clamps),
  // degrees from the shared table; one frame in ten then carries one raw byte beyond its
  // servo's range, which the firmware must clamp itself.
  std::vector<std::uint8_t> bytes(format.frameSize());
  Eigen::VectorXd q(model.nq());
  Eigen::VectorXi degrees(model.nq());
  auto makeFrame = [&](std::uint16_t stamp, Widths& expected) {
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      const double lo = model.lowerLimits()[i], hi = model.upperLimits()[i], margin = 0.2 * (hi - lo);
      q[i] = lo - margin + (hi - lo + 2 * margin) * unit(rng);
    }
    const Status status = inmoovServoDegrees(q, degrees);
    REQUIRE((status.ok() || status == Status(StatusCode::kClamped)));
    if (unit(rng) < 0.1) degrees[static_cast<Eigen::Index>(rng() % kServos)] = static_cast<int>(rng() % 256);
    REQUIRE(writeSerialFrame(format, stamp, degrees, bytes.data(), bytes.size()).ok());
    for (int i = 0; i < kServos; ++i) {
      const ServoChannel& s = kInMoovServos[i];
      expected[static_cast<std::size_t>(i)] = servoPulseMicroseconds(s, std::clamp<int>(degrees[i], s.min_deg, s.max_deg));
    }
  };

  // Before any good frame: garbage, a bit-flipped and a truncated frame; no pin may move.
  std::uint64_t cursor = 5 * kMillisecond;
  Widths expected{};
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

  std::vector<GoodFrame> good;
  std::vector<std::uint64_t> bad_sent;
  int frames = 0, flipped = 0, truncated = 0, split = 0, windows_after_bad = 0;
  std::vector<double> settled_errors;
  const int rounds = 30;
  for (int round = 0; round < rounds; ++round) {
    // A burst of 1..4 frames, 0..20 ms apart, some split into pieces with pauses between.
    const int count = 1 + static_cast<int>(rng() % 4);
    bool last_bad = false;
    for (int f = 0; f < count; ++f) {
      cursor += static_cast<std::uint64_t>(20.0 * unit(rng) * static_cast<double>(kMillisecond));
      ++frames;
      Widths widths{};
      makeFrame(static_cast<std::uint16_t>(frames), widths);
      std::size_t size = bytes.size();
      last_bad = false;
      if (frames % 20 == 7) {  // 5 %: one bit flipped anywhere in the frame
        bytes[rng() % bytes.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        ++flipped;
        last_bad = true;
      } else if (frames % 50 == 23) {  // 2 %: cut short
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
        bad_sent.push_back(cursor);
        break;  // a bad frame ends its burst: the quiet window below shows it moved nothing
      }
      good.push_back({cursor, widths});
    }
    // Quiet for 63 ms: a bank takes new widths at the end of its 20 ms frame and uses them from
    // its next frame on, within 40 ms; the 20 ms after that hold exactly one pulse per servo at
    // the last good frame's width. (3 ms more so that the window's last pulses have ended.)
    cursor += 63 * kMillisecond;
    const std::uint64_t window_end = cursor;
    cursor += 3 * kMillisecond;
    mega.runUntil(cursor);
    if (good.empty()) continue;
    if (last_bad) ++windows_after_bad;
    const Widths& want = good.back().us;
    std::array<int, kInMoovServoCount> seen{};
    for (auto it = mega.pulses().rbegin(); it != mega.pulses().rend(); ++it) {
      // (Pulses are listed by their falling edges; none is longer than 2.5 ms.)
      if (it->rise + 25 * kMillisecond < window_end) break;
      if (it->rise >= window_end || it->rise + 20 * kMillisecond < window_end) continue;
      const std::size_t s = static_cast<std::size_t>(it->servo);
      ++seen[s];
      const double error = std::abs(it->width_us - want[s]);
      settled_errors.push_back(error);
      CHECK_MESSAGE(error <= 10.0, "round ", round, " servo ", it->servo, ": ", it->width_us, " us, expected ", want[s]);
    }
    for (int s = 0; s < kServos; ++s) CHECK_MESSAGE(seen[static_cast<std::size_t>(s)] == 1, "round ", round, " servo ", s);
  }

  // Every pulse, at any time, has the width of a good frame that could be in force then: the
  // last one sent 42 ms or more before its rising edge, or one sent since (see the latency above).
  std::vector<double> all_errors;
  for (const Pulse& p : mega.pulses()) {
    double best = 1e9;
    bool older_taken = false;
    for (auto g = good.rbegin(); g != good.rend(); ++g) {
      if (g->sent > p.rise) continue;
      const bool recent = g->sent + 42 * kMillisecond > p.rise;
      if (!recent && older_taken) break;
      if (!recent) older_taken = true;
      best = std::min(best, std::abs(p.width_us - g->us[static_cast<std::size_t>(p.servo)]));
    }
    all_errors.push_back(best);
  }
  const double worst = all_errors.empty() ? 1e9 : *std::max_element(all_errors.begin(), all_errors.end());
  CHECK(worst <= 10.0);
  CHECK(flipped + truncated >= 3);
  CHECK(windows_after_bad >= 3);
  CHECK(split >= 10);
  CHECK(mega.pulses().size() > std::size_t{kInMoovServoCount} * 3u * static_cast<std::size_t>(rounds));  // 50 Hz

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  const double simulated = static_cast<double>(mega.now()) / (1000.0 * static_cast<double>(kMillisecond));
  MESSAGE("firmware in simavr: ", frames, " frames (", good.size(), " good, ", flipped, " bit-flipped, ", truncated,
          " truncated, ", split, " split), ", mega.pulses().size(), " pulses; settled width error max ",
          settled_errors.empty() ? 0.0 : *std::max_element(settled_errors.begin(), settled_errors.end()), " us, median ",
          median(settled_errors), " us; any pulse vs. a good frame max ", worst, " us; simulated ", simulated,
          " s in ", wall, " s");
}
