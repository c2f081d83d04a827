// NAO's collision model on normal motions: every demo motion but fold-arms, mapped onto NAO with
// GA-LVVJ (the command line's demo) and with the triangle mapping, keeps every checked pair at
// least the default 1 cm margin apart, with the pairs the command line checks
// (cliCollisionModel: default options, always-touching pairs computed from random
// configurations); fold-arms, the deliberate self-collision case, still collides.
#include <doctest/doctest.h>

#include <string>
#include <vector>

// Robots (DH chains) before demo_motions.hpp: its internal::rotZ(double) would otherwise be
// visible where denavit_hartenberg.hpp's template is defined and hijack the call.
#include <retarget/robots/nao.hpp>

#include <retarget/human/demo_motions.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/safety/self_collision.hpp>

#include "safety/safety_test_support.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// The options `retarget eval --metrics collision` uses on NAO (apps/retarget/batch_mapping.cpp).
SelfCollisionModel<double> cliNaoCollision(const RobotModel<double>& nao) {
  SelfCollisionOptions options;
  options.excluded_pairs = alwaysCollidingPairs(nao, options, 1000);
  return SelfCollisionModel<double>(nao, options);
}

struct PairReport {
  TrajectoryClearance clearance;
  std::string worst_pair;  // pair of the smallest distance over the motion
};

PairReport clearanceOf(const SelfCollisionModel<double>& collision, const Eigen::MatrixXd& Q) {
  PairReport out;
  out.clearance = trajectoryClearance(collision, Q);
  SelfCollisionChecker<double> checker(collision);
  double best = std::numeric_limits<double>::infinity();
  for (Eigen::Index k = 0; k < Q.rows(); ++k) {
    checker.update(Q.row(k).transpose());
    for (std::size_t p = 0; p < collision.pairs().size(); ++p) {
      if (checker.result(p).distance < best) {
        best = checker.result(p).distance;
        out.worst_pair = collision.pairName(p);
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("NAO collision model: the demo motions keep the default 1 cm margin; fold-arms still collides") {
  const auto nao = makeNao<double>();
  const SelfCollisionModel<double> collision = cliNaoCollision(nao);
  REQUIRE(collision.margin() == 0.01);
  GaLvvjMapper<double> ga_lvvj(nao, naoGaLvvjMap());
  TriangleMapper<double> triangle(nao, naoTriangleMap());
  for (const std::string& name : demoMotionNames()) {
    CAPTURE(name);
    const SkeletonMotion<double> motion = demoMotion(name);
    for (const std::string method : {"ga-lvvj", "triangle"}) {
      CAPTURE(method);
      const MappedMotion<double> mapped = method == "ga-lvvj" ? mapMotion(ga_lvvj, motion) : mapMotion(triangle, motion);
      const PairReport r = clearanceOf(collision, mapped.q);
      MESSAGE("NAO / " << name << " / " << method << ": " << mapped.q.rows() << " frames, margin frames "
                       << r.clearance.margin_frames << ", collision frames " << r.clearance.collision_frames
                       << ", min clearance " << r.clearance.min << " m (" << r.worst_pair << ")");
      if (name == "fold-arms") {
        CHECK(r.clearance.collision_frames > 0);  // forearms through each other and the torso
      } else {
        CHECK(r.clearance.margin_frames == 0);
        CHECK(r.clearance.min >= collision.margin());
      }
    }
  }
}

TEST_CASE("NAO collision model: an upper arm hanging straight down clears the torso by the hand-computed 17.4 mm") {
  // LShoulderPitch = pi/2, everything else 0: the left upper-arm capsule (robots/nao.hpp) runs
  // down from the shoulder (0, 0.098, 0.1); its top end sits 0.03 down the shoulder -> elbow line,
  // at (0, 0.098 + 0.015 * 0.03 / 0.105, 0.07), radius 0.03. The torso capsule's top end is
  // (-0.005, 0, 0.07), radius 0.055. The arm leans out as it goes down (ElbowOffsetY), so its
  // top end is its closest point, level with the torso's top end:
  //   sqrt(0.005^2 + 0.1022857^2) - 0.055 - 0.03 = 0.1024078 - 0.085 = 0.0174078 m.
  const auto nao = makeNao<double>();
  const SelfCollisionModel<double> collision = cliNaoCollision(nao);
  SelfCollisionChecker<double> checker(collision);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(nao.nq());
  q[nao.qIndex("LShoulderPitch")] = kPi<double> / 2;
  checker.update(q);
  bool found = false;
  for (std::size_t k = 0; k < collision.pairs().size(); ++k) {
    if (collision.pairName(k) != "torso / l_upper_arm") continue;
    found = true;
    const double y = 0.098 + 0.015 * 0.03 / 0.105;
    const double expected = std::sqrt(0.005 * 0.005 + y * y) - 0.085;
    CHECK(checker.result(k).distance == doctest::Approx(expected).epsilon(1e-9));
    CHECK(checker.result(k).distance > collision.margin());
  }
  CHECK(found);  // the pair is checked (not excluded as always touching)
}
