#pragma once

#include <cstddef>

namespace retarget::test {

/// C heap allocations (malloc / calloc / realloc calls) of the process so far (glibc).
std::size_t cAllocationCount();

}  // namespace retarget::test
