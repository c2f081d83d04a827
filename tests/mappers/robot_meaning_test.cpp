// One source of robot meaning (issue 58): the hand-written maps of the papers' humanoids (NAO,
// Pepper) say what the robot's automatic humanoid binding (robots/humanoid_binding.hpp) finds on
// the same model. GA-LVVJ's virtual joints and the triangle's arm joints are the first joints of
// the binding's limb chains, in chain order; NAO's trunk-lean feet are the last two joints of the
// binding's legs, their sole frame (also the balance's, control/balance.hpp) turned as the leg's
// last link; the triangle's virtual arms are the virtual skeleton's (taken from it,
// mappers/triangle_map.hpp). A change to either side that makes them disagree fails here.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <retarget/control/balance.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/triangle_map.hpp>
#include <retarget/robots/builtin.hpp>
#include <retarget/robots/humanoid_binding.hpp>

#include "support/random_configuration.hpp"

using namespace retarget;

namespace {

// The names of the first `count` joints of `chain` (chain order).
std::vector<std::string> firstJoints(const RobotModel<double>& model, const HumanoidChain& chain, std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < count && i < chain.joints.size(); ++i) {
    out.push_back(model.joints()[static_cast<std::size_t>(chain.joints[i])].name);
  }
  return out;
}

std::vector<std::string> bound(const GaLvvjMap& map, std::initializer_list<GaLvvjJoint> joints) {
  std::vector<std::string> out;
  for (const GaLvvjJoint j : joints) {
    if (!map.binding(j).joint.empty()) out.push_back(map.binding(j).joint);
  }
  return out;
}

}  // namespace

TEST_CASE("robot meaning: NAO's and Pepper's GA-LVVJ and triangle maps bind the joints their binding finds") {
  using J = GaLvvjJoint;
  for (const char* robot : {"nao", "pepper"}) {
    CAPTURE(robot);
    const RobotModel<double> model = makeBuiltinRobot(robot);
    const HumanoidBinding binding = bindHumanoid(model);
    const GaLvvjMap ga = *gaLvvjMapFor(model);
    const TriangleMap triangle = *triangleMapFor(model);
    const HumanoidChain& left_arm = binding.limb(HumanoidLimb::kLeftArm);
    const HumanoidChain& right_arm = binding.limb(HumanoidLimb::kRightArm);
    REQUIRE(left_arm.found);
    REQUIRE(right_arm.found);
    // Arms: shoulder pitch, shoulder roll, elbow yaw, elbow roll are the chain's first four.
    CHECK(bound(ga, {J::kLShoulderPitch, J::kLShoulderRoll, J::kLElbowYaw, J::kLElbowRoll}) ==
          firstJoints(model, left_arm, 4));
    CHECK(bound(ga, {J::kRShoulderPitch, J::kRShoulderRoll, J::kRElbowYaw, J::kRElbowRoll}) ==
          firstJoints(model, right_arm, 4));
    CHECK(std::vector<std::string>(triangle.left.joints.begin(), triangle.left.joints.end()) ==
          firstJoints(model, left_arm, 4));
    CHECK(std::vector<std::string>(triangle.right.joints.begin(), triangle.right.joints.end()) ==
          firstJoints(model, right_arm, 4));
    CHECK(triangle.torso_link == binding.torso_link);
    // Head: yaw then pitch.
    REQUIRE(binding.limb(HumanoidLimb::kHead).found);
    CHECK(bound(ga, {J::kHeadYaw, J::kHeadPitch}) == firstJoints(model, binding.limb(HumanoidLimb::kHead), 2));
    // Legs: what GA-LVVJ binds is the chain's first joints (NAO's right hip yaw-pitch is a mimic
    // of the left, in neither); Pepper has none, and binds none.
    const HumanoidChain& left_leg = binding.limb(HumanoidLimb::kLeftLeg);
    const HumanoidChain& right_leg = binding.limb(HumanoidLimb::kRightLeg);
    const std::vector<std::string> ga_left = bound(ga, {J::kLHipYawPitch, J::kLHipRoll, J::kLHipPitch, J::kLKneePitch});
    const std::vector<std::string> ga_right = bound(ga, {J::kRHipRoll, J::kRHipPitch, J::kRKneePitch});
    CHECK(left_leg.found == !ga_left.empty());
    CHECK(right_leg.found == !ga_right.empty());
    if (!left_leg.found) {
      CHECK(ga.foot_left.empty());
      CHECK(ga.foot_right.empty());
      continue;
    }
    CHECK(ga_left == firstJoints(model, left_leg, ga_left.size()));
    CHECK(ga_right == firstJoints(model, right_leg, ga_right.size()));
    // Feet: the ankle pitch and roll are the leg's last two joints; the sole is turned as the
    // leg's last link in every configuration (the trunk lean reads the sole's z).
    std::mt19937 rng(58);
    RobotData<double> data(model);
    // The balance's feet (NAO's sole frames) too.
    const BalanceFeet balance = naoBalanceFeet();
    for (const auto& [foot, leg, support] : {std::tuple{&ga.foot_left, &left_leg, &balance.left},
                                             std::tuple{&ga.foot_right, &right_leg, &balance.right}}) {
      const std::size_t n = leg->joints.size();
      REQUIRE(n >= 2);
      CHECK(foot->ankle_pitch == model.joints()[static_cast<std::size_t>(leg->joints[n - 2])].name);
      CHECK(foot->ankle_roll == model.joints()[static_cast<std::size_t>(leg->joints[n - 1])].name);
      CHECK(support->link == foot->sole);
      const auto sole = static_cast<std::size_t>(model.linkIndex(foot->sole));
      const auto end = static_cast<std::size_t>(model.linkIndex(leg->end_link));
      for (int k = 0; k < 20; ++k) {
        forwardKinematics(model, data, test::randomConfiguration(model, rng));
        CHECK((data.X_WL[sole].linear() - data.X_WL[end].linear()).norm() < 1e-12);
      }
    }
  }
}
