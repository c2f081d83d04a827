#pragma once

/// @file
/// Robot kinematic tree: the immutable description of a robot (links, joints, limits, mass,
/// collision shapes). The per-call workspace lives apart, in `RobotData` (robot_data.hpp).
///
/// Conventions (the same as URDF): every link but the root has exactly one parent joint. A
/// joint's frame J sits at `X_PJ` in its parent link frame P; the joint moves about (revolute,
/// continuous) or along (prismatic) its unit `axis`, expressed in J. The child link frame C is
/// the moved joint frame followed by an optional fixed `X_JC` (identity for URDF; used by
/// standard Denavit-Hartenberg rows). So X_PC(q) = X_PJ * Motion(axis, q) * X_JC.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/types.hpp>
#include <retarget/geometry/capsule.hpp>

namespace retarget {

/// Kind of a joint.
enum class JointType {
  kRevolute,    ///< Rotation about `axis`, bounded by position limits (rad).
  kContinuous,  ///< Rotation about `axis`, unbounded (rad).
  kPrismatic,   ///< Translation along `axis`, bounded by position limits (m).
  kFixed,       ///< No motion; contributes no coordinate.
};

/// Lower-case name of a joint type, as in URDF ("revolute", "continuous", ...).
inline const char* toString(JointType type) {
  switch (type) {
    case JointType::kRevolute: return "revolute";
    case JointType::kContinuous: return "continuous";
    case JointType::kPrismatic: return "prismatic";
    case JointType::kFixed: return "fixed";
  }
  return "unknown";
}

/// Limits of one joint. Position in rad (revolute) or m (prismatic); velocity in rad/s or m/s;
/// effort in N*m or N. Infinite values mean "unbounded".
template <typename Scalar = double>
struct JointLimits {
  Scalar lower = -std::numeric_limits<Scalar>::infinity();
  Scalar upper = std::numeric_limits<Scalar>::infinity();
  Scalar velocity = std::numeric_limits<Scalar>::infinity();
  Scalar effort = std::numeric_limits<Scalar>::infinity();
};

/// A joint whose value follows another: value = multiplier * value(driver) + offset.
struct MimicSpec {
  std::string driver;      ///< Name of the driving joint.
  double multiplier = 1.0; ///< Unitless.
  double offset = 0.0;     ///< rad or m.
};

/// Description of one joint, as given to `RobotModelBuilder`.
template <typename Scalar = double>
struct JointSpec {
  std::string name;
  JointType type = JointType::kRevolute;
  std::string parent_link;
  std::string child_link;
  /// Pose of the joint frame J in the parent link frame P.
  Isometry3<Scalar> X_PJ = Isometry3<Scalar>::Identity();
  /// Motion axis in J; normalised by the builder (must be non-zero for moving joints).
  Vector3<Scalar> axis = Vector3<Scalar>::UnitZ();
  /// Pose of the child link frame C in the moved joint frame (identity for URDF joints).
  Isometry3<Scalar> X_JC = Isometry3<Scalar>::Identity();
  JointLimits<Scalar> limits{};
  std::optional<MimicSpec> mimic{};
};

/// Mass properties of a link: mass (kg) and centre of mass p_LCm in the link frame L (m).
template <typename Scalar = double>
struct Inertial {
  Scalar mass = Scalar(0);
  Vector3<Scalar> p_LCm = Vector3<Scalar>::Zero();
};

/// A collision shape attached to a link, as a capsule in the link frame L (a sphere is a
/// capsule whose two ends coincide). `kind` records what the shape was before conversion.
template <typename Scalar = double>
struct CollisionShape {
  enum class Kind { kSphere, kCapsule, kCylinder, kBox };
  std::string name;
  Kind kind = Kind::kCapsule;
  Capsule<Scalar> capsule_L{};
  /// The primitive as the file gave it, before conversion: its frame G in the link frame L and
  /// its size (m): sphere (radius, 0, 0), capsule or cylinder (radius, length along G's z, 0),
  /// box (edge lengths along G's x, y, z). A shape given as a capsule directly by its end points
  /// keeps the identity and a zero size: `capsule_L` is then all there is.
  Isometry3<Scalar> X_LG = Isometry3<Scalar>::Identity();
  Vector3<Scalar> size_G = Vector3<Scalar>::Zero();
};

/// Lower-case name of a collision-shape kind.
template <typename Scalar>
const char* toString(typename CollisionShape<Scalar>::Kind kind) {
  using Kind = typename CollisionShape<Scalar>::Kind;
  switch (kind) {
    case Kind::kSphere: return "sphere";
    case Kind::kCapsule: return "capsule";
    case Kind::kCylinder: return "cylinder";
    case Kind::kBox: return "box";
  }
  return "unknown";
}

/// Description of one link, as given to `RobotModelBuilder`.
template <typename Scalar = double>
struct LinkSpec {
  std::string name;
  Inertial<Scalar> inertial{};
  std::vector<CollisionShape<Scalar>> collisions{};
};

/// One joint of a built model. Indices refer to `RobotModel::links()` / `joints()`.
template <typename Scalar = double>
struct Joint {
  std::string name;
  JointType type = JointType::kFixed;
  int parent_link = -1;
  int child_link = -1;
  Isometry3<Scalar> X_PJ = Isometry3<Scalar>::Identity();
  Vector3<Scalar> axis = Vector3<Scalar>::UnitZ();  ///< Unit vector in J.
  Isometry3<Scalar> X_JC = Isometry3<Scalar>::Identity();
  /// True when X_JC is exactly the identity (lets forward kinematics skip a product).
  bool X_JC_is_identity = true;
  JointLimits<Scalar> limits{};
  /// Index of this joint's coordinate in q, or -1 for fixed and mimic joints.
  int q_index = -1;
  /// For mimic joints: index of the driving joint's coordinate in q (else -1).
  int mimic_q_index = -1;
  Scalar mimic_multiplier = Scalar(1);
  Scalar mimic_offset = Scalar(0);

  /// True for joints that move (everything but fixed).
  bool moves() const { return type != JointType::kFixed; }
  /// True when this joint follows another one.
  bool isMimic() const { return mimic_q_index >= 0; }
};

/// One link of a built model.
template <typename Scalar = double>
struct Link {
  std::string name;
  int parent_joint = -1;  ///< -1 for the root link.
  Inertial<Scalar> inertial{};
  std::vector<CollisionShape<Scalar>> collisions{};
  /// Joints from the root to this link, root first (fixed joints included).
  std::vector<int> support{};
};

namespace internal {

/// What forwardKinematics does for a joint (one switch per joint, no other branch on the common
/// cases); chosen once per joint by RobotModelBuilder::build.
enum class FkOp : unsigned char {
  kTurnX,    ///< X_PJ a pure translation, rotation about +-x, X_JC = I: translate, turn columns y, z.
  kTurnY,    ///< As kTurnX about +-y: columns z, x turn.
  kTurnZ,    ///< As kTurnX about +-z: columns x, y turn.
  kShift,    ///< Fixed joint, X_PJ a pure translation, X_JC = I: translate only.
  kGeneral,  ///< Anything else: the flags and `motion` of FkStep say what to do.
};

/// How a kGeneral joint moves its frame J, from the joint's type and axis.
enum class FkMotion : unsigned char {
  kFixed,          ///< No motion (fixed joints).
  kRotateX,        ///< Rotation about +-x of J: columns y, z of R_WJ turn by a 2x2 rotation.
  kRotateY,        ///< Rotation about +-y of J: columns z, x turn.
  kRotateZ,        ///< Rotation about +-z of J: columns x, y turn.
  kRotateGeneral,  ///< Rotation about any other unit axis: R_WJ times the axis-angle matrix.
  kTranslate,      ///< Translation along the axis (prismatic joints).
};

/// One joint of the precomputed forward-kinematics program: the fixed parts of
/// X_PC(q) = X_PJ * Motion(axis, q) * X_JC as a rotation + translation pair each, with exact
/// identities flagged so that forwardKinematics skips their products.
template <typename Scalar>
struct FkStep {
  // What every joint reads first (one cache line for double).
  int parent = 0;  ///< Index of the parent link P in RobotModel::links().
  int child = 0;   ///< Index of the child link C.
  FkOp op = FkOp::kGeneral;
  FkMotion motion = FkMotion::kFixed;
  bool rotated_origin = false;  ///< R_PJ is not exactly the identity.
  bool child_offset = false;    ///< X_JC is not exactly the identity.
  /// Rotation about +-x, +-y or +-z: the sign of the axis along it (multiplies sin q).
  Scalar axis_sign = Scalar(1);
  Vector3<Scalar> p_PJ = Vector3<Scalar>::Zero();      ///< Translation of X_PJ (m, frame P).
  // What only kGeneral reads.
  Matrix3<Scalar> R_PJ = Matrix3<Scalar>::Identity();  ///< Rotation of X_PJ.
  Vector3<Scalar> axis = Vector3<Scalar>::UnitZ();     ///< Unit axis in J (as Joint::axis).
  Vector3<Scalar> p_JC = Vector3<Scalar>::Zero();      ///< Translation of X_JC (m).
  Matrix3<Scalar> R_JC = Matrix3<Scalar>::Identity();  ///< Rotation of X_JC.
};

/// A mimic joint's value rule, value = multiplier * q[q_index] + offset.
template <typename Scalar>
struct FkMimic {
  int joint = 0;
  int q_index = 0;
  Scalar multiplier = Scalar(1);
  Scalar offset = Scalar(0);
};

/// The forward-kinematics program of a model (RobotModel::fkProgram): built once, read by
/// forwardKinematics on every call.
template <typename Scalar>
struct FkProgram {
  std::vector<FkStep<Scalar>> steps;    ///< One per joint, in joint (topological) order.
  std::vector<FkMimic<Scalar>> mimics;  ///< Every mimic joint.
  std::vector<int> zero_joints;         ///< Joints whose value is always 0 (fixed joints).
};

/// Builds the program of `joints` (topologically sorted, axes unit, indices resolved).
template <typename Scalar>
FkProgram<Scalar> makeFkProgram(const std::vector<Joint<Scalar>>& joints) {
  FkProgram<Scalar> program;
  program.steps.reserve(joints.size());
  for (std::size_t k = 0; k < joints.size(); ++k) {
    const Joint<Scalar>& joint = joints[k];
    FkStep<Scalar> step;
    step.parent = joint.parent_link;
    step.child = joint.child_link;
    step.p_PJ = joint.X_PJ.translation();
    step.R_PJ = joint.X_PJ.linear();
    step.rotated_origin = !(step.R_PJ.array() == Matrix3<Scalar>::Identity().array()).all();
    step.child_offset = !joint.X_JC_is_identity;
    step.p_JC = joint.X_JC.translation();
    step.R_JC = joint.X_JC.linear();
    step.axis = joint.axis;
    switch (joint.type) {
      case JointType::kRevolute:
      case JointType::kContinuous: {
        step.motion = FkMotion::kRotateGeneral;
        constexpr FkMotion kPrincipal[3] = {FkMotion::kRotateX, FkMotion::kRotateY, FkMotion::kRotateZ};
        for (int i = 0; i < 3; ++i) {
          const Scalar a = joint.axis[i];
          const bool others_zero = joint.axis[(i + 1) % 3] == Scalar(0) && joint.axis[(i + 2) % 3] == Scalar(0);
          if (others_zero && (a == Scalar(1) || a == Scalar(-1))) {
            step.motion = kPrincipal[i];
            step.axis_sign = a;
          }
        }
        break;
      }
      case JointType::kPrismatic: step.motion = FkMotion::kTranslate; break;
      case JointType::kFixed: step.motion = FkMotion::kFixed; break;
    }
    step.op = FkOp::kGeneral;
    if (!step.rotated_origin && !step.child_offset) {
      switch (step.motion) {
        case FkMotion::kRotateX: step.op = FkOp::kTurnX; break;
        case FkMotion::kRotateY: step.op = FkOp::kTurnY; break;
        case FkMotion::kRotateZ: step.op = FkOp::kTurnZ; break;
        case FkMotion::kFixed: step.op = FkOp::kShift; break;
        case FkMotion::kRotateGeneral:
        case FkMotion::kTranslate: break;
      }
    }
    program.steps.push_back(step);
    if (joint.q_index < 0 && joint.mimic_q_index >= 0) {
      program.mimics.push_back({static_cast<int>(k), joint.mimic_q_index, joint.mimic_multiplier, joint.mimic_offset});
    } else if (joint.q_index < 0) {
      program.zero_joints.push_back(static_cast<int>(k));
    }
  }
  return program;
}

}  // namespace internal

/// Immutable robot description: links, joints in topological order (every joint after the
/// joint of its parent link), and the configuration layout q.
///
/// Invariants: exactly one root link; the joint graph is a tree; for every independent moving
/// joint lower <= upper; axes are unit vectors; q has one coordinate per moving, non-mimic
/// joint, in joint (topological) order unless an explicit order was requested.
/// Build it with `RobotModelBuilder`.
template <typename Scalar = double>
class RobotModel {
 public:
  RobotModel() = default;

  /// Robot name (e.g. "NaoH25V50").
  const std::string& name() const { return name_; }
  /// All links; index 0 is the root.
  const std::vector<Link<Scalar>>& links() const { return links_; }
  /// All joints, topologically sorted.
  const std::vector<Joint<Scalar>>& joints() const { return joints_; }
  /// Number of configuration coordinates (independent moving joints).
  int nq() const { return static_cast<int>(q_joints_.size()); }
  /// Joint index of each configuration coordinate.
  const std::vector<int>& qJoints() const { return q_joints_; }
  /// Name of configuration coordinate `i` (the joint's name).
  const std::string& qName(int i) const;
  /// Names of all configuration coordinates, in q order.
  std::vector<std::string> qNames() const;
  /// Lower / upper position limits of q (rad or m; -inf/+inf for continuous joints).
  const VectorX<Scalar>& lowerLimits() const { return lower_; }
  const VectorX<Scalar>& upperLimits() const { return upper_; }
  /// Velocity limits of q (rad/s or m/s; +inf when unknown).
  const VectorX<Scalar>& velocityLimits() const { return velocity_; }
  /// Sum of all link masses (kg).
  Scalar totalMass() const { return total_mass_; }

  /// Index of the link named `name`, or -1.
  int findLink(const std::string& name) const { return find(link_index_, name); }
  /// Index of the joint named `name`, or -1.
  int findJoint(const std::string& name) const { return find(joint_index_, name); }
  /// Configuration index of the joint named `name`, or -1 (fixed, mimic or unknown joints).
  int findQ(const std::string& name) const;
  /// Like findLink, but throws InvalidArgument naming the missing link.
  int linkIndex(const std::string& name) const;
  /// Like findJoint, but throws InvalidArgument naming the missing joint.
  int jointIndex(const std::string& name) const;
  /// Like findQ, but throws InvalidArgument when the joint is missing or has no coordinate.
  int qIndex(const std::string& name) const;

  /// A configuration with every coordinate at zero, clamped into its limits.
  VectorX<Scalar> neutralConfiguration() const;

  /// Internal: the joints as precomputed by the builder for forwardKinematics
  /// (forward_kinematics.hpp); empty for a default-constructed model.
  const internal::FkProgram<Scalar>& fkProgram() const { return fk_program_; }

 private:
  template <typename> friend class RobotModelBuilder;

  static int find(const std::unordered_map<std::string, int>& map, const std::string& name);

  std::string name_;
  std::vector<Link<Scalar>> links_;
  std::vector<Joint<Scalar>> joints_;
  std::vector<int> q_joints_;
  VectorX<Scalar> lower_, upper_, velocity_;
  Scalar total_mass_ = Scalar(0);
  std::unordered_map<std::string, int> link_index_, joint_index_;
  internal::FkProgram<Scalar> fk_program_;
};

/// Assembles and validates a `RobotModel` from link and joint descriptions given in any order.
///
/// `build()` throws `InvalidArgument` naming the joint or link and the values when: a name is
/// empty or repeated, a joint's parent or child link is unknown, a link has two parent joints,
/// there is not exactly one root, the joints form a cycle, a moving joint's axis is zero or not
/// finite, an origin is not finite, a bounded joint has lower > upper or non-finite limits, a
/// velocity limit is negative, a mimic driver is unknown, fixed or itself a mimic, a mass is
/// negative, or a collision radius is negative.
template <typename Scalar = double>
class RobotModelBuilder {
 public:
  explicit RobotModelBuilder(std::string robot_name) : name_(std::move(robot_name)) {}

  RobotModelBuilder& addLink(LinkSpec<Scalar> link);
  RobotModelBuilder& addLink(const std::string& name, Scalar mass = Scalar(0),
                             const Vector3<Scalar>& p_LCm = Vector3<Scalar>::Zero());
  RobotModelBuilder& addJoint(JointSpec<Scalar> joint);
  /// Attaches a collision shape to a previously added link (throws if it does not exist).
  RobotModelBuilder& addCollision(const std::string& link, CollisionShape<Scalar> shape);
  /// Orders q as the given joint names (each must be a moving, non-mimic joint; all such
  /// joints must be listed). Without this call q follows the topological joint order.
  RobotModelBuilder& setConfigurationOrder(std::vector<std::string> joint_names);

  /// Validates everything and returns the model (see the class doc for what throws).
  RobotModel<Scalar> build() const;

 private:
  std::string name_;
  std::vector<LinkSpec<Scalar>> links_;
  std::vector<JointSpec<Scalar>> joints_;
  std::optional<std::vector<std::string>> q_order_;
};

// ---------------------------------------------------------------------------------------------

template <typename Scalar>
RobotModel<Scalar> RobotModelBuilder<Scalar>::build() const {
  const std::string& robot = name_;
  RETARGET_THROW_UNLESS(!links_.empty(), InvalidArgument, "robot '", robot, "' has no links");

  std::unordered_map<std::string, std::size_t> link_ids;
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const auto& l = links_[i];
    RETARGET_THROW_UNLESS(!l.name.empty(), InvalidArgument, "robot '", robot, "': link #", i, " has an empty name");
    RETARGET_THROW_UNLESS(link_ids.emplace(l.name, i).second, InvalidArgument, "robot '",
                          robot, "': link name '", l.name, "' is used twice");
    RETARGET_THROW_UNLESS(std::isfinite(l.inertial.mass) && l.inertial.mass >= 0, InvalidArgument, "robot '",
                          robot, "': link '", l.name, "' has invalid mass (got ", l.inertial.mass,
                          ", expected a finite value >= 0)");
    RETARGET_THROW_UNLESS(l.inertial.p_LCm.allFinite(), InvalidArgument, "robot '", robot, "': link '", l.name,
                          "' has a non-finite centre of mass");
    for (const auto& shape : l.collisions) {
      RETARGET_THROW_UNLESS(std::isfinite(shape.capsule_L.radius) && shape.capsule_L.radius >= 0 &&
                                shape.capsule_L.a.allFinite() && shape.capsule_L.b.allFinite(),
                            InvalidArgument, "robot '", robot, "': collision shape '", shape.name, "' of link '",
                            l.name, "' is invalid (radius ", shape.capsule_L.radius,
                            ", expected finite end points and radius >= 0)");
    }
  }

  // Check joints one by one and record each link's parent joint.
  std::unordered_map<std::string, int> joint_ids;
  std::vector<int> parent_joint_of_link(links_.size(), -1);
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const auto& js = joints_[j];
    RETARGET_THROW_UNLESS(!js.name.empty(), InvalidArgument, "robot '", robot, "': joint #", j, " has an empty name");
    RETARGET_THROW_UNLESS(joint_ids.emplace(js.name, static_cast<int>(j)).second, InvalidArgument, "robot '",
                          robot, "': joint name '", js.name, "' is used twice");
    const auto parent = link_ids.find(js.parent_link);
    RETARGET_THROW_UNLESS(parent != link_ids.end(), InvalidArgument, "robot '", robot, "': joint '", js.name,
                          "' names unknown parent link '", js.parent_link, "'");
    const auto child = link_ids.find(js.child_link);
    RETARGET_THROW_UNLESS(child != link_ids.end(), InvalidArgument, "robot '", robot, "': joint '", js.name,
                          "' names unknown child link '", js.child_link, "'");
    RETARGET_THROW_UNLESS(parent->second != child->second, InvalidArgument, "robot '", robot, "': joint '",
                          js.name, "' connects link '", js.parent_link, "' to itself");
    const int other_parent_joint = parent_joint_of_link[child->second];
    RETARGET_THROW_UNLESS(other_parent_joint < 0, InvalidArgument, "robot '", robot,
                          "': link '", js.child_link, "' is the child of two joints ('",
                          other_parent_joint < 0 ? std::string()
                                                 : joints_[static_cast<std::size_t>(other_parent_joint)].name,
                          "' and '", js.name, "')");
    parent_joint_of_link[child->second] = static_cast<int>(j);
    RETARGET_THROW_UNLESS(js.X_PJ.matrix().allFinite() && js.X_JC.matrix().allFinite(), InvalidArgument,
                          "robot '", robot, "': joint '", js.name, "' has a non-finite origin");
    if (js.type != JointType::kFixed) {
      RETARGET_THROW_UNLESS(js.axis.allFinite() && js.axis.norm() > kDegenerateEpsilon<Scalar>, InvalidArgument,
                            "robot '", robot, "': joint '", js.name, "' has a zero or non-finite axis (got ",
                            js.axis.transpose(), ")");
    }
    const bool bounded = js.type == JointType::kRevolute || js.type == JointType::kPrismatic;
    if (bounded && !js.mimic) {
      RETARGET_THROW_UNLESS(std::isfinite(js.limits.lower) && std::isfinite(js.limits.upper), InvalidArgument,
                            "robot '", robot, "': ", toString(js.type), " joint '", js.name,
                            "' needs finite position limits (got lower ", js.limits.lower, ", upper ",
                            js.limits.upper, ")");
      RETARGET_THROW_UNLESS(js.limits.lower <= js.limits.upper, InvalidArgument, "robot '", robot, "': joint '",
                            js.name, "' has lower limit above upper limit (got lower ", js.limits.lower,
                            " > upper ", js.limits.upper, ")");
    }
    RETARGET_THROW_UNLESS(!(js.limits.velocity < 0), InvalidArgument, "robot '", robot, "': joint '", js.name,
                          "' has a negative velocity limit (got ", js.limits.velocity, ")");
  }

  // Exactly one root.
  int root = -1;
  for (std::size_t i = 0; i < links_.size(); ++i) {
    if (parent_joint_of_link[i] >= 0) continue;
    RETARGET_THROW_UNLESS(root < 0, InvalidArgument, "robot '", robot, "' has more than one root link ('",
                          links_[static_cast<std::size_t>(root)].name, "' and '", links_[i].name, "'); every other link needs a parent joint");
    root = static_cast<int>(i);
  }
  RETARGET_THROW_UNLESS(root >= 0, InvalidArgument, "robot '", robot,
                        "' has no root link: the joints form a cycle through every link");

  // Breadth-first order from the root; links never reached lie on a cycle.
  std::vector<std::vector<std::size_t>> child_joints(links_.size());
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    child_joints[link_ids.at(joints_[j].parent_link)].push_back(j);
  }
  std::vector<std::size_t> link_order{static_cast<std::size_t>(root)};
  std::vector<std::size_t> joint_order;
  for (std::size_t k = 0; k < link_order.size(); ++k) {
    for (std::size_t j : child_joints[link_order[k]]) {
      joint_order.push_back(j);
      link_order.push_back(link_ids.at(joints_[j].child_link));
    }
  }
  if (link_order.size() != links_.size()) {
    std::vector<bool> reached(links_.size(), false);
    for (std::size_t l : link_order) reached[l] = true;
    for (std::size_t j = 0; j < joints_.size(); ++j) {
      const std::size_t c = link_ids.at(joints_[j].child_link);
      RETARGET_THROW_UNLESS(reached[c], InvalidArgument, "robot '", robot, "': joint '", joints_[j].name,
                            "' lies on a cycle (link '", joints_[j].child_link, "' is not reachable from root '",
                            links_[static_cast<std::size_t>(root)].name, "')");
    }
  }

  RobotModel<Scalar> model;
  model.name_ = robot;
  std::vector<int> new_link_index(links_.size());
  for (std::size_t k = 0; k < link_order.size(); ++k) new_link_index[link_order[k]] = static_cast<int>(k);
  for (std::size_t old : link_order) {
    Link<Scalar> link;
    link.name = links_[old].name;
    link.inertial = links_[old].inertial;
    link.collisions = links_[old].collisions;
    model.links_.push_back(std::move(link));
  }
  for (std::size_t k = 0; k < joint_order.size(); ++k) {
    const auto& js = joints_[joint_order[k]];
    Joint<Scalar> joint;
    joint.name = js.name;
    joint.type = js.type;
    joint.parent_link = new_link_index[link_ids.at(js.parent_link)];
    joint.child_link = new_link_index[link_ids.at(js.child_link)];
    joint.X_PJ = js.X_PJ;
    joint.X_JC = js.X_JC;
    joint.X_JC_is_identity = js.X_JC.matrix() == Isometry3<Scalar>::Identity().matrix();
    joint.axis = js.type == JointType::kFixed ? Vector3<Scalar>::UnitZ() : Vector3<Scalar>(js.axis.normalized());
    joint.limits = js.limits;
    if (js.type == JointType::kContinuous) {
      joint.limits.lower = -std::numeric_limits<Scalar>::infinity();
      joint.limits.upper = std::numeric_limits<Scalar>::infinity();
    }
    model.links_[static_cast<std::size_t>(joint.child_link)].parent_joint = static_cast<int>(k);
    model.joint_index_.emplace(joint.name, static_cast<int>(k));
    model.joints_.push_back(std::move(joint));
  }
  for (std::size_t i = 0; i < model.links_.size(); ++i) model.link_index_.emplace(model.links_[i].name, static_cast<int>(i));

  // Configuration layout.
  std::vector<int> q_joints;
  if (q_order_) {
    for (const auto& name : *q_order_) {
      const int j = model.findJoint(name);
      RETARGET_THROW_UNLESS(j >= 0, InvalidArgument, "robot '", robot, "': configuration order names unknown joint '",
                            name, "'");
      const auto ju = static_cast<std::size_t>(j);
      RETARGET_THROW_UNLESS(model.joints_[ju].moves() && !joints_[joint_order[ju]].mimic, InvalidArgument, "robot '",
                            robot, "': configuration order names joint '", name, "', which is fixed or a mimic");
      RETARGET_THROW_UNLESS(std::find(q_joints.begin(), q_joints.end(), j) == q_joints.end(), InvalidArgument,
                            "robot '", robot, "': configuration order names joint '", name, "' twice");
      q_joints.push_back(j);
    }
  }
  for (std::size_t k = 0; k < model.joints_.size(); ++k) {
    const auto& js = joints_[joint_order[k]];
    if (!model.joints_[k].moves() || js.mimic) continue;
    if (std::find(q_joints.begin(), q_joints.end(), static_cast<int>(k)) != q_joints.end()) continue;
    RETARGET_THROW_UNLESS(!q_order_, InvalidArgument, "robot '", robot, "': configuration order omits moving joint '",
                          js.name, "'");
    q_joints.push_back(static_cast<int>(k));
  }
  model.q_joints_ = q_joints;
  const int nq = static_cast<int>(q_joints.size());
  model.lower_.resize(nq);
  model.upper_.resize(nq);
  model.velocity_.resize(nq);
  for (int i = 0; i < nq; ++i) {
    auto& joint = model.joints_[static_cast<std::size_t>(q_joints[static_cast<std::size_t>(i)])];
    joint.q_index = i;
    model.lower_[i] = joint.limits.lower;
    model.upper_[i] = joint.limits.upper;
    model.velocity_[i] = joint.limits.velocity;
  }

  // Mimic joints, resolved after q exists.
  for (std::size_t k = 0; k < model.joints_.size(); ++k) {
    const auto& js = joints_[joint_order[k]];
    if (!js.mimic) continue;
    RETARGET_THROW_UNLESS(js.type != JointType::kFixed, InvalidArgument, "robot '", robot, "': fixed joint '", js.name,
                          "' cannot mimic another joint");
    const int driver = model.findJoint(js.mimic->driver);
    RETARGET_THROW_UNLESS(driver >= 0, InvalidArgument, "robot '", robot, "': mimic joint '", js.name,
                          "' follows unknown joint '", js.mimic->driver, "'");
    const int driver_q_index = model.joints_[static_cast<std::size_t>(driver)].q_index;
    RETARGET_THROW_UNLESS(driver_q_index >= 0, InvalidArgument, "robot '", robot, "': mimic joint '",
                          js.name, "' follows joint '", js.mimic->driver, "', which is fixed or itself a mimic");
    RETARGET_THROW_UNLESS(std::isfinite(js.mimic->multiplier) && std::isfinite(js.mimic->offset), InvalidArgument,
                          "robot '", robot, "': mimic joint '", js.name, "' has a non-finite multiplier or offset");
    auto& joint = model.joints_[k];
    joint.mimic_q_index = driver_q_index;
    joint.mimic_multiplier = static_cast<Scalar>(js.mimic->multiplier);
    joint.mimic_offset = static_cast<Scalar>(js.mimic->offset);
  }

  // Support chains (root to link) and total mass.
  for (std::size_t i = 0; i < model.links_.size(); ++i) {
    auto& link = model.links_[i];
    if (link.parent_joint >= 0) {
      const int parent_link = model.joints_[static_cast<std::size_t>(link.parent_joint)].parent_link;
      link.support = model.links_[static_cast<std::size_t>(parent_link)].support;
      link.support.push_back(link.parent_joint);
    }
    model.total_mass_ += link.inertial.mass;
  }
  model.fk_program_ = internal::makeFkProgram(model.joints_);
  return model;
}

template <typename Scalar>
const std::string& RobotModel<Scalar>::qName(int i) const {
  return joints_[static_cast<std::size_t>(q_joints_[static_cast<std::size_t>(i)])].name;
}

template <typename Scalar>
std::vector<std::string> RobotModel<Scalar>::qNames() const {
  std::vector<std::string> names;
  for (int j : q_joints_) names.push_back(joints_[static_cast<std::size_t>(j)].name);
  return names;
}

template <typename Scalar>
int RobotModel<Scalar>::findQ(const std::string& name) const {
  const int j = findJoint(name);
  return j < 0 ? -1 : joints_[static_cast<std::size_t>(j)].q_index;
}

template <typename Scalar>
int RobotModel<Scalar>::linkIndex(const std::string& name) const {
  const int i = findLink(name);
  RETARGET_THROW_UNLESS(i >= 0, InvalidArgument, "robot '", name_, "' has no link named '", name, "'");
  return i;
}

template <typename Scalar>
int RobotModel<Scalar>::jointIndex(const std::string& name) const {
  const int i = findJoint(name);
  RETARGET_THROW_UNLESS(i >= 0, InvalidArgument, "robot '", name_, "' has no joint named '", name, "'");
  return i;
}

template <typename Scalar>
int RobotModel<Scalar>::qIndex(const std::string& name) const {
  const Joint<Scalar>& joint = joints_[static_cast<std::size_t>(jointIndex(name))];
  RETARGET_THROW_UNLESS(joint.q_index >= 0, InvalidArgument, "joint '", name,
                        "' of robot '", name_, "' is ", toString(joint.type),
                        joint.isMimic() ? " (mimic)" : "", " and has no coordinate in q");
  return joint.q_index;
}

template <typename Scalar>
VectorX<Scalar> RobotModel<Scalar>::neutralConfiguration() const {
  VectorX<Scalar> q = VectorX<Scalar>::Zero(nq());
  return q.cwiseMax(lower_).cwiseMin(upper_);
}

template <typename Scalar>
int RobotModel<Scalar>::find(const std::unordered_map<std::string, int>& map, const std::string& name) {
  const auto it = map.find(name);
  return it == map.end() ? -1 : it->second;
}

template <typename Scalar>
RobotModelBuilder<Scalar>& RobotModelBuilder<Scalar>::addLink(LinkSpec<Scalar> link) {
  links_.push_back(std::move(link));
  return *this;
}

template <typename Scalar>
RobotModelBuilder<Scalar>& RobotModelBuilder<Scalar>::addLink(const std::string& name, Scalar mass,
                                                              const Vector3<Scalar>& p_LCm) {
  return addLink(LinkSpec<Scalar>{name, Inertial<Scalar>{mass, p_LCm}, {}});
}

template <typename Scalar>
RobotModelBuilder<Scalar>& RobotModelBuilder<Scalar>::addJoint(JointSpec<Scalar> joint) {
  joints_.push_back(std::move(joint));
  return *this;
}

template <typename Scalar>
RobotModelBuilder<Scalar>& RobotModelBuilder<Scalar>::addCollision(const std::string& link,
                                                                   CollisionShape<Scalar> shape) {
  for (auto& l : links_) {
    if (l.name == link) {
      l.collisions.push_back(std::move(shape));
      return *this;
    }
  }
  RETARGET_THROW_UNLESS(false, InvalidArgument, "robot '", name_,
                        "': collision shape '", shape.name, "' names unknown link '", link, "'");
  return *this;
}

template <typename Scalar>
RobotModelBuilder<Scalar>& RobotModelBuilder<Scalar>::setConfigurationOrder(std::vector<std::string> joint_names) {
  q_order_ = std::move(joint_names);
  return *this;
}

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_KINEMATICS class RobotModel<double>;
RETARGET_TEMPLATE_KINEMATICS class RobotModel<float>;
RETARGET_TEMPLATE_KINEMATICS class RobotModelBuilder<double>;
RETARGET_TEMPLATE_KINEMATICS class RobotModelBuilder<float>;
#endif

}  // namespace retarget
