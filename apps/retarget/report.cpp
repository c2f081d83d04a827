// `retarget report <motion> [angles.csv...] --robot R [--method m1,m2] [--label l1,l2] -o report.html`:
// one self-contained HTML file (data, drawing libraries and page code inline, nothing fetched)
// with the human's skeleton and each row's robot body (its collision shapes posed by forward
// kinematics of the row's angles) in 3D on a ground grid, with play/pause and a time slider; each
// joint's angle over time with its limits; the per-frame metric curves, statuses, support modes
// and ground contacts; and the summary table of `retarget compare` (docs/report.md).
//
// Rows come from the angle CSVs (method from the file name, label from --label or the file name)
// and from --method (mapped here, like `retarget compare`). Only mapped rows know their per-frame statuses
// (clamped, held, collision-avoided, not converged); for a CSV the page marks the samples that
// sit on a limit, the clamps it can detect.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/safety/humanoid_capsules.hpp>

#include "cli.hpp"
#include "comparison.hpp"

namespace retarget::cli {

std::string reportPage(const std::string& title, const std::string& data_json);  // report_page.cpp

namespace {

// Rounded for the page: 0.1 mm / 0.1 mrad is below anything drawn; NaN and inf become null.
nlohmann::ordered_json rounded(double value, double scale = 1e4) {
  if (!std::isfinite(value)) return nullptr;
  return std::round(value * scale) / scale;
}

nlohmann::ordered_json humanJson(const ComparedMotion& motion) {
  nlohmann::ordered_json out;
  nlohmann::ordered_json bones = nlohmann::ordered_json::array();
  for (const auto& [a, b] : kPositionErrorLinks) bones.push_back({static_cast<int>(a), static_cast<int>(b)});
  // Wrist -> hand, for the hands' direction.
  bones.push_back({static_cast<int>(HumanJoint::kWristLeft), static_cast<int>(HumanJoint::kHandLeft)});
  bones.push_back({static_cast<int>(HumanJoint::kWristRight), static_cast<int>(HumanJoint::kHandRight)});
  out["bones"] = bones;
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  if (motion.skeleton) {
    for (const auto& f : motion.skeleton->frames) {
      nlohmann::ordered_json p = nlohmann::ordered_json::array();
      for (int j = 0; j < kHumanJointCount; ++j) {
        const auto joint = static_cast<HumanJoint>(j);
        for (int c = 0; c < 3; ++c) p.push_back(f.usable(joint) ? rounded(f.position(joint)[c]) : nullptr);
      }
      frames.push_back(std::move(p));
    }
  }
  out["positions"] = frames;
  return out;
}

nlohmann::ordered_json vectorJson(const Eigen::Vector3d& v) { return {rounded(v.x()), rounded(v.y()), rounded(v.z())}; }

// One shape the page draws on a link, in the link's frame L (m): a capsule, sphere or bone by its
// segment and radius (a bone's radius is the page's), a box or cylinder by its frame G in L and
// its size (box: edges along G's x, y, z; cylinder: radius and length along G's z).
struct DrawnShape {
  int link = 0;
  const char* kind = "capsule";  // capsule, sphere, bone, box, cylinder
  Capsule<double> segment{};
  Isometry3<double> X_LG = Isometry3<double>::Identity();
  Eigen::Vector3d size = Eigen::Vector3d::Zero();

  bool framed() const { return std::string_view(kind) == "box" || std::string_view(kind) == "cylinder"; }
};

DrawnShape segmentShape(int link, const Capsule<double>& c) {
  return {link, c.length() > 0 ? "capsule" : "sphere", c, Isometry3<double>::Identity(), Eigen::Vector3d::Zero()};
}

// The shape as the page reads it (page.js shapeMesh; quaternion x, y, z, w), rounded.
nlohmann::ordered_json shapeJson(const DrawnShape& shape) {
  if (shape.framed()) {
    const Eigen::Quaterniond q_LG(shape.X_LG.linear());
    return {{"kind", shape.kind},
            {"p", vectorJson(shape.X_LG.translation())},
            {"q", {rounded(q_LG.x()), rounded(q_LG.y()), rounded(q_LG.z()), rounded(q_LG.w())}},
            {"size", vectorJson(shape.size)}};
  }
  return {{"kind", shape.kind},
          {"a", vectorJson(shape.segment.a)},
          {"b", vectorJson(shape.segment.b)},
          {"r", rounded(shape.segment.radius)}};
}

// The robot's body: its collision shapes as the file gives them, or the capsules fitted to a
// humanoid described by meshes (safety/humanoid_capsules.hpp fittedBodyShapes, as the collision
// check sees it); every link with no shape of its own gets a thin bone from its origin to each
// child joint's, so that nothing of the chain disappears.
std::vector<DrawnShape> bodyShapes(const RobotModel<double>& model) {
  std::vector<DrawnShape> shapes;
  std::vector<bool> covered(model.links().size(), false);
  if (const auto fitted = fittedBodyShapes(model)) {
    for (const SelfCollisionShape<double>& shape : *fitted) {
      shapes.push_back(segmentShape(shape.link, shape.capsule_L));
      covered[static_cast<std::size_t>(shape.link)] = true;
    }
  } else {
    for (std::size_t l = 0; l < model.links().size(); ++l) {
      for (const CollisionShape<double>& shape : model.links()[l].collisions) {
        const int link = static_cast<int>(l);
        using Kind = CollisionShape<double>::Kind;
        if (shape.size_G.norm() > 0 && (shape.kind == Kind::kBox || shape.kind == Kind::kCylinder)) {
          shapes.push_back(
              {link, shape.kind == Kind::kBox ? "box" : "cylinder", shape.capsule_L, shape.X_LG, shape.size_G});
        } else {
          shapes.push_back(segmentShape(link, shape.capsule_L));
        }
        covered[l] = true;
      }
    }
  }
  for (const auto& joint : model.joints()) {
    const auto parent = static_cast<std::size_t>(joint.parent_link);
    if (covered[parent] || joint.X_PJ.translation().norm() < 1e-6) continue;
    shapes.push_back({joint.parent_link, "bone",
                      Capsule<double>{Eigen::Vector3d::Zero(), joint.X_PJ.translation(), 0.0},
                      Isometry3<double>::Identity(), Eigen::Vector3d::Zero()});
  }
  return shapes;
}

// The lowest point of a shape whose link is at X_WL (m, world z).
double lowestPoint(const DrawnShape& shape, const Eigen::Isometry3d& X_WL) {
  if (shape.framed()) {
    const Eigen::Matrix3d R_WG = X_WL.linear() * shape.X_LG.linear();
    const Eigen::Vector3d half = std::string_view(shape.kind) == "box"
                                     ? Eigen::Vector3d(0.5 * shape.size)
                                     : Eigen::Vector3d(shape.size.x(), shape.size.x(), 0.5 * shape.size.y());
    // The box's (or the cylinder's bounding box's) lowest corner.
    return (X_WL * shape.X_LG.translation()).z() - R_WG.row(2).cwiseAbs().dot(half);
  }
  return std::min((X_WL * shape.segment.a).z(), (X_WL * shape.segment.b).z()) - shape.segment.radius;
}

// The robot's body over the row's frames: its shapes (above), the links that carry them and, per
// frame, each such link's pose in the world (x, y, z in m; quaternion x, y, z, w). A floating-base
// row stands in its world (z up, the ground at z = 0); a fixed base is raised so that its lowest
// point over the take touches z = 0. Floating-base rows also give the root's path and the
// frames' ground-contact bits.
nlohmann::ordered_json robotBodyJson(const RobotModel<double>& model, const ComparedRow& row) {
  const std::vector<DrawnShape> shapes = bodyShapes(model);
  // The posed links: those with a shape and the soles, in model order; slot: link -> its place.
  std::vector<bool> posed(model.links().size(), false);
  for (const DrawnShape& shape : shapes) posed[static_cast<std::size_t>(shape.link)] = true;
  for (const int sole : row.sole_links) {
    if (sole >= 0) posed[static_cast<std::size_t>(sole)] = true;
  }
  std::vector<int> links;
  std::vector<int> slot(model.links().size(), -1);
  for (std::size_t l = 0; l < posed.size(); ++l) {
    if (!posed[l]) continue;
    slot[l] = static_cast<int>(links.size());
    links.push_back(static_cast<int>(l));
  }
  const bool floating = !row.X_WB.empty() && row.X_WB.size() == static_cast<std::size_t>(row.q.rows());
  RobotData<double> data(model);
  std::vector<std::vector<Eigen::Isometry3d>> poses;
  double lowest = std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < row.q.rows(); ++k) {
    data.X_WB = floating ? row.X_WB[static_cast<std::size_t>(k)] : Eigen::Isometry3d::Identity();
    forwardKinematics(model, data, Eigen::VectorXd(row.q.row(k).transpose()));
    std::vector<Eigen::Isometry3d> frame;
    for (const int l : links) frame.push_back(data.X_WL[static_cast<std::size_t>(l)]);
    for (const DrawnShape& shape : shapes) {
      const double z = lowestPoint(shape, frame[static_cast<std::size_t>(slot[static_cast<std::size_t>(shape.link)])]);
      if (std::isfinite(z)) lowest = std::min(lowest, z);
    }
    poses.push_back(std::move(frame));
  }
  const double lift = floating || !std::isfinite(lowest) ? 0.0 : -lowest;
  nlohmann::ordered_json out;
  nlohmann::ordered_json names = nlohmann::ordered_json::array(), drawn = nlohmann::ordered_json::array();
  for (const int l : links) names.push_back(model.links()[static_cast<std::size_t>(l)].name);
  for (const DrawnShape& shape : shapes) {
    nlohmann::ordered_json json = shapeJson(shape);
    json["link"] = slot[static_cast<std::size_t>(shape.link)];
    drawn.push_back(std::move(json));
  }
  out["links"] = names;
  out["shapes"] = drawn;
  out["floating"] = floating;
  out["lift"] = rounded(lift);
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  for (const auto& frame : poses) {
    nlohmann::ordered_json p = nlohmann::ordered_json::array();
    for (const Eigen::Isometry3d& X_WL : frame) {
      const Eigen::Quaterniond q(X_WL.linear());
      p.push_back(rounded(X_WL.translation().x()));
      p.push_back(rounded(X_WL.translation().y()));
      p.push_back(rounded(X_WL.translation().z() + lift));
      for (const double c : {q.x(), q.y(), q.z(), q.w()}) p.push_back(rounded(c));
    }
    frames.push_back(std::move(p));
  }
  out["poses"] = frames;
  if (floating) {
    nlohmann::ordered_json path = nlohmann::ordered_json::array();
    for (const Eigen::Isometry3d& X : row.X_WB) {
      for (int c = 0; c < 3; ++c) path.push_back(rounded(X.translation()[c]));
    }
    out["root_path"] = path;
  }
  nlohmann::ordered_json soles = nlohmann::ordered_json::array();
  for (const int sole : row.sole_links) soles.push_back(sole >= 0 ? slot[static_cast<std::size_t>(sole)] : -1);
  out["soles"] = soles;
  out["contacts"] =
      row.contact_flags.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(row.contact_flags);
  return out;
}

nlohmann::ordered_json rowJson(const RobotModel<double>& model, const ComparedRow& row) {
  nlohmann::ordered_json out;
  out["label"] = row.robot + " / " + row.label;
  out["robot"] = row.robot;
  out["method"] = row.method;
  out["mapped"] = !row.status.empty() || !row.X_WB.empty();  // a floating base is mapped here
  out["body"] = robotBodyJson(model, row);
  nlohmann::ordered_json names = nlohmann::ordered_json::array(), lower = nlohmann::ordered_json::array(),
                         upper = nlohmann::ordered_json::array(), values = nlohmann::ordered_json::array();
  for (int i = 0; i < model.nq(); ++i) {
    names.push_back(model.qName(i));
    lower.push_back(rounded(model.lowerLimits()[i], 1e6));
    upper.push_back(rounded(model.upperLimits()[i], 1e6));
    nlohmann::ordered_json v = nlohmann::ordered_json::array();
    for (Eigen::Index k = 0; k < row.q.rows(); ++k) v.push_back(rounded(row.q(k, i), 1e6));
    values.push_back(std::move(v));
  }
  out["joints"] = {{"names", names}, {"lower", lower}, {"upper", upper}, {"q", values}};
  // Per frame: bit 0 clamped, 1 held (degenerate input), 2 collision-avoided, 3 not converged.
  nlohmann::ordered_json status = nlohmann::ordered_json::array();
  for (const Status s : row.status) {
    status.push_back((s.has(StatusCode::kClamped) ? 1 : 0) | (s.has(StatusCode::kDegenerateInput) ? 2 : 0) |
                     (s.has(StatusCode::kCollisionAvoided) ? 4 : 0) | (s.has(StatusCode::kNotConverged) ? 8 : 0));
  }
  out["status"] = row.status.empty() ? nlohmann::ordered_json(nullptr) : status;
  nlohmann::ordered_json curves = nlohmann::ordered_json::array();
  for (const auto& [name, series] : row.curves) {
    nlohmann::ordered_json v = nlohmann::ordered_json::array();
    for (double x : series) v.push_back(rounded(x, 1e5));
    curves.push_back({{"name", name}, {"values", v}});
  }
  out["curves"] = curves;
  // Whole-body rows: the robot's support mode per frame ("double", "single-left", ...).
  out["modes"] = row.modes.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(row.modes);
  return out;
}

struct ReportRequest {
  std::string motion_path;
  std::vector<std::string> angles;
  std::string robot;
  std::vector<std::string> methods;
  std::vector<std::string> labels;
  CompareOptions options;
  std::string output;
};

void runReport(const ReportRequest& request) {
  if (request.angles.empty() && request.methods.empty()) {
    throw UsageError("report: give angle CSVs, --method, or both");
  }
  if (!request.labels.empty() && request.labels.size() != request.angles.size()) {
    throw UsageError("report: --label needs one label per angles CSV (got " + std::to_string(request.labels.size()) +
                     " labels for " + std::to_string(request.angles.size()) + " files)");
  }
  const CompareOptions& options = request.options;
  const ComparedRobot robot(request.robot);
  std::vector<std::pair<MethodSetup, std::string>> setups;  // and their labels
  for (const std::string& spec : request.methods) {
    for (auto& row : methodRows(spec, options)) {
      checkMethodApplies(row.first, robot.model);
      setups.push_back(std::move(row));
    }
  }
  const ComparedMotion motion = loadComparedMotion(request.motion_path);
  std::vector<ComparedRow> rows;
  for (std::size_t i = 0; i < request.angles.size(); ++i) {
    const std::string& path = request.angles[i];
    const JointTrajectory angles = toRobotOrder(readJointTrajectoryCsv(path), robot.model);
    const std::string method = methodFromFileName(path);
    const std::string label = request.labels.empty() ? std::filesystem::path(path).stem().string() : request.labels[i];
    rows.push_back(evaluateAngles(robot, motion, angles.positions, angles.times, method, label,
                                  method == "euler" ? options.defaults.config_path : std::string(), options.wbf_base,
                                  path));
  }
  for (const auto& [setup, label] : setups) rows.push_back(mapAndEvaluate(robot, motion, setup, options, label));
  writeReport(motion, {&robot}, rows, request.output);
  std::cerr << "retarget: report: " << rows.size() << " rows, " << motion.frames() << " frames -> " << request.output
            << "\n";
}

const bool kReportRegistered = registerCommand(Command{
    "report",
    "Write a self-contained HTML report: the human and the robots' bodies in 3D, joint angles with limits, metric "
    "curves and the compare table",
    [](CLI::App& command) {
      auto request = std::make_shared<ReportRequest>();
      command.add_option("motion", request->motion_path, "the human motion")->required();
      command.add_option("angles", request->angles, "robot joint-angle CSVs (e.g. from `retarget map`)");
      command.add_option("--robot", request->robot, "built-in robot name or URDF file")->required();
      command.add_option("--method", request->methods, "also map with these methods (as `retarget compare`)")
          ->delimiter(',');
      command.add_option("--label", request->labels, "labels of the CSVs, in order (default: file names)")
          ->delimiter(',');
      addCompareOptions(command, request->options);
      command.add_option("-o,--output", request->output, "HTML file to write")->required();
      command.callback([request] { runReport(*request); });
    }});

}  // namespace

void writeReport(const ComparedMotion& motion, const std::vector<const ComparedRobot*>& robots,
                 const std::vector<ComparedRow>& rows, const std::string& path) {
  nlohmann::ordered_json data;
  data["motion"] = motion.path;
  data["frames"] = motion.frames();
  nlohmann::ordered_json time = nlohmann::ordered_json::array();
  const std::vector<double>& times = rows.empty() ? std::vector<double>{} : rows.front().time;
  for (double t : times) time.push_back(rounded(t, 1e6));
  data["time"] = time;
  data["human"] = humanJson(motion);
  data["rows"] = nlohmann::ordered_json::array();
  for (const ComparedRow& row : rows) {
    const auto it = std::find_if(robots.begin(), robots.end(),
                                 [&](const ComparedRobot* r) { return r->model.name() == row.robot; });
    if (it == robots.end()) throw std::logic_error("report: no model for robot '" + row.robot + "'");
    data["rows"].push_back(rowJson((*it)->model, row));
  }
  data["comparison"] = comparisonJson(motion, rows);
  writeReportPage("retarget report: " + std::filesystem::path(motion.path).filename().string(), data, path);
}

void writeReportPage(const std::string& title, const nlohmann::ordered_json& data, const std::string& path) {
  // "</" would end the <script> element holding the data.
  std::string text = data.dump();
  for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3))
    text.insert(at + 1, "\\");
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ParseError(path, 0, "cannot write the report");
  out << reportPage(title, text);
  out.flush();
  if (!out) throw ParseError(path, 0, "cannot write the report");
}

}  // namespace retarget::cli
