// `retarget eval <motion.bvh> <angles.csv> --robot inmoov --metrics dtw [--config my.json] [--json]`:
// per-joint DTW between the human's joint-angle trajectories (the Euler mapping of the BVH
// before limits, paper 002 Section 4.3) and the robot's, and the range-of-motion weighted
// system value A_w (Eqs. 11-13).
#include <iomanip>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>

#include <retarget/app/metric_families.hpp>
#include <retarget/json/euler_map.hpp>
#include "cli.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runDtw(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const BvhMotion motion = readBvh(request.motion_path);
  const std::optional<EulerMap> given =
      request.config_path.empty() ? std::nullopt : std::optional<EulerMap>(loadEulerMap(request.config_path));
  const std::optional<EulerMap> config = dtwEulerMap(model, motion, given ? &*given : nullptr);
  if (!config) {
    throw UsageError("eval --metrics dtw: no built-in Euler configuration for robot '" + model.name() +
                     "' and this skeleton; pass --config <file.json>");
  }
  if (motion.frame_count == 0) throw ParseError(request.motion_path, 0, "expected at least one frame, got 0");
  const DtwEvaluation e =
      evaluateDtw(model, motion, *config, readJointTrajectoryCsv(request.angles_path), request.angles_path);
  const std::vector<std::string>& names = e.joints;
  const WeightedDtwResult<double>& result = e.result;

  if (request.json) {
    nlohmann::ordered_json out;
    out["metric"] = "dtw";
    out["motion"] = request.motion_path;
    out["angles"] = request.angles_path;
    out.update(dtwJson(e));
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << "DTW (paper 002, Eqs. 11-13) of " << request.angles_path << " against " << request.motion_path
            << " (" << e.config << ")\n";
  std::cout << std::left << std::setw(22) << "joint" << std::right << std::setw(14) << "DTW (rad)" << std::setw(10)
            << "weight\n";
  for (std::size_t k = 0; k < names.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    std::cout << std::left << std::setw(22) << names[k] << std::right << std::setw(14) << result.joint_distances[i]
              << std::setw(10) << std::setprecision(4) << result.weights[i] << std::setprecision(6) << "\n";
  }
  std::cout << "weighted system DTW A_w: " << result.system_distance << "\n";
}

const bool kEvalDtwRegistered = registerEvalMetrics(EvalMetrics{
    "dtw", "per-joint DTW of human vs robot joint-angle trajectories and the weighted A_w (paper 002; BVH input)",
    false, runDtw});

}  // namespace
}  // namespace retarget::cli
