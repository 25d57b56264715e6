//===- harness/sut/file/SystemFile.cpp - A compiler described by a file ---===//
//
// Reading a system file with toml++ (Debian's libtomlplusplus-dev): every
// table's keys are checked against the ones the format knows, so a typo is
// an error naming its line, not a setting silently ignored; every command
// template's placeholders are checked too. docs/systems.md documents the
// format for users; the tables below are its schema.
//
//===----------------------------------------------------------------------===//

#include "harness/sut/file/SystemFile.h"

#include "support/FileIO.h"

#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace sift::harness {

namespace {

using FileError = detail::SystemFileError;

int lineOf(const toml::node &node) {
  return static_cast<int>(node.source().begin.line);
}

[[noreturn]] void fail(const toml::node &node, std::string message) {
  throw FileError{lineOf(node), std::move(message)};
}

std::string inQuotes(std::string_view text) {
  return "'" + std::string(text) + "'";
}

/// Every key of `table` must be one of `known` (`where` names the table).
void checkKeys(const toml::table &table, const std::set<std::string> &known,
               const std::string &where) {
  for (const auto &[key, value] : table) {
    if (known.count(std::string(key.str())))
      continue;
    std::string list;
    for (const std::string &name : known)
      list += (list.empty() ? "" : ", ") + name;
    throw FileError{static_cast<int>(key.source().begin.line),
                    "unknown key " + inQuotes(key.str()) + " in " + where +
                        " (known: " + list + ")"};
  }
}

const toml::node *find(const toml::table &table, const char *key) {
  return table.get(key);
}

std::string stringAt(const toml::table &table, const char *key,
                     const std::string &where, bool required,
                     std::string fallback = "") {
  const toml::node *node = find(table, key);
  if (!node) {
    if (required)
      throw FileError{lineOf(table), where + " needs " + inQuotes(key)};
    return fallback;
  }
  const auto *text = node->as_string();
  if (!text)
    fail(*node, inQuotes(key) + " in " + where + " must be a string");
  return text->get();
}

double secondsAt(const toml::table &table, const char *key, double fallback) {
  const toml::node *node = find(table, key);
  if (!node)
    return fallback;
  std::optional<double> value = node->value<double>();
  if (!value || !(*value > 0) || *value > 86400)
    fail(*node, inQuotes(key) + " must be a number of seconds in (0, 86400]");
  return *value;
}

std::vector<std::string> stringsAt(const toml::node &node,
                                   const std::string &what) {
  const auto *array = node.as_array();
  if (!array)
    fail(node, what + " must be an array of strings");
  std::vector<std::string> items;
  for (const toml::node &item : *array) {
    const auto *text = item.as_string();
    if (!text)
      fail(item, what + " must hold strings only");
    items.push_back(text->get());
  }
  return items;
}

bool isName(std::string_view name) {
  if (name.empty() || !std::islower(static_cast<unsigned char>(name[0])))
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '-';
  });
}

/// Which command a template is: its placeholders differ.
enum class TemplateKind { Step, Version, Install };

/// Why `name`, a placeholder known to some template, may not be used in a
/// template of `kind`; "" when it may.
std::string misplaced(const std::string &name, TemplateKind kind) {
  bool installOnly = name == "version" || name == "venv";
  switch (kind) {
  case TemplateKind::Step:
    return installOnly ? "{" + name + "} is for the [install] command only"
                       : "";
  case TemplateKind::Version:
    return name == "python" || name == "here"
               ? ""
               : "the version command may use {python} and {here} only, "
                 "not {" + name + "}";
  case TemplateKind::Install:
    return installOnly || name == "python" || name == "here"
               ? ""
               : "the [install] command may use {python}, {here}, "
                 "{version} and {venv} only, not {" + name + "}";
  }
  return "";
}

/// The placeholders of `arg` ("{x}" spans; "{{" and "}}" are braces).
/// Unknown ones, ones not allowed in a `kind` template and stray braces
/// are errors.
void checkPlaceholders(const toml::node &node, const std::string &arg,
                       TemplateKind kind) {
  const std::vector<std::string> &known = commandPlaceholders();
  for (size_t i = 0; i < arg.size(); ++i) {
    if ((arg[i] == '{' || arg[i] == '}') && i + 1 < arg.size() &&
        arg[i + 1] == arg[i]) {
      ++i;
      continue;
    }
    if (arg[i] == '}')
      fail(node, "a lone '}' in " + inQuotes(arg) + " (write '}}' for a brace)");
    if (arg[i] != '{')
      continue;
    size_t end = arg.find('}', i);
    if (end == std::string::npos)
      fail(node, "a '{' without its '}' in " + inQuotes(arg) +
                     " (write '{{' for a brace)");
    std::string name = arg.substr(i + 1, end - i - 1);
    bool installOnly = name == "version" || name == "venv";
    if (!installOnly &&
        std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const std::string &k : known)
        list += (list.empty() ? "{" : ", {") + k + "}";
      fail(node, "unknown placeholder {" + name + "} in " + inQuotes(arg) +
                     " (known: " + list + ")");
    }
    if (name == "options" && arg != "{options}")
      fail(node, "{options} must be a whole argument (it becomes the "
                 "pipeline's options, one argument each), not part of " +
                     inQuotes(arg));
    if (std::string why = misplaced(name, kind); !why.empty())
      fail(node, why);
    i = end;
  }
}

CommandTemplate commandAt(const toml::node &node, const std::string &what,
                          TemplateKind kind = TemplateKind::Step) {
  CommandTemplate command;
  command.line = lineOf(node);
  command.args = stringsAt(node, what);
  if (command.args.empty() || command.args[0].empty())
    fail(node, what + " must name a program to run first");
  for (const std::string &arg : command.args)
    checkPlaceholders(node, arg, kind);
  if (command.args[0] == "{options}")
    fail(node, what + " starts with {options}; name the program first");
  return command;
}

/// `[compile]` / `[run]`: { command = [...], seconds = N }.
CommandTemplate stepAt(const toml::table &file, const char *key,
                       double &seconds) {
  const toml::node *node = find(file, key);
  const auto *table = node->as_table();
  if (!table)
    fail(*node, inQuotes(key) + " must be a table ([" + std::string(key) + "])");
  checkKeys(*table, {"command", "seconds"}, "[" + std::string(key) + "]");
  const toml::node *command = find(*table, "command");
  if (!command)
    fail(*table, "[" + std::string(key) + "] needs 'command', an array: "
                 "the program and its arguments");
  seconds = secondsAt(*table, "seconds", seconds);
  return commandAt(*command, "[" + std::string(key) + "] command");
}

void readVersion(const toml::table &file, SystemFile &system) {
  const toml::node *node = find(file, "version");
  if (!node)
    throw FileError{lineOf(file), "the file needs 'version': a string, or "
                                  "{ command = [...] } whose first line of "
                                  "output is the version"};
  if (const auto *text = node->as_string()) {
    system.versionText = text->get();
    return;
  }
  const auto *table = node->as_table();
  if (!table)
    fail(*node, "'version' must be a string or { command = [...] }");
  checkKeys(*table, {"command"}, "'version'");
  const toml::node *command = find(*table, "command");
  if (!command)
    fail(*node, "'version' needs 'command'");
  system.versionCommand =
      commandAt(*command, "the version command", TemplateKind::Version);
}

void readPipeline(const toml::table &table, SystemFile &system) {
  checkKeys(table, {"name", "description", "targets", "options", "env"},
            "[[pipeline]]");
  SystemPipeline pipeline;
  pipeline.name = stringAt(table, "name", "[[pipeline]]", true);
  if (!isName(pipeline.name))
    fail(*find(table, "name"),
         "pipeline name " + inQuotes(pipeline.name) +
             " must be lower-case letters, digits and '-', starting with a "
             "letter");
  pipeline.fullName = pipeline.name == "default"
                          ? system.name
                          : system.name + "-" + pipeline.name;
  if (system.pipeline(pipeline.fullName))
    fail(*find(table, "name"), "a second pipeline named " +
                                   inQuotes(pipeline.name));
  pipeline.description = stringAt(table, "description", "[[pipeline]]", false);
  const toml::node *targets = find(table, "targets");
  if (!targets)
    fail(table, "[[pipeline]] " + inQuotes(pipeline.name) +
                    " needs 'targets': [\"host\"], [\"nvptx\"]...");
  for (const std::string &name : stringsAt(*targets, "'targets'")) {
    std::optional<TargetKind> target = parseTargetKind(name);
    if (!target)
      fail(*targets, "unknown target " + inQuotes(name) +
                         " (host, nvptx or amdgpu)");
    pipeline.targets.push_back(*target);
  }
  if (pipeline.targets.empty())
    fail(*targets, "'targets' is empty");
  if (const toml::node *options = find(table, "options"))
    pipeline.options = stringsAt(*options, "'options'");
  if (const toml::node *env = find(table, "env")) {
    const auto *vars = env->as_table();
    if (!vars)
      fail(*env, "'env' must be a table of strings: { NAME = \"value\" }");
    for (const auto &[key, value] : *vars) {
      const auto *text = value.as_string();
      if (!text)
        fail(value, "'env' values must be strings");
      pipeline.env[std::string(key.str())] = text->get();
    }
  }
  system.pipelines.push_back(std::move(pipeline));
}

void readPipelines(const toml::table &file, SystemFile &system) {
  const toml::node *node = find(file, "pipeline");
  if (!node)
    throw FileError{lineOf(file),
                    "the file needs at least one [[pipeline]] with a name "
                    "and its targets"};
  const auto *array = node->as_array();
  if (!array || !array->is_array_of_tables())
    fail(*node, "'pipeline' must be an array of tables ([[pipeline]])");
  for (const toml::node &item : *array)
    readPipeline(*item.as_table(), system);
}

void readLimits(const toml::table &file, SystemFile &system) {
  const toml::node *node = find(file, "limits");
  if (!node)
    return;
  const auto *table = node->as_table();
  if (!table)
    fail(*node, "'limits' must be a table ([limits])");
  checkKeys(*table, {"memory_mib"}, "[limits]");
  if (const toml::node *memory = find(*table, "memory_mib")) {
    std::optional<int64_t> mib = memory->value<int64_t>();
    if (!mib || *mib < 64)
      fail(*memory, "'memory_mib' must be a whole number of MiB, at least 64");
    system.memoryMiB = static_cast<uint64_t>(*mib);
  }
}

void readOutcomes(const toml::table &file, SystemFile &system) {
  const toml::node *node = find(file, "outcomes");
  if (!node)
    return;
  const auto *table = node->as_table();
  if (!table)
    fail(*node, "'outcomes' must be a table ([outcomes])");
  checkKeys(*table, {"unsupported_exit_codes", "limit"}, "[outcomes]");
  if (const toml::node *codes = find(*table, "unsupported_exit_codes")) {
    const auto *array = codes->as_array();
    if (!array)
      fail(*codes, "'unsupported_exit_codes' must be an array of integers");
    for (const toml::node &item : *array) {
      std::optional<int64_t> code = item.value<int64_t>();
      if (!code || *code < 1 || *code > 255)
        fail(item, "an exit code is a whole number in [1, 255]");
      system.unsupportedExitCodes.push_back(static_cast<int>(*code));
    }
  }
  const toml::node *limits = find(*table, "limit");
  if (!limits)
    return;
  const auto *array = limits->as_array();
  if (!array || !array->is_array_of_tables())
    fail(*limits, "'limit' must be an array of tables ([[outcomes.limit]])");
  for (const toml::node &item : *array) {
    const toml::table &limit = *item.as_table();
    checkKeys(limit, {"contains", "why", "source"}, "[[outcomes.limit]]");
    SystemLimit read{stringAt(limit, "contains", "[[outcomes.limit]]", true),
                     stringAt(limit, "why", "[[outcomes.limit]]", true),
                     stringAt(limit, "source", "[[outcomes.limit]]", true)};
    if (read.contains.empty())
      fail(limit, "'contains' is empty: it would match every failure");
    // Judged by the step that met it (oracles/StepVerdict): unsupported.
    system.limits.push_back(std::move(read));
  }
}

/// `[install]`: { versions = [...], command = [...] }.
void readInstall(const toml::table &file, SystemFile &system) {
  const toml::node *node = find(file, "install");
  if (!node)
    return;
  const auto *table = node->as_table();
  if (!table)
    fail(*node, "'install' must be a table ([install])");
  checkKeys(*table, {"versions", "command"}, "[install]");
  const toml::node *versions = find(*table, "versions");
  const toml::node *command = find(*table, "command");
  if (!versions || !command)
    fail(*table, "[install] needs 'versions' (the versions, oldest first) "
                 "and 'command' (how one is installed into {venv})");
  SystemInstall install;
  install.versions = stringsAt(*versions, "'versions'");
  if (install.versions.empty())
    fail(*versions, "'versions' is empty: bisect needs at least one version");
  std::set<std::string> seen;
  for (const std::string &version : install.versions)
    if (version.empty() || version.find_first_of("/ ") != std::string::npos ||
        version == "." || version == ".." || !seen.insert(version).second)
      fail(*versions, "version " + inQuotes(version) +
                          " is empty, repeated or not usable as a folder "
                          "name");
  install.command =
      commandAt(*command, "the [install] command", TemplateKind::Install);
  system.install = std::move(install);
}

} // namespace

const std::vector<std::string> &commandPlaceholders() {
  static const std::vector<std::string> names = {
      "python", "here",   "program", "inputs", "outputs", "artifacts",
      "options", "device", "target", "chip",   "pipeline"};
  return names;
}

const SystemPipeline *SystemFile::pipeline(const std::string &fullName) const {
  for (const SystemPipeline &p : pipelines)
    if (p.fullName == fullName)
      return &p;
  return nullptr;
}

// The semantic points (SystemSemantics.cpp).
void readSemantics(const toml::table &file, SystemFile &system);

namespace {

void readFile(const toml::table &file, SystemFile &system) {
  checkKeys(file,
            {"name", "description", "version", "format", "bf16", "pipeline",
             "compile", "run", "limits", "outcomes", "semantics", "install"},
            "the file");
  system.name = stringAt(file, "name", "the file", true);
  if (!isName(system.name))
    fail(*find(file, "name"),
         "system name " + inQuotes(system.name) +
             " must be lower-case letters, digits and '-', starting with a "
             "letter");
  if (parsePipelineKind(system.name) || system.name == "all" ||
      system.name == "iree-all" || system.name == "file")
    fail(*find(file, "name"), "system name " + inQuotes(system.name) +
                                  " is taken by sift's own or IREE's "
                                  "pipelines");
  system.description = stringAt(file, "description", "the file", false);
  readVersion(file, system);
  std::string format = stringAt(file, "format", "the file", true);
  std::optional<gen::ExchangeFormat> parsed = gen::parseExchangeFormat(format);
  if (!parsed) {
    std::string list;
    for (gen::ExchangeFormat f : gen::kAllExchangeFormats)
      list += (list.empty() ? "" : ", ") + std::string(gen::toString(f));
    fail(*find(file, "format"),
         "unknown format " + inQuotes(format) + " (known: " + list + ")");
  }
  system.format = *parsed;
  if (const toml::node *bf16 = find(file, "bf16")) {
    std::optional<bool> value = bf16->value<bool>();
    if (!value)
      fail(*bf16, "bf16 must be true or false");
    if (*value && !gen::exchangeCarriesBf16(system.format))
      fail(*bf16, "format " + inQuotes(format) +
                      " does not carry bf16 values (model-json and jax do)");
    system.bf16 = *value;
  }
  readPipelines(file, system);
  if (find(file, "compile"))
    system.compile = stepAt(file, "compile", system.compileSeconds);
  if (!find(file, "run"))
    throw FileError{lineOf(file), "the file needs [run] with 'command': how "
                                  "a compiled program is run"};
  system.run = stepAt(file, "run", system.runSeconds);
  readLimits(file, system);
  readOutcomes(file, system);
  readInstall(file, system);
  system.policy.system = system.name;
  readSemantics(file, system);
}

} // namespace

Result<SystemFile> parseSystemFile(const std::string &text,
                                   const std::string &path) {
  SystemFile system;
  system.path = path;
  std::error_code ec;
  system.folder =
      std::filesystem::absolute(path, ec).parent_path().lexically_normal();
  try {
    toml::table file = toml::parse(text, path);
    readFile(file, system);
  } catch (const toml::parse_error &error) {
    return makeError(path + ":" +
                     std::to_string(error.source().begin.line) +
                     ": not TOML: " + std::string(error.description()));
  } catch (const FileError &error) {
    return makeError(path + ":" + std::to_string(error.line) + ": " +
                     error.message);
  }
  return system;
}

Result<SystemFile> loadSystemFile(const std::string &path) {
  Result<std::vector<uint8_t>> bytes = readFileBytes(path);
  if (!bytes.ok())
    return makeError(bytes.message() + " (a system file)");
  return parseSystemFile(std::string(bytes->begin(), bytes->end()), path);
}

} // namespace sift::harness
