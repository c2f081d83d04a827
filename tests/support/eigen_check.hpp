#pragma once

// Force-included (`-include`, see tests/CMakeLists.txt) before any other header of every test
// translation unit. Eigen's assertions go through eigenAssertFailed(), so that:
//  - its heap check (EIGEN_RUNTIME_NO_MALLOC, active inside a NoAllocationScope) is COUNTED,
//    not fatal, and counted whether or not NDEBUG is defined: the no-allocation checks hold in
//    every build type, and a test can show that an allocating mapper is caught;
//  - any other failed Eigen assertion aborts with the expression, file and line, in a build
//    without NDEBUG. With NDEBUG (the test preset: the code as users ship it) the other
//    assertions are compiled out as Eigen does, so that the checked code runs at its real speed;
//    which assertion is the heap check is decided at compile time from its text.

#include <cstddef>
#include <type_traits>

namespace retarget::test {
/// Called by eigen_assert when its condition is false (see the file comment).
void eigenAssertFailed(const char* expression, const char* file, int line);
/// Failed heap checks counted by eigenAssertFailed since the program started.
std::size_t eigenHeapCheckCount();
}  // namespace retarget::test

namespace retarget::test {
/// True when an assertion's text is Eigen's heap check (Eigen/src/Core/util/Memory.h:
/// "heap allocation is forbidden ..."); evaluated at compile time.
constexpr bool isEigenHeapCheck(const char* text) {
  constexpr char kMarker[] = "heap allocation is forbidden";
  for (const char* start = text; *start != '\0'; ++start) {
    std::size_t i = 0;
    while (kMarker[i] != '\0' && start[i] == kMarker[i]) ++i;
    if (kMarker[i] == '\0') return true;
  }
  return false;
}
}  // namespace retarget::test

#ifdef NDEBUG
// Only the heap check is evaluated; any other assertion's condition is never run.
#define eigen_assert(x)                                                                         \
  ((!std::integral_constant<bool, ::retarget::test::isEigenHeapCheck(#x)>::value || (x))        \
       ? static_cast<void>(0)                                                                    \
       : ::retarget::test::eigenAssertFailed(#x, __FILE__, __LINE__))
#else
#define eigen_assert(x) \
  ((x) ? static_cast<void>(0) : ::retarget::test::eigenAssertFailed(#x, __FILE__, __LINE__))
#endif
