// `retarget eval <motion> <angles.csv> --robot R --metrics physical [--json]`: the physical
// metrics of a robot trajectory (docs/metrics.md, "Physical and smoothness metrics"): joint
// velocity, acceleration and jerk peaks and RMS on the CSV's own time stamps, velocity-limit
// violations, the joint-limit margin; MPJPE on robots with a virtual skeleton (the robot scaled
// by one factor to the human's size, so body proportions count: metrics/position_error.hpp);
// the deepest self-penetration on robots with collision shapes; foot sliding and floating of
// the soles of humanoids (the human's stance labels as the contact reference).
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

#include <retarget/app/metric_families.hpp>
#include "batch_mapping.hpp"
#include "cli.hpp"
#include "eval_common.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runPhysical(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const JointTrajectory angles = loadAnglesFor(request, model, motion);
  const std::optional<SelfCollisionModel<double>> collision = cliCollisionModel(model);
  const PhysicalEvaluation e =
      evaluatePhysical(model, &motion, angles.positions, angles.times, collision ? &*collision : nullptr);
  if (request.json) {
    nlohmann::ordered_json out = evalJsonHead(request, "physical", model, motion.size());
    out.update(physicalJson(e));
    std::cout << out.dump(2) << "\n";
    return;
  }
  const JointSmoothness& s = e.smoothness;
  std::cout << "physical metrics of " << request.angles_path << " (" << model.name() << "): " << motion.size()
            << " frames\n";
  if (e.position_error) {
    std::cout << "  MPJPE               " << fixed(e.position_error->mpjpe, 4) << " m (max "
              << fixed(e.position_error->max, 4) << " m): joints from SpineBase, the robot scaled by "
              << fixed(e.position_error->size_ratio, 2)
              << " (human's summed link lengths over the robot's); differences in proportions count\n";
  }
  std::cout << "  joint-limit margin  " << fixed(s.limit_margin_min, 4) << " rad (smallest over frames and the "
            << s.limit_margin_joints << " joints that move)\n";
  std::cout << "  velocity            peak " << fixed(s.velocity_peak_max, 3) << " rad/s, RMS "
            << fixed(s.velocity_rms_all, 3) << " rad/s; " << s.velocity_violation_intervals
            << " intervals over a velocity limit\n";
  std::cout << "  acceleration        peak " << fixed(s.acceleration_peak_max, 2) << " rad/s^2, RMS "
            << fixed(s.acceleration_rms_all, 2) << " rad/s^2\n";
  std::cout << "  jerk                peak " << fixed(s.jerk_peak_max, 1) << " rad/s^3, RMS " << fixed(s.jerk_rms_all, 1)
            << " rad/s^3\n";
  if (e.penetration) {
    std::cout << "  self-penetration    max " << fixed(e.penetration->max_depth, 4) << " m in "
              << e.penetration->frames_in_penetration << " frames"
              << (e.penetration->worst_pair.empty() ? std::string() : " (worst: " + e.penetration->worst_pair + ")")
              << "\n";
  }
  for (const FootEvaluation& f : e.feet) {
    std::cout << "  foot " << f.link << ": sliding " << fixed(f.contact.sliding, 4) << " m in "
              << f.contact.contact_frames << " contact frames; floating max " << fixed(f.contact.floating_max, 4)
              << " m over " << f.contact.reference_contact_frames << " frames of human contact\n";
  }
}

const bool kEvalPhysicalRegistered = registerEvalMetrics(EvalMetrics{
    "physical",
    "MPJPE, joint velocity/acceleration/jerk, velocity-limit violations, limit margin, self-penetration, foot "
    "sliding/floating",
    false, runPhysical});

}  // namespace
}  // namespace retarget::cli
