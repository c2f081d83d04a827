// JSON form of the robot schema (json/humanoid_binding.hpp): round trip, defaults, strict reading.
#include <doctest/doctest.h>

#include <string>

#include <retarget/json/humanoid_binding.hpp>

namespace retarget {

TEST_CASE("robot schema JSON: round trip, defaults and errors") {
  HumanoidBindingOptions options;
  options.forward = Eigen::Vector3d(1, 0, 0);
  options.up = Eigen::Vector3d(0, 0, 1);
  options.limbs[0] = HumanoidLimbPin{"l_wrist", "LElbowRoll", "LWristYaw"};
  options.limbs[4] = HumanoidLimbPin{"-", "", ""};
  options.joint_group_tolerance = 0.03;
  const HumanoidBindingOptions back = fromJson<HumanoidBindingOptions>(toJson(options), "<test>");
  REQUIRE(back.forward.has_value());
  CHECK(back.forward->isApprox(Eigen::Vector3d(1, 0, 0)));
  REQUIRE(back.up.has_value());
  CHECK(back.limbs[0].end_link == "l_wrist");
  CHECK(back.limbs[0].bend_joint == "LElbowRoll");
  CHECK(back.limbs[0].distal_joint == "LWristYaw");
  CHECK(back.limbs[1].end_link.empty());
  CHECK(back.limbs[4].end_link == "-");
  CHECK(back.joint_group_tolerance == 0.03);

  const HumanoidBindingOptions empty = parseJson<HumanoidBindingOptions>("{}", "<test>");
  CHECK_FALSE(empty.forward.has_value());
  CHECK(empty.min_limb_fraction == HumanoidBindingOptions{}.min_limb_fraction);

  CHECK_THROWS_WITH_AS(parseJson<HumanoidBindingOptions>(R"({"limbs": {"left_hand": {}}})", "r.json"),
                       doctest::Contains("unknown key \"left_hand\""), ParseError);
  CHECK_THROWS_WITH_AS(parseJson<HumanoidBindingOptions>(R"({"up": [0, 0]})", "r.json"), doctest::Contains("/up"), ParseError);
  CHECK_THROWS_WITH_AS(parseJson<HumanoidBindingOptions>(R"({"pair_tolerance": 2})", "r.json"),
                       doctest::Contains("pair_tolerance"), ParseError);
  CHECK_THROWS_WITH_AS(parseJson<HumanoidBindingOptions>(R"({"limbs": {"head": {"end_link": 3}}})", "r.json"),
                       doctest::Contains("/limbs/head/end_link"), ParseError);
}

}  // namespace retarget
