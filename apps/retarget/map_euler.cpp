// `retarget map <file.bvh> --robot inmoov --method euler [--config my.json] -o angles.csv`:
// the Euler/BVH mapper of paper 002 (Section 4.2). Without --config the built-in InMoov map
// of the detected skeleton (Axis Neuron, CMU, Mixamo) is used, or, for any other humanoid rig,
// one built from its automatic rig binding.
#include <iostream>
#include <string>

#include <retarget/io/bvh.hpp>
#include <retarget/json/euler_map.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

// The configuration from --config, else the built-in one for the robot and the skeleton.
EulerMap chooseEulerMap(const std::string& config_path, const RobotModel<double>& model, const BvhMotion& motion) {
  if (!config_path.empty()) return loadEulerMap(config_path);
  if (model.name() != "inmoov") {
    throw UsageError("map --method euler: built-in configurations exist for the InMoov only (got robot '" +
                     model.name() + "'); pass --config <file.json>");
  }
  // A built-in rig (Axis Neuron, CMU, Mixamo) takes its built-in map; any other humanoid rig
  // is bound automatically (human/rig_binding.hpp) and the map built from its rest pose.
  return inmoovEulerMap(motion);
}

void runEuler(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const BvhMotion motion = readBvh(request.motion_path);
  const EulerMap map = chooseEulerMap(request.config_path, model, motion);
  EulerMapper<double> mapper(model, motion, map);
  MappedMotion<double> mapped = mapMotion(mapper, motion);
  finishMap(request, model, mapped, "euler (" + map.name + ")");
}

const bool kMapEulerRegistered = registerMapMethod(MapMethod{
    "euler", "Euler/BVH joint-angle mapping (paper 002; BVH input; built-in InMoov configs or --config JSON)",
    runEuler});

}  // namespace
}  // namespace retarget::cli
