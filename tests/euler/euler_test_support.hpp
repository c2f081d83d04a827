#pragma once

// Fixtures for the Euler/BVH mapper tests: a small human BVH skeleton built in code (Axis
// Neuron conventions: Y up, facing +Z, T-pose, rotation channels Y X Z), a small robot with
// the joints the test configuration maps, and helpers that set BVH channels from rotations.

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/euler_map.hpp>

namespace retarget::test {

/// The mapping of `robot_joint` in `map` (fails the test case when there is none).
inline const EulerJointMapping& mappingOf(const EulerMap& map, const std::string& robot_joint) {
  for (const auto& m : map.joints) {
    if (m.robot_joint == robot_joint) return m;
  }
  FAIL("configuration " << map.name << " has no entry " << robot_joint);
  return map.joints.front();
}

inline BvhJoint bvhJoint(const std::string& name, int parent, const Eigen::Vector3d& offset,
                         std::vector<BvhChannel> channels) {
  BvhJoint j;
  j.name = name;
  j.parent = parent;
  j.offset = offset;
  j.channels = std::move(channels);
  j.is_end_site = j.channels.empty();
  return j;
}

/// Upper-body human skeleton (cm), `frames` frames of zeros (T-pose), 125 Hz. Rotation
/// channels of the limbs are in the order `order` (e.g. "YXZ" like Axis Neuron).
inline BvhMotion makeHumanSkeleton(int frames, const std::string& order = "YXZ") {
  const EulerOrder o = parseEulerOrder(order);
  std::vector<BvhChannel> rot;
  for (int a : o.axes) rot.push_back(static_cast<BvhChannel>(3 + a));
  std::vector<BvhChannel> root = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition};
  root.insert(root.end(), rot.begin(), rot.end());
  BvhMotion m;
  auto add = [&](const std::string& name, int parent, const Eigen::Vector3d& offset, bool end = false) {
    m.joints.push_back(bvhJoint(name, parent, offset, end ? std::vector<BvhChannel>{} : rot));
    return static_cast<int>(m.joints.size()) - 1;
  };
  m.joints.push_back(bvhJoint("Hips", -1, Eigen::Vector3d(0, 93, 0), root));
  const int spine = add("Spine", 0, {0, 10, 0});
  const int neck = add("Neck", spine, {0, 40, 0});
  const int head = add("Head", neck, {0, 10, 0});
  add("Head_End", head, {0, 15, 0}, true);
  for (int side = 0; side < 2; ++side) {
    const std::string s = side == 0 ? "Left" : "Right";
    const double x = side == 0 ? 1.0 : -1.0;
    const int shoulder = add(s + "Shoulder", spine, {x * 4, 35, 0});
    const int arm = add(s + "Arm", shoulder, {x * 13, 0, 0});
    const int fore = add(s + "ForeArm", arm, {x * 26.5, 0, 0});
    const int hand = add(s + "Hand", fore, {x * 26, 0, 0});
    const char* fingers[] = {"Thumb", "Index", "Middle", "Ring", "Pinky"};
    for (int f = 0; f < 5; ++f) {
      int parent = hand;
      Eigen::Vector3d offset(x * 5, 0, 3.0 - 1.5 * f);
      for (int k = 1; k <= 3; ++k) {
        parent = add(s + "Hand" + fingers[f] + std::to_string(k), parent, offset);
        offset = Eigen::Vector3d(x * (3.5 - 0.5 * k), 0, 0);
      }
      add(s + "Hand" + fingers[f] + "3_End", parent, offset, true);
    }
  }
  m.assignChannelIndices();
  m.frame_time = 0.008;
  m.frame_count = frames;
  m.values.assign(static_cast<std::size_t>(frames) * m.channel_count, 0.0);
  return m;
}

/// Writes the rotation channels of `joint` at frame `f` so that its local rotation is `R`
/// (decomposed with Eigen's own eulerAngles in the joint's channel order).
inline void setLocalRotation(BvhMotion& m, int f, int joint, const Eigen::Matrix3d& R) {
  const BvhJoint& j = m.joints[joint];
  int axes[3];
  int cols[3];
  int n = 0;
  for (std::size_t c = 0; c < j.channels.size(); ++c) {
    if (!isRotation(j.channels[c])) continue;
    axes[n] = bvhChannelAxis(j.channels[c]);
    cols[n] = j.first_channel + static_cast<int>(c);
    ++n;
  }
  const Eigen::Vector3d angles = R.eulerAngles(axes[0], axes[1], axes[2]);
  for (int k = 0; k < 3; ++k) m.frame(f)[cols[k]] = angles[k] * 180.0 / kPi<double>;
}

/// A robot with one revolute joint per name (a chain; the geometry is irrelevant here) and
/// the given limits.
struct TestJoint {
  std::string name;
  double lower;
  double upper;
};
inline RobotModel<double> makeTestRobot(const std::vector<TestJoint>& joints) {
  RobotModelBuilder<double> b("euler_test_robot");
  b.addLink("base");
  std::string parent = "base";
  for (const auto& tj : joints) {
    b.addLink(tj.name + "_link");
    JointSpec<double> spec;
    spec.name = tj.name;
    spec.parent_link = parent;
    spec.child_link = tj.name + "_link";
    spec.limits.lower = tj.lower;
    spec.limits.upper = tj.upper;
    b.addJoint(spec);
    parent = spec.child_link;
  }
  return b.build();
}

inline EulerJointMapping eulerEntry(const std::string& robot, const std::string& source, const std::string& order,
                                    int angle, double sign = 1, double offset = 0) {
  EulerJointMapping m;
  m.robot_joint = robot;
  m.kind = EulerCase::kEuler;
  m.source = {source};
  m.order = parseEulerOrder(order);
  m.angle = angle;
  m.sign = sign;
  m.offset = offset;
  return m;
}

}  // namespace retarget::test
