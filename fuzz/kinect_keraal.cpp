// libFuzzer target: the Kinect v2 Keraal TXT reader (retarget/io/kinect.hpp). What it accepts
// must map through GA-LVVJ (NAO) to finite angles within limits; what it refuses must be a
// ParseError naming the file and line.
#include <sstream>

#include <retarget/io/kinect.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  const std::string file = "fuzz.txt";
  fuzz::expectRetargetErrorsOnly(file, [&] {
    std::istringstream in{std::string(fuzz::asText(data, size))};
    const SkeletonMotion<double> motion = readKinectKeraalTxt(in, file);
    fuzz::checkGaLvvj(motion);
  });
  return 0;
}
