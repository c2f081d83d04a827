// Kinematic tree: construction checks, forward kinematics, point and centre-of-mass Jacobians,
// Denavit-Hartenberg chains, clamping, and the no-allocation contract.
#include <doctest/doctest.h>

#include <random>

#include <retarget/kinematics/denavit_hartenberg.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

template <typename Scalar>
JointSpec<Scalar> revolute(const std::string& name, const std::string& parent, const std::string& child,
                           const Vector3<Scalar>& p_PJ, const Vector3<Scalar>& axis, Scalar lower = Scalar(-2),
                           Scalar upper = Scalar(2)) {
  JointSpec<Scalar> joint;
  joint.name = name;
  joint.parent_link = parent;
  joint.child_link = child;
  joint.X_PJ.translation() = p_PJ;
  joint.axis = axis;
  joint.limits.lower = lower;
  joint.limits.upper = upper;
  return joint;
}

// A small branching tree with every joint type, a rotated origin and a mimic joint:
//   base -yaw(z)-> torso -pitch(y)-> upper -slide(x, prismatic)-> lower -roll(x)-> hand
//                  torso -fixed-> head ;  torso -mimic of yaw (x2, +0.1)-> side
template <typename Scalar>
RobotModel<Scalar> makeTestTree() {
  using V = Vector3<Scalar>;
  RobotModelBuilder<Scalar> b("test_tree");
  b.addLink("base", Scalar(2), V(0, 0, Scalar(0.05)));
  b.addLink("torso", Scalar(5), V(Scalar(0.01), 0, Scalar(0.2)));
  b.addLink("upper", Scalar(1), V(Scalar(0.1), 0, 0));
  b.addLink("lower", Scalar(0.7), V(Scalar(0.05), Scalar(0.01), 0));
  b.addLink("hand", Scalar(0.3), V(Scalar(0.02), 0, Scalar(0.01)));
  b.addLink("head", Scalar(1.2), V(0, 0, Scalar(0.08)));
  b.addLink("side", Scalar(0.4), V(0, Scalar(0.05), 0));
  b.addJoint(revolute<Scalar>("yaw", "base", "torso", V(0, 0, Scalar(0.1)), V(0, 0, 1)));
  auto pitch = revolute<Scalar>("pitch", "torso", "upper", V(0, Scalar(0.15), Scalar(0.3)), V(0, 1, 0));
  pitch.X_PJ.linear() = Eigen::AngleAxis<Scalar>(Scalar(0.3), V(1, 0, 0)).toRotationMatrix();
  b.addJoint(pitch);
  auto slide = revolute<Scalar>("slide", "upper", "lower", V(Scalar(0.2), 0, 0), V(1, 0, 0), Scalar(-0.05), Scalar(0.1));
  slide.type = JointType::kPrismatic;
  b.addJoint(slide);
  auto roll = revolute<Scalar>("roll", "lower", "hand", V(Scalar(0.15), 0, 0), V(1, 1, 0));
  roll.type = JointType::kContinuous;
  b.addJoint(roll);
  auto neck = revolute<Scalar>("neck", "torso", "head", V(0, 0, Scalar(0.4)), V(0, 0, 1));
  neck.type = JointType::kFixed;
  b.addJoint(neck);
  auto side = revolute<Scalar>("side_joint", "torso", "side", V(0, Scalar(-0.1), Scalar(0.2)), V(0, 1, 0));
  side.mimic = MimicSpec{"yaw", 2.0, 0.1};
  b.addJoint(side);
  return b.build();
}

Eigen::Matrix3d rot(double angle, const Eigen::Vector3d& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}

}  // namespace

TEST_CASE("robot model: layout of q, names and limits") {
  const auto model = makeTestTree<double>();
  CHECK(model.nq() == 4);  // yaw, pitch, slide, roll; neck fixed, side_joint mimic
  CHECK(model.links().size() == 7);
  CHECK(model.links()[0].name == "base");
  CHECK(model.qName(model.qIndex("slide")) == "slide");
  CHECK(model.findQ("neck") == -1);
  CHECK(model.findQ("side_joint") == -1);
  CHECK(model.findLink("nope") == -1);
  CHECK(model.totalMass() == doctest::Approx(10.6));
  CHECK(std::isinf(model.upperLimits()[model.qIndex("roll")]));
  CHECK_THROWS_WITH_AS(model.qIndex("side_joint"), doctest::Contains("(mimic)"), InvalidArgument);
  CHECK_THROWS_WITH_AS(model.linkIndex("elbow"), doctest::Contains("no link named 'elbow'"), InvalidArgument);
  // Joints are topologically ordered: each joint's parent link was reached by an earlier joint.
  std::vector<bool> reached(model.links().size(), false);
  reached[0] = true;
  for (const auto& joint : model.joints()) {
    CHECK(reached[joint.parent_link]);
    reached[joint.child_link] = true;
  }
}

TEST_CASE("forward kinematics equals hand-computed poses") {
  const auto model = makeTestTree<double>();
  RobotData<double> data(model);
  const double yaw = 0.4, pitch = -0.7, slide = 0.03, roll = 1.1;
  Eigen::Vector4d q;
  q[model.qIndex("yaw")] = yaw;
  q[model.qIndex("pitch")] = pitch;
  q[model.qIndex("slide")] = slide;
  q[model.qIndex("roll")] = roll;
  forwardKinematics(model, data, q);

  // Composed by hand, link by link.
  const Eigen::Matrix3d R_WT = rot(yaw, Eigen::Vector3d::UnitZ());
  const Eigen::Vector3d p_WT(0, 0, 0.1);
  const Eigen::Matrix3d R_WU = R_WT * rot(0.3, Eigen::Vector3d::UnitX()) * rot(pitch, Eigen::Vector3d::UnitY());
  const Eigen::Vector3d p_WU = p_WT + R_WT * Eigen::Vector3d(0, 0.15, 0.3);
  const Eigen::Vector3d p_WL = p_WU + R_WU * Eigen::Vector3d(0.2 + slide, 0, 0);
  const Eigen::Matrix3d R_WH = R_WU * rot(roll, Eigen::Vector3d(1, 1, 0));
  const Eigen::Vector3d p_WH = p_WL + R_WU * Eigen::Vector3d(0.15, 0, 0);
  const Eigen::Vector3d p_WHead = p_WT + R_WT * Eigen::Vector3d(0, 0, 0.4);
  const Eigen::Matrix3d R_WS = R_WT * rot(2.0 * yaw + 0.1, Eigen::Vector3d::UnitY());

  const auto pose = [&](const char* link) { return data.X_WL[model.linkIndex(link)]; };
  CHECK((pose("torso").translation() - p_WT).norm() < 1e-14);
  CHECK((pose("torso").linear() - R_WT).norm() < 1e-14);
  CHECK((pose("upper").linear() - R_WU).norm() < 1e-14);
  CHECK((pose("lower").translation() - p_WL).norm() < 1e-14);
  CHECK((pose("hand").translation() - p_WH).norm() < 1e-14);
  CHECK((pose("hand").linear() - R_WH).norm() < 1e-14);
  CHECK((pose("head").translation() - p_WHead).norm() < 1e-14);
  CHECK((pose("side").linear() - R_WS).norm() < 1e-14);
  CHECK(data.joint_values[model.jointIndex("side_joint")] == doctest::Approx(2.0 * yaw + 0.1));

  // Moving the base moves everything rigidly.
  data.X_WB = Eigen::Translation3d(1, 2, 3) * Eigen::AngleAxisd(0.5, Eigen::Vector3d::UnitZ());
  forwardKinematics(model, data, q);
  CHECK((pose("hand").translation() - data.X_WB * p_WH).norm() < 1e-14);
}

TEST_CASE_TEMPLATE("point and centre-of-mass Jacobians match central finite differences", Scalar, double, float) {
  const auto model = makeTestTree<Scalar>();
  RobotData<Scalar> data(model);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  const double tolerance = std::is_same_v<Scalar, double> ? 1e-6 : 2e-2;
  const int count = test::sweepCount(std::is_same_v<Scalar, double> ? 500 : 50);
  for (int trial = 0; trial < count; ++trial) {
    VectorX<double> q(model.nq());
    for (int i = 0; i < model.nq(); ++i) {
      const double lo = std::isfinite(model.lowerLimits()[i]) ? double(model.lowerLimits()[i]) : -3.0;
      const double hi = std::isfinite(model.upperLimits()[i]) ? double(model.upperLimits()[i]) : 3.0;
      q[i] = lo + (hi - lo) * 0.5 * (unit(rng) + 1.0);
    }
    const int link = 1 + static_cast<int>(rng() % (model.links().size() - 1));
    const Vector3<Scalar> p_LP(Scalar(unit(rng) * 0.1), Scalar(unit(rng) * 0.1), Scalar(unit(rng) * 0.1));

    Matrix3X<Scalar> J(3, model.nq());
    forwardKinematics(model, data, q.cast<Scalar>());
    pointJacobian(model, data, link, p_LP, J);
    const Matrix3X<Scalar> J_com = centerOfMassJacobian(model, data);

    // Finite differences in double on a double model for the reference.
    const auto model_d = makeTestTree<double>();
    RobotData<double> data_d(model_d);
    const double h = 1e-6;
    Eigen::Matrix3Xd J_fd(3, model.nq()), J_com_fd(3, model.nq());
    for (int i = 0; i < model.nq(); ++i) {
      VectorX<double> qp = q, qm = q;
      qp[i] += h;
      qm[i] -= h;
      forwardKinematics(model_d, data_d, qp);
      const Eigen::Vector3d pp = data_d.X_WL[link] * p_LP.template cast<double>();
      const Eigen::Vector3d cp = centerOfMass(model_d, data_d);
      forwardKinematics(model_d, data_d, qm);
      const Eigen::Vector3d pm = data_d.X_WL[link] * p_LP.template cast<double>();
      const Eigen::Vector3d cm = centerOfMass(model_d, data_d);
      J_fd.col(i) = (pp - pm) / (2 * h);
      J_com_fd.col(i) = (cp - cm) / (2 * h);
    }
    const double scale = std::max(1.0, J_fd.norm());
    CHECK((J.template cast<double>() - J_fd).norm() / scale < tolerance);
    // Angular Jacobian: column i is the axis of (R(q + h e_i) R(q - h e_i)^T) / (2 h).
    Matrix3X<Scalar> J_w(3, model.nq());
    angularJacobian(model, data, link, J_w);
    Eigen::Matrix3Xd J_w_fd(3, model.nq());
    for (int i = 0; i < model.nq(); ++i) {
      VectorX<double> qp = q, qm = q;
      qp[i] += h;
      qm[i] -= h;
      forwardKinematics(model_d, data_d, qp);
      const Eigen::Matrix3d Rp = data_d.X_WL[link].linear();
      forwardKinematics(model_d, data_d, qm);
      const Eigen::Matrix3d Rm = data_d.X_WL[link].linear();
      const Eigen::AngleAxisd turn(Rp * Rm.transpose());
      J_w_fd.col(i) = turn.angle() * turn.axis() / (2 * h);
    }
    CHECK((J_w.template cast<double>() - J_w_fd).norm() / std::max(1.0, J_w_fd.norm()) < tolerance);
    CHECK((J_com.template cast<double>() - J_com_fd).norm() / std::max(1.0, J_com_fd.norm()) < tolerance);
  }
}

TEST_CASE("centre of mass is the mass-weighted mean of link centres") {
  const auto model = makeTestTree<double>();
  RobotData<double> data(model);
  const Eigen::Vector4d q(0.2, -0.4, 0.01, 0.9);
  forwardKinematics(model, data, q);
  Eigen::Vector3d sum = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < model.links().size(); ++i) {
    sum += model.links()[i].inertial.mass * (data.X_WL[i] * model.links()[i].inertial.p_LCm);
  }
  CHECK((centerOfMass(model, data) - sum / 10.6).norm() < 1e-14);
}

TEST_CASE("standard and modified DH tables of the same arm agree") {
  // A 3-link arm written in both conventions (Craig's "modified" parameters shift a, alpha
  // one row down); the frames of the moving joints must coincide. The standard chain's frame i
  // equals the modified chain's frame i+1 moved by the row's (a_i, alpha_i).
  std::vector<DhRow<double>> standard(3), modified(3);
  const double a[3] = {0.1, 0.25, 0.2}, alpha[3] = {M_PI / 2, 0.0, -M_PI / 2}, d[3] = {0.3, 0.0, 0.05};
  for (int i = 0; i < 3; ++i) {
    standard[i].joint_name = modified[i].joint_name = "j" + std::to_string(i + 1);
    standard[i].limits = modified[i].limits = {-3.0, 3.0};
    standard[i].a = a[i];
    standard[i].alpha = alpha[i];
    standard[i].d = modified[i].d = d[i];
    modified[i].a = i == 0 ? 0.0 : a[i - 1];
    modified[i].alpha = i == 0 ? 0.0 : alpha[i - 1];
  }
  const auto std_model = robotFromDh("std", standard, DhConvention::kStandard);
  const auto mod_model = robotFromDh("mod", modified, DhConvention::kModified);
  RobotData<double> std_data(std_model), mod_data(mod_model);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> angle(-3.0, 3.0);
  for (int trial = 0; trial < 100; ++trial) {
    const Eigen::Vector3d q(angle(rng), angle(rng), angle(rng));
    forwardKinematics(std_model, std_data, q);
    forwardKinematics(mod_model, mod_data, q);
    for (int i = 1; i <= 3; ++i) {
      // Standard frame i = modified frame i followed by Tx(a_i) Rx(alpha_i).
      const Eigen::Isometry3d expected = mod_data.X_WL[mod_model.linkIndex("link" + std::to_string(i))] *
                                         Eigen::Translation3d(a[i - 1], 0, 0) *
                                         Eigen::AngleAxisd(alpha[i - 1], Eigen::Vector3d::UnitX());
      const Eigen::Isometry3d& actual = std_data.X_WL[std_model.linkIndex("link" + std::to_string(i))];
      CHECK((expected.matrix() - actual.matrix()).norm() < 1e-12);
    }
  }
  // A textbook two-link planar arm: tip at (l1 c1 + l2 c12, l1 s1 + l2 s12).
  std::vector<DhRow<double>> planar(2);
  planar[0] = {"shoulder", 0.4, 0.0, 0.0, 0.0, JointType::kRevolute, {-3, 3}};
  planar[1] = {"elbow", 0.3, 0.0, 0.0, 0.0, JointType::kRevolute, {-3, 3}};
  const auto arm = robotFromDh("planar", planar, DhConvention::kStandard);
  RobotData<double> arm_data(arm);
  const Eigen::Vector2d q(0.5, -1.2);
  forwardKinematics(arm, arm_data, q);
  const Eigen::Vector3d tip(0.4 * std::cos(0.5) + 0.3 * std::cos(-0.7), 0.4 * std::sin(0.5) + 0.3 * std::sin(-0.7), 0);
  CHECK((arm_data.X_WL[arm.linkIndex("link2")].translation() - tip).norm() < 1e-14);
}

TEST_CASE("clamping to limits") {
  const auto model = makeTestTree<double>();
  Eigen::Vector4d q(5.0, -5.0, 0.0, 100.0);
  JointFlags clamped(model.nq());
  CHECK(clampToLimits(model, q, &clamped) == 2);
  CHECK(q[model.qIndex("yaw")] == 2.0);
  CHECK(q[model.qIndex("pitch")] == -2.0);
  CHECK(q[model.qIndex("roll")] == 100.0);  // continuous: unbounded
  CHECK(clamped[model.qIndex("yaw")]);
  CHECK_FALSE(clamped[model.qIndex("slide")]);
  q[model.qIndex("slide")] = std::numeric_limits<double>::quiet_NaN();
  q[model.qIndex("roll")] = std::numeric_limits<double>::infinity();
  CHECK(clampToLimits(model, q) == 2);
  CHECK(q.allFinite());
  CHECK(withinLimits(model, q));
}

TEST_CASE("malformed trees throw naming the joint and values") {
  using V = Vector3<double>;
  const auto base = [] {
    RobotModelBuilder<double> b("bad");
    b.addLink("a").addLink("b").addLink("c");
    return b;
  };
  SUBCASE("unknown parent") {
    auto b = base();
    b.addJoint(revolute<double>("j1", "a", "b", V::Zero(), V::UnitZ()));
    b.addJoint(revolute<double>("j2", "ghost", "c", V::Zero(), V::UnitZ()));
    CHECK_THROWS_WITH_AS(b.build(), doctest::Contains("joint 'j2' names unknown parent link 'ghost'"), InvalidArgument);
  }
  SUBCASE("cycle") {
    auto b = base();
    b.addLink("d");
    b.addJoint(revolute<double>("root_joint", "a", "d", V::Zero(), V::UnitZ()));
    b.addJoint(revolute<double>("j1", "b", "c", V::Zero(), V::UnitZ()));
    b.addJoint(revolute<double>("j2", "c", "b", V::Zero(), V::UnitZ()));
    CHECK_THROWS_WITH_AS(b.build(), doctest::Contains("cycle"), InvalidArgument);
  }
  SUBCASE("lower limit above upper") {
    auto b = base();
    b.addJoint(revolute<double>("j1", "a", "b", V::Zero(), V::UnitZ()));
    b.addJoint(revolute<double>("elbow", "b", "c", V::Zero(), V::UnitZ(), 0.5, -0.5));
    CHECK_THROWS_WITH_AS(b.build(), doctest::Contains("joint 'elbow' has lower limit above upper limit (got lower 0.5 > upper -0.5)"),
                         InvalidArgument);
  }
  SUBCASE("two roots") {
    auto b = base();
    b.addJoint(revolute<double>("j1", "a", "b", V::Zero(), V::UnitZ()));
    CHECK_THROWS_WITH_AS(b.build(), doctest::Contains("more than one root"), InvalidArgument);
  }
  SUBCASE("duplicate joint name") {
    auto b = base();
    b.addJoint(revolute<double>("j1", "a", "b", V::Zero(), V::UnitZ()));
    b.addJoint(revolute<double>("j1", "b", "c", V::Zero(), V::UnitZ()));
    CHECK_THROWS_WITH_AS(b.build(), doctest::Contains("joint name 'j1' is used twice"), InvalidArgument);
  }
  SUBCASE("zero axis") {
    auto b = base();
    b.addJoint(revolute<double>("j1", "a", "b", V::Zero(), V::Zero()));
    b.addJoint(revolute<double>("j2", "b", "c", V::Zero(), V::UnitZ()));
    CHECK_THROWS_WITH_AS(b.build(), doctest::Contains("joint 'j1' has a zero or non-finite axis"), InvalidArgument);
  }
  SUBCASE("mimic of unknown joint") {
    auto b = base();
    b.addJoint(revolute<double>("j1", "a", "b", V::Zero(), V::UnitZ()));
    auto j2 = revolute<double>("j2", "b", "c", V::Zero(), V::UnitZ());
    j2.mimic = MimicSpec{"j9", 1.0, 0.0};
    b.addJoint(j2);
    CHECK_THROWS_WITH_AS(b.build(), doctest::Contains("mimic joint 'j2' follows unknown joint 'j9'"), InvalidArgument);
  }
  SUBCASE("malformed DH rows") {
    std::vector<DhRow<double>> rows(2);
    rows[0] = {"j1", 0.1, 0.0, 0.0, 0.0, JointType::kRevolute, {-1, 1}};
    rows[1] = {"j2", 0.1, 0.0, 0.0, 0.0, JointType::kRevolute, {1.5, -1.5}};
    CHECK_THROWS_WITH_AS(robotFromDh("arm", rows, DhConvention::kStandard),
                         doctest::Contains("DH row 2 (joint 'j2') has lower limit above upper limit (got lower 1.5 > upper -1.5)"),
                         InvalidArgument);
    rows[1] = {"j2", std::nan(""), 0.0, 0.0, 0.0, JointType::kRevolute, {-1, 1}};
    CHECK_THROWS_WITH_AS(robotFromDh("arm", rows, DhConvention::kStandard),
                         doctest::Contains("DH row 2 (joint 'j2') has a non-finite parameter"), InvalidArgument);
    rows[1] = {"j2", 0.1, 0.0, 0.0, 0.0, JointType::kFixed, {-1, 1}};
    CHECK_THROWS_WITH_AS(robotFromDh("arm", rows, DhConvention::kStandard), doctest::Contains("must be revolute"),
                         InvalidArgument);
  }
}

TEST_CASE("per-frame kinematics allocates nothing") {
  const auto model = makeTestTree<double>();
  RobotData<double> data(model);
  Eigen::Vector4d q(0.1, 0.2, 0.03, 0.4);
  JointFlags clamped(model.nq());
  Eigen::Matrix3Xd J(3, model.nq());
  test::NoAllocationScope scope;
  forwardKinematics(model, data, q);
  pointJacobian(model, data, 4, Eigen::Vector3d(0.01, 0, 0), J);
  (void)centerOfMass(model, data);
  (void)centerOfMassJacobian(model, data);
  (void)clampToLimits(model, q, &clamped);
  CHECK(scope.allocations() == 0);
}
