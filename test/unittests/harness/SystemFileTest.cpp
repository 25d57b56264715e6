//===- SystemFileTest.cpp - System files: reading, templates, outcomes ----===//
//
// A system file's text is checked on load (every key, template and
// semantics point, each error naming the line); its templates expand to
// the arguments a step runs; its semantic points make the comparison
// policy; a command's output gives a finding's first line and the phase a
// failure belongs to.
//
//===----------------------------------------------------------------------===//

#include "harness/sut/file/SystemCommand.h"
#include "harness/sut/file/SystemFile.h"

#include <gtest/gtest.h>

namespace sift::harness {
namespace {

const char *kMinimal = R"(name = "demo"
version = "1.0"
format = "onnx"

[[pipeline]]
name = "default"
targets = ["host"]

[[pipeline]]
name = "fast"
targets = ["host", "nvptx"]
options = ["--level=3", "--x"]
env = { DEMO_FLAG = "1" }

[run]
command = ["{python}", "{here}/run.py", "{program}", "{options}", "--out={outputs}"]
)";

TEST(SystemFileTest, AMinimalFileReads) {
  Result<SystemFile> file = parseSystemFile(kMinimal, "/dir/demo.toml");
  ASSERT_TRUE(file.ok()) << file.message();
  EXPECT_EQ(file->name, "demo");
  EXPECT_EQ(file->versionText, "1.0");
  EXPECT_EQ(file->format, gen::ExchangeFormat::Onnx);
  ASSERT_EQ(file->pipelines.size(), 2u);
  // "default" is called by the system's name, others by "<system>-<name>".
  EXPECT_NE(file->pipeline("demo"), nullptr);
  ASSERT_NE(file->pipeline("demo-fast"), nullptr);
  EXPECT_EQ(file->pipeline("demo-fast")->targets.size(), 2u);
  EXPECT_EQ(file->pipeline("demo-fast")->env.at("DEMO_FLAG"), "1");
  EXPECT_EQ(file->pipeline("fast"), nullptr);
  EXPECT_FALSE(file->compile);
  EXPECT_EQ(file->folder, "/dir");
  // No semantics: sift's own rules, exactly.
  EXPECT_TRUE(file->policy.stableSort);
  EXPECT_TRUE(file->policy.topkLowerIndexFirst);
  EXPECT_FALSE(file->policy.nanOrderOpen);
}

TEST(SystemFileTest, TemplatesExpandWithOptionsSpread) {
  Result<SystemFile> file = parseSystemFile(kMinimal, "/dir/demo.toml");
  ASSERT_TRUE(file.ok()) << file.message();
  CommandValues values;
  values.values = {{"python", "/venv/python"},
                   {"here", "/dir"},
                   {"program", "/case/model.onnx"},
                   {"outputs", "/case/outputs"}};
  values.options = file->pipeline("demo-fast")->options;
  std::vector<std::string> args = expandCommand(file->run, values);
  std::vector<std::string> want = {"/venv/python", "/dir/run.py",
                                   "/case/model.onnx", "--level=3", "--x",
                                   "--out=/case/outputs"};
  EXPECT_EQ(args, want);
  CommandTemplate braces{{"echo", "{{not}} a {program}"}, 1};
  EXPECT_EQ(expandCommand(braces, values)[1], "{not} a /case/model.onnx");
}

/// The error reading `text` gives ("" when it reads).
std::string errorOf(const std::string &text) {
  Result<SystemFile> file = parseSystemFile(text, "sys.toml");
  return file.ok() ? "" : file.message();
}

TEST(SystemFileTest, EveryMistakeNamesItsLine) {
  std::string base = kMinimal;
  EXPECT_EQ(errorOf(base + "colour = 1\n").substr(0, 35),
            "sys.toml:17: unknown key 'colour' i");
  std::string placeholder = base;
  placeholder.replace(placeholder.find("{program}"), 9, "{prog}");
  EXPECT_NE(errorOf(placeholder).find("sys.toml:16: unknown placeholder "
                                      "{prog}"),
            std::string::npos)
      << errorOf(placeholder);
  std::string partOptions = base;
  partOptions.replace(partOptions.find("\"{options}\""), 11,
                      "\"-o{options}\"");
  EXPECT_NE(errorOf(partOptions).find("{options} must be a whole argument"),
            std::string::npos);
  std::string target = base;
  target.replace(target.find("[\"host\", \"nvptx\"]"), 17, "[\"tpu\"]");
  EXPECT_NE(errorOf(target).find("sys.toml:11: unknown target 'tpu'"),
            std::string::npos)
      << errorOf(target);
  std::string format = base;
  format.replace(format.find("\"onnx\""), 6, "\"tflite\"");
  EXPECT_NE(errorOf(format).find("sys.toml:3: unknown format 'tflite'"),
            std::string::npos);
  std::string name = base;
  name.replace(name.find("\"demo\""), 6, "\"cpu\"");
  EXPECT_NE(errorOf(name).find("is taken by sift's own"), std::string::npos);
  std::string twice = base + "[[pipeline]]\nname = \"fast\"\ntargets = "
                             "[\"host\"]\n";
  EXPECT_NE(errorOf(twice).find("a second pipeline named 'fast'"),
            std::string::npos);
  EXPECT_NE(errorOf("name = \"x\"\n").find("sys.toml:1: the file needs "
                                           "'version'"),
            std::string::npos);
  EXPECT_NE(errorOf("name = [\n").find("sys.toml:"), std::string::npos);
  EXPECT_NE(errorOf("name = [\n").find("not TOML"), std::string::npos);
  std::string unsupported = base + "[outcomes]\nunsupported_exit_codes = "
                                   "[0]\n";
  EXPECT_NE(errorOf(unsupported).find("[1, 255]"), std::string::npos);
}

TEST(SystemFileTest, InstallTableReadsAndIsChecked) {
  std::string base = kMinimal;
  EXPECT_FALSE(parseSystemFile(base, "/dir/demo.toml")->install);
  Result<SystemFile> file = parseSystemFile(
      base + "[install]\nversions = [\"1.0\", \"1.1\"]\n"
             "command = [\"{python}\", \"-m\", \"pip\", \"install\", "
             "\"demo=={version}\", \"--prefix={venv}\"]\n",
      "/dir/demo.toml");
  ASSERT_TRUE(file.ok()) << file.message();
  ASSERT_TRUE(file->install);
  EXPECT_EQ(file->install->versions,
            (std::vector<std::string>{"1.0", "1.1"}));
  CommandValues values;
  values.values = {{"python", "/v/bin/python"}, {"version", "1.1"},
                   {"venv", "/v"}};
  EXPECT_EQ(expandCommand(file->install->command, values),
            (std::vector<std::string>{"/v/bin/python", "-m", "pip", "install",
                                      "demo==1.1", "--prefix=/v"}));
  // No versions to walk.
  EXPECT_NE(errorOf(base + "[install]\nversions = []\ncommand = [\"true\"]\n")
                .find("sys.toml:18: 'versions' is empty"),
            std::string::npos);
  // {program} means nothing to an install; {version} nothing to a run.
  EXPECT_NE(errorOf(base + "[install]\nversions = [\"1\"]\n"
                           "command = [\"x\", \"{program}\"]\n")
                .find("sys.toml:19: the [install] command may use {python}, "
                      "{here}, {version} and {venv} only, not {program}"),
            std::string::npos);
  std::string inRun = base;
  inRun.replace(inRun.find("{program}"), 9, "{version}");
  EXPECT_NE(errorOf(inRun).find(
                "sys.toml:16: {version} is for the [install] command only"),
            std::string::npos)
      << errorOf(inRun);
  EXPECT_NE(errorOf(base + "[install]\nversion = [\"1\"]\n")
                .find("sys.toml:18: unknown key 'version' in [install]"),
            std::string::npos)
      << errorOf(base + "[install]\nversion = [\"1\"]\n");
}

TEST(SystemFileTest, SemanticPointsMakeThePolicyAndNeedASource) {
  std::string base = kMinimal;
  Result<SystemFile> file = parseSystemFile(
      base + "[semantics]\n"
             "stable_sort = { value = false, source = \"docs: unstable\" }\n"
             "topk_ties = { value = \"open\", source = \"docs: ties\" }\n"
             "nan_order = { value = \"open\", source = \"docs: NaN\" }\n"
             "signed_zero = { value = \"ordered\", source = \"docs: zeros\" "
             "}\n"
             "nms_scope = { value = \"one-batch-one-class\", source = \"d\" "
             "}\n",
      "sys.toml");
  ASSERT_TRUE(file.ok()) << file.message();
  EXPECT_FALSE(file->policy.stableSort);
  EXPECT_FALSE(file->policy.topkLowerIndexFirst);
  EXPECT_TRUE(file->policy.nanOrderOpen);
  EXPECT_TRUE(file->policy.signedZeroOrdered);
  EXPECT_TRUE(file->policy.nmsOneBatchOneClass);
  EXPECT_FALSE(file->policy.nmsTieOrderOpen);
  ASSERT_EQ(file->semantics.size(), 5u);
  bool sourced = false;
  for (const SemanticPoint &point : file->semantics)
    sourced |= point.key == "stable_sort" && point.value == "false" &&
               point.source == "docs: unstable";
  EXPECT_TRUE(sourced);
  EXPECT_EQ(file->policy.system, "demo");

  EXPECT_NE(errorOf(base + "[semantics]\nstable_sort = false\n")
                .find("sys.toml:18: semantics point 'stable_sort' must be"),
            std::string::npos);
  EXPECT_NE(errorOf(base + "[semantics]\nstable_sort = { value = false }\n")
                .find("needs 'source'"),
            std::string::npos);
  EXPECT_NE(errorOf(base + "[semantics]\ntopk_ties = { value = \"high\", "
                           "source = \"x\" }\n")
                .find("takes lower-index, open"),
            std::string::npos);
  EXPECT_NE(errorOf(base + "[semantics]\nties = { value = 1, source = "
                           "\"x\" }\n")
                .find("unknown semantics point 'ties'"),
            std::string::npos);
}

TEST(SystemFileTest, DocumentedLimitsAndExitCodesRead) {
  std::string base = kMinimal;
  Result<SystemFile> file = parseSystemFile(
      base + "[outcomes]\nunsupported_exit_codes = [3, 4]\n"
             "[[outcomes.limit]]\ncontains = \"NOT_IMPLEMENTED\"\n"
             "why = \"no f16 NMS\"\nsource = \"the operator table\"\n",
      "sys.toml");
  ASSERT_TRUE(file.ok()) << file.message();
  EXPECT_EQ(file->unsupportedExitCodes, (std::vector<int>{3, 4}));
  ASSERT_EQ(file->limits.size(), 1u);
  EXPECT_EQ(file->limits[0].contains, "NOT_IMPLEMENTED");
  EXPECT_EQ(file->limits[0].source, "the operator table");
  EXPECT_NE(errorOf(base + "[[outcomes.limit]]\ncontains = \"\"\nwhy = "
                           "\"x\"\nsource = \"y\"\n")
                .find("would match every failure"),
            std::string::npos);
}

TEST(SystemCommandTest, DiagnosticsPhasesAndQuoting) {
  std::string traceback = "sift-phase: compile\n"
                          "Traceback (most recent call last):\n"
                          "  File \"run.py\", line 3, in <module>\n"
                          "    main()\n"
                          "ValueError: k must be positive\n";
  EXPECT_EQ(commandDiagnostic(traceback), "ValueError: k must be positive");
  EXPECT_EQ(lastPhase(traceback), "compile");
  EXPECT_EQ(lastPhase("sift-phase: compile\nsift-phase: run\nboom\n"), "run");
  EXPECT_EQ(lastPhase("no markers\n"), "");
  EXPECT_EQ(commandDiagnostic("warming up\nerror: bad shape\n"),
            "error: bad shape");
  EXPECT_EQ(commandDiagnostic("sift-phase: run\n\nsomething odd\n"),
            "something odd");
  // A compiler's diagnostic inside an exception whose text ends with a
  // hint (IREE's CompilerToolError): the error, without its location.
  const char *tool = "Traceback (most recent call last):\n"
                     "  File \"run.py\", line 3, in <module>\n"
                     "iree.compiler.tools.binaries.CompilerToolError: Error "
                     "invoking IREE compiler tool iree-compile\n"
                     "/tmp/x/program.mlir:5:13: error: exceeded stack "
                     "allocation limit\n"
                     "Need more information? Set IREE_SAVE_TEMPS\n";
  EXPECT_EQ(commandDiagnostic(tool), "error: exceeded stack allocation limit");
  EXPECT_EQ(shellLine({"python", "a b", "it's", "--x=1"}),
            "python 'a b' 'it'\\''s' --x=1");
}

TEST(SystemCommandTest, ACommandRunsBoundedWithItsEnvironment) {
  CommandRun ok = runCommand({"sh", "-c", "echo $DEMO_FLAG; exit 3"},
                             {{"DEMO_FLAG", "on"}}, "", 10, 0);
  EXPECT_EQ(ok.status, 3);
  EXPECT_EQ(ok.output, "on\n");
  CommandRun slow = runCommand({"sleep", "5"}, {}, "", 0.2, 0);
  EXPECT_TRUE(slow.timedOut);
  EXPECT_LT(slow.seconds, 3);
  CommandRun killed = runCommand({"sh", "-c", "kill -SEGV $$"}, {}, "", 10, 0);
  EXPECT_EQ(killed.signal, SIGSEGV);
  CommandRun missing = runCommand({"no-such-program-here"}, {}, "", 10, 0);
  EXPECT_EQ(missing.status, 127);
  EXPECT_NE(missing.output.find("cannot run no-such-program-here"),
            std::string::npos);
}

} // namespace
} // namespace sift::harness
