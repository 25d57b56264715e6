//===- ListCommand.cpp - `harness list`: what the flags accept -----------===//
//
// The names the other commands take, from the tables the code uses (so the
// list cannot drift from them): faults with what each plants and which
// oracle catches it, pipelines, targets, chips, benchmarks, families,
// input modes and sift-run's devices; as text, or as JSON (`--json`) for
// scripts. `harness list completion` prints a bash completion script built
// from the command line's own subcommands and flags.
//
//===----------------------------------------------------------------------===//

#include "harness/commands/Cli.h"
#include "harness/commands/Commands.h"
#include "harness/sut/Systems.h"

#include "generators/BenchPrograms.h"
#include "generators/Policy.h"
#include "support/Fault.h"
#include "support/Targets.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace sift::harness {

namespace {

/// What a fault plants, and the oracle that catches it.
struct FaultText {
  Fault fault;
  const char *plants;
  const char *oracle;
};

/// Every fault's text, in enum order (checked below against kAllFaults).
constexpr FaultText kFaultTexts[] = {
    {Fault::TfGlobalTemp,
     "tileandfuse leaves per-thread temporaries on the heap",
     "malloc-in-kernel (static)"},
    {Fault::TfKeepUnusedResults,
     "unused sort / top-k results neither dropped nor privatized",
     "malloc-in-kernel (static)"},
    {Fault::WgAllocAsMalloc,
     "workgroup staging buffers left as memref.alloc (malloc)",
     "malloc-in-kernel (static)"},
    {Fault::DistUndistributedWrite,
     "every thread of a workgroup writes the same element",
     "undistributed-write (static); mismatch on a GPU"},
    {Fault::DistNoBarrier, "the cooperative sort without its barriers",
     "mismatch on a GPU; uninitialized-read on emu"},
    {Fault::CrashOnPrime,
     "the compiler aborts when a sorted dimension is prime", "compile-crash"},
    {Fault::HangOnK1, "a pass never returns when k = 1", "compile-timeout"},
    {Fault::ExportDeviceLocal,
     "the runtime refuses to export a queue-ordered device-local "
     "buffer (sift-run --inject)",
     "runtime-error"},
    {Fault::AllocSelectFirst,
     "allocator selection ignores a buffer's affinity (sift-run "
     "--inject; shows on plans a second device uses)",
     "the affinity oracle (runtime-error)"},
    {Fault::WgUnaligned, "workgroup attributions without an explicit alignment",
     "misaligned-access (static, PTX)"},
    {Fault::NmsIouGe, "NMS suppresses at IoU >= the threshold instead of >",
     "mismatch"},
    {Fault::NmsUnnormalizedCorners, "NMS takes corner boxes without min/max",
     "mismatch"},
    {Fault::NmsScoreThresholdGe,
     "NMS keeps scores >= the threshold instead of >", "mismatch"},
    {Fault::NmsSortGlobalTemp,
     "tileandfuse leaves the NMS score sort's row buffers in global "
     "memory",
     "malloc-in-kernel (static)"},
    {Fault::CrashAtRandom,
     "the compiler aborts on about half of its runs over a sort",
     "compile-crash (flaky in a nightly)"},
    {Fault::MergeDropLast,
     "merge_rows loses the last element of every merge's second run",
     "mismatch on a GPU; data-race on emu"},
    {Fault::RadixDigitOffByOne,
     "radix_select counts every element one bin too high",
     "mismatch on a GPU; data-race on emu"},
    {Fault::RadixScanLostCarry,
     "radix_sort's scan loses the carry into odd threads' chunks",
     "mismatch on a GPU; data-race on emu"},
    {Fault::SplitLostChunkOffset,
     "split_select forgets a chosen candidate's chunk start",
     "mismatch (GPU or emu)"},
    {Fault::SelectMergeOneLevelShort,
     "register_select's tree merge stops one level early",
     "mismatch (GPU or emu)"},
    {Fault::RadixLookbackSkipsOne,
     "radix_onesweep's look-back skips its predecessor tile",
     "mismatch on a GPU; data-race on emu"},
    {Fault::RadixTailOverrun, "the radix sort's loads run past a row's end",
     "out-of-bounds on emu (memcheck on a GPU)"},
    {Fault::RadixSplitUnzeroed,
     "the radix sort's tile ranking counts into an unzeroed table",
     "uninitialized-read on emu"},
    {Fault::ScanBarrierInBranch,
     "the radix sort's scan puts a barrier inside a branch",
     "barrier-divergence on emu"},
    {Fault::SelectDoneRace,
     "the radix select's pick reads the done flag thread 0 writes",
     "data-race on emu"},
    {Fault::NmsMaskLastBitLost,
     "GPU NMS mask (mask_blocks, mask_tiles) never sets a word's bit 63",
     "mismatch (GPU or emu)"},
    {Fault::NmsWalkRowNotMerged,
     "mask_blocks NMS leaves a block's last kept box unmerged",
     "mismatch (GPU or emu)"},
    {Fault::NmsTileLastRowFirstBox,
     "mask_tiles NMS gives a tile's last row its first row's box",
     "mismatch (GPU or emu)"},
    {Fault::RadixMatchPeerBitLost,
     "radix_match's warp match ignores a digit's top bit",
     "data-race on emu; runtime-error or mismatch on a GPU"},
    {Fault::Bf16OrderF16Layout,
     "radix sort and select test bf16 keys for NaN with f16's mask",
     "mismatch (GPU or emu)"},
    {Fault::RadixCompactDropsBetter,
     "radix_select's compaction forgets the elements already in the k",
     "data-race on emu; mismatch (GPU or emu)"},
    {Fault::RadixFusedBinsKept,
     "radix_select in one launch keeps the last pass's histogram",
     "uninitialized-read on emu; mismatch (GPU or emu)"},
    {Fault::WarpBallotLowHalf,
     "ROCDL's radix_match ballot gives a wave64's upper lanes the low votes",
     "data-race or mismatch on emu (amdgpu)"},
    {Fault::WarpSyncDropped, "radix_match's warp syncs lowered as nothing",
     "data-race on emu"},
    {Fault::RadixTileByBlock,
     "radix_onesweep takes its tile by workgroup id, not by ticket",
     "hang on emu"},
    {Fault::WarpShuffleWaveWidth,
     "ROCDL's warp shuffle reads as in a wave of 32 (upper warp: the lower's)",
     "data-race or out-of-bounds on emu (amdgpu)"},
    {Fault::WarpQueueHeadUnfilled,
     "warp_select's queue insert hands lane 0 its own slot as the one above",
     "mismatch (GPU or emu)"},
    {Fault::BareKeysUnchecked,
     "workgroup_row sorts bare f32 keys of a row holding a zero or a NaN",
     "mismatch (GPU or emu)"},
    {Fault::PdlWaitAtExit,
     "sm_90 kernels wait for the kernel before them at exit, not entry",
     "data-race on emu; mismatch (GPU)"},
};

constexpr bool textsFollowFaults() {
  if (std::size(kFaultTexts) != std::size(kAllFaults))
    return false;
  for (size_t i = 0; i < std::size(kAllFaults); ++i)
    if (kFaultTexts[i].fault != kAllFaults[i] ||
        static_cast<size_t>(kAllFaults[i]) != i)
      return false;
  return true;
}
static_assert(textsFollowFaults(),
              "kFaultTexts must list every fault, in kAllFaults' order");

const FaultText &describe(Fault fault) {
  return kFaultTexts[static_cast<size_t>(fault)];
}

/// The systems described by files (shipped, and `given` with --system):
/// each with its pipelines, format and semantic points, and with
/// `versions` its version (the version command run: whether it is
/// installed).
nlohmann::json systemsList(const std::vector<std::string> &given,
                           bool versions) {
  Systems systems;
  for (const std::string &path : given)
    if (Status added = systems.addFile(path); !added.ok())
      throw UsageError{"--system: " + added.message()};
  std::vector<std::string> errors;
  nlohmann::json out = nlohmann::json::array();
  for (const SystemFile *file : systems.allFiles(errors)) {
    nlohmann::json entry = {{"name", file->name},
                            {"description", file->description},
                            {"file", file->path},
                            {"format", std::string(gen::toString(file->format))},
                            {"pipelines", nlohmann::json::array()},
                            {"semantics", nlohmann::json::object()}};
    for (const SystemPipeline &pipeline : file->pipelines) {
      nlohmann::json targets = nlohmann::json::array();
      for (TargetKind target : pipeline.targets)
        targets.push_back(std::string(toString(target)));
      entry["pipelines"].push_back({{"name", pipeline.fullName},
                                    {"targets", targets},
                                    {"options", pipeline.options},
                                    {"description", pipeline.description}});
    }
    for (const SemanticPoint &point : file->semantics)
      entry["semantics"][point.key] = {{"value", point.value},
                                       {"source", point.source}};
    if (versions) {
      Result<std::unique_ptr<FileSystem>> made = makeFileSystem(*file);
      entry["installed"] = made.ok();
      entry["version"] = made.ok() ? (*made)->version()
                                   : made.message().substr(
                                         0, made.message().find('\n'));
    }
    out.push_back(entry);
  }
  for (const std::string &error : errors)
    out.push_back({{"name", "?"}, {"error", error}});
  return out;
}

/// The planted faults' measured catch rates (scripts/fault-rates.sh):
/// $SIFT_FAULT_RATES, else harness/data/fault-rates.json of the source
/// tree; null when there is none or it cannot be read (the list then
/// shows no rates, and says why for an unreadable file).
nlohmann::json faultRates() {
  std::string path;
  if (const char *env = std::getenv("SIFT_FAULT_RATES"))
    path = env;
#ifdef SIFT_SOURCE_DIR
  else
    path = std::string(SIFT_SOURCE_DIR) + "/harness/data/fault-rates.json";
#endif
  if (path.empty())
    return nullptr;
  std::ifstream in(path);
  if (!in)
    return nullptr;
  nlohmann::json rates = nlohmann::json::parse(in, nullptr, false);
  if (!rates.is_object() || rates.value("format", "") != "sift-fault-rates 1" ||
      !rates.contains("faults") || !rates["faults"].is_object()) {
    std::fprintf(stderr,
                 "harness: %s: not a fault-rates file (format \"sift-fault-"
                 "rates 1\"); rates not shown\n",
                 path.c_str());
    return nullptr;
  }
  return rates;
}

/// Every list, by name.
nlohmann::json lists(const std::vector<std::string> &systemFiles,
                     bool versions) {
  nlohmann::json out;
  nlohmann::json rates = faultRates();
  for (Fault fault : kAllFaults) {
    FaultText text = describe(fault);
    nlohmann::json entry = {{"name", std::string(toString(fault))},
                            {"plants", text.plants},
                            {"oracle", text.oracle}};
    if (rates.is_object()) {
      const nlohmann::json &measured = rates["faults"];
      auto it = measured.find(entry["name"].get<std::string>());
      if (it != measured.end() && it->is_object() && it->contains("rate") &&
          (*it)["rate"].is_number() && it->contains("runs") &&
          (*it)["runs"].is_number_integer())
        // A fault measured in another run of the script keeps its own
        // mix and date.
        entry["rate"] = {
            {"rate", (*it)["rate"]},
            {"runs", (*it)["runs"]},
            {"caught", it->value("caught", 0)},
            {"measured", it->value("measured", rates.value("measured", ""))},
            {"mix", it->value("mix", rates.value("mix", ""))}};
    }
    out["faults"].push_back(std::move(entry));
  }
  out["pipelines"] = {
      "cpu",  "tileandfuse",      "distribute",      "all",
      "iree", "iree-tileandfuse", "iree-distribute", "iree-all"};
  out["targets"] = {"nvptx", "amdgpu", "host"};
  for (size_t i = 0; i < kChipCount; ++i)
    out["chips"].push_back(
        {{"name", std::string(kChips[i].name)},
         {"target", std::string(toString(kChips[i].target))},
         {"workgroup_memory_bytes", kChips[i].workgroupMemoryBytes}});
  for (const gen::BenchProgram &bench : gen::benchPrograms())
    out["benchmarks"].push_back(
        {{"name", bench.name},
         {"family", std::string(gen::toString(bench.family))}});
  for (gen::Family family : gen::kAllFamilies)
    out["families"].push_back(std::string(gen::toString(family)));
  for (gen::InputMode mode : gen::kAllInputModes)
    out["inputs"].push_back(std::string(gen::toString(mode)));
  out["devices"] = {"cpu", "cuda", "hip", "emu"};
  out["systems"] = systemsList(systemFiles, versions);
  for (const nlohmann::json &system : out["systems"])
    if (system.contains("pipelines")) {
      for (const nlohmann::json &pipeline : system["pipelines"])
        out["pipelines"].push_back(pipeline["name"]);
      out["pipelines"].push_back(system["name"].get<std::string>() + "-all");
    }
  return out;
}

/// One system of `harness list systems`.
void printSystem(const nlohmann::json &item, const std::string &indent) {
  if (item.contains("error")) {
    std::printf("%s%s\n", indent.c_str(),
                item["error"].get<std::string>().c_str());
    return;
  }
  std::printf("%s%s (%s; %s)\n", indent.c_str(),
              item["name"].get<std::string>().c_str(),
              item["format"].get<std::string>().c_str(),
              item["file"].get<std::string>().c_str());
  if (!item["description"].get<std::string>().empty())
    std::printf("%s  %s\n", indent.c_str(),
                item["description"].get<std::string>().c_str());
  if (item.contains("version"))
    std::printf("%s  version: %s\n", indent.c_str(),
                (item["installed"].get<bool>()
                     ? item["version"].get<std::string>()
                     : "not installed: " + item["version"].get<std::string>())
                    .c_str());
  for (const nlohmann::json &pipeline : item["pipelines"]) {
    std::string targets, options;
    for (const nlohmann::json &t : pipeline["targets"])
      targets += (targets.empty() ? "" : ",") + t.get<std::string>();
    for (const nlohmann::json &o : pipeline["options"])
      options += " " + o.get<std::string>();
    std::printf("%s  --pipeline=%-24s targets %s%s\n", indent.c_str(),
                pipeline["name"].get<std::string>().c_str(), targets.c_str(),
                options.empty() ? "" : ("; options" + options).c_str());
  }
  for (auto &[key, point] : item["semantics"].items())
    std::printf("%s  %s = %s (%s)\n", indent.c_str(), key.c_str(),
                point["value"].get<std::string>().c_str(),
                point["source"].get<std::string>().c_str());
}

void printText(const nlohmann::json &all, const std::string &what) {
  for (auto &[name, items] : all.items()) {
    if (what != "all" && what != name)
      continue;
    if (what == "all")
      std::printf("%s:\n", name.c_str());
    std::string indent = what == "all" ? "  " : "";
    for (const nlohmann::json &item : items) {
      if (item.is_string()) {
        std::printf("%s%s\n", indent.c_str(), item.get<std::string>().c_str());
      } else if (name == "faults") {
        std::string rate;
        if (item.contains("rate")) {
          const nlohmann::json &r = item["rate"];
          // The mix is nvptx's unless it says another target (a fault
          // that lives in one target's lowering is measured there).
          std::string mix = r["mix"].get<std::string>();
          const char *where =
              mix.find("--target=amdgpu") != std::string::npos ? " on amdgpu"
                                                                : "";
          char text[200];
          std::snprintf(text, sizeof(text),
                        " [caught in %.1f%% of %lld emu runs of the default "
                        "mix%s, %s]",
                        100.0 * r["rate"].get<double>(),
                        r["runs"].get<long long>(), where,
                        r["measured"].get<std::string>().c_str());
          rate = text;
        }
        std::printf("%s%-30s %s; caught as %s%s\n", indent.c_str(),
                    item["name"].get<std::string>().c_str(),
                    item["plants"].get<std::string>().c_str(),
                    item["oracle"].get<std::string>().c_str(), rate.c_str());
      } else if (name == "systems") {
        printSystem(item, indent);
      } else if (name == "chips") {
        std::printf("%s%-8s %-7s %lld KiB of workgroup memory\n",
                    indent.c_str(), item["name"].get<std::string>().c_str(),
                    item["target"].get<std::string>().c_str(),
                    item["workgroup_memory_bytes"].get<long long>() / 1024);
      } else {
        std::printf("%s%-22s %s\n", indent.c_str(),
                    item["name"].get<std::string>().c_str(),
                    item["family"].get<std::string>().c_str());
      }
    }
  }
}

/// The names a flag's values come from, for completion.
std::string wordsOf(const nlohmann::json &items) {
  std::string words;
  for (const nlohmann::json &item : items)
    words += (words.empty() ? "" : " ") +
             (item.is_string() ? item.get<std::string>()
                               : item["name"].get<std::string>());
  return words;
}

/// A bash completion script: the subcommands, each one's flags, and the
/// values of the flags that take names.
std::string bashCompletion(const CLI::App &root, const nlohmann::json &all) {
  std::string script =
      "# bash completion for harness: source it, or put it in\n"
      "# ~/.local/share/bash-completion/completions/harness\n"
      "_harness() {\n"
      "  local cur=${COMP_WORDS[COMP_CWORD]} sub=fuzz w\n"
      "  for w in \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"; do\n"
      "    case $w in -*) ;; *) sub=$w; break ;; esac\n"
      "  done\n"
      "  case $cur in\n";
  auto values = [&](const std::string &flag, const std::string &words) {
    script += "    " + flag + "=*) COMPREPLY=($(compgen -P \"" + flag +
              "=\" -W \"" + words + "\" -- \"${cur#*=}\")); return ;;\n";
  };
  values("--inject", wordsOf(all["faults"]));
  values("--pipeline", wordsOf(all["pipelines"]));
  values("--target", wordsOf(all["targets"]));
  values("--chip", wordsOf(all["chips"]));
  values("--bench", wordsOf(all["benchmarks"]));
  values("--family", wordsOf(all["families"]));
  values("--inputs", wordsOf(all["inputs"]));
  values("--device", wordsOf(all["devices"]));
  values("--sizes", "default large");
  values("--frontend", "linalg_ext torch onnx random");
  script += "  esac\n  case $sub in\n";
  std::string subcommands;
  for (const CLI::App *sub : root.get_subcommands({})) {
    subcommands += (subcommands.empty() ? "" : " ") + sub->get_name();
    std::string flags;
    for (const CLI::Option *option : sub->get_options())
      for (const std::string &name : option->get_lnames())
        flags += " --" + name;
    script += "    " + sub->get_name() + ") COMPREPLY=($(compgen -W \"" +
              flags + "\" -- \"$cur\")) ;;\n";
  }
  script += "  esac\n"
            "  if [ \"$COMP_CWORD\" -eq 1 ] && [[ $cur != -* ]]; then\n"
            "    COMPREPLY=($(compgen -W \"" +
            subcommands +
            "\" -- \"$cur\"))\n"
            "  fi\n"
            "}\n"
            "complete -o default -F _harness harness\n";
  return script;
}

struct ListFlags {
  std::string what = "all";
  bool json = false;
  std::vector<std::string> systems;
};

} // namespace

CommandEntry addListCommand(CLI::App &app) {
  auto f = std::make_shared<ListFlags>();
  CLI::App *cmd = app.add_subcommand(
      "list", "List what the flags take: faults (what each plants, which "
              "oracle catches it), pipelines, targets, chips, benchmarks, "
              "families, inputs, devices, systems (the compilers described "
              "by files: pipelines, semantics, installed version); or a "
              "bash completion script");
  cmd->add_option("what", f->what,
                  "faults, pipelines, targets, chips, benchmarks, families, "
                  "inputs, devices, systems, all, or completion")
      ->capture_default_str();
  cmd->add_flag("--json", f->json, "JSON on stdout, for scripts");
  cmd->add_option("--system", f->systems,
                  "A system file to list beside the shipped ones");
  CLI::App *root = &app;
  return {cmd, [f, root] {
            nlohmann::json all = lists(f->systems, f->what == "systems");
            if (f->what == "completion") {
              std::fputs(bashCompletion(*root, all).c_str(), stdout);
              return kExitOk;
            }
            if (f->what != "all" && !all.contains(f->what))
              throw UsageError{
                  "list: unknown list '" + f->what +
                  "'; valid: faults, pipelines, targets, chips, benchmarks, "
                  "families, inputs, devices, systems, all, completion"};
            if (f->json) {
              nlohmann::json out = f->what == "all" ? all : all[f->what];
              std::printf("%s\n", out.dump(2).c_str());
              return kExitOk;
            }
            printText(all, f->what);
            return kExitOk;
          }};
}

} // namespace sift::harness
