// `retarget report <motion> [angles.csv...] --robot R [--method m1,m2] [--label l1,l2] -o report.html`:
// one self-contained HTML file (data and drawing code inline, nothing fetched) with the human
// skeleton and each robot's skeleton (forward kinematics of each row's angles) in 3D side by side
// with play/pause, a time slider and orbit/zoom; each joint's angle over time with its limits;
// the per-frame metric curves; and the summary table of `retarget compare` (docs/report.md).
//
// Rows come from the angle CSVs (method from the file name, label from --label or the file name)
// and from --method (mapped here, like `retarget compare`). Only mapped rows know their per-frame statuses
// (clamped, held, collision-avoided, not converged); for a CSV the page marks the samples that
// sit on a joint limit, the clamps it can detect.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/core/error.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/metrics/position_error.hpp>

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

// The robot's skeleton over the row's frames: every link frame's origin (m, root frame; x
// forward, y left, z up like the human's canonical frame) and its parent link (-1: root).
nlohmann::ordered_json robotSkeletonJson(const RobotModel<double>& model, const Eigen::MatrixXd& q) {
  nlohmann::ordered_json out;
  nlohmann::ordered_json parents = nlohmann::ordered_json::array();
  for (const auto& link : model.links()) {
    parents.push_back(link.parent_joint < 0 ? -1 : model.joints()[static_cast<std::size_t>(link.parent_joint)].parent_link);
  }
  out["parents"] = parents;
  RobotData<double> data(model);
  nlohmann::ordered_json frames = nlohmann::ordered_json::array();
  for (Eigen::Index k = 0; k < q.rows(); ++k) {
    const Eigen::VectorXd q_k = q.row(k).transpose();
    forwardKinematics(model, data, q_k);
    nlohmann::ordered_json p = nlohmann::ordered_json::array();
    for (const auto& X_WL : data.X_WL) {
      for (int c = 0; c < 3; ++c) p.push_back(rounded(X_WL.translation()[c]));
    }
    frames.push_back(std::move(p));
  }
  out["positions"] = frames;
  return out;
}

nlohmann::ordered_json rowJson(const RobotModel<double>& model, const ComparedRow& row) {
  nlohmann::ordered_json out;
  out["label"] = row.robot + " / " + row.label;
  out["robot"] = row.robot;
  out["method"] = row.method;
  out["mapped"] = !row.status.empty();
  out["skeleton"] = robotSkeletonJson(model, row.q);
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
    "Write a self-contained HTML report: 3D human and robot skeletons, joint angles with limits, metric curves "
    "and the compare table",
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
  // "</" would end the <script> element holding the data.
  std::string text = data.dump();
  for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3)) text.insert(at + 1, "\\");
  const std::string title = "retarget report: " + std::filesystem::path(motion.path).filename().string();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ParseError(path, 0, "cannot write the report");
  out << reportPage(title, text);
  out.flush();
  if (!out) throw ParseError(path, 0, "cannot write the report");
}

}  // namespace retarget::cli
