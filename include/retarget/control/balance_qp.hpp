#pragma once

/// @file
/// The quadratic program of the balance controller (seed 000, Section 5: the QP of Eqs. 34–36,
/// with the centre-of-mass rows of Eqs. 37–41):
///
///   minimise  1/2 |x - x_T|^2
///   subject to  E x = e          (rows 0 ... equality_rows - 1: feet kept fixed / landing)
///               G x <= h         (rows 0 ... inequality_rows - 1: centre of mass in the polygon)
///               lower <= x <= upper (joint position and speed limits; +-inf: no bound)
///
/// x is the joint step of one control period (rad, in q order; the paper's joint velocity times
/// the period). The objective is a distance, so the solution is the projection of x_T onto the
/// constraint set: unique whenever the set is not empty.
///
/// Method: with y = x - x_T the program is a least-distance program (Lawson and Hanson, "Solving
/// Least Squares Problems", Chapter 23): the equalities are removed by y = y0 + v, y0 the
/// least-norm solution of E y = e - E x_T and v in the null space of E (the constraint rows are
/// projected onto it), and min |v| subject to the projected rows is solved through its dual, a
/// non-negative least-squares problem (the Lawson-Hanson active-set NNLS, finite). Infeasible
/// programs are detected (the NNLS residual vanishes) and reported, not returned as solved.
///
/// Why not NLopt's SLSQP (the first choice): it stops at points that are feasible but
/// not optimal (NLOPT_XTOL_REACHED or FTOL_REACHED, objectives up to 1.7 times the optimum) on
/// 7 of 150 random 5-variable programs of this form, and on 20 of the 361 programs of the demo
/// one-leg-stand on NAO (bench/control, BM_BalanceQp_Slsqp, counter `suboptimal`), at 7.7 times
/// this solver's time. This solver matches an enumeration of active sets to 1e-8 and the KKT
/// conditions on 25-variable programs (tests/control).
///
/// Allocation: every buffer is sized in the constructor; `solve` never allocates or throws.

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/internal/small_cholesky.hpp>

namespace retarget {

/// One balance QP. Sizes are fixed when it is made; the row counts in use change per solve.
struct BalanceQp {
  /// Largest number of equality rows (the two feet's relative pose: 6).
  static constexpr int kMaxEqualityRows = 6;

  /// n variables, at most `max_inequality_rows` inequality rows. Bounds start at -inf, +inf.
  BalanceQp(int n, int max_inequality_rows)
      : target(Eigen::VectorXd::Zero(n)),
        E(Eigen::MatrixXd::Zero(kMaxEqualityRows, n)),
        e(Eigen::VectorXd::Zero(kMaxEqualityRows)),
        G(Eigen::MatrixXd::Zero(max_inequality_rows, n)),
        h(Eigen::VectorXd::Zero(max_inequality_rows)),
        lower(Eigen::VectorXd::Constant(n, -std::numeric_limits<double>::infinity())),
        upper(Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity())) {}

  int size() const { return static_cast<int>(target.size()); }

  /// x_T.
  Eigen::VectorXd target;
  Eigen::MatrixXd E;
  Eigen::VectorXd e;
  /// Equality rows in use, 0 ... kMaxEqualityRows.
  int equality_rows = 0;
  Eigen::MatrixXd G;
  Eigen::VectorXd h;
  /// Inequality rows in use, 0 ... G.rows().
  int inequality_rows = 0;
  Eigen::VectorXd lower;
  Eigen::VectorXd upper;
};

/// Outcome of one solve.
struct BalanceQpResult {
  /// A solution was found (else the program is infeasible or degenerate and x is unchanged).
  bool ok = false;
  /// The constraints cannot all hold.
  bool infeasible = false;
  /// Largest constraint violation at the returned x (>= 0; rounding only when ok).
  double violation = 0.0;
  /// NNLS iterations.
  int iterations = 0;
};

namespace internal {

/// `retarget::BalanceQpSolver` (below) is this template for `void`: a template only so that its member
/// functions are compiled where a program uses them, not in every translation unit that
/// includes this header (header-only mode).
template <typename Lazy>
class BalanceQpSolver {
 public:
  /// n variables, up to `max_inequality_rows` inequality rows. Throws InvalidArgument for
  /// sizes below 1.
  BalanceQpSolver(int n, int max_inequality_rows);

  /// Solves `qp` (sizes as constructed); `x` (size n) receives the solution when `ok`. Never
  /// throws or allocates; wrong sizes give ok = false with x unchanged.
  BalanceQpResult solve(const BalanceQp& qp, Eigen::VectorXd& x) noexcept;

  /// Largest constraint violation of x for qp (bounds, equalities, inequalities), >= 0.
  static double violation(const BalanceQp& qp, const Eigen::VectorXd& x) noexcept;

 private:
  // Lawson-Hanson NNLS: min |A u - f| subject to u >= 0, A = A_ (n + 1 rows, m columns),
  // f = (0, ..., 0, 1). Leaves the residual A u - f in residual_. False when the iteration limit
  // is reached.
  bool nnls(int m, int& iterations) noexcept;

  void computeResidual(int m) noexcept;

  // s = argmin |A_S s - f| over the passive columns S (QR by modified Gram-Schmidt, twice).
  // False when a column is (numerically) in the span of the ones before it.
  bool leastSquares(int size) noexcept;

  int n_;
  int max_inequality_rows_;
  Eigen::MatrixXd basis_;
  Eigen::MatrixXd basis_r_;
  Eigen::VectorXd y0_;
  Eigen::VectorXd rhs_;
  Eigen::VectorXd row_;
  Eigen::MatrixXd A_;
  Eigen::VectorXd u_;
  Eigen::VectorXd s_;
  Eigen::VectorXd w_;
  Eigen::VectorXd residual_;
  Eigen::VectorXi in_set_;
  Eigen::VectorXi blocked_;
  Eigen::VectorXi set_;
  Eigen::MatrixXd Q_;
  Eigen::MatrixXd R_;
  Eigen::VectorXd qtf_;
  Eigen::VectorXd v_;
};

}  // namespace internal

/// Solves `BalanceQp`s of one size (see the file doc).
using BalanceQpSolver = internal::BalanceQpSolver<void>;

#if RETARGET_DEFINE_CONTROL

template <typename Lazy>
internal::BalanceQpSolver<Lazy>::BalanceQpSolver(int n, int max_inequality_rows) : n_(n), max_inequality_rows_(max_inequality_rows) {
  RETARGET_THROW_UNLESS(n >= 1 && max_inequality_rows >= 1, InvalidArgument, "sizes (got n = ", n,
                        ", inequality rows = ", max_inequality_rows, ", expected >= 1)");
  const int columns = max_inequality_rows + 2 * n;
  basis_.setZero(n, BalanceQp::kMaxEqualityRows);
  basis_r_.setZero(BalanceQp::kMaxEqualityRows, BalanceQp::kMaxEqualityRows);
  y0_.setZero(n);
  rhs_.setZero(BalanceQp::kMaxEqualityRows);
  row_.setZero(n);
  A_.setZero(n + 1, columns);
  u_.setZero(columns);
  s_.setZero(columns);
  w_.setZero(columns);
  residual_.setZero(n + 1);
  in_set_.setZero(columns);
  blocked_.setZero(columns);
  set_.setZero(n + 1);
  Q_.setZero(n + 1, n + 1);
  R_.setZero(n + 1, n + 1);
  qtf_.setZero(n + 1);
  v_.setZero(n + 1);
}

template <typename Lazy>
BalanceQpResult internal::BalanceQpSolver<Lazy>::solve(const BalanceQp& qp, Eigen::VectorXd& x) noexcept {
  BalanceQpResult result;
  if (qp.size() != n_ || x.size() != n_ || qp.G.rows() != max_inequality_rows_ || qp.G.cols() != n_ ||
      qp.E.cols() != n_ || qp.equality_rows < 0 || qp.equality_rows > BalanceQp::kMaxEqualityRows ||
      qp.inequality_rows < 0 || qp.inequality_rows > max_inequality_rows_ || !qp.target.allFinite()) {
    return result;
  }
  // Equalities: orthonormal basis B of the row space of E (modified Gram-Schmidt, twice), and
  // the least-norm y0 with E y0 = e - E x_T.
  int rank = 0;
  for (int r = 0; r < qp.equality_rows; ++r) {
    row_ = qp.E.row(r).transpose();
    const double norm = row_.norm();
    for (int pass = 0; pass < 2; ++pass) {
      for (int k = 0; k < rank; ++k) row_ -= basis_.col(k).dot(row_) * basis_.col(k);
    }
    const double left = row_.norm();
    if (!(left > 1e-10 * std::max(norm, 1.0))) continue;  // dependent row: checked below
    basis_.col(rank) = row_ / left;
    ++rank;
  }
  y0_.setZero();
  if (rank > 0) {
    // y0 = B c with B^T... solved row by row: E_r (y0) = e_r - E_r x_T in the least-squares
    // sense over the span of B (exact when the rows are consistent).
    for (int k = 0; k < rank; ++k) {
      for (int r = 0; r < qp.equality_rows; ++r) basis_r_(r, k) = qp.E.row(r).dot(basis_.col(k));
    }
    for (int r = 0; r < qp.equality_rows; ++r) rhs_[r] = qp.e[r] - qp.E.row(r).dot(qp.target);
    // Normal equations of the small (rows x rank) system M c = rhs, M = E B.
    Eigen::Matrix<double, BalanceQp::kMaxEqualityRows, BalanceQp::kMaxEqualityRows> normal =
        Eigen::Matrix<double, BalanceQp::kMaxEqualityRows, BalanceQp::kMaxEqualityRows>::Identity();
    Eigen::Matrix<double, BalanceQp::kMaxEqualityRows, 1> projected =
        Eigen::Matrix<double, BalanceQp::kMaxEqualityRows, 1>::Zero();
    normal.topLeftCorner(rank, rank).noalias() = basis_r_.topLeftCorner(qp.equality_rows, rank).transpose() *
                                       basis_r_.topLeftCorner(qp.equality_rows, rank);
    projected.head(rank).noalias() =
        basis_r_.topLeftCorner(qp.equality_rows, rank).transpose() * rhs_.head(qp.equality_rows);
    // E B has full column rank (B spans E's rows), so the normal matrix is positive definite;
    // a factorisation that fails anyway means rows too close to dependent to solve for.
    if (!internal::choleskyFactorInPlace(normal)) {
      result.infeasible = true;
      return result;
    }
    Eigen::Matrix<double, BalanceQp::kMaxEqualityRows, 1> c = projected;
    internal::choleskySolveInPlace(normal, c);
    for (int k = 0; k < rank; ++k) y0_ += c[k] * basis_.col(k);
    for (int r = 0; r < qp.equality_rows; ++r) {
      const double miss = qp.E.row(r).dot(y0_) - rhs_[r];
      if (!(std::abs(miss) <= 1e-9 * std::max(1.0, std::abs(rhs_[r])))) {
        result.infeasible = true;  // inconsistent equalities
        return result;
      }
    }
  }
  // Inequalities g . y >= c as columns [P g; c - g . y0] of the least-distance dual.
  int m = 0;
  const auto add = [&](const auto& g, double c) {
    row_ = g;
    for (int pass = 0; pass < 2; ++pass) {
      for (int k = 0; k < rank; ++k) row_ -= basis_.col(k).dot(row_) * basis_.col(k);
    }
    A_.col(m).head(n_) = row_;
    A_(n_, m) = c - g.dot(y0_);
    ++m;
  };
  for (int r = 0; r < qp.inequality_rows; ++r) {
    // G x <= h  ->  -G y >= G x_T - h
    add(-qp.G.row(r).transpose(), qp.G.row(r).dot(qp.target) - qp.h[r]);
  }
  for (int i = 0; i < n_; ++i) {
    if (std::isfinite(qp.lower[i])) add(Eigen::VectorXd::Unit(n_, i), qp.lower[i] - qp.target[i]);
    if (std::isfinite(qp.upper[i])) add(-Eigen::VectorXd::Unit(n_, i), qp.target[i] - qp.upper[i]);
  }
  // Solution: y = y0 + v, v from the NNLS residual.
  v_.setZero();
  if (m > 0) {
    const bool solved = nnls(m, result.iterations);
    if (!solved) return result;
    const double last = residual_[n_];
    if (!(std::abs(last) > 1e-12) || residual_.norm() < 1e-12) {
      result.infeasible = true;
      return result;
    }
    v_.head(n_) = -residual_.head(n_) / last;
  }
  row_ = qp.target + y0_ + v_.head(n_);
  if (!row_.allFinite()) return result;
  result.violation = violation(qp, row_);
  if (!(result.violation <= 1e-7)) {
    result.infeasible = true;  // rounding this large means the constraints barely meet
    return result;
  }
  x = row_;
  result.ok = true;
  return result;
}

template <typename Lazy>
double internal::BalanceQpSolver<Lazy>::violation(const BalanceQp& qp, const Eigen::VectorXd& x) noexcept {
  double worst = 0.0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    worst = std::max(worst, qp.lower[i] - x[i]);
    worst = std::max(worst, x[i] - qp.upper[i]);
  }
  for (int r = 0; r < qp.equality_rows; ++r) worst = std::max(worst, std::abs(qp.E.row(r).dot(x) - qp.e[r]));
  for (int r = 0; r < qp.inequality_rows; ++r) worst = std::max(worst, qp.G.row(r).dot(x) - qp.h[r]);
  return worst;
}

template <typename Lazy>
bool internal::BalanceQpSolver<Lazy>::nnls(int m, int& iterations) noexcept {
  const int p = n_ + 1;
  u_.head(m).setZero();
  in_set_.head(m).setZero();
  blocked_.head(m).setZero();
  int size = 0;  // columns in the passive set, listed in set_
  const double tolerance = 1e-12 * std::max(1.0, A_.leftCols(m).cwiseAbs().maxCoeff());
  const int limit = 3 * m + 10;
  for (iterations = 0; iterations < limit; ++iterations) {
    computeResidual(m);
    // w = A^T (f - A u)
    w_.head(m).noalias() = -A_.leftCols(m).transpose() * residual_;
    int entering = -1;
    double best = tolerance;
    for (int j = 0; j < m; ++j) {
      if (in_set_[j] == 0 && blocked_[j] == 0 && w_[j] > best) {
        best = w_[j];
        entering = j;
      }
    }
    if (entering < 0 || size >= p) return true;
    set_[size++] = entering;
    in_set_[entering] = 1;
    // Inner loop: least squares on the passive set, stepping back while it leaves u >= 0.
    for (int inner = 0; inner < limit; ++inner) {
      if (!leastSquares(size)) {
        // The entering column depends on the others: take it out and do not offer it again
        // until something else changes.
        in_set_[set_[size - 1]] = 0;
        blocked_[set_[size - 1]] = 1;
        --size;
        break;
      }
      blocked_.head(m).setZero();
      bool positive = true;
      for (int k = 0; k < size; ++k) positive = positive && s_[k] > 0.0;
      if (positive) {
        for (int k = 0; k < size; ++k) u_[set_[k]] = s_[k];
        break;
      }
      double alpha = 1.0;
      for (int k = 0; k < size; ++k) {
        if (s_[k] <= 0.0) {
          const double uk = u_[set_[k]];
          alpha = std::min(alpha, uk / (uk - s_[k]));
        }
      }
      for (int k = 0; k < size; ++k) u_[set_[k]] += alpha * (s_[k] - u_[set_[k]]);
      // Columns that reached zero leave the passive set.
      int kept = 0;
      for (int k = 0; k < size; ++k) {
        const int j = set_[k];
        if (u_[j] <= tolerance) {
          u_[j] = 0.0;
          in_set_[j] = 0;
        } else {
          set_[kept++] = j;
        }
      }
      size = kept;
      if (size == 0) break;
    }
  }
  computeResidual(m);
  return false;
}

template <typename Lazy>
void internal::BalanceQpSolver<Lazy>::computeResidual(int m) noexcept {
  residual_.noalias() = A_.leftCols(m) * u_.head(m);
  residual_[n_] -= 1.0;
}

template <typename Lazy>
bool internal::BalanceQpSolver<Lazy>::leastSquares(int size) noexcept {
  for (int k = 0; k < size; ++k) {
    v_ = A_.col(set_[k]);
    const double norm = v_.norm();
    R_.col(k).head(size).setZero();
    for (int pass = 0; pass < 2; ++pass) {
      for (int i = 0; i < k; ++i) {
        const double d = Q_.col(i).dot(v_);
        R_(i, k) += d;
        v_ -= d * Q_.col(i);
      }
    }
    const double left = v_.norm();
    if (!(left > 1e-11 * std::max(norm, 1e-300))) return false;
    R_(k, k) = left;
    Q_.col(k) = v_ / left;
  }
  // Q^T f = last row of Q (f = e_p); back substitution R s = Q^T f.
  for (int k = 0; k < size; ++k) qtf_[k] = Q_(n_, k);
  for (int k = size - 1; k >= 0; --k) {
    double sum = qtf_[k];
    for (int i = k + 1; i < size; ++i) sum -= R_(k, i) * s_[i];
    s_[k] = sum / R_(k, k);
  }
  return true;
}

#endif  // RETARGET_DEFINE_CONTROL

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_CONTROL class internal::BalanceQpSolver<void>;
#endif

}  // namespace retarget
