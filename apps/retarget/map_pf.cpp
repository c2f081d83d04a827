// `retarget map <motion> --robot nao --method pf [--particles N] [--seed S] [--pf-noise RAD]
//  -o angles.csv`: the joint-space particle filter of seed 003 (Section 3, Algorithm 1) on any
// robot with a built-in GA-LVVJ map (its virtual skeleton weighs the particles). The seed is
// fixed (1) unless given, so the same command writes the same file.
// `retarget map <motion> --robot nao --method gpdm-pf --model wave.gpdm [--particles N] [--seed S]
//  [--fallback ga-lvvj] [--json]`: the GPDM particle filter of seed 003 (Sections 6-7) with a model
// from `retarget learn gpdm`; frames the model does not explain (below its fit threshold) are
// counted, and with --fallback ga-lvvj written from GA-LVVJ instead (blended over 0.2 s).
#include <chrono>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/app/methods.hpp>
#include <retarget/io/gpdm_model.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/robots/robot_skeleton.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runParticleFilter(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  refuseUnlessApplies(request, model);
  const std::optional<VirtualSkeletonMap> map = virtualSkeletonMapFor(model);
  const ParticleFilterOptions options = app::particleFilterOptionsFrom(mapSettings(request));
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  JointSpaceParticleFilter<double> filter(model, *map, options);
  const auto start = std::chrono::steady_clock::now();
  MappedMotion<double> mapped = mapMotion(filter, motion);
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                    static_cast<double>(std::max<std::size_t>(1, motion.size()));
  finishMap(request, model, mapped,
            "pf (" + map->robot + ", " + std::to_string(options.particles) + " particles, seed " +
                std::to_string(options.seed) + ", " + fixed(us, 1) + " us/frame, low confidence in " +
                std::to_string(mapped.frames(StatusCode::kNotConverged)) + " frames)");
}

void runGpdmParticleFilter(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  refuseUnlessApplies(request, model);
  app::GpdmFileFacts file;
  const std::unique_ptr<GpdmParticleFilter<double>> built = app::makeGpdmFilter(model, mapSettings(request), &file);
  GpdmParticleFilter<double>& filter = *built;
  const GpdmParticleFilterOptions& options = filter.options();
  const std::string robot = virtualSkeletonMapFor(model)->robot;
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  int fallback_frames = 0;
  double similarity_sum = 0.0;
  const auto start = std::chrono::steady_clock::now();
  MappedMotion<double> mapped = mapMotion(filter, motion, [&](std::size_t, const GpdmParticleFilter<double>& f) {
    fallback_frames += f.fallbackWeight() > 0.0 ? 1 : 0;
    similarity_sum += f.estimateSimilarity();
  });
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                    static_cast<double>(std::max<std::size_t>(1, motion.size()));
  const int unexplained = mapped.frames(StatusCode::kNotConverged);
  const std::string threshold_source =
      file.threshold_from_training ? "the model's training fit" : "uncalibrated model: min_similarity";
  std::string label = "gpdm-pf (" + robot + ", " + std::to_string(options.particles) + " particles, seed " +
                      std::to_string(options.seed) + ", " + fixed(us, 1) + " us/frame, not explained by the model in " +
                      std::to_string(unexplained) + " frames (cosine below " + fixed(filter.fitThreshold(), 4) + ", " +
                      threshold_source + ")";
  if (options.fallback == GpdmFallback::kGaLvvj) label += ", GA-LVVJ fallback in " + std::to_string(fallback_frames) + " frames";
  label += ")";
  nlohmann::ordered_json details;
  details["fit_threshold"] = filter.fitThreshold();
  details["fit_threshold_from_training"] = file.threshold_from_training;
  details["unexplained_frames"] = unexplained;
  details["estimate_similarity_mean"] = similarity_sum / static_cast<double>(std::max<std::size_t>(1, motion.size()));
  details["fallback"] = request.fallback.empty() ? "none" : request.fallback;
  details["fallback_frames"] = fallback_frames;
  details["frame_period"] = file.frame_period;
  finishMap(request, model, mapped, label, details.dump());
}

const bool kGpdmRegistered = registerMapMethod(MapMethod{"gpdm-pf", runGpdmParticleFilter});

const bool kMapPfRegistered = registerMapMethod(MapMethod{"pf", runParticleFilter});

}  // namespace
}  // namespace retarget::cli
