// Map a recording onto NAO: read a skeleton file, map every frame with GA-LVVJ through the
// generic mapMotion, write the joint angles as CSV. The recording is generated here (the
// library's arms-raise demo motion), so the example needs no data.
#include <cstdio>
#include <filesystem>
#include <iostream>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/robots/nao.hpp>

int main() {
  using namespace retarget;
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string motion_path = (dir / "retarget_example_arms_raise.csv").string();
  const std::string angles_path = (dir / "retarget_example_arms_raise_nao.csv").string();
  writeSkeletonCsv(demoMotion("arms-raise"), motion_path);  // stands in for a real recording

  const RobotModel<double> nao = makeNao();
  const SkeletonMotion<double> motion = readSkeletonCsv(motion_path);
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  const MappedMotion<double> mapped = mapMotion(mapper, motion);

  JointTrajectory trajectory = makeJointTrajectory(nao);
  trajectory.times = mapped.time;
  trajectory.positions = mapped.q;
  writeJointTrajectoryCsv(trajectory, angles_path);

  std::cout << motion.size() << " frames -> " << angles_path << "\n"
            << "frames with a clamped joint: " << mapped.clamped_frames << ", with a held joint: " << mapped.held_frames
            << "\n";
  for (int i = 0; i < nao.nq(); ++i) {
    if (mapped.clamped_count[i] > 0) std::cout << "  " << nao.qName(i) << " clamped in " << mapped.clamped_count[i] << " frames\n";
  }
  for (Eigen::Index k = 0; k < mapped.q.rows(); ++k) {
    if (!withinLimits(nao, Eigen::VectorXd(mapped.q.row(k).transpose()))) return 1;  // never happens
  }
  std::remove(motion_path.c_str());
  std::remove(angles_path.c_str());
  return 0;
}
