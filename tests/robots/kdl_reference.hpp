#pragma once

// Reference forward kinematics from orocos KDL, built from a URDF through kdl_parser, for
// cross-checking retarget's models. KDL knows nothing about mimic joints: callers pass every
// joint's value (retarget's RobotData::joint_values, mimics already resolved) by joint name.

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>

#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl_parser/kdl_parser.hpp>

#include <retarget/kinematics/forward_kinematics.hpp>

namespace retarget::test {

class KdlReference {
 public:
  /// Loads `urdf_path`; returns false when kdl_parser refuses it.
  bool load(const std::string& urdf_path) {
    if (!kdl_parser::treeFromFile(urdf_path, tree_)) return false;
    solver_ = std::make_unique<KDL::TreeFkSolverPos_recursive>(tree_);
    q_.resize(tree_.getNrOfJoints());
    return true;
  }
  const KDL::Tree& tree() const { return tree_; }
  bool hasSegment(const std::string& link) const { return tree_.getSegments().count(link) > 0; }

  /// Sets KDL's joint array from retarget's resolved joint values (after forwardKinematics).
  /// Joints of the tree that `model` does not have are set to 0.
  void setJointValues(const RobotModel<double>& model, const RobotData<double>& data) {
    q_.data.setZero();
    for (const auto& [name, element] : tree_.getSegments()) {
      const KDL::Joint& joint = element.segment.getJoint();
      if (joint.getType() == KDL::Joint::None) continue;
      const int k = model.findJoint(joint.getName());
      if (k >= 0) q_(element.q_nr) = data.joint_values[k];
    }
  }

  /// Pose of link `link` relative to the tree root.
  Isometry3<double> pose(const std::string& link) {
    KDL::Frame frame;
    const int rc = solver_->JntToCart(q_, frame, link);
    REQUIRE_MESSAGE(rc >= 0, "KDL failed on link " << link);
    Isometry3<double> X = Isometry3<double>::Identity();
    for (int r = 0; r < 3; ++r) {
      X.translation()[r] = frame.p(r);
      for (int c = 0; c < 3; ++c) X.linear()(r, c) = frame.M(r, c);
    }
    return X;
  }

 private:
  KDL::Tree tree_;
  std::unique_ptr<KDL::TreeFkSolverPos_recursive> solver_;
  KDL::JntArray q_;
};

/// Uniform random configuration within the limits (unbounded joints: [-pi, pi]).
template <typename Rng>
VectorX<double> randomConfiguration(const RobotModel<double>& model, Rng& rng) {
  VectorX<double> q(model.nq());
  for (int i = 0; i < model.nq(); ++i) {
    double lo = model.lowerLimits()[i];
    double hi = model.upperLimits()[i];
    if (!std::isfinite(lo)) lo = -kPi<double>;
    if (!std::isfinite(hi)) hi = kPi<double>;
    q[i] = std::uniform_real_distribution<double>(lo, hi)(rng);
  }
  return q;
}

}  // namespace retarget::test
