// Issue 33: rigs whose rest pose is not a standing T-pose bind from the motion. One real motion (a
// shared CMU take) is re-expressed, by the code below, in the joint layouts of the public BVH
// conventions (written from their published descriptions, no file copied): LAFAN1 (bones along
// each joint's +X, so the zero-rotation pose is not a person), Mixamo, CMU, Axis Neuron,
// Biovision-style ("LeftShoulder" = upper arm after "LeftCollar"), Unity/Blender-style
// (`UpperArm_L`), and variants with position channels on every joint whose OFFSETs are garbage.
// Each must bind its hand-placed canonical joints, find the up axis and the units from the motion,
// give the same body (distances and heights relative to the hips) as the source, and map onto NAO
// with GA-LVVJ within 0.02 of the source's WBF and LLF. Scrambled rigs are refused.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <retarget/human/rig_binding.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

// One joint of a layout: it sits at (1 - w) p(a) + w p(b) of the source (CMU) joints `a`, `b`
// (b empty: at a). `end` writes an End Site.
struct LayoutJointSpec {
  LayoutJointSpec(std::string name_, std::string parent_, std::string a_, std::string b_ = {}, double w_ = 0,
                  bool end_ = false)
      : name(std::move(name_)), parent(std::move(parent_)), a(std::move(a_)), b(std::move(b_)), w(w_), end(end_) {}
  std::string name, parent, a, b;
  double w = 0;
  bool end = false;
};

struct LayoutSpec {
  std::string name;
  std::vector<LayoutJointSpec> joints;
  double metres_per_unit = 0.01;
  Eigen::Matrix3d R_WS = Eigen::Matrix3d::Identity();  // file frame -> canonical (x forward, y left, z up)
  std::string order = "ZYX";                           // rotation channels
  bool bones_along_x = false;        // LAFAN1: each joint's frame turned so its first child lies on +X
  bool positions_everywhere = false; // 6 channels on every joint; the OFFSETs are garbage
  // Hand-placed canonical joints: layout joint name of each.
  std::map<HumanJoint, std::string> expected;
};

Eigen::Matrix3d layoutFrame(const char* which) {
  Eigen::Matrix3d R;
  if (std::string(which) == "Y-up") {
    R << 0, 0, 1, 1, 0, 0, 0, 1, 0;  // forward +Z, left +X, up +Y
  } else {
    R << 0, -1, 0, 1, 0, 0, 0, 0, 1;  // Z up, forward -Y (Blender)
  }
  return R;
}

// Canonical joints checked in every layout, in this order: hips, then per side shoulder, elbow,
// wrist, hip, knee, ankle.
std::map<HumanJoint, std::string> layoutExpected(const std::string& hips, const std::array<std::string, 6>& left,
                                                 const std::array<std::string, 6>& right) {
  using H = HumanJoint;
  const H l[] = {H::kShoulderLeft, H::kElbowLeft, H::kWristLeft, H::kHipLeft, H::kKneeLeft, H::kAnkleLeft};
  const H r[] = {H::kShoulderRight, H::kElbowRight, H::kWristRight, H::kHipRight, H::kKneeRight, H::kAnkleRight};
  std::map<H, std::string> out{{H::kSpineBase, hips}};
  for (std::size_t k = 0; k < 6; ++k) {
    out[l[k]] = left[k];
    out[r[k]] = right[k];
  }
  return out;
}

// Limb joints of one side: `n(part)` names a part; parts are written in the CMU source's terms.
template <typename N>
std::vector<LayoutJointSpec> layoutArm(const std::string& chest, const std::string& side, N n,
                                       const std::array<std::string, 4>& parts, bool hand_tip) {
  const std::string s = side;  // "Left" / "Right" (CMU source names)
  std::vector<LayoutJointSpec> v = {
      {n(parts[0]), chest, "Spine1", s + "Arm", 0.35},
      {n(parts[1]), n(parts[0]), s + "Arm"},
      {n(parts[2]), n(parts[1]), s + "ForeArm"},
      {n(parts[3]), n(parts[2]), s + "Hand"},
  };
  if (hand_tip) v.push_back({n(parts[3]) + "_End", n(parts[3]), s + "ForeArm", s + "Hand", 1.6, true});
  return v;
}

template <typename N>
std::vector<LayoutJointSpec> layoutLeg(const std::string& hips, const std::string& side, N n,
                                       const std::array<std::string, 4>& parts) {
  const std::string s = side;
  std::vector<LayoutJointSpec> v = {
      {n(parts[0]), hips, s + "UpLeg"},
      {n(parts[1]), n(parts[0]), s + "Leg"},
      {n(parts[2]), n(parts[1]), s + "Foot"},
  };
  if (parts[3].empty()) {
    v.push_back({n(parts[2]) + "_End", n(parts[2]), s + "Foot", s + "ToeBase", 1.0, true});
  } else {
    v.push_back({n(parts[3]), n(parts[2]), s + "ToeBase"});
  }
  return v;
}

void layoutAppend(std::vector<LayoutJointSpec>& to, const std::vector<LayoutJointSpec>& more) {
  to.insert(to.end(), more.begin(), more.end());
}

// The conventions, from their public descriptions.
std::vector<LayoutSpec> layoutSpecs() {
  std::vector<LayoutSpec> out;
  auto prefixed = [](const std::string& p) { return [p](const std::string& part) { return p + part; }; };
  {  // LAFAN1 (Ubisoft): cm, Y up, root 6 channels, others ZYX, bones along the joints' +X, no End Sites.
    LayoutSpec l;
    l.name = "lafan1";
    l.R_WS = layoutFrame("Y-up");
    l.bones_along_x = true;
    l.joints = {{"Hips", "", "Hips"}};
    for (const char* s : {"Left", "Right"}) {
      auto v = layoutLeg("Hips", s, prefixed(s), {"UpLeg", "Leg", "Foot", "Toe"});
      layoutAppend(l.joints, v);
    }
    layoutAppend(l.joints, {{"Spine", "Hips", "Spine"}, {"Spine1", "Spine", "Spine", "Spine1", 0.5},
                            {"Spine2", "Spine1", "Spine1"}, {"Neck", "Spine2", "Neck1"}, {"Head", "Neck", "Head"}});
    for (const char* s : {"Left", "Right"}) layoutAppend(l.joints, layoutArm("Spine2", s, prefixed(s), {"Shoulder", "Arm", "ForeArm", "Hand"}, false));
    l.expected = layoutExpected("Hips", {"LeftArm", "LeftForeArm", "LeftHand", "LeftUpLeg", "LeftLeg", "LeftFoot"},
                                {"RightArm", "RightForeArm", "RightHand", "RightUpLeg", "RightLeg", "RightFoot"});
    out.push_back(l);
  }
  {  // Mixamo: "mixamorig:" namespace, cm, Y up, T-pose, ZXY, HeadTop_End, a middle finger, ToeBase + Toe_End.
    LayoutSpec l;
    l.name = "mixamo";
    l.R_WS = layoutFrame("Y-up");
    l.order = "ZXY";
    const std::string ns = "mixamorig:";
    l.joints = {{ns + "Hips", "", "Hips"},
                {ns + "Spine", ns + "Hips", "Spine"},
                {ns + "Spine1", ns + "Spine", "Spine", "Spine1", 0.5},
                {ns + "Spine2", ns + "Spine1", "Spine1"},
                {ns + "Neck", ns + "Spine2", "Neck1"},
                {ns + "Head", ns + "Neck", "Head"},
                {ns + "HeadTop_End", ns + "Head", "Neck1", "Head", 1.6, true}};
    for (const char* s : {"Left", "Right"}) {
      auto arm = layoutArm(ns + "Spine2", s, prefixed(ns + s), {"Shoulder", "Arm", "ForeArm", "Hand"}, false);
      const std::string hand = ns + s + "Hand", fa = std::string(s) + "ForeArm", h = std::string(s) + "Hand";
      arm.push_back({hand + "Middle1", hand, fa, h, 1.25});
      arm.push_back({hand + "Middle1_End", hand + "Middle1", fa, h, 1.55, true});
      layoutAppend(l.joints, arm);
    }
    for (const char* s : {"Left", "Right"}) {
      auto leg = layoutLeg(ns + "Hips", s, prefixed(ns + s), {"UpLeg", "Leg", "Foot", "ToeBase"});
      leg.push_back({ns + s + "Toe_End", ns + s + "ToeBase", std::string(s) + "Foot", std::string(s) + "ToeBase", 1.5, true});
      layoutAppend(l.joints, leg);
    }
    l.expected = layoutExpected(ns + "Hips", {ns + "LeftArm", ns + "LeftForeArm", ns + "LeftHand", ns + "LeftUpLeg", ns + "LeftLeg", ns + "LeftFoot"},
                                {ns + "RightArm", ns + "RightForeArm", ns + "RightHand", ns + "RightUpLeg", ns + "RightLeg", ns + "RightFoot"});
    out.push_back(l);
  }
  {  // Axis Neuron (Noitom): cm, Y up, YXZ, right limbs first, Spine..Spine3, End Sites on head, hands, feet.
    LayoutSpec l;
    l.name = "axis-neuron";
    l.R_WS = layoutFrame("Y-up");
    l.order = "YXZ";
    l.joints = {{"Hips", "", "Hips"}};
    for (const char* s : {"Right", "Left"}) layoutAppend(l.joints, layoutLeg("Hips", s, prefixed(s), {"UpLeg", "Leg", "Foot", ""}));
    layoutAppend(l.joints, {{"Spine", "Hips", "Spine"}, {"Spine1", "Spine", "Spine", "Spine1", 0.33},
                            {"Spine2", "Spine1", "Spine", "Spine1", 0.67}, {"Spine3", "Spine2", "Spine1"},
                            {"Neck", "Spine3", "Neck1"}, {"Head", "Neck", "Head"},
                            {"Head_End", "Head", "Neck1", "Head", 1.6, true}});
    for (const char* s : {"Right", "Left"}) layoutAppend(l.joints, layoutArm("Spine3", s, prefixed(s), {"Shoulder", "Arm", "ForeArm", "Hand"}, true));
    l.expected = layoutExpected("Hips", {"LeftArm", "LeftForeArm", "LeftHand", "LeftUpLeg", "LeftLeg", "LeftFoot"},
                                {"RightArm", "RightForeArm", "RightHand", "RightUpLeg", "RightLeg", "RightFoot"});
    out.push_back(l);
  }
  {  // Biovision-style: inches, Y up, ZXY, one Chest joint, LeftCollar -> LeftShoulder (upper arm) -> LeftElbow -> LeftWrist, LeftHip/Knee/Ankle.
    LayoutSpec l;
    l.name = "biovision";
    l.metres_per_unit = 0.0254;
    l.R_WS = layoutFrame("Y-up");
    l.order = "ZXY";
    l.joints = {{"Hips", "", "Hips"}};
    for (const char* s : {"Left", "Right"}) layoutAppend(l.joints, layoutLeg("Hips", s, prefixed(s), {"Hip", "Knee", "Ankle", ""}));
    layoutAppend(l.joints, {{"Chest", "Hips", "Spine1"}, {"Neck", "Chest", "Neck1"}, {"Head", "Neck", "Head"},
                            {"Head_End", "Head", "Neck1", "Head", 1.6, true}});
    for (const char* s : {"Left", "Right"}) layoutAppend(l.joints, layoutArm("Chest", s, prefixed(s), {"Collar", "Shoulder", "Elbow", "Wrist"}, true));
    l.expected = layoutExpected("Hips", {"LeftShoulder", "LeftElbow", "LeftWrist", "LeftHip", "LeftKnee", "LeftAnkle"},
                                {"RightShoulder", "RightElbow", "RightWrist", "RightHip", "RightKnee", "RightAnkle"});
    out.push_back(l);
  }
  {  // Unity humanoid / Blender export style: metres, Z up facing -Y, XYZ, `UpperArm_L`.
    LayoutSpec l;
    l.name = "unity-blender";
    l.metres_per_unit = 1.0;
    l.R_WS = layoutFrame("Z-up");
    l.order = "XYZ";
    l.joints = {{"Hips", "", "Hips"}, {"Spine", "Hips", "Spine"}, {"Chest", "Spine", "Spine", "Spine1", 0.5},
                {"UpperChest", "Chest", "Spine1"}, {"Neck", "UpperChest", "Neck1"}, {"Head", "Neck", "Head"}};
    for (const char* s : {"L", "R"}) {
      const std::string side = std::string(s) == "L" ? "Left" : "Right";
      auto suffix = [s](const std::string& part) { return part + "_" + s; };
      layoutAppend(l.joints, layoutArm("UpperChest", side, suffix, {"Shoulder", "UpperArm", "LowerArm", "Hand"}, true));
      layoutAppend(l.joints, layoutLeg("Hips", side, suffix, {"UpperLeg", "LowerLeg", "Foot", "Toes"}));
    }
    l.expected = layoutExpected("Hips", {"UpperArm_L", "LowerArm_L", "Hand_L", "UpperLeg_L", "LowerLeg_L", "Foot_L"},
                                {"UpperArm_R", "LowerArm_R", "Hand_R", "UpperLeg_R", "LowerLeg_R", "Foot_R"});
    out.push_back(l);
  }
  {  // CMU itself, every joint (zero-length LHipJoint, LowerBack, Neck), re-expressed in inches, Z up.
    LayoutSpec l;
    l.name = "cmu-inches-z-up";
    l.metres_per_unit = 0.0254;
    l.R_WS = layoutFrame("Z-up");
    l.joints = {{"Hips", "", "Hips"}, {"LowerBack", "Hips", "Hips"}, {"Spine", "LowerBack", "Spine"},
                {"Spine1", "Spine", "Spine1"}, {"Neck", "Spine1", "Neck"}, {"Neck1", "Neck", "Neck1"}, {"Head", "Neck1", "Head"},
                {"Head_End", "Head", "Neck1", "Head", 1.6, true}};
    for (const char* s : {"Left", "Right"}) {
      const std::string side = s, hip = std::string(s[0] == 'L' ? "L" : "R") + "HipJoint";
      layoutAppend(l.joints, {{side + "Shoulder", "Spine1", side + "Shoulder"}, {side + "Arm", side + "Shoulder", side + "Arm"},
                              {side + "ForeArm", side + "Arm", side + "ForeArm"}, {side + "Hand", side + "ForeArm", side + "Hand"},
                              {side + "Hand_End", side + "Hand", side + "ForeArm", side + "Hand", 1.6, true},
                              {hip, "Hips", hip}, {side + "UpLeg", hip, side + "UpLeg"}, {side + "Leg", side + "UpLeg", side + "Leg"},
                              {side + "Foot", side + "Leg", side + "Foot"}, {side + "ToeBase", side + "Foot", side + "ToeBase"}});
    }
    l.expected = layoutExpected("Hips", {"LeftArm", "LeftForeArm", "LeftHand", "LeftUpLeg", "LeftLeg", "LeftFoot"},
                                {"RightArm", "RightForeArm", "RightHand", "RightUpLeg", "RightLeg", "RightFoot"});
    out.push_back(l);
  }
  // Position channels on every joint, OFFSETs garbage: LAFAN1 and Mixamo layouts.
  for (std::size_t k : {std::size_t{0}, std::size_t{1}}) {
    LayoutSpec l = out[k];
    l.name += "-6ch";
    l.positions_everywhere = true;
    out.push_back(l);
  }
  return out;
}

// The source motion in the canonical frame: per frame, positions (m) and T-pose-relative global
// rotations of every source joint (the CMU rest pose is a T-pose with identity rotations).
struct LayoutSource {
  const BvhMotion* bvh = nullptr;
  std::vector<Eigen::Matrix3Xd> p_W;
  std::vector<std::vector<Eigen::Matrix3d>> G_W;
  Eigen::Matrix3Xd rest_W;
};

LayoutSource layoutSource(const BvhMotion& bvh) {
  const SkeletonSchema& cmu = cmuSchema();
  LayoutSource src;
  src.bvh = &bvh;
  Eigen::Matrix3Xd p;
  std::vector<Eigen::Quaterniond> R;
  for (int f = 0; f < bvh.frame_count; ++f) {
    bvhGlobalPositions(bvh, f, p, R);
    src.p_W.push_back(cmu.scale * cmu.R_WS * p);
    std::vector<Eigen::Matrix3d> G;
    for (const auto& q : R) G.push_back(cmu.R_WS * q.toRotationMatrix() * cmu.R_WS.transpose());
    src.G_W.push_back(G);
  }
  const BvhMotion rest = bvhRestPose(bvh);
  bvhGlobalPositions(rest, 0, p, R);
  src.rest_W = cmu.scale * cmu.R_WS * p;
  return src;
}

// Rotation R minimising sum w |R u - v|^2 (Kabsch).
Eigen::Matrix3d layoutKabsch(const std::vector<Eigen::Vector3d>& u, const std::vector<Eigen::Vector3d>& v,
                             const std::vector<double>& w) {
  Eigen::Matrix3d H = Eigen::Matrix3d::Zero();
  for (std::size_t i = 0; i < u.size(); ++i) H += w[i] * u[i] * v[i].transpose();
  const Eigen::JacobiSVD<Eigen::Matrix3d> svd(H, Eigen::ComputeFullU | Eigen::ComputeFullV);
  Eigen::Matrix3d D = Eigen::Matrix3d::Identity();
  D(2, 2) = (svd.matrixV() * svd.matrixU().transpose()).determinant() < 0 ? -1.0 : 1.0;
  return svd.matrixV() * D * svd.matrixU().transpose();
}

// Writes the source motion in a layout. Each layout joint's T-pose-relative global rotation fits its
// children's source directions (Kabsch, the source joint's own rotation fixing the twist), so joints
// whose children are rigid in the source get exactly the source's positions.
BvhMotion layoutMotion(const LayoutSpec& spec, const LayoutSource& src, unsigned seed = 7) {
  const BvhMotion& bvh = *src.bvh;
  const std::size_t n = spec.joints.size();
  std::vector<int> parent(n, -1), a(n, -1), b(n, -1);
  std::vector<std::vector<int>> children(n);
  for (std::size_t j = 0; j < n; ++j) {
    const LayoutJointSpec& s = spec.joints[j];
    for (std::size_t k = 0; k < j; ++k) {
      if (spec.joints[k].name == s.parent) parent[j] = static_cast<int>(k);
    }
    REQUIRE_MESSAGE((j == 0 || parent[j] >= 0), s.name);
    if (parent[j] >= 0) children[static_cast<std::size_t>(parent[j])].push_back(static_cast<int>(j));
    a[j] = bvh.findJoint(s.a);
    b[j] = s.b.empty() ? -1 : bvh.findJoint(s.b);
    REQUIRE_MESSAGE(a[j] >= 0, s.a);
    REQUIRE_MESSAGE((s.b.empty() || b[j] >= 0), s.b);
  }
  auto at = [&](const Eigen::Matrix3Xd& P, std::size_t j) -> Eigen::Vector3d {
    const Eigen::Vector3d pa = P.col(a[j]);
    return b[j] < 0 ? pa : Eigen::Vector3d((1 - spec.joints[j].w) * pa + spec.joints[j].w * P.col(b[j]));
  };
  // T-pose offsets (canonical frame, m) and bind frames B (G_file = GT * B).
  std::vector<Eigen::Vector3d> o(n, Eigen::Vector3d::Zero());
  for (std::size_t j = 1; j < n; ++j) o[j] = at(src.rest_W, j) - at(src.rest_W, static_cast<std::size_t>(parent[j]));
  std::vector<Eigen::Matrix3d> B(n, Eigen::Matrix3d::Identity());
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> angle(-kPi<double>, kPi<double>);
  if (spec.bones_along_x) {
    const Eigen::Vector3d x_W = spec.R_WS.col(0);  // file +X in the canonical frame
    for (std::size_t j = 0; j < n; ++j) {
      Eigen::Vector3d dir = Eigen::Vector3d::Zero();
      for (int c : children[j]) {
        if (o[static_cast<std::size_t>(c)].norm() > 1e-9) {
          dir = o[static_cast<std::size_t>(c)].normalized();
          break;  // the first child with a length: spine at the hips, neck at the chest
        }
      }
      const Eigen::Matrix3d twist = Eigen::AngleAxisd(angle(rng), x_W).toRotationMatrix();
      // B^T maps the bone direction onto file +X: B^T o_child = |o_child| x_W.
      const Eigen::Matrix3d Bt = dir.norm() > 0 ? Eigen::Matrix3d(twist * Eigen::Quaterniond::FromTwoVectors(dir, x_W).toRotationMatrix())
                                                : twist;
      B[j] = Bt.transpose();
    }
  }
  const Eigen::Matrix3d R_SW = spec.R_WS.transpose();
  const double inv = 1.0 / spec.metres_per_unit;
  std::vector<BvhChannel> rot;
  for (char c : spec.order) rot.push_back(static_cast<BvhChannel>(3 + (c - 'X')));
  const std::vector<BvhChannel> pos = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition};
  BvhMotion out;
  std::uniform_real_distribution<double> garbage(-30, 30);
  for (std::size_t j = 0; j < n; ++j) {
    BvhJoint joint;
    joint.name = spec.joints[j].name;
    joint.parent = parent[j];
    joint.is_end_site = spec.joints[j].end;
    joint.offset = j == 0 ? Eigen::Vector3d(inv * (R_SW * at(src.rest_W, 0)))
                          : Eigen::Vector3d(inv * (R_SW * (B[static_cast<std::size_t>(parent[j])].transpose() * o[j])));
    if (!joint.is_end_site) {
      if (j == 0 || spec.positions_everywhere) joint.channels = pos;
      joint.channels.insert(joint.channels.end(), rot.begin(), rot.end());
    }
    out.joints.push_back(joint);
  }
  std::vector<Eigen::Vector3d> true_offset(n);
  for (std::size_t j = 0; j < n; ++j) true_offset[j] = out.joints[j].offset;
  if (spec.positions_everywhere) {
    for (std::size_t j = 1; j < n; ++j) {
      if (!out.joints[j].is_end_site) out.joints[j].offset = Eigen::Vector3d(garbage(rng), garbage(rng), garbage(rng));
    }
  }
  out.assignChannelIndices();
  out.frame_time = bvh.frame_time;
  out.frame_count = bvh.frame_count;
  out.values.assign(static_cast<std::size_t>(out.frame_count) * static_cast<std::size_t>(out.channel_count), 0.0);
  for (int f = 0; f < bvh.frame_count; ++f) {
    const Eigen::Matrix3Xd& P = src.p_W[static_cast<std::size_t>(f)];
    const auto& G = src.G_W[static_cast<std::size_t>(f)];
    std::vector<Eigen::Matrix3d> GT(n), Gf(n);
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<Eigen::Vector3d> u, v;
      std::vector<double> w;
      for (int c : children[j]) {
        const auto k = static_cast<std::size_t>(c);
        if (o[k].norm() < 1e-9) continue;
        u.push_back(o[k]);
        v.push_back(at(P, k) - at(P, j));
        w.push_back(1.0);
      }
      const double twist_weight = u.empty() ? 1.0 : 1e-4;
      for (int e = 0; e < 3; ++e) {  // twist (and the whole rotation of a leaf) from the source joint
        u.push_back(Eigen::Vector3d::Unit(e));
        v.push_back(G[static_cast<std::size_t>(a[j])].col(e));
        w.push_back(twist_weight);
      }
      GT[j] = layoutKabsch(u, v, w);
      Gf[j] = GT[j] * B[j];
    }
    double* row = out.frame(f);
    for (std::size_t j = 0; j < n; ++j) {
      const BvhJoint& joint = out.joints[j];
      if (joint.is_end_site) continue;
      const Eigen::Matrix3d local_W = j == 0 ? Gf[0] : Eigen::Matrix3d(Gf[static_cast<std::size_t>(parent[j])].transpose() * Gf[j]);
      const Eigen::Matrix3d local_S = R_SW * local_W * spec.R_WS;
      const Eigen::Vector3d e = local_S.eulerAngles(spec.order[0] - 'X', spec.order[1] - 'X', spec.order[2] - 'X');
      auto c = static_cast<std::size_t>(joint.first_channel);
      if (j == 0) {
        const Eigen::Vector3d p_S = inv * (R_SW * at(P, 0));
        for (int k = 0; k < 3; ++k) row[c++] = p_S[k];
      } else if (spec.positions_everywhere) {
        for (int k = 0; k < 3; ++k) row[c++] = true_offset[j][k];
      }
      for (int k = 0; k < 3; ++k) row[c++] = e[k] * 180.0 / kPi<double>;
    }
  }
  validateBvh(out);
  return out;
}

// GA-LVVJ onto NAO: whole-body and lower-limb link similarity of the robot to the human.
MotionSimilarity<double> layoutOnNao(const SkeletonMotiond& motion) {
  static const RobotModel<double> nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  std::vector<SkeletonFramed> robot(motion.size());
  for (std::size_t k = 0; k < motion.size(); ++k) {
    robot[k].time = motion.frames[k].time;
    REQUIRE(skeleton.compute(mapped.q.row(static_cast<Eigen::Index>(k)).transpose(), robot[k]).ok());
  }
  return motionSimilarity(motion.frames, robot);
}

std::string layoutBound(const SkeletonSchema& schema, HumanJoint joint) {
  const SchemaJointSource* s = schema.source(joint);
  return s == nullptr || !s->second.empty() ? std::string() : s->first;
}

// The shared CMU takes the layouts are built from.
const char* const kLayoutTakes[] = {"xia_cmu_skeleton31_neutral_walk_01_000.bvh", "cmu_skeleton31_deepmotionediting_example.bvh"};

}  // namespace

TEST_CASE("rig layouts: one motion in every convention binds its joints, up axis and units from the motion, and maps onto NAO as the source") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* take : kLayoutTakes) {
    const BvhMotion source_bvh = readBvh(data_dir / "bvh" / take);
    const LayoutSource src = layoutSource(source_bvh);
    const SkeletonMotiond reference = bvhToSkeleton(source_bvh, cmuSchema());
    const MotionSimilarity<double> ref = layoutOnNao(reference);
    MESSAGE(std::string(take) << ": CMU layout (built-in schema) GA-LVVJ/NAO WBF " << ref.wbf_mean << " LLF " << ref.llf_mean);
    for (const LayoutSpec& spec : layoutSpecs()) {
      CAPTURE(take);
      CAPTURE(spec.name);
      const BvhMotion bvh = layoutMotion(spec, src);
      // Written as BVH text and read back: what a user's file would be.
      std::ostringstream text;
      writeBvh(bvh, text);
      const BvhMotion file = parseBvh(text.str(), spec.name + ".bvh");
      const RigBinding binding = bindRig(file);
      for (const auto& expected : spec.expected) {  // not a structured binding: CAPTURE's lambda takes it
        const auto joint = expected.first;
        CAPTURE(name(joint));
        CHECK(layoutBound(binding.schema, joint) == expected.second);
      }
      CHECK(binding.R_WS.row(2) == spec.R_WS.row(2));  // up axis
      CHECK(binding.scale == spec.metres_per_unit);
      CHECK((binding.units_from == RigEvidence::kMotion));
      CHECK((binding.up_from == (spec.bones_along_x ? RigEvidence::kMotion : RigEvidence::kRestPose)));
      CHECK(binding.rest_pose_standing == !spec.bones_along_x);
      CHECK(binding.height_m > 1.2);
      CHECK(binding.height_m < 2.1);
      CHECK(binding.problems.empty());
      // The same body: per frame, each checked joint's distance to the hips and height above them.
      const SkeletonMotiond motion = bvhToSkeleton(file, binding.schema);
      REQUIRE(motion.size() == reference.size());
      double worst = 0;
      std::string worst_joint;
      for (std::size_t f = 0; f < motion.size(); ++f) {
        const auto& g = motion.frames[f];
        const auto& r = reference.frames[f];
        const Eigen::Vector3d g0 = g.position(HumanJoint::kSpineBase), r0 = r.position(HumanJoint::kSpineBase);
        for (const auto& item : spec.expected) {
          const Eigen::Vector3d dg = g.position(item.first) - g0, dr = r.position(item.first) - r0;
          const double e = std::max(std::abs(dg.norm() - dr.norm()), std::abs(dg.z() - dr.z()));
          if (e > worst) worst_joint = name(item.first);
          worst = std::max(worst, e);
        }
      }
      // Measured: 2.5e-4 m in CMU's own layout; up to 0.026 m in the others, whose hips fit three
      // source frames at once (CMU's LHipJoint, RHipJoint and LowerBack turn against the Hips).
      CHECK(worst < 0.04);
      const MotionSimilarity<double> s = layoutOnNao(motion);
      CHECK(std::abs(s.wbf_mean - ref.wbf_mean) <= 0.02);
      CHECK(std::abs(s.llf_mean - ref.llf_mean) <= 0.02);
      MESSAGE(spec.name << ": up " << internal::rigAxisName(binding.R_WS.row(2).transpose()) << " from the "
                        << std::string(rigEvidenceName(binding.up_from)) << ", units " << binding.unit << " from the "
                        << std::string(rigEvidenceName(binding.units_from)) << " (" << binding.height_m
                        << " m), facing from the " << std::string(rigEvidenceName(binding.facing_from)) << ", confidence " << binding.confidence
                        << "; body error " << worst << " m (" << worst_joint << "); WBF " << s.wbf_mean << " LLF " << s.llf_mean);
    }
  }
}

TEST_CASE("rig layouts: the LAFAN1 layout binds only from its motion; without frames the up axis cannot be decided") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion source_bvh = readBvh(data_dir / "bvh" / kLayoutTakes[0]);
  const LayoutSource src = layoutSource(source_bvh);
  const LayoutSpec spec = layoutSpecs().front();
  REQUIRE(spec.name == "lafan1");
  BvhMotion bvh = layoutMotion(spec, src);
  // Its rest pose is not a person: the bones all lie along +X.
  const RigBinding binding = bindRig(bvh);
  CHECK_FALSE(binding.rest_pose_standing);
  CHECK(binding.frames_used == std::min(240, bvh.frame_count));
  bool says_motion = false;
  for (const std::string& g : binding.guesses) says_motion = says_motion || g.find("from the motion") != std::string::npos;
  CHECK(says_motion);
  // Every frame is a standing person: the head is above the hips along the found up axis.
  const SkeletonMotiond motion = bvhToSkeleton(bvh, binding.schema);
  for (const auto& frame : motion.frames) CHECK(frame.position(HumanJoint::kHead).z() > frame.position(HumanJoint::kSpineBase).z());
  bvh.frame_count = 0;
  bvh.values.clear();
  CHECK_THROWS_WITH_AS(bindRig(bvh), doctest::Contains("cannot decide the up axis"), InvalidArgument);
}

TEST_CASE("rig layouts: scrambled rigs are refused with the file, the reason and the schema hint") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion source_bvh = readBvh(data_dir / "bvh" / kLayoutTakes[0]);
  const LayoutSource src = layoutSource(source_bvh);
  for (const LayoutSpec& base : layoutSpecs()) {
    if (base.name != "lafan1" && base.name != "mixamo") continue;
    CAPTURE(base.name);
    // Swapped arm names: the left arm's joints named Right and the right arm's Left.
    LayoutSpec swapped = base;
    auto swapSide = [](std::string& s) {
      const auto l = s.find("Left"), r = s.find("Right");
      if (l != std::string::npos) s.replace(l, 4, "Right");
      else if (r != std::string::npos) s.replace(r, 5, "Left");
    };
    for (auto& j : swapped.joints) {
      const bool arm = j.a.find("Arm") != std::string::npos || j.a.find("Hand") != std::string::npos ||
                       j.b.find("Arm") != std::string::npos;
      if (arm) {
        swapSide(j.name);
        if (j.parent.find("Spine") == std::string::npos) swapSide(j.parent);
      }
    }
    const BvhMotion swapped_bvh = parseBvh([&] {
      std::ostringstream text;
      writeBvh(layoutMotion(swapped, src), text);
      return text.str();
    }(), "swapped-arms.bvh");
    CHECK_THROWS_WITH_AS(bindRig(swapped_bvh), doctest::Contains("'swapped-arms.bvh'"), InvalidArgument);
    CHECK_THROWS_WITH_AS(bindRig(swapped_bvh), doctest::Contains("left/right names"), InvalidArgument);
    CHECK_THROWS_WITH_AS(bindRig(swapped_bvh), doctest::Contains("retarget schema suggest swapped-arms.bvh"), InvalidArgument);
    CHECK_THROWS_WITH_AS(bvhToSkeleton(swapped_bvh), doctest::Contains("refusing to bind"), InvalidArgument);
    // Not refusing: the problem is listed instead (what `retarget schema suggest` prints).
    RigBindingOptions keep;
    keep.refuse_implausible = false;
    CHECK_FALSE(bindRig(swapped_bvh, keep).problems.empty());
    // Names that say other body parts than the joints' places (the left forearm named a calf):
    // confidence 0.5, refused.
    BvhMotion misnamed = layoutMotion(base, src);
    misnamed.source = "misnamed.bvh";
    for (auto& j : misnamed.joints) {
      const auto at = j.name.find("LeftForeArm");
      if (at != std::string::npos) j.name.replace(at, 11, "LeftCalf");
    }
    CHECK_THROWS_WITH_AS(bindRig(misnamed), doctest::Contains("confidence is 0.5"), InvalidArgument);
    CHECK_THROWS_WITH_AS(bindRig(misnamed), doctest::Contains("LeftCalf' bound as forearm"), InvalidArgument);
    CHECK(bindRig(misnamed, keep).confidence == 0.5);
    // A leg longer than the body: the left thigh and shin bones 2.5 times as long.
    BvhMotion long_leg = layoutMotion(base, src);
    long_leg.source = "long-leg.bvh";
    for (auto& j : long_leg.joints) {
      const std::string bare = j.name.substr(j.name.rfind(':') == std::string::npos ? 0 : j.name.rfind(':') + 1);
      if (bare == "LeftLeg" || bare == "LeftFoot") j.offset *= 2.5;
    }
    CHECK_THROWS_WITH_AS(bindRig(long_leg), doctest::Contains("'long-leg.bvh'"), InvalidArgument);
    CHECK_THROWS_WITH_AS(bindRig(long_leg), doctest::Contains("refusing to bind"), InvalidArgument);
    const RigBinding kept = bindRig(long_leg, keep);
    REQUIRE_FALSE(kept.problems.empty());
    MESSAGE(base.name << " long leg: " << kept.problems.front());
    try {
      (void)bindRig(swapped_bvh);
    } catch (const Error& e) {
      MESSAGE(base.name << " swapped arms: " << std::string(e.what()));
    }
  }
}

TEST_CASE("rig layouts: upside-down frames: all of them turn the up axis, most of them are refused") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion source_bvh = readBvh(data_dir / "bvh" / kLayoutTakes[0]);
  const LayoutSource src = layoutSource(source_bvh);
  const LayoutSpec spec = layoutSpecs()[1];  // Mixamo: a standing rest pose
  REQUIRE(spec.name == "mixamo");
  const int hips = source_bvh.findJoint("Hips");
  const Eigen::Matrix3d flip = Eigen::AngleAxisd(kPi<double>, Eigen::Vector3d::UnitX()).toRotationMatrix();
  auto upsideDown = [&](double fraction) {
    LayoutSource s = src;
    const auto frames = static_cast<std::size_t>(fraction * static_cast<double>(s.p_W.size()));
    for (std::size_t f = 0; f < frames; ++f) {
      const Eigen::Vector3d p_hips = s.p_W[f].col(hips);
      s.p_W[f] = (flip * (s.p_W[f].colwise() - p_hips)).colwise() + p_hips;
      for (auto& G : s.G_W[f]) G = flip * G;
    }
    return layoutMotion(spec, s);
  };
  // Every frame upside down (a root rotation in the whole take): the motion overrides the rest pose.
  const RigBinding turned = bindRig(upsideDown(1.0));
  CHECK((turned.up_from == RigEvidence::kMotion));
  CHECK(turned.R_WS.row(2) == Eigen::RowVector3d(-spec.R_WS.row(2)));
  CHECK(turned.problems.empty());
  // 60% of the frames upside down: the rest pose keeps the up axis, and the head is below the hips
  // in most frames: refused.
  CHECK_THROWS_WITH_AS(bindRig(upsideDown(0.6)), doctest::Contains("is below the hips"), InvalidArgument);
  // 30%: bound along the rest pose's axis.
  const RigBinding mostly = bindRig(upsideDown(0.3));
  CHECK((mostly.up_from == RigEvidence::kRestPose));
  CHECK(mostly.R_WS.row(2) == spec.R_WS.row(2));
}
