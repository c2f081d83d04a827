// Triangle arm mapping (seed 001) of every shared Kinect v2 recording onto Tangy: continuity.
// Tangy's joints span exactly +-pi, and ordinary poses sit on that wrap (the left shoulder yaw
// is pi with the arm hanging and the forearm forward), so plain mapping jumped by up to 2 pi in
// one frame. The mapper now takes, among the equivalent solutions within the limits, the one
// nearest the previous frame, and reports kDiscontinuity only where the limits force a jump.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <optional>
#include <vector>

#include <retarget/human/torso_frames.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/robots/tangy.hpp>

#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

/// The largest joint step (rad) between frames that needs no explanation (15 rad/s at 30 Hz).
constexpr double kMaxStep = 0.5;
/// A larger step must be a discontinuity the mapper reported (forced by the limits), or be
/// warranted by the input: the human's upper arm or forearm itself turned (in the torso frame,
/// as the mapper sees it) by at least 1/8 of the step in that frame. Near a straight arm the exact shoulder yaw turns by the forearm's
/// turn / sin(bend), so a Kinect forearm jumping 0.3 rad in one frame (seated Keraal takes,
/// arms nearly straight) turns it by 1 rad or more; the mapper lags it only as far as its pose
/// error allows (TriangleOptions::lag_error).
constexpr double kWarrantedGain = 8.0;

using V3 = Eigen::Vector3d;

double turned(const V3& a, const V3& b) { return std::acos(std::min(1.0, std::max(-1.0, a.dot(b)))); }

}  // namespace

TEST_CASE("triangle real data: every Kinect recording maps onto Tangy without unreported jumps") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir / "kinect")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  CHECK(files.size() == 7);  // MANIFEST.md: 7 Kinect v2 recordings (5 LabanotationSuite, 2 Keraal)
  const RobotModel<double> tangy = makeTangy<double>();
  std::ostringstream discontinuities;
  int reported = 0;
  for (const auto& path : files) {
    const std::string name = path.filename().string();
    CAPTURE(name);
    const SkeletonMotion<double> motion = readKinect(path.string());
    REQUIRE(!motion.empty());
    TriangleMapper<double> mapper(tangy, tangyTriangleMap());
    Eigen::VectorXd q(tangy.nq()), previous(tangy.nq());
    std::array<V3, 4> links{}, previous_links{};  // left upper arm, forearm, right upper arm, forearm
    double largest = 0, largest_unexplained = 0;
    int unexplained = 0, warranted = 0, mapped = 0;
    for (std::size_t k = 0; k < motion.size(); ++k) {
      const SkeletonFrame<double>& frame = motion.frames[k];
      const Status status = mapper.map(frame, q);
      REQUIRE(q.allFinite());
      if (!status.has(StatusCode::kDegenerateInput)) ++mapped;
      using H = HumanJoint;
      const std::array<H, 6> arm{H::kShoulderLeft, H::kElbowLeft, H::kWristLeft, H::kShoulderRight, H::kElbowRight,
                                 H::kWristRight};
      // The arm links in the torso frame, as the mapper sees them (a turning torso turns them).
      const std::optional<Eigen::Matrix3d> R_WT =
          torsoFrame(frame, H::kSpineMid, H::kSpineShoulder, H::kShoulderRight, H::kShoulderLeft);
      for (std::size_t i = 0; i < 4; ++i) {
        const std::size_t from = i < 2 ? i : i + 1;
        const V3 link = frame.position(arm[from + 1]) - frame.position(arm[from]);
        links[i] = (R_WT ? V3(R_WT->transpose() * link) : link).normalized();
      }
      if (k > 0) {
        for (int side = 0; side < 2; ++side) {
          const int q0 = tangy.qIndex(side == 0 ? "l_shoulder_roll" : "r_shoulder_roll");
          REQUIRE(q0 >= 0);
          Eigen::Index joint = 0;
          const double step = (q - previous).segment(q0, 4).cwiseAbs().maxCoeff(&joint);
          const int i = q0 + static_cast<int>(joint);
          const auto s = static_cast<std::size_t>(2 * side);
          const double input_turn = std::max(turned(links[s], previous_links[s]), turned(links[s + 1], previous_links[s + 1]));
          largest = std::max(largest, step);
          if (status.has(StatusCode::kDiscontinuity) && step > kMaxStep) {
            ++reported;
            discontinuities << "  " << name << " frame " << k << ": " << tangy.qName(i) << " " << previous[i] << " -> "
                            << q[i] << " (input turned " << input_turn << " rad)\n";
          } else if (step > kMaxStep && step <= kWarrantedGain * input_turn) {
            ++warranted;
          } else if (step > kMaxStep) {
            ++unexplained;
            largest_unexplained = std::max(largest_unexplained, step);
            if (unexplained <= 3) {
              INFO("frame " << k << ": " << tangy.qName(i) << " " << previous[i] << " -> " << q[i] << ", input turned "
                            << input_turn << " rad, status " << status.toString());
              CHECK(step <= kMaxStep);
            }
          }
        }
      }
      previous = q;
      previous_links = links;
    }
    MESSAGE(name << ": " << motion.size() << " frames (" << mapped << " mapped), largest joint step " << largest
                 << " rad; steps above " << kMaxStep << " rad: " << warranted << " warranted by the input, "
                 << unexplained << " unexplained (largest " << largest_unexplained << " rad)");
    CHECK(unexplained == 0);
    CHECK(mapped > static_cast<int>(motion.size()) / 2);  // the recording was really mapped
  }
  MESSAGE("discontinuities reported (forced by Tangy's +-pi limits): " << reported << "\n" << discontinuities.str());
}
