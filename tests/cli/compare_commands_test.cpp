// `retarget compare`, run as a user would on shared recordings: every metric family that applies
// to a (robot, method) row is present with finite values and equals what `retarget eval` prints
// for the same angles written by `retarget map` (the same numbers, not just close ones); the
// families that do not apply are absent from the JSON and shown as "—" in the table; the table
// lists every method; a method that does not fit the robot is a usage error naming both.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/io/joint_trajectory_csv.hpp>
#include <retarget/io/kinect.hpp>
#include <retarget/mappers/pic_map.hpp>
#include <retarget/metrics/arm_imitation.hpp>
#include <retarget/robots/baxter.hpp>

#include "cli/cli_runner.hpp"
#include "cli/json_output.hpp"
#include "support/test_support.hpp"

using namespace retarget;
using namespace retarget::test;

namespace {


// The families each robot's rows must have (docs/metrics.md, "Which metric applies where"), for
// a skeleton motion that is not BVH.
const std::map<std::string, std::set<std::string>> kFamilies = {
    {"nao", {"similarity", "collision", "pose", "physical"}},
    {"baxter", {"collision", "pose", "physical"}},
    {"tangy", {"collision", "physical"}},
};

// Every column of the table whose family the row has must hold a finite number; the others
// must be absent. Parts of "physical" that need a virtual skeleton (MPJPE) or feet are checked
// by the caller.
// `without`: pointers of the row's families that do not apply to this row (e.g. W of a CSV whose
// method is unknown: `"w": null` as in eval).
void checkColumns(const nlohmann::json& report, const nlohmann::json& row, const std::set<std::string>& families,
                  const std::set<std::string>& without = {}) {
  for (const auto& column : report.at("columns")) {
    const std::string pointer = column.at("pointer").get<std::string>();
    const std::string family = pointer.substr(1, pointer.find('/', 1) - 1);
    const nlohmann::json::json_pointer p(pointer);
    INFO(row.at("robot").get<std::string>() << " / " << row.at("label").get<std::string>() << ": " << pointer);
    if (without.count(pointer) > 0 || pointer == "/mapping/collision_avoided_frames") {
      CHECK_FALSE(row.contains(p));  // not applicable; no --avoid-collisions in these runs
    } else if (family == "mapping" || (families.count(family) > 0 && pointer.rfind("/physical/mpjpe", 0) != 0 &&
                                       pointer.rfind("/physical/feet", 0) != 0 &&
                                       pointer.rfind("/physical/penetration", 0) != 0)) {
      REQUIRE(row.contains(p));
      REQUIRE(row.at(p).is_number());
      CHECK(std::isfinite(row.at(p).get<double>()));
    } else if (families.count(family) == 0) {
      CHECK_FALSE(row.contains(p));
    }
  }
  for (const char* family : {"similarity", "collision", "pose", "dtw", "physical"}) {
    CHECK(row.contains(family) == (families.count(family) > 0));
  }
}

// eval's JSON for one family without the head it shares with the other families.
nlohmann::json evalFamily(const std::string& motion, const fs::path& angles, const std::string& robot,
                          const std::string& family) {
  nlohmann::json out = parsedOutput(run("eval " + motion + " " + quoted(angles) + " --robot " + robot + " --metrics " +
                                  family + " --json"));
  for (const char* key : {"metric", "motion", "angles", "robot", "frames"}) out.erase(key);
  return out;
}

}  // namespace

TEST_CASE("cli compare: NAO, Kinect wave: every applicable family present, finite and equal to eval on the map CSV") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const std::string motion = quoted(data / "kinect" / "laban_ges01_wavehand_kinect2.csv");
  const nlohmann::json report = parsedOutput(run("compare " + motion + " --robot nao --method ga-lvvj,pics --json"));
  REQUIRE(report.at("rows").size() == 2);
  CHECK(report.at("frames") == 154);
  for (const auto& row : report.at("rows")) {
    checkColumns(report, row, kFamilies.at("nao"));
    CHECK(row.at("robot") == report.at("rows")[0].at("robot"));
    CHECK(row.at("frames") == 154);
    CHECK(row.at("/mapping/us_per_frame"_json_pointer).get<double>() > 0);
    // NAO has a virtual skeleton, feet and collision shapes: MPJPE, foot and penetration figures.
    CHECK(std::isfinite(row.at("/physical/mpjpe/mean"_json_pointer).get<double>()));
    CHECK(row.at("/physical/mpjpe/mean"_json_pointer).get<double>() > 0);
    CHECK(std::isfinite(row.at("/physical/feet/sliding"_json_pointer).get<double>()));
    CHECK(row.at("/physical/feet/links"_json_pointer).size() == 2);
    CHECK(row.at("/physical/penetration/max"_json_pointer).get<double>() >= 0);
    // Similarities are cosines; the best reachable value is never below the achieved one.
    const double wbf = row.at("/similarity/wbf/mean"_json_pointer).get<double>();
    CHECK(wbf > 0);
    CHECK(wbf <= 1);
    for (const auto& [link, values] : row.at("/similarity/links"_json_pointer).items()) {
      if (values.at("wbf").is_null()) continue;
      CHECK(values.at("wbf_best_reachable").get<double>() >= values.at("wbf").get<double>() - 1e-12);
    }
  }
  CHECK(report.at("rows")[0].at("method") == "ga-lvvj");
  CHECK(report.at("rows")[1].at("method") == "pics");

  // The same numbers from `retarget map` + `retarget eval`, family by family.
  const fs::path dir = tempDir() / "compare_nao";
  fs::create_directories(dir);
  for (const auto& row : report.at("rows")) {
    const std::string method = row.at("method").get<std::string>();
    const fs::path csv = dir / (method + ".csv");
    const Run m = run("map " + motion + " --robot nao --method " + method + " -o " + quoted(csv));
    REQUIRE(m.code == 0);
    for (const std::string family : {"similarity", "collision", "pose", "physical"}) {
      INFO(method << " / " << family);
      CHECK(row.at(family) == evalFamily(motion, csv, "nao", family));
    }
  }
}

TEST_CASE("cli compare: Baxter FABRIK, PIC, PICs: seed 004 metrics beside the others, not-applicable ones absent") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const std::string motion = quoted(data / "kinect" / "laban_ges03_drawlines_kinect2.csv");
  const nlohmann::json report =
      parsedOutput(run("compare " + motion + " --robot baxter --method fabrik,pic,pics --softening 2 --json"));
  REQUIRE(report.at("rows").size() == 3);
  std::vector<std::string> methods;
  for (const auto& row : report.at("rows")) {
    methods.push_back(row.at("method").get<std::string>());
    checkColumns(report, row, kFamilies.at("baxter"));
    // W compares each mapped row with its own mapping before the (here absent) avoidance stage.
    CHECK(row.at("/collision/w/mean"_json_pointer).get<double>() == 1.0);
    CHECK(row.at("/collision/reference"_json_pointer) == row.at("label"));
    // No virtual skeleton and no feet on Baxter.
    CHECK_FALSE(row.contains("/physical/mpjpe"_json_pointer));
    CHECK_FALSE(row.contains("/physical/feet"_json_pointer));
    const double pacc = row.at("/pose/pacc"_json_pointer).get<double>();
    // PO (Eq. 5) counts only frames with the human wrist over the ROI: null when there are none.
    const auto& po = row.at("/pose/po"_json_pointer);
    CHECK((po.is_null() ? row.at("/pose/po_frames"_json_pointer).get<int>() == 0 : po.get<double>() >= 0 && po.get<double>() <= 1));
    const double po_all = row.at("/pose/po_all"_json_pointer).get<double>();
    CHECK(pacc >= 0);
    CHECK(pacc <= 1);
    CHECK(po_all >= 0);
    CHECK(po_all <= 1);
    CHECK(row.at("/mapping/not_converged_frames"_json_pointer).get<int>() >= 0);
  }
  CHECK(methods == std::vector<std::string>{"fabrik", "pic", "pics"});
  CHECK(report.at("rows")[2].at("/mapping/softening"_json_pointer) == 2);

  // pics on its own with K = 2, through map + eval: the same pose and collision numbers.
  const fs::path csv = tempDir() / "compare_baxter_pics.csv";
  const Run mapped = run("map " + motion + " --robot baxter --method pics --softening 2 --json -o " + quoted(csv));
  REQUIRE(mapped.code == 0);
  // The joint fit's residual and the softening are reported (by default PICs softens only the
  // frames PIC cannot solve, seed 004 Section I's reading); the fit's failures are the
  // not-converged frames.
  const nlohmann::json summary = parsedOutput(mapped);
  const nlohmann::json& details = summary.at("details");
  CHECK(details.at("fit_residual_max").get<double>() >= details.at("fit_residual_mean").get<double>());
  CHECK(details.at("fit_failed_frames") == summary.at("not_converged_frames"));
  const int softened = details.at("softened_frames").get<int>();
  CHECK(softened < summary.at("frames").get<int>());
  CHECK(mapped.err.find("joint fit residual mean") != std::string::npos);
  const Run always = run("map " + motion + " --robot baxter --method pics --softening 2 --soften-always --force-octants --json -o " +
                         quoted(tempDir() / "compare_baxter_pics_always.csv"));
  REQUIRE(always.code == 0);
  const nlohmann::json always_details = parsedOutput(always).at("details");
  CHECK(always_details.at("softened_frames").get<int>() > softened);
  CHECK(always_details.at("force_octants") == true);
  CHECK(report.at("rows")[2].at("pose") == evalFamily(motion, csv, "baxter", "pose"));
  // ... and both equal the library's seed 004 metrics of those angles, computed here (the range
  // checks above only say each lies in [0, 1]).
  const RobotModel<double> baxter = makeBaxter<double>();
  const SkeletonMotion<double> recording = readKinect((data / "kinect" / "laban_ges03_drawlines_kinect2.csv").string());
  const auto pic_map = picMapFor(baxter);
  REQUIRE(pic_map.has_value());
  const JointTrajectory pics_angles = toRobotOrder(readJointTrajectoryCsv(csv.string()), baxter);
  const ArmImitation library = evaluateArmImitation(baxter, *pic_map, recording, pics_angles.positions, defaultWorkArea(*pic_map));
  const nlohmann::json& pose = report.at("rows")[2].at("pose");
  CHECK(pose.at("counted_frames").get<int>() == library.counted_frames);
  CHECK(pose.at("pacc").get<double>() == doctest::Approx(library.pacc).epsilon(1e-12));
  CHECK(pose.at("pacc_elbow_angle").get<double>() == doctest::Approx(library.pacc_elbow_angle).epsilon(1e-12));
  CHECK(library.pacc == library.pacc_link_directions);  // the default reading
  CHECK(pose.at("po_frames").get<int>() == library.po_frames);
  if (library.po_frames > 0) CHECK(pose.at("po").get<double>() == doctest::Approx(library.po).epsilon(1e-12));
  CHECK(pose.at("po_all").get<double>() == doctest::Approx(library.po_all).epsilon(1e-12));
  CHECK(pose.at("largest_joint_step").get<double>() == doctest::Approx(largestJointStep(pics_angles.positions)).epsilon(1e-12));
  // W (Eq. 11) is 1 above because each row is compared with itself, which any W formula gives.
  // On a copy of the default pics mapping with every other frame moved by known amounts, eval's
  // W against its own plain pics mapping must equal the formula written out here.
  const fs::path plain_csv = tempDir() / "compare_baxter_pics_plain.csv";
  REQUIRE(run("map " + motion + " --robot baxter --method pics -o " + quoted(plain_csv)).code == 0);
  JointTrajectory moved = toRobotOrder(readJointTrajectoryCsv(plain_csv.string()), baxter);
  moved.joint_names = baxter.qNames();
  const std::vector<std::pair<Eigen::Index, double>> shifts = {{0, 0.1}, {3, -0.2}};  // joint, rad
  double sum = 0;
  for (const auto& [joint, shift] : shifts) {
    const double range = baxter.upperLimits()[joint] - baxter.lowerLimits()[joint];
    REQUIRE(std::isfinite(range));
    sum += (shift / range) * (shift / range);
    for (Eigen::Index k = 0; k < moved.positions.rows(); k += 2) moved.positions(k, joint) += shift;
  }
  const double w_moved = 1.0 / (1.0 + sum);
  const auto frames = static_cast<double>(moved.positions.rows());
  const double moved_frames = std::ceil(frames / 2);
  const fs::path moved_csv = tempDir() / "compare_baxter_pics_moved.csv";
  writeJointTrajectoryCsv(moved, moved_csv.string());
  const nlohmann::json moved_collision = evalFamily(motion, moved_csv, "baxter", "collision");
  CHECK(moved_collision.at("reference") == "pics");
  CHECK(moved_collision.at("/w/min"_json_pointer).get<double>() == doctest::Approx(w_moved).epsilon(1e-12));
  CHECK(moved_collision.at("/w/mean"_json_pointer).get<double>() ==
        doctest::Approx((moved_frames * w_moved + (frames - moved_frames)) / frames).epsilon(1e-12));
  CHECK(w_moved < 0.999);  // far enough from 1 to tell formulas apart
  // eval's W compares with pics at its default softening (it cannot know K = 2; since PICs softens
  // only the frames PIC cannot solve, K = 1 and K = 2 may give the same angles); the rest agrees.
  nlohmann::json compared_collision = report.at("rows")[2].at("collision");
  nlohmann::json evaluated_collision = evalFamily(motion, csv, "baxter", "collision");
  CHECK(evaluated_collision.at("reference") == "pics");
  CHECK(evaluated_collision.at("/w/mean"_json_pointer).get<double>() <= 1.0);
  CHECK(evaluated_collision.at("/w/mean"_json_pointer).get<double>() > 0.9);
  for (const char* key : {"w", "reference_collision_frames"}) {
    compared_collision.erase(key);
    evaluated_collision.erase(key);
  }
  CHECK(compared_collision == evaluated_collision);
  CHECK(report.at("rows")[2].at("physical") == evalFamily(motion, csv, "baxter", "physical"));

  // Per-method options: the same method twice with different softening gives two rows.
  const nlohmann::json k =
      parsedOutput(run("compare " + motion + " --robot baxter --method pics:softening=0,pics:softening=3 --json"));
  REQUIRE(k.at("rows").size() == 2);
  CHECK(k.at("rows")[0].at("label") == "pics:softening=0");
  CHECK(k.at("rows")[0].at("/mapping/softening"_json_pointer) == 0);
  CHECK(k.at("rows")[1].at("/mapping/softening"_json_pointer) == 3);
  // An option in the spec is the same as the command-wide one.
  const nlohmann::json spec = parsedOutput(run("compare " + motion + " --robot baxter --method pics:softening=2 --json"));
  CHECK(spec.at("rows")[0].at("pose") == report.at("rows")[2].at("pose"));
}

TEST_CASE("cli compare: the table lists every (robot, method) with units, and — where a metric does not apply") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const std::string motion = quoted(data / "kinect" / "laban_ges04_comehere_kinect2.csv");
  const Run r = run("compare " + motion + " --robot nao --method ga-lvvj,triangle --robot tangy --method triangle");
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  // Each row appears in each of the three tables (imitation, physical, mapping); rows are named
  // "<robot model name> / <method>".
  const auto count = [&](const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = r.out.find(part); at != std::string::npos; at = r.out.find(part, at + 1)) ++n;
    return n;
  };
  CHECK(count(" / ga-lvvj") == 3);
  CHECK(count(" / triangle") == 6);
  CHECK(count("tangy / triangle") == 3);
  for (const std::string header : {"WBF", "MPJPE", "Pacc", "vel peak", "rad/s", "µs/frame", "clamped", "foot slide"}) {
    CHECK_MESSAGE(contains(r.out, header), header);
  }
  // Tangy has no virtual skeleton and no PIC map: its WBF and Pacc cells are "—".
  const std::size_t tangy = r.out.find("tangy / triangle");
  const std::string tangy_line = r.out.substr(tangy, r.out.find('\n', tangy) - tangy);
  CHECK(contains(tangy_line, "—"));
  CHECK(contains(r.out, "DTW needs a BVH motion"));  // no row has the dtw family
}

TEST_CASE("cli compare: InMoov euler on a BVH: the dtw family equals eval --metrics dtw") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const std::string motion = quoted(data / "bvh" / "xia_cmu_skeleton31_neutral_walk_01_000.bvh");
  const nlohmann::json report = parsedOutput(run("compare " + motion + " --robot inmoov --method euler --json"));
  REQUIRE(report.at("rows").size() == 1);
  const nlohmann::json& row = report.at("rows")[0];
  REQUIRE(row.contains("dtw"));
  CHECK(std::isfinite(row.at("/dtw/weighted_dtw"_json_pointer).get<double>()));
  CHECK_FALSE(row.contains("similarity"));
  CHECK_FALSE(row.contains("pose"));
  const fs::path csv = tempDir() / "compare_inmoov_euler.csv";
  REQUIRE(run("map " + motion + " --robot inmoov --method euler -o " + quoted(csv)).code == 0);
  CHECK(row.at("dtw") == evalFamily(motion, csv, "inmoov", "dtw"));
  CHECK(row.at("physical") == evalFamily(motion, csv, "inmoov", "physical"));
}

TEST_CASE("cli compare: a method that does not fit the robot, an unknown method or robot is a usage error") {
  const fs::path motion = tempDir() / "compare_wave.csv";
  REQUIRE(run("demo wave --duration 1 -o " + quoted(motion)).code == 0);
  const Run tangy = run("compare " + quoted(motion) + " --robot tangy --method triangle,ga-lvvj");
  CHECK(tangy.code == 2);
  CHECK(contains(tangy.err, "ga-lvvj"));
  CHECK(contains(tangy.err, "tangy"));
  CHECK(tangy.out.empty());  // checked before anything is mapped
  const Run baxter = run("compare " + quoted(motion) + " --robot nao --method ga-lvvj --robot baxter --method triangle");
  CHECK(baxter.code == 2);
  CHECK(contains(baxter.err, "triangle"));
  CHECK(contains(baxter.err, "baxter"));
  const Run unknown = run("compare " + quoted(motion) + " --robot nao --method ga-lvvj,warp");
  CHECK(unknown.code == 2);
  CHECK(contains(unknown.err, "warp"));
  const Run bad_option = run("compare " + quoted(motion) + " --robot baxter --method pics:softness=2");
  CHECK(bad_option.code == 2);
  CHECK(contains(bad_option.err, "softness"));
  const Run groups = run("compare " + quoted(motion) + " --robot nao --robot baxter --method ga-lvvj");
  CHECK(groups.code == 2);
  CHECK(run("compare " + quoted(motion) + " --robot nao").code == 2);
  CHECK(run("compare " + quoted(motion) + " --robot robby --method ga-lvvj").code == 2);
}

TEST_CASE("cli compare: MPJPE is absent (not a perfect 0) where the virtual skeleton has no root, present where it has") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const std::string motion = quoted(data / "kinect" / "laban_ges01_wavehand_kinect2.csv");
  const nlohmann::json report =
      parsedOutput(run("compare " + motion + " --robot pepper --method ga-lvvj --robot nao --method ga-lvvj --json"));
  REQUIRE(report.at("rows").size() == 2);
  const nlohmann::json& pepper = report.at("rows").at(0);
  const nlohmann::json& nao = report.at("rows").at(1);
  // Pepper has no legs, so no SpineBase: no (frame, link) sample of the position error is valid.
  REQUIRE(pepper.contains("physical"));
  CHECK_FALSE(pepper.at("physical").contains("mpjpe"));
  REQUIRE(nao.at("physical").contains("mpjpe"));
  const double mpjpe = nao.at("physical").at("mpjpe").at("mean").get<double>();
  CHECK(std::isfinite(mpjpe));
  CHECK(mpjpe > 0);
}
