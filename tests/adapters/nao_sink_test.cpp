// NaoCommandSink on loopback (127.0.0.1 only, every wait bounded): the JSON lines the bridge
// reads carry the angles exactly; a bridge that is not there, stops reading, goes away and
// comes back costs dropped commands (counted), never a blocked loop; a listener that never
// answers (a listen backlog) gets no command counted as sent; the bridge's status lines are
// counted and its last error kept, whatever the bytes.

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <asio.hpp>
#include <nlohmann/json.hpp>

#include <retarget/adapters/nao/nao_command_sink.hpp>
#include <retarget/robots/nao.hpp>

#include "support/allocation.hpp"

using namespace retarget;
using asio::ip::tcp;

namespace {

// The bridge's side: accepts one connection and reads JSON lines (bounded waits).
class FakeBridge {
 public:
  explicit FakeBridge(unsigned short port = 0) : acceptor_(context_) {
    acceptor_.open(tcp::v4());
    acceptor_.set_option(tcp::acceptor::reuse_address(true));
    acceptor_.bind(tcp::endpoint(asio::ip::address_v4::loopback(), port));
    acceptor_.listen();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  // Accepts the sink and answers its probe (a stats request) as the bridge does.
  void accept() {
    socket_ = std::make_unique<tcp::socket>(context_);
    acceptor_.accept(*socket_);
    const std::vector<nlohmann::json> probe = readLines(1, 10000);
    REQUIRE(probe.size() == 1);
    CHECK(probe[0] == nlohmann::json{{"command", "stats"}});
    socket_->non_blocking(false);
    write("{\"status\": \"hello\", \"bridge\": \"retarget_nao_bridge\", \"protocol\": 2, \"state\": \"idle\"}\n");
  }
  // Reads lines until `count` arrived or `timeout_ms` passed.
  std::vector<nlohmann::json> readLines(std::size_t count, int timeout_ms) {
    std::vector<nlohmann::json> lines;
    socket_->non_blocking(true);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (lines.size() < count && std::chrono::steady_clock::now() < deadline) {
      char chunk[4096];
      asio::error_code ec;
      const std::size_t n = socket_->read_some(asio::buffer(chunk), ec);
      if (ec == asio::error::would_block) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      if (ec) break;
      pending_.append(chunk, n);
      for (std::size_t end = pending_.find('\n'); end != std::string::npos; end = pending_.find('\n')) {
        lines.push_back(nlohmann::json::parse(pending_.substr(0, end)));
        pending_.erase(0, end + 1);
      }
    }
    return lines;
  }
  void disconnect() {
    asio::error_code ec;
    socket_->close(ec);
  }
  // Sends bytes to the sink (status lines, as the bridge does).
  void write(const std::string& bytes) { asio::write(*socket_, asio::buffer(bytes)); }

 private:
  asio::io_context context_;
  tcp::acceptor acceptor_;
  std::unique_ptr<tcp::socket> socket_;
  std::string pending_;
};

// Deadline of every wait for an event below (ms): generous, so that a loaded machine (ctest -j2
// beside compiles) cannot miss it; the waits end as soon as the event happens.
constexpr int kDeadlineMs = 10000;

// Lets the last command leave (the loop's service() calls do this in real use).
void finishWriting(NaoCommandSink& sink) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kDeadlineMs);
  while (sink.writing() && std::chrono::steady_clock::now() < deadline) {
    sink.service();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

NaoCommandSinkOptions optionsFor(unsigned short port, double rate = 1000) {
  NaoCommandSinkOptions options;
  options.port = std::to_string(port);
  options.max_rate = rate;
  options.reconnect_interval = 0.05;
  options.speed = 0.3;
  return options;
}

}  // namespace

TEST_CASE("NaoCommandSink: the bridge reads names, exact angles and the speed fraction") {
  const RobotModel<double> nao = makeNao<double>();
  FakeBridge bridge;
  NaoCommandSink sink(nao.qNames(), optionsFor(bridge.port()));
  std::thread accept([&] { bridge.accept(); });
  const bool connected = sink.waitConnected(kDeadlineMs);
  accept.join();
  REQUIRE(connected);
  std::mt19937 rng(4);
  std::vector<Eigen::VectorXd> sent;
  Eigen::VectorXd q(nao.nq());
  // Until 60 commands went out (a count, not a time window: a command sent while the previous
  // line is still leaving is dropped as busy and counted); the fake bridge reads only
  // afterwards, so 60 lines (~40 KB) must get past the sink's small send buffer meanwhile.
  constexpr std::size_t kWanted = 60;
  int attempts = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kDeadlineMs);
  while (sent.size() < kWanted && std::chrono::steady_clock::now() < deadline) {
    for (Eigen::Index i = 0; i < q.size(); ++i) q[i] = std::uniform_real_distribution<double>(-2, 2)(rng);
    ++attempts;
    if (sink.send(q)) sent.push_back(q);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // the previous line leaves first
  }
  REQUIRE(sent.size() == kWanted);
  finishWriting(sink);
  const std::vector<nlohmann::json> lines = bridge.readLines(sent.size(), kDeadlineMs);
  REQUIRE(lines.size() == sent.size());
  for (std::size_t k = 0; k < lines.size(); ++k) {
    REQUIRE(lines[k]["names"].size() == static_cast<std::size_t>(nao.nq()));
    CHECK(lines[k]["names"][0] == "HeadYaw");
    CHECK(lines[k]["speed"].get<double>() == 0.3);
    for (Eigen::Index i = 0; i < q.size(); ++i) CHECK(lines[k]["angles"][static_cast<std::size_t>(i)].get<double>() == sent[k][i]);
  }
  CHECK(sink.counters().sent == sent.size());
  CHECK(sink.counters().dropped() == static_cast<std::uint64_t>(attempts) - sent.size());
  // Not finite or the wrong size: refused.
  q[0] = std::nan("");
  CHECK_FALSE(sink.send(q));
  CHECK_FALSE(sink.send(Eigen::VectorXd::Zero(3)));
  CHECK(sink.counters().invalid == 2);
}

TEST_CASE("NaoCommandSink: rate limit, a bridge that stops reading, goes away and comes back") {
  const RobotModel<double> nao = makeNao<double>();
  auto bridge = std::make_unique<FakeBridge>();
  const unsigned short port = bridge->port();
  NaoCommandSink sink(nao.qNames(), optionsFor(port, 50));
  std::thread accept([&] { bridge->accept(); });
  REQUIRE(sink.waitConnected(kDeadlineMs));
  accept.join();
  const Eigen::VectorXd q = nao.neutralConfiguration();
  // 50 Hz: of 200 sends in a tight loop, one goes out per 20 ms the loop took (the first at
  // once; +1 for a period boundary); the others are dropped for the rate. The bound grows with
  // the loop's measured time, so a slow machine cannot fail it; an unlimited sink fails it.
  int accepted = 0;
  const auto loop_start = std::chrono::steady_clock::now();
  for (int k = 0; k < 200; ++k) accepted += sink.send(q) ? 1 : 0;
  const double loop_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_start).count();
  const int allowed = 2 + static_cast<int>(loop_s * 50);
  CAPTURE(loop_s);
  CHECK(accepted >= 1);
  CHECK(accepted <= allowed);
  // Every other send dropped: for the rate, or (a few) while the previous line was leaving.
  CHECK(sink.counters().rate + sink.counters().busy == static_cast<std::uint64_t>(200 - accepted));
  // The bridge stops reading: the socket buffers fill, then commands are dropped as busy, and
  // no send blocks (1500 sends of ~700 bytes, far more than the 8 KB send buffer holds).
  NaoCommandSink fast(nao.qNames(), optionsFor(port, 1000));
  FakeBridge* silent = bridge.get();
  std::thread accept2([&] { silent->accept(); });
  REQUIRE(fast.waitConnected(kDeadlineMs));
  accept2.join();
  const auto start = std::chrono::steady_clock::now();
  double slowest = 0;
  for (int k = 0; k < 1500; ++k) {
    const auto before = std::chrono::steady_clock::now();
    (void)fast.send(q);
    slowest = std::max(slowest, std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count());
    std::this_thread::sleep_for(std::chrono::microseconds(1100));
  }
  CHECK(fast.counters().busy > 0);
  CHECK(fast.counters().sent + fast.counters().dropped() == 1500);
  MESSAGE("1500 sends to a bridge that does not read: " << fast.counters().sent << " sent, " << fast.counters().busy
                                                        << " busy; slowest send " << slowest * 1e3 << " ms; "
                                                        << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() << " s");
  // The bridge goes away: counted, later commands dropped as disconnected.
  bridge.reset();
  const auto gone_deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kDeadlineMs);
  while (fast.connected() && std::chrono::steady_clock::now() < gone_deadline) {
    (void)fast.send(q);
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  CHECK_FALSE(fast.connected());
  CHECK(fast.counters().disconnects == 1);
  const std::uint64_t disconnected_before = fast.counters().disconnected;
  CHECK_FALSE(fast.send(q));
  CHECK(fast.counters().disconnected == disconnected_before + 1);
  // It comes back on the same port: the sink reconnects and the next command arrives.
  FakeBridge back(port);
  std::thread accept3([&] { back.accept(); });
  REQUIRE(fast.waitConnected(kDeadlineMs));
  accept3.join();
  CHECK(fast.counters().connects == 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE(fast.send(q));
  finishWriting(fast);
  const std::vector<nlohmann::json> lines = back.readLines(1, kDeadlineMs);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0]["angles"][0].get<double>() == q[0]);
}

TEST_CASE("NaoCommandSink: a listener that never answers gets no command counted as sent") {
  // A bridge busy with another client (a half-open one) leaves a new connection in its listen
  // backlog: the TCP connection is made, nothing is read. The sink must not count commands as
  // sent then; it gives the connection up after answer_timeout (counted) and tries again.
  const RobotModel<double> nao = makeNao<double>();
  asio::io_context context;
  tcp::acceptor backlog(context, tcp::endpoint(asio::ip::address_v4::loopback(), 0));  // accepts nothing yet
  const Eigen::VectorXd q = nao.neutralConfiguration();
  {
    NaoCommandSinkOptions options = optionsFor(backlog.local_endpoint().port());
    options.answer_timeout = 0.2;
    NaoCommandSink sink(nao.qNames(), options);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kDeadlineMs);
    while (sink.counters().silent_bridge < 2 && std::chrono::steady_clock::now() < deadline) {
      (void)sink.send(q);
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    CHECK(sink.counters().silent_bridge >= 2);
    CHECK(sink.counters().sent == 0);
    CHECK(sink.counters().unanswered > 0);
    CHECK(sink.counters().connects == 0);
    CHECK_FALSE(sink.connected());
  }  // its connections closed: the backlog now holds dead ones
  // The listener starts serving: it skips the dead connections (their probe, then the end) and
  // answers the live one; then commands go out.
  NaoCommandSinkOptions options = optionsFor(backlog.local_endpoint().port());
  options.answer_timeout = 5.0;
  NaoCommandSink sink(nao.qNames(), options);
  std::thread bridge([&] {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kDeadlineMs);
    while (std::chrono::steady_clock::now() < deadline) {
      tcp::socket peer(context);
      asio::error_code ec;
      backlog.accept(peer, ec);
      if (ec) return;
      peer.non_blocking(true);
      std::size_t bytes = 0;
      for (;;) {
        char chunk[256];
        const std::size_t n = peer.read_some(asio::buffer(chunk), ec);
        bytes += n;
        if (ec == asio::error::would_block && bytes > 0) break;  // a live connection, its probe read
        if (ec && ec != asio::error::would_block) break;         // a connection the sink gave up
        if (std::chrono::steady_clock::now() >= deadline) return;
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
      if (ec != asio::error::would_block) continue;
      peer.non_blocking(false);
      asio::write(peer, asio::buffer(std::string("{\"status\": \"hello\"}\n")), ec);
      std::this_thread::sleep_for(std::chrono::milliseconds(200));  // the sink reads it before the close
      return;
    }
  });
  const bool connected = sink.waitConnected(kDeadlineMs);
  CHECK(sink.counters().connects == 1);
  CHECK(sink.counters().silent_bridge == 0);
  CHECK((connected && sink.send(q)));
  CHECK(sink.counters().sent == (connected ? 1u : 0u));
  bridge.join();
}

TEST_CASE("NaoCommandSink: formatting a command allocates nothing") {
  const RobotModel<double> nao = makeNao<double>();
  FakeBridge bridge;
  NaoCommandSink sink(nao.qNames(), optionsFor(bridge.port()));
  std::thread accept([&] { bridge.accept(); });
  REQUIRE(sink.waitConnected(kDeadlineMs));
  accept.join();
  const Eigen::VectorXd q = Eigen::VectorXd::Constant(nao.nq(), -1.2345678901234567);
  for (int k = 0; k < 5; ++k) {  // asio's operation memory is recycled after the first writes
    (void)sink.send(q);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::size_t allocations = 0;
  for (int k = 0; k < 50; ++k) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    test::NoAllocationScope scope;
    (void)sink.send(q);
    allocations += scope.allocations();
  }
  CHECK(allocations == 0);
  finishWriting(sink);
  CHECK(bridge.readLines(sink.counters().sent, kDeadlineMs).size() == sink.counters().sent);
}

// Services the sink until `done()` or `timeout_ms` passed.
template <class Done>
bool naoServiceUntil(NaoCommandSink& sink, Done done, int timeout_ms) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    sink.service();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

TEST_CASE("NaoCommandSink: the bridge's status lines are counted and its last error kept") {
  const RobotModel<double> nao = makeNao<double>();
  FakeBridge bridge;
  NaoCommandSink sink(nao.qNames(), optionsFor(bridge.port()));
  std::thread accept([&] { bridge.accept(); });
  REQUIRE(sink.waitConnected(kDeadlineMs));
  accept.join();
  CHECK(sink.lastBridgeError().empty());
  // The bridge's own lines (its key order), one split across two writes, and lines that are not
  // status objects (counted as unreadable; an empty line is not counted).
  bridge.write("{\"status\": \"state\", \"state\": \"awake\", \"why\": \"a command arrived\"}\n");
  bridge.write("{\"status\": \"error\", \"call\": \"setAngles\", \"message\": \"ALMotion::setAngles joint \\\"LHand\\\" not found\"}\n"
               "{\"status\": \"stalled\", \"call\": \"setAngles\", \"seconds\": 1.2}\n{\"status\": \"er");
  bridge.write("ror\", \"call\": \"wakeUp\", \"message\": \"robot fallen\\n\\u00e9\\ud83d\"}\n\nnot json\n[1, 2]\n");
  bridge.write("{\"status\": \"stats\", \"refused\": {\"a\": [1, {\"b\": \"}\"}]}, \"applied\": 3}\n");
  // 5 lines and the hello the fake bridge answered the sink's probe with.
  REQUIRE(naoServiceUntil(sink, [&] { return sink.counters().bridge_status == 6 && sink.counters().bridge_unreadable == 2; }, kDeadlineMs));
  CHECK(sink.counters().bridge_errors == 2);
  CHECK(sink.lastBridgeError() == "wakeUp: robot fallen \xC3\xA9?");
  CHECK(sink.connected());
  // A line longer than the sink's buffer: read up to the buffer's size, the message cut.
  const std::string long_message(3000, 'x');
  bridge.write("{\"status\": \"error\", \"call\": \"setAngles\", \"message\": \"" + long_message + "\"}\n");
  REQUIRE(naoServiceUntil(sink, [&] { return sink.counters().bridge_errors == 3; }, kDeadlineMs));
  CHECK(sink.lastBridgeError().size() == 255);
  CHECK(sink.lastBridgeError().substr(0, 13) == "setAngles: xx");
  // Commands still go out while lines arrive; once warm, reading status lines allocates nothing.
  const Eigen::VectorXd q = nao.neutralConfiguration();
  CHECK(sink.send(q));
  finishWriting(sink);
  const std::string error_line = "{\"status\": \"error\", \"call\": \"setAngles\", \"message\": \"no stiffness\"}\n";
  bridge.write(error_line);
  REQUIRE(naoServiceUntil(sink, [&] { return sink.counters().bridge_errors == 4; }, kDeadlineMs));
  std::size_t allocations = 0;
  for (int k = 0; k < 20; ++k) {
    bridge.write(error_line);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    test::NoAllocationScope scope;
    sink.service();
    allocations += scope.allocations();
  }
  CHECK(allocations == 0);
  REQUIRE(naoServiceUntil(sink, [&] { return sink.counters().bridge_errors == 24; }, kDeadlineMs));
  CHECK(sink.lastBridgeError() == "setAngles: no stiffness");
  CHECK(bridge.readLines(1, kDeadlineMs).size() == 1);
  CHECK(sink.counters().disconnects == 0);
}

TEST_CASE("NaoCommandSink: status line parsing stops at the line's end and never reads past it") {
  internal::BridgeStatusLine status;
  CHECK_FALSE(internal::parseBridgeStatusLine("", status));
  CHECK_FALSE(internal::parseBridgeStatusLine("{", status));
  CHECK_FALSE(internal::parseBridgeStatusLine("{\"call\": \"x\"}", status));
  CHECK_FALSE(internal::parseBridgeStatusLine("{\"status\": 3}", status));
  REQUIRE(internal::parseBridgeStatusLine("{\"status\": \"error\", \"message\": \"cut \\", status));
  CHECK(status.status == "error");
  CHECK(status.message == "cut \\");
  char out[4];
  CHECK(internal::unescapeJsonString("ab\\u00e9", out, sizeof out) == 4);  // a, b, then 2 bytes of e-acute
  CHECK(internal::unescapeJsonString("abc\\u00e9", out, sizeof out) == 3);  // no partial UTF-8 sequence
  CHECK(internal::unescapeJsonString("a\\u00", out, sizeof out) == 2);      // a short escape: '?'
  CHECK(std::string(out, 2) == "a?");
}

TEST_CASE("NaoCommandSink: bad options and names are refused with the field") {
  NaoCommandSinkOptions options;
  options.speed = 1.5;
  CHECK_THROWS_WITH_AS(NaoCommandSink({"HeadYaw"}, options), doctest::Contains("NaoCommandSinkOptions.speed"), InvalidArgument);
  options = {};
  CHECK_THROWS_WITH_AS(NaoCommandSink({"Head\"Yaw"}, options), doctest::Contains("quote"), InvalidArgument);
  options.port = "x";
  CHECK_THROWS_WITH_AS(NaoCommandSink({"HeadYaw"}, options), doctest::Contains("NaoCommandSinkOptions.port"), InvalidArgument);
}
