// `retarget dtw <a.csv> <b.csv> [--columns c1,c2,...] [--window N] [--normalize] [--per-column] [--json]`:
// exact dynamic time warping between two trajectories stored as joint-trajectory CSV
// (header `time,<columns...>`, one row per frame).
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <retarget/core/error.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/metrics/dtw.hpp>

#include "cli.hpp"

namespace retarget::cli {
namespace {

struct DtwRequest {
  std::string path_a;
  std::string path_b;
  std::vector<std::string> columns;  // empty: every column of A but time
  long window = -1;
  bool normalize = false;
  bool per_column = false;
  bool json = false;
};

// The named columns of a trajectory as a d x n matrix (one frame per column).
Eigen::MatrixXd framesOf(const JointTrajectory& trajectory, const std::vector<std::string>& columns,
                         const std::string& path) {
  Eigen::MatrixXd frames(static_cast<Eigen::Index>(columns.size()), trajectory.positions.rows());
  for (std::size_t k = 0; k < columns.size(); ++k) {
    const int column = trajectory.findJoint(columns[k]);
    RETARGET_THROW_UNLESS(column >= 0, InvalidArgument, path, ": no column '", columns[k], "' (got columns: ",
                          [&] {
                            std::string names;
                            for (const auto& name : trajectory.joint_names) names += (names.empty() ? "" : ",") + name;
                            return names;
                          }(),
                          ")");
    frames.row(static_cast<Eigen::Index>(k)) = trajectory.positions.col(column).transpose();
  }
  return frames;
}

// A JSON number (non-finite values become null) or string.
std::string jsonNumber(double value) {
  if (!std::isfinite(value)) return "null";
  std::ostringstream out;
  out << std::setprecision(17) << value;
  return out.str();
}
std::string jsonString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      std::ostringstream hex;
      hex << "\\u" << std::hex << std::setw(4) << std::setfill('0') << static_cast<int>(c);
      out += hex.str();
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void run(const DtwRequest& request) {
  const JointTrajectory a = readJointTrajectoryCsv(request.path_a);
  const JointTrajectory b = readJointTrajectoryCsv(request.path_b);
  RETARGET_THROW_UNLESS(!a.empty(), InvalidArgument, request.path_a, ": no frames (expected at least one row)");
  RETARGET_THROW_UNLESS(!b.empty(), InvalidArgument, request.path_b, ": no frames (expected at least one row)");
  const std::vector<std::string> columns = request.columns.empty() ? a.joint_names : request.columns;
  if (columns.empty()) throw UsageError("dtw: " + request.path_a + " has no column besides time");
  const Eigen::MatrixXd frames_a = framesOf(a, columns, request.path_a);
  const Eigen::MatrixXd frames_b = framesOf(b, columns, request.path_b);

  DtwOptions options;
  options.window = request.window < 0 ? kNoDtwWindow : static_cast<Eigen::Index>(request.window);
  options.normalization = request.normalize ? DtwNormalization::kPathLength : DtwNormalization::kNone;
  const DtwResult<double> result = dtw(frames_a, frames_b, options);
  std::vector<DtwResult<double>> per_column;
  if (request.per_column) {
    for (Eigen::Index k = 0; k < frames_a.rows(); ++k) per_column.push_back(dtw(frames_a.row(k), frames_b.row(k), options));
  }

  if (request.json) {
    std::cout << "{\"distance\": " << jsonNumber(result.distance) << ", \"cost\": " << jsonNumber(result.cost)
              << ", \"path_length\": " << result.path_length << ", \"frames_a\": " << frames_a.cols()
              << ", \"frames_b\": " << frames_b.cols() << ", \"window\": "
              << (request.window < 0 ? std::string("null") : std::to_string(request.window))
              << ", \"normalization\": " << (request.normalize ? "\"path_length\"" : "\"none\"") << ", \"columns\": [";
    for (std::size_t k = 0; k < columns.size(); ++k) std::cout << (k ? ", " : "") << jsonString(columns[k]);
    std::cout << "]";
    if (request.per_column) {
      std::cout << ", \"per_column\": {";
      for (std::size_t k = 0; k < columns.size(); ++k) {
        std::cout << (k ? ", " : "") << jsonString(columns[k]) << ": " << jsonNumber(per_column[k].distance);
      }
      std::cout << "}";
    }
    std::cout << "}\n";
    return;
  }
  std::cout << std::setprecision(10);
  std::cout << "distance: " << result.distance << "\n"
            << "cost: " << result.cost << "\n"
            << "path_length: " << result.path_length << "\n"
            << "frames: " << frames_a.cols() << " x " << frames_b.cols() << ", " << columns.size() << " columns\n";
  if (!std::isfinite(result.cost)) {
    std::cout << "note: the window (" << request.window << ") is narrower than the length difference ("
              << std::abs(frames_a.cols() - frames_b.cols()) << " frames): no warping path\n";
  }
  for (std::size_t k = 0; k < per_column.size(); ++k) {
    std::cout << "  " << columns[k] << ": " << per_column[k].distance << "\n";
  }
}

const bool kDtwRegistered = registerCommand(Command{
    "dtw", "Dynamic time warping distance between two trajectory CSV files (time,<columns...>)",
    [](CLI::App& command) {
      auto request = std::make_shared<DtwRequest>();
      command.add_option("a", request->path_a, "first trajectory CSV (header time,<columns...>)")->required();
      command.add_option("b", request->path_b, "second trajectory CSV (same column names)")->required();
      command.add_option("--columns", request->columns, "columns forming each frame's vector (default: all but time)")
          ->delimiter(',');
      command.add_option("--window", request->window, "Sakoe-Chiba band radius in frames (default: none)")
          ->check(CLI::NonNegativeNumber);
      command.add_flag("--normalize", request->normalize, "divide the cost by the warping path length");
      command.add_flag("--per-column", request->per_column, "also report each column's own 1-D DTW distance");
      command.add_flag("--json", request->json, "print JSON");
      command.callback([request] { run(*request); });
    }});

}  // namespace
}  // namespace retarget::cli
