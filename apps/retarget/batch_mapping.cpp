#include "batch_mapping.hpp"

#include <chrono>
#include <memory>
#include <utility>

#include <retarget/app/methods.hpp>
#include <retarget/human/foot_stance.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/humanoid_floating_base.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/robots/robot_skeleton.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "cli.hpp"
#include "motion_loading.hpp"
#include "robot_binding.hpp"

namespace retarget::cli {

const std::vector<std::string>& batchMethods() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const app::Method& m : app::methods()) out.push_back(m.name);
    return out;
  }();
  return names;
}

bool isMethod(const std::string& name) { return app::findMethod(name) != nullptr; }

std::string methodNames(const std::string& separator) { return app::methodNames(separator); }

namespace {

// mapMotion (with its per-frame callback, when given) and its wall time in `seconds`.
template <typename Mapper, typename Motion, typename... OnFrame>
MappedMotion<double> timedMap(Mapper& mapper, const Motion& motion, double& seconds, OnFrame&&... on_frame) {
  const auto start = std::chrono::steady_clock::now();
  MappedMotion<double> mapped = mapMotion(mapper, motion, std::forward<OnFrame>(on_frame)...);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return mapped;
}

void physicalMetrics(MappedFile& out, const RobotModel<double>& model, const SelfCollisionModel<double>* collision) {
  out.smoothness = jointSmoothness(model, out.mapped.time, out.mapped.q);
  if (collision != nullptr) out.penetration_max = selfPenetration(*collision, out.mapped.q).max_depth;
}

// The table's entry of a checked setup (checkMethodApplies first).
const app::Method& methodOf(const MethodSetup& setup) { return *app::findMethod(setup.method); }

}  // namespace

void checkMethodApplies(const MethodSetup& setup, const RobotModel<double>& model) {
  if (setup.whole_body && setup.floating_base) {
    throw UsageError("--method " + setup.method +
                     ": whole-body and floating-base are two ways to give the legs; pick one");
  }
  const std::string refusal = app::methodRefusal(setup.method, model, setup);
  if (refusal.empty()) return;
  if (app::findMethod(setup.method) == nullptr) throw UsageError(refusal);  // unknown, listing the known
  throw UsageError("--method " + setup.method + ": " + refusal);
}

std::optional<SelfCollisionModel<double>> cliCollisionModel(const RobotModel<double>& model) {
  return defaultSelfCollisionModel(model);
}

MappedFile mapFile(const MethodSetup& setup, const RobotModel<double>& model, const std::string& path,
                   bool similarity, const SelfCollisionModel<double>* collision) {
  MappedFile out;
  out.format = describe(detectMotionFile(path));
  checkMethodApplies(setup, model);
  const app::Method& method = methodOf(setup);
  if (method.reads_channels) {
    const BvhMotion motion = readBvh(path);
    const std::unique_ptr<app::MethodMapper> mapper = method.make(model, setup, &motion);
    const auto start = std::chrono::steady_clock::now();
    out.mapped = mapper->mapBvh(motion);
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    physicalMetrics(out, model, collision);
    return out;
  }
  const SkeletonMotion<double> motion = loadMotion(path);
  const std::unique_ptr<app::MethodMapper> mapper = method.make(model, setup, nullptr);
  if (setup.whole_body) {
    // The robot's support mode in each frame and whether the balance held, beside the angles.
    out.modes.reserve(motion.size());
    out.mapped = timedMap(*mapper, motion, out.seconds, [&](std::size_t, const app::MethodMapper& m) {
      const WholeBodyReport& r = *m.wholeBodyReport();
      out.modes.emplace_back(supportModeName(r.mode));
      out.balance_held_frames += r.balance_held ? 1 : 0;
    });
  } else {
    out.mapped = timedMap(*mapper, motion, out.seconds);
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

FrameMapper makeFrameMapper(const MethodSetup& setup, const RobotModel<double>& model, const BvhMotion* hierarchy) {
  checkMethodApplies(setup, model);
  const app::Method& method = methodOf(setup);
  if (method.reads_channels && hierarchy == nullptr) {
    throw UsageError("--method " + setup.method + " needs a BVH source");
  }
  std::shared_ptr<app::MethodMapper> mapper = method.make(model, setup, hierarchy);
  FrameMapper out;
  if (method.reads_channels) {
    out.map_channels = [m = mapper.get()](const Eigen::VectorXd& values, Eigen::Ref<Eigen::VectorXd> q) {
      return m->mapChannels(values, q);
    };
  } else {
    out.map_skeleton = [m = mapper.get()](const SkeletonFrame<double>& frame, Eigen::Ref<Eigen::VectorXd> q) {
      return m->map(frame, q);
    };
  }
  out.owner = std::move(mapper);
  return out;
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
