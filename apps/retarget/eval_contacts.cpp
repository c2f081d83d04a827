// `retarget eval <motion> <floating.csv> --robot R --metrics contacts [--json]`: the ground
// contacts of a floating-base motion (metrics/ground_contact.hpp, docs/metrics.md "Ground
// contacts"), the CSV that `retarget map --method humanoid --floating-base` writes: penetration,
// floating, sliding and tilted soles in the stance frames its contact columns label, the
// robot's contacts against those labels, the hips' path against the human's scaled one, and the
// root's jerk.
#include <array>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/io/floating_base_csv.hpp>
#include <retarget/metrics/ground_contact.hpp>
#include <retarget/robots/humanoid_soles.hpp>

#include "batch_mapping.hpp"
#include "cli.hpp"
#include "eval_common.hpp"
#include "motion_loading.hpp"
#include "robot_binding.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

void runContacts(const EvalRequest& request) {
  const RobotModel<double> model = loadRobot(request.robot);
  const SkeletonMotion<double> motion = loadMotion(request.motion_path);
  const FloatingBaseTrajectory t = readFloatingBaseCsv(request.angles_path);
  if (t.size() != motion.size()) {
    throw ParseError(request.angles_path, 0,
                     "expected one row per motion frame (" + std::to_string(motion.size()) + "), got " +
                         std::to_string(t.size()) + " (a file resampled with --fps has other frames)");
  }
  if (t.joint_names != model.qNames()) {
    throw ParseError(request.angles_path, 1, "expected the joints of robot '" + model.name() + "' in its order");
  }
  const HumanoidBinding binding = bindRobot(model);
  const std::array<HumanoidSole, 2> soles = humanoidSoles(model, binding);
  for (const HumanoidSole& sole : soles) {
    if (!sole.found)
      throw UsageError("eval --metrics contacts: robot '" + model.name() + "' has no sole (" + sole.source + ")");
  }
  std::vector<Eigen::Isometry3d> X_WB;
  for (std::size_t k = 0; k < t.size(); ++k) X_WB.push_back(t.rootPose(k));
  const double scale = humanoidLegScale(binding, motion);
  const GroundContact c = groundContact(model, binding, soles, t.time, X_WB, t.q, t.contacts, &motion, scale);
  if (request.json) {
    nlohmann::ordered_json out = evalJsonHead(request, "contacts", model, motion.size());
    out["scale"] = scale;
    out.update(groundContactJson(c, soles));
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << "ground contacts of " << request.angles_path << " (" << model.name() << "): " << motion.size()
            << " frames\n";
  std::cout << "  penetration         " << c.penetration_frames << " frames with a sole below -1 cm (deepest "
            << fixed(c.deepest, 4) << " m)\n";
  for (std::size_t s = 0; s < 2; ++s) {
    const FootGroundContact& f = c.feet[s];
    std::cout << "  " << (s == 0 ? "left " : "right") << " sole " << soles[s].link << ": " << f.stance_frames
              << " stance frames in " << f.stances << " stances; floating above 2 cm " << f.floating_frames << " (max "
              << fixed(f.max_float, 4) << " m), sliding over 0.3 m/s " << f.sliding_frames << " (max "
              << fixed(f.max_slide_speed, 3) << " m/s; slide per stance max " << fixed(f.max_slide, 4) << " m, mean "
              << fixed(f.mean_slide, 4) << " m), tilted over 10 deg " << f.tilted_frames << " (max "
              << fixed(f.max_tilt * 180.0 / kPi<double>, 2) << " deg)\n";
  }
  std::cout << "  contact agreement   " << fixed(c.agreement, 4) << " of frames and feet\n";
  if (c.root_path_checked) {
    std::cout << "  hips' path          RMS " << fixed(c.root_path_rms, 4) << " m, max " << fixed(c.root_path_max, 4)
              << " m from the human's scaled by " << fixed(scale, 4) << " (a constant offset removed)\n";
  }
  std::cout << "  root jerk           RMS " << fixed(c.root_jerk_rms, 1) << " m/s^3\n";
}

const bool kEvalContactsRegistered = registerEvalMetrics(EvalMetrics{
    "contacts",
    "ground contacts of a floating-base CSV (map --floating-base): penetration, floating, sliding, tilted soles, "
    "contact agreement, the hips' path, root jerk",
    false, runContacts});

}  // namespace
}  // namespace retarget::cli
