// PIC / PICs / FABRIK mapper (seed 004) on Baxter and YuMi: maps for every built-in arm robot,
// the real Kinect recordings and the demo arm motions (finite, within limits, honest statuses),
// the temporal-continuity window, and the metrics Pacc / PO (Eqs. 4, 5).
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <sstream>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/metrics/arm_imitation.hpp>
#include <retarget/robots/baxter.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/yumi.hpp>

#include "support/floors.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

struct Named {
  std::string name;
  SkeletonMotion<double> motion;
};

std::vector<Named> armMotions() {
  std::vector<Named> out;
  for (const char* name : {"wave", "arms-raise", "arm-circles", "fold-arms"}) out.push_back({name, demoMotion(name)});
  if (const auto data = testDataDir()) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(*data / "kinect")) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    CHECK(files.size() == 7);  // MANIFEST.md: 7 Kinect v2 recordings (5 LabanotationSuite, 2 Keraal)
    for (const auto& f : files) out.push_back({f.filename().string(), readKinect(f.string())});
  }
  return out;
}

PicOptions optionsFor(PicAlgorithm a) {
  PicOptions o;
  o.algorithm = a;
  o.softening = 1;
  o.smoothing_alpha = 0.5;
  return o;
}

}  // namespace

TEST_CASE("PIC maps: Baxter, YuMi, NAO, Pepper resolve; picArmFromChain builds any chain") {
  const auto baxter = makeBaxter<double>();
  const auto yumi = makeYumi<double>();
  const auto nao = makeNao<double>();
  const auto pepper = makePepper<double>();
  for (const RobotModel<double>* model : {&baxter, &yumi, &nao, &pepper}) {
    const auto map = picMapFor(*model);
    REQUIRE(map);
    CHECK(map->arms.size() == 2);
    PicMapper<double> mapper(*model, *map);
    CHECK(mapper.armCount() == 2);
  }
  // Baxter's full chain of joint positions from s1 to w1, intermediate joints included.
  const PicArmMap arm = picArmFromChain(baxter, ArmSide::kLeft, "left_s0", "left_s1", "left_e1", "left_w1", true);
  CHECK(arm.points == std::vector<std::string>{"left_s1", "left_e0", "left_e1", "left_w0", "left_w1"});
  CHECK(arm.elbow == 2);
  CHECK(arm.fit_joints == std::vector<std::string>{"left_s0", "left_s1", "left_e0", "left_e1", "left_w0", "left_w1"});
  PicMap full{"baxter-full", {arm}};
  PicMapper<double> mapper(baxter, full);
  SkeletonMotion<double> wave = demoMotion("wave");
  const auto mapped = mapMotion(mapper, wave);
  CHECK(mapped.q.allFinite());
  // Bad maps are refused, naming the field.
  PicMap bad = baxterPicMap();
  bad.arms[0].elbow = 0;
  CHECK_THROWS_WITH_AS(PicMapper<double>(baxter, bad), doctest::Contains("elbow (got 0"), InvalidArgument);
  bad = baxterPicMap();
  bad.arms[1].fit_joints.push_back("head_nod");
  CHECK_THROWS_WITH_AS(PicMapper<double>(baxter, bad), doctest::Contains("head_nod"), InvalidArgument);
  CHECK_THROWS_WITH_AS(picArmFromChain(baxter, ArmSide::kLeft, "left_s0", "left_e1", "left_s1", "left_w1"),
                       doctest::Contains("do not lie on one chain"), InvalidArgument);
}

TEST_CASE("PIC constraints: OUT always holds, OUT wins over IN (paper's loop); the final pass forces both") {
  const auto baxter = makeBaxter<double>();
  const auto yumi = makeYumi<double>();
  // The built-in maps (one link per arm segment) and Baxter's full chain of joint positions,
  // where IN and OUT constrain different links.
  PicMap full{"baxter", {picArmFromChain(baxter, ArmSide::kLeft, "left_s0", "left_s1", "left_e1", "left_w1", true),
                         picArmFromChain(baxter, ArmSide::kRight, "right_s0", "right_s1", "right_e1", "right_w1", true)}};
  struct Case {
    const RobotModel<double>* model;
    PicMap map;
  };
  for (const Case& c : {Case{&baxter, *picMapFor(baxter)}, Case{&yumi, *picMapFor(yumi)}, Case{&baxter, full}}) {
    for (PicAlgorithm a : {PicAlgorithm::kPic, PicAlgorithm::kPics}) {
      for (bool force : {false, true}) {
        PicOptions options = optionsFor(a);
        options.fabrik.final_octant_pass = force;
        PicMapper<double> mapper(*c.model, c.map, options);
        Eigen::VectorXd q(c.model->nq());
        int checked = 0, in_violated = 0;
        for (const char* name : {"wave", "arms-raise", "arm-circles"}) {
          const auto motion = demoMotion(name);
          mapper.reset();
          for (const auto& frame : motion.frames) {
            (void)mapper.map(frame, q);
            for (int arm = 0; arm < mapper.armCount(); ++arm) {
              const auto& chain = mapper.solvedChain(arm);
              const int elbow = c.map.arms[static_cast<std::size_t>(arm)].elbow;
              const auto constraints = picConstraints(mapper.humanPose(arm), chain.count, elbow,
                                                      mapper.softened(arm) ? mapper.options().softening : 0);
              for (int i = 0; i + 1 < chain.count; ++i) {
                const Eigen::Vector3d d = chain.p[static_cast<std::size_t>(i + 1)] - chain.p[static_cast<std::size_t>(i)];
                const auto k = static_cast<std::size_t>(i);
                if (force) {
                  // OUT ∩ mirror(IN) where they intersect, else OUT.
                  const OctantSet both = static_cast<OctantSet>(constraints.out[k] & mirroredOctants(constraints.in[k]));
                  CHECK(inOctants<double>(d, both == kNoOctants ? constraints.out[k] : both));
                } else {
                  CHECK(inOctants<double>(d, constraints.out[k]));  // the forward pass enforces OUT last
                  in_violated += inOctants<double>(Eigen::Vector3d(-d), constraints.in[k]) ? 0 : 1;
                }
                ++checked;
              }
            }
          }
        }
        CHECK(checked > 100);
        // IN = mirror(OUT) of the same link when each arm segment is one link: no conflict. On the
        // full chain the paper's loop lets OUT override IN (Section IV-C); the final pass does not.
        if (!force && c.map.arms[0].points.size() > 3) {
          MESSAGE(toString(a) << " on Baxter's full chain: IN overridden in " << in_violated << " of " << checked << " links");
          CHECK(in_violated > 0);
        }
      }
    }
  }
}

// A frame with the human's arms set to upper arm u and forearm f (m, canonical frame) on a
// standing base pose.
SkeletonFrame<double> armsAt(SkeletonFrame<double> frame, const Eigen::Vector3d& u, const Eigen::Vector3d& f) {
  for (ArmSide side : {ArmSide::kLeft, ArmSide::kRight}) {
    const auto j = armJoints(side);
    const Eigen::Vector3d mirror(1, side == ArmSide::kLeft ? 1 : -1, 1);
    const Eigen::Vector3d p_S = frame.position(j[0]);
    frame.position(j[1]) = p_S + u.cwiseProduct(mirror);
    frame.position(j[2]) = p_S + (u + f).cwiseProduct(mirror);
  }
  return frame;
}

TEST_CASE("PICs softens only the frames PIC cannot solve; the fit residual is reported") {
  const auto baxter = makeBaxter<double>();
  const auto yumi = makeYumi<double>();
  const SkeletonFrame<double> base = demoMotion("wave").frames[0];
  std::mt19937 rng(34);
  std::normal_distribution<double> n(0, 1);
  for (const RobotModel<double>* model : {&baxter, &yumi}) {
    const PicMap map = *picMapFor(*model);
    PicMapper<double> pic(*model, map, optionsFor(PicAlgorithm::kPic));
    PicMapper<double> pics(*model, map, optionsFor(PicAlgorithm::kPics));
    PicOptions always_options = optionsFor(PicAlgorithm::kPics);
    always_options.soften_always = true;
    PicMapper<double> always(*model, map, always_options);
    Eigen::VectorXd q_pic(model->nq()), q_pics(model->nq()), q_always(model->nq());
    int solved = 0, softened = 0, fit_failed = 0;
    std::optional<std::pair<Eigen::Vector3d, Eigen::Vector3d>> unreachable;
    for (int trial = 0; trial < 200; ++trial) {
      // Calibrate on the base pose, then one constructed frame: random arm directions.
      for (PicMapper<double>* m : {&pic, &pics, &always}) {
        m->reset();
        for (int k = 0; k < 10; ++k) (void)m->map(base, q_pic);
      }
      const Eigen::Vector3d u = 0.28 * Eigen::Vector3d(n(rng), n(rng), n(rng)).normalized();
      const Eigen::Vector3d f = 0.26 * Eigen::Vector3d(n(rng), n(rng), n(rng)).normalized();
      const SkeletonFrame<double> frame = armsAt(base, u, f);
      const Status s_pic = pic.map(frame, q_pic);
      const Status s_pics = pics.map(frame, q_pics);
      (void)always.map(frame, q_always);
      bool pic_failed = false;
      for (int a = 0; a < pic.armCount(); ++a) {
        const bool failed = !pic.solveResult(a).converged;
        pic_failed = pic_failed || failed;
        CHECK_FALSE(pic.softened(a));  // PIC never softens
        CHECK(pics.softened(a) == failed);
        CHECK(always.softened(a));
        // The residual is reported honestly: the status follows it.
        CHECK(pics.fitFailed(a) == (pics.residual(a) > pics.options().max_fit_residual));
        fit_failed += pics.fitFailed(a) ? 1 : 0;
        if (pics.fitFailed(a) && !unreachable) unreachable.emplace(u, f);
        if (pics.fitFailed(a)) CHECK(s_pics.has(StatusCode::kNotConverged));
      }
      if (!pic_failed) {
        // Where PIC succeeds PICs is PIC, bit for bit.
        CHECK(q_pics == q_pic);
        CHECK(s_pics == s_pic);
        ++solved;
      } else {
        ++softened;
      }
    }
    MESSAGE(model->name() << ": PIC solved " << solved << " of 200 constructed frames, PICs softened " << softened
                          << "; fit residual above the limit in " << fit_failed << " arm solves");
    CHECK(solved > 10);
    CHECK(softened > 10);
    // A pose the arm cannot realise (the first one the sweep met), mapped again from a fresh
    // start: the residual and the status say so, the angles stay within the limits.
    REQUIRE(unreachable);
    PicMapper<double> mapper(*model, map, optionsFor(PicAlgorithm::kPics));
    Eigen::VectorXd q(model->nq());
    for (int k = 0; k < 10; ++k) (void)mapper.map(base, q);
    const Status s = mapper.map(armsAt(base, unreachable->first, unreachable->second), q);
    MESSAGE(model->name() << ", upper arm " << unreachable->first.transpose() << ", forearm " << unreachable->second.transpose()
                          << ": residual " << mapper.residual(0) << " m / " << mapper.residual(1) << " m");
    CHECK((mapper.fitFailed(0) || mapper.fitFailed(1)));
    CHECK(std::max(mapper.residual(0), mapper.residual(1)) > mapper.options().max_fit_residual);
    CHECK(s.has(StatusCode::kNotConverged));
    CHECK(withinLimits(*model, q));
  }
}

// Pacc (15 deg, the link-direction reading: metrics/pose_accuracy.hpp) of FABRIK, PIC and PICs
// K = 1 measured on each file (docs/methods/pic.md, the table of this test; re-measured when the
// reading changed from the elbow angle, under which most of the demo motions scored 1.000 for
// every method). Each is held to relativeFloor (support/floors.hpp): the error 1 - Pacc may
// grow by at most 25 %, and the score may lose at most 0.05 and at most a quarter of itself, so
// the low scores of the close-range recording (0.011-0.100) have floors above zero too.
//
// These are regression floors, not a claim of generalisation. No constant that enters Pacc was
// chosen on these files as far as the history shows (the fit's 12 steps, 2 cm damping and elbow
// weight 0.5 date from the first version, 258439a, with no record of a choice; the 15 deg epsilon
// is the paper's lost value, only its sign stability at 10-20 deg was looked at), so
// tests/tuning_split.md has no row for them. But the files are not unseen: every version of PIC
// since 258439a was run and reported on all of them, and they are the only recordings there are.
// `pic_max_fit_residual` was set from the residuals on them (its row); it flags frames and does
// not change the written angles, so it does not enter Pacc.
const std::map<std::string, std::array<double, 3>> kMeasuredPacc = {
    {"baxter/wave", {0.055, 0.061, 0.061}},
    {"baxter/arms-raise", {0.635, 0.746, 0.707}},
    {"baxter/arm-circles", {0.497, 0.508, 0.497}},
    {"baxter/fold-arms", {0.967, 0.956, 0.972}},
    {"baxter/keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", {0.466, 0.290, 0.326}},
    {"baxter/keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", {0.482, 0.663, 0.637}},
    {"baxter/laban_ges01_wavehand_kinect2.csv", {0.260, 0.279, 0.253}},
    {"baxter/laban_ges03_drawlines_kinect2.csv", {0.000, 0.324, 0.380}},
    {"baxter/laban_ges04_comehere_kinect2.csv", {0.099, 0.128, 0.128}},
    {"baxter/laban_ges06_chickenwing_kinect2.csv", {0.087, 0.344, 0.263}},
    {"baxter/laban_kinectreader_joints_closerange_kinect2.csv", {0.240, 0.245, 0.280}},
    {"yumi/wave", {0.116, 0.116, 0.116}},
    {"yumi/arms-raise", {0.785, 0.829, 0.829}},
    {"yumi/arm-circles", {0.199, 0.221, 0.199}},
    {"yumi/fold-arms", {0.177, 0.171, 0.171}},
    {"yumi/keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", {0.472, 0.585, 0.472}},
    {"yumi/keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", {0.321, 0.503, 0.482}},
    {"yumi/laban_ges01_wavehand_kinect2.csv", {0.675, 0.513, 0.734}},
    {"yumi/laban_ges03_drawlines_kinect2.csv", {0.390, 0.516, 0.587}},
    {"yumi/laban_ges04_comehere_kinect2.csv", {0.360, 0.506, 0.453}},
    {"yumi/laban_ges06_chickenwing_kinect2.csv", {0.575, 0.450, 0.444}},
    {"yumi/laban_kinectreader_joints_closerange_kinect2.csv", {0.305, 0.720, 0.372}},
};

// The paper's per-file finding (PIC more accurate than FABRIK), as a rule fixed before looking at
// which files PIC wins: over the (robot, recording) pairs where the two Pacc differ, PIC must be
// above FABRIK on so many that a one-sided sign test rejects "either is as likely to be above" at
// 5 %, i.e. P(X >= wins) < 0.05 for X ~ Binomial(pairs, 1/2). The pairs are not independent (one
// recording on two robots), so this is a lenient test of the claim; it replaces a list of the
// files PIC had already won on. It runs on the live values of both methods, so a PIC that got
// worse or a FABRIK that got better both count.
constexpr double kSignTestLevel = 0.05;

// P(X >= k) for X ~ Binomial(n, 1/2).
double signTestTail(int n, int k) {
  double tail = 0, choose = 1;  // C(n, 0)
  for (int i = 0; i <= n; ++i) {
    if (i >= k) tail += choose;
    choose = choose * (n - i) / (i + 1);
  }
  return tail / std::pow(2.0, n);
}

// Both methods "reach" the target on a frame when the robot's wrist is within this of the placed
// human wrist for every arm (m): PIC's and FABRIK's tolerance is 1 mm, the fit to the robot's
// joints adds a little.
constexpr double kReachedWrist = 0.005;

// FABRIK's and PIC's Pacc of one motion, restricted to the frames on which both reach the wrist.
struct ReachedBoth {
  int frames = 0;
  std::array<int, 2> link_accurate{0, 0}, elbow_accurate{0, 0};
  int pic_closer = 0, fabrik_closer = 0;
  int link_verdicts_differ = 0, elbow_verdicts_differ = 0;  // frames accurate by one method only
  int elbow_differs = 0;  // frames whose elbow-angle errors differ by more than 1 deg
  double largest_elbow_difference = 0;
  void add(const ArmImitation& fabrik, const ArmImitation& pic) {
    const double epsilon = PoseAccuracyOptions{}.threshold, one_degree = M_PI / 180.0;
    for (std::size_t k = 0; k < fabrik.mse.size(); ++k) {
      if (!(fabrik.wrist_miss[k] < kReachedWrist && pic.wrist_miss[k] < kReachedWrist)) continue;
      if (std::isnan(fabrik.mse_link_directions[k]) || std::isnan(pic.mse_link_directions[k])) continue;
      ++frames;
      link_accurate[0] += fabrik.mse_link_directions[k] < epsilon ? 1 : 0;
      link_accurate[1] += pic.mse_link_directions[k] < epsilon ? 1 : 0;
      elbow_accurate[0] += fabrik.mse_elbow_angle[k] < epsilon ? 1 : 0;
      elbow_accurate[1] += pic.mse_elbow_angle[k] < epsilon ? 1 : 0;
      link_verdicts_differ += (fabrik.mse_link_directions[k] < epsilon) != (pic.mse_link_directions[k] < epsilon) ? 1 : 0;
      elbow_verdicts_differ += (fabrik.mse_elbow_angle[k] < epsilon) != (pic.mse_elbow_angle[k] < epsilon) ? 1 : 0;
      largest_elbow_difference = std::max(
          largest_elbow_difference, std::abs(std::sqrt(fabrik.mse_elbow_angle[k]) - std::sqrt(pic.mse_elbow_angle[k])));
      const double f = std::sqrt(fabrik.mse_link_directions[k]), p = std::sqrt(pic.mse_link_directions[k]);
      elbow_differs += std::abs(std::sqrt(fabrik.mse_elbow_angle[k]) - std::sqrt(pic.mse_elbow_angle[k])) > one_degree ? 1 : 0;
      pic_closer += p < f - one_degree ? 1 : 0;
      fabrik_closer += f < p - one_degree ? 1 : 0;
    }
  }
};

// One run of a method over a motion, with what the mapper reported per frame.
struct Run {
  Eigen::MatrixXd q;
  int not_converged = 0, degenerate = 0, fit_failed = 0, softened = 0;
  double max_residual = 0;
  std::vector<double> residuals;  // per arm and frame with a solve
  double us = 0;
};

Run runMapper(const RobotModel<double>& model, const PicMap& map, const SkeletonMotion<double>& motion, const PicOptions& options) {
  PicMapper<double> mapper(model, map, options);
  Run run;
  run.q.resize(static_cast<Eigen::Index>(motion.size()), model.nq());
  Eigen::VectorXd qk(model.nq());
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const Status s = mapper.map(motion.frames[k], qk);
    run.q.row(static_cast<Eigen::Index>(k)) = qk.transpose();
    run.not_converged += s.has(StatusCode::kNotConverged) ? 1 : 0;
    run.degenerate += s.has(StatusCode::kDegenerateInput) ? 1 : 0;
    CHECK_FALSE(s.has(StatusCode::kInvalidInput));
    bool failed = false, softened = false;
    for (int arm = 0; arm < mapper.armCount(); ++arm) {
      run.max_residual = std::max(run.max_residual, mapper.residual(arm));
      if (!s.has(StatusCode::kDegenerateInput)) run.residuals.push_back(mapper.residual(arm));
      failed = failed || mapper.fitFailed(arm);
      softened = softened || mapper.softened(arm);
    }
    run.fit_failed += failed ? 1 : 0;
    run.softened += softened ? 1 : 0;
  }
  run.us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() /
           static_cast<double>(std::max<std::size_t>(1, motion.size()));
  return run;
}

TEST_CASE("FABRIK / PIC / PICs on every Kinect recording and demo arm motion, Baxter and YuMi") {
  const auto baxter = makeBaxter<double>();
  const auto yumi = makeYumi<double>();
  const auto motions = armMotions();
  if (!testDataDir()) retarget::test::recordMissingData("the Kinect recordings");
  std::ostringstream table;
  table << std::fixed << std::setprecision(3);
  table << "| motion | robot | method | Pacc | Pacc 10/20/30 deg | pose err (rad) | PO (frames) | human PO | PO all | human PO all | step (rad) | residual p95 / max (m) | fit failed | softened | us |\n";
  table << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  const auto deg2 = [](double d) { return (d * M_PI / 180) * (d * M_PI / 180); };
  // Methods: FABRIK, PIC, PICs K = 1..3 with Section I's trigger (softening after PIC fails), PICs
  // K = 1..3 with Section III-B3's (soften_always: every solve, per link outside its region).
  constexpr int kMethods = 8;
  std::map<std::string, std::array<double, kMethods>> sums;  // robot -> sum of Pacc over the recordings
  std::map<std::string, std::array<double, 2>> fabrik_pic;  // robot/recording -> live Pacc of FABRIK, PIC
  // Frames on which FABRIK and PIC both put the wrist on the placed human wrist (within
  // kReachedWrist): their accurate-frame counts under each reading, and where each is closer.
  ReachedBoth reached;
  for (const RobotModel<double>* model : {&baxter, &yumi}) {
    const PicMap map = *picMapFor(*model);
    const WorkArea area = defaultWorkArea(map);
    for (const auto& named : motions) {
      std::optional<ArmImitation> fabrik;
      for (int method = 0; method < kMethods; ++method) {
        PicOptions options = optionsFor(method == 0 ? PicAlgorithm::kFabrik : method == 1 ? PicAlgorithm::kPic : PicAlgorithm::kPics);
        options.soften_always = method >= 5;
        options.softening = method < 5 ? std::max(1, method - 1) : method - 4;
        const std::string label = method < 2 ? toString(options.algorithm)
                                             : "pics K=" + std::to_string(options.softening) + (options.soften_always ? " always" : "");
        const Run run = runMapper(*model, map, named.motion, options);
        CHECK(run.q.allFinite());
        for (Eigen::Index k = 0; k < run.q.rows(); ++k) CHECK(withinLimits(*model, Eigen::VectorXd(run.q.row(k).transpose())));
        const ArmImitation e = evaluateArmImitation(*model, map, named.motion, run.q, area);
        if (method == 0) fabrik = e;
        if (method == 1) reached.add(*fabrik, e);
        const std::string key = model->name() + "/" + named.name;
        if (named.name.find('.') != std::string::npos) sums[model->name()][static_cast<std::size_t>(method)] += e.pacc;
        if (method < 3) {
          const auto it = kMeasuredPacc.find(key);
          REQUIRE(it != kMeasuredPacc.end());
          const double measured = it->second[static_cast<std::size_t>(method)];
          INFO(key << " " << label << ": Pacc " << e.pacc << ", measured " << measured);
          // A score measured at 0 has no floor below it (FABRIK on Baxter drawlines, 1 of the 66).
          if (measured > 0) RETARGET_CHECK_FLOOR(e.pacc, measured);
          if (named.name.find('.') != std::string::npos && method < 2) fabrik_pic[key][static_cast<std::size_t>(method)] = e.pacc;
        }
        // Degenerate input (an arm held) stays the exception on these recordings.
        CHECK(run.degenerate <= static_cast<int>(named.motion.size()) / 4);
        std::vector<double> r = run.residuals;
        std::sort(r.begin(), r.end());
        const double p95 = r.empty() ? 0 : r[static_cast<std::size_t>(0.95 * static_cast<double>(r.size() - 1))];
        table << "| " << named.name << " | " << model->name() << " | " << label << " | " << e.pacc << " | "
              << poseAccuracyAt(e.mse, deg2(10)) << " / " << poseAccuracyAt(e.mse, deg2(20)) << " / " << poseAccuracyAt(e.mse, deg2(30))
              << " | " << e.mean_pose_error << " | " << e.po << " (" << e.po_frames << ") | " << e.human_po << " | " << e.po_all
              << " | " << e.human_po_all << " | " << e.largest_joint_step << " | " << p95 << " / " << run.max_residual << " | "
              << run.fit_failed << " | " << run.softened << " | " << std::setprecision(1) << run.us << std::setprecision(3) << " |\n";
      }
    }
  }
  MESSAGE("\n" << table.str());
  // Pacc's two readings on the frames where both methods reach the wrist (seed 004 Section IV-B;
  // metrics/pose_accuracy.hpp): the elbow angle is the same for both there (a three-point chain
  // with fixed link lengths), so it cannot tell them apart; the link directions can.
  MESSAGE("frames where FABRIK and PIC both reach the placed wrist (within " << kReachedWrist * 1000 << " mm): "
          << reached.frames << "; accurate (15 deg) by link directions FABRIK " << reached.link_accurate[0] << ", PIC "
          << reached.link_accurate[1] << "; by elbow angle FABRIK " << reached.elbow_accurate[0] << ", PIC "
          << reached.elbow_accurate[1] << "; frames accurate by one method only: link directions "
          << reached.link_verdicts_differ << ", elbow angle " << reached.elbow_verdicts_differ
          << "; link-direction error lower by more than 1 deg: PIC on " << reached.pic_closer
          << " frames, FABRIK on " << reached.fabrik_closer << "; largest elbow-angle difference "
          << reached.largest_elbow_difference * 180 / M_PI << " deg, more than 1 deg on " << reached.elbow_differs
          << " frames");
  // At least 100 frames, so that the 1 % below is one frame or more. (A first version asked for
  // 1000 frames and a 5 deg bound on the largest elbow-angle difference before it ran; it found
  // 543 frames, most frames of these takes miss the wrist by more than 5 mm after the fit to the
  // joints, and 5.6 deg at a nearly straight arm, where the elbow angle is ill-conditioned in the
  // wrist distance. The bound on the accurate-frame counts below is the claim that matters.)
  CHECK(reached.frames >= 100);
  // The elbow angle's accurate-frame totals stay within 1 % (a frame near epsilon may fall
  // either side by the small difference the wrist tolerance leaves); the link directions' errors
  // differ by more than 1 deg on at least 10 % of the frames (below). Issue 53 first also asked
  // the link directions' totals to differ by more than 1 % (FABRIK 288 against PIC 276 then);
  // with the fit's continuity term (PicOptions::continuity_weight) they came within a frame (277,
  // 278; the verdicts differ on 5 of 530 frames) while the link-direction errors still differ by
  // more than 1 deg on 234 frames, mostly far from the 15 deg threshold. That check is gone: at
  // the threshold the two methods are now equally accurate on these frames, which the totals
  // report, not a reading blind to the elbow (the elbow angle's errors differ by more than 1 deg
  // on 14 frames, printed above).
  CHECK(std::abs(reached.elbow_accurate[0] - reached.elbow_accurate[1]) <= reached.frames / 100);
  CHECK(reached.pic_closer + reached.fabrik_closer >= reached.frames / 10);
  if (testDataDir()) {
    // The paper's headline (PIC and PICs above FABRIK in mean Pacc) on the 7 recordings.
    for (const auto& [robot, sum] : sums) {
      MESSAGE(robot << " mean Pacc over the recordings: fabrik " << sum[0] / 7 << ", pic " << sum[1] / 7 << ", pics K=1 "
                    << sum[2] / 7);
      // Fig. 7 (Pacc against the softening K) under both triggers, shown (docs/methods/pic.md).
      MESSAGE(robot << " Fig. 7, mean Pacc at K = 1, 2, 3: after a failed PIC (Section I) " << sum[2] / 7 << ", "
                    << sum[3] / 7 << ", " << sum[4] / 7 << "; every solve (Section III-B3, soften_always) "
                    << sum[5] / 7 << ", " << sum[6] / 7 << ", " << sum[7] / 7);
      CHECK(sum[1] > sum[0] + 0.03);
      CHECK(sum[2] > sum[0]);
    }
    // Per file: the sign test above. A tie is the same share of frames (both are k / N of the
    // same N counted frames), so anything below 1e-9 apart.
    int wins = 0, losses = 0;
    for (const auto& [key, pacc] : fabrik_pic) {
      if (std::abs(pacc[1] - pacc[0]) < 1e-9) continue;
      (pacc[1] > pacc[0] ? wins : losses) += 1;
      if (pacc[1] < pacc[0]) MESSAGE("PIC below FABRIK on " << key << ": " << pacc[1] << " vs " << pacc[0]);
    }
    const double p = signTestTail(wins + losses, wins);
    MESSAGE("PIC vs FABRIK over " << fabrik_pic.size() << " (robot, recording) pairs: above on " << wins << ", below on "
                                  << losses << ", tied on " << fabrik_pic.size() - static_cast<std::size_t>(wins + losses)
                                  << "; one-sided sign test p = " << p);
    CHECK(fabrik_pic.size() == 14);
    CHECK(p < kSignTestLevel);
  }
}

TEST_CASE("Temporal continuity: the transition window does not make the largest joint step worse") {
  const auto yumi = makeYumi<double>();
  const auto baxter = makeBaxter<double>();
  for (const RobotModel<double>* model : {&baxter, &yumi}) {
    for (const char* name : {"arm-circles", "wave", "fold-arms"}) {
      const auto motion = demoMotion(name);
      PicOptions plain = optionsFor(PicAlgorithm::kPic);
      PicOptions windowed = plain;
      windowed.transition_frames = 4;
      PicMapper<double> a(*model, *picMapFor(*model), plain), b(*model, *picMapFor(*model), windowed);
      const auto qa = mapMotion(a, motion), qb = mapMotion(b, motion);
      const double step_a = largestJointStep(qa.q), step_b = largestJointStep(qb.q);
      MESSAGE(model->name() << " " << std::string(name) << ": largest step " << step_a << " rad without, " << step_b
                            << " rad with a 4-frame window");
      CHECK(qb.q.allFinite());
      // The faded jump adds at most a fraction of a step; it removes whole jumps.
      CHECK(step_b <= 1.1 * step_a + 1e-3);
    }
  }
}

TEST_CASE("Pacc's link-direction reading: hand-derived values, only directions count, options validated") {
  const Eigen::Vector3d x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  // Shoulder links at 90 deg, wrist links equal: sqrt(((pi/2)^2 + 0) / 2) = pi / (2 sqrt 2).
  CHECK(armLinkDirectionError<double>(x, z, y, z).value_or(-1) == doctest::Approx(M_PI / (2 * std::sqrt(2.0))).epsilon(1e-12));
  // Both at 60 deg: 60 deg.
  const Eigen::Vector3d x60(0.5, std::sqrt(3.0) / 2, 0);
  CHECK(armLinkDirectionError<double>(x, x, x60, x60).value_or(-1) == doctest::Approx(M_PI / 3).epsilon(1e-12));
  // Lengths do not matter (the robot's links are not the human's); a zero link has no direction.
  CHECK(armLinkDirectionError<double>(0.3 * x, 0.25 * z, 2.0 * y, 7.0 * z).value_or(-1) ==
        doctest::Approx(M_PI / (2 * std::sqrt(2.0))).epsilon(1e-12));
  CHECK_FALSE(armLinkDirectionError<double>(Eigen::Vector3d::Zero(), z, y, z));
  CHECK_FALSE(armLinkDirectionError<double>(x, z, y, Eigen::Vector3d::Constant(std::nan(""))));
  // The same arm, bent at the elbow, turned about its shoulder-wrist axis: the elbow angles are
  // equal (the elbow-angle reading sees nothing), the link directions are not.
  const Eigen::Vector3d p_S(0, 0, 0), p_W(0.5, 0, 0), p_E1(0.25, 0.2, 0), p_E2(0.25, 0, 0.2);
  CHECK(*armPoseAngle<double>(p_S, p_E1, p_W) == doctest::Approx(*armPoseAngle<double>(p_S, p_E2, p_W)).epsilon(1e-12));
  CHECK(*armLinkDirectionError<double>(p_E1 - p_S, p_W - p_E1, p_E2 - p_S, p_W - p_E2) > 0.5);
  CHECK(PoseAccuracyOptions{}.reading == PoseAngleReading::kLinkDirections);
  PoseAccuracyOptions bad;
  bad.reading = static_cast<PoseAngleReading>(7);
  CHECK_THROWS_WITH_AS(bad.validate(), doctest::Contains("PoseAccuracyOptions::reading"), InvalidArgument);
}

TEST_CASE("Pose angle and accuracy (Eq. 4), area occlusion (Eq. 5): properties and a brute-force cross-check") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int n = 0; n < 200; ++n) {
    const Eigen::Vector3d s(u(rng), u(rng), u(rng)), w(u(rng), u(rng), u(rng));
    const auto same = shoulderWristDirectionAngle<double>(s, w, s, w);
    REQUIRE(same);
    CHECK(*same == doctest::Approx(0).epsilon(1e-12).scale(1));
    const Eigen::Matrix3d R = Eigen::AngleAxisd(u(rng) * 3, Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
    const Eigen::Vector3d s2(u(rng), u(rng), u(rng)), w2(u(rng), u(rng), u(rng));
    const auto a = shoulderWristDirectionAngle<double>(s, w, s2, w2);
    const auto b = shoulderWristDirectionAngle<double>(Eigen::Vector3d(R * s), Eigen::Vector3d(R * w), Eigen::Vector3d(R * s2), Eigen::Vector3d(R * w2));
    REQUIRE(a);
    REQUIRE(b);
    CHECK(*a == doctest::Approx(*b).epsilon(1e-9));
    CHECK(*a >= 0);
    CHECK(*a <= M_PI + 1e-12);
  }
  // The pose angle of one skeleton: 0 straight, pi/2 square, pi folded; invariant under a rigid
  // motion and a scale of the whole arm; blind to where the arm points (what FABRIK alone fixes).
  const Eigen::Vector3d o(0.1, 0.2, 0.3);
  CHECK(*armPoseAngle<double>(o, o + Eigen::Vector3d(0.3, 0, 0), o + Eigen::Vector3d(0.6, 0, 0)) == doctest::Approx(0).scale(1));
  CHECK(*armPoseAngle<double>(o, o + Eigen::Vector3d(0.3, 0, 0), o + Eigen::Vector3d(0.3, 0.2, 0)) == doctest::Approx(M_PI / 2));
  CHECK(*armPoseAngle<double>(o, o + Eigen::Vector3d(0.3, 0, 0), o + Eigen::Vector3d(0.1, 0, 0)) == doctest::Approx(M_PI));
  CHECK_FALSE(armPoseAngle<double>(o, o, o + Eigen::Vector3d(0.1, 0, 0)));
  for (int n = 0; n < 200; ++n) {
    const Eigen::Vector3d p_S(u(rng), u(rng), u(rng)), p_E(u(rng), u(rng), u(rng)), p_W(u(rng), u(rng), u(rng));
    const Eigen::Matrix3d R = Eigen::AngleAxisd(u(rng) * 3, Eigen::Vector3d(u(rng), u(rng), u(rng)).normalized()).toRotationMatrix();
    const Eigen::Vector3d t(u(rng), u(rng), u(rng));
    const double scale = 0.2 + std::abs(u(rng));
    const auto a = armPoseAngle<double>(p_S, p_E, p_W);
    const auto b = armPoseAngle<double>(Eigen::Vector3d(scale * R * p_S + t), Eigen::Vector3d(scale * R * p_E + t),
                                        Eigen::Vector3d(scale * R * p_W + t));
    REQUIRE(a);
    REQUIRE(b);
    CHECK(*a == doctest::Approx(*b).epsilon(1e-9));
    // Law of cosines: |S - W|^2 = |u|^2 + |f|^2 + 2 |u| |f| cos(theta) for the angle between u and f.
    const double nu = (p_E - p_S).norm(), nf = (p_W - p_E).norm();
    CHECK((p_W - p_S).squaredNorm() == doctest::Approx(nu * nu + nf * nf + 2 * nu * nf * std::cos(*a)).epsilon(1e-9));
  }
  // Area PO (Eq. 5) against a brute-force point grid: covered points lie under some link.
  RegionOfInterest roi;
  roi.p_BC = Eigen::Vector3d(0.5, 0.2, 0.0);
  roi.width = 0.4;
  roi.height = 0.3;
  OccludedArea area_po(roi);
  for (int n = 0; n < 100; ++n) {
    area_po.clear();
    std::vector<std::pair<Eigen::Vector2d, Eigen::Vector2d>> links;
    for (int l = 0; l < 3; ++l) {
      const Eigen::Vector3d a(u(rng) * 0.5 + 0.6, u(rng) * 0.5, u(rng)), b(u(rng) * 0.5 + 0.6, u(rng) * 0.5, u(rng));
      area_po.addLink(a, b);
      links.emplace_back(roi.project(a), roi.project(b));
    }
    int covered = 0, total = 0;
    for (int i = 0; i < 400; ++i) {
      for (int j = 0; j < 300; ++j) {
        const double x = (i + 0.5) * roi.width / 400, y = (j + 0.5) * roi.height / 300;
        bool under = false;
        for (const auto& [a, b] : links) {
          const double lo = std::min(a.x(), b.x()), hi = std::max(a.x(), b.x());
          if (x < lo || x > hi || hi - lo < 1e-12) continue;
          under = under || y <= a.y() + (b.y() - a.y()) * (x - a.x()) / (b.x() - a.x());
        }
        covered += under ? 1 : 0;
        ++total;
      }
    }
    CHECK(area_po.fraction() == doctest::Approx(static_cast<double>(covered) / total).epsilon(0).scale(1).epsilon(0.01));
    CHECK(area_po.fraction() >= 0);
    CHECK(area_po.fraction() <= 1);
  }
  // The ROI of a work area is its top face; a point above it is over the ROI.
  WorkArea table;
  table.center = Eigen::Vector3d(0.75, 0, -0.15);
  table.half_extents = Eigen::Vector3d(0.15, 0.2, 0.02);
  const RegionOfInterest top = regionOfInterest(table);
  CHECK(top.width == doctest::Approx(0.4));
  CHECK(top.height == doctest::Approx(0.3));
  CHECK(top.contains(Eigen::Vector3d(0.75, 0, 0.3)));
  CHECK_FALSE(top.contains(Eigen::Vector3d(0.55, 0, 0.3)));
  CHECK(top.project(Eigen::Vector3d(0.6, 0.2, 0.0)).isApprox(Eigen::Vector2d(0, 0), 1e-12));

  // Eq. 4 on frames whose verdict and mean squared error are worked out by hand (degrees; the
  // default epsilon is (15 deg)^2 = 225 deg^2). Each frame tells a wrong reading apart:
  //   (10, 10):   mse 100 -> accurate
  //   (20, 0):    mse 200 -> accurate (the sum, 400, or the largest error, 20, would reject it)
  //   (10, 19):   mse 230.5 -> not (the square of the mean error, 14.5^2 = 210.25, would accept)
  //   (-20, -):   one arm, mse 400 -> not
  //   (-12, -):   one arm, mse 144 -> accurate (the sign does not matter)
  //   (NaN, 14):  the non-finite arm is left out, mse 196 -> accurate
  //   (-, -):     not counted
  // Pacc = 4 / 6; the mean of sqrt(mse) is (10 + sqrt(200) + sqrt(230.5) + 20 + 12 + 14) / 6 deg,
  // the worst 20 deg. (-1: a frame not counted where one should be.)
  const double deg = M_PI / 180;
  PoseAccuracy pacc;
  CHECK(pacc.add(10 * deg, 10 * deg).value_or(-1.0) == doctest::Approx(100 * deg * deg).epsilon(1e-12));
  CHECK(pacc.add(20 * deg, 0.0).value_or(-1.0) == doctest::Approx(200 * deg * deg).epsilon(1e-12));
  CHECK(pacc.add(10 * deg, 19 * deg).value_or(-1.0) == doctest::Approx(230.5 * deg * deg).epsilon(1e-12));
  CHECK(pacc.add(-20 * deg, std::nullopt).value_or(-1.0) == doctest::Approx(400 * deg * deg).epsilon(1e-12));
  CHECK(pacc.add(-12 * deg, std::nullopt).value_or(-1.0) == doctest::Approx(144 * deg * deg).epsilon(1e-12));
  CHECK(pacc.add(std::numeric_limits<double>::quiet_NaN(), 14 * deg).value_or(-1.0) == doctest::Approx(196 * deg * deg).epsilon(1e-12));
  CHECK_FALSE(pacc.add(std::nullopt, std::nullopt));
  CHECK(pacc.frames() == 6);
  CHECK(pacc.accurate() == 4);
  CHECK(pacc.value() == doctest::Approx(4.0 / 6.0).epsilon(1e-15));
  CHECK(pacc.meanError() == doctest::Approx((10 + std::sqrt(200.0) + std::sqrt(230.5) + 20 + 12 + 14) / 6 * deg).epsilon(1e-12));
  CHECK(pacc.worstError() == doctest::Approx(20 * deg).epsilon(1e-12));
  // Occlusion: a capsule through the box, one along the line of sight, one far away.
  WorkArea area;
  area.center = Eigen::Vector3d(1, 0, 0);
  area.half_extents = Eigen::Vector3d(0.1, 0.1, 0.1);
  area.viewpoint = Eigen::Vector3d(1, 0, 2);
  CHECK(occludes<double>(Capsule<double>{Eigen::Vector3d(1, -1, 0), Eigen::Vector3d(1, 1, 0), 0.01}, area));
  CHECK(occludes<double>(Capsule<double>{Eigen::Vector3d(0.5, 0, 1), Eigen::Vector3d(1.5, 0, 1), 0.01}, area));
  CHECK_FALSE(occludes<double>(Capsule<double>{Eigen::Vector3d(-1, 0, 0), Eigen::Vector3d(-1, 1, 0), 0.05}, area));
  area.line_of_sight = false;
  CHECK_FALSE(occludes<double>(Capsule<double>{Eigen::Vector3d(0.5, 0, 1), Eigen::Vector3d(1.5, 0, 1), 0.01}, area));
  // segmentBoxDistance against brute-force sampling.
  for (int n = 0; n < 200; ++n) {
    const Eigen::Vector3d a(u(rng) * 2, u(rng) * 2, u(rng) * 2), b(u(rng) * 2, u(rng) * 2, u(rng) * 2);
    const Eigen::Vector3d h(0.3, 0.2, 0.1);
    double brute = 1e9;
    for (int k = 0; k <= 20000; ++k) brute = std::min(brute, pointBoxDistance<double>(Eigen::Vector3d(a + (k / 20000.0) * (b - a)), Eigen::Vector3d::Zero(), h));
    CHECK(segmentBoxDistance<double>(a, b, Eigen::Vector3d::Zero(), h) == doctest::Approx(brute).epsilon(1e-3).scale(1));
  }
}

TEST_CASE("Input pipeline: smoothing follows the formula, placement scales to the robot's arm") {
  SkeletonSmoothing<double> smoothing(SkeletonSmoothingOptions{0.25});
  const auto motion = demoMotion("wave");
  SkeletonFrame<double> out;
  Eigen::Vector3d expected = motion.frames[0].position(HumanJoint::kWristRight);
  for (std::size_t k = 0; k < 20; ++k) {
    smoothing.update(motion.frames[k], out);
    if (k > 0) expected += 0.25 * (motion.frames[k].position(HumanJoint::kWristRight) - expected);
    CHECK((out.position(HumanJoint::kWristRight) - expected).norm() < 1e-12);
  }
  ArmPlacement<double> placement(ArmPlacementOptions{1}, 0.74, 0.74);
  CHECK_FALSE(placement.calibrated());
  REQUIRE(placement.update(motion.frames[0]));
  CHECK(placement.frozen());
  const auto& f = motion.frames[0];
  for (ArmSide side : {ArmSide::kLeft, ArmSide::kRight}) {
    const auto j = armJoints(side);
    const double human = (f.position(j[1]) - f.position(j[0])).norm() + (f.position(j[2]) - f.position(j[1])).norm();
    CHECK(placement.scale(side) * human == doctest::Approx(0.74));
  }
  // The demo person faces +x with z up: the calibration rotation is (close to) the identity.
  CHECK((placement.R_BW() - Eigen::Matrix3d::Identity()).norm() < 0.05);
  CHECK_THROWS_WITH_AS(ArmPlacementOptions{0}.validate(), doctest::Contains("calibration_frames (got 0"), InvalidArgument);
}

