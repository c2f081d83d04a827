#pragma once

/// @file
/// The robot points a hand speed limit keeps slow (`retarget map --max-hand-speed`, Python's
/// `apply_safety(max_hand_speed=...)`), for every front end: the elbows and wrists of the
/// triangle map on the robots that have one (Tangy, the paper's robot of seed 001's 250 mm/s
/// limit; NAO and Pepper, whose triangle arms are their virtual skeletons' arms), else the
/// elbows, wrists and hands of the robot's virtual skeleton (robots/robot_skeleton.hpp: the
/// automatic humanoid binding's, so G1, H1, T1, OP3 and any URDF or MJCF humanoid). Part of the
/// application layer (include/retarget/app/), outside retarget/retarget.hpp. `handPoints` is a
/// template (RETARGET_ALWAYS_LAZY_DECL, core/compilation.hpp), compiled where it is called.

#include <optional>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/kinematics/link_point.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/mappers/triangle_map.hpp>
#include <retarget/robots/robot_skeleton.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

namespace retarget::app {

/// The hand and elbow points of `model` (m, link frames; see the file doc). `pins`: the robot
/// schema pinning its automatic binding (as `--robot-schema`), or null. Throws InvalidArgument
/// naming the robot when it has neither a triangle map nor a virtual skeleton with an elbow or a
/// hand (Baxter, YuMi, InMoov), and as `bindHumanoid` for invalid pins.
RETARGET_ALWAYS_LAZY_DECL std::vector<LinkPoint> handPoints(const RobotModel<double>& model,
                                                            const HumanoidBindingOptions* pins = nullptr) {
  if (pins == nullptr) {
    if (const std::optional<TriangleMap> map = triangleMapFor(model)) return triangleArmPoints(model, *map);
  }
  std::vector<LinkPoint> points;
  if (const std::optional<VirtualSkeletonMap> skeleton = virtualSkeletonMapFor(model, pins)) {
    points = virtualArmPoints(model, *skeleton);
  }
  RETARGET_THROW_UNLESS(!points.empty(), InvalidArgument, "robot '", model.name(),
                        "' (got no hand or elbow points, expected a triangle map (Tangy, NAO, Pepper) or a humanoid "
                        "whose binding finds its arms; `retarget schema suggest <robot file>` writes a schema to pin "
                        "them)");
  return points;
}

}  // namespace retarget::app
