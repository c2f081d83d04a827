// NoitomTcpSource and NoitomUdpSource on loopback (127.0.0.1 only, every wait bounded): a test
// sender replays the shared Axis Neuron recording while injecting the faults of issue 15: the
// sender starting after us, disconnects mid-frame and reconnects, garbage, a skeleton that
// does not match the hierarchy; datagrams lost, repeated, reordered, truncated. Frames that
// arrive equal the sent ones bit for bit (text) or as float32 (binary); every drop is counted.

#include <doctest/doctest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <asio.hpp>

#include <retarget/adapters/noitom/bvh_broadcast_encoder.hpp>
#include <retarget/adapters/noitom/noitom_source.hpp>
#include <retarget/io/bvh.hpp>

#include "support/test_support.hpp"

using namespace retarget;
using asio::ip::tcp;
using asio::ip::udp;

namespace {

constexpr int kReadTimeoutMs = 2000;  // per frame; a lost test frame fails, never hangs

// Reads frames until `count` arrived or a read timed out; returns the frames' channels.
template <typename Source>
std::vector<Eigen::VectorXd> readFrames(Source& source, std::size_t count, int timeout_ms = kReadTimeoutMs) {
  std::vector<Eigen::VectorXd> frames;
  NoitomFrame frame;
  while (frames.size() < count && source.read(frame, timeout_ms)) {
    CHECK(frame.channels.allFinite());
    frames.push_back(frame.channels);
  }
  return frames;
}

std::vector<std::uint8_t> textBytes(const BvhMotion& hierarchy, int f, const NoitomLayout& layout) {
  const std::string text = noitomTextFrame(noitomWireValues(hierarchy, hierarchy.frameValues(f), layout));
  return {text.begin(), text.end()};
}

// A one-connection TCP sender on 127.0.0.1 (Axis Neuron's role: it listens, we connect).
class TcpSender {
 public:
  TcpSender() : acceptor_(context_, tcp::endpoint(asio::ip::address_v4::loopback(), 0)) {}
  explicit TcpSender(unsigned short port) : acceptor_(context_) {
    acceptor_.open(tcp::v4());
    acceptor_.set_option(tcp::acceptor::reuse_address(true));
    acceptor_.bind(tcp::endpoint(asio::ip::address_v4::loopback(), port));
    acceptor_.listen();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }

  // Accepts in a thread (bounded: the acceptor is closed after `timeout`).
  void acceptAsync() {
    thread_ = std::thread([this] {
      asio::error_code ec;
      socket_ = std::make_unique<tcp::socket>(context_);
      acceptor_.accept(*socket_, ec);
      accepted_ = !ec;
    });
  }
  bool waitAccepted() {
    if (thread_.joinable()) thread_.join();
    return accepted_;
  }
  void send(const std::vector<std::uint8_t>& bytes) { asio::write(*socket_, asio::buffer(bytes)); }
  void disconnect() {
    asio::error_code ec;
    socket_->shutdown(tcp::socket::shutdown_both, ec);
    socket_->close(ec);
  }
  void stopListening() {
    asio::error_code ec;
    acceptor_.close(ec);
  }
  ~TcpSender() {
    stopListening();
    if (thread_.joinable()) thread_.join();
  }

 private:
  asio::io_context context_;
  tcp::acceptor acceptor_;
  std::unique_ptr<tcp::socket> socket_;
  std::thread thread_;
  bool accepted_ = false;
};

}  // namespace

TEST_CASE("NoitomTcpSource: a sender that starts late, drops the connection mid-frame and comes back") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const NoitomLayout layout{true, false};
  // A free port nobody listens on yet.
  unsigned short port = 0;
  {
    TcpSender probe;
    port = probe.port();
  }
  NoitomTcpSourceOptions options;
  options.port = std::to_string(port);
  options.reconnect_interval = 0.05;
  NoitomTcpSource source(neuron, options);
  NoitomFrame frame;
  // Nobody there: reads time out, attempts are counted, nothing crashes.
  CHECK_FALSE(source.read(frame, 150));
  CHECK_FALSE(source.connected());
  CHECK(source.connection().failed_attempts >= 1);

  TcpSender sender(port);
  sender.acceptAsync();
  CHECK_FALSE(source.read(frame, 300));  // connects, nothing sent yet
  REQUIRE(sender.waitAccepted());
  CHECK(source.connected());
  for (int f = 0; f < 100; ++f) sender.send(textBytes(neuron, f, layout));
  // Half of frame 100, then the connection ends.
  std::vector<std::uint8_t> half = textBytes(neuron, 100, layout);
  half.resize(half.size() / 2);
  sender.send(half);
  std::vector<Eigen::VectorXd> frames = readFrames(source, 100);
  REQUIRE(frames.size() == 100);
  for (int f = 0; f < 100; ++f) CHECK(frames[static_cast<std::size_t>(f)] == neuron.frameValues(f));
  sender.disconnect();
  sender.acceptAsync();
  CHECK_FALSE(source.read(frame, 300));  // sees the end, reconnects
  REQUIRE(sender.waitAccepted());
  CHECK(source.counters().droppedFor(NoitomDrop::kTruncated) == 1);
  CHECK(source.connection().disconnects == 1);
  // The new connection: binary frames, with garbage between some of them.
  for (int f = 101; f < 201; ++f) {
    if (f % 10 == 0) sender.send({0x01, 0x02, 0x03, 0x04, 0x05});
    const std::vector<double> values = noitomWireValues(neuron, neuron.frameValues(f), layout);
    sender.send(noitomBinaryFrame(values, layout, 0, static_cast<std::uint32_t>(f)));
  }
  frames = readFrames(source, 100);
  REQUIRE(frames.size() == 100);
  for (int f = 101; f < 201; ++f) {
    const Eigen::VectorXd expected = neuron.frameValues(f).cast<float>().cast<double>();
    CHECK(frames[static_cast<std::size_t>(f - 101)] == expected);
  }
  CHECK(source.counters().droppedFor(NoitomDrop::kMalformed) == 10);  // before frames 110, 120, ..., 200
  CHECK(source.connection().connects == 2);
}

TEST_CASE("NoitomTcpSource: a stream of another skeleton is refused frame by frame, never mapped") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const BvhMotion cmu = readBvh(data_dir / "bvh" / "xia_cmu_skeleton31_neutral_walk_01_000.bvh");
  TcpSender sender;
  sender.acceptAsync();
  NoitomTcpSourceOptions options;
  options.port = std::to_string(sender.port());
  NoitomTcpSource source(neuron, options);
  NoitomFrame frame;
  CHECK_FALSE(source.read(frame, 300));
  REQUIRE(sender.waitAccepted());
  // The CMU rig's frames (31 joints: 3 + 3 x 31 = 96 values) fit no layout of 59 joints.
  for (int f = 0; f < 20; ++f) {
    const std::vector<double> values = noitomWireValues(cmu, cmu.frameValues(f), {false, false});
    const std::string text = noitomTextFrame(values);
    sender.send({text.begin(), text.end()});
  }
  sender.send(textBytes(neuron, 0, {false, false}));
  const std::vector<Eigen::VectorXd> frames = readFrames(source, 1);
  REQUIRE(frames.size() == 1);
  CHECK(frames[0] == neuron.frameValues(0));
  CHECK(source.counters().droppedFor(NoitomDrop::kWrongCount) == 20);
}

TEST_CASE("NoitomUdpSource: datagrams lost, repeated, reordered, truncated and garbage") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  NoitomUdpSourceOptions options;
  options.port = "0";
  NoitomUdpSource source(neuron, options);
  REQUIRE(source.port() > 0);
  asio::io_context context;
  udp::socket out(context, udp::endpoint(asio::ip::address_v4::loopback(), 0));
  const udp::endpoint to(asio::ip::address_v4::loopback(), static_cast<unsigned short>(source.port()));
  const NoitomLayout layout{true, false};
  std::mt19937 rng(17);
  std::uniform_int_distribution<int> fault(0, 9);
  std::vector<int> expected;  // frame indices that must arrive, in order
  std::uint64_t stale = 0, truncated = 0, malformed = 0;
  NoitomFrame frame;
  std::vector<std::uint8_t> held;  // a datagram held back to arrive late
  int held_index = -1, newest = -1;
  bool after_truncated = false;
  std::size_t received = 0;
  auto receiveExpected = [&] {
    while (received < expected.size()) {
      if (!source.read(frame, kReadTimeoutMs)) break;
      CHECK(frame.frame_index == expected[received]);
      CHECK(frame.channels == neuron.frameValues(static_cast<int>(frame.frame_index)).cast<float>().cast<double>());
      ++received;
    }
    REQUIRE(received == expected.size());
  };
  for (int f = 0; f < 400; ++f) {
    const std::vector<std::uint8_t> datagram =
        noitomBinaryFrame(noitomWireValues(neuron, neuron.frameValues(f), layout), layout, 0, static_cast<std::uint32_t>(f));
    const int kind = f < 2 ? 0 : fault(rng);
    if (kind == 1) continue;  // lost
    if (kind == 2) {          // truncated: the first part of a frame whose rest never comes
      out.send_to(asio::buffer(datagram.data(), datagram.size() / 3), to);
      ++truncated;
      after_truncated = true;
      continue;
    }
    if (kind == 3) {  // text garbage: not a text frame's first part (no avatar id), malformed, or
                      // taken as the next part of a truncated binary frame; binary garbage: malformed
      const std::vector<std::uint8_t> junk = {'h', 'e', 'l', 'l', 'o'};
      out.send_to(asio::buffer(junk), to);
      malformed += after_truncated ? 0 : 1;
      const std::vector<std::uint8_t> binary_junk = {0x00, 0x80, 0x3F, 0x01, 0x02};
      if (!after_truncated) {
        out.send_to(asio::buffer(binary_junk), to);
        ++malformed;
      }
    }
    if (kind == 4 && held.empty()) {  // held back, sent after a newer one: late, stale
      held = datagram;
      held_index = f;
      continue;
    }
    after_truncated = false;  // a new frame's header drops the truncated part
    out.send_to(asio::buffer(datagram), to);
    expected.push_back(f);
    newest = f;
    if (kind == 5) {  // repeated
      out.send_to(asio::buffer(datagram), to);
      ++stale;
    }
    if (!held.empty() && held_index < newest) {
      out.send_to(asio::buffer(held), to);
      ++stale;
      held.clear();
    }
    if (f % 20 == 19) receiveExpected();  // keep the socket buffer small
  }
  receiveExpected();
  CHECK_FALSE(source.read(frame, 100));  // the stale and bad ones left in the queue are drained
  CHECK(source.counters().frames == expected.size());
  CHECK(source.counters().droppedFor(NoitomDrop::kStale) == stale);
  CHECK(source.counters().droppedFor(NoitomDrop::kTruncated) == truncated);
  CHECK(source.counters().droppedFor(NoitomDrop::kMalformed) == malformed);
  CHECK(source.counters().droppedTotal() == stale + truncated + malformed);
  CHECK(stale > 5);
}

TEST_CASE("NoitomUdpSource: text frames split over datagrams, or two in one, all come through in order") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  NoitomUdpSourceOptions options;
  options.port = "0";
  NoitomUdpSource source(neuron, options);
  asio::io_context context;
  udp::socket out(context, udp::endpoint(asio::ip::address_v4::loopback(), 0));
  const udp::endpoint to(asio::ip::address_v4::loopback(), static_cast<unsigned short>(source.port()));
  const NoitomLayout layout{true, false};
  // A name with a space; per frame, at random: split in two or three datagrams, whole, or sent
  // together with the next frame in one datagram.
  auto text = [&](int f) {
    const std::string s = noitomTextFrame(noitomWireValues(neuron, neuron.frameValues(f), layout), 0, "My Avatar");
    return std::vector<std::uint8_t>(s.begin(), s.end());
  };
  std::mt19937 rng(521);
  std::uniform_int_distribution<int> kind(0, 3);
  std::size_t received = 0;
  NoitomFrame frame;
  for (int f = 0; f < 120;) {
    const std::vector<std::uint8_t> a = text(f);
    const int k = kind(rng);
    int sent = 1;
    if (k == 0) {
      out.send_to(asio::buffer(a), to);
    } else if (k == 1 || k == 2) {
      const std::size_t cut1 = a.size() / (k + 1), cut2 = k == 2 ? 2 * a.size() / 3 : a.size();
      out.send_to(asio::buffer(a.data(), cut1), to);
      out.send_to(asio::buffer(a.data() + cut1, cut2 - cut1), to);
      if (cut2 < a.size()) out.send_to(asio::buffer(a.data() + cut2, a.size() - cut2), to);
    } else {
      std::vector<std::uint8_t> two = a;
      const std::vector<std::uint8_t> b = text(f + 1);
      two.insert(two.end(), b.begin(), b.end());
      out.send_to(asio::buffer(two), to);
      sent = 2;
    }
    for (int i = 0; i < sent; ++i) {
      REQUIRE(source.read(frame, kReadTimeoutMs));
      CHECK(frame.channels == neuron.frameValues(static_cast<int>(f + i)));
      ++received;
    }
    f += sent;
  }
  CHECK(received >= 120);
  CHECK(source.counters().droppedTotal() == 0);
}

TEST_CASE("Noitom sources: bad options and ports name the field") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion neuron = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  NoitomTcpSourceOptions tcp_options;
  tcp_options.port = "70000";
  CHECK_THROWS_WITH_AS(NoitomTcpSource(neuron, tcp_options), doctest::Contains("NoitomTcpSourceOptions.port"), InvalidArgument);
  tcp_options.port = "7001";
  tcp_options.reconnect_interval = 0;
  CHECK_THROWS_WITH_AS(NoitomTcpSource(neuron, tcp_options), doctest::Contains("reconnect_interval"), InvalidArgument);
  NoitomUdpSourceOptions udp_options;
  udp_options.port = "0";
  NoitomUdpSource first(neuron, udp_options);
  udp_options.port = std::to_string(first.port());
  CHECK_THROWS_WITH_AS(NoitomUdpSource(neuron, udp_options), doctest::Contains("noitom-udp: cannot listen"), Error);
}
