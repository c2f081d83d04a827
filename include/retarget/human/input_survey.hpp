#pragma once

/// @file
/// A survey of a few seconds of skeleton frames, for a person about to drive a robot with them:
/// how often the frames come and how long the gaps between them are, which joints the source
/// tracks, how tall and how wide the body it sees is, and which way it faces. `retarget live
/// --dry-run` prints it before anything is sent to a robot (docs/adapters.md, "Before the robot
/// moves").
///
/// Frames are in the canonical human frame W (metres, x forward, y left, z up; human/frames.hpp),
/// each stamped with its time (s). For a Kinect, W's x points from the person toward the sensor,
/// so a person facing the sensor faces 0 deg.
///
/// Not for the per-frame path: it reads a recorded vector and allocates.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/human/skeleton.hpp>

namespace retarget {

/// Options of `surveyInput`.
struct InputSurveyOptions {
  /// An interval between two frames longer than `gap_factor` times the median interval is a gap
  /// (> 1).
  double gap_factor = 2.0;

  /// Throws InvalidArgument naming the field.
  void validate() const {
    RETARGET_THROW_UNLESS(std::isfinite(gap_factor) && gap_factor > 1.0, InvalidArgument,
                          "InputSurveyOptions.gap_factor must be finite and > 1 (got ", gap_factor, ")");
  }
};

/// What `surveyInput` found. Quantities that no frame could give are NaN.
struct InputSurvey {
  /// Frames surveyed.
  int frames = 0;
  /// Time from the first frame to the last, s.
  double span = 0;
  /// Frame rate, Hz: one over the median interval between consecutive frames (NaN with fewer
  /// than two frames or a zero median interval).
  double rate = std::numeric_limits<double>::quiet_NaN();
  /// Longest interval between consecutive frames, s (0 with fewer than two frames).
  double largest_gap = 0;
  /// Intervals longer than `gap_factor` times the median interval.
  int gaps = 0;
  /// Share of the frames in which each joint (indexed by `HumanJoint`) is tracked (not merely
  /// inferred), and in which it is usable (tracked or inferred, finite), in [0, 1].
  std::array<double, kHumanJointCount> tracked{};
  std::array<double, kHumanJointCount> usable{};
  /// Height of the head joint above the lower of the two ankles (m, along W's z), median over
  /// the frames in which the head and an ankle are usable. A standing adult gives 1.3-1.7 m
  /// (the head joint is at about eye height, the ankle joint about 0.08 m above the floor).
  double head_above_ankles = std::numeric_limits<double>::quiet_NaN();
  /// Distance between the two shoulder joints, m, median over the frames in which both are usable.
  double shoulder_width = std::numeric_limits<double>::quiet_NaN();
  /// Which way the body faces, deg in (-180, 180]: the heading of forward = (ShoulderLeft -
  /// ShoulderRight) x z in W's xy plane, atan2(forward_y, forward_x); 0 = facing +x, positive =
  /// turned toward +y. The circular median over the frames with both shoulders usable.
  double facing = std::numeric_limits<double>::quiet_NaN();
  /// Spread of the facing over those frames, deg: its 90th minus its 10th percentile, measured
  /// from `facing`.
  double facing_spread = std::numeric_limits<double>::quiet_NaN();
  /// Frames with both shoulders usable (the frames `facing` and `shoulder_width` come from).
  int shoulder_frames = 0;
};

/// Surveys `frames` (times in `SkeletonFrame::time`, s, not decreasing; positions in W, m).
/// Throws InvalidArgument for bad options or times that go back or are not finite. Allocates.
RETARGET_DECL InputSurvey surveyInput(const std::vector<SkeletonFrame<double>>& frames,
                                      const InputSurveyOptions& options = {});

#if RETARGET_DEFINE_HUMAN
namespace internal {
// The q-th quantile (q in [0, 1], nearest rank) of `values`, which it reorders; NaN when empty.
inline double surveyQuantile(std::vector<double>& values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const auto rank = static_cast<std::size_t>(std::lround(q * static_cast<double>(values.size() - 1)));
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank), values.end());
  return values[rank];
}
}  // namespace internal

RETARGET_DECL InputSurvey surveyInput(const std::vector<SkeletonFrame<double>>& frames,
                                      const InputSurveyOptions& options) {
  options.validate();
  constexpr double kDegPerRad = 180.0 / 3.14159265358979323846;
  using H = HumanJoint;
  InputSurvey survey;
  survey.frames = static_cast<int>(frames.size());
  if (frames.empty()) return survey;

  std::vector<double> intervals;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    RETARGET_THROW_UNLESS(std::isfinite(frames[i].time), InvalidArgument, "frame ", i,
                          " has a time that is not finite");
    if (i == 0) continue;
    const double dt = frames[i].time - frames[i - 1].time;
    RETARGET_THROW_UNLESS(dt >= 0, InvalidArgument, "frame ", i, " goes back in time (", frames[i].time, " s after ",
                          frames[i - 1].time, " s)");
    intervals.push_back(dt);
  }
  survey.span = frames.back().time - frames.front().time;
  if (!intervals.empty()) {
    survey.largest_gap = *std::max_element(intervals.begin(), intervals.end());
    std::vector<double> sorted = intervals;
    const double median = internal::surveyQuantile(sorted, 0.5);
    if (median > 0) {
      survey.rate = 1.0 / median;
      survey.gaps = static_cast<int>(std::count_if(intervals.begin(), intervals.end(),
                                                   [&](double dt) { return dt > options.gap_factor * median; }));
    }
  }

  std::vector<double> heights, widths, headings;
  for (const SkeletonFrame<double>& frame : frames) {
    for (int j = 0; j < kHumanJointCount; ++j) {
      const auto joint = static_cast<H>(j);
      survey.tracked[static_cast<std::size_t>(j)] += frame.trackingState(joint) == TrackingState::kTracked ? 1.0 : 0.0;
      survey.usable[static_cast<std::size_t>(j)] += frame.usable(joint) ? 1.0 : 0.0;
    }
    if (frame.usable(H::kHead) && (frame.usable(H::kAnkleLeft) || frame.usable(H::kAnkleRight))) {
      double ankle_z = std::numeric_limits<double>::infinity();
      if (frame.usable(H::kAnkleLeft)) ankle_z = std::min(ankle_z, frame.position(H::kAnkleLeft).z());
      if (frame.usable(H::kAnkleRight)) ankle_z = std::min(ankle_z, frame.position(H::kAnkleRight).z());
      heights.push_back(frame.position(H::kHead).z() - ankle_z);
    }
    if (frame.usable(H::kShoulderLeft) && frame.usable(H::kShoulderRight)) {
      const Vector3<double> left = frame.position(H::kShoulderLeft) - frame.position(H::kShoulderRight);
      widths.push_back(left.norm());
      const Vector3<double> forward = left.cross(Vector3<double>::UnitZ());
      if (forward.head<2>().norm() > 1e-9) headings.push_back(std::atan2(forward.y(), forward.x()));
    }
  }
  for (int j = 0; j < kHumanJointCount; ++j) {
    survey.tracked[static_cast<std::size_t>(j)] /= static_cast<double>(frames.size());
    survey.usable[static_cast<std::size_t>(j)] /= static_cast<double>(frames.size());
  }
  survey.head_above_ankles = internal::surveyQuantile(heights, 0.5);
  survey.shoulder_width = internal::surveyQuantile(widths, 0.5);
  survey.shoulder_frames = static_cast<int>(widths.size());
  if (!headings.empty()) {
    // Circular: the headings are measured from their mean direction (so a person facing 180 deg,
    // whose headings straddle -180/+180, is not averaged to 0), then their median and spread.
    double s = 0, c = 0;
    for (double a : headings) s += std::sin(a), c += std::cos(a);
    const double mean = std::atan2(s, c);
    for (double& a : headings) a = std::remainder(a - mean, 2.0 * 3.14159265358979323846);
    const double median = internal::surveyQuantile(headings, 0.5);
    const double p90 = internal::surveyQuantile(headings, 0.9), p10 = internal::surveyQuantile(headings, 0.1);
    double facing = std::remainder(mean + median, 2.0 * 3.14159265358979323846) * kDegPerRad;
    if (facing <= -180.0) facing += 360.0;
    survey.facing = facing;
    survey.facing_spread = (p90 - p10) * kDegPerRad;
  }
  return survey;
}
#endif

}  // namespace retarget
