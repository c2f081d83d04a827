#pragma once

#include <cstddef>

namespace retarget::test {

/// C heap allocations (malloc / calloc / realloc calls) of the process so far (glibc).
std::size_t cAllocationCount();

/// False where the C heap cannot be counted (under AddressSanitizer, which owns malloc).
bool cAllocationCounting();

}  // namespace retarget::test
