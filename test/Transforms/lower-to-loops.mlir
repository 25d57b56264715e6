// RUN: sift-opt %s -sift-lower-to-loops -split-input-file -verify-diagnostics | FileCheck %s
// The scalar implementation: one loop per domain dimension, then the row.

// CHECK-LABEL: func.func @sort_rows
// CHECK-SAME: (%[[A:.+]]: memref<3x5xf32>, %[[B:.+]]: memref<3x5xi64>)
func.func @sort_rows(%a: memref<3x5xf32>, %b: memref<3x5xi64>) {
  // Loop over the 3 rows, insertion sort along dimension 1.
  // CHECK: scf.for %[[ROW:.+]] = %{{.+}} to %{{.+}} step
  // CHECK:   scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step
  // CHECK:     scf.while
  // CHECK:       memref.load %[[A]][%[[ROW]], %{{.+}}]
  // The named ascending order: ordered less, or number before NaN.
  // CHECK:       arith.cmpf olt
  // CHECK:       arith.cmpf ord
  // CHECK:       arith.cmpf uno
  // CHECK:       scf.condition
  // Both operands move in lockstep.
  // CHECK:       memref.store %{{.+}}, %[[A]]
  // CHECK:       memref.store %{{.+}}, %[[A]]
  // CHECK:       memref.store %{{.+}}, %[[B]]
  // CHECK:       memref.store %{{.+}}, %[[B]]
  // CHECK-NOT: sift.sort
  sift.sort dimension(1) ascending outs(%a, %b : memref<3x5xf32>, memref<3x5xi64>)
  return
}

// -----

// Rank 1: no domain loop, the row is the whole operand.
// CHECK-LABEL: func.func @sort_rank1_comparator
func.func @sort_rank1_comparator(%a: memref<7xi32>) {
  // CHECK: scf.for
  // CHECK:   scf.while
  // CHECK:     arith.cmpi sgt
  // CHECK-NOT: sift.sort
  sift.sort dimension(0) outs(%a : memref<7xi32>) {
  ^bb0(%l: i32, %r: i32):
    %c = arith.cmpi sgt, %l, %r : i32
    sift.yield %c : i1
  }
  return
}

// -----

// CHECK-LABEL: func.func @topk_rows
// CHECK-SAME: (%[[X:.+]]: memref<4x9xf16>, %[[V:.+]]: memref<4x2xf16>, %[[I:.+]]: memref<4x2xi64>)
func.func @topk_rows(%x: memref<4x9xf16>, %v: memref<4x2xf16>, %i: memref<4x2xi64>) {
  // CHECK: scf.for %[[ROW:.+]] = %{{.+}} to %{{.+}} step
  // CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args
  // CHECK:     memref.load %[[X]][%[[ROW]], %{{.+}}]
  // CHECK:     scf.if
  // CHECK:     scf.while
  // CHECK:     memref.store %{{.+}}, %[[V]]
  // CHECK:     memref.store %{{.+}}, %[[I]]
  // CHECK-NOT: sift.topk
  sift.topk dimension(1) k(2) largest ins(%x : memref<4x9xf16>) outs(%v, %i : memref<4x2xf16>, memref<4x2xi64>)
  return
}

// -----

// k = 0 writes nothing.
// CHECK-LABEL: func.func @topk_k0
func.func @topk_k0(%x: memref<9xf32>, %v: memref<0xf32>, %i: memref<0xi64>) {
  // CHECK-NEXT: return
  sift.topk dimension(0) k(0) smallest ins(%x : memref<9xf32>) outs(%v, %i : memref<0xf32>, memref<0xi64>)
  return
}

// -----

func.func @tensors_rejected(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{must be bufferized before sift-lower-to-loops}}
  %r = sift.sort dimension(0) ascending outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Algorithm private_row: each row is copied into per-thread buffers in
// private memory (the input row and k outputs for top-k), selected there,
// and the k results copied back.
#priv = #sift.lowering_config<workgroup_tile = [4], thread_tile = [1], workgroup_size = [4, 1, 1], algorithm = private_row>
// CHECK-LABEL: func.func @private_rows
// CHECK: scf.for %[[ROW:.+]] =
// CHECK:   %[[IN:.+]] = memref.alloca() : memref<6xf32, #gpu.address_space<private>>
// CHECK:   %[[V:.+]] = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
// CHECK:   %[[I:.+]] = memref.alloca() : memref<2xi64, #gpu.address_space<private>>
// CHECK:   scf.for %[[E:.+]] =
// CHECK:     memref.load %{{.+}}[%[[ROW]], %[[E]]] : memref<4x6xf32>
// CHECK:     memref.store %{{.+}}, %[[IN]][%[[E]]]
// CHECK:   scf.for
// CHECK:     memref.load %[[IN]]
// CHECK:   scf.for %[[O:.+]] =
// CHECK:     memref.load %[[V]][%[[O]]]
// CHECK:     memref.store %{{.+}}, %{{.+}}[%[[ROW]], %[[O]]] : memref<4x2xf32>
// CHECK:     memref.load %[[I]][%[[O]]]
// CHECK:     memref.store %{{.+}}, %{{.+}}[%[[ROW]], %[[O]]] : memref<4x2xi64>
// CHECK-NOT: sift.topk
func.func @private_rows(%x: memref<4x6xf32>, %v: memref<4x2xf32>, %i: memref<4x2xi64>) {
  sift.topk dimension(1) k(2) largest {sift.lowering_config = #priv} ins(%x : memref<4x6xf32>) outs(%v, %i : memref<4x2xf32>, memref<4x2xi64>)
  return
}
