// BVH forward kinematics against Assimp's BVH import (an independent reader), on every joint of
// every frame of the shared BVH files.
//
// How Assimp represents a BVH file (checked on libassimp 5.2): one aiNode per joint with the joint
// name, End Sites as nodes named "EndSite_<parent name>", node transforms = OFFSET; one animation
// with one channel per joint, keys at ticks 0, 1, ... (mTicksPerSecond = 1 / frame time), rotation
// keys for every frame, position keys for every frame only for joints with exactly 6 channels
// (otherwise one key holding the OFFSET). We evaluate key f for frame f.
// Exclusions: Assimp supports one ROOT only (all shared files have one); the zero-frame file has
// garbage animation keys in Assimp (a duration of 2^32 - 1 ticks), so there only the rest pose
// (node transforms) is compared; partial position channels (not 6 channels) are ignored by
// Assimp, none of the shared files has them.
#include <doctest/doctest.h>

#include <map>
#include <string>

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <retarget/io/bvh.hpp>

#include "bvh/bvh_test_util.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

Eigen::Matrix4d toEigen(const aiMatrix4x4& m) {
  Eigen::Matrix4d out;
  out << m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4, m.d1, m.d2, m.d3, m.d4;
  return out;
}

struct AssimpJoint {
  const aiNode* node = nullptr;
  const aiNodeAnim* channel = nullptr;
  int parent = -1;  // index into the AssimpJoint list
};

void collect(const aiNode* node, int parent, std::vector<AssimpJoint>& out) {
  const int index = static_cast<int>(out.size());
  out.push_back({node, nullptr, parent});
  for (unsigned i = 0; i < node->mNumChildren; ++i) collect(node->mChildren[i], index, out);
}

// Our name for an Assimp node name ("EndSite_X" -> "X_End").
std::string ourName(const std::string& assimp_name) {
  const std::string prefix = "EndSite_";
  if (assimp_name.rfind(prefix, 0) == 0) return assimp_name.substr(prefix.size()) + "_End";
  return assimp_name;
}

// Global transforms of all Assimp joints at key `frame` (or the node transforms when frame < 0).
std::vector<Eigen::Matrix4d> assimpGlobals(const std::vector<AssimpJoint>& joints, int frame) {
  std::vector<Eigen::Matrix4d> X(joints.size());
  for (std::size_t i = 0; i < joints.size(); ++i) {
    Eigen::Matrix4d local = toEigen(joints[i].node->mTransformation);
    if (frame >= 0 && joints[i].channel != nullptr) {
      const aiNodeAnim* ch = joints[i].channel;
      const unsigned pk = std::min<unsigned>(static_cast<unsigned>(frame), ch->mNumPositionKeys - 1);
      const unsigned rk = std::min<unsigned>(static_cast<unsigned>(frame), ch->mNumRotationKeys - 1);
      const aiVector3D& p = ch->mPositionKeys[pk].mValue;
      const aiQuaternion& q = ch->mRotationKeys[rk].mValue;
      local.setIdentity();
      local.topLeftCorner<3, 3>() = Eigen::Quaterniond(q.w, q.x, q.y, q.z).normalized().toRotationMatrix();
      local.topRightCorner<3, 1>() = Eigen::Vector3d(p.x, p.y, p.z);
    }
    X[i] = joints[i].parent < 0 ? local : X[static_cast<std::size_t>(joints[i].parent)] * local;
  }
  return X;
}

}  // namespace

TEST_CASE("bvh: forward kinematics agrees with Assimp on every joint of every frame") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const auto& facts : test::sharedBvhFiles()) {
    const std::string file_name = facts.file;
    CAPTURE(file_name);
    const auto path = data_dir / "bvh" / facts.file;
    const BvhMotion motion = readBvh(path);
    Assimp::Importer importer;
    const aiScene* scene = importer.ReadFile(path.string(), 0);
    REQUIRE_MESSAGE(scene != nullptr, importer.GetErrorString());
    std::vector<AssimpJoint> joints;
    collect(scene->mRootNode, -1, joints);
    REQUIRE(joints.size() == motion.joints.size());
    // Match nodes to our joints by name, animation channels to nodes by name.
    std::vector<int> ours(joints.size(), -1);
    for (std::size_t i = 0; i < joints.size(); ++i) {
      ours[i] = motion.findJoint(ourName(joints[i].node->mName.C_Str()));
      REQUIRE_MESSAGE(ours[i] >= 0, joints[i].node->mName.C_Str());
      if (joints[i].parent >= 0) {
        CHECK(motion.joints[static_cast<std::size_t>(ours[i])].parent == ours[static_cast<std::size_t>(joints[i].parent)]);
      }
    }
    const bool animated = motion.frame_count > 0;
    if (animated) {
      REQUIRE(scene->mNumAnimations == 1);
      const aiAnimation* animation = scene->mAnimations[0];
      CHECK(animation->mTicksPerSecond == doctest::Approx(1.0 / motion.frame_time));
      for (unsigned c = 0; c < animation->mNumChannels; ++c) {
        for (AssimpJoint& joint : joints) {
          if (joint.node->mName == animation->mChannels[c]->mNodeName) joint.channel = animation->mChannels[c];
        }
      }
      for (const AssimpJoint& joint : joints) {
        const bool end_site = std::string(joint.node->mName.C_Str()).rfind("EndSite_", 0) == 0;
        CHECK((joint.channel != nullptr) == !end_site);
        if (joint.channel != nullptr) CHECK(joint.channel->mNumRotationKeys == static_cast<unsigned>(motion.frame_count));
      }
    }
    const BvhMotion evaluated = animated ? motion : bvhRestPose(motion);
    // Tolerance: 1e-6 of the skeleton's size (the diagonal of its first-frame bounding box).
    std::vector<Eigen::Isometry3d> X_WJ;
    bvhGlobalPoses(evaluated, 0, X_WJ);
    Eigen::AlignedBox3d box;
    for (const auto& X : X_WJ) box.extend(X.translation());
    const double tolerance = 1e-6 * box.diagonal().norm();
    double worst = 0;
    for (int f = 0; f < evaluated.frame_count; ++f) {
      bvhGlobalPoses(evaluated, f, X_WJ);
      const auto X_assimp = assimpGlobals(joints, animated ? f : -1);
      for (std::size_t i = 0; i < joints.size(); ++i) {
        const Eigen::Vector3d theirs = X_assimp[i].topRightCorner<3, 1>();
        const double error = (X_WJ[static_cast<std::size_t>(ours[i])].translation() - theirs).norm();
        worst = std::max(worst, error);
        if (error > tolerance) {
          CHECK_MESSAGE(error <= tolerance, "frame ", f, " joint ", joints[i].node->mName.C_Str(), " error ", error);
        }
      }
    }
    MESSAGE(std::string(facts.file), ": worst position difference to Assimp ", worst, " (tolerance ", tolerance, ")");
    CHECK(worst <= tolerance);
  }
}
