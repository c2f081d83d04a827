// `retarget map <motion> --robot baxter|yumi|nao|pepper|file.urdf --method fabrik|pic|pics
//  [--softening K] -o angles.csv`: seed 004's pose imitation of the arms (FABRIK baseline, PIC,
// PICs with softening K of Eq. 3) on any robot with a PIC map (Baxter, YuMi, NAO, Pepper).
//
// The input pipeline of the paper's Section IV is on: per-joint exponential smoothing of the
// positions (alpha 0.5) and the calibration-pose placement (first 10 usable frames).
#include <chrono>
#include <iostream>
#include <string>

#include <retarget/mappers/pic.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {

/// The options `retarget map` and `retarget compare` use for seed 004's algorithms.
PicOptions picCliOptions(PicAlgorithm algorithm, int softening) {
  PicOptions options;
  options.algorithm = algorithm;
  options.softening = softening;
  options.smoothing_alpha = 0.5;
  return options;
}

namespace {

void runPic(const MapRequest& request, PicAlgorithm algorithm) {
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<PicMap> map = picMapFor(model);
  if (!map) {
    throw UsageError(std::string("map --method ") + toString(algorithm) + ": no PIC map fits robot '" + model.name() +
                     "' (built-in maps: baxter, yumi, nao, pepper)");
  }
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  PicMapper<double> mapper(model, *map, picCliOptions(algorithm, request.softening));
  const auto start = std::chrono::steady_clock::now();
  MappedMotion<double> mapped = mapMotion(mapper, motion);
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                    static_cast<double>(std::max<std::size_t>(1, motion.size()));
  std::string label = std::string(toString(algorithm)) + " (" + map->robot;
  if (algorithm == PicAlgorithm::kPics) label += ", K = " + std::to_string(request.softening);
  label += ", " + fixed(us, 1) + " us/frame, not converged in " + std::to_string(mapped.frames(StatusCode::kNotConverged)) +
           " frames)";
  finishMap(request, model, mapped, label);
}

const bool kFabrik = registerMapMethod(MapMethod{
    "fabrik", "FABRIK on the robot's arm chain towards the placed human wrist (seed 004 baseline; PIC maps)",
    [](const MapRequest& r) { runPic(r, PicAlgorithm::kFabrik); }});
const bool kPic = registerMapMethod(MapMethod{
    "pic", "PIC: FABRIK with the human's octant pose constraints (seed 004; baxter, yumi, nao, pepper)",
    [](const MapRequest& r) { runPic(r, PicAlgorithm::kPic); }});
const bool kPics = registerMapMethod(MapMethod{
    "pics", "PICs: PIC with constraint softening --softening K (seed 004 Eq. 3; baxter, yumi, nao, pepper)",
    [](const MapRequest& r) { runPic(r, PicAlgorithm::kPics); }});

}  // namespace
}  // namespace retarget::cli
