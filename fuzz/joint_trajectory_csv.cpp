// libFuzzer target: the joint-trajectory CSV reader (retarget/io/joint_trajectory_csv.hpp).
// What it accepts must satisfy JointTrajectory's invariants (validate()) and write back and read
// back to the same values; what it refuses must be a ParseError naming the file and line.
#include <sstream>

#include <retarget/io/joint_trajectory_csv.hpp>

#include "support/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace retarget;
  const std::string file = "fuzz.csv";
  fuzz::expectRetargetErrorsOnly(file, [&] {
    std::istringstream in{std::string(fuzz::asText(data, size))};
    const JointTrajectory trajectory = readJointTrajectoryCsv(in, file);
    try {
      trajectory.validate();
    } catch (const Error& e) {
      fuzz::fail("the reader accepted a trajectory that breaks its invariants", e.what());
    }
    std::ostringstream out;
    writeJointTrajectoryCsv(trajectory, out);
    std::istringstream back_in(out.str());
    const JointTrajectory back = readJointTrajectoryCsv(back_in, "rewritten.csv");
    if (back.joint_names != trajectory.joint_names || back.times != trajectory.times ||
        back.positions.rows() != trajectory.positions.rows() ||
        back.positions.cols() != trajectory.positions.cols() ||
        !(back.positions.array() == trajectory.positions.array()).all()) {
      fuzz::fail("joint-trajectory CSV write -> read changed the values", out.str().substr(0, 300));
    }
  });
  return 0;
}
