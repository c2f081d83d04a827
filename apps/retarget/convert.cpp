// `retarget convert <in> -o <out.csv|out.bvh>`: any supported human motion to skeleton CSV
// (global joint positions in the canonical frame), or BVH to BVH.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <memory>

#include <retarget/io/bvh.hpp>
#include <retarget/io/skeleton_csv.hpp>

#include "cli.hpp"
#include "motion_loading.hpp"

namespace retarget::cli {
namespace {

struct ConvertOptions {
  std::string input;
  std::string output;
  bool no_states = false;
};

const bool kConvertRegistered = registerCommand(Command{
    "convert", "Convert a human motion (BVH, Kinect CSV/TXT, NTU .skeleton, keypoint CSV, ...) to skeleton CSV or BVH",
    [](CLI::App& command) {
      auto options = std::make_shared<ConvertOptions>();
      command.add_option("input", options->input, "motion file to read")->required();
      command.add_option("-o,--output", options->output, "file to write: .csv (skeleton CSV) or .bvh")->required();
      command.add_flag("--no-states", options->no_states, "omit the <Joint>.state and hand-state columns");
      command.callback([options] {
        const std::string extension = lowerExtension(options->output);
        if (extension == ".bvh") {
          if (detectMotionFile(options->input) != MotionFileKind::kBvh) {
            throw UsageError("convert: BVH output needs a BVH input ('" + options->input +
                             "' holds joint positions only, which carry no joint rotations); write .csv instead");
          }
          const BvhMotion motion = readBvh(options->input);
          writeBvh(motion, options->output);
          std::cout << "wrote " << options->output << ": " << motion.frame_count << " frames, "
                    << motion.jointCount() << " joints (BVH)\n";
          return;
        }
        if (extension != ".csv") {
          throw UsageError("convert: unsupported output '" + options->output + "' (expected .csv or .bvh)");
        }
        const SkeletonMotion<double> motion = loadMotion(options->input);
        SkeletonCsvWriteOptions write_options;
        write_options.tracking_states = write_options.hand_states = !options->no_states;
        writeSkeletonCsv(motion, options->output, write_options);
        std::cout << "wrote " << options->output << ": " << motion.size() << " frames, " << kHumanJointCount
                  << " joints" << (motion.extra_joint_names.empty() ? "" : " + " + std::to_string(motion.extra_joint_names.size()) + " extra")
                  << " (skeleton CSV, from " << motion.format << ")\n";
      });
    }});

}  // namespace
}  // namespace retarget::cli
