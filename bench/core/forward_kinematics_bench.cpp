// Forward kinematics of every link of a 25-coordinate humanoid (NAO-like layout: head 2, arms
// 2 x 6, legs 2 x 6 sharing one hip yaw-pitch coordinate): retarget vs orocos KDL on the same
// tree and configurations. Both compute the pose of all 27 links per call.
//   BM_Core_ForwardKinematics            retarget::forwardKinematics (all links: joint values,
//                                        vectorised cos/sin, one precomputed step per joint)
//   BM_Core_ForwardKinematicsReference   retarget::internal::forwardKinematicsReference, the
//                                        former code path (one Isometry3 product and one
//                                        AngleAxis matrix per joint), for before/after
//   BM_Core_ForwardKinematicsKdlChains   five KDL::ChainFkSolverPos_recursive (torso -> head,
//                                        hands, feet), each filling all of its segment frames;
//                                        the chains share no segment, so every link is computed
//                                        once: the fair comparison
//   BM_Core_ForwardKinematicsKdlTree     KDL::TreeFkSolverPos_recursive once per segment (KDL's
//                                        tree API; it walks from the root for every segment)
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>

#include <retarget/kinematics/forward_kinematics.hpp>

namespace {

using retarget::JointSpec;
using retarget::JointType;
using V3 = Eigen::Vector3d;

struct JointRow {
  std::string name;
  std::string parent;
  std::string child;
  V3 p_PJ;    // joint origin in the parent link frame (m); rotation identity
  V3 axis;    // in the joint frame
};

// NAO H25-like offsets (metres). The right hip yaw-pitch mimics the left one.
std::vector<JointRow> humanoidRows() {
  const double s2 = std::sqrt(0.5);
  std::vector<JointRow> rows = {
      {"HeadYaw", "torso", "neck", V3(0, 0, 0.1265), V3(0, 0, 1)},
      {"HeadPitch", "neck", "head", V3(0, 0, 0), V3(0, 1, 0)},
  };
  for (int side = 0; side < 2; ++side) {
    const double y = side == 0 ? 1.0 : -1.0;
    const std::string p = side == 0 ? "L" : "R";
    auto add = [&](const std::string& joint, const std::string& parent, const std::string& child, const V3& o,
                   const V3& axis) {
      rows.push_back({p + joint, parent == "torso" ? parent : p + parent, p + child, o, axis});
    };
    add("ShoulderPitch", "torso", "Shoulder", V3(0, y * 0.098, 0.1), V3(0, 1, 0));
    add("ShoulderRoll", "Shoulder", "Bicep", V3(0, 0, 0), V3(0, 0, 1));
    add("ElbowYaw", "Bicep", "Elbow", V3(0.105, y * 0.015, 0), V3(1, 0, 0));
    add("ElbowRoll", "Elbow", "ForeArm", V3(0, 0, 0), V3(0, 0, 1));
    add("WristYaw", "ForeArm", "Wrist", V3(0.05595, 0, 0), V3(1, 0, 0));
    add("WristPitch", "Wrist", "Hand", V3(0.0578, 0, -0.01231), V3(0, 1, 0));
    add("HipYawPitch", "torso", "Pelvis", V3(0, y * 0.05, -0.085), V3(0, s2, -y * s2));
    add("HipRoll", "Pelvis", "Hip", V3(0, 0, 0), V3(1, 0, 0));
    add("HipPitch", "Hip", "Thigh", V3(0, 0, 0), V3(0, 1, 0));
    add("KneePitch", "Thigh", "Tibia", V3(0, 0, -0.1), V3(0, 1, 0));
    add("AnklePitch", "Tibia", "Ankle", V3(0, 0, -0.1029), V3(0, 1, 0));
    add("AnkleRoll", "Ankle", "Foot", V3(0, 0, 0), V3(1, 0, 0));
  }
  return rows;
}

retarget::RobotModeld buildModel(const std::vector<JointRow>& rows) {
  retarget::RobotModelBuilder<double> b("bench_humanoid");
  b.addLink("torso", 1.0);
  for (const auto& r : rows) b.addLink(r.child, 0.1);
  for (const auto& r : rows) {
    JointSpec<double> j;
    j.name = r.name;
    j.parent_link = r.parent;
    j.child_link = r.child;
    j.X_PJ.translation() = r.p_PJ;
    j.axis = r.axis;
    j.limits.lower = -2.0;
    j.limits.upper = 2.0;
    if (j.name == "RHipYawPitch") j.mimic = retarget::MimicSpec{"LHipYawPitch", 1.0, 0.0};
    b.addJoint(j);
  }
  return b.build();
}

// KDL segments built the way kdl_parser converts URDF joints: the joint axis goes through the
// joint origin, expressed in the parent frame, and the segment tip is the joint origin.
KDL::Tree buildKdlTree(const std::vector<JointRow>& rows) {
  KDL::Tree tree("torso");
  for (const auto& r : rows) {
    const KDL::Vector origin(r.p_PJ.x(), r.p_PJ.y(), r.p_PJ.z());
    const V3 axis = r.axis.normalized();
    const KDL::Joint joint(r.name, origin, KDL::Vector(axis.x(), axis.y(), axis.z()), KDL::Joint::RotAxis);
    if (!tree.addSegment(KDL::Segment(r.child, joint, KDL::Frame(origin)), r.parent)) std::abort();
  }
  return tree;
}

struct Fixture {
  std::vector<JointRow> rows = humanoidRows();
  retarget::RobotModeld model = buildModel(rows);
  retarget::RobotDatad data{model};
  KDL::Tree tree = buildKdlTree(rows);
  std::vector<std::string> tips = {"head", "LHand", "RHand", "LFoot", "RFoot"};
  std::vector<KDL::Chain> chains;
  std::vector<std::vector<std::string>> chain_links;  // segment names per chain
  std::vector<KDL::ChainFkSolverPos_recursive> chain_solvers;
  std::vector<std::vector<KDL::Frame>> chain_frames;
  std::vector<Eigen::VectorXd> configurations;
  std::vector<std::vector<KDL::JntArray>> chain_q;  // [configuration][chain]
  std::vector<KDL::JntArray> tree_q;                // [configuration]
  std::vector<std::string> segment_names;

  Fixture() {
    if (model.nq() != 25 || model.links().size() != 27) std::abort();
    chains.resize(tips.size());
    for (std::size_t c = 0; c < tips.size(); ++c) {
      if (!tree.getChain("torso", tips[c], chains[c])) std::abort();
      chain_links.emplace_back();
      for (const auto& seg : chains[c].segments) chain_links[c].push_back(seg.getName());
    }
    for (const auto& chain : chains) {
      chain_solvers.emplace_back(chain);
      chain_frames.emplace_back(chain.getNrOfSegments());
    }
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1.5, 1.5);
    for (int k = 0; k < 64; ++k) {
      Eigen::VectorXd q(model.nq());
      for (int i = 0; i < model.nq(); ++i) q[i] = u(rng);
      configurations.push_back(q);
      std::vector<KDL::JntArray> per_chain;
      for (const auto& names : chain_links) {
        KDL::JntArray qc(static_cast<unsigned>(names.size()));
        for (std::size_t s = 0; s < names.size(); ++s) qc(static_cast<unsigned>(s)) = jointValue(q, names[s]);
        per_chain.push_back(qc);
      }
      chain_q.push_back(per_chain);
      KDL::JntArray qt(tree.getNrOfJoints());
      for (const auto& [name, element] : tree.getSegments()) {
        if (element.segment.getJoint().getType() != KDL::Joint::None) {
          qt(GetTreeElementQNr(element)) = jointValue(q, name);
        }
      }
      tree_q.push_back(qt);
    }
    for (const auto& [name, element] : tree.getSegments()) {
      if (name != "torso") segment_names.push_back(name);
    }
    checkAgreement();
  }

  // Value of the joint whose child link is `link` (the mimic joint follows its driver).
  double jointValue(const Eigen::VectorXd& q, const std::string& link) const {
    const int j = model.links()[model.linkIndex(link)].parent_joint;
    const auto& joint = model.joints()[j];
    return joint.q_index >= 0 ? q[joint.q_index] : joint.mimic_multiplier * q[joint.mimic_q_index] + joint.mimic_offset;
  }

  // All implementations must give the same poses, or the comparison means nothing.
  void checkAgreement() {
    retarget::RobotDatad reference(model);
    retarget::internal::forwardKinematicsReference(model, reference, configurations[0]);
    retarget::forwardKinematics(model, data, configurations[0]);
    for (std::size_t i = 0; i < data.X_WL.size(); ++i) {
      const double err = (data.X_WL[i].matrix() - reference.X_WL[i].matrix()).cwiseAbs().maxCoeff();
      if (err > 1e-12) {
        std::fprintf(stderr, "forwardKinematics and its reference disagree on link %zu by %g\n", i, err);
        std::abort();
      }
    }
    for (std::size_t c = 0; c < chains.size(); ++c) {
      chain_solvers[c].JntToCart(chain_q[0][c], chain_frames[c]);
      for (std::size_t s = 0; s < chain_links[c].size(); ++s) {
        const KDL::Frame& F = chain_frames[c][s];
        const Eigen::Isometry3d& X = data.X_WL[model.linkIndex(chain_links[c][s])];
        double err = 0;
        for (int r = 0; r < 3; ++r) {
          err = std::max(err, std::abs(F.p(r) - X.translation()[r]));
          for (int k = 0; k < 3; ++k) err = std::max(err, std::abs(F.M(r, k) - X.linear()(r, k)));
        }
        if (err > 1e-12) {
          std::fprintf(stderr, "KDL and retarget disagree on link %s by %g\n", chain_links[c][s].c_str(), err);
          std::abort();
        }
      }
    }
  }
};

Fixture& fixture() {
  static Fixture instance;
  return instance;
}

void BM_Core_ForwardKinematics(benchmark::State& state) {
  Fixture& f = fixture();
  std::size_t k = 0;
  for (auto _ : state) {
    retarget::forwardKinematics(f.model, f.data, f.configurations[k]);
    benchmark::DoNotOptimize(f.data.X_WL.data());
    benchmark::ClobberMemory();
    k = (k + 1) % f.configurations.size();
  }
  state.counters["links"] = static_cast<double>(f.model.links().size());
}
BENCHMARK(BM_Core_ForwardKinematics);

void BM_Core_ForwardKinematicsReference(benchmark::State& state) {
  Fixture& f = fixture();
  std::size_t k = 0;
  for (auto _ : state) {
    retarget::internal::forwardKinematicsReference(f.model, f.data, f.configurations[k]);
    benchmark::DoNotOptimize(f.data.X_WL.data());
    benchmark::ClobberMemory();
    k = (k + 1) % f.configurations.size();
  }
}
BENCHMARK(BM_Core_ForwardKinematicsReference);

void BM_Core_ForwardKinematicsKdlChains(benchmark::State& state) {
  Fixture& f = fixture();
  std::size_t k = 0;
  for (auto _ : state) {
    for (std::size_t c = 0; c < f.chains.size(); ++c) {
      f.chain_solvers[c].JntToCart(f.chain_q[k][c], f.chain_frames[c]);
      benchmark::DoNotOptimize(f.chain_frames[c].data());
    }
    benchmark::ClobberMemory();
    k = (k + 1) % f.configurations.size();
  }
}
BENCHMARK(BM_Core_ForwardKinematicsKdlChains);

void BM_Core_ForwardKinematicsKdlTree(benchmark::State& state) {
  Fixture& f = fixture();
  KDL::TreeFkSolverPos_recursive solver(f.tree);
  KDL::Frame frame;
  std::size_t k = 0;
  for (auto _ : state) {
    for (const auto& name : f.segment_names) {
      solver.JntToCart(f.tree_q[k], frame, name);
      benchmark::DoNotOptimize(frame);
    }
    k = (k + 1) % f.configurations.size();
  }
}
BENCHMARK(BM_Core_ForwardKinematicsKdlTree);

}  // namespace
