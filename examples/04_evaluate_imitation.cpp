// How well does the robot imitate the human? Map a motion, rebuild the robot's own skeleton
// from its joint angles (VirtualSkeleton), and compare link by link: WBF and LLF (seed 000,
// Eqs. 44 and 46) and the cosine pose similarity (seed 003, Eq. 1), 1 being identical.
#include <iostream>

#include <retarget/human/demo_motions.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/metrics/link_similarity.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

int main() {
  using namespace retarget;
  const RobotModel<double> nao = makeNao();
  const SkeletonMotion<double> human = demoMotion("arms-raise");

  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  const MappedMotion<double> mapped = mapMotion(mapper, human);

  VirtualSkeleton<double> robot_view(nao, naoVirtualSkeletonMap());
  std::vector<SkeletonFrame<double>> robot(human.size());
  for (std::size_t k = 0; k < human.size(); ++k) {
    if (!robot_view.compute(mapped.q.row(static_cast<Eigen::Index>(k)).transpose(), robot[k]).ok()) return 1;
  }
  const MotionSimilarity<double> similarity = motionSimilarity(human.frames, robot);
  std::cout << "WBF mean " << similarity.wbf_mean << " (min " << similarity.wbf_min << ")\n"
            << "LLF mean " << similarity.llf_mean << " (min " << similarity.llf_min << ")\n"
            << "cosine mean " << similarity.cosine_mean << "\n";
  for (int i = 0; i < kSimilarityLinkCount; ++i) {
    std::cout << "  " << kSimilarityLinkNames[static_cast<std::size_t>(i)] << ": WBF "
              << similarity.wbf_link_mean[static_cast<std::size_t>(i)] << ", LLF "
              << similarity.llf_link_mean[static_cast<std::size_t>(i)] << "\n";
  }
  return similarity.wbf_mean > 0.9 ? 0 : 1;
}
