// The embodiment gap measured (issue 10): on the demo motions and on every shared Kinect
// recording, GA-LVVJ's achieved WBF / LLF per link against the best any NAO configuration within
// the limits reaches (metrics/best_reachable.hpp).
//
// "Within reach": a frame's link is within reach for an index when its best reachable value is
// at least kWithinReach = 0.98 (the robot can point the link within about 11 deg of the human's).
// On the frames where a link is within reach, the mapper's mean must be within kGap = 0.02 of the
// mean best reachable value. Links with frames out of reach are listed with their counts: there
// the robot, not the mapper, is the limit. The table is printed (MESSAGE) per file and link.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/robots/nao.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

constexpr double kWithinReach = 0.98;
constexpr double kGap = 0.02;

struct IndexSummary {
  double achieved = 0, best = 0;  // means over the frames within reach
  int within = 0, out_of_reach = 0, frames_over_gap = 0;
  double worst_gap = 0;           // largest per-frame best - achieved within reach
};

// Findings (issue 10): links where GA-LVVJ with its default options is more than kGap below
// the best reachable value on frames within reach, as measured when this test was written
// (gap = mean best - mean achieved over those frames). The bound is not relaxed for them: each
// is reported, must still exceed it (else remove the entry) and must not grow by more than 0.01.
// Causes seen: (1) WBF with the torso-aligned base while the human's torso leans (squat, the
// seated Keraal takes, comehere): GA-LVVJ copies body-relative angles and NAO's torso stays
// upright, while the best reachable turns the limb to the human's world direction; (2) legs
// with HipYawPitch fixed at 0 (the paper's and the default kFixed): the best reachable may use
// HipYawPitch, the mapper does not; (3) arms whose exact solution is outside the limits, where
// the continuity-weighted choice keeps a solution the best reachable beats (chickenwing, Keraal
// RTK right arm); (4) the close-range recording's tibias: few valid frames, next to held knees.
struct KnownGap {
  const char* label;
  const char* link;
  bool wbf;
  double gap;
};
const KnownGap kKnownGaps[] = {
    {"demo squat", "LeftUpperArm", true, 0.0412},
    {"demo squat", "RightUpperArm", true, 0.0412},
    {"demo squat", "LeftLowerArm", true, 0.0412},
    {"demo squat", "RightLowerArm", true, 0.0412},
    {"demo squat", "LeftThigh", true, 0.0412},
    {"demo squat", "RightThigh", true, 0.0412},
    {"demo squat", "LeftTibia", true, 0.0412},
    {"demo squat", "RightTibia", true, 0.0412},
    {"demo squat", "Head", true, 0.0412},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "LeftUpperArm", true, 0.0322},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "RightUpperArm", true, 0.0925},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "RightUpperArm", false, 0.0686},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "LeftLowerArm", true, 0.0286},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "RightLowerArm", true, 0.0834},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "LeftThigh", true, 0.0347},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "LeftThigh", false, 0.0810},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "RightThigh", true, 0.0344},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "RightThigh", false, 0.0690},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "LeftTibia", true, 0.3208},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "LeftTibia", false, 0.5519},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "RightTibia", true, 0.2120},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "RightTibia", false, 0.3960},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "Head", true, 0.0429},
    {"keraal_G3_kinect2_ELK_lateral_stretch_seated.txt", "Head", false, 0.0342},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "LeftUpperArm", true, 0.0445},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "RightUpperArm", true, 0.0583},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "LeftLowerArm", true, 0.0486},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "RightLowerArm", true, 0.0639},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "RightLowerArm", false, 0.1306},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "LeftThigh", true, 0.0218},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "LeftThigh", false, 0.1174},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "RightThigh", false, 0.0990},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "LeftTibia", true, 0.3258},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "LeftTibia", false, 0.5480},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "RightTibia", true, 0.2451},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "RightTibia", false, 0.3527},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "Head", true, 0.0677},
    {"keraal_G3_kinect2_RTK_trunk_rotation_seated.txt", "Head", false, 0.0528},
    {"laban_ges04_comehere_kinect2.csv", "LeftUpperArm", true, 0.0397},
    {"laban_ges04_comehere_kinect2.csv", "RightThigh", true, 0.0295},
    {"laban_ges04_comehere_kinect2.csv", "LeftTibia", true, 0.0285},
    {"laban_ges04_comehere_kinect2.csv", "RightTibia", true, 0.0202},
    {"laban_ges04_comehere_kinect2.csv", "Head", true, 0.0245},
    {"laban_ges04_comehere_kinect2.csv", "Head", false, 0.0568},
    {"laban_ges06_chickenwing_kinect2.csv", "LeftUpperArm", true, 0.0275},
    {"laban_ges06_chickenwing_kinect2.csv", "LeftUpperArm", false, 0.0278},
    {"laban_ges06_chickenwing_kinect2.csv", "RightUpperArm", true, 0.0355},
    {"laban_ges06_chickenwing_kinect2.csv", "RightUpperArm", false, 0.0661},
    {"laban_ges06_chickenwing_kinect2.csv", "LeftLowerArm", true, 0.0911},
    {"laban_ges06_chickenwing_kinect2.csv", "RightLowerArm", true, 0.1522},
    {"laban_kinectreader_joints_closerange_kinect2.csv", "LeftTibia", true, 0.7363},
    {"laban_kinectreader_joints_closerange_kinect2.csv", "RightTibia", true, 1.5019},
};

const KnownGap* findKnownGap(const std::string& label, const std::string& link, bool wbf) {
  for (const auto& k : kKnownGaps) {
    if (label == k.label && link == k.link && wbf == k.wbf) return &k;
  }
  return nullptr;
}

IndexSummary summarise(const MotionBestReachable<double>& b, std::size_t i, bool wbf) {
  IndexSummary s;
  for (const auto& f : b.frames) {
    if (!(wbf ? f.wbf_valid[i] : f.llf_valid[i])) continue;
    const double achieved = wbf ? f.wbf_achieved[i] : f.llf_achieved[i];
    const double best = wbf ? f.wbf_best[i] : f.llf_best[i];
    REQUIRE(best >= achieved);  // never below what the mapper achieved (property)
    if (best < kWithinReach) {
      ++s.out_of_reach;
      continue;
    }
    s.achieved += achieved;
    s.best += best;
    ++s.within;
    s.worst_gap = std::max(s.worst_gap, best - achieved);
    s.frames_over_gap += best - achieved > kGap ? 1 : 0;
  }
  if (s.within > 0) {
    s.achieved /= s.within;
    s.best /= s.within;
  }
  return s;
}

std::string fixed(double v, int digits = 4) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, v);
  return buffer;
}

// Maps `motion` onto NAO with GA-LVVJ (default options), prints the table and checks the gap.
void checkMotion(const std::string& label, const SkeletonMotiond& motion) {
  static const RobotModel<double> nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  const MotionBestReachable<double> b = motionBestReachable(nao, naoGaLvvjMap(), motion.frames, mapped.q);
  std::string table = label + " (" + std::to_string(motion.size()) +
                      " frames; all-frame means WBF achieved/best, LLF achieved/best; within reach = best >= 0.98)\n";
  std::string out_of_reach, findings;
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    CAPTURE(label);
    CAPTURE(kSimilarityLinkNames[i]);
    const IndexSummary w = summarise(b, i, true), l = summarise(b, i, false);
    char line[256];
    std::snprintf(line, sizeof line, "  %-14s WBF %s / %s   LLF %s / %s   [%d/%d frames out of reach; worst gap %s/%s]\n",
                  kSimilarityLinkNames[i], fixed(b.wbf_achieved_mean[i]).c_str(), fixed(b.wbf_best_mean[i]).c_str(),
                  fixed(b.llf_achieved_mean[i]).c_str(), fixed(b.llf_best_mean[i]).c_str(), w.out_of_reach,
                  l.out_of_reach, fixed(w.worst_gap, 3).c_str(), fixed(l.worst_gap, 3).c_str());
    table += b.wbf_frames[i] > 0 ? line : "  " + std::string(kSimilarityLinkNames[i]) + " n/a (never valid)\n";
    if (w.out_of_reach + l.out_of_reach > 0) {
      out_of_reach += std::string(out_of_reach.empty() ? "" : ", ") + kSimilarityLinkNames[i] + " (WBF " +
                      std::to_string(w.out_of_reach) + ", LLF " + std::to_string(l.out_of_reach) + " frames)";
    }
    // Where the human pose is within reach, the mapper is within kGap of the best (means),
    // except for the findings listed in kKnownGaps, which must still be there.
    for (const bool wbf : {true, false}) {
      const IndexSummary& s = wbf ? w : l;
      if (s.within == 0) continue;
      const double gap = s.best - s.achieved;
      const KnownGap* known = findKnownGap(label, kSimilarityLinkNames[i], wbf);
      if (gap > kGap) {
        findings += "  FINDING " + label + " " + kSimilarityLinkNames[i] + (wbf ? " WBF" : " LLF") + ": achieved " +
                    fixed(s.achieved) + ", best reachable " + fixed(s.best) + " (gap " + fixed(gap) + ") over " +
                    std::to_string(s.within) + " frames within reach, " + std::to_string(s.frames_over_gap) +
                    " frames over the gap\n";
      }
      CHECK_MESSAGE((gap <= kGap || known != nullptr), label, " ", kSimilarityLinkNames[i], wbf ? " WBF" : " LLF",
                    ": mapper ", s.achieved, " is more than ", kGap, " below the best reachable ", s.best,
                    " and the gap is not a listed finding");
      if (known != nullptr) {
        CHECK_MESSAGE(gap > kGap, label, " ", kSimilarityLinkNames[i], " is no longer a gap: remove it from kKnownGaps");
        CHECK_MESSAGE(gap <= known->gap + 0.01, label, " ", kSimilarityLinkNames[i], ": the gap grew from ",
                      known->gap, " to ", gap);
      }
    }
  }
  if (!findings.empty()) MESSAGE(findings);
  MESSAGE(table);
  MESSAGE(label, ": links with frames out of reach: ", out_of_reach.empty() ? "none" : out_of_reach);
}

}  // namespace

TEST_CASE("ga-lvvj best reachable: the demo motions on NAO") {
  for (const std::string& name : demoMotionNames()) {
    checkMotion("demo " + name, demoMotion(name, DemoMotionOptions{15.0, 6.0, 1.75}));
  }
}

TEST_CASE("ga-lvvj best reachable: every shared Kinect recording on NAO") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir / "kinect")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  for (const auto& path : files) checkMotion(path.filename().string(), readKinect(path.string()));
}
