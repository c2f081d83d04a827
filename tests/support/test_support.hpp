#pragma once

// Shared helpers for the retarget tests: sweep sizes from the command line, test data lookup.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

namespace retarget::test {

/// Multiplier for seeded random sweeps, from `--sweep-scale=<x>` on the test command line
/// (default 1). Sweeps call sweepCount(n) instead of using n directly.
double sweepScale();

/// `base` scaled by sweepScale(), at least 1.
inline int sweepCount(int base) {
  const double n = base * sweepScale();
  return n < 1 ? 1 : static_cast<int>(n);
}

/// Folder with the shared real recordings and URDFs: $RETARGET_TEST_DATA when set (nullopt
/// when it is not a folder: `RETARGET_TEST_DATA=/none` runs the suite as a clean clone would),
/// else <source>/../shared/data; nullopt when it does not exist (tests then report themselves
/// skipped, or fail when testDataRequired()).
inline std::optional<std::filesystem::path> testDataDir() {
  if (const char* env = std::getenv("RETARGET_TEST_DATA")) {
    if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
    return std::nullopt;
  }
  const std::filesystem::path fallback = std::filesystem::path(RETARGET_SOURCE_DIR) / ".." / "shared" / "data";
  if (std::filesystem::is_directory(fallback)) return std::filesystem::canonical(fallback);
  return std::nullopt;
}

/// True when the environment variable `name` is set to anything but "" or "0".
inline bool environmentFlag(const char* name) {
  const char* env = std::getenv(name);
  return env != nullptr && env[0] != '\0' && std::string(env) != "0";
}

/// True when RETARGET_REQUIRE_ALL is set: every skip (missing data, a missing tool such as
/// Chromium) fails the run. ctest sets it for every test when the build's RETARGET_REQUIRE_ALL
/// option is on, as in the `test` and `asan` presets.
inline bool everythingRequired() { return environmentFlag("RETARGET_REQUIRE_ALL"); }

/// True when RETARGET_REQUIRE_DATA (or RETARGET_REQUIRE_ALL) is set: a test that needs
/// ../shared/data then FAILS when it is missing instead of being skipped.
inline bool testDataRequired() { return environmentFlag("RETARGET_REQUIRE_DATA") || everythingRequired(); }

/// Records that the running test case is skipped for `reason`. The test main (support/main.cpp)
/// prints every skipped case and the count at the end of the run; see there for the exit code.
void recordSkip(const char* reason);

/// For a test case that runs on generated inputs and adds the shared recordings when they are
/// there: call where it would add them and the data is missing. The case is recorded as (partly)
/// skipped, so the run reports it, and it fails when testDataRequired().
inline void recordMissingData(const std::string& what) {
  if (testDataRequired()) {
    FAIL_CHECK("no test data for " << what << " (RETARGET_TEST_DATA unset and ../shared/data missing) but "
               "RETARGET_REQUIRE_DATA or RETARGET_REQUIRE_ALL is set");
  }
  recordSkip("no test data (partly skipped)");
  MESSAGE("skipped: " << what << " (no ../shared/data)");
}

/// Exit code of a test binary whose every selected test case was skipped (and none failed);
/// ctest maps it to "Skipped" (SKIP_RETURN_CODE, tests/CMakeLists.txt).
/// The files of `dir` whose extension is `extension` (".bvh"; empty: every file), sorted.
inline std::vector<std::filesystem::path> filesIn(const std::filesystem::path& dir, const std::string& extension) {
  std::vector<std::filesystem::path> out;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (extension.empty() || entry.path().extension().string() == extension) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline constexpr int kAllSkippedExitCode = 77;

/// Test cases recorded as skipped so far in this run.
int skippedTestCaseCount();

}  // namespace retarget::test

/// Use at the top of a test that needs ../shared/data: binds `data_dir`; when the data is
/// missing the test case is recorded as skipped (counted and listed at the end of the run), or
/// fails when RETARGET_REQUIRE_DATA is set (testDataRequired()).
#define RETARGET_REQUIRE_TEST_DATA(data_dir)                                                              \
  const auto data_dir##_optional = ::retarget::test::testDataDir();                                       \
  if (!data_dir##_optional) {                                                                             \
    if (::retarget::test::testDataRequired()) {                                                           \
      FAIL("no test data (RETARGET_TEST_DATA unset and ../shared/data missing) but RETARGET_REQUIRE_DATA " \
           "or RETARGET_REQUIRE_ALL is set");                                                             \
    }                                                                                                     \
    ::retarget::test::recordSkip("no test data");                                                         \
    MESSAGE("skipped: no test data (set RETARGET_TEST_DATA or place ../shared/data)");                    \
    return;                                                                                               \
  }                                                                                                       \
  const std::filesystem::path& data_dir = *data_dir##_optional
