// Prototype: per-lane register lists merged by warp shuffles, several rows a block.
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

__device__ __forceinline__ uint64_t comp(float x, uint32_t pos) {
  uint32_t b = __float_as_uint(x);
  b = (b & 0x80000000u) ? ~b : (b | 0x80000000u);
  return ((uint64_t)b << 32) | (0xffffffffu - pos);
}

template <int K>
__device__ void mergeTwo(uint64_t *a, const uint64_t *b) {
  // K power of two
  uint64_t c[K];
#pragma unroll
  for (int j = 0; j < K; ++j) c[j] = max(a[j], b[K - 1 - j]);
#pragma unroll
  for (int h = K / 2; h >= 1; h /= 2)
#pragma unroll
    for (int j = 0; j < K; ++j)
      if (!(j & h)) { uint64_t hi = max(c[j], c[j + h]), lo = min(c[j], c[j + h]); c[j] = hi; c[j + h] = lo; }
#pragma unroll
  for (int j = 0; j < K; ++j) a[j] = c[j];
}

// Tree merge of `lists` lists in shared (list r slot j at j*lists + r); returns in list 0.
template <int K>
__device__ void tree(uint64_t *sh, int lists, int tid) {
  for (int n = lists; n > 1; n /= 2) {
    __syncthreads();
    uint64_t a[K], b[K];
    bool act = tid < n / 2;
    if (act) {
#pragma unroll
      for (int j = 0; j < K; ++j) { a[j] = sh[j * lists + 2 * tid]; b[j] = sh[j * lists + 2 * tid + 1]; }
      mergeTwo<K>(a, b);
    }
    __syncthreads();
    if (act)
#pragma unroll
      for (int j = 0; j < K; ++j) sh[j * lists + tid] = a[j];
  }
  __syncthreads();
}

template <int K>
__global__ void perThread(const float *x, int n, float *ov, int64_t *oi) {
  extern __shared__ uint64_t sh[];
  int row = blockIdx.x, tid = threadIdx.x, T = blockDim.x;
  const float *r = x + (size_t)row * n;
  uint64_t l[K];
#pragma unroll
  for (int j = 0; j < K; ++j) l[j] = 0;
  for (int base = tid; base < n; base += 4 * T) {
    uint64_t c[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) { int at = base + u * T; c[u] = at < n ? comp(r[at], at) : 0; }
#pragma unroll
    for (int u = 0; u < 4; ++u)
      if (c[u] > l[K - 1]) {
        uint64_t nl[K];
        nl[0] = max(l[0], c[u]);
#pragma unroll
        for (int j = 1; j < K; ++j) nl[j] = max(l[j], min(c[u], l[j - 1]));
#pragma unroll
        for (int j = 0; j < K; ++j) l[j] = nl[j];
      }
  }
#pragma unroll
  for (int j = 0; j < K; ++j) sh[j * T + tid] = l[j];
  tree<K>(sh, T, tid);
  if (tid < K) { uint64_t c = sh[tid * T]; uint32_t p = 0xffffffffu - (uint32_t)c; ov[row * K + tid] = r[p]; oi[row * K + tid] = p; }
}

__device__ __forceinline__ uint64_t shfl64(uint64_t v, int src) {
  uint32_t lo = __shfl_sync(~0u, (uint32_t)v, src), hi = __shfl_sync(~0u, (uint32_t)(v >> 32), src);
  return ((uint64_t)hi << 32) | lo;
}
__device__ __forceinline__ uint64_t shflUp64(uint64_t v, int d) {
  uint32_t lo = __shfl_up_sync(~0u, (uint32_t)v, d), hi = __shfl_up_sync(~0u, (uint32_t)(v >> 32), d);
  return ((uint64_t)hi << 32) | lo;
}

template <int K>
__global__ void warpQueue(const float *x, int n, float *ov, int64_t *oi) {
  extern __shared__ uint64_t sh[];
  int row = blockIdx.x, tid = threadIdx.x, T = blockDim.x, lane = tid & 31, warp = tid >> 5, warps = T >> 5;
  const float *r = x + (size_t)row * n;
  uint64_t w = 0, th = 0;  // lane l: warp's l-th best; th: the k-th
  int steps = (n + 4 * T - 1) / (4 * T);
  for (int s = 0; s < steps; ++s) {
    int base = tid + s * 4 * T;
    uint64_t c[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) { int at = base + u * T; c[u] = at < n ? comp(r[at], at) : 0; }
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      uint64_t cu = c[u];
      while (true) {
        unsigned m = __ballot_sync(~0u, cu > th);
        if (!m) break;
        int src = __ffs(m) - 1;
        uint64_t v = shfl64(cu, src);
        uint64_t prev = shflUp64(w, 1);
        if (lane == 0) prev = ~0ull;
        w = max(w, min(v, prev));
        if (lane >= K) w = 0;
        th = shfl64(w, K - 1);
        if (lane == src) cu = 0;
      }
    }
  }
  if (lane < K) sh[lane * warps + warp] = w;
  tree<K>(sh, warps, tid);
  if (tid < K) { uint64_t c = sh[tid * warps]; uint32_t p = 0xffffffffu - (uint32_t)c; ov[row * K + tid] = r[p]; oi[row * K + tid] = p; }
}


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
    // every row's warps: a tree in shared memory (the block's rows side by side)
    for (int m = warps; m > 1; m /= 2) {
      __syncthreads();
      uint64_t a[K], b[K];
      bool act = tid < m / 2;
      if (act) {
#pragma unroll
        for (int j = 0; j < K; ++j) { a[j] = s[j * warps + 2 * tid]; b[j] = s[j * warps + 2 * tid + 1]; }
        mergeTwo<K>(a, b);
      }
      __syncthreads();
      if (act)
#pragma unroll
        for (int j = 0; j < K; ++j) s[j * warps + tid] = a[j];
    }
    __syncthreads();
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
void run(int rows, int n) {
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

__global__ void empty() {}

int main() {
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> all;
  for (int rep = 0; rep < 30; ++rep) { cudaEventRecord(a); empty<<<1, 32>>>(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); all.push_back(ms); }
  std::sort(all.begin(), all.end());
  printf("empty kernel median %.4f ms\n", all[15]);
  run<8>(1024, 1024);
  run<8>(16384, 128);
  run<8>(16384, 256);
  run<8>(4096, 4096);
  run<8>(32, 128000);
  return 0;
}
