#pragma once

// Table-driven malformed-input checks shared by the io reader tests: every case must throw a
// retarget::ParseError naming the expected file and line, with the expected text in its message.

#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

#include <retarget/core/error.hpp>

namespace retarget::test {

/// One malformed input: its text, the 1-based line the error must name (0: none), and a part of
/// the message.
struct ParseErrorCase {
  std::string text;
  std::size_t line;
  const char* message;
};

/// Runs `parse(text)` on every case and checks the ParseError's file, line and message (and
/// that the message starts "file:line: ").
template <typename Parse>
void checkParseErrors(const std::vector<ParseErrorCase>& cases, const std::string& file, Parse parse) {
  for (const ParseErrorCase& c : cases) {
    const std::string expected = c.message;
    CAPTURE(expected);
    try {
      parse(c.text);
      FAIL("no exception");
    } catch (const ParseError& e) {
      CHECK(e.file() == file);
      CHECK(e.line() == c.line);
      CHECK_MESSAGE(std::string(e.what()).find(c.message) != std::string::npos, std::string(e.what()));
      if (c.line > 0) CHECK(std::string(e.what()).find(file + ":" + std::to_string(c.line) + ": ") != std::string::npos);
    }
  }
}

}  // namespace retarget::test
