// RUN: sift-opt %s -sift-map-to-gpu -split-input-file -verify-diagnostics | FileCheck %s
// Applying a lowering config: workgroup, thread and per-thread loops with
// GPU mappings (innermost dimension on x) and constant bounds.

#config = #sift.lowering_config<workgroup_tile = [2, 64], thread_tile = [1, 4], workgroup_size = [16, 2, 1], algorithm = elementwise>
// CHECK-LABEL: func.func @tiled
func.func @tiled(%m: memref<8x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c100 = arith.constant 100 : index
  %f = arith.constant 1.0 : f32
  // CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
  // CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
  // CHECK-DAG: %[[C4:.+]] = arith.constant 4 : index
  // CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %{{.+}}) step (%[[C2]], %[[C64]])
  // CHECK:   scf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}, %{{.+}}) to (%[[C2]], %[[C64]]) step (%{{.+}}, %[[C4]])
  // CHECK:     scf.parallel
  // CHECK:       memref.store
  // CHECK:     } {mapping = [#gpu.loop_dim_map<processor = sequential, {{.+}}>, #gpu.loop_dim_map<processor = sequential, {{.+}}>]}
  // CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_y, {{.+}}>, #gpu.loop_dim_map<processor = thread_x, {{.+}}>]}
  // CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_y, {{.+}}>, #gpu.loop_dim_map<processor = block_x, {{.+}}>]}
  // CHECK-NOT: sift.lowering_config
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c100) step (%c1, %c1) {
    memref.store %f, %m[%i, %j] : memref<8x100xf32>
  } {sift.lowering_config = #config}
  return
}

// -----

// One point per thread: no per-thread loop; a rank-0 config (a rank-1 sort's
// one-iteration loop) maps that iteration to one workgroup of one thread.
// CHECK-LABEL: func.func @rank0
func.func @rank0(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  // CHECK: scf.parallel
  // CHECK:   scf.parallel
  // CHECK-NOT: scf.parallel
  // CHECK:   } {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.+}}>]}
  // CHECK: } {mapping = [#gpu.loop_dim_map<processor = block_x, {{.+}}>]}
  scf.parallel (%i) = (%c0) to (%c1) step (%c1) {
    memref.store %f, %m[%c0] : memref<4xf32>
  } {sift.lowering_config = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [1, 1, 1], algorithm = row_per_thread>}
  return
}

// -----

func.func @no_config(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %f = arith.constant 1.0 : f32
  // expected-error @+1 {{parallel loop has no sift.lowering_config; strategy selection must see every op}}
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %f, %m[%i] : memref<4xf32>
  }
  return
}

// -----

// Fault dist-undistributed-write: after its own work, every thread also
// stores its thread index to the first element, an address no thread id
// selects.
// RUN: sift-opt %s -sift-map-to-gpu=inject-undistributed-write=1 -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=FAULT
// FAULT-LABEL: func.func @fault
// FAULT: scf.parallel
// FAULT:   scf.parallel (%[[T:[^,]+]], %{{.+}}) =
// FAULT:     memref.store %{{.+}}, %[[M:.+]][%{{.+}}, %{{.+}}] : memref<8x100xf32>
// FAULT:     %[[I:.+]] = arith.index_cast %[[T]] : index to i64
// FAULT-NEXT: %[[V:.+]] = arith.sitofp %[[I]] : i64 to f32
// FAULT-NEXT: memref.store %[[V]], %[[M]][%[[C0:.+]], %[[C0]]] : memref<8x100xf32>
// FAULT-NEXT: scf.reduce
func.func @fault(%m: memref<8x100xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c100 = arith.constant 100 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c100) step (%c1, %c1) {
    memref.store %f, %m[%i, %j] : memref<8x100xf32>
  } {sift.lowering_config = #sift.lowering_config<workgroup_tile = [2, 64], thread_tile = [1, 1], workgroup_size = [64, 2, 1], algorithm = elementwise>}
  return
}
