// Whole-body control on NAO (seed 000, Sections 4-5), in one binary:
//   BM_BalanceQp_Nnls      one balance QP (25 joints) with the library's solver
//                          (control/balance_qp.hpp: least-distance program through NNLS)
//   BM_BalanceQp_Slsqp     the same QPs with NLopt's SLSQP, the reference the issue proposed;
//                          counter suboptimal: QPs where SLSQP's answer is infeasible (> 1e-7)
//                          or its objective exceeds the library's by more than 1e-9
//   BM_BalanceStep         one control period of BalanceController (kinematics, Jacobians,
//                          QP, non-linear check)
//   BM_WholeBody_Frame     one frame of the whole body after GA-LVVJ (modes, GA-LVVJ,
//                          balance: 1-2 control periods at 30 Hz)
//   BM_HumanoidWholeBody_Frame  one frame of the whole body after the humanoid mapper on the
//                          automatically bound Unitree G1 (29 DOF, standing on its soles), the
//                          same take
//   BM_GaLvvj_Frame        one frame of GA-LVVJ alone (the loop's mapper), for the overhead
// The QPs and targets are those of the demo one-leg-stand (12 s, 30 Hz: double support, the
// shift onto the right foot, single support, the landing), captured once. Counters worst_us:
// the slowest single call over one pass (steady_clock), next to the benchmark's mean.
#include <benchmark/benchmark.h>

#include <nlopt.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include <retarget/app/whole_body.hpp>
#include <retarget/human/demo_motions.hpp>
#include <retarget/robots/humanoid_binding.hpp>
#include <retarget/robots/nao.hpp>
#include <retarget/robots/unitree_g1.hpp>

namespace {

using namespace retarget;

struct Fixture {
  RobotModel<double> nao = makeNao<double>();
  SkeletonMotiond motion = demoMotion("one-leg-stand", DemoMotionOptions{30.0, 12.0, 1.75});
  std::vector<BalanceQp> programs;
  std::vector<Eigen::VectorXd> targets;  // GA-LVVJ targets per frame
  std::vector<SupportMode> modes;

  Fixture() {
    const auto pipeline = app::makeGaLvvjWholeBody(nao);
    (void)mapMotion(*pipeline, motion, [&](std::size_t, const app::GaLvvjWholeBody& p) {
      if (p.report().control_periods > 0) programs.push_back(p.balance().lastProgram());
      targets.push_back(p.target());
      modes.push_back(p.report().modes.mode);
    });
  }
};

const Fixture& fixture() {
  static const Fixture f;
  return f;
}

// SLSQP on a BalanceQp (the reference).
struct Slsqp {
  const BalanceQp* qp = nullptr;
  static double objective(unsigned n, const double* x, double* grad, void* data) {
    const BalanceQp& qp = *static_cast<Slsqp*>(data)->qp;
    double f = 0;
    for (unsigned i = 0; i < n; ++i) {
      const double d = x[i] - qp.target[i];
      f += 0.5 * d * d;
      if (grad != nullptr) grad[i] = d;
    }
    return f;
  }
  static void rows(const Eigen::MatrixXd& A, const Eigen::VectorXd& b, unsigned m, double* result, unsigned n,
                   const double* x, double* grad) {
    const Eigen::Map<const Eigen::VectorXd> xv(x, n);
    for (unsigned r = 0; r < m; ++r) {
      result[r] = A.row(r).dot(xv) - b[r];
      if (grad != nullptr) {
        for (unsigned j = 0; j < n; ++j) grad[r * n + j] = A(r, j);
      }
    }
  }
  static void inequalities(unsigned m, double* result, unsigned n, const double* x, double* grad, void* data) {
    const BalanceQp& qp = *static_cast<Slsqp*>(data)->qp;
    rows(qp.G, qp.h, m, result, n, x, grad);
  }
  static void equalities(unsigned m, double* result, unsigned n, const double* x, double* grad, void* data) {
    const BalanceQp& qp = *static_cast<Slsqp*>(data)->qp;
    rows(qp.E, qp.e, m, result, n, x, grad);
  }
  // Solves qp from x = 0; returns the NLopt result.
  int solve(const BalanceQp& program, Eigen::VectorXd& x) {
    qp = &program;
    const auto n = static_cast<unsigned>(program.size());
    nlopt_opt opt = nlopt_create(NLOPT_LD_SLSQP, n);
    nlopt_set_min_objective(opt, &Slsqp::objective, this);
    std::vector<double> tol(16, 0.0);
    if (program.inequality_rows > 0) {
      nlopt_add_inequality_mconstraint(opt, static_cast<unsigned>(program.inequality_rows), &Slsqp::inequalities, this,
                                       tol.data());
    }
    if (program.equality_rows > 0) {
      nlopt_add_equality_mconstraint(opt, static_cast<unsigned>(program.equality_rows), &Slsqp::equalities, this,
                                     tol.data());
    }
    nlopt_set_lower_bounds(opt, program.lower.data());
    nlopt_set_upper_bounds(opt, program.upper.data());
    nlopt_set_xtol_abs1(opt, 1e-12);
    nlopt_set_maxeval(opt, 500);
    x.setZero();
    double f = 0;
    const int result = static_cast<int>(nlopt_optimize(opt, x.data(), &f));
    nlopt_destroy(opt);
    return result;
  }
};

template <typename F>
double worstMicroseconds(std::size_t count, F&& call) {
  double worst = 0;
  for (std::size_t k = 0; k < count; ++k) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(call(k));
    worst = std::max(worst, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
  }
  return worst;
}

void BM_BalanceQp_Nnls(benchmark::State& state) {
  const Fixture& f = fixture();
  BalanceQpSolver solver(f.nao.nq(), BalanceController::kMaxEdges);
  Eigen::VectorXd x(f.nao.nq());
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(solver.solve(f.programs[k], x));
    k = (k + 1) % f.programs.size();
  }
  state.counters["programs"] = static_cast<double>(f.programs.size());
  state.counters["worst_us"] = worstMicroseconds(f.programs.size(), [&](std::size_t i) { return solver.solve(f.programs[i], x); });
}
BENCHMARK(BM_BalanceQp_Nnls);

void BM_BalanceQp_Slsqp(benchmark::State& state) {
  const Fixture& f = fixture();
  Slsqp slsqp;
  Eigen::VectorXd x(f.nao.nq());
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(slsqp.solve(f.programs[k], x));
    k = (k + 1) % f.programs.size();
  }
  // Agreement with the library's solver, once over every program.
  BalanceQpSolver solver(f.nao.nq(), BalanceController::kMaxEdges);
  Eigen::VectorXd ours(f.nao.nq());
  int suboptimal = 0, solved = 0;
  for (const BalanceQp& qp : f.programs) {
    if (!solver.solve(qp, ours).ok) continue;
    ++solved;
    (void)slsqp.solve(qp, x);
    const double f_ours = 0.5 * (ours - qp.target).squaredNorm(), f_slsqp = 0.5 * (x - qp.target).squaredNorm();
    if (BalanceQpSolver::violation(qp, x) > 1e-7 || f_slsqp > f_ours + 1e-9) ++suboptimal;
  }
  state.counters["programs"] = static_cast<double>(solved);
  state.counters["suboptimal"] = suboptimal;
  state.counters["worst_us"] = worstMicroseconds(f.programs.size(), [&](std::size_t i) { return slsqp.solve(f.programs[i], x); });
}
BENCHMARK(BM_BalanceQp_Slsqp);

void BM_BalanceStep(benchmark::State& state) {
  const Fixture& f = fixture();
  BalanceController controller(f.nao, naoBalanceFeet());
  Eigen::VectorXd q = f.nao.neutralConfiguration();
  std::size_t k = 0;
  const auto one = [&](std::size_t i) {
    if (i == 0) {
      q = f.nao.neutralConfiguration();
      controller.reset(q);
    }
    controller.request(f.modes[i] == SupportMode::kWalking ? SupportMode::kDouble : f.modes[i]);
    return controller.step(f.targets[i], q);
  };
  for (auto _ : state) {
    benchmark::DoNotOptimize(one(k));
    k = (k + 1) % f.targets.size();
  }
  state.counters["worst_us"] = worstMicroseconds(f.targets.size(), one);
}
BENCHMARK(BM_BalanceStep);

// The frames of `motion` through `pipeline` in turn (restarting the take at its first frame).
template <typename Pipeline>
void wholeBodyFrames(benchmark::State& state, Pipeline& pipeline, const SkeletonMotiond& motion, int nq) {
  Eigen::VectorXd q(nq);
  std::size_t k = 0;
  const auto one = [&](std::size_t i) {
    if (i == 0) pipeline.reset();
    return pipeline.map(motion.frames[i], q);
  };
  for (auto _ : state) {
    benchmark::DoNotOptimize(one(k));
    k = (k + 1) % motion.frames.size();
  }
  state.counters["worst_us"] = worstMicroseconds(motion.frames.size(), one);
}

void BM_WholeBody_Frame(benchmark::State& state) {
  const Fixture& f = fixture();
  const auto pipeline = app::makeGaLvvjWholeBody(f.nao);
  wholeBodyFrames(state, *pipeline, f.motion, f.nao.nq());
}
BENCHMARK(BM_WholeBody_Frame);

void BM_HumanoidWholeBody_Frame(benchmark::State& state) {
  const Fixture& f = fixture();
  static const RobotModel<double> g1 = makeUnitreeG1<double>();
  const auto pipeline = app::makeHumanoidWholeBody(g1, bindHumanoid(g1));
  wholeBodyFrames(state, *pipeline, f.motion, g1.nq());
}
BENCHMARK(BM_HumanoidWholeBody_Frame);

void BM_GaLvvj_Frame(benchmark::State& state) {
  const Fixture& f = fixture();
  GaLvvjMapper<double> mapper(f.nao, naoGaLvvjMap());
  Eigen::VectorXd q(f.nao.nq());
  std::size_t k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(mapper.map(f.motion.frames[k], q));
    k = (k + 1) % f.motion.frames.size();
  }
}
BENCHMARK(BM_GaLvvj_Frame);

}  // namespace
