#include "eval_common.hpp"

namespace retarget::cli {

JointTrajectory loadAnglesFor(const EvalRequest& request, const RobotModel<double>& model,
                              const SkeletonMotion<double>& motion) {
  JointTrajectory angles = toRobotOrder(readJointTrajectoryCsv(request.angles_path), model);
  if (angles.size() != motion.size()) {
    throw ParseError(request.angles_path, 0,
                     "expected one row per motion frame (" + std::to_string(motion.size()) + "), got " +
                         std::to_string(angles.size()));
  }
  return angles;
}

nlohmann::ordered_json evalJsonHead(const EvalRequest& request, const std::string& metric,
                                    const RobotModel<double>& model, std::size_t frames) {
  nlohmann::ordered_json out;
  out["metric"] = metric;
  out["motion"] = request.motion_path;
  out["angles"] = request.angles_path;
  out["robot"] = model.name();
  out["frames"] = frames;
  return out;
}

}  // namespace retarget::cli
