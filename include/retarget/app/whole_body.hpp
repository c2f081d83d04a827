#pragma once

/// @file
/// The whole-body pipelines the front ends build (`retarget map --whole-body`, batch, compare,
/// live; Python's `WholeBodyPipeline` and `HumanoidWholeBody`): the whole-body stage of
/// control/whole_body.hpp after a mapper, with the mapper's options and the stage's in one
/// configuration each, and the feet each robot stands on.
///
/// - GA-LVVJ (the paper's): on a robot with a built-in GA-LVVJ map and NAO's sole frames
///   l_sole / r_sole, standing on `naoBalanceFeet()`; GA-LVVJ leans the trunk by default here.
/// - The humanoid mapper (beyond the paper): on any humanoid the automatic binding understands
///   (G1, H1, T1, a URDF or MJCF), standing on the feet of its soles (control/humanoid_feet.hpp).
///
/// Both builders are function templates (RETARGET_ALWAYS_LAZY_DECL, core/compilation.hpp), called
/// as before: the pipelines are compiled where a program builds one, not wherever this is included.
///
/// Part of the application layer (include/retarget/app/), outside retarget/retarget.hpp; the JSON
/// form of both configurations is app/whole_body_json.hpp.

#include <memory>
#include <optional>
#include <string>

#include <retarget/control/balance.hpp>
#include <retarget/control/humanoid_feet.hpp>
#include <retarget/control/whole_body.hpp>
#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/robots/humanoid_binding.hpp>

namespace retarget::app {

/// The whole body after GA-LVVJ.
using GaLvvjWholeBody = WholeBody<GaLvvjMapper<double>>;
/// The whole body after the humanoid mapper.
using HumanoidWholeBody = WholeBody<HumanoidMapper<double>>;

/// GA-LVVJ's options and the whole-body stage's (a validated aggregate).
struct GaLvvjWholeBodyOptions {
  /// GA-LVVJ leans the robot's trunk with the human's here (`wholeBodyGaLvvjOptions`).
  GaLvvjOptions ga_lvvj = wholeBodyGaLvvjOptions();
  WholeBodyOptions whole_body{};

  void validate() const {
    ga_lvvj.validate();
    whole_body.validate();
  }
};

/// The humanoid mapper's options and the whole-body stage's (a validated aggregate).
struct HumanoidWholeBodyOptions {
  HumanoidMapperOptions humanoid{};
  WholeBodyOptions whole_body{};

  void validate() const {
    humanoid.validate();
    whole_body.validate();
  }
};

/// GA-LVVJ's whole body on `model` (which must outlive it): its built-in GA-LVVJ map and NAO's
/// feet. Throws InvalidArgument when the model has no GA-LVVJ map or no sole frames l_sole /
/// r_sole (naming the robot), or for invalid options.
RETARGET_ALWAYS_LAZY_DECL std::unique_ptr<GaLvvjWholeBody> makeGaLvvjWholeBody(
    const RobotModel<double>& model, const GaLvvjWholeBodyOptions& options = {}) {
  const std::optional<GaLvvjMap> map = gaLvvjMapFor(model);
  RETARGET_THROW_UNLESS(map.has_value(), InvalidArgument, "robot '", model.name(),
                        "' has no GA-LVVJ map (built-in: NAO, Pepper)");
  RETARGET_THROW_UNLESS(model.findLink("l_sole") >= 0 && model.findLink("r_sole") >= 0, InvalidArgument, "robot '",
                        model.name(),
                        "' has no sole frames l_sole / r_sole (GA-LVVJ's whole body stands on NAO's feet)");
  options.validate();
  return std::make_unique<GaLvvjWholeBody>(model, GaLvvjMapper<double>(model, *map, options.ga_lvvj), naoBalanceFeet(),
                                           options.whole_body);
}

/// The humanoid mapper's whole body on `model` (which must outlive it) through `binding`,
/// standing on the feet of its soles (humanoidBalanceFeet). Throws InvalidArgument when the
/// binding lacks a leg or a sole (naming the robot and the foot), or for invalid options.
RETARGET_ALWAYS_LAZY_DECL std::unique_ptr<HumanoidWholeBody> makeHumanoidWholeBody(
    const RobotModel<double>& model, const HumanoidBinding& binding, const HumanoidWholeBodyOptions& options = {}) {
  options.validate();
  BalanceFeet feet = humanoidBalanceFeet(model, binding);
  return std::make_unique<HumanoidWholeBody>(model, HumanoidMapper<double>(model, binding, options.humanoid),
                                             std::move(feet), options.whole_body);
}

}  // namespace retarget::app
