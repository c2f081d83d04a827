#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>

#include "support/test_support.hpp"

// Skipped test cases. A test case that needs data it cannot find calls recordSkip() (through
// RETARGET_REQUIRE_TEST_DATA) and returns; doctest itself would count it as passed. The rule:
//  - every run that skipped something ends with the line
//      "retarget: N of M test cases skipped: <reason> (...)"
//    followed by the skipped cases' names, whatever the outcome;
//  - a failure anywhere: doctest's failing exit code (skips do not hide failures);
//  - no failure and EVERY selected test case skipped: exit kAllSkippedExitCode (77), which
//    ctest reports as "Skipped" for the area;
//  - no failure, some cases ran and some were skipped: exit 0 (the area passed: what ran
//    passed), and when $RETARGET_SKIP_REPORT_DIR is set (ctest sets it) the skips are written to
//    <dir>/<binary>.txt; ctest's last test, "skipped-test-cases", lists them and is itself
//    reported "Skipped" when there are any, so the ctest summary always shows skips.
// With RETARGET_REQUIRE_DATA set, RETARGET_REQUIRE_TEST_DATA fails instead of skipping; with
// RETARGET_REQUIRE_ALL set (the check presets), any recorded skip makes the run fail.

namespace {
double g_sweep_scale = 1.0;

std::mutex g_mutex;
std::string g_current_test;
std::map<std::string, std::string> g_skipped;  // test case name -> reason
unsigned g_selected = 0;

// Tracks the running test case's name and the number of selected test cases.
struct SkipListener : doctest::IReporter {
  explicit SkipListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& stats) override { g_selected = stats.numTestCasesPassingFilters; }
  void test_case_start(const doctest::TestCaseData& data) override {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_current_test = data.m_name;
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("retarget_skips", 1, SkipListener);
}  // namespace

double retarget::test::sweepScale() { return g_sweep_scale; }

void retarget::test::recordSkip(const char* reason) {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_skipped[g_current_test] = reason;
}

int retarget::test::skippedTestCaseCount() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return static_cast<int>(g_skipped.size());
}

int main(int argc, char** argv) {
  // Our own option; doctest ignores options it does not know.
  for (int i = 1; i < argc; ++i) {
    constexpr const char* kPrefix = "--sweep-scale=";
    if (std::strncmp(argv[i], kPrefix, std::strlen(kPrefix)) == 0) {
      g_sweep_scale = std::atof(argv[i] + std::strlen(kPrefix));
    }
  }
  doctest::Context context;
  context.applyCommandLine(argc, argv);
  const int result = context.run();
  if (context.shouldExit() || g_skipped.empty()) return result;

  const std::string binary = std::filesystem::path(argv[0]).filename().string();
  std::map<std::string, int> reasons;
  for (const auto& [name, reason] : g_skipped) ++reasons[reason];
  std::string summary;
  for (const auto& [reason, count] : reasons) {
    summary += (summary.empty() ? "" : "; ") + std::to_string(count) + " " + reason;
  }
  std::string line = "retarget: " + std::to_string(g_skipped.size()) + " of " + std::to_string(g_selected) +
                     " test cases skipped (" + summary + "; RETARGET_REQUIRE_ALL=1 makes this a failure)";
  std::printf("%s\n", line.c_str());
  for (const auto& [name, reason] : g_skipped) std::printf("  skipped: %s (%s)\n", name.c_str(), reason.c_str());
  std::fflush(stdout);
  if (const char* dir = std::getenv("RETARGET_SKIP_REPORT_DIR")) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::ofstream out(std::filesystem::path(dir) / (binary + ".txt"));
    out << binary << ": " << g_skipped.size() << " of " << g_selected << " test cases skipped (" << summary << ")\n";
    for (const auto& [name, reason] : g_skipped) out << "  " << name << " (" << reason << ")\n";
  }
  if (result != 0) return result;
  if (retarget::test::everythingRequired()) {
    std::printf("retarget: RETARGET_REQUIRE_ALL is set, so the %zu skipped test cases above fail this run\n",
                g_skipped.size());
    return 1;
  }
  return g_skipped.size() >= g_selected ? retarget::test::kAllSkippedExitCode : 0;
}
