// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-kernels-for-host))" | FileCheck %s
// A kernel lowered for the emu device (runtime/emu/EmuAbi.h): llvm.func
// @k(ptr %context, ptr %buffers); buffers are bare pointers read from the
// second argument; the workgroup attribution is the context's workgroup
// memory (field 4), its size exported; the private one a stack slot; ids
// read the context's arrays (fields 0-3); each barrier calls the context's
// callback (field 5) with its number in the kernel; an access out of its
// memref calls the out-of-bounds callback (field 6) with the access's
// number, the element and the size, and goes to element 0; every load and
// store of global or workgroup memory (not private) reports its address to
// the access callback (field 8), but for the loads of %in, which the kernel
// only loads from (no race without a write).

// CHECK-LABEL: gpu.module @kernels
// CHECK: llvm.mlir.global external constant @sum_workgroup_bytes(256 : i64)
// CHECK: llvm.func @sum(%[[CTX:.+]]: !llvm.ptr, %[[BUFS:.+]]: !llvm.ptr)
// CHECK:   %[[B0:.+]] = llvm.getelementptr %[[BUFS]][0] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:   llvm.load %[[B0]] : !llvm.ptr -> !llvm.ptr
// CHECK:   %[[B1:.+]] = llvm.getelementptr %[[BUFS]][1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
// CHECK:   llvm.load %[[B1]] : !llvm.ptr -> !llvm.ptr
// CHECK:   %[[WGF:.+]] = llvm.getelementptr %[[CTX]][0, 4]
// CHECK:   %[[WG:.+]] = llvm.load %[[WGF]] : !llvm.ptr -> !llvm.ptr
// CHECK:   llvm.getelementptr %[[WG]][0] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:   llvm.alloca %{{.+}} x i8 {alignment = 16 : i64}
// CHECK:   llvm.getelementptr %[[CTX]][0, 0, 0]
// CHECK:   llvm.zext %{{.+}} : i32 to i64
// CHECK:   llvm.getelementptr %[[CTX]][0, 1, 0]
// CHECK:   llvm.getelementptr %[[CTX]][0, 2, 0]
// CHECK:   llvm.icmp "ult"
// CHECK:   llvm.cond_br %{{.+}}, ^[[OK:.+]], ^[[OUT:bb[0-9]+]]
// CHECK: ^[[OUT]]:
// CHECK:   %[[FO:.+]] = llvm.getelementptr %[[CTX]][0, 6]
// CHECK:   %[[CBO:.+]] = llvm.load %[[FO]] : !llvm.ptr -> !llvm.ptr
// CHECK:   llvm.call %[[CBO]](%[[CTX]], %{{.+}}, %{{.+}}, %{{.+}}) : !llvm.ptr, (!llvm.ptr, i32, i64, i64) -> ()
// No access report for the load of %in (read-only); the store to
// workgroup memory's (field 8): its site, address and flags 3.
// CHECK-NOT: llvm.getelementptr %[[CTX]][0, 8]
// CHECK:   %[[FLAGS3:.+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK:   %[[FA:.+]] = llvm.getelementptr %[[CTX]][0, 8]
// CHECK:   %[[CBA:.+]] = llvm.load %[[FA]] : !llvm.ptr -> !llvm.ptr
// CHECK:   llvm.call %[[CBA]](%[[CTX]], %{{.+}}, %{{.+}}, %[[FLAGS3]]) : !llvm.ptr, (!llvm.ptr, i32, i64, i32) -> ()
// CHECK:   %[[S1:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:   %[[F1:.+]] = llvm.getelementptr %[[CTX]][0, 5]
// CHECK:   %[[CB1:.+]] = llvm.load %[[F1]] : !llvm.ptr -> !llvm.ptr
// CHECK:   llvm.call %[[CB1]](%[[CTX]], %[[S1]]) : !llvm.ptr, (!llvm.ptr, i32) -> ()
// The load of workgroup memory reports flags 2, the store to %out flags 1.
// CHECK:   %[[FLAGS2:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT: llvm.getelementptr %[[CTX]][0, 8]
// CHECK:   llvm.call %{{.+}}(%[[CTX]], %{{.+}}, %{{.+}}, %[[FLAGS2]])
// CHECK:   %[[FLAGS1:.+]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.getelementptr %[[CTX]][0, 8]
// CHECK:   llvm.call %{{.+}}(%[[CTX]], %{{.+}}, %{{.+}}, %[[FLAGS1]])
// CHECK:   %[[F2:.+]] = llvm.getelementptr %[[CTX]][0, 5]
// CHECK:   %[[CB2:.+]] = llvm.load %[[F2]] : !llvm.ptr -> !llvm.ptr
// CHECK:   llvm.call %[[CB2]](%[[CTX]], %{{.+}}) : !llvm.ptr, (!llvm.ptr, i32) -> ()
// CHECK:   llvm.return
// CHECK-NOT: gpu.
gpu.module @kernels {
  gpu.func @sum(%in: memref<8x64xi32>, %out: memref<8xi32>) workgroup(%partial: memref<64xi32, #gpu.address_space<workgroup>>) private(%tmp: memref<2xi32, #gpu.address_space<private>>) kernel {
    %t = gpu.thread_id x
    %g = gpu.block_id x
    %n = gpu.block_dim x
    %v = memref.load %in[%g, %t] : memref<8x64xi32>
    memref.store %v, %partial[%t] : memref<64xi32, #gpu.address_space<workgroup>>
    gpu.barrier
    %c0 = arith.constant 0 : index
    %is0 = arith.cmpi eq, %t, %c0 : index
    cf.cond_br %is0, ^sum, ^done
  ^sum:
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    cf.br ^loop(%c0, %z : index, i32)
  ^loop(%i: index, %acc: i32):
    %more = arith.cmpi ult, %i, %n : index
    cf.cond_br %more, ^body, ^write
  ^body:
    %x = memref.load %partial[%i] : memref<64xi32, #gpu.address_space<workgroup>>
    %acc2 = arith.addi %acc, %x : i32
    %i2 = arith.addi %i, %c1 : index
    cf.br ^loop(%i2, %acc2 : index, i32)
  ^write:
    memref.store %acc, %tmp[%c0] : memref<2xi32, #gpu.address_space<private>>
    %r = memref.load %tmp[%c0] : memref<2xi32, #gpu.address_space<private>>
    memref.store %r, %out[%g] : memref<8xi32>
    cf.br ^done
  ^done:
    gpu.barrier
    gpu.return
  }
}

// minimumf and maximumf become LLVM's minimum and maximum, which order -0
// below +0 (not arith-expand's compare and select, which ignore the sign
// of zero); floordivsi is expanded, since the host's arith-to-LLVM has no
// pattern for it.
// CHECK-LABEL: gpu.module @more
// CHECK: llvm.func @signed_zero
// CHECK-NOT: llvm.fcmp "ult"
// CHECK: llvm.intr.minimum(%{{.+}}, %{{.+}}) : (f64, f64) -> f64
// CHECK: llvm.intr.maximum(%{{.+}}, %{{.+}}) : (f64, f64) -> f64
// CHECK: llvm.sdiv
// CHECK: llvm.return
gpu.module @more {
  gpu.func @signed_zero(%io: memref<4xf64>, %n: memref<2xi32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %a = memref.load %io[%c0] : memref<4xf64>
    %b = memref.load %io[%c1] : memref<4xf64>
    %lo = arith.minimumf %a, %b : f64
    %hi = arith.maximumf %a, %b : f64
    memref.store %lo, %io[%c2] : memref<4xf64>
    memref.store %hi, %io[%c0] : memref<4xf64>
    %x = memref.load %n[%c0] : memref<2xi32>
    %y = memref.load %n[%c1] : memref<2xi32>
    %q = arith.floordivsi %x, %y : i32
    memref.store %q, %n[%c0] : memref<2xi32>
    gpu.return
  }
}
