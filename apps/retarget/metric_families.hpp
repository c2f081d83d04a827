#pragma once

// The metric families of `retarget eval`, computed once here and called by eval (on an angles
// CSV), compare (on each method's mapping) and report: each family is an `evaluate*` function
// returning a plain result and a `*Json` function giving the keys `retarget eval --metrics
// <family> --json` prints after its common head. compare and report embed these objects
// unchanged, so the numbers agree with eval by construction (and the tests check it).
//
// Where each family applies (docs/metrics.md, "Which metric applies where"):
//  - similarity: robots with a virtual skeleton (a GA-LVVJ map: NAO, Pepper), skeleton motions;
//  - collision:  robots with collision shapes (cliCollisionModel), skeleton motions; its W
//                needs the plain mapping of the method that produced the angles;
//  - pose:       robots with a PIC map (Baxter, YuMi, NAO, Pepper), skeleton motions;
//  - dtw:        BVH motions with an Euler map (the built-in InMoov ones or --config);
//  - physical:   every robot; its MPJPE part needs a virtual skeleton, penetration collision
//                shapes, foot sliding/floating feet (footLinks).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/euler_map.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>
#include <retarget/metrics/arm_imitation.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/foot_contact.hpp>
#include <retarget/metrics/joint_similarity.hpp>
#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/metrics/weighted_dtw.hpp>
#include <retarget/safety/self_collision.hpp>

namespace retarget::cli {

/// A JSON number, or null when `value` is not finite (an unknown limit, +inf margin).
nlohmann::ordered_json finiteOrNull(double value);

// --- similarity: WBF (seed 000 Eq. 44), LLF (Eq. 46), cosine (seed 003 Eq. 1), best reachable.

struct SimilarityEvaluation {
  MotionSimilarity<double> similarity;
  MotionBestReachable<double> best;
  WbfBase base = WbfBase::kTorso;
  int on_limit_frames = 0;  ///< Frames with a mapped joint (hands excluded) within 1e-9 rad of a limit.
};

/// Similarity of the robot at `q` (frames x nq, rad; one row per motion frame) to `motion`.
/// `source` names the angles in errors: ParseError(source, row + 2) for a non-finite row.
SimilarityEvaluation evaluateSimilarity(const RobotModel<double>& model, const GaLvvjMap& map,
                                        const SkeletonMotion<double>& motion, const Eigen::MatrixXd& q,
                                        WbfBase base, const std::string& source);
/// {"on_limit_frames", "degenerate_frames", "wbf", "llf", "cosine", "wbf_base", "links"}.
nlohmann::ordered_json similarityJson(const SimilarityEvaluation& e);
/// Means of the per-link best reachable WBF / LLF, weighted by the frames where each link is
/// valid (the best reachable counterpart of the motion's WBF / LLF means).
double bestReachableWbfMean(const MotionBestReachable<double>& best);
double bestReachableLlfMean(const MotionBestReachable<double>& best);

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
CollisionEvaluation evaluateCollision(const RobotModel<double>& model, const SelfCollisionModel<double>& collision,
                                      const Eigen::MatrixXd& q, const PlainMapping* plain);
/// {"pairs", "margin", "reference", "w", "min_clearance", "collision_frames", "margin_frames",
/// "reference_collision_frames"}.
nlohmann::ordered_json collisionJson(const CollisionEvaluation& e);

// --- pose: seed 004 Pacc (Eq. 4), PO (Eq. 5), largest joint step (metrics/arm_imitation.hpp).

/// {"counted_frames", "pacc", "po", "mean_pose_error", "largest_joint_step"}.
nlohmann::ordered_json poseJson(const ArmImitation& e);

// --- dtw: per-joint DTW and the weighted system value A_w (paper 002 Eqs. 11-13).

struct DtwEvaluation {
  std::string config;                 ///< Name of the Euler map giving the human's joint angles.
  std::vector<std::string> joints;    ///< The mapped joints, in the order of `result`.
  WeightedDtwResult<double> result;
  int frames_human = 0;
  std::size_t frames_robot = 0;
};

/// The Euler map the dtw family reads the human's joint angles with: `config_path` when given,
/// else the built-in InMoov map of the detected skeleton; nullopt when neither applies.
std::optional<EulerMap> dtwEulerMap(const RobotModel<double>& model, const BvhMotion& motion,
                                    const std::string& config_path);
/// DTW of the human's joint angles (the Euler mapping of `motion` before limits) against the
/// robot's in `angles` (columns found by name; ParseError naming `source` when one is missing).
DtwEvaluation evaluateDtw(const RobotModel<double>& model, const BvhMotion& motion, const EulerMap& config,
                          const JointTrajectory& angles, const std::string& source);
/// {"config", "frames_human", "frames_robot", "joints": {name: {"dtw", "weight", "path_length"}},
/// "dtw_mean", "weighted_dtw"}.
nlohmann::ordered_json dtwJson(const DtwEvaluation& e);

// --- physical: MPJPE, joint smoothness and limits, self-penetration, foot sliding / floating.

struct FootEvaluation {
  std::string link;
  FootContact contact;
};

struct PhysicalEvaluation {
  JointSmoothness smoothness;
  std::optional<MotionPositionError> position_error;  ///< Robots with a virtual skeleton rooted at SpineBase.
  std::optional<SelfPenetration> penetration;          ///< Robots with collision shapes.
  std::vector<FootEvaluation> feet;                    ///< Robots with feet: left, right.
};

/// Physical metrics of `q` (frames x nq, rad) at `time` (s). `motion` (may be null: a motion that
/// is not a skeleton) gives MPJPE and the feet's reference; `collision` (may be null) the
/// penetration depth.
PhysicalEvaluation evaluatePhysical(const RobotModel<double>& model, const SkeletonMotion<double>* motion,
                                    const Eigen::MatrixXd& q, const std::vector<double>& time,
                                    const SelfCollisionModel<double>* collision);
/// MPJPE is computed with the robot scaled uniformly to the human's size
/// (PositionErrorScaling::kUniform, metrics/position_error.hpp).
/// {"mpjpe"?, "limit_margin_min", "velocity_peak", "velocity_rms", "acceleration_peak",
/// "acceleration_rms", "jerk_peak", "jerk_rms", "velocity_violation_intervals",
/// "penetration"?, "feet"?}; optional parts are absent where they do not apply.
nlohmann::ordered_json physicalJson(const PhysicalEvaluation& e);

}  // namespace retarget::cli
