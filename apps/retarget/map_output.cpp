#include "map_output.hpp"

#include <iostream>

#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>

namespace retarget::cli {

void finishMap(const MapRequest& request, const RobotModel<double>& model, MappedMotion<double>& mapped,
               const std::string& label) {
  const Eigen::Index frames = mapped.q.rows();
  std::string filters;
  if (request.smooth > 0) {
    ExponentialSmoothing<double> smoothing(model.nq(), ExponentialSmoothingOptions{request.smooth});
    for (Eigen::Index k = 0; k < frames; ++k) {
      (void)smoothing.update(mapped.q.row(k).transpose());
      mapped.q.row(k) = smoothing.value().transpose();
    }
    filters += ", smoothed (alpha " + fixed(request.smooth, 3) + ")";
  }
  if (request.max_joint_speed > 0) {
    RateLimiterOptions options;
    options.max_rate = request.max_joint_speed;
    RateLimiter<double> limiter(model.nq(), options);
    int limited = 0;
    for (Eigen::Index k = 0; k < frames; ++k) {
      const double dt = k == 0 ? 1.0 : mapped.time[static_cast<std::size_t>(k)] - mapped.time[static_cast<std::size_t>(k - 1)];
      // A repeated time stamp (dt = 0) keeps the previous output: no motion in no time.
      const Status status = dt > 0 ? limiter.update(mapped.q.row(k).transpose(), dt) : Status();
      limited += status.has(StatusCode::kRateLimited) ? 1 : 0;
      mapped.q.row(k) = limiter.value().transpose();
    }
    filters += ", rate limited in " + std::to_string(limited) + " frames (" + fixed(request.max_joint_speed, 3) +
               " rad/s)";
  }
  JointTrajectory trajectory = makeJointTrajectory(model);
  trajectory.positions = mapped.q;
  trajectory.times = mapped.time;
  writeJointTrajectoryCsv(trajectory, request.output_path);
  std::cerr << "retarget: " << label << ": " << frames << " frames -> " << request.output_path << "; clamped in "
            << mapped.clamped_frames << ", held (degenerate input) in " << mapped.held_frames << ", invalid input in "
            << mapped.invalid_frames << " frames" << filters << "\n";
}

}  // namespace retarget::cli
