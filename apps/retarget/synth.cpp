// `retarget synth --robot nao <angles.csv> -o skeleton.csv`: a robot joint trajectory -> the
// skeleton CSV of the robot's own virtual skeleton by forward kinematics (the inverse view of
// GA-LVVJ; for round trips and visual checks). Robots: those with a built-in GA-LVVJ map.
#include <iostream>
#include <memory>
#include <string>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "robot_binding.hpp"
#include "cli.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

struct SynthRequest {
  std::string robot;
  std::string angles_path;
  std::string output_path;
};

void runSynth(const SynthRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const std::optional<VirtualSkeletonMap> map = robotSkeletonMap(model);
  if (!map) {
    throw UsageError("synth: no virtual skeleton is defined for robot '" + model.name() +
                     "' (built-in GA-LVVJ maps: NAO, Pepper)");
  }
  const JointTrajectory angles = toRobotOrder(readJointTrajectoryCsv(request.angles_path), model);
  VirtualSkeleton<double> skeleton(model, *map);
  SkeletonMotion<double> motion;
  motion.format = "synth/" + model.name();
  motion.frames.resize(angles.size());
  for (std::size_t k = 0; k < angles.size(); ++k) {
    const Eigen::VectorXd q = angles.positions.row(static_cast<Eigen::Index>(k)).transpose();
    motion.frames[k].time = angles.times[k];
    if (!skeleton.compute(q, motion.frames[k]).ok()) {
      throw ParseError(request.angles_path, k + 2, "expected finite joint angles");
    }
  }
  if (angles.size() >= 2) motion.frame_rate = static_cast<double>(angles.size() - 1) / angles.duration();
  writeSkeletonCsv(motion, request.output_path);
  std::cerr << "retarget: synth (" << map->robot << "): " << angles.size() << " frames -> " << request.output_path
            << "\n";
}

const bool kSynthRegistered = registerCommand(Command{
    "synth", "Robot joint angles (CSV) -> skeleton CSV of the robot's virtual skeleton (forward kinematics)",
    [](CLI::App& command) {
      auto request = std::make_shared<SynthRequest>();
      command.add_option("angles", request->angles_path, "robot joint-angle CSV (time,<joints...>)")->required();
      command.add_option("--robot", request->robot, "built-in robot name or URDF file")->required();
      command.add_option("-o,--output", request->output_path, "skeleton CSV to write")->required();
      command.callback([request] { runSynth(*request); });
    }});

}  // namespace
}  // namespace retarget::cli
