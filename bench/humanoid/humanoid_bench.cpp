// HumanoidMapper per whole-body frame on the automatically bound Unitree G1 (29 DOF) and H1
// (19 DOF), beside orocos KDL's numerical IK (ChainIkSolverPos_LMA) solving the same targets: for
// each frame, the end-link frames (position and orientation, each in its limb's base link) that
// our mapper reached on that frame, for the four limb chains of the binding (both arms from the
// torso, both legs from the pelvis), warm-started from KDL's own solution of the previous frame
// as a control loop would be (from the rest configuration at the start of a take, as ours).
// Position and orientation weigh alike (1 m ~ 1 rad); KDL's default tolerance (1e-5) and
// iteration cap (500). Whole body = the 4 chain solves.
//
// Inputs (argument `motion`), human/demo_motions.hpp unless said:
//   0  every demo motion but "bow", one after another (7 takes of 181 frames; no data needed)
//   1  "bow" alone (181 frames): the trunk leans 60 deg at the hips, more than the robots' waists
//      allow (G1's waist pitch stops at 0.52 rad, H1's torso only turns about the vertical) with
//      the root held upright, so some limb stays below HumanoidMapperOptions::restart_cosine and
//      the restarts (18 seeded solves per such limb) run on about half the frames: the worst case
//   2  the shared Kinect v2 recording kinect/laban_ges01_wavehand_kinect2.csv (154 frames;
//      ../shared/data or $RETARGET_TEST_DATA; skipped when absent)
//   3  every shared BVH take with frames (bvh/: two CMU-skeleton walks and a CMU-skeleton
//      example, a Mixamo walk, an Axis Neuron one-arm take with fingers; 2621 frames)
//   4  every shared Kinect v2 recording (kinect/: four LabanotationSuite gestures and its
//      close-range recording, two seated KERAAL exercises)
// Each take starts from a reset mapper (the rest configuration, no trust region), as a batch of
// files is mapped; frames are cycled in order, so every pass repeats the same outputs.
//   BM_Humanoid_<robot>_Map/motion:<m>     HumanoidMapper::map, whole body
//   BM_Humanoid_<robot>_FloatingBase/motion:<m>  HumanoidFloatingBaseMapper::map: the same
//                                          solve plus the root, legs and contacts (issue 54)
//   BM_Humanoid_<robot>_KdlLma/motion:<m>  KDL LMA, both arms and both legs to the end-link
//                                          frames our mapper reached (4 solves)
// Counters: `iterations` (mean per frame; ours: LM iterations, restarts included; KDL: the 4
// chains together), `not_converged` (ours, fraction of frames), `p99_us` (99th percentile of
// the single frames of one pass, wall clock: on a busy machine a preempted frame shows there);
// KDL: `pos_err_mm`, `rot_err_mrad` (mean end-link error per chain solve) and `far` (fraction of
// chain solves ending more than 1 mm away), checked with KDL's forward kinematics after the
// timed loop.
// The ratio to read: KdlLma / Map. The problems differ: KDL's targets are exact, reachable
// end-link poses of four independent chains; ours are 24 link-direction terms of the whole body
// read in torso frames that move with it, within joint limits and a per-frame trust region.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/humanoid_floating_base.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/unitree_g1.hpp>
#include <retarget/robots/unitree_h1.hpp>

namespace {

using namespace retarget;

std::filesystem::path dataDir() {
  if (const char* env = std::getenv("RETARGET_TEST_DATA")) return env;
  return std::filesystem::path(__FILE__).parent_path() / ".." / ".." / ".." / "shared" / "data";
}

KDL::Frame toKdl(const Eigen::Isometry3d& X) {
  const Eigen::Matrix3d R = X.linear();
  return KDL::Frame(KDL::Rotation(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2)),
                    KDL::Vector(X.translation().x(), X.translation().y(), X.translation().z()));
}

// One limb as a KDL chain: link frame `base` -> link frame `end`, every joint on the way (a
// moving one as a KDL joint about its axis in J, then its X_JC), and the q index of each KDL joint.
struct KdlLimb {
  KDL::Chain chain;
  std::vector<int> q;
  int base = -1, end = -1;  // link indices
};

KdlLimb kdlLimb(const RobotModel<double>& model, const HumanoidChain& limb) {
  KdlLimb out;
  out.base = model.linkIndex(limb.base_link);
  out.end = model.linkIndex(limb.end_link);
  std::vector<int> path;  // joints, end first
  for (int link = out.end; link != out.base;) {
    const int j = model.links()[static_cast<std::size_t>(link)].parent_joint;
    if (j < 0) throw std::runtime_error("bench: " + limb.end_link + " does not hang from " + limb.base_link);
    path.push_back(j);
    link = model.joints()[static_cast<std::size_t>(j)].parent_link;
  }
  std::reverse(path.begin(), path.end());
  for (int j : path) {
    const auto& joint = model.joints()[static_cast<std::size_t>(j)];
    out.chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), toKdl(joint.X_PJ)));
    if (joint.moves()) {
      if (joint.q_index < 0) throw std::runtime_error("bench: mimic joint " + joint.name + " in a limb");
      const KDL::Vector axis(joint.axis.x(), joint.axis.y(), joint.axis.z());
      const auto type = joint.type == JointType::kPrismatic ? KDL::Joint::TransAxis : KDL::Joint::RotAxis;
      out.chain.addSegment(KDL::Segment(KDL::Joint(joint.name, KDL::Vector::Zero(), axis, type), KDL::Frame::Identity()));
      out.q.push_back(joint.q_index);
    }
    if (!joint.X_JC_is_identity) out.chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), toKdl(joint.X_JC)));
  }
  return out;
}

constexpr HumanoidLimb kKdlLimbs[4] = {HumanoidLimb::kLeftArm, HumanoidLimb::kRightArm, HumanoidLimb::kLeftLeg,
                                       HumanoidLimb::kRightLeg};

struct Fixture {
  RobotModel<double> robot;
  HumanoidBinding binding;
  std::vector<SkeletonFramed> frames;
  std::vector<bool> take_start;                 // reset the mapper before this frame
  std::vector<Eigen::VectorXd> q;               // our output per frame
  std::vector<KdlLimb> limbs;                   // the 4 chains
  std::vector<std::array<KDL::Frame, 4>> goals;  // end link in base link, per frame, from q

  Fixture(RobotModel<double> model, const std::vector<SkeletonMotion<double>>& takes)
      : robot(std::move(model)), binding(bindHumanoid(robot)) {
    for (const auto& take : takes) {
      for (std::size_t k = 0; k < take.frames.size(); ++k) {
        frames.push_back(take.frames[k]);
        take_start.push_back(k == 0);
      }
    }
    HumanoidMapper<double> mapper(robot, binding);
    RobotData<double> data(robot);
    Eigen::VectorXd qk(robot.nq());
    for (HumanoidLimb l : kKdlLimbs) limbs.push_back(kdlLimb(robot, binding.limb(l)));
    for (std::size_t k = 0; k < frames.size(); ++k) {
      if (take_start[k]) mapper.reset();
      (void)mapper.map(frames[k], qk);
      q.push_back(qk);
      forwardKinematics(robot, data, qk);
      std::array<KDL::Frame, 4> g;
      for (std::size_t c = 0; c < limbs.size(); ++c) {
        const auto& X_WB = data.X_WL[static_cast<std::size_t>(limbs[c].base)];
        const auto& X_WE = data.X_WL[static_cast<std::size_t>(limbs[c].end)];
        g[c] = toKdl(Eigen::Isometry3d(X_WB.inverse() * X_WE));
      }
      goals.push_back(g);
    }
  }
};

std::vector<SkeletonMotion<double>> demoTakes() {
  std::vector<SkeletonMotion<double>> takes;
  for (const std::string& name : demoMotionNames()) {
    if (name != "bow") takes.push_back(demoMotion(name));
  }
  return takes;
}

constexpr int kMotionCount = 5;

// Every shared recording with frames in data folder `folder` ("bvh" or "kinect"), in name order.
std::vector<SkeletonMotion<double>> sharedTakes(const std::string& folder) {
  std::vector<std::filesystem::path> paths;
  const std::filesystem::path dir = dataDir() / folder;
  if (!std::filesystem::is_directory(dir)) return {};
  for (const auto& entry : std::filesystem::directory_iterator(dir)) paths.push_back(entry.path());
  std::sort(paths.begin(), paths.end());
  std::vector<SkeletonMotion<double>> out;
  for (const auto& path : paths) {
    SkeletonMotion<double> take =
        folder == "bvh" ? bvhToSkeleton(readBvh(path.string())) : readKinect(path.string());
    if (!take.frames.empty()) out.push_back(std::move(take));
  }
  return out;
}

// robot: 0 G1, 1 H1; motion: see the file doc. Null when the recording is absent.
const Fixture* fixture(int robot, int motion) {
  static const std::filesystem::path kinect = dataDir() / "kinect" / "laban_ges01_wavehand_kinect2.csv";
  static const bool has_kinect = std::filesystem::exists(kinect);
  static const std::vector<SkeletonMotion<double>> takes[kMotionCount] = {
      demoTakes(), {demoMotion("bow")},
      has_kinect ? std::vector<SkeletonMotion<double>>{readKinect(kinect.string())} : std::vector<SkeletonMotion<double>>{},
      sharedTakes("bvh"), sharedTakes("kinect")};
  static std::unique_ptr<Fixture> fixtures[2][kMotionCount];
  if (takes[motion].empty()) return nullptr;
  auto& f = fixtures[robot][motion];
  if (!f) f = std::make_unique<Fixture>(robot == 0 ? makeUnitreeG1<double>() : makeUnitreeH1<double>(), takes[motion]);
  return f.get();
}

// 99th percentile of the wall time of `call(0 ... count - 1)`, one call each (us).
template <typename F>
double p99Microseconds(std::size_t count, F&& call) {
  std::vector<double> us(count);
  for (std::size_t k = 0; k < count; ++k) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(call(k));
    us[k] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
  }
  const auto at = us.begin() + static_cast<std::ptrdiff_t>(0.99 * static_cast<double>(count - 1));
  std::nth_element(us.begin(), at, us.end());
  return *at;
}

void humanoidMap(benchmark::State& state, int robot) {
  const Fixture* f = fixture(robot, static_cast<int>(state.range(0)));
  if (f == nullptr) {
    state.SkipWithError("no test data (../shared/data or RETARGET_TEST_DATA)");
    return;
  }
  HumanoidMapper<double> mapper(f->robot, f->binding);
  Eigen::VectorXd q(f->robot.nq());
  const auto one = [&](std::size_t k) {
    if (f->take_start[k]) mapper.reset();
    return mapper.map(f->frames[k], q);
  };
  std::size_t k = 0;
  long iterations = 0, not_converged = 0;
  for (auto _ : state) {
    const Status s = one(k);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(q.data());
    iterations += mapper.iterations();
    not_converged += s.has(StatusCode::kNotConverged) ? 1 : 0;
    if (++k == f->frames.size()) k = 0;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["iterations"] = static_cast<double>(iterations) / n;
  state.counters["not_converged"] = static_cast<double>(not_converged) / n;
  state.counters["frames"] = static_cast<double>(f->frames.size());
  state.counters["p99_us"] = p99Microseconds(f->frames.size(), one);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(f->robot.name() + ", " + std::to_string(f->robot.nq()) + " DOF");
}

// The floating-base mapper (mappers/humanoid_floating_base.hpp): the fixed-base solve above plus
// the root and legs' solve with the contacts; the floor found online (the lowest foot so far), as
// a live loop has it.
void humanoidFloatingBase(benchmark::State& state, int robot) {
  const Fixture* f = fixture(robot, static_cast<int>(state.range(0)));
  if (f == nullptr) {
    state.SkipWithError("no test data (../shared/data or RETARGET_TEST_DATA)");
    return;
  }
  HumanoidFloatingBaseMapper<double> mapper(f->robot, f->binding);
  Eigen::VectorXd q(f->robot.nq());
  const auto one = [&](std::size_t k) {
    if (f->take_start[k]) mapper.reset();
    return mapper.map(f->frames[k], q);
  };
  std::size_t k = 0;
  long stance = 0;
  for (auto _ : state) {
    const Status s = one(k);
    benchmark::DoNotOptimize(s);
    benchmark::DoNotOptimize(q.data());
    stance += (mapper.contacts()[0] ? 1 : 0) + (mapper.contacts()[1] ? 1 : 0);
    if (++k == f->frames.size()) k = 0;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["stance_feet"] = static_cast<double>(stance) / n;
  state.counters["frames"] = static_cast<double>(f->frames.size());
  state.counters["p99_us"] = p99Microseconds(f->frames.size(), one);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(f->robot.name() + ", " + std::to_string(f->robot.nq()) + " DOF + floating base");
}

void humanoidKdlLma(benchmark::State& state, int robot) {
  const Fixture* f = fixture(robot, static_cast<int>(state.range(0)));
  if (f == nullptr) {
    state.SkipWithError("no test data (../shared/data or RETARGET_TEST_DATA)");
    return;
  }
  const Eigen::Matrix<double, 6, 1> weights = Eigen::Matrix<double, 6, 1>::Ones();
  std::vector<std::unique_ptr<KDL::ChainIkSolverPos_LMA>> ik;
  std::vector<KDL::JntArray> seed, out;
  // KDL has no joint limits: left warm-started across takes, G1's arms drift within a few passes
  // into configurations where LMA stalls 30-90 mm from the goal (E_GRADIENT_JOINTS_TOO_SMALL,
  // E_MAX_ITERATIONS_EXCEEDED). So each take starts from the rest configuration, as ours does.
  std::vector<KDL::JntArray> rest;
  for (const KdlLimb& limb : f->limbs) {
    ik.push_back(std::make_unique<KDL::ChainIkSolverPos_LMA>(limb.chain, weights));
    KDL::JntArray r(limb.chain.getNrOfJoints());
    for (std::size_t j = 0; j < limb.q.size(); ++j) r(static_cast<unsigned>(j)) = f->robot.neutralConfiguration()[limb.q[j]];
    rest.push_back(r);
    seed.push_back(r);
    out.push_back(r);
  }
  const auto one = [&](std::size_t k) {
    int status = 0;
    if (f->take_start[k]) seed = rest;
    for (std::size_t c = 0; c < ik.size(); ++c) {
      status |= ik[c]->CartToJnt(seed[c], f->goals[k][c], out[c]);
      seed[c] = out[c];
    }
    return status;
  };
  std::size_t k = 0;
  long iterations = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(one(k));
    for (const auto& solver : ik) iterations += solver->lastNrOfIter;
    if (++k == f->frames.size()) k = 0;
  }
  state.counters["iterations"] = static_cast<double>(iterations) / static_cast<double>(state.iterations());
  // One more pass, untimed: the end-link error of each solution, by KDL's forward kinematics.
  std::vector<KDL::ChainFkSolverPos_recursive> fk;
  for (const KdlLimb& limb : f->limbs) fk.emplace_back(limb.chain);
  double position = 0, rotation = 0, far = 0;
  for (std::size_t i = 0; i < f->frames.size(); ++i) {
    (void)one(i);
    for (std::size_t c = 0; c < ik.size(); ++c) {
      KDL::Frame X;
      fk[c].JntToCart(out[c], X);
      const KDL::Twist d = KDL::diff(X, f->goals[i][c]);
      position += d.vel.Norm();
      far += d.vel.Norm() > 1e-3 ? 1 : 0;
      rotation += d.rot.Norm();
    }
  }
  const double solves = static_cast<double>(f->frames.size() * ik.size());
  state.counters["pos_err_mm"] = 1e3 * position / solves;
  state.counters["rot_err_mrad"] = 1e3 * rotation / solves;
  state.counters["far"] = far / solves;
  state.counters["p99_us"] = p99Microseconds(f->frames.size(), one);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(f->robot.name() + " KDL LMA, 2 arms + 2 legs (" + std::to_string(f->limbs[0].chain.getNrOfJoints()) + ", " +
                 std::to_string(f->limbs[2].chain.getNrOfJoints()) + " joints)");
}

void BM_Humanoid_G1_Map(benchmark::State& state) { humanoidMap(state, 0); }
void BM_Humanoid_G1_KdlLma(benchmark::State& state) { humanoidKdlLma(state, 0); }
void BM_Humanoid_H1_Map(benchmark::State& state) { humanoidMap(state, 1); }
void BM_Humanoid_H1_KdlLma(benchmark::State& state) { humanoidKdlLma(state, 1); }
void BM_Humanoid_G1_FloatingBase(benchmark::State& state) { humanoidFloatingBase(state, 0); }
void BM_Humanoid_H1_FloatingBase(benchmark::State& state) { humanoidFloatingBase(state, 1); }
BENCHMARK(BM_Humanoid_G1_FloatingBase)
    ->ArgName("motion")
    ->DenseRange(0, kMotionCount - 1)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Humanoid_H1_FloatingBase)
    ->ArgName("motion")
    ->DenseRange(0, kMotionCount - 1)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Humanoid_G1_Map)->ArgName("motion")->DenseRange(0, kMotionCount - 1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Humanoid_G1_KdlLma)->ArgName("motion")->DenseRange(0, kMotionCount - 1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Humanoid_H1_Map)->ArgName("motion")->DenseRange(0, kMotionCount - 1)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Humanoid_H1_KdlLma)->ArgName("motion")->DenseRange(0, kMotionCount - 1)->Unit(benchmark::kMicrosecond);

}  // namespace
