#pragma once

/// @file
/// Replaying a recorded motion at its own rate (or faster), so every live loop runs without
/// hardware: `ReplayClock` says which frame of a recording is due and waits for it. It knows
/// only the frame times; the caller holds the frames (a `SkeletonMotion`, a `BvhMotion`).
/// Part of retarget::retarget (no dependency); not included by retarget/retarget.hpp.

#include <chrono>
#include <cstddef>
#include <thread>
#include <vector>

#include <retarget/core/error.hpp>

namespace retarget {

/// Options of `ReplayClock`.
struct ReplayOptions {
  /// Playback speed: 1 = the recording's own rate, 2 = twice as fast; 0 = as fast as the
  /// reader takes the frames (no waiting). >= 0.
  double speed = 1.0;
  /// Start again from the first frame after the last (one frame period later).
  bool loop = false;

  void validate() const {
    RETARGET_THROW_UNLESS(speed >= 0 && speed <= 1000, InvalidArgument, "ReplayOptions.speed must be in [0, 1000] (got ",
                          speed, ")");
  }
};

/// Frame k of a recording is due `(t_k - t_0) / speed` after the first call to `next`.
class ReplayClock {
 public:
  /// `times`: the recording's frame times, s, finite and strictly increasing (at least one).
  /// Throws InvalidArgument naming the first bad frame.
  ReplayClock(std::vector<double> times, const ReplayOptions& options = {})
      : times_(std::move(times)), options_((options.validate(), options)) {
    RETARGET_THROW_UNLESS(!times_.empty(), InvalidArgument, "ReplayClock: the recording has no frames");
    for (std::size_t k = 0; k < times_.size(); ++k) {
      RETARGET_THROW_UNLESS(times_[k] - times_[k] == 0.0 && (k == 0 || times_[k] > times_[k - 1]), InvalidArgument,
                            "ReplayClock: frame ", k, " time ", times_[k], " s is not finite or does not increase");
    }
    const double span = times_.back() - times_.front();
    period_ = times_.size() > 1 ? span / static_cast<double>(times_.size() - 1) : 1.0 / 30.0;
    lap_ = span + period_;
  }

  /// Waits up to `timeout_ms` (>= 0) for the next frame to be due. Returns true with its index
  /// in `frame` (and its time in the replay, s from the first frame, laps included, in
  /// `replay_time`), false when the wait ended first or the recording is over (`finished()`).
  /// Never throws.
  bool next(int timeout_ms, std::size_t& frame, double& replay_time) {
    if (finished()) return false;
    const auto now = Clock::now();
    if (!started_) {
      started_ = true;
      start_ = now;
    }
    replay_time = static_cast<double>(lap_count_) * lap_ + times_[next_] - times_.front();
    if (options_.speed > 0) {
      const auto due = start_ + std::chrono::duration_cast<Clock::duration>(
                                    std::chrono::duration<double>(replay_time / options_.speed));
      if (due > now) {
        const auto limit = now + std::chrono::milliseconds(timeout_ms > 0 ? timeout_ms : 0);
        if (due > limit) {
          std::this_thread::sleep_until(limit);
          return false;
        }
        std::this_thread::sleep_until(due);
      }
    }
    frame = next_++;
    if (next_ == times_.size() && options_.loop) {
      next_ = 0;
      ++lap_count_;
    }
    return true;
  }

  /// True once the last frame was handed out (never when looping).
  bool finished() const { return next_ >= times_.size(); }
  std::size_t frameCount() const { return times_.size(); }
  /// Laps completed (looping).
  std::size_t laps() const { return lap_count_; }

 private:
  using Clock = std::chrono::steady_clock;
  std::vector<double> times_;
  ReplayOptions options_;
  double period_ = 0, lap_ = 0;
  std::size_t next_ = 0, lap_count_ = 0;
  bool started_ = false;
  Clock::time_point start_{};
};

}  // namespace retarget
