// GA-LVVJ maps are data: the same mapper drives Pepper's arms and head with the Pepper map
// (elbow frames pitched by 9 deg, no legs), and gaLvvjMapFor picks the map that fits a model.
#include <doctest/doctest.h>

#include <random>

#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "ga_lvvj/ga_lvvj_test_support.hpp"
#include "support/test_support.hpp"

using namespace retarget;

TEST_CASE("ga-lvvj maps: gaLvvjMapFor picks NAO, Pepper or nothing") {
  CHECK(gaLvvjMapFor(makeNao<double>())->robot == "NAO H25");
  CHECK(gaLvvjMapFor(makePepper<double>())->robot == "Pepper");
  CHECK_FALSE(gaLvvjMapFor(makeInMoov<double>()).has_value());
}

TEST_CASE("ga-lvvj maps: Pepper arms and head round-trip through its virtual skeleton") {
  const auto pepper = makePepper<double>();
  const GaLvvjMap map = pepperGaLvvjMap();
  VirtualSkeleton<double> skeleton(pepper, pepperVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(pepper, map);
  const std::vector<int> mapped = test::mappedCoordinates(pepper, map);
  REQUIRE(mapped.size() == 12);  // 2 head + 2 x (4 arm joints + hand)
  std::mt19937 rng(8);
  SkeletonFramed frame, back_frame;
  Eigen::VectorXd q_back(pepper.nq());
  FrameSimilarity<double> s;
  double worst = 0;
  for (int trial = 0; trial < test::sweepCount(3000); ++trial) {
    Eigen::VectorXd q(pepper.nq());
    for (int i = 0; i < pepper.nq(); ++i) {
      q[i] = std::uniform_real_distribution<double>(pepper.lowerLimits()[i], pepper.upperLimits()[i])(rng);
    }
    // Away from the singularities: bent elbows, upper arm off the shoulder line.
    for (const char* name : {"LElbowRoll", "RElbowRoll"}) {
      const int i = pepper.qIndex(name);
      if (std::abs(q[i]) < 0.06) q[i] = q[i] < 0 ? -0.06 : 0.06;
    }
    for (const char* name : {"LShoulderRoll", "RShoulderRoll"}) {
      const int i = pepper.qIndex(name);
      q[i] = std::max(std::min(q[i], 1.45), -1.45);
    }
    for (const char* name : {"LHand", "RHand"}) {  // open or closed: Pepper's hands span 0.02 .. 0.98
      const int i = pepper.qIndex(name);
      q[i] = (rng() & 1u) ? pepper.upperLimits()[i] : pepper.lowerLimits()[i];
    }
    REQUIRE(skeleton.compute(q, frame).ok());
    mapper.reset();
    const Status status = mapper.map(frame, q_back);
    CHECK(withinLimits(pepper, q_back));
    CHECK(!status.has(StatusCode::kDegenerateInput));
    for (int i : mapped) worst = std::max(worst, std::abs(q_back[i] - q[i]));
    REQUIRE(skeleton.compute(q_back, back_frame).ok());
    (void)frameSimilarity(frame, back_frame, s);
    CHECK(s.llf == doctest::Approx(1.0).epsilon(1e-9));
  }
  MESSAGE("Pepper round trip: max |dq| = ", worst, " rad");
  CHECK(worst < 1e-6);
}

TEST_CASE("ga-lvvj maps: the elbow-frame rotation matters, and must be a rotation") {
  const auto pepper = makePepper<double>();
  GaLvvjMap wrong = pepperGaLvvjMap();
  wrong.R_UE_left.setIdentity();  // ignore Pepper's 9 deg elbow pitch on the left
  VirtualSkeleton<double> skeleton(pepper, pepperVirtualSkeletonMap());
  GaLvvjMapper<double> mapper(pepper, wrong);
  Eigen::VectorXd q = pepper.neutralConfiguration(), q_back(pepper.nq());
  q[pepper.qIndex("LElbowRoll")] = -1.0;
  q[pepper.qIndex("LElbowYaw")] = -0.5;
  SkeletonFramed frame;
  REQUIRE(skeleton.compute(q, frame).ok());
  (void)mapper.map(frame, q_back);
  CHECK(std::abs(q_back[pepper.qIndex("LElbowYaw")] - q[pepper.qIndex("LElbowYaw")]) > 0.05);
  wrong.R_UE_right = 2.0 * Eigen::Matrix3d::Identity();
  CHECK_THROWS_WITH_AS(GaLvvjMapper<double>(pepper, wrong), doctest::Contains("not a rotation"), InvalidArgument);
}
