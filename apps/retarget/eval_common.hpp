#pragma once

// What every `retarget eval` metric family over a skeleton motion shares: the angles file read
// in the robot's joint order and checked against the motion (one row per frame), and the
// common head of the --json report.

#include <string>

#include <nlohmann/json.hpp>

#include <retarget/human/motion.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/kinematics/robot_model.hpp>

#include "cli.hpp"

namespace retarget::cli {

/// The request's angles in `model`'s joint order. Throws ParseError naming the angles file when
/// it does not have one row per frame of `motion`.
JointTrajectory loadAnglesFor(const EvalRequest& request, const RobotModel<double>& model,
                              const SkeletonMotion<double>& motion);

/// {"metric", "motion", "angles", "robot", "frames"}: the head of every eval JSON report.
nlohmann::ordered_json evalJsonHead(const EvalRequest& request, const std::string& metric,
                                    const RobotModel<double>& model, std::size_t frames);

}  // namespace retarget::cli
