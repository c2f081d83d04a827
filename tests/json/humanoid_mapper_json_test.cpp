// JSON form of the humanoid mapper's options (json/humanoid_mapper.hpp): every field survives a
// round trip with values away from the defaults, {} gives the defaults, a missing trust region is
// written as null and read back as none, and bad files name the key.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include <retarget/json/humanoid_mapper.hpp>

namespace retarget {

TEST_CASE("humanoid mapper options JSON: round trip, defaults and errors") {
  HumanoidMapperOptions options;
  options.torso_weight = 0.7;
  options.twist_weight = 0.25;
  options.limb_weight = 1.5;
  options.ground_weight = 0.1;
  options.end_weight = 0.0;
  options.continuity_weight = 0.05;
  options.max_step = 0.4;
  options.min_step = 0.01;
  options.continuity_gain = 2.0;
  options.max_iterations = 12;
  options.first_frame_iterations = 50;
  options.tolerance = 3e-4;
  options.clamp_tolerance = 0.05;
  options.clamp_cost = 0.004;
  options.restarts = false;
  options.restart_cosine = 0.95;
  options.switch_gain = 0.08;
  options.restart_turn = 0.3;
  options.restart_iterations = 7;
  options.inferred_joints = InferredJoints::kUse;
  options.rest = {0.1, -0.2};
  const HumanoidMapperOptions back = fromJson<HumanoidMapperOptions>(toJson(options), "<test>");
  // Every field written is read back: the same JSON again.
  CHECK(nlohmann::json(toJson(back)) == nlohmann::json(toJson(options)));
  CHECK(back.max_iterations == 12);
  CHECK(back.restart_iterations == 7);
  CHECK_FALSE(back.restarts);
  CHECK(back.inferred_joints == InferredJoints::kUse);
  CHECK(back.rest == options.rest);

  const HumanoidMapperOptions empty = parseJson<HumanoidMapperOptions>("{}", "<test>");
  CHECK(nlohmann::json(toJson(empty)) == nlohmann::json(toJson(HumanoidMapperOptions{})));

  options.max_step = std::numeric_limits<double>::infinity();
  CHECK(toJson(options)["max_step"].is_null());
  CHECK(std::isinf(fromJson<HumanoidMapperOptions>(toJson(options), "<test>").max_step));

  CHECK_THROWS_WITH_AS(parseJson<HumanoidMapperOptions>(R"({"grond_weight": 1})", "h.json"),
                       doctest::Contains("unknown key \"grond_weight\""), ParseError);
  CHECK_THROWS_WITH_AS(parseJson<HumanoidMapperOptions>(R"({"max_iterations": 0})", "h.json"),
                       doctest::Contains("max_iterations"), ParseError);
  CHECK_THROWS_WITH_AS(parseJson<HumanoidMapperOptions>(R"({"restart_iterations": 0})", "h.json"),
                       doctest::Contains("restart_iterations"), ParseError);
  CHECK_THROWS_WITH_AS(parseJson<HumanoidMapperOptions>(R"({"restart_cosine": 2})", "h.json"),
                       doctest::Contains("restart_cosine"), ParseError);
  CHECK_THROWS_WITH_AS(parseJson<HumanoidMapperOptions>(R"({"inferred_joints": "guess"})", "h.json"),
                       doctest::Contains("/inferred_joints"), ParseError);
  CHECK_THROWS_WITH_AS(parseJson<HumanoidMapperOptions>(R"({"end_weight": -1})", "h.json"),
                       doctest::Contains("end_weight"), ParseError);
}

}  // namespace retarget
