// `retarget compare <motion> --robot R --method m1,m2[:option=value] [--robot R2 --method ...]
//  [--config file] [--softening K] [--avoid-collisions] [--wbf-base torso|support-foot] [--json]
//  [--report out.html]`: one motion mapped with several methods onto one or more robots, and
// every metric family of `retarget eval` that applies to each (robot, method), computed by the
// same functions (metric_families.hpp), side by side with the mapping's per-frame cost and
// status counts. The i-th --method list goes to the i-th --robot (one --robot: all of them).
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli.hpp"
#include "comparison.hpp"

namespace retarget::cli {

namespace {

struct CompareRequest {
  std::string motion_path;
  std::vector<std::string> robots;
  std::vector<std::string> methods;  // one comma-separated list per --method
  CompareOptions options;
  bool json = false;
  std::string report_path;
};

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t comma = list.find(',', start);
    const std::string item = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!item.empty()) items.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return items;
}

void runCompare(const CompareRequest& request) {
  if (request.robots.size() != 1 && request.robots.size() != request.methods.size()) {
    throw UsageError("compare: expected one --method list per --robot, or one --robot (got " +
                     std::to_string(request.robots.size()) + " --robot and " + std::to_string(request.methods.size()) +
                     " --method)");
  }
  // Every (robot, method) pair is checked before anything is mapped.
  std::vector<std::unique_ptr<ComparedRobot>> robots;
  std::vector<std::pair<std::size_t, std::pair<MethodSetup, std::string>>> jobs;  // robot index, setup, label
  for (std::size_t g = 0; g < request.methods.size(); ++g) {
    const std::size_t r = request.robots.size() == 1 ? 0 : g;
    if (robots.size() <= r) robots.push_back(std::make_unique<ComparedRobot>(request.robots[r]));
    const std::vector<std::string> specs = splitList(request.methods[g]);
    if (specs.empty()) throw UsageError("compare: empty --method list");
    for (const std::string& spec : specs) {
      for (const auto& [setup, label] : methodRows(spec, request.options)) {
        try {
          checkMethodApplies(setup, robots[r]->model);
        } catch (const UsageError& e) {
          throw UsageError(std::string("compare: method '") + label + "' on robot '" + robots[r]->model.name() +
                           "': " + e.what());
        }
        jobs.push_back({r, {setup, label}});
      }
    }
  }
  const ComparedMotion motion = loadComparedMotion(request.motion_path);
  std::vector<ComparedRow> rows;
  for (const auto& [r, job] : jobs) rows.push_back(mapAndEvaluate(*robots[r], motion, job.first, request.options, job.second));
  if (request.json) {
    std::cout << comparisonJson(motion, rows).dump(2) << "\n";
  } else {
    std::cout << comparisonTable(motion, rows);
  }
  if (!request.report_path.empty()) {
    std::vector<const ComparedRobot*> robot_list;
    for (const auto& robot : robots) robot_list.push_back(robot.get());
    writeReport(motion, robot_list, rows, request.report_path);
    std::cerr << "retarget: compare: report -> " << request.report_path << "\n";
  }
}

const bool kCompareRegistered = registerCommand(Command{
    "compare",
    "Map one motion with several methods (and robots) and compare every applicable metric side by side",
    [](CLI::App& command) {
      auto request = std::make_shared<CompareRequest>();
      command.add_option("motion", request->motion_path, "motion file")->required();
      command.add_option("--robot", request->robots, "built-in robot name or URDF file (repeatable)")
          ->required()
          ->allow_extra_args(false);
      command
          .add_option("--method", request->methods,
                      "comma-separated methods for the matching --robot: ga-lvvj, euler, triangle, fabrik, pic, pics; "
                      "each may carry :config=<file> or :softening=<K> (repeatable)")
          ->required()
          ->allow_extra_args(false);
      addCompareOptions(command, request->options);
      command.add_flag("--json", request->json, "print JSON instead of the table");
      command.add_option("--report", request->report_path, "also write the HTML report (as `retarget report`)");
      command.callback([request] { runCompare(*request); });
    }});

}  // namespace
}  // namespace retarget::cli
