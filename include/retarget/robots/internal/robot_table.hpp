#pragma once

/// @file
/// Implementation detail of the built-in robot models and of the URDF loader: robot
/// descriptions stored as plain constant tables (the same fields a URDF carries), the URDF
/// roll-pitch-yaw convention, and the conversion of URDF collision primitives into capsules.

#include <cmath>
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/types.hpp>
#include <retarget/kinematics/robot_model.hpp>

namespace retarget::internal {

/// "No limit" in the tables.
inline constexpr double kNoLimit = std::numeric_limits<double>::infinity();

/// One link as stored in a table: name, mass (kg), centre of mass in the link frame (m).
struct RobotTableLink {
  const char* name;
  double mass;
  double com[3];
};

/// One joint as stored in a table, field for field as in URDF: origin xyz (m) and rpy (rad),
/// axis in the joint frame, limits (rad or m; rad/s or m/s; N*m or N), optional mimic driver
/// (nullptr when none) with multiplier and offset.
struct RobotTableJoint {
  const char* name;
  JointType type;
  const char* parent;
  const char* child;
  double xyz[3];
  double rpy[3];
  double axis[3];
  double lower;
  double upper;
  double velocity;
  double effort;
  const char* mimic;
  double multiplier;
  double offset;
};

/// Kind of a URDF collision primitive.
enum class UrdfPrimitive { kSphere, kCylinder, kCapsule, kBox };

/// One collision primitive as stored in a table: `size` holds (radius, -, -) for a sphere,
/// (radius, length, -) for a cylinder or capsule, (x, y, z) edge lengths for a box (m);
/// `xyz`/`rpy` place the primitive in the link frame as a URDF <origin> does.
struct RobotTableShape {
  const char* link;
  const char* name;
  UrdfPrimitive kind;
  double size[3];
  double xyz[3];
  double rpy[3];
};

/// Rotation of a URDF <origin rpy="r p y">: fixed-axis roll about x, then pitch about y, then
/// yaw about z, i.e. R = Rz(y) * Ry(p) * Rx(r) (URDF specification, "origin" element).
template <typename Scalar>
Matrix3<Scalar> rotationFromRpy(Scalar roll, Scalar pitch, Scalar yaw) {
  return (Eigen::AngleAxis<Scalar>(yaw, Vector3<Scalar>::UnitZ()) *
          Eigen::AngleAxis<Scalar>(pitch, Vector3<Scalar>::UnitY()) *
          Eigen::AngleAxis<Scalar>(roll, Vector3<Scalar>::UnitX()))
      .toRotationMatrix();
}

/// Pose X_AB from a URDF origin (xyz in m, rpy in rad).
template <typename Scalar>
Isometry3<Scalar> poseFromXyzRpy(const double (&xyz)[3], const double (&rpy)[3]) {
  Isometry3<Scalar> X = Isometry3<Scalar>::Identity();
  X.linear() = rotationFromRpy<Scalar>(static_cast<Scalar>(rpy[0]), static_cast<Scalar>(rpy[1]),
                                       static_cast<Scalar>(rpy[2]));
  X.translation() = Vector3<Scalar>(static_cast<Scalar>(xyz[0]), static_cast<Scalar>(xyz[1]),
                                    static_cast<Scalar>(xyz[2]));
  return X;
}

/// Converts a URDF collision primitive placed at X_LG in link frame L into a capsule in L.
///
/// - sphere (r): a zero-length capsule of radius r (exact);
/// - capsule (r, length): segment of `length` along the primitive's z axis, radius r (exact;
///   `length` is the distance between the two cap centres, as in the URDF capsule extension);
/// - cylinder (r, length): segment of `length` along z, radius r. This capsule contains the
///   cylinder and extends r beyond each flat face;
/// - box (x, y, z): the bounding capsule along the longest edge: segment of that edge's length
///   through the box centre, radius = half the diagonal of the other two edges, so every
///   corner lies on the capsule surface and the box is inside it.
template <typename Scalar>
CollisionShape<Scalar> collisionFromPrimitive(const std::string& name, UrdfPrimitive kind, const double (&size)[3],
                                              const Isometry3<Scalar>& X_LG) {
  using Kind = typename CollisionShape<Scalar>::Kind;
  CollisionShape<Scalar> shape;
  shape.name = name;
  Vector3<Scalar> half_G = Vector3<Scalar>::Zero();  // half segment in the primitive frame G
  Scalar radius = Scalar(0);
  switch (kind) {
    case UrdfPrimitive::kSphere:
      shape.kind = Kind::kSphere;
      radius = static_cast<Scalar>(size[0]);
      break;
    case UrdfPrimitive::kCylinder:
    case UrdfPrimitive::kCapsule:
      shape.kind = kind == UrdfPrimitive::kCylinder ? Kind::kCylinder : Kind::kCapsule;
      radius = static_cast<Scalar>(size[0]);
      half_G.z() = static_cast<Scalar>(0.5 * size[1]);
      break;
    case UrdfPrimitive::kBox: {
      shape.kind = Kind::kBox;
      int longest = 0;
      for (int i = 1; i < 3; ++i) {
        if (size[i] > size[longest]) longest = i;
      }
      const double u = size[(longest + 1) % 3];
      const double v = size[(longest + 2) % 3];
      half_G[longest] = static_cast<Scalar>(0.5 * size[longest]);
      radius = static_cast<Scalar>(0.5 * std::sqrt(u * u + v * v));
      break;
    }
  }
  shape.X_LG = X_LG;
  shape.size_G =
      Vector3<Scalar>(static_cast<Scalar>(size[0]), static_cast<Scalar>(size[1]), static_cast<Scalar>(size[2]));
  if (kind == UrdfPrimitive::kSphere) shape.size_G.tail(2).setZero();
  if (kind == UrdfPrimitive::kCylinder || kind == UrdfPrimitive::kCapsule) shape.size_G.z() = Scalar(0);
  shape.capsule_L.a = X_LG * Vector3<Scalar>(-half_G);
  shape.capsule_L.b = X_LG * half_G;
  shape.capsule_L.radius = radius;
  return shape;
}

/// A collision capsule given directly by its end points in the link frame (m).
template <typename Scalar>
CollisionShape<Scalar> capsuleShape(const std::string& name, const Vector3<Scalar>& a_L, const Vector3<Scalar>& b_L,
                                    Scalar radius) {
  using Kind = typename CollisionShape<Scalar>::Kind;
  CollisionShape<Scalar> shape;
  shape.name = name;
  shape.kind = (a_L - b_L).norm() == Scalar(0) ? Kind::kSphere : Kind::kCapsule;
  shape.capsule_L = Capsule<Scalar>{a_L, b_L, radius};
  return shape;
}

/// One estimated "segment" capsule: on `link`, from the link origin to the origin of its child
/// joint `child_joint` (both in the link frame), with `radius` (m).
struct SegmentCapsule {
  const char* link;
  const char* child_joint;
  const char* name;
  double radius;
};

/// Adds the segment capsules to `builder`, reading the child-joint origins from `joints`.
template <typename Scalar, std::size_t kJoints>
void addSegmentCapsules(RobotModelBuilder<Scalar>& builder, const RobotTableJoint (&joints)[kJoints],
                        const std::vector<SegmentCapsule>& segments) {
  for (const SegmentCapsule& segment : segments) {
    const RobotTableJoint* child = nullptr;
    for (const RobotTableJoint& row : joints) {
      if (std::string(row.name) == segment.child_joint) child = &row;
    }
    RETARGET_CHECK_INVARIANT(child != nullptr && std::string(child->parent) == segment.link);
    const Vector3<Scalar> b_L(static_cast<Scalar>(child->xyz[0]), static_cast<Scalar>(child->xyz[1]),
                              static_cast<Scalar>(child->xyz[2]));
    builder.addCollision(segment.link, capsuleShape<Scalar>(segment.name, Vector3<Scalar>::Zero(), b_L,
                                                            static_cast<Scalar>(segment.radius)));
  }
}

/// Joint description from a table row.
template <typename Scalar>
JointSpec<Scalar> jointSpecFromTable(const RobotTableJoint& row) {
  JointSpec<Scalar> joint;
  joint.name = row.name;
  joint.type = row.type;
  joint.parent_link = row.parent;
  joint.child_link = row.child;
  joint.X_PJ = poseFromXyzRpy<Scalar>(row.xyz, row.rpy);
  joint.axis = Vector3<Scalar>(static_cast<Scalar>(row.axis[0]), static_cast<Scalar>(row.axis[1]),
                               static_cast<Scalar>(row.axis[2]));
  joint.limits.lower = static_cast<Scalar>(row.lower);
  joint.limits.upper = static_cast<Scalar>(row.upper);
  joint.limits.velocity = static_cast<Scalar>(row.velocity);
  joint.limits.effort = static_cast<Scalar>(row.effort);
  if (row.mimic != nullptr) joint.mimic = MimicSpec{row.mimic, row.multiplier, row.offset};
  return joint;
}

/// Fills `builder` from tables: every link, every joint, every collision primitive, and sets
/// the configuration order to the moving non-mimic joints in table order (the URDF's
/// document order), unless `configuration_order` is not empty.
template <typename Scalar, std::size_t kLinks, std::size_t kJoints>
void fillFromTables(RobotModelBuilder<Scalar>& builder, const RobotTableLink (&links)[kLinks],
                    const RobotTableJoint (&joints)[kJoints], const RobotTableShape* shapes, std::size_t shape_count,
                    std::vector<std::string> configuration_order = {}) {
  for (const RobotTableLink& row : links) {
    builder.addLink(row.name, static_cast<Scalar>(row.mass),
                    Vector3<Scalar>(static_cast<Scalar>(row.com[0]), static_cast<Scalar>(row.com[1]),
                                    static_cast<Scalar>(row.com[2])));
  }
  const bool table_order = configuration_order.empty();
  for (const RobotTableJoint& row : joints) {
    builder.addJoint(jointSpecFromTable<Scalar>(row));
    if (table_order && row.type != JointType::kFixed && row.mimic == nullptr) configuration_order.push_back(row.name);
  }
  for (std::size_t i = 0; i < shape_count; ++i) {
    const RobotTableShape& row = shapes[i];
    builder.addCollision(row.link, collisionFromPrimitive<Scalar>(row.name, row.kind, row.size,
                                                                  poseFromXyzRpy<Scalar>(row.xyz, row.rpy)));
  }
  builder.setConfigurationOrder(std::move(configuration_order));
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_ROBOTS Matrix3<double> rotationFromRpy<double>(double, double, double);
RETARGET_TEMPLATE_ROBOTS Matrix3<float> rotationFromRpy<float>(float, float, float);
RETARGET_TEMPLATE_ROBOTS Isometry3<double> poseFromXyzRpy<double>(const double (&)[3], const double (&)[3]);
RETARGET_TEMPLATE_ROBOTS Isometry3<float> poseFromXyzRpy<float>(const double (&)[3], const double (&)[3]);
RETARGET_TEMPLATE_ROBOTS CollisionShape<double> collisionFromPrimitive<double>(
    const std::string&, UrdfPrimitive, const double (&)[3], const Isometry3<double>&);
RETARGET_TEMPLATE_ROBOTS CollisionShape<float> collisionFromPrimitive<float>(
    const std::string&, UrdfPrimitive, const double (&)[3], const Isometry3<float>&);
RETARGET_TEMPLATE_ROBOTS CollisionShape<double> capsuleShape<double>(
    const std::string&, const Vector3<double>&, const Vector3<double>&, double);
RETARGET_TEMPLATE_ROBOTS CollisionShape<float> capsuleShape<float>(
    const std::string&, const Vector3<float>&, const Vector3<float>&, float);
RETARGET_TEMPLATE_ROBOTS JointSpec<double> jointSpecFromTable<double>(const RobotTableJoint&);
RETARGET_TEMPLATE_ROBOTS JointSpec<float> jointSpecFromTable<float>(const RobotTableJoint&);
#endif

}  // namespace retarget::internal
