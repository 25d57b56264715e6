//===- SiftOps.td - sort, topk, nms, nms_per_class, yield ----*- tablegen -*-===//
//
// The ops of the sift dialect. Each has a summary, a description with an
// example and its tie and NaN rules, a declarative assembly format and a
// verifier; every verifier rule is pinned by test/Dialect/invalid.mlir.
//
//===----------------------------------------------------------------------===//

#ifndef SIFT_DIALECT_SIFTOPS_TD
#define SIFT_DIALECT_SIFTOPS_TD

include "pipelines/Dialect/SiftBase.td"
include "pipelines/Dialect/SiftAttrs.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/DestinationStyleOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/TilingInterface.td"

def Sift_ShapedOperand : AnyTypeOf<[AnyRankedTensor, AnyStridedMemRef]>;

//===----------------------------------------------------------------------===//
// sift.sort
//===----------------------------------------------------------------------===//

def Sift_SortOp : Sift_Op<"sort", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TilingInterface,
      ["getLoopIteratorTypes", "getIterationDomain", "getTiledImplementation",
       "getResultTilePosition", "generateScalarImplementation"]>]> {
  let summary = "Stable sort of one or more operands along a dimension";
  let description = [{
    Sorts every 1-D slice along `dimension` of the key operand (the first),
    moving the other operands in lockstep. The op works in place on its
    `outs`: on tensors it returns the sorted values, on memrefs it writes them.

    The order is either a named order, `ascending` or `descending`, or a
    comparator region that receives two key elements `(lhs, rhs)` and yields
    `lhs < rhs` as `i1`. The region must be a strict weak order over the
    values the program can see.

    Named orders use the float total order
    `-inf < ... < -0.0 == +0.0 < ... < +inf < NaN`, where every NaN is one
    class larger than `+inf`; `descending` puts NaN first. Integers are
    compared as signed. The sort is **stable**: elements whose keys compare
    equal keep their input order (so `-0.0` and `+0.0` keep theirs). Outputs
    keep the exact bits of the elements they came from.

    Example:
    ```mlir
    %k, %i = sift.sort dimension(1) descending
        outs(%keys, %idx : tensor<4x8xf32>, tensor<4x8xi64>)
        -> tensor<4x8xf32>, tensor<4x8xi64>
    %s = sift.sort dimension(0) outs(%a : tensor<16xi32>) {
    ^bb0(%lhs: i32, %rhs: i32):
      %c = arith.cmpi sgt, %lhs, %rhs : i32
      sift.yield %c : i1
    } -> tensor<16xi32>
    ```
  }];
  let arguments = (ins Variadic<Sift_ShapedOperand>:$outputs,
                       I64Attr:$dimension,
                       OptionalAttr<Sift_SortOrder>:$order);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region AnyRegion:$comparator);
  let assemblyFormat = [{
    `dimension` `(` $dimension `)` ($order^)? attr-dict
    `outs` `(` $outputs `:` type($outputs) `)`
    ($comparator^)? (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    /// DestinationStyleOpInterface: every operand is an init.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return getOutputsMutable();
    }
    /// The key operand (the first).
    ::mlir::Value getKey() { return getOutputs().front(); }
    ::mlir::ShapedType getKeyType() {
      return ::llvm::cast<::mlir::ShapedType>(getKey().getType());
    }
    int64_t getRank() { return getKeyType().getRank(); }
    /// True when the order is given by the comparator region.
    bool hasComparator() { return !getComparator().empty(); }
    /// True when the op works on tensors (and has results).
    bool hasPureTensorSemantics() {
      return ::llvm::isa<::mlir::RankedTensorType>(getKey().getType());
    }
  }];
}

//===----------------------------------------------------------------------===//
// sift.topk
//===----------------------------------------------------------------------===//

def Sift_TopkOp : Sift_Op<"topk", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TilingInterface,
      ["getLoopIteratorTypes", "getIterationDomain", "getTiledImplementation",
       "getResultTilePosition", "generateScalarImplementation"]>]> {
  let summary = "The k largest or smallest elements along a dimension";
  let description = [{
    For every 1-D slice of `input` along `dimension`, writes the `k` best
    elements to the values output and their positions (`i64`) to the indices
    output; both outputs have the input's shape with `dimension` replaced by
    `k`, and `0 <= k <= size(dimension)`.

    `largest` keeps the largest elements, largest first; `smallest` the
    smallest, smallest first. The order is the float total order of
    `sift.sort` (NaN larger than everything: with `largest` NaNs come first,
    with `smallest` they are chosen last); integers are signed. **Ties put the
    lower index first**, for `largest` and `smallest` alike. Values keep the
    exact bits of the input element they came from.

    Example:
    ```mlir
    %v, %i = sift.topk dimension(1) k(3) largest ins(%x : tensor<4x8xf32>)
        outs(%v0, %i0 : tensor<4x3xf32>, tensor<4x3xi64>)
        -> tensor<4x3xf32>, tensor<4x3xi64>
    ```
  }];
  let arguments = (ins Sift_ShapedOperand:$input,
                       Sift_ShapedOperand:$values_init,
                       Sift_ShapedOperand:$indices_init,
                       I64Attr:$dimension,
                       I64Attr:$k,
                       Sift_TopkOrder:$order);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    `dimension` `(` $dimension `)` `k` `(` $k `)` $order attr-dict
    `ins` `(` $input `:` type($input) `)`
    `outs` `(` $values_init `,` $indices_init `:` type($values_init) `,` type($indices_init) `)`
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// DestinationStyleOpInterface: the values and indices outputs are inits.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(getOperation(), /*start=*/1,
                                         /*length=*/2);
    }
    ::mlir::ShapedType getInputType() {
      return ::llvm::cast<::mlir::ShapedType>(getInput().getType());
    }
    int64_t getRank() { return getInputType().getRank(); }
    bool isLargest() { return getOrder() == ::sift::TopkOrder::Largest; }
    bool hasPureTensorSemantics() {
      return ::llvm::isa<::mlir::RankedTensorType>(getInput().getType());
    }
  }];
}

//===----------------------------------------------------------------------===//
// sift.nms
//===----------------------------------------------------------------------===//

def Sift_NmsOp : Sift_Op<"nms", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Non-maximum suppression (ONNX NonMaxSuppression)";
  let description = [{
    For every batch `b` and class `c`, selects boxes of `boxes [B, N, 4]` by
    their scores `scores [B, C, N]` (f16, bf16 or f32, computed in f32), exactly as
    ONNX `NonMaxSuppression` (opset 11 and later):

    - candidates are the boxes whose score is `> score_threshold` (strict;
      without a threshold every box, NaN scores included), visited by
      descending score, NaN largest, **ties to the lower box index**;
    - a candidate is selected unless its IoU with a box already selected for
      `(b, c)` is **strictly greater** than `iou_threshold`; selection stops
      after `max_output_boxes_per_class` boxes (a negative value counts as 0);
    - boxes are `[y1, x1, y2, x2]` with any two diagonal corners
      (`center_point_box(0)`, the default) or `[x_center, y_center, width,
      height]` (`center_point_box(1)`);
    - IoU is `intersection / (area_a + area_b - intersection)` in f32, and 0
      when the intersection, either area or the union is `<= 0`: degenerate
      boxes never suppress.

    Results are fixed-capacity: `selected [B * C * max_out, 3]` (i64 rows
    `(batch, class, box)` in batch, class and selection order, rows past the
    count filled with -1) and `count [1]` (i64), the number of valid rows.

    Example:
    ```mlir
    %sel, %n = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5)
        score_threshold(0.25) ins(%boxes, %scores : tensor<1x6x4xf32>,
        tensor<1x3x6xf32>) outs(%s0, %n0 : tensor<6x3xi64>, tensor<1xi64>)
        -> tensor<6x3xi64>, tensor<1xi64>
    ```
  }];
  let arguments = (ins Sift_ShapedOperand:$boxes,
                       Sift_ShapedOperand:$scores,
                       Sift_ShapedOperand:$selected_init,
                       Sift_ShapedOperand:$count_init,
                       I64Attr:$max_output_boxes_per_class,
                       F32Attr:$iou_threshold,
                       OptionalAttr<F32Attr>:$score_threshold,
                       DefaultValuedAttr<I64Attr, "0">:$center_point_box);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    `max_output_boxes_per_class` `(` $max_output_boxes_per_class `)`
    `iou_threshold` `(` $iou_threshold `)`
    (`score_threshold` `(` $score_threshold^ `)`)?
    (`center_point_box` `(` $center_point_box^ `)`)?
    attr-dict
    `ins` `(` $boxes `,` $scores `:` type($boxes) `,` type($scores) `)`
    `outs` `(` $selected_init `,` $count_init `:` type($selected_init) `,`
               type($count_init) `)`
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// DestinationStyleOpInterface: selected and count are inits.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(getOperation(), /*start=*/2,
                                         /*length=*/2);
    }
    /// max(max_output_boxes_per_class, 0): the rows each class may fill.
    int64_t getMaxOutPerClass() {
      return std::max<int64_t>(getMaxOutputBoxesPerClass(), 0);
    }
    bool hasPureTensorSemantics() {
      return ::llvm::isa<::mlir::RankedTensorType>(getBoxes().getType());
    }
  }];
}

//===----------------------------------------------------------------------===//
// sift.nms_per_class
//===----------------------------------------------------------------------===//

def Sift_NmsPerClassOp : Sift_Op<"nms_per_class", [
    DestinationStyleOpInterface,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<TilingInterface,
      ["getLoopIteratorTypes", "getIterationDomain", "getTiledImplementation",
       "getResultTilePosition", "generateScalarImplementation"]>]> {
  let summary = "The selection of sift.nms for each (batch, class), in slots";
  let description = [{
    The tilable core of `sift.nms`, which `sift-decompose-nms` produces: the
    candidates of each `(b, c)` arrive already ordered, `sorted_scores
    [B, C, N]` (descending, NaN first, ties to the lower box index) and
    `order [B, C, N]` (i64: the box of each sorted position). Walking them
    in that order, the op applies the score threshold, the IoU rule and the
    cap of `sift.nms`, and writes the selected box indices of `(b, c)` to
    `slots[b, c, 0 .. counts[b, c])` (i64), leaving the other slots as they
    were. Every `(b, c)` is independent: the iteration domain is
    `[B, C]`, both parallel, and a tile reads whole rows of candidates.

    Example:
    ```mlir
    %slots, %counts = sift.nms_per_class max_output_boxes_per_class(2)
        iou_threshold(0.5) ins(%boxes, %sorted, %order : tensor<1x6x4xf32>,
        tensor<1x3x6xf32>, tensor<1x3x6xi64>) outs(%s0, %c0 :
        tensor<1x3x2xi64>, tensor<1x3xi64>) -> tensor<1x3x2xi64>, tensor<1x3xi64>
    ```
  }];
  let arguments = (ins Sift_ShapedOperand:$boxes,
                       Sift_ShapedOperand:$sorted_scores,
                       Sift_ShapedOperand:$order,
                       Sift_ShapedOperand:$slots_init,
                       Sift_ShapedOperand:$counts_init,
                       I64Attr:$max_output_boxes_per_class,
                       F32Attr:$iou_threshold,
                       OptionalAttr<F32Attr>:$score_threshold,
                       DefaultValuedAttr<I64Attr, "0">:$center_point_box);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let assemblyFormat = [{
    `max_output_boxes_per_class` `(` $max_output_boxes_per_class `)`
    `iou_threshold` `(` $iou_threshold `)`
    (`score_threshold` `(` $score_threshold^ `)`)?
    (`center_point_box` `(` $center_point_box^ `)`)?
    attr-dict
    `ins` `(` $boxes `,` $sorted_scores `,` $order `:` type($boxes) `,`
              type($sorted_scores) `,` type($order) `)`
    `outs` `(` $slots_init `,` $counts_init `:` type($slots_init) `,`
               type($counts_init) `)`
    (`->` type($results)^)?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// DestinationStyleOpInterface: slots and counts are inits.
    ::mlir::MutableOperandRange getDpsInitsMutable() {
      return ::mlir::MutableOperandRange(getOperation(), /*start=*/3,
                                         /*length=*/2);
    }
    int64_t getMaxOutPerClass() {
      return std::max<int64_t>(getMaxOutputBoxesPerClass(), 0);
    }
    bool hasPureTensorSemantics() {
      return ::llvm::isa<::mlir::RankedTensorType>(getBoxes().getType());
    }
  }];
}

//===----------------------------------------------------------------------===//
// sift.yield
//===----------------------------------------------------------------------===//

def Sift_YieldOp : Sift_Op<"yield", [Pure, ReturnLike, Terminator,
                                     HasParent<"SortOp">]> {
  let summary = "Yields the comparator's verdict";
  let description = [{
    Terminates a `sift.sort` comparator region with `lhs < rhs` as `i1`.

    ```mlir
    sift.yield %less : i1
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// sift.warp_ballot, sift.warp_sync, sift.warp_shuffle_up,
// sift.warp_shuffle_idx, sift.wave_any
//===----------------------------------------------------------------------===//

// Warp-level ops of the kernels sift builds (radix_match's ranking, the
// radix sorts' block scans, warp_select's queue), lowered per target by
// sift-lower-warp-ops. A warp is 32 threads of consecutive thread ids (half
// a wave64 on AMD); every lane of the hardware's wave (a warp on NVIDIA,
// both warps of a wave64 on AMD) must reach each op together, as the emu
// device checks. None is Pure: they must not be moved across control flow.

def Sift_WarpBallotOp : Sift_Op<"warp_ballot"> {
  let summary = "The predicates of a warp's 32 threads as a bit mask";
  let description = [{
    Returns an `i32` whose bit `l` is the predicate of lane `l` of the
    calling thread's warp (thread id x modulo 32 within its group of 32).

    ```mlir
    %mask = sift.warp_ballot %pred
    ```
  }];
  let arguments = (ins I1:$predicate);
  let results = (outs I32:$mask);
  let assemblyFormat = "$predicate attr-dict";
}

def Sift_WarpShuffleUpOp : Sift_Op<"warp_shuffle_up"> {
  let summary = "The value of the lane `delta` below, within a warp of 32";
  let description = [{
    Returns the `value` of lane `l - delta` of the calling thread's warp
    (thread id x modulo 32 within its group of 32) to lane `l`, and lane
    `l`'s own `value` where `l < delta`. Every lane of the warp must reach
    it, and the workgroup's threads must be whole warps.

    ```mlir
    %below = sift.warp_shuffle_up %value, 4 : i32
    ```
  }];
  let arguments = (ins I32:$value, ConfinedAttr<I32Attr,
                       [IntMinValue<1>, IntMaxValue<31>]>:$delta);
  let results = (outs I32:$result);
  let assemblyFormat = "$value `,` $delta attr-dict `:` type($value)";
}

def Sift_WarpShuffleIdxOp : Sift_Op<"warp_shuffle_idx"> {
  let summary = "The value of lane `lane` of the warp of 32";
  let description = [{
    Returns the `value` of lane `lane` (0 to 31) of the calling thread's
    warp (thread id x modulo 32 within its group of 32). Every lane of the
    warp must reach it, and the workgroup's threads must be whole warps.

    ```mlir
    %first = sift.warp_shuffle_idx %value, %lane : i32
    ```
  }];
  let arguments = (ins I32:$value, I32:$lane);
  let results = (outs I32:$result);
  let assemblyFormat = "$value `,` $lane attr-dict `:` type($value)";
}

def Sift_WaveAnyOp : Sift_Op<"wave_any"> {
  let summary = "Whether any lane of the hardware's wave holds a predicate";
  let description = [{
    Returns whether `predicate` holds for any lane of the calling thread's
    hardware wave: its warp of 32 on NVIDIA, its wave of 64 (two warps) on
    AMD. A loop whose exit every warp decides for itself would part a wave
    of 64 between two warps' trip counts; a loop that leaves when no lane
    of the wave has work keeps the wave's warp ops together.

    ```mlir
    %more = sift.wave_any %pending
    ```
  }];
  let arguments = (ins I1:$predicate);
  let results = (outs I1:$result);
  let assemblyFormat = "$predicate attr-dict";
}

def Sift_WarpSyncOp : Sift_Op<"warp_sync"> {
  let summary = "Orders the workgroup-memory accesses of a warp's threads";
  let description = [{
    Every thread of the warp waits here; its earlier workgroup-memory
    writes are then visible to the warp's other threads.

    ```mlir
    sift.warp_sync
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // SIFT_DIALECT_SIFTOPS_TD
