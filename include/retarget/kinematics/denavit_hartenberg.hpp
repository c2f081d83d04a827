#pragma once

/// @file
/// Serial chains from Denavit-Hartenberg tables, standard or modified (Craig) convention.
///
/// Standard (distal):  X_{i-1,i} = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i)
/// Modified (proximal): X_{i-1,i} = Rx(alpha_{i-1}) Tx(a_{i-1}) Rz(theta_i) Tz(d_i)
/// For a revolute row theta_i = q_i + theta_offset_i; for a prismatic row d_i = q_i + d_offset_i.
/// In the built chain, link i's frame is exactly DH frame i (link 0 is the base).

#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget {

/// Which DH convention a table uses.
enum class DhConvention { kStandard, kModified };

/// One row of a DH table. Lengths in m, angles in rad. For the modified convention `a` and
/// `alpha` are a_{i-1} and alpha_{i-1} (the row's "previous axis" parameters).
template <typename Scalar = double>
struct DhRow {
  std::string joint_name;
  Scalar a = Scalar(0);
  Scalar alpha = Scalar(0);
  Scalar d = Scalar(0);
  Scalar theta = Scalar(0);  ///< theta offset for revolute rows; the fixed angle for prismatic rows.
  JointType type = JointType::kRevolute;
  JointLimits<Scalar> limits{};
};

namespace internal {
template <typename Scalar>
Isometry3<Scalar> rotX(Scalar angle) {
  return Isometry3<Scalar>(Eigen::AngleAxis<Scalar>(angle, Vector3<Scalar>::UnitX()));
}
template <typename Scalar>
Isometry3<Scalar> rotZ(Scalar angle) {
  return Isometry3<Scalar>(Eigen::AngleAxis<Scalar>(angle, Vector3<Scalar>::UnitZ()));
}
template <typename Scalar>
Isometry3<Scalar> trans(Scalar x, Scalar y, Scalar z) {
  Isometry3<Scalar> X = Isometry3<Scalar>::Identity();
  X.translation() = Vector3<Scalar>(x, y, z);
  return X;
}
}  // namespace internal

/// Appends the chain described by `rows` to `builder`, starting at existing link `base_link`
/// and naming the new links `<link_prefix>1`, `<link_prefix>2`, ... (frame i = DH frame i).
/// Throws InvalidArgument naming the row when a joint name is empty, a value is not finite,
/// a row is fixed, or a limit pair is inverted (the builder re-checks limits on build()).
template <typename Scalar>
void appendDhChain(RobotModelBuilder<Scalar>& builder, const std::string& base_link,
                   const std::vector<DhRow<Scalar>>& rows, DhConvention convention,
                   const std::string& link_prefix) {
  using internal::rotX;
  using internal::rotZ;
  using internal::trans;
  std::string parent = base_link;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const DhRow<Scalar>& row = rows[i];
    RETARGET_THROW_UNLESS(!row.joint_name.empty(), InvalidArgument, "DH row ", i + 1, " has an empty joint name");
    RETARGET_THROW_UNLESS(std::isfinite(row.a) && std::isfinite(row.alpha) && std::isfinite(row.d) &&
                              std::isfinite(row.theta),
                          InvalidArgument, "DH row ", i + 1, " (joint '", row.joint_name,
                          "') has a non-finite parameter (a ", row.a, ", alpha ", row.alpha, ", d ", row.d,
                          ", theta ", row.theta, ")");
    RETARGET_THROW_UNLESS(row.type == JointType::kRevolute || row.type == JointType::kContinuous ||
                              row.type == JointType::kPrismatic,
                          InvalidArgument, "DH row ", i + 1, " (joint '", row.joint_name, "') must be revolute, ",
                          "continuous or prismatic (got ", toString(row.type), ")");
    RETARGET_THROW_UNLESS(!(row.limits.lower > row.limits.upper), InvalidArgument, "DH row ", i + 1, " (joint '",
                          row.joint_name, "') has lower limit above upper limit (got lower ", row.limits.lower,
                          " > upper ", row.limits.upper, ")");
    const bool prismatic = row.type == JointType::kPrismatic;
    JointSpec<Scalar> joint;
    joint.name = row.joint_name;
    joint.type = row.type;
    joint.parent_link = parent;
    joint.child_link = link_prefix + std::to_string(i + 1);
    joint.axis = Vector3<Scalar>::UnitZ();
    joint.limits = row.limits;
    // Rz(theta) and Tz(d) commute, so the fixed offset (theta for revolute rows, d for
    // prismatic ones) folds in before the motion and the rest goes after it.
    const Isometry3<Scalar> offset = prismatic ? Isometry3<Scalar>(rotZ(row.theta)) : trans(Scalar(0), Scalar(0), row.d);
    const Isometry3<Scalar> offset_motion = prismatic ? trans(Scalar(0), Scalar(0), row.d) : rotZ(row.theta);
    if (convention == DhConvention::kStandard) {
      joint.X_PJ = offset * offset_motion;
      joint.X_JC = trans(row.a, Scalar(0), Scalar(0)) * rotX(row.alpha);
    } else {
      joint.X_PJ = rotX(row.alpha) * trans(row.a, Scalar(0), Scalar(0)) * offset * offset_motion;
    }
    builder.addLink(joint.child_link);
    builder.addJoint(std::move(joint));
    parent = link_prefix + std::to_string(i + 1);
  }
}

/// Builds a stand-alone serial robot from a DH table: a root link "base" and links
/// "link1" ... "linkN" (frame i = DH frame i). See appendDhChain for what throws.
template <typename Scalar>
RobotModel<Scalar> robotFromDh(const std::string& robot_name, const std::vector<DhRow<Scalar>>& rows,
                               DhConvention convention) {
  RobotModelBuilder<Scalar> builder(robot_name);
  builder.addLink("base");
  appendDhChain(builder, "base", rows, convention, "link");
  return builder.build();
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_KINEMATICS void appendDhChain<double>(
    RobotModelBuilder<double>&, const std::string&, const std::vector<DhRow<double>>&, DhConvention,
    const std::string&);
RETARGET_TEMPLATE_KINEMATICS void appendDhChain<float>(
    RobotModelBuilder<float>&, const std::string&, const std::vector<DhRow<float>>&, DhConvention, const std::string&);
RETARGET_TEMPLATE_KINEMATICS RobotModel<double> robotFromDh<double>(
    const std::string&, const std::vector<DhRow<double>>&, DhConvention);
RETARGET_TEMPLATE_KINEMATICS RobotModel<float> robotFromDh<float>(
    const std::string&, const std::vector<DhRow<float>>&, DhConvention);
#endif

}  // namespace retarget
