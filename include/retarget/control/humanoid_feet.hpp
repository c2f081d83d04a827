#pragma once

/// @file
/// The feet the balance stands on (control/balance.hpp `BalanceFeet`) for any bound humanoid,
/// from its soles (robots/humanoid_soles.hpp): so the whole-body pipeline runs after the humanoid
/// mapper on G1, H1, T1 or any humanoid the automatic binding understands, as after GA-LVVJ on NAO
/// (whose hand-written feet, `naoBalanceFeet`, are its force-sensor rectangles).
///
/// Per foot, in the rest pose (the model's neutral configuration, the robot standing on flat
/// feet, its up the binding's z): the sole frame S has z along the robot's up (the sole's
/// normal), x along the robot's forward projected on the sole plane, origin at the centroid of the
/// sole points on that plane; the rectangle is the sole points' extent in S (m). For sole spheres
/// (G1) that is the box of their lowest points; for a foot box (H1, T1, OP3) its bottom face.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Geometry>

#include <retarget/control/balance.hpp>
#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/humanoid_soles.hpp>

namespace retarget {

/// Smallest side of a sole rectangle `humanoidBalanceFeet` accepts (m): a foot whose sole points
/// lie on a line (a knife edge) cannot carry the CoM.
inline constexpr double kMinSoleSide = 0.01;

/// Both feet of `binding` on `model` as balance feet (see the file doc). Throws InvalidArgument
/// naming the robot and the foot when a leg or its sole was not found or the sole is narrower
/// than kMinSoleSide.
RETARGET_LAZY_DECL BalanceFeet humanoidBalanceFeet(const RobotModel<double>& model, const HumanoidBinding& binding);

#if RETARGET_DEFINE_CONTROL
// Lazy (core/compilation.hpp): the soles, the forward kinematics and the rest pose it builds are
// compiled only where a program calls it (or once, in the compiled part).
RETARGET_LAZY_DEF BalanceFeet humanoidBalanceFeet(const RobotModel<double>& model, const HumanoidBinding& binding) {
  const std::array<HumanoidSole, 2> soles = humanoidSoles(model, binding);
  RobotData<double> rest(model);
  rest.X_WB.setIdentity();
  rest.X_WB.linear() = binding.R_BR.transpose();  // the robot frame: x forward, z up
  forwardKinematics(model, rest, model.neutralConfiguration());
  BalanceFeet feet;
  for (std::size_t side = 0; side < 2; ++side) {
    const HumanoidSole& sole = soles[side];
    const char* name = side == 0 ? "left" : "right";
    RETARGET_THROW_UNLESS(sole.found && !sole.points_L.empty(), InvalidArgument, "robot '", model.name(), "': no ",
                          name, " sole (", sole.source.empty() ? std::string("no leg found") : sole.source,
                          "), expected both for the balance");
    const Eigen::Matrix3d& R_WL = rest.X_WL[static_cast<std::size_t>(sole.link_index)].linear();
    const Eigen::Vector3d z_L = sole.up_L.normalized();
    Eigen::Vector3d x_L = R_WL.transpose() * Eigen::Vector3d::UnitX();
    x_L -= x_L.dot(z_L) * z_L;
    RETARGET_THROW_UNLESS(x_L.norm() > 1e-6, InvalidArgument, "robot '", model.name(), "': the ", name,
                          " sole faces forward (expected its normal along the robot's up)");
    x_L.normalize();
    Eigen::Vector3d o_L = Eigen::Vector3d::Zero();
    for (const Eigen::Vector3d& p : sole.points_L) o_L += p;
    o_L /= static_cast<double>(sole.points_L.size());
    Isometry3<double> X_LS = Isometry3<double>::Identity();
    X_LS.linear().col(0) = x_L;
    X_LS.linear().col(1) = z_L.cross(x_L);
    X_LS.linear().col(2) = z_L;
    X_LS.translation() = o_L;
    FootSupport foot;
    foot.link = sole.link;
    foot.X_LS = X_LS;
    foot.x_min = foot.y_min = std::numeric_limits<double>::infinity();
    foot.x_max = foot.y_max = -std::numeric_limits<double>::infinity();
    for (const Eigen::Vector3d& p : sole.points_L) {
      const Eigen::Vector3d p_S = X_LS.linear().transpose() * (p - o_L);
      foot.x_min = std::min(foot.x_min, p_S.x());
      foot.x_max = std::max(foot.x_max, p_S.x());
      foot.y_min = std::min(foot.y_min, p_S.y());
      foot.y_max = std::max(foot.y_max, p_S.y());
    }
    RETARGET_THROW_UNLESS(foot.x_max - foot.x_min >= kMinSoleSide && foot.y_max - foot.y_min >= kMinSoleSide,
                          InvalidArgument, "robot '", model.name(), "': the ", name, " sole is ",
                          foot.x_max - foot.x_min, " x ", foot.y_max - foot.y_min, " m (", sole.source,
                          "), expected at least ", kMinSoleSide, " m a side");
    (side == 0 ? feet.left : feet.right) = foot;
  }
  return feet;
}
#endif

}  // namespace retarget
