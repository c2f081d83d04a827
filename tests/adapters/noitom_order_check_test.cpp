// NoitomRotationOrderCheck on real recordings: each shared BVH take is "broadcast" in its own
// rotation order and read with a hierarchy whose order is another (the channels' axis letters
// changed, the values kept: what a receiver with the wrong template sees); the check must name
// the take's true order, and must stay silent when the orders agree and on a pose that gives no
// evidence (the rest pose held).

#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <retarget/adapters/noitom/rotation_order_check.hpp>
#include <retarget/io/bvh.hpp>

#include "support/test_support.hpp"

using namespace retarget;

namespace {

// The hierarchy with every joint's rotation channels relabelled to `order` (values unchanged).
BvhMotion relabelledRotations(const BvhMotion& motion, const std::string& order) {
  BvhMotion relabelled = motion;
  for (BvhJoint& joint : relabelled.joints) {
    std::size_t r = 0;
    for (BvhChannel& channel : joint.channels) {
      if (isRotation(channel)) channel = static_cast<BvhChannel>(3 + (order[r++] - 'X'));
    }
  }
  return relabelled;
}

NoitomOrderReport checkTake(const BvhMotion& hierarchy, const BvhMotion& take, int stride) {
  NoitomOrderCheckOptions options;
  options.stride = stride;
  options.frames = std::min(120, take.frame_count / stride);
  NoitomRotationOrderCheck check(hierarchy, options);
  for (int f = 0; f < take.frame_count && !check.ready(); ++f) check.add(take.frameValues(f));
  REQUIRE(check.ready());
  return check.report();
}

}  // namespace

TEST_CASE("Rotation order check: the true order of every shared take is found; agreeing orders stay silent") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const char* const kTakes[] = {"noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh",
                                "cmu_skeleton31_deepmotionediting_example.bvh", "xia_cmu_skeleton31_neutral_walk_01_000.bvh",
                                "xia_cmu_skeleton31_strutting_walk_01_000.bvh", "mixamo_rig_55j_fingers_20tab_test_freebvh.bvh"};
  const char* const kOrders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
  int mismatches_found = 0, with_evidence = 0;
  for (const char* const name_text : kTakes) {
    const std::string name = name_text;
    CAPTURE(name);
    const BvhMotion take = readBvh(data_dir / "bvh" / name);
    const int stride = take.frame_count >= 480 ? 4 : 2;
    const NoitomOrderReport same = checkTake(take, take, stride);
    MESSAGE(name, ": own order ", same.hierarchy_order, " spread ", same.hierarchy_spread, " (hip height ", same.hip_height,
            "), least ", same.likely_order, " ", same.likely_spread);
    CHECK_FALSE(same.mismatch);
    for (const char* const order_text : kOrders) {
      const std::string order = order_text;
      if (order == same.hierarchy_order) continue;
      const NoitomOrderReport other = checkTake(relabelledRotations(take, order), take, stride);
      CAPTURE(order);
      CHECK(other.hierarchy_order == order);
      // The take's true order keeps the floor best whenever the orders differ at all.
      if (other.hierarchy_spread > 0) {
        ++with_evidence;
        CHECK(other.likely_order == same.hierarchy_order);
      }
      // Never a wrong accusation: a mismatch names the take's true order.
      if (other.mismatch) {
        CHECK(other.likely_order == same.hierarchy_order);
        ++mismatches_found;
      }
      MESSAGE("  read as ", order, ": spread ", other.hierarchy_spread, ", least ", other.likely_order, " ",
              other.likely_spread, other.mismatch ? "  -> mismatch" : "");
    }
  }
  // The Axis Neuron take keeps its legs still (every order puts the feet at one height): no
  // evidence, no verdict. The walks and the CMU and Mixamo takes give evidence for every order.
  MESSAGE("mismatches found: ", mismatches_found, " of ", with_evidence, " wrong orders with evidence");
  CHECK(with_evidence == 20);
  CHECK(mismatches_found * 4 >= with_evidence * 3);
}

TEST_CASE("Rotation order check: no evidence, no verdict (the rest pose held; too few frames)") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion take = readBvh(data_dir / "bvh" / "noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh");
  const BvhMotion rest = bvhRestPose(take);
  NoitomRotationOrderCheck check(relabelledRotations(take, "ZXY"));
  for (int f = 0; f < 1000 && !check.ready(); ++f) check.add(rest.frameValues(0));
  REQUIRE(check.ready());
  CHECK_FALSE(check.report().mismatch);
  NoitomRotationOrderCheck few(relabelledRotations(take, "ZXY"));
  for (int f = 0; f < 20; ++f) few.add(take.frameValues(f));
  CHECK_FALSE(few.ready());
  CHECK_FALSE(few.report().mismatch);
  CHECK_THROWS_WITH_AS(NoitomRotationOrderCheck(take, NoitomOrderCheckOptions{5, 4, 0.08, 0.5}), doctest::Contains("frames"),
                       InvalidArgument);
  // Joints in different orders: no single broadcast order to check.
  BvhMotion mixed = take;
  std::swap(mixed.joints[3].channels[0], mixed.joints[3].channels[1]);
  NoitomRotationOrderCheck unchecked(mixed);
  CHECK_FALSE(unchecked.applicable());
  CHECK(unchecked.add(take.frameValues(0)));
  CHECK_FALSE(unchecked.report().mismatch);
}
