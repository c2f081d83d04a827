#pragma once

/// @file
/// Implementation of the automatic humanoid binding (robots/humanoid_binding.hpp, whose file
/// comment states the rules): the rest-pose geometry a model is reduced to, the binding's steps,
/// and the definition of `bindHumanoid`. Nothing here is public API.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <retarget/core/error.hpp>
#include <retarget/core/internal/small_cholesky.hpp>
#include <retarget/core/internal/text.hpp>
#include <retarget/geometry/rigid_inverse.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/kinematics/robot_model.hpp>
#include <retarget/robots/humanoid_binding.hpp>

namespace retarget {

namespace internal {

/// Rest-pose geometry of a model, in double, in the root frame B (what the binding reads).
struct HumanoidGeometry {
  struct LinkInfo {
    std::string name;
    Eigen::Isometry3d X_BL = Eigen::Isometry3d::Identity();
    std::vector<Eigen::Vector3d> points;  // origin, centre of mass (mass > 0), capsule ends (B)
  };
  struct JointInfo {
    std::string name;
    int parent = -1, child = -1, q = -1;  // q: -1 for fixed and mimic joints
    bool type_fixed = true;
    Eigen::Vector3d p_B = Eigen::Vector3d::Zero();     // joint frame origin
    Eigen::Vector3d axis_B = Eigen::Vector3d::UnitZ();  // unit
  };
  std::string robot;
  std::vector<LinkInfo> links;
  std::vector<JointInfo> joints;
};

/// Lower-case copy.
inline std::string humanoidLower(const std::string& s) {
  std::string out;
  for (const char c : s) out += internal::toLowerAscii(c);
  return out;
}

/// +1 when `name` reads as left, -1 as right, 0 when it says neither (or both).
inline int humanoidNameSide(const std::string& name) {
  const std::string lower = humanoidLower(name);
  auto word = [&](const char* w) {
    const std::string key(w);
    for (std::size_t pos = lower.find(key); pos != std::string::npos; pos = lower.find(key, pos + 1)) {
      const bool start = pos == 0 || !internal::isAlphaAscii(lower[pos - 1]);
      const std::size_t end = pos + key.size();
      const bool stop = end >= lower.size() || !internal::isAlphaAscii(lower[end]) ||
                        (key.size() == 1 && internal::isUpperAscii(name[end]));
      if (start && stop) return true;
    }
    return false;
  };
  int score = 0;
  if (word("left") || word("l")) ++score;
  if (word("right") || word("r")) --score;
  // NAO style: "LShoulderPitch", "RThigh" (a capital L/R followed by a capital letter).
  if (name.size() > 1 && internal::isUpperAscii(name[1])) {
    if (name[0] == 'L') ++score;
    if (name[0] == 'R') --score;
  }
  return score > 0 ? 1 : (score < 0 ? -1 : 0);
}

/// True when `name` contains one of `words` (lower case).
inline bool humanoidNameHas(const std::string& name, std::initializer_list<const char*> words) {
  const std::string lower = humanoidLower(name);
  for (const char* w : words) {
    if (lower.find(w) != std::string::npos) return true;
  }
  return false;
}

/// The point nearest (least squares) to the lines through p[k] along a[k], regularised towards
/// p[0] (weight 1e-3) so that parallel axes still give a point.
inline Eigen::Vector3d humanoidNearestToLines(const std::vector<Eigen::Vector3d>& p, const std::vector<Eigen::Vector3d>& a) {
  Eigen::Matrix3d A = 1e-3 * Eigen::Matrix3d::Identity();
  Eigen::Vector3d b = 1e-3 * p[0];
  for (std::size_t k = 0; k < p.size(); ++k) {
    const Eigen::Matrix3d P = Eigen::Matrix3d::Identity() - a[k] * a[k].transpose();
    A += P;
    b += P * p[k];
  }
  if (!choleskyFactorInPlace(A)) return p[0];  // not reached: A is 1e-3 I plus projectors
  choleskySolveInPlace(A, b);
  return b;
}

/// Snaps unit `v` to the nearest signed axis of the columns of `R` when within `angle` (rad).
inline Eigen::Vector3d humanoidSnap(const Eigen::Vector3d& v, const Eigen::Matrix3d& R, double angle) {
  Eigen::Vector3d local = R.transpose() * v;
  Eigen::Index i = 0;
  local.cwiseAbs().maxCoeff(&i);
  const double c = std::abs(local[i]) / local.norm();
  if (c < std::cos(angle)) return v;
  Eigen::Vector3d axis = Eigen::Vector3d::Zero();
  axis[i] = local[i] > 0 ? 1.0 : -1.0;
  return R * axis;
}

/// The feet tell forward when the feet's summed asymmetry about the ankles (how much further
/// they reach ahead than behind) is at least this fraction of their summed length: a human-like
/// foot, the ankle over its back third, gives about 0.5. Set from Robotis OP3's feet, centred
/// under the ankle (about 0), before any other robot was looked at; on the shared models G1 and
/// H1 pass it, T1 and OP3 take the next cue (names, the head's parts), all four x forward
/// (tests/mjcf).
inline constexpr double kFootAsymmetry = 0.2;

/// The binding proper, on rest-pose geometry (see the file doc). A class template (used as
/// `HumanoidBinder<>`) only so that its code is compiled where `bindHumanoid` is instantiated,
/// not in every translation unit that includes robots/humanoid_binding.hpp.
template <typename Lazy = void>
class HumanoidBinder {
 public:
  HumanoidBinder(const HumanoidGeometry& g, const HumanoidBindingOptions& o) : g_(g), o_(o) {}

  HumanoidBinding run() {
    out_.robot = g_.robot;
    makeBodies();
    prune();
    findLimbs();
    classify();
    if (!out_.missing.empty() && arms_.empty() && legs_.empty()) return out_;
    findAxes();
    assignSides();
    buildPoints();
    return out_;
  }

 private:
  struct Edge {
    int joint = -1;
    int other = -1;
  };
  struct Limb {
    int leaf = -1;                 // body
    int branch = -1;               // body
    std::vector<int> bodies;       // branch excluded, leaf last
    std::vector<int> joints;       // model joints, branch side first
    Eigen::Vector3d tip = Eigen::Vector3d::Zero();
    double reach = 0;
    std::vector<double> profile;
    int side = 0;                  // +1 left, -1 right
    int name_side = 0;
  };

  // ---- bodies -------------------------------------------------------------------------------
  int findRoot(std::vector<int>& parent, int i) {
    while (parent[static_cast<std::size_t>(i)] != i) i = parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    return i;
  }

  void makeBodies() {
    const std::size_t n = g_.links.size();
    std::vector<int> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    for (const auto& j : g_.joints) {
      if (j.type_fixed) parent[static_cast<std::size_t>(findRoot(parent, j.parent))] = findRoot(parent, j.child);
    }
    body_of_.assign(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
      const int r = findRoot(parent, static_cast<int>(i));
      if (body_of_[static_cast<std::size_t>(r)] < 0) {
        body_of_[static_cast<std::size_t>(r)] = static_cast<int>(bodies_.size());
        bodies_.emplace_back();
        body_points_.emplace_back();
      }
      body_of_[i] = body_of_[static_cast<std::size_t>(r)];
    }
    for (std::size_t i = 0; i < n; ++i) {
      const auto b = static_cast<std::size_t>(body_of_[i]);
      bodies_[b].push_back(static_cast<int>(i));
      for (const auto& p : g_.links[i].points) body_points_[b].push_back(p);
    }
    adjacency_.assign(bodies_.size(), {});
    for (std::size_t k = 0; k < g_.joints.size(); ++k) {
      const auto& j = g_.joints[k];
      if (j.type_fixed) continue;
      const int a = body_of_[static_cast<std::size_t>(j.parent)], b = body_of_[static_cast<std::size_t>(j.child)];
      adjacency_[static_cast<std::size_t>(a)].push_back({static_cast<int>(k), b});
      adjacency_[static_cast<std::size_t>(b)].push_back({static_cast<int>(k), a});
    }
    alive_.assign(bodies_.size(), true);
    Eigen::Vector3d lo = Eigen::Vector3d::Constant(std::numeric_limits<double>::infinity()), hi = -lo;
    for (const auto& pts : body_points_) {
      for (const auto& p : pts) {
        lo = lo.cwiseMin(p);
        hi = hi.cwiseMax(p);
      }
    }
    size_ = std::max((hi - lo).norm(), 1e-6);
  }

  int degree(int b) const {
    int d = 0;
    for (const auto& e : adjacency_[static_cast<std::size_t>(b)]) d += alive_[static_cast<std::size_t>(e.other)] ? 1 : 0;
    return d;
  }

  /// The limb from leaf body `leaf` inward to the first body with >= 3 live neighbours.
  Limb walk(int leaf) const {
    Limb limb;
    limb.leaf = leaf;
    int prev = -1, cur = leaf;
    std::vector<int> joints_rev;
    std::vector<int> bodies_rev;
    while (true) {
      bodies_rev.push_back(cur);
      int next = -1, via = -1;
      for (const auto& e : adjacency_[static_cast<std::size_t>(cur)]) {
        if (!alive_[static_cast<std::size_t>(e.other)] || e.other == prev) continue;
        next = e.other;
        via = e.joint;
      }
      if (next < 0) return Limb{};  // the whole tree is one path: no branching body
      joints_rev.push_back(via);
      prev = cur;
      cur = next;
      if (degree(cur) >= 3 || cur == forced_branch_) break;
    }
    limb.branch = cur;
    limb.bodies.assign(bodies_rev.rbegin(), bodies_rev.rend());
    limb.joints.assign(joints_rev.rbegin(), joints_rev.rend());
    const Eigen::Vector3d& p0 = jointPos(limb.joints.front());
    for (int b : limb.bodies) {
      for (const auto& p : body_points_[static_cast<std::size_t>(b)]) {
        const double d = (p - p0).norm();
        if (d > limb.reach) {
          limb.reach = d;
          limb.tip = p;
        }
      }
    }
    return limb;
  }

  void prune() {
    // All small leaf branches of one pass go at once, so that the fingers of one hand are all
    // pruned before the hand itself becomes a leaf.
    for (bool changed = true; changed;) {
      changed = false;
      std::vector<Limb> leaves, small;
      for (std::size_t b = 0; b < bodies_.size(); ++b) {
        if (!alive_[b] || degree(static_cast<int>(b)) != 1) continue;
        Limb limb = walk(static_cast<int>(b));
        if (limb.branch >= 0) leaves.push_back(std::move(limb));
      }
      for (const Limb& limb : leaves) {
        const bool tiny = limb.reach < o_.min_limb_fraction * size_;
        bool short_siblings = false;
        if (limb.reach < o_.sibling_branch_fraction * size_) {
          for (const Limb& other : leaves) {
            short_siblings = short_siblings || (&other != &limb && other.branch == limb.branch &&
                                                other.reach < o_.sibling_branch_fraction * size_);
          }
        }
        if (tiny || short_siblings) small.push_back(limb);
      }
      for (const Limb& limb : small) {
        for (int body : limb.bodies) {
          alive_[static_cast<std::size_t>(body)] = false;
          auto& target = body_points_[static_cast<std::size_t>(limb.branch)];
          for (const auto& p : body_points_[static_cast<std::size_t>(body)]) target.push_back(p);
        }
        pruned_ += (pruned_.empty() ? "" : ", ") + g_.joints[static_cast<std::size_t>(limb.joints.front())].name;
        changed = true;
      }
    }
    if (!pruned_.empty()) {
      out_.notes.push_back("branches kept with the body they hang from (fingers, grippers, wheels, eyes: below " +
                           fixed3(o_.min_limb_fraction * size_) + " m, or below " + fixed3(o_.sibling_branch_fraction * size_) +
                           " m beside another such branch): at " + pruned_);
    }
    // A tree that is now a path (two arms on a fixed base, Baxter, YuMi): it branches at its
    // middle body by joint count.
    bool branches = false;
    std::vector<int> ends;
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      if (!alive_[b]) continue;
      branches = branches || degree(static_cast<int>(b)) >= 3;
      if (degree(static_cast<int>(b)) == 1) ends.push_back(static_cast<int>(b));
    }
    if (!branches && ends.size() == 2) {
      const std::vector<int> path = pathBodies(ends[0], ends[1]);
      forced_branch_ = path[path.size() / 2];
      out_.notes.push_back("the tree is one chain: split at its middle body (link '" +
                           g_.links[static_cast<std::size_t>(bodies_[static_cast<std::size_t>(forced_branch_)].front())].name + "')");
    }
  }

  // ---- limbs ----------------------------------------------------------------------------------
  void findLimbs() {
    for (std::size_t b = 0; b < bodies_.size(); ++b) {
      if (!alive_[b] || degree(static_cast<int>(b)) != 1) continue;
      Limb limb = walk(static_cast<int>(b));
      if (limb.branch < 0) continue;
      const Eigen::Vector3d& p0 = jointPos(limb.joints.front());
      for (int j : limb.joints) limb.profile.push_back((jointPos(j) - p0).norm());
      limb.profile.push_back(limb.reach);
      int votes = 0;
      for (int j : limb.joints) votes += humanoidNameSide(g_.joints[static_cast<std::size_t>(j)].name);
      for (int body : limb.bodies) {
        for (int l : bodies_[static_cast<std::size_t>(body)]) votes += humanoidNameSide(g_.links[static_cast<std::size_t>(l)].name);
      }
      limb.name_side = votes > 0 ? 1 : (votes < 0 ? -1 : 0);
      limbs_.push_back(std::move(limb));
    }
  }

  /// True when a link of the limb or its branch-side joints say "pinned end link" `name`.
  bool limbHasLink(const Limb& limb, const std::string& name) const {
    for (int body : limb.bodies) {
      for (int l : bodies_[static_cast<std::size_t>(body)]) {
        if (g_.links[static_cast<std::size_t>(l)].name == name) return true;
      }
    }
    return false;
  }

  int limbWithLink(const std::string& name, const char* field) const {
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      if (limbHasLink(limbs_[i], name)) return static_cast<int>(i);
    }
    RETARGET_THROW_UNLESS(false, InvalidArgument, field, ".end_link (got '", name,
                          "', expected a link at the end of a limb of robot '", g_.robot, "')");
    return -1;
  }

  void classify() {
    // Pins first: a pinned end link fixes which limb is which.
    std::array<int, kHumanoidLimbCount> pinned{};
    pinned.fill(-1);
    std::vector<bool> used(limbs_.size(), false);
    for (std::size_t l = 0; l < kHumanoidLimbCount; ++l) {
      const auto& pin = o_.limbs[l];
      if (pin.end_link.empty() || pin.end_link == "-") continue;
      const std::string field = "HumanoidBindingOptions::limbs[" + std::string(kHumanoidLimbNames[l]) + "]";
      pinned[l] = limbWithLink(pin.end_link, field.c_str());
      used[static_cast<std::size_t>(pinned[l])] = true;
    }
    // Pairs of mirror twins.
    struct Pair {
      int a, b;
      double score;
    };
    std::vector<Pair> candidates;
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      for (std::size_t k = i + 1; k < limbs_.size(); ++k) {
        const Limb &a = limbs_[i], &b = limbs_[k];
        if (a.branch != b.branch || a.profile.size() != b.profile.size()) continue;
        double diff = 0;
        for (std::size_t m = 0; m < a.profile.size(); ++m) diff += std::abs(a.profile[m] - b.profile[m]);
        const double score = diff / static_cast<double>(a.profile.size()) / std::max(a.reach, b.reach);
        if (score <= o_.pair_tolerance) candidates.push_back({static_cast<int>(i), static_cast<int>(k), score});
      }
    }
    std::sort(candidates.begin(), candidates.end(), [](const Pair& x, const Pair& y) { return x.score < y.score; });
    std::vector<Pair> pairs;
    std::vector<bool> paired(limbs_.size(), false);
    for (const Pair& p : candidates) {
      if (paired[static_cast<std::size_t>(p.a)] || paired[static_cast<std::size_t>(p.b)]) continue;
      paired[static_cast<std::size_t>(p.a)] = paired[static_cast<std::size_t>(p.b)] = true;
      pairs.push_back(p);
    }
    // Pinned limbs: their pair is whatever the pin says.
    auto pinnedPair = [&](std::size_t left, std::size_t right) -> std::optional<std::pair<int, int>> {
      if (pinned[left] >= 0 && pinned[right] >= 0) return std::make_pair(pinned[left], pinned[right]);
      return std::nullopt;
    };
    const auto pinned_arms = pinnedPair(0, 1);
    const auto pinned_legs = pinnedPair(2, 3);
    std::sort(pairs.begin(), pairs.end(), [&](const Pair& x, const Pair& y) {
      return limbs_[static_cast<std::size_t>(x.a)].reach > limbs_[static_cast<std::size_t>(y.a)].reach;
    });
    std::vector<Pair> kept;
    for (const Pair& p : pairs) {
      const bool pinned_here = used[static_cast<std::size_t>(p.a)] || used[static_cast<std::size_t>(p.b)];
      if (!pinned_here && kept.size() < 2) kept.push_back(p);
    }
    if (pinned_arms && pinned_legs) kept.clear();
    std::vector<std::pair<int, int>> free_pairs;
    for (const Pair& p : kept) free_pairs.emplace_back(p.a, p.b);
    if (pinned_arms) arms_ = {pinned_arms->first, pinned_arms->second};
    if (pinned_legs) legs_ = {pinned_legs->first, pinned_legs->second};
    sides_pinned_ = {pinned_arms.has_value(), pinned_legs.has_value()};
    if (!pinned_arms && !pinned_legs) {
      if (free_pairs.size() == 2) {
        const double s0 = awayScore(free_pairs[0], free_pairs[1]);
        const double s1 = awayScore(free_pairs[1], free_pairs[0]);
        const bool first_is_legs = s0 < s1;
        legs_ = first_is_legs ? vec(free_pairs[0]) : vec(free_pairs[1]);
        arms_ = first_is_legs ? vec(free_pairs[1]) : vec(free_pairs[0]);
      } else if (free_pairs.size() == 1) {
        if (namesSayLeg(free_pairs[0])) {
          legs_ = vec(free_pairs[0]);
        } else {
          arms_ = vec(free_pairs[0]);
        }
      }
    } else if (pinned_arms && !pinned_legs && !free_pairs.empty()) {
      legs_ = vec(free_pairs[0]);
    } else if (pinned_legs && !pinned_arms && !free_pairs.empty()) {
      arms_ = vec(free_pairs[0]);
    }
    if (o_.limbs[0].end_link == "-" || o_.limbs[1].end_link == "-") arms_.clear();
    if (o_.limbs[2].end_link == "-" || o_.limbs[3].end_link == "-") legs_.clear();
    if (arms_.empty()) out_.missing.push_back("arms: no pair of mirror-twin limbs at shoulder height");
    if (legs_.empty()) out_.missing.push_back("legs: no pair of mirror-twin limbs pointing away from the arms");
    // Torso and pelvis bodies.
    if (!arms_.empty()) torso_body_ = limbs_[static_cast<std::size_t>(arms_[0])].branch;
    if (!legs_.empty()) pelvis_body_ = limbs_[static_cast<std::size_t>(legs_[0])].branch;
    // Head: pinned, else the unpaired leaf limb nearest the shoulders (or the torso body).
    if (o_.limbs[4].end_link == "-") {
      out_.missing.push_back("head: declared absent by the schema");
      return;
    }
    if (pinned[4] >= 0) {
      head_ = pinned[4];
      return;
    }
    if (arms_.empty()) return;
    const Eigen::Vector3d shoulders =
        0.5 * (jointPos(limbs_[static_cast<std::size_t>(arms_[0])].joints.front()) +
               jointPos(limbs_[static_cast<std::size_t>(arms_[1])].joints.front()));
    double best = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < limbs_.size(); ++i) {
      if (paired[i] || used[i]) continue;
      const Limb& l = limbs_[i];
      if (l.branch != torso_body_) continue;
      const double d = (jointPos(l.joints.front()) - shoulders).norm();
      if (d < best) {
        best = d;
        head_ = static_cast<int>(i);
      }
    }
  }

  static std::vector<int> vec(const std::pair<int, int>& p) { return {p.first, p.second}; }

  /// How much the limbs of `p` point towards the roots of `other` (legs point away: negative).
  double awayScore(const std::pair<int, int>& p, const std::pair<int, int>& other) const {
    const Eigen::Vector3d root = 0.5 * (jointPos(limbs_[static_cast<std::size_t>(p.first)].joints.front()) +
                                        jointPos(limbs_[static_cast<std::size_t>(p.second)].joints.front()));
    const Eigen::Vector3d tip = 0.5 * (limbs_[static_cast<std::size_t>(p.first)].tip + limbs_[static_cast<std::size_t>(p.second)].tip);
    const Eigen::Vector3d other_root =
        0.5 * (jointPos(limbs_[static_cast<std::size_t>(other.first)].joints.front()) +
               jointPos(limbs_[static_cast<std::size_t>(other.second)].joints.front()));
    Eigen::Vector3d towards = other_root - root;
    if (towards.norm() < 1e-9) {
      // Both pairs branch at one point (NAO's torso): compare with the other pair's tips instead.
      towards = 0.5 * (limbs_[static_cast<std::size_t>(other.first)].tip + limbs_[static_cast<std::size_t>(other.second)].tip) - root;
      return (tip - root).normalized().dot(towards.normalized()) - 0.5;  // < -0.5 for opposite limbs
    }
    return (tip - root).normalized().dot(towards.normalized());
  }

  bool namesSayLeg(const std::pair<int, int>& p) const {
    int leg = 0, arm = 0;
    for (int i : {p.first, p.second}) {
      for (int j : limbs_[static_cast<std::size_t>(i)].joints) {
        const std::string& n = g_.joints[static_cast<std::size_t>(j)].name;
        leg += humanoidNameHas(n, {"leg", "hip", "knee", "ankle", "foot", "thigh"}) ? 1 : 0;
        arm += humanoidNameHas(n, {"arm", "shoulder", "elbow", "wrist", "hand"}) ? 1 : 0;
      }
    }
    return leg > arm;
  }

  // ---- axes and sides ---------------------------------------------------------------------------
  const Eigen::Vector3d& jointPos(int j) const { return g_.joints[static_cast<std::size_t>(j)].p_B; }
  const Eigen::Vector3d& jointAxis(int j) const { return g_.joints[static_cast<std::size_t>(j)].axis_B; }
  const Limb& limbAt(int i) const { return limbs_[static_cast<std::size_t>(i)]; }

  /// Key joint positions of a limb (see the file doc): indices into limb.joints, -1 if absent.
  struct Keys {
    Eigen::Vector3d root = Eigen::Vector3d::Zero();
    int bend = -1, distal = -1;
  };

  int pinnedJointIndex(const Limb& limb, const std::string& name, const char* field, std::size_t which) const {
    if (name.empty()) return -1;
    for (std::size_t k = 0; k < limb.joints.size(); ++k) {
      if (g_.joints[static_cast<std::size_t>(limb.joints[k])].name == name) return static_cast<int>(k);
    }
    RETARGET_THROW_UNLESS(false, InvalidArgument, "HumanoidBindingOptions::limbs[",
                          kHumanoidLimbNames[which], "].", field, " (got '", name,
                          "', expected a moving joint of that limb of robot '", g_.robot, "')");
    return -1;
  }

  Keys keys(const Limb& limb, std::size_t which) const {
    Keys k;
    const double group = o_.joint_group_tolerance * size_;
    const auto n = static_cast<int>(limb.joints.size());
    // A first guess of the root for the bend test: the first joint.
    const Eigen::Vector3d first = jointPos(limb.joints.front());
    k.bend = pinnedJointIndex(limb, o_.limbs[which].bend_joint, "bend_joint", which);
    if (k.bend < 0) {
      double best = 0;
      for (int i = 1; i < n; ++i) {
        const Eigen::Vector3d p = jointPos(limb.joints[static_cast<std::size_t>(i)]);
        const Eigen::Vector3d d = p - first;
        if (d.norm() <= group) continue;
        if (std::abs(jointAxis(limb.joints[static_cast<std::size_t>(i)]).dot(d.normalized())) >= 0.5) continue;
        const double score = std::min(d.norm(), (limb.tip - p).norm());
        if (score > best + 1e-9) {
          best = score;
          k.bend = i;
        }
      }
    }
    // Root: nearest point to the axes before the bend group.
    std::vector<Eigen::Vector3d> ps, as;
    const int stop = k.bend < 0 ? n : k.bend;
    for (int i = 0; i < stop; ++i) {
      const int j = limb.joints[static_cast<std::size_t>(i)];
      if (k.bend >= 0 && (jointPos(j) - jointPos(limb.joints[static_cast<std::size_t>(k.bend)])).norm() <= group) continue;
      ps.push_back(jointPos(j));
      as.push_back(jointAxis(j));
    }
    k.root = ps.empty() ? first : humanoidNearestToLines(ps, as);
    if (k.bend < 0) return k;
    k.distal = pinnedJointIndex(limb, o_.limbs[which].distal_joint, "distal_joint", which);
    if (k.distal >= 0) return k;
    const Eigen::Vector3d pb = jointPos(limb.joints[static_cast<std::size_t>(k.bend)]);
    for (int i = k.bend + 1; i < n; ++i) {
      const Eigen::Vector3d d = jointPos(limb.joints[static_cast<std::size_t>(i)]) - pb;
      if (d.norm() <= group) continue;
      if (k.distal < 0) k.distal = i;  // the first joint past the bend group (fallback)
      if (std::abs(jointAxis(limb.joints[static_cast<std::size_t>(i)]).dot(d.normalized())) < 0.5) {
        k.distal = i;
        break;
      }
    }
    return k;
  }

  /// Index (into limb.joints) of the last joint of the group starting at `i`.
  int groupEnd(const Limb& limb, int i) const {
    const double group = o_.joint_group_tolerance * size_;
    int e = i;
    while (e + 1 < static_cast<int>(limb.joints.size()) &&
           (jointPos(limb.joints[static_cast<std::size_t>(e + 1)]) - jointPos(limb.joints[static_cast<std::size_t>(i)])).norm() <= group) {
      ++e;
    }
    return e;
  }
  /// Index of the first joint of the group ending at `i`.
  int groupStart(const Limb& limb, int i) const {
    const double group = o_.joint_group_tolerance * size_;
    int s = i;
    while (s > 0 && (jointPos(limb.joints[static_cast<std::size_t>(s - 1)]) - jointPos(limb.joints[static_cast<std::size_t>(i)])).norm() <= group) {
      --s;
    }
    return s;
  }

  void findAxes() {
    // Up.
    Eigen::Vector3d up = Eigen::Vector3d::UnitZ();
    std::string up_source = "the root frame's z (no legs, no head)";
    if (o_.up) {
      up = o_.up->normalized();
      up_source = "given";
    } else if (!arms_.empty() && !legs_.empty()) {
      const Eigen::Vector3d shoulders = 0.5 * (keys(limbAt(arms_[0]), 0).root + keys(limbAt(arms_[1]), 1).root);
      const Eigen::Vector3d feet = 0.5 * (limbAt(legs_[0]).tip + limbAt(legs_[1]).tip);
      up = (shoulders - feet).normalized();
      up_source = "from the feet to the shoulders";
    } else if (!arms_.empty() && head_ >= 0) {
      // No legs, no geometric vertical: the head is usually ahead of the shoulders (InMoov 18 deg,
      // Baxter 16 deg), so it only decides the sign of the root frame's z, unless that is more
      // than 45 deg away from it (a root frame that is not z up).
      const Eigen::Vector3d shoulders = 0.5 * (keys(limbAt(arms_[0]), 0).root + keys(limbAt(arms_[1]), 1).root);
      up = (limbAt(head_).tip - shoulders).normalized();
      up_source = "from the shoulders to the head";
      if (std::abs(up.z()) >= std::cos(0.7854)) {
        up = Eigen::Vector3d(0, 0, up.z() > 0 ? 1.0 : -1.0);
        up_source = "the root frame's z, signed by the head (no legs)";
      }
    } else if (!legs_.empty()) {
      const Eigen::Vector3d hips = 0.5 * (keys(limbAt(legs_[0]), 2).root + keys(limbAt(legs_[1]), 3).root);
      up = (hips - 0.5 * (limbAt(legs_[0]).tip + limbAt(legs_[1]).tip)).normalized();
      up_source = "from the feet to the hips";
    }
    const Eigen::Matrix3d I = Eigen::Matrix3d::Identity();
    if (!o_.up) up = humanoidSnap(up, I, o_.axis_snap_angle);
    auto horizontal = [&](const Eigen::Vector3d& v) { return Eigen::Vector3d(v - v.dot(up) * up); };
    // Lateral line (sign still unknown).
    const std::vector<int>& pair = !arms_.empty() ? arms_ : legs_;
    Eigen::Vector3d lateral = Eigen::Vector3d::Zero();
    if (!pair.empty()) lateral = horizontal(jointPos(limbAt(pair[0]).joints.front()) - jointPos(limbAt(pair[1]).joints.front()));
    // Forward.
    Eigen::Vector3d forward = Eigen::Vector3d::Zero();
    std::string forward_source;
    if (o_.forward) {
      forward = horizontal(o_.forward->normalized());
      forward_source = "given";
    }
    if (forward.norm() < 1e-6 && !legs_.empty() && lateral.norm() > 1e-9) {
      // The feet reach further ahead of the ankle than behind it (a heel is short): along the
      // horizontal line across the lateral one, each foot's furthest extent either way; the cue
      // counts when the feet's summed asymmetry is at least kFootAsymmetry of their summed
      // length. A foot centred under its ankle (Robotis OP3's sole boxes) tells nothing, and its
      // furthest point (front or back by a rounding) once turned OP3 round.
      const Eigen::Vector3d sagittal = up.cross(lateral).normalized();
      double asymmetry = 0, length = 0;
      for (std::size_t s = 0; s < 2; ++s) {
        const Limb& leg = limbAt(legs_[s]);
        const Keys k = keys(leg, 2 + s);
        const Eigen::Vector3d ankle = k.distal >= 0 ? jointPos(leg.joints[static_cast<std::size_t>(k.distal)]) : leg.tip;
        double ahead = 0, behind = 0;
        for (const auto& p : footPoints(leg, k)) {
          const double along = sagittal.dot(p - ankle);
          ahead = std::max(ahead, along);
          behind = std::max(behind, -along);
        }
        asymmetry += ahead - behind;
        length += ahead + behind;
      }
      if (length > 0.005 * size_ && std::abs(asymmetry) >= kFootAsymmetry * length) {
        forward = asymmetry > 0 ? sagittal : Eigen::Vector3d(-sagittal);
        forward_source = "where the feet point";
      }
    }
    if (forward.norm() < 1e-6 && !arms_.empty()) {
      for (int a : arms_) forward += horizontal(limbAt(a).tip - jointPos(limbAt(a).joints.front()));
      if (lateral.norm() > 1e-9) forward -= forward.dot(lateral.normalized()) * lateral.normalized();
      if (forward.norm() > 0.05 * size_) forward_source = "where the arms point at rest";
      else forward.setZero();
    }
    if (forward.norm() < 1e-6 && head_ >= 0) {
      const Limb& head = limbAt(head_);
      Eigen::Vector3d mean = Eigen::Vector3d::Zero();
      int count = 0;
      for (const auto& p : body_points_[static_cast<std::size_t>(head.leaf)]) {
        mean += p;
        ++count;
      }
      if (count > 0) forward = horizontal(mean / count - jointPos(head.joints.front()));
      if (lateral.norm() > 1e-9) forward -= forward.dot(lateral.normalized()) * lateral.normalized();
      if (forward.norm() > 0.005 * size_) forward_source = "where the head's parts lie";
      else forward.setZero();
    }
    if (forward.norm() < 1e-6) {
      // Names: the pair member named left is on +y = up x forward.
      const Limb* named_left = nullptr;
      const Limb* other = nullptr;
      if (!pair.empty()) {
        for (std::size_t s = 0; s < 2; ++s) {
          if (limbAt(pair[s]).name_side > 0) {
            named_left = &limbAt(pair[s]);
            other = &limbAt(pair[1 - s]);
          }
        }
      }
      if (named_left != nullptr) {
        const Eigen::Vector3d left = horizontal(jointPos(named_left->joints.front()) - jointPos(other->joints.front()));
        forward = left.cross(up);
        forward_source = "from the names (left side named)";
      } else {
        forward = horizontal(Eigen::Vector3d::UnitX());
        if (forward.norm() < 1e-6) forward = horizontal(Eigen::Vector3d::UnitY());
        forward_source = "the root frame's x (no cue)";
        out_.notes.push_back("forward: no geometric or name cue; the sides may be swapped");
      }
    }
    forward.normalize();
    if (!o_.forward) forward = humanoidSnap(forward, I, o_.axis_snap_angle);
    forward = horizontal(forward).normalized();
    const Eigen::Vector3d left = up.cross(forward);
    out_.R_BR.col(0) = forward;
    out_.R_BR.col(1) = left;
    out_.R_BR.col(2) = up;
    out_.notes.push_back("up: " + up_source + "; forward: " + forward_source);
  }

  /// Points of the bodies of a leg beyond its distal (ankle) group.
  std::vector<Eigen::Vector3d> footPoints(const Limb& leg, const Keys& k) const {
    std::vector<Eigen::Vector3d> pts;
    const int from = k.distal >= 0 ? groupEnd(leg, k.distal) : static_cast<int>(leg.joints.size()) - 1;
    // bodies[i] is the body after joints[i]: the foot is bodies[from..].
    for (std::size_t i = static_cast<std::size_t>(from); i < leg.bodies.size(); ++i) {
      for (const auto& p : body_points_[static_cast<std::size_t>(leg.bodies[i])]) pts.push_back(p);
    }
    return pts;
  }

  void assignSides() {
    const Eigen::Vector3d left = out_.R_BR.col(1);
    for (std::size_t which = 0; which < 2; ++which) {
      std::vector<int>* pair = which == 0 ? &arms_ : &legs_;
      if (pair->empty()) continue;
      const double d = (jointPos(limbAt((*pair)[0]).joints.front()) - jointPos(limbAt((*pair)[1]).joints.front())).dot(left);
      if (d < 0 && !sides_pinned_[which]) std::swap((*pair)[0], (*pair)[1]);
      if (d < 0 && sides_pinned_[which]) out_.notes.push_back("the schema's left limbs lie on the right (-y) of the found axes");
      for (std::size_t s = 0; s < 2; ++s) {
        const Limb& limb = limbAt((*pair)[s]);
        const int geometric = s == 0 ? 1 : -1;
        if (limb.name_side != 0 && limb.name_side != geometric) {
          out_.notes.push_back(std::string("names disagree with the geometry: the limb ending at '") +
                               g_.links[static_cast<std::size_t>(bodies_[static_cast<std::size_t>(limb.leaf)].front())].name +
                               "' is named " + (limb.name_side > 0 ? "left" : "right") + " but lies on the " +
                               (geometric > 0 ? "left (+y)" : "right (-y)"));
        }
      }
    }
  }

  // ---- points ---------------------------------------------------------------------------------
  /// The link of body `b` to carry a point: the link a limb joint enters it by, when given.
  std::string linkOfBody(int body, int via_joint) const {
    if (via_joint >= 0) {
      const auto& j = g_.joints[static_cast<std::size_t>(via_joint)];
      if (body_of_[static_cast<std::size_t>(j.child)] == body) return g_.links[static_cast<std::size_t>(j.child)].name;
      if (body_of_[static_cast<std::size_t>(j.parent)] == body) return g_.links[static_cast<std::size_t>(j.parent)].name;
    }
    return g_.links[static_cast<std::size_t>(bodies_[static_cast<std::size_t>(body)].front())].name;
  }
  int linkIndex(const std::string& name) const {
    for (std::size_t i = 0; i < g_.links.size(); ++i) {
      if (g_.links[i].name == name) return static_cast<int>(i);
    }
    return -1;
  }
  /// The link of the torso body that arm (or leg) joints leave from.
  std::string branchLink(int body, const std::vector<int>& pair) const {
    if (!pair.empty()) return linkOfBody(body, limbAt(pair[0]).joints.front());
    return linkOfBody(body, -1);
  }

  void addFixed(HumanoidPoint p, const std::string& link, const Eigen::Vector3d& p_B, std::string rule) {
    true_p_B_[static_cast<std::size_t>(p)] = p_B;
    const Eigen::Isometry3d& X = g_.links[static_cast<std::size_t>(linkIndex(link))].X_BL;
    out_.points.push_back(HumanoidPointBinding{p, std::nullopt, link, rigidInverse(X) * p_B, p_B, std::move(rule)});
  }
  void addVector(HumanoidPoint p, HumanoidPoint from, const std::string& link, const Eigen::Vector3d& p_B, std::string rule) {
    const HumanoidPointBinding* base = out_.find(from);
    const Eigen::Matrix3d& R = g_.links[static_cast<std::size_t>(linkIndex(link))].X_BL.linear();
    // The vector between the true key positions (a projected proximal point would carry its
    // projection error into this segment).
    true_p_B_[static_cast<std::size_t>(p)] = p_B;
    Eigen::Vector3d v_L = R.transpose() * (p_B - true_p_B_[static_cast<std::size_t>(from)]);
    const Eigen::Vector3d snapped = v_L.norm() > 1e-12 ? humanoidSnap(v_L.normalized(), Eigen::Matrix3d::Identity(), o_.link_axis_snap_angle) : v_L;
    if (v_L.norm() > 1e-12 && (snapped - v_L.normalized()).norm() > 1e-12) {
      v_L = snapped * snapped.dot(v_L);
      rule += " (projected on the link's axis)";
    }
    out_.points.push_back(HumanoidPointBinding{p, from, link, v_L, base->p_B + R * v_L, std::move(rule)});
  }

  void buildPoints() {
    const bool have_arms = !arms_.empty(), have_legs = !legs_.empty();
    const std::string torso_link = have_arms ? branchLink(torso_body_, arms_) : std::string();
    const std::string pelvis_link = have_legs ? branchLink(pelvis_body_, legs_) : std::string();
    out_.torso_link = torso_link;
    out_.pelvis_link = pelvis_link;
    std::array<Keys, 4> key{};
    for (std::size_t s = 0; s < 2; ++s) {
      if (have_arms) key[s] = keys(limbAt(arms_[s]), s);
      if (have_legs) key[2 + s] = keys(limbAt(legs_[s]), 2 + s);
    }
    using P = HumanoidPoint;
    // Torso points.
    Eigen::Vector3d spine_shoulder = Eigen::Vector3d::Zero(), spine_base = Eigen::Vector3d::Zero();
    if (have_arms) {
      spine_shoulder = 0.5 * (key[0].root + key[1].root);
      addFixed(P::kSpineShoulder, torso_link, spine_shoulder, "midpoint of the shoulders");
    }
    if (have_legs) {
      spine_base = 0.5 * (key[2].root + key[3].root);
      addFixed(P::kSpineBase, pelvis_link, spine_base, "midpoint of the hips");
    }
    if (have_arms && have_legs) {
      addFixed(P::kSpineMid, torso_link, 0.5 * (spine_shoulder + spine_base), "midpoint of SpineBase and SpineShoulder");
    } else if (have_arms) {
      const Eigen::Vector3d up = out_.R_BR.col(2);
      const Eigen::Vector3d origin = g_.links[static_cast<std::size_t>(linkIndex(torso_link))].X_BL.translation();
      const Eigen::Vector3d p = spine_shoulder + up * std::min(0.0, up.dot(origin - spine_shoulder));
      addFixed(P::kSpineMid, torso_link, p, "torso link origin's height below SpineShoulder (no legs)");
    }
    // Head.
    if (head_ >= 0 && have_arms) {
      const Limb& head = limbAt(head_);
      const int last = static_cast<int>(head.joints.size()) - 1;
      std::vector<Eigen::Vector3d> ps, as;
      for (int i = 0; i <= groupEnd(head, 0); ++i) {
        ps.push_back(jointPos(head.joints[static_cast<std::size_t>(i)]));
        as.push_back(jointAxis(head.joints[static_cast<std::size_t>(i)]));
      }
      const Eigen::Vector3d neck = humanoidNearestToLines(ps, as);
      addFixed(P::kNeck, torso_link, neck, "where the first head joints' axes meet");
      // The head's centre of mass (else the midpoint of the neck and the head's tip), straight
      // above the neck.
      double mass = 0;
      Eigen::Vector3d com = Eigen::Vector3d::Zero();
      for (int l : bodies_[static_cast<std::size_t>(head.leaf)]) {
        mass += link_mass_[static_cast<std::size_t>(l)];
        com += link_mass_[static_cast<std::size_t>(l)] * link_com_[static_cast<std::size_t>(l)];
      }
      const Eigen::Vector3d up = out_.R_BR.col(2);
      const Eigen::Vector3d target = mass > 0 ? Eigen::Vector3d(com / mass) : Eigen::Vector3d(0.5 * (neck + head.tip));
      const Eigen::Vector3d p = neck + up * up.dot(target - neck);
      addVector(P::kHead, P::kNeck, linkOfBody(head.bodies[static_cast<std::size_t>(groupEnd(head, last))], head.joints.back()), p,
                "head's centre of mass above the neck");
      fillChain(HumanoidLimb::kHead, head, torso_link, head.joints.front(), -1, -1);
    } else if (const int fixed_head = fixedHeadLink(spine_shoulder); have_arms && fixed_head >= 0) {
      addFixed(P::kHead, g_.links[static_cast<std::size_t>(fixed_head)].name, link_com_[static_cast<std::size_t>(fixed_head)],
               "centre of mass of the head link fixed on the torso");
      out_.missing.push_back("head: fixed on the torso (no head joints; no Neck point)");
    } else {
      out_.missing.push_back(std::string("head: ") +
                             (have_arms ? "no short unpaired limb at the shoulders (a head fixed to the torso has no joints to map)"
                                        : "no arms to find it from"));
    }
    // Arms and legs.
    const std::array<std::array<P, 4>, 4> names = {{{P::kShoulderLeft, P::kElbowLeft, P::kWristLeft, P::kHandLeft},
                                                    {P::kShoulderRight, P::kElbowRight, P::kWristRight, P::kHandRight},
                                                    {P::kHipLeft, P::kKneeLeft, P::kAnkleLeft, P::kFootLeft},
                                                    {P::kHipRight, P::kKneeRight, P::kAnkleRight, P::kFootRight}}};
    for (std::size_t s = 0; s < 4; ++s) {
      const bool arm = s < 2;
      if (arm ? !have_arms : !have_legs) continue;
      const Limb& limb = limbAt(arm ? arms_[s] : legs_[s - 2]);
      const Keys& k = key[s];
      const std::string& base_link = arm ? torso_link : pelvis_link;
      const std::string what = std::string(kHumanoidLimbNames[s]);
      Eigen::Vector3d root = k.root;
      if (!arm && k.bend >= 0) {
        // The hip straight above the knee (same left-right coordinate): a thigh hanging outside
        // the hip's axes (Unitree H1: 11.5 cm) would otherwise lean out at rest.
        const Eigen::Vector3d left = out_.R_BR.col(1);
        root += left * left.dot(jointPos(limb.joints[static_cast<std::size_t>(k.bend)]) - root);
      }
      addFixed(names[s][0], base_link, root,
               arm ? "where the shoulder axes meet" : "where the hip axes meet, above the knee");
      fillChain(static_cast<HumanoidLimb>(s), limb, base_link, limb.joints.front(),
                k.bend >= 0 ? limb.joints[static_cast<std::size_t>(k.bend)] : -1,
                k.distal >= 0 ? limb.joints[static_cast<std::size_t>(k.distal)] : -1);
      if (k.bend < 0) {
        out_.missing.push_back(what + ": no joint where the limb bends (elbow / knee)");
        continue;
      }
      // Segment root -> bend: carried by the body before the bend group.
      const int bs = groupStart(limb, k.bend);
      const int be = groupEnd(limb, k.bend);
      const Eigen::Vector3d bend = jointPos(limb.joints[static_cast<std::size_t>(k.bend)]);
      addVector(names[s][1], names[s][0], bodyLink(limb, bs - 1), bend, arm ? "elbow joint" : "knee joint");
      // Segment bend -> distal.
      const Eigen::Vector3d distal = k.distal >= 0 ? jointPos(limb.joints[static_cast<std::size_t>(k.distal)]) : limb.tip;
      addVector(names[s][2], names[s][1], bodyLink(limb, be), distal,
                k.distal >= 0 ? (arm ? "wrist joint" : "ankle joint") : "tip of the limb (no joint past the bend)");
      if (k.distal < 0) {
        out_.missing.push_back(what + ": no joint past the " + (arm ? "elbow: no hand" : "knee: no foot"));
        continue;
      }
      // End: hand or foot, carried by the body after the distal group.
      const std::string end_link = bodyLink(limb, groupEnd(limb, k.distal));
      if (arm) {
        addVector(names[s][3], names[s][2], end_link, 0.5 * (distal + limb.tip), "midpoint of the wrist and the hand's tip");
      } else {
        const Eigen::Vector3d f = out_.R_BR.col(0), up = out_.R_BR.col(2);
        double ahead = 0, below = 0;
        for (const auto& p : footPoints(limb, k)) {
          ahead = std::max(ahead, f.dot(p - distal));
          below = std::max(below, -up.dot(p - distal));
        }
        addVector(names[s][3], names[s][2], end_link, distal + ahead * f - below * up,
                  "forward-most extent of the foot at its sole");
      }
    }
    // Spine (pelvis -> torso).
    if (have_arms && have_legs && torso_body_ != pelvis_body_) out_.spine_joints = pathJoints(pelvis_body_, torso_body_);
  }

  /// A link of the torso body named like a head, with mass, whose centre of mass is above the
  /// shoulders (Unitree G1's head_link); -1 when there is none.
  int fixedHeadLink(const Eigen::Vector3d& spine_shoulder) const {
    if (torso_body_ < 0) return -1;
    for (int l : bodies_[static_cast<std::size_t>(torso_body_)]) {
      if (!humanoidNameHas(g_.links[static_cast<std::size_t>(l)].name, {"head"}) || !(link_mass_[static_cast<std::size_t>(l)] > 0)) continue;
      if (out_.R_BR.col(2).dot(link_com_[static_cast<std::size_t>(l)] - spine_shoulder) > 0) return l;
    }
    return -1;
  }

  /// The link carrying a segment: the body after limb joint `i` (i = -1: the branch body).
  std::string bodyLink(const Limb& limb, int i) const {
    if (i < 0) return linkOfBody(limb.branch, limb.joints.front());
    return linkOfBody(limb.bodies[static_cast<std::size_t>(i)], limb.joints[static_cast<std::size_t>(i)]);
  }

  void fillChain(HumanoidLimb which, const Limb& limb, const std::string& base_link, int root, int bend, int distal) {
    HumanoidChain& c = out_.limbs[static_cast<std::size_t>(which)];
    c.found = true;
    c.base_link = base_link;
    c.end_link = linkOfBody(limb.leaf, limb.joints.back());
    for (int j : limb.joints) {
      if (g_.joints[static_cast<std::size_t>(j)].q < 0) continue;  // mimic joints follow another
      c.joints.push_back(j);
      c.q.push_back(g_.joints[static_cast<std::size_t>(j)].q);
    }
    c.root_joint = g_.joints[static_cast<std::size_t>(root)].name;
    if (bend >= 0) c.bend_joint = g_.joints[static_cast<std::size_t>(bend)].name;
    if (distal >= 0) c.distal_joint = g_.joints[static_cast<std::size_t>(distal)].name;
  }

  /// Bodies on the path from `a` to `b`, both included.
  std::vector<int> pathBodies(int a, int b) const {
    std::vector<int> prev(bodies_.size(), -2);
    std::vector<int> queue{a};
    prev[static_cast<std::size_t>(a)] = -1;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      for (const auto& e : adjacency_[static_cast<std::size_t>(queue[h])]) {
        if (prev[static_cast<std::size_t>(e.other)] != -2) continue;
        prev[static_cast<std::size_t>(e.other)] = queue[h];
        queue.push_back(e.other);
      }
    }
    std::vector<int> out;
    for (int cur = b; cur >= 0; cur = prev[static_cast<std::size_t>(cur)]) out.push_back(cur);
    std::reverse(out.begin(), out.end());
    return out;
  }

  /// Joints on the body path from `a` to `b` (breadth-first over live and pruned bodies).
  std::vector<int> pathJoints(int a, int b) const {
    std::vector<int> via(bodies_.size(), -2), prev(bodies_.size(), -1);
    std::vector<int> queue{a};
    via[static_cast<std::size_t>(a)] = -1;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      const int cur = queue[h];
      for (const auto& e : adjacency_[static_cast<std::size_t>(cur)]) {
        if (via[static_cast<std::size_t>(e.other)] != -2) continue;
        via[static_cast<std::size_t>(e.other)] = e.joint;
        prev[static_cast<std::size_t>(e.other)] = cur;
        queue.push_back(e.other);
      }
    }
    std::vector<int> out;
    for (int cur = b; cur != a && cur >= 0; cur = prev[static_cast<std::size_t>(cur)]) out.push_back(via[static_cast<std::size_t>(cur)]);
    std::reverse(out.begin(), out.end());
    return out;
  }

  static std::string fixed3(double v) {
    char buffer[32];
    std::snprintf(buffer, sizeof(buffer), "%.3f", v);
    return buffer;
  }

 public:
  /// Mass (kg) and centre of mass (m, frame B) of every link, set by the front end.
  std::vector<double> link_mass_{};
  std::vector<Eigen::Vector3d> link_com_{};

 private:
  const HumanoidGeometry& g_;
  const HumanoidBindingOptions& o_;
  HumanoidBinding out_;
  std::vector<int> body_of_;
  std::vector<std::vector<int>> bodies_;
  std::vector<std::vector<Eigen::Vector3d>> body_points_;
  std::vector<std::vector<Edge>> adjacency_;
  std::vector<bool> alive_;
  double size_ = 1;
  std::vector<Limb> limbs_;
  std::vector<int> arms_, legs_;
  int head_ = -1;
  std::string pruned_;
  int forced_branch_ = -1;
  std::array<bool, 2> sides_pinned_{};  // arms, legs
  std::array<Eigen::Vector3d, kHumanoidPointCount> true_p_B_{};
  int torso_body_ = -1, pelvis_body_ = -1;
};

}  // namespace internal

template <typename Scalar>
HumanoidBinding bindHumanoid(const RobotModel<Scalar>& model, const HumanoidBindingOptions& options) {
  options.validate();
  RobotData<Scalar> data(model);
  forwardKinematics(model, data, model.neutralConfiguration());
  internal::HumanoidGeometry g;
  g.robot = model.name();
  const auto& links = model.links();
  g.links.resize(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    auto& info = g.links[i];
    info.name = links[i].name;
    info.X_BL = data.X_WL[i].template cast<double>();
    info.points.push_back(info.X_BL.translation());
    if (links[i].inertial.mass > Scalar(0)) info.points.push_back(info.X_BL * links[i].inertial.p_LCm.template cast<double>());
    for (const auto& shape : links[i].collisions) {
      info.points.push_back(info.X_BL * shape.capsule_L.a.template cast<double>());
      info.points.push_back(info.X_BL * shape.capsule_L.b.template cast<double>());
    }
  }
  for (const auto& joint : model.joints()) {
    internal::HumanoidGeometry::JointInfo info;
    info.name = joint.name;
    info.parent = joint.parent_link;
    info.child = joint.child_link;
    info.q = joint.q_index;
    info.type_fixed = !joint.moves();
    const Eigen::Isometry3d X_BJ =
        data.X_WL[static_cast<std::size_t>(joint.parent_link)].template cast<double>() * joint.X_PJ.template cast<double>();
    info.p_B = X_BJ.translation();
    info.axis_B = (X_BJ.linear() * joint.axis.template cast<double>()).normalized();
    g.joints.push_back(std::move(info));
  }
  internal::HumanoidBinder<> binder(g, options);
  // Head centre of mass: mass-weighted over every link (used for the leaf head body only).
  binder.link_mass_.resize(links.size());
  binder.link_com_.resize(links.size());
  for (std::size_t i = 0; i < links.size(); ++i) {
    binder.link_mass_[i] = static_cast<double>(links[i].inertial.mass);
    binder.link_com_[i] = g.links[i].X_BL * links[i].inertial.p_LCm.template cast<double>();
  }
  return binder.run();
}

}  // namespace retarget
