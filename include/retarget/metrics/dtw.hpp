#pragma once

/// @file
/// Exact dynamic time warping (DTW) between two sequences of vectors (paper 002, Sec. 4.3,
/// Eq. 11): full accumulated-cost matrix with warping path, an O(n)-memory distance, a
/// Sakoe-Chiba band, and an incremental form that grows either sequence one frame at a time.
///
/// Layout: a sequence of n frames of dimension d is a d x n Eigen matrix, ONE FRAME PER COLUMN
/// (column-major storage keeps each frame contiguous). Both sequences must have the same d.
///
/// Recursion (0-based, a_i the i-th frame of A, b_j the j-th frame of B, c the local distance):
///   D(-1,-1) = 0,  D(i,-1) = D(-1,j) = +inf otherwise,
///   D(i,j)   = c(a_i, b_j) + min(D(i-1,j-1), D(i-1,j), D(i,j-1))          (Eq. 11)
/// and the DTW cost of the two whole sequences is D(n-1, m-1). The local distance is the
/// Euclidean norm |a_i - b_j| by default (as in the paper) or any user functor.
///
/// Sakoe-Chiba window of radius r: only cells with |i - j| <= r are reachable (others are
/// +inf). The band is not rescaled for unequal lengths, so when |n - m| > r the end cell lies
/// outside the band: the cost is +inf and the path is empty (no exception: it is a property
/// of the data, not a usage error).
///
/// Normalisation: none by default (the paper's accumulated cost). `kPathLength` divides the
/// cost by the number of cells on the optimal warping path. Ties between predecessors are
/// broken in the fixed order diagonal, (i-1, j), (i, j-1), so the path (and its length) is the
/// same in every function of this header.
///
/// Everything here is exact: every cell inside the band is evaluated (no FastDTW-style
/// coarsening).

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>

namespace retarget {

/// `DtwOptions::window` value meaning "no Sakoe-Chiba band" (every cell is reachable).
inline constexpr Eigen::Index kNoDtwWindow = -1;

/// How the accumulated DTW cost is turned into the reported distance.
enum class DtwNormalization {
  kNone,        ///< distance = D(n-1, m-1), the paper's value (Eq. 11).
  kPathLength,  ///< distance = D(n-1, m-1) / (number of cells on the optimal warping path).
};

/// Options of every DTW function; an aggregate, checked once by `validate()`.
struct DtwOptions {
  /// Sakoe-Chiba band radius r in frames (cells with |i - j| <= r), or kNoDtwWindow.
  Eigen::Index window = kNoDtwWindow;
  /// Normalisation of the reported distance.
  DtwNormalization normalization = DtwNormalization::kNone;

  /// Throws InvalidArgument unless `window` is >= 0 or kNoDtwWindow and `normalization` is a
  /// known value.
  RETARGET_DECL void validate() const;
};

/// One cell (i, j) of a warping path: frame i of A is matched with frame j of B.
struct DtwStep {
  Eigen::Index i = 0;
  Eigen::Index j = 0;
  friend bool operator==(const DtwStep& x, const DtwStep& y) { return x.i == y.i && x.j == y.j; }
  friend bool operator!=(const DtwStep& x, const DtwStep& y) { return !(x == y); }
};

/// Result of a DTW evaluation.
template <typename Scalar>
struct DtwResult {
  /// The reported distance: `cost`, or `cost / path_length` with kPathLength (units of the
  /// local distance; +inf when the window excludes the end cell).
  Scalar distance = std::numeric_limits<Scalar>::infinity();
  /// Accumulated cost D(n-1, m-1) of Eq. 11 (+inf when the window excludes the end cell).
  Scalar cost = std::numeric_limits<Scalar>::infinity();
  /// Number of cells on the optimal warping path, max(n, m) <= length <= n + m - 1; 0 when
  /// no path exists.
  Eigen::Index path_length = 0;
  /// The optimal warping path from (0, 0) to (n-1, m-1); filled only by `dtwWithPath`.
  std::vector<DtwStep> path;
};

/// Euclidean distance |x - y| between two frames (the paper's local distance, Eq. 11).
struct EuclideanDistance {
  /// x, y: frames of equal size (any Eigen vector expressions).
  template <typename DerivedX, typename DerivedY>
  typename DerivedX::Scalar operator()(const Eigen::MatrixBase<DerivedX>& x,
                                       const Eigen::MatrixBase<DerivedY>& y) const {
    return (x - y).norm();
  }
};

namespace internal {

/// Which predecessor of a DTW cell is cheapest: 0 diagonal, 1 (i-1, j), 2 (i, j-1); ties go
/// to the lower number. Every DTW routine uses this so that paths agree.
template <typename Scalar>
inline int dtwBestPredecessor(Scalar diag, Scalar up, Scalar left) noexcept {
  int best = 0;
  Scalar best_cost = diag;
  if (up < best_cost) {
    best = 1;
    best_cost = up;
  }
  if (left < best_cost) best = 2;
  return best;
}

/// Effective band radius: the window, or a radius covering every cell.
inline Eigen::Index dtwRadius(const DtwOptions& options, Eigen::Index n, Eigen::Index m) noexcept {
  return options.window == kNoDtwWindow ? std::max(n, m) : options.window;
}

template <typename DerivedA, typename DerivedB>
void checkDtwSequences(const char* where, const Eigen::MatrixBase<DerivedA>& a,
                       const Eigen::MatrixBase<DerivedB>& b) {
  RETARGET_THROW_UNLESS(a.cols() >= 1 && b.cols() >= 1, InvalidArgument, where,
                        ": both sequences need at least one frame (one frame per column; got ", a.cols(),
                        " and ", b.cols(), " columns, expected >= 1)");
  RETARGET_THROW_UNLESS(a.rows() == b.rows(), InvalidArgument, where,
                        ": frames of both sequences need the same dimension (rows; got ", a.rows(), " and ",
                        b.rows(), ", expected equal)");
  RETARGET_THROW_UNLESS(a.rows() >= 1, InvalidArgument, where, ": frame dimension (rows) must be >= 1 (got ",
                        a.rows(), ")");
  RETARGET_THROW_UNLESS(a.allFinite() && b.allFinite(), InvalidArgument, where,
                        ": sequences must be finite (got NaN or inf, expected finite values)");
}

template <typename Scalar>
Scalar dtwNormalize(Scalar cost, Eigen::Index path_length, DtwNormalization normalization) {
  if (normalization == DtwNormalization::kNone) return cost;
  if (path_length == 0) return std::numeric_limits<Scalar>::infinity();
  return cost / static_cast<Scalar>(path_length);
}

}  // namespace internal

/// Full accumulated-cost matrix D of Eq. 11 (n x m, n = a.cols(), m = b.cols()); cells outside
/// the Sakoe-Chiba band are +inf. O(n m) time and memory.
/// a, b: sequences, one frame per column (d x n and d x m). `distance(a.col(i), b.col(j))`
/// returns the local distance (a non-negative Scalar).
/// Throws InvalidArgument on empty sequences, different frame dimensions, non-finite values
/// or invalid options.
template <typename DerivedA, typename DerivedB, typename Distance = EuclideanDistance>
MatrixX<typename DerivedA::Scalar> dtwCostMatrix(const Eigen::MatrixBase<DerivedA>& a,
                                                 const Eigen::MatrixBase<DerivedB>& b,
                                                 const DtwOptions& options = {},
                                                 const Distance& distance = Distance{}) {
  using Scalar = typename DerivedA::Scalar;
  options.validate();
  internal::checkDtwSequences("dtwCostMatrix", a, b);
  const Scalar inf = std::numeric_limits<Scalar>::infinity();
  const Eigen::Index n = a.cols();
  const Eigen::Index m = b.cols();
  const Eigen::Index r = internal::dtwRadius(options, n, m);
  MatrixX<Scalar> D = MatrixX<Scalar>::Constant(n, m, inf);
  for (Eigen::Index j = 0; j < m; ++j) {
    const Eigen::Index lo = std::max<Eigen::Index>(0, j - r);
    const Eigen::Index hi = std::min<Eigen::Index>(n - 1, j + r);
    for (Eigen::Index i = lo; i <= hi; ++i) {
      Scalar best;
      if (i == 0 && j == 0) {
        best = Scalar(0);
      } else {
        const Scalar diag = (i > 0 && j > 0) ? D(i - 1, j - 1) : inf;
        const Scalar up = i > 0 ? D(i - 1, j) : inf;
        const Scalar left = j > 0 ? D(i, j - 1) : inf;
        const int k = internal::dtwBestPredecessor(diag, up, left);
        best = k == 0 ? diag : (k == 1 ? up : left);
      }
      D(i, j) = static_cast<Scalar>(distance(a.col(i), b.col(j))) + best;
    }
  }
  return D;
}

/// Optimal warping path read back from an accumulated-cost matrix D (as made by
/// dtwCostMatrix): monotone, continuous cells from (0, 0) to (n-1, m-1). Empty when
/// D(n-1, m-1) is not finite (window excludes the end). Throws InvalidArgument when D is empty.
template <typename Derived>
std::vector<DtwStep> dtwWarpingPath(const Eigen::MatrixBase<Derived>& D) {
  using Scalar = typename Derived::Scalar;
  RETARGET_THROW_UNLESS(D.rows() >= 1 && D.cols() >= 1, InvalidArgument,
                        "cost matrix must not be empty (got ", D.rows(), " x ", D.cols(), ")");
  std::vector<DtwStep> path;
  Eigen::Index i = D.rows() - 1;
  Eigen::Index j = D.cols() - 1;
  if (!std::isfinite(D(i, j))) return path;
  const Scalar inf = std::numeric_limits<Scalar>::infinity();
  path.reserve(static_cast<std::size_t>(i + j + 1));
  path.push_back({i, j});
  while (i > 0 || j > 0) {
    const Scalar diag = (i > 0 && j > 0) ? D(i - 1, j - 1) : inf;
    const Scalar up = i > 0 ? D(i - 1, j) : inf;
    const Scalar left = j > 0 ? D(i, j - 1) : inf;
    const int k = internal::dtwBestPredecessor(diag, up, left);
    if (k == 0) {
      --i;
      --j;
    } else if (k == 1) {
      --i;
    } else {
      --j;
    }
    path.push_back({i, j});
  }
  std::reverse(path.begin(), path.end());
  return path;
}

/// DTW with the full cost matrix and the optimal warping path (`result.path` filled).
/// O(n m) time and memory. Same arguments and exceptions as dtwCostMatrix.
template <typename DerivedA, typename DerivedB, typename Distance = EuclideanDistance>
DtwResult<typename DerivedA::Scalar> dtwWithPath(const Eigen::MatrixBase<DerivedA>& a,
                                                 const Eigen::MatrixBase<DerivedB>& b,
                                                 const DtwOptions& options = {},
                                                 const Distance& distance = Distance{}) {
  using Scalar = typename DerivedA::Scalar;
  const MatrixX<Scalar> D = dtwCostMatrix(a, b, options, distance);
  DtwResult<Scalar> result;
  result.cost = D(D.rows() - 1, D.cols() - 1);
  result.path = dtwWarpingPath(D);
  result.path_length = static_cast<Eigen::Index>(result.path.size());
  result.distance = internal::dtwNormalize(result.cost, result.path_length, options.normalization);
  return result;
}

/// DTW distance in O(n) memory (two columns of D, n = a.cols()) and O(n m) time (O(n r) with a
/// window of radius r); `result.path` stays empty but `path_length` is exact. Gives the same
/// cost, bit for bit, as dtwCostMatrix. Same arguments and exceptions as dtwCostMatrix.
template <typename DerivedA, typename DerivedB, typename Distance = EuclideanDistance>
DtwResult<typename DerivedA::Scalar> dtw(const Eigen::MatrixBase<DerivedA>& a, const Eigen::MatrixBase<DerivedB>& b,
                                         const DtwOptions& options = {}, const Distance& distance = Distance{}) {
  using Scalar = typename DerivedA::Scalar;
  options.validate();
  internal::checkDtwSequences("dtw", a, b);
  const Scalar inf = std::numeric_limits<Scalar>::infinity();
  const Eigen::Index n = a.cols();
  const Eigen::Index m = b.cols();
  const Eigen::Index r = internal::dtwRadius(options, n, m);
  std::vector<Scalar> prev_cost(static_cast<std::size_t>(n), inf), cur_cost(static_cast<std::size_t>(n), inf);
  std::vector<Eigen::Index> prev_len(static_cast<std::size_t>(n), 0), cur_len(static_cast<std::size_t>(n), 0);
  Eigen::Index prev_lo = 0, prev_hi = -1;  // band of column j-1 (empty before column 0)
  for (Eigen::Index j = 0; j < m; ++j) {
    const Eigen::Index lo = std::max<Eigen::Index>(0, j - r);
    const Eigen::Index hi = std::min<Eigen::Index>(n - 1, j + r);
    for (Eigen::Index i = lo; i <= hi; ++i) {
      const auto ui = static_cast<std::size_t>(i);
      Scalar best;
      Eigen::Index best_len;
      if (i == 0 && j == 0) {
        best = Scalar(0);
        best_len = 0;
      } else {
        const bool has_diag = i - 1 >= prev_lo && i - 1 <= prev_hi;
        const bool has_left = i >= prev_lo && i <= prev_hi;
        const Scalar diag = has_diag ? prev_cost[ui - 1] : inf;
        const Scalar up = i > lo ? cur_cost[ui - 1] : inf;
        const Scalar left = has_left ? prev_cost[ui] : inf;
        const int k = internal::dtwBestPredecessor(diag, up, left);
        if (k == 0) {
          best = diag;
          best_len = has_diag ? prev_len[ui - 1] : 0;
        } else if (k == 1) {
          best = up;
          best_len = cur_len[ui - 1];
        } else {
          best = left;
          best_len = prev_len[ui];
        }
      }
      cur_cost[ui] = static_cast<Scalar>(distance(a.col(i), b.col(j))) + best;
      cur_len[ui] = best_len + 1;
    }
    std::swap(prev_cost, cur_cost);
    std::swap(prev_len, cur_len);
    prev_lo = lo;
    prev_hi = hi;
  }
  DtwResult<Scalar> result;
  if (n - 1 >= prev_lo && n - 1 <= prev_hi) {
    result.cost = prev_cost[static_cast<std::size_t>(n - 1)];
    result.path_length = std::isfinite(result.cost) ? prev_len[static_cast<std::size_t>(n - 1)] : 0;
  }
  result.distance = internal::dtwNormalize(result.cost, result.path_length, options.normalization);
  return result;
}

/// Exact DTW that grows one frame at a time, on either sequence, and keeps D(n-1, m-1) current
/// (the paper plots diag(D) as the motion unfolds: append one human and one robot frame per
/// time step and read `cost()` after each pair).
///
/// Memory: both sequences (d x capacity each) plus the last row and last column of D; appending
/// frame n to A costs O(m d) (O(r d) with a window of radius r), and symmetrically for B.
/// Invariant: after any sequence of appends, cost() equals dtw(A, B).cost bit for bit.
/// Real-time: appendA/appendB never throw and never allocate while the sizes stay within the
/// capacity given to the constructor or `reserve`; past it, storage doubles (amortised
/// allocation; an out-of-memory failure there terminates, as the functions are noexcept).
/// `distance(x, y)` is called as distance(frame of A, frame of B).
template <typename Scalar = double, typename Distance = EuclideanDistance>
class IncrementalDtw {
 public:
  /// dimension: frame size d (>= 1); capacity: frames preallocated for each sequence (>= 0).
  /// Throws InvalidArgument on a bad dimension, capacity or options.
  explicit IncrementalDtw(Eigen::Index dimension, Eigen::Index capacity = 0, const DtwOptions& options = {},
                          const Distance& distance = Distance{})
      : options_(options), distance_(distance) {
    options_.validate();
    RETARGET_THROW_UNLESS(dimension >= 1, InvalidArgument,
                          "IncrementalDtw dimension must be >= 1 (got ", dimension, ")");
    RETARGET_THROW_UNLESS(capacity >= 0, InvalidArgument,
                          "IncrementalDtw capacity must be >= 0 (got ", capacity, ")");
    dimension_ = dimension;
    a_.resize(dimension, 0);
    b_.resize(dimension, 0);
    reserve(capacity);
  }

  /// Preallocates room for `capacity` frames in each sequence (never shrinks). Allocates.
  void reserve(Eigen::Index capacity) {
    RETARGET_THROW_UNLESS(capacity >= 0, InvalidArgument, "IncrementalDtw capacity must be >= 0 (got ", capacity,
                          ")");
    if (capacity > a_.cols()) grow(a_, na_, capacity);
    if (capacity > b_.cols()) grow(b_, nb_, capacity);
    const auto c = static_cast<std::size_t>(capacity);
    row_cost_.reserve(c);
    row_len_.reserve(c);
    col_cost_.reserve(c);
    col_len_.reserve(c);
  }

  /// Forgets both sequences, keeping the capacity. Never allocates.
  void reset() noexcept {
    na_ = nb_ = 0;
    row_cost_.clear();
    row_len_.clear();
    col_cost_.clear();
    col_len_.clear();
  }

  /// Appends one frame (size d) to sequence A and updates the last row of D.
  /// Returns kInvalidInput (and appends nothing) when the frame has the wrong size or is not
  /// finite.
  template <typename Derived>
  Status appendA(const Eigen::MatrixBase<Derived>& frame) noexcept {
    return append<true>(frame);
  }
  /// Appends one frame (size d) to sequence B and updates the last column of D. Same contract
  /// as appendA.
  template <typename Derived>
  Status appendB(const Eigen::MatrixBase<Derived>& frame) noexcept {
    return append<false>(frame);
  }

  /// Accumulated cost D(n-1, m-1) of the sequences so far (Eq. 11); +inf while either
  /// sequence is empty or when the window excludes the end cell.
  Scalar cost() const noexcept {
    if (na_ == 0 || nb_ == 0) return std::numeric_limits<Scalar>::infinity();
    return row_cost_[static_cast<std::size_t>(nb_ - 1)];
  }
  /// Cells on the optimal warping path so far (0 when there is none).
  Eigen::Index pathLength() const noexcept {
    if (na_ == 0 || nb_ == 0 || !std::isfinite(cost())) return 0;
    return row_len_[static_cast<std::size_t>(nb_ - 1)];
  }
  /// cost(), normalised as the options ask.
  Scalar distance() const noexcept { return internal::dtwNormalize(cost(), pathLength(), options_.normalization); }

  /// Frame dimension d.
  Eigen::Index dimension() const noexcept { return dimension_; }
  /// Number of frames in A (n) and in B (m).
  Eigen::Index sizeA() const noexcept { return na_; }
  Eigen::Index sizeB() const noexcept { return nb_; }
  /// The frames appended so far (d x n and d x m).
  auto sequenceA() const { return a_.leftCols(na_); }
  auto sequenceB() const { return b_.leftCols(nb_); }
  /// Last row of D, D(n-1, j) for j = 0..m-1 (+inf outside the band).
  Eigen::Map<const VectorX<Scalar>> lastRow() const {
    return Eigen::Map<const VectorX<Scalar>>(row_cost_.data(), na_ > 0 ? nb_ : 0);
  }
  /// Last column of D, D(i, m-1) for i = 0..n-1 (+inf outside the band).
  Eigen::Map<const VectorX<Scalar>> lastColumn() const {
    return Eigen::Map<const VectorX<Scalar>>(col_cost_.data(), nb_ > 0 ? na_ : 0);
  }
  const DtwOptions& options() const noexcept { return options_; }

 private:
  static void grow(MatrixX<Scalar>& storage, Eigen::Index used, Eigen::Index capacity) {
    MatrixX<Scalar> bigger(storage.rows(), capacity);
    bigger.leftCols(used) = storage.leftCols(used);
    storage.swap(bigger);
  }

  // Appends to A (IsA) or B. "line" is the edge of D that the new frame extends: the last row
  // for A (indexed by j over B), the last column for B (indexed by i over A); "cross" is the
  // other edge, which gains one entry.
  template <bool IsA, typename Derived>
  Status append(const Eigen::MatrixBase<Derived>& frame) noexcept {
    if (frame.size() != dimension_ || !frame.allFinite()) return StatusCode::kInvalidInput;
    MatrixX<Scalar>& own = IsA ? a_ : b_;
    const MatrixX<Scalar>& other = IsA ? b_ : a_;
    Eigen::Index& n_own = IsA ? na_ : nb_;
    const Eigen::Index n_other = IsA ? nb_ : na_;
    std::vector<Scalar>& line_cost = IsA ? row_cost_ : col_cost_;
    std::vector<Eigen::Index>& line_len = IsA ? row_len_ : col_len_;
    std::vector<Scalar>& cross_cost = IsA ? col_cost_ : row_cost_;
    std::vector<Eigen::Index>& cross_len = IsA ? col_len_ : row_len_;

    if (n_own == own.cols()) grow(own, n_own, std::max<Eigen::Index>(1, 2 * own.cols()));
    own.col(n_own) = frame.template cast<Scalar>();

    const Scalar inf = std::numeric_limits<Scalar>::infinity();
    const Eigen::Index k = n_own;  // index of the new frame
    const Eigen::Index r = options_.window == kNoDtwWindow ? std::max(k + 1, n_other) : options_.window;
    const Eigen::Index lo = std::max<Eigen::Index>(0, k - r);
    const Eigen::Index hi = std::min<Eigen::Index>(n_other - 1, k + r);
    // The line holds the previous edge (index k-1), or +inf (D(-1, .)) when k == 0; its band was
    // [k-1-r, k-1+r]. Read the diagonal predecessor of the first cell, then the one cell that
    // leaves the band becomes +inf.
    Scalar old_prev = inf;  // previous edge at index t-1 (the diagonal predecessor)
    Eigen::Index old_prev_len = 0;
    if (lo >= 1 && k >= 1 && lo - 1 < n_other) {
      old_prev = line_cost[static_cast<std::size_t>(lo - 1)];
      old_prev_len = line_len[static_cast<std::size_t>(lo - 1)];
    }
    if (k >= 1 && k - 1 - r >= 0 && k - 1 - r < n_other) line_cost[static_cast<std::size_t>(k - 1 - r)] = inf;
    for (Eigen::Index t = lo; t <= hi; ++t) {
      const auto ut = static_cast<std::size_t>(t);
      const Scalar old_here = k >= 1 ? line_cost[ut] : inf;  // previous edge at t
      const Eigen::Index old_here_len = k >= 1 ? line_len[ut] : 0;
      Scalar diag = old_prev;
      Eigen::Index diag_len = old_prev_len;
      if (k == 0 && t == 0) {
        diag = Scalar(0);  // D(-1, -1)
        diag_len = 0;
      }
      // From A's point of view (row k): up = D(k-1, t) = old_here, left = D(k, t-1) = new value.
      // From B's point of view (column k): up = D(t-1, k) = new value, left = D(t, k-1) = old_here.
      const Scalar fresh = t > lo ? line_cost[ut - 1] : inf;
      const Eigen::Index fresh_len = t > lo ? line_len[ut - 1] : 0;
      const Scalar up = IsA ? old_here : fresh;
      const Scalar left = IsA ? fresh : old_here;
      const int choice = internal::dtwBestPredecessor(diag, up, left);
      Scalar best;
      Eigen::Index best_len;
      if (choice == 0) {
        best = diag;
        best_len = diag_len;
      } else if ((choice == 1) == IsA) {
        best = old_here;
        best_len = old_here_len;
      } else {
        best = fresh;
        best_len = fresh_len;
      }
      const Scalar c = IsA ? static_cast<Scalar>(distance_(own.col(k), other.col(t)))
                           : static_cast<Scalar>(distance_(other.col(t), own.col(k)));
      old_prev = old_here;
      old_prev_len = old_here_len;
      line_cost[ut] = c + best;
      line_len[ut] = best_len + 1;
    }
    if (k == 0) {
      // The line was D(-1, .) = +inf; cells outside the band must read +inf, not stale data.
      for (Eigen::Index t = 0; t < n_other; ++t) {
        if (t < lo || t > hi) line_cost[static_cast<std::size_t>(t)] = inf;
      }
    }
    // The other edge gains this frame's entry at its end.
    cross_cost.push_back(n_other > 0 ? line_cost[static_cast<std::size_t>(n_other - 1)] : inf);
    cross_len.push_back(n_other > 0 ? line_len[static_cast<std::size_t>(n_other - 1)] : 0);
    ++n_own;
    return StatusCode::kOk;
  }

  DtwOptions options_;
  Distance distance_;
  Eigen::Index dimension_ = 0;
  MatrixX<Scalar> a_, b_;  // d x capacity; the first na_ / nb_ columns are used
  Eigen::Index na_ = 0, nb_ = 0;
  std::vector<Scalar> row_cost_, col_cost_;  // D(na-1, 0..nb-1) and D(0..na-1, nb-1)
  std::vector<Eigen::Index> row_len_, col_len_;
};

#if RETARGET_DEFINE_METRICS

RETARGET_DECL void DtwOptions::validate() const {
  RETARGET_THROW_UNLESS(window >= 0 || window == kNoDtwWindow, InvalidArgument,
                        "DtwOptions.window must be a band radius in frames (got ", window,
                        ", expected >= 0 or -1 for no window)");
  RETARGET_THROW_UNLESS(normalization == DtwNormalization::kNone ||
                            normalization == DtwNormalization::kPathLength,
                        InvalidArgument, "DtwOptions.normalization is not a known value (got ",
                        static_cast<int>(normalization), ", expected kNone or kPathLength)");
}

#endif  // RETARGET_DEFINE_METRICS

}  // namespace retarget
