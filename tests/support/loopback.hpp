// Local stand-ins for devices in tests: ports on 127.0.0.1 and pseudo-terminals (POSIX).
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include <string>

#include <doctest/doctest.h>

namespace retarget::test {

/// A port on 127.0.0.1 free at the moment of asking (bound, read, released); `type` is
/// SOCK_DGRAM or SOCK_STREAM.
inline int freeLoopbackPort(int type) {
  const int fd = socket(AF_INET, type, 0);
  REQUIRE(fd >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  socklen_t size = sizeof address;
  REQUIRE(getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0);
  close(fd);
  return ntohs(address.sin_port);
}

/// A TCP socket listening on 127.0.0.1 at a port the system chose (a device that is the server,
/// as Axis Neuron is). The caller closes `fd`.
struct LoopbackListener {
  int fd = -1;
  int port = 0;
};

inline LoopbackListener listenOnLoopback(int backlog) {
  LoopbackListener listener;
  listener.fd = socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(listener.fd >= 0);
  const int yes = 1;
  setsockopt(listener.fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(bind(listener.fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(listen(listener.fd, backlog) == 0);
  socklen_t size = sizeof address;
  REQUIRE(getsockname(listener.fd, reinterpret_cast<sockaddr*>(&address), &size) == 0);
  listener.port = ntohs(address.sin_port);
  return listener;
}

/// A pseudo-terminal in raw mode: the test holds `master`, the program under test opens
/// `device` as it would a serial port. The caller closes `master`.
struct RawPty {
  int master = -1;
  std::string device;
};

inline RawPty openRawPty() {
  RawPty pty;
  pty.master = posix_openpt(O_RDWR | O_NOCTTY);
  REQUIRE(pty.master >= 0);
  REQUIRE(grantpt(pty.master) == 0);
  REQUIRE(unlockpt(pty.master) == 0);
  pty.device = ptsname(pty.master);
  termios raw{};
  REQUIRE(tcgetattr(pty.master, &raw) == 0);
  cfmakeraw(&raw);
  REQUIRE(tcsetattr(pty.master, TCSANOW, &raw) == 0);
  return pty;
}

}  // namespace retarget::test
