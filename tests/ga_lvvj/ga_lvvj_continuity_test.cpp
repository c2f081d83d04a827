// GA-LVVJ as a user sees it: continuity across the elbow-yaw wrap and the shoulder
// singularity (0.1 mm steps), statuses that say what happened (clamp tolerance and amounts,
// singular vs held, inferred joints), and demo motions NAO can follow.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <retarget/human/demo_motions.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

using namespace retarget;

namespace {

constexpr double kStep = 1e-4;   // m: the wrist (or elbow) moves 0.1 mm per frame
constexpr double kBound = 0.05;  // rad: the largest joint step allowed without a report

// The NAO's own rest skeleton, head angles removed (a Kinect gives none).
SkeletonFramed restSkeleton(const RobotModel<double>& nao) {
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  SkeletonFramed frame;
  REQUIRE(view.compute(nao.neutralConfiguration(), frame).ok());
  frame.head.reset();
  return frame;
}

struct SweepResult {
  double largest_unreported_step = 0;  // rad, over frames without kDiscontinuity
  int discontinuities = 0;
  bool within_limits = true;
};

// Maps `frames` in order and measures the largest arm-joint step between neighbours.
SweepResult sweep(const RobotModel<double>& nao, const std::vector<SkeletonFramed>& frames) {
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  std::vector<int> arm;
  for (const char* name : {"RShoulderPitch", "RShoulderRoll", "RElbowYaw", "RElbowRoll"}) arm.push_back(nao.qIndex(name));
  SweepResult out;
  Eigen::VectorXd q(nao.nq()), previous(nao.nq());
  for (std::size_t k = 0; k < frames.size(); ++k) {
    const Status status = mapper.map(frames[k], q);
    out.within_limits = out.within_limits && withinLimits(nao, q);
    if (k > 0) {
      if (status.has(StatusCode::kDiscontinuity)) {
        ++out.discontinuities;
      } else {
        for (int i : arm) out.largest_unreported_step = std::max(out.largest_unreported_step, std::abs(q[i] - previous[i]));
      }
    }
    previous = q;
  }
  return out;
}

}  // namespace

TEST_CASE("ga-lvvj continuity: the forearm turning about the upper arm crosses the elbow-yaw wrap smoothly") {
  const auto nao = makeNao<double>();
  const SkeletonFramed rest = restSkeleton(nao);
  const Eigen::Vector3d shoulder = rest.position(HumanJoint::kShoulderRight);
  for (const double roll_deg : {-20.0, -45.0, -70.0}) {
    CAPTURE(roll_deg);
    // Upper arm forward and out, forearm bent 80 deg and turned a full circle about it, so that
    // the ElbowYaw the human shows passes through +-180 deg (NAO's range is +-119.5 deg). The
    // circle starts where NAO can follow exactly and moves out of its reach and back.
    const double roll = roll_deg * kPi<double> / 180;
    const Eigen::Vector3d u(std::cos(roll), std::sin(roll), 0.0);
    const Eigen::Vector3d a = u.cross(Eigen::Vector3d::UnitZ()).normalized(), b = u.cross(a);
    const double forearm = 0.1;
    std::vector<SkeletonFramed> frames;
    const int n = static_cast<int>(2 * kPi<double> * forearm / kStep);
    const double bend = 80 * kPi<double> / 180;
    for (int k = 0; k <= n; ++k) {
      const double phi = 3.0 + 2 * kPi<double> * k / n;
      SkeletonFramed f = rest;
      f.position(HumanJoint::kElbowRight) = shoulder + 0.1 * u;
      f.position(HumanJoint::kWristRight) =
          f.position(HumanJoint::kElbowRight) +
          forearm * (std::cos(bend) * u + std::sin(bend) * (std::cos(phi) * a + std::sin(phi) * b));
      frames.push_back(f);
    }
    const SweepResult r = sweep(nao, frames);
    CHECK(r.within_limits);
    // 0.1 mm of wrist motion is 1e-3 rad of forearm rotation: no joint may move more than
    // kBound between neighbouring frames unless the step is reported. Where no exact solution
    // exists the best reachable arm can move with a gain of up to ~25 (ill-conditioned near a
    // straight elbow), well inside the bound; a jump between solution branches is far above it.
    CHECK(r.largest_unreported_step < kBound);
    // The yaw range leaves a gap of 121 deg: crossing it costs at most one jump per direction.
    CHECK(r.discontinuities <= 2);
    MESSAGE("roll ", roll_deg, " deg: ", frames.size(), " frames, largest unreported step ", r.largest_unreported_step,
            " rad, reported discontinuities ", r.discontinuities);
  }
}

TEST_CASE("ga-lvvj continuity: the upper arm sweeping through the shoulder singularity (straight out sideways)") {
  const auto nao = makeNao<double>();
  const SkeletonFramed rest = restSkeleton(nao);
  const Eigen::Vector3d shoulder = rest.position(HumanJoint::kShoulderRight);
  // The elbow passes through the exactly singular direction, and 1 and 2 cm above and below it.
  for (const double lift : {0.0, 0.1, 0.2, -0.1, -0.2}) {
    CAPTURE(lift);
    // The elbow moves on a horizontal half circle from forward to backward through the
    // singular direction -y, the forearm pointing up.
    std::vector<SkeletonFramed> frames;
    const double upper = 0.1;
    const int n = static_cast<int>(0.8 * kPi<double> * upper / kStep);
    for (int k = 0; k <= n; ++k) {
      const double theta = 0.1 * kPi<double> + 0.8 * kPi<double> * k / n;
      SkeletonFramed f = rest;
      const Eigen::Vector3d u = Eigen::Vector3d(std::cos(theta), -std::sin(theta), 0.1 * lift).normalized();
      f.position(HumanJoint::kElbowRight) = shoulder + upper * u;
      f.position(HumanJoint::kWristRight) = f.position(HumanJoint::kElbowRight) + Eigen::Vector3d(0, 0, 0.1);
      frames.push_back(f);
    }
    const SweepResult r = sweep(nao, frames);
    CHECK(r.within_limits);
    CHECK(r.largest_unreported_step < kBound);
    CHECK(r.discontinuities <= 2);
    MESSAGE("lift ", lift, ": ", frames.size(), " frames, largest unreported step ", r.largest_unreported_step,
            " rad, reported discontinuities ", r.discontinuities);
  }
}

TEST_CASE("ga-lvvj statuses: a clamp within the tolerance is not reported; amounts come from wanted()") {
  const auto nao = makeNao<double>();
  const SkeletonFramed rest = restSkeleton(nao);
  const int knee = nao.qIndex("LKneePitch");
  const double limit = nao.lowerLimits()[knee];  // -5.29 deg: NAO's hyperextension
  auto hyperextended = [&](double knee_angle) {
    // Tibia rotated about the knee axis (y of the thigh frame, the lower torso's y at rest).
    SkeletonFramed f = rest;
    const Eigen::Vector3d k = f.position(HumanJoint::kKneeLeft);
    const double length = (f.position(HumanJoint::kAnkleLeft) - k).norm();
    // KneePitch = atan2(-b_x, -b_z) of the tibia b in the thigh frame (see ga_lvvj.hpp).
    f.position(HumanJoint::kAnkleLeft) = k + length * Eigen::Vector3d(-std::sin(knee_angle), 0, -std::cos(knee_angle));
    return f;
  };
  GaLvvjOptions options;
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap(), options);
  Eigen::VectorXd q(nao.nq());
  // Within sensor noise of the limit (1 deg beyond): clamped, not reported.
  Status s = mapper.map(hyperextended(limit - 1.0 * kPi<double> / 180), q);
  CHECK(q[knee] == limit);
  CHECK_FALSE(s.has(StatusCode::kClamped));
  CHECK_FALSE(mapper.clamped()[knee]);
  CHECK(mapper.wanted()[knee] == doctest::Approx(limit - 1.0 * kPi<double> / 180).epsilon(1e-9));
  // 10 deg beyond: reported, with the amount.
  s = mapper.map(hyperextended(limit - 10.0 * kPi<double> / 180), q);
  CHECK(s.has(StatusCode::kClamped));
  CHECK(mapper.clamped()[knee]);
  CHECK(std::abs(mapper.wanted()[knee] - q[knee]) == doctest::Approx(10.0 * kPi<double> / 180).epsilon(1e-9));
  // Tolerance 0 reports every clamp.
  options.clamp_tolerance = 0.0;
  GaLvvjMapper<double> strict(nao, naoGaLvvjMap(), options);
  CHECK(strict.map(hyperextended(limit - 1.0 * kPi<double> / 180), q).has(StatusCode::kClamped));
  // The generic batch helper collects counts and worst amounts per joint.
  SkeletonMotion<double> motion;
  for (const double extra : {0.0, 1.0, 10.0, 4.0}) motion.frames.push_back(hyperextended(limit - extra * kPi<double> / 180));
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  CHECK(mapped.clamped_count[knee] == 2);
  CHECK(mapped.clamped_worst[knee] == doctest::Approx(10.0 * kPi<double> / 180).epsilon(1e-9));
  static_assert(reportsWanted<GaLvvjMapper<double>>);
  static_assert(reportsWanted<EulerMapper<double>>);
}

TEST_CASE("ga-lvvj statuses: inferred joints are held (default) or used, and the metrics follow the same policy") {
  const auto nao = makeNao<double>();
  const SkeletonFramed rest = restSkeleton(nao);
  SkeletonFramed noisy = rest;
  // An inferred knee a decimetre off, as a depth camera gives for an occluded leg.
  noisy.trackingState(HumanJoint::kKneeLeft) = TrackingState::kInferred;
  noisy.position(HumanJoint::kKneeLeft) += Eigen::Vector3d(0.0, 0.1, 0.05);
  Eigen::VectorXd q_rest(nao.nq()), q(nao.nq());
  GaLvvjMapper<double> hold(nao, naoGaLvvjMap());
  (void)hold.map(rest, q_rest);
  const Status held = hold.map(noisy, q);
  CHECK(held.has(StatusCode::kDegenerateInput));
  for (const char* joint : {"LHipRoll", "LHipPitch", "LKneePitch"}) {
    CAPTURE(joint);
    CHECK(hold.held()[nao.qIndex(joint)]);
    CHECK(q[nao.qIndex(joint)] == q_rest[nao.qIndex(joint)]);
  }
  CHECK_FALSE(hold.held()[nao.qIndex("RHipRoll")]);

  GaLvvjOptions use;
  use.inferred_joints = InferredJoints::kUse;
  GaLvvjMapper<double> paper(nao, naoGaLvvjMap(), use);
  (void)paper.map(rest, q_rest);
  CHECK_FALSE(paper.map(noisy, q).has(StatusCode::kDegenerateInput));
  CHECK(std::abs(q[nao.qIndex("LHipRoll")] - q_rest[nao.qIndex("LHipRoll")]) > 0.1);

  // The thigh and tibia links through the inferred knee: left out by default, used with kUse.
  FrameSimilarity<double> s;
  (void)frameSimilarity(noisy, rest, s);
  CHECK_FALSE(s.wbf_valid[static_cast<std::size_t>(SimilarityLink::kLeftThigh)]);
  (void)frameSimilarity(noisy, rest, s, InferredJoints::kUse);
  CHECK(s.wbf_valid[static_cast<std::size_t>(SimilarityLink::kLeftThigh)]);
  CHECK(s.wbf_links[static_cast<std::size_t>(SimilarityLink::kLeftThigh)] < 0.99);
}

TEST_CASE("ga-lvvj demo motions: NAO follows them (every link >= 0.95, no self-collision), the wave without a clamp or a hold") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> upright(nao, naoVirtualSkeletonMap());
  VirtualSkeleton<double> standing(nao, naoVirtualSkeletonMap(), WbfBase::kSupportFoot);
  SelfCollisionOptions collision_options;
  collision_options.excluded_pairs = alwaysCollidingPairs(nao, collision_options, 1000);
  const SelfCollisionModel<double> collision(nao, collision_options);
  for (const std::string& name : demoMotionNames()) {
    if (name == "fold-arms") continue;  // the deliberate self-collision case: NAO's elbows stop at 88.5 deg
    CAPTURE(name);
    const SkeletonMotion<double> human = demoMotion(name);
    // The bow leans the trunk 60 deg: NAO follows it with the trunk lean, standing on its feet.
    GaLvvjOptions options;
    options.trunk_lean = name == "bow";
    VirtualSkeleton<double>& view = options.trunk_lean ? standing : upright;
    GaLvvjMapper<double> mapper(nao, naoGaLvvjMap(), options);
    const MappedMotion<double> mapped = mapMotion(mapper, human);
    std::vector<SkeletonFramed> robot(human.size());
    for (std::size_t k = 0; k < human.size(); ++k) {
      REQUIRE(view.compute(mapped.q.row(static_cast<Eigen::Index>(k)).transpose(), robot[k]).ok());
    }
    const MotionSimilarity<double> similarity = motionSimilarity(human.frames, robot);
    for (int i = 0; i < kSimilarityLinkCount; ++i) {
      const auto link = static_cast<std::size_t>(i);
      CAPTURE(kSimilarityLinkNames[link]);
      double wbf = 1, llf = 1;
      for (const auto& f : similarity.frames) {
        if (f.wbf_valid[link]) wbf = std::min(wbf, f.wbf_links[link]);
        if (f.llf_valid[link]) llf = std::min(llf, f.llf_links[link]);
      }
      // The squat's 11 deg trunk lean (NAO's torso cannot lean) costs its links 0.02 at most.
      CHECK(llf >= 0.95);
      CHECK(wbf >= 0.95);
    }
    // Nothing the robot does collides with itself (NAO's capsule model, the pairs that touch in
    // every configuration left out as the command line does).
    const SelfPenetration penetration = selfPenetration(collision, mapped.q);
    CHECK_MESSAGE(penetration.frames_in_penetration == 0, penetration.worst_pair, " ", penetration.max_depth, " m");
    CHECK(mapped.held_frames == 0);
    CHECK(mapped.frames(StatusCode::kDiscontinuity) == 0);
    if (name == "wave") CHECK(mapped.clamped_frames == 0);
  }
}
