#pragma once

/// @file
/// The metrics of seed 004 over a whole motion for a robot with a `PicMap`: pose accuracy
/// Pacc (Eq. 4, metrics/pose_accuracy.hpp), occlusion / obstruction PO of a work area (Eq. 5,
/// metrics/occlusion.hpp), and the largest joint step between consecutive frames (the
/// temporal-continuity problem of Section VI), per frame and over the motion.
///
/// The human arms are placed in the robot base frame exactly as `PicMapper` places them
/// (`ArmPlacement` with the same options, calibrated on the same first frames), so the pose
/// angles compare like with like whatever produced the joint angles. The robot's shoulder and
/// wrist are the first and last chain points of each arm of the map. The arm's capsules are the
/// collision shapes of every link moved by the arm's fit joints (the two chain segments with a
/// 4 cm radius when the model has none). Allocates (batch evaluation, not the per-frame path).

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/human/arm_placement.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/mappers/pic_map.hpp>
#include <retarget/metrics/occlusion.hpp>
#include <retarget/metrics/pose_accuracy.hpp>

namespace retarget {

/// Default work area of a robot with a built-in PIC map (robot base frame, m): a 30 x 40 x 4 cm
/// box on the table in front of the robot, seen from the robot's head camera (Baxter) or from a
/// collaborator's eye across the table (YuMi; the paper's assembly setting). Others: a box 0.25 m
/// in front of and 0.25 m below the shoulders' mid point is not known without a map, so the
/// generic default of `WorkArea` is used.
RETARGET_DECL WorkArea defaultWorkArea(const PicMap& map);

/// Per-frame and whole-motion results of `evaluateArmImitation`.
struct ArmImitation {
  /// Per frame: pose angle of each arm of the map (rad; NaN when unavailable), the frame's mean
  /// squared error (rad^2; NaN when not counted), whether it occluded, the largest joint step
  /// from the previous frame (rad; 0 for the first frame).
  std::vector<std::vector<double>> pose_angle;
  std::vector<double> mse;
  std::vector<bool> occluding;
  std::vector<double> joint_step;
  /// Pacc (Eq. 4), PO (Eq. 5, share of frames), mean pose-angle error (rad, RMS over the arms,
  /// mean over frames), largest joint step (rad) over the motion.
  double pacc = 0;
  double po = 0;
  double mean_pose_error = 0;
  double largest_joint_step = 0;
  int counted_frames = 0;
};

/// Largest absolute change (rad or m) of any coordinate between consecutive rows of q
/// (frames x nq); 0 for fewer than two rows.
template <typename Derived>
double largestJointStep(const Eigen::MatrixBase<Derived>& q) {
  double worst = 0;
  for (Eigen::Index k = 1; k < q.rows(); ++k) {
    worst = std::max(worst, static_cast<double>((q.row(k) - q.row(k - 1)).cwiseAbs().maxCoeff()));
  }
  return worst;
}

/// Evaluates joint angles `q` (frames x nq, robot q order) of `model` against the human
/// `motion` (same number of frames) with the arms of `map`. Throws InvalidArgument when the
/// sizes disagree or the map does not fit the model.
RETARGET_DECL ArmImitation evaluateArmImitation(const RobotModel<double>& model, const PicMap& map,
                                         const SkeletonMotion<double>& motion, const Eigen::MatrixXd& q,
                                         const WorkArea& area, PoseAccuracyOptions pacc_options = {},
                                         ArmPlacementOptions placement_options = {});

#if RETARGET_DEFINE_METRICS

RETARGET_DECL WorkArea defaultWorkArea(const PicMap& map) {
  WorkArea area;
  if (map.robot == "baxter") {
    area.center = Eigen::Vector3d(0.75, 0.0, -0.15);
    area.half_extents = Eigen::Vector3d(0.15, 0.20, 0.02);
    area.viewpoint = Eigen::Vector3d(0.19, 0.0, 0.75);
  } else if (map.robot == "yumi") {
    area.center = Eigen::Vector3d(0.45, 0.0, 0.05);
    area.half_extents = Eigen::Vector3d(0.10, 0.15, 0.02);
    area.viewpoint = Eigen::Vector3d(1.30, 0.0, 0.70);
  }
  return area;
}

RETARGET_DECL ArmImitation evaluateArmImitation(const RobotModel<double>& model, const PicMap& map,
                                         const SkeletonMotion<double>& motion, const Eigen::MatrixXd& q,
                                         const WorkArea& area, PoseAccuracyOptions pacc_options,
                                         ArmPlacementOptions placement_options) {
  map.validateFor(model);
  area.validate();
  RETARGET_THROW_UNLESS(static_cast<std::size_t>(q.rows()) == motion.size() && q.cols() == model.nq(),
                        InvalidArgument, "evaluateArmImitation: q is ", q.rows(), " x ", q.cols(), ", expected ",
                        motion.size(), " x ", model.nq());
  RobotData<double> data(model);
  std::array<double, 2> length{0, 0};
  struct ArmIdx {
    int shoulder, wrist;
    std::vector<int> points;
    ArmSide side;
  };
  std::vector<ArmIdx> arms;
  forwardKinematics(model, data, model.neutralConfiguration());
  auto origin = [&](int j) {
    const auto& joint = model.joints()[static_cast<std::size_t>(j)];
    return Eigen::Vector3d((data.X_WL[static_cast<std::size_t>(joint.parent_link)] * joint.X_PJ).translation());
  };
  for (const auto& arm : map.arms) {
    ArmIdx idx;
    for (const auto& p : arm.points) idx.points.push_back(model.jointIndex(p));
    idx.shoulder = idx.points.front();
    idx.wrist = idx.points.back();
    idx.side = arm.side;
    double reach = 0;
    for (std::size_t k = 0; k + 1 < idx.points.size(); ++k) reach += (origin(idx.points[k + 1]) - origin(idx.points[k])).norm();
    length[static_cast<std::size_t>(arm.side)] = reach;
    arms.push_back(idx);
  }
  for (int s = 0; s < 2; ++s) {
    if (length[static_cast<std::size_t>(s)] <= 0) length[static_cast<std::size_t>(s)] = length[static_cast<std::size_t>(1 - s)];
  }
  // Capsules of the arm links: (link, capsule in the link frame).
  std::vector<std::pair<int, Capsule<double>>> capsules;
  std::vector<int> fit_joints;
  for (const auto& arm : map.arms) {
    for (const auto& j : arm.fit_joints) fit_joints.push_back(model.jointIndex(j));
  }
  for (std::size_t l = 0; l < model.links().size(); ++l) {
    const auto& link = model.links()[l];
    bool moved = false;
    for (int j : link.support) moved = moved || std::find(fit_joints.begin(), fit_joints.end(), j) != fit_joints.end();
    if (!moved) continue;
    for (const auto& shape : link.collisions) capsules.emplace_back(static_cast<int>(l), shape.capsule_L);
  }
  ArmPlacement<double> placement(placement_options, length[0], length[1]);
  PoseAccuracy pacc(pacc_options);
  OcclusionPercentage po;
  ArmImitation out;
  out.largest_joint_step = largestJointStep(q);
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const SkeletonFrame<double>& frame = motion.frames[k];
    placement.update(frame);
    forwardKinematics(model, data, q.row(static_cast<Eigen::Index>(k)).transpose());
    std::vector<double> angles;
    std::array<std::optional<double>, 2> by_side;
    for (const auto& arm : arms) {
      std::optional<double> angle;
      const auto j = armJoints(arm.side);
      if (placement.calibrated() && frame.usable(j[0]) && frame.usable(j[2])) {
        const Eigen::Vector3d h = placement.placeVector(arm.side, frame.position(j[2]) - frame.position(j[0]));
        angle = poseAngle<double>(Eigen::Vector3d::Zero(), h, origin(arm.shoulder), origin(arm.wrist));
      }
      angles.push_back(angle ? *angle : std::nan(""));
      if (angle && !by_side[static_cast<std::size_t>(arm.side)]) by_side[static_cast<std::size_t>(arm.side)] = angle;
    }
    const auto mse = pacc.add(by_side[0], by_side[1]);
    bool occluding = false;
    if (capsules.empty()) {
      for (const auto& arm : arms) {
        for (std::size_t p = 0; p + 1 < arm.points.size() && !occluding; ++p) {
          occluding = occludes<double>(Capsule<double>{origin(arm.points[p]), origin(arm.points[p + 1]), 0.04}, area);
        }
      }
    } else {
      for (const auto& [link, c_L] : capsules) {
        const auto& X = data.X_WL[static_cast<std::size_t>(link)];
        if (occludes<double>(Capsule<double>{X * c_L.a, X * c_L.b, c_L.radius}, area)) {
          occluding = true;
          break;
        }
      }
    }
    po.add(occluding);
    out.pose_angle.push_back(angles);
    out.mse.push_back(mse ? *mse : std::nan(""));
    out.occluding.push_back(occluding);
    out.joint_step.push_back(
        k == 0 ? 0.0 : (q.row(static_cast<Eigen::Index>(k)) - q.row(static_cast<Eigen::Index>(k - 1))).cwiseAbs().maxCoeff());
  }
  out.pacc = pacc.value();
  out.po = po.value();
  out.mean_pose_error = pacc.meanError();
  out.counted_frames = pacc.frames();
  return out;
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
