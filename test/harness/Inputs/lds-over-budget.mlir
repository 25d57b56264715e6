// A sort whose lowering_config forces its 32768-element row into workgroup
// memory (256 KiB with its indices): over amdgpu's 64 KiB budget. The
// static oracle flags it after sift-workgroup-rows; the AMDGPU backend then
// fails at gpu-module-to-binary. early-finding.test.
func.func @main(%a: tensor<32768xf32>) -> tensor<32768xf32> {
  %r = sift.sort dimension(0) ascending {sift.lowering_config = #sift.lowering_config<workgroup_tile = [], thread_tile = [], workgroup_size = [256, 1, 1], algorithm = workgroup_row>} outs(%a : tensor<32768xf32>) -> tensor<32768xf32>
  return %r : tensor<32768xf32>
}
