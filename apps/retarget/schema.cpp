// `retarget schema suggest <file.bvh> [--scale M] [--frame "forward=+Z left=+X up=+Y"] [--name N]`:
// binds the BVH hierarchy automatically (human/rig_binding.hpp) and writes the binding as a schema
// file in the text format of human/schema.hpp, with what was guessed as comments, for the user to
// edit and pass back. A built-in rig prints its built-in schema.
// `retarget schema suggest <file.urdf|file.xml>`: the automatic humanoid binding of a URDF or MuJoCo
// MJCF robot (robot_binding.hpp) as a robot schema (JSON, json/humanoid_binding.hpp) on standard output, the binding as text on
// standard error; `--robot-schema FILE` starts from an edited schema's pins.
#include <iostream>
#include <memory>
#include <string>

#include <retarget/human/rig_binding.hpp>
#include <retarget/human/schema.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>

#include <retarget/json/humanoid_binding.hpp>

#include "cli.hpp"
#include "robot_binding.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {

/// Binding options from --scale / --frame (shared with `retarget info`): the frame is the schema
/// text's "forward=<axis> left=<axis> up=<axis>". Throws UsageError on a bad value.
RigBindingOptions rigBindingOptions(double scale, const std::string& frame) {
  RigBindingOptions options;
  if (scale != 0) {
    if (!(scale > 0)) throw UsageError("--scale must be > 0 metres per file unit (got " + std::to_string(scale) + ")");
    options.scale = scale;
  }
  if (!frame.empty()) {
    try {
      options.R_WS = parseSchema("name: frame\nframe: " + frame + "\n", "--frame").R_WS;
    } catch (const Error& e) {
      throw UsageError(std::string("--frame: ") + e.what());
    }
  }
  return options;
}

namespace {

struct SuggestOptions {
  std::string path;
  std::string name = "auto";
  std::string frame;
  double scale = 0;
  std::string robot_schema;
};

void suggestRobot(const SuggestOptions& options) {
  const RobotModel<double> model = loadRobot(options.path);
  HumanoidBinding binding;
  try {
    binding = bindRobot(model, options.robot_schema);
  } catch (const InvalidArgument& e) {
    throw ParseError(options.robot_schema.empty() ? options.path : options.robot_schema, 0, e.what());
  }
  // The binding for the eye on standard error; the schema alone on standard output.
  printHumanoidBinding(std::cerr, model, binding);
  std::cout << toJson(humanoidSchema(binding)).dump(2) << "\n";
}

void suggest(const SuggestOptions& options) {
  if (!options.robot_schema.empty() && !hasRobotFileSuffix(options.path)) {
    throw UsageError("--robot-schema applies to a robot file, .urdf or MJCF .xml (got '" + options.path + "')");
  }
  if (hasRobotFileSuffix(options.path)) {
    suggestRobot(options);
    return;
  }
  const BvhMotion motion = readBvh(options.path);
  if (options.frame.empty() && options.scale == 0) {
    if (const SkeletonSchema* schema = detectSchema(motion)) {
      std::cout << "# " << options.path << ": built-in schema '" << schema->name << "' (used automatically)\n"
                << formatSchema(*schema);
      return;
    }
  }
  RigBindingOptions binding_options = rigBindingOptions(options.scale, options.frame);
  binding_options.name = options.name;
  binding_options.refuse_implausible = false;  // a suggestion to edit: the problems become comments
  RigBinding binding;
  try {
    binding = bindRig(motion, binding_options);
  } catch (const InvalidArgument& e) {
    throw ParseError(options.path, 0, e.what());
  }
  std::cout << "# Suggested by `retarget schema suggest` for " << options.path << "\n"
            << "# Automatic rig binding, confidence " << fixed(binding.confidence, 2)
            << " (1: names and structure agree). Edit and use it as a schema file.\n";
  for (const std::string& guess : binding.guesses) std::cout << "# guessed: " << guess << "\n";
  for (const std::string& problem : binding.problems) {
    std::cout << "# WARNING, the automatic binding refuses this rig: " << problem << "\n";
  }
  std::cout << formatSchema(binding.schema);
}

const bool kSchemaRegistered = registerCommand(Command{
    "schema", "Skeleton schemas: `schema suggest <file.bvh>` writes the automatic rig binding as a schema file, "
    "`schema suggest <file.urdf|file.xml>` the automatic robot binding (URDF or MJCF) as a robot schema (JSON)",
    [](CLI::App& command) {
      command.require_subcommand(1);
      CLI::App* sub = command.add_subcommand("suggest", "Bind a BVH rig (or a URDF or MJCF robot) automatically and print it as a schema file");
      auto options = std::make_shared<SuggestOptions>();
      sub->add_option("file", options->path, "BVH file, or robot file: URDF (.urdf) or MuJoCo MJCF (.xml) (robot schema, JSON)")->required();
      sub->add_option("--name", options->name, "schema name (default auto)");
      sub->add_option("--scale", options->scale, "metres per file unit (default: guessed from the body height)");
      sub->add_option("--frame", options->frame,
                      "file axes as \"forward=<axis> left=<axis> up=<axis>\", e.g. \"forward=+Z left=+X up=+Y\" "
                      "(default: guessed from the rest pose)");
      sub->add_option("--robot-schema", options->robot_schema,
                      "robot files only: a robot schema (JSON) whose pins the binding starts from; prints the result");
      sub->callback([options] { suggest(*options); });
    }});

}  // namespace
}  // namespace retarget::cli
