#pragma once

/// @file
/// "N consecutive frames" detector: true once a condition has held N frames in a row (e.g.
/// GA-LVVJ's mode switching waits until a support mode has been seen for several frames).

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>

namespace retarget {

/// Options of `ConsecutiveFramesDetector`.
struct ConsecutiveFramesOptions {
  /// Number of consecutive frames the condition must hold (>= 1).
  int frames = 3;

  /// Throws InvalidArgument naming the field when `frames` < 1.
  RETARGET_DECL void validate() const;
};

/// Counts how many frames in a row a condition has held; `update` returns true from the N-th
/// consecutive true frame on, and a false frame starts the count again. The count saturates at
/// N (no overflow on long runs). Per-frame calls never allocate or throw.
class ConsecutiveFramesDetector {
 public:
  /// Throws InvalidArgument on bad options.
  explicit ConsecutiveFramesDetector(const ConsecutiveFramesOptions& options)
      : options_((options.validate(), options)) {}

  /// Feeds this frame's condition; returns `detected()`.
  RETARGET_DECL bool update(bool condition) noexcept;
  /// True when the condition has held at least N frames in a row up to the last update.
  bool detected() const noexcept { return count_ >= options_.frames; }
  /// Current run length, saturated at N.
  int count() const noexcept { return count_; }
  /// The validated options.
  const ConsecutiveFramesOptions& options() const noexcept { return options_; }
  /// Forgets the current run.
  void reset() noexcept { count_ = 0; }

 private:
  ConsecutiveFramesOptions options_;
  int count_ = 0;
};

#if RETARGET_DEFINE_FILTERS

RETARGET_DECL void ConsecutiveFramesOptions::validate() const {
  RETARGET_THROW_UNLESS(frames >= 1, InvalidArgument, "ConsecutiveFramesOptions.frames is invalid (got ", frames,
                        ", expected >= 1)");
}

RETARGET_DECL bool ConsecutiveFramesDetector::update(bool condition) noexcept {
  count_ = condition ? (count_ < options_.frames ? count_ + 1 : count_) : 0;
  return detected();
}

#endif  // RETARGET_DEFINE_FILTERS

}  // namespace retarget
