// The optimised forward kinematics (issue 30) against the former code path, kept as
// internal::forwardKinematicsReference: seeded random trees with every joint type, arbitrary
// (non principal) and principal axes of either sign, rotated joint origins, child offsets
// (X_JC), mimic joints and reordered configurations, on random configurations; the vectorised
// cos/sin against std::cos/std::sin; non-finite joint values; trees with no moving joint.
// (tests/robots/forward_kinematics_builtin_test.cpp runs the same comparison on every built-in
// robot.)
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <retarget/kinematics/denavit_hartenberg.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>

#include "support/allocation.hpp"
#include "support/pose_difference.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using retarget::test::worstPoseDifference;

namespace {

// A random rotation (uniform enough for a test: a normalised random quaternion).
template <typename Rng>
Eigen::Matrix3d randomRotation(Rng& rng) {
  std::normal_distribution<double> g(0.0, 1.0);
  Eigen::Quaterniond quaternion(g(rng), g(rng), g(rng), g(rng));
  quaternion.normalize();
  return quaternion.toRotationMatrix();
}

// A random tree of `links` links: each joint hangs from a random earlier link; types revolute,
// continuous, prismatic and fixed; axes principal (+-x, +-y, +-z) or arbitrary; joint origins
// with and without rotation; some child offsets X_JC; some mimic joints; sometimes a shuffled
// configuration order.
template <typename Scalar, typename Rng>
RobotModel<Scalar> randomTree(int links, Rng& rng) {
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  std::uniform_int_distribution<int> percent(0, 99);
  RobotModelBuilder<Scalar> builder("random_tree");
  for (int i = 0; i < links; ++i) builder.addLink("l" + std::to_string(i), Scalar(0.5));
  std::vector<std::string> independent;
  for (int i = 1; i < links; ++i) {
    JointSpec<double> joint;
    joint.name = "j" + std::to_string(i);
    joint.parent_link = "l" + std::to_string(std::uniform_int_distribution<int>(0, i - 1)(rng));
    joint.child_link = "l" + std::to_string(i);
    const int kind = percent(rng);
    joint.type = kind < 40 ? JointType::kRevolute
               : kind < 60 ? JointType::kContinuous
               : kind < 80 ? JointType::kPrismatic
                           : JointType::kFixed;
    joint.X_PJ.translation() = Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) * 0.3;
    if (percent(rng) < 50) joint.X_PJ.linear() = randomRotation(rng);
    if (percent(rng) < 50) {
      joint.axis = Eigen::Vector3d::Zero();
      joint.axis[percent(rng) % 3] = percent(rng) < 50 ? 1.0 : -1.0;
    } else {
      joint.axis = Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) * 2.0;  // normalised by the builder
      if (joint.axis.norm() < 0.1) joint.axis = Eigen::Vector3d(0.3, -0.4, 0.5);
    }
    if (percent(rng) < 20) {
      joint.X_JC.translation() = Eigen::Vector3d(unit(rng), unit(rng), unit(rng)) * 0.2;
      if (percent(rng) < 70) joint.X_JC.linear() = randomRotation(rng);
    }
    joint.limits.lower = -2.5;
    joint.limits.upper = 2.5;
    if (joint.type != JointType::kFixed && !independent.empty() && percent(rng) < 15) {
      joint.mimic = MimicSpec{independent[static_cast<std::size_t>(percent(rng)) % independent.size()],
                              unit(rng) * 2.0, unit(rng)};
    } else if (joint.type != JointType::kFixed) {
      independent.push_back(joint.name);
    }
    JointSpec<Scalar> spec;
    spec.name = joint.name;
    spec.type = joint.type;
    spec.parent_link = joint.parent_link;
    spec.child_link = joint.child_link;
    spec.X_PJ = joint.X_PJ.cast<Scalar>();
    spec.axis = joint.axis.cast<Scalar>();
    spec.X_JC = joint.X_JC.cast<Scalar>();
    spec.limits = {Scalar(joint.limits.lower), Scalar(joint.limits.upper)};
    spec.mimic = joint.mimic;
    builder.addJoint(spec);
  }
  if (percent(rng) < 30) {
    std::shuffle(independent.begin(), independent.end(), rng);
    builder.setConfigurationOrder(independent);
  }
  return builder.build();
}


template <typename Rng>
VectorX<double> randomQ(int nq, double range, Rng& rng) {
  VectorX<double> q(nq);
  std::uniform_real_distribution<double> u(-range, range);
  for (int i = 0; i < nq; ++i) q[i] = u(rng);
  return q;
}

}  // namespace

TEST_CASE("fast cos/sin: within 1e-15 of std::cos / std::sin for every size and range") {
  std::mt19937 rng(30);
  const int count = test::sweepCount(400);
  double worst = 0;
  for (int trial = 0; trial < count; ++trial) {
    // Sizes 0..67 cover the vectorised loop, its remainder and the empty call.
    const std::size_t n = static_cast<std::size_t>(trial % 68);
    const double range = trial % 4 == 0 ? 1100.0 : trial % 4 == 1 ? 20.0 : trial % 4 == 2 ? 3.5 : 1e-3;
    std::vector<double> x(n), c(n, 7.0), s(n, 7.0);
    std::uniform_real_distribution<double> u(-range, range);
    for (double& v : x) v = u(rng);
    CHECK(internal::sinCosArray(x.data(), c.data(), s.data(), n));
    for (std::size_t i = 0; i < n; ++i) {
      worst = std::max({worst, std::abs(c[i] - std::cos(x[i])), std::abs(s[i] - std::sin(x[i]))});
    }
  }
  CHECK(worst < 1e-15);
  MESSAGE("worst |difference| to std::cos/std::sin: " << worst);

  // Quadrant boundaries, both sides of the range limit (1024 rad), signed zeros, multiples of
  // pi/2 up to the limit.
  std::vector<double> x = {0.0, -0.0, 1e-300, -1e-300, 1023.999999, 1024.0, -1024.0, 1024.000001, -1100.0};
  for (int k = -652; k <= 652; k += 7) {
    const double q = k * (kPi<double> / 2);
    for (double d : {-1e-9, 0.0, 1e-9, kPi<double> / 4, -kPi<double> / 4}) x.push_back(q + d);
  }
  std::vector<double> c(x.size()), s(x.size());
  CHECK(internal::sinCosArray(x.data(), c.data(), s.data(), x.size()));
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(x[i]);
    CHECK(std::abs(c[i] - std::cos(x[i])) < 1e-15);
    CHECK(std::abs(s[i] - std::sin(x[i])) < 1e-15);
  }
  CHECK(c[0] == 1.0);
  CHECK(s[0] == 0.0);

  // Beyond the range: std::cos/std::sin exactly; non-finite angles give NaN and `false`.
  std::vector<double> far = {1e6, -3e10, 1e300, 0.5};
  std::vector<double> cf(far.size()), sf(far.size());
  CHECK(internal::sinCosArray(far.data(), cf.data(), sf.data(), far.size()));
  for (std::size_t i = 0; i < far.size(); ++i) {
    CHECK(std::abs(cf[i] - std::cos(far[i])) < 1e-15);
    CHECK(std::abs(sf[i] - std::sin(far[i])) < 1e-15);
  }
  CHECK(cf[0] == std::cos(1e6));
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> bad = {0.3, std::nan(""), inf, -inf, 0.2};
  std::vector<double> cb(bad.size()), sb(bad.size());
  CHECK_FALSE(internal::sinCosArray(bad.data(), cb.data(), sb.data(), bad.size()));
  for (std::size_t i = 1; i <= 3; ++i) {
    CHECK(std::isnan(cb[i]));
    CHECK(std::isnan(sb[i]));
  }
  CHECK(std::abs(cb[4] - std::cos(0.2)) < 1e-15);

  // float: evaluated in double, so within a float rounding of std::cos / std::sin.
  std::vector<float> xf = {0.0f, 0.5f, -2.0f, 3.0f, 100.0f, -1000.0f, 2000.0f};
  std::vector<float> cff(xf.size()), sff(xf.size());
  CHECK(internal::sinCos(xf.data(), cff.data(), sff.data(), xf.size()));
  for (std::size_t i = 0; i < xf.size(); ++i) {
    CHECK(std::abs(cff[i] - static_cast<float>(std::cos(double(xf[i])))) <= 6e-8f);
    CHECK(std::abs(sff[i] - static_cast<float>(std::sin(double(xf[i])))) <= 6e-8f);
  }
}

TEST_CASE("forward kinematics equals the reference path on random trees (arbitrary axes, prismatic, mimic, X_JC)") {
  std::mt19937 rng(3030);
  const int trees = test::sweepCount(300);
  const int configurations = 12;
  double worst = 0;
  int compared = 0;
  int general = 0, turns = 0;
  for (int tree = 0; tree < trees; ++tree) {
    const int links = 2 + tree % 40;
    const RobotModel<double> model = randomTree<double>(links, rng);
    for (const auto& step : model.fkProgram().steps) {
      general += step.op == internal::FkOp::kGeneral ? 1 : 0;
      turns += step.op == internal::FkOp::kTurnX || step.op == internal::FkOp::kTurnY ||
                       step.op == internal::FkOp::kTurnZ
                   ? 1
                   : 0;
    }
    RobotData<double> data(model), reference(model);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int n = 0; n < configurations; ++n) {
      // Mostly moderate values; some large ones (continuous joints, the cos/sin fallback).
      const double range = n % 6 == 5 ? 3000.0 : n % 3 == 0 ? 40.0 : 3.5;
      const VectorX<double> q = randomQ(model.nq(), range, rng);
      if (n % 2 == 1) {
        data.X_WB = Eigen::Translation3d(unit(rng), unit(rng), unit(rng)) * Eigen::Isometry3d(randomRotation(rng));
        reference.X_WB = data.X_WB;
      }
      forwardKinematics(model, data, q);
      internal::forwardKinematicsReference(model, reference, q);
      CAPTURE(tree);
      CAPTURE(n);
      const double difference = worstPoseDifference(data, reference);
      REQUIRE(difference < 1e-12);  // also false for NaN
      worst = std::max(worst, difference);
      CHECK(data.joint_values == reference.joint_values);  // the same formula: bit-identical
      for (Eigen::Index k = 0; k < data.joint_values.size(); ++k) {
        CHECK(std::abs(data.joint_cos[k] - std::cos(data.joint_values[k])) < 1e-15);
        CHECK(std::abs(data.joint_sin[k] - std::sin(data.joint_values[k])) < 1e-15);
      }
      // Row 3 stays exactly 0 0 0 1 below the root.
      for (std::size_t i = 1; i < data.X_WL.size(); ++i) {
        CHECK(data.X_WL[i].matrix().row(3) == Eigen::RowVector4d(0, 0, 0, 1));
      }
      ++compared;
    }
  }
  CHECK(general > 0);
  CHECK(turns > 0);
  MESSAGE(compared << " configurations of " << trees << " random trees; worst pose difference " << worst
                   << " (relative to max(1, pose entries))");
}

TEST_CASE_TEMPLATE("forward kinematics equals the reference path in float", Scalar, float, double) {
  std::mt19937 rng(31);
  const int trees = test::sweepCount(60);
  double worst = 0;
  for (int tree = 0; tree < trees; ++tree) {
    const RobotModel<Scalar> model = randomTree<Scalar>(2 + tree % 25, rng);
    RobotData<Scalar> data(model), reference(model);
    for (int n = 0; n < 8; ++n) {
      const VectorX<Scalar> q = randomQ(model.nq(), 3.5, rng).template cast<Scalar>();
      forwardKinematics(model, data, q);
      internal::forwardKinematicsReference(model, reference, q);
      const double difference = worstPoseDifference(data, reference);
      REQUIRE(difference < (std::is_same_v<Scalar, float> ? 2e-5 : 1e-12));
      worst = std::max(worst, difference);
    }
  }
  MESSAGE("worst pose difference " << worst);
}

TEST_CASE("forward kinematics: a principal axis is recognised exactly, with its sign") {
  RobotModelBuilder<double> b("axes");
  for (const char* link : {"base", "a", "b", "c", "d", "e"}) b.addLink(link);
  const auto add = [&](const char* name, const char* parent, const char* child, const Eigen::Vector3d& axis,
                       JointType type = JointType::kRevolute) {
    JointSpec<double> joint;
    joint.name = name;
    joint.type = type;
    joint.parent_link = parent;
    joint.child_link = child;
    joint.axis = axis;
    joint.limits = {-3.0, 3.0};
    b.addJoint(joint);
  };
  add("minus_z", "base", "a", Eigen::Vector3d(0, 0, -2));        // normalised to exactly -z
  add("almost_y", "a", "b", Eigen::Vector3d(1e-20, 1, 0));       // not exactly principal
  add("plus_x", "b", "c", Eigen::Vector3d(5, 0, 0));
  add("slide", "c", "d", Eigen::Vector3d(0, -1, 0), JointType::kPrismatic);
  add("rigid", "d", "e", Eigen::Vector3d(0, 0, 1), JointType::kFixed);
  const auto model = b.build();
  const auto& steps = model.fkProgram().steps;
  const auto op = [&](const char* joint) { return steps[static_cast<std::size_t>(model.jointIndex(joint))]; };
  CHECK(op("minus_z").op == internal::FkOp::kTurnZ);
  CHECK(op("minus_z").axis_sign == -1.0);
  CHECK(op("almost_y").op == internal::FkOp::kGeneral);
  CHECK(op("almost_y").motion == internal::FkMotion::kRotateGeneral);
  CHECK(op("plus_x").op == internal::FkOp::kTurnX);
  CHECK(op("plus_x").axis_sign == 1.0);
  CHECK(op("slide").op == internal::FkOp::kGeneral);
  CHECK(op("slide").motion == internal::FkMotion::kTranslate);
  CHECK(op("rigid").op == internal::FkOp::kShift);

  RobotData<double> data(model), reference(model);
  std::mt19937 rng(2);
  for (int n = 0; n < 200; ++n) {
    const VectorX<double> q = randomQ(model.nq(), 3.0, rng);
    forwardKinematics(model, data, q);
    internal::forwardKinematicsReference(model, reference, q);
    CHECK(worstPoseDifference(data, reference) < 1e-14);
  }
}

TEST_CASE("forward kinematics: non-finite joint values spoil only the links below, as before") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::mt19937 rng(4);
  for (int tree = 0; tree < 40; ++tree) {
    const RobotModel<double> model = randomTree<double>(3 + tree % 20, rng);
    if (model.nq() == 0) continue;
    RobotData<double> data(model), reference(model);
    VectorX<double> q = randomQ(model.nq(), 3.0, rng);
    q[tree % model.nq()] = tree % 3 == 0 ? std::numeric_limits<double>::infinity() : nan;
    forwardKinematics(model, data, q);
    internal::forwardKinematicsReference(model, reference, q);
    for (std::size_t i = 0; i < data.X_WL.size(); ++i) {
      CAPTURE(i);
      const Eigen::Matrix4d& a = data.X_WL[i].matrix();
      const Eigen::Matrix4d& b = reference.X_WL[i].matrix();
      for (int k = 0; k < 16; ++k) {  // the reference path itself ran: bit-identical
        CHECK((a(k) == b(k) || (std::isnan(a(k)) && std::isnan(b(k)))));
      }
      CHECK(a.row(3) == Eigen::RowVector4d(0, 0, 0, 1));
    }
    // The next finite configuration is computed from scratch.
    const VectorX<double> finite_q = randomQ(model.nq(), 3.0, rng);
    forwardKinematics(model, data, finite_q);
    internal::forwardKinematicsReference(model, reference, finite_q);
    CHECK(worstPoseDifference(data, reference) < 1e-12);
  }
}

TEST_CASE("forward kinematics: trees without moving joints, a lone root, a DH chain") {
  SUBCASE("a lone root link") {
    RobotModelBuilder<double> b("lone");
    b.addLink("base");
    const auto model = b.build();
    RobotData<double> data(model);
    data.X_WB = Eigen::Translation3d(1, 2, 3) * Eigen::AngleAxisd(0.4, Eigen::Vector3d::UnitX());
    forwardKinematics(model, data, VectorX<double>(0));
    CHECK(data.X_WL[0].matrix() == data.X_WB.matrix());
  }
  SUBCASE("fixed joints only") {
    RobotModelBuilder<double> b("rigid");
    b.addLink("base").addLink("a").addLink("b");
    JointSpec<double> j1;
    j1.name = "j1";
    j1.type = JointType::kFixed;
    j1.parent_link = "base";
    j1.child_link = "a";
    j1.X_PJ.translation() = Eigen::Vector3d(0.1, 0.2, 0.3);
    JointSpec<double> j2 = j1;
    j2.name = "j2";
    j2.parent_link = "a";
    j2.child_link = "b";
    j2.X_PJ.linear() = Eigen::AngleAxisd(0.7, Eigen::Vector3d::UnitY()).toRotationMatrix();
    b.addJoint(j1).addJoint(j2);
    const auto model = b.build();
    RobotData<double> data(model), reference(model);
    data.X_WB = reference.X_WB = Eigen::Translation3d(-1, 0, 2) * Eigen::AngleAxisd(1.0, Eigen::Vector3d::UnitZ());
    forwardKinematics(model, data, VectorX<double>(0));
    internal::forwardKinematicsReference(model, reference, VectorX<double>(0));
    CHECK(worstPoseDifference(data, reference) < 1e-15);
    CHECK(data.joint_values.isZero());
  }
  SUBCASE("a standard DH arm (every joint has a child offset X_JC)") {
    std::vector<DhRow<double>> rows(4);
    for (int i = 0; i < 4; ++i) {
      rows[static_cast<std::size_t>(i)] = {"j" + std::to_string(i), 0.1 * (i + 1), 0.05 * i, 0.3 * i - 0.4, 0.2,
                                           JointType::kRevolute, {-3.0, 3.0}};
    }
    const auto model = robotFromDh("dh", rows, DhConvention::kStandard);
    RobotData<double> data(model), reference(model);
    std::mt19937 rng(6);
    for (int n = 0; n < 100; ++n) {
      const VectorX<double> q = randomQ(model.nq(), 3.0, rng);
      forwardKinematics(model, data, q);
      internal::forwardKinematicsReference(model, reference, q);
      CHECK(worstPoseDifference(data, reference) < 1e-14);
    }
  }
}

TEST_CASE("forward kinematics on a random tree allocates nothing") {
  std::mt19937 rng(8);
  const RobotModel<double> model = randomTree<double>(30, rng);
  RobotData<double> data(model);
  const VectorX<double> q = randomQ(model.nq(), 3.0, rng);
  VectorX<double> q_bad = q;
  if (q_bad.size() > 0) q_bad[0] = std::numeric_limits<double>::quiet_NaN();
  test::NoAllocationScope scope;
  forwardKinematics(model, data, q);
  forwardKinematics(model, data, q_bad);
  CHECK(scope.allocations() == 0);
}
