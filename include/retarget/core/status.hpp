#pragma once

/// @file
/// Per-frame status reported by every real-time stage (mappers, filters, safety stages).

#include <cstdint>
#include <string>

#include <retarget/core/compilation.hpp>

namespace retarget {

/// One reason a per-frame call did not simply succeed. Codes are bit flags: a frame can be
/// both clamped and degenerate, say. `StatusCode::kOk` is the empty set.
enum class StatusCode : std::uint32_t {
  kOk = 0,
  /// At least one output was clamped to the robot's position or velocity limits.
  kClamped = 1u << 0,
  /// The input frame was unusable for some outputs (missing, untracked, zero-length or
  /// collinear vectors); those outputs hold their last good value.
  kDegenerateInput = 1u << 1,
  /// An output was changed to avoid a self-collision.
  kCollisionAvoided = 1u << 2,
  /// An iterative solver stopped before meeting its tolerance; the output is its best iterate.
  kNotConverged = 1u << 3,
  /// An output was limited by a rate (velocity) limiter.
  kRateLimited = 1u << 4,
  /// A per-frame argument had the wrong size or was not finite; the output was held.
  kInvalidInput = 1u << 5,
  /// An output jumped between neighbouring frames because the robot's limits left no
  /// continuous solution (e.g. an elbow yaw wanted across its +-pi wrap, outside its range).
  kDiscontinuity = 1u << 6,
};

/// A set of `StatusCode` flags. Cheap to copy, never allocates.
class [[nodiscard]] Status {
 public:
  constexpr Status() noexcept = default;
  constexpr Status(StatusCode code) noexcept : bits_(static_cast<std::uint32_t>(code)) {}  // NOLINT

  /// True when no flag is set.
  constexpr bool ok() const noexcept { return bits_ == 0; }
  /// True when `code` is set.
  constexpr bool has(StatusCode code) const noexcept {
    return (bits_ & static_cast<std::uint32_t>(code)) != 0;
  }
  /// Adds the flags of `other`.
  constexpr Status& operator|=(Status other) noexcept {
    bits_ |= other.bits_;
    return *this;
  }
  constexpr friend Status operator|(Status a, Status b) noexcept { return a |= b; }
  /// The same flags less `code`.
  constexpr Status without(StatusCode code) const noexcept {
    Status out = *this;
    out.bits_ &= ~static_cast<std::uint32_t>(code);
    return out;
  }
  constexpr friend bool operator==(Status a, Status b) noexcept { return a.bits_ == b.bits_; }
  constexpr friend bool operator!=(Status a, Status b) noexcept { return a.bits_ != b.bits_; }
  /// Raw flag bits.
  constexpr std::uint32_t bits() const noexcept { return bits_; }

  /// Human-readable list such as "clamped|degenerate_input" ("ok" when empty). Allocates: not
  /// for the per-frame path.
  RETARGET_DECL std::string toString() const;

 private:
  std::uint32_t bits_ = 0;
};

#if RETARGET_DEFINE_CORE

RETARGET_DECL std::string Status::toString() const {
  if (ok()) return "ok";
  static constexpr struct {
    StatusCode code;
    const char* name;
  } kNames[] = {{StatusCode::kClamped, "clamped"},
                {StatusCode::kDegenerateInput, "degenerate_input"},
                {StatusCode::kCollisionAvoided, "collision_avoided"},
                {StatusCode::kNotConverged, "not_converged"},
                {StatusCode::kRateLimited, "rate_limited"},
                {StatusCode::kInvalidInput, "invalid_input"},
                {StatusCode::kDiscontinuity, "discontinuity"}};
  std::string out;
  for (const auto& entry : kNames) {
    if (has(entry.code)) {
      if (!out.empty()) out += '|';
      out += entry.name;
    }
  }
  return out;
}

#endif  // RETARGET_DEFINE_CORE

}  // namespace retarget
