// libFuzzer target: the MJCF reader (retarget/io/mjcf.hpp, tinyxml2). What it accepts must be a
// consistent robot model: lower <= upper limits on every coordinate, q_ref and the neutral
// configuration of the right size, finite forward kinematics at both, finite collision capsules;
// what it refuses must be a ParseError naming the file. The text comes without a folder, so an
// <include> is refused and no file is ever opened.
#include <cmath>

#include <retarget/io/mjcf.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  const std::string file = "fuzz.xml";
  fuzz::expectRetargetErrorsOnly(file, [&] {
    const MjcfResult<double> result = parseMjcf<double>(std::string(fuzz::asText(data, size)), file);
    const RobotModel<double>& model = result.model;
    for (int i = 0; i < model.nq(); ++i) {
      if (!(model.lowerLimits()[i] <= model.upperLimits()[i])) fuzz::fail("MJCF limits lower > upper", model.qName(i));
    }
    if (result.q_ref.size() != model.nq()) fuzz::fail("MJCF q_ref of the wrong size", model.name());
    if (!result.X_WB.matrix().allFinite()) fuzz::fail("MJCF floating-base pose not finite", model.name());
    RobotData<double> robot_data(model);
    for (const Eigen::VectorXd& q : {Eigen::VectorXd(model.neutralConfiguration()), Eigen::VectorXd(result.q_ref)}) {
      forwardKinematics(model, robot_data, q);
      for (const auto& X : robot_data.X_WL) {
        if (!X.matrix().allFinite()) fuzz::fail("MJCF forward kinematics not finite", model.name());
      }
    }
    for (const auto& link : model.links()) {
      for (const auto& shape : link.collisions) {
        if (!shape.capsule_L.a.allFinite() || !shape.capsule_L.b.allFinite() || !(shape.capsule_L.radius > 0)) {
          fuzz::fail("MJCF collision capsule not finite or not positive", shape.name);
        }
      }
    }
  });
  return 0;
}
