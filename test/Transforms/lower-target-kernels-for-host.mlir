// RUN: sift-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(sift-lower-warp-ops{target=nvvm},convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},reconcile-unrealized-casts,sift-lower-target-kernels-for-host))" | FileCheck %s --check-prefixes=CHECK,NVVM
// RUN: sift-opt %s --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx942},gpu.module(sift-lower-warp-ops{target=rocdl},convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=true chipset=gfx942},reconcile-unrealized-casts,sift-lower-target-kernels-for-host))" | FileCheck %s --check-prefixes=CHECK,ROCDL
// RUN: sift-opt %s --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx1100},gpu.module(sift-lower-warp-ops{target=rocdl},convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=true chipset=gfx1100},reconcile-unrealized-casts,sift-lower-target-kernels-for-host))" | FileCheck %s --check-prefix=WAVE32
// RUN: not sift-opt %s --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(sift-lower-warp-ops{target=nvvm},convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=true},reconcile-unrealized-casts,sift-lower-target-kernels-for-host{warp-size=48}))" 2>&1 | FileCheck %s --check-prefix=BADWARP
// sift-lower-target-kernels-for-host: a kernel as the GPU back end gets it
// (NVVM or ROCDL) becomes a host function of the emu device's ABI.

// The workgroup memory and the warp's lanes the runtime reads beside it.
// CHECK: llvm.mlir.global external constant @rank_workgroup_bytes(256 : i64)
// NVVM: llvm.mlir.global external constant @rank_warp_size(32 : i32)
// ROCDL: llvm.mlir.global external constant @rank_warp_size(64 : i32)
// WAVE32: llvm.mlir.global external constant @rank_warp_size(32 : i32)
// (context, buffers); the parameters loaded from the buffers, the old entry
// a block of them.
// CHECK: llvm.func @rank(%[[CTX:.+]]: !llvm.ptr, %[[BUFFERS:.+]]: !llvm.ptr) attributes {gpu.kernel
// CHECK-NOT: nvvm.kernel
// CHECK-NOT: rocdl.kernel
// CHECK: %[[SLOT0:.+]] = llvm.getelementptr %[[BUFFERS]][0]
// CHECK: %[[IN:.+]] = llvm.load %[[SLOT0]] : !llvm.ptr -> !llvm.ptr
// CHECK: llvm.br ^bb1(%[[IN]], %{{.+}} : !llvm.ptr, !llvm.ptr)
// The workgroup global: the context's workgroup memory (field 4).
// CHECK: llvm.getelementptr %[[CTX]][0, 4]
// The thread id: field 0.
// CHECK: %[[TIDP:.+]] = llvm.getelementptr %[[CTX]][0, 0, 0]
// CHECK: llvm.load %[[TIDP]] : !llvm.ptr -> i32
// The load of `in` checked against binding 0's bytes (field 10); out of
// bounds: the out-of-bounds callback (field 6) and the buffer's start.
// CHECK: llvm.getelementptr %[[CTX]][0, 10]
// CHECK: llvm.icmp "ule"
// CHECK: %[[SAFE:.+]] = llvm.select %{{.+}}, %{{.+}}, %[[BASE:.+]] : i1, !llvm.ptr
// CHECK: llvm.getelementptr %[[CTX]][0, 6]
// CHECK: llvm.load %[[SAFE]] : !llvm.ptr -> f32
// libdevice's expf is libm's.
// NVVM: llvm.call @expf(
// The ballot: the warp callback (field 9), kind 1.
// CHECK: llvm.getelementptr %[[CTX]][0, 9]
// CHECK: llvm.call %{{.+}}(%[[CTX]], %{{.+}}, %{{.+}}, %{{.+}}) : !llvm.ptr, (!llvm.ptr, i32, i32, i64) -> i64
// ROCDL's lane id (mbcnt) reads the context's lane (field 12).
// ROCDL: llvm.getelementptr %[[CTX]][0, 12]
// The store to workgroup memory is reported (field 8) with flags 3.
// CHECK: %[[FLAGS:.+]] = llvm.mlir.constant(3 : i32) : i32
// CHECK: llvm.getelementptr %[[CTX]][0, 8]
// CHECK: llvm.call %{{.+}}(%[[CTX]], %{{.+}}, %{{.+}}, %[[FLAGS]]) : !llvm.ptr, (!llvm.ptr, i32, i64, i32) -> ()
// The warp sync (NVVM's bar.warp.sync, ROCDL's wavefront fence): kind 0.
// CHECK: %[[SYNC:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK: llvm.getelementptr %[[CTX]][0, 9]
// CHECK: llvm.call %{{.+}}(%[[CTX]], %{{.+}}, %[[SYNC]], %{{.+}})
// The barrier: field 5, barrier 1.
// CHECK: llvm.getelementptr %[[CTX]][0, 5]
// No target op and no other address space is left.
// CHECK-NOT: nvvm.
// CHECK-NOT: rocdl.
// CHECK-NOT: !llvm.ptr<
// CHECK-NOT: llvm.fence
// CHECK: llvm.return
// BADWARP: warps of 48 lanes (32 or 64 are emulated)

// A shuffle up by 4: the lane it reads as the target computes it (on
// nvvm PTX's up, lane - 4 when at least the clamp's maxLane, a signed
// compare; on rocdl the bpermute's address / 4 modulo the wave), packed
// above the
// value for the warp callback (field 9) with kind 2; the result is the low
// 32 bits of what it returns.
// CHECK-LABEL: llvm.func @shift(
// NVVM: %[[UP:.+]] = llvm.sub %[[LANE:.+]], %{{.+}} : i32
// NVVM: %[[OK:.+]] = llvm.icmp "sge" %[[UP]], %{{.+}} : i32
// NVVM: llvm.select %[[OK]], %[[UP]], %[[LANE]] : i1, i32
// ROCDL: llvm.lshr %{{.+}}, %{{.+}} : i32
// CHECK: llvm.shl %{{.+}}, %{{.+}} : i64
// CHECK: %[[SHUFFLE:.+]] = llvm.mlir.constant(2 : i32) : i32
// CHECK: llvm.getelementptr %{{.+}}[0, 9]
// CHECK: %[[READ:.+]] = llvm.call %{{.+}}(%{{.+}}, %{{.+}}, %[[SHUFFLE]], %{{.+}}) : !llvm.ptr, (!llvm.ptr, i32, i32, i64) -> i64
// CHECK: llvm.trunc %[[READ]] : i64 to i32
// CHECK-NOT: nvvm.shfl
// CHECK-NOT: rocdl.ds_bpermute
// CHECK: llvm.return
gpu.module @kernels {
  gpu.func @rank(%in: memref<64xf32>, %out: memref<64xi32>) workgroup(%slots: memref<64xi32, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %x = memref.load %in[%tid] : memref<64xf32>
    %e = math.exp %x : f32
    %zero = arith.constant 0.0 : f32
    %p = arith.cmpf ogt, %e, %zero : f32
    %m = sift.warp_ballot %p
    memref.store %m, %slots[%tid] : memref<64xi32, #gpu.address_space<workgroup>>
    sift.warp_sync
    gpu.barrier
    %v = memref.load %slots[%c0] : memref<64xi32, #gpu.address_space<workgroup>>
    memref.store %v, %out[%tid] : memref<64xi32>
    gpu.return
  }
  gpu.func @shift(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %v = memref.load %out[%tid] : memref<64xi32>
    %up = sift.warp_shuffle_up %v, 4 : i32
    memref.store %up, %out[%tid] : memref<64xi32>
    gpu.return
  }
}
