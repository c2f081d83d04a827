#pragma once

// Shared helpers for the retarget tests: sweep sizes from the command line, test data lookup.

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace retarget::test {

/// Multiplier for seeded random sweeps, from `--sweep-scale=<x>` on the test command line
/// (default 1). Sweeps call sweepCount(n) instead of using n directly.
double sweepScale();

/// `base` scaled by sweepScale(), at least 1.
inline int sweepCount(int base) {
  const double n = base * sweepScale();
  return n < 1 ? 1 : static_cast<int>(n);
}

/// Folder with the shared real recordings and URDFs: $RETARGET_TEST_DATA, else
/// <source>/../shared/data; nullopt when neither exists (tests then report themselves skipped).
inline std::optional<std::filesystem::path> testDataDir() {
  if (const char* env = std::getenv("RETARGET_TEST_DATA")) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
  }
  const std::filesystem::path fallback = std::filesystem::path(RETARGET_SOURCE_DIR) / ".." / "shared" / "data";
  if (std::filesystem::is_directory(fallback)) return std::filesystem::canonical(fallback);
  return std::nullopt;
}

}  // namespace retarget::test

/// Use at the top of a test that needs ../shared/data: binds `data_dir` or skips the test
/// with a message.
#define RETARGET_REQUIRE_TEST_DATA(data_dir)                                         \
  const auto data_dir##_optional = ::retarget::test::testDataDir();                  \
  if (!data_dir##_optional) {                                                        \
    MESSAGE("skipped: no test data (set RETARGET_TEST_DATA or place ../shared/data)"); \
    return;                                                                          \
  }                                                                                  \
  const std::filesystem::path& data_dir = *data_dir##_optional
