// `retarget info <file>`: describes a motion file or a robot, through the registered handlers.
#include <iostream>

#include "cli.hpp"

namespace retarget::cli {
namespace {

struct InfoOptions {
  std::string path;
  std::string robot;
};

const bool kInfoRegistered = registerCommand(Command{
    "info", "Describe a motion file (BVH, Kinect, skeleton CSV, ...), a URDF, or a built-in robot",
    [](CLI::App& command) {
      auto options = std::make_shared<InfoOptions>();
      command.add_option("file", options->path, "motion or URDF file");
      command.add_option("--robot", options->robot,
                         "built-in robot name (nao, pepper, inmoov, tangy, baxter, yumi, g1, h1)");
      command.callback([options] {
        if (options->path.empty() == options->robot.empty()) {
          throw UsageError("info: give either a file or --robot <name>");
        }
        const std::string target = options->path.empty() ? "robot:" + options->robot : options->path;
        for (const InfoHandler& handler : infoHandlers()) {
          if (handler.accepts(target)) {
            handler.describe(target);
            return;
          }
        }
        throw UsageError("info: no handler knows '" + target + "' (unknown file extension or robot name)");
      });
    }});

}  // namespace
}  // namespace retarget::cli
