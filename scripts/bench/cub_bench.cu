// CUB (CUDA's CCCL) on sift's benchmark inputs, for `harness bench`.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 cub_bench.cu -o cub_bench
//   cub_bench INPUTS_DIR OUT.json [RUNS] [WARMUP]
//
// INPUTS_DIR is what `sift-run --write-bench-inputs=DIR` wrote (inputs and
// the reference's expected outputs). Each benchmark is timed through two
// calls, the strongest CUB has for it: "cub" is
// cub::DeviceSegmentedSort (one segment per row; SortKeys ascending for a
// sort, SortPairsDescending over (value, index) for a top-k, each row's
// first k copied out, the copy timed too: this CCCL has no top-k
// primitive; for an argsort-RxC the same pairs, nothing copied), "cub-radix" is cub::DeviceRadixSort for a single row and
// cub::DeviceSegmentedRadixSort for several. Before it is timed, each
// call's result is checked against the reference (values equal as keys;
// top-k indices that point at their values, distinct in a row, since a
// sort-based top-k promises no order among ties): a wrong result gets the
// label "mismatch: ...", which the bench table never takes as a baseline;
// the last timed run is checked again. A name ending in "-bf16" sorts bf16
// keys ('<V2' .npy files, __nv_bfloat16 on the device).
// NMS has no CUB primitive (torchvision is its baseline). "copy-1GiB"
// times a device-to-device copy, the bandwidth floor's denominator;
// "launch-empty" an empty kernel, the least any kernel takes (a small
// shape's floor counts one launch). Each
// op is timed with CUDA events, WARMUP untimed runs first; the output is
// Google Benchmark JSON named "<benchmark>/<call>/cuda".
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t e = (call);                                                    \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "cub_bench: %s: %s\n", #call,                       \
                   cudaGetErrorString(e));                                     \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

namespace {

/// A .npy of `dtype` ('<f4', '<i8'; little-endian, C order): its shape and
/// data; false on error.
template <typename T>
bool readNpy(const std::string &path, const char *dtype,
             std::vector<long> &shape, std::vector<T> &data) {
  std::ifstream in(path, std::ios::binary);
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0)
    return false;
  unsigned headerLength = 0;
  if (magic[6] == 1) {
    unsigned char l[2];
    in.read(reinterpret_cast<char *>(l), 2);
    headerLength = l[0] | (l[1] << 8);
  } else {
    unsigned char l[4];
    in.read(reinterpret_cast<char *>(l), 4);
    headerLength = l[0] | (l[1] << 8) | (l[2] << 16) | (l[3] << 24);
  }
  std::string header(headerLength, ' ');
  in.read(&header[0], headerLength);
  if (header.find(std::string("'") + dtype + "'") == std::string::npos ||
      header.find("'fortran_order': False") == std::string::npos)
    return false;
  size_t open = header.find('(', header.find("'shape'"));
  size_t close = header.find(')', open);
  std::stringstream dims(header.substr(open + 1, close - open - 1));
  std::string item;
  long count = 1;
  shape.clear();
  while (std::getline(dims, item, ','))
    if (item.find_first_not_of(' ') != std::string::npos) {
      shape.push_back(std::atol(item.c_str()));
      count *= shape.back();
    }
  data.resize(count);
  return static_cast<bool>(
      in.read(reinterpret_cast<char *>(data.data()), count * sizeof(T)));
}

/// A key type's .npy dtype and its value as a float (exact for both).
template <typename K> struct KeyType;
template <> struct KeyType<float> {
  static constexpr const char *dtype = "<f4";
  static float toFloat(float k) { return k; }
};
/// bf16 is written as two opaque bytes ('<V2', ml_dtypes' spelling).
template <> struct KeyType<__nv_bfloat16> {
  static constexpr const char *dtype = "<V2";
  static float toFloat(__nv_bfloat16 k) { return __bfloat162float(k); }
};

template <typename K>
bool readKeys(const std::string &path, std::vector<long> &shape,
              std::vector<K> &data) {
  return readNpy(path, KeyType<K>::dtype, shape, data);
}

/// Equal as sort keys: NaN to NaN, -0 to +0.
bool sameKey(float a, float b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

__global__ void iotaRows(int *values, long rows, long cols) {
  long i = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (i < rows * cols)
    values[i] = static_cast<int>(i % cols);
}

std::vector<float> timed(const std::function<void()> &op, int runs,
                         int warmup) {
  for (int i = 0; i < warmup; ++i)
    op();
  CHECK(cudaDeviceSynchronize());
  cudaEvent_t start, end;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&end));
  std::vector<float> ms;
  for (int i = 0; i < runs; ++i) {
    CHECK(cudaEventRecord(start));
    op();
    CHECK(cudaEventRecord(end));
    CHECK(cudaEventSynchronize(end));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, end));
    ms.push_back(t);
  }
  return ms;
}

std::string entries(const std::string &name, std::vector<float> ms,
                    double bytes, const std::string &label = "pass") {
  std::string out;
  char line[512];
  for (size_t i = 0; i < ms.size(); ++i) {
    std::snprintf(line, sizeof(line),
                  "{\"name\":\"%s\",\"run_name\":\"%s\",\"run_type\":"
                  "\"iteration\",\"repetitions\":%zu,\"repetition_index\":%zu,"
                  "\"threads\":1,\"iterations\":1,\"real_time\":%.6f,"
                  "\"cpu_time\":%.6f,\"time_unit\":\"ms\",\"bytes_moved\":%.0f,"
                  "\"label\":\"%s\"},\n",
                  name.c_str(), name.c_str(), ms.size(), i, ms[i], ms[i],
                  bytes, label.c_str());
    out += line;
  }
  std::vector<float> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  float median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const char *names[] = {"median", "spread"};
  float values[] = {median, sorted.back() - sorted.front()};
  for (int a = 0; a < 2; ++a) {
    std::snprintf(line, sizeof(line),
                  "{\"name\":\"%s_%s\",\"run_name\":\"%s\",\"run_type\":"
                  "\"aggregate\",\"aggregate_name\":\"%s\",\"repetitions\":%zu,"
                  "\"threads\":1,\"iterations\":1,\"real_time\":%.6f,"
                  "\"cpu_time\":%.6f,\"time_unit\":\"ms\",\"bytes_moved\":%.0f,"
                  "\"label\":\"%s\"},\n",
                  name.c_str(), names[a], name.c_str(), names[a], n, values[a],
                  values[a], bytes, label.c_str());
    out += line;
  }
  std::printf("%s: median %.3f ms of %zu (%s)\n", name.c_str(), median, n,
              label.c_str());
  return out;
}

/// "pass", or "mismatch: ..." when the sorted keys (a sort: the row;
/// top-k: the first k of each row, and indices pointing at them, distinct)
/// differ from the reference in `folder` (expected0.npy, expected1.npy).
template <typename K>
std::string checkResult(const std::string &folder, bool topk, long rows,
                        long cols, long k, const std::vector<K> &input,
                        const K *keysOut, const int *indicesOut) {
  std::vector<long> shape;
  std::vector<K> want;
  if (!readKeys(folder + "/expected0.npy", shape, want))
    return "pass"; // inputs written before the reference was: unchecked
  long width = topk ? k : cols;
  std::vector<K> got(rows * width);
  std::vector<int> indices(topk ? rows * k : 0);
  CHECK(cudaMemcpy2D(got.data(), width * sizeof(K), keysOut,
                     cols * sizeof(K), width * sizeof(K), rows,
                     cudaMemcpyDeviceToHost));
  if (topk)
    CHECK(cudaMemcpy2D(indices.data(), k * sizeof(int), indicesOut,
                       cols * sizeof(int), k * sizeof(int), rows,
                       cudaMemcpyDeviceToHost));
  if (want.size() != got.size())
    return "mismatch: the reference has " + std::to_string(want.size()) +
           " values, the call " + std::to_string(got.size());
  auto f = KeyType<K>::toFloat;
  for (size_t i = 0; i < got.size(); ++i)
    if (!sameKey(f(got[i]), f(want[i])))
      return "mismatch: value " + std::to_string(i) + " differs from the "
             "reference";
  for (long r = 0; r < (topk ? rows : 0); ++r) {
    std::set<int> seen;
    for (long j = 0; j < k; ++j) {
      int index = indices[r * k + j];
      if (index < 0 || index >= cols || !seen.insert(index).second ||
          !sameKey(f(input[r * cols + index]), f(got[r * k + j])))
        return "mismatch: row " + std::to_string(r) + "'s index " +
               std::to_string(j) + " does not point at its value";
    }
  }
  return "pass";
}

/// Sort or top-k of keys K of one benchmark's input through both calls:
/// their entries.
template <typename K>
std::string benchRows(const std::string &dir, const std::string &name,
                      bool topk, bool sort, bool argsort, long rows, long cols,
                      long k, int runs, int warmup) {
  std::string folder = dir + "/" + name;
  std::vector<long> shape;
  std::vector<K> host;
  if (!readKeys(folder + "/input0.npy", shape, host)) {
    std::fprintf(stderr, "cub_bench: %s/input0.npy: not a %s .npy\n",
                 folder.c_str(), KeyType<K>::dtype);
    std::exit(2);
  }
  long n = rows * cols;
  K *keys, *keysOut;
  int *values, *valuesOut, *offsets;
  CHECK(cudaMalloc(&keys, n * sizeof(K)));
  CHECK(cudaMalloc(&keysOut, n * sizeof(K)));
  CHECK(cudaMalloc(&values, n * sizeof(int)));
  CHECK(cudaMalloc(&valuesOut, n * sizeof(int)));
  CHECK(cudaMalloc(&offsets, (rows + 1) * sizeof(int)));
  std::vector<int> hostOffsets(rows + 1);
  for (long r = 0; r <= rows; ++r)
    hostOffsets[r] = static_cast<int>(r * cols);
  CHECK(cudaMemcpy(keys, host.data(), n * sizeof(K), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(offsets, hostOffsets.data(), (rows + 1) * sizeof(int),
                   cudaMemcpyHostToDevice));
  iotaRows<<<(n + 255) / 256, 256>>>(values, rows, cols);
  K *topValues;
  int *topIndices;
  CHECK(cudaMalloc(&topValues, rows * std::max(k, 1L) * sizeof(K)));
  CHECK(cudaMalloc(&topIndices, rows * std::max(k, 1L) * sizeof(int)));
  int bits = 8 * sizeof(K);
  // The calls: each sizes its temporary storage when temp is null.
  using Call = std::function<void(void *, size_t &)>;
  std::vector<std::pair<std::string, Call>> calls = {
      {"cub", [&](void *temp, size_t &bytes) {
         if (sort)
           cub::DeviceSegmentedSort::SortKeys(temp, bytes, keys, keysOut, n,
                                              rows, offsets, offsets + 1);
         else
           cub::DeviceSegmentedSort::SortPairsDescending(
               temp, bytes, keys, keysOut, values, valuesOut, n, rows, offsets,
               offsets + 1);
       }},
      {"cub-radix", [&](void *temp, size_t &bytes) {
         if (sort && rows == 1)
           cub::DeviceRadixSort::SortKeys(temp, bytes, keys, keysOut, n, 0,
                                          bits);
         else if (sort)
           cub::DeviceSegmentedRadixSort::SortKeys(temp, bytes, keys, keysOut,
                                                   n, rows, offsets,
                                                   offsets + 1, 0, bits);
         else if (rows == 1)
           cub::DeviceRadixSort::SortPairsDescending(
               temp, bytes, keys, keysOut, values, valuesOut, n, 0, bits);
         else
           cub::DeviceSegmentedRadixSort::SortPairsDescending(
               temp, bytes, keys, keysOut, values, valuesOut, n, rows, offsets,
               offsets + 1, 0, bits);
       }}};
  double key = sizeof(K);
  double bytes =
      n * key + (topk || argsort ? rows * k * (key + 8.0) : n * key);
  std::string out;
  for (auto &entry : calls) {
    const std::string &call = entry.first;
    Call &run = entry.second;
    size_t tempBytes = 0;
    run(nullptr, tempBytes);
    void *temp = nullptr;
    CHECK(cudaMalloc(&temp, std::max<size_t>(tempBytes, 1)));
    auto op = [&]() {
      run(temp, tempBytes);
      if (topk) {
        CHECK(cudaMemcpy2DAsync(topValues, k * sizeof(K), keysOut,
                                cols * sizeof(K), k * sizeof(K), rows,
                                cudaMemcpyDeviceToDevice));
        CHECK(cudaMemcpy2DAsync(topIndices, k * sizeof(int), valuesOut,
                                cols * sizeof(int), k * sizeof(int), rows,
                                cudaMemcpyDeviceToDevice));
      }
    };
    CHECK(cudaMemset(keysOut, 0, n * sizeof(K)));
    op();
    CHECK(cudaDeviceSynchronize());
    std::string label =
        checkResult(folder, topk || argsort, rows, cols, k, host, keysOut,
                    valuesOut);
    std::vector<float> ms = timed(op, runs, warmup);
    // The last timed run checked too (state kept between runs).
    CHECK(cudaDeviceSynchronize());
    std::string last = checkResult(folder, topk || argsort, rows, cols, k,
                                   host, keysOut, valuesOut);
    if (label == "pass" && last != "pass")
      label = last + " (the last timed run; the first matched)";
    out += entries(name + "/" + call + "/cuda", ms, bytes, label);
    CHECK(cudaFree(temp));
  }
  for (void *p : {(void *)keys, (void *)keysOut, (void *)values,
                  (void *)valuesOut, (void *)offsets, (void *)topValues,
                  (void *)topIndices})
    CHECK(cudaFree(p));
  return out;
}

/// Sort or top-k of one benchmark's input through both calls: their
/// entries, "" when the folder is not a sort or top-k. A name ending in
/// "-bf16" has bf16 keys.
std::string benchOne(const std::string &dir, const std::string &name,
                     int runs, int warmup) {
  long rows = 0, cols = 0, k = 0;
  bool topk = std::sscanf(name.c_str(), "topk-%ldx%ld-k%ld", &rows, &cols,
                          &k) == 3;
  bool sort = !topk && std::sscanf(name.c_str(), "sort-%ldx%ld", &rows,
                                   &cols) == 2;
  // An argsort (descending, with the indices): a top-k of the whole row,
  // written in place (no copy of the first k).
  bool argsort = !topk && !sort &&
                 std::sscanf(name.c_str(), "argsort-%ldx%ld", &rows, &cols) == 2;
  if (argsort)
    k = cols;
  if (!topk && !sort && !argsort)
    return "";
  bool bf16 = name.size() > 5 && name.compare(name.size() - 5, 5, "-bf16") == 0;
  return bf16 ? benchRows<__nv_bfloat16>(dir, name, topk, sort, argsort, rows,
                                         cols, k, runs, warmup)
              : benchRows<float>(dir, name, topk, sort, argsort, rows, cols, k,
                                 runs, warmup);
}

/// The kernel "launch-empty" times: a launch and nothing else.
__global__ void emptyKernel() {}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: cub_bench INPUTS_DIR OUT.json [RUNS] [WARMUP]\n");
    return 2;
  }
  std::string dir = argv[1], outPath = argv[2];
  int runs = argc > 3 ? std::atoi(argv[3]) : 20;
  int warmup = argc > 4 ? std::atoi(argv[4]) : 5;
  std::vector<std::string> names;
  if (DIR *d = opendir(dir.c_str())) {
    while (dirent *e = readdir(d))
      if (e->d_name[0] != '.')
        names.push_back(e->d_name);
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  std::string body;
  for (const std::string &name : names)
    body += benchOne(dir, name, runs, warmup);
  // The copy bandwidth: 1 GiB device to device (read and write).
  size_t bytes = size_t(1) << 30;
  void *a, *b;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMemset(a, 1, bytes));
  body += entries("copy-1GiB/cub/cuda",
                  timed([&] { CHECK(cudaMemcpyAsync(b, a, bytes,
                                                    cudaMemcpyDeviceToDevice)); },
                        runs, warmup),
                  2.0 * bytes);
  // One launch: the least any kernel takes, events around it included.
  body += entries("launch-empty/cub/cuda",
                  timed([&] { emptyKernel<<<1, 1>>>(); }, runs, warmup), 0.0);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (!body.empty())
    body.erase(body.size() - 2); // the last ",\n"
  std::string tmp = outPath + ".partial";
  FILE *out = std::fopen(tmp.c_str(), "w");
  if (!out)
    return 2;
  std::fprintf(out,
               "{\"context\":{\"executable\":\"cub_bench\",\"device\":\"%s\","
               "\"cuda_runtime\":%d,\"library_build_type\":\"release\"},\n"
               "\"benchmarks\":[\n%s\n]}\n",
               prop.name, CUDART_VERSION, body.c_str());
  std::fclose(out);
  return std::rename(tmp.c_str(), outPath.c_str()) == 0 ? 0 : 2;
}
