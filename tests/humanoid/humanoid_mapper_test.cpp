// The humanoid mapper (mappers/humanoid.hpp) on robots bound automatically
// (robots/humanoid_binding.hpp), issue 38:
//  - round trip: the robot's own poses (its virtual skeleton at configurations within the limits,
//    along a continuous path) are mapped back to the same link directions;
//  - held-out recordings on the Unitree G1 and H1: per link, within 0.02 of the best reachable
//    WBF / LLF (metrics/best_reachable.hpp) where the human pose is within reach, on at least half
//    of each take's checked frames; no frame outside the limits; no step above 0.5 rad unless
//    reported as a discontinuity, and at most 2 % of a take's frames reported so;
//  - held-out robots: Pepper and InMoov (shared URDFs no tuning looked at), the same checks on the
//    links they have;
//  - independence from names: G1 and H1 with every link and joint renamed map exactly as G1 and
//    H1 (same kinematics: this says nothing of other robots); G1 with its waist fixed, the checks
//    above;
//  - NAO and Pepper through the automatic binding against GA-LVVJ's hand-written maps.
// Tuning split (tests/tuning_split.md, row humanoid_mapper_defaults): the defaults were chosen
// on the wave-hand, chicken-wing, Keraal ELK / RTK and close-range Kinect recordings, on G1 and
// H1, and the trust region on NAO; held-out checks call requireHeldOut with what they run on.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/mjcf.hpp>
#include <retarget/io/urdf.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/pepper.hpp>
#include <retarget/robots/robot_skeleton.hpp>
#include <retarget/robots/unitree_g1.hpp>
#include <retarget/robots/unitree_h1.hpp>

#include "support/test_support.hpp"
#include "support/tuning_split.hpp"

using namespace retarget;

namespace {

// Largest gap (cosine) to the best reachable WBF / LLF per link: issue 38's acceptance ("per
// link, the mapper within 0.02 of best reachable WBF/LLF where the pose is reachable"), fixed
// there before anything was measured; not tightened to the 0.014 measured since.
constexpr double kGap = 0.02;
// Largest unreported joint step (rad/frame), issue 38's acceptance likewise.
constexpr double kMaxStep = 0.5;
// Chosen before measuring. A discontinuity is a reported jump (a restart into a better basin,
// or tracking coming back): an event of a gesture, not of every frame. At most 1 frame in 50
// of a take may report one (one every 1.7 s at 30 Hz); a mapper flagging every frame fails.
constexpr double kMaxDiscontinuityFraction = 0.02;
// Chosen before measuring. The gap is checked on a link's frames within reach; per take, for
// every link the robot measures, at least half of the checked (sampled) frames must be within
// reach for each index, so that no link's claim rests on a few frames of a take.
constexpr double kMinWithinReachFraction = 0.5;

// The held-out recordings: in no row of humanoid_mapper_defaults (requireHeldOut checks it).
// The close-range Kinect recording is not among them: the mapper was changed for it (142d7b8).
const char* const kCheckFiles[] = {
    "kinect/laban_ges03_drawlines_kinect2.csv",
    "kinect/laban_ges04_comehere_kinect2.csv",
    "bvh/cmu_skeleton31_deepmotionediting_example.bvh",
    "bvh/mixamo_rig_55j_fingers_20tab_test_freebvh.bvh",
    "bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh",
    "bvh/xia_cmu_skeleton31_strutting_walk_01_000.bvh",
    "bvh/noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh",
};

SkeletonMotiond loadShared(const std::filesystem::path& path) {
  return path.extension() == ".bvh" ? bvhToSkeleton(readBvh(path.string())) : readKinect(path.string());
}

std::vector<std::string> checkFileList() { return {std::begin(kCheckFiles), std::end(kCheckFiles)}; }

std::string fixed4(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", v);
  return buffer;
}

// What a mapped take says of its output: frames outside the limits (or not finite), steps
// above kMaxStep not reported as a discontinuity, frames reported as one, the largest step.
struct OutputFindings {
  int frames = 0, outside = 0, unreported_steps = 0, discontinuities = 0;
  double worst_step = 0;  // rad
};

OutputFindings outputFindings(const RobotModel<double>& model, const MappedMotion<double>& mapped) {
  OutputFindings f;
  f.frames = static_cast<int>(mapped.q.rows());
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    const Eigen::VectorXd q = mapped.q.row(k).transpose();
    f.outside += (q.allFinite() && (q.array() >= model.lowerLimits().array()).all() &&
                  (q.array() <= model.upperLimits().array()).all())
                     ? 0
                     : 1;
    const bool reported = mapped.status[static_cast<std::size_t>(k)].has(StatusCode::kDiscontinuity);
    f.discontinuities += reported ? 1 : 0;
    if (k == 0) continue;
    const double step = (mapped.q.row(k) - mapped.q.row(k - 1)).cwiseAbs().maxCoeff();
    f.worst_step = std::max(f.worst_step, step);
    if (step > kMaxStep + 1e-9 && !reported) ++f.unreported_steps;
  }
  return f;
}

// The output rules of a take: within the limits, no unreported step, and a reported
// discontinuity on at most kMaxDiscontinuityFraction of its frames (else a mapper that flags
// every frame could jump anywhere).
bool outputHolds(const OutputFindings& f) {
  return f.outside == 0 && f.unreported_steps == 0 && f.discontinuities <= kMaxDiscontinuityFraction * f.frames;
}

// The similarity links `model`'s automatic virtual skeleton measures (valid on its own rest pose).
std::array<bool, kSimilarityLinkCount> measuredLinks(const RobotModel<double>& model, const HumanoidBinding& binding) {
  VirtualSkeleton<double> view(model, humanoidVirtualSkeletonMap(binding));
  SkeletonFrame<double> rest;
  REQUIRE(view.compute(model.neutralConfiguration(), rest).ok());
  FrameSimilarity<double> s;
  (void)frameSimilarity(rest, rest, s);
  std::array<bool, kSimilarityLinkCount> out{};
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = s.wbf_valid[i] || s.llf_valid[i];
  return out;
}

// Maps `motion` onto `model` through its automatic binding and checks the output (limits, steps,
// statuses) and, on every `stride`-th frame, the gap to the best reachable similarity of every
// link the robot measures. Where a take breaks the bounds chosen before measuring (more than
// kMaxDiscontinuityFraction of its frames reported as a discontinuity; a link within reach on
// fewer than kMinWithinReachFraction of the checked frames; a gap above kGap where within
// reach), an entry is added to `exceeded` ("<label>: discontinuities", "<label>: <link>
// WBF|LLF" or "<label>: <link> WBF|LLF gap"), with its counts in `table`: the caller compares
// the entries with its exact list of known ones, so that none comes silently.
void checkRecording(const std::string& label, const RobotModel<double>& model, const SkeletonMotiond& motion,
                    int stride, std::string& table, std::vector<std::string>& exceeded) {
  CAPTURE(label);
  const HumanoidBinding binding = bindHumanoid(model);
  HumanoidMapper<double> mapper(model, binding);
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  const OutputFindings out = outputFindings(model, mapped);
  CHECK(out.outside == 0);
  CHECK(out.unreported_steps == 0);
  if (!outputHolds(out)) exceeded.push_back(label + ": discontinuities");
  const double worst_step = out.worst_step;
  const std::array<bool, kSimilarityLinkCount> measured = measuredLinks(model, binding);

  std::vector<SkeletonFrame<double>> human;
  Eigen::MatrixXd q(0, model.nq());
  for (std::size_t k = 0; k < motion.size(); k += static_cast<std::size_t>(stride)) {
    human.push_back(motion.frames[k]);
    q.conservativeResize(q.rows() + 1, Eigen::NoChange);
    q.row(q.rows() - 1) = mapped.q.row(static_cast<Eigen::Index>(k));
  }
  const MotionBestReachable<double> b = motionBestReachable(model, humanoidVirtualSkeletonMap(binding), human, q);
  table += label + ": " + std::to_string(motion.size()) + " frames; clamped " + std::to_string(mapped.clamped_frames) +
           ", held " + std::to_string(mapped.held_frames) + ", not converged " +
           std::to_string(mapped.frames(StatusCode::kNotConverged)) + ", discontinuities " +
           std::to_string(mapped.frames(StatusCode::kDiscontinuity)) + ", largest step " + fixed4(worst_step) +
           " rad; within reach (every " + std::to_string(stride) + " frames), achieved / best:\n";
  const int checked = static_cast<int>(human.size());
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    if (!measured[i]) continue;  // a link the robot does not have (H1's head, Pepper's legs)
    CAPTURE(kSimilarityLinkNames[i]);
    // The exclusion (frames out of reach, or where the human link is not tracked) is bounded.
    if (b.wbf_within_frames[i] < kMinWithinReachFraction * checked) {
      exceeded.push_back(label + ": " + kSimilarityLinkNames[i] + " WBF");
    }
    if (b.llf_within_frames[i] < kMinWithinReachFraction * checked) {
      exceeded.push_back(label + ": " + kSimilarityLinkNames[i] + " LLF");
    }
    table += std::string("    ") + kSimilarityLinkNames[i] + "  WBF " + fixed4(b.wbf_achieved_within_mean[i]) + " / " +
             fixed4(b.wbf_best_within_mean[i]) + " (" + std::to_string(b.wbf_within_frames[i]) + ")  LLF " +
             fixed4(b.llf_achieved_within_mean[i]) + " / " + fixed4(b.llf_best_within_mean[i]) + " (" +
             std::to_string(b.llf_within_frames[i]) + " of " + std::to_string(checked) + ")\n";
    const double wbf_gap = b.wbf_best_within_mean[i] - b.wbf_achieved_within_mean[i];
    const double llf_gap = b.llf_best_within_mean[i] - b.llf_achieved_within_mean[i];
    // A gap beyond kGap is an entry too ("<label>: <link> WBF gap"): the callers' exact lists
    // hold none but the MJCF test's two, each explained there.
    if (b.wbf_within_frames[i] > 0 && !(wbf_gap <= kGap)) {
      exceeded.push_back(label + ": " + kSimilarityLinkNames[i] + " WBF gap");
    }
    if (b.llf_within_frames[i] > 0 && !(llf_gap <= kGap)) {
      exceeded.push_back(label + ": " + kSimilarityLinkNames[i] + " LLF gap");
    }
  }
}

// A URDF text with every link and joint renamed (left/right become port/starboard, "link" becomes
// "body", "joint" becomes "axle"), so that no name the binder knows is left.
std::string renamed(std::string text) {
  text = std::regex_replace(text, std::regex("left"), "port");
  text = std::regex_replace(text, std::regex("right"), "starboard");
  text = std::regex_replace(text, std::regex("_link\""), "_body\"");
  text = std::regex_replace(text, std::regex("_joint\""), "_axle\"");
  text = std::regex_replace(text, std::regex("pelvis"), "hub");
  text = std::regex_replace(text, std::regex("torso"), "trunk");
  return text;
}

// checkRecording on every one of `files` (paths under `data_dir`), every third frame (every
// tenth of a take over 600 frames) for the best-reachable gap.
void checkFiles(const RobotModel<double>& model, const std::filesystem::path& data_dir,
                const std::vector<std::string>& files, std::string& table, std::vector<std::string>& exceeded) {
  for (const std::string& file : files) {
    const SkeletonMotiond motion = loadShared(data_dir / file);
    const int stride = motion.size() > 600 ? 10 : 3;
    checkRecording(model.name() + " " + file, model, motion, stride, table, exceeded);
  }
}

// Checks that the takes that broke the a-priori bounds of checkRecording are exactly `known`:
// a new one fails, and so does one that no longer breaks them (so that the list shrinks).
void requireExactlyExceeded(const std::vector<std::string>& exceeded, std::vector<std::string> known) {
  std::vector<std::string> got = exceeded;
  std::sort(got.begin(), got.end());
  std::sort(known.begin(), known.end());
  std::string listed;
  for (const std::string& e : got) listed += "\n  " + e;
  INFO("beyond the bounds:" << listed);
  CHECK(got == known);
}

std::string readText(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

namespace {

// Maps a random walk of `model`'s own configurations (its virtual skeleton as the human) and
// checks that the poses come back: every link of nearly every frame at cos >= 0.999.
void checkOwnPoses(const RobotModel<double>& model) {
  CAPTURE(model.name());
  const HumanoidBinding binding = bindHumanoid(model);
  VirtualSkeleton<double> view(model, humanoidVirtualSkeletonMap(binding));
  HumanoidMapper<double> mapper(model, binding);
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0.0, 0.03);
  // A random walk within the limits, kept away from them by 0.05 rad, starting at the rest pose.
  Eigen::VectorXd q = model.neutralConfiguration(), out(model.nq());
  const Eigen::VectorXd lo = model.lowerLimits().array() + 0.05, hi = model.upperLimits().array() - 0.05;
  int frames = 0, matched = 0;
  double worst = 1;
  for (int k = 0; k < test::sweepCount(300); ++k) {
    for (int i = 0; i < model.nq(); ++i) q[i] = std::min(hi[i], std::max(lo[i], q[i] + noise(rng)));
    SkeletonFrame<double> human, robot;
    REQUIRE(view.compute(q, human).ok());
    const Status status = mapper.map(human, out);
    REQUIRE(out.allFinite());
    REQUIRE((out.array() >= model.lowerLimits().array()).all());
    REQUIRE((out.array() <= model.upperLimits().array()).all());
    CHECK_FALSE(status.has(StatusCode::kDegenerateInput));
    REQUIRE(view.compute(out, robot).ok());
    FrameSimilarity<double> s;
    (void)frameSimilarity(human, robot, s);
    double lowest = 1;
    for (int i = 0; i < kSimilarityLinkCount; ++i) {
      if (s.llf_valid[static_cast<std::size_t>(i)]) lowest = std::min(lowest, s.llf_links[static_cast<std::size_t>(i)]);
      if (s.wbf_valid[static_cast<std::size_t>(i)]) lowest = std::min(lowest, s.wbf_links[static_cast<std::size_t>(i)]);
    }
    ++frames;
    matched += lowest >= 0.999 ? 1 : 0;
    worst = std::min(worst, lowest);
  }
  MESSAGE(model.name(), ": ", matched, " of ", frames, " frames with every link at cos >= 0.999; worst link ", worst);
  // The trust region may let a fast random joint walk lag a frame; nearly every frame matches.
  CHECK(matched >= frames * 95 / 100);
}

}  // namespace

TEST_CASE("humanoid mapper: the robot's own poses come back (G1, H1, NAO; continuous random paths)") {
  for (const RobotModel<double>& model : {makeUnitreeG1<double>(), makeUnitreeH1<double>(), makeNao<double>()}) {
    checkOwnPoses(model);
  }
}

TEST_CASE("humanoid mapper: the robot's own poses come back on the MJCF humanoids (Booster T1, Robotis OP3)") {
  // T1 hangs its legs from a waist yaw under a trunk-rooted tree: the waist turns the hip line,
  // and with it the base frame B every ground term is read in (the mapper differentiates B;
  // before it did, T1's arms left WBF's reach on most frames of the come-here recording).
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* file : {"booster_t1_t1.xml", "robotis_op3_op3.xml"}) {
    checkOwnPoses(loadMjcf<double>(data_dir / "mjcf" / file).model);
  }
}

TEST_CASE("humanoid mapper: a hand or foot the wrist or ankle cannot follow leaves the measured links alone") {
  // The robot's own pose with both feet turned straight up the tibias and both hands folded back
  // along the forearms (beyond any ankle's or wrist's limits), mapped from that pose: the ends set
  // only the wrists and ankles, so the arms and legs stay where they match (before, the feet
  // pulled G1's tibias 20 deg away on the close-range Kinect recording).
  for (const RobotModel<double>& model : {makeUnitreeG1<double>(), makeUnitreeH1<double>()}) {
    CAPTURE(model.name());
    const HumanoidBinding binding = bindHumanoid(model);
    VirtualSkeleton<double> view(model, humanoidVirtualSkeletonMap(binding));
    std::mt19937 rng(11);
    for (int trial = 0; trial < 10; ++trial) {
      Eigen::VectorXd q = model.neutralConfiguration();
      for (int i = 0; i < model.nq(); ++i) {
        const double lo = model.lowerLimits()[i], hi = model.upperLimits()[i];
        q[i] = lo + 0.2 * (hi - lo) + 0.6 * (hi - lo) * std::uniform_real_distribution<double>(0, 1)(rng);
      }
      SkeletonFrame<double> human;
      REQUIRE(view.compute(q, human).ok());
      SkeletonFrame<double> folded = human;
      using H = HumanJoint;
      int ends = 0;
      for (const auto& [a, b, c] : {std::tuple{H::kKneeLeft, H::kAnkleLeft, H::kFootLeft},
                                    std::tuple{H::kKneeRight, H::kAnkleRight, H::kFootRight},
                                    std::tuple{H::kElbowLeft, H::kWristLeft, H::kHandLeft},
                                    std::tuple{H::kElbowRight, H::kWristRight, H::kHandRight}}) {
        if (!folded.usable(c)) continue;
        const Eigen::Vector3d along = (folded.position(b) - folded.position(a)).normalized();
        folded.position(c) = folded.position(b) - (folded.position(c) - folded.position(b)).norm() * along;
        ++ends;
      }
      REQUIRE(ends >= 2);  // H1 has no hands
      HumanoidMapperOptions options;
      options.rest.assign(q.data(), q.data() + q.size());
      HumanoidMapper<double> mapper(model, binding, options);
      Eigen::VectorXd out(model.nq());
      for (int k = 0; k < 10; ++k) (void)mapper.map(folded, out);  // a held pose
      SkeletonFrame<double> robot;
      REQUIRE(view.compute(out, robot).ok());
      FrameSimilarity<double> s;
      (void)frameSimilarity(human, robot, s);
      for (const SimilarityLink link : {SimilarityLink::kLeftUpperArm, SimilarityLink::kRightUpperArm,
                                        SimilarityLink::kLeftLowerArm, SimilarityLink::kRightLowerArm,
                                        SimilarityLink::kLeftThigh, SimilarityLink::kRightThigh,
                                        SimilarityLink::kLeftTibia, SimilarityLink::kRightTibia}) {
        const auto i = static_cast<std::size_t>(link);
        CAPTURE(kSimilarityLinkNames[i]);
        REQUIRE(s.llf_valid[i]);
        CHECK(s.llf_links[i] >= 0.999);
        CHECK(s.wbf_links[i] >= 0.999);
      }
    }
  }
}

TEST_CASE("humanoid mapper: the output rules fail on a take that reports a discontinuity on every frame") {
  // One coordinate jumping by 1 rad every frame (within the limits): reported on every frame,
  // the steps are excused, and only the cap on reported discontinuities catches it.
  const RobotModel<double> model = makeUnitreeH1<double>();
  MappedMotion<double> mapped;
  const int frames = 60;
  mapped.q = model.neutralConfiguration().transpose().replicate(frames, 1);
  const int i = model.findQ("left_elbow_joint");
  REQUIRE(i >= 0);
  REQUIRE(model.upperLimits()[i] - model.lowerLimits()[i] > 1.0);
  for (int k = 0; k < frames; ++k) mapped.q(k, i) = model.lowerLimits()[i] + (k % 2 == 0 ? 0.0 : 1.0);
  mapped.status.assign(frames, Status(StatusCode::kDiscontinuity));
  const OutputFindings flagged = outputFindings(model, mapped);
  CHECK(flagged.unreported_steps == 0);  // what the old rule looked at: passes
  CHECK(flagged.discontinuities == frames);
  CHECK_FALSE(outputHolds(flagged));
  mapped.status.assign(frames, Status());
  CHECK(outputFindings(model, mapped).unreported_steps == frames - 1);
  CHECK_FALSE(outputHolds(outputFindings(model, mapped)));
  // Reported on one frame in 60 (below the cap), with no step at all: holds.
  mapped.q = model.neutralConfiguration().transpose().replicate(frames, 1);
  mapped.status[10] = Status(StatusCode::kDiscontinuity);
  CHECK(outputHolds(outputFindings(model, mapped)));
}

TEST_CASE("humanoid mapper: held-out shared recordings on the Unitree G1 and H1") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  test::requireHeldOut({"humanoid_mapper_defaults"}, checkFileList());
  std::string table;
  std::vector<std::string> exceeded;
  for (const RobotModel<double>& model : {makeUnitreeG1<double>(), makeUnitreeH1<double>()}) {
    checkFiles(model, data_dir, checkFileList(), table, exceeded);
  }
  MESSAGE(table);
  // Beyond the bounds (measured; the bounds were set before): almost all WBF, whose "within
  // reach" also needs the robot's base to turn as the human's pelvis does (a standing robot's
  // cannot: tibias on the walks, the right leg of come-here, H1's 4-joint arms on Mixamo), and
  // G1's 5 discontinuities in 172 frames of come-here (2.9 %). LLF stays within reach on at
  // least half the frames of every link and take.
  const std::string g1 = "g1_29dof_rev_1_0 ", h1 = "h1_description ";
  const std::string comehere = "kinect/laban_ges04_comehere_kinect2.csv: ",
                    cmu = "bvh/cmu_skeleton31_deepmotionediting_example.bvh: ",
                    mixamo = "bvh/mixamo_rig_55j_fingers_20tab_test_freebvh.bvh: ",
                    neutral = "bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh: ",
                    strutting = "bvh/xia_cmu_skeleton31_strutting_walk_01_000.bvh: ";
  requireExactlyExceeded(
      exceeded, {g1 + comehere + "discontinuities", g1 + comehere + "RightThigh WBF", g1 + comehere + "RightTibia WBF",
                 g1 + cmu + "LeftTibia WBF", g1 + cmu + "RightTibia WBF", g1 + neutral + "RightTibia WBF",
                 g1 + strutting + "LeftTibia WBF", g1 + strutting + "RightTibia WBF",
                 h1 + comehere + "RightThigh WBF", h1 + comehere + "RightTibia WBF", h1 + cmu + "LeftTibia WBF",
                 h1 + cmu + "RightTibia WBF", h1 + mixamo + "LeftUpperArm WBF", h1 + mixamo + "RightUpperArm WBF",
                 h1 + mixamo + "LeftLowerArm WBF", h1 + mixamo + "RightLowerArm WBF", h1 + neutral + "LeftTibia WBF",
                 h1 + neutral + "RightTibia WBF", h1 + strutting + "LeftLowerArm WBF",
                 h1 + strutting + "RightLowerArm WBF", h1 + strutting + "LeftThigh WBF",
                 h1 + strutting + "RightThigh WBF", h1 + strutting + "LeftTibia WBF",
                 h1 + strutting + "RightTibia WBF"});
}

TEST_CASE("humanoid mapper: held-out robots (Pepper and InMoov, the shared URDFs) on the held-out recordings") {
  // Robots no tuning of the mapper looked at (their built-in models are transcribed from these
  // URDFs): the same checks as G1 and H1 on the links each has (arms and head; Pepper and
  // InMoov have no legs to bind). The walks are left out: they move the legs.
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  std::vector<std::string> files;
  for (const char* file : kCheckFiles) {
    if (std::string(file).find("_walk_") == std::string::npos) files.push_back(file);
  }
  std::vector<std::string> data = files;
  data.insert(data.end(), {"urdf/pepper_1.0.urdf", "urdf/inmoov.urdf"});
  test::requireHeldOut({"humanoid_mapper_defaults"}, data);
  std::string table;
  std::vector<std::string> exceeded;
  for (const RobotModel<double>& model : {makePepper<double>(), makeInMoov<double>()}) {
    const HumanoidBinding binding = bindHumanoid(model);
    CAPTURE(model.name());
    REQUIRE(binding.limb(HumanoidLimb::kLeftArm).found);
    REQUIRE(binding.limb(HumanoidLimb::kRightArm).found);
    checkFiles(model, data_dir, files, table, exceeded);
  }
  MESSAGE(table);
  // Beyond the within-reach bound (measured; the bound was set before): WBF of arms and head
  // on several takes, and on InMoov every arm link's LLF and the head's on come-here (within
  // reach on 21-26 of 58 frames, the head on none; cause not analysed here). The gap holds on
  // the frames within reach (largest 0.0126 on Pepper, 0.0137 on InMoov). Since the built-in
  // InMoov has the real robot's servo ranges (issue 52: elbow 0..90 deg, shoulder_up 0..150 deg,
  // bicep_rotate -50..90 deg, robots/inmoov.hpp), the Noitom take's left arm is within LLF reach
  // on only 68 of 165 sampled frames (achieved 0.9944 / best 0.9961 upper arm, 0.9911 / 0.9942
  // forearm on those): the pose is out of the robot's range, the gap still holds.
  const std::string pepper = "JulietteY20MP ", inmoov = "inmoov ";
  const std::string drawlines = "kinect/laban_ges03_drawlines_kinect2.csv: ",
                    comehere = "kinect/laban_ges04_comehere_kinect2.csv: ",
                    cmu = "bvh/cmu_skeleton31_deepmotionediting_example.bvh: ",
                    mixamo = "bvh/mixamo_rig_55j_fingers_20tab_test_freebvh.bvh: ",
                    goldnotch = "bvh/noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh: ";
  std::vector<std::string> known = {
      pepper + comehere + "LeftUpperArm WBF", pepper + comehere + "LeftLowerArm WBF",
      pepper + cmu + "RightLowerArm WBF",     pepper + mixamo + "RightUpperArm WBF",
      pepper + mixamo + "LeftLowerArm WBF",   pepper + mixamo + "RightLowerArm WBF",
      pepper + mixamo + "Head WBF",           inmoov + drawlines + "RightLowerArm WBF",
      inmoov + comehere + "Head WBF",         inmoov + comehere + "Head LLF",
      inmoov + cmu + "RightUpperArm WBF",     inmoov + cmu + "RightLowerArm WBF",
      inmoov + mixamo + "LeftUpperArm WBF",   inmoov + mixamo + "RightUpperArm WBF",
      inmoov + mixamo + "LeftLowerArm WBF",   inmoov + mixamo + "RightLowerArm WBF",
      inmoov + mixamo + "Head WBF",           inmoov + goldnotch + "LeftUpperArm LLF",
      inmoov + goldnotch + "LeftLowerArm LLF"};
  for (const char* link : {"LeftUpperArm", "RightUpperArm", "LeftLowerArm", "RightLowerArm"}) {
    for (const char* index : {" WBF", " LLF"}) known.push_back(inmoov + comehere + link + index);
  }
  requireExactlyExceeded(exceeded, known);
}

TEST_CASE("humanoid mapper: independent of names (G1 and H1 renamed map as G1 and H1; G1 with a fixed waist)") {
  // Renaming every link and joint leaves the kinematics as they were: this checks that the
  // binder and the mapper read no name, not that they carry over to other robots (see the
  // held-out robots above). A renamed robot must map exactly as the original.
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const std::string g1 = readText(data_dir / "urdf" / "unitree_g1_29dof_rev_1_0.urdf");
  const std::string h1 = readText(data_dir / "urdf" / "unitree_h1.urdf");
  const std::vector<SkeletonMotiond> motions = {loadShared(data_dir / "kinect/laban_ges04_comehere_kinect2.csv"),
                                                loadShared(data_dir / "bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh")};
  for (const auto& [label, text] : std::vector<std::pair<std::string, std::string>>{{"G1", g1}, {"H1", h1}}) {
    CAPTURE(label);
    const RobotModel<double> original = parseUrdf<double>(text, label).model;
    const RobotModel<double> model = parseUrdf<double>(renamed(text), label + " renamed").model;
    REQUIRE(model.findLink("pelvis") < 0);
    REQUIRE(model.findJoint("left_elbow_joint") < 0);
    REQUIRE(model.nq() == original.nq());
    HumanoidMapper<double> a(original, bindHumanoid(original)), b(model, bindHumanoid(model));
    for (const SkeletonMotiond& motion : motions) {
      const MappedMotion<double> qa = mapMotion(a, motion), qb = mapMotion(b, motion);
      CHECK((qa.q - qb.q).cwiseAbs().maxCoeff() <= 1e-9);
      CHECK(qa.status == qb.status);
    }
  }
  std::string g1_rigid = std::regex_replace(
      g1, std::regex("(<joint name=\"waist_(yaw|roll|pitch)_joint\" type=)\"revolute\""), "$1\"fixed\"");
  REQUIRE(g1_rigid != g1);
  const RobotModel<double> rigid = parseUrdf<double>(renamed(g1_rigid), "G1 renamed, waist fixed").model;
  const HumanoidBinding binding = bindHumanoid(rigid);
  CHECK(binding.limb(HumanoidLimb::kLeftArm).found);
  CHECK(binding.limb(HumanoidLimb::kRightLeg).found);
  std::string table;
  std::vector<std::string> exceeded;
  const std::array<const char*, 2> files = {"kinect/laban_ges04_comehere_kinect2.csv",
                                            "bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh"};
  for (std::size_t m = 0; m < motions.size(); ++m) {
    checkRecording(std::string("G1 renamed, waist fixed ") + files[m], rigid, motions[m], 3, table, exceeded);
  }
  MESSAGE(table);
  // Beyond the bounds (measured; see the held-out recordings above): 6 discontinuities in 172
  // frames of come-here, and WBF out of reach on most frames where the fixed waist cannot turn.
  const std::string comehere = "G1 renamed, waist fixed kinect/laban_ges04_comehere_kinect2.csv: ",
                    neutral = "G1 renamed, waist fixed bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh: ";
  requireExactlyExceeded(exceeded, {comehere + "discontinuities", comehere + "LeftUpperArm WBF",
                                    comehere + "LeftLowerArm WBF", comehere + "RightThigh WBF",
                                    comehere + "RightTibia WBF", neutral + "LeftTibia WBF", neutral + "RightTibia WBF"});
}

TEST_CASE("humanoid mapper: NAO and Pepper through the automatic binding agree with GA-LVVJ") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  // An agreement with an independent reference (the hand-written maps), on the held-out
  // recordings (NAO itself is tuning data: the trust region was set on its contract sweep).
  test::requireHeldOut({"humanoid_mapper_defaults"}, checkFileList());
  std::string table;
  for (const RobotModel<double>& model : {makeNao<double>(), makePepper<double>()}) {
    const GaLvvjMap map = *gaLvvjMapFor(model);
    const HumanoidBinding binding = bindHumanoid(model);
    for (const char* file : kCheckFiles) {
      CAPTURE(file);
      const SkeletonMotiond motion = loadShared(data_dir / file);
      GaLvvjMapper<double> ga_lvvj(model, map);
      HumanoidMapper<double> humanoid(model, binding);
      const MappedMotion<double> a = mapMotion(ga_lvvj, motion), b = mapMotion(humanoid, motion);
      // Both measured on the hand-written virtual skeleton (the one every earlier figure used).
      VirtualSkeleton<double> view(model, *virtualSkeletonMapFor(model));
      std::vector<SkeletonFrame<double>> ra(motion.size()), rb(motion.size());
      for (std::size_t k = 0; k < motion.size(); ++k) {
        REQUIRE(view.compute(a.q.row(static_cast<Eigen::Index>(k)).transpose(), ra[k]).ok());
        REQUIRE(view.compute(b.q.row(static_cast<Eigen::Index>(k)).transpose(), rb[k]).ok());
      }
      const MotionSimilarity<double> sa = motionSimilarity(motion.frames, ra), sb = motionSimilarity(motion.frames, rb);
      table += model.name() + " " + file + ": WBF GA-LVVJ " + fixed4(sa.wbf_mean) + ", automatic " +
               fixed4(sb.wbf_mean) + "; LLF GA-LVVJ " + fixed4(sa.llf_mean) + ", automatic " + fixed4(sb.llf_mean) + "\n";
      CHECK(sb.wbf_mean >= sa.wbf_mean - 0.01);
      CHECK(sb.llf_mean >= sa.llf_mean - 0.01);
    }
  }
  MESSAGE(table);
}

TEST_CASE("humanoid mapper: the shared MJCF humanoids (G1, H1, Booster T1, Robotis OP3) on the held-out recordings") {
  // Issue 55: every shared MJCF humanoid maps every held-out recording within its limits, with no
  // unreported step, each link within kGap of its best reachable WBF / LLF where the pose is in
  // reach. The MJCF files are robots the mapper was tuned on (T1 and OP3 since issue 55), not
  // unseen ones: the recordings are the held-out part here.
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  test::requireHeldOut({"humanoid_mapper_defaults"}, checkFileList());
  std::string table;
  std::vector<std::string> exceeded;
  for (const char* file : {"unitree_g1_g1.xml", "unitree_h1_h1.xml", "booster_t1_t1.xml", "robotis_op3_op3.xml"}) {
    const RobotModel<double> model = loadMjcf<double>(data_dir / "mjcf" / file).model;
    checkFiles(model, data_dir, checkFileList(), table, exceeded);
  }
  MESSAGE(table);
  // Beyond the bounds (measured; the bounds were set before), the within-reach fraction: as on
  // the URDF robots above, mostly WBF of the legs on the walks and of H1's and T1's arms on
  // Mixamo (the robot's base would have to turn as the human's pelvis does), and on OP3 the arms
  // (three joints, no upper-arm twist: its elbow bends in the plane of its shoulder roll, so a
  // bent elbow hanging in front of the body is beyond it; LLF within reach on fewer than half
  // the frames of the CMU, Mixamo and Noitom takes). Two gaps above kGap, on OP3 come-here: the
  // left upper and lower arm's WBF (0.022 and 0.023 below the best of each link alone, on the 17
  // and 6 frames where WBF reaches the pair jointly at 0.98; there LLF does not, and the mapper,
  // weighing LLF four times WBF, shares the difference). 
  const std::string g1 = "g1_29dof_rev_1_0", h1 = "h1", t1 = "T1", op3 = "robotis_op3";
  const std::string drawlines = "kinect/laban_ges03_drawlines_kinect2.csv",
                    comehere = "kinect/laban_ges04_comehere_kinect2.csv",
                    cmu = "bvh/cmu_skeleton31_deepmotionediting_example.bvh",
                    mixamo = "bvh/mixamo_rig_55j_fingers_20tab_test_freebvh.bvh",
                    neutral = "bvh/xia_cmu_skeleton31_neutral_walk_01_000.bvh",
                    strutting = "bvh/xia_cmu_skeleton31_strutting_walk_01_000.bvh",
                    goldnotch = "bvh/noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh";
  const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>> known_by_take = {
      {t1, cmu, {"LeftTibia WBF", "RightTibia WBF"}},
      {t1, mixamo, {"Head WBF", "LeftLowerArm WBF", "LeftUpperArm WBF", "RightLowerArm WBF", "RightUpperArm WBF"}},
      {t1, neutral, {"LeftTibia WBF", "RightTibia WBF"}},
      {t1, strutting, {"LeftThigh WBF", "LeftTibia WBF", "RightLowerArm WBF", "RightThigh WBF", "RightTibia WBF"}},
      {t1, comehere, {"RightThigh WBF", "RightTibia WBF"}},
      {g1, cmu, {"LeftTibia WBF", "RightTibia WBF"}},
      {g1, neutral, {"RightTibia WBF"}},
      {g1, strutting, {"LeftTibia WBF", "RightTibia WBF"}},
      {g1, comehere, {"RightThigh WBF", "RightTibia WBF", "discontinuities"}},
      {h1, cmu, {"LeftTibia WBF", "RightTibia WBF"}},
      {h1, mixamo, {"LeftLowerArm WBF", "LeftUpperArm WBF", "RightLowerArm WBF", "RightUpperArm WBF"}},
      {h1, neutral, {"LeftTibia WBF", "RightTibia WBF"}},
      {h1, strutting, {"LeftLowerArm WBF", "LeftThigh WBF", "LeftTibia WBF", "RightLowerArm WBF", "RightThigh WBF", "RightTibia WBF"}},
      {h1, comehere, {"RightThigh WBF", "RightTibia WBF"}},
      {op3, cmu, {"LeftLowerArm LLF", "LeftTibia WBF", "LeftUpperArm LLF", "RightLowerArm LLF", "RightTibia WBF", "RightUpperArm LLF"}},
      {op3, mixamo, {"Head WBF", "LeftLowerArm LLF", "LeftLowerArm WBF", "LeftUpperArm LLF", "RightLowerArm WBF", "RightUpperArm WBF"}},
      {op3, goldnotch, {"LeftLowerArm LLF", "LeftLowerArm WBF", "LeftUpperArm LLF", "LeftUpperArm WBF", "RightLowerArm LLF", "RightLowerArm WBF", "RightUpperArm LLF", "RightUpperArm WBF"}},
      {op3, neutral, {"RightTibia WBF"}},
      {op3, strutting, {"LeftThigh WBF", "LeftTibia WBF", "RightLowerArm WBF", "RightThigh WBF", "RightTibia WBF"}},
      {op3, drawlines, {"RightLowerArm WBF"}},
      {op3, comehere, {"LeftLowerArm WBF", "LeftLowerArm WBF gap", "LeftUpperArm WBF", "LeftUpperArm WBF gap", "RightThigh WBF", "RightTibia WBF"}},
  };
  std::vector<std::string> known;
  for (const auto& [robot, file, entries] : known_by_take) {
    for (const std::string& entry : entries) known.push_back(robot + " " + file + ": " + entry);
  }
  requireExactlyExceeded(exceeded, known);
}

TEST_CASE("humanoid mapper: G1 from MJCF maps as from URDF, to what the two files' numbers allow") {
  // The same robot in both formats (menagerie's MJCF, Unitree's URDF): the mapped angles of every
  // coordinate (MJCF names drop "_joint") agree to what the two files' own numbers allow. They
  // are not the same numbers: menagerie's G1 rounds its body quaternions (joint origins up to
  // 2.9e-7 m apart at the rest pose) and its wrist-roll limits (2.2e-6 rad), and its hand
  // collision shapes put the hand points 12 mm apart (the hands move only the wrists). The first
  // two move an angle by a few microradians, hence the bound of 1e-5 rad, set from them before
  // measuring; the wrists, first measured apart (2.05e-6 rad), are held to it too. H1 is not
  // compared: menagerie's H1 limits the hip pitch to +-1.57 rad (the URDF: -3.14..2.53), and its
  // forearm and foot collision shapes put the wrist points 115 mm and the foot points 50 mm
  // elsewhere: another virtual skeleton, other angles (up to 0.12 rad on the come-here recording
  // with the URDF's hip limits).
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const SkeletonMotiond motion = loadShared(data_dir / "kinect/laban_ges04_comehere_kinect2.csv");
  const RobotModel<double> a = loadUrdf<double>(data_dir / "urdf/unitree_g1_29dof_rev_1_0.urdf").model;
  const RobotModel<double> b = loadMjcf<double>(data_dir / "mjcf/unitree_g1_g1.xml").model;
  HumanoidMapper<double> ma(a, bindHumanoid(a)), mb(b, bindHumanoid(b));
  const MappedMotion<double> qa = mapMotion(ma, motion), qb = mapMotion(mb, motion);
  double worst = 0;
  int matched = 0;
  for (int i = 0; i < a.nq(); ++i) {
    std::string name = a.qName(i);
    if (name.size() > 6 && name.compare(name.size() - 6, 6, "_joint") == 0) name.resize(name.size() - 6);
    const int j = b.findQ(a.qName(i)) >= 0 ? b.findQ(a.qName(i)) : b.findQ(name);
    if (j < 0) continue;
    ++matched;
    worst = std::max(worst, (qa.q.col(i) - qb.q.col(j)).cwiseAbs().maxCoeff());
  }
  MESSAGE("G1: " << matched << " of " << a.nq() << " coordinates matched; largest difference " << worst << " rad over "
                 << motion.size() << " frames");
  CHECK(matched == a.nq());
  CHECK(worst <= 1e-5);
}
