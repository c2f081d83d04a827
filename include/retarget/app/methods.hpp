#pragma once

/// @file
/// The table of mapping methods every front end reads: the command line's `map`, `batch`,
/// `compare`, `report` and `live`, and Python's `Mapper` and `methods()`. Per method: its name,
/// what it is, the robots it ships maps for, which optional settings it takes, why it does not
/// apply to a robot, and how it is built from the settings a front end collects. A method added
/// here is in every front end; docs/architecture.md shows an entry.
///
/// Every method is built as a `MethodMapper`: the mapper shape of mappers/mapper.hpp over
/// skeleton frames (so `mapMotion` takes it), whatever the mapper behind it. Channel methods
/// (Euler/BVH) read BVH channel frames instead (`takesChannels()`, `mapChannels`, `mapBvh`).
/// The per-frame calls are the mapper's own: no allocation, no exception.
///
/// The typed builders (`gaLvvjOptionsFrom`, `picOptionsFrom`, `makeHumanoidFromSettings`,
/// `makeGpdmFilter`, `eulerMapFor`, ...) are what the entries call; a front end that needs the
/// concrete mapper (to print what only it reports) calls them too, so it builds the same thing.
///
/// The builders that read a file or build a mapper, and the table, are function templates
/// (RETARGET_ALWAYS_LAZY_DECL, core/compilation.hpp), called as before: the mappers and readers
/// they use are compiled in the translation units that call them, not in every one that includes
/// this header. `methods()` keeps one table per program (its one specialization's static).
///
/// Part of the application layer (include/retarget/app/), outside retarget/retarget.hpp; needs
/// nlohmann-json (CMake target retarget::json) for the options files.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <retarget/app/method_settings.hpp>
#include <retarget/app/whole_body.hpp>
#include <retarget/app/whole_body_json.hpp>
#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/io/gpdm_model.hpp>
#include <retarget/json/euler_map.hpp>
#include <retarget/json/ga_lvvj.hpp>
#include <retarget/json/humanoid_binding.hpp>
#include <retarget/json/humanoid_mapper.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/robots/robot_skeleton.hpp>

namespace retarget::app {

struct Method;

/// One mapper of any method as the table builds it (see the file doc). Keeps a reference to the
/// model, which must outlive it. One per stream, as every mapper.
class MethodMapper {
 public:
  using Scalar = double;
  using Input = SkeletonFrame<double>;
  /// What it was built from: the table's entry.
  using Map = Method;
  using Options = MethodSettings;

  virtual ~MethodMapper() = default;
  MethodMapper(const MethodMapper&) = delete;
  MethodMapper& operator=(const MethodMapper&) = delete;

  /// The method's name (its entry's).
  const std::string& method() const noexcept { return method_; }
  const MethodSettings& options() const noexcept { return settings_; }
  virtual const RobotModel<double>& model() const noexcept = 0;
  /// True for a method of BVH channel frames (Euler/BVH): `map` then returns kInvalidInput.
  virtual bool takesChannels() const noexcept = 0;

  /// One skeleton frame (the mapper's `map`): `q_out` (size nq, rad).
  virtual Status map(const SkeletonFrame<double>& frame, Eigen::Ref<Eigen::VectorXd> q_out) noexcept = 0;
  /// One BVH frame's channel values (a channel method's `map`; kInvalidInput for the others).
  virtual Status mapChannels(const BvhChannelValues& values, Eigen::Ref<Eigen::VectorXd> q_out) noexcept = 0;
  virtual void reset() noexcept = 0;
  virtual const JointFlags& clamped() const noexcept = 0;
  virtual const JointFlags& held() const noexcept = 0;
  /// The values before the limits (rad): the mapper's `wanted()`, or its output where it reports none.
  virtual const Eigen::VectorXd& wanted() const noexcept = 0;
  /// The whole-body pipeline's report of the last frame, when built with `whole_body`; else null.
  virtual const WholeBodyReport* wholeBodyReport() const noexcept { return nullptr; }
  /// A whole BVH recording through a channel method (mapMotion). Throws InvalidArgument for a
  /// skeleton method.
  virtual MappedMotion<double> mapBvh(const BvhMotion& motion) = 0;

 protected:
  MethodMapper(std::string method, MethodSettings settings)
      : method_(std::move(method)), settings_(std::move(settings)) {}

 private:
  std::string method_;
  MethodSettings settings_;
};

/// One entry of the table.
struct Method {
  /// As the command line's --method takes it.
  std::string name;
  /// One line: what it is and where it comes from.
  std::string description;
  /// The robots it ships maps for (for help texts and refusals).
  std::string robots;
  /// The optional settings it takes, by their command-line names: "config", "whole-body",
  /// "trunk-lean" (the others are read by the methods they document and ignored elsewhere).
  std::vector<std::string> takes;
  /// It reads BVH channel frames (the BVH source's hierarchy is needed to build it), not skeleton frames.
  bool reads_channels = false;
  /// Why it does not apply to `model` with `settings` (its own reasons): empty when it does.
  std::function<std::string(const RobotModel<double>& model, const MethodSettings& settings)> refusal;
  /// Builds it on `model` (which must outlive it); `hierarchy` is the BVH source's, which a
  /// channel method needs (others ignore it). Throws retarget::Error for a bad file or setting.
  std::function<std::unique_ptr<MethodMapper>(const RobotModel<double>& model, const MethodSettings& settings,
                                              const BvhMotion* hierarchy)>
      make;
};

}  // namespace retarget::app

// Internals of the table, in the library's internal namespace (the command line opens
// retarget::app, so an app::internal would make `internal::` ambiguous there).
namespace retarget::internal {

template <typename M>
struct IsWholeBody : std::false_type {};
template <typename M>
struct IsWholeBody<WholeBody<M>> : std::true_type {};

// MethodMapper over a concrete mapper M.
template <typename M>
class AnyMapper final : public app::MethodMapper {
 public:
  static constexpr bool kChannels = std::is_same_v<typename M::Input, BvhChannelValues>;

  AnyMapper(std::unique_ptr<M> mapper, std::string method, app::MethodSettings settings)
      : app::MethodMapper(std::move(method), std::move(settings)),
        mapper_(std::move(mapper)),
        output_(Eigen::VectorXd::Zero(mapper_->model().nq())) {}

  const RobotModel<double>& model() const noexcept override { return mapper_->model(); }
  bool takesChannels() const noexcept override { return kChannels; }

  Status map(const SkeletonFrame<double>& frame, Eigen::Ref<Eigen::VectorXd> q_out) noexcept override {
    if constexpr (kChannels) {
      (void)frame;
      (void)q_out;
      return Status(StatusCode::kInvalidInput);
    } else {
      return keep(mapper_->map(frame, q_out), q_out);
    }
  }
  Status mapChannels(const BvhChannelValues& values, Eigen::Ref<Eigen::VectorXd> q_out) noexcept override {
    if constexpr (kChannels) {
      return keep(mapper_->map(values, q_out), q_out);
    } else {
      (void)values;
      (void)q_out;
      return Status(StatusCode::kInvalidInput);
    }
  }
  void reset() noexcept override { mapper_->reset(); }
  const JointFlags& clamped() const noexcept override { return mapper_->clamped(); }
  const JointFlags& held() const noexcept override { return mapper_->held(); }
  const Eigen::VectorXd& wanted() const noexcept override {
    if constexpr (reportsWanted<M>) {
      return mapper_->wanted();
    } else {
      return output_;
    }
  }
  const WholeBodyReport* wholeBodyReport() const noexcept override {
    if constexpr (IsWholeBody<M>::value) {
      return &mapper_->report();
    } else {
      return nullptr;
    }
  }
  MappedMotion<double> mapBvh(const BvhMotion& motion) override {
    if constexpr (kChannels) {
      return mapMotion(*mapper_, motion);
    } else {
      (void)motion;
      throw InvalidArgument("[retarget] method '" + method() +
                            "' maps skeleton frames, not BVH channels (map the motion's skeleton)");
    }
  }

 private:
  // The output, kept as `wanted()` for a mapper that reports none (its clamps then measure 0).
  Status keep(Status status, const Eigen::Ref<Eigen::VectorXd>& q_out) noexcept {
    if constexpr (!reportsWanted<M>) {
      if (q_out.size() == output_.size()) output_ = q_out;  // same size: no allocation
    }
    return status;
  }

  std::unique_ptr<M> mapper_;
  Eigen::VectorXd output_;
};

}  // namespace retarget::internal

namespace retarget::app {

/// `mapper` as a MethodMapper of the method `method` built with `settings`.
template <typename M>
std::unique_ptr<MethodMapper> anyMapper(std::unique_ptr<M> mapper, const std::string& method,
                                        const MethodSettings& settings) {
  return std::make_unique<internal::AnyMapper<M>>(std::move(mapper), method, settings);
}

// --- the typed builders the entries call (and front ends that need the concrete mapper)

/// GA-LVVJ's options: the config file's (defaults when none), the trunk lean on when asked.
RETARGET_ALWAYS_LAZY_DECL GaLvvjOptions gaLvvjOptionsFrom(const MethodSettings& settings) {
  GaLvvjOptions options =
      settings.config_path.empty() ? GaLvvjOptions{} : loadJson<GaLvvjOptions>(settings.config_path);
  if (settings.trunk_lean) options.trunk_lean = true;
  return options;
}

/// Seed 004's options for `algorithm` with the paper's input pipeline (smoothing alpha 0.5).
inline PicOptions picOptionsFrom(const MethodSettings& settings, PicAlgorithm algorithm) {
  PicOptions options;
  options.algorithm = algorithm;
  options.softening = settings.softening;
  options.soften_always = settings.soften_always;
  options.fabrik.final_octant_pass = settings.force_octants;
  options.smoothing_alpha = 0.5;
  return options;
}

/// The joint-space particle filter's options.
inline ParticleFilterOptions particleFilterOptionsFrom(const MethodSettings& settings) {
  ParticleFilterOptions options;
  if (settings.particles > 0) options.particles = settings.particles;
  if (settings.pf_noise > 0) options.noise = settings.pf_noise;
  options.seed = settings.seed;
  return options;
}

/// The binding of `model`, pinned by the settings' robot schema when given (ParseError for a bad
/// file, InvalidArgument for a pin the robot does not have).
RETARGET_ALWAYS_LAZY_DECL HumanoidBinding humanoidBindingFrom(const RobotModel<double>& model,
                                                              const MethodSettings& settings) {
  HumanoidBindingOptions pins;
  if (!settings.schema_path.empty()) pins = loadJson<HumanoidBindingOptions>(settings.schema_path);
  return bindHumanoid(model, pins);
}

/// The humanoid mapper's options: the settings' options file, else the library's defaults.
/// Throws ParseError for a bad file.
RETARGET_ALWAYS_LAZY_DECL HumanoidMapperOptions humanoidOptionsFrom(const MethodSettings& settings) {
  return settings.config_path.empty() ? HumanoidMapperOptions{} : loadJson<HumanoidMapperOptions>(settings.config_path);
}

/// The humanoid mapper on `model` (the settings' binding and options file). Throws
/// InvalidArgument when the robot does not bind.
RETARGET_ALWAYS_LAZY_DECL std::unique_ptr<HumanoidMapper<double>> makeHumanoidFromSettings(
    const RobotModel<double>& model, const MethodSettings& settings) {
  const HumanoidMapperOptions options = humanoidOptionsFrom(settings);
  return std::make_unique<HumanoidMapper<double>>(model, humanoidBindingFrom(model, settings), options);
}

/// What a .gpdm file says beside the model (for a front end's summary).
struct GpdmFileFacts {
  /// Seconds between two training frames (0: not recorded).
  double frame_period = 0.0;
  /// The fit threshold came from the training recordings (else the filter's min_similarity).
  bool threshold_from_training = false;
};

/// The GPDM particle filter on `model`: the settings' learned model, the robot's virtual
/// skeleton and, for the fallback, its GA-LVVJ map; `facts`, when given, receives what the file
/// says beside the model. Throws InvalidArgument without a model file or a virtual skeleton,
/// ParseError for a bad model file.
RETARGET_ALWAYS_LAZY_DECL std::unique_ptr<GpdmParticleFilter<double>> makeGpdmFilter(const RobotModel<double>& model,
                                                                                     const MethodSettings& settings,
                                                                                     GpdmFileFacts* facts = nullptr) {
  RETARGET_THROW_UNLESS(!settings.model_path.empty(), InvalidArgument,
                        "gpdm-pf needs a learned model (.gpdm; train one with: retarget learn gpdm)");
  const std::optional<VirtualSkeletonMap> skeleton = virtualSkeletonMapFor(model);
  const std::optional<GaLvvjMap> ga_lvvj = gaLvvjMapFor(model);
  RETARGET_THROW_UNLESS(skeleton && ga_lvvj, InvalidArgument, "no virtual skeleton (GA-LVVJ map) fits robot '",
                        model.name(), "' (NAO, Pepper)");
  GpdmModelFile file = loadGpdmModel(settings.model_path);
  if (facts != nullptr) *facts = GpdmFileFacts{file.frame_period, file.fit_threshold.has_value()};
  GpdmFilterMap map;
  map.motion_model = std::move(file.model);
  map.joints = std::move(file.joint_names);
  map.skeleton = *skeleton;
  map.fallback = *ga_lvvj;
  map.frame_period = file.frame_period;
  map.fit_threshold = file.fit_threshold;
  GpdmParticleFilterOptions options;
  if (settings.particles > 0) options.particles = settings.particles;
  options.seed = settings.seed;
  if (settings.fallback == "ga-lvvj") options.fallback = GpdmFallback::kGaLvvj;
  return std::make_unique<GpdmParticleFilter<double>>(model, std::move(map), options);
}

/// The Euler/BVH map for `hierarchy` onto `model`: the settings' file, else the InMoov's built-in
/// one for the skeleton (bound automatically for an unknown rig). Throws InvalidArgument for a
/// robot other than the InMoov without a file.
RETARGET_ALWAYS_LAZY_DECL EulerMap eulerMapFor(const RobotModel<double>& model, const MethodSettings& settings,
                                               const BvhMotion& hierarchy) {
  if (!settings.config_path.empty()) return loadEulerMap(settings.config_path);
  RETARGET_THROW_UNLESS(model.name() == "inmoov", InvalidArgument,
                        "built-in configurations exist for the InMoov only (got robot '", model.name(),
                        "'); pass --config <file.json>");
  return inmoovEulerMap(hierarchy);
}

/// The whole-body configurations of the settings' file (the defaults when none).
template <typename Config>
Config wholeBodyConfigFrom(const MethodSettings& settings) {
  return settings.config_path.empty() ? Config{} : loadJson<Config>(settings.config_path);
}

// --- the table

}  // namespace retarget::app

namespace retarget::internal {

using app::anyMapper;
using app::Method;
using app::MethodSettings;

inline std::string noMap(const char* what, const RobotModel<double>& model, const char* robots) {
  return std::string("no ") + what + " fits robot '" + model.name() + "' (" + robots + ")";
}

inline PicAlgorithm picAlgorithmOf(const std::string& name) {
  return name == "fabrik" ? PicAlgorithm::kFabrik : name == "pic" ? PicAlgorithm::kPic : PicAlgorithm::kPics;
}

// Seed 004's methods: one entry each, the same builder.
RETARGET_ALWAYS_LAZY_DECL Method picEntry(const char* name, const char* description) {
  const std::string method = name;
  return Method{method,
                description,
                "Baxter, YuMi, NAO, Pepper",
                {},
                false,
                [](const RobotModel<double>& model, const MethodSettings&) {
                  return picMapFor(model) ? std::string() : noMap("PIC map", model, "baxter, yumi, nao, pepper");
                },
                [method](const RobotModel<double>& model, const MethodSettings& settings, const BvhMotion*) {
                  return anyMapper(std::make_unique<PicMapper<double>>(
                                       model, *picMapFor(model), app::picOptionsFrom(settings, picAlgorithmOf(method))),
                                   method, settings);
                }};
}

inline std::string virtualSkeletonRefusal(const RobotModel<double>& model) {
  return gaLvvjMapFor(model) && virtualSkeletonMapFor(model)
             ? std::string()
             : noMap("virtual skeleton (GA-LVVJ map)", model, "NAO, Pepper");
}

}  // namespace retarget::internal

namespace retarget::app {

/// The methods in a fixed order (gpdm-pf before pf: a file name "wave_gpdm-pf.csv" names gpdm-pf).
RETARGET_ALWAYS_LAZY_DECL const std::vector<Method>& methods() {
  static const std::vector<Method> table = [] {
    std::vector<Method> t;
    t.push_back(Method{"ga-lvvj",
                       "GA-LVVJ analytic whole-body mapping from link vectors (seed 000, Section 3.2)",
                       "NAO whole body, Pepper arms and head",
                       {"config", "whole-body", "trunk-lean"},
                       false,
                       [](const RobotModel<double>& model, const MethodSettings& settings) {
                         const std::optional<GaLvvjMap> map = gaLvvjMapFor(model);
                         if (!map) return internal::noMap("GA-LVVJ map", model, "NAO, Pepper");
                         if (settings.trunk_lean && (map->foot_left.empty() || map->foot_right.empty())) {
                           return "the GA-LVVJ map of robot '" + model.name() +
                                  "' has no feet to lean on (NAO has; Pepper stands on a wheeled base)";
                         }
                         if (settings.whole_body && (model.findLink("l_sole") < 0 || model.findLink("r_sole") < 0)) {
                           return "robot '" + model.name() +
                                  "' has no sole frames l_sole / r_sole (GA-LVVJ's whole body stands on NAO's feet; "
                                  "humanoid:whole-body stands any bound humanoid on its soles)";
                         }
                         return std::string();
                       },
                       [](const RobotModel<double>& model, const MethodSettings& settings, const BvhMotion*) {
                         if (settings.whole_body) {
                           GaLvvjWholeBodyOptions options = wholeBodyConfigFrom<GaLvvjWholeBodyOptions>(settings);
                           if (settings.trunk_lean) options.ga_lvvj.trunk_lean = true;
                           return anyMapper(makeGaLvvjWholeBody(model, options), "ga-lvvj", settings);
                         }
                         return anyMapper(std::make_unique<GaLvvjMapper<double>>(model, *gaLvvjMapFor(model),
                                                                                 gaLvvjOptionsFrom(settings)),
                                          "ga-lvvj", settings);
                       }});
    t.push_back(Method{"humanoid",
                       "link directions of any bound humanoid by bounded least squares (beyond the papers)",
                       "G1, H1, any URDF or MJCF humanoid",
                       {"config", "whole-body"},
                       false,
                       [](const RobotModel<double>& model, const MethodSettings& settings) {
                         // Built once to see whether the robot binds (and, for the whole body, has soles).
                         try {
                           if (settings.whole_body) {
                             (void)humanoidBalanceFeet(model, humanoidBindingFrom(model, settings));
                           } else {
                             (void)makeHumanoidFromSettings(model, settings);
                           }
                         } catch (const InvalidArgument& e) {
                           return "robot '" + model.name() + "' does not bind as a humanoid (" + e.what() + ")";
                         }
                         return std::string();
                       },
                       [](const RobotModel<double>& model, const MethodSettings& settings, const BvhMotion*) {
                         if (settings.whole_body) {
                           return anyMapper(
                               makeHumanoidWholeBody(model, humanoidBindingFrom(model, settings),
                                                     wholeBodyConfigFrom<HumanoidWholeBodyOptions>(settings)),
                               "humanoid", settings);
                         }
                         return anyMapper(makeHumanoidFromSettings(model, settings), "humanoid", settings);
                       }});
    t.push_back(Method{"euler",
                       "Euler/BVH joint-angle mapping (seed 002, Section 4.2; BVH input)",
                       "InMoov (built in), any robot with a configuration file",
                       {"config"},
                       true,
                       [](const RobotModel<double>& model, const MethodSettings& settings) {
                         return settings.config_path.empty() && model.name() != "inmoov"
                                    ? "built-in configurations exist for the InMoov only (got robot '" + model.name() +
                                          "'); pass --config <file.json>"
                                    : std::string();
                       },
                       [](const RobotModel<double>& model, const MethodSettings& settings, const BvhMotion* hierarchy) {
                         RETARGET_THROW_UNLESS(hierarchy != nullptr, InvalidArgument,
                                               "euler reads BVH channels: needs the BVH source's hierarchy");
                         return anyMapper(std::make_unique<EulerMapper<double>>(
                                              model, *hierarchy, eulerMapFor(model, settings, *hierarchy)),
                                          "euler", settings);
                       }});
    t.push_back(Method{"triangle",
                       "triangle arm mapping (seed 001, Section 2.1)",
                       "Tangy, NAO arms, Pepper arms",
                       {},
                       false,
                       [](const RobotModel<double>& model, const MethodSettings&) {
                         return triangleMapFor(model) ? std::string()
                                                      : internal::noMap("triangle map", model, "Tangy, NAO, Pepper");
                       },
                       [](const RobotModel<double>& model, const MethodSettings& settings, const BvhMotion*) {
                         return anyMapper(std::make_unique<TriangleMapper<double>>(model, *triangleMapFor(model)),
                                          "triangle", settings);
                       }});
    t.push_back(
        internal::picEntry("fabrik", "FABRIK on the arm chain towards the placed human wrist (seed 004 baseline)"));
    t.push_back(internal::picEntry("pic", "PIC: FABRIK with the human's octant pose constraints (seed 004)"));
    t.push_back(internal::picEntry("pics", "PICs: PIC with constraint softening K (seed 004 Eq. 3)"));
    t.push_back(
        Method{"gpdm-pf",
               "particle filter in a learned GPDM's latent space (seed 003, Sections 6–7)",
               "NAO, Pepper",
               {},
               false,
               [](const RobotModel<double>& model, const MethodSettings& settings) {
                 const std::string refusal = internal::virtualSkeletonRefusal(model);
                 if (!refusal.empty()) return refusal;
                 return settings.model_path.empty()
                            ? std::string(
                                  "needs --model <file.gpdm> (gpdm-pf:model=<file> in a method spec, model_path= in "
                                  "Python; train one with: retarget learn gpdm)")
                            : std::string();
               },
               [](const RobotModel<double>& model, const MethodSettings& settings, const BvhMotion*) {
                 return anyMapper(makeGpdmFilter(model, settings), "gpdm-pf", settings);
               }});
    t.push_back(Method{
        "pf",
        "joint-space particle filter weighed by the cosine pose similarity (seed 003, Section 3)",
        "NAO, Pepper",
        {},
        false,
        [](const RobotModel<double>& model, const MethodSettings&) { return internal::virtualSkeletonRefusal(model); },
        [](const RobotModel<double>& model, const MethodSettings& settings, const BvhMotion*) {
          return anyMapper(std::make_unique<JointSpaceParticleFilter<double>>(model, *virtualSkeletonMapFor(model),
                                                                              particleFilterOptionsFrom(settings)),
                           "pf", settings);
        }});
    return t;
  }();
  return table;
}

/// The entry named `name`, or null.
RETARGET_ALWAYS_LAZY_DECL const Method* findMethod(const std::string& name) {
  for (const Method& m : methods()) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

/// The method names joined by `separator`.
RETARGET_ALWAYS_LAZY_DECL std::string methodNames(const std::string& separator) {
  std::string names;
  for (const Method& m : methods()) names += (names.empty() ? "" : separator) + m.name;
  return names;
}

/// Why method `name` with `settings` does not apply to `model`: an unknown name (listing the
/// known), a setting it does not take (naming the methods that do), or its own reason. Empty
/// when it applies.
RETARGET_ALWAYS_LAZY_DECL std::string methodRefusal(const std::string& name, const RobotModel<double>& model,
                                                    const MethodSettings& settings) {
  const Method* method = findMethod(name);
  if (method == nullptr) return "unknown method '" + name + "' (known: " + methodNames(", ") + ")";
  const std::pair<const char*, bool> asked[] = {{"whole-body", settings.whole_body},
                                                {"trunk-lean", settings.trunk_lean}};
  for (const auto& [setting, set] : asked) {
    bool taken = false;
    std::vector<std::string> takers;
    for (const Method& m : methods()) {
      const bool takes = std::find(m.takes.begin(), m.takes.end(), setting) != m.takes.end();
      if (takes) takers.push_back(m.name);
      if (takes && &m == method) taken = true;
    }
    if (!set || taken) continue;
    std::string list;
    for (std::size_t i = 0; i < takers.size(); ++i) {
      list += (i == 0 ? "" : i + 1 == takers.size() ? " and " : ", ") + takers[i];
    }
    return std::string(setting == std::string("whole-body") ? "the whole-body pipeline (whole-body)" : setting) +
           " goes with " + list + " only";
  }
  return method->refusal(model, settings);
}

/// Builds method `name` on `model` (which must outlive it) from `settings`; `hierarchy`: the BVH
/// source's, for a channel method. Throws InvalidArgument with `methodRefusal`'s reason when it
/// does not apply, retarget::Error for a bad file.
RETARGET_ALWAYS_LAZY_DECL std::unique_ptr<MethodMapper> makeMethodMapper(const std::string& name,
                                                                         const RobotModel<double>& model,
                                                                         const MethodSettings& settings,
                                                                         const BvhMotion* hierarchy = nullptr) {
  const std::string refusal = methodRefusal(name, model, settings);
  RETARGET_THROW_UNLESS(refusal.empty(), InvalidArgument, "method '", name, "': ", refusal);
  return findMethod(name)->make(model, settings, hierarchy);
}

}  // namespace retarget::app
