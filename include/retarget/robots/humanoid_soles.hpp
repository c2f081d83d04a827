#pragma once

/// @file
/// Where a bound humanoid's soles are: the points of each foot that touch flat ground when the
/// foot stands flat (beyond the seeds; what the floating-base mapper plants,
/// mappers/humanoid_floating_base.hpp).
///
/// The foot of a leg is the link after the leg chain's last joint and every link fixed to it.
/// Its collision primitives (as the file gave them, `CollisionShape::X_LG` / `size_G`) give
/// candidate points in that link's frame L: a sphere's and a capsule's lowest points, a
/// cylinder's rim (16 points a cap), a box's eight corners. "Lowest" is along the robot's up
/// (the binding's `R_BR` z) in the rest pose (the model's neutral configuration, where a
/// humanoid stands on flat feet); the sole is the candidates within `kSoleTolerance` of the
/// lowest one: Unitree G1's four sole spheres, H1's foot box's bottom face, Robotis OP3's sole
/// boxes. A foot without collision primitives (meshes only) gets a sole estimated from the
/// binding's points: a rectangle at the height of its foot point, from the ankle's vertical to
/// the foot point, a third of that length wide; `source` says which.

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/humanoid_binding.hpp>

namespace retarget {

/// One foot's sole.
struct HumanoidSole {
  bool found = false;
  /// The link the points are fixed on (the foot link) and its index in the model.
  std::string link;
  int link_index = -1;
  /// Sole points in the foot link's frame L (m): at rest they lie in one horizontal plane.
  std::vector<Eigen::Vector3d> points_L;
  /// The robot's up (the binding's z) in the foot link's frame at rest: the sole's normal when
  /// the foot stands flat (unit).
  Eigen::Vector3d up_L = Eigen::Vector3d::UnitZ();
  /// "collision spheres" / "collision boxes" / ... or "estimated from the rest pose (...)".
  std::string source;
};

/// Sole points lie within this height of the foot's lowest candidate at rest (m).
inline constexpr double kSoleTolerance = 0.003;

/// The soles of the left and right legs of `binding` on `model` (index 0 left, 1 right); a leg
/// the binding did not find gives `found == false`.
template <typename Scalar>
std::array<HumanoidSole, 2> humanoidSoles(const RobotModel<Scalar>& model, const HumanoidBinding& binding) {
  std::array<HumanoidSole, 2> soles{};
  RobotData<Scalar> data(model);
  data.X_WB.setIdentity();
  data.X_WB.linear() = binding.R_BR.transpose().template cast<Scalar>();  // robot frame: z up
  forwardKinematics(model, data, model.neutralConfiguration());
  const auto& joints = model.joints();
  const auto& links = model.links();
  for (std::size_t side = 0; side < 2; ++side) {
    const HumanoidChain& leg = binding.limb(side == 0 ? HumanoidLimb::kLeftLeg : HumanoidLimb::kRightLeg);
    if (!leg.found || leg.joints.empty()) continue;
    HumanoidSole& sole = soles[side];
    // The foot link: the outer link of the last joint (the chain lists joints base first, some
    // crossed child to parent in a re-rooted tree: the outer link is the one not in the previous
    // joint).
    const Joint<Scalar>& last = joints[static_cast<std::size_t>(leg.joints.back())];
    int foot = last.child_link;
    if (leg.joints.size() >= 2) {
      const Joint<Scalar>& before = joints[static_cast<std::size_t>(leg.joints[leg.joints.size() - 2])];
      if (foot == before.parent_link || foot == before.child_link) foot = last.parent_link;
    }
    // Links fixed to it, outward.
    std::vector<int> rigid{foot};
    for (std::size_t i = 0; i < rigid.size(); ++i) {
      for (const Joint<Scalar>& j : joints) {
        if (j.type == JointType::kFixed && j.parent_link == rigid[i]) rigid.push_back(j.child_link);
      }
    }
    const Isometry3<Scalar>& X_WF = data.X_WL[static_cast<std::size_t>(foot)];
    const Eigen::Isometry3d X_FW = X_WF.inverse().template cast<double>();
    const Eigen::Vector3d up_F = X_FW.linear() * Eigen::Vector3d::UnitZ();
    sole.up_L = up_F;
    std::vector<Eigen::Vector3d> candidates_F;  // foot frame
    std::string kinds;
    for (int l : rigid) {
      const Eigen::Isometry3d X_FL = X_FW * data.X_WL[static_cast<std::size_t>(l)].template cast<double>();
      const Eigen::Vector3d up_L = X_FL.linear().transpose() * up_F;
      for (const CollisionShape<Scalar>& shape : links[static_cast<std::size_t>(l)].collisions) {
        using Kind = typename CollisionShape<Scalar>::Kind;
        const Eigen::Isometry3d X_LG = shape.X_LG.template cast<double>();
        const Eigen::Vector3d size = shape.size_G.template cast<double>();
        std::vector<Eigen::Vector3d> pts_L;
        const bool given = size.squaredNorm() > 0;
        if (shape.kind == Kind::kBox && given) {
          for (int c = 0; c < 8; ++c) {
            const Eigen::Vector3d corner(c & 1 ? 0.5 : -0.5, c & 2 ? 0.5 : -0.5, c & 4 ? 0.5 : -0.5);
            pts_L.push_back(X_LG * Eigen::Vector3d(corner.cwiseProduct(size)));
          }
        } else if (shape.kind == Kind::kCylinder && given) {
          for (int c = 0; c < 32; ++c) {
            const double angle = 2 * kPi<double> * (c % 16) / 16.0;
            pts_L.push_back(X_LG * Eigen::Vector3d(size.x() * std::cos(angle), size.x() * std::sin(angle),
                                                   (c < 16 ? -0.5 : 0.5) * size.y()));
          }
        } else {  // sphere, capsule: the lowest points of its ends
          const double r = static_cast<double>(shape.capsule_L.radius);
          pts_L.push_back(shape.capsule_L.a.template cast<double>() - r * up_L);
          pts_L.push_back(shape.capsule_L.b.template cast<double>() - r * up_L);
        }
        for (const Eigen::Vector3d& p : pts_L) candidates_F.push_back(X_FL * p);
        const char* kind = toString<Scalar>(shape.kind);
        if (kinds.find(kind) == std::string::npos) kinds += std::string(kinds.empty() ? "" : ", ") + kind;
      }
    }
    sole.link = links[static_cast<std::size_t>(foot)].name;
    sole.link_index = foot;
    sole.found = true;
    if (!candidates_F.empty()) {
      double lowest = std::numeric_limits<double>::infinity();
      for (const Eigen::Vector3d& p : candidates_F) lowest = std::min(lowest, p.dot(up_F));
      for (const Eigen::Vector3d& p : candidates_F) {
        if (p.dot(up_F) > lowest + kSoleTolerance) continue;
        const bool duplicate = std::any_of(sole.points_L.begin(), sole.points_L.end(),
                                           [&](const Eigen::Vector3d& q) { return (q - p).norm() < 1e-9; });
        if (!duplicate) sole.points_L.push_back(p);
      }
      sole.source = "collision primitives (" + kinds + ")";
      continue;
    }
    // Meshes only: a rectangle under the foot from the ankle's vertical to the foot point.
    const auto find = [&](HumanoidPoint which) -> const HumanoidPointBinding* {
      for (const HumanoidPointBinding& p : binding.points) {
        if (p.point == which) return &p;
      }
      return nullptr;
    };
    const HumanoidPointBinding* ankle = find(side == 0 ? HumanoidPoint::kAnkleLeft : HumanoidPoint::kAnkleRight);
    const HumanoidPointBinding* toe = find(side == 0 ? HumanoidPoint::kFootLeft : HumanoidPoint::kFootRight);
    if (ankle == nullptr || toe == nullptr) {
      sole.found = false;
      sole.source = "no collision primitive on the foot and no ankle or foot point to estimate a sole from";
      continue;
    }
    // Binding points are in the root frame B; the robot frame is R_BR^T p_B.
    const Eigen::Vector3d ankle_R = binding.R_BR.transpose() * ankle->p_B, toe_R = binding.R_BR.transpose() * toe->p_B;
    const Eigen::Vector3d heel_R(ankle_R.x(), ankle_R.y(), toe_R.z());
    const Eigen::Vector3d along = toe_R - heel_R;
    const Eigen::Vector3d across = Eigen::Vector3d::UnitZ().cross(along) / 6.0;
    const Eigen::Isometry3d X_FR = X_FW;  // W is the robot frame here
    for (const Eigen::Vector3d& p : {Eigen::Vector3d(heel_R + across), Eigen::Vector3d(heel_R - across),
                                     Eigen::Vector3d(toe_R + across), Eigen::Vector3d(toe_R - across)}) {
      sole.points_L.push_back(X_FR * p);
    }
    sole.source = "estimated from the rest pose (the foot has no collision primitive)";
  }
  return soles;
}

/// Where a sole is when its foot link is at `X_WF` (frame W, z up, m).
struct SolePlacement {
  double lowest = 0;                                 ///< z of the sole's lowest point (m): its height
  Eigen::Vector3d centre = Eigen::Vector3d::Zero();  ///< centroid of the sole's points (m)
};

/// The placement of `sole` (found, with points) with its foot link at `X_WF`: the one definition
/// of a sole's height and position that the contact metrics (metrics/ground_contact.hpp,
/// metrics/foot_contact.hpp) read.
inline SolePlacement solePlacement(const HumanoidSole& sole, const Eigen::Isometry3d& X_WF) {
  SolePlacement out;
  out.lowest = std::numeric_limits<double>::infinity();
  for (const Eigen::Vector3d& p_L : sole.points_L) {
    const Eigen::Vector3d p = X_WF * p_L;
    out.lowest = std::min(out.lowest, p.z());
    out.centre += p / static_cast<double>(sole.points_L.size());
  }
  return out;
}

}  // namespace retarget
