#pragma once

/// @file
/// The safety pipeline (seed 001, Sections 2.2 and 3): what runs after a mapper, as one object
/// whose last step guarantees every limit together on the configuration it outputs,
///
///   q_mapped -> the filter stages (filters/filter_stages.hpp): exponential smoothing
///               (optional) -> q_target, then the joint or Cartesian speed limit from the
///               previous output -> q_candidate
///            -> q_candidate when it is collision-free with margin, else
///               CollisionAvoidance::applyWithin(q_target, q_prev, ...): the configuration
///               closest to q_target that is collision-free AND within both speed limits of
///               q_prev (one NLopt program, the speed limits as its bounds and constraints).
///
/// Why one program rather than filters after avoidance: a speed limit applied after avoidance
/// moves the arms back along the straight joint-space step from the previous output, which can
/// cross into collision (measured on the shared chicken-wing recording: 19 frames in collision,
/// clearance -0.022 m, with avoidance first and the limits after); filters before avoidance
/// break the speed limit instead. Inside one program neither can undo the other. Its cost is
/// paid only on frames whose speed-limited candidate collides (tests/safety, bench/safety).
///
/// Guarantee per frame, on the output: within the joint limits; with a previous output, every
/// joint moved at most max_joint_speed dt and every `points` point at most max_point_speed dt
/// (straight-line distance between its positions, to a relative 1e-9); collision-free with the
/// collision model's margin (to AvoidanceOptions::feasibility_tolerance). The only frames that
/// can miss a limit are those whose previous output was itself in collision (the first frames
/// of a motion that starts in collision: the speed limits win, and the frame says
/// kNotConverged) — `satisfied()` says so per frame, and the command line counts them.
///
/// Statuses: kRateLimited (a speed limit moved the step), kCollisionAvoided (the avoidance
/// program ran), kNotConverged (the output misses a limit, or the solver stopped on its
/// evaluation budget), kInvalidInput (wrong size, non-finite input or dt <= 0: the previous
/// output is held). Never throws; the solver's allocation is CollisionAvoidance's (documented
/// there); frames whose candidate is collision-free allocate nothing.
/// Optional part: target `retarget::avoidance` (needs NLopt).

#include <cmath>
#include <optional>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/filter_stages.hpp>
#include <retarget/safety/collision_avoidance.hpp>
#include <retarget/safety/self_collision.hpp>

namespace retarget {

/// Options of `SafetyPipeline` (validated aggregate): the filter stages' (smoothing, the joint
/// and point speed limits and their points; filters/filter_stages.hpp) and the avoidance
/// program's. Seed 001's real robot: max_joint_speed 1 rad/s, max_point_speed 0.25 m/s.
struct SafetyPipelineOptions : FilterStagesOptions {
  /// The avoidance program (its speed_points are replaced by `points`).
  AvoidanceOptions avoidance{};

  void validate() const {
    FilterStagesOptions::validate();
    avoidance.validate();
  }
};

namespace internal {

/// `retarget::SafetyPipeline` (below) is this template for `void`, as CollisionAvoidance is: its
/// member functions, and the avoidance program's they call, are compiled where a program uses
/// them, not in every translation unit that includes this header (a template in both modes).
template <typename Lazy>
class SafetyPipeline {
 public:
  /// Throws InvalidArgument for invalid options or an unknown point link (and what
  /// CollisionAvoidance throws).
  SafetyPipeline(const SelfCollisionModel<double>& collision, SafetyPipelineOptions options)
      : options_(validated(std::move(options))),
        avoidance_(collision, withSpeedPoints(options_)),
        checker_(collision),
        stages_(collision.model(), options_),
        previous_(collision.model().neutralConfiguration()) {}
  SafetyPipeline(const SelfCollisionModel<double>&&, SafetyPipelineOptions) = delete;

  /// One frame: the mapped angles `q_mapped` (size nq, rad), `dt` (s) after the previous frame
  /// (ignored on the first), the output to `q_out` (size nq). See the file doc.
  [[nodiscard]] Status update(const Eigen::Ref<const Eigen::VectorXd>& q_mapped, double dt,
                              Eigen::Ref<Eigen::VectorXd> q_out) noexcept {
    const Eigen::Index nq = previous_.size();
    if (q_out.size() != nq) return StatusCode::kInvalidInput;
    if (q_mapped.size() != nq || !q_mapped.allFinite() || (started_ && !(dt > 0 && std::isfinite(dt)))) {
      q_out = previous_;
      return StatusCode::kInvalidInput;
    }
    // The filter stages: target_ smoothed, candidate limited from the previous output.
    Status status = stages_.update(q_mapped, started_ ? dt : 1.0);
    const Eigen::VectorXd& target = stages_.target();
    // min_distance_: each branch has already measured its output's clearance.
    if (!started_ || !stages_.limited()) {
      status |= avoidance_.apply(target, q_out);  // no step limit: seed 001's Eq. 10 program alone
      min_distance_ = avoidance_.stats().min_distance_out;
    } else {
      checker_.update(stages_.value());
      if (checker_.minDistance() >= avoidance_.collisionModel().margin()) {
        q_out = stages_.value();
        min_distance_ = checker_.minDistance();
      } else {
        const double joint_step = options_.max_joint_speed > 0 ? options_.max_joint_speed * dt : HUGE_VAL;
        const double point_step = options_.max_point_speed > 0 ? options_.max_point_speed * dt : HUGE_VAL;
        status |= avoidance_.applyWithin(target, previous_, joint_step, point_step, q_out);
        min_distance_ = avoidance_.stats().min_distance_out;
      }
    }
    satisfied_ = min_distance_ >= avoidance_.collisionModel().margin() - avoidance_.options().feasibility_tolerance;
    if (!satisfied_) status |= StatusCode::kNotConverged;
    previous_ = q_out;
    stages_.continueFrom(previous_);
    started_ = true;
    return status;
  }

  /// Forgets the previous frame (and the smoothing state).
  void reset() noexcept {
    started_ = false;
    stages_.reset();
    avoidance_.reset();
  }

  /// Smallest pair distance of the last output (m).
  double minDistance() const noexcept { return min_distance_; }
  /// Whether the last output met every limit (see the file doc).
  bool satisfied() const noexcept { return satisfied_; }
  const SafetyPipelineOptions& options() const noexcept { return options_; }
  /// The avoidance program (its stats() describe the last solve).
  const retarget::CollisionAvoidance& avoidance() const noexcept { return avoidance_; }

 private:
  static SafetyPipelineOptions validated(SafetyPipelineOptions options) {
    options.validate();
    return options;
  }
  static AvoidanceOptions withSpeedPoints(const SafetyPipelineOptions& options) {
    AvoidanceOptions avoidance = options.avoidance;
    avoidance.speed_points = options.max_point_speed > 0 ? options.points : std::vector<LinkPoint>{};
    return avoidance;
  }

  SafetyPipelineOptions options_;
  retarget::CollisionAvoidance avoidance_;
  SelfCollisionChecker<double> checker_;
  FilterStages stages_;
  Eigen::VectorXd previous_;
  bool started_ = false;
  bool satisfied_ = true;
  double min_distance_ = 0;
};

}  // namespace internal

/// The safety pipeline (see the file doc). Keeps a reference to the collision model (and
/// through it the robot model). One per thread.
using SafetyPipeline = internal::SafetyPipeline<void>;

/// Runs `pipeline` over a whole motion `q` (frames x nq, rad) in place; `time` (s) has one entry
/// per row; a repeated time stamp keeps the previous output. Returns each frame's status. For
/// batch use (the command line, the Python bindings). Throws InvalidArgument for bad sizes. A
/// template (RETARGET_ALWAYS_LAZY_DECL, core/compilation.hpp), called as a function.
RETARGET_ALWAYS_LAZY_DECL std::vector<Status> applySafetyPipeline(SafetyPipeline& pipeline, Eigen::MatrixXd& q,
                                                                  const std::vector<double>& time) {
  const Eigen::Index frames = q.rows();
  RETARGET_THROW_UNLESS(static_cast<Eigen::Index>(time.size()) == frames, InvalidArgument, time.size(), " times for ",
                        frames, " frames");
  std::vector<Status> statuses(static_cast<std::size_t>(frames));
  Eigen::VectorXd out(q.cols());
  for (Eigen::Index k = 0; k < frames; ++k) {
    const double dt = k == 0 ? 1.0 : time[static_cast<std::size_t>(k)] - time[static_cast<std::size_t>(k - 1)];
    const Status status = dt > 0 ? pipeline.update(q.row(k).transpose(), dt, out) : Status();
    if (dt > 0) q.row(k) = out.transpose();
    else if (k > 0) q.row(k) = q.row(k - 1);
    statuses[static_cast<std::size_t>(k)] = status;
  }
  return statuses;
}

}  // namespace retarget
