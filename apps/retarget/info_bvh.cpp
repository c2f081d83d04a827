// `retarget info <file.bvh>`: format, joints (count, End Sites, detected schema), channels,
// frames, rate, duration, units and the height of the rest pose; for a rig no built-in schema
// matches, the automatic rig binding (which file joint became which canonical joint, units, axes,
// confidence, what was guessed) or why it failed.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>

#include <retarget/human/rig_binding.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>

#include "cli.hpp"
#include "motion_loading.hpp"

namespace retarget::cli {
namespace {

std::string rotationOrders(const BvhMotion& motion) {
  std::string orders;
  for (const BvhJoint& joint : motion.joints) {
    std::string order;
    for (BvhChannel channel : joint.channels) {
      if (isRotation(channel)) order += static_cast<char>('X' + bvhChannelAxis(channel));
    }
    if (!order.empty() && orders.find(order) == std::string::npos) orders += (orders.empty() ? "" : ", ") + order;
  }
  return orders.empty() ? "none" : orders;
}

// Prints the automatic binding of a rig: canonical joints, per-joint roles, units, axes.
void describeBinding(const BvhMotion& motion, const RigBinding& binding) {
  const SkeletonSchema& s = binding.schema;
  const std::string text = formatSchema(s);  // "name: ...\nframe: forward=.. left=.. up=..\n..."
  const std::size_t frame = text.find("frame: ") + 7;
  std::cout << "binding:     automatic, confidence " << fixed(binding.confidence, 2) << " (left/right from "
            << (binding.sides_from_names ? "names" : "geometry") << ")\n"
            << "axes:        " << text.substr(frame, text.find('\n', frame) - frame) << " (file axis of each canonical axis)\n"
            << "scale:       " << binding.scale << " m per unit (" << binding.unit << ")\n";
  std::cout << "decided by:  up axis: " << rigEvidenceName(binding.up_from) << "; units: "
            << rigEvidenceName(binding.units_from) << " (person " << fixed(binding.height_m, 2)
            << " m tall); facing: " << rigEvidenceName(binding.facing_from) << "; rest pose "
            << (binding.rest_pose_standing ? "stands" : "is not a standing pose") << "; "
            << binding.frames_used << " frames looked at\n";
  for (const std::string& guess : binding.guesses) std::cout << "guessed:     " << guess << "\n";
  std::cout << "canonical joints:\n";
  for (int i = 0; i < kHumanJointCount; ++i) {
    const SchemaJointSource* source = s.source(static_cast<HumanJoint>(i));
    std::cout << "  " << kHumanJointNames[static_cast<std::size_t>(i)] << " = ";
    if (source == nullptr) {
      std::cout << "(not tracked)\n";
      continue;
    }
    std::cout << source->first;
    if (!source->second.empty()) std::cout << " " << source->second << " " << source->weight;
    std::cout << "\n";
  }
  std::cout << "file joints:\n";
  for (std::size_t j = 0; j < motion.joints.size(); ++j) {
    const RigJointBinding& b = binding.joints[j];
    if (b.role == RigRole::kNone) continue;
    std::cout << "  " << motion.joints[j].name << ": " << rigRoleName(b.role)
              << (b.side == RigSide::kLeft ? " (left)" : b.side == RigSide::kRight ? " (right)" : "")
              << ", confidence " << fixed(b.confidence, 2) << "\n";
  }
}

void describeBvh(const std::string& path) {
  const BvhMotion motion = readBvh(path);
  const SkeletonSchema* schema = detectSchema(motion);
  std::optional<RigBinding> binding;
  std::string binding_error;
  if (schema == nullptr) {
    try {
      binding = bindRig(motion);
      schema = &binding->schema;
    } catch (const InvalidArgument& e) {
      binding_error = e.what();
    }
  }
  int with_position = 0;
  for (const BvhJoint& joint : motion.joints) {
    with_position += std::any_of(joint.channels.begin(), joint.channels.end(),
                                 [](BvhChannel channel) { return !isRotation(channel); })
                         ? 1
                         : 0;
  }
  // Extent of the rest pose (all rotations zero), in file units.
  const BvhMotion rest = bvhRestPose(motion);
  std::vector<Eigen::Isometry3d> X_WJ;
  bvhGlobalPoses(rest, 0, X_WJ);
  Eigen::AlignedBox3d box;
  for (const auto& X : X_WJ) box.extend(X.translation());
  const Eigen::Vector3d size = box.sizes();

  std::cout << "file:        " << path << "\n"
            << "format:      BVH motion capture\n"
            << "joints:      " << motion.jointCount() << " + " << (motion.jointCount(true) - motion.jointCount())
            << " End Sites, " << motion.rootCount() << (motion.rootCount() == 1 ? " root" : " roots") << " ('"
            << motion.joints.front().name << "')\n"
            << "schema:      "
            << (binding ? std::string("none built in; automatic rig binding (see below)")
                        : schema != nullptr ? schema->name
                                            : "none: " + binding_error + " (use a schema file)")
            << "\n"
            << "channels:    " << motion.channel_count << " per frame; rotation orders " << rotationOrders(motion)
            << "; position channels on " << with_position << " joint(s)\n"
            << "frames:      " << motion.frame_count << "\n"
            << "rate:        " << fixed(motion.frameRate(), 3) << " Hz (frame time " << motion.frame_time << " s)\n"
            << "duration:    " << fixed(motion.duration(), 3) << " s\n"
            << "units:       file units and degrees";
  if (schema != nullptr) {
    std::cout << "; " << schema->scale << " m per unit (" << schema->name << " schema)";
  }
  std::cout << "\n"
            << "rest pose:   " << fixed(size.x(), 2) << " x " << fixed(size.y(), 2) << " x " << fixed(size.z(), 2)
            << " file units (x y z extent)";
  if (binding && !binding->rest_pose_standing) {
    // The zero-rotation pose of such rigs (LAFAN1: bones along each joint's +X) is no person:
    // its extent says nothing about the body; the binding measured the height in the motion.
    std::cout << "; not a standing pose, so no height from it (the person in the motion: "
              << fixed(binding->height_m, 2) << " m)";
  } else if (schema != nullptr) {
    const Eigen::Vector3d size_W = (schema->scale * schema->R_WS * size).cwiseAbs();
    std::cout << "; height " << fixed(size_W.z(), 3) << " m";
  }
  std::cout << "\n";
  if (binding) describeBinding(motion, *binding);
}

const bool kInfoBvhRegistered = registerInfoHandler(InfoHandler{
    "BVH motion",
    [](const std::string& path) {
      if (path.rfind("robot:", 0) == 0) return false;
      return lowerExtension(path) == ".bvh";
    },
    describeBvh});

}  // namespace
}  // namespace retarget::cli
