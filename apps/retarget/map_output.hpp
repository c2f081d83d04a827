#pragma once

// The part of `retarget map` that every method shares: the post-processing filters composed
// after the mapper (--smooth, --max-joint-speed), the joint-angle CSV and the summary line.

#include <string>

#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/mapper.hpp>

#include "cli.hpp"

namespace retarget::cli {

/// Applies the request's filters to `mapped.q` (in place, frame by frame, as a live pipeline
/// would), writes the CSV named by the request and prints "retarget: <label>: ..." to stderr.
void finishMap(const MapRequest& request, const RobotModel<double>& model, MappedMotion<double>& mapped,
               const std::string& label);

/// The per-joint summary of a mapped motion as JSON (what `retarget map --json` prints):
/// frames, clamped/held/invalid/discontinuity frame counts, and per joint the clamped frames,
/// the worst clamp amount (rad) and the held frames.
std::string mapSummaryJson(const RobotModel<double>& model, const MappedMotion<double>& mapped,
                           const std::string& label, const std::string& output_path);

}  // namespace retarget::cli
