// A downstream program using retarget::nao (asio comes with the target): a command to a bridge
// that is not there is dropped and counted, never blocks.
#include <cstdio>

#include <retarget/adapters/nao/nao_command_sink.hpp>

int main() {
  retarget::NaoCommandSinkOptions options;
  options.port = "1";  // nobody listens on 127.0.0.1:1
  retarget::NaoCommandSink sink({"HeadYaw", "HeadPitch"}, options);
  const bool sent = sink.send(Eigen::Vector2d(0.1, -0.2));
  std::printf("retarget::nao: sent %s, dropped %llu\n", sent ? "yes" : "no",
              static_cast<unsigned long long>(sink.counters().dropped()));
  return !sent && sink.counters().disconnected == 1 ? 0 : 1;
}
