// surveyTrajectory (kinematics/trajectory_survey.hpp) on a built-in robot: every field of a short
// hand-made trajectory against values worked out by hand, and the refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include <retarget/kinematics/trajectory_survey.hpp>
#include <retarget/robots/nao.hpp>

using namespace retarget;

TEST_CASE("surveyTrajectory: first, range, limits, speed and first step of a hand-made trajectory") {
  const RobotModel<double> model = makeNao<double>();
  const Eigen::VectorXd neutral = model.neutralConfiguration();
  const int i = 0;  // the first coordinate
  const double lower = model.lowerLimits()[i], upper = model.upperLimits()[i];
  REQUIRE(upper - lower > 0.5);
  // Three frames at t = 0, 0.1, 0.3 s: start 0.2 above the lower limit, go to the lower limit,
  // then to 0.1 below the upper limit; every other coordinate stays at neutral.
  std::vector<Eigen::VectorXd> q(3, neutral);
  q[0][i] = lower + 0.2;
  q[1][i] = lower;
  q[2][i] = upper - 0.1;
  const std::vector<double> t = {0.0, 0.1, 0.3};
  const std::vector<CoordinateSurvey> survey = surveyTrajectory(model, q, t);
  REQUIRE(survey.size() == static_cast<std::size_t>(model.nq()));
  const CoordinateSurvey& c = survey[i];
  CHECK(c.first == lower + 0.2);
  CHECK(c.min == lower);
  CHECK(c.max == upper - 0.1);
  CHECK(c.lower == lower);
  CHECK(c.upper == upper);
  CHECK(c.at_limit == 1);
  // Speeds: 0.2 / 0.1 = 2 rad/s, then (upper - 0.1 - lower) / 0.2.
  CHECK(c.largest_speed == doctest::Approx(std::max(2.0, (upper - 0.1 - lower) / 0.2)));
  CHECK(c.velocity_limit == model.velocityLimits()[i]);
  CHECK(c.first_step == doctest::Approx(std::abs(lower + 0.2 - neutral[i])));
  for (int j = 1; j < model.nq(); ++j) {
    CAPTURE(model.qName(j));
    CHECK(survey[static_cast<std::size_t>(j)].largest_speed == 0.0);
    CHECK(survey[static_cast<std::size_t>(j)].first_step == 0.0);
    CHECK(survey[static_cast<std::size_t>(j)].min == survey[static_cast<std::size_t>(j)].max);
  }
  // Two frames at one time: a step without time is an infinite speed, no step is none.
  const std::vector<CoordinateSurvey> same_time = surveyTrajectory(model, {q[0], q[1]}, {0.5, 0.5});
  CHECK(same_time[i].largest_speed == std::numeric_limits<double>::infinity());
  CHECK(same_time[1].largest_speed == 0.0);
}

TEST_CASE("surveyTrajectory: refuses no frames, wrong sizes, non-finite values and time going back") {
  const RobotModel<double> model = makeNao<double>();
  const Eigen::VectorXd neutral = model.neutralConfiguration();
  CHECK_THROWS_AS(surveyTrajectory(model, {}, {}), InvalidArgument);
  CHECK_THROWS_AS(surveyTrajectory(model, {neutral}, {0.0, 1.0}), InvalidArgument);
  CHECK_THROWS_AS(surveyTrajectory(model, {Eigen::VectorXd::Zero(3)}, {0.0}), InvalidArgument);
  Eigen::VectorXd bad = neutral;
  bad[2] = std::nan("");
  CHECK_THROWS_AS(surveyTrajectory(model, {neutral, bad}, {0.0, 0.1}), InvalidArgument);
  CHECK_THROWS_AS(surveyTrajectory(model, {neutral, neutral}, {0.2, 0.1}), InvalidArgument);
  CHECK_THROWS_AS(surveyTrajectory(model, {neutral}, {0.0}, -1.0), InvalidArgument);
}
