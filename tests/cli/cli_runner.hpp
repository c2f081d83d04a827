#pragma once

// Runs the built `retarget` program as a user would (RETARGET_CLI_PATH), capturing exit code,
// stdout and stderr, plus small file helpers for the command-line tests.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

// tests/CMakeLists.txt defines RETARGET_CLI_PATH as $<TARGET_FILE:retarget_cli>, the program built
// from apps/retarget (<build>/apps/retarget/retarget); the cli area exists only when it is built.
#ifndef RETARGET_CLI_PATH
#error "RETARGET_CLI_PATH must name the built retarget program (see tests/CMakeLists.txt)"
#endif

namespace retarget::test {

namespace fs = std::filesystem;

/// Outcome of one `retarget` run.
struct Run {
  int code = -1;
  std::string out;
  std::string err;
};

inline std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// A scratch folder for this test process.
inline fs::path tempDir() {
  const fs::path dir = fs::temp_directory_path() / ("retarget_cli_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

/// Runs `retarget <arguments>` with stdout and stderr captured in files.
inline Run run(const std::string& arguments) {
  const fs::path dir = tempDir();
  const fs::path out = dir / "stdout.txt";
  const fs::path err = dir / "stderr.txt";
  const std::string command =
      std::string("'") + RETARGET_CLI_PATH + "' " + arguments + " >'" + out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(command.c_str());
  Run result;
  result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = slurp(out);
  result.err = slurp(err);
  return result;
}

/// `path` in single quotes, for a shell command line.
inline std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace retarget::test
