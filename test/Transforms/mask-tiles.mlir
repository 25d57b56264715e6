// RUN: sift-opt %s -sift-workgroup-rows | FileCheck %s
// RUN: sift-opt %s -sift-workgroup-rows -canonicalize -cse | FileCheck %s --check-prefix=OWN
// RUN: sift-opt %s -sift-workgroup-rows=inject-nms-tile-last-row-first-box=1 -canonicalize -cse | FileCheck %s --check-prefix=SHIFTED
// RUN: sift-opt %s -sift-workgroup-rows=inject-nms-mask-last-bit-lost=1 | FileCheck %s --check-prefix=LASTBIT
// sift.nms_per_class with mask_tiles (tileandfuse's own mask): a flat grid
// of thread tiles of 4 candidates x one mask word, each thread's boxes in
// private memory, no workgroup memory; then mask_blocks' walk.

#mt = #sift.lowering_config<workgroup_tile = [1, 1], thread_tile = [1, 1], workgroup_size = [32, 1, 1], algorithm = mask_tiles, row_tile = 4>
// CHECK-LABEL: func.func @small
// CHECK: %[[MASK:.+]] = memref.alloc() : memref<6x100x2xi64>
// 6 rows x 2 x 2 word pairs x 16 tiles a block = 384 tiles: 3 workgroups
// of 128 threads.
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG: %[[C128:.+]] = arith.constant 128 : index
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C3]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C128]],
// CHECK-NOT: #gpu.address_space<workgroup>
// Only tiles on or above the diagonal (bw >= bi) within the grid.
// CHECK:   arith.cmpi uge
// CHECK:   scf.if
// The candidates: past the NaN scores, then strictly above 0.25.
// CHECK:     scf.while
// CHECK:       arith.cmpf uno
// CHECK:     scf.while
// CHECK:       arith.cmpf ogt, %{{.+}}, %cst
// The tile's 4 own boxes, through the sorted order, then one loop over the
// column's 64 boxes carrying the 4 words.
// CHECK-COUNT-4: memref.load %{{.+}} : memref<2x3x100xi64>
// CHECK:       %[[WORDS:.+]]:4 = scf.for %{{.+}} = %{{.+}} to %c64{{(_[0-9]+)?}} step %{{.+}} iter_args
// The column box: one load of the order for the 4 IoUs.
// CHECK:         memref.load %{{.+}} : memref<2x3x100xi64>
// CHECK-NOT:     memref.load %{{.+}} : memref<2x3x100xi64>
// CHECK-COUNT-4: arith.divf
// CHECK:         scf.yield
// Each of the 4 words stored when its candidate is one.
// CHECK-COUNT-4: memref.store %{{.+}}, %[[MASK]]
// Walk: a workgroup of 32 threads per (batch, class), as mask_blocks'.
// CHECK: gpu.launch
// CHECK:   memref.alloc() : memref<2xi64, #gpu.address_space<workgroup>>
// CHECK-NOT: sift.nms_per_class

// The boxes of the tile's rows: 4 distinct loads of the order.
// OWN-LABEL: func.func @small
// OWN-COUNT-4: memref.load %{{.+}} : memref<2x3x100xi64>
// OWN: scf.for

// The fault gives the last row the first row's box: 3 distinct loads.
// SHIFTED-LABEL: func.func @small
// SHIFTED-COUNT-3: memref.load %{{.+}} : memref<2x3x100xi64>
// SHIFTED-NOT: memref.load %{{.+}} : memref<2x3x100xi64>
// SHIFTED: scf.for

// The fault never sets bit 63 in the tiles either.
// LASTBIT-LABEL: func.func @small
// LASTBIT: scf.for %{{.+}} = %{{.+}} to %c63{{(_[0-9]+)?}} step %{{.+}} iter_args
func.func @small(%boxes: memref<2x100x4xf32>, %sorted: memref<2x3x100xf32>,
                 %order: memref<2x3x100xi64>, %slots: memref<2x3x5xi64>,
                 %counts: memref<2x3xi64>) {
  sift.nms_per_class max_output_boxes_per_class(5) iou_threshold(0.5) score_threshold(0.25) {sift.lowering_config = #mt} ins(%boxes, %sorted, %order : memref<2x100x4xf32>, memref<2x3x100xf32>, memref<2x3x100xi64>) outs(%slots, %counts : memref<2x3x5xi64>, memref<2x3xi64>)
  return
}
