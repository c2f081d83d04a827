#pragma once

// Detects heap allocation in per-frame code: a counting global operator new (for std
// containers, strings, exceptions) and Eigen's EIGEN_RUNTIME_NO_MALLOC check (Eigen allocates
// with malloc, not operator new; the test binaries keep asserts on, so Eigen aborts the test).

#include <cstddef>

#include <Eigen/Core>

namespace retarget::test {

/// Number of global operator new calls so far in this process.
std::size_t allocationCount();

/// While alive, Eigen aborts on any heap allocation; `allocations()` counts operator new calls
/// made since construction.
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
