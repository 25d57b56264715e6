// RUN: sift-opt %s -sift-workgroup-rows -split-input-file -verify-diagnostics -o /dev/null
// What sift-workgroup-rows refuses, each with its message.

#radix = #sift.lowering_config<workgroup_tile = [1], thread_tile = [1], workgroup_size = [64, 1, 1], algorithm = radix_select, row_tile = 64>
// radix_select cannot sort.
func.func @sort(%k: memref<2x100xf32>) {
  // expected-error @+1 {{radix_select selects a top-k; it cannot sort}}
  sift.sort dimension(1) ascending {sift.lowering_config = #radix} outs(%k : memref<2x100xf32>)
  return
}
