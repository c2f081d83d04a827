// NAO standing on one foot as the human does: the whole-body pipeline (seed 000) decides the
// support mode, maps the pose with GA-LVVJ and keeps the centre of mass over the feet with its
// balance QP every 20 ms. The pipeline takes its mapper as a template parameter: the same
// composition after HumanoidMapper, standing on humanoidBalanceFeet(model, binding), balances G1. Mode changes arrive
// as events; while the human walks, walk commands arrive for the robot's own walking controller.
#include <iostream>

#include <retarget/control/whole_body.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/robots/nao.hpp>

int main() {
  using namespace retarget;
  const RobotModel<double> nao = makeNao();
  // GA-LVVJ leaning the trunk with the human's, on NAO's force-sensor feet; allocates here, never per frame.
  WholeBody<GaLvvjMapper<double>> pipeline(nao, GaLvvjMapper<double>(nao, naoGaLvvjMap(), wholeBodyGaLvvjOptions()),
                                           naoBalanceFeet());

  const SkeletonMotion<double> take = demoMotion("one-leg-stand", DemoMotionOptions{30.0, 6.0, 1.75});
  Eigen::VectorXd q(nao.nq());
  double closest = 1.0;  // m: closest approach of the CoM to the edge of the shrunk support
  for (const SkeletonFrame<double>& frame : take.frames) {
    const Status status = pipeline.map(frame, q);
    const WholeBodyReport& r = pipeline.report();
    if (r.changed) {  // the robot's mode: after the balance's shift or landing
      std::cout << "t = " << r.event.time << " s: " << supportModeName(r.event.from) << " -> "
                << supportModeName(r.event.to) << "\n";
    }
    if (r.modes.has_walk_command) std::cout << "walk " << r.modes.command.dx << " m forward\n";
    if (r.balance.phase == BalancePhase::kSingleRight || r.balance.phase == BalancePhase::kDouble) {
      closest = std::min(closest, r.balance.com_margin);
    }
    if (status.has(StatusCode::kNotConverged) || !withinLimits(nao, q)) return 1;
    // send_to_robot(q);
  }
  std::cout << take.size() << " frames; the centre of mass stayed at least " << closest * 1000
            << " mm inside the support polygon shrunk by " << pipeline.options().balance.safety_margin * 1000
            << " mm\n";
  return closest >= 0.0 ? 0 : 1;
}
