// Robot loading for the command line: built-in models by name, or URDF / MJCF files.
#include "robot_loading.hpp"

#include <filesystem>
#include <iostream>

#include <retarget/core/internal/text.hpp>
#include <retarget/io/robot_file.hpp>
#include <retarget/robots/builtin.hpp>

#include "cli.hpp"

namespace retarget::cli {

namespace {

bool endsWithIgnoringCase(const std::string& text, const std::string& lower_suffix) {
  if (text.size() < lower_suffix.size()) return false;
  const std::size_t start = text.size() - lower_suffix.size();
  for (std::size_t i = 0; i < lower_suffix.size(); ++i) {
    if (retarget::internal::toLowerAscii(text[start + i]) != lower_suffix[i]) return false;
  }
  return true;
}

}  // namespace

bool hasRobotFileSuffix(const std::string& path) {
  return endsWithIgnoringCase(path, ".urdf") || endsWithIgnoringCase(path, ".xml");
}

bool isUrdfPath(const std::string& name_or_path) {
  if (endsWithIgnoringCase(name_or_path, ".urdf")) return true;
  std::error_code error;
  return std::filesystem::is_regular_file(name_or_path, error);
}

retarget::RobotModel<double> loadRobot(const std::string& name_or_path, std::vector<std::string>& warnings) {
  if (isUrdfPath(name_or_path)) {
    auto result = retarget::loadRobotFile<double>(name_or_path);  // URDF or MJCF, by root element
    warnings = std::move(result.warnings);
    return std::move(result.model);
  }
  warnings.clear();
  try {
    return retarget::makeBuiltinRobot<double>(name_or_path);
  } catch (const retarget::InvalidArgument& e) {
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
