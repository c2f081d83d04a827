// The live session recorders (io/csv_recorders.hpp): what they write reads back with the file
// readers bit for bit, equal to the batch writers' files; frames that would break the format
// are skipped and counted; recording allocates nothing per frame.

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include <retarget/io/csv_recorders.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/robots/nao.hpp>

#include "support/allocation.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

std::string fileText(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "retarget_csv_recorders_test";
  std::filesystem::create_directories(dir);
  return dir / name;
}

}  // namespace

TEST_CASE("JointTrajectoryCsvRecorder: rows read back exactly and equal the batch writer's file") {
  const RobotModel<double> model = makeNao<double>();
  std::mt19937 rng(2);
  JointTrajectory trajectory = makeJointTrajectory(model);
  const auto path = scratch("angles.csv");
  std::uint64_t skipped = 0;
  {
    JointTrajectoryCsvRecorder recorder(path.string(), model.qNames());
    Eigen::VectorXd q(model.nq()), bad(model.nq());
    test::NoAllocationScope scope;  // formatting goes into the buffer sized at construction
    double t = 0.25;
    for (int k = 0; k < 200; ++k) {
      for (Eigen::Index i = 0; i < q.size(); ++i) q[i] = std::uniform_real_distribution<double>(-2, 2)(rng);
      if (k % 50 == 7) {  // a NaN, an old time, a wrong size: skipped
        bad = q;
        bad[3] = std::numeric_limits<double>::quiet_NaN();
        CHECK_FALSE(recorder.record(t + 0.001, bad));
        CHECK_FALSE(recorder.record(t - 1.0, q));
        skipped += 2;
      }
      t += 1.0 / 30.0;
      CHECK(recorder.record(t, q));
    }
    CHECK(scope.allocations() == 0);
    CHECK(recorder.written() == 200);
    CHECK(recorder.skipped() == skipped);
    recorder.close();
  }
  // The same frames again, through the batch writer.
  std::mt19937 replay(2);
  Eigen::VectorXd q(model.nq());
  double t = 0.25;
  for (int k = 0; k < 200; ++k) {
    for (Eigen::Index i = 0; i < q.size(); ++i) q[i] = std::uniform_real_distribution<double>(-2, 2)(replay);
    t += 1.0 / 30.0;
    appendFrame(trajectory, t, q);
  }
  std::ostringstream batch;
  writeJointTrajectoryCsv(trajectory, batch);
  CHECK(fileText(path) == batch.str());
  const JointTrajectory read = readJointTrajectoryCsv(path.string());
  CHECK(read.positions == trajectory.positions);
  CHECK(read.times == trajectory.times);
  std::filesystem::remove(path);
}

TEST_CASE("SkeletonCsvRecorder: a recorded Kinect session reads back bit for bit") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const SkeletonMotion<double> motion = readKinect((data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv").string());
  const auto path = scratch("skeleton.csv");
  {
    SkeletonCsvRecorder recorder(path.string());
    test::NoAllocationScope scope;
    for (const SkeletonFrame<double>& frame : motion.frames) CHECK(recorder.record(frame));
    CHECK_FALSE(recorder.record(motion.frames.front()));  // time does not increase
    SkeletonFrame<double> broken = motion.frames.back();
    broken.time += 1;
    broken.p_W[3].x() = std::numeric_limits<double>::infinity();
    broken.state[3] = TrackingState::kTracked;
    CHECK_FALSE(recorder.record(broken));
    CHECK(scope.allocations() == 0);
    CHECK(recorder.skipped() == 2);
    recorder.close();
  }
  std::ostringstream batch;
  SkeletonMotion<double> plain = motion;
  plain.extra_joint_names.clear();
  plain.extra_p_W.clear();
  writeSkeletonCsv(plain, batch);
  CHECK(fileText(path) == batch.str());
  const SkeletonMotion<double> read = readSkeletonCsv(path.string());
  REQUIRE(read.frames.size() == motion.frames.size());
  for (std::size_t k = 0; k < read.frames.size(); ++k) {
    CHECK(read.frames[k].time == motion.frames[k].time - motion.frames.front().time);
    for (std::size_t j = 0; j < read.frames[k].p_W.size(); ++j) {
      if (motion.frames[k].state[j] != TrackingState::kNotTracked) CHECK(read.frames[k].p_W[j] == motion.frames[k].p_W[j]);
      CHECK(read.frames[k].state[j] == motion.frames[k].state[j]);
    }
  }
  std::filesystem::remove(path);
}

TEST_CASE("CSV recorders: a file that cannot be written is named") {
  CHECK_THROWS_WITH_AS(JointTrajectoryCsvRecorder("/nonexistent-dir/q.csv", {"a"}), doctest::Contains("/nonexistent-dir/q.csv"),
                       Error);
  CHECK_THROWS_WITH_AS(SkeletonCsvRecorder("/nonexistent-dir/s.csv"), doctest::Contains("/nonexistent-dir/s.csv"), Error);
  CHECK_THROWS_AS(JointTrajectoryCsvRecorder(scratch("dup.csv").string(), {"a", "a"}), InvalidArgument);
}
