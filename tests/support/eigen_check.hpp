#pragma once

// Force-included (`-include`, see tests/CMakeLists.txt) before any other header of every test
// translation unit. Eigen's assertions go through eigenAssertFailed(), so that:
//  - its heap check (EIGEN_RUNTIME_NO_MALLOC, active inside a NoAllocationScope) is COUNTED,
//    not fatal, and counted whether or not NDEBUG is defined: the no-allocation checks hold in
//    every build type, and a test can show that an allocating mapper is caught;
//  - any other failed Eigen assertion still aborts with the expression, file and line.

#include <cstddef>

namespace retarget::test {
/// Called by eigen_assert when its condition is false (see the file comment).
void eigenAssertFailed(const char* expression, const char* file, int line);
/// Failed heap checks counted by eigenAssertFailed since the program started.
std::size_t eigenHeapCheckCount();
}  // namespace retarget::test

#define eigen_assert(x) \
  ((x) ? static_cast<void>(0) : ::retarget::test::eigenAssertFailed(#x, __FILE__, __LINE__))
