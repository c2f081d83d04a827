// `retarget map <motion> --robot <name|file.urdf> --method <method> [--config file.json]
//  [--smooth ALPHA] [--max-joint-speed RAD_S] -o <angles.csv>`: any method, then the filters.
#include <iostream>

#include "batch_mapping.hpp"
#include "cli.hpp"
#include "map_output.hpp"

namespace retarget::cli {
namespace {

const bool kMapRegistered = registerCommand(Command{
    "map", "Map a human motion onto a robot with one method and write joint angles (CSV)",
    [](CLI::App& command) {
      auto request = std::make_shared<MapRequest>();
      command.add_option("motion", request->motion_path, "motion file (BVH, Kinect CSV/TXT, skeleton CSV, ...)")
          ->required();
      command.add_option("--robot", request->robot, "built-in robot name or URDF file")->required();
      command.add_option("--method", request->method,
                         methodNames(" | "))
          ->required();
      command.add_option("--config", request->config_path, "method configuration file");
      command.add_option("--robot-schema", request->robot_schema,
                         "humanoid: robot schema (JSON) pinning the automatic binding (retarget schema suggest robot.urdf)");
      command.add_option("-o,--output", request->output_path, "joint-angle CSV to write")->required();
      command.add_flag("--json", request->json, "print the per-joint summary (clamped, worst amount, held) as JSON");
      command
          .add_option("--smooth", request->smooth,
                      "exponential smoothing after the mapper: weight of the new frame, in (0, 1] (0: off)")
          ->check(CLI::Range(0.0, 1.0));
      command.add_option("--max-joint-speed", request->max_joint_speed,
                         "rate limit after the mapper, rad/s per joint (0: off)")
          ->check(CLI::NonNegativeNumber);
      command.add_flag("--avoid-collisions", request->avoid_collisions,
                       "self-collision avoidance after the mapper (robots with a collision model)");
      command.add_option("--solver", request->solver, "avoidance solver: slsqp (default, gradients) or cobyla")
          ->check(CLI::IsMember({"slsqp", "cobyla"}));
      command.add_option("--margin", request->margin, "avoidance clearance margin, m (default 0.01)")
          ->check(CLI::NonNegativeNumber);
      command.add_option("--max-hand-speed", request->max_hand_speed,
                         "Cartesian speed limit on hands and elbows, m/s (0: off; the seed uses 0.25)")
          ->check(CLI::NonNegativeNumber);
      command.add_option("--softening", request->softening, "PICs softening factor K (seed 004 Eq. 3), 0..3")
          ->check(CLI::Range(0, 3));
      command.add_flag("--soften-always", request->soften_always,
                       "pics: soften the octants in every frame, seed 004 Section III-B3's reading (default: only "
                       "where PIC finds no solution, Section I's reading)");
      command.add_flag("--force-octants", request->force_octants,
                       "pic, pics: a final pass that forces every arm link into its octants (default: the paper's "
                       "loop, where OUT wins over IN)");
      command.add_option("--particles", request->particles, "pf, gpdm-pf: number of particles (default 200; gpdm-pf 30)")
          ->check(CLI::Range(1, 1000000));
      command.add_option("--model", request->model_path, "gpdm-pf: learned motion model (.gpdm, from retarget learn gpdm)");
      command.add_option("--fallback", request->fallback,
                         "gpdm-pf: ga-lvvj writes GA-LVVJ's angles on frames the model does not explain (default: none)")
          ->check(CLI::IsMember({"none", "ga-lvvj"}));
      command.add_option("--seed", request->seed, "pf, gpdm-pf: random seed (default 1: the same command gives the same file)");
      command.add_option("--pf-noise", request->pf_noise, "pf: random-walk step per joint, rad per frame (default 0.05)")
          ->check(CLI::PositiveNumber);
      command.add_flag("--whole-body", request->whole_body,
                       "ga-lvvj on NAO, humanoid on any bound humanoid: support modes, walk commands and the "
                       "balance QP after the mapper (seed 000 Sections 3.5, 4, 5)");
      command.add_flag("--no-balance", request->no_balance, "--whole-body without the balance QP (for comparison)");
      command.add_flag("--trunk-lean", request->trunk_lean,
                       "ga-lvvj: lean the robot's trunk with the human's, the ankles keeping the soles level (on by "
                       "default with --whole-body)");
      command.add_option("--events", request->events_path,
                         "--whole-body: write every mode transition and walk command as JSON lines");
      command.add_flag("--floating-base", request->floating_base,
                       "humanoid: write the root's pose and the feet's contacts too, the soles planted where the "
                       "human's feet stand (docs/datasets.md)");
      command
          .add_option("--format", request->format,
                      "--floating-base: csv (ours, with a header; default) or unitree (headerless x,y,z,qx,qy,qz,qw,"
                      "joints: Unitree's LAFAN1 layout that BeyondMimic, mjlab and ProtoMotions read)")
          ->check(CLI::IsMember({"csv", "unitree"}));
      command
          .add_option("--fps", request->fps, "--floating-base: output frame rate (resampled; default: the motion's)")
          ->check(CLI::PositiveNumber);
      command
          .add_option("--scale", request->scale,
                      "--floating-base: robot length over human length (default: the legs' ratio, measured)")
          ->check(CLI::PositiveNumber);
      command.callback([request] {
        if (!isMethod(request->method)) {
          throw UsageError("map: unknown method '" + request->method + "' (known: " + methodNames(", ") + ")");
        }
        if (request->whole_body && request->method != "ga-lvvj" && request->method != "humanoid") {
          throw UsageError("map: --whole-body works with --method ga-lvvj or humanoid only (got '" + request->method +
                           "')");
        }
        if (request->whole_body && request->floating_base) {
          throw UsageError(
              "map: --whole-body and --floating-base are two ways to give the legs (a balanced fixed-base stance, "
              "or the root and contacts); pick one");
        }
        if (request->trunk_lean && request->method != "ga-lvvj") {
          throw UsageError("map: --trunk-lean works with --method ga-lvvj only (got '" + request->method + "')");
        }
        if (!request->whole_body && (request->no_balance || !request->events_path.empty())) {
          throw UsageError("map: --no-balance and --events need --whole-body");
        }
        if (request->floating_base && request->method != "humanoid") {
          throw UsageError("map: --floating-base works with --method humanoid only (got '" + request->method + "')");
        }
        if (!request->floating_base && (request->format != "csv" || request->fps > 0 || request->scale > 0)) {
          throw UsageError("map: --format, --fps and --scale need --floating-base");
        }
        if (request->floating_base && (request->smooth > 0 || request->max_joint_speed > 0 ||
                                       request->avoid_collisions || request->max_hand_speed > 0)) {
          throw UsageError(
              "map: --floating-base keeps the model's own speed limits and the contacts in its solve; a filter after "
              "it "
              "(--smooth, --max-joint-speed, --max-hand-speed, --avoid-collisions) would move the planted feet");
        }
        // A method's own runner (it prints what only it reports), else the table's generic one.
        const auto it = mapMethods().find(request->method);
        if (it != mapMethods().end()) {
          it->second.run(*request);
        } else {
          runTableMethod(*request);
        }
      });
    }});

}  // namespace
}  // namespace retarget::cli
