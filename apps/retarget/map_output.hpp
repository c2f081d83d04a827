#pragma once

// The part of `retarget map` that every method shares: the post-processing filters composed
// after the mapper (--smooth, --max-joint-speed), the joint-angle CSV and the summary line.

#include <string>

#include <retarget/app/method_settings.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/mapper.hpp>

#include "cli.hpp"

namespace retarget::cli {

/// The table's settings (retarget/app/methods.hpp) of a `map` request.
app::MethodSettings mapSettings(const MapRequest& request);

/// Throws UsageError "map --method <name>: <why>" when the request's method does not apply to
/// `model` (app::methodRefusal), and for a --config given to a method that takes none.
void refuseUnlessApplies(const MapRequest& request, const RobotModel<double>& model);

/// `retarget map` for a method without a runner of its own: the table builds it, the generic
/// summary follows ("<method> (<robot>)").
void runTableMethod(const MapRequest& request);

/// Applies the request's filters to `mapped.q` (in place, frame by frame, as a live pipeline
/// would), writes the CSV named by the request and prints "retarget: <label>: ..." to stderr.
/// `method_json`: an optional JSON object of the method's own figures, printed under "details"
/// in the --json summary.
void finishMap(const MapRequest& request, const RobotModel<double>& model, MappedMotion<double>& mapped,
               const std::string& label, const std::string& method_json = std::string());

/// What the written angles show about the request's limits: computed from the final rows alone,
/// after every stage — finite differences for the speeds, the collision model's signed
/// distances for clearance.
struct WrittenSafety {
  bool collision_checked = false, joint_speed_checked = false, point_speed_checked = false;
  int collision_frames = 0;        ///< some capsule pair closer than 0 m
  double min_clearance = 0;        ///< m
  int joint_speed_frames = 0;      ///< some joint faster than --max-joint-speed
  double max_joint_speed = 0;      ///< rad/s
  int point_speed_frames = 0;      ///< some hand/elbow faster than --max-hand-speed
  double max_point_speed = 0;      ///< m/s
  int unmet_frames = 0;            ///< frames that miss any checked limit
  /// "; written angles: ..." for the summary line (empty when nothing was checked).
  std::string summary() const;
  /// The same as a JSON object (text).
  std::string json() const;
};

/// The safety stages (map_safety.cpp): --smooth, --max-joint-speed, --max-hand-speed and
/// --avoid-collisions on `mapped.q` (in place, frame by frame, as a live pipeline would); with
/// avoidance one SafetyPipeline, else filters. Returns its part of the summary line; `written`
/// (when given) receives what the final rows show, checked with the same collision model.
std::string applySafetyStages(const MapRequest& request, const RobotModel<double>& model, MappedMotion<double>& mapped,
                              WrittenSafety* written = nullptr);

/// The per-joint summary of a mapped motion as JSON (what `retarget map --json` prints):
/// frames, clamped/held/invalid/discontinuity frame counts, and per joint the clamped frames,
/// the worst clamp amount (rad) and the held frames.
/// `safety_json`: a WrittenSafety::json() object added as "safety" (empty: none); `method_json`:
/// the method's own figures, added as "details" (empty: none).
std::string mapSummaryJson(const RobotModel<double>& model, const MappedMotion<double>& mapped,
                           const std::string& label, const std::string& output_path,
                           const std::string& safety_json = {}, const std::string& method_json = {});

}  // namespace retarget::cli
