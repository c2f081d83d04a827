// Fitted self-collision capsules of URDF humanoids (safety/humanoid_capsules.hpp) on the shared
// Unitree G1 and H1 URDFs: every bound limb link gets a shape, fitted capsules contain their
// segments, nothing touches at the rest pose, a forearm folded into the torso is found in
// collision and its distance agrees with a brute-force distance between the capsule axes;
// defaultSelfCollisionModel switches to the fitted shapes on the G1 and keeps the built-in robots'
// own models exactly; the shapes constructor of SelfCollisionModel and the options' checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <retarget/robots/builtin.hpp>
#include <retarget/io/urdf.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/safety/humanoid_capsules.hpp>
#include <retarget/safety/self_collision.hpp>

#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace humanoid_capsules_test {

RobotModel<double> loadShared(const std::filesystem::path& data_dir, const char* file) {
  return loadUrdf<double>(data_dir / "urdf" / file).model;
}

/// Distance (m) from point p to segment [a, b], by projection.
double pointSegmentDistance(const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b) {
  const Eigen::Vector3d ab = b - a;
  const double t = ab.squaredNorm() > 0 ? std::clamp((p - a).dot(ab) / ab.squaredNorm(), 0.0, 1.0) : 0.0;
  return (a + t * ab - p).norm();
}

/// Signed distance of two capsules (m) by brute force, independent of geometry/distance.hpp:
/// points sampled on both axes (a 101 x 101 grid of the two segment parameters), then grids
/// zoomed in around the closest pair found (the distance between points of two segments is convex
/// in the two parameters), minus the radii.
double bruteForceDistance(const Capsule<double>& A, const Capsule<double>& B) {
  const int n = 100;
  double s_lo = 0, s_hi = 1, t_lo = 0, t_hi = 1, best = std::numeric_limits<double>::infinity(), best_s = 0, best_t = 0;
  for (int round = 0; round < 14; ++round) {
    for (int i = 0; i <= n; ++i) {
      const double s = s_lo + (s_hi - s_lo) * i / n;
      const Eigen::Vector3d p = A.a + s * (A.b - A.a);
      for (int j = 0; j <= n; ++j) {
        const double t = t_lo + (t_hi - t_lo) * j / n;
        const double d = (p - (B.a + t * (B.b - B.a))).norm();
        if (d < best) {
          best = d;
          best_s = s;
          best_t = t;
        }
      }
    }
    const double ds = 5 * (s_hi - s_lo) / n, dt = 5 * (t_hi - t_lo) / n;
    s_lo = std::max(0.0, best_s - ds);
    s_hi = std::min(1.0, best_s + ds);
    t_lo = std::max(0.0, best_t - dt);
    t_hi = std::min(1.0, best_t + dt);
  }
  return best - A.radius - B.radius;
}

/// Rest-pose (neutral configuration) origin of joint j in the world frame (m).
Eigen::Vector3d jointOriginAtRest(const RobotModel<double>& model, const RobotData<double>& rest, int j) {
  const Joint<double>& joint = model.joints()[static_cast<std::size_t>(j)];
  return rest.X_WL[static_cast<std::size_t>(joint.parent_link)] * joint.X_PJ.translation();
}

/// The limb links of a binding: the child link of every chain joint (G1 and H1 are rooted at the
/// pelvis, so every chain runs parent to child).
std::vector<int> limbLinks(const RobotModel<double>& model, const HumanoidBinding& binding) {
  std::vector<int> out;
  for (const HumanoidChain& chain : binding.limbs) {
    if (!chain.found) continue;
    for (int j : chain.joints) out.push_back(model.joints()[static_cast<std::size_t>(j)].child_link);
  }
  return out;
}

bool hasOwnPrimitive(const RobotModel<double>& model, int link, double min_radius) {
  for (const auto& s : model.links()[static_cast<std::size_t>(link)].collisions) {
    if (s.capsule_L.radius >= min_radius) return true;
  }
  return false;
}

/// The model with the fitted shapes and the pairs touching in every sample excluded.
SelfCollisionModel<double> fittedModel(const RobotModel<double>& model, const HumanoidCapsuleOptions& capsules) {
  const auto shapes = humanoidCollisionShapes(model, bindHumanoid(model), capsules);
  SelfCollisionOptions options;
  options.excluded_pairs = alwaysCollidingPairs(model, shapes, options, 1000);
  return SelfCollisionModel<double>(model, shapes, options);
}

struct Case {
  const char* file;
  bool use_link_primitives;
};

// G1 with defaults (its own primitives on the shoulders only), H1 with defaults (its own
// primitives everywhere) and H1 with every link fitted.
const Case kCases[] = {{"unitree_g1_29dof_rev_1_0.urdf", true}, {"unitree_h1.urdf", true}, {"unitree_h1.urdf", false}};

TEST_CASE("humanoid capsules: every bound limb link, the torso and the pelvis get shapes; fitted ones contain their segment") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const Case& c : kCases) {
    CAPTURE(c.file);
    CAPTURE(c.use_link_primitives);
    const RobotModel<double> model = loadShared(data_dir, c.file);
    const HumanoidBinding binding = bindHumanoid(model);
    REQUIRE(binding.limb(HumanoidLimb::kLeftArm).found);
    REQUIRE(binding.limb(HumanoidLimb::kLeftLeg).found);
    HumanoidCapsuleOptions options;
    options.use_link_primitives = c.use_link_primitives;
    const auto shapes = humanoidCollisionShapes(model, binding, options);
    const auto on = [&](int link) {
      std::vector<const SelfCollisionShape<double>*> out;
      for (const auto& s : shapes) {
        if (s.link == link) out.push_back(&s);
      }
      return out;
    };
    // (a) Every limb link: its own usable primitives, else exactly one fitted capsule.
    const std::vector<int> links = limbLinks(model, binding);
    CHECK(links.size() == (model.name() == "g1_29dof_rev_1_0" ? 26u : 18u));
    int fitted = 0;
    for (int link : links) {
      CAPTURE(model.links()[static_cast<std::size_t>(link)].name);
      const auto mine = on(link);
      REQUIRE_FALSE(mine.empty());
      if (c.use_link_primitives && hasOwnPrimitive(model, link, options.min_radius)) {
        for (const auto* s : mine) CHECK(s->name.find("_fitted") == std::string::npos);
      } else {
        REQUIRE(mine.size() == 1);
        CHECK(mine[0]->name == model.links()[static_cast<std::size_t>(link)].name + "_fitted");
        CHECK(mine[0]->capsule_L.radius >= options.min_fitted_radius);
        CHECK(mine[0]->capsule_L.radius <= options.max_fitted_radius);
        ++fitted;
      }
    }
    // The G1's own primitives of 1 cm or more are on its four shoulder links only.
    if (model.name() == "g1_29dof_rev_1_0") CHECK(fitted == 26 - 4);
    if (!c.use_link_primitives) CHECK(fitted == 18);
    CHECK_FALSE(on(model.linkIndex(binding.torso_link)).empty());
    CHECK_FALSE(on(model.linkIndex(binding.pelvis_link)).empty());
    // Names are unique (excluded pairs name shapes).
    for (std::size_t i = 0; i < shapes.size(); ++i) {
      for (std::size_t k = i + 1; k < shapes.size(); ++k) CHECK(shapes[i].name != shapes[k].name);
    }

    // (b) A fitted limb capsule's axis holds its joint's origin and, but on the last link, the
    // origin of the limb's next joint (rest pose, world frame).
    RobotData<double> rest(model);
    forwardKinematics(model, rest, model.neutralConfiguration());
    int segments_checked = 0;
    for (const HumanoidChain& chain : binding.limbs) {
      if (!chain.found) continue;
      for (std::size_t k = 0; k < chain.joints.size(); ++k) {
        const int link = model.joints()[static_cast<std::size_t>(chain.joints[k])].child_link;
        const auto mine = on(link);
        if (mine.size() != 1 || mine[0]->name.find("_fitted") == std::string::npos) continue;
        CAPTURE(mine[0]->name);
        const Capsule<double> c_W = transformed(rest.X_WL[static_cast<std::size_t>(link)], mine[0]->capsule_L);
        const Eigen::Vector3d start = jointOriginAtRest(model, rest, chain.joints[k]);
        CHECK(pointSegmentDistance(start, c_W.a, c_W.b) <= 1e-9);
        if (k + 1 < chain.joints.size()) {
          const Eigen::Vector3d end = jointOriginAtRest(model, rest, chain.joints[k + 1]);
          CHECK(pointSegmentDistance(end, c_W.a, c_W.b) <= 1e-9);
          CHECK(c_W.length() == doctest::Approx((end - start).norm()).epsilon(1e-9));
        } else {
          // The last link reaches beyond its joint (hand, foot).
          CHECK(c_W.length() > 0.02);
        }
        ++segments_checked;
      }
    }
    CHECK(segments_checked == fitted);

    // The fitted torso capsule reaches the shoulder midpoint, its radius 0.6 of half the shoulder
    // width.
    for (const auto* s : on(model.linkIndex(binding.torso_link))) {
      if (s->name != binding.torso_link + "_torso_fitted") continue;
      const Eigen::Vector3d left = binding.find(HumanoidPoint::kShoulderLeft)->p_B;
      const Eigen::Vector3d right = binding.find(HumanoidPoint::kShoulderRight)->p_B;
      CHECK(s->capsule_L.radius == doctest::Approx(0.6 * 0.5 * (left - right).norm()).epsilon(1e-12));
      const Capsule<double> c_W = transformed(rest.X_WL[static_cast<std::size_t>(s->link)], s->capsule_L);
      const Eigen::Vector3d top = binding.find(HumanoidPoint::kSpineShoulder)->p_B;
      CHECK(pointSegmentDistance(top, c_W.a, c_W.b) == doctest::Approx(s->capsule_L.radius).epsilon(1e-9));
    }
  }
}

TEST_CASE("humanoid capsules: no checked pair touches at the rest pose") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  // (c) The models of the humanoid shapes with the always-touching pairs left out (G1: fitted
  // capsules and its shoulder cylinders; H1: its own primitives, and every link fitted), and
  // defaultSelfCollisionModel on the G1, whose rest pose also clears the 1 cm margin (avoidance
  // leaves it alone).
  for (const Case& c : kCases) {
    CAPTURE(c.file);
    CAPTURE(c.use_link_primitives);
    const RobotModel<double> model = loadShared(data_dir, c.file);
    HumanoidCapsuleOptions options;
    options.use_link_primitives = c.use_link_primitives;
    const SelfCollisionModel<double> collision = fittedModel(model, options);
    REQUIRE(collision.pairs().size() > 100);
    SelfCollisionChecker<double> checker(collision);
    checker.update(model.neutralConfiguration());
    for (std::size_t k = 0; k < collision.pairs().size(); ++k) {
      CAPTURE(collision.pairName(k));
      CHECK(checker.result(k).distance > 0);
    }
  }
  const RobotModel<double> g1 = loadShared(data_dir, "unitree_g1_29dof_rev_1_0.urdf");
  const auto collision = defaultSelfCollisionModel(g1);
  REQUIRE(collision);
  SelfCollisionChecker<double> checker(*collision);
  checker.update(g1.neutralConfiguration());
  CHECK(checker.pairsBelow(collision->margin()) == 0);
  // Other URDF humanoids whose collision geometry is meshes get the fitted shapes too (their
  // built-in twins have hand-made capsules), also clear at rest.
  for (const char* file : {"nao_h25_v50.urdf", "pepper_1.0.urdf", "inmoov.urdf"}) {
    CAPTURE(file);
    const RobotModel<double> model = loadShared(data_dir, file);
    const auto other = defaultSelfCollisionModel(model);
    REQUIRE(other);
    CHECK(std::any_of(other->shapes().begin(), other->shapes().end(),
                      [](const auto& s) { return s.name.find("_fitted") != std::string::npos; }));
    SelfCollisionChecker<double> other_checker(*other);
    other_checker.update(model.neutralConfiguration());
    CHECK(other_checker.pairsBelow(0) == 0);
  }
}

TEST_CASE("humanoid capsules: the G1's left forearm folded into its torso collides, as a brute-force distance says") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const RobotModel<double> g1 = loadShared(data_dir, "unitree_g1_29dof_rev_1_0.urdf");
  const HumanoidBinding binding = bindHumanoid(g1);
  const auto collision = defaultSelfCollisionModel(g1);
  REQUIRE(collision);
  // The forearm: the link after the elbow; the torso's fitted capsule.
  const HumanoidChain& arm = binding.limb(HumanoidLimb::kLeftArm);
  const int forearm = g1.joints()[static_cast<std::size_t>(g1.jointIndex(arm.bend_joint))].child_link;
  const int torso = g1.linkIndex(binding.torso_link);
  int pair = -1;
  for (std::size_t k = 0; k < collision->pairs().size(); ++k) {
    const auto& p = collision->pairs()[k];
    const int la = collision->shapes()[static_cast<std::size_t>(p.a)].link;
    const int lb = collision->shapes()[static_cast<std::size_t>(p.b)].link;
    if ((la == forearm && lb == torso) || (la == torso && lb == forearm)) pair = static_cast<int>(k);
  }
  REQUIRE(pair >= 0);
  const auto k = static_cast<std::size_t>(pair);
  // (d) Search the shoulder (pitch, roll, yaw) and elbow on a grid within their limits for the
  // deepest fold of the forearm into the torso.
  SelfCollisionChecker<double> checker(*collision);
  Eigen::VectorXd q = g1.neutralConfiguration(), best_q = q;
  double best = std::numeric_limits<double>::infinity();
  const int n = 8;
  REQUIRE(arm.q.size() >= 4);
  const auto value = [&](int joint, int i) {
    const auto qi = static_cast<Eigen::Index>(arm.q[static_cast<std::size_t>(joint)]);
    return g1.lowerLimits()[qi] + (g1.upperLimits()[qi] - g1.lowerLimits()[qi]) * i / n;
  };
  for (int a = 0; a <= n; ++a) {
    for (int b = 0; b <= n; ++b) {
      for (int c = 0; c <= n; ++c) {
        for (int d = 0; d <= n; ++d) {
          const int index[4] = {a, b, c, d};
          for (int joint = 0; joint < 4; ++joint) q[arm.q[static_cast<std::size_t>(joint)]] = value(joint, index[joint]);
          checker.update(q);
          if (checker.result(k).distance < best) {
            best = checker.result(k).distance;
            best_q = q;
          }
        }
      }
    }
  }
  CAPTURE(collision->pairName(k));
  CAPTURE(best_q.transpose());
  CHECK(best < 0);
  checker.update(best_q);
  CHECK(checker.pairsBelow(0) >= 1);
  // The same configuration by brute force: forward kinematics, the two capsules in W, sampled axes.
  RobotData<double> data(g1);
  forwardKinematics(g1, data, best_q);
  const auto& pa = collision->pairs()[k];
  const auto& sa = collision->shapes()[static_cast<std::size_t>(pa.a)];
  const auto& sb = collision->shapes()[static_cast<std::size_t>(pa.b)];
  const double brute = bruteForceDistance(transformed(data.X_WL[static_cast<std::size_t>(sa.link)], sa.capsule_L),
                                          transformed(data.X_WL[static_cast<std::size_t>(sb.link)], sb.capsule_L));
  CHECK(std::abs(brute - checker.result(k).distance) <= 1e-6);
  // And at the rest pose, where the two are apart.
  checker.update(g1.neutralConfiguration());
  forwardKinematics(g1, data, g1.neutralConfiguration());
  const double brute_rest = bruteForceDistance(transformed(data.X_WL[static_cast<std::size_t>(sa.link)], sa.capsule_L),
                                               transformed(data.X_WL[static_cast<std::size_t>(sb.link)], sb.capsule_L));
  CHECK(brute_rest > 0);
  CHECK(std::abs(brute_rest - checker.result(k).distance) <= 1e-6);
}

TEST_CASE("humanoid capsules: defaultSelfCollisionModel fits the G1 and keeps the built-in robots' own models") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  // (e) G1 from its URDF: its own primitives cover little of its limbs, so the fitted shapes.
  const RobotModel<double> g1 = loadShared(data_dir, "unitree_g1_29dof_rev_1_0.urdf");
  const HumanoidBinding g1_binding = bindHumanoid(g1);
  CHECK(humanoidPrimitiveCoverage(g1, g1_binding, HumanoidCapsuleOptions{}.min_radius) < kHumanoidPrimitiveCoverage);
  const auto g1_collision = defaultSelfCollisionModel(g1, 0.005);
  REQUIRE(g1_collision);
  CHECK_FALSE(g1_collision->pairs().empty());
  CHECK(g1_collision->margin() == 0.005);
  CHECK(g1_collision->shapes().size() == humanoidCollisionShapes(g1, g1_binding).size());
  CHECK(g1_collision->shapes().size() > SelfCollisionModel<double>(g1).shapes().size());
  // H1 from its URDF has a primitive on every limb link: its own shapes, as before.
  const RobotModel<double> h1 = loadShared(data_dir, "unitree_h1.urdf");
  CHECK(humanoidPrimitiveCoverage(h1, bindHumanoid(h1), HumanoidCapsuleOptions{}.min_radius) == 1.0);

  // The built-in robots with collision models of their own: the same shapes and pairs as the
  // rule before the fitted shapes (Tangy's shipped options, else the own shapes with the pairs
  // touching in all of 1000 seeded samples left out).
  for (const char* name : {"tangy", "nao", "pepper", "inmoov", "baxter", "yumi"}) {
    CAPTURE(name);
    const RobotModel<double> model = makeBuiltinRobot<double>(name);
    SelfCollisionOptions options = model.name() == "tangy" ? tangySelfCollisionOptions() : SelfCollisionOptions{};
    if (model.name() != "tangy") options.excluded_pairs = alwaysCollidingPairs(model, options, 1000);
    const SelfCollisionModel<double> before(model, options);
    const auto now = defaultSelfCollisionModel(model);
    REQUIRE(now);
    REQUIRE(now->shapes().size() == before.shapes().size());
    for (std::size_t i = 0; i < before.shapes().size(); ++i) {
      CHECK(now->shapes()[i].name == before.shapes()[i].name);
      CHECK(now->shapes()[i].link == before.shapes()[i].link);
    }
    REQUIRE(now->pairs().size() == before.pairs().size());
    for (std::size_t k = 0; k < before.pairs().size(); ++k) CHECK(now->pairName(k) == before.pairName(k));
  }
}

TEST_CASE("humanoid capsules: the shapes constructor of SelfCollisionModel applies the model's rules") {
  const RobotModel<double> nao = makeBuiltinRobot<double>("nao");
  SelfCollisionOptions options;
  options.excluded_pairs = alwaysCollidingPairs(nao, options, 200);
  // The model's own shapes given explicitly: the same model.
  std::vector<SelfCollisionShape<double>> own;
  for (std::size_t l = 0; l < nao.links().size(); ++l) {
    for (const auto& s : nao.links()[l].collisions) own.push_back({s.name, static_cast<int>(l), s.capsule_L});
  }
  const SelfCollisionModel<double> a(nao, options), b(nao, own, options);
  REQUIRE(a.pairs().size() == b.pairs().size());
  for (std::size_t k = 0; k < a.pairs().size(); ++k) CHECK(a.pairName(k) == b.pairName(k));
  CHECK(alwaysCollidingPairs(nao, own, options, 200) == options.excluded_pairs);
  // min_radius drops thin shapes; a shape on an unknown link or with a bad radius throws.
  auto thin = own;
  thin[0].capsule_L.radius = 0.001;
  CHECK(SelfCollisionModel<double>(nao, thin).shapes().size() == SelfCollisionModel<double>(nao, own).shapes().size() - 1);
  auto bad = own;
  bad[0].link = static_cast<int>(nao.links().size());
  CHECK_THROWS_WITH_AS(SelfCollisionModel<double>(nao, bad), doctest::Contains("expected a link index"), InvalidArgument);
  bad = own;
  bad[0].capsule_L.radius = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(SelfCollisionModel<double>(nao, bad), doctest::Contains(own[0].name.c_str()), InvalidArgument);
  options.excluded_pairs = {{own[0].name, "no_such_shape"}};
  CHECK_THROWS_WITH_AS(SelfCollisionModel<double>(nao, own, options), doctest::Contains("no_such_shape"), InvalidArgument);
}

TEST_CASE("humanoid capsules: options are checked, naming the field and value") {
  const RobotModel<double> nao = makeBuiltinRobot<double>("nao");
  const HumanoidBinding binding = bindHumanoid(nao);
  const auto rejects = [&](auto change, const char* field) {
    CAPTURE(field);
    HumanoidCapsuleOptions options;
    change(options);
    CHECK_THROWS_WITH_AS(humanoidCollisionShapes(nao, binding, options), doctest::Contains(field), InvalidArgument);
  };
  rejects([](HumanoidCapsuleOptions& o) { o.min_radius = -0.01; }, "HumanoidCapsuleOptions::min_radius (got -0.01");
  rejects([](HumanoidCapsuleOptions& o) { o.radius_fraction = 0; }, "HumanoidCapsuleOptions::radius_fraction (got 0");
  rejects([](HumanoidCapsuleOptions& o) { o.radius_fraction = 1.5; }, "HumanoidCapsuleOptions::radius_fraction (got 1.5");
  rejects([](HumanoidCapsuleOptions& o) { o.min_fitted_radius = 0; }, "HumanoidCapsuleOptions::min_fitted_radius (got 0");
  rejects([](HumanoidCapsuleOptions& o) { o.max_fitted_radius = 0.01; }, "HumanoidCapsuleOptions::max_fitted_radius (got 0.01");
  rejects([](HumanoidCapsuleOptions& o) { o.torso_radius_fraction = std::nan(""); }, "HumanoidCapsuleOptions::torso_radius_fraction");
  rejects([](HumanoidCapsuleOptions& o) { o.pelvis_radius_fraction = 2; }, "HumanoidCapsuleOptions::pelvis_radius_fraction (got 2");
  CHECK_NOTHROW(HumanoidCapsuleOptions{}.validate());
}

TEST_CASE_TEMPLATE("humanoid capsules: float and double agree on the G1", Scalar, float, double) {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto path = data_dir / "urdf" / "unitree_g1_29dof_rev_1_0.urdf";
  const RobotModel<Scalar> model = loadUrdf<Scalar>(path).model;
  const RobotModel<double> reference = loadUrdf<double>(path).model;
  const auto shapes = humanoidCollisionShapes(model, bindHumanoid(model));
  const auto expected = humanoidCollisionShapes(reference, bindHumanoid(reference));
  REQUIRE(shapes.size() == expected.size());
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    CHECK(shapes[i].name == expected[i].name);
    CHECK((shapes[i].capsule_L.a.template cast<double>() - expected[i].capsule_L.a).norm() < 1e-5);
    CHECK((shapes[i].capsule_L.b.template cast<double>() - expected[i].capsule_L.b).norm() < 1e-5);
    CHECK(std::abs(static_cast<double>(shapes[i].capsule_L.radius) - expected[i].capsule_L.radius) < 1e-6);
  }
}

}  // namespace humanoid_capsules_test
