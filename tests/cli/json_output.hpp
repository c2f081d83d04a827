#pragma once

// JSON the command line prints (--json) or embeds in a report page, for the command-line tests.

#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.hpp"

namespace retarget::test {

/// The JSON a run printed on stdout; the test fails (showing both streams) when it exited non-zero.
inline nlohmann::json parsedOutput(const Run& r) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.code == 0);
  return nlohmann::json::parse(r.out);
}

/// The JSON the page embeds in <script type="application/json" id="report-data">; the test
/// fails when the page has none.
inline nlohmann::json reportData(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"report-data\">";
  const std::size_t begin = html.find(open);
  REQUIRE(begin != std::string::npos);
  const std::size_t end = html.find("</script>", begin);
  REQUIRE(end != std::string::npos);
  return nlohmann::json::parse(html.substr(begin + open.size(), end - begin - open.size()));
}

}  // namespace retarget::test
