// The sink of Eigen's assertions in test builds (support/eigen_check.hpp): a failed heap check
// (EIGEN_RUNTIME_NO_MALLOC inside a NoAllocationScope) is counted, any other failed assertion
// aborts with the expression, file and line. Compiled into the compiled part in test builds
// (tests/CMakeLists.txt), so the library's code and the tests share one count.
#include "support/eigen_check.hpp"

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
std::atomic<std::size_t> g_eigen_heap{0};
}  // namespace

std::size_t retarget::test::eigenHeapCheckCount() { return g_eigen_heap.load(std::memory_order_relaxed); }

void retarget::test::eigenAssertFailed(const char* expression, const char* file, int line) {
  // Eigen's run-time heap check (EIGEN_RUNTIME_NO_MALLOC): one allocation while forbidden.
  if (std::strstr(expression, "heap allocation is forbidden") != nullptr) {
    g_eigen_heap.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  std::fprintf(stderr, "%s:%d: Eigen assertion failed: %s\n", file, line, expression);
  std::abort();
}
