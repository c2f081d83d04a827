// Public API with no other test: Status::toString, RobotModel::qJoints / velocityLimits, and
// VirtualSkeleton::setBasePose.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include <retarget/core/status.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

using namespace retarget;

TEST_CASE("Status::toString names every flag in declaration order, 'ok' when empty") {
  CHECK(Status().toString() == "ok");
  CHECK(Status(StatusCode::kOk).toString() == "ok");
  CHECK(Status(StatusCode::kClamped).toString() == "clamped");
  CHECK(Status(StatusCode::kDegenerateInput).toString() == "degenerate_input");
  CHECK(Status(StatusCode::kCollisionAvoided).toString() == "collision_avoided");
  CHECK(Status(StatusCode::kNotConverged).toString() == "not_converged");
  CHECK(Status(StatusCode::kRateLimited).toString() == "rate_limited");
  CHECK(Status(StatusCode::kInvalidInput).toString() == "invalid_input");
  // Order is fixed, whatever order the flags were added in.
  CHECK((Status(StatusCode::kInvalidInput) | StatusCode::kClamped).toString() == "clamped|invalid_input");
  Status all;
  for (auto code : {StatusCode::kRateLimited, StatusCode::kNotConverged, StatusCode::kInvalidInput,
                    StatusCode::kCollisionAvoided, StatusCode::kDegenerateInput, StatusCode::kClamped}) {
    all |= code;
  }
  CHECK(all.toString() == "clamped|degenerate_input|collision_avoided|not_converged|rate_limited|invalid_input");
}

TEST_CASE("RobotModel::qJoints and velocityLimits follow the joints, mimic and fixed joints left out") {
  RobotModelBuilder<double> b("api");
  b.addLink("base");
  b.addLink("a");
  b.addLink("b");
  b.addLink("c");
  b.addLink("d");
  JointSpec<double> j1;
  j1.name = "j1";
  j1.parent_link = "base";
  j1.child_link = "a";
  j1.limits.lower = -1;
  j1.limits.upper = 1;
  j1.limits.velocity = 2.5;
  b.addJoint(j1);
  JointSpec<double> fixed;
  fixed.name = "fixed";
  fixed.type = JointType::kFixed;
  fixed.parent_link = "a";
  fixed.child_link = "b";
  b.addJoint(fixed);
  JointSpec<double> mimic = j1;
  mimic.name = "mimic";
  mimic.parent_link = "b";
  mimic.child_link = "c";
  mimic.mimic = MimicSpec{"j1", 0.5, 0.1};
  b.addJoint(mimic);
  JointSpec<double> j2;  // no velocity limit given: unbounded
  j2.name = "j2";
  j2.type = JointType::kPrismatic;
  j2.parent_link = "c";
  j2.child_link = "d";
  j2.limits.lower = 0;
  j2.limits.upper = 0.2;
  b.addJoint(j2);
  const RobotModel<double> model = b.build();
  REQUIRE(model.nq() == 2);
  REQUIRE(model.qJoints().size() == 2);
  CHECK(model.joints()[model.qJoints()[0]].name == "j1");
  CHECK(model.joints()[model.qJoints()[1]].name == "j2");
  for (int i = 0; i < model.nq(); ++i) CHECK(model.joints()[model.qJoints()[i]].q_index == i);
  REQUIRE(model.velocityLimits().size() == 2);
  CHECK(model.velocityLimits()[0] == 2.5);
  CHECK(model.velocityLimits()[1] == std::numeric_limits<double>::infinity());
  // NAO: one coordinate per NAOqi joint, velocity limits from the URDF (HeadYaw 8.26797 rad/s).
  const auto nao = makeNao<double>();
  REQUIRE(static_cast<int>(nao.qJoints().size()) == nao.nq());
  for (int i = 0; i < nao.nq(); ++i) {
    CHECK(nao.joints()[nao.qJoints()[i]].name == nao.qName(i));
    CHECK(nao.velocityLimits()[i] == nao.joints()[nao.qJoints()[i]].limits.velocity);
    CHECK(nao.velocityLimits()[i] > 0);
    CHECK(std::isfinite(nao.velocityLimits()[i]));
  }
}

TEST_CASE("VirtualSkeleton::setBasePose moves every point rigidly; identity by default") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  SkeletonFramed at_origin, moved, back;
  REQUIRE(skeleton.compute(nao.neutralConfiguration(), at_origin).ok());
  Isometry3<double> X_WB = Isometry3<double>::Identity();
  X_WB.linear() = Eigen::AngleAxisd(0.7, Eigen::Vector3d(0.2, -0.3, 1).normalized()).toRotationMatrix();
  X_WB.translation() = Eigen::Vector3d(1.5, -0.25, 0.4);
  skeleton.setBasePose(X_WB);
  REQUIRE(skeleton.compute(nao.neutralConfiguration(), moved).ok());
  int tracked = 0;
  for (int j = 0; j < kHumanJointCount; ++j) {
    const auto joint = static_cast<HumanJoint>(j);
    CHECK(moved.trackingState(joint) == at_origin.trackingState(joint));
    if (at_origin.trackingState(joint) != TrackingState::kTracked) continue;
    ++tracked;
    CHECK((moved.position(joint) - X_WB * at_origin.position(joint)).norm() < 1e-12);
  }
  CHECK(tracked > 10);
  skeleton.setBasePose(Isometry3<double>::Identity());
  REQUIRE(skeleton.compute(nao.neutralConfiguration(), back).ok());
  for (int j = 0; j < kHumanJointCount; ++j) {
    const auto joint = static_cast<HumanJoint>(j);
    if (at_origin.trackingState(joint) == TrackingState::kTracked) CHECK(back.position(joint) == at_origin.position(joint));
  }
}
