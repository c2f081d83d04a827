// `retarget map <motion> --robot nao --method ga-lvvj [--config options.json] -o angles.csv`:
// GA-LVVJ whole-body mapping (seed 000, Section 3.2) of any supported motion onto a robot with
// a built-in GA-LVVJ map (NAO: whole body; Pepper: arms and head).
//
// --config takes a JSON object of GaLvvjOptions (see retarget/json/ga_lvvj.hpp).
#include <iostream>
#include <string>

#include <retarget/json/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runGaLvvj(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<GaLvvjMap> map = gaLvvjMapFor(model);
  if (!map) {
    throw UsageError("map --method ga-lvvj: no GA-LVVJ map fits robot '" + model.name() +
                     "' (built-in maps: NAO whole body, Pepper arms and head)");
  }
  const GaLvvjOptions options =
      request.config_path.empty() ? GaLvvjOptions{} : loadJson<GaLvvjOptions>(request.config_path);
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  GaLvvjMapper<double> mapper(model, *map, options);
  MappedMotion<double> mapped = mapMotion(mapper, motion);
  finishMap(request, model, mapped, "ga-lvvj (" + map->robot + ")");
}

const bool kRegistered = registerMapMethod(MapMethod{
    "ga-lvvj",
    "GA-LVVJ analytic whole-body mapping (seed 000; any motion; NAO whole body, Pepper arms and head)",
    runGaLvvj});

}  // namespace
}  // namespace retarget::cli
