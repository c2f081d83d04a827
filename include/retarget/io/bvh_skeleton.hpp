#pragma once

/// @file
/// BVH motion -> canonical skeleton motion through a skeleton schema (human/schema.hpp), and
/// schema detection from joint names, with automatic rig binding (human/rig_binding.hpp) for
/// rigs no built-in schema matches.

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/human/bvh_schemas.hpp>
#include <retarget/human/motion.hpp>
#include <retarget/human/rig_binding.hpp>
#include <retarget/human/schema.hpp>
#include <retarget/io/bvh.hpp>

namespace retarget {

/// How a schema's source names resolve onto the joints of one BVH hierarchy.
struct BvhSchemaBinding {
  /// Per canonical joint: BVH joint index of the first source, -1 when unresolved or unmapped.
  std::array<int, kHumanJointCount> first{};
  /// Per canonical joint: BVH joint index of the second source, -1 when there is none.
  std::array<int, kHumanJointCount> second{};
  /// Per canonical joint: blend weight of the second source.
  std::array<double, kHumanJointCount> weight{};
  /// Per canonical joint: true when every source it names was found (false when unmapped).
  std::array<bool, kHumanJointCount> resolved{};
  /// BVH joints (and End Sites) the schema does not refer to, in file order.
  std::vector<int> extra;
  /// Source names of the schema that match no BVH joint.
  std::vector<std::string> missing;
};

/// Index of the BVH joint matching a schema source name: an exact name match first, otherwise
/// the first joint whose name after its last ':' equals `wanted` (see `schemaNameMatches`);
/// -1 when none matches.
RETARGET_LAZY_DECL int findSchemaJoint(const BvhMotion& motion, std::string_view wanted);

/// Resolves `schema` onto the joints of `motion`. Never throws for unmatched names: they are listed
/// in `missing` and the canonical joints that need them are not resolved.
RETARGET_LAZY_DECL BvhSchemaBinding bindSchema(const BvhMotion& motion, const SkeletonSchema& schema);

/// The first schema of `candidates` whose every source name matches a joint of `motion`
/// (candidates are tried in order), nullptr when none fits. The default candidates are the
/// built-in schemas (Axis Neuron, Axis Studio, CMU, Mixamo).
RETARGET_LAZY_DECL const SkeletonSchema* detectSchema(
    const BvhMotion& motion, const std::vector<const SkeletonSchema*>& candidates = builtInBvhSchemas());

/// Converts a BVH motion into a canonical skeleton motion.
///
/// Global joint positions come from BVH forward kinematics (`bvhGlobalPositions`) and are mapped
/// into the canonical frame W by p_W = scale * R_WS * p_S (metres); a blended joint is
/// (1 - w) * p_first + w * p_second. Orientations are R_WJ = R_WS * R_SJ of the first source joint
/// (`has_orientations` is true). Joints the schema provides are kTracked, the others kNotTracked
/// (zero position, identity orientation). Every BVH joint and End Site the schema does not use goes
/// to `extra_joint_names` / `extra_p_W` (fingers, toes, extra spine joints). Frame f has time
/// f * frame_time; `frame_rate` = 1 / frame_time; `format` = "bvh/<schema name>".
/// Throws `retarget::InvalidArgument` when the schema or the motion breaks its invariants.
RETARGET_LAZY_DECL SkeletonMotion<double> bvhToSkeleton(const BvhMotion& motion, const SkeletonSchema& schema);

/// Converts a BVH motion with the schema found by `detectSchema` (the built-in rigs keep priority)
/// or, when no built-in schema matches, with the schema of the automatic rig binding
/// (`bindRig`, human/rig_binding.hpp; format "bvh/auto"). Throws `retarget::InvalidArgument`
/// naming what is missing when the hierarchy cannot be bound (not a humanoid, a missing limb).
RETARGET_LAZY_DECL SkeletonMotion<double> bvhToSkeleton(const BvhMotion& motion);

#if RETARGET_DEFINE_IO

RETARGET_LAZY_DEF int findSchemaJoint(const BvhMotion& motion, std::string_view wanted) {
  const int exact = motion.findJoint(wanted);
  if (exact >= 0) return exact;
  for (std::size_t i = 0; i < motion.joints.size(); ++i) {
    if (schemaNameMatches(motion.joints[i].name, wanted)) return static_cast<int>(i);
  }
  return -1;
}

RETARGET_LAZY_DEF BvhSchemaBinding bindSchema(const BvhMotion& motion, const SkeletonSchema& schema) {
  BvhSchemaBinding binding;
  binding.first.fill(-1);
  binding.second.fill(-1);
  binding.weight.fill(0.0);
  binding.resolved.fill(false);
  std::vector<bool> used(motion.joints.size(), false);
  auto note_missing = [&binding](const std::string& n) {
    if (std::find(binding.missing.begin(), binding.missing.end(), n) == binding.missing.end()) binding.missing.push_back(n);
  };
  for (int i = 0; i < kHumanJointCount; ++i) {
    const auto& entry = schema.joints[static_cast<std::size_t>(i)];
    if (!entry) continue;
    const auto k = static_cast<std::size_t>(i);
    const int a = findSchemaJoint(motion, entry->first);
    const int b = entry->second.empty() ? -1 : findSchemaJoint(motion, entry->second);
    if (a < 0) note_missing(entry->first);
    if (!entry->second.empty() && b < 0) note_missing(entry->second);
    if (a >= 0) used[static_cast<std::size_t>(a)] = true;
    if (b >= 0) used[static_cast<std::size_t>(b)] = true;
    binding.resolved[k] = a >= 0 && (entry->second.empty() || b >= 0);
    if (binding.resolved[k]) {
      binding.first[k] = a;
      binding.second[k] = b;
      binding.weight[k] = b >= 0 ? entry->weight : 0.0;
    }
  }
  for (std::size_t j = 0; j < motion.joints.size(); ++j) {
    if (!used[j]) binding.extra.push_back(static_cast<int>(j));
  }
  return binding;
}

RETARGET_LAZY_DEF const SkeletonSchema* detectSchema(const BvhMotion& motion,
                                                 const std::vector<const SkeletonSchema*>& candidates) {
  for (const SkeletonSchema* schema : candidates) {
    if (schema == nullptr) continue;
    bool all = true;
    for (const std::string& n : schema->sourceNames()) {
      if (findSchemaJoint(motion, n) < 0) {
        all = false;
        break;
      }
    }
    if (all) return schema;
  }
  return nullptr;
}

RETARGET_LAZY_DEF SkeletonMotion<double> bvhToSkeleton(const BvhMotion& motion, const SkeletonSchema& schema) {
  validateSchema(schema);
  validateBvh(motion);
  const BvhSchemaBinding binding = bindSchema(motion, schema);
  SkeletonMotion<double> out;
  out.format = "bvh/" + schema.name;
  out.frame_rate = motion.frameRate();
  for (int j : binding.extra) out.extra_joint_names.push_back(motion.joints[static_cast<std::size_t>(j)].name);
  out.frames.resize(static_cast<std::size_t>(motion.frame_count));
  if (!binding.extra.empty()) out.extra_p_W.reserve(static_cast<std::size_t>(motion.frame_count));
  const Eigen::Matrix3d M = schema.scale * schema.R_WS;
  const Eigen::Quaterniond q_WS(schema.R_WS);
  Eigen::Matrix3Xd p_S;
  std::vector<Eigen::Quaterniond> R_S;
  for (int f = 0; f < motion.frame_count; ++f) {
    bvhGlobalPositions(motion, f, p_S, R_S);
    SkeletonFrame<double>& frame = out.frames[static_cast<std::size_t>(f)];
    frame.time = f * motion.frame_time;
    frame.has_orientations = true;
    for (int i = 0; i < kHumanJointCount; ++i) {
      const auto k = static_cast<std::size_t>(i);
      if (!binding.resolved[k]) continue;
      Eigen::Vector3d p = p_S.col(binding.first[k]);
      if (binding.second[k] >= 0) p = (1.0 - binding.weight[k]) * p + binding.weight[k] * p_S.col(binding.second[k]);
      frame.p_W[k] = M * p;
      frame.R_WJ[k] = (q_WS * R_S[static_cast<std::size_t>(binding.first[k])]).normalized();
      frame.state[k] = TrackingState::kTracked;
    }
    if (!binding.extra.empty()) {
      Eigen::Matrix3Xd extra(3, static_cast<Eigen::Index>(binding.extra.size()));
      for (std::size_t e = 0; e < binding.extra.size(); ++e) {
        extra.col(static_cast<Eigen::Index>(e)) = M * p_S.col(binding.extra[e]);
      }
      out.extra_p_W.push_back(std::move(extra));
    }
  }
  return out;
}

RETARGET_LAZY_DEF SkeletonMotion<double> bvhToSkeleton(const BvhMotion& motion) {
  if (const SkeletonSchema* schema = detectSchema(motion)) return bvhToSkeleton(motion, *schema);
  RETARGET_THROW_UNLESS(!motion.joints.empty(), InvalidArgument,
                        "no built-in schema matches the BVH joint names and the motion has no joints (expected a "
                        "humanoid skeleton)");
  SkeletonSchema schema;
  try {
    schema = bindRig(motion).schema;
  } catch (const InvalidArgument& e) {
    const std::string what = e.what();
    const std::size_t detail = what.find("cannot bind");
    throw InvalidArgument(internal::message(
        "bvhToSkeleton", "no built-in schema matches the BVH joint names (Axis Neuron, Axis Studio, CMU, Mixamo) and ",
        detail == std::string::npos ? what : what.substr(detail)));
  }
  return bvhToSkeleton(motion, schema);
}

#endif  // RETARGET_DEFINE_IO

}  // namespace retarget
