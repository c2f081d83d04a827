#pragma once

// The rig-binding test corpus, written for this project (no file copied from anywhere): one
// abstract human body (17 joints per side and centre, T-pose, canonical frame: metres, x forward,
// y left, z up) written as BVH hierarchies in the naming families the binder knows, in
// centimetres, metres and inches, Y-up or Z-up with several facings, in a T-pose or an A-pose
// (arms 45 deg down), with various rotation channel orders. A "known motion" (seeded random local
// rotations of the abstract body plus a root trajectory) is written into each variant so that the
// variant's forward kinematics, mapped back by scale and frame, gives the same canonical positions.

#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <retarget/human/bvh_motion.hpp>

namespace retarget::test {

/// Abstract joints of the corpus body.
enum RigBody : int {
  kBodyHips, kBodySpine0, kBodySpine1, kBodyChest, kBodyNeck, kBodyHead, kBodyHeadTop,
  kBodyCollarL, kBodyUpperArmL, kBodyForeArmL, kBodyHandL, kBodyHandEndL,
  kBodyThighL, kBodyShinL, kBodyFootL, kBodyToeL, kBodyToeEndL,
  kBodyCollarR, kBodyUpperArmR, kBodyForeArmR, kBodyHandR, kBodyHandEndR,
  kBodyThighR, kBodyShinR, kBodyFootR, kBodyToeR, kBodyToeEndR,
  kBodyCount
};

/// Parent of each abstract joint (-1 for the hips).
inline const std::array<int, kBodyCount>& rigBodyParents() {
  static const std::array<int, kBodyCount> kParents = {
      -1, kBodyHips, kBodySpine0, kBodySpine1, kBodyChest, kBodyNeck, kBodyHead,
      kBodyChest, kBodyCollarL, kBodyUpperArmL, kBodyForeArmL, kBodyHandL,
      kBodyHips, kBodyThighL, kBodyShinL, kBodyFootL, kBodyToeL,
      kBodyChest, kBodyCollarR, kBodyUpperArmR, kBodyForeArmR, kBodyHandR,
      kBodyHips, kBodyThighR, kBodyShinR, kBodyFootR, kBodyToeR};
  return kParents;
}

/// T-pose offsets in the canonical frame (m): 1.75 m tall, feet on z = 0, facing +x.
inline Eigen::Vector3d rigBodyOffset(int joint) {
  const double side = (joint >= kBodyCollarR) ? -1.0 : 1.0;
  switch (joint) {
    case kBodyHips: return {0, 0, 0.95};
    case kBodySpine0: return {-0.01, 0, 0.10};
    case kBodySpine1: return {0, 0, 0.12};
    case kBodyChest: return {0.01, 0, 0.12};
    case kBodyNeck: return {0, 0, 0.18};
    case kBodyHead: return {0.01, 0, 0.10};
    case kBodyHeadTop: return {0, 0, 0.18};
    case kBodyCollarL: case kBodyCollarR: return {0, side * 0.03, 0.12};
    case kBodyUpperArmL: case kBodyUpperArmR: return {0, side * 0.15, 0};
    case kBodyForeArmL: case kBodyForeArmR: return {0, side * 0.30, 0};
    case kBodyHandL: case kBodyHandR: return {0, side * 0.26, 0};
    case kBodyHandEndL: case kBodyHandEndR: return {0, side * 0.18, 0};
    case kBodyThighL: case kBodyThighR: return {0, side * 0.09, -0.05};
    case kBodyShinL: case kBodyShinR: return {0, 0, -0.43};
    case kBodyFootL: case kBodyFootR: return {0, 0, -0.41};
    case kBodyToeL: case kBodyToeR: return {0.13, 0, -0.04};
    case kBodyToeEndL: case kBodyToeEndR: return {0.06, 0, -0.02};
    default: return {0, 0, 0};
  }
}

/// True for the tips (written as End Sites unless the family names them as joints).
inline bool rigBodyIsTip(int joint) {
  return joint == kBodyHeadTop || joint == kBodyHandEndL || joint == kBodyHandEndR || joint == kBodyToeEndL ||
         joint == kBodyToeEndR;
}

/// A naming family: the name of each abstract joint; an empty tip name writes an End Site.
struct RigFamily {
  std::string name;
  std::array<std::string, kBodyCount> joints;
};

inline RigFamily rigFamily(const std::string& family_name, std::vector<std::string> centre,
                           std::vector<std::string> left, std::vector<std::string> right) {
  RigFamily f;
  f.name = family_name;
  for (int k = 0; k < 7; ++k) f.joints[static_cast<std::size_t>(k)] = centre[static_cast<std::size_t>(k)];
  for (int k = 0; k < 10; ++k) {
    f.joints[static_cast<std::size_t>(kBodyCollarL + k)] = left[static_cast<std::size_t>(k)];
    f.joints[static_cast<std::size_t>(kBodyCollarR + k)] = right[static_cast<std::size_t>(k)];
  }
  return f;
}

/// Limb names from a per-side pattern: `pattern(side_word, part)`.
template <typename F>
std::vector<std::string> rigLimbNames(F name, const std::string& side, const std::array<const char*, 10>& parts) {
  std::vector<std::string> out;
  for (const char* part : parts) out.push_back(part[0] == '\0' ? std::string() : name(side, part));
  return out;
}

/// Every naming family of the corpus (LAFAN1, Mixamo with and without namespace, CMU, Biovision,
/// Axis Neuron / Studio, Xsens MVN, OptiTrack Motive, Rokoko, Unity humanoid, Blender, SMPL, DAZ,
/// Lft/Rgt, and a rig with meaningless names).
inline const std::vector<RigFamily>& rigFamilies() {
  static const std::vector<RigFamily> kFamilies = [] {
    std::vector<RigFamily> v;
    auto prefix = [](const std::string& s, const char* p) { return s + p; };
    const std::array<const char*, 10> lafan = {"Shoulder", "Arm", "ForeArm", "Hand", "", "UpLeg", "Leg", "Foot", "Toe", ""};
    v.push_back(rigFamily("lafan1", {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", ""},
                          rigLimbNames(prefix, "Left", lafan), rigLimbNames(prefix, "Right", lafan)));
    const std::array<const char*, 10> mixamo = {"Shoulder", "Arm", "ForeArm", "Hand", "", "UpLeg", "Leg", "Foot",
                                                "ToeBase", "ToeBase_End"};
    auto mixamo_name = [](const std::string& s, const char* p) { return "mixamorig:" + s + p; };
    v.push_back(rigFamily("mixamo-namespace",
                          {"mixamorig:Hips", "mixamorig:Spine", "mixamorig:Spine1", "mixamorig:Spine2",
                           "mixamorig:Neck", "mixamorig:Head", "mixamorig:HeadTop_End"},
                          rigLimbNames(mixamo_name, "Left", mixamo), rigLimbNames(mixamo_name, "Right", mixamo)));
    v.push_back(rigFamily("mixamo", {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", "HeadTop_End"},
                          rigLimbNames(prefix, "Left", mixamo), rigLimbNames(prefix, "Right", mixamo)));
    const std::array<const char*, 10> cmu = {"Shoulder", "Arm", "ForeArm", "Hand", "", "UpLeg", "Leg", "Foot", "ToeBase", ""};
    v.push_back(rigFamily("cmu", {"Hips", "LowerBack", "Spine", "Spine1", "Neck", "Head", ""},
                          rigLimbNames(prefix, "Left", cmu), rigLimbNames(prefix, "Right", cmu)));
    const std::array<const char*, 10> bio = {"Collar", "Shoulder", "Elbow", "Wrist", "", "Hip", "Knee", "Ankle", "Toe", ""};
    v.push_back(rigFamily("biovision", {"Hips", "Chest", "Chest2", "Chest3", "Neck", "Head", ""},
                          rigLimbNames(prefix, "Left", bio), rigLimbNames(prefix, "Right", bio)));
    const std::array<const char*, 10> neuron = {"Shoulder", "Arm", "ForeArm", "Hand", "", "UpLeg", "Leg", "Foot", "ToeBase", ""};
    v.push_back(rigFamily("axis-studio", {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head", ""},
                          rigLimbNames(prefix, "Left", neuron), rigLimbNames(prefix, "Right", neuron)));
    const std::array<const char*, 10> xsens = {"Shoulder", "UpperArm", "ForeArm", "Hand", "", "UpperLeg", "LowerLeg", "Foot", "Toe", ""};
    v.push_back(rigFamily("xsens-mvn", {"Pelvis", "L5", "L3", "T8", "Neck", "Head", ""},
                          rigLimbNames(prefix, "Left", xsens), rigLimbNames(prefix, "Right", xsens)));
    const std::array<const char*, 10> motive = {"Shoulder", "UArm", "FArm", "Hand", "", "Thigh", "Shin", "Foot", "Toe", ""};
    auto motive_name = [](const std::string& s, const char* p) { return "Skeleton_" + s + p; };
    v.push_back(rigFamily("optitrack-motive",
                          {"Skeleton_Hip", "Skeleton_Ab", "Skeleton_Spine", "Skeleton_Chest", "Skeleton_Neck",
                           "Skeleton_Head", ""},
                          rigLimbNames(motive_name, "L", motive), rigLimbNames(motive_name, "R", motive)));
    const std::array<const char*, 10> rokoko = {"Shoulder", "Arm", "ForeArm", "Hand", "", "Thigh", "Shin", "Foot", "Toe", ""};
    v.push_back(rigFamily("rokoko", {"Hips", "Spine1", "Spine2", "Spine3", "Neck", "Head", ""},
                          rigLimbNames(prefix, "Left", rokoko), rigLimbNames(prefix, "Right", rokoko)));
    const std::array<const char*, 10> unity = {"Shoulder", "UpperArm", "LowerArm", "Hand", "", "UpperLeg", "LowerLeg", "Foot", "Toes", ""};
    auto unity_name = [](const std::string& s, const char* p) { return std::string(p) + "_" + s; };
    v.push_back(rigFamily("unity-humanoid", {"Hips", "Spine", "Chest", "UpperChest", "Neck", "Head", ""},
                          rigLimbNames(unity_name, "L", unity), rigLimbNames(unity_name, "R", unity)));
    const std::array<const char*, 10> blender = {"shoulder", "upper_arm", "forearm", "hand", "", "thigh", "shin", "foot", "toe", ""};
    auto blender_name = [](const std::string& s, const char* p) { return std::string(p) + "." + s; };
    v.push_back(rigFamily("blender", {"hips", "spine", "spine.001", "chest", "neck", "head", ""},
                          rigLimbNames(blender_name, "L", blender), rigLimbNames(blender_name, "R", blender)));
    const std::array<const char*, 10> smpl = {"collar", "shoulder", "elbow", "wrist", "hand", "hip", "knee", "ankle", "foot", ""};
    auto smpl_name = [](const std::string& s, const char* p) { return s + "_" + p; };
    v.push_back(rigFamily("smpl", {"pelvis", "spine1", "spine2", "spine3", "neck", "head", ""},
                          rigLimbNames(smpl_name, "left", smpl), rigLimbNames(smpl_name, "right", smpl)));
    const std::array<const char*, 10> daz = {"Collar", "Shldr", "ForeArm", "Hand", "", "Thigh", "Shin", "Foot", "Toe", ""};
    v.push_back(rigFamily("daz", {"hip", "abdomen", "abdomen2", "chest", "neck", "head", ""},
                          rigLimbNames(prefix, "l", daz), rigLimbNames(prefix, "r", daz)));
    const std::array<const char*, 10> max = {"Clavicle", "UpperArm", "Forearm", "Hand", "", "Thigh", "Calf", "Foot", "Toe0", ""};
    v.push_back(rigFamily("lft-rgt", {"Pelvis", "Spine", "Spine1", "Spine2", "Neck", "Head", ""},
                          rigLimbNames([](const std::string& s, const char* p) { return s + "_" + p; }, "Lft", max),
                          rigLimbNames([](const std::string& s, const char* p) { return s + "_" + p; }, "Rgt", max)));
    RigFamily anonymous;
    anonymous.name = "anonymous";
    for (int k = 0; k < kBodyCount; ++k) {
      anonymous.joints[static_cast<std::size_t>(k)] = rigBodyIsTip(k) ? std::string() : "j" + std::to_string(k);
    }
    v.push_back(anonymous);
    return v;
  }();
  return kFamilies;
}

/// A variant of the corpus: family, unit, file frame and rest pose.
struct RigVariant {
  const RigFamily* family = nullptr;
  double metres_per_unit = 0.01;  // 1 (m), 0.01 (cm), 0.0254 (in)
  Eigen::Matrix3d R_WS = Eigen::Matrix3d::Identity();  // file frame -> canonical
  bool a_pose = false;
  std::string channel_order = "ZXY";
  std::string label() const;
};

/// File frames used by the corpus: Y-up facing +Z (left +X), Z-up facing -Y (Blender), Y-up facing
/// -X, Z-up facing +X.
inline std::vector<std::pair<std::string, Eigen::Matrix3d>> rigFrames() {
  std::vector<std::pair<std::string, Eigen::Matrix3d>> out;
  Eigen::Matrix3d R;
  R << 0, 0, 1, 1, 0, 0, 0, 1, 0;  // forward=+Z left=+X up=+Y
  out.emplace_back("Y-up/+Z", R);
  R << 0, -1, 0, 1, 0, 0, 0, 0, 1;  // forward=-Y left=+X up=+Z
  out.emplace_back("Z-up/-Y", R);
  R << -1, 0, 0, 0, 0, 1, 0, 1, 0;  // forward=-X left=+Z up=+Y
  out.emplace_back("Y-up/-X", R);
  R << 1, 0, 0, 0, 1, 0, 0, 0, 1;  // forward=+X left=+Y up=+Z
  out.emplace_back("Z-up/+X", R);
  return out;
}

inline std::string RigVariant::label() const {
  std::string frame = "?";
  for (const auto& [name, R] : rigFrames()) {
    if (R == R_WS) frame = name;
  }
  const char* unit = metres_per_unit == 1.0 ? "m" : (metres_per_unit == 0.01 ? "cm" : "in");
  return family->name + " " + unit + " " + frame + (a_pose ? " A-pose " : " T-pose ") + channel_order;
}

/// Every variant: each family in each unit, each frame and both poses.
inline std::vector<RigVariant> rigVariants() {
  std::vector<RigVariant> out;
  const char* const kOrders[] = {"ZXY", "ZYX", "XYZ", "YXZ", "YZX", "XZY"};
  int k = 0;
  for (const RigFamily& family : rigFamilies()) {
    for (double unit : {0.01, 1.0, 0.0254}) {
      for (const auto& frame : rigFrames()) {
        for (bool a_pose : {false, true}) {
          RigVariant v;
          v.family = &family;
          v.metres_per_unit = unit;
          v.R_WS = frame.second;
          v.a_pose = a_pose;
          v.channel_order = kOrders[k++ % 6];
          out.push_back(v);
        }
      }
    }
  }
  return out;
}

/// Global rest rotation of an abstract joint's frame in the variant relative to the T-pose (W):
/// the A-pose turns each arm 45 deg down about the forward axis from the upper arm on.
inline Eigen::Matrix3d rigRestRotation(int joint, bool a_pose) {
  if (!a_pose) return Eigen::Matrix3d::Identity();
  const bool left_arm = joint >= kBodyUpperArmL && joint <= kBodyHandEndL;
  const bool right_arm = joint >= kBodyUpperArmR && joint <= kBodyHandEndR;
  if (!left_arm && !right_arm) return Eigen::Matrix3d::Identity();
  // Left arm (+y) down (-z): rotation about +x by -45 deg; right arm mirrored.
  return Eigen::AngleAxisd((left_arm ? -1.0 : 1.0) * kPi<double> / 4, Eigen::Vector3d::UnitX()).toRotationMatrix();
}

/// The known motion: per frame, local rotations L (canonical frame, T-pose body) of every abstract
/// joint and the hips position (m).
struct RigKnownMotion {
  std::vector<std::array<Eigen::Matrix3d, kBodyCount>> local;
  std::vector<Eigen::Vector3d> hips;
};

inline RigKnownMotion rigKnownMotion(int frames, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  RigKnownMotion m;
  for (int f = 0; f < frames; ++f) {
    std::array<Eigen::Matrix3d, kBodyCount> L;
    for (int j = 0; j < kBodyCount; ++j) {
      Eigen::Vector3d axis(unit(rng), unit(rng), unit(rng));
      if (axis.norm() < 1e-3) axis = Eigen::Vector3d::UnitZ();
      // A person stays upright (the binder refuses a head below the hips in most frames): the hips
      // turn freely about the vertical and tilt by at most 0.3 rad, the spine, neck and head joints
      // bend by at most 0.3 rad each; the limbs turn by up to 1.2 rad about any axis.
      const bool trunk = j >= kBodySpine0 && j <= kBodyHeadTop;
      const double angle = (j == kBodyHips || trunk ? 0.3 : 1.2) * unit(rng);
      L[static_cast<std::size_t>(j)] = Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
      if (j == kBodyHips) L[0] = Eigen::AngleAxisd(kPi<double> * unit(rng), Eigen::Vector3d::UnitZ()) * L[0];
    }
    m.local.push_back(L);
    m.hips.emplace_back(0.5 * unit(rng), 0.5 * unit(rng), 0.95 + 0.1 * unit(rng));
  }
  return m;
}

/// Global positions (m, canonical frame) of every abstract joint at frame f of the known motion.
inline std::array<Eigen::Vector3d, kBodyCount> rigKnownPositions(const RigKnownMotion& m, int f) {
  std::array<Eigen::Vector3d, kBodyCount> p;
  std::array<Eigen::Matrix3d, kBodyCount> G;
  const auto& parents = rigBodyParents();
  for (int j = 0; j < kBodyCount; ++j) {
    const int parent = parents[static_cast<std::size_t>(j)];
    const auto& L = m.local[static_cast<std::size_t>(f)][static_cast<std::size_t>(j)];
    if (parent < 0) {
      G[0] = L;
      p[0] = m.hips[static_cast<std::size_t>(f)];
    } else {
      G[static_cast<std::size_t>(j)] = G[static_cast<std::size_t>(parent)] * L;
      p[static_cast<std::size_t>(j)] = p[static_cast<std::size_t>(parent)] + G[static_cast<std::size_t>(parent)] * rigBodyOffset(j);
    }
  }
  return p;
}

/// Writes variant `v` of the corpus body as a BVH motion playing the known motion `m`. Tips the
/// family names are joints with rotation channels (their rotation follows the motion); unnamed tips
/// are End Sites. `body_of` receives the abstract joint of each BVH joint.
inline BvhMotion rigVariantMotion(const RigVariant& v, const RigKnownMotion& m, std::vector<int>* body_of = nullptr) {
  const Eigen::Matrix3d R_SW = v.R_WS.transpose().eval();  // eval: GCC -O1 -Wmaybe-uninitialized false positive in Eigen's aliasing check
  const double inv = 1.0 / v.metres_per_unit;
  const auto& parents = rigBodyParents();
  std::vector<BvhChannel> rot;
  for (char c : v.channel_order) rot.push_back(static_cast<BvhChannel>(3 + (c - 'X')));
  BvhMotion motion;
  std::array<int, kBodyCount> index{};
  std::vector<int> body;
  // Depth-first order is parents-before-children in the abstract numbering already.
  for (int j = 0; j < kBodyCount; ++j) {
    const std::string& name = v.family->joints[static_cast<std::size_t>(j)];
    const int parent = parents[static_cast<std::size_t>(j)];
    BvhJoint joint;
    joint.parent = parent < 0 ? -1 : index[static_cast<std::size_t>(parent)];
    // Offset of j in the variant's rest pose: the T-pose offset turned by the parent's rest rotation.
    const Eigen::Vector3d offset_W = rigRestRotation(parent < 0 ? j : parent, v.a_pose) * rigBodyOffset(j);
    joint.offset = inv * (R_SW * offset_W);
    if (rigBodyIsTip(j) && name.empty()) {
      joint.is_end_site = true;
      joint.name = v.family->joints[static_cast<std::size_t>(parent)] + "_End";
    } else {
      joint.name = name;
      if (parent < 0) joint.channels = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition};
      joint.channels.insert(joint.channels.end(), rot.begin(), rot.end());
    }
    index[static_cast<std::size_t>(j)] = static_cast<int>(motion.joints.size());
    motion.joints.push_back(joint);
    body.push_back(j);
  }
  motion.assignChannelIndices();
  motion.frame_time = 1.0 / 30;
  motion.frame_count = static_cast<int>(m.local.size());
  motion.values.assign(static_cast<std::size_t>(motion.frame_count) * static_cast<std::size_t>(motion.channel_count), 0.0);
  for (int f = 0; f < motion.frame_count; ++f) {
    std::array<Eigen::Matrix3d, kBodyCount> G;  // the variant's global rotations, canonical frame
    double* row = motion.frame(f);
    // T-pose body globals GT; the variant's joint frames are GT * Q^T (Q: rest rotation).
    std::array<Eigen::Matrix3d, kBodyCount> GT;
    for (int j = 0; j < kBodyCount; ++j) {
      const int parent = parents[static_cast<std::size_t>(j)];
      const auto& L = m.local[static_cast<std::size_t>(f)][static_cast<std::size_t>(j)];
      GT[static_cast<std::size_t>(j)] = parent < 0 ? L : Eigen::Matrix3d(GT[static_cast<std::size_t>(parent)] * L);
      G[static_cast<std::size_t>(j)] = GT[static_cast<std::size_t>(j)] * rigRestRotation(j, v.a_pose).transpose();
    }
    for (int j = 0; j < kBodyCount; ++j) {
      const BvhJoint& joint = motion.joints[static_cast<std::size_t>(index[static_cast<std::size_t>(j)])];
      if (joint.is_end_site) continue;
      const int parent = parents[static_cast<std::size_t>(j)];
      const Eigen::Matrix3d local_W = parent < 0 ? G[0] : Eigen::Matrix3d(G[static_cast<std::size_t>(parent)].transpose() * G[static_cast<std::size_t>(j)]);
      const Eigen::Matrix3d local_S = R_SW * local_W * v.R_WS;
      const Eigen::Vector3d angles = local_S.eulerAngles(v.channel_order[0] - 'X', v.channel_order[1] - 'X', v.channel_order[2] - 'X');
      std::size_t c = static_cast<std::size_t>(joint.first_channel);
      if (parent < 0) {
        const Eigen::Vector3d p_S = inv * (R_SW * m.hips[static_cast<std::size_t>(f)]);
        for (int k = 0; k < 3; ++k) row[c++] = p_S[k];
      }
      for (int k = 0; k < 3; ++k) row[c++] = angles[k] * 180.0 / kPi<double>;
    }
  }
  if (body_of != nullptr) *body_of = body;
  return motion;
}

}  // namespace retarget::test
