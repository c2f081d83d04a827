// `retarget map --method humanoid`: any humanoid the automatic binding understands
// (robots/humanoid_binding.hpp), mapped by the bounded least-squares link-direction mapper
// (mappers/humanoid.hpp). `--robot-schema FILE` pins the binding.
#include <iostream>
#include <memory>
#include <string>

#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/mapper.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "motion_loading.hpp"
#include "robot_binding.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runHumanoid(const MapRequest& request) {
  if (!request.config_path.empty()) {
    throw UsageError("map --method humanoid: --config is not read by this method (its options are the library's "
                     "defaults; pin the binding with --robot-schema)");
  }
  const RobotModel<double> model = loadRobot(request.robot);
  const HumanoidBinding binding = bindRobot(model, request.robot_schema);
  std::unique_ptr<HumanoidMapper<double>> mapper;
  try {
    mapper = std::make_unique<HumanoidMapper<double>>(model, binding);
  } catch (const InvalidArgument& e) {
    throw UsageError("map --method humanoid: robot '" + model.name() + "' does not bind as a humanoid (" + e.what() +
                     "; see `retarget info --robot " + request.robot + "`)");
  }
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  MappedMotion<double> mapped = mapMotion(*mapper, motion);
  const int jumps = mapped.frames(StatusCode::kDiscontinuity);
  std::cerr << "retarget: humanoid: " << model.name() << " bound automatically (" << binding.points.size()
            << " virtual-skeleton points" << (request.robot_schema.empty() ? "" : ", pinned by " + request.robot_schema)
            << "); frames solved beyond the trust region: " << mapped.frames(StatusCode::kNotConverged)
            << ", jumps to a better solution: " << jumps << "\n";
  finishMap(request, model, mapped, "humanoid (" + model.name() + ", automatic binding)");
}

const bool kMapHumanoidRegistered = registerMapMethod(MapMethod{
    "humanoid",
    "link directions by bounded least squares on any URDF humanoid, bound automatically (G1, H1, NAO, Pepper, ...)",
    runHumanoid});

}  // namespace
}  // namespace retarget::cli
