#pragma once

// Detects heap allocation in per-frame code: a counting global operator new (for std
// containers, strings, exceptions) plus Eigen's EIGEN_RUNTIME_NO_MALLOC heap check (Eigen
// allocates with malloc, not operator new), which support/eigen_check.hpp turns into a count
// independent of NDEBUG. The library calls malloc nowhere else.

#include <cstddef>

#include <Eigen/Core>

namespace retarget::test {

/// Heap allocations so far in this process: global operator new calls plus Eigen heap
/// allocations made while forbidden (inside a NoAllocationScope).
std::size_t allocationCount();

/// While alive, Eigen's heap allocations are forbidden (and counted); `allocations()` counts
/// every operator new call and every such Eigen allocation made since construction.
class NoAllocationScope {
 public:
  NoAllocationScope() : start_(allocationCount()) { Eigen::internal::set_is_malloc_allowed(false); }
  ~NoAllocationScope() { Eigen::internal::set_is_malloc_allowed(true); }
  NoAllocationScope(const NoAllocationScope&) = delete;
  NoAllocationScope& operator=(const NoAllocationScope&) = delete;
  std::size_t allocations() const { return allocationCount() - start_; }

 private:
  std::size_t start_;
};

}  // namespace retarget::test
