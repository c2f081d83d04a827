#pragma once

// Loading a robot for the `retarget` subcommands (map, eval, info, ...): a built-in model by
// name (nao, pepper, inmoov, tangy, baxter, yumi, g1, h1) or a URDF or MJCF file.

#include <string>
#include <vector>

#include <retarget/kinematics/robot_model.hpp>

namespace retarget::cli {

/// True when `name_or_path` names a robot file (ends in ".urdf", any case, or is an existing
/// regular file: URDF or MJCF, told apart by the root element) rather than a built-in robot.
bool isUrdfPath(const std::string& name_or_path);

/// True when `path` is named as a robot file: ".urdf" or ".xml" (MJCF, or a URDF so named), any
/// case. The name alone: what the file holds is told by loadRobot.
bool hasRobotFileSuffix(const std::string& path);

/// Loads a built-in robot by name (case-insensitive) or a URDF or MJCF file
/// (retarget::loadRobotFile). The reader's warnings (e.g. swapped URDF limits) are printed to
/// stderr, one "retarget: warning: ..." line each. Throws retarget::ParseError for a bad file and retarget::InvalidArgument (listing the built-in
/// names) for an unknown name.
retarget::RobotModel<double> loadRobot(const std::string& name_or_path);

/// Like loadRobot, but returns the reader's warnings in `warnings` instead of printing them.
retarget::RobotModel<double> loadRobot(const std::string& name_or_path, std::vector<std::string>& warnings);

}  // namespace retarget::cli
