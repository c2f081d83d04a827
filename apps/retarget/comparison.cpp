#include "comparison.hpp"
#include "robot_binding.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>

#include <retarget/core/error.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/metrics/trajectory_lag.hpp>

#include <retarget/app/metric_families.hpp>
#include <retarget/json/euler_map.hpp>
#include "map_output.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {

std::size_t ComparedMotion::frames() const {
  if (skeleton) return skeleton->size();
  return bvh ? static_cast<std::size_t>(bvh->frame_count) : 0;
}

ComparedMotion loadComparedMotion(const std::string& path) {
  ComparedMotion out;
  out.path = path;
  if (detectMotionFile(path) == MotionFileKind::kBvh) {
    out.bvh = readBvh(path);
    try {
      out.skeleton = loadMotion(path);
    } catch (const Error&) {
      // A rig that cannot be bound: only the BVH-based parts (euler, dtw) apply.
    }
  } else {
    out.skeleton = loadMotion(path);
  }
  return out;
}

ComparedRobot::ComparedRobot(const std::string& name_or_path)
    : model(loadRobot(name_or_path)), collision(cliCollisionModel(model)) {}

void addCompareOptions(CLI::App& command, CompareOptions& options) {
  command.add_option("--config", options.defaults.config_path,
                     "method configuration file for ga-lvvj or euler (as `retarget map`; the humanoid mapper's: humanoid:config=<file>)");
  command.add_option("--softening", options.defaults.softening, "PICs softening factor K (seed 004 Eq. 3), 0..3")
      ->check(CLI::Range(0, 3));
  command.add_option("--model", options.defaults.model_path, "gpdm-pf: the learned .gpdm model (retarget learn gpdm)");
  command.add_option("--fallback", options.defaults.fallback,
                     "gpdm-pf: ga-lvvj on frames the model does not explain (default: none)")
      ->check(CLI::IsMember({"none", "ga-lvvj"}));
  command.add_flag("--whole-body", options.whole_body,
                   "beside each ga-lvvj and humanoid method, the same through the whole-body pipeline (support "
                   "modes, balance; label <method>:whole-body)");
  command.add_flag("--avoid-collisions", options.avoid_collisions,
                   "self-collision avoidance after each mapping (as `retarget map`)");
  command.add_option("--solver", options.solver, "avoidance solver: slsqp (default) or cobyla")
      ->check(CLI::IsMember({"slsqp", "cobyla"}));
  command.add_option("--margin", options.margin, "avoidance clearance margin, m (default 0.01)")
      ->check(CLI::NonNegativeNumber);
  command
      .add_option_function<std::string>(
          "--wbf-base",
          [&options](const std::string& base) {
            options.wbf_base = base == "support-foot" ? WbfBase::kSupportFoot : WbfBase::kTorso;
          },
          "where the robot stands for WBF: torso (default) or support-foot")
      ->check(CLI::IsMember({"torso", "support-foot"}));
}

MethodSetup parseMethodSpec(const std::string& spec, const MethodSetup& defaults) {
  MethodSetup setup = defaults;
  std::size_t start = 0;
  std::size_t colon = spec.find(':');
  setup.method = spec.substr(0, colon);
  while (colon != std::string::npos) {
    start = colon + 1;
    colon = spec.find(':', start);
    const std::string option = spec.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    const std::size_t equals = option.find('=');
    const std::string key = option.substr(0, equals);
    const std::string value = equals == std::string::npos ? std::string() : option.substr(equals + 1);
    if (key == "whole-body" && equals == std::string::npos) {
      setup.whole_body = true;
    } else if (key == "trunk-lean" && equals == std::string::npos) {
      setup.trunk_lean = true;
    } else if (key == "floating-base" && equals == std::string::npos) {
      setup.floating_base = true;
    } else if (key == "config" && !value.empty()) {
      setup.config_path = value;
    } else if (key == "softening" && (value == "0" || value == "1" || value == "2" || value == "3")) {
      setup.softening = value[0] - '0';
    } else if (key == "model" && !value.empty()) {
      setup.model_path = value;
    } else if (key == "fallback" && (value == "none" || value == "ga-lvvj")) {
      setup.fallback = value;
    } else if (key == "particles" && !value.empty() && value.size() <= 6 &&
               std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
               std::stoi(value) >= 1) {
      setup.particles = std::stoi(value);
    } else {
      throw UsageError("--method '" + spec +
                       "': expected name[:config=<file>][:softening=<0..3>][:model=<file.gpdm>][:fallback=none|ga-lvvj]"
                       "[:particles=<N>][:whole-body][:trunk-lean][:floating-base] "
                       "(got option '" +
                       option + "')");
    }
  }
  if (setup.method.empty()) throw UsageError("--method: empty method name in '" + spec + "'");
  if (setup.floating_base && setup.method != "humanoid") {
    throw UsageError("--method '" + spec + "': floating-base works with the humanoid method only");
  }
  // The global --config is GA-LVVJ's or Euler's file; the humanoid mapper reads its own options
  // only from humanoid:config=<file>.
  if (setup.method == "humanoid" && spec.find(":config=") == std::string::npos) setup.config_path.clear();
  return setup;
}

std::vector<std::pair<MethodSetup, std::string>> methodRows(const std::string& spec, const CompareOptions& options) {
  std::vector<std::pair<MethodSetup, std::string>> rows;
  rows.emplace_back(parseMethodSpec(spec, options.defaults), spec);
  // Beside each plain method that has a whole body (GA-LVVJ on NAO's feet, the humanoid mapper
  // on the robot's soles; a floating base already gives the legs its own way).
  const MethodSetup& plain = rows.front().first;
  const bool has_whole_body = plain.method == "ga-lvvj" || (plain.method == "humanoid" && !plain.floating_base);
  if (options.whole_body && has_whole_body && !plain.whole_body) {
    MethodSetup whole_body = rows.front().first;
    whole_body.whole_body = true;
    rows.emplace_back(whole_body, spec + ":whole-body");
  }
  return rows;
}

std::string methodFromFileName(const std::string& path) {
  const std::string stem = std::filesystem::path(path).stem().string();
  const auto boundary = [&](std::size_t i) {
    return i >= stem.size() || !std::isalnum(static_cast<unsigned char>(stem[i]));
  };
  for (const std::string& method : batchMethods()) {
    for (std::size_t at = stem.find(method); at != std::string::npos; at = stem.find(method, at + 1)) {
      if ((at == 0 || boundary(at - 1)) && boundary(at + method.size())) return method;
    }
  }
  return "csv";
}

std::optional<MethodSetup> plainMappingSetup(const std::string& method, const RobotModel<double>& model,
                                             bool bvh_motion, const std::string& euler_config) {
  const auto setupFor = [&](const std::string& name) -> std::optional<MethodSetup> {
    MethodSetup setup;
    setup.method = name;
    if (name == "euler") setup.config_path = euler_config;
    // euler reads BVH channels; every other method a skeleton motion (a BVH is bound to one).
    if (name == "euler" && !bvh_motion) return std::nullopt;
    try {
      checkMethodApplies(setup, model);
    } catch (const UsageError&) {
      return std::nullopt;
    }
    return setup;
  };
  if (const auto named = setupFor(method)) return named;
  std::optional<MethodSetup> only;
  for (const std::string& name : batchMethods()) {
    // humanoid applies to every robot the binding understands: it is the method of a robot no
    // other method knows (G1, H1), not a rival of the methods with hand-written maps.
    if (name == "humanoid") continue;
    if (const auto setup = setupFor(name)) {
      if (only) return std::nullopt;  // several apply: the angles could come from any of them
      only = setup;
    }
  }
  if (!only) only = setupFor("humanoid");
  return only;
}

std::optional<PlainMapping> plainMapping(const MethodSetup& setup, const RobotModel<double>& model,
                                         const std::string& motion_path) {
  try {
    MappedFile f = mapFile(setup, model, motion_path, false, nullptr);
    return PlainMapping{setup.method, std::move(f.mapped.q)};
  } catch (const Error&) {
    return std::nullopt;  // e.g. a BVH rig no built-in Euler map knows: W is left out, not guessed
  }
}

namespace {

// Largest joint speed per frame: max_i |q_k,i - q_k-1,i| / (t_k - t_k-1) (rad/s); NaN for the
// first frame and for a repeated time stamp.
std::vector<double> jointSpeedCurve(const Eigen::MatrixXd& q, const std::vector<double>& time) {
  std::vector<double> out(time.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t k = 1; k < time.size(); ++k) {
    const double dt = time[k] - time[k - 1];
    if (dt > 0) {
      const auto r = static_cast<Eigen::Index>(k);
      out[k] = (q.row(r) - q.row(r - 1)).cwiseAbs().maxCoeff() / dt;
    }
  }
  return out;
}

ComparedRow evaluateRow(const ComparedRobot& robot, const ComparedMotion& motion, const Eigen::MatrixXd& q,
                        const std::vector<double>& time, const std::string& method, const std::string& label,
                        const std::string& euler_config, WbfBase wbf_base, const std::string& source,
                        const nlohmann::ordered_json* mapping, const PlainMapping* plain) {
  const RobotModel<double>& model = robot.model;
  const SkeletonMotion<double>* skeleton = motion.skeleton ? &*motion.skeleton : nullptr;
  if (static_cast<std::size_t>(q.rows()) != motion.frames() || time.size() != motion.frames()) {
    throw ParseError(source, 0,
                     "expected one row per motion frame (" + std::to_string(motion.frames()) + "), got " +
                         std::to_string(q.rows()));
  }
  ComparedRow row;
  row.robot = model.name();
  row.method = method;
  row.label = label;
  row.time = time;
  row.q = q;
  nlohmann::ordered_json& out = row.json;
  out["robot"] = model.name();
  out["method"] = method;
  out["label"] = label;
  out["frames"] = q.rows();
  if (mapping != nullptr) out["mapping"] = *mapping;
  const auto nan = std::numeric_limits<double>::quiet_NaN();

  if (const auto map = robotSkeletonMap(model); map && skeleton != nullptr) {
    const SimilarityEvaluation e = evaluateSimilarity(model, *map, *skeleton, q, wbf_base, source);
    out["similarity"] = similarityJson(e);
    std::vector<double> wbf, llf, cosine;
    for (const auto& f : e.similarity.frames) {
      wbf.push_back(f.wbf);
      llf.push_back(f.llf);
      cosine.push_back(f.cosine);
    }
    row.curves.emplace_back("WBF", std::move(wbf));
    row.curves.emplace_back("LLF", std::move(llf));
    row.curves.emplace_back("cosine", std::move(cosine));
  }
  if (robot.collision && skeleton != nullptr) {
    const CollisionEvaluation e = evaluateCollision(model, *robot.collision, q, plain);
    out["collision"] = collisionJson(e);
    if (e.w) row.curves.emplace_back("W", e.w->per_frame);
    row.curves.emplace_back("clearance (m)", e.clearance.min_distance);
  }
  if (const auto map = picMapFor(model); map && skeleton != nullptr) {
    const ArmImitation e = evaluateArmImitation(model, *map, *skeleton, q, defaultWorkArea(*map));
    out["pose"] = poseJson(e);
    row.curves.emplace_back("pose MSE (rad²)", e.mse);
  }
  if (motion.bvh) {
    const std::optional<EulerMap> given =
        euler_config.empty() ? std::nullopt : std::optional<EulerMap>(loadEulerMap(euler_config));
    if (const auto config = dtwEulerMap(model, *motion.bvh, given ? &*given : nullptr)) {
      JointTrajectory angles = makeJointTrajectory(model);
      angles.positions = q;
      angles.times = time;
      out["dtw"] = dtwJson(evaluateDtw(model, *motion.bvh, *config, angles, source));
    }
  }
  const PhysicalEvaluation e =
      evaluatePhysical(model, skeleton, q, time, robot.collision ? &*robot.collision : nullptr);
  out["physical"] = physicalJson(e);
  if (e.position_error) {
    std::vector<double> mpjpe = e.position_error->frame_mpjpe;
    row.curves.emplace_back("MPJPE (m)", std::move(mpjpe));
  }
  if (e.penetration) row.curves.emplace_back("penetration (m)", e.penetration->depth);
  row.curves.emplace_back("joint speed peak (rad/s)", jointSpeedCurve(q, time));
  for (auto& [name, values] : row.curves) {
    for (double& v : values) v = std::isfinite(v) ? v : nan;
  }
  return row;
}

}  // namespace

ComparedRow mapAndEvaluate(const ComparedRobot& robot, const ComparedMotion& motion, const MethodSetup& setup,
                           const CompareOptions& options, const std::string& label) {
  if (setup.floating_base) {
    // The floating-base mapper (humanoid:floating-base): its joint angles evaluated as any row's,
    // and its ground contacts (metrics/ground_contact.hpp) beside them.
    if (!motion.skeleton) throw UsageError("--method '" + label + "': needs a skeleton motion");
    if (options.avoid_collisions) {
      throw UsageError("--method '" + label + "': --avoid-collisions would move the planted feet");
    }
    const FloatingBaseFile fb = mapFloatingBase(setup, robot.model, "", *motion.skeleton, motion.path);
    const FloatingBaseTrajectory& t = fb.trajectory;
    nlohmann::ordered_json mapping;
    mapping["us_per_frame"] = fb.seconds * 1e6 / static_cast<double>(std::max<std::size_t>(1, t.size()));
    mapping["not_converged_frames"] = fb.not_converged;
    mapping["rate_limited_frames"] = fb.rate_limited;
    mapping["scale"] = fb.scale;
    ComparedRow row = evaluateRow(robot, motion, t.q, t.time, setup.method, label, std::string(), options.wbf_base,
                                  motion.path + " mapped with " + label, &mapping, nullptr);
    row.json["contacts"] = groundContactJson(fb.contacts, fb.soles);
    for (std::size_t k = 0; k < t.size(); ++k) row.X_WB.push_back(t.rootPose(k));
    if (fb.contacts.frame_flags.size() == t.size()) row.contact_flags = fb.contacts.frame_flags;
    for (std::size_t s = 0; s < 2; ++s) row.sole_links[s] = fb.soles[s].link_index;
    return row;
  }
  MappedFile f = mapFile(setup, robot.model, motion.path, false, nullptr);
  MappedMotion<double>& m = f.mapped;
  const PlainMapping plain{label, m.q};  // before the avoidance stage
  nlohmann::ordered_json mapping;
  mapping["us_per_frame"] = f.seconds * 1e6 / static_cast<double>(std::max<std::size_t>(1, m.size()));
  mapping["clamped_frames"] = m.clamped_frames;
  mapping["held_frames"] = m.held_frames;
  mapping["invalid_frames"] = m.invalid_frames;
  mapping["discontinuity_frames"] = m.frames(StatusCode::kDiscontinuity);
  mapping["not_converged_frames"] = m.frames(StatusCode::kNotConverged);
  if (options.avoid_collisions) {
    MapRequest request;
    request.avoid_collisions = true;
    request.solver = options.solver;
    request.margin = options.margin;
    (void)applySafetyStages(request, robot.model, m);
    mapping["collision_avoided_frames"] = m.frames(StatusCode::kCollisionAvoided);
  }
  if (setup.method == "pics") mapping["softening"] = setup.softening;
  if (setup.particles > 0) mapping["particles"] = setup.particles;
  if (setup.whole_body) addWholeBodySummary(f, mapping);
  // Lag (frames) by which the row's joint trajectories trail GA-LVVJ's on the same motion
  // (metrics/trajectory_lag.hpp: joints GA-LVVJ moves by > 0.02 rad, search +-60 frames or as
  // far as a short motion allows).
  if (const auto ga_lvvj_map = gaLvvjMapFor(robot.model); ga_lvvj_map && motion.skeleton && m.q.rows() >= 4) {
    GaLvvjMapper<double> ga_lvvj(robot.model, *ga_lvvj_map);
    const MappedMotion<double> reference = mapMotion(ga_lvvj, *motion.skeleton);
    const int max_lag = static_cast<int>(std::min<Eigen::Index>(60, m.q.rows() - 3));
    if (reference.q.rows() == m.q.rows()) mapping["lag_vs_ga_lvvj"] = trajectoryLag(reference.q, m.q, max_lag, 0.02).lag;
  }
  const std::string euler_config = setup.method == "euler" ? setup.config_path : std::string();
  ComparedRow row = evaluateRow(robot, motion, m.q, m.time, setup.method, label, euler_config, options.wbf_base,
                                motion.path + " mapped with " + label, &mapping, &plain);
  row.status = m.status;
  row.modes = std::move(f.modes);
  return row;
}

ComparedRow evaluateAngles(const ComparedRobot& robot, const ComparedMotion& motion, const Eigen::MatrixXd& q,
                           const std::vector<double>& time, const std::string& method, const std::string& label,
                           const std::string& euler_config, WbfBase wbf_base, const std::string& source) {
  std::optional<PlainMapping> plain;
  if (robot.collision && motion.skeleton) {
    if (const auto setup = plainMappingSetup(method, robot.model, motion.bvh.has_value(), euler_config)) {
      plain = plainMapping(*setup, robot.model, motion.path);
      if (plain && plain->q.rows() != q.rows()) plain.reset();  // the frame count is checked by evaluateRow
    }
  }
  return evaluateRow(robot, motion, q, time, method, label, euler_config, wbf_base, source, nullptr,
                     plain ? &*plain : nullptr);
}

const std::vector<CompareColumn>& compareColumns() {
  static const std::vector<CompareColumn> columns = {
      {"imitation", "/similarity/wbf/mean", "WBF", "", 3,
       "whole-body focused similarity (seed 000 Eq. 44): mean cosine between each robot link of the virtual "
       "skeleton and the human's, both bodies turned to face the same way with z up; 1 = every link points as the "
       "human's"},
      {"imitation", "/similarity/llf/mean", "LLF", "", 3,
       "local-link focused similarity (seed 000 Eq. 46): each link measured in its parent link's frame, so a lean "
       "of the whole body does not count; 1 = every joint bends as the human's"},
      {"imitation", "/similarity/cosine/mean", "cosine", "", 3,
       "pose cosine similarity (seed 003 Eq. 1) over 11 links, in the WBF frame"},
      {"imitation", "/similarity/best_reachable/wbf_mean", "WBF best", "", 3,
       "the highest WBF any pose within the robot's joint limits reaches, link by link: below 1 the robot's body "
       "is the limit; above WBF the mapping could do better"},
      {"imitation", "/similarity/best_reachable/llf_mean", "LLF best", "", 3, "the same for LLF"},
      {"imitation", "/physical/mpjpe/mean", "MPJPE", "m", 3,
       "mean distance between the human's joints and the robot's, both rooted at SpineBase and turned to face the "
       "same way, after scaling the whole robot by one factor (the human's summed link lengths over the robot's, "
       "\"size_ratio\" in the JSON); metres at the human's size. Differences in body proportions count, so a robot "
       "not shaped like a person scores above 0 even when every link points right",
       "/physical/mpjpe/size_ratio", "size ratio"},
      {"imitation", "/pose/pacc", "Pacc", "", 3,
       "pose accuracy of the arms (seed 004 Eq. 4): share of frames whose upper-arm and forearm directions are "
       "within 15 deg of the human's (placed in the robot's frame as PIC places them), RMS over the links and arms; "
       "the JSON's pacc_elbow_angle is the other reading (each skeleton's elbow angle)"},
      {"imitation", "/pose/po_all", "PO", "", 3,
       "occlusion / obstruction (seed 004 Eq. 5): the share of the work area's region of interest under the robot's "
       "projected arm links, mean over every frame (the JSON's po counts only the frames with the human wrist over "
       "the region, as the paper does; human_po is the human's own)"},
      {"imitation", "/pose/mean_pose_error", "pose err", "rad", 3},
      {"physical", "/contacts/penetration_frames", "sole pen.", "frames", 0,
       "floating-base rows (humanoid:floating-base): frames with a sole point more than 1 cm below the ground "
       "(metrics/ground_contact.hpp; holosoma's penetration tolerance)"},
      {"physical", "/contacts/floating_frames", "floating", "frames", 0,
       "floating-base rows: frames and feet where the human's foot stands and the robot's sole is more than 2 cm up"},
      {"physical", "/contacts/sliding_frames", "sliding", "frames", 0,
       "floating-base rows: stance frames and feet whose sole moves faster than 0.3 m/s horizontally"},
      {"physical", "/contacts/tilted_frames", "tilted", "frames", 0,
       "floating-base rows: stance frames and feet whose sole is more than 10 deg from flat"},
      {"physical", "/contacts/agreement", "contacts", "", 3,
       "floating-base rows: share of frames and feet where the robot's foot is on the ground exactly when the "
       "human's is"},
      {"imitation", "/dtw/dtw_mean", "DTW", "rad", 2},
      {"imitation", "/dtw/weighted_dtw", "DTW A_w", "rad", 2},
      {"physical", "/physical/limit_margin_min", "margin", "rad", 3,
       "smallest distance of a joint that moves to its position limit over the motion (a joint held at one value "
       "throughout, such as NAO's hands kept open, is left out)"},
      {"physical", "/physical/velocity_peak", "vel peak", "rad/s", 2},
      {"physical", "/physical/velocity_rms", "vel RMS", "rad/s", 2},
      {"physical", "/physical/acceleration_peak", "acc peak", "rad/s²", 1},
      {"physical", "/physical/acceleration_rms", "acc RMS", "rad/s²", 1},
      {"physical", "/physical/jerk_peak", "jerk peak", "rad/s³", 0},
      {"physical", "/physical/jerk_rms", "jerk RMS", "rad/s³", 0},
      {"physical", "/physical/velocity_violation_intervals", "vel viol", "intervals", 0},
      {"physical", "/pose/largest_joint_step", "max step", "rad", 3},
      {"physical", "/physical/penetration/max", "penetr", "m", 4},
      {"physical", "/collision/min_clearance", "clearance", "m", 4,
       "smallest distance between two collision shapes of the robot that may touch"},
      {"physical", "/collision/collision_frames", "in coll", "frames", 0},
      {"physical", "/physical/feet/sliding", "foot slide", "m", 3},
      {"physical", "/physical/feet/floating_max", "foot float", "m", 3},
      {"mapping", "/mapping/us_per_frame", "cost", "µs/frame", 1},
      {"mapping", "/mapping/clamped_frames", "clamped", "frames", 0,
       "frames where the mapper had to clamp some joint to its limit"},
      {"mapping", "/mapping/held_frames", "held", "frames", 0,
       "frames where the input was degenerate and some joint kept its last good angle"},
      {"mapping", "/mapping/not_converged_frames", "not conv", "frames", 0},
      {"mapping", "/mapping/collision_avoided_frames", "avoided", "frames", 0},
      {"mapping", "/collision/w/mean", "W", "", 3,
       "joint-space similarity W (seed 001 Eq. 11) of the angles to the plain mapping of the motion by the same "
       "method, before smoothing, speed limits or collision avoidance: 1 = nothing changed them; a joint moved by "
       "its whole range alone gives 0.5. Not an imitation score; — where the method that produced a CSV is "
       "unknown (name it in the file name, e.g. wave_ga-lvvj.csv)",
       "/collision/reference", "compared with the plain mapping of"},
  };
  return columns;
}

nlohmann::ordered_json comparisonJson(const ComparedMotion& motion, const std::vector<ComparedRow>& rows) {
  nlohmann::ordered_json out;
  out["motion"] = motion.path;
  out["frames"] = motion.frames();
  out["rows"] = nlohmann::ordered_json::array();
  for (const ComparedRow& row : rows) out["rows"].push_back(row.json);
  out["columns"] = nlohmann::ordered_json::array();
  for (const CompareColumn& c : compareColumns()) {
    nlohmann::ordered_json column = {
        {"group", c.group}, {"pointer", c.pointer}, {"header", c.header}, {"unit", c.unit}, {"decimals", c.decimals}};
    if (c.note != nullptr) column["note"] = c.note;
    if (c.detail != nullptr) {
      column["detail"] = c.detail;
      column["detail_name"] = c.detail_name;
    }
    out["columns"].push_back(std::move(column));
  }
  return out;
}

namespace {

// Display width of UTF-8 text: one column per code point.
std::size_t displayWidth(const std::string& text) {
  std::size_t n = 0;
  for (const unsigned char c : text) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

std::string padLeft(const std::string& text, std::size_t width) {
  const std::size_t w = displayWidth(text);
  return std::string(width > w ? width - w : 0, ' ') + text;
}

std::string padRight(const std::string& text, std::size_t width) {
  const std::size_t w = displayWidth(text);
  return text + std::string(width > w ? width - w : 0, ' ');
}

// The cell of `column` in `row`: the number, or "—" where the metric does not apply (absent) or
// has no value (null, e.g. W without a direct mapping).
std::string cell(const nlohmann::ordered_json& row, const CompareColumn& column) {
  const nlohmann::ordered_json::json_pointer pointer(column.pointer);
  if (!row.contains(pointer) || !row.at(pointer).is_number()) return "—";
  return fixed(row.at(pointer).get<double>(), column.decimals);
}

}  // namespace

std::string comparisonTable(const ComparedMotion& motion, const std::vector<ComparedRow>& rows) {
  std::ostringstream out;
  out << "comparison on " << motion.path << " (" << motion.frames() << " frames)\n";
  std::vector<std::string> names;
  std::size_t name_width = displayWidth("robot / method");
  for (const ComparedRow& row : rows) {
    names.push_back(row.robot + " / " + row.label);
    name_width = std::max(name_width, displayWidth(names.back()));
  }
  for (const char* group : {"imitation", "physical", "mapping"}) {
    std::vector<const CompareColumn*> shown;
    for (const CompareColumn& c : compareColumns()) {
      if (std::string(c.group) != group) continue;
      const nlohmann::ordered_json::json_pointer pointer(c.pointer);
      bool present = false;
      for (const ComparedRow& row : rows) present = present || row.json.contains(pointer);
      if (present) shown.push_back(&c);
    }
    if (shown.empty()) continue;
    std::vector<std::size_t> widths;
    for (const CompareColumn* c : shown) {
      std::size_t w = std::max(displayWidth(c->header), displayWidth(c->unit));
      for (const ComparedRow& row : rows) w = std::max(w, displayWidth(cell(row.json, *c)));
      widths.push_back(w);
    }
    out << "\n" << group << "\n";
    out << "  " << padRight("robot / method", name_width);
    for (std::size_t i = 0; i < shown.size(); ++i) out << "  " << padLeft(shown[i]->header, widths[i]);
    out << "\n  " << padRight("", name_width);
    for (std::size_t i = 0; i < shown.size(); ++i) out << "  " << padLeft(shown[i]->unit, widths[i]);
    out << "\n";
    for (std::size_t r = 0; r < rows.size(); ++r) {
      out << "  " << padRight(names[r], name_width);
      for (std::size_t i = 0; i < shown.size(); ++i) out << "  " << padLeft(cell(rows[r].json, *shown[i]), widths[i]);
      out << "\n";
    }
  }
  // Families that apply to no row, and why.
  const std::vector<std::pair<const char*, const char*>> families = {
      {"similarity", "WBF/LLF/cosine/best reachable/MPJPE need a robot with a virtual skeleton (NAO, Pepper)"},
      {"collision", "W, clearance and collision frames need a robot with collision shapes"},
      {"pose", "Pacc/PO need a robot with a PIC map (Baxter, YuMi, NAO, Pepper)"},
      {"dtw", "DTW needs a BVH motion and an Euler map (InMoov built-in, or euler with --config)"},
  };
  std::string missing;
  for (const auto& [family, why] : families) {
    bool any = false;
    for (const ComparedRow& row : rows) any = any || row.json.contains(family);
    if (!any) missing += std::string("\n  ") + why;
  }
  if (!missing.empty()) out << "\nnot applicable here (—):" << missing << "\n";
  return out.str();
}

}  // namespace retarget::cli
