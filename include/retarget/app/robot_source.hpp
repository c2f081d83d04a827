#pragma once

/// @file
/// A robot by name or by file, for every front end (the command line's --robot, Python's
/// `Robot(...)`): a built-in model by name (nao, pepper, inmoov, tangy, baxter, yumi, g1, h1;
/// robots/builtin.hpp) or a URDF or MJCF file (io/robot_file.hpp, told apart by the root element).
/// Part of the application layer (include/retarget/app/), outside retarget/retarget.hpp; needs
/// tinyxml2 (CMake target retarget::urdf). `loadRobotSource` is a template
/// (RETARGET_ALWAYS_LAZY_DECL, core/compilation.hpp): the readers and the built-in models it
/// instantiates are compiled where a front end calls it.

#include <filesystem>
#include <string>
#include <system_error>

#include <retarget/core/compilation.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/io/robot_file.hpp>
#include <retarget/robots/builtin.hpp>

namespace retarget::app {

/// True when `text` ends with `lower_suffix` (given in lower case), ignoring ASCII case.
inline bool endsWithIgnoringCase(const std::string& text, const std::string& lower_suffix) {
  if (text.size() < lower_suffix.size()) return false;
  const std::size_t start = text.size() - lower_suffix.size();
  for (std::size_t i = 0; i < lower_suffix.size(); ++i) {
    if (retarget::internal::toLowerAscii(text[start + i]) != lower_suffix[i]) return false;
  }
  return true;
}

/// True when `name_or_path` names a robot file rather than a built-in robot: it ends in ".urdf"
/// (any case) or is an existing regular file (URDF or MJCF, told apart when read).
inline bool isRobotFile(const std::string& name_or_path) {
  if (endsWithIgnoringCase(name_or_path, ".urdf")) return true;
  std::error_code error;
  return std::filesystem::is_regular_file(name_or_path, error);
}

/// The robot `name_or_path` names: a robot file (isRobotFile) read by loadRobotFile, with its
/// warnings (e.g. swapped URDF limits), else a built-in model by name (case-insensitive; no
/// warnings). Throws ParseError for a bad file, InvalidArgument listing the built-in names for an
/// unknown name.
RETARGET_ALWAYS_LAZY_DECL RobotFile<double> loadRobotSource(const std::string& name_or_path) {
  if (isRobotFile(name_or_path)) return loadRobotFile<double>(name_or_path);
  RobotFile<double> out;
  out.model = makeBuiltinRobot<double>(name_or_path);
  return out;
}

}  // namespace retarget::app
