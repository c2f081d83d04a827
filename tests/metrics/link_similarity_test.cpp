// WBF (seed 000 Eq. 44), LLF (Eq. 46) and cosine pose similarity (seed 003 Eq. 1): identity
// scores 1, values bounded, invariances, and a cross-check of the per-link values against
// closed forms written directly from NAO's joint angles (independent of the frame
// construction in the metric).
#include <doctest/doctest.h>

#include <array>

#include <cmath>
#include <random>

#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"
#include "metrics/random_nao.hpp"

using namespace retarget;
using retarget::test::randomNao;

namespace {

Eigen::Matrix3d rot(double angle, const Eigen::Vector3d& axis) { return Eigen::AngleAxisd(angle, axis).toRotationMatrix(); }

// Closed forms from the joint angles (NAO kinematics; see mappers/ga_lvvj_map.hpp):
// direction of each link in its mother's frame and in the torso frame.
struct NaoLinks {
  std::array<Eigen::Vector3d, kSimilarityLinkCount> local;  // in the mother frame
  std::array<Eigen::Vector3d, kSimilarityLinkCount> torso;  // in the torso (= base) frame
};

NaoLinks naoLinks(const RobotModel<double>& nao, const Eigen::VectorXd& q) {
  auto a = [&](const char* name) { return q[nao.qIndex(name)]; };
  const Eigen::Vector3d x = Eigen::Vector3d::UnitX(), y = Eigen::Vector3d::UnitY(), z = Eigen::Vector3d::UnitZ();
  NaoLinks out;
  auto set = [&](SimilarityLink l, const Eigen::Vector3d& local, const Eigen::Vector3d& torso) {
    out.local[static_cast<std::size_t>(l)] = local;
    out.torso[static_cast<std::size_t>(l)] = torso;
  };
  for (int side = 0; side < 2; ++side) {
    const std::string p = side == 0 ? "L" : "R";
    const Eigen::Matrix3d R_TU =
        rot(a((p + "ShoulderPitch").c_str()), y) * rot(a((p + "ShoulderRoll").c_str()), z);
    const Eigen::Matrix3d R_UF = rot(a((p + "ElbowYaw").c_str()), x) * rot(a((p + "ElbowRoll").c_str()), z);
    const Eigen::Matrix3d R_LTh = rot(a((p + "HipRoll").c_str()), x) * rot(a((p + "HipPitch").c_str()), y);
    const Eigen::Matrix3d R_ThTi = rot(a((p + "KneePitch").c_str()), y);
    set(side == 0 ? SimilarityLink::kLeftUpperArm : SimilarityLink::kRightUpperArm, R_TU * x, R_TU * x);
    set(side == 0 ? SimilarityLink::kLeftLowerArm : SimilarityLink::kRightLowerArm, R_UF * x, R_TU * R_UF * x);
    set(side == 0 ? SimilarityLink::kLeftThigh : SimilarityLink::kRightThigh, R_LTh * -z, R_LTh * -z);
    set(side == 0 ? SimilarityLink::kLeftTibia : SimilarityLink::kRightTibia, R_ThTi * -z, R_LTh * R_ThTi * -z);
  }
  set(SimilarityLink::kTorso, z, z);
  const Eigen::Vector3d head = rot(a("HeadYaw"), z) * rot(a("HeadPitch"), y) * z;
  set(SimilarityLink::kHead, head, head);
  return out;
}

}  // namespace

TEST_CASE("similarity: per-link WBF and LLF equal closed forms from NAO's joint angles") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(42);
  SkeletonFramed a, b;
  FrameSimilarity<double> s;
  double worst = 0;
  for (int trial = 0; trial < test::sweepCount(2000); ++trial) {
    const Eigen::VectorXd qa = randomNao(nao, rng), qb = randomNao(nao, rng);
    REQUIRE(skeleton.compute(qa, a).ok());
    REQUIRE(skeleton.compute(qb, b).ok());
    REQUIRE(frameSimilarity(a, b, s).ok());
    const NaoLinks la = naoLinks(nao, qa), lb = naoLinks(nao, qb);
    double wbf = 0, llf = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
      const double expected_wbf = la.torso[i].dot(lb.torso[i]);
      const double expected_llf = la.local[i].dot(lb.local[i]);
      worst = std::max({worst, std::abs(s.wbf_links[i] - expected_wbf), std::abs(s.llf_links[i] - expected_llf)});
      wbf += expected_wbf / kSimilarityLinkCount;
      llf += expected_llf / kSimilarityLinkCount;
    }
    worst = std::max({worst, std::abs(s.wbf - wbf), std::abs(s.llf - llf)});
  }
  CHECK(worst < 1e-12);
}

TEST_CASE("similarity: identical skeletons score 1, values stay in [-1, 1]") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> jitter(-0.05, 0.05);
  SkeletonFramed a, b;
  FrameSimilarity<double> s;
  for (int trial = 0; trial < test::sweepCount(1000); ++trial) {
    REQUIRE(skeleton.compute(randomNao(nao, rng), a).ok());
    for (auto& p : a.p_W) p += Eigen::Vector3d(jitter(rng), jitter(rng), jitter(rng));
    REQUIRE(frameSimilarity(a, a, s).ok());
    CHECK(s.wbf == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(s.llf == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(s.cosine == doctest::Approx(1.0).epsilon(1e-12));
    REQUIRE(skeleton.compute(randomNao(nao, rng), b).ok());
    (void)frameSimilarity(a, b, s);
    for (int i = 0; i < kSimilarityLinkCount; ++i) {
      CHECK(std::abs(s.wbf_links[static_cast<std::size_t>(i)]) <= 1.0);
      CHECK(std::abs(s.llf_links[static_cast<std::size_t>(i)]) <= 1.0);
    }
    CHECK(std::abs(s.cosine) <= 1.0);
  }
}

TEST_CASE("similarity: invariances (WBF/cosine: yaw and translation; LLF: any rigid motion but the torso link)") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(13);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  SkeletonFramed a, b;
  FrameSimilarity<double> s0, s1, s2;
  double worst_yaw = 0, worst_rigid = 0, tilt_change = 0;
  for (int trial = 0; trial < test::sweepCount(1000); ++trial) {
    REQUIRE(skeleton.compute(randomNao(nao, rng), a).ok());
    REQUIRE(skeleton.compute(randomNao(nao, rng), b).ok());
    (void)frameSimilarity(a, b, s0);
    const Eigen::Vector3d t(u(rng), u(rng), u(rng));
    SkeletonFramed yawed = b, moved = b;
    const Eigen::Matrix3d R_yaw = rot(3 * u(rng), Eigen::Vector3d::UnitZ());
    const Eigen::Matrix3d R_any = Eigen::Quaterniond::UnitRandom().toRotationMatrix();
    for (auto& p : yawed.p_W) p = R_yaw * p + t;
    for (auto& p : moved.p_W) p = R_any * p + t;
    (void)frameSimilarity(a, yawed, s1);
    (void)frameSimilarity(a, moved, s2);
    worst_yaw = std::max({worst_yaw, std::abs(s1.wbf - s0.wbf), std::abs(s1.llf - s0.llf),
                          std::abs(s1.cosine - s0.cosine)});
    for (int i = 0; i < kSimilarityLinkCount; ++i) {
      if (i == static_cast<int>(SimilarityLink::kTorso)) continue;
      worst_rigid = std::max(worst_rigid, std::abs(s2.llf_links[static_cast<std::size_t>(i)] -
                                                    s0.llf_links[static_cast<std::size_t>(i)]));
    }
    tilt_change = std::max(tilt_change, std::abs(s2.wbf - s0.wbf));
  }
  CHECK(worst_yaw < 1e-12);
  CHECK(worst_rigid < 1e-12);
  CHECK(tilt_change > 1e-3);  // WBF keeps the ground as its reference: tilts count
}

TEST_CASE("similarity: missing joints invalidate only their links") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  SkeletonFramed a;
  REQUIRE(skeleton.compute(nao.neutralConfiguration(), a).ok());
  SkeletonFramed b = a;
  b.trackingState(HumanJoint::kWristLeft) = TrackingState::kNotTracked;
  FrameSimilarity<double> s;
  CHECK(frameSimilarity(a, b, s).has(StatusCode::kDegenerateInput));
  const auto lower = static_cast<std::size_t>(SimilarityLink::kLeftLowerArm);
  CHECK_FALSE(s.wbf_valid[lower]);
  CHECK_FALSE(s.llf_valid[lower]);
  CHECK(s.wbf_valid[static_cast<std::size_t>(SimilarityLink::kLeftUpperArm)]);
  CHECK(s.wbf == doctest::Approx(1.0));
  CHECK(frameSimilarity(SkeletonFramed{}, SkeletonFramed{}, s).has(StatusCode::kDegenerateInput));
  CHECK(s.wbf == 0.0);  // no valid link: the means are 0 (see FrameSimilarity)
  CHECK(s.llf == 0.0);
  CHECK(s.cosine == 0.0);
}

TEST_CASE("similarity: whole-motion summary (mean, min, per-link) and length check") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(21);
  std::vector<SkeletonFramed> human(20), robot(20);
  for (std::size_t k = 0; k < human.size(); ++k) {
    REQUIRE(skeleton.compute(randomNao(nao, rng), human[k]).ok());
    REQUIRE(skeleton.compute(randomNao(nao, rng), robot[k]).ok());
  }
  // One frame with an untracked left wrist: its left lower arm is invalid there only.
  human[7].trackingState(HumanJoint::kWristLeft) = TrackingState::kNotTracked;
  const MotionSimilarity<double> m = motionSimilarity(human, robot);
  REQUIRE(m.frames.size() == 20);
  // Every field of the summary, recomputed from frameSimilarity frame by frame.
  struct Acc {
    double sum = 0, min = 2;
    int n = 0;
    void add(double v) { sum += v, min = std::min(min, v), ++n; }
  } wbf, llf, cosine;
  std::array<Acc, kSimilarityLinkCount> wbf_link{}, llf_link{};
  int degenerate = 0;
  FrameSimilarity<double> s;
  for (std::size_t k = 0; k < human.size(); ++k) {
    degenerate += frameSimilarity(human[k], robot[k], s).ok() ? 0 : 1;
    wbf.add(s.wbf);
    llf.add(s.llf);
    cosine.add(s.cosine);
    for (std::size_t i = 0; i < wbf_link.size(); ++i) {
      if (s.wbf_valid[i]) wbf_link[i].add(s.wbf_links[i]);
      if (s.llf_valid[i]) llf_link[i].add(s.llf_links[i]);
    }
    CHECK(m.frames[k].wbf == s.wbf);
    CHECK(m.frames[k].llf == s.llf);
    CHECK(m.frames[k].cosine == s.cosine);
    CHECK(m.frames[k].wbf_links == s.wbf_links);
    CHECK(m.frames[k].llf_valid == s.llf_valid);
  }
  CHECK(m.wbf_mean == doctest::Approx(wbf.sum / 20));
  CHECK(m.wbf_min == doctest::Approx(wbf.min));
  CHECK(m.llf_mean == doctest::Approx(llf.sum / 20));
  CHECK(m.llf_min == doctest::Approx(llf.min));
  CHECK(m.cosine_mean == doctest::Approx(cosine.sum / 20));
  CHECK(m.cosine_min == doctest::Approx(cosine.min));
  CHECK(m.degenerate_frames == 1);
  CHECK(degenerate == 1);
  for (std::size_t i = 0; i < wbf_link.size(); ++i) {
    CAPTURE(kSimilarityLinkNames[i]);
    CHECK(m.link_frames[i] == wbf_link[i].n);
    CHECK(m.link_frames[i] == (i == static_cast<std::size_t>(SimilarityLink::kLeftLowerArm) ? 19 : 20));
    CHECK(m.wbf_link_mean[i] == doctest::Approx(wbf_link[i].sum / wbf_link[i].n));
    CHECK(m.llf_link_mean[i] == doctest::Approx(llf_link[i].sum / llf_link[i].n));
  }
  robot.pop_back();
  CHECK_THROWS_WITH_AS(motionSimilarity(human, robot), doctest::Contains("got 19, expected the human motion's 20"),
                       InvalidArgument);
}

TEST_CASE("similarity: frameSimilarity allocates nothing") {
  const auto nao = makeNao<double>();
  VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
  std::mt19937 rng(4);
  SkeletonFramed a, b;
  REQUIRE(skeleton.compute(randomNao(nao, rng), a).ok());
  REQUIRE(skeleton.compute(randomNao(nao, rng), b).ok());
  FrameSimilarity<double> s;
  test::NoAllocationScope scope;
  for (int k = 0; k < 10; ++k) (void)frameSimilarity(a, b, s);
  CHECK(scope.allocations() == 0);
}

TEST_CASE_TEMPLATE("similarity: float compiles", Scalar, float, double) {
  SkeletonFrame<Scalar> a;
  for (int j = 0; j < kHumanJointCount; ++j) {
    a.p_W[static_cast<std::size_t>(j)] = Vector3<Scalar>(Scalar(0.01) * Scalar(j), Scalar(0.1) * Scalar(j % 3), Scalar(j % 5));
    a.state[static_cast<std::size_t>(j)] = TrackingState::kTracked;
  }
  FrameSimilarity<Scalar> s;
  CHECK(frameSimilarity(a, a, s).ok());
  // A skeleton against itself scores 1 on every measure, in float as in double.
  CHECK(double(s.wbf) == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(double(s.llf) == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(double(s.cosine) == doctest::Approx(1.0).epsilon(1e-5));
}
