// JSON form of the whole-body options (json/whole_body.hpp) and of the front ends' whole-body
// configurations (app/whole_body_json.hpp: the stage's keys beside the mapper's options): random
// values round-trip exactly (text and value), missing keys take the defaults, and bad values are
// ParseErrors naming the file, line and pointer.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include <retarget/app/whole_body_json.hpp>
#include <retarget/json/whole_body.hpp>

using namespace retarget;

namespace {

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }

WholeBodyOptions randomOptions(std::mt19937& rng) {
  WholeBodyOptions o;
  o.modes.lift_height = uniform(rng, 0.01, 0.2);
  o.modes.lift_confirm_time = uniform(rng, 0.01, 2);
  o.modes.landing_confirm_time = uniform(rng, 0.01, 2);
  o.modes.locomotion.loop_period = uniform(rng, 0.1, 5);
  o.modes.locomotion.step_threshold = uniform(rng, 0.01, 1);
  o.modes.locomotion.turn_threshold = uniform(rng, 0.01, 3);
  o.balance.control_period = uniform(rng, 0.001, 0.1);
  o.balance.safety_margin = uniform(rng, 0, 0.05);
  o.balance.linearisation_margin = uniform(rng, 0, 0.01);
  o.balance.recovery_step = uniform(rng, 1e-4, 0.01);
  o.balance.max_joint_speed = uniform(rng, 0.1, 10);
  o.balance.landing_speed = uniform(rng, 0.01, 1);
  o.balance.landing_turn_speed = uniform(rng, 0.1, 5);
  o.balance.landing_height = uniform(rng, 1e-4, 0.01);
  o.balance.landing_tilt = uniform(rng, 1e-3, 0.1);
  o.balance.max_halvings = static_cast<int>(uniform(rng, 0, 20));
  o.balance.tracking = uniform(rng, 0, 1) < 0.5 ? BalanceOptions::Tracking::kVelocity : BalanceOptions::Tracking::kPosition;
  o.balance_enabled = uniform(rng, 0, 1) < 0.5;
  o.max_periods_per_frame = static_cast<int>(uniform(rng, 1, 50));
  return o;
}

app::GaLvvjWholeBodyOptions randomGaLvvjConfig(std::mt19937& rng) {
  app::GaLvvjWholeBodyOptions o;
  o.whole_body = randomOptions(rng);
  o.ga_lvvj.leg_fit = uniform(rng, 0, 1) < 0.5;
  o.ga_lvvj.trunk_lean = uniform(rng, 0, 1) < 0.5;
  o.ga_lvvj.continuity_weight = uniform(rng, 0, 1);
  return o;
}

app::HumanoidWholeBodyOptions randomHumanoidConfig(std::mt19937& rng) {
  app::HumanoidWholeBodyOptions o;
  o.whole_body = randomOptions(rng);
  o.humanoid.max_step = uniform(rng, 0.01, 0.5);
  o.humanoid.torso_weight = uniform(rng, 0.1, 5);
  return o;
}

template <typename T>
void checkParseError(const std::string& text, std::size_t line, const char* part) {
  CAPTURE(text);
  try {
    (void)parseJson<T>(text, "wb.json");
    FAIL("no exception");
  } catch (const ParseError& e) {
    CHECK(e.file() == "wb.json");
    CHECK(e.line() == line);
    CHECK_MESSAGE(std::string(e.what()).find(part) != std::string::npos, e.what());
  }
}

}  // namespace

TEST_CASE("json whole body: random options round-trip exactly; missing keys take the defaults") {
  std::mt19937 rng(77);
  for (int trial = 0; trial < 50; ++trial) {
    const WholeBodyOptions value = randomOptions(rng);
    const std::string text = toJson(value).dump(2);
    CAPTURE(text);
    const WholeBodyOptions back = parseJson<WholeBodyOptions>(text, "wb.json");
    CHECK(toJson(back).dump() == toJson(value).dump());
    CHECK(back.balance.safety_margin == value.balance.safety_margin);
    CHECK(back.modes.locomotion.turn_threshold == value.modes.locomotion.turn_threshold);
    CHECK(back.balance_enabled == value.balance_enabled);
    CHECK(back.balance.tracking == value.balance.tracking);
    CHECK(toJson(fromJson<WholeBodyOptions>(toJson(value))).dump() == toJson(value).dump());
  }
  CHECK(toJson(parseJson<WholeBodyOptions>("{}")).dump() == toJson(WholeBodyOptions{}).dump());
  const auto partial = parseJson<WholeBodyOptions>(R"({"balance": {"safety_margin": 0.02}})");
  CHECK(partial.balance.safety_margin == 0.02);
  CHECK(partial.balance.control_period == BalanceOptions{}.control_period);
}

TEST_CASE("json whole body: bad values name the file, line and pointer") {
  checkParseError<WholeBodyOptions>("{\n \"balance\": {\"safety_margin\": -1}\n}", 2, "/balance/safety_margin");
  checkParseError<WholeBodyOptions>("{\"modes\": {\"lift_confirm_time\": 0}}", 1, "/modes/lift_confirm_time");
  checkParseError<WholeBodyOptions>("{\"balance\":\n {\"tracking\": \"speed\"}}", 2, "/balance/tracking");
  checkParseError<WholeBodyOptions>("{\"modes\": {\"locomotion\": {\"turn_threshold\": 4}}}", 1,
                                    "/modes/locomotion/turn_threshold");
  checkParseError<WholeBodyOptions>("{\"balanse\": {}}", 1, "unknown key \"balanse\"");
  checkParseError<WholeBodyOptions>("{\"max_periods_per_frame\": 0}", 1, "/max_periods_per_frame");
}

TEST_CASE("json whole body: the front ends' configurations carry the mapper's options beside the stage's") {
  std::mt19937 rng(78);
  for (int trial = 0; trial < 20; ++trial) {
    const app::GaLvvjWholeBodyOptions ga = randomGaLvvjConfig(rng);
    const std::string ga_text = app::toJson(ga).dump(2);
    CAPTURE(ga_text);
    CHECK(app::toJson(parseJson<app::GaLvvjWholeBodyOptions>(ga_text, "wb.json")).dump() == app::toJson(ga).dump());

    const app::HumanoidWholeBodyOptions hu = randomHumanoidConfig(rng);
    const std::string hu_text = app::toJson(hu).dump(2);
    CAPTURE(hu_text);
    CHECK(app::toJson(parseJson<app::HumanoidWholeBodyOptions>(hu_text, "wb.json")).dump() == app::toJson(hu).dump());
  }
  // GA-LVVJ leans the trunk in the whole body unless the file says otherwise; an empty object is
  // the defaults of both parts.
  CHECK(parseJson<app::GaLvvjWholeBodyOptions>("{}").ga_lvvj.trunk_lean);
  CHECK_FALSE(parseJson<app::GaLvvjWholeBodyOptions>(R"({"ga_lvvj": {"trunk_lean": false}})").ga_lvvj.trunk_lean);
  CHECK(parseJson<app::GaLvvjWholeBodyOptions>(R"({"ga_lvvj": {"leg_fit": false}})").ga_lvvj.trunk_lean);
  CHECK(app::toJson(parseJson<app::HumanoidWholeBodyOptions>("{}")).dump() ==
        app::toJson(app::HumanoidWholeBodyOptions{}).dump());
  checkParseError<app::HumanoidWholeBodyOptions>("{\n \"humanoid\": {\"max_step\": -1}\n}", 2, "/humanoid/max_step");
  checkParseError<app::HumanoidWholeBodyOptions>("{\"ga_lvvj\": {}}", 1, "unknown key \"ga_lvvj\"");
  checkParseError<app::GaLvvjWholeBodyOptions>("{\"balance\":\n {\"safety_margin\": -1}}", 2, "/balance/safety_margin");
}
