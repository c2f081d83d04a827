// The allocation counter (support/allocation.hpp) sees the allocations it used to miss: Eigen's
// conservativeResize (Eigen 3.4 reallocates with std::realloc and runs no heap check on that
// path), C malloc / calloc / realloc, and the nothrow forms of operator new, each inside a
// NoAllocationScope, each counted once. Remove the counting of any of them and its check fails.
//
// The exception: the C heap is counted with glibc (malloc / calloc / realloc defined by the test
// binaries) and under AddressSanitizer (its allocator hook), not elsewhere; on such a platform
// the C-heap checks are left out and say so, and with glibc they are required.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include <Eigen/Core>

#include "support/allocation.hpp"

using retarget::test::cAllocationCounting;
using retarget::test::NoAllocationScope;

namespace {

// Called through volatile pointers: the compiler cannot see which function runs, so it cannot
// drop a malloc / free pair whose block is never used (GCC and Clang both may, for the direct call).
void* (*volatile g_malloc)(std::size_t) = &std::malloc;
void* (*volatile g_calloc)(std::size_t, std::size_t) = &std::calloc;
void* (*volatile g_realloc)(void*, std::size_t) = &std::realloc;
void (*volatile g_free)(void*) = &std::free;

// Allocations of one kind seen by a scope: every source, and per source.
struct Seen {
  std::size_t all = 0, operator_new = 0, c_heap = 0, eigen = 0;
};

template <typename F>
Seen countIn(F&& allocate) {
  Seen seen;
  NoAllocationScope scope;
  allocate();
  seen.all = scope.allocations();
  seen.operator_new = scope.operatorNews();
  seen.c_heap = scope.cAllocations();
  seen.eigen = scope.eigenAllocations();
  return seen;
}

bool cHeapCounted() {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
#if !defined(__has_feature)
  CHECK(cAllocationCounting());  // glibc without AddressSanitizer (GCC): always counted
#elif !__has_feature(address_sanitizer)
  CHECK(cAllocationCounting());  // glibc without AddressSanitizer (Clang): always counted
#endif
#endif
  if (!cAllocationCounting()) MESSAGE("the C heap is not counted on this platform: C-heap checks left out");
  return cAllocationCounting();
}

}  // namespace

TEST_CASE("allocation counter: C malloc, calloc and realloc inside a NoAllocationScope") {
  if (!cHeapCounted()) return;
  void* block = nullptr;
  const Seen m = countIn([&] { block = g_malloc(64); });
  REQUIRE(block != nullptr);
  const Seen r = countIn([&] { block = g_realloc(block, 4096); });
  REQUIRE(block != nullptr);
  g_free(block);
  const Seen c = countIn([&] { block = g_calloc(16, 8); });
  REQUIRE(block != nullptr);
  g_free(block);
  for (const Seen& s : {m, r, c}) {
    CHECK(s.c_heap == 1);
    CHECK(s.all == 1);
    CHECK(s.operator_new == 0);
    CHECK(s.eigen == 0);
  }
  // free is not an allocation.
  block = g_malloc(32);
  const Seen f = countIn([&] { g_free(block); });
  CHECK(f.all == 0);
}

TEST_CASE("allocation counter: Eigen's conservativeResize (realloc, no Eigen heap check) is counted") {
  if (!cHeapCounted()) return;
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(8, 0.0, 7.0);
  const Seen s = countIn([&] { v.conservativeResize(4096); });
  MESSAGE("conservativeResize 8 -> 4096: " << s.c_heap << " C heap, " << s.eigen << " through Eigen's check, "
                                            << s.operator_new << " operator new");
  CHECK(s.c_heap == 1);
  CHECK(s.all == 1);
  CHECK(s.operator_new == 0);
  CHECK(v.size() == 4096);
  CHECK(v.head(8) == Eigen::VectorXd::LinSpaced(8, 0.0, 7.0));  // the block kept its contents
  // An Eigen allocation that does pass Eigen's check is still counted once, not twice.
  Eigen::VectorXd w;
  const Seen e = countIn([&] { w = Eigen::VectorXd::Zero(64); });
  CHECK(e.eigen == 1);
  CHECK(e.c_heap == 1);
  CHECK(e.all == 1);
}

TEST_CASE("allocation counter: every form of operator new, the nothrow ones included, counted once") {
  const std::align_val_t wide{64};
  void* p = nullptr;
  const Seen plain = countIn([&] { p = ::operator new(48); });
  ::operator delete(p);
  const Seen array = countIn([&] { p = ::operator new[](48); });
  ::operator delete[](p);
  const Seen aligned = countIn([&] { p = ::operator new(48, wide); });
  CHECK(reinterpret_cast<std::uintptr_t>(p) % 64 == 0);
  ::operator delete(p, wide);
  const Seen aligned_array = countIn([&] { p = ::operator new[](48, wide); });
  ::operator delete[](p, wide);
  const Seen nothrow = countIn([&] { p = ::operator new(48, std::nothrow); });
  REQUIRE(p != nullptr);
  ::operator delete(p, std::nothrow);
  const Seen nothrow_array = countIn([&] { p = ::operator new[](48, std::nothrow); });
  REQUIRE(p != nullptr);
  ::operator delete[](p, std::nothrow);
  const Seen nothrow_aligned = countIn([&] { p = ::operator new(48, wide, std::nothrow); });
  REQUIRE(p != nullptr);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % 64 == 0);
  ::operator delete(p, wide, std::nothrow);
  const Seen nothrow_aligned_array = countIn([&] { p = ::operator new[](48, wide, std::nothrow); });
  REQUIRE(p != nullptr);
  ::operator delete[](p, wide, std::nothrow);
  int form = 0;
  for (const Seen& s :
       {plain, array, aligned, aligned_array, nothrow, nothrow_array, nothrow_aligned, nothrow_aligned_array}) {
    CAPTURE(form);
    CHECK(s.operator_new == 1);
    CHECK(s.all == 1);     // once: operator new's own block is not counted again as C heap
    CHECK(s.c_heap == 0);
    CHECK(s.eigen == 0);
    ++form;
  }
}
