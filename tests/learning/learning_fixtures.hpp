#pragma once

// Shared data of the learning tests: small random GPDM problems and NAO joint trajectories of the
// library's demo motions mapped by GA-LVVJ.

#include <random>
#include <string>
#include <vector>

#include <Eigen/Core>

#include <retarget/human/demo_motions.hpp>
#include <retarget/learning/gpdm.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/mapper.hpp>
#include <retarget/robots/nao.hpp>

namespace retarget::test {

// A smooth curve through a 3-D latent space observed in `dim_y` dimensions (N x dim_y), and a
// noisy version of the curve as latent points: a small GPDM problem with a known structure.
struct SmallGpdmProblem {
  Eigen::MatrixXd y;
  Eigen::MatrixXd x;
  std::vector<Eigen::Index> lengths;
};

inline SmallGpdmProblem smallGpdmProblem(std::mt19937& rng, Eigen::Index frames, Eigen::Index dim_y,
                                         std::vector<Eigen::Index> lengths) {
  std::normal_distribution<double> normal(0.0, 1.0);
  SmallGpdmProblem problem;
  problem.lengths = std::move(lengths);
  problem.x.resize(frames, 3);
  problem.y.resize(frames, dim_y);
  Eigen::MatrixXd mix(3, dim_y);
  for (Eigen::Index i = 0; i < mix.size(); ++i) mix(i) = normal(rng);
  for (Eigen::Index t = 0; t < frames; ++t) {
    const double s = 0.35 * static_cast<double>(t);
    const Eigen::RowVector3d curve(std::cos(s), std::sin(s), 0.4 * std::sin(2 * s));
    for (Eigen::Index c = 0; c < 3; ++c) problem.x(t, c) = curve(c) + 0.1 * normal(rng);
    problem.y.row(t) = (curve * mix).array().sin().matrix();
    for (Eigen::Index c = 0; c < dim_y; ++c) problem.y(t, c) += 0.01 * normal(rng);
  }
  return problem;
}

// NAO joint angles (frames x nq, rad) of demo motion `name` generated with `options`, mapped by
// GA-LVVJ.
inline Eigen::MatrixXd naoDemoAngles(const std::string& name, const DemoMotionOptions& options) {
  const auto nao = makeNao<double>();
  GaLvvjMapper<double> mapper(nao, naoGaLvvjMap());
  const MappedMotion<double> mapped = mapMotion(mapper, demoMotion(name, options));
  return mapped.q;
}

}  // namespace retarget::test
