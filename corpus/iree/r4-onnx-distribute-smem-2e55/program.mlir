module {
  util.func public @main$async(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
    %c0_i64 = arith.constant 0 : i64
    %c0 = arith.constant 0 : index
    %c-1 = arith.constant -1 : index
    %cst = arith.constant 0.000000e+00 : f32
    %0 = hal.buffer_view.dim<%arg0 : !hal.buffer_view>[0] : index
    %1 = hal.tensor.import wait(%arg1) => %arg0 : !hal.buffer_view -> tensor<?x1x1xf32>{%0}
    %dim = tensor.dim %1, %c0 : tensor<?x1x1xf32>
    %2 = tensor.empty(%dim) : tensor<?x1x1xf32>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<?x1x1xf32>) outs(%2 : tensor<?x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = math.absf %in : f32
      linalg.yield %29 : f32
    } -> tensor<?x1x1xf32>
    %dim_0 = tensor.dim %3, %c0 : tensor<?x1x1xf32>
    %4 = tensor.empty(%dim_0) : tensor<?x1x1xi64>
    %5 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%4 : tensor<?x1x1xi64>) {
    ^bb0(%out: i64):
      %29 = linalg.index 0 : index
      %30 = arith.index_cast %29 : index to i64
      linalg.yield %30 : i64
    } -> tensor<?x1x1xi64>
    %6:2 = iree_linalg_ext.sort {compilation_info = #iree_codegen.compilation_info<lowering_config = #iree_codegen.lowering_config<tile_sizes = [[0, 1, 1]]>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<Distribute> workgroup_size = [64, 1, 1] subgroup_size = 32>>} dimension(0) outs(%3, %5 : tensor<?x1x1xf32>, tensor<?x1x1xi64>) {
    ^bb0(%arg3: f32, %arg4: f32, %arg5: i64, %arg6: i64):
      %29 = arith.cmpf ole, %arg3, %arg4 : f32
      iree_linalg_ext.yield %29 : i1
    } -> tensor<?x1x1xf32>, tensor<?x1x1xi64>
    %dim_1 = tensor.dim %6#1, %c0 : tensor<?x1x1xi64>
    %7 = arith.index_cast %dim_1 : index to i64
    %8 = arith.minsi %7, %c0_i64 : i64
    %9 = arith.index_cast %8 : i64 to index
    %10 = arith.cmpi slt, %dim, %c0 : index
    %11 = arith.addi %dim, %dim_1 : index
    %12 = arith.select %10, %11, %dim : index
    %13 = arith.cmpi slt, %12, %c0 : index
    %14 = arith.select %13, %c-1, %12 : index
    %15 = arith.minsi %14, %dim_1 : index
    %16 = arith.subi %15, %9 : index
    %17 = arith.maxsi %16, %c0 : index
    %extracted_slice = tensor.extract_slice %6#1[%9, 0, 0] [%17, 1, 1] [1, 1, 1] : tensor<?x1x1xi64> to tensor<?x1x1xi64>
    %18 = arith.index_cast %dim : index to i64
    %19 = tensor.empty(%17) : tensor<?x1x1xi64>
    %20 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<?x1x1xi64>) outs(%19 : tensor<?x1x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %29 = arith.addi %in, %18 : i64
      linalg.yield %29 : i64
    } -> tensor<?x1x1xi64>
    %21 = tensor.empty(%17) : tensor<?x1x1xi1>
    %22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<?x1x1xi64>) outs(%21 : tensor<?x1x1xi1>) {
    ^bb0(%in: i64, %out: i1):
      %29 = arith.cmpi slt, %in, %c0_i64 : i64
      linalg.yield %29 : i1
    } -> tensor<?x1x1xi1>
    %23 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22, %20, %extracted_slice : tensor<?x1x1xi1>, tensor<?x1x1xi64>, tensor<?x1x1xi64>) outs(%19 : tensor<?x1x1xi64>) {
    ^bb0(%in: i1, %in_3: i64, %in_4: i64, %out: i64):
      %29 = arith.select %in, %in_3, %in_4 : i64
      linalg.yield %29 : i64
    } -> tensor<?x1x1xi64>
    %24 = tensor.empty(%17) : tensor<?x1x1xf32>
    %25 = linalg.fill ins(%cst : f32) outs(%24 : tensor<?x1x1xf32>) -> tensor<?x1x1xf32>
    %26 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%23 : tensor<?x1x1xi64>) outs(%25 : tensor<?x1x1xf32>) {
    ^bb0(%in: i64, %out: f32):
      %29 = arith.index_cast %in : i64 to index
      %30 = arith.cmpi slt, %29, %dim : index
      cf.assert %30, "index must be smaller than dim size"
      %31 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %31, "index must be larger or equal to 0"
      %extracted = tensor.extract %1[%29, %c0, %c0] : tensor<?x1x1xf32>
      linalg.yield %extracted : f32
    } -> tensor<?x1x1xf32>
    %27 = hal.tensor.barrier join(%26 : tensor<?x1x1xf32>) => %arg2 : !hal.fence
    %dim_2 = tensor.dim %27, %c0 : tensor<?x1x1xf32>
    %28 = hal.tensor.export %27 : tensor<?x1x1xf32>{%dim_2} -> !hal.buffer_view
    util.return %28 : !hal.buffer_view
  }
  util.func public @main(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
    %0 = util.null : !hal.fence
    %c-1_i32 = arith.constant -1 : i32
    %c0 = arith.constant 0 : index
    %device_0 = hal.devices.get %c0 : !hal.device
    %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence
    %1 = util.call @main$async(%arg0, %0, %fence) : (!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view
    %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
    util.return %1 : !hal.buffer_view
  }
}