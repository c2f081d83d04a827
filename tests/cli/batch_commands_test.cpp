// `retarget batch` and `retarget batch merge`, run as a user would, over a temporary tree of
// links to ../shared/data recordings plus deliberately broken files: every good file converted
// (byte-identical to `retarget map`), every broken one reported by name with its error and
// skipped, resume after deleting an output, resume after a kill mid-run, and three shards merged
// equal to the unsharded run bit for bit.
#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/metrics/joint_smoothness.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/metrics/self_penetration.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>
#include <retarget/safety/self_collision.hpp>

#include "cli/cli_runner.hpp"
#include "support/test_support.hpp"

using namespace retarget::test;

namespace {

// The files under `dir` (relative, '/' separators) with their bytes, summaries excluded.
std::map<std::string, std::string> outputs(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = e.path().lexically_relative(dir).generic_string();
    if (rel.rfind("summary", 0) == 0) continue;
    files[rel] = slurp(e.path());
  }
  return files;
}

std::vector<nlohmann::json> summaryLines(const fs::path& path) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(slurp(path));
  std::string line;
  while (std::getline(in, line)) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

// Broken inputs: name -> a word the error message must contain.
const std::map<std::string, std::string> kBroken = {
    {"broken/empty.csv", "empty.csv"},
    {"broken/garbage.bvh", "garbage.bvh"},
    {"broken/robot_angles.csv", "joint-trajectory"},
    {"broken/short_row.csv", "short_row.csv"},
    {"broken/dangling.bvh", "dangling.bvh"},
};

// The input tree: links to the shared Kinect recordings and three BVH takes, a copy in a nested
// folder, broken files, and a file of another kind that must be ignored.
struct Tree {
  fs::path root, input, reference;  // reference: the output of one clean unsharded run
  Run reference_run;
  std::set<std::string> good;  // relative input paths expected to convert
};

const Tree* makeTree(const fs::path& data) {
  static Tree tree;
  static bool made = false;
  if (made) return &tree;
  made = true;
  tree.root = tempDir() / "batch";
  fs::remove_all(tree.root);
  tree.input = tree.root / "in";
  fs::create_directories(tree.input / "kinect");
  fs::create_directories(tree.input / "bvh");
  fs::create_directories(tree.input / "deep" / "nested");
  fs::create_directories(tree.input / "broken");
  for (const auto& e : fs::directory_iterator(data / "kinect")) {
    fs::create_symlink(e.path(), tree.input / "kinect" / e.path().filename());
    tree.good.insert("kinect/" + e.path().filename().string());
  }
  CHECK(tree.good.size() == 7);  // MANIFEST.md: 7 Kinect v2 recordings (5 LabanotationSuite, 2 Keraal)
  for (const char* name : {"cmu_skeleton31_deepmotionediting_example.bvh", "xia_cmu_skeleton31_neutral_walk_01_000.bvh",
                           "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh"}) {
    fs::create_symlink(data / "bvh" / name, tree.input / "bvh" / name);
    tree.good.insert(std::string("bvh/") + name);
  }
  fs::copy_file(data / "kinect" / "laban_ges01_wavehand_kinect2.csv", tree.input / "deep" / "nested" / "wave copy.csv");
  tree.good.insert("deep/nested/wave copy.csv");
  write(tree.input / "broken" / "empty.csv", "");
  write(tree.input / "broken" / "garbage.bvh", "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0\n");
  write(tree.input / "broken" / "robot_angles.csv", "time,HeadYaw\n0,0\n");
  write(tree.input / "broken" / "short_row.csv", "1000,0.1,0.2,0.3,2,\n");
  fs::create_symlink(tree.root / "missing.bvh", tree.input / "broken" / "dangling.bvh");
  write(tree.input / "README.md", "not a motion\n");

  tree.reference = tree.root / "reference";
  tree.reference_run = run("batch " + quoted(tree.input) + " --robot nao --method ga-lvvj --jobs 2 -o " +
                           quoted(tree.reference));
  return &tree;
}

std::string batchLine(const Tree& tree, const fs::path& out, const std::string& extra = "") {
  return "batch " + quoted(tree.input) + " --robot nao --method ga-lvvj -o " + quoted(out) + " " + extra;
}

}  // namespace

TEST_CASE("cli batch: every good file converted like `retarget map`, every broken one reported and skipped") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const Tree& tree = *makeTree(data);
  const Run& r = tree.reference_run;
  CHECK(r.code == 1);  // some files failed, the batch went on
  CHECK(contains(r.err, "5 of " + std::to_string(tree.good.size() + kBroken.size()) + " files failed"));
  for (const auto& [name, word] : kBroken) {
    CAPTURE(name);
    CHECK(contains(r.err, "retarget: batch: " + name + ": "));
  }
  const auto lines = summaryLines(tree.reference / "summary.jsonl");
  REQUIRE(lines.size() == tree.good.size() + kBroken.size());
  std::string previous;
  for (const auto& line : lines) {
    const std::string path = line["path"];
    CAPTURE(path);
    CHECK(previous < path);  // sorted, one line per file
    previous = path;
    if (tree.good.count(path)) {
      CHECK(line["status"] == "ok");
      CHECK(line["frames"].get<int>() > 0);
      CHECK(line["method"] == "ga-lvvj");
      CHECK(line["wbf_mean"].is_number());
      CHECK(line["llf_mean"].is_number());
      // Physical metrics on the mapped angles (NAO has joint and velocity limits and capsules).
      CHECK(line["velocity_peak"].get<double>() >= 0);
      CHECK(line["velocity_violation_intervals"].get<int>() >= 0);
      CHECK(line["limit_margin_min"].get<double>() >= -1e-9);  // within the limits
      CHECK(line["penetration_max"].get<double>() >= 0);
      const fs::path csv = tree.reference / line["output"].get<std::string>();
      REQUIRE(fs::exists(csv));
      // One row per frame plus the header.
      const std::string text = slurp(csv);
      CHECK(std::count(text.begin(), text.end(), '\n') == line["frames"].get<int>() + 1);
    } else {
      REQUIRE(kBroken.count(path) == 1);
      CHECK(line["status"] == "error");
      CHECK(contains(line["error"].get<std::string>(), kBroken.at(path)));
      CHECK(!fs::exists(tree.reference / fs::path(path).replace_extension(".csv")));
    }
  }
  // The mirrored tree, and no temporary file left behind.
  CHECK(fs::exists(tree.reference / "deep" / "nested" / "wave copy.csv"));
  CHECK(fs::exists(tree.reference / "bvh" / "cmu_skeleton31_deepmotionediting_example.csv"));
  for (const auto& e : fs::recursive_directory_iterator(tree.reference)) {
    CHECK(e.path().extension() != ".partial");
  }
  // Same bytes as `retarget map` of the same file (the map command's writer).
  const fs::path single = tree.root / "single.csv";
  const Run m = run("map " + quoted(tree.input / "kinect" / "laban_ges03_drawlines_kinect2.csv") +
                    " --robot nao --method ga-lvvj -o " + quoted(single));
  REQUIRE_MESSAGE(m.code == 0, m.err);
  CHECK(slurp(single) == slurp(tree.reference / "kinect" / "laban_ges03_drawlines_kinect2.csv"));

  // That file's summary figures equal the library's, computed here from the written angles and
  // the recording (the checks above only say each is a number in its range).
  const auto drawlines = std::find_if(lines.begin(), lines.end(), [](const nlohmann::json& line) {
    return line["path"] == "kinect/laban_ges03_drawlines_kinect2.csv";
  });
  REQUIRE(drawlines != lines.end());
  const nlohmann::json& line = *drawlines;
  const retarget::RobotModel<double> nao = retarget::makeNao<double>();
  const retarget::JointTrajectory angles = retarget::toRobotOrder(retarget::readJointTrajectoryCsv(single.string()), nao);
  const retarget::JointSmoothness smooth = retarget::jointSmoothness(nao, angles.times, angles.positions);
  const auto collision = retarget::defaultSelfCollisionModel(nao);
  REQUIRE(collision.has_value());
  const double penetration = retarget::selfPenetration(*collision, angles.positions).max_depth;
  const auto motion = retarget::readKinect((tree.input / "kinect" / "laban_ges03_drawlines_kinect2.csv").string());
  REQUIRE(angles.positions.rows() == static_cast<Eigen::Index>(motion.size()));
  retarget::VirtualSkeleton<double> view(nao, retarget::naoVirtualSkeletonMap());
  std::vector<retarget::SkeletonFramed> robot(motion.size());
  for (std::size_t k = 0; k < motion.size(); ++k) {
    (void)view.compute(angles.positions.row(static_cast<Eigen::Index>(k)).transpose(), robot[k]);
  }
  const auto similarity = retarget::motionSimilarity(motion.frames, robot);
  CHECK(line["frames"].get<std::size_t>() == motion.size());
  CHECK(line["velocity_peak"].get<double>() == doctest::Approx(smooth.velocity_peak_max).epsilon(1e-9));
  CHECK(line["velocity_violation_intervals"].get<int>() == smooth.velocity_violation_intervals);
  CHECK(line["limit_margin_min"].get<double>() == doctest::Approx(smooth.limit_margin_min).epsilon(1e-9));
  CHECK(line["penetration_max"].get<double>() == doctest::Approx(penetration).epsilon(1e-9));
  CHECK(line["wbf_mean"].get<double>() == doctest::Approx(similarity.wbf_mean).epsilon(1e-12));
  CHECK(line["llf_mean"].get<double>() == doctest::Approx(similarity.llf_mean).epsilon(1e-12));
}

TEST_CASE("cli batch: a rerun skips finished files and redoes only a deleted output, with identical bytes") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const Tree& tree = *makeTree(data);
  const fs::path out = tree.root / "resume";
  fs::remove_all(out);
  fs::copy(tree.reference, out, fs::copy_options::recursive);
  const auto expected = outputs(tree.reference);
  const std::string victim = "kinect/laban_ges04_comehere_kinect2.csv";
  fs::remove(out / victim);
  const Run r = run(batchLine(tree, out, "--jobs 2"));
  CHECK(r.code == 0);  // nothing failed in this run: the broken files are already recorded
  CHECK(contains(r.out, "1 to map"));
  CHECK(contains(r.out, "[1/1] " + victim + ": ok"));
  CHECK(outputs(out) == expected);
  CHECK(slurp(out / "summary.jsonl") == slurp(tree.reference / "summary.jsonl"));
  // --retry-errors redoes the failed files only, with the same results.
  const Run retry = run(batchLine(tree, out, "--jobs 1 --retry-errors"));
  CHECK(retry.code == 1);
  CHECK(contains(retry.out, "5 to map"));
  CHECK(slurp(out / "summary.jsonl") == slurp(tree.reference / "summary.jsonl"));
}

TEST_CASE("cli batch: killed mid-run, a rerun gives the same outputs as a clean run") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const Tree& tree = *makeTree(data);
  const fs::path out = tree.root / "killed";
  fs::remove_all(out);
  const fs::path summary = out / "summary.jsonl";
  const std::string input = tree.input.string(), output = out.string();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The child: the program itself (not a shell), its output discarded.
    FILE* null = std::freopen("/dev/null", "w", stdout);
    null = std::freopen("/dev/null", "w", stderr);
    (void)null;
    ::execl(RETARGET_CLI_PATH, RETARGET_CLI_PATH, "batch", input.c_str(), "--robot", "nao", "--method", "ga-lvvj",
            "--jobs", "1", "-o", output.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Kill it as soon as the first summary line is there.
  bool killed = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int status = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    if (::waitpid(pid, &status, WNOHANG) == pid) break;  // finished before we could kill it
    const std::string text = fs::exists(summary) ? slurp(summary) : std::string();
    if (text.find('\n') != std::string::npos) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      killed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  CHECK(killed);
  const std::size_t done_before = summaryLines(summary).size();
  const std::size_t total = tree.good.size() + kBroken.size();
  MESSAGE("killed after " << done_before << " of " << total << " summary lines");
  CHECK(done_before < total);
  const Run r = run(batchLine(tree, out, "--jobs 2"));
  CHECK(r.code == 1);
  CHECK(outputs(out) == outputs(tree.reference));
  CHECK(slurp(summary) == slurp(tree.reference / "summary.jsonl"));
}

TEST_CASE("cli batch: three shards run separately and merged equal the unsharded run bit for bit") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const Tree& tree = *makeTree(data);
  const fs::path out = tree.root / "sharded";
  fs::remove_all(out);
  std::string summaries;
  std::size_t lines = 0;
  for (int k = 0; k < 3; ++k) {
    const Run r = run(batchLine(tree, out, "--jobs 1 --shard " + std::to_string(k) + "/3"));
    const fs::path summary = out / ("summary.shard-" + std::to_string(k) + "-of-3.jsonl");
    REQUIRE(fs::exists(summary));
    const auto shard_lines = summaryLines(summary);
    const std::size_t n = shard_lines.size();
    // Exit 1 exactly when this shard holds one of the broken files (its summary says which).
    const bool failed = std::any_of(shard_lines.begin(), shard_lines.end(),
                                    [](const nlohmann::json& line) { return line["status"] == "error"; });
    CAPTURE(k);
    CHECK(r.code == (failed ? 1 : 0));
    CHECK(n > 0);  // the hash spreads these paths over every shard
    lines += n;
    summaries += " " + quoted(summary);
  }
  CHECK(lines == tree.good.size() + kBroken.size());  // a partition: every file in exactly one shard
  const fs::path merged = tree.root / "merged.jsonl";
  const Run m = run("batch merge" + summaries + " -o " + quoted(merged));
  REQUIRE_MESSAGE(m.code == 0, m.err);
  CHECK(slurp(merged) == slurp(tree.reference / "summary.jsonl"));
  CHECK(outputs(out) == outputs(tree.reference));
  // Bad usage: exit 2.
  CHECK(run(batchLine(tree, out, "--shard 3/3")).code == 2);
  CHECK(run("batch " + quoted(tree.input) + " --robot nao -o " + quoted(tree.root / "x")).code == 2);
  CHECK(run("batch " + quoted(tree.input) + " --robot baxter --method ga-lvvj -o " + quoted(tree.root / "x")).code == 2);
}
