// RUN: sift-opt %s -sift-workgroup-rows -split-input-file -verify-diagnostics | FileCheck %s
// RUN: sift-opt %s -sift-workgroup-rows=inject-select-merge-one-level-short=1 -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=FAULT
// RUN: sift-opt %s -sift-workgroup-rows=inject-bf16-order-f16-layout=1 -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=HALF
// Algorithm register_select: a workgroup per chunk of a row, each thread's
// k best composites (order bits above the inverted position) in registers,
// a tree merge in workgroup memory; rows of several chunks a second launch
// over the chunks' candidates.

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [8, 1, 1], algorithm = register_select, row_tile = 128>
// 300 elements: 3 chunks of 128 a row, 3 rows; candidates [3, 3 * 4].
// f16 keys in a row under 65,535 elements: i32 composites (the order bits
// above the position inverted in 16 bits).
// CHECK-LABEL: func.func @topk_chunks
// CHECK: %[[CAND:.+]] = memref.alloc() : memref<3x12xi32>
// CHECK: gpu.launch blocks({{.+}}) in (%{{.+}} = %c9, {{.+}} threads({{.+}}) in (%{{.+}} = %c8{{(_[0-9]+)?}},
// CHECK:   %[[LISTS:.+]] = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
// The walk: four loads ahead, a threads' stride apart, then the inserts;
// the steps whose four items are all inside the chunk unchecked, then the
// one step left with each item clamped and an empty composite past the end.
// CHECK:   scf.for {{.+}} iter_args({{.+}}) -> (i32, i32, i32, i32)
// CHECK-NOT: arith.minui
// CHECK-COUNT-4: memref.load %{{.+}} : memref<3x300xf16>
// CHECK:     arith.bitcast %{{.+}} : f16 to i16
// CHECK:     arith.shli %{{.+}}, %c16_i32
// CHECK:     arith.cmpi ugt
// CHECK:     scf.if
// CHECK:       arith.maxui
// CHECK:       arith.minui
// CHECK:   arith.divui
// CHECK:   scf.for {{.+}} iter_args({{.+}}) -> (i32, i32, i32, i32)
// CHECK:     arith.minui
// CHECK:     memref.load %{{.+}} : memref<3x300xf16>
// CHECK:     arith.select
// The tree: the lists twice (two halves of 32), a loop of three levels
// (8 threads), a barrier before each; the first threads load a pair's two
// lists of 4, keep the better of each slot of the first and the second
// reversed (4 maxui), sort them by a bitonic merge (two steps of 2 maxui
// and 2 minui) and store the result in the other half.
// CHECK:   memref.store %{{.+}}, %[[LISTS]]
// CHECK:   scf.for %{{.+}} = %{{.+}} to %c3{{(_[0-9]+)?}} step
// CHECK:     gpu.barrier
// CHECK:     scf.if
// CHECK-COUNT-8: memref.load %[[LISTS]]
// CHECK-COUNT-4: arith.maxui
// CHECK-COUNT-2: arith.maxui
// CHECK-NEXT:    arith.minui
// CHECK-COUNT-4: memref.store %{{.+}}, %[[LISTS]]
// CHECK:   gpu.barrier
// CHECK:   memref.store %{{.+}}, %[[CAND]]
// The merge: a workgroup per row over its 12 candidates.
// CHECK: gpu.launch blocks({{.+}}) in (%{{.+}} = %c3, {{.+}} threads({{.+}}) in (%{{.+}} = %c8{{(_[0-9]+)?}},
// CHECK:   memref.load %[[CAND]]
// CHECK:   memref.store %{{.+}}, %{{.+}} : memref<3x4xf16>
// CHECK:   memref.store %{{.+}}, %{{.+}} : memref<3x4xi64>
// CHECK-NOT: gpu.launch
// CHECK-NOT: sift.topk
// The fault: two levels only.
// FAULT-LABEL: func.func @topk_chunks
// FAULT: gpu.launch
// FAULT: scf.for %{{.+}} = %{{.+}} to %c2{{(_[0-9]+)?}} step
// FAULT-NEXT: gpu.barrier
// FAULT: memref.store %{{.+}}, %{{.+}} : memref<3x12xi32>
func.func @topk_chunks(%x: memref<3x300xf16>, %v: memref<3x4xf16>, %i: memref<3x4xi64>) {
  sift.topk dimension(1) k(4) smallest {sift.lowering_config = #select} ins(%x : memref<3x300xf16>) outs(%v, %i : memref<3x4xf16>, memref<3x4xi64>)
  return
}

// -----

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = register_select, row_tile = 512>
// One chunk a row: one launch, writing the outputs (the value reloaded
// from the row by position); no plan buffer.
// CHECK-LABEL: func.func @topk_one_chunk
// CHECK-NOT: memref.alloc() : memref<
// CHECK: gpu.launch blocks({{.+}}) in (%{{.+}} = %c6,
// 32-bit keys: i64 composites.
// CHECK:   memref.alloc() : memref<128xi64, #gpu.address_space<workgroup>>
// CHECK:   memref.load %{{.+}} : memref<6x400xi32>
// CHECK:   memref.store %{{.+}}, %{{.+}} : memref<6x2xi32>
// CHECK:   memref.store %{{.+}}, %{{.+}} : memref<6x2xi64>
// CHECK-NOT: gpu.launch
func.func @topk_one_chunk(%x: memref<6x400xi32>, %v: memref<6x2xi32>, %i: memref<6x2xi64>) {
  sift.topk dimension(1) k(2) largest {sift.lowering_config = #select} ins(%x : memref<6x400xi32>) outs(%v, %i : memref<6x2xi32>, memref<6x2xi64>)
  return
}

// -----

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = register_select, row_tile = 32768>
// A bf16 row of 65,535 elements or more keeps i64 composites (i32 ones,
// 16 bits of inverted position, are for rows under 65,535 elements).
// CHECK-LABEL: func.func @long_narrow_row
// CHECK: memref.alloc() : memref<1x4xi64>
// CHECK:   memref.alloc() : memref<128xi64, #gpu.address_space<workgroup>>
// CHECK:   arith.shli %{{.+}}, %c32_i64
func.func @long_narrow_row(%x: memref<1x65535xbf16>, %v: memref<1x2xbf16>, %i: memref<1x2xi64>) {
  sift.topk dimension(1) k(2) largest {sift.lowering_config = #select} ins(%x : memref<1x65535xbf16>) outs(%v, %i : memref<1x2xbf16>, memref<1x2xi64>)
  return
}

// -----

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = register_select, row_tile = 32768>
// One element fewer: i32 composites.
// CHECK-LABEL: func.func @narrow_row
// CHECK: memref.alloc() : memref<1x4xi32>
// CHECK:   memref.alloc() : memref<128xi32, #gpu.address_space<workgroup>>
// CHECK:   arith.shli %{{.+}}, %c16_i32
func.func @narrow_row(%x: memref<1x65534xbf16>, %v: memref<1x2xbf16>, %i: memref<1x2xi64>) {
  sift.topk dimension(1) k(2) largest {sift.lowering_config = #select} ins(%x : memref<1x65534xbf16>) outs(%v, %i : memref<1x2xbf16>, memref<1x2xi64>)
  return
}

// -----

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = register_select, row_tile = 512>
// k = 1 of bf16 keys: the walk widens each key to f32 and compares floats
// (a NaN above a number); fault bf16-order-f16-layout widens the bits as
// f16's.
// CHECK-LABEL: func.func @argmax_bf16
// CHECK:   scf.for
// CHECK:     %[[K:.+]] = memref.load %{{.+}} : memref<3x700xbf16>
// CHECK:     %[[W:.+]] = arith.extf %[[K]] : bf16 to f32
// CHECK:     arith.cmpf ogt, %[[W]]
// HALF-LABEL: func.func @argmax_bf16
// HALF:     %[[K:.+]] = memref.load %{{.+}} : memref<3x700xbf16>
// HALF:     %[[B:.+]] = arith.bitcast %[[K]] : bf16 to i16
// HALF:     %[[H:.+]] = arith.bitcast %[[B]] : i16 to f16
// HALF:     arith.extf %[[H]] : f16 to f32
func.func @argmax_bf16(%x: memref<3x700xbf16>, %v: memref<3x1xbf16>, %i: memref<3x1xi64>) {
  sift.topk dimension(1) k(1) largest {sift.lowering_config = #select} ins(%x : memref<3x700xbf16>) outs(%v, %i : memref<3x1xbf16>, memref<3x1xi64>)
  return
}

// -----

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = register_select, row_tile = 512>
// 64-bit keys do not fit a composite with their position.
func.func @wide_keys(%x: memref<6x400xf64>, %v: memref<6x2xf64>, %i: memref<6x2xi64>) {
  // expected-error @+1 {{register_select needs 1 <= k <= 32 and keys of at most 32 bits, found k = 2 of 'f64'}}
  sift.topk dimension(1) k(2) largest {sift.lowering_config = #select} ins(%x : memref<6x400xf64>) outs(%v, %i : memref<6x2xf64>, memref<6x2xi64>)
  return
}

// -----

#select = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = register_select, row_tile = 512>
func.func @not_a_sort(%k: memref<6x400xf32>) {
  // expected-error @+1 {{register_select selects a top-k; it cannot sort}}
  sift.sort dimension(1) ascending {sift.lowering_config = #select} outs(%k : memref<6x400xf32>)
  return
}

// -----

// A long walk (k <= 8, 32 items a thread or more: here 128 over 4 threads)
// loads 16 ahead: steps of 4 * 16, sixteen loads a whole step. With 31
// items a thread (124 over 4), four ahead as elsewhere.
#long = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [4, 1, 1], algorithm = register_select, row_tile = 128>
// CHECK-LABEL: func.func @topk_long_walk
// CHECK: scf.for {{.+}} step %c64 iter_args({{.+}}) -> (i64, i64)
// CHECK-COUNT-16: memref.load %{{.+}} : memref<2x128xf32>
// CHECK-NOT: memref.load %{{.+}} : memref<2x128xf32>
// CHECK: scf.yield
// CHECK-LABEL: func.func @topk_short_walk
// CHECK: scf.for {{.+}} step %c16 iter_args({{.+}}) -> (i64, i64)
func.func @topk_long_walk(%x: memref<2x128xf32>, %v: memref<2x2xf32>, %i: memref<2x2xi64>) {
  sift.topk dimension(1) k(2) largest {sift.lowering_config = #long} ins(%x : memref<2x128xf32>) outs(%v, %i : memref<2x2xf32>, memref<2x2xi64>)
  return
}
func.func @topk_short_walk(%x: memref<2x124xf32>, %v: memref<2x2xf32>, %i: memref<2x2xi64>) {
  sift.topk dimension(1) k(2) largest {sift.lowering_config = #long} ins(%x : memref<2x124xf32>) outs(%v, %i : memref<2x2xf32>, memref<2x2xi64>)
  return
}
