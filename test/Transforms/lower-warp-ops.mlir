// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=nvvm}))" | FileCheck %s --check-prefix=NVVM
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=rocdl}))" | FileCheck %s --check-prefix=ROCDL
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=rocdl inject-ballot-low-half=true}))" | FileCheck %s --check-prefix=LOWHALF
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=nvvm inject-warp-sync-dropped=true}))" | FileCheck %s --check-prefix=NOSYNC
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=rocdl inject-warp-sync-dropped=true}))" | FileCheck %s --check-prefix=NOSYNC
// RUN: sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=rocdl inject-shuffle-wave-width=true}))" | FileCheck %s --check-prefix=WAVEWIDTH
// RUN: not sift-opt %s --pass-pipeline="builtin.module(gpu.module(sift-lower-warp-ops{target=host}))" 2>&1 | FileCheck %s --check-prefix=BAD
// sift-lower-warp-ops: radix_match's ballot and warp sync, the block
// scans' shuffle up, and warp_select's shuffle by lane and wave-wide any,
// in each target's form.

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

// A shuffle up by 4: PTX's shfl.sync up over the whole warp with a clamp
// of 0 (one segment of 32 lanes).
// NVVM-LABEL: gpu.func @scan
// NVVM-DAG: %[[ALL:.+]] = arith.constant -1 : i32
// NVVM-DAG: %[[BY:.+]] = arith.constant 4 : i32
// NVVM-DAG: %[[CLAMP:.+]] = arith.constant 0 : i32
// NVVM: %[[UP:.+]] = nvvm.shfl.sync up %[[ALL]], %[[V:.+]], %[[BY]], %[[CLAMP]] : i32 -> i32
// NVVM: memref.store %[[UP]]
// NVVM-NOT: sift.warp
// ROCDL's wave of 64 holds two warps: a lane reads lane - 4 where its place
// in its warp (lane & 31) is at least 4, else itself.
// ROCDL-LABEL: gpu.func @scan
// ROCDL: %[[LANE:.+]] = arith.index_castui %{{.+}} : index to i32
// ROCDL: %[[PLACE:.+]] = arith.andi %[[LANE]], %c31_i32 : i32
// ROCDL: %[[READS:.+]] = arith.cmpi uge, %[[PLACE]], %c4_i32 : i32
// ROCDL: %[[BELOW:.+]] = arith.subi %[[LANE]], %{{.+}} : i32
// ROCDL: %[[FROM:.+]] = arith.select %[[READS]], %[[BELOW]], %[[LANE]] : i32
// ROCDL: %[[ADDRESS:.+]] = arith.shli %[[FROM]], %c2_i32 : i32
// ROCDL: %[[UP:.+]] = rocdl.ds_bpermute %[[ADDRESS]], %{{.+}} : (i32, i32) -> i32
// ROCDL: memref.store %[[UP]]
// Fault warp-shuffle-wave-width: the source counted as in a wave of 32,
// from the lane's place in its warp: the upper warp reads the lower's.
// WAVEWIDTH-LABEL: gpu.func @scan
// WAVEWIDTH: %[[LANE:.+]] = arith.index_castui %{{.+}} : index to i32
// WAVEWIDTH: %[[PLACE:.+]] = arith.andi %[[LANE]], %c31_i32 : i32
// WAVEWIDTH: %[[READS:.+]] = arith.cmpi uge, %[[PLACE]], %c4_i32 : i32
// WAVEWIDTH: %[[BELOW:.+]] = arith.subi %[[PLACE]], %{{.+}} : i32
// WAVEWIDTH: %[[FROM:.+]] = arith.select %[[READS]], %[[BELOW]], %[[PLACE]] : i32
// WAVEWIDTH: rocdl.ds_bpermute
// A shuffle from lane 5 and a wave's any: PTX's shfl.sync idx (clamp 31,
// one segment of 32 lanes), a ballot not zero.
// NVVM-LABEL: gpu.func @queue
// NVVM-DAG: %[[ALL:.+]] = arith.constant -1 : i32
// NVVM-DAG: %[[CLAMP:.+]] = arith.constant 31 : i32
// NVVM: %[[READ:.+]] = nvvm.shfl.sync idx %[[ALL]], %{{.+}}, %[[SRC:.+]], %[[CLAMP]] : i32 -> i32
// NVVM: memref.store %[[READ]]
// NVVM: %[[VOTES:.+]] = nvvm.vote.sync ballot
// NVVM: %[[ANY:.+]] = arith.cmpi ne, %[[VOTES]], %c0_i32{{.*}} : i32
// NVVM: scf.if %[[ANY]]
// NVVM-NOT: sift.w
// With ROCDL a lane reads lane 5 of its own warp: its lane's warp base (lane &
// ~31) or the source's place; any lane of the whole wave of 64.
// ROCDL-LABEL: gpu.func @queue
// ROCDL: %[[PLACE:.+]] = arith.andi %{{.+}}, %c31_i32 : i32
// ROCDL: %[[LANE:.+]] = arith.index_castui %{{.+}} : index to i32
// ROCDL: %[[BASE:.+]] = arith.andi %[[LANE]], %c-32_i32 : i32
// ROCDL: %[[FROM:.+]] = arith.ori %[[BASE]], %[[PLACE]] : i32
// ROCDL: %[[ADDRESS:.+]] = arith.shli %[[FROM]], %c2_i32 : i32
// ROCDL: %[[READ:.+]] = rocdl.ds_bpermute %[[ADDRESS]], %{{.+}} : (i32, i32) -> i32
// ROCDL: memref.store %[[READ]]
// ROCDL: %[[WAVE:.+]] = rocdl.ballot %{{.+}} : i64
// ROCDL: %[[ANY:.+]] = arith.cmpi ne, %[[WAVE]], %c0_i64 : i64
// ROCDL: scf.if %[[ANY]]
// Fault warp-shuffle-wave-width: the source lane of the wave, not of the
// warp: the upper warp reads the lower's.
// WAVEWIDTH-LABEL: gpu.func @queue
// WAVEWIDTH: %[[PLACE:.+]] = arith.andi %{{.+}}, %c31_i32 : i32
// WAVEWIDTH-NOT: gpu.lane_id
// WAVEWIDTH: %[[ADDRESS:.+]] = arith.shli %[[PLACE]], %c2_i32 : i32
// WAVEWIDTH: rocdl.ds_bpermute %[[ADDRESS]]
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
  gpu.func @scan(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %v = memref.load %out[%tid] : memref<64xi32>
    %up = sift.warp_shuffle_up %v, 4 : i32
    memref.store %up, %out[%tid] : memref<64xi32>
    gpu.return
  }
  gpu.func @queue(%out: memref<64xi32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
    %tid = gpu.thread_id x
    %v = memref.load %out[%tid] : memref<64xi32>
    %lane = arith.constant 5 : i32
    %read = sift.warp_shuffle_idx %v, %lane : i32
    memref.store %read, %out[%tid] : memref<64xi32>
    %zero = arith.constant 0 : i32
    %p = arith.cmpi ne, %v, %zero : i32
    %any = sift.wave_any %p
    scf.if %any {
      memref.store %zero, %out[%tid] : memref<64xi32>
    }
    gpu.return
  }
}
