// A downstream program using retarget::json: filter options to JSON text and back (nlohmann-json comes
// with the target).
#include <cstdio>

#include <retarget/json/filters.hpp>

int main() {
  retarget::OneEuroFilterOptions options;
  options.beta = 0.25;
  const std::string text = retarget::toJson(options).dump();
  const auto back = retarget::parseJson<retarget::OneEuroFilterOptions>(text, "options.json");
  std::printf("retarget::json: %s\n", text.c_str());
  return back.beta == options.beta ? 0 : 1;
}
