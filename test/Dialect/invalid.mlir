// RUN: sift-opt %s -split-input-file -verify-diagnostics -allow-unregistered-dialect
// One case per verifier rule of sift.sort and sift.topk.

func.func @sort_no_operands() {
  // expected-error @+1 {{expects at least one outs operand}}
  "sift.sort"() <{dimension = 0 : i64, order = 0 : i32}> ({}) : () -> ()
  return
}

// -----

func.func @sort_dim_out_of_range(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{sort dimension 2 is out of range for rank 2}}
  %r = sift.sort dimension(2) ascending outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

func.func @sort_negative_dim(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{sort dimension -1 is out of range for rank 1}}
  %r = sift.sort dimension(-1) ascending outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sort_rank0(%a: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{expects operands of rank >= 1, found rank 0}}
  %r = sift.sort dimension(0) ascending outs(%a : tensor<f32>) -> tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @sort_dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{the sorted dimension 0 must have a static size, found 'tensor<?xf32>'}}
  %r = sift.sort dimension(0) ascending outs(%a : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @sort_shape_mismatch(%a: tensor<4xf32>, %b: tensor<5xi64>) -> (tensor<4xf32>, tensor<5xi64>) {
  // expected-error @+1 {{outs #1 has shape 'tensor<5xi64>' but the key has 'tensor<4xf32>'}}
  %r:2 = sift.sort dimension(0) ascending outs(%a, %b : tensor<4xf32>, tensor<5xi64>) -> tensor<4xf32>, tensor<5xi64>
  return %r#0, %r#1 : tensor<4xf32>, tensor<5xi64>
}

// -----

func.func @sort_bad_key_type(%a: tensor<4xindex>) -> tensor<4xindex> {
  // expected-error @+1 {{key element type must be an integer or a float}}
  %r = sift.sort dimension(0) ascending outs(%a : tensor<4xindex>) -> tensor<4xindex>
  return %r : tensor<4xindex>
}

// -----

func.func @sort_mixed(%a: tensor<4xf32>, %b: memref<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{expects all outs to be tensors or all to be memrefs}}
  %r = sift.sort dimension(0) ascending outs(%a, %b : tensor<4xf32>, memref<4xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sort_memref_results(%a: memref<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{on memrefs must not have results, found 1}}
  %r = sift.sort dimension(0) ascending outs(%a : memref<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sort_result_count(%a: tensor<4xf32>, %b: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{expects one result per outs operand (2), found 1}}
  %r = sift.sort dimension(0) ascending outs(%a, %b : tensor<4xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sort_result_type(%a: tensor<4xf32>) -> tensor<4xf64> {
  // expected-error @+1 {{result #0 has type 'tensor<4xf64>' but outs #0 has type 'tensor<4xf32>'}}
  %r = sift.sort dimension(0) ascending outs(%a : tensor<4xf32>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}

// -----

func.func @sort_both_orders(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{has both a named order and a comparator region}}
  %r = sift.sort dimension(0) ascending outs(%a : tensor<4xf32>) {
  ^bb0(%l: f32, %r: f32):
    %c = arith.cmpf olt, %l, %r : f32
    sift.yield %c : i1
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sort_no_order(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{needs a named order (ascending, descending) or a comparator region}}
  %r = sift.sort dimension(0) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sort_comparator_args(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{comparator region must take two arguments of the key element type 'f32'}}
  %r = sift.sort dimension(0) outs(%a : tensor<4xf32>) {
  ^bb0(%l: f64, %r: f64):
    %c = arith.cmpf olt, %l, %r : f64
    sift.yield %c : i1
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

func.func @sort_comparator_yield(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{comparator region must yield exactly one i1}}
  %r = sift.sort dimension(0) outs(%a : tensor<4xi32>) {
  ^bb0(%l: i32, %r: i32):
    sift.yield %l : i32
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @sort_comparator_terminator(%a: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{comparator region must end with sift.yield}}
  %r = sift.sort dimension(0) outs(%a : tensor<4xi32>) {
  ^bb0(%l: i32, %r: i32):
    %c = arith.cmpi slt, %l, %r : i32
    "test.terminator"(%c) : (i1) -> ()
  } -> tensor<4xi32>
  return %r : tensor<4xi32>
}

// -----

func.func @yield_outside_sort(%c: i1) {
  // expected-error @+1 {{expects parent op 'sift.sort'}}
  sift.yield %c : i1
}

// -----

func.func @topk_k_too_large(%x: tensor<4x8xf32>, %v: tensor<4x9xf32>, %i: tensor<4x9xi64>) {
  // expected-error @+1 {{k = 9 must be in [0, 8], the size of dimension 1}}
  %r:2 = sift.topk dimension(1) k(9) largest ins(%x : tensor<4x8xf32>) outs(%v, %i : tensor<4x9xf32>, tensor<4x9xi64>) -> tensor<4x9xf32>, tensor<4x9xi64>
  return
}

// -----

func.func @topk_k_negative(%x: tensor<8xf32>, %v: tensor<8xf32>, %i: tensor<8xi64>) {
  // expected-error @+1 {{k = -1 must be in [0, 8], the size of dimension 0}}
  %r:2 = sift.topk dimension(0) k(-1) largest ins(%x : tensor<8xf32>) outs(%v, %i : tensor<8xf32>, tensor<8xi64>) -> tensor<8xf32>, tensor<8xi64>
  return
}

// -----

func.func @topk_dim(%x: tensor<8xf32>, %v: tensor<2xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{top-k dimension 1 is out of range for rank 1}}
  %r:2 = sift.topk dimension(1) k(2) largest ins(%x : tensor<8xf32>) outs(%v, %i : tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>, tensor<2xi64>
  return
}

// -----

func.func @topk_rank0(%x: tensor<f32>, %v: tensor<f32>, %i: tensor<i64>) {
  // expected-error @+1 {{expects an input of rank >= 1, found rank 0}}
  %r:2 = sift.topk dimension(0) k(0) largest ins(%x : tensor<f32>) outs(%v, %i : tensor<f32>, tensor<i64>) -> tensor<f32>, tensor<i64>
  return
}

// -----

func.func @topk_dynamic(%x: tensor<?xf32>, %v: tensor<2xf32>, %i: tensor<2xi64>) {
  // expected-error @+1 {{the selected dimension 0 must have a static size, found 'tensor<?xf32>'}}
  %r:2 = sift.topk dimension(0) k(2) largest ins(%x : tensor<?xf32>) outs(%v, %i : tensor<2xf32>, tensor<2xi64>) -> tensor<2xf32>, tensor<2xi64>
  return
}

// -----

func.func @topk_bad_type(%x: tensor<8xindex>, %v: tensor<2xindex>, %i: tensor<2xi64>) {
  // expected-error @+1 {{input element type must be an integer or a float}}
  %r:2 = sift.topk dimension(0) k(2) largest ins(%x : tensor<8xindex>) outs(%v, %i : tensor<2xindex>, tensor<2xi64>) -> tensor<2xindex>, tensor<2xi64>
  return
}

// -----

func.func @topk_values_shape(%x: tensor<4x8xf32>, %v: tensor<4x2xf32>, %i: tensor<4x3xi64>) {
  // expected-error @+1 {{values output must have the input's shape with dimension 1 of size 3 and the input's element type, found 'tensor<4x2xf32>'}}
  %r:2 = sift.topk dimension(1) k(3) largest ins(%x : tensor<4x8xf32>) outs(%v, %i : tensor<4x2xf32>, tensor<4x3xi64>) -> tensor<4x2xf32>, tensor<4x3xi64>
  return
}

// -----

func.func @topk_values_type(%x: tensor<8xf32>, %v: tensor<3xf64>, %i: tensor<3xi64>) {
  // expected-error @+1 {{values output must have the input's shape with dimension 0 of size 3 and the input's element type, found 'tensor<3xf64>'}}
  %r:2 = sift.topk dimension(0) k(3) largest ins(%x : tensor<8xf32>) outs(%v, %i : tensor<3xf64>, tensor<3xi64>) -> tensor<3xf64>, tensor<3xi64>
  return
}

// -----

func.func @topk_indices_type(%x: tensor<8xf32>, %v: tensor<3xf32>, %i: tensor<3xi32>) {
  // expected-error @+1 {{indices output must be i64 with the values' shape, found 'tensor<3xi32>'}}
  %r:2 = sift.topk dimension(0) k(3) largest ins(%x : tensor<8xf32>) outs(%v, %i : tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>, tensor<3xi32>
  return
}

// -----

func.func @topk_mixed(%x: tensor<8xf32>, %v: memref<3xf32>, %i: memref<3xi64>) {
  // expected-error @+1 {{expects input and outs to be all tensors or all memrefs}}
  sift.topk dimension(0) k(3) largest ins(%x : tensor<8xf32>) outs(%v, %i : memref<3xf32>, memref<3xi64>)
  return
}

// -----

func.func @topk_result_count(%x: tensor<8xf32>, %v: tensor<3xf32>, %i: tensor<3xi64>) {
  // expected-error @+1 {{expects one result per outs operand (2), found 1}}
  %r = sift.topk dimension(0) k(3) largest ins(%x : tensor<8xf32>) outs(%v, %i : tensor<3xf32>, tensor<3xi64>) -> tensor<3xf32>
  return
}

// -----

// #sift.lowering_config verifier rules.
// expected-error @+1 {{thread_tile 3 does not divide workgroup_tile 4 in dimension 0}}
func.func private @bad_thread_tile() attributes {c = #sift.lowering_config<workgroup_tile = [4], thread_tile = [3], workgroup_size = [1, 1, 1], algorithm = row_per_thread>}

// -----

// expected-error @+1 {{workgroup_tile has 2 sizes but thread_tile has 1}}
func.func private @bad_ranks() attributes {c = #sift.lowering_config<workgroup_tile = [4, 4], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = row_per_thread>}

// -----

// expected-error @+1 {{workgroup_size needs 3 sizes [x, y, z], found 2}}
func.func private @bad_size() attributes {c = #sift.lowering_config<workgroup_tile = [4], thread_tile = [1], workgroup_size = [4, 1], algorithm = row_per_thread>}

// -----

// expected-error @+1 {{workgroup_size has 2048 threads, more than 1024}}
func.func private @too_many() attributes {c = #sift.lowering_config<workgroup_tile = [2048], thread_tile = [1], workgroup_size = [2048, 1, 1], algorithm = row_per_thread>}

// -----

// expected-error @+1 {{workgroup_tile / thread_tile needs 8 threads but workgroup_size has 4}}
func.func private @mismatch() attributes {c = #sift.lowering_config<workgroup_tile = [8], thread_tile = [1], workgroup_size = [4, 1, 1], algorithm = row_per_thread>}

// -----

// expected-error @+1 {{tile sizes must be >= 1, dimension 0 has workgroup 0 and thread 1}}
func.func private @zero() attributes {c = #sift.lowering_config<workgroup_tile = [0], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = row_per_thread>}

// -----

// expected-error @+1 {{workgroup_row computes a row in workgroups: workgroup_tile and thread_tile must be all 1s}}
func.func private @wg_row_tile() attributes {c = #sift.lowering_config<workgroup_tile = [2], thread_tile = [1], workgroup_size = [2, 1, 1], algorithm = workgroup_row>}

// -----

// expected-error @+1 {{workgroup_row spreads a row over x: workgroup_size must be [threads, 1, 1]}}
func.func private @wg_row_size() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [16, 2, 1], algorithm = workgroup_row>}

// -----

// expected-error @+1 {{merge_rows needs a row_tile that is a power of two >= 2, found 0}}
func.func private @merge_no_tile() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = merge_rows>}

// -----

// expected-error @+1 {{merge_rows needs a row_tile that is a power of two >= 2, found 48}}
func.func private @merge_odd_tile() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = merge_rows, row_tile = 48>}

// -----

// expected-error @+1 {{row_tile is for merge_rows, radix_select, radix_sort, radix_onesweep, radix_match, split_select, register_select, warp_select, mask_blocks and mask_tiles only, not workgroup_row}}
func.func private @tile_not_merge() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = workgroup_row, row_tile = 64>}

// -----

// split_select's chunk may be any length from 2 (75968 in
// Transforms/split-topk.mlir's @long_chunks), but not 1.
// expected-error @+1 {{split_select needs a row_tile >= 2, found 1}}
func.func private @split_tile() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [1, 1, 1], algorithm = split_select, row_tile = 1>}

// -----

// expected-error @+1 {{radix_select needs a row_tile that is a power of two >= 2, found 1}}
func.func private @radix_tile() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = radix_select, row_tile = 1>}

// -----

// expected-error @+1 {{merge_rows computes a row in workgroups: workgroup_tile and thread_tile must be all 1s}}
func.func private @merge_tile() attributes {c = #sift.lowering_config<workgroup_tile = [2], thread_tile = [1], workgroup_size = [2, 1, 1], algorithm = merge_rows, row_tile = 64>}

// -----
// sift.nms

func.func @nms_boxes_rank(%b: tensor<1x6xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{boxes must be [B, N, 4], found 'tensor<1x6xf32>'}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<1x6xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_boxes_type(%b: tensor<1x6x4xf64>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{boxes must be f16, bf16 or f32, found 'f64'}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<1x6x4xf64>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_scores_type(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xi32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{scores must be f16, bf16 or f32, found 'i32'}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xi32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_scores_shape(%b: tensor<1x6x4xf32>, %s: tensor<1x1x5xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{scores must be [B, C, N] with B and N of the boxes, found 'tensor<1x1x5xf32>' for boxes 'tensor<1x6x4xf32>'}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x5xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_scores_batch(%b: tensor<2x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{scores must be [B, C, N] with B and N of the boxes}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<2x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_dynamic(%b: tensor<?x6x4xf32>, %s: tensor<?x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{needs static shapes}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<?x6x4xf32>, tensor<?x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_iou_range(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{iou_threshold must be in [0, 1], found 1.5}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(1.5) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_iou_nan(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{iou_threshold must be in [0, 1], found nan}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0x7FC00000) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_score_nan(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{score_threshold must not be NaN}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) score_threshold(0x7FC00000) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_center(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{center_point_box must be 0 or 1, found 2}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) center_point_box(2) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_selected_rows(%b: tensor<2x6x4xf32>, %s: tensor<2x3x6xf32>, %o: tensor<6x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{selected must be i64 of shape [B * C * max(max_output_boxes_per_class, 0), 3] = [12, 3], found 'tensor<6x3xi64>'}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<2x6x4xf32>, tensor<2x3x6xf32>) outs(%o, %c : tensor<6x3xi64>, tensor<1xi64>) -> tensor<6x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_selected_negative(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{= [0, 3], found 'tensor<2x3xi64>'}}
  %r:2 = sift.nms max_output_boxes_per_class(-2) iou_threshold(0.5) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>, tensor<1xi64>
  return
}

// -----

func.func @nms_selected_type(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi32>, %c: tensor<1xi64>) {
  // expected-error @+1 {{selected must be i64}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi32>, tensor<1xi64>) -> tensor<2x3xi32>, tensor<1xi64>
  return
}

// -----

func.func @nms_count(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<2xi64>) {
  // expected-error @+1 {{count must be i64 of shape [1], found 'tensor<2xi64>'}}
  %r:2 = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<2xi64>) -> tensor<2x3xi64>, tensor<2xi64>
  return
}

// -----

func.func @nms_mixed(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: memref<2x3xi64>, %c: memref<1xi64>) {
  // expected-error @+1 {{expects ins and outs to be all tensors or all memrefs}}
  sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : memref<2x3xi64>, memref<1xi64>)
  return
}

// -----

func.func @nms_results(%b: tensor<1x6x4xf32>, %s: tensor<1x1x6xf32>, %o: tensor<2x3xi64>, %c: tensor<1xi64>) {
  // expected-error @+1 {{expects one result per outs operand (2), found 1}}
  %r = sift.nms max_output_boxes_per_class(2) iou_threshold(0.5) ins(%b, %s : tensor<1x6x4xf32>, tensor<1x1x6xf32>) outs(%o, %c : tensor<2x3xi64>, tensor<1xi64>) -> tensor<2x3xi64>
  return
}

// -----
// sift.nms_per_class

func.func @per_class_order(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %o: tensor<1x2x6xi32>, %sl: tensor<1x2x3xi64>, %n: tensor<1x2xi64>) {
  // expected-error @+1 {{order must be i64 of the sorted scores' shape, found 'tensor<1x2x6xi32>'}}
  %r:2 = sift.nms_per_class max_output_boxes_per_class(3) iou_threshold(0.5) ins(%b, %s, %o : tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1x2x6xi32>) outs(%sl, %n : tensor<1x2x3xi64>, tensor<1x2xi64>) -> tensor<1x2x3xi64>, tensor<1x2xi64>
  return
}

// -----

func.func @per_class_slots(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %o: tensor<1x2x6xi64>, %sl: tensor<1x2x2xi64>, %n: tensor<1x2xi64>) {
  // expected-error @+1 {{slots must be i64 of shape [B, C, max(max_output_boxes_per_class, 0)], found 'tensor<1x2x2xi64>'}}
  %r:2 = sift.nms_per_class max_output_boxes_per_class(3) iou_threshold(0.5) ins(%b, %s, %o : tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1x2x6xi64>) outs(%sl, %n : tensor<1x2x2xi64>, tensor<1x2xi64>) -> tensor<1x2x2xi64>, tensor<1x2xi64>
  return
}

// -----

func.func @per_class_counts(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %o: tensor<1x2x6xi64>, %sl: tensor<1x2x3xi64>, %n: tensor<2xi64>) {
  // expected-error @+1 {{counts must be i64 of shape [B, C], found 'tensor<2xi64>'}}
  %r:2 = sift.nms_per_class max_output_boxes_per_class(3) iou_threshold(0.5) ins(%b, %s, %o : tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1x2x6xi64>) outs(%sl, %n : tensor<1x2x3xi64>, tensor<2xi64>) -> tensor<1x2x3xi64>, tensor<2xi64>
  return
}

// -----

func.func @per_class_n_dynamic(%b: tensor<1x?x4xf32>, %s: tensor<1x2x?xf32>, %o: tensor<1x2x?xi64>, %sl: tensor<1x2x3xi64>, %n: tensor<1x2xi64>) {
  // expected-error @+1 {{the number of boxes N must be static}}
  %r:2 = sift.nms_per_class max_output_boxes_per_class(3) iou_threshold(0.5) ins(%b, %s, %o : tensor<1x?x4xf32>, tensor<1x2x?xf32>, tensor<1x2x?xi64>) outs(%sl, %n : tensor<1x2x3xi64>, tensor<1x2xi64>) -> tensor<1x2x3xi64>, tensor<1x2xi64>
  return
}

// -----

// expected-error @+1 {{radix_sort gives every thread the same number of elements of a tile, at least one: row_tile 64 over 128 threads}}
func.func private @radix_sort_threads() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [128, 1, 1], algorithm = radix_sort, row_tile = 64>}

// -----

// expected-error @+1 {{radix_onesweep gives every thread the same number of elements of a tile, at least one: row_tile 1024 over 96 threads}}
func.func private @radix_uneven_threads() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [96, 1, 1], algorithm = radix_onesweep, row_tile = 1024>}

// -----

// expected-error @+1 {{radix_match ranks in whole warps of 32 threads, at most 16 elements a thread: 16 threads, row_tile 64}}
func.func private @radix_match_part_warp() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [16, 1, 1], algorithm = radix_match, row_tile = 64>}

// -----

// expected-error @+1 {{radix_match ranks in whole warps of 32 threads, at most 16 elements a thread: 32 threads, row_tile 1024}}
func.func private @radix_match_items() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [32, 1, 1], algorithm = radix_match, row_tile = 1024>}

// -----

// expected-error @+1 {{warp_select keeps a warp's list over its lanes: whole warps of 32 threads, not 48}}
func.func private @warp_select_part_warp() attributes {c = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [48, 1, 1], algorithm = warp_select, row_tile = 1024>}

// -----

// expected-error @+1 {{mask_tiles needs a row_tile (candidates a thread's tile holds) that is a power of two from 1 to 64, found 128}}
func.func private @mask_tiles_rows() attributes {c = #sift.lowering_config<workgroup_tile = [1, 1], thread_tile = [1, 1], workgroup_size = [64, 1, 1], algorithm = mask_tiles, row_tile = 128>}

// -----

// expected-error @+1 {{mask_tiles computes a row in workgroups: workgroup_tile and thread_tile must be all 1s}}
func.func private @mask_tiles_domain() attributes {c = #sift.lowering_config<workgroup_tile = [1, 4], thread_tile = [1, 1], workgroup_size = [64, 1, 1], algorithm = mask_tiles, row_tile = 4>}
