//===- CaseRunnerTest.cpp - Cases end to end, the comparator, findings ----===//
//
// The fuzz loop's per-case function on the cpu device: generated cases pass;
// a hand-made program passes with the reference equal to hand-computed
// outputs, and changing one element of what the device produced makes
// compareOutputs report it (so the comparator bites). FindingStore writes a
// complete case folder and a committed row that a second connection sees,
// and its signatures ignore the numbers in a detail.
//
//===----------------------------------------------------------------------===//

#include "test/unittests/compiler/CompilerTestUtil.h"

#include "generators/ProgramModel.h"
#include "harness/case/CaseRunner.h"
#include "harness/sut/sift/SiftCompiler.h"
#include "harness/store/FindingStore.h"
#include "generators/ProgramJson.h"
#include "generators/MlirEmitter.h"
#include "generators/ProgramGenerator.h"
#include "oracles/Compare.h"
#include "oracles/Verdict.h"
#include "runtime/Device.h"
#include "support/Npy.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

using namespace sift;
using namespace sift::harness;
using sift::test::f32Bits;
using sift::test::f32BitsOf;
using sift::test::intsOf;
using sift::test::intTensor;
using sift::test::readTextFile;
using sift::test::TempDir;
using namespace sift::test; // f32 bit patterns

namespace fs = std::filesystem;

namespace {


/// A program with one op: sift.sort dimension(1) ascending of an f32[2x4]
/// key and an i64[2x4] payload, both results returned.
gen::Program sortProgram() {
  gen::Program program;
  int key = program.addValue({ElementType::F32, {2, 4}});
  int payload = program.addValue({ElementType::I64, {2, 4}});
  int sortedKey = program.addValue({ElementType::F32, {2, 4}});
  int sortedPayload = program.addValue({ElementType::I64, {2, 4}});
  program.inputs = {key, payload};
  gen::Op sort;
  sort.kind = gen::OpKind::Sort;
  sort.operands = {key, payload};
  sort.results = {sortedKey, sortedPayload};
  sort.dimension = 1;
  sort.order = gen::SortOrder::Ascending;
  program.ops.push_back(sort);
  program.outputs = {sortedKey, sortedPayload};
  return program;
}

/// Its inputs: row 0 holds +0.0 before -0.0 and a NaN, row 1 a tie at 2.0.
std::vector<HostTensor> sortInputs() {
  return {f32Bits({2, 4}, {kOne, kPosZero, kNaN, kNegZero, //
                           kTwo, kOne, kTwo, kNegZero}),
          intTensor(ElementType::I64, {2, 4}, {0, 1, 2, 3, 4, 5, 6, 7})};
}

class CaseRunnerTest : public testing::Test {
protected:
  void SetUp() override {
    auto created = rt::createDevice(rt::DeviceKind::Cpu);
    ASSERT_TRUE(created.ok()) << created.message();
    device = std::move(*created);
  }

  SiftCompiler session;
  std::unique_ptr<rt::Device> device;
  CaseOptions options;
};

TEST_F(CaseRunnerTest, GeneratedCasesPassOnTheCpuDevice) {
  for (uint64_t seed = 0; seed < 50; ++seed) {
    CaseResult result = runGeneratedCase(session, *device, options, seed);
    EXPECT_EQ(result.verdict, oracle::Verdict::Pass)
        << "seed " << seed << ": " << oracle::toString(result.verdict) << " at "
        << result.stage.text() << ": " << result.detail << "\n--- module ---\n"
        << result.mlir;
    EXPECT_EQ(result.seed, seed);
    EXPECT_FALSE(result.mlir.empty());
    if (result.verdict == oracle::Verdict::Pass) {
      EXPECT_EQ(result.expected.size(), result.program.outputs.size());
      EXPECT_EQ(result.actual.size(), result.program.outputs.size());
    }
  }
}

TEST_F(CaseRunnerTest, HandMadeProgramPassesAndTheComparatorBites) {
  CaseResult result = runProgramCase(session, *device, options, sortProgram(),
                                     sortInputs(), /*seed=*/7);
  ASSERT_EQ(result.verdict, oracle::Verdict::Pass)
      << result.stage.text() << ": " << result.detail << "\n"
      << result.mlir;
  EXPECT_NE(result.mlir.find("sift.sort dimension(1) ascending"),
            std::string::npos)
      << result.mlir;

  // The reference agrees with the hand-computed order: row 0 keeps +0.0 (1)
  // before -0.0 (3), NaN last; row 1 keeps the 2.0s in input order (4, 6).
  std::vector<uint32_t> keys = {kPosZero, kNegZero, kOne, kNaN, //
                                kNegZero, kOne,     kTwo, kTwo};
  std::vector<int64_t> payload = {1, 3, 0, 2, 7, 5, 4, 6};
  ASSERT_EQ(result.expected.size(), 2u);
  ASSERT_EQ(result.actual.size(), 2u);
  EXPECT_EQ(f32BitsOf(result.expected[0]), keys);
  EXPECT_EQ(intsOf(result.expected[1]), payload);
  EXPECT_EQ(f32BitsOf(result.actual[0]), keys);
  EXPECT_EQ(intsOf(result.actual[1]), payload);
  EXPECT_FALSE(
      oracle::compareOutputs(result.program, result.expected, result.actual));

  // Two tied payload elements swapped: an unstable sort.
  std::vector<HostTensor> unstable = result.actual;
  unstable[1].set<int64_t>(6, 6);
  unstable[1].set<int64_t>(7, 4);
  auto mismatch =
      oracle::compareOutputs(result.program, result.expected, unstable);
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->output, 1);
  EXPECT_EQ(mismatch->flatIndex, 6);
  EXPECT_EQ(mismatch->index, (std::vector<int64_t>{1, 2}));
  EXPECT_NE(mismatch->message.find("2 of 8 elements differ"), std::string::npos)
      << mismatch->message;

  // -0.0 and +0.0 are equal keys but distinct outputs.
  std::vector<HostTensor> zeros = result.actual;
  zeros[0].set<uint32_t>(0, kNegZero);
  mismatch = oracle::compareOutputs(result.program, result.expected, zeros);
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->output, 0);
  EXPECT_EQ(mismatch->flatIndex, 0);

  // A NaN where a number belongs.
  std::vector<HostTensor> nan = result.actual;
  nan[0].set<uint32_t>(6, kNaN);
  mismatch = oracle::compareOutputs(result.program, result.expected, nan);
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->output, 0);
  EXPECT_EQ(mismatch->index, (std::vector<int64_t>{1, 2}));

  // A missing output.
  std::vector<HostTensor> short_ = {result.actual[0]};
  mismatch = oracle::compareOutputs(result.program, result.expected, short_);
  ASSERT_TRUE(mismatch);
  EXPECT_EQ(mismatch->output, -1);
}

TEST_F(CaseRunnerTest, InvalidProgramIsGenInvalid) {
  gen::Program program = sortProgram();
  program.ops[0].dimension = 2; // out of range for rank 2
  CaseResult result = runProgramCase(session, *device, options, program,
                                     sortInputs(), /*seed=*/1);
  EXPECT_EQ(result.verdict, oracle::Verdict::GenInvalid);
  EXPECT_EQ(result.stage.text(), "generate");
  EXPECT_FALSE(result.detail.empty());
}

TEST_F(CaseRunnerTest, InputsThatDoNotFitAreGenInvalid) {
  std::vector<HostTensor> inputs = sortInputs();
  inputs.pop_back();
  CaseResult result = runProgramCase(session, *device, options, sortProgram(),
                                     inputs, /*seed=*/1);
  EXPECT_EQ(result.verdict, oracle::Verdict::GenInvalid);
  EXPECT_EQ(result.stage.text(), "reference");
}

//===----------------------------------------------------------------------===//
// FindingStore
//===----------------------------------------------------------------------===//

/// A fake mismatch finding.
CaseResult fakeFinding(uint64_t seed, const std::string &detail) {
  CaseResult result;
  result.seed = seed;
  result.verdict = oracle::Verdict::Mismatch;
  result.stage = Stage(Step::Compare);
  result.detail = detail;
  result.program = sortProgram();
  result.mlir = "module {\n}\n";
  result.inputs = {f32Bits({2}, {kOne, kNaN})};
  result.expected = {f32Bits({2}, {kOne, kNaN})};
  result.actual = {f32Bits({2}, {kNaN, kOne})};
  return result;
}

/// `SELECT count(*) FROM <table>` on a fresh connection.
int64_t countRows(const std::string &dbPath, const std::string &table) {
  sqlite3 *db = nullptr;
  int64_t count = -1;
  if (sqlite3_open_v2(dbPath.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
      SQLITE_OK) {
    sqlite3_stmt *stmt = nullptr;
    std::string sql = "SELECT count(*) FROM " + table;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
      count = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
  }
  sqlite3_close(db);
  return count;
}

TEST(FindingStoreTest, RecordsACaseFolderAndACommittedRow) {
  TempDir dir;
  std::string out = dir.file("sift-out");
  CaseOptions options;
  std::string caseDir;
  {
    auto store = FindingStore::open(out);
    ASSERT_TRUE(store.ok()) << store.message();
    EXPECT_TRUE(fs::is_directory(out + "/cases"));
    auto run =
        (*store)->beginRun({"harness fuzz --count=1", "cpu", "mixed", 3});
    ASSERT_TRUE(run.ok()) << run.message();
    auto recorded = (*store)->recordFinding(
        *run, fakeFinding(0x1234, "output 0 at [0]: expected 1.0, got nan"),
        options, "harness fuzz --seed=3 --skip=0 --count=1");
    ASSERT_TRUE(recorded.ok()) << recorded.message();
    caseDir = *recorded;

    // Committed before recordFinding returned: a second connection sees it
    // while the store is still open.
    EXPECT_EQ(countRows((*store)->databasePath(), "findings"), 1);
    EXPECT_TRUE((*store)->endRun(*run, 1, 1, 0.5).ok());
  }

  EXPECT_EQ(fs::path(caseDir).filename().string(),
            "mismatch-cpu-host-0000000000001234");
  EXPECT_EQ(fs::path(caseDir).parent_path(), fs::path(out) / "cases");
  EXPECT_EQ(readTextFile(caseDir + "/program.mlir"), "module {\n}\n");
  for (const char *name : {"input0.npy", "expected0.npy", "actual0.npy"}) {
    auto tensor = readNpy(caseDir + "/" + name);
    ASSERT_TRUE(tensor.ok()) << name << ": " << tensor.message();
    EXPECT_EQ(describe(*tensor), "f32[2]") << name;
  }
  EXPECT_EQ(f32BitsOf(*readNpy(caseDir + "/actual0.npy")),
            (std::vector<uint32_t>{kNaN, kOne}));
  std::string caseJson = readTextFile(caseDir + "/case.json");
  auto info = nlohmann::json::parse(caseJson, nullptr, /*allow_exceptions=*/
                                    false);
  ASSERT_FALSE(info.is_discarded()) << caseJson;
  EXPECT_EQ(info["verdict"], "mismatch");
  EXPECT_EQ(info["seed"], 0x1234);
  EXPECT_EQ(info["stage"], "compare");
  EXPECT_EQ(info["pipeline"], "cpu");
  EXPECT_EQ(info["repro"], "harness fuzz --seed=3 --skip=0 --count=1");
  // No temporary folder is left behind.
  for (const auto &entry : fs::directory_iterator(out + "/cases"))
    EXPECT_EQ(entry.path().filename().string().rfind(".tmp-", 0),
              std::string::npos)
        << entry.path();

  // After closing: a raw connection and a reopened store both see the row.
  EXPECT_EQ(countRows(out + "/findings.db", "findings"), 1);
  EXPECT_EQ(countRows(out + "/findings.db", "runs"), 1);
  auto reopened = FindingStore::open(out);
  ASSERT_TRUE(reopened.ok()) << reopened.message();
  EXPECT_EQ(countRows((*reopened)->databasePath(), "findings"), 1);
  auto run2 = (*reopened)->beginRun({"again", "cpu", "mixed", 4});
  ASSERT_TRUE(run2.ok()) << run2.message();
  EXPECT_TRUE((*reopened)
                  ->recordFinding(*run2,
                                  fakeFinding(0x99, "output 0 at [1]: "
                                                    "expected 2.0, got nan"),
                                  options, "again")
                  .ok());
  EXPECT_EQ(countRows(out + "/findings.db", "findings"), 2);
  EXPECT_EQ(countRows(out + "/findings.db", "runs"), 2);
  // Both details differ only in numbers: one signature, seen twice.
  EXPECT_EQ(countRows(out + "/findings.db", "signatures"), 1);
}

TEST(FindingStoreTest, SignatureNormalizesNumbers) {
  CaseResult a = fakeFinding(1, "output 1 at [2, 5]: expected -0.0 (0x8000), "
                                "got 0.0 (0x0000); 1 of 24 elements differ");
  CaseResult b = fakeFinding(2, "output 0 at [17, 3]: expected 1.5 (0x3e00), "
                                "got -2.25e+10 (0xd0f2); 7 of 9 elements "
                                "differ\nsecond line 123");
  EXPECT_EQ(findingSignature(a), findingSignature(b));
  EXPECT_EQ(findingSignature(a).rfind("mismatch|compare|", 0), 0u)
      << findingSignature(a);

  // Locations, SSA names and paths are normalized as well.
  CaseResult c = fakeFinding(3, "");
  c.verdict = oracle::Verdict::CompileError;
  c.stage = Stage(Step::Compile);
  CaseResult d = c;
  c.detail = "case-12.mlir:4:9: error: failed to legalize %s0#1 in /tmp/a/b";
  d.detail = "case-99.mlir:40:19: error: failed to legalize %arg3 in /x/y";
  EXPECT_EQ(findingSignature(c), findingSignature(d));

  // Different words or a different verdict are different signatures.
  CaseResult e = fakeFinding(4, "output 1 at [2, 5]: expected -0.0 (0x8000), "
                                "got 0.0 (0x0000); 1 of 24 elements agree");
  EXPECT_NE(findingSignature(a), findingSignature(e));
  CaseResult f = a;
  f.verdict = oracle::Verdict::RuntimeError;
  EXPECT_NE(findingSignature(a), findingSignature(f));
}

TEST(FindingStoreTest, SignatureCollapsesShapedAndElementTypes) {
  // One bug (issue 27: a night with tf-global-temp alone gave 17
  // signatures), met at every shape, rank and element type: one signature.
  auto malloc = [](const std::string &detail) {
    CaseResult r = fakeFinding(7, detail);
    r.verdict = oracle::Verdict::MallocInKernel;
    r.stage = Stage(Step::Static);
    return r;
  };
  CaseResult a = malloc("memref.alloc of memref<?x6x4xf16> lowers to a call "
                        "to malloc (introduced by convert-parallel-loops)");
  CaseResult b = malloc("memref.alloc of memref<?x1xi64> lowers to a call to "
                        "malloc (introduced by convert-parallel-loops)");
  CaseResult c = malloc("memref.alloc of memref<8xf32, strided<[1], offset: "
                        "?>> lowers to a call to malloc (introduced by "
                        "convert-parallel-loops)");
  EXPECT_EQ(findingSignature(a), findingSignature(b));
  EXPECT_EQ(findingSignature(a), findingSignature(c));
  EXPECT_NE(findingSignature(a).find("memref<T>"), std::string::npos)
      << findingSignature(a);
  // Where the buffer lives stays part of the class.
  CaseResult d = malloc("memref.alloc of memref<64xi64, "
                        "#gpu.address_space<workgroup>> lowers to a call to "
                        "malloc (introduced by convert-parallel-loops)");
  EXPECT_NE(findingSignature(a), findingSignature(d));
  EXPECT_NE(findingSignature(d).find("memref<T, workgroup>"), std::string::npos)
      << findingSignature(d);
  // Scalar types too; other words are not touched.
  CaseResult e = malloc("cannot lower arith.addf on f16 (introduced by x)");
  CaseResult f = malloc("cannot lower arith.addf on i64 (introduced by x)");
  CaseResult g = malloc("cannot lower arith.mulf on i64 (introduced by x)");
  EXPECT_EQ(findingSignature(e), findingSignature(f));
  EXPECT_NE(findingSignature(f), findingSignature(g));
}

TEST(FindingStoreTest, SignatureIgnoresKernelNumbersAndMoreCounts) {
  // A kernel's number in its module changes when a kernel before it comes
  // or goes (a copy kernel dropped renumbered a radix sort's scatter from
  // main_kernel_4 to main_kernel_2), and "(and N more)" counts places of
  // one program: neither is part of the bug.
  auto finding = [](const std::string &detail) {
    CaseResult r = fakeFinding(7, detail);
    r.verdict = oracle::Verdict::DataRace;
    r.stage = Stage(Step::Run);
    return r;
  };
  CaseResult a = finding("dispatch 9: data-race: thread (1, 0, 0) writes byte "
                         "8 in kernel main_kernel_4__main_kernel");
  CaseResult b = finding("dispatch 7: data-race: thread (3, 0, 0) writes byte "
                         "24 in kernel main_kernel_2__main_kernel");
  EXPECT_EQ(findingSignature(a), findingSignature(b));
  // The module's first kernel has no number.
  CaseResult a0 = finding("dispatch 0: data-race: thread (1, 0, 0) writes "
                          "byte 8 in kernel main_kernel__main_kernel");
  EXPECT_EQ(findingSignature(a), findingSignature(a0)) << findingSignature(a0);
  CaseResult c = finding("PTX kernel main_kernel: st.shared.v2.b64 (16 bytes) "
                         "at __wg_main_kernel_1+0, declared .align 8 (and 2 "
                         "more)");
  CaseResult d = finding("PTX kernel main_kernel: st.shared.v2.b64 (16 bytes) "
                         "at __wg_main_kernel_0+8, declared .align 8");
  EXPECT_EQ(findingSignature(c), findingSignature(d)) << findingSignature(c);
  // Any vector width is one class; a load is not a store.
  CaseResult e = finding("PTX kernel main_kernel: st.shared.v4.b32 (16 bytes) "
                         "at __wg_main_kernel_0+8, declared .align 4");
  EXPECT_EQ(findingSignature(d), findingSignature(e));
  CaseResult f = finding("PTX kernel main_kernel: ld.shared.v4.b32 (16 bytes) "
                         "at __wg_main_kernel_0+8, declared .align 4");
  EXPECT_NE(findingSignature(e), findingSignature(f));
  // A program's kernels in one module (sift-merge-kernel-modules): the
  // kernel's number is in the entry's name, and a workgroup buffer's name
  // carries both; each reads as before.
  CaseResult merged = finding("dispatch 4: data-race: thread (1, 0, 0) writes "
                              "byte 8 in kernel main_kernel__main_kernel_3");
  EXPECT_EQ(findingSignature(a), findingSignature(merged))
      << findingSignature(merged);
  CaseResult mergedPtx = finding("PTX kernel main_kernel_1: st.shared.v4.b32 "
                                 "(16 bytes) at __wg_main_kernel_1_4+0, "
                                 "declared .align 4 (and 2 more)");
  EXPECT_EQ(findingSignature(e), findingSignature(mergedPtx))
      << findingSignature(mergedPtx);
  // Another op's kernel is still another signature.
  CaseResult other = finding("dispatch 4: data-race: thread (1, 0, 0) writes "
                             "byte 8 in kernel main_kernel__other_kernel_3");
  EXPECT_NE(findingSignature(a), findingSignature(other));
}

TEST(FindingStoreTest, SignatureOfAWrongResultAtAnyIndexRank) {
  // One wrong-result class at any output rank, with or without the bits
  // in parentheses and a float's ulp distance; the op stays (for a wrong
  // result it is the main clue), a pass's finding drops it.
  auto mismatch = [](const std::string &detail, gen::OpKind kind) {
    CaseResult r = fakeFinding(7, detail);
    r.verdict = oracle::Verdict::Mismatch;
    r.stage = Stage(Step::Compare);
    r.program.ops.resize(1);
    r.program.ops[0].kind = kind;
    return r;
  };
  CaseResult a = mismatch("output 0 at [3, 1]: expected 2, got 5; 4 of 90 "
                          "elements differ",
                          gen::OpKind::Nms);
  CaseResult b = mismatch("output 1 at [7]: expected 0.5 (0x3f000000), got "
                          "0.25 (0x3e800000); 3 ulp apart, tolerance 0 ulp; 1 "
                          "of 8 elements differ",
                          gen::OpKind::Nms);
  CaseResult c = mismatch("output 0 at [3, 1]: expected 2, got 5; 4 of 90 "
                          "elements differ",
                          gen::OpKind::Sort);
  EXPECT_EQ(findingSignature(a), findingSignature(b)) << findingSignature(b);
  EXPECT_NE(findingSignature(a), findingSignature(c));
  CaseResult d = c, e = a;
  d.verdict = e.verdict = oracle::Verdict::MallocInKernel;
  d.stage = e.stage = Stage(Step::Static);
  EXPECT_EQ(findingSignature(d), findingSignature(e));
}

// However often a signature recurs, it keeps kReprosPerSignature case
// folders; every finding still gets its row and the signature its count.
TEST(FindingStoreTest, FewReprosPerSignature) {
  TempDir dir;
  std::string out = dir.file("capped");
  auto store = FindingStore::open(out);
  ASSERT_TRUE(store.ok()) << store.message();
  auto run = (*store)->beginRun({"cap", "cpu", "mixed", 1});
  ASSERT_TRUE(run.ok());
  CaseOptions options;
  int folders = 0;
  for (uint64_t seed = 1; seed <= kReprosPerSignature + 4; ++seed) {
    auto dirName = (*store)->recordFinding(
        *run, fakeFinding(seed, "output 0 at [" + std::to_string(seed) +
                                    "]: expected 1.0, got 2.0"),
        options, "repro");
    ASSERT_TRUE(dirName.ok()) << dirName.message();
    folders += dirName->empty() ? 0 : 1;
  }
  EXPECT_EQ(folders, kReprosPerSignature);
  EXPECT_EQ(countRows(out + "/findings.db", "findings"),
            kReprosPerSignature + 4);
  EXPECT_EQ(countRows(out + "/findings.db", "signatures"), 1);
  int entries = 0;
  for (const auto &entry : fs::directory_iterator(out + "/cases")) {
    (void)entry;
    ++entries;
  }
  EXPECT_EQ(entries, kReprosPerSignature);
}

TEST(FindingStoreTest, OpenFailsOnAFileInTheWay) {
  TempDir dir;
  std::string out = dir.file("blocked");
  sift::test::writeTextFile(out, "a file, not a folder");
  auto store = FindingStore::open(out);
  ASSERT_FALSE(store.ok());
  EXPECT_NE(store.message().find(out), std::string::npos) << store.message();
}

} // namespace

namespace {

// The model survives JSON: every generated program reads back to one that
// emits the same MLIR.
TEST(ProgramJsonTest, RoundTripsGeneratedPrograms) {
  gen::Policy policy;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    gen::Program program = gen::generateProgram(policy, seed);
    nlohmann::json json = gen::programToJson(program);
    Result<gen::Program> back =
        gen::programFromJson(nlohmann::json::parse(json.dump()));
    ASSERT_TRUE(back.ok()) << seed << ": " << back.message();
    EXPECT_EQ(gen::emitMlir(*back), gen::emitMlir(program)) << seed;
    EXPECT_EQ(back->weight(), program.weight());
  }
}

TEST(ProgramJsonTest, MalformedProgramsAreErrors) {
  gen::Program program = gen::generateProgram(gen::Policy(), 7);
  nlohmann::json good = gen::programToJson(program);
  auto broken = [&](const std::function<void(nlohmann::json &)> &edit) {
    nlohmann::json j = good;
    edit(j);
    Result<gen::Program> parsed = gen::programFromJson(j);
    EXPECT_FALSE(parsed.ok()) << j.dump();
    return parsed.ok() ? std::string() : parsed.message();
  };
  EXPECT_EQ(broken([](nlohmann::json &j) { j["ops"][0]["kind"] = "fft"; }),
            "program: unknown op kind 'fft'");
  EXPECT_EQ(broken([](nlohmann::json &j) { j["values"][0]["type"] = "q7"; }),
            "program: unknown element type \"q7\"");
  EXPECT_EQ(broken([](nlohmann::json &j) { j.erase("outputs"); })
                .rfind("program: ", 0),
            0u);
  EXPECT_EQ(broken([](nlohmann::json &j) { j["outputs"] = {99}; })
                .rfind("program: ", 0),
            0u);
  EXPECT_EQ(broken([](nlohmann::json &j) { j["inputs"] = "none"; })
                .rfind("program: ", 0),
            0u);
}

TEST(CaseFolders, ReplaceOnlyCaseFolders) {
  TempDir dir;
  CaseResult result;
  result.program = sortProgram();
  result.mlir = gen::emitMlir(result.program);
  CaseOptions options;
  // A folder that is not a case folder is never replaced (nor emptied).
  std::filesystem::create_directories(dir.file("precious"));
  std::ofstream(dir.file("precious/keep.txt")) << "mine";
  auto refused = writeCaseFolderAt(dir.file("precious"), result, options,
                                   "repro", nlohmann::json::object());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("is not a case folder"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir.file("precious/keep.txt")));
  // A case folder is replaced; with keepOtherFiles its extra files stay.
  ASSERT_TRUE(writeCaseFolderAt(dir.file("case"), result, options, "repro",
                                nlohmann::json::object())
                  .ok());
  std::ofstream(dir.file("case/reduced.mlir")) << "module {}";
  result.reproducer = "module {}\n";
  ASSERT_TRUE(writeCaseFolderAt(dir.file("case"), result, options, "repro",
                                nlohmann::json::object(), true)
                  .ok());
  EXPECT_TRUE(std::filesystem::exists(dir.file("case/reduced.mlir")));
  EXPECT_TRUE(std::filesystem::exists(dir.file("case/reproducer.mlir")));
  ASSERT_TRUE(writeCaseFolderAt(dir.file("case"), result, options, "repro",
                                nlohmann::json::object())
                  .ok());
  EXPECT_FALSE(std::filesystem::exists(dir.file("case/reduced.mlir")));
  // Nothing temporary is left beside it.
  for (const auto &entry : std::filesystem::directory_iterator(dir.path()))
    EXPECT_NE(entry.path().filename().string()[0], '.')
        << entry.path().filename();
}

} // namespace
