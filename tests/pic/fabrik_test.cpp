// FABRIK on random chains (seed 004, Section III-B1): convergence on reachable targets checked
// against orocos KDL's position IK (ChainIkSolverPos_LMA) on the same chain, graceful stretching
// on unreachable ones; octant constraints of PIC / PICs (Section III-B2/3, Eq. 3), exhaustively.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>

#include <retarget/mappers/fabrik.hpp>
#include <retarget/mappers/pic.hpp>

#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

// A random chain of n points: random directions and lengths 0.05..0.4 m from the origin.
FabrikChain<double> randomChain(std::mt19937& rng, int n) {
  std::uniform_real_distribution<double> len(0.05, 0.4), u(-1, 1);
  FabrikChain<double> c;
  c.count = n;
  c.p[0] = Eigen::Vector3d::Zero();
  for (int i = 1; i < n; ++i) {
    Eigen::Vector3d d(u(rng), u(rng), u(rng));
    if (d.norm() < 1e-3) d = Eigen::Vector3d::UnitX();
    c.p[static_cast<std::size_t>(i)] = c.p[static_cast<std::size_t>(i - 1)] + len(rng) * d.normalized();
  }
  c.setLengthsFromPoints();
  return c;
}

// The same chain for KDL: each point a spherical joint (three revolute joints about x, y, z)
// followed by a translation along x of the link length (a ball-joint chain, as FABRIK's).
KDL::Chain kdlChain(const FabrikChain<double>& c) {
  KDL::Chain chain;
  for (int i = 0; i + 1 < c.count; ++i) {
    chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotZ)));
    chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotY)));
    chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::RotX),
                                  KDL::Frame(KDL::Vector(c.length[static_cast<std::size_t>(i)], 0, 0))));
  }
  return chain;
}

}  // namespace

TEST_CASE("FABRIK reaches reachable targets within tolerance, as KDL's LMA does on the same chain") {
  std::mt19937 rng(42);
  FabrikOptions options;
  options.tolerance = 1e-4;
  options.max_iterations = 500;
  const int sweeps = sweepCount(60);
  int fabrik_ok = 0, kdl_ok = 0, both = 0;
  for (int n = 0; n < sweeps; ++n) {
    const int points = 3 + n % 6;
    FabrikChain<double> chain = randomChain(rng, points);
    // A reachable target: the end of the same chain at other random directions.
    const FabrikChain<double> other = [&] {
      FabrikChain<double> o = randomChain(rng, points);
      for (int i = 1; i < points; ++i) {
        o.p[static_cast<std::size_t>(i)] = o.p[static_cast<std::size_t>(i - 1)] +
                                           chain.length[static_cast<std::size_t>(i - 1)] *
                                               (o.p[static_cast<std::size_t>(i)] - o.p[static_cast<std::size_t>(i - 1)]).normalized();
      }
      return o;
    }();
    const Eigen::Vector3d target = other.p[static_cast<std::size_t>(points - 1)];
    const auto lengths = chain.length;
    const auto r = solveFabrik<double>(chain, target, options);
    CHECK(r.reachable);
    // Lengths are preserved, the root stays, the end meets the target.
    CHECK(chain.p[0].norm() == 0.0);
    for (int i = 0; i + 1 < points; ++i) {
      CHECK((chain.p[static_cast<std::size_t>(i + 1)] - chain.p[static_cast<std::size_t>(i)]).norm() ==
            doctest::Approx(lengths[static_cast<std::size_t>(i)]).epsilon(1e-9));
    }
    fabrik_ok += r.converged ? 1 : 0;
    CHECK(r.error == doctest::Approx((chain.p[static_cast<std::size_t>(points - 1)] - target).norm()));

    // KDL on the same chain from the zero configuration.
    const KDL::Chain kchain = kdlChain(chain);
    KDL::ChainIkSolverPos_LMA ik(kchain, Eigen::Matrix<double, 6, 1>((Eigen::Matrix<double, 6, 1>() << 1, 1, 1, 0, 0, 0).finished()),
                                 1e-8, 2000);
    KDL::JntArray q0(kchain.getNrOfJoints()), q(kchain.getNrOfJoints());
    KDL::Frame goal(KDL::Vector(target.x(), target.y(), target.z()));
    const int rc = ik.CartToJnt(q0, goal, q);
    KDL::ChainFkSolverPos_recursive fk(kchain);
    KDL::Frame reached;
    fk.JntToCart(q, reached);
    const double kdl_error = (Eigen::Vector3d(reached.p.x(), reached.p.y(), reached.p.z()) - target).norm();
    kdl_ok += (rc >= 0 && kdl_error <= options.tolerance) ? 1 : 0;
    both += (r.converged && kdl_error <= options.tolerance) ? 1 : 0;
  }
  MESSAGE("FABRIK converged on " << fabrik_ok << "/" << sweeps << ", KDL LMA on " << kdl_ok << "/" << sweeps);
  // FABRIK converges on every reachable random target, at least as often as KDL.
  CHECK(fabrik_ok == sweeps);
  CHECK(fabrik_ok >= kdl_ok);
  // ... and on every target KDL reaches (not only as many).
  CHECK(both == kdl_ok);
}

TEST_CASE("FABRIK stretches towards unreachable targets: finite, on the line, reported") {
  std::mt19937 rng(7);
  for (int n = 0; n < sweepCount(50); ++n) {
    FabrikChain<double> chain = randomChain(rng, 3 + n % 7);
    const double reach = chain.reach();
    std::uniform_real_distribution<double> u(-1, 1);
    const Eigen::Vector3d dir = Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    const Eigen::Vector3d target = (reach * (1.05 + 3 * std::abs(u(rng)))) * dir;
    const auto r = solveFabrik<double>(chain, target, FabrikOptions{});
    CHECK_FALSE(r.reachable);
    CHECK_FALSE(r.converged);
    const Eigen::Vector3d end = chain.p[static_cast<std::size_t>(chain.count - 1)];
    CHECK(end.allFinite());
    CHECK((end - reach * dir).norm() < 1e-9);  // fully stretched towards the target
    CHECK(r.error == doctest::Approx(target.norm() - reach));
  }
  // A non-finite target leaves the chain untouched.
  FabrikChain<double> chain = randomChain(rng, 4);
  const auto before = chain.p;
  const auto r = solveFabrik<double>(chain, Eigen::Vector3d(NAN, 0, 0), FabrikOptions{});
  CHECK(std::isinf(r.error));
  for (int i = 0; i < 4; ++i) CHECK(chain.p[static_cast<std::size_t>(i)] == before[static_cast<std::size_t>(i)]);
}

TEST_CASE("PIC: every output link in its OUT octant (paper's loop) or in OUT and IN (final pass), all octant pairs") {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  int checked = 0;
  for (int points : {3, 5}) {
    const int elbow = points == 3 ? 1 : 2;
    for (int a = 0; a < 8; ++a) {
      for (int b = 0; b < 8; ++b) {
        FabrikChain<double> chain = randomChain(rng, points);
        const PicPose pose{a, 7 - a, b, 7 - b};
        for (int k : {0, 1, 2}) {
          const FabrikConstraints c = picConstraints(pose, points, elbow, k);
          const Eigen::Vector3d target(u(rng), u(rng), u(rng));
          for (bool force : {false, true}) {
            FabrikOptions options;
            options.final_octant_pass = force;
            FabrikChain<double> solved = chain;
            (void)solveFabrik<double>(solved, 0.8 * solved.reach() * target.normalized(), options, c);
            for (int i = 0; i + 1 < points; ++i) {
              const auto s = static_cast<std::size_t>(i);
              const Eigen::Vector3d d = solved.p[s + 1] - solved.p[s];
              CHECK(d.norm() == doctest::Approx(chain.length[s]).epsilon(1e-9));
              CHECK(inOctants<double>(d, c.out[s]));  // the forward pass enforces OUT last
              // IN is the mirror of OUT on one link here (IN = 7 - OUT of the same human link), so
              // it holds with OUT when both sit on the same link; on 5 points only the final pass
              // guarantees it.
              if (force || c.in[s] == mirroredOctants(c.out[s])) CHECK(inOctants<double>(Eigen::Vector3d(-d), c.in[s]));
              ++checked;
            }
          }
        }
      }
    }
  }
  CHECK(checked > 0);
}

TEST_CASE("PICs with K = 0 equals PIC, K = 3 equals FABRIK (bit for bit)") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n = 0; n < sweepCount(200); ++n) {
    const FabrikChain<double> chain = randomChain(rng, 3);
    const PicPose pose{static_cast<int>(rng() % 8), static_cast<int>(rng() % 8), static_cast<int>(rng() % 8),
                       static_cast<int>(rng() % 8)};
    const Eigen::Vector3d target = 0.7 * chain.reach() * Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized();
    FabrikChain<double> pic = chain, pics0 = chain, fabrik = chain, pics3 = chain;
    FabrikConstraints single;  // PIC: each set is the single octant
    single.out[0] = octantSetOf(pose.out_shoulder);
    single.in[0] = octantSetOf(pose.in_elbow);
    single.out[1] = octantSetOf(pose.out_elbow);
    single.in[1] = octantSetOf(pose.in_wrist);
    (void)solveFabrik<double>(pic, target, FabrikOptions{}, single);
    (void)solveFabrik<double>(pics0, target, FabrikOptions{}, picConstraints(pose, 3, 1, 0));
    (void)solveFabrik<double>(fabrik, target, FabrikOptions{});
    (void)solveFabrik<double>(pics3, target, FabrikOptions{}, picConstraints(pose, 3, 1, 3));
    for (int i = 0; i < 3; ++i) {
      CHECK(pic.p[static_cast<std::size_t>(i)] == pics0.p[static_cast<std::size_t>(i)]);
      CHECK(fabrik.p[static_cast<std::size_t>(i)] == pics3.p[static_cast<std::size_t>(i)]);
    }
  }
}

TEST_CASE("Eq. 3: the admissible set grows with K exactly by Hamming distance (exhaustive)") {
  for (int o = 0; o < 8; ++o) {
    OctantSet previous = kNoOctants;
    for (int k = 0; k <= 3; ++k) {
      const OctantSet set = octantNeighbours(o, k);
      int size = 0;
      for (int p = 0; p < 8; ++p) {
        // Signs compared axis by axis (Eq. 3), independently of the bit trick.
        const Eigen::Vector3d so = octantSigns<double>(o), sp = octantSigns<double>(p);
        int hamming = 0;
        for (int axis = 0; axis < 3; ++axis) hamming += so[axis] != sp[axis] ? 1 : 0;
        CHECK(contains(set, p) == (hamming <= k));
        size += contains(set, p) ? 1 : 0;
      }
      const int expected[4] = {1, 4, 7, 8};  // 1 + C(3,1) + C(3,2) + C(3,3)
      CHECK(size == expected[k]);
      CHECK((set & previous) == previous);  // monotone
      previous = set;
    }
  }
  // mirroredOctants is an involution that flips every sign.
  for (unsigned s = 0; s < 256; ++s) {
    const auto set = static_cast<OctantSet>(s);
    CHECK(mirroredOctants(mirroredOctants(set)) == set);
    for (int o = 0; o < 8; ++o) CHECK(contains(mirroredOctants(set), 7 - o) == contains(set, o));
  }
}

TEST_CASE("FABRIK and PIC options are validated, naming the field") {
  FabrikOptions f;
  f.tolerance = -1;
  CHECK_THROWS_WITH_AS(f.validate(), doctest::Contains("FabrikOptions::tolerance"), InvalidArgument);
  f = FabrikOptions{};
  f.max_iterations = 0;
  CHECK_THROWS_WITH_AS(f.validate(), doctest::Contains("max_iterations"), InvalidArgument);
  PicOptions p;
  p.softening = 4;
  CHECK_THROWS_WITH_AS(p.validate(), doctest::Contains("PicOptions::softening (got 4"), InvalidArgument);
  p = PicOptions{};
  p.smoothing_alpha = 0;
  CHECK_THROWS_WITH_AS(p.validate(), doctest::Contains("alpha"), InvalidArgument);
  p = PicOptions{};
  p.fit_damping = NAN;
  CHECK_THROWS_WITH_AS(p.validate(), doctest::Contains("fit_damping"), InvalidArgument);
}
