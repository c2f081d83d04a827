#pragma once

// The tuning split (tests/tuning_split.md): which shared recordings, robots and generated motions
// each tuned constant was chosen on. A test that claims generalisation ("held out", "unseen")
// calls requireHeldOut() with the constants it checks and the data it runs on: a file that is in
// one of those constants' rows fails the test, named, so the claim cannot silently come to rest
// on tuning data.

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <doctest/doctest.h>

namespace retarget::test {

/// One row of tests/tuning_split.md.
struct TuningRow {
  std::string constant;                ///< the constant's name (first column, in backticks)
  std::vector<std::string> chosen_on;  ///< paths under shared/data, or generated:<name>
  std::string set_in;                  ///< where the constant is set (free text)
  int line = 0;                        ///< 1-based line of the row in the table
};

namespace internal {

/// The texts between pairs of backticks in `cell`, in order.
inline std::vector<std::string> backtickedTokens(const std::string& cell) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t open = cell.find('`', at);
    if (open == std::string::npos) break;
    const std::size_t close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(cell.substr(open + 1, close - open - 1));
    at = close + 1;
  }
  return out;
}

/// Parses the table's rows (lines that start with "| `"); throws std::runtime_error naming the
/// line for a row without three cells or without a constant.
inline std::vector<TuningRow> parseTuningSplit(std::istream& in, const std::string& name) {
  std::vector<TuningRow> rows;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream s(line.substr(1));
    std::string cell;
    while (std::getline(s, cell, '|')) cells.push_back(cell);
    if (cells.size() < 3) {
      throw std::runtime_error(name + ":" + std::to_string(number) + ": a row needs three cells");
    }
    const std::vector<std::string> constant = backtickedTokens(cells[0]);
    if (constant.size() != 1) {
      throw std::runtime_error(name + ":" + std::to_string(number) + ": the first cell names one constant in backticks");
    }
    TuningRow row;
    row.constant = constant.front();
    row.chosen_on = backtickedTokens(cells[1]);
    row.set_in = cells[2];
    row.line = number;
    rows.push_back(row);
  }
  return rows;
}

}  // namespace internal

/// The rows of tests/tuning_split.md (read once).
inline const std::vector<TuningRow>& tuningSplit() {
  static const std::vector<TuningRow> rows = [] {
    const std::string path = std::string(RETARGET_SOURCE_DIR) + "/tests/tuning_split.md";
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    return internal::parseTuningSplit(in, path);
  }();
  return rows;
}

/// What `constant` was chosen on; FAILs the test case when the table has no such row.
inline std::vector<std::string> tunedOn(const std::string& constant) {
  for (const TuningRow& row : tuningSplit()) {
    if (row.constant == constant) return row.chosen_on;
  }
  FAIL("tests/tuning_split.md has no row for the constant '" << constant << "'");
  return {};
}

/// The path of `file` as the table writes it: the part from its "kinect/", "bvh/", "urdf/" or
/// "mjcf/" folder on (a full path or a file name under shared/data both work).
inline std::string splitKey(const std::string& file) {
  for (const char* folder : {"kinect/", "bvh/", "urdf/", "mjcf/", "generated:"}) {
    const std::size_t at = file.rfind(folder);
    if (at != std::string::npos) return file.substr(at);
  }
  return file;
}

/// CHECKs that no entry of `data` (paths under shared/data, full paths, or generated:<name>) was
/// used to choose any of `constants`; each offending entry is named with the constant. Returns
/// the number of offending entries (0 when the claim of generalisation holds).
inline int requireHeldOut(const std::vector<std::string>& constants, const std::vector<std::string>& data) {
  int offending = 0;
  for (const std::string& constant : constants) {
    const std::vector<std::string> tuned = tunedOn(constant);
    for (const std::string& entry : data) {
      const std::string key = splitKey(entry);
      const bool tuned_here = std::find(tuned.begin(), tuned.end(), key) != tuned.end();
      CHECK_MESSAGE(!tuned_here, key << " is checked as held out, but tests/tuning_split.md lists it among the data '"
                                     << constant << "' was chosen on");
      offending += tuned_here ? 1 : 0;
    }
  }
  return offending;
}

}  // namespace retarget::test
