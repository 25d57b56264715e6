// RUN: sift-opt %s -sift-workgroup-rows -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sift-opt %s -sift-workgroup-rows=inject-warp-queue-head-unfilled=1 -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=HEAD
// Algorithm warp_select: register_select's launches, each warp's k best
// spread over its lanes (a warp queue), fed one item at a time by ballot
// and shuffles; the warps' lists meet in workgroup memory.

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = warp_select, row_tile = 512>
// 3 rows of 1000 in chunks of 512: 6 select workgroups of two warps, then a
// merge workgroup a row.
// CHECK-LABEL: func.func @topk_rows
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c6, {{.+}} threads(%[[TID:[^,]+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c64,
// Two warps' lists of 8, twice (the tree reads one half, writes the other).
// CHECK:   %[[LISTS:.+]] = memref.alloc() : memref<32xi64, #gpu.address_space<workgroup>>
// CHECK:   %[[LANE:.+]] = arith.remui %[[TID]], %c32
// Every thread takes the same steps: the whole ones (512 / 256), then the
// rest (checked).
// CHECK:   %[[WHOLE:.+]] = arith.divui %{{.+}}, %c256
// CHECK:   scf.for %{{.+}} = %c0 to %[[WHOLE]]
// An item goes in while any lane of the wave beats the k-th.
// CHECK:     scf.while
// CHECK:       %[[BEATS:.+]] = arith.cmpi ugt
// CHECK:       %[[ANY:.+]] = sift.wave_any %[[BEATS]]
// CHECK:       scf.condition(%[[ANY]])
// The lowest lane with one hands it to all (64 bits: two shuffles).
// CHECK:       %[[VOTES:.+]] = sift.warp_ballot
// CHECK:       %[[LOWEST:.+]] = "llvm.intr.cttz"(%[[VOTES]])
// CHECK:       %[[FROM:.+]] = arith.select %{{.+}}, %[[LOWEST]], %c0_i32
// CHECK:       sift.warp_shuffle_idx %{{.+}}, %[[FROM]] : i32
// CHECK:       sift.warp_shuffle_idx %{{.+}}, %[[FROM]] : i32
// Each lane keeps max(its slot, min(v, the slot above)); lane 0's above is
// the top.
// CHECK:       sift.warp_shuffle_up %{{.+}}, 1 : i32
// CHECK:       sift.warp_shuffle_up %{{.+}}, 1 : i32
// CHECK:       %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %c0
// CHECK:       %[[ABOVE:.+]] = arith.select %[[FIRST]], %c-1_i64
// CHECK:       %[[MIN:.+]] = arith.minui %{{.+}}, %[[ABOVE]]
// CHECK:       arith.maxui %{{.+}}, %[[MIN]]
// The k-th comes from lane 7.
// CHECK:       sift.warp_shuffle_idx %{{.+}}, %c7_i32 : i32
// CHECK:   %[[TAIL:.+]]:2 = scf.for %{{.+}} = %[[WHOLE]] to
// CHECK-NOT: gpu.barrier
// Lanes under k store their warp's list, then the tree over the warps.
// CHECK:   scf.if
// CHECK:     memref.store %[[TAIL]]#0, %[[LISTS]]
// CHECK:   gpu.barrier
// The merge launch: a workgroup a row over its chunks' candidates.
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c3, {{.+}} threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c64
// CHECK:   sift.wave_any
// CHECK-NOT: sift.topk
// The fault: lane 0 takes the shuffle up's own slot as the one above.
// HEAD-LABEL: func.func @topk_rows
// HEAD:     scf.while
// HEAD:       sift.warp_shuffle_up %{{.+}}, 1 : i32
// HEAD:       %[[UP:.+]] = sift.warp_shuffle_up %{{.+}}, 1 : i32
// HEAD-NOT:   %c-1_i64
// HEAD:       %[[HIGH:.+]] = arith.extui %[[UP]]
// HEAD-NOT:   arith.select {{.+}}%c-1_i64
// HEAD:       arith.minui
func.func @topk_rows(%x: memref<3x1000xf32>, %v: memref<3x8xf32>, %i: memref<3x8xi64>) {
  sift.topk dimension(1) k(8) largest {sift.lowering_config = #select} ins(%x : memref<3x1000xf32>) outs(%v, %i : memref<3x8xf32>, memref<3x8xi64>)
  return
}

// -----

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = warp_select, row_tile = 512>
func.func @one_best(%x: memref<1000xf32>, %v: memref<1xf32>, %i: memref<1xi64>) {
  // expected-error @+1 {{warp_select needs whole warps of 32 threads and k >= 2, found 64 threads and k = 1}}
  sift.topk dimension(0) k(1) largest {sift.lowering_config = #select} ins(%x : memref<1000xf32>) outs(%v, %i : memref<1xf32>, memref<1xi64>)
  return
}
