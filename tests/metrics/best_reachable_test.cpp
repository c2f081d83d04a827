// Best reachable similarity (metrics/best_reachable.hpp): never below the achieved value,
// reached by a configuration within the limits, 1 on the robot's own poses, and at least as
// good as an independent dense grid search over each link's free joints.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>

#include <retarget/human/demo_motions.hpp>
#include <retarget/human/torso_frames.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

// WBF and LLF of link i, through the public API only (VirtualSkeleton + frameSimilarity).
std::pair<double, double> linkValues(VirtualSkeleton<double>& skeleton, const SkeletonFramed& human,
                                     const Eigen::VectorXd& q, std::size_t i) {
  SkeletonFramed robot;
  REQUIRE(skeleton.compute(q, robot).ok());
  FrameSimilarity<double> s;
  (void)frameSimilarity(human, robot, s);
  return {s.wbf_valid[i] ? s.wbf_links[i] : -2.0, s.llf_valid[i] ? s.llf_links[i] : -2.0};
}

// The best of a dense grid (cell centres, `points` per free joint) over the free joints of link i,
// every other coordinate at q: the independent reference.
std::pair<double, double> gridBest(VirtualSkeleton<double>& skeleton, const RobotModel<double>& model,
                                   const SkeletonFramed& human, const Eigen::VectorXd& q, const std::vector<int>& free,
                                   std::size_t i, int points) {
  std::pair<double, double> best{-2.0, -2.0};
  long cells = 1;
  for (std::size_t k = 0; k < free.size(); ++k) cells *= points;
  Eigen::VectorXd x = q;
  for (long c = 0; c < cells; ++c) {
    long rest = c;
    for (const int j : free) {
      const long step = rest % points;
      rest /= points;
      x[j] = model.lowerLimits()[j] +
             (model.upperLimits()[j] - model.lowerLimits()[j]) * (static_cast<double>(step) + 0.5) / points;
    }
    const auto v = linkValues(skeleton, human, x, i);
    best.first = std::max(best.first, v.first);
    best.second = std::max(best.second, v.second);
  }
  return best;
}

}  // namespace

TEST_CASE("best reachable: free joints of NAO's links are the limb chains") {
  const auto nao = makeNao<double>();
  BestReachableSimilarity<double> best(nao, naoVirtualSkeletonMap());
  auto names = [&](SimilarityLink link) {
    std::string out;
    for (const int q : best.freeJoints(link)) out += std::string(out.empty() ? "" : " ") + nao.qName(q);
    return out;
  };
  CHECK(names(SimilarityLink::kLeftUpperArm) == "LShoulderPitch LShoulderRoll");
  CHECK(names(SimilarityLink::kRightLowerArm) == "RShoulderPitch RShoulderRoll RElbowYaw RElbowRoll");
  CHECK(names(SimilarityLink::kLeftThigh) == "LHipYawPitch LHipRoll LHipPitch");
  CHECK(names(SimilarityLink::kRightTibia) == "LHipYawPitch RHipRoll RHipPitch RKneePitch");  // RHipYawPitch mimics L
  CHECK(names(SimilarityLink::kHead) == "HeadPitch");  // the yaw is the face tracker's
  CHECK(names(SimilarityLink::kTorso).empty());
  BestReachableOptions bad;
  bad.grid_points = 1;
  CHECK_THROWS_AS(BestReachableSimilarity<double>(nao, naoVirtualSkeletonMap(), bad), InvalidArgument);
}

TEST_CASE("best reachable: the robot's own poses reach 1 and best >= achieved (property)") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  BestReachableSimilarity<double> best(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::VectorXd q(nao.nq());
    for (int i = 0; i < nao.nq(); ++i) {
      q[i] = std::uniform_real_distribution<double>(nao.lowerLimits()[i], nao.upperLimits()[i])(rng);
    }
    SkeletonFramed human;
    REQUIRE(skeleton.compute(q, human).ok());
    // The achieved configuration: a different random one, with the same head yaw (the face
    // tracker's: the head's best searches its pitch only).
    Eigen::VectorXd q_other(nao.nq());
    for (int i = 0; i < nao.nq(); ++i) {
      q_other[i] = std::uniform_real_distribution<double>(nao.lowerLimits()[i], nao.upperLimits()[i])(rng);
    }
    q_other[nao.qIndex("HeadYaw")] = q[nao.qIndex("HeadYaw")];
    FrameBestReachable<double> out;
    (void)best.compute(human, q_other, out);
    for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
      CAPTURE(kSimilarityLinkNames[i]);
      REQUIRE(out.wbf_valid[i]);
      CHECK(out.wbf_best[i] >= out.wbf_achieved[i]);
      CHECK(out.llf_best[i] >= out.llf_achieved[i]);
      CHECK(out.wbf_best[i] <= 1.0);
      // The human is a robot pose: every link is reachable exactly (torso: fixed, always 1).
      CHECK(out.wbf_best[i] > 1.0 - 1e-6);
      CHECK(out.llf_best[i] > 1.0 - 1e-6);
      // The configurations found are within the limits and give the values claimed.
      CHECK(withinLimits(nao, out.wbf_q[i]));
      CHECK(withinLimits(nao, out.llf_q[i]));
      CHECK(linkValues(skeleton, human, out.wbf_q[i], i).first == doctest::Approx(out.wbf_best[i]).epsilon(1e-12));
      CHECK(linkValues(skeleton, human, out.llf_q[i], i).second == doctest::Approx(out.llf_best[i]).epsilon(1e-12));
      // A robot pose is within the robot's reach as a whole: every link, both indices (the
      // limbs need the joint fit to find one configuration for both links).
      CHECK(out.wbf_within_reach[i]);
      CHECK(out.llf_within_reach[i]);
    }
  }
}

TEST_CASE("best reachable: a leaning human trunk puts WBF out of reach, not LLF") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  BestReachableSimilarity<double> best(nao, naoVirtualSkeletonMap());
  Eigen::VectorXd q = nao.neutralConfiguration();
  q[nao.qIndex("LShoulderRoll")] = 0.6;
  q[nao.qIndex("LElbowRoll")] = -0.8;
  q[nao.qIndex("RShoulderRoll")] = -0.6;
  q[nao.qIndex("RElbowRoll")] = 0.8;
  SkeletonFramed upright;
  REQUIRE(skeleton.compute(q, upright).ok());
  upright.head.reset();
  using H = HumanJoint;
  for (const double lean_deg : {5.0, 20.0}) {
    CAPTURE(lean_deg);
    // Everything above the pelvis turns forward about the lateral axis through SpineBase.
    SkeletonFramed leaning = upright;
    const Eigen::Vector3d pivot = upright.position(H::kSpineBase);
    const Eigen::Matrix3d R = Eigen::AngleAxisd(lean_deg * kPi<double> / 180.0, Eigen::Vector3d::UnitY()).toRotationMatrix();
    for (const H j : {H::kSpineMid, H::kSpineShoulder, H::kNeck, H::kHead, H::kShoulderLeft, H::kElbowLeft, H::kWristLeft,
                      H::kHandLeft, H::kShoulderRight, H::kElbowRight, H::kWristRight, H::kHandRight}) {
      leaning.position(j) = pivot + R * (upright.position(j) - pivot);
    }
    FrameBestReachable<double> out;
    (void)best.compute(leaning, q, out);
    for (const SimilarityLink link : {SimilarityLink::kLeftUpperArm, SimilarityLink::kRightLowerArm, SimilarityLink::kHead}) {
      const auto i = static_cast<std::size_t>(link);
      CAPTURE(kSimilarityLinkNames[i]);
      REQUIRE(out.wbf_valid[i]);
      // The arm alone could point along the leaning human's (its own best is high) ...
      CHECK(out.wbf_best[i] > 0.98);
      // ... but the trunk it hangs from cannot lean: within reach only for a small lean.
      CHECK(out.wbf_within_reach[i] == (lean_deg < 11.0));
      // In its own mother frame nothing changed: LLF is within reach either way.
      CHECK(out.llf_within_reach[i]);
    }
    const auto torso = static_cast<std::size_t>(SimilarityLink::kTorso);
    CHECK(out.wbf_best[torso] == doctest::Approx(std::cos(lean_deg * kPi<double> / 180.0)).epsilon(1e-9));
    CHECK(out.wbf_within_reach[torso] == (lean_deg < 11.0));
  }
}

TEST_CASE("best reachable: a link whose parent link the trunk turns away is out of reach with it (WBF)") {
  // Seated NAO skeletons whose pelvis the human tilts (SpineBase -> SpineMid, 0-20 deg in a random
  // direction) and twists (SpineBase off the hip line): the lower torso frames turn against the
  // ground base, which turns some thighs away and leaves some tibias (near the turn's axis) alone. The test recomputes the
  // trunk test of each leg link on its own (base: z up, y the hip line on the ground; root: the
  // side's lower torso frame) and checks the chain: a tibia is within reach for WBF only if its
  // thigh passes the trunk test too, and then the thigh is within reach as well.
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  BestReachableSimilarity<double> best(nao, naoVirtualSkeletonMap());
  using H = HumanJoint;
  using L = SimilarityLink;
  auto base = [](const SkeletonFramed& f) {
    Eigen::Vector3d y = f.position(H::kHipLeft) - f.position(H::kHipRight);
    y.z() = 0;
    y.normalize();
    Eigen::Matrix3d R;
    R.col(0) = y.cross(Eigen::Vector3d::UnitZ());
    R.col(1) = y;
    R.col(2) = Eigen::Vector3d::UnitZ();
    return R;
  };
  // Cosine between the human's link and the same link placed in the robot's root frame as the
  // human's is in theirs (both in their skeleton's base).
  auto trunkCosine = [&](const SkeletonFramed& human, const SkeletonFramed& robot, H a, H b, bool left) {
    const auto h = torsoFrames(human), r = torsoFrames(robot);
    REQUIRE((left ? h.lower_left : h.lower_right));
    REQUIRE((left ? r.lower_left : r.lower_right));
    const Eigen::Matrix3d B_h = base(human), B_r = base(robot);
    const Eigen::Matrix3d R_Bh = B_h.transpose() * *(left ? h.lower_left : h.lower_right);
    const Eigen::Matrix3d R_Br = B_r.transpose() * *(left ? r.lower_left : r.lower_right);
    const Eigen::Vector3d v = (B_h.transpose() * (human.position(b) - human.position(a))).normalized();
    return v.dot(R_Br * (R_Bh.transpose() * v));
  };
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  int decided_by_chain = 0, tibia_within = 0;
  const int n = test::sweepCount(120);
  for (int trial = 0; trial < n; ++trial) {
    Eigen::VectorXd q = nao.neutralConfiguration();
    q[nao.qIndex("LHipPitch")] = -1.2 + 0.2 * u(rng);
    q[nao.qIndex("RHipPitch")] = -1.2 + 0.2 * u(rng);
    q[nao.qIndex("LKneePitch")] = 1.3 + 0.2 * u(rng);
    q[nao.qIndex("RKneePitch")] = 1.3 + 0.2 * u(rng);
    SkeletonFramed robot;
    REQUIRE(skeleton.compute(q, robot).ok());
    SkeletonFramed human = robot;
    human.head.reset();
    const Eigen::Vector3d axis = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    const double angle = (10.0 * (u(rng) + 1.0)) * kPi<double> / 180.0;
    const Eigen::Vector3d pivot = human.position(H::kSpineBase);
    human.position(H::kSpineMid) = pivot + Eigen::AngleAxisd(angle, axis) * (human.position(H::kSpineMid) - pivot);
    // SpineBase off the hip line (forward or back): each side's lower torso frame (SpineBase ->
    // hip) twists about the vertical, which turns a forward thigh and not a hanging tibia.
    human.position(H::kSpineBase) += Eigen::Vector3d(0.035 * u(rng), 0, 0);
    FrameBestReachable<double> out;
    (void)best.compute(human, q, out);
    const double t = best.options().within_reach;
    for (const bool left : {true, false}) {
      const auto thigh = static_cast<std::size_t>(left ? L::kLeftThigh : L::kRightThigh);
      const auto tibia = static_cast<std::size_t>(left ? L::kLeftTibia : L::kRightTibia);
      const double c_thigh = trunkCosine(human, robot, left ? H::kHipLeft : H::kHipRight, left ? H::kKneeLeft : H::kKneeRight, left);
      const double c_tibia = trunkCosine(human, robot, left ? H::kKneeLeft : H::kKneeRight, left ? H::kAnkleLeft : H::kAnkleRight, left);
      CAPTURE(trial);
      CAPTURE(c_thigh);
      CAPTURE(c_tibia);
      if (c_thigh < t - 1e-9) CHECK_FALSE(out.wbf_within_reach[tibia]);
      if (c_tibia < t - 1e-9) CHECK_FALSE(out.wbf_within_reach[tibia]);
      if (out.wbf_within_reach[tibia]) {
        CHECK(out.wbf_within_reach[thigh]);
        ++tibia_within;
      }
      if (c_tibia >= t + 1e-9 && c_thigh < t - 1e-9 && out.wbf_best[tibia] >= t) ++decided_by_chain;
      // LLF has no root: the robot's own legs are within reach there whatever the pelvis does.
      CHECK(out.llf_within_reach[tibia]);
    }
  }
  MESSAGE(decided_by_chain, " tibias reachable on their own but out of reach with their thigh; ", tibia_within,
          " tibias within reach");
  CHECK(decided_by_chain > 0);  // the case the chain decides occurs
  CHECK(tibia_within > 0);      // and tibias do stay within reach where the trunk allows
}

TEST_CASE("best reachable: limbs the joint fit calls out of reach are out of reach of a dense grid too") {
  // Each link of the limb alone can be matched in WBF (the lower arm by turning the shoulder),
  // the two together not (within_reach 0.98): then no grid point over the arm's four joints
  // brings both links to 0.98 either. (In LLF the lower arm is measured in the upper arm's
  // frame, so an ElbowYaw beyond its limits already caps the lower arm's own best.)
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  BestReachableSimilarity<double> best(nao, naoVirtualSkeletonMap());
  // A right arm reaching forward (away from the shoulder singularity, where ShoulderPitch would
  // twist the upper arm), its forearm then turned about the upper arm beyond what ElbowYaw allows.
  using H = HumanJoint;
  int checked = 0;
  for (int trial = 0; trial < 12 && checked < 3; ++trial) {
    Eigen::VectorXd q = nao.neutralConfiguration();
    q[nao.qIndex("RShoulderPitch")] = 0.3 + 0.1 * (trial % 3);
    q[nao.qIndex("RShoulderRoll")] = -0.3;
    q[nao.qIndex("RElbowYaw")] = 1.0;
    q[nao.qIndex("RElbowRoll")] = 1.0 + 0.1 * (trial % 4);
    const double turn_deg = std::array<double, 4>{180.0, 150.0, 160.0, 170.0}[trial % 4];
    SkeletonFramed human;
    REQUIRE(skeleton.compute(q, human).ok());
    human.head.reset();
    const Eigen::Vector3d elbow = human.position(H::kElbowRight);
    const Eigen::Vector3d axis = (elbow - human.position(H::kShoulderRight)).normalized();
    const Eigen::Matrix3d R = Eigen::AngleAxisd(turn_deg * kPi<double> / 180.0, axis).toRotationMatrix();
    for (const H j : {H::kWristRight, H::kHandRight, H::kHandTipRight, H::kThumbRight}) {
      human.position(j) = elbow + R * (human.position(j) - elbow);
    }
    FrameBestReachable<double> out;
    (void)best.compute(human, nao.neutralConfiguration(), out);
    const auto u = static_cast<std::size_t>(SimilarityLink::kRightUpperArm);
    const auto l = static_cast<std::size_t>(SimilarityLink::kRightLowerArm);
    if (!(out.wbf_best[u] >= 0.98 && out.wbf_best[l] >= 0.98) || out.wbf_within_reach[l]) continue;
    CHECK_FALSE(out.wbf_within_reach[u]);
    // Grid over the right arm's free joints (cell centres), WBF of both links.
    const std::vector<int>& free = best.freeJoints(SimilarityLink::kRightLowerArm);
    REQUIRE(free.size() == 4);
    const int points = 15;
    Eigen::VectorXd x = nao.neutralConfiguration();
    double best_min = -2.0;
    for (long c = 0; c < 15L * 15 * 15 * 15; ++c) {
      long rest = c;
      for (const int j : free) {
        const long step = rest % points;
        rest /= points;
        x[j] = nao.lowerLimits()[j] + (nao.upperLimits()[j] - nao.lowerLimits()[j]) * (static_cast<double>(step) + 0.5) / points;
      }
      best_min = std::max(best_min, std::min(linkValues(skeleton, human, x, u).first, linkValues(skeleton, human, x, l).first));
    }
    MESSAGE("trial ", trial, ", forearm turned ", turn_deg, " deg: WBF of each link alone ", out.wbf_best[u], " / ", out.wbf_best[l],
            "; best of both together on a 15^4 grid ", best_min);
    CHECK(best_min < 0.98);
    ++checked;
  }
  CHECK(checked >= 1);
}

TEST_CASE("best reachable: at least as good as a dense grid search over each limb (cross-check)") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  BestReachableSimilarity<double> best(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(11);
  // Demo frames (one per motion, mid-motion) and the same frames with 4 cm of random jitter
  // (poses the robot cannot take exactly), achieved by the GA-LVVJ mapper.
  int compared = 0, beaten_by_grid = 0;
  for (const std::string& name : demoMotionNames()) {
    const SkeletonMotiond motion = demoMotion(name, DemoMotionOptions{10.0, 3.0, 1.75});
    for (const bool jitter : {false, true}) {
      SkeletonFramed human = motion.frames[motion.size() / 2];
      std::uniform_real_distribution<double> d(-0.04, 0.04);
      if (jitter) {
        for (auto& p : human.p_W) p += Eigen::Vector3d(d(rng), d(rng), d(rng));
      }
      Eigen::VectorXd q(nao.nq());
      mapper.reset();
      (void)mapper.map(human, q);
      FrameBestReachable<double> out;
      best.reset();
      (void)best.compute(human, q, out);
      for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
        const auto& free = best.freeJoints(static_cast<SimilarityLink>(i));
        if (free.empty() || !out.wbf_valid[i]) continue;
        const int points = free.size() <= 2 ? 61 : free.size() == 3 ? 21 : 11;  // 3.7k, 9.3k, 14.6k cells
        const auto grid = gridBest(skeleton, nao, human, q, free, i, points);
        CAPTURE(name);
        CAPTURE(jitter);
        CAPTURE(kSimilarityLinkNames[i]);
        CHECK(out.wbf_best[i] >= out.wbf_achieved[i]);
        CHECK(out.llf_best[i] >= out.llf_achieved[i]);
        CHECK(out.wbf_best[i] >= grid.first - 1e-9);
        CHECK(out.llf_best[i] >= grid.second - 1e-9);
        CHECK(linkValues(skeleton, human, out.wbf_q[i], i).first == doctest::Approx(out.wbf_best[i]).epsilon(1e-12));
        CHECK(linkValues(skeleton, human, out.llf_q[i], i).second == doctest::Approx(out.llf_best[i]).epsilon(1e-12));
        beaten_by_grid += (out.wbf_best[i] < grid.first - 1e-9 || out.llf_best[i] < grid.second - 1e-9) ? 1 : 0;
        ++compared;
      }
    }
  }
  MESSAGE("best reachable vs dense grid: ", compared, " link searches, ", beaten_by_grid, " beaten by the grid");
  CHECK(compared > 50);
}

TEST_CASE("best reachable: the motion helper agrees with frameSimilarity's achieved values") {
  const auto nao = makeNao<double>();
  const SkeletonMotiond motion = demoMotion("wave", DemoMotionOptions{10.0, 2.0, 1.75});
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  std::vector<SkeletonFramed> robot(motion.size());
  for (std::size_t k = 0; k < motion.size(); ++k) {
    REQUIRE(skeleton.compute(mapped.q.row(static_cast<Eigen::Index>(k)).transpose(), robot[k]).ok());
  }
  const MotionSimilarity<double> s = motionSimilarity(motion.frames, robot);
  const MotionBestReachable<double> b = motionBestReachable(nao, naoVirtualSkeletonMap(), motion.frames, mapped.q);
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    CAPTURE(kSimilarityLinkNames[i]);
    CHECK(b.wbf_achieved_mean[i] == doctest::Approx(s.wbf_link_mean[i]).epsilon(1e-12));
    CHECK(b.llf_achieved_mean[i] == doctest::Approx(s.llf_link_mean[i]).epsilon(1e-12));
    CHECK(b.wbf_best_mean[i] >= b.wbf_achieved_mean[i]);
    CHECK(b.llf_best_mean[i] >= b.llf_achieved_mean[i]);
  }
  CHECK_THROWS_AS(
      motionBestReachable(nao, naoVirtualSkeletonMap(), motion.frames, Eigen::MatrixXd(mapped.q.topRows(2))),
      InvalidArgument);
}
