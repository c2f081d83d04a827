// `retarget eval <motion.bvh> <angles.csv> --robot inmoov --metrics dtw [--config my.json] [--json]`:
// per-joint DTW between the human's joint-angle trajectories (the Euler mapping of the BVH
// before limits, paper 002 Section 4.3) and the robot's, and the range-of-motion weighted
// system value A_w (Eqs. 11-13).
#include <iomanip>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/io/bvh.hpp>
#include <retarget/json/euler_map.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/metrics/weighted_dtw.hpp>

#include "cli.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runDtw(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const BvhMotion motion = readBvh(request.motion_path);
  EulerMap config;
  if (!request.config_path.empty()) {
    config = loadEulerMap(request.config_path);
  } else {
    const std::string skeleton = detectEulerSkeleton(motion);
    if (model.name() != "inmoov" || skeleton.empty()) {
      throw UsageError("eval --metrics dtw: no built-in Euler configuration for robot '" + model.name() +
                       "' and this skeleton; pass --config <file.json>");
    }
    config = inmoovEulerMap(skeleton);
  }
  if (motion.frame_count == 0) throw ParseError(request.motion_path, 0, "expected at least one frame, got 0");
  EulerMapper<double> mapper(model, motion, config);
  const std::vector<int> joints = mapper.mappedJoints();
  std::vector<std::string> names;
  for (int i : joints) names.push_back(model.qName(i));

  // Human trajectories: the mapped angles before limits, one frame per column.
  Eigen::MatrixXd human(static_cast<Eigen::Index>(joints.size()), motion.frame_count);
  Eigen::VectorXd q(model.nq());
  for (int f = 0; f < motion.frame_count; ++f) {
    (void)mapper.map(motion.frameValues(f), q);
    for (std::size_t k = 0; k < joints.size(); ++k) human(static_cast<Eigen::Index>(k), f) = mapper.rawOutput()[joints[k]];
  }
  // Robot trajectories from the CSV, by joint name.
  const JointTrajectory angles = readJointTrajectoryCsv(request.angles_path);
  if (angles.empty()) throw ParseError(request.angles_path, 0, "expected at least one frame, got 0");
  Eigen::MatrixXd robot(static_cast<Eigen::Index>(joints.size()), static_cast<Eigen::Index>(angles.size()));
  for (std::size_t k = 0; k < names.size(); ++k) {
    const int column = angles.findJoint(names[k]);
    if (column < 0) throw ParseError(request.angles_path, 1, "expected a column '" + names[k] + "' in the header");
    robot.row(static_cast<Eigen::Index>(k)) = angles.positions.col(column).transpose();
  }
  const auto result = weightedJointDtw(human, robot, rangeOfMotionWeights(model, names));

  if (request.json) {
    nlohmann::ordered_json out;
    out["metric"] = "dtw";
    out["motion"] = request.motion_path;
    out["angles"] = request.angles_path;
    out["config"] = config.name;
    out["frames_human"] = motion.frame_count;
    out["frames_robot"] = angles.size();
    nlohmann::ordered_json per_joint = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < names.size(); ++k) {
      per_joint[names[k]] = {{"dtw", result.joint_distances[static_cast<Eigen::Index>(k)]},
                             {"weight", result.weights[static_cast<Eigen::Index>(k)]},
                             {"path_length", result.path_lengths[static_cast<Eigen::Index>(k)]}};
    }
    out["joints"] = per_joint;
    out["weighted_dtw"] = result.system_distance;
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << "DTW (paper 002, Eqs. 11-13) of " << request.angles_path << " against " << request.motion_path
            << " (" << config.name << ")\n";
  std::cout << std::left << std::setw(22) << "joint" << std::right << std::setw(14) << "DTW (rad)" << std::setw(10)
            << "weight\n";
  for (std::size_t k = 0; k < names.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    std::cout << std::left << std::setw(22) << names[k] << std::right << std::setw(14) << result.joint_distances[i]
              << std::setw(10) << std::setprecision(4) << result.weights[i] << std::setprecision(6) << "\n";
  }
  std::cout << "weighted system DTW A_w: " << result.system_distance << "\n";
}

const bool kRegistered = registerEvalMetrics(EvalMetrics{
    "dtw", "per-joint DTW of human vs robot joint-angle trajectories and the weighted A_w (paper 002; BVH input)",
    false, runDtw});

}  // namespace
}  // namespace retarget::cli
