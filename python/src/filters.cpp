// Filters and the safety stage in Python: the per-frame filters (exponential smoothing, rate
// limiter, One Euro) and apply_safety, the post-processing `retarget map` runs after any mapper
// (--smooth, --max-joint-speed, --max-hand-speed, --avoid-collisions), in the same order.
#include <retarget/app/hand_points.hpp>
#include <retarget/filters/cartesian_speed_limiter.hpp>
#include <retarget/filters/exponential_smoothing.hpp>
#include <retarget/filters/filter_stages.hpp>
#include <retarget/filters/one_euro_filter.hpp>
#include <retarget/filters/rate_limiter.hpp>
#ifdef RETARGET_PY_WITH_AVOIDANCE
#include <retarget/safety/safety_pipeline.hpp>
#include <retarget/safety/self_collision.hpp>
#endif

#include "bindings.hpp"

namespace retarget::python {

namespace {

using InArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// The sample x of an update: a 1-D float64 array of `n` values, mapped without a copy.
Eigen::Map<const Eigen::VectorXd> sample(const InArray& x, Eigen::Index n) {
  if (x.ndim() != 1 || x.shape(0) != n) {
    throw py::value_error("retarget: expected a 1-D array of " + std::to_string(n) + " values");
  }
  return Eigen::Map<const Eigen::VectorXd>(x.data(), n);
}

template <typename F>
py::tuple filtered(py::handle self, const F& filter, Status status) {
  return py::make_tuple(readOnlyView(filter.value().data(), filter.value().size(), self), toPython(status));
}

#ifdef RETARGET_PY_WITH_AVOIDANCE
// The collision model `retarget map --avoid-collisions` uses: Tangy's own options, else the
// pairs that always collide excluded; the clearance margin in m.
std::unique_ptr<SelfCollisionModel<double>> avoidanceModel(const Robot& model, double margin, const char* what) {
  std::optional<SelfCollisionModel<double>> collision = defaultSelfCollisionModel(model, margin);
  if (!collision) {
    throw InvalidArgument(std::string("[retarget] ") + what + ": robot '" + model.name() +
                          "' has no collision shapes to check");
  }
  return std::make_unique<SelfCollisionModel<double>>(std::move(*collision));
}

#endif

struct SafetyRequest {
  double smooth = 0, max_joint_speed = 0, max_hand_speed = 0, margin = 0.01;
  bool avoid_collisions = false;
  std::string solver = "slsqp";
};

// The command line's applySafetyStages on Q (in place); the stages' status per frame.
std::vector<Status> applySafety(const SafetyRequest& request, const Robot& model, Eigen::MatrixXd& Q,
                                const std::vector<double>& time) {
  if (request.avoid_collisions) {
#ifdef RETARGET_PY_WITH_AVOIDANCE
    const std::unique_ptr<SelfCollisionModel<double>> collision = avoidanceModel(model, request.margin, "apply_safety");
    SafetyPipelineOptions options;
    options.smoothing = request.smooth;
    options.max_joint_speed = request.max_joint_speed;
    options.max_point_speed = request.max_hand_speed;
    if (request.max_hand_speed > 0) options.points = app::handPoints(model);
    options.avoidance.solver =
        request.solver == "cobyla" ? AvoidanceOptions::Solver::kCobyla : AvoidanceOptions::Solver::kSlsqp;
    SafetyPipeline pipeline(*collision, options);
    return applySafetyPipeline(pipeline, Q, time);
#else
    throw InvalidArgument("[retarget] apply_safety: avoid_collisions: built without retarget::avoidance (NLopt)");
#endif
  }
  FilterStagesOptions options;
  options.smoothing = request.smooth;
  options.max_joint_speed = request.max_joint_speed;
  options.max_point_speed = request.max_hand_speed;
  if (request.max_hand_speed > 0) options.points = app::handPoints(model);
  return applyFilterStages(model, Q, time, options);
}

#ifdef RETARGET_PY_WITH_AVOIDANCE
// A SafetyPipeline with what it refers to: the robot and its collision model.
struct BoundSafety {
  RobotPtr robot;
  std::unique_ptr<SelfCollisionModel<double>> collision;
  std::unique_ptr<SafetyPipeline> pipeline;
  Eigen::VectorXd q;
};
#endif

// A CartesianSpeedLimiter with the robot it refers to.
struct BoundCartesian {
  RobotPtr robot;
  std::unique_ptr<CartesianSpeedLimiter<double>> limiter;
};

}  // namespace

void bindFilters(py::module_& m) {
  using Smoothing = ExponentialSmoothing<double>;
  py::class_<Smoothing>(m, "ExponentialSmoothing", R"doc(
Exponential smoothing of a vector signal (retarget::ExponentialSmoothing): value = alpha * x +
(1 - alpha) * value, alpha in (0, 1] the weight of the new sample. update(x) -> (value, status),
value a read-only view of the filter's state (any unit, e.g. rad).)doc")
      .def(py::init([](Eigen::Index size, double alpha) { return Smoothing(size, ExponentialSmoothingOptions{alpha}); }),
           py::arg("size"), py::arg("alpha") = 0.5)
      .def("update",
           [](py::object self, const InArray& x) {
             Smoothing& f = self.cast<Smoothing&>();
             const Status status = f.update(sample(x, f.value().size()));
             return filtered(self, f, status);
           },
           py::arg("x"))
      .def("reset", &Smoothing::reset)
      .def_property_readonly("value", [](py::object self) {
        const Smoothing& f = self.cast<const Smoothing&>();
        return readOnlyView(f.value().data(), f.value().size(), self);
      });

  using Limiter = RateLimiter<double>;
  py::class_<Limiter>(m, "RateLimiter", R"doc(
Per-coordinate rate limit (retarget::RateLimiter): each coordinate moves at most max_rate * dt
per update (max_rate in units/s, e.g. rad/s; dt in s). update(x, dt) -> (value, status);
RATE_LIMITED when a coordinate was limited.)doc")
      .def(py::init([](Eigen::Index size, double max_rate) {
             RateLimiterOptions options;
             options.max_rate = max_rate;
             return Limiter(size, options);
           }),
           py::arg("size"), py::arg("max_rate"))
      .def("update",
           [](py::object self, const InArray& x, double dt) {
             Limiter& f = self.cast<Limiter&>();
             const Status status = f.update(sample(x, f.value().size()), dt);
             return filtered(self, f, status);
           },
           py::arg("x"), py::arg("dt"))
      .def("reset", &Limiter::reset);

  using OneEuro = OneEuroFilter<double>;
  py::class_<OneEuro>(m, "OneEuroFilter", R"doc(
The One Euro filter (Casiez et al. 2012; retarget::OneEuroFilter): adaptive low-pass whose cutoff
grows with speed. min_cutoff and d_cutoff in Hz, beta in 1/(unit/s). update(x, t) -> (value,
status), t the sample time in s.)doc")
      .def(py::init([](Eigen::Index size, double min_cutoff, double beta, double d_cutoff) {
             OneEuroFilterOptions options;
             options.min_cutoff = min_cutoff;
             options.beta = beta;
             options.d_cutoff = d_cutoff;
             return OneEuro(size, options);
           }),
           py::arg("size"), py::arg("min_cutoff") = 1.0, py::arg("beta") = 0.0, py::arg("d_cutoff") = 1.0)
      .def("update",
           [](py::object self, const InArray& x, double t) {
             OneEuro& f = self.cast<OneEuro&>();
             const Status status = f.update(sample(x, f.value().size()), t);
             return filtered(self, f, status);
           },
           py::arg("x"), py::arg("t"))
      .def("reset", &OneEuro::reset);

  py::class_<BoundCartesian>(m, "CartesianSpeedLimiter", R"doc(
Cartesian speed limit on the robot's hands and elbows (seed 001; retarget::CartesianSpeedLimiter):
each update moves q so that no limited point moves faster than max_speed (m/s), keeping the
per-joint limit max_joint_speed (rad/s, 0: none). The points are those of
`retarget map --max-hand-speed`: the triangle map's wrists and elbows on Tangy, NAO and Pepper,
else the elbows, wrists and hands of the robot's virtual skeleton (G1, H1, any bound humanoid). update(q, dt) -> (value, status).)doc")
      .def(py::init([](const RobotPtr& robot, double max_speed, double max_joint_speed) {
             CartesianSpeedLimiterOptions options;
             options.max_speed = max_speed;
             options.points = app::handPoints(*robot);
             options.max_joint_speed = max_joint_speed;
             return std::make_unique<BoundCartesian>(
                 BoundCartesian{robot, std::make_unique<CartesianSpeedLimiter<double>>(*robot, options)});
           }),
           py::arg("robot"), py::arg("max_speed"), py::arg("max_joint_speed") = 0.0)
      .def(
          "update",
          [](py::object self, const InArray& q, double dt) {
            BoundCartesian& b = self.cast<BoundCartesian&>();
            const Status status = b.limiter->update(sample(q, b.robot->nq()), dt);
            return filtered(self, *b.limiter, status);
          },
          py::arg("q"), py::arg("dt"))
      .def("reset", [](BoundCartesian& b) { b.limiter->reset(); });

#ifdef RETARGET_PY_WITH_AVOIDANCE
  py::class_<BoundSafety>(m, "SafetyPipeline", R"doc(
The safety stage of seed 001 per frame (retarget::SafetyPipeline): smoothing, the joint and
hand speed limits and self-collision avoidance (NLopt) in one program, so nothing after it moves
the arms back into collision. What `retarget map --avoid-collisions` runs after the mapper.

SafetyPipeline(robot, smoothing=0, max_joint_speed=0, max_hand_speed=0, solver='slsqp',
               margin=0.01)
  smoothing: exponential smoothing alpha (0: off); max_joint_speed in rad/s, max_hand_speed in
  m/s (0: off); solver 'slsqp' or 'cobyla'; margin: clearance in m.
update(q, dt, out=None) -> (q_safe, status): q the mapped angles (rad), dt the seconds since
the previous frame. Not allocation-free: NLopt allocates in the frames it solves
(docs/mapper_contract.md).)doc")
      .def(py::init([](const RobotPtr& robot, double smoothing, double max_joint_speed, double max_hand_speed,
                       const std::string& solver, double margin) {
             if (solver != "slsqp" && solver != "cobyla") {
               throw InvalidArgument("[retarget] SafetyPipeline: solver: expected 'slsqp' or 'cobyla', got '" + solver + "'");
             }
             auto b = std::make_unique<BoundSafety>();
             b->robot = robot;
             b->collision = avoidanceModel(*robot, margin, "SafetyPipeline");
             SafetyPipelineOptions options;
             options.smoothing = smoothing;
             options.max_joint_speed = max_joint_speed;
             options.max_point_speed = max_hand_speed;
             if (max_hand_speed > 0) options.points = app::handPoints(*robot);
             options.avoidance.solver =
                 solver == "cobyla" ? AvoidanceOptions::Solver::kCobyla : AvoidanceOptions::Solver::kSlsqp;
             b->pipeline = std::make_unique<SafetyPipeline>(*b->collision, options);
             b->q = Eigen::VectorXd::Zero(robot->nq());
             return b;
           }),
           py::arg("robot"), py::arg("smoothing") = 0.0, py::arg("max_joint_speed") = 0.0,
           py::arg("max_hand_speed") = 0.0, py::arg("solver") = "slsqp", py::arg("margin") = 0.01)
      .def(
          "update",
          [](py::object self, const InArray& q, double dt, py::object out) {
            BoundSafety& b = self.cast<BoundSafety&>();
            const Eigen::Index n = b.robot->nq();
            const Eigen::Map<const Eigen::VectorXd> input = sample(q, n);
            if (out.is_none()) {
              const Status status = b.pipeline->update(input, dt, b.q);
              return py::make_tuple(readOnlyView(b.q.data(), n, self), toPython(status));
            }
            auto target = out.cast<py::array_t<double>>();
            if (target.ndim() != 1 || target.shape(0) != n || !target.writeable() ||
                target.strides(0) != static_cast<py::ssize_t>(sizeof(double))) {
              throw py::value_error("retarget: out must be a writable contiguous float64 array of " + std::to_string(n) +
                                    " values");
            }
            Eigen::Map<Eigen::VectorXd> q_out(target.mutable_data(), n);
            const Status status = b.pipeline->update(input, dt, q_out);
            return py::make_tuple(out, toPython(status));
          },
          py::arg("q"), py::arg("dt"), py::arg("out") = py::none());
#endif

  m.def(
      "apply_safety",
      [](const RobotPtr& robot, const InArray& Q, const InArray& times, double smooth, double max_joint_speed,
         double max_hand_speed, bool avoid_collisions, const std::string& solver, double margin) {
        if (solver != "slsqp" && solver != "cobyla") {
          throw InvalidArgument("[retarget] apply_safety: solver: expected 'slsqp' or 'cobyla', got '" + solver + "'");
        }
        Eigen::MatrixXd q = toMatrix(Q, "apply_safety", robot->nq());
        std::vector<double> t(times.data(), times.data() + times.size());
        if (static_cast<Eigen::Index>(t.size()) != q.rows()) {
          throw InvalidArgument("[retarget] apply_safety: expected one time per row of Q");
        }
        SafetyRequest request{smooth, max_joint_speed, max_hand_speed, margin, avoid_collisions, solver};
        std::vector<Status> statuses;
        {
          py::gil_scoped_release release;
          statuses = applySafety(request, *robot, q, t);
        }
        return py::make_tuple(moveToNumpy(std::move(q)), statusArray(statuses));
      },
      py::arg("robot"), py::arg("Q"), py::arg("times"), py::arg("smooth") = 0.0, py::arg("max_joint_speed") = 0.0,
      py::arg("max_hand_speed") = 0.0, py::arg("avoid_collisions") = false, py::arg("solver") = "slsqp",
      py::arg("margin") = 0.01, R"doc(
The safety stages `retarget map` runs after the mapper, on Q (frames x nq, rad) at times (s),
frame by frame as a live pipeline would: without avoid_collisions, exponential smoothing (smooth
= alpha, 0 off), then the joint rate limit (max_joint_speed, rad/s) or the Cartesian limit on
hands and elbows (max_hand_speed, m/s; keeps the joint limit); with avoid_collisions, one
SafetyPipeline (seed 001: self-collision avoidance with NLopt's solver 'slsqp' or 'cobyla' and a
clearance margin in m, keeping the speed limits). Returns (Q_safe, statuses); releases the GIL.)doc");
}

}  // namespace retarget::python
