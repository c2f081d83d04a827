// libFuzzer target: the NTU RGB+D .skeleton reader (retarget/io/ntu_skeleton.hpp). What it
// accepts must map through GA-LVVJ (NAO) to finite angles within limits; what it refuses must be
// a ParseError naming the file and line.
#include <sstream>

#include <retarget/io/ntu_skeleton.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  const std::string file = "fuzz.skeleton";
  fuzz::expectRetargetErrorsOnly(file, [&] {
    std::istringstream in{std::string(fuzz::asText(data, size))};
    NtuBodySummary summary;
    const SkeletonMotion<double> motion = readNtuSkeleton(in, file, 30.0, &summary);
    fuzz::checkGaLvvj(motion);
  });
  return 0;
}
