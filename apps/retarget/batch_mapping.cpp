#include "batch_mapping.hpp"

#include <chrono>
#include <memory>
#include <utility>

#include <retarget/app/whole_body.hpp>
#include <retarget/app/whole_body_json.hpp>
#include <retarget/human/foot_stance.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/gpdm_model.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/json/euler_map.hpp>
#include <retarget/json/ga_lvvj.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/humanoid_floating_base.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/robots/robot_skeleton.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "cli.hpp"
#include "motion_loading.hpp"
#include "robot_binding.hpp"

namespace retarget::cli {

PicOptions picCliOptions(PicAlgorithm algorithm, int softening, bool soften_always, bool force_octants);  // map_pic.cpp

const std::vector<std::string>& batchMethods() {
  // gpdm-pf before pf: a file name "wave_gpdm-pf.csv" names gpdm-pf, not pf.
  static const std::vector<std::string> methods = {"ga-lvvj", "humanoid", "euler", "triangle", "fabrik", "pic", "pics", "gpdm-pf", "pf"};
  return methods;
}

std::string methodNames(const std::string& separator) {
  std::string names;
  for (const std::string& method : batchMethods()) names += (names.empty() ? "" : separator) + method;
  return names;
}

namespace {

// The humanoid mapper on `model`'s automatic binding with the options of `--config` (a usage
// error when it does not bind).
std::shared_ptr<HumanoidMapper<double>> humanoidMapper(const RobotModel<double>& model, const std::string& config_path) {
  return makeHumanoidMapper(model, "", config_path, "--method humanoid");
}

// The whole body after GA-LVVJ as `retarget map --whole-body` builds it: the robot's GA-LVVJ map,
// NAO's feet, the GaLvvjWholeBodyOptions of --config.
std::shared_ptr<app::GaLvvjWholeBody> gaLvvjWholeBody(const MethodSetup& setup, const RobotModel<double>& model) {
  const app::GaLvvjWholeBodyOptions options = setup.config_path.empty()
                                                  ? app::GaLvvjWholeBodyOptions{}
                                                  : loadJson<app::GaLvvjWholeBodyOptions>(setup.config_path);
  return app::makeGaLvvjWholeBody(model, options);
}

// The whole body after the humanoid mapper: the automatic binding, the robot's soles, the
// HumanoidWholeBodyOptions of --config (a usage error for a robot without legs or soles).
std::shared_ptr<app::HumanoidWholeBody> humanoidWholeBody(const MethodSetup& setup, const RobotModel<double>& model) {
  const app::HumanoidWholeBodyOptions options = setup.config_path.empty()
                                                    ? app::HumanoidWholeBodyOptions{}
                                                    : loadJson<app::HumanoidWholeBodyOptions>(setup.config_path);
  const HumanoidBinding binding = bindRobot(model);
  try {
    return app::makeHumanoidWholeBody(model, binding, options);
  } catch (const InvalidArgument& e) {
    throw UsageError(std::string("--method humanoid:whole-body: ") + e.what());
  }
}

// The GPDM particle filter of `setup` (its .gpdm model, 30 particles, seed 1) on `model`.
std::shared_ptr<GpdmParticleFilter<double>> gpdmFilter(const MethodSetup& setup, const RobotModel<double>& model) {
  GpdmModelFile file = loadGpdmModel(setup.model_path);
  GpdmFilterMap map;
  map.motion_model = std::move(file.model);
  map.joints = std::move(file.joint_names);
  map.skeleton = *virtualSkeletonMapFor(model);
  map.fallback = *gaLvvjMapFor(model);
  map.frame_period = file.frame_period;
  map.fit_threshold = file.fit_threshold;
  GpdmParticleFilterOptions options;
  if (setup.fallback == "ga-lvvj") options.fallback = GpdmFallback::kGaLvvj;
  if (setup.particles > 0) options.particles = setup.particles;
  return std::make_shared<GpdmParticleFilter<double>>(model, std::move(map), options);
}

PicAlgorithm picAlgorithm(const std::string& method) {
  if (method == "fabrik") return PicAlgorithm::kFabrik;
  if (method == "pic") return PicAlgorithm::kPic;
  return PicAlgorithm::kPics;
}

bool isPic(const std::string& method) { return method == "fabrik" || method == "pic" || method == "pics"; }

// mapMotion (with its per-frame callback, when given) and its wall time in `seconds`.
template <typename Mapper, typename Motion, typename... OnFrame>
MappedMotion<double> timedMap(Mapper& mapper, const Motion& motion, double& seconds, OnFrame&&... on_frame) {
  const auto start = std::chrono::steady_clock::now();
  MappedMotion<double> mapped = mapMotion(mapper, motion, std::forward<OnFrame>(on_frame)...);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return mapped;
}

}  // namespace

GaLvvjOptions gaLvvjCliOptions(const std::string& config_path, bool trunk_lean) {
  GaLvvjOptions options = config_path.empty() ? GaLvvjOptions{} : loadJson<GaLvvjOptions>(config_path);
  if (trunk_lean) options.trunk_lean = true;
  return options;
}

void requireTrunkLeanFeet(const GaLvvjMap& map, const RobotModel<double>& model, const std::string& what) {
  if (map.foot_left.empty() || map.foot_right.empty()) {
    throw UsageError(what + ": the GA-LVVJ map of robot '" + model.name() +
                     "' has no feet to lean on (NAO has; Pepper stands on a wheeled base)");
  }
}

void checkMethodApplies(const MethodSetup& setup, const RobotModel<double>& model) {
  const std::string& m = setup.method;
  if (setup.whole_body && m != "ga-lvvj" && m != "humanoid") {
    throw UsageError("--method " + m + ": the whole-body pipeline (whole-body) goes with ga-lvvj and humanoid only");
  }
  if (setup.whole_body && setup.floating_base) {
    throw UsageError("--method " + m + ": whole-body and floating-base are two ways to give the legs; pick one");
  }
  if (setup.whole_body && m == "ga-lvvj" && (model.findLink("l_sole") < 0 || model.findLink("r_sole") < 0)) {
    throw UsageError("--method ga-lvvj:whole-body: robot '" + model.name() +
                     "' has no sole frames l_sole / r_sole (GA-LVVJ's whole body stands on NAO's feet; "
                     "humanoid:whole-body stands any bound humanoid on its soles)");
  }
  if (setup.trunk_lean && m != "ga-lvvj") throw UsageError("--method " + m + ": trunk-lean goes with ga-lvvj only");
  if (m == "ga-lvvj") {
    if (!gaLvvjMapFor(model)) {
      throw UsageError("--method ga-lvvj: no GA-LVVJ map fits robot '" + model.name() + "' (NAO, Pepper)");
    }
    if (setup.trunk_lean) requireTrunkLeanFeet(*gaLvvjMapFor(model), model, "--method ga-lvvj:trunk-lean");
  } else if (m == "humanoid" && setup.whole_body) {
    (void)humanoidWholeBody(setup, model);  // throws a usage error for a robot that does not bind or has no soles
  } else if (m == "humanoid") {
    (void)humanoidMapper(model, setup.config_path);  // throws a usage error for a robot that does not bind
  } else if (m == "triangle") {
    if (!triangleMapFor(model)) {
      throw UsageError("--method triangle: no triangle map fits robot '" + model.name() + "' (Tangy, NAO, Pepper)");
    }
  } else if (isPic(m)) {
    if (!picMapFor(model)) {
      throw UsageError("--method " + m + ": no PIC map fits robot '" + model.name() + "' (baxter, yumi, nao, pepper)");
    }
  } else if (m == "pf") {
    if (!gaLvvjMapFor(model)) {
      throw UsageError("--method pf: no virtual skeleton (GA-LVVJ map) fits robot '" + model.name() + "' (NAO, Pepper)");
    }
  } else if (m == "gpdm-pf") {
    if (!gaLvvjMapFor(model)) {
      throw UsageError("--method gpdm-pf: no virtual skeleton (GA-LVVJ map) fits robot '" + model.name() + "' (NAO, Pepper)");
    }
    if (setup.model_path.empty()) {
      throw UsageError("--method gpdm-pf: needs --model <file.gpdm> (or gpdm-pf:model=<file>; train one with: retarget learn gpdm)");
    }
  } else if (m == "euler") {
    if (setup.config_path.empty() && model.name() != "inmoov") {
      throw UsageError("--method euler: built-in configurations exist for the InMoov only (got robot '" + model.name() +
                       "'); pass --config <file.json>");
    }
  } else {
    std::string known;
    for (const auto& name : batchMethods()) known += (known.empty() ? "" : ", ") + name;
    throw UsageError("unknown method '" + m + "' (known: " + known + ")");
  }
}

std::optional<SelfCollisionModel<double>> cliCollisionModel(const RobotModel<double>& model) {
  return defaultSelfCollisionModel(model);
}

namespace {

// The whole-body pipeline after `mapFile`'s mapper: each frame's support mode and whether the
// balance held, beside the angles.
template <typename Pipeline>
void mapWholeBody(Pipeline& pipeline, const SkeletonMotion<double>& motion, MappedFile& out) {
  out.modes.reserve(motion.size());
  out.mapped = timedMap(pipeline, motion, out.seconds, [&](std::size_t, const Pipeline& p) {
    out.modes.emplace_back(supportModeName(p.report().mode));
    out.balance_held_frames += p.report().balance_held ? 1 : 0;
  });
}

void physicalMetrics(MappedFile& out, const RobotModel<double>& model, const SelfCollisionModel<double>* collision) {
  out.smoothness = jointSmoothness(model, out.mapped.time, out.mapped.q);
  if (collision != nullptr) out.penetration_max = selfPenetration(*collision, out.mapped.q).max_depth;
}

}  // namespace

MappedFile mapFile(const MethodSetup& setup, const RobotModel<double>& model, const std::string& path,
                   bool similarity, const SelfCollisionModel<double>* collision) {
  MappedFile out;
  out.format = describe(detectMotionFile(path));
  if (setup.method == "euler") {
    const BvhMotion motion = readBvh(path);
    const EulerMap map = setup.config_path.empty() ? inmoovEulerMap(motion) : loadEulerMap(setup.config_path);
    EulerMapper<double> mapper(model, motion, map);
    out.mapped = timedMap(mapper, motion, out.seconds);
    physicalMetrics(out, model, collision);
    return out;
  }
  const SkeletonMotion<double> motion = loadMotion(path);
  if (setup.whole_body) {
    checkMethodApplies(setup, model);
    if (setup.method == "ga-lvvj") {
      mapWholeBody(*gaLvvjWholeBody(setup, model), motion, out);
    } else {
      mapWholeBody(*humanoidWholeBody(setup, model), motion, out);
    }
  } else if (setup.method == "ga-lvvj") {
    GaLvvjMapper<double> mapper(model, *gaLvvjMapFor(model), gaLvvjCliOptions(setup.config_path, setup.trunk_lean));
    out.mapped = timedMap(mapper, motion, out.seconds);
  } else if (setup.method == "humanoid") {
    out.mapped = timedMap(*humanoidMapper(model, setup.config_path), motion, out.seconds);
  } else if (setup.method == "triangle") {
    TriangleMapper<double> mapper(model, *triangleMapFor(model));
    out.mapped = timedMap(mapper, motion, out.seconds);
  } else if (isPic(setup.method)) {
    PicMapper<double> mapper(model, *picMapFor(model), picCliOptions(picAlgorithm(setup.method), setup.softening, false, false));
    out.mapped = timedMap(mapper, motion, out.seconds);
  } else if (setup.method == "gpdm-pf" && gaLvvjMapFor(model) && !setup.model_path.empty()) {
    const auto filter = gpdmFilter(setup, model);
    out.mapped = timedMap(*filter, motion, out.seconds);
  } else if (setup.method == "pf" && gaLvvjMapFor(model)) {
    ParticleFilterOptions options;  // fixed seed
    if (setup.particles > 0) options.particles = setup.particles;
    JointSpaceParticleFilter<double> filter(model, *virtualSkeletonMapFor(model), options);
    out.mapped = timedMap(filter, motion, out.seconds);
  } else {
    checkMethodApplies(setup, model);  // throws for an unknown method
  }
  physicalMetrics(out, model, collision);
  if (similarity) {
    if (const auto map = robotSkeletonMap(model)) {
      VirtualSkeleton<double> view(model, *map);
      std::vector<SkeletonFrame<double>> robot(motion.size());
      for (std::size_t k = 0; k < motion.size(); ++k) {
        (void)view.compute(out.mapped.q.row(static_cast<Eigen::Index>(k)).transpose(), robot[k]);
      }
      const MotionSimilarity<double> s = motionSimilarity(motion.frames, robot);
      out.wbf_mean = s.wbf_mean;
      out.llf_mean = s.llf_mean;
    }
  }
  return out;
}

namespace {

template <typename Mapper>
FrameMapper skeletonFrameMapper(std::shared_ptr<Mapper> mapper) {
  FrameMapper out;
  out.map_skeleton = [m = mapper.get()](const SkeletonFrame<double>& frame, Eigen::Ref<Eigen::VectorXd> q) {
    return m->map(frame, q);
  };
  out.owner = std::move(mapper);
  return out;
}

}  // namespace

FrameMapper makeFrameMapper(const MethodSetup& setup, const RobotModel<double>& model, const BvhMotion* hierarchy) {
  checkMethodApplies(setup, model);
  if (setup.method == "euler") {
    if (hierarchy == nullptr) throw UsageError("--method euler needs a BVH source");
    const EulerMap map = setup.config_path.empty() ? inmoovEulerMap(*hierarchy) : loadEulerMap(setup.config_path);
    auto mapper = std::make_shared<EulerMapper<double>>(model, *hierarchy, map);
    FrameMapper out;
    out.map_channels = [m = mapper.get()](const Eigen::VectorXd& values, Eigen::Ref<Eigen::VectorXd> q) {
      return m->map(values, q);
    };
    out.owner = std::move(mapper);
    return out;
  }
  if (setup.method == "ga-lvvj" && setup.whole_body) return skeletonFrameMapper(gaLvvjWholeBody(setup, model));
  if (setup.method == "humanoid" && setup.whole_body) return skeletonFrameMapper(humanoidWholeBody(setup, model));
  if (setup.method == "ga-lvvj") {
    return skeletonFrameMapper(std::make_shared<GaLvvjMapper<double>>(
        model, *gaLvvjMapFor(model), gaLvvjCliOptions(setup.config_path, setup.trunk_lean)));
  }
  if (setup.method == "humanoid") return skeletonFrameMapper(humanoidMapper(model, setup.config_path));
  if (setup.method == "triangle") {
    return skeletonFrameMapper(std::make_shared<TriangleMapper<double>>(model, *triangleMapFor(model)));
  }
  if (isPic(setup.method)) {
    return skeletonFrameMapper(std::make_shared<PicMapper<double>>(
        model, *picMapFor(model), picCliOptions(picAlgorithm(setup.method), setup.softening, false, false)));
  }
  if (setup.method == "gpdm-pf") return skeletonFrameMapper(gpdmFilter(setup, model));
  ParticleFilterOptions options;
  if (setup.particles > 0) options.particles = setup.particles;
  return skeletonFrameMapper(
      std::make_shared<JointSpaceParticleFilter<double>>(model, *virtualSkeletonMapFor(model), options));
}

void addWholeBodySummary(const MappedFile& f, nlohmann::ordered_json& out) {
  nlohmann::ordered_json modes = nlohmann::ordered_json::object();
  for (const std::string& mode : f.modes) modes[mode] = modes.value(mode, 0) + 1;
  out["support_modes"] = modes;
  out["balance_held_frames"] = f.balance_held_frames;
}

FloatingBaseFile mapFloatingBase(const MethodSetup& setup, const RobotModel<double>& model,
                                 const std::string& schema_path, const SkeletonMotion<double>& motion,
                                 const std::string& path) {
  const std::unique_ptr<HumanoidMapper<double>> fixed =
      makeHumanoidMapper(model, schema_path, setup.config_path, "--floating-base");
  HumanoidFloatingBaseOptions options;
  options.mapper = fixed->options();
  try {
    options.stance.floor = humanFloor(motion);
  } catch (const InvalidArgument& e) {
    throw UsageError("--floating-base: " + path + ": " + e.what());
  }
  // One scale for the whole take: given, else the legs' ratio over the take (the median).
  const double measured = humanoidLegScale(fixed->binding(), motion);
  if (setup.scale > 0) {
    options.scale = setup.scale;
  } else if (measured > 0) {
    options.scale = measured;
  }
  std::unique_ptr<HumanoidFloatingBaseMapper<double>> mapper;
  try {
    mapper = std::make_unique<HumanoidFloatingBaseMapper<double>>(model, fixed->binding(), options);
  } catch (const InvalidArgument& e) {
    throw UsageError("--floating-base: robot '" + model.name() + "' has no floating base to give (" + e.what() + ")");
  }
  FloatingBaseFile out;
  std::vector<Status> statuses;
  const auto start = std::chrono::steady_clock::now();
  out.trajectory = recordFloatingBase(*mapper, motion, &statuses);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  {
    const FloatingBaseTrajectory& t = out.trajectory;
    std::vector<Eigen::Isometry3d> X_WB;
    for (std::size_t k = 0; k < t.size(); ++k) X_WB.push_back(t.rootPose(k));
    out.contacts = groundContact(model, fixed->binding(), mapper->soles(), t.time, X_WB, t.q, t.contacts, &motion,
                                 static_cast<double>(mapper->scale()));
  }
  const double fps = setup.fps > 0 ? setup.fps : motion.frame_rate;
  if (setup.unitree || setup.fps > 0) {
    if (!(fps > 0)) throw UsageError("--floating-base: " + path + " has no frame rate; give --fps");
    out.trajectory = resampleFloatingBase(out.trajectory, fps);
  }
  for (const Status& s : statuses) {
    out.rate_limited += s.has(StatusCode::kRateLimited) ? 1 : 0;
    out.not_converged += s.has(StatusCode::kNotConverged) ? 1 : 0;
  }
  out.soles = mapper->soles();
  out.scale = mapper->scale();
  out.floor = options.stance.floor->foot_z;
  return out;
}

nlohmann::ordered_json groundContactJson(const GroundContact& c, const std::array<HumanoidSole, 2>& soles) {
  nlohmann::ordered_json out;
  out["penetration_frames"] = c.penetration_frames;
  out["deepest"] = c.deepest;
  // Both feet together, then each.
  out["stance_frames"] = c.feet[0].stance_frames + c.feet[1].stance_frames;
  out["floating_frames"] = c.feet[0].floating_frames + c.feet[1].floating_frames;
  out["sliding_frames"] = c.feet[0].sliding_frames + c.feet[1].sliding_frames;
  out["tilted_frames"] = c.feet[0].tilted_frames + c.feet[1].tilted_frames;
  const char* names[2] = {"left", "right"};
  for (std::size_t s = 0; s < 2; ++s) {
    const FootGroundContact& f = c.feet[s];
    nlohmann::ordered_json foot;
    foot["link"] = soles[s].link;
    foot["stance_frames"] = f.stance_frames;
    foot["stances"] = f.stances;
    foot["floating_frames"] = f.floating_frames;
    foot["max_float"] = f.max_float;
    foot["sliding_frames"] = f.sliding_frames;
    foot["max_slide_speed"] = f.max_slide_speed;
    foot["max_slide"] = f.max_slide;
    foot["mean_slide"] = f.mean_slide;
    foot["tilted_frames"] = f.tilted_frames;
    foot["max_tilt"] = f.max_tilt;
    out[names[s]] = foot;
  }
  out["agreement"] = c.agreement;
  out["root_path_rms"] =
      c.root_path_checked ? nlohmann::ordered_json(c.root_path_rms) : nlohmann::ordered_json(nullptr);
  out["root_path_max"] =
      c.root_path_checked ? nlohmann::ordered_json(c.root_path_max) : nlohmann::ordered_json(nullptr);
  out["root_jerk_rms"] = c.root_jerk_rms;
  return out;
}

void writeMappedCsv(const RobotModel<double>& model, const MappedMotion<double>& mapped, const std::string& path) {
  JointTrajectory trajectory = makeJointTrajectory(model);
  trajectory.positions = mapped.q;
  trajectory.times = mapped.time;
  writeJointTrajectoryCsv(trajectory, path);
}

}  // namespace retarget::cli
