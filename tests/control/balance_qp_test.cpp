// The balance QP (seed 000, Section 5), solved as a least-distance program through NNLS, equals
// the solution found by enumerating active sets (each a KKT solve, the feasible one with the
// least objective) on random small programs, to 1e-8; infeasible programs are reported, not
// returned as solved; the solve allocates nothing.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <Eigen/Dense>

#include <retarget/control/balance_qp.hpp>

#include "support/allocation.hpp"

using namespace retarget;

namespace {

// Every choice of active rows: each inequality active or not, each variable at its lower bound,
// its upper bound or free. Returns the feasible KKT point with the least objective.
Eigen::VectorXd enumerateActiveSets(const BalanceQp& qp, bool* found) {
  const int n = qp.size(), m = qp.inequality_rows;
  double best = std::numeric_limits<double>::infinity();
  Eigen::VectorXd best_x = Eigen::VectorXd::Zero(n);
  *found = false;
  long bound_choices = 1;
  for (int i = 0; i < n; ++i) bound_choices *= 3;
  for (long mask = 0; mask < (1L << m); ++mask) {
    for (long b = 0; b < bound_choices; ++b) {
      std::vector<Eigen::RowVectorXd> rows;
      std::vector<double> rhs;
      for (int r = 0; r < qp.equality_rows; ++r) {
        rows.push_back(qp.E.row(r));
        rhs.push_back(qp.e[r]);
      }
      for (int r = 0; r < m; ++r) {
        if (mask & (1L << r)) {
          rows.push_back(qp.G.row(r));
          rhs.push_back(qp.h[r]);
        }
      }
      long code = b;
      for (int i = 0; i < n; ++i, code /= 3) {
        if (code % 3 == 0) continue;
        rows.push_back(Eigen::RowVectorXd::Unit(n, i));
        rhs.push_back(code % 3 == 1 ? qp.lower[i] : qp.upper[i]);
      }
      if (static_cast<int>(rows.size()) > n) continue;
      Eigen::VectorXd x = qp.target;
      if (!rows.empty()) {
        Eigen::MatrixXd C(rows.size(), n);
        Eigen::VectorXd d(rows.size());
        for (std::size_t k = 0; k < rows.size(); ++k) {
          C.row(static_cast<Eigen::Index>(k)) = rows[k];
          d[static_cast<Eigen::Index>(k)] = rhs[k];
        }
        const Eigen::MatrixXd CCt = C * C.transpose();
        const Eigen::FullPivLU<Eigen::MatrixXd> lu(CCt);
        if (lu.rank() < CCt.rows()) continue;
        x = qp.target - C.transpose() * lu.solve(C * qp.target - d);
      }
      if (BalanceQpSolver::violation(qp, x) > 1e-10) continue;
      const double f = 0.5 * (x - qp.target).squaredNorm();
      if (f < best) {
        best = f;
        best_x = x;
        *found = true;
      }
    }
  }
  return best_x;
}

}  // namespace

TEST_CASE("balance QP: the NNLS solve equals active-set enumeration on random small programs to 1e-8") {
  std::mt19937 rng(13);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  int solved = 0, active_inequalities = 0;
  for (int trial = 0; trial < 150; ++trial) {
    const int n = 5, m = 4;
    BalanceQp qp(n, m);
    for (int i = 0; i < n; ++i) qp.target[i] = normal(rng);
    qp.equality_rows = trial % 3 == 0 ? 0 : 3;
    for (int r = 0; r < qp.equality_rows; ++r) {
      for (int i = 0; i < n; ++i) qp.E(r, i) = normal(rng);
      qp.e[r] = 0.3 * normal(rng);
    }
    qp.inequality_rows = m;
    for (int r = 0; r < m; ++r) {
      for (int i = 0; i < n; ++i) qp.G(r, i) = normal(rng);
      qp.h[r] = 0.5 * uniform(rng) - 0.1;
    }
    for (int i = 0; i < n; ++i) {
      qp.lower[i] = -1.0 - uniform(rng);
      qp.upper[i] = 0.2 + uniform(rng);
    }
    bool found = false;
    const Eigen::VectorXd reference = enumerateActiveSets(qp, &found);
    BalanceQpSolver solver(n, m);
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    const BalanceQpResult result = solver.solve(qp, x);
    CAPTURE(trial);
    CHECK(result.ok == found);
    if (!found) continue;
    ++solved;
    CHECK((x - reference).cwiseAbs().maxCoeff() < 1e-8);
    active_inequalities += static_cast<int>(((qp.G * reference - qp.h).array().abs() < 1e-9).count());
  }
  MESSAGE(solved << " of 150 programs feasible and solved; " << active_inequalities << " active inequality rows");
  CHECK(solved > 100);
  CHECK(active_inequalities > 50);  // the inequalities do bind
}

TEST_CASE("balance QP: wrong sizes are refused without touching x") {
  BalanceQpSolver solver(3, 2);
  BalanceQp qp(4, 2);
  Eigen::VectorXd x = Eigen::VectorXd::Constant(3, 0.25);
  const BalanceQpResult r = solver.solve(qp, x);
  CHECK(!r.ok);
  CHECK(x == Eigen::VectorXd::Constant(3, 0.25));
  CHECK_THROWS_AS(BalanceQpSolver(0, 2), InvalidArgument);
}

TEST_CASE("balance QP: 25 variables, six equalities, 16 inequalities and bounds: KKT holds, nothing allocated") {
  std::mt19937 rng(31);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  const int n = 25, m = 16;
  BalanceQpSolver solver(n, m);
  int solved = 0;
  for (int trial = 0; trial < 60; ++trial) {
    BalanceQp qp(n, m);
    for (int i = 0; i < n; ++i) qp.target[i] = 0.2 * normal(rng);
    qp.equality_rows = 6;
    for (int r = 0; r < 6; ++r) {
      for (int i = 0; i < n; ++i) qp.E(r, i) = normal(rng);
      qp.e[r] = 0.01 * normal(rng);
    }
    qp.inequality_rows = m;
    for (int r = 0; r < m; ++r) {
      for (int i = 0; i < n; ++i) qp.G(r, i) = normal(rng);
      qp.h[r] = 0.05 * uniform(rng);
    }
    for (int i = 0; i < n; ++i) {
      qp.lower[i] = -0.1 - 0.1 * uniform(rng);
      qp.upper[i] = 0.1 + 0.1 * uniform(rng);
    }
    Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
    BalanceQpResult result;
    {
      test::NoAllocationScope scope;
      result = solver.solve(qp, x);
      CHECK(scope.allocations() == 0);
    }
    if (!result.ok) continue;
    ++solved;
    // KKT: x_T - x = E^T mu + sum over active rows a of lambda_a a, lambda >= 0.
    std::vector<Eigen::VectorXd> normals;
    std::vector<bool> signed_free;
    for (int r = 0; r < 6; ++r) {
      normals.push_back(qp.E.row(r).transpose());
      signed_free.push_back(true);
    }
    for (int r = 0; r < m; ++r) {
      if (qp.h[r] - qp.G.row(r).dot(x) < 1e-9) {
        normals.push_back(qp.G.row(r).transpose());
        signed_free.push_back(false);
      }
    }
    for (int i = 0; i < n; ++i) {
      if (x[i] - qp.lower[i] < 1e-9) {
        normals.push_back(-Eigen::VectorXd::Unit(n, i));
        signed_free.push_back(false);
      } else if (qp.upper[i] - x[i] < 1e-9) {
        normals.push_back(Eigen::VectorXd::Unit(n, i));
        signed_free.push_back(false);
      }
    }
    Eigen::MatrixXd N(n, static_cast<Eigen::Index>(normals.size()));
    for (std::size_t k = 0; k < normals.size(); ++k) N.col(static_cast<Eigen::Index>(k)) = normals[k];
    const Eigen::VectorXd multipliers = N.completeOrthogonalDecomposition().solve(qp.target - x);
    CAPTURE(trial);
    CHECK((N * multipliers - (qp.target - x)).norm() < 1e-9);
    for (std::size_t k = 0; k < normals.size(); ++k) {
      if (!signed_free[k]) CHECK(multipliers[static_cast<Eigen::Index>(k)] > -1e-8);
    }
    CHECK(result.violation < 1e-10);
  }
  MESSAGE(solved << " of 60 programs solved");
  CHECK(solved > 30);
}
