#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>

#include "support/test_support.hpp"

namespace {
double g_sweep_scale = 1.0;
}

double retarget::test::sweepScale() { return g_sweep_scale; }

int main(int argc, char** argv) {
  // Our own option; doctest ignores options it does not know.
  for (int i = 1; i < argc; ++i) {
    constexpr const char* kPrefix = "--sweep-scale=";
    if (std::strncmp(argv[i], kPrefix, std::strlen(kPrefix)) == 0) {
      g_sweep_scale = std::atof(argv[i] + std::strlen(kPrefix));
    }
  }
  doctest::Context context;
  context.applyCommandLine(argc, argv);
  return context.run();
}
