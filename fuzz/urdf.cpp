// libFuzzer target: the URDF reader (retarget/io/urdf.hpp, tinyxml2). What it accepts must be a
// consistent robot model: lower <= upper limits on every coordinate, the neutral configuration
// within them, and finite forward kinematics there; what it refuses must be a ParseError naming
// the file (and the line, element and value).
#include <cmath>

#include <retarget/io/urdf.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  const std::string file = "fuzz.urdf";
  fuzz::expectRetargetErrorsOnly(file, [&] {
    const UrdfResult<double> result = parseUrdf<double>(std::string(fuzz::asText(data, size)), file);
    const RobotModel<double>& model = result.model;
    for (int i = 0; i < model.nq(); ++i) {
      if (!(model.lowerLimits()[i] <= model.upperLimits()[i])) fuzz::fail("URDF limits lower > upper", model.qName(i));
    }
    const Eigen::VectorXd q = model.neutralConfiguration();
    if (!withinLimits(model, q)) fuzz::fail("URDF neutral configuration outside the limits", model.name());
    RobotData<double> robot_data(model);
    forwardKinematics(model, robot_data, q);
    for (const auto& X : robot_data.X_WL) {
      if (!X.matrix().allFinite()) fuzz::fail("URDF forward kinematics not finite", model.name());
    }
  });
  return 0;
}
