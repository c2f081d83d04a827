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
  const std::optional<VirtualSkeletonMap> map = virtualSkeletonMapFor(model);
  if (!gaLvvjMapFor(model) || !map) {
    throw UsageError("map --method pf: no virtual skeleton (GA-LVVJ map) fits robot '" + model.name() +
                     "' (built-in maps: NAO, Pepper)");
  }
  ParticleFilterOptions options;
  if (request.particles > 0) options.particles = request.particles;
  if (request.pf_noise > 0) options.noise = request.pf_noise;
  options.seed = request.seed;
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
  if (request.model_path.empty()) {
    throw UsageError("map --method gpdm-pf: needs --model <file.gpdm> (train one with: retarget learn gpdm)");
  }
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<GaLvvjMap> ga_lvvj = gaLvvjMapFor(model);
  const std::optional<VirtualSkeletonMap> skeleton = virtualSkeletonMapFor(model);
  if (!ga_lvvj || !skeleton) {
    throw UsageError("map --method gpdm-pf: no virtual skeleton (GA-LVVJ map) fits robot '" + model.name() +
                     "' (built-in maps: NAO, Pepper)");
  }
  GpdmModelFile file = loadGpdmModel(request.model_path);
  GpdmFilterMap map;
  map.motion_model = std::move(file.model);
  map.joints = std::move(file.joint_names);
  map.skeleton = *skeleton;
  map.fallback = *ga_lvvj;
  map.frame_period = file.frame_period;
  map.fit_threshold = file.fit_threshold;
  GpdmParticleFilterOptions options;
  if (request.particles > 0) options.particles = request.particles;
  options.seed = request.seed;
  if (request.fallback == "ga-lvvj") options.fallback = GpdmFallback::kGaLvvj;
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  GpdmParticleFilter<double> filter(model, std::move(map), options);
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
  const std::string threshold_source = file.fit_threshold ? "the model's training fit" : "uncalibrated model: min_similarity";
  std::string label = "gpdm-pf (" + skeleton->robot + ", " + std::to_string(options.particles) + " particles, seed " +
                      std::to_string(options.seed) + ", " + fixed(us, 1) + " us/frame, not explained by the model in " +
                      std::to_string(unexplained) + " frames (cosine below " + fixed(filter.fitThreshold(), 4) + ", " +
                      threshold_source + ")";
  if (options.fallback == GpdmFallback::kGaLvvj) label += ", GA-LVVJ fallback in " + std::to_string(fallback_frames) + " frames";
  label += ")";
  nlohmann::ordered_json details;
  details["fit_threshold"] = filter.fitThreshold();
  details["fit_threshold_from_training"] = file.fit_threshold.has_value();
  details["unexplained_frames"] = unexplained;
  details["estimate_similarity_mean"] = similarity_sum / static_cast<double>(std::max<std::size_t>(1, motion.size()));
  details["fallback"] = request.fallback.empty() ? "none" : request.fallback;
  details["fallback_frames"] = fallback_frames;
  details["frame_period"] = file.frame_period;
  finishMap(request, model, mapped, label, details.dump());
}

const bool kGpdmRegistered = registerMapMethod(MapMethod{
    "gpdm-pf",
    "GPDM particle filter (seed 003 Sections 6-7; --model FILE.gpdm from `retarget learn gpdm`, --particles N "
    "--seed S; NAO, Pepper)",
    runGpdmParticleFilter});

const bool kMapPfRegistered = registerMapMethod(MapMethod{
    "pf", "joint-space particle filter (seed 003 Section 3; --particles N --seed S --pf-noise RAD; NAO, Pepper)",
    runParticleFilter});

}  // namespace
}  // namespace retarget::cli
