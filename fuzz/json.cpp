// libFuzzer target: the JSON configuration readers (retarget/json/, nlohmann-json). The first
// byte picks the type read from the rest: GaLvvjOptions, GaLvvjMap, EulerMap, and the four
// filter options. What a reader accepts must write back and read back to the same JSON, and
// drive its consumer (GA-LVVJ on NAO: finite angles within limits; a filter: finite output);
// what it refuses must be a ParseError naming the file (line and JSON pointer).
#include <cmath>

#include <Eigen/Core>
#include <retarget/filters/consecutive_frames.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/json/json.hpp>

#include "support/fuzz_support.hpp"

namespace {

using namespace retarget;
const std::string kFile = "fuzz.json";

// Reads T, checks JSON -> T -> JSON -> T is stable, and returns T.
template <typename T>
T readStable(const std::string& text) {
  const T value = parseJson<T>(text, kFile);
  const std::string once = toJson(value).dump();
  const std::string twice = toJson(parseJson<T>(once, "rewritten.json")).dump();
  if (once != twice) fuzz::fail("JSON write -> read -> write is not stable", once + " vs " + twice);
  return value;
}

// A filter built from accepted options gives finite output on finite input.
// `Step` is the filter's second update() argument for frame k (a time step or a time), if any.
template <typename Filter, typename Options, typename... Step>
void checkFilter(const Options& options, Step... step) {
  Filter filter(3, options);
  for (int k = 0; k < 5; ++k) {
    const Eigen::Vector3d x(0.1 * k, -0.2 * k, 1.0);
    (void)filter.update(x, step(k)...);
    if (!filter.value().allFinite()) fuzz::fail("filter output is not finite", kFile);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(fuzz::asText(data + 1, size - 1));
  fuzz::expectRetargetErrorsOnly(kFile, [&] {
    switch (data[0] % 7) {
      case 0: {
        const GaLvvjOptions options = readStable<GaLvvjOptions>(text);
        fuzz::checkGaLvvjConfig(nullptr, &options);
        break;
      }
      case 1: {
        const GaLvvjMap map = readStable<GaLvvjMap>(text);
        fuzz::checkGaLvvjConfig(&map, nullptr);
        break;
      }
      case 2:
        readStable<EulerMap>(text);
        break;
      case 3:
        checkFilter<ExponentialSmoothing<double>>(readStable<ExponentialSmoothingOptions>(text));
        break;
      case 4:
        checkFilter<RateLimiter<double>>(readStable<RateLimiterOptions>(text), [](int) { return 0.01; });
        break;
      case 5:
        checkFilter<OneEuroFilter<double>>(readStable<OneEuroFilterOptions>(text), [](int k) { return 0.01 * k; });
        break;
      default: {
        ConsecutiveFramesDetector detector(readStable<ConsecutiveFramesOptions>(text));
        for (int k = 0; k < 4; ++k) (void)detector.update(true);
        break;
      }
    }
  });
  return 0;
}
