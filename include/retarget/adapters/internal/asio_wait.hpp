#pragma once

/// @file
/// Bounded waits on an asio io_context (`retarget::internal`), shared by the socket adapters.

#include <chrono>
#include <cstddef>

#include <asio.hpp>

namespace retarget::internal {

/// Runs at most one ready or arriving handler of `context`, waiting until `deadline` (only a
/// ready one once it has passed); restarts the context when it ran out of work. Returns the
/// number of handlers run (0 or 1).
inline std::size_t runOneUntil(asio::io_context& context, std::chrono::steady_clock::time_point deadline) {
  const std::size_t ran =
      std::chrono::steady_clock::now() >= deadline ? context.poll_one() : context.run_one_until(deadline);
  if (context.stopped()) context.restart();
  return ran;
}

/// Seconds as a steady-clock duration.
inline std::chrono::steady_clock::duration secondsToDuration(double seconds) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
}

}  // namespace retarget::internal
