// RUN: sift-opt %s -sift-workgroup-rows -split-input-file | FileCheck %s
// RUN: sift-opt %s -sift-workgroup-rows=inject-no-barrier=1 -split-input-file | FileCheck %s --check-prefix=FAULT
// sift.nms_per_class with workgroup_row: a workgroup per (batch, class)
// builds the suppression bit-mask in parallel, then thread 0 walks the
// sorted candidates with a row of removed bits.

#wg = #sift.lowering_config<workgroup_tile = [1, 1], thread_tile = [1, 1], workgroup_size = [32, 1, 1], algorithm = workgroup_row>
// CHECK-LABEL: func.func @small
// 2 x 3 (batch, class) pairs: 6 workgroups of 32 threads.
// CHECK-DAG: %[[C6:.+]] = arith.constant 6 : index
// CHECK-DAG: %[[C32:.+]] = arith.constant 32 : index
// CHECK: gpu.launch blocks(%[[BX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C6]], %{{.+}} = %{{.+}}, %{{.+}} = %{{.+}}) threads(%[[TX:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %[[C32]],
// 100 candidates: 2 words per row, the 100 x 2 mask in workgroup memory.
// CHECK:   %[[MASK:.+]] = memref.alloc() : memref<100x2xi64, #gpu.address_space<workgroup>>
// CHECK:   %[[REMOVED:.+]] = memref.alloc() : memref<2xi64, #gpu.address_space<workgroup>>
// CHECK:   scf.for %{{.+}} = %[[TX]] to %{{.+}} step %[[C32]]
// CHECK:     memref.store %{{.+}}, %[[REMOVED]]
// Every (i, w) word: IoU of later candidates with i, strictly over 0.5.
// CHECK:   scf.for %{{.+}} = %[[TX]] to %{{.+}} step %[[C32]]
// CHECK:     scf.for
// CHECK:       arith.divf
// CHECK:       arith.cmpf ogt, %{{.+}}, %cst
// CHECK:       arith.shli
// CHECK:     memref.store %{{.+}}, %[[MASK]]
// CHECK:   gpu.barrier
// Thread 0 selects: score strictly over 0.25, room, bit clear.
// CHECK:   %[[FIRST:.+]] = arith.cmpi eq, %[[TX]], %c0
// CHECK:   scf.if %[[FIRST]]
// CHECK:     scf.for
// CHECK:       arith.cmpf ogt
// CHECK:       memref.load %[[REMOVED]]
// CHECK:       scf.if
// CHECK:         memref.store %{{.+}}, %{{.+}} : memref<2x3x5xi64>
// CHECK:         memref.load %[[MASK]]
// CHECK:     memref.store %{{.+}}, %{{.+}} : memref<2x3xi64>
// CHECK-NOT: sift.nms_per_class
// FAULT-LABEL: func.func @small
// FAULT-NOT: gpu.barrier
// FAULT: return
func.func @small(%boxes: memref<2x100x4xf32>, %sorted: memref<2x3x100xf32>,
                 %order: memref<2x3x100xi64>, %slots: memref<2x3x5xi64>,
                 %counts: memref<2x3xi64>) {
  sift.nms_per_class max_output_boxes_per_class(5) iou_threshold(0.5) score_threshold(0.25) {sift.lowering_config = #wg} ins(%boxes, %sorted, %order : memref<2x100x4xf32>, memref<2x3x100xf32>, memref<2x3x100xi64>) outs(%slots, %counts : memref<2x3x5xi64>, memref<2x3xi64>)
  return
}

// -----

// 2000 candidates: a 2000 x 32 mask (500 KiB) does not fit workgroup memory
// and is a global buffer per (batch, class), allocated before the launch
// (the plan's temporary), never inside the kernel.
#wg = #sift.lowering_config<workgroup_tile = [1, 1], thread_tile = [1, 1], workgroup_size = [256, 1, 1], algorithm = workgroup_row>
// CHECK-LABEL: func.func @large
// CHECK: %[[MASK:.+]] = memref.alloc() : memref<4x2000x32xi64>
// CHECK: gpu.launch
// CHECK-NOT: memref.alloc() : memref<2000x32xi64
// CHECK:   memref.alloc() : memref<32xi64, #gpu.address_space<workgroup>>
// CHECK:   memref.store %{{.+}}, %[[MASK]][%{{.+}}, %{{.+}}, %{{.+}}] : memref<4x2000x32xi64>
// CHECK:   gpu.barrier
func.func @large(%boxes: memref<1x2000x4xf16>, %sorted: memref<1x4x2000xf16>,
                 %order: memref<1x4x2000xi64>, %slots: memref<1x4x7xi64>,
                 %counts: memref<1x4xi64>) {
  sift.nms_per_class max_output_boxes_per_class(7) iou_threshold(0.75) center_point_box(1) {sift.lowering_config = #wg} ins(%boxes, %sorted, %order : memref<1x2000x4xf16>, memref<1x4x2000xf16>, memref<1x4x2000xi64>) outs(%slots, %counts : memref<1x4x7xi64>, memref<1x4xi64>)
  return
}
