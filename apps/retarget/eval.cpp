// `retarget eval <motion> <angles.csv> --robot <name|file.urdf> [--metrics list] [--json]`.
#include <iostream>

#include "cli.hpp"

namespace retarget::cli {
namespace {

const bool kRegistered = registerCommand(Command{
    "eval", "Measure how well robot joint angles imitate a human motion",
    [](CLI::App& command) {
      auto request = std::make_shared<EvalRequest>();
      command.add_option("motion", request->motion_path, "the human motion that was mapped")->required();
      command.add_option("angles", request->angles_path, "robot joint-angle CSV (time,<joints...>)")->required();
      command.add_option("--robot", request->robot, "built-in robot name or URDF file")->required();
      command.add_option("--config", request->config_path, "method configuration file (when the metric needs it)");
      command.add_option("--metrics", request->metrics, "metric families (comma separated)")->delimiter(',');
      command.add_flag("--json", request->json, "print JSON");
      command.callback([request] {
        std::vector<const EvalMetrics*> selected;
        if (request->metrics.empty()) {
          for (const auto& [name, metrics] : evalMetrics()) {
            if (metrics.is_default) selected.push_back(&metrics);
          }
        } else {
          for (const auto& name : request->metrics) {
            const auto it = evalMetrics().find(name);
            if (it == evalMetrics().end()) {
              std::string known;
              for (const auto& [n, m] : evalMetrics()) known += (known.empty() ? "" : ", ") + n;
              throw UsageError("eval: unknown metrics '" + name + "' (known: " + known + ")");
            }
            selected.push_back(&it->second);
          }
        }
        if (selected.empty()) throw UsageError("eval: no metrics selected");
        if (request->json && selected.size() > 1) {
          throw UsageError("eval: --json prints one metric family at a time; pass a single --metrics name");
        }
        for (const EvalMetrics* metrics : selected) metrics->run(*request);
      });
    }});

}  // namespace
}  // namespace retarget::cli
