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
///
/// Kernels (Euclidean distance, double): on x86-64 with GCC or Clang, a processor with AVX2 and
/// FMA runs an AVX2 + FMA kernel chosen once per process at run time (the build stays generic
/// x86-64); everywhere else, for float, or with the environment variable
/// RETARGET_DTW_KERNEL=portable, the portable kernel (Eigen packets of the build's instruction
/// set). The portable kernel's local distances equal EuclideanDistance bit for bit; the AVX2 +
/// FMA kernel adds each square with one rounding (fused multiply-add) in another order, so its
/// local distances and costs agree with EuclideanDistance and the portable kernel to rounding
/// (about 1e-15 relative per distance; the tests allow 1e-12 on costs), not bit for bit. Within
/// one process every form uses the same kernel, so the forms agree with each other bit for bit.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include <Eigen/Core>

#include <retarget/core/compilation.hpp>
#include <retarget/core/error.hpp>
#include <retarget/core/status.hpp>
#include <retarget/core/types.hpp>

// The AVX2 + FMA kernel of the Euclidean DTW (internal::DtwKernel::kAvx2Fma) needs GCC or Clang
// on x86-64: its functions carry __attribute__((target("avx2,fma"))) and run only where the
// processor has both (checked once at run time), so the build itself stays generic x86-64.
// Its definitions (and <immintrin.h>, about 80 MB and 0.5 s of every translation unit that
// includes it) are seen only where the metrics layer is defined: header-only, or the compiled
// part's src/metrics.cpp, which also instantiates the kernel's entry points.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RETARGET_DTW_X86_KERNEL 1
#if RETARGET_DEFINE_METRICS
#include <immintrin.h>
#endif
#else
#define RETARGET_DTW_X86_KERNEL 0
#endif

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
/// to the lower number. Every DTW routine uses this order so that paths agree.
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

/// The implementations of the Euclidean DTW kernel (one frame against a block of frames).
enum class DtwKernel {
  kPortable,  ///< DtwEuclideanBlock: Eigen packets of the build's instruction set.
  kAvx2Fma,   ///< dtwEuclideanBlockAvx2Fma: AVX2 and FMA, chosen at run time (x86-64, double).
};

/// Whether this processor runs the AVX2 + FMA kernel (false where it is not compiled in).
RETARGET_DECL bool dtwAvx2FmaSupported() noexcept;

/// The kernel every Euclidean DTW of the process uses, chosen on the first call: kAvx2Fma when
/// dtwAvx2FmaSupported() and the environment variable RETARGET_DTW_KERNEL is not "portable",
/// kPortable otherwise. Never allocates or throws.
RETARGET_DECL DtwKernel dtwKernel() noexcept;

// --- The DTW kernel ---------------------------------------------------------------------------
//
// Every form (full matrix, O(min(n, m)) memory, windowed, incremental, per joint) computes D one LINE at a
// time, a row of D (all j for one i) or a column (all i for one j), updated in place over the
// previous line, cells t = lo..hi of the band in blocks of dtwBlockCells (8):
//   1. the local distances of the whole block: for the Euclidean distance one pass over the
//      features, vectorised across the cells (DtwEuclideanBlock; the frames of the line's other
//      sequence are kept feature by feature, row-major, in a DtwFeatureTable);
//   2. the recurrence of Eq. 11 over the block, without branches (dtwRecurBlock).
// A cell's value is c + min(diag, up, left), the same bits whatever the order of the minimum, so
// all forms agree bit for bit; path lengths follow the tie order of dtwBestPredecessor.
// Step 1 has two implementations (DtwKernel): the portable DtwEuclideanBlock, and on x86-64 an
// AVX2 + FMA one (dtwEuclideanBlockAvx2Fma, and dtwEuclideanGroupBlockAvx2Fma for four lines
// at once in the batch forms: each loaded feature of the table then serves four lines, which
// keeps the distances from waiting on the L2 cache). Both AVX2 blocks sum a cell's squares in
// the same order, so grouping lines changes no bit. Step 2 is dtwRecurBlock for both kernels,
// except on the cells that four grouped lines share: there the AVX2 kernel runs the recurrence
// of the four lines together as a skewed wavefront, one line per vector lane
// (dtwWavefrontAvx2Fma), with the same operations per cell and the same tie order, so again the
// same bits.

/// Lanes of Eigen's vectorised sum for Scalar (its packet size; 1 when Eigen does not vectorise
/// Scalar): DtwEuclideanBlock sums the squares in the order Eigen's (x - y).norm() does for a
/// dynamic-size frame with that many lanes.
template <typename Scalar>
constexpr Eigen::Index dtwNormLanes() noexcept {
  using Traits = Eigen::internal::packet_traits<Scalar>;
  return Traits::Vectorizable ? static_cast<Eigen::Index>(Traits::size) : 1;
}

/// Cells per block of the kernel for Scalar: 8, or one packet when packets are wider (a
/// compile-time count, so that the loops over the cells of a block are unrolled and vectorised).
template <typename Scalar>
constexpr Eigen::Index dtwBlockCells() noexcept {
  return std::max<Eigen::Index>(8, dtwNormLanes<Scalar>());
}

/// Frames of a sequence for the Euclidean kernel: d x dtwTableColumns(n), row k holds feature k
/// of every frame contiguously (row-major); the columns past n are zero padding (at least one
/// block), so that a block starting at any frame < n can be read whole.
template <typename Scalar>
using DtwFeatureTable = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Columns of a feature table for n frames: at least n + dtwBlockCells, rounded to an odd number of
/// 64-byte cache lines so that consecutive features (rows) fall in different cache sets (a
/// stride of a multiple of 4 KiB would put every feature of a block in the same set).
template <typename Scalar>
inline Eigen::Index dtwTableColumns(Eigen::Index n) noexcept {
  constexpr auto kLine = static_cast<Eigen::Index>(64 / sizeof(Scalar));
  Eigen::Index lines = (n + dtwBlockCells<Scalar>() + kLine - 1) / kLine;
  if (lines % 2 == 0) ++lines;
  return lines * kLine;
}

/// Whether Eigen's vectorised square root of Scalar packets is correctly rounded like std::sqrt:
/// it is for double, except with AVX-512 and EIGEN_FAST_MATH (an approximation there); for float
/// Eigen approximates with EIGEN_FAST_MATH on SSE and AVX. Where it is exact, the kernel takes the
/// square roots of a block in packets: std::sqrt is not vectorised (it may set errno), and one
/// scalar square root per cell costs about as much as the rest of the cell on some processors.
template <typename Scalar>
inline constexpr bool kDtwPacketSqrtIsExact =
#if defined(EIGEN_VECTORIZE_AVX512) && EIGEN_FAST_MATH
    false;
#else
    std::is_same<Scalar, double>::value;
#endif

/// Euclidean distances |x - y_w| (Eq. 11's local distance) between one frame x (spread: see
/// DtwSpreadFrame) and the B = dtwBlockCells frames y_w, w = 0..B-1, of a feature table (feature
/// k of y_w at features[k * stride + w]).
///
/// The squares are summed in the order of Eigen's vectorised reduction for a dynamic-size frame
/// with P = dtwNormLanes lanes (Eigen 3.4, SSE/AVX/NEON packets): two accumulators of P lanes
/// take the packets of 2P features in turn and are added, the last whole packet is added if
/// there is an odd one, the lanes are added pairwise by halves ((s0 + s2) + (s1 + s3) for four),
/// then the features past the last whole packet one by one (with P = 1, or d < P, one by one
/// from the start). So each distance equals EuclideanDistance{}(x, y_w) on dynamic-size frames
/// bit for bit (another order would differ in the last bits, which could flip exact ties between
/// warping paths). The loops over the block's cells are what vectorises: one pass over the
/// features serves the whole block.
template <typename Scalar>
struct DtwEuclideanBlock {
  static constexpr Eigen::Index kLanes = dtwNormLanes<Scalar>();
  // A block as kParts packets of kLanes cells (one Eigen packet each, so that every operation
  // below is one packet instruction); the frame x comes spread, one packet per feature.
  static constexpr Eigen::Index kCells = dtwBlockCells<Scalar>();
  static constexpr Eigen::Index kParts = kCells / kLanes;
  static_assert(kCells % kLanes == 0, "a block holds whole packets");
  using Part = Eigen::Array<Scalar, static_cast<int>(kLanes), 1>;
  struct Block {
    Part part[static_cast<std::size_t>(kParts)];
  };

  DtwEuclideanBlock(const Scalar* x_spread, const Scalar* features_in, Eigen::Index stride_in,
                    Eigen::Index d_in) noexcept
      : x(x_spread), features(features_in), stride(stride_in), d(d_in) {
    const Eigen::Index packets = kLanes > 1 ? d / kLanes : 0;
    end = packets * kLanes;
    end2 = packets >= 2 ? (d / (2 * kLanes)) * (2 * kLanes) : 0;
  }

  /// acc += (y - x_k)^2 over the block's cells (y: feature k of the block's frames).
  template <std::size_t... Q>
  EIGEN_ALWAYS_INLINE void addSquares(Block& acc, const Scalar* block, Eigen::Index k,
                                      std::index_sequence<Q...>) const noexcept {
    const Scalar* y = block + k * stride;
    const Eigen::Map<const Part, Eigen::AlignedMax> xk(x + k * kLanes);
    ((acc.part[Q] += (Eigen::Map<const Part>(y + Q * kLanes) - xk).square()), ...);
  }
  EIGEN_ALWAYS_INLINE void addSquares(Block& acc, const Scalar* block, Eigen::Index k) const noexcept {
    addSquares(acc, block, k, std::make_index_sequence<static_cast<std::size_t>(kParts)>{});
  }
  template <std::size_t... Q>
  static EIGEN_ALWAYS_INLINE void add(Block& acc, const Block& other, std::index_sequence<Q...>) noexcept {
    ((acc.part[Q] += other.part[Q]), ...);
  }
  static EIGEN_ALWAYS_INLINE void add(Block& acc, const Block& other) noexcept {
    add(acc, other, std::make_index_sequence<static_cast<std::size_t>(kParts)>{});
  }
  static EIGEN_ALWAYS_INLINE Block zero() noexcept {
    Block block;
    for (Eigen::Index q = 0; q < kParts; ++q) block.part[q].setZero();
    return block;
  }
  /// Lane l of Eigen's two packet accumulators (lanes never mix before the final reduction).
  EIGEN_ALWAYS_INLINE Block lane(const Scalar* block, Eigen::Index l) const noexcept {
    Block acc0 = zero();
    Block acc1 = zero();
    for (Eigen::Index k = l; k < end2; k += 2 * kLanes) {
      addSquares(acc0, block, k);
      addSquares(acc1, block, k + kLanes);
    }
    add(acc0, acc1);
    if (end > end2) addSquares(acc0, block, end2 + l);  // the odd packet (with one packet: the only one)
    return acc0;
  }
  template <std::size_t... L>
  EIGEN_ALWAYS_INLINE Block reduceLanes(const Scalar* block, std::index_sequence<L...>) const noexcept {
    Block lanes[sizeof...(L)] = {lane(block, static_cast<Eigen::Index>(L))...};
    for (std::size_t half = sizeof...(L) / 2; half >= 1; half /= 2) {
      for (std::size_t l = 0; l < half; ++l) add(lanes[l], lanes[l + half]);
    }
    return lanes[0];
  }
  /// Writes the distances of frames t0..t0+kCells-1 to out[0..kCells).
  EIGEN_ALWAYS_INLINE void operator()(Eigen::Index t0, Eigen::Index, Scalar* out) const noexcept {
    const Scalar* block = features + t0;
    Block sum = reduceLanes(block, std::make_index_sequence<static_cast<std::size_t>(kLanes)>{});
    for (Eigen::Index k = end; k < d; ++k) addSquares(sum, block, k);
    for (Eigen::Index q = 0; q < kParts; ++q) {
      if constexpr (kDtwPacketSqrtIsExact<Scalar>) {
        Eigen::Map<Part> distances(out + q * kLanes);
        distances = sum.part[q].sqrt();
      } else {
        for (Eigen::Index w = 0; w < kLanes; ++w) out[q * kLanes + w] = std::sqrt(sum.part[q][w]);
      }
    }
  }

  const Scalar* x;
  const Scalar* features;
  Eigen::Index stride;
  Eigen::Index d;
  Eigen::Index end = 0;   // features in whole packets
  Eigen::Index end2 = 0;  // features in whole pairs of packets (when there are two or more)
};

/// One frame spread for DtwEuclideanBlock: P x d (P = dtwNormLanes), column k holds feature k
/// P times (one packet).
template <typename Scalar>
using DtwSpreadFrame = Eigen::Array<Scalar, static_cast<int>(dtwNormLanes<Scalar>()), Eigen::Dynamic>;

/// Spreads `frame` (d values) into `spread`: a DtwSpreadFrame, or any P x d array (the AVX2
/// kernel's DtwSpreadFrame4), column k holding feature k P times. No allocation when `spread`
/// already has d columns.
template <typename Derived, typename Spread>
void dtwSpreadFrame(const Eigen::MatrixBase<Derived>& frame, Spread& spread) noexcept {
  spread = frame.transpose()
               .array()
               .template cast<typename Spread::Scalar>()
               .template replicate<Spread::RowsAtCompileTime, 1>();
}

/// What the recurrence carries from one cell of a line to the next: the previous line's value
/// at t-1 (the diagonal predecessor of cell t) and the new line's value at t-1 (its predecessor
/// along the line), with their path lengths.
template <typename Scalar>
struct DtwCarry {
  Scalar diag;
  Eigen::Index diag_len;
  Scalar along;
  Eigen::Index along_len;
};

/// Eq. 11 over `count` consecutive cells of a line, in place: line[w] holds the previous line's
/// value at the cell on entry and the new value on exit; cost[w] is the cell's local distance.
/// AlongIsUp: the line is a column of D (its predecessor along the line is the up cell (i-1, j),
/// line[w] the left one (i, j-1)); otherwise a row (the other way round). The value is
/// cost + min(diag, up, left); the path length (TrackLength) follows dtwBestPredecessor's tie
/// order. No branches: the selections compile to min and conditional moves.
template <bool AlongIsUp, bool TrackLength, typename Scalar>
EIGEN_ALWAYS_INLINE void dtwRecurBlock(const Scalar* cost, Eigen::Index count, Scalar* line, Eigen::Index* len,
                                       DtwCarry<Scalar>& carry) noexcept {
  Scalar diag = carry.diag;
  Scalar along = carry.along;
  Eigen::Index diag_len = carry.diag_len;
  Eigen::Index along_len = carry.along_len;
  for (Eigen::Index w = 0; w < count; ++w) {
    const Scalar here = line[w];
    Scalar value;
    if constexpr (TrackLength) {
      const Eigen::Index here_len = len[w];
      const Scalar up = AlongIsUp ? along : here;
      const Scalar left = AlongIsUp ? here : along;
      const Eigen::Index up_len = AlongIsUp ? along_len : here_len;
      const Eigen::Index left_len = AlongIsUp ? here_len : along_len;
      // The value's minimum and the tie order's comparisons are written apart (std::min compares
      // the other way round) so that the compiler selects with min and conditional moves rather
      // than a branch that shares them.
      const Scalar best = std::min(diag, up);  // (up < diag) ? up : diag
      const Eigen::Index best_len = up < diag ? up_len : diag_len;
      value = cost[w] + std::min(left, best);  // the minimum of the three
      const Eigen::Index value_len = (left < best ? left_len : best_len) + 1;
      len[w] = value_len;
      diag_len = here_len;
      along_len = value_len;
    } else {
      // The minimum's value does not depend on the order (all values are >= +0 or +inf).
      value = cost[w] + std::min(std::min(diag, here), along);
    }
    line[w] = value;
    diag = here;
    along = value;
  }
  carry = DtwCarry<Scalar>{diag, diag_len, along, along_len};
}

/// Updates one line of D in place over the band t = lo..hi (lo <= hi): on entry line[t] (and
/// len[t]) hold the previous line, on exit the new one. diag0 / diag0_len: the diagonal
/// predecessor of cell lo (the previous line at lo - 1, the virtual D(-1, -1) = 0, or +inf). The
/// predecessor along the line of cell lo is +inf (outside the band or the matrix).
/// block_cost(t0, count, out) writes the local distances of cells t0..t0+count-1 to out[0..count)
/// (it may write up to dtwBlockCells values). len may be null when !TrackLength.
template <bool AlongIsUp, bool TrackLength, typename Scalar, typename BlockCost>
inline void dtwUpdateLine(Eigen::Index lo, Eigen::Index hi, Scalar diag0, Eigen::Index diag0_len, Scalar* line,
                          Eigen::Index* len, const BlockCost& block_cost) noexcept {
  DtwCarry<Scalar> carry{diag0, diag0_len, std::numeric_limits<Scalar>::infinity(), 0};
  constexpr Eigen::Index kCells = dtwBlockCells<Scalar>();
  alignas(64) Scalar cost[static_cast<std::size_t>(kCells)];
  Eigen::Index t0 = lo;
  for (; t0 + kCells - 1 <= hi; t0 += kCells) {  // whole blocks: constant trip counts
    block_cost(t0, kCells, cost);
    dtwRecurBlock<AlongIsUp, TrackLength>(cost, kCells, line + t0, TrackLength ? len + t0 : nullptr, carry);
  }
  if (t0 <= hi) {
    block_cost(t0, hi - t0 + 1, cost);
    dtwRecurBlock<AlongIsUp, TrackLength>(cost, hi - t0 + 1, line + t0, TrackLength ? len + t0 : nullptr, carry);
  }
}

/// Lines handled together by dtwUpdateLinesAvx2Fma.
inline constexpr Eigen::Index kDtwGroupLines = 4;

/// Band of line k of a batch DTW: cells max(0, k - r)..min(cells - 1, k + r).
struct DtwBand {
  Eigen::Index lo;
  Eigen::Index hi;
};
inline DtwBand dtwBand(Eigen::Index k, Eigen::Index r, Eigen::Index cells) noexcept {
  return {std::max<Eigen::Index>(0, k - r), std::min<Eigen::Index>(cells - 1, k + r)};
}

/// Whether dtwUpdateLinesAvx2Fma can take lines k..k+kDtwGroupLines-1 together: they exist and
/// share a few cells (the band of the last one starts before the band of the first one ends).
inline bool dtwCanGroupLines(Eigen::Index k, Eigen::Index lines, Eigen::Index r, Eigen::Index cells) noexcept {
  if (k + kDtwGroupLines > lines) return false;
  return dtwBand(k, r, cells).hi - dtwBand(k + kDtwGroupLines - 1, r, cells).lo + 1 >= 8;
}

#if RETARGET_DTW_X86_KERNEL
#define RETARGET_DTW_AVX2_FMA __attribute__((target("avx2,fma")))

/// A frame for dtwEuclideanGroupBlockAvx2Fma: 4 x d, column k holds feature k four times.
using DtwSpreadFrame4 = Eigen::Array<double, 4, Eigen::Dynamic>;

/// The local distances of cells 0..count-1 of a line with the AVX2 + FMA blocks: out[t] =
/// |x - y_t| for the frames y_t of a feature table (padded: see DtwFeatureTable); out needs room
/// for count rounded up to a multiple of 8. For tests and benchmarks of the kernel alone.
RETARGET_DECL RETARGET_DTW_AVX2_FMA void dtwEuclideanLineAvx2Fma(const double* x, Eigen::Index x_step,
                                                                 const double* features, Eigen::Index stride,
                                                                 Eigen::Index d, Eigen::Index count,
                                                                 double* out) noexcept;

/// dtwUpdateLine for double with the AVX2 + FMA Euclidean blocks (dtwEuclideanBlockAvx2Fma).
template <bool AlongIsUp, bool TrackLength>
RETARGET_DTW_AVX2_FMA void dtwUpdateLineAvx2Fma(const double* x, Eigen::Index x_step, const double* features,
                                                Eigen::Index stride, Eigen::Index d, Eigen::Index lo, Eigen::Index hi,
                                                double diag0, Eigen::Index diag0_len, double* line,
                                                Eigen::Index* len) noexcept;

/// kDtwGroupLines consecutive lines k0.. of a batch DTW with the AVX2 + FMA kernel (defined below).
template <bool AlongIsUp, bool TrackLength>
RETARGET_DTW_AVX2_FMA void dtwUpdateLinesAvx2Fma(const double* const* x4, const double* features, Eigen::Index stride,
                                                 Eigen::Index d, Eigen::Index k0, Eigen::Index r, Eigen::Index cells,
                                                 double* line, Eigen::Index* len) noexcept;

#if RETARGET_DEFINE_METRICS

/// Euclidean distances |x - y_w| (Eq. 11's local distance) of one frame x to the 8 frames y_w,
/// w = 0..7, of a feature table starting at `y` (feature k of y_w at y[k * stride + w]), with
/// AVX2 and fused multiply-add: feature k of x is x[k * x_step]. Each cell's squares are summed
/// in two chains (even and odd features, each (y - x)^2 + sum rounded once) that are added at
/// the end; the square roots are correctly rounded (vsqrtpd). Only for callers compiled with
/// the same target (RETARGET_DTW_AVX2_FMA).
RETARGET_DTW_AVX2_FMA __attribute__((always_inline)) inline void dtwEuclideanBlockAvx2Fma(
    const double* x, Eigen::Index x_step, const double* y, Eigen::Index stride, Eigen::Index d,
    double* out) noexcept {
  __m256d even0 = _mm256_setzero_pd(), even1 = even0, odd0 = even0, odd1 = even0;
  Eigen::Index k = 0;
  for (; k + 1 < d; k += 2) {
    const __m256d xe = _mm256_broadcast_sd(x + k * x_step);
    const __m256d xo = _mm256_broadcast_sd(x + (k + 1) * x_step);
    const double* ye = y + k * stride;
    const double* yo = ye + stride;
    const __m256d de0 = _mm256_sub_pd(_mm256_loadu_pd(ye), xe);
    const __m256d de1 = _mm256_sub_pd(_mm256_loadu_pd(ye + 4), xe);
    const __m256d do0 = _mm256_sub_pd(_mm256_loadu_pd(yo), xo);
    const __m256d do1 = _mm256_sub_pd(_mm256_loadu_pd(yo + 4), xo);
    even0 = _mm256_fmadd_pd(de0, de0, even0);
    even1 = _mm256_fmadd_pd(de1, de1, even1);
    odd0 = _mm256_fmadd_pd(do0, do0, odd0);
    odd1 = _mm256_fmadd_pd(do1, do1, odd1);
  }
  if (k < d) {
    const __m256d xe = _mm256_broadcast_sd(x + k * x_step);
    const double* ye = y + k * stride;
    const __m256d de0 = _mm256_sub_pd(_mm256_loadu_pd(ye), xe);
    const __m256d de1 = _mm256_sub_pd(_mm256_loadu_pd(ye + 4), xe);
    even0 = _mm256_fmadd_pd(de0, de0, even0);
    even1 = _mm256_fmadd_pd(de1, de1, even1);
  }
  _mm256_storeu_pd(out, _mm256_sqrt_pd(_mm256_add_pd(even0, odd0)));
  _mm256_storeu_pd(out + 4, _mm256_sqrt_pd(_mm256_add_pd(even1, odd1)));
}

RETARGET_DECL RETARGET_DTW_AVX2_FMA void dtwEuclideanLineAvx2Fma(const double* x, Eigen::Index x_step,
                                                          const double* features, Eigen::Index stride,
                                                          Eigen::Index d, Eigen::Index count, double* out) noexcept {
  for (Eigen::Index t0 = 0; t0 < count; t0 += 8) dtwEuclideanBlockAvx2Fma(x, x_step, features + t0, stride, d, out + t0);
}

/// Eq. 11 over cells begin..end (inclusive; none when end < begin) of one line, in place as in
/// dtwUpdateLine, continuing `carry` (the state after cell begin - 1), with the AVX2 + FMA blocks.
template <bool AlongIsUp, bool TrackLength>
RETARGET_DTW_AVX2_FMA __attribute__((always_inline)) inline void dtwLineRangeAvx2Fma(
    const double* x, Eigen::Index x_step, const double* features, Eigen::Index stride, Eigen::Index d,
    Eigen::Index begin, Eigen::Index end, double* line, Eigen::Index* len, DtwCarry<double>& carry) noexcept {
  constexpr Eigen::Index kCells = 8;
  alignas(32) double cost[kCells];
  Eigen::Index t0 = begin;
  for (; t0 + kCells - 1 <= end; t0 += kCells) {
    dtwEuclideanBlockAvx2Fma(x, x_step, features + t0, stride, d, cost);
    dtwRecurBlock<AlongIsUp, TrackLength>(cost, kCells, line + t0, TrackLength ? len + t0 : nullptr, carry);
  }
  if (t0 <= end) {
    dtwEuclideanBlockAvx2Fma(x, x_step, features + t0, stride, d, cost);
    dtwRecurBlock<AlongIsUp, TrackLength>(cost, end - t0 + 1, line + t0, TrackLength ? len + t0 : nullptr, carry);
  }
}

/// dtwUpdateLine for double with the AVX2 + FMA Euclidean blocks (dtwEuclideanBlockAvx2Fma).
template <bool AlongIsUp, bool TrackLength>
RETARGET_DTW_AVX2_FMA void dtwUpdateLineAvx2Fma(const double* x, Eigen::Index x_step, const double* features,
                                                Eigen::Index stride, Eigen::Index d, Eigen::Index lo, Eigen::Index hi,
                                                double diag0, Eigen::Index diag0_len, double* line,
                                                Eigen::Index* len) noexcept {
  DtwCarry<double> carry{diag0, diag0_len, std::numeric_limits<double>::infinity(), 0};
  dtwLineRangeAvx2Fma<AlongIsUp, TrackLength>(x, x_step, features, stride, d, lo, hi, line, len, carry);
}

/// sum += (y - x)^2 in each lane (x: 4 equal values), rounded once (fused multiply-add).
RETARGET_DTW_AVX2_FMA __attribute__((always_inline)) inline void dtwAddSquareAvx2Fma(const __m256d& y, const double* x,
                                                                                    __m256d& sum) noexcept {
  const __m256d diff = _mm256_sub_pd(y, _mm256_loadu_pd(x));
  sum = _mm256_fmadd_pd(diff, diff, sum);
}

/// The local distances of kDtwGroupLines frames x[l] (DtwSpreadFrame4: feature k at x[l][4 k]) to the 4
/// frames of a feature table starting at `y`: out[l][w] = |x_l - y_w|. Each feature of y is
/// loaded once for all the frames. Per cell the squares are summed exactly as in
/// dtwEuclideanBlockAvx2Fma (even and odd chains, then their sum), so both give the same bits.
RETARGET_DTW_AVX2_FMA __attribute__((always_inline)) inline void dtwEuclideanGroupBlockAvx2Fma(
    const double* const* x, const double* y, Eigen::Index stride, Eigen::Index d, double (*out)[4]) noexcept {
  const __m256d zero = _mm256_setzero_pd();
  __m256d even0 = zero, even1 = zero, even2 = zero, even3 = zero;
  __m256d odd0 = zero, odd1 = zero, odd2 = zero, odd3 = zero;
  const double* x0 = x[0];
  const double* x1 = x[1];
  const double* x2 = x[2];
  const double* x3 = x[3];
  Eigen::Index k = 0;
  for (; k + 1 < d; k += 2) {
    const __m256d ye = _mm256_loadu_pd(y + k * stride);
    const __m256d yo = _mm256_loadu_pd(y + (k + 1) * stride);
    const Eigen::Index ke = 4 * k, ko = 4 * (k + 1);
    dtwAddSquareAvx2Fma(ye, x0 + ke, even0);
    dtwAddSquareAvx2Fma(ye, x1 + ke, even1);
    dtwAddSquareAvx2Fma(ye, x2 + ke, even2);
    dtwAddSquareAvx2Fma(ye, x3 + ke, even3);
    dtwAddSquareAvx2Fma(yo, x0 + ko, odd0);
    dtwAddSquareAvx2Fma(yo, x1 + ko, odd1);
    dtwAddSquareAvx2Fma(yo, x2 + ko, odd2);
    dtwAddSquareAvx2Fma(yo, x3 + ko, odd3);
  }
  if (k < d) {
    const __m256d ye = _mm256_loadu_pd(y + k * stride);
    const Eigen::Index ke = 4 * k;
    dtwAddSquareAvx2Fma(ye, x0 + ke, even0);
    dtwAddSquareAvx2Fma(ye, x1 + ke, even1);
    dtwAddSquareAvx2Fma(ye, x2 + ke, even2);
    dtwAddSquareAvx2Fma(ye, x3 + ke, even3);
  }
  _mm256_storeu_pd(out[0], _mm256_sqrt_pd(_mm256_add_pd(even0, odd0)));
  _mm256_storeu_pd(out[1], _mm256_sqrt_pd(_mm256_add_pd(even1, odd1)));
  _mm256_storeu_pd(out[2], _mm256_sqrt_pd(_mm256_add_pd(even2, odd2)));
  _mm256_storeu_pd(out[3], _mm256_sqrt_pd(_mm256_add_pd(even3, odd3)));
}

/// For dtwWavefrontAvx2Fma: the local distances of cells block..block + 3 (relative to the
/// table's `features`) of the group's lines, put skewed in the ring (see there); block += 4.
template <Eigen::Index kRing>
RETARGET_DTW_AVX2_FMA __attribute__((always_inline)) inline void dtwWavefrontBlockAvx2Fma(
    const double* const* x4, const double* features, Eigen::Index stride, Eigen::Index d, Eigen::Index& block,
    double* ring) noexcept {
  alignas(32) double tile[kDtwGroupLines][4];
  dtwEuclideanGroupBlockAvx2Fma(x4, features + block, stride, d, tile);
  for (Eigen::Index l = 0; l < kDtwGroupLines; ++l) {
    const __m256d cells = _mm256_load_pd(tile[l]);
    const __m128d low = _mm256_castpd256_pd128(cells), high = _mm256_extractf128_pd(cells, 1);
    _mm_storel_pd(ring + ((block + l) & (kRing - 1)) * 4 + l, low);
    _mm_storeh_pd(ring + ((block + 1 + l) & (kRing - 1)) * 4 + l, low);
    _mm_storel_pd(ring + ((block + 2 + l) & (kRing - 1)) * 4 + l, high);
    _mm_storeh_pd(ring + ((block + 3 + l) & (kRing - 1)) * 4 + l, high);
  }
  block += 4;
}

/// Eq. 11 over the cells lo..hi (hi - lo >= 7) shared by the kDtwGroupLines lines of a group,
/// continuing carry[l] (line l's state after cell lo - 1), in place in line[] / len[] (which end
/// up holding the last line's values), as a skewed wavefront: step s takes cell lo + s - l of
/// every line l at once, one line per lane of a 4-lane vector (line l's cell t needs line l - 1's
/// cells t - 1 and t, done one and two steps before, and its own cell t - 1, done one step
/// before). Each cell is evaluated with the same operations as in dtwRecurBlock (one rounding:
/// cost + min of the three), and the path length with the same tie order, so the bits are those
/// of the lines one after the other. The three first and last steps, where not every lane has a
/// cell, run one line at a time. The local distances are computed a block or two of cells ahead
/// and kept skewed in a ring, so that each step loads one vector of them. The serial chain per
/// step is one shuffle, two minima and an addition for four cells (where one line at a time it
/// is a minimum and an addition per cell, with the path-length selections beside it); the
/// instructions per cell are about a third of the scalar recurrence's.
template <bool AlongIsUp>
RETARGET_DTW_AVX2_FMA void dtwWavefrontAvx2Fma(const double* const* x4, const double* features, Eigen::Index stride,
                                               Eigen::Index d, Eigen::Index lo, Eigen::Index hi, double* line,
                                               Eigen::Index* len, DtwCarry<double>* carry) noexcept {
  constexpr Eigen::Index kLines = kDtwGroupLines;
  constexpr Eigen::Index kRing = 32;  // steps kept of the skewed local distances (a power of 2)
  // ring[(s mod kRing) * 4 + l]: the local distance of line l at cell lo + s - l.
  alignas(32) double ring[kRing * 4];
  const Eigen::Index steps = hi - lo + 1;  // cells per line
  Eigen::Index next_block = 0;             // first cell (from lo) whose distances are not in the ring yet
  const auto ring_cost = [&](Eigen::Index l, Eigen::Index rel) { return ring[((rel + l) & (kRing - 1)) * 4 + l]; };
  // Distances ahead of the steps: two blocks (cells up to rel 7), more as the steps advance.
  dtwWavefrontBlockAvx2Fma<kRing>(x4, features + lo, stride, d, next_block, ring);
  dtwWavefrontBlockAvx2Fma<kRing>(x4, features + lo, stride, d, next_block, ring);
  // Prologue: line l < 3 takes its cells lo..lo + 2 - l one line at a time (in memory).
  double c[4];
  for (Eigen::Index l = 0; l + 1 < kLines; ++l) {
    const Eigen::Index count = kLines - 1 - l;
    for (Eigen::Index w = 0; w < count; ++w) c[w] = ring_cost(l, w);
    dtwRecurBlock<AlongIsUp, true>(c, count, line + lo, len + lo, carry[l]);
  }
  // Lane l: along = line l's last value, diag = the previous line's value before the next cell.
  __m256d along = _mm256_set_pd(carry[3].along, carry[2].along, carry[1].along, carry[0].along);
  __m256i along_len =
      _mm256_set_epi64x(static_cast<long long>(carry[3].along_len), static_cast<long long>(carry[2].along_len),
                        static_cast<long long>(carry[1].along_len), static_cast<long long>(carry[0].along_len));
  __m256d diag = _mm256_set_pd(carry[3].diag, carry[2].diag, carry[1].diag, carry[0].diag);
  __m256i diag_len =
      _mm256_set_epi64x(static_cast<long long>(carry[3].diag_len), static_cast<long long>(carry[2].diag_len),
                        static_cast<long long>(carry[1].diag_len), static_cast<long long>(carry[0].diag_len));
  const __m256i one = _mm256_set1_epi64x(1);
  for (Eigen::Index s = kLines - 1; s < steps; ++s) {
    if ((s & 3) == 0 && next_block < steps) {  // keep a block or two ahead
      dtwWavefrontBlockAvx2Fma<kRing>(x4, features + lo, stride, d, next_block, ring);
    }
    const Eigen::Index t = lo + s;  // lane 0's cell; lane l's is t - l
    // here: the previous line's value at the lane's cell; lane l - 1's value one step ago, or
    // for lane 0 the previous group's last line, in memory.
    const __m256d here =
        _mm256_blend_pd(_mm256_permute4x64_pd(along, _MM_SHUFFLE(2, 1, 0, 0)), _mm256_broadcast_sd(line + t), 0x1);
    const __m256i here_len = _mm256_blend_epi32(_mm256_permute4x64_epi64(along_len, _MM_SHUFFLE(2, 1, 0, 0)),
                                                _mm256_set1_epi64x(static_cast<long long>(len[t])), 0x3);
    const __m256d up = AlongIsUp ? along : here;
    const __m256d left = AlongIsUp ? here : along;
    const __m256i up_len = AlongIsUp ? along_len : here_len;
    const __m256i left_len = AlongIsUp ? here_len : along_len;
    const __m256d best = _mm256_min_pd(up, diag);  // the value of min(diag, up), whichever is taken
    const __m256d up_less = _mm256_cmp_pd(up, diag, _CMP_LT_OQ);
    const __m256d best_len = _mm256_blendv_pd(_mm256_castsi256_pd(diag_len), _mm256_castsi256_pd(up_len), up_less);
    const __m256d left_less = _mm256_cmp_pd(left, best, _CMP_LT_OQ);
    const __m256d cost = _mm256_load_pd(ring + (s & (kRing - 1)) * 4);
    const __m256d value = _mm256_add_pd(cost, _mm256_min_pd(left, best));
    const __m256i value_len = _mm256_add_epi64(
        _mm256_castpd_si256(_mm256_blendv_pd(best_len, _mm256_castsi256_pd(left_len), left_less)), one);
    diag = here;
    diag_len = here_len;
    along = value;
    along_len = value_len;
    // Lane 3 is the group's last line: its values replace the previous line's in memory.
    const __m128d high = _mm256_extractf128_pd(value, 1);
    line[t - 3] = _mm_cvtsd_f64(_mm_unpackhi_pd(high, high));
    len[t - 3] = static_cast<Eigen::Index>(_mm256_extract_epi64(value_len, 3));
  }
  // Back to one state per line: line l stopped at cell hi - l; the last values of lines 0..2 go
  // to memory, where the next line's epilogue reads them.
  alignas(32) double along_out[4], diag_out[4];
  alignas(32) long long along_len_out[4], diag_len_out[4];
  _mm256_store_pd(along_out, along);
  _mm256_store_pd(diag_out, diag);
  _mm256_store_si256(reinterpret_cast<__m256i*>(along_len_out), along_len);
  _mm256_store_si256(reinterpret_cast<__m256i*>(diag_len_out), diag_len);
  for (Eigen::Index l = 0; l < kLines; ++l) {
    const auto q = static_cast<std::size_t>(l);
    carry[l] = DtwCarry<double>{diag_out[q], static_cast<Eigen::Index>(diag_len_out[q]), along_out[q],
                                static_cast<Eigen::Index>(along_len_out[q])};
    if (l + 1 < kLines) {
      line[hi - l] = along_out[q];
      len[hi - l] = static_cast<Eigen::Index>(along_len_out[q]);
    }
  }
  // Epilogue: line l >= 1 takes its cells hi - l + 1..hi one line at a time.
  for (Eigen::Index l = 1; l < kLines; ++l) {
    for (Eigen::Index w = 0; w < l; ++w) c[w] = ring_cost(l, steps - l + w);
    dtwRecurBlock<AlongIsUp, true>(c, l, line + hi - l + 1, len + hi - l + 1, carry[l]);
  }
}

/// kDtwGroupLines consecutive lines k0.. of a batch DTW (as dtwLines makes them: radius r, `cells`
/// cells, line[] and len[] in place) with the AVX2 + FMA kernel, the frames of the lines in x4[l]
/// (DtwSpreadFrame4: feature k at x4[l][4 k]; the one-line blocks read them with a step of 4).
/// Gives the same bits as updating the lines one after the other with dtwUpdateLineAvx2Fma; it
/// is faster because every feature of a frame of the table, once loaded, serves four lines.
/// Order: each line's cells before the shared part of the bands (line k0 first), the shared part
/// (with path lengths: as a wavefront over the four lines, dtwWavefrontAvx2Fma; without: 4 cells
/// at a time for every line in turn, line l + 1 reading line l's new values), then each line's
/// cells after it. Needs dtwCanGroupLines(k0, ...).
template <bool AlongIsUp, bool TrackLength>
RETARGET_DTW_AVX2_FMA void dtwUpdateLinesAvx2Fma(const double* const* x4, const double* features, Eigen::Index stride,
                                                 Eigen::Index d, Eigen::Index k0, Eigen::Index r, Eigen::Index cells,
                                                 double* line, Eigen::Index* len) noexcept {
  constexpr Eigen::Index kLines = kDtwGroupLines;
  const double inf = std::numeric_limits<double>::infinity();
  DtwBand band[kLines];
  DtwCarry<double> carry[kLines];
  for (Eigen::Index l = 0; l < kLines; ++l) band[l] = dtwBand(k0 + l, r, cells);
  const Eigen::Index shared_lo = band[kLines - 1].lo;
  const Eigen::Index shared_hi = band[0].hi;
  for (Eigen::Index l = 0; l < kLines; ++l) {
    const Eigen::Index lo = band[l].lo;
    const double diag0 = lo >= 1 ? line[lo - 1] : (k0 + l == 0 ? 0.0 : inf);
    const Eigen::Index diag0_len = (TrackLength && lo >= 1) ? len[lo - 1] : 0;
    carry[l] = DtwCarry<double>{diag0, diag0_len, inf, 0};
    dtwLineRangeAvx2Fma<AlongIsUp, TrackLength>(x4[l], 4, features, stride, d, lo, shared_lo - 1, line, len, carry[l]);
  }
  if constexpr (TrackLength) {
    dtwWavefrontAvx2Fma<AlongIsUp>(x4, features, stride, d, shared_lo, shared_hi, line, len, carry);
  } else {
    alignas(32) double cost[kLines][4];
    Eigen::Index t0 = shared_lo;
    for (; t0 <= shared_hi; t0 += 4) {
      dtwEuclideanGroupBlockAvx2Fma(x4, features + t0, stride, d, cost);
      const Eigen::Index count = std::min<Eigen::Index>(4, shared_hi - t0 + 1);
      for (Eigen::Index l = 0; l < kLines; ++l) {
        dtwRecurBlock<AlongIsUp, false>(cost[l], count, line + t0, nullptr, carry[l]);
      }
    }
  }
  for (Eigen::Index l = 1; l < kLines; ++l) {
    dtwLineRangeAvx2Fma<AlongIsUp, TrackLength>(x4[l], 4, features, stride, d, shared_hi + 1, band[l].hi, line, len,
                                                carry[l]);
  }
}
#endif  // RETARGET_DEFINE_METRICS

#if !RETARGET_HEADER_ONLY
RETARGET_TEMPLATE_METRICS void dtwUpdateLineAvx2Fma<true, true>(const double*, Eigen::Index, const double*, Eigen::Index,
                                                                   Eigen::Index, Eigen::Index, Eigen::Index, double,
                                                                   Eigen::Index, double*, Eigen::Index*) noexcept;
RETARGET_TEMPLATE_METRICS void dtwUpdateLinesAvx2Fma<true, true>(const double* const*, const double*, Eigen::Index,
                                                                    Eigen::Index, Eigen::Index, Eigen::Index, Eigen::Index,
                                                                    double*, Eigen::Index*) noexcept;
RETARGET_TEMPLATE_METRICS void dtwUpdateLineAvx2Fma<true, false>(const double*, Eigen::Index, const double*, Eigen::Index,
                                                                   Eigen::Index, Eigen::Index, Eigen::Index, double,
                                                                   Eigen::Index, double*, Eigen::Index*) noexcept;
RETARGET_TEMPLATE_METRICS void dtwUpdateLinesAvx2Fma<true, false>(const double* const*, const double*, Eigen::Index,
                                                                    Eigen::Index, Eigen::Index, Eigen::Index, Eigen::Index,
                                                                    double*, Eigen::Index*) noexcept;
RETARGET_TEMPLATE_METRICS void dtwUpdateLineAvx2Fma<false, true>(const double*, Eigen::Index, const double*, Eigen::Index,
                                                                   Eigen::Index, Eigen::Index, Eigen::Index, double,
                                                                   Eigen::Index, double*, Eigen::Index*) noexcept;
RETARGET_TEMPLATE_METRICS void dtwUpdateLinesAvx2Fma<false, true>(const double* const*, const double*, Eigen::Index,
                                                                    Eigen::Index, Eigen::Index, Eigen::Index, Eigen::Index,
                                                                    double*, Eigen::Index*) noexcept;
RETARGET_TEMPLATE_METRICS void dtwUpdateLineAvx2Fma<false, false>(const double*, Eigen::Index, const double*, Eigen::Index,
                                                                   Eigen::Index, Eigen::Index, Eigen::Index, double,
                                                                   Eigen::Index, double*, Eigen::Index*) noexcept;
RETARGET_TEMPLATE_METRICS void dtwUpdateLinesAvx2Fma<false, false>(const double* const*, const double*, Eigen::Index,
                                                                    Eigen::Index, Eigen::Index, Eigen::Index, Eigen::Index,
                                                                    double*, Eigen::Index*) noexcept;
#endif

#endif  // RETARGET_DTW_X86_KERNEL

/// dtwUpdateLine with the Euclidean local distance between frame x (spread: DtwSpreadFrame) and
/// the frames of a feature table (DtwFeatureTable: row-major, `stride` columns, padded).
template <bool AlongIsUp, bool TrackLength, typename Scalar>
inline void dtwUpdateLineEuclidean(DtwKernel kernel, const Scalar* x, const Scalar* features, Eigen::Index stride,
                                   Eigen::Index d, Eigen::Index lo, Eigen::Index hi, Scalar diag0,
                                   Eigen::Index diag0_len, Scalar* line, Eigen::Index* len) noexcept {
#if RETARGET_DTW_X86_KERNEL
  if constexpr (std::is_same<Scalar, double>::value) {
    if (kernel == DtwKernel::kAvx2Fma) {
      dtwUpdateLineAvx2Fma<AlongIsUp, TrackLength>(x, dtwNormLanes<double>(), features, stride, d, lo, hi, diag0,
                                                   diag0_len, line, len);
      return;
    }
  }
#endif
  (void)kernel;
  dtwUpdateLine<AlongIsUp, TrackLength>(lo, hi, diag0, diag0_len, line, len,
                                        DtwEuclideanBlock<Scalar>(x, features, stride, d));
}

template <typename Distance>
inline constexpr bool kIsEuclideanDistance = std::is_same<Distance, EuclideanDistance>::value;

/// The batch forms' driver: D line by line, in place in `line` (+inf on entry) and `len` (or
/// null). LineIsRow: line i over the frames j of b (b.cols() cells, rows i = 0..n-1); otherwise
/// line j over the frames i of a (columns). on_line(k, lo, hi) is called after line k is
/// complete, with its band. MayGroup: on_line reads only the band, never `line` (the AVX2 + FMA
/// kernel may then update four lines at a time, and line k is overwritten by the next ones before
/// on_line(k) is called); the results are the same bits either way. kernel: see dtwKernel.
template <bool LineIsRow, bool TrackLength, bool MayGroup = false, typename DerivedA, typename DerivedB,
          typename Distance, typename OnLine>
void dtwLines(const Eigen::MatrixBase<DerivedA>& a, const Eigen::MatrixBase<DerivedB>& b, Eigen::Index r,
              const Distance& distance, typename DerivedA::Scalar* line, Eigen::Index* len, const OnLine& on_line,
              DtwKernel kernel = dtwKernel()) {
  using Scalar = typename DerivedA::Scalar;
  const Scalar inf = std::numeric_limits<Scalar>::infinity();
  const Eigen::Index lines = LineIsRow ? a.cols() : b.cols();
  const Eigen::Index cells = LineIsRow ? b.cols() : a.cols();
  const Eigen::Index d = a.rows();
  DtwFeatureTable<Scalar> features;  // the cells' frames (Euclidean only)
  DtwSpreadFrame<Scalar> x;          // the line's frame (Euclidean only)
  if constexpr (kIsEuclideanDistance<Distance>) {
    features = DtwFeatureTable<Scalar>::Zero(d, dtwTableColumns<Scalar>(cells));
    if constexpr (LineIsRow) {
      features.leftCols(cells) = b;
    } else {
      features.leftCols(cells) = a;
    }
    x.resize(dtwNormLanes<Scalar>(), d);
  }
#if RETARGET_DTW_X86_KERNEL
  constexpr bool kGroup = MayGroup && kIsEuclideanDistance<Distance> && std::is_same<Scalar, double>::value;
  DtwSpreadFrame4 group4[kGroup ? kDtwGroupLines : 1];
  const double* group_x4[kGroup ? kDtwGroupLines : 1] = {};
  if (kGroup && kernel == DtwKernel::kAvx2Fma) {
    for (auto& frame : group4) frame.resize(4, d);
  }
#endif
  for (Eigen::Index k = 0; k < lines; ++k) {
#if RETARGET_DTW_X86_KERNEL
    if constexpr (kGroup) {
      if (kernel == DtwKernel::kAvx2Fma && dtwCanGroupLines(k, lines, r, cells)) {
        for (Eigen::Index l = 0; l < kDtwGroupLines; ++l) {
          if constexpr (LineIsRow) {
            dtwSpreadFrame(a.col(k + l), group4[l]);
          } else {
            dtwSpreadFrame(b.col(k + l), group4[l]);
          }
          group_x4[l] = group4[l].data();
        }
        dtwUpdateLinesAvx2Fma<!LineIsRow, TrackLength>(group_x4, features.data(), features.cols(), d, k, r, cells, line,
                                                       len);
        for (Eigen::Index l = 0; l < kDtwGroupLines; ++l) {
          const DtwBand band = dtwBand(k + l, r, cells);
          on_line(k + l, band.lo, band.hi);
        }
        k += kDtwGroupLines - 1;
        continue;
      }
    }
#endif
    const Eigen::Index lo = std::max<Eigen::Index>(0, k - r);
    const Eigen::Index hi = std::min<Eigen::Index>(cells - 1, k + r);
    if (lo <= hi) {
      // Diagonal predecessor of the band's first cell: the previous line at lo - 1 (inside its
      // band when lo >= 1), D(-1, -1) = 0 for the first line, +inf otherwise.
      const Scalar diag0 = lo >= 1 ? line[lo - 1] : (k == 0 ? Scalar(0) : inf);
      const Eigen::Index diag0_len = (TrackLength && lo >= 1) ? len[lo - 1] : 0;
      if constexpr (kIsEuclideanDistance<Distance>) {
        if constexpr (LineIsRow) {
          dtwSpreadFrame(a.col(k), x);
        } else {
          dtwSpreadFrame(b.col(k), x);
        }
        dtwUpdateLineEuclidean<!LineIsRow, TrackLength>(kernel, x.data(), features.data(), features.cols(), d, lo, hi, diag0,
                                                        diag0_len, line, len);
      } else {
        dtwUpdateLine<!LineIsRow, TrackLength>(
            lo, hi, diag0, diag0_len, line, len, [&](Eigen::Index t0, Eigen::Index count, Scalar* out) {
              for (Eigen::Index w = 0; w < count; ++w) {
                out[w] = LineIsRow ? static_cast<Scalar>(distance(a.col(k), b.col(t0 + w)))
                                   : static_cast<Scalar>(distance(a.col(t0 + w), b.col(k)));
              }
            });
      }
    }
    on_line(k, lo, hi);
  }
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
                                                 const Eigen::MatrixBase<DerivedB>& b, const DtwOptions& options = {},
                                                 const Distance& distance = Distance{}) {
  using Scalar = typename DerivedA::Scalar;
  options.validate();
  internal::checkDtwSequences("dtwCostMatrix", a, b);
  const Scalar inf = std::numeric_limits<Scalar>::infinity();
  const Eigen::Index n = a.cols();
  const Eigen::Index m = b.cols();
  const Eigen::Index r = internal::dtwRadius(options, n, m);
  MatrixX<Scalar> D(n, m);  // every entry is written once below: the band, then +inf
  // Column by column (contiguous in D), unless A is much longer than B: then row by row, so that
  // the feature table (B's frames) stays small enough for the cache.
  if (4 * m < n) {
    std::vector<Scalar> line(static_cast<std::size_t>(m), inf);  // row i of D
    internal::dtwLines<true, false>(
        a, b, r, distance, line.data(), nullptr, [&](Eigen::Index i, Eigen::Index lo, Eigen::Index hi) {
          auto row = D.row(i);
          if (lo > hi) {
            row.setConstant(inf);
            return;
          }
          row.head(lo).setConstant(inf);
          row.segment(lo, hi - lo + 1) = Eigen::Map<const VectorX<Scalar>>(line.data() + lo, hi - lo + 1).transpose();
          row.tail(m - 1 - hi).setConstant(inf);
        });
  } else {
    std::vector<Scalar> line(static_cast<std::size_t>(n), inf);  // column j of D
    internal::dtwLines<false, false>(
        a, b, r, distance, line.data(), nullptr, [&](Eigen::Index j, Eigen::Index lo, Eigen::Index hi) {
          auto column = D.col(j);
          if (lo > hi) {
            column.setConstant(inf);
            return;
          }
          column.head(lo).setConstant(inf);
          column.segment(lo, hi - lo + 1) = Eigen::Map<const VectorX<Scalar>>(line.data() + lo, hi - lo + 1);
          column.tail(n - 1 - hi).setConstant(inf);
        });
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

/// DTW distance in O(min(n, m)) memory (one row or column of D and its path lengths) and O(n m)
/// time (O(n r) with a window of radius r); `result.path` stays empty but `path_length` is
/// exact. Gives the same cost, bit for bit, as dtwCostMatrix. Same arguments and exceptions as
/// dtwCostMatrix.
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
  // Line by line over the shorter sequence (its feature table stays in cache): rows of D when
  // m <= n, columns otherwise.
  const bool rows = m <= n;
  const Eigen::Index cells = rows ? m : n;
  std::vector<Scalar> line(static_cast<std::size_t>(cells), inf);
  std::vector<Eigen::Index> len(static_cast<std::size_t>(cells), 0);
  Eigen::Index last_lo = 0, last_hi = -1;  // band of the last line
  const auto on_line = [&](Eigen::Index, Eigen::Index lo, Eigen::Index hi) {
    last_lo = lo;
    last_hi = hi;
  };
  if (rows) {
    internal::dtwLines<true, true, true>(a, b, r, distance, line.data(), len.data(), on_line);
  } else {
    internal::dtwLines<false, true, true>(a, b, r, distance, line.data(), len.data(), on_line);
  }
  DtwResult<Scalar> result;
  if (cells - 1 >= last_lo && cells - 1 <= last_hi) {
    result.cost = line[static_cast<std::size_t>(cells - 1)];
    result.path_length = std::isfinite(result.cost) ? len[static_cast<std::size_t>(cells - 1)] : 0;
  }
  result.distance = internal::dtwNormalize(result.cost, result.path_length, options.normalization);
  return result;
}

/// Exact DTW that grows one frame at a time, on either sequence, and keeps D(n-1, m-1) current
/// (the paper plots diag(D) as the motion unfolds: append one human and one robot frame per
/// time step and read `cost()` after each pair).
///
/// Memory: both sequences (d x capacity each) plus the last row and last column of D; appending
/// frame n to A costs O(m d) (O(r d) with a window of radius r), and symmetrically for B. With
/// the Euclidean distance the frames are kept feature by feature (row-major), so that a new
/// frame's distances to a whole row of cells come from one vectorised pass (the same kernel as
/// dtw, see internal::DtwEuclideanBlock).
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
    frame_.resize(dimension);
    if constexpr (kEuclidean) spread_.resize(internal::dtwNormLanes<Scalar>(), dimension);
    reserve(capacity);
  }

  /// Preallocates room for `capacity` frames in each sequence (never shrinks). Allocates.
  void reserve(Eigen::Index capacity) {
    RETARGET_THROW_UNLESS(capacity >= 0, InvalidArgument, "IncrementalDtw capacity must be >= 0 (got ", capacity,
                          ")");
    if (capacity > capacityOf(a_)) grow(a_, na_, capacity);
    if (capacity > capacityOf(b_)) grow(b_, nb_, capacity);
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
  static constexpr bool kEuclidean = internal::kIsEuclideanDistance<Distance>;
  // Euclidean: a feature table per sequence (internal::DtwFeatureTable: row-major, padded
  // columns); otherwise one frame per column, as the user's distance gets it.
  using Storage = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, kEuclidean ? Eigen::RowMajor : Eigen::ColMajor>;
  static constexpr Eigen::Index kPadding = kEuclidean ? internal::dtwBlockCells<Scalar>() : 0;

  static Eigen::Index capacityOf(const Storage& storage) noexcept {
    return std::max<Eigen::Index>(0, storage.cols() - kPadding);
  }
  static void grow(Storage& storage, Eigen::Index used, Eigen::Index capacity) {
    const Eigen::Index columns = kEuclidean ? internal::dtwTableColumns<Scalar>(capacity) : capacity;
    Storage bigger = Storage::Zero(storage.rows(), columns);
    bigger.leftCols(used) = storage.leftCols(used);
    storage.swap(bigger);
  }

  // Appends to A (IsA) or B. "line" is the edge of D that the new frame extends: the last row
  // for A (indexed by j over B), the last column for B (indexed by i over A); "cross" is the
  // other edge, which gains one entry. Both edges hold exact values of D (+inf outside the band).
  template <bool IsA, typename Derived>
  Status append(const Eigen::MatrixBase<Derived>& frame) noexcept {
    if (frame.size() != dimension_ || !frame.allFinite()) return StatusCode::kInvalidInput;
    Storage& own = IsA ? a_ : b_;
    const Storage& other = IsA ? b_ : a_;
    Eigen::Index& n_own = IsA ? na_ : nb_;
    const Eigen::Index n_other = IsA ? nb_ : na_;
    std::vector<Scalar>& line_cost = IsA ? row_cost_ : col_cost_;
    std::vector<Eigen::Index>& line_len = IsA ? row_len_ : col_len_;
    std::vector<Scalar>& cross_cost = IsA ? col_cost_ : row_cost_;
    std::vector<Eigen::Index>& cross_len = IsA ? col_len_ : row_len_;

    if (n_own == capacityOf(own)) grow(own, n_own, std::max<Eigen::Index>(1, 2 * capacityOf(own)));
    frame_ = frame.template cast<Scalar>();
    own.col(n_own) = frame_;

    const Scalar inf = std::numeric_limits<Scalar>::infinity();
    const Eigen::Index k = n_own;  // index of the new frame
    const Eigen::Index r = options_.window == kNoDtwWindow ? std::max(k + 1, n_other) : options_.window;
    const Eigen::Index lo = std::max<Eigen::Index>(0, k - r);
    const Eigen::Index hi = std::min<Eigen::Index>(n_other - 1, k + r);
    if (k == 0) {
      // The line is D(-1, .) = +inf (cells outside the band must read +inf, not stale data).
      std::fill(line_cost.begin(), line_cost.end(), inf);
      std::fill(line_len.begin(), line_len.end(), Eigen::Index(0));
    }
    // Diagonal predecessor of the first cell: the previous edge at lo - 1 (in its band), the
    // virtual D(-1, -1) = 0 for the first frame, or +inf. The cell at lo - 1 then leaves the
    // band: +inf on the new edge.
    const bool has_before = lo >= 1 && lo - 1 < n_other;
    const Scalar diag0 = has_before ? line_cost[static_cast<std::size_t>(lo - 1)] : (k == 0 ? Scalar(0) : inf);
    const Eigen::Index diag0_len = has_before ? line_len[static_cast<std::size_t>(lo - 1)] : 0;
    if (has_before) line_cost[static_cast<std::size_t>(lo - 1)] = inf;
    if (lo <= hi) {
      // A's row: the predecessor along the line is the left cell; B's column: the up cell.
      constexpr bool kAlongIsUp = !IsA;
      if constexpr (kEuclidean) {
        internal::dtwSpreadFrame(frame_, spread_);
        internal::dtwUpdateLineEuclidean<kAlongIsUp, true>(kernel_, spread_.data(), other.data(), other.cols(), dimension_, lo,
                                                           hi, diag0, diag0_len, line_cost.data(), line_len.data());
      } else {
        const auto mine = own.col(k);
        internal::dtwUpdateLine<kAlongIsUp, true>(lo, hi, diag0, diag0_len, line_cost.data(), line_len.data(),
                                                  [&](Eigen::Index t0, Eigen::Index count, Scalar* out) {
                                                    for (Eigen::Index w = 0; w < count; ++w) {
                                                      out[w] =
                                                          IsA ? static_cast<Scalar>(distance_(mine, other.col(t0 + w)))
                                                              : static_cast<Scalar>(distance_(other.col(t0 + w), mine));
                                                    }
                                                  });
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
  Storage a_, b_;  // d x (capacity + padding); the first na_ / nb_ frames are used
  Eigen::Index na_ = 0, nb_ = 0;
  VectorX<Scalar> frame_;                   // the frame being appended
  internal::DtwSpreadFrame<Scalar> spread_;  // the same for the Euclidean kernel
  internal::DtwKernel kernel_ = internal::dtwKernel();
  std::vector<Scalar> row_cost_, col_cost_;  // D(na-1, 0..nb-1) and D(0..na-1, nb-1)
  std::vector<Eigen::Index> row_len_, col_len_;
};

#if RETARGET_DEFINE_METRICS

namespace internal {

RETARGET_DECL bool dtwAvx2FmaSupported() noexcept {
#if RETARGET_DTW_X86_KERNEL
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

RETARGET_DECL DtwKernel dtwKernel() noexcept {
  static const DtwKernel kernel = [] {
    const char* forced = std::getenv("RETARGET_DTW_KERNEL");
    if (forced != nullptr && std::strcmp(forced, "portable") == 0) return DtwKernel::kPortable;
    return dtwAvx2FmaSupported() ? DtwKernel::kAvx2Fma : DtwKernel::kPortable;
  }();
  return kernel;
}

}  // namespace internal

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
