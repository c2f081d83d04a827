// A downstream program using retarget::learning: trains a small GPDM (LBFGSpp comes with the
// target, from its CMake package or, as on Debian, its headers).
#include <cmath>
#include <cstdio>

#include <retarget/learning/gpdm_training.hpp>

int main() {
  Eigen::MatrixXd y(20, 4);
  for (Eigen::Index t = 0; t < y.rows(); ++t) {
    const double s = 0.3 * static_cast<double>(t);
    y.row(t) << std::sin(s), std::cos(s), std::sin(2 * s), 0.5 * s;
  }
  retarget::GpdmTrainingOptions options;
  options.max_iterations = 10;
  retarget::GpdmTrainingReport report;
  const retarget::GpdmModel model = retarget::trainGpdm({y}, options, {}, &report);
  std::printf("retarget::learning: -log posterior %.3f -> %.3f\n", report.initial_objective, report.final_objective);
  return model.frames() == 20 && report.final_objective <= report.initial_objective ? 0 : 1;
}
