// RUN: sift-opt %s -pass-pipeline='builtin.module(gpu.module(sift-kernel-allocs-to-attributions))' | FileCheck %s
// RUN: sift-opt %s -pass-pipeline='builtin.module(gpu.module(sift-kernel-allocs-to-attributions{inject-wg-alloc-as-malloc=1}))' | FileCheck %s --check-prefix=FAULT
// RUN: sift-opt %s -pass-pipeline='builtin.module(gpu.module(sift-kernel-allocs-to-attributions{inject-wg-unaligned=1}))' | FileCheck %s --check-prefix=UNALIGNED
// Kernel buffers become gpu.func attributions: workgroup allocs shared by
// the workgroup, private allocas (even inside loops) stack slots, each
// 16-byte aligned (the widest vector access LLVM forms on them).

module attributes {gpu.container_module} {
  gpu.module @k {
    // CHECK-LABEL: gpu.func @f
    // CHECK-SAME: workgroup(%[[W:[^ ]+]] : memref<64xi32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
    // CHECK-SAME: private(%[[P:[^ ]+]] : memref<4xf32, #gpu.address_space<private>> {llvm.align = 16 : i64})
    // CHECK-NOT: memref.alloc
    // CHECK-NOT: memref.dealloc
    // CHECK: memref.store %{{.+}}, %[[W]]
    // CHECK: memref.store %{{.+}}, %[[P]]
    // Dynamic shapes and other spaces are left alone.
    // CHECK: memref.alloc(%{{.+}}) : memref<?xi32, #gpu.address_space<workgroup>>
    // FAULT-LABEL: gpu.func @f
    // FAULT-SAME: private(
    // FAULT: memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
    // UNALIGNED-LABEL: gpu.func @f
    // UNALIGNED-SAME: workgroup(%{{[^ ]+}} : memref<64xi32, #gpu.address_space<workgroup>>)
    // UNALIGNED-NOT: llvm.align
    gpu.func @f(%n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %i = arith.constant 7 : i32
      %f = arith.constant 1.0 : f32
      %w = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
      memref.store %i, %w[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
      scf.for %j = %c0 to %c4 step %c1 {
        %p = memref.alloca() : memref<4xf32, #gpu.address_space<private>>
        memref.store %f, %p[%j] : memref<4xf32, #gpu.address_space<private>>
      }
      %d = memref.alloc(%n) : memref<?xi32, #gpu.address_space<workgroup>>
      memref.dealloc %w : memref<64xi32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
