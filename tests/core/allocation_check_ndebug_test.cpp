// The no-allocation check holds without assertions: this translation unit is compiled with
// NDEBUG defined (as a Release build would), yet Eigen's heap check still counts (support/
// eigen_check.hpp is force-included before any header and replaces eigen_assert), and the
// counting operator new counts. If eigen_assert fell back to assert(), the Eigen count below
// would be 0 and this test would fail.
#ifndef NDEBUG
#define NDEBUG 1
#endif
#include <doctest/doctest.h>

#include <vector>

#include <Eigen/Core>

#include "support/allocation.hpp"

TEST_CASE("allocation check: Eigen heap allocations and operator new are counted with NDEBUG defined") {
#ifndef NDEBUG
  FAIL("NDEBUG must be defined in this translation unit");
#endif
  Eigen::Index n = 64;
  std::size_t eigen_allocations = 0, new_allocations = 0, none = 0;
  {
    retarget::test::NoAllocationScope scope;
    Eigen::VectorXd v = Eigen::VectorXd::Zero(n);  // Eigen: aligned_malloc -> heap check
    eigen_allocations = scope.allocations();
    v[0] = 1;
    CHECK(v.sum() == 1.0);
  }
  {
    retarget::test::NoAllocationScope scope;
    std::vector<int> w(static_cast<std::size_t>(n), 1);  // operator new
    new_allocations = scope.allocations();
    CHECK(w.size() == static_cast<std::size_t>(n));
  }
  {
    retarget::test::NoAllocationScope scope;
    Eigen::Matrix<double, 8, 1> fixed = Eigen::Matrix<double, 8, 1>::Ones();  // no heap
    CHECK(fixed.sum() == 8.0);
    none = scope.allocations();
  }
  CHECK(eigen_allocations >= 1);
  CHECK(new_allocations == 1);
  CHECK(none == 0);
}
