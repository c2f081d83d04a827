#pragma once

// The data a report page embeds, for the command-line tests that read `retarget report` output.

#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace retarget::test {

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
