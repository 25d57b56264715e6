// RUN: sift-opt %s -sift-workgroup-rows | FileCheck %s
// RUN: sift-opt %s -sift-workgroup-rows=stage-nms-boxes=0 | FileCheck %s --check-prefix=PRIVATE
// RUN: sift-opt %s -sift-workgroup-rows=inject-nms-mask-last-bit-lost=1 | FileCheck %s --check-prefix=LASTBIT
// RUN: sift-opt %s -sift-workgroup-rows | FileCheck %s --check-prefix=ALLBITS
// RUN: sift-opt %s -sift-workgroup-rows=inject-nms-walk-row-not-merged=1 | FileCheck %s --check-prefix=NOTMERGED
// RUN: sift-opt %s -sift-workgroup-rows | FileCheck %s --check-prefix=MERGED
// RUN: sift-opt %s -sift-workgroup-rows=inject-no-barrier=1 | FileCheck %s --check-prefix=NOBARRIER
// sift.nms_per_class with mask_blocks: a mask dispatch over the GPU and a
// walk dispatch, a workgroup per (batch, class), over a host-allocated mask.

#mb = #sift.lowering_config<workgroup_tile = [1, 1], thread_tile = [1, 1], workgroup_size = [32, 1, 1], algorithm = mask_blocks, row_tile = 2>
// CHECK-LABEL: func.func @small
// 2 x 3 (batch, class) rows of 100 candidates: 2 words a candidate.
// CHECK: %[[MASK:.+]] = memref.alloc() : memref<6x100x2xi64>
// Mask: 6 rows x 2 blocks x 1 group of 2 words, 64 threads each.
// CHECK-DAG: %[[C12:.+]] = arith.constant 12 : index
// CHECK-DAG: %[[C64:.+]] = arith.constant 64 : index
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C12]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C64]],
// The candidates: past the NaN scores, then strictly above 0.25.
// CHECK:   scf.while
// CHECK:     arith.cmpf uno
// CHECK:   scf.while
// CHECK:     arith.cmpf ogt, %{{.+}}, %cst
// A column's 64 boxes staged in workgroup memory, then each thread's word;
// the division only where the boxes overlap.
// CHECK:   %[[STAGED:.+]] = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK:   scf.for
// CHECK:     memref.store %{{.+}}, %[[STAGED]]
// CHECK:     gpu.barrier
// CHECK:     scf.for
// CHECK:       memref.load %[[STAGED]]
// CHECK:       scf.if
// CHECK:         arith.divf
// CHECK:         arith.cmpf ogt
// CHECK:       arith.shli
// CHECK:     scf.if
// CHECK:       memref.store %{{.+}}, %[[MASK]]
// CHECK:     gpu.barrier
// Walk: a workgroup of 32 threads per (batch, class).
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C6]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C32]],
// CHECK:   %[[REMOVED:.+]] = memref.alloc() : memref<2xi64, #gpu.address_space<workgroup>>
// Two buffers of a block's places: this block's, the next one's.
// CHECK:   %[[DIAG:.+]] = memref.alloc() : memref<128xi64, #gpu.address_space<workgroup>>
// CHECK:   %[[BOXES:.+]] = memref.alloc() : memref<128xi64, #gpu.address_space<workgroup>>
// CHECK:   %[[SHARED:.+]] = memref.alloc() : memref<2xi64, #gpu.address_space<workgroup>>
// Block 0's places before the first barrier.
// CHECK:   memref.load %[[MASK]]
// CHECK:   memref.store %{{.+}}, %[[DIAG]]
// CHECK:   memref.store %{{.+}}, %[[BOXES]]
// CHECK:   gpu.barrier
// CHECK:   scf.for {{.+}} iter_args
// Stop once max_out (5) are kept.
// CHECK:     arith.cmpi slt, %{{.+}}, %c5_i64
// CHECK:     scf.if
// Thread 0 decides the block (unrolled): kept places are the clear bits
// of the removed word, each ORing in its diagonal word; capped at max_out.
// CHECK:       arith.cmpi eq, %[[TX]], %c0
// CHECK:       memref.load %[[REMOVED]]
// CHECK-COUNT-64: memref.load %[[DIAG]]
// CHECK:         arith.cmpi sgt
// CHECK:         scf.if
// CHECK:         memref.store %{{.+}}, %[[SHARED]]
// CHECK:       gpu.barrier
// Every thread: kept boxes to their slots, the next block's places, then
// the kept rows merged into the later removed words (64 loads, no branch);
// one barrier ends the block.
// CHECK:       memref.load %[[SHARED]]
// CHECK:           memref.load %[[BOXES]]
// CHECK:           memref.store %{{.+}}, %{{.+}} : memref<2x3x5xi64>
// CHECK:       memref.load %[[MASK]]
// CHECK:       memref.store %{{.+}}, %[[DIAG]]
// CHECK:       scf.if
// CHECK:         scf.for
// CHECK-COUNT-64: memref.load %[[MASK]]
// CHECK:           memref.store %{{.+}}, %[[REMOVED]]
// CHECK:       gpu.barrier
// CHECK-NOT:   gpu.barrier
// CHECK:     scf.yield
// CHECK:   memref.store %{{.+}}, %{{.+}} : memref<2x3xi64>
// CHECK-NOT: sift.nms_per_class

// tileandfuse: each thread reads the column's boxes itself.
// PRIVATE-LABEL: func.func @small
// PRIVATE-NOT: memref<256xf32, #gpu.address_space<workgroup>>
// PRIVATE: memref<2xi64, #gpu.address_space<workgroup>>

// The fault never sets bit 63: the word loop stops at 63.
// LASTBIT-LABEL: func.func @small
// LASTBIT: scf.for %{{.+}} = %{{.+}} to %c63{{(_[0-9]+)?}} step
// LASTBIT:   arith.shli
// ALLBITS-LABEL: func.func @small
// ALLBITS: scf.for %{{.+}} = %{{.+}} to %c64{{(_[0-9]+)?}} step
// ALLBITS:   arith.shli

// The fault merges the kept places but the highest: its bit smeared down
// (shifts by 1 to 32) and cleared.
// NOTMERGED-LABEL: func.func @small
// NOTMERGED: gpu.launch
// NOTMERGED: gpu.launch
// NOTMERGED: memref.store %{{.+}}, %{{.+}} : memref<2x3x5xi64>
// NOTMERGED: arith.ori
// NOTMERGED: arith.xori
// NOTMERGED: memref.load %{{.+}} : memref<6x100x2xi64>
// MERGED-LABEL: func.func @small
// MERGED: gpu.launch
// MERGED: gpu.launch
// MERGED: memref.store %{{.+}}, %{{.+}} : memref<2x3x5xi64>
// MERGED-NOT: arith.ori
// MERGED: memref.load %{{.+}} : memref<6x100x2xi64>

// NOBARRIER-LABEL: func.func @small
// NOBARRIER-NOT: gpu.barrier
// NOBARRIER: return
func.func @small(%boxes: memref<2x100x4xf32>, %sorted: memref<2x3x100xf32>,
                 %order: memref<2x3x100xi64>, %slots: memref<2x3x5xi64>,
                 %counts: memref<2x3xi64>) {
  sift.nms_per_class max_output_boxes_per_class(5) iou_threshold(0.5) score_threshold(0.25) {sift.lowering_config = #mb} ins(%boxes, %sorted, %order : memref<2x100x4xf32>, memref<2x3x100xf32>, memref<2x3x100xi64>) outs(%slots, %counts : memref<2x3x5xi64>, memref<2x3xi64>)
  return
}
