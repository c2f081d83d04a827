// surveyInput (human/input_survey.hpp): the rate, gaps, tracking shares, body size and facing of
// a stream, checked against what the generated motions are made with (their rate, the body
// model's heights and widths) and against a known rotation of the whole stream.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <retarget/human/demo_motions.hpp>
#include <retarget/human/input_survey.hpp>

using namespace retarget;
using J = HumanJoint;

namespace {

std::vector<SkeletonFrame<double>> wave(double rate = 30.0, double height = 1.75) {
  DemoMotionOptions options;
  options.rate = rate;
  options.duration = 4.0;
  options.body_height = height;
  return demoMotion("wave", options).frames;
}

// The whole stream turned by `angle` (rad) about W's z.
void turn(std::vector<SkeletonFrame<double>>& frames, double angle) {
  const Eigen::Matrix3d R = Eigen::AngleAxisd(angle, Eigen::Vector3d::UnitZ()).toRotationMatrix();
  for (auto& frame : frames) {
    for (auto& p : frame.p_W) p = R * p;
  }
}

}  // namespace

TEST_CASE("surveyInput: rate, gaps and the largest gap of a stream with frames removed") {
  std::vector<SkeletonFrame<double>> frames = wave(30.0);
  const InputSurvey whole = surveyInput(frames);
  CHECK(whole.frames == static_cast<int>(frames.size()));
  CHECK(whole.rate == doctest::Approx(30.0).epsilon(1e-9));
  CHECK(whole.gaps == 0);
  CHECK(whole.largest_gap == doctest::Approx(1.0 / 30.0).epsilon(1e-9));
  CHECK(whole.span == doctest::Approx(4.0).epsilon(1e-9));
  // A hole of 5 frames (one interval 6 times the median: a gap) and one late frame (intervals
  // 1.5 and 0.5 times the median: no gap).
  frames.erase(frames.begin() + 40, frames.begin() + 45);
  frames[80].time += 0.5 / 30.0;
  const InputSurvey holed = surveyInput(frames);
  CHECK(holed.rate == doctest::Approx(30.0).epsilon(1e-9));
  CHECK(holed.gaps == 1);
  CHECK(holed.largest_gap == doctest::Approx(6.0 / 30.0).epsilon(1e-9));
}

TEST_CASE("surveyInput: body size from the body model, for two heights") {
  for (const double height : {1.55, 1.85}) {
    CAPTURE(height);
    const std::vector<SkeletonFrame<double>> frames = wave(30.0, height);
    const HumanBodyModel body = HumanBodyModel::fromHeight(height);
    const InputSurvey survey = surveyInput(frames);
    // The wave stands still: head above the ankles and shoulder width are the model's own.
    CHECK(survey.head_above_ankles == doctest::Approx(body.head_height - body.ankleHeight()).epsilon(1e-6));
    CHECK(survey.head_above_ankles > 0.75 * height);
    CHECK(survey.head_above_ankles < height);
    CHECK(survey.shoulder_width == doctest::Approx(2.0 * body.shoulder_half_width).epsilon(1e-6));
    CHECK(survey.shoulder_frames == survey.frames);
  }
}

TEST_CASE("surveyInput: the facing follows a turn of the whole stream, across +-180 deg") {
  for (const double degrees : {0.0, 30.0, -75.0, 179.0, -179.0, 180.0}) {
    CAPTURE(degrees);
    std::vector<SkeletonFrame<double>> frames = wave();
    turn(frames, degrees * M_PI / 180.0);
    const InputSurvey survey = surveyInput(frames);
    // 180 and -180 are the same heading: compare on the circle.
    CHECK(std::abs(std::remainder(survey.facing - degrees, 360.0)) < 1e-6);
    CHECK(survey.facing > -180.0);
    CHECK(survey.facing <= 180.0);
    // The wave does not turn the shoulders: no spread, whichever way it faces.
    CHECK(survey.facing_spread < 1e-6);
  }
}

TEST_CASE("surveyInput: tracking shares count tracked, inferred and lost joints apart") {
  std::vector<SkeletonFrame<double>> frames = wave();
  const int n = static_cast<int>(frames.size());
  for (int k = 0; k < n; ++k) {
    auto& frame = frames[static_cast<std::size_t>(k)];
    if (k % 4 == 0) frame.trackingState(J::kHandLeft) = TrackingState::kInferred;
    if (k % 2 == 0) frame.trackingState(J::kFootRight) = TrackingState::kNotTracked;
    if (k == 0) frame.position(J::kHead).x() = std::nan("");
  }
  const InputSurvey survey = surveyInput(frames);
  const auto share = [&](int count) { return static_cast<double>(count) / n; };
  CHECK(survey.tracked[index(J::kHandLeft)] == doctest::Approx(share(n - (n + 3) / 4)));
  CHECK(survey.usable[index(J::kHandLeft)] == doctest::Approx(1.0));
  CHECK(survey.tracked[index(J::kFootRight)] == doctest::Approx(share(n / 2)));
  CHECK(survey.usable[index(J::kFootRight)] == doctest::Approx(share(n / 2)));
  // A non-finite head is tracked but not usable, and that frame gives no height.
  CHECK(survey.tracked[index(J::kHead)] == doctest::Approx(1.0));
  CHECK(survey.usable[index(J::kHead)] == doctest::Approx(share(n - 1)));
  CHECK(std::isfinite(survey.head_above_ankles));
}

TEST_CASE("surveyInput: empty input, one frame, and bad times") {
  const InputSurvey none = surveyInput({});
  CHECK(none.frames == 0);
  CHECK(std::isnan(none.rate));
  CHECK(std::isnan(none.facing));
  std::vector<SkeletonFrame<double>> frames = wave();
  frames.resize(1);
  const InputSurvey one = surveyInput(frames);
  CHECK(std::isnan(one.rate));
  CHECK(one.largest_gap == 0);
  CHECK(std::isfinite(one.facing));
  frames = wave();
  frames[10].time = frames[8].time;
  CHECK_THROWS_AS(surveyInput(frames), InvalidArgument);
  frames = wave();
  frames[3].time = std::nan("");
  CHECK_THROWS_AS(surveyInput(frames), InvalidArgument);
  CHECK_THROWS_AS(surveyInput(wave(), InputSurveyOptions{1.0}), InvalidArgument);
}
