// `retarget map --method humanoid`: any humanoid the automatic binding understands
// (robots/humanoid_binding.hpp), mapped by the bounded least-squares link-direction mapper
// (mappers/humanoid.hpp). `--robot-schema FILE` pins the binding. `--whole-body`: the whole-body
// pipeline after it, the robot standing on its soles (map_whole_body.hpp); --config is then a
// HumanoidWholeBodyOptions object (retarget/app/whole_body_json.hpp).
#include <array>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <retarget/app/whole_body.hpp>
#include <retarget/app/whole_body_json.hpp>
#include <retarget/io/floating_base_csv.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/mapper.hpp>

#include "batch_mapping.hpp"
#include "cli.hpp"
#include "map_output.hpp"
#include "map_whole_body.hpp"
#include "motion_loading.hpp"
#include "robot_binding.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

// --floating-base: batch_mapping's mapFloatingBase, written in the requested format.
void runFloatingBase(const MapRequest& request, const RobotModel<double>& model, const SkeletonMotion<double>& motion) {
  MethodSetup setup;
  setup.method = "humanoid";
  setup.config_path = request.config_path;
  setup.floating_base = true;
  setup.unitree = request.format == "unitree";
  setup.fps = request.fps;
  setup.scale = request.scale;
  const FloatingBaseFile f = mapFloatingBase(setup, model, request.robot_schema, motion, request.motion_path);
  writeFloatingBaseCsv(f.trajectory, request.output_path,
                       setup.unitree ? FloatingBaseFormat::kUnitree : FloatingBaseFormat::kCsv);
  const FloatingBaseTrajectory& t = f.trajectory;
  std::cerr << "retarget: humanoid --floating-base: " << model.name() << ", scale " << f.scale << ", human floor at z "
            << f.floor << " m; soles: " << f.soles[0].link << " (" << f.soles[0].source << "), " << f.soles[1].link
            << "; stance frames left " << t.contacts.col(0).sum() << ", right " << t.contacts.col(1).sum() << " of "
            << t.size() << "; frames held by a speed limit " << f.rate_limited
            << ", frames not solved to the contact tolerance " << f.not_converged << "; wrote " << request.output_path
            << " (" << (setup.unitree ? "unitree layout" : "csv") << ", " << t.size() << " frames)\n";
}

// --whole-body: the whole-body pipeline after the humanoid mapper, on the robot's soles.
void runHumanoidWholeBody(const MapRequest& request, const RobotModel<double>& model) {
  refuseStagesAfterWholeBody(request);
  const HumanoidBinding binding = bindRobot(model, request.robot_schema);
  app::HumanoidWholeBodyOptions options = request.config_path.empty()
                                              ? app::HumanoidWholeBodyOptions{}
                                              : loadJson<app::HumanoidWholeBodyOptions>(request.config_path);
  if (request.no_balance) options.whole_body.balance_enabled = false;
  std::unique_ptr<app::HumanoidWholeBody> pipeline;
  try {
    pipeline = app::makeHumanoidWholeBody(model, binding, options);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("map --method humanoid --whole-body: ") + e.what() + " (see `retarget info --robot " +
                     request.robot + "`)");
  }
  runWholeBody(request, model, *pipeline, "humanoid whole body (" + model.name() + ", automatic binding)");
}

void runHumanoid(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  if (request.whole_body) {
    runHumanoidWholeBody(request, model);
    return;
  }
  const std::unique_ptr<HumanoidMapper<double>> mapper =
      makeHumanoidMapper(model, request.robot_schema, request.config_path, "map --method humanoid", request.robot);
  const HumanoidBinding& binding = mapper->binding();
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  if (request.floating_base) {
    runFloatingBase(request, model, motion);
    return;
  }
  MappedMotion<double> mapped = mapMotion(*mapper, motion);
  const int jumps = mapped.frames(StatusCode::kDiscontinuity);
  std::cerr << "retarget: humanoid: " << model.name() << " bound automatically (" << binding.points.size()
            << " virtual-skeleton points" << (request.robot_schema.empty() ? "" : ", pinned by " + request.robot_schema)
            << "); frames solved beyond the trust region: " << mapped.frames(StatusCode::kNotConverged)
            << ", jumps to a better solution: " << jumps << "\n";
  finishMap(request, model, mapped, "humanoid (" + model.name() + ", automatic binding)");
}

const bool kMapHumanoidRegistered = registerMapMethod(MapMethod{"humanoid", runHumanoid});

}  // namespace
}  // namespace retarget::cli
