// `retarget map --whole-body` (methods ga-lvvj and humanoid): the whole-body pipeline of seed
// 000 (control/whole_body.hpp: support modes, locomotion, balance QP) after the method's mapper,
// standing on the robot's feet (NAO's sole frames for GA-LVVJ, the soles of any bound humanoid
// for the humanoid mapper; retarget/app/whole_body.hpp). --config is then the method's whole-body
// configuration (retarget/app/whole_body_json.hpp): the stage's keys and the mapper's options
// under "ga_lvvj" or "humanoid". The summary names the support modes entered with their frame
// counts; the events file has one JSON object per line: {"frame", "time", "event": "mode",
// "from", "to"} for each transition and {"frame", "time", "event": "walk", "dx", "dy", "dtheta",
// "duration"} (m, rad, s; robot base frame, x forward, y left) for each walk command, and
// {"frame", "time", "event": "refused", "reason": "too-short" | "too-fast", "foot", "start",
// "peak_speed"} for each lift of the human's foot the robot did not follow onto one foot (peak
// speed in leg lengths/s).
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/control/whole_body.hpp>
#include <retarget/mappers/mapper.hpp>

#include "cli.hpp"
#include "map_output.hpp"
#include "motion_loading.hpp"

namespace retarget::cli {

/// Refuses the post-mapper stages that would undo the balance (a usage error).
inline void refuseStagesAfterWholeBody(const MapRequest& request) {
  if (request.smooth > 0 || request.max_joint_speed > 0 || request.avoid_collisions || request.max_hand_speed > 0) {
    throw UsageError(
        "map --whole-body: the balance stage comes last; --smooth, --max-joint-speed, --avoid-collisions and "
        "--max-hand-speed after it would undo what it keeps (centre of mass over the feet)");
  }
}

/// Maps the request's motion through `pipeline` (a WholeBody<Mapper>), writes the events file and
/// the angles, and prints the summary (`label` names the method and robot).
template <typename Pipeline>
void runWholeBody(const MapRequest& request, const RobotModel<double>& model, Pipeline& pipeline,
                  const std::string& label) {
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  std::ofstream events;
  if (!request.events_path.empty()) {
    events.open(request.events_path);
    if (!events) throw Error("cannot write '" + request.events_path + "'");
  }
  std::map<SupportMode, int> frames_in;
  std::map<SupportMode, int> entered;
  int walk_commands = 0, com_limited = 0, held = 0, rate_limited = 0, refused = 0, refused_fast = 0;
  double margin_min = INFINITY;
  MappedMotion<double> mapped = mapMotion(pipeline, motion, [&](std::size_t frame, const Pipeline& p) {
    const WholeBodyReport& r = p.report();
    ++frames_in[r.mode];
    if (r.changed) {
      ++entered[r.event.to];
      if (events.is_open()) {
        events << nlohmann::json{{"frame", r.event.frame},
                                 {"time", r.event.time},
                                 {"event", "mode"},
                                 {"from", supportModeName(r.event.from)},
                                 {"to", supportModeName(r.event.to)}}
                      .dump()
               << "\n";
      }
    }
    if (r.modes.has_walk_command) {
      ++walk_commands;
      if (events.is_open()) {
        const WalkCommand& c = r.modes.command;
        events << nlohmann::json{{"frame", c.frame}, {"time", c.time},     {"event", "walk"},       {"dx", c.dx},
                                 {"dy", c.dy},       {"dtheta", c.dtheta}, {"duration", c.duration}}
                      .dump()
               << "\n";
      }
    }
    if (r.modes.refused) {
      const StepRefusal& f = r.modes.refusal;
      ++refused;
      refused_fast += f.reason == StepRefusal::Reason::kTooFast ? 1 : 0;
      if (events.is_open()) {
        events << nlohmann::json{{"frame", static_cast<std::int64_t>(frame)},
                                 {"time", f.end_time},
                                 {"event", "refused"},
                                 {"reason", stepRefusalReasonName(f.reason)},
                                 {"foot", f.left ? "left" : "right"},
                                 {"start", f.start_time},
                                 {"peak_speed", f.peak_speed}}
                      .dump()
               << "\n";
      }
    }
    com_limited += r.com_limited ? 1 : 0;
    held += r.balance_held ? 1 : 0;
    rate_limited += r.rate_limited ? 1 : 0;
    // The margin against the polygon the robot stands on (a shift measures it against the
    // foot it is moving onto, which the centre of mass only reaches at the end).
    const BalancePhase phase = r.balance.phase;
    if (r.control_periods > 0 && phase != BalancePhase::kShiftLeft && phase != BalancePhase::kShiftRight) {
      margin_min = std::min(margin_min, r.balance.com_margin);
    }
  });
  if (events.is_open()) {
    events.flush();
    if (!events) throw Error("cannot write '" + request.events_path + "'");
  }
  std::string modes;
  for (const SupportMode m :
       {SupportMode::kDouble, SupportMode::kSingleLeft, SupportMode::kSingleRight, SupportMode::kWalking}) {
    if (frames_in.count(m) == 0) continue;
    modes +=
        std::string(modes.empty() ? "" : ", ") + supportModeName(m) + " " + std::to_string(frames_in[m]) + " frames";
    if (entered.count(m) != 0) modes += " (entered " + std::to_string(entered[m]) + "x)";
  }
  std::cerr << "retarget: whole body: support modes " << modes << "; " << walk_commands << " walk commands; " << refused
            << " steps refused (" << refused_fast << " too fast for the robot's legs, " << refused - refused_fast
            << " too short to stand on one foot)";
  if (pipeline.options().balance_enabled) {
    std::cerr << "; balance: centre of mass held at the margin in " << com_limited << " frames, steps not taken in "
              << held << " frames, behind for its joint speeds in " << rate_limited
              << " frames, closest approach to the shrunk support polygon "
              << (std::isfinite(margin_min) ? fixed(margin_min * 1000.0, 1) + " mm inside" : std::string("-"));
  } else {
    std::cerr << "; balance off";
  }
  if (!request.events_path.empty()) std::cerr << "; events -> " << request.events_path;
  std::cerr << "\n";
  finishMap(request, model, mapped, label);
}

}  // namespace retarget::cli
