//===- Passes.td - The sift compiler's passes -------------------*- tablegen -*-===//
//
// Every pass of the sift compiler, declared once here; each is implemented in
// its own file (Name.cpp) with the generated base class: in Transforms/, but
// for sift-select-lowering-strategy, which is Strategy/'s.
//
//===----------------------------------------------------------------------===//

#ifndef SIFT_PASSES_PASSES_TD
#define SIFT_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def MarkInputsReadOnly : Pass<"sift-mark-inputs-read-only", "mlir::ModuleOp"> {
  let summary = "Marks the arguments of public functions as read-only buffers";
  let description = [{
    Sets `bufferization.writable = false` on every tensor argument of every
    public function, so One-Shot Bufferize copies an input before writing it
    in place (a sort on an argument) instead of clobbering the caller's
    buffer, which the runtime may read again.
  }];
}

def DistinctResultBuffers : Pass<"sift-distinct-result-buffers",
                                  "mlir::func::FuncOp"> {
  let summary = "Gives every returned buffer of a function its own allocation";
  let description = [{
    A buffer a `func.return` returns a second time (two results of one value,
    as One-Shot Bufferize makes of tensors with no elements) gets a new
    `memref.alloc` and a `memref.copy` into it. Upstream's
    buffer-results-to-out-params with hoist-static-allocs replaces and
    erases a returned allocation once per result and crashes on the second
    (LLVM 22); after this pass each result is an allocation of its own.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def DecomposeNms : Pass<"sift-decompose-nms", "mlir::func::FuncOp"> {
  let summary = "Splits sift.nms into a sort, a per-class selection and a "
                "compaction";
  let description = [{
    Rewrites every `sift.nms` on tensors into ops every pipeline already
    lowers: an iota of box indices, a stable `sift.sort` of each (batch,
    class) row of scores by descending score moving the iota along (NaN
    first, ties to the lower box index: exactly NMS's visiting order),
    `sift.nms_per_class` (tilable over batch and class) writing each class's
    selected boxes into fixed slots and its count, and two `linalg.generic`
    ops that compact the slots into `selected` (rows of -1 past the count)
    and sum the counts into `count`. When no class can select anything
    (B * C * N * max_out = 0) it writes -1 rows and a count of 0 directly.
    The compacted output's row of a class depends on every earlier class's
    count, which is why `sift.nms` itself does not tile.
  }];
  let options = [
    Option<"injectIouGe", "inject-iou-ge", "bool", /*default=*/"false",
           "Fault nms-iou-ge: suppress at IoU >= iou_threshold">,
    Option<"injectUnnormalizedCorners", "inject-unnormalized-corners", "bool",
           /*default=*/"false",
           "Fault nms-unnormalized-corners: flipped corners used as given">,
    Option<"injectScoreThresholdGe", "inject-score-threshold-ge", "bool",
           /*default=*/"false",
           "Fault nms-score-threshold-ge: keep scores >= score_threshold">,
    Option<"injectSortGlobalTemp", "inject-sort-global-temp", "bool",
           /*default=*/"false",
           "Fault nms-sort-global-temp: the score sort's staging buffers "
           "stay in global memory">,
  ];
  let dependentDialects = ["::sift::SiftDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SelectLoweringStrategy
    : Pass<"sift-select-lowering-strategy", "mlir::ModuleOp"> {
  let summary = "Chooses how every op is tiled and mapped";
  let description = [{
    Writes `sift.pipeline = #sift.pipeline<...>` on every sift and linalg op
    and, for the GPU pipelines, `sift.lowering_config =
    #sift.lowering_config<...>`: the innermost (up to three) dimensions of
    the iteration domain are spread over the workgroup's threads (x is the
    innermost), one point per thread; sift ops compute a row per thread
    (`row_per_thread`), linalg ops an element (`elementwise`). Ops that
    already have a config keep it, so running the pass again only fills in
    ops created since (bufferization copies). With `random-seed` >= 0 each
    config is drawn at random among the valid ones, reproducibly from the
    seed: that is where lowering bugs hide.
  }];
  let options = [
    Option<"pipeline", "pipeline", "std::string", /*default=*/"\"distribute\"",
           "cpu, tileandfuse or distribute">,
    Option<"randomSeed", "random-seed", "int64_t", /*default=*/"-1",
           "Draw random valid configs from this seed (-1: the default)">,
    Option<"maxWorkgroupMemory", "max-workgroup-memory", "int64_t",
           /*default=*/"49152",
           "Workgroup memory (bytes) a staged row may use">,
    Option<"maxPrivateMemory", "max-private-memory", "int64_t",
           /*default=*/"512",
           "Private memory (bytes per thread) a staged row may use">,
    Option<"maxThreadTileMemory", "max-thread-tile-memory", "int64_t",
           /*default=*/"16384",
           "Random tileandfuse configs give a thread only as many rows of "
           "a sift op as fit this many bytes">,
  ];
  let dependentDialects = ["::sift::SiftDialect"];
}

def MapToGpu : Pass<"sift-map-to-gpu", "mlir::func::FuncOp"> {
  let summary = "Tiles parallel loops by their lowering config and maps them";
  let description = [{
    First every `scf.forall` mapped to `#gpu.block` / `#gpu.thread` (from
    tileandfuse; bufferized, so without results) becomes an `scf.parallel`
    with the equivalent mapping. Then every `scf.parallel` that carries a
    `sift.lowering_config` is tiled into
    workgroups (`workgroup_tile`), threads and per-thread iterations
    (`thread_tile`); the loops get GPU mapping attributes (the innermost
    domain dimension to x, then y, z; further dimensions sequential) for
    `convert-parallel-loops-to-gpu`. A loop without a config is an error:
    strategy selection must have seen its op.

    With `inject-undistributed-write` (fault dist-undistributed-write, IREE
    #20358) each workgroup also rewrites the first element of the first
    buffer its loop stores to, outside the thread loop: every thread of the
    workgroup writes it, racing with the thread that owns it.
  }];
  let options = [
    Option<"injectUndistributedWrite", "inject-undistributed-write", "bool",
           /*default=*/"false", "Fault dist-undistributed-write">,
  ];
  let dependentDialects = ["::sift::SiftDialect", "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect"];
}

def SplitTopk : Pass<"sift-split-topk", "mlir::func::FuncOp"> {
  let summary = "Splits split_select top-k ops into per-chunk and candidate top-k's";
  let description = [{
    On tensors, before tiling (tileandfuse): a `sift.topk` whose lowering
    config says `split_select` (along its last dimension, `row_tile` a chunk
    of at least k elements dividing the row into two or more) becomes the
    split-reduction shape: `tensor.expand_shape` views the row as chunks, a
    top-k of every chunk (marked `sift.split_part`, so strategy selection
    gives it a thread per chunk) keeps k candidates a chunk, a top-k of the
    collapsed candidates picks the values (split again while its row is
    still two or more chunks longer than k), and an elementwise
    `linalg.generic` maps each chosen candidate back to its input index.
    The new ops get their configs from a second strategy selection.

    With `inject-lost-chunk-offset` (fault split-lost-chunk-offset) the
    mapping back forgets the chunk's start: a candidate's index is its index
    within its chunk.
  }];
  let options = [
    Option<"injectLostChunkOffset", "inject-lost-chunk-offset", "bool",
           /*default=*/"false", "Fault split-lost-chunk-offset">,
  ];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileAndFuse : Pass<"sift-tile-and-fuse", "mlir::func::FuncOp"> {
  let summary = "Tiles ops into workgroup and thread scf.forall loops, fusing producers";
  let description = [{
    On tensors, before bufferization: every sift op, and every linalg op not
    fused into another, is tiled by its `#sift.lowering_config` into an
    `scf.forall` over workgroups (`#gpu.block<x|y|z>`, x innermost) and,
    inside it, one over threads (`#gpu.thread<x|y|z>`), and the elementwise
    linalg producers of its operands are fused into both levels, so each
    thread computes its own slice of them: their temporaries are per-thread.
    Domain dimensions beyond the innermost three are not tiled. An op with an
    empty domain (a rank-1 sort) gets one-iteration loops.

    With `inject-keep-unused-results` (fault tf-keep-unused-results, IREE
    #20699) an unused result of a sift op is neither dropped nor
    privatized: inside the thread loop its destination becomes a
    `bufferization.alloc_tensor` in `#gpu.address_space<global>`, which
    bufferizes to a heap allocation in the kernel.

    Fusion is budgeted: a fused producer's thread tile becomes a per-thread
    temporary in private memory (a whole row per thread for a sift op), so
    a consumer's producers are fused only when the per-thread tiles of all
    of them fit `max-private-memory` bytes; otherwise none is, and each
    producer is tiled as a consumer of its own (a kernel writing a global
    buffer).
  }];
  let options = [
    Option<"injectKeepUnusedResults", "inject-keep-unused-results", "bool",
           /*default=*/"false",
           "Fault tf-keep-unused-results: unused sift results get a "
           "per-thread buffer in global memory">,
    Option<"maxPrivateMemory", "max-private-memory", "int64_t",
           /*default=*/"16384",
           "Bytes per thread that fused producers' tiles may take">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def PromoteTemporaries : Pass<"sift-promote-temporaries", "mlir::func::FuncOp"> {
  let summary = "The memory-space policy for temporaries inside GPU loops";
  let description = [{
    A `memref.alloc` with no memory space inside a loop mapped to threads (a
    per-thread temporary, from a fused producer's tile or an unused result)
    becomes a `memref.alloca` in `#gpu.address_space<private>`; one in
    workgroup memory stays for the GPU tail to make an attribution, and one
    whose space was chosen already (global) is left as it is. Anything else is left
    alone, so a temporary the policy misses still shows up (as `malloc` in a
    kernel) instead of being hidden. Fault tf-global-temp (IREE #20505) skips
    this pass.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def LowerToLoops : Pass<"sift-lower-to-loops"> {
  let summary = "Lowers sift ops on memrefs to scf loops";
  let description = [{
    Replaces every sift op with buffer semantics by a loop nest over its
    iteration domain (TilingInterface) around its scalar implementation: one
    row of a sort or top-k per point. Ops on tensors are an error.

    With `parallel`, the nest is one `scf.parallel` (the rows are
    independent), which GPU pipelines map to workgroups and threads; an op
    with an empty domain (rank 1) gets a one-iteration loop so its row still
    runs inside a kernel. In that mode linalg ops on memrefs become parallel
    loops too, and every loop keeps its op's `sift.lowering_config`. Ops
    already inside a parallel loop or an scf.forall are distributed: they
    get sequential loops in either mode.
  }];
  let options = [
    Option<"parallel", "parallel", "bool", /*default=*/"false",
           "Emit one scf.parallel over the domain instead of scf.for loops">,
    Option<"crashOnPrime", "inject-crash-on-prime", "bool",
           /*default=*/"false",
           "Fault crash-on-prime: abort when a sorted dimension is prime">,
    Option<"hangOnK1", "inject-hang-on-k1", "bool", /*default=*/"false",
           "Fault hang-on-k1: never return when a top-k has k = 1">,
    Option<"crashAtRandom", "inject-crash-at-random", "bool",
           /*default=*/"false",
           "Fault crash-at-random: abort on about half of the sorts">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def WorkgroupRows : Pass<"sift-workgroup-rows", "mlir::func::FuncOp"> {
  let summary = "A workgroup per row: sift ops to cooperative gpu.launch kernels";
  let description = [{
    Every bufferized sift op whose lowering config says `workgroup_row`
    becomes a `gpu.launch` with one workgroup per row of its domain and
    `workgroup_size[0]` threads: the threads stage the row (every sort
    operand, or the top-k input) in workgroup `memref.alloc`s, `gpu.barrier`,
    sort an index array with a bitonic network ordered by (key, index), with
    a barrier after every step, and write the row back through the sorted
    indices (top-k: the first k values and their indices). The (key, index)
    order makes the result stable and gives top-k ties to the lower index.
    The GPU tail turns the staging allocs into workgroup attributions.

    A sift op whose config says `merge_rows` (rows longer than a workgroup's
    memory) becomes several launches over host-allocated plan buffers: a
    workgroup per `row_tile` elements sorts its tile as above, then merge
    passes double the sorted runs until one is left, then the results are
    written (MergeRows.cpp). A sift.topk whose config says `radix_select`
    becomes a radix select over key digits, a histogram and a pick launch
    per digit, then a filter and a ranking launch (RadixSelect.cpp). A
    sift.sort with a named order or a sift.topk whose config says
    `radix_sort` becomes an LSD radix sort, a count, a scan and a scatter
    launch per 8-bit digit (RadixSort.cpp); `radix_onesweep` the same sort
    with a histogram launch for every digit and one scatter launch a digit
    that finds its offsets by decoupled look-back. A sift.topk whose config
    says `register_select` becomes a launch of a workgroup per chunk of a row,
    each thread's k best in registers and a tree merge in workgroup memory,
    and for rows of several chunks a second launch over their candidates
    (RegisterSelect.cpp); `warp_select` the same launches, each warp's k
    best spread over its lanes (a warp queue).

    With `inject-no-barrier` (fault dist-no-barrier, IREE #20358) no barrier
    is emitted: threads read staging slots others have not written yet. With
    `inject-merge-drop-last` (fault merge-drop-last) every merge loses the
    last element of its second run; with `inject-radix-digit-off-by-one`
    (fault radix-digit-off-by-one) the radix select counts every element one
    bin too high; with `inject-radix-compact-drops-better` (fault
    radix-compact-drops-better) its compaction forgets the elements already
    known to be among the k; with `inject-radix-fused-bins-kept` (fault
    radix-fused-bins-kept) its one-launch form keeps a pass's histogram
    into the next; with `inject-radix-scan-lost-carry` (fault
    radix-scan-lost-carry) the radix sort's scan of the tiles' counts loses
    the carry into odd threads' chunks; with
    `inject-select-merge-one-level-short` (fault
    select-merge-one-level-short) the register select's tree merge stops a
    level early; with `inject-radix-lookback-skips-one` (fault
    radix-lookback-skips-one) the onesweep look-back starts a tile too
    early, missing its predecessor's counts; with
    `inject-radix-tile-by-block` (fault radix-tile-by-block) its scatter
    takes the tile by workgroup id, not by ticket; with
    `inject-warp-queue-head-unfilled` (fault warp-queue-head-unfilled)
    warp_select's queue insert hands lane 0 its own slot as the one above;
    with `inject-bare-keys-unchecked` (fault bare-keys-unchecked)
    workgroup_row's bare-key sort of 32-bit floats skips its check for
    zeros and NaNs.
    `sift.nms_per_class` with
    `mask_blocks` becomes a mask dispatch and a walk dispatch (MaskNms.cpp);
    `inject-nms-mask-last-bit-lost` (fault nms-mask-last-bit-lost) never sets
    a mask word's bit 63, `inject-nms-walk-row-not-merged` (fault
    nms-walk-row-not-merged) leaves the last kept box of each block out of
    the removed set of later blocks. With `mask_tiles` the mask dispatch is
    a grid of thread tiles instead (each thread R candidates x one word, its
    boxes in private memory); `inject-nms-tile-last-row-first-box` (fault
    nms-tile-last-row-first-box) gives a tile's last row its first row's box.
  }];
  let options = [
    Option<"injectNoBarrier", "inject-no-barrier", "bool", /*default=*/"false",
           "Fault dist-no-barrier">,
    Option<"injectMergeDropLast", "inject-merge-drop-last", "bool",
           /*default=*/"false", "Fault merge-drop-last">,
    Option<"injectRadixDigitOffByOne", "inject-radix-digit-off-by-one",
           "bool", /*default=*/"false", "Fault radix-digit-off-by-one">,
    Option<"injectRadixScanLostCarry", "inject-radix-scan-lost-carry",
           "bool", /*default=*/"false", "Fault radix-scan-lost-carry">,
    Option<"injectSelectMergeOneLevelShort",
           "inject-select-merge-one-level-short", "bool", /*default=*/"false",
           "Fault select-merge-one-level-short">,
    Option<"injectRadixLookbackSkipsOne", "inject-radix-lookback-skips-one",
           "bool", /*default=*/"false", "Fault radix-lookback-skips-one">,
    Option<"injectRadixTileByBlock", "inject-radix-tile-by-block", "bool",
           /*default=*/"false", "Fault radix-tile-by-block">,
    Option<"injectRadixTailOverrun", "inject-radix-tail-overrun", "bool",
           /*default=*/"false", "Fault radix-tail-overrun">,
    Option<"injectRadixSplitUnzeroed", "inject-radix-split-unzeroed", "bool",
           /*default=*/"false", "Fault radix-split-unzeroed">,
    Option<"injectScanBarrierInBranch", "inject-scan-barrier-in-branch",
           "bool", /*default=*/"false", "Fault scan-barrier-in-branch">,
    Option<"injectRadixMatchPeerBitLost", "inject-radix-match-peer-bit-lost",
           "bool", /*default=*/"false", "Fault radix-match-peer-bit-lost">,
    Option<"matchMasksBudget", "match-masks-budget", "int64_t",
           /*default=*/"0",
           "radix_match: the workgroup memory (bytes) a workgroup may take "
           "with a table of its warps' peer masks (found by atomic ORs "
           "instead of ballots); 0: ballots always">,
    Option<"injectSelectDoneRace", "inject-select-done-race", "bool",
           /*default=*/"false", "Fault select-done-race">,
    Option<"injectWarpQueueHeadUnfilled", "inject-warp-queue-head-unfilled",
           "bool", /*default=*/"false", "Fault warp-queue-head-unfilled">,
    Option<"injectBf16OrderF16Layout", "inject-bf16-order-f16-layout", "bool",
           /*default=*/"false", "Fault bf16-order-f16-layout">,
    Option<"injectBareKeysUnchecked", "inject-bare-keys-unchecked", "bool",
           /*default=*/"false", "Fault bare-keys-unchecked">,
    Option<"injectRadixCompactDropsBetter", "inject-radix-compact-drops-better",
           "bool", /*default=*/"false", "Fault radix-compact-drops-better">,
    Option<"injectRadixFusedBinsKept", "inject-radix-fused-bins-kept",
           "bool", /*default=*/"false", "Fault radix-fused-bins-kept">,
    Option<"injectNmsMaskLastBitLost", "inject-nms-mask-last-bit-lost",
           "bool", /*default=*/"false", "Fault nms-mask-last-bit-lost">,
    Option<"injectNmsWalkRowNotMerged", "inject-nms-walk-row-not-merged",
           "bool", /*default=*/"false", "Fault nms-walk-row-not-merged">,
    Option<"injectNmsTileLastRowFirstBox", "inject-nms-tile-last-row-first-box",
           "bool", /*default=*/"false", "Fault nms-tile-last-row-first-box">,
    Option<"stageNmsBoxes", "stage-nms-boxes", "bool", /*default=*/"true",
           "mask_blocks stages each mask column's boxes in workgroup memory "
           "(distribute); false reads them from the boxes (tileandfuse)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def KernelAllocsToAttributions
    : Pass<"sift-kernel-allocs-to-attributions", "mlir::gpu::GPUModuleOp"> {
  let summary = "Workgroup allocs and private allocas become gpu.func attributions";
  let description = [{
    In every `gpu.func` of the module: a statically shaped `memref.alloc` in
    `#gpu.address_space<workgroup>` becomes a workgroup attribution (shared
    by the workgroup's threads; upstream would lower the alloc to a
    per-thread `malloc`), and a statically shaped `memref.alloca` in
    `#gpu.address_space<private>` a private attribution (a stack slot in the
    entry block, however deep in loops the alloca was). Their deallocs go.

    With `inject-wg-alloc-as-malloc` (fault wg-alloc-as-malloc) workgroup
    allocs are left as they are and the NVVM / ROCDL lowering turns them into
    calls to `malloc`.

    Every attribution gets `llvm.align = 16`: without an explicit alignment
    LLVM's middle end assumes 16 bytes for arrays over 128 bits and forms
    16-byte vector accesses, but the NVPTX printer declares the array with
    its element's alignment, and the kernel faults with a misaligned
    address. With `inject-wg-unaligned` (fault wg-unaligned) they get none.
  }];
  let options = [
    Option<"injectWgAllocAsMalloc", "inject-wg-alloc-as-malloc", "bool",
           /*default=*/"false", "Fault wg-alloc-as-malloc">,
    Option<"injectWgUnaligned", "inject-wg-unaligned", "bool",
           /*default=*/"false",
           "Fault wg-unaligned: attributions get no explicit alignment">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def RecordDispatchPlan : Pass<"sift-record-dispatch-plan", "mlir::ModuleOp"> {
  let summary = "Records the host dispatch plan of a bufferized program";
  let description = [{
    For the cpu pipeline: reads the bufferized signature of the entry
    function (inputs first, then the outputs that buffer-results-to-out-params
    made into arguments) and writes a `sift.dispatch_plan` module attribute:
    one buffer per argument (element type, shape, role) and one dispatch of
    the entry on a 1x1x1 grid binding every buffer in order. The compiler
    turns it into the artifact's plan. Fails on a signature the plan cannot
    express (a non-memref argument, a dynamic shape, a result).
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The function to dispatch">,
  ];
}

def CopiesToLinalg : Pass<"sift-copies-to-linalg"> {
  let summary = "Turns memref.copy into linalg.copy";
  let description = [{
    A `memref.copy` between non-contiguous views lowers to a call of the
    `memrefCopy` runtime function, which no sift artifact links. This pass
    rewrites every copy as `linalg.copy`, which lowers to loops.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ExpandBf16ForHost : Pass<"sift-expand-bf16-for-host"> {
  let summary = "bf16 arithmetic in f32 and bf16 casts as integer ops";
  let description = [{
    An x86 host has no bf16 arithmetic: LLVM promotes it to f32 and rounds
    back with `__truncsfbf2`, which Debian 12's libgcc lacks, so a host
    library holding one does not load. This pass computes every arith and
    math op on bf16 in f32 (extf, the op, truncf: the one rounding a bf16
    op does; negf and absf stay), and expands `extf` from and `truncf` to
    bf16 into integer arithmetic (a shift; a round to nearest even with a
    quiet NaN). The cpu pipeline and the emu device's host kernels run it;
    the GPU targets lower bf16 themselves.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def MergeKernelModules : Pass<"sift-merge-kernel-modules", "mlir::ModuleOp"> {
  let summary = "Moves a program's kernels into one kernel module";
  let description = [{
    Moves the kernels of every `gpu.module` into the first, renaming a
    kernel whose name is taken there, and points the `gpu.launch_func` ops
    at them, so that the GPU back end, ptxas and the driver compile one
    module a program instead of one a kernel.
  }];
}

def DedupeKernels : Pass<"sift-dedupe-kernels", "mlir::ModuleOp"> {
  let summary = "Makes kernel modules with the same contents one";
  let description = [{
    Kernel outlining makes a `gpu.module` for every `gpu.launch`, even when
    two launches run the same code on other buffers (a radix sort's middle
    passes, whose pass number each kernel loads; the scans of every pass).
    This pass keeps the first of the kernel modules whose contents print
    the same (the module's own name aside, locations ignored), points the
    `gpu.launch_func` ops of the others at it and erases them, so that the
    GPU backend compiles each kernel once and the oracles check it once.
  }];
}

def ExtractGpuPlan : Pass<"sift-extract-gpu-plan", "mlir::ModuleOp"> {
  let summary = "Extracts the dispatch plan from the host side of a GPU program";
  let description = [{
    After kernel outlining, the entry function may hold only what the
    runtime's plan can express: constants, `memref.alloc` of static
    temporaries (and their deallocs), `gpu.launch_func` with constant grid and
    block sizes whose operands are whole buffers, and the return. The pass
    rewrites `sift.dispatch_plan`: the argument buffers recorded before
    bufferization, then one temporary per alloc, and one dispatch per launch
    (module, kernel, grid, block, bindings). A launch with an empty grid is
    erased, and so is every kernel module no launch uses any more. A block
    or grid over the GPU limits (x, y <= 1024 and z <= 64 threads, 1024 in
    all; grid y, z <= 65535) is an error, and so is any other host op.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The host function">,
  ];
}

def HostEntryAbi : Pass<"sift-host-entry-abi", "mlir::ModuleOp"> {
  let summary = "Wraps the entry function in the runtime's host ABI";
  let description = [{
    After lowering to the LLVM dialect, adds
    `void sift_dispatch_0(void **bindings)`: it loads each buffer's base
    pointer from the bindings array, builds the memref descriptor fields
    (pointer, pointer, offset 0, the static sizes and row-major strides that
    `sift.dispatch_plan` records) and calls the entry. Every other defined
    function gets internal linkage so no symbol of the program can interpose
    on the host's.
  }];
  let options = [
    Option<"entry", "entry", "std::string", /*default=*/"\"main\"",
           "The function to wrap">,
    Option<"symbol", "symbol", "std::string",
           /*default=*/"\"sift_dispatch_0\"", "The exported symbol">,
  ];
}

def TestTileSiftOps : Pass<"sift-test-tile", "mlir::func::FuncOp"> {
  let summary = "Tiles every sift op with scf.for (test only)";
  let description = [{
    Tiles each sift op through TilingInterface with the given tile sizes over
    its iteration domain, to test the interface in lit.
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t", "Tile sizes">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def LowerWarpOps : Pass<"sift-lower-warp-ops", "mlir::gpu::GPUModuleOp"> {
  let summary = "sift.warp_ballot, sift.warp_sync and sift.warp_shuffle_up "
                "for one target";
  let description = [{
    In every `gpu.func` of the module, for `target`:
    - `nvvm`: a ballot is `nvvm.vote.sync ballot` over the full warp, a sync
      `nvvm.bar.warp.sync`, a shuffle up `nvvm.shfl.sync up` over the full
      warp with a clamp of 0 (one segment of 32 lanes);
    - `rocdl`: a ballot is `rocdl.ballot` (i64) shifted down by the lane's
      32-lane half of its wave (`gpu.lane_id & 32`), a sync a fence at
      wavefront scope (a wave runs in lockstep; the fence keeps the
      compiler from reordering its workgroup-memory accesses), a shuffle
      up `rocdl.ds_bpermute` from lane `lane - delta` where
      `lane % 32 >= delta`, else from itself.
    The emu device runs these forms (sift-lower-target-kernels-for-host
    emulates the target's warps). Faults: `inject-ballot-low-half`
    (warp-ballot-low-half) hands every lane of ROCDL's wave the ballot's
    low half, so a wave64's upper 32 lanes rank with the lower 32's votes;
    `inject-warp-sync-dropped` (warp-sync-dropped) lowers a sync as
    nothing; `inject-shuffle-wave-width` (warp-shuffle-wave-width) counts a
    shuffle's source lane as in a wave of 32, from the lane's place in its
    warp alone, so on ROCDL's wave of 64 the upper warp reads the lower
    warp's values.
  }];
  let options = [
    Option<"target", "target", "std::string", /*default=*/"\"nvvm\"",
           "nvvm or rocdl">,
    Option<"injectBallotLowHalf", "inject-ballot-low-half", "bool",
           /*default=*/"false", "Fault warp-ballot-low-half">,
    Option<"injectWarpSyncDropped", "inject-warp-sync-dropped", "bool",
           /*default=*/"false", "Fault warp-sync-dropped">,
    Option<"injectShuffleWaveWidth", "inject-shuffle-wave-width", "bool",
           /*default=*/"false", "Fault warp-shuffle-wave-width">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::ROCDL::ROCDLDialect", "::mlir::arith::ArithDialect"];
}

def LowerTargetKernelsForHost
    : Pass<"sift-lower-target-kernels-for-host", "mlir::gpu::GPUModuleOp"> {
  let summary = "The target-lowered kernels (NVVM, ROCDL) as host functions "
                "for the emu device";
  let description = [{
    Takes a gpu.module as the GPU back end gets it (LLVM dialect with NVVM
    or ROCDL ops, bare-pointer kernel parameters, workgroup memory as
    address-space-3 globals) and makes every kernel an
    `llvm.func @kernel(ptr %context, ptr %buffers)` with the emu device's
    ABI (runtime/emu/EmuAbi.h): parameters loaded from the second
    argument; workgroup globals slices of the context's workgroup memory
    (their total in `@<kernel>_workgroup_bytes`, the warp's lanes in
    `@<kernel>_warp_size`); thread, block and lane ids and sizes from the
    context; barriers, warp syncs (NVVM's bar.warp.sync, ROCDL's wavefront
    fence) and ballots (NVVM's vote.sync, ROCDL's ballot of 32 or 64 bits)
    calls of the context's callbacks; every address space the host's.
    Every load, store and atomic whose pointer comes from a parameter, a
    workgroup global or an alloca is bounds-checked against it (out of
    bounds: the context's out-of-bounds callback, and the access goes to
    the start); loads and stores of global and workgroup memory are
    reported to the access callback, except loads of a parameter the kernel
    never writes. libdevice's and OCML's math calls become the host's libm.
    An op of the target the emu device does not model is an error naming
    it.
  }];
  let options = [
    Option<"warpSize", "warp-size", "unsigned", "0",
           "Lanes of a warp (0: from the target, 32 on NVVM, 64 on a gfx9 "
           "chip's ROCDL)">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def DropUnusedLibdevice
    : Pass<"sift-drop-unused-libdevice", "mlir::gpu::GPUModuleOp"> {
  let summary = "Links CUDA's libdevice only into kernels that call it";
  let description = [{
    The NVVM target is attached with libdevice to link, and MLIR's NVPTX
    serializer reads it for every kernel module whether the kernel calls it
    or not (6 % of an nvptx campaign's compile time). After the NVVM
    conversion, a module that declares no `__nv_` function gets its
    `#nvvm.target`s without the link; one that calls libdevice keeps it.
  }];
}

def GridDependencyControl
    : Pass<"sift-grid-dependency-control", "mlir::gpu::GPUModuleOp"> {
  let summary = "Begins sm_90 kernels with a wait for the kernels before them";
  let description = [{
    After the NVVM conversion, every kernel of a module whose NVVM targets
    are all sm_90 or later begins with `griddepcontrol.wait`, so that the
    runtime may launch it programmatically: scheduled once the kernel
    before it has exited, not once the driver has seen that kernel finish.
    Other modules are left as they are.
  }];
  let options = [
    Option<"injectWaitAtExit", "inject-pdl-wait-at-exit", "bool",
           /*default=*/"false",
           "Fault pdl-wait-at-exit: the wait before each return">,
  ];
}

def AmdgpuNoVectorizeShifts
    : Pass<"sift-amdgpu-no-vectorize-shifts", "mlir::gpu::GPUModuleOp"> {
  let summary = "Keeps LLVM 22's vectorizers off AMDGPU kernels that shift "
                "right by a variable amount";
  let description = [{
    LLVM 22's AMDGPU instruction selection crashes (in
    MachineRegisterInfo::constrainRegClass) on a vector logical shift right
    by a variable amount of a float's order bits (the select, and, xor of
    sift's key order), which the loop and SLP vectorizers make when a thread
    computes two such digits in a row: a radix sort whose kernels load
    their pass's number (RadixSortLowering::passIndex) hits it. Each
    `llvm.func` of the module (after the ROCDL conversion) that holds an
    `llvm.lshr` whose amount is not a constant gets the `noimplicitfloat`
    passthrough attribute, which keeps the loop, SLP and load/store
    vectorizers away from it; other kernels are left as they are.
  }];
}

#endif // SIFT_PASSES_PASSES_TD
