// A 30 Hz control loop: each new skeleton frame goes through the mapper, then a One-Euro filter
// against sensor jitter, then a rate limiter at the robot's velocity limits, then to the robot.
// Nothing in the loop allocates or throws; every stage reports a Status.
#include <iostream>
#include <random>

#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/robots/nao.hpp>

int main() {
  using namespace retarget;
  const RobotModel<double> nao = makeNao();

  // Describe once: mapper and filters allocate here, never in the loop.
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  OneEuroFilterOptions jitter;
  jitter.min_cutoff = 1.5;  // Hz
  jitter.beta = 0.3;
  OneEuroFilter<double> smooth(nao.nq(), jitter);
  RateLimiterOptions speed;
  speed.max_rates = nao.velocityLimits();  // rad/s, per joint
  RateLimiter<double> limit(nao.nq(), speed);

  // The "sensor": a demo motion with 5 mm of noise on every joint, as a depth camera gives.
  const SkeletonMotion<double> take = demoMotion("squat", DemoMotionOptions{30.0, 4.0, 1.75});
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0.0, 0.005);

  Eigen::VectorXd q(nao.nq());
  int clamped = 0, held = 0, limited = 0;
  double previous_time = 0;
  for (const SkeletonFrame<double>& clean : take.frames) {
    SkeletonFrame<double> frame = clean;
    for (auto& p : frame.p_W) p += Eigen::Vector3d(noise(rng), noise(rng), noise(rng));

    const Status mapped = mapper.map(frame, q);
    clamped += mapped.has(StatusCode::kClamped) ? 1 : 0;
    held += mapped.has(StatusCode::kDegenerateInput) ? 1 : 0;
    (void)smooth.update(q, frame.time);
    const double dt = frame.time > previous_time ? frame.time - previous_time : 1.0 / 30;
    limited += limit.update(smooth.value(), dt).has(StatusCode::kRateLimited) ? 1 : 0;
    previous_time = frame.time;
    if (!withinLimits(nao, limit.value())) return 1;  // what goes to the robot is always safe
    // send_to_robot(limit.value());
  }
  std::cout << take.size() << " frames streamed: clamped in " << clamped << ", held in " << held
            << ", rate limited in " << limited << "\n";
  return 0;
}
