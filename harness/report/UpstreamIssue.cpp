//===- harness/report/UpstreamIssue.cpp - Issues upstream -----------------===//
//
// A file system's issue is made from its case folder alone: nothing is run
// again (the system may not be installed where the issue is written), so
// the issue says so and asks for the check by hand. The command it gives
// runs in the issue's folder on a machine without sift: "{python}" is
// python3, the system file's folder ("{here}") is the issue's, where the
// files of it the command names (the runner) are copied. The command sift
// ran is given too, over the issue's folder.
//
//===----------------------------------------------------------------------===//

#include "harness/report/UpstreamIssue.h"

#include "harness/sut/file/FileSystem.h"
#include "oracles/Compare.h"
#include "oracles/ComparisonPolicy.h"
#include "support/Command.h"
#include "support/FileIO.h"
#include "support/Npy.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

namespace fs = std::filesystem;

namespace sift::harness {

std::string issueValues(const HostTensor &t) {
  std::string text = describe(t.type, t.shape) + " =";
  int64_t shown = std::min<int64_t>(t.numElements(), 64);
  size_t width = byteWidth(t.type);
  for (int64_t i = 0; i < shown; ++i) {
    std::string value = oracle::formatValue(
        t.type, t.data.data() + static_cast<size_t>(i) * width);
    text += " " + value.substr(0, value.find(" ("));
  }
  if (shown < t.numElements())
    text += " ... (" + std::to_string(t.numElements()) + " elements)";
  return text;
}

std::string issueFenced(const std::string &language, const std::string &body) {
  return "```" + language + "\n" + body +
         (body.empty() || body.back() == '\n' ? "" : "\n") + "```\n";
}

namespace {

/// The program kept inline at most (a larger one is only named).
constexpr size_t kInlineProgramBytes = 16 * 1024;

/// What the issue says of a case beyond its StoredCase: the program file's
/// bytes and the outputs the case folder kept.
struct IssueCase {
  const StoredCase &stored;
  const SystemFile &file;
  std::string program;
  std::vector<HostTensor> expected, actual;
};

/// The case folder's program file, expected<i>.npy and actual<i>.npy; an
/// error names the file.
Status readIssueCase(IssueCase &c) {
  fs::path folder(c.stored.folder);
  if (c.stored.programFile.empty())
    return makeError((folder / "case.json").string() +
                     ": no \"program_file\": not a case of a system "
                     "described by a file");
  std::string expectedName(gen::programFileName(c.file.format));
  if (c.stored.programFile != expectedName)
    return makeError((folder / "case.json").string() + ": the program is " +
                     c.stored.programFile + ", but " + c.file.path +
                     " writes " + expectedName +
                     " (the system file changed since the case was found)");
  fs::path program = folder / c.stored.programFile;
  std::error_code ec;
  if (!fs::exists(program, ec))
    return makeError(program.string() + ": no such file (the program "
                                        "case.json's \"program_file\" names)");
  Result<std::vector<uint8_t>> bytes = readFileBytes(program.string());
  if (!bytes.ok())
    return bytes.error();
  c.program.assign(bytes->begin(), bytes->end());
  for (auto [prefix, tensors] :
       {std::pair{"expected", &c.expected}, {"actual", &c.actual}}) {
    Result<std::vector<HostTensor>> read = loadCaseTensors(folder, prefix);
    if (!read.ok())
      return makeError(c.stored.folder + ": " + read.message());
    *tensors = std::move(*read);
  }
  return Status::success();
}

/// "a sort", "a top-k", "an NMS": the program's first op of a family (what
/// its signature names).
std::string familyOf(const gen::Program &program) {
  for (const gen::Op &op : program.ops)
    switch (op.kind) {
    case gen::OpKind::Sort: return "a sort";
    case gen::OpKind::TopK: return "a top-k";
    case gen::OpKind::Nms: return "an NMS";
    default: break;
    }
  return "a program";
}

/// The symptom a title names: what went wrong, and with what.
std::string symptomOf(oracle::Verdict verdict, const gen::Program &program) {
  std::string op = familyOf(program);
  switch (verdict) {
  case oracle::Verdict::Mismatch: return "wrong result of " + op;
  case oracle::Verdict::CompileCrash: return "crash compiling " + op;
  case oracle::Verdict::CompileError: return "error compiling " + op;
  case oracle::Verdict::CompileTimeout: return "compile of " + op + " hangs";
  case oracle::Verdict::RuntimeError: return "error running " + op;
  case oracle::Verdict::RunTimeout: return "run of " + op + " hangs";
  case oracle::Verdict::Nondeterministic:
    return "two runs of " + op + " differ";
  default: return std::string(oracle::toString(verdict)) + " with " + op;
  }
}

/// Whether policy point `key` can change the comparison of `program`.
bool pointApplies(const std::string &key, const gen::Program &program) {
  bool sort = false, topk = false, nms = false, sigmoid = false, real = false;
  for (const gen::Op &op : program.ops) {
    sort |= op.kind == gen::OpKind::Sort;
    topk |= op.kind == gen::OpKind::TopK;
    nms |= op.kind == gen::OpKind::Nms;
    sigmoid |=
        op.kind == gen::OpKind::Elementwise && op.ew == gen::EwKind::Sigmoid;
  }
  for (const gen::TensorType &type : program.values)
    real |= isFloat(type.elementType);
  if (key == "stable_sort")
    return sort;
  if (key == "topk_ties")
    return topk;
  if (key == "nan_order" || key == "signed_zero")
    return (sort || topk) && real;
  if (key.rfind("nms_", 0) == 0)
    return nms;
  if (key == "denormals")
    return real;
  if (key == "transcendentals")
    return sigmoid;
  return true;
}

/// `text` for a Markdown table's cell.
std::string cell(const std::string &text) {
  std::string out;
  for (char c : text)
    out += c == '|'    ? std::string("\\|")
           : c == '\n' ? std::string(" ")
                       : std::string(1, c);
  return out;
}

/// The comparison policy section: every point of docs/SEMANTICS.md that
/// can change this program's comparison, as the system file states it
/// (value and source) or sift's own rule where it says nothing.
std::string policySection(const IssueCase &c) {
  std::string rows;
  for (const oracle::PolicyPoint &point : oracle::policyPoints()) {
    if (!pointApplies(point.key, c.stored.program))
      continue;
    auto stated = std::find_if(
        c.file.semantics.begin(), c.file.semantics.end(),
        [&](const SemanticPoint &p) { return p.key == point.key; });
    if (stated != c.file.semantics.end())
      rows += "| `" + stated->key + "` | " + cell(stated->value) + " | " +
              cell(stated->source) + " |\n";
    else
      rows += "| `" + std::string(point.key) + "` | " + point.values[0] +
              " (sift's rule; " + c.file.name +
              "'s file states nothing else) | docs/SEMANTICS.md: " +
              cell(point.meaning) + " |\n";
  }
  std::string md = "\n## Comparison policy\n\nsift compared the outputs with "
                   "its reference under the points of " +
                   c.file.name +
                   "'s documented semantics that apply to this program "
                   "(the `[semantics]` table of `" +
                   c.file.path + "`; docs/systems.md):\n\n";
  if (rows.empty())
    return md + "none: no point of the policy applies to this program "
                "(sift's rules, exactly).\n";
  return md + "| point | value | source |\n| --- | --- | --- |\n" + rows;
}

/// The system's command line to run in the issue's folder: python3 for
/// "{python}", the issue's folder for "{here}" and for the case's folder.
/// `copies` gets the files of the system file's folder it names (from,
/// to: relative to the issue's folder).
std::string
portableCommand(const IssueCase &c,
                std::vector<std::pair<std::string, std::string>> &copies) {
  std::string line;
  for (const CommandTemplate *step :
       {c.file.compile ? &*c.file.compile : nullptr, &c.file.run}) {
    if (!step)
      continue;
    CommandValues here = systemCommandValues(c.file, c.stored.options, ".");
    CommandValues portable = here;
    portable.values["python"] = "python3";
    portable.values["here"] = ".";
    std::vector<std::string> real = expandCommand(*step, here);
    std::vector<std::string> args = expandCommand(*step, portable);
    std::error_code ec;
    for (size_t i = 0; i < args.size() && i < real.size(); ++i)
      if (args[i] != real[i] && args[i].rfind("./", 0) == 0 &&
          fs::is_regular_file(real[i], ec))
        copies.emplace_back(real[i], args[i].substr(2));
    std::string env;
    for (const auto &[name, value] :
         systemPipelineOf(c.file, c.stored.options.pipeline,
                          c.stored.options.filePipeline)
             .env)
      env += name + "=" + shellLine({value}) + " ";
    line += (line.empty() ? "" : " && \\\n  ") + env + shellLine(args);
  }
  return line + "\n";
}

/// case.json's system_command with its folder CASE the issue's folder
/// (`outDir`, shell-quoted).
std::string recordedCommand(const std::string &command,
                            const std::string &outDir) {
  static const std::regex caseWord(R"((^|[\s='"])CASE(/|$|[\s'"]))");
  std::string dir =
      shellLine({fs::absolute(outDir).lexically_normal().string()});
  return std::regex_replace(command, caseWord, "$1" + dir + "$2") + "\n";
}

/// The inputs, one line each: type and values (the first 64).
std::string inputsSection(const IssueCase &c) {
  std::string lines;
  for (size_t i = 0; i < c.stored.inputs.size(); ++i)
    lines += "inputs/input_" + std::to_string(i) +
             ".npy: " + issueValues(c.stored.inputs[i]) + "\n";
  return "\n## Inputs\n\n" +
         issueFenced("", lines.empty() ? "(none)\n" : lines);
}

/// The output the detail names first ("output N at ..."), or -1.
int firstDifferingOutput(const std::string &detail) {
  std::smatch match;
  static const std::regex output(R"(^output (\d+) at )");
  if (std::regex_search(detail, match, output))
    return std::stoi(match[1]);
  return -1;
}

/// The outputs: the first difference as sift saw it, and the expected and
/// actual values of the output it names (of every output when it names
/// none).
std::string outputsSection(const IssueCase &c) {
  if (c.expected.empty() && c.actual.empty())
    return "";
  int first = firstDifferingOutput(c.stored.detail);
  std::string lines;
  for (size_t i = 0; i < std::max(c.expected.size(), c.actual.size()); ++i) {
    if (first >= 0 && static_cast<size_t>(first) != i)
      continue;
    std::string name = "output_" + std::to_string(i) + ".npy: ";
    if (i < c.expected.size())
      lines += "expected/" + name + issueValues(c.expected[i]) + "\n";
    if (i < c.actual.size())
      lines += "actual/" + name + "  " + issueValues(c.actual[i]) + "\n";
  }
  std::string md = c.actual.empty()
                       ? "\n## Expected outputs\n\n" + c.file.name +
                             " gave none; sift's reference:\n\n"
                       : std::string("\n## Expected and actual outputs\n\n");
  if (first >= 0)
    md += "The first difference: " +
          c.stored.detail.substr(0, c.stored.detail.find('\n')) + ".\n\n";
  md += issueFenced("", lines);
  if (first >= 0 && !c.actual.empty())
    md += "\nAfter the command above, `outputs/` holds " + c.file.name +
          "'s outputs again:\n\n" +
          issueFenced("sh", "python3 -c \"import numpy as np; print(np.load("
                            "'expected/output_" +
                                std::to_string(first) +
                                ".npy')); print(np.load('outputs/output_" +
                                std::to_string(first) + ".npy'))\"");
  return md;
}

/// The detail as sift saw it: its first 16 lines of at most 400 columns.
std::string sawSection(const std::string &detail) {
  constexpr size_t kLines = 16, kColumns = 400;
  std::istringstream in(detail);
  std::string out;
  size_t lines = 0;
  for (std::string line; std::getline(in, line);) {
    if (++lines > kLines) {
      out += "[...]\n";
      break;
    }
    out +=
        (line.size() > kColumns ? line.substr(0, kColumns) + " [...]" : line) +
        "\n";
  }
  return "\n## What sift saw\n\n" + issueFenced("", out);
}

/// Where the expected values come from, whether sift reduced the case, and
/// the check left to a person.
std::string trustSection(const IssueCase &c) {
  const nlohmann::json &kept = c.stored.keptFields;
  std::string reduced =
      kept.contains("reduced_from") && kept["reduced_from"].is_string()
          ? "sift reduced this case (from " +
                kept["reduced_from"].get<std::string>() +
                (kept.contains("original_ops_times_elements") &&
                         kept.contains("ops_times_elements")
                     ? ", ops x elements " +
                           kept["original_ops_times_elements"].dump() + " -> " +
                           kept["ops_times_elements"].dump()
                     : std::string()) +
                ")"
          : "sift did not reduce this case (`harness reduce` makes it "
            "smaller before filing)";
  std::string check = c.actual.empty() ? "check that it still fails this way"
                                       : "check its outputs by hand";
  return "\n## Before filing\n\nThe expected outputs are sift's reference: "
         "what docs/SEMANTICS.md says the ops compute, compared under the "
         "policy above. " +
         reduced +
         ". Nothing was run again to write this "
         "issue: run the command above with " +
         c.file.name + " (`" + c.stored.systemVersion + "`) and " + check +
         " before filing.\n";
}

std::string
issueText(const IssueCase &c, const std::string &outDir,
          std::vector<std::pair<std::string, std::string>> &copies) {
  const CaseOptions &o = c.stored.options;
  const SystemPipeline &pipeline =
      systemPipelineOf(c.file, o.pipeline, o.filePipeline);
  std::string first = c.stored.detail.substr(0, c.stored.detail.find('\n'));
  std::ostringstream md;
  md << "# " << c.file.name << ": "
     << symptomOf(c.stored.expected, c.stored.program) << " ("
     << pipelineName(o) << ", " << toString(o.target) << ")"
     << (first.empty() ? "" : ": " + first) << "\n\n";
  md << "- system: " << c.file.name << ", version `" << c.stored.systemVersion
     << "`"
     << (c.file.description.empty() ? "" : " (" + c.file.description + ")")
     << "\n";
  md << "- pipeline: " << pipeline.fullName
     << (pipeline.description.empty() ? "" : ": " + pipeline.description)
     << "\n";
  md << "- target: " << toString(o.target) << "\n";
  md << "- verdict: " << oracle::toString(c.stored.expected)
     << (c.stored.stage.empty() ? "" : " at " + c.stored.stage) << "\n";
  md << "- found by sift (case " << c.stored.folder << ", seed "
     << c.stored.seed << ")\n";
  std::string extension = fs::path(c.stored.programFile).extension().string();
  std::string language = extension == ".py"     ? "python"
                         : extension == ".mlir" ? "mlir"
                         : extension == ".json" ? "json"
                                                : "";
  bool text = c.program.find('\0') == std::string::npos;
  md << "\n## Program (`" << c.stored.programFile << "`)\n\n";
  if (text && c.program.size() <= kInlineProgramBytes)
    md << issueFenced(language, c.program);
  else
    md << "`" << c.stored.programFile << "` beside this report ("
       << c.program.size() << " bytes" << (text ? "" : ", binary") << ").\n";
  md << "\n## Reproduce\n\nIn this folder, with " << c.file.name
     << " installed (it reads `" << c.stored.programFile
     << "` and `inputs/`, writes `outputs/`):\n\n"
     << issueFenced("sh", portableCommand(c, copies));
  if (!c.stored.systemCommand.empty())
    md << "\nThe command sift ran (case.json's `system_command`, over this "
          "folder):\n\n"
       << issueFenced("sh", recordedCommand(c.stored.systemCommand, outDir));
  md << inputsSection(c) << outputsSection(c);
  // A mismatch's one-line detail is the first difference, shown above.
  if (!c.stored.detail.empty() &&
      (firstDifferingOutput(c.stored.detail) < 0 ||
       c.stored.detail.find('\n') != std::string::npos))
    md << sawSection(c.stored.detail);
  md << policySection(c) << trustSection(c);
  return md.str();
}

Status writeText(const fs::path &file, const std::string &text) {
  return writeFileAtomic(file.string(),
                         reinterpret_cast<const uint8_t *>(text.data()),
                         text.size());
}

/// `tensors` as `dir`/output_<i>.npy (or input_<i>.npy: `prefix`).
Status writeTensorFolder(const fs::path &dir, const std::string &prefix,
                         const std::vector<HostTensor> &tensors) {
  if (tensors.empty())
    return Status::success();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    return makeError(dir.string() + ": " + ec.message());
  for (size_t i = 0; i < tensors.size(); ++i)
    if (Status s = writeNpy(
            (dir / (prefix + "_" + std::to_string(i) + ".npy")).string(),
            tensors[i]);
        !s.ok())
      return s;
  return Status::success();
}

} // namespace

Result<SystemIssueFiles> writeSystemIssue(const StoredCase &stored,
                                          const SystemFile &file,
                                          const std::string &outDir) {
  IssueCase c{stored, file, "", {}, {}};
  if (Status s = readIssueCase(c); !s.ok())
    return s.error();
  fs::path out(outDir);
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec)
    return makeError("-o " + outDir + ": " + ec.message());
  std::vector<std::pair<std::string, std::string>> copies;
  std::string report = issueText(c, outDir, copies);
  Status written = writeText(out / stored.programFile, c.program);
  if (written.ok())
    written = writeTensorFolder(out / "inputs", "input", stored.inputs);
  if (written.ok())
    written = writeTensorFolder(out / "expected", "output", c.expected);
  if (written.ok())
    written = writeTensorFolder(out / "actual", "output", c.actual);
  // The folders the system's commands expect to find (FileSystem's case
  // folder): outputs/ always, artifacts/ for a separate compile step.
  std::vector<std::string> folders = {"outputs"};
  if (file.compile)
    folders.push_back("artifacts");
  for (const std::string &sub : folders) {
    fs::create_directories(out / sub, ec);
    if (ec && written.ok())
      written = makeError((out / sub).string() + ": " + ec.message());
  }
  SystemIssueFiles files{stored.programFile, stored.inputs.size(), {}};
  for (const auto &[from, to] : copies) {
    if (!written.ok())
      break;
    fs::create_directories((out / to).parent_path(), ec);
    if (!ec)
      fs::copy_file(from, out / to, fs::copy_options::overwrite_existing, ec);
    if (ec)
      written = makeError((out / to).string() + ": " + ec.message());
    files.copied.push_back(to);
  }
  if (written.ok())
    written = writeText(out / "report.md", report);
  if (!written.ok())
    return written.error();
  return files;
}

} // namespace sift::harness
