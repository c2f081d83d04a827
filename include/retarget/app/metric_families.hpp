#pragma once

/// @file
/// The metric families, computed once for every front end: `retarget eval` (on an angles CSV),
/// `retarget compare` and `report` (on each method's mapping) and the Python module's
/// `evaluate_*` functions all call these, so their numbers agree by construction. Each family is
/// an `evaluate*` function returning a plain result and a `*Json` function giving the keys
/// `retarget eval --metrics <family> --json` prints after its common head (and Python returns as
/// a dict). Part of the application layer (include/retarget/app/: what the command line and
/// Python share), beside json/ and outside retarget/retarget.hpp; needs nlohmann-json
/// (CMake target retarget::json).
///
/// Where each family applies (docs/metrics.md, "Which metric applies where"):
///  - similarity: robots with a virtual skeleton (robots/robot_skeleton.hpp: NAO, Pepper, and any
///                humanoid the automatic binding understands), skeleton motions;
///  - collision:  robots with collision shapes, skeleton motions; its W needs the plain mapping of
///                the method that produced the angles;
///  - pose:       robots with arm chains (robots/arm_chains.hpp: Baxter, YuMi, NAO, Pepper),
///                skeleton motions;
///  - dtw:        BVH motions with an Euler map (the built-in InMoov ones or a given one);
///  - physical:   every robot; its MPJPE part needs a virtual skeleton, penetration collision
///                shapes, foot sliding / floating the soles of both legs (robots/humanoid_soles.hpp).
///
/// Batch evaluation (allocates; not the per-frame path). Errors: InvalidArgument or ParseError
/// naming the angles' `source` and row.
///
/// Every function here is a template (RETARGET_ALWAYS_LAZY_DECL, core/compilation.hpp), called as
/// before: the metrics and the JSON code are compiled where a front end calls them, not in every
/// translation unit that includes this header.

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/foot_stance.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_map.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/metrics/arm_imitation.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/foot_contact.hpp>
#include <retarget/metrics/joint_similarity.hpp>
#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/metrics/weighted_dtw.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/humanoid_soles.hpp>
#include <retarget/robots/robot_skeleton.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/robots/virtual_skeleton_map.hpp>
#include <retarget/safety/self_collision.hpp>

namespace retarget::app {


/// A JSON number, or null when `value` is not finite (an unknown limit, +inf margin).
RETARGET_ALWAYS_LAZY_DECL nlohmann::ordered_json finiteOrNull(double value);

// --- similarity: WBF (seed 000 Eq. 44), LLF (Eq. 46), cosine (seed 003 Eq. 1), best reachable.

struct SimilarityEvaluation {
  MotionSimilarity<double> similarity;
  MotionBestReachable<double> best;
  WbfBase base = WbfBase::kTorso;
  /// Frames where a coordinate that moves the virtual skeleton (hands excluded: binary, always on
  /// a limit) is within 1e-9 rad of a position limit.
  int on_limit_frames = 0;
};

/// Similarity of the robot at `q` (frames x nq, rad; one row per motion frame) to `motion`.
/// `source` names the angles in errors: ParseError(source, row + 2) for a non-finite row.
RETARGET_ALWAYS_LAZY_DECL SimilarityEvaluation evaluateSimilarity(const RobotModel<double>& model,
                                                                  const VirtualSkeletonMap& map,
                                                                  const SkeletonMotion<double>& motion,
                                                                  const Eigen::MatrixXd& q, WbfBase base,
                                                                  const std::string& source);
/// {"on_limit_frames", "degenerate_frames", "wbf", "llf", "cosine", "wbf_base", "links"}.
RETARGET_ALWAYS_LAZY_DECL nlohmann::ordered_json similarityJson(const SimilarityEvaluation& e);
/// Means of the per-link best reachable WBF / LLF, weighted by the frames where each link is
/// valid (the best reachable counterpart of the motion's WBF / LLF means).
RETARGET_ALWAYS_LAZY_DECL double bestReachableWbfMean(const MotionBestReachable<double>& best);
RETARGET_ALWAYS_LAZY_DECL double bestReachableLlfMean(const MotionBestReachable<double>& best);

// --- collision: W (seed 001 Eq. 11) against the plain mapping, clearance, frames in collision.

/// What W compares the evaluated angles with: the plain mapping of the motion (no smoothing,
/// speed limit or collision avoidance) by the method that produced them (seed 001's q_mimic).
struct PlainMapping {
  std::string method;  ///< e.g. "ga-lvvj", "pics:softening=2"
  Eigen::MatrixXd q;   ///< frames x nq, rad
};

struct CollisionEvaluation {
  std::size_t pairs = 0;
  double margin = 0;
  std::optional<std::string> reference;       ///< The method of the plain mapping W compares with.
  std::optional<JointSimilaritySummary> w;    ///< W per frame and summaries, against it.
  TrajectoryClearance clearance;              ///< Of the evaluated angles.
  std::optional<TrajectoryClearance> before;  ///< Of the plain mapping.
};

/// Clearance of `q` (frames x nq, rad) and, when `plain` is given (same size as q), W of q
/// against it and the plain mapping's clearance. Without it W is not computed (null): comparing
/// with another method's mapping would measure the difference between two methods (e.g. the
/// hands GA-LVVJ opens and the triangle mapping leaves at rest), not what post-processing did.
RETARGET_ALWAYS_LAZY_DECL CollisionEvaluation evaluateCollision(const RobotModel<double>& model,
                                                                const SelfCollisionModel<double>& collision,
                                                                const Eigen::MatrixXd& q, const PlainMapping* plain);
/// {"pairs", "margin", "reference", "w", "min_clearance", "collision_frames", "margin_frames",
/// "reference_collision_frames"}.
RETARGET_ALWAYS_LAZY_DECL nlohmann::ordered_json collisionJson(const CollisionEvaluation& e);

// --- pose: seed 004 Pacc (Eq. 4), PO (Eq. 5), largest joint step (metrics/arm_imitation.hpp).

/// {"counted_frames", "pacc", "po", "mean_pose_error", "largest_joint_step"}.
RETARGET_ALWAYS_LAZY_DECL nlohmann::ordered_json poseJson(const ArmImitation& e);

// --- dtw: per-joint DTW and the weighted system value A_w (paper 002 Eqs. 11-13).

struct DtwEvaluation {
  std::string config;                 ///< Name of the Euler map giving the human's joint angles.
  std::vector<std::string> joints;    ///< The mapped joints, in the order of `result`.
  WeightedDtwResult<double> result;
  int frames_human = 0;
  std::size_t frames_robot = 0;
};

/// The Euler map the dtw family reads the human's joint angles with: `given` when not null (a
/// file the user named, say), else the built-in InMoov map of the detected skeleton; nullopt when
/// neither applies.
RETARGET_ALWAYS_LAZY_DECL std::optional<EulerMap> dtwEulerMap(const RobotModel<double>& model, const BvhMotion& motion,
                                                              const EulerMap* given);
/// DTW of the human's joint angles (the Euler mapping of `motion` before limits) against the
/// robot's in `angles` (columns found by name; ParseError naming `source` when one is missing).
RETARGET_ALWAYS_LAZY_DECL DtwEvaluation evaluateDtw(const RobotModel<double>& model, const BvhMotion& motion,
                                                    const EulerMap& config, const JointTrajectory& angles,
                                                    const std::string& source);
/// {"config", "frames_human", "frames_robot", "joints": {name: {"dtw", "weight", "path_length"}},
/// "dtw_mean", "weighted_dtw"}.
RETARGET_ALWAYS_LAZY_DECL nlohmann::ordered_json dtwJson(const DtwEvaluation& e);

// --- physical: MPJPE, joint smoothness and limits, self-penetration, foot sliding / floating.

struct FootEvaluation {
  std::string link;
  FootContact contact;
};

struct PhysicalEvaluation {
  JointSmoothness smoothness;
  std::optional<MotionPositionError> position_error;  ///< Robots with a virtual skeleton rooted at SpineBase.
  std::optional<SelfPenetration> penetration;          ///< Robots with collision shapes.
  std::vector<FootEvaluation> feet;                    ///< Robots with two soles: left, right.
};

/// Physical metrics of `q` (frames x nq, rad) at `time` (s). `motion` (may be null: a motion that
/// is not a skeleton) gives MPJPE and the feet's reference; `collision` (may be null) the
/// penetration depth.
RETARGET_ALWAYS_LAZY_DECL PhysicalEvaluation evaluatePhysical(const RobotModel<double>& model,
                                                              const SkeletonMotion<double>* motion,
                                                              const Eigen::MatrixXd& q, const std::vector<double>& time,
                                                              const SelfCollisionModel<double>* collision);
/// MPJPE is computed with the robot scaled uniformly to the human's size
/// (PositionErrorScaling::kUniform, metrics/position_error.hpp).
/// {"mpjpe"?, "limit_margin_min", "velocity_peak", "velocity_rms", "acceleration_peak",
/// "acceleration_rms", "jerk_peak", "jerk_rms", "velocity_violation_intervals",
/// "penetration"?, "feet"?}; optional parts are absent where they do not apply.
RETARGET_ALWAYS_LAZY_DECL nlohmann::ordered_json physicalJson(const PhysicalEvaluation& e);

// ---------------------------------------------------------------------------------------------

RETARGET_ALWAYS_LAZY_DEF nlohmann::ordered_json finiteOrNull(double value) {
  return std::isfinite(value) ? nlohmann::ordered_json(value) : nlohmann::ordered_json(nullptr);
}

// --- similarity

RETARGET_ALWAYS_LAZY_DEF SimilarityEvaluation evaluateSimilarity(const RobotModel<double>& model,
                                                                 const VirtualSkeletonMap& map,
                                                                 const SkeletonMotion<double>& motion,
                                                                 const Eigen::MatrixXd& q, WbfBase base,
                                                                 const std::string& source) {
  // The coordinates that move the virtual skeleton, hands aside (binary, always on a limit).
  std::vector<int> limited;
  for (const VirtualPointSpec& point : map.points) {
    for (const int j : model.links()[static_cast<std::size_t>(model.linkIndex(point.link))].support) {
      const int i = model.joints()[static_cast<std::size_t>(j)].q_index;
      const bool hand = (!map.hand_left.joint.empty() && i == model.findQ(map.hand_left.joint)) ||
                        (!map.hand_right.joint.empty() && i == model.findQ(map.hand_right.joint));
      if (i >= 0 && !hand && std::find(limited.begin(), limited.end(), i) == limited.end()) limited.push_back(i);
    }
  }
  SimilarityEvaluation out;
  out.base = base;
  VirtualSkeleton<double> skeleton(model, map, base);
  std::vector<SkeletonFrame<double>> robot(motion.size());
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const Eigen::VectorXd q_k = q.row(static_cast<Eigen::Index>(k)).transpose();
    robot[k].time = motion.frames[k].time;
    if (!skeleton.compute(q_k, robot[k]).ok()) throw ParseError(source, k + 2, "expected finite joint angles");
    bool on_limit = false;
    for (int i : limited) {
      on_limit = on_limit || std::abs(q_k[i] - model.lowerLimits()[i]) <= 1e-9 ||
                 std::abs(q_k[i] - model.upperLimits()[i]) <= 1e-9;
    }
    out.on_limit_frames += on_limit ? 1 : 0;
  }
  out.similarity = motionSimilarity(motion.frames, robot);
  BestReachableOptions best_options;
  best_options.wbf_base = base;
  // Best reachable is a search within the limits: angles a little outside them (rounding in a
  // CSV) are taken at the limit.
  Eigen::MatrixXd within = q;
  for (Eigen::Index k = 0; k < within.rows(); ++k) {
    within.row(k) = within.row(k).cwiseMax(model.lowerLimits().transpose()).cwiseMin(model.upperLimits().transpose());
  }
  out.best = motionBestReachable(model, map, motion.frames, within, best_options);
  return out;
}

RETARGET_ALWAYS_LAZY_DEF nlohmann::ordered_json similarityJson(const SimilarityEvaluation& e) {
  const MotionSimilarity<double>& s = e.similarity;
  nlohmann::ordered_json out;
  out["on_limit_frames"] = e.on_limit_frames;
  out["degenerate_frames"] = s.degenerate_frames;
  nlohmann::ordered_json wbf_links = nlohmann::ordered_json::object(), llf_links = nlohmann::ordered_json::object();
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    const auto k = static_cast<std::size_t>(i);
    // null: the link never exists on this robot or in this motion (e.g. Pepper's legs).
    wbf_links[kSimilarityLinkNames[k]] = s.link_frames[k] > 0 ? nlohmann::ordered_json(s.wbf_link_mean[k]) : nullptr;
    llf_links[kSimilarityLinkNames[k]] = s.link_frames[k] > 0 ? nlohmann::ordered_json(s.llf_link_mean[k]) : nullptr;
  }
  out["wbf"] = {{"mean", s.wbf_mean}, {"min", s.wbf_min}, {"links", wbf_links}};
  out["llf"] = {{"mean", s.llf_mean}, {"min", s.llf_min}, {"links", llf_links}};
  out["cosine"] = {{"mean", s.cosine_mean}, {"min", s.cosine_min}};
  out["wbf_base"] = wbfBaseName(e.base);
  out["best_reachable"] = {{"wbf_mean", bestReachableWbfMean(e.best)}, {"llf_mean", bestReachableLlfMean(e.best)}};
  // Per link: achieved and best reachable means (over the frames where the link is valid).
  nlohmann::ordered_json links = nlohmann::ordered_json::object();
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    const auto k = static_cast<std::size_t>(i);
    auto value = [](double v, int frames) { return frames > 0 ? nlohmann::ordered_json(v) : nullptr; };
    links[kSimilarityLinkNames[k]] = {{"wbf", value(e.best.wbf_achieved_mean[k], e.best.wbf_frames[k])},
                                      {"wbf_best_reachable", value(e.best.wbf_best_mean[k], e.best.wbf_frames[k])},
                                      {"llf", value(e.best.llf_achieved_mean[k], e.best.llf_frames[k])},
                                      {"llf_best_reachable", value(e.best.llf_best_mean[k], e.best.llf_frames[k])},
                                      // The same over the frames where the human pose is within reach.
                                      {"within_reach",
                                       {{"wbf_frames", e.best.wbf_within_frames[k]},
                                        {"wbf", value(e.best.wbf_achieved_within_mean[k], e.best.wbf_within_frames[k])},
                                        {"wbf_best_reachable", value(e.best.wbf_best_within_mean[k], e.best.wbf_within_frames[k])},
                                        {"llf_frames", e.best.llf_within_frames[k]},
                                        {"llf", value(e.best.llf_achieved_within_mean[k], e.best.llf_within_frames[k])},
                                        {"llf_best_reachable", value(e.best.llf_best_within_mean[k], e.best.llf_within_frames[k])}}}};
  }
  out["links"] = links;
  return out;
}

RETARGET_ALWAYS_LAZY_DEF double bestReachableWbfMean(const MotionBestReachable<double>& best) {
  return best.wbfBestMean();
}
RETARGET_ALWAYS_LAZY_DEF double bestReachableLlfMean(const MotionBestReachable<double>& best) {
  return best.llfBestMean();
}

// --- collision

RETARGET_ALWAYS_LAZY_DEF CollisionEvaluation evaluateCollision(const RobotModel<double>& model,
                                                               const SelfCollisionModel<double>& collision,
                                                               const Eigen::MatrixXd& q, const PlainMapping* plain) {
  CollisionEvaluation out;
  out.pairs = collision.pairs().size();
  out.margin = collision.margin();
  out.clearance = trajectoryClearance(collision, q);
  if (plain != nullptr) {
    out.reference = plain->method;
    out.w = jointSimilarity(model, plain->q, q);
    out.before = trajectoryClearance(collision, plain->q);
  }
  return out;
}

RETARGET_ALWAYS_LAZY_DEF nlohmann::ordered_json collisionJson(const CollisionEvaluation& e) {
  nlohmann::ordered_json out;
  out["pairs"] = e.pairs;
  out["margin"] = e.margin;
  out["reference"] = e.reference ? nlohmann::ordered_json(*e.reference) : nullptr;
  out["w"] = e.w ? nlohmann::ordered_json{{"mean", e.w->mean}, {"min", e.w->min}} : nlohmann::ordered_json(nullptr);
  out["min_clearance"] = e.clearance.min;
  out["collision_frames"] = e.clearance.collision_frames;
  out["margin_frames"] = e.clearance.margin_frames;
  out["reference_collision_frames"] = e.before ? nlohmann::ordered_json(e.before->collision_frames) : nullptr;
  return out;
}

// --- pose

RETARGET_ALWAYS_LAZY_DEF nlohmann::ordered_json poseJson(const ArmImitation& e) {
  nlohmann::ordered_json out;
  out["counted_frames"] = e.counted_frames;
  out["pacc"] = e.pacc;
  out["pacc_elbow_angle"] = e.pacc_elbow_angle;
  const auto number = [](double v) { return std::isnan(v) ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(v); };
  out["po"] = number(e.po);
  out["human_po"] = number(e.human_po);
  out["po_frames"] = e.po_frames;
  out["po_all"] = e.po_all;
  out["human_po_all"] = e.human_po_all;
  out["los_occlusion"] = e.los_occlusion;
  out["mean_pose_error"] = e.mean_pose_error;
  out["mean_wrist_direction_error"] = e.mean_wrist_direction_error;
  out["largest_joint_step"] = e.largest_joint_step;
  return out;
}

// --- dtw

RETARGET_ALWAYS_LAZY_DEF std::optional<EulerMap> dtwEulerMap(const RobotModel<double>& model, const BvhMotion& motion,
                                                             const EulerMap* given) {
  if (given != nullptr) return *given;
  const std::string skeleton = detectEulerSkeleton(motion);
  if (model.name() != "inmoov" || skeleton.empty()) return std::nullopt;
  return inmoovEulerMap(skeleton);
}

RETARGET_ALWAYS_LAZY_DEF DtwEvaluation evaluateDtw(const RobotModel<double>& model, const BvhMotion& motion,
                                                   const EulerMap& config, const JointTrajectory& angles,
                                                   const std::string& source) {
  if (angles.empty()) throw ParseError(source, 0, "expected at least one frame, got 0");
  EulerMapper<double> mapper(model, motion, config);
  const std::vector<int> joints = mapper.mappedJoints();
  DtwEvaluation out;
  out.config = config.name;
  out.frames_human = motion.frame_count;
  out.frames_robot = angles.size();
  for (int i : joints) out.joints.push_back(model.qName(i));
  // Human trajectories: the mapped angles before limits, one frame per column.
  Eigen::MatrixXd human(static_cast<Eigen::Index>(joints.size()), motion.frame_count);
  Eigen::VectorXd q(model.nq());
  for (int f = 0; f < motion.frame_count; ++f) {
    (void)mapper.map(motion.frameValues(f), q);
    for (std::size_t k = 0; k < joints.size(); ++k) human(static_cast<Eigen::Index>(k), f) = mapper.rawOutput()[joints[k]];
  }
  // Robot trajectories, by joint name.
  Eigen::MatrixXd robot(static_cast<Eigen::Index>(joints.size()), static_cast<Eigen::Index>(angles.size()));
  for (std::size_t k = 0; k < out.joints.size(); ++k) {
    const int column = angles.findJoint(out.joints[k]);
    if (column < 0) throw ParseError(source, 1, "expected a column '" + out.joints[k] + "' in the header");
    robot.row(static_cast<Eigen::Index>(k)) = angles.positions.col(column).transpose();
  }
  out.result = weightedJointDtw(human, robot, rangeOfMotionWeights(model, out.joints));
  return out;
}

RETARGET_ALWAYS_LAZY_DEF nlohmann::ordered_json dtwJson(const DtwEvaluation& e) {
  nlohmann::ordered_json out;
  out["config"] = e.config;
  out["frames_human"] = e.frames_human;
  out["frames_robot"] = e.frames_robot;
  nlohmann::ordered_json per_joint = nlohmann::ordered_json::object();
  for (std::size_t k = 0; k < e.joints.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    per_joint[e.joints[k]] = {{"dtw", e.result.joint_distances[i]},
                              {"weight", e.result.weights[i]},
                              {"path_length", e.result.path_lengths[i]}};
  }
  out["joints"] = per_joint;
  out["dtw_mean"] = e.joints.empty() ? 0.0 : e.result.joint_distances.mean();
  out["weighted_dtw"] = e.result.system_distance;
  return out;
}

// --- physical

RETARGET_ALWAYS_LAZY_DEF PhysicalEvaluation evaluatePhysical(const RobotModel<double>& model,
                                                             const SkeletonMotion<double>* motion,
                                                             const Eigen::MatrixXd& q, const std::vector<double>& time,
                                                             const SelfCollisionModel<double>* collision) {
  PhysicalEvaluation out;
  out.smoothness = jointSmoothness(model, time, q);
  if (collision != nullptr) out.penetration = selfPenetration(*collision, q);
  // The robot's automatic binding, made once: its virtual skeleton (unless it is a paper's robot)
  // and its soles. The options are a named object: GCC 12 fails (internal compiler error) on the
  // temporary in this template.
  const HumanoidBindingOptions automatic{};
  const HumanoidBinding binding = bindHumanoid(model, automatic);
  if (motion != nullptr) {
    if (const auto map = virtualSkeletonMapFor(model, binding)) {
      VirtualSkeleton<double> view(model, *map);
      MotionPositionError error = motionPositionError(view, *motion, q, PositionErrorScaling::kUniform);
      // A robot whose virtual skeleton has no root (SpineBase: Pepper has no legs) has no valid
      // link in any frame: MPJPE does not apply ("—"), it is not a perfect 0.
      int samples = 0;
      for (const int frames : error.link_frames) samples += frames;
      if (samples > 0) out.position_error = std::move(error);
    }
  }
  bool increasing = true;
  for (std::size_t k = 1; k < time.size(); ++k) increasing = increasing && time[k] > time[k - 1];
  if (increasing && !time.empty()) {
    // The robot's soles as its humanoid binding finds them (none for a robot without legs), in
    // the robot frame (z up); the human's stance labels when the motion is this mapping's.
    const std::array<HumanoidSole, 2> soles = humanoidSoles(model, binding);
    std::optional<Eigen::Matrix<int, Eigen::Dynamic, 2>> stance;
    if (motion != nullptr && motion->size() == time.size()) stance = humanStance(*motion);
    Eigen::Isometry3d X_WB = Eigen::Isometry3d::Identity();
    X_WB.linear() = binding.R_BR.transpose();
    for (std::size_t side = 0; side < 2 && soles[0].found && soles[1].found; ++side) {
      const Eigen::Matrix3Xd robot = soleTrajectory(model, soles[side], q, X_WB);
      std::optional<Eigen::VectorXi> labels;
      if (stance) labels = stance->col(static_cast<Eigen::Index>(side));
      out.feet.push_back(FootEvaluation{soles[side].link, footContact(time, robot, labels ? &*labels : nullptr)});
    }
  }
  return out;
}

RETARGET_ALWAYS_LAZY_DEF nlohmann::ordered_json physicalJson(const PhysicalEvaluation& e) {
  const JointSmoothness& s = e.smoothness;
  nlohmann::ordered_json out;
  if (e.position_error) {
    out["mpjpe"] = {{"mean", e.position_error->mpjpe},
                    {"max", e.position_error->max},
                    {"degenerate_frames", e.position_error->degenerate_frames},
                    {"scaling", positionErrorScalingName(e.position_error->scaling)},
                    {"size_ratio", e.position_error->size_ratio}};
  }
  out["limit_margin_min"] = finiteOrNull(s.limit_margin_min);
  out["velocity_peak"] = s.velocity_peak_max;
  out["velocity_rms"] = s.velocity_rms_all;
  out["acceleration_peak"] = s.acceleration_peak_max;
  out["acceleration_rms"] = s.acceleration_rms_all;
  out["jerk_peak"] = s.jerk_peak_max;
  out["jerk_rms"] = s.jerk_rms_all;
  out["velocity_violation_intervals"] = s.velocity_violation_intervals;
  if (e.penetration) {
    out["penetration"] = {{"max", e.penetration->max_depth},
                          {"mean", e.penetration->mean_depth},
                          {"frames", e.penetration->frames_in_penetration},
                          {"worst_pair", e.penetration->worst_pair}};
  }
  if (!e.feet.empty()) {
    double sliding = 0, floating_max = 0;
    nlohmann::ordered_json feet = nlohmann::ordered_json::object();
    for (const FootEvaluation& f : e.feet) {
      sliding += f.contact.sliding;
      floating_max = std::max(floating_max, f.contact.floating_max);
      feet[f.link] = {{"contact_frames", f.contact.contact_frames},
                      {"sliding", f.contact.sliding},
                      {"sliding_speed", f.contact.sliding_speed},
                      {"reference_contact_frames", f.contact.reference_contact_frames},
                      {"floating_frames", f.contact.floating_frames},
                      {"floating_mean", f.contact.floating_mean},
                      {"floating_max", f.contact.floating_max}};
    }
    out["feet"] = {{"sliding", sliding}, {"floating_max", floating_max}, {"links", feet}};
  }
  return out;
}

}  // namespace retarget::app
