// `retarget eval <motion> <angles.csv> --robot <name|file.urdf> [--metrics list] [--json]`.
// Without --metrics, every default family that applies to the robot runs (similarity for the
// robots with a virtual skeleton, collision for those with collision shapes). With --json and
// several families, their reports are merged into one object: the common head once, "metric"
// the list of families, then each family's own keys.
#include <iostream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

// Runs `metrics` with its report written to a string instead of standard output.
std::string captureReport(const EvalMetrics& metrics, const EvalRequest& request) {
  std::ostringstream text;
  std::streambuf* const console = std::cout.rdbuf(text.rdbuf());
  try {
    metrics.run(request);
  } catch (...) {
    std::cout.rdbuf(console);
    throw;
  }
  std::cout.rdbuf(console);
  return text.str();
}

void runMerged(const std::vector<const EvalMetrics*>& selected, const EvalRequest& request) {
  nlohmann::ordered_json merged;
  nlohmann::ordered_json names = nlohmann::ordered_json::array();
  for (const EvalMetrics* metrics : selected) {
    const nlohmann::ordered_json report = nlohmann::ordered_json::parse(captureReport(*metrics, request));
    names.push_back(metrics->name);
    for (const auto& [key, value] : report.items()) {
      if (key == "metric") continue;
      if (merged.contains(key) && merged[key] != value) {
        throw std::logic_error("eval: families '" + names[0].get<std::string>() + "' and '" + metrics->name +
                               "' both report '" + key + "' with different values");
      }
      merged[key] = value;
    }
  }
  nlohmann::ordered_json out;
  out["metric"] = names;
  for (const auto& [key, value] : merged.items()) out[key] = value;
  std::cout << out.dump(2) << "\n";
}

const bool kEvalRegistered = registerCommand(Command{
    "eval", "Measure how well robot joint angles imitate a human motion",
    [](CLI::App& command) {
      auto request = std::make_shared<EvalRequest>();
      command.add_option("motion", request->motion_path, "the human motion that was mapped")->required();
      command.add_option("angles", request->angles_path, "robot joint-angle CSV (time,<joints...>)")->required();
      command.add_option("--robot", request->robot, "built-in robot name or URDF file")->required();
      command.add_option("--config", request->config_path, "method configuration file (when the metric needs it)");
      command.add_option("--metrics", request->metrics, "metric families (comma separated)")->delimiter(',');
      command.add_flag("--json", request->json, "print JSON");
      command
          .add_option("--wbf-base", request->wbf_base,
                      "where the robot stands for WBF: torso (upright torso, default) or support-foot (seed 000 "
                      "Section 6.1)")
          ->check(CLI::IsMember({"torso", "support-foot"}));
      command.callback([request] {
        std::vector<const EvalMetrics*> selected;
        if (request->metrics.empty()) {
          std::vector<std::string> warnings;  // printed by the families that load the robot again
          const RobotModel<double> model = loadRobot(request->robot, warnings);
          for (const auto& [name, metrics] : evalMetrics()) {
            if (metrics.is_default && (!metrics.applies || metrics.applies(model))) selected.push_back(&metrics);
          }
          if (selected.empty()) {
            throw UsageError("eval: no default metrics apply to robot '" + model.name() + "'; choose with --metrics");
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
          runMerged(selected, *request);
          return;
        }
        for (const EvalMetrics* metrics : selected) metrics->run(*request);
      });
    }});

}  // namespace
}  // namespace retarget::cli
