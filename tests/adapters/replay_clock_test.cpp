// ReplayClock: frames come in order at their recorded times scaled by the speed (bounded
// checks on the order of the waits, not a speed measurement), as fast as asked with speed 0,
// laps when looping; bad times are refused naming the frame.

#include <doctest/doctest.h>

#include <chrono>
#include <vector>

#include <retarget/adapters/replay/replay_clock.hpp>

using namespace retarget;

TEST_CASE("ReplayClock: order, pacing, speed 0 and laps") {
  std::vector<double> times;
  for (int k = 0; k < 20; ++k) times.push_back(2.0 + 0.01 * k);  // 0.19 s of recording
  {
    ReplayClock clock(times, {0.0, false});
    std::size_t frame = 0, count = 0;
    double t = 0;
    while (clock.next(0, frame, t)) {
      CHECK(frame == count);
      CHECK(t == doctest::Approx(0.01 * static_cast<double>(count)));
      ++count;
    }
    CHECK(count == 20);
    CHECK(clock.finished());
  }
  {
    ReplayClock clock(times, {1.0, false});
    const auto start = std::chrono::steady_clock::now();
    std::size_t frame = 0;
    double t = 0;
    std::size_t count = 0;
    while (!clock.finished()) {
      if (clock.next(1000, frame, t)) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(elapsed >= t - 1e-3);  // never early
        ++count;
      }
    }
    CHECK(count == 20);
    CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= 0.19 - 1e-3);
  }
  {
    ReplayClock clock(times, {1.0, false});
    std::size_t frame = 0;
    double t = 0;
    REQUIRE(clock.next(0, frame, t));      // the first is due at once
    CHECK_FALSE(clock.next(0, frame, t));  // the second in 10 ms: a zero wait returns without it
  }
  {
    ReplayClock clock(times, {0.0, true});
    std::size_t frame = 0;
    double t = 0, last = -1;
    for (int k = 0; k < 45; ++k) {
      REQUIRE(clock.next(0, frame, t));
      CHECK(frame == static_cast<std::size_t>(k % 20));
      CHECK(t > last);  // replay time keeps increasing across laps
      last = t;
    }
    CHECK(clock.laps() == 2);
    CHECK_FALSE(clock.finished());
  }
  CHECK_THROWS_WITH_AS(ReplayClock({0.0, 0.1, 0.1}), doctest::Contains("frame 2"), InvalidArgument);
  CHECK_THROWS_AS(ReplayClock({}), InvalidArgument);
  CHECK_THROWS_WITH_AS(ReplayClock({0.0}, {-1.0, false}), doctest::Contains("ReplayOptions.speed"), InvalidArgument);
}
