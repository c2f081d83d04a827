#pragma once

// Shared plumbing of the `retarget` command-line program. Each subcommand lives in its own
// file and registers itself here, so adding a command or a method never edits main.cpp.
//
// Exit codes: 0 success, 1 bad input (a retarget::Error naming file and line), 2 bad usage.

#include <cstdio>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include <retarget/fwd.hpp>

namespace retarget::app {}

namespace retarget::cli {

// The application layer (include/retarget/app/: what the command line and Python share) is used
// here unqualified.
using namespace retarget::app;

inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 1;
inline constexpr int kExitUsage = 2;

/// `value` in fixed-point notation with `decimals` digits after the point (printf "%.*f").
inline std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

/// Thrown by command code for wrong usage (unknown method, missing option): exit code 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The usage error for a feature whose optional part this build lacks (exit code 2): names the
/// feature, the part and the Debian package that brings it, e.g. "live --source noitom-tcp:
/// built without retarget::noitom; install libasio-dev and rebuild".
inline UsageError missingPart(const std::string& feature, const char* part, const char* package) {
  return UsageError(feature + ": built without retarget::" + part + "; install " + package + " and rebuild");
}

/// A subcommand: `setup` adds its options to `command` and sets its callback.
struct Command {
  std::string name;
  std::string description;
  std::function<void(CLI::App& command)> setup;
};

/// Registers a subcommand; call from a file-scope initialiser. Returns true.
bool registerCommand(Command command);
/// All registered subcommands, sorted by name.
const std::map<std::string, Command>& commands();

/// `retarget info <file>` handler for one kind of file. `accepts` sees the path; `describe`
/// prints the description to stdout.
struct InfoHandler {
  std::string kind;  // e.g. "URDF robot", "motion"
  std::function<bool(const std::string& path)> accepts;
  std::function<void(const std::string& path)> describe;
};
bool registerInfoHandler(InfoHandler handler);
const std::vector<InfoHandler>& infoHandlers();

/// Options common to `retarget map`, passed to the chosen method.
struct MapRequest {
  std::string motion_path;
  std::string robot;        // built-in name or URDF path
  std::string method;
  std::string config_path;  // optional method configuration file
  std::string robot_schema;  // humanoid: robot schema pinning the automatic binding (--robot-schema)
  std::string output_path;
  bool json = false;              // print the per-joint summary as JSON on stdout
  double smooth = 0;              // ExponentialSmoothing alpha after the mapper, 0 = off
  double max_joint_speed = 0;  // RateLimiter rad/s after the mapper, 0 = off
  int softening = 1;           // PICs softening factor K of seed 004 Eq. 3 (--softening)
  bool soften_always = false;  // PICs: soften every frame, not only where PIC fails (--soften-always)
  bool force_octants = false;  // PIC/PICs: final pass forcing every link into its octants (--force-octants)
  int particles = 0;           // particle filter: particle count (--particles), 0 = its default
  unsigned long long seed = 1;  // particle filter: random seed (--seed), fixed by default
  double pf_noise = 0;         // particle filter: random-walk step, rad/frame (--pf-noise), 0 = default
  std::string model_path;      // gpdm-pf: the learned .gpdm model (--model)
  std::string fallback;        // gpdm-pf: "ga-lvvj" to write GA-LVVJ on frames the model does not explain (--fallback)
  bool avoid_collisions = false;   // self-collision avoidance after the mapper (needs retarget::avoidance)
  std::string solver = "slsqp";    // avoidance solver: slsqp | cobyla
  double margin = 0.01;            // avoidance clearance margin, m
  double max_hand_speed = 0;       // Cartesian speed limit on hands and elbows, m/s, 0 = off
  bool whole_body = false;         // ga-lvvj: support modes, locomotion and balance (seed 000 Sections 3.5, 4, 5)
  bool no_balance = false;         // --whole-body without the balance QP (for comparison)
  bool trunk_lean = false;         // ga-lvvj: lean the robot's trunk with the human's (GaLvvjOptions::trunk_lean)
  std::string events_path;         // --whole-body: JSON lines of mode transitions and walk commands
  bool floating_base = false;      // humanoid: root pose and contacts (mappers/humanoid_floating_base.hpp)
  std::string format = "csv";      // --floating-base: csv (ours, with a header) | unitree (Unitree's LAFAN1 layout)
  double fps = 0;                  // --floating-base: output frame rate, 0 = the motion's
  double scale = 0;                // --floating-base: robot / human length, 0 = measured
};
/// A method's own runner for `retarget map --method <name>`, for a method that prints more than
/// the generic summary. The methods themselves are the table's (retarget/app/methods.hpp): a
/// method without a runner is mapped by the generic one (map.cpp).
struct MapMethod {
  std::string name;
  std::function<void(const MapRequest& request)> run;
};
bool registerMapMethod(MapMethod method);
const std::map<std::string, MapMethod>& mapMethods();

/// Options common to `retarget eval`.
struct EvalRequest {
  std::string motion_path;
  std::string angles_path;
  std::string robot;
  std::string config_path;
  std::vector<std::string> metrics;  // empty: the evaluator's defaults
  bool json = false;
  std::string wbf_base = "torso";  // --wbf-base: "torso" or "support-foot" (similarity metrics)
};
/// A family of metrics for `retarget eval --metrics <name>`; `is_default` evaluators run when
/// no --metrics is given and `applies` (when set) accepts the robot.
struct EvalMetrics {
  std::string name;
  std::string description;
  bool is_default = false;
  std::function<void(const EvalRequest& request)> run;
  std::function<bool(const RobotModel<double>& model)> applies{};
};
bool registerEvalMetrics(EvalMetrics metrics);
const std::map<std::string, EvalMetrics>& evalMetrics();

}  // namespace retarget::cli
