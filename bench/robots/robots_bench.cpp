// Robot models: URDF loading (NAO H25 V5) beside a bare tinyxml2 parse of the same text, and
// forward kinematics per frame for every built-in robot. When built with RETARGET_BENCH_KDL
// (needs retarget_ref::kdl_parser), orocos KDL's tree FK of the same URDFs runs beside ours.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <tinyxml2.h>

#include <retarget/io/urdf.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/robots/builtin.hpp>

#if defined(RETARGET_BENCH_KDL)
#include <kdl/tree.hpp>
#include <kdl/treefksolverpos_recursive.hpp>
#include <kdl_parser/kdl_parser.hpp>
#endif

namespace {

std::filesystem::path dataDir() {
  if (const char* env = std::getenv("RETARGET_TEST_DATA")) return env;
  return std::filesystem::path(__FILE__).parent_path() / ".." / ".." / ".." / "shared" / "data";
}

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::filesystem::path& naoUrdf() {
  static const std::filesystem::path path = dataDir() / "urdf" / "nao_h25_v50.urdf";
  return path;
}

void BM_Robots_LoadUrdfNao(benchmark::State& state) {
  if (!std::filesystem::exists(naoUrdf())) {
    state.SkipWithError("no test data");
    return;
  }
  for (auto _ : state) {
    auto result = retarget::loadUrdf<double>(naoUrdf());
    benchmark::DoNotOptimize(result);
  }
}
BENCHMARK(BM_Robots_LoadUrdfNao)->Unit(benchmark::kMicrosecond);

// Reference: tinyxml2 alone parsing the same text (the floor for any tinyxml2-based reader).
void BM_Robots_ParseXmlNaoTinyxml2(benchmark::State& state) {
  const std::string text = readFile(naoUrdf());
  if (text.empty()) {
    state.SkipWithError("no test data");
    return;
  }
  for (auto _ : state) {
    tinyxml2::XMLDocument document;
    document.Parse(text.c_str(), text.size());
    benchmark::DoNotOptimize(document.RootElement());
  }
}
BENCHMARK(BM_Robots_ParseXmlNaoTinyxml2)->Unit(benchmark::kMicrosecond);

// Built-in NAO from its header tables (no file, no XML).
void BM_Robots_MakeBuiltinNao(benchmark::State& state) {
  for (auto _ : state) {
    auto model = retarget::makeNao<double>();
    benchmark::DoNotOptimize(model);
  }
}
BENCHMARK(BM_Robots_MakeBuiltinNao)->Unit(benchmark::kMicrosecond);

// Forward kinematics of every link, one frame; argument = index into builtinRobotNames().
void BM_Robots_ForwardKinematics(benchmark::State& state) {
  const std::string name = retarget::builtinRobotNames()[static_cast<std::size_t>(state.range(0))];
  const auto model = retarget::makeBuiltinRobot<double>(name);
  retarget::RobotData<double> data(model);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> unit(0, 1);
  Eigen::VectorXd q = model.neutralConfiguration();
  for (int i = 0; i < model.nq(); ++i) {
    const double lo = std::isfinite(model.lowerLimits()[i]) ? model.lowerLimits()[i] : -3.0;
    const double hi = std::isfinite(model.upperLimits()[i]) ? model.upperLimits()[i] : 3.0;
    q[i] = lo + (hi - lo) * unit(rng);
  }
  for (auto _ : state) {
    retarget::forwardKinematics(model, data, q);
    benchmark::DoNotOptimize(data.X_WL.back());
  }
  state.SetLabel(name + " (" + std::to_string(model.links().size()) + " links, nq " + std::to_string(model.nq()) + ")");
}
BENCHMARK(BM_Robots_ForwardKinematics)->DenseRange(0, 5);

#if defined(RETARGET_BENCH_KDL)
// Reference: KDL tree FK of every segment of the same URDF (one JntToCart per link, as a
// user of KDL would query all link poses). Argument: 0 NAO, 1 Pepper, 2 Baxter, 3 YuMi.
void BM_Robots_ForwardKinematicsKdl(benchmark::State& state) {
  static const char* const kFiles[] = {"nao_h25_v50.urdf", "pepper_1.0.urdf", "baxter.urdf", "abb_yumi_irb14000.urdf"};
  KDL::Tree tree;
  if (!kdl_parser::treeFromFile((dataDir() / "urdf" / kFiles[state.range(0)]).string(), tree)) {
    state.SkipWithError("no test data");
    return;
  }
  KDL::TreeFkSolverPos_recursive solver(tree);
  KDL::JntArray q(tree.getNrOfJoints());
  for (unsigned i = 0; i < q.rows(); ++i) q(i) = 0.1 * i;
  std::vector<std::string> names;
  for (const auto& [name, element] : tree.getSegments()) names.push_back(name);
  KDL::Frame frame;
  for (auto _ : state) {
    for (const auto& name : names) {
      solver.JntToCart(q, frame, name);
      benchmark::DoNotOptimize(frame);
    }
  }
  state.SetLabel(std::string(kFiles[state.range(0)]) + " (" + std::to_string(names.size()) + " segments)");
}
BENCHMARK(BM_Robots_ForwardKinematicsKdl)->DenseRange(0, 3);
#endif

}  // namespace
