// RUN: not sift-opt %s --sift-promote-temporaries -split-input-file 2>/dev/null | FileCheck %s
// RUN: not sift-opt %s --sift-promote-temporaries -split-input-file 2>&1 | FileCheck %s --check-prefix=ERR
// The memory-space policy behind IREE #20505: a temporary allocated inside a
// loop mapped to GPU threads belongs to one thread, so it becomes a
// memref.alloca in private memory; left as a plain memref.alloc it would be
// bufferized into global memory and the kernel would call malloc (what
// fault tf-global-temp re-creates by skipping this pass). Its deallocation
// goes with it, and its users (views included) move to the private buffer.

// CHECK-LABEL: func.func @per_thread
// CHECK: scf.forall
// CHECK-NEXT: %[[P:.+]] = memref.alloca() : memref<8xf32, #gpu.address_space<private>>
// CHECK-NOT: memref.alloc()
// CHECK: memref.copy %{{.+}}, %[[P]] : {{.*}} to memref<8xf32, #gpu.address_space<private>>
// CHECK: memref.copy %[[P]], %{{.+}} : memref<8xf32, #gpu.address_space<private>> to
// CHECK-NOT: memref.dealloc
// CHECK: mapping = [#gpu.thread<x>]
func.func @per_thread(%out: memref<64x8xf32>) {
  scf.forall (%t) in (64) {
    %tmp = memref.alloc() : memref<8xf32>
    %row = memref.subview %out[%t, 0] [1, 8] [1, 1] : memref<64x8xf32> to memref<8xf32, strided<[1], offset: ?>>
    memref.copy %row, %tmp : memref<8xf32, strided<[1], offset: ?>> to memref<8xf32>
    memref.copy %tmp, %row : memref<8xf32> to memref<8xf32, strided<[1], offset: ?>>
    memref.dealloc %tmp : memref<8xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// A partial tile's temporary has a dynamic size: the largest tile (the
// size's constant bound, 4) is allocated and a view of the real size used.
// CHECK-LABEL: func.func @partial_tile
// CHECK: %[[N:.+]] = affine.min
// CHECK: %[[P:.+]] = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
// CHECK: %[[V:.+]] = memref.subview %[[P]][0] [%[[N]]] [1]
// CHECK-NOT: memref.alloc(
// CHECK: memref.copy %{{.+}}, %[[V]]
func.func @partial_tile(%out: memref<10xf32>) {
  scf.forall (%t) in (3) {
    %start = affine.apply affine_map<(d0) -> (d0 * 4)>(%t)
    %n = affine.min affine_map<(d0) -> (4, 10 - d0 * 4)>(%t)
    %tmp = memref.alloc(%n) : memref<?xf32>
    %tile = memref.subview %out[%start] [%n] [1] : memref<10xf32> to memref<?xf32, strided<[1], offset: ?>>
    memref.copy %tile, %tmp : memref<?xf32, strided<[1], offset: ?>> to memref<?xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// A space chosen already is kept: workgroup memory becomes an attribution
// later, and a global temporary stays as it is so an oracle still sees it.
// CHECK-LABEL: func.func @workgroup_and_global
// CHECK: memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<4xf32, #gpu.address_space<global>>
// CHECK-NOT: alloca
func.func @workgroup_and_global(%out: memref<64xf32>) {
  scf.forall (%t) in (64) {
    %wg = memref.alloc() : memref<64xf32, #gpu.address_space<workgroup>>
    %g = memref.alloc() : memref<4xf32, #gpu.address_space<global>>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// The thread loop need not be the direct parent: an allocation in a
// sequential loop inside it, inside a loop over blocks, is still per thread.
// Its alignment is kept, and a strided view of it is rebuilt on the private
// buffer (its type gains the space).
// CHECK-LABEL: func.func @nested
// CHECK: scf.forall
// CHECK: scf.forall
// CHECK: scf.for
// CHECK-NEXT: %[[P:.+]] = memref.alloca() {alignment = 16 : i64} : memref<8xf32, #gpu.address_space<private>>
// CHECK-NOT: memref.alloc(
// CHECK: %[[V:.+]] = memref.subview %[[P]][0] [4] [2] : memref<8xf32, #gpu.address_space<private>> to memref<4xf32, strided<[2]>, #gpu.address_space<private>>
// CHECK: memref.copy %{{.+}}, %[[V]] : {{.*}} to memref<4xf32, strided<[2]>, #gpu.address_space<private>>
// CHECK: mapping = [#gpu.thread<x>]
// CHECK: mapping = [#gpu.block<x>]
func.func @nested(%out: memref<4x64x8xf32>, %lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  scf.forall (%b) in (4) {
    scf.forall (%t) in (64) {
      scf.for %i = %lb to %ub step %c1 {
        %tmp = memref.alloc() {alignment = 16 : i64} : memref<8xf32>
        %row = memref.subview %out[%b, %t, 0] [1, 1, 8] [1, 1, 1] : memref<4x64x8xf32> to memref<8xf32, strided<[1], offset: ?>>
        %v = memref.subview %tmp[0] [4] [2] : memref<8xf32> to memref<4xf32, strided<[2]>>
        %rv = memref.subview %row[0] [4] [2] : memref<8xf32, strided<[1], offset: ?>> to memref<4xf32, strided<[2], offset: ?>>
        memref.copy %rv, %v : memref<4xf32, strided<[2], offset: ?>> to memref<4xf32, strided<[2]>>
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// Outside thread loops (on the host, or in a loop over blocks) an
// allocation is not per thread: left alone.
// CHECK-LABEL: func.func @outside_threads
// CHECK: memref.alloc() : memref<8xf32>
// CHECK: scf.forall
// CHECK-NEXT: memref.alloc() : memref<8xf32>
// CHECK-NOT: alloca
func.func @outside_threads(%n: index) {
  %tmp = memref.alloc() : memref<8xf32>
  scf.forall (%b) in (4) {
    %blk = memref.alloc() : memref<8xf32>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A per-thread temporary without a bounded size cannot live in private
// memory: an error naming the type, never a silent heap allocation.
// ERR: error: 'memref.alloc' op a per-thread temporary needs a bounded size for private memory, found 'memref<?xf32>'
func.func @unbounded(%out: memref<?xf32>, %n: index) {
  scf.forall (%t) in (4) {
    %tmp = memref.alloc(%n) : memref<?xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// A view the policy cannot rebuild on the private buffer (only subviews are
// retargeted) is an error too, never a temporary silently left in global
// memory.
// ERR: error: 'memref.collapse_shape' op views a per-thread temporary in a way the memory-space policy cannot retarget
func.func @reshaped(%out: memref<8xf32>) {
  scf.forall (%t) in (4) {
    %tmp = memref.alloc() : memref<2x4xf32>
    %flat = memref.collapse_shape %tmp [[0, 1]] : memref<2x4xf32> into memref<8xf32>
    memref.copy %flat, %out : memref<8xf32> to memref<8xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}
