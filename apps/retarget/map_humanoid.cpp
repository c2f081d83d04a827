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
  const RobotModel<double> model = loadRobot(request.robot);
  const std::unique_ptr<HumanoidMapper<double>> mapper =
      makeHumanoidMapper(model, request.robot_schema, request.config_path, "map --method humanoid", request.robot);
  const HumanoidBinding& binding = mapper->binding();
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
