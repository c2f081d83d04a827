// `retarget map <motion> --robot baxter|yumi|nao|pepper|file.urdf --method fabrik|pic|pics
//  [--softening K] [--soften-always] [--force-octants] [--json] -o angles.csv`: seed 004's pose imitation of the arms (FABRIK baseline, PIC,
// PICs with softening K of Eq. 3) on any robot with a PIC map (Baxter, YuMi, NAO, Pepper).
//
// The input pipeline of the paper's Section IV is on: per-joint exponential smoothing of the
// positions (alpha 0.5) and the calibration-pose placement (first 10 usable frames).
#include <chrono>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/app/methods.hpp>
#include <retarget/mappers/pic.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {

namespace {

void runPic(const MapRequest& request, PicAlgorithm algorithm) {
  const RobotModel<double> model = loadRobot(request.robot);
  refuseUnlessApplies(request, model);
  const std::optional<PicMap> map = picMapFor(model);
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const PicOptions options = app::picOptionsFrom(mapSettings(request), algorithm);
  PicMapper<double> mapper(model, *map, options);
  // The fit's residual (how far the written angles are from the solved chain) and the softening.
  int fit_failed = 0, softened = 0;
  double worst_residual = 0, residual_sum = 0;
  int residual_count = 0;
  const auto start = std::chrono::steady_clock::now();
  MappedMotion<double> mapped = mapMotion(mapper, motion, [&](std::size_t, const PicMapper<double>& m) {
    bool failed = false, soft = false;
    for (int a = 0; a < m.armCount(); ++a) {
      failed = failed || m.fitFailed(a);
      soft = soft || m.softened(a);
      worst_residual = std::max(worst_residual, m.residual(a));
      residual_sum += m.residual(a);
      ++residual_count;
    }
    fit_failed += failed ? 1 : 0;
    softened += soft ? 1 : 0;
  });
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                    static_cast<double>(std::max<std::size_t>(1, motion.size()));
  std::string label = std::string(toString(algorithm)) + " (" + map->robot;
  if (algorithm == PicAlgorithm::kPics) {
    label += ", K = " + std::to_string(request.softening) + ", softened in " + std::to_string(softened) + " frames" +
             (request.soften_always ? " (--soften-always)" : "");
  }
  if (request.force_octants && algorithm != PicAlgorithm::kFabrik) label += ", --force-octants";
  label += ", " + fixed(us, 1) + " us/frame, not converged in " + std::to_string(mapped.frames(StatusCode::kNotConverged)) +
           " frames; joint fit residual mean " + fixed(residual_count > 0 ? residual_sum / residual_count : 0.0, 3) +
           " m, max " + fixed(worst_residual, 3) + " m, above " + fixed(options.max_fit_residual, 2) + " m in " +
           std::to_string(fit_failed) + " frames)";
  nlohmann::ordered_json details;
  details["softening"] = algorithm == PicAlgorithm::kPics ? nlohmann::ordered_json(request.softening) : nullptr;
  details["softened_frames"] = softened;
  details["soften_always"] = request.soften_always;
  details["force_octants"] = request.force_octants;
  details["fit_residual_mean"] = residual_count > 0 ? residual_sum / residual_count : 0.0;
  details["fit_residual_max"] = worst_residual;
  details["fit_residual_limit"] = options.max_fit_residual;
  details["fit_failed_frames"] = fit_failed;
  finishMap(request, model, mapped, label, details.dump());
}

const bool kFabrik =
    registerMapMethod(MapMethod{"fabrik", [](const MapRequest& r) { runPic(r, PicAlgorithm::kFabrik); }});
const bool kPic = registerMapMethod(MapMethod{"pic", [](const MapRequest& r) { runPic(r, PicAlgorithm::kPic); }});
const bool kPics = registerMapMethod(MapMethod{"pics", [](const MapRequest& r) { runPic(r, PicAlgorithm::kPics); }});

}  // namespace
}  // namespace retarget::cli
