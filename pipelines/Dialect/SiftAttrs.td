//===- SiftAttrs.td - Lowering strategy attributes -------------*- tablegen -*-===//
//
// What strategy selection writes and the pipelines read: the pipeline an op
// goes down (#sift.pipeline) and how it is tiled and mapped
// (#sift.lowering_config). Choosing and applying are separate passes, so a
// fuzzer can also force a random valid configuration.
//
//===----------------------------------------------------------------------===//

#ifndef SIFT_DIALECT_SIFTATTRS_TD
#define SIFT_DIALECT_SIFTATTRS_TD

include "pipelines/Dialect/SiftBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

/// The pipelines, as they appear in #sift.pipeline.
def Sift_PipelineKindEnum : I32EnumAttr<"Pipeline", "sift pipeline", [
    I32EnumAttrCase<"Cpu", 0, "cpu">,
    I32EnumAttrCase<"TileAndFuse", 1, "tileandfuse">,
    I32EnumAttrCase<"Distribute", 2, "distribute">
  ]> {
  let cppNamespace = "::sift";
  let genSpecializedAttr = 0;
}

def Sift_PipelineAttr : EnumAttr<Sift_Dialect, Sift_PipelineKindEnum, "pipeline"> {
  let assemblyFormat = "`<` $value `>`";
}

/// How a row (sift ops) or an element (linalg ops) is computed.
def Sift_Algorithm : I32EnumAttr<"Algorithm", "lowering algorithm", [
    // One thread per row: insertion sort / one-pass selection in the row's
    // own memory (the scalar implementation).
    I32EnumAttrCase<"RowPerThread", 0, "row_per_thread">,
    // One thread per element (elementwise linalg ops).
    I32EnumAttrCase<"Elementwise", 1, "elementwise">,
    // One thread per row, staged in private memory: the row is copied into
    // a per-thread buffer, sorted or selected there, and copied back.
    I32EnumAttrCase<"PrivateRow", 2, "private_row">,
    // One workgroup per row: the row is staged in workgroup memory (a
    // gpu.barrier after the copy in and before the copy out) and the
    // workgroup's threads sort it together with a bitonic network over
    // (key, index), which makes it stable; top-k keeps the first k.
    I32EnumAttrCase<"WorkgroupRow", 3, "workgroup_row">,
    // Rows longer than a workgroup's memory: workgroups sort tiles of
    // `row_tile` elements (a bitonic network over (key, index) in workgroup
    // memory), then merge passes double the sorted runs (each element finds
    // its place in the other run by binary search) until one run is left,
    // all in host-allocated plan buffers; top-k keeps only the first k of
    // every run. Several dispatches per op (MergeRows.cpp).
    I32EnumAttrCase<"MergeRows", 4, "merge_rows">,
    // Top-k of long rows: a radix select over order-preserving key bits and
    // then the index (so ties go to the lower index), 8 bits a pass: each
    // pass a histogram dispatch (workgroups of `row_tile` elements of a row,
    // histograms in workgroup memory merged with global atomics) and a pick
    // dispatch that chooses the digit, stopping early when a bucket holds
    // exactly what is left of k; then the k selected are compacted and
    // ranked (RadixSelect.cpp). A `row_tile` of at least the row with at
    // least 256 threads makes it one launch of a workgroup a row.
    I32EnumAttrCase<"RadixSelect", 5, "radix_select">,
    // Long rows of a sort with a named order, or of a top-k: an LSD radix
    // sort over order-preserving key bits, 8 bits a pass, each pass a count
    // dispatch (workgroups of `row_tile` elements, histograms in workgroup
    // memory), a scan dispatch (the tiles' offsets per digit) and a scatter
    // dispatch (each tile sorted by the digit in workgroup memory with two
    // stable 4-bit splits, then written to its offsets); stable, so ties
    // keep the lower index (RadixSort.cpp).
    I32EnumAttrCase<"RadixSort", 6, "radix_sort">,
    // tileandfuse's top-k of long rows along the last dimension, the
    // split-reduction shape: the row viewed as chunks of `row_tile`
    // elements, a per-thread top-k of every chunk (tiled and fused like any
    // op), then a top-k of the chunks' candidates, split again while it is
    // long; a gather maps candidate positions back to indices
    // (SplitTopk.cpp).
    I32EnumAttrCase<"SplitSelect", 7, "split_select">,
    // Top-k of small k (at most 32) over keys of at most 32 bits, one read
    // of the row: a workgroup per chunk of `row_tile` elements of a row,
    // each thread keeping its k best (key bits and position in one i64) in
    // registers, a tree merging the threads' lists in workgroup memory;
    // rows of several chunks a second dispatch that selects from the
    // chunks' candidates (RegisterSelect.cpp).
    I32EnumAttrCase<"RegisterSelect", 8, "register_select">,
    // radix_sort with each pass's offsets found by decoupled look-back (a
    // onesweep sort): one histogram dispatch counts every pass's digits,
    // then a dispatch a pass in which each workgroup takes a tile by
    // ticket, sorts it by the digit in workgroup memory, publishes its
    // digit counts and walks back over earlier tiles' published counts
    // (RadixSort.cpp).
    I32EnumAttrCase<"RadixOnesweep", 9, "radix_onesweep">,
    // NMS per class (sift.nms_per_class): a mask dispatch (a workgroup of
    // 64 threads per (batch, class, block of 64 candidates, `row_tile`
    // word columns): each thread a 64-bit word of the suppression mask,
    // upper triangle only) and a walk dispatch (a workgroup per (batch,
    // class): thread 0 decides a block's 64 candidates in order, then all
    // threads merge the kept boxes' mask rows into the removed set in
    // workgroup memory), over a host-allocated mask (MaskNms.cpp).
    I32EnumAttrCase<"MaskBlocks", 10, "mask_blocks">,
    // NMS per class, tileandfuse's own: the same mask and walk as
    // mask_blocks, but the mask is tiled into thread tiles of `row_tile`
    // candidates x one 64-bit word column: a thread holds its candidates'
    // boxes in private memory and reads each of the column's 64 boxes
    // once, through the sorted order (the gather fused into the tile), for
    // all of its rows; no workgroup memory (MaskNms.cpp).
    I32EnumAttrCase<"MaskTiles", 11, "mask_tiles">,
    // radix_sort with each tile ranked by warp match instead of the two
    // 4-bit splits: every warp ranks its items digit by digit, eight
    // ballots finding the lanes that share a digit, into per-warp counts in
    // workgroup memory, and one scan over (digit, warp) places them; the
    // digits' starts in the tile come with it (RadixSort.cpp). Needs whole
    // warps of 32 threads and at most 16 items a thread.
    I32EnumAttrCase<"RadixMatch", 12, "radix_match">,
    // register_select with a warp queue: each warp keeps its k best spread
    // over its lanes (lane l the l-th), a lane's item enters only when it
    // beats the warp's k-th, and a warp inserts its lanes' entrants one at
    // a time by ballot and shuffles; the warps' lists meet in workgroup
    // memory and the same tree merges them (RegisterSelect.cpp). Needs
    // whole warps of 32 threads and 2 <= k <= 32.
    I32EnumAttrCase<"WarpSelect", 13, "warp_select">
  ]> {
  let cppNamespace = "::sift";
  let genSpecializedAttr = 0;
}

def Sift_AlgorithmAttr : EnumAttr<Sift_Dialect, Sift_Algorithm, "algorithm"> {
  let assemblyFormat = "`<` $value `>`";
}

def Sift_LoweringConfigAttr : AttrDef<Sift_Dialect, "LoweringConfig"> {
  let mnemonic = "lowering_config";
  let summary = "How an op is tiled and mapped to workgroups and threads";
  let description = [{
    Sizes are over the op's iteration domain (for sift ops: every dimension
    but the sorted one; for linalg ops: the loops):
    - `workgroup_tile`: the part of the domain one workgroup computes;
    - `thread_tile`: the part one thread computes (divides the workgroup
      tile; the workgroup has `workgroup_tile / thread_tile` threads);
    - `workgroup_size`: the threads of a workgroup, [x, y, z];
    - `algorithm`: how a point of the domain is computed: `row_per_thread`
      (a thread per row, in the row's own memory), `private_row` (a thread
      per row, staged in private memory), `workgroup_row` (the threads of
      a workgroup together on one row in workgroup memory: both tiles are
      all 1s and `workgroup_size` = [threads, 1, 1]), `merge_rows` (as
      `workgroup_row`, but the threads of a workgroup sort a tile of
      `row_tile` elements of a row, and merge passes join the tiles),
      `radix_select` (top-k only: workgroups of `row_tile` elements of a row
      count key digits, pass after pass), `radix_sort`, `radix_onesweep`, `radix_match`,
      `split_select`, `mask_blocks` (NMS only: a mask dispatch and a walk
      dispatch over a suppression bit-mask; `workgroup_size` is the walk's),
      `mask_tiles` (NMS only: as `mask_blocks`, the mask in thread tiles),
      `register_select` (top-k of small k only: workgroups of `row_tile`
      elements of a row keep their threads' k best in registers),
      `warp_select` (as `register_select`, a warp's k best over its lanes)
      or `elementwise`;
    - `row_tile`: `merge_rows`, `radix_select`, `radix_sort`,
      `radix_onesweep`, `radix_match`, `split_select`, `register_select` and
      `warp_select` only, the elements of a row one workgroup sorts,
      counts or selects from (a power of two); for `mask_blocks` the mask
      words (columns) one mask workgroup computes for its 64 candidates (a
      power of two, from 1); for `mask_tiles` the candidates (rows) of a
      thread's tile (a power of two, 1 to 64); absent (0) otherwise.

    ```mlir
    #sift.lowering_config<workgroup_tile = [1, 64], thread_tile = [1, 1],
        workgroup_size = [64, 1, 1], algorithm = row_per_thread>
    #sift.lowering_config<workgroup_tile = [1], thread_tile = [1],
        workgroup_size = [256, 1, 1], algorithm = merge_rows, row_tile = 4096>
    ```
  }];
  let parameters = (ins "::mlir::DenseI64ArrayAttr":$workgroupTile,
                        "::mlir::DenseI64ArrayAttr":$threadTile,
                        "::mlir::DenseI64ArrayAttr":$workgroupSize,
                        "::sift::Algorithm":$algorithm,
                        OptionalParameter<"int64_t">:$rowTile);
  let assemblyFormat = [{
    `<` `workgroup_tile` `=` $workgroupTile `,` `thread_tile` `=` $threadTile `,`
        `workgroup_size` `=` $workgroupSize `,` `algorithm` `=` $algorithm
        (`,` `row_tile` `=` $rowTile^)? `>`
  }];
  let builders = [
    AttrBuilder<(ins "::mlir::DenseI64ArrayAttr":$workgroupTile,
                     "::mlir::DenseI64ArrayAttr":$threadTile,
                     "::mlir::DenseI64ArrayAttr":$workgroupSize,
                     "::sift::Algorithm":$algorithm), [{
      return $_get($_ctxt, workgroupTile, threadTile, workgroupSize,
                   algorithm, 0);
    }]>
  ];
  let genVerifyDecl = 1;
}

#endif // SIFT_DIALECT_SIFTATTRS_TD
