// Support-mode switching (seed 000, Section 4): scripted ankle-height sequences (noise, spikes,
// slow lifts, random sequences) switch exactly where a window form of the paper's rules says;
// missing ankles give no evidence; the demo motions give the modes a person would expect, and
// the shared Kinect recordings never flap.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <retarget/control/support_mode.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/kinect.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

// The rest skeleton with its ankles at the given heights (m) at time t.
SkeletonFramed withAnkles(double left_z, double right_z, double t) {
  static const SkeletonFramed rest = demoMotion("wave", DemoMotionOptions{30.0, 0.0, 1.75}).frames.front();
  SkeletonFramed frame = rest;
  frame.time = t;
  frame.position(HumanJoint::kAnkleLeft).z() = left_z;
  frame.position(HumanJoint::kAnkleRight).z() = right_z;
  return frame;
}

struct Transition {
  std::int64_t frame;
  SupportMode to;
  bool operator==(const Transition& o) const { return frame == o.frame && to == o.to; }
};

std::vector<Transition> runSwitch(const std::vector<double>& rise, const SupportModeOptions& options) {
  SupportModeSwitch<double> modes(options);
  std::vector<Transition> out;
  for (std::size_t k = 0; k < rise.size(); ++k) {
    const SupportModeUpdate u = modes.update(withAnkles(0.08 + rise[k], 0.08, static_cast<double>(k) / 30.0));
    if (u.changed) out.push_back({u.event.frame, u.event.to});
  }
  return out;
}

// The paper's rules written as windows: from double support, the first frame k where the last N
// frames (all after the previous switch) have one ankle >= h0 above the other; from single
// support, the first k where the last N frames have the free ankle < h0 above the support one.
std::vector<Transition> windowReference(const std::vector<double>& rise, double h0, int n) {
  std::vector<Transition> out;
  SupportMode mode = SupportMode::kDouble;
  std::int64_t since = 0;  // first frame counted after the last switch
  for (std::int64_t k = 0; k < static_cast<std::int64_t>(rise.size()); ++k) {
    if (k - n + 1 < since) continue;
    const auto all = [&](auto predicate) {
      for (std::int64_t i = k - n + 1; i <= k; ++i) {
        if (!predicate(rise[static_cast<std::size_t>(i)])) return false;
      }
      return true;
    };
    SupportMode next = mode;
    if (mode == SupportMode::kDouble) {
      if (all([&](double r) { return r >= h0; })) next = SupportMode::kSingleRight;
      else if (all([&](double r) { return -r >= h0; })) next = SupportMode::kSingleLeft;
    } else {
      const double sign = mode == SupportMode::kSingleRight ? 1.0 : -1.0;
      if (all([&](double r) { return sign * r < h0; })) next = SupportMode::kDouble;
    }
    if (next != mode) {
      out.push_back({k, next});
      mode = next;
      since = k + 1;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("support modes: noise and single-frame spikes never switch; a slow lift switches on its third frame") {
  std::mt19937 rng(2);
  std::normal_distribution<double> noise(0.0, 0.01);
  std::vector<double> rise(3000);
  for (double& r : rise) r = noise(rng);
  CHECK(runSwitch(rise, {}).empty());
  // Spikes of 10 cm, one or two frames long, on either ankle, at least three frames apart.
  for (std::size_t k = 5; k + 2 < rise.size(); k += 7) {
    const double spike = (k / 7) % 2 == 0 ? 0.10 : -0.10;
    rise[k] = spike;
    if ((k / 14) % 2 == 0) rise[k + 1] = spike;
  }
  CHECK(runSwitch(rise, {}).empty());

  // Lift the left ankle by 10 cm over 30 frames, hold 30, lower over 30, rest 30.
  std::vector<double> lift;
  for (int k = 0; k < 30; ++k) lift.push_back(0.10 * k / 29.0);
  for (int k = 0; k < 30; ++k) lift.push_back(0.10);
  for (int k = 0; k < 30; ++k) lift.push_back(0.10 * (29 - k) / 29.0);
  for (int k = 0; k < 30; ++k) lift.push_back(0.0);
  const auto first_at_least = std::find_if(lift.begin(), lift.end(), [](double r) { return r >= 0.05; }) - lift.begin();
  const auto first_below = std::find_if(lift.begin() + 30, lift.end(), [](double r) { return r < 0.05; }) - lift.begin();
  const std::vector<Transition> expected{{first_at_least + 2, SupportMode::kSingleRight},
                                         {first_below + 2, SupportMode::kDouble}};
  CHECK(runSwitch(lift, {}) == expected);
  // The right foot: the mirror image.
  std::vector<double> mirrored(lift.size());
  std::transform(lift.begin(), lift.end(), mirrored.begin(), [](double r) { return -r; });
  const std::vector<Transition> expected_mirror{{first_at_least + 2, SupportMode::kSingleLeft},
                                                {first_below + 2, SupportMode::kDouble}};
  CHECK(runSwitch(mirrored, {}) == expected_mirror);
}

TEST_CASE("support modes: random height sequences switch exactly where the window rules say") {
  std::mt19937 rng(9);
  std::normal_distribution<double> step(0.0, 0.02);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::uniform_int_distribution<int> confirm(1, 5);
  int transitions = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<double> rise(200);
    double level = 0.0;
    for (double& r : rise) {
      level = std::clamp(level + step(rng), -0.15, 0.15);
      r = uniform(rng) < 0.05 ? level + (uniform(rng) < 0.5 ? 0.1 : -0.1) : level;  // occasional spikes
    }
    SupportModeOptions options;
    options.confirm_frames = confirm(rng);
    options.lift_height = 0.03 + 0.04 * uniform(rng);
    const auto got = runSwitch(rise, options);
    const auto want = windowReference(rise, options.lift_height, options.confirm_frames);
    CAPTURE(trial);
    CHECK(got == want);
    transitions += static_cast<int>(want.size());
  }
  CHECK(transitions > 400);  // the sequences do switch
}

TEST_CASE("support modes: frames without ankles give no evidence; the mode and the counters hold") {
  SupportModeSwitch<double> modes;
  int k = 0;
  const auto feed = [&](double rise, bool tracked) {
    SkeletonFramed frame = withAnkles(0.08 + rise, 0.08, k++ / 30.0);
    if (!tracked) frame.trackingState(HumanJoint::kAnkleLeft) = TrackingState::kNotTracked;
    return modes.update(frame);
  };
  CHECK(!feed(0.1, true).changed);
  CHECK(!feed(0.1, true).changed);
  const SupportModeUpdate gap = feed(0.1, false);
  CHECK(gap.no_evidence);
  CHECK(!gap.changed);
  const SupportModeUpdate third = feed(0.1, true);  // the third lifted frame with evidence
  CHECK(third.changed);
  CHECK(third.mode == SupportMode::kSingleRight);
  CHECK(third.event.frame == 3);
  CHECK_THROWS_WITH_AS(SupportModeSwitch<double>(SupportModeOptions{0.05, 0, 0.5, {}}),
                       doctest::Contains("confirm_frames (got 0"), InvalidArgument);
}

TEST_CASE("support modes: the demo motions give the modes a person would expect") {
  const auto run = [](const std::string& name) {
    SupportModeSwitch<double> modes;
    std::map<SupportMode, int> frames;
    std::vector<SupportModeEvent> events;
    int suspended = 0;
    for (const SkeletonFramed& frame : demoMotion(name, DemoMotionOptions{30.0, 12.0, 1.75}).frames) {
      const SupportModeUpdate u = modes.update(frame);
      ++frames[u.mode];
      if (u.changed) events.push_back(u.event);
      suspended += u.lower_limbs_suspended ? 1 : 0;
    }
    std::string summary;
    for (const auto& [mode, count] : frames) summary += std::string(supportModeName(mode)) + " " + std::to_string(count) + " ";
    MESSAGE(name << ": " << summary << "frames, " << events.size() << " transitions, legs suspended in " << suspended
                 << " frames");
    return std::make_tuple(frames, events, suspended);
  };
  for (const char* still : {"wave", "arms-raise", "squat", "arm-circles", "fold-arms"}) {
    const auto [frames, events, suspended] = run(still);
    CHECK(events.empty());
    CHECK(suspended == 0);
  }
  {
    // In 6 s cycles the left knee lifts (1 ... 2 s), holds, lowers (4 ... 5 s): standing on the
    // right foot twice, back on both feet after each.
    const auto [frames, events, suspended] = run("one-leg-stand");
    REQUIRE(events.size() == 4);
    for (std::size_t i = 0; i < 4; ++i) {
      CHECK(events[i].to == (i % 2 == 0 ? SupportMode::kSingleRight : SupportMode::kDouble));
    }
    CHECK(events[0].time > 1.0);
    CHECK(events[0].time < 2.0);
    CHECK(events[1].time > 4.0);
    CHECK(events[1].time < 5.5);
  }
  {
    const auto [frames, events, suspended] = run("walk-in-place");
    REQUIRE(!events.empty());
    const auto walking = frames.count(SupportMode::kWalking) != 0U ? frames.at(SupportMode::kWalking) : 0;
    CHECK(walking > 0.75 * 361);  // once both feet have stepped, the robot walks (in place)
    CHECK(std::any_of(events.begin(), events.end(), [](const SupportModeEvent& e) { return e.to == SupportMode::kWalking; }));
    CHECK(events.back().to == SupportMode::kWalking);
  }
}

TEST_CASE("support modes: the shared Kinect recordings stay in double support and rarely suspend the legs") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir / "kinect")) {
    ++files;
    SkeletonMotiond motion = readKinect(entry.path().string());
    SupportModeSwitch<double> modes;
    std::map<SupportMode, int> frames;
    int events = 0, suspended = 0, no_evidence = 0;
    for (SkeletonFramed frame : motion.frames) {
      applyInferredPolicy(frame, InferredJoints::kHold);
      const SupportModeUpdate u = modes.update(frame);
      ++frames[u.mode];
      events += u.changed ? 1 : 0;
      suspended += u.lower_limbs_suspended ? 1 : 0;
      no_evidence += u.no_evidence ? 1 : 0;
    }
    MESSAGE(entry.path().filename().string() << ": " << motion.size() << " frames, " << events << " transitions, double "
                                             << frames[SupportMode::kDouble] << ", legs suspended in " << suspended
                                             << ", no evidence in " << no_evidence);
    CHECK(events == 0);  // standing or seated gestures: no foot leaves the ground
    CHECK(suspended <= static_cast<int>(motion.size()) / 10);
  }
  CHECK(files == 7);  // MANIFEST.md: 7 Kinect v2 recordings (5 LabanotationSuite, 2 Keraal)
}
