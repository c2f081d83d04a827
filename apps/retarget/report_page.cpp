// The page of `retarget report`: apps/retarget/report/page.html with its style (page.css), its
// drawing code (page.js) and the report's data inlined, so that the file opens offline as it is.
// The three files are compiled into the program at build time (cmake/retargetEmbedFile.cmake);
// what the page draws and how it checks itself: page.js and docs/report.md.
#include <array>
#include <string>
#include <string_view>
#include <utility>

namespace retarget::cli {

// apps/retarget/report/*, generated sources (apps/retarget/CMakeLists.txt).
extern const std::string_view kReportPageHtml;
extern const std::string_view kReportPageCss;
extern const std::string_view kReportPageJs;
// The libraries (Debian's libjs-three and libjs-dygraphs), as installed.
extern const std::string_view kReportThreeJs;
extern const std::string_view kReportOrbitControlsJs;
extern const std::string_view kReportDygraphJs;
extern const std::string_view kReportDygraphSynchronizerJs;
extern const std::string_view kReportDygraphCss;

namespace {

std::string escapeHtml(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// A file inserted for a marker on a line of its own: its last newline stands for the marker's.
std::string_view withoutFinalNewline(std::string_view text) {
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  return text;
}

// The libraries' scripts, in the order they load (the orbit controls extend three.js, the
// synchronizer dygraphs), each in a <script> element of its own that names its file.
std::string libraryScripts() {
  const std::array<std::pair<const char*, std::string_view>, 4> scripts{{
      {"three.min.js", kReportThreeJs},
      {"OrbitControls.js", kReportOrbitControlsJs},
      {"dygraph.min.js", kReportDygraphJs},
      {"synchronizer.js", kReportDygraphSynchronizerJs},
  }};
  std::string out;
  for (const auto& [name, text] : scripts) {
    out += "<script data-library=\"";
    out += name;
    out += "\">\n";
    out += withoutFinalNewline(text);
    out += "\n</script>\n";
  }
  out.pop_back();  // the marker's own line ends it
  return out;
}

}  // namespace

/// The report page: page.html with @TITLE@ (escaped), @LIBRARY_STYLE@, @STYLE@, @DATA@,
/// @LIBRARIES@ and @SCRIPT@ replaced where they stand, in one pass (what is inserted is never
/// searched for markers). `data_json` is already safe inside <script>: it holds no "</"; nor do
/// the libraries (tests/cli/report_test.cpp checks).
std::string reportPage(const std::string& title, const std::string& data_json) {
  const std::string escaped_title = escapeHtml(title);
  const std::string libraries = libraryScripts();
  const std::array<std::pair<std::string_view, std::string_view>, 6> markers{{
      {"@TITLE@", escaped_title},
      {"@LIBRARY_STYLE@", withoutFinalNewline(kReportDygraphCss)},
      {"@LIBRARIES@", libraries},
      {"@STYLE@", withoutFinalNewline(kReportPageCss)},
      {"@SCRIPT@", withoutFinalNewline(kReportPageJs)},
      {"@DATA@", data_json},
  }};
  std::string page;
  page.reserve(kReportPageHtml.size() + kReportPageCss.size() + kReportPageJs.size() + libraries.size() +
               kReportDygraphCss.size() + data_json.size());
  std::size_t at = 0;  // the template's first character not yet copied
  for (;;) {
    // The marker that comes first from `at` on.
    std::size_t next = std::string_view::npos;
    const std::pair<std::string_view, std::string_view>* found = nullptr;
    for (const auto& marker : markers) {
      const std::size_t where = kReportPageHtml.find(marker.first, at);
      if (where < next) {
        next = where;
        found = &marker;
      }
    }
    if (found == nullptr) break;
    page.append(kReportPageHtml.substr(at, next - at));
    page.append(found->second);
    at = next + found->first.size();
  }
  page.append(kReportPageHtml.substr(at));
  return page;
}

}  // namespace retarget::cli
