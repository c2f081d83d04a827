#pragma once

/// @file
/// A serial port for the InMoov frame protocol (io/serial_frame.hpp) on POSIX systems: termios
/// raw mode, 8 data bits, no parity, one stop bit, the chosen baud rate, non-blocking writes,
/// and reconnection when the device goes away (USB adapter unplugged, pseudo-terminal closed)
/// and comes back under the same path. Header-only, POSIX only, no dependency beyond the C
/// library (part of `retarget::retarget`); never included by retarget/retarget.hpp.
///
/// Never blocks the control loop: `write` queues at most one frame; a frame offered while the
/// previous one is still going out is dropped and counted (`busy`), so a slow link loses
/// commands instead of delaying the next frame. `write` and `service` never throw and never
/// allocate (the queue is sized once).
///
/// Arduino boards reset when the port opens: the USB serial chip pulls DTR, which is wired to
/// the reset pin, and the board's bootloader then listens for a new program for about 1-2 s
/// before it starts the sketch; bytes sent meanwhile are lost. On Linux a fresh open() raises
/// DTR and so resets the board whatever the termios flags say (the first open of a Uno or Mega
/// always resets it; only a 10 uF capacitor between RESET and GND on the board prevents that).
/// So after every open, including reconnects, `write` drops frames for `settle_time` seconds
/// (counted, `settling`) instead of feeding them to the bootloader. And HUPCL is cleared, so
/// closing the port does not drop DTR: a later open in the same session (another program, a
/// reconnect through the same driver state) does not reset the board again.

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <retarget/core/error.hpp>

namespace retarget {

/// Options of `SerialPort`.
struct SerialPortOptions {
  /// Device path, e.g. "/dev/ttyUSB0" or a stable udev link under /dev/serial/by-id/.
  std::string device{};
  /// Baud rate: one of 9600, 19200, 38400, 57600, 115200, 230400.
  int baud = 115200;
  /// Largest message (bytes, >= 1) `write` accepts: one protocol frame.
  std::size_t max_message_size = 256;
  /// s (> 0): after the device went away, how often to try to open it again.
  double reconnect_interval = 0.5;
  /// s (0 <= s < 60): after each open, frames are dropped (counted as `settling`) for this long,
  /// the time an Arduino reset by the open takes to start its sketch (the Mega 2560's
  /// bootloader waits about 1 s, a Uno's about 0.5 s, plus the sketch's own start). 0 for a
  /// device that does not reset.
  double settle_time = 2.0;

  /// Throws InvalidArgument naming the field when a value is out of range.
  void validate() const {
    RETARGET_THROW_UNLESS(!device.empty(), InvalidArgument, "SerialPortOptions.device is empty");
    RETARGET_THROW_UNLESS(baudConstant(baud) != 0, InvalidArgument, "SerialPortOptions.baud is not supported (got ",
                          baud, ", expected 9600, 19200, 38400, 57600, 115200 or 230400)");
    RETARGET_THROW_UNLESS(max_message_size >= 1, InvalidArgument, "SerialPortOptions.max_message_size is invalid (got ",
                          max_message_size, ", expected >= 1)");
    RETARGET_THROW_UNLESS(reconnect_interval > 0.0 && reconnect_interval < 3600.0, InvalidArgument,
                          "SerialPortOptions.reconnect_interval is invalid (got ", reconnect_interval,
                          ", expected 0 < s < 3600)");
    RETARGET_THROW_UNLESS(settle_time >= 0.0 && settle_time < 60.0, InvalidArgument,
                          "SerialPortOptions.settle_time is invalid (got ", settle_time, ", expected 0 <= s < 60)");
  }

  /// The termios speed constant of a baud rate, 0 when unsupported.
  static speed_t baudConstant(int rate) {
    switch (rate) {
      case 9600:
        return B9600;
      case 19200:
        return B19200;
      case 38400:
        return B38400;
      case 57600:
        return B57600;
      case 115200:
        return B115200;
      case 230400:
        return B230400;
      default:
        return 0;
    }
  }
};

/// What happened to the messages offered to a `SerialPort`.
struct SerialPortCounters {
  std::uint64_t written = 0;       ///< Messages written completely.
  std::uint64_t busy = 0;          ///< Dropped: the previous message was still going out.
  std::uint64_t disconnected = 0;  ///< Dropped: the device was not open.
  std::uint64_t too_large = 0;     ///< Dropped: larger than max_message_size.
  std::uint64_t lost = 0;          ///< Cut short: the device went away while it was going out.
  std::uint64_t reconnects = 0;    ///< Times the device was opened again after going away.
  std::uint64_t settling = 0;      ///< Dropped: within settle_time of an open (board resetting).
};

/// One serial device, opened on construction if it is there, reopened after it goes away.
class SerialPort {
 public:
  /// Throws InvalidArgument on bad options. A device that is absent is not an error: the
  /// port keeps trying (`connected()` says whether it is open).
  explicit SerialPort(const SerialPortOptions& options) : options_((options.validate(), options)) {
    pending_.resize(options_.max_message_size);
    open();
  }
  ~SerialPort() { close(); }
  SerialPort(const SerialPort&) = delete;
  SerialPort& operator=(const SerialPort&) = delete;

  bool connected() const { return fd_ >= 0; }
  /// True while frames are dropped after an open (see SerialPortOptions::settle_time).
  bool settling() const {
    return connected() && Clock::now() - opened_at_ < std::chrono::duration<double>(options_.settle_time);
  }
  const SerialPortCounters& counters() const { return counters_; }
  /// Bytes of the current message not yet written.
  std::size_t pendingBytes() const { return pending_size_ - pending_sent_; }

  /// Offers one message (a whole protocol frame): queued and written as far as the device
  /// takes it now, or dropped and counted. Returns true when it was queued.
  bool write(const std::uint8_t* data, std::size_t size) {
    service();
    if (size > pending_.size()) {
      ++counters_.too_large;
      return false;
    }
    if (!connected()) {
      ++counters_.disconnected;
      return false;
    }
    if (settling()) {
      ++counters_.settling;
      return false;
    }
    if (pendingBytes() > 0) {
      ++counters_.busy;
      return false;
    }
    std::copy(data, data + size, pending_.begin());
    pending_size_ = size;
    pending_sent_ = 0;
    flush();
    return true;
  }

  /// Writes what is queued, and reopens a device that went away once the reconnect interval
  /// has passed. Call it every loop iteration (`write` calls it too).
  void service() {
    if (!connected()) {
      const auto now = Clock::now();
      if (now - last_attempt_ >= std::chrono::duration<double>(options_.reconnect_interval)) {
        if (open()) ++counters_.reconnects;
      }
      return;
    }
    flush();
  }

 private:
  using Clock = std::chrono::steady_clock;

  bool open() {
    last_attempt_ = Clock::now();
    const int fd = ::open(options_.device.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return false;
    termios tio{};
    if (tcgetattr(fd, &tio) != 0) {
      ::close(fd);
      return false;
    }
    cfmakeraw(&tio);  // 8 data bits, no parity, no echo, no line processing
    // HUPCL off: closing keeps DTR up, so the board is not reset by a close and reopen.
    tio.c_cflag &= static_cast<tcflag_t>(~(PARENB | CSTOPB | CSIZE | CRTSCTS | HUPCL));
    tio.c_cflag |= CS8 | CLOCAL | CREAD;
    const speed_t speed = SerialPortOptions::baudConstant(options_.baud);
    cfsetispeed(&tio, speed);
    cfsetospeed(&tio, speed);
    if (tcsetattr(fd, TCSANOW, &tio) != 0) {
      ::close(fd);
      return false;
    }
    fd_ = fd;
    opened_at_ = Clock::now();
    pending_size_ = pending_sent_ = 0;
    return true;
  }

  void close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  // Writes as much of the pending message as the device takes without blocking.
  void flush() {
    while (pendingBytes() > 0) {
      const ssize_t n = ::write(fd_, pending_.data() + pending_sent_, pendingBytes());
      if (n > 0) {
        pending_sent_ += static_cast<std::size_t>(n);
        if (pendingBytes() == 0) ++counters_.written;
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;  // the rest later
      // The device went away (EIO, ENXIO, ENODEV, EBADF...): drop the message, reopen later.
      ++counters_.lost;
      pending_size_ = pending_sent_ = 0;
      close();
      last_attempt_ = Clock::now();
      return;
    }
  }

  SerialPortOptions options_;
  std::vector<std::uint8_t> pending_;
  std::size_t pending_size_ = 0;
  std::size_t pending_sent_ = 0;
  int fd_ = -1;
  Clock::time_point last_attempt_{};
  Clock::time_point opened_at_{};
  SerialPortCounters counters_{};
};

}  // namespace retarget
