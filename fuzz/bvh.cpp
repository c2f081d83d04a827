// libFuzzer target: the BVH reader (retarget/io/bvh.hpp, parseBvh). What it accepts must
// round-trip through the writer and map through GA-LVVJ (NAO) and the Euler mapper (InMoov) to
// finite angles within limits; what it refuses must be a ParseError naming the file and line.
#include <sstream>

#include <retarget/io/bvh.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  const std::string file = "fuzz.bvh";
  fuzz::expectRetargetErrorsOnly(file, [&] {
    const BvhMotion motion = parseBvh(fuzz::asText(data, size), file);
    // The writer accepts everything the reader does, and reads back to the same values.
    std::ostringstream out;
    writeBvh(motion, out);
    const BvhMotion again = parseBvh(out.str(), "rewritten.bvh");
    if (again.values != motion.values || again.joints.size() != motion.joints.size()) {
      fuzz::fail("BVH write -> read changed the motion", out.str().substr(0, 200));
    }
    fuzz::checkBvh(motion);
  });
  return 0;
}
