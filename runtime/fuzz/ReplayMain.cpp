//===- runtime/fuzz/ReplayMain.cpp - fuzz targets without libFuzzer -------===//
//
// The main() of sift's fuzz targets (sift-fuzz, sift-artifact-fuzz) when
// they are not linked with -fsanitize=fuzzer (a g++ build, CI): every file
// argument, and every file in a folder argument, is run through
// LLVMFuzzerTestOneInput once, so a crash file libFuzzer saved on a farm,
// or a whole corpus, replays anywhere. A finding aborts, as under
// libFuzzer. Standard library only, so runtime-only builds have it too.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv);
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

namespace fs = std::filesystem;

int main(int argc, char **argv) {
  const std::string tool = fs::path(argv[0]).filename().string();
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s FILE|FOLDER...\n"
                 "Runs each input through the fuzz target once (this build "
                 "has no libFuzzer; build with -DSIFT_LIBFUZZER=ON and clang "
                 "to fuzz).\n",
                 argv[0]);
    return 2;
  }
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      std::vector<fs::path> found;
      for (const auto &entry : fs::directory_iterator(argv[i], ec))
        if (entry.is_regular_file())
          found.push_back(entry.path());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(argv[i], ec)) {
      files.emplace_back(argv[i]);
    } else {
      std::fprintf(stderr, "%s: %s: no such file or folder\n", tool.c_str(),
                   argv[i]);
      return 2;
    }
  }
  LLVMFuzzerInitialize(&argc, &argv);
  int rejected = 0;
  for (const fs::path &file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: %s: cannot read\n", tool.c_str(),
                   file.c_str());
      return 2;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
    std::fprintf(stderr, "%s: running %s (%zu bytes)\n", tool.c_str(),
                 file.c_str(), bytes.size());
    if (LLVMFuzzerTestOneInput(bytes.data(), bytes.size()) != 0)
      ++rejected;
  }
  std::printf("%s: %zu inputs run, %d rejected, no findings\n", tool.c_str(),
              files.size(), rejected);
  return 0;
}
