#include "map_output.hpp"

#include <algorithm>
#include <iostream>

#include <nlohmann/json.hpp>

#include <retarget/app/methods.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>

#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {

app::MethodSettings mapSettings(const MapRequest& request) {
  app::MethodSettings settings;
  settings.config_path = request.config_path;
  settings.schema_path = request.robot_schema;
  settings.whole_body = request.whole_body;
  settings.trunk_lean = request.trunk_lean;
  settings.softening = request.softening;
  settings.soften_always = request.soften_always;
  settings.force_octants = request.force_octants;
  settings.particles = request.particles;
  settings.seed = request.seed;
  settings.pf_noise = request.pf_noise;
  settings.model_path = request.model_path;
  settings.fallback = request.fallback;
  return settings;
}

void refuseUnlessApplies(const MapRequest& request, const RobotModel<double>& model) {
  const app::Method* method = app::findMethod(request.method);
  const std::string refusal = app::methodRefusal(request.method, model, mapSettings(request));
  if (!refusal.empty()) throw UsageError("map --method " + request.method + ": " + refusal);
  const auto& takes = method->takes;
  if (!request.config_path.empty() && std::find(takes.begin(), takes.end(), "config") == takes.end()) {
    throw UsageError("map --method " + request.method + ": takes no --config file");
  }
}

void runTableMethod(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  refuseUnlessApplies(request, model);
  const app::Method& method = *app::findMethod(request.method);
  MappedMotion<double> mapped;
  if (method.reads_channels) {
    const BvhMotion motion = readBvh(request.motion_path);
    mapped = method.make(model, mapSettings(request), &motion)->mapBvh(motion);
  } else {
    const SkeletonMotion<double> motion = loadMotion(request.motion_path);
    const std::unique_ptr<app::MethodMapper> mapper = method.make(model, mapSettings(request), nullptr);
    mapped = mapMotion(*mapper, motion);
  }
  finishMap(request, model, mapped, request.method + " (" + model.name() + ")");
}

void finishMap(const MapRequest& request, const RobotModel<double>& model, MappedMotion<double>& mapped,
               const std::string& label, const std::string& method_json) {
  const Eigen::Index frames = mapped.q.rows();
  WrittenSafety safety;
  std::string filters = applySafetyStages(request, model, mapped, &safety);
  filters += safety.summary();
  JointTrajectory trajectory = makeJointTrajectory(model);
  trajectory.positions = mapped.q;
  trajectory.times = mapped.time;
  writeJointTrajectoryCsv(trajectory, request.output_path);
  std::cerr << "retarget: " << label << ": " << frames << " frames -> " << request.output_path << "; clamped in "
            << mapped.clamped_frames << ", held (degenerate input) in " << mapped.held_frames << ", invalid input in "
            << mapped.invalid_frames << ", discontinuity in " << mapped.frames(StatusCode::kDiscontinuity) << " frames"
            << filters << "\n";
  // Per joint: how often and how far the mapper could not give what the human showed.
  for (int i = 0; i < model.nq(); ++i) {
    if (mapped.clamped_count[i] == 0 && mapped.held_count[i] == 0) continue;
    std::cerr << "  " << model.qName(i) << ": clamped in " << mapped.clamped_count[i] << " frames (worst "
              << fixed(mapped.clamped_worst[i], 3) << " rad), held in " << mapped.held_count[i] << " frames\n";
  }
  const bool checked = safety.collision_checked || safety.joint_speed_checked || safety.point_speed_checked;
  if (request.json) {
    std::cout << mapSummaryJson(model, mapped, label, request.output_path, checked ? safety.json() : std::string(),
                                method_json)
              << "\n";
  }
}

std::string mapSummaryJson(const RobotModel<double>& model, const MappedMotion<double>& mapped,
                           const std::string& label, const std::string& output_path, const std::string& safety_json,
                           const std::string& method_json) {
  nlohmann::ordered_json joints = nlohmann::ordered_json::object();
  for (int i = 0; i < model.nq(); ++i) {
    joints[model.qName(i)] = {{"clamped_frames", mapped.clamped_count[i]},
                              {"clamped_worst", mapped.clamped_worst[i]},
                              {"held_frames", mapped.held_count[i]}};
  }
  nlohmann::ordered_json out;
  out["method"] = label;
  out["output"] = output_path;
  out["frames"] = mapped.size();
  out["clamped_frames"] = mapped.clamped_frames;
  out["held_frames"] = mapped.held_frames;
  out["invalid_frames"] = mapped.invalid_frames;
  out["discontinuity_frames"] = mapped.frames(StatusCode::kDiscontinuity);
  out["not_converged_frames"] = mapped.frames(StatusCode::kNotConverged);
  if (!method_json.empty()) out["details"] = nlohmann::ordered_json::parse(method_json);
  if (!safety_json.empty()) out["safety"] = nlohmann::ordered_json::parse(safety_json);
  out["joints"] = joints;
  return out.dump(2);
}

}  // namespace retarget::cli
