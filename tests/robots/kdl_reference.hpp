#pragma once

// Reference forward kinematics from orocos KDL, built from a URDF through kdl_parser, for
// cross-checking retarget's models. KDL knows nothing about mimic joints, and the reference
// must not take them from the library either: UrdfFacts reads every joint's <mimic>, <limit>
// and every link's <inertial> straight from the URDF (tinyxml2, no retarget code), and
// KdlReference::setConfiguration resolves mimic joints from those facts.

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>

#include <tinyxml2.h>

#include <kdl/frames.hpp>
#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl_parser/kdl_parser.hpp>

#include <retarget/kinematics/forward_kinematics.hpp>

#include "support/random_configuration.hpp"

namespace retarget::test {

/// What a URDF says about its joints and links, read with tinyxml2 only.
struct UrdfFacts {
  struct Mimic {
    std::string driver;
    double multiplier = 1.0;
    double offset = 0.0;
  };
  struct JointFacts {
    std::string type;
    std::optional<double> lower, upper, velocity;  // absent attributes stay empty
    std::optional<Mimic> mimic;
  };
  struct LinkFacts {
    std::optional<double> mass;  // absent without <inertial>
    Eigen::Vector3d com = Eigen::Vector3d::Zero();
  };
  std::map<std::string, JointFacts> joints;
  std::map<std::string, LinkFacts> links;
  int mimic_count = 0;

  /// Reads `urdf_path`; false when it does not parse.
  bool load(const std::string& urdf_path) {
    tinyxml2::XMLDocument doc;
    if (doc.LoadFile(urdf_path.c_str()) != tinyxml2::XML_SUCCESS) return false;
    const tinyxml2::XMLElement* robot = doc.FirstChildElement("robot");
    if (robot == nullptr) return false;
    const auto attribute = [](const tinyxml2::XMLElement* e, const char* name) -> std::optional<double> {
      if (e == nullptr || e->Attribute(name) == nullptr) return std::nullopt;
      return std::stod(e->Attribute(name));
    };
    for (const auto* j = robot->FirstChildElement("joint"); j != nullptr; j = j->NextSiblingElement("joint")) {
      JointFacts facts;
      facts.type = j->Attribute("type") ? j->Attribute("type") : "";
      const auto* limit = j->FirstChildElement("limit");
      facts.lower = attribute(limit, "lower");
      facts.upper = attribute(limit, "upper");
      facts.velocity = attribute(limit, "velocity");
      if (const auto* m = j->FirstChildElement("mimic")) {
        facts.mimic = Mimic{m->Attribute("joint"), attribute(m, "multiplier").value_or(1.0),
                            attribute(m, "offset").value_or(0.0)};
        ++mimic_count;
      }
      joints[j->Attribute("name")] = facts;
    }
    for (const auto* l = robot->FirstChildElement("link"); l != nullptr; l = l->NextSiblingElement("link")) {
      LinkFacts facts;
      if (const auto* inertial = l->FirstChildElement("inertial")) {
        facts.mass = attribute(inertial->FirstChildElement("mass"), "value");
        if (const auto* origin = inertial->FirstChildElement("origin"); origin && origin->Attribute("xyz")) {
          std::istringstream in(origin->Attribute("xyz"));
          in >> facts.com.x() >> facts.com.y() >> facts.com.z();
        }
      }
      links[l->Attribute("name")] = facts;
    }
    return true;
  }

  /// Value of URDF joint `name` for the model configuration `q`: q's coordinate of the same
  /// name, a mimic resolved through the URDF's own <mimic> (recursively), else 0.
  double jointValue(const RobotModel<double>& model, const VectorX<double>& q, const std::string& name,
                    int depth = 0) const {
    const int i = model.findQ(name);
    if (i >= 0) return q[i];
    const auto it = joints.find(name);
    if (it == joints.end() || !it->second.mimic || depth > 8) return 0.0;
    const Mimic& m = *it->second.mimic;
    return m.multiplier * jointValue(model, q, m.driver, depth + 1) + m.offset;
  }
};

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

  /// Sets KDL's joint array from the model configuration `q` by joint name, mimic joints
  /// resolved from the URDF's own <mimic> elements (`facts`), every other joint at 0.
  void setConfiguration(const RobotModel<double>& model, const VectorX<double>& q, const UrdfFacts& facts) {
    q_.data.setZero();
    for (const auto& [name, element] : tree_.getSegments()) {
      const KDL::Joint& joint = element.segment.getJoint();
      if (joint.getType() == KDL::Joint::None) continue;
      q_(element.q_nr) = facts.jointValue(model, q, joint.getName());
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

/// A URDF read apart from the library, both ways: its facts (tinyxml2) and its KDL tree.
struct UrdfReference {
  UrdfFacts facts;
  KdlReference kdl;

  /// Loads `urdf_path` into both; false when either refuses it.
  bool load(const std::string& urdf_path) { return facts.load(urdf_path) && kdl.load(urdf_path); }
  /// KDL's joints from the model configuration `q` (KdlReference::setConfiguration).
  void setConfiguration(const RobotModel<double>& model, const VectorX<double>& q) {
    kdl.setConfiguration(model, q, facts);
  }
};

}  // namespace retarget::test
