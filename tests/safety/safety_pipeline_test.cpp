// The safety pipeline (safety/safety_pipeline.hpp): smoothing, the joint speed limit (1 rad/s),
// the hand/elbow speed limit (0.25 m/s) and self-collision avoidance together, as seed 001's
// real robot runs them, after the triangle mapper on Tangy. Checked on what is written: the CSV
// read back, FCL for collisions, finite differences of the rows for the speeds, against the
// pipeline's own per-frame verdict. Also: the stages one after another (the order the command
// line used to run) do collide on the shared chicken-wing recording; applyWithin's guarantees on
// random steps; avoidance's answer depends on the frame, not on the path.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// Robots (DH chains) before demo_motions.hpp (see avoidance_test.cpp).
#include <retarget/robots/tangy.hpp>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/safety/safety_pipeline.hpp>

#include "safety/safety_test_support.hpp"
#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// Every demo motion and every shared Kinect recording.
std::vector<NamedMotion> demosAndRecordings() {
  std::vector<NamedMotion> out;
  for (const std::string& name : demoMotionNames()) out.push_back({"demo " + name, demoMotion(name)});
  for (NamedMotion& m : kinectRecordings()) out.push_back(std::move(m));
  return out;
}

SafetyPipelineOptions seedSettings(const RobotModel<double>& tangy, double smoothing) {
  SafetyPipelineOptions options;
  options.smoothing = smoothing;
  options.max_joint_speed = 1.0;
  options.max_point_speed = 0.25;
  options.points = triangleArmPoints(tangy, tangyTriangleMap());
  return options;
}

// What the written rows show, computed without the pipeline: FCL on every pair, finite
// differences of the rows (joints) and of an independent FK of the points.
struct WrittenCheck {
  int collision_frames = 0, joint_frames = 0, point_frames = 0, unmet_frames = 0;
  double max_joint_speed = 0, max_point_speed = 0;
};

WrittenCheck checkWritten(const SelfCollisionModel<double>& collision, const SafetyPipelineOptions& options,
                          const JointTrajectory& written) {
  const RobotModel<double>& model = collision.model();
  RobotData<double> data(model);
  std::vector<Eigen::Vector3d> previous(options.points.size());
  WrittenCheck out;
  for (Eigen::Index k = 0; k < written.positions.rows(); ++k) {
    const Eigen::VectorXd q = written.positions.row(k).transpose();
    bool unmet = fclCollidingPairs(collision, q, 0.0) > 0;
    out.collision_frames += unmet ? 1 : 0;
    forwardKinematics(model, data, q);
    double point_step = 0;
    for (std::size_t i = 0; i < options.points.size(); ++i) {
      const Eigen::Vector3d p = data.X_WL[static_cast<std::size_t>(model.linkIndex(options.points[i].link))] * options.points[i].p_L;
      if (k > 0) point_step = std::max(point_step, (p - previous[i]).norm());
      previous[i] = p;
    }
    if (k > 0) {
      const double dt = written.times[static_cast<std::size_t>(k)] - written.times[static_cast<std::size_t>(k - 1)];
      REQUIRE(dt > 0);
      const double joint_step = (written.positions.row(k) - written.positions.row(k - 1)).cwiseAbs().maxCoeff();
      out.max_joint_speed = std::max(out.max_joint_speed, joint_step / dt);
      out.max_point_speed = std::max(out.max_point_speed, point_step / dt);
      const bool joint_over = joint_step > options.max_joint_speed * dt * (1 + 1e-9);
      const bool point_over = point_step > options.max_point_speed * dt * (1 + 1e-9);
      out.joint_frames += joint_over ? 1 : 0;
      out.point_frames += point_over ? 1 : 0;
      unmet = unmet || joint_over || point_over;
    }
    out.unmet_frames += unmet ? 1 : 0;
  }
  return out;
}

}  // namespace

TEST_CASE("safety pipeline: what is written is collision-free and within both speed limits (FCL, finite differences)") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  const std::vector<NamedMotion> motions = demosAndRecordings();
  for (double smoothing : {0.0, 0.5}) {
    const SafetyPipelineOptions options = seedSettings(tangy, smoothing);
    SafetyPipeline pipeline(collision, options);
    for (const NamedMotion& m : motions) {
      CAPTURE(m.name);
      CAPTURE(smoothing);
      TriangleMapper<double> mapper(tangy, tangyTriangleMap());
      const MappedMotion<double> mapped = mapMotion(mapper, m.motion);
      pipeline.reset();
      JointTrajectory trajectory = makeJointTrajectory(tangy);
      trajectory.times = mapped.time;
      trajectory.positions = mapped.q;
      Eigen::VectorXd q(tangy.nq());
      int unsatisfied = 0, avoided = 0, mapped_colliding = 0, budget = 0;
      for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
        const double dt = k == 0 ? 0.0 : mapped.time[static_cast<std::size_t>(k)] - mapped.time[static_cast<std::size_t>(k - 1)];
        const Status status = pipeline.update(mapped.q.row(k).transpose(), dt, q);
        REQUIRE(q.allFinite());
        REQUIRE(withinLimits(tangy, q));
        unsatisfied += pipeline.satisfied() ? 0 : 1;
        if (!pipeline.satisfied()) CHECK(status.has(StatusCode::kNotConverged));
        budget += pipeline.satisfied() && status.has(StatusCode::kNotConverged) ? 1 : 0;
        avoided += status.has(StatusCode::kCollisionAvoided) ? 1 : 0;
        mapped_colliding += fclCollidingPairs(collision, mapped.q.row(k).transpose(), 0.0) > 0 ? 1 : 0;
        trajectory.positions.row(k) = q.transpose();
      }
      std::stringstream csv;
      writeJointTrajectoryCsv(trajectory, csv);
      const WrittenCheck written = checkWritten(collision, options, readJointTrajectoryCsv(csv, m.name));
      MESSAGE(m.name << ", smoothing " << smoothing << ": mapped angles collide in " << mapped_colliding << " of "
                     << mapped.q.rows() << " frames; avoidance ran in " << avoided << " (" << budget
                     << " held or stopped on the evaluation budget); written: " << written.collision_frames
                     << " in collision, max joint speed " << written.max_joint_speed << " rad/s, max hand speed "
                     << written.max_point_speed << " m/s, " << written.unmet_frames << " miss a limit");
      // The pipeline's verdict is what the written file shows, frame for frame in count, and on
      // these motions every frame meets every limit.
      CHECK(written.unmet_frames == unsatisfied);
      CHECK(written.collision_frames == 0);
      CHECK(written.joint_frames == 0);
      CHECK(written.point_frames == 0);
      CHECK(budget <= std::max(1, avoided / 10));  // a solve rarely fails or runs out of evaluations
    }
  }
}

TEST_CASE("safety pipeline: avoidance then the speed limits collide on chicken wing; the pipeline does not") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  const SkeletonMotion<double> motion = readKinect((data / "kinect" / "laban_ges06_chickenwing_kinect2.csv").string());
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  const SafetyPipelineOptions options = seedSettings(tangy, 0.0);
  // The stages one after another: Eq. 10's avoidance, then the Cartesian limiter (which keeps
  // the joint limit), the order `retarget map` used before the pipeline.
  CollisionAvoidance avoidance(collision);
  CartesianSpeedLimiterOptions limiter_options;
  limiter_options.max_speed = options.max_point_speed;
  limiter_options.max_joint_speed = options.max_joint_speed;
  limiter_options.points = options.points;
  CartesianSpeedLimiter<double> limiter(tangy, limiter_options);
  SafetyPipeline pipeline(collision, options);
  Eigen::VectorXd avoided(tangy.nq()), q(tangy.nq());
  int staged_colliding = 0, pipeline_colliding = 0;
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    const double dt = k == 0 ? 1.0 : mapped.time[static_cast<std::size_t>(k)] - mapped.time[static_cast<std::size_t>(k - 1)];
    (void)avoidance.apply(mapped.q.row(k).transpose(), avoided);
    (void)limiter.update(avoided, dt);
    staged_colliding += fclCollidingPairs(collision, limiter.value(), 0.0) > 0 ? 1 : 0;
    (void)pipeline.update(mapped.q.row(k).transpose(), dt, q);
    pipeline_colliding += fclCollidingPairs(collision, q, 0.0) > 0 ? 1 : 0;
  }
  MESSAGE("chicken wing: frames in collision after avoidance then limits " << staged_colliding << ", after the pipeline "
                                                                             << pipeline_colliding);
  CHECK(staged_colliding > 0);
  CHECK(pipeline_colliding == 0);
}

TEST_CASE("safety pipeline: applyWithin keeps the step box, the point steps and the clearance on random steps") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  AvoidanceOptions options;
  options.speed_points = triangleArmPoints(tangy, tangyTriangleMap());
  CollisionAvoidance avoidance(collision, options);
  SelfCollisionChecker<double> checker(collision);
  RobotData<double> data(tangy), data_prev(tangy);
  std::mt19937 rng(7);
  const double joint_step = 0.1, point_step = 0.02;
  int solved = 0, fallbacks = 0, passed_through = 0;
  Eigen::VectorXd q(tangy.nq());
  for (int trial = 0; trial < 600; ++trial) {
    // A collision-free previous output and a target anywhere.
    Eigen::VectorXd q_prev = randomConfiguration(tangy, rng);
    checker.update(q_prev);
    if (checker.minDistance() < collision.margin()) continue;
    Eigen::VectorXd q_target = q_prev;
    if (trial % 4 != 0) q_target = randomConfiguration(tangy, rng);
    const Status status = avoidance.applyWithin(q_target, q_prev, joint_step, point_step, q);
    REQUIRE(q.allFinite());
    CHECK((q - q_prev).cwiseAbs().maxCoeff() <= joint_step + 1e-12);
    CHECK(withinLimits(tangy, q));
    forwardKinematics(tangy, data, q);
    forwardKinematics(tangy, data_prev, q_prev);
    for (const LinkPoint& p : options.speed_points) {
      const auto link = static_cast<std::size_t>(tangy.linkIndex(p.link));
      CHECK((data.X_WL[link] * p.p_L - data_prev.X_WL[link] * p.p_L).norm() <= point_step * (1 + 1e-9));
    }
    checker.update(q);
    CHECK(checker.minDistance() >= collision.margin() - options.feasibility_tolerance);
    if (status.has(StatusCode::kNotConverged)) {
      ++fallbacks;
      CHECK((q.array() == q_prev.array()).all());
    } else if (status.has(StatusCode::kCollisionAvoided)) {
      ++solved;
    } else {
      ++passed_through;
      CHECK((q.array() == q_target.array()).all());
    }
  }
  MESSAGE("applyWithin on random steps: solved " << solved << ", fell back to q_prev " << fallbacks << ", passed through "
                                                 << passed_through);
  CHECK(solved > 40);
  CHECK(passed_through > 10);
  CHECK(fallbacks <= solved / 10);
}

TEST_CASE("avoidance: the answer depends on the frame, not on the path (start from q_mimic)") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  const MappedMotion<double> mapped = mapMotion(mapper, demoMotion("fold-arms"));
  CollisionAvoidance along(collision), fresh(collision);
  Eigen::VectorXd q_along(tangy.nq()), q_fresh(tangy.nq());
  int compared = 0, second_start = 0, different = 0;
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    (void)along.apply(mapped.q.row(k).transpose(), q_along);
    fresh.reset();
    (void)fresh.apply(mapped.q.row(k).transpose(), q_fresh);
    if (!along.stats().solved) continue;
    if (along.stats().start != 0 || fresh.stats().start != 0) {
      ++second_start;
      continue;
    }
    ++compared;
    different += (q_along - q_fresh).cwiseAbs().maxCoeff() > 1e-12 ? 1 : 0;
  }
  MESSAGE("fold-arms: " << compared << " solved frames compared, " << second_start << " needed the second start");
  CHECK(compared > 20);
  CHECK(different == 0);
  CHECK(second_start <= compared / 10);
}

TEST_CASE("safety pipeline: options are validated; collision-free frames allocate nothing") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  const auto bad = [&](auto edit, const char* what) {
    SafetyPipelineOptions options = seedSettings(tangy, 0.0);
    edit(options);
    CHECK_THROWS_WITH_AS(SafetyPipeline(collision, options), doctest::Contains(what), InvalidArgument);
  };
  bad([](auto& o) { o.smoothing = 1.5; }, "smoothing (got 1.5");
  bad([](auto& o) { o.max_joint_speed = -1; }, "max_joint_speed (got -1");
  bad([](auto& o) { o.max_point_speed = std::nan(""); }, "max_point_speed (got nan");
  bad([](auto& o) { o.points.clear(); }, "points (got none");
  bad([](auto& o) { o.points[0].link = "tail"; }, "tail");
  SafetyPipeline pipeline(collision, seedSettings(tangy, 0.5));
  CollisionAvoidance avoidance(collision);
  const Eigen::VectorXd free_q = avoidance.safeConfiguration();
  Eigen::VectorXd q(tangy.nq());
  (void)pipeline.update(free_q, 0.0, q);
  {
    NoAllocationScope scope;
    for (int i = 0; i < 5; ++i) CHECK(pipeline.update(free_q, 1.0 / 30, q).ok());
    CHECK(scope.allocations() == 0);
  }
  CHECK(pipeline.update(Eigen::VectorXd::Constant(tangy.nq(), std::nan("")), 1.0 / 30, q).has(StatusCode::kInvalidInput));
  CHECK(q.allFinite());
  CHECK(pipeline.update(free_q, -1.0, q).has(StatusCode::kInvalidInput));
}
