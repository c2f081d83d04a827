// `retarget map <motion> --robot tangy --method triangle -o angles.csv`: the triangle arm
// mapping of seed 001 (Section 2.1) onto a robot with a built-in triangle map (Tangy, NAO and
// Pepper arms). Compose with --avoid-collisions, --max-joint-speed, --max-hand-speed.
#include <string>

#include <retarget/mappers/triangle.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runTriangle(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<TriangleMap> map = triangleMapFor(model);
  if (!map) {
    throw UsageError("map --method triangle: no triangle map fits robot '" + model.name() +
                     "' (built-in maps: Tangy, NAO arms, Pepper arms)");
  }
  if (!request.config_path.empty()) throw UsageError("map --method triangle: takes no --config file");
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  TriangleMapper<double> mapper(model, *map);
  MappedMotion<double> mapped = mapMotion(mapper, motion);
  finishMap(request, model, mapped, "triangle (" + map->robot + ")");
}

const bool kMapTriangleRegistered = registerMapMethod(MapMethod{
    "triangle", "Triangle arm mapping (seed 001; any motion; Tangy arms, NAO and Pepper arms)", runTriangle});

}  // namespace
}  // namespace retarget::cli
