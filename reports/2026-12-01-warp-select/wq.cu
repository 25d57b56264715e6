// Prototype: per-thread register lists vs a warp queue for top-k (k small).
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

template <int K>
void run(int rows, int n, int threads) {
  std::vector<float> h((size_t)rows * n);
  srand(7);
  for (auto &v : h) v = (float)rand() / RAND_MAX;
  float *dx, *dv; int64_t *di;
  CK(cudaMalloc(&dx, h.size() * 4)); CK(cudaMalloc(&dv, rows * K * 4)); CK(cudaMalloc(&di, rows * K * 8));
  CK(cudaMemcpy(dx, h.data(), h.size() * 4, cudaMemcpyHostToDevice));
  // reference
  std::vector<int64_t> ref((size_t)rows * K);
  for (int r = 0; r < rows; ++r) {
    std::vector<int> idx(n); for (int i = 0; i < n; ++i) idx[i] = i;
    std::partial_sort(idx.begin(), idx.begin() + K, idx.end(), [&](int a, int b) { float x = h[(size_t)r*n+a], y = h[(size_t)r*n+b]; return x > y || (x == y && a < b); });
    for (int j = 0; j < K; ++j) ref[r * K + j] = idx[j];
  }
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  for (int variant = 0; variant < 2; ++variant) {
    size_t shm = (size_t)K * threads * 8;
    auto launch = [&] {
      if (variant == 0) perThread<K><<<rows, threads, shm>>>(dx, n, dv, di);
      else warpQueue<K><<<rows, threads, shm>>>(dx, n, dv, di);
    };
    for (int i = 0; i < 3; ++i) launch();
    CK(cudaDeviceSynchronize());
    std::vector<int64_t> got((size_t)rows * K);
    CK(cudaMemcpy(got.data(), di, got.size() * 8, cudaMemcpyDeviceToHost));
    int bad = 0; for (size_t i = 0; i < got.size(); ++i) bad += got[i] != ref[i];
    float best = 1e9;
    for (int rep = 0; rep < 20; ++rep) { cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); best = std::min(best, ms); }
    std::vector<float> all;
    for (int rep = 0; rep < 20; ++rep) { cudaEventRecord(a); launch(); cudaEventRecord(b); cudaEventSynchronize(b); float ms; cudaEventElapsedTime(&ms, a, b); all.push_back(ms); }
    std::sort(all.begin(), all.end());
    printf("[%d,%d] k%d threads %d %s: median %.4f ms min %.4f  wrong %d\n", rows, n, K, threads, variant ? "warpqueue" : "perthread", all[10], best, bad);
  }
  cudaFree(dx); cudaFree(dv); cudaFree(di);
}

int main() {
  for (int t : {32, 64, 128, 256}) run<8>(1024, 1024, t);
  for (int t : {64, 128, 256, 512}) run<8>(4096, 4096, t);
  for (int t : {32, 64, 128}) run<8>(16384, 128, t < 128 ? t : 64);
  return 0;
}
