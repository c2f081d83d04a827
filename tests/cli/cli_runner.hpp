#pragma once

// Runs the built `retarget` program as a user would (RETARGET_CLI_PATH), capturing exit code,
// stdout and stderr, plus small file helpers for the command-line tests.

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

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

/// `retarget <arguments>` started in the background (no shell), stdout and stderr in files, for
/// tests that stop it on an event (SIGINT as Ctrl-C) instead of after a fixed time. Killed
/// (SIGKILL) when destroyed before stop(), so a failed REQUIRE leaves no process behind.
class BackgroundRun {
 public:
  BackgroundRun(const std::vector<std::string>& arguments, const fs::path& out, const fs::path& err)
      : out_(out), err_(err) {
    std::vector<std::string> argv_text{RETARGET_CLI_PATH};
    argv_text.insert(argv_text.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    pid_ = ::fork();
    if (pid_ == 0) {
      FILE* redirected = std::freopen(out.c_str(), "w", stdout);
      redirected = std::freopen(err.c_str(), "w", stderr);
      (void)redirected;
      ::execv(RETARGET_CLI_PATH, argv.data());
      ::_exit(127);
    }
  }
  BackgroundRun(const BackgroundRun&) = delete;
  BackgroundRun& operator=(const BackgroundRun&) = delete;
  ~BackgroundRun() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  bool started() const { return pid_ > 0; }
  /// Sends `signal_number` and waits up to `deadline_ms` for the exit: the Run (code -1 unless
  /// it exited normally), or nullopt when it was still running then (it is killed later).
  std::optional<Run> stop(int signal_number, int deadline_ms) {
    if (pid_ <= 0) return std::nullopt;
    ::kill(pid_, signal_number);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(deadline_ms);
    int status = 0;
    while (::waitpid(pid_, &status, WNOHANG) != pid_) {
      if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    pid_ = -1;
    Run result;
    result.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = slurp(out_);
    result.err = slurp(err_);
    return result;
  }

 private:
  pid_t pid_ = -1;
  fs::path out_, err_;
};

/// `path` in single quotes, for a shell command line.
inline std::string quoted(const fs::path& path) { return "'" + path.string() + "'"; }

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline void write(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
}

}  // namespace retarget::test
