#pragma once

/// @file
/// The built-in robot models by name: "nao", "pepper", "inmoov", "tangy", "baxter", "yumi",
/// "g1" (Unitree G1, 29 DOF) and "h1" (Unitree H1). Each model's own header states where its
/// numbers come from and what was estimated.

#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/baxter.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/tangy.hpp>
#include <retarget/robots/unitree_g1.hpp>
#include <retarget/robots/unitree_h1.hpp>
#include <retarget/robots/yumi.hpp>

namespace retarget {

/// Names accepted by makeBuiltinRobot, in a fixed order (it also accepts the aliases
/// "unitree_g1" and "unitree_h1", which are not listed).
RETARGET_DECL std::vector<std::string> builtinRobotNames();

/// Builds the built-in model called `name` (ASCII case-insensitive: "NAO" works too; "unitree_g1"
/// and "unitree_h1" are aliases of "g1" and "h1").
/// Throws InvalidArgument listing the known names when `name` is not one of them.
template <typename Scalar = double>
RobotModel<Scalar> makeBuiltinRobot(const std::string& name) {
  std::string key;
  for (const char c : name) key += internal::toLowerAscii(c);
  if (key == "nao") return makeNao<Scalar>();
  if (key == "pepper") return makePepper<Scalar>();
  if (key == "inmoov") return makeInMoov<Scalar>();
  if (key == "tangy") return makeTangy<Scalar>();
  if (key == "baxter") return makeBaxter<Scalar>();
  if (key == "yumi") return makeYumi<Scalar>();
  if (key == "g1" || key == "unitree_g1") return makeUnitreeG1<Scalar>();
  if (key == "h1" || key == "unitree_h1") return makeUnitreeH1<Scalar>();
  std::string known;
  for (const auto& candidate : builtinRobotNames()) known += (known.empty() ? "" : ", ") + candidate;
  RETARGET_THROW_UNLESS(false, InvalidArgument, "unknown built-in robot '", name, "' (expected one of: ", known, ")");
  return {};
}

#if RETARGET_DEFINE_ROBOTS

RETARGET_DECL std::vector<std::string> builtinRobotNames() {
  return {"nao", "pepper", "inmoov", "tangy", "baxter", "yumi", "g1", "h1"};
}

#endif  // RETARGET_DEFINE_ROBOTS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS RobotModel<double> makeBuiltinRobot<double>(const std::string&);
RETARGET_TEMPLATE_ROBOTS RobotModel<float> makeBuiltinRobot<float>(const std::string&);
#endif

}  // namespace retarget
