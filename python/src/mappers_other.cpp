// The particle filters (seed 003) and the Euler/BVH mapper (seed 002) in Python, built as the
// command line builds them.
#include <retarget/io/gpdm_model.hpp>
#include <retarget/json/euler_map.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>
#include <retarget/mappers/euler_mapper.hpp>
#include <retarget/mappers/ga_lvvj_map.hpp>
#include <retarget/mappers/gpdm_particle_filter.hpp>
#include <retarget/mappers/particle_filter.hpp>
#include <retarget/robots/robot_skeleton.hpp>

#include "mapper_binding.hpp"

namespace retarget::python {

namespace {

// The particle filters run where GA-LVVJ runs (as `retarget map --method pf`): NAO and Pepper.
// Returns the robot's virtual skeleton, through which particles are weighed.
VirtualSkeletonMap particleFilterSkeletonOrThrow(const Robot& robot, const char* what) {
  const std::optional<VirtualSkeletonMap> skeleton = virtualSkeletonMapFor(robot);
  if (!gaLvvjMapFor(robot) || !skeleton) {
    throw InvalidArgument(std::string("[retarget] ") + what + ": robot '" + robot.name() +
                          "' is not one the particle filters run on (NAO, Pepper)");
  }
  return *skeleton;
}

}  // namespace

void bindOtherMappers(py::module_& m) {
  // --- joint-space particle filter
  using Pf = BoundMapper<JointSpaceParticleFilter<double>>;
  py::class_<Pf> pf(m, "JointSpaceParticleFilter", R"doc(
The joint-space particle filter of seed 003 (Section 3, Algorithm 1;
retarget::JointSpaceParticleFilter): particles of robot joint angles weighed by the cosine
similarity of the robot's virtual skeleton to the human's links. NAO, Pepper.

JointSpaceParticleFilter(robot, particles=200, noise=0.05, seed=1, **options)
  noise: random-walk step per joint, rad per frame; seed: the random stream (the same seed gives
  the same angles bit for bit, as `retarget map --method pf --seed`). Other options:
  likelihood_sigma, unobserved_at_rest, min_similarity, inferred_joints ('hold' or 'use').
Input as GaLvvjMapper; output rad.)doc");
  pf.def(py::init([](const RobotPtr& robot, int particles, double noise, std::uint64_t seed, py::kwargs kwargs) {
           ParticleFilterOptions o;
           o.particles = particles;
           o.noise = noise;
           o.seed = seed;
           std::string inferred = "hold";
           applyKwargs(kwargs,
                       {{"likelihood_sigma", setField(o.likelihood_sigma)},
                        {"unobserved_at_rest", setField(o.unobserved_at_rest)},
                        {"min_similarity", setField(o.min_similarity)},
                        {"inferred_joints", setField(inferred)}},
                       "JointSpaceParticleFilter");
           o.inferred_joints = inferredFrom(inferred);
           return std::make_unique<Pf>(
               robot, std::make_unique<JointSpaceParticleFilter<double>>(
                          *robot, particleFilterSkeletonOrThrow(*robot, "JointSpaceParticleFilter"), o));
         }),
         py::arg("robot"), py::arg("particles") = 200, py::arg("noise") = 0.05, py::arg("seed") = 1);
  addMapperMethods<JointSpaceParticleFilter<double>>(pf);

  // --- GPDM particle filter
  using Gpdm = BoundMapper<GpdmParticleFilter<double>>;
  py::class_<Gpdm> gpdm(m, "GpdmParticleFilter", R"doc(
The GPDM particle filter of seed 003 (Sections 6-7; retarget::GpdmParticleFilter): particles in
the latent space of a learned Gaussian-process dynamical model (a .gpdm file from `retarget
learn gpdm`), decoded to joint angles and weighed as the joint-space filter. NAO, Pepper.

GpdmParticleFilter(robot, model, particles=30, seed=1, **options)
  model: path of the .gpdm file (its training frame period and fit threshold are used, as
  `retarget map` uses them). Other options: noise_scale, min_noise (latent units),
  likelihood_sigma, window, relocation_similarity, relocation_fraction, min_similarity,
  fallback ("none" or "ga-lvvj": GA-LVVJ on frames the model does not explain, blended over
  fallback_blend_time s), inferred_joints. Status NOT_CONVERGED: the frame is not explained by
  the model (the estimate's cosine below the fit threshold).
Input as GaLvvjMapper; output rad.)doc");
  gpdm.def(py::init([](const RobotPtr& robot, const std::string& model_path, int particles, std::uint64_t seed,
                       py::kwargs kwargs) {
             GpdmParticleFilterOptions o;
             o.particles = particles;
             o.seed = seed;
             std::string inferred = "hold";
             std::string fallback = "none";
             applyKwargs(kwargs,
                         {{"noise_scale", setField(o.noise_scale)},
                          {"min_noise", setField(o.min_noise)},
                          {"likelihood_sigma", setField(o.likelihood_sigma)},
                          {"window", setField(o.window)},
                          {"relocation_similarity", setField(o.relocation_similarity)},
                          {"relocation_fraction", setField(o.relocation_fraction)},
                          {"min_similarity", setField(o.min_similarity)},
                          {"fallback", setField(fallback)},
                          {"fallback_blend_time", setField(o.fallback_blend_time)},
                          {"inferred_joints", setField(inferred)}},
                         "GpdmParticleFilter");
             if (fallback != "none" && fallback != "ga-lvvj") {
               throw InvalidArgument("GpdmParticleFilter: fallback (got '" + fallback + "', expected 'none' or 'ga-lvvj')");
             }
             if (fallback == "ga-lvvj") o.fallback = GpdmFallback::kGaLvvj;
             o.inferred_joints = inferredFrom(inferred);
             const VirtualSkeletonMap skeleton = particleFilterSkeletonOrThrow(*robot, "GpdmParticleFilter");
             GpdmModelFile file = loadGpdmModel(model_path);
             GpdmFilterMap map;
             map.motion_model = std::move(file.model);
             map.joints = std::move(file.joint_names);
             map.skeleton = skeleton;
             map.fallback = *gaLvvjMapFor(*robot);
             map.frame_period = file.frame_period;
             map.fit_threshold = file.fit_threshold;
             return std::make_unique<Gpdm>(robot,
                                           std::make_unique<GpdmParticleFilter<double>>(*robot, std::move(map), o));
           }),
           py::arg("robot"), py::arg("model"), py::arg("particles") = 30, py::arg("seed") = 1);
  addMapperMethods<GpdmParticleFilter<double>>(gpdm);

  // --- Euler / BVH
  using Euler = BoundMapper<EulerMapper<double>>;
  py::class_<Euler> euler(m, "EulerMapper", R"doc(
The Euler/BVH mapper of seed 002 (Section 4.2; retarget::EulerMapper): each BVH joint rotation
read as Euler angles and copied, with the map's signs and offsets, onto robot joints. InMoov
(built-in maps for Axis Neuron, CMU and Mixamo rigs, any other rig bound automatically) or any
robot with a map.

EulerMapper(robot, hierarchy, map=None, options=None, **options)
  hierarchy  the BvhMotion whose channel layout the frames have (retarget.read_bvh()).
  map        None: the built-in InMoov map of the skeleton (robot 'inmoov' only); a dict or the
             path of an EulerMap JSON file (`retarget map --method euler --config`).
  options    EulerOptions: jump_margin (rad), discontinuity_step (rad).
Input of map(): one frame's channels (a 1-D float64 array, file units and degrees: a row of
hierarchy.channels, no copy); map_motion() takes the BvhMotion. Output rad.)doc");
  euler.def(py::init([](const RobotPtr& robot, const BvhMotion& hierarchy, py::object map, py::object options,
                        py::kwargs kwargs) {
              EulerMap config;
              if (map.is_none()) {
                if (robot->name() != "inmoov") {
                  throw InvalidArgument("[retarget] EulerMapper: built-in maps exist for the InMoov only (got robot '" +
                                        robot->name() + "'); pass map=");
                }
                config = inmoovEulerMap(hierarchy);
              } else {
                config = structFrom<EulerMap>(EulerMap{}, map, py::kwargs(), "map");
              }
              const EulerOptions o = structFrom<EulerOptions>(EulerOptions{}, options, kwargs, "EulerMapper");
              return std::make_unique<Euler>(robot,
                                             std::make_unique<EulerMapper<double>>(*robot, hierarchy, std::move(config), o));
            }),
            py::arg("robot"), py::arg("hierarchy"), py::arg("map") = py::none(), py::arg("options") = py::none());
  addMapperMethods<EulerMapper<double>>(euler);
}

}  // namespace retarget::python
