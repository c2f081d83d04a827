// The points a hand speed limit keeps slow (app/hand_points.hpp): the triangle map's on the
// papers' robots (unchanged), the virtual skeleton's on every other humanoid, and NAO's and
// Pepper's triangle arms read from their virtual skeletons (the two paths agree on the points),
// with a clear refusal for a robot that has neither.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <retarget/app/hand_points.hpp>
#include <retarget/robots/builtin.hpp>

#include "support/random_configuration.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// Where `point` sits in W after forward kinematics into `data` (the model's root at the identity).
Eigen::Vector3d placed(const RobotModel<double>& model, RobotData<double>& data, const LinkPoint& point) {
  return data.X_WL[static_cast<std::size_t>(model.linkIndex(point.link))] * point.p_L;
}

}  // namespace

TEST_CASE("hand points: the triangle map's on Tangy, NAO and Pepper, bit for bit") {
  for (const char* robot : {"tangy", "nao", "pepper"}) {
    CAPTURE(robot);
    const RobotModel<double> model = makeBuiltinRobot(robot);
    const std::vector<LinkPoint> expected = triangleArmPoints(model, *triangleMapFor(model));
    const std::vector<LinkPoint> points = app::handPoints(model);
    REQUIRE(points.size() == expected.size());
    for (std::size_t i = 0; i < points.size(); ++i) {
      CHECK(points[i].link == expected[i].link);
      CHECK(points[i].p_L == expected[i].p_L);
    }
  }
}

TEST_CASE("hand points: NAO's and Pepper's triangle arms are their virtual skeletons' arms") {
  // Two code paths to the same elbows and wrists: the triangle skeleton (mappers) and the virtual
  // skeleton (robots), at every configuration of a sweep, to round-off.
  for (const char* robot : {"nao", "pepper"}) {
    CAPTURE(robot);
    const RobotModel<double> model = makeBuiltinRobot(robot);
    const std::vector<LinkPoint> triangle = triangleArmPoints(model, *triangleMapFor(model));
    VirtualSkeletonMap arms = *virtualSkeletonMapFor(model);  // without the hands
    arms.points.erase(std::remove_if(arms.points.begin(), arms.points.end(),
                                     [](const VirtualPointSpec& p) {
                                       return p.joint == HumanJoint::kHandLeft || p.joint == HumanJoint::kHandRight;
                                     }),
                      arms.points.end());
    const std::vector<LinkPoint> skeleton_arms = virtualArmPoints(model, arms);
    REQUIRE(skeleton_arms.size() == triangle.size());
    RobotData<double> data(model);
    std::mt19937 rng(58);
    for (int k = 0; k < 50; ++k) {
      const Eigen::VectorXd q = test::randomConfiguration(model, rng);
      forwardKinematics(model, data, q);
      for (std::size_t i = 0; i < triangle.size(); ++i) {
        CAPTURE(triangle[i].link);
        CHECK(skeleton_arms[i].link == triangle[i].link);
        CHECK((placed(model, data, skeleton_arms[i]) - placed(model, data, triangle[i])).norm() < 1e-12);
      }
    }
  }
}

TEST_CASE("hand points: G1 and H1 take their elbows, wrists and hands from their virtual skeletons") {
  for (const char* robot : {"g1", "h1"}) {
    CAPTURE(robot);
    const RobotModel<double> model = makeBuiltinRobot(robot);
    REQUIRE_FALSE(triangleMapFor(model));
    const VirtualSkeletonMap map = *virtualSkeletonMapFor(model);
    const std::vector<LinkPoint> points = app::handPoints(model);
    // One point per elbow, wrist and hand the skeleton has, on the link the skeleton puts it on,
    // where the skeleton puts it at the neutral configuration.
    std::vector<const VirtualPointSpec*> arm_specs;
    using H = HumanJoint;
    for (const H joint : {H::kElbowLeft, H::kWristLeft, H::kHandLeft, H::kElbowRight, H::kWristRight, H::kHandRight}) {
      for (const VirtualPointSpec& spec : map.points) {
        if (spec.joint == joint) arm_specs.push_back(&spec);
      }
    }
    REQUIRE(arm_specs.size() >= 4);  // both elbows and wrists at least
    REQUIRE(points.size() == arm_specs.size());
    VirtualSkeleton<double> view(model, map);
    SkeletonFrame<double> frame;
    REQUIRE(view.compute(model.neutralConfiguration(), frame).ok());
    RobotData<double> data(model);
    forwardKinematics(model, data, model.neutralConfiguration());
    for (std::size_t i = 0; i < points.size(); ++i) {
      CAPTURE(points[i].link);
      CHECK(points[i].link == arm_specs[i]->link);
      CHECK((placed(model, data, points[i]) - frame.position(arm_specs[i]->joint)).norm() < 1e-12);
    }
  }
}

TEST_CASE("hand points: a robot without a triangle map or arms in its skeleton is refused by name") {
  for (const char* robot : {"baxter", "yumi", "inmoov"}) {
    CAPTURE(robot);
    const RobotModel<double> model = makeBuiltinRobot(robot);
    try {
      (void)app::handPoints(model);
      FAIL("expected InvalidArgument");
    } catch (const InvalidArgument& e) {
      const std::string what = e.what();
      CHECK(what.find(model.name()) != std::string::npos);
      CHECK(what.find("schema suggest") != std::string::npos);
    }
  }
}

TEST_CASE("triangle map: a virtual skeleton without the arm it needs is named") {
  VirtualSkeletonMap skeleton = naoVirtualSkeletonMap();
  TriangleMap map = naoTriangleMap();
  // No right wrist.
  VirtualSkeletonMap no_wrist = skeleton;
  no_wrist.points.erase(std::remove_if(no_wrist.points.begin(), no_wrist.points.end(),
                                       [](const VirtualPointSpec& p) { return p.joint == HumanJoint::kWristRight; }),
                        no_wrist.points.end());
  CHECK_THROWS_WITH_AS(internal::virtualArmsFrom(map, no_wrist), doctest::Contains("got no point 'WristRight'"),
                       InvalidArgument);
  // A wrist fixed on the forearm instead of hung from the elbow.
  VirtualSkeletonMap fixed_wrist = skeleton;
  for (VirtualPointSpec& p : fixed_wrist.points) {
    if (p.joint == HumanJoint::kWristLeft) p.from.reset();
  }
  CHECK_THROWS_WITH_AS(internal::virtualArmsFrom(map, fixed_wrist), doctest::Contains("point 'WristLeft'"),
                       InvalidArgument);
  // A shoulder off the torso link.
  VirtualSkeletonMap moved_shoulder = skeleton;
  for (VirtualPointSpec& p : moved_shoulder.points) {
    if (p.joint == HumanJoint::kShoulderLeft) p.link = "LShoulder";
  }
  CHECK_THROWS_WITH_AS(internal::virtualArmsFrom(map, moved_shoulder),
                       doctest::Contains("expected a point fixed on 'torso'"), InvalidArgument);
}
