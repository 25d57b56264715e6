//===- test/unittests/runtime/ArtifactTest.cpp - Artifact files -----------===//
//
// Artifact round trips (bytes and files) and one test per error the reader
// and the verifier report: container errors (empty, truncated, bad magic,
// version, table and section checksums, bounds, names), section errors
// (missing, unknown, gaps, malformed meta, plan and .npy contents) and
// semantic errors found by verifyArtifact.
//
//===----------------------------------------------------------------------===//

#include "runtime/Artifact.h"

#include "support/Npy.h"
#include "test/unittests/runtime/RuntimeTestUtil.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

using namespace sift;
using namespace sift::rt;
using namespace sift::rt::test;

namespace {

Result<Artifact> parse(const std::vector<uint8_t> &bytes) {
  return parseArtifact(bytes.data(), bytes.size(), "art.sift");
}

/// Parses `bytes` and expects exactly "art.sift: " + message.
void expectError(const std::vector<uint8_t> &bytes,
                 const std::string &message) {
  Result<Artifact> parsed = parse(bytes);
  ASSERT_FALSE(parsed.ok()) << "expected: " << message;
  EXPECT_EQ(parsed.message(), "art.sift: " + message);
}

/// Parses `bytes` and expects an error that contains `part`.
void expectErrorContaining(const std::vector<uint8_t> &bytes,
                           const std::string &part) {
  Result<Artifact> parsed = parse(bytes);
  ASSERT_FALSE(parsed.ok()) << "expected an error containing: " << part;
  EXPECT_NE(parsed.message().find(part), std::string::npos)
      << "message: " << parsed.message() << "\nexpected to contain: " << part;
}

/// Encodes a (possibly invalid) artifact and expects the reader's verifier
/// to reject it with exactly "art.sift: " + message; verifyArtifact must say
/// the same without the prefix.
void expectInvalid(const Artifact &artifact, const std::string &message) {
  Status status = verifyArtifact(artifact);
  ASSERT_FALSE(status.ok()) << "expected: " << message;
  EXPECT_EQ(status.message(), message);
  expectError(encodeArtifact(artifact), message);
}

void renameSection(std::vector<uint8_t> &bytes, const std::string &from,
                   const std::string &to) {
  std::optional<size_t> entry = findSectionEntry(bytes, from);
  ASSERT_TRUE(entry.has_value()) << from;
  std::memset(bytes.data() + *entry, 0, kSectionNameBytes);
  std::memcpy(bytes.data() + *entry, to.data(), to.size());
  resealArtifact(bytes);
}

std::vector<uint8_t> textBytes(const std::string &text) {
  return std::vector<uint8_t>(text.begin(), text.end());
}

//===----------------------------------------------------------------------===//
// Round trips
//===----------------------------------------------------------------------===//

TEST(Artifact, Fnv1a64KnownValues) {
  EXPECT_EQ(fnv1a64(nullptr, 0), 0xcbf29ce484222325ull);
  const uint8_t a[] = {'a'};
  EXPECT_EQ(fnv1a64(a, 1), 0xaf63dc4c8601ec8cull);
  const char *foobar = "foobar";
  EXPECT_EQ(fnv1a64(reinterpret_cast<const uint8_t *>(foobar), 6),
            0x85944171f73967e8ull);
}

TEST(Artifact, RoundTripBytes) {
  Artifact artifact = sampleArtifact();
  std::vector<uint8_t> bytes = encodeArtifact(artifact);
  EXPECT_EQ(std::memcmp(bytes.data(), "SIFTART\0", 8), 0);
  Result<Artifact> parsed = parse(bytes);
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(*parsed, artifact);
  EXPECT_EQ(encodeArtifact(*parsed), bytes);
}

TEST(Artifact, RoundTripWithoutTensorsAndWithSeveralExecutables) {
  Artifact artifact = sampleArtifact();
  artifact.inputs.clear();
  artifact.expected.clear();
  artifact.meta.clear();
  Executable ptx;
  ptx.format = ExecutableFormat::Ptx;
  ptx.target = "nvptx/sm_90";
  ptx.entries = {"k0", "k1", "k2"};
  ptx.binary = textBytes(".version 8.0\n.target sm_90\n");
  Executable hsaco = ptx;
  hsaco.format = ExecutableFormat::Hsaco;
  hsaco.target = "";
  artifact.executables.push_back(ptx);
  artifact.executables.push_back(hsaco);
  Dispatch dispatch;
  dispatch.executable = 2;
  dispatch.entry = 2;
  dispatch.bindings = {1, 2};
  artifact.plan.dispatches.push_back(dispatch);
  Result<Artifact> parsed = parse(encodeArtifact(artifact));
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(*parsed, artifact);
}

TEST(Artifact, RoundTripEmptyPlan) {
  Artifact artifact;
  artifact.meta["pipeline"] = "none";
  Result<Artifact> parsed = parse(encodeArtifact(artifact));
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(*parsed, artifact);
}

TEST(Artifact, RoundTripFile) {
  TempDir dir;
  std::string path = dir.file("art.sift");
  Artifact artifact = sampleArtifact();
  ASSERT_TRUE(writeArtifact(path, artifact).ok());
  Result<Artifact> read = readArtifact(path);
  ASSERT_TRUE(read.ok()) << read.message();
  EXPECT_EQ(*read, artifact);
}

TEST(Artifact, WriteRefusesAnInvalidArtifactAndLeavesNoFile) {
  TempDir dir;
  std::string path = dir.file("bad.sift");
  Artifact artifact = sampleArtifact();
  artifact.plan.dispatches[0].bindings = {0, 7};
  Status status = writeArtifact(path, artifact);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            path + ": refusing to write an invalid artifact: dispatch 0 binds "
                   "buffer 7 but the plan has 3 buffers");
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Artifact, ReadMissingFile) {
  TempDir dir;
  Result<Artifact> read = readArtifact(dir.file("none.sift"));
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.message().find("none.sift: cannot open"), std::string::npos)
      << read.message();
}

//===----------------------------------------------------------------------===//
// Container errors
//===----------------------------------------------------------------------===//

TEST(ArtifactErrors, Empty) {
  expectError({}, "empty file: not a sift artifact");
}

TEST(ArtifactErrors, BadMagic) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  bytes[3] = 'X';
  expectError(bytes, "not a sift artifact: the file does not start with the "
                     "magic \"SIFTART\\0\"");
  expectError(textBytes("\x7f"
                        "ELF"),
              "not a sift artifact: the file does "
              "not start with the magic "
              "\"SIFTART\\0\"");
}

TEST(ArtifactErrors, TruncatedHeader) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  expectError(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 5),
              "truncated artifact: 5 bytes end inside the 24-byte header");
  expectError(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 20),
              "truncated artifact: 20 bytes end inside the 24-byte header");
}

TEST(ArtifactErrors, TruncatedSectionTable) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  expectError(std::vector<uint8_t>(bytes.begin(), bytes.begin() + 100),
              "truncated artifact: the section table of 6 entries needs 384 "
              "bytes but only 76 follow the header");
}

TEST(ArtifactErrors, TruncatedSections) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  bytes.resize(bytes.size() - 10);
  expectErrorContaining(bytes, "section 'expected/0.npy' (offset ");
  expectErrorContaining(bytes, "lies outside the file of " +
                                   std::to_string(bytes.size()) + " bytes");
}

TEST(ArtifactErrors, UnknownVersion) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  writeU32(bytes, 8, 7);
  expectError(bytes, "unsupported artifact format version 7 (this runtime "
                     "reads version 1)");
}

TEST(ArtifactErrors, TableChecksumMismatch) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  bytes[kArtifactHeaderBytes + 1] ^= 1; // "meta" -> "mdta"
  expectErrorContaining(bytes, "section table checksum mismatch (stored 0x");
  expectErrorContaining(bytes, "): the file is corrupt");
}

TEST(ArtifactErrors, SectionChecksumMismatch) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  std::optional<size_t> plan = findSectionEntry(bytes, "plan");
  ASSERT_TRUE(plan.has_value());
  bytes[readU64(bytes, *plan + 32) + 3] ^= 0x20;
  expectErrorContaining(bytes, "section 'plan' checksum mismatch (stored 0x");
}

TEST(ArtifactErrors, SectionOutOfBounds) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  std::optional<size_t> plan = findSectionEntry(bytes, "plan");
  ASSERT_TRUE(plan.has_value());
  writeU64(bytes, *plan + 40, bytes.size());
  resealArtifact(bytes);
  expectErrorContaining(bytes, "section 'plan' (offset ");
  expectErrorContaining(bytes, ") lies outside the file of ");
  // Offsets and sizes that overflow when added.
  writeU64(bytes, *plan + 32, ~uint64_t(0));
  writeU64(bytes, *plan + 40, 2);
  resealArtifact(bytes);
  expectErrorContaining(bytes, "section 'plan' (offset 18446744073709551615, "
                               "size 2) lies outside the file");
  writeU64(bytes, *plan + 32, 8);
  writeU64(bytes, *plan + 40, ~uint64_t(0) - 4);
  resealArtifact(bytes);
  expectErrorContaining(bytes, "lies outside the file");
}

TEST(ArtifactErrors, HugeSectionCount) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  writeU32(bytes, 12, 0xffffffffu);
  expectErrorContaining(bytes, "truncated artifact: the section table of "
                               "4294967295 entries needs 274877906880 bytes");
}

TEST(ArtifactErrors, SectionNames) {
  std::vector<uint8_t> base = encodeArtifact(sampleArtifact());
  std::vector<uint8_t> bytes = base;
  std::memset(bytes.data() + kArtifactHeaderBytes, 'a', kSectionNameBytes);
  resealArtifact(bytes);
  expectError(bytes, "section table entry 0 has a name without a terminating "
                     "NUL");

  bytes = base;
  std::memset(bytes.data() + kArtifactHeaderBytes, 0, kSectionNameBytes);
  resealArtifact(bytes);
  expectError(bytes, "section table entry 0 has an empty name");

  bytes = base;
  bytes[kArtifactHeaderBytes + 1] = '\n';
  resealArtifact(bytes);
  expectError(bytes, "section table entry 0 has a name with a byte outside "
                     "printable ASCII");

  bytes = base;
  bytes[kArtifactHeaderBytes + 10] = 'x';
  resealArtifact(bytes);
  expectError(bytes, "section table entry 0 ('meta') has bytes after its "
                     "name's NUL");

  bytes = base;
  bytes[kArtifactHeaderBytes + 60] = 1;
  resealArtifact(bytes);
  expectError(bytes, "section 'meta' has a non-zero reserved field");

  bytes = base;
  renameSection(bytes, "plan", "meta");
  expectError(bytes, "section 'meta' appears twice");

  bytes = base;
  renameSection(bytes, "plan", "notes");
  expectError(bytes, "unknown section 'notes'");
  renameSection(bytes, "notes", "exe/01");
  expectError(bytes, "unknown section 'exe/01'");
}

//===----------------------------------------------------------------------===//
// Section errors
//===----------------------------------------------------------------------===//

TEST(ArtifactErrors, MissingSections) {
  std::vector<uint8_t> base = encodeArtifact(sampleArtifact());
  std::vector<uint8_t> bytes = base;
  renameSection(bytes, "meta", "input/5.npy");
  expectError(bytes, "missing section 'meta'");
  bytes = base;
  renameSection(bytes, "plan", "input/5.npy");
  expectError(bytes, "missing section 'plan'");
}

TEST(ArtifactErrors, IndexGapsAndUnpairedExecutableSections) {
  std::vector<uint8_t> base = encodeArtifact(sampleArtifact());
  std::vector<uint8_t> bytes = base;
  renameSection(bytes, "input/0.npy", "input/1.npy");
  expectError(bytes, "section 'input/1.npy' is present but 'input/0...' is "
                     "missing (indices must run 0..N-1)");

  bytes = base;
  renameSection(bytes, "exe/0.meta", "exe/1.meta");
  expectError(bytes, "section 'exe/1.meta' describes executable 1 but there "
                     "is no section 'exe/1'");

  bytes = base;
  renameSection(bytes, "exe/0.meta", "input/1.npy");
  expectError(bytes, "section 'exe/0' has no 'exe/0.meta'");
}

TEST(ArtifactErrors, MalformedMeta) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  replaceSection(bytes, "meta", textBytes("pipeline=cpu\nno equals sign\n"));
  expectError(bytes, "section 'meta' line 2: expected key=value, found 'no "
                     "equals sign'");
  replaceSection(bytes, "meta", textBytes("a=1\n\na=2\n"));
  expectError(bytes, "section 'meta': key 'a' appears twice");
  replaceSection(bytes, "meta", textBytes("a=1\r\n"));
  expectError(bytes, "meta value of 'a' contains a line break or NUL");
}

TEST(ArtifactErrors, MalformedExecutableMeta) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  replaceSection(bytes, "exe/0.meta",
                 textBytes("format=elf\ntarget=host\nentry=add_one\n"));
  expectError(bytes, "section 'exe/0.meta': unknown executable format 'elf' "
                     "(expected host-so, ptx, hsaco or emu-so)");
  replaceSection(bytes, "exe/0.meta", textBytes("format=ptx\nentry=k\n"));
  expectError(bytes, "section 'exe/0.meta': missing 'target'");
  replaceSection(bytes, "exe/0.meta", textBytes("target=x\nentry=k\n"));
  expectError(bytes, "section 'exe/0.meta': missing 'format'");
  replaceSection(bytes, "exe/0.meta",
                 textBytes("format=ptx\nformat=ptx\ntarget=x\n"));
  expectError(bytes, "section 'exe/0.meta': 'format' appears twice");
  replaceSection(bytes, "exe/0.meta",
                 textBytes("format=ptx\ntarget=x\nentries=k\n"));
  expectError(bytes, "section 'exe/0.meta': unknown key 'entries'");
  replaceSection(bytes, "exe/0.meta", textBytes("format=host-so\ntarget=h\n"));
  expectError(bytes, "executable 0 declares no entry points");
  replaceSection(bytes, "exe/0.meta",
                 textBytes("format=host-so\ntarget=host\nentry=add_one\n"));
  EXPECT_TRUE(parse(bytes).ok());
}

TEST(ArtifactErrors, MalformedPlanNamesTheLine) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  replaceSection(bytes, "plan", textBytes("sift-plan 1\nbuffer 0 type=f32\n"));
  expectError(bytes, "section 'plan':2: buffer 0: missing 'shape'");
}

TEST(ArtifactErrors, MalformedNpySection) {
  std::vector<uint8_t> bytes = encodeArtifact(sampleArtifact());
  std::vector<uint8_t> npy = encodeNpy(iotaTensor(ElementType::F32, {4, 8}));
  npy.resize(npy.size() - 28);
  replaceSection(bytes, "input/0.npy", npy);
  expectError(bytes, "section 'input/0.npy': header declares shape (4, 8) = 32 "
                     "elements of <f4 (128 bytes) but 100 data bytes follow");
}

//===----------------------------------------------------------------------===//
// Verifier errors
//===----------------------------------------------------------------------===//

TEST(ArtifactVerify, SampleIsValid) {
  EXPECT_TRUE(verifyArtifact(sampleArtifact()).ok());
}

TEST(ArtifactVerify, BindingOutOfRange) {
  Artifact artifact = sampleArtifact();
  artifact.plan.dispatches[0].bindings = {0, 1, 7};
  expectInvalid(artifact, "dispatch 0 binds buffer 7 but the plan has 3 "
                          "buffers");
}

TEST(ArtifactVerify, DuplicateBinding) {
  Artifact artifact = sampleArtifact();
  artifact.plan.dispatches[0].bindings = {0, 1, 0};
  expectInvalid(artifact, "dispatch 0 binds buffer 0 twice");
}

TEST(ArtifactVerify, ExecutableIndexOutOfRange) {
  Artifact artifact = sampleArtifact();
  artifact.plan.dispatches[0].executable = 1;
  expectInvalid(artifact, "dispatch 0 names executable 1 but the artifact has "
                          "1 executables");
}

TEST(ArtifactVerify, EntryIndexOutOfRange) {
  Artifact artifact = sampleArtifact();
  artifact.plan.dispatches[0].entry = 2;
  expectInvalid(artifact, "dispatch 0 names entry 2 of executable 0, which has "
                          "2 entries");
}

TEST(ArtifactVerify, GridBlockAndShapes) {
  Artifact artifact = sampleArtifact();
  artifact.plan.dispatches[0].grid = {0, 1, 1};
  expectInvalid(artifact, "dispatch 0 has grid size 0 along x");
  artifact = sampleArtifact();
  artifact.plan.dispatches[0].block = {32, 32, 2};
  expectInvalid(artifact, "dispatch 0 has block [32,32,2], more than 1024 "
                          "threads per workgroup");
  artifact = sampleArtifact();
  artifact.plan.buffers[2].shape = {-4};
  expectInvalid(artifact, "buffer 2 (temporary 0) has a negative dimension in "
                          "its shape i32[-4]");
  artifact.plan.buffers[2].shape = {1 << 30, 1 << 30};
  expectInvalid(artifact,
                "buffer 2 (temporary 0) of i32[1073741824x1073741824] "
                "is larger than the limit of 1099511627776 bytes");
}

TEST(ArtifactVerify, OutputWrittenByNoDispatch) {
  Artifact artifact = sampleArtifact();
  artifact.plan.dispatches[0].bindings = {0};
  expectInvalid(artifact, "output 0 (buffer 1) is bound by no dispatch, so "
                          "nothing writes it");
}

TEST(ArtifactVerify, InputsMustMatchThePlan) {
  Artifact artifact = sampleArtifact();
  artifact.inputs.push_back(artifact.inputs[0]);
  expectInvalid(artifact, "the artifact carries 2 input tensors but the plan "
                          "has 1 inputs");
  artifact = sampleArtifact();
  artifact.inputs[0] = iotaTensor(ElementType::I64, {4, 8});
  expectInvalid(artifact, "input 0 is i64[4x8] but the plan's input 0 (buffer "
                          "0) is f32[4x8]");
  artifact = sampleArtifact();
  artifact.inputs[0].data.pop_back();
  // In a file the .npy reader catches this first (see MalformedNpySection).
  EXPECT_EQ(verifyArtifact(artifact).message(),
            "input 0 (f32[4x8]) holds 127 data bytes, not the 128 its shape "
            "needs");
}

TEST(ArtifactVerify, ExpectedMustMatchThePlan) {
  Artifact artifact = sampleArtifact();
  artifact.expected[0] = iotaTensor(ElementType::F32, {8, 4});
  expectInvalid(artifact, "expected 0 is f32[8x4] but the plan's output 0 "
                          "(buffer 1) is f32[4x8]");
  artifact.expected.clear();
  EXPECT_TRUE(verifyArtifact(artifact).ok());
}

TEST(ArtifactVerify, Executables) {
  Artifact artifact = sampleArtifact();
  artifact.executables[0].binary.clear();
  expectInvalid(artifact, "executable 0 has an empty binary");
  artifact = sampleArtifact();
  artifact.executables[0].entries = {"add_one", "add_one"};
  expectInvalid(artifact, "executable 0 declares entry 'add_one' twice");
  artifact.executables[0].entries = {"add one"};
  expectInvalid(artifact, "executable 0 entry 0 name 'add one' contains "
                          "whitespace or a control character");
  artifact.executables[0].entries = {"add_one", ""};
  expectInvalid(artifact, "executable 0 entry 1 has an empty name");
  artifact.executables[0].entries = {};
  artifact.plan.dispatches.clear();
  artifact.expected.clear();
  artifact.plan.buffers[1].role = BufferRole::Temporary;
  expectInvalid(artifact, "executable 0 declares no entry points");
  // Encoded, this target would smuggle in an entry: only the verifier (run
  // by writeArtifact) can catch it.
  artifact = sampleArtifact();
  artifact.executables[0].target = "host\nentry=evil";
  EXPECT_EQ(verifyArtifact(artifact).message(),
            "executable 0 has a control character in its target "
            "'host?entry=evil'");
}

/// Two PTX executables (2 and 3 entries) and their emu kernels.
Artifact emuArtifact() {
  Artifact artifact = sampleArtifact();
  Executable ptx;
  ptx.format = ExecutableFormat::Ptx;
  ptx.target = "nvptx/sm_90";
  ptx.entries = {"a", "b"};
  ptx.binary = textBytes(".version 8.0\n");
  Executable second = ptx;
  second.entries = {"c", "d", "e"};
  Executable emu;
  emu.format = ExecutableFormat::EmuSharedObject;
  emu.target = "emu/nvptx/sm_90";
  emu.entries = {"k0__a", "k0__b", "k1__c", "k1__d", "k1__e"};
  emu.binary = textBytes("\x7f"
                         "ELF");
  artifact.executables = {ptx, second, emu};
  artifact.plan.dispatches[0].executable = 1;
  artifact.plan.dispatches[0].entry = 2;
  return artifact;
}

TEST(ArtifactVerify, EmuKernels) {
  Artifact artifact = emuArtifact();
  ASSERT_TRUE(verifyArtifact(artifact).ok())
      << verifyArtifact(artifact).message();
  Result<Artifact> parsed = parse(encodeArtifact(artifact));
  ASSERT_TRUE(parsed.ok()) << parsed.message();
  EXPECT_EQ(*parsed, artifact);
  ASSERT_EQ(emuExecutable(*parsed), &parsed->executables[2]);
  // Dispatch (executable 1, entry 2) is the emu kernels' entry 2 + 2.
  EXPECT_EQ(emuEntryIndex(*parsed, parsed->plan.dispatches[0]), 4);
  EXPECT_EQ(emuExecutable(sampleArtifact()), nullptr);

  artifact.executables[2].entries.pop_back();
  expectInvalid(artifact, "executable 2 (emu-so) has 4 entries for the 5 "
                          "entries of the GPU executables before it");
  artifact = emuArtifact();
  std::swap(artifact.executables[1], artifact.executables[2]);
  expectInvalid(artifact, "executable 1 (emu-so) is not the last executable");
  artifact = emuArtifact();
  artifact.plan.dispatches[0].executable = 2;
  artifact.plan.dispatches[0].entry = 0;
  expectInvalid(artifact, "dispatch 0 names executable 2, the emu kernels "
                          "(which stand in for the others)");
}

TEST(ArtifactVerify, MetaKeysAndValues) {
  Artifact artifact = sampleArtifact();
  artifact.meta["a=b"] = "c";
  Status status = verifyArtifact(artifact);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "meta key 'a=b' contains '=' or a control "
                              "character");
  artifact = sampleArtifact();
  artifact.meta[""] = "c";
  EXPECT_EQ(verifyArtifact(artifact).message(), "meta has an empty key");
  artifact = sampleArtifact();
  artifact.meta["k"] = "two\nlines";
  EXPECT_EQ(verifyArtifact(artifact).message(),
            "meta value of 'k' contains a line break or NUL");
}

} // namespace
