// A downstream program: builds a two-joint arm, runs forward kinematics, and checks the tip.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

// The headers it uses, not the umbrella: the packaging tests build this file ten times.
#include <retarget/kinematics/denavit_hartenberg.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/version.hpp>

int main() {
  using retarget::DhRow;
  std::vector<DhRow<double>> rows(2);
  rows[0].joint_name = "shoulder";
  rows[0].a = 0.3;
  rows[0].limits = {-3.0, 3.0};
  rows[1].joint_name = "elbow";
  rows[1].a = 0.2;
  rows[1].limits = {-3.0, 3.0};
  const auto model = retarget::robotFromDh("arm", rows, retarget::DhConvention::kStandard);
  retarget::RobotData<double> data(model);
  Eigen::Vector2d q(0.0, M_PI / 2);
  retarget::forwardKinematics(model, data, q);
  const Eigen::Vector3d tip = data.X_WL[model.linkIndex("link2")].translation();
  std::printf("retarget %s: tip at (%.3f, %.3f, %.3f)\n", retarget::kVersionString, tip.x(), tip.y(), tip.z());
#ifdef RETARGET_CONSUMER_EXPECT_VERSION
  // The headers' version is the CMake package's (tests/package: one version in version.hpp).
  if (std::strcmp(retarget::kVersionString, RETARGET_CONSUMER_EXPECT_VERSION) != 0) {
    std::printf("retarget headers say %s, expected %s\n", retarget::kVersionString, RETARGET_CONSUMER_EXPECT_VERSION);
    return 1;
  }
#endif
  return (tip - Eigen::Vector3d(0.3, 0.2, 0.0)).norm() < 1e-12 ? 0 : 1;
}
