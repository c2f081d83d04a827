// Seed 004 per frame: FABRIK, PIC and PICs (K = 1) mapping both arms of Baxter and YuMi (the
// whole mapper: smoothing, placement, octant pose, chain solve, positions-to-angles fit), the
// chain solve alone, and orocos KDL's position IK (ChainIkSolverPos_LMA, position-only weights)
// of the same wrist targets on the same arms, warm-started from the previous frame's solution
// as a streaming IK would be. Inputs: the demo motions "arm-circles" and "wave" (362 frames).
//   BM_Pic_MapFrame/<robot>/<algorithm>   PicMapper::map, both arms
//   BM_Pic_SolveChain/<robot>/<algorithm> solveFabrik alone, both arms
//   BM_Pic_KdlLmaWrist/<robot>            KDL LMA to both wrist targets (base -> wrist point)
// Ratio to read: KdlLmaWrist / MapFrame (KDL solves the wrist position only; PIC also sets
// the elbow by its octants and fits the joint angles).
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include <kdl/chain.hpp>
#include <kdl/chainiksolverpos_lma.hpp>

#include <retarget/human/demo_motions.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/robots/baxter.hpp>
#include <retarget/robots/yumi.hpp>

namespace {

using namespace retarget;

KDL::Frame toKdl(const Eigen::Isometry3d& X) {
  const Eigen::Matrix3d R = X.linear();
  return KDL::Frame(KDL::Rotation(R(0, 0), R(0, 1), R(0, 2), R(1, 0), R(1, 1), R(1, 2), R(2, 0), R(2, 1), R(2, 2)),
                    KDL::Vector(X.translation().x(), X.translation().y(), X.translation().z()));
}

// Root -> origin of joint `wrist`: every joint on the way (moving ones as KDL revolute joints).
KDL::Chain kdlArm(const RobotModel<double>& model, const std::string& wrist) {
  KDL::Chain chain;
  const auto& w = model.joints()[static_cast<std::size_t>(model.jointIndex(wrist))];
  for (int k : model.links()[static_cast<std::size_t>(w.parent_link)].support) {
    const auto& joint = model.joints()[static_cast<std::size_t>(k)];
    chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), toKdl(joint.X_PJ)));
    if (joint.moves()) {
      chain.addSegment(KDL::Segment(
          KDL::Joint(joint.name, KDL::Vector::Zero(), KDL::Vector(joint.axis.x(), joint.axis.y(), joint.axis.z()),
                     KDL::Joint::RotAxis),
          KDL::Frame::Identity()));
    }
  }
  chain.addSegment(KDL::Segment(KDL::Joint(KDL::Joint::None), toKdl(w.X_PJ)));
  return chain;
}

struct Fixture {
  RobotModel<double> robot;
  PicMap map;
  std::vector<SkeletonFramed> frames;
  std::vector<std::array<FabrikChain<double>, 2>> chains;  // warm starts of the chain solve
  std::vector<std::array<Eigen::Vector3d, 2>> targets;    // wrist targets PIC solved for

  explicit Fixture(RobotModel<double> model) : robot(std::move(model)), map(*picMapFor(robot)) {
    for (const char* name : {"arm-circles", "wave"}) {
      const auto motion = demoMotion(name);
      frames.insert(frames.end(), motion.frames.begin(), motion.frames.end());
    }
    PicOptions options;
    PicMapper<double> mapper(robot, map, options);
    Eigen::VectorXd q(robot.nq()), previous = robot.neutralConfiguration();
    for (const auto& f : frames) {
      std::array<FabrikChain<double>, 2> c;
      mapper.chainAt(0, previous, c[0]);
      mapper.chainAt(1, previous, c[1]);
      (void)mapper.map(f, q);
      chains.push_back(c);
      targets.push_back({mapper.solvedChain(0).p[2], mapper.solvedChain(1).p[2]});
      previous = q;
    }
  }
};

const Fixture& fixture(int robot) {
  static const Fixture baxter(makeBaxter<double>());
  static const Fixture yumi(makeYumi<double>());
  return robot == 0 ? baxter : yumi;
}

void BM_Pic_MapFrame(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<int>(state.range(0)));
  PicOptions options;
  options.algorithm = static_cast<PicAlgorithm>(state.range(1));
  options.smoothing_alpha = 0.5;
  PicMapper<double> mapper(f.robot, f.map, options);
  Eigen::VectorXd q(f.robot.nq());
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(f.frames[k], q));
    benchmark::DoNotOptimize(q.data());
    if (++k == f.frames.size()) k = 0;
  }
  state.SetLabel(f.robot.name() + " " + toString(options.algorithm));
}
BENCHMARK(BM_Pic_MapFrame)->ArgsProduct({{0, 1}, {0, 1, 2}});

void BM_Pic_SolveChain(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<int>(state.range(0)));
  const auto algorithm = static_cast<PicAlgorithm>(state.range(1));
  PicMapper<double> mapper(f.robot, f.map, PicOptions{});
  Eigen::VectorXd q(f.robot.nq());
  // The human poses of every frame, read once.
  std::vector<std::array<PicPose, 2>> poses;
  for (const auto& frame : f.frames) {
    (void)mapper.map(frame, q);
    poses.push_back({mapper.humanPose(0), mapper.humanPose(1)});
  }
  std::size_t k = 0;
  for (auto _ : state) {
    for (int a = 0; a < 2; ++a) {
      FabrikChain<double> chain = f.chains[k][static_cast<std::size_t>(a)];
      const FabrikConstraints c = algorithm == PicAlgorithm::kFabrik
                                      ? FabrikConstraints()
                                      : picConstraints(poses[k][static_cast<std::size_t>(a)], 3, 1,
                                                       algorithm == PicAlgorithm::kPic ? 0 : 1);
      benchmark::DoNotOptimize(solveFabrik<double>(chain, f.targets[k][static_cast<std::size_t>(a)], FabrikOptions{}, c));
    }
    if (++k == f.frames.size()) k = 0;
  }
  state.SetLabel(f.robot.name() + " " + toString(algorithm));
}
BENCHMARK(BM_Pic_SolveChain)->ArgsProduct({{0, 1}, {0, 1, 2}});

void BM_Pic_KdlLmaWrist(benchmark::State& state) {
  const Fixture& f = fixture(static_cast<int>(state.range(0)));
  const Eigen::Matrix<double, 6, 1> position_only = (Eigen::Matrix<double, 6, 1>() << 1, 1, 1, 0, 0, 0).finished();
  std::vector<KDL::Chain> chains;
  for (const auto& arm : f.map.arms) chains.push_back(kdlArm(f.robot, arm.points.back()));
  std::vector<std::unique_ptr<KDL::ChainIkSolverPos_LMA>> ik;
  std::vector<KDL::JntArray> seed, out;
  for (const auto& c : chains) {
    ik.push_back(std::make_unique<KDL::ChainIkSolverPos_LMA>(c, position_only, 1e-6, 100));
    seed.emplace_back(c.getNrOfJoints());
    out.emplace_back(c.getNrOfJoints());
  }
  std::size_t k = 0;
  for (auto _ : state) {
    for (std::size_t a = 0; a < chains.size(); ++a) {
      const Eigen::Vector3d& t = f.targets[k][a];
      benchmark::DoNotOptimize(ik[a]->CartToJnt(seed[a], KDL::Frame(KDL::Vector(t.x(), t.y(), t.z())), out[a]));
      seed[a] = out[a];
    }
    if (++k == f.frames.size()) k = 0;
  }
  state.SetLabel(f.robot.name() + " KDL LMA, both wrists");
}
BENCHMARK(BM_Pic_KdlLmaWrist)->Arg(0)->Arg(1);

}  // namespace
