// Robot loading for the command line: built-in models by name, or URDF / MJCF files.
#include "robot_loading.hpp"

#include <iostream>

#include <retarget/app/robot_source.hpp>

#include "cli.hpp"

namespace retarget::cli {

bool hasRobotFileSuffix(const std::string& path) {
  return app::endsWithIgnoringCase(path, ".urdf") || app::endsWithIgnoringCase(path, ".xml");
}

bool isUrdfPath(const std::string& name_or_path) { return app::isRobotFile(name_or_path); }

retarget::RobotModel<double> loadRobot(const std::string& name_or_path, std::vector<std::string>& warnings) {
  const bool file = app::isRobotFile(name_or_path);
  try {
    RobotFile<double> robot = app::loadRobotSource(name_or_path);
    warnings = std::move(robot.warnings);
    return std::move(robot.model);
  } catch (const retarget::InvalidArgument& e) {
    if (file) throw;
    // Not a built-in name and not a robot file: the command line is wrong (exit code 2).
    throw UsageError(e.what());
  }
}

retarget::RobotModel<double> loadRobot(const std::string& name_or_path) {
  std::vector<std::string> warnings;
  auto model = loadRobot(name_or_path, warnings);
  for (const auto& warning : warnings) std::cerr << "retarget: warning: " << warning << "\n";
  return model;
}

}  // namespace retarget::cli
