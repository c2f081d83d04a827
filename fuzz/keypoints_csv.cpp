// libFuzzer target: the keypoint CSV reader (retarget/io/keypoints_csv.hpp) with the schema its
// header names (MediaPipe Pose or OpenPose BODY_25; MediaPipe when it names neither). What it
// accepts must map through GA-LVVJ (NAO) to finite angles within limits; what it refuses must be
// a ParseError naming the file and line.
#include <sstream>

#include <retarget/io/keypoints_csv.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  const std::string file = "fuzz.csv";
  const std::string_view text = fuzz::asText(data, size);
  const KeypointSchema* schema = detectKeypointSchema(text.substr(0, text.find('\n')));
  if (schema == nullptr) schema = &mediaPipePoseSchema();
  fuzz::expectRetargetErrorsOnly(file, [&] {
    std::istringstream in{std::string(text)};
    const SkeletonMotion<double> motion = readKeypointCsv(in, *schema, file);
    fuzz::checkGaLvvj(motion);
  });
  return 0;
}
