// The analytic and geometric skeleton mappers in Python: GA-LVVJ, the whole-body pipelines (after
// GA-LVVJ and after the humanoid mapper), the humanoid mapper of any bound URDF humanoid, triangle, FABRIK / PIC /
// PICs. Each is built as the command line builds it (same maps, same option defaults), so that map_motion gives
// `retarget map`'s angles bit for bit.
#include <retarget/app/methods.hpp>
#include <retarget/app/whole_body.hpp>
#include <retarget/app/whole_body_json.hpp>
#include <retarget/human/foot_stance.hpp>
#include <retarget/io/floating_base_csv.hpp>
#include <retarget/json/ga_lvvj.hpp>
#include <retarget/json/humanoid_binding.hpp>
#include <retarget/json/humanoid_mapper.hpp>
#include <retarget/mappers/ga_lvvj.hpp>
#include <retarget/mappers/humanoid.hpp>
#include <retarget/mappers/humanoid_floating_base.hpp>
#include <retarget/mappers/pic.hpp>
#include <retarget/mappers/triangle.hpp>
#include <retarget/metrics/ground_contact.hpp>

#include "mapper_binding.hpp"

namespace retarget::python {

namespace {

GaLvvjMap gaLvvjMapOrThrow(const Robot& robot, const char* what) {
  const std::optional<GaLvvjMap> map = gaLvvjMapFor(robot);
  if (!map) {
    throw InvalidArgument(std::string("[retarget] ") + what + ": no GA-LVVJ map fits robot '" + robot.name() +
                          "' (built-in maps: NAO whole body, Pepper arms and head; pass map=)");
  }
  return *map;
}

PicAlgorithm picAlgorithm(const std::string& name) {
  if (name == "fabrik") return PicAlgorithm::kFabrik;
  if (name == "pic") return PicAlgorithm::kPic;
  if (name == "pics") return PicAlgorithm::kPics;
  throw InvalidArgument("[retarget] PicMapper: algorithm: expected 'fabrik', 'pic' or 'pics', got '" + name + "'");
}

// The `report` property of a whole-body pipeline class.
template <typename Class>
void addWholeBodyReport(Class& c) {
  c.def_property_readonly(
      "report",
      [](const typename Class::type& b) {
        const WholeBodyReport& r = b.mapper->report();
        py::dict out;
        out["mode"] = supportModeName(r.mode);
        out["mode_changed"] = r.changed;
        out["human_mode"] = supportModeName(r.modes.mode);
        out["has_walk_command"] = r.modes.has_walk_command;
        out["com_limited"] = r.com_limited;
        out["balance_held"] = r.balance_held;
        out["rate_limited"] = r.rate_limited;
        out["step_refused"] = r.modes.refused ? py::object(py::str(stepRefusalReasonName(r.modes.refusal.reason)))
                                              : py::object(py::none());
        return out;
      },
      "The last frame's support mode ('double', 'single-left', ...), whether it changed, whether a walk "
      "command was issued, the balance stage's flags (rate_limited: behind for the joint speeds), and "
      "step_refused: None, or 'too-short' / 'too-fast' in the frame a lift the robot did not follow ended.");
}

int checkedArm(const PicMapper<double>& mapper, int arm) {
  if (arm < 0 || arm >= mapper.armCount()) {
    throw py::index_error("retarget: arm " + std::to_string(arm) + " out of range (arm_count " +
                          std::to_string(mapper.armCount()) + ")");
  }
  return arm;
}

}  // namespace

void bindSkeletonMappers(py::module_& m) {
  // --- GA-LVVJ
  using GaLvvj = BoundMapper<GaLvvjMapper<double>>;
  py::class_<GaLvvj> ga(m, "GaLvvjMapper", R"doc(
GA-LVVJ (seed 000, Section 3.2): analytic whole-body mapping from human link vectors to robot
joint angles (retarget::GaLvvjMapper). NAO whole body, Pepper arms and head, or any robot with a
GA-LVVJ map.

GaLvvjMapper(robot, map=None, options=None, **options)
  robot    a retarget.Robot (kept alive by the mapper).
  map      None: the built-in map of the robot (gaLvvjMapFor); a dict or the path of a JSON
           file of a GaLvvjMap (retarget/json/ga_lvvj.hpp).
  options  None, a dict, or the path of the JSON file `retarget map --config` takes; keyword
           arguments override single fields: hip_yaw_pitch_mode ('from-knees' or 'fixed'),
           hip_yaw_pitch (rad), singular_tolerance, limit_aware_shoulder, continuity_weight,
           jump_cost (arm-direction error, the
           sum of squared unit-vector differences), continuity_gain, discontinuity_step (rad), clamp_tolerance (rad),
           leg_fit, inferred_joints ('hold' or 'use'). Bad values raise retarget.ParseError
           naming the field.

Input: a SkeletonFrame, or positions (25 x 3, m, canonical frame W: x forward, y left, z up) in
retarget.HUMAN_JOINT_NAMES order (joints with NaN are untracked). Output q: rad, robot order,
within the limits. map_motion(motion) gives what `retarget map --method ga-lvvj` writes.)doc");
  ga.def(py::init([](const RobotPtr& robot, py::object map, py::object options, py::kwargs kwargs) {
           const GaLvvjMap base_map = map.is_none() ? gaLvvjMapOrThrow(*robot, "GaLvvjMapper")
                                                    : structFrom<GaLvvjMap>(GaLvvjMap{}, map, py::kwargs(), "map");
           const GaLvvjOptions o = structFrom<GaLvvjOptions>(GaLvvjOptions{}, options, kwargs, "GaLvvjMapper");
           return std::make_unique<GaLvvj>(robot, std::make_unique<GaLvvjMapper<double>>(*robot, base_map, o));
         }),
         py::arg("robot"), py::arg("map") = py::none(), py::arg("options") = py::none())
      .def_property_readonly("options", [](const GaLvvj& b) { return toPython(toJson(b.mapper->options())); },
                             "The validated options, as the JSON object the command line reads.");
  addMapperMethods<GaLvvjMapper<double>>(ga);

  // --- whole body after GA-LVVJ (the paper's) and after the humanoid mapper (any bound humanoid)
  using WholeBody = BoundMapper<app::GaLvvjWholeBody>;
  py::class_<WholeBody> wb(m, "WholeBodyPipeline", R"doc(
The whole-body pipeline of seed 000 (Sections 3.5, 4, 5) after GA-LVVJ: support modes, walk
commands and the balance QP (retarget::WholeBody<GaLvvjMapper>), on a biped with NAO's sole
frames l_sole / r_sole. HumanoidWholeBody is the same after the humanoid mapper, on any humanoid.

WholeBodyPipeline(robot, options=None, **options)
  options  None, a dict or the path of the JSON file `retarget map --method ga-lvvj --whole-body
           --config` takes; keyword arguments override fields (e.g. balance_enabled=False is
           `--no-balance`; ga_lvvj={...} the GA-LVVJ options, trunk_lean on by default here).
map_motion(motion) gives what `retarget map --method ga-lvvj --whole-body` writes. `report`
after map() is the last frame's support mode as a dict.)doc");
  wb.def(py::init([](const RobotPtr& robot, py::object options, py::kwargs kwargs) {
           const auto o = structFrom<app::GaLvvjWholeBodyOptions>(app::GaLvvjWholeBodyOptions{}, options, kwargs,
                                                                  "WholeBodyPipeline");
           return std::make_unique<WholeBody>(robot, app::makeGaLvvjWholeBody(*robot, o));
         }),
         py::arg("robot"), py::arg("options") = py::none())
      .def_property_readonly(
          "options",
          [](const WholeBody& b) {
            return toPython(
                app::toJson(app::GaLvvjWholeBodyOptions{b.mapper->mapper().options(), b.mapper->options()}));
          },
          "The validated options, as the JSON object the command line reads.");
  addWholeBodyReport(wb);
  addMapperMethods<app::GaLvvjWholeBody>(wb);

  using HumanoidBody = BoundMapper<app::HumanoidWholeBody>;
  py::class_<HumanoidBody> hwb(m, "HumanoidWholeBody", R"doc(
The whole-body pipeline of seed 000 (support modes, walk commands, balance QP) after the humanoid
mapper (retarget::WholeBody<HumanoidMapper>), the robot standing on the soles its binding finds:
G1, H1, T1 or any humanoid the automatic binding understands.

HumanoidWholeBody(robot, schema=None, options=None, **options)
  schema   as HumanoidMapper.
  options  None, a dict or the path of the JSON file `retarget map --method humanoid --whole-body
           --config` takes; keyword arguments override fields (balance_enabled=False is
           `--no-balance`; humanoid={...} the humanoid mapper's options). A robot without legs
           or soles raises retarget.InvalidArgument naming the foot.
map_motion(motion) gives what `retarget map --method humanoid --whole-body` writes; `report` as
WholeBodyPipeline's.)doc");
  hwb.def(py::init([](const RobotPtr& robot, py::object schema, py::object options, py::kwargs kwargs) {
            const HumanoidBindingOptions pins =
                structFrom<HumanoidBindingOptions>(HumanoidBindingOptions{}, schema, py::kwargs(), "schema");
            const auto o = structFrom<app::HumanoidWholeBodyOptions>(app::HumanoidWholeBodyOptions{}, options, kwargs,
                                                                     "HumanoidWholeBody");
            return std::make_unique<HumanoidBody>(robot,
                                                  app::makeHumanoidWholeBody(*robot, bindHumanoid(*robot, pins), o));
          }),
          py::arg("robot"), py::arg("schema") = py::none(), py::arg("options") = py::none())
      .def_property_readonly(
          "options",
          [](const HumanoidBody& b) {
            return toPython(
                app::toJson(app::HumanoidWholeBodyOptions{b.mapper->mapper().options(), b.mapper->options()}));
          },
          "The validated options, as the JSON object the command line reads.");
  addWholeBodyReport(hwb);
  addMapperMethods<app::HumanoidWholeBody>(hwb);

  // --- humanoid (any bound URDF humanoid)
  using Humanoid = BoundMapper<HumanoidMapper<double>>;
  py::class_<Humanoid> humanoid(m, "HumanoidMapper", R"doc(
The mapper for any humanoid the automatic binding understands (retarget::HumanoidMapper,
docs/methods/humanoid.md): a bounded least-squares fit of the robot's link directions to the
human's per frame, in the frames WBF and LLF read them in. Built-in g1, h1, NAO, Pepper or any
URDF humanoid (Robot("robot.urdf")).

HumanoidMapper(robot, schema=None, options=None, **options)
  robot    a retarget.Robot (kept alive by the mapper).
  schema   None: the automatic binding; a dict or the path of a robot schema (the JSON
           `retarget schema suggest robot.urdf` writes) pinning it.
  options  None, a dict, or the path of the JSON file `retarget map --method humanoid --config`
           takes; keyword arguments override single fields (torso_weight, ground_weight,
           end_weight, continuity_weight, max_step (rad), min_step,
           continuity_gain, max_iterations, tolerance, restarts, restart_cosine, switch_gain,
           inferred_joints, rest, ...). Bad values raise retarget.ParseError naming the field;
           a robot that does not bind raises retarget.InvalidArgument.
Input as GaLvvjMapper; output rad, robot order, within the limits. map_motion(motion) gives what
`retarget map --method humanoid` writes.)doc");
  humanoid
      .def(py::init([](const RobotPtr& robot, py::object schema, py::object options, py::kwargs kwargs) {
             const HumanoidBindingOptions pins =
                 structFrom<HumanoidBindingOptions>(HumanoidBindingOptions{}, schema, py::kwargs(), "schema");
             const HumanoidMapperOptions o =
                 structFrom<HumanoidMapperOptions>(HumanoidMapperOptions{}, options, kwargs, "HumanoidMapper");
             return std::make_unique<Humanoid>(
                 robot, std::make_unique<HumanoidMapper<double>>(*robot, bindHumanoid(*robot, pins), o));
           }),
           py::arg("robot"), py::arg("schema") = py::none(), py::arg("options") = py::none())
      .def_property_readonly("options", [](const Humanoid& b) { return toPython(toJson(b.mapper->options())); },
                             "The validated options, as the JSON object the command line reads.");
  addMapperMethods<HumanoidMapper<double>>(humanoid);

  // --- the floating base (issue 54): the root, the joints and the contacts of a whole motion
  m.def(
      "map_floating_base",
      [](const RobotPtr& robot, const Motion& motion, py::object fps, py::object scale, py::object schema,
         py::object options, py::kwargs kwargs) {
        const HumanoidBindingOptions pins =
            structFrom<HumanoidBindingOptions>(HumanoidBindingOptions{}, schema, py::kwargs(), "schema");
        HumanoidFloatingBaseOptions o;
        o.mapper = structFrom<HumanoidMapperOptions>(HumanoidMapperOptions{}, options, kwargs, "map_floating_base");
        o.stance.floor = humanFloor(motion);
        const HumanoidBinding binding = bindHumanoid(*robot, pins);
        if (!scale.is_none()) {
          o.scale = scale.cast<double>();
        } else if (const double measured = humanoidLegScale(binding, motion); measured > 0) {
          o.scale = measured;  // the take's, as the command line
        }
        FloatingBaseTrajectory t;
        {
          HumanoidFloatingBaseMapper<double> mapper(*robot, binding, o);
          py::gil_scoped_release release;
          t = recordFloatingBase(mapper, motion);
        }
        const double rate = fps.is_none() ? motion.frame_rate : fps.cast<double>();
        if (!fps.is_none()) t = resampleFloatingBase(t, rate);
        const auto n = static_cast<Eigen::Index>(t.size());
        Eigen::MatrixXd position = t.root_position.transpose();
        Eigen::MatrixXd quaternion(n, 4);
        for (Eigen::Index i = 0; i < n; ++i) {
          const Eigen::Quaterniond& r = t.root_orientation[static_cast<std::size_t>(i)];
          quaternion.row(i) << r.x(), r.y(), r.z(), r.w();
        }
        py::array_t<bool> contacts({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(2)});
        for (Eigen::Index i = 0; i < n; ++i) {
          for (int s = 0; s < 2; ++s) contacts.mutable_data()[2 * i + s] = t.contacts(i, s) != 0;
        }
        py::dict out;
        out["time"] = moveToNumpy(std::vector<double>(t.time));
        out["root_position"] = moveToNumpy(std::move(position));
        out["root_quaternion_xyzw"] = moveToNumpy(std::move(quaternion));
        out["joint_positions"] = moveToNumpy(std::move(t.q));
        out["joint_names"] = t.joint_names;
        out["contacts"] = contacts;
        out["fps"] = rate;
        return out;
      },
      py::arg("robot"), py::arg("motion"), py::arg("fps") = py::none(), py::arg("scale") = py::none(),
      py::arg("schema") = py::none(), py::arg("options") = py::none(), R"doc(
The humanoid mapper with a floating base over a whole motion (retarget::HumanoidFloatingBaseMapper,
docs/datasets.md): what `retarget map --method humanoid --floating-base` writes, as arrays.

map_floating_base(robot, motion, fps=None, scale=None, schema=None, options=None, **options) -> dict
  robot, schema, options, **options  as HumanoidMapper (the fixed-base solve's options).
  fps     None: the motion's frames; else resampled at fps (linear, the orientation by slerp).
  scale   None: the robot's leg length over the human's (the median over the take); else this
          robot / human length ratio.
The floor is the take's (its feet's 2nd percentile). Returns a dict:
  time (T,) s; root_position (T, 3) m, world z up, the ground at z = 0; root_quaternion_xyzw
  (T, 4), the root link's orientation, x y z w; joint_positions (T, N) rad in joint_names order;
  contacts (T, 2) bool, left and right foot standing; fps.
Unitree's LAFAN1 layout is numpy.hstack([root_position, root_quaternion_xyzw, joint_positions]);
MuJoCo's qpos takes the quaternion w x y z: root_quaternion_xyzw[:, [3, 0, 1, 2]].)doc");

  // --- triangle
  using Triangle = BoundMapper<TriangleMapper<double>>;
  py::class_<Triangle> tri(m, "TriangleMapper", R"doc(
Triangle arm mapping (seed 001, Section 2.1; retarget::TriangleMapper): each arm's shoulder,
elbow and wrist triangle solved analytically for the robot's arm joints. Tangy, NAO and Pepper
arms (the built-in triangle map of the robot).

TriangleMapper(robot, **options): singular_tolerance, continuity_gain, catch_up_step (rad),
lag_error (rad), jump_margin (rad), discontinuity_step (rad). Input as GaLvvjMapper; output rad.
map_motion(motion) gives what `retarget map --method triangle` writes.)doc");
  tri.def(py::init([](const RobotPtr& robot, py::kwargs kwargs) {
            const std::optional<TriangleMap> map = triangleMapFor(*robot);
            if (!map) {
              throw InvalidArgument("[retarget] TriangleMapper: no triangle map fits robot '" + robot->name() +
                                    "' (built-in maps: Tangy, NAO arms, Pepper arms)");
            }
            TriangleOptions o;
            applyKwargs(kwargs,
                        {{"singular_tolerance", setField(o.singular_tolerance)},
                         {"continuity_gain", setField(o.continuity_gain)},
                         {"catch_up_step", setField(o.catch_up_step)},
                         {"lag_error", setField(o.lag_error)},
                         {"jump_margin", setField(o.jump_margin)},
                         {"discontinuity_step", setField(o.discontinuity_step)}},
                        "TriangleMapper");
            return std::make_unique<Triangle>(robot, std::make_unique<TriangleMapper<double>>(*robot, *map, o));
          }),
          py::arg("robot"));
  addMapperMethods<TriangleMapper<double>>(tri);

  // --- FABRIK / PIC / PICs
  using Pic = BoundMapper<PicMapper<double>>;
  py::class_<Pic> pic(m, "PicMapper", R"doc(
Seed 004's pose imitation of the arms (retarget::PicMapper): 'fabrik' (the baseline), 'pic'
(FABRIK with the human's octant pose constraints) or 'pics' (PIC with constraint softening K,
Eq. 3), on any robot with a PIC map (Baxter, YuMi, NAO, Pepper).

PicMapper(robot, algorithm='pic', softening=1, soften_always=False, force_octants=False,
          smoothing_alpha=0.5, **options)
  The defaults are the command line's (`retarget map --method pic`): the paper's Section IV
  input pipeline smooths the human positions with alpha 0.5 (the library's own default is 1,
  no smoothing). Other options: fit_iterations, fit_damping, fit_elbow_weight,
  max_fit_residual (m), transition_frames, continuity_weight (m^2/rad^2, 0 = off),
  continuity_gain.
Input as GaLvvjMapper; output rad. residual(arm) after map(): the joint fit's distance from the
solved chain (m); softened(arm), fit_failed(arm), arm_count.)doc");
  pic.def(py::init([](const RobotPtr& robot, const std::string& algorithm, int softening, bool soften_always,
                      bool force_octants, double smoothing_alpha, py::kwargs kwargs) {
            const std::optional<PicMap> map = picMapFor(*robot);
            if (!map) {
              throw InvalidArgument("[retarget] PicMapper: no PIC map fits robot '" + robot->name() +
                                    "' (built-in maps: baxter, yumi, nao, pepper)");
            }
            // The command line's options (the method table's builder), then the keywords.
            app::MethodSettings settings;
            settings.softening = softening;
            settings.soften_always = soften_always;
            settings.force_octants = force_octants;
            PicOptions o = app::picOptionsFrom(settings, picAlgorithm(algorithm));
            o.smoothing_alpha = smoothing_alpha;
            applyKwargs(kwargs,
                        {{"fit_iterations", setField(o.fit_iterations)},
                         {"fit_damping", setField(o.fit_damping)},
                         {"fit_elbow_weight", setField(o.fit_elbow_weight)},
                         {"max_fit_residual", setField(o.max_fit_residual)},
                         {"transition_frames", setField(o.transition_frames)},
                         {"continuity_weight", setField(o.continuity_weight)},
                         {"continuity_gain", setField(o.continuity_gain)}},
                        "PicMapper");
            return std::make_unique<Pic>(robot, std::make_unique<PicMapper<double>>(*robot, *map, o));
          }),
          py::arg("robot"), py::arg("algorithm") = "pic", py::arg("softening") = 1, py::arg("soften_always") = false,
          py::arg("force_octants") = false, py::arg("smoothing_alpha") = 0.5)
      .def_property_readonly("arm_count", [](const Pic& b) { return b.mapper->armCount(); })
      .def("residual", [](const Pic& b, int arm) { return b.mapper->residual(checkedArm(*b.mapper, arm)); }, py::arg("arm"),
           "The last frame's joint-fit residual of an arm, m.")
      .def("softened", [](const Pic& b, int arm) { return b.mapper->softened(checkedArm(*b.mapper, arm)); }, py::arg("arm"))
      .def("fit_failed", [](const Pic& b, int arm) { return b.mapper->fitFailed(checkedArm(*b.mapper, arm)); }, py::arg("arm"));
  addMapperMethods<PicMapper<double>>(pic);

  // --- any method of the table (retarget/app/methods.hpp), by name
  using Any = BoundMapper<app::MethodMapper>;
  py::class_<Any> any(m, "Mapper", R"doc(
Any mapping method by its name, as the command line's `--method` takes it, built from the table
every front end reads (retarget/app/methods.hpp; retarget.methods() lists it): ga-lvvj,
humanoid, triangle, fabrik, pic, pics, gpdm-pf, pf (euler reads BVH channels: EulerMapper).
A method added to the table is here without a class of its own.

Mapper(robot, method, **settings)
  settings  what the method takes, as `retarget map` does: config (path of its options file:
            ga-lvvj, humanoid, or the whole-body configuration), schema (robot schema, humanoid),
            whole_body, trunk_lean, softening, soften_always, force_octants, particles, seed,
            pf_noise, model (.gpdm file, gpdm-pf), fallback ('none' or 'ga-lvvj').
A method that does not apply to the robot raises retarget.InvalidArgument saying why.
map_motion(motion) gives what `retarget map --method <method>` writes (before its filters).)doc");
  any.def(py::init([](const RobotPtr& robot, const std::string& method, py::kwargs kwargs) {
            app::MethodSettings settings;
            const auto path = [](std::string& field) {
              return [&field](py::handle value) { field = py::str(py::module_::import("os").attr("fspath")(value)); };
            };
            applyKwargs(kwargs,
                        {{"config", path(settings.config_path)},
                         {"schema", path(settings.schema_path)},
                         {"whole_body", setField(settings.whole_body)},
                         {"trunk_lean", setField(settings.trunk_lean)},
                         {"softening", setField(settings.softening)},
                         {"soften_always", setField(settings.soften_always)},
                         {"force_octants", setField(settings.force_octants)},
                         {"particles", setField(settings.particles)},
                         {"seed", setField(settings.seed)},
                         {"pf_noise", setField(settings.pf_noise)},
                         {"model", path(settings.model_path)},
                         {"fallback", setField(settings.fallback)}},
                        "Mapper");
            const app::Method* entry = app::findMethod(method);
            if (entry != nullptr && entry->reads_channels) {
              throw InvalidArgument("[retarget] Mapper: method '" + method +
                                    "' reads BVH channels: use EulerMapper(robot, bvh)");
            }
            return std::make_unique<Any>(robot, app::makeMethodMapper(method, *robot, settings));
          }),
          py::arg("robot"), py::arg("method"))
      .def_property_readonly(
          "method", [](const Any& b) { return b.mapper->method(); }, "The method's name.");
  addMapperMethods<app::MethodMapper>(any);
  m.def(
      "methods",
      [] {
        py::list out;
        for (const app::Method& method : app::methods()) {
          py::dict entry;
          entry["name"] = method.name;
          entry["description"] = method.description;
          entry["robots"] = method.robots;
          entry["reads_channels"] = method.reads_channels;
          out.append(entry);
        }
        return out;
      },
      "The mapping methods of the table, in order: dicts of name, description, robots and reads_channels "
      "(True: BVH channel input, EulerMapper).");
}

}  // namespace retarget::python
