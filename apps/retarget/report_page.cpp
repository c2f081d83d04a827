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

}  // namespace

/// The report page: page.html with @TITLE@ (escaped), @STYLE@, @SCRIPT@ and @DATA@ replaced where
/// they stand, in one pass (what is inserted is never searched for markers). `data_json` is
/// already safe inside <script>: it holds no "</".
std::string reportPage(const std::string& title, const std::string& data_json) {
  const std::string escaped_title = escapeHtml(title);
  const std::array<std::pair<std::string_view, std::string_view>, 4> markers{{
      {"@TITLE@", escaped_title},
      {"@STYLE@", withoutFinalNewline(kReportPageCss)},
      {"@SCRIPT@", withoutFinalNewline(kReportPageJs)},
      {"@DATA@", data_json},
  }};
  std::string page;
  page.reserve(kReportPageHtml.size() + kReportPageCss.size() + kReportPageJs.size() + data_json.size());
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
