// `retarget eval <motion> <angles.csv> --robot baxter|yumi|... --metrics pose [--json]`: seed 004's
// metrics for robots with a PIC map: pose accuracy Pacc (Eq. 4, the arm links' directions against
// the placed human's, threshold (15 deg)^2; pacc_elbow_angle the other reading of Section IV-B), the percentage of occlusion / obstruction PO of the robot's default work
// area as a covered area (Eq. 5; robot and human, over the frames with the human wrist over it and
// over every frame), the mean pose error and the largest joint step. JSON keys: pacc, pacc_elbow_angle, po,
// human_po, po_frames, po_all, human_po_all, los_occlusion, mean_pose_error,
// mean_wrist_direction_error, largest_joint_step, frames, counted_frames.
// `retarget compare` (compare.cpp) shows the same figures beside the other families.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/metrics/arm_imitation.hpp>

#include <retarget/app/metric_families.hpp>
#include "cli.hpp"
#include "eval_common.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {

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
    out.update(poseJson(e));
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << std::fixed << std::setprecision(4);
  std::cout << "pose imitation of " << request.angles_path << " (" << model.name() << ") to " << request.motion_path
            << ": " << motion.size() << " frames (" << e.counted_frames << " with a tracked arm)\n";
  const auto share = [](double v) { return std::isnan(v) ? std::string("-") : fixed(v, 4); };
  std::cout << "  Pacc               " << e.pacc
            << "   (seed 004 Eq. 4: frames whose upper-arm and forearm directions are within 15 deg of the placed "
               "human's, RMS over the links and arms)\n";
  std::cout << "  Pacc, elbow angle  " << e.pacc_elbow_angle
            << "   (the other reading: each skeleton's elbow angle within 15 deg of the human's)\n";
  std::cout << "  mean pose error    " << e.mean_pose_error << " rad (link directions, RMS over the links and arms)\n";
  std::cout << "  PO                 " << share(e.po) << " robot, " << share(e.human_po) << " human   (seed 004 Eq. 5: "
            << "share of the work area's region under the projected arm links, over the " << e.po_frames
            << " frames with the human wrist over it)\n";
  std::cout << "  PO, every frame    " << e.po_all << " robot, " << e.human_po_all << " human\n";
  std::cout << "  line of sight      " << e.los_occlusion << "   (share of frames an arm capsule touches the work area "
               "or its line of sight)\n";
  std::cout << "  hand direction     " << e.mean_wrist_direction_error
            << " rad (mean angle between the human's and the robot's shoulder->wrist directions)\n";
  std::cout << "  largest joint step " << e.largest_joint_step << " rad\n";
}

const bool kEvalPicRegistered = registerEvalMetrics(EvalMetrics{
    "pose", "seed 004: pose accuracy Pacc (Eq. 4), occlusion/obstruction PO (Eq. 5), largest joint step", false,
    runPose});

}  // namespace
}  // namespace retarget::cli
