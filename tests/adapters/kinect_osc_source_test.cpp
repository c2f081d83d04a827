// KinectOscSource on loopback (127.0.0.1 only, bounded waits): a shared recording sent frame by
// frame with liblo comes back bit-exact; garbage and truncated datagrams are counted, never
// mapped; a sender that starts late or pauses is survived.

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <lo/lo.h>

#include <retarget/adapters/kinect/kinect_osc_source.hpp>
#include <retarget/io/kinect.hpp>

#include "adapters/kinect_osc_test_support.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// A KinectV2-OSC sender to 127.0.0.1:port (liblo), plus raw datagrams for the faults.
class Sender {
 public:
  explicit Sender(int port) : address_(lo_address_new("127.0.0.1", std::to_string(port).c_str())), port_(port) {
    REQUIRE(address_ != nullptr);
    raw_ = socket(AF_INET, SOCK_DGRAM, 0);
    REQUIRE(raw_ >= 0);
  }
  ~Sender() {
    lo_address_free(address_);
    close(raw_);
  }
  Sender(const Sender&) = delete;
  Sender& operator=(const Sender&) = delete;

  void frame(const SkeletonFramed& f, std::uint64_t id) {
    const std::string prefix = "/bodies/" + std::to_string(id);
    for (int j = 0; j < kHumanJointCount; ++j) {
      const Eigen::Vector3d p_K = canonicalToKinect(f.p_W[static_cast<std::size_t>(j)]);
      const std::string path = prefix + "/joints/" + std::string(name(static_cast<HumanJoint>(j)));
      REQUIRE(lo_send(address_, path.c_str(), "fffs", static_cast<float>(p_K.x()), static_cast<float>(p_K.y()),
                      static_cast<float>(p_K.z()), test::oscTrackingStateName(f.state[static_cast<std::size_t>(j)])) > 0);
    }
    REQUIRE(lo_send(address_, (prefix + "/hands/Left").c_str(), "ss", "Closed", "High") > 0);
    REQUIRE(lo_send(address_, (prefix + "/hands/Right").c_str(), "ss", "Open", "High") > 0);
  }

  // A datagram of arbitrary bytes.
  void raw(const std::vector<unsigned char>& bytes) {
    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<std::uint16_t>(port_));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(sendto(raw_, bytes.data(), bytes.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof(to)) ==
            static_cast<ssize_t>(bytes.size()));
  }

  // The bytes of a valid joint message, for truncation.
  static std::vector<unsigned char> jointMessageBytes() {
    lo_message m = lo_message_new();
    lo_message_add_float(m, 1.0f);
    lo_message_add_float(m, 2.0f);
    lo_message_add_float(m, 3.0f);
    lo_message_add_string(m, "Tracked");
    std::size_t size = 0;
    void* data = lo_message_serialise(m, "/bodies/1/joints/Head", nullptr, &size);
    std::vector<unsigned char> bytes(static_cast<unsigned char*>(data), static_cast<unsigned char*>(data) + size);
    free(data);
    lo_message_free(m);
    return bytes;
  }

 private:
  lo_address address_;
  int raw_ = -1;
  int port_ = 0;
};

KinectOscSourceOptions anyPort() {
  KinectOscSourceOptions options;
  options.port = "0";
  return options;
}

}  // namespace

TEST_CASE("kinect osc source: a shared recording over UDP loopback comes back bit-exact") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const SkeletonMotion<double> motion = readKinect((data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv").string());
  KinectOscSource source(anyPort());
  REQUIRE(source.port() > 0);
  Sender sender(source.port());
  SkeletonFramed got;
  double previous_time = -1.0;
  for (const SkeletonFramed& frame : motion.frames) {
    sender.frame(frame, 4711);
    REQUIRE(source.read(got, 2000));  // loopback: the frame is there at once, 2 s bounds a failure
    CHECK(got.time > previous_time);
    previous_time = got.time;
    for (std::size_t j = 0; j < static_cast<std::size_t>(kHumanJointCount); ++j) {
      const Eigen::Vector3d wire = test::oscWireValue(frame.p_W[j]);
      INFO("joint ", j, ": got ", got.p_W[j].transpose(), ", sent ", wire.transpose());
      REQUIRE(test::sameBits(got.p_W[j], wire));
      REQUIRE(got.state[j] == frame.state[j]);
    }
    CHECK(got.left_hand == HandState::kClosed);
    CHECK(got.right_hand == HandState::kOpen);
  }
  CHECK(source.counters().frames == motion.size());
  CHECK(source.counters().droppedTotal() == 0);
  CHECK(source.malformed() == 0);
  CHECK_FALSE(source.read(got, 50));  // nothing more: the wait ends
}

TEST_CASE("kinect osc source: garbage and truncated datagrams are counted, a late or pausing sender is survived") {
  KinectOscSource source(anyPort());
  SkeletonFramed got;
  CHECK_FALSE(source.read(got, 100));  // no sender yet
  Sender sender(source.port());
  SkeletonFramed frame;
  for (std::size_t j = 0; j < frame.p_W.size(); ++j) {
    frame.p_W[j] = Eigen::Vector3d(-2.0, 0.01 * static_cast<double>(j), 0.05 * static_cast<double>(j));
    frame.state[j] = TrackingState::kTracked;
  }
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 255);
  const std::vector<unsigned char> valid = Sender::jointMessageBytes();
  int garbage = 0;
  for (int k = 0; k < 20; ++k) {
    // Random bytes, and a valid message cut short at every length.
    std::vector<unsigned char> noise(static_cast<std::size_t>(1 + k * 7));
    for (auto& b : noise) b = static_cast<unsigned char>(byte(rng));
    noise[0] = '/';  // looks like an OSC address, so liblo tries to decode it
    sender.raw(noise);
    sender.raw(std::vector<unsigned char>(valid.begin(), valid.begin() + static_cast<long>(1 + k % (valid.size() - 1))));
    garbage += 2;
    frame.p_W[0].x() = -2.0 - 0.01 * k;
    sender.frame(frame, 9);
    REQUIRE(source.read(got, 2000));
    CHECK(test::sameBits(got.p_W[0], test::oscWireValue(frame.p_W[0])));
    REQUIRE(got.p_W[0].allFinite());
    if (k == 10) {
      CHECK_FALSE(source.read(got, 200));  // the sender pauses (shorter than the body timeout)
    }
  }
  MESSAGE(garbage, " bad datagrams: ", source.malformed(), " refused by liblo, ", source.counters().droppedTotal(),
          " by the assembler");
  CHECK(source.counters().frames == 20);
  // Every bad datagram was refused by liblo (malformed) or by the assembler (a reason).
  CHECK(source.malformed() + source.counters().droppedTotal() == static_cast<std::uint64_t>(garbage));
}

TEST_CASE("kinect osc source: a port in use or out of range is an error naming it") {
  KinectOscSource first(anyPort());
  KinectOscSourceOptions same;
  same.port = std::to_string(first.port());
  CHECK_THROWS_WITH_AS(KinectOscSource{same}, doctest::Contains(same.port.c_str()), Error);
  KinectOscSourceOptions bad;
  bad.port = "70000";
  CHECK_THROWS_WITH_AS(KinectOscSource{bad}, doctest::Contains("70000"), InvalidArgument);
}
