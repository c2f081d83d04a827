// `retarget map <motion> --robot nao --method ga-lvvj [--config options.json] -o angles.csv`:
// GA-LVVJ whole-body mapping (seed 000, Section 3.2) of any supported motion onto a robot with
// a built-in GA-LVVJ map (NAO: whole body; Pepper: arms and head).
//
// --config takes a JSON object with any of: "smoothing" (0..1), "hip_yaw_pitch" (rad),
// "hip_yaw_pitch_mode" ("fixed" | "from-knees"), "singular_tolerance".
#include <fstream>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/ga_lvvj.hpp>

#include "cli.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

GaLvvjOptions readGaLvvjOptions(const std::string& path) {
  GaLvvjOptions options;
  if (path.empty()) return options;
  std::ifstream in(path);
  if (!in) throw ParseError(path, 0, "cannot open the GA-LVVJ options file");
  nlohmann::json json;
  try {
    in >> json;
  } catch (const nlohmann::json::parse_error& e) {
    throw ParseError(path, 0, std::string("expected a JSON object of GA-LVVJ options: ") + e.what());
  }
  if (!json.is_object()) throw ParseError(path, 0, "expected a JSON object of GA-LVVJ options");
  for (const auto& [key, value] : json.items()) {
    auto number = [&]() {
      if (!value.is_number()) throw ParseError(path, 0, "expected a number for '" + key + "', got " + value.dump());
      return value.get<double>();
    };
    if (key == "smoothing") {
      options.smoothing = number();
    } else if (key == "hip_yaw_pitch") {
      options.hip_yaw_pitch = number();
    } else if (key == "singular_tolerance") {
      options.singular_tolerance = number();
    } else if (key == "hip_yaw_pitch_mode") {
      const std::string mode = value.is_string() ? value.get<std::string>() : value.dump();
      if (mode == "fixed") {
        options.hip_yaw_pitch_mode = GaLvvjOptions::HipYawPitchMode::kFixed;
      } else if (mode == "from-knees") {
        options.hip_yaw_pitch_mode = GaLvvjOptions::HipYawPitchMode::kFromKnees;
      } else {
        throw ParseError(path, 0, "expected \"fixed\" or \"from-knees\" for 'hip_yaw_pitch_mode', got " + value.dump());
      }
    } else {
      throw ParseError(path, 0,
                       "unknown GA-LVVJ option '" + key +
                           "' (expected smoothing, hip_yaw_pitch, hip_yaw_pitch_mode, singular_tolerance)");
    }
  }
  options.validate();
  return options;
}

void runGaLvvj(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<GaLvvjMap> map = gaLvvjMapFor(model);
  if (!map) {
    throw UsageError("map --method ga-lvvj: no GA-LVVJ map fits robot '" + model.name() +
                     "' (built-in maps: NAO whole body, Pepper arms and head)");
  }
  const GaLvvjOptions options = readGaLvvjOptions(request.config_path);
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  GaLvvjMapper<double> mapper(model, *map, options);
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  JointTrajectory trajectory = makeJointTrajectory(model);
  trajectory.positions = mapped.q;
  trajectory.times.assign(mapped.time.data(), mapped.time.data() + mapped.time.size());
  writeJointTrajectoryCsv(trajectory, request.output_path);
  std::cerr << "retarget: ga-lvvj (" << map->robot << "): " << motion.size() << " frames -> " << request.output_path
            << "; clamped in " << mapped.clamped_frames << ", held (degenerate input) in " << mapped.degenerate_frames
            << " frames\n";
}

const bool kRegistered = registerMapMethod(MapMethod{
    "ga-lvvj",
    "GA-LVVJ analytic whole-body mapping (seed 000; any motion; NAO whole body, Pepper arms and head)",
    runGaLvvj});

}  // namespace
}  // namespace retarget::cli
