// RUN: sift-opt %s -sift-workgroup-rows -split-input-file | FileCheck %s
// RUN: sift-opt %s -sift-workgroup-rows=inject-radix-scan-lost-carry=1 -split-input-file | FileCheck %s --check-prefix=CARRY
// RUN: sift-opt %s -sift-workgroup-rows=inject-no-barrier=1 -split-input-file | FileCheck %s --check-prefix=NOBARRIER
// RUN: sift-opt %s -sift-workgroup-rows=inject-radix-lookback-skips-one=1 -split-input-file | FileCheck %s --check-prefix=LOOKBACK
// RUN: sift-opt %s -sift-workgroup-rows=inject-radix-match-peer-bit-lost=1 -split-input-file | FileCheck %s --check-prefix=PEERBIT
// RUN: sift-opt %s -sift-workgroup-rows=match-masks-budget=49152 -split-input-file | FileCheck %s --check-prefix=MASKS
// RUN: sift-opt %s -sift-workgroup-rows="match-masks-budget=49152 inject-radix-match-peer-bit-lost=1" -split-input-file | FileCheck %s --check-prefix=MASKPEER
// RUN: sift-opt %s -sift-workgroup-rows=match-masks-budget=4000 -split-input-file | FileCheck %s --check-prefix=MASKFULL
// RUN: sift-opt %s -sift-workgroup-rows=match-masks-budget=6000 -split-input-file | FileCheck %s --check-prefix=OVERLAY
// RUN: sift-opt %s -sift-workgroup-rows=match-masks-budget=7000 -split-input-file | FileCheck %s --check-prefix=BESIDE
// Algorithm radix_sort: plan buffers, then per 8-bit digit of the keys'
// order bits a count, a scan and a scatter launch.

#radix = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [4, 1, 1], algorithm = radix_sort, row_tile = 8>
// 3 rows of 37 in tiles of 8: 5 tiles a row, 15 count and scatter
// workgroups; 4 passes for f32 keys.
// CHECK-LABEL: func.func @sort_rows
// Ping-pong keys and row positions, a copy of the second operand, the
// tiles' digit counts (256 x 5 a row) and the digits' totals.
// CHECK: %[[K0:.+]] = memref.alloc() : memref<3x37xf32>
// CHECK: %[[S0:.+]] = memref.alloc() : memref<3x37xi32>
// CHECK: %[[K1:.+]] = memref.alloc() : memref<3x37xf32>
// CHECK: %[[S1:.+]] = memref.alloc() : memref<3x37xi32>
// CHECK: %[[COPY:.+]] = memref.alloc() : memref<3x37xi32>
// CHECK: %[[COUNTS:.+]] = memref.alloc() : memref<3x1280xi32>
// CHECK: %[[TOTALS:.+]] = memref.alloc() : memref<3x256xi32>
// Pass 0, count: a workgroup per tile (8 threads: counting takes up to 512),
// a histogram in workgroup memory; the first pass reads the op's operands
// and copies the second aside.
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c15, %{{.+}} = %c1, %{{.+}} = %c1) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c8,
// CHECK:   memref.alloc() : memref<256xi32, #gpu.address_space<workgroup>>
// CHECK:   gpu.barrier
// CHECK:   memref.load %arg0
// CHECK:   memref.store %{{.+}}, %[[COPY]]
// CHECK:   memref.atomic_rmw addi
// CHECK:   gpu.barrier
// CHECK:   memref.store %{{.+}}, %[[COUNTS]]
// Pass 0, scan: 5 tiles are fewer than 32, so a workgroup of 256 threads a
// row, each thread scanning its digit's 5 tiles alone (no barrier).
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c3, {{.+}} threads(%[[D:.+]], %{{.+}}, %{{.+}}) in (%{{.+}} = %c256,
// CHECK-NOT: gpu.barrier
// CHECK:   scf.for
// CHECK:   memref.load %[[COUNTS]]
// CHECK:   memref.store %{{.+}}, %[[COUNTS]]
// CHECK-NOT: gpu.barrier
// CHECK:   memref.store %{{.+}}, %[[TOTALS]][%{{.+}}, %[[D]]]
// Pass 0, scatter: the tile staged with a gap after each thread's 2 items
// (8 + 4 slots), the split counts (16 + 1 a thread), the scan's partials,
// the digits' starts and the buckets' bases.
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c15{{(_[0-9]+)?}}, {{.+}} threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c4{{(_[0-9]+)?}},
// CHECK:   memref.alloc() : memref<12xf32, #gpu.address_space<workgroup>>
// CHECK:   memref.alloc() : memref<12xi32, #gpu.address_space<workgroup>>
// CHECK:   memref.alloc() : memref<68xi32, #gpu.address_space<workgroup>>
// CHECK:   memref.alloc() : memref<256xi32, #gpu.address_space<workgroup>>
// CHECK:   memref.load %[[TOTALS]]
// CHECK:   memref.store %{{.+}}, %[[K0]]
// CHECK:   memref.store %{{.+}}, %[[S0]]
// Pass 1 reads pass 0's buffers and writes the others.
// CHECK: gpu.launch
// CHECK:   memref.load %[[K0]]
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK:   memref.store %{{.+}}, %[[K1]]
// CHECK:   memref.store %{{.+}}, %[[S1]]
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.launch
// The last scatter writes the results: keys, the second operand gathered
// from its copy by row position.
// CHECK: gpu.launch
// CHECK:   memref.store %{{.+}}, %arg0[%{{.+}}, %{{.+}}] : memref<3x37xf32>
// CHECK:   memref.load %[[COPY]]
// CHECK:   memref.store %{{.+}}, %arg1[%{{.+}}, %{{.+}}] : memref<3x37xi32>
// CHECK-NOT: gpu.launch
// CHECK-NOT: sift.sort
// The fault: the tiles' serial scan drops the carry into odd tiles.
// CARRY-LABEL: func.func @sort_rows
// CARRY: gpu.launch
// CARRY: gpu.launch
// CARRY:   scf.for %[[T:[^ ]+]] = %c0
// CARRY:   %[[ODD:.+]] = arith.andi %[[T]], %c1{{.*}} : index
// CARRY:   %[[ISODD:.+]] = arith.cmpi ne, %[[ODD]]
// CARRY:   arith.select %[[ISODD]], %c0_i32{{.*}} : i32
// NOBARRIER-LABEL: func.func @sort_rows
// NOBARRIER-NOT: gpu.barrier
// NOBARRIER: return
func.func @sort_rows(%k: memref<3x37xf32>, %v: memref<3x37xi32>) {
  sift.sort dimension(1) descending {sift.lowering_config = #radix} outs(%k, %v : memref<3x37xf32>, memref<3x37xi32>)
  return
}

// -----

#radix = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [4, 1, 1], algorithm = radix_sort, row_tile = 8>
// 2 rows of 300 in tiles of 8: 38 tiles a row, so the scan takes a
// workgroup per (row, digit), 64 threads (the tiles rounded up to a power
// of two), its sums scanned by warp shuffles.
// CHECK-LABEL: func.func @long_rows
// CHECK: %[[COUNTS:.+]] = memref.alloc() : memref<2x9728xi32>
// CHECK: gpu.launch
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c512, {{.+}} threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c64,
// CHECK:   memref.load %[[COUNTS]]
// CHECK:   sift.warp_shuffle_up
// CHECK:   gpu.barrier
// CHECK:   memref.store %{{.+}}, %[[COUNTS]]
// The fault: the tiles' scan drops the carry into odd threads' chunks.
// CARRY-LABEL: func.func @long_rows
// CARRY: gpu.launch
// CARRY: gpu.launch {{.+}} threads(%[[TID:[^,]+]],
// CARRY:   %[[ODD:.+]] = arith.andi %[[TID]], %c1{{.*}} : index
// CARRY:   %[[ISODD:.+]] = arith.cmpi ne, %[[ODD]]
// CARRY:   arith.select %[[ISODD]], %c0_i32{{.*}} : i32
func.func @long_rows(%k: memref<2x300xi32>) {
  sift.sort dimension(1) ascending {sift.lowering_config = #radix} outs(%k : memref<2x300xi32>)
  return
}

// -----

#radix = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [2, 1, 1], algorithm = radix_sort, row_tile = 4>
// A top-k keeps the first k of the sorted row: f16 keys, 2 passes; the
// last scatter stores a value and an i64 index only below k.
// CHECK-LABEL: func.func @topk_row
// CHECK-COUNT-6: gpu.launch
// CHECK:   arith.cmpi ult, %{{.+}}, %c3
// CHECK:   scf.if
// CHECK:   memref.store %{{.+}}, %arg1[%{{.+}}] : memref<3xf16>
// CHECK:   arith.extsi %{{.+}} : i32 to i64
// CHECK:   memref.store %{{.+}}, %arg2[%{{.+}}] : memref<3xi64>
// CHECK-NOT: gpu.launch
func.func @topk_row(%x: memref<10xf16>, %v: memref<3xf16>, %i: memref<3xi64>) {
  sift.topk dimension(0) k(3) largest {sift.lowering_config = #radix} ins(%x : memref<10xf16>) outs(%v, %i : memref<3xf16>, memref<3xi64>)
  return
}

// -----

#radix = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [4, 1, 1], algorithm = radix_sort, row_tile = 16>
// A sort of keys alone moves keys alone: no row positions, in the plan
// buffers or the scatter's workgroup memory. The scatter loads its 4 keys a
// thread before it stores the first (the last one's past a partial tile's
// end clamped to it), and adds each element's place in the sorted tile to
// its digit's base (the bucket's start, the tile's offset in it, less the
// digit's start in the tile), which the threads compute a digit each.
// CHECK-LABEL: func.func @keys_alone
// CHECK: memref.alloc() : memref<1x37xi16>
// CHECK-NOT: memref<1x37xi32>
// CHECK: memref.alloc() : memref<1x37xi16>
// CHECK: memref.alloc() : memref<1x768xi32>
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: xi32, #gpu.address_space<workgroup>>
// CHECK:   memref.alloc() : memref<20xi16, #gpu.address_space<workgroup>>
// CHECK:   memref.alloc() : memref<20xi16, #gpu.address_space<workgroup>>
// CHECK:   %[[LAST:.+]] = arith.subi %{{.+}}, %c1{{.*}} : index
// CHECK-COUNT-4: arith.minui %{{.+}}, %[[LAST]] : index
// CHECK:   memref.load %arg0
// CHECK:   scf.if
// CHECK:   memref.store %{{.+}} : memref<20xi16, #gpu.address_space<workgroup>>
// CHECK:   memref.load %{{.+}}[%{{.+}}, %{{.+}}] : memref<1x768xi32>
// CHECK:   arith.subi
// CHECK:   gpu.barrier
// CHECK:   memref.store %{{.+}}, %{{.+}}[%{{.+}}, %{{.+}}] : memref<1x37xi16>
// CHECK: gpu.launch
func.func @keys_alone(%k: memref<37xi16>) {
  sift.sort dimension(0) ascending {sift.lowering_config = #radix} outs(%k : memref<37xi16>)
  return
}

// -----

#os = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [4, 1, 1], algorithm = radix_onesweep, row_tile = 16>
// radix_onesweep: plan buffers for every pass's digit counts (4 x 256),
// the tiles' status words (3 tiles x 256 digits, i64) and a ticket a pass;
// an init launch zeroes them, a histogram launch counts every pass's digits
// (workgroup-memory bins, then global atomics), and each pass is one launch:
// a workgroup takes its tile by ticket, counts its digits, publishes them,
// sorts the tile and walks back over earlier tiles' status words (atomic
// reads, spinning while one is unpublished) from the tile before it.
// CHECK-LABEL: func.func @onesweep
// CHECK: %[[HIST:.+]] = memref.alloc() : memref<1x1024xi32>
// CHECK: %[[STATUS:.+]] = memref.alloc() : memref<1x768xi64>
// CHECK: %[[TICKETS:.+]] = memref.alloc() : memref<1x4xi32>
// CHECK: gpu.launch
// CHECK:   memref.store %c0_i32{{.*}}, %[[HIST]]
// CHECK:   memref.store %c0_i64{{.*}}, %[[STATUS]]
// CHECK:   memref.store %c0_i32{{.*}}, %[[TICKETS]]
// CHECK: gpu.launch
// CHECK-COUNT-4: memref.atomic_rmw addi %c1_i32{{.*}} : (i32, memref<1024xi32, #gpu.address_space<workgroup>>)
// CHECK:   memref.atomic_rmw addi %{{.+}}, %[[HIST]]
// CHECK: gpu.launch
// CHECK:   memref.atomic_rmw addi %c1_i32{{.*}}, %[[TICKETS]]
// CHECK:   gpu.barrier
// CHECK:   memref.atomic_rmw assign %{{.+}}, %[[STATUS]]
// CHECK:   %[[FROM:.+]] = arith.subi %{{.+}}, %c1_i64 : i64
// CHECK:   scf.while (%{{.+}} = %[[FROM]], %{{.+}} = %c0_i32{{.*}})
// CHECK:     scf.while : () -> i64
// CHECK:       memref.extract_strided_metadata %[[STATUS]]
// CHECK:       %[[AT:.+]] = llvm.inttoptr
// CHECK:       llvm.load %[[AT]] atomic monotonic {alignment = 8 : i64} : !llvm.ptr -> i64
// CHECK:   memref.atomic_rmw assign %{{.+}}, %[[STATUS]]
// CHECK-COUNT-3: memref.atomic_rmw addi %c1_i32{{.*}}, %[[TICKETS]]
// CHECK-NOT: gpu.launch
// The fault: the walk starts two tiles back.
// LOOKBACK-LABEL: func.func @onesweep
// LOOKBACK: arith.subi %{{.+}}, %c2_i64 : i64
// LOOKBACK: scf.while
func.func @onesweep(%k: memref<37xf32>) {
  sift.sort dimension(0) ascending {sift.lowering_config = #os} outs(%k : memref<37xf32>)
  return
}

// -----

#match = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [32, 1, 1], algorithm = radix_match, row_tile = 64>
// radix_match: radix_sort's plan and count and scan launches (two passes
// for i16 keys), but each scatter ranks its tile by warp match: a warp's
// 256 digit counts in workgroup memory, and for each of a thread's 2 items
// nine ballots (the valid lanes, then one a digit bit), the warp's count
// read, a warp sync, the group's highest lane adding the group's size
// (a population count), a warp sync; no split table.
// CHECK-LABEL: func.func @match
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.launch blocks(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c2{{.*}}, %{{.+}} = %c1{{.*}}, %{{.+}} = %c1{{.*}}) threads(%{{.+}}, %{{.+}}, %{{.+}}) in (%{{.+}} = %c32,
// CHECK-NOT: memref<544xi32, #gpu.address_space<workgroup>>
// CHECK-COUNT-9: sift.warp_ballot
// CHECK: sift.warp_sync
// CHECK: %[[SIZE:.+]] = llvm.intr.ctpop
// CHECK: scf.if
// CHECK:   arith.addi %{{.+}}, %[[SIZE]] : i32
// CHECK:   memref.store
// CHECK: sift.warp_sync
// CHECK-COUNT-9: sift.warp_ballot
// CHECK-NOT: sift.warp_ballot
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK: gpu.launch
// CHECK-NOT: gpu.launch
// The fault: the digit's top bit has no ballot, eight a item.
// PEERBIT-LABEL: func.func @match
// PEERBIT-COUNT-8: sift.warp_ballot
// PEERBIT-NOT: sift.warp_ballot
// PEERBIT: sift.warp_sync
// With a budget for the table of peer masks (3,392 bytes of arrays and
// 1,024 of masks): no ballot; each valid lane ORs its bit into its digit's
// entry, the warp syncs, reads the entry (its peers) and the count, syncs,
// and the group's highest lane adds the group's size and clears the entry.
// MASKS-LABEL: func.func @match
// MASKS: gpu.launch
// MASKS: gpu.launch
// MASKS: gpu.launch
// MASKS-NOT: sift.warp_ballot
// MASKS: memref.atomic_rmw ori %{{.+}}, %[[MASK:alloc_[0-9]+]][%[[ENTRY:[0-9]+]]] : (i32, memref<256xi32, #gpu.address_space<workgroup>>)
// MASKS: sift.warp_sync
// MASKS-NEXT: %[[PEERS:.+]] = memref.load %[[MASK]][%[[ENTRY]]]
// MASKS: sift.warp_sync
// MASKS: llvm.intr.ctpop(%[[PEERS]])
// MASKS: scf.if
// MASKS:   memref.store %{{.+}}, %[[MASK]][
// MASKS: sift.warp_sync
// MASKS-NOT: sift.warp_ballot
// MASKS: gpu.launch
// The fault: the entry is the digit without its top bit.
// MASKPEER-LABEL: func.func @match
// MASKPEER-NOT: sift.warp_ballot
// MASKPEER: arith.andi %{{.+}}, %c127 : index
// MASKPEER: memref.atomic_rmw ori
// A budget the table does not fit: ballots.
// MASKFULL-LABEL: func.func @match
// MASKFULL-NOT: memref.atomic_rmw ori
// MASKFULL-COUNT-9: sift.warp_ballot
func.func @match(%k: memref<100xi16>) {
  sift.sort dimension(0) descending {sift.lowering_config = #match} outs(%k : memref<100xi16>)
  return
}

// -----

#match32 = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [32, 1, 1], algorithm = radix_match, row_tile = 512>
// f32 keys alone, 5,376 bytes of arrays: the lanes rank their keys from
// registers, loaded straight from the row, so the tile's only key array is
// the sorted one. A budget of 7,000 takes the table of peer masks beside
// it (1,024 bytes); one of 6,000 does not, and the table takes the start
// of that array instead, which is then i32: the ranking stores each key's
// bits there after its last item and the scatter reads them back as f32.
// CHECK-LABEL: func.func @match_f32
// BESIDE-LABEL: func.func @match_f32
// BESIDE: gpu.launch
// BESIDE: gpu.launch
// BESIDE: gpu.launch
// BESIDE: memref.alloc() : memref<544xf32, #gpu.address_space<workgroup>>
// BESIDE-NOT: memref<544x
// BESIDE: memref.load %arg0
// BESIDE-NOT: memref<544x
// BESIDE: memref.atomic_rmw ori %{{.+}}, %{{.+}}[%{{.+}}] : (i32, memref<256xi32, #gpu.address_space<workgroup>>)
// OVERLAY-LABEL: func.func @match_f32
// OVERLAY: gpu.launch
// OVERLAY: gpu.launch
// OVERLAY: gpu.launch
// OVERLAY-NOT: memref<544xf32, #gpu.address_space<workgroup>>
// OVERLAY: %[[TABLE:alloc_[0-9]+]] = memref.alloc() : memref<544xi32, #gpu.address_space<workgroup>>
// OVERLAY-NOT: memref<544xf32, #gpu.address_space<workgroup>>
// OVERLAY-NOT: memref<256xi32, #gpu.address_space<workgroup>>)
// OVERLAY: memref.atomic_rmw ori %{{.+}}, %[[TABLE]][%{{.+}}] : (i32, memref<544xi32, #gpu.address_space<workgroup>>)
// OVERLAY: gpu.barrier
// OVERLAY: %[[BITS:.+]] = arith.bitcast %{{.+}} : f32 to i32
// OVERLAY-NEXT: memref.store %[[BITS]], %[[TABLE]]
// OVERLAY: %[[LOADED:.+]] = memref.load %[[TABLE]]
// OVERLAY-NEXT: arith.bitcast %[[LOADED]] : i32 to f32
func.func @match_f32(%k: memref<1300xf32>) {
  sift.sort dimension(0) ascending {sift.lowering_config = #match32} outs(%k : memref<1300xf32>)
  return
}

// -----

#radix = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [4, 1, 1], algorithm = radix_sort, row_tile = 8>
// An argsort: the second operand is filled with each element's position
// along the sorted dimension right before the sort (a copy of the keys in
// between). The fill is erased, nothing is copied aside, and the last
// scatter writes each element's first position, its slot, as the payload.
// CHECK-LABEL: func.func @argsort
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.copy
// CHECK: memref.alloc() : memref<3x37xf32>
// CHECK-NEXT: memref.alloc() : memref<3x37xi32>
// CHECK-NEXT: memref.alloc() : memref<3x37xf32>
// CHECK-NEXT: memref.alloc() : memref<3x37xi32>
// CHECK-NEXT: memref.alloc() : memref<1xi32>
// CHECK: gpu.launch
// CHECK-NOT: memref.load %arg2
// CHECK: memref.store %{{.+}}, %arg1[%{{.+}}, %[[AT:.+]]] : memref<3x37xf32>
// CHECK-NOT: memref.load
// CHECK: %[[WIDE:.+]] = arith.extui %{{.+}} : i32 to i64
// CHECK-NEXT: memref.store %[[WIDE]], %arg2[%{{.+}}, %[[AT]]] : memref<3x37xi64>
// CHECK-NOT: gpu.launch
func.func @argsort(%x: memref<3x37xf32>, %k: memref<3x37xf32>, %i: memref<3x37xi64>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%i : memref<3x37xi64>) {
  ^bb0(%out: i64):
    %p = linalg.index 1 : index
    %c = arith.index_cast %p : index to i64
    linalg.yield %c : i64
  }
  linalg.copy ins(%x : memref<3x37xf32>) outs(%k : memref<3x37xf32>)
  sift.sort dimension(1) descending {sift.lowering_config = #radix} outs(%k, %i : memref<3x37xf32>, memref<3x37xi64>)
  return
}

// Not an iota of the sorted dimension (positions along dimension 0), and
// one that a copy overwrites before the sort (the copy folds into the
// row): both fills stay, and both payloads are copied aside and gathered.
// CHECK-LABEL: func.func @not_argsorts
// CHECK: linalg.generic
// CHECK:   linalg.index 0
// CHECK: linalg.generic
// CHECK:   linalg.index 1
// CHECK-NOT: linalg.copy
// Ping-pong keys and slots, then the two payloads' copies.
// CHECK: memref.alloc() : memref<3x37xf32>
// CHECK-NEXT: memref.alloc() : memref<3x37xi32>
// CHECK-NEXT: memref.alloc() : memref<3x37xf32>
// CHECK-NEXT: memref.alloc() : memref<3x37xi32>
// CHECK-NEXT: memref.alloc() : memref<3x37xi32>
// CHECK-NEXT: memref.alloc() : memref<3x37xi32>
// CHECK: memref.store %{{.+}}, %arg2[%{{.+}}, %{{.+}}] : memref<3x37xi32>
// CHECK: memref.store %{{.+}}, %arg3[%{{.+}}, %{{.+}}] : memref<3x37xi32>
func.func @not_argsorts(%x: memref<3x37xi32>, %k: memref<3x37xf32>, %i: memref<3x37xi32>, %j: memref<3x37xi32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%i : memref<3x37xi32>) {
  ^bb0(%out: i32):
    %p = linalg.index 0 : index
    %c = arith.index_cast %p : index to i32
    linalg.yield %c : i32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%j : memref<3x37xi32>) {
  ^bb0(%out: i32):
    %p = linalg.index 1 : index
    %c = arith.index_cast %p : index to i32
    linalg.yield %c : i32
  }
  linalg.copy ins(%x : memref<3x37xi32>) outs(%j : memref<3x37xi32>)
  sift.sort dimension(1) ascending {sift.lowering_config = #radix} outs(%k, %i, %j : memref<3x37xf32>, memref<3x37xi32>, memref<3x37xi32>)
  return
}
