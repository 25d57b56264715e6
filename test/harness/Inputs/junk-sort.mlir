// A sort of a prime length (5) with two ops nothing needs: the IR half of
// the reducer should remove them (reduce.test).
func.func @main(%a: tensor<5xi32>) -> tensor<5xi32> {
  %c = arith.constant dense<3> : tensor<5xi32>
  %e = tensor.empty() : tensor<7xf32>
  %s = sift.sort dimension(0) ascending outs(%a : tensor<5xi32>) -> tensor<5xi32>
  return %s : tensor<5xi32>
}
