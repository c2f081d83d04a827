#pragma once

/// @file
/// Training of a GPDM (learning/gpdm.hpp) from joint-angle sequences, as in seed 003 Sections 4-5:
/// kernel PCA gives the initial latent points (Figure 7a), then L-BFGS minimises the GPDM
/// negative log posterior over the latent points and the log-hyperparameters together, with the
/// analytic gradient of `GpdmModel::negativeLogLikelihood`.
///
/// Optional part retarget::learning: needs LBFGSpp (header-only; Debian liblbfgspp-dev), and is
/// never included by retarget/retarget.hpp.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <LBFGS.h>

#include "retarget/core/error.hpp"
#include "retarget/learning/gpdm.hpp"
#include "retarget/learning/kernel_pca.hpp"

namespace retarget {

/// Options of `trainGpdm` (a validated aggregate; `validate()` runs in `trainGpdm`).
struct GpdmTrainingOptions {
  /// Latent dimension d (the paper uses 3). 1 ... N - 1.
  int latent_dim = 3;
  /// Maximum L-BFGS iterations in total. >= 1.
  int max_iterations = 200;
  /// L-BFGS iterations between two progress reports (and two restarts of the L-BFGS memory:
  /// the solver runs in chunks of this many iterations so that the reported objective is the
  /// one of an accepted iterate). >= 1.
  int report_every = 10;
  /// L-BFGS memory (pairs of correction vectors). 1 ... 100.
  int memory = 8;
  /// Stop when the gradient norm is below `gradient_tolerance * max(1, |parameters|)`. > 0.
  double gradient_tolerance = 1e-5;
  /// Weight of the dynamics term in the objective (`GpdmModel::negativeLogLikelihood`): 1 is
  /// Wang et al.'s GPDM; 0 selects the balanced GPDM's D'/d (Urtasun et al. 2006). >= 0.
  double dynamics_weight = 1.0;
  /// Kernel PCA that initialises the latent points (its latent_dim is replaced by latent_dim).
  KernelPcaOptions initialisation{};
  /// Scale of the initial latent points: the kernel PCA projections are rescaled to this RMS
  /// value per coordinate (latent unit). > 0.
  double initial_latent_rms = 1.0;
  /// Initial hyperparameters (default: the seed's alpha, beta of Section 5).
  GpdmHyperparameters initial_hyperparameters{};
  /// Learn the per-joint scales W (Wang et al.; seed 003 sets omega_j = 1 "initially"): before
  /// every `report_every` L-BFGS iterations W is set to its closed-form optimum given X and
  /// beta (`GpdmModel::optimalScales`), which never increases L. Off by default, chosen by
  /// measurement (docs/methods/gpdm.md): on the held-out Kinect cases the GPDM-PF tracks worse
  /// with learned W (second half of the wave-hand take: cosine 0.932 against 0.990 with W = 1;
  /// other gestures 0.79-0.92 against 0.84-0.96), slightly better on the walks (0.955 against
  /// 0.949).
  bool learn_scales = false;

  /// Throws InvalidArgument naming the field and its value.
  void validate() const {
    RETARGET_THROW_UNLESS(latent_dim >= 1, InvalidArgument, "GpdmTrainingOptions::latent_dim (got ", latent_dim,
                          ", expected >= 1)");
    RETARGET_THROW_UNLESS(max_iterations >= 1, InvalidArgument, "GpdmTrainingOptions::max_iterations (got ",
                          max_iterations, ", expected >= 1)");
    RETARGET_THROW_UNLESS(report_every >= 1, InvalidArgument, "GpdmTrainingOptions::report_every (got ",
                          report_every, ", expected >= 1)");
    RETARGET_THROW_UNLESS(memory >= 1 && memory <= 100, InvalidArgument, "GpdmTrainingOptions::memory (got ", memory,
                          ", expected 1 ... 100)");
    RETARGET_THROW_UNLESS(gradient_tolerance > 0.0, InvalidArgument, "GpdmTrainingOptions::gradient_tolerance (got ",
                          gradient_tolerance, ", expected > 0)");
    RETARGET_THROW_UNLESS(dynamics_weight >= 0.0 && std::isfinite(dynamics_weight), InvalidArgument,
                          "GpdmTrainingOptions::dynamics_weight (got ", dynamics_weight,
                          ", expected >= 0; 0 = balanced D'/d)");
    RETARGET_THROW_UNLESS(initial_latent_rms > 0.0 && std::isfinite(initial_latent_rms), InvalidArgument,
                          "GpdmTrainingOptions::initial_latent_rms (got ", initial_latent_rms, ", expected > 0)");
    KernelPcaOptions kpca = initialisation;
    kpca.latent_dim = latent_dim;
    kpca.validate();
    initial_hyperparameters.validate();
  }
};

/// One progress report of `trainGpdm`.
struct GpdmTrainingProgress {
  int iteration = 0;         ///< L-BFGS iterations done so far (0: the initial point)
  double objective = 0.0;    ///< negative log posterior L at the current (accepted) iterate
  double gradient_norm = 0.0;
};

/// What `trainGpdm` did.
struct GpdmTrainingReport {
  int iterations = 0;
  double initial_objective = 0.0;
  double final_objective = 0.0;
  bool converged = false;  ///< the gradient tolerance was met (false: iteration limit or line search stop)
};

/// Trains a GPDM on `sequences` (each T_s x D, joint angles in radians, T_s >= 2, all with the
/// same D): kernel PCA of all frames initialises X, then L-BFGS (LBFGSpp) minimises the negative
/// log posterior. `progress`, when set, is called at the start and after every `report_every`
/// iterations (and at the end) with the objective of the current iterate: a non-increasing
/// sequence. `report`, when not null, receives a summary. Throws InvalidArgument for bad options
/// or data (naming the value), and what kernel PCA and GpdmModel throw. (A template only so that
/// it is compiled where it is called, not in every translation unit that includes this header.)
template <typename Lazy = void>
GpdmModel trainGpdm(const std::vector<Eigen::MatrixXd>& sequences, const GpdmTrainingOptions& options = {},
                    const std::function<void(const GpdmTrainingProgress&)>& progress = {},
                    GpdmTrainingReport* report = nullptr) {
  options.validate();
  RETARGET_THROW_UNLESS(!sequences.empty(), InvalidArgument, "sequences (got none, expected at least one)");
  std::vector<Eigen::Index> lengths;
  Eigen::Index total = 0;
  const Eigen::Index dim_y = sequences.front().cols();
  for (std::size_t s = 0; s < sequences.size(); ++s) {
    RETARGET_THROW_UNLESS(sequences[s].rows() >= 2 && sequences[s].cols() == dim_y && dim_y >= 1, InvalidArgument,
                          "sequences[", s, "] (got ", sequences[s].rows(), " x ", sequences[s].cols(),
                          ", expected >= 2 frames of ", dim_y, " values)");
    lengths.push_back(sequences[s].rows());
    total += sequences[s].rows();
  }
  Eigen::MatrixXd y(total, dim_y);
  Eigen::Index row = 0;
  for (const auto& sequence : sequences) {
    y.middleRows(row, sequence.rows()) = sequence;
    row += sequence.rows();
  }

  KernelPcaOptions kpca_options = options.initialisation;
  kpca_options.latent_dim = options.latent_dim;
  KernelPca kpca;
  kpca.fit(y, kpca_options);
  Eigen::MatrixXd x0 = kpca.projections();
  const double rms = std::sqrt(x0.squaredNorm() / static_cast<double>(x0.size()));
  if (rms > 0.0) x0 *= options.initial_latent_rms / rms;

  GpdmModel model(y, lengths, x0, options.initial_hyperparameters);

  // The objective as LBFGSpp wants it; it remembers the best point evaluated, so that a line
  // search that gives up (LBFGSpp throws) still leaves the best accepted iterate.
  const double weight = options.dynamics_weight > 0.0
                            ? options.dynamics_weight
                            : static_cast<double>(std::max<Eigen::Index>(model.activeObservationDim(), 1)) /
                                  static_cast<double>(options.latent_dim);
  struct Objective {
    const GpdmModel* model;
    double weight;
    Eigen::VectorXd best_p;
    double best_value = std::numeric_limits<double>::infinity();
    double operator()(const Eigen::VectorXd& p, Eigen::VectorXd& gradient) {
      const double value = model->negativeLogLikelihood(p, &gradient, weight);
      if (value < best_value) {
        best_value = value;
        best_p = p;
      }
      return value;
    }
  } objective{&model, weight, {}, std::numeric_limits<double>::infinity()};

  Eigen::VectorXd p = model.parameters();
  Eigen::VectorXd gradient(p.size());
  double value = objective(p, gradient);
  RETARGET_THROW_UNLESS(std::isfinite(value), Error, "the initial negative log posterior is not finite (got ", value,
                        ")");
  GpdmTrainingReport summary;
  summary.initial_objective = value;
  if (progress) progress(GpdmTrainingProgress{0, value, gradient.norm()});

  // W at its optimum for the current point; the objective is re-evaluated under the new W (a
  // closed-form minimisation over W: the value does not increase).
  const auto updateScales = [&] {
    if (!options.learn_scales) return;
    model.setScales(model.optimalScales(objective.best_p));
    const Eigen::VectorXd at = objective.best_p;
    objective.best_value = std::numeric_limits<double>::infinity();
    objective(at, gradient);
  };

  LBFGSpp::LBFGSParam<double> param;
  param.m = options.memory;
  param.epsilon = options.gradient_tolerance;
  param.max_iterations = options.report_every;
  param.max_linesearch = 40;
  int done = 0;
  bool stop = false;
  while (done < options.max_iterations && !stop) {
    updateScales();
    const int chunk = std::min(options.report_every, options.max_iterations - done);
    param.max_iterations = chunk;
    LBFGSpp::LBFGSSolver<double> solver(param);
    Eigen::VectorXd trial = objective.best_p;
    double trial_value = objective.best_value;
    int used = chunk;
    try {
      used = solver.minimize(objective, trial, trial_value);
    } catch (const std::exception&) {
      stop = true;  // the line search could not decrease L further: keep the best point
    }
    done += used;
    // Continue from the best point evaluated (the accepted iterate unless the solver threw).
    objective(objective.best_p, gradient);
    const double gnorm = gradient.norm();
    if (used < chunk && !stop) {
      summary.converged = true;  // LBFGSpp met its gradient tolerance before the chunk's end
      stop = true;
    }
    if (progress) progress(GpdmTrainingProgress{done, objective.best_value, gnorm});
  }
  model.setParameters(objective.best_p);
  summary.iterations = done;
  summary.final_objective = objective.best_value;
  if (report != nullptr) *report = summary;
  return model;
}

}  // namespace retarget
