// Counts C heap allocations (malloc, calloc, realloc) of the whole process, NLopt's included:
// the safety tests measure the allocation exception of the NLopt-based avoidance with it.
// glibc only: the definitions interpose libc's and forward to __libc_malloc and friends.
#include <cstddef>

#include "safety/malloc_counter.hpp"

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RETARGET_TEST_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define RETARGET_TEST_ASAN 1
#endif

#if defined(RETARGET_TEST_ASAN)
// AddressSanitizer owns malloc: no interposition here, and no count (the test preset counts).
std::size_t retarget::test::cAllocationCount() { return 0; }
bool retarget::test::cAllocationCounting() { return false; }
#else
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);

static std::size_t retarget_c_allocations = 0;

void* malloc(std::size_t size) {
  ++retarget_c_allocations;
  return __libc_malloc(size);
}
void* calloc(std::size_t n, std::size_t size) {
  ++retarget_c_allocations;
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t size) {
  ++retarget_c_allocations;
  return __libc_realloc(p, size);
}
}

std::size_t retarget::test::cAllocationCount() { return retarget_c_allocations; }
bool retarget::test::cAllocationCounting() { return true; }
#endif
