// `retarget map <motion> --robot nao --method ga-lvvj [--config options.json] -o angles.csv`:
// GA-LVVJ whole-body mapping (seed 000, Section 3.2) of any supported motion onto a robot with
// a built-in GA-LVVJ map (NAO: whole body; Pepper: arms and head).
//
// --config takes a JSON object of GaLvvjOptions (see retarget/json/ga_lvvj.hpp).
//
// --whole-body [--no-balance] [--events e.jsonl] [--config whole_body.json]: the whole-body
// pipeline of seed 000 after GA-LVVJ on a biped with NAO's sole frames (map_whole_body.hpp);
// --config is then a GaLvvjWholeBodyOptions object (retarget/app/whole_body_json.hpp), its
// "ga_lvvj" key the GA-LVVJ options. --trunk-lean: GaLvvjOptions::trunk_lean (on by default with
// --whole-body).
#include <string>

#include <retarget/app/methods.hpp>
#include <retarget/app/whole_body.hpp>
#include <retarget/app/whole_body_json.hpp>
#include <retarget/json/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "map_whole_body.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runGaLvvj(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  refuseUnlessApplies(request, model);
  const app::MethodSettings settings = mapSettings(request);
  const GaLvvjMap map = *gaLvvjMapFor(model);
  if (request.whole_body) {
    refuseStagesAfterWholeBody(request);
    app::GaLvvjWholeBodyOptions options = app::wholeBodyConfigFrom<app::GaLvvjWholeBodyOptions>(settings);
    if (request.no_balance) options.whole_body.balance_enabled = false;
    if (request.trunk_lean) options.ga_lvvj.trunk_lean = true;
    const auto pipeline = app::makeGaLvvjWholeBody(model, options);
    runWholeBody(request, model, *pipeline, "ga-lvvj whole body (" + map.robot + ")");
    return;
  }
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  GaLvvjMapper<double> mapper(model, map, app::gaLvvjOptionsFrom(settings));
  MappedMotion<double> mapped = mapMotion(mapper, motion);
  finishMap(request, model, mapped, "ga-lvvj (" + map.robot + ")");
}

const bool kMapGaLvvjRegistered = registerMapMethod(MapMethod{"ga-lvvj", runGaLvvj});

}  // namespace
}  // namespace retarget::cli
