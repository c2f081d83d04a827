// Self-collision avoidance (seed 001, Section 2.2.2) after the triangle mapper on Tangy and after
// GA-LVVJ on NAO, on the fold-arms demo motion and on every shared Kinect recording: no frame
// closer than its radii afterwards (independent FCL pass) and none closer than the margin, the
// mean and the worst-frame W above per-motion floors near their measured values (the paper
// reports W "close to 1", Figure 12d), collision-free input frames bit-identical; the
// solver failure path; the allocation exception measured; the safety filters (joint-velocity and
// Cartesian speed limits) on step inputs and recordings.
#include <doctest/doctest.h>

#include <filesystem>
#include <iomanip>
#include <string>
#include <vector>

// Robots (DH chains) before demo_motions.hpp: its internal::rotZ(double) would otherwise be
// visible where denavit_hartenberg.hpp's template is defined and hijack the call.
#include <retarget/robots/nao.hpp>
#include <retarget/robots/tangy.hpp>

#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/metrics/joint_similarity.hpp>
#include <retarget/safety/collision_avoidance.hpp>

#include "safety/safety_test_support.hpp"
#include "support/allocation.hpp"
#include "support/floors.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

std::vector<NamedMotion> motions() {
  std::vector<NamedMotion> out;
  out.push_back({"fold-arms", demoMotion("fold-arms")});
  for (NamedMotion& m : kinectRecordings()) out.push_back(std::move(m));
  return out;
}

// Floors of W (seed 001, Eq. 11: joint-space similarity of the avoided motion to the mimicked
// one, 1 where avoidance changed nothing), its mean and its worst frame, per robot, motion and
// solver, as measured (GCC 12, test preset). A run must reach relativeFloor(measured)
// (support/floors.hpp: 1 - W may grow by at most 25 %). The paper gives no threshold (its
// Figure 12d shows W "close to 1" for every motion); the worst frame here is Tangy's chicken wing at
// 0.93 (0.52 when the solver started from the previous output: the answer depended on the path,
// issue 31). A motion without an entry fails until its floor is added here. NAO's entries were
// measured with the collision model of robots/nao.hpp whose torso and upper arms are fitted to
// the URDF's frames (issue 31); ges03 never comes closer than NAO's 3 mm margin there (W = 1).
struct WFloor {
  const char* robot;
  const char* motion;
  const char* solver;
  double w_mean;  // measured
  double w_min;   // measured
};
const WFloor kWFloors[] = {
    {"tangy", "fold-arms", "slsqp", 0.993029839, 0.991582857},
    {"tangy", "keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "slsqp", 0.998922888, 0.992286475},
    {"tangy", "keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "slsqp", 0.999998376, 0.99984961},
    {"tangy", "laban_ges01_wavehand_kinect2.csv", "slsqp", 0.999983168, 0.999503851},
    {"tangy", "laban_ges03_drawlines_kinect2.csv", "slsqp", 0.99936894, 0.993810523},
    {"tangy", "laban_ges04_comehere_kinect2.csv", "slsqp", 0.999934595, 0.999557768},
    {"tangy", "laban_ges06_chickenwing_kinect2.csv", "slsqp", 0.994790425, 0.934686816},
    {"tangy", "laban_kinectreader_joints_closerange_kinect2.csv", "slsqp", 0.999883861, 0.998856485},
    {"tangy", "fold-arms", "cobyla", 0.99305917, 0.991582857},
    {"NaoH25V50", "fold-arms", "slsqp", 0.993083188, 0.991193719},
    {"NaoH25V50", "keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "slsqp", 0.995284987, 0.949543242},
    {"NaoH25V50", "keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "slsqp", 0.999897563, 0.998342492},
    {"NaoH25V50", "laban_ges01_wavehand_kinect2.csv", "slsqp", 0.999915414, 0.997479522},
    {"NaoH25V50", "laban_ges03_drawlines_kinect2.csv", "slsqp", 1, 1},
    {"NaoH25V50", "laban_ges04_comehere_kinect2.csv", "slsqp", 0.99972801, 0.997790439},
    {"NaoH25V50", "laban_ges06_chickenwing_kinect2.csv", "slsqp", 0.999883405, 0.997633646},
    // Re-measured in issue 53: GA-LVVJ's legs on this recording's phantom knee lifts now lift
    // (mappers/ga_lvvj.hpp, chooseLegBranch), which the avoidance has more to move away from.
    {"NaoH25V50", "laban_kinectreader_joints_closerange_kinect2.csv", "slsqp", 0.998390519, 0.988427108},
};

const WFloor* findWFloor(const std::string& robot, const std::string& motion, const std::string& solver) {
  for (const WFloor& f : kWFloors) {
    if (robot == f.robot && motion == f.motion && solver == f.solver) return &f;
  }
  return nullptr;
}

template <typename Mapper>
void checkAvoidance(const RobotModel<double>& model, Mapper& mapper, const SelfCollisionModel<double>& collision,
                    const std::vector<NamedMotion>& inputs, AvoidanceOptions::Solver solver, std::size_t stride = 1) {
  AvoidanceOptions options;
  options.solver = solver;
  CollisionAvoidance avoidance(collision, options);
  for (const auto& m : inputs) {
    CAPTURE(m.name);
    const MappedMotion<double> mapped = mapMotion(mapper, m.motion);
    std::vector<Eigen::Index> rows;
    for (Eigen::Index k = 0; k < mapped.q.rows(); k += static_cast<Eigen::Index>(stride)) rows.push_back(k);
    Eigen::MatrixXd before(static_cast<Eigen::Index>(rows.size()), model.nq()), after = before;
    avoidance.reset();
    Eigen::VectorXd q(model.nq());
    int solved = 0, not_converged = 0, unchanged_violations = 0, fcl_after = 0, fcl_before = 0;
    double evaluations = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const Eigen::VectorXd q_mimic = mapped.q.row(rows[r]).transpose();
      const Status status = avoidance.apply(q_mimic, q);
      before.row(static_cast<Eigen::Index>(r)) = q_mimic.transpose();
      after.row(static_cast<Eigen::Index>(r)) = q.transpose();
      REQUIRE(q.allFinite());
      REQUIRE(withinLimits(model, q));
      if (avoidance.stats().solved) {
        ++solved;
        evaluations += avoidance.stats().evaluations;
      } else if (!(q.array() == q_mimic.array()).all()) {
        ++unchanged_violations;  // collision-free frames pass bit-identical
      }
      not_converged += status.has(StatusCode::kNotConverged) ? 1 : 0;
      fcl_before += fclCollidingPairs(collision, q_mimic, 0.0) > 0 ? 1 : 0;
      fcl_after += fclCollidingPairs(collision, q, 0.0) > 0 ? 1 : 0;
    }
    const TrajectoryClearance clear_before = trajectoryClearance(collision, before);
    const TrajectoryClearance clear_after = trajectoryClearance(collision, after);
    const JointSimilaritySummary w = jointSimilarity(model, before, after);
    MESSAGE(model.name() << " / " << m.name << " (" << std::string(toString(solver)) << "): " << rows.size() << " frames, in collision "
                         << clear_before.collision_frames << " -> " << clear_after.collision_frames << " (FCL "
                         << fcl_before << " -> " << fcl_after << "), below margin " << clear_before.margin_frames
                         << " -> " << clear_after.margin_frames << ", solved " << solved << " (mean "
                         << (solved ? evaluations / solved : 0.0) << " evaluations, not converged " << not_converged
                         << "), W mean " << std::setprecision(9) << w.mean << " min " << w.min
                         << std::setprecision(6) << ", min clearance " << clear_before.min
                         << " -> " << clear_after.min << " m");
    CHECK(fcl_after == 0);
    CHECK(clear_after.collision_frames == 0);
    CHECK(clear_before.collision_frames == fcl_before);  // our check and FCL agree frame by frame
    CHECK(unchanged_violations == 0);
    // Every pair at least the margin apart afterwards (within the solver's feasibility
    // tolerance), not only out of contact.
    CHECK(clear_after.min >= collision.margin() - avoidance.options().feasibility_tolerance);
    const WFloor* floor = findWFloor(model.name(), m.name, toString(solver));
    CHECK_MESSAGE(floor != nullptr, "no W floor in kWFloors");
    if (floor != nullptr) {
      RETARGET_CHECK_FLOOR(w.mean, floor->w_mean);
      RETARGET_CHECK_FLOOR(w.min, floor->w_min);
    }
  }
}

}  // namespace

TEST_CASE("avoidance: triangle on Tangy, fold-arms and every Kinect recording, SLSQP with gradients") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  const auto inputs = motions();
  checkAvoidance(tangy, mapper, collision, inputs, AvoidanceOptions::Solver::kSlsqp);
}

TEST_CASE("avoidance: triangle on Tangy with COBYLA (the paper's solver), fold-arms") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  std::vector<NamedMotion> inputs;
  inputs.push_back({"fold-arms", demoMotion("fold-arms")});
  checkAvoidance(tangy, mapper, collision, inputs, AvoidanceOptions::Solver::kCobyla, 3);
}

TEST_CASE("avoidance: SLSQP with gradients ends no higher than COBYLA on every colliding fold-arms frame") {
  // Both solvers from a cold start (q_mimic) on the same problems, as the bench compares them.
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  const MappedMotion<double> mapped = mapMotion(mapper, demoMotion("fold-arms"));
  AvoidanceOptions cobyla_options;
  cobyla_options.solver = AvoidanceOptions::Solver::kCobyla;
  CollisionAvoidance slsqp(collision), cobyla(collision, cobyla_options);
  SelfCollisionChecker<double> checker(collision);
  Eigen::VectorXd q_s(tangy.nq()), q_c(tangy.nq());
  int frames = 0, higher = 0;
  double sum_s = 0, sum_c = 0, worst = 0;
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    const Eigen::VectorXd q_mimic = mapped.q.row(k).transpose();
    checker.update(q_mimic);
    if (!(checker.minDistance() < collision.margin())) continue;
    ++frames;
    slsqp.reset();
    cobyla.reset();
    (void)slsqp.apply(q_mimic, q_s);
    (void)cobyla.apply(q_mimic, q_c);
    for (const Eigen::VectorXd* q : {&q_s, &q_c}) {
      checker.update(*q);
      CHECK(checker.minDistance() >= collision.margin() - slsqp.options().feasibility_tolerance);
    }
    const double e_s = slsqp.stats().objective, e_c = cobyla.stats().objective;
    sum_s += e_s;
    sum_c += e_c;
    worst = std::max(worst, e_s - e_c);
    if (e_s > e_c + 1e-9) {
      ++higher;
      MESSAGE("frame " << k << ": SLSQP objective " << e_s << " rad^2 above COBYLA's " << e_c);
    }
  }
  MESSAGE(frames << " colliding frames: mean objective SLSQP " << sum_s / frames << " vs COBYLA " << sum_c / frames
                 << " rad^2; largest excess of SLSQP " << worst << " rad^2");
  CHECK(frames > 100);
  CHECK(higher == 0);
  CHECK(sum_s <= sum_c + 1e-9);
}

TEST_CASE("avoidance: options are validated") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  AvoidanceOptions options;
  options.constraint_tolerance = 1e-3;  // looser than the feasibility check
  CHECK_THROWS_WITH_AS(CollisionAvoidance(collision, options), doctest::Contains("constraint_tolerance"), InvalidArgument);
  options.constraint_tolerance = -1;
  CHECK_THROWS_AS(CollisionAvoidance(collision, options), InvalidArgument);
  options = AvoidanceOptions{};
  options.max_evaluations = 0;
  CHECK_THROWS_WITH_AS(CollisionAvoidance(collision, options), doctest::Contains("max_evaluations"), InvalidArgument);
}

TEST_CASE("avoidance: GA-LVVJ on NAO composes the same way") {
  const auto nao = makeNao<double>();
  SelfCollisionOptions options;
  options.margin = 0.003;  // NAO is half Tangy's size
  options.excluded_pairs = alwaysCollidingPairs(nao, options, 1000);
  const SelfCollisionModel<double> collision(nao, options);
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  const auto inputs = motions();
  checkAvoidance(nao, mapper, collision, inputs, AvoidanceOptions::Solver::kSlsqp);
}

TEST_CASE("avoidance: a failing solver gives the last collision-free output and says so") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  AvoidanceOptions options;
  options.max_evaluations = 1;
  CollisionAvoidance avoidance(collision, options);
  SelfCollisionChecker<double> checker(collision);
  // Both forearms through each other (q = 0 has them overlapping).
  const Eigen::VectorXd colliding = Eigen::VectorXd::Zero(8);
  checker.update(colliding);
  REQUIRE(checker.minDistance() < 0);
  Eigen::VectorXd q(8);
  const Status status = avoidance.apply(colliding, q);
  CHECK(status.has(StatusCode::kCollisionAvoided));
  CHECK(status.has(StatusCode::kNotConverged));
  checker.update(q);
  CHECK(checker.minDistance() >= collision.margin() - 1e-9);
  CHECK(q == avoidance.safeConfiguration());
  // Wrong sizes and non-finite input: kInvalidInput, output the last safe configuration.
  Eigen::VectorXd nan = Eigen::VectorXd::Constant(8, std::numeric_limits<double>::quiet_NaN());
  CHECK(avoidance.apply(nan, q).has(StatusCode::kInvalidInput));
  CHECK(q.allFinite());
}

TEST_CASE("avoidance: allocation - none for collision-free frames, NLopt's own per solve (measured)") {
  const auto tangy = makeTangy<double>();
  const SelfCollisionModel<double> collision(tangy, tangySelfCollisionOptions());
  for (auto solver : {AvoidanceOptions::Solver::kSlsqp, AvoidanceOptions::Solver::kCobyla}) {
    AvoidanceOptions options;
    options.solver = solver;
    CollisionAvoidance avoidance(collision, options);
    Eigen::VectorXd q(8);
    Eigen::VectorXd free_q = avoidance.safeConfiguration();
    {
      NoAllocationScope scope;
      for (int i = 0; i < 5; ++i) (void)avoidance.apply(free_q, q);
      CHECK(scope.allocations() == 0);
    }
    Eigen::VectorXd colliding = Eigen::VectorXd::Zero(8);
    std::size_t c_heap = 0, operator_new = 0, eigen = 0, total = 0;
    {
      NoAllocationScope scope;
      (void)avoidance.apply(colliding, q);
      c_heap = scope.cAllocations();
      operator_new = scope.operatorNews();
      eigen = scope.eigenAllocations();
      total = scope.allocations();
    }
    MESSAGE(std::string(toString(solver)) << ": one colliding-frame solve: " << c_heap
                                          << " C heap blocks (NLopt's work arrays), " << operator_new
                                          << " operator new, " << eigen << " through Eigen's heap check");
    // The solve's only allocations are NLopt's own C heap blocks: nothing through operator new,
    // nothing through Eigen (whose allocations would also be C heap blocks, so Eigen's own check
    // tells them apart).
    CHECK(operator_new == 0);
    CHECK(eigen == 0);
    if (cAllocationCounting()) {
      CHECK(c_heap > 0);  // the counter sees NLopt
      CHECK(c_heap < 50);
      CHECK(total == c_heap);
    } else {
      MESSAGE("C heap blocks not counted on this platform (support/allocation.hpp: glibc and AddressSanitizer only)");
    }
  }
}

TEST_CASE("filters: joint-velocity limit (1 rad/s) and hand/elbow speed limit (250 mm/s) on steps and recordings") {
  const auto tangy = makeTangy<double>();
  CartesianSpeedLimiterOptions speed;
  speed.max_speed = 0.25;
  speed.points = triangleArmPoints(tangy, tangyTriangleMap());
  REQUIRE(speed.points.size() == 4);
  RobotData<double> data(tangy);
  const auto pointsAt = [&](const Eigen::VectorXd& q) {
    forwardKinematics(tangy, data, q);
    std::vector<Eigen::Vector3d> p;
    for (const auto& lp : speed.points) p.push_back(data.X_WL[static_cast<std::size_t>(tangy.linkIndex(lp.link))] * lp.p_L);
    return p;
  };
  // The limited points are the robot's own elbows and wrists.
  {
    TriangleSkeleton<double> view(tangy, tangyTriangleMap());
    SkeletonFrame<double> f;
    const Eigen::VectorXd q = Eigen::VectorXd::Constant(8, 0.4);
    REQUIRE(view.compute(q, f).ok());
    const auto p = pointsAt(q);
    CHECK((p[0] - f.position(HumanJoint::kElbowLeft)).norm() < 1e-12);
    CHECK((p[1] - f.position(HumanJoint::kWristLeft)).norm() < 1e-12);
  }
  const auto run = [&](const Eigen::MatrixXd& Q, double dt, const char* what) {
    RateLimiterOptions rate;
    rate.max_rate = 1.0;
    RateLimiter<double> velocity(8, rate);
    CartesianSpeedLimiterOptions both = speed;
    both.max_joint_speed = 1.0;
    CartesianSpeedLimiter<double> cartesian(tangy, both);
    Eigen::VectorXd previous;
    double worst_rate = 0, worst_speed = 0;
    int limited = 0;
    for (Eigen::Index k = 0; k < Q.rows(); ++k) {
      (void)velocity.update(Q.row(k).transpose(), dt);
      limited += cartesian.update(velocity.value(), dt).has(StatusCode::kRateLimited) ? 1 : 0;
      const Eigen::VectorXd q = cartesian.value();
      if (k > 0) {
        worst_rate = std::max(worst_rate, (q - previous).cwiseAbs().maxCoeff() / dt);
        const auto a = pointsAt(previous), b = pointsAt(q);
        for (std::size_t i = 0; i < a.size(); ++i) worst_speed = std::max(worst_speed, (b[i] - a[i]).norm() / dt);
      }
      previous = q;
    }
    MESSAGE(what << ": worst joint rate " << worst_rate << " rad/s, worst hand/elbow speed " << worst_speed
                 << " m/s, speed-limited in " << limited << " of " << Q.rows() << " frames");
    CHECK(worst_rate <= 1.0 + 1e-9);
    CHECK(worst_speed <= 0.25 + 1e-9);
    CHECK(limited > 0);
  };
  // A step input: rest -> arms raised.
  Eigen::MatrixXd step(60, 8);
  for (int k = 0; k < 60; ++k) {
    step.row(k) = (k < 5 ? Eigen::VectorXd::Zero(8) : Eigen::VectorXd::Constant(8, 1.2)).transpose();
  }
  run(step, 1.0 / 30, "step");
  // Real recordings mapped with the triangle mapper.
  TriangleMapper<double> mapper(tangy, tangyTriangleMap());
  for (const auto& m : motions()) {
    const MappedMotion<double> mapped = mapMotion(mapper, m.motion);
    const double dt = mapped.time.size() > 1 ? (mapped.time.back() - mapped.time.front()) / (mapped.time.size() - 1) : 1.0 / 30;
    run(mapped.q, dt > 0 ? dt : 1.0 / 30, m.name.c_str());
  }
}

TEST_CASE("filters: the Cartesian speed limiter allocates nothing per frame and validates options") {
  const auto tangy = makeTangy<double>();
  CartesianSpeedLimiterOptions speed;
  speed.points = triangleArmPoints(tangy, tangyTriangleMap());
  CartesianSpeedLimiter<double> limiter(tangy, speed);
  Eigen::VectorXd a = Eigen::VectorXd::Zero(8), b = Eigen::VectorXd::Constant(8, 1.0);
  {
    NoAllocationScope scope;
    for (int i = 0; i < 10; ++i) (void)limiter.update(i % 2 ? a : b, 0.033);
    CHECK(scope.allocations() == 0);
  }
  speed.max_speed = 0;
  CHECK_THROWS_WITH_AS(CartesianSpeedLimiter<double>(tangy, speed), doctest::Contains("max_speed"), InvalidArgument);
}
