#pragma once

/// @file
/// One entry point for robot description files: URDF or MJCF (MuJoCo), told apart by their
/// root element, whatever the file's extension.
///
/// Optional part of retarget: needs tinyxml2 (CMake target `retarget::urdf`) and is never
/// included by the umbrella header retarget/retarget.hpp.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/io/mjcf.hpp>
#include <retarget/io/urdf.hpp>

namespace retarget {

/// Format of a robot description file.
enum class RobotFileFormat {
  kUrdf,  ///< Root element `<robot>` (and anything that is not MJCF: the URDF reader names it).
  kMjcf,  ///< Root element `<mujoco>`.
};

/// A robot read from a file of either format, with the reader's warnings.
template <typename Scalar = double>
struct RobotFile {
  RobotModel<Scalar> model;
  std::vector<std::string> warnings;
  RobotFileFormat format = RobotFileFormat::kUrdf;
  /// MJCF only: the body carrying the free joint (the model's root link), empty otherwise.
  std::string floating_base_body;
};

/// The format of an XML text: kMjcf when its first element is `<mujoco>`, else kUrdf. Skips
/// the XML declaration, comments and a DOCTYPE; reads nothing else.
inline RobotFileFormat robotFileFormat(std::string_view text) {
  std::size_t at = 0;
  while ((at = text.find('<', at)) != std::string_view::npos) {
    const std::string_view rest = text.substr(at);
    if (rest.substr(0, 4) == "<!--") {
      at = text.find("-->", at);
    } else if (rest.substr(0, 2) == "<?" || rest.substr(0, 2) == "<!") {
      at = text.find('>', at);
    } else {
      const std::string_view name = rest.substr(1, 6);
      const char after = rest.size() > 7 ? rest[7] : '\0';
      const bool ends = after == '>' || after == '/' || after == ' ' || after == '\t' || after == '\n' || after == '\r';
      return name == "mujoco" && ends ? RobotFileFormat::kMjcf : RobotFileFormat::kUrdf;
    }
    if (at == std::string_view::npos) break;
  }
  return RobotFileFormat::kUrdf;
}

/// Reads the URDF or MJCF file at `path` (see loadUrdf, loadMjcf). Throws ParseError (line 0)
/// when the file cannot be opened, and whatever the chosen reader throws.
template <typename Scalar = double>
RobotFile<Scalar> loadRobotFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ParseError(path.string(), 0, "cannot open robot description file");
  std::ostringstream text;
  text << in.rdbuf();
  RobotFile<Scalar> file;
  file.format = robotFileFormat(text.str());
  if (file.format == RobotFileFormat::kMjcf) {
    const std::filesystem::path directory = path.parent_path();
    MjcfResult<Scalar> result =
        parseMjcf<Scalar>(text.str(), path.string(), directory.empty() ? std::filesystem::path(".") : directory);
    file.model = std::move(result.model);
    file.warnings = std::move(result.warnings);
    file.floating_base_body = std::move(result.floating_base_body);
  } else {
    UrdfResult<Scalar> result = parseUrdf<Scalar>(text.str(), path.string());
    file.model = std::move(result.model);
    file.warnings = std::move(result.warnings);
  }
  return file;
}

}  // namespace retarget
