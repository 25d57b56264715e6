// RUN: sift-opt %s -sift-workgroup-rows -split-input-file -verify-diagnostics -o /dev/null
// What sift-workgroup-rows refuses, each with its message.

#radix = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = radix_select, row_tile = 64>
// radix_select cannot sort.
func.func @sort(%k: memref<2x100xf32>) {
  // expected-error @+1 {{radix_select selects a top-k; it cannot sort}}
  sift.sort dimension(1) ascending {sift.lowering_config = #radix} outs(%k : memref<2x100xf32>)
  return
}

// -----

#radix = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [2, 1, 1], algorithm = radix_sort, row_tile = 4>
// A comparator region is opaque to a radix sort.
func.func @radix_sort_comparator(%k: memref<2x9xf32>) {
  // expected-error @+1 {{radix_sort needs a named order, not a comparator region}}
  sift.sort dimension(1) {sift.lowering_config = #radix} outs(%k : memref<2x9xf32>) {
  ^bb0(%a: f32, %b: f32):
    %lt = arith.cmpf olt, %a, %b : f32
    sift.yield %lt : i1
  }
  return
}
