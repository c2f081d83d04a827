// `retarget map <motion> --robot <name|file.urdf> --method <method> [--config file.json]
//  [--smooth ALPHA] [--max-joint-speed RAD_S] -o <angles.csv>`: any method, then the filters.
#include <iostream>

#include "cli.hpp"

namespace retarget::cli {
namespace {

const bool kRegistered = registerCommand(Command{
    "map", "Map a human motion onto a robot with one method and write joint angles (CSV)",
    [](CLI::App& command) {
      auto request = std::make_shared<MapRequest>();
      command.add_option("motion", request->motion_path, "motion file (BVH, Kinect CSV/TXT, skeleton CSV, ...)")
          ->required();
      command.add_option("--robot", request->robot, "built-in robot name or URDF file")->required();
      command.add_option("--method", request->method, "mapping method")->required();
      command.add_option("--config", request->config_path, "method configuration file");
      command.add_option("-o,--output", request->output_path, "joint-angle CSV to write")->required();
      command
          .add_option("--smooth", request->smooth,
                      "exponential smoothing after the mapper: weight of the new frame, in (0, 1] (0: off)")
          ->check(CLI::Range(0.0, 1.0));
      command.add_option("--max-joint-speed", request->max_joint_speed,
                         "rate limit after the mapper, rad/s per joint (0: off)")
          ->check(CLI::NonNegativeNumber);
      command.callback([request] {
        const auto it = mapMethods().find(request->method);
        if (it == mapMethods().end()) {
          std::string known;
          for (const auto& [name, method] : mapMethods()) known += (known.empty() ? "" : ", ") + name;
          throw UsageError("map: unknown method '" + request->method + "' (known: " + known + ")");
        }
        it->second.run(*request);
      });
    }});

}  // namespace
}  // namespace retarget::cli
