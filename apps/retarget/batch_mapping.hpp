#pragma once

// One motion file through one mapping method, without printing anything: what `retarget batch`
// runs per file (on worker threads) and `retarget compare` per method. The methods are the
// table's (retarget/app/methods.hpp), the same `retarget map` and Python build, so a batch CSV
// is byte-identical to `retarget map`'s.

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <retarget/app/method_settings.hpp>
#include <retarget/core/status.hpp>
#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/skeleton.hpp>
#include <retarget/io/floating_base_csv.hpp>
#include <retarget/robots/humanoid_soles.hpp>

#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/metrics/ground_contact.hpp>
#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/safety/self_collision.hpp>

namespace retarget::cli {

/// What a method needs besides the robot and the file: the table's settings (retarget/app/
/// methods.hpp; config_path is GaLvvjOptions for ga-lvvj, HumanoidMapperOptions for humanoid,
/// the whole-body configuration with whole_body, an EulerMap for euler) and the floating base's.
struct MethodSetup : app::MethodSettings {
  std::string method;          // one of batchMethods() (default options, seed 1)
  bool floating_base = false;  // humanoid: the root, contacts and planted soles (--floating-base)
  bool unitree = false;        // --floating-base: Unitree's LAFAN1 layout instead of our CSV (--format unitree)
  double fps = 0;              // --floating-base: output frame rate (0: the motion's; unitree needs one)
  double scale = 0;            // --floating-base: robot / human length (0: measured)
};

/// A floating-base mapping of one motion (mappers/humanoid_floating_base.hpp), resampled as the
/// setup asks, with the figures the summary lines print.
struct FloatingBaseFile {
  FloatingBaseTrajectory trajectory;
  std::array<HumanoidSole, 2> soles;
  double scale = 0;        // the robot / human length ratio used
  double floor = 0;        // the take's floor (m, the foot points' z)
  int rate_limited = 0;    // frames a joint speed limit held back
  int not_converged = 0;   // frames a sole missed the contact tolerance
  double seconds = 0;      // wall time of the mapping alone (s)
  GroundContact contacts;  // metrics/ground_contact.hpp, at the motion's frames (before resampling)
};

/// The figures of `contacts` as the JSON keys `batch` summary lines and `eval --metrics contacts`
/// print: penetration_frames, deepest, per foot (left, right) stance/floating/sliding/tilted
/// frames and their maxima, agreement, root_path_rms/max (null when unchecked), root_jerk_rms.
nlohmann::ordered_json groundContactJson(const GroundContact& contacts, const std::array<HumanoidSole, 2>& soles);

/// Maps `motion` (loaded from `path`, named in errors) onto `model` with the floating-base
/// humanoid mapper: the binding of `schema_path` (empty: automatic), the fixed-base options of
/// `setup.config_path`, the take's floor, `setup.scale`, and resampled at `setup.fps` (needed for
/// `setup.unitree`). Throws UsageError for a robot without legs and soles or a motion without feet.
FloatingBaseFile mapFloatingBase(const MethodSetup& setup, const RobotModel<double>& model,
                                 const std::string& schema_path, const SkeletonMotion<double>& motion,
                                 const std::string& path);

/// The methods batch and compare know, in a fixed order.
const std::vector<std::string>& batchMethods();
/// True when `name` is one of batchMethods().
bool isMethod(const std::string& name);
/// The method names of batchMethods() joined by `separator`, for help texts.
std::string methodNames(const std::string& separator);

/// Throws UsageError when `setup.method` is unknown or does not apply to `model` (no map for it),
/// naming the method, the robot and the robots it applies to. Call once before a batch.
void checkMethodApplies(const MethodSetup& setup, const RobotModel<double>& model);

/// A mapped file: the motion's format, the mapped motion, and the similarity means against the
/// robot's virtual skeleton when the robot has one (GA-LVVJ map: NAO, Pepper) and the input is
/// a skeleton motion.
struct MappedFile {
  std::string format;  // describe(MotionFileKind)
  MappedMotion<double> mapped;
  std::optional<double> wbf_mean, llf_mean;
  double seconds = 0;  // wall time of the mapping alone (s)
  JointSmoothness smoothness;                // metrics/joint_smoothness.hpp on the mapped angles
  std::optional<double> penetration_max;     // m, metrics/self_penetration.hpp (robots with shapes)
  // Whole body only: the robot's support mode per frame ("double", "single-left", ...) and the
  // number of frames not balanced (a step not taken).
  std::vector<std::string> modes;
  int balance_held_frames = 0;
};

/// The self-collision model the command line uses for `robot`: Tangy's pairs as seed 001 models
/// them; any other robot every pair of its collision shapes except those touching in every one
/// of 1000 seeded random configurations (as `retarget eval --metrics collision`). Nullopt when
/// the robot has no checked pair.
std::optional<SelfCollisionModel<double>> cliCollisionModel(const RobotModel<double>& model);

/// Loads `path` and maps it with `setup` onto `model`. Thread-safe (every workspace is local;
/// the model is only read). Throws retarget::Error for a bad file (naming it) and UsageError
/// for a method that does not apply.
MappedFile mapFile(const MethodSetup& setup, const RobotModel<double>& model, const std::string& path,
                   bool similarity = true, const SelfCollisionModel<double>* collision = nullptr);

/// One method's mapper, frame by frame (for `retarget live`): the mapper `mapFile` builds, with
/// the same map and options. Exactly one of the two functions is set: `map_channels` for the
/// Euler mapper (BVH channel values of `hierarchy`), `map_skeleton` for the others.
struct FrameMapper {
  std::function<Status(const SkeletonFrame<double>&, Eigen::Ref<Eigen::VectorXd>)> map_skeleton;
  std::function<Status(const Eigen::VectorXd&, Eigen::Ref<Eigen::VectorXd>)> map_channels;
  std::shared_ptr<void> owner;  // keeps the mapper alive
};

/// Builds the per-frame mapper. `hierarchy` is needed (and only used) by the Euler method.
/// Throws UsageError when the method does not apply.
FrameMapper makeFrameMapper(const MethodSetup& setup, const RobotModel<double>& model, const BvhMotion* hierarchy);

/// A whole-body file's figures, as `batch` (its summary line) and `compare` (a row's "mapping")
/// write them: "support_modes" (the robot's modes, frames in each) and "balance_held_frames".
void addWholeBodySummary(const MappedFile& f, nlohmann::ordered_json& out);

/// Writes `mapped` as the joint-trajectory CSV of `retarget map` (time,<robot joint names>).
void writeMappedCsv(const RobotModel<double>& model, const MappedMotion<double>& mapped, const std::string& path);

}  // namespace retarget::cli
