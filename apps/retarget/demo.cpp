// `retarget demo <name> -o <out.csv> [--rate Hz] [--duration s] [--height m]`: write a
// generated demo motion (human/demo_motions.hpp) as skeleton CSV.
#include <iostream>
#include <memory>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/skeleton_csv.hpp>

#include "cli.hpp"

namespace retarget::cli {
namespace {

struct DemoOptions {
  std::string name;
  std::string output;
  bool list = false;
  DemoMotionOptions motion{};
};

std::string knownNames() {
  std::string known;
  for (const std::string& n : demoMotionNames()) known += (known.empty() ? "" : ", ") + n;
  return known;
}

const bool kDemoRegistered = registerCommand(Command{
    "demo", "Write a generated demo motion (" + knownNames() + ") as skeleton CSV",
    [](CLI::App& command) {
      auto options = std::make_shared<DemoOptions>();
      command.add_option("name", options->name, "demo motion: " + knownNames());
      command.add_option("-o,--output", options->output, "skeleton CSV to write");
      command.add_option("--rate", options->motion.rate, "frame rate in Hz (1 ... 1000)")->capture_default_str();
      command.add_option("--duration", options->motion.duration, "duration in s (0 ... 3600)")->capture_default_str();
      command.add_option("--height", options->motion.body_height, "body height in m (0.5 ... 2.5)")->capture_default_str();
      command.add_flag("--list", options->list, "list the demo motions and exit");
      command.callback([options] {
        if (options->list) {
          for (const std::string& n : demoMotionNames()) std::cout << n << "\n";
          return;
        }
        if (options->name.empty() || options->output.empty()) {
          throw UsageError("demo: give a motion name and -o <out.csv> (motions: " + knownNames() + ")");
        }
        const auto& names = demoMotionNames();
        if (std::find(names.begin(), names.end(), options->name) == names.end()) {
          throw UsageError("demo: unknown motion '" + options->name + "' (expected one of: " + knownNames() + ")");
        }
        SkeletonMotion<double> motion;
        try {
          motion = demoMotion(options->name, options->motion);
        } catch (const InvalidArgument& e) {
          throw UsageError(std::string("demo: ") + e.what());
        }
        writeSkeletonCsv(motion, options->output);
        std::cout << "wrote " << options->output << ": demo '" << options->name << "', " << motion.size()
                  << " frames at " << motion.frame_rate << " Hz (" << motion.duration() << " s)\n";
      });
    }});

}  // namespace
}  // namespace retarget::cli
