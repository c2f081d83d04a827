#pragma once

// The mapper contract suite (retarget/mappers/mapper.hpp): one set of checks run on every
// mapper. Each check returns the rules a mapper broke instead of asserting, so that the suite
// itself can be shown to fail on deliberately broken mappers (mapper_contract_test.cpp).
//
// Rules checked (names used in violations):
//   finite       every output is finite, whatever the input
//   limits       every output is within the model's position limits
//   allocation   map() does not allocate (operator new and Eigen's heap, see support/)
//   noexcept     map() does not throw (compile time: the trait; run time: caught here)
//   reset        after reset() the mapper gives exactly what a fresh one gives
//   status       statuses and per-joint flags say what happened: clamped() <=> kClamped,
//                held() <=> kDegenerateInput, clamped coordinates sit on a limit, held ones
//                keep their previous value, a wrong-sized q_out gives kInvalidInput and stays
//                untouched, clean inputs are not reported as degenerate or invalid
//   degenerate   an input with nothing usable is reported (kDegenerateInput or kInvalidInput)
//   continuity   along smooth input paths (through singular and wrap-around poses, 0.1 mm steps
//                of the input points or the like for channels) no joint steps by more than the
//                case's bound in one frame, unless the mapper reported that frame or the one
//                before as a discontinuity, degenerate (held) or invalid
//   discontinuity  along each of those paths at most ContractCase::max_discontinuity_fraction
//                of the frames are reported as a discontinuity (else the excuse above would
//                let a mapper that flags every frame jump anywhere)
//   stillness    a stochastic mapper (particle filter) on a still input moves no joint by more
//                than ContractCase::max_still_step per frame (its measured noise widens its
//                continuity bound, so the noise itself is a rule: a noisy filter fails here)

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <retarget/mappers/mapper.hpp>

#include "support/allocation.hpp"

namespace retarget::test {

/// How an input is stored by the suite: a channel vector (`BvhChannelValues` is a view) as an
/// owning VectorXd, anything else as itself.
template <typename Input>
using StoredInput = std::conditional_t<std::is_same_v<Input, BvhChannelValues>, Eigen::VectorXd, Input>;

/// A mapper under test and the inputs to feed it.
template <typename Mapper>
struct ContractCase {
  using Stored = StoredInput<typename Mapper::Input>;
  /// Builds a fresh mapper (same model, map and options every time).
  std::function<Mapper()> make;
  /// Inputs a mapper should map cleanly (no kDegenerateInput, no kInvalidInput), e.g. the
  /// robot's own virtual skeleton at random configurations.
  std::vector<Stored> clean;
  /// Hostile inputs: NaN, inf, 1e300, missing joints, zero-length links, identical points.
  std::vector<Stored> hostile;
  /// Inputs in which nothing is usable (every joint missing, every value NaN).
  std::vector<Stored> unusable;
  /// Real recordings, frame by frame. Without the shared data the test that builds the case
  /// records it through recordMissingData (support/test_support.hpp): a skip the run lists, and
  /// a failure under RETARGET_REQUIRE_DATA / RETARGET_REQUIRE_ALL.
  std::vector<Stored> real;
  /// Smooth input paths for the continuity rule (each mapped from a reset mapper), in small
  /// steps; empty: the rule is not checked.
  std::vector<std::vector<Stored>> paths;
  /// The largest joint step (rad) one path step may take. A path step turns an arm link by at
  /// most about 8e-4 rad (0.1 mm at both ends of a 0.25 m link), so 0.25 rad is over 300 times
  /// what it warrants: a jump by any measure, below the 0.35 rad above which GA-LVVJ and the
  /// triangle mapper report a forced step as a discontinuity, and far below the branch (pi) and
  /// wrap (2 pi) jumps this rule is for. Measured on the paths of mapper_contract_test.cpp: at
  /// most 0.13 rad for GA-LVVJ (Pepper, through the shoulder singularity) and 0.18 rad for
  /// FABRIK/PIC (Baxter, on a limit).
  double continuity_bound = 0.25;
  /// The largest fraction of a path's frames that may be reported as a discontinuity. Chosen
  /// before measuring: each path crosses its singular or wrap-around pose once, in its middle; a
  /// mapper may jump there and where a branch it left becomes the better one again, but not
  /// throughout. 0.05 of 201 frames is 10 frames, a band of +-0.5 mm of input motion around the
  /// crossing; a mapper that flags every frame reports all 201.
  double max_discontinuity_fraction = 0.05;
  /// A stochastic mapper (particle filters): the bound is raised by twice the largest step the
  /// mapper takes on a still input (its own noise, measured on each path's middle frame). That
  /// allowance comes from the result, so the noise itself is bounded too (rule "stillness").
  bool stochastic = false;
  /// The largest joint step (rad) a stochastic mapper may take on a still input. Set before
  /// measuring: 0.1 rad per frame is 3 rad/s at 30 Hz, the joint speed the balance QP allows
  /// (BalanceOptions::max_joint_speed); a filter that moves a still robot faster shakes it.
  double max_still_step = 0.1;
};

/// The rules a mapper broke, each with a first example.
struct ContractReport {
  std::vector<std::string> violations;

  bool ok() const { return violations.empty(); }
  /// True when some violation is of `rule` (see the file comment).
  bool violates(const std::string& rule) const {
    for (const auto& v : violations) {
      if (v.rfind(rule + ":", 0) == 0) return true;
    }
    return false;
  }
  std::string str() const {
    std::ostringstream out;
    for (const auto& v : violations) out << v << "\n";
    return out.str();
  }
  void add(const std::string& rule, const std::string& what) {
    if (!violates(rule)) violations.push_back(rule + ": " + what);
  }
};

namespace contract_detail {

template <typename Scalar>
bool withinModelLimits(const RobotModel<Scalar>& model, const VectorX<Scalar>& q) {
  return (q.array() >= model.lowerLimits().array()).all() && (q.array() <= model.upperLimits().array()).all();
}

// Maps `inputs` in order, checking finiteness, limits and status honesty on each frame.
template <typename Mapper, typename Inputs>
void mapAndCheck(Mapper& mapper, const Inputs& inputs, const std::string& set, bool expect_clean,
                 ContractReport& report) {
  using Scalar = typename Mapper::Scalar;
  const auto& model = mapper.model();
  VectorX<Scalar> q(model.nq()), previous(model.nq());
  bool has_previous = false;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const std::string where = set + " input " + std::to_string(k);
    Status status;
    try {
      status = mapper.map(inputs[k], q);
    } catch (...) {
      report.add("noexcept", where + " threw");
      continue;
    }
    if (!q.allFinite()) report.add("finite", where + " gave a non-finite output");
    if (!withinModelLimits(model, q)) report.add("limits", where + " gave an output outside the limits");
    if (mapper.clamped().size() != model.nq() || mapper.held().size() != model.nq()) {
      report.add("status", where + ": clamped()/held() do not have nq entries");
      continue;
    }
    if (mapper.clamped().any() != status.has(StatusCode::kClamped)) {
      report.add("status", where + ": clamped() flags and kClamped disagree (status " + status.toString() + ")");
    }
    if (mapper.held().any() != status.has(StatusCode::kDegenerateInput)) {
      report.add("status", where + ": held() flags and kDegenerateInput disagree (status " + status.toString() + ")");
    }
    for (int i = 0; i < model.nq(); ++i) {
      if (mapper.clamped()[i] && q[i] != model.lowerLimits()[i] && q[i] != model.upperLimits()[i]) {
        report.add("status", where + ": coordinate " + model.qName(i) + " flagged clamped but not on a limit");
      }
      if (has_previous && mapper.held()[i] && !mapper.clamped()[i] && q[i] != previous[i]) {
        report.add("status", where + ": coordinate " + model.qName(i) + " flagged held but changed");
      }
    }
    if (expect_clean && (status.has(StatusCode::kDegenerateInput) || status.has(StatusCode::kInvalidInput))) {
      report.add("status", where + " is clean but was reported " + status.toString());
    }
    previous = q;
    has_previous = true;
  }
}

// Every output, status and flag of a run, for comparing two runs bit for bit.
template <typename Scalar>
struct Trace {
  std::vector<VectorX<Scalar>> q;
  std::vector<Status> status;
  std::vector<JointFlags> clamped, held;
  bool operator==(const Trace& other) const {
    if (q.size() != other.q.size()) return false;
    for (std::size_t k = 0; k < q.size(); ++k) {
      // Bitwise equality, NaN included (a NaN output is the "finite" rule's business).
      if (!(q[k].array() == other.q[k].array() || (q[k].array().isNaN() && other.q[k].array().isNaN())).all()) {
        return false;
      }
      if (status[k] != other.status[k] || !(clamped[k] == other.clamped[k]).all() ||
          !(held[k] == other.held[k]).all()) {
        return false;
      }
    }
    return true;
  }
};

template <typename Mapper, typename Inputs>
Trace<typename Mapper::Scalar> trace(Mapper& mapper, const Inputs& inputs) {
  Trace<typename Mapper::Scalar> out;
  VectorX<typename Mapper::Scalar> q(mapper.model().nq());
  for (const auto& input : inputs) {
    out.status.push_back(mapper.map(input, q));
    out.q.push_back(q);
    out.clamped.push_back(mapper.clamped());
    out.held.push_back(mapper.held());
  }
  return out;
}

}  // namespace contract_detail

/// Runs every rule of the contract on `c` and returns what was broken.
template <typename Mapper>
ContractReport checkMapperContract(const ContractCase<Mapper>& c) {
  using Scalar = typename Mapper::Scalar;
  using namespace contract_detail;
  ContractReport report;
  Mapper mapper = c.make();
  const auto& model = mapper.model();

  // Clean, hostile, unusable and real inputs, each set from a fresh state, then all mixed.
  mapAndCheck(mapper, c.clean, "clean", true, report);
  for (const auto* set : {&c.hostile, &c.unusable, &c.real}) {
    mapper.reset();
    mapAndCheck(mapper, *set, set == &c.hostile ? "hostile" : set == &c.unusable ? "unusable" : "real", false, report);
  }

  // Unusable inputs are reported.
  {
    Mapper fresh = c.make();
    VectorX<Scalar> q(model.nq());
    for (std::size_t k = 0; k < c.unusable.size(); ++k) {
      const Status s = fresh.map(c.unusable[k], q);
      if (!s.has(StatusCode::kDegenerateInput) && !s.has(StatusCode::kInvalidInput)) {
        report.add("degenerate", "unusable input " + std::to_string(k) + " was reported " + s.toString());
      }
    }
  }

  // Wrong-sized q_out: kInvalidInput, untouched.
  if (!c.clean.empty()) {
    Mapper fresh = c.make();
    VectorX<Scalar> wrong = VectorX<Scalar>::Constant(model.nq() + 1, Scalar(7));
    const Status s = fresh.map(c.clean.front(), wrong);
    if (!s.has(StatusCode::kInvalidInput) || !(wrong.array() == Scalar(7)).all()) {
      report.add("status", "a q_out of nq + 1 entries was not refused untouched (status " + s.toString() + ")");
    }
  }

  // No allocation per frame, on every kind of input.
  {
    Mapper fresh = c.make();
    VectorX<Scalar> q(model.nq());
    NoAllocationScope scope;
    for (const auto* set : {&c.clean, &c.hostile, &c.unusable, &c.real}) {
      for (const auto& input : *set) (void)fresh.map(input, q);
    }
    fresh.reset();
    if (scope.allocations() != 0) {
      report.add("allocation", std::to_string(scope.allocations()) + " heap allocations in map()/reset()");
    }
  }

  // Continuity: along each path no joint jumps, unless the mapper said so. The worst step above
  // the bound is reported, with the number of such steps.
  if (!c.paths.empty()) {
    Mapper fresh = c.make();
    VectorX<Scalar> q(model.nq()), previous(model.nq());
    double worst = 0;
    int count = 0;
    std::string where;
    for (std::size_t p = 0; p < c.paths.size(); ++p) {
      const auto& path = c.paths[p];
      if (path.empty()) continue;
      int discontinuities = 0;  // frames of this path reported as a discontinuity
      double bound = c.continuity_bound;
      if (c.stochastic) {  // the filter's own noise on a still input
        fresh.reset();
        double noise = 0;
        Eigen::Index noisiest = 0;
        for (int k = 0; k < 30; ++k) {
          (void)fresh.map(path[path.size() / 2], q);
          Eigen::Index i = 0;
          const double step = static_cast<double>((q - previous).cwiseAbs().maxCoeff(&i));
          if (k >= 10 && step > noise) {
            noise = step;
            noisiest = i;
          }
          previous = q;
        }
        if (noise > c.max_still_step) {
          report.add("stillness", "path " + std::to_string(p) + ": a still input moves " +
                                      model.qName(static_cast<int>(noisiest)) + " by " + std::to_string(noise) +
                                      " rad per frame (at most " + std::to_string(c.max_still_step) + ")");
        }
        bound += 2 * noise;
      }
      // From a reset mapper settled on the path's first frame (smoothing mappers converge from
      // the rest configuration over a few frames: that is not a jump).
      fresh.reset();
      for (int k = 0; k < 30; ++k) (void)fresh.map(path.front(), q);
      previous = q;
      bool excused = false;
      for (std::size_t k = 0; k < path.size(); ++k) {
        const Status s = fresh.map(path[k], q);
        const bool reported = s.has(StatusCode::kDiscontinuity) || s.has(StatusCode::kDegenerateInput) ||
                              s.has(StatusCode::kInvalidInput);
        discontinuities += s.has(StatusCode::kDiscontinuity) ? 1 : 0;
        if (!excused && !reported) {
          Eigen::Index i = 0;
          const double step = static_cast<double>((q - previous).cwiseAbs().maxCoeff(&i));
          if (!(step <= bound)) {
            ++count;
            if (!(step <= worst)) {
              worst = step;
              where = "path " + std::to_string(p) + " frame " + std::to_string(k) + ": " +
                      model.qName(static_cast<int>(i)) + " stepped " + std::to_string(step) + " rad (bound " +
                      std::to_string(bound) + " rad), status " + s.toString();
            }
          }
        }
        excused = reported;
        previous = q;
      }
      if (discontinuities > c.max_discontinuity_fraction * static_cast<double>(path.size())) {
        report.add("discontinuity", "path " + std::to_string(p) + ": " + std::to_string(discontinuities) + " of " +
                                        std::to_string(path.size()) + " frames reported as a discontinuity (at most " +
                                        std::to_string(c.max_discontinuity_fraction) + " of them)");
      }
    }
    if (count > 0) report.add("continuity", std::to_string(count) + " unreported steps above the bound, worst " + where);
  }

  // reset() gives what a fresh mapper gives, after any history.
  {
    std::vector<typename ContractCase<Mapper>::Stored> history = c.real;
    history.insert(history.end(), c.hostile.begin(), c.hostile.end());
    history.insert(history.end(), c.clean.begin(), c.clean.end());
    // Unusable inputs first: what a mapper holds then is exactly its temporal state.
    std::vector<typename ContractCase<Mapper>::Stored> after = c.unusable;
    after.insert(after.end(), c.clean.begin(), c.clean.end());
    after.insert(after.end(), c.unusable.begin(), c.unusable.end());
    after.insert(after.end(), c.hostile.begin(), c.hostile.end());
    Mapper used = c.make();
    (void)trace(used, history);
    used.reset();
    Mapper fresh = c.make();
    if (!(trace(used, after) == trace(fresh, after))) {
      report.add("reset", "after reset() the outputs, statuses or flags differ from a fresh mapper's");
    }
  }
  return report;
}

/// Largest difference (rad) between the double and float mappers' outputs on the same clean
/// inputs (`f.clean[k]` is `d.clean[k]` in float), over the coordinates both map without
/// holding or clamping. `each_first`: both mappers are reset before each input (for mappers
/// that choose among equivalent solutions by the previous frame: unrelated clean inputs make
/// near ties that float and double may settle differently).
template <typename MapperD, typename MapperF>
double floatDoubleDifference(const ContractCase<MapperD>& d, const ContractCase<MapperF>& f, bool each_first = false) {
  MapperD md = d.make();
  MapperF mf = f.make();
  Eigen::VectorXd qd(md.model().nq());
  Eigen::VectorXf qf(mf.model().nq());
  double worst = 0;
  for (std::size_t k = 0; k < d.clean.size() && k < f.clean.size(); ++k) {
    if (each_first) {
      md.reset();
      mf.reset();
    }
    (void)md.map(d.clean[k], qd);
    (void)mf.map(f.clean[k], qf);
    for (int i = 0; i < qd.size(); ++i) {
      if (md.held()[i] || mf.held()[i] || md.clamped()[i] || mf.clamped()[i]) continue;
      worst = std::max(worst, std::abs(qd[i] - static_cast<double>(qf[i])));
    }
  }
  return worst;
}

}  // namespace retarget::test
