// Automatic rig binding (human/rig_binding.hpp): the generated corpus of tests/rig/rig_corpus.hpp
// (every naming family, cm / m / inches, Y-up / Z-up, four facings, T-pose / A-pose, six channel
// orders) binds to the same canonical roles and gives the canonical positions of the known motion
// to 1e-9 m; the shared BVH files keep their built-in schemas and the binder agrees with them;
// errors name what is missing; overrides and the schema text round trip.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <sstream>

#include <retarget/human/rig_binding.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>

#include "rig/rig_corpus.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {

using J = HumanJoint;

// The abstract joints each canonical joint must come from (first, second, weight), by the rules
// stated in rig_binding.hpp applied to the corpus body (3 spine joints, 1 neck joint, head tip,
// hand tip, toe joint).
struct Expected {
  J joint;
  int first;
  int second;
  double weight;
};
const std::vector<Expected>& expectedRoles() {
  static const std::vector<Expected> kExpected = {
      {J::kSpineBase, kBodyHips, -1, 0},          {J::kSpineMid, kBodySpine1, -1, 0},
      {J::kSpineShoulder, kBodyNeck, -1, 0},      {J::kNeck, kBodyNeck, kBodyHead, 0.5},
      {J::kHead, kBodyHead, kBodyHeadTop, 0.5},   {J::kShoulderLeft, kBodyUpperArmL, -1, 0},
      {J::kElbowLeft, kBodyForeArmL, -1, 0},      {J::kWristLeft, kBodyHandL, -1, 0},
      {J::kHandLeft, kBodyHandL, kBodyHandEndL, 0.5}, {J::kHandTipLeft, kBodyHandEndL, -1, 0},
      {J::kShoulderRight, kBodyUpperArmR, -1, 0}, {J::kElbowRight, kBodyForeArmR, -1, 0},
      {J::kWristRight, kBodyHandR, -1, 0},        {J::kHandRight, kBodyHandR, kBodyHandEndR, 0.5},
      {J::kHandTipRight, kBodyHandEndR, -1, 0},   {J::kHipLeft, kBodyThighL, -1, 0},
      {J::kKneeLeft, kBodyShinL, -1, 0},          {J::kAnkleLeft, kBodyFootL, -1, 0},
      {J::kFootLeft, kBodyToeL, -1, 0},           {J::kHipRight, kBodyThighR, -1, 0},
      {J::kKneeRight, kBodyShinR, -1, 0},         {J::kAnkleRight, kBodyFootR, -1, 0},
      {J::kFootRight, kBodyToeR, -1, 0},
  };
  return kExpected;
}

int bodyOf(const BvhMotion& motion, const std::vector<int>& body, const std::string& name) {
  const int j = findSchemaJoint(motion, name);
  return j < 0 ? -1 : body[static_cast<std::size_t>(j)];
}

BvhMotion removeSubtree(const BvhMotion& motion, int top) {
  BvhMotion out;
  std::vector<int> new_index(motion.joints.size(), -1);
  for (std::size_t j = 0; j < motion.joints.size(); ++j) {
    bool inside = false;
    for (int a = static_cast<int>(j); a >= 0; a = motion.joints[static_cast<std::size_t>(a)].parent) inside = inside || a == top;
    if (inside) continue;
    BvhJoint joint = motion.joints[j];
    if (joint.parent >= 0) joint.parent = new_index[static_cast<std::size_t>(joint.parent)];
    new_index[j] = static_cast<int>(out.joints.size());
    out.joints.push_back(joint);
  }
  out.assignChannelIndices();
  out.frame_time = motion.frame_time;
  out.frame_count = motion.frame_count;
  for (int f = 0; f < motion.frame_count; ++f) {
    for (std::size_t j = 0; j < motion.joints.size(); ++j) {
      if (new_index[j] < 0) continue;
      const BvhJoint& joint = motion.joints[j];
      for (std::size_t c = 0; c < joint.channels.size(); ++c) {
        out.values.push_back(motion.frame(f)[static_cast<std::size_t>(joint.first_channel) + c]);
      }
    }
  }
  return out;
}

}  // namespace

TEST_CASE("rig binding: joint names give sides and body parts in every naming family") {
  struct Case {
    const char* name;
    int side;
    std::uint32_t word;
  };
  using namespace retarget::internal;
  const Case cases[] = {
      {"LeftUpLeg", 1, kRigWordThigh},        {"mixamorig:RightForeArm", -1, kRigWordForeArm},
      {"rig7:LeftArm", 1, kRigWordUpperArm},  {"LHipJoint", 1, kRigWordHipSide},
      {"UpperArm_L", 1, kRigWordUpperArm},    {"LowerLeg_R", -1, kRigWordShin},
      {"upper_arm.L", 1, kRigWordUpperArm},   {"forearm.R", -1, kRigWordForeArm},
      {"lShldr", 1, kRigWordShoulder},        {"rForeArm", -1, kRigWordForeArm},
      {"Skeleton_LUArm", 1, kRigWordUpperArm}, {"Skeleton_RFArm", -1, kRigWordForeArm},
      {"Lft_Clavicle", 1, kRigWordCollar},    {"Rgt_Calf", -1, kRigWordShin},
      {"left_hip", 1, kRigWordThigh},         {"right_ankle", -1, kRigWordFoot},
      {"LeftCollar", 1, kRigWordCollar},      {"RightToeBase", -1, kRigWordToe},
      {"L5", 0, kRigWordSpine},               {"T12", 0, kRigWordSpine},
      {"Hips", 0, kRigWordHips},              {"Skeleton_Hip", 0, kRigWordHips},
      {"HeadTop_End", 0, kRigWordTop},        {"LeftThigh", 1, kRigWordThigh},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const RigName info = rigName(c.name);
    CHECK(info.side == c.side);
    CHECK((info.words & c.word) != 0u);
  }
}

TEST_CASE("rig binding: every corpus variant binds to the same canonical roles, units and frame") {
  const RigKnownMotion known = rigKnownMotion(2, 11);
  const auto variants = rigVariants();
  REQUIRE(variants.size() >= 15 * 24);
  std::map<std::string, int> by_family;
  for (const RigVariant& v : variants) {
    CAPTURE(v.label());
    std::vector<int> body;
    const BvhMotion motion = rigVariantMotion(v, known, &body);
    REQUIRE(detectSchema(motion) == nullptr);  // none of them is a built-in rig
    const RigBinding b = bindRig(motion);
    REQUIRE(v.R_WS.determinant() == doctest::Approx(1.0));
    CHECK(b.scale == v.metres_per_unit);
    CHECK(b.R_WS == v.R_WS);
    CHECK(b.sides_from_names == (v.family->name != "anonymous"));
    CHECK(b.confidence > 0.4);
    CHECK(b.guesses.size() >= 3);
    for (const Expected& e : expectedRoles()) {
      CAPTURE(name(e.joint));
      const SchemaJointSource* src = b.schema.source(e.joint);
      REQUIRE(src != nullptr);
      CHECK(bodyOf(motion, body, src->first) == e.first);
      CHECK((src->second.empty() ? -1 : bodyOf(motion, body, src->second)) == e.second);
      CHECK(src->weight == e.weight);
    }
    // Per-joint roles and sides.
    CHECK(body[static_cast<std::size_t>(b.arms[0].collar)] == kBodyCollarL);
    CHECK(body[static_cast<std::size_t>(b.arms[1].collar)] == kBodyCollarR);
    CHECK(b.joints[static_cast<std::size_t>(b.arms[0].upper_arm)].side == RigSide::kLeft);
    CHECK(b.joints[static_cast<std::size_t>(b.legs[1].shin)].side == RigSide::kRight);
    CHECK(b.joints[static_cast<std::size_t>(b.arms[0].collar)].role == RigRole::kCollar);
    CHECK(b.joints[static_cast<std::size_t>(b.legs[0].toe)].role == RigRole::kToe);
    ++by_family[v.family->name];
  }
  CHECK(by_family.size() == rigFamilies().size());
}

TEST_CASE("rig binding: a known motion through every variant gives the same canonical positions (1e-9 m)") {
  const RigKnownMotion known = rigKnownMotion(12, 2024);
  double worst = 0;
  for (const RigVariant& v : rigVariants()) {
    CAPTURE(v.label());
    const BvhMotion motion = rigVariantMotion(v, known);
    const SkeletonMotion<double> skeleton = bvhToSkeleton(motion);  // the automatic fallback
    CHECK(skeleton.format == "bvh/auto");
    REQUIRE(skeleton.size() == known.local.size());
    for (std::size_t f = 0; f < skeleton.size(); ++f) {
      const auto p = rigKnownPositions(known, static_cast<int>(f));
      for (const Expected& e : expectedRoles()) {
        const Eigen::Vector3d want =
            e.second < 0 ? p[static_cast<std::size_t>(e.first)]
                         : Eigen::Vector3d((1 - e.weight) * p[static_cast<std::size_t>(e.first)] +
                                           e.weight * p[static_cast<std::size_t>(e.second)]);
        const double error = (skeleton.frames[f].position(e.joint) - want).norm();
        worst = std::max(worst, error);
        CHECK_MESSAGE(error < 1e-9, name(e.joint) << " frame " << f);
        CHECK(skeleton.frames[f].trackingState(e.joint) == TrackingState::kTracked);
      }
    }
  }
  MESSAGE("worst canonical position error over the corpus: " << worst << " m");
}

TEST_CASE("rig binding: sibling order and extra leaves do not change the binding") {
  std::mt19937 rng(5);
  const RigKnownMotion known = rigKnownMotion(3, 9);
  for (const RigFamily& family : rigFamilies()) {
    RigVariant v;
    v.family = &family;
    v.a_pose = true;
    const BvhMotion base = rigVariantMotion(v, known);
    const SkeletonMotion<double> want = bvhToSkeleton(base);
    // Add short twist leaves (End Sites) under every limb joint: not significant, not in a chain
    // unless they are the longest child (they are shorter than every bone here).
    BvhMotion extra = base;
    const std::size_t n = extra.joints.size();
    std::uniform_real_distribution<double> tiny(-0.2, 0.2);
    std::vector<bool> has_child(n, false);
    for (const BvhJoint& joint : extra.joints) {
      if (joint.parent >= 0) has_child[static_cast<std::size_t>(joint.parent)] = true;
    }
    for (std::size_t j = 1; j < n; ++j) {
      if (!has_child[j]) continue;  // a leaf joint's only child would continue its chain
      BvhJoint leaf;
      leaf.name = extra.joints[j].name + "_Twist";
      leaf.parent = static_cast<int>(j);
      leaf.offset = Eigen::Vector3d(tiny(rng), tiny(rng), tiny(rng));
      leaf.is_end_site = true;
      extra.joints.push_back(leaf);
    }
    // Re-sort into depth-first order (parents before children holds: leaves come last).
    extra.assignChannelIndices();
    const SkeletonMotion<double> got = bvhToSkeleton(extra);
    CAPTURE(family.name);
    for (std::size_t f = 0; f < got.size(); ++f) {
      for (int k = 0; k < kHumanJointCount; ++k) {
        CHECK((got.frames[f].p_W[static_cast<std::size_t>(k)] - want.frames[f].p_W[static_cast<std::size_t>(k)]).norm() < 1e-12);
      }
    }
  }
}

TEST_CASE("rig binding: overrides replace the guesses; the schema survives the text format") {
  const RigKnownMotion known = rigKnownMotion(3, 3);
  RigVariant v;
  v.family = &rigFamilies().front();
  v.metres_per_unit = 0.0254;
  v.R_WS = rigFrames()[1].second;
  const BvhMotion motion = rigVariantMotion(v, known);
  const RigBinding guessed = bindRig(motion);
  CHECK(guessed.unit == "in");
  RigBindingOptions options;
  options.scale = 0.03;
  options.R_WS = rigFrames()[3].second;
  options.name = "mine";
  const RigBinding given = bindRig(motion, options);
  CHECK(given.scale == 0.03);
  CHECK(given.unit == "given");
  CHECK(given.R_WS == *options.R_WS);
  CHECK(given.schema.name == "mine");
  for (const auto& g : given.guesses) {
    CHECK(g.find("units") == std::string::npos);
    CHECK(g.find("up axis") == std::string::npos);
  }
  RigBindingOptions bad;
  bad.scale = -1;
  CHECK_THROWS_WITH_AS(bindRig(motion, bad), doctest::Contains("scale"), InvalidArgument);
  // Text round trip: the suggested schema file reproduces the binding exactly.
  const SkeletonSchema parsed = parseSchema(formatSchema(guessed.schema), "suggested.schema");
  CHECK(parsed.joints == guessed.schema.joints);
  CHECK(parsed.R_WS == guessed.schema.R_WS);
  CHECK(parsed.scale == guessed.schema.scale);
  const auto a = bvhToSkeleton(motion, parsed);
  const auto b = bvhToSkeleton(motion);
  for (std::size_t f = 0; f < a.size(); ++f) CHECK(a.frames[f].p_W == b.frames[f].p_W);
}

TEST_CASE("rig binding: errors name what is missing; the file can still be read and converted with a schema") {
  const RigKnownMotion known = rigKnownMotion(2, 1);
  RigVariant v;
  v.family = &rigFamilies().front();
  std::vector<int> body;
  const BvhMotion full = rigVariantMotion(v, known, &body);
  auto indexOf = [&](int abstract) {
    return static_cast<int>(std::find(body.begin(), body.end(), abstract) - body.begin());
  };
  const BvhMotion no_arm = removeSubtree(full, indexOf(kBodyCollarR));
  CHECK_THROWS_WITH_AS(bindRig(no_arm), doctest::Contains("missing an arm or the head"), InvalidArgument);
  CHECK_THROWS_WITH_AS(bvhToSkeleton(no_arm), doctest::Contains("no built-in schema matches"), InvalidArgument);
  CHECK_THROWS_WITH_AS(bvhToSkeleton(no_arm), doctest::Contains("missing an arm"), InvalidArgument);
  const BvhMotion no_leg = removeSubtree(full, indexOf(kBodyThighL));
  CHECK_THROWS_WITH_AS(bindRig(no_leg), doctest::Contains("no hips found"), InvalidArgument);
  const BvhMotion no_head = removeSubtree(full, indexOf(kBodyNeck));
  CHECK_THROWS_WITH_AS(bindRig(no_head), doctest::Contains("expected 3 (neck/head and two arms)"), InvalidArgument);
  const BvhMotion single = parseBvh(
      "HIERARCHY\nROOT pelvis\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n}\n"
      "MOTION\nFrames: 0\nFrame Time: 0.1\n");
  CHECK_THROWS_WITH_AS(bindRig(single), doctest::Contains("zero size"), InvalidArgument);
  // Still readable and convertible: write and read the one-armed file, convert with a schema.
  std::ostringstream text;
  writeBvh(no_arm, text);
  const BvhMotion back = parseBvh(text.str(), "no_arm.bvh");
  SkeletonSchema schema;
  schema.name = "one-arm";
  schema.scale = 0.01;
  schema.set(J::kSpineBase, "Hips");
  schema.set(J::kShoulderLeft, "LeftArm");
  const auto converted = bvhToSkeleton(back, schema);
  CHECK(converted.size() == 2);
  CHECK(converted.frames[0].usable(J::kShoulderLeft));
}

TEST_CASE("rig binding: every shared BVH keeps its built-in schema, and the binder agrees with it") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  int files = 0;
  for (const auto& item : std::filesystem::directory_iterator(data_dir / "bvh")) {
    if (item.path().extension() != ".bvh") continue;
    CAPTURE(item.path().filename().string());
    const BvhMotion motion = readBvh(item.path());
    const SkeletonSchema* builtin = detectSchema(motion);
    REQUIRE(builtin != nullptr);
    // Built-ins keep priority: the fallback path is bit-identical to the built-in schema.
    const auto a = bvhToSkeleton(motion);
    const auto b = bvhToSkeleton(motion, *builtin);
    CHECK(a.format == b.format);
    for (std::size_t f = 0; f < a.size(); ++f) {
      CHECK(a.frames[f].p_W == b.frames[f].p_W);
    }
    // The binder, run anyway, finds the same frame, scale and limb joints.
    const RigBinding binding = bindRig(motion);
    CHECK(binding.R_WS == builtin->R_WS);
    CHECK(binding.scale == doctest::Approx(builtin->scale).epsilon(1e-12));
    CHECK(binding.sides_from_names);
    for (J joint : {J::kSpineBase, J::kShoulderLeft, J::kElbowLeft, J::kWristLeft, J::kShoulderRight, J::kElbowRight,
                    J::kWristRight, J::kHipLeft, J::kKneeLeft, J::kAnkleLeft, J::kHipRight, J::kKneeRight,
                    J::kAnkleRight, J::kSpineShoulder, J::kFootLeft, J::kFootRight}) {
      CAPTURE(name(joint));
      const int want = findSchemaJoint(motion, builtin->source(joint)->first);
      const int got = findSchemaJoint(motion, binding.schema.source(joint)->first);
      CHECK(want == got);
    }
    ++files;
  }
  CHECK(files == 6);  // MANIFEST.md: 6 BVH files
}
