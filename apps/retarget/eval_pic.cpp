// `retarget eval <motion> <angles.csv> --robot baxter|yumi|... --metrics pose [--json]`: seed 004's
// metrics for robots with a PIC map: pose accuracy Pacc (Eq. 4, threshold (15 deg)^2), the
// percentage of occlusion / obstruction PO of the robot's default work area (Eq. 5, share of
// frames), the mean pose-angle error and the largest joint step. JSON keys: pacc, po,
// mean_pose_error, largest_joint_step, frames, counted_frames.
//
// `retarget compare <motion> --robot baxter|yumi [--softening K] [--json]`: maps the motion with
// FABRIK, PIC and PICs and prints these metrics side by side with the per-frame time.
#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/metrics/arm_imitation.hpp>

#include "cli.hpp"
#include "eval_common.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {

PicOptions picCliOptions(PicAlgorithm algorithm, int softening);  // map_pic.cpp

namespace {

PicMap requirePicMap(const RobotModel<double>& model, const char* what) {
  const std::optional<PicMap> map = picMapFor(model);
  if (!map) {
    throw UsageError(std::string(what) + ": no PIC map fits robot '" + model.name() +
                     "' (built-in maps: baxter, yumi, nao, pepper)");
  }
  return *map;
}

void runPose(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const PicMap map = requirePicMap(model, "eval --metrics pose");
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const JointTrajectory angles = loadAnglesFor(request, model, motion);
  const WorkArea area = defaultWorkArea(map);
  const ArmImitation e = evaluateArmImitation(model, map, motion, angles.positions, area);
  if (request.json) {
    nlohmann::ordered_json out = evalJsonHead(request, "pose", model, motion.size());
    out["counted_frames"] = e.counted_frames;
    out["pacc"] = e.pacc;
    out["po"] = e.po;
    out["mean_pose_error"] = e.mean_pose_error;
    out["largest_joint_step"] = e.largest_joint_step;
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "pose imitation of " << request.angles_path << " (" << model.name() << ") to " << request.motion_path
            << ": " << motion.size() << " frames (" << e.counted_frames << " with a tracked arm)\n";
  std::cout << "  Pacc               " << e.pacc << "   (seed 004 Eq. 4, threshold (15 deg)^2)\n";
  std::cout << "  PO                 " << e.po << "   (seed 004 Eq. 5, share of frames occluding the work area)\n";
  std::cout << "  mean pose error    " << e.mean_pose_error << " rad\n";
  std::cout << "  largest joint step " << e.largest_joint_step << " rad\n";
}

const bool kRegistered = registerEvalMetrics(EvalMetrics{
    "pose", "seed 004: pose accuracy Pacc (Eq. 4), occlusion/obstruction PO (Eq. 5), largest joint step", false,
    runPose});

struct CompareRequest {
  std::string motion_path;
  std::string robot;
  int softening = 1;
  bool json = false;
};

void runCompare(const CompareRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const PicMap map = requirePicMap(model, "compare");
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const WorkArea area = defaultWorkArea(map);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  if (!request.json) {
    std::cout << "comparison on " << request.motion_path << " (" << model.name() << ", " << motion.size()
              << " frames)\n";
    std::cout << "  method       Pacc     PO       step(rad)  error(rad)  us/frame  not converged\n";
  }
  for (PicAlgorithm algorithm : {PicAlgorithm::kFabrik, PicAlgorithm::kPic, PicAlgorithm::kPics}) {
    PicMapper<double> mapper(model, map, picCliOptions(algorithm, request.softening));
    const auto start = std::chrono::steady_clock::now();
    const MappedMotion<double> mapped = mapMotion(mapper, motion);
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
                      static_cast<double>(std::max<std::size_t>(1, motion.size()));
    const ArmImitation e = evaluateArmImitation(model, map, motion, mapped.q, area);
    std::string name = toString(algorithm);
    if (algorithm == PicAlgorithm::kPics) name += " K=" + std::to_string(request.softening);
    if (request.json) {
      rows.push_back({{"method", name}, {"pacc", e.pacc}, {"po", e.po}, {"largest_joint_step", e.largest_joint_step},
                      {"mean_pose_error", e.mean_pose_error}, {"us_per_frame", us},
                      {"not_converged_frames", mapped.frames(StatusCode::kNotConverged)}});
    } else {
      std::cout << "  " << std::left << std::setw(11) << name << std::right << std::fixed << std::setprecision(4)
                << std::setw(6) << e.pacc << "   " << e.po << "   " << e.largest_joint_step << "     "
                << e.mean_pose_error << "      " << std::setprecision(1) << std::setw(6) << us << "    "
                << mapped.frames(StatusCode::kNotConverged) << "\n";
    }
  }
  if (request.json) {
    nlohmann::ordered_json out;
    out["motion"] = request.motion_path;
    out["robot"] = model.name();
    out["frames"] = motion.size();
    out["methods"] = rows;
    std::cout << out.dump(2) << "\n";
  }
}

const bool kCompare = registerCommand(Command{
    "compare", "Map a motion with FABRIK, PIC and PICs (seed 004) and compare Pacc, PO, joint steps and time",
    [](CLI::App& command) {
      auto request = std::make_shared<CompareRequest>();
      command.add_option("motion", request->motion_path, "motion file")->required();
      command.add_option("--robot", request->robot, "robot with a PIC map: baxter, yumi, nao, pepper or a URDF")
          ->required();
      command.add_option("--softening", request->softening, "PICs softening factor K (Eq. 3), 0..3")
          ->check(CLI::Range(0, 3));
      command.add_flag("--json", request->json, "print JSON");
      command.callback([request] { runCompare(*request); });
    }});

}  // namespace
}  // namespace retarget::cli
