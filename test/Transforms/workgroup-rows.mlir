// RUN: sift-opt %s -sift-workgroup-rows -split-input-file | FileCheck %s
// RUN: sift-opt %s -sift-workgroup-rows=inject-no-barrier=1 -split-input-file | FileCheck %s --check-prefix=FAULT
// RUN: sift-opt %s -sift-workgroup-rows=inject-bf16-order-f16-layout=1 -split-input-file | FileCheck %s --check-prefix=HALF
// RUN: sift-opt %s -sift-workgroup-rows=inject-bare-keys-unchecked=1 -split-input-file | FileCheck %s --check-prefix=BARE
// Algorithm workgroup_row: one workgroup per row, the row staged in
// workgroup memory, a bitonic network over indices, barriers between steps.

#row = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [8, 1, 1], algorithm = workgroup_row>
// CHECK-LABEL: func.func @sort_rows
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK: gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C3]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C8]],
// CHECK:   %[[ROW:.+]] = arith.remui %[[BX]]
// Keys over 32 bits: (key, index) pairs. Both operands are staged, the
// keys and the index array padded to 64.
// CHECK:   %[[KEYS:.+]] = memref.alloc() : memref<64xf64, #gpu.address_space<workgroup>>
// CHECK:   %[[VALS:.+]] = memref.alloc() : memref<37xi32, #gpu.address_space<workgroup>>
// CHECK:   %[[IDX:.+]] = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
// CHECK:   scf.for %[[E:.+]] = %[[TX]] to %{{.+}} step
// CHECK:     memref.load %{{.+}}[%[[ROW]], %[[E]]] : memref<3x37xf64>
// CHECK:     memref.store %{{.+}}, %[[KEYS]][%[[E]]]
// CHECK:   gpu.barrier
// The network: stages, steps, then this thread's pairs (32 pairs of 64
// slots, every thread busy), keys moving with their indices.
// CHECK:   scf.for
// CHECK:     scf.for
// CHECK:       scf.for %{{.+}} = %[[TX]] to %c32
// CHECK:         memref.load %[[KEYS]]
// CHECK:         memref.load %[[IDX]]
// Padding (index >= 37) goes after every element; keys compare NaN-aware.
// CHECK:         arith.cmpi sge, %{{.+}}, %c37_i32
// CHECK:         arith.cmpf olt
// CHECK:         memref.store %{{.+}}, %[[KEYS]]
// CHECK:         memref.store %{{.+}}, %[[IDX]]
// CHECK:       gpu.barrier
// Write back: the sorted keys, the other operand through the indices.
// CHECK:   memref.load %[[KEYS]]
// CHECK:   memref.store %{{.+}}, %{{.+}}[%[[ROW]], %{{.+}}] : memref<3x37xf64>
// CHECK:   %[[I:.+]] = memref.load %[[IDX]]
// CHECK:   %[[S:.+]] = arith.index_cast %[[I]] : i32 to index
// CHECK:   memref.load %[[VALS]][%[[S]]]
// CHECK-NOT: sift.sort
// FAULT-LABEL: func.func @sort_rows
// FAULT-NOT: gpu.barrier
// FAULT: return
func.func @sort_rows(%k: memref<3x37xf64>, %v: memref<3x37xi32>) {
  sift.sort dimension(1) ascending {sift.lowering_config = #row} outs(%k, %v : memref<3x37xf64>, memref<3x37xi32>)
  return
}

// -----

#row = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [8, 1, 1], algorithm = workgroup_row>
// A named order of keys of at most 32 bits: one i64 composite an element,
// the key's order bits (inverted: descending) above its position; padding
// all ones; the network compares composites as integers.
// CHECK-LABEL: func.func @sort_composites
// CHECK: gpu.launch blocks(%{{.+}}) in (%{{.+}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in
// CHECK:   %[[KEYS:.+]] = memref.alloc() : memref<37xf32, #gpu.address_space<workgroup>>
// CHECK:   %[[VALS:.+]] = memref.alloc() : memref<37xi32, #gpu.address_space<workgroup>>
// CHECK:   %[[COMP:.+]] = memref.alloc() : memref<64xi64, #gpu.address_space<workgroup>>
// CHECK:   scf.for
// CHECK:     memref.store %{{.+}}, %[[KEYS]]
// CHECK:     memref.store %{{.+}}, %[[VALS]]
// CHECK:     arith.bitcast %{{.+}} : f32 to i32
// CHECK:     arith.xori
// CHECK:     arith.shli %{{.+}}, %c32_i64
// Composite e lives at e with its low five bits flipped by bits 3-7.
// CHECK:     arith.shrui %{{.+}}, %c3
// CHECK:     arith.andi %{{.+}}, %c31
// CHECK:     arith.xori
// CHECK:     memref.store %{{.+}}, %[[COMP]]
// CHECK:   memref.store %c-1_i64, %[[COMP]]
// CHECK:   gpu.barrier
// The network in phases: 8 threads over 64 slots hold a group of 8
// composites each (slot numbers that differ in three bits), perform the
// phase's steps within those bits in registers (min and max), store them
// back, and meet at a barrier; 6 stages make 7 phases.
// CHECK:   scf.for %{{.+}} = %[[TX]] to %c8
// CHECK-COUNT-8: memref.load %[[COMP]]
// CHECK:     arith.minui
// CHECK:     arith.maxui
// CHECK-COUNT-8: memref.store %{{.+}}, %[[COMP]]
// CHECK-COUNT-7: gpu.barrier
// CHECK-NOT: gpu.barrier
// Write back: every operand through the position in the low bits.
// CHECK:   memref.load %[[COMP]]
// CHECK:   arith.trunci %{{.+}} : i64 to i32
// CHECK:   memref.load %[[KEYS]]
// CHECK:   memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<3x37xf32>
// CHECK:   memref.load %[[VALS]]
// CHECK:   memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<3x37xi32>
// FAULT-LABEL: func.func @sort_composites
// FAULT-NOT: gpu.barrier
// FAULT: return
func.func @sort_composites(%k: memref<3x37xf32>, %v: memref<3x37xi32>) {
  sift.sort dimension(1) descending {sift.lowering_config = #row} outs(%k, %v : memref<3x37xf32>, memref<3x37xi32>)
  return
}

// -----

#row = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [4, 1, 1], algorithm = workgroup_row>
// Top-k: the input is staged with its composites (i32 for a 16-bit key:
// its order bits above a 16-bit position), the first k positions are
// written with their values as i64 indices; rows along dimension 0 here.
// CHECK-LABEL: func.func @topk_rows
// CHECK: gpu.launch
// CHECK:   memref.alloc() : memref<10xf16, #gpu.address_space<workgroup>>
// CHECK:   %[[COMP:.+]] = memref.alloc() : memref<16xi32, #gpu.address_space<workgroup>>
// CHECK:     arith.shli %{{.+}}, %c16_i32
// CHECK:   memref.store %c-1_i32, %[[COMP]]
// CHECK:   gpu.barrier
// CHECK:   arith.trunci %{{.+}} : i32 to i16
// CHECK:   arith.index_castui %{{.+}} : index to i64
// CHECK:   memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<3x2xi64>
func.func @topk_rows(%x: memref<10x2xf16>, %v: memref<3x2xf16>, %i: memref<3x2xi64>) {
  sift.topk dimension(0) k(3) smallest {sift.lowering_config = #row} ins(%x : memref<10x2xf16>) outs(%v, %i : memref<3x2xf16>, memref<3x2xi64>)
  return
}

// -----

#row = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [8, 1, 1], algorithm = workgroup_row>
// A bf16 sort: i32 composites. Its order bits test NaN with bf16's
// exponent (0x7f80 above the sign); fault bf16-order-f16-layout tests the
// magnitude against f16's infinity (0x7c00) instead.
// CHECK-LABEL: func.func @sort_bf16
// CHECK:   %[[COMP:.+]] = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
// CHECK:     arith.bitcast %{{.+}} : bf16 to i16
// CHECK:     arith.cmpf uno
// CHECK:     arith.shli %{{.+}}, %c16_i32
// CHECK:     memref.store %{{.+}}, %[[COMP]]
// CHECK:   arith.minui %{{.+}} : i32
// HALF-LABEL: func.func @sort_bf16
// HALF:     arith.bitcast %{{.+}} : bf16 to i16
// HALF:     arith.cmpi ugt, %{{.+}}, %c31744_i16
// HALF:     arith.shli %{{.+}}, %c16_i32
// HALF-LABEL: func.func @sort_f32_wide
// HALF-NOT: arith.cmpi ugt
// HALF: return
func.func @sort_bf16(%k: memref<2x40xbf16>) {
  sift.sort dimension(1) ascending {sift.lowering_config = #row} outs(%k : memref<2x40xbf16>)
  return
}

// A keys-only f32 sort sorts bare order bits (an i32 a key, no position)
// and turns them back into keys, unless a thread met a zero or a NaN
// (cmpf ueq): then the flag sends the whole workgroup to the i64
// composites, staged anew. The bf16 fault leaves its order bits; fault
// bare-keys-unchecked drops the check, so the flag is never raised.
// CHECK-LABEL: func.func @sort_f32_wide
// CHECK:   %[[BITS:.+]] = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
// CHECK:   %[[COMP:.+]] = memref.alloc() : memref<64xi64, #gpu.address_space<workgroup>>
// CHECK:   %[[FLAG:.+]] = memref.alloc() : memref<1xi32, #gpu.address_space<workgroup>>
// CHECK:   memref.store %{{.+}}, %[[FLAG]]
// CHECK:   gpu.barrier
// CHECK:   scf.for
// CHECK:     memref.store %{{.+}}, %[[BITS]]
// CHECK:     %[[ODD:.+]] = arith.cmpf ueq
// CHECK:     scf.if %[[ODD]]
// CHECK:       memref.atomic_rmw addi %{{.+}}, %[[FLAG]]
// CHECK:   gpu.barrier
// CHECK:   %[[SEEN:.+]] = memref.load %[[FLAG]]
// CHECK:   %[[PLAIN:.+]] = arith.cmpi eq, %[[SEEN]], %c0_i32
// CHECK:   scf.if %[[PLAIN]]
// CHECK:     arith.minui %{{.+}} : i32
// CHECK:     memref.load %[[BITS]]
// CHECK:     arith.bitcast %{{.+}} : i32 to f32
// CHECK:   } else {
// CHECK:     arith.shli %{{.+}}, %c32_i64
// CHECK:     memref.store %{{.+}}, %[[COMP]]
// CHECK:     arith.minui %{{.+}} : i64
// BARE-LABEL: func.func @sort_f32_wide
// BARE-NOT: arith.cmpf ueq
// BARE: return
func.func @sort_f32_wide(%k: memref<2x40xf32>) {
  sift.sort dimension(1) ascending {sift.lowering_config = #row} outs(%k : memref<2x40xf32>)
  return
}

// i32 keys always sort bare: equal order bits are equal keys. No flag, no
// composites.
// CHECK-LABEL: func.func @sort_i32_bare
// CHECK:   memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.alloc
// CHECK-NOT: i64
// CHECK:   arith.xori %{{.+}}, %c-2147483648_i32
// CHECK-NOT: i64
// CHECK: return
func.func @sort_i32_bare(%k: memref<2x40xi32>) {
  sift.sort dimension(1) descending {sift.lowering_config = #row} outs(%k : memref<2x40xi32>)
  return
}

// -----

// Other algorithms are left to sift-lower-to-loops.
// CHECK-LABEL: func.func @not_mine
// CHECK-NOT: gpu.launch
// CHECK: sift.sort
func.func @not_mine(%k: memref<3x37xf32>) {
  sift.sort dimension(1) ascending {sift.lowering_config = #sift.lowering_config<workgroup_tile = [4], thread_tile = [1], workgroup_size = [4, 1, 1], algorithm = row_per_thread>} outs(%k : memref<3x37xf32>)
  return
}
