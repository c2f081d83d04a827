// `retarget`: human motion to humanoid robot joint motion, from the command line.
#include <iostream>
#include <string>

#include <retarget/core/error.hpp>
#include <retarget/version.hpp>

#include "cli.hpp"
#include "motion_loading.hpp"

namespace retarget::cli {

namespace {
std::map<std::string, Command>& commandRegistry() {
  static std::map<std::string, Command> registry;
  return registry;
}
std::vector<InfoHandler>& infoRegistry() {
  static std::vector<InfoHandler> registry;
  return registry;
}
std::map<std::string, MapMethod>& mapRegistry() {
  static std::map<std::string, MapMethod> registry;
  return registry;
}
std::map<std::string, EvalMetrics>& evalRegistry() {
  static std::map<std::string, EvalMetrics> registry;
  return registry;
}
}  // namespace

bool registerCommand(Command command) {
  const std::string name = command.name;
  commandRegistry().emplace(name, std::move(command));
  return true;
}
const std::map<std::string, Command>& commands() { return commandRegistry(); }
bool registerInfoHandler(InfoHandler handler) {
  infoRegistry().push_back(std::move(handler));
  return true;
}
const std::vector<InfoHandler>& infoHandlers() { return infoRegistry(); }
bool registerMapMethod(MapMethod method) {
  const std::string name = method.name;
  mapRegistry().emplace(name, std::move(method));
  return true;
}
const std::map<std::string, MapMethod>& mapMethods() { return mapRegistry(); }
bool registerEvalMetrics(EvalMetrics metrics) {
  const std::string name = metrics.name;
  evalRegistry().emplace(name, std::move(metrics));
  return true;
}
const std::map<std::string, EvalMetrics>& evalMetrics() { return evalRegistry(); }

}  // namespace retarget::cli

namespace {

// Prints one error message on stderr: `prefix` + `what`, ending with exactly one newline (library
// and third-party messages may or may not end with one), then flushes.
void printError(const char* prefix, const char* what) {
  std::string message = std::string(prefix) + (what != nullptr ? what : "unknown error");
  while (!message.empty() && (message.back() == '\n' || message.back() == '\r')) message.pop_back();
  std::cerr << message << '\n' << std::flush;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace retarget::cli;
  CLI::App app{"retarget: map human motion onto humanoid robots and measure the imitation"};
  app.set_version_flag("--version", std::string("retarget ") + retarget::kVersionString);
  app.require_subcommand(1);
  // Anywhere on the line (before or after the subcommand): a schema for BVH rigs.
  app.fallthrough();
  app.add_option("--schema", "skeleton schema file for BVH motions (overrides the built-in rigs and the automatic "
                             "binding; `retarget schema suggest file.bvh > my.schema` writes one to edit)")
      ->check(CLI::ExistingFile)
      ->each([](const std::string& path) { setBvhSchemaFile(path); });
  try {
    for (const auto& [name, command] : commands()) {
      CLI::App* sub = app.add_subcommand(name, command.description);
      command.setup(*sub);
    }
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  } catch (const UsageError& e) {
    printError("retarget: ", e.what());
    return kExitUsage;
  } catch (const retarget::Error& e) {
    printError("", e.what());  // already "[retarget] ..."
    return kExitBadInput;
  } catch (const std::exception& e) {
    printError("retarget: ", e.what());
    return kExitBadInput;
  } catch (...) {
    printError("retarget: ", "unknown error");
    return kExitBadInput;
  }
  return kExitOk;
}
