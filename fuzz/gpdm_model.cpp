// libFuzzer target: the learned-GPDM reader (retarget/io/gpdm_model.hpp). What it accepts must
// predict finite values, write back and read back to bit-identical predictions, and, when its
// columns are NAO's 25 coordinates, drive the GPDM particle filter to finite angles within
// NAO's limits; what it refuses must be a ParseError naming the file and line.
#include <sstream>

#include <retarget/io/gpdm_model.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/virtual_skeleton.hpp>

#include "support/fuzz_support.hpp"

namespace {

using namespace retarget;

// Decoded means at the first and last latent points (D values each).
Eigen::VectorXd predictions(const GpdmModel& model) {
  GpdmWorkspace workspace = model.workspace();
  Eigen::VectorXd y(2 * model.observationDim()), x_next(model.latentDim());
  (void)model.decodeMean(model.latent().row(0).transpose(), workspace, y.head(model.observationDim()));
  (void)model.predictNextMean(model.latent().row(model.frames() - 1).transpose(), workspace, x_next);
  (void)model.decodeMean(x_next, workspace, y.tail(model.observationDim()));
  return y;
}

void checkFilter(const GpdmModelFile& file) {
  static const RobotModel<double> nao = makeNao<double>();
  if (file.model.observationDim() != nao.nq() || !file.joint_names.empty()) return;
  if (file.model.frames() > 200) return;  // keep each input fast
  GpdmFilterMap map;
  map.motion_model = file.model;
  GpdmParticleFilterOptions options;
  options.particles = 4;
  GpdmParticleFilter<double> filter(nao, map, options);
  VirtualSkeleton<double> view(nao, naoVirtualSkeletonMap());
  SkeletonFramed frame;
  (void)view.compute(nao.neutralConfiguration(), frame);
  Eigen::VectorXd q(nao.nq());
  for (int k = 0; k < 3; ++k) {
    const Status status = filter.map(frame, q);
    if (status.has(StatusCode::kInvalidInput) || !q.allFinite() || !withinLimits(nao, q)) {
      fuzz::fail("the GPDM particle filter gave an invalid, non-finite or out-of-limit output", "");
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string file = "fuzz.gpdm";
  fuzz::expectRetargetErrorsOnly(file, [&] {
    std::istringstream in{std::string(fuzz::asText(data, size))};
    const GpdmModelFile read = readGpdmModel(in, file);
    const Eigen::VectorXd y = predictions(read.model);
    if (!y.allFinite()) fuzz::fail("an accepted model predicts non-finite values", "");
    std::ostringstream out;
    writeGpdmModel(read.model, out, read.joint_names);
    std::istringstream back_in(out.str());
    const GpdmModelFile back = readGpdmModel(back_in, "rewritten.gpdm");
    if (back.joint_names != read.joint_names || !(predictions(back.model).array() == y.array()).all()) {
      fuzz::fail("gpdm write -> read changed the predictions", out.str().substr(0, 300));
    }
    checkFilter(read);
  });
  return 0;
}
