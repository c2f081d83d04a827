// KinectOscAssembler: shared Kinect recordings sent as KinectV2-OSC messages (float32 on the
// wire, as the sender does) come back bit-exact; with lost, repeated, reordered, garbage and
// non-finite messages every emitted frame is finite and made of values that were sent, and
// every drop is counted with its reason; bodies are followed, lost and replaced as documented.

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <retarget/adapters/kinect/osc_skeleton_assembler.hpp>
#include <retarget/io/kinect.hpp>

#include "support/allocation.hpp"
#include "adapters/kinect_osc_test_support.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// One message as a sender would put it on the wire (the arguments' strings are owned here).
struct WireMessage {
  std::string address;
  std::vector<char> types;
  std::vector<double> numbers;
  std::vector<std::string> texts;
  bool ends_frame = false;
  int joint = -1;  // HumanJoint index of a joint message
};

// Decoded view of a WireMessage, as the liblo receiver hands it over.
struct Delivered {
  std::vector<OscArgument> args;
  explicit Delivered(const WireMessage& m) {
    std::size_t n = 0, t = 0;
    for (const char type : m.types) {
      OscArgument a;
      a.type = type;
      if (type == 's') {
        a.text = m.texts[t++];
      } else {
        a.number = m.numbers[n++];
      }
      args.push_back(a);
    }
  }
};

// The 27 messages of one body and frame, in the sender's order (joints, Left hand, Right hand).
std::vector<WireMessage> frameMessages(const SkeletonFramed& frame, std::uint64_t id) {
  std::vector<WireMessage> out;
  const std::string prefix = "/bodies/" + std::to_string(id);
  for (int j = 0; j < kHumanJointCount; ++j) {
    WireMessage m;
    m.address = prefix + "/joints/" + std::string(name(static_cast<HumanJoint>(j)));
    const Eigen::Vector3d p_K = canonicalToKinect(frame.p_W[static_cast<std::size_t>(j)]);
    m.types = {'f', 'f', 'f', 's'};
    for (int i = 0; i < 3; ++i) m.numbers.push_back(test::float32(p_K[i]));
    m.texts = {test::oscTrackingStateName(frame.state[static_cast<std::size_t>(j)])};
    m.joint = j;
    out.push_back(m);
  }
  for (const char* side : {"Left", "Right"}) {
    WireMessage m;
    m.address = prefix + "/hands/" + side;
    m.types = {'s', 's'};
    m.texts = {"Open", "High"};
    m.ends_frame = std::string(side) == "Right";
    out.push_back(m);
  }
  return out;
}

void send(KinectOscAssembler& assembler, const WireMessage& m, double t) {
  const Delivered d(m);
  assembler.receive(m.address, d.args.data(), static_cast<int>(d.args.size()), t);
}

std::vector<std::filesystem::path> kinectRecordings(const std::filesystem::path& data_dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir / "kinect")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("kinect osc: every shared recording comes through bit-exact (float32 on the wire), nothing dropped") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto files = kinectRecordings(data_dir);
  CHECK(files.size() == 7);  // MANIFEST.md: 7 Kinect v2 recordings (5 LabanotationSuite, 2 Keraal)
  for (const auto& path : files) {
    const std::string file_name = path.filename().string();
    CAPTURE(file_name);
    const SkeletonMotion<double> motion = readKinect(path.string());
    KinectOscAssembler assembler;
    SkeletonFramed got;
    std::size_t emitted = 0;
    for (std::size_t k = 0; k < motion.size(); ++k) {
      const double t = 100.0 + motion.frames[k].time;  // the receiver's clock
      for (const WireMessage& m : frameMessages(motion.frames[k], 72057594037928000ULL)) {
        send(assembler, m, t);
        CHECK(assembler.poll(got, t) == m.ends_frame);
      }
      ++emitted;
      CHECK(got.time == t);
      for (std::size_t j = 0; j < static_cast<std::size_t>(kHumanJointCount); ++j) {
        const Eigen::Vector3d wire = test::oscWireValue(motion.frames[k].p_W[j]);
        INFO("frame ", k, " joint ", j, ": got ", got.p_W[j].transpose(), ", sent ", wire.transpose());
        REQUIRE(test::sameBits(got.p_W[j], wire));
        REQUIRE(got.state[j] == motion.frames[k].state[j]);
      }
      CHECK(got.left_hand == HandState::kOpen);
      CHECK(got.right_hand == HandState::kOpen);
    }
    CHECK(emitted == motion.size());
    CHECK(assembler.counters().frames == motion.size());
    CHECK(assembler.counters().messages == motion.size() * 27);
    CHECK(assembler.counters().droppedTotal() == 0);
    CHECK(assembler.counters().carried_joints == 0);
  }
}

TEST_CASE("kinect osc: lost, repeated, reordered, garbage and non-finite messages are counted; frames hold only sent values") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const auto& path : kinectRecordings(data_dir)) {
    const std::string file_name = path.filename().string();
    CAPTURE(file_name);
    const SkeletonMotion<double> motion = readKinect(path.string());
    std::mt19937 rng(20261125);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    KinectOscOptions options;
    options.max_missing_joints = 3;
    KinectOscAssembler assembler(options);
    std::size_t injected_garbage = 0, injected_bad = 0, injected_nan = 0, injected_duplicates = 0;
    std::size_t emitted = 0, sent_ends = 0, last_source = 0;
    SkeletonFramed previous, got;
    bool has_previous = false;
    const std::vector<std::string> garbage = {"/bodies/", "/bodies//joints/Head", "/bodies/12x/joints/Head",
                                              "/bodies/5/joints/Nose", "/bodies/5/hands/Middle", "/kinect",
                                              "", "/bodies/0/joints/Head", "/bodies/99999999999999999999999/joints/Head"};
    for (std::size_t k = 0; k < motion.size(); ++k) {
      const double t = motion.frames[k].time;
      std::vector<WireMessage> messages = frameMessages(motion.frames[k], 7);
      // Reordering inside a frame: the joints in random order (the hands stay last).
      if (u(rng) < 0.3) std::shuffle(messages.begin(), messages.begin() + kHumanJointCount, rng);
      for (const WireMessage& original : messages) {
        if (u(rng) < 0.03) continue;  // lost
        if (u(rng) < 0.01) {          // garbage address
          WireMessage g = original;
          g.address = garbage[static_cast<std::size_t>(u(rng) * static_cast<double>(garbage.size())) % garbage.size()];
          send(assembler, g, t);
          ++injected_garbage;
          continue;
        }
        if (original.joint >= 0 && u(rng) < 0.01) {  // truncated arguments
          WireMessage b = original;
          b.types.resize(2);
          send(assembler, b, t);
          ++injected_bad;
          continue;
        }
        if (original.joint >= 0 && u(rng) < 0.01) {  // a NaN coordinate
          WireMessage n = original;
          n.numbers[1] = std::numeric_limits<double>::quiet_NaN();
          send(assembler, n, t);
          ++injected_nan;
          continue;
        }
        send(assembler, original, t);
        if (original.ends_frame) ++sent_ends;
        // The same datagram twice (joints and the frame-ending Right hand; a repeated Left hand
        // only repeats a state).
        if ((original.joint >= 0 || original.ends_frame) && u(rng) < 0.03) {
          send(assembler, original, t);
          ++injected_duplicates;
        }
        if (!assembler.poll(got, t)) continue;
        ++emitted;
        // The frame is this one (ended by its Right hand) or the previous one (whose Right hand
        // was lost, ended by a joint of this one). Every joint is that frame's wire value or
        // carried from the previous emitted frame: at most max_missing_joints of them, downgraded
        // to inferred at most.
        auto mismatches = [&](std::size_t source) {
          int n = 0;
          for (std::size_t j = 0; j < static_cast<std::size_t>(kHumanJointCount); ++j) {
            n += got.p_W[j] == test::oscWireValue(motion.frames[source].p_W[j]) && got.state[j] == motion.frames[source].state[j] ? 0 : 1;
          }
          return n;
        };
        const std::size_t source = mismatches(k) <= options.max_missing_joints || k == 0 ? k : k - 1;
        REQUIRE(source >= last_source);  // never an older frame than the last one emitted
        last_source = source;
        int carried = 0;
        for (std::size_t j = 0; j < static_cast<std::size_t>(kHumanJointCount); ++j) {
          REQUIRE(got.p_W[j].allFinite());
          if (got.p_W[j] == test::oscWireValue(motion.frames[source].p_W[j]) && got.state[j] == motion.frames[source].state[j]) {
            continue;
          }
          // A frame whose Right hand was lost takes the joints it lacked from the next frame's
          // messages that arrived before the repeated joint that ended it.
          if (source + 1 == k && got.p_W[j] == test::oscWireValue(motion.frames[k].p_W[j]) &&
              got.state[j] == motion.frames[k].state[j]) {
            continue;
          }
          ++carried;
          if (has_previous) {
            CHECK(got.p_W[j] == previous.p_W[j]);
            CHECK(got.state[j] <= TrackingState::kInferred);
          } else {
            CHECK(got.state[j] == TrackingState::kNotTracked);  // nothing to carry yet
          }
        }
        CHECK(carried <= options.max_missing_joints);
        previous = got;
        has_previous = true;
      }
    }
    const KinectOscCounters& c = assembler.counters();
    CHECK(c.droppedFor(KinectOscDrop::kUnknownAddress) == injected_garbage);
    CHECK(c.droppedFor(KinectOscDrop::kBadArguments) == injected_bad);
    CHECK(c.droppedFor(KinectOscDrop::kNonFinite) == injected_nan);
    // A joint of the next frame whose values did not change counts as a repeat when the Right
    // hand before it was lost (then it belongs to the frame it repeats anyway).
    CHECK(c.droppedFor(KinectOscDrop::kDuplicate) >= injected_duplicates);
    CHECK(c.droppedFor(KinectOscDrop::kDuplicate) <= injected_duplicates + kHumanJointCount * (motion.size() - sent_ends));
    CHECK(c.droppedFor(KinectOscDrop::kTooManyBodies) == 0);
    CHECK(injected_duplicates > 0);
    // Every frame end emits a frame or drops it as incomplete; most frames survive.
    CHECK(emitted + c.droppedFor(KinectOscDrop::kIncompleteFrame) <= motion.size());
    CHECK(static_cast<double>(emitted) >= 0.6 * static_cast<double>(motion.size()));
  }
}

TEST_CASE("kinect osc: the closest body is followed with hysteresis, replaced when lost; or one id only") {
  SkeletonFramed near_body, far_body;
  for (int j = 0; j < kHumanJointCount; ++j) {
    near_body.p_W[static_cast<std::size_t>(j)] = Eigen::Vector3d(-1.5, 0.01 * j, 0.1 * j);
    far_body.p_W[static_cast<std::size_t>(j)] = Eigen::Vector3d(-3.0, 0.01 * j, 0.1 * j);
    near_body.state[static_cast<std::size_t>(j)] = far_body.state[static_cast<std::size_t>(j)] = TrackingState::kTracked;
  }
  auto interleave = [](KinectOscAssembler& a, const SkeletonFramed& f1, std::uint64_t id1, const SkeletonFramed* f2,
                       std::uint64_t id2, double t) {
    const auto m1 = frameMessages(f1, id1);
    const auto m2 = f2 ? frameMessages(*f2, id2) : std::vector<WireMessage>{};
    for (std::size_t i = 0; i < m1.size(); ++i) {
      send(a, m1[i], t);
      if (f2) send(a, m2[i], t);
    }
  };
  KinectOscAssembler assembler;  // body_timeout 0.5 s
  SkeletonFramed got;
  double t = 0.0;
  for (int k = 0; k < 10; ++k, t += 1.0 / 30) {
    far_body.time = t;
    interleave(assembler, far_body, 22, &near_body, 11, t);
    REQUIRE(assembler.poll(got, t));
    CHECK(assembler.followedBody() == 11);
    CHECK(got.position(HumanJoint::kSpineBase).x() == doctest::Approx(-1.5));
  }
  // Body 11 leaves: nothing new while it might come back, then body 22 after the timeout.
  for (int k = 0; k < 30; ++k, t += 1.0 / 30) {
    interleave(assembler, far_body, 22, nullptr, 0, t);
    const bool fresh = assembler.poll(got, t);
    if (t - 9.0 / 30 <= 0.5) {
      CHECK_FALSE(fresh);
    } else if (t - 9.0 / 30 > 0.5 + 1.0 / 30) {
      CHECK(fresh);
      CHECK(assembler.followedBody() == 22);
    }
  }
  // Body 11 comes back under a new id, 0.3 m nearer than 22: less than switch_distance, so 22
  // stays followed; then 1.5 m nearer: 33 takes over.
  SkeletonFramed returning = far_body;
  for (auto& p : returning.p_W) p.x() += 0.3;
  for (int k = 0; k < 5; ++k, t += 1.0 / 30) {
    interleave(assembler, far_body, 22, &returning, 33, t);
    REQUIRE(assembler.poll(got, t));
    CHECK(assembler.followedBody() == 22);
  }
  for (int k = 0; k < 5; ++k, t += 1.0 / 30) {
    interleave(assembler, far_body, 22, &near_body, 33, t);
    REQUIRE(assembler.poll(got, t));
    CHECK(assembler.followedBody() == 33);
    CHECK(got.position(HumanJoint::kSpineBase).x() == doctest::Approx(-1.5));
  }

  KinectOscOptions only;
  only.body_id = 22;
  KinectOscAssembler by_id(only);
  for (int k = 0; k < 5; ++k, t += 1.0 / 30) {
    interleave(by_id, near_body, 11, &far_body, 22, t);
    REQUIRE(by_id.poll(got, t));
    CHECK(by_id.followedBody() == 22);
    CHECK(got.position(HumanJoint::kSpineBase).x() == doctest::Approx(-3.0));
  }
}

TEST_CASE("kinect osc: a seventh body is dropped and counted; per-message work allocates nothing") {
  SkeletonFramed frame;
  for (auto& s : frame.state) s = TrackingState::kTracked;
  KinectOscAssembler assembler;
  std::vector<std::vector<WireMessage>> bodies;
  for (std::uint64_t id = 1; id <= 7; ++id) bodies.push_back(frameMessages(frame, id));
  std::vector<Delivered> delivered;
  for (const auto& body : bodies) {
    for (const auto& m : body) delivered.emplace_back(m);
  }
  SkeletonFramed got;
  std::size_t polled = 0;
  {
    test::NoAllocationScope scope;
    for (int k = 0; k < 3; ++k) {
      std::size_t i = 0;
      for (const auto& body : bodies) {
        for (const auto& m : body) {
          const Delivered& d = delivered[i++];
          assembler.receive(m.address, d.args.data(), static_cast<int>(d.args.size()), 0.01 * k);
          polled += assembler.poll(got, 0.01 * k) ? 1 : 0;
        }
      }
    }
    CHECK(scope.allocations() == 0);
  }
  CHECK(polled == 3);
  CHECK(assembler.counters().frames == 18);
  CHECK(assembler.counters().droppedFor(KinectOscDrop::kTooManyBodies) == 3 * 27);
}

TEST_CASE("kinect osc: options are validated, naming the field") {
  KinectOscOptions bad;
  bad.max_missing_joints = 25;
  CHECK_THROWS_WITH_AS(KinectOscAssembler{bad}, doctest::Contains("max_missing_joints"), InvalidArgument);
  bad = KinectOscOptions{};
  bad.body_timeout = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(KinectOscAssembler{bad}, doctest::Contains("body_timeout"), InvalidArgument);
}
