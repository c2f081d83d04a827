// Per-joint clamp / held table on every shared Kinect recording (issue 10): the counts and worst
// amounts of mapMotion (mappers/mapper.hpp) agree exactly with an independent recount made here
// from the written angles, the mapper's wanted() values and NAO's limits (clamps), and from the
// input's tracking states and the skeleton joints each virtual joint needs (held). The
// close-range recording's knees are never computed from inferred joints without a held flag.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <retarget/io/kinect.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/robots/nao.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

using H = HumanJoint;

// The skeleton joints a NAO joint's GA-LVVJ angle needs (torso frame points included), read
// off seed 000 Section 3.2: arms need their upper torso frame, the shoulder and elbow, and the
// wrist for the elbow joints; legs their lower torso frame, hip and knee, and the ankle for the
// knee; HeadPitch the central upper torso frame, neck and head. Empty: never held.
std::vector<H> needs(const std::string& joint) {
  const bool left = joint[0] == 'L';
  const std::vector<H> upper = {H::kSpineMid, H::kSpineShoulder, left ? H::kShoulderLeft : H::kShoulderRight};
  const std::vector<H> lower = {H::kSpineBase, H::kSpineMid, left ? H::kHipLeft : H::kHipRight};
  auto with = [](std::vector<H> base, std::initializer_list<H> more) {
    base.insert(base.end(), more);
    return base;
  };
  if (joint == "LShoulderPitch" || joint == "LShoulderRoll" || joint == "RShoulderPitch" || joint == "RShoulderRoll") {
    return with(upper, {left ? H::kElbowLeft : H::kElbowRight});
  }
  if (joint.find("Elbow") != std::string::npos) {
    return with(upper, {left ? H::kElbowLeft : H::kElbowRight, left ? H::kWristLeft : H::kWristRight});
  }
  if (joint == "LHipRoll" || joint == "LHipPitch" || joint == "RHipRoll" || joint == "RHipPitch") {
    return with(lower, {left ? H::kKneeLeft : H::kKneeRight});
  }
  if (joint.find("KneePitch") != std::string::npos) {
    return with(lower, {left ? H::kKneeLeft : H::kKneeRight, left ? H::kAnkleLeft : H::kAnkleRight});
  }
  if (joint == "HeadPitch") return {H::kSpineMid, H::kSpineShoulder, H::kShoulderLeft, H::kShoulderRight, H::kNeck, H::kHead};
  return {};
}

// Usable under the default policy (InferredJoints::kHold): tracked and finite.
bool trackedAndFinite(const SkeletonFramed& f, H j) {
  return f.trackingState(j) == TrackingState::kTracked && f.position(j).allFinite();
}

}  // namespace

TEST_CASE("ga-lvvj status table: per-joint clamp and held counts agree with an independent recount") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const RobotModel<double> nao = makeNao<double>();
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(data_dir / "kinect")) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  CHECK(files.size() == 7);  // MANIFEST.md: 7 Kinect v2 recordings (5 LabanotationSuite, 2 Keraal)
  for (const auto& path : files) {
    const std::string file = path.filename().string();
    CAPTURE(file);
    const SkeletonMotiond motion = readKinect(path.string());
    GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
    const MappedMotion<double> mapped = mapMotion(mapper, motion);

    // Independent recount: map again frame by frame, read only q, wanted() and the limits.
    GaLvvjMapper<double> again(nao, naoGaLvvjMap());
    const double tolerance = again.options().clamp_tolerance;
    Eigen::VectorXi clamped = Eigen::VectorXi::Zero(nao.nq()), held = Eigen::VectorXi::Zero(nao.nq());
    Eigen::VectorXi singular = Eigen::VectorXi::Zero(nao.nq());
    Eigen::VectorXd worst = Eigen::VectorXd::Zero(nao.nq());
    Eigen::VectorXd q(nao.nq());
    int knee_frames_inferred = 0;
    for (std::size_t k = 0; k < motion.size(); ++k) {
      const SkeletonFramed& frame = motion.frames[k];
      (void)again.map(frame, q);
      REQUIRE(q == mapped.q.row(static_cast<Eigen::Index>(k)).transpose());
      for (int i = 0; i < nao.nq(); ++i) {
        const std::string name = nao.qName(i);
        const std::vector<H> need = needs(name);
        const bool input_missing =
            std::any_of(need.begin(), need.end(), [&](H j) { return !trackedAndFinite(frame, j); });
        held[i] += input_missing ? 1 : 0;
        // A held value is not a clamp (it is the last good value, within limits).
        const bool on_limit = q[i] == nao.lowerLimits()[i] || q[i] == nao.upperLimits()[i];
        const double amount = std::abs(again.wanted()[i] - q[i]);
        if (!input_missing && on_limit && amount > tolerance) {
          ++clamped[i];
          worst[i] = std::max(worst[i], amount);
        }
        singular[i] += again.singular()[i] ? 1 : 0;
        // Knees: computed from inferred joints only with a held flag.
        if (name.find("KneePitch") != std::string::npos) {
          const bool inferred = std::any_of(need.begin(), need.end(), [&](H j) {
            return frame.trackingState(j) == TrackingState::kInferred;
          });
          if (inferred) {
            ++knee_frames_inferred;
            CHECK_MESSAGE(again.held()[i], file, " frame ", k, " ", name, " uses an inferred joint without a flag");
          }
        }
      }
    }
    std::string table = file + " (" + std::to_string(motion.size()) +
                        " frames): joint, clamped frames (mapper/recount), worst clamp deg, held frames "
                        "(mapper/recount), singular frames\n";
    for (int i = 0; i < nao.nq(); ++i) {
      CAPTURE(nao.qName(i));
      CHECK(mapped.clamped_count[i] == clamped[i]);
      CHECK(mapped.held_count[i] == held[i]);
      CHECK(mapped.clamped_worst[i] == worst[i]);
      if (mapped.clamped_count[i] + mapped.held_count[i] + singular[i] == 0) continue;
      char line[160];
      std::snprintf(line, sizeof line, "  %-16s %4d/%-4d %7.2f   %4d/%-4d %4d\n", nao.qName(i).c_str(),
                    mapped.clamped_count[i], clamped[i], worst[i] * 180.0 / kPi<double>, mapped.held_count[i], held[i],
                    singular[i]);
      table += line;
    }
    MESSAGE(table);
    if (file.find("closerange") != std::string::npos) {
      MESSAGE(file, ": knee angle computations with an inferred input: ", knee_frames_inferred, " (all flagged held)");
      CHECK(knee_frames_inferred > 0);  // the recording does infer its knees; each such frame is flagged
    }
  }
}
