// `retarget batch <input dir | list file> --robot R --method M -o out/ [--jobs N] [--shard K/N]`:
// every supported motion file of a folder tree (or of a list) mapped onto one robot, in parallel,
// one joint-angle CSV per input mirroring the input tree, one summary JSONL line per file,
// resumable, shardable across machines.
//
// `retarget batch report <summary.jsonl...> -o batch.html`: those lines as one HTML page.
// `retarget batch merge <summary.jsonl...> -o merged.jsonl`: the shards' summaries as one file,
// byte-identical to the summary of an unsharded run.
//
// Guarantees (docs/batch.md):
//  - a CSV is written to `<out>.partial` and renamed into place when complete; its summary line
//    is appended (and flushed) only after the rename, so a killed run loses at most the files
//    being mapped at that moment, and a rerun redoes exactly those;
//  - a file is finished when the summary has its line and, for a converted file, its CSV exists;
//    reruns skip finished files (failed files too, unless --retry-errors);
//  - at the end the summary is rewritten sorted by path (one line per path, the last one), so
//    the bytes depend only on the set of files and their results, not on the thread schedule;
//  - shard K of N (0 <= K < N) takes the files whose FNV-1a 64-bit hash of the relative path
//    bytes (UTF-8, '/' separators) is K modulo N.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include <optional>

#include <retarget/core/error.hpp>

#include "batch_mapping.hpp"
#include "cli.hpp"
#include "comparison.hpp"
#include "motion_loading.hpp"
#include "robot_loading.hpp"

namespace retarget::cli {

/// FNV-1a, 64 bit, of the bytes of `text` (offset basis 14695981039346656037, prime
/// 1099511628211): the stable hash of `--shard`.
std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

namespace {

namespace fs = std::filesystem;

struct BatchRequest {
  std::string input;
  std::string robot;
  MethodSetup setup;
  std::string output_dir;
  int jobs = 0;
  std::string shard;  // "K/N"
  bool retry_errors = false;
  std::string format = "csv";  // --floating-base: csv | unitree
};

struct MergeRequest {
  std::vector<std::string> summaries;
  std::string output;
};

struct BatchReportRequest {
  std::vector<std::string> summaries;
  std::string output;
};

// One input file: its path to open and its path relative to the input root ('/' separators),
// which names its output and its summary line.
struct Entry {
  fs::path path;
  std::string rel;
};

bool supportedExtension(const fs::path& path) {
  const std::string ext = lowerExtension(path.string());
  return ext == ".bvh" || ext == ".skeleton" || ext == ".csv" || ext == ".txt";
}

std::vector<Entry> discover(const BatchRequest& request) {
  const fs::path input(request.input);
  std::vector<Entry> entries;
  if (fs::is_directory(input)) {
    std::error_code ec;
    const fs::path out_dir = fs::weakly_canonical(request.output_dir, ec);
    auto it = fs::recursive_directory_iterator(
        input, fs::directory_options::follow_directory_symlink | fs::directory_options::skip_permission_denied);
    for (; it != fs::recursive_directory_iterator(); ++it) {
      const fs::path& p = it->path();
      if (it->is_directory(ec)) {
        // Never read our own output (an output folder inside the input tree).
        if (fs::weakly_canonical(p, ec) == out_dir) it.disable_recursion_pending();
        continue;
      }
      if (!supportedExtension(p)) continue;
      entries.push_back(Entry{p, p.lexically_relative(input).generic_string()});
    }
  } else if (fs::is_regular_file(input)) {
    // A list: one path per line; blank lines and lines starting with '#' are skipped; relative
    // paths are relative to the list's folder and keep their form as the output name, absolute
    // ones are mirrored without their root.
    std::ifstream in(input);
    std::string line;
    while (std::getline(in, line)) {
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.pop_back();
      if (line.empty() || line[0] == '#') continue;
      const fs::path p(line);
      if (p.is_absolute()) {
        entries.push_back(Entry{p, p.relative_path().lexically_normal().generic_string()});
      } else {
        entries.push_back(Entry{input.parent_path() / p, p.lexically_normal().generic_string()});
      }
    }
  } else {
    throw ParseError(request.input, 0, "expected a folder of motion files or a list file (one path per line)");
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.rel < b.rel; });
  entries.erase(std::unique(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.rel == b.rel; }),
                entries.end());
  return entries;
}

// "K/N" -> (K, N); throws UsageError.
std::pair<std::uint64_t, std::uint64_t> parseShard(const std::string& text) {
  const auto slash = text.find('/');
  try {
    if (slash != std::string::npos) {
      std::size_t used_k = 0, used_n = 0;
      const long long k = std::stoll(text.substr(0, slash), &used_k);
      const long long n = std::stoll(text.substr(slash + 1), &used_n);
      if (used_k == slash && used_n == text.size() - slash - 1 && n >= 1 && k >= 0 && k < n) {
        return {static_cast<std::uint64_t>(k), static_cast<std::uint64_t>(n)};
      }
    }
  } catch (const std::exception&) {
  }
  throw UsageError("batch --shard: expected K/N with 0 <= K < N (got '" + text + "')");
}

std::string outputRel(const std::string& rel) { return fs::path(rel).replace_extension(".csv").generic_string(); }

std::string oneLine(std::string message) {
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  while (!message.empty() && message.back() == ' ') message.pop_back();
  return message;
}

// Summary lines by path: the last valid line of each path wins; unreadable lines (a line cut
// by an interruption) are dropped.
void readSummary(const fs::path& path, std::map<std::string, std::string>& lines) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("path") || !j["path"].is_string()) continue;
    lines[j["path"].get<std::string>()] = line;
  }
}

// Writes the lines sorted by path to `path` through a temporary file renamed into place.
void writeSummary(const fs::path& path, const std::map<std::string, std::string>& lines) {
  const fs::path partial = path.string() + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) throw ParseError(partial.string(), 0, "cannot write the summary");
    for (const auto& [key, line] : lines) out << line << '\n';
    out.flush();
    if (!out) throw ParseError(partial.string(), 0, "cannot write the summary");
  }
  fs::rename(partial, path);
}

std::string formatClock(double seconds) {
  if (!(seconds >= 0) || seconds > 359999) return "--:--";
  const long s = static_cast<long>(seconds + 0.5);
  char buffer[32];
  if (s >= 3600) {
    std::snprintf(buffer, sizeof(buffer), "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buffer, sizeof(buffer), "%ld:%02ld", s / 60, s % 60);
  }
  return buffer;
}

// Maps one file and returns its summary line (never throws: a bad file gives an error line).
std::string processEntry(const BatchRequest& request, const RobotModel<double>& model,
                         const SelfCollisionModel<double>* collision, const Entry& entry, const fs::path& out_dir,
                         long long& frames, bool& ok, std::string& error) {
  nlohmann::ordered_json line;
  line["path"] = entry.rel;
  ok = false;
  try {
    if (request.setup.floating_base) {
      const FloatingBaseFile f =
          mapFloatingBase(request.setup, model, "", loadMotion(entry.path.string()), entry.path.string());
      const std::string rel_out = outputRel(entry.rel);
      const fs::path target = out_dir / rel_out;
      fs::create_directories(target.parent_path());
      const fs::path partial = target.string() + ".partial";
      writeFloatingBaseCsv(f.trajectory, partial.string(),
                           request.setup.unitree ? FloatingBaseFormat::kUnitree : FloatingBaseFormat::kCsv);
      fs::rename(partial, target);
      line["status"] = "ok";
      line["robot"] = model.name();
      line["method"] = request.setup.method;
      line["floating_base"] = request.setup.unitree ? "unitree" : "csv";
      line["output"] = rel_out;
      line["frames"] = f.trajectory.size();
      line["scale"] = f.scale;
      line["stance_frames_left"] = f.trajectory.contacts.col(0).sum();
      line["stance_frames_right"] = f.trajectory.contacts.col(1).sum();
      line["rate_limited_frames"] = f.rate_limited;
      line["not_converged_frames"] = f.not_converged;
      line["contacts"] = groundContactJson(f.contacts, f.soles);
      frames = static_cast<long long>(f.trajectory.size());
      ok = true;
      return line.dump();
    }
    const MappedFile f = mapFile(request.setup, model, entry.path.string(), true, collision);
    const std::string rel_out = outputRel(entry.rel);
    const fs::path target = out_dir / rel_out;
    fs::create_directories(target.parent_path());
    const fs::path partial = target.string() + ".partial";
    writeMappedCsv(model, f.mapped, partial.string());
    fs::rename(partial, target);
    const MappedMotion<double>& m = f.mapped;
    line["status"] = "ok";
    line["format"] = f.format;
    line["robot"] = model.name();
    line["method"] = request.setup.method;
    line["output"] = rel_out;
    line["frames"] = m.size();
    line["clamped_frames"] = m.clamped_frames;
    line["held_frames"] = m.held_frames;
    line["invalid_frames"] = m.invalid_frames;
    line["discontinuity_frames"] = m.frames(StatusCode::kDiscontinuity);
    line["not_converged_frames"] = m.frames(StatusCode::kNotConverged);
    line["wbf_mean"] = f.wbf_mean ? nlohmann::ordered_json(*f.wbf_mean) : nlohmann::ordered_json(nullptr);
    line["llf_mean"] = f.llf_mean ? nlohmann::ordered_json(*f.llf_mean) : nlohmann::ordered_json(nullptr);
    // Physical metrics (docs/metrics.md); +inf (no finite limit) prints as null.
    const JointSmoothness& s = f.smoothness;
    line["velocity_peak"] = s.velocity_peak_max;
    line["velocity_violation_intervals"] = s.velocity_violation_intervals;
    line["acceleration_rms"] = s.acceleration_rms_all;
    line["jerk_rms"] = s.jerk_rms_all;
    line["limit_margin_min"] = s.limit_margin_min;
    line["penetration_max"] =
        f.penetration_max ? nlohmann::ordered_json(*f.penetration_max) : nlohmann::ordered_json(nullptr);
    if (request.setup.whole_body) {
      line["whole_body"] = true;
      addWholeBodySummary(f, line);
    }
    frames = static_cast<long long>(m.size());
    ok = true;
  } catch (const std::exception& e) {
    error = oneLine(e.what());
  } catch (...) {
    error = "unknown error";
  }
  if (!ok) {
    line["status"] = "error";
    line["robot"] = model.name();
    line["method"] = request.setup.method;
    line["error"] = error;
    frames = 0;
  }
  return line.dump();
}

void runBatch(const BatchRequest& request) {
  if (request.input.empty()) throw UsageError("batch: the input folder or list file is required");
  if (request.robot.empty()) throw UsageError("batch: --robot is required");
  if (request.setup.method.empty()) throw UsageError("batch: --method is required");
  if (request.output_dir.empty()) throw UsageError("batch: -o <output folder> is required");
  std::uint64_t shard_k = 0, shard_n = 1;
  if (!request.shard.empty()) std::tie(shard_k, shard_n) = parseShard(request.shard);

  const RobotModel<double> model = loadRobot(request.robot);
  checkMethodApplies(request.setup, model);
  const std::optional<SelfCollisionModel<double>> collision = cliCollisionModel(model);
  const fs::path out_dir(request.output_dir);
  fs::create_directories(out_dir);
  const fs::path summary_path =
      out_dir / (request.shard.empty() ? std::string("summary.jsonl")
                                       : "summary.shard-" + std::to_string(shard_k) + "-of-" + std::to_string(shard_n) +
                                             ".jsonl");

  std::vector<Entry> entries;
  for (Entry& e : discover(request)) {
    if (fnv1a64(e.rel) % shard_n == shard_k) entries.push_back(std::move(e));
  }
  // Resume: what the summary already records as finished.
  std::map<std::string, std::string> done;
  readSummary(summary_path, done);
  std::vector<const Entry*> pending;
  int skipped = 0;
  for (const Entry& e : entries) {
    const auto it = done.find(e.rel);
    bool finished = false;
    if (it != done.end()) {
      const nlohmann::json j = nlohmann::json::parse(it->second);
      const std::string status = j.value("status", "");
      finished = status == "ok" ? fs::exists(out_dir / outputRel(e.rel)) : (status == "error" && !request.retry_errors);
    }
    if (finished) {
      ++skipped;
    } else {
      pending.push_back(&e);
    }
  }
  // Cleans the summary of cut lines before appending (and keeps it a valid JSONL file).
  writeSummary(summary_path, done);

  const int jobs = std::max(1, request.jobs > 0 ? request.jobs : static_cast<int>(std::thread::hardware_concurrency()));
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  const auto start = std::chrono::steady_clock::now();
  std::ofstream summary(summary_path, std::ios::binary | std::ios::app);
  if (!summary) throw ParseError(summary_path.string(), 0, "cannot append to the summary");
  std::mutex mutex;  // guards summary, the counters below and the terminal
  std::size_t finished_files = 0;
  int failed = 0;
  long long total_frames = 0;
  auto last_draw = start - std::chrono::seconds(1);
  const std::size_t total = pending.size();
  std::cout << "batch: " << entries.size() << " files" << (request.shard.empty() ? "" : " in shard " + request.shard)
            << ", " << skipped << " already done, " << total << " to map with " << jobs << " jobs\n"
            << std::flush;

  std::atomic<std::size_t> next{0};
  const auto worker = [&] {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= total) return;
      const Entry& entry = *pending[i];
      long long frames = 0;
      bool ok = false;
      std::string error;
      const std::string line = processEntry(request, model, collision ? &*collision : nullptr, entry, out_dir, frames, ok, error);
      std::lock_guard<std::mutex> lock(mutex);
      summary << line << '\n';
      summary.flush();
      ++finished_files;
      total_frames += frames;
      failed += ok ? 0 : 1;
      const auto now = std::chrono::steady_clock::now();
      const double elapsed = std::chrono::duration<double>(now - start).count();
      const double file_rate = elapsed > 0 ? static_cast<double>(finished_files) / elapsed : 0;
      const double frame_rate = elapsed > 0 ? static_cast<double>(total_frames) / elapsed : 0;
      const double eta = file_rate > 0 ? static_cast<double>(total - finished_files) / file_rate : -1;
      if (!ok) {
        if (tty) std::cout << "\r\033[K";
        std::cerr << "retarget: batch: " << entry.rel << ": " << error << "\n" << std::flush;
      }
      if (tty) {
        if (now - last_draw >= std::chrono::milliseconds(100) || finished_files == total || !ok) {
          std::cout << "\r\033[K[" << finished_files << "/" << total << " files] " << total_frames << " frames, "
                    << fixed(file_rate, 1) << " files/s, " << fixed(frame_rate, 0) << " frames/s, ETA "
                    << formatClock(eta) << (failed > 0 ? ", " + std::to_string(failed) + " failed" : std::string())
                    << std::flush;
          last_draw = now;
        }
      } else {
        std::cout << "[" << finished_files << "/" << total << "] " << entry.rel << ": "
                  << (ok ? "ok, " + std::to_string(frames) + " frames" : "error") << " (" << total_frames
                  << " frames, " << fixed(file_rate, 1) << " files/s, " << fixed(frame_rate, 0)
                  << " frames/s, ETA " << formatClock(eta) << ")\n"
                  << std::flush;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int t = 1; t < std::min<int>(jobs, static_cast<int>(std::max<std::size_t>(1, total))); ++t) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  summary.close();
  if (tty && total > 0) std::cout << "\n";

  // The final summary: one line per path, sorted.
  std::map<std::string, std::string> lines;
  readSummary(summary_path, lines);
  writeSummary(summary_path, lines);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << "batch: " << (total - static_cast<std::size_t>(failed)) << " converted, " << failed << " failed, "
            << skipped << " skipped (already done); " << total_frames << " frames in " << fixed(elapsed, 2) << " s ("
            << fixed(elapsed > 0 ? static_cast<double>(total) / elapsed : 0, 2) << " files/s, "
            << fixed(elapsed > 0 ? static_cast<double>(total_frames) / elapsed : 0, 0) << " frames/s) -> "
            << summary_path.string() << "\n"
            << std::flush;
  if (failed > 0) {
    throw Error("[retarget] batch: " + std::to_string(failed) + " of " + std::to_string(total) +
                " files failed (each named above and in " + summary_path.string() + ")");
  }
}

void runMerge(const MergeRequest& request) {
  std::map<std::string, std::string> lines;
  for (const auto& path : request.summaries) readSummary(path, lines);
  const fs::path out(request.output);
  if (out.has_parent_path()) fs::create_directories(out.parent_path());
  writeSummary(out, lines);
  std::cout << "batch merge: " << lines.size() << " files from " << request.summaries.size() << " summaries -> "
            << request.output << "\n";
}

// `batch report`: the summaries' lines (one per file, the newest, sorted by path) as the report
// page's batch view: a sortable table of the takes and a plot per figure across them
// (docs/report.md, "Batch report").
void runBatchReport(const BatchReportRequest& request) {
  std::map<std::string, std::string> lines;
  for (const auto& path : request.summaries) readSummary(path, lines);
  if (lines.empty())
    throw UsageError("batch report: no summary line in " + std::to_string(request.summaries.size()) + " file(s)");
  nlohmann::ordered_json data;
  data["kind"] = "batch";
  data["summaries"] = request.summaries;
  data["takes"] = nlohmann::ordered_json::array();
  for (const auto& [path, line] : lines) data["takes"].push_back(nlohmann::ordered_json::parse(line));
  writeReportPage("retarget batch report: " + std::to_string(lines.size()) + " takes", data, request.output);
  std::cout << "batch report: " << lines.size() << " takes from " << request.summaries.size() << " summaries -> "
            << request.output << "\n";
}

const bool kBatchRegistered = registerCommand(Command{
    "batch",
    "Map every motion file of a folder tree (or list) onto a robot, in parallel, resumable and shardable; "
    "`batch merge` joins the shards' summaries, `batch report` shows them in one HTML page",
    [](CLI::App& command) {
      auto request = std::make_shared<BatchRequest>();
      auto merge = std::make_shared<MergeRequest>();
      auto report = std::make_shared<BatchReportRequest>();
      command.add_option("input", request->input, "folder of motion files (searched recursively) or a list file");
      command.add_option("--robot", request->robot, "built-in robot name or URDF file");
      command.add_option("--method", request->setup.method, "mapping method: " + methodNames(", "));
      command.add_option("--model", request->setup.model_path, "gpdm-pf: the learned .gpdm model (retarget learn gpdm)");
      command.add_option("--fallback", request->setup.fallback,
                         "gpdm-pf: ga-lvvj on frames the model does not explain (default: none)")
          ->check(CLI::IsMember({"none", "ga-lvvj"}));
      command.add_option("--config", request->setup.config_path,
                         "method configuration file (ga-lvvj, euler, humanoid; with --whole-body the method's "
                         "whole-body configuration)");
      command.add_flag(
          "--whole-body", request->setup.whole_body,
          "ga-lvvj, humanoid: the whole-body pipeline of `retarget map --whole-body` (support modes, balance)");
      command.add_option("--softening", request->setup.softening, "PICs softening factor K (seed 004 Eq. 3), 0..3")
          ->check(CLI::Range(0, 3));
      command.add_flag("--floating-base", request->setup.floating_base,
                       "humanoid: the root's pose, the contacts and planted soles, as `retarget map --floating-base`");
      command
          .add_option("--format", request->format, "--floating-base: csv (ours; default) or unitree (LAFAN1 layout)")
          ->check(CLI::IsMember({"csv", "unitree"}));
      command.add_option("--fps", request->setup.fps, "--floating-base: output frame rate (default: each motion's)")
          ->check(CLI::PositiveNumber);
      command.add_option("-o,--output", request->output_dir, "output folder (CSV per input, mirroring the input tree)");
      command.add_option("-j,--jobs", request->jobs, "worker threads (default: the machine's hardware threads)")
          ->check(CLI::NonNegativeNumber);
      command.add_option("--shard", request->shard,
                         "K/N: map only shard K (0-based) of N, by FNV-1a hash of the relative path");
      command.add_flag("--retry-errors", request->retry_errors, "redo files that failed in an earlier run");
      CLI::App* merge_command = command.add_subcommand(
          "merge", "Merge shard summaries into one summary, byte-identical to an unsharded run's");
      merge_command->add_option("summaries", merge->summaries, "summary JSONL files of the shards")
          ->required()
          ->check(CLI::ExistingFile);
      merge_command->add_option("-o,--output", merge->output, "merged summary file")->required();
      merge_command->callback([merge] { runMerge(*merge); });
      CLI::App* report_command = command.add_subcommand(
          "report", "Write one HTML page of the summaries: a sortable table of the takes, a plot per figure");
      report_command->add_option("summaries", report->summaries, "summary JSONL files (of a run or its shards)")
          ->required()
          ->check(CLI::ExistingFile);
      report_command->add_option("-o,--output", report->output, "HTML file to write")->required();
      report_command->callback([report] { runBatchReport(*report); });
      command.callback([request, merge_command, report_command] {
        if (merge_command->parsed() || report_command->parsed()) return;
        if (request->setup.floating_base && request->setup.method != "humanoid") {
          throw UsageError("batch: --floating-base works with --method humanoid only (got '" + request->setup.method +
                           "')");
        }
        if (!request->setup.floating_base && (request->format != "csv" || request->setup.fps > 0)) {
          throw UsageError("batch: --format and --fps need --floating-base");
        }
        request->setup.unitree = request->format == "unitree";
        runBatch(*request);
      });
    }});

}  // namespace
}  // namespace retarget::cli
