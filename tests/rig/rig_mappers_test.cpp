// Mappers on automatically bound rigs: the Euler mapper onto InMoov through `inmoovRigEulerMap`
// gives the same robot angles for the same body motion in every corpus variant (names, units,
// axes, T-pose / A-pose, channel orders); the built-in InMoov configurations stay bit-identical on
// the shared files; GA-LVVJ onto NAO runs on every corpus variant and every shared BVH with finite
// output within limits (WBF / LLF reported per file).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/virtual_skeleton.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/inmoov.hpp>
#include <retarget/robots/nao.hpp>

#include "rig/rig_corpus.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

bool withinLimits(const RobotModel<double>& model, const Eigen::VectorXd& q) {
  return q.allFinite() && (q.array() >= model.lowerLimits().array()).all() &&
         (q.array() <= model.upperLimits().array()).all();
}

// Maps every frame with the Euler mapper; returns frames x nq (robot) and the raw human values.
Eigen::MatrixXd mapEuler(const RobotModel<double>& model, const BvhMotion& motion, const EulerMap& map,
                         Eigen::MatrixXd* raw = nullptr) {
  EulerMapper<double> mapper(model, motion, map);
  Eigen::MatrixXd q(motion.frame_count, model.nq());
  if (raw != nullptr) raw->resize(motion.frame_count, model.nq());
  Eigen::VectorXd row(model.nq());
  for (int f = 0; f < motion.frame_count; ++f) {
    const Status status = mapper.map(motion.frameValues(f), row);
    CHECK(!status.has(StatusCode::kInvalidInput));
    CHECK(withinLimits(model, row));
    q.row(f) = row.transpose();
    if (raw != nullptr) raw->row(f) = mapper.rawOutput().transpose();
  }
  return q;
}

// GA-LVVJ onto NAO: finite within limits; returns the motion similarity of the robot's virtual
// skeleton to the human.
MotionSimilarity<double> gaLvvjOnNao(const SkeletonMotiond& motion, int& bad_frames) {
  static const RobotModel<double> nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  VirtualSkeleton<double> skeleton(nao, naoGaLvvjMap());
  const MappedMotion<double> mapped = mapMotion(mapper, motion);
  std::vector<SkeletonFramed> robot(motion.size());
  bad_frames = 0;
  for (std::size_t k = 0; k < motion.size(); ++k) {
    const Eigen::VectorXd q = mapped.q.row(static_cast<Eigen::Index>(k)).transpose();
    if (!withinLimits(nao, q)) ++bad_frames;
    robot[k].time = motion.frames[k].time;
    REQUIRE(skeleton.compute(q, robot[k]).ok());
  }
  return motionSimilarity(motion.frames, robot);
}

}  // namespace

TEST_CASE("rig euler: for the built-in frame and a T-pose the rig map is the built-in configuration") {
  const RigKnownMotion known = rigKnownMotion(1, 1);
  RigVariant v;
  v.family = &rigFamilies().front();  // LAFAN1 names, cm, Y up facing +Z, T-pose
  v.R_WS = rigFrames().front().second;
  const BvhMotion motion = rigVariantMotion(v, known);
  const EulerMap rig = inmoovRigEulerMap(motion, bindRig(motion));
  const EulerMap builtin = inmoovAxisNeuronMap();
  for (const EulerJointMapping& m : rig.joints) {
    CAPTURE(m.robot_joint);
    const auto it = std::find_if(builtin.joints.begin(), builtin.joints.end(),
                                 [&](const EulerJointMapping& b) { return b.robot_joint == m.robot_joint; });
    REQUIRE(it != builtin.joints.end());
    CHECK((m.kind == it->kind));
    CHECK((m.order == it->order));
    CHECK(m.angle == it->angle);
    CHECK(m.sign == it->sign);
    CHECK(m.offset == it->offset);
    CHECK((m.reference - it->reference).norm() < 1e-12);
    CHECK((m.axis - it->axis).norm() < 1e-12);
  }
  CHECK(rig.joints.size() == 12);  // 22 minus the 10 finger joints (the corpus has no fingers)
}

TEST_CASE("rig euler: the same body motion gives the same InMoov angles on every corpus variant") {
  const auto model = makeInMoov<double>();
  const RigKnownMotion known = rigKnownMotion(16, 77);
  RigVariant reference_variant;
  reference_variant.family = &rigFamilies().front();
  const BvhMotion reference_motion = rigVariantMotion(reference_variant, known);
  Eigen::MatrixXd reference_raw;
  const Eigen::MatrixXd reference = mapEuler(model, reference_motion, inmoovEulerMap(reference_motion), &reference_raw);
  double worst = 0;
  int variants = 0;
  for (const RigVariant& v : rigVariants()) {
    CAPTURE(v.label());
    const BvhMotion motion = rigVariantMotion(v, known);
    const EulerMap map = inmoovEulerMap(motion);  // no built-in family: the rig map
    CHECK(map.name == "inmoov/auto");
    Eigen::MatrixXd raw;
    const Eigen::MatrixXd q = mapEuler(model, motion, map, &raw);
    worst = std::max(worst, (q - reference).cwiseAbs().maxCoeff());
    CHECK((q - reference).cwiseAbs().maxCoeff() < 1e-9);
    // The human angles before clamping agree too, up to whole turns of the Euler angles.
    const Eigen::MatrixXd d = raw - reference_raw;
    CHECK(d.unaryExpr([](double x) { return std::abs(std::remainder(x, 2 * kPi<double>)); }).maxCoeff() < 1e-9);
    ++variants;
  }
  MESSAGE("InMoov Euler angles over " << variants << " corpus variants: worst difference " << worst << " rad");
}

TEST_CASE("rig euler: the built-in InMoov configurations are unchanged on every shared BVH") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const auto model = makeInMoov<double>();
  int files = 0;
  for (const auto& item : std::filesystem::directory_iterator(data_dir / "bvh")) {
    if (item.path().extension() != ".bvh") continue;
    CAPTURE(item.path().filename().string());
    const BvhMotion motion = readBvh(item.path());
    const std::string skeleton = detectEulerSkeleton(motion);
    REQUIRE(!skeleton.empty());
    CHECK((inmoovEulerMap(motion) == inmoovEulerMap(skeleton)));
    // The rig map, built from the file's own binding, also runs on it within limits.
    const EulerMap rig = inmoovRigEulerMap(motion, bindRig(motion));
    const Eigen::MatrixXd q = mapEuler(model, motion, rig);
    CHECK(q.allFinite());
    ++files;
  }
  CHECK(files >= 6);
}

TEST_CASE("rig ga-lvvj: every corpus family and pose, and every shared BVH, onto NAO within limits") {
  const RigKnownMotion known = rigKnownMotion(20, 4);
  std::map<std::string, bool> seen;
  for (const RigVariant& v : rigVariants()) {
    const std::string key = v.family->name + (v.a_pose ? "A" : "T");
    if (seen[key]) continue;  // one unit/frame per family and pose: the canonical motion is the same
    seen[key] = true;
    CAPTURE(v.label());
    const SkeletonMotiond motion = bvhToSkeleton(rigVariantMotion(v, known));
    int bad = 0;
    const MotionSimilarity<double> s = gaLvvjOnNao(motion, bad);
    CHECK(bad == 0);
    CHECK(std::isfinite(s.wbf_mean));
    CHECK(std::isfinite(s.llf_mean));
    MESSAGE(v.label() << ": GA-LVVJ/NAO WBF " << s.wbf_mean << " LLF " << s.llf_mean);
  }
  CHECK(seen.size() == 2 * rigFamilies().size());
  const auto data = testDataDir();
  if (!data) return;
  for (const auto& item : std::filesystem::directory_iterator(*data / "bvh")) {
    if (item.path().extension() != ".bvh") continue;
    CAPTURE(item.path().filename().string());
    const BvhMotion bvh = readBvh(item.path());
    const SkeletonMotiond motion = bvhToSkeleton(bvh);
    int bad = 0;
    const MotionSimilarity<double> s = gaLvvjOnNao(motion, bad);
    CHECK(bad == 0);
    if (!motion.empty()) {
      CHECK(std::isfinite(s.wbf_mean));
      CHECK(std::isfinite(s.llf_mean));
    }
    // The same file through its automatic binding (as an unknown rig would go).
    const SkeletonMotiond automatic = bvhToSkeleton(bvh, bindRig(bvh).schema);
    int bad_auto = 0;
    const MotionSimilarity<double> a = gaLvvjOnNao(automatic, bad_auto);
    CHECK(bad_auto == 0);
    MESSAGE(item.path().filename().string()
            << " (" << motion.size() << " frames): GA-LVVJ/NAO built-in schema WBF " << s.wbf_mean << " LLF "
            << s.llf_mean << "; automatic binding WBF " << a.wbf_mean << " LLF " << a.llf_mean);
  }
}
