// The whole-body pipeline on real motion capture and on every demo, at each take's own rate and
// resampled to 30 Hz, checked apart from the library: NAO's URDF read with tinyxml2 (link masses
// and centres of mass) and orocos KDL's forward kinematics (kdl_parser), the feet's support
// rectangles from the URDF's force-sensor frames. Of the library only the joint order of the
// written angles is used. In every frame the robot does not walk:
// - double support declared: the right sole lies on the left sole's plane (every sensor point
//   within 2 mm) and the CoM projects into the hull of both soles' rectangles (5 mm tolerance);
// - single support declared: the free sole is nowhere below the support sole's plane by more
//   than 2 mm and the CoM projects into the support sole's rectangle (5 mm tolerance).
// At 30 Hz, on the frames the robot does not walk (the walking controller owns the legs there)
// and is not held back by its joint speeds (kRateLimited: still catching up with a human who
// moved faster, e.g. from a BVH take's T-pose first frame), WBF with the robot standing on its
// feet is within 0.05 of the best reachable value on every link where the link is within reach
// (metrics/best_reachable.hpp; every second frame); the thighs and tibias also leave out the
// frames where the support modes hold the legs (Section 4.2's wobble filter, Section 4.3's d0: a
// person starting to step).
// The figures per take (frames in each mode, WBF/LLF) are printed for docs/methods/whole_body.md.
#include <doctest/doctest.h>

#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <retarget/control/whole_body.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>
#include <retarget/metrics/best_reachable.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>

#include "robots/kdl_reference.hpp"
#include "support/hull_distance.hpp"
#include "support/resample.hpp"
#include "support/step_takes.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

// NAO as its URDF describes it, with nothing from the library's model.
class UrdfNao {
 public:
  explicit UrdfNao(const std::string& urdf) {
    REQUIRE(facts_.load(urdf));
    REQUIRE(kdl_.load(urdf));
    for (const auto& [name, link] : facts_.links) {
      if (link.mass && *link.mass > 0 && kdl_.hasSegment(name)) masses_.push_back({name, *link.mass, link.com});
    }
    REQUIRE(masses_.size() > 10);
  }

  // Evaluates configuration q (the model's coordinate order and names).
  void set(const RobotModel<double>& model, const Eigen::VectorXd& q) {
    kdl_.setConfiguration(model, q, facts_);
    X_left_ = kdl_.pose("l_sole");
    X_right_ = kdl_.pose("r_sole");
  }
  // Centre of mass (m, KDL's root frame).
  Eigen::Vector3d com() {
    Eigen::Vector3d sum = Eigen::Vector3d::Zero();
    double total = 0;
    for (const Mass& m : masses_) {
      sum += m.mass * (kdl_.pose(m.link) * m.com);
      total += m.mass;
    }
    return sum / total;
  }
  // The four force-sensor points of a sole (side 0 left, 1 right) in KDL's root frame.
  std::array<Eigen::Vector3d, 4> sensors(int side) {
    static const std::array<const char*, 4> corners = {"FL", "FR", "RL", "RR"};
    std::array<Eigen::Vector3d, 4> out;
    for (std::size_t c = 0; c < 4; ++c) {
      out[c] = kdl_.pose(std::string(side == 0 ? "LFsr" : "RFsr") + corners[c] + "_frame").translation();
    }
    return out;
  }
  const Isometry3<double>& sole(int side) const { return side == 0 ? X_left_ : X_right_; }

 private:
  struct Mass {
    std::string link;
    double mass;
    Eigen::Vector3d com;
  };
  test::UrdfFacts facts_;
  test::KdlReference kdl_;
  std::vector<Mass> masses_;
  Isometry3<double> X_left_, X_right_;
};

struct Figures {
  int frames = 0;
  std::map<SupportMode, int> modes;
  int com_outside = 0;         // by more than 5 mm
  int double_off_ground = 0;   // a sole more than 2 mm off the ground plane while double
  int foot_below_ground = 0;   // the free sole more than 2 mm below the support sole's plane
  double worst_com = INFINITY;  // smallest CoM distance inside the support (m)
  double worst_height = 0;      // largest |height| of a double-support sole point (m)
  double wbf = 0, llf = 0;
  std::string events;
  int rate_limited = 0;  // frames the robot ended behind its target for its joint speeds
  // Every second frame the robot does not walk and is not rate limited: the human frame and the
  // written angles.
  std::vector<SkeletonFramed> standing_human;
  std::vector<Eigen::VectorXd> standing_q;
  std::vector<bool> standing_legs_held;
};

Figures run(UrdfNao& urdf, const SkeletonMotiond& motion) {
  static const RobotModel<double> nao = makeNao();
  WholeBodyPipeline pipeline(nao, naoWholeBodyMap());
  VirtualSkeleton<double> skeleton(nao, naoGaLvvjMap(), WbfBase::kSupportFoot);  // the robot on its feet
  std::vector<SkeletonFramed> robot(motion.size());
  Eigen::VectorXd q(nao.nq());
  Figures out;
  for (std::size_t k = 0; k < motion.size(); ++k) {
    (void)pipeline.map(motion.frames[k], q);
    const WholeBodyReport& r = pipeline.report();
    ++out.frames;
    ++out.modes[r.mode];
    if (r.changed) out.events += std::string(supportModeName(r.mode)) + " " + std::to_string(r.event.time) + " s; ";
    robot[k].time = motion.frames[k].time;
    REQUIRE(skeleton.compute(q, robot[k]).ok());
    if (r.mode == SupportMode::kWalking) continue;
    out.rate_limited += r.rate_limited ? 1 : 0;
    if (k % 2 == 0 && !r.rate_limited) {
      out.standing_human.push_back(motion.frames[k]);
      out.standing_q.push_back(q);
      out.standing_legs_held.push_back(r.modes.lower_limbs_suspended);
    }
    urdf.set(nao, q);
    const int support = r.mode == SupportMode::kSingleRight ? 1 : 0;
    const Isometry3<double> X_S_inverse = urdf.sole(support).inverse();
    std::vector<Eigen::Vector2d> polygon;
    for (const Eigen::Vector3d& p : urdf.sensors(support)) polygon.push_back((X_S_inverse * p).head<2>());
    for (const Eigen::Vector3d& p : urdf.sensors(1 - support)) {
      const double height = (X_S_inverse * p).z();
      if (r.mode == SupportMode::kDouble) {
        out.worst_height = std::max(out.worst_height, std::abs(height));
        if (std::abs(height) > 0.002) ++out.double_off_ground;
        polygon.push_back((X_S_inverse * p).head<2>());
      } else if (height < -0.002) {
        ++out.foot_below_ground;
      }
    }
    const double inside = test::insideHull(polygon, (X_S_inverse * urdf.com()).head<2>());
    out.worst_com = std::min(out.worst_com, inside);
    if (inside < -0.005) ++out.com_outside;
  }
  const MotionSimilarity<double> s = motionSimilarity(motion.frames, robot);
  out.wbf = s.wbf_mean;
  out.llf = s.llf_mean;
  return out;
}

// WBF (NAO on its feet) against the best reachable value, per link, over the frames within reach.
void checkImitation(const std::string& label, const Figures& f) {
  static const RobotModel<double> nao = makeNao();
  Eigen::MatrixXd q(static_cast<Eigen::Index>(f.standing_q.size()), nao.nq());
  for (std::size_t k = 0; k < f.standing_q.size(); ++k) q.row(static_cast<Eigen::Index>(k)) = f.standing_q[k].transpose();
  BestReachableOptions options;
  options.wbf_base = WbfBase::kSupportFoot;
  const MotionBestReachable<double> b = motionBestReachable(nao, naoGaLvvjMap(), f.standing_human, q, options);
  std::string line;
  for (std::size_t i = 0; i < static_cast<std::size_t>(kSimilarityLinkCount); ++i) {
    const auto link = static_cast<SimilarityLink>(i);
    const bool leg = link == SimilarityLink::kLeftThigh || link == SimilarityLink::kRightThigh ||
                     link == SimilarityLink::kLeftTibia || link == SimilarityLink::kRightTibia;
    double achieved = 0, best = 0;
    int frames = 0;
    for (std::size_t k = 0; k < b.frames.size(); ++k) {
      if (!b.frames[k].wbf_within_reach[i] || (leg && f.standing_legs_held[k])) continue;
      achieved += b.frames[k].wbf_achieved[i];
      best += b.frames[k].wbf_best[i];
      ++frames;
    }
    if (frames == 0) continue;
    achieved /= frames;
    best /= frames;
    line += std::string(" ") + kSimilarityLinkNames[i] + " " + std::to_string(achieved).substr(0, 5) + "/" +
            std::to_string(best).substr(0, 5) + " (" + std::to_string(frames) + ")";
    CAPTURE(kSimilarityLinkNames[i]);
    CHECK_MESSAGE(best - achieved <= 0.05, label, ": WBF ", achieved, " more than 0.05 below the best reachable ", best);
  }
  MESSAGE(label, " at 30 Hz, rate limited in ", f.rate_limited, " of ", f.frames,
          " frames; WBF achieved/best reachable on the other standing frames (frames within reach):", line);
}

void checkTake(UrdfNao& urdf, const std::string& label, const SkeletonMotiond& motion) {
  for (const bool at_30_hz : {false, true}) {
    const Figures f = run(urdf, at_30_hz ? test::resampled(motion, 30.0) : motion);
    std::string modes;
    for (const auto& [mode, count] : f.modes) modes += std::string(supportModeName(mode)) + " " + std::to_string(count) + ", ";
    MESSAGE(label << std::string(at_30_hz ? " at 30 Hz" : " at its own rate") << ": " << f.frames << " frames (" << modes
                  << "); CoM inside the support by " << f.worst_com * 1000 << " mm at worst; double-support sole "
                  << "points within " << f.worst_height * 1000 << " mm of the ground; WBF " << f.wbf << ", LLF "
                  << f.llf << "; events: " << (f.events.empty() ? "none" : f.events));
    CAPTURE(label);
    CAPTURE(at_30_hz);
    CHECK(f.com_outside == 0);
    CHECK(f.double_off_ground == 0);
    CHECK(f.foot_below_ground == 0);
    if (at_30_hz && !f.standing_q.empty()) checkImitation(label, f);
  }
}

}  // namespace

TEST_CASE("whole body, checked with KDL and the URDF: every shared BVH take, every demo and two refused steps, own rate and 30 Hz") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  UrdfNao urdf((data_dir / "urdf" / "nao_h25_v50.urdf").string());
  int takes = 0;
  for (const auto& path : test::filesIn(data_dir / "bvh", ".bvh")) {
    const SkeletonMotiond motion = bvhToSkeleton(readBvh(path.string()));
    if (motion.empty()) continue;  // the 0-frame PN Studio template
    checkTake(urdf, path.filename().string(), motion);
    ++takes;
  }
  CHECK(takes == 5);  // MANIFEST.md: 6 BVH files, one of them the 0-frame template
  for (const std::string& name : demoMotionNames()) {
    checkTake(urdf, "demo " + name, demoMotion(name, DemoMotionOptions{30.0, 12.0, 1.75}));
  }
  // Steps the robot refuses (tests/support/step_takes.hpp): it stays on two feet throughout.
  for (const std::string name : {"fast step", "kick"}) {
    const SkeletonMotiond take = test::stepTake(name, 120.0);
    checkTake(urdf, "generated " + name, take);
    static const RobotModel<double> nao = makeNao();
    WholeBodyPipeline pipeline(nao, naoWholeBodyMap());
    int refused = 0, not_double = 0;
    (void)mapMotion(pipeline, take, [&](std::size_t, const WholeBodyPipeline& p) {
      refused += p.report().modes.refused ? 1 : 0;
      not_double += p.report().mode != SupportMode::kDouble ? 1 : 0;
    });
    CAPTURE(name);
    CHECK(refused == 1);
    CHECK(not_double == 0);
  }
}
