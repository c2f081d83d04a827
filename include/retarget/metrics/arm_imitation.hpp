#pragma once

/// @file
/// The metrics of seed 004 over a whole motion for a robot with arm chains (robots/arm_chains.hpp,
/// PIC's `PicMap`): pose accuracy
/// Pacc (Eq. 4, metrics/pose_accuracy.hpp), the percentage of occlusion / obstruction PO of a
/// region of interest as an area (Eq. 5, metrics/occluded_area.hpp) for the robot and for the
/// human, and the largest joint step between consecutive frames (the continuity problem the
/// paper raises at the end of Section IV-C), per frame and over the motion.
///
/// Both readings of the pose angles are computed. The elbow angles are measured on each skeleton
/// on its own (the human's raw positions; the robot's shoulder, elbow and wrist chain points of the
/// map at the written angles), so they need no placement; the link directions (the default) and
/// PO need both arms in the robot base frame: the human arms are placed there as
/// `PicMapper` places them (`ArmPlacement` with the same options, calibrated on the same first
/// frames) and hung at the robot's shoulder point of the frame; the robot's links are its chain
/// segments. As in the paper, PO counts only the frames in which the (placed) human wrist is over
/// the ROI; `po_all` gives the share over every frame. `los_occlusion` is a further measure of
/// ours: the share of frames in which a collision capsule of a link the arm moves touches the
/// work area's box or its line of sight (4 cm capsules on the chain when the model has none).
/// Allocates (batch evaluation, not the per-frame path).

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
#include <retarget/metrics/occluded_area.hpp>
#include <retarget/metrics/occlusion.hpp>
#include <retarget/metrics/pose_accuracy.hpp>
#include <retarget/robots/arm_chains.hpp>

namespace retarget {

/// Default work area of a robot with a built-in PIC map (robot base frame, m): a 30 x 40 x 4 cm
/// box on the table in front of the robot, seen from the robot's head camera (Baxter) or from a
/// collaborator's eye across the table (YuMi; the paper's assembly setting). Others: a box 0.25 m
/// in front of and 0.25 m below the shoulders' mid point is not known without a map, so the
/// generic default of `WorkArea` is used.
RETARGET_LAZY_DECL WorkArea defaultWorkArea(const ArmChainMap& map);

/// Per-frame and whole-motion results of `evaluateArmImitation`.
struct ArmImitation {
  /// Per frame and arm of the map: the pose error of the options' reading (rad; NaN when an arm
  /// is unavailable; metrics/pose_accuracy.hpp); per frame the mean squared error over the arms
  /// of that reading and of each reading (rad^2; NaN when not counted), the robot's largest wrist
  /// miss (m: the distance from the robot's wrist to the placed human wrist, largest over the
  /// arms; NaN before the placement is calibrated), the covered share of the ROI by the robot and
  /// by the placed human ([0, 1]), whether the placed human wrist is over the ROI, whether a
  /// capsule blocks the line of sight, and the largest joint step from the previous frame (rad; 0
  /// for the first frame).
  std::vector<std::vector<double>> pose_error;
  std::vector<double> mse;
  std::vector<double> mse_link_directions;
  std::vector<double> mse_elbow_angle;
  std::vector<double> wrist_miss;
  std::vector<double> robot_area;
  std::vector<double> human_area;
  std::vector<bool> wrist_over_roi;
  std::vector<bool> occluding;
  std::vector<double> joint_step;
  /// Pacc (Eq. 4) of the options' reading and the frames it counted; Pacc of each reading at the
  /// same threshold; mean pose error of the options' reading (rad, RMS over the arms, mean over
  /// counted frames); mean angle between the human's and the robot's shoulder->wrist directions
  /// (rad, a diagnostic of where the hand points).
  double pacc = 0;
  double pacc_link_directions = 0;
  double pacc_elbow_angle = 0;
  int counted_frames = 0;
  double mean_pose_error = 0;
  double mean_wrist_direction_error = 0;
  /// PO (Eq. 5) of the robot and of the human over the frames with the human wrist over the ROI
  /// (NaN when there are none), those frames, and both over every frame.
  double po = 0;
  double human_po = 0;
  int po_frames = 0;
  double po_all = 0;
  double human_po_all = 0;
  /// Share of frames in which an arm capsule touches the work area or its line of sight.
  double los_occlusion = 0;
  /// Largest joint step (rad) over the motion.
  double largest_joint_step = 0;
};

/// Pacc (Eq. 4) of per-frame mean squared errors `mse` (rad^2, NaN = not counted) at another
/// threshold epsilon (rad^2): the share of counted frames below it (0 when none is counted).
RETARGET_LAZY_DECL double poseAccuracyAt(const std::vector<double>& mse, double threshold);

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
RETARGET_LAZY_DECL ArmImitation evaluateArmImitation(const RobotModel<double>& model, const ArmChainMap& map,
                                                     const SkeletonMotion<double>& motion, const Eigen::MatrixXd& q,
                                                     const WorkArea& area, PoseAccuracyOptions pacc_options = {},
                                                     ArmPlacementOptions placement_options = {});

#if RETARGET_DEFINE_METRICS

RETARGET_LAZY_DEF WorkArea defaultWorkArea(const ArmChainMap& map) {
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

RETARGET_LAZY_DEF double poseAccuracyAt(const std::vector<double>& mse, double threshold) {
  int counted = 0, accurate = 0;
  for (double e : mse) {
    if (std::isnan(e)) continue;
    ++counted;
    accurate += e < threshold ? 1 : 0;
  }
  return counted > 0 ? static_cast<double>(accurate) / counted : 0.0;
}

RETARGET_LAZY_DEF ArmImitation evaluateArmImitation(const RobotModel<double>& model, const ArmChainMap& map,
                                                    const SkeletonMotion<double>& motion, const Eigen::MatrixXd& q,
                                                    const WorkArea& area, PoseAccuracyOptions pacc_options,
                                                    ArmPlacementOptions placement_options) {
  map.validateFor(model);
  area.validate();
  RETARGET_THROW_UNLESS(static_cast<std::size_t>(q.rows()) == motion.size() && q.cols() == model.nq(), InvalidArgument,
                        "q is ", q.rows(), " x ", q.cols(), ", expected ", motion.size(), " x ", model.nq());
  RobotData<double> data(model);
  std::array<double, 2> length{0, 0};
  struct ArmIdx {
    std::vector<int> points;
    int elbow = 1;
    ArmSide side = ArmSide::kLeft;
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
    idx.elbow = arm.elbow;
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
  PoseAccuracyOptions link_options = pacc_options, elbow_options = pacc_options;
  link_options.reading = PoseAngleReading::kLinkDirections;
  elbow_options.reading = PoseAngleReading::kElbowAngle;
  PoseAccuracy pacc_link(link_options), pacc_elbow(elbow_options);
  const bool by_links = pacc_options.reading == PoseAngleReading::kLinkDirections;
  OcclusionPercentage los;
  OccludedArea robot_cover(regionOfInterest(area)), human_cover(regionOfInterest(area));
  const RegionOfInterest& roi = robot_cover.roi();
  ArmImitation out;
  out.largest_joint_step = largestJointStep(q);
  double direction_sum = 0, po_sum = 0, human_po_sum = 0, po_all_sum = 0, human_po_all_sum = 0;
  int direction_count = 0;
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const SkeletonFrame<double>& frame = motion.frames[k];
    placement.update(frame);
    forwardKinematics(model, data, q.row(static_cast<Eigen::Index>(k)).transpose());
    std::vector<double> errors;
    std::array<std::optional<double>, 2> link_by_side, elbow_by_side;
    double wrist_miss = std::nan("");
    robot_cover.clear();
    human_cover.clear();
    bool over = false;
    for (const auto& arm : arms) {
      std::optional<double> link_error, elbow_error;
      const auto j = armJoints(arm.side);
      const Eigen::Vector3d p_S = origin(arm.points.front()), p_E = origin(arm.points[static_cast<std::size_t>(arm.elbow)]),
                            p_W = origin(arm.points.back());
      for (std::size_t p = 0; p + 1 < arm.points.size(); ++p) robot_cover.addLink(origin(arm.points[p]), origin(arm.points[p + 1]));
      if (frame.usable(j[0]) && frame.usable(j[1]) && frame.usable(j[2])) {
        const auto human = armPoseAngle<double>(frame.position(j[0]), frame.position(j[1]), frame.position(j[2]));
        const auto robot = armPoseAngle<double>(p_S, p_E, p_W);
        if (human && robot) elbow_error = *human - *robot;
        if (placement.calibrated()) {
          const Eigen::Vector3d u = placement.placeVector(arm.side, frame.position(j[1]) - frame.position(j[0]));
          const Eigen::Vector3d f = placement.placeVector(arm.side, frame.position(j[2]) - frame.position(j[1]));
          link_error = armLinkDirectionError<double>(u, f, p_E - p_S, p_W - p_E);
          const double miss = (p_S + u + f - p_W).norm();
          wrist_miss = std::isnan(wrist_miss) ? miss : std::max(wrist_miss, miss);
          human_cover.addLink(p_S, p_S + u);
          human_cover.addLink(p_S + u, p_S + u + f);
          over = over || roi.contains(p_S + u + f);
          if (const auto d = shoulderWristDirectionAngle<double>(Eigen::Vector3d::Zero(), Eigen::Vector3d(u + f), p_S, p_W)) {
            direction_sum += *d;
            ++direction_count;
          }
        }
      }
      const std::optional<double>& error = by_links ? link_error : elbow_error;
      errors.push_back(error ? *error : std::nan(""));
      const auto side = static_cast<std::size_t>(arm.side);
      if (link_error && !link_by_side[side]) link_by_side[side] = link_error;
      if (elbow_error && !elbow_by_side[side]) elbow_by_side[side] = elbow_error;
    }
    const auto mse_link = pacc_link.add(link_by_side[0], link_by_side[1]);
    const auto mse_elbow = pacc_elbow.add(elbow_by_side[0], elbow_by_side[1]);
    const auto& mse = by_links ? mse_link : mse_elbow;
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
    los.add(occluding);
    const double robot_area = robot_cover.fraction(), human_area = human_cover.fraction();
    po_all_sum += robot_area;
    human_po_all_sum += human_area;
    if (over) {
      po_sum += robot_area;
      human_po_sum += human_area;
      ++out.po_frames;
    }
    out.pose_error.push_back(errors);
    out.mse.push_back(mse ? *mse : std::nan(""));
    out.mse_link_directions.push_back(mse_link ? *mse_link : std::nan(""));
    out.mse_elbow_angle.push_back(mse_elbow ? *mse_elbow : std::nan(""));
    out.wrist_miss.push_back(wrist_miss);
    out.robot_area.push_back(robot_area);
    out.human_area.push_back(human_area);
    out.wrist_over_roi.push_back(over);
    out.occluding.push_back(occluding);
    out.joint_step.push_back(
        k == 0 ? 0.0 : (q.row(static_cast<Eigen::Index>(k)) - q.row(static_cast<Eigen::Index>(k - 1))).cwiseAbs().maxCoeff());
  }
  const double frames = static_cast<double>(std::max<std::size_t>(1, motion.size()));
  const PoseAccuracy& pacc = by_links ? pacc_link : pacc_elbow;
  out.pacc = pacc.value();
  out.pacc_link_directions = pacc_link.value();
  out.pacc_elbow_angle = pacc_elbow.value();
  out.counted_frames = pacc.frames();
  out.mean_pose_error = pacc.meanError();
  out.mean_wrist_direction_error = direction_count > 0 ? direction_sum / direction_count : 0.0;
  out.po = out.po_frames > 0 ? po_sum / out.po_frames : std::nan("");
  out.human_po = out.po_frames > 0 ? human_po_sum / out.po_frames : std::nan("");
  out.po_all = po_all_sum / frames;
  out.human_po_all = human_po_all_sum / frames;
  out.los_occlusion = los.value();
  return out;
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
