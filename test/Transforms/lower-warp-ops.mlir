// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=nvvm}))" | FileCheck %s --check-prefix=NVVM
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=rocdl}))" | FileCheck %s --check-prefix=ROCDL
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=host}))" | FileCheck %s --check-prefix=HOST
// RUN: not sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=spirv}))" 2>&1 | FileCheck %s --check-prefix=BAD
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
// The emu device: a slot a thread in workgroup memory, a barrier, the
// warp's 32 slots ORed, a barrier; the sync a barrier.
// HOST-LABEL: gpu.func @rank
// HOST: %[[SLOTS:.+]] = memref.alloc() : memref<64xi32, #gpu.address_space<workgroup>>
// HOST: %[[BIT:.+]] = arith.extui %{{.+}} : i1 to i32
// HOST: memref.store %[[BIT]], %[[SLOTS]][%[[ME:.+]]]
// HOST: gpu.barrier
// HOST: %[[FIRST:.+]] = arith.muli %{{.+}}, %c32
// HOST: %[[MASK:.+]] = scf.for %[[T:.+]] = %[[FIRST]] to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %c0_i32) -> (i32) {
// HOST:   %[[S:.+]] = memref.load %[[SLOTS]][%[[T]]]
// HOST:   arith.shli %[[S]]
// HOST:   arith.ori %[[ACC]]
// HOST: gpu.barrier
// HOST: gpu.barrier
// HOST: memref.store %[[MASK]]
// HOST-NOT: sift.warp
// BAD: sift-lower-warp-ops: target must be nvvm, rocdl or host, not 'spirv'
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
