// The table of methods (app/methods.hpp): what it builds is the method's own mapper, bit for bit
// (each case below builds the reference by hand, from the mapper's headers alone), the type-erased
// frame path allocates nothing, and every refusal names the method's robots or the settings it
// takes.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <retarget/app/methods.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/robots/builtin.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

static_assert(isMapper<app::MethodMapper>, "a table-built mapper has the mapper shape");
static_assert(reportsWanted<app::MethodMapper>, "and reports its wanted values");

namespace {

struct Case {
  std::string method;
  std::string robot;
  app::MethodSettings settings;
  // The same mapper built by hand: its angles and statuses over `motion`.
  std::function<MappedMotion<double>(const RobotModel<double>&, const SkeletonMotion<double>&)> reference;
};

template <typename M>
MappedMotion<double> mapped(M&& mapper, const SkeletonMotion<double>& motion) {
  return mapMotion(mapper, motion);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

app::MethodSettings with(const std::function<void(app::MethodSettings&)>& set) {
  app::MethodSettings s;
  set(s);
  return s;
}

}  // namespace

TEST_CASE("methods: the table builds each method's own mapper, bit for bit, allocation-free per frame") {
  const SkeletonMotion<double> motion = demoMotion("wave", DemoMotionOptions{30.0, 2.0, 1.75});
  std::vector<Case> cases;
  cases.push_back({"ga-lvvj", "nao", {}, [](const RobotModel<double>& m, const SkeletonMotion<double>& x) {
                     return mapped(GaLvvjMapper<double>(m, naoGaLvvjMap()), x);
                   }});
  cases.push_back({"ga-lvvj", "nao", with([](app::MethodSettings& s) { s.trunk_lean = true; }),
                   [](const RobotModel<double>& m, const SkeletonMotion<double>& x) {
                     GaLvvjOptions o;
                     o.trunk_lean = true;
                     return mapped(GaLvvjMapper<double>(m, naoGaLvvjMap(), o), x);
                   }});
  cases.push_back({"ga-lvvj", "nao", with([](app::MethodSettings& s) { s.whole_body = true; }),
                   [](const RobotModel<double>& m, const SkeletonMotion<double>& x) {
                     return mapped(
                         WholeBody<GaLvvjMapper<double>>(
                             m, GaLvvjMapper<double>(m, naoGaLvvjMap(), wholeBodyGaLvvjOptions()), naoBalanceFeet()),
                         x);
                   }});
  cases.push_back({"humanoid", "g1", {}, [](const RobotModel<double>& m, const SkeletonMotion<double>& x) {
                     return mapped(HumanoidMapper<double>(m, bindHumanoid(m)), x);
                   }});
  cases.push_back({"humanoid", "h1", with([](app::MethodSettings& s) { s.whole_body = true; }),
                   [](const RobotModel<double>& m, const SkeletonMotion<double>& x) {
                     const HumanoidBinding b = bindHumanoid(m);
                     return mapped(
                         WholeBody<HumanoidMapper<double>>(m, HumanoidMapper<double>(m, b), humanoidBalanceFeet(m, b)),
                         x);
                   }});
  cases.push_back({"triangle", "tangy", {}, [](const RobotModel<double>& m, const SkeletonMotion<double>& x) {
                     return mapped(TriangleMapper<double>(m, *triangleMapFor(m)), x);
                   }});
  for (const char* name : {"fabrik", "pic", "pics"}) {
    const std::string method = name;
    cases.push_back({method, "baxter", with([](app::MethodSettings& s) { s.softening = 2; }),
                     [method](const RobotModel<double>& m, const SkeletonMotion<double>& x) {
                       PicOptions o;
                       o.algorithm = method == "fabrik" ? PicAlgorithm::kFabrik
                                     : method == "pic"  ? PicAlgorithm::kPic
                                                        : PicAlgorithm::kPics;
                       o.softening = 2;
                       o.smoothing_alpha = 0.5;  // seed 004 Section IV's input smoothing
                       return mapped(PicMapper<double>(m, *picMapFor(m), o), x);
                     }});
  }
  cases.push_back({"pf", "pepper", with([](app::MethodSettings& s) {
                     s.particles = 40;
                     s.seed = 9;
                     s.pf_noise = 0.03;
                   }),
                   [](const RobotModel<double>& m, const SkeletonMotion<double>& x) {
                     ParticleFilterOptions o;
                     o.particles = 40;
                     o.seed = 9;
                     o.noise = 0.03;
                     return mapped(JointSpaceParticleFilter<double>(m, *virtualSkeletonMapFor(m), o), x);
                   }});

  for (const Case& c : cases) {
    CAPTURE(c.method);
    CAPTURE(c.robot);
    const RobotModel<double> model = makeBuiltinRobot(c.robot);
    CHECK(app::methodRefusal(c.method, model, c.settings).empty());
    const std::unique_ptr<app::MethodMapper> mapper = app::makeMethodMapper(c.method, model, c.settings);
    CHECK(mapper->method() == c.method);
    CHECK_FALSE(mapper->takesChannels());
    CHECK((mapper->wholeBodyReport() != nullptr) == c.settings.whole_body);
    const MappedMotion<double> got = mapMotion(*mapper, motion);
    const MappedMotion<double> want = c.reference(model, motion);
    CHECK(got.q == want.q);
    REQUIRE(got.status.size() == want.status.size());
    for (std::size_t k = 0; k < got.status.size(); ++k) CHECK(got.status[k] == want.status[k]);
    CHECK(got.clamped_worst == want.clamped_worst);
    // The frame path through the table allocates nothing.
    Eigen::VectorXd q(model.nq());
    mapper->reset();
    (void)mapper->map(motion.frames[0], q);
    test::NoAllocationScope scope;
    for (std::size_t k = 1; k < motion.size(); ++k) (void)mapper->map(motion.frames[k], q);
    CHECK(scope.allocations() == 0);
  }
}

TEST_CASE("methods: Euler/BVH reads channels through the table as EulerMapper does") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion bvh = readBvh((data_dir / "bvh" / "cmu_skeleton31_deepmotionediting_example.bvh").string());
  const RobotModel<double> inmoov = makeBuiltinRobot("inmoov");
  const std::unique_ptr<app::MethodMapper> mapper = app::makeMethodMapper("euler", inmoov, {}, &bvh);
  CHECK(mapper->takesChannels());
  EulerMapper<double> reference(inmoov, bvh, inmoovEulerMap(bvh));
  CHECK(mapper->mapBvh(bvh).q == mapMotion(reference, bvh).q);
  // A skeleton frame is not its input: an honest status, the output untouched.
  Eigen::VectorXd q = Eigen::VectorXd::Constant(inmoov.nq(), 0.25);
  CHECK(mapper->map(SkeletonFrame<double>{}, q).has(StatusCode::kInvalidInput));
  CHECK(q == Eigen::VectorXd::Constant(inmoov.nq(), 0.25));
  // And a skeleton method has no BVH path.
  const RobotModel<double> tangy = makeBuiltinRobot("tangy");
  CHECK_THROWS_AS(app::makeMethodMapper("triangle", tangy, {})->mapBvh(bvh), InvalidArgument);
  CHECK_THROWS_AS(app::makeMethodMapper("euler", inmoov, {}, nullptr), InvalidArgument);
}

TEST_CASE("methods: every refusal says why, naming the robot or the methods a setting goes with") {
  const RobotModel<double> baxter = makeBuiltinRobot("baxter");
  const RobotModel<double> nao = makeBuiltinRobot("nao");
  const RobotModel<double> pepper = makeBuiltinRobot("pepper");
  // Each method on a robot it has no map for: the refusal names the robot.
  for (const app::Method& method : app::methods()) {
    CAPTURE(method.name);
    CHECK_FALSE(method.description.empty());
    CHECK_FALSE(method.robots.empty());
    if (method.name == "pic" || method.name == "pics" || method.name == "fabrik") {
      CHECK(contains(app::methodRefusal(method.name, makeBuiltinRobot("inmoov"), {}), "inmoov"));
    } else if (method.name == "humanoid") {
      // Baxter binds as an upper body; standing it on its feet is what it cannot.
      app::MethodSettings standing;
      standing.whole_body = true;
      CHECK(app::methodRefusal(method.name, baxter, {}).empty());
      CHECK(contains(app::methodRefusal(method.name, baxter, standing), "baxter"));
    } else {
      CHECK(contains(app::methodRefusal(method.name, baxter, {}), "baxter"));
    }
  }
  CHECK(contains(app::methodRefusal("warp", nao, {}), "unknown method 'warp' (known: ga-lvvj, humanoid"));
  app::MethodSettings whole_body;
  whole_body.whole_body = true;
  CHECK(app::methodRefusal("pic", nao, whole_body) ==
        "the whole-body pipeline (whole-body) goes with ga-lvvj and humanoid only");
  CHECK(contains(app::methodRefusal("ga-lvvj", pepper, whole_body), "no sole frames"));
  app::MethodSettings lean;
  lean.trunk_lean = true;
  CHECK(app::methodRefusal("triangle", nao, lean) == "trunk-lean goes with ga-lvvj only");
  CHECK(contains(app::methodRefusal("ga-lvvj", pepper, lean), "no feet to lean on"));
  CHECK(contains(app::methodRefusal("gpdm-pf", nao, {}), "needs --model"));
  CHECK_THROWS_WITH_AS(app::makeMethodMapper("triangle", baxter, {}), doctest::Contains("no triangle map fits robot"),
                       InvalidArgument);
}
