// `retarget map <file.bvh> --robot inmoov --method euler [--config my.json] -o angles.csv`:
// the Euler/BVH mapper of paper 002 (Section 4.2). Without --config the built-in InMoov
// configuration of the detected skeleton (Axis Neuron, CMU, Mixamo) is used.
#include <iostream>
#include <string>

#include <retarget/io/bvh.hpp>
#include <retarget/io/euler_config_json.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/euler_inmoov_configs.hpp>
#include <retarget/mappers/euler_mapper.hpp>

#include "cli.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

// The configuration from --config, else the built-in one for the robot and the skeleton.
EulerMapperConfig chooseEulerConfig(const std::string& config_path, const RobotModel<double>& model,
                                    const BvhMotion& motion, const std::string& motion_path) {
  if (!config_path.empty()) return loadEulerConfig(config_path);
  if (model.name() != "inmoov") {
    throw UsageError("map --method euler: built-in configurations exist for the InMoov only (got robot '" +
                     model.name() + "'); pass --config <file.json>");
  }
  const std::string skeleton = detectEulerSkeleton(motion);
  if (skeleton.empty()) {
    throw UsageError("map --method euler: cannot tell the skeleton of '" + motion_path +
                     "' (expected Axis Neuron, CMU or Mixamo joint names); pass --config <file.json>");
  }
  return inmoovEulerConfig(skeleton);
}

void runEuler(const MapRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const BvhMotion motion = readBvh(request.motion_path);
  const EulerMapperConfig config = chooseEulerConfig(request.config_path, model, motion, request.motion_path);
  EulerMapper<double> mapper(model, config);
  mapper.bind(motion);
  JointTrajectory trajectory;
  trajectory.joint_names = model.qNames();
  trajectory.positions.resize(motion.frame_count, model.nq());
  trajectory.times.resize(static_cast<std::size_t>(motion.frame_count));
  Eigen::VectorXd q(model.nq());
  int clamped = 0, invalid = 0, limited = 0;
  for (int f = 0; f < motion.frame_count; ++f) {
    const Status status = mapper.map(motion, f, q);
    clamped += status.has(StatusCode::kClamped) ? 1 : 0;
    limited += status.has(StatusCode::kRateLimited) ? 1 : 0;
    invalid += status.has(StatusCode::kInvalidInput) ? 1 : 0;
    trajectory.positions.row(f) = q.transpose();
    trajectory.times[static_cast<std::size_t>(f)] = f * motion.frame_time;
  }
  writeJointTrajectoryCsv(trajectory, request.output_path);
  std::cerr << "retarget: euler (" << config.name << "): " << motion.frame_count << " frames -> "
            << request.output_path << "; clamped in " << clamped << ", rate limited in " << limited
            << ", invalid input in " << invalid << " frames\n";
}

const bool kRegistered = registerMapMethod(MapMethod{
    "euler", "Euler/BVH joint-angle mapping (paper 002; BVH input; built-in InMoov configs or --config JSON)",
    runEuler});

}  // namespace
}  // namespace retarget::cli
