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
// A column's 64 boxes staged in workgroup memory, then each thread's word.
// CHECK:   %[[STAGED:.+]] = memref.alloc() : memref<256xf32, #gpu.address_space<workgroup>>
// CHECK:   scf.for
// CHECK:     memref.store %{{.+}}, %[[STAGED]]
// CHECK:     gpu.barrier
// CHECK:     scf.for
// CHECK:       memref.load %[[STAGED]]
// CHECK:       arith.divf
// CHECK:       arith.cmpf ogt
// CHECK:       arith.shli
// CHECK:     scf.if
// CHECK:       memref.store %{{.+}}, %[[MASK]]
// CHECK:     gpu.barrier
// Walk: a workgroup of 32 threads per (batch, class).
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C6]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C32]],
// CHECK:   %[[REMOVED:.+]] = memref.alloc() : memref<2xi64, #gpu.address_space<workgroup>>
// CHECK:   %[[DIAG:.+]] = memref.alloc() : memref<64xi64, #gpu.address_space<workgroup>>
// CHECK:   %[[KEPT:.+]] = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
// CHECK:   gpu.barrier
// CHECK:   scf.for {{.+}} iter_args
// Stop once max_out (5) are kept.
// CHECK:     arith.cmpi slt, %{{.+}}, %c5_i64
// CHECK:     scf.if
// CHECK:       memref.load %[[MASK]]
// CHECK:       memref.store %{{.+}}, %[[DIAG]]
// CHECK:       gpu.barrier
// Thread 0 decides the block: slots, kept offsets, the diagonal words.
// CHECK:       arith.cmpi eq, %[[TX]], %c0
// CHECK:       memref.load %[[REMOVED]]
// CHECK:         memref.store %{{.+}}, %{{.+}} : memref<2x3x5xi64>
// CHECK:         memref.store %{{.+}}, %[[KEPT]]
// CHECK:         memref.load %[[DIAG]]
// CHECK:       gpu.barrier
// Every thread merges the kept rows into the later removed words.
// CHECK:       memref.load %[[KEPT]]
// CHECK:       memref.load %[[MASK]]
// CHECK:       memref.store %{{.+}}, %[[REMOVED]]
// CHECK:       gpu.barrier
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

// The fault merges one kept row fewer.
// NOTMERGED-LABEL: func.func @small
// NOTMERGED: gpu.launch
// NOTMERGED: gpu.launch
// NOTMERGED: memref.load %{{.+}}[%c1{{.*}}] : memref<2xi64, #gpu.address_space<workgroup>>
// NOTMERGED: arith.subi
// NOTMERGED: arith.cmpi ugt
// NOTMERGED: arith.select
// NOTMERGED: memref.load %{{.+}} : memref<64xi32, #gpu.address_space<workgroup>>
// MERGED-LABEL: func.func @small
// MERGED: gpu.launch
// MERGED: gpu.launch
// MERGED: memref.load %{{.+}}[%c1{{.*}}] : memref<2xi64, #gpu.address_space<workgroup>>
// MERGED-NOT: arith.select
// MERGED: memref.load %{{.+}} : memref<64xi32, #gpu.address_space<workgroup>>

// NOBARRIER-LABEL: func.func @small
// NOBARRIER-NOT: gpu.barrier
// NOBARRIER: return
func.func @small(%boxes: memref<2x100x4xf32>, %sorted: memref<2x3x100xf32>,
                 %order: memref<2x3x100xi64>, %slots: memref<2x3x5xi64>,
                 %counts: memref<2x3xi64>) {
  sift.nms_per_class max_output_boxes_per_class(5) iou_threshold(0.5) score_threshold(0.25) {sift.lowering_config = #mb} ins(%boxes, %sorted, %order : memref<2x100x4xf32>, memref<2x3x100xf32>, memref<2x3x100xi64>) outs(%slots, %counts : memref<2x3x5xi64>, memref<2x3xi64>)
  return
}
