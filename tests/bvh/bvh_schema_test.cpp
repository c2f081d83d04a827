// Skeleton schemas: built-in BVH schemas on the shared files, detection, the text format and
// the conversion of BVH motions into canonical skeleton motions.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include <retarget/human/bvh_schemas.hpp>
#include <retarget/human/schema.hpp>
#include <retarget/io/bvh.hpp>
#include <retarget/io/bvh_skeleton.hpp>

#include "bvh/bvh_test_util.hpp"
#include "support/test_support.hpp"

using namespace retarget;

namespace {

using J = HumanJoint;

ParseError schemaError(const std::string& text) {
  try {
    (void)parseSchema(text, "rig.schema");
  } catch (const ParseError& error) {
    return error;
  }
  FAIL("expected a ParseError");
  return ParseError("", 0, "");
}

// Anatomical checks on one canonical frame of a person standing upright (rest pose or walking).
void checkUprightAnatomy(const SkeletonFrame<double>& frame, double foot_tolerance = 0) {
  // Body axes from the torso: up = SpineBase -> SpineShoulder, left = right -> left shoulder.
  const Eigen::Vector3d up = (frame.position(J::kSpineShoulder) - frame.position(J::kSpineBase)).normalized();
  const Eigen::Vector3d left = (frame.position(J::kShoulderLeft) - frame.position(J::kShoulderRight)).normalized();
  const Eigen::Vector3d forward = left.cross(up);
  CHECK(up.z() > 0.8);                                                     // standing: z up
  CHECK(frame.position(J::kHead).z() > frame.position(J::kNeck).z());
  CHECK(frame.position(J::kNeck).z() > frame.position(J::kSpineShoulder).z() - 1e-9);
  CHECK(frame.position(J::kSpineMid).z() > frame.position(J::kSpineBase).z());
  CHECK(frame.position(J::kHead).z() > frame.position(J::kAnkleLeft).z() + 1.0);  // metres
  // Left hip is on the same side as the left shoulder (no mirrored limbs).
  CHECK((frame.position(J::kHipLeft) - frame.position(J::kHipRight)).dot(left) > 0);
  // Feet point forward (toes ahead of the ankles): checks the handedness of the frame. While
  // walking, the foot can point almost straight down at push-off and the shoulder line twists:
  // `foot_tolerance` is the allowed backward cosine.
  CHECK((frame.position(J::kFootLeft) - frame.position(J::kAnkleLeft)).normalized().dot(forward) > -foot_tolerance);
  CHECK((frame.position(J::kFootRight) - frame.position(J::kAnkleRight)).normalized().dot(forward) > -foot_tolerance);
}

}  // namespace

TEST_CASE("schemas: the built-in schemas are valid and survive the text format") {
  for (const SkeletonSchema* schema : builtInBvhSchemas()) {
    CAPTURE(schema->name);
    CHECK_NOTHROW(validateSchema(*schema));
    const std::string text = formatSchema(*schema);
    const SkeletonSchema back = parseSchema(text, "format.schema");
    CHECK(back.name == schema->name);
    CHECK(back.scale == schema->scale);
    CHECK(back.R_WS == schema->R_WS);
    CHECK(back.joints == schema->joints);
    CHECK(formatSchema(back) == text);
  }
}

TEST_CASE("schemas: text format parses settings, blends, comments and namespaces") {
  const SkeletonSchema schema = parseSchema(
      "# my rig\n"
      "name: my-rig\r\n"
      "frame: up=+Y forward=-X left=+Z   # facing -X\n"
      "\n"
      "scale: 0.025\n"
      "SpineBase = Pelvis\n"
      "  SpineMid =\tChest  Pelvis 0.25  \n");
  CHECK(schema.name == "my-rig");
  CHECK(schema.scale == 0.025);
  Eigen::Matrix3d expected;
  expected << -1, 0, 0, 0, 0, 1, 0, 1, 0;
  CHECK(schema.R_WS == expected);
  CHECK(schema.source(J::kSpineBase)->first == "Pelvis");
  CHECK(schema.source(J::kSpineMid)->second == "Pelvis");
  CHECK(schema.source(J::kSpineMid)->weight == 0.25);
  CHECK(schema.source(J::kHead) == nullptr);
  CHECK(schema.sourceNames() == std::vector<std::string>{"Pelvis", "Chest"});
  CHECK(schemaNameMatches("mixamorig:Hips", "Hips"));
  CHECK(schemaNameMatches("a:b:Hips", "Hips"));
  CHECK_FALSE(schemaNameMatches("mixamorig:Hips", "Hip"));
  CHECK_FALSE(schemaNameMatches("MyHips", "Hips"));
}

TEST_CASE("schemas: text format errors name the file, line and what was expected") {
  struct Case {
    const char* text;
    std::size_t line;
    const char* message;
  };
  const Case cases[] = {
      {"name: x\nSpineMiddle = A\n", 2, "unknown canonical joint 'SpineMiddle', expected a Kinect v2 name"},
      {"name: x\nSpineMid = A B 1.5\n", 2, "expected a blend weight in [0, 1], got '1.5'"},
      {"name: x\nSpineMid = A B\n", 2, "expected one source joint, or two and a weight"},
      {"name: x\nSpineMid A\n", 2, "expected '<CanonicalJoint> = <source> [<source2> <weight>]'"},
      {"name: x\nHead = A\nHead = B\n", 3, "canonical joint Head is mapped twice"},
      {"name: x\n\nframe: forward=+Z left=+Y up=+X\n", 3, "is not a right-handed rotation"},
      {"name: x\nframe: forward=+Z left=+Z up=+Y\n", 2, "is not a right-handed rotation"},
      {"name: x\nframe: forward=+Z up=+Y\n", 2, "expected forward=, left= and up="},
      {"name: x\nframe: forward=+W left=+X up=+Y\n", 2, "got 'forward=+W'"},
      {"name: x\nscale: -1\n", 2, "expected a positive scale in metres per unit, got '-1'"},
      {"name: x\nscale: 1cm\n", 2, "got '1cm'"},
      {"name: x\nunits: cm\n", 2, "unknown setting 'units', expected name, frame or scale"},
      {"Head = A\n", 0, "missing 'name: <schema name>'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.text);
    const ParseError error = schemaError(c.text);
    CHECK(error.line() == c.line);
    CHECK(error.file() == "rig.schema");
    CHECK_MESSAGE(std::string(error.what()).find(c.message) != std::string::npos, error.what());
  }
  // Invariants of hand-built schemas.
  SkeletonSchema schema = axisNeuronSchema();
  schema.R_WS = Eigen::AngleAxisd(0.3, Eigen::Vector3d(1, 2, 3).normalized()).toRotationMatrix();
  CHECK_NOTHROW(validateSchema(schema));  // any rotation is fine in code
  CHECK_THROWS_WITH_AS(formatSchema(schema), doctest::Contains("expected an axis-aligned frame"), InvalidArgument);
  schema.R_WS = -Eigen::Matrix3d::Identity();
  CHECK_THROWS_WITH_AS(validateSchema(schema), doctest::Contains("is not a rotation"), InvalidArgument);
  schema = axisNeuronSchema();
  schema.scale = 0;
  CHECK_THROWS_WITH_AS(validateSchema(schema), doctest::Contains("scale is 0, expected a finite value > 0"),
                       InvalidArgument);
  schema = axisNeuronSchema();
  schema.set(HumanJoint::kHead, "A", "B", 2.0);
  CHECK_THROWS_WITH_AS(validateSchema(schema), doctest::Contains("joint Head weight is 2, expected a value in [0, 1]"),
                       InvalidArgument);
  CHECK_THROWS_WITH_AS(readSchema("/nonexistent/rig.schema"), doctest::Contains("/nonexistent/rig.schema: cannot open"),
                       ParseError);
}

TEST_CASE("schemas: detection by joint names on every shared file") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const auto& facts : test::sharedBvhFiles()) {
    const std::string file_name = facts.file;
    CAPTURE(file_name);
    const BvhMotion motion = readBvh(data_dir / "bvh" / facts.file);
    const SkeletonSchema* schema = detectSchema(motion);
    REQUIRE(schema != nullptr);
    CHECK(schema->name == std::string(facts.schema));
    const BvhSchemaBinding binding = bindSchema(motion, *schema);
    CHECK(binding.missing.empty());
    for (bool resolved : binding.resolved) CHECK(resolved);
  }
  // A rig that none of them describes.
  const BvhMotion unknown = parseBvh(
      "HIERARCHY\nROOT pelvis\n{\nOFFSET 0 0 0\nCHANNELS 3 Xrotation Yrotation Zrotation\n}\n"
      "MOTION\nFrames: 0\nFrame Time: 0.1\n");
  CHECK(detectSchema(unknown) == nullptr);
  CHECK_THROWS_WITH_AS(bvhToSkeleton(unknown), doctest::Contains("no built-in schema matches"), InvalidArgument);
}

TEST_CASE("schemas: Axis Neuron T-pose in the canonical frame") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const char* file : {"noitom_axisneuron_59j_fingers_goldnotch_first1650frames.bvh",
                           "noitom_pns_studio_template_6ch_all_joints_0frames.bvh"}) {
    CAPTURE(file);
    const BvhMotion rest = bvhRestPose(readBvh(data_dir / "bvh" / file));
    const SkeletonMotion<double> motion = bvhToSkeleton(rest);
    REQUIRE(motion.size() == 1);
    const SkeletonFrame<double>& frame = motion.frames[0];
    for (int j = 0; j < kHumanJointCount; ++j) CHECK(frame.state[static_cast<std::size_t>(j)] == TrackingState::kTracked);
    // Left shoulder at +y, right at -y, head above the hips; the person faces +x.
    CHECK(frame.position(J::kShoulderLeft).y() > 0.1);
    CHECK(frame.position(J::kShoulderRight).y() < -0.1);
    CHECK(frame.position(J::kHead).z() > frame.position(J::kSpineBase).z() + 0.4);
    // T-pose: arms straight out to the sides along y, at shoulder height.
    const Eigen::Vector3d arm = frame.position(J::kWristLeft) - frame.position(J::kShoulderLeft);
    CHECK(arm.normalized().y() > 0.99);
    CHECK(arm.norm() == doctest::Approx(0.5).epsilon(0.2));  // metres: a human arm
    CHECK(frame.position(J::kHandTipLeft).y() > frame.position(J::kHandLeft).y());
    // Standing on the floor: hips about 0.9 m high, toes near z = 0.
    CHECK(frame.position(J::kSpineBase).z() == doctest::Approx(0.92).epsilon(0.05));
    CHECK(std::abs(frame.position(J::kFootLeft).z()) < 0.1);
    checkUprightAnatomy(frame);
  }
}

TEST_CASE("schemas: every frame of every shared take is anatomically plausible") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  for (const auto& facts : test::sharedBvhFiles()) {
    const std::string file_name = facts.file;
    CAPTURE(file_name);
    const BvhMotion bvh = readBvh(data_dir / "bvh" / facts.file);
    // The rest pose stands upright in every rig (checks frame and handedness of each schema).
    const SkeletonMotion<double> rest = bvhToSkeleton(bvhRestPose(bvh));
    checkUprightAnatomy(rest.frames[0]);
    const double height = rest.frames[0].position(J::kHead).z() -
                          std::min(rest.frames[0].position(J::kFootLeft).z(), rest.frames[0].position(J::kAnkleLeft).z());
    CHECK(height > 1.2);  // metres: checks each schema's unit scale
    CHECK(height < 2.1);
    const SkeletonMotion<double> motion = bvhToSkeleton(bvh);
    CHECK(motion.size() == static_cast<std::size_t>(facts.frames));
    CHECK(motion.format == std::string("bvh/") + facts.schema);
    CHECK(motion.frame_rate == doctest::Approx(1.0 / facts.frame_time));
    for (std::size_t f = 0; f < motion.size(); ++f) {
      CHECK(motion.frames[f].time == doctest::Approx(static_cast<double>(f) * facts.frame_time));
      checkUprightAnatomy(motion.frames[f], 0.3);
    }
  }
}

TEST_CASE("schemas: bvhToSkeleton positions, blends, orientations and extra joints") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const BvhMotion bvh = readBvh(data_dir / "bvh" / "mixamo_rig_55j_fingers_20tab_test_freebvh.bvh");
  // A user schema written as text (no code), with a blend whose ends are also mapped.
  const auto path = std::filesystem::temp_directory_path() / "retarget_bvh_schema_test.schema";
  {
    std::ofstream out(path);
    out << "name: test\nframe: forward=+Z left=+X up=+Y\nscale: 0.01\n"
        << "SpineBase = Spine\nSpineShoulder = Spine2\nSpineMid = Spine Spine2 0.25\nHandTipLeft = LeftHandMiddle3_End\n"
        << "Head = NoSuchJoint\n";
  }
  const SkeletonSchema schema = readSchema(path);
  std::filesystem::remove(path);
  const SkeletonMotion<double> motion = bvhToSkeleton(bvh, schema);
  const BvhSchemaBinding binding = bindSchema(bvh, schema);
  CHECK(binding.missing == std::vector<std::string>{"NoSuchJoint"});
  // Extra joints: everything the schema does not use, End Sites included.
  CHECK(motion.extra_joint_names.size() == bvh.joints.size() - 3);
  CHECK(std::find(motion.extra_joint_names.begin(), motion.extra_joint_names.end(), "mixamorig:Hips") !=
        motion.extra_joint_names.end());
  REQUIRE(motion.extra_p_W.size() == motion.size());
  std::vector<Eigen::Isometry3d> X_WJ;
  Eigen::Matrix3d R_WS;
  R_WS << 0, 0, 1, 1, 0, 0, 0, 1, 0;
  for (int f = 0; f < bvh.frame_count; f += 5) {
    const SkeletonFrame<double>& frame = motion.frames[static_cast<std::size_t>(f)];
    CHECK(frame.trackingState(J::kHead) == TrackingState::kNotTracked);
    CHECK(frame.trackingState(J::kSpineBase) == TrackingState::kTracked);
    CHECK(frame.trackingState(J::kElbowLeft) == TrackingState::kNotTracked);
    CHECK(frame.position(J::kSpineMid).isApprox(
        0.75 * frame.position(J::kSpineBase) + 0.25 * frame.position(J::kSpineShoulder), 1e-12));
    // Independent of bvhToSkeleton: FK poses mapped by hand (BVH z -> x, x -> y, y -> z, cm -> m).
    bvhGlobalPoses(bvh, f, X_WJ);
    const auto& X_spine = X_WJ[static_cast<std::size_t>(bvh.findJoint("mixamorig:Spine"))];
    const Eigen::Vector3d p = X_spine.translation();
    CHECK((frame.position(J::kSpineBase) - 0.01 * Eigen::Vector3d(p.z(), p.x(), p.y())).norm() < 1e-12);
    CHECK(frame.R_WJ[index(J::kSpineBase)].toRotationMatrix().isApprox(R_WS * X_spine.linear(), 1e-12));
    const int hips_column = static_cast<int>(std::find(motion.extra_joint_names.begin(), motion.extra_joint_names.end(),
                                                       "mixamorig:Hips") -
                                             motion.extra_joint_names.begin());
    const Eigen::Vector3d hips = X_WJ[0].translation();
    CHECK((motion.extra_p_W[static_cast<std::size_t>(f)].col(hips_column) - 0.01 * Eigen::Vector3d(hips.z(), hips.x(), hips.y()))
              .norm() < 1e-12);
  }
}
