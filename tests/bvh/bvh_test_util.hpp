#pragma once

// Helpers shared by the BVH tests: the manifest's facts about the shared files and random
// hierarchies.

#include <algorithm>
#include <array>
#include <random>
#include <string>
#include <vector>

#include <retarget/io/bvh.hpp>

namespace retarget::test {

/// Facts about each shared BVH file, copied from ../shared/data/MANIFEST.md (not from our code).
struct BvhFileFacts {
  const char* file;
  int joints;      // without End Sites
  int end_sites;
  int frames;
  double frame_time;
  int channels;    // values per frame
  const char* schema;
};

inline const std::array<BvhFileFacts, 6>& sharedBvhFiles() {
  static const std::array<BvhFileFacts, 6> kFiles = {{
      {"cmu_skeleton31_deepmotionediting_example.bvh", 31, 7, 278, 0.0083333, 96, "cmu"},
      {"mixamo_rig_55j_fingers_20tab_test_freebvh.bvh", 55, 15, 69, 0.0333333, 168, "mixamo"},
      {"noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh", 59, 13, 1650, 0.008, 180, "axis-neuron"},
      {"noitom_pns_studio_template_6ch_all_joints_0frames.bvh", 59, 13, 0, 0.01, 354, "axis-studio"},
      {"xia_cmu_skeleton31_neutral_walk_01_000.bvh", 31, 7, 327, 0.008333, 96, "cmu"},
      {"xia_cmu_skeleton31_strutting_walk_01_000.bvh", 31, 7, 297, 0.008333, 96, "cmu"},
  }};
  return kFiles;
}

/// A random hierarchy (1-3 roots, up to `max_joints` joints, End Sites on some leaves), random
/// channel subsets in random orders (0-6 channels, positions anywhere), random offsets and values.
inline BvhMotion randomBvh(std::mt19937& rng, int max_joints, int frames) {
  std::uniform_int_distribution<int> joint_count(1, max_joints);
  std::uniform_real_distribution<double> offset(-50.0, 50.0);
  std::uniform_real_distribution<double> angle(-180.0, 180.0);
  std::uniform_int_distribution<int> channel_count(0, 6);
  std::bernoulli_distribution coin(0.5);
  std::bernoulli_distribution new_root(0.1);
  BvhMotion motion;
  const int n = joint_count(rng);
  // Depth-first construction: each new joint's parent is on the current root-to-leaf path.
  std::vector<int> path;
  for (int i = 0; i < n; ++i) {
    BvhJoint joint;
    if (path.empty() || new_root(rng)) {
      path.clear();
      joint.parent = -1;
    } else {
      std::uniform_int_distribution<std::size_t> pick(1, path.size());
      path.resize(pick(rng));
      joint.parent = path.back();
    }
    joint.name = (coin(rng) ? "ns:j" : "joint j") + std::to_string(i);
    joint.offset = Eigen::Vector3d(offset(rng), offset(rng), offset(rng));
    std::array<BvhChannel, 6> all = {BvhChannel::kXposition, BvhChannel::kYposition, BvhChannel::kZposition,
                                     BvhChannel::kXrotation, BvhChannel::kYrotation, BvhChannel::kZrotation};
    std::shuffle(all.begin(), all.end(), rng);
    joint.channels.assign(all.begin(), all.begin() + channel_count(rng));
    motion.joints.push_back(joint);
    path.push_back(i);
  }
  // End Sites under some leaves; they must come right after their parent's subtree in
  // depth-first order, so only the last joint of the list can get one safely here.
  {
    BvhJoint end;
    end.name = motion.joints.back().name + "_End";
    end.parent = n - 1;
    end.is_end_site = true;
    end.offset = Eigen::Vector3d(offset(rng), offset(rng), offset(rng));
    motion.joints.push_back(end);
  }
  motion.assignChannelIndices();
  motion.frame_count = frames;
  motion.frame_time = 1.0 / 60.0;
  motion.values.resize(static_cast<std::size_t>(frames) * static_cast<std::size_t>(motion.channel_count));
  for (double& v : motion.values) v = angle(rng);
  return motion;
}

}  // namespace retarget::test
