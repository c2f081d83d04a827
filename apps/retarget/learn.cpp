// `retarget learn gmr <angles.csv...> -o hello.csv [--components K] [--steps 100]
//  [--reference N] [--std-output FILE]`: learns one gesture from several demonstrations (seed 000,
// Section 8): DTW alignment to a reference (metrics/dtw_alignment.hpp), resampling, a GMM per
// joint on (step, angle) by EM with BIC, and GMR (learning/demonstrations.hpp); writes the
// generalised trajectory as a joint-trajectory CSV. Eigen only: in every build.
//
// `retarget learn gpdm <recordings or angles.csv...> --robot nao -o wave.gpdm [--latent 3]
//  [--iterations N] [--every K]`: trains a GPDM (seed 003, Sections 4-5;
// learning/gpdm_training.hpp), one sequence per file, and saves it in the `.gpdm` format
// (io/gpdm_model.hpp) for `retarget map --method gpdm-pf --model`. A file is either a robot
// joint trajectory (time,<joint names>) or a human recording in any format `map` reads (Kinect,
// BVH, skeleton CSV, ...), which GA-LVVJ maps onto the robot first. The paper trains on other
// angles, the joint-space particle filter's estimates of the robot's wave (500 of 1000 frames,
// seed 003 Section 5): GA-LVVJ's angles are this command's departure, and the paper's kind of
// data is the CSV `retarget map --method pf` writes, given here as a joint trajectory. The
// columns kept are the robot's coordinates, in the robot's q order, and
// their names are stored in the file, with the training frame period (s) and, when recordings
// were given, the fit threshold: the 5th percentile of the GPDM-PF estimate's cosine similarity
// over the recordings' own frames (`gpdmFitThreshold`; 30 particles, seed 1, as `map` runs it).
// Training needs LBFGSpp (the optional target retarget::learning): without it the command says so.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cmath>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <retarget/io/gpdm_model.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/learning/demonstrations.hpp>
#include <retarget/metrics/dtw_alignment.hpp>
#ifdef RETARGET_CLI_WITH_LEARNING
#include <retarget/learning/gpdm_training.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/robots/robot_skeleton.hpp>
#endif

#include "cli.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {
namespace {

struct LearnGpdmRequest {
  std::vector<std::string> inputs;
  std::string robot;
  std::string output_path;
  int latent = 3;
  int iterations = 200;
  int every = 1;
  bool learn_scales = false;  // --learn-scales: also learn the per-joint scales W
};

#ifdef RETARGET_CLI_WITH_LEARNING
// The robot's coordinates that appear in `trajectory` (q order), rows every `every` frames.
Eigen::MatrixXd robotColumns(const JointTrajectory& trajectory, const RobotModel<double>& model,
                             std::vector<std::string>& names, int every, const std::string& path) {
  std::vector<int> columns;
  std::vector<std::string> found;
  for (int i = 0; i < model.nq(); ++i) {
    const int c = trajectory.findJoint(model.qName(i));
    if (c < 0) continue;
    columns.push_back(c);
    found.push_back(model.qName(i));
  }
  if (columns.empty()) {
    throw UsageError(path + ": no column names a coordinate of robot '" + model.name() + "'");
  }
  if (names.empty()) {
    names = found;
  } else if (names != found) {
    throw UsageError(path + ": its robot columns differ from the first file's (every sequence needs the same joints)");
  }
  const Eigen::Index rows = (trajectory.positions.rows() + every - 1) / every;
  if (rows < 2) throw UsageError(path + ": fewer than 2 frames (after --every " + std::to_string(every) + ")");
  Eigen::MatrixXd out(rows, static_cast<Eigen::Index>(columns.size()));
  for (Eigen::Index r = 0; r < rows; ++r) {
    for (std::size_t k = 0; k < columns.size(); ++k) {
      out(r, static_cast<Eigen::Index>(k)) = trajectory.positions(r * every, columns[k]);
    }
  }
  return out;
}
#endif

#ifdef RETARGET_CLI_WITH_LEARNING
// Median of the positive values (0 when there are none).
double positiveMedian(std::vector<double> values) {
  values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !(v > 0.0); }), values.end());
  if (values.empty()) return 0.0;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2), values.end());
  return values[values.size() / 2];
}

// Median time step (s) of `times`; 0 without positive steps.
double medianPeriod(const std::vector<double>& times) {
  std::vector<double> steps;
  for (std::size_t k = 1; k < times.size(); ++k) steps.push_back(times[k] - times[k - 1]);
  return positiveMedian(steps);
}
#endif

void learnGpdm(const LearnGpdmRequest& request) {
#ifndef RETARGET_CLI_WITH_LEARNING
  (void)request;
  throw missingPart("learn gpdm", "learning", "liblbfgspp-dev");
#else
  const RobotModel<double> model = loadRobot(request.robot);
  std::vector<Eigen::MatrixXd> sequences;
  std::vector<std::string> names;
  std::vector<SkeletonMotion<double>> recordings;
  std::vector<double> periods;
  Eigen::Index frames = 0;
  const std::optional<GaLvvjMap> ga_lvvj_map = gaLvvjMapFor(model);
  for (const std::string& path : request.inputs) {
    JointTrajectory trajectory;
    if (detectMotionFile(path) == MotionFileKind::kJointTrajectory) {
      trajectory = readJointTrajectoryCsv(path);
    } else {
      // A human recording: GA-LVVJ's angles are the training data (the paper's are the joint-space
      // particle filter's estimates, seed 003 Section 5: a departure, see the top of the file).
      if (!ga_lvvj_map) {
        throw UsageError("learn gpdm: " + path + " is a human recording, and no GA-LVVJ map fits robot '" +
                         model.name() + "' to turn it into joint angles (give joint-trajectory CSVs instead)");
      }
      SkeletonMotion<double> motion = loadMotion(path);
      GaLvvjMapper<double> mapper(model, *ga_lvvj_map);
      const MappedMotion<double> mapped = mapMotion(mapper, motion);
      trajectory = makeJointTrajectory(model);
      trajectory.positions = mapped.q;
      trajectory.times = mapped.time;
      recordings.push_back(std::move(motion));
    }
    periods.push_back(medianPeriod(trajectory.times) * request.every);
    sequences.push_back(robotColumns(trajectory, model, names, request.every, path));
    frames += sequences.back().rows();
  }
  if (frames > kGpdmMaxFrames) {
    throw UsageError("learn gpdm: " + std::to_string(frames) + " frames, more than a model holds (" +
                     std::to_string(kGpdmMaxFrames) + "; training costs O(N^3)): keep fewer with --every K");
  }
  GpdmTrainingOptions options;
  options.latent_dim = request.latent;
  options.max_iterations = request.iterations;
  options.report_every = 10;
  options.learn_scales = request.learn_scales;
  if (request.latent >= frames) {
    throw UsageError("learn gpdm: --latent " + std::to_string(request.latent) + " needs more than that many frames (got " +
                     std::to_string(frames) + ")");
  }
  std::cerr << "learn gpdm: " << frames << " frames of " << names.size() << " joints in " << sequences.size()
            << " sequence(s), latent dimension " << request.latent << "\n";
  const auto start = std::chrono::steady_clock::now();
  GpdmTrainingReport report;
  const GpdmModel gpdm = trainGpdm(
      sequences, options,
      [&](const GpdmTrainingProgress& p) {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cerr << "  iteration " << p.iteration << "/" << request.iterations << ": -log posterior "
                  << fixed(p.objective, 2) << ", |gradient| " << fixed(p.gradient_norm, 4) << " (" << fixed(s, 1)
                  << " s)\n";
      },
      &report);
  GpdmModelFile file;
  file.model = gpdm;
  file.joint_names = names;
  file.frame_period = positiveMedian(periods);
  std::string fit_note = "; no fit threshold (give the recordings, not angle CSVs, to measure one)";
  if (!recordings.empty()) {
    GpdmFilterMap map;
    map.motion_model = gpdm;
    map.joints = names;
    map.skeleton = *virtualSkeletonMapFor(model);
    map.fallback = *ga_lvvj_map;
    map.frame_period = file.frame_period;
    file.fit_threshold = gpdmFitThreshold(model, map, recordings);
    fit_note = "; fit threshold " + fixed(*file.fit_threshold, 4) + " (5th percentile of the GPDM-PF estimate's cosine " +
               "on the " + std::to_string(recordings.size()) + " training recording(s))";
  }
  saveGpdmModel(file, request.output_path);
  // Reconstruction of the training frames through the decoder (rad, RMS over every value).
  GpdmWorkspace workspace = gpdm.workspace();
  Eigen::VectorXd y(gpdm.observationDim());
  double squared = 0;
  for (Eigen::Index t = 0; t < gpdm.frames(); ++t) {
    (void)gpdm.decodeMean(gpdm.latent().row(t).transpose(), workspace, y);
    squared += (y - gpdm.observations().row(t).transpose()).squaredNorm();
  }
  const double rms = std::sqrt(squared / static_cast<double>(gpdm.frames() * gpdm.observationDim()));
  std::cout << "learn gpdm: wrote " << request.output_path << " (" << gpdm.frames() << " frames, "
            << gpdm.activeObservationDim() << " of " << names.size() << " joints move, latent " << gpdm.latentDim()
            << "; " << report.iterations << " iterations, -log posterior " << fixed(report.initial_objective, 1)
            << " -> " << fixed(report.final_objective, 1) << (report.converged ? ", converged" : "")
            << "; training reconstruction RMS " << fixed(rms, 5) << " rad; frame period " << fixed(file.frame_period, 4)
            << " s" << fit_note << ")\n";
#endif
}

struct LearnGmrRequest {
  std::vector<std::string> inputs;
  std::string output_path;
  std::string std_output_path;
  int components = 0;
  int max_components = 16;
  int steps = 100;
  int reference = 0;  // 1-based file index; 0 = the medoid
};

void learnGmr(const LearnGmrRequest& request) {
  // The first file's joint columns, in its order; every other file must have them all.
  std::vector<JointTrajectory> files;
  for (const std::string& path : request.inputs) files.push_back(readJointTrajectoryCsv(path));
  const std::vector<std::string>& names = files.front().joint_names;
  std::vector<Eigen::MatrixXd> sequences;  // joints x frames, one frame per column (DTW layout)
  double duration = 0.0;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const JointTrajectory& t = files[f];
    if (t.positions.rows() < 2) throw UsageError(request.inputs[f] + ": fewer than 2 frames");
    Eigen::MatrixXd columns(static_cast<Eigen::Index>(names.size()), t.positions.rows());
    for (std::size_t j = 0; j < names.size(); ++j) {
      const int c = t.findJoint(names[j]);
      if (c < 0) throw UsageError(request.inputs[f] + ": no column '" + names[j] + "' (the first file has it)");
      columns.row(static_cast<Eigen::Index>(j)) = t.positions.col(c).transpose();
    }
    sequences.push_back(std::move(columns));
    duration += t.duration();
  }
  duration /= static_cast<double>(files.size());
  if (request.reference > static_cast<int>(files.size())) {
    throw UsageError("learn gmr: --reference " + std::to_string(request.reference) + ", but only " +
                     std::to_string(files.size()) + " files are given");
  }
  const int reference = request.reference > 0 ? request.reference - 1 : dtwMedoid(sequences);
  std::vector<Eigen::MatrixXd> aligned;
  for (const Eigen::MatrixXd& s : sequences) {
    aligned.push_back(dtwAlignToReference(s, sequences[static_cast<std::size_t>(reference)]).transpose());
  }
  DemonstrationLearningOptions options;
  options.steps = request.steps;
  options.components = request.components;
  options.mixture.max_components = request.max_components;
  const GeneralisedTrajectory learned = learnFromDemonstrations(aligned, options);

  JointTrajectory out;
  out.joint_names = names;
  out.positions = learned.mean;
  for (int s = 0; s < request.steps; ++s) out.times.push_back(duration * s / (request.steps - 1));
  writeJointTrajectoryCsv(out, request.output_path);
  if (!request.std_output_path.empty()) {
    JointTrajectory spread = out;
    spread.positions = learned.variance.cwiseSqrt();
    writeJointTrajectoryCsv(spread, request.std_output_path);
  }
  std::cout << "learn gmr: " << files.size() << " demonstrations of " << names.size()
            << " joints aligned by DTW to " << request.inputs[static_cast<std::size_t>(reference)]
            << (request.reference > 0 ? "" : " (the medoid)") << ", " << request.steps << " steps over "
            << fixed(duration, 3) << " s\n  GMM components per moving joint"
            << (request.components > 0 ? "" : " (BIC)") << ":";
  int still = 0;
  for (std::size_t j = 0; j < names.size(); ++j) {
    if (learned.components[j] == 0) {
      ++still;
    } else {
      std::cout << " " << names[j] << " " << learned.components[j];
    }
  }
  if (still > 0) std::cout << "; " << still << " joint(s) never move and keep their value";
  Eigen::Index worst_step = 0, worst_joint = 0;
  const double worst = learned.variance.maxCoeff(&worst_step, &worst_joint);
  std::cout << "\n  GMR standard deviation: mean " << fixed(learned.variance.cwiseSqrt().mean(), 4)
            << " rad, largest " << fixed(std::sqrt(worst), 4) << " rad (" << names[static_cast<std::size_t>(worst_joint)]
            << ", step " << worst_step << ")\n  wrote " << request.output_path;
  if (!request.std_output_path.empty()) std::cout << " and " << request.std_output_path;
  std::cout << "\n";
}

const bool kLearnRegistered = registerCommand(Command{
    "learn",
    "Learn from recordings or robot joint trajectories (gmr: one gesture from several demonstrations; gpdm: a model "
    "for map "
    "--method gpdm-pf)",
    [](CLI::App& command) {
      command.require_subcommand(1);
      auto request = std::make_shared<LearnGpdmRequest>();
      CLI::App* gpdm = command.add_subcommand(
          "gpdm", "Train a GPDM (seed 003: kernel PCA, then L-BFGS on the GPDM posterior) and write a .gpdm file");
      gpdm->add_option("recordings", request->inputs,
                       "human recordings (Kinect, BVH, skeleton CSV, ...: GA-LVVJ maps them first) or joint-trajectory "
                       "CSV files (time,<joint names...>), one sequence each")
          ->required();
      gpdm->add_option("--robot", request->robot, "built-in robot name or URDF file (its coordinates are the columns kept)")
          ->required();
      gpdm->add_option("-o,--output", request->output_path, ".gpdm file to write")->required();
      gpdm->add_option("--latent", request->latent, "latent dimension (default 3, the paper's)")->check(CLI::Range(1, 20));
      gpdm->add_option("--iterations", request->iterations, "L-BFGS iterations (default 200)")
          ->check(CLI::Range(1, 100000));
      gpdm->add_option("--every", request->every, "keep every K-th frame (default 1; the paper keeps 500 of 1000: 2)")
          ->check(CLI::Range(1, 1000));
      gpdm->add_flag("--learn-scales", request->learn_scales,
                     "also learn the per-joint scales W (GpdmTrainingOptions::learn_scales; default off: W from the "
                     "data's spread, docs/methods/gpdm.md)");
      gpdm->callback([request] { learnGpdm(*request); });

      auto gmr_request = std::make_shared<LearnGmrRequest>();
      CLI::App* gmr = command.add_subcommand(
          "gmr", "Learn one gesture from several demonstrations (seed 000 Section 8: DTW, GMM by EM with BIC, GMR)");
      gmr->add_option("trajectories", gmr_request->inputs,
                      "joint-trajectory CSV files, one demonstration each, with the first file's joint columns")
          ->required();
      gmr->add_option("-o,--output", gmr_request->output_path, "joint-trajectory CSV of the generalised gesture")
          ->required();
      gmr->add_option("--components", gmr_request->components,
                      "GMM components per joint (default 0: chosen by BIC among 1 ... --max-components)")
          ->check(CLI::Range(0, 50));
      gmr->add_option("--max-components", gmr_request->max_components,
                      "largest number of components BIC may choose (default 16; a gesture needs about two per swing)")
          ->check(CLI::Range(1, 50));
      gmr->add_option("--steps", gmr_request->steps, "steps of the result (default 100, the paper's)")
          ->check(CLI::Range(2, 100000));
      gmr->add_option("--reference", gmr_request->reference,
                      "demonstration the others are aligned to, 1-based (default: the medoid by DTW distance)")
          ->check(CLI::Range(1, 100000));
      gmr->add_option("--std-output", gmr_request->std_output_path,
                      "also write the GMR standard deviation per step and joint (rad) as a CSV");
      gmr->callback([gmr_request] { learnGmr(*gmr_request); });
    }});

}  // namespace
}  // namespace retarget::cli
