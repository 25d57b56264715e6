func.func @main(%a: tensor<?x1x1xi32>, %b: tensor<4x?x?xi32>) -> tensor<4x?x?xi32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cast = tensor.cast %a : tensor<?x1x1xi32> to tensor<?x?x?xi32>
  %sorted = iree_linalg_ext.sort dimension(0) outs(%cast : tensor<?x?x?xi32>) {
  ^bb0(%x: i32, %y: i32):
    %le = arith.cmpi sle, %x, %y : i32
    iree_linalg_ext.yield %le : i1
  } -> tensor<?x?x?xi32>
  %cast4 = tensor.cast %sorted : tensor<?x?x?xi32> to tensor<4x?x?xi32>
  %d1 = tensor.dim %b, %c1 : tensor<4x?x?xi32>
  %d2 = tensor.dim %b, %c2 : tensor<4x?x?xi32>
  %init = tensor.empty(%d1, %d2) : tensor<4x?x?xi32>
  %min = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>, affine_map<(i, j, k) -> (i, j, k)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b, %cast4 : tensor<4x?x?xi32>, tensor<4x?x?xi32>) outs(%init : tensor<4x?x?xi32>) {
  ^bb0(%p: i32, %q: i32, %o: i32):
    %m = arith.minsi %p, %q : i32
    linalg.yield %m : i32
  } -> tensor<4x?x?xi32>
  return %min : tensor<4x?x?xi32>
}
