#pragma once

/// @file
/// Cholesky factorisation and solve for small fixed-size symmetric matrices (N up to about 8),
/// written out as plain loops. Eigen's `LLT` does the same arithmetic, but instantiating it (with
/// its blocked path, its triangular-solve kernels and its condition estimate) costs about a
/// second of compile time per size in every translation unit that maps a frame; these loops cost
/// almost nothing. Unitless: the caller's matrix and vectors keep whatever units they have.
///
/// Never allocates, never throws.

#include <cmath>

#include <Eigen/Core>

namespace retarget::internal {

/// Factorises a symmetric matrix A = L L^T in place: on return the lower triangle of `A`
/// (diagonal included) holds L; the strict upper triangle is neither read nor written.
/// Returns false, leaving `A` partly overwritten, when A is not positive definite (a pivot that
/// is not > 0, NaN included).
template <typename Scalar, int N>
bool choleskyFactorInPlace(Eigen::Matrix<Scalar, N, N>& A) {
  using std::sqrt;
  for (int k = 0; k < N; ++k) {
    Scalar pivot = A(k, k);
    for (int j = 0; j < k; ++j) pivot -= A(k, j) * A(k, j);
    if (!(pivot > Scalar(0))) return false;
    pivot = sqrt(pivot);
    A(k, k) = pivot;
    for (int i = k + 1; i < N; ++i) {
      Scalar sum = A(i, k);
      for (int j = 0; j < k; ++j) sum -= A(i, j) * A(k, j);
      A(i, k) = sum / pivot;
    }
  }
  return true;
}

/// Solves L L^T x = b in place (`x` holds b on entry, the solution on return), L the lower
/// triangle of `L` as `choleskyFactorInPlace` leaves it: forward substitution with L, then back
/// substitution with L^T.
template <typename Scalar, int N>
void choleskySolveInPlace(const Eigen::Matrix<Scalar, N, N>& L, Eigen::Matrix<Scalar, N, 1>& x) {
  for (int i = 0; i < N; ++i) {
    Scalar sum = x[i];
    for (int j = 0; j < i; ++j) sum -= L(i, j) * x[j];
    x[i] = sum / L(i, i);
  }
  for (int i = N - 1; i >= 0; --i) {
    Scalar sum = x[i];
    for (int j = i + 1; j < N; ++j) sum -= L(j, i) * x[j];
    x[i] = sum / L(i, i);
  }
}

}  // namespace retarget::internal
