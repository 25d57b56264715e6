// RUN: sift-opt %s --sift-distribute-pipeline="target=nvptx" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --sift-distribute-pipeline="target=amdgpu toolkit=%sift_obj/amdgpu-toolkit" | FileCheck %s --check-prefixes=CHECK,ROCDL
// The distribute pipeline bufferizes first, gives every op its own kernel
// (rows of a sort or top-k over workgroups, elements of a linalg op over
// workgroups and threads), and leaves on the host only what the plan holds.
// The kernels share one kernel module (sift-merge-kernel-modules).

// The plan: arguments, then the top-k's temporary values buffer; one
// dispatch per kernel, with constant grid and block sizes from the default
// lowering configs: the 4x8 elementwise op on 8x4 threads, the 4 rows of the
// sort and of the top-k on 4 threads, one thread per row.
// CHECK: module attributes {gpu.container_module, sift.dispatch_plan = {buffers = [
// CHECK-SAME: role = "input", shape = array<i64: 4, 8>
// CHECK-SAME: role = "output", shape = array<i64: 4, 8>
// CHECK-SAME: role = "output", shape = array<i64: 4, 3>
// CHECK-SAME: {element = f32, index = 0 : i64, role = "temporary", shape = array<i64: 4, 3>}
// CHECK-SAME: dispatches = [{bindings = array<i64: 0, 1>, block = array<i64: 8, 4, 1>, executable = "main_kernel", grid = array<i64: 1, 1, 1>, symbol = "main_kernel"}
// CHECK-SAME: {bindings = array<i64: 1>, block = array<i64: 4, 1, 1>, executable = "main_kernel", grid = array<i64: 1, 1, 1>, symbol = "main_kernel_0"}
// CHECK-SAME: {bindings = array<i64: 0, 3, 2>, block = array<i64: 4, 1, 1>, executable = "main_kernel", grid = array<i64: 1, 1, 1>, symbol = "main_kernel_1"}

// The host: launches of whole buffers, nothing else that computes.
// CHECK: func.func @main(%[[IN:.+]]: memref<4x8xf32>, %[[OUT0:.+]]: memref<4x8xf32>, %[[OUT1:.+]]: memref<4x3xi64>)
// CHECK-NOT: linalg.
// CHECK-NOT: sift.
// CHECK: gpu.launch_func @main_kernel::@main_kernel blocks in ({{.+}}) threads in ({{.+}}) args(%[[IN]] : memref<4x8xf32>, %[[OUT0]] : memref<4x8xf32>)
// CHECK: gpu.launch_func @main_kernel::@main_kernel_0 {{.+}} args(%[[OUT0]] : memref<4x8xf32>)
// CHECK: %[[TMP:.+]] = memref.alloc() {{.+}} : memref<4x3xf32>
// CHECK: gpu.launch_func @main_kernel::@main_kernel_1 {{.+}} args(%[[IN]] : memref<4x8xf32>, %[[TMP]] : memref<4x3xf32>, %[[OUT1]] : memref<4x3xi64>)
// CHECK: return

// The kernels, serialized for the target: one binary, three entries.
// NVVM: gpu.binary @main_kernel [#gpu.object<#nvvm.target<chip = "sm_90">, {{.+}}assembly = "{{.+}}.visible .entry main_kernel({{.+}}.visible .entry main_kernel_0({{.+}}.visible .entry main_kernel_1(
// ROCDL: gpu.binary @main_kernel [#gpu.object<#rocdl.target<chip = "gfx942">, {{.*}}bin = "\7FELF
// CHECK-NOT: gpu.binary
func.func @main(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x3xi64>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %a : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %s = sift.sort dimension(1) descending outs(%y : tensor<4x8xf32>) -> tensor<4x8xf32>
  %v0 = tensor.empty() : tensor<4x3xf32>
  %i0 = tensor.empty() : tensor<4x3xi64>
  %v, %i = sift.topk dimension(1) k(3) smallest ins(%x : tensor<4x8xf32>) outs(%v0, %i0 : tensor<4x3xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>, tensor<4x3xi64>
  return %s, %i : tensor<4x8xf32>, tensor<4x3xi64>
}
