// `retarget report` and `retarget compare --report`: the HTML file is self-contained (no
// external resource; the drawing libraries inlined verbatim), embeds one row per CSV and per
// mapped method with one angle series per robot joint and per frame and each robot's body posed
// by forward kinematics, and its summary equals `retarget compare --json`; and in a real browser
// (headless Chromium with software WebGL, when installed) the page builds without console errors,
// draws every body and the expected plots and series, and the slider, the plots' selection and
// the table's sorting work: on the Kinect wave, the demo's report, a G1 floating-base walk and a
// 3000-frame take. The browser tests save screenshots to <build>/test_artifacts/ (docs/images/
// holds the demo's and the G1's, copied from there; docs/report.md).
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/skeleton_csv.hpp>
#include <retarget/kinematics/forward_kinematics.hpp>
#include <retarget/kinematics/robot_data.hpp>
#include <retarget/robots/nao.hpp>

#include "cli/cli_runner.hpp"
#include "cli/json_output.hpp"
#include "support/test_support.hpp"

using namespace retarget::test;

namespace {

std::size_t csvColumns(const fs::path& csv) {
  std::istringstream in(slurp(csv));
  std::string header;
  std::getline(in, header);
  std::size_t n = 1;
  for (const char c : header) n += c == ',' ? 1 : 0;
  return n;
}

// The Kinect wave mapped onto NAO with GA-LVVJ by `retarget map`, and the report of that CSV
// plus PICs mapped by the report itself (made once per test process).
struct WaveReport {
  fs::path motion, csv, html;
  std::string text;
  nlohmann::json data;
};

const WaveReport& waveReport(const fs::path& data_dir) {
  static WaveReport report;
  if (!report.text.empty()) return report;
  const fs::path dir = tempDir() / "report";
  fs::create_directories(dir);
  report.motion = data_dir / "kinect" / "laban_ges01_wavehand_kinect2.csv";
  report.csv = dir / "wave_ga-lvvj.csv";
  report.html = dir / "wave_nao.html";
  // docs: retarget map wave.csv --robot nao --method ga-lvvj -o wave_ga-lvvj.csv (here the Kinect wave)
  const Run m = run("map " + quoted(report.motion) + " --robot nao --method ga-lvvj -o " + quoted(report.csv));
  REQUIRE(m.code == 0);
  // docs: retarget report wave.csv wave_ga-lvvj.csv --robot nao --method pics -o wave.html
  const Run r = run("report " + quoted(report.motion) + " " + quoted(report.csv) + " --robot nao --method pics -o " +
                    quoted(report.html));
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  report.text = slurp(report.html);
  report.data = reportData(report.text);
  return report;
}

// A browser to run the page in: $RETARGET_CHROMIUM, else chromium / chromium-browser /
// google-chrome on the PATH; empty when there is none.
std::string findChromium() {
  if (const char* env = std::getenv("RETARGET_CHROMIUM")) return ::access(env, X_OK) == 0 ? env : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path != nullptr ? path : "/usr/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
      const fs::path candidate = fs::path(dir) / name;
      if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    }
  }
  return "";
}

struct Browser {
  int code = -1;
  std::string out, err;
};

// Runs headless Chromium on `url` with `extra` arguments, killed after 60 s whatever happens.
Browser runChromium(const std::string& chromium, const std::string& url, const std::string& extra) {
  const fs::path dir = tempDir() / "chromium";
  fs::create_directories(dir);
  const fs::path out = dir / "stdout.txt", err = dir / "stderr.txt";
  const std::string command = "timeout -k 5 60 '" + chromium +
                              "' --headless --no-sandbox --use-angle=swiftshader --enable-unsafe-swiftshader "
                              "--disable-background-networking --no-first-run "
                              "--disable-extensions --user-data-dir='" +
                              (dir / "profile").string() +
                              "' --virtual-time-budget=2000 --enable-logging=stderr --v=0 " + extra + " '" + url +
                              "' >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(command.c_str());
  Browser b;
  b.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  b.out = slurp(out);
  b.err = slurp(err);
  return b;
}

// Lines of Chromium's log that report a console message or an uncaught exception of the page.
// The page's self-check result (the JSON the #selftest run writes into <pre id="selftest">) from
// the DOM Chromium dumped.
std::string selfCheckText(const Browser& b) {
  const std::string open = "<pre id=\"selftest\" hidden=\"\">";
  const std::size_t begin = b.out.find(open);
  REQUIRE(begin != std::string::npos);
  const std::size_t end = b.out.find("</pre>", begin);
  REQUIRE(end != std::string::npos);
  return b.out.substr(begin + open.size(), end - begin - open.size());
}

std::vector<std::string> consoleLines(const std::string& log) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line)) {
    if (contains(line, ":CONSOLE") || contains(line, "Uncaught")) lines.push_back(line);
  }
  return lines;
}

// The report's libraries as installed (apps/retarget/CMakeLists.txt), each with the name its
// <script data-library> element gives it (the style sheet has none).
std::vector<std::pair<std::string, fs::path>> reportLibraries() {
  return {{"three.min.js", RETARGET_REPORT_THREE_JS},
          {"OrbitControls.js", RETARGET_REPORT_ORBIT_CONTROLS_JS},
          {"dygraph.min.js", RETARGET_REPORT_DYGRAPH_JS},
          {"synchronizer.js", RETARGET_REPORT_DYGRAPH_SYNCHRONIZER_JS},
          {"", RETARGET_REPORT_DYGRAPH_CSS}};
}

// A file as the page inlines it: its last newline stands for the marker's line end.
std::string inlined(const fs::path& file) {
  std::string text = slurp(file);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// The page without the libraries' text: what this project wrote, and the data.
std::string ownPart(std::string page) {
  for (const auto& library : reportLibraries()) {
    const std::string text = inlined(library.second);
    const std::size_t at = page.find(text);
    REQUIRE(at != std::string::npos);
    page.erase(at, text.size());
  }
  return page;
}

// The page's self-check in headless Chromium (#selftest): the browser exits 0 and neither the
// page nor the browser's log reports an error. Null when there is no browser (a recorded skip).
nlohmann::json browserSelfCheck(const fs::path& html) {
  const std::string chromium = findChromium();
  if (chromium.empty()) {
    retarget::test::recordSkip("no headless browser (install Debian's chromium, or set RETARGET_CHROMIUM=<path>)");
    MESSAGE("skipped the browser part: no headless browser found");
    return nullptr;
  }
  const Browser b = runChromium(chromium, "file://" + fs::absolute(html).string() + "#selftest", "--dump-dom");
  INFO("chromium exit " << b.code << "\nstderr:\n" << b.err.substr(0, 4000));
  REQUIRE(b.code == 0);
  const std::string text = selfCheckText(b);
  REQUIRE_FALSE(text.empty());
  nlohmann::json check = nlohmann::json::parse(text);
  INFO("self-check: " << text);
  CHECK(check.at("errors").empty());
  CHECK(consoleLines(b.err).empty());
  return check;
}

// A screenshot of the page at `frame`, kept as a test artefact: <build>/test_artifacts/<name>.
void screenshot(const fs::path& html, int frame, const std::string& name) {
  const std::string chromium = findChromium();
  if (chromium.empty()) return;  // browserSelfCheck recorded the skip
  const fs::path artefacts = fs::path(RETARGET_CLI_PATH).parent_path().parent_path().parent_path() / "test_artifacts";
  fs::create_directories(artefacts);
  const fs::path png = artefacts / name;
  fs::remove(png);
  const Browser s = runChromium(chromium, "file://" + fs::absolute(html).string() + "#frame=" + std::to_string(frame),
                                "--screenshot='" + png.string() + "' --window-size=1400,1000");
  INFO("chromium exit " << s.code << "\nstderr:\n" << s.err.substr(0, 4000));
  CHECK(s.code == 0);
  REQUIRE(fs::exists(png));
  CHECK(fs::file_size(png) > 20000);
  CHECK(consoleLines(s.err).empty());
  std::cout << "report screenshot: " << png.string() << "\n";
}

// What the self-check of any report must show, counted from the report's own data: a body per
// row with a mesh per shape, drawn by WebGL; a plot per metric, per joint of each robot, per
// mapped row's statuses, per whole-body and per floating-base row, with one series per row and a
// line per finite limit; the slider moving the frame, its label, every plot's selection and the
// bodies; the table with a row per row, sorted both ways.
void checkSelfCheck(const nlohmann::json& check, const nlohmann::json& data) {
  INFO("self-check: " << check.dump());
  const nlohmann::json& rows = data.at("rows");
  CHECK(check.at("webgl") == true);
  CHECK(check.at("bodies") == rows.size());
  CHECK(check.at("human") == (data.at("/human/positions"_json_pointer).size() == data.at("time").size()));
  REQUIRE(check.at("meshes").size() == rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    CHECK(check.at("meshes")[i] == rows[i].at("/body/shapes"_json_pointer).size());
  CHECK(check.at("draw_calls").get<int>() > static_cast<int>(rows.size()));
  CHECK(check.at("triangles").get<int>() > 1000);
  std::vector<std::string> curve_names, robots;
  std::size_t curves = 0, joint_plots = 0, joint_series = 0, limits = 0, statuses = 0, modes = 0, contacts = 0;
  for (const auto& row : rows) {
    for (const auto& curve : row.at("curves")) {
      ++curves;
      if (std::find(curve_names.begin(), curve_names.end(), curve.at("name")) == curve_names.end())
        curve_names.push_back(curve.at("name"));
    }
    const std::size_t joints = row.at("/joints/names"_json_pointer).size();
    joint_series += joints;
    if (std::find(robots.begin(), robots.end(), row.at("robot")) == robots.end()) {
      robots.push_back(row.at("robot"));
      joint_plots += joints;
      for (const char* side : {"lower", "upper"}) {
        for (const auto& v : row.at("joints").at(side)) limits += v.is_number() ? 1 : 0;
      }
    }
    statuses += row.at("status").is_null() ? 0 : 1;
    modes += row.at("modes").is_null() ? 0 : 1;
    contacts += row.at("/body/contacts"_json_pointer).is_null() ? 0 : 1;
  }
  CHECK(check.at("curve_plots") == curve_names.size());
  CHECK(check.at("curve_series") == curves);
  CHECK(check.at("joint_plots") == joint_plots);
  CHECK(check.at("joint_series") == joint_series);
  CHECK(check.at("limit_series") == limits);
  CHECK(check.at("status_plots") == statuses);
  CHECK(check.at("mode_plots") == modes);
  CHECK(check.at("contact_plots") == contacts);
  const std::size_t graphs = curve_names.size() + joint_plots + statuses + modes + contacts;
  CHECK(check.at("graphs") == graphs);
  CHECK(check.at("drawn_series").get<std::size_t>() >= joint_series + limits);
  CHECK(check.at("table_rows") == rows.size());
  CHECK(check.at("frames") == data.at("time").size());
  CHECK(check.at("frame_after") == check.at("slider_target"));
  CHECK(check.at("frame_after") != check.at("frame_before"));
  CHECK(check.at("label_changed") == true);
  CHECK(check.at("selected_graphs") == graphs);
  CHECK(check.at("bodies_moved") == true);
  CHECK(check.at("overlays") == (check.at("human") == true ? rows.size() : 0));
  CHECK(check.at("human_beside") == false);  // while the copies are shown
  CHECK(check.at("sorted_up") == true);
  CHECK(check.at("sorted_down") == true);
}

}  // namespace

TEST_CASE("cli report: self-contained HTML with one row per CSV and method, one series per joint, compare's table") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const WaveReport& report = waveReport(data_dir);
  // Nothing outside the file: no scripts, images, styles or fonts to fetch.
  // (The libraries are Debian's files verbatim, checked below; what is ours must name nothing.)
  const std::string own = ownPart(report.text);
  for (const std::string forbidden : {"http://", "https://", "src=", "<link", "@import", "url(", "//cdn"}) {
    CHECK_MESSAGE(!contains(own, forbidden), forbidden);
  }
  const nlohmann::json& data = report.data;
  const std::size_t frames = 154;
  CHECK(data.at("time").size() == frames);
  CHECK(data.at("/human/positions"_json_pointer).size() == frames);
  CHECK(data.at("/human/positions/0"_json_pointer).size() == 75);  // 25 joints x 3
  REQUIRE(data.at("rows").size() == 2);
  const nlohmann::json& csv_row = data.at("rows")[0];
  const nlohmann::json& mapped_row = data.at("rows")[1];
  CHECK(csv_row.at("method") == "ga-lvvj");  // inferred from the file name
  CHECK(csv_row.at("mapped") == false);
  CHECK(csv_row.at("status").is_null());
  CHECK(mapped_row.at("method") == "pics");
  CHECK(mapped_row.at("mapped") == true);
  CHECK(mapped_row.at("status").size() == frames);
  const std::size_t joints = csvColumns(report.csv) - 1;
  for (const auto& row : data.at("rows")) {
    CHECK(row.at("/joints/names"_json_pointer).size() == joints);
    CHECK(row.at("/joints/q"_json_pointer).size() == joints);
    for (const auto& series : row.at("/joints/q"_json_pointer)) CHECK(series.size() == frames);
    for (const auto& curve : row.at("curves")) CHECK(curve.at("values").size() == frames);
    // The robot's body: shapes on posed links, each link's pose per frame the model's forward
    // kinematics of the row's angles (NAO's fixed base raised by the lift onto the ground).
    const nlohmann::json& body = row.at("body");
    CHECK(body.at("floating") == false);
    CHECK(body.at("contacts").is_null());
    const std::size_t links = body.at("links").size();
    REQUIRE(links > 10);
    std::size_t solid = 0;
    for (const auto& shape : body.at("shapes")) {
      CHECK(shape.at("link").get<std::size_t>() < links);
      solid += shape.at("kind") == "bone" ? 0 : 1;
    }
    CHECK(solid >= 10);  // NAO's own capsules (head, torso, arms, legs)
    const double lift = body.at("lift");
    CHECK(lift > 0.2);  // the torso's origin is above the feet
    REQUIRE(body.at("poses").size() == frames);
    const retarget::RobotModel<double> nao = retarget::makeNao();
    retarget::RobotData<double> fk(nao);
    double worst = 0;
    for (std::size_t k = 0; k < frames; k += 10) {
      Eigen::VectorXd q(nao.nq());
      for (int j = 0; j < nao.nq(); ++j) q[j] = row.at("joints").at("q")[static_cast<std::size_t>(j)][k].get<double>();
      retarget::forwardKinematics(nao, fk, q);
      const nlohmann::json& pose = body.at("poses")[k];
      REQUIRE(pose.size() == 7 * links);
      for (std::size_t i = 0; i < links; ++i) {
        const Eigen::Isometry3d& X_WL = fk.X_WL[static_cast<std::size_t>(nao.linkIndex(body.at("links")[i]))];
        const Eigen::Vector3d p(pose[7 * i], pose[7 * i + 1], pose[7 * i + 2].get<double>() - lift);
        const Eigen::Quaterniond r(pose[7 * i + 6].get<double>(), pose[7 * i + 3], pose[7 * i + 4], pose[7 * i + 5]);
        worst = std::max(worst, (p - X_WL.translation()).norm());
        worst = std::max(worst, r.normalized().angularDistance(Eigen::Quaterniond(X_WL.linear())));
      }
    }
    CHECK(worst < 5e-4);  // the page's rounding: 0.1 mm and 1e-4 of a quaternion component
  }
  // The summary is compare's: the same families, number for number (the CSV row is the map of
  // ga-lvvj, the mapped row is pics).
  const Run c = run("compare " + quoted(report.motion) + " --robot nao --method ga-lvvj,pics --json");
  REQUIRE(c.code == 0);
  const nlohmann::json compared = nlohmann::json::parse(c.out);
  const nlohmann::json& summary = data.at("/comparison/rows"_json_pointer);
  REQUIRE(summary.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    for (const char* family : {"similarity", "collision", "pose", "physical"}) {
      INFO("row " << i << ", " << family);
      CHECK(summary[i].at(family) == compared.at("rows")[i].at(family));
    }
  }
  CHECK_FALSE(summary[0].contains("mapping"));  // a CSV has no mapping figures
  CHECK(summary[1].at("mapping").at("clamped_frames") == compared.at("rows")[1].at("mapping").at("clamped_frames"));

  // compare --report writes the same kind of page, one row per method.
  const fs::path html = tempDir() / "report" / "compare_baxter.html";
  // docs: retarget compare wave.csv --robot baxter --method fabrik,pic,pics --report baxter.html
  const Run b =
      run("compare " + quoted(report.motion) + " --robot baxter --method fabrik,pic,pics --report " + quoted(html));
  REQUIRE(b.code == 0);
  const nlohmann::json baxter = reportData(slurp(html));
  CHECK(baxter.at("rows").size() == 3);
  CHECK(baxter.at("/comparison/rows/1/method"_json_pointer) == "pic");

  // Usage errors.
  CHECK(run("report " + quoted(report.motion) + " --robot nao -o " + quoted(html)).code == 2);  // no rows
  CHECK(run("report " + quoted(report.motion) + " " + quoted(report.csv) + " --robot nao --label a,b -o " + quoted(html))
            .code == 2);
  CHECK(run("report " + quoted(report.motion) + " --robot tangy --method ga-lvvj -o " + quoted(html)).code == 2);
}

TEST_CASE("cli report: the page is apps/retarget/report's three files, the title escaped and never a marker") {
  const fs::path pages = fs::path(RETARGET_SOURCE_DIR) / "apps" / "retarget" / "report";
  const std::string html = slurp(pages / "page.html"), css = slurp(pages / "page.css"), js = slurp(pages / "page.js");
  REQUIRE(!css.empty());
  REQUIRE(!js.empty());
  // A motion whose file name holds every marker and the characters HTML escapes.
  const fs::path dir = tempDir() / "report_markers";
  fs::create_directories(dir);
  const fs::path motion = dir / "w@SCRIPT@@DATA@@STYLE@&<x>.csv", out = dir / "markers.html";
  REQUIRE(run("demo wave --duration 1 -o " + quoted(motion)).code == 0);
  const Run r = run("report " + quoted(motion) + " --robot nao --method triangle -o " + quoted(out));
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  const std::string page = slurp(out);
  // The template up to its first marker, the style and the drawing code, each once and verbatim
  // (a marker on a line of its own takes the file with its last newline).
  CHECK(page.rfind(html.substr(0, html.find("@TITLE@")), 0) == 0);
  const auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = page.find(what); at != std::string::npos; at = page.find(what, at + 1)) ++n;
    return n;
  };
  CHECK(count(css) == 1);
  CHECK(count(js) == 1);
  // Each library once, verbatim, the scripts in elements that name them.
  for (const auto& [name, file] : reportLibraries()) {
    INFO(file);
    const std::string text = inlined(file);
    REQUIRE(text.size() > 1000);
    CHECK(count(text) == 1);
    CHECK(text.find("</script") == std::string::npos);  // would end its element
    if (!name.empty()) CHECK(count("<script data-library=\"" + name + "\">\n" + text + "\n</script>") == 1);
  }
  CHECK(count("<title>retarget report: w@SCRIPT@@DATA@@STYLE@&amp;&lt;x&gt;.csv</title>") == 1);
  CHECK(count("<h1>retarget report: w@SCRIPT@@DATA@@STYLE@&amp;&lt;x&gt;.csv</h1>") == 1);
  CHECK(count("@TITLE@") == 0);
  // What follows the drawing code is the template's end.
  const std::string tail = html.substr(html.find("@SCRIPT@\n") + 9);
  REQUIRE(page.size() >= tail.size());
  CHECK(page.compare(page.size() - tail.size(), tail.size(), tail) == 0);
  CHECK(reportData(page).at("rows").size() == 1);
}

TEST_CASE("cli report: in headless Chromium the page draws without errors and the slider moves the frame") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const WaveReport& report = waveReport(data_dir);
  const nlohmann::json check = browserSelfCheck(report.html);
  if (check.is_null()) return;
  checkSelfCheck(check, report.data);
  CHECK(check.at("mode_plots") == 0);  // no whole-body row
  CHECK(check.at("status_plots") == 1);  // the mapped PICs row
  screenshot(report.html, 60, "report_nao_wave.png");
}

TEST_CASE("cli report: the demo's report is under 2 MB and draws; so does a 3000-frame take") {
  const fs::path dir = tempDir() / "report_demo";
  fs::create_directories(dir);
  // As apps/retarget/demo.sh writes it.
  const fs::path wave = dir / "wave.csv", html = dir / "report.html";
  REQUIRE(run("demo wave -o " + quoted(wave) + " --rate 30 --duration 6").code == 0);
  const Run r = run("report " + quoted(wave) + " --robot nao --method ga-lvvj -o " + quoted(html));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(fs::file_size(html) < 2'000'000);
  const nlohmann::json data = reportData(slurp(html));
  nlohmann::json check = browserSelfCheck(html);
  if (check.is_null()) return;
  checkSelfCheck(check, data);
  screenshot(html, 60, "report_demo.png");

  const fs::path take = dir / "long.csv", long_html = dir / "long.html";
  REQUIRE(run("demo wave -o " + quoted(take) + " --rate 30 --duration 100").code == 0);
  const Run l = run("report " + quoted(take) + " --robot nao --method ga-lvvj -o " + quoted(long_html));
  REQUIRE_MESSAGE(l.code == 0, l.err);
  const nlohmann::json long_data = reportData(slurp(long_html));
  REQUIRE(long_data.at("time").size() >= 3000);
  check = browserSelfCheck(long_html);
  checkSelfCheck(check, long_data);
}

TEST_CASE("cli report: a G1 floating-base walk stands on the ground, its contacts on the timeline") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const fs::path dir = tempDir() / "report_floating_base";
  fs::create_directories(dir);
  const fs::path walk = data_dir / "bvh" / "mixamo_rig_55j_fingers_20tab_test_freebvh.bvh", html = dir / "walk_g1.html";
  const Run r = run("report " + quoted(walk) + " --robot g1 --method humanoid:floating-base -o " + quoted(html));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json data = reportData(slurp(html));
  REQUIRE(data.at("rows").size() == 1);
  const nlohmann::json& row = data.at("rows")[0];
  const nlohmann::json& body = row.at("body");
  const std::size_t frames = data.at("time").size();
  CHECK(row.at("mapped") == true);
  CHECK(body.at("floating") == true);
  CHECK(body.at("lift") == 0.0);  // the world's ground is the page's
  CHECK(body.at("root_path").size() == 3 * frames);
  REQUIRE(body.at("contacts").size() == frames);
  // The soles are posed links, named as the row's contact figures name them; the per-frame bits
  // count what those figures count.
  const nlohmann::json& figures = data.at("/comparison/rows/0/contacts"_json_pointer);
  int penetrating = 0;
  for (const auto& bits : body.at("contacts")) penetrating += (bits.get<int>() & 1) != 0 ? 1 : 0;
  CHECK(penetrating == figures.at("penetration_frames"));
  const char* sides[2] = {"left", "right"};
  for (int s = 0; s < 2; ++s) {
    INFO(sides[s]);
    const int slot = body.at("soles")[static_cast<std::size_t>(s)];
    REQUIRE(slot >= 0);
    CHECK(body.at("links")[static_cast<std::size_t>(slot)] == figures.at(sides[s]).at("link"));
    int stance = 0, floating = 0, sliding = 0;
    for (const auto& bits : body.at("contacts")) {
      stance += (bits.get<int>() & (2 << s)) != 0 ? 1 : 0;
      floating += (bits.get<int>() & (8 << s)) != 0 ? 1 : 0;
      sliding += (bits.get<int>() & (32 << s)) != 0 ? 1 : 0;
    }
    CHECK(stance == figures.at(sides[s]).at("stance_frames"));
    CHECK(stance > 0);
    CHECK(floating == figures.at(sides[s]).at("floating_frames"));
    CHECK(sliding == figures.at(sides[s]).at("sliding_frames"));
  }
  // G1's URDF describes its bodies with meshes: the page draws the fitted capsules.
  std::size_t capsules = 0;
  for (const auto& shape : body.at("shapes")) capsules += shape.at("kind") == "capsule" ? 1 : 0;
  CHECK(capsules >= 20);
  const nlohmann::json check = browserSelfCheck(html);
  if (check.is_null()) return;
  checkSelfCheck(check, data);
  CHECK(check.at("contact_plots") == 1);
  screenshot(html, static_cast<int>(frames / 2), "report_g1_floating_base.png");
}

TEST_CASE("cli report --whole-body: the robot's support modes drawn as bands, one per one-foot stand") {
  const fs::path dir = tempDir() / "report_whole_body";
  fs::create_directories(dir);
  const fs::path motion = dir / "one_leg.csv";
  retarget::writeSkeletonCsv(retarget::demoMotion("one-leg-stand", retarget::DemoMotionOptions{30.0, 12.0, 1.75}),
                             motion.string());
  const fs::path html = dir / "one_leg.html";
  const Run r = run("report " + quoted(motion) + " --robot nao --method ga-lvvj --whole-body -o " + quoted(html));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json data = reportData(slurp(html));
  REQUIRE(data.at("rows").size() == 2);
  CHECK(data.at("rows")[0].at("modes").is_null());  // plain GA-LVVJ
  const nlohmann::json& modes = data.at("rows")[1].at("modes");
  REQUIRE(modes.size() == data.at("time").size());
  // Runs of frames on one foot: each is a band.
  int runs = 0;
  for (std::size_t k = 0; k < modes.size(); ++k) {
    const bool single = modes[k] != "double" && modes[k] != "walking";
    if (single && (k == 0 || modes[k - 1] != modes[k])) ++runs;
  }
  CHECK(runs == 2);  // the demo stands on its right foot twice
  const nlohmann::json check = browserSelfCheck(html);
  if (check.is_null()) return;
  checkSelfCheck(check, data);
  CHECK(check.at("mode_plots") == 1);
  CHECK(check.at("mode_bands") == runs);
}

TEST_CASE("cli batch report: 100 takes and a failed one on one page, sortable, a plot per figure, in seconds") {
  const fs::path dir = tempDir() / "batch_report";
  fs::remove_all(dir);
  fs::create_directories(dir / "takes");
  // 100 short demo takes of eight motions, and a file no reader knows.
  const std::vector<std::string> motions = {"wave",        "arms-raise",    "squat",     "one-leg-stand",
                                            "arm-circles", "walk-in-place", "fold-arms", "bow"};
  for (int i = 0; i < 100; ++i) {
    const fs::path take =
        dir / "takes" / (motions[static_cast<std::size_t>(i) % motions.size()] + "_" + std::to_string(i) + ".csv");
    retarget::writeSkeletonCsv(retarget::demoMotion(motions[static_cast<std::size_t>(i) % motions.size()],
                                                    retarget::DemoMotionOptions{30.0, 1.0 + 0.01 * i, 1.75}),
                               take.string());
  }
  {
    std::ofstream broken(dir / "takes" / "broken.csv");
    broken << "garbage,1,2\n";
  }
  const Run b =
      run("batch " + quoted(dir / "takes") + " --robot nao --method ga-lvvj --jobs 2 -o " + quoted(dir / "out"));
  CHECK(b.code == 1);  // the broken file
  const fs::path html = dir / "batch.html";
  // docs: retarget batch report <summary.jsonl...> -o batch.html (here one run's summary)
  const Run r = run("batch report " + quoted(dir / "out" / "summary.jsonl") + " -o " + quoted(html));
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const nlohmann::json data = reportData(slurp(html));
  CHECK(data.at("kind") == "batch");
  const nlohmann::json& takes = data.at("takes");
  REQUIRE(takes.size() == 101);
  std::size_t failed = 0;
  for (const auto& take : takes) failed += take.at("status") == "error" ? 1 : 0;
  CHECK(failed == 1);
  // The figures the page plots: fields that are numbers (or null) in every take that has them.
  std::vector<std::string> figures;
  for (const auto& take : takes) {
    for (const auto& [key, value] : take.items()) {
      if (key == "path" || !value.is_number() || std::find(figures.begin(), figures.end(), key) != figures.end())
        continue;
      bool numeric = true;
      for (const auto& other : takes)
        numeric = numeric && (!other.contains(key) || other[key].is_number() || other[key].is_null());
      if (numeric) figures.push_back(key);
    }
  }
  CHECK(figures.size() >= 10);
  // No line, no page.
  const fs::path empty = dir / "empty.jsonl";
  std::ofstream(empty).flush();
  CHECK(run("batch report " + quoted(empty) + " -o " + quoted(dir / "none.html")).code == 2);

  const nlohmann::json check = browserSelfCheck(html);
  if (check.is_null()) return;
  INFO("self-check: " << check.dump());
  CHECK(check.at("takes") == 101);
  CHECK(check.at("failed") == 1);
  CHECK(check.at("table_rows") == 101);
  CHECK(check.at("batch_plots") == figures.size());
  CHECK(check.at("sorted_up") == true);
  CHECK(check.at("sorted_down") == true);
  CHECK(check.at("build_ms").get<double>() < 3000);  // "loads in a few seconds" (issue 56)
}
