// retarget/json/: every options and map struct round-trips through JSON text, and every bad
// input is a ParseError naming the file, the line and the JSON pointer.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <retarget/json/json.hpp>
#include <retarget/mappers/euler_inmoov_maps.hpp>

#include "io/parse_error_cases.hpp"
#include "support/test_support.hpp"

namespace retarget {
namespace {

using test::ParseErrorCase;

// ---------------------------------------------------------------------------------------------
// Field-by-field comparisons (exact: the text form keeps 17 significant digits).

void checkEqual(const GaLvvjOptions& a, const GaLvvjOptions& b) {
  CHECK((a.hip_yaw_pitch_mode == b.hip_yaw_pitch_mode));
  CHECK(a.hip_yaw_pitch == b.hip_yaw_pitch);
  CHECK(a.singular_tolerance == b.singular_tolerance);
  CHECK(a.rest == b.rest);
  CHECK(a.limit_aware_shoulder == b.limit_aware_shoulder);
  CHECK(a.continuity_weight == b.continuity_weight);
  CHECK(a.jump_cost == b.jump_cost);
  CHECK(a.continuity_gain == b.continuity_gain);
  CHECK(a.discontinuity_step == b.discontinuity_step);
  CHECK(a.clamp_tolerance == b.clamp_tolerance);
  CHECK(a.inferred_joints == b.inferred_joints);
  CHECK(a.leg_fit == b.leg_fit);
}

void checkEqual(const JointCoupling& a, const JointCoupling& b) {
  CHECK(a.joint == b.joint);
  CHECK(a.sign == b.sign);
  CHECK(a.offset == b.offset);
}

void checkEqual(const VirtualSkeletonMap& a, const VirtualSkeletonMap& b) {
  CHECK(a.robot == b.robot);
  REQUIRE(a.points.size() == b.points.size());
  for (std::size_t i = 0; i < a.points.size(); ++i) {
    CAPTURE(i);
    const VirtualPointSpec& p = a.points[i];
    const VirtualPointSpec& q = b.points[i];
    CHECK((p.joint == q.joint));
    CHECK((p.from == q.from));
    CHECK(p.link == q.link);
    CHECK(p.v_L == q.v_L);
  }
  checkEqual(a.head_yaw, b.head_yaw);
  checkEqual(a.head_pitch, b.head_pitch);
  checkEqual(a.hand_left, b.hand_left);
  checkEqual(a.hand_right, b.hand_right);
}

void checkEqual(const GaLvvjMap& a, const GaLvvjMap& b) {
  CHECK(a.robot == b.robot);
  for (std::size_t i = 0; i < a.joints.size(); ++i) {
    CAPTURE(i);
    CHECK(a.joints[i].joint == b.joints[i].joint);
    CHECK(a.joints[i].sign == b.joints[i].sign);
    CHECK(a.joints[i].offset == b.joints[i].offset);
  }
  CHECK(a.R_UE_left == b.R_UE_left);
  CHECK(a.R_UE_right == b.R_UE_right);
}

void checkEqual(const ExponentialSmoothingOptions& a, const ExponentialSmoothingOptions& b) { CHECK(a.alpha == b.alpha); }
void checkEqual(const RateLimiterOptions& a, const RateLimiterOptions& b) {
  CHECK(a.max_rate == b.max_rate);
  CHECK(a.max_rates.size() == b.max_rates.size());
  CHECK(a.max_rates == b.max_rates);
}
void checkEqual(const OneEuroFilterOptions& a, const OneEuroFilterOptions& b) {
  CHECK(a.min_cutoff == b.min_cutoff);
  CHECK(a.beta == b.beta);
  CHECK(a.d_cutoff == b.d_cutoff);
}
void checkEqual(const ConsecutiveFramesOptions& a, const ConsecutiveFramesOptions& b) { CHECK(a.frames == b.frames); }
void checkEqual(const EulerMap& a, const EulerMap& b) {
  CHECK(a.name == b.name);
  CHECK(a.skeleton == b.skeleton);
  REQUIRE(a.joints.size() == b.joints.size());
  for (std::size_t i = 0; i < a.joints.size(); ++i) {
    CAPTURE(i);
    const EulerJointMapping& m = a.joints[i];
    const EulerJointMapping& n = b.joints[i];
    CHECK(m.robot_joint == n.robot_joint);
    CHECK((m.kind == n.kind));
    CHECK(m.source == n.source);
    CHECK(m.order == n.order);
    CHECK(m.angle == n.angle);
    CHECK(m.axis == n.axis);
    CHECK(m.reference == n.reference);
    CHECK(m.sign == n.sign);
    CHECK(m.scale == n.scale);
    CHECK(m.offset == n.offset);
    CHECK(m.lower == n.lower);
    CHECK(m.upper == n.upper);
  }
  CHECK(a == b);
}
void checkEqual(const EulerOptions& a, const EulerOptions& b) {
  CHECK(a.jump_margin == b.jump_margin);
  CHECK(a.discontinuity_step == b.discontinuity_step);
}

// toJson -> text -> parseJson, and toJson -> fromJson, and saveJson -> loadJson.
template <typename T>
void checkRoundTrip(const T& value) {
  const std::string text = toJson(value).dump(2);
  CAPTURE(text);
  checkEqual(parseJson<T>(text, "round_trip.json"), value);
  checkEqual(fromJson<T>(toJson(value)), value);
  checkEqual(fromJson<T>(nlohmann::json::parse(text)), value);
}

template <typename T>
void checkFileRoundTrip(const T& value, const std::string& stem) {
  const auto path = std::filesystem::temp_directory_path() / ("retarget_json_test_" + stem + ".json");
  saveJson(value, path.string());
  checkEqual(loadJson<T>(path.string()), value);
  std::filesystem::remove(path);
}

double uniform(std::mt19937& rng, double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
int uniformInt(std::mt19937& rng, int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

std::string randomName(std::mt19937& rng) {
  static const std::string kChars = "abcXYZ_-/~ \"\\\t0123456789\xc3\xa9";  // escapes, a JSON-pointer '/' and '~', UTF-8
  std::string s;
  const int n = uniformInt(rng, 1, 12);
  for (int i = 0; i < n; ++i) {
    const std::size_t k = static_cast<std::size_t>(uniformInt(rng, 0, static_cast<int>(kChars.size()) - 3));
    if (kChars[k] == '\xc3') {
      s += "\xc3\xa9";
    } else {
      s += kChars[k];
    }
  }
  return s;
}

// A number from a wide range of magnitudes, including extremes.
double wideNumber(std::mt19937& rng) {
  switch (uniformInt(rng, 0, 5)) {
    case 0: return 0.0;
    case 1: return std::numeric_limits<double>::max() * (uniformInt(rng, 0, 1) ? 1 : -1);
    case 2: return std::numeric_limits<double>::denorm_min();
    case 3: return uniform(rng, -1e-300, 1e-300);
    default: return uniform(rng, -1e6, 1e6);
  }
}

Eigen::Vector3d randomVector(std::mt19937& rng) {
  return Eigen::Vector3d(uniform(rng, -4, 4), uniform(rng, -4, 4), uniform(rng, -4, 4));
}

EulerMap randomEulerMap(std::mt19937& rng) {
  static const char* const kOrders[] = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};
  EulerMap map;
  map.name = randomName(rng);
  map.skeleton = randomName(rng);
  const int n = uniformInt(rng, 0, 8);
  for (int i = 0; i < n; ++i) {
    EulerJointMapping m;
    m.robot_joint = "joint" + std::to_string(i) + randomName(rng);
    m.kind = static_cast<EulerCase>(uniformInt(rng, 0, 4));
    const int sources = uniformInt(rng, 1, 3);
    for (int s = 0; s < sources; ++s) m.source.push_back(randomName(rng));
    m.order = parseEulerOrder(kOrders[uniformInt(rng, 0, 5)]);
    m.angle = uniformInt(rng, 0, 2);
    m.axis = uniformInt(rng, 0, 2) == 0 && m.kind != EulerCase::kWristRotation ? Eigen::Vector3d::Zero()
                                                                                 : randomVector(rng);
    if (m.kind == EulerCase::kWristRotation && m.axis.norm() < 1e-6) m.axis = Eigen::Vector3d::UnitZ();
    m.reference = randomVector(rng);
    m.sign = uniformInt(rng, 0, 1) ? 1.0 : -1.0;
    m.scale = uniform(rng, 1e-3, 10);
    m.offset = wideNumber(rng);
    if (uniformInt(rng, 0, 1)) m.lower = uniform(rng, -4, 0);
    if (uniformInt(rng, 0, 1)) m.upper = uniform(rng, 0, 4);
    map.joints.push_back(m);
  }
  return map;
}

GaLvvjOptions randomGaLvvjOptions(std::mt19937& rng) {
  GaLvvjOptions o;
  o.hip_yaw_pitch_mode =
      uniformInt(rng, 0, 1) ? GaLvvjOptions::HipYawPitchMode::kFromKnees : GaLvvjOptions::HipYawPitchMode::kFixed;
  o.hip_yaw_pitch = wideNumber(rng);
  o.singular_tolerance = uniform(rng, 1e-9, 0.5);
  const int n = uniformInt(rng, 0, 30);
  for (int i = 0; i < n; ++i) o.rest.push_back(wideNumber(rng));
  o.limit_aware_shoulder = uniformInt(rng, 0, 1) == 1;
  o.continuity_weight = uniform(rng, 0.0, 100.0);
  o.jump_cost = uniform(rng, 1e-6, 10.0);
  o.continuity_gain = uniform(rng, 0.0, 10.0);
  o.discontinuity_step = uniform(rng, 1e-6, 3.0);
  o.clamp_tolerance = uniform(rng, 0.0, 0.2);
  o.inferred_joints = uniformInt(rng, 0, 1) ? InferredJoints::kUse : InferredJoints::kHold;
  o.leg_fit = uniformInt(rng, 0, 1) == 1;
  return o;
}

GaLvvjMap randomGaLvvjMap(std::mt19937& rng) {
  GaLvvjMap map = uniformInt(rng, 0, 1) ? naoGaLvvjMap() : pepperGaLvvjMap();
  map.robot = randomName(rng);
  for (auto& b : map.joints) {
    if (uniformInt(rng, 0, 4) == 0) b.joint.clear();
    if (!b.joint.empty()) b.joint = randomName(rng);
    b.sign = uniformInt(rng, 0, 1) ? 1.0 : -1.0;
    b.offset = wideNumber(rng);
  }
  map.R_UE_left = Eigen::AngleAxisd(uniform(rng, -3, 3), randomVector(rng).normalized()).toRotationMatrix();
  map.R_UE_right = Eigen::AngleAxisd(uniform(rng, -3, 3), randomVector(rng).normalized()).toRotationMatrix();
  return map;
}

VirtualSkeletonMap randomVirtualSkeletonMap(std::mt19937& rng) {
  VirtualSkeletonMap map = uniformInt(rng, 0, 1) ? naoVirtualSkeletonMap() : pepperVirtualSkeletonMap();
  map.robot = randomName(rng);
  for (auto& p : map.points) {
    p.link = randomName(rng);
    p.v_L = randomVector(rng);
  }
  for (JointCoupling* c : {&map.head_yaw, &map.head_pitch, &map.hand_left, &map.hand_right}) {
    c->joint = uniformInt(rng, 0, 4) == 0 ? std::string() : randomName(rng);
    c->sign = uniformInt(rng, 0, 1) ? 1.0 : -1.0;
    c->offset = wideNumber(rng);
  }
  return map;
}

// Expects a ParseError from `f` naming `file`, `line` (0: none) and containing every part.
template <typename F>
void checkError(F&& f, const std::string& file, std::size_t line, std::initializer_list<const char*> parts) {
  try {
    f();
    FAIL("no exception");
  } catch (const ParseError& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(e.file() == file);
    CHECK(e.line() == line);
    const std::string head = "[retarget] " + file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": at /";
    CHECK(what.compare(0, head.size(), head) == 0);
    for (const char* part : parts) CHECK_MESSAGE(what.find(part) != std::string::npos, part);
  }
}

template <typename T>
void checkParse(const std::string& text, std::size_t line, std::initializer_list<const char*> parts) {
  CAPTURE(text);
  checkError([&] { (void)parseJson<T>(text, "cfg.json"); }, "cfg.json", line, parts);
}

// ---------------------------------------------------------------------------------------------

TEST_CASE("json round trip: defaults and built-in values of every struct") {
  checkRoundTrip(EulerMap{});
  checkRoundTrip(EulerOptions{});
  for (const char* skeleton : {"axis-neuron", "cmu", "mixamo"}) checkRoundTrip(inmoovEulerMap(skeleton));
  checkRoundTrip(GaLvvjOptions{});
  checkRoundTrip(GaLvvjMap{});
  checkRoundTrip(naoGaLvvjMap());
  checkRoundTrip(pepperGaLvvjMap());
  checkRoundTrip(VirtualSkeletonMap{});
  checkRoundTrip(naoVirtualSkeletonMap());
  checkRoundTrip(pepperVirtualSkeletonMap());
  checkRoundTrip(ExponentialSmoothingOptions{});
  checkRoundTrip(RateLimiterOptions{});
  checkRoundTrip(OneEuroFilterOptions{});
  checkRoundTrip(ConsecutiveFramesOptions{});
  // An unlimited rate is written as "inf".
  RateLimiterOptions unlimited;
  unlimited.max_rate = std::numeric_limits<double>::infinity();
  unlimited.max_rates = Eigen::VectorXd::Constant(3, std::numeric_limits<double>::infinity());
  unlimited.max_rates[1] = 2.5;
  CHECK(toJson(unlimited).dump() == R"({"max_rate":"inf","max_rates":["inf",2.5,"inf"]})");
  checkRoundTrip(unlimited);
  // Documented key orders.
  CHECK(toJson(GaLvvjOptions{}).dump() ==
        R"({"hip_yaw_pitch_mode":"from-knees","hip_yaw_pitch":0.0,"singular_tolerance":0.001,"rest":[],"limit_aware_shoulder":true,"continuity_weight":10.0,"jump_cost":0.15,"continuity_gain":3.0,"discontinuity_step":0.35,"clamp_tolerance":0.035,"inferred_joints":"hold","leg_fit":true,"trunk_lean":false})");
  CHECK(toJson(EulerOptions{}).dump() == R"({"jump_margin":0.25,"discontinuity_step":0.35})");
  EulerOptions euler_options;
  euler_options.jump_margin = 0.1;
  euler_options.discontinuity_step = 0.5;
  checkRoundTrip(euler_options);
  CHECK(toJson(EulerCase::kWristTwist) == "wrist_twist");
  CHECK(toJson(parseEulerOrder("ZXY")) == "ZXY");
  CHECK((fromJson<EulerCase>(nlohmann::json("finger_curl")) == EulerCase::kFingerCurl));
  CHECK(fromJson<EulerOrder>(nlohmann::json("YXZ")) == parseEulerOrder("YXZ"));
  EulerJointMapping limited;
  limited.robot_joint = "a";
  limited.source = {"N"};
  limited.lower = -1.0;
  limited.upper = 1.0;
  const auto j = toJson(limited);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"robot_joint", "case", "source", "order", "angle", "axis", "reference", "sign",
                                         "scale", "offset", "lower", "upper"});
}

TEST_CASE("json round trip: random non-default values of every struct (text, value and file)") {
  std::mt19937 rng(20240611);
  const int n = test::sweepCount(40);
  for (int trial = 0; trial < n; ++trial) {
    CAPTURE(trial);
    checkRoundTrip(randomEulerMap(rng));
    checkRoundTrip(randomGaLvvjOptions(rng));
    checkRoundTrip(randomGaLvvjMap(rng));
    checkRoundTrip(randomVirtualSkeletonMap(rng));
    ExponentialSmoothingOptions smoothing;
    smoothing.alpha = uniform(rng, 1e-6, 1.0);
    checkRoundTrip(smoothing);
    RateLimiterOptions rate;
    rate.max_rate = uniform(rng, 1e-6, 1e6);
    rate.max_rates = Eigen::VectorXd::Zero(uniformInt(rng, 0, 10));
    for (Eigen::Index i = 0; i < rate.max_rates.size(); ++i) rate.max_rates[i] = uniform(rng, 1e-3, 100);
    checkRoundTrip(rate);
    OneEuroFilterOptions euro;
    euro.min_cutoff = uniform(rng, 1e-3, 30);
    euro.beta = uniform(rng, 0, 5);
    euro.d_cutoff = uniform(rng, 1e-3, 30);
    checkRoundTrip(euro);
    ConsecutiveFramesOptions frames;
    frames.frames = uniformInt(rng, 1, std::numeric_limits<int>::max());
    checkRoundTrip(frames);
  }
  checkFileRoundTrip(randomEulerMap(rng), "euler_map");
  checkFileRoundTrip(EulerOptions{}, "euler_options");
  checkFileRoundTrip(randomGaLvvjOptions(rng), "ga_lvvj_options");
  checkFileRoundTrip(randomGaLvvjMap(rng), "ga_lvvj_map");
  checkFileRoundTrip(randomVirtualSkeletonMap(rng), "virtual_skeleton_map");
  checkFileRoundTrip(OneEuroFilterOptions{2.0, 0.5, 3.0}, "one_euro");
  // The aliases kept for the Euler map.
  const EulerMap map = randomEulerMap(rng);
  const auto path = std::filesystem::temp_directory_path() / "retarget_json_test_alias.json";
  saveEulerMap(map, path.string());
  CHECK(loadEulerMap(path.string()) == map);
  CHECK(parseEulerMap(toJson(map).dump()) == map);
  CHECK(eulerMapFromJson(toJson(map)) == map);
  CHECK(eulerMapFromJson(nlohmann::json::parse(toJson(map).dump())) == map);
  std::filesystem::remove(path);
}

TEST_CASE("json: missing keys take the defaults") {
  const EulerMap minimal = parseJson<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N"}]})");
  REQUIRE(minimal.joints.size() == 1);
  CHECK((minimal.joints[0].kind == EulerCase::kEuler));
  CHECK(minimal.joints[0].order.name() == "ZYX");
  CHECK(minimal.joints[0].source == std::vector<std::string>{"N"});
  CHECK(!minimal.joints[0].lower);
  checkEqual(parseJson<GaLvvjOptions>("{}"), GaLvvjOptions{});
  checkEqual(parseJson<GaLvvjMap>("{}"), GaLvvjMap{});
  checkEqual(parseJson<RateLimiterOptions>("{}"), RateLimiterOptions{});
  const GaLvvjOptions o = parseJson<GaLvvjOptions>(
      R"({"hip_yaw_pitch_mode": "from-knees", "rest": [0.1, -0.2], "limit_aware_shoulder": false})");
  CHECK((o.hip_yaw_pitch_mode == GaLvvjOptions::HipYawPitchMode::kFromKnees));
  CHECK(o.rest == std::vector<double>{0.1, -0.2});
  CHECK(!o.limit_aware_shoulder);
  CHECK(parseJson<RateLimiterOptions>(R"({"max_rate": "infinity"})").max_rate == std::numeric_limits<double>::infinity());
  // A virtual joint left out of "joints" is unbound.
  const GaLvvjMap m = parseJson<GaLvvjMap>(R"({"joints": {"LHand": {"joint": "hand", "sign": -1}}})");
  CHECK(m.binding(GaLvvjJoint::kLHand).joint == "hand");
  CHECK(m.binding(GaLvvjJoint::kLHand).sign == -1.0);
  CHECK(m.binding(GaLvvjJoint::kHeadYaw).joint.empty());
}

TEST_CASE("json errors: numbers that do not fit, NaN-like values, truncated and non-JSON text") {
  // Found by fuzzing: nlohmann reports this overflow as out_of_range, with no file name.
  checkParse<EulerMap>(R"({"name": 8739955140e0673279})", 1, {"at /name: got 8739955140e0673279, expected a number"});
  checkParse<EulerMap>("{\"name\": \"x\",\n \"joints\": [\n  {\"robot_joint\": \"a\", \"source\": \"N\",\n   \"offset\": 8739955140e0673279}]}",
                       4, {"at /joints/0/offset: got 8739955140e0673279"});
  checkParse<GaLvvjOptions>(R"({"hip_yaw_pitch": -1e400})", 1, {"at /hip_yaw_pitch: got -1e400"});
  checkParse<GaLvvjOptions>(R"({"rest": [0, 1, 1e309]})", 1, {"at /rest/2: got 1e309"});
  checkParse<ExponentialSmoothingOptions>(R"({"alpha": NaN})", 1, {"at /alpha: got 'N'", "syntax error"});
  checkParse<ExponentialSmoothingOptions>(R"({"alpha": Infinity})", 1, {"at /alpha: got 'I'"});
  checkParse<ExponentialSmoothingOptions>(R"({"alpha": "NaN"})", 1, {"at /alpha: got \"NaN\", expected a number in (0, 1]"});
  checkParse<ExponentialSmoothingOptions>(R"({"alpha": null})", 1, {"at /alpha: got null, expected a number in (0, 1]"});
  checkParse<RateLimiterOptions>(R"({"max_rate": "-inf"})", 1, {"at /max_rate: got \"-inf\", expected a number > 0 or \"inf\""});
  checkParse<RateLimiterOptions>(R"({"max_rates": [1, 0]})", 1, {"at /max_rates/1: got 0, expected a number > 0"});
  // Truncated text: the pointer being read and the line of the last character.
  checkParse<EulerMap>("{\"joints\": [\n  {\"robot_joint\": \"a\"", 2, {"at /joints/0", "got the end of the text"});
  checkParse<EulerMap>("{\"joints\": [\n  {\"robot_joint\": \"a", 2, {"at /joints/0/robot_joint"});
  checkParse<GaLvvjOptions>("", 1, {"at /: got the end of the text"});
  checkParse<GaLvvjOptions>("{\"rest\": [1, 2,\n\n", 1, {"at /rest/2: got the end of the text"});
  // Syntax errors name their line.
  checkParse<EulerMap>("{\n \"joints\": [\n  {\"robot_joint\": 3,}\n ]\n}", 3, {"at /joints/0: got '}'"});
  checkParse<GaLvvjOptions>("{\"hip_yaw_pitch\": 0.1} trailing", 1, {"at /: got", "expected end of input"});
  checkParse<GaLvvjOptions>("{\"hip_yaw_pitch\": 0.1, \"a\xff\": 1}", 1, {"at /: got", "invalid"});
  // Programmatic JSON values can hold non-finite numbers.
  nlohmann::json nan_value = {{"alpha", std::nan("")}};
  checkError([&] { (void)fromJson<ExponentialSmoothingOptions>(nan_value); }, "<json>", 0, {"at /alpha: got NaN"});
  nlohmann::json inf_value = {{"hip_yaw_pitch", std::numeric_limits<double>::infinity()}};
  checkError([&] { (void)fromJson<GaLvvjOptions>(inf_value, "mem"); }, "mem", 0, {"at /hip_yaw_pitch: got inf"});
  // Deep nesting: the message stays short.
  const std::string deep = "{\"alpha\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  try {
    (void)parseJson<ExponentialSmoothingOptions>(deep, "deep.json");
    FAIL("no exception");
  } catch (const ParseError& e) {
    CHECK(std::string(e.what()).size() < 200);
    CHECK(std::string(e.what()).find("deep.json:1: at /alpha: got [[[...]]]") != std::string::npos);
  }
}

TEST_CASE("json errors: wrong types, unknown keys, integers out of range, non-object roots") {
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": 3, "source": "Neck"}]})", 1,
                       {"at /joints/0/robot_joint: got 3, expected a string"});
  checkParse<EulerMap>("{\"joints\": [\n{\"robot_joint\": \"a\", \"source\": \"Neck\",\n \"ordre\": \"ZYX\"}]}", 3,
                       {"at /joints/0/ordre: unknown key \"ordre\"", "expected one of robot_joint, case, source"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a"}]})", 1, {"at /joints/0: missing key \"source\""});
  checkParse<EulerMap>(R"({"name": "x"})", 1, {"at /: missing key \"joints\""});
  checkParse<EulerMap>(R"({"joints": {}})", 1, {"at /joints: got {}, expected an array"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N", "order": "ZZX"}]})", 1,
                       {"at /joints/0/order:", "got 'ZZX'"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N", "case": "knee"}]})", 1,
                       {"at /joints/0/case: got 'knee', expected one of euler"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": [1]}]})", 1, {"at /joints/0/source/0: got 1"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N", "axis": [1, 2]}]})", 1,
                       {"at /joints/0/axis: got 2 numbers, expected 3"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N", "angle": 3}]})", 1,
                       {"at /joints/0/angle: got 3, expected an integer in [0, 2]"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N", "angle": 4294967296}]})", 1,
                       {"at /joints/0/angle: got 4294967296, expected an integer"});
  checkParse<ConsecutiveFramesOptions>(R"({"frames": 4294967296})", 1,
                                       {"at /frames: got 4294967296, expected an integer in [1, 2147483647]"});
  checkParse<ConsecutiveFramesOptions>(R"({"frames": 18446744073709551615})", 1, {"at /frames: got 18446744073709551615"});
  checkParse<ConsecutiveFramesOptions>(R"({"frames": -99999999999999999999})", 1, {"at /frames: got -1e+20"});
  checkParse<ConsecutiveFramesOptions>(R"({"frames": 2.0})", 1, {"at /frames: got 2.0, expected an integer"});
  checkParse<ConsecutiveFramesOptions>(R"({"frames": 0})", 1, {"at /frames: got 0"});
  checkParse<ExponentialSmoothingOptions>(R"({"alpah": 0.5})", 1, {"at /alpah: unknown key \"alpah\"", "one of alpha"});
  checkParse<ExponentialSmoothingOptions>(R"({"a/b~c": 0.5})", 1, {"at /a~1b~0c: unknown key \"a/b~c\""});
  checkParse<EulerOptions>(R"({"gain": 1})", 1, {"at /gain: unknown key \"gain\"", "expected one of jump_margin, discontinuity_step"});
  checkParse<OneEuroFilterOptions>(R"({"beta": -1})", 1, {"at /beta: got -1, expected a finite number >= 0"});
  checkParse<OneEuroFilterOptions>(R"({"d_cutoff": true})", 1, {"at /d_cutoff: got true"});
  checkParse<GaLvvjOptions>(R"({"hip_yaw_pitch_mode": "knees"})", 1,
                            {"at /hip_yaw_pitch_mode: got 'knees', expected \"fixed\" or \"from-knees\""});
  checkParse<GaLvvjOptions>(R"({"singular_tolerance": "small"})", 1, {"at /singular_tolerance: got \"small\""});
  checkParse<GaLvvjOptions>(R"({"singular_tolerance": 0.7})", 1, {"at /singular_tolerance: got 0.7, expected a number in (0, 0.5]"});
  checkParse<GaLvvjOptions>(R"({"rest": [0, 1, "x"]})", 1, {"at /rest/2: got \"x\", expected a finite number"});
  checkParse<GaLvvjOptions>(R"({"limit_aware_shoulder": 1})", 1, {"at /limit_aware_shoulder: got 1, expected true or false"});
  for (const char* root : {"[1, 2]", "42", "null", "\"text\""}) {
    checkParse<EulerMap>(root, 1, {"at /: got", "expected a JSON object"});
    checkParse<GaLvvjOptions>(root, 1, {"at /: got", "expected a JSON object"});
    checkParse<RateLimiterOptions>(root, 1, {"at /: got", "expected a JSON object"});
  }
  // GA-LVVJ maps.
  checkParse<GaLvvjMap>(R"({"joints": {"Knee": {"joint": "k"}}})", 1,
                        {"at /joints/Knee: unknown virtual joint \"Knee\"", "HeadYaw"});
  checkParse<GaLvvjMap>(R"({"joints": {"LHand": {"joint": "h", "sign": 2}}})", 1, {"at /joints/LHand/sign: got 2, expected 1 or -1"});
  checkParse<GaLvvjMap>(R"({"joints": {"LHand": {"joint": "h", "gain": 2}}})", 1, {"at /joints/LHand/gain: unknown key"});
  checkParse<GaLvvjMap>(R"({"virtual_skeleton": []})", 1, {"at /virtual_skeleton", "VirtualSkeletonMap"});
  checkParse<VirtualSkeletonMap>(R"({"points": [{"joint": "Elbow", "link": "x"}]})", 1,
                                 {"at /points/0/joint: got 'Elbow', expected a canonical skeleton joint name"});
  checkParse<VirtualSkeletonMap>(R"({"points": [{"joint": "Head", "from": "Neck", "link": "x"}]})", 1,
                                 {"at /points/0/from: got 'Neck', expected a point defined earlier"});
  checkParse<VirtualSkeletonMap>(R"({"points": [{"joint": "Head", "link": "x"}, {"joint": "Head", "link": "y"}]})", 1,
                                 {"at /points/1/joint: got 'Head', expected a joint not defined earlier"});
  checkParse<VirtualSkeletonMap>(R"({"points": [{"joint": "Head"}]})", 1, {"at /points/0: missing key \"link\""});
  checkParse<VirtualSkeletonMap>(R"({"hand_left": {"joint": "h", "sign": 0.5}})", 1,
                                 {"at /hand_left/sign: got 0.5, expected 1 or -1"});
  checkParse<GaLvvjMap>(R"({"R_UE_left": [[1, 0, 0], [0, 1, 0], [0, 0, 2]]})", 1, {"at /R_UE_left: got", "a rotation matrix"});
  checkParse<GaLvvjMap>(R"({"R_UE_right": [[1, 0, 0], [0, 1, 0]]})", 1, {"at /R_UE_right: got"});
  checkParse<GaLvvjMap>(R"({"R_UE_right": [[1, 0, 0], [0, 1, 0], [0, 0, "1"]]})", 1, {"at /R_UE_right/2/2: got \"1\""});
}

TEST_CASE("json errors: moved keys say where the setting went") {
  checkParse<EulerMap>("{\"joints\": [\n {\"robot_joint\": \"a\", \"source\": \"N\", \"max_speed\": 6}]}", 2,
                       {"at /joints/0/max_speed:", "rate limits moved out of the map", "--max-joint-speed", "RateLimiter"});
  checkParse<GaLvvjOptions>(R"({"smoothing": 0.5})", 1,
                            {"at /smoothing:", "smoothing moved to a filter", "--smooth ALPHA", "ExponentialSmoothing"});
}

TEST_CASE("json errors: validate() failures name the file, line and pointer") {
  checkParse<EulerMap>("{\"joints\": [\n {\"robot_joint\": \"a\", \"source\": \"N\",\n  \"sign\": 0.5}]}", 3,
                       {"at /joints/0/sign: ", "sign (got 0.5, expected 1 or -1)"});
  checkParse<EulerMap>("{\"joints\": [\n {\"robot_joint\": \"a\", \"source\": \"N\"},\n {\"robot_joint\": \"a\", \"source\": \"M\"}]}",
                       3, {"at /joints/1/robot_joint: ", "mapped twice"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N", "case": "wrist_rotation", "axis": [0, 0, 0]}]})",
                       1, {"at /joints/0/axis: ", "non-zero axis"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N", "lower": 1, "upper": 0}]})", 1,
                       {"at /joints/0: ", "expected lower <= upper"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "", "source": "N"}]})", 1, {"at /joints/0/robot_joint: ", "empty"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": ["N", ""]}]})", 1, {"at /joints/0/source: ", "empty name"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": []}]})", 1, {"at /joints/0/source: ", "got 0 names"});
  checkParse<EulerMap>(R"({"joints": [{"robot_joint": "a", "source": "N", "scale": 0}]})", 1, {"at /joints/0/scale: "});
  // Saving checks that the file would load back; nothing is written otherwise.
  const auto path = std::filesystem::temp_directory_path() / "retarget_json_test_invalid.json";
  std::filesystem::remove(path);
  GaLvvjOptions bad;
  bad.hip_yaw_pitch = std::nan("");
  checkError([&] { saveJson(bad, path.string()); }, path.string(), 3, {"at /hip_yaw_pitch: got null"});
  CHECK(!std::filesystem::exists(path));
  EulerMap twice = inmoovAxisNeuronMap();
  twice.joints.push_back(twice.joints.front());
  CHECK_THROWS_WITH_AS(saveJson(twice, path.string()), doctest::Contains("mapped twice"), ParseError);
  CHECK(!std::filesystem::exists(path));
  CHECK_THROWS_WITH_AS(saveJson(GaLvvjOptions{}, "/nonexistent/dir/x.json"), doctest::Contains("/nonexistent/dir/x.json"),
                       Error);
}

TEST_CASE("json: loading a missing or unreadable file names the path") {
  for (const std::string& path :
       std::vector<std::string>{"/nonexistent/dir/x.json", std::filesystem::temp_directory_path().string()}) {
    CAPTURE(path);
    try {
      (void)loadJson<GaLvvjOptions>(path);
      FAIL("no exception");
    } catch (const ParseError& e) {
      CHECK(e.file() == path);
      CHECK(std::string(e.what()).find("[retarget] " + path + ": ") == 0);
    }
  }
  CHECK_THROWS_WITH_AS(loadEulerMap("/nonexistent/dir/x.json"), doctest::Contains("/nonexistent/dir/x.json: cannot open"),
                       ParseError);
  // A file with a bad value: its path, line and pointer.
  const auto path = std::filesystem::temp_directory_path() / "retarget_json_test_bad.json";
  {
    std::ofstream out(path);
    out << "{\n  \"hip_yaw_pitch_mode\": \"fixed\",\n  \"singular_tolerance\": 9\n}\n";
  }
  checkError([&] { (void)loadJson<GaLvvjOptions>(path.string()); }, path.string(), 3, {"at /singular_tolerance: got 9"});
  std::filesystem::remove(path);
}

TEST_CASE("json: the shared malformed-input table (every case a ParseError with file and line)") {
  const std::vector<ParseErrorCase> cases = {
      {R"({"name": 8739955140e0673279})", 1, "at /name: got 8739955140e0673279"},
      {"{\"joints\": [\n", 1, "at /joints/0: got the end of the text"},
      {"{\"joints\": [{\"robot_joint\": \"a\",\n \"source\": \"N\", \"max_speed\": 1}]}", 2, "--max-joint-speed"},
      {"\n\n[1]", 3, "at /: got [1], expected a JSON object"},
  };
  test::checkParseErrors(cases, "table.json", [](const std::string& text) { (void)parseEulerMap(text, "table.json"); });
}

}  // namespace
}  // namespace retarget
