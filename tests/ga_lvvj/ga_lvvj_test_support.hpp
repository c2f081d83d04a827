#pragma once

// Helpers shared by the GA-LVVJ tests: random regular NAO configurations, mirroring of
// skeletons and of NAO configurations, jittered (human-like) skeletons.

#include <cctype>
#include <random>
#include <string>
#include <vector>

#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>

namespace retarget::test {

/// q indices of the joints a GA-LVVJ map binds.
template <typename Scalar>
std::vector<int> mappedCoordinates(const RobotModel<Scalar>& model, const GaLvvjMap& map) {
  std::vector<int> out;
  for (const auto& b : map.joints) {
    if (!b.joint.empty() && model.findQ(b.joint) >= 0) out.push_back(model.findQ(b.joint));
  }
  return out;
}

/// A uniformly random NAO configuration within limits, LHipYawPitch = 0 (GA-LVVJ holds it),
/// hands exactly open or closed, and away from the documented singularities: |ElbowRoll| >= 0.06
/// rad (straight elbow), HipPitch >= -1.50 rad (thigh horizontal). NAO's ShoulderRoll range
/// keeps |cos ShoulderRoll| >= 0.24 on its own.
inline Eigen::VectorXd randomRegularNao(const RobotModel<double>& nao, std::mt19937& rng) {
  Eigen::VectorXd q(nao.nq());
  for (int i = 0; i < nao.nq(); ++i) {
    std::uniform_real_distribution<double> d(nao.lowerLimits()[i], nao.upperLimits()[i]);
    q[i] = d(rng);
  }
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  q[nao.qIndex("LHipYawPitch")] = 0.0;
  q[nao.qIndex("LElbowRoll")] = uniform(nao.lowerLimits()[nao.qIndex("LElbowRoll")], -0.06);
  q[nao.qIndex("RElbowRoll")] = uniform(0.06, nao.upperLimits()[nao.qIndex("RElbowRoll")]);
  q[nao.qIndex("LHipPitch")] = uniform(-1.50, nao.upperLimits()[nao.qIndex("LHipPitch")]);
  q[nao.qIndex("RHipPitch")] = uniform(-1.50, nao.upperLimits()[nao.qIndex("RHipPitch")]);
  q[nao.qIndex("LHand")] = (rng() & 1u) ? 1.0 : 0.0;
  q[nao.qIndex("RHand")] = (rng() & 1u) ? 1.0 : 0.0;
  return q;
}

/// Name of the mirror-image joint (leading L <-> R), the name itself for centre joints.
inline std::string mirroredJointName(const std::string& name) {
  if (name.size() > 1 && (name[0] == 'L' || name[0] == 'R') && std::isupper(static_cast<unsigned char>(name[1]))) {
    return std::string(1, name[0] == 'L' ? 'R' : 'L') + name.substr(1);
  }
  return name;
}

/// NAO's sign of a joint under the left/right mirror: rolls and yaws (about x or z) flip,
/// pitches (about y), the hip yaw-pitch (shared motor) and the hands keep their sign.
inline double mirrorSignOf(const std::string& name) {
  if (name.find("YawPitch") != std::string::npos) return 1.0;
  return (name.find("Roll") != std::string::npos || name.find("Yaw") != std::string::npos) ? -1.0 : 1.0;
}

/// The configuration of the mirror-image posture.
inline Eigen::VectorXd mirroredNaoConfiguration(const RobotModel<double>& nao, const Eigen::VectorXd& q) {
  Eigen::VectorXd out(nao.nq());
  for (int i = 0; i < nao.nq(); ++i) {
    const std::string name = nao.qName(i);
    const int j = nao.findQ(mirroredJointName(name));
    out[i] = mirrorSignOf(name) * q[j >= 0 ? j : i];
  }
  return out;
}

/// Index of the mirror-image virtual joint and its sign.
inline int mirroredVirtualJoint(int j) {
  const std::string name = mirroredJointName(kGaLvvjJointNames[static_cast<std::size_t>(j)]);
  for (int k = 0; k < kGaLvvjJointCount; ++k) {
    if (name == kGaLvvjJointNames[static_cast<std::size_t>(k)]) return k;
  }
  return j;  // LHipYawPitch: one motor for both sides
}
inline double mirrorSign(int j) { return mirrorSignOf(kGaLvvjJointNames[static_cast<std::size_t>(j)]); }

/// The mirror image of a frame in the sagittal plane (y -> -y), left and right swapped.
template <typename Scalar>
SkeletonFrame<Scalar> mirroredFrame(const SkeletonFrame<Scalar>& in) {
  SkeletonFrame<Scalar> out = in;
  for (int j = 0; j < kHumanJointCount; ++j) {
    const auto joint = static_cast<HumanJoint>(j);
    const auto m = mirrored(joint);
    out.position(m) = in.position(joint);
    out.position(m)[1] = -in.position(joint)[1];
    out.trackingState(m) = in.trackingState(joint);
  }
  out.left_hand = in.right_hand;
  out.right_hand = in.left_hand;
  if (in.head) out.head = HeadAngles<Scalar>{-in.head->yaw, in.head->pitch};
  return out;
}

/// Every point moved by a uniform random offset in [-amplitude, amplitude]^3 (m): a skeleton
/// whose link vectors no longer fit the robot exactly (non-rigid torso, any angles).
template <typename Scalar>
SkeletonFrame<Scalar> jitteredFrame(const SkeletonFrame<Scalar>& in, std::mt19937& rng, double amplitude) {
  std::uniform_real_distribution<double> d(-amplitude, amplitude);
  SkeletonFrame<Scalar> out = in;
  for (auto& p : out.p_W) p += Vector3<Scalar>(Scalar(d(rng)), Scalar(d(rng)), Scalar(d(rng)));
  return out;
}

}  // namespace retarget::test
