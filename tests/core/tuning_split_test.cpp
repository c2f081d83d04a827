// tests/tuning_split.md, the table of which shared data each tuned constant was chosen on
// (support/tuning_split.hpp): every row parses, every constant is named once, every path it lists
// exists under shared/data, and requireHeldOut() fails on a file of a constant's row.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <sstream>

#include "support/test_support.hpp"
#include "support/tuning_split.hpp"

using namespace retarget::test;

TEST_CASE("tuning split: every row names one constant once and data that exists") {
  RETARGET_REQUIRE_TEST_DATA(data);
  const std::vector<TuningRow>& rows = tuningSplit();
  REQUIRE(rows.size() >= 2);
  std::set<std::string> constants;
  for (const TuningRow& row : rows) {
    CAPTURE(row.constant);
    CAPTURE(row.line);
    CHECK(constants.insert(row.constant).second);
    CHECK_FALSE(row.chosen_on.empty());
    for (const std::string& entry : row.chosen_on) {
      CAPTURE(entry);
      if (entry.rfind("generated:", 0) == 0) {
        CHECK(entry.size() > std::string("generated:").size());
        continue;
      }
      CHECK(std::filesystem::is_regular_file(data / entry));
    }
  }
}

TEST_CASE("tuning split: a held-out claim on a file the constant was chosen on fails, named") {
  std::istringstream table(
      "| constant | chosen on | set in |\n"
      "|---|---|---|\n"
      "| `demo_constant` | `kinect/a.csv`, `bvh/b.bvh` | here |\n");
  const std::vector<TuningRow> rows = retarget::test::internal::parseTuningSplit(table, "fixture");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0].constant == "demo_constant");
  CHECK(rows[0].chosen_on == std::vector<std::string>{"kinect/a.csv", "bvh/b.bvh"});
  CHECK(rows[0].line == 3);
  CHECK(splitKey("/somewhere/shared/data/kinect/a.csv") == "kinect/a.csv");
  // A file no constant lists passes.
  CHECK(requireHeldOut({"humanoid_mapper_defaults"}, {"bvh/not_in_any_row.bvh"}) == 0);
  std::istringstream bad("| `a` | `x` |\n");
  CHECK_THROWS_WITH(retarget::test::internal::parseTuningSplit(bad, "bad.md"), "bad.md:1: a row needs three cells");
}

// doctest::should_fail: this case passes only if requireHeldOut's CHECK fails on a tuned file.
TEST_CASE("tuning split: requireHeldOut fails a check on a file the constant was chosen on" * doctest::should_fail()) {
  const std::vector<std::string> tuned = tunedOn("humanoid_mapper_defaults");
  REQUIRE_FALSE(tuned.empty());
  requireHeldOut({"humanoid_mapper_defaults"}, {"/x/shared/data/" + tuned.front()});
}
