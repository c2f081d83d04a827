// `retarget report` and `retarget compare --report`: the HTML file is self-contained (no
// external resource), embeds one row per CSV and per mapped method with one angle series per
// robot joint and per frame, and its summary equals `retarget compare --json`; and in a real
// browser (headless Chromium, when installed) the page draws without console errors, draws the
// 3D skeletons and the expected number of plotted series, and the slider changes the frame.
// The browser test saves a screenshot to <build>/test_artifacts/report_nao_wave.png.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <retarget/human/demo_motions.hpp>
#include <retarget/io/skeleton_csv.hpp>

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
  const Run m = run("map " + quoted(report.motion) + " --robot nao --method ga-lvvj -o " + quoted(report.csv));
  REQUIRE(m.code == 0);
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
                              "' --headless --no-sandbox --disable-gpu --disable-background-networking --no-first-run "
                              "--disable-extensions --user-data-dir='" +
                              (dir / "profile").string() + "' --virtual-time-budget=2000 --enable-logging=stderr --v=0 " +
                              extra + " '" + url + "' >'" + out.string() + "' 2>'" + err.string() + "'";
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

}  // namespace

TEST_CASE("cli report: self-contained HTML with one row per CSV and method, one series per joint, compare's table") {
  RETARGET_REQUIRE_TEST_DATA(data_dir);
  const WaveReport& report = waveReport(data_dir);
  // Nothing outside the file: no scripts, images, styles or fonts to fetch.
  for (const std::string forbidden : {"http://", "https://", "src=", "<link", "@import", "url(", "//cdn"}) {
    CHECK_MESSAGE(!contains(report.text, forbidden), forbidden);
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
    // The robot skeleton: one position per link and frame, every parent a valid link.
    const std::size_t links = row.at("/skeleton/parents"_json_pointer).size();
    CHECK(links > joints);
    CHECK(row.at("/skeleton/positions"_json_pointer).size() == frames);
    CHECK(row.at("/skeleton/positions/0"_json_pointer).size() == 3 * links);
    for (const auto& curve : row.at("curves")) CHECK(curve.at("values").size() == frames);
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
  const Run b = run("compare " + quoted(report.motion) + " --robot baxter --method fabrik,pic --report " + quoted(html));
  REQUIRE(b.code == 0);
  const nlohmann::json baxter = reportData(slurp(html));
  CHECK(baxter.at("rows").size() == 2);
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
  const std::string chromium = findChromium();
  if (chromium.empty()) {
    // Counted and listed as a skip; a failure under RETARGET_REQUIRE_ALL (the check presets).
    retarget::test::recordSkip("no headless browser (install Debian's chromium, or set RETARGET_CHROMIUM=<path>)");
    MESSAGE("skipped: no headless browser found (install Debian's chromium, or set RETARGET_CHROMIUM=<path>)");
    return;
  }
  const WaveReport& report = waveReport(data_dir);
  const std::string url = "file://" + fs::absolute(report.html).string();
  const Browser b = runChromium(chromium, url + "#selftest", "--dump-dom");
  {
    INFO("chromium exit " << b.code << "\nstderr:\n" << b.err.substr(0, 4000));
    REQUIRE(b.code == 0);
  }
  const std::string text = selfCheckText(b);
  INFO("self-check: " << text);
  REQUIRE_FALSE(text.empty());
  const nlohmann::json check = nlohmann::json::parse(text);
  CHECK(check.at("errors").empty());
  CHECK(consoleLines(b.err).empty());
  // Human + one panel per row, each with a drawn skeleton.
  const nlohmann::json& data = report.data;
  const std::size_t rows = data.at("rows").size();
  CHECK(check.at("canvases") == rows + 1);
  CHECK(check.at("inked_canvases") == rows + 1);
  // One series per joint and row, one per curve and row; limits on every bounded joint.
  const std::size_t joints = csvColumns(report.csv) - 1;
  std::size_t curves = 0;
  for (const auto& row : data.at("rows")) curves += row.at("curves").size();
  CHECK(check.at("joint_series") == rows * joints);
  CHECK(check.at("joint_plots") == joints);
  CHECK(check.at("curve_series") == curves);
  CHECK(check.at("drawn_series") == rows * joints + curves);
  CHECK(check.at("limit_lines").get<std::size_t>() >= 2 * joints);
  CHECK(check.at("table_rows") == rows);
  CHECK(check.at("mode_plots") == 0);  // no whole-body row
  // The slider moves the frame, the label, the plot cursors and every skeleton.
  CHECK(check.at("frame_after") == check.at("slider_target"));
  CHECK(check.at("frame_after") != check.at("frame_before"));
  CHECK(check.at("label_changed") == true);
  CHECK(check.at("cursor_moved") == true);
  CHECK(check.at("changed_canvases") == rows + 1);

  // A screenshot mid-wave, kept as a test artefact.
  const fs::path artefacts = fs::path(RETARGET_CLI_PATH).parent_path().parent_path().parent_path() / "test_artifacts";
  fs::create_directories(artefacts);
  const fs::path png = artefacts / "report_nao_wave.png";
  fs::remove(png);
  {
    const Browser s = runChromium(chromium, url + "#frame=60", "--screenshot='" + png.string() + "' --window-size=1400,1000");
    INFO("chromium exit " << s.code << "\nstderr:\n" << s.err.substr(0, 4000));
    CHECK(s.code == 0);
    REQUIRE(fs::exists(png));
    CHECK(fs::file_size(png) > 20000);
    CHECK(consoleLines(s.err).empty());
  }
  std::cout << "report screenshot: " << png.string() << "\n";
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
  const std::string chromium = findChromium();
  if (chromium.empty()) {
    retarget::test::recordSkip("no headless browser (install Debian's chromium, or set RETARGET_CHROMIUM=<path>)");
    MESSAGE("skipped the browser part: no headless browser found");
    return;
  }
  const Browser b = runChromium(chromium, "file://" + fs::absolute(html).string() + "#selftest", "--dump-dom");
  REQUIRE(b.code == 0);
  const std::string text = selfCheckText(b);
  REQUIRE_FALSE(text.empty());
  const nlohmann::json check = nlohmann::json::parse(text);
  INFO("self-check: " << check.dump());
  CHECK(check.at("errors").empty());
  CHECK(check.at("mode_plots") == 1);
  CHECK(check.at("mode_bands") == runs);
}
