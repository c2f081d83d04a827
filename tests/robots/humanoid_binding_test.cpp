// Automatic humanoid binding (robots/humanoid_binding.hpp): NAO and Pepper agree with their
// hand-written GA-LVVJ maps, the Unitree G1 and H1 bind with the right sides, and the binding
// depends on topology and geometry, not on names or on which link is the URDF root (models
// renamed to neutral names, re-rooted at a foot or a hand, without a head, without a waist).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <retarget/io/urdf.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/robot_skeleton.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/test_support.hpp"

namespace retarget {
namespace {

RobotModel<double> loadSharedRobot(const std::filesystem::path& data_dir, const char* file) {
  return loadUrdf<double>(data_dir / "urdf" / file).model;
}

/// Rest-pose position (root frame) of every point of a virtual skeleton, by name.
std::map<std::string, Eigen::Vector3d> restPoints(const RobotModel<double>& model, const VirtualSkeletonMap& map) {
  VirtualSkeleton<double> skeleton(model, map);
  SkeletonFrame<double> frame;
  REQUIRE(skeleton.compute(model.neutralConfiguration(), frame).ok());
  std::map<std::string, Eigen::Vector3d> out;
  for (const auto& spec : map.points)
    out[std::string(name(spec.joint))] = frame.p_W[static_cast<std::size_t>(spec.joint)];
  return out;
}

// ---- model transforms (what a URDF edited by hand would give) ---------------------------------

/// A copy of `model` built from specs, with `edit` applied to the joint specs first.
template <typename Edit>
RobotModel<double> humanoidRebuild(const RobotModel<double>& model, Edit&& edit, const std::string& name = "copy") {
  std::vector<LinkSpec<double>> links;
  for (const auto& l : model.links()) links.push_back(LinkSpec<double>{l.name, l.inertial, l.collisions});
  std::vector<JointSpec<double>> joints;
  for (const auto& j : model.joints()) {
    JointSpec<double> s;
    s.name = j.name;
    s.type = j.type;
    s.parent_link = model.links()[static_cast<std::size_t>(j.parent_link)].name;
    s.child_link = model.links()[static_cast<std::size_t>(j.child_link)].name;
    s.X_PJ = j.X_PJ;
    s.axis = j.axis;
    s.X_JC = j.X_JC;
    s.limits = j.limits;
    if (j.isMimic()) {
      s.mimic = MimicSpec{model.qName(j.mimic_q_index), j.mimic_multiplier, j.mimic_offset};
    }
    joints.push_back(s);
  }
  edit(links, joints);
  RobotModelBuilder<double> builder(name);
  for (auto& l : links) builder.addLink(l);
  for (auto& j : joints) builder.addJoint(j);
  return builder.build();
}

/// Links and joints renamed "link_07" / "joint_12" (in a shuffled order), so that only topology
/// and geometry remain. `names` receives old -> new.
RobotModel<double> humanoidRenamed(const RobotModel<double>& model, std::map<std::string, std::string>& names) {
  std::mt19937 rng(7);
  std::vector<std::size_t> link_order(model.links().size()), joint_order(model.joints().size());
  for (std::size_t i = 0; i < link_order.size(); ++i) link_order[i] = i;
  for (std::size_t i = 0; i < joint_order.size(); ++i) joint_order[i] = i;
  std::shuffle(link_order.begin(), link_order.end(), rng);
  std::shuffle(joint_order.begin(), joint_order.end(), rng);
  char buffer[32];
  for (std::size_t i = 0; i < link_order.size(); ++i) {
    std::snprintf(buffer, sizeof(buffer), "link_%02zu", i);
    names[model.links()[link_order[i]].name] = buffer;
  }
  for (std::size_t i = 0; i < joint_order.size(); ++i) {
    std::snprintf(buffer, sizeof(buffer), "joint_%02zu", i);
    names[model.joints()[joint_order[i]].name] = buffer;
  }
  return humanoidRebuild(model, [&](std::vector<LinkSpec<double>>& links, std::vector<JointSpec<double>>& joints) {
    for (auto& l : links) l.name = names.at(l.name);
    for (auto& j : joints) {
      j.name = names.at(j.name);
      j.parent_link = names.at(j.parent_link);
      j.child_link = names.at(j.child_link);
      if (j.mimic) j.mimic->driver = names.at(j.mimic->driver);
    }
  });
}

/// `model` re-rooted at link `root`: the joints on the path from `root` to the old root are
/// reversed (parent and child swapped, axis negated so that the same q gives the same pose) and
/// every link on that path takes the frame of the joint it used to hang its child from, as a URDF
/// written from the new root would. Poses of all links relative to each other are unchanged.
RobotModel<double> humanoidRerooted(const RobotModel<double>& model, const std::string& root) {
  const auto& links = model.links();
  const auto& joints = model.joints();
  // Path from the new root up to the old root: the parent joints along it.
  std::vector<int> path;
  for (int l = model.linkIndex(root); links[static_cast<std::size_t>(l)].parent_joint >= 0;) {
    const int j = links[static_cast<std::size_t>(l)].parent_joint;
    path.push_back(j);
    l = joints[static_cast<std::size_t>(j)].parent_link;
  }
  const std::set<int> reversed(path.begin(), path.end());
  // New frame of each link in its old frame: X_LL'.
  std::vector<Eigen::Isometry3d> X_new(links.size(), Eigen::Isometry3d::Identity());
  for (int j : path) X_new[static_cast<std::size_t>(joints[static_cast<std::size_t>(j)].parent_link)] = joints[static_cast<std::size_t>(j)].X_PJ;
  return humanoidRebuild(model, [&](std::vector<LinkSpec<double>>& link_specs, std::vector<JointSpec<double>>& joint_specs) {
    for (std::size_t i = 0; i < link_specs.size(); ++i) {
      const Eigen::Isometry3d X_inv = X_new[i].inverse();
      link_specs[i].inertial.p_LCm = X_inv * link_specs[i].inertial.p_LCm;
      for (auto& shape : link_specs[i].collisions) {
        shape.capsule_L.a = X_inv * shape.capsule_L.a;
        shape.capsule_L.b = X_inv * shape.capsule_L.b;
      }
    }
    for (std::size_t k = 0; k < joint_specs.size(); ++k) {
      auto& s = joint_specs[k];
      const auto& j = joints[k];
      if (reversed.count(static_cast<int>(k)) != 0) {
        // X_C'P'(q) = X_C'C X_CP(q) X_PP' = X_C'C Motion(-axis, q): the old child is the parent.
        std::swap(s.parent_link, s.child_link);
        s.X_PJ = X_new[static_cast<std::size_t>(j.child_link)].inverse();
        s.axis = -j.axis;
      } else {
        s.X_PJ = X_new[static_cast<std::size_t>(j.parent_link)].inverse() * j.X_PJ;
      }
    }
  }, model.name() + " rooted at " + root);
}

/// `model` without the subtree below joint `joint` (the joint included).
RobotModel<double> humanoidWithoutSubtree(const RobotModel<double>& model, const std::string& joint) {
  std::set<std::string> removed_links;
  const int top = model.links()[static_cast<std::size_t>(model.joints()[static_cast<std::size_t>(model.jointIndex(joint))].child_link)].parent_joint;
  for (const auto& l : model.links()) {
    for (int j : l.support) {
      if (j == top) removed_links.insert(l.name);
    }
  }
  return humanoidRebuild(model, [&](std::vector<LinkSpec<double>>& links, std::vector<JointSpec<double>>& joints) {
    links.erase(std::remove_if(links.begin(), links.end(), [&](const auto& l) { return removed_links.count(l.name) != 0; }), links.end());
    joints.erase(std::remove_if(joints.begin(), joints.end(), [&](const auto& j) { return removed_links.count(j.child_link) != 0; }),
                 joints.end());
  });
}

/// `model` with the named joints fixed.
RobotModel<double> fixedJoints(const RobotModel<double>& model, const std::set<std::string>& names) {
  return humanoidRebuild(model, [&](std::vector<LinkSpec<double>>&, std::vector<JointSpec<double>>& joints) {
    for (auto& j : joints) {
      if (names.count(j.name) != 0) {
        j.type = JointType::kFixed;
        j.mimic.reset();
      }
    }
  });
}

/// Rest pose of link `link` in the root frame.
Eigen::Isometry3d restPose(const RobotModel<double>& model, const std::string& link) {
  RobotData<double> data(model);
  forwardKinematics(model, data, model.neutralConfiguration());
  return data.X_WL[static_cast<std::size_t>(model.linkIndex(link))];
}

/// Points of `a` and `b` (by point) compared: the same set, links equal through `link_name`,
/// rest positions equal after `X_ab` (b's root frame in a's) within `tolerance` (m).
template <typename LinkName>
void checkSameBinding(const HumanoidBinding& a, const HumanoidBinding& b, const Eigen::Isometry3d& X_ab,
                      LinkName&& link_name, double tolerance) {
  REQUIRE(a.points.size() == b.points.size());
  for (const auto& p : a.points) {
    CAPTURE(kHumanoidPointNames[static_cast<std::size_t>(p.point)]);
    const HumanoidPointBinding* q = b.find(p.point);
    REQUIRE(q != nullptr);
    CHECK(link_name(p.link) == q->link);
    CHECK((p.p_B - X_ab * q->p_B).norm() < tolerance);
  }
  for (std::size_t l = 0; l < kHumanoidLimbCount; ++l) {
    CAPTURE(kHumanoidLimbNames[l]);
    CHECK(a.limbs[l].found == b.limbs[l].found);
    CHECK(a.limbs[l].joints.size() == b.limbs[l].joints.size());
  }
}

/// In the robot frame (R_BR: x forward, y left, z up) the left points have y > 0 (with
/// `roots_only`, the shoulders and hips only: YuMi's arms cross in front of it at rest).
void checkLeftIsPlusY(const RobotModel<double>& model, const HumanoidBinding& b, bool roots_only = false) {
  for (const auto& p : b.points) {
    const std::string_view name = kHumanoidPointNames[static_cast<std::size_t>(p.point)];
    if (roots_only && name.find("Shoulder") == std::string_view::npos && name.find("Hip") == std::string_view::npos) continue;
    const double y = (b.R_BR.transpose() * p.p_B).y() - (b.R_BR.transpose() * b.find(HumanoidPoint::kSpineShoulder)->p_B).y();
    CAPTURE(name);
    if (name.find("Left") != std::string_view::npos) CHECK(y > 0.02);
    if (name.find("Right") != std::string_view::npos) CHECK(y < -0.02);
  }
  // Every chain joint has a q coordinate, in the listed order.
  for (const auto& c : b.limbs) {
    REQUIRE(c.joints.size() == c.q.size());
    for (std::size_t k = 0; k < c.joints.size(); ++k) {
      CHECK(model.joints()[static_cast<std::size_t>(c.joints[k])].q_index == c.q[k]);
    }
  }
}

}  // namespace

TEST_CASE("humanoid binding: NAO and Pepper agree with their hand-written GA-LVVJ maps") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  struct Case {
    const char* file;
    VirtualSkeletonMap map;
    // Points whose rule differs from the hand-written estimate (see docs/robots.md), with the
    // largest distance allowed (m); every other point within 1 mm.
    std::map<std::string, double> explained;
  };
  const std::vector<Case> cases = {
      {"nao_h25_v50.urdf",
       naoVirtualSkeletonMap(),
       {{"SpineMid", 0.008},
        {"Head", 0.018},
        {"HandLeft", 0.022},
        {"HandRight", 0.022},
        {"FootLeft", 0.018},
        {"FootRight", 0.018}}},
      {"pepper_1.0.urdf", pepperVirtualSkeletonMap(), {{"Head", 0.012}}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.file);
    const RobotModel<double> model = loadSharedRobot(data_dir, c.file);
    const HumanoidBinding binding = bindHumanoid(model);
    const VirtualSkeletonMap automatic = humanoidVirtualSkeletonMap(binding);
    const auto expected = restPoints(model, c.map);
    const auto found = restPoints(model, automatic);
    for (const auto& spec : c.map.points) {
      const std::string point(name(spec.joint));
      CAPTURE(point);
      const auto it = std::find_if(automatic.points.begin(), automatic.points.end(),
                                   [&](const VirtualPointSpec& s) { return s.joint == spec.joint; });
      REQUIRE(it != automatic.points.end());
      CHECK(it->link == spec.link);
      CHECK(it->from.has_value() == spec.from.has_value());
      const double distance = (found.at(point) - expected.at(point)).norm();
      const auto allowed = c.explained.find(point);
      CHECK(distance <= (allowed == c.explained.end() ? 1e-3 : allowed->second));
      MESSAGE(c.file << " " << point << ": " << distance * 1000 << " mm from the hand-written point");
    }
    checkLeftIsPlusY(model, binding);
    CHECK(binding.R_BR.isApprox(Eigen::Matrix3d::Identity()));
  }
}

TEST_CASE("humanoid binding: NAO binds completely and Pepper without legs") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const HumanoidBinding nao = bindHumanoid(loadSharedRobot(data_dir, "nao_h25_v50.urdf"));
  CHECK(nao.complete());
  CHECK(nao.missing.empty());
  CHECK(nao.torso_link == "torso");
  CHECK(nao.limb(HumanoidLimb::kLeftArm).bend_joint == "LElbowRoll");
  CHECK(nao.limb(HumanoidLimb::kLeftLeg).bend_joint == "LKneePitch");
  CHECK(nao.limb(HumanoidLimb::kRightLeg).distal_joint == "RAnklePitch");
  CHECK(nao.limb(HumanoidLimb::kHead).joints.size() == 2);
  const HumanoidBinding pepper = bindHumanoid(loadSharedRobot(data_dir, "pepper_1.0.urdf"));
  CHECK(pepper.limb(HumanoidLimb::kLeftArm).found);
  CHECK(pepper.limb(HumanoidLimb::kHead).found);
  CHECK_FALSE(pepper.limb(HumanoidLimb::kLeftLeg).found);
  CHECK(pepper.missing.size() == 1);
}

TEST_CASE("humanoid binding: the Unitree G1 and H1 bind with the left limbs on +y") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const RobotModel<double> g1 = loadSharedRobot(data_dir, "unitree_g1_29dof_rev_1_0.urdf");
  const HumanoidBinding b = bindHumanoid(g1);
  for (std::size_t l = 0; l < 4; ++l) CHECK(b.limbs[l].found);
  CHECK(b.torso_link == "torso_link");
  CHECK(b.pelvis_link == "pelvis");
  CHECK(b.spine_joints.size() == 3);  // waist yaw, roll, pitch
  CHECK(b.limb(HumanoidLimb::kLeftArm).end_link.rfind("left_", 0) == 0);
  CHECK(b.limb(HumanoidLimb::kLeftArm).bend_joint == "left_elbow_joint");
  CHECK(b.limb(HumanoidLimb::kLeftArm).distal_joint == "left_wrist_pitch_joint");
  CHECK(b.limb(HumanoidLimb::kRightLeg).bend_joint == "right_knee_joint");
  CHECK(b.limb(HumanoidLimb::kRightLeg).distal_joint == "right_ankle_pitch_joint");
  CHECK(b.find(HumanoidPoint::kHead) != nullptr);  // the head link fixed on the torso
  CHECK(b.points.size() == 20);                      // all but the Neck
  checkLeftIsPlusY(g1, b);

  const RobotModel<double> h1 = loadSharedRobot(data_dir, "unitree_h1.urdf");
  const HumanoidBinding c = bindHumanoid(h1);
  for (std::size_t l = 0; l < 4; ++l) CHECK(c.limbs[l].found);
  CHECK(c.limb(HumanoidLimb::kLeftArm).bend_joint == "left_elbow_joint");
  CHECK(c.limb(HumanoidLimb::kLeftArm).distal_joint.empty());  // H1's arms end at the elbow link
  CHECK(c.find(HumanoidPoint::kWristLeft) != nullptr);
  CHECK(c.find(HumanoidPoint::kHandLeft) == nullptr);
  CHECK(c.spine_joints.size() == 1);  // torso_joint
  checkLeftIsPlusY(h1, c);
  // The hips straight above the knees at rest, although H1's hip pitch hangs outside its roll axis.
  const Eigen::Vector3d hip = c.find(HumanoidPoint::kHipLeft)->p_B, knee = c.find(HumanoidPoint::kKneeLeft)->p_B;
  CHECK(std::abs(hip.y() - knee.y()) < 1e-9);
}

TEST_CASE("humanoid binding: the virtual skeleton works with VirtualSkeleton and the similarity metrics") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* file : {"nao_h25_v50.urdf", "unitree_g1_29dof_rev_1_0.urdf", "unitree_h1.urdf"}) {
    CAPTURE(file);
    const RobotModel<double> model = loadSharedRobot(data_dir, file);
    const HumanoidBinding binding = bindHumanoid(model);
    const VirtualSkeletonMap map = humanoidVirtualSkeletonMap(binding);
    // At rest the virtual skeleton is where the binding says.
    const auto rest = restPoints(model, map);
    for (const auto& p : binding.points) CHECK((rest.at(std::string(kHumanoidPointNames[static_cast<std::size_t>(p.point)])) - p.p_B).norm() < 1e-9);
    // A random configuration compared with itself: WBF 1.
    VirtualSkeleton<double> skeleton(model, map);
    std::mt19937 rng(3);
    Eigen::VectorXd q = model.neutralConfiguration();
    for (Eigen::Index i = 0; i < q.size(); ++i) {
      const double lo = std::max(model.lowerLimits()[i], -2.0), hi = std::min(model.upperLimits()[i], 2.0);
      q[i] = std::uniform_real_distribution<double>(lo, hi)(rng);
    }
    SkeletonFrame<double> frame;
    REQUIRE(skeleton.compute(q, frame).ok());
    FrameSimilarity<double> similarity;
    (void)frameSimilarity(frame, frame, similarity);
    CHECK(similarity.wbf == doctest::Approx(1.0).epsilon(1e-9));
  }
}

TEST_CASE("humanoid binding: names do not matter (links and joints renamed link_07, joint_12)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* file : {"nao_h25_v50.urdf", "pepper_1.0.urdf", "unitree_g1_29dof_rev_1_0.urdf", "unitree_h1.urdf"}) {
    CAPTURE(file);
    const RobotModel<double> model = loadSharedRobot(data_dir, file);
    std::map<std::string, std::string> names;
    const RobotModel<double> neutral = humanoidRenamed(model, names);
    const HumanoidBinding a = bindHumanoid(model);
    const HumanoidBinding b = bindHumanoid(neutral);
    // G1's head is found by its link's name only: without names it is missing.
    HumanoidBinding a_without_named_head = a;
    if (b.find(HumanoidPoint::kHead) == nullptr && a.find(HumanoidPoint::kHead) != nullptr && !a.limb(HumanoidLimb::kHead).found) {
      auto& pts = a_without_named_head.points;
      pts.erase(std::remove_if(pts.begin(), pts.end(), [](const auto& p) { return p.point == HumanoidPoint::kHead; }), pts.end());
    }
    checkSameBinding(a_without_named_head, b, Eigen::Isometry3d::Identity(), [&](const std::string& n) { return names.at(n); }, 1e-9);
    checkLeftIsPlusY(neutral, b);
  }
}

TEST_CASE("humanoid binding: the URDF root does not matter (re-rooted at a foot, a hand, the head)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  struct Case {
    const char* file;
    const char* root;
  };
  for (const Case& c : {Case{"nao_h25_v50.urdf", "l_sole"}, Case{"nao_h25_v50.urdf", "r_gripper"}, Case{"nao_h25_v50.urdf", "Head"},
                        Case{"unitree_g1_29dof_rev_1_0.urdf", "right_ankle_roll_link"},
                        Case{"unitree_g1_29dof_rev_1_0.urdf", "left_wrist_yaw_link"},
                        Case{"unitree_h1.urdf", "left_ankle_link"}}) {
    const std::string file = c.file, root = c.root;
    CAPTURE(file);
    CAPTURE(root);
    const RobotModel<double> model = loadSharedRobot(data_dir, c.file);
    const RobotModel<double> moved = humanoidRerooted(model, c.root);
    REQUIRE(moved.links()[0].name == c.root);
    // Without the two snaps (to the root frame's axes, to a link's axes), which depend on the
    // link frames a re-rooted URDF changes: the same points on the same links at the same places
    // (b's root frame is the rest pose of link `root` in a's root frame), the same axes.
    HumanoidBindingOptions exact;
    exact.axis_snap_angle = 0;
    exact.link_axis_snap_angle = 0;
    const Eigen::Isometry3d X_ab = restPose(model, c.root);
    const HumanoidBinding a = bindHumanoid(model, exact);
    const HumanoidBinding b = bindHumanoid(moved, exact);
    checkSameBinding(a, b, X_ab, [](const std::string& n) { return n; }, 1e-9);
    CHECK((X_ab.linear() * b.R_BR).isApprox(a.R_BR, 1e-9));
    // With the snaps (the defaults): the same links, points within 15 mm, axes within 10 deg.
    const HumanoidBinding a_snapped = bindHumanoid(model);
    const HumanoidBinding b_snapped = bindHumanoid(moved);
    checkSameBinding(a_snapped, b_snapped, X_ab, [](const std::string& n) { return n; }, 0.015);
    for (int k = 0; k < 3; ++k) CHECK((X_ab.linear() * b_snapped.R_BR.col(k)).dot(a_snapped.R_BR.col(k)) > std::cos(0.1746));
    checkLeftIsPlusY(moved, b);
  }
}

TEST_CASE("humanoid binding: a robot without a head, or without a waist joint") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const RobotModel<double> nao = loadSharedRobot(data_dir, "nao_h25_v50.urdf");
  const RobotModel<double> nao_headless = humanoidWithoutSubtree(nao, "HeadYaw");
  const HumanoidBinding headless = bindHumanoid(nao_headless);
  CHECK_FALSE(headless.limb(HumanoidLimb::kHead).found);
  CHECK(headless.find(HumanoidPoint::kHead) == nullptr);
  CHECK(headless.find(HumanoidPoint::kNeck) == nullptr);
  for (std::size_t l = 0; l < 4; ++l) CHECK(headless.limbs[l].found);
  CHECK(headless.missing.size() == 1);
  checkLeftIsPlusY(nao_headless, headless);
  // The other points as with the head (up from the feet, forward from the feet).
  const HumanoidBinding full = bindHumanoid(nao);
  for (const auto& p : headless.points) CHECK((p.p_B - full.find(p.point)->p_B).norm() < 1e-9);

  const RobotModel<double> g1 = loadSharedRobot(data_dir, "unitree_g1_29dof_rev_1_0.urdf");
  const RobotModel<double> g1_stiff = fixedJoints(g1, {"waist_yaw_joint", "waist_roll_joint", "waist_pitch_joint"});
  const HumanoidBinding stiff = bindHumanoid(g1_stiff);
  // Torso and pelvis are one rigid body now (each named by the link its limbs leave from).
  CHECK(stiff.spine_joints.empty());
  checkLeftIsPlusY(g1_stiff, stiff);
  for (std::size_t l = 0; l < 4; ++l) CHECK(stiff.limbs[l].found);
  const HumanoidBinding g1_binding = bindHumanoid(g1);
  for (const auto& p : g1_binding.points) {
    CAPTURE(kHumanoidPointNames[static_cast<std::size_t>(p.point)]);
    REQUIRE(stiff.find(p.point) != nullptr);
    CHECK((p.p_B - stiff.find(p.point)->p_B).norm() < 1e-9);
  }
  // A headless, renamed, re-rooted NAO: still both arms and legs, left on +y.
  std::map<std::string, std::string> names;
  const RobotModel<double> anonymous = humanoidRenamed(humanoidRerooted(humanoidWithoutSubtree(nao, "HeadYaw"), "r_sole"), names);
  const HumanoidBinding anon = bindHumanoid(anonymous);
  for (std::size_t l = 0; l < 4; ++l) CHECK(anon.limbs[l].found);
  checkLeftIsPlusY(anonymous, anon);
}

TEST_CASE("humanoid binding: pins (a robot schema) reproduce the binding and are checked") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* file : {"nao_h25_v50.urdf", "pepper_1.0.urdf", "unitree_g1_29dof_rev_1_0.urdf", "unitree_h1.urdf"}) {
    CAPTURE(file);
    const RobotModel<double> model = loadSharedRobot(data_dir, file);
    const HumanoidBinding a = bindHumanoid(model);
    const HumanoidBinding b = bindHumanoid(model, humanoidSchema(a));
    checkSameBinding(a, b, Eigen::Isometry3d::Identity(), [](const std::string& n) { return n; }, 1e-12);
  }
  const RobotModel<double> nao = loadSharedRobot(data_dir, "nao_h25_v50.urdf");
  // Swapping the sides by pins: the left arm is what the schema says.
  HumanoidBindingOptions swapped;
  swapped.limbs[0].end_link = "r_wrist";
  swapped.limbs[1].end_link = "l_wrist";
  const HumanoidBinding s = bindHumanoid(nao, swapped);
  CHECK(s.limb(HumanoidLimb::kLeftArm).bend_joint == "RElbowRoll");
  // Declaring the head absent.
  HumanoidBindingOptions no_head;
  no_head.limbs[4].end_link = "-";
  CHECK_FALSE(bindHumanoid(nao, no_head).limb(HumanoidLimb::kHead).found);
  // Bad pins and options name what is wrong.
  HumanoidBindingOptions bad;
  bad.limbs[2].end_link = "no_such_link";
  CHECK_THROWS_WITH_AS(bindHumanoid(nao, bad), doctest::Contains("limbs[left_leg].end_link (got 'no_such_link'"), InvalidArgument);
  HumanoidBindingOptions bad_joint;
  bad_joint.limbs[0].bend_joint = "LKneePitch";
  CHECK_THROWS_WITH_AS(bindHumanoid(nao, bad_joint), doctest::Contains("limbs[left_arm].bend_joint (got 'LKneePitch'"), InvalidArgument);
  HumanoidBindingOptions bad_axis;
  bad_axis.up = Eigen::Vector3d::Zero();
  CHECK_THROWS_WITH_AS(bindHumanoid(nao, bad_axis), doctest::Contains("HumanoidBindingOptions::up"), InvalidArgument);
  HumanoidBindingOptions bad_fraction;
  bad_fraction.min_limb_fraction = 0.7;
  CHECK_THROWS_WITH_AS(bad_fraction.validate(), doctest::Contains("min_limb_fraction (got 0.7"), InvalidArgument);
}

}  // namespace retarget

namespace retarget {

TEST_CASE("humanoid binding: every shared URDF gets its arms, on the sides its names say") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  struct Case {
    const char* file;
    bool legs, head;
  };
  for (const Case& c : {Case{"nao_h25_v50.urdf", true, true}, Case{"nao_h25_v40.urdf", true, true}, Case{"pepper_1.0.urdf", false, true},
                        Case{"unitree_g1_29dof_rev_1_0.urdf", true, false}, Case{"unitree_h1.urdf", true, false},
                        Case{"baxter.urdf", false, true}, Case{"abb_yumi_irb14000.urdf", false, false}, Case{"inmoov.urdf", false, true}}) {
    const std::string file = c.file;
    CAPTURE(file);
    const RobotModel<double> model = loadSharedRobot(data_dir, c.file);
    const HumanoidBinding b = bindHumanoid(model);
    CHECK(b.limb(HumanoidLimb::kLeftArm).found);
    CHECK(b.limb(HumanoidLimb::kRightArm).found);
    CHECK(b.limb(HumanoidLimb::kLeftLeg).found == c.legs);
    CHECK(b.limb(HumanoidLimb::kHead).found == c.head);
    for (const std::string& note : b.notes) CHECK(note.find("names disagree") == std::string::npos);
    CHECK(b.R_BR.isApprox(Eigen::Matrix3d::Identity()));  // every shared URDF is x forward, z up
    checkLeftIsPlusY(model, b, /*roots_only=*/true);
    // The virtual skeleton resolves against the model.
    CHECK_NOTHROW(VirtualSkeleton<double>(model, humanoidVirtualSkeletonMap(b)));
  }
}

}  // namespace retarget
