#pragma once

// Detects heap allocation in per-frame code. Three sources are counted (support/
// allocation_counter.cpp):
//  - operator new: every replaceable global form (plain, array, aligned, nothrow and their
//    combinations): std containers, strings, exceptions;
//  - the C heap: every malloc, calloc and realloc call of the process, whoever makes it: Eigen
//    (which allocates with malloc and, in conservativeResize, with realloc: Eigen 3.4's realloc
//    path runs no heap check), and C libraries such as NLopt. With glibc the test binaries define
//    malloc / calloc / realloc and forward to glibc's own __libc_malloc / __libc_calloc /
//    __libc_realloc. Under AddressSanitizer, which owns malloc (a definition here would hand it
//    blocks from a heap it does not know, and its free would report them), the C heap is not
//    counted by default: its allocator hook (__sanitizer_install_malloc_and_free_hooks, compiled in
//    with -DRETARGET_TEST_COUNT_ASAN_C_HEAP) sees blocks the glibc count does not. Elsewhere the C
//    heap is not counted either (cAllocationCounting() is false);
//  - Eigen's own heap check (EIGEN_RUNTIME_NO_MALLOC, counted by support/eigen_check.hpp
//    independently of NDEBUG) while a NoAllocationScope is alive: it names Eigen as the allocator.
//    Where the C heap is counted, the same allocation is also a malloc, so allocationCount() leaves
//    the Eigen count out (no allocation is counted twice); where it is not, the Eigen count stands
//    in for it.
// Operator new takes its memory from the C heap, but is counted once, as operator new.

#include <cstddef>

#include <Eigen/Core>

namespace retarget::test {

/// Global operator new calls so far in this process (every form).
std::size_t operatorNewCount();

/// C heap allocations (malloc / calloc / realloc calls; under AddressSanitizer every block its
/// allocator hands out) so far in this process, operator new's own excluded; 0 when
/// !cAllocationCounting().
std::size_t cAllocationCount();

/// True where the C heap is counted: glibc, with or without AddressSanitizer.
bool cAllocationCounting();

/// Eigen heap allocations made while forbidden (inside a NoAllocationScope), from Eigen's own
/// check: it sees aligned_malloc, not conservativeResize's realloc.
std::size_t eigenHeapCheckCount();

/// Heap allocations so far in this process: operatorNewCount() + cAllocationCount(), plus
/// eigenHeapCheckCount() where the C heap is not counted.
std::size_t allocationCount();

/// While alive, Eigen's heap allocations are forbidden (and counted); `allocations()` counts every
/// heap allocation made since construction (allocationCount()), the other members one source each.
class NoAllocationScope {
 public:
  NoAllocationScope()
      : start_(allocationCount()),
        start_new_(operatorNewCount()),
        start_c_(cAllocationCount()),
        start_eigen_(eigenHeapCheckCount()) {
    Eigen::internal::set_is_malloc_allowed(false);
  }
  ~NoAllocationScope() { Eigen::internal::set_is_malloc_allowed(true); }
  NoAllocationScope(const NoAllocationScope&) = delete;
  NoAllocationScope& operator=(const NoAllocationScope&) = delete;
  /// Every heap allocation since construction.
  std::size_t allocations() const { return allocationCount() - start_; }
  /// Operator new calls since construction.
  std::size_t operatorNews() const { return operatorNewCount() - start_new_; }
  /// C heap allocations since construction (0 when !cAllocationCounting()).
  std::size_t cAllocations() const { return cAllocationCount() - start_c_; }
  /// Eigen heap allocations Eigen's own check reported since construction.
  std::size_t eigenAllocations() const { return eigenHeapCheckCount() - start_eigen_; }

 private:
  std::size_t start_, start_new_, start_c_, start_eigen_;
};

}  // namespace retarget::test
