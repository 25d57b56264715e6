// Prototypes behind reports/2026-12-01-warm-bench.md, on the warp_select
// step's CUDA model (its per-thread lists, warp queue, tree and helpers,
// included from that report's wq.cu):
//   nvcc -O3 -std=c++17 -arch=sm_90 models.cu -o models
//   ./models merge   per-lane lists merged by xor shuffles, several rows a
//                    block, against the per-thread lists and the warp queue
//   ./models fresh   the warp queue timed on the same buffers, on fresh ones
//                    with the input uploaded (as sift-run --bench timed
//                    until 2026-12-01), and with L2 evicted
// Every result is checked against a CPU reference (merge) or the runs are
// the same kernel on the same input (fresh).
#include <cstring>
#include <string>
#define main warpSelectModelMain
#include "../2026-12-01-warp-select/wq.cu"
#undef main

__device__ __forceinline__ uint64_t shfl64x(uint64_t v, int d) {
  uint32_t lo = __shfl_xor_sync(~0u, (uint32_t)v, d), hi = __shfl_xor_sync(~0u, (uint32_t)(v >> 32), d);
  return ((uint64_t)hi << 32) | lo;
}

// Per-lane lists merged by xor shuffles within each warp; several rows a block
// (R rows, TR threads a row); warps of a row meet in shared memory.
template <int K>
__device__ void warpMergeList(uint64_t *l) {
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    uint64_t o[K];
#pragma unroll
    for (int j = 0; j < K; ++j) o[j] = shfl64x(l[j], d);
    mergeTwo<K>(l, o);
  }
}

template <int K, bool LOADALL>
__global__ void warpMerge(const float *x, int n, int rows, int TR, float *ov, int64_t *oi) {
  extern __shared__ uint64_t sh[];
  int tid = threadIdx.x % TR, sub = threadIdx.x / TR;
  int row = blockIdx.x * (blockDim.x / TR) + sub;
  int lane = threadIdx.x & 31, warp = tid >> 5, warps = TR >> 5;
  bool live = row < rows;
  const float *r = x + (size_t)(live ? row : 0) * n;
  uint64_t l[K];
#pragma unroll
  for (int j = 0; j < K; ++j) l[j] = 0;
  constexpr int A = LOADALL ? 8 : 4;
  for (int base = tid; base < n; base += A * TR) {
    uint64_t c[A];
#pragma unroll
    for (int u = 0; u < A; ++u) { int at = base + u * TR; c[u] = at < n ? comp(r[at], at) : 0; }
#pragma unroll
    for (int u = 0; u < A; ++u)
      if (c[u] > l[K - 1]) {
        uint64_t nl[K];
        nl[0] = max(l[0], c[u]);
#pragma unroll
        for (int j = 1; j < K; ++j) nl[j] = max(l[j], min(c[u], l[j - 1]));
#pragma unroll
        for (int j = 0; j < K; ++j) l[j] = nl[j];
      }
  }
  warpMergeList<K>(l);
  if (warps > 1) {
    uint64_t *s = sh + (size_t)sub * K * warps * 2;
    if (lane == 0)
#pragma unroll
      for (int j = 0; j < K; ++j) s[j * warps + warp] = l[j];
    // every row's warps: wq.cu's tree in shared memory (the block's rows
    // side by side; each row's threads numbered from 0)
    tree<K>(s, warps, tid);
    if (tid < K && live) { uint64_t c = s[tid * warps]; uint32_t p = 0xffffffffu - (uint32_t)c; ov[row * K + tid] = r[p]; oi[row * K + tid] = p; }
  } else if (live) {
    // lane j < K writes slot j: pick l[j] by lane
    uint64_t c = 0;
#pragma unroll
    for (int j = 0; j < K; ++j) if (lane == j) c = l[j];
    if (lane < K) { uint32_t p = 0xffffffffu - (uint32_t)c; ov[row * K + lane] = r[p]; oi[row * K + lane] = p; }
  }
}

template <int K>
void runMerge(int rows, int n) {
  std::vector<float> h((size_t)rows * n);
  srand(7);
  for (auto &v : h) v = (float)rand() / RAND_MAX;
  float *dx, *dv; int64_t *di;
  CK(cudaMalloc(&dx, h.size() * 4)); CK(cudaMalloc(&dv, rows * K * 4)); CK(cudaMalloc(&di, rows * K * 8));
  CK(cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  std::vector<int64_t> ref((size_t)rows * K);
  for (int r = 0; r < rows; ++r) {
    std::vector<int> idx(n); for (int i = 0; i < n; ++i) idx[i] = i;
    std::partial_sort(idx.begin(), idx.begin() + K, idx.end(), [&](int a, int b) { float x = h[(size_t)r*n+a], y = h[(size_t)r*n+b]; return x > y || (x == y && a < b); });
    for (int j = 0; j < K; ++j) ref[r * K + j] = idx[j];
  }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  struct V { const char *name; int kind, threads, R; };
  std::vector<V> vs = {{"perthread", 0, 32, 1}, {"warpqueue", 1, 32, 1}};
  for (int tr : {32, 64, 128, 256}) for (int R : {1, 2, 4, 8}) if (tr * R <= 256 && tr <= n) { vs.push_back({"warpmerge", 2, tr, R}); vs.push_back({"warpmerge8", 3, tr, R}); }
  for (auto v : vs) {
    auto launch = [&] {
      if (v.kind == 0) perThread<K><<<rows, v.threads, (size_t)K * v.threads * 8>>>(dx, n, dv, di);
      else if (v.kind == 1) warpQueue<K><<<rows, v.threads, (size_t)K * v.threads * 8>>>(dx, n, dv, di);
      else {
        size_t shm = (size_t)v.R * K * (v.threads / 32) * 2 * 8;
        int blocks = (rows + v.R - 1) / v.R;
        if (v.kind == 2) warpMerge<K, false><<<blocks, v.threads * v.R, shm>>>(dx, n, rows, v.threads, dv, di);
        else warpMerge<K, true><<<blocks, v.threads * v.R, shm>>>(dx, n, rows, v.threads, dv, di);
      }
    };
    for (int i = 0; i < 3; ++i) launch();
    CK(cudaDeviceSynchronize());
    std::vector<int64_t> got((size_t)rows * K);
    CK(cudaMemcpy(got.data(), di, got.size() * 8, cudaMemcpyDeviceToHost));
    int bad = 0; for (size_t i = 0; i < got.size(); ++i) bad += got[i] != ref[i];
    std::vector<float> all;
    for (int rep = 0; rep < 30; ++rep) { cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); all.push_back(ms); }
    std::sort(all.begin(), all.end());
    printf("[%d,%d] k%d %-10s tr %3d rows/block %d: median %.4f ms min %.4f wrong %d\n", rows, n, K, v.name, v.threads, v.R, all[15], all[0], bad);
  }
  cudaFree(dx); cudaFree(dv); cudaFree(di);
}


template <int K>
void runFresh(int rows, int n) {
  std::vector<float> h((size_t)rows * n);
  srand(7);
  for (auto &v : h) v = (float)rand() / RAND_MAX;
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int mode = 0; mode < 4; ++mode) {
    float *dx, *dv; int64_t *di;
    CK(cudaMalloc(&dx, h.size() * 4)); CK(cudaMalloc(&dv, rows * K * 4)); CK(cudaMalloc(&di, rows * K * 8));
    CK(cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
    std::vector<float> all;
    std::vector<float> ov(rows * K); std::vector<int64_t> oi(rows * K);
    for (int rep = 0; rep < 33; ++rep) {
      if (mode >= 1) {  // fresh buffers and upload, as sift-run's runPlan
        CK(cudaFree(dx)); CK(cudaFree(dv)); CK(cudaFree(di));
        CK(cudaMalloc(&dx, h.size() * 4)); CK(cudaMalloc(&dv, rows * K * 4)); CK(cudaMalloc(&di, rows * K * 8));
        CK(cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
      }
      if (mode == 3) {  // evict L2: touch 256 MB
        static void *junk = nullptr; if (!junk) CK(cudaMalloc(&junk, 256 << 20));
        CK(cudaMemset(junk, rep, 256 << 20)); CK(cudaDeviceSynchronize());
      }
      cudaEventRecord(a);
      if (mode == 0 || mode == 1 || mode == 3) warpQueue<K><<<rows, 32, K * 32 * 8>>>(dx, n, dv, di);
      else perThread<K><<<rows, 32, K * 32 * 8>>>(dx, n, dv, di);
      cudaEventRecord(b); cudaEventSynchronize(b);
      float ms; cudaEventElapsedTime(&ms, a, b); if (rep >= 3) all.push_back(ms);
      if (mode >= 1) { CK(cudaMemcpy(ov.data(), dv, ov.size() * 4, cudaMemcpyDeviceToHost)); CK(cudaMemcpy(oi.data(), di, oi.size() * 8, cudaMemcpyDeviceToHost)); }
    }
    std::sort(all.begin(), all.end());
    const char *names[] = {"warm, same buffers", "fresh buffers + upload", "fresh + upload, perthread", "L2 evicted, fresh"};
    printf("[%d,%d] k%d warpqueue-32 %-28s median %.4f ms min %.4f\n", rows, n, K, names[mode], all[15], all[0]);
    cudaFree(dx); cudaFree(dv); cudaFree(di);
  }
}

__global__ void empty() {}

int main(int argc, char **argv) {
  std::string what = argc > 1 ? argv[1] : "";
  if (what == "merge") {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    std::vector<float> all;
    for (int rep = 0; rep < 30; ++rep) {
      cudaEventRecord(a);
      empty<<<1, 32>>>();
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms;
      cudaEventElapsedTime(&ms, a, b);
      all.push_back(ms);
    }
    std::sort(all.begin(), all.end());
    printf("empty kernel median %.4f ms\n", all[15]);
    runMerge<8>(1024, 1024);
    runMerge<8>(16384, 128);
    runMerge<8>(16384, 256);
    runMerge<8>(4096, 4096);
    runMerge<8>(32, 128000);
    return 0;
  }
  if (what == "fresh") {
    runFresh<8>(1024, 1024);
    runFresh<8>(16384, 128);
    runFresh<8>(4096, 4096);
    runFresh<8>(16384, 256);
    return 0;
  }
  printf("usage: models merge|fresh\n");
  return 2;
}
