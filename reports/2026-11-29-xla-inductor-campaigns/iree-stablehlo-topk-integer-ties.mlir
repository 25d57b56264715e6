// IREE 3.13 (llvm-cpu, --iree-input-type=stablehlo): chlo.top_k with is_stable = true of
// i32 [0, 1, 2, 3, 0, 1, 2, 3], k = 6. ChloOps.td: "if two elements are equal, the
// lower-index element appears first": indices [3, 7, 2, 6, 1, 5]. IREE gives
// [7, 3, 6, 2, 5, 1]; the same program over f32 keys gives the right order.
//   iree-compile --iree-input-type=stablehlo --iree-hal-target-device=local \
//     --iree-hal-local-target-device-backends=llvm-cpu --iree-llvmcpu-target-cpu=generic \
//     iree-stablehlo-topk-integer-ties.mlir -o t.vmfb
//   iree-run-module --module=t.vmfb --device=local-task --input="1x8xi32=0 1 2 3 0 1 2 3"
func.func @main(%arg0: tensor<1x8xi32>) -> (tensor<1x6xi32>, tensor<1x6xi32>) {
  %0:2 = chlo.top_k(%arg0, k = 6, is_stable = true) : tensor<1x8xi32> -> (tensor<1x6xi32>, tensor<1x6xi32>)
  return %0#0, %0#1 : tensor<1x6xi32>, tensor<1x6xi32>
}
