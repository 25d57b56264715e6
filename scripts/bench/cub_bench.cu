// CUB (CUDA's CCCL) on sift's benchmark inputs, for `harness bench`.
//
//   nvcc -O3 -std=c++17 -arch=sm_90 [-I CCCL_INCLUDE] cub_bench.cu -o cub_bench
//   cub_bench INPUTS_DIR OUT.json [RUNS] [WARMUP]
//
// INPUTS_DIR is what `sift-run --write-bench-inputs=DIR` wrote (inputs and
// the reference's expected outputs). Each benchmark is timed through the
// strongest calls CUB has for it: "cub" is cub::DeviceSegmentedSort (one
// segment per row; SortKeys ascending for a sort, SortPairsDescending over
// (value, index) for a top-k, each row's first k copied out, the copy timed
// too; for an argsort-RxC the same pairs, nothing copied), "cub-radix" is
// cub::DeviceRadixSort for a single row and cub::DeviceSegmentedRadixSort
// for several, "cub-topk" (top-k only) CUB's top-k primitives, which CCCL
// has since CUB 3.5 (3.6's headers: the cuda-cccl wheel, given with -I
// ahead of the toolkit's own CCCL, as scripts/bench-gpu.sh does):
// cub::DeviceTopK::MaxPairs for a single row, cub::DeviceBatchedTopK::
// MaxPairs for several (uniform segments of C, the size annotated
// cuda::args::immediate with the tightest of a few compile-time bounds,
// 2^8 ... 2^21, k likewise: 1, 64, 2048). Both take (value, index) pairs,
// the indices a counting iterator within the row, and the requirements
// determinism::not_guaranteed (tie_break::unspecified) and, for the batched
// call, output_ordering::sorted (descending, as sift's output; k <= 2048).
// DeviceTopK implements only output_ordering::unsorted, and so does a
// batched k over 2048: such a row's label is "pass: unsorted output (...)"
// and the check sorts each row's k on the host (nothing is sorted inside
// the timed region). DeviceBatchedTopK takes at most 2^21 items a segment:
// a longer row of several is "unsupported: ...", a CUDA error of a top-k
// call "runtime-error: ...", and either makes cub_bench exit 1 once the JSON
// is written; so does a top-k benchmark when the headers have no top-k
// (CUDA 13.0's CCCL is CUB 3.0): "unsupported: this CCCL has no DeviceTopK".
// Before it is timed, each call's result is checked against the reference
// (values equal as keys; top-k indices that point at their values, distinct
// in a row, since a top-k promises no order among ties): a wrong result
// gets the label "mismatch: ...", which the bench table never takes as a
// baseline; the last timed run is checked again. A name ending in "-bf16"
// sorts bf16 keys ('<V2' .npy files, __nv_bfloat16 on the device).
// NMS has no CUB primitive (torchvision is its baseline). "copy-1GiB"
// times a device-to-device copy, the bandwidth floor's denominator;
// "launch-empty" an empty kernel, the least any kernel takes (a small
// shape's floor counts one launch). Each
// op is timed with CUDA events, WARMUP untimed runs first; the output is
// Google Benchmark JSON named "<benchmark>/<call>/cuda".
#if __has_include(<cub/device/device_batched_topk.cuh>)
// CUB's top-k (3.5 and later). A segment bound the single-block backend
// cannot cover needs the SM 9.0 cluster backend: without this an -arch
// below sm_90 fails to compile; with it, that call returns
// cudaErrorNotSupported at run time (a "runtime-error" row). It must come
// before any CUB header.
#define CUB_DISABLE_TOPK_UNSUPPORTED_ARCH_ASSERT
#define SIFT_CUB_TOPK 1
#else
#define SIFT_CUB_TOPK 0
#endif
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#if SIFT_CUB_TOPK
#include <cub/device/device_batched_topk.cuh>
#include <cub/device/device_topk.cuh>
#include <cuda/argument>
#include <cuda/execution>
#include <cuda/iterator>
#endif
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

#include "cub_common.cuh"

namespace {

/// The top-k rows that could not be timed ("unsupported" or
/// "runtime-error"): main reports them and exits 1 once the JSON is
/// written.
std::vector<std::string> topkFailures;

/// The entry of a call that could not run: a median without a time and the
/// label that says why (as sift-run writes a run that did not finish).
std::string failedEntry(const std::string &name, double bytes,
                        const std::string &label) {
  char line[2048];
  std::snprintf(line, sizeof(line),
                "{\"name\":\"%s_median\",\"run_name\":\"%s\",\"run_type\":"
                "\"aggregate\",\"aggregate_name\":\"median\",\"repetitions\":0,"
                "\"threads\":1,\"iterations\":1,\"real_time\":0.0,"
                "\"cpu_time\":0.0,\"time_unit\":\"ms\",\"bytes_moved\":%.0f,"
                "\"label\":\"%s\"},\n",
                name.c_str(), name.c_str(), bytes, label.c_str());
  std::fprintf(stderr, "cub_bench: %s: %s\n", name.c_str(), label.c_str());
  topkFailures.push_back(name + ": " + label);
  return line;
}

#if SIFT_CUB_TOPK
/// A top-k call of "cub-topk": sizes its temporary storage when temp is
/// null, and returns CUB's error.
using TopkCall = std::function<cudaError_t(void *, size_t &)>;

/// cub::DeviceTopK::MaxPairs of one row: (value, index) pairs, the indices
/// a counting iterator. DeviceTopK implements only
/// (determinism::not_guaranteed, output_ordering::unsorted); any other
/// requirement does not compile.
template <typename K>
cudaError_t singleTopk(void *temp, size_t &bytes, const K *keys, K *valuesOut,
                       int *indicesOut, int cols, int k) {
  namespace ex = cuda::execution;
  return cub::DeviceTopK::MaxPairs(temp, bytes, keys, valuesOut,
                                   cuda::counting_iterator<int>(0), indicesOut,
                                   cols, k,
                                   ex::require(ex::determinism::not_guaranteed,
                                               ex::output_ordering::unsorted));
}

/// cub::DeviceBatchedTopK::MaxPairs of `rows` segments of `cols` (the
/// rows): segment i's keys keys + i * cols, its values a counting iterator
/// from 0 (indices within the row), its k outputs at i * k. The segment
/// size and k are cuda::args::immediate with the compile-time bounds
/// [Lo, Hi] and [KLo, KHi] (the tighter, the less temporary storage and the
/// smaller the kernels CUB picks: a single-block worker per segment while
/// Hi fits one, the SM 9.0 cluster backend above). The requirements: no
/// determinism (so no tie-break), and sorted output (descending for Max)
/// where `Sorted`, which covers k <= 2048.
template <typename K, int Lo, int Hi, int KLo, int KHi, bool Sorted>
cudaError_t batchedTopk(void *temp, size_t &bytes, const K *keys, K *valuesOut,
                        int *indicesOut, int rows, int cols, int k) {
  namespace ex = cuda::execution;
  using Ordering = std::conditional_t<Sorted, ex::output_ordering::sorted_t,
                                      ex::output_ordering::unsorted_t>;
  auto keysIn =
      cuda::make_strided_iterator(cuda::make_counting_iterator(keys), cols);
  auto keysOut =
      cuda::make_strided_iterator(cuda::make_counting_iterator(valuesOut), k);
  auto indicesIn = cuda::constant_iterator<cuda::counting_iterator<int>>(
      cuda::counting_iterator<int>(0));
  auto indicesOutIt =
      cuda::make_strided_iterator(cuda::make_counting_iterator(indicesOut), k);
  return cub::DeviceBatchedTopK::MaxPairs(
      temp, bytes, keysIn, keysOut, indicesIn, indicesOutIt,
      cuda::args::immediate{cols, cuda::args::bounds<Lo, Hi>()},
      cuda::args::immediate{k, cuda::args::bounds<KLo, KHi>()}, rows,
      ex::require(ex::determinism::not_guaranteed, ex::tie_break::unspecified,
                  Ordering{}));
}

/// The batched call for segments of [Lo, Hi]: k's bound the tightest of 1
/// (one output: nothing to sort, no sort kernel), 64 and 2048 (sorted
/// output), above 2048 unsorted (`sorted` false). `how` describes it.
template <typename K, int Lo, int Hi>
TopkCall batchedCall(const K *keys, K *valuesOut, int *indicesOut, int rows,
                     int cols, int k, bool &sorted, std::string &how) {
  sorted = true;
  how = "cub::DeviceBatchedTopK::MaxPairs, " + std::to_string(rows) +
        " segments of " + std::to_string(cols) +
        " (cuda::args::immediate, bounds<" + std::to_string(Lo) + ", " +
        std::to_string(Hi) + ">), k " + std::to_string(k) +
        " (immediate, bounds<";
  auto bind = [&](auto call) -> TopkCall {
    return [=](void *temp, size_t &bytes) {
      return call(temp, bytes, keys, valuesOut, indicesOut, rows, cols, k);
    };
  };
  if (k == 1) {
    how += "1, 1>)";
    return bind(batchedTopk<K, Lo, Hi, 1, 1, true>);
  }
  if (k <= 64) {
    how += "2, 64>)";
    return bind(batchedTopk<K, Lo, Hi, 2, 64, true>);
  }
  if (k <= 2048) {
    how += "65, 2048>)";
    return bind(batchedTopk<K, Lo, Hi, 65, 2048, true>);
  }
  if constexpr (Hi > 2048) {
    sorted = false;
    how += "2049, " + std::to_string(Hi) + ">)";
    return bind(batchedTopk<K, Lo, Hi, 2049, Hi, false>);
  }
  return nullptr; // k > cols
}

/// The "cub-topk" call for rows x cols, k (nullptr and `how` saying why
/// when CUB has none): DeviceTopK for one row, DeviceBatchedTopK for
/// several, its segment bound the tightest of 2^8, 2^10, ... 2^18, 2^21.
template <typename K>
TopkCall topkCall(const K *keys, K *valuesOut, int *indicesOut, long rows,
                  long cols, long k, bool &sorted, std::string &how) {
  int r = static_cast<int>(rows), c = static_cast<int>(cols),
      kk = static_cast<int>(k);
  if (rows == 1) {
    sorted = false;
    how = "cub::DeviceTopK::MaxPairs, " + std::to_string(cols) + " items, k " +
          std::to_string(k);
    return [=](void *temp, size_t &bytes) {
      return singleTopk<K>(temp, bytes, keys, valuesOut, indicesOut, c, kk);
    };
  }
  if (cols <= 1 << 8)
    return batchedCall<K, 1, 1 << 8>(keys, valuesOut, indicesOut, r, c, kk,
                                     sorted, how);
  if (cols <= 1 << 10)
    return batchedCall<K, (1 << 8) + 1, 1 << 10>(keys, valuesOut, indicesOut, r,
                                                 c, kk, sorted, how);
  if (cols <= 1 << 12)
    return batchedCall<K, (1 << 10) + 1, 1 << 12>(keys, valuesOut, indicesOut,
                                                  r, c, kk, sorted, how);
  if (cols <= 1 << 14)
    return batchedCall<K, (1 << 12) + 1, 1 << 14>(keys, valuesOut, indicesOut,
                                                  r, c, kk, sorted, how);
  if (cols <= 1 << 16)
    return batchedCall<K, (1 << 14) + 1, 1 << 16>(keys, valuesOut, indicesOut,
                                                  r, c, kk, sorted, how);
  if (cols <= 1 << 18)
    return batchedCall<K, (1 << 16) + 1, 1 << 18>(keys, valuesOut, indicesOut,
                                                  r, c, kk, sorted, how);
  if (cols <= 1 << 21)
    return batchedCall<K, (1 << 18) + 1, 1 << 21>(keys, valuesOut, indicesOut,
                                                  r, c, kk, sorted, how);
  how = "cub::DeviceBatchedTopK takes segments of at most 2^21 items, "
        "these rows have " + std::to_string(cols);
  return nullptr;
}

/// "runtime-error: ..." for a top-k call's CUDA error (`what`: the call).
std::string topkError(const std::string &what, cudaError_t e) {
  std::string label = "runtime-error: " + what + ": " + cudaGetErrorName(e) +
                      " (" + cudaGetErrorString(e) + ")";
  if (e == cudaErrorNotSupported &&
      what.rfind("cub::DeviceBatchedTopK", 0) == 0)
    label += "; a segment bound over what one block holds needs the SM 9.0 "
             "cluster backend";
  return label;
}

/// The "cub-topk" entries of a top-k: the call checked (each row's k
/// sorted on the host first when its output is unsorted), timed, and its
/// last timed run checked again.
template <typename K>
std::string benchTopk(const std::string &folder, const std::string &name,
                      const std::vector<K> &host, const K *keys, long rows,
                      long cols, long k, int runs, int warmup, double bytes) {
  std::string full = name + "/cub-topk/cuda";
  K *valuesOut;
  int *indicesOut;
  CHECK(cudaMalloc(&valuesOut, rows * k * sizeof(K)));
  CHECK(cudaMalloc(&indicesOut, rows * k * sizeof(int)));
  bool sorted = true;
  std::string how;
  TopkCall call =
      topkCall<K>(keys, valuesOut, indicesOut, rows, cols, k, sorted, how);
  std::string out;
  if (!call) {
    out = failedEntry(full, bytes, "unsupported: " + how);
  } else {
    std::printf("%s: %s, output_ordering::%s, determinism::not_guaranteed\n",
                full.c_str(), how.c_str(), sorted ? "sorted" : "unsorted");
    size_t tempBytes = 0;
    void *temp = nullptr;
    cudaError_t e = call(nullptr, tempBytes);
    if (e == cudaSuccess)
      e = cudaMalloc(&temp, std::max<size_t>(tempBytes, 1));
    // The first run, untimed: CUB's error (an unsupported device, a launch
    // that failed) is a row that says so, not an exit.
    if (e == cudaSuccess) {
      CHECK(cudaMemset(valuesOut, 0, rows * k * sizeof(K)));
      CHECK(cudaMemset(indicesOut, 0xff, rows * k * sizeof(int)));
      e = call(temp, tempBytes);
    }
    if (e == cudaSuccess)
      e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
      // A failed launch's error is not left for the next call to find (a
      // sticky one, a fault, stays: the next CHECK exits).
      (void)cudaGetLastError();
      out = failedEntry(full, bytes, topkError(how, e));
    } else {
      std::string label = checkResult(folder, true, rows, cols, k, host,
                                      valuesOut, indicesOut, k, !sorted);
      // A timed run's error is unexpected after the first run worked: an
      // exit, as CHECK does.
      auto op = [&]() {
        cudaError_t error = call(temp, tempBytes);
        if (error != cudaSuccess) {
          std::fprintf(stderr, "cub_bench: %s: %s: %s\n", full.c_str(),
                       how.c_str(), cudaGetErrorString(error));
          std::exit(1);
        }
      };
      std::vector<float> ms = timed(op, runs, warmup);
      // The last timed run checked too (state kept between runs).
      CHECK(cudaDeviceSynchronize());
      std::string last = checkResult(folder, true, rows, cols, k, host,
                                     valuesOut, indicesOut, k, !sorted);
      if (label == "pass" && last != "pass")
        label = last + " (the last timed run; the first matched)";
      // Unsorted output is cheaper than sift's (sorted, descending): the
      // label says so, after the verdict.
      std::string why = rows == 1 ? "DeviceTopK implements only unsorted output"
                                  : "DeviceBatchedTopK sorts k <= 2048 here";
      if (!sorted)
        label +=
            (label == "pass" ? ": unsorted output (" : " (unsorted output: ") +
            why + "; sorted on the host for the check only)";
      out = entries(full, ms, bytes, label);
    }
    if (temp)
      CHECK(cudaFree(temp));
  }
  CHECK(cudaFree(valuesOut));
  CHECK(cudaFree(indicesOut));
  return out;
}
#endif

/// A sort or top-k's device buffers: the keys (from `host`) and an
/// ascending index a row as values, their sorted copies, the segments'
/// offsets and the first k of each row; freed with it.
template <typename K> struct DeviceRows {
  long rows, cols, k, n;
  K *keys, *keysOut, *topValues;
  int *values, *valuesOut, *offsets, *topIndices;

  DeviceRows(const std::vector<K> &host, long rows, long cols, long k)
      : rows(rows), cols(cols), k(k), n(rows * cols) {
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
    CHECK(cudaMalloc(&topValues, rows * std::max(k, 1L) * sizeof(K)));
    CHECK(cudaMalloc(&topIndices, rows * std::max(k, 1L) * sizeof(int)));
  }
  DeviceRows(const DeviceRows &) = delete;
  DeviceRows &operator=(const DeviceRows &) = delete;
  ~DeviceRows() {
    for (void *p : {(void *)keys, (void *)keysOut, (void *)values,
                    (void *)valuesOut, (void *)offsets, (void *)topValues,
                    (void *)topIndices})
      CHECK(cudaFree(p));
  }
};

/// A CUB call: sizes its temporary storage when temp is null.
using Call = std::function<void(void *, size_t &)>;

/// The calls "cub" (DeviceSegmentedSort) and "cub-radix" (DeviceRadixSort
/// for one row, DeviceSegmentedRadixSort for several) over `d`: keys only
/// for a sort, (key, index) pairs descending otherwise.
template <typename K>
std::vector<std::pair<std::string, Call>> sortCalls(DeviceRows<K> &d,
                                                    bool sort) {
  int bits = 8 * sizeof(K);
  long n = d.n, rows = d.rows;
  return {
      {"cub", [&d, sort, n, rows](void *temp, size_t &bytes) {
         if (sort)
           cub::DeviceSegmentedSort::SortKeys(temp, bytes, d.keys, d.keysOut,
                                              n, rows, d.offsets,
                                              d.offsets + 1);
         else
           cub::DeviceSegmentedSort::SortPairsDescending(
               temp, bytes, d.keys, d.keysOut, d.values, d.valuesOut, n, rows,
               d.offsets, d.offsets + 1);
       }},
      {"cub-radix", [&d, sort, n, rows, bits](void *temp, size_t &bytes) {
         if (sort && rows == 1)
           cub::DeviceRadixSort::SortKeys(temp, bytes, d.keys, d.keysOut, n, 0,
                                          bits);
         else if (sort)
           cub::DeviceSegmentedRadixSort::SortKeys(
               temp, bytes, d.keys, d.keysOut, n, rows, d.offsets,
               d.offsets + 1, 0, bits);
         else if (rows == 1)
           cub::DeviceRadixSort::SortPairsDescending(
               temp, bytes, d.keys, d.keysOut, d.values, d.valuesOut, n, 0,
               bits);
         else
           cub::DeviceSegmentedRadixSort::SortPairsDescending(
               temp, bytes, d.keys, d.keysOut, d.values, d.valuesOut, n, rows,
               d.offsets, d.offsets + 1, 0, bits);
       }}};
}

/// One call over `d` checked against the reference in `folder`, timed, and
/// its last timed run checked again: its entry (a top-k's first k of each
/// row copied out inside the timed region).
template <typename K>
std::string timeCall(const std::string &folder, const std::string &entry,
                     Call &run, DeviceRows<K> &d, const std::vector<K> &host,
                     bool topk, bool argsort, int runs, int warmup,
                     double bytes) {
  long rows = d.rows, cols = d.cols, k = d.k;
  size_t tempBytes = 0;
  run(nullptr, tempBytes);
  void *temp = nullptr;
  CHECK(cudaMalloc(&temp, std::max<size_t>(tempBytes, 1)));
  auto op = [&]() {
    run(temp, tempBytes);
    if (topk) {
      CHECK(cudaMemcpy2DAsync(d.topValues, k * sizeof(K), d.keysOut,
                              cols * sizeof(K), k * sizeof(K), rows,
                              cudaMemcpyDeviceToDevice));
      CHECK(cudaMemcpy2DAsync(d.topIndices, k * sizeof(int), d.valuesOut,
                              cols * sizeof(int), k * sizeof(int), rows,
                              cudaMemcpyDeviceToDevice));
    }
  };
  CHECK(cudaMemset(d.keysOut, 0, d.n * sizeof(K)));
  op();
  CHECK(cudaDeviceSynchronize());
  std::string label = checkResult(folder, topk || argsort, rows, cols, k,
                                  host, d.keysOut, d.valuesOut);
  std::vector<float> ms = timed(op, runs, warmup);
  // The last timed run checked too (state kept between runs).
  CHECK(cudaDeviceSynchronize());
  std::string last = checkResult(folder, topk || argsort, rows, cols, k, host,
                                 d.keysOut, d.valuesOut);
  if (label == "pass" && last != "pass")
    label = last + " (the last timed run; the first matched)";
  CHECK(cudaFree(temp));
  return entries(entry, ms, bytes, label);
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
  DeviceRows<K> d(host, rows, cols, k);
  double key = sizeof(K);
  double bytes =
      d.n * key + (topk || argsort ? rows * k * (key + 8.0) : d.n * key);
  std::string out;
  for (auto &call : sortCalls(d, sort))
    out += timeCall(folder, name + "/" + call.first + "/cuda", call.second, d,
                    host, topk, argsort, runs, warmup, bytes);
  // CUB's top-k primitives: "cub-topk" (when the headers have them).
  if (topk) {
#if SIFT_CUB_TOPK
    out += benchTopk<K>(folder, name, host, d.keys, rows, cols, k, runs,
                        warmup, bytes);
#else
    out += failedEntry(name + "/cub-topk/cuda", bytes,
                       "unsupported: this CCCL has no DeviceTopK (carry the "
                       "cuda-cccl wheel)");
#endif
  }
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
  if (std::rename(tmp.c_str(), outPath.c_str()) != 0)
    return 2;
  // A top-k benchmark without its CUB top-k row timed fails the job, once
  // the other entries are written.
  if (!topkFailures.empty()) {
#if !SIFT_CUB_TOPK
    std::fprintf(stderr, "cub_bench: cub-topk: this CCCL has no DeviceTopK "
                         "(carry the cuda-cccl wheel)\n");
#endif
    std::fprintf(stderr, "cub_bench: %zu top-k benchmark(s) without a timed "
                         "cub-topk row:\n", topkFailures.size());
    for (const std::string &f : topkFailures)
      std::fprintf(stderr, "  %s\n", f.c_str());
    return 1;
  }
  return 0;
}
