// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=nvvm}))" | FileCheck %s --check-prefix=NVVM
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=rocdl}))" | FileCheck %s --check-prefix=ROCDL
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=rocdl inject-ballot-low-half=true}))" | FileCheck %s --check-prefix=LOWHALF
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=nvvm inject-warp-sync-dropped=true}))" | FileCheck %s --check-prefix=NOSYNC
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=rocdl inject-warp-sync-dropped=true}))" | FileCheck %s --check-prefix=NOSYNC
// RUN: not sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=host}))" 2>&1 | FileCheck %s --check-prefix=BAD
// sift-lower-warp-ops: radix_match's ballot and warp sync in each target's
// form.

// NVVM-LABEL: gpu.func @rank
// NVVM: %[[ALL:.+]] = arith.constant -1 : i32
// NVVM: %[[MASK:.+]] = nvvm.vote.sync ballot %[[ALL]], %[[P:.+]] -> i32
// NVVM: nvvm.bar.warp.sync %{{.+}} : i32
// NVVM: memref.store %[[MASK]]
// NVVM-NOT: sift.warp
// A wave64's ballot holds two warps: a lane shifts its half's bits down.
// ROCDL-LABEL: gpu.func @rank
// ROCDL: %[[WAVE:.+]] = rocdl.ballot %{{.+}} : i64
// ROCDL: %[[LANE:.+]] = gpu.lane_id
// ROCDL: %[[WIDE:.+]] = arith.index_castui %[[LANE]] : index to i64
// ROCDL: %[[HALF:.+]] = arith.andi %[[WIDE]], %c32_i64 : i64
// ROCDL: %[[DOWN:.+]] = arith.shrui %[[WAVE]], %[[HALF]] : i64
// ROCDL: %[[MASK:.+]] = arith.trunci %[[DOWN]] : i64 to i32
// ROCDL: llvm.fence syncscope("wavefront") acq_rel
// ROCDL: memref.store %[[MASK]]
// ROCDL-NOT: sift.warp
// Fault warp-ballot-low-half: every lane takes the low half.
// LOWHALF-LABEL: gpu.func @rank
// LOWHALF: %[[WAVE:.+]] = rocdl.ballot %{{.+}} : i64
// LOWHALF-NOT: gpu.lane_id
// LOWHALF: %[[MASK:.+]] = arith.trunci %[[WAVE]] : i64 to i32
// LOWHALF: memref.store %[[MASK]]
// Fault warp-sync-dropped: the ballot stays, the sync goes.
// NOSYNC-LABEL: gpu.func @rank
// NOSYNC-NOT: nvvm.bar.warp.sync
// NOSYNC-NOT: llvm.fence
// NOSYNC-NOT: sift.warp_sync
// NOSYNC: gpu.return
// BAD: sift-lower-warp-ops: target must be nvvm or rocdl, not 'host'
gpu.module @kernels {
  gpu.func @rank(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %c1 = arith.constant 1 : index
    %odd = arith.andi %tid, %c1 : index
    %c0 = arith.constant 0 : index
    %p = arith.cmpi ne, %odd, %c0 : index
    %m = sift.warp_ballot %p
    sift.warp_sync
    memref.store %m, %out[%tid] : memref<64xi32>
    gpu.return
  }
}
