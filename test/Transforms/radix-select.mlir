// RUN: sift-opt %s -sift-workgroup-rows -split-input-file | FileCheck %s
// RUN: sift-opt %s -sift-workgroup-rows=inject-radix-digit-off-by-one=1 -split-input-file | FileCheck %s --check-prefix=FAULT
// RUN: sift-opt %s -sift-workgroup-rows=inject-radix-compact-drops-better=1 -split-input-file | FileCheck %s --check-prefix=DROPS
// RUN: sift-opt %s -sift-workgroup-rows=inject-radix-fused-bins-kept=1 -split-input-file | FileCheck %s --check-prefix=KEPT
// Algorithm radix_select: plan buffers, an init launch, per 8-bit digit a
// histogram launch (workgroup-memory bins, then global atomics) and a pick
// launch (a suffix sum over 256 bins), then a filter launch that appends
// the selected elements with a global atomic counter, and a ranking launch.
// A row whose chosen bin is small compacts in the next histogram launch:
// the matching elements go to its survivors, which later passes read.
// With a row in one chunk and at least 256 threads, all of it is one
// launch (the one-launch form, @one_launch).

#radix = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = radix_select, row_tile = 128>
// f16 keys: 2 key digits; 300 elements: 9 index bits, 2 index digits; 4 passes.
// CHECK-LABEL: func.func @topk_rows
// CHECK: %[[STATE:.+]] = memref.alloc() : memref<3x5xi64>
// CHECK: %[[HIST:.+]] = memref.alloc() : memref<3x4x256xi32>
// CHECK: %[[COUNT:.+]] = memref.alloc() : memref<3xi32>
// CHECK: %[[KEYS:.+]] = memref.alloc() : memref<3x5xf16>
// CHECK: %[[IDX:.+]] = memref.alloc() : memref<3x5xi32>
// CHECK: %[[BITS:.+]] = memref.alloc() : memref<3x5xi64>
// The survivors: their count, order bits (a 32-bit word) and positions.
// CHECK: %[[SCOUNT:.+]] = memref.alloc() : memref<3xi32>
// CHECK: %[[SBITS:.+]] = memref.alloc() : memref<3x300xi32>
// CHECK: %[[SPOS:.+]] = memref.alloc() : memref<3x300xi32>
// Init: a workgroup of 256 threads per row.
// CHECK: gpu.launch blocks({{.+}}) in (%{{.+}} = %c3, {{.+}} threads({{.+}}) in (%{{.+}} = %c256,
// CHECK:   memref.store %{{.+}}, %[[HIST]]
// CHECK:   memref.store %{{.+}}, %[[COUNT]]
// CHECK:   memref.store %{{.+}}, %[[SCOUNT]]
// Pass 0: 3 chunks of 128 a row; matching elements counted in workgroup
// memory, then added to the row's histogram.
// CHECK: gpu.launch blocks({{.+}}) in (%{{.+}} = %c9, {{.+}} threads({{.+}}) in (%{{.+}} = %c32,
// CHECK:   %[[BINS:.+]] = memref.alloc() : memref<256xi32, #gpu.address_space<workgroup>>
// CHECK:   gpu.barrier
// CHECK:   arith.bitcast %{{.+}} : f16 to i16
// The per-element work in 32-bit words (16-bit order bits, 9 index bits).
// CHECK:   arith.extui %{{.+}} : i16 to i32
// CHECK:   arith.shrui %{{.+}}, %c8_i32 : i32
// CHECK:   memref.atomic_rmw addi %{{.+}}, %[[BINS]]
// CHECK:   gpu.barrier
// CHECK:   memref.atomic_rmw addi %{{.+}}, %[[HIST]][%{{.+}}, %c0{{.*}}, %{{.+}}]
// Pick 0: a suffix sum with barriers; thread 0 records the digit, and last
// the row's source (field 4): the row, compacting, or its survivors.
// CHECK: gpu.launch
// CHECK:   memref.alloc() : memref<256xi32, #gpu.address_space<workgroup>>
// CHECK-COUNT-16: gpu.barrier
// CHECK:   memref.atomic_rmw addi
// CHECK:   gpu.barrier
// CHECK:   memref.store %{{.+}}, %[[STATE]]
// CHECK:   memref.store %{{.+}}, %[[STATE]][%{{.+}}, %c4{{(_[0-9]+)?}}]
// Pass 1: a matching element is counted and, when the row compacts (its
// source field says so), appended to the survivors; a better one is then
// appended to the candidates at once. Four loads ahead, so four elements.
// CHECK: gpu.launch
// CHECK:   memref.load %[[STATE]][%{{.+}}, %c4{{(_[0-9]+)?}}]
// CHECK:   %[[COMPACT:.+]] = arith.cmpi eq, %{{.+}}, %c1_i64
// CHECK-COUNT-4: memref.load %arg0
// CHECK:   memref.atomic_rmw addi %{{.+}}, %[[BINS1:.+]][
// CHECK:   scf.if %[[COMPACT]] {
// CHECK:     memref.atomic_rmw addi %{{.+}}, %[[SCOUNT]]
// CHECK:     memref.store %{{.+}}, %[[SBITS]]
// CHECK:     memref.store %{{.+}}, %[[SPOS]]
// CHECK:   arith.andi %[[COMPACT]]
// CHECK:     memref.atomic_rmw addi %{{.+}}, %[[COUNT]]
// CHECK:     memref.store %{{.+}}, %[[KEYS]]
// CHECK: gpu.launch
// Pass 2 reads a compacted row's survivors, else the row.
// CHECK: gpu.launch
// CHECK:     memref.load %[[SBITS]]
// CHECK:     memref.load %[[SPOS]]
// Pick 2, pass 3, pick 3.
// CHECK-COUNT-3: gpu.launch
// Filter: from the survivors or the row, a slot from the row's counter,
// value, index and order bits.
// CHECK: gpu.launch
// CHECK:   memref.load %[[SBITS]]
// CHECK:   %[[SLOT:.+]] = memref.atomic_rmw addi %{{.+}}, %[[COUNT]]
// CHECK:   memref.store %{{.+}}, %[[KEYS]]
// CHECK:   memref.store %{{.+}}, %[[IDX]]
// CHECK:   memref.store %{{.+}}, %[[BITS]]
// CHECK: } else {
// CHECK:   memref.atomic_rmw addi %{{.+}}, %[[COUNT]]
// Rank: each of the k counts the better ones and writes at its rank.
// CHECK: gpu.launch
// CHECK:   scf.for
// CHECK:     memref.load %[[BITS]]
// CHECK:   memref.store %{{.+}}, %arg1
// CHECK:   arith.extui %{{.+}} : i32 to i64
// CHECK:   memref.store %{{.+}}, %arg2
// CHECK-NOT: gpu.launch
// CHECK-NOT: sift.topk
// The fault counts one bin too high.
// FAULT-LABEL: func.func @topk_rows
// FAULT: gpu.launch
// FAULT: gpu.launch
// FAULT:   arith.addi %{{.+}}, %c1_i32
// FAULT:   arith.minui %{{.+}}, %c255_i32
// FAULT:   memref.atomic_rmw addi
// The fault radix-compact-drops-better: the compacting pass appends the
// survivors but no candidate (the filter is the first to).
// DROPS-LABEL: func.func @topk_rows
// DROPS: %[[COUNT:.+]] = memref.alloc() : memref<3xi32>
// DROPS: %[[SCOUNT:.+]] = memref.alloc() : memref<3xi32>
// DROPS: gpu.launch
// DROPS: gpu.launch
// DROPS: gpu.launch
// DROPS: gpu.launch
// DROPS:   memref.atomic_rmw addi %{{.+}}, %[[SCOUNT]]
// DROPS-NOT: memref.atomic_rmw addi %{{.+}}, %[[COUNT]]
// DROPS: gpu.launch
// DROPS: gpu.launch
func.func @topk_rows(%x: memref<3x300xf16>, %v: memref<3x5xf16>, %i: memref<3x5xi64>) {
  sift.topk dimension(1) k(5) smallest {sift.lowering_config = #radix} ins(%x : memref<3x300xf16>) outs(%v, %i : memref<3x5xf16>, memref<3x5xi64>)
  return
}

// -----

#radix = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [64, 1, 1], algorithm = radix_select, row_tile = 64>
// i32 keys of one row of 1: 4 key digits, no index digit.
// CHECK-LABEL: func.func @one_element
// CHECK: memref.alloc() : memref<1x4x256xi32>
// CHECK: gpu.launch
// CHECK-COUNT-8: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @one_element(%x: memref<1xi32>, %v: memref<1xi32>, %i: memref<1xi64>) {
  sift.topk dimension(0) k(1) largest {sift.lowering_config = #radix} ins(%x : memref<1xi32>) outs(%v, %i : memref<1xi32>, memref<1xi64>)
  return
}

// -----

#radix = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [256, 1, 1], algorithm = radix_select, row_tile = 512>
// The one-launch form: a row in one chunk (row_tile 512 >= 300), 256
// threads. Global memory holds only the survivors; the bins, the suffix
// sums, the row's state, its two counters and its k candidates are the
// workgroup's. The first pass counts 11 bits (2048 bins): its pick sums
// each 8-bit digit's 8 fine bins, and the second key digit (3 bits) is
// picked from the chosen digit's fine bins without a pass over the row.
// Every other pass clears the bins after its pick (f16: 8 + 3 + 5 key
// bits, two index digits).
// CHECK-LABEL: func.func @one_launch
// CHECK: memref.alloc() : memref<3x300xi32>
// CHECK: memref.alloc() : memref<3x300xi32>
// CHECK-NOT: memref.alloc() : memref<3x4x256xi32>
// CHECK: gpu.launch blocks({{.*}}) in ({{%.+}} = %c3, {{.*}} threads({{.*}}) in ({{%.+}} = %c256,
// CHECK: %[[BINS:.+]] = memref.alloc() : memref<2048xi32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<256xi32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<5xi64, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<2xi32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<5xf16, #gpu.address_space<workgroup>>
// CHECK: memref.store %c0_i32{{[_0-9]*}}, %[[BINS]][
// CHECK: arith.andi %{{.+}}, %c2047_i32
// CHECK: memref.atomic_rmw addi %{{.+}}, %[[BINS]]
// CHECK-COUNT-8: memref.load %[[BINS]]
// CHECK-NOT: memref.store %c0_i32{{[_0-9]*}}, %[[BINS]][
// CHECK: %[[TOP:.+]] = arith.shrui %{{.+}}, %c8_i64
// CHECK-NEXT: arith.andi %[[TOP]], %c255_i64
// CHECK: memref.load %[[BINS]]
// CHECK-COUNT-4: memref.store %c0_i32{{[_0-9]*}}, %[[BINS]][
// CHECK-NOT: gpu.launch
// CHECK: return
// The fault radix-fused-bins-kept: the bins are cleared once, before the
// first pass.
// KEPT-LABEL: func.func @one_launch
// KEPT: %[[BINS:.+]] = memref.alloc() : memref<2048xi32, #gpu.address_space<workgroup>>
// KEPT: memref.store %c0_i32{{[_0-9]*}}, %[[BINS]][
// KEPT-NOT: memref.store %c0_i32{{[_0-9]*}}, %[[BINS]][
// KEPT: return
func.func @one_launch(%x: memref<3x300xf16>, %v: memref<3x5xf16>, %i: memref<3x5xi64>) {
  sift.topk dimension(1) k(5) smallest {sift.lowering_config = #radix} ins(%x : memref<3x300xf16>) outs(%v, %i : memref<3x5xf16>, memref<3x5xi64>)
  return
}
