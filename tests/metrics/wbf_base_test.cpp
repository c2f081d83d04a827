// The WBF base frame (issue 10, item 6; seed 000 Section 6.1): torso-aligned (default) and
// support-foot-aligned robot skeletons (VirtualSkeleton with WbfBase).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <random>

#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

using namespace retarget;

namespace {

double torsoTilt(const SkeletonFramed& f) {
  const Eigen::Vector3d spine = f.position(HumanJoint::kSpineShoulder) - f.position(HumanJoint::kSpineBase);
  return std::acos(spine.normalized().z());
}

}  // namespace

TEST_CASE("wbf base: one leg lifted, the support leg spread: the support-foot base tilts the torso") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> torso(nao, naoVirtualSkeletonMap());
  VirtualSkeleton<double> foot(nao, naoVirtualSkeletonMap(), WbfBase::kSupportFoot);
  CHECK(torso.base() == WbfBase::kTorso);
  CHECK(std::string(wbfBaseName(WbfBase::kSupportFoot)) == "support-foot");
  Eigen::VectorXd q = nao.neutralConfiguration();
  q[nao.qIndex("RHipRoll")] = -0.2;    // support leg spread outwards, ankle at 0: foot tilted by 0.2 rad
  q[nao.qIndex("LHipPitch")] = -1.2;   // left leg lifted
  q[nao.qIndex("LKneePitch")] = 1.8;
  SkeletonFramed upright, standing;
  REQUIRE(torso.compute(q, upright).ok());
  REQUIRE(foot.compute(q, standing).ok());
  CHECK(foot.supportFoot() == 1);  // the right foot carries the robot
  CHECK(torsoTilt(upright) == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(torsoTilt(standing) == doctest::Approx(0.2).epsilon(1e-9));  // the tilt the leg commands
  // The support foot is flat: its sole point straight ahead of its ankle at the same height.
  const Eigen::Vector3d sole = standing.position(HumanJoint::kFootRight) - standing.position(HumanJoint::kAnkleRight);
  CHECK(sole.z() == doctest::Approx(-0.04511).epsilon(1e-9));
  // The lifted foot is above the support foot.
  CHECK(standing.position(HumanJoint::kAnkleLeft).z() > standing.position(HumanJoint::kAnkleRight).z() + 0.02);

  // A human who leans like that is matched exactly only with the support-foot base.
  FrameSimilarity<double> s_torso, s_foot;
  (void)frameSimilarity(standing, upright, s_torso);
  (void)frameSimilarity(standing, standing, s_foot);
  const auto torso_link = static_cast<std::size_t>(SimilarityLink::kTorso);
  CHECK(s_torso.wbf_links[torso_link] == doctest::Approx(std::cos(0.2)).epsilon(1e-9));
  CHECK(s_foot.wbf_links[torso_link] == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(s_foot.wbf > s_torso.wbf);
  // LLF does not depend on where the robot stands.
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    if (i == torso_link) continue;
    CHECK(s_torso.llf_links[i] == doctest::Approx(s_foot.llf_links[i]).epsilon(1e-9));
  }
}

TEST_CASE("wbf base: on standing poses (feet flat under an upright torso) both bases agree (property)") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> torso(nao, naoVirtualSkeletonMap());
  VirtualSkeleton<double> foot(nao, naoVirtualSkeletonMap(), WbfBase::kSupportFoot);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    // Random arms and head, legs in a symmetric crouch with the ankles keeping the feet flat.
    Eigen::VectorXd q(nao.nq());
    for (int i = 0; i < nao.nq(); ++i) q[i] = nao.lowerLimits()[i] + unit(rng) * (nao.upperLimits()[i] - nao.lowerLimits()[i]);
    const double a = 0.6 * unit(rng);
    for (const char* side : {"L", "R"}) {
      const std::string s(side);
      q[nao.qIndex(s + "HipRoll")] = 0.0;
      q[nao.qIndex(s + "HipPitch")] = -a;
      q[nao.qIndex(s + "KneePitch")] = 2.0 * a;
      q[nao.qIndex(s + "AnklePitch")] = -a;
      q[nao.qIndex(s + "AnkleRoll")] = 0.0;
    }
    q[nao.qIndex("LHipYawPitch")] = 0.0;
    SkeletonFramed human, a_torso, a_foot;
    REQUIRE(torso.compute(q, a_torso).ok());
    REQUIRE(foot.compute(q, a_foot).ok());
    // Any human: both robot skeletons give the same WBF and LLF.
    Eigen::VectorXd q_human = q;
    for (int i = 0; i < nao.nq(); ++i) {
      q_human[i] = nao.lowerLimits()[i] + unit(rng) * (nao.upperLimits()[i] - nao.lowerLimits()[i]);
    }
    REQUIRE(torso.compute(q_human, human).ok());
    FrameSimilarity<double> s_torso, s_foot;
    (void)frameSimilarity(human, a_torso, s_torso);
    (void)frameSimilarity(human, a_foot, s_foot);
    CHECK(s_torso.wbf == doctest::Approx(s_foot.wbf).epsilon(1e-9));
    CHECK(s_torso.llf == doctest::Approx(s_foot.llf).epsilon(1e-9));
    CHECK(torsoTilt(a_foot) == doctest::Approx(0.0).epsilon(1e-7));
  }
}

TEST_CASE("wbf base: the support-foot base needs the map's feet") {
  const auto nao = makeNao<double>();
  VirtualSkeletonMap map = naoVirtualSkeletonMap();
  map.points.erase(std::remove_if(map.points.begin(), map.points.end(),
                                  [](const VirtualPointSpec& p) { return p.joint == HumanJoint::kFootLeft; }),
                   map.points.end());
  CHECK_THROWS_AS(VirtualSkeleton<double>(nao, map, WbfBase::kSupportFoot), InvalidArgument);
  CHECK_NOTHROW(VirtualSkeleton<double>(nao, map, WbfBase::kTorso));
}
