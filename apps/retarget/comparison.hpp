#pragma once

// What `retarget compare` and `retarget report` share: one motion mapped (or read from a CSV)
// for several (robot, method) pairs, every metric family of `retarget eval` that applies to each
// (metric_families.hpp), the summary table (terminal text and JSON) and the per-frame series
// the report plots.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Geometry>
#include <nlohmann/json.hpp>

#include <retarget/human/bvh_motion.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/safety/self_collision.hpp>

#include <retarget/app/metric_families.hpp>
#include "batch_mapping.hpp"
#include "cli.hpp"

namespace retarget::cli {

/// The human motion of a comparison: the skeleton motion (absent for a BVH whose rig cannot be
/// bound) and, for a BVH file, the BVH itself (the dtw family reads its Euler angles).
struct ComparedMotion {
  std::string path;
  std::optional<SkeletonMotion<double>> skeleton;
  std::optional<BvhMotion> bvh;
  std::size_t frames() const;
};

/// Loads `path` for a comparison. Throws retarget::Error for a bad file.
ComparedMotion loadComparedMotion(const std::string& path);

/// A robot of a comparison with its self-collision model (nullopt: no checked pair). Neither
/// copied nor moved: the collision model refers to `model`.
struct ComparedRobot {
  /// Loads a built-in robot or URDF (as loadRobot) and its collision model (cliCollisionModel).
  explicit ComparedRobot(const std::string& name_or_path);
  ComparedRobot(const ComparedRobot&) = delete;
  ComparedRobot& operator=(const ComparedRobot&) = delete;

  const RobotModel<double> model;
  const std::optional<SelfCollisionModel<double>> collision;
};

/// Options every mapped row shares (the `retarget map` options compare and report take).
struct CompareOptions {
  MethodSetup defaults;             // --config, --softening for the methods that use them
  WbfBase wbf_base = WbfBase::kTorso;
  bool avoid_collisions = false;    // --avoid-collisions after each mapping
  std::string solver = "slsqp";
  double margin = 0.01;
  bool whole_body = false;          // --whole-body: beside each ga-lvvj method, the same through the
                                    // whole-body pipeline (label "<spec>:whole-body")
};

/// Adds the CompareOptions flags to `command` (--config, --softening, --avoid-collisions,
/// --solver, --margin, --wbf-base), the same for `retarget compare` and `retarget report`;
/// parsing fills `options`.
void addCompareOptions(CLI::App& command, CompareOptions& options);

/// One row: a robot's joint angles for the motion, from a mapping or a CSV, with its metrics.
struct ComparedRow {
  std::string robot;   // model name
  std::string method;  // method name, or the CSV's label
  std::string label;   // as given (e.g. "pics:softening=2"), shown in tables
  std::vector<double> time;   // s, one per frame
  Eigen::MatrixXd q;          // frames x nq, rad
  std::vector<Status> status; // per frame, empty when the angles come from a CSV
  std::vector<std::string> modes;  // whole-body rows: the robot's support mode per frame, else empty
  /// Floating-base rows: the root link's pose in the world per frame (m; z up, the ground at
  /// z = 0), the frame's ground-contact bits (metrics/ground_contact.hpp `GroundContactFrame`)
  /// and the links of the left and right soles; empty (and -1) for a fixed base.
  std::vector<Eigen::Isometry3d> X_WB;
  std::vector<std::uint8_t> contact_flags;
  std::array<int, 2> sole_links{{-1, -1}};
  /// The row's JSON: robot, method, label, frames, then "mapping" (mapped rows) and each family
  /// that applies ("similarity", "collision", "pose", "dtw", "physical"; metric_families.hpp).
  nlohmann::ordered_json json;
  /// Per-frame metric series (name with unit -> one value per frame; NaN where undefined).
  std::vector<std::pair<std::string, std::vector<double>>> curves;
};

/// Parses a method of `--method`: "name" or "name:key=value[:key=value]" with keys `config`
/// (file) and `softening` (0..3) overriding `defaults`. Throws UsageError naming a bad spec.
MethodSetup parseMethodSpec(const std::string& spec, const MethodSetup& defaults);

/// The rows one `--method` spec asks for, each a setup and its label: the spec itself, and with
/// `options.whole_body` for a plain ga-lvvj spec also its whole-body form ("<spec>:whole-body").
std::vector<std::pair<MethodSetup, std::string>> methodRows(const std::string& spec, const CompareOptions& options);

/// The method a CSV's file name names as a word ("walk_pics.csv" -> "pics"), or "csv".
std::string methodFromFileName(const std::string& path);

/// The method whose plain mapping W compares angles from `method` with: `method` itself when it
/// is one of batchMethods() and applies to `model` and to the motion (a BVH file for euler, a
/// skeleton motion for the others), else the only method that applies (Tangy: triangle; InMoov
/// with a BVH: euler); nullopt when several apply and none is named (NAO, Pepper, Baxter, YuMi).
/// `euler_config` is the euler method's --config (may be empty); the others use their defaults.
std::optional<MethodSetup> plainMappingSetup(const std::string& method, const RobotModel<double>& model,
                                             bool bvh_motion, const std::string& euler_config);

/// The plain mapping of the motion file `motion_path` by `setup` (as `retarget map` without
/// --smooth, --max-joint-speed, --avoid-collisions or --max-hand-speed), named `setup.method`.
/// Nullopt when the method cannot map this file (e.g. a BVH rig the InMoov map does not know).
std::optional<PlainMapping> plainMapping(const MethodSetup& setup, const RobotModel<double>& model,
                                         const std::string& motion_path);

/// Maps the motion with `setup` onto `robot` (like `retarget map`, then the avoidance stage when
/// asked) and evaluates every applicable family; W compares the result with the mapping before
/// the avoidance stage (1 without it). `label` names the row.
ComparedRow mapAndEvaluate(const ComparedRobot& robot, const ComparedMotion& motion, const MethodSetup& setup,
                           const CompareOptions& options, const std::string& label);

/// Evaluates given angles (e.g. a CSV read in the robot's order) against the motion: `method`
/// (the method that produced them, or "csv" when unknown) and `label` name the row, `source` the
/// angles in errors; `euler_config` is the dtw family's --config (may be empty). W compares the
/// angles with the plain mapping of plainMappingSetup(method, ...), when there is one.
ComparedRow evaluateAngles(const ComparedRobot& robot, const ComparedMotion& motion, const Eigen::MatrixXd& q,
                           const std::vector<double>& time, const std::string& method, const std::string& label,
                           const std::string& euler_config, WbfBase wbf_base, const std::string& source);

/// A column of the summary table: a JSON pointer into a row's JSON, its header, unit and
/// decimals, in one of the groups "imitation", "physical", "mapping"; what the figure compares
/// and how, in a sentence (null: the header says it all), and a pointer to a per-row value that
/// completes it (e.g. the size ratio of MPJPE; null: none). The report prints notes and details.
struct CompareColumn {
  const char* group;
  const char* pointer;
  const char* header;
  const char* unit;
  int decimals;
  const char* note = nullptr;
  const char* detail = nullptr;
  const char* detail_name = nullptr;  ///< What the detail is, e.g. "size ratio".
};
const std::vector<CompareColumn>& compareColumns();

/// {"motion", "frames", "rows": [row JSON...], "columns": [{"group", "pointer", "header", "unit",
/// "decimals", "note"?, "detail"?, "detail_name"?}]}
nlohmann::ordered_json comparisonJson(const ComparedMotion& motion, const std::vector<ComparedRow>& rows);

/// The summary table as text: per group, rows = (robot, method), columns = the metrics that apply
/// to at least one row (units in a second header line; "—" where a metric does not apply to a
/// row), then the families that apply to none.
std::string comparisonTable(const ComparedMotion& motion, const std::vector<ComparedRow>& rows);

/// Writes the HTML report of `rows` (report.cpp; docs/report.md). `robots` holds the model of
/// every row's robot. Throws ParseError when the file cannot be written.
void writeReport(const ComparedMotion& motion, const std::vector<const ComparedRobot*>& robots,
                 const std::vector<ComparedRow>& rows, const std::string& path);

/// Writes the report page with `data` as its data and `title` (escaped) as its title: the page
/// shows a report of `writeReport`, or a batch's takes when data's "kind" is "batch" (`retarget
/// batch report`). Throws ParseError when the file cannot be written.
void writeReportPage(const std::string& title, const nlohmann::ordered_json& data, const std::string& path);

}  // namespace retarget::cli
