// Every class template of the library instantiates for float and double (explicit
// instantiations below: all member functions are compiled), and every templated entry point
// runs once in float on a tiny input and gives finite results. tests/CMakeLists.txt compiles
// this file with -Wconversion -Wsign-conversion (RETARGET_CHECK_WARNINGS), so a narrowing or
// sign change inside a float (or double) instantiation of our headers fails the build; so does
// .ci/check-warnings with both GCC and Clang.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <type_traits>
#include <vector>

#include <retarget/control/support_mode.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#include <retarget/geometry/distance.hpp>
#include <retarget/human/arm_placement.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/human/foot_stance.hpp>
#include <retarget/human/frames.hpp>
#include <retarget/human/skeleton_smoothing.hpp>
#include <retarget/human/torso_frames.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/kinematics/denavit_hartenberg.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/fabrik.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/mappers/pic_map.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/mappers/triangle_map.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/dtw.hpp>
#include <retarget/metrics/dtw_alignment.hpp>
#include <retarget/metrics/foot_contact.hpp>
#include <retarget/metrics/joint_similarity.hpp>
#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/occlusion.hpp>
#include <retarget/metrics/pose_accuracy.hpp>
#include <retarget/metrics/position_error.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/metrics/weighted_dtw.hpp>
#include <retarget/robots/builtin.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/safety/self_collision.hpp>

// ---------------------------------------------------------------------------------------------
// Explicit instantiations: every non-template member of each class template is compiled. When
// this test links the compiled part (RETARGET_SEPARATE_COMPILATION), the compiled part's layer
// sources make these same instantiations (src/<layer>.cpp), once for the whole program.

#if RETARGET_HEADER_ONLY

#define RETARGET_TEST_INSTANTIATE(Scalar)                    \
  template class retarget::RobotModel<Scalar>;               \
  template class retarget::RobotModelBuilder<Scalar>;        \
  template struct retarget::RobotData<Scalar>;               \
  template struct retarget::Sphere<Scalar>;                  \
  template struct retarget::Capsule<Scalar>;                 \
  template struct retarget::SkeletonFrame<Scalar>;           \
  template struct retarget::SkeletonMotion<Scalar>;          \
  template class retarget::SkeletonSmoothing<Scalar>;        \
  template class retarget::ArmPlacement<Scalar>;             \
  template class retarget::ExponentialSmoothing<Scalar>;     \
  template class retarget::OneEuroFilter<Scalar>;            \
  template class retarget::RateLimiter<Scalar>;              \
  template class retarget::CartesianSpeedLimiter<Scalar>;    \
  template struct retarget::FabrikChain<Scalar>;             \
  template class retarget::VirtualSkeleton<Scalar>;          \
  template class retarget::EulerMapper<Scalar>;              \
  template class retarget::GaLvvjMapper<Scalar>;             \
  template class retarget::PicMapper<Scalar>;                \
  template class retarget::JointSpaceParticleFilter<Scalar>; \
  template class retarget::TriangleMapper<Scalar>;           \
  template class retarget::TriangleSkeleton<Scalar>;         \
  template class retarget::BestReachableSimilarity<Scalar>;  \
  template class retarget::IncrementalDtw<Scalar>;           \
  template class retarget::IncrementalJointDtw<Scalar>;      \
  template class retarget::SelfCollisionModel<Scalar>;       \
  template class retarget::SelfCollisionChecker<Scalar>;

RETARGET_TEST_INSTANTIATE(float)
RETARGET_TEST_INSTANTIATE(double)

#undef RETARGET_TEST_INSTANTIATE
#else
// The class templates the compiled part leaves to the headers (small or generic ones).
#define RETARGET_TEST_INSTANTIATE(Scalar)          \
  template struct retarget::RobotData<Scalar>;     \
  template struct retarget::Sphere<Scalar>;        \
  template struct retarget::Capsule<Scalar>;       \
  template struct retarget::SkeletonFrame<Scalar>; \
  template struct retarget::SkeletonMotion<Scalar>; \
  template struct retarget::FabrikChain<Scalar>;   \
  template class retarget::IncrementalDtw<Scalar>; \
  template class retarget::IncrementalJointDtw<Scalar>;

RETARGET_TEST_INSTANTIATE(float)
RETARGET_TEST_INSTANTIATE(double)

#undef RETARGET_TEST_INSTANTIATE
#endif  // RETARGET_HEADER_ONLY

using namespace retarget;

namespace {

template <typename Scalar>
SkeletonFrame<Scalar> toScalar(const SkeletonFrame<double>& f) {
  SkeletonFrame<Scalar> g;
  for (std::size_t j = 0; j < f.p_W.size(); ++j) g.p_W[j] = f.p_W[j].template cast<Scalar>();
  g.state = f.state;
  g.left_hand = f.left_hand;
  g.right_hand = f.right_hand;
  g.time = static_cast<Scalar>(f.time);
  return g;
}

// A short demo motion (the "wave", 5 frames) in Scalar.
template <typename Scalar>
SkeletonMotion<Scalar> waveMotion() {
  DemoMotionOptions options;
  options.rate = 10;
  options.duration = 0.4;
  const SkeletonMotion<double> motion = demoMotion("wave", options);
  SkeletonMotion<Scalar> out;
  out.frame_rate = static_cast<Scalar>(motion.frame_rate);
  out.format = motion.format;
  for (const auto& f : motion.frames) out.frames.push_back(toScalar<Scalar>(f));
  return out;
}

template <typename Derived>
bool finite(const Eigen::MatrixBase<Derived>& m) {
  return m.allFinite();
}
template <typename Scalar, typename = std::enable_if_t<std::is_floating_point_v<Scalar>>>
bool finite(Scalar x) {
  return std::isfinite(x);
}

// Maps every frame of `motion` with `mapper` (already built) and checks finite output.
template <typename Mapper>
void mapsToFinite(Mapper& mapper, const SkeletonMotion<typename Mapper::Scalar>& motion) {
  using Scalar = typename Mapper::Scalar;
  VectorX<Scalar> q(mapper.model().nq());
  for (const auto& frame : motion.frames) {
    const Status status = mapper.map(frame, q);
    CHECK_FALSE(status.has(StatusCode::kInvalidInput));
    CHECK(finite(q));
  }
  const MappedMotion<Scalar> mapped = mapMotion(mapper, motion);
  CHECK(finite(mapped.q));
}

}  // namespace

TEST_CASE_TEMPLATE("float and double: kinematics, robots, filters, human frames", Scalar, float, double) {
  using V3 = Vector3<Scalar>;
  const RobotModel<Scalar> nao = makeBuiltinRobot<Scalar>("nao");
  RobotData<Scalar> data(nao);
  VectorX<Scalar> q = nao.neutralConfiguration();
  forwardKinematics(nao, data, q);
  CHECK(finite(data.X_WL.back().matrix()));
  Matrix3X<Scalar> J(3, nao.nq());
  pointJacobian(nao, data, nao.linkIndex("l_wrist"), V3(Scalar(0.01), 0, 0), J);
  CHECK(finite(J));
  angularJacobian(nao, data, nao.linkIndex("l_wrist"), J);
  CHECK(finite(J));
  CHECK(finite(centerOfMass(nao, data)));
  CHECK(finite(centerOfMassJacobian(nao, data)));
  VectorX<Scalar> q_far = VectorX<Scalar>::Constant(nao.nq(), Scalar(10));
  CHECK(clampToLimits(nao, q_far) > 0);
  CHECK(withinLimits(nao, q_far));

  std::vector<DhRow<Scalar>> rows(2);
  rows[0].joint_name = "j1";
  rows[0].a = Scalar(0.3);
  rows[0].limits = JointLimits<Scalar>{Scalar(-1), Scalar(1), Scalar(1)};
  rows[1].joint_name = "j2";
  rows[1].alpha = Scalar(0.5);
  rows[1].limits = rows[0].limits;
  const RobotModel<Scalar> arm = robotFromDh<Scalar>("dh", rows, DhConvention::kModified);
  CHECK(arm.nq() == 2);

  ExponentialSmoothingOptions smoothing;
  ExponentialSmoothing<Scalar> exponential(nao.nq(), smoothing);
  CHECK(exponential.update(q).ok());
  OneEuroFilter<Scalar> one_euro(nao.nq(), OneEuroFilterOptions{});
  CHECK(one_euro.update(q, Scalar(0)).ok());
  CHECK(one_euro.update(q, Scalar(0.1)).ok());
  RateLimiterOptions rates;
  RateLimiter<Scalar> rate(nao.nq(), rates);
  CHECK(rate.update(q, Scalar(0.1)).ok());
  CartesianSpeedLimiterOptions speed;
  speed.points.push_back(LinkPoint{"l_wrist", Eigen::Vector3d::Zero()});
  CartesianSpeedLimiter<Scalar> limiter(nao, speed);
  CHECK(limiter.update(q, Scalar(0.1)).ok());
  CHECK(finite(exponential.value()));
  CHECK(finite(one_euro.value()));
  CHECK(finite(rate.value()));
  CHECK(finite(limiter.value()));

  const SkeletonMotion<Scalar> motion = waveMotion<Scalar>();
  REQUIRE(motion.size() == 5);
  SkeletonFrame<Scalar> frame = motion.frames[2];
  SkeletonSmoothing<Scalar> skeleton_smoothing;
  SkeletonFrame<Scalar> smoothed;
  skeleton_smoothing.update(frame, smoothed);
  CHECK(finite(smoothed.position(HumanJoint::kHandLeft)));
  const TorsoFrames<Scalar> torso = torsoFrames(frame);
  CHECK(torso.upper.has_value());
  applyInferredPolicy(frame, InferredJoints::kUse);
  canonicalFrameToKinect(frame);
  kinectFrameToCanonical(frame);
  CHECK((frame.position(HumanJoint::kHead) - motion.frames[2].position(HumanJoint::kHead)).norm() < Scalar(1e-5));
  ArmPlacement<Scalar> placement(ArmPlacementOptions{}, Scalar(0.5), Scalar(0.5));
  CHECK(placement.update(frame));
  CHECK(finite(placement.placeVector(ArmSide::kLeft, V3(0, 0, -1))));

  const Capsule<Scalar> a{V3(0, 0, 0), V3(1, 0, 0), Scalar(0.1)};
  const Capsule<Scalar> b{V3(0, 1, 0), V3(1, 1, 0), Scalar(0.1)};
  CHECK(std::abs(distance(a, b).distance - Scalar(0.8)) < Scalar(1e-5));

  const JointTrajectory trajectory = makeJointTrajectory(nao);
  CHECK(toRobotOrder(trajectory, nao).jointCount() == nao.nq());
}

TEST_CASE_TEMPLATE("float and double: every mapper maps a short motion to finite joint values", Scalar, float,
                   double) {
  const SkeletonMotion<Scalar> motion = waveMotion<Scalar>();

  const RobotModel<Scalar> nao = makeBuiltinRobot<Scalar>("nao");
  const auto ga_map = gaLvvjMapFor(nao);
  REQUIRE(ga_map.has_value());
  GaLvvjMapper<Scalar> ga_lvvj(nao, *ga_map);
  mapsToFinite(ga_lvvj, motion);

  const RobotModel<Scalar> tangy = makeBuiltinRobot<Scalar>("tangy");
  const auto triangle_map = triangleMapFor(tangy);
  REQUIRE(triangle_map.has_value());
  TriangleMapper<Scalar> triangle(tangy, *triangle_map);
  mapsToFinite(triangle, motion);
  TriangleSkeleton<Scalar> triangle_view(tangy, *triangle_map);
  SkeletonFrame<Scalar> triangle_frame;
  CHECK(triangle_view.compute(tangy.neutralConfiguration(), triangle_frame).ok());

  const RobotModel<Scalar> baxter = makeBuiltinRobot<Scalar>("baxter");
  const auto pic_map = picMapFor(baxter);
  REQUIRE(pic_map.has_value());
  PicMapper<Scalar> pic(baxter, *pic_map);
  mapsToFinite(pic, motion);

  FabrikChain<Scalar> chain;
  chain.count = 3;
  chain.p[0] = Vector3<Scalar>(0, 0, 0);
  chain.p[1] = Vector3<Scalar>(Scalar(0.3), 0, 0);
  chain.p[2] = Vector3<Scalar>(Scalar(0.6), 0, 0);
  chain.setLengthsFromPoints();
  const FabrikResult<Scalar> solved = solveFabrik(chain, Vector3<Scalar>(Scalar(0.3), Scalar(0.3), 0), FabrikOptions{});
  CHECK(solved.converged);
  CHECK(finite(chain.p[2]));

  // Euler/BVH: one robot joint following the yaw of a two-joint BVH hierarchy.
  RobotModelBuilder<Scalar> builder("one");
  builder.addLink("base");
  builder.addLink("head");
  JointSpec<Scalar> neck;
  neck.name = "neck_yaw";
  neck.parent_link = "base";
  neck.child_link = "head";
  neck.limits = JointLimits<Scalar>{Scalar(-2), Scalar(2), Scalar(1)};
  builder.addJoint(neck);
  const RobotModel<Scalar> one = builder.build();
  const BvhMotion bvh = parseBvh(
      "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation "
      "Zrotation\n JOINT Neck\n {\n  OFFSET 0 10 0\n  CHANNELS 3 Yrotation Xrotation Zrotation\n  End Site\n  {\n"
      "   OFFSET 0 5 0\n  }\n }\n}\nMOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0 0 0 0 30 0 0\n");
  EulerMap euler_map;
  EulerJointMapping yaw;
  yaw.robot_joint = "neck_yaw";
  yaw.source = {"Neck"};
  yaw.order = parseEulerOrder("YXZ");
  euler_map.joints.push_back(yaw);
  EulerMapper<Scalar> euler(one, bvh, euler_map);
  VectorX<Scalar> q_one(1);
  CHECK(euler.map(bvh.frameValues(0), q_one).ok());
  CHECK(std::abs(q_one[0] - Scalar(30 * kPi<double> / 180)) < Scalar(1e-5));
  CHECK(finite(mapMotion(euler, bvh).q));
}

TEST_CASE_TEMPLATE("float and double: every metric of a short motion is finite", Scalar, float, double) {
  const SkeletonMotion<Scalar> motion = waveMotion<Scalar>();
  const RobotModel<Scalar> nao = makeBuiltinRobot<Scalar>("nao");
  const GaLvvjMap map = *gaLvvjMapFor(nao);
  GaLvvjMapper<Scalar> mapper(nao, map);
  const MappedMotion<Scalar> mapped = mapMotion(mapper, motion);
  const MatrixX<Scalar>& Q = mapped.q;  // frames x nq
  REQUIRE(Q.rows() == 5);
  const auto n = static_cast<std::size_t>(Q.rows());

  // The robot's own virtual skeleton along the mapped motion.
  VirtualSkeleton<Scalar> view(nao, naoVirtualSkeletonMap());
  std::vector<SkeletonFrame<Scalar>> robot(n);
  for (std::size_t k = 0; k < n; ++k) {
    const VectorX<Scalar> q_k = Q.row(static_cast<Eigen::Index>(k)).transpose();
    CHECK(view.compute(q_k, robot[k]).ok());
  }

  const MotionSimilarity<Scalar> similarity = motionSimilarity(motion.frames, robot);
  CHECK(finite(similarity.wbf_mean));
  FramePositionError<Scalar> frame_error;
  CHECK(framePositionError(motion.frames[0], robot[0], frame_error).ok());
  CHECK(std::isfinite(motionPositionError(view, motion, Q).mpjpe));
  const MotionBestReachable<Scalar> best = motionBestReachable(nao, naoVirtualSkeletonMap(), motion.frames, Q);
  CHECK(finite(best.wbf_best_mean[0]));

  CHECK(finite(jointSimilarity(nao, Q.row(0), Q.row(1))));
  CHECK(std::isfinite(jointSimilarity(nao, Q, Q).mean));
  std::vector<double> time;
  for (const auto& f : motion.frames) time.push_back(static_cast<double>(f.time));
  CHECK(std::isfinite(jointSmoothness(nao, time, Q).limit_margin_min));

  const MatrixX<Scalar> trajectory = Q.transpose();  // nq x frames
  CHECK(finite(dtw(trajectory, trajectory).distance));
  CHECK(finite(dtwWithPath(trajectory, trajectory).distance));
  CHECK(finite(dtwAlignToReference(trajectory, trajectory)));
  CHECK(dtwMedoid(std::vector<MatrixX<Scalar>>{trajectory, trajectory}) == 0);
  IncrementalDtw<Scalar> incremental(nao.nq());
  CHECK(incremental.appendA(trajectory.col(0)).ok());
  CHECK(incremental.appendB(trajectory.col(1)).ok());
  CHECK(finite(incremental.distance()));
  const VectorX<Scalar> weights = rangeOfMotionWeights(nao);
  CHECK(finite(weightedJointDtw(trajectory, trajectory, weights).system_distance));
  IncrementalJointDtw<Scalar> joint_dtw(weights);
  CHECK(joint_dtw.append(trajectory.col(0), trajectory.col(1)).ok());
  CHECK(finite(joint_dtw.systemDistance()));

  const HumanoidBindingOptions automatic;
  const HumanoidBinding nao_binding = bindHumanoid(nao, automatic);
  const std::array<HumanoidSole, 2> soles = humanoidSoles(nao, nao_binding);
  REQUIRE(soles[0].found);
  CHECK(soleTrajectory(nao, soles[0], Q).allFinite());
  CHECK(humanStance(motion).rows() == static_cast<Eigen::Index>(motion.size()));

  const Vector3<Scalar> p_S(0, 0, 0), p_W(Scalar(0.3), 0, 0);
  CHECK(armPoseAngle(p_S, p_W, Vector3<Scalar>(Scalar(0.3), Scalar(0.3), 0)).has_value());
  CHECK(shoulderWristDirectionAngle(p_S, p_W, p_S, Vector3<Scalar>(0, Scalar(0.3), 0)).has_value());
  const Capsule<Scalar> capsule{Vector3<Scalar>(Scalar(0.6), 0, Scalar(-0.1)), Vector3<Scalar>(Scalar(0.7), 0, 0),
                                Scalar(0.05)};
  CHECK(occludes(capsule, WorkArea{}));

  const SelfCollisionModel<Scalar> collision(nao);
  SelfCollisionChecker<Scalar> checker(collision);
  checker.update(Q.row(0).transpose());
  CHECK(finite(checker.minDistance()));
  CHECK(finite(penetrationDepth(collision, checker)));
  CHECK(std::isfinite(selfPenetration(collision, Q).mean_depth));
  CHECK(trajectoryClearance(collision, Q).min_distance.size() == n);
  CHECK_NOTHROW(alwaysCollidingPairs(nao, SelfCollisionOptions{}, 10));
}

TEST_CASE_TEMPLATE("float and double: support modes and locomotion on a demo motion", Scalar, float, double) {
  SupportModeSwitch<Scalar> modes;
  int changes = 0;
  for (const auto& frame : demoMotion("one-leg-stand", DemoMotionOptions{30.0, 6.0, 1.75}).frames) {
    SkeletonFrame<Scalar> f;
    f.time = static_cast<Scalar>(frame.time);
    for (std::size_t j = 0; j < frame.p_W.size(); ++j) f.p_W[j] = frame.p_W[j].template cast<Scalar>();
    f.state = frame.state;
    changes += modes.update(f).changed ? 1 : 0;
  }
  CHECK(changes == 2);
}

