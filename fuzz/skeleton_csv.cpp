// libFuzzer target: the skeleton CSV reader (retarget/io/skeleton_csv.hpp). What it accepts
// must write back and read back to the same motion (the writer's exactness promise), and map
// through GA-LVVJ (NAO) to finite angles within limits; what it refuses must be a ParseError
// naming the file and line.
#include <sstream>

#include <retarget/io/skeleton_csv.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  const std::string file = "fuzz.csv";
  fuzz::expectRetargetErrorsOnly(file, [&] {
    std::istringstream in{std::string(fuzz::asText(data, size))};
    const SkeletonMotion<double> motion = readSkeletonCsv(in, file);
    std::ostringstream out;
    writeSkeletonCsv(motion, out);
    std::istringstream back_in(out.str());
    const SkeletonMotion<double> back = readSkeletonCsv(back_in, "rewritten.csv");
    if (back.size() != motion.size() || back.extra_joint_names != motion.extra_joint_names) {
      fuzz::fail("skeleton CSV write -> read changed the frame count or the extra joints", out.str().substr(0, 300));
    }
    for (std::size_t f = 0; f < motion.size(); ++f) {
      const auto& a = motion.frames[f];
      const auto& b = back.frames[f];
      bool same = a.time == b.time && a.state == b.state && a.left_hand == b.left_hand && a.right_hand == b.right_hand;
      for (std::size_t j = 0; j < a.p_W.size(); ++j) {
        same = same && (a.state[j] == TrackingState::kNotTracked || a.p_W[j] == b.p_W[j]);
      }
      if (!same) fuzz::fail("skeleton CSV write -> read changed a frame", "frame " + std::to_string(f));
    }
    fuzz::checkGaLvvj(motion);
  });
  return 0;
}
