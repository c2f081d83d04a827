// The automatic humanoid binding on the command line (robots/humanoid_binding.hpp): printed by
// `retarget info robot.urdf`, written as a robot schema by `retarget schema suggest robot.urdf`.
#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/robot_skeleton.hpp>

namespace retarget::cli {

/// Binds `model`, with the pins of the robot schema file `schema_path` when it is not empty
/// (JSON, json/humanoid_binding.hpp). Throws ParseError for a bad schema file, InvalidArgument
/// for a pin the robot does not have.
HumanoidBinding bindRobot(const RobotModel<double>& model, const std::string& schema_path = "");

/// The humanoid mapper on `model` through its automatic binding (pinned by `schema_path` when not
/// empty), with the options of the JSON file `config_path` (json/humanoid_mapper.hpp; the library's
/// defaults when empty). `model` must outlive the mapper. Throws ParseError for a bad file and
/// UsageError starting with `what` when the robot does not bind (pointing to `retarget info
/// --robot ROBOT` when `robot`, the user's --robot value, is given) or the file's `rest` does not
/// fit it.
std::unique_ptr<HumanoidMapper<double>> makeHumanoidMapper(const RobotModel<double>& model, const std::string& schema_path,
                                                           const std::string& config_path, const std::string& what,
                                                           const std::string& robot = "");

/// The virtual skeleton the metrics read on `model` (robots/robot_skeleton.hpp
/// virtualSkeletonMapFor), with the pins of the robot schema `schema_path` when given.
std::optional<VirtualSkeletonMap> robotSkeletonMap(const RobotModel<double>& model,
                                                   const std::string& schema_path = "");

/// The binding as text: axes, torso and pelvis, one line per limb (its joints), the points, what
/// is missing and the notes.
void printHumanoidBinding(std::ostream& out, const RobotModel<double>& model, const HumanoidBinding& binding);

}  // namespace retarget::cli
