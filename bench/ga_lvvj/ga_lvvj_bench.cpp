// GA-LVVJ (seed 000) per frame, the WBF + LLF + cosine metrics per frame, and a numerical IK of
// the same arm targets with orocos KDL (ChainIkSolverPos_LMA) beside it.
//
// Input: a smooth 30 Hz NAO trajectory (every joint a sinusoid within its limits, hip
// yaw-pitch 0), turned into the robot's virtual skeleton; GA-LVVJ maps those skeletons back.
// KDL solves the arm targets those skeletons imply (elbow and wrist joint positions in the
// torso frame), warm-started from the previous frame's solution as a streaming IK would be:
//   BM_GaLvvj_MapFrame              whole body: 2 arms + 2 legs + head + hands (19 joints)
//   BM_GaLvvj_MapFrameNoisy/leg_fit:0|1  the same skeletons with every point moved by up to
//                                   1.5 cm (a skeleton no robot pose fits, as a sensor's): the
//                                   paper's analytic legs (0) beside the leg fit (1)
//   BM_GaLvvj_Similarity            WBF + LLF + cosine of one frame pair (metrics only)
//   BM_GaLvvj_VirtualSkeletonAndSimilarity  robot FK -> virtual skeleton, then the metrics
//   BM_GaLvvj_KdlLmaArmsElbowWrist  per arm: LMA shoulder (2 DOF) -> elbow point, then LMA
//                                   elbow (2 DOF) -> wrist point: both arm targets (4 solves)
//   BM_GaLvvj_KdlLmaArmsWrist       per arm: one 4-DOF LMA to the wrist position only
// The ratio to read: KdlLmaArmsElbowWrist / MapFrame (KDL does less: arms only).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_lma.hpp>

#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

namespace {

using namespace retarget;

struct Fixture {
  RobotModel<double> nao = makeNao<double>();
  std::vector<Eigen::VectorXd> q;       // ground-truth configurations
  std::vector<SkeletonFramed> frames;   // their virtual skeletons (the human input)
  std::vector<SkeletonFramed> noisy;    // the same, every point moved by up to 1.5 cm
  // Arm targets in the torso frame: elbow joint and wrist joint positions, per side.
  std::vector<std::array<Eigen::Vector3d, 4>> targets;

  Fixture() {
    VirtualSkeleton<double> skeleton(nao, naoVirtualSkeletonMap());
    RobotData<double> data(nao);
    std::mt19937 rng(1);
    const int nq = nao.nq();
    std::vector<double> phase(static_cast<std::size_t>(nq)), rate(static_cast<std::size_t>(nq));
    for (int i = 0; i < nq; ++i) {
      phase[static_cast<std::size_t>(i)] = std::uniform_real_distribution<double>(0, 6.28)(rng);
      rate[static_cast<std::size_t>(i)] = std::uniform_real_distribution<double>(0.3, 1.5)(rng);
    }
    const int elbow[2] = {nao.findLink("LElbow"), nao.findLink("RElbow")};
    const int wrist[2] = {nao.findLink("l_wrist"), nao.findLink("r_wrist")};
    for (int k = 0; k < 300; ++k) {
      const double t = k / 30.0;
      Eigen::VectorXd qk(nq);
      for (int i = 0; i < nq; ++i) {
        const double lo = nao.lowerLimits()[i], hi = nao.upperLimits()[i];
        const double mid = 0.5 * (lo + hi), amp = 0.45 * (hi - lo);
        qk[i] = mid + amp * std::sin(rate[static_cast<std::size_t>(i)] * t + phase[static_cast<std::size_t>(i)]);
      }
      qk[nao.qIndex("LHipYawPitch")] = 0.0;
      SkeletonFramed frame;
      frame.time = t;
      (void)skeleton.compute(qk, frame);
      forwardKinematics(nao, data, qk);
      targets.push_back({data.X_WL[static_cast<std::size_t>(elbow[0])].translation(),
                         data.X_WL[static_cast<std::size_t>(wrist[0])].translation(),
                         data.X_WL[static_cast<std::size_t>(elbow[1])].translation(),
                         data.X_WL[static_cast<std::size_t>(wrist[1])].translation()});
      q.push_back(qk);
      frames.push_back(frame);
      SkeletonFramed moved = frame;
      for (auto& p : moved.p_W) {
        for (int c = 0; c < 3; ++c) p[c] += std::uniform_real_distribution<double>(-0.015, 0.015)(rng);
      }
      noisy.push_back(moved);
    }
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

KDL::Frame toKdl(const Eigen::Isometry3d& X) {
  const Eigen::Matrix3d& R = X.linear();
  return KDL::Frame(KDL::Rotation(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2)),
                    KDL::Vector(X.translation().x(), X.translation().y(), X.translation().z()));
}

// Appends joint `name` of the model: its fixed origin, then the rotation about its axis.
void addJoint(KDL::Chain& chain, const RobotModel<double>& model, const std::string& name) {
  const auto& joint = model.joints()[static_cast<std::size_t>(model.jointIndex(name))];
  chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), toKdl(joint.X_PJ)));
  chain.addSegment(KDL::Segment(
      KDL::Joint(name, KDL::Vector::Zero(), KDL::Vector(joint.axis.x(), joint.axis.y(), joint.axis.z()),
                 KDL::Joint::RotAxis),
      KDL::Frame::Identity()));
}
void addFixed(KDL::Chain& chain, const Eigen::Vector3d& p) {
  chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), KDL::Frame(KDL::Vector(p.x(), p.y(), p.z()))));
}

// The KDL chains of one arm built from makeNao's joint data.
struct KdlArm {
  KDL::Chain shoulder;  // torso -> ShoulderPitch, ShoulderRoll -> elbow joint origin
  KDL::Chain forearm;   // elbow joint origin -> ElbowYaw, ElbowRoll -> wrist joint origin
  KDL::Chain whole;     // torso -> 4 joints -> wrist joint origin
  KdlArm(const RobotModel<double>& nao, const std::string& p) {
    const auto& elbow_yaw = nao.joints()[static_cast<std::size_t>(nao.jointIndex(p + "ElbowYaw"))];
    const auto& wrist_yaw = nao.joints()[static_cast<std::size_t>(nao.jointIndex(p + "WristYaw"))];
    addJoint(shoulder, nao, p + "ShoulderPitch");
    addJoint(shoulder, nao, p + "ShoulderRoll");
    addFixed(shoulder, elbow_yaw.X_PJ.translation());
    forearm.addSegment(KDL::Segment(KDL::Joint(p + "ElbowYaw", KDL::Vector::Zero(), KDL::Vector(1, 0, 0),
                                               KDL::Joint::RotAxis)));
    forearm.addSegment(KDL::Segment(KDL::Joint(p + "ElbowRoll", KDL::Vector::Zero(), KDL::Vector(0, 0, 1),
                                               KDL::Joint::RotAxis)));
    addFixed(forearm, wrist_yaw.X_PJ.translation());
    whole = shoulder;
    whole.addChain(forearm);
  }
};

const Eigen::Matrix<double, 6, 1> kPositionOnly = (Eigen::Matrix<double, 6, 1>() << 1, 1, 1, 0, 0, 0).finished();

void BM_GaLvvj_MapFrame(benchmark::State& state) {
  const Fixture& f = fixture();
  GaLvvjMapper<double> mapper(f.nao, naoGaLvvjMap());
  Eigen::VectorXd q(f.nao.nq());
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(f.frames[k], q));
    benchmark::DoNotOptimize(q.data());
    k = (k + 1) % f.frames.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GaLvvj_MapFrame);

void BM_GaLvvj_MapFrameNoisy(benchmark::State& state) {
  const Fixture& f = fixture();
  GaLvvjOptions options;
  options.leg_fit = state.range(0) != 0;
  GaLvvjMapper<double> mapper(f.nao, naoGaLvvjMap(), options);
  Eigen::VectorXd q(f.nao.nq());
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(f.noisy[k], q));
    benchmark::DoNotOptimize(q.data());
    k = (k + 1) % f.noisy.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GaLvvj_MapFrameNoisy)->ArgName("leg_fit")->Arg(0)->Arg(1);

void BM_GaLvvj_Similarity(benchmark::State& state) {
  const Fixture& f = fixture();
  FrameSimilarity<double> s;
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t other = (k + 7) % f.frames.size();
    benchmark::DoNotOptimize(frameSimilarity(f.frames[k], f.frames[other], s));
    benchmark::DoNotOptimize(s.wbf);
    k = (k + 1) % f.frames.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GaLvvj_Similarity);

void BM_GaLvvj_VirtualSkeletonAndSimilarity(benchmark::State& state) {
  const Fixture& f = fixture();
  VirtualSkeleton<double> skeleton(f.nao, naoVirtualSkeletonMap());
  SkeletonFramed robot;
  FrameSimilarity<double> s;
  std::size_t k = 0;
  for (auto _ : state) {
    const std::size_t other = (k + 7) % f.frames.size();
    (void)skeleton.compute(f.q[other], robot);
    benchmark::DoNotOptimize(frameSimilarity(f.frames[k], robot, s));
    benchmark::DoNotOptimize(s.llf);
    k = (k + 1) % f.frames.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GaLvvj_VirtualSkeletonAndSimilarity);

void BM_GaLvvj_KdlLmaArmsElbowWrist(benchmark::State& state) {
  const Fixture& f = fixture();
  const KdlArm arms[2] = {KdlArm(f.nao, "L"), KdlArm(f.nao, "R")};
  KDL::ChainIkSolverPos_LMA shoulder_ik[2] = {KDL::ChainIkSolverPos_LMA(arms[0].shoulder, kPositionOnly),
                                              KDL::ChainIkSolverPos_LMA(arms[1].shoulder, kPositionOnly)};
  KDL::ChainIkSolverPos_LMA forearm_ik[2] = {KDL::ChainIkSolverPos_LMA(arms[0].forearm, kPositionOnly),
                                             KDL::ChainIkSolverPos_LMA(arms[1].forearm, kPositionOnly)};
  KDL::ChainFkSolverPos_recursive shoulder_fk[2] = {KDL::ChainFkSolverPos_recursive(arms[0].shoulder),
                                                    KDL::ChainFkSolverPos_recursive(arms[1].shoulder)};
  KDL::JntArray seed_shoulder[2] = {KDL::JntArray(2), KDL::JntArray(2)};
  KDL::JntArray seed_forearm[2] = {KDL::JntArray(2), KDL::JntArray(2)};
  seed_forearm[0](1) = -0.5;
  seed_forearm[1](1) = 0.5;
  KDL::JntArray out(2);
  double worst_error = 0;
  std::size_t k = 0;
  for (auto _ : state) {
    for (int side = 0; side < 2; ++side) {
      const Eigen::Vector3d& e = f.targets[k][static_cast<std::size_t>(2 * side)];
      const Eigen::Vector3d& w = f.targets[k][static_cast<std::size_t>(2 * side + 1)];
      shoulder_ik[side].CartToJnt(seed_shoulder[side], KDL::Frame(KDL::Vector(e.x(), e.y(), e.z())), out);
      seed_shoulder[side] = out;
      KDL::Frame elbow_frame;
      shoulder_fk[side].JntToCart(out, elbow_frame);
      const KDL::Vector w_E = elbow_frame.Inverse() * KDL::Vector(w.x(), w.y(), w.z());
      forearm_ik[side].CartToJnt(seed_forearm[side], KDL::Frame(w_E), out);
      seed_forearm[side] = out;
    }
    benchmark::DoNotOptimize(out.data.data());
    if (k == 0) {
      // Joint-space error of the last solve against the ground truth, for the report.
      const auto& q = f.q[k];
      worst_error = std::max({worst_error, std::abs(seed_shoulder[0](0) - q[f.nao.qIndex("LShoulderPitch")]),
                              std::abs(seed_forearm[0](1) - q[f.nao.qIndex("LElbowRoll")])});
    }
    k = (k + 1) % f.frames.size();
  }
  state.counters["max_err_rad_frame0"] = worst_error;
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GaLvvj_KdlLmaArmsElbowWrist);

void BM_GaLvvj_KdlLmaArmsWrist(benchmark::State& state) {
  const Fixture& f = fixture();
  const KdlArm arms[2] = {KdlArm(f.nao, "L"), KdlArm(f.nao, "R")};
  KDL::ChainIkSolverPos_LMA ik[2] = {KDL::ChainIkSolverPos_LMA(arms[0].whole, kPositionOnly),
                                     KDL::ChainIkSolverPos_LMA(arms[1].whole, kPositionOnly)};
  KDL::JntArray seed[2] = {KDL::JntArray(4), KDL::JntArray(4)};
  seed[0](3) = -0.5;
  seed[1](3) = 0.5;
  KDL::JntArray out(4);
  std::size_t k = 0;
  for (auto _ : state) {
    for (int side = 0; side < 2; ++side) {
      const Eigen::Vector3d& w = f.targets[k][static_cast<std::size_t>(2 * side + 1)];
      ik[side].CartToJnt(seed[side], KDL::Frame(KDL::Vector(w.x(), w.y(), w.z())), out);
      seed[side] = out;
    }
    benchmark::DoNotOptimize(out.data.data());
    k = (k + 1) % f.frames.size();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GaLvvj_KdlLmaArmsWrist);

}  // namespace
