// The helpers of cub_bench.cu (its only includer): reading sift's .npy
// inputs and references, the key types, timing with CUDA events, Google
// Benchmark JSON entries and the check of a call's result against the
// reference. Included after the CUB and CUDA headers cub_bench.cu takes.
#pragma once

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
  char line[2048];
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

/// A key's place in CUB's radix order (-NaN < -inf < ... < -0 < +0 < ...
/// < +inf < +NaN): the bits of a float with the sign flipped, the rest too
/// for a negative one.
uint32_t radixOrder(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits & 0x80000000u ? ~bits : bits | 0x80000000u;
}

/// "pass", or "mismatch: ..." when the sorted keys (a sort: the row;
/// top-k: the first k of each row, and indices pointing at them, distinct)
/// differ from the reference in `folder` (expected0.npy, expected1.npy).
/// The call's rows are `pitch` elements apart (0: `cols`); with `sortRows`
/// (a top-k whose output is unsorted) each row's k pairs are sorted here,
/// descending, before they are compared.
template <typename K>
std::string checkResult(const std::string &folder, bool topk, long rows,
                        long cols, long k, const std::vector<K> &input,
                        const K *keysOut, const int *indicesOut, long pitch = 0,
                        bool sortRows = false) {
  std::vector<long> shape;
  std::vector<K> want;
  if (!readKeys(folder + "/expected0.npy", shape, want))
    return "pass"; // inputs written before the reference was: unchecked
  if (pitch == 0)
    pitch = cols;
  long width = topk ? k : cols;
  std::vector<K> got(rows * width);
  std::vector<int> indices(topk ? rows * k : 0);
  CHECK(cudaMemcpy2D(got.data(), width * sizeof(K), keysOut, pitch * sizeof(K),
                     width * sizeof(K), rows, cudaMemcpyDeviceToHost));
  if (topk)
    CHECK(cudaMemcpy2D(indices.data(), k * sizeof(int), indicesOut,
                       pitch * sizeof(int), k * sizeof(int), rows,
                       cudaMemcpyDeviceToHost));
  if (want.size() != got.size())
    return "mismatch: the reference has " + std::to_string(want.size()) +
           " values, the call " + std::to_string(got.size());
  auto f = KeyType<K>::toFloat;
  for (long r = 0; r < (topk && sortRows ? rows : 0); ++r) {
    std::vector<std::pair<K, int>> row(k);
    for (long j = 0; j < k; ++j)
      row[j] = {got[r * k + j], indices[r * k + j]};
    std::stable_sort(row.begin(), row.end(), [&](const auto &a, const auto &b) {
      return radixOrder(f(a.first)) > radixOrder(f(b.first));
    });
    for (long j = 0; j < k; ++j) {
      got[r * k + j] = row[j].first;
      indices[r * k + j] = row[j].second;
    }
  }
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

} // namespace
