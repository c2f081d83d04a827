// `retarget map <file.bvh> --robot inmoov --method euler [--config my.json] -o angles.csv`:
// the Euler/BVH mapper of paper 002 (Section 4.2). Without --config the built-in InMoov map
// of the detected skeleton (Axis Neuron, CMU, Mixamo) is used, or, for any other humanoid rig,
// one built from its automatic rig binding.
#include <iostream>
#include <string>

#include <retarget/app/methods.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/json/euler_map.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runEuler(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  refuseUnlessApplies(request, model);
  const BvhMotion motion = readBvh(request.motion_path);
  // A built-in rig (Axis Neuron, CMU, Mixamo) takes its built-in map; any other humanoid rig
  // is bound automatically (human/rig_binding.hpp) and the map built from its rest pose.
  const EulerMap map = app::eulerMapFor(model, mapSettings(request), motion);
  EulerMapper<double> mapper(model, motion, map);
  MappedMotion<double> mapped = mapMotion(mapper, motion);
  finishMap(request, model, mapped, "euler (" + map.name + ")");
}

const bool kMapEulerRegistered = registerMapMethod(MapMethod{"euler", runEuler});

}  // namespace
}  // namespace retarget::cli
